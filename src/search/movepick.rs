//! Staged move ordering: the hash move first (before any generation), then winning captures
//! by victim/attacker value, killers and the counter-move, quiets by butterfly and continuation
//! history, and captures that lose material last. A cut-off in an early stage saves generating the later ones.

use super::history::{Continuations, History};
use super::see::{piece_value, see_ge, SEE_VALUE};
use crate::board::attacks::{
    advisor_attacks, between, elephant_attacks, horse_attacks, king_attacks, lines_through,
    pawn_attacks, piece_attacks, rook_attacks,
};
use crate::board::bitboard::Bitboard;
use crate::board::check_info::CheckInfo;
use crate::board::movegen::{
    generate_captures, generate_quiets, uninit_array, MoveList, Safety, MAX_MOVES,
};
use crate::board::position::Position;
use crate::board::types::{Color, Move, Piece, PieceType, Square};
use crate::eval::psqt::psqt_mg;
use std::mem::MaybeUninit;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    Done,
}

pub struct MovePicker {
    stage: Stage,
    /// The moves the stages before the quiets may hand out: the hash move, the two killers
    /// and the counter-move. Side by side, so the quiets are tested against all four at once.
    early: [Option<Move>; 4],
    /// The moves before this node, whose continuation histories order the quiets.
    continuations: Continuations,
    /// Quiescence outside check: captures only, losing ones skipped.
    captures_only: bool,
    list: MoveList,
    /// Per move of `list`: its ordering score and index packed by [`sort_key`]; moves already
    /// handed out hold [`TAKEN`]. Only the first `list.len()` are initialised: every stage
    /// that fills `list` writes them at once ([`MovePicker::set_keys`]), and nothing else
    /// changes its length.
    keys: [MaybeUninit<i32>; MAX_MOVES],
    /// Unsorted quiets: the next index of `list` to look at.
    next: usize,
    bad: MoveList,
    bad_next: usize,
    /// Set once the search prunes quiet moves by count or margin: the rest are only scanned
    /// for checks, so ordering them would be wasted work.
    quiets_unsorted: bool,
    /// The safety sets the captures were generated with, kept for the quiets.
    safety: Option<Safety>,
    /// Quiet stages: the index of `list` from which on the moves are the king's steps, left
    /// untested by the generator ([`generate_quiets`]) and tested when reached.
    king_steps: usize,
}

