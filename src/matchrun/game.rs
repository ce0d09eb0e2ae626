//! Plays one game between two running engines from an opening, keeping the clocks and
//! ending it by the rules, by score adjudication, or by an engine's failure.

use super::engine::{describe, Engine, Failure, Protocol, Score};
use super::openings::Opening;
use super::timecontrol::{charge, move_deadline, ClockState, Limits};
use crate::board::notation::{format_move, parse_move};
use crate::board::types::{Color, Move};
use crate::rules::adjudicate;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Resign when both engines agree for `moves` moves each that one side is `score` cp ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub moves: u32,
    pub score: i32,
}

/// Draw when, from move `after` on, both engines see |score| <= `score` for `moves` moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub after: u32,
    pub moves: u32,
    pub score: i32,
}

#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Forgiven overrun past the clock or fixed move time.
    pub margin: Duration,
    /// Longest wait for a depth- or node-limited move, and for handshakes.
    pub hang_timeout: Duration,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
}

/// How a game ended, in the categories of the PGN `Termination` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Mate, stalemate, repetition rules, 60-move rule, insufficient material.
    Normal,
    /// Score-based resign or draw agreement of the engines.
    Adjudication,
    TimeForfeit,
    /// An illegal move or a protocol violation.
    RulesInfraction,
    /// The engine crashed.
    Abandoned,
    /// The engine stopped answering with no clock to run out.
    Stalled,
}

impl Termination {
    pub fn tag(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
            Termination::Stalled => "stalled connection",
        }
    }
}

