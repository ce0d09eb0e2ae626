//! The match loop: builds the schedule (pairings x openings, colours swapped within each
//! pair), runs games on worker threads that own their engine processes, and collects the
//! results on the main thread, which alone writes the PGN and the statistics.

use super::engine::{EngineConfig, EngineProcess};
use super::game::{self, DrawRule, Forfeit, GameRecord, GameSettings, ResignRule, Termination};
use super::output::PairingStats;
use super::pgn::{self, PgnContext};
use super::report::{EngineRow, GameRow, Report};
use super::sprt::{Sprt, SprtStatus};
use super::{resume, standings, MatchArgs, Tournament};
use crate::console::{count, errln, out, outln};
use crate::notation::openings::{self, Opening, OpeningsSpec};
use crate::notation::pgn::{result_text, today};
use crate::output_file::{Existing, OutputPath};
use crate::Color;
use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::time::Duration;

/// Reads `key=value` words into numbers, accepting only `keys`.
fn key_values(
    option: &str,
    words: &[String],
    keys: &[&str],
) -> Result<HashMap<String, i64>, String> {
    let mut map = HashMap::new();
    for word in words {
        let (k, v) = word
            .split_once('=')
            .ok_or_else(|| format!("--{option}: expected key=value, got '{word}'"))?;
        if !keys.contains(&k) {
            return Err(format!(
                "--{option}: unknown key '{k}' (expected {})",
                keys.join(", ")
            ));
        }
        let n = v
            .parse()
            .map_err(|_| format!("--{option}: '{v}' is not an integer"))?;
        map.insert(k.to_string(), n);
    }
    for k in keys {
        if !map.contains_key(*k) {
            return Err(format!("--{option}: {k}=.. is required"));
        }
    }
    Ok(map)
}

/// Everything the workers share.
struct Plan {
    configs: Vec<EngineConfig>,
    pairings: Vec<(usize, usize)>,
    openings: Vec<Opening>,
    settings: GameSettings,
    /// Games per pairing.
    games: u64,
    /// Schedule indices already played (`--resume`).
    done: HashSet<u64>,
}

/// Which game the `index`-th scheduled game is: pairs of games (one opening, colours
/// swapped) are dealt to the pairings in turn.
#[derive(Clone, Copy, Debug)]
struct GameSpec {
    index: u64,
    pairing: usize,
    pair: u64,
    /// Second game of the pair: the second engine plays Red.
    swapped: bool,
}

impl Plan {
    fn total(&self) -> u64 {
        self.games.saturating_mul(self.pairings.len() as u64)
    }

    /// Red's and Black's engines and the opening of game `index`.
    fn game(&self, spec: GameSpec) -> (usize, usize, &Opening) {
        let (a, b) = self.pairings[spec.pairing];
        let (red, black) = if spec.swapped { (b, a) } else { (a, b) };
        let opening = &self.openings[(spec.pair % self.openings.len() as u64) as usize];
        (red, black, opening)
    }

    fn spec(&self, index: u64) -> GameSpec {
        let n = self.pairings.len() as u64;
        let pair_number = index / 2;
        GameSpec {
            index,
            pairing: (pair_number % n) as usize,
            pair: pair_number / n,
            swapped: index % 2 == 1,
        }
    }
}

fn start_engine(
    config: &EngineConfig,
    plan: &Plan,
    interrupt: &AtomicBool,
) -> Result<EngineProcess, String> {
    EngineProcess::start(config, plan.settings.hang_timeout, interrupt)
}

