//! Which enemy pieces a move chases: new attacks on pieces that could be won for nothing (the
//! exact conditions are listed in the docs of the `rules` module). Kings and pawns may attack as
//! they like, so only advisors, elephants, horses, rooks and cannons chase.

use crate::board::attacks::*;
use crate::board::bitboard::Bitboard;
use crate::board::movegen::{generate, GenKind, MoveList};
use crate::board::position::Position;
use crate::board::types::{Color, Move, Piece, PieceType, Square};

/// The enemy pieces (their squares, which the move does not change) that the legal move `mv`
/// chases. Empty for a move that is not legal in `pos`.
pub fn chased_by(pos: &Position, mv: Move) -> Bitboard {
    if !pos.is_legal(mv) {
        return Bitboard::EMPTY;
    }
    chased_by_legal(pos, mv)
}

/// [`chased_by`] for a move known to be legal (replayed from the game record).
pub(super) fn chased_by_legal(pos: &Position, mv: Move) -> Bitboard {
    let candidates = new_attacks(pos, mv);
    if candidates.is_empty() {
        return Bitboard::EMPTY;
    }
    // The copies try moves and read the board only: no game record is needed.
    let mut after = pos.clone_with_recent(0);
    after.make_move(mv);
    // The victim's side to move: which of the attackers could it take at once?
    let mut replies = MoveList::new();
    generate(&after, GenKind::Captures, &mut replies);
    // The mover to move again: which of the attacks are legal captures?
    let mut again = after.clone_with_recent(0);
    again.make_null_move();
    let mut captures = MoveList::new();
    generate(&again, GenKind::Captures, &mut captures);

    let mut chased = Bitboard::EMPTY;
    for (attacker, from, to) in candidates {
        let cap = Move::new(from, to);
        if !captures.contains(cap) || replies.contains(Move::new(to, from)) {
            continue;
        }
        let victim = again.piece_at(to).map(|p| p.kind());
        let wins_rook = victim == Some(PieceType::Rook)
            && matches!(attacker, PieceType::Horse | PieceType::Cannon);
        if wins_rook || !protected(&again, cap) {
            chased |= Bitboard::from_square(to);
        }
    }
    chased
}

/// The attacks that `mv` creates, pins ignored: (attacker kind, its square after the move,
/// victim square) for every piece that may chase and every enemy piece that may be chased,
/// where that attacker did not already hit that square before the move. Cheap: no board copy,
/// so moves that attack nothing new cost next to nothing.
fn new_attacks(pos: &Position, mv: Move) -> Vec<(PieceType, Square, Square)> {
    const CHASERS: [PieceType; 5] = [
        PieceType::Advisor,
        PieceType::Elephant,
        PieceType::Horse,
        PieceType::Rook,
        PieceType::Cannon,
    ];
    let us = pos.side_to_move();
    let (moved_from, moved_to) = (mv.from(), mv.to());
    let occ_before = pos.occupied();
    let occ_after = occ_before.without(moved_from).with(moved_to);
    let targets = pos.color_bb(!us).without(moved_to);
    let mut found = Vec::new();
    for kind in CHASERS {
        let piece = Piece::new(us, kind);
        for sq in pos.pieces(us, kind) {
            // A piece that stays put sees a change only where the move opens or closes one
            // of its lines (sliders) or legs and eyes (horses, elephants); advisors never do.
            let unchanged = match kind {
                PieceType::Rook | PieceType::Cannon => {
                    !lines_through(sq).has(moved_from) && !lines_through(sq).has(moved_to)
                }
                PieceType::Advisor => true,
                _ => false,
            };
            if sq != moved_from && unchanged {
                continue;
            }
            let now = if sq == moved_from { moved_to } else { sq };
            let new = piece_attacks(piece, now, occ_after)
                & targets
                & !piece_attacks(piece, sq, occ_before);
            for victim_sq in new {
                if pos
                    .piece_at(victim_sq)
                    .is_some_and(|victim| chaseable(victim, victim_sq))
                {
                    found.push((kind, now, victim_sq));
                }
            }
        }
    }
    found
}

/// A king cannot be chased (that is check), nor a pawn that has not crossed the river.
fn chaseable(victim: Piece, sq: Square) -> bool {
    match victim.kind() {
        PieceType::King => false,
        PieceType::Pawn => match victim.color() {
            Color::Red => sq.rank() >= 5,
            Color::Black => sq.rank() <= 4,
        },
        _ => true,
    }
}

/// After the capture `cap` (legal in `pos`), could the victim's side legally take back?
fn protected(pos: &Position, cap: Move) -> bool {
    let mut taken = pos.clone_with_recent(0);
    taken.make_move(cap);
    let mut replies = MoveList::new();
    generate(&taken, GenKind::Captures, &mut replies);
    replies.iter().any(|reply| reply.to() == cap.to())
}
