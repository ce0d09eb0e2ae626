//! Chariot: a Xiangqi (Chinese chess) engine. The library holds the board, move generation and
//! tools; `main.rs` is a thin command-line front end.
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod analyse;
pub mod attacks;
pub mod bench;
pub mod bitboard;
pub mod check_info;
pub mod cli;
pub mod datagen;
pub mod eval;
pub mod fen;
pub mod geometry;
pub mod matchrun;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tt;
pub mod tune;
pub mod types;

pub use bitboard::Bitboard;
pub use fen::{FenError, FenProblems};
pub use movegen::{GenKind, MoveList};
pub use position::{BoardObserver, Position};
pub use types::{Color, Move, Piece, PieceType, Square};
