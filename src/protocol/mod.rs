//! The text protocols GUIs speak: UCI (Pikafish conventions) and UCCI (ElephantEye
//! conventions). The first command chooses: `uci` or `ucci`; anything else starts UCI quietly
//! so a person can type `go depth 8` straight away.

pub mod engine;
pub mod options;
mod ucci;
mod uci;

use engine::{Dialect, Engine};
use std::io::BufRead;

/// Reads commands from `input` until `quit` or end of input.
pub fn run_loop(input: impl BufRead) {
    let mut engine: Option<Engine> = None;
    for line in input.lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let engine = engine.get_or_insert_with(|| {
            let dialect = if line.split_whitespace().next() == Some("ucci") {
                Dialect::Ucci
            } else {
                Dialect::Uci
            };
            Engine::new(dialect)
        });
        let keep_going = match engine.dialect {
            Dialect::Uci => uci::handle(engine, line),
            Dialect::Ucci => ucci::handle(engine, line),
        };
        if !keep_going {
            break;
        }
    }
    // End of input: finish any search so its bestmove is not lost.
    if let Some(mut engine) = engine {
        engine.stop();
    }
}

/// Reads the value after `key` in `tokens` as a number.
fn number<T: std::str::FromStr>(
    command: &str,
    key: &str,
    value: Option<&&str>,
) -> Result<T, String> {
    let text = value.ok_or_else(|| format!("{command}: '{key}' needs a value"))?;
    text.parse()
        .map_err(|_| format!("{command}: '{text}' is not a valid number for '{key}'"))
}

pub(crate) fn error(message: &str) {
    println!("info string error: {message}");
}
