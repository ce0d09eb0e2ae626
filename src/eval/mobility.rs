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

/// One colour's attacks gathered in registers, written to [`AttackMaps`] once at the end.
struct Gather {
    by_kind: [Bitboard; 7],
    all: Bitboard,
    double: Bitboard,
    /// Reachable squares per piece type; weighted once at the end.
    squares: [u32; 7],
}

impl Gather {
    #[inline(always)]
    fn add(&mut self, kind: PieceType, attacks: Bitboard, moves: Bitboard) {
        self.by_kind[kind.index()] |= attacks;
        self.double |= self.all & attacks;
        self.all |= attacks;
        self.squares[kind.index()] += moves.count();
    }
}

/// Flexibility of `color`, filling its half of `maps`.
#[inline]
pub fn evaluate(pos: &Position, color: Color, maps: &mut AttackMaps) -> Score {
    let occ = pos.occupied();
    let own = pos.color_bb(color);
    let enemy = pos.color_bb(!color);
    let free = !own;
    let mut g = Gather {
        by_kind: [Bitboard::EMPTY; 7],
        all: Bitboard::EMPTY,
        double: Bitboard::EMPTY,
        squares: [0; 7],
    };

    let king = king_attacks(pos.king_square(color));
    g.add(PieceType::King, king, king & free);
    for sq in pos.pieces(color, PieceType::Advisor) {
        let a = advisor_attacks(sq);
        g.add(PieceType::Advisor, a, a & free);
    }
    for sq in pos.pieces(color, PieceType::Elephant) {
        let a = elephant_attacks(sq, occ);
        g.add(PieceType::Elephant, a, a & free);
    }
    for sq in pos.pieces(color, PieceType::Horse) {
        let a = horse_attacks(sq, occ);
        g.add(PieceType::Horse, a, a & free);
    }
    for sq in pos.pieces(color, PieceType::Rook) {
        let a = rook_attacks(sq, occ);
        g.add(PieceType::Rook, a, a & free);
    }
    for sq in pos.pieces(color, PieceType::Cannon) {
        let a = cannon_attacks(sq, occ);
        // Quiet moves slide like a rook; captures jump exactly one screen.
        let moves = (rook_attacks(sq, occ) & !occ) | (a & enemy);
        g.add(PieceType::Cannon, a, moves);
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
        let all = forward | left | right;
        g.by_kind[PieceType::Pawn.index()] = all;
        let pawn_double = (forward & left) | (forward & right) | (left & right);
        g.double |= (g.all & all) | pawn_double;
        g.all |= all;
        g.squares[PieceType::Pawn.index()] =
            (forward & free).count() + (left & free).count() + (right & free).count();
    }

    let c = color.index();
    maps.by_kind[c] = g.by_kind;
    maps.all[c] = g.all;
    maps.double[c] = g.double;
    let mut score = Score::ZERO;
    for (weight, &squares) in WEIGHT.iter().zip(&g.squares) {
        score += *weight * squares as i32;
    }
    score
}
