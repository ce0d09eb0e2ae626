//! Flexibility: every piece scores per square it can move to (empty or enemy), with horse
//! legs, elephant eyes and cannon screens respected. The attack maps built on the way are
//! what the relations and king-safety terms read.

use super::masks::{own_side, FILE_A, FILE_I};
use super::params::MOBILITY;
use super::score::Score;
use crate::attacks::*;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, PieceType};

/// Who attacks what, for both colours. A cannon attacks beyond its screen (what it could
/// capture or guards); every other piece attacks its move targets.
#[derive(Clone, Copy, Default)]
pub struct AttackMaps {
    /// Squares attacked by each colour's pieces of each type.
    pub by_kind: [[Bitboard; 7]; 2],
    /// Squares attacked by at least one piece of the colour.
    pub all: [Bitboard; 2],
    /// Squares attacked by at least two pieces of the colour.
    pub double: [Bitboard; 2],
}

impl AttackMaps {
    #[inline(always)]
    fn add(&mut self, color: Color, kind: PieceType, attacks: Bitboard) {
        let c = color.index();
        self.by_kind[c][kind.index()] |= attacks;
        self.double[c] |= self.all[c] & attacks;
        self.all[c] |= attacks;
    }
}

const fn weights() -> [Score; 7] {
    let mut out = [Score::ZERO; 7];
    let mut i = 0;
    while i < 7 {
        out[i] = Score::from_pair(MOBILITY[i]);
        i += 1;
    }
    out
}
const WEIGHT: [Score; 7] = weights();

#[inline(always)]
fn points(kind: PieceType, squares: Bitboard) -> Score {
    WEIGHT[kind.index()] * squares.count() as i32
}

/// Flexibility of `color`, filling its half of `maps`.
#[inline]
pub fn evaluate(pos: &Position, color: Color, maps: &mut AttackMaps) -> Score {
    let occ = pos.occupied();
    let own = pos.color_bb(color);
    let enemy = pos.color_bb(!color);
    let free = !own;
    let mut score = Score::ZERO;

    let king = king_attacks(pos.king_square(color));
    maps.add(color, PieceType::King, king);
    score += points(PieceType::King, king & free);

    for sq in pos.pieces(color, PieceType::Advisor) {
        let a = advisor_attacks(sq);
        maps.add(color, PieceType::Advisor, a);
        score += points(PieceType::Advisor, a & free);
    }
    for sq in pos.pieces(color, PieceType::Elephant) {
        let a = elephant_attacks(sq, occ);
        maps.add(color, PieceType::Elephant, a);
        score += points(PieceType::Elephant, a & free);
    }
    for sq in pos.pieces(color, PieceType::Horse) {
        let a = horse_attacks(sq, occ);
        maps.add(color, PieceType::Horse, a);
        score += points(PieceType::Horse, a & free);
    }
    for sq in pos.pieces(color, PieceType::Rook) {
        let a = rook_attacks(sq, occ);
        maps.add(color, PieceType::Rook, a);
        score += points(PieceType::Rook, a & free);
    }
    for sq in pos.pieces(color, PieceType::Cannon) {
        let a = cannon_attacks(sq, occ);
        maps.add(color, PieceType::Cannon, a);
        // Quiet moves slide like a rook; captures jump exactly one screen.
        let moves = (rook_attacks(sq, occ) & !occ) | (a & enemy);
        score += points(PieceType::Cannon, moves);
    }

    // Pawns all at once: forward, and sideways for those across the river. Each shift moves
    // every pawn to a distinct square, so the popcounts add up per pawn.
    let pawns = pos.pieces(color, PieceType::Pawn);
    if pawns.any() {
        let forward = match color {
            Color::Red => Bitboard(pawns.0 << 9) & Bitboard::FULL,
            Color::Black => Bitboard(pawns.0 >> 9),
        };
        let crossed = pawns & !own_side(color);
        let left = Bitboard(crossed.0 >> 1) & !FILE_I;
        let right = Bitboard(crossed.0 << 1) & !FILE_A;
        let c = color.index();
        let all = forward | left | right;
        maps.by_kind[c][PieceType::Pawn.index()] = all;
        let pawn_double = (forward & left) | (forward & right) | (left & right);
        maps.double[c] |= (maps.all[c] & all) | pawn_double;
        maps.all[c] |= all;
        score += points(PieceType::Pawn, forward & free)
            + points(PieceType::Pawn, left & free)
            + points(PieceType::Pawn, right & free);
    }
    score
}
