//! Bytes choose a start (or build a position) and a playout; at every ply the fast generator
//! must match the reference and make/unmake, hashes and FEN must stay exact.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/reference.rs"]
mod reference;

// Each target uses part of the shared checks.
#[allow(dead_code)]
#[path = "../../tests/common/fuzz_checks.rs"]
mod fuzz_checks;

fuzz_target!(|data: &[u8]| fuzz_checks::movegen_diff(data));
