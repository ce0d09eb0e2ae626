//! One self-play game: an opening, a few seeded random plies, then the engine's own search
//! for both sides until the rules or score adjudication end it. Only quiet positions are kept.

use crate::board::movegen::legal_moves;
use crate::notation::openings::Opening;
use crate::rules::adjudicate;
use crate::samples::{self, Format, Record};
use crate::search::score::is_mate;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Limits, Options, Signals};
use crate::{Color, Position};
use std::sync::atomic::{AtomicBool, Ordering};

/// How games are played and ended.
#[derive(Clone, Debug)]
pub struct Settings {
    pub nodes: u64,
    /// Search to this depth instead of the node limit.
    pub depth: Option<i32>,
    pub random_plies: usize,
    pub seed: u64,
    pub hash_mb: usize,
    /// A side wins when the search has scored the position at least this much for it (Red's
    /// view, both sides' searches) for `win_plies` plies in a row.
    pub win_score: i32,
    pub win_plies: usize,
    /// A draw when, from ply `draw_after`, every score stayed within this for `draw_plies`.
    pub draw_score: i32,
    pub draw_plies: usize,
    pub draw_after: usize,
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
    /// The network both sides evaluate with; the classical evaluation when `None`.
    pub network: Option<std::sync::Arc<crate::nnue::Network>>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            nodes: super::DEFAULT_NODES,
            depth: None,
            random_plies: 8,
            seed: 1,
            hash_mb: 16,
            win_score: 1000,
            win_plies: 8,
            draw_score: 15,
            draw_plies: 20,
            draw_after: 80,
            max_plies: 500,
            network: crate::nnue::default_network(),
        }
    }
}

/// A finished game: its kept positions in the order they were played, each with its search
/// score and the game's result (both for Red), and how many plies the searches played.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub positions: Vec<Record>,
    /// The result for Red in halves: 0 loss, 1 draw, 2 win.
    pub result: u8,
    pub plies: usize,
}

impl GameRecord {
    /// The game's positions in `format`, appended to `out`.
    pub fn encode(&self, format: Format, out: &mut Vec<u8>) {
        for record in &self.positions {
            samples::encode(record, format, out);
        }
    }

    /// The game's lines in the text format, `FEN | score | result`.
    pub fn to_lines(&self) -> String {
        let mut out = Vec::new();
        self.encode(Format::Text, &mut out);
        String::from_utf8(out).expect("text records are UTF-8")
    }
}

/// Game `index`'s own random stream: the same seed and index always give the same game.
fn game_rng(seed: u64, index: u64) -> fastrand::Rng {
    let mixed = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    fastrand::Rng::with_seed(mixed ^ (mixed >> 29))
}

/// A start position: a random opening followed by `random_plies` random legal moves, not
/// already over. Gives up (None) if twenty tries all end the game.
fn start_position(
    settings: &Settings,
    suite: &[Opening],
    rng: &mut fastrand::Rng,
) -> Option<Position> {
    'attempt: for _ in 0..20 {
        let mut pos = suite[rng.usize(..suite.len())].position();
        for _ in 0..settings.random_plies {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                continue 'attempt;
            }
            pos.make_move(moves.as_slice()[rng.usize(..moves.len())]);
        }
        if adjudicate(&pos).is_none() {
            return Some(pos);
        }
    }
    None
}

/// Plays game `index`; `None` if `stop` was raised before it ended.
pub fn play_game(
    settings: &Settings,
    suite: &[Opening],
    index: u64,
    tt: &mut TranspositionTable,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let mut rng = game_rng(settings.seed, index);
    let Some(mut pos) = start_position(settings, suite, &mut rng) else {
        return Some(GameRecord {
            positions: Vec::new(),
            result: 1,
            plies: 0,
        });
    };
    tt.clear();
    // What the searches learn carries from move to move within the game, as in real play.
    let mut memory = search::Memory::default();
    let limits = match settings.depth {
        Some(d) => Limits::depth(d),
        None => Limits {
            nodes: Some(settings.nodes),
            ..Limits::default()
        },
    };
    let options = Options {
        threads: 1,
        move_overhead_ms: 0,
        network: settings.network.clone(),
        ..Options::default()
    };
    let mut positions = Vec::new();
    let mut red_scores: Vec<i32> = Vec::new();
    let mut plies = 0;
    let winner: Option<Color> = loop {
        if let Some(outcome) = adjudicate(&pos) {
            break outcome.winner;
        }
        if plies >= settings.max_plies {
            break None;
        }
        if stop.load(Ordering::SeqCst) {
            return None;
        }
        // A node-limited search raises its own stop signal, so each search needs fresh ones.
        let signals = Signals::default();
        let result = search::search(
            &pos,
            tt,
            &mut memory,
            &limits,
            &options,
            &signals,
            &mut |_| {},
        );
        let Some(best) = result.best else {
            // No legal move: adjudicate would have said so; count it a loss to be safe.
            break Some(!pos.side_to_move());
        };
        let red_score = match pos.side_to_move() {
            Color::Red => result.score,
            Color::Black => -result.score,
        };
        let quiet = !pos.in_check() && pos.piece_at(best.to()).is_none();
        if quiet && !is_mate(result.score) {
            // The result is filled in once the game is over.
            let record = Record::new(&pos, red_score, 1)
                .expect("a position reached by legal moves has at most 32 pieces");
            positions.push(record);
        }
        red_scores.push(red_score);
        if let Some(w) = score_verdict(settings, &red_scores) {
            break w;
        }
        pos.make_move(best);
        plies += 1;
    };
    let result = match winner {
        Some(Color::Red) => 2,
        Some(Color::Black) => 0,
        None => 1,
    };
    for record in &mut positions {
        record.result = result;
    }
    Some(GameRecord {
        positions,
        result,
        plies,
    })
}

