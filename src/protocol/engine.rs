//! The state both protocols drive: the game position, the hash table, the options, and the
//! search running in the background. Commands arrive on the caller's thread while the search
//! thread prints its own `info` lines and the final `bestmove`.

use super::options::{Setting, Value};
use super::{Caps, Output};
use crate::board::movegen::legal_moves;
use crate::board::notation::{parse_move, position_from, Diagram, RankBase};
use crate::board::position::Position;
use crate::board::types::Move;
use crate::book::{Book, NO_BOOK};
use crate::console::count;
use crate::nnue::{Network, EMBEDDED_NAME};
use crate::search::score::{describe, is_mate, mate_plies};
use crate::search::tt::TranspositionTable;
use crate::search::{self, Limits, Line, Memory, Options, SearchResult, Signals};
use crate::strength::Weakness;
use crate::wdl::Wdl;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

/// How the search's output is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Ucci,
}

pub struct Engine {
    pub pos: Position,
    pub tt: Arc<TranspositionTable>,
    /// What the searches of this game have learnt (histories); a new game clears it.
    memory: Arc<Mutex<Memory>>,
    pub hash_mb: usize,
    pub options: Options,
    /// Rank numbering of move text (UCI_Variant GUIs use ranks 1-10).
    pub base: RankBase,
    pub dialect: Dialect,
    /// UCCI `setoption usemillisec true`: times in `go` are milliseconds, not seconds.
    pub ucci_millis: bool,
    pub out: Output,
    caps: Caps,
    running: Option<Running>,
    /// The network `EvalFile` names (the embedded one by default), loaded or not.
    network: Option<Arc<Network>>,
    use_nnue: bool,
    book: BookState,
    /// `UCI_ShowWDL`: `info` lines carry `wdl W D L`.
    show_wdl: bool,
    /// `UCI_LimitStrength` and `UCI_Elo`.
    limit_strength: bool,
    elo: i64,
}

/// The opening book as `OwnBook` and `BookFile` left it.
struct BookState {
    on: bool,
    /// `BookFile` as set ([`NO_BOOK`] for none).
    file: String,
    /// The book read, with the path it came from.
    loaded: Option<(String, Book)>,
    /// Seeded from the system: the book's choice varies from game to game.
    rng: fastrand::Rng,
}

/// The search in the background.
struct Running {
    signals: Arc<Signals>,
    infinite: bool,
    thread: JoinHandle<()>,
}

impl Engine {
    /// An engine answering on standard output, without caps: what the binary runs.
    pub fn new(dialect: Dialect) -> Engine {
        Engine::with_caps(dialect, Output::stdout(), Caps::default())
    }

    pub fn with_caps(dialect: Dialect, out: Output, caps: Caps) -> Engine {
        let hash_mb = TranspositionTable::DEFAULT_MB;
        Engine {
            pos: Position::startpos(),
            tt: Arc::new(TranspositionTable::new(capped(hash_mb, caps.hash_mb))),
            memory: Arc::default(),
            hash_mb,
            options: Options::default(),
            base: RankBase::Zero,
            dialect,
            ucci_millis: false,
            out,
            caps,
            running: None,
            // `Options::default()` holds the default evaluation's network, if any.
            network: crate::nnue::default_network(),
            use_nnue: crate::nnue::USE_BY_DEFAULT,
            book: BookState {
                on: false,
                file: NO_BOOK.to_string(),
                loaded: None,
                rng: fastrand::Rng::new(),
            },
            show_wdl: false,
            limit_strength: false,
            elo: crate::strength::MAX_ELO,
        }
    }

