//! The network file's layout, shared with `build.rs` (which checks the embedded network with it),
//! so it depends on nothing else of the crate.
//!
//! All little-endian: a 36-byte header (magic `CHARIOTN`, then `u32`s: format version, inputs,
//! hidden size, output buckets, QA, QB, scale), the first layer's weights (input-major: each
//! input's `hidden` weights together) and biases as `i16`, the output weights (per bucket the side
//! to move's half, then the other's) as `i16`, the output biases as `i32`, and last a `u64`
//! FNV-1a checksum of everything before it.

pub const MAGIC: &[u8; 8] = b"CHARIOTN";
pub const VERSION: u32 = 1;
pub const HEADER_BYTES: usize = 36;

/// The architecture a header declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub features: usize,
    pub hidden: usize,
    pub buckets: usize,
    pub qa: i32,
    pub qb: i32,
    pub scale: i32,
}

impl Shape {
    /// Bytes of a whole file of this shape.
    pub fn file_bytes(&self) -> usize {
        HEADER_BYTES
            + 2 * (self.features * self.hidden + self.hidden)
            + 2 * (self.buckets * 2 * self.hidden)
            + 4 * self.buckets
            + 8
    }

    pub fn header(&self) -> [u8; HEADER_BYTES] {
        let mut out = [0u8; HEADER_BYTES];
        out[..8].copy_from_slice(MAGIC);
        let fields = [
            VERSION,
            self.features as u32,
            self.hidden as u32,
            self.buckets as u32,
            self.qa as u32,
            self.qb as u32,
            self.scale as u32,
        ];
        for (i, v) in fields.iter().enumerate() {
            out[8 + 4 * i..12 + 4 * i].copy_from_slice(&v.to_le_bytes());
        }
        out
    }
}

/// Reads the header and checks the size and checksum of the whole file against it.
pub fn check(bytes: &[u8]) -> Result<Shape, String> {
    if bytes.len() < HEADER_BYTES {
        return Err(format!(
            "{} bytes: too short for a network header",
            bytes.len()
        ));
    }
    if &bytes[..8] != MAGIC {
        return Err("not a Chariot network (no CHARIOTN header)".into());
    }
    let field = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
    if field(0) != VERSION {
        return Err(format!(
            "network format version {}, this build reads {VERSION}",
            field(0)
        ));
    }
    let shape = Shape {
        features: field(1) as usize,
        hidden: field(2) as usize,
        buckets: field(3) as usize,
        qa: field(4) as i32,
        qb: field(5) as i32,
        scale: field(6) as i32,
    };
    if shape.features > 1 << 20 || shape.hidden > 1 << 16 || shape.buckets > 1 << 8 {
        return Err(format!("implausible shape {shape:?}"));
    }
    let expected = shape.file_bytes();
    if bytes.len() != expected {
        return Err(format!(
            "{} bytes where {} {}x{} with {} buckets takes {expected} (truncated or padded)",
            bytes.len(),
            "a network of",
            shape.features,
            shape.hidden,
            shape.buckets
        ));
    }
    let (body, sum) = bytes.split_at(expected - 8);
    if fnv1a(body) != u64::from_le_bytes(sum.try_into().unwrap()) {
        return Err("checksum mismatch: the file is corrupt".into());
    }
    Ok(shape)
}

/// 64-bit FNV-1a.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}
