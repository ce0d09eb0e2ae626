//! PGN out. Games are written as they finish (ICCS moves `H2-E2`, or WXF or Chinese with
//! `--pgn-notation`, the `[Variant "xiangqi"]`,
//! `FEN` and `Termination` tags, scores and times as move comments); reading PGN back, and
//! what every PGN writer writes alike, is notation's job (`crate::notation::pgn`).

use super::engine::ReportedScore;
use super::game::GameRecord;
use crate::board::movegen::legal_moves;
use crate::board::position::Position;
use crate::board::types::Color;
use crate::notation::pgn::{pgn_iccs, result_text};
use crate::notation::Notation;
use std::io::{self, Write};

fn score_text(score: ReportedScore) -> String {
    match score {
        ReportedScore::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        ReportedScore::Mate(n) if n > 0 => format!("+M{n}"),
        ReportedScore::Mate(n) => format!("-M{}", -n),
    }
}

/// Tags beyond the game itself.
pub struct PgnContext<'a> {
    pub event: &'a str,
    pub date: &'a str,
    pub round: u32,
    pub time_control: &'a str,
    /// The move-count limit the game was played under (`--draw-plies`).
    pub draw_plies: u16,
    pub max_moves: Option<u32>,
    /// How the moves are written (the `Format` tag says which).
    pub notation: Notation,
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

pub fn write_game(out: &mut impl Write, game: &GameRecord, context: &PgnContext) -> io::Result<()> {
    let result = result_text(game.winner);
    // `Red`/`Black` is the xiangqi convention (xqbase); `White` repeats Red's name for chess
    // tools (Ordo, BayesElo, pgn-extract) that read the seven-tag roster.
    let mut tags = vec![
        ("Event", context.event.to_string()),
        ("Site", "?".to_string()),
        ("Date", context.date.to_string()),
        ("Round", context.round.to_string()),
        ("Red", game.red.clone()),
        ("White", game.red.clone()),
        ("Black", game.black.clone()),
        ("Result", result.to_string()),
        ("Variant", "xiangqi".to_string()),
        ("SetUp", "1".to_string()),
        ("FEN", game.fen.clone()),
        ("Format", context.notation.pgn_format().to_string()),
        ("TimeControl", context.time_control.to_string()),
        ("DrawPlies", context.draw_plies.to_string()),
    ];
    if let Some(n) = context.max_moves {
        tags.push(("MaxMoves", n.to_string()));
    }
    tags.push(("PlyCount", game.moves.len().to_string()));
    tags.push(("Termination", game.termination.tag().to_string()));
    for (name, value) in tags {
        writeln!(out, "[{name} \"{}\"]", escape(&value))?;
    }
    writeln!(out)?;
    let start = Position::from_fen(&game.fen).ok();
    let mut black_to_move = start
        .as_ref()
        .is_some_and(|p| p.side_to_move() == Color::Black);
    let mut number: u32 = game
        .fen
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
        .max(1);
    let mut tokens = Vec::new();
    // The position each move is written in, for the notations that name pieces.
    let mut board = start.filter(|_| context.notation != Notation::Iccs);
    for (i, played) in game.moves.iter().enumerate() {
        if !black_to_move {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        let text = match board.as_mut() {
            Some(pos) if legal_moves(pos).contains(played.mv) => {
                let text = context.notation.format(pos, played.mv);
                pos.make_move(played.mv);
                text
            }
            // Never for a game the runner played; ICCS needs no position.
            _ => {
                board = None;
                pgn_iccs(played.mv)
            }
        };
        tokens.push(text);
        let comment = if played.book {
            "book".to_string()
        } else {
            // To a tenth of a millisecond: fast moves do not all read 0.
            let time = format!("{:.4}s", played.time.as_secs_f64());
            match (played.score, played.depth) {
                (Some(s), Some(d)) => format!("{}/{d} {time}", score_text(s)),
                (Some(s), None) => format!("{} {time}", score_text(s)),
                _ => time,
            }
        };
        tokens.push(format!("{{{comment}}}"));
        if black_to_move {
            number += 1;
        }
        black_to_move = !black_to_move;
    }
    tokens.push(format!("{{{}}}", game.reason.replace('}', ")")));
    tokens.push(result.to_string());
    // Wrap at 80 columns; tokens are never split. Chinese characters take two columns.
    let columns =
        |text: &str| -> usize { text.chars().map(|c| 1 + usize::from(!c.is_ascii())).sum() };
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && columns(&line) + 1 + columns(&token) > 80 {
            writeln!(out, "{line}")?;
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    writeln!(out, "{line}")?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::{parse_coords, RankBase};
    use crate::board::types::Move;
    use crate::matchrun::game::{PlayedMove, Termination};
    use crate::notation::pgn::read_games;

    fn played(text: &str, book: bool, score: Option<ReportedScore>) -> PlayedMove {
        let mv = parse_coords(text, RankBase::Zero).unwrap();
        PlayedMove {
            mv,
            score,
            depth: score.map(|_| 7),
            time: std::time::Duration::from_micros(1_234_500),
            book,
        }
    }

    #[test]
    fn written_game_reads_back_and_replays() {
        let game = GameRecord {
            red: "A \"quoted\"".into(),
            black: "B".into(),
            fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1".into(),
            moves: vec![
                played("h9g7", true, None),
                played("h2e2", false, Some(ReportedScore::Cp(35))),
                played("i9h9", false, Some(ReportedScore::Mate(-4))),
            ],
            winner: Some(Color::Black),
            termination: Termination::TimeForfeit,
            reason: "Red (A) loses on time".into(),
            label: "time forfeit",
            restart: [false; 2],
        };
        for (notation, format, moves) in [
            (Notation::Iccs, "ICCS", ["H9-G7", "H2-E2", "I9-H9"]),
            (Notation::Wxf, "WXF", ["H8+7", "C2=5", "R9=8"]),
            (
                Notation::Chinese,
                "Chinese",
                ["马８进７", "炮二平五", "车９平８"],
            ),
        ] {
            let mut out = Vec::new();
            let context = PgnContext {
                event: "test",
                date: "2026.01.01",
                round: 7,
                time_control: "10+0.1",
                draw_plies: 100,
                max_moves: None,
                notation,
            };
            write_game(&mut out, &game, &context).unwrap();
            write_game(&mut out, &game, &context).unwrap();
            let text = String::from_utf8(out).unwrap();
            let [a, b, c] = moves;
            assert!(
                text.contains(&format!(
                    "1... {a} {{book}} 2. {b} {{+0.35/7 1.2345s}} {c} {{-M4/7 1.2345s}}"
                )),
                "{text}"
            );
            let games = read_games(&text).unwrap();
            assert_eq!(games.len(), 2);
            let g = &games[1];
            assert_eq!(g.tag("Format"), Some(format));
            assert_eq!(g.tag("Red"), Some("A \"quoted\""));
            assert_eq!(g.tag("White"), Some("A \"quoted\""));
            assert_eq!(g.tag("DrawPlies"), Some("100"));
            assert_eq!(g.tag("Variant"), Some("xiangqi"));
            assert_eq!(g.tag("Termination"), Some("time forfeit"));
            assert_eq!(g.result, "0-1");
            assert_eq!(
                g.comments.last().map(String::as_str),
                Some("Red (A) loses on time")
            );
            let replayed: Vec<Move> = g
                .replay()
                .unwrap()
                .history()
                .iter()
                .filter_map(|u| u.mv)
                .collect();
            let played: Vec<Move> = game.moves.iter().map(|m| m.mv).collect();
            assert_eq!(replayed, played, "{format}");
        }
    }
}
