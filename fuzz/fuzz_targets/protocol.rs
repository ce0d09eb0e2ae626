//! Any bytes, split into lines, as a GUI's commands to the UCI or UCCI handler (the first line
//! chooses): no panic, no hang, rejected commands change nothing, no `go` is refused and every
//! search ends in one legal bestmove. Searches are capped (1 MB table, two threads, 3000 nodes)
//! so each input is quick.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/protocol_fuzz.rs"]
mod protocol_fuzz;

fuzz_target!(|data: &[u8]| {
    protocol_fuzz::protocol(data);
});
