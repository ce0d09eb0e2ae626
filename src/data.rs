//! The repository's data files (`data/`): bench positions, openings, perft counts and mate
//! puzzles, each with one reader. `chariot bench` and the match runner build theirs in; tests,
//! benches, fuzz replay and profiling read the files through here, so there is one path
//! spelling and one parser per format. Blank lines and lines starting with `#` are skipped.

use std::path::PathBuf;

/// `data/bench.fen`, built in: the positions `chariot bench` searches.
pub const BENCH_FENS: &str = include_str!("../data/bench.fen");

/// `data/openings.fen`, built in: the match runner's default opening suite.
pub const OPENINGS: &str = include_str!("../data/openings.fen");

/// Where a data file of the source tree lives.
pub fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// The text of a data file of the source tree.
///
/// # Panics
/// If the file cannot be read; only tests, benches and profiling call this.
pub fn read(name: &str) -> String {
    let path = path(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read data file {} ({e})", path.display()))
}

/// The lines of `text` that carry data, with their 1-based line numbers, trimmed.
pub fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// The positions of bench.fen, in file order.
pub fn bench_fens() -> Vec<&'static str> {
    data_lines(BENCH_FENS).map(|(_, fen)| fen).collect()
}

/// One `FEN;depth;count` line of perft.txt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    pub line: usize,
    pub fen: String,
    pub depth: u32,
    pub count: u64,
}

/// Parses perft.txt text; the error names the line that is not `FEN;depth;count`.
pub fn parse_perft(text: &str) -> Result<Vec<PerftCase>, String> {
    data_lines(text)
        .map(|(line, text)| {
            let bad = || format!("perft.txt line {line}: expected FEN;depth;count, got {text:?}");
            match text.split(';').collect::<Vec<_>>().as_slice() {
                [fen, depth, count] => Ok(PerftCase {
                    line,
                    fen: fen.trim().to_string(),
                    depth: depth.trim().parse().map_err(|_| bad())?,
                    count: count.trim().parse().map_err(|_| bad())?,
                }),
                _ => Err(bad()),
            }
        })
        .collect()
}

/// The cases of `data/perft.txt`.
///
/// # Panics
/// If the file is missing or malformed.
pub fn perft_cases() -> Vec<PerftCase> {
    parse_perft(&read("perft.txt")).unwrap_or_else(|e| panic!("{e}"))
}

/// The reference leaf count of `fen` at `depth`, if the cases hold it.
pub fn expected_perft(cases: &[PerftCase], fen: &str, depth: u32) -> Option<u64> {
    cases
        .iter()
        .find(|c| c.fen == fen && c.depth == depth)
        .map(|c| c.count)
}

/// One `FEN;N` line of mates.epd: the side to move mates in `moves` moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatePuzzle {
    pub line: usize,
    pub fen: String,
    pub moves: i32,
}

/// Parses mates.epd text; the error names the line that is not `FEN;N`.
pub fn parse_mates(text: &str) -> Result<Vec<MatePuzzle>, String> {
    data_lines(text)
        .map(|(line, text)| {
            let bad = || format!("mates.epd line {line}: expected FEN;N, got {text:?}");
            let (fen, moves) = text.rsplit_once(';').ok_or_else(bad)?;
            Ok(MatePuzzle {
                line,
                fen: fen.trim().to_string(),
                moves: moves.trim().parse().map_err(|_| bad())?,
            })
        })
        .collect()
}

/// The puzzles of `data/mates.epd`.
///
/// # Panics
/// If the file is missing or malformed.
pub fn mate_puzzles() -> Vec<MatePuzzle> {
    parse_mates(&read("mates.epd")).unwrap_or_else(|e| panic!("{e}"))
}

/// Every distinct position of the data files (bench, openings, perft, mates), sorted.
pub fn all_fens() -> Vec<String> {
    let mut fens: Vec<String> = bench_fens().into_iter().map(String::from).collect();
    fens.extend(data_lines(OPENINGS).map(|(_, line)| opening_fen(line).to_string()));
    fens.extend(perft_cases().into_iter().map(|c| c.fen));
    fens.extend(mate_puzzles().into_iter().map(|p| p.fen));
    fens.sort();
    fens.dedup();
    fens
}

/// The FEN part of an openings line (`FEN [moves m1 m2 ...]`).
fn opening_fen(line: &str) -> &str {
    line.split_once(" moves ")
        .map_or(line, |(fen, _)| fen)
        .trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_lines_parse_and_comments_are_skipped() {
        let text = "# counts\n\nFEN a;2;400\n  FEN b ; 1 ; 44  \n";
        let cases = parse_perft(text).unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!((cases[0].line, cases[0].depth, cases[0].count), (3, 2, 400));
        assert_eq!(cases[1].fen, "FEN b");
        let err = parse_perft("FEN;x;1\n").unwrap_err();
        assert!(err.contains("line 1"), "{err}");
        assert!(parse_perft("FEN;1\n").is_err());
    }

    #[test]
    fn mate_lines_parse() {
        let puzzles = parse_mates("FEN w - - 0 1;3\n#x\n").unwrap();
        assert_eq!(puzzles[0].moves, 3);
        assert_eq!(puzzles[0].fen, "FEN w - - 0 1");
        assert!(parse_mates("FEN only\n").is_err());
    }

    #[test]
    fn the_repository_data_files_read() {
        assert_eq!(bench_fens().len(), 49);
        assert!(perft_cases().len() >= 90);
        assert!(mate_puzzles().len() >= 100);
        let fens = all_fens();
        assert!(fens.len() > 200, "{} positions", fens.len());
        assert!(fens.iter().all(|f| !f.contains(" moves ")));
    }
}