impl MovePicker {
    /// Orders moves for a full-width node. `tt_move` must already be known legal.
    pub fn new(
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
        continuations: Continuations,
    ) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            early: [tt_move, killers[0], killers[1], counter],
            continuations,
            captures_only: false,
            list: MoveList::new(),
            keys: uninit_array(),
            next: 0,
            bad: MoveList::new(),
            bad_next: 0,
            quiets_unsorted: false,
            safety: None,
            king_steps: MAX_MOVES,
        }
    }

    /// Orders captures for quiescence (or every evasion when in check).
    pub fn quiescence(tt_move: Option<Move>, in_check: bool) -> MovePicker {
        let mut picker = MovePicker::new(tt_move, [None; 2], None, Continuations::default());
        picker.captures_only = !in_check;
        picker
    }

    #[inline(always)]
    fn tt_move(&self) -> Option<Move> {
        self.early[0]
    }

    /// Did the move just handed out win at least nothing by exchange (`see_ge(.., 0)`)? True
    /// for the good captures, which leave the picker in their stage; the search's own,
    /// lower SEE threshold then needs no second exchange.
    #[inline(always)]
    pub fn handed_out_good_capture(&self) -> bool {
        self.stage == Stage::GoodCaptures
    }

    /// The next move to search, or `None` when all are done.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        if let Some(mv) = self.next_sorted(pos) {
            return Some(mv);
        }
        // The leaves end the picking themselves when no stage is left after theirs.
        if self.stage == Stage::Done {
            return None;
        }
        self.next_with(pos, history, None)
    }

    /// In the good-capture or sorted quiets stage, the next move of that stage; `None` in any
    /// other stage, or once the stage is exhausted (it then moves on). Most picks are in those
    /// stages: these small functions spare them the general picker's saved registers.
    #[inline(always)]
    fn next_sorted(&mut self, pos: &Position) -> Option<Move> {
        match self.stage {
            Stage::GoodCaptures => self.pick_good_capture(pos),
            Stage::Quiets if !self.quiets_unsorted => self.pick_sorted_quiet(pos),
            _ => None,
        }
    }

    /// The best capture left that wins at least nothing by exchange; the others are kept for
    /// the last stage (dropped in quiescence outside check).
    #[inline(never)]
    fn pick_good_capture(&mut self, pos: &Position) -> Option<Move> {
        while let Some(mv) = self.pick_best() {
            if Some(mv) == self.tt_move() {
                continue;
            }
            if see_ge(pos, mv, 0) {
                return Some(mv);
            }
            if !self.captures_only {
                self.bad.push(mv);
            }
        }
        // Quiescence outside check has no stage after the good captures.
        self.stage = if self.captures_only {
            Stage::Done
        } else {
            Stage::Killer1
        };
        None
    }

    /// The best legal quiet left that was not handed out before (hash move, killer,
    /// counter-move).
    #[inline(never)]
    fn pick_sorted_quiet(&mut self, pos: &Position) -> Option<Move> {
        while let Some(index) = self.pick_best_index() {
            let mv = self.list.as_slice()[index];
            if !self.tried_before(mv) {
                if index >= self.king_steps {
                    // Tested in a function of its own, so the picks without the test's call
                    // save no registers for it.
                    return self.tested_king_step(pos, mv);
                }
                return Some(mv);
            }
        }
        // The bad captures are all still to come.
        self.stage = if self.bad.is_empty() {
            Stage::Done
        } else {
            Stage::BadCaptures
        };
        None
    }

    /// [`MovePicker::pick_sorted_quiet`] once it has picked `mv`, a king step the generator
    /// left untested: `mv` if legal, else the next pick.
    #[inline(never)]
    fn tested_king_step(&mut self, pos: &Position, mv: Move) -> Option<Move> {
        if pos.king_step_safe_quiet_here(mv.to()) {
            return Some(mv);
        }
        self.pick_sorted_quiet(pos)
    }

    /// [`MovePicker::next`]; with `checks` (the pruning picker) the quiets are generated only
    /// when one of them will be handed out. The stages are tried in their order, each falling
    /// through to the next when it has nothing (a direct branch each, not a jump through the
    /// stage table per stage), and the stage is stored once on the way out.
    fn next_with(
        &mut self,
        pos: &Position,
        history: &History,
        checks: Option<&CheckInfo>,
    ) -> Option<Move> {
        let mut stage = self.stage;
        let found = 'found: {
            if stage == Stage::TtMove {
                stage = Stage::GenCaptures;
                if let Some(mv) = self.tt_move() {
                    if !self.captures_only || pos.piece_at(mv.to()).is_some() {
                        break 'found Some(mv);
                    }
                }
            }
            if stage == Stage::GenCaptures {
                self.gen_captures(pos, history);
                stage = Stage::GoodCaptures;
                // No capture (a quarter of the generations): on without the picker's call.
                if self.list.is_empty() {
                    if self.captures_only {
                        stage = Stage::Done;
                        break 'found None;
                    }
                    stage = Stage::Killer1;
                }
            }
            if stage == Stage::GoodCaptures {
                if let Some(mv) = self.pick_good_capture(pos) {
                    break 'found Some(mv);
                }
                // What `pick_good_capture` moved on to.
                if self.captures_only {
                    stage = Stage::Done;
                    break 'found None;
                }
                stage = Stage::Killer1;
            }
            for (slot, refutation) in [Stage::Killer1, Stage::Killer2, Stage::Counter]
                .into_iter()
                .enumerate()
            {
                if stage == refutation {
                    stage = match stage {
                        Stage::Killer1 => Stage::Killer2,
                        Stage::Killer2 => Stage::Counter,
                        _ => Stage::GenQuiets,
                    };
                    if let Some(mv) = self.early[1 + slot] {
                        // Not the hash move nor a refutation before it.
                        let repeated = self.early[..1 + slot].contains(&Some(mv));
                        if !repeated && self.is_legal_quiet(pos, mv) {
                            break 'found Some(mv);
                        }
                    }
                }
            }
            if stage == Stage::GenQuiets {
                if checks.is_some_and(|checks| !self.any_check_or_push(pos, checks)) {
                    // The pruning picker would pass over every quiet.
                    stage = Stage::BadCaptures;
                } else {
                    self.gen_quiets(pos, history);
                    stage = Stage::Quiets;
                }
            }
            if stage == Stage::Quiets {
                if self.quiets_unsorted {
                    while let Some(mv) = self.pick_unsorted_quiet(pos) {
                        if !self.tried_before(mv) {
                            break 'found Some(mv);
                        }
                    }
                    stage = Stage::BadCaptures;
                } else {
                    // The leaf moves the stage on when it finds nothing.
                    self.stage = stage;
                    if let Some(mv) = self.pick_sorted_quiet(pos) {
                        break 'found Some(mv);
                    }
                    stage = self.stage;
                }
            }
            if stage == Stage::BadCaptures {
                if self.bad_next < self.bad.len() {
                    self.bad_next += 1;
                    break 'found Some(self.bad.as_slice()[self.bad_next - 1]);
                }
                stage = Stage::Done;
            }
            None
        };
        self.stage = stage;
        found
    }

    /// Generates the captures and keys them by victim and attacker (and capture history
    /// outside quiescence).
    #[inline(always)]
    fn gen_captures(&mut self, pos: &Position, history: &History) {
        self.safety = Some(generate_captures(pos, &mut self.list));
        if self.captures_only {
            // Quiescence's delta pruning stops at the first victim too small, so its captures
            // keep strict victim order.
            self.set_keys(|mv| {
                let (attacker, victim) = capture_pieces(pos, mv);
                mvv_lva(attacker, victim)
            });
        } else {
            self.set_keys(|mv| {
                let (attacker, victim) = capture_pieces(pos, mv);
                mvv_lva(attacker, victim)
                    + history.capture_score(attacker, mv, victim.kind()) / CAPTURE_HISTORY_DIV
            });
        }
    }

    /// The next move, passing over quiet moves that neither give check nor push a pawn at the
    /// enemy king ([`pawn_nears_king`]): what the search wants once it prunes quiets. The first quiet passed over ends their sorting (the rest are
    /// only scanned for checks), so the same moves come out as from [`MovePicker::next`]
    /// with the other quiets dropped.
    pub fn next_capture_or_check(
        &mut self,
        pos: &Position,
        history: &History,
        checks: &CheckInfo,
    ) -> Option<Move> {
        if !(self.stage == Stage::Quiets && self.quiets_unsorted) {
            let found = self.next_sorted_capture_or_check(pos, history, checks);
            if found.is_some() || !(self.stage == Stage::Quiets && self.quiets_unsorted) {
                return found;
            }
        }
        // What `pick_quiet` hands out, in one tight loop: most moves fail both tests.
        // A move is looked at only if it arrives on the king's region, or leaves from a
        // square that can uncover a check or holds a pawn near the enemy palace.
        let (to_set, from_set) = checks.candidate_squares();
        let from_set = from_set | pawns_that_may_near_king(pos);
        // Usually no piece can uncover a check or push a pawn at the king: then the
        // arrival square alone filters, in a loop of its own.
        let found = if from_set.is_empty() {
            self.scan_quiets(pos, checks, |mv| to_set.has(mv.to()))
        } else {
            self.scan_quiets(pos, checks, |mv| {
                to_set.has(mv.to()) || from_set.has(mv.from())
            })
        };
        if found.is_some() {
            return found;
        }
        self.stage = Stage::BadCaptures;
        self.next_sorted_capture_or_check(pos, history, checks)
    }

    /// [`MovePicker::next_capture_or_check`] before the quiets are scanned unsorted: the next
    /// sorted move that captures, checks or pushes a pawn at the king; `None` at the end, or
    /// on reaching the quiets once one has been passed over (then the caller scans them). The
    /// scan is outside this loop, so its sets are not worked out at every call.
    #[inline(always)]
    fn next_sorted_capture_or_check(
        &mut self,
        pos: &Position,
        history: &History,
        checks: &CheckInfo,
    ) -> Option<Move> {
        loop {
            let mv = match self.next_sorted(pos) {
                Some(mv) => mv,
                None if self.stage == Stage::Done => return None,
                None => self.next_with(pos, history, Some(checks))?,
            };
            if pos.piece_at(mv.to()).is_some()
                || checks.gives_check(pos, mv)
                || pawn_nears_king(pos, mv)
            {
                return Some(mv);
            }
            self.quiets_unsorted = true;
            if self.stage == Stage::Quiets {
                return None;
            }
        }
    }

    /// The next unsorted quiet, not handed out before, that passes `filter` and checks or
    /// pushes a pawn at the king; `self.next` moves past it (or to the end).
    #[inline(always)]
    fn scan_quiets(
        &mut self,
        pos: &Position,
        checks: &CheckInfo,
        filter: impl Fn(Move) -> bool,
    ) -> Option<Move> {
        let start = self.next;
        let moves = &self.list.as_slice()[start..];
        let keys = &initialised(&self.keys, self.list.len())[start..];
        for (offset, (&mv, &key)) in moves.iter().zip(keys).enumerate() {
            if key != TAKEN
                && filter(mv)
                && ((checks.may_check(mv) && checks.gives_check(pos, mv))
                    || pawn_nears_king(pos, mv))
                && !self.tried_before(mv)
                && self.quiet_is_legal(pos, start + offset, mv)
            {
                self.next = start + offset + 1;
                return Some(mv);
            }
        }
        self.next = self.list.len();
        None
    }

    /// Might the side to move have a quiet move, not handed out before, that checks or pushes
    /// a pawn at the enemy king ([`pawn_nears_king`])? Only the quiets that can check
    /// ([`CheckInfo::quiet_candidates`]) and the pawns' moves are looked at, pins ignored: a
    /// false answer is exact, a true one may only cost generating the quiets for nothing.
    /// Out of line: inlined into the picker it cost every pick more saved registers than the
    /// call saves (bench 8: 2,947 against 2,916 instructions per node).
    #[inline(never)]
    fn any_check_or_push(&self, pos: &Position, checks: &CheckInfo) -> bool {
        let us = pos.side_to_move();
        let occ = pos.occupied();
        let empty = !occ;
        let hands_out = |from: Square, targets: Bitboard| {
            for to in targets {
                let mv = Move::new(from, to);
                if (checks.gives_check(pos, mv) || pawn_nears_king(pos, mv))
                    && !self.tried_before(mv)
                {
                    return true;
                }
            }
            false
        };
        let untried = |from: Square, targets: Bitboard| {
            targets
                .into_iter()
                .any(|to| !self.tried_before(Move::new(from, to)))
        };
        // One loop per kind, each with its own lookup (a loop over the kinds called the
        // lookup through a dispatch on the kind for every piece).
        let any_of = |kind: PieceType, reach: &dyn Fn(Square) -> Bitboard| {
            pos.pieces(us, kind).into_iter().any(|from| {
                let targets = checks.quiet_candidates(from, reach(from) & empty);
                if targets.is_empty() {
                    return false;
                }
                // Most pieces' checking squares come as one set; the rest replay each move.
                match checks.checking_targets(kind, from, targets) {
                    Some(checking) => checking.any() && untried(from, checking),
                    None => hands_out(from, targets),
                }
            })
        };
        // Quiet moves reach what the piece attacks, except a cannon's, which slide as a rook's.
        if any_of(PieceType::Rook, &|from| rook_attacks(from, occ))
            || any_of(PieceType::Cannon, &|from| rook_attacks(from, occ))
            || any_of(PieceType::Horse, &|from| horse_attacks(from, occ))
        {
            return true;
        }
        // Elephants, advisors and the king never check directly: unless one of them uncovers
        // a check, they check only by arriving on an empty screen square, usually none.
        let leapers = pos.pieces(us, PieceType::Elephant)
            | pos.pieces(us, PieceType::Advisor)
            | pos.pieces(us, PieceType::King);
        let may_check =
            (checks.screens() & empty).any() || (leapers & checks.replayed_movers()).any();
        if may_check
            && (any_of(PieceType::Elephant, &|from| elephant_attacks(from, occ))
                || any_of(PieceType::Advisor, &advisor_attacks)
                || any_of(PieceType::King, &king_attacks))
        {
            return true;
        }
        // A pawn's move checks only from the candidate squares, and nears the king only from
        // `pawns_that_may_near_king`: the others' moves need no test.
        let may_near_king = pawns_that_may_near_king(pos);
        for from in pos.pieces(us, PieceType::Pawn) {
            let targets = pawn_attacks(us, from) & empty;
            let targets = if may_near_king.has(from) {
                targets
            } else {
                checks.quiet_candidates(from, targets)
            };
            if targets.any() && hands_out(from, targets) {
                return true;
            }
        }
        false
    }

    /// Generates and scores the quiets. Out of line: inlined, the history tables' addresses
    /// were loaded at every pick, though only this stage reads them.
    #[inline(never)]
    fn gen_quiets(&mut self, pos: &Position, history: &History) {
        self.list.clear();
        self.king_steps = generate_quiets(pos, generated_safety(&self.safety), &mut self.list);
        let continuations = self.continuations;
        let placement = &PLACEMENT;
        let mut keys = |side: Color| {
            self.set_shifted_keys(|mv| {
                let piece = generated_piece(pos, mv.from());
                sort_key(
                    history.quiet_score(side, piece, mv, continuations) * PLACEMENT_SPAN,
                    0,
                ) + placement.shifted_gain(side, piece, mv)
            })
        };
        // One loop per side, so the gain's sign is fixed in each.
        match pos.side_to_move() {
            Color::Red => keys(Color::Red),
            Color::Black => keys(Color::Black),
        }
        self.next = 0;
    }

    /// Scores every move of `list` (just generated) and packs the keys.
    #[inline(always)]
    fn set_keys(&mut self, mut score: impl FnMut(Move) -> i32) {
        self.set_shifted_keys(|mv| sort_key(score(mv), 0));
    }

    /// [`MovePicker::set_keys`] with each score already shifted to its place in the key
    /// (`sort_key(score, 0)`): the quiets' placement part comes that way from its table.
    #[inline(always)]
    fn set_shifted_keys(&mut self, mut shifted: impl FnMut(Move) -> i32) {
        let moves = self.list.as_slice();
        // Walked together, so one counter ends the loop.
        for (i, (key, &mv)) in self.keys.iter_mut().zip(moves).enumerate() {
            // The index's bits are clear in `shifted`: an add, which needs no copy of `i`.
            *key = MaybeUninit::new(shifted(mv) + i as i32);
        }
    }

    /// The keys of the moves of `list`.
    #[inline(always)]
    fn keys(&mut self) -> &mut [i32] {
        let init = &mut self.keys[..self.list.len()];
        // SAFETY: `set_keys` wrote a key for every move of `list` when it was filled (see the
        // field), and `MaybeUninit<i32>` has the layout of `i32`.
        unsafe { &mut *(init as *mut [MaybeUninit<i32>] as *mut [i32]) }
    }

    /// Is `mv` (a killer or counter-move) a legal quiet move here? Many are told by their
    /// two squares alone (the arrival taken, no piece of ours to move), inline.
    #[inline(always)]
    fn is_legal_quiet(&self, pos: &Position, mv: Move) -> bool {
        if pos.piece_at(mv.to()).is_some() {
            return false;
        }
        match pos.piece_at(mv.from()) {
            Some(piece) if piece.color() == pos.side_to_move() => {
                self.is_legal_quiet_move(pos, piece, mv)
            }
            _ => false,
        }
    }

    /// [`MovePicker::is_legal_quiet`] past the squares' test, for `piece` (ours, on the
    /// move's departure square; the arrival square is empty): `Position::is_pseudo_legal`
    /// without the tests those two facts settle. The king test is the generator's, from the
    /// safety sets the captures were generated with: most of these moves need no exact test.
    /// Out of line, as `Position::is_legal` was.
    #[inline(never)]
    fn is_legal_quiet_move(&self, pos: &Position, piece: Piece, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let occ = pos.occupied();
        let reaches = match piece.kind() {
            // A rook, or a cannon moving quietly, with nothing in the way.
            PieceType::Rook | PieceType::Cannon => {
                lines_through(from).has(to) && (between(from, to) & occ).is_empty()
            }
            _ => piece_attacks(piece, from, occ).has(to),
        };
        reaches && generated_safety(&self.safety).allows(pos, from, to)
    }

    /// Was `mv` handed out before the quiets stage (hash move, killer or counter-move)?
    #[inline(always)]
    fn tried_before(&self, mv: Move) -> bool {
        self.early.contains(&Some(mv))
    }

    /// The next legal quiet in generation order (once the search prunes quiets), passing over
    /// the moves the sorted picks already handed out.
    fn pick_unsorted_quiet(&mut self, pos: &Position) -> Option<Move> {
        while self.next < self.list.len() {
            let i = self.next;
            self.next += 1;
            let mv = self.list.as_slice()[i];
            if self.keys()[i] != TAKEN && self.quiet_is_legal(pos, i, mv) {
                return Some(mv);
            }
        }
        None
    }

    /// Is the quiet `mv`, at `index` of `list`, legal? Only the king's steps, which the
    /// generator left untested, need the test.
    #[inline(always)]
    fn quiet_is_legal(&self, pos: &Position, index: usize, mv: Move) -> bool {
        index < self.king_steps || pos.king_step_safe_quiet_here(mv.to())
    }

    /// Selection sort step: moves are usually few before a cut-off, so this beats sorting.
    /// The list stays in place; the best key is a plain maximum, which the compiler turns
    /// into a few vector instructions.
    fn pick_best(&mut self) -> Option<Move> {
        let index = self.pick_best_index()?;
        Some(self.list.as_slice()[index])
    }

    /// [`MovePicker::pick_best`], giving the move's index in `list`.
    #[inline(always)]
    fn pick_best_index(&mut self) -> Option<usize> {
        let keys = self.keys();
        // Folded from TAKEN (below every key, and the answer for no keys): `max` took the
        // first key apart and set its vector loop up on the rest.
        let best = keys.iter().fold(TAKEN, |best, &key| best.max(key));
        if best == TAKEN {
            return None;
        }
        let index = key_index(best);
        keys[index] = TAKEN;
        Some(index)
    }
}

