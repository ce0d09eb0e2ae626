//! The search driver: iterative deepening with aspiration windows and MultiPV on the main
//! thread, Lazy SMP helpers on the same transposition table, and the signals a protocol uses to
//! stop a search or turn a ponder search into a real one.
//!
//! Techniques in use (each knob in `params.rs`):
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
//!   reduction; internal iterative reduction without a hash move; check extension.
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
//! - Lazy SMP: helpers search the same table with their own histories, odd ones a ply ahead
//!   of the deepest completed iteration; a helper abandons an iteration another thread has
//!   completed; breadcrumbs near the root (`crumbs.rs`) make a thread that enters a node
//!   another is searching reduce its late quiets more. Under a depth limit the first thread
//!   to complete that depth answers.
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
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
pub use time::{Limits, TimeManager};
use worker::Worker;

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

/// Each helper's node count on its own cache line, so counting does not make threads fight.
#[repr(align(64))]
#[derive(Default)]
struct Counter(AtomicU64);

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
    let threads = options.threads.max(1);
    let counters: Vec<Counter> = (0..threads).map(|_| Counter::default()).collect();
    let total_nodes = || {
        counters
            .iter()
            .map(|c| c.0.load(Ordering::Relaxed))
            .sum::<u64>()
    };

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

    // Under a depth limit (one line asked for), the first thread to complete that depth
    // answers: a helper searching a ply ahead often gets there before the main thread.
    let multipv = options.multipv.clamp(1, root_moves.len());
    let target_depth = limits.depth.filter(|_| multipv == 1);
    let helper_line: Mutex<Option<Line>> = Mutex::new(None);
    let helper_finished = AtomicBool::new(false);
    let deepest_completed = AtomicI32::new(0);
    let crumbs = (threads > 1).then(crumbs::Breadcrumbs::default);

    // Helpers beyond the threads of the last search start afresh.
    memory.helpers.resize_with(threads - 1, Learnt::default);
    let helper_memories = std::mem::take(&mut memory.helpers);
    std::thread::scope(|scope| {
        let mut helpers = Vec::with_capacity(threads - 1);
        for ((id, counter), learnt) in counters.iter().enumerate().skip(1).zip(helper_memories) {
            let banned = &options.banned;
            let (helper_line, helper_finished) = (&helper_line, &helper_finished);
            let (deepest_completed, crumbs) = (&deepest_completed, crumbs.as_ref());
            helpers.push(scope.spawn(move || {
                let mut helper = Worker::new(
                    pos,
                    tt,
                    signals,
                    &counter.0,
                    learnt,
                    options.network.clone(),
                );
                helper.root_excluded.clone_from(banned);
                helper.deepest_completed = Some(deepest_completed);
                helper.crumbs = crumbs;
                helper.thread = id;
                // Odd helpers keep a ply ahead of the deepest completed iteration, even ones
                // level with the main thread's next, so threads spread over depths.
                let ahead = (id % 2) as i32;
                let mut depth = 1 + ahead;
                while depth < MAX_PLY as i32 {
                    let score = helper.search_root(-INFINITE, INFINITE, depth);
                    let completed = !helper.stopped;
                    if completed {
                        deepest_completed.fetch_max(depth, Ordering::Relaxed);
                    } else if signals.stop.load(Ordering::Relaxed) {
                        break;
                    } else {
                        // Another thread completed this depth first: on to a deeper one.
                        helper.stopped = false;
                    }
                    let reached = completed && target_depth == Some(depth);
                    let pv = reached
                        .then(|| helper.root_pv())
                        .filter(|pv| !pv.is_empty());
                    if let Some(pv) = pv {
                        let line = Line {
                            depth,
                            seldepth: helper.seldepth,
                            multipv: 1,
                            score,
                            nodes: 0,
                            time: Duration::ZERO,
                            hashfull: 0,
                            pv,
                        };
                        let mut slot = helper_line.lock().unwrap_or_else(|e| e.into_inner());
                        slot.get_or_insert(line);
                        helper_finished.store(true, Ordering::Relaxed);
                        break;
                    }
                    depth = (depth + 1).max(deepest_completed.load(Ordering::Relaxed) + 1 + ahead);
                }
                helper.publish_nodes();
                helper.into_learnt()
            }));
        }

        let learnt = memory.main.take().unwrap_or_default();
        let network = options.network.clone();
        let mut main = Worker::new(pos, tt, signals, &counters[0].0, learnt, network);
        main.timer = Some(TimeManager::new(limits, options.move_overhead_ms));
        main.node_limit = limits.nodes;
        main.helper_finished = Some(&helper_finished);
        main.crumbs = crumbs.as_ref();
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let mut result = SearchResult {
            best: Some(root_moves[0]),
            ..SearchResult::default()
        };
        let mut previous_score = 0;
        // For the clock: how many iterations in a row ended on the same best move.
        let mut unchanged_iterations = 0;

        for depth in 1..=max_depth {
            // However soon a stop or a limit comes (`go nodes 0`, a `stop` right behind the
            // `go`), depth 1 is searched to its end, so the move played has been searched and
            // reported. It takes a few hundred nodes at most.
            main.unstoppable = depth == 1;
            let mut lines = Vec::new();
            for index in 0..multipv {
                main.root_excluded.clone_from(&options.banned);
                main.root_excluded
                    .extend(lines.iter().map(|l: &Line| l.pv[0]));
                let score = aspiration(
                    &mut main,
                    depth,
                    if index == 0 { previous_score } else { 0 },
                    index,
                );
                if main.stopped && depth > 1 {
                    break;
                }
                let mut pv = main.root_pv();
                if pv.is_empty() {
                    break; // every move failed low without a PV; keep the last iteration
                }
                extend_from_tt(pos, tt, &mut pv);
                main.publish_nodes();
                if index == 0 {
                    deepest_completed.fetch_max(depth, Ordering::Relaxed);
                }
                let line = Line {
                    depth,
                    seldepth: main.seldepth,
                    multipv: index + 1,
                    score,
                    nodes: total_nodes(),
                    time: start.elapsed(),
                    hashfull: tt.hashfull(),
                    pv,
                };
                report(&line);
                lines.push(line);
            }
            if let Some(first) = lines.first() {
                if !(main.stopped && depth > 1) {
                    if result.best == Some(first.pv[0]) {
                        unchanged_iterations += 1;
                    } else {
                        unchanged_iterations = 0;
                    }
                    if depth > 1 {
                        let timer = main.timer.as_mut().expect("the main thread has a timer");
                        timer.set_effort(unchanged_iterations, previous_score - first.score);
                    }
                    previous_score = first.score;
                    result.answer_with(first);
                }
            }
            if main.stopped || signals.stop.load(Ordering::Relaxed) {
                break;
            }
            let timer = main.timer.as_ref().expect("the main thread has a timer");
            let pondering = signals.pondering.load(Ordering::Relaxed);
            if !pondering && (timer.next_iteration_too_late() || main.out_of_time()) {
                break;
            }
            // `go mate N`: a completed iteration proved a mate in N or fewer.
            if let Some(moves) = limits.mate {
                let proved = matches!(describe(result.score), ScoreText::Mate(m) if (1..=moves).contains(&m));
                if result.depth == depth && proved {
                    break;
                }
            }
            // A forced mate is settled once the depth is well past its length. Not sooner:
            // reductions and pruning can hide a shorter mate from depths just beyond it. Nor
            // under `go mate N`, which asked for a mate no longer than N: searching on finds it.
            if is_mate(result.score)
                && 2 * mate_plies(result.score) <= depth
                && !limits.infinite
                && limits.mate.is_none()
                && !pondering
            {
                break;
            }
        }
        // A helper that completed the depth asked for before the main thread did answers.
        let finished = helper_line.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(mut line) = finished.filter(|line| line.depth > result.depth) {
            extend_from_tt(pos, tt, &mut line.pv);
            line.nodes = total_nodes();
            line.time = start.elapsed();
            line.hashfull = tt.hashfull();
            report(&line);
            result.answer_with(&line);
        }
        wait_for_release(limits, signals);
        signals.stop.store(true, Ordering::SeqCst);
        main.publish_nodes();
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
        result.nodes = total_nodes();
        result
    })
}

