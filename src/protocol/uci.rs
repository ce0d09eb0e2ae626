//! UCI commands, Pikafish style: ICCS moves with ranks 0-9, or 1-10 once the GUI has set
//! `UCI_Variant` (the convention of multi-variant GUIs and the cutechess xiangqi fork).

use super::engine::{ban_all_but, parse_moves, Engine};
use super::options::{find_uci, EngineOption, OPTIONS};
use super::{number, Flow};
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
        "go" => go(engine, args)?,
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
    for line in OPTIONS.iter().filter_map(EngineOption::uci_line) {
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

fn go(engine: &mut Engine, args: &str) -> Result<(), String> {
    let tokens: Vec<&str> = args.split_whitespace().collect();
    let mut limits = Limits::default();
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0, 0);
    let mut ponder = false;
    let mut search_moves = None;
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        let value = tokens.get(i + 1);
        i += 2;
        match key {
            "wtime" => wtime = Some(number::<i64>("go", key, value)?.max(0) as u64),
            "btime" => btime = Some(number::<i64>("go", key, value)?.max(0) as u64),
            "winc" => winc = number::<i64>("go", key, value)?.max(0) as u64,
            "binc" => binc = number::<i64>("go", key, value)?.max(0) as u64,
            "movestogo" => limits.movestogo = Some(number("go", key, value)?),
            "movetime" => limits.movetime = Some(number("go", key, value)?),
            "depth" => limits.depth = Some(number("go", key, value)?),
            "nodes" => limits.nodes = Some(number("go", key, value)?),
            "mate" => {
                let moves: i32 = number("go", key, value)?;
                if !(1..=MAX_PLY as i32 / 2).contains(&moves) {
                    return Err(format!(
                        "go mate takes 1 to {} moves, not {moves}",
                        MAX_PLY / 2
                    ));
                }
                limits.mate = Some(moves);
            }
            "infinite" => {
                limits.infinite = true;
                i -= 1;
            }
            "ponder" => {
                ponder = true;
                i -= 1;
            }
            "searchmoves" => {
                let moves = parse_moves(&engine.pos, &tokens[i - 1..], engine.move_base())?;
                search_moves = Some(moves);
                i = tokens.len();
            }
            _ => return Err(format!("go: unknown parameter '{key}'")),
        }
    }
    let (time, inc) = match engine.pos.side_to_move() {
        Color::Red => (wtime, winc),
        Color::Black => (btime, binc),
    };
    limits.time = time;
    limits.inc = inc;
    engine.stop();
    if let Some(moves) = search_moves {
        engine.options.banned = ban_all_but(&engine.pos, &moves);
    } else {
        engine.options.banned.clear();
    }
    engine.go(limits, ponder);
    Ok(())
}
