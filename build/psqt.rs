//! The packed piece-square tables.

use crate::geometry::*;
use crate::{params, score};
use std::fmt::Write as _;
use std::{env, fs, path::Path};

/// Packs the readable piece-square tables of `src/eval/params.rs` into `psqt.rs`: one packed
/// mg/eg `Score` per piece and square, material folded in, Black's half Red's turned over and
/// negated so the incremental sum is directly Red's advantage.
pub fn generate() {
    use score::Score;
    println!("cargo:rerun-if-changed=src/eval/params.rs");
    println!("cargo:rerun-if-changed=src/eval/score.rs");
    let mut red = [[0i32; SQUARES]; 7];
    for (kind, row) in red.iter_mut().enumerate() {
        let (mg_tables, eg_tables) = (params::PST_MG[kind], params::PST_EG[kind]);
        let (value_mg, value_eg) = params::PIECE_VALUE[kind];
        for (sq, entry) in row.iter_mut().enumerate() {
            let (file, rank) = (file_of(sq), rank_of(sq));
            let index = params::table_index(file, rank);
            let mirror = params::table_index(FILES - 1 - file, rank);
            let (mg, eg) = (value_mg + mg_tables[index], value_eg + eg_tables[index]);
            let mg_ok = mg_tables[index] == mg_tables[mirror];
            let eg_ok = eg_tables[index] == eg_tables[mirror];
            assert!(mg_ok && eg_ok, "piece type {kind}: asymmetric table");
            let packed = Score::new(mg, eg);
            assert!(packed.mg() == mg && packed.eg() == eg, "packing overflow");
            *entry = packed.0;
        }
    }
    let turned = |sq: usize| (RANKS - 1 - rank_of(sq)) * FILES + file_of(sq);
    let negated = |row: &[i32; SQUARES]| std::array::from_fn(|sq| (-Score(row[turned(sq)])).0);
    let black: Vec<[i32; SQUARES]> = red.iter().map(negated).collect();
    let mut out = String::new();
    writeln!(out, "pub static PSQT: [[i32; 90]; 14] = [").unwrap();
    for row in red.iter().chain(black.iter()) {
        out.push_str("    [");
        for v in row {
            write!(out, "{v},").unwrap();
        }
        out.push_str("],\n");
    }
    out.push_str("];\n");
    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("psqt.rs");
    fs::write(dest, out).unwrap();
}
