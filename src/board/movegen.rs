//! Legal move generation. Pseudo-legal targets come from the attack tables; a move is then
//! accepted outright unless it touches a square that could expose the king (a slider line
//! through the king, a horse-leg square next to it, or a square that would screen a cannon),
//! in which case the move is replayed on the occupancy and the king tested exactly.

use crate::board::attacks::*;
use crate::board::bitboard::Bitboard;
use crate::board::geometry::{elephant_point, SQUARES};
use crate::board::position::Position;
use crate::board::types::{Color, Move, PieceType, Square};
use std::mem::MaybeUninit;

/// More than the most pseudo-legal moves any position has (2x17 rook, 2x17 cannon, 2x8
/// horse, 2x4 elephant, 2x4 advisor, 4 king and 5x3 pawn moves make 119).
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves, on the stack. The slots past `len` are left uninitialised:
/// a node makes several lists and most of it never fills them, so clearing them cost more
/// than anything else the list does.
#[derive(Clone)]
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

/// An array left uninitialised. (`[MaybeUninit::uninit(); N]` had the compiler zero it.)
#[inline(always)]
pub(crate) fn uninit_array<T, const N: usize>() -> [MaybeUninit<T>; N] {
    // SAFETY: an array of `MaybeUninit` needs no initialisation (the idiom of the
    // `MaybeUninit` documentation).
    unsafe { MaybeUninit::<[MaybeUninit<T>; N]>::uninit().assume_init() }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: uninit_array(),
            len: 0,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = MaybeUninit::new(mv);
        self.len += 1;
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        let init = &self.moves[..self.len];
        // SAFETY: the first `len` slots were written by `push`, and `MaybeUninit<Move>` has
        // the layout of `Move`.
        unsafe { &*(init as *const [MaybeUninit<Move>] as *const [Move]) }
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenKind {
    All,
    /// Moves that capture (in check: only the capturing evasions).
    Captures,
    /// Moves to empty squares (in check: only the non-capturing evasions).
    Quiets,
}

/// Where a non-king move may need the exact king test. The move picker keeps the sets its
/// captures were generated with for its quiets ([`generate_captures`], [`generate_quiets`]).
#[derive(Clone, Copy)]
pub struct Safety {
    king: Square,
    in_check: bool,
    /// Not in check: from-squares whose piece may be shielding the king.
    /// In check: from-squares whose piece screens a checking cannon.
    risky_from: Bitboard,
    /// Not in check: to-squares that would screen a cannon aimed at the king.
    /// In check: to-squares that take the lone checker or block every check, where a piece
    /// that shields nothing moves legally.
    risky_to: Bitboard,
    /// In check: our pieces that shield the king (the lone blocker of a rook or the facing
    /// king, either of a cannon's two, a piece on the leg of a horse that would attack it),
    /// the screens of checking cannons aside. They have no legal move: none both keeps its
    /// shield and ends every check. Empty out of check.
    frozen: Bitboard,
}

impl Safety {
    /// Not in check, and no piece shields the king nor a square screens a cannon at it: every
    /// move but the king's is legal.
    #[inline(always)]
    fn no_risk(&self) -> bool {
        !self.in_check && (self.risky_from | self.risky_to).is_empty()
    }

    /// Is the pseudo-legal move of the side to move from `from` to `to` legal? The
    /// generator's test: the exact one only where these sets say the king may be at risk
    /// (`self` must be the sets of `pos`).
    #[inline(always)]
    pub fn allows(&self, pos: &Position, from: Square, to: Square) -> bool {
        if from == self.king {
            return pos.king_safe_after(from, to);
        }
        let risky = self.risky_from.has(from) || self.risky_to.has(to);
        if risky {
            pos.king_safe_after(from, to)
        } else {
            // In check, a move neither fixing every check nor moving a cannon's screen
            // leaves the king in check.
            !self.in_check
        }
    }

    #[inline(always)]
    fn new(pos: &Position, us: Color) -> Safety {
        let king = pos.king_square(us);
        if pos.checkers().is_empty() {
            Safety::quiet(pos, us, king)
        } else {
            Safety::evasions(pos, us, king)
        }
    }

    /// In check: which pieces screen a checking cannon (they may leave its line), where the
    /// others must go, and which of them shield the king.
    #[inline(always)]
    fn evasions(pos: &Position, us: Color, king: Square) -> Safety {
        let them = !us;
        let occ = pos.occupied();
        let ours = pos.color_bb(us);
        let checkers = pos.checkers();
        let (mut frozen, open_gaps) = line_shields(pos, them, king, occ);
        // A block on an open cannon line screens that cannon (the checking cannon's screen
        // may be one).
        let mut fixes = Bitboard::FULL.and_not(open_gaps);
        let mut screens = Bitboard::EMPTY;
        for checker in checkers {
            let fix = match pos.piece_at(checker).map(|p| p.kind()) {
                Some(PieceType::Horse) => Bitboard::from_square(horse_leg(checker, king)),
                // Taking the cannon's screen leaves the taker screening it.
                Some(PieceType::Cannon) => {
                    screens |= between(king, checker) & ours;
                    between(king, checker).and_not(occ)
                }
                Some(PieceType::Pawn) => Bitboard::EMPTY,
                _ => between(king, checker),
            };
            fixes &= fix | Bitboard::from_square(checker);
        }
        if checkers.more_than_one() {
            // Taking one checker leaves the other: the two lie on one line, the one taken
            // screening a cannon behind it, or the taker blocks nothing.
            fixes = fixes.and_not(checkers);
        }
        let horses = pos.pieces(them, PieceType::Horse);
        if (horse_attackers_unblocked(king) & horses).any() {
            let attacking = horse_attackers(king, occ);
            for leg in diagonal_neighbours(king) & ours {
                if (horse_attackers(king, occ.without(leg)).and_not(attacking) & horses).any() {
                    frozen |= Bitboard::from_square(leg);
                }
            }
        }
        Safety {
            king,
            in_check: true,
            risky_from: screens,
            risky_to: fixes,
            // A screen pinned by a second cannon behind the checking one may still take that
            // cannon (a cannon screen jumping the checker): it takes the exact test.
            frozen: (frozen & ours).and_not(screens),
        }
    }
}

impl Safety {
    /// Not in check: find the pieces that shield the king from an enemy slider or horse, and
    /// the empty squares that would screen a cannon aimed at it. Only those need the exact test.
    #[inline(always)]
    fn quiet(pos: &Position, us: Color, king: Square) -> Safety {
        let them = !us;
        let occ = pos.occupied();
        let ours = pos.color_bb(us);
        let (mut risky_from, risky_to) = line_shields(pos, them, king, occ);
        if (horse_attackers_unblocked(king) & pos.pieces(them, PieceType::Horse)).any() {
            risky_from |= diagonal_neighbours(king);
        }
        Safety {
            king,
            in_check: false,
            risky_from: risky_from & ours,
            risky_to,
            frozen: Bitboard::EMPTY,
        }
    }
}

/// Along the king's lines: the pieces (of either colour) that alone shield the king from a
/// rook or the facing king of `them`, or are one of the two between it and a cannon; and the
/// empty gaps between the king and a cannon with nothing between, where any piece would
/// screen it. Shared by the sets out of check and in check.
#[inline(always)]
fn line_shields(pos: &Position, them: Color, king: Square, occ: Bitboard) -> (Bitboard, Bitboard) {
    // From the king square's record, beside the free-leg horses the callers read.
    let lines = near_sets(king).lines();
    let rooks = (pos.pieces(them, PieceType::Rook) | pos.pieces(them, PieceType::King)) & lines;
    let mut shields = Bitboard::EMPTY;
    let mut open_gaps = Bitboard::EMPTY;
    for rook in rooks {
        let blockers = between(king, rook) & occ;
        if !blockers.more_than_one() {
            shields |= blockers;
        }
    }
    for cannon in pos.pieces(them, PieceType::Cannon) & lines {
        let gap = between(king, cannon);
        let blockers = gap & occ;
        match blockers.count() {
            0 => open_gaps |= gap,
            2 => shields |= blockers,
            _ => {}
        }
    }
    (shields, open_gaps)
}

/// The leg square a horse on `from` must pass to reach `to` (a horse move): the square
/// [`leg_bit`] names, worked out from the coordinates here because the table read, inlined
/// into the evasions of `generate_captures`, cost that hot function more (a test holds the
/// two equal).
#[inline]
fn horse_leg(from: Square, to: Square) -> Square {
    let df = to.file() as i32 - from.file() as i32;
    let dr = to.rank() as i32 - from.rank() as i32;
    let (lf, lr) = if df.abs() == 2 {
        (df.signum(), 0)
    } else {
        (0, dr.signum())
    };
    let file = (from.file() as i32 + lf) as usize;
    let rank = (from.rank() as i32 + lr) as usize;
    Square::from_coords(file, rank).expect("a horse leg is on the board")
}

/// Where generated moves go: a list, or just a count (perft's last ply needs no moves).
pub trait MoveSink {
    fn push(&mut self, mv: Move);
    /// How many moves it has been sent.
    fn sent(&self) -> usize;
    /// Every square of `targets` is a legal destination for the piece on `from`.
    fn push_all(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        MoveList::push(self, mv);
    }

    #[inline(always)]
    fn sent(&self) -> usize {
        self.len
    }

    /// Ascending squares, as the default; each 64-bit half is walked in its own tight loop.
    /// The length is kept in a local: through `self` it was loaded and stored for every move.
    #[inline(always)]
    fn push_all(&mut self, from: Square, targets: Bitboard) {
        let mut len = self.len;
        let mut low = targets.bits() as u64;
        while low != 0 {
            // SAFETY: a set bit of a board is below 90, since only bits 0..90 are used.
            let to = unsafe { Square::new_unchecked(low.trailing_zeros() as usize) };
            self.moves[len] = MaybeUninit::new(Move::new(from, to));
            len += 1;
            low &= low - 1;
        }
        let mut high = (targets.bits() >> 64) as u64;
        while high != 0 {
            // SAFETY: as above.
            let to = unsafe { Square::new_unchecked(64 + high.trailing_zeros() as usize) };
            self.moves[len] = MaybeUninit::new(Move::new(from, to));
            len += 1;
            high &= high - 1;
        }
        self.len = len;
    }
}

/// Counts moves without storing them.
#[derive(Default)]
pub struct MoveCounter(pub usize);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn sent(&self) -> usize {
        self.0
    }

    #[inline(always)]
    fn push_all(&mut self, _: Square, targets: Bitboard) {
        self.0 += targets.count() as usize;
    }
}

