//! `chariot convert`: rewrites training positions from one format of `crate::samples` into the
//! other (or the same one, to join files), reading through the one shared reader.

use crate::console::{self, errln};
use crate::output_file::{Existing, OutputPath};
use crate::samples::{self, Format};
use clap::Args;
use std::io::Write;
use std::path::Path;

#[derive(Args, Debug, Clone)]
pub struct ConvertArgs {
    /// Files to read, in order.
    #[arg(long, value_name = "FILE", required = true, num_args = 1..)]
    pub input: Vec<String>,
    /// File to write; it must not exist yet (or be empty) unless `--force` is given.
    #[arg(long, value_name = "FILE")]
    pub output: String,
    /// Replace an existing output (which may also be one of the inputs).
    #[arg(long)]
    pub force: bool,
    /// Format of every input (default: each file's own, binary for `.bin`, text otherwise).
    #[arg(long, value_enum)]
    pub input_format: Option<Format>,
    /// Format of the output (default: binary for `.bin`, text otherwise).
    #[arg(long, value_enum)]
    pub output_format: Option<Format>,
}

/// Runs the command. Nothing is written unless every input converts.
pub fn run_convert(args: &ConvertArgs) -> Result<(), String> {
    let output = OutputPath::check(&args.output, "--output", Existing::replace_if(args.force))?;
    let format = args
        .output_format
        .unwrap_or_else(|| Format::of_path(Path::new(&args.output)));
    let mut writer = output.create()?;
    let mut bytes = Vec::new();
    let mut count = 0u64;
    let mut convert = || -> Result<(), String> {
        for input in &args.input {
            let mut index = 0u64;
            samples::for_each_record(Path::new(input), args.input_format, |record| {
                // The reader checks a binary record's bytes; a text line written from it must
                // also be a legal position, as a FEN is checked when read.
                record
                    .position()
                    .map_err(|e| format!("{input}: record {index}: {e}"))?;
                index += 1;
                bytes.clear();
                samples::encode(&record, format, &mut bytes);
                writer
                    .write_all(&bytes)
                    .map_err(|e| format!("cannot write {}: {e}", args.output))
            })?;
            count += index;
        }
        Ok(())
    };
    convert()?;
    if count == 0 {
        return Err(format!(
            "no positions in {}; nothing written",
            args.input.join(", ")
        ));
    }
    writer.commit()?;
    errln!(
        "convert: {} from {} to {} ({})",
        console::count(count, "position"),
        console::count(args.input.len() as u64, "file"),
        args.output,
        match format {
            Format::Text => "text",
            Format::Binary => "binary records",
        }
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;
    use crate::samples::{text_line, RECORD_BYTES};
    use crate::Position;

    fn convert(input: &Path, output: &Path) -> Result<(), String> {
        run_convert(&ConvertArgs {
            input: vec![input.to_str().unwrap().to_string()],
            output: output.to_str().unwrap().to_string(),
            force: false,
            input_format: None,
            output_format: None,
        })
    }

    #[test]
    fn text_to_binary_to_text_gives_the_same_lines() {
        let dir = std::env::temp_dir().join(format!("chariot-convert-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();

        // Positions of seeded random games, with scores and results of every kind.
        let mut rng = fastrand::Rng::with_seed(5);
        let mut lines = Vec::new();
        let mut pos = Position::startpos();
        while lines.len() < 300 {
            let moves = legal_moves(&pos);
            if moves.is_empty() || rng.u8(..) == 0 {
                pos = Position::startpos();
                continue;
            }
            lines.push(text_line(&pos, rng.i32(-2500..2500), rng.u8(0..3)));
            pos.make_move(moves.as_slice()[rng.usize(..moves.len())]);
        }
        let text = lines.join("\n") + "\n";
        let original = dir.join("positions.txt");
        std::fs::write(&original, &text).unwrap();

        let binary = dir.join("positions.bin");
        convert(&original, &binary).unwrap();
        let size = std::fs::metadata(&binary).unwrap().len();
        assert_eq!(size, (lines.len() * RECORD_BYTES) as u64);
        let back = dir.join("back.txt");
        convert(&binary, &back).unwrap();
        assert_eq!(std::fs::read_to_string(&back).unwrap(), text);

        let refused = convert(&original, &back).unwrap_err();
        assert!(refused.contains("exists"), "{refused}");
        assert_eq!(
            std::fs::read_to_string(&back).unwrap(),
            text,
            "an existing output is left alone"
        );

        // A bad input leaves no output behind.
        let broken = dir.join("broken.txt");
        std::fs::write(&broken, format!("{}\nnot a position\n", lines[0])).unwrap();
        let failed = dir.join("failed.bin");
        let error = convert(&broken, &failed).unwrap_err();
        assert!(error.contains("broken.txt:2"), "{error}");
        assert!(!failed.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