    /// Reads the book once `OwnBook` is on and `BookFile` names a file not read yet, so a GUI
    /// may set the two in either order. A book that cannot be used gives one `info string`
    /// line, and the engine searches as it would without one.
    fn refresh_book(&mut self) {
        let book = &mut self.book;
        if book.file == NO_BOOK || book.file.is_empty() {
            book.loaded = None;
            return;
        }
        if !book.on
            || book
                .loaded
                .as_ref()
                .is_some_and(|(path, _)| *path == book.file)
        {
            return;
        }
        match Book::load(&book.file) {
            Ok(read) => {
                self.out.line(&format!(
                    "info string book {}: {} in {}",
                    book.file,
                    count(read.entries().len() as u64, "move"),
                    count(read.positions() as u64, "position")
                ));
                book.loaded = Some((book.file.clone(), read));
            }
            Err(e) => {
                self.out.line(&format!(
                    "info string error: book {}: {e}; playing without a book",
                    book.file
                ));
                book.loaded = None;
            }
        }
    }

    /// A move from the book for the current position, if `OwnBook` is on and the book has
    /// one that is not banned; the choice is reported in an `info string` line.
    fn book_move(&mut self) -> Option<Move> {
        let book = &mut self.book;
        if !book.on {
            return None;
        }
        let (_, read) = book.loaded.as_ref()?;
        let entry = read.choose(&self.pos, &self.options.banned, &mut book.rng)?;
        let total: u32 = read
            .moves(&self.pos)
            .iter()
            .filter(|e| !self.options.banned.contains(&e.mv))
            .map(|e| u32::from(e.weight))
            .sum();
        self.out.line(&format!(
            "info string book move {}: weight {} of {}, played in {}",
            self.format_move(entry.mv),
            entry.weight,
            total,
            count(u64::from(entry.games), "game")
        ));
        Some(entry.mv)
    }

    /// `Use NNUE`: the network evaluates, or the classical evaluation. A change forgets what
    /// searches learnt (the table's and the caches' evaluations are the old evaluator's).
    fn set_use_nnue(&mut self, on: bool) -> Result<(), String> {
        if on && self.network.is_none() {
            return Err(
                "Use NNUE: no network loaded (this build embeds none: set EvalFile first)".into(),
            );
        }
        self.stop();
        self.use_nnue = on;
        self.options.network = if on { self.network.clone() } else { None };
        self.clear_hash();
        Ok(())
    }

    /// `EvalFile`: loads the network at `path` (`<embedded>`: the built-in one). On any error
    /// the current network stays.
    fn set_eval_file(&mut self, path: &str) -> Result<(), String> {
        let network = if path == EMBEDDED_NAME {
            Network::embedded().ok_or("EvalFile: this build embeds no network")?
        } else {
            Network::load(path).map_err(|e| format!("EvalFile: {e}"))?
        };
        self.stop();
        self.out.line(&format!(
            "info string EvalFile: loaded network {}",
            network.name
        ));
        self.network = Some(Arc::new(network));
        if self.use_nnue {
            self.options.network = self.network.clone();
            self.clear_hash();
        }
        Ok(())
    }

    /// Ends any running search (its `bestmove` is printed) and waits for its thread.
    pub fn stop(&mut self) {
        if let Some(running) = self.running.take() {
            running.signals.stop();
            let _ = running.thread.join();
        }
    }

    /// Waits for a search that ends by itself (neither infinite nor pondering) to end. Test
    /// harnesses use it to let a search finish before the next command; GUIs read `bestmove`.
    pub fn wait(&mut self) {
        let ends_by_itself = self.running.as_ref().is_some_and(|r| {
            !r.infinite
                && !r
                    .signals
                    .pondering
                    .load(std::sync::atomic::Ordering::SeqCst)
        });
        if ends_by_itself {
            if let Some(running) = self.running.take() {
                let _ = running.thread.join();
            }
        }
    }

    pub fn ponderhit(&mut self) {
        if let Some(running) = &self.running {
            running.signals.ponderhit();
        }
    }

    /// Mutable access to the table; only while no search holds it.
    fn table(&mut self) -> &mut TranspositionTable {
        self.stop();
        if Arc::get_mut(&mut self.tt).is_none() {
            // Unreachable once the search thread is joined, but never worth a panic.
            self.tt = Arc::new(TranspositionTable::new(capped(
                self.hash_mb,
                self.caps.hash_mb,
            )));
        }
        Arc::get_mut(&mut self.tt).expect("no search thread holds the table")
    }

