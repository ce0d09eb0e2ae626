//! Flexibility: every piece scores per square it can move to (empty or enemy), with horse
//! legs, elephant eyes and cannon screens respected. The attack maps built on the way are
//! what the relations and king-safety terms read.

use super::cannon;
use super::masks::{own_side, palace, FILE_A, FILE_I};
use super::params::MOBILITY;
use super::patterns;
use super::score::Score;
use super::trace::{weight, Tracer};
use super::wide::Wide;
use crate::board::attacks::*;
use crate::board::bitboard::Bitboard;
use crate::board::geometry::{gather_neighbours, ORTHOGONAL_GATHER, ORTHOGONAL_WINDOW};
use crate::board::position::Position;
use crate::board::types::Square;
use crate::board::types::{Color, PieceType};
use static_assertions::const_assert;

/// Who one colour attacks. A cannon attacks beyond its screen (what it could capture or
/// guards); every other piece attacks its move targets. Held as [`Wide`] sets: vector
/// registers, which nothing else here uses, instead of pairs of general ones.
#[derive(Clone, Copy)]
pub struct Attacks {
    /// Squares attacked by the colour's pieces of each type.
    pub by_kind: [Wide; 7],
    /// Squares attacked by at least one piece of the colour.
    pub all: Wide,
    /// Squares attacked by at least two pieces of the colour.
    pub double: Wide,
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
        self.add_wide(kind, Wide::from(attacks), moves, color, tracer);
    }

    #[inline(always)]
    fn add_wide<T: Tracer>(
        &mut self,
        kind: PieceType,
        attacks: Wide,
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

/// Where each colour's pawns can stand (its side's ranks 3-4 and the enemy half), and how far
/// to shift the board down so those squares and the ones they attack fit in bits 0-62.
const PAWN_SPAN: [Bitboard; 2] = [
    Bitboard::from_bits(Bitboard::FULL.bits() >> 27 << 27),
    Bitboard::from_bits(Bitboard::FULL.bits() & ((1 << 63) - 1)),
];
const PAWN_SHIFT: [u32; 2] = [27, 0];

/// Flexibility of `color`, what its pieces attack, and the file bonuses of its rooks (a
/// pattern, [`patterns::rook_file`]). Always inlined: the evaluation calls it with a constant
/// colour, so the masks that depend on the side fold to constants. With `defenders` the king,
/// advisors and elephants come from that cache (the search's path: nothing of theirs is
/// traced then).
#[inline(always)]
pub fn evaluate<T: Tracer>(
    pos: &Position,
    color: Color,
    defenders: Option<&mut DefenderCache>,
    tracer: &mut T,
) -> (Score, Attacks, Score) {
    let occ = pos.occupied();
    let own = pos.color_bb(color);
    let mut g = Gather {
        attacks: Attacks {
            by_kind: [Wide::empty(); 7],
            all: Wide::empty(),
            double: Wide::empty(),
        },
        score: Score::ZERO,
        rook_files: Score::ZERO,
    };

    match defenders {
        Some(cache) => cache.seed(pos, color, &mut g),
        None => gather_defenders(pos, color, &mut g, tracer),
    }
    // Pawns first (the other orders measured more instructions: the compiler keeps fewer
    // values live), all at once: forward, and sideways for those across the river. Each shift moves
    // every pawn to a distinct square, so the popcounts add up per pawn. A pawn and the
    // squares it attacks lie in its side's ranks 3-4 and the enemy half: 63 squares, worked
    // on as one u64 with that span shifted down to bit 0.
    // Masking Black's pawns with their span tells the compiler the high half is empty; Red's
    // span straddles the halves, and its mask would only cost instructions.
    let pawns = match color {
        Color::Red => pos.pieces(color, PieceType::Pawn),
        Color::Black => pos.pieces(color, PieceType::Pawn) & PAWN_SPAN[color.index()],
    };
    let shift = PAWN_SHIFT[color.index()];
    let down = |b: Bitboard| (b.bits() >> shift) as u64;
    // Shifted down, the pawns are one word (their span fits in it): tested there.
    let p = down(pawns);
    debug_assert_eq!(p != 0, pawns.any(), "a pawn outside its span");
    if p != 0 {
        let forward = match color {
            Color::Red => (p << 9) & down(Bitboard::FULL),
            Color::Black => p >> 9,
        };
        let crossed = p & down(!own_side(color));
        let left = (crossed >> 1) & down(!FILE_I);
        let right = (crossed << 1) & down(!FILE_A);
        // Back to the board: Red's pawns attack ranks 4-9 only (bits 9 up here), so moved
        // down 5 more the sets go up by 32, a whole-byte shift of a vector register.
        let up = |b: u64| match color {
            Color::Red => {
                debug_assert_eq!(b & 31, 0, "a red pawn attacks rank 3");
                Wide::from_u64_shl_bytes::<4>(b >> (32 - shift))
            }
            Color::Black => Wide::from(Bitboard::from_bits((b as u128) << shift)),
        };
        let all = up(forward | left | right);
        let pawn_double = (forward & left) | (forward & right) | (left & right);
        let a = &mut g.attacks;
        a.by_kind[PieceType::Pawn.index()] = all;
        a.double |= (a.all & all) | up(pawn_double);
        a.all |= all;
        // Not masked to the board: the three sets have no bits past it.
        let free = !down(own);
        let squares = (forward & free).count_ones()
            + (left & free).count_ones()
            + (right & free).count_ones();
        g.score += WEIGHT[PieceType::Pawn.index()] * squares as i32;
        tracer.weight(
            color,
            weight::MOBILITY + PieceType::Pawn.index(),
            64 * squares as i32,
        );
    }

    // Horses walked half by half: a horse's legs lie in the window of the board shifted up by
    // 10 and down by its square (`neighbour_window`), one 64-bit shift of known width in each
    // half, where a shift by any square costs two shifts, a test and a conditional move.
    let horses = pos.pieces(color, PieceType::Horse).bits();
    let wide_occ = occ.bits() << 10;
    let horse = |sq: usize, window: u64, g: &mut Gather, tracer: &mut T| {
        let legs = gather_neighbours(window, ORTHOGONAL_WINDOW, ORTHOGONAL_GATHER);
        let a = horse_attacks_by_legs(sq, legs);
        debug_assert_eq!(a, horse_attacks(Square::new(sq), occ));
        g.add(PieceType::Horse, a, a.and_not(own), color, tracer);
    };
    let mut low = horses as u64;
    while low != 0 {
        let sq = low.trailing_zeros() as usize;
        low &= low - 1;
        horse(sq, (wide_occ >> sq) as u64, &mut g, tracer);
    }
    let mut high = (horses >> 64) as u64;
    while high != 0 {
        let bit = high.trailing_zeros() as usize;
        high &= high - 1;
        horse(64 + bit, (wide_occ >> 64) as u64 >> bit, &mut g, tracer);
    }
    let pawn = PieceType::Pawn.index();
    let own_pawns = Wide::load(&pos.pieces_of(color)[pawn]);
    let all_pawns = own_pawns | Wide::load(&pos.pieces_of(!color)[pawn]);
    for sq in pos.pieces(color, PieceType::Rook) {
        let a = rook_attacks(sq, occ);
        g.add(PieceType::Rook, a, a.and_not(own), color, tracer);
        let file_bonus = patterns::rook_file(sq, own_pawns, all_pawns, color, tracer);
        // Untraced, the pattern goes into the flexibility's sum (see `Tracer::TERMS`).
        if T::TERMS {
            g.rook_files += file_bonus;
        } else {
            g.score += file_bonus;
        }
    }
    for sq in pos.pieces(color, PieceType::Cannon) {
        // Quiet moves slide like a rook; captures jump exactly one screen.
        let (a, quiet) = cannon::attacks_and_quiet(sq, occ);
        let a = Wide::from(a);
        // Captures counted from the vector set: the enemy's pieces ANDed there need no pair
        // of general registers across the walk, where they crowded out the occupancy.
        let captures = (a & Wide::from(pos.color_bb(!color))).count();
        g.add_wide(PieceType::Cannon, a, quiet + captures, color, tracer);
    }

    (g.score, g.attacks, g.rook_files)
}

/// The king, advisors and elephants of `color` into `g` (empty so far). They never leave their
/// side of the river: what they attack depends only on where they stand and on the
/// occupancy of the [`ELEPHANT_EYES`], and where they can go on the own pieces of the
/// [`DEFENDER_REGION`].
#[inline(always)]
fn gather_defenders<T: Tracer>(pos: &Position, color: Color, g: &mut Gather, tracer: &mut T) {
    let occ = pos.occupied();
    let free = !pos.color_bb(color);
    // King and advisors never leave the palace, elephants their side of the river, and
    // neither do their attacks: masking with those (a no-op) tells the compiler which half of
    // the board to work on.
    let (palace, home) = (palace(color), own_side(color));
    // The position keeps the king's square: no bit scan of the king's set.
    let king = king_attacks(pos.king_square(color)) & palace;
    g.add(PieceType::King, king, king & free, color, tracer);
    for sq in pos.pieces(color, PieceType::Advisor) & palace {
        let a = advisor_attacks(sq) & palace;
        g.add(PieceType::Advisor, a, a & free, color, tracer);
    }
    for sq in pos.pieces(color, PieceType::Elephant) & home {
        let a = elephant_attacks(sq, occ) & home;
        g.add(PieceType::Elephant, a, a & free, color, tracer);
    }
}

/// The squares the king, advisors and elephants of a colour can stand on or move to: the
/// palace and the seven elephant squares (file and rank counted from its back rank both even,
/// their halves' sum odd). Whether an own piece stands there is all their flexibility reads.
const DEFENDER_REGION: [Bitboard; 2] = [region(Color::Red), region(Color::Black)];

const fn region(color: Color) -> Bitboard {
    let palace = match color {
        Color::Red => Bitboard::PALACES[0],
        Color::Black => Bitboard::PALACES[1],
    };
    let mut set = palace.bits();
    let mut sq = 0;
    while sq < 90 {
        // The rank counted from the colour's own back rank.
        let (file, rank) = match color {
            Color::Red => (sq % 9, sq / 9),
            Color::Black => (sq % 9, 9 - sq / 9),
        };
        if rank <= 4 && file % 2 == 0 && rank % 2 == 0 && (file / 2 + rank / 2) % 2 == 1 {
            set |= 1 << sq;
        }
        sq += 1;
    }
    Bitboard::from_bits(set)
}

/// The squares of a colour's side whose occupancy the defenders' attacks read: the elephant
/// eyes (file and rank counted from its back rank both odd). The king and advisors attack
/// their squares whatever stands there.
const ELEPHANT_EYES: [Bitboard; 2] = [eyes(Color::Red), eyes(Color::Black)];

const fn eyes(color: Color) -> Bitboard {
    let mut set = 0;
    let mut sq = 0;
    while sq < 90 {
        let (file, rank) = match color {
            Color::Red => (sq % 9, sq / 9),
            Color::Black => (sq % 9, 9 - sq / 9),
        };
        if rank <= 4 && file % 2 == 1 && rank % 2 == 1 {
            set |= 1 << sq;
        }
        sq += 1;
    }
    Bitboard::from_bits(set)
}

/// Shifted down to bit 0, a colour's advisors, elephants and eyes lie in bits 2-42: the king's
/// square (below 128) moved up by this has bits of its own in the key (checked by a test).
const KING_SHIFT: u32 = 57;

/// Slots per colour in a [`DefenderCache`]: 2^9 (2^7 missed more often; 2^10 and 2^11 saved
/// too little for the memory).
const DEFENDER_SLOT_BITS: u32 = 9;
const DEFENDER_SLOTS: usize = 1 << DEFENDER_SLOT_BITS;

/// One colour's defenders as [`gather_defenders`] leaves them, under the squares they were
/// computed from: the key with the board's own half shifted down to bit 0 (Black's by 45), the
/// sets shifted down by whole bytes (Black's by 40, to bits 5-49).
/// A cache line each: a probe touches one line, and the slot index is one shift.
#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct DefenderEntry {
    /// Own pieces on the region; then the advisors and elephants, the occupied elephant eyes
    /// (never an advisor or elephant square) and the king's square above them (bit 57 up). Both hold
    /// the king: all zero only in an empty slot.
    key: [u64; 2],
    king: u64,
    advisors: u64,
    elephants: u64,
    /// The union of the three, stored so that a hit needs no ORs to rebuild it.
    all: u64,
    double: u64,
    score: Score,
}

