//! `chariot spsa run`: its settings and the tuning loop. Each iteration draws a probe, plays
//! its game pairs between θ+ and θ− through the match runner's engines and games
//! (`round.rs`), steps θ by θ+'s wins less its losses, saves the checkpoint and prints a
//! progress line (`report.rs`).

use super::report::{final_report, progress};
use super::round::{play_round, Round, Slot, Stop, HANG_TIMEOUT};
use super::schedule::{self, Probe, Schedule};
use super::state::State;
use super::tunables::{self, SpsaParam};
use crate::console::{count, outln};
use crate::matchrun::engine::{EngineConfig, EngineProcess};
use crate::matchrun::game::{GameSettings, Termination};
use crate::matchrun::timecontrol::LimitArgs;
use crate::notation::openings::{self, Opening, OpeningsSpec, Order};
use crate::search::params::TUNABLES;
use crate::Color;
use clap::Parser;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

const PAIRS: u64 = 1;
const A_RATIO: f64 = 0.1;
const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

#[derive(Parser, Debug, Clone)]
#[command(name = "chariot spsa run")]
pub struct RunArgs {
    /// The engine tuned: cmd=PATH [arg=A]... [dir=D] [proto=uci|uci-variant|ucci]
    /// [option.NAME=VALUE]... [tc=..] [st=..] [depth=..] [nodes=..]. It must offer every tuned
    /// parameter as a spin option, as chariot built with `--features spsa` does.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", required_unless_present = "resume")]
    pub engine: Option<Vec<String>>,
    /// Iterations; each plays --pairs game pairs, then moves the parameters.
    #[arg(long, required_unless_present = "resume")]
    pub iterations: Option<u64>,
    /// Game pairs (one opening, colours swapped) per iteration [default: 1].
    #[arg(long)]
    pub pairs: Option<u64>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Games played at once (at most two a pair of the iteration).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Opening suite: FILE [format=fen|epd|pgn] [plies=N] (default: the built-in copy of
    /// data/openings.fen). Each pair's opening is drawn at random from it.
    #[arg(long, num_args = 1.., value_name = "FILE [KEY=VALUE]")]
    pub openings: Option<Vec<String>>,
    /// The parameters as tuner lines (`chariot spsa params` prints them; OpenBench's or
    /// fishtest's form) [default: the search's own table].
    #[arg(long, value_name = "FILE")]
    pub params: Option<String>,
    /// Tune only these parameters (comma-separated names) [default: all].
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub tune: Vec<String>,
    /// Learning rate at the last iteration for every parameter (r_end) [default: each
    /// parameter's, 0.002 in the search's table].
    #[arg(long)]
    pub lr: Option<f64>,
    /// A, the gain's offset, as a share of the iterations [default: 0.1].
    #[arg(long)]
    pub a_ratio: Option<f64>,
    /// Exponent of the gain's decay [default: 0.602].
    #[arg(long)]
    pub alpha: Option<f64>,
    /// Exponent of the perturbation's decay [default: 0.101].
    #[arg(long)]
    pub gamma: Option<f64>,
    /// Seed of the perturbations, roundings and openings [default: from the clock].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Plies without capture that draw a game [default: 120].
    #[arg(long, value_name = "N")]
    pub draw_plies: Option<u16>,
    /// Draw a game still going after N moves per side.
    #[arg(long, value_name = "N")]
    pub max_moves: Option<u32>,
    /// The checkpoint, rewritten after every iteration (a new run refuses an existing file).
    #[arg(long, value_name = "FILE", required_unless_present = "resume")]
    pub state: Option<String>,
    /// Go on with the run this checkpoint holds, with its settings (only --concurrency may
    /// change). A finished run prints its result again.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "engine", "iterations", "pairs", "nodes", "tc", "st", "depth", "openings", "params",
        "tune", "lr", "a_ratio", "alpha", "gamma", "seed", "draw_plies", "max_moves", "state",
    ])]
    pub resume: Option<String>,
}

