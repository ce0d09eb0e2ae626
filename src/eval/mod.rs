//! Static evaluation. The evaluator follows the board through [`BoardObserver`], keeping the
//! packed material + piece-square sum, the game phase and the material signature incremental; everything else is
//! computed per evaluated node from bitboards and remembered in a small cache.
//!
//! This is the interface search builds on: `Evaluator::new(&pos)`, pass it to
//! `make_move_with`/`unmake_move_with`, call `evaluate(&pos)`.

mod cache;
mod cannon;
mod king;
mod masks;
mod mobility;
pub mod params;
mod patterns;
pub(crate) mod psqt;
mod relations;
mod scale;
pub mod score;
pub mod trace;
mod wide;

use crate::board::position::{BoardObserver, Position};
use crate::board::types::{Color, Piece, PieceType, Square};
use crate::nnue::{AccumulatorStack, Accumulators, Network};
use cache::EvalCache;
use mobility::DefenderCache;
use params::{PHASE_MAX, TEMPO};
use psqt::{material_unit, phase_weight, psqt, Incremental};
use score::Score;
use std::sync::Arc;
use trace::{Term, Trace, Tracer};

#[derive(Clone)]
pub struct Evaluator {
    /// Red's material and placement minus Black's, packed mg/eg.
    psq: Score,
    /// Sum of [`params::PHASE_WEIGHT`] over the pieces on the board.
    phase: i32,
    /// The number of pieces of each colour and kind, packed (see [`Evaluator::material`]).
    material: u64,
    caches: EvalCaches,
    /// The network and its accumulators, when the network evaluates (`Use NNUE`); the
    /// classical terms above are kept either way (the search's lazy test, the material key).
    nnue: Option<NnueState>,
}

#[derive(Clone)]
struct NnueState {
    net: Arc<Network>,
    stack: AccumulatorStack,
}

/// The evaluation's memo tables: whole scores by position, and each side's king, advisors and
/// elephants by the squares they depend on. What they hold depends on the position alone, so
/// they stay valid from one search to the next (the search keeps them through a game).
#[derive(Clone, Default)]
pub struct EvalCaches {
    scores: EvalCache,
    defenders: DefenderCache,
}

impl Evaluator {
    pub fn new(pos: &Position) -> Evaluator {
        Evaluator::with_caches(pos, EvalCaches::default())
    }

    /// An evaluator for `pos` that remembers scores in `caches` (filled by earlier searches).
    pub fn with_caches(pos: &Position, caches: EvalCaches) -> Evaluator {
        Evaluator::with_network(pos, caches, None)
    }

    /// An evaluator that scores with `network` (the classical evaluation when `None`).
    pub fn with_network(
        pos: &Position,
        caches: EvalCaches,
        network: Option<Arc<Network>>,
    ) -> Evaluator {
        let Incremental {
            psq,
            phase,
            material,
        } = Incremental::full_recount(pos);
        Evaluator {
            psq,
            phase,
            material,
            caches,
            nnue: network.map(|net| NnueState {
                stack: AccumulatorStack::new(&net, pos),
                net,
            }),
        }
    }

