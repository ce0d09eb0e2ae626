//! The search: `search()` starts its threads (the main one and the Lazy SMP helpers, each
//! running the iterative-deepening loop of `thread.rs`, the tree search of `worker.rs`) on one
//! transposition table, and gives the answer; the signals a protocol uses to stop a search or
//! turn a ponder search into a real one; what a game's searches learn and keep (`Memory`).
//!
//! Techniques in use (each knob in `params.rs`, tuned by SPSA for the seventh network):
//! - Principal variation search, fail-soft, with a transposition table in cache-line buckets
//!   (depth/age replacement, static evaluations stored, a flag for positions that were on a
//!   principal variation or failed low under one) and mate-distance pruning; rule endings
//!   (perpetual check or chase) scored like mates at their distance (`draw.rs`).
//! - Quiescence: captures (losing ones and hopeless ones skipped by SEE and delta pruning),
//!   and every evasion in check.
//! - Static evaluation corrected by a correction history (pawn/advisor/elephant structure and
//!   material keys, `correction.rs`) in the main search. Lazy evaluation: a node with no stored
//!   or cached evaluation stands on material and placement alone when that lies a fitted
//!   margin beyond its cut (quiescence's stand-pat and delta cuts, reverse futility).
//! - Node pruning: reverse futility with the `improving` flag, null move with an adaptive
//!   reduction; internal iterative reduction without a hash move; check extension;
//!   singular extension of a hash move every other move fails low against in a shallower
//!   search, a ply less when the hash move is not alone.
//! - Move pruning at low depth: late-move pruning, futility pruning (checks and pawn advances
//!   at the king kept), SEE pruning of losing captures and of quiets that lose material.
//! - Late-move reductions from a log table, of quiets (adjusted by cut-node, improving, PV or
//!   the table's flag of a past one, and history: butterfly plus continuation) and of
//!   captures that lose by exchange; a reduced move that beats alpha is searched again a ply
//!   deeper than full depth when it beats the best score by far, a ply shallower when only
//!   just.
//! - Histories, counter-moves, the correction history and the evaluation's caches carry from
//!   move to move of a game (`Memory`), each thread keeping its own; a new game starts them
//!   afresh.
//! - Move ordering (`movepick.rs`): hash move, captures by victim then attacker nudged by a
//!   capture history (piece, destination, victim; quiescence keeps plain victim order), killers,
//!   counter-move, quiets by butterfly history plus continuation histories (the moves one and
//!   two plies back, `history.rs`) with a piece-square tie-break, losing captures.
//! - Lazy SMP: helpers search the same table with their own histories and aspiration windows
//!   around their own last scores, odd ones a ply ahead of the deepest completed iteration; a
//!   helper abandons an iteration another thread has completed; breadcrumbs near the root
//!   (`crumbs.rs`) make a thread that enters a node another is searching reduce its late
//!   quiets more. Under a depth limit the first thread to complete that depth answers.
//! - Time (`time.rs`): a soft limit from the clock, scaled by the best move's stability and
//!   a falling score; no new iteration past half of it, a hard limit; `go mate N` stops at a
//!   proved mate.

mod correction;
mod crumbs;
pub(crate) mod draw;
mod history;
pub(crate) mod movepick;
pub(crate) mod params;
pub(crate) mod reductions;
pub mod score;
pub(crate) mod see;
mod thread;
pub(crate) mod time;
pub mod tt;
mod worker;

use crate::board::movegen::legal_moves;
use crate::board::position::Position;
use crate::board::types::Move;
use crate::eval::EvalCaches;
use crate::nnue::Network;
use crate::search::tt::TranspositionTable;
use correction::CorrectionHistory;
use history::History;
use score::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use thread::{iterative_deepening, Shared};
pub use time::{Limits, TimeManager};
use worker::Worker;

/// The most threads a search runs (Lazy SMP), the range of the `Threads` option and of the
/// command line's `--threads`.
pub const MAX_THREADS: usize = 256;

/// Flags a protocol thread sets while a search runs.
#[derive(Default)]
pub struct Signals {
    pub stop: AtomicBool,
    /// A `go ponder` search: the clock does not run and the result waits for `ponderhit`/`stop`.
    pub pondering: AtomicBool,
}

