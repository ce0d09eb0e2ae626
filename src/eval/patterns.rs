//! Xiangqi patterns that piece-square tables cannot see: cannons aimed at the enemy king
//! (empty-headed, central, bottom), a horse stuck in its own palace centre, rooks on open
//! files, crossed pawns at the enemy palace and pawns side by side.

use super::masks::{
    back_rank, back_rank_bb, file_bb, near_palace, own_side, palace_centre, FILE_A,
};
use super::params::{
    BOTTOM_CANNON, CENTRAL_CANNON, CONNECTED_PAWNS, EMPTY_HEADED_CANNON, HORSE_IN_PALACE_CENTRE,
    PAWN_NEAR_PALACE, ROOK_HALF_OPEN_FILE, ROOK_OPEN_FILE, ROOK_PALACE_FILE,
};
use super::score::Score;
use super::trace::{weight, Tracer};
use super::wide::{fresh, Wide};
use crate::board::attacks::between;
use crate::board::bitboard::Bitboard;
use crate::board::position::Position;
use crate::board::types::{Color, Piece, PieceType, Square};

/// The pattern term of `color` (its bonuses minus its own bad shapes), given the bonuses of
/// its rooks' files ([`rook_file`], added up while the flexibility walks the rooks).
#[inline(always)]
pub fn evaluate<T: Tracer>(
    pos: &Position,
    color: Color,
    rook_files: Score,
    tracer: &mut T,
) -> Score {
    let them = !color;
    let mut score = Score::ZERO;

    let own = pos.pieces_of(color);
    let cannons = fresh(&own[PieceType::Cannon.index()]);
    if cannons.any() {
        let occ = pos.occupied();
        // The position keeps each king's square: no bit scan of the king's set.
        let enemy_king = pos.king_square(them);
        for cannon in cannons & file_bb(enemy_king) {
            match (between(cannon, enemy_king) & occ).count() {
                0 => {
                    score += Score::from_pair(EMPTY_HEADED_CANNON);
                    tracer.weight(color, weight::EMPTY_HEADED_CANNON, 64);
                }
                2 => {
                    score += Score::from_pair(CENTRAL_CANNON);
                    tracer.weight(color, weight::CENTRAL_CANNON, 64);
                }
                _ => {}
            }
        }
        if enemy_king.rank() == back_rank(them) {
            let bottom = (cannons & back_rank_bb(them)).count() as i32;
            score += Score::from_pair(BOTTOM_CANNON) * bottom;
            tracer.weight(color, weight::BOTTOM_CANNON, 64 * bottom);
        }
    }

    // One byte of the board, where the horses' set is a vector load and a move out.
    if pos.piece_at(palace_centre(color)) == Some(Piece::new(color, PieceType::Horse)) {
        score += Score::from_pair(HORSE_IN_PALACE_CENTRE);
        tracer.weight(color, weight::HORSE_IN_PALACE_CENTRE, 64);
    }

    let own_pawns = fresh(&own[PieceType::Pawn.index()]);
    score += rook_files;

    let crossed = own_pawns & !own_side(color);
    if crossed.any() {
        let near = (crossed & near_palace(them)).count() as i32;
        score += Score::from_pair(PAWN_NEAR_PALACE) * near;
        tracer.weight(color, weight::PAWN_NEAR_PALACE, 64 * near);
        let pairs = (crossed & Bitboard::from_bits(crossed.bits() << 1) & !FILE_A).count() as i32;
        score += Score::from_pair(CONNECTED_PAWNS) * pairs;
        tracer.weight(color, weight::CONNECTED_PAWNS, 64 * pairs);
    }
    score
}

/// The bonus of a rook on `rook` for its file: open (no pawns) or half-open (no own pawns).
#[inline(always)]
pub fn rook_file<T: Tracer>(
    rook: Square,
    own_pawns: Wide,
    all_pawns: Wide,
    color: Color,
    tracer: &mut T,
) -> Score {
    let file = Wide::from(file_bb(rook));
    if (file & all_pawns).is_empty() {
        tracer.weight(color, weight::ROOK_OPEN_FILE, 64);
        let palace_file = if (3..=5).contains(&rook.file()) {
            tracer.weight(color, weight::ROOK_PALACE_FILE, 64);
            Score::from_pair(ROOK_PALACE_FILE)
        } else {
            Score::ZERO
        };
        Score::from_pair(ROOK_OPEN_FILE) + palace_file
    } else if (file & own_pawns).is_empty() {
        tracer.weight(color, weight::ROOK_HALF_OPEN_FILE, 64);
        Score::from_pair(ROOK_HALF_OPEN_FILE)
    } else {
        Score::ZERO
    }
}
