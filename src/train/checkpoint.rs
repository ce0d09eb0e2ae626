//! The trainer's checkpoint: the float weights, Adam's moments and step, the epoch reached, k
//! and the best held-out loss so far, so `--resume` continues exactly where a run stopped and
//! replaces the network it wrote only with a better one. Little-endian, checked as the network
//! file is: magic `CHRTCKPT`, `u32` format version, `u32` epoch, `u64` step, `f32` k, `f64`
//! best held-out loss (format 3 on), `u32` parameter count, then weights, m and v as `f32`, and
//! last a `u64` FNV-1a checksum of everything before it.

use super::model::{FloatNet, PARAMS};
use super::Adam;
use crate::nnue::format::fnv1a;
use crate::output_file::OutputPath;
use std::path::Path;

const MAGIC: &[u8; 8] = b"CHRTCKPT";
/// Version 1 was the layout before the version and checksum, under the magic `CHCKPT01`;
/// version 2 had no best loss, and is still read (as no best loss yet).
const VERSION: u32 = 3;
const OLD_MAGIC: &[u8; 8] = b"CHCKPT01";
const HEADER_BYTES: usize = 8 + 4 + 4 + 8 + 4 + 8 + 4;
const FILE_BYTES: usize = HEADER_BYTES + 3 * 4 * PARAMS + 8;
/// Version 2's header lacks the best loss's 8 bytes.
const V2_HEADER_BYTES: usize = HEADER_BYTES - 8;

pub struct Checkpoint {
    pub net: FloatNet,
    pub adam: Adam,
    pub epoch: usize,
    pub k: f32,
    /// The lowest held-out loss of the epochs so far, the one the run's network has (infinite
    /// when none was written, or in a version 2 checkpoint).
    pub best: f64,
}

