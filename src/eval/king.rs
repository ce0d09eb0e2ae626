//! King safety: enemy attacks on the palace (quadratic in the attack units), and advisors or
//! elephants missing while the enemy still has the pieces that exploit their absence.

use super::masks::{own_side, palace};
use super::mobility::Attacks;
use super::params::{
    KING_DANGER_DIV, KING_DANGER_EG, KING_DANGER_MAX_UNITS, KING_ZONE_ATTACK, MISSING_ADVISOR,
    MISSING_ELEPHANT,
};
use super::psqt::{count_bit, kind_count};
use super::score::Score;
use super::trace::{weight, Tracer};
use super::wide::Wide;
use crate::board::position::Position;
use crate::board::types::{Color, PieceType};
use static_assertions::const_assert;

/// Do horses and rooks, and cannons and pawns, weigh the same per palace square? Then each
/// pair is counted together. A retune may break this; the count per kind then serves.
const ZONE_PAIRS: bool = KING_ZONE_ATTACK[PieceType::Horse.index()]
    == KING_ZONE_ATTACK[PieceType::Rook.index()]
    && KING_ZONE_ATTACK[PieceType::Cannon.index()] == KING_ZONE_ATTACK[PieceType::Pawn.index()];

/// The king-safety term of `color` (zero or negative), given what the enemy attacks and the
/// material signature.
#[inline(always)]
pub fn evaluate<T: Tracer>(
    pos: &Position,
    color: Color,
    theirs: &Attacks,
    material: u64,
    tracer: &mut T,
) -> Score {
    let them = !color;
    let zone = palace(color);
    let enemy_attacks = &theirs.by_kind;
    let zone_weight = |kind: PieceType| KING_ZONE_ATTACK[kind.index()];
    let (horse, rook, cannon, pawn) = (
        PieceType::Horse,
        PieceType::Rook,
        PieceType::Cannon,
        PieceType::Pawn,
    );
    let units = if ZONE_PAIRS {
        // The palace lies in one 32-bit word (Red's in word 0, bits 3-23; Black's in word 2,
        // bits 66-86): two kinds' words side by side, one popcount for a pair.
        // The palace's word of each, side by side, masked after the unpack: one AND a pair.
        let word = match color {
            Color::Red => zone.bits() as u32,
            Color::Black => (zone.bits() >> 64) as u32,
        } as u64;
        let zones = word | word << 32;
        let pair = |a: PieceType, b: PieceType| {
            let (a, b) = (enemy_attacks[a.index()], enemy_attacks[b.index()]);
            let words = match color {
                Color::Red => Wide::words::<0>(a, b),
                Color::Black => Wide::words::<2>(a, b),
            };
            (words & zones).count_ones() as i32
        };
        pair(horse, rook) * zone_weight(horse) + pair(cannon, pawn) * zone_weight(cannon)
    } else {
        [horse, rook, cannon, pawn]
            .into_iter()
            .map(|kind| {
                (enemy_attacks[kind.index()].bb() & zone).count() as i32 * zone_weight(kind)
            })
            .sum()
    };
    let units = units.min(KING_DANGER_MAX_UNITS);
    let mut score = Score::new(
        -(units * units / KING_DANGER_DIV),
        -(units * KING_DANGER_EG),
    );
    tracer.fixed(color, score);

    // Both advisors and both elephants, the usual case, are two bits of the signature (a
    // count with bit 1 set is 2 or more): then none is missing.
    let full = count_bit(color, PieceType::Advisor, 1) | count_bit(color, PieceType::Elephant, 1);
    if material & full == full {
        return score;
    }
    let count = |c: Color, kind: PieceType| kind_count(material, c, kind) as i32;
    // A colour has at most two of each (`PieceType::most_per_side`): no cap needed.
    const_assert!(PieceType::Advisor.most_per_side() == 2);
    const_assert!(PieceType::Elephant.most_per_side() == 2);
    let missing_advisors = 2 - count(color, PieceType::Advisor);
    let missing_elephants = 2 - count(color, PieceType::Elephant);
    debug_assert!(missing_advisors >= 0 && missing_elephants >= 0);
    if missing_advisors > 0 {
        let crossed_pawns = (pos.pieces(them, PieceType::Pawn) & own_side(color)).count() as i32;
        let raiders = count(them, PieceType::Rook) + count(them, PieceType::Horse) + crossed_pawns;
        score -= Score::from_pair(MISSING_ADVISOR) * (missing_advisors * raiders);
        tracer.weight(
            color,
            weight::MISSING_ADVISOR,
            -64 * missing_advisors * raiders,
        );
    }
    if missing_elephants > 0 {
        let raiders = count(them, PieceType::Cannon) + count(them, PieceType::Rook);
        score -= Score::from_pair(MISSING_ELEPHANT) * (missing_elephants * raiders);
        tracer.weight(
            color,
            weight::MISSING_ELEPHANT,
            -64 * missing_elephants * raiders,
        );
    }
    score
}