    pub fn set_hash(&mut self, mb: usize) {
        self.stop();
        self.hash_mb = mb;
        // Drop the old table before allocating the new one, so a resize never needs both.
        self.tt = Arc::new(TranspositionTable::new(1));
        self.tt = Arc::new(TranspositionTable::new(capped(mb, self.caps.hash_mb)));
    }

    /// Forgets everything earlier searches learnt: the table and the histories (a new game).
    pub fn clear_hash(&mut self) {
        self.table().clear();
        *self.memory.lock().unwrap_or_else(PoisonError::into_inner) = Memory::default();
    }

    /// Applies an option value checked by the option table (`EngineOption::parse`).
    pub fn apply(&mut self, setting: Setting, value: Value) -> Result<(), String> {
        match (setting, value) {
            (Setting::Hash, Value::Spin(mb)) => self.set_hash(mb as usize),
            (Setting::Threads, Value::Spin(threads)) => {
                self.stop();
                self.options.threads = threads as usize;
            }
            (Setting::MultiPv, Value::Spin(lines)) => {
                self.stop();
                self.options.multipv = lines as usize;
            }
            (Setting::MoveOverhead, Value::Spin(ms)) => {
                self.stop();
                self.options.move_overhead_ms = ms as u64;
            }
            (Setting::ClearHash | Setting::NewGame, _) => self.clear_hash(),
            (Setting::Ponder, _) => {}
            // The only variant there is; setting it says the GUI numbers ranks 1-10.
            (Setting::UciVariant, _) => self.base = RankBase::One,
            (Setting::UseMillisec, Value::Check(on)) => self.ucci_millis = on,
            (Setting::UseNnue, Value::Check(on)) => return self.set_use_nnue(on),
            (Setting::EvalFile, Value::Text(path)) => return self.set_eval_file(&path),
            (Setting::OwnBook, Value::Check(on)) => {
                self.book.on = on;
                self.refresh_book();
            }
            (Setting::BookFile, Value::Text(path)) => {
                self.book.file = path;
                self.refresh_book();
            }
            #[cfg(feature = "spsa")]
            (Setting::Tunable(index), Value::Spin(value)) => {
                self.stop();
                crate::search::params::set(index, value as i32);
            }
            (Setting::ShowWdl, Value::Check(on)) => self.show_wdl = on,
            (Setting::LimitStrength, Value::Check(on)) => {
                self.stop();
                self.limit_strength = on;
            }
            (Setting::Elo, Value::Spin(elo)) => {
                self.stop();
                self.elo = elo;
            }
            other => debug_assert!(false, "{other:?} does not fit the option table"),
        }
        Ok(())
    }

    /// Parses `startpos | fen F [moves ...]` into a new position; the old one stays on error.
    pub fn set_position(&mut self, args: &str) -> Result<(), String> {
        let pos = parse_position(args, self.move_base())?;
        self.stop();
        self.pos = pos;
        self.options.banned.clear();
        Ok(())
    }

    pub fn move_base(&self) -> RankBase {
        match self.dialect {
            Dialect::Uci => self.base,
            Dialect::Ucci => RankBase::Zero,
        }
    }

    pub fn format_move(&self, mv: Move) -> String {
        crate::board::notation::format_move(mv, self.move_base())
    }

