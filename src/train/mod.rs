//! `chariot train`: fits the network to datagen positions on the CPU. The first layer is
//! sparse (a position touches only its ~32 inputs' columns per view), so a plain loop over the
//! active columns beats any dense framework here; each thread takes a share of the batch into
//! its own gradient, the shares are summed, and Adam steps every parameter.
//!
//! Loss: squared error between sigmoid(k × network) and λ × result + (1 − λ) × sigmoid(k × score),
//! k fitted to the data first (score against result), so the network keeps the centipawn scale of
//! the scores it learns from.

mod checkpoint;
pub mod data;
pub mod model;

use crate::console::outln;
use crate::output_file::{Existing, OutputPath};
use crate::samples::Record;
use clap::Args;
use model::{FloatNet, Objective, Sample, Scratch, PARAMS};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    /// Training data (datagen text or binary; `.bin` is binary), read in order; `FILE:N` uses
    /// at most N of that file's positions (`2M`, `500k`), in whole games spread over the file.
    #[arg(long, required = true, num_args = 1.., value_name = "FILE[:N]", value_parser = data::parse_source)]
    pub data: Vec<data::Source>,
    /// Network file written (quantised) from the epoch with the lowest validation loss.
    #[arg(long, default_value = "chariot.nnue", value_name = "FILE")]
    pub output: PathBuf,
    /// Float checkpoint rewritten after every epoch (default: OUTPUT with `.ckpt`).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Continue from a checkpoint (its epoch count, weights and optimiser state). When it is
    /// this run's checkpoint, the run goes on in place: its checkpoint and network are
    /// rewritten without `--force`.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Replace an existing network or checkpoint.
    #[arg(long)]
    pub force: bool,
    /// Epochs to reach, counting a resumed run's (each a pass over the training positions).
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Adam's learning rate at the start.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// Multiply the learning rate by `--lr-gamma` after every this many epochs.
    #[arg(long, default_value_t = 8)]
    pub lr_step: usize,
    /// Factor applied to the learning rate every `--lr-step` epochs.
    #[arg(long, default_value_t = 0.3)]
    pub lr_gamma: f32,
    /// Weight of the game result in the target (the rest is the search score).
    #[arg(long, default_value_t = 0.3)]
    pub lambda: f32,
    /// k of sigmoid(k × centipawns); default: fitted to the data.
    #[arg(long)]
    pub k: Option<f32>,
    /// Every this-many-th block of 1024 consecutive positions (about ten games) is held out.
    #[arg(long, default_value_t = 20)]
    pub validation_every: usize,
    /// Threads sharing each batch, 1 to 256.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Seed of the first weights, the shuffles and the mirroring.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Train on the left-right mirror image of a random half of the positions each epoch.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub mirror: bool,
    /// Use only the first N positions of the data.
    #[arg(long)]
    pub limit: Option<usize>,
}

