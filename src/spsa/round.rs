//! One iteration's games: θ+ and θ− (one engine, started twice and kept from game to game)
//! get the iteration's values as options before every game, then play each pair's opening
//! with colours swapped, on as many workers as the run has slots.

use crate::matchrun::engine::{describe, EngineConfig, EngineProcess, Failure};
use crate::matchrun::game::{self, GameRecord, GameSettings};
use crate::notation::openings::Opening;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// Longest wait for a handshake or a depth- or node-limited move.
pub const HANG_TIMEOUT: Duration = Duration::from_secs(30);

/// Why an iteration did not finish.
pub enum Stop {
    Interrupted,
    Failed(String),
}

/// One iteration's games: each side's option values, and each pair's opening.
pub struct Round<'a> {
    /// θ+ and θ−: the engine under two names.
    pub engines: &'a [EngineConfig; 2],
    pub game: &'a GameSettings,
    pub options: [Vec<(String, String)>; 2],
    pub openings: Vec<&'a Opening>,
}

/// A worker's two engine processes, θ+ and θ−, kept from game to game.
pub type Slot = [Option<EngineProcess>; 2];

/// Starts the engine if it is not running and sets the round's values; a crashed engine is
/// started again once.
fn ready(
    slot: &mut Option<EngineProcess>,
    config: &EngineConfig,
    options: &[(String, String)],
    interrupt: &AtomicBool,
) -> Result<(), Stop> {
    let mut failure = String::new();
    for _ in 0..2 {
        if slot.is_none() {
            let engine = EngineProcess::start(config, HANG_TIMEOUT, interrupt);
            *slot = Some(engine.map_err(|e| {
                if interrupt.load(Ordering::Relaxed) {
                    Stop::Interrupted
                } else {
                    Stop::Failed(e)
                }
            })?);
        }
        let engine = slot.as_mut().expect("started above");
        match engine.set_options(options, HANG_TIMEOUT, interrupt) {
            Ok(()) => return Ok(()),
            Err(Failure::Interrupted) => return Err(Stop::Interrupted),
            Err(f) => {
                failure = format!(
                    "{} failed to take its options: {}",
                    config.name,
                    describe(&f)
                );
                *slot = None;
            }
        }
    }
    Err(Stop::Failed(failure))
}

/// Plays game `index` of the round: pair `index / 2`, θ− playing Red in the second game.
fn play_game(
    slot: &mut Slot,
    round: &Round,
    index: usize,
    interrupt: &AtomicBool,
) -> Result<GameRecord, Stop> {
    for ((engine, config), options) in slot.iter_mut().zip(round.engines).zip(&round.options) {
        ready(engine, config, options, interrupt)?;
    }
    let swapped = index % 2 == 1;
    let [plus, minus] = slot;
    let (plus, minus) = (
        plus.as_mut().expect("ready"),
        minus.as_mut().expect("ready"),
    );
    let engines = if swapped {
        [minus, plus]
    } else {
        [plus, minus]
    };
    let opening = round.openings[index / 2];
    let record = game::play(opening, engines, round.game, interrupt).ok_or(Stop::Interrupted)?;
    // `restart` is by colour; the slot is by side.
    let sides = if swapped { [1, 0] } else { [0, 1] };
    for (restart, side) in record.restart.iter().zip(sides) {
        if *restart {
            slot[side] = None;
        }
    }
    Ok(record)
}

/// Plays the round's games on one worker per slot; the records by game index.
pub fn play_round(
    slots: &mut [Slot],
    round: &Round,
    interrupt: &AtomicBool,
) -> Result<Vec<GameRecord>, Stop> {
    let games = 2 * round.openings.len();
    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let worker = |slot: &mut Slot| {
        let mut played = Vec::new();
        while !abort.load(Ordering::Relaxed) {
            let index = next.fetch_add(1, Ordering::Relaxed);
            if index >= games {
                break;
            }
            match play_game(slot, round, index, interrupt) {
                Ok(record) => played.push((index, record)),
                Err(stop) => {
                    abort.store(true, Ordering::Relaxed);
                    return Err(stop);
                }
            }
        }
        Ok(played)
    };
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = slots
            .iter_mut()
            .map(|slot| scope.spawn(|| worker(slot)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a game worker panicked"))
            .collect()
    });
    let mut records: Vec<Option<GameRecord>> = (0..games).map(|_| None).collect();
    let mut stop = None;
    for result in results {
        match result {
            Ok(played) => played.into_iter().for_each(|(i, r)| records[i] = Some(r)),
            // A failure says more than the interruption it may have caused.
            Err(Stop::Failed(e)) => stop = Some(Stop::Failed(e)),
            Err(Stop::Interrupted) => stop = stop.or(Some(Stop::Interrupted)),
        }
    }
    match stop {
        Some(stop) => Err(stop),
        None => Ok(records
            .into_iter()
            .map(|r| r.expect("every game played"))
            .collect()),
    }
}
