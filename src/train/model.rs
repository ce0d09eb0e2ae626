//! The network in floating point, as the trainer fits it: the forward pass, its gradient for one
//! position (touching only the columns of the inputs that position has), and quantisation to
//! the integer network the engine runs.

use crate::board::types::{Color, Piece, PieceType, Square};
use crate::nnue::{
    bucket, Network, View, BUCKETS, FEATURES, FT_CLIP, HIDDEN, KING_BUCKETS, OUT_CLIP,
    PIECE_SQUARES, QA, QB, SCALE,
};
use crate::samples::Record;

/// With general buckets, each piece-square also has one column shared by every bucket (a
/// "factoriser"): a bucket's column is its own plus the shared one, so what a piece on a square
/// is worth wherever the general stands is learnt from all positions, and each bucket learns
/// only its difference. The quantiser folds the shared column into every bucket's.
const FACTORISED: bool = KING_BUCKETS > 1;
const SHARED_COLUMNS: usize = if FACTORISED { PIECE_SQUARES } else { 0 };

/// Offsets of each block in the flat parameter vector.
pub const FT_WEIGHTS: usize = 0;
pub const FT_SHARED: usize = FEATURES * HIDDEN;
pub const FT_BIAS: usize = FT_SHARED + SHARED_COLUMNS * HIDDEN;
pub const OUT_WEIGHTS: usize = FT_BIAS + HIDDEN;
pub const OUT_BIAS: usize = OUT_WEIGHTS + BUCKETS * 2 * HIDDEN;
pub const PARAMS: usize = OUT_BIAS + BUCKETS;

/// All parameters, flat: first-layer weights (input-major), the shared columns (with general
/// buckets), first-layer biases, output weights (per bucket: side to move's half, then the
/// other's), output biases.
#[derive(Clone, PartialEq)]
pub struct FloatNet(pub Vec<f32>);

/// One training position as the network reads it.
pub struct Sample {
    /// Inputs from the side to move's view, then from the other side's.
    pub features: [[u16; 32]; 2],
    pub count: usize,
    pub bucket: usize,
    /// Search score for the side to move, centipawns.
    pub score: f32,
    /// Game result for the side to move: 0, 0.5 or 1.
    pub result: f32,
}

impl Sample {
    /// The inputs of `record`; `mirror` takes the left-right mirror image (an equally true
    /// position: xiangqi is symmetric across the middle file).
    pub fn new(record: &Record, mirror: bool) -> Sample {
        let us = record.side;
        let mut pieces = [(Piece::new(Color::Red, PieceType::King), Square::new(0)); 32];
        let mut count = 0;
        let mut kings = [Square::new(0); 2];
        for (piece, sq) in record.pieces().take(32) {
            let sq = if mirror { sq.mirror_file() } else { sq };
            if piece.kind() == PieceType::King {
                kings[piece.color().index()] = sq;
            }
            pieces[count] = (piece, sq);
            count += 1;
        }
        let ours = View::new(us, kings[us.index()]);
        let theirs = View::new(!us, kings[(!us).index()]);
        let mut features = [[0u16; 32]; 2];
        for (i, &(piece, sq)) in pieces[..count].iter().enumerate() {
            features[0][i] = ours.feature(piece, sq) as u16;
            features[1][i] = theirs.feature(piece, sq) as u16;
        }
        let red = record.result_for_red();
        let (score, result) = match us {
            Color::Red => (record.score as f32, red),
            Color::Black => (-(record.score as f32), 1.0 - red),
        };
        Sample {
            features,
            count,
            bucket: bucket(count as u32),
            score,
            result,
        }
    }
}

/// Where the shared column of input `f` starts in the parameters.
#[inline(always)]
fn shared_column(f: u16) -> usize {
    FT_SHARED + (f as usize % PIECE_SQUARES) * HIDDEN
}

/// How predictions are compared with targets.
#[derive(Clone, Copy, Debug)]
pub struct Objective {
    /// Win probability of a centipawn score: sigmoid(k × cp).
    pub k: f32,
    /// Weight of the game result in the target (the rest is the search score's probability).
    pub lambda: f32,
}

