//! King safety: enemy attacks on the palace (quadratic in the attack units), and advisors or
//! elephants missing while the enemy still has the pieces that exploit their absence.

use super::masks::{own_side, palace};
use super::mobility::Attacks;
use super::params::{
    KING_DANGER_DIV, KING_DANGER_EG, KING_DANGER_MAX_UNITS, KING_ZONE_ATTACK, MISSING_ADVISOR,
    MISSING_ELEPHANT,
};
use super::psqt::kind_count;
use super::score::Score;
use super::trace::{weight, Tracer};
use crate::board::position::Position;
use crate::board::types::{Color, PieceType};

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
    let mut units = 0;
    for kind in [
        PieceType::Horse,
        PieceType::Rook,
        PieceType::Cannon,
        PieceType::Pawn,
    ] {
        units += (enemy_attacks[kind.index()].bb() & zone).count() as i32
            * KING_ZONE_ATTACK[kind.index()];
    }
    let units = units.min(KING_DANGER_MAX_UNITS);
    let mut score = Score::new(
        -(units * units / KING_DANGER_DIV),
        -(units * KING_DANGER_EG),
    );
    tracer.fixed(color, score);

    let count = |c: Color, kind: PieceType| kind_count(material, c, kind) as i32;
    let missing_advisors = 2 - count(color, PieceType::Advisor).min(2);
    let missing_elephants = 2 - count(color, PieceType::Elephant).min(2);
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