struct Generator<'a, S: MoveSink> {
    pos: &'a Position,
    /// `safety.in_check`, a constant in each copy.
    in_check: bool,
    safety: Safety,
    sink: &'a mut S,
}

impl<S: MoveSink> Generator<'_, S> {
    #[inline(always)]
    fn add(&mut self, from: Square, targets: Bitboard) {
        // Most pieces have no capture: leave before the safety tests.
        if targets.is_empty() {
            return;
        }
        let s = &self.safety;
        // Usually no piece shields the king and no cannon aims at an empty line to it.
        if !self.in_check && s.no_risk() {
            self.sink.push_all(from, targets);
            return;
        }
        if self.in_check {
            // A piece shielding the king has no legal move; one screening the checking cannon
            // may leave its line, which takes the exact test; any other piece ends the check
            // legally on the squares that take or block it.
            if s.frozen.has(from) {
                return;
            }
            if s.risky_from.has(from) {
                self.add_tested(from, targets);
            } else {
                self.sink.push_all(from, targets & s.risky_to);
            }
            return;
        }
        // A move screening a cannon aimed at the king along an empty line is never legal.
        let targets = targets.and_not(s.risky_to);
        if !s.risky_from.has(from) {
            self.sink.push_all(from, targets);
        } else if lines_through(s.king).has(from) {
            // Pinned on one of the king's lines: a move off it exposes the king, and one
            // along it (which passes neither the king nor the pinner) keeps it covered,
            // unless it captures, which may take a cannon's other screen.
            let occ = self.pos.occupied();
            for to in targets & lines_through(s.king) & lines_through(from) {
                if !occ.has(to) || self.pos.king_safe_after(from, to) {
                    self.sink.push(Move::new(from, to));
                }
            }
        } else {
            // On the leg of a horse near the king.
            self.add_tested(from, targets);
        }
    }

    #[inline(always)]
    fn add_tested(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            if self.pos.king_safe_after(from, to) {
                self.sink.push(Move::new(from, to));
            }
        }
    }
}

