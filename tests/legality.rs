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

/// `Position::hash_after` (the search prefetches the child's hash entry with it, and
/// `make_move` sets its hash from it) is the hash of the position after every legal move,
/// captures among them, as recomputed from the board; any other from/to pair gives some hash
/// and no panic.
#[test]
fn hash_after_predicts_the_hash_of_every_move() {
    let mut rng = fastrand::Rng::with_seed(0x4a54);
    let (mut moves_tested, mut captures) = (0, 0);
    for _game in 0..20 {
        let mut pos = Position::startpos();
        for _ply in 0..150 {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            for &mv in moves.as_slice() {
                let predicted = pos.hash_after(mv);
                captures += pos.piece_at(mv.to()).is_some() as usize;
                let mut child = pos.clone();
                child.make_move(mv);
                assert_eq!(predicted, child.hash(), "{mv} in {}", pos.to_fen());
                assert_eq!(child.hash(), child.compute_hash());
                moves_tested += 1;
            }
            for from in Square::all() {
                for to in Square::all() {
                    let _ = pos.hash_after(Move::new(from, to));
                }
            }
            pos.make_move(moves.as_slice()[rng.usize(..moves.len())]);
        }
    }
    assert!(
        moves_tested > 50_000 && captures > 1_000,
        "{moves_tested} moves, {captures} captures"
    );
}
