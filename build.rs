//! Generates the board's and the evaluation's tables into OUT_DIR at compile time, one file per
//! family in build/: the attack tables, the Zobrist keys and the packed piece-square tables;
//! and it checks and embeds the network, if the repository holds one. Each table is checked
//! against a slow direct computation while it builds. (The search's late-move reductions are
//! built at run time from its tunable parameters: `src/search/reductions.rs`.)

#[path = "src/board/geometry.rs"]
#[allow(dead_code)]
mod geometry;
#[path = "src/nnue/architecture.rs"]
#[allow(dead_code)]
mod nnue_architecture;
#[path = "src/nnue/format.rs"]
#[allow(dead_code)]
mod nnue_format;
#[path = "src/eval/params.rs"]
#[allow(dead_code)]
mod params;
#[path = "src/eval/score.rs"]
#[allow(dead_code)]
mod score;

#[path = "build/attacks.rs"]
mod attacks;
#[path = "build/emit.rs"]
mod emit;
#[path = "build/network.rs"]
mod network;
#[path = "build/psqt.rs"]
mod psqt;
#[path = "build/zobrist.rs"]
mod zobrist;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build");
    println!("cargo:rerun-if-changed=src/board/geometry.rs");
    attacks::generate();
    zobrist::generate();
    psqt::generate();
    network::generate();
}
