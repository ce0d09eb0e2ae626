//! What the search learns about quiet moves while it runs: killers per ply, a butterfly
//! history per side, continuation histories (how a quiet did after the moves one and two
//! plies before it), the counter-move to the opponent's last move, and a capture history (how
//! captures by a piece onto a square of a kind of victim did).

use super::score::MAX_PLY;
use crate::board::types::{Color, Move, Piece, PieceType};

const HISTORY_MAX: i32 = 16_384;

/// A moved piece and where it went, as the continuation table numbers its rows and columns
/// ([`piece_square`]: the piece as held, one above its index, times 90 plus the destination,
/// so no one is taken off); the first 90 are never a move's.
const REPLIES: usize = (Piece::COUNT + 1) * 90;

/// The row read for a missing move (at the root, after a null move): never written (a move's
/// row, its [`piece_square`], is at least 90), so it scores every reply 0 and the lookups need
/// no branch.
const NO_MOVE_ROW: usize = 0;

/// The continuation rows of a node: the moves one and two plies back (piece and destination),
/// [`NO_MOVE_ROW`] where there is none.
#[derive(Clone, Copy)]
pub struct Continuations([usize; 2]);

impl Default for Continuations {
    fn default() -> Self {
        Continuations([NO_MOVE_ROW; 2])
    }
}

impl Continuations {
    /// The rows of the moves made one and two plies before the node.
    pub fn new(before: [Option<(Piece, Move)>; 2]) -> Continuations {
        Continuations(
            before.map(|moved| moved.map_or(NO_MOVE_ROW, |(piece, mv)| piece_square(piece, mv))),
        )
    }
}

/// A moved piece's row or column in the continuation table ([`REPLIES`]).
#[inline(always)]
fn piece_square(piece: Piece, mv: Move) -> usize {
    piece.held_index() * 90 + mv.to().index()
}

/// Moves `entry` toward `bonus`'s sign; the gravity term keeps it within ±HISTORY_MAX.
#[inline(always)]
fn nudge(entry: i32, bonus: i32) -> i32 {
    entry + bonus - entry * bonus.abs() / HISTORY_MAX
}

/// Butterfly entries per side, one per raw move ([`butterfly_index`]).
const BUTTERFLY_SLOTS: usize = 1 << 16;

/// A side's butterfly slot for a move: the move's raw bits, its two squares as they are packed
/// (to in the low seven bits, from above, so one square's moves sit together) and the top bit every move has, so a lookup needs
/// neither a multiplication by 90 nor a mask. The slots without the top bit are never read or
/// written: the table's lower half of each side stays untouched (and, allocated zeroed, never
/// takes memory).
#[inline(always)]
fn butterfly_index(side: Color, mv: Move) -> usize {
    side.index() * BUTTERFLY_SLOTS + usize::from(mv.raw())
}

pub struct History {
    butterfly: Box<[i16; 2 * BUTTERFLY_SLOTS]>,
    /// One table for both plies back: row the earlier move, column the reply (piece and
    /// destination), within ±HISTORY_MAX.
    continuation: Box<[[i16; REPLIES]; REPLIES]>,
    /// Per capturing piece, destination and victim kind, within ±HISTORY_MAX. Eight slots a
    /// destination (the eighth unused), so an entry's index is a shift, not a multiplication
    /// by seven.
    capture: Box<[[[i16; 8]; 90]; Piece::COUNT]>,
    /// The reply to a move, in the continuation table's rows ([`piece_square`]): a node finds
    /// it by the row it has for the move before it, and the missing move's row
    /// ([`NO_MOVE_ROW`]) is never written, so it holds no reply.
    counter: Box<[Option<Move>; REPLIES]>,
    pub killers: [[Option<Move>; 2]; MAX_PLY + 2],
}

static_assertions::const_assert!(HISTORY_MAX <= i16::MAX as i32);

impl Default for History {
    fn default() -> Self {
        History {
            // Not built on the stack: 512 KB.
            butterfly: vec![0; 2 * BUTTERFLY_SLOTS]
                .into_boxed_slice()
                .try_into()
                .expect("the butterfly table's length"),
            // Not built on the stack: 3.6 MB.
            continuation: vec![[0; REPLIES]; REPLIES]
                .into_boxed_slice()
                .try_into()
                .expect("the continuation table's length"),
            capture: Box::new([[[0; 8]; 90]; Piece::COUNT]),
            counter: Box::new([None; REPLIES]),
            killers: [[None; 2]; MAX_PLY + 2],
        }
    }
}

impl History {
    #[inline]
    pub fn score(&self, side: Color, mv: Move) -> i32 {
        i32::from(self.butterfly[butterfly_index(side, mv)])
    }

    /// A quiet move's ordering score: its butterfly history plus its continuation histories
    /// (within ±3·HISTORY_MAX).
    #[inline]
    pub fn quiet_score(
        &self,
        side: Color,
        piece: Piece,
        mv: Move,
        continuations: Continuations,
    ) -> i32 {
        let reply = piece_square(piece, mv);
        let [previous, before_previous] = continuations.0.map(|row| &self.continuation[row]);
        self.score(side, mv) + i32::from(previous[reply]) + i32::from(before_previous[reply])
    }

