//! The fast generator and the board's incremental state against the reference generator on
//! thousands of positions from seeded random playouts (see `common::fuzz_checks::check_position`
//! for the list of properties), plus hand-built mates and stalemates.

mod common;

use chariot::board::movegen::{is_lost, legal_moves};
use chariot::Position;
use common::fuzz_checks::{check_position, position_from_bytes};
use common::reference::Board;

/// Plays `plies` random legal moves from `pos`, checking every position on the way; returns
/// how many positions were checked.
fn random_playout(pos: &mut Position, rng: &mut fastrand::Rng, plies: usize) -> usize {
    let mut checked = 0;
    for _ in 0..plies {
        check_position(pos);
        checked += 1;
        let moves = legal_moves(pos);
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves.as_slice()[rng.usize(..moves.len())]);
    }
    checked
}

#[test]
fn playouts_from_the_start_position() {
    let mut rng = fastrand::Rng::with_seed(0x5EED_0001);
    let mut checked = 0;
    for _ in 0..20 {
        checked += random_playout(&mut Position::startpos(), &mut rng, 150);
    }
    assert!(checked >= 1000, "only {checked} positions checked");
}

#[test]
fn playouts_from_the_data_fens() {
    let mut rng = fastrand::Rng::with_seed(0x5EED_0002);
    // bench.fen and perft.txt: opening to endgame, with many checks and pins.
    let mut fens: Vec<String> = chariot::data::bench_fens()
        .into_iter()
        .map(String::from)
        .collect();
    for case in chariot::data::perft_cases() {
        if !fens.contains(&case.fen) {
            fens.push(case.fen);
        }
    }
    let mut checked = 0;
    for fen in &fens {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for _ in 0..3 {
            checked += random_playout(&mut pos.clone(), &mut rng, 40);
        }
    }
    assert!(
        checked >= 3 * fens.len(),
        "only {checked} positions checked"
    );
}

/// Sparse positions built from random bytes: many checks, pins and bare kings that playouts
/// from the opening rarely reach.
#[test]
fn playouts_from_built_positions() {
    let mut rng = fastrand::Rng::with_seed(0x5EED_0003);
    let mut built = 0;
    let mut in_check = 0;
    for _ in 0..3000 {
        let bytes: Vec<u8> = (0..70).map(|_| rng.u8(..)).collect();
        if let Some((mut pos, _)) = position_from_bytes(&bytes) {
            built += 1;
            in_check += pos.in_check() as usize;
            random_playout(&mut pos, &mut rng, 8);
        }
    }
    assert!(
        built >= 1000,
        "only {built} of 3000 byte strings made a position"
    );
    assert!(in_check >= 50, "only {in_check} built positions in check");
}

/// Playouts that give check whenever they can, seven times in eight, from the start and the
/// data positions: the generator's in-check shortcuts (evasions kept without the exact king
/// test, shielding pieces skipped, cannon screens and pins) meet many more checks, double
/// checks and screened cannons than uniform playouts bring.
#[test]
fn playouts_biased_toward_checks() {
    let games: usize = std::env::var("CHARIOT_CHECK_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(150);
    let mut rng = fastrand::Rng::with_seed(0x5EED_0004);
    let starts: Vec<Position> = std::iter::once(Position::START_FEN)
        .chain(chariot::data::bench_fens())
        .map(|fen| Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")))
        .collect();
    let (mut checked, mut in_check, mut double) = (0, 0, 0);
    for game in 0..games {
        let mut pos = starts[game % starts.len()].clone();
        for _ in 0..120 {
            check_position(&mut pos);
            checked += 1;
            in_check += pos.in_check() as usize;
            double += pos.checkers().more_than_one() as usize;
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let checks: Vec<_> = moves.iter().filter(|&&mv| pos.gives_check(mv)).collect();
            let mv = if !checks.is_empty() && rng.u8(..8) != 0 {
                *checks[rng.usize(..checks.len())]
            } else {
                moves.as_slice()[rng.usize(..moves.len())]
            };
            pos.make_move(mv);
        }
    }
    assert!(checked >= games * 20, "only {checked} positions checked");
    assert!(
        in_check * 5 >= checked,
        "only {in_check} of {checked} positions in check"
    );
    assert!(double >= games / 10, "only {double} double checks");
    eprintln!("{checked} positions, {in_check} in check, {double} double checks");
}

#[test]
fn checkmate_and_stalemate_are_lost() {
    // Rook on the back rank checks, the other covers rank 8: mate.
    let mate = "R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1";
    // Black king d9 not in check, d8 and e9 covered: stalemate, which also loses.
    let stalemate = "3k5/R8/9/9/9/9/9/9/4R4/5K3 b - - 0 1";
    // Rook e7 checks, rook f1 covers the f-file and the d-file would face the red king.
    let facing = "4k4/9/4R4/9/9/9/9/9/5R3/3K5 b - - 0 1";
    for (fen, check) in [(mate, true), (stalemate, false), (facing, true)] {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(is_lost(&pos), "{fen} should be lost");
        assert_eq!(pos.in_check(), check, "{fen}");
        assert!(
            Board::from_fen(fen).unwrap().legal_moves().is_empty(),
            "reference disagrees on {fen}"
        );
    }
    for fen in [Position::START_FEN, "4k4/4R4/9/9/9/9/9/9/9/5K3 b - - 0 1"] {
        assert!(
            !is_lost(&Position::from_fen(fen).unwrap()),
            "{fen} is not lost"
        );
    }
}
