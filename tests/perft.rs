//! Perft against data/perft.txt: every line up to 5 M leaves by default, the whole
//! file with `cargo test --test perft -- --ignored` (the test profile is optimised).

use chariot::commands::perft::{divide, perft};
use chariot::data::perft_cases;
use chariot::Position;

/// Lines above this many leaves only run in the ignored full test.
const QUICK_LIMIT: u64 = 5_000_000;

fn run_cases(limit: u64) {
    let cases = perft_cases();
    assert!(!cases.is_empty(), "perft.txt has no cases");
    let mut failures = Vec::new();
    let mut run = 0;
    for case in cases.iter().filter(|c| c.count <= limit) {
        let mut pos = Position::from_fen(&case.fen).unwrap_or_else(|e| {
            panic!(
                "perft.txt line {}: {} is rejected: {e}",
                case.line, case.fen
            )
        });
        let got = perft(&mut pos, case.depth);
        if got != case.count {
            failures.push(format!(
                "line {}: {} depth {}: {got}, expected {}",
                case.line, case.fen, case.depth, case.count
            ));
        }
        assert_eq!(
            pos.to_fen(),
            Position::from_fen(&case.fen).unwrap().to_fen(),
            "perft changed the position"
        );
        run += 1;
    }
    assert!(run > 0, "no perft line within the limit");
    assert!(
        failures.is_empty(),
        "{} of {run} perft lines wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn perft_lines_up_to_five_million_leaves() {
    run_cases(QUICK_LIMIT);
}

#[test]
#[ignore = "7 G leaves: run with `cargo test --test perft -- --ignored`"]
fn perft_whole_file() {
    run_cases(u64::MAX);
}

/// Divide must split exactly the perft count over the legal root moves.
#[test]
fn divide_sums_to_perft() {
    for case in perft_cases().iter().filter(|c| c.depth == 3).take(6) {
        let mut pos = Position::from_fen(&case.fen).unwrap();
        let parts = divide(&mut pos, case.depth);
        assert_eq!(
            parts.len(),
            chariot::board::movegen::legal_moves(&pos).len(),
            "{}",
            case.fen
        );
        assert_eq!(
            parts.iter().map(|p| p.1).sum::<u64>(),
            case.count,
            "{}",
            case.fen
        );
        for (mv, count) in parts {
            pos.make_move(mv);
            assert_eq!(
                perft(&mut pos, case.depth - 1),
                count,
                "{} after {mv}",
                case.fen
            );
            pos.unmake_move();
        }
    }
}
