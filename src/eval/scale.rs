//! Draw knowledge: how much of an advantage the side ahead can turn into a win, as a factor
//! out of [`SCALE_NORMAL`]. A side without pieces that can cross the river cannot mate, and a
//! lone horse, cannon or pawn rarely breaks a defended palace.

use super::params::{SCALE_LONE_ATTACKER, SCALE_NORMAL, SCALE_NO_ATTACKERS};
use crate::board::position::Position;
use crate::board::types::{Color, PieceType};

/// Scale factor for an advantage held by `strong`.
#[inline]
pub fn scale(pos: &Position, strong: Color) -> i32 {
    let weak = !strong;
    // Nearly always the strong side has a rook or two attackers: tell that from one union
    // before counting anything.
    let rook_set = pos.pieces(strong, PieceType::Rook);
    let attackers = rook_set
        | pos.pieces(strong, PieceType::Horse)
        | pos.pieces(strong, PieceType::Cannon)
        | pos.pieces(strong, PieceType::Pawn);
    if attackers.more_than_one() || rook_set.any() {
        return SCALE_NORMAL;
    }
    let count = |c: Color, kind: PieceType| pos.pieces(c, kind).count();
    let rooks = count(strong, PieceType::Rook);
    let horses = count(strong, PieceType::Horse);
    let cannons = count(strong, PieceType::Cannon);
    let pawns = count(strong, PieceType::Pawn);
    if rooks + horses + cannons + pawns == 0 {
        return SCALE_NO_ATTACKERS;
    }
    if rooks + horses + cannons + pawns > 1 || rooks > 0 {
        return SCALE_NORMAL;
    }
    let advisors = count(weak, PieceType::Advisor);
    let defenders = advisors + count(weak, PieceType::Elephant);
    let lone_minor_held = (horses + cannons == 1) && defenders >= 2;
    // A cannon needs a screen; with no advisor of its own it cannot even mate a bare king.
    let screenless_cannon = cannons == 1 && count(strong, PieceType::Advisor) == 0;
    let lone_pawn_held = pawns == 1 && advisors >= 2;
    if lone_minor_held || screenless_cannon || lone_pawn_held {
        SCALE_LONE_ATTACKER
    } else {
        SCALE_NORMAL
    }
}
