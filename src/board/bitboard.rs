//! `Bitboard`: a set of squares in one `u128`, bit n = square n (a0 = 0, i9 = 89).

use crate::board::geometry::{in_palace, SQUARES, SQUARE_BIT};
use crate::board::types::Square;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
///
/// ```
/// use chariot::{Bitboard, Square};
/// let b = Bitboard::from_square(Square::new(0)) | Bitboard::from_square(Square::new(89));
/// assert_eq!(b.count(), 2);
/// // Drawn from Black's side (rank 9) down to Red's (rank 0):
/// assert_eq!(b.to_string(), "\
/// ........X
/// .........
/// .........
/// .........
/// .........
/// .........
/// .........
/// .........
/// .........
/// X........
/// ");
/// ```
///
/// Only bits 0..90 are ever set: the square iterator and `lsb` make squares from set bits
/// without a check, and `Square::index` promises the compiler they are below 90. The field is
/// private to this file, so the promise rests on this file and on the one constructor that
/// does not mask, [`Bitboard::from_table`], which only `board/` can call, with values from
/// the tables `build.rs` generated and checked. Everywhere else a set is built with
/// [`Bitboard::from_bits`], which drops bits past the board, or from other sets.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(u128);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard((1 << 90) - 1);

    /// The set with bit n for square n; bits from 90 up are dropped.
    #[inline(always)]
    pub const fn from_bits(bits: u128) -> Bitboard {
        Bitboard(bits & Bitboard::FULL.0)
    }

    /// A set read from a generated table (or built from such sets inside `board/`), taken as
    /// it is: build.rs checks every table entry against a slow computation on the board, so
    /// none has a bit from 90 up (asserted in debug builds). Masking here instead would cost an
    /// AND in every attack lookup.
    #[inline(always)]
    pub(in crate::board) const fn from_table(bits: u128) -> Bitboard {
        debug_assert!(
            bits >> SQUARES == 0,
            "a table set with a bit past the board"
        );
        Bitboard(bits)
    }

    /// The set as a number, bit n for square n.
    #[inline(always)]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The nine palace squares of each colour (Red's, then Black's): where kings and advisors
    /// stay.
    pub const PALACES: [Bitboard; 2] = {
        let mut palaces = [Bitboard::EMPTY; 2];
        let mut sq = 0;
        while sq < SQUARES {
            let mut color = 0;
            while color < 2 {
                if in_palace(color, sq) {
                    palaces[color].0 |= 1 << sq;
                }
                color += 1;
            }
            sq += 1;
        }
        palaces
    };

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(SQUARE_BIT[sq.index()])
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        // Test the half holding the square: a variable 128-bit shift takes two shifts and
        // conditional moves.
        let index = sq.index();
        let half = if index >= 64 {
            (self.0 >> 64) as u64
        } else {
            self.0 as u64
        };
        half >> (index % 64) & 1 != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square; the set must not be empty (an empty one gives the last square in
    /// release builds, never an index past the tables).
    #[inline(always)]
    pub fn lsb(self) -> Square {
        debug_assert!(self.any());
        // SAFETY: a non-empty board has its lowest bit below 90, since only bits 0..90 are
        // used; an empty one (128 trailing zeros) is held to square 89 by the `min`.
        unsafe { Square::new_unchecked((self.0.trailing_zeros() as usize).min(SQUARES - 1)) }
    }

    /// The squares of `self` not in `other`: `self & !other` without the board mask `!`
    /// applies (`self` has no bits past the board, so there are none to clear).
    #[inline(always)]
    pub const fn and_not(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !SQUARE_BIT[sq.index()])
    }

    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | SQUARE_BIT[sq.index()])
    }
}

/// The squares of a set, lowest first, popped off each 64-bit half on its own: a 128-bit
/// trailing-zero count and borrow chain cost twice the instructions of a 64-bit one, and with
/// a constant mask (a palace, one side of the river) the compiler drops a half known to be
/// empty altogether.
pub struct Squares {
    low: u64,
    high: u64,
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline(always)]
    fn into_iter(self) -> Squares {
        debug_assert!(self.0 >> 90 == 0, "a bitboard holds bits beyond the board");
        Squares {
            low: self.0 as u64,
            high: (self.0 >> 64) as u64,
        }
    }
}

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        let index = if self.low != 0 {
            let bit = self.low.trailing_zeros();
            self.low &= self.low - 1;
            bit
        } else if self.high != 0 {
            let bit = self.high.trailing_zeros();
            self.high &= self.high - 1;
            64 + bit
        } else {
            return None;
        };
        // SAFETY: a set bit of a board is below 90, since only bits 0..90 are used.
        Some(unsafe { Square::new_unchecked(index as usize) })
    }
}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign:ident, $afn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign for Bitboard {
            #[inline(always)]
            fn $afn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement within the 90 board squares.
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for rank in (0..10).rev() {
            for file in 0..9 {
                let sq = Square::from_coords(file, rank).expect("on board");
                f.write_str(if self.has(sq) { "X" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Bitboard({:#x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_bits_drops_bits_past_the_board() {
        let all = Bitboard::from_bits(u128::MAX);
        assert_eq!(all, Bitboard::FULL);
        let squares: Vec<usize> = all.into_iter().map(|sq| sq.index()).collect();
        assert_eq!(squares, (0..SQUARES).collect::<Vec<_>>());
        assert_eq!(Bitboard::from_bits(1 << 89 | 1 << 90).bits(), 1 << 89);
    }
}