/// A worker: takes the next game, plays it, sends the record; restarts failed engines.
fn worker(
    plan: &Plan,
    next: &AtomicU64,
    interrupt: &AtomicBool,
    finish: &AtomicBool,
    results: std::sync::mpsc::Sender<(GameSpec, GameRecord)>,
) {
    let mut slots: Vec<Option<EngineProcess>> = plan.configs.iter().map(|_| None).collect();
    loop {
        if interrupt.load(Ordering::Relaxed) || finish.load(Ordering::Relaxed) {
            break;
        }
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= plan.total() {
            break;
        }
        if plan.done.contains(&index) {
            continue;
        }
        let spec = plan.spec(index);
        let (red, black, opening) = plan.game(spec);
        let mut failed_start = None;
        for (color, idx) in [(Color::Red, red), (Color::Black, black)] {
            if slots[idx].is_none() {
                match start_engine(&plan.configs[idx], plan, interrupt) {
                    Ok(engine) => slots[idx] = Some(engine),
                    Err(e) => {
                        failed_start = Some((color, e));
                        break;
                    }
                }
            }
        }
        if interrupt.load(Ordering::Relaxed) {
            break;
        }
        let record = if let Some((color, error)) = failed_start {
            let names = (&plan.configs[red].name, &plan.configs[black].name);
            let mut record = GameRecord::new(names.0, names.1, opening);
            record.moves.clear();
            let forfeit = Forfeit {
                termination: Termination::Abandoned,
                reason: error,
                label: "crash",
                restart: false,
            };
            record.forfeit(color, forfeit);
            record
        } else {
            // Two distinct slots borrowed mutably at once.
            let (low, high) = (red.min(black), red.max(black));
            let (left, right) = slots.split_at_mut(high);
            let (low_engine, high_engine) =
                (left[low].as_mut().unwrap(), right[0].as_mut().unwrap());
            let engines = if red < black {
                [low_engine, high_engine]
            } else {
                [high_engine, low_engine]
            };
            match game::play(opening, engines, &plan.settings, interrupt) {
                Some(record) => record,
                None => break,
            }
        };
        for (restart, idx) in record.restart.iter().zip([red, black]) {
            if *restart {
                slots[idx] = None;
            }
        }
        if results.send((spec, record)).is_err() {
            break;
        }
    }
    for engine in slots.into_iter().flatten() {
        engine.quit();
    }
}

/// The match settings from the command line: the plan the workers share, the SPRT, the PGN
/// file and where the report goes.
type Setup = (Plan, Option<Sprt>, Option<File>, Option<OutputPath>);

