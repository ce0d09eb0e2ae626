//! Plays one game between two running engines from an opening, keeping the clocks and
//! ending it by the rules, by score adjudication, or by an engine's failure.

use super::engine::{describe, Engine, Failure, Protocol, Score};
use super::openings::Opening;
use super::timecontrol::{charge, move_deadline, ClockState, Limits};
use crate::notation::{format_move, parse_move};
use crate::rules::adjudicate;
use crate::{Color, Move, Position};
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

/// One side's failure: it loses the game, in this PGN category, for this reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    pub termination: Termination,
    pub reason: String,
    /// The engine's process must be restarted before it plays again.
    pub restart: bool,
}

/// What the engine was doing when talking to it failed.
#[derive(Clone, Copy, Debug)]
enum Stage {
    /// `ucinewgame` / `isready` before the game.
    Ready,
    /// Thinking on a move: `timed` when a clock or move time runs, `waited` the deadline.
    Move { timed: bool, waited: Duration },
}

impl Forfeit {
    /// The one mapping from a failed exchange with engine `who` to its loss; `None` when the
    /// match is being stopped (the game then does not count).
    fn from_failure(failure: Failure, who: &str, stage: Stage) -> Option<Forfeit> {
        let (termination, reason, restart) = match (failure, stage) {
            (Failure::Interrupted, _) => return None,
            (f, Stage::Ready) => (
                if f == Failure::Crashed {
                    Termination::Abandoned
                } else {
                    Termination::Stalled
                },
                format!("{who} failed to get ready: {}", describe(&f)),
                true,
            ),
            (Failure::Timeout { answered_stop }, Stage::Move { timed: true, .. }) => (
                Termination::TimeForfeit,
                format!("{who} loses on time"),
                !answered_stop,
            ),
            (Failure::Timeout { answered_stop }, Stage::Move { waited, .. }) => (
                Termination::Stalled,
                format!("{who} did not move within {:.1} s", waited.as_secs_f64()),
                !answered_stop,
            ),
            (Failure::Crashed, Stage::Move { .. }) => {
                (Termination::Abandoned, format!("{who} crashed"), true)
            }
            (f @ Failure::Protocol(_), Stage::Move { .. }) => (
                Termination::RulesInfraction,
                format!("{who}: {}", describe(&f)),
                true,
            ),
        };
        Some(Forfeit {
            termination,
            reason,
            restart,
        })
    }
}

/// Why a turn produced no move.
enum Halt {
    /// The match is being stopped.
    Interrupted,
    /// The side to move loses.
    Lost(Forfeit),
}

impl GameRecord {
    /// A game about to start from `opening`, its book moves already in the record.
    pub fn new(red: &str, black: &str, opening: &Opening) -> GameRecord {
        GameRecord {
            red: red.to_string(),
            black: black.to_string(),
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
        }
    }

    fn end(&mut self, winner: Option<Color>, termination: Termination, reason: String) {
        self.winner = winner;
        self.termination = termination;
        self.reason = reason;
    }

    /// `side` loses by its own failure.
    pub fn forfeit(&mut self, side: Color, forfeit: Forfeit) {
        self.end(Some(!side), forfeit.termination, forfeit.reason);
        self.restart[side.index()] |= forfeit.restart;
    }
}

/// The game is over before the side to move is asked: by the rules, or by score adjudication.
fn game_over(
    pos: &Position,
    record: &GameRecord,
    red_view_scores: &[Option<i32>],
    settings: &GameSettings,
) -> Option<(Option<Color>, Termination, String)> {
    if let Some(outcome) = adjudicate(pos) {
        let reason = match outcome.winner {
            Some(w) => format!("{} wins: {}", side_name(w), outcome.reason.describe()),
            None => outcome.reason.describe().to_string(),
        };
        return Some((outcome.winner, Termination::Normal, reason));
    }
    let fullmove = 1 + (record.moves.len() as u32) / 2;
    score_adjudication(red_view_scores, settings, fullmove)
        .map(|(winner, reason)| (winner, Termination::Adjudication, reason))
}

