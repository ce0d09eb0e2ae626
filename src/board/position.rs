//! The board state: piece placement, side to move, Zobrist hash and the history that
//! make/unmake walk. It knows nothing of evaluation; an observer can follow piece changes.

use crate::board::attacks::*;
use crate::board::bitboard::Bitboard;
use crate::board::movegen::Safety;
use crate::board::notation::{Diagram, RankBase};
use crate::board::types::{Color, Move, Piece, PieceType, Square};
use crate::board::zobrist::{ZOBRIST_CONTENT, ZOBRIST_PIECE, ZOBRIST_SIDE};

/// Follows every change of piece placement made by [`Position::make_move_with`] and
/// [`Position::unmake_move_with`], so an evaluator can update itself incrementally.
pub trait BoardObserver {
    fn add_piece(&mut self, piece: Piece, sq: Square);
    fn remove_piece(&mut self, piece: Piece, sq: Square);
    fn move_piece(&mut self, piece: Piece, from: Square, to: Square) {
        self.remove_piece(piece, from);
        self.add_piece(piece, to);
    }
    /// A move was made: `piece` went from `from` to `to`, taking `captured` there. By default
    /// the pieces' comings and goings one by one; an observer that keeps a state per ply (the
    /// network's accumulators) takes the move whole.
    #[inline(always)]
    fn make_move(&mut self, piece: Piece, from: Square, to: Square, captured: Option<Piece>) {
        if let Some(victim) = captured {
            self.remove_piece(victim, to);
        }
        self.move_piece(piece, from, to);
    }
    /// The move [`BoardObserver::make_move`] saw is taken back.
    #[inline(always)]
    fn unmake_move(&mut self, piece: Piece, from: Square, to: Square, captured: Option<Piece>) {
        self.move_piece(piece, to, from);
        if let Some(victim) = captured {
            self.add_piece(victim, to);
        }
    }
}

/// The observer that watches nothing (perft, legality checks).
impl BoardObserver for () {
    #[inline(always)]
    fn add_piece(&mut self, _: Piece, _: Square) {}
    #[inline(always)]
    fn remove_piece(&mut self, _: Piece, _: Square) {}
    #[inline(always)]
    fn move_piece(&mut self, _: Piece, _: Square, _: Square) {}
}

/// What a move destroyed, so it can be taken back; also the game record for repetition rules.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// `None` for a null move.
    pub mv: Option<Move>,
    pub captured: Option<Piece>,
    /// Hash of the position before the move.
    pub hash: u64,
    /// Plies without capture before the move.
    pub rule60: u16,
    /// Checkers of the side to move before the move.
    pub checkers: Bitboard,
}

#[derive(Clone)]
pub struct Position {
    pub(crate) board: [Option<Piece>; 90],
    pub(crate) pieces: [Bitboard; Piece::COUNT],
    pub(crate) colors: [Bitboard; 2],
    pub(crate) occupied: Bitboard,
    pub(crate) side: Color,
    pub(crate) hash: u64,
    /// Plies since the last capture (the FEN half-move clock).
    pub(crate) rule60: u16,
    pub(crate) fullmove: u16,
    /// Enemy pieces checking the side to move: found once per move in `make_move_with`, since
    /// search, move generation and legality tests all ask for it.
    pub(crate) checkers: Bitboard,
    /// Each colour's king square, kept by the placement functions (the search asks for it
    /// more often than a king moves).
    kings: [Square; 2],
    pub(crate) history: Vec<Undo>,
}

impl Position {
    pub const START_FEN: &'static str =
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    pub fn startpos() -> Position {
        Position::from_fen(Self::START_FEN).expect("the start position is valid")
    }

    pub(crate) fn empty() -> Position {
        Position {
            board: [None; 90],
            pieces: [Bitboard::EMPTY; Piece::COUNT],
            colors: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
            side: Color::Red,
            hash: 0,
            rule60: 0,
            fullmove: 1,
            checkers: Bitboard::EMPTY,
            kings: [Square::new(0); 2],
            history: Vec::with_capacity(256),
        }
    }