    /// Starts searching the current position in the background.
    pub fn go(&mut self, mut limits: Limits, ponder: bool) {
        self.stop();
        // The book answers a game move at once; pondering and analysis search.
        if !ponder && !limits.infinite && limits.mate.is_none() {
            if let Some(mv) = self.book_move() {
                self.out.line(&format!("bestmove {}", self.format_move(mv)));
                return;
            }
        }
        // A weaker level searches its node budget on one thread (so the budget means the same
        // every time); one that chooses at random also searches the lines it chooses from,
        // and the GUI is shown only the lines it asked for.
        let weakness = self.limit_strength.then(|| Weakness::for_elo(self.elo));
        let chooser = weakness.filter(|w| w.temperature > 0.0);
        let mut options = self.options.clone();
        let shown_lines = options.multipv;
        if let Some(weakness) = weakness {
            weakness.restrict(&mut limits, &mut options);
        }
        limits.nodes = match (limits.nodes, self.caps.nodes) {
            (Some(n), Some(cap)) => Some(n.min(cap)),
            (n, cap) => n.or(cap),
        };
        let signals = Arc::new(Signals::default());
        signals
            .pondering
            .store(ponder, std::sync::atomic::Ordering::SeqCst);
        let pos = self.pos.clone();
        let tt = Arc::clone(&self.tt);
        let memory = Arc::clone(&self.memory);
        options.threads = capped(options.threads, self.caps.threads);
        let (dialect, base, show_wdl) = (self.dialect, self.move_base(), self.show_wdl);
        let out = self.out.clone();
        let thread_signals = Arc::clone(&signals);
        let infinite = limits.infinite;
        let thread = std::thread::Builder::new()
            .name("search".into())
            .stack_size(16 * 1024 * 1024)
            .spawn(move || {
                // Every line, when a weaker level chooses among them.
                let mut lines = Vec::new();
                let mut report = |line: &Line| {
                    if chooser.is_some() {
                        lines.push(line.clone());
                    }
                    if line.multipv <= shown_lines {
                        let wdl = show_wdl.then(|| crate::wdl::wdl(line.score, &pos));
                        out.line(&info_line(dialect, base, line, wdl));
                    }
                };
                // The only other user is `clear_hash`, which first waits for this thread.
                let mut memory = memory.lock().unwrap_or_else(PoisonError::into_inner);
                let mut result = search::search(
                    &pos,
                    &tt,
                    &mut memory,
                    &limits,
                    &options,
                    &thread_signals,
                    &mut report,
                );
                if let Some(chooser) = chooser {
                    chooser.play(&mut result, &lines, pos.hash());
                }
                if result.best.is_none() && dialect == Dialect::Uci {
                    // No move to search, so no iteration to report: the score of the position
                    // instead, as Stockfish and Pikafish give it (UCCI has `nobestmove`).
                    out.line("info depth 0 score mate 0");
                }
                out.line(&bestmove_line(dialect, base, &result));
            })
            .expect("the search thread starts");
        self.running = Some(Running {
            signals,
            infinite,
            thread,
        });
    }

    /// The board (ranks labelled as moves name them), FEN and hash, for `d`.
    pub fn describe(&self) -> String {
        format!(
            "{}\nFen: {}\nKey: {:016X}",
            Diagram(&self.pos, self.move_base()),
            self.pos.to_fen(),
            self.pos.hash()
        )
    }
}

fn capped(value: usize, cap: Option<usize>) -> usize {
    cap.map_or(value, |cap| value.min(cap))
}

pub fn parse_position(args: &str, base: RankBase) -> Result<Position, String> {
    let args = args.trim();
    let (setup, moves) = match args.find(" moves") {
        Some(i) => (&args[..i], Some(args[i + " moves".len()..].trim())),
        None if args.ends_with("moves") => (args.trim_end_matches("moves").trim(), Some("")),
        None => (args, None),
    };
    let fen = if setup == "startpos" {
        None
    } else if let Some(fen) = setup.strip_prefix("fen ") {
        Some(fen)
    } else {
        return Err(format!(
            "position: expected 'startpos' or 'fen <FEN>', got '{setup}'"
        ));
    };
    let moves = moves.unwrap_or("").split_whitespace();
    let read_move =
        |pos: &Position, text: &str| parse_move(pos, text, base).map_err(|e| e.to_string());
    position_from(fen, moves, read_move).map_err(|e| format!("position: {e}"))
}

/// Parses a list of moves legal in `pos` (for `banmoves` and `searchmoves`).
pub fn parse_moves(pos: &Position, texts: &[&str], base: RankBase) -> Result<Vec<Move>, String> {
    texts
        .iter()
        .map(|t| parse_move(pos, t, base).map_err(|e| e.to_string()))
        .collect()
}

