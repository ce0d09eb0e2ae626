//! The win/draw/loss model's coefficients (see `mod.rs`), written by
//! `chariot wdl --data gen6-head.bin` (the first 1949097 records of gen6.bin) from 1944084 positions.

pub(super) const A: [f64; 4] = [1815.189260, -2989.673215, 899.984795, 495.856082];
pub(super) const B: [f64; 4] = [-141.089409, 58.774603, 283.285027, 52.738661];
pub(super) const MATERIAL_RANGE: (i32, i32) = (8, 94);
