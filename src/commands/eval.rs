//! `chariot eval [--fen FEN] [--eval-file FILE]`: the board, every classical evaluation term
//! for each side (middlegame, endgame and blended), the network's score with each piece's
//! contribution when a network is at hand, and the final score for the side to move.

use crate::board::position::Position;
use crate::console::out;
use crate::eval::params::{PHASE_MAX, SCALE_NORMAL};
use crate::eval::score::Score;
use crate::eval::trace::Term;
use crate::eval::{blend, Evaluator};
use crate::nnue::{Accumulators, Network};
use crate::{Color, PieceType, Square};
use std::fmt::Write as _;

/// `chariot eval`: prints the report, with the network of `eval_file` (default: the embedded
/// one, if the build has one).
pub fn run_eval(pos: &Position, eval_file: Option<&str>) -> Result<(), String> {
    let network = match eval_file {
        Some(path) => Some(Network::load(path).map_err(|e| e.0)?),
        None => Network::embedded(),
    };
    out!("{}", report_with(pos, network.as_ref()));
    Ok(())
}

/// The whole printout for one position; the network's part when `network` is given, and the
/// final line from the evaluation the engine uses by default (the network where `Use NNUE` is
/// on by default and one is given).
pub fn report_with(pos: &Position, network: Option<&Network>) -> String {
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
        "Classical evaluation: {} cp (side to move)",
        trace.final_score
    );
    let mut last = trace.final_score;
    if let Some(net) = network {
        let score = network_report(&mut out, pos, net);
        if crate::nnue::USE_BY_DEFAULT {
            last = score;
        }
    }
    let _ = writeln!(out, "Final evaluation: {last} cp (side to move)");
    out
}

/// The network's score, and each piece's part in it: the score for Red less the score for Red
/// with that piece taken off (kings stay). Returns the score for the side to move.
fn network_report(out: &mut String, pos: &Position, net: &Network) -> i32 {
    let us = pos.side_to_move();
    let pieces = || Square::all().filter_map(|sq| pos.piece_at(sq).map(|p| (p, sq)));
    let for_red = |missing: Option<Square>| {
        let kept: Vec<_> = pieces().filter(|&(_, sq)| Some(sq) != missing).collect();
        let acc = Accumulators::from_pieces(net, kept.iter().copied());
        let score = acc.evaluate(net, us, kept.len() as u32);
        if us == Color::Red {
            score
        } else {
            -score
        }
    };
    let whole = for_red(None);
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Network {}: each piece's contribution for Red (cp: the score less the score without it)",
        net.name
    );
    for rank in (0..10).rev() {
        let _ = write!(out, "{rank} ");
        for file in 0..9 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let cell = match pos.piece_at(sq) {
                None => "      .".to_string(),
                Some(p) if p.kind() == PieceType::King => format!("      {}", p.letter()),
                Some(p) => format!(" {}{:+5}", p.letter(), whole - for_red(Some(sq))),
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "        a      b      c      d      e      f      g      h      i"
    );
    let score = if us == Color::Red { whole } else { -whole };
    let _ = writeln!(out, "Network evaluation: {score} cp (side to move)");
    score
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
