//! `chariot analyse`: searches one position and shows, for a person, how the search deepens
//! (depth, score in pawns, win/draw/loss chances, nodes, time, principal variation) and the
//! move it settles on.

use crate::board::position::Position;
use crate::console::{count, outln};
use crate::notation::Notation;
use crate::search::score::human_score;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Limits, Line, Options, Signals};
use crate::wdl::{wdl, Wdl};

pub const DEFAULT_MOVETIME_MS: u64 = 3000;

pub fn run_analyse(
    pos: &Position,
    movetime: Option<u64>,
    depth: Option<i32>,
    threads: usize,
    notation: Notation,
) -> Result<(), String> {
    let limits = match (movetime, depth) {
        (_, Some(depth)) if !(1..=100).contains(&depth) => {
            return Err(format!("depth must be 1..=100, not {depth}"))
        }
        (Some(ms), None) => Limits::movetime(ms),
        (None, Some(depth)) => Limits::depth(depth),
        (None, None) => Limits::movetime(DEFAULT_MOVETIME_MS),
        (Some(_), Some(_)) => return Err("give --movetime or --depth, not both".to_string()),
    };
    outln!("{pos}");
    outln!("FEN: {}", pos.to_fen());
    outln!(
        "{:>5} {:>8} {:>13} {:>12} {:>8}  line",
        "depth",
        "score",
        "W/D/L ‰",
        "nodes",
        "time"
    );
    let tt = TranspositionTable::new(64);
    let options = Options {
        threads,
        move_overhead_ms: 0,
        ..Options::default()
    };
    let mut show = |line: &Line| {
        let pv = notation.format_line(pos, &line.pv);
        outln!(
            "{:>2}/{:<2} {:>8} {:>13} {:>12} {:>7.2}s  {}",
            line.depth,
            line.seldepth,
            human_score(line.score),
            wdl_text(wdl(line.score, pos)),
            line.nodes,
            line.time.as_secs_f64(),
            pv.join(" ")
        );
    };
    let mut memory = search::Memory::default();
    let result = search::search(
        pos,
        &tt,
        &mut memory,
        &limits,
        &options,
        &Signals::default(),
        &mut show,
    );
    match result.best {
        None => outln!("no legal move: the side to move has lost"),
        Some(best) => {
            let line: Vec<_> = [Some(best), result.ponder].into_iter().flatten().collect();
            let texts = notation.format_line(pos, &line);
            let ponder = texts
                .get(1)
                .map_or(String::new(), |p| format!(" (expecting {p})"));
            outln!(
                "best move {}{ponder}, score {} (W/D/L {} ‰), depth {}, {} in {:.2}s",
                texts[0],
                human_score(result.score),
                wdl_text(wdl(result.score, pos)),
                result.depth,
                count(result.nodes, "node"),
                result.time.as_secs_f64()
            );
        }
    }
    Ok(())
}

/// Win/draw/loss per mille of the side to move, `295/410/295`.
fn wdl_text(wdl: Wdl) -> String {
    format!("{}/{}/{}", wdl.win, wdl.draw, wdl.loss)
}