/// `searchmoves` expressed as the complement: every other legal move is banned.
pub fn ban_all_but(pos: &Position, allowed: &[Move]) -> Vec<Move> {
    legal_moves(pos)
        .iter()
        .copied()
        .filter(|mv| !allowed.contains(mv))
        .collect()
}

fn pv_text(base: RankBase, pv: &[Move]) -> String {
    pv.iter()
        .map(|&mv| crate::board::notation::format_move(mv, base))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `info` line of a search line, with `wdl W D L` after the score when `wdl` is given
/// (UCI only: UCCI has no such field).
pub fn info_line(dialect: Dialect, base: RankBase, line: &Line, wdl: Option<Wdl>) -> String {
    let ms = line.time.as_millis();
    let pv = pv_text(base, &line.pv);
    let wdl = wdl.map_or(String::new(), |w| {
        format!(" wdl {} {} {}", w.win, w.draw, w.loss)
    });
    match dialect {
        Dialect::Uci => format!(
            "info depth {} seldepth {} multipv {} score {}{wdl} nodes {} nps {} hashfull {} time {} pv {}",
            line.depth,
            line.seldepth,
            line.multipv,
            describe(line.score),
            line.nodes,
            line.nps(),
            line.hashfull,
            ms,
            pv
        ),
        Dialect::Ucci => format!(
            "info depth {} score {} time {} nodes {} pv {}",
            line.depth,
            ucci_score(line.score),
            ms,
            line.nodes,
            pv
        ),
    }
}

pub fn bestmove_line(dialect: Dialect, base: RankBase, result: &SearchResult) -> String {
    let Some(best) = result.best else {
        return match dialect {
            Dialect::Uci => "bestmove (none)".to_string(),
            Dialect::Ucci => "nobestmove".to_string(),
        };
    };
    let mut text = format!(
        "bestmove {}",
        crate::board::notation::format_move(best, base)
    );
    if let Some(ponder) = result.ponder {
        text += &format!(
            " ponder {}",
            crate::board::notation::format_move(ponder, base)
        );
    }
    text
}

/// UCCI scores are plain numbers. Mates (and rule endings) go out as ElephantEye writes them,
/// `10000` less the plies to the end, which UCCI hosts show as mates; other scores are
/// centipawns, kept inside that range.
pub fn ucci_score(score: i32) -> i32 {
    const UCCI_MATE: i32 = 10_000;
    if is_mate(score) {
        score.signum() * (UCCI_MATE - mate_plies(score))
    } else {
        score.clamp(-(UCCI_MATE - 200), UCCI_MATE - 200)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_with_moves_in_both_numberings() {
        let zero = parse_position("startpos moves h2e2 h9g7", RankBase::Zero).unwrap();
        let one = parse_position("startpos moves h3e3 h10g8", RankBase::One).unwrap();
        assert_eq!(zero.hash(), one.hash());
        assert_eq!(zero.game_ply(), 2);
    }

    #[test]
    fn searches_of_a_game_share_a_memory_and_a_new_game_clears_it() {
        let mut engine = Engine::with_caps(Dialect::Uci, Output::capture(), Caps::default());
        engine.go(Limits::depth(5), false);
        engine.wait();
        assert!(engine.memory.lock().unwrap().learnt_anything());
        engine.clear_hash();
        assert!(!engine.memory.lock().unwrap().learnt_anything());
    }

    #[test]
    fn bad_positions_are_errors() {
        assert!(parse_position("startpos moves h2e2 zz", RankBase::Zero).is_err());
        assert!(parse_position("startpos moves h2e2 h2e2", RankBase::Zero).is_err());
        assert!(parse_position("fen not/a/fen w", RankBase::Zero).is_err());
        assert!(parse_position("sideways", RankBase::Zero).is_err());
        assert!(parse_position("startpos moves", RankBase::Zero).is_ok());
    }
}
