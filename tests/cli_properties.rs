//! Every command run with random wrong arguments (a seeded mix of unknown flags, values out of
//! range or of the wrong kind, missing or foreign files, outputs that exist or cannot be
//! made): none panics, each says one line on standard error and ends with a non-zero status,
//! and no file changes, since none of them was asked to write anything it could write.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A command line that works, and the ways to make it wrong: each is a list of words that
/// replace the value of a flag (or, for a flag of their own, are added).
struct Tool {
    valid: &'static [&'static str],
    wrong: &'static [(&'static str, &'static [&'static str])],
}

/// `(flag, wrong values)`: the flag with one of the values is wrong whatever else is given.
/// An empty flag adds the value on its own (an unknown flag, a stray word).
const COMMANDS: &[Tool] = &[
    Tool {
        valid: &["perft", "2"],
        wrong: &[
            ("", &["--bogus", "x", "-1"]),
            (
                "--fen",
                &["", "rnbakabnr/9 w", "9/9/9/9/9/9/9/9/9/9 w - - 0 1"],
            ),
            ("--moves", &["h2h8", "zz", "a0a0"]),
        ],
    },
    Tool {
        valid: &["divide", "1"],
        wrong: &[
            ("", &["--depth", "--threads"]),
            ("--fen", &["banana"]),
            ("--moves", &["h2e2 h2e2", "C2=9"]),
        ],
    },
    Tool {
        valid: &["eval"],
        wrong: &[
            ("--eval-file", &["missing.nnue", "notes.md", "d.bin", "."]),
            ("--fen", &["x y z"]),
            ("", &["--classical"]),
        ],
    },
    Tool {
        valid: &["bench", "1"],
        wrong: &[
            ("--threads", &["0", "257", "two", "-1"]),
            ("--eval-file", &["missing.nnue", "notes.md"]),
            ("", &["--bogus", "deep"]),
        ],
    },
    Tool {
        valid: &["analyse", "--depth", "1"],
        wrong: &[
            ("--movetime", &["-5", "soon"]),
            ("--depth", &["deep", "-"]),
            ("--threads", &["0", "300"]),
            ("--notation", &["klingon", ""]),
            ("--fen", &["9/9/9 w"]),
        ],
    },
    Tool {
        valid: &[
            "datagen", "--output", "new.bin", "--games", "1", "--nodes", "50",
        ],
        wrong: &[
            ("--nodes", &["0", "-5", "many"]),
            ("--threads", &["0", "257", "x"]),
            ("--depth", &["0", "65", "-1"]),
            ("--hash", &["0", "5000"]),
            ("--games", &["0", "x"]),
            ("--positions", &["0", "-1"]),
            ("--shard", &["0/8", "9/8", "x", "1/0"]),
            ("--format", &["csv"]),
            ("--seed", &["-1", "x"]),
            ("--random-plies", &["-1", "x"]),
            ("--openings", &["missing.fen", "d.bin"]),
            ("--eval-file", &["missing.nnue", "notes.md"]),
            ("--output", &["missing/new.bin", ".", "notes.md", ""]),
            ("--save-every", &["0", "x"]),
        ],
    },
    Tool {
        valid: &["convert", "--input", "d.bin", "--output", "new.txt"],
        wrong: &[
            ("--input", &["missing.bin", "notes.md", "."]),
            ("--output", &["notes.md", "missing/x.txt", "."]),
            ("--input-format", &["csv"]),
            ("--output-format", &["xml"]),
        ],
    },
    Tool {
        valid: &[
            "train",
            "--data",
            "d.bin",
            "--epochs",
            "1",
            "--validation-every",
            "2",
            "--output",
            "new.nnue",
        ],
        wrong: &[
            ("--data", &["missing.bin", "notes.md", "."]),
            ("--output", &["notes.md", "missing/n.nnue", "."]),
            ("--checkpoint", &["notes.md", "missing/n.ckpt"]),
            ("--resume", &["missing.ckpt", "notes.md"]),
            ("--epochs", &["0", "-1", "x"]),
            ("--batch", &["0", "x"]),
            ("--lr", &["-1", "nan", "inf", "x"]),
            ("--lr-gamma", &["-0.5", "nan"]),
            ("--lambda", &["2", "-0.1", "nan"]),
            ("--k", &["-1", "0", "nan"]),
            ("--validation-every", &["0", "1"]),
            ("--threads", &["0", "257"]),
            ("--limit", &["0", "-3"]),
            ("--mirror", &["maybe"]),
        ],
    },
    Tool {
        valid: &[
            "tune", "--data", "d.bin", "--epochs", "1", "--output", "new.rs",
        ],
        wrong: &[
            ("--data", &["missing.bin", "notes.md"]),
            ("--output", &["notes.md", "missing/p.rs", "."]),
            ("--epochs", &["0", "-2", "x"]),
            ("--lr", &["0", "-1", "nan"]),
            ("--lambda", &["1.5", "nan"]),
            ("--k", &["0", "-1", "inf"]),
            ("--threads", &["0", "257", "x"]),
            ("--l2", &["-1", "nan"]),
            ("--max-positions", &["0", "x"]),
        ],
    },
    Tool {
        valid: &["wdl", "--data", "d.bin", "--output", "new.rs"],
        wrong: &[
            ("--data", &["missing.bin", "notes.md"]),
            ("--output", &["notes.md", "missing/w.rs", "."]),
            ("--min-positions", &["0", "-1", "x"]),
            ("--max-score", &["0", "-100", "x"]),
        ],
    },
    Tool {
        valid: &[
            "book",
            "build",
            "--pgn",
            "g.pgn",
            "--out",
            "new.book",
            "--min-games",
            "1",
        ],
        wrong: &[
            ("--pgn", &["missing.pgn", "d.bin", "."]),
            ("--out", &["notes.md", "missing/b.book", ".", "g.pgn"]),
            ("--depth", &["0", "-1", "x"]),
            ("--min-games", &["0", "x", "99"]),
        ],
    },
    Tool {
        valid: &["book", "probe", "b.book"],
        wrong: &[
            ("", &["missing.book", "notes.md", "d.bin"]),
            ("--fen", &["nope"]),
            ("--moves", &["e9e8"]),
        ],
    },
    Tool {
        valid: &[
            "match",
            "--engine",
            "cmd=/no/such/engine",
            "--engine",
            "cmd=/no/such/engine",
            "--depth",
            "1",
        ],
        wrong: &[
            ("--games", &["0", "x"]),
            ("--concurrency", &["0", "x"]),
            ("--tc", &["x", "-1", "10+x"]),
            ("--st", &["0", "x"]),
            ("--pgn", &["missing/g.pgn", "notes.md", "."]),
            ("--report", &["missing/r.html", "notes.md", "."]),
            ("--openings", &["missing.fen", "order=sideways"]),
            ("--sprt", &["elo0=x", "alpha=2"]),
            ("", &["-bogus", "--bogus"]),
        ],
    },
];

