//! `chariot datagen`: self-play games with the engine's own search at a fixed node limit,
//! written as quiet positions with the search score and the game result, in either format of
//! `crate::samples` (text lines `FEN | SCORE | RESULT` or 40-byte records), for `chariot tune`
//! and network training. Game `i` depends only on the seed and `i`, so a run is reproducible
//! and can be split into shards that together play the same games.

mod game;
pub mod manifest;

use crate::console::{count, count_irregular, errln};
use crate::notation::openings;
use crate::output_file::{Existing, OutputPath};
use crate::samples::{self, Format, Record, RECORD_BYTES};
use crate::search::MAX_THREADS;
use clap::Args;
pub use game::{play_game, GameRecord, Settings};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Default node limit per move. Of 1,250, 2,500 and 5,000 nodes for the same CPU time, the
/// networks trained on 1,250's games (four times as many positions) played best (DEVELOPING,
/// "The node budget").
pub const DEFAULT_NODES: u64 = 1250;

/// One part of a run split over several processes: `I/N` plays the games `g` with
/// `g % N == I - 1` (I counts from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1..=count.
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole run as one shard.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// The run's game number of this shard's `n`-th game (both from 0).
    pub fn game(self, n: u64) -> u64 {
        n.saturating_mul(self.count).saturating_add(self.index - 1)
    }

    /// How many of a run's first `games` games are this shard's.
    pub fn share(self, games: u64) -> u64 {
        games.saturating_sub(self.index - 1).div_ceil(self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("expected I/N with 1 <= I <= N (e.g. 2/8), not {text:?}");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = index.trim().parse().map_err(|_| bad())?;
        let count: u64 = count.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[derive(Args, Debug, Clone)]
pub struct DatagenArgs {
    /// Output file: text lines `FEN | score for Red | result for Red`, or 40-byte records
    /// (see `--format`).
    #[arg(long, value_name = "FILE")]
    pub output: String,
    /// Output format (default: binary for a `.bin` file, text otherwise).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Add to an existing file of the same format (checked first) instead of refusing it.
    #[arg(long, conflicts_with = "force")]
    pub append: bool,
    /// Replace an existing file.
    #[arg(long)]
    pub force: bool,
    /// Put the games played so far into the output every this many seconds (a copy of the
    /// file is made each time): a run that is killed loses only the games since.
    #[arg(long, default_value_t = 300, value_name = "SECONDS")]
    pub save_every: u64,
    /// Stop after this many games of the whole run (default: no limit; Ctrl-C stops). With
    /// `--shard`, the shard plays its share of them.
    #[arg(long)]
    pub games: Option<u64>,
    /// Stop once this many positions are written (by this process).
    #[arg(long)]
    pub positions: Option<u64>,
    /// Play only shard I of N (`--shard 2/8`, I from 1): the games g with g % N == I-1,
    /// seeded as in the whole run, so the N shards' files together hold the run's games.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
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
    /// Play with the classical evaluation, not the default network.
    #[arg(long, conflicts_with = "eval_file")]
    pub classical: bool,
    /// Play with this network (a later generation's data from a network's own games).
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<String>,
}

/// Runs the command.
pub fn run_datagen(args: &DatagenArgs) -> Result<(), String> {
    if !(1..=MAX_THREADS).contains(&args.threads) {
        return Err(format!(
            "--threads must be 1..={MAX_THREADS}, not {}",
            args.threads
        ));
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
    for (flag, value) in [("--games", args.games), ("--positions", args.positions)] {
        if value == Some(0) {
            return Err(format!("{flag} must be at least 1"));
        }
    }
    if args.save_every == 0 {
        return Err("--save-every must be at least 1 second".into());
    }
    let path = Path::new(&args.output);
    let format = args.format.unwrap_or_else(|| Format::of_path(path));
    let existing = std::fs::metadata(path)
        .ok()
        .filter(|m| m.is_file() && m.len() > 0)
        .map(|m| m.len());
    if existing.is_some() && !args.append && !args.force {
        return Err(format!(
            "--output {} exists; give --append to add to it or --force to replace it",
            args.output
        ));
    }
    let mode = if args.append {
        Existing::Append
    } else {
        Existing::replace_if(args.force)
    };
    let output = OutputPath::check(path, "--output", mode)?;
    if args.append && existing.is_some() {
        check_format(path, format)?;
    }
    let spec = match args.openings.as_deref() {
        None => openings::OpeningsSpec::default(),
        Some(path) => openings::OpeningsSpec::parse(&[path.to_string()])?,
    };
    let (suite, _) = openings::load(&spec)?;
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let seed = args.seed.unwrap_or_else(|| {
        if args.append {
            existing.unwrap_or(0) + 1
        } else {
            1
        }
    });
    let settings = Settings {
        nodes: args.nodes,
        depth: args.depth,
        random_plies: args.random_plies,
        seed,
        hash_mb: args.hash,
        network: match (&args.eval_file, args.classical) {
            (Some(path), _) => Some(Arc::new(crate::nnue::Network::load(path).map_err(|e| e.0)?)),
            (None, true) => None,
            (None, false) => crate::nnue::default_network(),
        },
        ..Settings::default()
    };

    let adds_to_the_file = args.append && existing.is_some();
    manifest::record_run(
        path,
        &manifest::RunInfo {
            offset: if adds_to_the_file {
                existing.unwrap_or(0)
            } else {
                0
            },
            format: match format {
                Format::Text => "text",
                Format::Binary => "binary",
            },
            network: settings.network.as_deref(),
            nodes: Some(args.nodes),
            depth: args.depth,
            random_plies: args.random_plies,
            seed,
            threads: args.threads,
            shard: args.shard,
        },
        adds_to_the_file,
    )?;

    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // A second handler (another command in the same process) is not possible; ignore.
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst));
    }
    errln!(
        "datagen: {}, {} per move, {}, seed {seed}{}, {}, writing {} to {}",
        count(args.threads as u64, "thread"),
        match args.depth {
            Some(d) => format!("depth {d}"),
            None => count(args.nodes, "node"),
        },
        count_irregular(args.random_plies as u64, "random ply", "random plies"),
        match args.shard {
            Some(shard) => format!(", shard {shard}"),
            None => String::new(),
        },
        match &settings.network {
            Some(net) => format!("network {}", net.name),
            None => "classical evaluation".to_string(),
        },
        match format {
            Format::Text => "text",
            Format::Binary => "binary records",
        },
        args.output
    );
    let progress = Progress::new(args.games.map(|g| shard.share(g)), args.positions);
    // Nothing is at the output until it is whole: the games go to a file beside it, put in
    // place now and then and at the end (a copy of the old file first, with --append).
    let writer = Mutex::new((output.create()?, Instant::now()));
    let save_every = Duration::from_secs(args.save_every);
    let next_game = AtomicU64::new(0);
    let start = Instant::now();

    let play = || -> Result<(), String> {
        let mut tt = crate::search::tt::TranspositionTable::new(settings.hash_mb);
        let mut bytes = Vec::new();
        loop {
            if stop.load(Ordering::SeqCst) {
                return Ok(());
            }
            // The shard's n-th game is game `shard.game(n)` of the whole run, with that
            // game's seed.
            let index = shard.game(next_game.fetch_add(1, Ordering::SeqCst));
            if args.games.is_some_and(|n| index >= n) {
                return Ok(());
            }
            let Some(game) = play_game(&settings, &suite, index, &mut tt, &stop) else {
                return Ok(()); // interrupted: the unfinished game is dropped
            };
            // A game is written whole in one locked write, so its positions stay together
            // and in the order they were played.
            bytes.clear();
            game.encode(format, &mut bytes);
            {
                let mut guard = writer.lock().map_err(|_| "writer poisoned")?;
                let (out, saved) = &mut *guard;
                out.write_all(&bytes)
                    .map_err(|e| format!("cannot write {}: {e}", args.output))?;
                if saved.elapsed() >= save_every {
                    out.checkpoint()?;
                    *saved = Instant::now();
                }
            }
            let total = progress.game_done(game.positions.len() as u64);
            if args.positions.is_some_and(|n| total >= n) {
                stop.store(true, Ordering::SeqCst);
            }
        }
    };
    let outcome = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..args.threads)
            .map(|_| {
                scope.spawn(|| {
                    // A failed write stops the other threads too.
                    let result = play();
                    if result.is_err() {
                        stop.store(true, Ordering::SeqCst);
                    }
                    result
                })
            })
            .collect();
        threads
            .into_iter()
            .try_for_each(|t| t.join().expect("datagen thread panicked"))
    });
    // The games of a failed run are not put in place (those saved before stay).
    let (file, _) = writer.into_inner().map_err(|_| "writer poisoned")?;
    let outcome = outcome.and_then(|()| file.commit());
    progress.finish(start.elapsed());
    outcome
}

