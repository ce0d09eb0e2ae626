//! The win/draw/loss model's coefficients (see `mod.rs`), written by
//! `chariot wdl --data gen4-head.bin` (the first 1571629 records of gen4.bin) from 1566438 positions.

pub(super) const A: [f64; 4] = [1804.603316, -2972.316905, 847.096469, 525.839930];
pub(super) const B: [f64; 4] = [-284.897526, 282.602825, 163.363470, 84.063167];
pub(super) const MATERIAL_RANGE: (i32, i32) = (8, 94);
