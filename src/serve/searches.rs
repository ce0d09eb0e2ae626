//! The tabs' searches, at most a fixed number at once: each of that many slots owns a hash
//! table and a search memory, lent to one search at a time. A search waits for a free slot (its
//! tab is told it is queued) and gives up waiting when its tab stops it or moves on. Progress
//! goes to the tab as `info` events, the answer as one `done` event.

use super::api::{color_name, GameLine};
use super::http::ApiError;
use super::tabs::{lock, Tab, Tabs};
use crate::board::position::Position;
use crate::notation::Notation;
use crate::search::score::{describe, human_score, ScoreText};
use crate::search::tt::TranspositionTable;
use crate::search::{self, Limits, Line, Memory, Options, Signals};
use crate::strength::{Weakness, MAX_ELO, MIN_ELO};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Hash table of each slot, MB.
const SLOT_HASH_MB: usize = 32;
/// Analysis runs this long unless told otherwise, and never longer than the cap.
const ANALYSIS_MS: u64 = 60_000;
const MAX_ANALYSIS_MS: u64 = 600_000;
/// The engine's time per move: default and range.
const PLAY_MS: u64 = 1_000;
const PLAY_MS_RANGE: std::ops::RangeInclusive<u64> = 50..=60_000;
/// Lines an analysis may show.
const MAX_LINES: usize = 5;
/// The search runs its main thread here, with the stack the protocol's search thread has.
const SEARCH_STACK: usize = 16 * 1024 * 1024;

struct Slot {
    tt: TranspositionTable,
    memory: Memory,
}

/// The slots, and the searches waiting for one.
pub(crate) struct Pool {
    free: Mutex<Vec<Slot>>,
    freed: Condvar,
}

impl Pool {
    /// `size` slots: that many searches may run at once.
    pub(crate) fn new(size: usize) -> Pool {
        Pool {
            free: Mutex::new(
                (0..size.max(1))
                    .map(|_| Slot {
                        tt: TranspositionTable::new(SLOT_HASH_MB),
                        memory: Memory::default(),
                    })
                    .collect(),
            ),
            freed: Condvar::new(),
        }
    }

    /// A free slot, waiting for one while `signals` does not say stop (then `None`).
    fn acquire(&self, signals: &Signals, queued: impl FnOnce()) -> Option<Slot> {
        let mut free = lock(&self.free);
        let mut queued = Some(queued);
        loop {
            if signals.stop.load(Ordering::SeqCst) {
                return None;
            }
            if let Some(slot) = free.pop() {
                return Some(slot);
            }
            if let Some(tell) = queued.take() {
                tell();
            }
            free = self
                .freed
                .wait_timeout(free, Duration::from_millis(50))
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0;
        }
    }

    fn release(&self, slot: Slot) {
        lock(&self.free).push(slot);
        self.freed.notify_one();
    }
}

/// `POST /api/search`: what to search and how.
#[derive(Deserialize, Debug)]
pub(crate) struct SearchRequest {
    pub tab: String,
    #[serde(flatten)]
    pub line: GameLine,
    /// `analyse` (lines and scores until stopped or `movetime` runs out) or `play` (the
    /// engine's move, at `elo` within `movetime`).
    pub mode: String,
    /// Milliseconds (analysis: default 60 s, at most 600 s; play: default 1 s, 50 ms to 60 s).
    #[serde(default)]
    pub movetime: Option<u64>,
    /// Lines shown (analysis), 1 to 5.
    #[serde(default)]
    pub multipv: Option<usize>,
    /// The engine's level, as `UCI_Elo` (play; default full strength).
    #[serde(default)]
    pub elo: Option<i64>,
}

/// A search ready to run.
struct Job {
    pos: Position,
    limits: Limits,
    options: Options,
    weakness: Option<Weakness>,
    shown_lines: usize,
    mode: &'static str,
}