/// Refuses to add to a file that is not whole in `format`: its first and last record (or
/// line) must read as positions, and a binary file must hold whole records, a text file end
/// its last line.
fn check_format(path: &Path, format: Format) -> Result<(), String> {
    let name = path.display();
    let fail = |e: std::io::Error| format!("cannot read {name}: {e}");
    let mut file = std::fs::File::open(path).map_err(fail)?;
    let len = file.metadata().map_err(fail)?.len();
    let not = |what: String| {
        format!(
            "{name} is not a whole {} datagen file ({what}); --append adds only to one",
            match format {
                Format::Text => "text",
                Format::Binary => "binary",
            }
        )
    };
    match format {
        Format::Binary => {
            if len % RECORD_BYTES as u64 != 0 {
                return Err(not(format!(
                    "{len} bytes, not a whole number of {RECORD_BYTES}-byte records"
                )));
            }
            let mut record = [0u8; RECORD_BYTES];
            for offset in [0, len - RECORD_BYTES as u64] {
                file.seek(SeekFrom::Start(offset)).map_err(fail)?;
                file.read_exact(&mut record).map_err(fail)?;
                Record::from_bytes(&record)
                    .and_then(|r| r.position().map(|_| ()))
                    .map_err(|e| not(format!("the record at byte {offset}: {e}")))?;
            }
        }
        Format::Text => {
            // A line is well under 200 bytes: the ends of the file hold whole ones.
            const END: u64 = 4096;
            let mut head = Vec::new();
            (&mut file).take(END).read_to_end(&mut head).map_err(fail)?;
            let start = len.saturating_sub(END);
            file.seek(SeekFrom::Start(start)).map_err(fail)?;
            let mut tail = Vec::new();
            file.read_to_end(&mut tail).map_err(fail)?;
            if tail.last() != Some(&b'\n') {
                return Err(not("its last line is cut short".into()));
            }
            let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
            let first = text(&head).lines().next().unwrap_or("").to_string();
            let tail = text(&tail);
            let last = tail.lines().last().unwrap_or("");
            for (which, line) in [("first", first.trim()), ("last", last.trim())] {
                if line.is_empty() || line.starts_with('#') {
                    continue; // the reader skips these
                }
                samples::parse_text_line(line)
                    .map_err(|e| not(format!("its {which} line: {e}")))?;
            }
        }
    }
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
                .set_message(format!("{}, {rate:.0} pos/s", count(total, "position")));
        } else {
            self.bar.set_position(total);
            self.bar
                .set_message(format!("{}, {rate:.0} pos/s", count(games, "game")));
        }
        if self.plain {
            let mut last = self.last_line.lock().unwrap_or_else(|e| e.into_inner());
            if last.elapsed() >= Duration::from_secs(60) {
                *last = Instant::now();
                errln!("{}", self.status_line(games, total, rate));
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
            "{:.0} s: {}, {}, {rate:.0} pos/s{eta}",
            self.start.elapsed().as_secs_f64(),
            count(games, "game"),
            count(total, "position")
        )
    }

    fn finish(&self, elapsed: Duration) {
        self.bar.finish_and_clear();
        let games = self.games.load(Ordering::SeqCst);
        let total = self.positions.load(Ordering::SeqCst);
        let secs = elapsed.as_secs_f64().max(1e-3);
        errln!(
            "datagen: {}, {} in {secs:.1} s ({:.1} positions/s)",
            count(games, "game"),
            count(total, "position"),
            total as f64 / secs
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::{parse_text_line, read_records};
    use std::path::PathBuf;

    fn args(output: &Path) -> DatagenArgs {
        DatagenArgs {
            output: output.to_str().unwrap().to_string(),
            format: None,
            append: false,
            force: false,
            save_every: 300,
            games: Some(3),
            positions: None,
            shard: None,
            nodes: 200,
            depth: None,
            threads: 2,
            openings: None,
            random_plies: 8,
            seed: None,
            hash: 1,
            classical: false,
            eval_file: None,
        }
    }

    /// A fresh directory of its own for each test (tests run at once in one process).
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("chariot-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn writes_games_refuses_to_overwrite_and_appends() {
        let dir = scratch("datagen-text");
        let path = dir.join("data.txt");
        run_datagen(&args(&path)).unwrap();
        let first = std::fs::read_to_string(&path).unwrap();
        assert!(first.lines().count() > 0);
        assert!(first.lines().all(|l| parse_text_line(l).is_ok()));
        let refused = run_datagen(&args(&path)).unwrap_err();
        assert!(refused.contains("--append"), "{refused}");
        let again = DatagenArgs {
            append: true,
            ..args(&path)
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
            ..args(&path)
        };
        assert!(run_datagen(&bad).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn binary_output_holds_the_text_output_and_appends_whole_records() {
        let dir = scratch("datagen-binary");
        let text = dir.join("data.txt");
        let binary = dir.join("data.bin");
        let one_thread = |path: &Path| DatagenArgs {
            threads: 1,
            ..args(path)
        };
        run_datagen(&one_thread(&text)).unwrap();
        run_datagen(&one_thread(&binary)).unwrap();
        let len = std::fs::metadata(&binary).unwrap().len();
        assert!(len > 0 && len % RECORD_BYTES as u64 == 0);
        // One thread plays the games in order, so both files hold the same positions.
        let lines: Vec<String> = std::fs::read_to_string(&text)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        let records = read_records(&[&binary], None).unwrap();
        let mut from_binary = Vec::new();
        for record in &records {
            crate::samples::encode(record, Format::Text, &mut from_binary);
        }
        let from_binary: Vec<String> = String::from_utf8(from_binary)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(from_binary, lines);

        // `--format` overrides the extension.
        let named = dir.join("records.dat");
        run_datagen(&DatagenArgs {
            format: Some(Format::Binary),
            ..one_thread(&named)
        })
        .unwrap();
        assert_eq!(
            std::fs::read(&named).unwrap(),
            std::fs::read(&binary).unwrap()
        );

        let append = DatagenArgs {
            append: true,
            ..one_thread(&binary)
        };
        run_datagen(&append).unwrap();
        let after = read_records(&[&binary], None).unwrap();
        assert!(after.len() > records.len());
        assert_eq!(&after[..records.len()], &records[..]);

        let cut = dir.join("cut.bin");
        std::fs::write(&cut, &std::fs::read(&binary).unwrap()[..RECORD_BYTES + 3]).unwrap();
        let refused = run_datagen(&DatagenArgs {
            append: true,
            ..one_thread(&cut)
        })
        .unwrap_err();
        assert!(refused.contains("40-byte records"), "{refused}");
        let refused = run_datagen(&DatagenArgs {
            append: true,
            format: Some(Format::Binary),
            ..one_thread(&text)
        })
        .unwrap_err();
        assert!(refused.contains(&text.display().to_string()), "{refused}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shards_together_play_the_games_of_the_whole_run() {
        let dir = scratch("datagen-shards");
        let whole = dir.join("whole.txt");
        run_datagen(&DatagenArgs {
            games: Some(6),
            ..args(&whole)
        })
        .unwrap();
        let mut shards = Vec::new();
        for index in 1..=4 {
            let path = dir.join(format!("shard-{index}.bin"));
            run_datagen(&DatagenArgs {
                games: Some(6),
                threads: 1,
                shard: Some(Shard { index, count: 4 }),
                ..args(&path)
            })
            .unwrap();
            shards.push(path);
        }
        let sorted = |mut records: Vec<Record>| {
            let mut bytes: Vec<_> = records.drain(..).map(|r| r.to_bytes()).collect();
            bytes.sort_unstable();
            bytes
        };
        let whole = sorted(read_records(&[&whole], None).unwrap());
        assert!(!whole.is_empty());
        assert_eq!(sorted(read_records(&shards, None).unwrap()), whole);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shards_parse_and_count_their_share() {
        assert_eq!("2/8".parse(), Ok(Shard { index: 2, count: 8 }));
        assert_eq!("1/1".parse(), Ok(Shard::WHOLE));
        for bad in ["0/8", "9/8", "2", "2/0", "a/8", "-1/8", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let shard = Shard { index: 2, count: 4 };
        let games: Vec<u64> = (0..3).map(|n| shard.game(n)).collect();
        assert_eq!(games, [1, 5, 9]);
        assert_eq!(shard.share(6), 2, "games 1 and 5 of 0..6");
        assert_eq!(shard.share(1), 0);
        assert_eq!(Shard { index: 4, count: 4 }.share(6), 1);
        assert_eq!(Shard::WHOLE.share(6), 6);
        let total: u64 = (1..=4)
            .map(|index| Shard { index, count: 4 }.share(6))
            .sum();
        assert_eq!(total, 6);
    }
}