/// Appends the legal moves of the chosen kind to `list`. Kept out of line: inlined into
/// the move picker it made the search slower (more code, fewer instructions saved).
#[inline(never)]
pub fn generate(pos: &Position, kind: GenKind, list: &mut MoveList) {
    // One copy per kind and side, so each drops the tests the others need and reads the
    // side's pieces at fixed offsets.
    use {Color::*, GenKind::*};
    let mut side = |us, kind| generate_side(pos, us, kind, list, Safety::new(pos, us));
    match (kind, pos.side_to_move()) {
        (All, Red) => side(Red, All),
        (All, Black) => side(Black, All),
        (Captures, Red) => side(Red, Captures),
        (Captures, Black) => side(Black, Captures),
        (Quiets, Red) => side(Red, Quiets),
        (Quiets, Black) => side(Black, Quiets),
    }
}

/// [`generate`] for the captures, returning the safety sets it found, which stay right for
/// the quiets of the same position ([`generate_quiets`]): the picker then finds them once.
#[inline(never)]
pub fn generate_captures(pos: &Position, list: &mut MoveList) -> Safety {
    let mut side = |us| {
        let safety = Safety::new(pos, us);
        generate_side(pos, us, GenKind::Captures, list, safety);
        safety
    };
    match pos.side_to_move() {
        Color::Red => side(Color::Red),
        Color::Black => side(Color::Black),
    }
}

