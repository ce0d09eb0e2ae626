//! Command-line front end: parses arguments with clap and dispatches to the tools.

use crate::perft::{divide, perft};
use crate::position::Position;
use clap::{Parser, Subcommand};
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(
    name = "chariot",
    version,
    about = "Chariot, a Xiangqi (Chinese chess) engine"
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
        /// Position to start from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Search the built-in bench positions to a fixed depth; prints `N nodes M nps` last.
    Bench {
        /// Search depth (default 9).
        depth: Option<i32>,
    },
    /// Analyse a position, showing the search as it deepens, then the best move.
    Analyse {
        /// Position to analyse (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves (ICCS, e.g. h2e2) played from that position first.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Think this many milliseconds (default 3000).
        #[arg(long, conflicts_with = "depth")]
        movetime: Option<u64>,
        /// Search to this depth instead.
        #[arg(long)]
        depth: Option<i32>,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Perft per legal move at the root.
    Divide {
        depth: u32,
        #[arg(long)]
        fen: Option<String>,
    },
    /// Static evaluation, term by term, of a position (default: the start position).
    Eval {
        #[arg(long)]
        fen: Option<String>,
    },
    /// Play engines against each other (UCI or UCCI) and report Elo, SPRT and PGN.
    Match(Box<crate::matchrun::MatchArgs>),
    /// Self-play games at a fixed node limit, written as quiet positions with score and result.
    Datagen(Box<crate::datagen::DatagenArgs>),
    /// Fit the evaluation weights to datagen positions and write a new params.rs.
    Tune(Box<crate::tune::TuneArgs>),
}

fn position_from(fen: Option<&str>) -> Result<Position, String> {
    match fen {
        None => Ok(Position::startpos()),
        Some(text) => Position::from_fen(text).map_err(|e| e.to_string()),
    }
}

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft { depth, fen }) => run_perft(depth, fen.as_deref()),
        Some(Command::Divide { depth, fen }) => run_divide(depth, fen.as_deref()),
        Some(Command::Eval { fen }) => crate::eval::command::run_eval(fen.as_deref()),
        Some(Command::Bench { depth }) => crate::bench::run_bench(depth),
        Some(Command::Analyse {
            fen,
            moves,
            movetime,
            depth,
            threads,
        }) => crate::analyse::run_analyse(fen.as_deref(), &moves, movetime, depth, threads),
        Some(Command::Match(args)) => crate::matchrun::run_match(&args),
        Some(Command::Datagen(args)) => crate::datagen::run_datagen(&args),
        Some(Command::Tune(args)) => crate::tune::run_tune(&args),
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

fn run_perft(depth: u32, fen: Option<&str>) -> Result<(), String> {
    let mut pos = position_from(fen)?;
    let start = Instant::now();
    let nodes = perft(&mut pos, depth);
    report_speed(nodes, start);
    Ok(())
}

fn run_divide(depth: u32, fen: Option<&str>) -> Result<(), String> {
    let mut pos = position_from(fen)?;
    let start = Instant::now();
    let mut total = 0;
    for (mv, count) in divide(&mut pos, depth) {
        println!("{mv}: {count}");
        total += count;
    }
    println!();
    report_speed(total, start);
    Ok(())
}

fn report_speed(nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    let rate = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    println!("Time: {:.3} s, {:.1} M leaves/s", secs, rate / 1e6);
    println!("Nodes searched: {nodes}");
}