fn setup(args: &MatchArgs) -> Result<Setup, String> {
    let global = args.limits.limits()?;
    if args.concurrency == 0 {
        return Err("--concurrency must be positive".into());
    }
    let mut configs = Vec::new();
    for words in &args.engines.0 {
        let mut config = EngineConfig::parse(words)?;
        config.limits = config.limits.or(global);
        config
            .limits
            .check()
            .map_err(|e| format!("{}: {e}", config.name))?;
        configs.push(config);
    }
    if configs.len() < 2 {
        return Err("a match needs at least two --engine".into());
    }
    // Names identify engines in the PGN and the tables: make them unique.
    for i in 1..configs.len() {
        if configs[..i].iter().any(|c| c.name == configs[i].name) {
            configs[i].name = format!("{}-{}", configs[i].name, i + 1);
        }
    }
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    if sprt.is_some() && configs.len() != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    let resign = args
        .resign
        .as_deref()
        .map(|w| key_values("resign", w, &["movecount", "score"]))
        .transpose()?
        .map(|m| ResignRule {
            moves: m["movecount"].max(1) as u32,
            score: m["score"] as i32,
        });
    let draw = args
        .draw
        .as_deref()
        .map(|w| key_values("draw", w, &["movenumber", "movecount", "score"]))
        .transpose()?
        .map(|m| DrawRule {
            after: m["movenumber"].max(0) as u32,
            moves: m["movecount"].max(1) as u32,
            score: m["score"] as i32,
        });
    if !(args.hang_timeout > 0.0 && args.hang_timeout.is_finite()) {
        return Err("--hang-timeout must be a positive number of seconds".into());
    }
    if args.draw_plies == 0 {
        return Err("--draw-plies must be positive".into());
    }
    if args.max_moves == Some(0) {
        return Err("--max-moves must be positive".into());
    }
    let settings = GameSettings {
        resign,
        draw,
        draw_plies: args.draw_plies,
        max_moves: args.max_moves,
        ..GameSettings::new(
            args.timemargin.map(Duration::from_millis),
            Duration::from_secs_f64(args.hang_timeout),
        )
    };
    let games = args
        .games
        .unwrap_or(if sprt.is_some() { u64::MAX } else { 2 });
    if games == 0 {
        return Err("--games must be positive".into());
    }
    let openings_spec = match &args.openings {
        Some(words) => OpeningsSpec::parse(words)?,
        None => OpeningsSpec::default(),
    };
    let (openings, seed) = openings::load(&openings_spec)?;
    if let Some(seed) = seed {
        // Printed so a shuffled run can be repeated.
        outln!(
            "Openings in random order, seed={seed} ({})",
            count(openings.len() as u64, "opening")
        );
    }
    let mut pairings = Vec::new();
    for i in 0..configs.len() {
        for j in i + 1..configs.len() {
            if i == 0 || args.tournament == Tournament::RoundRobin {
                pairings.push((i, j));
            }
        }
    }
    // A resumed match appends to the PGN it resumes unless told otherwise.
    let pgn_path = args.pgn.as_ref().or(args.resume.as_ref());
    if let Some(path) = &args.resume {
        if !std::path::Path::new(path).is_file() {
            return Err(format!(
                "cannot read the PGN to resume {path}: no such file"
            ));
        }
    }
    if let Some(path) = pgn_path.filter(|_| !args.dry_run) {
        check_pgn(path)?;
    }
    let pgn_file = match pgn_path.filter(|_| !args.dry_run) {
        Some(path) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open PGN file {path}: {e}"))?,
        ),
        None => None,
    };
    let report = match args.report.as_ref() {
        Some(path) => {
            // A resumed match's report covers its earlier games too: it is replaced.
            let existing = Existing::replace_if(args.force || args.resume.is_some());
            let output = OutputPath::check(path, "--report", existing)
                .map_err(|e| format!("cannot write the report: {e}"))?;
            if !args.dry_run {
                // An empty report now, so a bad path fails before the first game.
                let names: Vec<String> = configs.iter().map(|c| c.name.clone()).collect();
                Report::new(&args.event, sprt, &names, None)
                    .write(&output)
                    .map_err(|e| format!("cannot write the report: {e}"))?;
            }
            Some(output)
        }
        None => None,
    };
    let plan = Plan {
        configs,
        pairings,
        openings,
        settings,
        games,
        done: HashSet::new(),
    };
    Ok((plan, sprt, pgn_file, report))
}

/// Games are added to an existing PGN only when it holds games: never to a file of another
/// kind given by mistake.
fn check_pgn(path: &str) -> Result<(), String> {
    let Ok(bytes) = std::fs::read(path) else {
        return Ok(()); // none yet (a bad directory fails when it is opened)
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(());
    }
    let holds_games = std::str::from_utf8(&bytes)
        .ok()
        .and_then(|text| crate::notation::pgn::read_games(text).ok())
        .is_some_and(|games| !games.is_empty() && games.iter().all(|g| !g.tags.is_empty()));
    if holds_games {
        Ok(())
    } else {
        Err(format!(
            "--pgn {path} exists and is not a PGN file of games; games are only added to one"
        ))
    }
}

