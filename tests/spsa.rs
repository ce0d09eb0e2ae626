//! The `spsa` feature: a search parameter set through its UCI option changes the search, every
//! parameter is offered as an option, and `chariot spsa run` tunes such a build. Its own test
//! binary, so no other test's search runs while a parameter is changed. `cargo test --features
//! spsa --test spsa`.
#![cfg(feature = "spsa")]

use chariot::commands::bench::bench;
use chariot::protocol::{Outcome, Output, Session};
use std::process::Command;

fn uci(session: &mut Session, line: &str) {
    assert!(
        matches!(session.command(line), Outcome::Done),
        "refused: {line}"
    );
}

#[test]
fn a_parameter_set_by_uci_changes_bench() {
    let depth = 6;
    let before = bench(depth, |_, _, _| {}).nodes;

    let out = Output::capture();
    let mut session = Session::new(out.clone());
    uci(&mut session, "uci");
    let options = out.take();
    // Each option's advertised default, to set it back after a change.
    let default_of = |name: &str| -> i32 {
        let line = format!("option name {name} type spin default ");
        let offered = options.iter().find_map(|l| l.strip_prefix(line.as_str()));
        let offered = offered.unwrap_or_else(|| panic!("{name} not offered"));
        offered.split(' ').next().unwrap().parse().unwrap()
    };
    let rfp_margin = default_of("rfp_margin");
    let lmr_divisor = default_of("lmr_divisor");
    default_of("lazy_eval_margin");
    assert!(
        matches!(
            session.command("setoption name rfp_margin value 500"),
            Outcome::Rejected(_)
        ),
        "out of range accepted"
    );

    uci(&mut session, "setoption name rfp_margin value 150");
    let wider = bench(depth, |_, _, _| {}).nodes;
    // The late-move reductions are a table built from two parameters: setting one rebuilds it.
    uci(
        &mut session,
        &format!("setoption name rfp_margin value {rfp_margin}"),
    );
    uci(&mut session, "setoption name lmr_divisor value 300");
    let gentler = bench(depth, |_, _, _| {}).nodes;
    uci(
        &mut session,
        &format!("setoption name lmr_divisor value {lmr_divisor}"),
    );
    let back = bench(depth, |_, _, _| {}).nodes;

    println!("bench {depth}: {before} nodes; rfp_margin 150: {wider}; lmr_divisor 300: {gentler}");
    assert_ne!(wider, before, "rfp_margin 150");
    assert_ne!(gentler, before, "lmr_divisor 300");
    assert_eq!(back, before, "the defaults again");
}

#[test]
fn spsa_run_tunes_this_build() {
    let chariot = env!("CARGO_BIN_EXE_chariot");
    let state = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("self.state");
    let _ = std::fs::remove_file(&state);
    let output = Command::new(chariot)
        .args(["spsa", "run", "--engine", &format!("cmd={chariot}")])
        .args([
            "--nodes",
            "300",
            "--max-moves",
            "80",
            "--iterations",
            "2",
            "--seed",
            "1",
        ])
        .arg("--state")
        .arg(&state)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("SPSA done: 2 iterations and 4 games"),
        "{stdout}"
    );
    // No game lost to a crash, a refused option or a timeout.
    assert!(!stdout.contains("  iteration "), "{stdout}");
    // Every parameter `spsa params` lists (`name, int, value, min, max, step, lr`) comes out
    // as a params.rs line within its range.
    let params = Command::new(chariot)
        .args(["spsa", "params"])
        .output()
        .unwrap();
    let params = String::from_utf8_lossy(&params.stdout);
    assert!(params.lines().count() > 0, "{params}");
    for param in params.lines() {
        let fields: Vec<&str> = param.split(", ").collect();
        let (min, max): (i32, i32) = (fields[3].parse().unwrap(), fields[4].parse().unwrap());
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("    {}: ", fields[0])))
            .unwrap_or_else(|| panic!("no line for {}:\n{stdout}", fields[0]));
        let value: i32 = line
            .split([':', ','])
            .nth(1)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert!((min..=max).contains(&value), "{line}");
    }
}
