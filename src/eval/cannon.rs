//! A cannon's attacks and its number of moves from one rank and one file lookup. Its quiet
//! moves slide like a rook and its captures jump one screen; asking `attacks.rs` for both the
//! rook and the cannon attacks would gather the same rank and file occupancy twice.

use crate::board::bitboard::Bitboard;
use crate::board::geometry::{file_index, rank_index, FILES, RANK_INNER_BITS};
use crate::board::tables::{FILE_CANNON_QUIET, RANK_BASE, RANK_CANNON_ROOK};
use crate::board::types::Square;

/// The nine squares of `rank` as bits 0-8, and whatever squares follow above them (the
/// callers mask what they use). Ranks 0-6 lie in the low half of the board, ranks 7-9 in the
/// board shifted down 63 bits: one 64-bit shift either way.
#[inline(always)]
fn rank_occupancy_of(occ: Bitboard, rank: usize) -> u32 {
    let (word, shift) = if rank >= 7 {
        ((occ.bits() >> 63) as u64, rank * FILES - 63)
    } else {
        (occ.bits() as u64, rank * FILES)
    };
    (word >> (shift % 64)) as u32
}

/// The squares a cannon on `sq` attacks (beyond its screen), and how many empty squares it
/// can slide to.
#[inline(always)]
pub fn attacks_and_quiet(sq: Square, occ: Bitboard) -> (Bitboard, u32) {
    let (file, rank) = (sq.file(), sq.rank());
    let rank_occ = rank_occupancy_of(occ, rank);
    let rank_idx = (rank_occ >> 1) as usize & ((1 << RANK_INNER_BITS) - 1);
    debug_assert_eq!(rank_idx, rank_index(occ.bits(), rank));
    let along_rank = RANK_CANNON_ROOK[file][rank_idx];
    // The rook reach has nine bits: the squares above the rank in `rank_occ` fall away.
    let quiet_rank = (along_rank >> 16 & !rank_occ).count_ones();
    let file_idx = file_index(occ.bits(), file);
    // The file's cannon attacks with its quiet byte above the board (from bit 96): one lookup.
    let file_entry = FILE_CANNON_QUIET[rank][file_idx];
    let along_file = (file_entry >> 96) as u32;
    // Rank 0 and rank 9 of the file: bits 0 and 81 of the board shifted by the file (`file`
    // < 9; the mask only tells the compiler the shift stays below 64).
    let file_occ = occ.bits() >> (file % 64);
    let edges = (file_occ as u32 & 1) | ((file_occ >> 80) as u32 & 2);
    let quiet_file = (along_file & 15) + (along_file >> 4 & !edges & 3).count_ones();
    let on_rank = ((along_rank & 0x1FF) as u128).wrapping_mul(RANK_BASE[rank]);
    // Shifted by the file, the quiet byte stays above the board: `from_bits` masks it off.
    let attacks = on_rank | file_entry << (file % 64);
    (Bitboard::from_bits(attacks), quiet_rank + quiet_file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::attacks::{cannon_attacks, rook_attacks};

    #[test]
    fn agrees_with_the_rook_and_cannon_lookups() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..2000 {
            // Sparse and dense boards alike.
            let raw = (next() as u128) << 64 | next() as u128;
            let thin = (next() as u128) << 64 | next() as u128;
            let occ = Bitboard::from_bits(
                if next() & 1 == 0 { raw & thin } else { raw } & Bitboard::FULL.bits(),
            );
            for sq in Square::all() {
                let (attacks, quiet) = attacks_and_quiet(sq, occ);
                assert_eq!(attacks, cannon_attacks(sq, occ), "{sq:?} {occ:?}");
                let empty = (rook_attacks(sq, occ) & !occ).count();
                assert_eq!(quiet, empty, "{sq:?} {occ:?}");
            }
        }
    }
}
