//! Static evaluation. The evaluator follows the board through [`BoardObserver`], keeping the
//! material sums incremental, and is asked for a score in centipawns for the side to move.
//!
//! This is the interface search builds on: `Evaluator::new(&pos)`, pass it to
//! `make_move_with`/`unmake_move_with`, call `evaluate(&pos)`.

use crate::position::{BoardObserver, Position};
use crate::types::{Color, Piece, PieceType, Square};

/// Placeholder material values until the full evaluation lands (issue 3).
const MATERIAL: [i32; 7] = [0, 200, 200, 400, 900, 450, 100];

#[derive(Clone, Debug)]
pub struct Evaluator {
    /// Material per colour.
    material: [i32; 2],
}

impl Evaluator {
    pub fn new(pos: &Position) -> Evaluator {
        let mut eval = Evaluator { material: [0; 2] };
        for sq in Square::all() {
            if let Some(piece) = pos.piece_at(sq) {
                eval.add_piece(piece, sq);
            }
        }
        eval
    }

    /// Score in centipawns from the side to move's point of view.
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let red = self.material[0] - self.material[1];
        match pos.side_to_move() {
            Color::Red => red,
            Color::Black => -red,
        }
    }
}

impl BoardObserver for Evaluator {
    #[inline]
    fn add_piece(&mut self, piece: Piece, _sq: Square) {
        self.material[piece.color().index()] += MATERIAL[piece.kind().index()];
    }

    #[inline]
    fn remove_piece(&mut self, piece: Piece, _sq: Square) {
        self.material[piece.color().index()] -= MATERIAL[piece.kind().index()];
    }

    #[inline]
    fn move_piece(&mut self, _piece: Piece, _from: Square, _to: Square) {}
}

#[allow(dead_code)]
fn value_of(kind: PieceType) -> i32 {
    MATERIAL[kind.index()]
}
