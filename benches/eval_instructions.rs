//! Instruction counts (iai-callgrind) of the full static evaluation, cache bypassed: the start
//! position alone, and all bench positions in one call (divide by their number, printed by the
//! setup, for instructions per evaluate).

use chariot::eval::Evaluator;
use chariot::Position;
use iai_callgrind::{library_benchmark, library_benchmark_group, main};
use std::hint::black_box;

fn start() -> (Position, Evaluator) {
    let pos = Position::startpos();
    let eval = Evaluator::new(&pos);
    (pos, eval)
}

fn bench_positions() -> Vec<(Position, Evaluator)> {
    let positions: Vec<(Position, Evaluator)> = chariot::data::bench_fens()
        .into_iter()
        .map(|l| Position::from_fen(l).unwrap_or_else(|e| panic!("bad FEN {l}: {e}")))
        .map(|pos| {
            let eval = Evaluator::new(&pos);
            (pos, eval)
        })
        .collect();
    assert!(!positions.is_empty(), "bench.fen holds no positions");
    eprintln!("{} bench positions", positions.len());
    positions
}

#[library_benchmark(setup = start)]
fn evaluate_start((pos, mut eval): (Position, Evaluator)) -> i32 {
    let score = eval.evaluate_uncached(black_box(&pos));
    // The start position is symmetric: only the tempo separates the sides.
    assert_eq!(score, chariot::eval::params::TEMPO.0);
    score
}

#[library_benchmark(setup = bench_positions)]
fn evaluate_bench_positions(mut positions: Vec<(Position, Evaluator)>) -> i32 {
    positions
        .iter_mut()
        .map(|(pos, eval)| eval.evaluate_uncached(black_box(pos)))
        .sum()
}

library_benchmark_group!(name = evaluation; benchmarks = evaluate_start, evaluate_bench_positions);
main!(library_benchmark_groups = evaluation);
