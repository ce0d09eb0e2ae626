//! Fixed square sets the evaluation terms share: files, the two sides of the river, palaces.
//! All built at compile time from the shared geometry.

use crate::board::bitboard::Bitboard;
use crate::board::geometry::{file_of, rank_of, SQUARES};
use crate::board::types::{Color, Square};

/// What a mask holds; `const fn` cannot take closures, so each kind is named.
#[derive(Clone, Copy)]
enum Kind {
    FileA,
    /// The file of a square.
    File(usize),
    Rank(usize),
    NearPalace(usize),
}

const fn contains(kind: Kind, sq: usize) -> bool {
    let (file, rank) = (file_of(sq), rank_of(sq));
    match kind {
        Kind::FileA => file == 0,
        Kind::File(f) => file == f,
        Kind::Rank(r) => rank == r,
        Kind::NearPalace(color) => {
            file >= 2 && file <= 6 && if color == 0 { rank <= 2 } else { rank >= 7 }
        }
    }
}

const fn mask(kind: Kind) -> Bitboard {
    let mut set = 0;
    let mut sq = 0;
    while sq < SQUARES {
        if contains(kind, sq) {
            set |= 1 << sq;
        }
        sq += 1;
    }
    Bitboard::from_bits(set)
}

pub const FILE_A: Bitboard = mask(Kind::FileA);
pub const FILE_I: Bitboard = Bitboard::from_bits(FILE_A.bits() << 8);
/// Ranks 0-4 (Red's side of the river) and 5-9 (Black's).
pub const RED_SIDE: Bitboard = Bitboard::from_bits((1 << 45) - 1);
pub const BLACK_SIDE: Bitboard = Bitboard::from_bits(((1 << 90) - 1) & !((1 << 45) - 1));
const BACK_RANK: [Bitboard; 2] = [mask(Kind::Rank(0)), mask(Kind::Rank(9))];
/// `FILE_OF[sq]`: the file through `sq` (a lookup is cheaper than shifting a `u128`).
const FILE_OF: [Bitboard; SQUARES] = {
    let mut out = [Bitboard::EMPTY; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        out[sq] = mask(Kind::File(file_of(sq)));
        sq += 1;
    }
    out
};
const NEAR_PALACE: [Bitboard; 2] = [mask(Kind::NearPalace(0)), mask(Kind::NearPalace(1))];

/// Every square of the file of `sq`.
#[inline(always)]
pub fn file_bb(sq: Square) -> Bitboard {
    FILE_OF[sq.index()]
}

/// A colour's own half of the board.
#[inline(always)]
pub fn own_side(color: Color) -> Bitboard {
    [RED_SIDE, BLACK_SIDE][color.index()]
}

/// The nine palace squares of a colour.
#[inline(always)]
pub fn palace(color: Color) -> Bitboard {
    Bitboard::PALACES[color.index()]
}

/// Back rank of a colour: rank 0 for Red, rank 9 for Black.
#[inline(always)]
pub fn back_rank(color: Color) -> usize {
    [0, 9][color.index()]
}

/// Every square of a colour's back rank.
#[inline(always)]
pub fn back_rank_bb(color: Color) -> Bitboard {
    BACK_RANK[color.index()]
}

/// The palace centre of a colour (e1 / e8).
#[inline(always)]
pub fn palace_centre(color: Color) -> Square {
    Square::new([13, 76][color.index()])
}

/// Files c-g across the three palace ranks of `color`: where enemy crossed pawns start to
/// threaten its king.
#[inline(always)]
pub fn near_palace(color: Color) -> Bitboard {
    NEAR_PALACE[color.index()]
}