/// The first `len` keys of a picker, `len` its list's length (a field borrow, so the list can
/// be read alongside).
#[inline(always)]
fn initialised(keys: &[MaybeUninit<i32>; MAX_MOVES], len: usize) -> &[i32] {
    let init = &keys[..len];
    // SAFETY: as in `MovePicker::keys`: the keys of the list's moves were written when it was
    // filled.
    unsafe { &*(init as *const [MaybeUninit<i32>] as *const [i32]) }
}

/// Marks a move already handed out; below every real key.
const TAKEN: i32 = i32::MIN;
const INDEX_BITS: u32 = 7;
const INDEX_MASK: i32 = (1 << INDEX_BITS) - 1;
static_assertions::const_assert!(MAX_MOVES <= 1 << INDEX_BITS);

/// Quiets with equal history (most of them, early in a search) are ordered by how much the
/// piece-square table likes the move, clamped to this span; history always comes first.
const PLACEMENT_SPAN: i32 = 256;

/// The piece-square part of the quiet keys, in tables derived at compile time from the
/// evaluation's: per move two loads and a third for the clamped difference (which was four
/// compare-and-moves).
struct Placement {
    /// Middlegame piece-square value (Black's negated, as in `psqt`) per piece and square,
    /// at `piece.index() * 90 + square`.
    mg: [i16; Piece::COUNT * 90],
    /// The gain `d` (to's value less from's, for the mover) clamped to the span and shifted to
    /// its place in the key (`sort_key(clamped, 0)`), at `d + GAIN_REACH`.
    shifted: [i32; 2 * GAIN_REACH + 1],
}

