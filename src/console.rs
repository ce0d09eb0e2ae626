//! What the command-line tools write for a person: lines on standard output that end the
//! program quietly once the reader has gone (`chariot bench | head -3`), as Unix tools do.

use std::fmt;
use std::io::{ErrorKind, Write};

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

pub(crate) use {out, outln};

/// Writes `text` to standard output. A reader that has closed the pipe wants no more: the
/// program ends at once with success (where `println!` would panic). Any other failure to
/// write (a full disk) ends it with an error.
pub fn write_out(text: fmt::Arguments) {
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}
