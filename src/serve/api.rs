//! The game side of the JSON API: a game arrives as a start FEN and its moves, is replayed with
//! Chariot's own rules, and goes back as what the page draws (board, legal moves, move list in
//! every notation, the ending and its reason). Nothing here remembers a game between requests.

use super::http::ApiError;
use crate::board::movegen::legal_moves;
use crate::board::position::Position;
use crate::board::types::{Color, Move};
use crate::notation::pgn::{parse_pgn_move, pgn_iccs, read_games, result_text, today};
use crate::notation::Notation;
use crate::rules::{adjudicate, GameOutcome};
use serde::Deserialize;
use serde_json::{json, Value};

/// The longest game accepted (plies). The 60-move rule and the 32 pieces bound a real game
/// near 3,800 plies; the cap keeps one request's work small.
pub(crate) const MAX_PLIES: usize = 4000;

/// A game: where it starts, its moves, and the ply the page is looking at.
#[derive(Deserialize, Debug, Default)]
pub(crate) struct GameLine {
    /// The start position (default: the standard start).
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves from it, in ICCS (`h2e2`) or any notation the PGN reader takes.
    #[serde(default)]
    pub moves: Vec<String>,
    /// The ply shown (default: the last).
    #[serde(default)]
    pub ply: Option<usize>,
}

/// A game replayed: its start and its moves, all legal.
pub(crate) struct Game {
    pub start: Position,
    pub moves: Vec<Move>,
}

impl GameLine {
    pub(crate) fn replay(&self) -> Result<Game, ApiError> {
        let start = match self.fen.as_deref().map(str::trim) {
            None | Some("") => Position::startpos(),
            Some(fen) => Position::from_fen(fen)
                .map_err(|e| ApiError::unprocessable(format!("bad FEN '{fen}': {e}")))?,
        };
        if self.moves.len() > MAX_PLIES {
            return Err(ApiError::unprocessable(format!(
                "a game of {} plies is longer than the {MAX_PLIES} accepted",
                self.moves.len()
            )));
        }
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, text) in self.moves.iter().enumerate() {
            let mv = parse_pgn_move(&pos, text)
                .map_err(|e| ApiError::unprocessable(format!("move {} ({text}): {e}", i + 1)))?;
            pos.make_move(mv);
            moves.push(mv);
        }
        Ok(Game { start, moves })
    }

    /// The ply asked for, which must lie within the game.
    pub(crate) fn ply(&self, game: &Game) -> Result<usize, ApiError> {
        match self.ply {
            None => Ok(game.moves.len()),
            Some(ply) if ply <= game.moves.len() => Ok(ply),
            Some(ply) => Err(ApiError::bad_request(format!(
                "ply {ply} is past the end of a game of {} plies",
                game.moves.len()
            ))),
        }
    }
}

impl Game {
    /// The position after the first `ply` moves, with its history (for the repetition rules).
    pub(crate) fn position_at(&self, ply: usize) -> Position {
        let mut pos = self.start.clone();
        for &mv in &self.moves[..ply] {
            pos.make_move(mv);
        }
        pos
    }

    /// What the page draws at `ply`.
    pub(crate) fn state(&self, ply: usize) -> Value {
        let pos = self.position_at(ply);
        let board: String = (0..90)
            .map(|i| {
                let sq = crate::board::types::Square::new(i);
                pos.piece_at(sq).map_or('.', |p| p.letter())
            })
            .collect();
        let mut legal = serde_json::Map::new();
        for mv in legal_moves(&pos).iter() {
            let targets = legal
                .entry(mv.from().to_string())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(list) = targets {
                list.push(Value::String(mv.to().to_string()));
            }
        }
        json!({
            "start_fen": self.start.to_fen(),
            "fen": pos.to_fen(),
            "ply": ply,
            "side": color_name(pos.side_to_move()),
            "check": pos.in_check(),
            "board": board,
            "legal": legal,
            "last": ply.checked_sub(1).map(|i| self.moves[i].to_string()),
            "moves": self.move_texts(),
            "ending": adjudicate(&pos).map(ending_json),
        })
    }

