//! Any text: the FEN reader never panics, and what it accepts round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/reference.rs"]
mod reference;

// Each target uses part of the shared checks.
#[allow(dead_code)]
#[path = "../../tests/common/fuzz_checks.rs"]
mod fuzz_checks;

fuzz_target!(|data: &[u8]| fuzz_checks::fen_parse(data));
