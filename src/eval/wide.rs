//! The attack maps' square sets held in SSE registers: an OR or AND of two sets is one
//! instruction, not one per 64-bit half, and the sixteen vector registers, which the rest of
//! the evaluation leaves free, hold the maps instead of general registers and the stack.
//! Elsewhere the same interface wraps a `u128`.

use crate::board::bitboard::Bitboard;
use std::ops::{BitAnd, BitOr, BitOrAssign};

#[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
mod imp {
    //! Every `unsafe` block here calls an SSE2 or SSE4.1 intrinsic. This module is compiled
    //! only when the build enables SSE4.1 (and with it SSE2) for the whole crate, as the
    //! project's x86-64-v3 target does, so every CPU that runs this code has them.
    use crate::board::bitboard::Bitboard;
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cvtsi128_si64, _mm_cvtsi64_si128,
        _mm_extract_epi64, _mm_or_si128, _mm_set_epi64x, _mm_setzero_si128, _mm_slli_si128,
        _mm_testz_si128, _mm_unpackhi_epi32, _mm_unpacklo_epi32,
    };

    #[derive(Clone, Copy)]
    pub struct Wide(__m128i);

    // `Wide::load` reads a `Bitboard` as an `__m128i`: the same size and alignment.
    const _: () = assert!(
        std::mem::size_of::<Bitboard>() == std::mem::size_of::<__m128i>()
            && std::mem::align_of::<Bitboard>() >= std::mem::align_of::<__m128i>()
    );

    impl Wide {
        #[inline(always)]
        pub fn empty() -> Wide {
            // SAFETY: SSE2, enabled for the whole build (see the module's note).
            Wide(unsafe { _mm_setzero_si128() })
        }

        #[inline(always)]
        pub fn from_bb(b: Bitboard) -> Wide {
            // SAFETY: SSE2, enabled for the whole build (see the module's note).
            Wide(unsafe { _mm_set_epi64x((b.bits() >> 64) as i64, b.bits() as i64) })
        }

        /// The set `(x as u128) << (8 * BYTES)`: one move and one byte shift, where the
        /// general conversion shifts each half apart and unpacks them.
        #[inline(always)]
        pub fn from_u64_shl_bytes<const BYTES: i32>(x: u64) -> Wide {
            // SAFETY: SSE2, enabled for the whole build (see the module's note).
            Wide(unsafe { _mm_slli_si128::<BYTES>(_mm_cvtsi64_si128(x as i64)) })
        }

        /// The set `b` points to, read here straight into a vector register. The read is
        /// volatile only so that the compiler keeps it here: it merged a plain read with the
        /// walk's earlier read of the same set and kept that on the stack until here.
        #[inline(always)]
        pub fn load(b: &Bitboard) -> Wide {
            let p = (b as *const Bitboard).cast::<__m128i>();
            // SAFETY: `p` comes from a reference to a `Bitboard`: initialised, readable, and
            // as large and aligned as an `__m128i` (asserted above), for which any bits are valid.
            Wide(unsafe { std::ptr::read_volatile(p) })
        }

        #[inline(always)]
        pub fn bb(self) -> Bitboard {
            // SAFETY: SSE2 and SSE4.1, enabled for the whole build (see the module's note).
            let (lo, hi) = unsafe { (_mm_cvtsi128_si64(self.0), _mm_extract_epi64::<1>(self.0)) };
            Bitboard::from_bits((hi as u64 as u128) << 64 | lo as u64 as u128)
        }

        #[inline(always)]
        pub fn or(self, other: Wide) -> Wide {
            // SAFETY: SSE2, enabled for the whole build (see the module's note).
            Wide(unsafe { _mm_or_si128(self.0, other.0) })
        }

        #[inline(always)]
        pub fn and(self, other: Wide) -> Wide {
            // SAFETY: SSE2, enabled for the whole build (see the module's note).
            Wide(unsafe { _mm_and_si128(self.0, other.0) })
        }

        /// `self` without the squares of `other`.
        #[inline(always)]
        pub fn and_not(self, other: Wide) -> Wide {
            // SAFETY: SSE2, enabled for the whole build (see the module's note).
            Wide(unsafe { _mm_andnot_si128(other.0, self.0) })
        }

        #[inline(always)]
        pub fn is_empty(self) -> bool {
            // SAFETY: SSE4.1, enabled for the whole build (see the module's note).
            (unsafe { _mm_testz_si128(self.0, self.0) }) != 0
        }

        /// The 32-bit word `WORD` (0 or 2) of `a` and of `b` side by side in a u64, `a`'s low.
        #[inline(always)]
        pub fn words<const WORD: usize>(a: Wide, b: Wide) -> u64 {
            // SAFETY: SSE2, enabled for the whole build (see the module's note).
            unsafe {
                let pair = if WORD == 0 {
                    _mm_unpacklo_epi32(a.0, b.0)
                } else {
                    _mm_unpackhi_epi32(a.0, b.0)
                };
                _mm_cvtsi128_si64(pair) as u64
            }
        }
    }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse4.1")))]
