//! Board geometry shared by `build.rs` and the crate: square numbering, palace, river and
//! the bit-gathering used to index slider tables. Kept dependency-free so the build script can
//! `include!` it; the crate and the generator therefore can never disagree about the board.

/// Files a..i.
pub const FILES: usize = 9;
/// Ranks 0..9, rank 0 is Red's back rank.
pub const RANKS: usize = 10;
/// Number of squares; square = rank * 9 + file, a0 = 0, i9 = 89.
pub const SQUARES: usize = 90;

/// File, rank and bit of every square: a load is cheaper than a division by 9 or a variable
/// 128-bit shift.
pub const SQUARE_FILE: [u8; SQUARES] = {
    let mut table = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        table[sq] = file_of(sq) as u8;
        sq += 1;
    }
    table
};
pub const SQUARE_RANK: [u8; SQUARES] = {
    let mut table = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        table[sq] = rank_of(sq) as u8;
        sq += 1;
    }
    table
};
pub const SQUARE_BIT: [u128; SQUARES] = {
    let mut table = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        table[sq] = 1 << sq;
        sq += 1;
    }
    table
};

pub const fn file_of(sq: usize) -> usize {
    sq % FILES
}

pub const fn rank_of(sq: usize) -> usize {
    sq / FILES
}

/// The square at (file, rank) if it is on the board.
pub const fn square_at(file: i32, rank: i32) -> Option<usize> {
    if file >= 0 && file < FILES as i32 && rank >= 0 && rank < RANKS as i32 {
        Some(rank as usize * FILES + file as usize)
    } else {
        None
    }
}

/// `color` 0 is Red (ranks 0-4 are its side of the river), 1 is Black.
pub const fn on_own_side(color: usize, sq: usize) -> bool {
    let rank = rank_of(sq);
    if color == 0 {
        rank <= 4
    } else {
        rank >= 5
    }
}

pub const fn in_palace(color: usize, sq: usize) -> bool {
    let (file, rank) = (file_of(sq), rank_of(sq));
    let rank_ok = if color == 0 { rank <= 2 } else { rank >= 7 };
    file >= 3 && file <= 5 && rank_ok
}

/// The seven points an elephant of `color` may stand on: even files and even ranks of its own
/// side, the files and ranks (counted from its back rank) adding up to an odd number of steps.
pub const fn elephant_point(color: usize, sq: usize) -> bool {
    let (file, rank) = (file_of(sq), rank_of(sq));
    let own_rank = if color == 0 { rank } else { RANKS - 1 - rank };
    own_rank <= 4 && own_rank % 2 == 0 && file % 2 == 0 && (file / 2 + own_rank / 2) % 2 == 1
}

/// Leg and eye lookups read a 21-bit window of the board centred on the square: window bit
/// `j` is square `sq - 10 + j`. Off-board neighbours wrap to other squares or fall outside
/// the board; the tables treat those window bits as "don't care".
pub const fn neighbour_window(occ: u128, sq: usize) -> u64 {
    // Bits 90..127 are always clear, so shifting left by 10 loses nothing.
    ((occ << 10) >> sq) as u64
}

/// Window bits of the diagonal neighbours: SW, SE, NW, NE (an elephant's eyes, and the legs
/// of the horses that attack the centre square).
pub const DIAGONAL_WINDOW: [u32; 4] = [0, 2, 18, 20];
/// Window bits of the orthogonal neighbours: S, W, E, N (a horse's legs).
pub const ORTHOGONAL_WINDOW: [u32; 4] = [1, 9, 11, 19];
/// Found by search; build.rs asserts it maps the 16 subsets to 16 distinct indices.
pub const DIAGONAL_GATHER: u64 = 0x2000_0400_0000_0003;
pub const ORTHOGONAL_GATHER: u64 = 0x2010_0200_0000_0001;

const fn window_mask(bits: [u32; 4]) -> u64 {
    (1 << bits[0]) | (1 << bits[1]) | (1 << bits[2]) | (1 << bits[3])
}

/// 4-bit index of which window bits in `bits` are set in `window`.
pub const fn gather_neighbours(window: u64, bits: [u32; 4], gather: u64) -> usize {
    ((window & window_mask(bits)).wrapping_mul(gather) >> 60) as usize
}

pub const fn diagonal_index(occ: u128, sq: usize) -> usize {
    gather_neighbours(neighbour_window(occ, sq), DIAGONAL_WINDOW, DIAGONAL_GATHER)
}

pub const fn orthogonal_index(occ: u128, sq: usize) -> usize {
    gather_neighbours(
        neighbour_window(occ, sq),
        ORTHOGONAL_WINDOW,
        ORTHOGONAL_GATHER,
    )
}

/// The window bit of the neighbour at (df, dr), both in -1..=1.
pub const fn window_bit(df: i32, dr: i32) -> u32 {
    (10 + df + 9 * dr) as u32
}

/// Bits of the inner files b..h of rank 0; the edges never block a slider.
pub const RANK_INNER_BITS: u32 = 7;
/// Bits of the inner ranks 1..8 of file a; see [`file_index`].
pub const FILE_INNER_BITS: u32 = 8;

/// Occupancy index of the inner squares of `rank` (bit k = file k + 1).
pub const fn rank_index(occ: u128, rank: usize) -> usize {
    // The inner squares of a rank never straddle the two 64-bit halves (rank 7's are bits
    // 64..70), so a 64-bit shift of one half finds them; a variable u128 shift costs two
    // shifts and two conditional moves.
    let half = if rank >= 7 {
        (occ >> 64) as u64
    } else {
        occ as u64
    };
    ((half >> ((rank * FILES + 1) % 64)) as usize) & ((1 << RANK_INNER_BITS) - 1)
}

/// Squares a1..a7 of file a, seen in the low half after shifting the board by the file.
const FILE_LOW_MASK: u64 =
    (1 << 9) | (1 << 18) | (1 << 27) | (1 << 36) | (1 << 45) | (1 << 54) | (1 << 63);
/// Square a8 (bit 72) seen in the high half.
const FILE_HIGH_MASK: u64 = 1 << 8;
/// Multiplying by this shifts bit 9k to 56 + k (and bit 8 to 56) with no two partial products
/// on the same bit, so no carries: an exact gather of the eight inner squares of a file.
const FILE_GATHER: u64 = 0x0001_0101_0101_0101;

/// Occupancy index of the inner squares of `file`: bit k = rank k for k in 1..7, bit 0 = rank 8.
pub const fn file_index(occ: u128, file: usize) -> usize {
    // `file` < 9: the mask only tells the compiler the shift stays below 64, which spares the
    // conditional moves of a general u128 shift.
    let shifted = occ >> (file % 64);
    let gathered = (shifted as u64 & FILE_LOW_MASK) | ((shifted >> 64) as u64 & FILE_HIGH_MASK);
    (gathered.wrapping_mul(FILE_GATHER) >> 56) as usize
}

/// The rank that bit `k` of a [`file_index`] stands for.
pub const fn file_index_rank(bit: usize) -> usize {
    if bit == 0 {
        8
    } else {
        bit
    }
}
