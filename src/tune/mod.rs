//! `chariot tune`: fits the linear weights of `params.rs` to datagen positions (Texel-style
//! logistic regression, K fitted first, Adam on the full batch, gradients on several threads)
//! and writes the result into a copy of `params.rs` in its own layout.
//!
//! Fixed (not linear in any single weight, or not a weight of the evaluation sum): the king
//! danger (`KING_ZONE_ATTACK`, `KING_DANGER_*`: quadratic), `RELATIONS_ON_MOVE/WAITING` and
//! `CHEAPER_MARGIN` (they decide which weights apply), the phase and draw-scale constants,
//! `KING_EXCHANGE_VALUE` and the king's piece value (always cancels).

pub mod data;
pub mod model;
pub mod optimizer;
pub mod params_writer;

use crate::console::{count, outln};
use crate::eval::trace::weight;
use crate::output_file::{Existing, OutputPath};
use clap::Args;
use data::{Dataset, LoadOptions};
use indicatif::{ProgressBar, ProgressStyle};
use model::{fit_k, loss_and_gradient, Weights};
use params_writer::IntWeights;
use std::time::Instant;

/// The `params.rs` this binary was built from: the starting weights and the template written.
pub const BUILT_PARAMS: &str = include_str!("../eval/params.rs");

#[derive(Args, Debug, Clone)]
pub struct TuneArgs {
    /// Datagen output files: text lines `FEN | score | result`, or 40-byte records for `.bin`.
    #[arg(long = "data", value_name = "FILE", required = true, num_args = 1..)]
    pub data: Vec<String>,
    /// Where the new params.rs is written (in a clone of the repository by default).
    #[arg(long, value_name = "FILE", default_value = "src/eval/params.rs")]
    pub output: String,
    /// Replace an existing output (the default one too).
    #[arg(long)]
    pub force: bool,
    /// Print the loss change only; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 1000)]
    pub epochs: usize,
    /// Adam step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Share of the target taken from the search score instead of the game result (0..=1).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Use this K instead of fitting it (sigmoid(K × centipawns)).
    #[arg(long)]
    pub k: Option<f64>,
    /// Threads for loading and gradients, 1 to 256 (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Every N-th block of 1024 consecutive positions (about ten games) is held out to
    /// measure overfitting (0: none).
    #[arg(long, default_value_t = 20)]
    pub validation_every: usize,
    /// Weights used by fewer positions stay as they are (default: 0.1% of the training
    /// positions, at least 100): too few examples only fit noise.
    #[arg(long)]
    pub min_uses: Option<usize>,
    /// Keep the scale the tuner finds instead of rescaling the weights to the old K.
    #[arg(long)]
    pub free_scale: bool,
    /// Read at most this many positions.
    #[arg(long)]
    pub max_positions: Option<usize>,
    /// Pull toward the starting weights: adds `L2 × Σ ((w − w₀)/100)²` to the loss, so a
    /// weight moves far only when the data clearly asks for it (table entries that few
    /// positions use then stay near their hand-set shape instead of fitting noise).
    #[arg(long, default_value_t = 1e-5)]
    pub l2: f64,
}

