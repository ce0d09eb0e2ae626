//! `Score`: a middlegame and an endgame value packed in one `i32`, so the incremental sum and
//! every term add both halves in one instruction. Dependency-free: `build.rs` packs the
//! piece-square tables with this same code.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// mg in the low 16 bits, eg in the high 16 (with the borrow from a negative mg folded in).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Score(pub i32);

impl Score {
    pub const ZERO: Score = Score(0);

    #[inline(always)]
    pub const fn new(mg: i32, eg: i32) -> Score {
        Score((eg << 16).wrapping_add(mg))
    }

    #[inline(always)]
    pub const fn from_pair((mg, eg): (i32, i32)) -> Score {
        Score::new(mg, eg)
    }

    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0 as i16 as i32
    }

    #[inline(always)]
    pub const fn eg(self) -> i32 {
        (self.0.wrapping_add(0x8000) >> 16) as i16 as i32
    }

    /// Each half halved, for a score whose halves both lie in `0..1 << 14`: then the same as
    /// `scaled(1, 2)`, but one shift of the packed value, with the bit the eg half shifts into
    /// the mg half cleared.
    #[inline(always)]
    pub const fn halved_non_negative(self) -> Score {
        debug_assert!(self.mg() >= 0 && self.mg() < 1 << 14);
        debug_assert!(self.eg() >= 0 && self.eg() < 1 << 14);
        Score((self.0 >> 1) & !0x8000)
    }

    /// Each half times `num / den`, rounding toward zero (so a score and its negation scale alike).
    /// A whole factor (`num == den`, the usual case) leaves the score as it is, with no division.
    #[inline(always)]
    pub const fn scaled(self, num: i32, den: i32) -> Score {
        if num == den {
            return self;
        }
        Score::new(self.mg() * num / den, self.eg() * num / den)
    }
}

impl Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, rhs: Score) -> Score {
        Score(self.0.wrapping_add(rhs.0))
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, rhs: Score) -> Score {
        Score(self.0.wrapping_sub(rhs.0))
    }
}

impl AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Score) {
        *self = *self + rhs;
    }
}

impl SubAssign for Score {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Score) {
        *self = *self - rhs;
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score(self.0.wrapping_neg())
    }
}

impl Mul<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn mul(self, rhs: i32) -> Score {
        Score(self.0.wrapping_mul(rhs))
    }
}

impl std::fmt::Debug for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Score({}, {})", self.mg(), self.eg())
    }
}

#[cfg(test)]
mod tests {
    use super::Score;

    #[test]
    fn halves_survive_packing_and_arithmetic() {
        let values = [-16000, -4321, -1, 0, 1, 77, 4321, 16000];
        for &mg in &values {
            for &eg in &values {
                let s = Score::new(mg, eg);
                assert_eq!((s.mg(), s.eg()), (mg, eg));
                assert_eq!(((-s).mg(), (-s).eg()), (-mg, -eg));
                let t = Score::new(eg / 2, mg / 3);
                assert_eq!(((s + t).mg(), (s + t).eg()), (mg + eg / 2, eg + mg / 3));
                assert_eq!(((s - t).mg(), (s - t).eg()), (mg - eg / 2, eg - mg / 3));
                let half = Score::new(mg / 2, eg / 2);
                assert_eq!(half * 2, Score::new(mg / 2 * 2, eg / 2 * 2));
                assert_eq!(s.scaled(3, 64), Score::new(mg * 3 / 64, eg * 3 / 64));
            }
        }
    }

    #[test]
    fn halving_a_non_negative_score_is_scaling_by_one_half() {
        let values = [0, 1, 2, 3, 77, 4321, 16383];
        for &mg in &values {
            for &eg in &values {
                let s = Score::new(mg, eg);
                assert_eq!(s.halved_non_negative(), s.scaled(32, 64), "{mg} {eg}");
            }
        }
    }
}
