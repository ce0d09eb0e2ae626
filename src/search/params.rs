//! The search's tuning numbers, named in one place so `negamax` reads as steps and a tuner
//! finds every knob here. Depths are in plies, scores in centipawns.

/// Aspiration windows start at this half-width around the last score, from this depth on.
pub const ASPIRATION_DELTA: i32 = 25;
pub const ASPIRATION_MIN_DEPTH: i32 = 5;

/// A side this far behind on the evaluation (more than a rook) has lost on material, so null
/// move and reverse futility are not tried for it.
pub const HOPELESS: i32 = 1000;

/// Reverse futility: at depth <= this, a static evaluation `margin * (depth - improving)` above
/// beta returns at once.
pub const RFP_MAX_DEPTH: i32 = 7;
pub const RFP_MARGIN: i32 = 80;

/// Null move: from this depth, reduced by `BASE + depth / DEPTH_DIV + min((eval - beta) /
/// EVAL_DIV, EVAL_MAX)`.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE: i32 = 3;
pub const NMP_DEPTH_DIV: i32 = 4;
pub const NMP_EVAL_DIV: i32 = 200;
pub const NMP_EVAL_MAX: i32 = 3;

/// Internal iterative reduction: from this depth, a PV or cut node without a hash move loses
/// a ply.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Shallow pruning (late-move pruning, futility, SEE) applies at depth <= this.
pub const SHALLOW_MAX_DEPTH: i32 = 6;
/// Late-move pruning: after `(BASE + depth^2) / (2 - improving)` quiets, the rest are pruned.
pub const LMP_BASE: i32 = 3;
/// Futility: quiets are pruned when the static evaluation plus `BASE + PER_DEPTH * depth`
/// does not reach alpha.
pub const FUTILITY_BASE: i32 = 100;
pub const FUTILITY_PER_DEPTH: i32 = 100;
/// Captures losing more than `SEE_CAPTURE_MARGIN * depth` by exchange are pruned.
pub const SEE_CAPTURE_MARGIN: i32 = -120;
/// Quiets losing more than `SEE_QUIET_MARGIN * depth^2` by exchange are pruned.
pub const SEE_QUIET_MARGIN: i32 = -25;

/// Late-move reductions: from this depth; the base table is `OFFSET + ln(depth) ln(moves) /
/// DIVISOR`, and every `HISTORY_DIV` of history (butterfly plus continuation) is one ply less.
pub const LMR_MIN_DEPTH: i32 = 3;
/// The base table is built from these two by `build.rs` (build/reductions.rs); the crate
/// itself reads them only in the table's test.
#[allow(dead_code)]
pub const LMR_OFFSET: f64 = 0.5;
#[allow(dead_code)]
pub const LMR_DIVISOR: f64 = 2.2;
pub const LMR_HISTORY_DIV: i32 = 16384;

/// History bonus of a quiet cut move: `PER_DEPTH2 * depth^2`, at most `MAX`.
pub const HISTORY_BONUS_PER_DEPTH2: i32 = 16;
pub const HISTORY_BONUS_MAX: i32 = 2000;

/// Quiescence skips captures that leave the score this far below alpha even after winning
/// the victim outright (positional swings rarely exceed it).
pub const DELTA_MARGIN: i32 = 200;

/// Lazy evaluation: a node without a stored or cached evaluation stands on the incremental
/// part alone (material and placement) when that lies this far beyond what would cut the node.
/// Fitted on `chariot bench`'s searches: with 500, the full evaluation fell on the other side of
/// the bound in 107 of 138,470 quiescence nodes that could be cut (0.08%) and 10 of 131,342
/// main-search nodes; with 300, in about 0.9% of both.
pub const LAZY_EVAL_MARGIN: i32 = 500;

/// Correction history: an entry's correction stays within this many centipawns, and a search
/// of depth d moves an entry `min(d + 1, WEIGHT_MAX) / 64` of the way to what it found.
pub const CORRECTION_MAX: i32 = 128;
pub const CORRECTION_WEIGHT_MAX: i32 = 16;
