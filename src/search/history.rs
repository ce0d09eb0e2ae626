//! What the search learns about quiet moves while it runs: killers per ply, a butterfly
//! history per side, and the counter-move to the opponent's last move.

use super::score::MAX_PLY;
use crate::board::types::{Color, Move, Piece};

const HISTORY_MAX: i32 = 16_384;

pub struct History {
    butterfly: Box<[[[i32; 90]; 90]; 2]>,
    counter: Box<[[Option<Move>; 90]; Piece::COUNT]>,
    pub killers: [[Option<Move>; 2]; MAX_PLY + 2],
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 90]; 90]; 2]),
            counter: Box::new([[None; 90]; Piece::COUNT]),
            killers: [[None; 2]; MAX_PLY + 2],
        }
    }
}

impl History {
    #[inline]
    pub fn score(&self, side: Color, mv: Move) -> i32 {
        self.butterfly[side.index()][mv.from().index()][mv.to().index()]
    }

    /// Moves the entry toward `bonus`'s sign; the gravity term keeps it within ±HISTORY_MAX.
    #[inline]
    pub fn update(&mut self, side: Color, mv: Move, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let entry = &mut self.butterfly[side.index()][mv.from().index()][mv.to().index()];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// The histories kept for a new search from another root; killers are per ply from the
    /// root, so they start empty.
    pub fn for_new_search(mut self) -> History {
        self.killers = [[None; 2]; MAX_PLY + 2];
        self
    }

    #[cfg(test)]
    pub fn learnt_anything(&self) -> bool {
        self.butterfly.iter().flatten().flatten().any(|&h| h != 0)
    }

    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
    }

    /// The remembered reply to `previous` (the piece now standing on its destination).
    #[inline]
    pub fn counter(&self, previous: Option<(Piece, Move)>) -> Option<Move> {
        previous.and_then(|(piece, mv)| self.counter[piece.index()][mv.to().index()])
    }

    pub fn set_counter(&mut self, previous: Option<(Piece, Move)>, reply: Move) {
        if let Some((piece, mv)) = previous {
            self.counter[piece.index()][mv.to().index()] = Some(reply);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::types::{PieceType, Square};

    #[test]
    fn a_new_search_keeps_the_histories_and_drops_the_killers() {
        let mut history = History::default();
        let mv = Move::new(Square::new(1), Square::new(20));
        history.update(Color::Red, mv, 500);
        history.add_killer(3, mv);
        history.set_counter(Some((Piece::new(Color::Black, PieceType::Pawn), mv)), mv);
        let kept = history.for_new_search();
        assert_eq!(kept.score(Color::Red, mv), 500);
        assert_eq!(
            kept.counter(Some((Piece::new(Color::Black, PieceType::Pawn), mv))),
            Some(mv)
        );
        assert!(kept.killers.iter().flatten().all(Option::is_none));
    }
}
