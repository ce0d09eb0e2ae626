//! The linear model the tuner fits: a position's Red-view evaluation is its coefficients times
//! the (mg, eg) weights plus the fixed king danger, blended by phase and scaled by the draw
//! scale exactly as `evaluate` does; the loss is the mean squared error between
//! sigmoid(K × eval) and the target (the result, optionally mixed with sigmoid(K × score)).

use super::data::Dataset;
use crate::eval::params::{PHASE_MAX, SCALE_NORMAL};

/// One (mg, eg) pair per weight index ([`crate::eval::trace::weight`]).
pub type Weights = Vec<[f64; 2]>;

/// Red-view evaluation of position `i` under `w`, in centipawns (not rounded).
#[inline]
pub fn evaluate(data: &Dataset, i: usize, w: &[[f64; 2]]) -> f64 {
    let meta = &data.meta[i];
    let (mut mg, mut eg) = (0.0, 0.0);
    for c in data.coefs_of(i) {
        let pair = w[c.index as usize];
        mg += c.count as f64 * pair[0];
        eg += c.count as f64 * pair[1];
    }
    let mg = mg / 64.0 + meta.fixed_mg as f64;
    let eg = eg / 64.0 + meta.fixed_eg as f64;
    let phase = meta.phase as f64 / PHASE_MAX as f64;
    (mg * phase + eg * (1.0 - phase)) * meta.scale as f64 / SCALE_NORMAL as f64
}

#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// What the model's win probability is fitted to: the result, or with `lambda` > 0 a mix
/// with the search score's win probability.
#[inline]
fn target(data: &Dataset, i: usize, k: f64, lambda: f64) -> f64 {
    let meta = &data.meta[i];
    let result = meta.result as f64 / 2.0;
    if lambda == 0.0 {
        result
    } else {
        (1.0 - lambda) * result + lambda * sigmoid(k * meta.score as f64)
    }
}

