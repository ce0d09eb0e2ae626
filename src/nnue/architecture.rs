//! The network's architecture: the numbers this build's inference and trainer are written for,
//! shared with `build.rs` (which refuses to embed a network of another shape), so it depends on
//! nothing else of the crate.

/// Inputs of one general bucket: 14 coloured piece kinds × 90 squares.
pub const PIECE_SQUARES: usize = 14 * 90;
/// General buckets (1: the plain 1,260 inputs, no mirroring; 6: one per palace square of the
/// d and e files, the f file mirrored onto d).
pub const KING_BUCKETS: usize = 1;
/// Inputs per perspective.
pub const FEATURES: usize = KING_BUCKETS * PIECE_SQUARES;
/// Hidden neurons per perspective.
pub const HIDDEN: usize = 512;
/// Output buckets, chosen by the number of pieces on the board.
pub const BUCKETS: usize = 8;
/// First-layer quantisation: 1.0 is `QA`.
pub const QA: i32 = 255;
/// Output-layer quantisation: 1.0 is `QB`.
pub const QB: i32 = 512;
/// Centipawns per unit of the float network's output.
pub const SCALE: i32 = 400;