    /// The network evaluating, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.nnue.as_ref().map(|n| &n.net)
    }

    /// Gives the memo tables back, for the next search.
    pub fn into_caches(self) -> EvalCaches {
        self.caches
    }

    /// Score in centipawns from the side to move's point of view.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        match self.cached(pos) {
            Some(score) => score,
            None => self.evaluate_fresh(pos),
        }
    }

    /// The score `evaluate` gives, if the cache remembers it.
    #[inline(always)]
    pub fn cached(&self, pos: &Position) -> Option<i32> {
        self.caches.scores.probe(pos.hash())
    }

    /// Starts loading the cache's entries for the position with this hash (a child about to
    /// be searched).
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        self.caches.scores.prefetch(hash);
    }

    /// The full evaluation of a position the cache does not hold, remembered for next time.
    /// Out of line: inlined into the search's two callers it bloats them and costs more.
    #[inline(never)]
    pub fn evaluate_fresh(&mut self, pos: &Position) -> i32 {
        debug_assert!(
            self.matches_full_recompute(pos),
            "evaluator out of step with the board"
        );
        let score = self.evaluate_with_caches(pos);
        self.caches.scores.store(pos.hash(), score);
        score
    }

    /// Whether [`Evaluator::lazy`] stands for the evaluation: for the classical one, whose
    /// other terms rarely move it far (its margin was fitted on them); not for the network,
    /// whose score no margin around material and placement bounds, and which costs little
    /// once its accumulators are kept.
    #[inline(always)]
    pub fn lazy_applies(&self) -> bool {
        self.nnue.is_none()
    }

    /// The incremental part alone, from the side to move's point of view: material and
    /// placement with the tempo, tapered as `evaluate` does but not scaled (the scale only
    /// draws a score toward zero; see [`Evaluator::scaled`]). The search stands on it when it
    /// lies far outside the window, where the other terms (flexibility, relations, king
    /// safety, patterns) rarely bring the score back.
    #[inline(always)]
    pub fn lazy(&self, pos: &Position) -> i32 {
        let us = pos.side_to_move();
        let red = self.psq + signed(us, Score::from_pair(TEMPO));
        let blended = blend(red, capped(self.phase));
        match us {
            Color::Red => blended,
            Color::Black => -blended,
        }
    }

    /// `lazy` drawn toward zero by the draw scale, as `evaluate` scales its score.
    #[inline]
    pub fn scaled(&self, pos: &Position, lazy: i32) -> i32 {
        let us = pos.side_to_move();
        let strong = if lazy > 0 { us } else { !us };
        scale::apply(lazy, scale::scale(self.material, strong))
    }

    /// The full evaluation, bypassing the caches (benchmarks, tests).
    #[inline]
    pub fn evaluate_uncached(&mut self, pos: &Position) -> i32 {
        if let Some(nnue) = &mut self.nnue {
            return nnue.evaluate(pos);
        }
        evaluate_with(pos, &self.psq, &self.phase, &self.material, None, &mut ())
    }

    /// The full evaluation, the defenders' part from their cache.
    #[inline(always)]
    fn evaluate_with_caches(&mut self, pos: &Position) -> i32 {
        if let Some(nnue) = &mut self.nnue {
            return nnue.evaluate(pos);
        }
        evaluate_with(
            pos,
            &self.psq,
            &self.phase,
            &self.material,
            Some(&mut self.caches.defenders),
            &mut (),
        )
    }

    /// Every term of the evaluation of `pos`, and the final score `evaluate` gives.
    pub fn trace(pos: &Position) -> Trace {
        let mut trace = Trace::default();
        for sq in Square::all() {
            if let Some(piece) = pos.piece_at(sq) {
                // The tables hold Black's entries negated; the trace shows each side's own view.
                let own = if piece.color() == Color::Red {
                    psqt(piece, sq)
                } else {
                    -psqt(piece, sq)
                };
                trace.term(Term::Material, piece.color(), own);
            }
        }
        let Incremental {
            psq,
            phase,
            material,
        } = Incremental::full_recount(pos);
        trace.final_score = evaluate_with(pos, &psq, &phase, &material, None, &mut trace);
        trace
    }

    /// Evaluates `pos` from scratch, reporting every term, and every weight with how often it
    /// counted, to `tracer` (the tuner's coefficients: the weights reach it from the very code
    /// the search runs). Returns what `evaluate` returns.
    pub fn evaluate_traced<T: Tracer>(pos: &Position, tracer: &mut T) -> i32 {
        for sq in Square::all() {
            if let Some(piece) = pos.piece_at(sq) {
                let kind = piece.kind().index();
                // Black's tables are Red's turned over: look the square up from its own side.
                let rank = match piece.color() {
                    Color::Red => sq.rank(),
                    Color::Black => 9 - sq.rank(),
                };
                let entry = params::table_index(sq.file(), rank);
                tracer.weight(piece.color(), trace::weight::PIECE_VALUE + kind, 64);
                tracer.weight(piece.color(), trace::weight::PST + kind * 90 + entry, 64);
            }
        }
        let Incremental {
            psq,
            phase,
            material,
        } = Incremental::full_recount(pos);
        evaluate_with(pos, &psq, &phase, &material, None, tracer)
    }

    /// Does the incremental state equal a recount from the board? (tests, fuzzing, debug)
    /// The network's accumulators are brought up to date for it, as an evaluation would.
    pub fn matches_full_recompute(&mut self, pos: &Position) -> bool {
        let kept = Incremental {
            psq: self.psq,
            phase: self.phase,
            material: self.material,
        };
        Incremental::full_recount(pos) == kept
            && self.nnue.as_mut().is_none_or(|n| {
                n.stack.current(&n.net, pos) == Accumulators::new(&n.net, pos).halves()
            })
    }

    /// Red's material and placement minus Black's, as kept incrementally.
    pub fn psq(&self) -> Score {
        self.psq
    }

    /// The material signature: each colour's count of each kind but the king, three bits
    /// apiece, so equal material is one equal number (the correction history's key).
    #[inline(always)]
    pub fn material(&self) -> u64 {
        self.material
    }
}