impl Signals {
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
    }
}

#[derive(Clone, Debug)]
pub struct Options {
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    /// Root moves the GUI forbids (UCCI `banmoves`).
    pub banned: Vec<Move>,
    /// The network that evaluates (`Use NNUE`); the classical evaluation when `None`.
    pub network: Option<Arc<Network>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 1,
            multipv: 1,
            move_overhead_ms: 30,
            banned: Vec::new(),
            network: crate::nnue::default_network(),
        }
    }
}

/// One finished line of one iteration, for `info` output.
#[derive(Clone, Debug)]
pub struct Line {
    pub depth: i32,
    pub seldepth: usize,
    /// 1-based MultiPV index.
    pub multipv: usize,
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

impl Line {
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1) as u64;
        self.nodes.saturating_mul(1_000_000) / micros
    }
}

#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// `None` only when the side to move has no legal (unbanned) move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub time: Duration,
}

impl SearchResult {
    /// The move, ponder move, score and depth of a completed line become the answer.
    fn answer_with(&mut self, line: &Line) {
        self.best = Some(line.pv[0]);
        self.ponder = line.pv.get(1).copied();
        self.score = line.score;
        self.depth = line.depth;
    }
}

/// What the search learns that stays useful from one move of a game to the next: the quiet-move
/// histories and counter-moves, the evaluation's correction history, and the evaluation's
/// caches (positions of one move's search recur in the next). Engines keep one per
/// game and start a new game from a fresh one; each search hands the main thread's tables to
/// the main thread and each helper's to that helper, and takes them back at the end. A fresh
/// one is empty: the tables (a few MB a thread) are built by the first search, so neither a
/// new game nor the hand-over builds and clears tables for nothing.
#[derive(Default)]
pub struct Memory {
    main: Option<Learnt>,
    /// Lazy SMP helpers' own tables, by helper (thread 1 first).
    helpers: Vec<Learnt>,
}

/// The tables of a [`Memory`].
#[derive(Default)]
pub(crate) struct Learnt {
    history: History,
    correction: CorrectionHistory,
    eval_caches: EvalCaches,
}

impl Memory {
    /// A fresh memory with the tables of `threads` threads already built, for callers that time
    /// the search alone (`bench`).
    pub fn with_tables(threads: usize) -> Memory {
        Memory {
            main: Some(Learnt::default()),
            helpers: (1..threads).map(|_| Learnt::default()).collect(),
        }
    }

    #[cfg(test)]
    pub(crate) fn learnt_anything(&self) -> bool {
        self.main
            .iter()
            .chain(&self.helpers)
            .any(|learnt| learnt.history.learnt_anything() || learnt.correction.learnt_anything())
    }
}

/// Searches `pos` within `limits`, calling `report` after every completed line of the main
/// thread. Returns when the limits are reached or `signals.stop` is set; a ponder or infinite
/// search first waits for `ponderhit` or `stop`. `memory` is what earlier searches of the same
/// game learnt; this search adds to it.
pub fn search(
    pos: &Position,
    tt: &TranspositionTable,
    memory: &mut Memory,
    limits: &Limits,
    options: &Options,
    signals: &Signals,
    report: &mut dyn FnMut(&Line),
) -> SearchResult {
    let start = Instant::now();
    reductions::ensure_built();
    tt.new_search();
    let root_moves: Vec<Move> = legal_moves(pos)
        .iter()
        .copied()
        .filter(|mv| !options.banned.contains(mv))
        .collect();
    if root_moves.is_empty() {
        wait_for_release(limits, signals);
        return SearchResult {
            score: mated_in(0),
            time: start.elapsed(),
            ..SearchResult::default()
        };
    }
    let threads = options.threads.clamp(1, MAX_THREADS);
    let shared = Shared::new(pos, tt, signals, limits, options, root_moves, threads);

    // Helpers beyond the threads of the last search start afresh.
    memory.helpers.resize_with(threads - 1, Learnt::default);
    let helper_memories = std::mem::take(&mut memory.helpers);
    std::thread::scope(|scope| {
        let shared = &shared;
        let helpers: Vec<_> = (1..)
            .zip(helper_memories)
            .map(|(thread, learnt)| {
                scope.spawn(move || {
                    let mut helper = Worker::new(shared, thread, learnt);
                    iterative_deepening(&mut helper, &mut |_| {});
                    helper.publish_nodes();
                    helper.into_learnt()
                })
            })
            .collect();

        let mut main = Worker::new(shared, 0, memory.main.take().unwrap_or_default());
        let mut result = iterative_deepening(&mut main, report);
        // A helper that completed the depth asked for before the main thread did answers.
        main.publish_nodes();
        if let Some(completed) = shared.answer_deeper_than(result.depth) {
            let line = shared.line(completed);
            report(&line);
            result.answer_with(&line);
        }
        wait_for_release(limits, signals);
        signals.stop.store(true, Ordering::SeqCst);
        result.time = start.elapsed();
        memory.main = Some(main.into_learnt());
        memory.helpers = helpers
            .into_iter()
            .map(|helper| {
                helper
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e))
            })
            .collect();
        // Every thread has joined and published its count.
        result.nodes = shared.total_nodes();
        result
    })
}

