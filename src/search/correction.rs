//! Static-evaluation correction history: how far searches have found the evaluation off in
//! positions sharing a structure, learnt while the search runs and added to later static
//! evaluations of the same structure. Two structures are remembered, each per side to move:
//! the pawns with the advisors and elephants (the slow-changing skeleton the evaluation reads
//! least well), and the material balance. The main search uses the corrected evaluation;
//! quiescence stands pat on the plain one (correcting it there measured no better and cost
//! mate-search headroom).

use super::params::{correction_max, correction_weight_max, range};
use crate::board::position::Position;
use crate::board::types::{Color, PieceType};

const ENTRIES: usize = 16_384;
/// Entries hold centipawns times this, so small steps are not rounded away.
const GRAIN: i32 = 256;

/// Entries are stored as `i16`: half the memory (64 KB a table, fewer cache misses at the
/// lookup every node makes). [`CorrectionHistory::update`] keeps them within
/// `-correction_max() * GRAIN..correction_max() * GRAIN`, `-32768..=32767`: the top itself is
/// never reached (a step covers `weight / 64 < 1` of the distance, rounded toward zero).
pub struct CorrectionHistory {
    structure: Box<[[i16; ENTRIES]; 2]>,
    material: Box<[[i16; ENTRIES]; 2]>,
}

const _: () = assert!(
    -*range::correction_max.end() * GRAIN >= i16::MIN as i32
        && *range::correction_max.end() * GRAIN - 1 <= i16::MAX as i32
        && *range::correction_weight_max.end() < 64
);

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            structure: Box::new([[0; ENTRIES]; 2]),
            material: Box::new([[0; ENTRIES]; 2]),
        }
    }
}

/// The table slots of one position: side to move, and the index of each structure.
#[derive(Clone, Copy)]
pub struct Slots {
    side: usize,
    structure: usize,
    material: usize,
}

impl Slots {
    /// Stands in where no slot is read (a node in check).
    pub const UNUSED: Slots = Slots {
        side: 0,
        structure: 0,
        material: 0,
    };

    /// The slots of `pos`, whose material signature ([`crate::eval::Evaluator::material`]) is
    /// `material`.
    pub fn of(pos: &Position, material: u64) -> Slots {
        let bits = |color, kind| pos.pieces(color, kind).bits();
        let skeleton = |color| {
            bits(color, PieceType::Pawn)
                ^ bits(color, PieceType::Advisor).rotate_left(7)
                ^ bits(color, PieceType::Elephant)
        };
        let structure = mix(skeleton(Color::Red)) ^ mix(skeleton(Color::Black)).rotate_left(32);
        Slots {
            side: pos.side_to_move().index(),
            structure: index(structure),
            material: index(mix(material as u128)),
        }
    }
}

/// A multiply-xorshift mix of a 128-bit set into 64 bits.
fn mix(bits: u128) -> u64 {
    let folded = (bits as u64) ^ ((bits >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mixed = folded.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    mixed ^ (mixed >> 31)
}

fn index(key: u64) -> usize {
    (key >> 50) as usize % ENTRIES
}

impl CorrectionHistory {
    /// What to add to the static evaluation of a position with these slots, in centipawns:
    /// the mean of the two tables (each learns the whole error).
    #[inline]
    pub fn correction(&self, slots: Slots) -> i32 {
        let structure = i32::from(self.structure[slots.side][slots.structure]);
        let material = i32::from(self.material[slots.side][slots.material]);
        (structure + material) / (2 * GRAIN)
    }

    #[cfg(test)]
    pub fn learnt_anything(&self) -> bool {
        self.structure
            .iter()
            .chain(self.material.iter())
            .flatten()
            .any(|&e| e != 0)
    }

    /// A search of `depth` found `searched` where the uncorrected evaluation said `raw`: each
    /// entry moves toward the difference, deeper searches moving it further.
    pub fn update(&mut self, slots: Slots, depth: i32, searched: i32, raw: i32) {
        let target = (searched - raw).clamp(-correction_max(), correction_max()) * GRAIN;
        let weight = (depth + 1).min(correction_weight_max());
        for entry in [
            &mut self.structure[slots.side][slots.structure],
            &mut self.material[slots.side][slots.material],
        ] {
            let old = i32::from(*entry);
            let moved = old + (target - old) * weight / 64;
            let moved = moved.clamp(-correction_max() * GRAIN, correction_max() * GRAIN);
            debug_assert!(i16::try_from(moved).is_ok());
            // Within i16: the step is short of the target (see the type's note).
            *entry = moved as i16;
        }
    }
}