mod imp {
    use crate::board::bitboard::Bitboard;

    #[derive(Clone, Copy)]
    pub struct Wide(u128);

    impl Wide {
        #[inline(always)]
        pub fn empty() -> Wide {
            Wide(0)
        }

        #[inline(always)]
        pub fn from_bb(b: Bitboard) -> Wide {
            Wide(b.bits())
        }

        #[inline(always)]
        pub fn from_u64_shl_bytes<const BYTES: i32>(x: u64) -> Wide {
            Wide((x as u128) << (8 * BYTES))
        }

        #[inline(always)]
        pub fn load(b: &Bitboard) -> Wide {
            Wide(b.bits())
        }

        #[inline(always)]
        pub fn bb(self) -> Bitboard {
            Bitboard::from_bits(self.0)
        }

        #[inline(always)]
        pub fn or(self, other: Wide) -> Wide {
            Wide(self.0 | other.0)
        }

        #[inline(always)]
        pub fn and(self, other: Wide) -> Wide {
            Wide(self.0 & other.0)
        }

        #[inline(always)]
        pub fn and_not(self, other: Wide) -> Wide {
            Wide(self.0 & !other.0)
        }

        #[inline(always)]
        pub fn is_empty(self) -> bool {
            self.0 == 0
        }

        /// The 32-bit word `WORD` (0 or 2) of `a` and of `b` side by side in a u64, `a`'s low.
        #[inline(always)]
        pub fn words<const WORD: usize>(a: Wide, b: Wide) -> u64 {
            let word = |w: Wide| (w.0 >> (32 * WORD)) as u32 as u64;
            word(a) | word(b) << 32
        }
    }
}

pub use imp::Wide;

/// The set `b` points to, read where this is called (through a vector register, see
/// [`Wide::load`]) rather than taken from an earlier read the compiler kept on the stack.
#[inline(always)]
pub fn fresh(b: &Bitboard) -> Bitboard {
    Wide::load(b).bb()
}

impl Wide {
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.bb().count()
    }
}

impl From<Bitboard> for Wide {
    #[inline(always)]
    fn from(b: Bitboard) -> Wide {
        Wide::from_bb(b)
    }
}

impl BitOr for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitor(self, rhs: Wide) -> Wide {
        self.or(rhs)
    }
}

impl BitOrAssign for Wide {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: Wide) {
        *self = self.or(rhs);
    }
}

impl BitAnd for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitand(self, rhs: Wide) -> Wide {
        self.and(rhs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_bitboard_operations() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            Bitboard::from_bits((state as u128) << 64 | state.rotate_left(23) as u128)
        };
        for _ in 0..1000 {
            let (a, b) = (next(), next());
            let (wa, wb) = (Wide::from(a), Wide::from(b));
            assert_eq!(wa.bb(), a);
            let x = a.bits() as u64;
            assert_eq!(
                Wide::from_u64_shl_bytes::<4>(x).bb(),
                Bitboard::from_bits((x as u128) << 32)
            );
            assert_eq!(
                Wide::from_u64_shl_bytes::<5>(x).bb(),
                Bitboard::from_bits((x as u128) << 40)
            );
            assert_eq!((wa | wb).bb(), a | b);
            assert_eq!((wa & wb).bb(), a & b);
            assert_eq!(wa.and_not(wb).bb(), a.and_not(b));
            assert_eq!(wa.count(), a.count());
            assert_eq!((wa & wb).is_empty(), (a & b).is_empty());
            let word = |b: Bitboard, w: u32| (b.bits() >> (32 * w)) as u32 as u64;
            assert_eq!(Wide::words::<0>(wa, wb), word(a, 0) | word(b, 0) << 32);
            assert_eq!(Wide::words::<2>(wa, wb), word(a, 2) | word(b, 2) << 32);
        }
        assert!(Wide::empty().is_empty());
    }
}
