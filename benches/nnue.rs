//! Criterion timing of the network over the bench positions: a computation from scratch, the
//! output layer alone, and the search's way, a move made, the child evaluated through the
//! accumulator stack and the move taken back, for every legal move of every position.
//! Throughput is per position (per child in `child`).

mod support;

use chariot::nnue::Accumulators;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use support::network::{children_evaluated, network, positions_with_moves};

fn network_benches(c: &mut Criterion) {
    let net = network();
    let mut positions = positions_with_moves(&net);
    let mut group = c.benchmark_group("nnue");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("from_scratch", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| {
                    let acc = Accumulators::new(&net, black_box(&p.pos));
                    acc.evaluate(&net, p.pos.side_to_move(), p.pos.occupied().count())
                })
                .sum::<i32>()
        })
    });
    let computed: Vec<Accumulators> = positions
        .iter()
        .map(|p| Accumulators::new(&net, &p.pos))
        .collect();
    group.bench_function("output", |b| {
        b.iter(|| {
            positions
                .iter()
                .zip(&computed)
                .map(|(p, acc)| {
                    black_box(acc).evaluate(&net, p.pos.side_to_move(), p.pos.occupied().count())
                })
                .sum::<i32>()
        })
    });
    let children: usize = positions.iter().map(|p| p.moves.len()).sum();
    group.throughput(Throughput::Elements(children as u64));
    group.bench_function("child", |b| {
        b.iter(|| children_evaluated(&net, black_box(&mut positions)))
    });
    group.finish();
}

criterion_group!(benches, network_benches);
criterion_main!(benches);
