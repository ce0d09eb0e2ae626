//! Which moves give check, answered from a few sets computed once per position. The search
//! asks this of every quiet move it is about to prune (checks are never pruned), so the
//! per-move test has to be a handful of bit tests rather than a replay of the move.

use crate::board::attacks::*;
use crate::board::bitboard::Bitboard;
use crate::board::position::Position;
use crate::board::types::{Move, PieceType};

pub struct CheckInfo {
    /// Squares bearing on the enemy king (its rank, file, horse squares and legs): only a
    /// move to one of them can check with the piece that moves.
    region: Bitboard,
    /// Per piece type: squares from which a piece of ours would attack the enemy king with
    /// the board as it stands.
    direct: [Bitboard; 7],
    /// Empty squares between the enemy king and one of our cannons with nothing else between:
    /// a piece arriving there becomes the cannon's screen.
    screens: Bitboard,
    /// Our pieces whose leaving their square uncovers a check: the lone blocker between the
    /// enemy king and one of our rooks (or our king), either of two between it and one of our
    /// cannons, a piece on the leg of one of our horses aimed at it.
    discoverers: Bitboard,
    /// Our cannons on the enemy king's lines with nothing between (their screens above): the
    /// one mover whose own leaving changes what `direct` and `screens` say.
    bare_cannons: Bitboard,
}

impl CheckInfo {
    #[inline(never)]
    pub fn new(pos: &Position) -> CheckInfo {
        let us = pos.side_to_move();
        let ksq = pos.king_square(!us);
        let occ = pos.occupied();
        let ours = pos.color_bb(us);
        let lines = lines_through(ksq);
        let mut screens = Bitboard::EMPTY;
        let mut discoverers = Bitboard::EMPTY;
        let mut bare_cannons = Bitboard::EMPTY;
        // The enemy king is not in check, so no rook (nor our king) sees it, and no cannon
        // has exactly one piece between.
        let rooks = (pos.pieces(us, PieceType::Rook) | pos.pieces(us, PieceType::King)) & lines;
        for rook in rooks {
            let blockers = between(ksq, rook) & occ;
            if !blockers.more_than_one() {
                discoverers |= blockers & ours;
            }
        }
        for cannon in pos.pieces(us, PieceType::Cannon) & lines {
            let gap = between(ksq, cannon);
            let blockers = gap & occ;
            match blockers.count() {
                0 => {
                    screens |= gap;
                    bare_cannons |= Bitboard::from_square(cannon);
                }
                2 => discoverers |= blockers & ours,
                _ => {}
            }
        }
        let horses = pos.pieces(us, PieceType::Horse) & horse_attackers_unblocked(ksq);
        if horses.any() {
            for leg in diagonal_neighbours(ksq) & ours {
                if (horse_attackers(ksq, occ.without(leg)) & horses).any() {
                    discoverers |= Bitboard::from_square(leg);
                }
            }
        }
        // The direct sets last: found before the loops, they were kept on the stack through
        // them.
        let mut direct = [Bitboard::EMPTY; 7];
        direct[PieceType::Rook.index()] = rook_attacks(ksq, occ);
        direct[PieceType::Cannon.index()] = cannon_attacks(ksq, occ);
        direct[PieceType::Horse.index()] = horse_attackers(ksq, occ);
        direct[PieceType::Pawn.index()] = pawn_attackers(us, ksq);
        CheckInfo {
            region: check_region(ksq),
            direct,
            screens,
            discoverers,
            bare_cannons,
        }
    }

    /// Does the legal move `mv` of the side to move give check? Same answer as
    /// [`Position::gives_check`]. Inline only as far as most moves get (the search's pruning
    /// asks it of every quiet move in a tight loop).
    #[inline(always)]
    pub fn gives_check(&self, pos: &Position, mv: Move) -> bool {
        if !self.region.has(mv.to()) {
            // Arriving off the king's lines and horse squares attacks nothing and screens
            // nothing; only the square left behind might uncover a check (`to` is off every
            // line the mover blocked, so it blocks it no more).
            return self.discoverers.has(mv.from());
        }
        self.gives_check_in_region(pos, mv)
    }

    /// [`CheckInfo::gives_check`] for a move arriving on the king's region.
    #[inline(never)]
    fn gives_check_in_region(&self, pos: &Position, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        if self.discoverers.has(from) || self.bare_cannons.has(from) {
            // It may stay on the line it blocks, or take its own screen away: replay it.
            return pos.gives_check(mv);
        }
        // Leaving `from` uncovers nothing, and changes no line from the king to `to` (a rook
        // or cannon sliding away from the king along its line stays behind the pieces it had
        // between, a horse never stands on its own leg): the mover checks directly or
        // becomes a cannon's screen.
        let Some(piece) = pos.piece_at(from) else {
            return false;
        };
        self.direct[piece.kind().index()].has(to) || self.screens.has(to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;

    /// Agrees with the replaying test on every legal move along random games, from positions
    /// rich in discovered checks, cannon screens and horse legs.
    #[test]
    fn agrees_with_position_gives_check() {
        let fens = [
            Position::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "3k1ab2/6n2/b2a5/p1r1C4/4CN3/P4p2P/3RP4/4B4/4A4/3AK1B2 w - - 2 28",
            "4k4/4a4/4P4/9/4C4/9/4R4/9/4N4/3K5 w - - 0 1",
        ];
        let mut rng = fastrand::Rng::with_seed(17);
        let mut checks_seen = 0;
        for fen in fens {
            for _ in 0..20 {
                let mut pos = Position::from_fen(fen).unwrap();
                for _ in 0..80 {
                    let moves = legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    let info = CheckInfo::new(&pos);
                    for &mv in &moves {
                        let expected = pos.gives_check(mv);
                        checks_seen += expected as usize;
                        assert_eq!(info.gives_check(&pos, mv), expected, "{mv} in {fen}");
                    }
                    let mv = moves.as_slice()[rng.usize(..moves.len())];
                    pos.make_move(mv);
                }
            }
        }
        assert!(
            checks_seen > 1000,
            "only {checks_seen} checking moves tried"
        );
    }
}
