//! The attack tables `build.rs` generated into OUT_DIR, included in one place. Dependency-free:
//! plain arrays of integers that `attacks` (and the evaluation's cannon lookups) wrap in types.
#![allow(clippy::unreadable_literal)]

include!(concat!(env!("OUT_DIR"), "/tables.rs"));
