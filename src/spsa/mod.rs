//! `chariot spsa`: tunes the search's parameters (`search::params`) by SPSA, as fishtest and
//! OpenBench do: `run` plays the engine with every parameter nudged up (θ+) against itself
//! with every one nudged down (θ−) and steps each toward the side that scored; `params`
//! prints the parameters as those testers' input lines.

mod report;
mod round;
mod run;
mod schedule;
mod state;
mod tunables;

use crate::console::out;
use clap::{Args, Subcommand};

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SpsaArgs {
    #[command(subcommand)]
    command: Option<SpsaCommand>,
    /// fishtest's lines (the older form of `spsa params --fishtest`).
    #[arg(long)]
    fishtest: bool,
}

#[derive(Subcommand, Debug)]
enum SpsaCommand {
    /// Print the search parameters as tuner input: OpenBench's `name, int, value, min, max,
    /// step, lr` lines (also what `spsa run --params` reads).
    Params {
        /// fishtest's `name,value,min,max,c_end,r_end` lines instead.
        #[arg(long)]
        fishtest: bool,
    },
    /// Tune the search parameters of an engine that offers them as options (chariot built
    /// with `--features spsa`) by playing it against itself; prints the tuned values.
    Run(Box<run::RunArgs>),
}

/// Runs `chariot spsa`; without a subcommand it prints the parameters, as `params` does.
pub fn run_spsa(args: &SpsaArgs) -> Result<(), String> {
    match &args.command {
        None => out!("{}", crate::search::params::spsa_lines(args.fishtest)),
        Some(SpsaCommand::Params { fishtest }) => {
            out!("{}", crate::search::params::spsa_lines(*fishtest))
        }
        Some(SpsaCommand::Run(run)) => return run::run(run),
    }
    Ok(())
}
