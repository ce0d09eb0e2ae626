//! Term-by-term record of one evaluation, for `chariot eval` and for tests. The evaluation
//! core reports to a [`Tracer`]; the search uses `()`, which records nothing and costs nothing.

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

/// Receives each term of each colour, from that colour's point of view.
pub trait Tracer {
    fn term(&mut self, term: Term, color: Color, score: Score);
    fn result(&mut self, phase: i32, scale: i32, red: Score);
}

impl Tracer for () {
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
