//! Plays one game between two running engines from an opening, keeping the clocks and
//! ending it by the rules, by score adjudication, or by an engine's failure.

use super::engine::{describe, Answer, EngineProcess, Failure, Protocol, ReportedScore};
use super::timecontrol::{
    charge, default_movetime_margin, move_deadline, ucci_movetime_budget, ClockState, MoveLimits,
};
use crate::board::notation::{format_move, parse_move};
use crate::console::count;
use crate::notation::openings::Opening;
use crate::rules::{
    adjudicate, earlier_occurrences, insufficient_material, judge_cycle, GameOutcome, Reason,
    RULE60_PLIES,
};
use crate::{Color, Move, Position};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Resign when both engines agree for `moves` moves each that one side is `score` cp ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub moves: u32,
    pub score: i32,
}

impl ResignRule {
    /// The rule in words, for the report and `--dry-run`.
    pub fn describe(&self) -> String {
        format!("{} moves at {} cp", self.moves, self.score)
    }
}

/// Draw when, from move `after` on, both engines see |score| <= `score` for `moves` moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub after: u32,
    pub moves: u32,
    pub score: i32,
}

impl DrawRule {
    /// The rule in words, for the report and `--dry-run`.
    pub fn describe(&self) -> String {
        format!(
            "from move {}, {} moves within {} cp",
            self.after, self.moves, self.score
        )
    }
}

#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Forgiven overrun past the clock or fixed move time (`--timemargin`); `None`: none on
    /// a clock, [`default_movetime_margin`] on a fixed move time.
    pub margin: Option<Duration>,
    /// Longest wait for a depth- or node-limited move, and for handshakes.
    pub hang_timeout: Duration,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    /// Plies without capture that draw the game (`--draw-plies`; 120 is the 60-move rule,
    /// 100 the 50-move convention of ElephantEye and others).
    pub draw_plies: u16,
    /// Moves per side after which a game still going is drawn (`--max-moves`).
    pub max_moves: Option<u32>,
}

impl GameSettings {
    /// Settings with the rules' defaults and no adjudication.
    pub fn new(margin: Option<Duration>, hang_timeout: Duration) -> GameSettings {
        GameSettings {
            margin,
            hang_timeout,
            resign: None,
            draw: None,
            draw_plies: RULE60_PLIES,
            max_moves: None,
        }
    }

    /// The margin for an engine moving under `limits`.
    pub fn margin_for(&self, limits: &MoveLimits) -> Duration {
        self.margin
            .unwrap_or(match (limits.clock, limits.movetime_ms) {
                (None, Some(ms)) => default_movetime_margin(ms),
                _ => Duration::ZERO,
            })
    }
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
    const ALL: [Termination; 6] = [
        Termination::Normal,
        Termination::Adjudication,
        Termination::TimeForfeit,
        Termination::RulesInfraction,
        Termination::Abandoned,
        Termination::Stalled,
    ];

    /// The category a `Termination` tag names.
    pub fn from_tag(tag: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.tag() == tag)
    }

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
    pub score: Option<ReportedScore>,
    pub depth: Option<u32>,
    /// Time the engine took, as the runner measured it (to the microsecond).
    pub time: Duration,
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
    /// The kind of ending in a word or two ("checkmate", "false claim", ...), for the
    /// summary's and the report's counts by reason.
    pub label: &'static str,
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
    limits: &MoveLimits,
    side: Color,
    clocks: &[Option<ClockState>; 2],
    all: [&MoveLimits; 2],
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
                // UCCI has no fixed move time: one move left in a period a little shorter.
                go += &format!(" time {} movestogo 1", unit(ucci_movetime_budget(ms)));
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
    /// As [`GameRecord::label`].
    pub label: &'static str,
    /// The engine's process must be restarted before it plays again.
    pub restart: bool,
}

/// What the engine was doing when talking to it failed.
#[derive(Clone, Copy, Debug)]
enum Stage {
    /// `ucinewgame` / `isready` before the game.
    Ready,
    /// Thinking on a move: `timed` when a clock or move time runs, `waited` the deadline,
    /// `margin` the part of it past the clock or move time.
    Move {
        timed: bool,
        waited: Duration,
        margin: Duration,
    },
}

