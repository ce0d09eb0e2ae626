//! `chariot datagen`: self-play games with the engine's own search at a fixed node limit,
//! written one quiet position a line with the search score and the game result, for
//! `chariot tune`. Games are independent and seeded, so a run is reproducible.
//!
//! Line format: `FEN | SCORE | RESULT`, where SCORE is the search score in centipawns from
//! Red's point of view and RESULT the game's result for Red (`1.0`, `0.5` or `0.0`).

mod game;

use crate::matchrun::openings;
use clap::Args;
pub use game::{play_game, GameRecord, Settings};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs::OpenOptions;
use std::io::{BufWriter, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Default node limit per move: deep enough for sensible play, fast enough for millions of
/// positions.
pub const DEFAULT_NODES: u64 = 5000;

#[derive(Args, Debug, Clone)]
pub struct DatagenArgs {
    /// Output file (one position a line: `FEN | score for Red | result for Red`).
    #[arg(long, value_name = "FILE")]
    pub output: String,
    /// Add to an existing file instead of refusing to overwrite it.
    #[arg(long)]
    pub append: bool,
    /// Stop after this many games (default: no limit; Ctrl-C stops).
    #[arg(long)]
    pub games: Option<u64>,
    /// Stop once this many positions are written.
    #[arg(long)]
    pub positions: Option<u64>,
    /// Nodes searched per move.
    #[arg(long, default_value_t = DEFAULT_NODES)]
    pub nodes: u64,
    /// Search each move to this depth instead of a node limit.
    #[arg(long, conflicts_with = "nodes")]
    pub depth: Option<i32>,
    /// Games played at once, one per thread.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Opening file (FEN [moves ...] a line); default: the built-in match openings.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Random legal plies played after the opening, so games differ.
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Seed of game 0 (game i uses a seed derived from this and i). Default 1, or with
    /// `--append` the current size of the file, so a continued run plays new games.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Transposition table per thread, MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

/// Runs the command.
pub fn run_datagen(args: &DatagenArgs) -> Result<(), String> {
    if args.threads == 0 || args.threads > 256 {
        return Err(format!("--threads must be 1..=256, not {}", args.threads));
    }
    if args.nodes == 0 {
        return Err("--nodes must be at least 1".into());
    }
    if let Some(d) = args.depth {
        if !(1..=64).contains(&d) {
            return Err(format!("--depth must be 1..=64, not {d}"));
        }
    }
    if !(1..=4096).contains(&args.hash) {
        return Err(format!("--hash must be 1..=4096 MB, not {}", args.hash));
    }
    let spec = match args.openings.as_deref() {
        None => openings::OpeningsSpec::default(),
        Some(path) => openings::OpeningsSpec::parse(&[path.to_string()])?,
    };
    let (suite, _) = openings::load(&spec)?;
    let path = std::path::Path::new(&args.output);
    let existing = std::fs::metadata(path).map(|m| m.len()).ok();
    if existing.is_some_and(|len| len > 0) && !args.append {
        return Err(format!(
            "{} exists; give --append to add to it",
            args.output
        ));
    }
    let seed = args.seed.unwrap_or_else(|| {
        if args.append {
            existing.unwrap_or(0) + 1
        } else {
            1
        }
    });
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", args.output))?;
    let settings = Settings {
        nodes: args.nodes,
        depth: args.depth,
        random_plies: args.random_plies,
        seed,
        hash_mb: args.hash,
        ..Settings::default()
    };

    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // A second handler (another command in the same process) is not possible; ignore.
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst));
    }
    eprintln!(
        "datagen: {} threads, {} per move, {} random plies, seed {seed}, writing to {}",
        args.threads,
        match args.depth {
            Some(d) => format!("depth {d}"),
            None => format!("{} nodes", args.nodes),
        },
        args.random_plies,
        args.output
    );
    let progress = Progress::new(args.games, args.positions);
    let writer = Mutex::new(BufWriter::new(file));
    let next_game = AtomicU64::new(0);
    let start = Instant::now();

    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| -> Result<(), String> {
                let mut tt = crate::search::tt::TranspositionTable::new(settings.hash_mb);
                loop {
                    if stop.load(Ordering::SeqCst) {
                        return Ok(());
                    }
                    let index = next_game.fetch_add(1, Ordering::SeqCst);
                    if args.games.is_some_and(|n| index >= n) {
                        return Ok(());
                    }
                    let Some(game) = play_game(&settings, &suite, index, &mut tt, &stop) else {
                        return Ok(()); // interrupted: the unfinished game is dropped
                    };
                    let text = game.to_lines();
                    {
                        let mut out = writer.lock().map_err(|_| "writer poisoned")?;
                        out.write_all(text.as_bytes())
                            .and_then(|()| out.flush())
                            .map_err(|e| format!("cannot write {}: {e}", args.output))?;
                    }
                    let total = progress.game_done(game.positions.len() as u64);
                    if args.positions.is_some_and(|n| total >= n) {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            });
        }
    });
    progress.finish(start.elapsed());
    Ok(())
}

