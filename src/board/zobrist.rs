//! The Zobrist keys `build.rs` generated from a fixed seed: one per piece and square, one for
//! the side to move. The position's hash is the XOR of the keys of what is on the board.
#![allow(clippy::unreadable_literal)]

include!(concat!(env!("OUT_DIR"), "/zobrist.rs"));

/// The piece keys by what a square holds ([`crate::board::types::Piece::content_index`]): a row
/// of zeros for an empty square, then `ZOBRIST_PIECE`'s rows. A move's hash is then the same
/// three reads whether it captures or not, without a branch on the target square.
pub static ZOBRIST_CONTENT: [[u64; 90]; 15] = {
    let mut table = [[0; 90]; 15];
    let mut piece = 0;
    while piece < 14 {
        table[piece + 1] = ZOBRIST_PIECE[piece];
        piece += 1;
    }
    table
};
