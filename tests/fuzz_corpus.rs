//! Replays the fuzz seed corpus (fuzz/corpus/<target>/) through the same checks the fuzz
//! targets run, so ordinary `cargo test` exercises the fuzz logic.

mod common;

use common::fuzz_checks::{eval_incremental, fen_parse, movegen_diff, position_from_bytes};
use std::path::PathBuf;

fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read corpus {}: {e}", dir.display()));
    let mut files: Vec<(String, Vec<u8>)> = entries
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read(&p).expect("corpus file readable"),
            )
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= 3,
        "corpus {} has only {} files",
        dir.display(),
        files.len()
    );
    files
}

#[test]
fn movegen_diff_corpus() {
    let files = corpus("movegen_diff");
    for (name, bytes) in &files {
        eprintln!("replaying {name}");
        movegen_diff(bytes);
    }
    // The corpus must reach the position builder, not only the fixed starts.
    let built = files.iter().filter(|(_, b)| {
        b.first().is_some_and(|m| m & 1 == 1) && position_from_bytes(&b[1..]).is_some()
    });
    assert!(built.count() >= 1, "no movegen_diff seed builds a position");
}

#[test]
fn fen_parse_corpus() {
    for (name, bytes) in corpus("fen_parse") {
        eprintln!("replaying {name}");
        fen_parse(&bytes);
    }
}

#[test]
fn eval_incremental_corpus() {
    for (name, bytes) in corpus("eval_incremental") {
        eprintln!("replaying {name}");
        eval_incremental(&bytes);
    }
}
