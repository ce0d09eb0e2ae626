//! Static exchange evaluation: the material balance of the capture sequence on one square,
//! each side recapturing with its least valuable piece. Attackers are recomputed after every
//! capture because removing a piece can open a rook line or give a cannon its screen.

use crate::board::attacks::*;
use crate::board::bitboard::Bitboard;
use crate::board::position::Position;
use crate::board::types::{Color, Move, Piece, PieceType, Square};

/// Piece values used to order and prune captures (the evaluation's own values may differ).
pub const SEE_VALUE: [i32; 7] = [10_000, 200, 200, 400, 900, 450, 100];

#[inline]
pub fn value(kind: PieceType) -> i32 {
    SEE_VALUE[kind.index()]
}

/// [`value`] of a piece's kind, read by the piece in one table read (a kind is itself a
/// table read from the piece).
#[inline(always)]
pub fn piece_value(piece: Piece) -> i32 {
    PIECE_VALUE[piece.index()]
}

const PIECE_VALUE: [i32; Piece::COUNT] = {
    let mut table = [0; Piece::COUNT];
    let mut i = 0;
    while i < Piece::COUNT {
        table[i] = SEE_VALUE[i % 7];
        i += 1;
    }
    table
};

/// Does `mv` win at least `threshold` material once all exchanges on its square are played out?
#[inline]
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    let (from, to) = (mv.from(), mv.to());
    let Some(mover) = pos.piece_at(from) else {
        return false;
    };
    let gain = pos.piece_at(to).map_or(0, piece_value);
    // Balance from the mover's view after the capture; the opponent then may recapture.
    let balance = gain - threshold;
    if balance < 0 {
        return false;
    }
    let balance = balance - piece_value(mover);
    if balance >= 0 {
        return true; // even losing the mover keeps us above the threshold
    }
    // Only here does the exchange need playing out: the answers above, a third of the calls,
    // are given inline without the exchange's registers saved and restored.
    exchange(pos, from, to, mover, balance)
}

/// The exchange of [`see_ge`] after `mover` took on `to`, `balance` (negative) from the
/// mover's view: does the mover's side come out ahead?
#[inline(never)]
fn exchange(pos: &Position, from: Square, to: Square, mover: Piece, mut balance: i32) -> bool {
    let near = near_attackers(pos, to);
    let mut side = !mover.color();
    // No piece of the opponent's near (over a quarter of the calls): nothing can take back,
    // so the capture stands, answered before the exchange loop's set-up. (The opponent's part
    // of `near` never holds `from`, the mover's square, nor `to`, which no piece attacks from.)
    if (near & pos.color_bb(side)).is_empty() {
        return true;
    }
    let mut occ = pos.occupied().without(from) | Bitboard::from_square(to);
    while let Some((sq, kind)) = least_valuable_attacker(pos, to, occ, side, near) {
        occ = occ.without(sq);
        side = !side;
        // Negamax step: the side that just captured now holds `-balance - 1` in reserve.
        balance = -balance - 1 - value(kind);
        if balance >= 0 {
            // A king may only "recapture" if the square is no longer defended.
            if kind == PieceType::King
                && least_valuable_attacker(pos, to, occ, side, near).is_some()
            {
                side = !side;
            }
            break;
        }
    }
    side != mover.color()
}

/// The pieces of either colour standing where they could attack `sq` on some occupancy:
/// pawns and advisors that do, elephants and horses with their eyes and legs ignored, rooks
/// and cannons on its lines, the kings beside it. Found once per exchange, so that each
/// [`least_valuable_attacker`] starts from the few pieces left of them (usually none).
#[inline(always)]
fn near_attackers(pos: &Position, sq: Square) -> Bitboard {
    use {Color::*, PieceType::*};
    let both = |kind| pos.pieces(Red, kind) | pos.pieces(Black, kind);
    // One record holds every set read here (two cache lines, not one in each of seven tables).
    let near = near_sets(sq);
    (near.pawn(Red) & pos.pieces(Red, Pawn))
        | (near.pawn(Black) & pos.pieces(Black, Pawn))
        | (near.advisor() & both(Advisor))
        | (near.elephant() & both(Elephant))
        | (near.horse() & both(Horse))
        | (near.lines() & (both(Rook) | both(Cannon)))
        | (near.king() & both(King))
}