/// The settings the report lists under its title.
fn match_info(plan: &Plan, args: &MatchArgs) -> Vec<(String, String)> {
    let mut limits: Vec<String> = plan.configs.iter().map(|c| c.limits.describe()).collect();
    limits.dedup();
    let s = &plan.settings;
    let margin = margin_text(plan);
    let openings = match &args.openings {
        Some(words) => words.join(" "),
        None => "built-in suite".into(),
    };
    let games = if plan.total() == u64::MAX {
        "until the SPRT decides".to_string()
    } else {
        format!("{} ({} per pairing)", plan.total(), plan.games)
    };
    let mut info = vec![
        ("date".to_string(), today()),
        (
            "runner".into(),
            format!("chariot match {}", env!("CARGO_PKG_VERSION")),
        ),
        ("time control".into(), limits.join(" | ")),
        ("time margin".into(), margin),
        ("tournament".into(), args.tournament.name().to_string()),
        ("games".into(), games),
        (
            "openings".into(),
            format!(
                "{openings} ({})",
                count(plan.openings.len() as u64, "opening")
            ),
        ),
        ("concurrency".into(), args.concurrency.to_string()),
        ("draw plies".into(), s.draw_plies.to_string()),
    ];
    if let Some(n) = s.max_moves {
        info.push(("max moves".into(), n.to_string()));
    }
    if let Some(r) = s.resign {
        info.push(("resign".into(), r.describe()));
    }
    if let Some(d) = s.draw {
        info.push(("draw".into(), d.describe()));
    }
    if let Some(path) = &args.resume {
        info.push(("resumed from".into(), path.clone()));
    }
    info
}

/// The overrun margin each engine's moves are given, as the games use it: `400 ms` for all,
/// or per engine when their limits differ.
fn margin_text(plan: &Plan) -> String {
    let ms: Vec<f64> = plan
        .configs
        .iter()
        .map(|c| plan.settings.margin_for(&c.limits).as_secs_f64() * 1000.0)
        .collect();
    if ms.windows(2).all(|w| w[0] == w[1]) {
        return format!("{} ms", ms[0]);
    }
    let each: Vec<String> = plan
        .configs
        .iter()
        .zip(&ms)
        .map(|(c, ms)| format!("{} {ms} ms", c.name))
        .collect();
    each.join(", ")
}

fn engine_row(c: &EngineConfig) -> EngineRow {
    let command = std::iter::once(c.cmd.as_str())
        .chain(c.args.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    EngineRow {
        name: c.name.clone(),
        command,
        protocol: c.proto.name().to_string(),
        options: c
            .options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" "),
        limits: c.limits.describe(),
    }
}

/// What the main thread keeps as results come in: statistics, the PGN, the progress lines.
struct Results<'a> {
    plan: &'a Plan,
    sprt: Option<Sprt>,
    pgn_file: Option<File>,
    pgn_notation: crate::notation::Notation,
    event: &'a str,
    date: String,
    stats: Vec<PairingStats>,
    /// First game's points of each pair (pairing, pair) still waiting for its second game.
    pending_pairs: HashMap<(usize, u64), f64>,
    played: u64,
    write_error: Option<String>,
    /// The report and where it goes.
    report: Option<(Report, OutputPath)>,
}

impl<'a> Results<'a> {
    fn new(
        plan: &'a Plan,
        sprt: Option<Sprt>,
        pgn_file: Option<File>,
        report_path: Option<OutputPath>,
        args: &'a MatchArgs,
    ) -> Self {
        let event = args.event.as_str();
        let stats = plan
            .pairings
            .iter()
            .map(|&(a, b)| PairingStats {
                first: plan.configs[a].name.clone(),
                second: plan.configs[b].name.clone(),
                ..Default::default()
            })
            .collect();
        Results {
            plan,
            sprt,
            pgn_file,
            pgn_notation: args.pgn_notation,
            event,
            date: today(),
            stats,
            pending_pairs: HashMap::new(),
            played: 0,
            write_error: None,
            report: report_path.map(|path| {
                let names: Vec<String> = plan.configs.iter().map(|c| c.name.clone()).collect();
                let total = (plan.total() != u64::MAX).then(|| plan.total());
                let mut report = Report::new(event, sprt, &names, total);
                report.info = match_info(plan, args);
                report.engine_rows = plan.configs.iter().map(engine_row).collect();
                (report, path)
            }),
        }
    }

