//! Staged move ordering, one [`MovePicker::next`] for every kind of node. Full-width nodes
//! (and evasions): the hash move before any generation, winning captures by victim/attacker
//! value, killers and the counter-move, quiets by butterfly and continuation history, captures
//! that lose material last. Quiescence: the hash move if it captures, then the winning
//! captures. A cut-off in an early stage saves generating the later ones. Whether a move is
//! legal here is the board's to say (`Position::is_legal_quiet` for killers and counter-moves,
//! the generator for the rest); the picker only orders. Why its functions are split and
//! inlined as they are: perf/README.md, "The move picker".

use super::history::{Continuations, History};
use super::see::{piece_value, see_ge, SEE_VALUE};
use crate::board::movegen::{
    generate_captures, generate_quiets, uninit_array, MoveList, Safety, MAX_MOVES,
};
use crate::board::position::Position;
use crate::board::types::{Color, Move, Piece, Square};
use crate::eval::psqt::psqt_mg;
use std::mem::MaybeUninit;

/// The stages in the order each kind of picker goes through them; a stage with nothing (left)
/// to hand out falls through to the next.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    // Full-width nodes, and quiescence in check (which has no killers or counter-move).
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    // Quiescence outside check: losing captures are dropped, not kept for later.
    QuiescenceTtMove,
    GenQuiescenceCaptures,
    QuiescenceCaptures,
    Done,
}

