//! Term-by-term record of one evaluation, for `chariot eval` and for tests. The evaluation
//! core reports to a [`Tracer`]; the search uses `()`, which records nothing and costs nothing.
//! The tuner's tracer records instead how often each weight of `params.rs` was added
//! ([`Tracer::weight`], numbered as in [`weight`]).

use super::score::Score;
use crate::board::types::Color;

/// The evaluation terms, in the order `chariot eval` prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    Material,
    Flexibility,
    Relations,
    KingSafety,
    Patterns,
    Tempo,
}

impl Term {
    pub const ALL: [Term; 6] = [
        Term::Material,
        Term::Flexibility,
        Term::Relations,
        Term::KingSafety,
        Term::Patterns,
        Term::Tempo,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Term::Material => "Material/PST",
            Term::Flexibility => "Flexibility",
            Term::Relations => "Relations",
            Term::KingSafety => "King safety",
            Term::Patterns => "Patterns",
            Term::Tempo => "Tempo",
        }
    }
}

/// The weights of `params.rs`, numbered for the tuner (declared there, by `weights!`).
pub use super::params::weight;

/// Receives each term of each colour, from that colour's point of view.
pub trait Tracer {
    /// Does the tracer read the terms apart? Where it does not (the search's `()`), the
    /// evaluation may add a part of one term into another's sum: `Score` addition wraps, so
    /// the total is the same in any grouping, and fewer sums stay live.
    const TERMS: bool = true;

    fn term(&mut self, term: Term, color: Color, score: Score);
    fn result(&mut self, phase: i32, scale: i32, red: Score);

    /// Weight pair `index` ([`weight`]) was added `sixty_fourths / 64` times to `color`'s
    /// terms (64ths, because the relations term weighs its penalties in 64ths).
    #[inline(always)]
    fn weight(&mut self, _color: Color, _index: usize, _sixty_fourths: i32) {}

    /// A part of `color`'s terms that no weight scales linearly (king danger).
    #[inline(always)]
    fn fixed(&mut self, _color: Color, _score: Score) {}
}

impl Tracer for () {
    const TERMS: bool = false;
    #[inline(always)]
    fn term(&mut self, _: Term, _: Color, _: Score) {}
    #[inline(always)]
    fn result(&mut self, _: i32, _: i32, _: Score) {}
}

/// Everything one evaluation added up.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// `terms[term][color]`, each from that colour's point of view.
    pub terms: [[Score; 2]; 6],
    /// Phase used for the blend, 0 (bare endgame) ..= `PHASE_MAX`.
    pub phase: i32,
    /// Draw scale applied, out of `SCALE_NORMAL`.
    pub scale: i32,
    /// Red's total before blending.
    pub red: Score,
    /// The final score for the side to move, as `evaluate` returns it.
    pub final_score: i32,
}

impl Tracer for Trace {
    fn term(&mut self, term: Term, color: Color, score: Score) {
        self.terms[term as usize][color.index()] += score;
    }

    fn result(&mut self, phase: i32, scale: i32, red: Score) {
        self.phase = phase;
        self.scale = scale;
        self.red = red;
    }
}
