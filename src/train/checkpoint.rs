//! The trainer's checkpoint: the float weights, Adam's moments and step, the epoch reached and
//! k, so `--resume` continues exactly where a run stopped. Little-endian: magic `CHCKPT01`,
//! `u32` epoch, `u64` step, `f32` k, `u32` parameter count, then weights, m and v as `f32`.

use super::model::{FloatNet, PARAMS};
use super::Adam;
use crate::output_file::OutputPath;
use std::path::Path;

const MAGIC: &[u8; 8] = b"CHCKPT01";

pub struct Checkpoint {
    pub net: FloatNet,
    pub adam: Adam,
    pub epoch: usize,
    pub k: f32,
}

/// Writes the checkpoint through a file beside it, so a run stopped while writing keeps the
/// previous one.
pub fn write(
    path: &OutputPath,
    net: &FloatNet,
    adam: &Adam,
    epoch: usize,
    k: f32,
) -> Result<(), String> {
    let mut bytes = Vec::with_capacity(28 + 12 * PARAMS);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(epoch as u32).to_le_bytes());
    bytes.extend_from_slice(&adam.t.to_le_bytes());
    bytes.extend_from_slice(&k.to_le_bytes());
    bytes.extend_from_slice(&(PARAMS as u32).to_le_bytes());
    for block in [&net.0, &adam.m, &adam.v] {
        for x in block.iter() {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
    }
    path.write(&bytes)
}

pub fn read(path: &Path) -> Result<Checkpoint, String> {
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    let header = 8 + 4 + 8 + 4 + 4;
    if bytes.len() < header || &bytes[..8] != MAGIC {
        return Err(format!("{name}: not a Chariot training checkpoint"));
    }
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
    let epoch = u32_at(8) as usize;
    let t = u64::from_le_bytes(bytes[12..20].try_into().unwrap());
    let k = f32::from_le_bytes(bytes[20..24].try_into().unwrap());
    let count = u32_at(24) as usize;
    if count != PARAMS {
        return Err(format!(
            "{name}: {count} parameters, this build's network has {PARAMS}"
        ));
    }
    if bytes.len() != header + 3 * 4 * PARAMS {
        return Err(format!("{name}: truncated checkpoint"));
    }
    let mut floats = bytes[header..]
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_read_back_is_the_same() {
        let dir = std::env::temp_dir().join(format!("chariot-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.ckpt");
        let net = FloatNet::random(4);
        let mut adam = Adam::new(PARAMS);
        adam.m[5] = 0.25;
        adam.v[7] = 0.5;
        adam.t = 99;
        let output =
            OutputPath::check(&path, "--checkpoint", crate::output_file::Existing::Replace)
                .unwrap();
        write(&output, &net, &adam, 3, 0.0042).unwrap();
        let back = read(&path).unwrap();
        assert!(back.net == net);
        assert_eq!((back.epoch, back.k, back.adam.t), (3, 0.0042, 99));
        assert_eq!((back.adam.m[5], back.adam.v[7]), (0.25, 0.5));
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        assert!(read(&path).err().unwrap().contains("truncated"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
