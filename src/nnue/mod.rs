//! The efficiently updatable network (NNUE): its features, the quantised network and its file
//! format, and the accumulators the evaluator keeps through make/unmake.
//!
//! Shape: 1,260 inputs per perspective (14 coloured piece kinds × 90 squares, seen from that
//! side: its own pieces first and its board turned so it plays up), a hidden layer of
//! [`HIDDEN`] shared by both perspectives, squared clipped ReLU, and one output from the side to
//! move's half followed by the other's, with [`BUCKETS`] output buckets by piece count.
//!
//! Integers: the accumulators hold the first layer × `QA`; the activation `clamp(a, 0, QA)²`
//! is rounded to `QA² / 256` units (0 to 254, so it fits the 16-bit lanes the output's
//! multiply-add takes), and the output weights are × `QB`, which leaves them room to be precise.

mod accumulator;
pub(crate) mod format;
mod network;

pub use accumulator::Accumulators;
pub use network::{Network, NetworkError, EMBEDDED_NAME, HAS_EMBEDDED};

use crate::board::types::{Color, Piece, Square};
use std::sync::{Arc, OnceLock};

/// The network evaluates by default whenever the build carries one: a network lands in
/// `data/nnue/` only once a match has shown it stronger than the classical evaluation.
pub const USE_BY_DEFAULT: bool = HAS_EMBEDDED;

/// The evaluation searches use unless told otherwise: the embedded network where
/// [`USE_BY_DEFAULT`], else the classical evaluation (`None`). Parsed once.
pub fn default_network() -> Option<Arc<Network>> {
    static DEFAULT: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    DEFAULT
        .get_or_init(|| {
            if USE_BY_DEFAULT {
                Network::embedded().map(Arc::new)
            } else {
                None
            }
        })
        .clone()
}

/// Inputs per perspective.
pub const FEATURES: usize = 14 * 90;
/// Hidden neurons per perspective.
pub const HIDDEN: usize = 256;
/// Output buckets, chosen by the number of pieces on the board.
pub const BUCKETS: usize = 8;
/// First-layer quantisation: 1.0 is `QA`.
pub const QA: i32 = 255;
/// Output-layer quantisation: 1.0 is `QB`.
pub const QB: i32 = 512;
/// Centipawns per unit of the float network's output.
pub const SCALE: i32 = 400;
/// The network's scores are kept within ±this many centipawns: far from the search's mate
/// scores and within the evaluation cache's 16 bits, whatever a network file holds.
pub const SCORE_LIMIT: i32 = 20_000;
/// The first layer's float weights and biases stay within this, so that 32 pieces' columns and
/// the bias, times `QA`, fit an `i16` accumulator (`33 × 1.98 × 255 < 32,768`).
pub const FT_CLIP: f32 = 1.98;
/// The output weights stay within this, so that a dot product over both halves fits an `i32`
/// (`2 × HIDDEN × 254 × 8 × QB < 2³¹`).
pub const OUT_CLIP: f32 = 8.0;

/// The input index of `piece` on `sq` from `perspective`'s side.
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let theirs = (piece.color() != perspective) as usize;
    let sq = match perspective {
        Color::Red => sq.index(),
        Color::Black => sq.flip_rank().index(),
    };
    (theirs * 7 + piece.kind().index()) * 90 + sq
}

/// The output bucket of a position with `pieces` pieces on the board (2 to 32).
#[inline(always)]
pub fn bucket(pieces: u32) -> usize {
    ((pieces.saturating_sub(2) / 4) as usize).min(BUCKETS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::types::PieceType;

    #[test]
    fn features_cover_the_inputs_once_and_swap_with_the_colours() {
        let mut seen = vec![0; FEATURES];
        for color in Color::BOTH {
            for kind in PieceType::ALL {
                for sq in Square::all() {
                    let piece = Piece::new(color, kind);
                    seen[feature(Color::Red, piece, sq)] += 1;
                    // The colour-flipped board seen from Black is the board seen from Red.
                    let flipped = Piece::new(!color, kind);
                    assert_eq!(
                        feature(Color::Black, flipped, sq.flip_rank()),
                        feature(Color::Red, piece, sq)
                    );
                }
            }
        }
        assert!(seen.iter().all(|&n| n == 1));
    }

    #[test]
    fn buckets_span_the_piece_counts() {
        assert_eq!(bucket(2), 0);
        assert_eq!(bucket(32), BUCKETS - 1);
        assert!((2..=32).all(|n| bucket(n) < BUCKETS));
    }
}
