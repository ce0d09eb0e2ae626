//! Smoke tests of `chariot perft` and `chariot divide` driven through the real binary.

use chariot::board::notation::{parse_coords, RankBase};
use chariot::data::perft_cases;
use std::process::{Command, Output};

fn chariot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .output()
        .expect("the chariot binary runs")
}

fn nodes_line(out: &Output) -> u64 {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "));
    line.unwrap_or_else(|| panic!("no `Nodes searched: N` line in:\n{stdout}"))
        .trim()
        .parse()
        .expect("a number")
}

#[test]
fn perft_from_start_prints_the_node_count() {
    let expected = perft_cases()
        .into_iter()
        .find(|c| c.fen == chariot::Position::START_FEN && c.depth == 3);
    let expected = expected.expect("perft.txt has the start position at depth 3");
    let out = chariot(&["perft", "3"]);
    assert!(
        out.status.success(),
        "perft failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(nodes_line(&out), expected.count);
}

#[test]
fn perft_and_divide_with_a_fen() {
    let case = perft_cases()
        .into_iter()
        .find(|c| c.fen != chariot::Position::START_FEN && c.depth == 2);
    let case = case.expect("perft.txt has another position at depth 2");
    let out = chariot(&["perft", "2", "--fen", &case.fen]);
    assert!(out.status.success());
    assert_eq!(nodes_line(&out), case.count);

    let out = chariot(&["divide", "2", "--fen", &case.fen]);
    assert!(out.status.success());
    assert_eq!(nodes_line(&out), case.count);
    // One `move: count` line per legal root move, adding up to the total.
    let stdout = String::from_utf8_lossy(&out.stdout);
    let per_move: Vec<u64> = stdout
        .lines()
        .filter_map(|l| {
            l.split_once(": ")
                .filter(|(m, _)| parse_coords(m, RankBase::Zero).is_some())
        })
        .map(|(_, n)| n.parse().expect("a count after the move"))
        .collect();
    let pos = chariot::Position::from_fen(&case.fen).unwrap();
    assert_eq!(
        per_move.len(),
        chariot::board::movegen::legal_moves(&pos).len()
    );
    assert_eq!(per_move.iter().sum::<u64>(), case.count);
}

#[test]
fn bad_fen_is_a_clear_error_not_a_panic() {
    for fen in ["not a fen", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", ""] {
        for command in ["perft", "divide"] {
            let out = chariot(&[command, "2", "--fen", fen]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{command} accepted {fen:?}");
            assert!(
                stderr.contains("invalid FEN"),
                "{command} {fen:?}: unclear error {stderr:?}"
            );
            assert!(
                !stderr.contains("panicked"),
                "{command} {fen:?} panicked: {stderr}"
            );
        }
    }
}

#[test]
fn bad_arguments_are_rejected() {
    let out = chariot(&["perft", "deep"]);
    assert!(!out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn depth_zero_counts_the_position_itself() {
    for command in ["perft", "divide"] {
        let out = chariot(&[command, "0"]);
        assert!(out.status.success());
        assert_eq!(nodes_line(&out), 1, "{command} 0");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let moves = stdout.lines().filter(|l| {
            l.split_once(": ")
                .is_some_and(|(m, _)| parse_coords(m, RankBase::Zero).is_some())
        });
        assert_eq!(moves.count(), 0, "{command} 0 lists moves:\n{stdout}");
    }
}
