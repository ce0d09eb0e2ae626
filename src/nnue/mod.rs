//! The efficiently updatable network (NNUE): its features, the quantised network and its file
//! format, and the accumulators the evaluator keeps through make/unmake.
//!
//! Shape: [`FEATURES`] inputs per perspective (14 coloured piece kinds × 90 squares, seen from
//! that side: its own pieces first, its board turned so it plays up, in one set per bucket of
//! its general's square with the board mirrored to put the general on the d or e file; see
//! `features.rs`), a hidden layer of [`HIDDEN`] shared by both perspectives, squared clipped
//! ReLU, and one output from the side to move's half followed by the other's, with [`BUCKETS`]
//! output buckets by piece count. The search keeps the hidden layer on a stack that updates it
//! only where a node is evaluated (`stack.rs`).
//!
//! Integers: the accumulators hold the first layer × `QA`; the activation `clamp(a, 0, QA)²`
//! is rounded to `QA² / 256` units (0 to 254, so it fits the 16-bit lanes the output's
//! multiply-add takes), and the output weights are × `QB`, which leaves them room to be precise.

mod accumulator;
mod architecture;
mod features;
pub(crate) mod format;
mod network;
mod stack;

pub use accumulator::Accumulators;
pub use architecture::{BUCKETS, FEATURES, HIDDEN, KING_BUCKETS, PIECE_SQUARES, QA, QB, SCALE};
pub use features::View;
pub use network::{Network, NetworkError, Row, EMBEDDED_NAME, HAS_EMBEDDED};
pub use stack::AccumulatorStack;

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

/// The network's scores are kept within ±this many centipawns: far from the search's mate
/// scores and within the evaluation cache's 16 bits, whatever a network file holds.
pub const SCORE_LIMIT: i32 = 20_000;
/// The first layer's float weights and biases stay within this, so that 32 pieces' columns and
/// the bias, times `QA`, fit an `i16` accumulator (`33 × 1.98 × 255 < 32,768`).
pub const FT_CLIP: f32 = 1.98;
/// The output weights stay within this, so that a dot product over both halves fits an `i32`
/// (`2 × HIDDEN × 254 × 8 × QB < 2³¹`).
pub const OUT_CLIP: f32 = 8.0;

/// The output bucket of a position with `pieces` pieces on the board (2 to 32).
#[inline(always)]
pub fn bucket(pieces: u32) -> usize {
    ((pieces.saturating_sub(2) / 4) as usize).min(BUCKETS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn buckets_span_the_piece_counts() {
        assert_eq!(bucket(2), 0);
        assert_eq!(bucket(32), BUCKETS - 1);
        assert!((2..=32).all(|n| bucket(n) < BUCKETS));
    }
}
