//! `chariot wdl`: fits the win/draw/loss model to datagen positions (text or binary) and prints
//! the coefficients as a `params.rs`, with how well the fitted rates match the observed ones.
//!
//! The fit maximises the likelihood of the games' results. First each material count on its
//! own (two parameters, `a` and `b`), then cubics through those, weighted by the positions, and
//! last all eight coefficients together from there (Nelder-Mead on the likelihood).

use super::{material_weight, Model, START_MATERIAL};
use crate::console::{count, outln};
use crate::output_file::{Existing, OutputPath};
use crate::samples::{for_each_record, Record};
use crate::Color;
use clap::Args;
use std::collections::HashMap;
use std::path::Path;

#[derive(Args, Debug, Clone)]
pub struct WdlArgs {
    /// Datagen output files: text lines `FEN | score | result`, or 40-byte records for `.bin`.
    #[arg(long = "data", value_name = "FILE", required = true, num_args = 1..)]
    pub data: Vec<String>,
    /// Also write the coefficients to this file (`src/wdl/params.rs` to use them).
    #[arg(long, value_name = "FILE")]
    pub output: Option<String>,
    /// Replace an existing output.
    #[arg(long)]
    pub force: bool,
    /// Material counts held by fewer positions are left out, and the model clamps to the range
    /// of those kept.
    #[arg(long, default_value_t = 2000)]
    pub min_positions: u64,
    /// Positions scored beyond this many centipawns either way are left out.
    #[arg(long, default_value_t = 3000)]
    pub max_score: i32,
}

/// Results (loss, draw, win for the side to move) of the positions with one material count and
/// one score.
#[derive(Clone, Copy, Debug)]
struct Cell {
    score: f64,
    counts: [f64; 3],
}

/// The positions of one material count.
struct Group {
    material: i32,
    positions: u64,
    cells: Vec<Cell>,
}

/// Iterations of the joint fit; one that has not settled by then has failed.
const JOINT_ITERATIONS: usize = 20_000;
/// The largest centre or width (cp) a fit may give at any material count it covers: past it
/// the score says next to nothing about the result, and the fit has run away.
const MAX_PARAMETER: f64 = 10_000.0;

/// Runs the command.
pub fn run_wdl(args: &WdlArgs) -> Result<(), String> {
    if args.min_positions == 0 {
        return Err("--min-positions must be at least 1".into());
    }
    if args.max_score <= 0 {
        return Err(format!(
            "--max-score must be positive, not {}",
            args.max_score
        ));
    }
    let output = args
        .output
        .as_ref()
        .map(|path| OutputPath::check(path, "--output", Existing::replace_if(args.force)))
        .transpose()?;
    let mut cells: HashMap<(i32, i32), [u64; 3]> = HashMap::new();
    let (mut read, mut beyond) = (0u64, 0u64);
    for path in &args.data {
        for_each_record(Path::new(path), None, |record| {
            read += 1;
            let (material, score, result) = side_to_move_view(&record);
            if score.abs() > args.max_score {
                beyond += 1;
            } else {
                cells.entry((material, score)).or_default()[result as usize] += 1;
            }
            Ok(())
        })?;
    }
    let mut by_material: HashMap<i32, Group> = HashMap::new();
    for ((material, score), counts) in cells {
        let group = by_material.entry(material).or_insert(Group {
            material,
            positions: 0,
            cells: Vec::new(),
        });
        group.positions += counts.iter().sum::<u64>();
        group.cells.push(Cell {
            score: score as f64,
            counts: counts.map(|c| c as f64),
        });
    }
    let mut groups: Vec<Group> = by_material
        .into_values()
        .filter(|g| g.positions >= args.min_positions)
        .collect();
    groups.sort_by_key(|g| g.material);
    // Four coefficients per cubic: fewer counts leave them free.
    if groups.len() < 4 {
        return Err(format!(
            "too little data to fit: {} held by at least {} positions, and the fit needs 4",
            count(groups.len() as u64, "material count"),
            args.min_positions
        ));
    }
    let (Some(first), Some(last)) = (groups.first(), groups.last()) else {
        unreachable!("four groups at least");
    };
    let material_range = (first.material, last.material);
    let kept: u64 = groups.iter().map(|g| g.positions).sum();
    outln!(
        "{} read; {} scored beyond ±{} cp and {} of rare material counts left out; {} fitted, material {}..={}",
        count(read, "position"),
        count(beyond, "position"),
        args.max_score,
        count(read - beyond - kept, "position"),
        count(kept, "position"),
        material_range.0,
        material_range.1
    );

    // 1. Each material count alone.
    let mut points = Vec::new();
    for group in &groups {
        let nll = |p: &[f64]| group_nll(&group.cells, p[0], p[1]);
        let (best, _, _) = nelder_mead(nll, &[150.0, 100.0], &[50.0, 30.0], 400);
        points.push((group.material, group.positions as f64, best[0], best[1]));
    }
    // 2. Cubics through them.
    let xs: Vec<(f64, f64)> = points
        .iter()
        .map(|&(m, n, _, _)| (m as f64 / START_MATERIAL as f64, n))
        .collect();
    let a = cubic_fit(&xs, &points.iter().map(|p| p.2).collect::<Vec<_>>());
    let b = cubic_fit(&xs, &points.iter().map(|p| p.3).collect::<Vec<_>>());
    let start: Vec<f64> = a.iter().chain(&b).copied().collect();
    let model_of = |p: &[f64]| Model {
        a: [p[0], p[1], p[2], p[3]],
        b: [p[4], p[5], p[6], p[7]],
        material_range,
    };
    let total_nll = |p: &[f64]| {
        let model = model_of(p);
        groups
            .iter()
            .map(|g| {
                let (a, b) = model.params(g.material);
                group_nll(&g.cells, a, b)
            })
            .sum::<f64>()
    };
    // 3. All eight together.
    let steps: Vec<f64> = start.iter().map(|c| 0.05 * c.abs() + 1.0).collect();
    let before = total_nll(&start) / kept as f64;
    let (best, nll, settled) = nelder_mead(total_nll, &start, &steps, JOINT_ITERATIONS);
    let model = model_of(&best);
    check_fit(&model, &groups, nll, settled)?;
    outln!(
        "log loss per position: {before:.5} from the cubics through each count's fit, {:.5} after the joint fit",
        nll / kept as f64
    );

    // The files by name only: where they lay on the machine that fitted is no part of it.
    let names: Vec<String> = args
        .data
        .iter()
        .map(|d| {
            Path::new(d)
                .file_name()
                .map_or(d.clone(), |n| n.to_string_lossy().into_owned())
        })
        .collect();
    let text = params_text(&model, kept, &names);
    outln!("\n{text}");
    report_bins(&model, &groups);
    if let Some(output) = output {
        output.write(text.as_bytes())?;
        outln!("wrote {}", output.shown());
    }
    Ok(())
}