    /// Counts a finished game, writes it and prints the progress line; returns false when
    /// the SPRT has decided and the match should stop.
    /// A `resumed` game is already in the PGN and was printed by the run that played it.
    fn add(&mut self, spec: GameSpec, record: &GameRecord, resumed: bool) -> bool {
        let plan = self.plan;
        self.played += 1;
        let (a, b) = plan.pairings[spec.pairing];
        let first_color = if spec.swapped {
            Color::Black
        } else {
            Color::Red
        };
        let first_points = match record.winner {
            None => 0.5,
            Some(c) if c == first_color => 1.0,
            Some(_) => 0.0,
        };
        let s = &mut self.stats[spec.pairing];
        s.record(first_points, record.label);
        if let Some(other) = self.pending_pairs.remove(&(spec.pairing, spec.pair)) {
            s.penta.add_pair(other, first_points);
        } else {
            self.pending_pairs
                .insert((spec.pairing, spec.pair), first_points);
        }
        let time_control = plan.configs[a].limits.describe();
        let context = PgnContext {
            event: self.event,
            date: &self.date,
            round: spec.index as u32 + 1,
            time_control: &time_control,
            draw_plies: plan.settings.draw_plies,
            max_moves: plan.settings.max_moves,
            notation: self.pgn_notation,
        };
        let mut pgn_text = Vec::new();
        let _ = pgn::write_game(&mut pgn_text, record, &context);
        if let Some((report, path)) = self.report.as_mut() {
            let book: Vec<String> = record
                .moves
                .iter()
                .take_while(|m| m.book)
                .map(|m| m.mv.to_string())
                .collect();
            let number = spec.pair % plan.openings.len() as u64 + 1;
            // The opening as the game began it: its position when not the start, its moves.
            let start = crate::Position::startpos().to_fen();
            let fen = Some(&record.fen).filter(|fen| **fen != start);
            let opening = std::iter::once(format!("#{number}"))
                .chain(fen.cloned())
                .chain(book)
                .collect::<Vec<_>>()
                .join(" ");
            report.list_game(GameRow {
                round: spec.index + 1,
                red: record.red.clone(),
                black: record.black.clone(),
                opening,
                result: result_text(record.winner),
                ending: record.label.to_string(),
                reason: record.reason.clone(),
                plies: record.moves.len(),
                pgn: String::from_utf8_lossy(&pgn_text).into_owned(),
            });
            report.add_game(spec.pairing, (a, b), s, first_points, record);
            if let Err(e) = report.write(path) {
                self.write_error
                    .get_or_insert(format!("writing the report failed: {e}"));
            }
        }
        if let Some(file) = self.pgn_file.as_mut().filter(|_| !resumed) {
            let written = file.write_all(&pgn_text).and_then(|_| file.flush());
            if let Err(e) = written {
                self.write_error
                    .get_or_insert(format!("writing the PGN failed: {e}"));
            }
        }
        let total_text = if plan.total() == u64::MAX {
            "?".to_string()
        } else {
            plan.total().to_string()
        };
        if resumed {
            return self.sprt.as_ref().is_none_or(|sprt| {
                sprt.status(&self.stats[spec.pairing].penta) == SprtStatus::Continue
            });
        }
        outln!(
            "[{}/{total_text}] {} vs {}: {} ({}) | {}",
            self.played,
            record.red,
            record.black,
            result_text(record.winner),
            record.reason,
            s.progress(self.sprt.as_ref())
        );
        match &self.sprt {
            Some(sprt) => sprt.status(&s.penta) == SprtStatus::Continue,
            None => true,
        }
    }

