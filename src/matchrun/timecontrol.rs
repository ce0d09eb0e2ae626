//! Time controls and the clocks the runner keeps for each side. The runner measures every
//! move itself (from sending `go` to reading `bestmove`); a clock that runs out loses.

use std::time::Duration;

/// A game clock: `base` for each period of `moves` moves (or the whole game), plus `inc`
/// after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub base_ms: u64,
    pub inc_ms: u64,
    pub moves: Option<u32>,
}

/// What an engine is told to search for each move; at least one limit is set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveLimits {
    pub clock: Option<Clock>,
    pub movetime_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

fn seconds_to_ms(text: &str, what: &str) -> Result<u64, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{what}: '{text}' is not a number of seconds"))?;
    if !(secs.is_finite() && secs >= 0.0) {
        return Err(format!(
            "{what}: '{text}' must be a non-negative number of seconds"
        ));
    }
    Ok((secs * 1000.0).round() as u64)
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{what}: '{text}' is not a number"))
}

/// Zero depth, nodes or move time would make every move a forfeit or a blunder: refused.
fn positive<T: Default + PartialEq>(value: T, what: &str) -> Result<T, String> {
    if value == T::default() {
        return Err(format!("{what} must be positive"));
    }
    Ok(value)
}

/// Parses `[moves/]base[+inc]` in seconds: `10+0.1`, `40/60+0`, `60`.
pub fn parse_clock(text: &str) -> Result<Clock, String> {
    let (moves, rest) = match text.split_once('/') {
        Some((m, rest)) => {
            let n: u32 = m
                .parse()
                .map_err(|_| format!("time control '{text}': '{m}' is not a move count"))?;
            if n == 0 {
                return Err(format!(
                    "time control '{text}': moves per period must be positive"
                ));
            }
            (Some(n), rest)
        }
        None => (None, text),
    };
    let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
    let clock = Clock {
        base_ms: seconds_to_ms(base, "time control base")?,
        inc_ms: seconds_to_ms(inc, "time control increment")?,
        moves,
    };
    if clock.base_ms == 0 && clock.inc_ms == 0 {
        return Err(format!("time control '{text}' gives no time at all"));
    }
    Ok(clock)
}

impl MoveLimits {
    /// Sets one limit from a `key=value` setting (`tc`, `st` seconds per move, `depth`,
    /// `nodes`); returns false for keys that are not limits.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        match key {
            "tc" => self.clock = Some(parse_clock(value)?),
            "st" => self.movetime_ms = Some(positive(seconds_to_ms(value, "st")?, "st")?),
            "depth" => self.depth = Some(positive(number(value, "depth")?, "depth")?),
            "nodes" => self.nodes = Some(positive(number(value, "nodes")?, "nodes")?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Fills limits this engine did not set from the match-wide ones.
    pub fn or(self, defaults: MoveLimits) -> MoveLimits {
        MoveLimits {
            clock: self.clock.or(defaults.clock),
            movetime_ms: self.movetime_ms.or(defaults.movetime_ms),
            depth: self.depth.or(defaults.depth),
            nodes: self.nodes.or(defaults.nodes),
        }
    }

    pub fn check(&self) -> Result<(), String> {
        if self.clock.is_none()
            && self.movetime_ms.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
        {
            return Err(
                "no time control: give --tc, --st, --depth or --nodes (or tc=/st=/depth=/nodes= per engine)".into()
            );
        }
        if self.clock.is_some() && self.movetime_ms.is_some() {
            return Err("a clock (tc) and a fixed time per move (st) cannot be combined".into());
        }
        Ok(())
    }

    /// A short description for the PGN `TimeControl` tag and the summary.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(c) = self.clock {
            let secs = |ms: u64| format!("{}", ms as f64 / 1000.0);
            let moves = c.moves.map(|m| format!("{m}/")).unwrap_or_default();
            parts.push(format!("{moves}{}+{}", secs(c.base_ms), secs(c.inc_ms)));
        }
        if let Some(ms) = self.movetime_ms {
            parts.push(format!("st={}", ms as f64 / 1000.0));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        parts.join(" ")
    }
}

/// The limits every engine gets unless it sets its own (`--tc`, `--st`, `--depth`, `--nodes`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct LimitArgs {
    /// Clock for every engine, in seconds: base+increment (`10+0.1`) or moves/base+inc (`40/60+0`).
    #[arg(long)]
    pub tc: Option<String>,
    /// Fixed time per move, in seconds.
    #[arg(long)]
    pub st: Option<String>,
    /// Fixed search depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed node count per move.
    #[arg(long)]
    pub nodes: Option<u64>,
}

impl LimitArgs {
    /// The limits given, checked one by one (not yet against each other: see
    /// [`MoveLimits::check`]).
    pub fn limits(&self) -> Result<MoveLimits, String> {
        let mut limits = MoveLimits::default();
        if let Some(tc) = &self.tc {
            limits.set("tc", tc)?;
        }
        let others = [
            ("st", self.st.clone()),
            ("depth", self.depth.map(|d| d.to_string())),
            ("nodes", self.nodes.map(|n| n.to_string())),
        ];
        for (key, value) in others {
            if let Some(value) = value {
                limits.set(key, &value).map_err(|e| format!("--{e}"))?;
            }
        }
        Ok(limits)
    }
}

/// The margin a fixed move time gets when `--timemargin` is not given: answering, the pipe
/// and a busy machine cost a few milliseconds that no engine can plan for, and without a
/// margin an engine that spends its whole move time loses every game on time. Engines are
/// not told about the margin, so a generous one costs fairness nothing.
pub fn default_movetime_margin(movetime_ms: u64) -> Duration {
    Duration::from_millis((movetime_ms / 5).max(200))
}

