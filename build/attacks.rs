//! The attack tables: king, advisor, elephant (blocked eyes), horse (blocked legs) and the
//! reverse "attacked by a horse" table, pawns, rank and file slider lookups for rook and cannon,
//! between and check-region masks. Each is checked against a slow direct computation.

use crate::emit::{emit, emit_nested};
use crate::geometry::*;
use crate::zobrist::SplitMix;
use std::fmt::Write as _;
use std::{env, fs, path::Path};

const RED: usize = 0;
const BLACK: usize = 1;
const KING_STEPS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAGONAL_STEPS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
/// Horse jumps with the leg (orthogonal neighbour) each one passes.
const HORSE_JUMPS: [((i32, i32), (i32, i32)); 8] = [
    ((1, 2), (0, 1)),
    ((-1, 2), (0, 1)),
    ((1, -2), (0, -1)),
    ((-1, -2), (0, -1)),
    ((2, 1), (1, 0)),
    ((2, -1), (1, 0)),
    ((-2, 1), (-1, 0)),
    ((-2, -1), (-1, 0)),
];

fn bit(sq: usize) -> u128 {
    1u128 << sq
}

fn step(sq: usize, (df, dr): (i32, i32)) -> Option<usize> {
    square_at(file_of(sq) as i32 + df, rank_of(sq) as i32 + dr)
}

fn bits_of(set: u128) -> impl Iterator<Item = usize> {
    (0..SQUARES).filter(move |&sq| set & bit(sq) != 0)
}

fn king_attacks(sq: usize) -> u128 {
    let palace = [RED, BLACK].into_iter().find(|&c| in_palace(c, sq));
    let Some(color) = palace else { return 0 };
    KING_STEPS
        .iter()
        .filter_map(|&d| step(sq, d))
        .filter(|&to| in_palace(color, to))
        .fold(0, |acc, to| acc | bit(to))
}

fn advisor_attacks(sq: usize) -> u128 {
    let palace = [RED, BLACK].into_iter().find(|&c| in_palace(c, sq));
    let Some(color) = palace else { return 0 };
    DIAGONAL_STEPS
        .iter()
        .filter_map(|&d| step(sq, d))
        .filter(|&to| in_palace(color, to))
        .fold(0, |acc, to| acc | bit(to))
}

/// Elephant moves from `sq` when the eyes whose window bits are in `window` are occupied.
/// The elephant never crosses the river, whichever side it stands on.
fn elephant_attacks(sq: usize, window: u64) -> u128 {
    let side = if on_own_side(RED, sq) { RED } else { BLACK };
    let mut attacks = 0;
    for (df, dr) in DIAGONAL_STEPS {
        let eye_blocked = window & (1 << window_bit(df, dr)) != 0;
        if let Some(to) = step(sq, (2 * df, 2 * dr)) {
            if !eye_blocked && on_own_side(side, to) {
                attacks |= bit(to);
            }
        }
    }
    attacks
}

fn horse_attacks(sq: usize, window: u64) -> u128 {
    let mut attacks = 0;
    for (jump, (lf, lr)) in HORSE_JUMPS {
        if let Some(to) = step(sq, jump) {
            if window & (1 << window_bit(lf, lr)) == 0 {
                attacks |= bit(to);
            }
        }
    }
    attacks
}

/// Squares from which a horse attacks `sq`; its leg is the diagonal neighbour of `sq` that
/// lies between them.
fn horse_attackers(sq: usize, window: u64) -> u128 {
    let mut attackers = 0;
    for ((jf, jr), _) in HORSE_JUMPS {
        let Some(from) = step(sq, (jf, jr)) else {
            continue;
        };
        // Leg seen from the target: one step back along the long axis, full step along the short.
        let (lf, lr) = if jf.abs() == 2 {
            (jf / 2, jr)
        } else {
            (jf, jr / 2)
        };
        if window & (1 << window_bit(lf, lr)) == 0 {
            attackers |= bit(from);
        }
    }
    attackers
}

