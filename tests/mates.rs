//! Mate puzzles from `data/mates.epd` (`FEN;N`: the side to move mates in N moves,
//! found by an independent engine). The search must report a mate in N or fewer within a node
//! budget. All of them run by default (about ten seconds with the test profile's optimisation).

use chariot::search::score::{describe, ScoreText};
use chariot::search::tt::TranspositionTable;
use chariot::search::{search, Limits, Options, Signals};
use chariot::Position;

fn puzzles() -> Vec<(String, i32)> {
    chariot::data::mate_puzzles()
        .into_iter()
        .map(|p| (p.fen, p.moves))
        .collect()
}

/// Searches as `go mate n nodes budget` does: until a mate in `n` or fewer is proved (then it
/// stops) or `budget` nodes are spent. Returns the mate length proved, if any, and the nodes.
fn solve(fen: &str, n: i32, budget: u64) -> (Option<i32>, u64) {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let tt = TranspositionTable::new(16);
    // Only the node budget bounds the search: pruning can hide a short mate at shallow depths.
    let limits = Limits {
        nodes: Some(budget),
        mate: Some(n),
        ..Limits::default()
    };
    let signals = Signals::default();
    let result = search(
        &pos,
        &tt,
        &limits,
        &Options::default(),
        &signals,
        &mut |_| {},
    );
    let mate = match describe(result.score) {
        ScoreText::Mate(m) if (1..=n).contains(&m) => Some(m),
        _ => None,
    };
    (mate, result.nodes)
}

/// Solves every puzzle of `chosen` within `budget` nodes each; prints the solve rate and the
/// most nodes any puzzle used, and fails naming the unsolved ones.
fn solve_all(chosen: &[(String, i32)], what: &str, budget: u64) {
    let mut failures = Vec::new();
    let mut most_nodes = 0;
    for (fen, n) in chosen {
        let (mate, nodes) = solve(fen, *n, budget);
        most_nodes = most_nodes.max(nodes);
        if mate.is_none() {
            failures.push(format!("{fen} (mate in {n})"));
        }
    }
    println!(
        "solved {}/{} {what}; budget {budget} nodes, most used {most_nodes}",
        chosen.len() - failures.len(),
        chosen.len()
    );
    assert!(
        failures.is_empty(),
        "unsolved within {budget} nodes:\n{}",
        failures.join("\n")
    );
}

/// Every puzzle, mate in one to seven, within 2 M nodes each, as `go mate N nodes 2000000`
/// would search it. The hardest ones are slow pawn marches and quiet moves between checks that
/// pruning once hid (they needed up to 6.4 M nodes); `--nocapture` prints the most any needed.
#[test]
fn every_mate_within_two_million_nodes() {
    let all = puzzles();
    assert!(
        all.len() >= 100,
        "mates.epd holds only {} puzzles",
        all.len()
    );
    solve_all(&all, "mates in 1 to 7", 2_000_000);
}
