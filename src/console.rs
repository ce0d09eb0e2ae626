//! What the command-line tools write for a person: lines on standard output that end the
//! program quietly once the reader has gone (`chariot bench | head -3`), as Unix tools do,
//! unless the tool's product is a file (then only the printing stops), and counts with their
//! noun in the right number (`1 game`, `2 games`).

use std::fmt;
use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the tools whose product is a file: a closed standard output ends the printing only.
static PRODUCT_IS_A_FILE: AtomicBool = AtomicBool::new(false);
/// Standard output was found closed; nothing more is written to it.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// From now on a reader that goes away stops what is printed, not the job: for the tools
/// whose product is a file (`train ... | head -1` still writes the network).
pub fn product_is_a_file() {
    PRODUCT_IS_A_FILE.store(true, Ordering::Relaxed);
}

/// `println!` for the command-line tools, through [`write_out`].
macro_rules! outln {
    () => {
        $crate::console::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::console::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` for the command-line tools, through [`write_out`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::console::write_out(format_args!($($arg)*))
    };
}

/// `eprintln!` for the command-line tools, through [`write_err`].
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::console::write_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {errln, out, outln};

/// Writes `text` to standard output. A reader that has closed the pipe wants no more: the
/// program ends at once with success (where `println!` would panic), or, when its product is
/// a file, goes on without printing. Any other failure to write (a full disk) ends a tool
/// whose product is the printing with an error.
pub fn write_out(text: fmt::Arguments) {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        if PRODUCT_IS_A_FILE.load(Ordering::Relaxed) {
            STDOUT_CLOSED.store(true, Ordering::Relaxed);
            return;
        }
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        errln!("error: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

/// Writes `text` to standard error, where a failure cannot be reported: it is ignored (where
/// `eprintln!` would panic and end a job over a closed pipe).
pub fn write_err(text: fmt::Arguments) {
    let _ = std::io::stderr().lock().write_fmt(text);
}

/// `n` and a noun that takes an `s` in the plural: `count(1, "pair")` is `1 pair`.
pub fn count(n: u64, noun: &str) -> String {
    count_irregular(n, noun, &format!("{noun}s"))
}

/// `n` and `one` or `many`: `count_irregular(2, "ply", "plies")` is `2 plies`.
pub fn count_irregular(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular() {
        assert_eq!(count(1, "game"), "1 game");
        assert_eq!(count(0, "pair"), "0 pairs");
        assert_eq!(count(256, "thread"), "256 threads");
        assert_eq!(count_irregular(1, "ply", "plies"), "1 ply");
        assert_eq!(count_irregular(8, "ply", "plies"), "8 plies");
    }
}