/// The widest placement range of any piece (its largest middlegame piece-square value less
/// its smallest): no quiet move gains or loses more, so the clamp table reaches that far.
const GAIN_REACH: usize = {
    let mut reach = 0;
    let mut piece = 0;
    while piece < Piece::COUNT {
        let (mut low, mut high) = (i32::MAX, i32::MIN);
        let mut sq = 0;
        while sq < 90 {
            let value = psqt_mg(piece, sq);
            low = if value < low { value } else { low };
            high = if value > high { value } else { high };
            sq += 1;
        }
        let span = (high - low) as usize;
        reach = if span > reach { span } else { reach };
        piece += 1;
    }
    reach
};

static PLACEMENT: Placement = Placement::new();

impl Placement {
    const fn new() -> Placement {
        let mut mg = [0; Piece::COUNT * 90];
        let mut i = 0;
        while i < mg.len() {
            // `Score::mg` is an i16 widened.
            mg[i] = psqt_mg(i / 90, i % 90) as i16;
            i += 1;
        }
        let (low, high) = (-PLACEMENT_SPAN / 2, PLACEMENT_SPAN / 2 - 1);
        let mut shifted = [0; 2 * GAIN_REACH + 1];
        let mut index = 0;
        while index < shifted.len() {
            let gain = index as i32 - GAIN_REACH as i32;
            let clamped = if gain < low {
                low
            } else if gain > high {
                high
            } else {
                gain
            };
            shifted[index] = sort_key(clamped, 0);
            index += 1;
        }
        Placement { mg, shifted }
    }

