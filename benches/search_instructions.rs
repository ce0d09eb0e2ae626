//! Instruction count (iai-callgrind) of one fixed-depth search of the start position, one
//! thread, fresh table and memory (both built in the setup, outside the count). Needs valgrind and `iai-callgrind-runner` 0.16.1:
//! `cargo bench --bench search_instructions`.

use chariot::search::tt::TranspositionTable;
use chariot::search::{search, Limits, Memory, Options, Signals};
use chariot::Position;
use iai_callgrind::{library_benchmark, library_benchmark_group, main};
use std::hint::black_box;

fn setup() -> (Position, TranspositionTable, Memory) {
    (
        Position::startpos(),
        TranspositionTable::new(4),
        Memory::with_tables(1),
    )
}

#[library_benchmark]
#[bench::startpos_depth_6(setup = setup)]
fn search_depth_6(case: (Position, TranspositionTable, Memory)) -> u64 {
    let (pos, tt, mut memory) = case;
    let result = search(
        black_box(&pos),
        &tt,
        &mut memory,
        &Limits::depth(6),
        &Options::default(),
        &Signals::default(),
        &mut |_| {},
    );
    let best = result.best.expect("the start position has moves");
    assert!(pos.is_legal(best), "bestmove {best} is legal");
    result.nodes
}

library_benchmark_group!(name = search_group; benchmarks = search_depth_6);
main!(library_benchmark_groups = search_group);
