//! Adam on the full batch: each epoch one exact gradient over every position, then one step per
//! weight scaled by its own gradient history, so rarely used weights move as fast as common ones.

use super::model::Weights;

/// The penalty `l2 × Σ ((w − w₀)/100)²` that `--l2` adds to the loss (weights in centipawns, so
/// 100 is one pawn-sized step).
pub fn l2_penalty(w: &Weights, start: &Weights, l2: f64) -> f64 {
    w.iter()
        .zip(start)
        .flat_map(|(a, b)| (0..2).map(move |h| (a[h] - b[h]) / 100.0))
        .map(|d| l2 * d * d)
        .sum()
}

/// Adds the gradient of [`l2_penalty`] to `grad`.
pub fn add_l2_gradient(grad: &mut Weights, w: &Weights, start: &Weights, l2: f64) {
    for ((g, a), b) in grad.iter_mut().zip(w).zip(start) {
        for h in 0..2 {
            g[h] += 2.0 * l2 * (a[h] - b[h]) / 1e4;
        }
    }
}

pub struct Adam {
    pub lr: f64,
    beta1: f64,
    beta2: f64,
    m: Weights,
    v: Weights,
    t: i32,
    /// Weights that stay as they are.
    frozen: Vec<bool>,
}

impl Adam {
    pub fn new(size: usize, lr: f64, frozen: Vec<bool>) -> Adam {
        assert_eq!(frozen.len(), size);
        Adam {
            lr,
            beta1: 0.9,
            beta2: 0.999,
            m: vec![[0.0; 2]; size],
            v: vec![[0.0; 2]; size],
            t: 0,
            frozen,
        }
    }

    /// One step against `grad`.
    pub fn step(&mut self, w: &mut Weights, grad: &Weights) {
        self.t += 1;
        let c1 = 1.0 - self.beta1.powi(self.t);
        let c2 = 1.0 - self.beta2.powi(self.t);
        for i in 0..w.len() {
            if self.frozen[i] {
                continue;
            }
            for h in 0..2 {
                let g = grad[i][h];
                self.m[i][h] = self.beta1 * self.m[i][h] + (1.0 - self.beta1) * g;
                self.v[i][h] = self.beta2 * self.v[i][h] + (1.0 - self.beta2) * g * g;
                let m = self.m[i][h] / c1;
                let v = self.v[i][h] / c2;
                if v > 0.0 {
                    w[i][h] -= self.lr * m / (v.sqrt() + 1e-12);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn l2_gradient_matches_finite_differences() {
        let start: Weights = vec![[100.0, 200.0], [-30.0, 0.0]];
        let w: Weights = vec![[130.0, 150.0], [-30.0, 45.0]];
        let l2 = 0.7;
        let mut grad = vec![[0.0; 2]; 2];
        add_l2_gradient(&mut grad, &w, &start, l2);
        for i in 0..2 {
            for h in 0..2 {
                let (mut up, mut down) = (w.clone(), w.clone());
                up[i][h] += 0.5;
                down[i][h] -= 0.5;
                let numeric = l2_penalty(&up, &start, l2) - l2_penalty(&down, &start, l2);
                assert!((numeric - grad[i][h]).abs() < 1e-9, "{i} {h}");
            }
        }
    }

    #[test]
    fn a_strong_pull_keeps_weights_near_the_start() {
        // The data alone pushes the weight toward 0 with a constant slope; the pull balances
        // it where 2 × l2 × (w − w₀)/100² equals that slope.
        let start: Weights = vec![[100.0, 100.0]];
        let mut w = start.clone();
        let mut adam = Adam::new(1, 1.0, vec![false]);
        for _ in 0..5000 {
            let mut grad: Weights = vec![[1e-4, 1e-4]];
            add_l2_gradient(&mut grad, &w, &start, 0.1);
            adam.step(&mut w, &grad);
        }
        // Balance at w − w₀ = −1e-4 × 1e4 / 0.2 = −5.
        assert!((w[0][0] - 95.0).abs() < 1.0, "{:?}", w[0]);
    }
}