    /// Middlegame piece-square gain of a quiet move for the side making it (`side`, the piece's
    /// colour), within ±PLACEMENT_SPAN/2, shifted to its place in the key.
    #[inline(always)]
    fn shifted_gain(&self, side: Color, piece: Piece, mv: Move) -> i32 {
        debug_assert_eq!(side, piece.color());
        let row = piece.index() * 90;
        // In isize, so the difference indexes the table without a sign extension.
        let value = |sq: Square| self.mg[row + sq.index()] as isize;
        let (to, from) = (value(mv.to()), value(mv.from()));
        // The tables hold Black's entries negated.
        let gain = match side {
            Color::Red => to - from,
            Color::Black => from - to,
        };
        let index = (gain + GAIN_REACH as isize) as usize;
        debug_assert!(index < self.shifted.len());
        // SAFETY: `to` and `from` are one piece's values, within GAIN_REACH of each other (its
        // definition), so `index` is within 0..=2 * GAIN_REACH.
        unsafe { *self.shifted.get_unchecked(index) }
    }
}

/// An ordering score with the move's list index in the low bits, so one integer maximum finds
/// the best move and, among equal scores, the one generated last. Scores (three histories, each
/// within ±2^14, × 256: within ±3·2^22; MVV/LVA within ±200,000) keep clear of overflow.
#[inline(always)]
const fn sort_key(score: i32, index: usize) -> i32 {
    (score << INDEX_BITS) | index as i32
}

