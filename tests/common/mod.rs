//! Helpers shared by the integration tests: the reference move generator, the fuzz checks
//! (also compiled into the fuzz targets), the engine as a child process and the scripted
//! engine. The data files are read through `chariot::data`.
// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

pub mod engine_process;
pub mod fake_engine;
pub mod fuzz_checks;
pub mod protocol_fuzz;
pub mod reference;
