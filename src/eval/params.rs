//! Every evaluation weight in one place: piece values, the readable piece-square tables and the
//! weights of each term, as `(middlegame, endgame)` pairs. Dependency-free on purpose: `build.rs`
//! includes this file to pack the tables, and a tuner can rewrite it wholesale.

/// A weight as (middlegame, endgame) centipawns.
pub type MgEg = (i32, i32);

/// Piece values indexed by piece type (king, advisor, elephant, horse, rook, cannon, pawn).
/// The king is never traded, so it carries no material.
pub const PIECE_VALUE: [MgEg; 7] = [
    (0, 0),
    (190, 200),
    (190, 190),
    (400, 440),
    (900, 960),
    (420, 400),
    (70, 100),
];

/// Game phase weight per piece type: the attacking pieces left on the board.
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 1, 2, 1, 0];
/// Phase of the full set: 2 × (2 rooks × 2 + 2 horses + 2 cannons).
pub const PHASE_MAX: i32 = 16;

// ---- piece-square tables ------------------------------------------------------------------
// Written from Red's side as the board is drawn: the first row is rank 9 (Black's back rank),
// the last row rank 0 (Red's). Black uses the same tables turned over. Each table must be
// left-right symmetric (build.rs checks). Squares a piece can never reach hold 0.

#[rustfmt::skip]
pub const KING_MG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0, -18, -20, -18,   0,   0,   0,
      0,   0,   0, -10,  -8, -10,   0,   0,   0,
      0,   0,   0,  -4,   4,  -4,   0,   0,   0,
];

#[rustfmt::skip]
pub const KING_EG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,  -6,  -4,  -6,   0,   0,   0,
      0,   0,   0,  -2,   4,  -2,   0,   0,   0,
      0,   0,   0,  -4,   0,  -4,   0,   0,   0,
];

#[rustfmt::skip]
pub const ADVISOR_MG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,  -4,   0,  -4,   0,   0,   0,
      0,   0,   0,   0,   6,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
pub const ADVISOR_EG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,  -2,   0,  -2,   0,   0,   0,
      0,   0,   0,   0,   4,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
pub const ELEPHANT_MG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,  -4,   0,   0,   0,  -4,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
     -6,   0,   0,   0,   6,   0,   0,   0,  -6,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
pub const ELEPHANT_EG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,  -2,   0,   0,   0,  -2,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
     -4,   0,   0,   0,   4,   0,   0,   0,  -4,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
pub const HORSE_MG: [i32; 90] = [
      4,   8,  16,  12,   4,  12,  16,   8,   4,
      4,  10,  28,  16,   8,  16,  28,  10,   4,
     12,  14,  16,  20,  18,  20,  16,  14,  12,
      8,  24,  18,  24,  20,  24,  18,  24,   8,
      6,  16,  14,  18,  16,  18,  14,  16,   6,
      4,  12,  16,  14,  12,  14,  16,  12,   4,
      2,   6,   8,   6,  10,   6,   8,   6,   2,
      4,   2,   8,   8,   4,   8,   8,   2,   4,
      0,   2,   4,   4, -10,   4,   4,   2,   0,
      0,  -4,   0,   0,   0,   0,   0,  -4,   0,
];

#[rustfmt::skip]
pub const HORSE_EG: [i32; 90] = [
      0,   4,   8,   8,   8,   8,   8,   4,   0,
      4,   8,  14,  16,  16,  16,  14,   8,   4,
      6,  12,  16,  18,  18,  18,  16,  12,   6,
      6,  12,  16,  18,  18,  18,  16,  12,   6,
      4,  10,  14,  16,  16,  16,  14,  10,   4,
      2,   8,  12,  14,  14,  14,  12,   8,   2,
      0,   4,   8,  10,  10,  10,   8,   4,   0,
     -2,   2,   4,   6,   6,   6,   4,   2,  -2,
     -4,   0,   2,   2,  -4,   2,   2,   0,  -4,
     -8,  -4,  -2,  -2,  -2,  -2,  -2,  -4,  -8,
];