    /// Every move in the three notations, each written in the position it was played in.
    fn move_texts(&self) -> Vec<Value> {
        let mut pos = self.start.clone();
        self.moves
            .iter()
            .map(|&mv| {
                let texts = json!({
                    "iccs": mv.to_string(),
                    "wxf": Notation::Wxf.format(&pos, mv),
                    "chinese": Notation::Chinese.format(&pos, mv),
                });
                pos.make_move(mv);
                texts
            })
            .collect()
    }
}

pub(crate) fn color_name(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Black => "black",
    }
}

fn ending_json(outcome: GameOutcome) -> Value {
    let reason = outcome.reason.describe();
    let text = match outcome.winner {
        Some(Color::Red) => format!("Red wins: {reason}"),
        Some(Color::Black) => format!("Black wins: {reason}"),
        None => format!("Draw: {reason}"),
    };
    json!({
        "winner": outcome.winner.map(color_name),
        "reason": reason,
        "text": text,
    })
}

/// `POST /api/position`: the game at the ply asked for.
pub(crate) fn position(line: GameLine) -> Result<Value, ApiError> {
    let game = line.replay()?;
    let ply = line.ply(&game)?;
    Ok(game.state(ply))
}

#[derive(Deserialize, Debug)]
pub(crate) struct MoveRequest {
    #[serde(flatten)]
    pub line: GameLine,
    /// The move played at `ply` (ICCS or another notation); later moves are dropped.
    #[serde(rename = "move")]
    pub mv: String,
}

/// `POST /api/move`: plays a move at the ply shown, dropping any moves after it. An illegal
/// move, or a move in a game already over, is refused with the reason.
pub(crate) fn play_move(request: MoveRequest) -> Result<Value, ApiError> {
    let mut game = request.line.replay()?;
    let ply = request.line.ply(&game)?;
    game.moves.truncate(ply);
    let pos = game.position_at(ply);
    if let Some(outcome) = adjudicate(&pos) {
        return Err(ApiError::unprocessable(format!(
            "the game is over ({})",
            ending_json(outcome)["text"].as_str().unwrap_or_default()
        )));
    }
    let mv = parse_pgn_move(&pos, &request.mv)
        .map_err(|e| ApiError::unprocessable(format!("illegal move: {e}")))?;
    game.moves.push(mv);
    Ok(game.state(game.moves.len()))
}

#[derive(Deserialize, Debug)]
pub(crate) struct LoadRequest {
    /// A FEN, or a PGN game (its first game is read).
    pub text: String,
}

/// `POST /api/load`: a FEN or a PGN game, read by Chariot's readers. The answer is the game
/// (start FEN and ICCS moves, the PGN's result and players) and its state at the first ply.
pub(crate) fn load(request: LoadRequest) -> Result<Value, ApiError> {
    let text = request.text.trim();
    if text.is_empty() {
        return Err(ApiError::unprocessable(
            "nothing to load: give a FEN or a PGN",
        ));
    }
    let looks_like_fen = !text.contains(['[', '{', '\n']) && text.contains('/');
    let (line, tags) = if looks_like_fen {
        let line = GameLine {
            fen: Some(text.to_string()),
            ..GameLine::default()
        };
        (line, json!({}))
    } else {
        let games = read_games(text).map_err(|e| ApiError::unprocessable(format!("PGN: {e}")))?;
        let game = games
            .into_iter()
            .next()
            .ok_or_else(|| ApiError::unprocessable("PGN: no game found"))?;
        let fen = game
            .start()
            .map_err(|e| ApiError::unprocessable(format!("PGN: {e}")))?;
        let tags = json!({
            "result": game.result,
            "red": game.tag("Red"),
            "black": game.tag("Black"),
            "event": game.tag("Event"),
        });
        let line = GameLine {
            fen: Some(fen.to_fen()),
            moves: game.moves,
            ply: Some(0),
        };
        (line, tags)
    };
    let game = line
        .replay()
        .map_err(|e| ApiError::unprocessable(format!("PGN: {}", e.message)))?;
    let moves: Vec<String> = game.moves.iter().map(Move::to_string).collect();
    Ok(json!({
        "fen": game.start.to_fen(),
        "moves": moves,
        "tags": tags,
        "state": game.state(0),
    }))
}

