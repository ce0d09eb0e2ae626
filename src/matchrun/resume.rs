//! `--resume FILE.pgn`: the games an interrupted match already wrote, put back in their places
//! in the schedule by their `Round` tags (the runner writes the game's schedule index + 1), so
//! the match plays only what is missing and ends with the totals of an uncut run.

use super::game::{GameRecord, PlayedMove, Termination};
use crate::notation::pgn::{parse_pgn_move, read_games};
use crate::Color;

/// What the schedule says game `index` is: Red's and Black's names and the start FEN; `None`
/// past the end of the match.
pub type Expect<'a> = &'a dyn Fn(u64) -> Option<(String, String, String)>;

/// Reads the finished games of `path` with their schedule indices, checking each is the game
/// the schedule has at that index (same engines, colours and opening).
pub fn load(path: &str, expect: Expect) -> Result<Vec<(u64, GameRecord)>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the PGN to resume {path}: {e}"))?;
    let games = read_games(&text).map_err(|e| format!("{path}: {e}"))?;
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (n, game) in games.iter().enumerate() {
        let at = || format!("{path}: game {}", n + 1);
        let index = game
            .tag("Round")
            .and_then(|r| r.parse::<u64>().ok())
            .filter(|&r| r > 0)
            .ok_or_else(|| format!("{}: no Round tag from chariot match", at()))?
            - 1;
        if !seen.insert(index) {
            return Err(format!("{}: round {} appears twice", at(), index + 1));
        }
        let (red, black, fen) = expect(index).ok_or_else(|| {
            format!(
                "{}: round {} is past the end of this match",
                at(),
                index + 1
            )
        })?;
        let tag = |name| game.tag(name).unwrap_or("");
        if (tag("Red"), tag("Black")) != (red.as_str(), black.as_str()) {
            return Err(format!(
                "{}: round {} was {} vs {}, the schedule has {red} vs {black} \
                 (give the same engines in the same order)",
                at(),
                index + 1,
                tag("Red"),
                tag("Black")
            ));
        }
        if tag("FEN") != fen {
            return Err(format!(
                "{}: round {} started from another opening (give the same --openings, \
                 with the seed the first run printed)",
                at(),
                index + 1
            ));
        }
        let winner = match game.result.as_str() {
            "1-0" => Some(Color::Red),
            "0-1" => Some(Color::Black),
            "1/2-1/2" => None,
            other => return Err(format!("{}: result '{other}' is not a finished game", at())),
        };
        let termination = Termination::from_tag(tag("Termination"))
            .ok_or_else(|| format!("{}: unknown Termination tag", at()))?;
        let mut pos = game.start()?;
        let mut moves = Vec::new();
        for text in &game.moves {
            let mv = parse_pgn_move(&pos, text).map_err(|e| format!("{}: {e}", at()))?;
            pos.make_move(mv);
            // Not timed again: counted like book moves in the time tables.
            moves.push(PlayedMove {
                mv,
                score: None,
                depth: None,
                time: std::time::Duration::ZERO,
                book: true,
            });
        }
        out.push((
            index,
            GameRecord {
                red,
                black,
                fen,
                moves,
                winner,
                termination,
                reason: game.comments.last().cloned().unwrap_or_default(),
                // The PGN keeps the category, not the finer label.
                label: termination.tag(),
                restart: [false; 2],
            },
        ));
    }
    out.sort_by_key(|(index, _)| *index);
    Ok(out)
}
