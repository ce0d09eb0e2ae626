//! Time management: turns the clock of `go` into a soft limit (the time a move should take), a
//! point past which no new iteration starts (it would most likely end past the soft limit), and
//! a hard limit (abort the search), keeping `Move Overhead` in reserve for the GUI's lag.

use std::time::{Duration, Instant};

/// What `go` asked for. Times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Remaining time and increment of the side to move.
    pub time: Option<u64>,
    pub inc: u64,
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves or fewer is proved (`go mate N`).
    pub mate: Option<i32>,
    /// Search until `stop` (also what `go ponder` does until `ponderhit`).
    pub infinite: bool,
    /// Under a depth limit, answer when the main thread completes the depth rather than when
    /// the first thread does: only the main thread's iterations answer a timed search, so
    /// this is the time to depth that play sees (`bench --main-thread`).
    pub main_thread_depth: bool,
}

impl Limits {
    pub fn depth(depth: i32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(ms),
            ..Limits::default()
        }
    }
}

/// Without `movestogo`, the clock is shared as if this many moves were left. (With 32 a game
/// of usual length ended with much of the clock unused: 24 measured +12 Elo at 2+0.02, and 20
/// another +25 over 24.)
const MOVES_TO_GO: u32 = 20;

/// The share of the soft limit after which no new iteration starts on a clock.
const NEXT_ITERATION_SHARE: f64 = 0.5;

/// Effort (a factor on the soft limit): this much while the best move has just changed, less
/// by `PER_STABLE_ITERATION` for each iteration it has stood, counting at most `STABLE_CAP`.
const EFFORT_UNSETTLED: f64 = 1.4;
const EFFORT_PER_STABLE_ITERATION: f64 = 0.1;
const EFFORT_STABLE_CAP: u32 = 7;
/// A score `DROP_SCALE` centipawns below the last iteration's doubles the effort, up to
/// `FALLING_MAX` times.
const EFFORT_DROP_SCALE: f64 = 100.0;
const EFFORT_FALLING_MAX: f64 = 1.6;
const EFFORT_MIN: f64 = 0.5;
const EFFORT_MAX: f64 = 2.0;

pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// `go movetime`: the whole time is the user's to spend.
    fixed_movetime: bool,
    /// How much of the soft limit this move deserves (see [`TimeManager::set_effort`]).
    effort: f64,
}

impl TimeManager {
    pub fn new(limits: &Limits, overhead_ms: u64) -> TimeManager {
        let (soft, hard) = if let Some(movetime) = limits.movetime {
            let ms = movetime.saturating_sub(overhead_ms).max(1);
            (ms, ms)
        } else if let Some(time) = limits.time {
            let left = time.saturating_sub(overhead_ms).max(1);
            let moves = limits.movestogo.unwrap_or(MOVES_TO_GO).clamp(1, 64) as u64;
            // The last move before a time control may use most of what is left; otherwise keep
            // a reserve so one slow move can never lose the game.
            let cap = if moves == 1 {
                left * 8 / 10
            } else {
                left * 3 / 10
            };
            // Spending only half the increment lets a low clock build up again: with a fast
            // increment the clock then settles well above the overhead instead of just over it.
            let soft = (left / moves + limits.inc / 2).min(cap).max(1);
            let hard = (soft * 4).min(cap).max(soft);
            (soft, hard)
        } else {
            return TimeManager {
                start: Instant::now(),
                soft: None,
                hard: None,
                fixed_movetime: false,
                effort: 1.0,
            };
        };
        TimeManager {
            start: Instant::now(),
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
            fixed_movetime: limits.movetime.is_some(),
            effort: 1.0,
        }
    }

    /// Scales the clock's soft limit for this move from how settled the search looks: a best
    /// move that keeps changing or a score that falls deserves more time, a best move that has
    /// stood for many iterations less. The hard limit does not move.
    pub fn set_effort(&mut self, unchanged_iterations: u32, score_drop: i32) {
        let stability = (EFFORT_UNSETTLED
            - EFFORT_PER_STABLE_ITERATION * unchanged_iterations.min(EFFORT_STABLE_CAP) as f64)
            .max(0.0);
        let falling = (1.0 + score_drop as f64 / EFFORT_DROP_SCALE).clamp(1.0, EFFORT_FALLING_MAX);
        self.effort = (stability * falling).clamp(EFFORT_MIN, EFFORT_MAX);
    }

