//! Instruction counts under callgrind (iai-callgrind): perft 3 on three perft.txt positions,
//! each asserting its node count. Repeatable on a noisy machine where wall time is not.
//! Needs valgrind and `iai-callgrind-runner` 0.16.1: `cargo bench --bench instructions`.

#[path = "support/mod.rs"]
mod support;

use chariot::commands::perft::perft;
use chariot::data::perft_cases;
use chariot::Position;
use iai_callgrind::{library_benchmark, library_benchmark_group, main};
use std::hint::black_box;
use support::position;

const DEPTH: u32 = 3;

/// The position of the line of perft.txt starting with `fen_prefix` at depth 3, with its count.
/// Runs outside the measured region.
fn load(fen_prefix: &str) -> (Position, u64) {
    let case = perft_cases()
        .into_iter()
        .find(|c| c.depth == DEPTH && c.fen.starts_with(fen_prefix))
        .unwrap_or_else(|| panic!("perft.txt has no depth-{DEPTH} line for {fen_prefix:?}"));
    (position(&case.fen), case.count)
}

#[library_benchmark]
#[bench::startpos(args = ("rnbakabnr/9/1c5c1/"), setup = load)]
#[bench::middlegame(args = ("1rbaka2R/5r3/"), setup = load)]
#[bench::endgame(args = ("5a3/3k5/3aR4/"), setup = load)]
fn perft_3(case: (Position, u64)) -> u64 {
    let (mut pos, expected) = case;
    let nodes = perft(black_box(&mut pos), DEPTH);
    assert_eq!(nodes, expected, "perft {DEPTH} of {}", pos.to_fen());
    nodes
}

library_benchmark_group!(name = perft_group; benchmarks = perft_3);
main!(library_benchmark_groups = perft_group);
