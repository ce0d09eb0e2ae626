//! Match statistics: Elo from a score, 95% error bars, likelihood of superiority, draw ratio,
//! pentanomial pair counts and the pentanomial log-likelihood ratio used by SPRT (the
//! "logistic Elo" model of fishtest and fastchess, solved exactly rather than approximated).

/// Two-sided 95% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Expected score for an Elo difference (logistic model).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score; infinite at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Error function (Abramowitz & Stegun 7.1.26, absolute error below 1.5e-7); the standard
/// library has none and a crate is not worth it for six coefficients.
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    y.copysign(x)
}

/// Win/draw/loss counts from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points scored (a win is 1, a draw half).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    pub fn score(&self) -> Option<f64> {
        (self.games() > 0).then(|| self.points() / self.games() as f64)
    }

    pub fn draw_ratio(&self) -> Option<f64> {
        (self.games() > 0).then(|| self.draws as f64 / self.games() as f64)
    }

    /// Likelihood of superiority: the probability that the first engine is the stronger,
    /// from wins and losses only (draws carry no information about who is stronger).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        let diff = self.wins as f64 - self.losses as f64;
        0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt()))
    }

    /// Elo and its 95% error bar, treating games as independent.
    pub fn elo(&self) -> Option<EloEstimate> {
        let counts = [self.losses as f64, self.draws as f64, self.wins as f64];
        EloEstimate::from_distribution(&[0.0, 0.5, 1.0], &counts)
    }
}

/// Results of game pairs (the same opening with colours swapped), indexed by the first
/// engine's points over the pair: 0, 0.5, 1, 1.5, 2 (LL, LD, WL or DD, WD, WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

/// Per-game score of each pentanomial cell.
const PENTA_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

impl Pentanomial {
    /// Adds a pair given the first engine's points in each of its two games (0, 0.5 or 1).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let index = ((first + second) * 2.0).round() as usize;
        self.0[index.min(4)] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// Elo and its 95% error bar from pair results: pairs are independent even when the two
    /// games of a pair (same opening) are not, so this bar is the honest one.
    pub fn elo(&self) -> Option<EloEstimate> {
        let counts = self.0.map(|c| c as f64);
        EloEstimate::from_distribution(&PENTA_SCORES, &counts)
    }

    /// Log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0). Empty cells get a
    /// tiny weight, as fishtest does, so a one-sided start does not put the maximum-likelihood
    /// estimate on the edge of the simplex.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let counts = self.0.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        llr_exact(
            &PENTA_SCORES,
            &counts,
            score_from_elo(elo0),
            score_from_elo(elo1),
        )
    }
}

/// Point estimate and symmetric 95% half-width, both in Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    /// NaN when the bar is undefined: a 95% bound of the score falls on or outside 0 or 1
    /// (too few games, or all won or lost), or the results have no spread yet. fastchess and
    /// cutechess print `nan` then; so does [`EloEstimate::text`], with a note.
    pub error95: f64,
    /// Variance of one sample's score (a game's or a pair's).
    pub variance: f64,
}

impl EloEstimate {
    /// From outcome scores and how often each occurred; `None` with no samples.
    pub fn from_distribution(scores: &[f64], counts: &[f64]) -> Option<EloEstimate> {
        let n: f64 = counts.iter().sum();
        if n <= 0.0 {
            return None;
        }
        let mean = scores.iter().zip(counts).map(|(s, c)| s * c).sum::<f64>() / n;
        let variance = scores
            .iter()
            .zip(counts)
            .map(|(s, c)| c * (s - mean).powi(2))
            .sum::<f64>()
            / n;
        let margin = Z95 * (variance / n).sqrt();
        let (low, high) = (mean - margin, mean + margin);
        let error95 = if variance > 0.0 && low > 0.0 && high < 1.0 {
            (elo_from_score(high) - elo_from_score(low)) / 2.0
        } else {
            f64::NAN
        };
        Some(EloEstimate {
            elo: elo_from_score(mean),
            error95,
            variance,
        })
    }

    /// `+12.3 ± 45.6`; where the bar is undefined, `nan` as fastchess and cutechess print it,
    /// followed by why.
    pub fn text(&self) -> String {
        let elo = signed(self.elo);
        if self.error95.is_finite() {
            return format!("{elo} ± {:.1}", self.error95);
        }
        let why = if self.elo == f64::INFINITY {
            "every game won: no finite estimate"
        } else if self.elo == f64::NEG_INFINITY {
            "every game lost: no finite estimate"
        } else if self.variance == 0.0 {
            "no spread in the results yet"
        } else {
            "too few games for a 95% bar"
        };
        format!("{elo} ± nan ({why})")
    }
}

