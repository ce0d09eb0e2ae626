//! UCI commands, Pikafish style: ICCS moves with ranks 0-9, or 1-10 once the GUI has set
//! `UCI_Variant` (the convention of multi-variant GUIs and the cutechess xiangqi fork).

use super::engine::{ban_all_but, Engine};
use super::options::{find_uci, uci_options, EngineOption};
use super::{start_go, Flow, GoWords};
use crate::board::notation::parse_move;
use crate::board::types::Color;
use crate::search::score::MAX_PLY;
use crate::search::Limits;

/// Handles one line; an error leaves the engine as it was.
pub(super) fn handle(engine: &mut Engine, line: &str) -> Result<Flow, String> {
    let (command, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let args = args.trim();
    match command {
        "uci" => print_identity(engine),
        "isready" => engine.out.line("readyok"),
        "ucinewgame" => engine.clear_hash(),
        "setoption" => set_option(engine, args)?,
        "position" => engine.set_position(args)?,
        "go" => go(engine, args),
        "stop" => engine.stop(),
        "ponderhit" => engine.ponderhit(),
        "d" => engine.out.line(&engine.describe()),
        "quit" => return Ok(Flow::Quit),
        _ => return Err(format!("unknown command '{command}'")),
    }
    Ok(Flow::Continue)
}

fn print_identity(engine: &Engine) {
    let out = &engine.out;
    out.line(&format!("id name Chariot {}", env!("CARGO_PKG_VERSION")));
    out.line("id author the Chariot developers");
    for line in uci_options().filter_map(EngineOption::uci_line) {
        out.line(&line);
    }
    out.line("uciok");
}

/// `setoption name <name> [value <value>]`; names may hold spaces (`Clear Hash`).
fn set_option(engine: &mut Engine, args: &str) -> Result<(), String> {
    let usage = "setoption: expected 'name <option> [value <v>]'";
    let mut words = args.split_whitespace();
    if words.next() != Some("name") {
        return Err(usage.to_string());
    }
    let words: Vec<&str> = words.collect();
    let (name, value) = match words.iter().position(|&w| w == "value") {
        Some(i) => (words[..i].join(" "), Some(words[i + 1..].join(" "))),
        None => (words.join(" "), None),
    };
    if name.is_empty() {
        return Err(usage.to_string());
    }
    let option = find_uci(&name).ok_or_else(|| format!("setoption: unknown option '{name}'"))?;
    let value = option.parse(&name, value.as_deref())?;
    engine.apply(option.setting, value)
}

/// Every word `go` takes, the parameters and the flags.
const GO_NAMES: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// `go`, never refused (see `start_go`): a bad parameter, or a `searchmoves` move that is not
/// legal, is reported and left out.
fn go(engine: &mut Engine, args: &str) {
    let mut words = GoWords::new(args, GO_NAMES);
    let mut limits = Limits::default();
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0, 0);
    let mut ponder = false;
    let mut search_moves = Vec::new();
    let mut errors = Vec::new();
    // A clock may be sent negative once it has run out.
    let clock = |ms: i64| ms.max(0) as u64;
    while let Some(name) = words.next_name() {
        let read = match name {
            "wtime" => words.number(name).map(|ms| wtime = Some(clock(ms))),
            "btime" => words.number(name).map(|ms| btime = Some(clock(ms))),
            "winc" => words.number(name).map(|ms| winc = clock(ms)),
            "binc" => words.number(name).map(|ms| binc = clock(ms)),
            "movestogo" => words.number(name).map(|n| limits.movestogo = Some(n)),
            "movetime" => words.number(name).map(|ms| limits.movetime = Some(ms)),
            "depth" => words.number(name).map(|d| limits.depth = Some(d)),
            "nodes" => words.number(name).map(|n| limits.nodes = Some(n)),
            "mate" => words.number(name).and_then(|moves: i32| {
                if (1..=MAX_PLY as i32 / 2).contains(&moves) {
                    limits.mate = Some(moves);
                    Ok(())
                } else {
                    Err(format!(
                        "go mate takes 1 to {} moves, not {moves}",
                        MAX_PLY / 2
                    ))
                }
            }),
            "infinite" => {
                limits.infinite = true;
                Ok(())
            }
            "ponder" => {
                ponder = true;
                Ok(())
            }
            "searchmoves" => {
                while let Some(text) = words.value() {
                    match parse_move(&engine.pos, text, engine.move_base()) {
                        Ok(mv) => search_moves.push(mv),
                        Err(e) => errors.push(format!("go searchmoves: {e}")),
                    }
                }
                Ok(())
            }
            _ => Err(words.unknown(name)),
        };
        if let Err(e) = read {
            errors.push(e);
        }
    }
    let (time, inc) = match engine.pos.side_to_move() {
        Color::Red => (wtime, winc),
        Color::Black => (btime, binc),
    };
    limits.time = time;
    limits.inc = inc;
    engine.stop();
    // No legal move among them: the search is not restricted.
    engine.options.banned = if search_moves.is_empty() {
        Vec::new()
    } else {
        ban_all_but(&engine.pos, &search_moves)
    };
    start_go(engine, limits, ponder, &errors);
}
