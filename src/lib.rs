//! Chariot: a Xiangqi (Chinese chess) engine. The library holds the board, evaluation, search,
//! rules, protocols, match runner and command-line tools; `main.rs` is a thin front end.
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod board;
pub mod book;
pub mod cli;
pub mod commands;
pub(crate) mod console;
pub mod data;
pub mod datagen;
pub mod eval;
pub mod matchrun;
pub mod memory;
pub mod nnue;
pub mod notation;
pub(crate) mod output_file;
pub mod protocol;
pub mod rules;
pub mod samples;
pub mod search;
pub mod spsa;
#[cfg(feature = "serve")]
pub mod serve;
pub mod strength;
pub mod train;
pub mod tune;
pub mod wdl;

pub use board::{
    Bitboard, BoardObserver, Color, FenError, FenProblems, GenKind, Move, MoveList, Piece,
    PieceType, Position, Square,
};