/// Refuses a fit that failed: one that did not settle, has a centre or width that is not a
/// positive number within [`MAX_PARAMETER`] at a material count it covers, or predicts the
/// results no better than their overall rates would, whatever the score.
fn check_fit(model: &Model, groups: &[Group], nll: f64, settled: bool) -> Result<(), String> {
    let failed = |why: String| Err(format!("the fit failed: {why}; nothing written"));
    if !settled || !nll.is_finite() {
        return failed(format!(
            "it did not settle in {JOINT_ITERATIONS} iterations (too little data?)"
        ));
    }
    for group in groups {
        let (a, b) = model.params(group.material);
        for (name, value) in [("centre", a), ("width", b)] {
            if !(value > 0.0 && value <= MAX_PARAMETER) {
                return failed(format!(
                    "at material {} the {name} is {value:.1} cp, outside 0..{MAX_PARAMETER} \
                     (too little data, or too few results of each kind?)",
                    group.material
                ));
            }
        }
    }
    let mut totals = [0.0f64; 3];
    for cell in groups.iter().flat_map(|g| &g.cells) {
        for (total, n) in totals.iter_mut().zip(cell.counts) {
            *total += n;
        }
    }
    let all: f64 = totals.iter().sum();
    let base: f64 = totals
        .iter()
        .filter(|&&n| n > 0.0)
        .map(|&n| -n * (n / all).ln())
        .sum();
    if nll >= base {
        return failed(format!(
            "its log loss, {:.5} per position, is no better than that of the overall \
             result rates, {:.5}",
            nll / all,
            base / all
        ));
    }
    Ok(())
}

/// A record's material, and its score and result (0 loss, 1 draw, 2 win) for the side to move.
fn side_to_move_view(record: &Record) -> (i32, i32, u8) {
    let material = record
        .pieces()
        .map(|(piece, _)| material_weight(piece.kind()))
        .sum();
    let score = record.score as i32;
    match record.side {
        Color::Red => (material, score, record.result),
        Color::Black => (material, -score, 2 - record.result),
    }
}

/// The model's loss, draw and win chances at `score` with centre `a` and width `b`.
fn chances(score: f64, a: f64, b: f64) -> [f64; 3] {
    let win = 1.0 / (1.0 + ((a - score) / b).exp());
    let loss = 1.0 / (1.0 + ((a + score) / b).exp());
    [loss, 1.0 - win - loss, win]
}

