//! The packed piece-square tables `build.rs` generated from `params.rs` (material included,
//! Black's entries negated), and the full recompute the incremental sum is checked against.

use super::params::PHASE_WEIGHT;
use super::score::Score;
use crate::board::position::Position;
use crate::board::types::{Piece, Square};

mod generated {
    include!(concat!(env!("OUT_DIR"), "/psqt.rs"));
}

/// Material plus placement of `piece` on `sq`, positive for Red, negative for Black.
#[inline(always)]
pub fn psqt(piece: Piece, sq: Square) -> Score {
    Score(generated::PSQT[piece.index()][sq.index()])
}

/// Phase contribution of a piece.
#[inline(always)]
pub fn phase_weight(piece: Piece) -> i32 {
    PHASE_WEIGHT[piece.kind().index()]
}

/// Red's material and placement minus Black's, and the phase, counted from scratch.
pub fn full_psqt_and_phase(pos: &Position) -> (Score, i32) {
    let mut score = Score::ZERO;
    let mut phase = 0;
    for sq in Square::all() {
        if let Some(piece) = pos.piece_at(sq) {
            score += psqt(piece, sq);
            phase += phase_weight(piece);
        }
    }
    (score, phase)
}