impl Forfeit {
    /// The one mapping from a failed exchange with engine `who` to its loss; `None` when the
    /// match is being stopped (the game then does not count).
    fn from_failure(failure: Failure, who: &str, stage: Stage) -> Option<Forfeit> {
        let (termination, label, reason, restart) = match (failure, stage) {
            (Failure::Interrupted, _) => return None,
            (f, Stage::Ready) => {
                let (termination, label) = if f == Failure::Crashed {
                    (Termination::Abandoned, "crash")
                } else {
                    (Termination::Stalled, "stalled")
                };
                let reason = format!("{who} failed to get ready: {}", describe(&f));
                (termination, label, reason, true)
            }
            (
                Failure::Timeout {
                    answered_stop,
                    took,
                },
                Stage::Move {
                    timed: true,
                    waited,
                    margin,
                },
            ) => (
                Termination::TimeForfeit,
                "time forfeit",
                format!(
                    "{who} loses on time: {}",
                    overrun(took, waited - margin, margin)
                ),
                !answered_stop,
            ),
            (Failure::Timeout { answered_stop, .. }, Stage::Move { waited, .. }) => (
                Termination::Stalled,
                "stalled",
                format!("{who} did not move within {:.1} s", waited.as_secs_f64()),
                !answered_stop,
            ),
            (Failure::Crashed, Stage::Move { .. }) => (
                Termination::Abandoned,
                "crash",
                format!("{who} crashed"),
                true,
            ),
            (f @ Failure::Protocol(_), Stage::Move { .. }) => (
                Termination::RulesInfraction,
                "protocol error",
                format!("{who}: {}", describe(&f)),
                true,
            ),
        };
        Some(Forfeit {
            termination,
            reason,
            label,
            restart,
        })
    }
}

/// How a move overran its time: `12 ms over` where the engine answered at last.
fn overrun(took: Option<Duration>, allowed: Duration, margin: Duration) -> String {
    let ms = |d: Duration| d.as_millis();
    match took {
        Some(took) => format!(
            "{} ms used of {} ms + {} ms margin, {} ms over",
            ms(took),
            ms(allowed),
            ms(margin),
            ms(took.saturating_sub(allowed + margin))
        ),
        None => format!(
            "no move in {} ms + {} ms margin, nor after stop",
            ms(allowed),
            ms(margin)
        ),
    }
}

/// Why a turn produced no move.
enum Halt {
    /// The match is being stopped.
    Interrupted,
    /// The side to move claimed the game is over, rightly: it ends so.
    Claimed(Ending),
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
                    time: Duration::ZERO,
                    book: true,
                })
                .collect(),
            winner: None,
            termination: Termination::Normal,
            reason: String::new(),
            label: "",
            restart: [false; 2],
        }
    }

    fn end(&mut self, ending: Ending) {
        self.winner = ending.winner;
        self.termination = ending.termination;
        self.reason = ending.reason;
        self.label = ending.label;
    }

    /// `side` loses by its own failure.
    pub fn forfeit(&mut self, side: Color, forfeit: Forfeit) {
        self.end(Ending {
            winner: Some(!side),
            termination: forfeit.termination,
            reason: forfeit.reason,
            label: forfeit.label,
        });
        self.restart[side.index()] |= forfeit.restart;
    }
}

/// How a game that no one forfeited ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub winner: Option<Color>,
    pub termination: Termination,
    pub reason: String,
    pub label: &'static str,
}

/// The text of the move-count draw: "the 60-move rule (120 plies ...)" as in `rules`.
fn move_count_rule(draw_plies: u16) -> String {
    if draw_plies % 2 == 0 {
        format!(
            "draw by the {}-move rule ({draw_plies} plies without capture)",
            draw_plies / 2
        )
    } else {
        format!("draw by the move-count rule ({draw_plies} plies without capture)")
    }
}

fn rules_label(reason: Reason) -> &'static str {
    match reason {
        Reason::Checkmate => "checkmate",
        Reason::Stalemate => "stalemate",
        Reason::PerpetualCheck => "perpetual check",
        Reason::PerpetualChase => "perpetual chase",
        Reason::Repetition => "repetition",
        Reason::Rule60 => "move-count rule",
        Reason::InsufficientMaterial => "insufficient material",
    }
}

