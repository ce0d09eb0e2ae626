//! `chariot match`: plays engines against each other (two engines, or a round-robin of more)
//! over an opening suite with colours swapped, writes PGN as games finish, prints running
//! statistics and, with `--sprt`, stops when the test decides.

pub mod cutechess;
pub mod engine;
pub mod game;
pub mod output;
pub mod pgn;
pub mod report;
mod resume;
mod runner;
pub mod sprt;
pub mod standings;
pub mod stats;
pub mod timecontrol;

use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches};

/// The words of each `--engine` occurrence. Clap's derive cannot keep occurrences apart
/// (`Vec<Vec<String>>` needs an unstable feature), so this argument is declared by hand.
#[derive(Debug, Clone, Default)]
pub struct EngineSpecs(pub Vec<Vec<String>>);

impl FromArgMatches for EngineSpecs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>("engine")
            .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineSpecs(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for EngineSpecs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            Arg::new("engine")
                .long("engine")
                .num_args(1..)
                .action(ArgAction::Append)
                .required(true)
                .value_name("KEY=VALUE")
                .help(
                    "An engine: cmd=PATH [name=N] [proto=uci|uci-variant|ucci] [arg=A]... [dir=D] \
                     [option.NAME=VALUE]... [tc=..] [st=..] [depth=..] [nodes=..]. Give two or more.",
                ),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    #[command(flatten)]
    pub engines: EngineSpecs,
    #[command(flatten)]
    pub limits: timecontrol::LimitArgs,
    /// Milliseconds an engine may overrun its clock or move time without losing (default: 0
    /// on a clock; on a fixed move time a fifth of it, at least 200).
    #[arg(long, value_name = "MS")]
    pub timemargin: Option<u64>,
    /// Seconds to wait for a depth/node-limited move or a handshake before the engine is
    /// declared hung (loses).
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    pub hang_timeout: f64,
    /// Games per pairing (default 2; with --sprt the maximum, default unlimited).
    #[arg(long)]
    pub games: Option<u64>,
    /// Games played at once; each game has its own engine processes.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Opening suite: FILE [format=fen|epd|pgn] [order=sequential|random] [seed=N] [plies=N].
    /// FEN/EPD: a position a line, optionally followed by `moves m1 m2 ...`; PGN: games with
    /// [FEN] and ICCS or WXF moves (default: the built-in copy of data/openings.fen). Each
    /// opening is played twice, colours swapped.
    #[arg(long, num_args = 1.., value_name = "FILE [KEY=VALUE]")]
    pub openings: Option<Vec<String>>,
    /// Write the games to this PGN file (appended, game by game; an existing file must be a PGN).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<String>,
    /// Notation of the PGN's moves: iccs (H2-E2), wxf (C2=5) or chinese (炮二平五).
    #[arg(long, value_enum, default_value_t = crate::notation::Notation::Iccs)]
    pub pgn_notation: crate::notation::Notation,
    /// Write a self-contained report (HTML, or SVG for a .svg name), refreshed after every game.
    #[arg(long, value_name = "FILE")]
    pub report: Option<String>,
    /// Replace an existing --report file (a resumed match replaces its own without it).
    #[arg(long)]
    pub force: bool,
    /// Sequential test: elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] (two engines only).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Resign adjudication: movecount=N score=CP (both engines agree for N moves each).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Option<Vec<String>>,
    /// Draw adjudication: movenumber=M movecount=N score=CP (from move M, both engines
    /// within CP of 0 for N moves each).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Option<Vec<String>>,
    /// Plies without capture that draw a game (120: the 60-move rule; 100: the 50-move
    /// convention of ElephantEye and others). Claims are judged by the same limit.
    #[arg(long, default_value_t = crate::rules::RULE60_PLIES, value_name = "N")]
    pub draw_plies: u16,
    /// Draw a game still going after N moves per side (cutechess's -maxmoves).
    #[arg(long, value_name = "N")]
    pub max_moves: Option<u32>,
    /// Event name for the PGN.
    #[arg(long, default_value = "chariot match")]
    pub event: String,
    /// Who plays whom: every engine against every other, or the first against each other.
    #[arg(long, value_enum, default_value_t = Tournament::RoundRobin)]
    pub tournament: Tournament,
    /// Go on with an interrupted match: count the games in this PGN (by their Round tags)
    /// and play the rest with the same schedule and openings; new games are appended to it
    /// unless --pgn names another file.
    #[arg(long, value_name = "FILE.pgn")]
    pub resume: Option<String>,
    /// Print the match as understood (engines, limits, schedule, openings, outputs), check
    /// that every engine starts, and stop before the first game.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    RoundRobin,
    /// The first engine plays each of the others; they do not meet.
    Gauntlet,
}

impl Tournament {
    pub fn name(self) -> &'static str {
        match self {
            Tournament::RoundRobin => "round-robin",
            Tournament::Gauntlet => "gauntlet",
        }
    }
}

/// Runs a match from the command line.
pub fn run_match(args: &MatchArgs) -> Result<(), String> {
    runner::run(args)
}
