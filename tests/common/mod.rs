//! Helpers shared by the integration tests: the reference move generator, the fuzz checks
//! (also compiled into the fuzz targets), the engine as a child process and access to the
//! shared data files.
// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

pub mod data;
pub mod engine_process;
pub mod fuzz_checks;
pub mod protocol_fuzz;
pub mod reference;
