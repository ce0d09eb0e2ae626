//! Walking the squares of a bitboard one 64-bit half at a time. Popping bits off a `u128`
//! costs twice the work of a `u64`, and with a constant mask (a palace, one side of the river)
//! the compiler drops a half that is known to be empty altogether.

use crate::bitboard::Bitboard;
use crate::types::Square;

/// Calls `f` on every square of `set`, lowest first.
#[inline(always)]
pub fn for_each(set: Bitboard, mut f: impl FnMut(Square)) {
    debug_assert!(set.0 >> 90 == 0, "a bitboard holds bits beyond the board");
    let mut low = set.0 as u64;
    while low != 0 {
        // SAFETY: a bit of the low half is below 64, so below 90.
        f(unsafe { Square::new_unchecked(low.trailing_zeros() as usize) });
        low &= low - 1;
    }
    let mut high = (set.0 >> 64) as u64;
    while high != 0 {
        // SAFETY: bitboards only ever hold bits 0..90, so 64 + the bit is a square.
        f(unsafe { Square::new_unchecked(64 + high.trailing_zeros() as usize) });
        high &= high - 1;
    }
}