/// Runs the command.
pub fn run_train(args: &TrainArgs) -> Result<(), String> {
    if args.threads == 0 || args.threads > 256 {
        return Err(format!("--threads must be 1..=256, not {}", args.threads));
    }
    if args.batch == 0 || args.validation_every < 2 {
        return Err("--batch must be at least 1 and --validation-every at least 2".into());
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!(
            "--lambda must be within 0..=1, not {}",
            args.lambda
        ));
    }
    if args.epochs == 0 {
        return Err("--epochs must be at least 1".into());
    }
    for (flag, value) in [("--lr", args.lr), ("--lr-gamma", args.lr_gamma)] {
        if !(value > 0.0 && value.is_finite()) {
            return Err(format!("{flag} must be positive, not {value}"));
        }
    }
    if let Some(k) = args.k.filter(|k| !(*k > 0.0 && k.is_finite())) {
        return Err(format!("--k must be positive, not {k}"));
    }
    if args.limit == Some(0) {
        return Err("--limit must be at least 1".into());
    }
    let checkpoint_path = args
        .checkpoint
        .clone()
        .unwrap_or_else(|| args.output.with_extension("ckpt"));
    if checkpoint_path == args.output {
        return Err(format!(
            "--checkpoint and --output are the same file, {}",
            args.output.display()
        ));
    }
    // A run resumed from its own checkpoint rewrites its own files.
    let in_place = args
        .resume
        .as_ref()
        .is_some_and(|r| same_file(r, &checkpoint_path));
    let existing = Existing::replace_if(args.force || in_place);
    let output = OutputPath::check(&args.output, "--output", existing)?;
    let checkpoint_output = OutputPath::check(&checkpoint_path, "--checkpoint", existing)?;

    let start = Instant::now();
    let records = data::load(&args.data, args.limit)?;
    let (train, valid) = split(&records, args.validation_every);
    if train.is_empty() || valid.is_empty() {
        // The first block held out is the `every`-th of 1024.
        let needed = (args.validation_every - 1) * 1024 + 1;
        return Err(format!(
            "{} positions: too few for a training and a validation set (at least {needed} \
             with --validation-every {})",
            records.len(),
            args.validation_every
        ));
    }
    outln!(
        "data: {} positions ({} training, {} validation), {} bytes each in memory, read in {:.1}s",
        records.len(),
        train.len(),
        valid.len(),
        std::mem::size_of::<Record>(),
        start.elapsed().as_secs_f64()
    );

    // A run going on in place keeps its network unless an epoch beats that network's loss.
    let (mut net, mut optimiser, first_epoch, k, mut best) = match &args.resume {
        Some(path) => {
            let c = checkpoint::read(path)?;
            if c.epoch >= args.epochs {
                return Err(format!(
                    "{} is at epoch {}: --epochs {} leaves nothing to train",
                    path.display(),
                    c.epoch,
                    args.epochs
                ));
            }
            let kept = in_place && args.output.exists();
            let best = if kept { c.best } else { f64::INFINITY };
            outln!(
                "resumed {} after epoch {}{}",
                path.display(),
                c.epoch,
                if best.is_finite() {
                    format!(" ({} has held-out loss {best:.6})", args.output.display())
                } else {
                    String::new()
                }
            );
            (c.net, c.adam, c.epoch, c.k, best)
        }
        None => (
            FloatNet::random(args.seed),
            Adam::new(PARAMS),
            0,
            args.k.unwrap_or_else(|| fit_k(&records)),
            f64::INFINITY,
        ),
    };
    let objective = Objective {
        k,
        lambda: args.lambda,
    };
    outln!(
        "k = {k:.6} (sigmoid(k x cp)), lambda {}, hidden {}, {} buckets, {} threads, batch {}",
        args.lambda,
        crate::nnue::HIDDEN,
        crate::nnue::BUCKETS,
        args.threads,
        args.batch
    );

    let mut best_net = None;
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut grads: Vec<Vec<f32>> = (0..args.threads).map(|_| vec![0.0; PARAMS]).collect();
    for epoch in first_epoch + 1..=args.epochs {
        let began = Instant::now();
        let lr = args.lr
            * args
                .lr_gamma
                .powi(((epoch - 1) / args.lr_step.max(1)) as i32);
        let mut rng = fastrand::Rng::with_seed(args.seed.wrapping_mul(1_000_003) ^ epoch as u64);
        rng.shuffle(&mut order);
        let bar = progress_bar(train.len() as u64, epoch);
        let mut train_loss = 0.0f64;
        for batch in order.chunks(args.batch) {
            let mirror_seed = rng.u64(..);
            let share = batch.len().div_ceil(args.threads);
            let loss: f64 = std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(share)
                    .zip(grads.iter_mut())
                    .enumerate()
                    .map(|(t, (part, grad))| {
                        let net = &net;
                        let train = &train;
                        let mirror = args.mirror;
                        scope.spawn(move || {
                            grad.fill(0.0);
                            let mut scratch = Scratch::default();
                            let mut rng = fastrand::Rng::with_seed(mirror_seed ^ t as u64);
                            let mut loss = 0.0f64;
                            for &i in part {
                                let sample = Sample::new(&train[i as usize], mirror && rng.bool());
                                loss +=
                                    net.backward(&sample, &objective, &mut scratch, grad) as f64;
                            }
                            loss
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("trainer thread"))
                    .sum()
            });
            train_loss += loss;
            let parts = batch.len().div_ceil(share);
            let (first, rest) = grads.split_at_mut(1);
            for other in &rest[..parts - 1] {
                for (a, b) in first[0].iter_mut().zip(other.iter()) {
                    *a += b;
                }
            }
            optimiser.step(&mut net, &first[0], lr, batch.len());
            net.clip();
            bar.inc(batch.len() as u64);
        }
        bar.finish_and_clear();
        let train_loss = train_loss / train.len() as f64;
        let valid_loss = validation_loss(&net, &valid, &objective, args.threads);
        if !(train_loss.is_finite() && valid_loss.is_finite()) {
            return Err(format!(
                "training diverged at epoch {epoch} (loss {train_loss}, validation {valid_loss}): \
                 try a lower --lr; this epoch was not written"
            ));
        }
        let seconds = began.elapsed().as_secs_f64();
        let improved = valid_loss < best;
        outln!(
            "epoch {epoch:>3}/{}  train {train_loss:.6}  validation {valid_loss:.6}  lr {lr:.6}  {:.0} pos/s/thread  {seconds:.1}s{}",
            args.epochs,
            train.len() as f64 / seconds / args.threads as f64,
            if improved { "  best" } else { "" }
        );
        // The network before the checkpoint that records its loss: a run stopped between the
        // two redoes this epoch, and the same epoch writes the same network.
        if improved {
            best = valid_loss;
            let name = args.output.display().to_string();
            output.write(&net.quantise(&name).to_bytes())?;
            best_net = Some(net.clone());
        }
        checkpoint::write(&checkpoint_output, &net, &optimiser, epoch, k, best)?;
    }
    let Some(float) = &best_net else {
        if best.is_finite() {
            outln!(
                "no epoch beat the held-out loss of {} ({best:.6}), which is unchanged; checkpoint {}; {:.1}s in all",
                args.output.display(),
                checkpoint_path.display(),
                start.elapsed().as_secs_f64()
            );
            return Ok(());
        }
        return Err("no epoch gave a validation loss to keep; nothing written".into());
    };
    report_quantisation(float, &args.output, &valid)?;
    outln!(
        "wrote {} (best validation loss {best:.6}); checkpoint {}; {:.1}s in all",
        args.output.display(),
        checkpoint_path.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Whether two paths name one file (the second may not exist yet).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Training and validation sets: every `every`-th block of 1024 consecutive positions is held
/// out, so a game's positions mostly stay on one side.
fn split(records: &[Record], every: usize) -> (Vec<Record>, Vec<Record>) {
    let mut train = Vec::with_capacity(records.len());
    let mut valid = Vec::with_capacity(records.len() / every + 1);
    for (block, chunk) in records.chunks(1024).enumerate() {
        if block % every == every - 1 {
            valid.extend_from_slice(chunk);
        } else {
            train.extend_from_slice(chunk);
        }
    }
    (train, valid)
}

/// The k of sigmoid(k × score) that best predicts the game results (golden-section search on
/// the squared error, over at most a million positions).
pub fn fit_k(records: &[Record]) -> f32 {
    let step = (records.len() / 1_000_000).max(1);
    let error = |k: f64| -> f64 {
        records
            .iter()
            .step_by(step)
            .map(|r| {
                let p = 1.0 / (1.0 + (-k * r.score as f64).exp());
                let d = p - r.result_for_red() as f64;
                d * d
            })
            .sum()
    };
    let (mut lo, mut hi) = (1e-4f64, 0.05f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0) as f32
}

fn validation_loss(net: &FloatNet, valid: &[Record], objective: &Objective, threads: usize) -> f64 {
    let share = valid.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = valid
            .chunks(share)
            .map(|part| {
                scope.spawn(move || {
                    let mut scratch = Scratch::default();
                    part.iter()
                        .map(|r| net.loss(&Sample::new(r, false), objective, &mut scratch) as f64)
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("validation thread"))
            .sum::<f64>()
    }) / valid.len() as f64
}

/// Prints how far the written integer network is from the float one on held-out positions.
fn report_quantisation(
    float: &FloatNet,
    path: &std::path::Path,
    valid: &[Record],
) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let net = crate::nnue::Network::from_bytes(&bytes, "trained").map_err(|e| e.0)?;
    let mut scratch = Scratch::default();
    let (mut worst, mut total, mut size) = (0f32, 0f64, 0f64);
    let n = valid.len().min(20_000);
    for r in &valid[..n] {
        let pos = r.position()?;
        let acc = crate::nnue::Accumulators::new(&net, &pos);
        let int = acc.evaluate(&net, pos.side_to_move(), pos.occupied().count()) as f32;
        let want = float.evaluate(&Sample::new(r, false), &mut scratch);
        worst = worst.max((int - want).abs());
        total += (int - want).abs() as f64;
        size += want.abs() as f64;
    }
    outln!(
        "quantised against float on {n} held-out positions: mean |difference| {:.2} cp, largest {worst:.1} cp (mean |score| {:.0} cp)",
        total / n.max(1) as f64,
        size / n.max(1) as f64
    );
    Ok(())
}

fn progress_bar(total: u64, epoch: usize) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "epoch {epoch} [{{bar:40}}] {{pos}}/{{len}} {{per_sec}} eta {{eta}}"
        ))
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar
}

/// Adam over the flat parameter vector.
pub struct Adam {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub t: u64,
}

impl Adam {
    pub fn new(size: usize) -> Adam {
        Adam {
            m: vec![0.0; size],
            v: vec![0.0; size],
            t: 0,
        }
    }

    /// One step against the summed gradient of `count` positions.
    pub fn step(&mut self, net: &mut FloatNet, grad: &[f32], lr: f32, count: usize) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t.min(1 << 20) as i32);
        let c2 = 1.0 - B2.powi(self.t.min(1 << 20) as i32);
        let scale = 1.0 / count as f32;
        for (((w, &g), m), v) in net.0.iter_mut().zip(grad).zip(&mut self.m).zip(&mut self.v) {
            let g = g * scale;
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}
