//! The network to embed: `data/nnue/chariot.nnue` checked (header, size, checksum, and the
//! architecture this build runs) and copied to OUT_DIR, or an empty file when the repository
//! holds none.

use crate::nnue_architecture as arch;
use crate::nnue_format::{self, Shape};
use std::path::Path;

const SOURCE: &str = "data/nnue/chariot.nnue";

pub fn generate() {
    println!("cargo:rerun-if-changed={SOURCE}");
    println!("cargo:rerun-if-changed=src/nnue/architecture.rs");
    println!("cargo:rerun-if-changed=data/nnue");
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("network.nnue");
    let bytes = std::fs::read(SOURCE).unwrap_or_default();
    if !bytes.is_empty() {
        let shape = nnue_format::check(&bytes).unwrap_or_else(|e| panic!("{SOURCE}: {e}"));
        let built = Shape {
            features: arch::FEATURES,
            hidden: arch::HIDDEN,
            buckets: arch::BUCKETS,
            qa: arch::QA,
            qb: arch::QB,
            scale: arch::SCALE,
        };
        if shape != built {
            panic!(
                "{SOURCE} is a {}x{} network with {} buckets; this build runs {}x{} with {} \
                 (src/nnue/architecture.rs): train one for it, or remove the file to build \
                 without a network",
                shape.features,
                shape.hidden,
                shape.buckets,
                built.features,
                built.hidden,
                built.buckets
            );
        }
    }
    std::fs::write(out, bytes).unwrap();
}