/// Negative log-likelihood of the cells' results under centre `a` and width `b`.
fn group_nll(cells: &[Cell], a: f64, b: f64) -> f64 {
    if a <= 0.0 || b <= 0.0 {
        return f64::INFINITY;
    }
    cells
        .iter()
        .map(|cell| {
            let p = chances(cell.score, a, b);
            (0..3)
                .filter(|&i| cell.counts[i] > 0.0)
                .map(|i| -cell.counts[i] * p[i].max(1e-12).ln())
                .sum::<f64>()
        })
        .sum()
}

/// Weighted least squares: the cubic (highest power first) through `(x, weight)` and `ys`.
fn cubic_fit(xs: &[(f64, f64)], ys: &[f64]) -> [f64; 4] {
    // Normal equations over the powers x³, x², x, 1.
    let mut m = [[0.0f64; 5]; 4];
    for (&(x, w), &y) in xs.iter().zip(ys) {
        let powers = [x * x * x, x * x, x, 1.0];
        for i in 0..4 {
            for j in 0..4 {
                m[i][j] += w * powers[i] * powers[j];
            }
            m[i][4] += w * powers[i] * y;
        }
    }
    // Gauss-Jordan with partial pivoting; a singular system (too few counts) keeps a constant.
    for col in 0..4 {
        let pivot = (col..4)
            .max_by(|&r, &s| m[r][col].abs().total_cmp(&m[s][col].abs()))
            .expect("rows remain");
        m.swap(col, pivot);
        if m[col][col].abs() < 1e-12 {
            let mean = ys.iter().sum::<f64>() / ys.len().max(1) as f64;
            return [0.0, 0.0, 0.0, mean];
        }
        let pivot_row = m[col];
        for (r, row) in m.iter_mut().enumerate() {
            if r != col {
                let factor = row[col] / pivot_row[col];
                for (v, p) in row.iter_mut().zip(pivot_row).skip(col) {
                    *v -= factor * p;
                }
            }
        }
    }
    [0, 1, 2, 3].map(|i| m[i][4] / m[i][i])
}

/// Minimises `f` from `start` with a simplex of `steps` for at most `iterations`; the best
/// point, its value, and whether the simplex settled before the iterations ran out.
fn nelder_mead(
    f: impl Fn(&[f64]) -> f64,
    start: &[f64],
    steps: &[f64],
    iterations: usize,
) -> (Vec<f64>, f64, bool) {
    let n = start.len();
    let mut simplex: Vec<(Vec<f64>, f64)> = (0..=n)
        .map(|i| {
            let mut p = start.to_vec();
            if i > 0 {
                p[i - 1] += steps[i - 1];
            }
            let value = f(&p);
            (p, value)
        })
        .collect();
    let blend = |p: &[f64], q: &[f64], t: f64| -> Vec<f64> {
        p.iter().zip(q).map(|(a, b)| a + t * (b - a)).collect()
    };
    let mut settled = false;
    for _ in 0..iterations {
        simplex.sort_by(|x, y| x.1.total_cmp(&y.1));
        if (simplex[n].1 - simplex[0].1).abs() <= 1e-9 * simplex[0].1.abs().max(1.0) {
            settled = true;
            break;
        }
        let centroid: Vec<f64> = (0..n)
            .map(|k| simplex[..n].iter().map(|(p, _)| p[k]).sum::<f64>() / n as f64)
            .collect();
        let worst = simplex[n].0.clone();
        let reflected = blend(&centroid, &worst, -1.0);
        let fr = f(&reflected);
        if fr < simplex[0].1 {
            let expanded = blend(&centroid, &worst, -2.0);
            let fe = f(&expanded);
            simplex[n] = if fe < fr {
                (expanded, fe)
            } else {
                (reflected, fr)
            };
        } else if fr < simplex[n - 1].1 {
            simplex[n] = (reflected, fr);
        } else {
            let contracted = blend(&centroid, &worst, 0.5);
            let fc = f(&contracted);
            if fc < simplex[n].1 {
                simplex[n] = (contracted, fc);
            } else {
                let best = simplex[0].0.clone();
                for vertex in simplex.iter_mut().skip(1) {
                    let p = blend(&best, &vertex.0, 0.5);
                    let value = f(&p);
                    *vertex = (p, value);
                }
            }
        }
    }
    simplex.sort_by(|x, y| x.1.total_cmp(&y.1));
    let (best, value) = simplex.swap_remove(0);
    (best, value, settled)
}

