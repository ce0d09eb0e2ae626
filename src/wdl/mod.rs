//! The win/draw/loss model behind `UCI_ShowWDL`: how often the side to move goes on to win,
//! draw or lose from a search score, given the material left. As in Stockfish's model the win
//! rate is logistic in the score, `1 / (1 + exp((a - score) / b))`, with the centre `a` and the
//! width `b` cubic in the material; the loss rate is the win rate of the negated score, and the
//! draw rate what is left. The coefficients (`params.rs`) are fitted to Chariot's own self-play
//! positions by `chariot wdl` (`fit.rs`).

#[cfg(feature = "tools")]
pub mod fit;
mod params;

use crate::board::types::{Color, PieceType};
use crate::search::score::is_mate;
use crate::Position;

/// Win, draw and loss chances of the side to move, per mille; they sum to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

/// Material as the model counts it, both sides together: rook 9, horse and cannon 4, advisor
/// and elephant 2, pawn 1 (94 at the start).
pub fn material_weight(kind: PieceType) -> i32 {
    match kind {
        PieceType::King => 0,
        PieceType::Advisor | PieceType::Elephant => 2,
        PieceType::Horse | PieceType::Cannon => 4,
        PieceType::Rook => 9,
        PieceType::Pawn => 1,
    }
}

/// The material of `pos` (see [`material_weight`]).
pub fn material(pos: &Position) -> i32 {
    let mut total = 0;
    for color in [Color::Red, Color::Black] {
        for kind in PieceType::ALL {
            total += material_weight(kind) * pos.pieces(color, kind).count() as i32;
        }
    }
    total
}

/// Material at the start, where the polynomials' variable is 1.
pub const START_MATERIAL: i32 = 94;

/// The model: the cubic coefficients of `a` and `b` in `material / START_MATERIAL`, highest
/// power first, and the material range the fit saw (outside it the material is clamped).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    pub a: [f64; 4],
    pub b: [f64; 4],
    pub material_range: (i32, i32),
}

/// The fitted model.
pub const MODEL: Model = Model {
    a: params::A,
    b: params::B,
    material_range: params::MATERIAL_RANGE,
};

impl Model {
    /// The centre `a` (the score that wins half the games) and width `b` at `material`. Both
    /// are kept at least 1 centipawn: a positive `a` keeps the win and loss rates' sum below 1.
    pub fn params(&self, material: i32) -> (f64, f64) {
        let (low, high) = self.material_range;
        let x = material.clamp(low, high) as f64 / START_MATERIAL as f64;
        let cubic = |c: &[f64; 4]| ((c[0] * x + c[1]) * x + c[2]) * x + c[3];
        (cubic(&self.a).max(1.0), cubic(&self.b).max(1.0))
    }

    /// The win rate (0 to 1) of the side whose score is `score` centipawns.
    pub fn win_rate(&self, score: f64, material: i32) -> f64 {
        let (a, b) = self.params(material);
        1.0 / (1.0 + ((a - score) / b).exp())
    }

    /// Win, draw and loss per mille for a centipawn score (not a mate) at `material`.
    pub fn wdl(&self, score: i32, material: i32) -> Wdl {
        let per_mille = |s: f64| (1000.0 * self.win_rate(s, material)).round() as u32;
        let win = per_mille(score as f64);
        let loss = per_mille(-score as f64);
        // Each rounds by at most a half and their exact sum is below 1000, so this holds.
        debug_assert!(win + loss <= 1000);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

/// The WDL the side to move in `pos` has with the search score `score`: certain for a mate (or
/// an ending by the repetition rules, scored alike), else the fitted model's.
pub fn wdl(score: i32, pos: &Position) -> Wdl {
    if is_mate(score) {
        let won = score > 0;
        return Wdl {
            win: if won { 1000 } else { 0 },
            draw: 0,
            loss: if won { 0 } else { 1000 },
        };
    }
    MODEL.wdl(score, material(pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{mate_in, mated_in};

    #[test]
    fn the_start_counts_its_material() {
        assert_eq!(material(&Position::startpos()), START_MATERIAL);
        let bare = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
        assert_eq!(material(&bare), 9);
    }

    /// Over every material count and scores well past any real one: the three sum to 1000,
    /// wins never fall and losses never rise as the score grows, and a level score is even.
    #[test]
    fn outputs_sum_to_1000_and_are_monotone_in_the_score() {
        for material in 0..=START_MATERIAL + 10 {
            let mut last = MODEL.wdl(-5000, material);
            for score in -5000..=5000 {
                let wdl = MODEL.wdl(score, material);
                assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000, "{score} {material}");
                assert!(
                    wdl.win >= last.win && wdl.loss <= last.loss,
                    "{score} {material}"
                );
                last = wdl;
            }
            let level = MODEL.wdl(0, material);
            assert_eq!(level.win, level.loss);
            assert!(MODEL.wdl(3000, material).win > 990, "{material}");
        }
    }

    /// The fitted curve has the shape of the data it came from: a pawn up is better than
    /// level, a level score is mostly a draw or a coin toss, and a rook up mostly wins.
    #[test]
    fn the_fit_is_plausible() {
        let start = Position::startpos();
        let level = wdl(0, &start);
        assert!(level.win < 500 && level.loss < 500, "{level:?}");
        let pawn = wdl(100, &start);
        assert!(pawn.win > level.win && pawn.loss < level.loss);
        assert!(wdl(900, &start).win > 700, "{:?}", wdl(900, &start));
    }

    #[test]
    fn mates_are_certain() {
        let start = Position::startpos();
        assert_eq!(wdl(mate_in(5), &start).win, 1000);
        assert_eq!(wdl(mated_in(4), &start).loss, 1000);
    }
}
