//! Command-line front end: parses arguments with clap and dispatches to the commands in
//! `crate::commands`, the offline tools (built with the default `tools` feature), or the
//! protocol loop.

use crate::commands;
use crate::commands::position::PositionArgs;
use crate::console::errln;
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
        /// Plies to count to (0 counts the position itself).
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Perft per legal root move.
    Divide {
        /// Plies to count to below each root move.
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
    },
    #[cfg(feature = "tools")]
    /// Tune the search parameters by SPSA (`run`), or print them as tuner input (`params`).
    Spsa(crate::spsa::SpsaArgs),
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
        /// With threads, a position is done when the main thread completes the depth (whose
        /// iterations a timed search plays), not the first thread to complete it.
        #[arg(long)]
        main_thread: bool,
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
    /// Play and analyse against Chariot in a web browser: a local server for one page.
    #[cfg(feature = "serve")]
    Serve(crate::serve::ServeArgs),
}

impl Command {
    /// Whether the command's product is a file (not what it prints), so that a closed
    /// standard output must not end it.
    fn writes_a_file(&self) -> bool {
        match self {
            #[cfg(feature = "tools")]
            Command::Match(_)
            | Command::Datagen(_)
            | Command::Tune(_)
            | Command::Train(_)
            | Command::Convert(_)
            | Command::Wdl(_) => true,
            #[cfg(feature = "tools")]
            Command::Book(args) => {
                matches!(args.command, crate::book::build::BookCommand::Build { .. })
            }
            _ => false,
        }
    }
}

/// Reports arguments clap refused in one line (its first, with where to read more) and
/// returns clap's status for them; `--help` and `--version` print as usual.
fn argument_error(error: clap::Error, help: &str) -> i32 {
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        error.exit();
    }
    let text = error.render().to_string();
    let first = text
        .lines()
        .next()
        .unwrap_or("error: bad arguments")
        .trim_end();
    errln!("{first} (see `{help}`)");
    error.exit_code()
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
            errln!("error: {message}");
            return 1;
        }
    };
    let help = match argv.get(1).filter(|word| !word.starts_with('-')) {
        Some(command) => format!("chariot {command} --help"),
        None => "chariot --help".to_string(),
    };
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => return argument_error(e, &help),
    };
    if cli.command.as_ref().is_some_and(Command::writes_a_file) {
        crate::console::product_is_a_file();
    }
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
            main_thread,
        }) => commands::bench::run_bench(
            depth,
            classical,
            eval_file.as_deref(),
            threads.into(),
            main_thread,
        ),
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
        #[cfg(feature = "tools")]
        Some(Command::Spsa(args)) => crate::spsa::run_spsa(&args),
        #[cfg(feature = "tools")]
        Some(Command::Train(args)) => crate::train::run_train(&args),
        #[cfg(feature = "tools")]
        Some(Command::Book(args)) => crate::book::build::run_book(&args),
        #[cfg(feature = "tools")]
        Some(Command::Convert(args)) => commands::convert::run_convert(&args),
        #[cfg(feature = "tools")]
        Some(Command::Wdl(args)) => crate::wdl::fit::run_wdl(&args),
        #[cfg(feature = "serve")]
        Some(Command::Serve(args)) => crate::serve::run_serve(&args),
        None => {
            crate::protocol::run_loop(std::io::stdin().lock());
            Ok(())
        }
    };
    match result {
        Ok(()) => 0,
        Err(message) => {
            errln!("error: {message}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// `--help` describes every argument of every command (the positional ones too).
    #[test]
    fn every_argument_has_a_description() {
        fn walk(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for arg in command.get_arguments() {
                let id = arg.get_id().as_str();
                if id != "help" && id != "version" && arg.get_help().is_none() {
                    missing.push(format!("{path} {id}"));
                }
            }
            for sub in command.get_subcommands() {
                walk(sub, &format!("{path} {}", sub.get_name()), missing);
            }
        }
        let mut missing = Vec::new();
        walk(&Cli::command(), "chariot", &mut missing);
        assert!(missing.is_empty(), "no description: {missing:?}");
    }
}