/// [`generate`] for the quiets, with the safety sets [`generate_captures`] returned for the
/// same position, except that the king's steps are left untested: they come last, from the
/// returned index on, and the caller tests each one it reaches with
/// [`Position::king_step_safe_quiet`]. (A node cut off after a few moves never reaches most.)
#[inline(never)]
pub fn generate_quiets(pos: &Position, safety: &Safety, list: &mut MoveList) -> usize {
    let mut side = |us| generate_side_deferred(pos, us, GenKind::Quiets, list, *safety, true);
    match pos.side_to_move() {
        Color::Red => side(Color::Red),
        Color::Black => side(Color::Black),
    }
}

/// Sends the legal moves of the chosen kind to `sink`.
#[inline(always)]
pub fn generate_into<S: MoveSink>(pos: &Position, kind: GenKind, sink: &mut S) {
    let us = pos.side_to_move();
    generate_side(pos, us, kind, sink, Safety::new(pos, us));
}

/// [`generate_into`] for `us`, the side to move.
#[inline(always)]
fn generate_side<S: MoveSink>(
    pos: &Position,
    us: Color,
    kind: GenKind,
    sink: &mut S,
    safety: Safety,
) {
    generate_side_deferred(pos, us, kind, sink, safety, false);
}

/// [`generate_side`]; with `defer_king` the king's steps are sent untested, last, and the
/// number of moves sent before them is returned.
#[inline(always)]
fn generate_side_deferred<S: MoveSink>(
    pos: &Position,
    us: Color,
    kind: GenKind,
    sink: &mut S,
    safety: Safety,
    defer_king: bool,
) -> usize {
    // One copy in check and one out of it.
    if safety.in_check {
        generate_side_with(pos, us, kind, sink, safety, true, defer_king)
    } else {
        generate_side_with(pos, us, kind, sink, safety, false, defer_king)
    }
}