/// The `params.rs` text of a fitted model.
fn params_text(model: &Model, positions: u64, data: &[String]) -> String {
    let list = |c: &[f64; 4]| {
        c.iter()
            .map(|v| format!("{v:.6}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "//! The win/draw/loss model's coefficients (see `mod.rs`), written by\n\
         //! `chariot wdl --data {}` from {positions} positions.\n\n\
         pub(super) const A: [f64; 4] = [{}];\n\
         pub(super) const B: [f64; 4] = [{}];\n\
         pub(super) const MATERIAL_RANGE: (i32, i32) = ({}, {});\n",
        data.join(" "),
        list(&model.a),
        list(&model.b),
        model.material_range.0,
        model.material_range.1
    )
}

/// Observed against predicted rates in score bins (side to move's view), then in material bins.
fn report_bins(model: &Model, groups: &[Group]) {
    const SCORE_EDGES: [f64; 12] = [
        -600.0, -400.0, -250.0, -150.0, -75.0, -25.0, 25.0, 75.0, 150.0, 250.0, 400.0, 600.0,
    ];
    const MATERIAL_EDGES: [i32; 3] = [40, 60, 80];
    let mut by_score = vec![Tally::default(); SCORE_EDGES.len() + 1];
    let mut by_material = vec![Tally::default(); MATERIAL_EDGES.len() + 1];
    for group in groups {
        let (a, b) = model.params(group.material);
        let m_bin = MATERIAL_EDGES.partition_point(|&e| e <= group.material);
        for cell in &group.cells {
            let predicted = chances(cell.score, a, b);
            let s_bin = SCORE_EDGES.partition_point(|&e| e <= cell.score);
            by_score[s_bin].add(cell, predicted);
            by_material[m_bin].add(cell, predicted);
        }
    }
    let range = |edges: &[f64], i: usize| match i {
        0 => format!("< {}", edges[0]),
        i if i == edges.len() => format!(">= {}", edges[i - 1]),
        i => format!("{} .. {}", edges[i - 1], edges[i]),
    };
    outln!("\nscore (cp)   positions   observed W / D / L %    predicted W / D / L %");
    for (i, tally) in by_score.iter().enumerate() {
        outln!("{:<12} {}", range(&SCORE_EDGES, i), tally.row());
    }
    let edges: Vec<f64> = MATERIAL_EDGES.iter().map(|&e| e as f64).collect();
    outln!("\nmaterial     positions   observed W / D / L %    predicted W / D / L %");
    for (i, tally) in by_material.iter().enumerate() {
        outln!("{:<12} {}", range(&edges, i), tally.row());
    }
}

/// Positions of a bin: observed results and summed predictions (loss, draw, win).
#[derive(Clone, Default)]
struct Tally {
    positions: f64,
    observed: [f64; 3],
    predicted: [f64; 3],
}

impl Tally {
    fn add(&mut self, cell: &Cell, predicted: [f64; 3]) {
        let n: f64 = cell.counts.iter().sum();
        self.positions += n;
        for (i, p) in predicted.iter().enumerate() {
            self.observed[i] += cell.counts[i];
            self.predicted[i] += n * p;
        }
    }

    fn row(&self) -> String {
        let pct = |v: [f64; 3]| {
            let n = self.positions.max(1.0);
            format!(
                "{:>5.1} {:>5.1} {:>5.1}",
                100.0 * v[2] / n,
                100.0 * v[1] / n,
                100.0 * v[0] / n
            )
        };
        format!(
            "{:>9}   {}       {}",
            self.positions,
            pct(self.observed),
            pct(self.predicted)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results drawn from a known model are fitted back close to it.
    #[test]
    fn a_known_model_is_recovered() {
        let (a, b) = (180.0, 90.0);
        let mut rng = fastrand::Rng::with_seed(3);
        let mut cells = Vec::new();
        for score in (-800..=800).step_by(10) {
            let p = chances(score as f64, a, b);
            let mut counts = [0.0; 3];
            for _ in 0..400 {
                let u = rng.f64();
                let i = if u < p[0] {
                    0
                } else if u < p[0] + p[1] {
                    1
                } else {
                    2
                };
                counts[i] += 1.0;
            }
            cells.push(Cell {
                score: score as f64,
                counts,
            });
        }
        let (best, _, settled) = nelder_mead(
            |p| group_nll(&cells, p[0], p[1]),
            &[100.0, 50.0],
            &[50.0, 30.0],
            400,
        );
        assert!(
            settled && (best[0] - a).abs() < 8.0 && (best[1] - b).abs() < 8.0,
            "{best:?}"
        );
    }

    #[test]
    fn a_cubic_through_its_own_points_is_exact() {
        let c = [3.0, -2.0, 5.0, 7.0];
        let xs: Vec<(f64, f64)> = (0..10).map(|i| (i as f64 / 10.0, 1.0 + i as f64)).collect();
        let ys: Vec<f64> = xs
            .iter()
            .map(|&(x, _)| ((c[0] * x + c[1]) * x + c[2]) * x + c[3])
            .collect();
        let fitted = cubic_fit(&xs, &ys);
        for (f, c) in fitted.iter().zip(c) {
            assert!((f - c).abs() < 1e-6, "{fitted:?}");
        }
    }
}
