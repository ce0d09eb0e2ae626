//! `chariot bench`: a fixed-depth search of the positions in `data/bench.fen` (built in,
//! see `crate::data`), one thread, a fresh hash table per position. The node count is
//! the search's signature; the last line is `N nodes M nps`.

use crate::board::position::Position;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Limits, Options, Signals};
use std::time::{Duration, Instant};

pub const DEFAULT_DEPTH: i32 = 11;

pub struct BenchResult {
    pub nodes: u64,
    pub time: Duration,
}

/// Searches every bench position to `depth`; `progress` sees each position's outcome.
pub fn bench(
    depth: i32,
    mut progress: impl FnMut(usize, &str, &search::SearchResult),
) -> BenchResult {
    let mut tt = TranspositionTable::new(16);
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for (i, fen) in crate::data::bench_fens().into_iter().enumerate() {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("bench position {fen}: {e}"));
        tt.clear();
        let signals = Signals::default();
        // Every position a new game: its own table and a fresh memory, so counts do not
        // depend on the order of the positions. Both are built before the clock starts.
        let mut memory = search::Memory::with_tables();
        let start = Instant::now();
        let result = search::search(
            &pos,
            &tt,
            &mut memory,
            &Limits::depth(depth),
            &Options::default(),
            &signals,
            &mut |_| {},
        );
        time += start.elapsed();
        nodes += result.nodes;
        progress(i + 1, fen, &result);
    }
    BenchResult { nodes, time }
}

pub fn run_bench(depth: Option<i32>) -> Result<(), String> {
    let depth = depth.unwrap_or(DEFAULT_DEPTH);
    if !(1..=64).contains(&depth) {
        return Err(format!("bench depth must be 1..=64, not {depth}"));
    }
    let result = bench(depth, |i, fen, r| {
        let best = r.best.map_or("(none)".to_string(), |m| m.to_string());
        println!(
            "{i:>3} {fen}: bestmove {best} score {} nodes {}",
            r.score, r.nodes
        );
    });
    let nps = result.nodes as u128 * 1000 / result.time.as_millis().max(1);
    println!("{} nodes {} nps", result.nodes, nps);
    Ok(())
}
