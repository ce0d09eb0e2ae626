//! The win/draw/loss model's coefficients (see `mod.rs`), written by
//! `chariot wdl --data gen1.bin` from 2874497 positions.

pub(super) const A: [f64; 4] = [1475.859809, -1439.880839, -681.365982, 930.707914];
pub(super) const B: [f64; 4] = [361.958902, -465.588365, 228.487997, 163.687878];
pub(super) const MATERIAL_RANGE: (i32, i32) = (6, 94);