fn pawn_attacks(color: usize, sq: usize) -> u128 {
    let forward = if color == RED { 1 } else { -1 };
    let mut steps = vec![(0, forward)];
    if !on_own_side(color, sq) {
        steps.extend([(1, 0), (-1, 0)]);
    }
    steps
        .into_iter()
        .filter_map(|d| step(sq, d))
        .fold(0, |acc, to| acc | bit(to))
}

fn pawn_attackers(color: usize, sq: usize) -> u128 {
    bits_of(u128::MAX)
        .filter(|&from| pawn_attacks(color, from) & bit(sq) != 0)
        .fold(0, |a, f| a | bit(f))
}

/// Slider attacks walked square by square. Rook: up to and including the first blocker.
/// Cannon: beyond the first blocker (the screen) up to and including the next one.
fn walk_slider(sq: usize, occ: u128, cannon: bool) -> u128 {
    let mut attacks = 0;
    for d in KING_STEPS {
        let mut screened = false;
        let mut cur = sq;
        while let Some(next) = step(cur, d) {
            cur = next;
            let occupied = occ & bit(cur) != 0;
            if cannon && !screened {
                screened = occupied;
                continue;
            }
            attacks |= bit(cur);
            if occupied {
                break;
            }
        }
    }
    attacks
}

fn between(a: usize, b: usize) -> u128 {
    for d in KING_STEPS {
        let mut set = 0;
        let mut cur = a;
        while let Some(next) = step(cur, d) {
            if next == b {
                return set;
            }
            set |= bit(next);
            cur = next;
        }
    }
    0
}

/// For every square, the table of attacks indexed by the gathered neighbour bits.
fn neighbour_table(
    bits: [u32; 4],
    gather: u64,
    attacks: impl Fn(usize, u64) -> u128,
) -> Vec<[u128; 16]> {
    (0..SQUARES)
        .map(|sq| {
            let mut table = [0u128; 16];
            let mut filled = [false; 16];
            for subset in 0..16u32 {
                let window = (0..4)
                    .filter(|i| subset >> i & 1 != 0)
                    .fold(0u64, |w, i| w | 1 << bits[i]);
                let index = gather_neighbours(window, bits, gather);
                assert!(!filled[index], "gather collision at square {sq}");
                filled[index] = true;
                table[index] = attacks(sq, window);
            }
            table
        })
        .collect()
}

/// The inner squares of rank 0 (b0..h0) that a [`rank_index`] stands for, as a board.
fn rank_inner_occupancy(index: usize) -> u128 {
    (0..RANK_INNER_BITS as usize)
        .filter(|k| index >> k & 1 != 0)
        .fold(0, |o, k| o | bit(k + 1))
}

/// The inner squares of file a (a1..a8) that a [`file_index`] stands for, as a board.
fn file_inner_occupancy(index: usize) -> u128 {
    (0..FILE_INNER_BITS as usize)
        .filter(|k| index >> k & 1 != 0)
        .fold(0, |o, k| o | bit(file_index_rank(k) * FILES))
}

/// For the evaluation's cannon mobility: per file and rank index, the cannon attacks along
/// rank 0 in the low 16 bits and the rook (quiet slide) reach in the high 16.
fn rank_cannon_rook(cannon: &[[u16; 128]], rook: &[[u16; 128]]) -> Vec<[u32; 128]> {
    cannon
        .iter()
        .zip(rook)
        .map(|(c, r)| std::array::from_fn(|i| c[i] as u32 | (r[i] as u32) << 16))
        .collect()
}

