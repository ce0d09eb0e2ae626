//! The search's accumulators: one entry per ply on a stack. Making a move only records what it
//! changed; taking it back only steps down. An entry is brought up to date when its node is
//! evaluated, from the nearest entry below it that is, so nodes cut off before their evaluation
//! (by the table, by a cutoff in their parent) cost nothing. A side's general moving to another
//! bucket changes all its inputs: that view is rebuilt from the refresh cache instead.

use super::accumulator::{add_row, evaluate_halves, sub_row};
use super::features::{View, VIEWS};
use super::network::{Network, Row};
use crate::board::types::{Color, Piece, PieceType, Square};
use crate::board::Bitboard;
use crate::Position;

/// What a move did to the board.
#[derive(Clone, Copy, Debug)]
enum Change {
    Move {
        piece: Piece,
        from: Square,
        to: Square,
        captured: Option<Piece>,
    },
    /// Pieces came or went outside a move: the entry is rebuilt from the board.
    Unknown,
}

/// One ply's accumulators.
#[derive(Clone)]
#[repr(C, align(64))]
struct Entry {
    halves: [Row; 2],
    computed: [bool; 2],
    /// What led here from the entry below.
    change: Change,
}

/// The accumulators of the position searched and of every position on the way to it.
#[derive(Clone)]
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    top: usize,
    cache: RefreshCache,
}

impl AccumulatorStack {
    /// A stack whose bottom entry is `pos`, computed.
    pub fn new(net: &Network, pos: &Position) -> AccumulatorStack {
        let root = Entry {
            halves: [net.ft_bias; 2],
            computed: [false; 2],
            change: Change::Unknown,
        };
        let mut stack = AccumulatorStack {
            entries: vec![root; 64],
            top: 0,
            cache: RefreshCache::new(net),
        };
        stack.update(net, pos);
        stack
    }

    /// A move was made: `piece` went from `from` to `to`, taking `captured` there.
    #[inline(always)]
    pub fn push_move(&mut self, piece: Piece, from: Square, to: Square, captured: Option<Piece>) {
        self.push(Change::Move {
            piece,
            from,
            to,
            captured,
        });
    }

    #[inline(always)]
    fn push(&mut self, change: Change) {
        self.top += 1;
        if self.top == self.entries.len() {
            let copy = self.entries[0].clone();
            self.entries.push(copy);
        }
        let entry = &mut self.entries[self.top];
        entry.change = change;
        entry.computed = [false; 2];
    }

    /// The last move is taken back.
    #[inline(always)]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "accumulator stack: pop below the root");
        self.top -= 1;
    }

    /// The board changed in a way no move explains: the current entry is rebuilt when next
    /// evaluated.
    pub fn invalidate(&mut self) {
        let entry = &mut self.entries[self.top];
        entry.change = Change::Unknown;
        entry.computed = [false; 2];
    }

    /// The network's score of `pos`, the position the stack has followed, for its side to move.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        self.update(net, pos);
        let halves = &self.entries[self.top].halves;
        evaluate_halves(net, halves, pos.side_to_move(), pos.occupied().count())
    }

    /// Brings the current entry up to date for both views.
    #[inline]
    pub fn update(&mut self, net: &Network, pos: &Position) {
        for perspective in Color::BOTH {
            if !self.entries[self.top].computed[perspective.index()] {
                self.update_view(net, pos, perspective);
            }
        }
    }

    /// The current entry's halves (Red's, Black's), up to date (tests, the debug check).
    pub fn current(&mut self, net: &Network, pos: &Position) -> &[Row; 2] {
        self.update(net, pos);
        &self.entries[self.top].halves
    }

    fn update_view(&mut self, net: &Network, pos: &Position, perspective: Color) {
        let p = perspective.index();
        let our_king = Piece::new(perspective, PieceType::King);
        // The nearest entry below that is computed, unless a change on the way rebuilds the
        // view (our general changing bucket, or an unknown change).
        let mut base = None;
        let mut i = self.top;
        loop {
            match self.entries[i].change {
                Change::Unknown => break,
                Change::Move { piece, .. } if piece == our_king && super::KING_BUCKETS > 1 => break,
                Change::Move { .. } => {}
            }
            if i == 0 {
                break;
            }
            i -= 1;
            if self.entries[i].computed[p] {
                base = Some(i);
                break;
            }
        }
        let view = View::new(perspective, pos.king_square(perspective));
        let Some(base) = base else {
            let entry = &mut self.entries[self.top];
            self.cache.refresh(net, pos, view, &mut entry.halves[p]);
            entry.computed[p] = true;
            return;
        };
        for i in base + 1..=self.top {
            let (below, above) = self.entries.split_at_mut(i);
            let (from_row, entry) = (&below[i - 1].halves[p], &mut above[0]);
            let Change::Move {
                piece,
                from,
                to,
                captured,
            } = entry.change
            else {
                unreachable!("an unknown change stops the walk above");
            };
            let add = &net.ft_weights[view.feature(piece, to)];
            let sub = &net.ft_weights[view.feature(piece, from)];
            let half = &mut entry.halves[p];
            match captured {
                None => shift(from_row, half, add, sub),
                Some(victim) => {
                    let gone = &net.ft_weights[view.feature(victim, to)];
                    shift_capture(from_row, half, add, sub, gone);
                }
            }
            entry.computed[p] = true;
        }
    }
}

