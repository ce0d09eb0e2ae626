//! Every evaluation weight in one place: piece values, the readable piece-square tables and the
//! weights of each term, as `(middlegame, endgame)` pairs, and the tuner's numbering of them.
//! Dependency-free on purpose: `build.rs` includes this file to pack the tables, and a tuner
//! can rewrite it wholesale.

/// A weight as (middlegame, endgame) centipawns.
pub type MgEg = (i32, i32);

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
      0,   0,   0, -62, -41, -62,   0,   0,   0,
      0,   0,   0, -68,   7, -68,   0,   0,   0,
      0,   0,   0,  17,  92,  17,   0,   0,   0,
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
      0,   0,   0,  -8,  -4,  -8,   0,   0,   0,
      0,   0,   0,  13,  -4,  13,   0,   0,   0,
      0,   0,   0,  -1,  -8,  -1,   0,   0,   0,
];

#[rustfmt::skip]
pub const ADVISOR_MG: [i32; 90] = [
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,  -34,    0,  -34,    0,    0,    0,
       0,    0,    0,    0,   40,    0,    0,    0,    0,
       0,    0,    0,   -3,    0,   -3,    0,    0,    0,
];

#[rustfmt::skip]
pub const ADVISOR_EG: [i32; 90] = [
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    1,    0,    1,    0,    0,    0,
       0,    0,    0,    0,   11,    0,    0,    0,    0,
       0,    0,    0,  -10,    0,  -10,    0,    0,    0,
];

#[rustfmt::skip]
pub const ELEPHANT_MG: [i32; 90] = [
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,  -32,    0,    0,    0,  -32,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
     -39,    0,    0,    0,   61,    0,    0,    0,  -39,
       0,    0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    6,    0,    0,    0,    6,    0,    0,
];

#[rustfmt::skip]
pub const ELEPHANT_EG: [i32; 90] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   4,   0,   0,   0,   4,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
     -1,   0,   0,   0,   0,   0,   0,   0,  -1,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,  -5,   0,   0,   0,  -5,   0,   0,
];

#[rustfmt::skip]
pub const HORSE_MG: [i32; 90] = [
      6,   8,  17,  12,   1,  12,  17,   8,   6,
      0,  24,  65,  31,   5,  31,  65,  24,   0,
     23,  22,  14,  36,  37,  36,  14,  22,  23,
    -12,  68,  19,  87,  12,  87,  19,  68, -12,
     11,  13,  24,  58,  35,  58,  24,  13,  11,
      8,  -1,  46,  11,  12,  11,  46,  -1,   8,
    -18,  -6, -19,   2,  14,   2, -19,  -6, -18,
     -8, -18, -19,  12,   0,  12, -19, -18,  -8,
    -34,  -6, -24, -23, -10, -23, -24,  -6, -34,
    -12, -55,  -7,  -2,  -3,  -2,  -7, -55, -12,
];

#[rustfmt::skip]
pub const HORSE_EG: [i32; 90] = [
       1,   -3,   19,   13,    7,   13,   19,   -3,    1,
      -2,   26,   13,   26,    1,   26,   13,   26,   -2,
      22,   10,   19,   14,   36,   14,   19,   10,   22,
      -5,   25,   28,   14,   20,   14,   28,   25,   -5,
      11,    9,   25,   16,   11,   16,   25,    9,   11,
       7,   16,   19,   29,   18,   29,   19,   16,    7,
      -1,    1,   21,   -1,   25,   -1,   21,    1,   -1,
     -14,   -6,    9,   11,    6,   11,    9,   -6,  -14,
     -21,   -5,   -3,   -6,  -15,   -6,   -3,   -5,  -21,
     -17,  -21,  -23,  -29,   -2,  -29,  -23,  -21,  -17,
];

#[rustfmt::skip]
pub const ROOK_MG: [i32; 90] = [
      17,   18,   25,   25,   17,   25,   25,   18,   17,
       8,   42,   20,   33,   30,   33,   20,   42,    8,
      16,    3,   17,   22,   27,   22,   17,    3,   16,
      15,    9,   41,   17,   29,   17,   41,    9,   15,
       7,    0,   16,   -4,   30,   -4,   16,    0,    7,
       7,    3,   18,    7,   34,    7,   18,    3,    7,
      15,   13,   11,   10,   15,   10,   11,   13,   15,
      11,    6,    7,    6,    9,    6,    7,    6,   11,
       4,   -5,    2,  -26,   -1,  -26,    2,   -5,    4,
     -11,   19,   16,    6,    5,    6,   16,   19,  -11,
];