/// Asks the side to move for its move and checks it: in time, and legal.
fn engine_move(
    engine: &mut Engine,
    pos: &Position,
    record: &GameRecord,
    limits: [Limits; 2],
    clocks: &mut [Option<ClockState>; 2],
    settings: &GameSettings,
    stop: &AtomicBool,
) -> Result<PlayedMove, Halt> {
    let side = pos.side_to_move();
    let own = limits[side.index()];
    let base = engine.config.proto.rank_base();
    let moves: Vec<String> = record
        .moves
        .iter()
        .map(|m| format_move(m.mv, base))
        .collect();
    let position = if moves.is_empty() {
        format!("position fen {}", record.fen)
    } else {
        format!("position fen {} moves {}", record.fen, moves.join(" "))
    };
    let go = go_command(
        engine.config.proto,
        engine.ucci_millis,
        &own,
        side,
        clocks,
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
    let lost = |termination, reason| {
        Halt::Lost(Forfeit {
            termination,
            reason,
            restart: false,
        })
    };
    let reply = engine
        .think(&position, &go, deadline, stop)
        .map_err(|failure| {
            let stage = Stage::Move {
                timed,
                waited: deadline,
            };
            Forfeit::from_failure(failure, &who, stage).map_or(Halt::Interrupted, Halt::Lost)
        })?;
    let flag_fell = match (own.clock, clocks[side.index()].as_mut()) {
        (Some(clock), Some(state)) => !charge(&clock, state, reply.elapsed, settings.margin),
        _ => own
            .movetime_ms
            .is_some_and(|ms| reply.elapsed > Duration::from_millis(ms) + settings.margin),
    };
    if flag_fell {
        let reason = format!("{who} loses on time ({} ms)", reply.elapsed.as_millis());
        return Err(lost(Termination::TimeForfeit, reason));
    }
    let mv = parse_move(pos, &reply.bestmove, base).map_err(|e| {
        lost(
            Termination::RulesInfraction,
            format!("{who} makes an illegal move: {e}"),
        )
    })?;
    Ok(PlayedMove {
        mv,
        score: reply.score,
        depth: reply.depth,
        time_ms: reply.elapsed.as_millis() as u64,
        book: false,
    })
}

/// Plays a game; `None` when interrupted (the game is then not counted).
pub fn play(
    opening: &Opening,
    engines: [&mut Engine; 2],
    settings: &GameSettings,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let mut engines = engines;
    let mut record = GameRecord::new(&engines[0].config.name, &engines[1].config.name, opening);
    let limits = [engines[0].config.limits, engines[1].config.limits];

    // ---- both engines ready -------------------------------------------------------------
    for color in [Color::Red, Color::Black] {
        let engine = &mut engines[color.index()];
        if let Err(failure) = engine.new_game(settings.hang_timeout, stop) {
            let who = format!("{} ({})", side_name(color), engine.config.name);
            record.forfeit(color, Forfeit::from_failure(failure, &who, Stage::Ready)?);
            return Some(record);
        }
    }

    // ---- moves until the game is over ---------------------------------------------------
    let mut pos = opening.position();
    let mut clocks = limits.map(|l| l.clock.map(|c| ClockState::new(&c)));
    let mut red_view_scores: Vec<Option<i32>> = Vec::new();
    loop {
        if let Some((winner, termination, reason)) =
            game_over(&pos, &record, &red_view_scores, settings)
        {
            record.end(winner, termination, reason);
            return Some(record);
        }
        let side = pos.side_to_move();
        let engine = &mut *engines[side.index()];
        let played = match engine_move(engine, &pos, &record, limits, &mut clocks, settings, stop) {
            Ok(played) => played,
            Err(Halt::Interrupted) => return None,
            Err(Halt::Lost(forfeit)) => {
                record.forfeit(side, forfeit);
                return Some(record);
            }
        };
        pos.make_move(played.mv);
        let cp = played.score.map(|s| {
            if side == Color::Red {
                s.as_cp()
            } else {
                -s.as_cp()
            }
        });
        red_view_scores.push(cp);
        record.moves.push(played);
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
