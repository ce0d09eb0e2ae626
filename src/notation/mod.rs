//! Reading positions and moves as other tools write them: PGN games, FEN/EPD opening lists,
//! WXF and Chinese move text, and loading opening suites from them; writing moves for people in
//! WXF and Chinese. ICCS move text itself stays in `board::notation`, beside the position it is
//! checked against.

pub mod chinese;
pub mod openings;
pub mod pgn;
pub mod wxf;

pub use crate::board::notation::{format_move, parse_coords, parse_move, MoveError, RankBase};
pub use chinese::{format_chinese, parse_chinese};
pub use pgn::parse_pgn_move;
pub use wxf::{format_wxf, parse_wxf};

use crate::board::movegen::legal_moves;
use crate::{Move, Position};

/// The notations Chariot writes moves in. [`parse_pgn_move`] reads all three.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Notation {
    /// Coordinates with ranks 0-9: `h2e2`.
    #[default]
    Iccs,
    /// The World Xiangqi Federation's: `C2=5`.
    Wxf,
    /// Chinese: `炮二平五`.
    Chinese,
}

impl Notation {
    /// `mv`, legal in `pos`, as text.
    pub fn format(self, pos: &Position, mv: Move) -> String {
        match self {
            Notation::Iccs => mv.to_string(),
            Notation::Wxf => format_wxf(pos, mv),
            Notation::Chinese => format_chinese(pos, mv),
        }
    }

    /// A line of moves played from `pos`, each written in the position it is played in; the
    /// line stops before a move that is not legal where it comes.
    pub fn format_line(self, pos: &Position, moves: &[Move]) -> Vec<String> {
        let mut pos = pos.clone();
        let mut texts = Vec::with_capacity(moves.len());
        for &mv in moves {
            if !legal_moves(&pos).contains(mv) {
                break;
            }
            texts.push(self.format(&pos, mv));
            pos.make_move(mv);
        }
        texts
    }

    /// The PGN `Format` tag's value for this notation (xqbase's names).
    pub fn pgn_format(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
        }
    }
}