/// Which model an [`EloInterval`] comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// Game pairs (independent even where a pair's two games are not): the honest bar.
    Pentanomial,
    /// Single games, when the pairs give no finite bar.
    Trinomial,
    /// Wilson's score interval, when neither normal bar stays inside 0..1 (lopsided or very
    /// short matches): it always does.
    Wilson,
}

impl Basis {
    pub fn name(self) -> &'static str {
        match self {
            Basis::Pentanomial => "pentanomial",
            Basis::Trinomial => "trinomial",
            Basis::Wilson => "Wilson score interval",
        }
    }
}

/// An Elo estimate with a 95% interval that always exists once a game is played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloInterval {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    pub basis: Basis,
}

impl EloInterval {
    /// The pentanomial bar where it is finite, else the trinomial one, else Wilson's score
    /// interval over the games (points as successes; draws make this conservative).
    pub fn best(penta: &Pentanomial, wdl: &Wdl) -> Option<EloInterval> {
        let games = wdl.games() as f64;
        if games == 0.0 {
            return None;
        }
        let bars = [
            (penta.elo(), Basis::Pentanomial),
            (wdl.elo(), Basis::Trinomial),
        ];
        for (estimate, basis) in bars {
            if let Some(e) = estimate.filter(|e| e.error95.is_finite()) {
                return Some(EloInterval {
                    elo: e.elo,
                    low: e.elo - e.error95,
                    high: e.elo + e.error95,
                    basis,
                });
            }
        }
        let p = wdl.points() / games;
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * games)) / (1.0 + z2 / games);
        let half =
            Z95 / (1.0 + z2 / games) * (p * (1.0 - p) / games + z2 / (4.0 * games * games)).sqrt();
        Some(EloInterval {
            elo: elo_from_score(p),
            low: elo_from_score(centre - half),
            high: elo_from_score(centre + half),
            basis: Basis::Wilson,
        })
    }

    /// `+12.3 ± 45.6 (95%, pentanomial)`, or the two bounds where the interval is not
    /// symmetric: `+488.0 (95%: +279.1 to +697.0, Wilson score interval)`.
    pub fn text(&self) -> String {
        match self.basis {
            Basis::Wilson => format!(
                "{} (95%: {} to {}, {})",
                signed(self.elo),
                signed(self.low),
                signed(self.high),
                self.basis.name()
            ),
            _ => format!(
                "{} ± {:.1} (95%, {})",
                signed(self.elo),
                (self.high - self.low) / 2.0,
                self.basis.name()
            ),
        }
    }
}

