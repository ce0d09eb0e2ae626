//! UCCI commands, ElephantEye style: `ucciok`, `setoption <name> <value>`, `banmoves`,
//! `go [ponder|draw] time T increment I opptime ...`, `probe`, and `quit` answered with `bye`.
//! Times are seconds, as UCCI defines them, unless the GUI sends `setoption usemillisec true`
//! (which it may because Chariot advertises the option); then they are milliseconds.

use super::engine::{parse_moves, parse_position, Engine};
use super::options::{find_ucci, EngineOption, OPTIONS, UCCI_IGNORED};
use super::{start_go, Flow, GoWords};
use crate::board::notation::RankBase;
use crate::search::tt::Bound;
use crate::search::Limits;

/// Handles one line; an error leaves the engine as it was.
pub(super) fn handle(engine: &mut Engine, line: &str) -> Result<Flow, String> {
    let (command, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let args = args.trim();
    match command {
        "ucci" => {
            let out = &engine.out;
            out.line(&format!("id name Chariot {}", env!("CARGO_PKG_VERSION")));
            out.line("id author the Chariot developers");
            for line in OPTIONS.iter().filter_map(EngineOption::ucci_line) {
                out.line(&line);
            }
            out.line("ucciok");
        }
        "isready" => engine.out.line("readyok"),
        "setoption" => set_option(engine, args)?,
        "position" => engine.set_position(args)?,
        "banmoves" => {
            let tokens: Vec<&str> = args.split_whitespace().collect();
            engine.options.banned = parse_moves(&engine.pos, &tokens, RankBase::Zero)?;
        }
        "go" => go(engine, args),
        "stop" => engine.stop(),
        "ponderhit" => engine.ponderhit(),
        "probe" => probe(engine, args)?,
        "d" => engine.out.line(&engine.describe()),
        "quit" => {
            engine.stop();
            engine.out.line("bye");
            return Ok(Flow::Quit);
        }
        _ => return Err(format!("unknown command '{command}'")),
    }
    Ok(Flow::Continue)
}

/// `setoption <name> [<value>]`.
fn set_option(engine: &mut Engine, args: &str) -> Result<(), String> {
    let (name, value) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
    if name.is_empty() {
        return Err("setoption: expected '<option> <value>'".to_string());
    }
    if UCCI_IGNORED.iter().any(|n| n.eq_ignore_ascii_case(name)) {
        return Ok(());
    }
    let option = find_ucci(name).ok_or_else(|| format!("setoption: unknown option '{name}'"))?;
    let value = option.parse(name, Some(value))?;
    engine.apply(option.setting, value)
}

/// `go`, never refused (see `start_go`): a bad parameter is reported and left out.
fn go(engine: &mut Engine, args: &str) {
    let (limits, ponder, errors) = parse_go(args, engine.ucci_millis);
    start_go(engine, limits, ponder, &errors);
}

/// Every word `go` takes, the parameters and the flags.
const GO_NAMES: &[&str] = &[
    "ponder",
    "draw",
    "infinite",
    "time",
    "increment",
    "movestogo",
    "depth",
    "nodes",
    "opptime",
    "oppmovestogo",
    "oppincrement",
];

/// Reads `go`'s parameters into search limits (times in milliseconds) and the ponder flag,
/// with an error for each parameter that could not be read.
fn parse_go(args: &str, millis: bool) -> (Limits, bool, Vec<String>) {
    let mut words = GoWords::new(args, GO_NAMES);
    let mut limits = Limits::default();
    let mut ponder = false;
    let mut errors = Vec::new();
    let unit = if millis { 1 } else { 1000 };
    while let Some(name) = words.next_name() {
        let read = match name {
            "ponder" => {
                ponder = true;
                Ok(())
            }
            "draw" => Ok(()), // a draw offer: Chariot plays on
            "infinite" => {
                limits.infinite = true;
                Ok(())
            }
            "time" => words
                .number(name)
                .map(|t: u64| limits.time = Some(t.saturating_mul(unit))),
            "increment" => words
                .number(name)
                .map(|t: u64| limits.inc = t.saturating_mul(unit)),
            "movestogo" => words.number(name).map(|n| limits.movestogo = Some(n)),
            "depth" => words.number(name).map(|d| limits.depth = Some(d)),
            "nodes" => words.number(name).map(|n| limits.nodes = Some(n)),
            // The opponent's clock does not change how Chariot spends its own.
            "opptime" | "oppmovestogo" | "oppincrement" => words.number::<u64>(name).map(|_| ()),
            _ => Err(words.unknown(name)),
        };
        if let Err(e) = read {
            errors.push(e);
        }
    }
    (limits, ponder, errors)
}

/// `probe [fen F | startpos] [moves ...]`: what the hash table knows about a position.
fn probe(engine: &mut Engine, args: &str) -> Result<(), String> {
    let pos = if args.is_empty() {
        engine.pos.clone()
    } else {
        parse_position(args, RankBase::Zero)?
    };
    let mut text = "pophash".to_string();
    if let Some(hit) = engine.tt.probe(pos.hash()) {
        if let Some(mv) = hit.mv.filter(|&mv| pos.is_legal(mv)) {
            text += &format!(" bestmove {mv}");
        }
        let score = super::engine::ucci_score(hit.score);
        if matches!(hit.bound, Bound::Lower | Bound::Exact) {
            text += &format!(" lowerbound {score} depth {}", hit.depth.max(0));
        }
        if matches!(hit.bound, Bound::Upper | Bound::Exact) {
            text += &format!(" upperbound {score} depth {}", hit.depth.max(0));
        }
    }
    engine.out.line(&text);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_go;

    #[test]
    fn go_times_are_seconds_unless_usemillisec() {
        let (limits, ponder, errors) = parse_go("time 300 increment 2 opptime 300", false);
        assert_eq!(
            (limits.time, limits.inc, ponder),
            (Some(300_000), 2_000, false)
        );
        assert!(errors.is_empty());
        let (limits, ponder, _) = parse_go("ponder time 300 increment 2", true);
        assert_eq!((limits.time, limits.inc, ponder), (Some(300), 2, true));
    }

    #[test]
    fn go_reports_bad_parameters_and_keeps_the_rest() {
        for (args, error) in [
            (
                "time soon depth 4",
                "'soon' is not a valid number for 'time'",
            ),
            ("time depth 4", "'time' needs a value"),
            ("hurry 3 depth 4", "unknown parameter 'hurry'"),
        ] {
            let (limits, _, errors) = parse_go(args, false);
            assert_eq!(errors.len(), 1, "{args}: {errors:?}");
            assert!(errors[0].contains(error), "{args}: {errors:?}");
            assert_eq!((limits.time, limits.depth), (None, Some(4)), "{args}");
        }
        let (limits, _, errors) = parse_go("draw depth 5 nodes 1000", false);
        assert_eq!((limits.depth, limits.nodes), (Some(5), Some(1000)));
        assert!(errors.is_empty());
    }
}
