//! Perft: counts the leaves of the legal move tree, the standard check of a move generator.

use crate::board::movegen::{count_legal, legal_moves};
use crate::board::position::Position;
use crate::board::types::Move;

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

/// Leaves below each legal move, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
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
