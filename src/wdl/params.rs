//! The win/draw/loss model's coefficients (see `mod.rs`), written by
//! `chariot wdl --data gen3.bin` from 2345824 positions.

pub(super) const A: [f64; 4] = [1984.223176, -3106.087484, 758.929324, 584.567576];
pub(super) const B: [f64; 4] = [-128.867070, 89.069244, 199.079480, 94.628910];
pub(super) const MATERIAL_RANGE: (i32, i32) = (7, 94);