/// Searches with a narrow window around the last score, widening on failure.
fn aspiration(main: &mut Worker, depth: i32, guess: i32, index: usize) -> i32 {
    let mut delta = params::aspiration_delta();
    let (mut alpha, mut beta) =
        if depth >= params::aspiration_min_depth() && index == 0 && !is_mate(guess) {
            (guess - delta, guess + delta)
        } else {
            (-INFINITE, INFINITE)
        };
    loop {
        let score = main.search_root(alpha, beta, depth);
        if main.stopped {
            return score;
        }
        if score <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (score - delta).max(-INFINITE);
        } else if score >= beta {
            beta = (score + delta).min(INFINITE);
        } else {
            return score;
        }
        delta += delta;
    }
}

/// A PV cut short by a hash cut-off still gets a ponder move from the table.
fn extend_from_tt(pos: &Position, tt: &TranspositionTable, pv: &mut Vec<Move>) {
    if pv.len() != 1 {
        return;
    }
    let mut after = pos.clone();
    after.make_move(pv[0]);
    if let Some(reply) = tt.probe(after.hash()).and_then(|h| h.mv) {
        if after.is_legal(reply) {
            pv.push(reply);
        }
    }
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
    /// first: the last line reported is that depth's, and its first move is the one played.
    #[test]
    fn helpers_answer_a_depth_limit_at_that_depth() {
        let positions = [
            Position::startpos(),
            Position::from_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w")
                .unwrap(),
        ];
        for pos in &positions {
            for (threads, depth) in [(2, 1), (2, 7), (3, 9)] {
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
                    &Limits::depth(depth),
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
        let signals = Signals::default();
        let counter = AtomicU64::new(0);
        let deepest = AtomicI32::new(6);
        let network = Options::default().network;
        let mut helper = Worker::new(&pos, &tt, &signals, &counter, Learnt::default(), network);
        helper.deepest_completed = Some(&deepest);
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
