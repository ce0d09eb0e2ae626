//! The late-move reduction table: `lmr_offset / 100 + ln(depth) ln(moves) / (lmr_divisor /
//! 100)` plies (the search's parameters) for every depth and move number below 64, built
//! once before the first search (and again when a tuner changes either parameter), so the
//! search reads a table. Building it takes about 20 µs (`cargo test --lib reductions --
//! --ignored --nocapture` times it).

use super::params::{lmr_divisor, lmr_offset};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Once;

/// Depths and move numbers the table covers; the search caps both below this.
const SIZE: usize = 64;

/// `TABLE[depth][moves]`: relaxed atomics, so a tuner's rebuild may race with a search
/// without harm; a relaxed load is a plain load.
static TABLE: [[AtomicU8; SIZE]; SIZE] = [const { [const { AtomicU8::new(0) }; SIZE] }; SIZE];

static BUILT: Once = Once::new();

/// The reduction at `depth` for the `moves`-th move (both capped at 63). The table must have
/// been built ([`ensure_built`]).
#[inline(always)]
pub fn reduction(depth: usize, moves: usize) -> i32 {
    TABLE[depth.min(SIZE - 1)][moves.min(SIZE - 1)].load(Ordering::Relaxed) as i32
}

/// Builds the table unless it has been: called as a search starts.
pub fn ensure_built() {
    BUILT.call_once(build);
}

/// Builds the table from the parameters' current values.
pub fn build() {
    let offset = lmr_offset() as f64 / 100.0;
    let divisor = lmr_divisor() as f64 / 100.0;
    let ln: [f64; SIZE] = std::array::from_fn(|n| (n as f64).ln());
    for (depth, row) in TABLE.iter().enumerate() {
        for (moves, cell) in row.iter().enumerate() {
            // No reduction at depth 0 or for the first move (the logarithms would be 0 or
            // undefined).
            let r = if depth == 0 || moves == 0 {
                0
            } else {
                (offset + ln[depth] * ln[moves] / divisor) as i32
            };
            cell.store(r.clamp(0, u8::MAX as i32) as u8, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table is the formula the parameters describe, entry by entry, read with the
    /// parameters' values (their defaults, or what a tuner set).
    #[test]
    fn the_table_follows_the_formula() {
        ensure_built();
        let offset = lmr_offset() as f64 / 100.0;
        let divisor = lmr_divisor() as f64 / 100.0;
        for depth in 0..SIZE {
            for moves in 0..SIZE {
                let expected = if depth == 0 || moves == 0 {
                    0
                } else {
                    (offset + (depth as f64).ln() * (moves as f64).ln() / divisor) as i32
                };
                assert_eq!(
                    reduction(depth, moves),
                    expected,
                    "depth {depth}, move {moves}"
                );
            }
        }
        assert!(reduction(63, 63) > reduction(3, 3));
        assert_eq!(reduction(100, 100), reduction(63, 63));
    }

    /// What building the table costs (once a process, before its first search).
    #[test]
    #[ignore = "a timing, not a check"]
    fn build_time() {
        let rounds = 2000;
        let start = std::time::Instant::now();
        for _ in 0..rounds {
            build();
            std::hint::black_box(&TABLE);
        }
        let each = start.elapsed().as_secs_f64() * 1e6 / rounds as f64;
        println!("reductions::build: {each:.1} µs a build ({rounds} builds)");
    }
}
