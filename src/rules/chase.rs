//! Which enemy pieces a move chases: new attacks on pieces that could be won for nothing (the
//! exact conditions are listed in the docs of the `rules` module).

use crate::attacks::*;
use crate::bitboard::Bitboard;
use crate::movegen::{generate, GenKind, MoveList};
use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceType, Square};

/// The enemy pieces (their squares, which the move does not change) that the legal move `mv`
/// chases. Empty for a move that is not legal in `pos`.
pub fn chased_by(pos: &Position, mv: Move) -> Bitboard {
    if !pos.is_legal(mv) {
        return Bitboard::EMPTY;
    }
    let mut after = pos.clone();
    after.make_move(mv);
    // The mover to move again: which captures would it have now?
    let mut again = after.clone();
    again.make_null_move();
    let mut captures = MoveList::new();
    generate(&again, GenKind::Captures, &mut captures);

    let mut chased = Bitboard::EMPTY;
    for &cap in captures.iter() {
        let (from, to) = (cap.from(), cap.to());
        let (Some(attacker), Some(victim)) = (again.piece_at(from), again.piece_at(to)) else {
            continue;
        };
        if chased.has(to) || !chases(attacker.kind()) || !chaseable(victim, to) {
            continue;
        }
        // Only a new attack chases: the attacker did not already hit the square before.
        let old_from = if from == mv.to() { mv.from() } else { from };
        if attack_set(attacker, old_from, pos.occupied()).has(to) {
            continue;
        }
        // A piece that can take its attacker at once is not chased (for a like piece that
        // is an offer to trade).
        if after.is_legal(Move::new(to, from)) {
            continue;
        }
        let wins_rook = victim.kind() == PieceType::Rook
            && matches!(attacker.kind(), PieceType::Horse | PieceType::Cannon);
        if !wins_rook && protected(&again, cap) {
            continue;
        }
        chased |= Bitboard::from_square(to);
    }
    chased
}

/// Kings and pawns may attack as they like: their attacks never count as chases.
fn chases(kind: PieceType) -> bool {
    !matches!(kind, PieceType::King | PieceType::Pawn)
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

/// Squares a piece on `sq` attacks (could capture on) with occupancy `occ`, pins ignored.
fn attack_set(piece: Piece, sq: Square, occ: Bitboard) -> Bitboard {
    match piece.kind() {
        PieceType::King => king_attacks(sq),
        PieceType::Advisor => advisor_attacks(sq),
        PieceType::Elephant => elephant_attacks(sq, occ),
        PieceType::Horse => horse_attacks(sq, occ),
        PieceType::Rook => rook_attacks(sq, occ),
        PieceType::Cannon => cannon_attacks(sq, occ),
        PieceType::Pawn => pawn_attacks(piece.color(), sq),
    }
}

/// After the capture `cap` (legal in `pos`), could the victim's side legally take back?
fn protected(pos: &Position, cap: Move) -> bool {
    let mut taken = pos.clone();
    taken.make_move(cap);
    let mut replies = MoveList::new();
    generate(&taken, GenKind::Captures, &mut replies);
    replies.iter().any(|reply| reply.to() == cap.to())
}
