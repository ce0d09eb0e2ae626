//! Chariot: a Xiangqi (Chinese chess) engine. The library holds the engine (board, rules,
//! evaluation, network, search, protocols, the commands a player uses, the browser server
//! behind the default `serve` feature) and, behind the default `tools` feature, the offline
//! tools (match runner, self-play data, tuning, the SPSA tuner, training, the win/draw/loss
//! fit, book building); `main.rs` is a thin front end.
//!
//! The engine never imports a tool: `cargo clippy --lib --no-default-features` builds it
//! without them (CI does), and `tests/layering.rs` holds every module to the layers below it.
#![deny(clippy::undocumented_unsafe_blocks)]

// The engine, from the bottom layer up (tests/layering.rs names the layers).
pub(crate) mod console;
pub mod data;
pub mod memory;

pub mod board;
pub mod notation;
pub mod rules;

pub mod eval;
pub mod nnue;

pub mod search;

pub mod book;
pub mod strength;
pub mod wdl;

pub mod protocol;

pub mod commands;
// `chariot serve`, behind its own default feature: a player's command with a web server's
// dependencies.
#[cfg(feature = "serve")]
pub mod serve;

pub mod cli;

// The offline tools.
#[cfg(feature = "tools")]
pub mod datagen;
#[cfg(feature = "tools")]
pub mod matchrun;
#[cfg(feature = "tools")]
pub(crate) mod output_file;
#[cfg(feature = "tools")]
pub mod samples;
#[cfg(feature = "tools")]
pub mod spsa;
#[cfg(feature = "tools")]
pub mod train;
#[cfg(feature = "tools")]
pub mod tune;

pub use board::{
    Bitboard, BoardObserver, Color, FenError, FenProblems, GenKind, Move, MoveList, Piece,
    PieceType, Position, Square,
};
