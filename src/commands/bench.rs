//! `chariot bench`: a fixed-depth search of the positions in `data/bench.fen` (built in,
//! see `crate::data`), one thread, a fresh hash table per position. The node count is
//! the search's signature; the last line is `N nodes M nps`. It runs the default evaluation
//! (the embedded network where there is one) unless told `--classical` or `--eval-file`.
//! With `--threads N` (Lazy SMP) the count is no longer fixed: the time to reach the depth
//! is what it measures then, against the same depth on one thread. By default a position is
//! done when any thread completes the depth (`go depth` answers then); `--main-thread` waits
//! for the main thread, whose iterations are the ones a timed search plays.

use crate::board::position::Position;
use crate::console::outln;
use crate::nnue::Network;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Limits, Options, Signals};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const DEFAULT_DEPTH: i32 = 11;

pub struct BenchResult {
    pub nodes: u64,
    pub time: Duration,
}

/// Searches every bench position to `depth` with the default evaluation; `progress` sees each
/// position's outcome.
pub fn bench(depth: i32, progress: impl FnMut(usize, &str, &search::SearchResult)) -> BenchResult {
    bench_with(&Limits::depth(depth), &Options::default(), progress)
}

/// [`bench`] with these limits (a depth limit) and search options (the evaluation they name).
pub fn bench_with(
    limits: &Limits,
    options: &Options,
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
        let mut memory = search::Memory::with_tables(options.threads);
        let start = Instant::now();
        let result = search::search(
            &pos,
            &tt,
            &mut memory,
            limits,
            options,
            &signals,
            &mut |_| {},
        );
        time += start.elapsed();
        nodes += result.nodes;
        progress(i + 1, fen, &result);
    }
    BenchResult { nodes, time }
}

/// `chariot bench [DEPTH] [--classical | --eval-file FILE] [--threads N [--main-thread]]`.
pub fn run_bench(
    depth: Option<i32>,
    classical: bool,
    eval_file: Option<&str>,
    threads: usize,
    main_thread: bool,
) -> Result<(), String> {
    let depth = depth.unwrap_or(DEFAULT_DEPTH);
    if !(1..=64).contains(&depth) {
        return Err(format!("bench depth must be 1..=64, not {depth}"));
    }
    let mut options = Options {
        threads,
        ..Options::default()
    };
    if classical {
        options.network = None;
    } else if let Some(path) = eval_file {
        options.network = Some(Arc::new(Network::load(path).map_err(|e| e.0)?));
    }
    let limits = Limits {
        main_thread_depth: main_thread,
        ..Limits::depth(depth)
    };
    let result = bench_with(&limits, &options, |i, fen, r| {
        let best = r.best.map_or("(none)".to_string(), |m| m.to_string());
        outln!(
            "{i:>3} {fen}: bestmove {best} score {} nodes {}",
            r.score,
            r.nodes
        );
    });
    let nps = result.nodes as u128 * 1000 / result.time.as_millis().max(1);
    if threads > 1 {
        let which = if main_thread { " (main thread)" } else { "" };
        outln!(
            "{threads} threads: depth {depth}{which} in {} ms",
            result.time.as_millis()
        );
    }
    outln!("{} nodes {} nps", result.nodes, nps);
    Ok(())
}
