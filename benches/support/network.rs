//! The network benches' set-up: the build's network (a seeded random one of the same shape
//! when the build embeds none), the bench positions with their legal moves and a stack each,
//! and the walk both benches time, checked against a computation from scratch.

use chariot::board::movegen::legal_moves;
use chariot::nnue::{AccumulatorStack, Accumulators, Network};
use chariot::{Move, Position};
use std::sync::Arc;

pub fn network() -> Arc<Network> {
    chariot::nnue::default_network().unwrap_or_else(|| Arc::new(Network::random(1)))
}

/// A bench position, its legal moves, and a stack that has followed it.
pub struct Walk {
    pub pos: Position,
    pub moves: Vec<Move>,
    pub stack: AccumulatorStack,
}

/// The bench positions, each with a stack; every child's score through the stack is checked
/// against a computation from scratch, so a fast wrong answer fails.
pub fn positions_with_moves(net: &Network) -> Vec<Walk> {
    let mut walks: Vec<Walk> = chariot::data::bench_fens()
        .into_iter()
        .map(super::position)
        .map(|pos| Walk {
            moves: legal_moves(&pos).as_slice().to_vec(),
            stack: AccumulatorStack::new(net, &pos),
            pos,
        })
        .collect();
    assert!(!walks.is_empty(), "bench.fen holds no positions");
    for walk in &mut walks {
        for &mv in &walk.moves.clone() {
            let score = child(net, walk, mv);
            walk.pos.make_move(mv);
            let want = Accumulators::new(net, &walk.pos).evaluate(
                net,
                walk.pos.side_to_move(),
                walk.pos.occupied().count(),
            );
            walk.pos.unmake_move();
            assert_eq!(score, want, "{} after {mv:?}", walk.pos.to_fen());
        }
    }
    walks
}

/// Makes `mv` through the stack, evaluates the child, takes the move back.
#[inline]
fn child(net: &Network, walk: &mut Walk, mv: Move) -> i32 {
    let piece = walk.pos.piece_at(mv.from()).expect("a legal move's piece");
    let captured = walk.pos.piece_at(mv.to());
    walk.stack.push_move(piece, mv.from(), mv.to(), captured);
    walk.pos.make_move(mv);
    let score = walk.stack.evaluate(net, &walk.pos);
    walk.pos.unmake_move();
    walk.stack.pop();
    score
}

/// Every child of every position evaluated through its stack: the sum of their scores.
pub fn children_evaluated(net: &Network, walks: &mut [Walk]) -> i64 {
    let mut sum = 0i64;
    for walk in walks.iter_mut() {
        for i in 0..walk.moves.len() {
            let mv = walk.moves[i];
            sum += child(net, walk, mv) as i64;
        }
    }
    sum
}