/// The label of an ending reached by a valid claim.
fn claim_label(label: &'static str) -> &'static str {
    match label {
        "checkmate" => "checkmate claim",
        "stalemate" => "stalemate claim",
        "perpetual check" => "perpetual check claim",
        "perpetual chase" => "perpetual chase claim",
        "repetition" => "repetition claim",
        "move-count rule" => "move-count claim",
        _ => "material claim",
    }
}

fn rules_outcome(outcome: GameOutcome) -> Ending {
    let reason = match outcome.winner {
        Some(w) => format!("{} wins: {}", side_name(w), outcome.reason.describe()),
        None => outcome.reason.describe().to_string(),
    };
    Ending {
        winner: outcome.winner,
        termination: Termination::Normal,
        reason,
        label: rules_label(outcome.reason),
    }
}

/// Is the game over by the rules ([`crate::rules::adjudicate`]), with the move-count draw at
/// `draw_plies` instead of the rules' fixed 120?
pub fn rules_ending(pos: &Position, draw_plies: u16) -> Option<Ending> {
    match adjudicate(pos) {
        Some(outcome) if outcome.reason != Reason::Rule60 => return Some(rules_outcome(outcome)),
        _ => {}
    }
    if pos.rule60_count() >= draw_plies {
        return Some(Ending {
            winner: None,
            termination: Termination::Normal,
            reason: move_count_rule(draw_plies),
            label: "move-count rule",
        });
    }
    // `adjudicate` stops at the 120-ply rule before it looks at the material.
    insufficient_material(pos).then(|| {
        rules_outcome(GameOutcome {
            winner: None,
            reason: Reason::InsufficientMaterial,
        })
    })
}

/// The side to move claims the game is over (`nobestmove`, `bestmove (none)`, `bestmove
/// 0000`). The claim holds when the rules end the game here, or when the position repeats an
/// earlier one (one repetition is enough for a claim, as in search; the cycle back to it is
/// judged by [`crate::rules::judge_cycle`]); otherwise `None`, a false claim.
pub fn judge_claim(pos: &Position, draw_plies: u16) -> Option<Ending> {
    let mut ending = rules_ending(pos, draw_plies).or_else(|| {
        let plies = earlier_occurrences(pos).next()?;
        judge_cycle(pos, plies).map(|judgement| rules_outcome(judgement.outcome()))
    })?;
    ending.label = claim_label(ending.label);
    Some(ending)
}

/// The game is over before the side to move is asked: by the rules, the move limit, or score
/// adjudication.
fn game_over(
    pos: &Position,
    record: &GameRecord,
    red_view_scores: &[Option<i32>],
    settings: &GameSettings,
) -> Option<Ending> {
    if let Some(ending) = rules_ending(pos, settings.draw_plies) {
        return Some(ending);
    }
    if let Some(limit) = settings.max_moves {
        if record.moves.len() as u64 >= 2 * u64::from(limit) {
            return Some(Ending {
                winner: None,
                termination: Termination::Adjudication,
                reason: format!("draw: {} played (--max-moves)", count(limit.into(), "move")),
                label: "max moves",
            });
        }
    }
    let fullmove = 1 + (record.moves.len() as u32) / 2;
    score_adjudication(red_view_scores, settings, fullmove).map(|(winner, reason)| Ending {
        winner,
        termination: Termination::Adjudication,
        reason,
        label: if winner.is_some() {
            "resign adjudication"
        } else {
            "draw adjudication"
        },
    })
}

/// Asks the side to move for its move and checks it: in time, and legal.
fn engine_move(
    engine: &mut EngineProcess,
    pos: &Position,
    record: &GameRecord,
    limits: [MoveLimits; 2],
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
    let margin = settings.margin_for(&own);
    let deadline = move_deadline(
        &own,
        clocks[side.index()].as_ref(),
        margin,
        settings.hang_timeout,
    );
    // What the move may take before the margin: the clock before this move, or the move time.
    let allowed_ms = clocks[side.index()]
        .map(|c| c.remaining_ms)
        .or(own.movetime_ms)
        .unwrap_or(0);
    let timed = own.clock.is_some() || own.movetime_ms.is_some();
    let who = format!("{} ({})", side_name(side), engine.config.name);
    let lost = |termination, label, reason| {
        Halt::Lost(Forfeit {
            termination,
            reason,
            label,
            restart: false,
        })
    };
    let reply = engine
        .think(&position, &go, deadline, stop)
        .map_err(|failure| {
            let stage = Stage::Move {
                timed,
                waited: deadline,
                margin,
            };
            Forfeit::from_failure(failure, &who, stage).map_or(Halt::Interrupted, Halt::Lost)
        })?;
    let flag_fell = match (own.clock, clocks[side.index()].as_mut()) {
        (Some(clock), Some(state)) => !charge(&clock, state, reply.elapsed, margin),
        _ => own
            .movetime_ms
            .is_some_and(|ms| reply.elapsed > Duration::from_millis(ms) + margin),
    };
    if flag_fell {
        let allowed = Duration::from_millis(allowed_ms);
        let reason = format!(
            "{who} loses on time: {}",
            overrun(Some(reply.elapsed), allowed, margin)
        );
        return Err(lost(Termination::TimeForfeit, "time forfeit", reason));
    }
    let text = match reply.answer {
        Answer::Move(text) => text,
        Answer::Claim(line) => {
            return Err(match judge_claim(pos, settings.draw_plies) {
                Some(mut ending) => {
                    ending.reason = format!("{who} claims the end ('{line}'): {}", ending.reason);
                    Halt::Claimed(ending)
                }
                None => lost(
                    Termination::RulesInfraction,
                    "false claim",
                    format!("{who} makes a false claim ('{line}'): the game is not over"),
                ),
            })
        }
    };
    let mv = parse_move(pos, &text, base).map_err(|e| {
        lost(
            Termination::RulesInfraction,
            "illegal move",
            format!("{who} makes an illegal move: {e}"),
        )
    })?;
    Ok(PlayedMove {
        mv,
        score: reply.score,
        depth: reply.depth,
        time: reply.elapsed,
        book: false,
    })
}

/// Plays a game; `None` when interrupted (the game is then not counted).
pub fn play(
    opening: &Opening,
    engines: [&mut EngineProcess; 2],
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
        if let Some(ending) = game_over(&pos, &record, &red_view_scores, settings) {
            record.end(ending);
            return Some(record);
        }
        let side = pos.side_to_move();
        let engine = &mut *engines[side.index()];
        let played = match engine_move(engine, &pos, &record, limits, &mut clocks, settings, stop) {
            Ok(played) => played,
            Err(Halt::Interrupted) => return None,
            Err(Halt::Claimed(ending)) => {
                record.end(ending);
                return Some(record);
            }
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
            resign,
            draw,
            ..GameSettings::new(Some(Duration::ZERO), Duration::from_secs(1))
        }
    }

    fn position(fen: &str, moves: &str) -> Position {
        let mut pos = Position::from_fen(fen).unwrap();
        for text in moves.split_whitespace() {
            let mv = parse_move(&pos, text, crate::board::notation::RankBase::Zero).unwrap();
            pos.make_move(mv);
        }
        pos
    }

    #[test]
    fn claims_are_judged_by_the_rules() {
        let quiet = "4ka3/9/9/8p/9/9/P8/9/9/3K1A3 w - - 0 1";
        // Nothing has happened: a false claim.
        assert_eq!(judge_claim(&position(quiet, ""), 120), None);
        assert_eq!(judge_claim(&Position::startpos(), 120), None);
        // One repetition is enough for a claim, though a game goes on to the third.
        let repeated = position(quiet, "d0d1 e9e8 d1d0 e8e9");
        assert!(rules_ending(&repeated, 120).is_none());
        let claim = judge_claim(&repeated, 120).unwrap();
        assert_eq!((claim.winner, claim.label), (None, "repetition claim"));
        // The move-count draw follows the configured limit.
        let long = position(&quiet.replace(" 0 1", " 100 1"), "");
        assert_eq!(judge_claim(&long, 120), None);
        let claim = judge_claim(&long, 100).unwrap();
        assert_eq!(claim.label, "move-count claim");
        assert_eq!(
            claim.reason,
            "draw by the 50-move rule (100 plies without capture)"
        );
        assert_eq!(
            rules_ending(&position(&quiet.replace(" 0 1", " 120 1"), ""), 130),
            None
        );
        // Mate: the claimer is the side mated, and loses.
        let mated = position("3k5/4R4/3R5/9/9/9/9/9/9/4K4 b - - 0 1", "");
        let claim = judge_claim(&mated, 120).unwrap();
        assert_eq!(
            (claim.winner, claim.label),
            (Some(Color::Red), "checkmate claim")
        );
    }

    #[test]
    fn go_commands_per_protocol() {
        let red = MoveLimits {
            clock: Some(parse_clock("10+0.1").unwrap()),
            ..MoveLimits::default()
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
        let depth = MoveLimits {
            depth: Some(4),
            nodes: Some(100),
            ..MoveLimits::default()
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
        // A fixed move time: UCI says so; UCCI gets a budget it can keep.
        let st = MoveLimits {
            movetime_ms: Some(500),
            ..MoveLimits::default()
        };
        let go =
            |proto, millis| go_command(proto, millis, &st, Color::Red, &[None, None], [&st, &st]);
        assert_eq!(go(Protocol::Uci, false), "go movetime 500");
        assert_eq!(go(Protocol::Ucci, true), "go time 450 movestogo 1");
    }

    #[test]
    fn a_fixed_move_time_gets_a_default_margin_unless_one_is_given() {
        let st = MoveLimits {
            movetime_ms: Some(2000),
            ..MoveLimits::default()
        };
        let tc = MoveLimits {
            clock: Some(parse_clock("10+0.1").unwrap()),
            ..MoveLimits::default()
        };
        let default = GameSettings::new(None, Duration::from_secs(1));
        assert_eq!(default.margin_for(&st), Duration::from_millis(400));
        assert_eq!(default.margin_for(&tc), Duration::ZERO);
        let given = GameSettings::new(Some(Duration::from_millis(7)), Duration::from_secs(1));
        assert_eq!(given.margin_for(&st), Duration::from_millis(7));
        assert_eq!(given.margin_for(&tc), Duration::from_millis(7));
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
