//! Command-line front end: parses arguments with clap and dispatches to the commands in
//! `crate::commands`, the offline tools (built with the default `tools` feature), or the
//! protocol loop.

use crate::commands;
use crate::commands::position::PositionArgs;
use crate::notation::Notation;
use crate::search::MAX_THREADS;
use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "chariot",
    version,
    about = "Chariot, a Xiangqi (Chinese chess) engine",
    after_help = "With no command, chariot speaks UCI or UCCI on standard input and output, as \
                  GUIs expect: the first line chooses (`uci` or `ucci`; anything else starts UCI \
                  at once, so `go depth 8` can be typed straight away). See README.md, \
                  \"Getting started\", for the GUIs and options."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the legal move tree to DEPTH plies.
    Perft {
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Perft per legal root move.
    Divide {
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Print the search parameters as SPSA tuner input (OpenBench's lines by default).
    #[cfg(feature = "spsa")]
    Spsa {
        /// fishtest's `name,value,min,max,c_end,r_end` lines instead.
        #[arg(long)]
        fishtest: bool,
    },
    /// Search the built-in bench positions to a fixed depth; prints `N nodes M nps` last.
    Bench {
        /// Search depth (default 11).
        depth: Option<i32>,
        /// Evaluate with the classical evaluation, not the default network.
        #[arg(long, conflicts_with = "eval_file")]
        classical: bool,
        /// Evaluate with this network file.
        #[arg(long, value_name = "FILE")]
        eval_file: Option<String>,
        /// Search threads, 1 to 256 (Lazy SMP): with more than one the node count is not
        /// repeatable; the time to the depth is what to compare.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
        threads: u16,
    },
    /// Analyse a position, showing the search as it deepens, then the best move.
    Analyse {
        #[command(flatten)]
        position: PositionArgs,
        /// Think this many milliseconds (default 3000).
        #[arg(long, conflicts_with = "depth")]
        movetime: Option<u64>,
        /// Search to this depth instead.
        #[arg(long)]
        depth: Option<i32>,
        /// Search threads, 1 to 256 (the range of the `Threads` option).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
        threads: u16,
        /// How moves are written: iccs (h2e2), wxf (C2=5) or chinese (炮二平五).
        #[arg(long, value_enum, default_value_t = Notation::Iccs)]
        notation: Notation,
    },
    /// Static evaluation, term by term, of a position (default: the start position), and the
    /// network's score with each piece's part in it when a network is at hand.
    Eval {
        #[command(flatten)]
        position: PositionArgs,
        /// Network file to show (default: the one built in, if any).
        #[arg(long, value_name = "FILE")]
        eval_file: Option<String>,
    },
    #[cfg(feature = "tools")]
    /// Play engines against each other (UCI or UCCI) and report Elo, SPRT and PGN.
    Match(Box<crate::matchrun::MatchArgs>),
    #[cfg(feature = "tools")]
    /// Self-play games at a fixed node limit, written as quiet positions with score and result
    /// (text lines, or 40-byte records for a `.bin` output).
    Datagen(Box<crate::datagen::DatagenArgs>),
    #[cfg(feature = "tools")]
    /// Fit the evaluation weights to datagen positions and write a new params.rs.
    Tune(Box<crate::tune::TuneArgs>),
    #[cfg(feature = "tools")]
    /// Train a network (NNUE) on datagen positions and write it quantised.
    Train(Box<crate::train::TrainArgs>),
    #[cfg(feature = "tools")]
    /// Build an opening book from PGN games, or show a position's book moves.
    Book(crate::book::build::BookArgs),
    #[cfg(feature = "tools")]
    /// Rewrite datagen positions from text to binary records or back (formats from the names).
    Convert(commands::convert::ConvertArgs),
    #[cfg(feature = "tools")]
    /// Fit the win/draw/loss model (`UCI_ShowWDL`) to datagen positions and print it.
    Wdl(Box<crate::wdl::fit::WdlArgs>),
}

/// The command line's words; `chariot match` also takes cutechess-cli's forms, rewritten here
/// as ours so that scripts written for cutechess-cli run unchanged.
fn arguments() -> Result<Vec<String>, String> {
    let argv: Vec<String> = std::env::args().collect();
    #[cfg(feature = "tools")]
    if argv.get(1).map(String::as_str) == Some("match") {
        let words = crate::matchrun::cutechess::translate(&argv[2..])?;
        return Ok(argv[..2].iter().cloned().chain(words).collect());
    }
    Ok(argv)
}

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    let argv = match arguments() {
        Ok(argv) => argv,
        Err(message) => {
            eprintln!("error: {message}");
            return 1;
        }
    };
    let cli = Cli::parse_from(argv);
    let result = match cli.command {
        Some(Command::Perft { depth, position }) => position
            .position()
            .map(|mut pos| commands::perft::run_perft(&mut pos, depth)),
        Some(Command::Divide { depth, position }) => position
            .position()
            .map(|mut pos| commands::perft::run_divide(&mut pos, depth)),
        Some(Command::Eval {
            position,
            eval_file,
        }) => position
            .position()
            .and_then(|pos| commands::eval::run_eval(&pos, eval_file.as_deref())),
        Some(Command::Bench {
            depth,
            classical,
            eval_file,
            threads,
        }) => commands::bench::run_bench(depth, classical, eval_file.as_deref(), threads.into()),
        Some(Command::Analyse {
            position,
            movetime,
            depth,
            threads,
            notation,
        }) => position.position().and_then(|pos| {
            commands::analyse::run_analyse(&pos, movetime, depth, threads.into(), notation)
        }),
        #[cfg(feature = "tools")]
        Some(Command::Match(args)) => crate::matchrun::run_match(&args),
        #[cfg(feature = "tools")]
        Some(Command::Datagen(args)) => crate::datagen::run_datagen(&args),
        #[cfg(feature = "tools")]
        Some(Command::Tune(args)) => crate::tune::run_tune(&args),
        #[cfg(feature = "spsa")]
        Some(Command::Spsa { fishtest }) => {
            print!("{}", crate::search::params::spsa_lines(fishtest));
            Ok(())
        }
        #[cfg(feature = "tools")]
        Some(Command::Train(args)) => crate::train::run_train(&args),
        #[cfg(feature = "tools")]
        Some(Command::Book(args)) => crate::book::build::run_book(&args),
        #[cfg(feature = "tools")]
        Some(Command::Convert(args)) => commands::convert::run_convert(&args),
        #[cfg(feature = "tools")]
        Some(Command::Wdl(args)) => crate::wdl::fit::run_wdl(&args),
        None => {
            crate::protocol::run_loop(std::io::stdin().lock());
            Ok(())
        }
    };
    match result {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("error: {message}");
            1
        }
    }
}
