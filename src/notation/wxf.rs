//! WXF move notation (`C2=5`, `H8+7`, `R1-2`, `+C=5` / `C+=5` for the front of two cannons on
//! one file), read by matching the text against the legal moves, so any form that names one
//! move unambiguously is accepted. Used to read opening books in PGN.

use crate::board::movegen::legal_moves;
use crate::{Color, Move, PieceType, Position, Square};

/// WXF file number of a square for `side`: files count 1-9 from each player's right.
fn file_number(side: Color, sq: Square) -> usize {
    match side {
        Color::Red => 9 - sq.file(),
        Color::Black => sq.file() + 1,
    }
}

/// Ranks moved towards the opponent (negative: backwards).
fn forward(side: Color, mv: Move) -> i32 {
    let delta = mv.to().rank() as i32 - mv.from().rank() as i32;
    match side {
        Color::Red => delta,
        Color::Black => -delta,
    }
}

fn piece_of(letter: char) -> Option<PieceType> {
    Some(match letter.to_ascii_uppercase() {
        'K' | 'G' => PieceType::King,
        'A' => PieceType::Advisor,
        'E' | 'B' => PieceType::Elephant,
        'H' | 'N' => PieceType::Horse,
        'R' => PieceType::Rook,
        'C' => PieceType::Cannon,
        'P' => PieceType::Pawn,
        _ => return None,
    })
}

/// Which of the side's pieces of a kind, standing on one file, is meant.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    File(usize),
    Front,
    Rear,
}

/// Parses one WXF move in `pos`.
pub fn parse_wxf(pos: &Position, text: &str) -> Result<Move, String> {
    let chars: Vec<char> = text.trim().chars().collect();
    let bad = || format!("'{text}' is not a WXF move");
    if chars.len() != 4 {
        return Err(bad());
    }
    // `+C=5` (marker first) or `C+=5` / `C2=5` (piece first).
    let (kind, source) = match (piece_of(chars[0]), piece_of(chars[1])) {
        (None, Some(kind)) if matches!(chars[0], '+' | '-') => (
            kind,
            if chars[0] == '+' {
                Source::Front
            } else {
                Source::Rear
            },
        ),
        (Some(kind), _) => match chars[1] {
            '+' => (kind, Source::Front),
            '-' => (kind, Source::Rear),
            c => (kind, Source::File(c.to_digit(10).ok_or_else(bad)? as usize)),
        },
        _ => return Err(bad()),
    };
    let direction = match chars[2] {
        '+' => 1,
        '-' => -1,
        '=' | '.' => 0,
        _ => return Err(bad()),
    };
    let target = chars[3].to_digit(10).ok_or_else(bad)? as i32;
    let side = pos.side_to_move();
    let diagonal = matches!(
        kind,
        PieceType::Advisor | PieceType::Elephant | PieceType::Horse
    );
    let matches = |mv: &Move| -> bool {
        if pos.piece_at(mv.from()).map(|p| p.kind()) != Some(kind) {
            return false;
        }
        let ahead = forward(side, *mv);
        if ahead.signum() != direction {
            return false;
        }
        let reached = if diagonal || direction == 0 {
            file_number(side, mv.to()) as i32
        } else {
            ahead.abs()
        };
        if reached != target {
            return false;
        }
        let from = mv.from();
        match source {
            Source::File(n) => file_number(side, from) == n,
            Source::Front | Source::Rear => {
                // The other pieces of the kind on the same file, and whether one is ahead.
                let mates = pos
                    .pieces(side, kind)
                    .into_iter()
                    .filter(|s| s.file() == from.file() && *s != from);
                let ahead_of = |s: Square| {
                    let d = s.rank() as i32 - from.rank() as i32;
                    if side == Color::Red {
                        d > 0
                    } else {
                        d < 0
                    }
                };
                let (mut any, mut any_ahead) = (false, false);
                for s in mates {
                    any = true;
                    any_ahead |= ahead_of(s);
                }
                any && (any_ahead == (source == Source::Rear))
            }
        }
    };
    let list = legal_moves(pos);
    let found: Vec<Move> = list.as_slice().iter().copied().filter(matches).collect();
    match found.as_slice() {
        [mv] => Ok(*mv),
        [] => Err(format!("'{text}' names no legal move")),
        _ => Err(format!("'{text}' is ambiguous")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::{parse_move, RankBase};

    fn check(fen: &str, wxf: &str, iccs: &str) {
        let pos = Position::from_fen(fen).unwrap();
        let expected = parse_move(&pos, iccs, RankBase::Zero).unwrap();
        assert_eq!(parse_wxf(&pos, wxf), Ok(expected), "{wxf}");
    }

    #[test]
    fn common_opening_moves() {
        let start = Position::START_FEN;
        check(start, "C2=5", "h2e2"); // central cannon
        check(start, "C2.5", "h2e2");
        check(start, "H2+3", "h0g2");
        check(start, "P7+1", "c3c4");
        check(start, "R1+1", "i0i1");
        check(start, "E3+5", "g0e2");
        check(start, "A4+5", "f0e1");
        let black = start.replace(" w ", " b ");
        check(&black, "H8+7", "h9g7"); // Black counts files from its own right
        check(&black, "H2+3", "b9c7");
        check(&black, "C8=5", "h7e7");
        check(&black, "p3+1", "c6c5");
        check(&black, "R9+2", "i9i7");
    }

    #[test]
    fn front_and_rear_of_two_pieces_on_a_file() {
        // Red cannons on b2 and b4 (file 8): the front one is b4.
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/1C7/P1P1P1P1P/1C7/9/RNBAKABNR w - - 0 1";
        check(fen, "+C=4", "b4f4");
        check(fen, "C+=4", "b4f4");
        check(fen, "-C=4", "b2f2");
        let pos = Position::from_fen(fen).unwrap();
        assert!(parse_wxf(&pos, "C8=4").unwrap_err().contains("ambiguous"));
    }

    #[test]
    fn nonsense_is_an_error() {
        let pos = Position::startpos();
        for text in ["", "X2=5", "C2x5", "C2=", "R1+9", "h2e2"] {
            assert!(parse_wxf(&pos, text).is_err(), "{text}");
        }
    }
}