/// The least valuable piece of `side` on `occ` that attacks `sq` (the lowest square among
/// equals), among `near` ([`near_attackers`]). Piece kinds are tried cheapest first and the
/// search stops at the first attacker, so the slider tests are usually skipped.
#[inline(always)]
fn least_valuable_attacker(
    pos: &Position,
    sq: Square,
    occ: Bitboard,
    side: Color,
    near: Bitboard,
) -> Option<(Square, PieceType)> {
    let candidates = near & occ & pos.color_bb(side);
    // Usually one candidate: its kind read from the board and its attack tested alone, instead
    // of trying the kinds in turn. Squares here are taken off a set's 64-bit halves, which
    // costs fewer instructions than `lsb` or `more_than_one` on the whole 128 bits.
    let mut squares = candidates.into_iter();
    let first = squares.next()?;
    if squares.next().is_none() {
        return lone_attacker(pos, sq, occ, first);
    }
    // Each kind narrowed to the candidates: pawns, advisors and the king among them attack
    // `sq`; elephants and horses need their eyes and legs free, looked up only when one is
    // there.
    let row = pos.pieces_of(side);
    let mine = |kind: PieceType| row[kind.index()] & candidates;
    let any = |kind| mine(kind).into_iter().next().map(|from| (from, kind));
    // The first whose eye or leg is free, lowest square first.
    let first = |kind| {
        mine(kind)
            .into_iter()
            .find(|&from| !leg_blocked(sq, from, occ))
            .map(|from| (from, kind))
    };
    // A rook or cannon on `sq`'s lines attacks it with no piece, or exactly one, between:
    // the few candidates are tested square by square, lowest first, without the lookups.
    let slider = |kind, screens| {
        let found = mine(kind)
            .into_iter()
            .find(|&from| (between(sq, from) & occ).count() == screens);
        found.map(|from| (from, kind))
    };
    any(PieceType::Pawn)
        .or_else(|| any(PieceType::Advisor))
        .or_else(|| first(PieceType::Elephant))
        .or_else(|| first(PieceType::Horse))
        .or_else(|| slider(PieceType::Cannon, 1))
        .or_else(|| slider(PieceType::Rook, 0))
        .or_else(|| any(PieceType::King))
}

/// The piece on `from`, the only candidate of [`least_valuable_attacker`], if it attacks `sq`
/// on `occ`. The candidates are in `near` by their own kind's reach, so each kind attacks
/// unless blocked: a rook by any piece between, a cannon unless exactly one is (its screen),
/// an elephant or a horse by a piece on its eye or leg; pawns, advisors and kings never are.
/// Two ways, sliders and the rest, each without a branch on the kind: the kinds come in no
/// order a predictor learns (a jump through a table by kind mispredicted two times in three).
#[inline(always)]
fn lone_attacker(
    pos: &Position,
    sq: Square,
    occ: Bitboard,
    from: Square,
) -> Option<(Square, PieceType)> {
    let kind = pos.piece_at(from)?.kind();
    let attacks = if matches!(kind, PieceType::Rook | PieceType::Cannon) {
        (between(sq, from) & occ).count() == u32::from(kind == PieceType::Cannon)
    } else {
        // For a pawn, an advisor or a king the square `leg_blocked` looks at means nothing,
        // and its answer is not counted.
        let leaper = matches!(kind, PieceType::Elephant | PieceType::Horse);
        !(leaper & leg_blocked(sq, from, occ))
    };
    attacks.then_some((from, kind))
}