#[rustfmt::skip]
pub const ROOK_MG: [i32; 90] = [
     14,  14,  12,  18,  16,  18,  12,  14,  14,
     16,  20,  18,  24,  26,  24,  18,  20,  16,
     12,  12,  12,  18,  18,  18,  12,  12,  12,
     12,  18,  16,  22,  22,  22,  16,  18,  12,
     12,  14,  12,  18,  18,  18,  12,  14,  12,
     12,  16,  14,  20,  20,  20,  14,  16,  12,
      6,  10,   8,  14,  14,  14,   8,  10,   6,
      4,   8,   6,  14,  12,  14,   6,   8,   4,
      8,   4,   8,  16,   8,  16,   8,   4,   8,
     -2,  10,   6,  14,  12,  14,   6,  10,  -2,
];

#[rustfmt::skip]
pub const ROOK_EG: [i32; 90] = [
     10,  10,  10,  12,  12,  12,  10,  10,  10,
     12,  14,  14,  16,  16,  16,  14,  14,  12,
     10,  12,  12,  14,  14,  14,  12,  12,  10,
     10,  12,  12,  14,  14,  14,  12,  12,  10,
      8,  10,  10,  12,  12,  12,  10,  10,   8,
      8,  10,  10,  12,  12,  12,  10,  10,   8,
      6,   8,   8,  10,  10,  10,   8,   8,   6,
      4,   6,   6,   8,   8,   8,   6,   6,   4,
      2,   4,   4,   6,   6,   6,   4,   4,   2,
      0,   2,   2,   4,   4,   4,   2,   2,   0,
];

#[rustfmt::skip]
pub const CANNON_MG: [i32; 90] = [
      6,   4,   0, -10, -12, -10,   0,   4,   6,
      2,   2,   0,  -4, -14,  -4,   0,   2,   2,
      2,   2,   0, -10,  -8, -10,   0,   2,   2,
      0,   0,  -2,   4,  10,   4,  -2,   0,   0,
      0,   0,   0,   2,   8,   2,   0,   0,   0,
     -2,   0,   4,   2,   6,   2,   4,   0,  -2,
      0,   0,   0,   2,   4,   2,   0,   0,   0,
      4,   0,   8,   6,  10,   6,   8,   0,   4,
      0,   2,   4,   6,   6,   6,   4,   2,   0,
      0,   0,   2,   6,   6,   6,   2,   0,   0,
];

#[rustfmt::skip]
pub const CANNON_EG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   2,   2,   2,   0,   0,   0,
      0,   0,   0,   2,   4,   2,   0,   0,   0,
      0,   0,   0,   2,   4,   2,   0,   0,   0,
      0,   0,   0,   2,   4,   2,   0,   0,   0,
      0,   0,   0,   2,   4,   2,   0,   0,   0,
      0,   0,   0,   2,   4,   2,   0,   0,   0,
      0,   0,   0,   2,   2,   2,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
];

