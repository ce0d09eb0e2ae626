//! The board: square geometry, pieces and moves, bitboards, the generated attack tables and
//! Zobrist keys, the position with make/unmake, FEN and move notation, legal move generation
//! and check information. It imports neither the evaluation nor the search: the evaluator
//! follows it through the `BoardObserver` hook.

pub mod attacks;
pub mod bitboard;
pub mod check_info;
pub mod fen;
pub mod geometry;
pub mod movegen;
pub mod notation;
pub mod position;
pub(crate) mod tables;
pub mod types;
mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, FenProblems};
pub use movegen::{GenKind, MoveList};
pub use position::{BoardObserver, Position};
pub use types::{Color, Move, Piece, PieceType, Square};
