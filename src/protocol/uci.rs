//! UCI commands, Pikafish style: ICCS moves with ranks 0-9, or 1-10 once the GUI has set
//! `UCI_Variant` (the convention of multi-variant GUIs and the cutechess xiangqi fork).

use super::engine::{ban_all_but, parse_moves, Engine};
use super::{error, number};
use crate::board::notation::RankBase;
use crate::board::types::Color;
use crate::search::score::MAX_PLY;
use crate::search::tt::TranspositionTable;
use crate::search::Limits;

const MAX_HASH_MB: usize = 1 << 16;
const MAX_THREADS: usize = 256;
const MAX_MULTIPV: usize = 128;

/// Handles one line; false means quit.
pub fn handle(engine: &mut Engine, line: &str) -> bool {
    let (command, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let args = args.trim();
    let outcome = match command {
        "uci" => {
            print_identity();
            Ok(())
        }
        "isready" => {
            println!("readyok");
            Ok(())
        }
        "ucinewgame" => {
            engine.clear_hash();
            Ok(())
        }
        "setoption" => set_option(engine, args),
        "position" => engine.set_position(args),
        "go" => go(engine, args),
        "stop" => {
            engine.stop();
            Ok(())
        }
        "ponderhit" => {
            engine.ponderhit();
            Ok(())
        }
        "d" => {
            print!("{}", engine.describe());
            Ok(())
        }
        "quit" => return false,
        _ => Err(format!("unknown command '{command}'")),
    };
    if let Err(message) = outcome {
        error(&message);
    }
    true
}

fn print_identity() {
    println!("id name Chariot {}", env!("CARGO_PKG_VERSION"));
    println!("id author the Chariot developers");
    println!(
        "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
        TranspositionTable::DEFAULT_MB
    );
    println!("option name Threads type spin default 1 min 1 max {MAX_THREADS}");
    println!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}");
    println!("option name Ponder type check default false");
    println!("option name Clear Hash type button");
    println!("option name Move Overhead type spin default 30 min 0 max 5000");
    println!("option name UCI_Variant type combo default xiangqi var xiangqi");
    println!("uciok");
}

fn set_option(engine: &mut Engine, args: &str) -> Result<(), String> {
    let rest = args
        .strip_prefix("name ")
        .ok_or("setoption: expected 'name <option> [value <v>]'")?;
    let (name, value) = match rest.find(" value ") {
        Some(i) => (rest[..i].trim(), Some(rest[i + " value ".len()..].trim())),
        None => (rest.trim(), None),
    };
    let spin = |min: usize, max: usize| -> Result<usize, String> {
        let text = value.ok_or_else(|| format!("setoption: '{name}' needs a value"))?;
        match text.parse::<usize>() {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            _ => Err(format!(
                "setoption: '{text}' is not a number in {min}..={max} for '{name}'"
            )),
        }
    };
    match name.to_ascii_lowercase().as_str() {
        "hash" => engine.set_hash(spin(1, MAX_HASH_MB)?),
        "threads" => {
            let threads = spin(1, MAX_THREADS)?;
            engine.stop();
            engine.options.threads = threads;
        }
        "multipv" => {
            let multipv = spin(1, MAX_MULTIPV)?;
            engine.stop();
            engine.options.multipv = multipv;
        }
        "move overhead" => {
            let overhead = spin(0, 5000)?;
            engine.stop();
            engine.options.move_overhead_ms = overhead as u64;
        }
        "clear hash" => engine.clear_hash(),
        "ponder" => match value {
            Some("true" | "false") => {}
            _ => return Err("setoption: 'Ponder' takes true or false".to_string()),
        },
        "uci_variant" => match value {
            Some(v) if v.eq_ignore_ascii_case("xiangqi") => engine.base = RankBase::One,
            other => {
                return Err(format!(
                    "setoption: unsupported UCI_Variant '{}'",
                    other.unwrap_or("")
                ))
            }
        },
        _ => return Err(format!("setoption: unknown option '{name}'")),
    }
    Ok(())
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
