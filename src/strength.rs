//! Weaker play on request (`UCI_LimitStrength` with `UCI_Elo`). The Elo asked for sets a node
//! budget for each move and, at the lowest levels, a temperature for choosing among the best
//! few root lines: the search runs as usual within the budget on one thread (with MultiPV
//! `LINES` when there is a temperature), then a seeded draw weighted by
//! `exp((score - best) / temperature)` picks the move. Nodes, not time, so the strength is the
//! same on a fast machine or a loaded one, and fixed-node matches calibrate it.

use crate::search::{Limits, Line, Options, SearchResult};

/// The range of `UCI_Elo`. The numbers name the levels; README gives what matches measured.
pub const MIN_ELO: i64 = 1200;
pub const MAX_ELO: i64 = 2800;

/// Root lines searched for the choice.
pub const LINES: usize = 4;

/// How a level plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weakness {
    /// Nodes a move may search (depth 1 is always completed, whatever the budget).
    pub nodes: u64,
    /// Centipawns of score that make a line e (2.718) times likelier to be chosen; 0 always
    /// plays the best line.
    pub temperature: f64,
}

impl Weakness {
    /// The level of `elo` (clamped to the option's range). The node budget doubles every
    /// 100 points, from 16 at 1200 to 1,048,576 at 2800. Below 1600, where a budget that
    /// small no longer weakens (depth 1 is searched whatever it is), the temperature rises
    /// from 0 to 40 cp at 1200. From 1600 up a level is the full search at its budget.
    pub fn for_elo(elo: i64) -> Weakness {
        let t = (elo.clamp(MIN_ELO, MAX_ELO) - MIN_ELO) as f64 / (MAX_ELO - MIN_ELO) as f64;
        Weakness {
            nodes: 2f64.powf(4.0 + 16.0 * t).round() as u64,
            temperature: 40.0 * (1.0 - 4.0 * t).max(0.0),
        }
    }

    /// Makes a search play at this level: its node budget (or the caller's, if smaller) on one
    /// thread, so the budget means the same every time, and at least [`LINES`] root lines when
    /// the level chooses among them.
    pub(crate) fn restrict(&self, limits: &mut Limits, options: &mut Options) {
        limits.nodes = Some(limits.nodes.map_or(self.nodes, |n| n.min(self.nodes)));
        options.threads = 1;
        if self.temperature > 0.0 {
            options.multipv = options.multipv.max(LINES);
        }
    }

    /// This level's move: among the lines of the deepest iteration that reported all of them,
    /// the one [`Weakness::choose`] picks, seeded by `seed` (the position's key, so a level is
    /// repeatable). `lines` are every line the search reported.
    pub(crate) fn play(&self, result: &mut SearchResult, lines: &[Line], seed: u64) {
        let per_depth = |depth: i32| lines.iter().filter(|l| l.depth == depth).count();
        let full = per_depth(1);
        let Some(depth) = lines
            .iter()
            .map(|l| l.depth)
            .filter(|&d| per_depth(d) == full)
            .max()
        else {
            return;
        };
        let candidates: Vec<&Line> = lines.iter().filter(|l| l.depth == depth).collect();
        let scores: Vec<i32> = candidates.iter().map(|l| l.score).collect();
        let line = candidates[self.choose(&scores, seed)];
        result.best = line.pv.first().copied();
        result.ponder = line.pv.get(1).copied();
        result.score = line.score;
    }

    /// Which of the root lines to play, given their scores in the order the search reports
    /// them (best first) and a seed. At temperature 0 the first line; lines more than four temperatures below the
    /// highest score are never chosen, so a level does not throw away a won game or walk into
    /// a mate.
    pub fn choose(&self, scores: &[i32], seed: u64) -> usize {
        let Some(&best) = scores.iter().max() else {
            return 0;
        };
        if self.temperature <= 0.0 {
            return 0;
        }
        let weights: Vec<f64> = scores
            .iter()
            .map(|&s| {
                let behind = (best - s) as f64;
                if behind > 4.0 * self.temperature {
                    0.0
                } else {
                    (-behind / self.temperature).exp()
                }
            })
            .collect();
        let mut draw = fastrand::Rng::with_seed(seed).f64() * weights.iter().sum::<f64>();
        for (i, w) in weights.iter().enumerate() {
            if draw < *w {
                return i;
            }
            draw -= w;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn higher_elo_searches_more_and_chooses_less_at_random() {
        let mut last = Weakness::for_elo(MIN_ELO);
        assert_eq!((last.nodes, last.temperature), (16, 40.0));
        for elo in (MIN_ELO + 100..=MAX_ELO).step_by(100) {
            let level = Weakness::for_elo(elo);
            assert_eq!(level.nodes, 2 * last.nodes, "{elo}");
            assert!(level.temperature < last.temperature || level.temperature == 0.0);
            last = level;
        }
        assert_eq!((last.nodes, last.temperature), (1 << 20, 0.0));
        assert_eq!(Weakness::for_elo(1600).temperature, 0.0);
        assert_eq!(Weakness::for_elo(MAX_ELO + 500), last);
    }

    #[test]
    fn the_top_level_plays_the_first_line() {
        let top = Weakness::for_elo(MAX_ELO);
        for seed in 0..100 {
            assert_eq!(top.choose(&[40, 55, -10, 55], seed), 0);
        }
    }

    /// Over many seeds: better lines are chosen more often, every line near the best is
    /// chosen sometimes, and a line far behind never.
    #[test]
    fn the_choice_follows_the_scores() {
        let level = Weakness::for_elo(MIN_ELO);
        let scores = [100, 90, 70, 100 - 4 * 40 - 1];
        let mut chosen = [0; 4];
        for seed in 0..4000 {
            chosen[level.choose(&scores, seed)] += 1;
        }
        assert!(
            chosen[0] > chosen[1] && chosen[1] > chosen[2] && chosen[2] > 0,
            "{chosen:?}"
        );
        assert_eq!(chosen[3], 0, "{chosen:?}");
        // The shares follow the weights e^0, e^-0.25, e^-0.75 within a few percent.
        let expected = (-10.0f64 / 40.0).exp();
        let ratio = chosen[1] as f64 / chosen[0] as f64;
        assert!((ratio - expected).abs() < 0.08, "{ratio} vs {expected}");
    }
}