impl Objective {
    fn target(&self, s: &Sample) -> f32 {
        self.lambda * s.result + (1.0 - self.lambda) * sigmoid(self.k * s.score)
    }
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Scratch space for one position's pass.
pub struct Scratch {
    acc: [[f32; HIDDEN]; 2],
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            acc: [[0.0; HIDDEN]; 2],
        }
    }
}

impl FloatNet {
    /// Seeded small random weights.
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut p = vec![0.0f32; PARAMS];
        for w in &mut p[FT_WEIGHTS..FT_SHARED] {
            *w = (rng.f32() * 2.0 - 1.0) * 0.1;
        }
        let out = 1.0 / (2.0 * HIDDEN as f32).sqrt();
        for w in &mut p[OUT_WEIGHTS..OUT_BIAS] {
            *w = (rng.f32() * 2.0 - 1.0) * out;
        }
        FloatNet(p)
    }

    /// The first layer for both views of `s`, left in `scratch`.
    #[inline]
    fn accumulate(&self, s: &Sample, scratch: &mut Scratch) {
        let p = &self.0;
        for (view, acc) in scratch.acc.iter_mut().enumerate() {
            acc.copy_from_slice(&p[FT_BIAS..FT_BIAS + HIDDEN]);
            for &f in &s.features[view][..s.count] {
                let column = &p[f as usize * HIDDEN..][..HIDDEN];
                for (a, w) in acc.iter_mut().zip(column) {
                    *a += w;
                }
                if FACTORISED {
                    let shared = &p[shared_column(f)..][..HIDDEN];
                    for (a, w) in acc.iter_mut().zip(shared) {
                        *a += w;
                    }
                }
            }
        }
    }

    /// The output (centipawns / SCALE) from the accumulated first layer.
    #[inline]
    fn output(&self, s: &Sample, scratch: &Scratch) -> f32 {
        let p = &self.0;
        let mut out = p[OUT_BIAS + s.bucket];
        for view in 0..2 {
            let weights = &p[OUT_WEIGHTS + (s.bucket * 2 + view) * HIDDEN..][..HIDDEN];
            let mut sum = 0.0;
            for (a, w) in scratch.acc[view].iter().zip(weights) {
                let c = a.clamp(0.0, 1.0);
                sum += c * c * w;
            }
            out += sum;
        }
        out
    }

    /// The network's score of `s` in centipawns.
    pub fn evaluate(&self, s: &Sample, scratch: &mut Scratch) -> f32 {
        self.accumulate(s, scratch);
        self.output(s, scratch) * SCALE as f32
    }

    /// The loss of `s`.
    pub fn loss(&self, s: &Sample, objective: &Objective, scratch: &mut Scratch) -> f32 {
        let p = sigmoid(objective.k * self.evaluate(s, scratch));
        let d = p - objective.target(s);
        d * d
    }

    /// Adds the gradient of `s`'s loss to `grad` (same layout as the parameters); returns the
    /// loss. Only the first-layer columns of `s`'s inputs are touched.
    pub fn backward(
        &self,
        s: &Sample,
        objective: &Objective,
        scratch: &mut Scratch,
        grad: &mut [f32],
    ) -> f32 {
        self.accumulate(s, scratch);
        let out = self.output(s, scratch);
        let k = objective.k * SCALE as f32;
        let p = sigmoid(k * out);
        let d = p - objective.target(s);
        let g = 2.0 * d * p * (1.0 - p) * k;
        let params = &self.0;
        grad[OUT_BIAS + s.bucket] += g;
        let mut delta = [0.0f32; HIDDEN];
        for view in 0..2 {
            let at = OUT_WEIGHTS + (s.bucket * 2 + view) * HIDDEN;
            let weights = &params[at..at + HIDDEN];
            let out_grad = &mut grad[at..at + HIDDEN];
            let acc = &scratch.acc[view];
            for i in 0..HIDDEN {
                let a = acc[i];
                let c = a.clamp(0.0, 1.0);
                out_grad[i] += g * c * c;
                // d(c²)/da = 2a inside (0, 1), else 0.
                delta[i] = if a > 0.0 && a < 1.0 {
                    g * weights[i] * 2.0 * a
                } else {
                    0.0
                };
            }
            for (b, d) in grad[FT_BIAS..FT_BIAS + HIDDEN].iter_mut().zip(&delta) {
                *b += d;
            }
            for &f in &s.features[view][..s.count] {
                let column = &mut grad[f as usize * HIDDEN..][..HIDDEN];
                for (c, d) in column.iter_mut().zip(&delta) {
                    *c += d;
                }
                if FACTORISED {
                    let shared = &mut grad[shared_column(f)..][..HIDDEN];
                    for (c, d) in shared.iter_mut().zip(&delta) {
                        *c += d;
                    }
                }
            }
        }
        d * d
    }

    /// Keeps the weights the integer network must hold within its range: with shared columns,
    /// each bucket's column plus the shared one (what the quantiser writes).
    pub fn clip(&mut self) {
        let (columns, rest) = self.0.split_at_mut(FT_SHARED);
        let (shared, _) = rest.split_at_mut(FT_BIAS - FT_SHARED);
        for w in shared.iter_mut() {
            *w = w.clamp(-FT_CLIP, FT_CLIP);
        }
        for (f, column) in columns.chunks_exact_mut(HIDDEN).enumerate() {
            let base: &[f32] = if FACTORISED {
                &shared[(f % PIECE_SQUARES) * HIDDEN..][..HIDDEN]
            } else {
                &[0.0; HIDDEN]
            };
            for (w, b) in column.iter_mut().zip(base) {
                *w = (*w + b).clamp(-FT_CLIP, FT_CLIP) - b;
            }
        }
        for w in &mut self.0[FT_BIAS..OUT_WEIGHTS] {
            *w = w.clamp(-FT_CLIP, FT_CLIP);
        }
        for w in &mut self.0[OUT_WEIGHTS..OUT_BIAS] {
            *w = w.clamp(-OUT_CLIP, OUT_CLIP);
        }
    }

    /// The integer network: first layer × QA, output weights and biases × QB.
    pub fn quantise(&self, name: &str) -> Network {
        let p = &self.0;
        let q = |w: f32, scale: i32| (w * scale as f32).round() as i32;
        let row = |at: usize, scale: i32| -> [i16; HIDDEN] {
            std::array::from_fn(|i| q(p[at + i], scale).clamp(-32767, 32767) as i16)
        };
        let ft_weights = (0..FEATURES)
            .map(|f| -> [i16; HIDDEN] {
                std::array::from_fn(|i| {
                    let mut w = p[f * HIDDEN + i];
                    if FACTORISED {
                        w += p[shared_column(f as u16) + i];
                    }
                    q(w, QA).clamp(-32767, 32767) as i16
                })
            })
            .collect();
        let ft_bias = row(FT_BIAS, QA);
        let out_weights = std::array::from_fn(|b| {
            std::array::from_fn(|view| row(OUT_WEIGHTS + (b * 2 + view) * HIDDEN, QB))
        });
        let out_bias = std::array::from_fn(|b| q(p[OUT_BIAS + b], QB));
        Network::from_parts(ft_weights, ft_bias, out_weights, out_bias, name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;
    use crate::nnue::Accumulators;
    use crate::Position;

    fn random_positions(n: usize, seed: u64) -> Vec<Position> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut out = Vec::new();
        let mut pos = Position::startpos();
        while out.len() < n {
            let moves = legal_moves(&pos);
            if moves.is_empty() || pos.game_ply() > 160 {
                pos = Position::startpos();
                continue;
            }
            pos.make_move(moves.as_slice()[rng.usize(..moves.len())]);
            out.push(pos.clone());
        }
        out
    }

    /// A float network with weights of the size training gives them (first layer about
    /// ±0.1; output about ±0.1 at 256 hidden and smaller by √(HIDDEN / 256) for a larger
    /// layer, as the scores' spread stays a trained net's), so activations fall in and out of
    /// the clipped region.
    fn trained_like_net(seed: u64) -> FloatNet {
        let mut net = FloatNet::random(seed);
        let mut rng = fastrand::Rng::with_seed(seed ^ 1);
        for w in &mut net.0[FT_WEIGHTS..FT_SHARED] {
            *w = (rng.f32() * 2.0 - 1.0) * 0.12;
        }
        for w in &mut net.0[FT_BIAS..OUT_WEIGHTS] {
            *w = rng.f32() * 0.3;
        }
        let out_size = 0.15 * (256.0 / HIDDEN as f32).sqrt();
        for w in &mut net.0[OUT_WEIGHTS..OUT_BIAS] {
            *w = (rng.f32() * 2.0 - 1.0) * out_size;
        }
        for w in &mut net.0[OUT_BIAS..] {
            *w = rng.f32() - 0.5;
        }
        net.clip();
        net
    }

    /// On positions it never saw, the integer network is within 4 cp of the float one on
    /// average and 15 cp at worst (the first layer's rounding to 1/255 dominates; trained
    /// networks, by `train`'s own report: 2.75 cp at 512 hidden, 3.1 at 256; a broken
    /// quantisation is off by tens).
    #[test]
    fn quantised_and_float_outputs_agree() {
        let float = trained_like_net(21);
        let int = float.quantise("test");
        let mut scratch = Scratch::default();
        let (mut worst, mut total, mut size) = (0.0f32, 0.0f32, 0.0f32);
        let positions = random_positions(1000, 8);
        for pos in &positions {
            let record = Record::new(pos, 0, 1).unwrap();
            let want = float.evaluate(&Sample::new(&record, false), &mut scratch);
            let got = Accumulators::new(&int, pos).evaluate(
                &int,
                pos.side_to_move(),
                pos.occupied().count(),
            ) as f32;
            worst = worst.max((got - want).abs());
            total += (got - want).abs();
            size += want.abs();
        }
        let n = positions.len() as f32;
        assert!(size / n > 100.0, "scores too small to test: {}", size / n);
        assert!(total / n <= 4.0, "mean difference {}", total / n);
        assert!(worst <= 15.0, "largest difference {worst}");
        assert!(
            worst > 0.0,
            "the two never differ: the test compares nothing"
        );
    }

    /// The analytic gradient matches finite differences on every kind of parameter.
    #[test]
    fn gradients_match_finite_differences() {
        let mut net = trained_like_net(5);
        let objective = Objective {
            k: 0.004,
            lambda: 0.3,
        };
        let pos = &random_positions(30, 3)[29];
        let record = Record::new(pos, 150, 2).unwrap();
        let sample = Sample::new(&record, true);
        let mut scratch = Scratch::default();
        let mut grad = vec![0.0; PARAMS];
        net.backward(&sample, &objective, &mut scratch, &mut grad);
        let mut probes = vec![
            sample.features[0][3] as usize * HIDDEN + 7,
            sample.features[1][5] as usize * HIDDEN + 100,
            FT_BIAS + 17,
            OUT_WEIGHTS + sample.bucket * 2 * HIDDEN + 9,
            OUT_WEIGHTS + (sample.bucket * 2 + 1) * HIDDEN + 200,
            OUT_BIAS + sample.bucket,
        ];
        if FACTORISED {
            probes.push(shared_column(sample.features[0][4]) + 31);
        }
        let mut checked = 0;
        for i in probes {
            let h = 3e-3;
            let old = net.0[i];
            net.0[i] = old + h;
            let up = net.loss(&sample, &objective, &mut scratch) as f64;
            net.0[i] = old - h;
            let down = net.loss(&sample, &objective, &mut scratch) as f64;
            net.0[i] = old;
            let numeric = (up - down) / (2.0 * h as f64);
            let analytic = grad[i] as f64;
            if numeric.abs() > 1e-6 {
                checked += 1;
            }
            assert!(
                (numeric - analytic).abs() <= 3e-2 * numeric.abs().max(1e-4),
                "parameter {i}: numeric {numeric} analytic {analytic}"
            );
        }
        assert!(checked >= 3, "too few parameters with a gradient to check");
    }
}
