//! `Position::is_legal` (used for moves from the TT, killers and GUIs) must agree with the
//! generator on every from/to pair, in positions from seeded random playouts.

use chariot::board::movegen::legal_moves;
use chariot::{Move, Position, Square};

fn check_every_pair(pos: &Position) {
    let legal = legal_moves(pos);
    for from in Square::all() {
        for to in Square::all() {
            if from == to {
                continue;
            }
            let mv = Move::new(from, to);
            assert_eq!(
                pos.is_legal(mv),
                legal.contains(mv),
                "{mv} in {}",
                pos.to_fen()
            );
        }
    }
}

#[test]
fn is_legal_agrees_with_generator() {
    let mut rng = fastrand::Rng::with_seed(0x1e6a1);
    let mut positions = 0;
    for _game in 0..40 {
        let mut pos = Position::startpos();
        for _ply in 0..120 {
            check_every_pair(&pos);
            positions += 1;
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves.as_slice()[rng.usize(..moves.len())]);
        }
    }
    assert!(positions > 1000, "too few positions tested: {positions}");
}
