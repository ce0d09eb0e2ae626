//! The `spsa` feature: a search parameter set through its UCI option changes the search, and
//! every parameter is offered as an option. Its own test binary, so no other test's search
//! runs while a parameter is changed. `cargo test --features spsa --test spsa`.
#![cfg(feature = "spsa")]

use chariot::commands::bench::bench;
use chariot::protocol::{Outcome, Output, Session};

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
    for name in ["rfp_margin", "lmr_divisor", "lazy_eval_margin"] {
        let line = format!("option name {name} type spin");
        assert!(
            options.iter().any(|l| l.starts_with(&line)),
            "{name} not offered"
        );
    }
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
    uci(&mut session, "setoption name rfp_margin value 80");
    uci(&mut session, "setoption name lmr_divisor value 300");
    let gentler = bench(depth, |_, _, _| {}).nodes;
    uci(&mut session, "setoption name lmr_divisor value 220");
    let back = bench(depth, |_, _, _| {}).nodes;

    println!("bench {depth}: {before} nodes; rfp_margin 150: {wider}; lmr_divisor 300: {gentler}");
    assert_ne!(wider, before, "rfp_margin 150");
    assert_ne!(gentler, before, "lmr_divisor 300");
    assert_eq!(back, before, "the defaults again");
}
