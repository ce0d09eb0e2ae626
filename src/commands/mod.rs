//! What the command line runs besides the protocols: `perft` and `divide`, `bench`, `analyse`
//! and the `eval` report. `cli.rs` parses the arguments and calls into these.

pub(crate) mod analyse;
pub mod bench;
pub(crate) mod eval;
pub mod perft;