/// Pawns are worth little at home and much more across the river, most near the palace;
/// a pawn on the last rank (an "old pawn") can only move sideways and is worth less again.
#[rustfmt::skip]
pub const PAWN_MG: [i32; 90] = [
      0,   3,   6,   9,  12,   9,   6,   3,   0,
     18,  36,  56,  80, 110,  80,  56,  36,  18,
     14,  26,  42,  60,  80,  60,  42,  26,  14,
     10,  20,  30,  34,  40,  34,  30,  20,  10,
      6,  12,  18,  18,  20,  18,  18,  12,   6,
      2,   0,   8,   0,   8,   0,   8,   0,   2,
      0,   0,  -2,   0,   4,   0,  -2,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
pub const PAWN_EG: [i32; 90] = [
     10,  10,  15,  20,  20,  20,  15,  10,  10,
     50,  60,  80, 100, 110, 100,  80,  60,  50,
     45,  55,  70,  85,  90,  85,  70,  55,  45,
     40,  50,  60,  70,  70,  70,  60,  50,  40,
     35,  40,  50,  55,  55,  55,  50,  40,  35,
      0,   0,   5,   0,   5,   0,   5,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
];

/// Middlegame tables by piece type.
pub const PST_MG: [&[i32; 90]; 7] = [
    &KING_MG,
    &ADVISOR_MG,
    &ELEPHANT_MG,
    &HORSE_MG,
    &ROOK_MG,
    &CANNON_MG,
    &PAWN_MG,
];
/// Endgame tables by piece type.
pub const PST_EG: [&[i32; 90]; 7] = [
    &KING_EG,
    &ADVISOR_EG,
    &ELEPHANT_EG,
    &HORSE_EG,
    &ROOK_EG,
    &CANNON_EG,
    &PAWN_EG,
];

/// The table entry for a Red piece on (file, rank): the tables are drawn rank 9 first.
pub const fn table_index(file: usize, rank: usize) -> usize {
    (9 - rank) * 9 + file
}

// ---- flexibility ------------------------------------------------------------------------

/// Points per square a piece can move to (empty or enemy), by piece type.
pub const MOBILITY: [MgEg; 7] = [(2, 2), (2, 2), (2, 2), (5, 5), (4, 4), (3, 3), (2, 2)];

// ---- relations between pieces ----------------------------------------------------------

/// Attacked and not guarded, by the victim's type.
pub const HANGING: [MgEg; 7] = [
    (0, 0),
    (20, 20),
    (20, 20),
    (40, 40),
    (70, 70),
    (40, 40),
    (12, 16),
];
/// Attacked by a cheaper enemy piece (guarded or not), by the victim's type.
pub const ATTACKED_BY_CHEAPER: [MgEg; 7] = [
    (0, 0),
    (10, 10),
    (10, 10),
    (30, 30),
    (60, 60),
    (30, 30),
    (0, 0),
];
/// Attacked at least twice and guarded once: the exchange loses, by the victim's type.
pub const OUTNUMBERED: [MgEg; 7] = [(0, 0), (8, 8), (8, 8), (16, 16), (24, 24), (16, 16), (6, 8)];
/// A piece counts as cheaper than the victim when its value is lower by at least this.
pub const CHEAPER_MARGIN: i32 = 50;
/// Penalties of the relations term are multiplied by these /64: the side to move can answer
/// its own threats, while its opponent's weaknesses are there for the taking.
pub const RELATIONS_ON_MOVE: i32 = 32;
pub const RELATIONS_WAITING: i32 = 64;

// ---- king safety and patterns ----------------------------------------------------------

/// Attack units per palace square attacked, by the attacker's type.
pub const KING_ZONE_ATTACK: [i32; 7] = [0, 0, 0, 3, 3, 2, 2];
/// Danger is units² / this (middlegame) and units × [`KING_DANGER_EG`] (endgame).
pub const KING_DANGER_DIV: i32 = 8;
pub const KING_DANGER_EG: i32 = 1;
/// Units are capped so the quadratic cannot run away.
pub const KING_DANGER_MAX_UNITS: i32 = 40;
/// Per missing advisor, per enemy rook, horse or crossed pawn.
pub const MISSING_ADVISOR: MgEg = (14, 8);
/// Per missing elephant, per enemy cannon or rook.
pub const MISSING_ELEPHANT: MgEg = (12, 6);
/// A cannon on the enemy king's file with nothing between them.
pub const EMPTY_HEADED_CANNON: MgEg = (60, 20);
/// A cannon on the enemy king's file with two pieces between (the central cannon's threat).
pub const CENTRAL_CANNON: MgEg = (24, 8);
/// A cannon on the enemy's back rank while the enemy king stays on it.
pub const BOTTOM_CANNON: MgEg = (20, 10);
/// A horse on its own palace centre: it blocks the king and advisors (penalty).
pub const HORSE_IN_PALACE_CENTRE: MgEg = (-30, -10);
/// Rook on a file with no pawns at all / with no own pawns.
pub const ROOK_OPEN_FILE: MgEg = (16, 10);
pub const ROOK_HALF_OPEN_FILE: MgEg = (8, 4);
/// Extra for a rook on an open palace file (d, e or f).
pub const ROOK_PALACE_FILE: MgEg = (10, 4);
/// A crossed pawn next to the enemy palace (files c-g, the three ranks of the palace).
pub const PAWN_NEAR_PALACE: MgEg = (12, 12);
/// Two crossed pawns side by side.
pub const CONNECTED_PAWNS: MgEg = (10, 20);

// ---- tempo and draw knowledge ----------------------------------------------------------

pub const TEMPO: MgEg = (12, 6);
/// Scale factors out of [`SCALE_NORMAL`].
pub const SCALE_NORMAL: i32 = 64;
/// The side ahead has no rook, horse, cannon or pawn: it cannot mate.
pub const SCALE_NO_ATTACKERS: i32 = 0;
/// A lone horse or cannon (or a lone pawn against two advisors) against a defended king.
pub const SCALE_LONE_ATTACKER: i32 = 8;