/// What the games depend on, read from the arguments.
struct Settings {
    /// θ+ and θ−: the engine under two names.
    engines: [EngineConfig; 2],
    schedule: Schedule,
    pairs: u64,
    openings: Vec<Opening>,
    game: GameSettings,
}

impl Settings {
    fn new(args: &RunArgs) -> Result<Settings, String> {
        let words = args.engine.as_deref().unwrap_or_default();
        let mut engine = EngineConfig::parse(words)?;
        engine.limits = engine.limits.or(args.limits.limits()?);
        engine.limits.check()?;
        let spec = match &args.openings {
            Some(words) => OpeningsSpec::parse(words)?,
            None => OpeningsSpec::default(),
        };
        if spec.order != Order::Sequential || spec.seed.is_some() {
            return Err(
                "--openings: order= and seed= do not apply: each pair's opening is \
                        drawn at random with --seed"
                    .into(),
            );
        }
        let schedule = Schedule {
            iterations: args.iterations.unwrap_or(0),
            a_ratio: args.a_ratio.unwrap_or(A_RATIO),
            alpha: args.alpha.unwrap_or(ALPHA),
            gamma: args.gamma.unwrap_or(GAMMA),
        };
        let pairs = args.pairs.unwrap_or(PAIRS);
        if schedule.iterations == 0 || pairs == 0 || args.concurrency == 0 {
            return Err("--iterations, --pairs and --concurrency must be positive".into());
        }
        for (name, value) in [
            ("a-ratio", schedule.a_ratio),
            ("alpha", schedule.alpha),
            ("gamma", schedule.gamma),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(format!("--{name} must be a number, 0 or more"));
            }
        }
        if args.draw_plies == Some(0) || args.max_moves == Some(0) {
            return Err("--draw-plies and --max-moves must be positive".into());
        }
        let game = GameSettings {
            draw_plies: args.draw_plies.unwrap_or(crate::rules::RULE60_PLIES),
            max_moves: args.max_moves,
            ..GameSettings::new(None, HANG_TIMEOUT)
        };
        let named = |suffix: &str| EngineConfig {
            name: format!("{}{suffix}", engine.name),
            ..engine.clone()
        };
        Ok(Settings {
            engines: [named("+"), named("-")],
            schedule,
            pairs,
            openings: openings::load(&spec)?.0,
            game,
        })
    }
}

/// The settings of a new run as words for its checkpoint, with every default written out so
/// that a later version's defaults cannot change a resumed run.
fn settings_words(args: &RunArgs, settings: &Settings) -> Result<Vec<String>, String> {
    let mut words = vec!["--engine".to_string()];
    words.extend(args.engine.iter().flatten().cloned());
    let mut add = |flag: &str, value: Option<String>| {
        if let Some(value) = value {
            words.extend([format!("--{flag}"), value]);
        }
    };
    let schedule = settings.schedule;
    add("iterations", Some(schedule.iterations.to_string()));
    add("pairs", Some(settings.pairs.to_string()));
    add("a-ratio", Some(schedule.a_ratio.to_string()));
    add("alpha", Some(schedule.alpha.to_string()));
    add("gamma", Some(schedule.gamma.to_string()));
    let limits = &args.limits;
    add("nodes", limits.nodes.map(|n| n.to_string()));
    add("tc", limits.tc.clone());
    add("st", limits.st.clone());
    add("depth", limits.depth.map(|d| d.to_string()));
    add("draw-plies", args.draw_plies.map(|n| n.to_string()));
    add("max-moves", args.max_moves.map(|n| n.to_string()));
    if let Some(openings) = &args.openings {
        words.push("--openings".into());
        words.extend(openings.iter().cloned());
    }
    if let Some(word) = words.iter().find(|w| w.contains('\n')) {
        return Err(format!("an argument holds a line break: {word:?}"));
    }
    Ok(words)
}

