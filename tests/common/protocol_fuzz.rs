//! The check behind the `protocol` fuzz target, shared with the corpus replay in `cargo test`:
//! the input's lines go one by one to a protocol session (UCI or UCCI, as its first line
//! chooses) whose output is captured. Properties: no panic; every command returns (searches
//! are bounded by the harness caps, and infinite or ponder searches end at the next `go`,
//! `position`, `stop` or the end of input); a rejected command leaves the position and the
//! settings as they were; no `go` is refused, however bad its parameters, and every `go`
//! ends in exactly one `bestmove`/`nobestmove`, after at least one `info depth` line when it
//! has a move (UCI's `bestmove (none)` right after `info depth 0 score mate 0`), whose moves
//! and whose PV moves are legal in the position searched; `d` shows the position the engine
//! holds.
//!
//! Commands arrive at whatever moment the harness reaches them, usually while a search has
//! barely started, except `isready`: there the harness lets a search that ends by itself run to
//! its end first (any interleaving is one a GUI could produce), so inputs can reach the search's
//! output deterministically.

use chariot::board::movegen::legal_moves;
use chariot::board::notation::{parse_move, RankBase};
use chariot::protocol::engine::{Dialect, Engine};
use chariot::protocol::{Caps, Outcome, Output, Session};
use chariot::{Move, Position};

/// Small enough that one input runs in milliseconds: a 1 MB table, two threads, 3000 nodes.
pub const CAPS: Caps = Caps {
    hash_mb: Some(1),
    threads: Some(2),
    nodes: Some(3000),
};

/// At most this many lines of one input are played.
const MAX_LINES: usize = 200;

/// What a rejected command must not change.
#[derive(Debug, PartialEq, Eq)]
struct State {
    fen: String,
    hash: u64,
    plies: usize,
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    move_overhead_ms: u64,
    base: RankBase,
    ucci_millis: bool,
    banned: Vec<Move>,
}

impl State {
    fn of(engine: &Engine) -> State {
        State {
            fen: engine.pos.to_fen(),
            hash: engine.pos.hash(),
            plies: engine.pos.history().len(),
            hash_mb: engine.hash_mb,
            threads: engine.options.threads,
            multipv: engine.options.multipv,
            move_overhead_ms: engine.options.move_overhead_ms,
            base: engine.base,
            ucci_millis: engine.ucci_millis,
            banned: engine.options.banned.clone(),
        }
    }
}

/// One accepted `go`: what its output must agree with.
struct Search {
    pos: Position,
    base: RankBase,
    dialect: Dialect,
    banned: Vec<Move>,
    command: String,
}

impl Search {
    /// Plays `texts` from the searched position; each must be legal where it is played.
    fn replay(&self, texts: &[&str], line: &str) -> Position {
        let mut pos = self.pos.clone();
        for text in texts {
            let mv = parse_move(&pos, text, self.base).unwrap_or_else(|e| {
                panic!(
                    "'{line}' after '{}' in {}: {e}",
                    self.command,
                    self.pos.to_fen()
                )
            });
            pos.make_move(mv);
        }
        pos
    }

    fn check_bestmove(&self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let playable = legal_moves(&self.pos)
            .iter()
            .any(|mv| !self.banned.contains(mv));
        let none = match self.dialect {
            Dialect::Uci => words == ["bestmove", "(none)"],
            Dialect::Ucci => words == ["nobestmove"],
        };
        assert_eq!(
            none,
            !playable,
            "'{line}' after '{}' in {} (banned {:?})",
            self.command,
            self.pos.to_fen(),
            self.banned
        );
        if none {
            return;
        }
        let moves: Vec<&str> = match words.as_slice() {
            ["bestmove", best] => vec![best],
            ["bestmove", best, "ponder", reply] => vec![best, reply],
            _ => panic!("malformed '{line}' after '{}'", self.command),
        };
        self.replay(&moves, line);
        let best = parse_move(&self.pos, moves[0], self.base).expect("checked by replay");
        assert!(
            !self.banned.contains(&best),
            "banned move played: '{line}' after '{}'",
            self.command
        );
    }
}

/// What one input exercised, so the corpus replay can insist its seeds reach the checks.
#[derive(Debug, Default)]
pub struct Summary {
    pub commands: usize,
    pub rejected: usize,
    pub searches: usize,
    pub bestmoves: usize,
    pub infos: usize,
}