/// An Elo figure with one decimal and a sign; an even score prints as +0.0, not -0.0.
pub fn signed(x: f64) -> String {
    if x.is_finite() {
        // An even score computes as a tiny negative now and then.
        let rounded = (x * 10.0).round() / 10.0 + 0.0;
        format!("{rounded:+.1}")
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

/// Maximum-likelihood distribution with the observed cell frequencies `freq` whose mean score
/// is exactly `target`: p_i = freq_i / (1 + lambda (a_i - target)), lambda chosen so the p_i
/// sum to one (a Lagrange condition; the sum is monotone in lambda, so bisection finds it).
fn constrained_mle(scores: &[f64], freq: &[f64], target: f64) -> Vec<f64> {
    let g = |lambda: f64| -> f64 {
        scores
            .iter()
            .zip(freq)
            .map(|(a, p)| p * (a - target) / (1.0 + lambda * (a - target)))
            .sum()
    };
    let max = scores.iter().cloned().fold(f64::MIN, f64::max);
    let min = scores.iter().cloned().fold(f64::MAX, f64::min);
    // 1 + lambda (a - target) must stay positive for every cell.
    let mut lo = if max > target {
        -1.0 / (max - target)
    } else {
        -1e9
    };
    let mut hi = if min < target {
        1.0 / (target - min)
    } else {
        1e9
    };
    let eps = 1e-12 * (hi - lo);
    lo += eps;
    hi -= eps;
    // g decreases in lambda: positive below the root, negative above.
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    scores
        .iter()
        .zip(freq)
        .map(|(a, p)| p / (1.0 + lambda * (a - target)))
        .collect()
}

/// Exact log-likelihood ratio of mean score `s1` against `s0` for the given outcome counts.
pub fn llr_exact(scores: &[f64], counts: &[f64], s0: f64, s1: f64) -> f64 {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return 0.0;
    }
    let freq: Vec<f64> = counts.iter().map(|c| c / n).collect();
    let p0 = constrained_mle(scores, &freq, s0);
    let p1 = constrained_mle(scores, &freq, s1);
    counts
        .iter()
        .zip(p0.iter().zip(&p1))
        .filter(|(c, _)| **c > 0.0)
        .map(|(c, (a, b))| c * (b / a).ln())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_and_score_are_inverse() {
        // 0.75 = 1/(1+10^(-e/400)) gives e = 400 log10(3) = 190.848...
        assert!(close(elo_from_score(0.75), 190.848_501_9, 1e-6));
        // 400 log10(1.5) = 70.437...
        assert!(close(elo_from_score(0.6), 70.436_504_5, 1e-6));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(score_from_elo(-190.848_501_9), 0.25, 1e-9));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn degenerate_scores_have_no_bar_and_say_why() {
        let wdl = |wins, draws, losses| Wdl {
            wins,
            draws,
            losses,
        };
        // +1 =0 -1: a bar exists in principle, but two games put the bounds past 0 and 1.
        let one_each = wdl(1, 0, 1).elo().unwrap();
        assert_eq!(one_each.text(), "+0.0 ± nan (too few games for a 95% bar)");
        assert_eq!(
            wdl(3, 0, 0).elo().unwrap().text(),
            "+inf ± nan (every game won: no finite estimate)"
        );
        assert_eq!(
            wdl(0, 1, 4).elo().unwrap().text(),
            "-381.7 ± nan (too few games for a 95% bar)"
        );
        assert_eq!(
            wdl(0, 0, 2).elo().unwrap().text(),
            "-inf ± nan (every game lost: no finite estimate)"
        );
        assert_eq!(
            wdl(0, 4, 0).elo().unwrap().text(),
            "+0.0 ± nan (no spread in the results yet)"
        );
        // One won and one lost pair, both split: a pentanomial spread of zero.
        assert!(Pentanomial([0, 0, 2, 0, 0]).elo().unwrap().error95.is_nan());
        // Enough games: an ordinary bar.
        let ok = wdl(30, 20, 25).elo().unwrap();
        assert!(ok.error95.is_finite() && ok.error95 > 0.0);
        assert!(ok.text().starts_with("+23.2 ± "), "{}", ok.text());
    }

    #[test]
    fn intervals_fall_back_and_say_which_was_used() {
        let wdl = |wins, draws, losses| Wdl {
            wins,
            draws,
            losses,
        };
        let mut penta = Pentanomial::default();
        let mut even = wdl(0, 0, 0);
        for (a, b) in [(1.0, 0.0), (1.0, 1.0), (0.5, 0.0), (0.0, 0.0), (1.0, 0.5)]
            .iter()
            .cycle()
            .take(20)
        {
            penta.add_pair(*a, *b);
            for p in [a, b] {
                match p {
                    x if *x > 0.75 => even.wins += 1,
                    x if *x < 0.25 => even.losses += 1,
                    _ => even.draws += 1,
                }
            }
        }
        let pairs = EloInterval::best(&penta, &even).unwrap();
        assert_eq!(pairs.basis, Basis::Pentanomial);
        assert!(
            pairs.text().ends_with("(95%, pentanomial)"),
            "{}",
            pairs.text()
        );
        // Split pairs only: no pair spread, but the games have one.
        let split = EloInterval::best(&Pentanomial([0, 0, 6, 0, 0]), &wdl(6, 0, 6)).unwrap();
        assert_eq!(split.basis, Basis::Trinomial);
        // The match: +41 =1 -2 in 44 games, no normal bar inside 0..1.
        let lopsided = wdl(41, 1, 2);
        assert!(lopsided.elo().unwrap().error95.is_nan());
        let wilson = EloInterval::best(&Pentanomial([0, 1, 1, 0, 20]), &lopsided).unwrap();
        assert_eq!(wilson.basis, Basis::Wilson);
        assert!(close(wilson.elo, 488.04, 0.01), "{wilson:?}");
        assert!(
            close(wilson.low, 279.13, 0.01) && close(wilson.high, 696.95, 0.01),
            "{wilson:?}"
        );
        assert_eq!(
            wilson.text(),
            "+488.0 (95%: +279.1 to +697.0, Wilson score interval)"
        );
        // Every game won: still a lower bound.
        let all = EloInterval::best(&Pentanomial([0, 0, 0, 0, 2]), &wdl(4, 0, 0)).unwrap();
        assert!(all.low.is_finite() && all.low > 0.0 && all.high == f64::INFINITY);
        assert_eq!(
            EloInterval::best(&Pentanomial::default(), &wdl(0, 0, 0)),
            None
        );
    }

    #[test]
    fn erf_matches_known_values() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(1.0), 0.842_700_79, 2e-7));
        assert!(close(erf(-0.5), -0.520_499_88, 2e-7));
    }

    #[test]
    fn los_of_sixty_wins_forty_losses_is_phi_of_two() {
        // (60-40)/sqrt(2*100) = sqrt(2), so LOS = Phi(2) = 0.97725.
        let wdl = Wdl {
            wins: 60,
            draws: 33,
            losses: 40,
        };
        assert!(close(wdl.los(), 0.977_249_87, 1e-6));
        assert_eq!(Wdl::default().los(), 0.5);
    }

    #[test]
    fn trinomial_error_bar_by_hand() {
        // 40 W, 20 D, 40 L: mean 0.5, variance 0.2, se = sqrt(0.002) = 0.0447214;
        // 0.5 + 1.96*se = 0.587652 -> 400 log10(0.587652/0.412348) = 61.5427 Elo.
        let wdl = Wdl {
            wins: 40,
            draws: 20,
            losses: 40,
        };
        let est = wdl.elo().unwrap();
        assert!(close(est.elo, 0.0, 1e-9));
        assert!(close(est.error95, 61.543, 2e-3), "{est:?}");
        assert_eq!(wdl.draw_ratio(), Some(0.2));
    }

    #[test]
    fn pentanomial_error_bar_by_hand() {
        // Pair counts [0, 10, 20, 10, 0]: mean 0.5, variance per pair
        // (10*0.0625 + 10*0.0625)/40 = 0.03125, se = sqrt(0.03125/40) = 0.0279508;
        // 0.5 + 1.96*se = 0.554783 -> 400 log10(0.554783/0.445217) = 38.2203 Elo.
        let penta = Pentanomial([0, 10, 20, 10, 0]);
        let est = penta.elo().unwrap();
        assert!(close(est.error95, 38.221, 2e-3), "{est:?}");
        assert_eq!(Pentanomial::default().elo(), None);
    }

    #[test]
    fn add_pair_indexes_by_pair_points() {
        let mut p = Pentanomial::default();
        p.add_pair(1.0, 0.0);
        p.add_pair(0.5, 0.5);
        p.add_pair(1.0, 0.5);
        p.add_pair(0.0, 0.5);
        assert_eq!(p.0, [0, 1, 2, 1, 0]);
    }

    #[test]
    fn llr_with_two_outcomes_by_hand() {
        // Only WW (30) and LL (10) pairs: the constrained MLE is p(WW) = s, p(LL) = 1 - s, so
        // LLR = 30 ln(s1/s0) + 10 ln((1-s1)/(1-s0)); s0 = 0.5, s1 = 0.75:
        // 30 ln 1.5 + 10 ln 0.5 = 12.163953 - 6.931472 = 5.232481.
        let llr = llr_exact(&PENTA_SCORES, &[10.0, 0.0, 0.0, 0.0, 30.0], 0.5, 0.75);
        assert!(close(llr, 5.232_481, 1e-5), "{llr}");
        // Regularised empty cells move it only slightly.
        let reg = Pentanomial([10, 0, 0, 0, 30]).llr(0.0, elo_from_score(0.75));
        assert!(close(reg, 5.232_481, 0.01), "{reg}");
    }

    #[test]
    fn llr_agrees_with_the_normal_approximation_for_small_elo() {
        // For small Elo gaps the GSPRT approximation LLR ~ N (s1-s0)(2m - s0 - s1) / (2 var)
        // is accurate; check the exact solver against it on a realistic sample.
        let counts = [30.0, 220.0, 500.0, 250.0, 40.0];
        let n: f64 = counts.iter().sum();
        let mean = PENTA_SCORES
            .iter()
            .zip(&counts)
            .map(|(a, c)| a * c)
            .sum::<f64>()
            / n;
        let var = PENTA_SCORES
            .iter()
            .zip(&counts)
            .map(|(a, c)| c * (a - mean).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (score_from_elo(0.0), score_from_elo(5.0));
        let approx = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        let exact = llr_exact(&PENTA_SCORES, &counts, s0, s1);
        assert!(
            close(exact, approx, 0.01 * approx.abs()),
            "exact {exact} approx {approx}"
        );
        assert!(exact > 0.0);
    }

    #[test]
    fn llr_is_antisymmetric_when_hypotheses_swap() {
        let p = Pentanomial([5, 20, 40, 25, 10]);
        assert!(close(p.llr(0.0, 5.0), -p.llr(5.0, 0.0), 1e-9));
        assert_eq!(Pentanomial::default().llr(0.0, 5.0), 0.0);
    }
}
