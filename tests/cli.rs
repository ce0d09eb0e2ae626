//! The command-line tools as a user meets them: a reader that stops reading early
//! (`chariot bench | head -3`) and arguments refused with one clear error.

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

/// Runs `chariot args`, reads `lines` lines of its output (none: the pipe is closed at once,
/// before the tool has written anything) and closes the pipe, as `head` does; returns how the
/// tool ended.
fn closed_after(args: &[&str], lines: usize) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the chariot binary starts");
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..lines {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a line of output");
        assert!(!line.is_empty(), "{args:?} ended before {lines} lines");
    }
    drop(reader);
    child.wait_with_output().expect("the tool ends")
}

fn assert_quiet_end(args: &[&str], out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{args:?} with its output closed: {stderr}"
    );
    assert!(
        out.status.success(),
        "{args:?} with its output closed ended with {:?}: {stderr}",
        out.status
    );
}

#[test]
fn a_reader_that_stops_early_ends_the_tools_quietly() {
    // Each writes again well after its first line (bench after each position's search,
    // analyse after each iteration), so the reader has gone by then.
    for (args, lines) in [
        (&["bench", "9"][..], 1),
        (&["analyse", "--movetime", "1500"][..], 3),
    ] {
        assert_quiet_end(args, &closed_after(args, lines));
    }
    // These compute before they write, so the pipe is closed before their first line.
    for args in [
        &["perft", "5"][..],
        &["divide", "4"][..],
        &["eval"][..],
        &["bench", "4"][..],
    ] {
        assert_quiet_end(args, &closed_after(args, 0));
    }
}

#[test]
fn analyse_and_bench_take_the_threads_the_option_allows() {
    for tool in [&["analyse", "--depth", "1"][..], &["bench", "1"][..]] {
        for threads in ["0", "257", "1000"] {
            let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
                .args(tool)
                .args(["--threads", threads])
                .output()
                .expect("the chariot binary runs");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                !out.status.success(),
                "{tool:?} --threads {threads} was accepted"
            );
            assert!(
                stderr.contains("1..=256") && stderr.lines().count() <= 4,
                "{tool:?} --threads {threads}: unclear error {stderr:?}"
            );
        }
    }
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["analyse", "--depth", "2", "--threads", "2"])
        .output()
        .expect("the chariot binary runs");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("best move"));
    // Bench on two threads reports the time to its depth before the usual last line, and says
    // when that depth is the main thread's.
    for (flag, time_line) in [
        (None, "2 threads: depth 3 in "),
        (
            Some("--main-thread"),
            "2 threads: depth 3 (main thread) in ",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
            .args(["bench", "3", "--threads", "2"])
            .args(flag)
            .output()
            .expect("the chariot binary runs");
        assert!(out.status.success());
        let stdout = String::from_utf8_lossy(&out.stdout);
        let last: Vec<&str> = stdout.lines().rev().take(2).collect();
        assert!(last[1].starts_with(time_line), "{stdout}");
        assert!(
            last[0].ends_with(" nps") && last[0].contains(" nodes "),
            "{stdout}"
        );
    }
}

/// `--help` tells a new user that a bare `chariot` is an engine speaking UCI or UCCI.
#[test]
fn help_says_a_bare_chariot_speaks_uci_or_ucci() {
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .arg("--help")
        .output()
        .expect("the chariot binary starts");
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("With no command, chariot speaks UCI or UCCI on standard input"),
        "{help}"
    );
}
