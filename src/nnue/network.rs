//! The quantised network: loaded from a file (or the one embedded at build time), written by
//! the trainer, and read by the accumulators.

use super::format::{self, Shape};
use super::{BUCKETS, FEATURES, HIDDEN, QA, QB, SCALE};
use std::fmt;

/// One row of the hidden layer, aligned for whole-register loads.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row(pub [i16; HIDDEN]);

/// The network's integer weights.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// First layer: row `f` is input `f`'s column of weights.
    pub(crate) ft_weights: Box<[Row]>,
    pub(crate) ft_bias: Row,
    /// Per bucket: the side to move's half, then the other's.
    pub(crate) out_weights: Box<[[Row; 2]; BUCKETS]>,
    pub(crate) out_bias: [i32; BUCKETS],
    /// Where it came from (the file's path or the embedded name), for `info string`.
    pub name: String,
}

/// The embedded network's name in messages.
pub const EMBEDDED_NAME: &str = "<embedded>";

/// The network file `build.rs` embedded (`data/nnue/chariot.nnue`), or nothing when the
/// repository holds none.
const EMBEDDED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/network.nnue"));

/// Whether this build carries a network.
pub const HAS_EMBEDDED: bool = !EMBEDDED.is_empty();

/// Why a network could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkError(pub String);

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Network({})", self.name)
    }
}

/// The shape this build's inference is compiled for.
pub const SHAPE: Shape = Shape {
    features: FEATURES,
    hidden: HIDDEN,
    buckets: BUCKETS,
    qa: QA,
    qb: QB,
    scale: SCALE,
};

impl Network {
    /// The network built into the binary, if the repository held one when it was built.
    pub fn embedded() -> Option<Network> {
        if EMBEDDED.is_empty() {
            return None;
        }
        // build.rs checked the same bytes, so this cannot fail.
        Some(Network::from_bytes(EMBEDDED, EMBEDDED_NAME).expect("build.rs checked the network"))
    }

    /// Reads a network file.
    pub fn load(path: &str) -> Result<Network, NetworkError> {
        let bytes = std::fs::read(path).map_err(|e| NetworkError(format!("{path}: {e}")))?;
        Network::from_bytes(&bytes, path).map_err(|e| NetworkError(format!("{path}: {}", e.0)))
    }

    /// Parses a network, checking its header, architecture, size and checksum.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Network, NetworkError> {
        let shape = format::check(bytes).map_err(NetworkError)?;
        if shape != SHAPE {
            return Err(NetworkError(format!(
                "architecture {}x{} with {} buckets (QA {}, QB {}, scale {}); this build runs {}x{} with {} buckets (QA {}, QB {}, scale {})",
                shape.features, shape.hidden, shape.buckets, shape.qa, shape.qb, shape.scale,
                SHAPE.features, SHAPE.hidden, SHAPE.buckets, SHAPE.qa, SHAPE.qb, SHAPE.scale
            )));
        }
        let mut words = bytes[format::HEADER_BYTES..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut row = || {
            let mut r = Row([0; HIDDEN]);
            for w in &mut r.0 {
                *w = words.next().expect("size checked");
            }
            r
        };
        let ft_weights: Box<[Row]> = (0..FEATURES).map(|_| row()).collect();
        let ft_bias = row();
        let mut out_weights = Box::new([[Row([0; HIDDEN]); 2]; BUCKETS]);
        for halves in out_weights.iter_mut() {
            halves[0] = row();
            halves[1] = row();
        }
        let tail = format::HEADER_BYTES + 2 * (FEATURES + 1 + 2 * BUCKETS) * HIDDEN;
        let mut out_bias = [0i32; BUCKETS];
        for (b, chunk) in out_bias.iter_mut().zip(bytes[tail..].chunks_exact(4)) {
            *b = i32::from_le_bytes(chunk.try_into().expect("4 bytes"));
        }
        Ok(Network {
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            name: name.to_string(),
        })
    }

    /// The file's bytes, checksum included.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(SHAPE.file_bytes());
        out.extend_from_slice(&SHAPE.header());
        let rows = self
            .ft_weights
            .iter()
            .chain(std::iter::once(&self.ft_bias))
            .chain(self.out_weights.iter().flatten());
        for row in rows {
            for w in row.0 {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for b in self.out_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = format::fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The file's FNV-1a checksum: which network this is, exactly.
    pub fn checksum(&self) -> u64 {
        let bytes = self.to_bytes();
        u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"))
    }

    /// A network of the given integer weights (the trainer's quantiser; tests).
    pub fn from_parts(
        ft_weights: Vec<[i16; HIDDEN]>,
        ft_bias: [i16; HIDDEN],
        out_weights: [[[i16; HIDDEN]; 2]; BUCKETS],
        out_bias: [i32; BUCKETS],
        name: &str,
    ) -> Network {
        assert_eq!(ft_weights.len(), FEATURES);
        Network {
            ft_weights: ft_weights.into_iter().map(Row).collect(),
            ft_bias: Row(ft_bias),
            out_weights: Box::new(out_weights.map(|halves| halves.map(Row))),
            out_bias,
            name: name.to_string(),
        }
    }

    /// A network of seeded random weights within the quantisation bounds (tests, benches).
    pub fn random(seed: u64) -> Network {
        let mut rng = fastrand::Rng::with_seed(seed);
        let ft_weights = (0..FEATURES)
            .map(|_| std::array::from_fn(|_| rng.i16(-90..=90)))
            .collect();
        let ft_bias = std::array::from_fn(|_| rng.i16(-60..=120));
        let out_weights = std::array::from_fn(|_| {
            std::array::from_fn(|_| std::array::from_fn(|_| rng.i16(-2000..=2000)))
        });
        let out_bias = std::array::from_fn(|_| rng.i32(-QB..=QB));
        Network::from_parts(ft_weights, ft_bias, out_weights, out_bias, "random")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_written_and_read_back_is_the_same() {
        let net = Network::random(3);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), SHAPE.file_bytes());
        let back = Network::from_bytes(&bytes, "random").unwrap();
        assert!(back == net);
    }

    #[test]
    fn bad_files_give_one_clear_error() {
        let bytes = Network::random(4).to_bytes();
        let err = |b: &[u8]| Network::from_bytes(b, "x").unwrap_err().0;
        assert!(err(&bytes[..bytes.len() - 1]).contains("truncated"));
        assert!(err(&bytes[..10]).contains("too short"));
        assert!(err(b"not a network at all, certainly not one of ours").contains("CHARIOTN"));
        let mut corrupt = bytes.clone();
        corrupt[1000] ^= 1;
        assert!(err(&corrupt).contains("checksum"));
        let mut other = Shape {
            hidden: 128,
            ..SHAPE
        };
        let mut small = other.header().to_vec();
        small.resize(other.file_bytes() - 8, 0);
        let sum = format::fnv1a(&small);
        small.extend_from_slice(&sum.to_le_bytes());
        assert!(err(&small).contains("architecture"));
        other.hidden = HIDDEN;
        assert_eq!(other, SHAPE);
        assert!(Network::load("/no/such/file.nnue")
            .unwrap_err()
            .0
            .contains("/no/such"));
    }
}