/// Every file of `dir` (not below it) with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

fn run(dir: &Path, args: &[String]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("the chariot binary runs")
}

/// The files the wrong command lines meet: positions, a PGN, a book, and a file of the user's.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-cli-properties-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.md"), "# notes of my own\n").unwrap();
    std::fs::write(
        dir.join("g.pgn"),
        "[Event \"a\"]\n1. h2e2 h9g7 2. h0g2 i9h9 1-0\n\n[Event \"b\"]\n1. h2e2 h9g7 0-1\n",
    )
    .unwrap();
    let setup: [&[&str]; 2] = [
        &[
            "datagen",
            "--output",
            "d.bin",
            "--games",
            "1",
            "--nodes",
            "100",
            "--classical",
            "--threads",
            "1",
        ],
        &[
            "book",
            "build",
            "--pgn",
            "g.pgn",
            "--out",
            "b.book",
            "--min-games",
            "1",
        ],
    ];
    for args in setup {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let out = run(&dir, &args);
        assert!(out.status.success(), "{args:?}: {out:?}");
    }
    dir
}

/// `valid` with the value of `flag` replaced by `value` (or the flag added with it, or, for
/// no flag, `value` added as a word of its own).
fn mutate(args: &mut Vec<String>, flag: &str, value: &str) {
    if flag.is_empty() {
        args.push(value.to_string());
        return;
    }
    match args.iter().position(|a| a == flag) {
        Some(i) if i + 1 < args.len() && !args[i + 1].starts_with("--") => {
            args[i + 1] = value.to_string()
        }
        _ => args.extend([flag.to_string(), value.to_string()]),
    }
}

#[test]
fn wrong_arguments_give_one_line_a_failure_and_change_no_file() {
    let dir = scratch();
    let files = snapshot(&dir);
    let mut rng = fastrand::Rng::with_seed(66);
    for case in 0..400 {
        let command = &COMMANDS[rng.usize(..COMMANDS.len())];
        let mut args: Vec<String> = command.valid.iter().map(|s| s.to_string()).collect();
        // One to three wrong things at once.
        for _ in 0..rng.usize(1..=3) {
            let (flag, values) = command.wrong[rng.usize(..command.wrong.len())];
            mutate(&mut args, flag, values[rng.usize(..values.len())]);
        }
        let out = run(&dir, &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        assert!(
            code.is_some_and(|c| c != 0),
            "case {case}: {args:?} ended with {:?}: {stderr}",
            out.status
        );
        assert!(
            !stderr.contains("panicked"),
            "case {case}: {args:?}: {stderr}"
        );
        assert_eq!(
            stderr.lines().count(),
            1,
            "case {case}: {args:?} said:\n{stderr}"
        );
        assert!(
            stderr.starts_with("error: "),
            "case {case}: {args:?}: {stderr}"
        );
        assert!(
            snapshot(&dir) == files,
            "case {case}: {args:?} changed the files: {:?}",
            snapshot(&dir).keys().collect::<Vec<_>>()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