/// Writes the checkpoint through a file beside it, so a run stopped while writing keeps the
/// previous one.
pub fn write(
    path: &OutputPath,
    net: &FloatNet,
    adam: &Adam,
    epoch: usize,
    k: f32,
    best: f64,
) -> Result<(), String> {
    // Built whole in memory (a few MB, beside the weights and moments it copies), so the
    // checksum covers exactly the bytes written.
    let mut bytes = Vec::with_capacity(FILE_BYTES);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(epoch as u32).to_le_bytes());
    bytes.extend_from_slice(&adam.t.to_le_bytes());
    bytes.extend_from_slice(&k.to_le_bytes());
    bytes.extend_from_slice(&best.to_le_bytes());
    bytes.extend_from_slice(&(PARAMS as u32).to_le_bytes());
    for block in [&net.0, &adam.m, &adam.v] {
        for x in block.iter() {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
    }
    let sum = fnv1a(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    debug_assert_eq!(bytes.len(), FILE_BYTES);
    path.write(&bytes)
}

pub fn read(path: &Path) -> Result<Checkpoint, String> {
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    if bytes.starts_with(OLD_MAGIC) {
        return Err(format!(
            "{name}: a checkpoint of format 1 (without a checksum); this build reads format \
             {VERSION}, so the run cannot be resumed from it"
        ));
    }
    if bytes.len() < V2_HEADER_BYTES || &bytes[..8] != MAGIC {
        return Err(format!("{name}: not a Chariot training checkpoint"));
    }
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
    let version = u32_at(8);
    let header = match version {
        2 => V2_HEADER_BYTES,
        VERSION => HEADER_BYTES,
        _ => {
            return Err(format!(
                "{name}: checkpoint format {version}, this build reads 2 and {VERSION}"
            ))
        }
    };
    let epoch = u32_at(12) as usize;
    let t = u64::from_le_bytes(bytes[16..24].try_into().unwrap());
    let k = f32::from_le_bytes(bytes[24..28].try_into().unwrap());
    let best = match version {
        2 => f64::INFINITY,
        _ => f64::from_le_bytes(bytes[28..36].try_into().unwrap()),
    };
    let count = u32_at(header - 4) as usize;
    if count != PARAMS {
        return Err(format!(
            "{name}: {count} parameters, this build's network has {PARAMS}"
        ));
    }
    let file_bytes = header + 3 * 4 * PARAMS + 8;
    if bytes.len() != file_bytes {
        return Err(format!(
            "{name}: {} bytes where a checkpoint takes {file_bytes} (truncated or padded)",
            bytes.len()
        ));
    }
    let (body, sum) = bytes.split_at(file_bytes - 8);
    if fnv1a(body) != u64::from_le_bytes(sum.try_into().unwrap()) {
        return Err(format!(
            "{name}: checksum mismatch: the checkpoint is corrupt"
        ));
    }
    let mut floats = body[header..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()));
    let mut block = || {
        (0..PARAMS)
            .map(|_| floats.next().unwrap())
            .collect::<Vec<f32>>()
    };
    let net = FloatNet(block());
    let m = block();
    let v = block();
    Ok(Checkpoint {
        net,
        adam: Adam { m, v, t },
        epoch,
        k,
        best,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output_file::Existing;

    /// A fresh directory for one test, the checkpoint path in it, and that path as an output.
    fn scratch(name: &str) -> (std::path::PathBuf, std::path::PathBuf, OutputPath) {
        let dir = std::env::temp_dir().join(format!("chariot-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.ckpt");
        let output = OutputPath::check(&path, "--checkpoint", Existing::Replace).unwrap();
        (dir, path, output)
    }

    #[test]
    fn a_checkpoint_read_back_is_the_same() {
        let (dir, path, output) = scratch("ckpt");
        let net = FloatNet::random(4);
        let mut adam = Adam::new(PARAMS);
        adam.m[5] = 0.25;
        adam.v[7] = 0.5;
        adam.t = 99;
        write(&output, &net, &adam, 3, 0.0042, 0.0037).unwrap();
        let back = read(&path).unwrap();
        assert!(back.net == net);
        assert_eq!(
            (back.epoch, back.k, back.adam.t, back.best),
            (3, 0.0042, 99, 0.0037)
        );
        assert_eq!((back.adam.m[5], back.adam.v[7]), (0.25, 0.5));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A checkpoint of the format before the best loss still resumes, as one without a best.
    #[test]
    fn a_version_2_checkpoint_reads_without_a_best_loss() {
        let (dir, path, output) = scratch("ckpt-v2");
        let net = FloatNet::random(5);
        write(&output, &net, &Adam::new(PARAMS), 4, 0.003, 0.002).unwrap();
        let v3 = std::fs::read(&path).unwrap();
        // Version 2: the same without the best loss's 8 bytes, checksummed anew.
        let mut v2 = [&v3[..28], &v3[36..v3.len() - 8]].concat();
        v2[8..12].copy_from_slice(&2u32.to_le_bytes());
        let sum = fnv1a(&v2);
        v2.extend_from_slice(&sum.to_le_bytes());
        std::fs::write(&path, &v2).unwrap();
        let back = read(&path).unwrap();
        assert!(back.net == net);
        assert_eq!((back.epoch, back.k), (4, 0.003));
        assert_eq!(back.best, f64::INFINITY);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A damaged checkpoint is refused with what is wrong, never read as weights: cut short,
    /// one bit flipped anywhere (header, weights, moments or the checksum itself), another
    /// format version, the old format, or not a checkpoint at all.
    #[test]
    fn a_damaged_checkpoint_is_refused() {
        let (dir, path, output) = scratch("ckpt-bad");
        let (net, adam) = (FloatNet::random(4), Adam::new(PARAMS));
        write(&output, &net, &adam, 3, 0.004, f64::INFINITY).unwrap();
        let good = std::fs::read(&path).unwrap();
        let refused = |bytes: &[u8]| {
            std::fs::write(&path, bytes).unwrap();
            read(&path).err().expect("refused")
        };
        assert!(refused(&good[..good.len() - 3]).contains("truncated"));
        for at in [
            13,
            HEADER_BYTES + 1,
            HEADER_BYTES + 4 * PARAMS + 2,
            good.len() - 1,
        ] {
            let mut flipped = good.clone();
            flipped[at] ^= 0x10;
            assert!(refused(&flipped).contains("checksum"), "byte {at}");
        }
        let mut future = good.clone();
        future[8..12].copy_from_slice(&(VERSION + 1).to_le_bytes());
        assert!(refused(&future).contains("format 4"));
        let mut old = good.clone();
        old[..8].copy_from_slice(OLD_MAGIC);
        assert!(refused(&old).contains("format 1"));
        assert!(refused(b"CHARIOTN and more").contains("not a Chariot training checkpoint"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
