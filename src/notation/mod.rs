//! Reading positions and moves as other tools write them: PGN games, FEN/EPD opening lists and
//! WXF move text, and loading opening suites from them. ICCS move text itself stays in
//! `board::notation`, beside the position it is checked against.

pub mod openings;
pub mod pgn;
pub mod wxf;

pub use crate::board::notation::{format_move, parse_coords, parse_move, MoveError, RankBase};