/// Mean loss over `data`, and with `gradient` its gradient per weight (same shape as `w`).
/// Runs on `threads` threads, each over its own slice of positions.
pub fn loss_and_gradient(
    data: &Dataset,
    w: &[[f64; 2]],
    k: f64,
    lambda: f64,
    threads: usize,
    gradient: bool,
) -> (f64, Weights) {
    let n = data.len();
    if n == 0 {
        return (0.0, vec![[0.0; 2]; w.len()]);
    }
    let chunk = n.div_ceil(threads.max(1));
    let parts: Vec<(f64, Weights)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .step_by(chunk)
            .map(|start| {
                let end = (start + chunk).min(n);
                scope.spawn(move || {
                    let mut grad = if gradient {
                        vec![[0.0; 2]; w.len()]
                    } else {
                        Vec::new()
                    };
                    let mut loss = 0.0;
                    for i in start..end {
                        let e = evaluate(data, i, w);
                        let p = sigmoid(k * e);
                        let diff = p - target(data, i, k, lambda);
                        loss += diff * diff;
                        if gradient {
                            // d loss / d eval, then d eval / d weight = count/64 × taper × scale.
                            let meta = &data.meta[i];
                            let de = 2.0 * diff * p * (1.0 - p) * k * meta.scale as f64
                                / SCALE_NORMAL as f64
                                / 64.0;
                            let phase = meta.phase as f64 / PHASE_MAX as f64;
                            let (dmg, deg) = (de * phase, de * (1.0 - phase));
                            for c in data.coefs_of(i) {
                                let g = &mut grad[c.index as usize];
                                g[0] += dmg * c.count as f64;
                                g[1] += deg * c.count as f64;
                            }
                        }
                    }
                    (loss, grad)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("gradient thread panicked"))
            .collect()
    });
    let mut loss = 0.0;
    let mut grad = vec![[0.0; 2]; if gradient { w.len() } else { 0 }];
    for (l, g) in parts {
        loss += l;
        for (total, part) in grad.iter_mut().zip(&g) {
            total[0] += part[0];
            total[1] += part[1];
        }
    }
    let scale = 1.0 / n as f64;
    for g in &mut grad {
        g[0] *= scale;
        g[1] *= scale;
    }
    (loss * scale, grad)
}

/// The K that minimises the loss of `w` on `data` (golden-section search on log K).
pub fn fit_k(data: &Dataset, w: &[[f64; 2]], lambda: f64, threads: usize) -> f64 {
    let loss = |log_k: f64| loss_and_gradient(data, w, log_k.exp(), lambda, threads, false).0;
    let (mut a, mut b) = ((1e-4f64).ln(), (0.1f64).ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (loss(c), loss(d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = loss(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = loss(d);
        }
    }
    ((a + b) / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;
    use crate::eval::Evaluator;
    use crate::tune::data::{extract, CoefSink, Meta};
    use crate::tune::params_writer;
    use crate::{Color, Position};

    /// Positions from random games out of the built-in openings: every phase, both sides to
    /// move, checks and captures included.
    fn random_positions(count: usize, seed: u64) -> Vec<Position> {
        let (suite, _) = crate::notation::openings::load(&Default::default()).unwrap();
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut pos = suite[rng.usize(..suite.len())].position();
            for _ in 0..rng.usize(0..160) {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves.as_slice()[rng.usize(..moves.len())]);
                if rng.u8(..8) == 0 {
                    out.push(pos.clone());
                }
            }
        }
        out.truncate(count);
        out
    }

    fn built_weights() -> Weights {
        let w = params_writer::parse(crate::tune::BUILT_PARAMS).unwrap();
        w.iter().map(|p| [p[0] as f64, p[1] as f64]).collect()
    }

    fn dataset(positions: &[Position]) -> Dataset {
        let mut sink = CoefSink::default();
        let mut data = Dataset::default();
        for pos in positions {
            let (coefs, meta) = extract(pos, &mut sink).unwrap();
            data.push(&coefs, meta).unwrap();
        }
        data
    }

    /// The model with the built weights is the evaluation. Excluded from exactness: integer
    /// rounding only (the relations term's 64ths, the blend and the draw scale truncate in
    /// `evaluate`); so each half may differ by under 1 cp and the final score by at most 2.
    #[test]
    fn model_with_built_weights_equals_evaluate() {
        let w = built_weights();
        let positions = random_positions(3000, 11);
        let data = dataset(&positions);
        let mut exact = 0;
        for (i, pos) in positions.iter().enumerate() {
            let trace = Evaluator::trace(pos);
            let meta = &data.meta[i];
            assert_eq!(meta.phase as i32, trace.phase);
            assert_eq!(meta.scale as i32, trace.scale);
            let (mut mg, mut eg) = (meta.fixed_mg as f64, meta.fixed_eg as f64);
            for c in data.coefs_of(i) {
                mg += c.count as f64 * w[c.index as usize][0] / 64.0;
                eg += c.count as f64 * w[c.index as usize][1] / 64.0;
            }
            assert!(
                (mg - trace.red.mg() as f64).abs() < 1.0,
                "{pos}: mg {mg} vs {:?}",
                trace.red
            );
            assert!(
                (eg - trace.red.eg() as f64).abs() < 1.0,
                "{pos}: eg {eg} vs {:?}",
                trace.red
            );
            let model = evaluate(&data, i, &w);
            let red_final = match pos.side_to_move() {
                Color::Red => trace.final_score,
                Color::Black => -trace.final_score,
            };
            assert!(
                (model - red_final as f64).abs() <= 2.0,
                "{pos}: {model} vs {red_final}"
            );
            assert_eq!(
                Evaluator::new(pos).evaluate_uncached(pos),
                trace.final_score
            );
            exact += (model.trunc() as i32 == red_final) as usize;
        }
        assert!(exact > positions.len() / 2, "only {exact} exact");
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let positions = random_positions(400, 5);
        let mut data = dataset(&positions);
        let mut rng = fastrand::Rng::with_seed(9);
        for m in &mut data.meta {
            m.result = rng.u8(..3);
            m.score = rng.i16(-400..400);
        }
        let w = built_weights();
        let k = 0.004;
        for lambda in [0.0, 0.3] {
            let (_, grad) = loss_and_gradient(&data, &w, k, lambda, 2, true);
            let used = data.used();
            let probes = [
                crate::eval::trace::weight::TEMPO,
                crate::eval::trace::weight::MOBILITY + 4,
                crate::eval::trace::weight::PIECE_VALUE + 3,
                crate::eval::trace::weight::PST + 6 * 90 + 22,
                crate::eval::trace::weight::HANGING + 3,
            ];
            for &i in &probes {
                assert!(used[i], "weight {i} unused by the sample");
                for h in 0..2 {
                    let step = 0.5;
                    let mut up = w.clone();
                    up[i][h] += step;
                    let mut down = w.clone();
                    down[i][h] -= step;
                    let numeric = (loss_and_gradient(&data, &up, k, lambda, 1, false).0
                        - loss_and_gradient(&data, &down, k, lambda, 1, false).0)
                        / (2.0 * step);
                    let analytic = grad[i][h];
                    let tolerance = 1e-3 * analytic.abs().max(1e-7);
                    assert!(
                        (numeric - analytic).abs() <= tolerance,
                        "weight {i}/{h}: numeric {numeric:e} analytic {analytic:e}"
                    );
                    assert!(analytic != 0.0);
                }
            }
        }
    }

    /// Targets made by a known evaluation (the built weights changed throughout): starting
    /// from the built weights, the tuner finds the changed ones again.
    #[test]
    fn tuner_recovers_known_weights() {
        use crate::eval::trace::weight;
        let positions = random_positions(4000, 21);
        let mut data = dataset(&positions);
        let start = built_weights();
        let mut truth = start.clone();
        let mut rng = fastrand::Rng::with_seed(3);
        let probes = [
            weight::TEMPO,
            weight::MOBILITY + 3,
            weight::MOBILITY + 4,
            weight::PIECE_VALUE + 5,
            weight::PIECE_VALUE + 6,
            weight::HANGING + 4,
        ];
        for pair in truth.iter_mut() {
            pair[0] += rng.f64() * 6.0 - 3.0;
            pair[1] += rng.f64() * 6.0 - 3.0;
        }
        for &i in &probes {
            truth[i][0] += 15.0;
            truth[i][1] -= 10.0;
        }
        // lambda = 1: the target is sigmoid(K × score), the score the true evaluation.
        let k = 0.005;
        for i in 0..data.len() {
            let e = evaluate(&data, i, &truth);
            data.meta[i] = Meta {
                score: e.round() as i16,
                ..data.meta[i]
            };
        }
        let used = data.used();
        let frozen = (0..start.len()).map(|i| !used[i]).collect();
        let mut w = start.clone();
        let mut adam = crate::tune::optimizer::Adam::new(w.len(), 2.0, frozen);
        let rms = |w: &Weights| {
            let sum: f64 = (0..data.len())
                .map(|i| (evaluate(&data, i, w) - evaluate(&data, i, &truth)).powi(2))
                .sum();
            (sum / data.len() as f64).sqrt()
        };
        let before = rms(&w);
        let loss_before = loss_and_gradient(&data, &w, k, 1.0, 2, false).0;
        for epoch in 0..1500 {
            if epoch == 1000 {
                adam.lr = 0.3;
            }
            let (_, grad) = loss_and_gradient(&data, &w, k, 1.0, 2, true);
            adam.step(&mut w, &grad);
        }
        let after = rms(&w);
        let loss_after = loss_and_gradient(&data, &w, k, 1.0, 2, false).0;
        assert!(
            loss_after < loss_before / 20.0,
            "{loss_before} -> {loss_after}"
        );
        assert!(
            after < before / 5.0,
            "eval rms error {before:.2} -> {after:.2}"
        );
        // A piece value and its table move together (only their sum is seen): check the sum
        // on each kind's most used square.
        let mut uses = vec![0usize; w.len()];
        for c in &data.coefs {
            uses[c.index as usize] += 1;
        }
        let value_on_square = |w: &Weights, kind: usize, h: usize| {
            let base = weight::PST + kind * 90;
            let square = (base..base + 90).max_by_key(|&i| uses[i]).unwrap();
            w[weight::PIECE_VALUE + kind][h] + w[square][h]
        };
        for h in 0..2 {
            for i in probes {
                let (found, want, was) = match i {
                    _ if (weight::PIECE_VALUE..weight::PIECE_VALUE + 7).contains(&i) => {
                        let kind = i - weight::PIECE_VALUE;
                        (
                            value_on_square(&w, kind, h),
                            value_on_square(&truth, kind, h),
                            value_on_square(&start, kind, h),
                        )
                    }
                    _ => (w[i][h], truth[i][h], start[i][h]),
                };
                assert!(
                    (found - want).abs() < (was - want).abs() / 3.0,
                    "weight {i}/{h}: started {was:.1}, found {found:.1}, true {want:.1}"
                );
            }
        }
    }
}
