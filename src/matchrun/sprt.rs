//! Sequential probability ratio test on pentanomial pair results: H0 (Elo = elo0) against
//! H1 (Elo = elo1), stopping once the log-likelihood ratio leaves Wald's bounds.

use super::stats::Pentanomial;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtStatus {
    Continue,
    /// H0 accepted: the change is not an improvement of elo1.
    AcceptH0,
    /// H1 accepted: the change gains at least elo0.
    AcceptH1,
}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (alpha and beta default to 0.05).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let (mut elo0, mut elo1) = (None, None);
        let (mut alpha, mut beta) = (0.05, 0.05);
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("--sprt: expected key=value, got '{word}'"))?;
            let number: f64 = value
                .parse()
                .map_err(|_| format!("--sprt: '{value}' is not a number in '{word}'"))?;
            match key {
                "elo0" => elo0 = Some(number),
                "elo1" => elo1 = Some(number),
                "alpha" => alpha = number,
                "beta" => beta = number,
                _ => {
                    return Err(format!(
                        "--sprt: unknown key '{key}' (elo0, elo1, alpha, beta)"
                    ))
                }
            }
        }
        let (elo0, elo1) = match (elo0, elo1) {
            (Some(a), Some(b)) => (a, b),
            _ => return Err("--sprt needs elo0=.. and elo1=..".to_string()),
        };
        if elo0 >= elo1 {
            return Err(format!("--sprt: elo0 ({elo0}) must be below elo1 ({elo1})"));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("--sprt: {name} must be in (0, 0.5), got {p}"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Wald's bounds (lower, upper) on the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn llr(&self, penta: &Pentanomial) -> f64 {
        penta.llr(self.elo0, self.elo1)
    }

    pub fn status(&self, penta: &Pentanomial) -> SprtStatus {
        let llr = self.llr(penta);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtStatus::AcceptH1
        } else if llr <= lower {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn bounds_for_five_percent_errors() {
        let sprt = Sprt::parse(&words("elo0=0 elo1=5 alpha=0.05 beta=0.05")).unwrap();
        let (lo, hi) = sprt.bounds();
        // ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
        assert!((lo + 2.944_439).abs() < 1e-6 && (hi - 2.944_439).abs() < 1e-6);
    }

    #[test]
    fn status_follows_the_evidence() {
        let sprt = Sprt::parse(&words("elo0=0 elo1=10")).unwrap();
        assert_eq!(
            sprt.status(&Pentanomial([0, 0, 1, 0, 0])),
            SprtStatus::Continue
        );
        assert_eq!(
            sprt.status(&Pentanomial([100, 400, 900, 600, 300])),
            SprtStatus::AcceptH1
        );
        assert_eq!(
            sprt.status(&Pentanomial([300, 600, 900, 400, 100])),
            SprtStatus::AcceptH0
        );
    }

    #[test]
    fn bad_arguments_are_explained() {
        assert!(Sprt::parse(&words("elo0=5 elo1=0"))
            .unwrap_err()
            .contains("below"));
        assert!(Sprt::parse(&words("elo0=0")).unwrap_err().contains("elo1"));
        assert!(Sprt::parse(&words("elo0=x elo1=1"))
            .unwrap_err()
            .contains("not a number"));
        assert!(Sprt::parse(&words("elo0=0 elo1=1 gamma=2"))
            .unwrap_err()
            .contains("unknown"));
    }
}
