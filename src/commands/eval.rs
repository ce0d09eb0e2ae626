//! `chariot eval [--fen FEN]`: the board, every evaluation term for each side (middlegame,
//! endgame and blended), and the final score for the side to move.

use crate::board::position::Position;
use crate::eval::params::{PHASE_MAX, SCALE_NORMAL};
use crate::eval::score::Score;
use crate::eval::trace::Term;
use crate::eval::{blend, Evaluator};
use std::fmt::Write as _;

/// `chariot eval`: prints the report.
pub fn run_eval(pos: &Position) {
    print!("{}", report(pos));
}

/// The whole printout for one position.
pub fn report(pos: &Position) -> String {
    let trace = Evaluator::trace(pos);
    let phase = trace.phase;
    let mut out = String::new();
    let _ = writeln!(out, "{pos}");
    let _ = writeln!(out, "FEN: {}", pos.to_fen());
    let _ = writeln!(out, "Side to move: {:?}", pos.side_to_move());
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:<13}| {:>6} {:>6} {:>6} | {:>6} {:>6} {:>6} | {:>6} {:>6} {:>6}",
        "Term", "Red mg", "eg", "blend", "Blk mg", "eg", "blend", "Net mg", "eg", "blend"
    );
    let _ = writeln!(out, "{}", "-".repeat(13 + 3 * 23));
    let mut totals = [Score::ZERO; 2];
    for term in Term::ALL {
        let [red, black] = trace.terms[term as usize];
        totals[0] += red;
        totals[1] += black;
        row(&mut out, term.name(), red, black, phase);
    }
    let _ = writeln!(out, "{}", "-".repeat(13 + 3 * 23));
    row(&mut out, "Total", totals[0], totals[1], phase);
    let _ = writeln!(out);
    let blended = blend(trace.red, phase);
    let _ = writeln!(out, "Phase: {phase}/{PHASE_MAX} (middlegame share)");
    let _ = writeln!(out, "Blended for Red: {blended} cp");
    let _ = writeln!(out, "Draw scale: {}/{SCALE_NORMAL}", trace.scale);
    let _ = writeln!(
        out,
        "Final evaluation: {} cp (side to move)",
        trace.final_score
    );
    out
}

fn row(out: &mut String, name: &str, red: Score, black: Score, phase: i32) {
    let net = red - black;
    let cells = |s: Score| format!("{:>6} {:>6} {:>6}", s.mg(), s.eg(), blend(s, phase));
    let _ = writeln!(
        out,
        "{name:<13}| {} | {} | {}",
        cells(red),
        cells(black),
        cells(net)
    );
}
