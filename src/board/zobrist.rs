//! The Zobrist keys `build.rs` generated from a fixed seed: one per piece and square, one for
//! the side to move. The position's hash is the XOR of the keys of what is on the board.
#![allow(clippy::unreadable_literal)]

include!(concat!(env!("OUT_DIR"), "/zobrist.rs"));