/// `out = base + add - sub`, in one pass.
#[inline(always)]
fn shift(base: &Row, out: &mut Row, add: &Row, sub: &Row) {
    for (((o, b), a), s) in out.0.iter_mut().zip(&base.0).zip(&add.0).zip(&sub.0) {
        *o = b.wrapping_add(*a).wrapping_sub(*s);
    }
}

/// `out = base + add - sub - gone`, in one pass.
#[inline(always)]
fn shift_capture(base: &Row, out: &mut Row, add: &Row, sub: &Row, gone: &Row) {
    let rows = out.0.iter_mut().zip(&base.0).zip(&add.0).zip(&sub.0);
    for ((((o, b), a), s), g) in rows.zip(&gone.0) {
        *o = b.wrapping_add(*a).wrapping_sub(*s).wrapping_sub(*g);
    }
}

/// For each side and view, the last accumulator built in it and the pieces it was built from:
/// a rebuild adds and subtracts only the pieces that differ ("Finny tables"), far fewer than
/// the thirty-odd of a rebuild from nothing.
#[derive(Clone)]
struct RefreshCache {
    slots: Box<[[Slot; VIEWS]; 2]>,
}

#[derive(Clone)]
#[repr(C, align(64))]
struct Slot {
    half: Row,
    pieces: [Bitboard; Piece::COUNT],
}

impl RefreshCache {
    fn new(net: &Network) -> RefreshCache {
        let empty = Slot {
            half: net.ft_bias,
            pieces: [Bitboard::EMPTY; Piece::COUNT],
        };
        RefreshCache {
            slots: Box::new(std::array::from_fn(|_| {
                std::array::from_fn(|_| empty.clone())
            })),
        }
    }

    /// `out` = `view`'s half of `pos`, by way of the slot's last one.
    fn refresh(&mut self, net: &Network, pos: &Position, view: View, out: &mut Row) {
        let slot = &mut self.slots[view.perspective().index()][view.slot()];
        for color in Color::BOTH {
            for kind in PieceType::ALL {
                let piece = Piece::new(color, kind);
                let now = pos.pieces(color, kind);
                let before = slot.pieces[piece.index()];
                for sq in before.and_not(now) {
                    sub_row(&mut slot.half, &net.ft_weights[view.feature(piece, sq)]);
                }
                for sq in now.and_not(before) {
                    add_row(&mut slot.half, &net.ft_weights[view.feature(piece, sq)]);
                }
                slot.pieces[piece.index()] = now;
            }
        }
        *out = slot.half;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;
    use crate::nnue::Accumulators;

    /// Random games walked down and back up, evaluating at random nodes only (as a search
    /// does): every evaluated entry equals a computation from scratch.
    #[test]
    fn lazy_updates_equal_a_computation_from_scratch() {
        let net = Network::random(11);
        let mut rng = fastrand::Rng::with_seed(5);
        let mut king_moves = 0;
        for _ in 0..30 {
            let mut pos = Position::startpos();
            let mut stack = AccumulatorStack::new(&net, &pos);
            let mut depth = 0;
            for _ in 0..400 {
                let moves = legal_moves(&pos);
                let back = depth > 0 && (moves.is_empty() || rng.u8(..3) == 0);
                if back {
                    pos.unmake_move();
                    stack.pop();
                    depth -= 1;
                } else if !moves.is_empty() {
                    let mv = moves.as_slice()[rng.usize(..moves.len())];
                    let piece = pos.piece_at(mv.from()).unwrap();
                    king_moves += (piece.kind() == PieceType::King) as usize;
                    stack.push_move(piece, mv.from(), mv.to(), pos.piece_at(mv.to()));
                    pos.make_move(mv);
                    depth += 1;
                }
                if rng.u8(..4) == 0 {
                    let want = Accumulators::new(&net, &pos);
                    assert_eq!(stack.current(&net, &pos), &want.halves, "{}", pos.to_fen());
                    let side = pos.side_to_move();
                    let pieces = pos.occupied().count();
                    assert_eq!(
                        stack.evaluate(&net, &pos),
                        want.evaluate(&net, side, pieces)
                    );
                }
            }
        }
        assert!(king_moves > 50, "too few general moves to test the refresh");
    }

    #[test]
    fn an_invalidated_entry_is_rebuilt_from_the_board() {
        let net = Network::random(3);
        let mut pos = Position::startpos();
        let mut stack = AccumulatorStack::new(&net, &pos);
        let mv = legal_moves(&pos).as_slice()[0];
        pos.make_move(mv);
        stack.invalidate();
        assert_eq!(
            stack.current(&net, &pos),
            &Accumulators::new(&net, &pos).halves
        );
    }
}