    /// How captures like this one (piece, destination, victim kind) have done.
    #[inline]
    pub fn capture_score(&self, piece: Piece, mv: Move, victim: PieceType) -> i32 {
        i32::from(self.capture[piece.index()][mv.to().index()][victim.index()])
    }

    /// Moves the capture history entry of a capture toward `bonus`'s sign.
    pub fn update_capture(&mut self, piece: Piece, mv: Move, victim: PieceType, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let entry = &mut self.capture[piece.index()][mv.to().index()][victim.index()];
        // Within ±HISTORY_MAX, so within i16.
        *entry = nudge(i32::from(*entry), bonus) as i16;
    }

    /// Moves the butterfly entry toward `bonus`'s sign.
    #[inline]
    pub fn update(&mut self, side: Color, mv: Move, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let entry = &mut self.butterfly[butterfly_index(side, mv)];
        // Within ±HISTORY_MAX, so within i16.
        *entry = nudge(i32::from(*entry), bonus) as i16;
    }

    /// Moves the butterfly and continuation entries of a quiet move toward `bonus`'s sign.
    #[inline]
    pub fn update_quiet(
        &mut self,
        side: Color,
        piece: Piece,
        mv: Move,
        continuations: Continuations,
        bonus: i32,
    ) {
        self.update(side, mv, bonus);
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let reply = piece_square(piece, mv);
        for row in continuations
            .0
            .into_iter()
            .filter(|&row| row != NO_MOVE_ROW)
        {
            let entry = &mut self.continuation[row][reply];
            // Within ±HISTORY_MAX, so within i16 (asserted above).
            *entry = nudge(i32::from(*entry), bonus) as i16;
        }
    }

    /// The histories kept for a new search from another root; killers are per ply from the
    /// root, so they start empty.
    pub fn for_new_search(mut self) -> History {
        self.killers = [[None; 2]; MAX_PLY + 2];
        self
    }

    #[cfg(test)]
    pub fn learnt_anything(&self) -> bool {
        self.butterfly.iter().any(|&h| h != 0)
            && self.continuation.iter().flatten().any(|&h| h != 0)
            && self.capture.iter().flatten().flatten().any(|&h| h != 0)
    }

    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
    }

    /// The remembered reply to the move before a node (the first of its `continuations`).
    #[inline]
    pub fn counter(&self, continuations: Continuations) -> Option<Move> {
        self.counter[continuations.0[0]]
    }

    /// Remembers `reply` as the reply to the move before a node with these `continuations`
    /// (none after a missing move).
    pub fn set_counter(&mut self, continuations: Continuations, reply: Move) {
        let row = continuations.0[0];
        if row != NO_MOVE_ROW {
            self.counter[row] = Some(reply);
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
        let after_pawn =
            Continuations::new([Some((Piece::new(Color::Black, PieceType::Pawn), mv)), None]);
        history.set_counter(after_pawn, mv);
        let kept = history.for_new_search();
        assert_eq!(kept.score(Color::Red, mv), 500);
        assert_eq!(kept.counter(after_pawn), Some(mv));
        assert_eq!(kept.counter(Continuations::default()), None);
        assert!(kept.killers.iter().flatten().all(Option::is_none));
    }

    #[test]
    fn capture_history_is_kept_per_piece_square_and_victim() {
        let mut history = History::default();
        let horse = Piece::new(Color::Red, PieceType::Horse);
        let mv = Move::new(Square::new(1), Square::new(20));
        history.update_capture(horse, mv, PieceType::Rook, 700);
        assert_eq!(history.capture_score(horse, mv, PieceType::Rook), 700);
        assert_eq!(history.capture_score(horse, mv, PieceType::Pawn), 0);
        let cannon = Piece::new(Color::Red, PieceType::Cannon);
        assert_eq!(history.capture_score(cannon, mv, PieceType::Rook), 0);
    }

    #[test]
    fn continuation_history_scores_a_reply_after_the_moves_it_followed() {
        let mut history = History::default();
        let pawn = Piece::new(Color::Black, PieceType::Pawn);
        let rook = Piece::new(Color::Red, PieceType::Rook);
        let earlier = Move::new(Square::new(60), Square::new(51));
        let reply = Move::new(Square::new(0), Square::new(9));
        let after = Continuations::new([Some((pawn, earlier)), None]);
        history.update_quiet(Color::Red, rook, reply, after, 800);
        // Butterfly and one continuation entry.
        assert_eq!(history.quiet_score(Color::Red, rook, reply, after), 1600);
        // After another move only the butterfly entry counts.
        let other = Continuations::new([Some((pawn, reply)), None]);
        assert_eq!(history.quiet_score(Color::Red, rook, reply, other), 800);
        // Two plies back the same row is read.
        let two_back = Continuations::new([None, Some((pawn, earlier))]);
        assert_eq!(history.quiet_score(Color::Red, rook, reply, two_back), 1600);
        for _ in 0..1000 {
            history.update_quiet(Color::Red, rook, reply, after, -HISTORY_MAX);
        }
        assert!(history.quiet_score(Color::Red, rook, reply, after) >= -2 * HISTORY_MAX);
    }
}