impl SearchRequest {
    fn job(&self) -> Result<Job, ApiError> {
        let game = self.line.replay()?;
        let pos = game.position_at(self.line.ply(&game)?);
        let mut options = Options {
            move_overhead_ms: 0,
            ..Options::default()
        };
        let (mode, limits, weakness) = match self.mode.as_str() {
            "analyse" => {
                let lines = self.multipv.unwrap_or(1);
                if !(1..=MAX_LINES).contains(&lines) {
                    return Err(ApiError::bad_request(format!(
                        "multipv {lines}: expected 1 to {MAX_LINES}"
                    )));
                }
                options.multipv = lines;
                let ms = self.movetime.unwrap_or(ANALYSIS_MS).min(MAX_ANALYSIS_MS);
                ("analyse", Limits::movetime(ms.max(1)), None)
            }
            "play" => {
                let ms = self.movetime.unwrap_or(PLAY_MS);
                if !PLAY_MS_RANGE.contains(&ms) {
                    return Err(ApiError::bad_request(format!(
                        "movetime {ms}: expected {} to {} ms",
                        PLAY_MS_RANGE.start(),
                        PLAY_MS_RANGE.end()
                    )));
                }
                let weakness = match self.elo {
                    None => None,
                    Some(elo) if (MIN_ELO..=MAX_ELO).contains(&elo) => Some(Weakness::for_elo(elo)),
                    Some(elo) => {
                        return Err(ApiError::bad_request(format!(
                            "elo {elo}: expected {MIN_ELO} to {MAX_ELO}"
                        )))
                    }
                };
                ("play", Limits::movetime(ms), weakness)
            }
            other => {
                return Err(ApiError::bad_request(format!(
                    "mode '{other}': expected analyse or play"
                )))
            }
        };
        let shown_lines = options.multipv;
        let mut limits = limits;
        if let Some(weakness) = weakness {
            weakness.restrict(&mut limits, &mut options);
        }
        Ok(Job {
            pos,
            limits,
            options,
            weakness,
            shown_lines,
            mode,
        })
    }
}

/// Starts the search a tab asked for in the background, replacing the tab's current one.
pub(crate) fn start(
    tabs: &Tabs,
    pool: &Arc<Pool>,
    request: SearchRequest,
) -> Result<Value, ApiError> {
    let tab = tabs.get(&request.tab)?;
    let job = request.job()?;
    let (id, signals) = tab.replace_search();
    let pool = Arc::clone(pool);
    let thread_tab = Arc::clone(&tab);
    std::thread::Builder::new()
        .name("serve-search".into())
        .stack_size(SEARCH_STACK)
        .spawn(move || run(&pool, &thread_tab, id, &signals, job))
        .map_err(|e| {
            tab.search_ended(id);
            ApiError::unavailable(format!("cannot start a search: {e}"))
        })?;
    Ok(json!({ "search": id }))
}

/// `POST /api/stop`: stops the tab's search; its `done` event follows.
pub(crate) fn stop(tabs: &Tabs, tab: &str) -> Result<Value, ApiError> {
    tabs.get(tab)?.stop_search();
    Ok(json!({ "stopped": true }))
}

fn run(pool: &Pool, tab: &Tab, id: u64, signals: &Signals, job: Job) {
    let queued = || tab.send("queued", &json!({ "search": id }), true);
    let Some(mut slot) = pool.acquire(signals, queued) else {
        tab.send(
            "done",
            &json!({ "search": id, "mode": job.mode, "move": null }),
            false,
        );
        tab.search_ended(id);
        return;
    };
    let pos = &job.pos;
    let mut lines = Vec::new();
    let mut report = |line: &Line| {
        if job.weakness.is_some_and(|w| w.temperature > 0.0) {
            lines.push(line.clone());
        }
        if line.multipv <= job.shown_lines {
            tab.send("info", &info_json(id, job.mode, pos, line), true);
        }
    };
    let mut result = search::search(
        pos,
        &slot.tt,
        &mut slot.memory,
        &job.limits,
        &job.options,
        signals,
        &mut report,
    );
    pool.release(slot);
    if let Some(weakness) = job.weakness.filter(|w| w.temperature > 0.0) {
        weakness.play(&mut result, &lines, pos.hash());
    }
    tab.send(
        "done",
        &json!({
            "search": id,
            "mode": job.mode,
            "move": result.best.map(|mv| mv.to_string()),
        }),
        false,
    );
    tab.search_ended(id);
}

/// One line of a search as the page shows it: scores from the side to move's view (the page
/// turns them to Red's for the bar), the line in every notation.
fn info_json(id: u64, mode: &str, pos: &Position, line: &Line) -> Value {
    let wdl = crate::wdl::wdl(line.score, pos);
    let score = match describe(line.score) {
        ScoreText::Cp(cp) => json!({ "cp": cp }),
        ScoreText::Mate(n) => json!({ "mate": n }),
    };
    let pv = |notation: Notation| notation.format_line(pos, &line.pv);
    json!({
        "search": id,
        "mode": mode,
        "side": color_name(pos.side_to_move()),
        "depth": line.depth,
        "seldepth": line.seldepth,
        "multipv": line.multipv,
        "score": score,
        "score_text": human_score(line.score),
        "wdl": [wdl.win, wdl.draw, wdl.loss],
        "nodes": line.nodes,
        "nps": line.nps(),
        "time": line.time.as_millis() as u64,
        "pv": {
            "iccs": pv(Notation::Iccs),
            "wxf": pv(Notation::Wxf),
            "chinese": pv(Notation::Chinese),
        },
    })
}