/// Runs the protocol check on one fuzz input.
pub fn protocol(data: &[u8]) -> Summary {
    let mut summary = Summary::default();
    let out = Output::capture();
    let mut session = Session::with_caps(out.clone(), CAPS);
    let mut searches = Vec::new();
    let mut lines = Vec::new();
    for raw in data.split(|&b| b == b'\n').take(MAX_LINES) {
        let text = String::from_utf8_lossy(raw).trim().to_string();
        let before = session.engine().map(State::of);
        let outcome = session.command_bytes(raw);
        if text == "isready" {
            session.wait();
        }
        let is_go = text.split_whitespace().next() == Some("go");
        assert!(
            !(is_go && matches!(outcome, Outcome::Rejected(_))),
            "'{text}' was refused: a GUI would wait for its bestmove forever"
        );
        summary.commands += usize::from(!text.is_empty());
        summary.rejected += usize::from(matches!(outcome, Outcome::Rejected(_)));
        let engine = session.engine();
        match (&outcome, engine) {
            (Outcome::Rejected(message), Some(engine)) => {
                let after = State::of(engine);
                let expected = before.unwrap_or_else(|| State::of(&fresh(engine.dialect)));
                assert_eq!(
                    after, expected,
                    "rejected '{text}' ({message}) changed the engine"
                );
            }
            (Outcome::Done, Some(engine)) if is_go => {
                searches.push(Search {
                    pos: engine.pos.clone(),
                    base: engine.move_base(),
                    dialect: engine.dialect,
                    banned: engine.options.banned.clone(),
                    command: text.clone(),
                });
            }
            (Outcome::Done, Some(engine)) if text == "d" => {
                let fen = format!("Fen: {}", engine.pos.to_fen());
                let shown = out.take();
                assert!(shown.contains(&fen), "'d' did not show {fen}");
                lines.extend(shown);
            }
            _ => {}
        }
        lines.extend(out.take());
        if outcome == Outcome::Quit {
            break;
        }
    }
    session.finish();
    lines.extend(out.take());
    check_search_output(&searches, &lines);
    summary.searches = searches.len();
    summary.bestmoves = lines
        .iter()
        .filter(|l| l.starts_with("bestmove") || *l == "nobestmove")
        .count();
    summary.infos = lines.iter().filter(|l| l.starts_with("info depth")).count();
    summary
}

/// The state of a new engine (the first command creates it, so a refused first command must
/// leave exactly that).
fn fresh(dialect: Dialect) -> Engine {
    Engine::with_caps(dialect, Output::capture(), CAPS)
}

/// Search `k`'s lines come after the (k-1)-th bestmove and end with the k-th: a new search
/// starts only after the previous one has written its bestmove, and one that found a move
/// has reported at least one iteration.
fn check_search_output(searches: &[Search], lines: &[String]) {
    let mut finished = 0;
    let mut infos = 0;
    let mut last_info = None;
    for line in lines {
        let is_best = line.starts_with("bestmove") || line == "nobestmove";
        let is_info = line.starts_with("info depth");
        if !is_best && !is_info {
            continue;
        }
        let search = searches.get(finished).unwrap_or_else(|| {
            panic!(
                "'{line}' with no search running ({} searches)",
                searches.len()
            )
        });
        if is_best {
            search.check_bestmove(line);
            let moved = line.starts_with("bestmove") && line != "bestmove (none)";
            assert!(
                infos > 0 || !moved,
                "'{line}' with no info line after '{}'",
                search.command
            );
            if line == "bestmove (none)" {
                assert_eq!(
                    last_info.as_deref(),
                    Some("info depth 0 score mate 0"),
                    "'{line}' after '{}' without the score of the position",
                    search.command
                );
            }
            finished += 1;
            infos = 0;
            last_info = None;
        } else {
            last_info = Some(line.clone());
            if let Some((_, pv)) = line.split_once(" pv ") {
                infos += 1;
                let pv: Vec<&str> = pv.split_whitespace().collect();
                search.replay(&pv, line);
            }
        }
    }
    assert_eq!(
        finished,
        searches.len(),
        "{} searches started, {finished} bestmoves",
        searches.len()
    );
}
