//! Reference data for the benches and the profiling example. Everything timed is checked against
//! the counts in `../shared/data/perft.txt`, so a fast wrong answer fails instead of looking good.
//! Each target uses a different subset of these helpers.
#![allow(dead_code)]

use chariot::Position;
use std::path::PathBuf;

/// One line of perft.txt: `FEN;depth;count`.
pub struct PerftCase {
    pub fen: String,
    pub depth: u32,
    pub nodes: u64,
}

/// Reads a file of the shared data directory, or stops with a message that says where it looked.
pub fn read_data(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "shared", "data", name]
        .iter()
        .collect();
    std::fs::read_to_string(&path).unwrap_or_else(|err| {
        panic!(
            "cannot read {} ({err}); the benches need the shared data directory",
            path.display()
        )
    })
}

pub fn perft_cases() -> Vec<PerftCase> {
    read_data("perft.txt")
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(';').collect();
            let parsed = match fields.as_slice() {
                [fen, depth, nodes] => depth
                    .trim()
                    .parse()
                    .ok()
                    .zip(nodes.trim().parse().ok())
                    .map(|(depth, nodes)| PerftCase {
                        fen: fen.trim().to_string(),
                        depth,
                        nodes,
                    }),
                _ => None,
            };
            parsed.unwrap_or_else(|| panic!("perft.txt: malformed line {line:?}"))
        })
        .collect()
}

/// The reference leaf count of `fen` at `depth`, if perft.txt has it.
pub fn expected_nodes(cases: &[PerftCase], fen: &str, depth: u32) -> Option<u64> {
    cases
        .iter()
        .find(|c| c.fen == fen && c.depth == depth)
        .map(|c| c.nodes)
}

/// The positions of bench.fen, in file order.
pub fn bench_fens() -> Vec<String> {
    read_data("bench.fen")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(str::to_string)
        .collect()
}

pub fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|err| panic!("bad FEN {fen:?}: {err}"))
}
