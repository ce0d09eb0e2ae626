//! What the command line runs besides the protocols: `perft` and `divide`, `bench`, `analyse`,
//! the `eval` report and `convert` (training data between formats), and the `--fen`/`--moves`
//! arguments they share (`position.rs`). `cli.rs` parses the arguments and calls into these.

pub(crate) mod analyse;
pub mod bench;
#[cfg(feature = "tools")]
pub mod convert;
pub(crate) mod eval;
pub mod perft;
pub mod position;
