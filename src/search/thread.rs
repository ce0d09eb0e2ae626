//! A search thread's part in a search: the context every thread shares (the root, the table,
//! the signals, node counts, breadcrumbs, the deepest completed depth, the answer a helper hands
//! in), the role that sets a thread apart (the main thread with its clock and limits, a helper
//! with its place ahead of the others), and the iterative-deepening loop every thread runs.

use super::crumbs::Breadcrumbs;
use super::params;
use super::score::*;
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::worker::Worker;
use super::{Limits, Line, Options, SearchResult, Signals};
use crate::board::position::Position;
use crate::board::types::Move;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// What every thread of one search reads, and the little they write for the others.
pub(super) struct Shared<'a> {
    pub root: &'a Position,
    pub tt: &'a TranspositionTable,
    pub signals: &'a Signals,
    pub limits: &'a Limits,
    pub options: &'a Options,
    /// The root's legal moves but the banned ones; never empty.
    root_moves: Vec<Move>,
    /// The lines each iteration of the main thread searches: MultiPV, at most the root's moves.
    multipv: usize,
    /// Under a depth limit with one line asked for, the depth whose first completion, by any
    /// thread, answers: a helper a ply ahead often gets there before the main thread. None
    /// when the limits ask for the main thread's own completion.
    target_depth: Option<i32>,
    start: Instant,
    /// Each thread's node count (the main thread's first), as last published.
    counters: Vec<Counter>,
    /// With more than one thread: the crumbs threads leave near the root.
    pub crumbs: Option<Breadcrumbs>,
    /// The deepest iteration any thread has completed.
    deepest_completed: AtomicI32,
    /// The line of the target depth a helper completed first; `answered` says it is there.
    answer: Mutex<Option<Completed>>,
    answered: AtomicBool,
}

/// A node count on its own cache line, so counting does not make threads fight.
#[repr(align(64))]
#[derive(Default)]
struct Counter(AtomicU64);

/// A root search completed to its end: what a [`Line`] reports, before the search's counts.
pub(super) struct Completed {
    depth: i32,
    seldepth: usize,
    multipv: usize,
    score: i32,
    pv: Vec<Move>,
}

impl<'a> Shared<'a> {
    pub fn new(
        root: &'a Position,
        tt: &'a TranspositionTable,
        signals: &'a Signals,
        limits: &'a Limits,
        options: &'a Options,
        root_moves: Vec<Move>,
        threads: usize,
    ) -> Shared<'a> {
        debug_assert!(!root_moves.is_empty());
        let multipv = options.multipv.clamp(1, root_moves.len());
        Shared {
            root,
            tt,
            signals,
            limits,
            options,
            target_depth: limits
                .depth
                .filter(|_| multipv == 1 && !limits.main_thread_depth),
            multipv,
            root_moves,
            start: Instant::now(),
            counters: (0..threads).map(|_| Counter::default()).collect(),
            crumbs: (threads > 1).then(Breadcrumbs::default),
            deepest_completed: AtomicI32::new(0),
            answer: Mutex::new(None),
            answered: AtomicBool::new(false),
        }
    }

    /// Thread `thread` has searched `nodes` nodes.
    pub fn publish_nodes(&self, thread: usize, nodes: u64) {
        self.counters[thread].0.store(nodes, Ordering::Relaxed);
    }

    /// Every thread's nodes, as last published.
    pub fn total_nodes(&self) -> u64 {
        self.counters
            .iter()
            .map(|c| c.0.load(Ordering::Relaxed))
            .sum()
    }

    pub fn deepest_completed(&self) -> i32 {
        self.deepest_completed.load(Ordering::Relaxed)
    }

    /// A thread has completed the iteration of `depth`.
    pub fn record_completed(&self, depth: i32) {
        self.deepest_completed.fetch_max(depth, Ordering::Relaxed);
    }

    /// Is the search over for every thread: told to stop (by the protocol, or by the main
    /// thread's clock or node limit), or answered by a helper?
    pub fn over(&self) -> bool {
        self.signals.stop.load(Ordering::Relaxed) || self.answered.load(Ordering::Relaxed)
    }

    /// A helper has completed the target depth: the first to do so answers.
    fn hand_in(&self, completed: Completed) {
        let mut slot = self.answer.lock().unwrap_or_else(|e| e.into_inner());
        slot.get_or_insert(completed);
        self.answered.store(true, Ordering::Relaxed);
    }

    /// The line a helper handed in, if it is deeper than the main thread's `depth`.
    pub fn answer_deeper_than(&self, depth: i32) -> Option<Completed> {
        let mut slot = self.answer.lock().unwrap_or_else(|e| e.into_inner());
        slot.take().filter(|completed| completed.depth > depth)
    }

    /// The line that reports `completed`, with the search's counts so far (the caller has
    /// published its own). A PV cut short by a hash cut-off still gets a ponder move from the
    /// table.
    pub fn line(&self, completed: Completed) -> Line {
        let mut pv = completed.pv;
        if pv.len() == 1 {
            let mut after = self.root.clone();
            after.make_move(pv[0]);
            if let Some(reply) = self.tt.probe(after.hash()).and_then(|h| h.mv) {
                if after.is_legal(reply) {
                    pv.push(reply);
                }
            }
        }
        Line {
            depth: completed.depth,
            seldepth: completed.seldepth,
            multipv: completed.multipv,
            score: completed.score,
            nodes: self.total_nodes(),
            time: self.start.elapsed(),
            hashfull: self.tt.hashfull(),
            pv,
        }
    }
}

