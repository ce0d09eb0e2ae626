//! Opening suites: one opening a line, a FEN optionally followed by `moves m1 m2 ...` (ICCS,
//! ranks 0-9). The default suite, `data/openings.fen`, is built into the binary.

use crate::board::notation::{parse_move, RankBase};
use crate::board::position::Position;
use crate::board::types::Move;

pub const DEFAULT_SUITE: &str = crate::data::OPENINGS;

#[derive(Clone, Debug)]
pub struct Opening {
    pub fen: String,
    pub moves: Vec<Move>,
}

impl Opening {
    /// The position the engines start thinking from (with the opening moves in its history,
    /// so repetition rules see them).
    pub fn position(&self) -> Position {
        let mut pos = Position::from_fen(&self.fen).expect("validated when loaded");
        for &mv in &self.moves {
            pos.make_move(mv);
        }
        pos
    }
}

/// Parses a suite; errors name the line. Blank lines and `#` comments are skipped.
pub fn parse_suite(text: &str, source: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let where_ = || format!("{source}:{}", number + 1);
        let (fen, moves_text) = match line.split_once(" moves ") {
            Some((fen, moves)) => (fen.trim(), moves),
            None => (line, ""),
        };
        let mut pos = Position::from_fen(fen).map_err(|e| format!("{}: bad FEN: {e}", where_()))?;
        let mut moves = Vec::new();
        for text in moves_text.split_whitespace() {
            let mv =
                parse_move(&pos, text, RankBase::Zero).map_err(|e| format!("{}: {e}", where_()))?;
            pos.make_move(mv);
            moves.push(mv);
        }
        openings.push(Opening {
            fen: fen.to_string(),
            moves,
        });
    }
    if openings.is_empty() {
        return Err(format!("{source}: no openings found"));
    }
    Ok(openings)
}

/// Loads the suite at `path`, or the built-in one.
pub fn load(path: Option<&str>) -> Result<Vec<Opening>, String> {
    match path {
        None => parse_suite(DEFAULT_SUITE, "built-in openings"),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read openings file {path}: {e}"))?;
            parse_suite(&text, path)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_suite_loads() {
        let suite = load(None).unwrap();
        assert!(suite.len() >= 100, "{}", suite.len());
    }

    #[test]
    fn fen_with_moves_is_replayed() {
        let text = format!("# comment\n\n{} moves h2e2 h9g7\n", Position::START_FEN);
        let suite = parse_suite(&text, "t").unwrap();
        assert_eq!(suite[0].moves.len(), 2);
        assert_eq!(suite[0].position().history().len(), 2);
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse_suite("\nnot a fen\n", "f.fen").unwrap_err();
        assert!(err.starts_with("f.fen:2: bad FEN"), "{err}");
        let err = parse_suite(&format!("{} moves h2h8", Position::START_FEN), "f").unwrap_err();
        assert!(err.contains("f:1") && err.contains("h2h8"), "{err}");
        assert!(parse_suite("# nothing\n", "e")
            .unwrap_err()
            .contains("no openings"));
    }
}
