//! Adam on the full batch: each epoch one exact gradient over every position, then one step per
//! weight scaled by its own gradient history, so rarely used weights move as fast as common ones.

use super::model::Weights;

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
