//! Attack lookups over the tables `build.rs` generated. Sliders use rank and file occupancy
//! lookups (see perf/README.md for why); leapers index 16-entry tables by their legs or eyes.

use crate::board::bitboard::Bitboard;
use crate::board::geometry::{
    diagonal_index, file_index, orthogonal_index, rank_index, FILES, RANKS,
};
use crate::board::types::{Color, Piece, PieceType, Square};

use crate::board::tables;

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard::from_table(tables::KING_ATTACKS[sq.index()])
}

#[inline(always)]
pub fn advisor_attacks(sq: Square) -> Bitboard {
    Bitboard::from_table(tables::ADVISOR_ATTACKS[sq.index()])
}

/// Elephant moves, with blocked eyes; elephants never cross the river.
#[inline(always)]
pub fn elephant_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard::from_table(
        tables::ELEPHANT_ATTACKS[sq.index()][diagonal_index(occ.bits(), sq.index())],
    )
}

/// The exchange evaluation's record of `sq`, whose first cache line also holds what a test
/// of the attackers of a king on `sq` reads (free-leg horses, lines, pawns).
#[inline(always)]
pub fn near_sets(sq: Square) -> &'static tables::NearSets {
    &tables::NEAR_SETS[sq.index()]
}

/// A record's sets as square sets, for readers outside `board/`.
impl tables::NearSets {
    #[inline(always)]
    pub fn horse(&self) -> Bitboard {
        Bitboard::from_table(self.horse)
    }

    #[inline(always)]
    pub fn lines(&self) -> Bitboard {
        Bitboard::from_table(self.lines)
    }

    #[inline(always)]
    pub fn pawn(&self, color: Color) -> Bitboard {
        Bitboard::from_table(self.pawn[color.index()])
    }

    #[inline(always)]
    pub fn king(&self) -> Bitboard {
        Bitboard::from_table(self.king)
    }

    #[inline(always)]
    pub fn advisor(&self) -> Bitboard {
        Bitboard::from_table(self.advisor)
    }

    #[inline(always)]
    pub fn elephant(&self) -> Bitboard {
        Bitboard::from_table(self.elephant)
    }
}

/// Horse attacks from `sq` given the legs' occupancy as the four-bit index
/// `orthogonal_index` computes (for callers that gather the legs their own way).
#[inline(always)]
pub fn horse_attacks_by_legs(sq: usize, legs: usize) -> Bitboard {
    Bitboard::from_table(tables::HORSE_ATTACKS[sq][legs])
}

/// Horse moves, with blocked legs.
#[inline(always)]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard::from_table(
        tables::HORSE_ATTACKS[sq.index()][orthogonal_index(occ.bits(), sq.index())],
    )
}

/// Squares from which a horse would attack `sq` given the occupancy (legs checked).
#[inline(always)]
pub fn horse_attackers(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard::from_table(
        tables::HORSE_ATTACKERS[sq.index()][diagonal_index(occ.bits(), sq.index())],
    )
}

/// Squares from which a horse with a free leg would attack `sq`: `horse_attackers` on an
/// empty board, read from the exchange evaluation's record of `sq` (which it shares cache
/// lines with) rather than a line of its own in `HORSE_ATTACKERS`.
#[inline(always)]
pub fn horse_attackers_unblocked(sq: Square) -> Bitboard {
    Bitboard::from_table(tables::NEAR_SETS[sq.index()].horse)
}

#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard::from_table(tables::PAWN_ATTACKS[color.index()][sq.index()])
}

/// Squares from which a pawn of `color` attacks `sq`.
#[inline(always)]
pub fn pawn_attackers(color: Color, sq: Square) -> Bitboard {
    Bitboard::from_table(tables::PAWN_ATTACKERS[color.index()][sq.index()])
}

/// Rook attacks: every square up to and including the first blocker in each direction.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    slider_attacks(sq, occ, &tables::RANK_ROOK, &tables::FILE_ROOK)
}

/// Cannon attacks: beyond the first blocker (the screen) up to and including the next one.
/// Cannon captures are these `& enemy`; its quiet moves are the rook attacks on empty squares.
#[inline(always)]
pub fn cannon_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    slider_attacks(sq, occ, &tables::RANK_CANNON, &tables::FILE_CANNON)
}

#[inline(always)]
fn slider_attacks(
    sq: Square,
    occ: Bitboard,
    ranks: &[[u16; 128]; FILES],
    files: &[[u128; 256]; RANKS],
) -> Bitboard {
    let (file, rank) = (sq.file(), sq.rank());
    // Multiplying by the rank's lowest square places the rank's bits without the conditional
    // moves of a variable u128 shift (rank 7 straddles the two halves).
    let along_rank =
        (ranks[file][rank_index(occ.bits(), rank)] as u128).wrapping_mul(tables::RANK_BASE[rank]);
    // `file` < 9: the mask only tells the compiler the shift stays below 64.
    let along_file = files[rank][file_index(occ.bits(), file)] << (file % 64);
    Bitboard::from_table(along_rank | along_file)
}

