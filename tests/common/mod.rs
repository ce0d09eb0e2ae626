//! Helpers shared by the integration tests: the reference move generator, the fuzz checks
//! (also compiled into the fuzz targets). The data files are read through `chariot::data`.
// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

pub mod fuzz_checks;
pub mod protocol_fuzz;
pub mod reference;
