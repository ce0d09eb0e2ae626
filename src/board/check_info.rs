//! Which moves give check, answered from a few sets computed once per position. The search
//! asks this of every quiet move it is about to prune (checks are never pruned), so the
//! per-move test has to be a handful of bit tests rather than a replay of the move.

use crate::board::attacks::*;
use crate::board::bitboard::Bitboard;
use crate::board::position::Position;
use crate::board::types::{Move, PieceType};

pub struct CheckInfo {
    /// Squares bearing on the enemy king (its rank, file, horse squares and legs): a move
    /// leaving one of them may uncover a check, so those moves are replayed exactly.
    region: Bitboard,
    /// Per piece type: squares from which a piece of ours would attack the enemy king with
    /// the board as it stands.
    direct: [Bitboard; 7],
    /// Empty squares between the enemy king and one of our cannons with nothing else between:
    /// a piece arriving there becomes the cannon's screen.
    screens: Bitboard,
}

impl CheckInfo {
    pub fn new(pos: &Position) -> CheckInfo {
        let us = pos.side_to_move();
        let ksq = pos.king_square(!us);
        let occ = pos.occupied();
        let mut direct = [Bitboard::EMPTY; 7];
        direct[PieceType::Rook.index()] = rook_attacks(ksq, occ);
        direct[PieceType::Cannon.index()] = cannon_attacks(ksq, occ);
        direct[PieceType::Horse.index()] = horse_attackers(ksq, occ);
        direct[PieceType::Pawn.index()] = pawn_attackers(us, ksq);
        let mut screens = Bitboard::EMPTY;
        for cannon in pos.pieces(us, PieceType::Cannon) & rook_attacks(ksq, Bitboard::EMPTY) {
            let gap = between(ksq, cannon);
            if (gap & occ).is_empty() {
                screens |= gap;
            }
        }
        CheckInfo {
            region: check_region(ksq),
            direct,
            screens,
        }
    }

    /// Does the legal move `mv` of the side to move give check? Same answer as
    /// [`Position::gives_check`].
    #[inline]
    pub fn gives_check(&self, pos: &Position, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        if !self.region.has(to) {
            // Arriving off the king's lines and horse squares attacks nothing; only the
            // square left behind might uncover a check.
            return self.region.has(from) && pos.gives_check(mv);
        }
        if self.region.has(from) {
            return pos.gives_check(mv);
        }
        // The square left behind bears on nothing, and the one filled only adds a blocker:
        // the mover checks directly or becomes a cannon's screen.
        let Some(piece) = pos.piece_at(from) else {
            return false;
        };
        self.direct[piece.kind().index()].has(to) || self.screens.has(to)
    }
}