/// Games and positions written, shown as a bar (or, when stderr is not a terminal, a line
/// a minute, for logs).
struct Progress {
    bar: ProgressBar,
    games: AtomicU64,
    positions: AtomicU64,
    by_games: bool,
    start: Instant,
    last_line: Mutex<Instant>,
    plain: bool,
    target_games: Option<u64>,
    target_positions: Option<u64>,
}

impl Progress {
    fn new(games: Option<u64>, positions: Option<u64>) -> Progress {
        let plain = !std::io::stderr().is_terminal();
        let (bar, by_games) = match (positions, games) {
            (Some(n), _) => (ProgressBar::new(n), false),
            (None, Some(n)) => (ProgressBar::new(n), true),
            (None, None) => (ProgressBar::no_length(), false),
        };
        let template = if by_games {
            "{elapsed_precise} [{bar:30}] {pos}/{len} games, {msg}, ETA {eta}"
        } else if positions.is_some() {
            "{elapsed_precise} [{bar:30}] {pos}/{len} positions, {msg}, ETA {eta}"
        } else {
            "{elapsed_precise} {pos} positions, {msg}"
        };
        bar.set_style(
            ProgressStyle::with_template(template)
                .expect("valid template")
                .progress_chars("=> "),
        );
        if plain {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        Progress {
            bar,
            games: AtomicU64::new(0),
            positions: AtomicU64::new(0),
            by_games,
            start: Instant::now(),
            last_line: Mutex::new(Instant::now()),
            plain,
            target_games: games,
            target_positions: positions,
        }
    }

    /// Counts a finished game; returns the positions written so far.
    fn game_done(&self, positions: u64) -> u64 {
        let games = self.games.fetch_add(1, Ordering::SeqCst) + 1;
        let total = self.positions.fetch_add(positions, Ordering::SeqCst) + positions;
        let rate = total as f64 / self.start.elapsed().as_secs_f64().max(1e-3);
        if self.by_games {
            self.bar.set_position(games);
            self.bar
                .set_message(format!("{total} positions, {rate:.0} pos/s"));
        } else {
            self.bar.set_position(total);
            self.bar
                .set_message(format!("{games} games, {rate:.0} pos/s"));
        }
        if self.plain {
            let mut last = self.last_line.lock().unwrap_or_else(|e| e.into_inner());
            if last.elapsed() >= Duration::from_secs(60) {
                *last = Instant::now();
                eprintln!("{}", self.status_line(games, total, rate));
            }
        }
        total
    }

    fn status_line(&self, games: u64, total: u64, rate: f64) -> String {
        let eta = match (self.target_positions, self.target_games) {
            (Some(n), _) if rate > 0.0 => {
                format!(", ETA {:.0} s", n.saturating_sub(total) as f64 / rate)
            }
            (None, Some(n)) if games > 0 => {
                let per_game = self.start.elapsed().as_secs_f64() / games as f64;
                format!(", ETA {:.0} s", n.saturating_sub(games) as f64 * per_game)
            }
            _ => String::new(),
        };
        format!(
            "{:.0} s: {games} games, {total} positions, {rate:.0} pos/s{eta}",
            self.start.elapsed().as_secs_f64()
        )
    }

    fn finish(&self, elapsed: Duration) {
        self.bar.finish_and_clear();
        let games = self.games.load(Ordering::SeqCst);
        let total = self.positions.load(Ordering::SeqCst);
        let secs = elapsed.as_secs_f64().max(1e-3);
        eprintln!(
            "datagen: {games} games, {total} positions in {secs:.1} s ({:.1} positions/s)",
            total as f64 / secs
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(output: &str) -> DatagenArgs {
        DatagenArgs {
            output: output.to_string(),
            append: false,
            games: Some(3),
            positions: None,
            nodes: 200,
            depth: None,
            threads: 2,
            openings: None,
            random_plies: 8,
            seed: None,
            hash: 1,
        }
    }

    #[test]
    fn writes_games_refuses_to_overwrite_and_appends() {
        let dir = std::env::temp_dir().join(format!("chariot-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.txt");
        let _ = std::fs::remove_file(&path);
        let output = path.to_str().unwrap();
        run_datagen(&args(output)).unwrap();
        let first = std::fs::read_to_string(&path).unwrap();
        assert!(first.lines().count() > 0);
        assert!(first
            .lines()
            .all(|l| crate::tune::data::parse_line(l).is_ok()));
        let refused = run_datagen(&args(output)).unwrap_err();
        assert!(refused.contains("--append"), "{refused}");
        let again = DatagenArgs {
            append: true,
            ..args(output)
        };
        run_datagen(&again).unwrap();
        let both = std::fs::read_to_string(&path).unwrap();
        assert!(both.starts_with(&first));
        assert!(both.len() > first.len());
        assert_ne!(
            &both[first.len()..],
            first,
            "an appended run plays new games"
        );
        let bad = DatagenArgs {
            threads: 0,
            ..args(output)
        };
        assert!(run_datagen(&bad).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