/// The classical terms follow every piece; the network's stack takes moves whole (a step up
/// on make, a step down on unmake), and pieces that come or go outside a move make it rebuild
/// the current entry.
impl BoardObserver for Evaluator {
    #[inline(always)]
    fn add_piece(&mut self, piece: Piece, sq: Square) {
        self.add_classical(piece, sq);
        if let Some(n) = &mut self.nnue {
            n.stack.invalidate();
        }
    }

    #[inline(always)]
    fn remove_piece(&mut self, piece: Piece, sq: Square) {
        self.remove_classical(piece, sq);
        if let Some(n) = &mut self.nnue {
            n.stack.invalidate();
        }
    }

    #[inline(always)]
    fn move_piece(&mut self, piece: Piece, from: Square, to: Square) {
        self.psq += psqt(piece, to) - psqt(piece, from);
        if let Some(n) = &mut self.nnue {
            n.stack.invalidate();
        }
    }

    #[inline(always)]
    fn make_move(&mut self, piece: Piece, from: Square, to: Square, captured: Option<Piece>) {
        if let Some(victim) = captured {
            self.remove_classical(victim, to);
        }
        self.psq += psqt(piece, to) - psqt(piece, from);
        if let Some(n) = &mut self.nnue {
            n.stack.push_move(piece, from, to, captured);
        }
    }

    #[inline(always)]
    fn unmake_move(&mut self, piece: Piece, from: Square, to: Square, captured: Option<Piece>) {
        self.psq += psqt(piece, from) - psqt(piece, to);
        if let Some(victim) = captured {
            self.add_classical(victim, to);
        }
        if let Some(n) = &mut self.nnue {
            n.stack.pop();
        }
    }
}

impl Evaluator {
    #[inline(always)]
    fn add_classical(&mut self, piece: Piece, sq: Square) {
        self.psq += psqt(piece, sq);
        self.phase += phase_weight(piece);
        self.material += material_unit(piece);
    }

    #[inline(always)]
    fn remove_classical(&mut self, piece: Piece, sq: Square) {
        self.psq -= psqt(piece, sq);
        self.phase -= phase_weight(piece);
        self.material -= material_unit(piece);
    }
}

impl NnueState {
    #[inline(always)]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        self.stack.evaluate(&self.net, pos)
    }
}

/// The evaluation proper: `psq`, `phase` and `material` as the evaluator keeps them, every
/// other term computed here and reported to `tracer` (with `defenders`, the search's path, the
/// kings', advisors' and elephants' flexibility comes from that cache and is not traced). The
/// three are passed by reference so they are read where used, not loaded first and held on the
/// stack across the terms. Each colour's terms are inlined with a
/// constant colour, so whatever depends on the side (masks, shift directions) is fixed at
/// compile time.
#[inline(always)]
fn evaluate_with<T: Tracer>(
    pos: &Position,
    psq: &Score,
    phase: &i32,
    material: &u64,
    mut defenders: Option<&mut DefenderCache>,
    tracer: &mut T,
) -> i32 {
    let us = pos.side_to_move();
    let (red_flexibility, red_attacks, red_rook_files) =
        mobility::evaluate(pos, Color::Red, defenders.as_deref_mut(), tracer);
    let (black_flexibility, black_attacks, black_rook_files) =
        mobility::evaluate(pos, Color::Black, defenders, tracer);
    tracer.term(Term::Flexibility, Color::Red, red_flexibility);
    tracer.term(Term::Flexibility, Color::Black, black_flexibility);
    let mut red = *psq + red_flexibility - black_flexibility;
    red += side_terms(
        pos,
        Color::Red,
        &red_attacks,
        &black_attacks,
        red_rook_files,
        *material,
        tracer,
    );
    red -= side_terms(
        pos,
        Color::Black,
        &black_attacks,
        &red_attacks,
        black_rook_files,
        *material,
        tracer,
    );
    let tempo = Score::from_pair(TEMPO);
    tracer.term(Term::Tempo, us, tempo);
    tracer.weight(us, trace::weight::TEMPO, 64);
    red += signed(us, tempo);

    let phase = capped(*phase);
    let blended = blend(red, phase);
    let strong = if blended > 0 {
        Color::Red
    } else {
        Color::Black
    };
    let scale = scale::scale(*material, strong);
    tracer.result(phase, scale, red);
    let scaled = scale::apply(blended, scale);
    match us {
        Color::Red => scaled,
        Color::Black => -scaled,
    }
}

