//! Perft: counts the leaves of the legal move tree, the standard check of a move generator.

use crate::board::movegen::{count_legal, legal_moves};
use crate::board::position::Position;
use crate::board::types::Move;
use crate::console::outln;
use std::time::Instant;

/// Leaves at `depth` plies, counting the last ply in bulk (no make/unmake there).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(pos) as u64,
        _ => {
            let moves = legal_moves(pos);
            let mut total = 0;
            for &mv in &moves {
                pos.make_move(mv);
                total += perft(pos, depth - 1);
                pos.unmake_move();
            }
            total
        }
    }
}

/// Leaves below each legal move, in generation order. At depth 0 no move is played, so there
/// is none to list: the one leaf is the position itself (`perft 0` counts 1).
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = legal_moves(pos);
    moves
        .iter()
        .map(|&mv| {
            pos.make_move(mv);
            let count = if depth > 1 { perft(pos, depth - 1) } else { 1 };
            pos.unmake_move();
            (mv, count)
        })
        .collect()
}

/// `chariot perft`: the leaf count, the time and the speed.
pub fn run_perft(pos: &mut Position, depth: u32) {
    let start = Instant::now();
    let nodes = perft(pos, depth);
    report_speed(nodes, start);
}

/// `chariot divide`: the leaves below each root move, then the total (the same as perft's,
/// 1 at depth 0).
pub fn run_divide(pos: &mut Position, depth: u32) {
    let start = Instant::now();
    let mut total = u64::from(depth == 0);
    for (mv, count) in divide(pos, depth) {
        outln!("{mv}: {count}");
        total += count;
    }
    outln!();
    report_speed(total, start);
}

fn report_speed(nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    let rate = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    outln!("Time: {:.3} s, {:.1} M leaves/s", secs, rate / 1e6);
    outln!("Nodes searched: {nodes}");
}
