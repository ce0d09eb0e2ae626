//! `chariot spsa run` end to end against the scripted engine (tests/support/fake_engine.rs
//! with `--peak 70`, whose play is best with its option `strength` at 70): SPSA carries the
//! option there from 40; a run killed mid-way and resumed ends exactly as one left alone; an
//! engine that does not offer what is tuned is refused before any game.

mod common;

use common::fake_engine::fake_engine;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const CHARIOT: &str = env!("CARGO_BIN_EXE_chariot");
const PEAK: f64 = 70.0;

/// A fresh path in the tests' scratch directory.
fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn params_file(name: &str, text: &str) -> PathBuf {
    let path = scratch(name);
    std::fs::write(&path, text).unwrap();
    path
}

const PARAMS: &str = "strength, int, 40, 0, 100, 8, 0.1\ninert, int, 50, 0, 100, 8, 0.1\n";

/// Tunes the fake engine's `strength` (from 40) and `inert` (which changes nothing), or the
/// `params` given; `options` are more words for the engine. Its moves depend on the position
/// and its options alone (`--stateless`), the tuner's draws on `--seed`: a run is repeatable.
fn tuner(state: &Path, iterations: u32, params: &str, options: &[&str]) -> Command {
    let name = state.file_name().unwrap().to_str().unwrap();
    let params = params_file(&format!("{name}.params"), params);
    let mut command = Command::new(CHARIOT);
    command
        .args(["spsa", "run", "--engine"])
        .arg(format!("cmd={}", fake_engine()))
        .args([
            "arg=--peak",
            "arg=70",
            "arg=--stateless",
            "arg=--seed",
            "arg=3",
        ])
        .args(options)
        .args(["--nodes", "1", "--max-moves", "150", "--seed", "9"])
        .arg("--iterations")
        .arg(iterations.to_string())
        .arg("--params")
        .arg(params)
        .arg("--state")
        .arg(state);
    command
}

fn resume(state: &Path) -> Output {
    let mut command = Command::new(CHARIOT);
    command.args(["spsa", "run", "--resume"]).arg(state);
    command.output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn succeeded(output: &Output) -> String {
    let stdout = text(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        text(&output.stderr)
    );
    stdout
}

/// A number of the checkpoint: the iteration, or a parameter's current value.
fn checkpoint_value(state: &Path, key: &str) -> Option<f64> {
    let text = std::fs::read_to_string(state).ok()?;
    text.lines().find_map(|line| {
        let rest = line.strip_prefix(key)?.strip_prefix(' ')?;
        rest.split(' ').next()?.parse().ok()
    })
}

/// The checkpoint without the time played, which differs from run to run.
fn checkpoint_without_time(state: &Path) -> String {
    let text = std::fs::read_to_string(state).unwrap();
    text.lines()
        .filter(|l| !l.starts_with("seconds "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn spsa_carries_a_parameter_to_where_the_engine_plays_best() {
    let state = scratch("peak.state");
    let stdout = succeeded(&tuner(&state, 60, PARAMS, &[]).output().unwrap());
    let strength = checkpoint_value(&state, "param strength").unwrap();
    assert!(
        (strength - PEAK).abs() <= 10.0,
        "strength ended at {strength}, not near {PEAK}:\n{stdout}"
    );
    assert_eq!(checkpoint_value(&state, "iteration"), Some(60.0));
    let progress = stdout.lines().filter(|l| l.starts_with('[')).count();
    assert_eq!(progress, 60, "{stdout}");
    // The result as params.rs declares its parameters.
    let line = format!("    strength: {}, 0..=100, 8;", strength.round());
    assert!(stdout.contains(&line), "no '{line}' in\n{stdout}");
}

#[test]
fn a_run_killed_mid_way_and_resumed_ends_as_one_left_alone() {
    let iterations = 40;
    let whole = scratch("whole.state");
    succeeded(&tuner(&whole, iterations, PARAMS, &[]).output().unwrap());

    let cut = scratch("cut.state");
    let mut child = tuner(&cut, iterations, PARAMS, &[])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while checkpoint_value(&cut, "iteration").unwrap_or(0.0) < 8.0 {
        assert!(Instant::now() < deadline, "no progress in the checkpoint");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let reached = checkpoint_value(&cut, "iteration").unwrap();
    assert!(
        reached < iterations as f64,
        "the run finished before it was killed"
    );

    // A new run refuses to replace the checkpoint.
    let again = tuner(&cut, iterations, PARAMS, &[]).output().unwrap();
    assert!(!again.status.success());
    assert!(
        text(&again.stderr).contains("--resume"),
        "{}",
        text(&again.stderr)
    );

    let stdout = succeeded(&resume(&cut));
    assert!(
        stdout.contains(&format!("Resumed after iteration {reached}")),
        "{stdout}"
    );
    let progress = stdout.lines().filter(|l| l.starts_with('[')).count();
    assert_eq!(progress as f64, iterations as f64 - reached, "{stdout}");
    assert_eq!(
        checkpoint_without_time(&cut),
        checkpoint_without_time(&whole)
    );

    // A finished run resumed plays nothing and prints its result again.
    let stdout = succeeded(&resume(&whole));
    assert!(stdout.contains("SPSA done: 40 iterations"), "{stdout}");
    assert!(!stdout.lines().any(|l| l.starts_with('[')), "{stdout}");
}

#[test]
fn an_engine_that_does_not_offer_the_parameters_is_refused_before_any_game() {
    let refused = |command: &mut Command, expected: &str, state: &Path| {
        let output = command.output().unwrap();
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
        assert!(!state.exists(), "a refused run wrote {}", state.display());
    };
    // Without --peak the fake engine offers no options at all.
    let state = scratch("plain.state");
    let mut plain = Command::new(CHARIOT);
    plain
        .args(["spsa", "run", "--engine"])
        .arg(format!("cmd={}", fake_engine()))
        .args(["--nodes", "1", "--iterations", "5", "--tune", "rfp_margin"])
        .arg("--state")
        .arg(&state);
    refused(&mut plain, "offers no option rfp_margin", &state);

    let state = scratch("wide.state");
    let mut wide = tuner(&state, 5, "strength,40,0,200,8,0.1\n", &[]);
    refused(&mut wide, "takes strength in 0..100", &state);

    let state = scratch("fixed.state");
    let mut fixed = tuner(&state, 5, PARAMS, &["option.strength=50"]);
    refused(&mut fixed, "option.strength= fixes a parameter", &state);
}

/// A normal build offers no search parameter as an option: tuning it is refused with the way
/// to build one that does.
#[cfg(not(feature = "spsa"))]
#[test]
fn a_build_without_the_spsa_feature_is_refused() {
    let state = scratch("normal.state");
    let output = Command::new(CHARIOT)
        .args(["spsa", "run", "--engine"])
        .arg(format!("cmd={CHARIOT}"))
        .args(["--nodes", "100", "--iterations", "1", "--state"])
        .arg(&state)
        .output()
        .unwrap();
    let stderr = text(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("--features spsa"), "{stderr}");
}
