//! Draw knowledge: how much of an advantage the side ahead can turn into a win, as a factor
//! out of [`SCALE_NORMAL`]. A side without pieces that can cross the river cannot mate, and a
//! lone horse, cannon or pawn rarely breaks a defended palace.

use super::params::{SCALE_LONE_ATTACKER, SCALE_NORMAL, SCALE_NO_ATTACKERS};
use super::psqt::{kind_count, signature_fields, ATTACKER_FIELDS};
use crate::board::types::{Color, PieceType};

// A factor only draws a score toward zero (the evaluation cache relies on it: a mix of two
// 16-bit halves stays at least `i16::MIN` when scaled, and when negated).
const _: () = assert!(
    0 <= SCALE_NO_ATTACKERS
        && SCALE_NO_ATTACKERS <= SCALE_NORMAL
        && 0 <= SCALE_LONE_ATTACKER
        && SCALE_LONE_ATTACKER <= SCALE_NORMAL,
    "a scale factor outside 0..=SCALE_NORMAL"
);

/// The lowest bit of each attacker count in `ATTACKER_FIELDS` (a count of one).
const ONES: u64 = ATTACKER_FIELDS & !(ATTACKER_FIELDS << 1);
/// The bits that mean a rook, or two of one kind.
const NOT_LONE: u64 = signature_fields(&[PieceType::Rook]) | (ATTACKER_FIELDS & !ONES);

/// Scale factor for an advantage held by `strong`, given the material signature.
#[inline]
pub fn scale(material: u64, strong: Color) -> i32 {
    // Nearly always the strong side has a rook or two attackers: one mask of its counts, a
    // bit beyond a lone count's or two counts set, tells that.
    let attackers = (material >> (3 * strong.index())) & ATTACKER_FIELDS;
    if attackers & NOT_LONE != 0 || attackers & attackers.wrapping_sub(1) != 0 {
        return SCALE_NORMAL;
    }
    counted(material, strong)
}

/// `score` drawn toward zero by `scale` (out of `SCALE_NORMAL`), rounding toward zero. The
/// normal scale, nearly always the one, leaves the score as it is with no division.
#[inline(always)]
pub fn apply(score: i32, scale: i32) -> i32 {
    if scale == SCALE_NORMAL {
        score
    } else {
        score * scale / SCALE_NORMAL
    }
}

/// `scale` from the counts themselves.
fn counted(material: u64, strong: Color) -> i32 {
    let weak = !strong;
    let count = |c: Color, kind: PieceType| kind_count(material, c, kind);
    let rooks = count(strong, PieceType::Rook);
    let horses = count(strong, PieceType::Horse);
    let cannons = count(strong, PieceType::Cannon);
    let pawns = count(strong, PieceType::Pawn);
    if rooks + horses + cannons + pawns == 0 {
        return SCALE_NO_ATTACKERS;
    }
    if rooks + horses + cannons + pawns > 1 || rooks > 0 {
        return SCALE_NORMAL;
    }
    let advisors = count(weak, PieceType::Advisor);
    let defenders = advisors + count(weak, PieceType::Elephant);
    let lone_minor_held = (horses + cannons == 1) && defenders >= 2;
    // A cannon needs a screen; with no advisor of its own it cannot even mate a bare king.
    let screenless_cannon = cannons == 1 && count(strong, PieceType::Advisor) == 0;
    let lone_pawn_held = pawns == 1 && advisors >= 2;
    if lone_minor_held || screenless_cannon || lone_pawn_held {
        SCALE_LONE_ATTACKER
    } else {
        SCALE_NORMAL
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::types::Piece;
    use crate::eval::psqt::material_unit;

    /// The quick test for the usual case agrees with counting, for every count of attackers
    /// (and a few of the other kinds).
    #[test]
    fn the_quick_test_agrees_with_counting() {
        let units =
            |color: Color, kind: PieceType, n: u64| material_unit(Piece::new(color, kind)) * n;
        for (rooks, horses, cannons, pawns, advisors) in (0..3)
            .flat_map(|r| (0..3).map(move |h| (r, h)))
            .flat_map(|(r, h)| (0..3).map(move |c| (r, h, c)))
            .flat_map(|(r, h, c)| (0..6).map(move |p| (r, h, c, p)))
            .flat_map(|(r, h, c, p)| (0..3).map(move |a| (r, h, c, p, a)))
        {
            for strong in [Color::Red, Color::Black] {
                let weak = !strong;
                let material = units(strong, PieceType::Rook, rooks)
                    + units(strong, PieceType::Horse, horses)
                    + units(strong, PieceType::Cannon, cannons)
                    + units(strong, PieceType::Pawn, pawns)
                    + units(strong, PieceType::Advisor, advisors)
                    + units(weak, PieceType::Rook, 2 - rooks)
                    + units(weak, PieceType::Pawn, pawns)
                    + units(weak, PieceType::Advisor, advisors)
                    + units(weak, PieceType::Elephant, 2 - advisors);
                assert_eq!(
                    scale(material, strong),
                    counted(material, strong),
                    "{strong:?} r{rooks} h{horses} c{cannons} p{pawns} a{advisors}"
                );
            }
        }
    }
}
