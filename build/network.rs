//! The network to embed: `data/nnue/chariot.nnue` checked (header, architecture, size,
//! checksum) and copied to OUT_DIR, or an empty file when the repository holds none.

use crate::nnue_format;
use std::path::Path;

const SOURCE: &str = "data/nnue/chariot.nnue";

pub fn generate() {
    println!("cargo:rerun-if-changed={SOURCE}");
    println!("cargo:rerun-if-changed=data/nnue");
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("network.nnue");
    let bytes = std::fs::read(SOURCE).unwrap_or_default();
    if !bytes.is_empty() {
        if let Err(e) = nnue_format::check(&bytes) {
            panic!("{SOURCE}: {e}");
        }
    }
    std::fs::write(out, bytes).unwrap();
}
