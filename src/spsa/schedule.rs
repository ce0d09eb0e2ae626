//! The SPSA schedule as fishtest and OpenBench run it. Over N iterations, at iteration k
//! (from 1) each parameter is perturbed by `c_k = c_end (N/k)^gamma` up or down at random, and
//! stepped by `a_k / c_k × result × sign`, with `a_k = r_end c_end² ((A+N)/(A+k))^alpha` and
//! `A = a_ratio N`: so the last iteration perturbs by `c_end` and learns at `r_end` (= a/c²).

use super::tunables::SpsaParam;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    pub iterations: u64,
    /// A as a share of the iterations (fishtest's and OpenBench's default: 0.1).
    pub a_ratio: f64,
    pub alpha: f64,
    pub gamma: f64,
}

impl Schedule {
    /// The perturbation of `p` at iteration `k`.
    pub fn c(&self, p: &SpsaParam, k: u64) -> f64 {
        p.c_end * (self.iterations as f64 / k as f64).powf(self.gamma)
    }

    /// The gain `a_k` of `p` at iteration `k`.
    pub fn a(&self, p: &SpsaParam, k: u64) -> f64 {
        let big_a = self.a_ratio * self.iterations as f64;
        let shrink = (big_a + self.iterations as f64) / (big_a + k as f64);
        p.r_end * p.c_end * p.c_end * shrink.powf(self.alpha)
    }
}

/// One iteration's probe: the sign each parameter moves by in θ+ (θ− moves the other way),
/// and the whole values the two engines play with.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    pub signs: Vec<f64>,
    pub plus: Vec<i32>,
    pub minus: Vec<i32>,
}

/// Draws the probe of iteration `k` around `theta`. The perturbed values are kept within each
/// range and rounded at random to a neighbouring whole number, up with the chance of the
/// fraction (`floor(x + u)`, as fishtest and OpenBench round), so the rounding has no bias;
/// both sides share `u`, which keeps their gap as even as the step allows.
pub fn probe(
    schedule: &Schedule,
    params: &[SpsaParam],
    theta: &[f64],
    k: u64,
    rng: &mut fastrand::Rng,
) -> Probe {
    let mut probe = Probe {
        signs: Vec::new(),
        plus: Vec::new(),
        minus: Vec::new(),
    };
    for (p, &t) in params.iter().zip(theta) {
        let sign = if rng.bool() { 1.0 } else { -1.0 };
        let c = schedule.c(p, k);
        let u = rng.f64();
        let round = |x: f64| (x.clamp(p.min.into(), p.max.into()) + u).floor() as i32;
        probe.signs.push(sign);
        probe.plus.push(round(t + sign * c));
        probe.minus.push(round(t - sign * c));
    }
    probe
}

/// Moves θ after iteration `k`: `result` is θ+'s wins less its losses.
pub fn step(
    schedule: &Schedule,
    params: &[SpsaParam],
    theta: &mut [f64],
    k: u64,
    signs: &[f64],
    result: i64,
) {
    for ((p, t), sign) in params.iter().zip(theta.iter_mut()).zip(signs) {
        let gain = schedule.a(p, k) / schedule.c(p, k);
        *t = (*t + gain * result as f64 * sign).clamp(p.min.into(), p.max.into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(start: f64, min: i32, max: i32, c_end: f64, r_end: f64) -> SpsaParam {
        SpsaParam {
            name: "x".into(),
            start,
            min,
            max,
            c_end,
            r_end,
        }
    }

    const SCHEDULE: Schedule = Schedule {
        iterations: 1000,
        a_ratio: 0.1,
        alpha: 0.602,
        gamma: 0.101,
    };

    #[test]
    fn the_last_iteration_perturbs_by_c_end_and_learns_at_r_end() {
        let p = param(80.0, 30, 200, 8.0, 0.002);
        let (c, a) = (SCHEDULE.c(&p, 1000), SCHEDULE.a(&p, 1000));
        assert!((c - 8.0).abs() < 1e-12);
        assert!((a / (c * c) - 0.002).abs() < 1e-15);
        // Earlier iterations probe wider and step further: c_1 = c_end N^gamma.
        let c1 = SCHEDULE.c(&p, 1);
        assert!((c1 - 8.0 * 1000f64.powf(0.101)).abs() < 1e-9);
        assert!(SCHEDULE.a(&p, 1) / c1 > a / c);
    }

    #[test]
    fn rounding_is_unbiased_and_stays_in_range() {
        let params = [
            param(10.3, 0, 20, 2.0, 0.002),
            param(19.5, 0, 20, 2.0, 0.002),
        ];
        let schedule = Schedule {
            iterations: 1,
            ..SCHEDULE
        };
        let mut rng = fastrand::Rng::with_seed(1);
        let draws = 20_000;
        let (mut gap, mut top) = (0.0, 0.0);
        for _ in 0..draws {
            let probe = probe(&schedule, &params, &[10.3, 19.5], 1, &mut rng);
            let (high, low) = if probe.signs[0] > 0.0 {
                (probe.plus[0], probe.minus[0])
            } else {
                (probe.minus[0], probe.plus[0])
            };
            gap += f64::from(high - low);
            top += f64::from(high + low) / 2.0;
            for v in [probe.plus[1], probe.minus[1]] {
                assert!((0..=20).contains(&v), "{v}");
            }
        }
        // 12.3 and 8.3 on average, 4 apart.
        assert!((gap / draws as f64 - 4.0).abs() < 0.02, "{gap}");
        assert!((top / draws as f64 - 10.3).abs() < 0.02, "{top}");
    }

    #[test]
    fn a_step_follows_the_winner_and_keeps_the_range() {
        let params = [
            param(50.0, 0, 100, 4.0, 0.01),
            param(99.0, 0, 100, 4.0, 0.01),
        ];
        let mut theta = [50.0, 99.0];
        step(&SCHEDULE, &params, &mut theta, 1000, &[1.0, 1.0], 2);
        // a/c at the end is r_end c_end = 0.04 per point of result.
        assert!((theta[0] - 50.08).abs() < 1e-9, "{}", theta[0]);
        step(&SCHEDULE, &params, &mut theta, 1000, &[-1.0, 1.0], 2);
        assert!((theta[0] - 50.0).abs() < 1e-9);
        step(&SCHEDULE, &params, &mut theta, 1, &[1.0, 1.0], 1000);
        assert_eq!(theta[1], 100.0);
    }
}