/// For the evaluation's cannon mobility: per rank and file index, the empty squares of ranks
/// 1-8 a rook slides over along file a (low four bits), and whether it reaches rank 0 (bit 4)
/// and rank 9 (bit 5), which the index does not see: those count when empty.
fn file_quiet(rook: &[[u128; 256]]) -> Vec<[u8; 256]> {
    let inner_ranks = (1..RANKS - 1).fold(0u128, |m, r| m | bit(r * FILES));
    rook.iter()
        .map(|row| {
            std::array::from_fn(|index| {
                let reach = row[index];
                let inner = (reach & !file_inner_occupancy(index) & inner_ranks).count_ones();
                let low = (reach & bit(0) != 0) as u32;
                let high = (reach & bit((RANKS - 1) * FILES) != 0) as u32;
                (inner | low << 4 | high << 5) as u8
            })
        })
        .collect()
}

/// Bit of a [`file_cannon_quiet`] entry where its [`file_quiet`] byte starts.
const FILE_QUIET_SHIFT: u32 = 96;

/// For the evaluation's cannons: each file-cannon entry with its file-quiet byte above the
/// board (from bit [`FILE_QUIET_SHIFT`]), so one lookup gives both. Shifted up by a file (at
/// most 8), the byte stays clear of the board's 90 squares.
fn file_cannon_quiet(cannon: &[[u128; 256]], quiet: &[[u8; 256]]) -> Vec<[u128; 256]> {
    cannon
        .iter()
        .zip(quiet)
        .map(|(c, q)| {
            std::array::from_fn(|i| {
                assert_eq!(c[i] >> SQUARES, 0, "file cannon entry off the board");
                c[i] | (q[i] as u128) << FILE_QUIET_SHIFT
            })
        })
        .collect()
}

/// Rank tables: for each file and inner-occupancy index, the attacked files of that rank.
fn rank_table(cannon: bool) -> Vec<[u16; 128]> {
    (0..FILES)
        .map(|file| {
            let mut table = [0u16; 128];
            for (index, entry) in table.iter_mut().enumerate() {
                let occ = rank_inner_occupancy(index);
                assert_eq!(rank_index(occ, 0), index);
                // The walk also goes up the file; keep rank 0 only.
                *entry = (walk_slider(file, occ, cannon) & 0x1FF) as u16;
            }
            table
        })
        .collect()
}

/// File tables: for each rank and inner-occupancy index, the attacked squares of file a.
fn file_table(cannon: bool) -> Vec<[u128; 256]> {
    (0..RANKS)
        .map(|rank| {
            let mut table = [0u128; 256];
            for (index, entry) in table.iter_mut().enumerate() {
                let occ = file_inner_occupancy(index);
                assert_eq!(file_index(occ, 0), index, "file gather is not exact");
                let sq = rank * FILES;
                let file_a = (0..RANKS).fold(0u128, |m, r| m | bit(r * FILES));
                *entry = walk_slider(sq, occ, cannon) & file_a;
            }
            table
        })
        .collect()
}

/// Random occupancies: the fast lookups (as the crate computes them) equal the slow walk.
fn check_lookups(
    rank_rook: &[[u16; 128]],
    file_rook: &[[u128; 256]],
    horse: &[[u128; 16]],
    attackers: &[[u128; 16]],
) {
    let mut rng = SplitMix(7);
    for _ in 0..2000 {
        let occ = rng.occupancy();
        for sq in 0..SQUARES {
            let (file, rank) = (file_of(sq), rank_of(sq));
            let fast = (rank_rook[file][rank_index(occ, rank)] as u128)
                .wrapping_mul(bit(rank * FILES))
                | file_rook[rank][file_index(occ, file)] << (file % 64);
            assert_eq!(fast, walk_slider(sq, occ, false), "rook lookup at {sq}");
            let reach = horse[sq][orthogonal_index(occ, sq)];
            for to in bits_of(reach) {
                assert!(
                    attackers[to][diagonal_index(occ, to)] & bit(sq) != 0,
                    "horse reverse {sq}->{to}"
                );
            }
            for from in bits_of(attackers[sq][diagonal_index(occ, sq)]) {
                assert!(
                    horse[from][orthogonal_index(occ, from)] & bit(sq) != 0,
                    "horse forward {from}->{sq}"
                );
            }
        }
    }
}

