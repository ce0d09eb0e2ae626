//! WXF move notation (`C2=5`, `H8+7`, `R1-2`, `C+=5` for the front of two cannons on one
//! file), written as the WXF standard gives it (http://www.wxf.org/xq/computer/wxf_notation.html,
//! with `=` for sideways moves as most software writes it) and read by comparing the text with
//! how each legal move is written, then by matching looser forms (`+C=5`, `C2.5`, `N2+3`) against
//! the legal moves, so any text that names one move unambiguously is accepted. The description
//! of a move it builds on ([`describe`]) serves the Chinese notation too.

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

/// A move as WXF and Chinese notation describe it: which piece, from which file, which way, and
/// to which file or how far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Described {
    pub side: Color,
    pub kind: PieceType,
    /// The piece's file, 1-9 from the mover's right.
    pub file: usize,
    /// Where the piece stands among the side's pieces of its kind on its file, when there are
    /// several to tell apart: (place from the front, from 0; how many).
    pub tandem: Option<(usize, usize)>,
    /// Pawns stand two or more to a file on two files, so the file is named besides the place.
    pub pawn_files: bool,
    /// 1 forward (towards the opponent), -1 back, 0 sideways.
    pub direction: i32,
    /// The file reached (sideways moves, and always for advisors, elephants and horses) or the
    /// ranks travelled.
    pub target: usize,
}

/// Describes `mv`, a move of a piece of the side to move in `pos`.
///
/// # Panics
/// If no piece stands on the move's square.
pub(crate) fn describe(pos: &Position, mv: Move) -> Described {
    let side = pos.side_to_move();
    let from = mv.from();
    let kind = pos
        .piece_at(from)
        .expect("a piece on the move's square")
        .kind();
    let ahead = forward(side, mv);
    let direction = ahead.signum();
    let diagonal = matches!(
        kind,
        PieceType::Advisor | PieceType::Elephant | PieceType::Horse
    );
    let target = if diagonal || direction == 0 {
        file_number(side, mv.to())
    } else {
        ahead.unsigned_abs() as usize
    };
    // Advisors and elephants on one file never need telling apart: their moves differ in
    // direction or in the file reached.
    let tandem = if matches!(
        kind,
        PieceType::Rook | PieceType::Horse | PieceType::Cannon | PieceType::Pawn
    ) {
        let mut on_file: Vec<Square> = pos
            .pieces(side, kind)
            .into_iter()
            .filter(|s| s.file() == from.file())
            .collect();
        // Front first: nearest the opponent.
        on_file.sort_by_key(|s| match side {
            Color::Red => 9 - s.rank(),
            Color::Black => s.rank(),
        });
        let place = on_file.iter().position(|&s| s == from).unwrap_or(0);
        (on_file.len() >= 2).then_some((place, on_file.len()))
    } else {
        None
    };
    let pawn_files = kind == PieceType::Pawn && tandem.is_some() && {
        let pawns = pos.pieces(side, PieceType::Pawn);
        (0..9)
            .filter(|&f| pawns.into_iter().filter(|s| s.file() == f).count() >= 2)
            .count()
            >= 2
    };
    Described {
        side,
        kind,
        file: file_number(side, from),
        tandem,
        pawn_files,
        direction,
        target,
    }
}

/// WXF's letter for a kind of piece.
fn letter(kind: PieceType) -> char {
    match kind {
        PieceType::King => 'K',
        PieceType::Advisor => 'A',
        PieceType::Elephant => 'E',
        PieceType::Horse => 'H',
        PieceType::Rook => 'R',
        PieceType::Cannon => 'C',
        PieceType::Pawn => 'P',
    }
}

fn digit(n: usize) -> char {
    char::from_digit(n as u32, 10).expect("a number 1-9")
}

/// `mv`, legal in `pos`, in WXF notation. Two pieces of a kind on a file are `+` (front) and
/// `-` (rear) in place of the file: `C+=5`. Pawns follow the standard's special cases: three
/// on a file are `P+`, `P3` (the middle one, by its file) and `P-`; four or five are `++`,
/// `P+`, (`P3`,) `P-`, `--`; when two files hold two or more, the file comes first: `3+`,
/// `33`, `3-`, `7+`, `7-`.
pub fn format_wxf(pos: &Position, mv: Move) -> String {
    let d = describe(pos, mv);
    let piece = letter(d.kind);
    let source = match d.tandem {
        None => [piece, digit(d.file)],
        Some((place, count)) => {
            let behind = count - 1 - place;
            if d.pawn_files {
                let mark = match (place, behind) {
                    (0, _) => '+',
                    (_, 0) => '-',
                    _ => digit(d.file),
                };
                [digit(d.file), mark]
            } else if count >= 4 && place == 0 {
                ['+', '+']
            } else if count >= 4 && behind == 0 {
                ['-', '-']
            } else if place == 0 || (count >= 4 && place == 1) {
                [piece, '+']
            } else if behind == 0 || (count >= 4 && behind == 1) {
                [piece, '-']
            } else {
                [piece, digit(d.file)]
            }
        }
    };
    let direction = match d.direction {
        1 => '+',
        -1 => '-',
        _ => '=',
    };
    [source[0], source[1], direction, digit(d.target)]
        .iter()
        .collect()
}

/// WXF text in the form [`format_wxf`] writes: upper case, `=` for `.`, the piece letter
/// before a `+`/`-` that stands for the file.
fn canonical(text: &str) -> String {
    let mut chars: Vec<char> = text
        .trim()
        .chars()
        .map(|c| {
            if c == '.' {
                '='
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect();
    if chars.len() == 4 && matches!(chars[0], '+' | '-') && chars[1].is_ascii_alphabetic() {
        chars.swap(0, 1);
    }
    chars.into_iter().collect()
}

/// Which of the side's pieces of a kind, standing on one file, is meant.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    File(usize),
    Front,
    Rear,
}

/// Parses one WXF move in `pos`: as [`format_wxf`] writes it, or in any looser form that
/// names one legal move.
pub fn parse_wxf(pos: &Position, text: &str) -> Result<Move, String> {
    let wanted = canonical(text);
    let list = legal_moves(pos);
    let mut written = list
        .iter()
        .copied()
        .filter(|&mv| format_wxf(pos, mv) == wanted);
    match (written.next(), written.next()) {
        (Some(mv), None) => Ok(mv),
        _ => parse_loose(pos, text),
    }
}

/// Reads WXF by what it says (piece, file or front/rear, direction, target), matched against
/// the legal moves.
fn parse_loose(pos: &Position, text: &str) -> Result<Move, String> {
    let chars: Vec<char> = text.trim().chars().collect();
    let bad = || format!("'{text}' is not a move (ICCS h2e2, WXF C2=5 or Chinese 炮二平五)");
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
