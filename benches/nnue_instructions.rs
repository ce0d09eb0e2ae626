//! Instruction counts (iai-callgrind) of the network: every bench position computed from
//! scratch, and every legal move of every bench position made, the child evaluated through the
//! accumulator stack and the move taken back (divide by the counts the set-up prints).

mod support;

use chariot::nnue::{Accumulators, Network};
use iai_callgrind::{library_benchmark, library_benchmark_group, main};
use std::hint::black_box;
use std::sync::Arc;
use support::network::{children_evaluated, network, positions_with_moves, Walk};

fn walks() -> (Arc<Network>, Vec<Walk>) {
    let net = network();
    let walks = positions_with_moves(&net);
    let children: usize = walks.iter().map(|w| w.moves.len()).sum();
    eprintln!("{} positions, {children} children", walks.len());
    (net, walks)
}

#[library_benchmark(setup = walks)]
fn from_scratch((net, walks): (Arc<Network>, Vec<Walk>)) -> i32 {
    walks
        .iter()
        .map(|w| {
            let acc = Accumulators::new(&net, black_box(&w.pos));
            acc.evaluate(&net, w.pos.side_to_move(), w.pos.occupied().count())
        })
        .sum()
}

#[library_benchmark(setup = walks)]
fn children((net, mut walks): (Arc<Network>, Vec<Walk>)) -> i64 {
    children_evaluated(&net, black_box(&mut walks))
}

library_benchmark_group!(name = network_group; benchmarks = from_scratch, children);
main!(library_benchmark_groups = network_group);
