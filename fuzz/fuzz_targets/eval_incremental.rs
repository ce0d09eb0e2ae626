//! Byte-chosen games with the evaluator as the board's observer: the incremental evaluation
//! state must equal a recount after every make and unmake (see `fuzz_checks::eval_incremental`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/reference.rs"]
mod reference;

// Each target uses part of the shared checks.
#[allow(dead_code)]
#[path = "../../tests/common/fuzz_checks.rs"]
mod fuzz_checks;

fuzz_target!(|data: &[u8]| fuzz_checks::eval_incremental(data));
