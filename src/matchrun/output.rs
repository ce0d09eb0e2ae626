//! What the runner prints: a progress line per finished game and the final tables.

use super::sprt::{Sprt, SprtStatus};
#[cfg(test)]
use super::stats::signed;
use super::stats::{EloInterval, Pentanomial, Wdl};
use crate::console::count;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Running totals for one pairing, from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct PairingStats {
    pub first: String,
    pub second: String,
    pub wdl: Wdl,
    pub penta: Pentanomial,
    /// Games per kind of ending ([`super::game::GameRecord::label`]).
    pub endings: BTreeMap<&'static str, u32>,
}

impl PairingStats {
    pub fn record(&mut self, points: f64, label: &'static str) {
        match points {
            p if p > 0.75 => self.wdl.wins += 1,
            p if p < 0.25 => self.wdl.losses += 1,
            _ => self.wdl.draws += 1,
        }
        *self.endings.entry(label).or_default() += 1;
    }

    /// Elo with its 95% interval: from pairs where they give a finite bar (pairs are
    /// independent where the two games of a pair are not), else from games, else Wilson's.
    pub fn elo(&self) -> Option<EloInterval> {
        EloInterval::best(&self.penta, &self.wdl)
    }

    pub fn elo_text(&self) -> String {
        self.elo().map_or_else(|| "n/a".into(), |e| e.text())
    }

    pub fn sprt_text(&self, sprt: &Sprt) -> String {
        let (lower, upper) = sprt.bounds();
        format!(
            "LLR {:.2} ({:.2}, {:.2})",
            sprt.llr(&self.penta),
            lower,
            upper
        )
    }

    /// One line after each game.
    pub fn progress(&self, sprt: Option<&Sprt>) -> String {
        let w = &self.wdl;
        let mut line = format!(
            "{} vs {}: +{} ={} -{} ({:.1}%), Elo {}",
            self.first,
            self.second,
            w.wins,
            w.draws,
            w.losses,
            100.0 * w.score().unwrap_or(0.5),
            self.elo_text()
        );
        if let Some(sprt) = sprt {
            line += &format!(", {}", self.sprt_text(sprt));
        }
        line
    }

    /// The final table.
    pub fn summary(&self, sprt: Option<&Sprt>) -> String {
        let w = &self.wdl;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Results of {} vs {} ({}, {}):",
            self.first,
            self.second,
            count(w.games().into(), "game"),
            count(self.penta.pairs().into(), "pair")
        );
        let _ = writeln!(
            out,
            "  W/D/L       {} / {} / {}   score {:.1}%",
            w.wins,
            w.draws,
            w.losses,
            100.0 * w.score().unwrap_or(0.5)
        );
        let p = self.penta.0;
        let _ = writeln!(
            out,
            "  Pentanomial [0, 0.5, 1, 1.5, 2] = [{}, {}, {}, {}, {}]",
            p[0], p[1], p[2], p[3], p[4]
        );
        let _ = writeln!(out, "  Elo         {}", self.elo_text());
        let _ = writeln!(out, "  LOS         {:.1}%", 100.0 * w.los());
        let _ = writeln!(
            out,
            "  Draw ratio  {:.1}%",
            100.0 * w.draw_ratio().unwrap_or(0.0)
        );
        if let Some(sprt) = sprt {
            let verdict = match sprt.status(&self.penta) {
                SprtStatus::AcceptH1 => "H1 accepted",
                SprtStatus::AcceptH0 => "H0 accepted",
                SprtStatus::Continue => "no decision yet",
            };
            let _ = writeln!(
                out,
                "  SPRT        elo0={} elo1={} alpha={} beta={}: {}, {verdict}",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                self.sprt_text(sprt)
            );
        }
        let ends: Vec<String> = self
            .endings
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(out, "  Endings     {}", ends.join(", "));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_scores_print_without_a_minus() {
        assert_eq!(signed(-1e-12), "+0.0");
        assert_eq!(signed(-0.04), "+0.0");
        assert_eq!(signed(-0.06), "-0.1");
        assert_eq!(signed(3.25), "+3.3");
        assert_eq!(signed(f64::NEG_INFINITY), "-inf");
    }

    #[test]
    fn summary_lists_everything() {
        let mut s = PairingStats {
            first: "A".into(),
            second: "B".into(),
            ..Default::default()
        };
        s.record(1.0, "checkmate");
        s.record(0.5, "draw adjudication");
        s.record(0.0, "time forfeit");
        s.penta.add_pair(1.0, 0.5);
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let text = s.summary(Some(&sprt));
        for needle in [
            "W/D/L       1 / 1 / 1",
            "[0, 0, 0, 1, 0]",
            "LOS         50.0%",
            "Draw ratio  33.3%",
            "LLR",
            "time forfeit 1",
            // The one pair has no spread; the games do (561.2: 1.96 sqrt(1/18) around 0.5).
            "Elo         +0.0 ± 561.2 (95%, trinomial)",
        ] {
            assert!(text.contains(needle), "missing {needle} in\n{text}");
        }
        assert!(s.progress(None).starts_with("A vs B: +1 =1 -1 (50.0%)"));
        assert!(
            text.starts_with("Results of A vs B (3 games, 1 pair):"),
            "{text}"
        );
    }

    #[test]
    fn an_undefined_bar_reads_cleanly() {
        let mut s = PairingStats {
            first: "A".into(),
            second: "B".into(),
            ..Default::default()
        };
        s.record(1.0, "checkmate");
        let text = s.summary(None);
        assert!(
            text.starts_with("Results of A vs B (1 game, 0 pairs):"),
            "{text}"
        );
        assert!(
            text.contains("  Elo         +inf (95%: -233.8 to +inf, Wilson score interval)\n"),
            "{text}"
        );
        s.record(0.0, "checkmate");
        s.penta.add_pair(1.0, 0.0);
        let text = s.summary(None);
        assert!(
            text.starts_with("Results of A vs B (2 games, 1 pair):"),
            "{text}"
        );
        assert!(
            text.contains("  Elo         +0.0 (95%: -392.5 to +392.5, Wilson score interval)\n"),
            "{text}"
        );
    }
}