#[rustfmt::skip]
pub const ROOK_EG: [i32; 90] = [
       6,    7,   16,    1,   19,    1,   16,    7,    6,
      12,   10,   12,   -2,   22,   -2,   12,   10,   12,
      19,    9,   23,   22,   28,   22,   23,    9,   19,
      10,    9,   19,    4,   16,    4,   19,    9,   10,
      11,    7,   19,   16,   26,   16,   19,    7,   11,
      10,   12,   15,   17,   25,   17,   15,   12,   10,
       4,   15,   15,    6,   18,    6,   15,   15,    4,
      -2,    3,    5,   18,    8,   18,    5,    3,   -2,
      -9,   -3,   -4,   -8,    0,   -8,   -4,   -3,   -9,
     -22,  -10,  -10,    7,    1,    7,  -10,  -10,  -22,
];

#[rustfmt::skip]
pub const CANNON_MG: [i32; 90] = [
     42,  10, -10, -27, -17, -27, -10,  10,  42,
      8, -23, -14, -11, -19, -11, -14, -23,   8,
      9, -26, -19, -21, -23, -21, -19, -26,   9,
      1, -29,   5, -17,  10, -17,   5, -29,   1,
     11, -29,  -5, -10,  27, -10,  -5, -29,  11,
     11, -13,  20,  -5,  36,  -5,  20, -13,  11,
    -12, -18,   9,  -1,   4,  -1,   9, -18, -12,
     29,   0,  28,  18,  64,  18,  28,   0,  29,
     13,   8,  17,  19,  11,  19,  17,   8,  13,
    -16, -11,   5,  14,   6,  14,   5, -11, -16,
];

#[rustfmt::skip]
pub const CANNON_EG: [i32; 90] = [
       -7,    -7,    -7,    -6,    -2,    -6,    -7,    -7,    -7,
       -6,    10,    -8,     0,     4,     0,    -8,    10,    -6,
       -3,    -1,    -6,     1,     0,     1,    -6,    -1,    -3,
        6,    19,    -2,    13,     6,    13,    -2,    19,     6,
        4,     9,     3,    11,    12,    11,     3,     9,     4,
       -6,    -6,    -4,     3,     7,     3,    -4,    -6,    -6,
       -2,     0,     0,     1,     1,     1,     0,     0,    -2,
      -15,     3,    -1,     7,    10,     7,    -1,     3,   -15,
        2,     3,    -5,     8,     1,     8,    -5,     3,     2,
       -9,    -4,   -11,     6,     9,     6,   -11,    -4,    -9,
];

