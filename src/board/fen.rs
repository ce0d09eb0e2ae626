//! FEN in and out in the common xiangqi form, with validation that names every problem found.

use crate::board::attacks::rook_attacks;
use crate::board::geometry::elephant_point;
use crate::board::position::Position;
use crate::board::types::{Color, Piece, PieceType, Square};
use bitflags::bitflags;
use std::fmt;

bitflags! {
    /// Everything that can be wrong with a FEN; several may be reported at once.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct FenProblems: u16 {
        /// Malformed text: wrong number of ranks, rank not 9 files wide, unknown letter.
        const SYNTAX = 1 << 0;
        /// The side-to-move field is not w, r or b.
        const SIDE = 1 << 1;
        /// A move counter is not a number, or too large to keep counting.
        const COUNTERS = 1 << 2;
        /// A side has no king.
        const MISSING_KING = 1 << 3;
        /// A side has more than one king.
        const EXTRA_KING = 1 << 4;
        /// More advisors, elephants, horses, rooks, cannons (2) or pawns (5) than a side owns.
        const TOO_MANY_PIECES = 1 << 5;
        /// A king, advisor, elephant or pawn on a square it can never reach.
        const BAD_SQUARE = 1 << 6;
        /// The kings face each other on an open file.
        const KINGS_FACING = 1 << 7;
        /// The side that just moved is in check.
        const OPPONENT_IN_CHECK = 1 << 8;
    }
}

/// The largest move counter a FEN may give: far beyond any real game, and leaving 55,000 plies
/// of play before the 16-bit counters in `Position` could overflow.
pub const MAX_COUNTER: u16 = 10_000;

/// Why a FEN was rejected: the set of problems and a sentence naming the first specifics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    pub problems: FenProblems,
    pub details: Vec<String>,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "invalid FEN: {}", self.details.join("; "))
    }
}

impl std::error::Error for FenError {}

struct Report(FenError);

impl Report {
    fn add(&mut self, problem: FenProblems, detail: impl Into<String>) {
        self.0.problems |= problem;
        self.0.details.push(detail.into());
    }
}

/// The squares a piece of this kind and colour can ever stand on ([`square_allowed`]), as a
/// set: for tests that hold a generated mask against the rule.
#[cfg(test)]
pub(crate) fn allowed_squares(piece: Piece) -> crate::board::bitboard::Bitboard {
    Square::all()
        .filter(|&sq| square_allowed(piece, sq))
        .fold(crate::board::bitboard::Bitboard::EMPTY, |set, sq| {
            set.with(sq)
        })
}

/// Can a piece of this kind and colour ever stand on `sq`? (Relative rank: 0 = own back rank.)
pub fn square_allowed(piece: Piece, sq: Square) -> bool {
    let (file, rank) = (sq.file(), sq.rank());
    let rel = if piece.color() == Color::Red {
        rank
    } else {
        9 - rank
    };
    let in_palace = (3..=5).contains(&file) && rel <= 2;
    match piece.kind() {
        PieceType::King => in_palace,
        PieceType::Advisor => in_palace && (file + rel) % 2 == 1,
        PieceType::Elephant => elephant_point(piece.color().index(), sq.index()),
        PieceType::Pawn => rel >= 5 || (rel >= 3 && file % 2 == 0),
        PieceType::Horse | PieceType::Rook | PieceType::Cannon => true,
    }
}

