//! The Zobrist keys, and the seeded generator the table checks also draw from.

use crate::emit::emit_nested;
use crate::geometry::SQUARES;
use std::fmt::Write as _;
use std::{env, fs, path::Path};

/// splitmix64: a fixed seed gives the same keys on every build.
pub struct SplitMix(pub u64);
impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn occupancy(&mut self) -> u128 {
        let raw = (self.next() as u128) << 64 | self.next() as u128;
        let sparse = raw & ((self.next() as u128) << 64 | self.next() as u128);
        sparse & ((1u128 << SQUARES) - 1)
    }
}

/// The Zobrist keys: one per piece and square, and the side to move, from a fixed seed so that
/// hashes (and the bench node count) are the same on every build.
pub fn generate() {
    let mut out = String::new();
    let mut rng = SplitMix(0x0C4A_7107_5EED_2026);
    let keys: Vec<[u64; 90]> = (0..14)
        .map(|_| std::array::from_fn(|_| rng.next()))
        .collect();
    emit_nested(&mut out, "ZOBRIST_PIECE", "[[u64; 90]; 14]", &keys);
    writeln!(out, "pub const ZOBRIST_SIDE: u64 = {:#x};", rng.next()).unwrap();
    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("zobrist.rs");
    fs::write(dest, out).unwrap();
}
