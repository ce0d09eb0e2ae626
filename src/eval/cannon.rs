//! A cannon's attacks and its number of moves from one rank and one file lookup. Its quiet
//! moves slide like a rook and its captures jump one screen; asking `attacks.rs` for both the
//! rook and the cannon attacks would gather the same rank and file occupancy twice.

use crate::attacks::{FILE_CANNON, RANK_BASE};
use crate::bitboard::Bitboard;
use crate::geometry::{
    file_index, file_index_rank, rank_index, FILES, FILE_INNER_BITS, RANKS, RANK_INNER_BITS,
};
use crate::types::Square;

/// Squares a slider on `from` of a line of `len` squares reaches, as bits of that line,
/// with `occ` the occupied squares of the line. A cannon's are beyond its screen.
const fn walk(from: usize, len: usize, occ: u32, cannon: bool) -> u32 {
    let mut out = 0;
    let mut dir = 0;
    while dir < 2 {
        let mut screened = false;
        let mut cur = from;
        loop {
            if (dir == 0 && cur == 0) || (dir == 1 && cur + 1 == len) {
                break;
            }
            cur = if dir == 0 { cur - 1 } else { cur + 1 };
            let occupied = occ >> cur & 1 != 0;
            if cannon && !screened {
                screened = occupied;
                continue;
            }
            out |= 1 << cur;
            if occupied {
                break;
            }
        }
        dir += 1;
    }
    out
}

/// Occupancy of a rank (bit = file) from a [`rank_index`].
const fn rank_occupancy(index: usize) -> u32 {
    (index as u32) << 1
}

/// Occupancy of a file (bit = rank) from a [`file_index`].
const fn file_occupancy(index: usize) -> u32 {
    let mut occ = 0;
    let mut k = 0;
    while k < FILE_INNER_BITS as usize {
        if index >> k & 1 != 0 {
            occ |= 1 << file_index_rank(k);
        }
        k += 1;
    }
    occ
}

/// `RANK[file][index]`: cannon attacks along rank 0 in the low 16 bits, rook attacks in the
/// high 16.
static RANK: [[u32; 1 << RANK_INNER_BITS]; FILES] = {
    let mut table = [[0; 1 << RANK_INNER_BITS]; FILES];
    let mut file = 0;
    while file < FILES {
        let mut index = 0;
        while index < 1 << RANK_INNER_BITS {
            let occ = rank_occupancy(index);
            table[file][index] = walk(file, FILES, occ, true) | walk(file, FILES, occ, false) << 16;
            index += 1;
        }
        file += 1;
    }
    table
};

/// `FILE_QUIET[rank][index]`: empty squares of ranks 1-8 a rook slides over along the file
/// (low four bits), and whether it reaches rank 0 (bit 4) and rank 9 (bit 5), which the
/// index does not see: those count when empty.
static FILE_QUIET: [[u8; 1 << FILE_INNER_BITS]; RANKS] = {
    let mut table = [[0; 1 << FILE_INNER_BITS]; RANKS];
    let mut rank = 0;
    while rank < RANKS {
        let mut index = 0;
        while index < 1 << FILE_INNER_BITS {
            let occ = file_occupancy(index);
            let reach = walk(rank, RANKS, occ, false);
            let inner = reach & !occ & 0x1FE;
            table[rank][index] =
                inner.count_ones() as u8 | ((reach & 1) << 4) as u8 | ((reach >> 9 & 1) << 5) as u8;
            index += 1;
        }
        rank += 1;
    }
    table
};

/// The nine squares of `rank` as bits 0-8. Ranks 0-6 lie in the low half of the board, ranks
/// 7-9 in the board shifted down 63 bits: one 64-bit shift either way.
#[inline(always)]
fn rank_occupancy_of(occ: Bitboard, rank: usize) -> u32 {
    let (word, shift) = if rank >= 7 {
        ((occ.0 >> 63) as u64, rank * FILES - 63)
    } else {
        (occ.0 as u64, rank * FILES)
    };
    (word >> (shift % 64)) as u32 & 0x1FF
}

/// The squares a cannon on `sq` attacks (beyond its screen), and how many empty squares it
/// can slide to.
#[inline(always)]
pub fn attacks_and_quiet(sq: Square, occ: Bitboard) -> (Bitboard, u32) {
    let (file, rank) = (sq.file(), sq.rank());
    let rank_occ = rank_occupancy_of(occ, rank);
    let rank_idx = (rank_occ >> 1) as usize & ((1 << RANK_INNER_BITS) - 1);
    debug_assert_eq!(rank_idx, rank_index(occ.0, rank));
    let along_rank = RANK[file][rank_idx];
    let quiet_rank = (along_rank >> 16 & !rank_occ).count_ones();
    let file_idx = file_index(occ.0, file);
    let along_file = FILE_QUIET[rank][file_idx] as u32;
    // Rank 0 and rank 9 of the file: bits 0 and 81 of the board shifted by the file (`file`
    // < 9; the mask only tells the compiler the shift stays below 64).
    let file_occ = occ.0 >> (file % 64);
    let edges = (file_occ as u32 & 1) | ((file_occ >> 80) as u32 & 2);
    let quiet_file = (along_file & 15) + (along_file >> 4 & !edges & 3).count_ones();
    let on_rank = ((along_rank & 0x1FF) as u128).wrapping_mul(RANK_BASE[rank]);
    let attacks = on_rank | FILE_CANNON[rank][file_idx] << (file % 64);
    (Bitboard(attacks), quiet_rank + quiet_file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::{cannon_attacks, rook_attacks};

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
            let occ = Bitboard(if next() & 1 == 0 { raw & thin } else { raw } & Bitboard::FULL.0);
            for sq in Square::all() {
                let (attacks, quiet) = attacks_and_quiet(sq, occ);
                assert_eq!(attacks, cannon_attacks(sq, occ), "{sq:?} {occ:?}");
                let empty = (rook_attacks(sq, occ) & !occ).count();
                assert_eq!(quiet, empty, "{sq:?} {occ:?}");
            }
        }
    }
}