pub struct MovePicker {
    stage: Stage,
    /// The moves the stages before the quiets may hand out: the hash move, the two killers
    /// and the counter-move. Side by side, so the quiets are tested against all four at once.
    early: [Option<Move>; 4],
    /// The moves before this node, whose continuation histories order the quiets.
    continuations: Continuations,
    list: MoveList,
    /// Per move of `list`: its ordering score and index packed by [`sort_key`]; moves already
    /// handed out hold [`TAKEN`]. Only the first `list.len()` are initialised, and only while
    /// `keyed`: every stage that fills `list` writes them at once ([`MovePicker::set_keys`])
    /// or clears `keyed`, and nothing else changes its length.
    keys: [MaybeUninit<i32>; MAX_MOVES],
    keyed: bool,
    /// Set once the search passes over a quiet move: the quiets left are handed out in
    /// generation order, `next` the index of `list` to look at.
    unsorted: bool,
    next: usize,
    bad: MoveList,
    bad_next: usize,
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
            list: MoveList::new(),
            keys: uninit_array(),
            keyed: false,
            unsorted: false,
            next: 0,
            bad: MoveList::new(),
            bad_next: 0,
            safety: None,
            king_steps: MAX_MOVES,
        }
    }

    /// Orders the moves of a quiescence node: every evasion when in check (the full-width
    /// stages without killers), else the captures that win at least nothing by exchange.
    pub fn quiescence(tt_move: Option<Move>, in_check: bool) -> MovePicker {
        let mut picker = MovePicker::new(tt_move, [None; 2], None, Continuations::default());
        if !in_check {
            picker.stage = Stage::QuiescenceTtMove;
        }
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

    /// The next move to search, or `None` when all are done. Once the search prunes quiet
    /// moves (late-move pruning, futility), `skip_quiets` is its test of which quiets it
    /// passes over (all but checks and pawn pushes at the king: the search decides, not the
    /// picker). They are not handed out, and from the first of them on the quiets left come
    /// unsorted, in generation order: ordering moves most of which are passed over is wasted
    /// work. Once given, `skip_quiets` should be given for the rest of the node.
    #[inline(always)]
    pub fn next(
        &mut self,
        pos: &Position,
        history: &History,
        skip_quiets: Option<impl SkipQuiets>,
    ) -> Option<Move> {
        // Most picks are of a good capture or a quiet: those stages are tried first.
        let found = match self.stage {
            Stage::GoodCaptures => self.pick_good_capture(pos, true),
            Stage::QuiescenceCaptures => self.pick_good_capture(pos, false),
            Stage::Quiets => self.pick_quiet(pos, &skip_quiets),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
        // Those leaves end the picking themselves when no stage is left after theirs.
        match self.stage {
            Stage::Done => None,
            Stage::QuiescenceTtMove | Stage::GenQuiescenceCaptures => self.next_quiescence(pos),
            _ => self.next_full_width(pos, history, &skip_quiets),
        }
    }

    /// The quiescence picker's stages before its good captures: the hash move if it captures,
    /// then the captures generated by victim and attacker and the first good one picked.
    /// Apart from [`MovePicker::next_full_width`], whose stages then need not ask which kind
    /// of picker this is.
    #[inline(never)]
    fn next_quiescence(&mut self, pos: &Position) -> Option<Move> {
        if self.stage == Stage::QuiescenceTtMove {
            self.stage = Stage::GenQuiescenceCaptures;
            if let Some(mv) = self.tt_move() {
                if pos.piece_at(mv.to()).is_some() {
                    return Some(mv);
                }
            }
        }
        debug_assert_eq!(self.stage, Stage::GenQuiescenceCaptures);
        // Quiescence's delta pruning stops at the first victim too small, so its captures
        // keep strict victim order. (The safety sets are for the quiets, which it never has.)
        generate_captures(pos, &mut self.list);
        // No capture (a quarter of the generations): done without the keying loop's set-up
        // or the picker's call.
        if self.list.is_empty() {
            self.stage = Stage::Done;
            return None;
        }
        self.set_keys(|mv| {
            let (attacker, victim) = capture_pieces(pos, mv);
            mvv_lva(attacker, victim)
        });
        self.stage = Stage::QuiescenceCaptures;
        self.pick_good_capture(pos, false)
    }

    /// The full-width picker's stages (also quiescence's in check). They are tried in their
    /// order, each falling through to the next when it has nothing, and the stage is stored
    /// once on the way out.
    fn next_full_width(
        &mut self,
        pos: &Position,
        history: &History,
        skip_quiets: &Option<impl SkipQuiets>,
    ) -> Option<Move> {
        let mut stage = self.stage;
        let found = 'found: {
            // Stage 1. The hash move, before any generation.
            if stage == Stage::TtMove {
                stage = Stage::GenCaptures;
                if let Some(mv) = self.tt_move() {
                    if pos.piece_at(mv.to()).is_some() || !self.skips(skip_quiets, mv) {
                        break 'found Some(mv);
                    }
                }
            }
            // Stage 2. The captures; no capture (a quarter of the generations): on without
            // the keying loop's set-up or the picker's call.
            if stage == Stage::GenCaptures {
                stage = if self.gen_captures(pos, history) {
                    Stage::GoodCaptures
                } else {
                    Stage::Killer1
                };
            }
            if stage == Stage::GoodCaptures {
                if let Some(mv) = self.pick_good_capture(pos, true) {
                    break 'found Some(mv);
                }
                // What `pick_good_capture` moved on to.
                stage = Stage::Killer1;
            }
            // Stage 3. The killers and the counter-move, if legal quiets here.
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
                        let safety = generated_safety(&self.safety);
                        if !repeated
                            && pos.is_legal_quiet(mv, safety)
                            && !self.skips(skip_quiets, mv)
                        {
                            break 'found Some(mv);
                        }
                    }
                }
            }
            // Stage 4. The quiets, sorted until the search passes one over.
            if stage == Stage::GenQuiets {
                self.gen_quiets(pos, history);
                stage = Stage::Quiets;
            }
            if stage == Stage::Quiets {
                // The leaves move the stage on when they find nothing.
                self.stage = stage;
                if let Some(mv) = self.pick_quiet(pos, skip_quiets) {
                    break 'found Some(mv);
                }
                stage = self.stage;
            }
            // Stage 5. The captures that lose material, in the order they were passed over.
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

    /// Generates the captures and keys them by victim and attacker and capture history: are
    /// there any?
    #[inline(always)]
    fn gen_captures(&mut self, pos: &Position, history: &History) -> bool {
        self.safety = Some(generate_captures(pos, &mut self.list));
        if self.list.is_empty() {
            return false;
        }
        self.set_keys(|mv| {
            let (attacker, victim) = capture_pieces(pos, mv);
            mvv_lva(attacker, victim)
                + history.capture_score(attacker, mv, victim.kind()) / CAPTURE_HISTORY_DIV
        });
        true
    }

    /// The best capture left that wins at least nothing by exchange; the others are kept for
    /// the last stage with `keep_bad`, else dropped (quiescence outside check, which has no
    /// stage after this one).
    #[inline(never)]
    fn pick_good_capture(&mut self, pos: &Position, keep_bad: bool) -> Option<Move> {
        while let Some(mv) = self.pick_best() {
            if Some(mv) == self.tt_move() {
                continue;
            }
            if see_ge(pos, mv, 0) {
                return Some(mv);
            }
            if keep_bad {
                self.bad.push(mv);
            }
        }
        self.stage = if keep_bad {
            Stage::Killer1
        } else {
            Stage::Done
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
                    return self.tested_king_step(pos, mv);
                }
                return Some(mv);
            }
        }
        self.end_quiets();
        None
    }

    /// [`MovePicker::pick_sorted_quiet`] once it has picked `mv`, a king step the generator
    /// left untested: `mv` if legal, else the next pick.
    #[inline(never)]
    fn tested_king_step(&mut self, pos: &Position, mv: Move) -> Option<Move> {
        if pos.is_legal_king_step(mv.to()) {
            return Some(mv);
        }
        self.pick_sorted_quiet(pos)
    }

    /// Does the search pass over the quiet `mv` ([`MovePicker::next`])? The first one it
    /// does ends the quiets' sorting.
    #[inline(always)]
    fn skips(&mut self, skip_quiets: &Option<impl SkipQuiets>, mv: Move) -> bool {
        let skips = skip_quiets.as_ref().is_some_and(|skip| skip.skips(mv));
        self.unsorted |= skips;
        skips
    }

    /// In the quiets stage, the next quiet the search does not pass over, sorted or not
    /// ([`MovePicker::next`]).
    #[inline(always)]
    fn pick_quiet(
        &mut self,
        pos: &Position,
        skip_quiets: &Option<impl SkipQuiets>,
    ) -> Option<Move> {
        match skip_quiets {
            Some(skip) => self.pick_quiet_skipping(pos, skip),
            None if self.unsorted => self.pick_unsorted_quiet(pos, &|_| false),
            None => self.pick_sorted_quiet(pos),
        }
    }

    /// [`MovePicker::pick_quiet`] while the search passes some over: sorted picks until
    /// the first it does, then unsorted ones.
    #[inline(never)]
    fn pick_quiet_skipping(&mut self, pos: &Position, skip: &impl SkipQuiets) -> Option<Move> {
        if !self.unsorted {
            let mv = self.pick_sorted_quiet(pos)?;
            if !skip.skips(mv) {
                return Some(mv);
            }
            self.unsorted = true;
        }
        self.pick_unsorted_quiet(pos, skip)
    }

    /// The next legal quiet in generation order that the search does not pass over
    /// (`skip`), leaving out the moves handed out before (the hash move, killers,
    /// counter-move, and the sorted picks before the search began to skip quiets). A tight
    /// loop: most quiets are passed over once quiets are pruned.
    #[inline(always)]
    fn pick_unsorted_quiet(&mut self, pos: &Position, skip: &impl SkipQuiets) -> Option<Move> {
        debug_assert!(self.unsorted);
        // The search's test first: it passes over most moves.
        let mut i = self.next;
        while i < self.list.len() {
            let (index, mv) = (i, self.list.as_slice()[i]);
            i += 1;
            if !skip.skips(mv)
                && !self.sorted_pick(index)
                && !self.tried_before(mv)
                && self.quiet_is_legal(pos, index, mv)
            {
                self.next = i;
                return Some(mv);
            }
        }
        self.next = i;
        self.end_quiets();
        None
    }

    /// Was the quiet at `index` of `list` handed out by a sorted pick?
    #[inline(always)]
    fn sorted_pick(&mut self, index: usize) -> bool {
        self.keyed && self.keys()[index] == TAKEN
    }

    /// The quiets are all handed out: on to the bad captures, all still to come.
    #[inline(always)]
    fn end_quiets(&mut self) {
        self.stage = if self.bad.is_empty() {
            Stage::Done
        } else {
            Stage::BadCaptures
        };
    }

    /// Generates the quiets, and scores them unless a quiet was passed over already (they
    /// are then handed out in generation order).
    #[inline(never)]
    fn gen_quiets(&mut self, pos: &Position, history: &History) {
        self.list.clear();
        self.king_steps = generate_quiets(pos, generated_safety(&self.safety), &mut self.list);
        self.next = 0;
        if self.unsorted {
            // No sorted pick reads the keys from here on.
            self.keyed = false;
            return;
        }
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
        for (i, (key, &mv)) in self.keys.iter_mut().zip(moves).enumerate() {
            // The index's bits are clear in `shifted`.
            *key = MaybeUninit::new(shifted(mv) + i as i32);
        }
        self.keyed = true;
    }

    /// The keys of the moves of `list`.
    #[inline(always)]
    fn keys(&mut self) -> &mut [i32] {
        debug_assert!(self.keyed);
        let init = &mut self.keys[..self.list.len()];
        // SAFETY: `set_keys` wrote a key for every move of `list` when it was filled, and
        // only a list so keyed is read (`keyed`, see the field); `MaybeUninit<i32>` has the
        // layout of `i32`.
        unsafe { &mut *(init as *mut [MaybeUninit<i32>] as *mut [i32]) }
    }

    /// Was `mv` handed out before the quiets stage (hash move, killer or counter-move)?
    #[inline(always)]
    fn tried_before(&self, mv: Move) -> bool {
        self.early.contains(&Some(mv))
    }

    /// Is the quiet `mv`, at `index` of `list`, legal? The generator vouches for every move
    /// but the king's steps it left untested, which the board tests.
    #[inline(always)]
    fn quiet_is_legal(&self, pos: &Position, index: usize, mv: Move) -> bool {
        index < self.king_steps || pos.is_legal_king_step(mv.to())
    }

    /// Selection sort step: moves are usually few before a cut-off, so this beats sorting.
    /// The list stays in place; the best key is a plain maximum.
    fn pick_best(&mut self) -> Option<Move> {
        let index = self.pick_best_index()?;
        Some(self.list.as_slice()[index])
    }

    /// [`MovePicker::pick_best`], giving the move's index in `list`.
    #[inline(always)]
    fn pick_best_index(&mut self) -> Option<usize> {
        let keys = self.keys();
        // Folded from TAKEN: below every key, and the answer when none is left.
        let best = keys.iter().fold(TAKEN, |best, &key| best.max(key));
        if best == TAKEN {
            return None;
        }
        let index = key_index(best);
        keys[index] = TAKEN;
        Some(index)
    }
}

