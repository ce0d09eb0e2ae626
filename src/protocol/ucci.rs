//! UCCI commands, ElephantEye style: `ucciok`, `setoption <name> <value>`, `banmoves`,
//! `go [ponder|draw] time T increment I opptime ...`, `probe`, and `quit` answered with `bye`.
//! Times are seconds, as UCCI defines them, unless the GUI sends `setoption usemillisec true`
//! (which it may because Chariot advertises the option); then they are milliseconds.

use super::engine::{parse_moves, parse_position, Engine};
use super::options::{find_ucci, EngineOption, OPTIONS, UCCI_IGNORED};
use super::{number, Flow};
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
        "go" => go(engine, args)?,
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

fn go(engine: &mut Engine, args: &str) -> Result<(), String> {
    let (limits, ponder) = parse_go(args, engine.ucci_millis)?;
    engine.go(limits, ponder);
    Ok(())
}

/// Reads `go`'s parameters into search limits (times in milliseconds) and the ponder flag.
fn parse_go(args: &str, millis: bool) -> Result<(Limits, bool), String> {
    let tokens: Vec<&str> = args.split_whitespace().collect();
    let mut limits = Limits::default();
    let mut ponder = false;
    let unit = if millis { 1 } else { 1000 };
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        let value = tokens.get(i + 1);
        match key {
            "ponder" => ponder = true,
            "draw" => {} // a draw offer: Chariot plays on
            "infinite" => limits.infinite = true,
            _ => {
                i += 1;
                match key {
                    "time" => {
                        limits.time = Some(number::<u64>("go", key, value)?.saturating_mul(unit))
                    }
                    "increment" => {
                        limits.inc = number::<u64>("go", key, value)?.saturating_mul(unit)
                    }
                    "movestogo" => limits.movestogo = Some(number("go", key, value)?),
                    "depth" => limits.depth = Some(number("go", key, value)?),
                    "nodes" => limits.nodes = Some(number("go", key, value)?),
                    // The opponent's clock does not change how Chariot spends its own.
                    "opptime" | "oppmovestogo" | "oppincrement" => {
                        number::<u64>("go", key, value)?;
                    }
                    _ => return Err(format!("go: unknown parameter '{key}'")),
                }
            }
        }
        i += 1;
    }
    Ok((limits, ponder))
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
        let (limits, ponder) = parse_go("time 300 increment 2 opptime 300", false).unwrap();
        assert_eq!(
            (limits.time, limits.inc, ponder),
            (Some(300_000), 2_000, false)
        );
        let (limits, ponder) = parse_go("ponder time 300 increment 2", true).unwrap();
        assert_eq!((limits.time, limits.inc, ponder), (Some(300), 2, true));
    }

    #[test]
    fn go_rejects_bad_parameters() {
        assert!(parse_go("time soon", false).is_err());
        assert!(parse_go("time", false).is_err());
        assert!(parse_go("hurry 3", false).is_err());
        let (limits, _) = parse_go("draw depth 5 nodes 1000", false).unwrap();
        assert_eq!((limits.depth, limits.nodes), (Some(5), Some(1000)));
    }
}
