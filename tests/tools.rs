//! The offline tools (datagen, convert, train, tune, wdl, book build) as a user runs them:
//! they never replace or corrupt a file they were not asked to, their exit status says whether
//! their product was written, a closed standard output does not stop them, and a failed fit
//! is refused.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `chariot args` in `dir`.
fn chariot(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("the chariot binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts that `out` failed with one error line, no panic, and returns that line.
fn refused(args: &[&str], out: &Output) -> String {
    let stderr = text(&out.stderr);
    assert!(
        !out.status.success(),
        "{args:?} was accepted:\n{}{stderr}",
        text(&out.stdout)
    );
    assert_eq!(out.status.code(), Some(1), "{args:?}: {:?}", out.status);
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr:?}");
    stderr
}

fn succeeded(args: &[&str], out: &Output) {
    assert!(
        out.status.success(),
        "{args:?} failed: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// A fresh directory of the test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-tools-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `games` fast self-play games (classical evaluation, 300 nodes a move, one thread) in
/// `dir/name`; always the same positions for the same arguments.
fn datagen(dir: &Path, name: &str, games: u32) {
    let games = games.to_string();
    let args = [
        "datagen",
        "--output",
        name,
        "--games",
        &games,
        "--nodes",
        "300",
        "--classical",
        "--threads",
        "1",
    ];
    succeeded(&args, &chariot(dir, &args));
}

/// The names in `dir`, sorted (datagen's outputs have their manifest beside them).
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn datagen_adds_only_to_a_file_of_the_format_it_writes() {
    let dir = scratch("append-format");
    datagen(&dir, "d.bin", 2);
    let before = std::fs::read(dir.join("d.bin")).unwrap();
    let args = [
        "datagen", "--output", "d.bin", "--append", "--format", "text", "--games", "1", "--nodes",
        "300",
    ];
    let error = refused(&args, &chariot(&dir, &args));
    assert!(error.contains("d.bin"), "{error}");
    assert_eq!(std::fs::read(dir.join("d.bin")).unwrap(), before);

    // Text lines are not records either.
    datagen(&dir, "d.txt", 1);
    let lines = std::fs::read(dir.join("d.txt")).unwrap();
    let args = [
        "datagen", "--output", "d.txt", "--append", "--format", "binary", "--games", "1",
        "--nodes", "300",
    ];
    refused(&args, &chariot(&dir, &args));
    assert_eq!(std::fs::read(dir.join("d.txt")).unwrap(), lines);

    // A text file whose last line was cut short is not added to.
    std::fs::write(dir.join("cut.txt"), &lines[..lines.len() - 5]).unwrap();
    let args = [
        "datagen", "--output", "cut.txt", "--append", "--games", "1", "--nodes", "300",
    ];
    refused(&args, &chariot(&dir, &args));

    // Its own format is added to, after what was there.
    let args = [
        "datagen",
        "--output",
        "d.bin",
        "--append",
        "--games",
        "1",
        "--nodes",
        "300",
        "--classical",
    ];
    succeeded(&args, &chariot(&dir, &args));
    let after = std::fs::read(dir.join("d.bin")).unwrap();
    assert!(after.len() > before.len() && after.starts_with(&before));
    // The manifest says where each run's positions begin.
    let manifest = std::fs::read_to_string(dir.join("d.bin.manifest")).unwrap();
    let offsets: Vec<&str> = manifest
        .lines()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        offsets,
        ["offset=0".to_string(), format!("offset={}", before.len())]
    );
    assert_eq!(
        listing(&dir),
        [
            "cut.txt",
            "d.bin",
            "d.bin.manifest",
            "d.txt",
            "d.txt.manifest"
        ],
        "no file left behind"
    );

    // --force replaces it with the new games alone.
    let args = [
        "datagen",
        "--output",
        "d.bin",
        "--force",
        "--games",
        "1",
        "--nodes",
        "300",
        "--classical",
    ];
    succeeded(&args, &chariot(&dir, &args));
    let replaced = std::fs::read(dir.join("d.bin")).unwrap();
    assert!(replaced.len() < before.len() && before.starts_with(&replaced));
    // A replaced file starts its manifest afresh.
    let manifest = std::fs::read_to_string(dir.join("d.bin.manifest")).unwrap();
    assert_eq!(manifest.lines().count(), 1, "{manifest}");
    assert!(manifest.starts_with("offset=0 "), "{manifest}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_tool_replaces_an_existing_file_without_force() {
    let dir = scratch("no-overwrite");
    datagen(&dir, "d.bin", 40);
    let notes = "# my notes\n";
    let cases: [&[&str]; 6] = [
        &[
            "tune", "--data", "d.bin", "--epochs", "2", "--output", "notes.md",
        ],
        &[
            "train",
            "--data",
            "d.bin",
            "--epochs",
            "1",
            "--validation-every",
            "2",
            "--output",
            "notes.md",
        ],
        &["wdl", "--data", "d.bin", "--output", "notes.md"],
        &["convert", "--input", "d.bin", "--output", "notes.md"],
        &[
            "datagen", "--output", "notes.md", "--games", "1", "--nodes", "300",
        ],
        &["book", "build", "--pgn", "games.pgn", "--out", "notes.md"],
    ];
    std::fs::write(
        dir.join("games.pgn"),
        "[Event \"a\"]\n1. h2e2 h9g7 1-0\n\n[Event \"b\"]\n1. h2e2 h9g7 1-0\n",
    )
    .unwrap();
    for args in cases {
        std::fs::write(dir.join("notes.md"), notes).unwrap();
        let started = Instant::now();
        let out = chariot(&dir, args);
        let error = refused(args, &out);
        assert!(
            error.contains("notes.md") && error.contains("--force"),
            "{args:?}: {error}"
        );
        assert!(
            out.stdout.is_empty(),
            "{args:?} worked before it was refused: {}",
            text(&out.stdout)
        );
        assert!(started.elapsed() < Duration::from_secs(20), "{args:?}");
        assert_eq!(
            std::fs::read_to_string(dir.join("notes.md")).unwrap(),
            notes
        );
    }
    assert_eq!(
        listing(&dir),
        ["d.bin", "d.bin.manifest", "games.pgn", "notes.md"]
    );

    // With --force the file is replaced by the product.
    let args = [
        "tune", "--data", "d.bin", "--epochs", "2", "--output", "notes.md", "--force",
    ];
    succeeded(&args, &chariot(&dir, &args));
    let written = std::fs::read_to_string(dir.join("notes.md")).unwrap();
    assert!(written.contains("pub const"), "{written}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_output_that_cannot_be_written_is_refused_before_the_work() {
    let dir = scratch("no-directory");
    datagen(&dir, "d.bin", 2);
    let cases: [&[&str]; 6] = [
        // Outside a clone the default output's directory (src/eval) is missing.
        &["tune", "--data", "d.bin", "--epochs", "100000"],
        &[
            "train",
            "--data",
            "d.bin",
            "--epochs",
            "100000",
            "--validation-every",
            "2",
            "--output",
            "missing/net.nnue",
        ],
        &["wdl", "--data", "d.bin", "--output", "missing/w.rs"],
        &["convert", "--input", "d.bin", "--output", "missing/d.txt"],
        &[
            "datagen",
            "--output",
            "missing/d.bin",
            "--games",
            "1",
            "--nodes",
            "300",
        ],
        &["book", "build", "--pgn", "d.bin", "--out", "missing/b.book"],
    ];
    for args in cases {
        let out = chariot(&dir, args);
        let error = refused(args, &out);
        assert!(error.contains("no such directory"), "{args:?}: {error}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out.stdout));
    }
    // A directory is not a file to write.
    let args = ["convert", "--input", "d.bin", "--output", "."];
    let error = refused(&args, &chariot(&dir, &args));
    assert!(error.contains("directory"), "{error}");
    assert_eq!(listing(&dir), ["d.bin", "d.bin.manifest"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_says_wrote_only_what_it_wrote() {
    let dir = scratch("train-nothing");
    datagen(&dir, "d.bin", 2);
    let args = [
        "train",
        "--data",
        "d.bin",
        "--validation-every",
        "2",
        "--epochs",
        "0",
        "--output",
        "e0.nnue",
    ];
    let out = chariot(&dir, &args);
    let error = refused(&args, &out);
    assert!(error.contains("--epochs"), "{error}");
    assert!(
        !text(&out.stdout).contains("wrote"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(listing(&dir), ["d.bin", "d.bin.manifest"]);

    // Too few positions: the error says how many are needed.
    let args = [
        "train",
        "--data",
        "d.bin",
        "--validation-every",
        "100",
        "--epochs",
        "1",
        "--output",
        "few.nnue",
    ];
    let error = refused(&args, &chariot(&dir, &args));
    assert!(error.contains("at least"), "{error}");
    assert_eq!(listing(&dir), ["d.bin", "d.bin.manifest"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `train` on `d.bin` to `n.nnue` (checkpoint `n.ckpt`), a held-out block in every two, for
/// `epochs` at learning rate `lr`, resumed from the checkpoint when `resume`.
fn small_train_args<'a>(epochs: &'a str, lr: &'a str, resume: bool) -> Vec<&'a str> {
    let mut args = vec![
        "train",
        "--data",
        "d.bin",
        "--validation-every",
        "2",
        "--output",
        "n.nnue",
        "--epochs",
        epochs,
        "--lr",
        lr,
    ];
    if resume {
        args.extend(["--resume", "n.ckpt"]);
    }
    args
}

#[test]
fn a_resumed_train_goes_on_in_place_and_only_when_there_is_more_to_do() {
    let dir = scratch("train-resume");
    datagen(&dir, "d.bin", 40);
    let train = |epochs: &str, resume: bool| {
        let args = small_train_args(epochs, "0.001", resume);
        (chariot(&dir, &args), format!("{args:?}"))
    };
    let (out, args) = train("1", false);
    succeeded(&[&args], &out);
    // Again from scratch: the network of the first run is not replaced.
    let (out, args) = train("1", false);
    assert!(refused(&[&args], &out).contains("--force"));
    // Resumed from its own checkpoint, the run goes on in place.
    let (out, args) = train("2", true);
    succeeded(&[&args], &out);
    assert!(text(&out.stdout).contains("resumed n.ckpt after epoch 1"));
    let (out, args) = train("2", true);
    assert!(refused(&[&args], &out).contains("nothing to train"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run resumed in place replaces its network only with a better one: epochs at a rate that
/// wrecks the weights leave the first epoch's network as it was.
#[test]
fn a_resumed_train_keeps_its_better_network() {
    let dir = scratch("train-keep");
    datagen(&dir, "d.bin", 40);
    let train = |epochs: &str, lr: &str, resume: bool| {
        let args = small_train_args(epochs, lr, resume);
        let out = chariot(&dir, &args);
        succeeded(&[&format!("{args:?}")], &out);
        text(&out.stdout)
    };
    train("1", "0.001", false);
    let first = std::fs::read(dir.join("n.nnue")).unwrap();
    let stdout = train("3", "50", true);
    assert!(stdout.contains("n.nnue has held-out loss"), "{stdout}");
    assert!(stdout.contains("which is unchanged"), "{stdout}");
    assert!(std::fs::read(dir.join("n.nnue")).unwrap() == first);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `chariot args` in `dir` with its standard output closed as soon as it starts (as
/// `| head -0` would), and returns how it ended.
fn with_stdout_closed(dir: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the chariot binary starts");
    drop(child.stdout.take());
    child.wait_with_output().expect("the tool ends")
}

#[test]
fn a_closed_standard_output_does_not_stop_a_job_that_writes_a_file() {
    let dir = scratch("closed-stdout");
    datagen(&dir, "d.bin", 40);
    for (args, product) in [
        (
            &[
                "train",
                "--data",
                "d.bin",
                "--epochs",
                "2",
                "--validation-every",
                "2",
                "--output",
                "q.nnue",
            ][..],
            "q.nnue",
        ),
        (
            &[
                "tune", "--data", "d.bin", "--epochs", "2", "--output", "p2.rs",
            ][..],
            "p2.rs",
        ),
        (
            &[
                "book",
                "build",
                "--pgn",
                "g.pgn",
                "--out",
                "g.book",
                "--min-games",
                "1",
            ][..],
            "g.book",
        ),
    ] {
        std::fs::write(dir.join("g.pgn"), "[Event \"a\"]\n1. h2e2 h9g7 1-0\n").unwrap();
        let out = with_stdout_closed(&dir, args);
        succeeded(args, &out);
        assert!(dir.join(product).is_file(), "{args:?} wrote no {product}");
    }
    // The network written is whole.
    let args = ["eval", "--eval-file", "q.nnue"];
    succeeded(&args, &chariot(&dir, &args));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failed_win_draw_loss_fit_is_refused_and_not_written() {
    let dir = scratch("wdl-fit");
    // Few positions of weak games: the per-material fits run away.
    datagen(&dir, "d.bin", 40);
    let args = [
        "wdl",
        "--data",
        "d.bin",
        "--min-positions",
        "10",
        "--output",
        "w.rs",
    ];
    let out = chariot(&dir, &args);
    let error = refused(&args, &out);
    assert!(error.contains("fit"), "{error}");
    assert!(!dir.join("w.rs").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn counts_and_depths_that_ask_for_nothing_are_refused() {
    let dir = scratch("zero");
    datagen(&dir, "d.bin", 1);
    std::fs::write(dir.join("g.pgn"), "[Event \"a\"]\n1. h2e2 h9g7 1-0\n").unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["tune", "--data", "d.bin", "--threads", "0"], "--threads"),
        (
            &["datagen", "--output", "p.bin", "--positions", "0"],
            "--positions",
        ),
        (&["datagen", "--output", "p.bin", "--games", "0"], "--games"),
        (
            &[
                "book", "build", "--pgn", "g.pgn", "--out", "b.book", "--depth", "0",
            ],
            "--depth",
        ),
        (
            &[
                "book",
                "build",
                "--pgn",
                "g.pgn",
                "--out",
                "b.book",
                "--min-games",
                "5",
            ],
            "no move",
        ),
    ];
    for (args, needle) in cases {
        let error = refused(args, &chariot(&dir, args));
        assert!(error.contains(needle), "{args:?}: {error}");
    }
    assert_eq!(listing(&dir), ["d.bin", "d.bin.manifest", "g.pgn"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The temporary files a tool is writing in `dir` (hidden, `.NAME.*.tmp`).
fn temporaries(dir: &Path) -> Vec<String> {
    listing(dir)
        .into_iter()
        .filter(|n| n.starts_with('.') && n.ends_with(".tmp"))
        .collect()
}

/// Starts `chariot args` in `dir` and kills it (SIGKILL) once `ready` holds, or after
/// `limit`; returns whether `ready` held.
fn kill_when(dir: &Path, args: &[&str], limit: Duration, ready: impl Fn() -> bool) -> bool {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the chariot binary starts");
    let started = Instant::now();
    let mut caught = false;
    while started.elapsed() < limit {
        if ready() {
            caught = true;
            break;
        }
        if let Some(status) = child.try_wait().unwrap() {
            let mut stderr = String::new();
            let _ = child.stderr.take().unwrap().read_to_string(&mut stderr);
            panic!("{args:?} ended before it was killed: {status:?} {stderr}");
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    caught
}

#[test]
fn datagen_killed_while_writing_leaves_the_file_whole() {
    let dir = scratch("kill-datagen");
    datagen(&dir, "d.bin", 2);
    let before = std::fs::read(dir.join("d.bin")).unwrap();
    let record = 40;
    let mut rng = fastrand::Rng::with_seed(7);
    for round in 0..4 {
        // Saved every second, killed at a random moment: the file is what was there plus
        // whole records, never a record cut short.
        let args = [
            "datagen",
            "--output",
            "d.bin",
            "--append",
            "--games",
            "1000",
            "--nodes",
            "300",
            "--classical",
            "--threads",
            "1",
            "--save-every",
            "1",
        ];
        let wait = Duration::from_millis(rng.u64(200..2500));
        let started = Instant::now();
        kill_when(&dir, &args, wait + Duration::from_secs(5), || {
            started.elapsed() >= wait && !temporaries(&dir).is_empty()
        });
        let after = std::fs::read(dir.join("d.bin")).unwrap();
        assert!(
            after.starts_with(&before),
            "round {round}: the old records changed"
        );
        assert_eq!(after.len() % record, 0, "round {round}: a record cut short");
        let args = [
            "convert",
            "--input",
            "d.bin",
            "--output",
            "check.txt",
            "--force",
        ];
        succeeded(&args, &chariot(&dir, &args));
        for name in temporaries(&dir) {
            std::fs::remove_file(dir.join(name)).unwrap();
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_killed_while_writing_leaves_a_whole_network() {
    let dir = scratch("kill-train");
    datagen(&dir, "d.bin", 40);
    let train = |epochs: &'static str| {
        let mut args = small_train_args(epochs, "0.01", false);
        args.push("--force");
        args
    };
    let args = train("1");
    succeeded(&args, &chariot(&dir, &args));
    let checkpoint_len = std::fs::metadata(dir.join("n.ckpt")).unwrap().len();
    let mut caught = 0;
    for _ in 0..10 {
        let args = train("100000");
        // Killed the moment a temporary file shows: in the middle of writing.
        if kill_when(&dir, &args, Duration::from_secs(20), || {
            !temporaries(&dir).is_empty()
        }) {
            caught += 1;
        }
        let args = ["eval", "--eval-file", "n.nnue"];
        succeeded(&args, &chariot(&dir, &args));
        assert_eq!(
            std::fs::metadata(dir.join("n.ckpt")).unwrap().len(),
            checkpoint_len
        );
        for name in temporaries(&dir) {
            std::fs::remove_file(dir.join(name)).unwrap();
        }
        if caught >= 3 {
            break;
        }
    }
    assert!(caught >= 3, "the train runs were never caught writing");
    std::fs::remove_dir_all(&dir).unwrap();
}
