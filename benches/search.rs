//! Criterion: fixed-depth single-thread searches of three bench positions, fresh table each
//! time. Each run asserts that it found a legal best move, so a fast broken search fails.

use chariot::data::bench_fens;
use chariot::search::tt::TranspositionTable;
use chariot::search::{search, Limits, Memory, Options, Signals};
use chariot::Position;
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

const DEPTH: i32 = 7;

fn positions() -> Vec<Position> {
    bench_fens()
        .into_iter()
        .take(3)
        .map(|l| Position::from_fen(l).unwrap())
        .collect()
}

fn fixed_depth(c: &mut Criterion) {
    let positions = positions();
    let mut tt = TranspositionTable::new(16);
    c.bench_function("search depth 7, 3 bench positions", |b| {
        b.iter(|| {
            let mut nodes = 0;
            for pos in &positions {
                tt.clear();
                let result = search(
                    black_box(pos),
                    &tt,
                    &mut Memory::default(),
                    &Limits::depth(DEPTH),
                    &Options::default(),
                    &Signals::default(),
                    &mut |_| {},
                );
                let best = result.best.expect("bench positions have legal moves");
                assert!(pos.is_legal(best));
                nodes += result.nodes;
            }
            nodes
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = fixed_depth
}
criterion_main!(benches);
