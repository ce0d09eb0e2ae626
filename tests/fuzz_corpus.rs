//! Replays the fuzz seed corpus (fuzz/corpus/<target>/) through the same checks the fuzz
//! targets run, so ordinary `cargo test` exercises the fuzz logic.

mod common;

use common::fuzz_checks::{eval_incremental, fen_parse, movegen_diff, position_from_bytes};
use common::protocol_fuzz::protocol;
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

/// Seeded random walks with the network, checked at about one node in four: the lazy updates
/// over several plies and take-backs that a corpus of a few files may not reach.
#[test]
fn eval_incremental_random_walks_with_the_network() {
    let mut rng = fastrand::Rng::with_seed(17);
    for _ in 0..200 {
        let mut bytes = vec![0x80 | rng.u8(..)];
        bytes.extend((0..300).map(|_| {
            let byte = rng.u8(..0x40) | if rng.u8(..4) == 0 { 0x40 } else { 0 };
            // About one byte in four takes a move back.
            if rng.u8(..4) == 0 {
                byte | 0x80
            } else {
                byte
            }
        }));
        eval_incremental(&bytes);
    }
}

#[test]
fn protocol_corpus() {
    let (mut rejected, mut searches, mut infos) = (0, 0, 0);
    for (name, bytes) in corpus("protocol") {
        // A hang is a failure too: each input runs on its own thread with a deadline.
        let (done, finished) = std::sync::mpsc::channel();
        let worker = std::thread::spawn(move || {
            let summary = protocol(&bytes);
            let _ = done.send(summary);
        });
        match finished.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(summary) => {
                eprintln!("{name}: {summary:?}");
                rejected += summary.rejected;
                searches += summary.searches;
                infos += summary.infos;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                // The check panicked: rethrow its message.
                if let Err(panic) = worker.join() {
                    std::panic::resume_unwind(panic);
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => panic!("{name} hung"),
        }
    }
    // The seeds must reach every check: refusals, searches and their output.
    assert!(
        rejected >= 20 && searches >= 10 && infos >= 10,
        "{rejected} rejected, {searches} searches, {infos} info lines"
    );
}