const_assert!(std::mem::size_of::<DefenderEntry>() == 64);

/// What each colour's king, advisors and elephants attack and their flexibility, remembered by
/// the squares they depend on: those seldom change in a search (most moves happen elsewhere),
/// so most evaluations skip that part of the walk.
#[derive(Clone)]
pub struct DefenderCache {
    /// A fixed-size array: the slot index needs no bounds check.
    entries: Box<[DefenderEntry; 2 * DEFENDER_SLOTS]>,
}

impl Default for DefenderCache {
    fn default() -> Self {
        DefenderCache {
            entries: vec![DefenderEntry::default(); 2 * DEFENDER_SLOTS]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("2 * DEFENDER_SLOTS entries")),
        }
    }
}

impl DefenderCache {
    /// Puts `color`'s defenders into `g` (empty so far), from the cache or computed and stored.
    #[inline(always)]
    fn seed(&mut self, pos: &Position, color: Color, g: &mut Gather) {
        let shift = match color {
            Color::Red => 0,
            Color::Black => 45,
        };
        let down = |b: Bitboard| (b.bits() >> shift) as u64;
        // The sets are kept shifted by whole bytes (Black's side, bits 45-89, by 40, five
        // bytes): put back, each is one vector byte shift, where a bit shift of a u128 takes
        // four.
        let set_shift = match color {
            Color::Red => 0,
            Color::Black => 40,
        };
        let set_down = |b: Wide| (b.bb().bits() >> set_shift) as u64;
        let up = |b: u64| match color {
            Color::Red => Wide::from(Bitboard::from_bits(b as u128)),
            Color::Black => Wide::from_u64_shl_bytes::<5>(b),
        };
        let region = DEFENDER_REGION[color.index()];
        let palace = palace(color);
        // Nothing else changes the attacks or the flexibility: any other square in the key
        // would only cost misses.
        // Red's advisors and elephants lie in the low half, all the key reads: masked with
        // their confinement, they would cost an AND each. Black's advisors, masked with the
        // palace, lie in the high half, which spares the shift of the low one.
        let pieces = match color {
            Color::Red => {
                pos.pieces(color, PieceType::Advisor) | pos.pieces(color, PieceType::Elephant)
            }
            Color::Black => {
                (pos.pieces(color, PieceType::Advisor) & palace)
                    | pos.pieces(color, PieceType::Elephant)
            }
        } | (pos.occupied() & ELEPHANT_EYES[color.index()]);
        let key = [
            down(pos.color_bb(color) & region),
            down(pieces) | (pos.king_square(color).index() as u64) << KING_SHIFT,
        ];
        let hash = (key[0] ^ key[1].rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = (hash >> (64 - DEFENDER_SLOT_BITS)) as usize;
        let entry = &mut self.entries[color.index() * DEFENDER_SLOTS + slot];
        if entry.key == key {
            let a = &mut g.attacks;
            a.by_kind[PieceType::King.index()] = up(entry.king);
            a.by_kind[PieceType::Advisor.index()] = up(entry.advisors);
            a.by_kind[PieceType::Elephant.index()] = up(entry.elephants);
            a.all = up(entry.all);
            a.double = up(entry.double);
            g.score = entry.score;
            return;
        }
        gather_defenders(pos, color, g, &mut ());
        let a = &g.attacks;
        *entry = DefenderEntry {
            key,
            king: set_down(a.by_kind[PieceType::King.index()]),
            advisors: set_down(a.by_kind[PieceType::Advisor.index()]),
            elephants: set_down(a.by_kind[PieceType::Elephant.index()]),
            all: set_down(a.all),
            double: set_down(a.double),
            score: g.score,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::types::Square;

    /// Every square a pawn may stand on lies in its colour's span, and the span shifted down
    /// fits in bits 0-62.
    #[test]
    fn the_pawn_span_holds_every_pawn_square() {
        use crate::board::fen::allowed_squares;
        use crate::board::types::Piece;
        for color in [Color::Red, Color::Black] {
            let span = PAWN_SPAN[color.index()];
            let allowed = allowed_squares(Piece::new(color, PieceType::Pawn));
            assert!(allowed.and_not(span).is_empty(), "{color:?}");
            assert_eq!(
                span.bits() >> PAWN_SHIFT[color.index()] >> 63,
                0,
                "{color:?}"
            );
        }
    }

    /// Every square a king, advisor or elephant can stand on or move to lies in the region the
    /// cache keys on, and every elephant eye among the eyes; else a changed square there would
    /// go unnoticed.
    #[test]
    fn the_defender_region_holds_every_square_the_defenders_read() {
        let start = Position::startpos();
        for color in [Color::Red, Color::Black] {
            let region = DEFENDER_REGION[color.index()];
            assert!((palace(color) & !region).is_empty(), "{color:?} palace");
            // Every elephant square, from the starting ones, and the eye of every step.
            let mut seen = start.pieces(color, PieceType::Elephant);
            let mut todo: Vec<Square> = seen.into_iter().collect();
            while let Some(sq) = todo.pop() {
                assert!(region.has(sq), "{color:?} elephant square {sq:?}");
                for to in elephant_attacks(sq, Bitboard::EMPTY) & own_side(color) {
                    let eye = Square::new((sq.index() + to.index()) / 2);
                    assert!(
                        ELEPHANT_EYES[color.index()].has(eye),
                        "{color:?} eye {eye:?}"
                    );
                    if !seen.has(to) {
                        seen |= Bitboard::from_square(to);
                        todo.push(to);
                    }
                }
            }
            assert_eq!(seen.count(), 7, "{color:?} elephant squares");
            assert_eq!(ELEPHANT_EYES[color.index()].count(), 8, "{color:?} eyes");
            assert_eq!(region, seen | palace(color), "{color:?} region");
            // The key's second word: advisor and elephant squares and eyes, apart, below the
            // king's.
            let mut advisors = start.pieces(color, PieceType::Advisor);
            for _ in 0..2 {
                for sq in advisors {
                    advisors |= advisor_attacks(sq) & palace(color);
                }
            }
            assert_eq!(advisors.count(), 5, "{color:?} advisor squares");
            let eyes = ELEPHANT_EYES[color.index()];
            assert!(
                (eyes & (seen | advisors)).is_empty(),
                "{color:?} eyes apart"
            );
            let shift = [0, 45][color.index()];
            let low = ((seen | palace(color) | eyes).bits() >> shift) as u64;
            assert!(low < 1 << KING_SHIFT, "{color:?}");
            for sq in palace(color) {
                let king = (sq.index() as u64) << KING_SHIFT;
                assert_eq!(
                    king >> KING_SHIFT,
                    sq.index() as u64,
                    "{color:?} king kept whole"
                );
            }
        }
    }
}
