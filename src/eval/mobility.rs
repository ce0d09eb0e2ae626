//! Flexibility: every piece scores per square it can move to (empty or enemy), with horse
//! legs, elephant eyes and cannon screens respected. The attack maps built on the way are
//! what the relations and king-safety terms read.

use super::cannon;
use super::masks::{own_side, palace, FILE_A, FILE_I};
use super::params::MOBILITY;
use super::patterns;
use super::score::Score;
use super::trace::{weight, Tracer};
use crate::board::attacks::*;
use crate::board::bitboard::Bitboard;
use crate::board::position::Position;
use crate::board::types::{Color, PieceType};

/// Who one colour attacks. A cannon attacks beyond its screen (what it could capture or
/// guards); every other piece attacks its move targets.
#[derive(Clone, Copy)]
pub struct Attacks {
    /// Squares attacked by the colour's pieces of each type.
    pub by_kind: [Bitboard; 7],
    /// Squares attacked by at least one piece of the colour.
    pub all: Bitboard,
    /// Squares attacked by at least two pieces of the colour.
    pub double: Bitboard,
}

const fn weights() -> [Score; 7] {
    let mut out = [Score::ZERO; 7];
    let mut i = 0;
    while i < 7 {
        out[i] = Score::from_pair(MOBILITY[i]);
        i += 1;
    }
    out
}
const WEIGHT: [Score; 7] = weights();

/// One colour's attacks and its weighted reachable squares.
struct Gather {
    attacks: Attacks,
    /// Each piece's squares times its type's weight, added as they come: one running sum
    /// (Score arithmetic wraps, so the order is free) keeps fewer values live than a count
    /// per type.
    score: Score,
    /// The rooks' file bonuses of the pattern term, summed while the rooks are walked here.
    rook_files: Score,
}

impl Gather {
    #[inline(always)]
    fn add<T: Tracer>(
        &mut self,
        kind: PieceType,
        attacks: Bitboard,
        moves: Bitboard,
        color: Color,
        tracer: &mut T,
    ) {
        self.add_counted(kind, attacks, moves.count(), color, tracer);
    }

    #[inline(always)]
    fn add_counted<T: Tracer>(
        &mut self,
        kind: PieceType,
        attacks: Bitboard,
        moves: u32,
        color: Color,
        tracer: &mut T,
    ) {
        let a = &mut self.attacks;
        a.by_kind[kind.index()] |= attacks;
        a.double |= a.all & attacks;
        a.all |= attacks;
        self.score += WEIGHT[kind.index()] * moves as i32;
        tracer.weight(color, weight::MOBILITY + kind.index(), 64 * moves as i32);
    }
}

/// Flexibility of `color`, what its pieces attack, and the file bonuses of its rooks (a
/// pattern, [`patterns::rook_file`]). Always inlined: the evaluation calls it with a constant
/// colour, so the masks that depend on the side fold to constants.
#[inline(always)]
pub fn evaluate<T: Tracer>(
    pos: &Position,
    color: Color,
    tracer: &mut T,
) -> (Score, Attacks, Score) {
    let occ = pos.occupied();
    let own = pos.color_bb(color);
    let enemy = pos.color_bb(!color);
    let free = !own;
    let mut g = Gather {
        attacks: Attacks {
            by_kind: [Bitboard::EMPTY; 7],
            all: Bitboard::EMPTY,
            double: Bitboard::EMPTY,
        },
        score: Score::ZERO,
        rook_files: Score::ZERO,
    };

    // King and advisors never leave the palace, elephants their side of the river, and
    // neither do their attacks: masking with those (a no-op) tells the compiler which half of
    // the board to work on.
    let (palace, home) = (palace(color), own_side(color));
    let king = king_attacks((pos.pieces(color, PieceType::King) & palace).lsb()) & palace;
    g.add(PieceType::King, king, king & free, color, tracer);
    for sq in pos.pieces(color, PieceType::Advisor) & palace {
        let a = advisor_attacks(sq) & palace;
        g.add(PieceType::Advisor, a, a & free, color, tracer);
    }
    for sq in pos.pieces(color, PieceType::Elephant) & home {
        let a = elephant_attacks(sq, occ) & home;
        g.add(PieceType::Elephant, a, a & free, color, tracer);
    }
    for sq in pos.pieces(color, PieceType::Horse) {
        let a = horse_attacks(sq, occ);
        g.add(PieceType::Horse, a, a & free, color, tracer);
    }
    let own_pawns = pos.pieces(color, PieceType::Pawn);
    let all_pawns = own_pawns | pos.pieces(!color, PieceType::Pawn);
    for sq in pos.pieces(color, PieceType::Rook) {
        let a = rook_attacks(sq, occ);
        g.add(PieceType::Rook, a, a & free, color, tracer);
        g.rook_files += patterns::rook_file(sq, own_pawns, all_pawns, color, tracer);
    }
    for sq in pos.pieces(color, PieceType::Cannon) {
        // Quiet moves slide like a rook; captures jump exactly one screen.
        let (a, quiet) = cannon::attacks_and_quiet(sq, occ);
        g.add_counted(
            PieceType::Cannon,
            a,
            quiet + (a & enemy).count(),
            color,
            tracer,
        );
    }

    // Pawns all at once: forward, and sideways for those across the river. Each shift moves
    // every pawn to a distinct square, so the popcounts add up per pawn.
    let pawns = pos.pieces(color, PieceType::Pawn);
    if pawns.any() {
        let forward = match color {
            Color::Red => Bitboard(pawns.0 << 9) & Bitboard::FULL,
            Color::Black => Bitboard(pawns.0 >> 9),
        };
        let crossed = pawns & !own_side(color);
        let left = Bitboard(crossed.0 >> 1) & !FILE_I;
        let right = Bitboard(crossed.0 << 1) & !FILE_A;
        let all = forward | left | right;
        let a = &mut g.attacks;
        a.by_kind[PieceType::Pawn.index()] = all;
        let pawn_double = (forward & left) | (forward & right) | (left & right);
        a.double |= (a.all & all) | pawn_double;
        a.all |= all;
        let squares = (forward & free).count() + (left & free).count() + (right & free).count();
        g.score += WEIGHT[PieceType::Pawn.index()] * squares as i32;
        tracer.weight(
            color,
            weight::MOBILITY + PieceType::Pawn.index(),
            64 * squares as i32,
        );
    }

    (g.score, g.attacks, g.rook_files)
}