/// Pawns are worth little at home and much more across the river, most near the palace;
/// a pawn on the last rank (an "old pawn") can only move sideways and is worth less again.
#[rustfmt::skip]
pub const PAWN_MG: [i32; 90] = [
     -2,   2,   7,   6,   2,   6,   7,   2,  -2,
     17,  33,  72, 126, 114, 126,  72,  33,  17,
      9,  31,  43,  75,  88,  75,  43,  31,   9,
     14,  12,  44,  52,  47,  52,  44,  12,  14,
    -20,  -2,  22,  33,  26,  33,  22,  -2, -20,
    -23,   0,   7,   0,  -9,   0,   7,   0, -23,
    -31,   0, -36,   0,  11,   0, -36,   0, -31,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
pub const PAWN_EG: [i32; 90] = [
    -11, -21,   5, -23, -40, -23,   5, -21, -11,
     42,  60,  63,  71,  99,  71,  63,  60,  42,
     41,  63,  98, 122, 119, 122,  98,  63,  41,
     37,  57,  66,  53,  61,  53,  66,  57,  37,
     46,  51,  72,  65,  68,  65,  72,  51,  46,
     12,   0, -17,   0,  34,   0, -17,   0,  12,
     30,   0,  -3,   0,  21,   0,  -3,   0,  30,
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

// ---- constants of the terms, not fitted by the tuner -----------------------------------

/// A piece counts as cheaper than the victim when its value is lower by at least this.
pub const CHEAPER_MARGIN: i32 = 50;
/// Penalties of the relations term are multiplied by these /64: the side to move can answer
/// its own threats, while its opponent's weaknesses are there for the taking.
pub const RELATIONS_ON_MOVE: i32 = 32;
pub const RELATIONS_WAITING: i32 = 64;

/// Attack units per palace square attacked, by the attacker's type.
pub const KING_ZONE_ATTACK: [i32; 7] = [0, 0, 0, 3, 3, 2, 2];
/// Danger is units² / this (middlegame) and units × [`KING_DANGER_EG`] (endgame).
pub const KING_DANGER_DIV: i32 = 8;
pub const KING_DANGER_EG: i32 = 1;
/// Units are capped so the quadratic cannot run away.
pub const KING_DANGER_MAX_UNITS: i32 = 40;

/// Scale factors out of [`SCALE_NORMAL`].
pub const SCALE_NORMAL: i32 = 64;
/// The side ahead has no rook, horse, cannon or pawn: it cannot mate.
pub const SCALE_NO_ATTACKERS: i32 = 0;
/// A lone horse or cannon (or a lone pawn against two advisors) against a defended king.
pub const SCALE_LONE_ATTACKER: i32 = 8;

// ---- the linear weights ------------------------------------------------------------------
// Every weight the tuner fits, besides the piece-square tables: one line (or one array) each.
// `weights!` numbers them for the tuner's trace ([`weight`]) and lists them for the tuner's
// writer ([`LINEAR_WEIGHTS`]), so a new weight is one more `pub const` here. Each is a pair
// ([`MgEg`]) or an array of pairs by piece type.

/// Declares the linear weights as written, and derives their numbering.
macro_rules! weights {
    ($($(#[$attr:meta])* pub const $name:ident: $ty:ty = $value:expr;)*) => {
        $($(#[$attr])* pub const $name: $ty = $value;)*

        /// Each linear weight's name (as written here) and number of pairs, in order.
        pub const LINEAR_WEIGHTS: &[(&str, usize)] =
            &[$((stringify!($name), size_of::<$ty>() / size_of::<MgEg>())),*];

        /// The weights numbered for the tuner: each index stands for one (middlegame, endgame)
        /// pair, and a term adds (count × pair) to a side's score. An array's pairs follow its
        /// first index; the piece-square tables come last.
        pub mod weight {
            #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
            enum Order {
                $($name,)*
            }
            /// The first index of the linear weight at `position` in [`super::LINEAR_WEIGHTS`].
            const fn start(position: usize) -> usize {
                let mut index = 0;
                let mut i = 0;
                while i < position {
                    index += super::LINEAR_WEIGHTS[i].1;
                    i += 1;
                }
                index
            }
            $(pub const $name: usize = start(Order::$name as usize);)*
            /// + piece type × 90 + `table_index` (Red's view): the `*_MG`/`*_EG` tables.
            pub const PST: usize = start(super::LINEAR_WEIGHTS.len());
            /// Number of weight pairs.
            pub const COUNT: usize = PST + 7 * 90;
        }
    };
}

weights! {
    // material
    /// Piece values indexed by piece type (king, advisor, elephant, horse, rook, cannon, pawn).
    /// The king is never traded, so it carries no material.
    pub const PIECE_VALUE: [MgEg; 7] = [
        (0, 0),
        (133, 69),
        (210, 110),
        (517, 452),
        (1207, 1114),
        (612, 414),
        (94, 130),
    ];

    // flexibility
    /// Points per square a piece can move to (empty or enemy), by piece type.
    pub const MOBILITY: [MgEg; 7] = [
        (-8, 2),
        (9, -13),
        (3, -11),
        (28, -6),
        (12, 4),
        (7, -2),
        (26, -10),
    ];

    // relations between pieces
    /// Attacked and not guarded, by the victim's type.
    pub const HANGING: [MgEg; 7] = [
        (0, 0),
        (40, 46),
        (50, 34),
        (85, 78),
        (55, 51),
        (109, 63),
        (28, 60),
    ];
    /// Attacked by a cheaper enemy piece (guarded or not), by the victim's type.
    pub const ATTACKED_BY_CHEAPER: [MgEg; 7] = [
        (0, 0),
        (33, 1),
        (26, 19),
        (35, 26),
        (61, 46),
        (45, 32),
        (0, 0),
    ];
    /// Attacked at least twice and guarded once: the exchange loses, by the victim's type.
    pub const OUTNUMBERED: [MgEg; 7] = [
        (0, 0),
        (26, 9),
        (13, 9),
        (47, 24),
        (24, 24),
        (34, 22),
        (28, 25),
    ];

    // king safety and patterns
    /// Per missing advisor, per enemy rook, horse or crossed pawn.
    pub const MISSING_ADVISOR: MgEg = (51, 47);
    /// Per missing elephant, per enemy cannon or rook.
    pub const MISSING_ELEPHANT: MgEg = (31, 15);
    /// A cannon on the enemy king's file with nothing between them.
    pub const EMPTY_HEADED_CANNON: MgEg = (100, 9);
    /// A cannon on the enemy king's file with two pieces between (the central cannon's threat).
    pub const CENTRAL_CANNON: MgEg = (62, 47);
    /// A cannon on the enemy's back rank while the enemy king stays on it.
    pub const BOTTOM_CANNON: MgEg = (56, 5);
    /// A horse on its own palace centre: it blocks the king and advisors (penalty).
    pub const HORSE_IN_PALACE_CENTRE: MgEg = (-28, -20);
    /// Rook on a file with no pawns at all / with no own pawns.
    pub const ROOK_OPEN_FILE: MgEg = (38, 2);
    pub const ROOK_HALF_OPEN_FILE: MgEg = (21, 24);
    /// Extra for a rook on an open palace file (d, e or f).
    pub const ROOK_PALACE_FILE: MgEg = (8, 24);
    /// A crossed pawn next to the enemy palace (files c-g, the three ranks of the palace).
    pub const PAWN_NEAR_PALACE: MgEg = (104, -49);
    /// Two crossed pawns side by side.
    pub const CONNECTED_PAWNS: MgEg = (17, 11);

    // tempo
    pub const TEMPO: MgEg = (28, -3);
}
