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
use std::ops::ControlFlow;
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
    format!("{} | {} | {}", pos.to_fen(), score, result_text(result))
}

/// A result in halves as the text format writes it.
fn result_text(result: u8) -> &'static str {
    match result {
        2 => "1.0",
        1 => "0.5",
        _ => "0.0",
    }
}

/// Appends `record` to `out` in `format`: its 40 bytes, or its text line with a newline.
pub fn encode(record: &Record, format: Format, out: &mut Vec<u8>) {
    match format {
        Format::Binary => out.extend_from_slice(&record.to_bytes()),
        Format::Text => {
            // The record's FEN is spelled as `Position::to_fen` spells it, so a position
            // written through a record reads back as the same line.
            let line = format!(
                "{} | {} | {}\n",
                record.fen(),
                record.score,
                result_text(record.result)
            );
            out.extend_from_slice(line.as_bytes());
        }
    }
}

/// Calls `each` with every record of the file at `path` (format from the extension unless
/// given), in file order. Errors name the file and the line or record.
pub fn for_each_record(
    path: &Path,
    format: Option<Format>,
    mut each: impl FnMut(Record) -> Result<(), String>,
) -> Result<(), String> {
    visit_records(path, format, |record, _| {
        each(record).map(|()| ControlFlow::Continue(()))
    })
    .map(|_| ())
}

/// The reader under [`for_each_record`]: `each` is also told how many bytes of the file have
/// been read through the record (for progress), and may stop the reading early with
/// `ControlFlow::Break`, which is then returned.
pub fn visit_records(
    path: &Path,
    format: Option<Format>,
    mut each: impl FnMut(Record, u64) -> Result<ControlFlow<()>, String>,
) -> Result<ControlFlow<()>, String> {
    let name = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    match format.unwrap_or_else(|| Format::of_path(path)) {
        Format::Text => {
            let mut line = String::new();
            let mut number = 0;
            let mut bytes = 0u64;
            loop {
                line.clear();
                let read = reader
                    .read_line(&mut line)
                    .map_err(|e| format!("{name}: {e}"))?;
                if read == 0 {
                    return Ok(ControlFlow::Continue(()));
                }
                number += 1;
                bytes += read as u64;
                let text = line.trim();
                if text.is_empty() || text.starts_with('#') {
                    continue;
                }
                let (pos, score, result) =
                    parse_text_line(text).map_err(|e| format!("{name}:{number}: {e}"))?;
                let record = Record::new(&pos, score, result)
                    .map_err(|e| format!("{name}:{number}: {e}"))?;
                if each(record, bytes)?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
        }
        Format::Binary => {
            let mut bytes = [0u8; RECORD_BYTES];
            let mut index = 0u64;
            loop {
                match read_full(&mut reader, &mut bytes).map_err(|e| format!("{name}: {e}"))? {
                    0 => return Ok(ControlFlow::Continue(())),
                    RECORD_BYTES => {}
                    partial => {
                        return Err(format!(
                        "{name}: truncated: the last record has {partial} of {RECORD_BYTES} bytes"
                    ))
                    }
                }
                let record = Record::from_bytes(&bytes)
                    .map_err(|e| format!("{name}: record {index}: {e}"))?;
                index += 1;
                if each(record, index * RECORD_BYTES as u64)?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;

    /// Positions of a seeded random game, each with a score and a result.
    fn records(count: usize) -> Vec<(Position, i32, u8)> {
        let mut rng = fastrand::Rng::with_seed(11);
        let mut pos = Position::startpos();
        let mut out = Vec::new();
        while out.len() < count {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                pos = Position::startpos();
                continue;
            }
            out.push((pos.clone(), rng.i32(-900..900), rng.u8(0..3)));
            pos.make_move(moves.as_slice()[rng.usize(..moves.len())]);
        }
        out
    }

    #[test]
    fn encoded_records_read_back_in_both_formats() {
        let dir = std::env::temp_dir().join(format!("chariot-samples-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let samples = records(50);
        for format in [Format::Text, Format::Binary] {
            let mut bytes = Vec::new();
            for (pos, score, result) in &samples {
                let record = Record::new(pos, *score, *result).unwrap();
                encode(&record, format, &mut bytes);
                if format == Format::Text {
                    let line = text_line(pos, *score, *result) + "\n";
                    assert!(bytes.ends_with(line.as_bytes()), "{line}");
                }
            }
            let path = dir.join(match format {
                Format::Text => "a.txt",
                Format::Binary => "a.bin",
            });
            std::fs::write(&path, &bytes).unwrap();
            let back = read_records(&[&path], None).unwrap();
            assert_eq!(back.len(), samples.len());
            for (record, (pos, score, result)) in back.iter().zip(&samples) {
                assert_eq!(record.fen(), pos.to_fen());
                assert_eq!((record.score as i32, record.result), (*score, *result));
            }

            // Stopping early: the visit ends at the tenth record, having read no further.
            let mut seen = 0;
            let mut last_offset = 0;
            let flow = visit_records(&path, None, |_, offset| {
                assert!(offset > last_offset);
                last_offset = offset;
                seen += 1;
                Ok(if seen == 10 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                })
            })
            .unwrap();
            assert!(flow.is_break());
            assert_eq!(seen, 10);
            let mut all = 0;
            let flow = visit_records(&path, None, |_, offset| {
                all += 1;
                last_offset = offset;
                Ok(ControlFlow::Continue(()))
            })
            .unwrap();
            assert!(flow.is_continue());
            assert_eq!(all, samples.len());
            assert_eq!(
                last_offset,
                bytes.len() as u64,
                "the offset ends at the file's size"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
