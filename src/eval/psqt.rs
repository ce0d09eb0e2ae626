//! The packed piece-square tables `build.rs` generated from `params.rs` (material included,
//! Black's entries negated), the material signature's units, and the full recount the
//! incremental state is checked against.

use super::params::PHASE_WEIGHT;
use super::score::Score;
use crate::board::position::Position;
use crate::board::types::{Color, Piece, PieceType, Square};

mod generated {
    include!(concat!(env!("OUT_DIR"), "/psqt.rs"));
}

/// Material plus placement of `piece` on `sq`, positive for Red, negative for Black.
#[inline(always)]
pub fn psqt(piece: Piece, sq: Square) -> Score {
    Score(generated::PSQT[piece.index()][sq.index()])
}

/// The middlegame half of [`psqt`] for the piece and square of these indices, usable in
/// constants (the move picker derives its placement keys from it at compile time).
pub const fn psqt_mg(piece: usize, sq: usize) -> i32 {
    Score(generated::PSQT[piece][sq]).mg()
}

/// Phase contribution of a piece.
#[inline(always)]
pub fn phase_weight(piece: Piece) -> i32 {
    PHASE_WEIGHT[piece.kind().index()]
}

/// What the evaluator keeps incrementally: Red's material and placement minus Black's, the
/// phase, and the material signature.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Incremental {
    pub psq: Score,
    pub phase: i32,
    pub material: u64,
}

impl Incremental {
    /// Everything counted from scratch.
    pub fn full_recount(pos: &Position) -> Incremental {
        let mut state = Incremental {
            psq: Score::ZERO,
            phase: 0,
            material: 0,
        };
        for sq in Square::all() {
            if let Some(piece) = pos.piece_at(sq) {
                state.psq += psqt(piece, sq);
                state.phase += phase_weight(piece);
                state.material += material_unit(piece);
            }
        }
        state
    }
}

/// Where each kind's count sits in the material signature: six bits per kind (Red's three
/// below Black's), the dearest kinds highest; kings are not counted.
const SIGNATURE_OFFSET: [u32; 7] = {
    let mut offset = [0; 7];
    offset[PieceType::Pawn as usize] = 0;
    offset[PieceType::Elephant as usize] = 6;
    offset[PieceType::Advisor as usize] = 12;
    offset[PieceType::Cannon as usize] = 18;
    offset[PieceType::Horse as usize] = 24;
    offset[PieceType::Rook as usize] = 30;
    offset
};

/// One piece's step in the material signature. Three bits hold any legal count (at most five
/// pawns, two of every other kind), so steps never carry into the next field.
const MATERIAL_UNIT: [u64; Piece::COUNT] = {
    let mut unit = [0; Piece::COUNT];
    let mut i = 0;
    while i < Piece::COUNT {
        let kind = PieceType::ALL[i % 7];
        let colour_shift = if i < 7 { 0 } else { 3 };
        if !matches!(kind, PieceType::King) {
            unit[i] = 1 << (SIGNATURE_OFFSET[kind as usize] + colour_shift);
        }
        i += 1;
    }
    unit
};

/// The step `piece` adds to the material signature.
#[inline(always)]
pub fn material_unit(piece: Piece) -> u64 {
    MATERIAL_UNIT[piece.index()]
}

/// How many pieces of `kind` (not the king) `color` has, read from the material signature.
#[inline(always)]
pub fn kind_count(material: u64, color: Color, kind: PieceType) -> u32 {
    (material >> (SIGNATURE_OFFSET[kind.index()] + 3 * color.index() as u32)) as u32 & 7
}

/// Bit `bit` of the count of `color`'s `kind` in the material signature.
#[inline(always)]
pub const fn count_bit(color: Color, kind: PieceType, bit: u32) -> u64 {
    1 << (SIGNATURE_OFFSET[kind as usize] + 3 * color as u32 + bit)
}

/// The signature bits of Red's rook, horse, cannon and pawn counts (shifted up by 3 for
/// Black's): the pieces that can give mate.
pub const ATTACKER_FIELDS: u64 = signature_fields(&[
    PieceType::Rook,
    PieceType::Horse,
    PieceType::Cannon,
    PieceType::Pawn,
]);

/// The signature bits of Red's counts of `kinds` (shifted up by 3 for Black's).
pub const fn signature_fields(kinds: &[PieceType]) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < kinds.len() {
        mask |= 7 << SIGNATURE_OFFSET[kinds[i] as usize];
        i += 1;
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_signature_counts_each_piece_type() {
        let pos =
            Position::from_fen("4k4/4a4/2P1b4/9/9/9/9/2C6/4A4/2R1K4 w - - 0 1").expect("valid FEN");
        let material = Incremental::full_recount(&pos).material;
        let count = |color: Color, kind: PieceType| {
            let shift = SIGNATURE_OFFSET[kind as usize] + if color == Color::Red { 0 } else { 3 };
            (material >> shift) & 7
        };
        for color in [Color::Red, Color::Black] {
            for kind in PieceType::ALL.into_iter().skip(1) {
                assert_eq!(
                    count(color, kind),
                    pos.pieces(color, kind).count() as u64,
                    "{color:?} {kind:?}"
                );
                assert_eq!(count(color, kind), kind_count(material, color, kind) as u64);
                for bit in 0..3 {
                    let set = material & count_bit(color, kind, bit) != 0;
                    assert_eq!(
                        set,
                        count(color, kind) >> bit & 1 != 0,
                        "{color:?} {kind:?}"
                    );
                }
            }
        }
        let start = Position::from_fen(Position::START_FEN).expect("valid FEN");
        let full = Incremental::full_recount(&start).material;
        assert_eq!(full & 7, 5, "Red's five pawns");
        assert_eq!((full >> 33) & 7, 2, "Black's two rooks");
    }
}
