//! Move text in ICCS coordinates (`h2e2`). Pikafish-style UCI numbers ranks 0-9; GUIs that use
//! the UCI_Variant convention number them 1-10 (`h3e3`). Parsing checks legality.

use crate::board::movegen::legal_moves;
use crate::board::position::Position;
use crate::board::types::{Move, Square};
use std::fmt;

/// How ranks are written in move text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RankBase {
    /// `a0`..`i9` (Pikafish UCI, UCCI).
    #[default]
    Zero,
    /// `a1`..`i10` (UCI_Variant GUIs, cutechess xiangqi).
    One,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not two squares.
    Syntax(String),
    /// Well formed, but not a legal move here.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "'{s}' is not a move (expected e.g. h2e2)"),
            MoveError::Illegal(s) => write!(f, "'{s}' is not a legal move in this position"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Reads one square at the start of `text`, returning it and the rest.
fn parse_square(text: &str, base: RankBase) -> Option<(Square, &str)> {
    let mut chars = text.char_indices();
    let (_, f) = chars.next()?;
    let file = (f.to_ascii_lowercase() as u32).checked_sub('a' as u32)? as usize;
    let digits_end = text[1..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(text.len(), |i| i + 1);
    let digits = &text[1..digits_end];
    // With ranks 1-10 the rank may have two digits; with 0-9 always one.
    let take = match base {
        RankBase::Zero => 1,
        RankBase::One if digits.starts_with("10") => 2,
        RankBase::One => 1,
    };
    if digits.len() < take {
        return None;
    }
    let number: usize = digits[..take].parse().ok()?;
    let rank = match base {
        RankBase::Zero => number,
        RankBase::One => number.checked_sub(1)?,
    };
    Some((Square::from_coords(file, rank)?, &text[1 + take..]))
}

/// Parses `text` as a move with the given rank numbering, without checking legality.
pub fn parse_coords(text: &str, base: RankBase) -> Option<Move> {
    if !text.is_ascii() {
        return None;
    }
    let (from, rest) = parse_square(text, base)?;
    let (to, rest) = parse_square(rest, base)?;
    (rest.is_empty() && from != to).then(|| Move::new(from, to))
}

/// Parses and checks a move for `pos`.
pub fn parse_move(pos: &Position, text: &str, base: RankBase) -> Result<Move, MoveError> {
    let mv = parse_coords(text, base).ok_or_else(|| MoveError::Syntax(text.to_string()))?;
    if legal_moves(pos).contains(mv) {
        Ok(mv)
    } else {
        Err(MoveError::Illegal(text.to_string()))
    }
}

/// Plays `moves` on `pos`: moves with ranks from 0, `null` for a pass. For tests that walk a
/// line of play; a move that is not legal there panics with its text.
#[cfg(test)]
pub fn play(pos: &mut Position, moves: &str) {
    for text in moves.split_whitespace() {
        if text == "null" {
            pos.make_null_move();
        } else {
            let mv = parse_move(pos, text, RankBase::Zero)
                .unwrap_or_else(|e| panic!("test move {text}: {e}"));
            pos.make_move(mv);
        }
    }
}

/// Writes a move with the given rank numbering.
pub fn format_move(mv: Move, base: RankBase) -> String {
    match base {
        RankBase::Zero => mv.to_string(),
        RankBase::One => {
            let sq = |s: Square| format!("{}{}", (b'a' + s.file() as u8) as char, s.rank() + 1);
            format!("{}{}", sq(mv.from()), sq(mv.to()))
        }
    }
}

/// The board drawn from Black's side down to Red's, with file letters and the ranks labelled
/// in the numbering of `base` (`Position`'s `Display` is the drawing with ranks 0-9).
pub struct Diagram<'a>(pub &'a Position, pub RankBase);

impl fmt::Display for Diagram<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let Diagram(pos, base) = *self;
        let (first, width) = match base {
            RankBase::Zero => (0, 1),
            RankBase::One => (1, 2),
        };
        for rank in (0..10).rev() {
            write!(f, "{:>width$} ", rank + first)?;
            for file in 0..9 {
                let sq = Square::from_coords(file, rank).expect("on board");
                let c = pos.piece_at(sq).map_or('.', |p| p.letter());
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "{:width$}  a b c d e f g h i", "")
    }
}

/// The position after `moves` from `fen` (or from the start position), each move read by
/// `read_move`: the one way every front end sets up a position (the protocols read ICCS in
/// their rank numbering, the command line any notation `analyse` writes). The error names the
/// FEN or the first move that is wrong.
pub fn position_from<'a>(
    fen: Option<&str>,
    moves: impl IntoIterator<Item = &'a str>,
    read_move: impl Fn(&Position, &str) -> Result<Move, String>,
) -> Result<Position, String> {
    let mut pos = match fen {
        None => Position::startpos(),
        Some(fen) => {
            Position::from_fen(fen.trim()).map_err(|e| format!("bad FEN '{}': {e}", fen.trim()))?
        }
    };
    for (played, text) in moves.into_iter().enumerate() {
        // The 16-bit move counters start at most at 10,000 (the FEN's limit): this many
        // moves more keeps them from wrapping.
        if played == MAX_MOVES_PLAYED {
            return Err(format!(
                "more than {MAX_MOVES_PLAYED} moves: the move counters would overflow"
            ));
        }
        let mv = read_move(&pos, text)?;
        pos.make_move(mv);
    }
    Ok(pos)
}

/// The most moves [`position_from`] plays from a position.
pub const MAX_MOVES_PLAYED: usize = (u16::MAX - crate::board::fen::MAX_COUNTER) as usize;