    /// The final tables; an error if the PGN could not be written.
    fn summary(self, interrupted: bool) -> Result<(), String> {
        outln!();
        if interrupted {
            outln!(
                "Match interrupted after {}.",
                count(self.played, "finished game")
            );
        }
        for s in &self.stats {
            out!("{}", s.summary(self.sprt.as_ref()));
        }
        let configs = &self.plan.configs;
        if configs.len() > 2 {
            let results: Vec<_> = self
                .plan
                .pairings
                .iter()
                .zip(&self.stats)
                .map(|(&pair, s)| (pair, s.wdl))
                .collect();
            let names: Vec<String> = configs.iter().map(|c| c.name.clone()).collect();
            out!(
                "{}",
                standings::text(&standings::table(configs.len(), &results), &names)
            );
        }
        match self.write_error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// Runs the workers and hands each finished game to `results` until all are played, the
/// SPRT decides or the match is interrupted.
fn play(plan: &Arc<Plan>, concurrency: usize, interrupt: &Arc<AtomicBool>, results: &mut Results) {
    let finish = Arc::new(AtomicBool::new(false));
    let next = Arc::new(AtomicU64::new(0));
    let (sender, receiver) = channel();
    let mut handles = Vec::new();
    for _ in 0..concurrency.min(plan.total().min(usize::MAX as u64) as usize) {
        let (plan, next, interrupt, finish, sender) = (
            Arc::clone(plan),
            Arc::clone(&next),
            Arc::clone(interrupt),
            Arc::clone(&finish),
            sender.clone(),
        );
        handles.push(std::thread::spawn(move || {
            worker(&plan, &next, &interrupt, &finish, sender)
        }));
    }
    drop(sender);
    for (spec, record) in receiver {
        if !results.add(spec, &record, false) {
            finish.store(true, Ordering::Relaxed);
        }
    }
    for handle in handles {
        let _ = handle.join();
    }
}

/// The match as understood, for `--dry-run`: everything the games depend on.
fn describe(plan: &Plan, sprt: Option<&Sprt>, args: &MatchArgs) -> String {
    let mut out = String::from("Engines:\n");
    for (i, c) in plan.configs.iter().enumerate() {
        let options: Vec<String> = c.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        out += &format!(
            "  {}. {}: cmd={} args=[{}] dir={} proto={} options=[{}] limits={}\n",
            i + 1,
            c.name,
            c.cmd,
            c.args.join(" "),
            c.dir.as_deref().unwrap_or("."),
            c.proto.name(),
            options.join(" "),
            c.limits.describe()
        );
    }
    let pairings: Vec<String> = plan
        .pairings
        .iter()
        .map(|&(a, b)| format!("{}-{}", plan.configs[a].name, plan.configs[b].name))
        .collect();
    let games = if plan.games == u64::MAX {
        "until SPRT decides".to_string()
    } else {
        format!("{} per pairing, {} in all", plan.games, plan.total())
    };
    out += &format!(
        "Tournament: {}, pairings {}; games {games}\n",
        args.tournament.name(),
        pairings.join(" ")
    );
    let first = &plan.openings[0];
    out += &format!(
        "Openings: {} (first: {}{})\n",
        count(plan.openings.len() as u64, "opening"),
        first.fen,
        first
            .moves
            .iter()
            .map(|m| format!(" {m}"))
            .collect::<String>()
    );
    let s = &plan.settings;
    out += &format!(
        "Rules: draw plies {}; max moves: {}; resign: {}; draw: {}\n",
        s.draw_plies,
        s.max_moves.map_or("no limit".into(), |n| n.to_string()),
        s.resign.map_or("none".into(), |r| r.describe()),
        s.draw.map_or("none".into(), |d| d.describe()),
    );
    out += &format!(
        "Time margin: {}; hang timeout {} s; concurrency {}\n",
        margin_text(plan),
        s.hang_timeout.as_secs_f64(),
        args.concurrency
    );
    let or_none = |path: Option<&String>| path.map_or("none".to_string(), String::clone);
    out += &format!(
        "SPRT: {}\nPGN: {}; report: {}; event: {}\n",
        sprt.map_or("none".into(), |s| format!(
            "elo0={} elo1={} alpha={} beta={}",
            s.elo0, s.elo1, s.alpha, s.beta
        )),
        or_none(args.pgn.as_ref().or(args.resume.as_ref())),
        or_none(args.report.as_ref()),
        args.event
    );
    if !plan.done.is_empty() {
        out += &format!(
            "Resumed: {} already played\n",
            count(plan.done.len() as u64, "game")
        );
    }
    out
}

/// A pairing that plays more games than its suite gives (each opening twice) starts the suite
/// over. Between engines searching to fixed nodes or depth no clock varies their play, so a
/// repeated opening most likely replays an earlier game move for move: the match then counts
/// the same games again, and its error bars are narrower than the games it really has.
fn repeated_openings_note(plan: &Plan) -> Option<String> {
    let distinct = 2 * plan.openings.len() as u64;
    if plan.games <= distinct {
        return None;
    }
    let plays = if plan.games == u64::MAX {
        "until the SPRT decides".to_string()
    } else {
        count(plan.games, "game")
    };
    let fixed = plan
        .configs
        .iter()
        .all(|c| c.limits.clock.is_none() && c.limits.movetime_ms.is_none());
    Some(format!(
        "Note: a pairing plays {plays} and {} give {distinct} games (each with both colours): \
         the suite starts over after them{}",
        count(plan.openings.len() as u64, "opening"),
        if fixed {
            "; at fixed nodes or depth the repeats will most likely replay earlier games move \
             for move (give a larger suite with --openings)"
        } else {
            ""
        }
    ))
}

pub fn run(args: &MatchArgs) -> Result<(), String> {
    // ---- settings -----------------------------------------------------------------------
    let (mut plan, sprt, pgn_file, report_path) = setup(args)?;
    let resumed = match &args.resume {
        Some(path) => {
            let expect = |index: u64| {
                (index < plan.total()).then(|| {
                    let (red, black, opening) = plan.game(plan.spec(index));
                    let name = |i: usize| plan.configs[i].name.clone();
                    (name(red), name(black), opening.fen.clone())
                })
            };
            resume::load(path, &expect)?
        }
        None => Vec::new(),
    };
    plan.done = resumed.iter().map(|(index, _)| *index).collect();
    if args.dry_run {
        out!("{}", describe(&plan, sprt.as_ref(), args));
    }
    let plan = Arc::new(plan);
    if args.timemargin.is_none()
        && plan
            .configs
            .iter()
            .any(|c| c.limits.clock.is_none() && c.limits.movetime_ms.is_some())
    {
        outln!("Time margin on fixed move times: a fifth, at least 200 ms (--timemargin MS)");
    }
    if let Some(note) = repeated_openings_note(&plan) {
        outln!("{note}");
    }
    // Fail fast on an engine that does not start, before any game is played.
    let interrupt = Arc::new(AtomicBool::new(false));
    for config in &plan.configs {
        start_engine(config, &plan, &interrupt)?.quit();
    }
    if args.dry_run {
        outln!("Every engine started; --dry-run stops here.");
        return Ok(());
    }
    {
        let interrupt = Arc::clone(&interrupt);
        // A second handler cannot be installed in the same process (tests); the first stays.
        let _ = ctrlc::set_handler(move || {
            if interrupt.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            errln!("\ninterrupted: stopping engines (Ctrl-C again to quit at once)");
        });
    }

    // ---- play ---------------------------------------------------------------------------
    let mut results = Results::new(&plan, sprt, pgn_file, report_path, args);
    let mut go_on = true;
    for (index, record) in &resumed {
        go_on &= results.add(plan.spec(*index), record, true);
    }
    if let Some(path) = &args.resume {
        outln!(
            "Resumed {} from {path}; {} to play.",
            count(resumed.len() as u64, "game"),
            if plan.total() == u64::MAX {
                "more".to_string()
            } else {
                (plan.total() - resumed.len() as u64).to_string()
            }
        );
    }
    if go_on {
        play(&plan, args.concurrency.max(1), &interrupt, &mut results);
    }

    // ---- summary ------------------------------------------------------------------------
    results.summary(interrupt.load(Ordering::Relaxed))
}