#[inline(always)]
fn generate_side_with<S: MoveSink>(
    pos: &Position,
    us: Color,
    kind: GenKind,
    sink: &mut S,
    safety: Safety,
    in_check: bool,
    defer_king: bool,
) -> usize {
    let occ = pos.occupied();
    let ours = pos.color_bb(us);
    let theirs = pos.color_bb(!us);
    let (target, cannon_capture, cannon_quiet) = match kind {
        GenKind::All => (!ours, true, true),
        GenKind::Captures => (theirs, true, false),
        GenKind::Quiets => (!occ, false, true),
    };
    let king = safety.king;
    let king_target = target;
    // In check, with no piece of ours screening the checking cannon, a move other than the
    // king's must take a checker or land between (what `Generator::add` keeps): the targets
    // narrow to those squares, so most pieces leave `add` at once and, among the captures,
    // before their lookups.
    let target = if in_check && safety.risky_from.is_empty() {
        target & safety.risky_to
    } else {
        target
    };
    // Captures only: a slider with no target on its rank or file, or a horse or elephant with
    // none on its empty-board reach, captures nothing, and its occupancy lookup is skipped.
    let captures_only = kind == GenKind::Captures;
    // The same for every kind in check, where the targets are few: a constant in each copy of
    // the generator, so the copy out of check does not carry the test.
    let filtered = captures_only || in_check;
    let mut gen = Generator {
        pos,
        in_check,
        safety,
        sink,
    };

    for from in pos.pieces(us, PieceType::Rook) {
        if filtered && (lines_through(from) & target).is_empty() {
            continue;
        }
        gen.add(from, rook_attacks(from, occ) & target);
    }
    for from in pos.pieces(us, PieceType::Cannon) {
        if filtered && (lines_through(from) & target).is_empty() {
            continue;
        }
        let mut targets = Bitboard::EMPTY;
        if cannon_quiet {
            targets |= rook_attacks(from, occ) & !occ & target;
        }
        if cannon_capture {
            targets |= cannon_attacks(from, occ) & theirs & target;
        }
        gen.add(from, targets);
    }
    for from in pos.pieces(us, PieceType::Horse) {
        if filtered && (horse_attacks(from, Bitboard::EMPTY) & target).is_empty() {
            continue;
        }
        gen.add(from, horse_attacks(from, occ) & target);
    }
    let pawns = pos.pieces(us, PieceType::Pawn);
    // Captures only or in check: a pawn moves ahead or beside itself; with no target on any
    // such square (sideways taken for every pawn, crossed or not) no pawn moves.
    let pawns_may_move = || {
        let ahead = match us {
            Color::Red => pawns.bits() << 9,
            Color::Black => pawns.bits() >> 9,
        };
        (ahead | pawns.bits() << 1 | pawns.bits() >> 1) & target.bits() != 0
    };
    if !filtered || pawns_may_move() {
        for from in pawns {
            gen.add(from, pawn_attacks(us, from) & target);
        }
    }
    // Captures only, or in check (few targets): elephants land only on their side's seven
    // points; with no target on any of them (usually), no elephant moves.
    if !filtered || (ELEPHANT_POINTS[us.index()] & target).any() {
        for from in pos.pieces(us, PieceType::Elephant) {
            if filtered && (elephant_attacks(from, Bitboard::EMPTY) & target).is_empty() {
                continue;
            }
            gen.add(from, elephant_attacks(from, occ) & target);
        }
    }
    // Advisors and the king never leave their palace: with no enemy piece in it, they
    // capture nothing.
    if captures_only && (Bitboard::PALACES[us.index()] & theirs).is_empty() {
        return gen.sink.sent();
    }
    for from in pos.pieces(us, PieceType::Advisor) {
        gen.add(from, advisor_attacks(from) & target);
    }
    // In check most king steps are reached (the evasions are few), so they are tested here.
    if defer_king && !in_check {
        let before = gen.sink.sent();
        gen.sink.push_all(king, king_attacks(king) & king_target);
        return before;
    }
    for to in king_attacks(king) & king_target {
        let safe = if kind == GenKind::Quiets {
            pos.king_step_safe_quiet(us, to)
        } else {
            pos.king_step_safe(us, to)
        };
        if safe {
            gen.sink.push(Move::new(king, to));
        }
    }
    gen.sink.sent()
}

/// The seven points each side's elephants may stand on ([`elephant_point`], the FEN's rule
/// too): every elephant move ends on one.
const ELEPHANT_POINTS: [Bitboard; 2] = {
    let mut points = [0u128; 2];
    let mut sq = 0;
    while sq < SQUARES {
        let mut color = 0;
        while color < 2 {
            if elephant_point(color, sq) {
                points[color] |= 1 << sq;
            }
            color += 1;
        }
        sq += 1;
    }
    [
        Bitboard::from_bits(points[0]),
        Bitboard::from_bits(points[1]),
    ]
};

/// All legal moves.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, GenKind::All, &mut list);
    list
}

/// Number of legal moves, without keeping them (perft's last ply).
pub fn count_legal(pos: &Position) -> usize {
    let mut counter = MoveCounter(0);
    generate_into(pos, GenKind::All, &mut counter);
    counter.0
}

/// The side to move has no legal move: it has lost (checkmate and stalemate alike).
pub fn is_lost(pos: &Position) -> bool {
    legal_moves(pos).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The horse leg of the evasions is the square the exchange's `leg_bit` names, for every
    /// horse move on an empty board.
    #[test]
    fn horse_leg_agrees_with_leg_bit() {
        for from in Square::all() {
            for to in horse_attacks(from, Bitboard::EMPTY) {
                assert_eq!(
                    horse_leg(from, to).index() as u32,
                    leg_bit(to, from),
                    "{from:?} {to:?}"
                );
            }
        }
    }

    /// The elephant points are the squares the FEN allows an elephant on, and every elephant
    /// move from one ends on another.
    #[test]
    fn elephant_points_hold_every_elephant_move() {
        use crate::board::fen::allowed_squares;
        use crate::board::types::Piece;
        for color in [Color::Red, Color::Black] {
            let points = ELEPHANT_POINTS[color.index()];
            assert_eq!(points.count(), 7);
            let allowed = allowed_squares(Piece::new(color, PieceType::Elephant));
            assert_eq!(points, allowed, "{color:?}");
            for sq in points {
                assert!(elephant_attacks(sq, Bitboard::EMPTY)
                    .and_not(points)
                    .is_empty());
            }
        }
    }
}