#[inline(always)]
fn key_index(key: i32) -> usize {
    (key & INDEX_MASK) as usize
}

/// Capture history moves a capture by at most ±2^14 / this against the MVV/LVA key (a victim
/// class is 16 × its exchange value wide).
const CAPTURE_HISTORY_DIV: i32 = 8;

/// The mover and the victim of a generated capture.
#[inline(always)]
fn capture_pieces(pos: &Position, mv: Move) -> (Piece, Piece) {
    (
        generated_piece(pos, mv.from()),
        generated_piece(pos, mv.to()),
    )
}

/// The piece on `sq`, a square the generator vouches for: the departure square of a move it
/// generated, or the arrival square of a capture. Tested, not assumed: the picker is handed
/// its position at every call, and reading past a wrong one must stay a panic, not undefined
/// behaviour (the unchecked read saved 9 instructions a node).
#[inline(always)]
fn generated_piece(pos: &Position, sq: Square) -> Piece {
    pos.piece_at(sq)
        .expect("a generated move's mover or victim is on the board")
}

/// The safety sets of the captures' generation, which comes before every quiet stage.
#[inline(always)]
fn generated_safety(safety: &Option<Safety>) -> &Safety {
    safety
        .as_ref()
        .expect("the captures are generated before the quiets")
}