/// The record type of `NEAR_SETS`, emitted with it.
const NEAR_SETS_TYPE: &str = "
/// The squares from which each kind could attack one square, whatever stands between (the
/// exchange evaluation's first sift): king and advisor steps, elephants and horses with their
/// eyes and legs free, the rank and file for rooks and cannons, and pawns by colour. Aligned
/// so that a square's record fills two whole cache lines; the first holds the sets the king
/// attack test reads (horses, lines, pawns).
#[repr(C, align(128))]
pub struct NearSets {
    pub horse: u128,
    pub lines: u128,
    pub pawn: [u128; 2],
    pub king: u128,
    pub advisor: u128,
    pub elephant: u128,
}
";

/// Writes `tables.rs` into OUT_DIR.
pub fn generate() {
    let mut out = String::new();

    let kings: Vec<u128> = (0..SQUARES).map(king_attacks).collect();
    let advisors: Vec<u128> = (0..SQUARES).map(advisor_attacks).collect();
    emit(&mut out, "KING_ATTACKS", "[u128; 90]", &kings, 4);
    emit(&mut out, "ADVISOR_ATTACKS", "[u128; 90]", &advisors, 4);

    let elephants = neighbour_table(DIAGONAL_WINDOW, DIAGONAL_GATHER, elephant_attacks);
    let horses = neighbour_table(ORTHOGONAL_WINDOW, ORTHOGONAL_GATHER, horse_attacks);
    let horse_attackers_t = neighbour_table(DIAGONAL_WINDOW, DIAGONAL_GATHER, horse_attackers);
    emit_nested(&mut out, "ELEPHANT_ATTACKS", "[[u128; 16]; 90]", &elephants);
    emit_nested(&mut out, "HORSE_ATTACKS", "[[u128; 16]; 90]", &horses);
    emit_nested(
        &mut out,
        "HORSE_ATTACKERS",
        "[[u128; 16]; 90]",
        &horse_attackers_t,
    );

    let pawns: Vec<[u128; 90]> = [RED, BLACK]
        .iter()
        .map(|&c| std::array::from_fn(|sq| pawn_attacks(c, sq)))
        .collect();
    let pawn_from: Vec<[u128; 90]> = [RED, BLACK]
        .iter()
        .map(|&c| std::array::from_fn(|sq| pawn_attackers(c, sq)))
        .collect();
    emit_nested(&mut out, "PAWN_ATTACKS", "[[u128; 90]; 2]", &pawns);
    emit_nested(&mut out, "PAWN_ATTACKERS", "[[u128; 90]; 2]", &pawn_from);

    // The geometry's square lookups agree with its arithmetic.
    for sq in 0..SQUARES {
        let (file, rank) = (SQUARE_FILE[sq] as i32, SQUARE_RANK[sq] as i32);
        assert_eq!(square_at(file, rank), Some(sq));
        assert!(SQUARE_BIT[sq].count_ones() == 1 && SQUARE_BIT[sq].trailing_zeros() as usize == sq);
    }
    // The lowest square of each rank: multiplying a rank's bits by it puts them in place.
    let rank_base: Vec<u128> = (0..RANKS).map(|rank| bit(rank * FILES)).collect();
    for (rank, &base) in rank_base.iter().enumerate() {
        assert_eq!(
            square_at(0, rank as i32),
            Some(base.trailing_zeros() as usize)
        );
        assert_eq!(0x1ffu128.wrapping_mul(base), 0x1ff << (rank * FILES));
    }
    emit(&mut out, "RANK_BASE", "[u128; 10]", &rank_base, 4);

    let rank_rook = rank_table(false);
    let file_rook = file_table(false);
    check_lookups(&rank_rook, &file_rook, &horses, &horse_attackers_t);
    let rank_cannon = rank_table(true);
    emit_nested(&mut out, "RANK_ROOK", "[[u16; 128]; 9]", &rank_rook);
    emit_nested(&mut out, "RANK_CANNON", "[[u16; 128]; 9]", &rank_cannon);
    emit_nested(
        &mut out,
        "RANK_CANNON_ROOK",
        "[[u32; 128]; 9]",
        &rank_cannon_rook(&rank_cannon, &rank_rook),
    );
    let file_cannon = file_table(true);
    emit_nested(&mut out, "FILE_ROOK", "[[u128; 256]; 10]", &file_rook);
    emit_nested(&mut out, "FILE_CANNON", "[[u128; 256]; 10]", &file_cannon);
    emit_nested(
        &mut out,
        "FILE_CANNON_QUIET",
        "[[u128; 256]; 10]",
        &file_cannon_quiet(&file_cannon, &file_quiet(&file_rook)),
    );

    let diagonal: Vec<u128> = (0..SQUARES)
        .map(|sq| {
            DIAGONAL_STEPS
                .iter()
                .filter_map(|&d| step(sq, d))
                .fold(0, |acc, n| acc | bit(n))
        })
        .collect();
    emit(&mut out, "DIAGONAL_NEIGHBOURS", "[u128; 90]", &diagonal, 4);

    // Attacks on a king reach it along its rank and file, from a horse's jump square over a
    // diagonal leg, or from an adjacent pawn: a move touching none of these squares can
    // neither give nor uncover a check.
    let check_regions: Vec<u128> = (0..SQUARES)
        .map(|ksq| {
            let lines = (0..SQUARES)
                .filter(|&sq| {
                    sq != ksq && (file_of(sq) == file_of(ksq) || rank_of(sq) == rank_of(ksq))
                })
                .fold(0, |acc, sq| acc | bit(sq));
            lines | horse_attackers(ksq, 0) | diagonal[ksq]
        })
        .collect();
    emit(&mut out, "CHECK_REGION", "[u128; 90]", &check_regions, 4);

    // A square's rank and file without the square: where rooks, cannons and the facing king
    // must stand to attack it.
    let lines_through: Vec<u128> = (0..SQUARES)
        .map(|sq| {
            (0..SQUARES)
                .filter(|&o| o != sq && (file_of(o) == file_of(sq) || rank_of(o) == rank_of(sq)))
                .fold(0, |acc, o| acc | bit(o))
        })
        .collect();
    for (sq, &lines) in lines_through.iter().enumerate() {
        assert_eq!(lines, walk_slider(sq, 0, false), "lines through {sq}");
        assert_eq!(lines.count_ones(), 17);
    }
    emit(&mut out, "LINES_THROUGH", "[u128; 90]", &lines_through, 4);

    // Everything the exchange evaluation reads of a square, side by side: one square's sets
    // fill one 128-byte record (two cache lines) instead of a line in each of seven tables.
    out.push_str(NEAR_SETS_TYPE);
    writeln!(out, "pub static NEAR_SETS: [NearSets; 90] = [").unwrap();
    for sq in 0..SQUARES {
        writeln!(
            out,
            "    NearSets {{ king: {:#x}, advisor: {:#x}, elephant: {:#x}, horse: {:#x}, \
             lines: {:#x}, pawn: [{:#x}, {:#x}] }},",
            kings[sq],
            advisors[sq],
            elephant_attacks(sq, 0),
            horse_attackers(sq, 0),
            lines_through[sq],
            pawn_from[RED][sq],
            pawn_from[BLACK][sq],
        )
        .unwrap();
    }
    out.push_str("];\n");

    let betweens: Vec<[u128; 90]> = (0..SQUARES)
        .map(|a| std::array::from_fn(|b| between(a, b)))
        .collect();
    emit_nested(&mut out, "BETWEEN", "[[u128; 90]; 90]", &betweens);

    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("tables.rs");
    fs::write(dest, out).unwrap();
}
