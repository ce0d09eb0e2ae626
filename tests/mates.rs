//! Mate puzzles from `data/mates.epd` (`FEN;N`: the side to move mates in N moves,
//! found by an independent engine). The search must report a mate in N or fewer within a node
//! budget. All of them run by default (a few seconds with the test profile's optimisation).

use chariot::search::score::{describe, ScoreText};
use chariot::search::tt::TranspositionTable;
use chariot::search::{search, Limits, Memory, Options, Signals};
use chariot::Position;

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
        &mut Memory::default(),
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

/// Nodes each puzzle may take, as `go mate N nodes 4000000` would search it. The evaluation
/// orders the moves, so the count follows the network: the hardest puzzle took 1.25 M nodes with
/// the first network and 3.19 M with the second.
const BUDGET: u64 = 4_000_000;

/// Every puzzle, mate in one to seven, within [`BUDGET`] nodes each. The hardest ones are slow
/// pawn marches and quiet moves between checks that pruning once hid (they needed up to 6.4 M
/// nodes); `--nocapture` prints the solve rate and the most nodes any puzzle needed.
#[test]
fn every_mate_within_four_million_nodes() {
    let puzzles = chariot::data::mate_puzzles();
    assert!(
        puzzles.len() >= 100,
        "mates.epd holds only {} puzzles",
        puzzles.len()
    );
    let mut failures = Vec::new();
    let mut most_nodes = 0;
    for puzzle in &puzzles {
        let (mate, nodes) = solve(&puzzle.fen, puzzle.moves, BUDGET);
        most_nodes = most_nodes.max(nodes);
        if mate.is_none() {
            failures.push(format!("{} (mate in {})", puzzle.fen, puzzle.moves));
        }
    }
    println!(
        "solved {}/{} mates in 1 to 7; budget {BUDGET} nodes, most used {most_nodes}",
        puzzles.len() - failures.len(),
        puzzles.len()
    );
    assert!(
        failures.is_empty(),
        "unsolved within {BUDGET} nodes:\n{}",
        failures.join("\n")
    );
}
