//! `chariot eval`: prints the term table and the final line; a bad FEN is an error, not a panic.

use std::process::Command;

fn chariot(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .output()
        .expect("the chariot binary runs")
}

#[test]
fn eval_prints_the_terms_and_the_final_score() {
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    let out = chariot(&["eval", "--fen", fen]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8 output");
    for term in [
        "Material/PST",
        "Flexibility",
        "Relations",
        "King safety",
        "Patterns",
        "Tempo",
        "Draw scale",
    ] {
        assert!(text.contains(term), "missing {term} in:\n{text}");
    }
    let pos = chariot::Position::from_fen(fen).unwrap();
    // The engine's default evaluation: the embedded network where the build has one.
    let network = chariot::nnue::default_network();
    let score = chariot::eval::Evaluator::with_network(&pos, Default::default(), network)
        .evaluate_uncached(&pos);
    let last = text.lines().last().expect("output");
    assert_eq!(last, format!("Final evaluation: {score} cp (side to move)"));
}

#[test]
fn eval_rejects_a_bad_fen() {
    let out = chariot(&["eval", "--fen", "rnbakabnr/9/9 w"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error"), "stderr: {err}");
    assert!(!err.contains("panicked"), "stderr: {err}");
}