/// What sets a thread apart from the others.
pub(super) enum Role {
    /// Thread 0: searches every depth in turn, each line with an aspiration window around the
    /// last score, as many lines as MultiPV asks; reports each line; keeps the clock and the
    /// node limit, and decides when the search ends.
    Main {
        timer: TimeManager,
        /// The clock was seen paused for pondering; it starts again at the ponder hit.
        pondering_seen: bool,
    },
    /// Threads 1 and up (Lazy SMP): one line with an aspiration window around the helper's own
    /// last completed score (the full window until it has one), which shortens the main
    /// thread's time to depth more than the full window does. Odd ones a ply ahead of the
    /// deepest completed iteration, even ones level with the main thread's next, so threads
    /// spread over depths; an iteration another thread has completed is abandoned.
    Helper { ahead: i32 },
}

impl Role {
    pub fn for_thread(thread: usize, limits: &Limits, options: &Options) -> Role {
        if thread == 0 {
            Role::Main {
                timer: TimeManager::new(limits, options.move_overhead_ms),
                pondering_seen: false,
            }
        } else {
            Role::Helper {
                ahead: (thread % 2) as i32,
            }
        }
    }

    pub fn is_main(&self) -> bool {
        matches!(self, Role::Main { .. })
    }

    /// The node count at which the search stops: only the main thread keeps the limit.
    pub fn node_limit(&self, limits: &Limits) -> u64 {
        match self {
            Role::Main { .. } => limits.nodes.unwrap_or(u64::MAX),
            Role::Helper { .. } => u64::MAX,
        }
    }

    fn first_depth(&self) -> i32 {
        match self {
            Role::Main { .. } => 1,
            Role::Helper { ahead } => 1 + ahead,
        }
    }

    /// The deepest iteration the thread may start: the depth limit's for the main thread;
    /// helpers search on past it until the main thread ends the search.
    fn last_depth(&self, limits: &Limits) -> i32 {
        let deepest = MAX_PLY as i32 - 1;
        match self {
            Role::Main { .. } => limits.depth.unwrap_or(deepest).clamp(1, deepest),
            Role::Helper { .. } => deepest,
        }
    }

    /// The iteration after `depth`, given the deepest any thread has completed.
    fn next_depth(&self, depth: i32, deepest_completed: i32) -> i32 {
        match self {
            Role::Main { .. } => depth + 1,
            Role::Helper { ahead } => (depth + 1).max(deepest_completed + 1 + ahead),
        }
    }

    /// Has the hard time limit passed? While pondering the clock is not ours; it starts when
    /// the ponder hit arrives. Helpers leave the clock to the main thread.
    pub fn out_of_time(&mut self, signals: &Signals) -> bool {
        let Role::Main {
            timer,
            pondering_seen,
        } = self
        else {
            return false;
        };
        if signals.pondering.load(Ordering::Relaxed) {
            *pondering_seen = true;
            return false;
        }
        if *pondering_seen {
            *pondering_seen = false;
            timer.restart();
        }
        timer.hard_expired()
    }

    /// Is it too late on the main thread's clock to start another iteration?
    fn next_iteration_too_late(&mut self, signals: &Signals) -> bool {
        let too_late = match self {
            Role::Main { timer, .. } => timer.next_iteration_too_late(),
            Role::Helper { .. } => return false,
        };
        too_late || self.out_of_time(signals)
    }
}