/// What a UCCI engine is told for a fixed-time move (`go time T movestogo 1`): UCCI has no
/// `movetime`, and engines such as ElephantEye plan to spend all of T, so a tenth of the
/// move time (at most 100 ms) is kept back for answering.
pub fn ucci_movetime_budget(movetime_ms: u64) -> u64 {
    movetime_ms - (movetime_ms / 10).min(100)
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug)]
pub struct ClockState {
    pub remaining_ms: u64,
    /// Moves left in the current period, for `moves/base` controls.
    pub moves_to_go: Option<u32>,
}

impl ClockState {
    pub fn new(clock: &Clock) -> ClockState {
        ClockState {
            remaining_ms: clock.base_ms,
            moves_to_go: clock.moves,
        }
    }
}

/// How long the runner waits for a move before the side loses: its clock or fixed move
/// time plus the margin, or `hang` when the engine searches to a depth or node count.
pub fn move_deadline(
    limits: &MoveLimits,
    clock: Option<&ClockState>,
    margin: Duration,
    hang: Duration,
) -> Duration {
    if let Some(state) = clock {
        Duration::from_millis(state.remaining_ms) + margin
    } else if let Some(ms) = limits.movetime_ms {
        Duration::from_millis(ms) + margin
    } else {
        hang
    }
}

/// Charges a move's time to the clock; returns false when the flag fell.
pub fn charge(clock: &Clock, state: &mut ClockState, elapsed: Duration, margin: Duration) -> bool {
    let used = elapsed.as_millis() as u64;
    if elapsed > Duration::from_millis(state.remaining_ms) + margin {
        state.remaining_ms = 0;
        return false;
    }
    state.remaining_ms = state.remaining_ms.saturating_sub(used) + clock.inc_ms;
    if let Some(left) = state.moves_to_go.as_mut() {
        *left -= 1;
        if *left == 0 {
            *left = clock.moves.unwrap_or(1);
            state.remaining_ms += clock.base_ms;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_limits_are_refused() {
        let mut limits = MoveLimits::default();
        for (key, value) in [
            ("depth", "0"),
            ("nodes", "0"),
            ("st", "0"),
            ("st", "0.0001"),
        ] {
            let err = limits.set(key, value).unwrap_err();
            assert_eq!(err, format!("{key} must be positive"));
        }
        assert_eq!(limits.set("depth", "3"), Ok(true));
        assert_eq!(limits.depth, Some(3));
    }

    #[test]
    fn fixed_move_times_get_a_margin_and_ucci_a_budget() {
        assert_eq!(default_movetime_margin(500), Duration::from_millis(200));
        assert_eq!(default_movetime_margin(5000), Duration::from_millis(1000));
        assert_eq!(ucci_movetime_budget(500), 450);
        assert_eq!(ucci_movetime_budget(5000), 4900);
        assert_eq!(ucci_movetime_budget(1), 1);
    }

    #[test]
    fn parses_clock_forms() {
        assert_eq!(
            parse_clock("10+0.1"),
            Ok(Clock {
                base_ms: 10_000,
                inc_ms: 100,
                moves: None
            })
        );
        assert_eq!(
            parse_clock("40/60+0"),
            Ok(Clock {
                base_ms: 60_000,
                inc_ms: 0,
                moves: Some(40)
            })
        );
        assert_eq!(
            parse_clock("1"),
            Ok(Clock {
                base_ms: 1000,
                inc_ms: 0,
                moves: None
            })
        );
        assert!(parse_clock("x+1").is_err());
        assert!(parse_clock("0/10").is_err());
        assert!(parse_clock("0+0").is_err());
        assert!(parse_clock("-5+1").is_err());
    }

    #[test]
    fn clock_runs_down_adds_increment_and_refills_periods() {
        let clock = parse_clock("2/1+0.1").unwrap();
        let mut state = ClockState::new(&clock);
        let margin = Duration::ZERO;
        assert!(charge(
            &clock,
            &mut state,
            Duration::from_millis(300),
            margin
        ));
        assert_eq!(state.remaining_ms, 800);
        assert_eq!(state.moves_to_go, Some(1));
        // Second move ends the period: the base is added again.
        assert!(charge(
            &clock,
            &mut state,
            Duration::from_millis(400),
            margin
        ));
        assert_eq!(state.remaining_ms, 1500);
        assert_eq!(state.moves_to_go, Some(2));
        assert!(!charge(
            &clock,
            &mut state,
            Duration::from_millis(1501),
            margin
        ));
    }

    #[test]
    fn margin_forgives_a_small_overrun() {
        let clock = parse_clock("1+0").unwrap();
        let mut state = ClockState::new(&clock);
        assert!(charge(
            &clock,
            &mut state,
            Duration::from_millis(1040),
            Duration::from_millis(50)
        ));
        assert_eq!(state.remaining_ms, 0);
    }

    #[test]
    fn limits_need_something_and_merge() {
        assert!(MoveLimits::default().check().is_err());
        let mut own = MoveLimits::default();
        assert_eq!(own.set("depth", "3"), Ok(true));
        assert_eq!(own.set("hash", "3"), Ok(false));
        let mut global = MoveLimits::default();
        global.set("tc", "5+0.05").unwrap();
        global.set("depth", "9").unwrap();
        let merged = own.or(global);
        assert_eq!(merged.depth, Some(3));
        assert!(merged.clock.is_some());
        assert_eq!(merged.describe(), "5+0.05 depth=3");
        let mut both = merged;
        both.set("st", "1").unwrap();
        assert!(both.check().is_err());
    }
}
