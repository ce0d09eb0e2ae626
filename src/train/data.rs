//! The training data: one or more datagen files, each whole or capped at a number of positions
//! (`gen1.bin:2000000`, or `2M`), so that a new generation can mix in some of an older one.

use crate::console::outln;
use crate::samples::{self, Record};
use std::path::PathBuf;

/// One `--data` file and how many of its positions to use.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    pub path: PathBuf,
    /// At most this many positions, in whole blocks of games spread evenly over the file.
    pub cap: Option<usize>,
}

/// Parses `FILE` or `FILE:N` (N a count, with an optional `k` or `M`). A name that exists as a
/// file is taken whole even if it holds a colon.
pub fn parse_source(text: &str) -> Result<Source, String> {
    let whole = Source {
        path: PathBuf::from(text),
        cap: None,
    };
    if whole.path.exists() {
        return Ok(whole);
    }
    let Some((path, count)) = text.rsplit_once(':') else {
        return Ok(whole);
    };
    let (digits, unit) = match count.as_bytes().last() {
        Some(b'k' | b'K') => (&count[..count.len() - 1], 1_000),
        Some(b'M' | b'm') => (&count[..count.len() - 1], 1_000_000),
        _ => (count, 1),
    };
    match digits.parse::<usize>() {
        Ok(0) => Err(format!("{text}: a cap of 0 positions keeps nothing")),
        Ok(n) => Ok(Source {
            path: PathBuf::from(path),
            cap: Some(n.saturating_mul(unit)),
        }),
        // Not a count: a path with a colon in it (reported missing when it is read).
        Err(_) => Ok(whole),
    }
}

/// Positions kept together when a file is capped: about ten games, as the held-out split
/// takes them.
pub const BLOCK: usize = 1024;

/// Reads every source in order, each capped as it says, the whole stopping at `limit`.
pub fn load(sources: &[Source], limit: Option<usize>) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    for source in sources {
        let mut file = Vec::new();
        samples::for_each_record(&source.path, None, |r| {
            file.push(r);
            Ok(())
        })?;
        let read = file.len();
        if let Some(cap) = source.cap {
            file = spread(file, cap);
        }
        outln!(
            "{}: {read} positions{}",
            source.path.display(),
            match source.cap {
                Some(_) => format!(", {} used", file.len()),
                None => String::new(),
            }
        );
        records.extend(file);
        if limit.is_some_and(|n| records.len() >= n) {
            break;
        }
    }
    if let Some(n) = limit {
        records.truncate(n);
    }
    Ok(records)
}

/// At most `cap` of `records`, in whole blocks of [`BLOCK`] spread evenly from first to last.
fn spread(records: Vec<Record>, cap: usize) -> Vec<Record> {
    if records.len() <= cap {
        return records;
    }
    let blocks = records.len().div_ceil(BLOCK);
    let wanted = cap.div_ceil(BLOCK);
    let mut kept: Vec<Record> = records
        .chunks(BLOCK)
        .enumerate()
        .filter(|(i, _)| (i + 1) * wanted / blocks > i * wanted / blocks)
        .flat_map(|(_, block)| block.iter().copied())
        .collect();
    kept.truncate(cap);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_read_a_cap_after_the_last_colon() {
        let parse = |t: &str| parse_source(t).unwrap();
        assert_eq!(parse("a.bin").cap, None);
        assert_eq!(parse("a.bin:2000").cap, Some(2000));
        assert_eq!(parse("dir:x/a.bin:3k").cap, Some(3000));
        assert_eq!(parse("dir:x/a.bin:3k").path, PathBuf::from("dir:x/a.bin"));
        assert_eq!(parse("a.bin:2M").cap, Some(2_000_000));
        assert_eq!(parse("a.bin:many").path, PathBuf::from("a.bin:many"));
        assert!(parse_source("a.bin:0").is_err());
    }

    #[test]
    fn a_cap_takes_whole_blocks_spread_over_the_file() {
        let pos = crate::Position::startpos();
        let records: Vec<Record> = (0..10 * BLOCK)
            .map(|i| Record::new(&pos, i as i32, 1).unwrap())
            .collect();
        let kept = spread(records.clone(), 3 * BLOCK);
        assert_eq!(kept.len(), 3 * BLOCK);
        let firsts: Vec<i32> = kept.chunks(BLOCK).map(|b| b[0].score as i32).collect();
        // Blocks from the start, middle and end, each whole.
        assert!(firsts.iter().all(|s| *s as usize % BLOCK == 0));
        assert!(firsts[0] < 4 * BLOCK as i32 && firsts[2] >= 6 * BLOCK as i32);
        assert!(kept
            .chunks(BLOCK)
            .all(|b| b.windows(2).all(|w| w[1].score == w[0].score + 1)));
        assert_eq!(spread(records.clone(), 100).len(), 100);
        assert_eq!(spread(records, 20 * BLOCK).len(), 10 * BLOCK);
    }
}