/// UCI forbids `bestmove` during `go infinite` or `go ponder` before `stop`/`ponderhit`.
fn wait_for_release(limits: &Limits, signals: &Signals) {
    while (limits.infinite || signals.pondering.load(Ordering::Relaxed))
        && !signals.stop.load(Ordering::Relaxed)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Square};

    /// A search hands back what it learnt, so the next search of the game starts from it.
    #[test]
    fn a_search_leaves_what_it_learnt_in_the_memory() {
        let pos = Position::startpos();
        let tt = TranspositionTable::new(1);
        let mut memory = Memory::default();
        assert!(!memory.learnt_anything());
        search(
            &pos,
            &tt,
            &mut memory,
            &Limits::depth(6),
            &Options::default(),
            &Signals::default(),
            &mut |_| {},
        );
        let learnt = memory.main.take().expect("the search leaves its tables");
        assert!(learnt.history.learnt_anything() && learnt.correction.learnt_anything());
        // The root was evaluated, and its score is still cached for the next search.
        let network = Options::default().network;
        let mut eval = crate::eval::Evaluator::with_network(&pos, learnt.eval_caches, network);
        assert_eq!(eval.cached(&pos), Some(eval.evaluate_uncached(&pos)));
    }

    /// Each Lazy SMP helper keeps its own tables from one search of a game to the next, as the
    /// main thread does; fewer threads next time drop the extra helpers' tables. A helper may
    /// not be scheduled before the main thread finishes, so what it keeps is marked beforehand
    /// by an entry no search writes (no piece goes from a0 to i9 in one move).
    #[test]
    fn helpers_keep_what_they_learnt() {
        let pos = Position::startpos();
        let tt = TranspositionTable::new(1);
        let mark = Move::new(Square::new(0), Square::new(89));
        let marked = |learnt: &Learnt| learnt.history.score(Color::Red, mark) != 0;
        let mut memory = Memory::with_tables(3);
        for helper in &mut memory.helpers {
            helper.history.update(Color::Red, mark, 1000);
        }
        let search_with = |threads: usize, memory: &mut Memory| {
            let options = Options {
                threads,
                ..Options::default()
            };
            let signals = Signals::default();
            search(
                &pos,
                &tt,
                memory,
                &Limits::depth(4),
                &options,
                &signals,
                &mut |_| {},
            );
        };
        search_with(3, &mut memory);
        assert_eq!(memory.helpers.len(), 2);
        assert!(memory.helpers.iter().all(marked));
        search_with(2, &mut memory);
        assert_eq!(memory.helpers.len(), 1);
        assert!(marked(&memory.helpers[0]));
        search_with(1, &mut memory);
        assert!(memory.helpers.is_empty() && memory.main.is_some());
        // A helper beyond the last search's threads starts afresh.
        search_with(2, &mut memory);
        assert!(!marked(&memory.helpers[0]));
    }

    /// A node limit stops the search at exactly that many nodes (the stop signal and the clock
    /// are read only every few nodes, but the limit is a check point of its own) once depth 1
    /// is done; a smaller one still lets depth 1 finish.
    #[test]
    fn a_node_limit_stops_the_search_at_exactly_that_count() {
        let pos = Position::startpos();
        let depth_one = fresh_search(&pos, &Limits::depth(1), &Signals::default()).nodes;
        for limit in [0, 1, 777, 1024, 5000] {
            let limits = Limits {
                nodes: Some(limit),
                ..Limits::default()
            };
            let result = fresh_search(&pos, &limits, &Signals::default());
            assert_eq!(result.nodes, limit.max(depth_one), "limit {limit}");
            assert!(result.depth >= 1 && result.best.is_some(), "limit {limit}");
        }
    }

    /// A stop signal set before the search starts ends it as soon as depth 1 is done.
    #[test]
    fn a_stop_signal_ends_the_search_after_depth_one() {
        let pos = Position::startpos();
        let depth_one = fresh_search(&pos, &Limits::depth(1), &Signals::default());
        let signals = Signals::default();
        signals.stop.store(true, Ordering::Relaxed);
        let result = fresh_search(&pos, &Limits::depth(20), &signals);
        assert_eq!(
            (result.depth, result.nodes, result.best),
            (1, depth_one.nodes, depth_one.best)
        );
    }

    /// With helpers, a depth limit is answered at that depth, whichever thread completes it
    /// first (or the main thread, when the limits ask for it): the last line reported is that
    /// depth's, and its first move is the one played.
    #[test]
    fn helpers_answer_a_depth_limit_at_that_depth() {
        let positions = [
            Position::startpos(),
            Position::from_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w")
                .unwrap(),
        ];
        for pos in &positions {
            for (threads, depth, main_thread_depth) in
                [(2, 1, false), (2, 7, false), (3, 9, false), (2, 7, true)]
            {
                let tt = TranspositionTable::new(1);
                let options = Options {
                    threads,
                    ..Options::default()
                };
                let mut last = None;
                let result = search(
                    pos,
                    &tt,
                    &mut Memory::default(),
                    &Limits {
                        main_thread_depth,
                        ..Limits::depth(depth)
                    },
                    &options,
                    &Signals::default(),
                    &mut |line| last = Some((line.depth, line.pv[0])),
                );
                let best = result.best.expect("a move");
                assert!(pos.is_legal(best));
                assert_eq!(result.depth, depth, "{threads} threads");
                assert_eq!(
                    last,
                    Some((depth, best)),
                    "{threads} threads, depth {depth}"
                );
            }
        }
    }

    /// A helper abandons an iteration once another thread has completed that depth (the
    /// main thread has moved past it), and searches a deeper one to its end.
    #[test]
    fn a_helper_abandons_a_depth_another_thread_completed() {
        let pos = Position::startpos();
        let tt = TranspositionTable::new(1);
        let (signals, limits, options) =
            (Signals::default(), Limits::default(), Options::default());
        let root_moves = legal_moves(&pos).iter().copied().collect();
        let shared = Shared::new(&pos, &tt, &signals, &limits, &options, root_moves, 2);
        shared.record_completed(6);
        let mut helper = Worker::new(&shared, 1, Learnt::default());
        helper.search_root(-INFINITE, INFINITE, 6);
        assert!(helper.stopped, "depth 6 was completed elsewhere");
        assert!(
            helper.nodes < 1024,
            "abandoned at once: {} nodes",
            helper.nodes
        );
        helper.stopped = false;
        helper.search_root(-INFINITE, INFINITE, 7);
        assert!(
            !helper.stopped && !helper.root_pv().is_empty(),
            "depth 7 is its own"
        );
    }

    /// One search of `pos` with a new table and memory and the default options.
    fn fresh_search(pos: &Position, limits: &Limits, signals: &Signals) -> SearchResult {
        let tt = TranspositionTable::new(1);
        let mut memory = Memory::default();
        search(
            pos,
            &tt,
            &mut memory,
            limits,
            &Options::default(),
            signals,
            &mut |_| {},
        )
    }
}