    /// A copy whose history keeps only the last `keep` moves (all of them if fewer), for
    /// trying or replaying moves on the side: `clone` would copy the whole game's record,
    /// which in a long game costs more than the moves tried. Its `history` and `game_ply`
    /// see only the moves kept.
    pub fn clone_with_recent(&self, keep: usize) -> Position {
        let recent = &self.history[self.history.len().saturating_sub(keep)..];
        // Room for a few moves, so the first one made does not grow the record again.
        let mut history = Vec::with_capacity(recent.len() + 4);
        history.extend_from_slice(recent);
        // Every other field is a plain value, copied as it is.
        Position { history, ..*self }
    }

    // ---- queries -------------------------------------------------------------------------

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceType) -> Bitboard {
        self.pieces[Piece::new(color, kind).index()]
    }

    /// Every kind's pieces of `color`, indexed by kind: for a loop over kinds whose colour is
    /// only known at run time, one row found once instead of an offset per kind.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color) -> &[Bitboard; 7] {
        let (red, black) = self.pieces.split_at(7);
        let row = match color {
            Color::Red => red,
            Color::Black => black,
        };
        row.try_into().expect("seven kinds a colour")
    }

    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        debug_assert_eq!(
            self.kings[color.index()],
            self.pieces(color, PieceType::King).lsb()
        );
        self.kings[color.index()]
    }

    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash `make_move(mv)` would give, for a move of a piece standing on its `from` (any
    /// other move gives some number, never a panic). The search prefetches the child's hash
    /// entry with it before making the move.
    #[inline(always)]
    pub fn hash_after(&self, mv: Move) -> u64 {
        let (from, to) = (mv.from(), mv.to());
        // By the squares' contents, an empty one reading zeros: a capture and a quiet move take
        // the same reads, with no branch on whether the target square holds a piece.
        let mover = &ZOBRIST_CONTENT[Piece::content_index(self.board[from.index()])];
        let victim = &ZOBRIST_CONTENT[Piece::content_index(self.board[to.index()])];
        self.hash ^ ZOBRIST_SIDE ^ mover[from.index()] ^ mover[to.index()] ^ victim[to.index()]
    }

    /// Plies since the last capture; 120 ends the game in a draw.
    #[inline(always)]
    pub fn rule60_count(&self) -> u16 {
        self.rule60
    }

    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// Moves made since the position was set up, oldest first.
    pub fn history(&self) -> &[Undo] {
        &self.history
    }

    /// Number of plies made on this position object since it was set up.
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// Pieces of `by` that attack the king square `ksq` given occupancy `occ`, with `by`'s
    /// pieces on `captured` left out (so a capture can be simulated). Advisors and elephants
    /// can never reach an enemy king; kings attack each other only by facing on a file.
    #[inline(always)]
    fn king_attackers_with(
        &self,
        ksq: Square,
        occ: Bitboard,
        by: Color,
        captured: Bitboard,
    ) -> Bitboard {
        // `and_not` rather than `&` with a complement: with nothing captured the compiler
        // drops it, where `& !EMPTY` kept a mask of the board's 90 bits.
        // Only pieces on the king's lines or horse squares can attack it: when none stands
        // there the slider and horse lookups are skipped.
        // The three sets share one cache line of the square's record.
        let near = near_sets(ksq);
        let lines = near.lines();
        let rooks = (self.pieces(by, PieceType::Rook) | self.pieces(by, PieceType::King))
            .and_not(captured)
            & lines;
        let cannons = self.pieces(by, PieceType::Cannon).and_not(captured) & lines;
        let horses = self.pieces(by, PieceType::Horse).and_not(captured) & near.horse();
        let pawns = self.pieces(by, PieceType::Pawn).and_not(captured);
        let mut attackers = near.pawn(by) & pawns;
        // The few sliders on the king's lines are tested by the pieces between (none for a
        // rook or the facing king, one for a cannon) rather than by occupancy lookups.
        for slider in rooks | cannons {
            let screens = (between(ksq, slider) & occ).count();
            if screens == cannons.has(slider) as u32 {
                attackers |= Bitboard::from_square(slider);
            }
        }
        if horses.any() {
            attackers |= horse_attackers(ksq, occ) & horses;
        }
        attackers
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// The checkers found from the placement (for set-up, and to verify the stored ones).
    fn compute_checkers(&self) -> Bitboard {
        self.checkers_of(self.side)
    }

    /// The enemy pieces attacking `us`'s king (`make_move` calls it with a constant colour).
    #[inline(always)]
    fn checkers_of(&self, us: Color) -> Bitboard {
        self.king_attackers_with(self.king_square(us), self.occupied, !us, Bitboard::EMPTY)
    }

    /// Sets the stored checkers once a set-up position has both kings.
    pub(crate) fn refresh_checkers(&mut self) {
        self.checkers = self.compute_checkers();
    }

    /// Is `color`'s king attacked in the current placement?
    pub fn king_attacked(&self, color: Color) -> bool {
        self.king_attackers_with(
            self.king_square(color),
            self.occupied,
            !color,
            Bitboard::EMPTY,
        )
        .any()
    }

    /// Would the side to move's king be safe after moving its piece from `from` to `to`?
    /// Exact for any pseudo-legal move: it replays the move on the occupancy.
    #[inline(never)]
    pub fn king_safe_after(&self, from: Square, to: Square) -> bool {
        // One copy per side: each reads the pieces at fixed offsets.
        match self.side {
            Color::Red => self.king_safe_after_for(Color::Red, from, to),
            Color::Black => self.king_safe_after_for(Color::Black, from, to),
        }
    }

    /// Is `to` safe for `us`'s king stepping there (a king move of the side to move)? The
    /// test of [`Position::king_safe_after`] for king moves, inlined into move generation,
    /// which tests every king move.
    #[inline(always)]
    pub(crate) fn king_step_safe(&self, us: Color, to: Square) -> bool {
        self.king_step_safe_taking(us, to, Bitboard::from_square(to))
    }

    /// [`Position::king_step_safe`] for a step to an empty square: no enemy piece is taken,
    /// so none needs leaving out of the attackers.
    #[inline(always)]
    pub(crate) fn king_step_safe_quiet(&self, us: Color, to: Square) -> bool {
        debug_assert!(self.piece_at(to).is_none());
        self.king_step_safe_taking(us, to, Bitboard::EMPTY)
    }

    /// Is the side to move's king step to the empty square `to` legal? For the king steps the
    /// generator leaves untested ([`generate_quiets`]), tested when the move picker reaches
    /// them. Out of line: most nodes end before their king steps.
    ///
    /// [`generate_quiets`]: crate::board::movegen::generate_quiets
    #[inline(never)]
    pub fn is_legal_king_step(&self, to: Square) -> bool {
        match self.side {
            Color::Red => self.king_step_safe_quiet(Color::Red, to),
            Color::Black => self.king_step_safe_quiet(Color::Black, to),
        }
    }

    /// Is `to` safe for `us`'s king stepping there, the enemy pieces on `captured` left out?
    #[inline(always)]
    fn king_step_safe_taking(&self, us: Color, to: Square, captured: Bitboard) -> bool {
        let occ = self.occupied.without(self.king_square(us)).with(to);
        self.king_attackers_with(to, occ, !us, captured).is_empty()
    }

    /// [`Position::king_safe_after`] with `us` the side to move.
    #[inline(always)]
    fn king_safe_after_for(&self, us: Color, from: Square, to: Square) -> bool {
        let them = !us;
        let to_bb = Bitboard::from_square(to);
        let occ = (self.occupied.without(from)) | to_bb;
        let king = self.king_square(us);
        if king == from {
            return self.king_step_safe(us, to);
        }
        if self.checkers.any() {
            return self.king_attackers_with(king, occ, them, to_bb).is_empty();
        }
        // Nothing attacked the king before and the enemy can only have lost a piece, so a new
        // attack needs a line opened at `from` (rooks, the facing king, a cannon's second
        // screen), a cannon screen arriving on `to`, or a horse leg freed at `from`. Pawns
        // ignore occupancy.
        let lines = lines_through(king);
        // The sliders on the king's lines (a captured one on `to` aside) are tested by the
        // pieces between, as in `king_attackers_with`.
        let sees_king =
            |slider: Square, screens: u32| (between(king, slider) & occ).count() == screens;
        if lines.has(from) {
            let rooks = self.pieces(them, PieceType::Rook) | self.pieces(them, PieceType::King);
            if (rooks & lines)
                .without(to)
                .into_iter()
                .any(|r| sees_king(r, 0))
            {
                return false;
            }
        }
        if lines.has(from) || lines.has(to) {
            let cannons = (self.pieces(them, PieceType::Cannon) & lines).without(to);
            if cannons.into_iter().any(|c| sees_king(c, 1)) {
                return false;
            }
        }
        if diagonal_neighbours(king).has(from) {
            let horses = self.pieces(them, PieceType::Horse);
            if (horse_attackers(king, occ) & horses).without(to).any() {
                return false;
            }
        }
        true
    }

    /// Does the (legal) move give check to the opponent?
    pub fn gives_check(&self, mv: Move) -> bool {
        // One copy per side: each reads the pieces at fixed offsets.
        match self.side {
            Color::Red => self.gives_check_for(Color::Red, mv),
            Color::Black => self.gives_check_for(Color::Black, mv),
        }
    }

    /// [`Position::gives_check`] with `us` the side to move.
    #[inline(always)]
    fn gives_check_for(&self, us: Color, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        let them = !us;
        let ksq = self.king_square(them);
        let region = check_region(ksq);
        if !region.has(from) && !region.has(to) {
            return false;
        }
        let occ = self.occupied.without(from) | Bitboard::from_square(to);
        // Our pieces after the move: the mover's set loses `from` and gains `to` (empty or
        // an enemy's), so both bits flip.
        let mut rooks = self.pieces(us, PieceType::Rook) | self.pieces(us, PieceType::King);
        let mut cannons = self.pieces(us, PieceType::Cannon);
        let mut horses = self.pieces(us, PieceType::Horse);
        let mut pawns = self.pieces(us, PieceType::Pawn);
        let flip = Bitboard::from_square(from) | Bitboard::from_square(to);
        match piece.kind() {
            PieceType::Rook | PieceType::King => rooks ^= flip,
            PieceType::Cannon => cannons ^= flip,
            PieceType::Horse => horses ^= flip,
            PieceType::Pawn => pawns ^= flip,
            PieceType::Advisor | PieceType::Elephant => {}
        }
        // As in `king_attackers_with`, a lookup is made only when a piece stands where it
        // could attack the king from.
        let near = near_sets(ksq);
        let lines = near.lines();
        let rooks = rooks & lines;
        let cannons = cannons & lines;
        let horses = horses & near.horse();
        // Sliders on the king's lines by the pieces between, as in `king_attackers_with`.
        let sees_king =
            |slider: Square, screens: u32| (between(ksq, slider) & occ).count() == screens;
        (near.pawn(us) & pawns).any()
            || rooks.into_iter().any(|r| sees_king(r, 0))
            || cannons.into_iter().any(|c| sees_king(c, 1))
            || (horses.any() && (horse_attackers(ksq, occ) & horses).any())
    }

    /// Is the move (from any source: GUI, TT, killer) legal here? Checks the piece can make
    /// it on this board, then that it does not leave the king exposed; no list is generated.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.is_pseudo_legal(mv) && self.king_safe_after(mv.from(), mv.to())
    }

    /// Can a piece of the side to move make `mv` on this board, its king's safety aside?
    #[inline(always)]
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        let us = self.side;
        if piece.color() != us || self.colors[us.index()].has(to) {
            return false;
        }
        self.reaches(piece, from, to)
    }

    /// Can `piece`, standing on `from`, get to `to` (not a square of its own side's) on this
    /// board, its king's safety aside?
    #[inline(always)]
    fn reaches(&self, piece: Piece, from: Square, to: Square) -> bool {
        let occ = self.occupied;
        match piece.kind() {
            // Sliders from the squares between, without the occupancy lookups: a rook (and a
            // cannon moving quietly) needs none in the way, a capturing cannon exactly one.
            kind @ (PieceType::Rook | PieceType::Cannon) => {
                let screens = (kind == PieceType::Cannon && occ.has(to)) as u32;
                lines_through(from).has(to) && (between(from, to) & occ).count() == screens
            }
            _ => piece_attacks(piece, from, occ).has(to),
        }
    }

    /// Is `mv` a legal move to an empty square here? For moves found at other nodes (killers,
    /// counter-moves), most of which are told by their two squares alone: the arrival taken,
    /// or no piece of ours to move. `safety` is this position's ([`generate_captures`]), which
    /// settles the king's safety of most moves without the exact test.
    ///
    /// [`generate_captures`]: crate::board::movegen::generate_captures
    #[inline(always)]
    pub fn is_legal_quiet(&self, mv: Move, safety: &Safety) -> bool {
        if self.piece_at(mv.to()).is_some() {
            return false;
        }
        match self.piece_at(mv.from()) {
            Some(piece) if piece.color() == self.side => {
                self.quiet_move_is_legal(piece, mv, safety)
            }
            _ => false,
        }
    }

    /// [`Position::is_legal_quiet`] past the squares' test, for `piece` (ours, on the move's
    /// departure square; the arrival square is empty): can it get there, and is the king safe
    /// after? Out of line: most calls end at the squares' test.
    #[inline(never)]
    fn quiet_move_is_legal(&self, piece: Piece, mv: Move, safety: &Safety) -> bool {
        let (from, to) = (mv.from(), mv.to());
        self.reaches(piece, from, to) && safety.allows(self, from, to)
    }

    // ---- piece placement -----------------------------------------------------------------

    #[inline(always)]
    pub(crate) fn put_piece(&mut self, piece: Piece, sq: Square) {
        if piece.kind() == PieceType::King {
            self.kings[piece.color().index()] = sq;
        }
        self.place(piece.color(), piece, sq);
        self.hash ^= ZOBRIST_PIECE[piece.index()][sq.index()];
    }

    // make/unmake name the piece's colour (a constant in each side's copy) rather than take it
    // from the piece: the mover is used as the board holds it, not rebuilt from its kind, and
    // the king test is one comparison with a constant.

    /// `put_piece` without the hash (unmake restores the hash whole), nor the king's square:
    /// unmake puts back only taken pieces, never a king.
    #[inline(always)]
    fn place(&mut self, color: Color, piece: Piece, sq: Square) {
        debug_assert_eq!(piece.color(), color);
        let bb = Bitboard::from_square(sq);
        self.board[sq.index()] = Some(piece);
        self.pieces[piece.index()] |= bb;
        self.colors[color.index()] |= bb;
        self.occupied |= bb;
    }

    /// Takes `piece` off `sq`, without the hash (make sets the new hash whole).
    #[inline(always)]
    fn remove_piece(&mut self, color: Color, piece: Piece, sq: Square) {
        debug_assert_eq!(piece.color(), color);
        let bb = Bitboard::from_square(sq);
        self.board[sq.index()] = None;
        self.pieces[piece.index()] ^= bb;
        self.colors[color.index()] ^= bb;
        self.occupied ^= bb;
    }

    /// Moves `piece` from `from` to `to`, without the hash (make sets the new hash whole,
    /// unmake restores it).
    #[inline(always)]
    fn shift(&mut self, color: Color, piece: Piece, from: Square, to: Square) {
        debug_assert_eq!(piece.color(), color);
        if piece == Piece::new(color, PieceType::King) {
            self.kings[color.index()] = to;
        }
        let bb = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        self.pieces[piece.index()] ^= bb;
        self.colors[color.index()] ^= bb;
        self.occupied ^= bb;
    }

    // ---- make / unmake -------------------------------------------------------------------

    #[inline]
    pub fn make_move(&mut self, mv: Move) {
        self.make_move_with(mv, &mut ());
    }

    #[inline]
    pub fn unmake_move(&mut self) {
        self.unmake_move_with(&mut ());
    }

    /// Plays a legal move, telling `observer` which pieces moved or left the board.
    #[inline]
    pub fn make_move_with<O: BoardObserver>(&mut self, mv: Move, observer: &mut O) {
        let piece = self.board[mv.from().index()].expect("make_move: no piece on the from-square");
        let captured = self.board[mv.to().index()];
        let hash = self.hash_after(mv);
        // One copy per side: the mover's colour and the king to test become constants.
        match self.side {
            Color::Red => self.make_move_for(Color::Red, mv, piece, captured, hash, observer),
            Color::Black => self.make_move_for(Color::Black, mv, piece, captured, hash, observer),
        }
    }

    /// [`Position::make_move_with`] given the pieces on the move's squares (`captured` on `to`)
    /// and the hash the move leads to, [`Position::hash_after`]: the search has read the pieces
    /// (to record the move and tell a capture) and worked out the hash (to prefetch the child's
    /// entries), so none is found twice. Crate-only: wrong ones would go unnoticed in a release
    /// build.
    #[inline]
    pub(crate) fn make_move_hashed<O: BoardObserver>(
        &mut self,
        mv: Move,
        piece: Piece,
        captured: Option<Piece>,
        hash: u64,
        observer: &mut O,
    ) {
        debug_assert_eq!(Some(piece), self.piece_at(mv.from()));
        debug_assert_eq!(captured, self.piece_at(mv.to()));
        debug_assert_eq!(hash, self.hash_after(mv));
        match self.side {
            Color::Red => self.make_move_for(Color::Red, mv, piece, captured, hash, observer),
            Color::Black => self.make_move_for(Color::Black, mv, piece, captured, hash, observer),
        }
    }

    /// [`Position::make_move_with`] with `us` the side to move, `piece` the mover, `captured`
    /// what stands on `to` and `hash` the new position's ([`Position::hash_after`], the one rule
    /// for it): set whole, not updated piece by piece.
    #[inline(always)]
    fn make_move_for<O: BoardObserver>(
        &mut self,
        us: Color,
        mv: Move,
        piece: Piece,
        captured: Option<Piece>,
        hash: u64,
        observer: &mut O,
    ) {
        let (from, to) = (mv.from(), mv.to());
        // A legal move's mover is ours, and what it takes theirs (never a king).
        debug_assert_eq!(piece.color(), us);
        // The clock as read for the record: after the push (a store through the history's
        // pointer) the field would be read again.
        let rule60 = self.rule60;
        self.history.push(Undo {
            mv: Some(mv),
            captured,
            hash: self.hash,
            rule60,
            checkers: self.checkers,
        });
        if let Some(victim) = captured {
            debug_assert_ne!(victim.kind(), PieceType::King);
            self.remove_piece(!us, victim, to);
            self.rule60 = 0;
        } else {
            self.rule60 = rule60.saturating_add(1);
        }
        self.shift(us, piece, from, to);
        observer.make_move(piece, from, to, captured);
        self.finish_turn_for(us);
        // After `finish_turn_for`, whose side key this already holds.
        self.hash = hash;
        // The new side to move was not in check before (its opponent just moved legally), so
        // only a move touching the squares that bear on its king can have changed that.
        // Both squares tested at once on the board (`has` picks a half per square).
        let touched = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.checkers = if (check_region(self.king_square(!us)) & touched).any() {
            // Inlined with a constant colour: the king and its attackers' colour are known.
            self.checkers_of(!us)
        } else {
            Bitboard::EMPTY
        };
    }

    /// Takes back the last move made with `make_move_with`.
    #[inline]
    pub fn unmake_move_with<O: BoardObserver>(&mut self, observer: &mut O) {
        // One copy per side, as in `make_move_with`: `us` moved last.
        match self.side {
            Color::Red => self.unmake_move_for(Color::Black, observer),
            Color::Black => self.unmake_move_for(Color::Red, observer),
        }
    }

    /// [`Position::unmake_move_with`] with `us` the side that made the move.
    #[inline(always)]
    fn unmake_move_for<O: BoardObserver>(&mut self, us: Color, observer: &mut O) {
        let undo = self
            .history
            .pop()
            .expect("unmake_move: no move to take back");
        let mv = undo.mv.expect("unmake_move: the last move was a null move");
        let (from, to) = (mv.from(), mv.to());
        let piece = self.board[to.index()].expect("unmake_move: the moved piece is missing");
        debug_assert_eq!(piece.color(), us);
        // The turn, hash, clock and checkers come back first, straight from `undo`: kept
        // until after the placement they were held on the stack.
        let captured = undo.captured;
        self.undo_turn_for(us, undo);
        // The hash came back whole from `undo`: only the placement is undone here.
        self.shift(us, piece, to, from);
        if let Some(victim) = captured {
            self.place(!us, victim, to);
        }
        observer.unmake_move(piece, from, to, captured);
    }

    /// Passes the turn (for null-move pruning); must not be used in check.
    #[inline(always)]
    pub fn make_null_move(&mut self) {
        self.history.push(Undo {
            mv: None,
            captured: None,
            hash: self.hash,
            rule60: self.rule60,
            checkers: self.checkers,
        });
        self.rule60 = self.rule60.saturating_add(1);
        self.finish_turn();
        // Not in check before passing, so the mover's last move left no check on itself.
        self.checkers = Bitboard::EMPTY;
    }

    #[inline(always)]
    pub fn unmake_null_move(&mut self) {
        let undo = self
            .history
            .pop()
            .expect("unmake_null_move: no move to take back");
        debug_assert!(undo.mv.is_none(), "unmake_null_move after a real move");
        self.undo_turn(undo);
    }

    /// Passes the turn from `us`, the side to move: with `us` a constant (make/unmake have one
    /// copy per side) the side and move number are updated without reading the side back.
    #[inline(always)]
    fn finish_turn_for(&mut self, us: Color) {
        debug_assert_eq!(self.side, us);
        if us == Color::Black {
            self.fullmove = self.fullmove.wrapping_add(1);
        }
        self.side = !us;
        self.hash ^= ZOBRIST_SIDE;
    }

    /// Gives the turn back to `us`, the side that made the move undone, as
    /// [`Position::finish_turn_for`].
    #[inline(always)]
    fn undo_turn_for(&mut self, us: Color, undo: Undo) {
        debug_assert_eq!(self.side, !us);
        self.side = us;
        if us == Color::Black {
            self.fullmove = self.fullmove.wrapping_sub(1);
        }
        self.hash = undo.hash;
        self.rule60 = undo.rule60;
        self.checkers = undo.checkers;
    }

    #[inline(always)]
    fn finish_turn(&mut self) {
        self.finish_turn_for(self.side);
    }

    #[inline(always)]
    fn undo_turn(&mut self, undo: Undo) {
        self.undo_turn_for(!self.side, undo);
    }

    // ---- checks and transformations -------------------------------------------------------

    /// The hash recomputed from the placement and side to move.
    pub fn compute_hash(&self) -> u64 {
        let mut hash = if self.side == Color::Black {
            ZOBRIST_SIDE
        } else {
            0
        };
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                hash ^= ZOBRIST_PIECE[p.index()][sq.index()];
            }
        }
        hash
    }

    /// Recomputes every derived field from the mailbox and compares; for tests, fuzzing and
    /// debug builds (a consistency check, not a validity check of the position).
    pub fn is_consistent(&self) -> bool {
        let mut pieces = [Bitboard::EMPTY; Piece::COUNT];
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                pieces[p.index()] |= Bitboard::from_square(sq);
            }
        }
        let colors = [0, 1].map(|c| {
            pieces[c * 7..c * 7 + 7]
                .iter()
                .fold(Bitboard::EMPTY, |a, &b| a | b)
        });
        pieces == self.pieces
            && colors == self.colors
            && self.occupied == (colors[0] | colors[1])
            && self.hash == self.compute_hash()
            && self.pieces(Color::Red, PieceType::King).count() == 1
            && self.pieces(Color::Black, PieceType::King).count() == 1
            && Color::BOTH
                .iter()
                .all(|&c| self.kings[c.index()] == self.pieces(c, PieceType::King).lsb())
            && self.checkers == self.compute_checkers()
    }

    /// The same position with colours swapped and the board turned (Red's pieces become
    /// Black's on the mirrored ranks); the side to move swaps too. History is not kept.
    pub fn color_flipped(&self) -> Position {
        self.transformed(|sq| sq.flip_rank(), true)
    }

    /// The left-right mirror image (file a <-> file i). History is not kept.
    pub fn mirrored(&self) -> Position {
        self.transformed(|sq| sq.mirror_file(), false)
    }

    fn transformed(&self, map: impl Fn(Square) -> Square, swap_colors: bool) -> Position {
        let mut out = Position::empty();
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                let color = if swap_colors { !p.color() } else { p.color() };
                out.put_piece(Piece::new(color, p.kind()), map(sq));
            }
        }
        out.side = if swap_colors { !self.side } else { self.side };
        if out.side == Color::Black {
            out.hash ^= ZOBRIST_SIDE;
        }
        out.rule60 = self.rule60;
        out.fullmove = self.fullmove;
        out.refresh_checkers();
        out
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl std::fmt::Display for Position {
    /// The board drawn from Black's side (rank 9) down to Red's, with file and rank labels.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}", Diagram(self, RankBase::Zero))
    }
}
