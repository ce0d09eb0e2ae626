//! Training positions on disk, in either of datagen's two formats, read by one reader that
//! `tune` and `train` share.
//!
//! - text: one position a line, `FEN | SCORE | RESULT` (score and result for Red);
//! - binary: fixed 40-byte [`Record`]s, see `record.rs`.
//!
//! A file's format follows its extension (`.bin` is binary, anything else text) unless named.

mod record;

pub use record::{Record, RECORD_BYTES};

use crate::Position;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// How positions are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `FEN | score | result`, one position a line.
    Text,
    /// Fixed 40-byte records.
    Binary,
}

impl Format {
    /// The format a file name implies: `.bin` is binary, anything else text.
    pub fn of_path(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some("bin") => Format::Binary,
            _ => Format::Text,
        }
    }
}

/// One text line, `FEN | score for Red | result for Red`: the position, the score and the
/// result in halves (0 loss, 1 draw, 2 win).
pub fn parse_text_line(line: &str) -> Result<(Position, i32, u8), String> {
    let mut parts = line.split('|').map(str::trim);
    let (Some(fen), Some(score), Some(result), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err("expected `FEN | score | result`".into());
    };
    let pos = Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?;
    let score: i32 = score.parse().map_err(|_| format!("bad score {score:?}"))?;
    let result = match result {
        "1.0" | "1" => 2,
        "0.5" => 1,
        "0.0" | "0" => 0,
        _ => return Err(format!("bad result {result:?} (1.0, 0.5 or 0.0)")),
    };
    Ok((pos, score, result))
}

/// The text line of a position, its score and result (both for Red, the result in halves).
pub fn text_line(pos: &Position, score: i32, result: u8) -> String {
    let result = match result {
        2 => "1.0",
        1 => "0.5",
        _ => "0.0",
    };
    format!("{} | {} | {}", pos.to_fen(), score, result)
}

/// Calls `each` with every record of the file at `path` (format from the extension unless
/// given), in file order. Errors name the file and the line or record.
pub fn for_each_record(
    path: &Path,
    format: Option<Format>,
    mut each: impl FnMut(Record) -> Result<(), String>,
) -> Result<(), String> {
    let name = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    match format.unwrap_or_else(|| Format::of_path(path)) {
        Format::Text => {
            let mut line = String::new();
            let mut number = 0;
            loop {
                line.clear();
                let read = reader
                    .read_line(&mut line)
                    .map_err(|e| format!("{name}: {e}"))?;
                if read == 0 {
                    return Ok(());
                }
                number += 1;
                let text = line.trim();
                if text.is_empty() || text.starts_with('#') {
                    continue;
                }
                let (pos, score, result) =
                    parse_text_line(text).map_err(|e| format!("{name}:{number}: {e}"))?;
                let record = Record::new(&pos, score, result)
                    .map_err(|e| format!("{name}:{number}: {e}"))?;
                each(record)?;
            }
        }
        Format::Binary => {
            let mut bytes = [0u8; RECORD_BYTES];
            let mut index = 0u64;
            loop {
                match read_full(&mut reader, &mut bytes).map_err(|e| format!("{name}: {e}"))? {
                    0 => return Ok(()),
                    RECORD_BYTES => {}
                    partial => {
                        return Err(format!(
                        "{name}: truncated: the last record has {partial} of {RECORD_BYTES} bytes"
                    ))
                    }
                }
                let record = Record::from_bytes(&bytes)
                    .map_err(|e| format!("{name}: record {index}: {e}"))?;
                each(record)?;
                index += 1;
            }
        }
    }
}

/// Every record of the files, in order.
pub fn read_records(
    paths: &[impl AsRef<Path>],
    format: Option<Format>,
) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    for path in paths {
        for_each_record(path.as_ref(), format, |r| {
            out.push(r);
            Ok(())
        })?;
    }
    Ok(out)
}

/// Fills `buf` as far as the reader goes; the number of bytes read.
fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}
