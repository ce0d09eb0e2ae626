//! The late-move reduction table: `LMR_OFFSET + ln(depth) ln(moves) / LMR_DIVISOR` plies (the
//! search's parameters) for every depth and move number below 64, so the search reads a
//! constant table instead of building one at first use.

use crate::search_params::{LMR_DIVISOR, LMR_OFFSET};
use std::fmt::Write as _;
use std::{env, fs, path::Path};

/// Depths and move numbers the table covers; the search caps both below this.
const SIZE: usize = 64;

pub fn generate() {
    println!("cargo:rerun-if-changed=src/search/params.rs");
    let mut out = String::new();
    writeln!(out, "pub static REDUCTIONS: [[i32; {SIZE}]; {SIZE}] = [").unwrap();
    for depth in 0..SIZE {
        out.push_str("    [");
        for moves in 0..SIZE {
            write!(out, "{},", reduction(depth, moves)).unwrap();
        }
        out.push_str("],\n");
    }
    out.push_str("];\n");
    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("reductions.rs");
    fs::write(dest, out).unwrap();
}

/// No reduction at depth 0 or for the first move (the logarithms would be 0 or undefined).
fn reduction(depth: usize, moves: usize) -> i32 {
    if depth == 0 || moves == 0 {
        return 0;
    }
    let r = LMR_OFFSET + (depth as f64).ln() * (moves as f64).ln() / LMR_DIVISOR;
    assert!(
        (0.0..64.0).contains(&r),
        "reduction {r} at depth {depth}, move {moves}"
    );
    r as i32
}