// `mvv_lva` divides by a shift.
const _: () = {
    let mut i = 0;
    while i < SEE_VALUE.len() {
        assert!(SEE_VALUE[i] > 0, "exchange values are positive");
        i += 1;
    }
};

/// Most valuable victim first, then least valuable attacker.
#[inline(always)]
fn mvv_lva(attacker: Piece, victim: Piece) -> i32 {
    // Exchange values are positive, so a shift divides the attacker's by 16.
    piece_value(victim) * 16 - (piece_value(attacker) >> 4)
}

/// The pawns of the side to move that [`pawn_nears_king`] may be true for: one step from the
/// last three ranks or on them (a superset: it is a filter).
#[inline(always)]
fn pawns_that_may_near_king(pos: &Position) -> Bitboard {
    // Ranks 6-8 for Red, 1-3 for Black: a pawn there can step forward onto ranks 7-9 / 0-2.
    const RED: Bitboard = Bitboard(((1 << 81) - 1) & !((1 << 54) - 1));
    const BLACK: Bitboard = Bitboard(((1 << 36) - 1) & !((1 << 9) - 1));
    let us = pos.side_to_move();
    pos.pieces(us, PieceType::Pawn)
        & match us {
            Color::Red => RED,
            Color::Black => BLACK,
        }
}

