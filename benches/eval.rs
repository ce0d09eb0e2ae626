//! Criterion timing of the static evaluation over the bench positions: the full evaluation
//! (cache bypassed) and a cache hit. Throughput is per position, so the report reads as time
//! per evaluate.

use chariot::eval::Evaluator;
use chariot::Position;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn bench_positions() -> Vec<(Position, Evaluator)> {
    let positions: Vec<(Position, Evaluator)> = chariot::data::bench_fens()
        .into_iter()
        .map(|l| Position::from_fen(l).unwrap_or_else(|e| panic!("bad FEN {l}: {e}")))
        .map(|pos| {
            let mut eval = Evaluator::new(&pos);
            // A fast wrong answer must fail: the timed evaluation is colour-symmetric.
            let flipped = pos.color_flipped();
            assert_eq!(
                eval.evaluate_uncached(&pos),
                Evaluator::new(&flipped).evaluate_uncached(&flipped)
            );
            (pos, eval)
        })
        .collect();
    assert!(!positions.is_empty(), "bench.fen holds no positions");
    positions
}

fn evaluate(c: &mut Criterion) {
    let mut positions = bench_positions();
    let mut group = c.benchmark_group("evaluate");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("full", |b| {
        b.iter(|| {
            positions
                .iter_mut()
                .map(|(pos, eval)| eval.evaluate_uncached(black_box(pos)))
                .sum::<i32>()
        })
    });
    for (pos, eval) in positions.iter_mut() {
        eval.evaluate(pos);
    }
    group.bench_function("cache_hit", |b| {
        b.iter(|| {
            positions
                .iter_mut()
                .map(|(pos, eval)| eval.evaluate(black_box(pos)))
                .sum::<i32>()
        })
    });
    group.finish();
}

criterion_group!(benches, evaluate);
criterion_main!(benches);