/// The search's test, once it prunes quiet moves, of which quiets it passes over
/// ([`MovePicker::next`]).
pub trait SkipQuiets {
    fn skips(&self, mv: Move) -> bool;
}

impl<F: Fn(Move) -> bool> SkipQuiets for F {
    #[inline(always)]
    fn skips(&self, mv: Move) -> bool {
        self(mv)
    }
}

/// For [`MovePicker::next`] where the search passes over no quiet move.
pub const KEEP_QUIETS: Option<fn(Move) -> bool> = None;

/// Marks a move already handed out; below every real key.
const TAKEN: i32 = i32::MIN;
const INDEX_BITS: u32 = 7;
const INDEX_MASK: i32 = (1 << INDEX_BITS) - 1;
static_assertions::const_assert!(MAX_MOVES <= 1 << INDEX_BITS);

/// Quiets with equal history (most of them, early in a search) are ordered by how much the
/// piece-square table likes the move, clamped to this span; history always comes first.
const PLACEMENT_SPAN: i32 = 256;

/// The piece-square part of the quiet keys, in tables derived at compile time from the
/// evaluation's, the clamped difference included.
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
/// behaviour.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::attacks::king_attacks;
    use crate::board::movegen::legal_moves;
    use crate::board::types::Square;
    use crate::search::worker::pawn_nears_king;

    /// Every move the picker hands out, the search passing over the quiets `passed_over`.
    fn all_picked(
        pos: &Position,
        tt: Option<Move>,
        killers: [Option<Move>; 2],
        passed_over: &[Move],
    ) -> Vec<Move> {
        let history = History::default();
        let mut picker = MovePicker::new(tt, killers, None, Continuations::default());
        let skip = |mv| passed_over.contains(&mv);
        let skip_quiets = (!passed_over.is_empty()).then_some(skip);
        std::iter::from_fn(|| picker.next(pos, &history, skip_quiets)).collect()
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
            let picked = all_picked(&pos, tt, killers, &[]);
            assert_eq!(picked[0], tt.unwrap(), "{fen}: hash move first");
            assert_eq!(
                by_squares(picked),
                by_squares(legal.as_slice().to_vec()),
                "{fen}"
            );
        }
    }

    /// Along random games, the picker hands out exactly the legal moves, each once, but the
    /// quiets the search passes over (none, or a random part): the king steps the generator
    /// leaves untested included (some of them illegal).
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
                let skipping = rng.bool();
                let (passed_over, searched): (Vec<Move>, Vec<Move>) = legal
                    .iter()
                    .partition(|&&mv| skipping && pos.piece_at(mv.to()).is_none() && rng.bool());
                let picked = all_picked(&pos, tt, [Some(pick(&mut rng)), None], &passed_over);
                assert_eq!(
                    by_squares(picked),
                    by_squares(searched),
                    "{} passing over {passed_over:?}",
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

    /// Does the search keep this move when it prunes quiets: a capture, a check or a pawn
    /// nearing the king?
    fn kept_when_pruning(pos: &Position, mv: Move) -> bool {
        pos.piece_at(mv.to()).is_some() || pos.gives_check(mv) || pawn_nears_king(pos, mv)
    }

    /// The legal quiets in the generator's order (the king's steps, tested last).
    fn generated_quiets(pos: &Position) -> Vec<Move> {
        let mut list = MoveList::new();
        let safety = generate_captures(pos, &mut list);
        list.clear();
        generate_quiets(pos, &safety, &mut list);
        let legal = legal_moves(pos);
        list.iter()
            .copied()
            .filter(|&mv| legal.contains(mv))
            .collect()
    }

    /// The oracle of move order: what a node whose quiets are pruned from its `start`-th pick
    /// on searches, built from the plain picker's order `plain` and the generator's, not from
    /// the picker's pruning path. Quiets that neither check nor push a pawn at the king are
    /// passed over; from the first of them on, the quiets still to come in the quiets stage
    /// (all but the hash move, killers and counter-move, `early`) follow in generation order.
    /// (Checked against the picker before its stages were merged, `60cc6d5`, whose pruning
    /// path tested the checks itself.)
    fn expected_with_pruning(
        pos: &Position,
        plain: &[Move],
        start: usize,
        early: &[Option<Move>],
    ) -> Vec<Move> {
        let (mut out, mut switched, mut inserted) = (Vec::new(), false, false);
        for (i, &mv) in plain.iter().enumerate() {
            let quiet = pos.piece_at(mv.to()).is_none();
            let passed_over = i >= start && !kept_when_pruning(pos, mv);
            switched |= passed_over;
            if switched && quiet && !early.contains(&Some(mv)) {
                if !inserted {
                    inserted = true;
                    let rest = generated_quiets(pos).into_iter().filter(|&m| {
                        !plain[..i].contains(&m)
                            && !early.contains(&Some(m))
                            && kept_when_pruning(pos, m)
                    });
                    out.extend(rest);
                }
                continue;
            }
            if !passed_over {
                out.push(mv);
            }
        }
        out
    }

    /// The picker driven as `negamax` drives it when it prunes quiets from the `start`-th
    /// pick on: the moves searched.
    fn picked_with_pruning(
        pos: &Position,
        mut picker: MovePicker,
        history: &History,
        start: usize,
    ) -> Vec<Move> {
        let mut searched = Vec::new();
        let skip = |mv| !kept_when_pruning(pos, mv);
        while let Some(mv) = picker.next(pos, history, (searched.len() >= start).then_some(skip)) {
            searched.push(mv);
        }
        searched
    }

    /// The pruning order against the oracle along random games and from a few set positions:
    /// hash moves, killers and counter-moves, pruning from the first or a random pick on,
    /// positions with and without quiet checks.
    #[test]
    fn pruning_order_agrees_with_oracle() {
        let fens = [
            Position::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            "3k1ab2/6n2/b2a5/p1r1C4/4CN3/P4p2P/3RP4/4B4/4A4/3AK1B2 w - - 2 28",
        ];
        let mut rng = fastrand::Rng::with_seed(29);
        let mut history = History::default();
        let (mut switched_mid_quiets, mut pushes) = (0, 0);
        for game in 0..40 {
            let mut pos = Position::from_fen(fens[game % fens.len()]).unwrap();
            for _ in 0..100 {
                let legal = legal_moves(&pos);
                if legal.is_empty() {
                    break;
                }
                let pick = |rng: &mut fastrand::Rng| legal.as_slice()[rng.usize(..legal.len())];
                let tt = rng.bool().then(|| pick(&mut rng));
                let killers = [Some(pick(&mut rng)), rng.bool().then(|| pick(&mut rng))];
                let counter = rng.bool().then(|| pick(&mut rng));
                for &mv in &legal {
                    history.update(pos.side_to_move(), mv, rng.i32(-300..300));
                    pushes += pawn_nears_king(&pos, mv) as usize;
                }
                let fresh = || MovePicker::new(tt, killers, counter, Continuations::default());
                let mut plain = fresh();
                let plain: Vec<Move> =
                    std::iter::from_fn(|| plain.next(&pos, &history, KEEP_QUIETS)).collect();
                let start = if rng.bool() {
                    0
                } else {
                    rng.usize(..=plain.len())
                };
                let early = [tt, killers[0], killers[1], counter];
                let expected = expected_with_pruning(&pos, &plain, start, &early);
                let got = picked_with_pruning(&pos, fresh(), &history, start);
                assert_eq!(got, expected, "{} from pick {start}", pos.to_fen());
                switched_mid_quiets += (start > 0
                    && start < plain.len()
                    && pos.piece_at(plain[start - 1].to()).is_none())
                    as usize;
                pos.make_move(pick(&mut rng));
            }
        }
        assert!(
            switched_mid_quiets > 100 && pushes > 20,
            "switched among the quiets {switched_mid_quiets}, pawn pushes {pushes}"
        );
    }
}