/// Relations, king safety and patterns of `color`, from its point of view (`rook_files` is the
/// part of the patterns the flexibility gathered, `material` the signature).
#[inline(always)]
fn side_terms<T: Tracer>(
    pos: &Position,
    color: Color,
    ours: &mobility::Attacks,
    theirs: &mobility::Attacks,
    rook_files: Score,
    material: u64,
    tracer: &mut T,
) -> Score {
    let relations = relations::evaluate(pos, color, ours, theirs, tracer);
    let king = king::evaluate(pos, color, theirs, material, tracer);
    let patterns = patterns::evaluate(pos, color, rook_files, tracer);
    tracer.term(Term::Relations, color, relations);
    tracer.term(Term::KingSafety, color, king);
    tracer.term(Term::Patterns, color, patterns);
    relations + king + patterns
}

/// The largest phase a position can have: both colours with every piece they may have
/// ([`PieceType::most_per_side`]).
const LARGEST_PHASE: i32 = {
    let mut sum = 0;
    let mut i = 0;
    while i < params::PHASE_WEIGHT.len() {
        sum += 2 * PieceType::ALL[i].most_per_side() as i32 * params::PHASE_WEIGHT[i];
        i += 1;
    }
    sum
};

/// The phase clamped to `0..=PHASE_MAX`. A sum of the non-negative [`params::PHASE_WEIGHT`]
/// of the pieces on the board is never negative, and with the weights as tuned (the full
/// board's sum is `PHASE_MAX`) never above the top either: then the clamp is left out.
#[inline(always)]
fn capped(phase: i32) -> i32 {
    const {
        let mut i = 0;
        while i < params::PHASE_WEIGHT.len() {
            assert!(params::PHASE_WEIGHT[i] >= 0, "a negative phase weight");
            i += 1;
        }
    }
    debug_assert!(
        (0..=LARGEST_PHASE).contains(&phase),
        "phase {phase} out of reach"
    );
    if LARGEST_PHASE <= PHASE_MAX {
        phase
    } else {
        phase.min(PHASE_MAX)
    }
}

/// Middlegame and endgame halves mixed by phase (rounding toward zero, so colour-symmetric).
/// `mg * phase + eg * (PHASE_MAX - phase)` written as `eg * PHASE_MAX + (mg - eg) * phase`:
/// the same sum with one multiply by a variable instead of two.
#[inline(always)]
pub fn blend(score: Score, phase: i32) -> i32 {
    let (mg, eg) = (score.mg(), score.eg());
    (eg * PHASE_MAX + (mg - eg) * phase) / PHASE_MAX
}

#[inline(always)]
fn signed(color: Color, score: Score) -> Score {
    match color {
        Color::Red => score,
        Color::Black => -score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start position holds every piece a position may have, and a FEN with one piece
    /// more than [`PieceType::most_per_side`] allows is refused: no phase is above [`LARGEST_PHASE`].
    #[test]
    fn the_largest_phase_is_the_full_board() {
        let start = Position::startpos();
        assert_eq!(Incremental::full_recount(&start).phase, LARGEST_PHASE);
        for kind in PieceType::ALL {
            assert_eq!(
                start.pieces(Color::Red, kind).count() as i32,
                kind.most_per_side() as i32,
                "{kind:?}"
            );
        }
        // A third red rook, on an empty square of the start position.
        let extra = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4R4/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        assert!(Position::from_fen(extra).is_err());
    }
}
