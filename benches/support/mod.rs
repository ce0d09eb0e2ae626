//! Shared set-up for the benches and the profiling example. The data files and their parsers
//! live in `chariot::data`; everything timed is checked against `data/perft.txt`, so a fast
//! wrong answer fails instead of looking good.
#![allow(dead_code)]

use chariot::Position;

pub fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|err| panic!("bad FEN {fen:?}: {err}"))
}

pub mod network;
