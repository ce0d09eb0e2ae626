//! The shared data files live beside the repository in `../shared/data`.

use std::path::PathBuf;

pub fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(name)
}

/// The text of a shared data file; panics with a message saying where it was looked for.
pub fn read(name: &str) -> String {
    let path = path(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("cannot read shared data {} ({e}); the tests expect ../shared/data beside the repository", path.display())
    })
}

/// One `FEN;depth;count` line of perft.txt.
pub struct PerftCase {
    pub line: usize,
    pub fen: String,
    pub depth: u32,
    pub count: u64,
}

fn bad_line(index: usize, line: &str) -> ! {
    panic!(
        "perft.txt line {}: expected FEN;depth;count, got {line:?}",
        index + 1
    )
}

pub fn perft_cases() -> Vec<PerftCase> {
    read("perft.txt")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let parts: Vec<&str> = l.split(';').collect();
            if parts.len() != 3 {
                bad_line(i, l);
            }
            PerftCase {
                line: i + 1,
                fen: parts[0].trim().to_string(),
                depth: parts[1].trim().parse().unwrap_or_else(|_| bad_line(i, l)),
                count: parts[2].trim().parse().unwrap_or_else(|_| bad_line(i, l)),
            }
        })
        .collect()
}

/// The FENs of bench.fen and perft.txt, without duplicates.
pub fn sample_fens() -> Vec<String> {
    let mut fens: Vec<String> = read("bench.fen")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    for case in perft_cases() {
        if !fens.contains(&case.fen) {
            fens.push(case.fen);
        }
    }
    fens
}