/// Score adjudication over the Red-view scores so far: `Some(Some(winner))`, `Some(None)`
/// for a draw, `None` to play on.
fn score_verdict(settings: &Settings, red_scores: &[i32]) -> Option<Option<Color>> {
    let n = red_scores.len();
    if n >= settings.win_plies {
        let window = &red_scores[n - settings.win_plies..];
        if window.iter().all(|&s| s >= settings.win_score) {
            return Some(Some(Color::Red));
        }
        if window.iter().all(|&s| s <= -settings.win_score) {
            return Some(Some(Color::Black));
        }
    }
    if n >= settings.draw_after.max(settings.draw_plies) {
        let window = &red_scores[n - settings.draw_plies..];
        if window.iter().all(|&s| s.abs() <= settings.draw_score) {
            return Some(None);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::openings;

    fn fast() -> Settings {
        Settings {
            nodes: 300,
            hash_mb: 1,
            max_plies: 400,
            ..Settings::default()
        }
    }

    #[test]
    fn games_are_reproducible_and_end() {
        let (suite, _) = openings::load(&Default::default()).unwrap();
        let stop = AtomicBool::new(false);
        let mut tt = TranspositionTable::new(1);
        let a = play_game(&fast(), &suite, 3, &mut tt, &stop).unwrap();
        let b = play_game(&fast(), &suite, 3, &mut tt, &stop).unwrap();
        assert_eq!(a.to_lines(), b.to_lines());
        assert!(a.plies <= 400);
        let c = play_game(&fast(), &suite, 4, &mut tt, &stop).unwrap();
        assert_ne!(a.to_lines(), c.to_lines(), "different games differ");
    }

    #[test]
    fn kept_positions_are_quiet_and_lines_parse() {
        let (suite, _) = openings::load(&Default::default()).unwrap();
        let stop = AtomicBool::new(false);
        let mut tt = TranspositionTable::new(1);
        let game = play_game(&fast(), &suite, 7, &mut tt, &stop).unwrap();
        assert!(!game.positions.is_empty());
        for line in game.to_lines().lines() {
            let parts: Vec<&str> = line.split(" | ").collect();
            assert_eq!(parts.len(), 3, "{line}");
            let pos = Position::from_fen(parts[0]).unwrap();
            assert!(!pos.in_check(), "{line}");
            let score: i32 = parts[1].parse().unwrap();
            assert!(score.abs() < 20_000);
            assert!(["1.0", "0.5", "0.0"].contains(&parts[2]), "{line}");
        }
    }

    #[test]
    fn a_raised_stop_drops_the_game() {
        let (suite, _) = openings::load(&Default::default()).unwrap();
        let stop = AtomicBool::new(true);
        let mut tt = TranspositionTable::new(1);
        assert!(play_game(&fast(), &suite, 0, &mut tt, &stop).is_none());
    }

    #[test]
    fn score_adjudication_needs_the_whole_window() {
        let s = Settings::default();
        let mut scores = vec![0; 10];
        scores.extend([1200; 7]);
        assert_eq!(score_verdict(&s, &scores), None);
        scores.push(1500);
        assert_eq!(score_verdict(&s, &scores), Some(Some(Color::Red)));
        let black = vec![-1000; 8];
        assert_eq!(score_verdict(&s, &black), Some(Some(Color::Black)));
        let level = vec![5; 79];
        assert_eq!(score_verdict(&s, &level), None, "too early for a draw");
        let level = vec![5; 80];
        assert_eq!(score_verdict(&s, &level), Some(None));
    }
}
