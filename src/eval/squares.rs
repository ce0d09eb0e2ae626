//! Walking the squares of a bitboard one 64-bit half at a time. Popping bits off a `u128`
//! costs twice the work of a `u64`, and with a constant mask (a palace, one side of the river)
//! the compiler drops a half that is known to be empty altogether.

use crate::bitboard::Bitboard;
use crate::types::Square;

/// The squares of a set, lowest first.
pub struct Squares {
    low: u64,
    high: u64,
}

/// Iterates over the squares of `set`. A plain loop body, unlike a closure called from two
/// loops, is inlined once, so its state stays in registers.
#[inline(always)]
pub fn of(set: Bitboard) -> Squares {
    debug_assert!(set.0 >> 90 == 0, "a bitboard holds bits beyond the board");
    Squares {
        low: set.0 as u64,
        high: (set.0 >> 64) as u64,
    }
}

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.low != 0 {
            let bit = self.low.trailing_zeros() as usize;
            self.low &= self.low - 1;
            // SAFETY: a bit of the low half is below 64, so below 90.
            Some(unsafe { Square::new_unchecked(bit) })
        } else if self.high != 0 {
            let bit = self.high.trailing_zeros() as usize;
            self.high &= self.high - 1;
            // SAFETY: bitboards only ever hold bits 0..90, so 64 + the bit is a square.
            Some(unsafe { Square::new_unchecked(64 + bit) })
        } else {
            None
        }
    }
}
