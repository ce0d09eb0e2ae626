//! The board's legality tests must agree with the generator on every from/to pair, in set
//! positions and in positions from seeded random playouts: `Position::is_legal` (moves from the
//! TT, killers and GUIs) and `Position::is_legal_quiet` (the move picker's test of killers and
//! counter-moves, with the safety sets of the captures' generation).

use chariot::board::movegen::{generate_captures, legal_moves};
use chariot::{Move, MoveList, Position, Square};

/// Checks both tests on every pair of squares of `pos`; true when `pos` is in check.
fn check_every_pair(pos: &Position) -> bool {
    let legal = legal_moves(pos);
    let safety = generate_captures(pos, &mut MoveList::new());
    let fen = pos.to_fen();
    for from in Square::all() {
        for to in Square::all() {
            if from == to {
                continue;
            }
            let mv = Move::new(from, to);
            assert_eq!(pos.is_legal(mv), legal.contains(mv), "{mv} in {fen}");
            let legal_quiet = legal.contains(mv) && pos.piece_at(to).is_none();
            assert_eq!(
                pos.is_legal_quiet(mv, &safety),
                legal_quiet,
                "quiet {mv} in {fen}"
            );
        }
    }
    pos.in_check()
}

#[test]
fn legality_agrees_with_generator() {
    let fens = [
        Position::START_FEN,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        "3k1ab2/6n2/b2a5/p1r1C4/4CN3/P4p2P/3RP4/4B4/4A4/3AK1B2 w - - 2 28",
        // In check from a cannon whose screen is Red's rook.
        "4k4/9/9/9/4c4/9/4R4/9/4C4/3K5 b - - 0 1",
    ];
    for fen in fens {
        check_every_pair(&Position::from_fen(fen).unwrap());
    }
    let mut rng = fastrand::Rng::with_seed(0x1e6a1);
    let (mut positions, mut in_check) = (0, 0);
    for _game in 0..40 {
        let mut pos = Position::startpos();
        for _ply in 0..120 {
            in_check += check_every_pair(&pos) as usize;
            positions += 1;
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves.as_slice()[rng.usize(..moves.len())]);
        }
    }
    assert!(
        positions > 1000 && in_check > 50,
        "too few positions tested: {positions}, {in_check} in check"
    );
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