    /// The clock starts again (a ponder hit: the move is now ours to think about).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|soft| self.start.elapsed() >= soft)
    }

    /// Is it too late to start another iteration? Each iteration takes about as long as all
    /// before it together, so one started past half the soft limit would end well beyond it,
    /// run on to the hard limit and drain the clock: with a fast increment the clock would then
    /// settle a fraction of a second above zero, where one scheduling stall loses on time.
    /// A fixed `movetime` is spent in full instead: it is the time the user asked for.
    pub fn next_iteration_too_late(&self) -> bool {
        match self.soft {
            Some(soft) if !self.fixed_movetime => {
                self.start.elapsed() >= soft.mul_f64(NEXT_ITERATION_SHARE * self.effort)
            }
            _ => self.soft_expired(),
        }
    }

    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|hard| self.start.elapsed() >= hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_limits_stay_inside_the_clock() {
        let limits = Limits {
            time: Some(10_000),
            inc: 100,
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, 50);
        let (soft, hard) = (tm.soft.unwrap().as_millis(), tm.hard.unwrap().as_millis());
        assert!(soft > 100 && soft <= hard, "soft {soft} hard {hard}");
        assert!(hard <= 4_000, "hard {hard}");
    }

    #[test]
    fn a_clock_without_movestogo_is_shared_over_moves_to_go() {
        let limits = Limits {
            time: Some(24_000),
            inc: 100,
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, 0);
        let expected = 24_000 / MOVES_TO_GO as u128 + 50;
        assert_eq!(tm.soft.unwrap().as_millis(), expected);
    }

    #[test]
    fn tiny_clock_still_leaves_the_overhead() {
        let limits = Limits {
            time: Some(30),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, 50);
        assert_eq!(tm.hard.unwrap().as_millis(), 1);
    }

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let tm = TimeManager::new(&Limits::movetime(1000), 10);
        assert_eq!(tm.soft, Some(Duration::from_millis(990)));
        assert_eq!(tm.hard, tm.soft);
    }

    #[test]
    fn a_clock_stops_starting_iterations_at_half_the_soft_limit() {
        let limits = Limits {
            time: Some(10_000),
            ..Limits::default()
        };
        let mut tm = TimeManager::new(&limits, 0);
        let soft = tm.soft.unwrap();
        tm.start = Instant::now() - soft.mul_f64(0.45);
        assert!(!tm.next_iteration_too_late());
        tm.start = Instant::now() - soft.mul_f64(0.55);
        assert!(tm.next_iteration_too_late() && !tm.soft_expired());
    }

    #[test]
    fn movetime_starts_iterations_until_it_is_spent() {
        let mut tm = TimeManager::new(&Limits::movetime(1000), 0);
        tm.start = Instant::now() - Duration::from_millis(900);
        assert!(!tm.next_iteration_too_late());
        tm.start = Instant::now() - Duration::from_millis(1001);
        assert!(tm.next_iteration_too_late());
    }

    #[test]
    fn an_unsettled_search_gets_more_time_and_a_settled_one_less() {
        let limits = Limits {
            time: Some(10_000),
            ..Limits::default()
        };
        let mut tm = TimeManager::new(&limits, 0);
        let soft = tm.soft.unwrap();
        tm.start = Instant::now() - soft.mul_f64(0.6);
        tm.set_effort(0, 0);
        assert!(
            !tm.next_iteration_too_late(),
            "a new best move keeps searching"
        );
        tm.set_effort(0, 150);
        tm.start = Instant::now() - soft.mul_f64(0.9);
        assert!(
            !tm.next_iteration_too_late(),
            "a falling score keeps searching"
        );
        tm.set_effort(10, 0);
        tm.start = Instant::now() - soft.mul_f64(0.4);
        assert!(
            tm.next_iteration_too_late(),
            "a long-settled move stops early"
        );
        tm.set_effort(10, -500);
        assert!(
            tm.next_iteration_too_late(),
            "a rising score earns no extra time"
        );
    }

    #[test]
    fn effort_leaves_movetime_and_the_hard_limit_alone() {
        let mut tm = TimeManager::new(&Limits::movetime(1000), 0);
        tm.set_effort(10, 0);
        tm.start = Instant::now() - Duration::from_millis(900);
        assert!(!tm.next_iteration_too_late());
        let limits = Limits {
            time: Some(10_000),
            ..Limits::default()
        };
        let mut tm = TimeManager::new(&limits, 0);
        let hard = tm.hard.unwrap();
        tm.set_effort(0, 1000);
        tm.start = Instant::now() - hard;
        assert!(tm.hard_expired());
    }

    #[test]
    fn no_clock_means_no_limit() {
        let tm = TimeManager::new(&Limits::depth(5), 10);
        assert!(!tm.soft_expired() && !tm.hard_expired());
    }
}