/// A new run's checkpoint: the parameters at their start and the settings as words.
fn new_state(args: &RunArgs, settings: &Settings) -> Result<State, String> {
    let params = match &args.params {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read --params {path}: {e}"))?;
            tunables::parse_lines(&text, path)?
        }
        None => tunables::from_table(TUNABLES),
    };
    let mut params = tunables::select(params, &args.tune)?;
    if let Some(lr) = args.lr {
        if !(lr.is_finite() && lr >= 0.0) {
            return Err("--lr must be a number, 0 or more".into());
        }
        params.iter_mut().for_each(|p| p.r_end = lr);
    }
    let seed = args.seed.unwrap_or_else(|| fastrand::u64(..));
    Ok(State {
        args: settings_words(args, settings)?,
        seed,
        rng: seed,
        iteration: 0,
        wins: 0,
        draws: 0,
        losses: 0,
        seconds: 0.0,
        theta: params.iter().map(|p| p.start).collect(),
        params,
    })
}

/// Starts the engine once: it must offer every parameter, none of which may also be fixed
/// with `option.NAME=`.
fn check_engine(settings: &Settings, params: &[SpsaParam]) -> Result<(), String> {
    let config = &settings.engines[0];
    if let Some((name, _)) = config
        .options
        .iter()
        .find(|(name, _)| params.iter().any(|p| p.name.eq_ignore_ascii_case(name)))
    {
        return Err(format!(
            "option.{name}= fixes a parameter the run tunes (leave it out, or --tune the others)"
        ));
    }
    let engine = EngineProcess::start(config, HANG_TIMEOUT, &AtomicBool::new(false))?;
    let offered = tunables::check_offered(params, &engine.offered, &config.cmd);
    engine.quit();
    offered
}