/// Iterative deepening, the one loop every thread runs: root searches ever deeper until the
/// search is over. The main thread reports each iteration's completed lines to `report`, best
/// first, and returns the search's answer; a helper hands in its line of the target depth when it completes that depth
/// (what it returns is of no use).
pub(super) fn iterative_deepening(
    worker: &mut Worker,
    report: &mut dyn FnMut(&Line),
) -> SearchResult {
    let shared = worker.shared;
    let main = worker.role.is_main();
    let mut result = SearchResult {
        best: Some(shared.root_moves[0]),
        ..SearchResult::default()
    };
    let mut previous_score = 0;
    // A helper's window centres on its own last completed score; none yet, the full window
    // (not one around 0: a helper overtaken before completing any depth has no guess).
    let mut helper_score = None;
    // For the clock: how many iterations in a row ended on the same best move.
    let mut unchanged_iterations = 0;
    let line_count = if main { shared.multipv } else { 1 };
    let mut depth = worker.role.first_depth();
    while depth <= worker.role.last_depth(shared.limits) {
        // However soon a stop or a limit comes (`go nodes 0`, a `stop` right behind the
        // `go`), the main thread searches depth 1 to its end, so the move played has been
        // searched and reported. It takes a few hundred nodes at most.
        worker.unstoppable = main && depth == 1;
        let mut lines: Vec<Line> = Vec::new();
        for index in 0..line_count {
            worker.root_excluded.clone_from(&shared.options.banned);
            worker.root_excluded.extend(lines.iter().map(|l| l.pv[0]));
            let guess = if main {
                (index == 0).then_some(previous_score)
            } else {
                helper_score
            };
            let score = aspiration(worker, depth, guess);
            if worker.stopped {
                break;
            }
            let pv = worker.root_pv();
            if pv.is_empty() {
                break; // every move failed low without a PV; keep the last iteration
            }
            if index == 0 {
                shared.record_completed(depth);
            }
            let completed = Completed {
                depth,
                seldepth: worker.seldepth,
                multipv: index + 1,
                score,
                pv,
            };
            if main {
                worker.publish_nodes();
                lines.push(shared.line(completed));
            } else {
                helper_score = Some(score);
                if shared.target_depth == Some(depth) {
                    shared.hand_in(completed);
                }
            }
        }
        // A line searched without the better ones can score above them (its search saw
        // other cutoffs): best first, as GUIs show the lines in the order given.
        lines.sort_by_key(|line| std::cmp::Reverse(line.score));
        for (index, line) in lines.iter_mut().enumerate() {
            line.multipv = index + 1;
            report(line);
        }
        if let Some(first) = lines.first().filter(|_| !worker.stopped) {
            if result.best == Some(first.pv[0]) {
                unchanged_iterations += 1;
            } else {
                unchanged_iterations = 0;
            }
            if let Role::Main { timer, .. } = &mut worker.role {
                if depth > 1 {
                    timer.set_effort(unchanged_iterations, previous_score - first.score);
                }
            }
            previous_score = first.score;
            result.answer_with(first);
        }
        if shared.over() {
            break;
        }
        // Stopped, yet the search goes on: a helper overtaken (another thread completed this
        // depth first). On to a deeper one.
        worker.stopped = false;
        if main {
            let pondering = shared.signals.pondering.load(Ordering::Relaxed);
            if !pondering && worker.role.next_iteration_too_late(shared.signals) {
                break;
            }
            if mate_settled(&result, depth, shared.limits, pondering) {
                break;
            }
        }
        depth = worker.role.next_depth(depth, shared.deepest_completed());
    }
    result
}

/// Has the main thread's answer after the iteration of `depth` settled the search by its score?
fn mate_settled(result: &SearchResult, depth: i32, limits: &Limits, pondering: bool) -> bool {
    // `go mate N`: a completed iteration proved a mate in N or fewer.
    if let Some(moves) = limits.mate {
        let proved =
            matches!(describe(result.score), ScoreText::Mate(m) if (1..=moves).contains(&m));
        return result.depth == depth && proved;
    }
    // A forced mate is settled once the depth is well past its length. Not sooner: reductions
    // and pruning can hide a shorter mate from depths just beyond it. Nor under `go mate N`,
    // which asked for a mate no longer than N: searching on finds it.
    is_mate(result.score) && 2 * mate_plies(result.score) <= depth && !limits.infinite && !pondering
}

/// Searches the root to `depth`: with a narrow window around `guess` (the last score), widened
/// on failure, or with the full window when there is no guess.
fn aspiration(worker: &mut Worker, depth: i32, guess: Option<i32>) -> i32 {
    let mut delta = params::aspiration_delta();
    let (mut alpha, mut beta) = match guess {
        Some(guess) if depth >= params::aspiration_min_depth() && !is_mate(guess) => {
            (guess - delta, guess + delta)
        }
        _ => (-INFINITE, INFINITE),
    };
    loop {
        let score = worker.search_root(alpha, beta, depth);
        if worker.stopped {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;

    /// A depth limit is the helpers' target (the first thread to complete it answers) unless
    /// the limits ask for the main thread's completion, or MultiPV asks for more than one line.
    #[test]
    fn a_depth_limit_is_a_helpers_target_unless_the_main_thread_must_reach_it() {
        let pos = Position::startpos();
        let tt = TranspositionTable::new(1);
        let signals = Signals::default();
        let root_moves: Vec<Move> = legal_moves(&pos).iter().copied().collect();
        let target = |limits: &Limits, multipv: usize| {
            let options = Options {
                multipv,
                ..Options::default()
            };
            Shared::new(&pos, &tt, &signals, limits, &options, root_moves.clone(), 2).target_depth
        };
        let first = Limits::depth(7);
        let main = Limits {
            main_thread_depth: true,
            ..Limits::depth(7)
        };
        assert_eq!(target(&first, 1), Some(7));
        assert_eq!(target(&main, 1), None);
        assert_eq!(target(&first, 2), None);
        assert_eq!(target(&Limits::default(), 1), None);
    }
}