/// Runs the command.
pub fn run_tune(args: &TuneArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!(
            "--lambda must be within 0..=1, not {}",
            args.lambda
        ));
    }
    if !(args.lr > 0.0 && args.lr.is_finite()) {
        return Err(format!("--lr must be positive, not {}", args.lr));
    }
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        return Err(format!("--l2 must be zero or positive, not {}", args.l2));
    }
    if let Some(k) = args.k {
        if !(k > 0.0 && k.is_finite()) {
            return Err(format!("--k must be positive, not {k}"));
        }
    }
    if args.threads.is_some_and(|t| !(1..=256).contains(&t)) {
        return Err(format!(
            "--threads must be 1..=256, not {}",
            args.threads.unwrap_or(0)
        ));
    }
    if args.epochs == 0 {
        return Err("--epochs must be at least 1".into());
    }
    // Checked before the fit, which can take hours, not after it.
    let output = (!args.dry_run)
        .then(|| OutputPath::check(&args.output, "--output", Existing::replace_if(args.force)))
        .transpose()?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 256);
    let start = Instant::now();
    let (train, validation) = load_with_progress(args, threads)?;
    if train.is_empty() {
        return Err("no training positions".into());
    }
    outln!(
        "loaded {} training and {} validation positions in {:.1} s, {:.0} bytes per position",
        train.len(),
        validation.len(),
        start.elapsed().as_secs_f64(),
        train.bytes_per_position()
    );

    let initial = params_writer::parse(BUILT_PARAMS)?;
    let mut w: Weights = initial.iter().map(|p| [p[0] as f64, p[1] as f64]).collect();
    let start_weights = w.clone();
    let k = match args.k {
        Some(k) => k,
        None => fit_k(&train, &w, args.lambda, threads),
    };
    if !(k > 0.0 && k.is_finite()) {
        return Err(format!(
            "the fit of K failed (K = {k}): the data do not fit"
        ));
    }
    outln!("K = {k:.6} (sigmoid(K x centipawns))");
    let losses = |w: &Weights| {
        (
            loss_and_gradient(&train, w, k, args.lambda, threads, false).0,
            loss_and_gradient(&validation, w, k, args.lambda, threads, false).0,
        )
    };
    let (train_before, validation_before) = losses(&w);
    outln!("loss before: train {train_before:.6}, validation {validation_before:.6}");

    let min_uses = args.min_uses.unwrap_or((train.len() / 1000).max(100));
    let uses = train.uses();
    let frozen: Vec<bool> = (0..weight::COUNT)
        .map(|i| uses[i] < min_uses.max(1) || i == weight::PIECE_VALUE)
        .collect();
    outln!(
        "tuning {} of {} weight pairs (the others are unused, used by fewer than {min_uses} \
         positions, or the king's value)",
        frozen.iter().filter(|&&f| !f).count(),
        (0..weight::COUNT)
            .filter(|&i| data::canonical(i) == i)
            .count()
    );
    let mut adam = optimizer::Adam::new(weight::COUNT, args.lr, frozen.clone());
    let bar = ProgressBar::new(args.epochs as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] epoch {pos}/{len}, {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let tuning = Instant::now();
    // Early stopping: the weights of the epoch with the lowest validation loss are kept.
    let mut best = (validation_before, 0, w.clone());
    for epoch in 1..=args.epochs {
        let (loss, mut grad) = loss_and_gradient(&train, &w, k, args.lambda, threads, true);
        if !loss.is_finite() {
            bar.finish_and_clear();
            return Err(format!(
                "the fit failed at epoch {epoch}: the loss is {loss} (try a lower --lr); nothing written"
            ));
        }
        optimizer::add_l2_gradient(&mut grad, &w, &start_weights, args.l2);
        adam.step(&mut w, &grad);
        // The data loss is what early stopping and the log compare; the pull is shown beside it.
        let penalty = optimizer::l2_penalty(&w, &start_weights, args.l2);
        let mut line = format!("epoch {epoch:>5}  loss {loss:.6}  l2 {penalty:.6}");
        if validation.is_empty() {
            best = (0.0, epoch, w.clone());
        } else {
            let held_out = loss_and_gradient(&validation, &w, k, args.lambda, threads, false).0;
            if held_out < best.0 {
                best = (held_out, epoch, w.clone());
            }
            line += &format!("  validation {held_out:.6}");
        }
        bar.set_message(line.clone());
        bar.inc(1);
        if bar.is_hidden() {
            // Not a terminal (a log file): the bar draws nothing, so print the line itself.
            outln!("{line}");
        } else {
            bar.println(line);
        }
    }
    bar.finish_and_clear();
    if !validation.is_empty() {
        outln!("kept epoch {} (lowest validation loss)", best.1);
    }
    let mut w = best.2;
    let secs = tuning.elapsed().as_secs_f64();
    outln!(
        "{} in {secs:.1} s: {:.3} s per epoch per million positions ({})",
        count(args.epochs as u64, "epoch"),
        secs / args.epochs.max(1) as f64 / (train.len() as f64 / 1e6),
        count(threads as u64, "thread")
    );

    recentre_tables(&mut w, &initial, &frozen, &uses);
    if !args.free_scale {
        // The search's margins are in centipawns: give the tuned evaluation the scale of the
        // old one by refitting K and folding the change into the weights.
        let refit = fit_k(&train, &w, args.lambda, threads);
        let factor = refit / k;
        for pair in &mut w {
            pair[0] *= factor;
            pair[1] *= factor;
        }
        outln!("K for the tuned weights {refit:.6}: weights scaled by {factor:.3} to keep K");
    }
    let tuned: IntWeights = w
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let pair = [p[0].round() as i32, p[1].round() as i32];
            // Mirrored entries were tuned as their left twin.
            let twin = data::canonical(i);
            if twin != i {
                [w[twin][0].round() as i32, w[twin][1].round() as i32]
            } else {
                pair
            }
        })
        .collect();
    if w.iter().flatten().any(|v| !v.is_finite()) {
        return Err("the fit failed: a weight is not a finite number; nothing written".into());
    }
    let rounded: Weights = tuned.iter().map(|p| [p[0] as f64, p[1] as f64]).collect();
    let (train_after, validation_after) = losses(&rounded);
    outln!(
        "loss after:  train {train_after:.6}, validation {validation_after:.6} (rounded weights)"
    );
    outln!(
        "change:      train {:+.6}, validation {:+.6}",
        train_after - train_before,
        validation_after - validation_before
    );
    print_largest_changes(&initial, &tuned);
    let Some(output) = output else {
        outln!("dry run: nothing written");
        return Ok(());
    };
    let text = params_writer::write(BUILT_PARAMS, &tuned)?;
    output.write(text.as_bytes())?;
    outln!(
        "wrote {}; run `cargo fmt` (a longer number may rewrap a line), rebuild and bench",
        args.output
    );
    Ok(())
}