impl Position {
    /// Parses a FEN such as `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
    /// `b` means Black to move; `w` and `r` mean Red. `H`/`E` are accepted for horse/elephant.
    /// The castling and en-passant fields and the counters are optional.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut report = Report(FenError {
            problems: FenProblems::empty(),
            details: Vec::new(),
        });
        let mut fields = fen.split_whitespace();
        let placement = fields.next().unwrap_or("");
        let mut pos = Position::empty();

        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 10 {
            report.add(
                FenProblems::SYNTAX,
                format!("expected 10 ranks, found {}", ranks.len()),
            );
            return Err(report.0);
        }
        for (row, text) in ranks.iter().enumerate() {
            let rank = 9 - row;
            let mut file = 0usize;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                } else if let Some(piece) = Piece::from_letter(c) {
                    if let Some(sq) = Square::from_coords(file, rank) {
                        pos.put_piece(piece, sq);
                    }
                    file += 1;
                } else {
                    report.add(
                        FenProblems::SYNTAX,
                        format!("unknown piece letter '{c}' in rank {rank}"),
                    );
                    return Err(report.0);
                }
            }
            if file != 9 {
                report.add(
                    FenProblems::SYNTAX,
                    format!("rank {rank} has {file} files, not 9"),
                );
                return Err(report.0);
            }
        }

        pos.side = match fields.next().unwrap_or("w") {
            "w" | "r" | "W" | "R" => Color::Red,
            "b" | "B" => Color::Black,
            other => {
                report.add(
                    FenProblems::SIDE,
                    format!("side to move '{other}' is not w, r or b"),
                );
                Color::Red
            }
        };
        if pos.side == Color::Black {
            pos.hash ^= crate::board::zobrist::ZOBRIST_SIDE;
        }
        let _castling = fields.next();
        let _en_passant = fields.next();
        let mut counter = |name: &str, default: u16| match fields.next() {
            None => default,
            Some(text) => match text.parse::<u64>() {
                // The counters are 16-bit and make_move increments them: leave room to play on.
                Ok(n) if n <= MAX_COUNTER as u64 => n as u16,
                Ok(n) => {
                    report.add(
                        FenProblems::COUNTERS,
                        format!("{name} {n} is too large (at most {MAX_COUNTER})"),
                    );
                    default
                }
                Err(_) => {
                    report.add(
                        FenProblems::COUNTERS,
                        format!("{name} '{text}' is not a number"),
                    );
                    default
                }
            },
        };
        pos.rule60 = counter("half-move clock", 0);
        pos.fullmove = counter("move number", 1).max(1);

        check_material(&pos, &mut report);
        if report.0.problems.is_empty() {
            check_kings(&pos, &mut report);
        }
        if report.0.problems.is_empty() {
            pos.refresh_checkers();
            Ok(pos)
        } else {
            Err(report.0)
        }
    }

    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match self.piece_at(Square::from_coords(file, rank).expect("on board")) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push(char::from_digit(empty, 10).expect("digit"));
                            empty = 0;
                        }
                        out.push(p.letter());
                    }
                }
            }
            if empty > 0 {
                out.push(char::from_digit(empty, 10).expect("digit"));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        format!("{out} {side} - - {} {}", self.rule60, self.fullmove)
    }
}

fn check_material(pos: &Position, report: &mut Report) {
    for color in Color::BOTH {
        let name = if color == Color::Red { "Red" } else { "Black" };
        for kind in PieceType::ALL {
            let set = pos.pieces(color, kind);
            let count = set.count();
            let most = kind.most_per_side();
            if kind == PieceType::King && count == 0 {
                report.add(FenProblems::MISSING_KING, format!("{name} has no king"));
            } else if kind == PieceType::King && count > 1 {
                report.add(FenProblems::EXTRA_KING, format!("{name} has {count} kings"));
            } else if count > most {
                report.add(
                    FenProblems::TOO_MANY_PIECES,
                    format!("{name} has {count} {kind:?}s (at most {most})"),
                );
            }
            for sq in set {
                if !square_allowed(Piece::new(color, kind), sq) {
                    report.add(
                        FenProblems::BAD_SQUARE,
                        format!("{name} {kind:?} cannot stand on {sq}"),
                    );
                }
            }
        }
    }
}

fn check_kings(pos: &Position, report: &mut Report) {
    let red = pos.king_square(Color::Red);
    let black = pos.king_square(Color::Black);
    if rook_attacks(red, pos.occupied()).has(black) {
        report.add(
            FenProblems::KINGS_FACING,
            format!(
                "the kings face each other on file {}",
                &red.to_string()[..1]
            ),
        );
    } else if pos.king_attacked(!pos.side_to_move()) {
        report.add(
            FenProblems::OPPONENT_IN_CHECK,
            "the side not to move is in check",
        );
    }
}