/// A pawn advancing into the last three ranks, beside the enemy palace: a quiet move, but one
/// many mates are built from, so late-move pruning and futility leave it alone.
#[inline]
pub fn pawn_nears_king(pos: &Position, mv: Move) -> bool {
    let to_rank = mv.to().rank();
    let deep = match pos.side_to_move() {
        Color::Red => to_rank >= 7 && to_rank > mv.from().rank(),
        Color::Black => to_rank <= 2 && to_rank < mv.from().rank(),
    };
    deep && pos
        .piece_at(mv.from())
        .is_some_and(|p| p.kind() == PieceType::Pawn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;
    use crate::board::types::Square;

    fn all_picked(pos: &Position, tt: Option<Move>, killers: [Option<Move>; 2]) -> Vec<Move> {
        let history = History::default();
        let mut picker = MovePicker::new(tt, killers, None, Continuations::default());
        std::iter::from_fn(|| picker.next(pos, &history)).collect()
    }

    /// `moves` in one fixed order, to compare two lists as sets.
    fn by_squares(mut moves: Vec<Move>) -> Vec<Move> {
        moves.sort_by_key(|m| m.raw());
        moves
    }

    #[test]
    fn every_legal_move_exactly_once() {
        let fens = [
            Position::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let legal = legal_moves(&pos);
            let tt = legal.as_slice().last().copied();
            let killers = [
                legal.as_slice().first().copied(),
                Some(Move::new(Square::new(0), Square::new(89))),
            ];
            let picked = all_picked(&pos, tt, killers);
            assert_eq!(picked[0], tt.unwrap(), "{fen}: hash move first");
            assert_eq!(
                by_squares(picked),
                by_squares(legal.as_slice().to_vec()),
                "{fen}"
            );
        }
    }

    /// Along random games, the picker hands out exactly the legal moves, each once: the king
    /// steps the generator leaves untested included (some of them illegal).
    #[test]
    fn picks_every_legal_move_along_random_games() {
        let mut rng = fastrand::Rng::with_seed(7);
        let mut illegal_king_steps = 0;
        for _ in 0..30 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let legal = legal_moves(&pos);
                if legal.is_empty() {
                    break;
                }
                let pick = |rng: &mut fastrand::Rng| legal.as_slice()[rng.usize(..legal.len())];
                let tt = rng.bool().then(|| pick(&mut rng));
                let picked = all_picked(&pos, tt, [Some(pick(&mut rng)), None]);
                assert_eq!(
                    by_squares(picked),
                    by_squares(legal.as_slice().to_vec()),
                    "{}",
                    pos.to_fen()
                );
                let king = pos.king_square(pos.side_to_move());
                illegal_king_steps += (king_attacks(king) & !pos.occupied())
                    .into_iter()
                    .filter(|&to| !legal.contains(Move::new(king, to)))
                    .count();
                pos.make_move(pick(&mut rng));
            }
        }
        assert!(
            illegal_king_steps > 100,
            "illegal king steps {illegal_king_steps}"
        );
    }

    /// The pruning picker gives what the plain picker gives with each non-checking quiet
    /// skipped (and sorting stopped at the first), for positions with and without checks.
    #[test]
    fn pruning_picker_drops_exactly_the_quiets_that_do_not_check() {
        let fens = [
            Position::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            "3k1ab2/6n2/b2a5/p1r1C4/4CN3/P4p2P/3RP4/4B4/4A4/3AK1B2 w - - 2 28",
        ];
        let mut history = History::default();
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let legal = legal_moves(&pos);
            // Some history so the quiets are sorted by more than their placement.
            for (i, &mv) in legal.iter().enumerate() {
                history.update(pos.side_to_move(), mv, (i as i32 * 37) % 500 - 250);
            }
            let killers = [legal.as_slice().get(3).copied(), None];
            let checks = CheckInfo::new(&pos);
            let mut plain = MovePicker::new(None, killers, None, Continuations::default());
            let mut expected = Vec::new();
            while let Some(mv) = plain.next(&pos, &history) {
                if pos.piece_at(mv.to()).is_none() && !pos.gives_check(mv) {
                    plain.quiets_unsorted = true;
                } else {
                    expected.push(mv);
                }
            }
            let mut pruning = MovePicker::new(None, killers, None, Continuations::default());
            let got: Vec<Move> =
                std::iter::from_fn(|| pruning.next_capture_or_check(&pos, &history, &checks))
                    .collect();
            assert_eq!(got, expected, "{fen}");
        }
    }

    /// The same along random games, killers and hash moves included: positions where no
    /// quiet qualifies (the picker then skips generating them) and where some do.
    #[test]
    fn pruning_picker_agrees_along_random_games() {
        let mut rng = fastrand::Rng::with_seed(23);
        let mut history = History::default();
        let (mut skipped, mut kept, mut pushes) = (0, 0, 0);
        for _ in 0..30 {
            let mut pos = Position::startpos();
            for _ in 0..100 {
                let legal = legal_moves(&pos);
                if legal.is_empty() {
                    break;
                }
                let pick = |rng: &mut fastrand::Rng| legal.as_slice()[rng.usize(..legal.len())];
                let (tt, killers) = (Some(pick(&mut rng)), [Some(pick(&mut rng)), None]);
                for &mv in &legal {
                    history.update(pos.side_to_move(), mv, rng.i32(-300..300));
                    if pawn_nears_king(&pos, mv) {
                        pushes += 1;
                        assert!(pawns_that_may_near_king(&pos).has(mv.from()), "{mv}");
                    }
                }
                let checks = CheckInfo::new(&pos);
                let mut plain = MovePicker::new(tt, killers, None, Continuations::default());
                let mut expected = Vec::new();
                while let Some(mv) = plain.next(&pos, &history) {
                    if pos.piece_at(mv.to()).is_none()
                        && !pos.gives_check(mv)
                        && !pawn_nears_king(&pos, mv)
                    {
                        plain.quiets_unsorted = true;
                    } else {
                        expected.push(mv);
                    }
                }
                let mut pruning = MovePicker::new(tt, killers, None, Continuations::default());
                let got: Vec<Move> =
                    std::iter::from_fn(|| pruning.next_capture_or_check(&pos, &history, &checks))
                        .collect();
                assert_eq!(got, expected, "{}", pos.to_fen());
                if pruning
                    .list
                    .as_slice()
                    .iter()
                    .any(|&m| pos.piece_at(m.to()).is_none())
                {
                    kept += 1;
                } else {
                    skipped += 1;
                }
                pos.make_move(pick(&mut rng));
            }
        }
        assert!(
            skipped > 100 && kept > 100 && pushes > 20,
            "skipped {skipped}, kept {kept}, pawn pushes {pushes}"
        );
    }

    /// The killers' legality test against the generator, for every pair of squares.
    #[test]
    fn quiet_legality_agrees_with_generator() {
        let fens = [
            Position::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            "3k1ab2/6n2/b2a5/p1r1C4/4CN3/P4p2P/3RP4/4B4/4A4/3AK1B2 w - - 2 28",
            "4k4/9/9/9/4c4/9/4R4/9/4C4/3K5 b - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let legal = legal_moves(&pos);
            let mut picker = MovePicker::new(None, [None; 2], None, Continuations::default());
            // The captures' generation sets up the safety sets the test reads.
            picker.next(&pos, &History::default());
            for from in 0..90 {
                for to in 0..90 {
                    if from != to {
                        let mv = Move::new(Square::new(from), Square::new(to));
                        let expected = legal.contains(mv) && pos.piece_at(mv.to()).is_none();
                        assert_eq!(picker.is_legal_quiet(&pos, mv), expected, "{fen} {mv}");
                    }
                }
            }
        }
    }

    #[test]
    fn legality_check_agrees_with_generator() {
        let pos =
            Position::from_fen("1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1")
                .unwrap();
        let legal = legal_moves(&pos);
        for from in 0..90 {
            for to in 0..90 {
                if from != to {
                    let mv = Move::new(Square::new(from), Square::new(to));
                    assert_eq!(pos.is_legal(mv), legal.contains(mv), "{mv}");
                }
            }
        }
    }
}
