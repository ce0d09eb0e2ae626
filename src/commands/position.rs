//! Where a command starts: the `--fen` and `--moves` arguments every command that looks at one
//! position shares (`perft`, `divide`, `analyse`, `eval`, `book probe`).

use crate::board::notation::position_from;
use crate::board::position::Position;
use crate::notation::parse_pgn_move;
use clap::Args;

/// A FEN (default: the start position) and moves played from it.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// Position to start from (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from that position first, in any notation `analyse` writes: ICCS with
    /// ranks 0-9 (h2e2), WXF (C2=5) or Chinese (炮二平五).
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
}

impl PositionArgs {
    /// The position these arguments name, or what is wrong with them.
    pub fn position(&self) -> Result<Position, String> {
        let read_move = |pos: &Position, text: &str| {
            parse_pgn_move(pos, text).map_err(|e| format!("--moves: {e}"))
        };
        position_from(
            self.fen.as_deref(),
            self.moves.iter().map(String::as_str),
            read_move,
        )
    }
}