/// The squares `piece` on `sq` attacks (could capture on) with occupancy `occ`, pins ignored:
/// the one dispatch from a piece to its attack table. A cannon's quiet moves are not attacks
/// (they are its rook moves onto empty squares).
#[inline(always)]
pub fn piece_attacks(piece: Piece, sq: Square, occ: Bitboard) -> Bitboard {
    match piece.kind() {
        PieceType::King => king_attacks(sq),
        PieceType::Advisor => advisor_attacks(sq),
        PieceType::Elephant => elephant_attacks(sq, occ),
        PieceType::Horse => horse_attacks(sq, occ),
        PieceType::Rook => rook_attacks(sq, occ),
        PieceType::Cannon => cannon_attacks(sq, occ),
        PieceType::Pawn => pawn_attacks(piece.color(), sq),
    }
}

/// Squares strictly between two squares on one rank or file; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard::from_table(tables::BETWEEN[a.index()][b.index()])
}

/// Squares from or to which a move can change the attacks on a king standing on `ksq`
/// (its rank and file, horse jump squares and their legs); other moves never give check.
#[inline(always)]
pub fn check_region(ksq: Square) -> Bitboard {
    Bitboard::from_table(tables::CHECK_REGION[ksq.index()])
}

/// The rank and file of `sq` without `sq`: the rook attacks on an empty board.
#[inline(always)]
pub fn lines_through(sq: Square) -> Bitboard {
    Bitboard::from_table(tables::LINES_THROUGH[sq.index()])
}

/// The square, as a bit index, that must be empty for the elephant or horse on `from` to
/// attack `sq`: its eye or leg, the diagonal neighbour of `sq` toward `from`. For any other
/// pair of squares it means nothing, but it stays below 128, a valid shift of a board, so the
/// exchange's tests need no branch on the kind.
#[inline(always)]
pub fn leg_bit(sq: Square, from: Square) -> u32 {
    let step = LEG_STEP[usize::from(from.index().wrapping_sub(sq.index()) as u8)];
    (sq.index() as i32 + i32::from(step)) as u32 & 127
}

/// Per difference `from - sq` of the squares of an elephant or horse and of a square it
/// attacks (wrapped to a byte): the step from `sq` to the eye or leg between them, which is
/// the diagonal neighbour of `sq` toward `from`. 0 for any other difference.
const LEG_STEP: [i8; 256] = {
    const FILES: i32 = 9;
    // (rank step, file step) from `sq` to the horses and elephants that attack it.
    const JUMPS: [(i32, i32); 12] = [
        (2, 1),
        (2, -1),
        (-2, 1),
        (-2, -1),
        (1, 2),
        (1, -2),
        (-1, 2),
        (-1, -2),
        (2, 2),
        (2, -2),
        (-2, 2),
        (-2, -2),
    ];
    let mut table = [0; 256];
    let mut i = 0;
    while i < JUMPS.len() {
        let (rank, file) = JUMPS[i];
        let difference = rank * FILES + file;
        table[(difference as u8) as usize] = (rank.signum() * FILES + file.signum()) as i8;
        i += 1;
    }
    table
};

/// The up-to-four diagonal neighbours: where the legs of horses attacking `sq` stand.
#[inline(always)]
pub fn diagonal_neighbours(sq: Square) -> Bitboard {
    Bitboard::from_table(tables::DIAGONAL_NEIGHBOURS[sq.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `leg_bit` names the one square whose piece stops each elephant and horse that could
    /// attack `sq`: occupied alone it blocks that attacker, and no other square does.
    #[test]
    fn leg_bit_is_the_square_that_blocks() {
        let mut pairs = 0;
        for sq in Square::all() {
            let horses = horse_attackers_unblocked(sq);
            let elephants = elephant_attacks(sq, Bitboard::EMPTY);
            for from in horses | elephants {
                let blocks = |occ: Bitboard| {
                    if horses.has(from) {
                        !horse_attackers(sq, occ).has(from)
                    } else {
                        !elephant_attacks(sq, occ).has(from)
                    }
                };
                let leg = leg_bit(sq, from);
                assert!(leg < 90, "{sq:?} {from:?}");
                for other in Square::all() {
                    let alone = Bitboard::from_square(other);
                    assert_eq!(
                        blocks(alone),
                        other.index() as u32 == leg,
                        "{sq:?} {from:?} {other:?}"
                    );
                }
                pairs += 1;
            }
        }
        assert!(pairs > 500, "{pairs} pairs");
    }
}