#[derive(Clone, Debug)]
pub struct PlayedMove {
    pub mv: Move,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub time_ms: u64,
    /// Part of the opening, not chosen by an engine.
    pub book: bool,
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    pub red: String,
    pub black: String,
    pub fen: String,
    pub moves: Vec<PlayedMove>,
    pub winner: Option<Color>,
    pub termination: Termination,
    /// Human-readable reason, e.g. "Black mates" or "Red makes an illegal move: a0a5".
    pub reason: String,
    /// Engines (Red, Black) whose process should be restarted before they play again.
    pub restart: [bool; 2],
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// The `go` command for the side to move. UCCI times are whole seconds unless the engine
/// takes milliseconds (`ucci_millis`); seconds are rounded down so no engine is promised time
/// its clock does not have.
fn go_command(
    proto: Protocol,
    ucci_millis: bool,
    limits: &Limits,
    side: Color,
    clocks: &[Option<ClockState>; 2],
    all: [&Limits; 2],
) -> String {
    let mut go = String::from("go");
    let own = clocks[side.index()];
    let opp = clocks[(!side).index()];
    let inc = |c: Color| all[c.index()].clock.map_or(0, |c| c.inc_ms);
    match proto {
        Protocol::Ucci => {
            let unit = |ms: u64| if ucci_millis { ms } else { ms / 1000 };
            if let Some(own) = own {
                let (time, increment) = (unit(own.remaining_ms), unit(inc(side)));
                go += &format!(" time {time} increment {increment}");
                if let Some(n) = own.moves_to_go {
                    go += &format!(" movestogo {n}");
                }
                if let Some(opp) = opp {
                    let (time, increment) = (unit(opp.remaining_ms), unit(inc(!side)));
                    go += &format!(" opptime {time} oppincrement {increment}");
                }
            } else if let Some(ms) = limits.movetime_ms {
                // UCCI has no fixed move time: one move left in a period of that length.
                go += &format!(" time {} movestogo 1", unit(ms));
            }
        }
        Protocol::Uci | Protocol::UciVariant => {
            for c in [Color::Red, Color::Black] {
                if let Some(state) = clocks[c.index()] {
                    let (t, i) = if c == Color::Red {
                        ("wtime", "winc")
                    } else {
                        ("btime", "binc")
                    };
                    go += &format!(" {t} {} {i} {}", state.remaining_ms, inc(c));
                }
            }
            if let Some(n) = own.and_then(|s| s.moves_to_go) {
                go += &format!(" movestogo {n}");
            }
            if let Some(ms) = limits.movetime_ms {
                go += &format!(" movetime {ms}");
            }
        }
    }
    if let Some(d) = limits.depth {
        go += &format!(" depth {d}");
    }
    if let Some(n) = limits.nodes {
        go += &format!(" nodes {n}");
    }
    go
}

/// Red-view scores of the last plies agree with a score rule.
fn score_adjudication(
    scores: &[Option<i32>],
    settings: &GameSettings,
    fullmove: u32,
) -> Option<(Option<Color>, String)> {
    let last = |n: u32| -> Option<&[Option<i32>]> {
        let n = 2 * n as usize;
        (n > 0 && scores.len() >= n).then(|| &scores[scores.len() - n..])
    };
    if let Some(rule) = settings.resign {
        if let Some(window) = last(rule.moves) {
            for winner in [Color::Red, Color::Black] {
                let sign = if winner == Color::Red { 1 } else { -1 };
                if window
                    .iter()
                    .all(|s| s.is_some_and(|s| s * sign >= rule.score))
                {
                    return Some((
                        Some(winner),
                        format!("{} resigns (both engines agree)", side_name(!winner)),
                    ));
                }
            }
        }
    }
    if let Some(rule) = settings.draw {
        if fullmove >= rule.after {
            if let Some(window) = last(rule.moves) {
                if window
                    .iter()
                    .all(|s| s.is_some_and(|s| s.abs() <= rule.score))
                {
                    return Some((None, "draw agreed by score adjudication".into()));
                }
            }
        }
    }
    None
}

/// Plays a game; `None` when interrupted (the game is then not counted).
pub fn play(
    opening: &Opening,
    engines: [&mut Engine; 2],
    settings: &GameSettings,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let [red, black] = engines;
    let mut record = GameRecord {
        red: red.config.name.clone(),
        black: black.config.name.clone(),
        fen: opening.fen.clone(),
        moves: opening
            .moves
            .iter()
            .map(|&mv| PlayedMove {
                mv,
                score: None,
                depth: None,
                time_ms: 0,
                book: true,
            })
            .collect(),
        winner: None,
        termination: Termination::Normal,
        reason: String::new(),
        restart: [false; 2],
    };
    let mut engines = [red, black];
    let limits = [engines[0].config.limits, engines[1].config.limits];
    // Each side's failure ends the game with the other side winning.
    let lose = |record: &mut GameRecord,
                side: Color,
                termination: Termination,
                reason: String,
                restart: bool| {
        record.winner = Some(!side);
        record.termination = termination;
        record.reason = reason;
        record.restart[side.index()] |= restart;
    };
    for color in [Color::Red, Color::Black] {
        let engine = &mut engines[color.index()];
        match engine.new_game(settings.hang_timeout, stop) {
            Ok(()) => {}
            Err(Failure::Interrupted) => return None,
            Err(f) => {
                let reason = format!(
                    "{} ({}) failed to get ready: {}",
                    side_name(color),
                    engine.config.name,
                    describe(&f)
                );
                let termination = if f == Failure::Crashed {
                    Termination::Abandoned
                } else {
                    Termination::Stalled
                };
                lose(&mut record, color, termination, reason, true);
                return Some(record);
            }
        }
    }
    let mut pos = opening.position();
    let mut clocks = limits.map(|l| l.clock.map(|c| ClockState::new(&c)));
    let mut red_view_scores: Vec<Option<i32>> = Vec::new();
    loop {
        if let Some(outcome) = adjudicate(&pos) {
            record.winner = outcome.winner;
            record.termination = Termination::Normal;
            record.reason = match outcome.winner {
                Some(w) => format!("{} wins: {}", side_name(w), outcome.reason.describe()),
                None => outcome.reason.describe().to_string(),
            };
            return Some(record);
        }
        let fullmove = 1 + (record.moves.len() as u32) / 2;
        if let Some((winner, reason)) = score_adjudication(&red_view_scores, settings, fullmove) {
            record.winner = winner;
            record.termination = Termination::Adjudication;
            record.reason = reason;
            return Some(record);
        }
        let side = pos.side_to_move();
        let engine = &mut *engines[side.index()];
        let own = limits[side.index()];
        let base = engine.config.proto.rank_base();
        let moves: Vec<String> = record
            .moves
            .iter()
            .map(|m| format_move(m.mv, base))
            .collect();
        let position = if moves.is_empty() {
            format!("position fen {}", opening.fen)
        } else {
            format!("position fen {} moves {}", opening.fen, moves.join(" "))
        };
        let go = go_command(
            engine.config.proto,
            engine.ucci_millis,
            &own,
            side,
            &clocks,
            [&limits[0], &limits[1]],
        );
        let deadline = move_deadline(
            &own,
            clocks[side.index()].as_ref(),
            settings.margin,
            settings.hang_timeout,
        );
        let timed = own.clock.is_some() || own.movetime_ms.is_some();
        let who = format!("{} ({})", side_name(side), engine.config.name);
        let reply = match engine.think(&position, &go, deadline, stop) {
            Ok(reply) => reply,
            Err(Failure::Interrupted) => return None,
            Err(Failure::Timeout { answered_stop }) => {
                let (termination, reason) = if timed {
                    (Termination::TimeForfeit, format!("{who} loses on time"))
                } else {
                    (
                        Termination::Stalled,
                        format!("{who} did not move within {:.1} s", deadline.as_secs_f64()),
                    )
                };
                lose(&mut record, side, termination, reason, !answered_stop);
                return Some(record);
            }
            Err(Failure::Crashed) => {
                lose(
                    &mut record,
                    side,
                    Termination::Abandoned,
                    format!("{who} crashed"),
                    true,
                );
                return Some(record);
            }
            Err(f @ Failure::Protocol(_)) => {
                lose(
                    &mut record,
                    side,
                    Termination::RulesInfraction,
                    format!("{who}: {}", describe(&f)),
                    true,
                );
                return Some(record);
            }
        };
        let flag_fell = match (limits[side.index()].clock, clocks[side.index()].as_mut()) {
            (Some(clock), Some(state)) => !charge(&clock, state, reply.elapsed, settings.margin),
            _ => own
                .movetime_ms
                .is_some_and(|ms| reply.elapsed > Duration::from_millis(ms) + settings.margin),
        };
        if flag_fell {
            let reason = format!("{who} loses on time ({} ms)", reply.elapsed.as_millis());
            lose(&mut record, side, Termination::TimeForfeit, reason, false);
            return Some(record);
        }
        let mv = match parse_move(&pos, &reply.bestmove, base) {
            Ok(mv) => mv,
            Err(e) => {
                lose(
                    &mut record,
                    side,
                    Termination::RulesInfraction,
                    format!("{who} makes an illegal move: {e}"),
                    false,
                );
                return Some(record);
            }
        };
        pos.make_move(mv);
        let cp = reply.score.map(|s| {
            if side == Color::Red {
                s.as_cp()
            } else {
                -s.as_cp()
            }
        });
        red_view_scores.push(cp);
        record.moves.push(PlayedMove {
            mv,
            score: reply.score,
            depth: reply.depth,
            time_ms: reply.elapsed.as_millis() as u64,
            book: false,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchrun::timecontrol::parse_clock;

    fn settings(resign: Option<ResignRule>, draw: Option<DrawRule>) -> GameSettings {
        GameSettings {
            margin: Duration::ZERO,
            hang_timeout: Duration::from_secs(1),
            resign,
            draw,
        }
    }

    #[test]
    fn go_commands_per_protocol() {
        let red = Limits {
            clock: Some(parse_clock("10+0.1").unwrap()),
            ..Limits::default()
        };
        let black = red;
        let clocks = [
            Some(ClockState::new(&red.clock.unwrap())),
            Some(ClockState {
                remaining_ms: 9000,
                moves_to_go: None,
            }),
        ];
        let uci = go_command(
            Protocol::Uci,
            false,
            &black,
            Color::Black,
            &clocks,
            [&red, &black],
        );
        assert_eq!(uci, "go wtime 10000 winc 100 btime 9000 binc 100");
        let ucci = go_command(
            Protocol::Ucci,
            true,
            &black,
            Color::Black,
            &clocks,
            [&red, &black],
        );
        assert_eq!(
            ucci,
            "go time 9000 increment 100 opptime 10000 oppincrement 100"
        );
        let ucci_seconds = go_command(
            Protocol::Ucci,
            false,
            &black,
            Color::Black,
            &clocks,
            [&red, &black],
        );
        assert_eq!(
            ucci_seconds,
            "go time 9 increment 0 opptime 10 oppincrement 0"
        );
        let depth = Limits {
            depth: Some(4),
            nodes: Some(100),
            ..Limits::default()
        };
        assert_eq!(
            go_command(
                Protocol::Uci,
                false,
                &depth,
                Color::Red,
                &[None, None],
                [&depth, &depth]
            ),
            "go depth 4 nodes 100"
        );
    }

    #[test]
    fn resign_needs_both_engines_for_enough_moves() {
        let s = settings(
            Some(ResignRule {
                moves: 2,
                score: 500,
            }),
            None,
        );
        let winning = [Some(600), Some(700), Some(650), Some(900)];
        assert_eq!(
            score_adjudication(&winning, &s, 30).unwrap().0,
            Some(Color::Red)
        );
        assert!(score_adjudication(&winning[1..], &s, 30).is_none());
        let one_disagrees = [Some(600), Some(100), Some(650), Some(900)];
        assert!(score_adjudication(&one_disagrees, &s, 30).is_none());
        let black = [
            Some(-600),
            Some(-700),
            None,
            Some(-900),
            Some(-900),
            Some(-900),
            Some(-900),
        ];
        assert_eq!(
            score_adjudication(&black, &s, 30).unwrap().0,
            Some(Color::Black)
        );
    }

    #[test]
    fn draw_only_after_the_move_number() {
        let s = settings(
            None,
            Some(DrawRule {
                after: 40,
                moves: 2,
                score: 10,
            }),
        );
        let level = [Some(5), Some(-3), Some(0), Some(10)];
        assert!(score_adjudication(&level, &s, 39).is_none());
        assert_eq!(score_adjudication(&level, &s, 40).unwrap().0, None);
    }
}