/// Is the eye or leg of an elephant or horse on `from` that attacks `sq` occupied in `occ`?
/// For other pairs of squares the answer means nothing ([`leg_bit`]).
#[inline(always)]
fn leg_blocked(sq: Square, from: Square, occ: Bitboard) -> bool {
    (occ.bits() >> leg_bit(sq, from)) & 1 != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_values_are_their_kinds_values() {
        for color in Color::BOTH {
            for kind in PieceType::ALL {
                assert_eq!(piece_value(Piece::new(color, kind)), value(kind));
            }
        }
    }
    use crate::board::notation::{parse_move, RankBase};

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let mv = parse_move(&pos, mv, RankBase::Zero).unwrap();
        see_ge(&pos, mv, threshold)
    }

    #[test]
    fn rook_takes_defended_pawn_loses() {
        // The black rook on e8 defends the pawn on e6.
        let fen = "3k5/4r4/9/4p4/9/4R4/9/9/9/5K3 w - - 0 1";
        assert!(!see(fen, "e4e6", 0));
        assert!(see(fen, "e4e6", -800));
    }

    #[test]
    fn free_piece_is_won() {
        let fen = "3k5/9/9/4p4/9/4R4/9/9/9/5K3 w - - 0 1";
        assert!(see(fen, "e4e6", 100));
        assert!(!see(fen, "e4e6", 101));
    }

    /// Does the piece on `from` attack `sq` on `occ`, by the attack tables? (`from` is near
    /// `sq`, [`near_attackers`].)
    fn attacks_by_tables(pos: &Position, sq: Square, occ: Bitboard, from: Square) -> bool {
        match pos.piece_at(from).unwrap().kind() {
            PieceType::Pawn | PieceType::Advisor | PieceType::King => true,
            PieceType::Elephant => elephant_attacks(sq, occ).has(from),
            PieceType::Horse => horse_attackers(sq, occ).has(from),
            PieceType::Cannon => (between(sq, from) & occ).count() == 1,
            PieceType::Rook => (between(sq, from) & occ).is_empty(),
        }
    }

    /// The exchange's attacker tests (by the blockers, without a lookup per kind) agree with
    /// the attack tables, for every square, each piece near it and random occupancies: the
    /// lone candidate's, and the least valuable attacker among several (lowest square first).
    #[test]
    fn attackers_agree_with_the_attack_tables() {
        use crate::board::movegen::legal_moves;
        const CHEAPEST_FIRST: [PieceType; 7] = [
            PieceType::Pawn,
            PieceType::Advisor,
            PieceType::Elephant,
            PieceType::Horse,
            PieceType::Cannon,
            PieceType::Rook,
            PieceType::King,
        ];
        let mut rng = fastrand::Rng::with_seed(11);
        let (mut attacks, mut blocked, mut several) = (0, 0, 0);
        for _ in 0..20 {
            let mut pos = Position::startpos();
            for _ in 0..80 {
                for sq in (0..90).map(Square::new) {
                    let near = near_attackers(&pos, sq);
                    // Some pieces taken off and `sq` occupied, as in the exchange.
                    let occ = (pos.occupied() & !Bitboard::from_bits(rng.u128(..)))
                        | Bitboard::from_square(sq);
                    for from in near & occ {
                        let kind = pos.piece_at(from).unwrap().kind();
                        let expected = attacks_by_tables(&pos, sq, occ, from);
                        let got = lone_attacker(&pos, sq, occ, from);
                        assert_eq!(got, expected.then_some((from, kind)), "{}", pos.to_fen());
                        attacks += usize::from(expected);
                        blocked += usize::from(!expected);
                    }
                    for side in Color::BOTH {
                        let candidates = near & occ & pos.color_bb(side);
                        let expected = CHEAPEST_FIRST.into_iter().find_map(|kind| {
                            (pos.pieces(side, kind) & candidates)
                                .into_iter()
                                .find(|&from| attacks_by_tables(&pos, sq, occ, from))
                                .map(|from| (from, kind))
                        });
                        let got = least_valuable_attacker(&pos, sq, occ, side, near);
                        assert_eq!(got, expected, "{} {sq:?}", pos.to_fen());
                        several += usize::from(candidates.count() > 1);
                    }
                }
                let legal = legal_moves(&pos);
                if legal.is_empty() {
                    break;
                }
                pos.make_move(legal.as_slice()[rng.usize(..legal.len())]);
            }
        }
        assert!(
            attacks > 1000 && blocked > 1000 && several > 1000,
            "{attacks} {blocked} {several}"
        );
    }

    #[test]
    fn cannon_gains_its_screen_after_a_capture() {
        // The red cannon on e2 sits behind the rook; once the rook has left e4 the pawn on e3
        // is its screen, so it can retake on e6.
        let fen = "3k5/4r4/9/4p4/9/4R4/4P4/4C4/9/5K3 w - - 0 1";
        // R takes p (+100), r takes R (-900), C takes r (+900): net +100 for Red.
        assert!(see(fen, "e4e6", 100));
    }
}