pub fn run(args: &RunArgs) -> Result<(), String> {
    // ---- the run: a new one, or the one a checkpoint holds ------------------------------
    let (path, mut state, settings) = match &args.resume {
        Some(path) => {
            let state = State::load(path)?;
            let mut words = vec!["chariot spsa run".to_string()];
            words.extend(state.args.iter().cloned());
            words.extend(["--state".to_string(), path.clone()]);
            let mut stored = RunArgs::try_parse_from(words)
                .map_err(|e| format!("{path}: the settings do not read: {e}"))?;
            stored.concurrency = args.concurrency;
            let settings = Settings::new(&stored)?;
            (path, state, settings)
        }
        None => {
            let path = args.state.as_ref().expect("clap requires --state");
            if std::path::Path::new(path).exists() {
                return Err(format!(
                    "{path} exists: `--resume {path}` goes on with its run, or remove it"
                ));
            }
            let settings = Settings::new(args)?;
            (path, new_state(args, &settings)?, settings)
        }
    };
    check_engine(&settings, &state.params)?;
    state.save(path)?;
    let schedule = settings.schedule;
    outln!(
        "SPSA: {} of {} at {}, {} of {} over {}; seed {}; checkpoint {path}",
        count(state.params.len() as u64, "parameter"),
        settings.engines[0].cmd,
        settings.engines[0].limits.describe(),
        count(schedule.iterations, "iteration"),
        count(settings.pairs, "game pair"),
        count(settings.openings.len() as u64, "opening"),
        state.seed,
    );
    if state.iteration > 0 && state.iteration < schedule.iterations {
        outln!("Resumed after iteration {}.", state.iteration);
    }

    // ---- iterations ---------------------------------------------------------------------
    let interrupt = Arc::new(AtomicBool::new(false));
    {
        let interrupt = Arc::clone(&interrupt);
        // A second handler cannot be installed in the same process; the first stays.
        let _ = ctrlc::set_handler(move || {
            if interrupt.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("\ninterrupted: stopping the engines (Ctrl-C again to quit at once)");
        });
    }
    let workers = args.concurrency.min(2 * settings.pairs as usize).max(1);
    let mut slots: Vec<Slot> = (0..workers).map(|_| [None, None]).collect();
    let mut rng = fastrand::Rng::with_seed(state.rng);
    let session = Instant::now();
    let first = state.iteration;
    let mut stopped = None;
    for k in state.iteration + 1..=schedule.iterations {
        let started = Instant::now();
        let probe = schedule::probe(&schedule, &state.params, &state.theta, k, &mut rng);
        let Probe { signs, plus, minus } = probe;
        let options = |values: &[i32]| -> Vec<(String, String)> {
            state
                .params
                .iter()
                .zip(values)
                .map(|(p, v)| (p.name.clone(), v.to_string()))
                .collect()
        };
        let round = Round {
            engines: &settings.engines,
            game: &settings.game,
            options: [options(&plus), options(&minus)],
            openings: (0..settings.pairs)
                .map(|_| &settings.openings[rng.usize(..settings.openings.len())])
                .collect(),
        };
        let records = match play_round(&mut slots, &round, &interrupt) {
            Ok(records) => records,
            Err(stop) => {
                stopped = Some(stop);
                break;
            }
        };
        let mut result = 0i64;
        for (index, record) in records.iter().enumerate() {
            let plus_color = if index % 2 == 1 {
                Color::Black
            } else {
                Color::Red
            };
            let points = match record.winner {
                None => 0,
                Some(c) if c == plus_color => 1,
                Some(_) => -1,
            };
            result += points;
            match points {
                1 => state.wins += 1,
                0 => state.draws += 1,
                _ => state.losses += 1,
            }
            if !matches!(
                record.termination,
                Termination::Normal | Termination::Adjudication
            ) {
                outln!("  iteration {k}, game {}: {}", index + 1, record.reason);
            }
        }
        schedule::step(
            &schedule,
            &state.params,
            &mut state.theta,
            k,
            &signs,
            result,
        );
        state.iteration = k;
        state.rng = rng.get_seed();
        state.seconds += started.elapsed().as_secs_f64();
        state.save(path)?;
        let per_iteration = session.elapsed().as_secs_f64() / (k - first) as f64;
        outln!(
            "{}",
            progress(&state, schedule.iterations, result, per_iteration)
        );
    }
    for engine in slots.into_iter().flatten().flatten() {
        engine.quit();
    }
    match stopped {
        None => {
            final_report(&state);
            Ok(())
        }
        Some(stop) => {
            let why = match stop {
                Stop::Interrupted => "interrupted".to_string(),
                Stop::Failed(e) => e,
            };
            Err(format!(
                "{why}; the run stopped after iteration {} of {}, saved in {path} \
                 (`chariot spsa run --resume {path}` goes on)",
                state.iteration, schedule.iterations
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_runs_settings_parse_back_with_every_default_written() {
        let args = RunArgs::try_parse_from([
            "run",
            "--engine",
            "cmd=chariot",
            "arg=x",
            "--iterations",
            "50",
            "--nodes",
            "1000",
            "--state",
            "s",
        ])
        .unwrap();
        let settings = Settings::new(&args).unwrap();
        let words = settings_words(&args, &settings).unwrap();
        let mut again = vec!["run".to_string()];
        again.extend(words);
        again.extend(["--state".into(), "s".into()]);
        let back = RunArgs::try_parse_from(again).unwrap();
        assert_eq!(back.engine, args.engine);
        assert_eq!(back.pairs, Some(PAIRS));
        assert_eq!(back.gamma, Some(GAMMA));
        assert_eq!(Settings::new(&back).unwrap().schedule, settings.schedule);
    }

    #[test]
    fn resume_takes_no_other_settings() {
        let both = RunArgs::try_parse_from(["run", "--resume", "s", "--iterations", "9"]);
        assert!(both.is_err());
        let alone = RunArgs::try_parse_from(["run", "--resume", "s", "--concurrency", "2"]);
        assert!(alone.is_ok());
    }
}