#[derive(Deserialize, Debug)]
pub(crate) struct PgnRequest {
    #[serde(flatten)]
    pub line: GameLine,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (default: the rules' verdict on the last position, or
    /// `*`).
    #[serde(default)]
    pub result: Option<String>,
    /// Why the game ended, when not by the rules (a resignation).
    #[serde(default)]
    pub reason: Option<String>,
    #[serde(default)]
    pub red: Option<String>,
    #[serde(default)]
    pub black: Option<String>,
    #[serde(default)]
    pub notation: Option<String>,
}

/// `POST /api/pgn`: the game as PGN text, in the notation asked for (ICCS by default).
pub(crate) fn pgn(request: PgnRequest) -> Result<String, ApiError> {
    let game = request.line.replay()?;
    let notation = parse_notation(request.notation.as_deref())?;
    let end = game.position_at(game.moves.len());
    let outcome = adjudicate(&end);
    let result = match request.result.as_deref() {
        Some(r @ ("1-0" | "0-1" | "1/2-1/2" | "*")) => r.to_string(),
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "result '{other}': expected 1-0, 0-1, 1/2-1/2 or *"
            )))
        }
        None => outcome.map_or("*", |o| result_text(o.winner)).to_string(),
    };
    let reason = request
        .reason
        .or_else(|| outcome.map(|o| ending_json(o)["text"].as_str().unwrap_or("").to_string()));
    let tag = |value: Option<String>, default: &str| {
        value
            .unwrap_or_else(|| default.to_string())
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
    };
    let mut text = String::new();
    for (name, value) in [
        ("Event", "Chariot in the browser".to_string()),
        ("Site", "?".to_string()),
        ("Date", today()),
        ("Red", tag(request.red, "?")),
        ("Black", tag(request.black, "?")),
        ("Result", result.clone()),
        ("Variant", "xiangqi".to_string()),
        ("FEN", game.start.to_fen()),
        ("Format", notation.pgn_format().to_string()),
    ] {
        text += &format!("[{name} \"{value}\"]\n");
    }
    text.push('\n');
    let mut tokens = Vec::new();
    let mut pos = game.start.clone();
    let mut number = pos.fullmove_number().max(1);
    for (i, &mv) in game.moves.iter().enumerate() {
        let black = pos.side_to_move() == Color::Black;
        if !black {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(match notation {
            Notation::Iccs => pgn_iccs(mv),
            other => other.format(&pos, mv),
        });
        if black {
            number += 1;
        }
        pos.make_move(mv);
    }
    if let Some(reason) = reason.filter(|r| !r.is_empty()) {
        tokens.push(format!("{{{}}}", reason.replace('}', ")")));
    }
    tokens.push(result);
    text += &tokens.join(" ");
    text.push('\n');
    Ok(text)
}

/// `iccs`, `wxf` or `chinese` (default ICCS).
pub(crate) fn parse_notation(text: Option<&str>) -> Result<Notation, ApiError> {
    match text {
        None | Some("iccs") => Ok(Notation::Iccs),
        Some("wxf") => Ok(Notation::Wxf),
        Some("chinese") => Ok(Notation::Chinese),
        Some(other) => Err(ApiError::bad_request(format!(
            "notation '{other}': expected iccs, wxf or chinese"
        ))),
    }
}