fn load_with_progress(args: &TuneArgs, threads: usize) -> Result<(Dataset, Dataset), String> {
    let total: u64 = args
        .data
        .iter()
        .map(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        .sum();
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {bytes}/{total_bytes} read, ETA {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    let options = LoadOptions {
        threads,
        validation_every: args.validation_every,
        max_positions: args.max_positions,
    };
    let result = data::load(&args.data, &options, |bytes| bar.set_position(bytes));
    bar.finish_and_clear();
    result
}

/// A piece's value and its table entries are one degree of freedom too many: moving every
/// entry of a table up by c and the value down by c changes no evaluation. Put each table's
/// mean drift (over the entries tuned) back into the piece value, so the tables stay readable
/// as placement bonuses. Every entry the data used shifts, so a frozen entry's value + entry
/// stays as it was. The king's value stays 0: its drift cancels between sides.
fn recentre_tables(w: &mut Weights, initial: &IntWeights, frozen: &[bool], uses: &[usize]) {
    for kind in 0..7 {
        let base = weight::PST + kind * 90;
        let tuned: Vec<usize> = (base..base + 90).filter(|&i| !frozen[i]).collect();
        if tuned.is_empty() {
            continue;
        }
        for h in 0..2 {
            let drift = tuned
                .iter()
                .map(|&i| w[i][h] - initial[i][h] as f64)
                .sum::<f64>()
                / tuned.len() as f64;
            for i in (base..base + 90).filter(|&i| uses[i] > 0) {
                w[i][h] -= drift;
            }
            if kind != 0 {
                w[weight::PIECE_VALUE + kind][h] += drift;
            }
        }
    }
}

/// The weights that moved most, for the log.
fn print_largest_changes(initial: &IntWeights, tuned: &IntWeights) {
    let mut changes: Vec<(i32, usize, usize)> = Vec::new();
    for (i, (a, b)) in initial.iter().zip(tuned).enumerate() {
        if data::canonical(i) != i {
            continue;
        }
        for h in 0..2 {
            changes.push(((b[h] - a[h]).abs(), i, h));
        }
    }
    changes.sort_by(|x, y| y.cmp(x));
    let moved = changes.iter().filter(|c| c.0 != 0).count();
    outln!("{moved} weights changed; the largest:");
    for &(_, i, h) in changes.iter().take(12).filter(|c| c.0 != 0) {
        outln!(
            "  {:<28} {} {:>5} -> {:>5}",
            weight_name(i),
            ["mg", "eg"][h],
            initial[i][h],
            tuned[i][h]
        );
    }
}

/// A readable name of weight `i`.
pub fn weight_name(i: usize) -> String {
    const KINDS: [&str; 7] = [
        "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn",
    ];
    let mut base = 0;
    for &(name, pairs) in crate::eval::params::LINEAR_WEIGHTS {
        if (base..base + pairs).contains(&i) {
            return match pairs {
                1 => name.to_string(),
                _ => match KINDS.get(i - base) {
                    Some(kind) if pairs == 7 => format!("{name}[{kind}]"),
                    _ => format!("{name}[{}]", i - base),
                },
            };
        }
        base += pairs;
    }
    let entry = i - weight::PST;
    let (kind, e) = (entry / 90, entry % 90);
    let (file, rank) = (e % 9, 9 - e / 9);
    let file = (b'a' + file as u8) as char;
    format!("PST {} {file}{rank}", KINDS[kind])
}
