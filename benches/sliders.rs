//! Slider schemes compared on the same queries (criterion), to choose the one the crate uses:
//! (a) the crate's rank/file occupancy lookups, (b) a ray scan (per-direction rays, first and
//! second blocker by lsb/msb on u128), (c) PEXT on the two 64-bit halves of the relevant
//! occupancy into per-square tables (x86-64 with BMI2 only). Every variant is checked equal to
//! (a) before anything is timed. Run: `cargo bench --bench sliders`; results in perf/README.md.
#![deny(clippy::undocumented_unsafe_blocks)]

#[path = "support/mod.rs"]
mod support;

use chariot::board::attacks::{cannon_attacks, rook_attacks};
use chariot::{Bitboard, Square};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

const FILES: i32 = 9;
const RANKS: i32 = 10;
const SQUARES: usize = 90;
/// North and east raise the square index (first blocker = lowest bit), south and west lower it.
const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

fn square_at(file: i32, rank: i32) -> Option<usize> {
    ((0..FILES).contains(&file) && (0..RANKS).contains(&rank))
        .then(|| (rank * FILES + file) as usize)
}

/// Obviously-correct walk, used only to fill the tables of the variants under test.
fn walk(sq: usize, occ: u128, cannon: bool) -> u128 {
    let mut attacks = 0;
    for (df, dr) in DIRECTIONS {
        let (mut file, mut rank) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut screened = false;
        while let Some(next) = square_at(file + df, rank + dr) {
            (file, rank) = (file + df, rank + dr);
            let occupied = occ >> next & 1 != 0;
            if cannon && !screened {
                screened = occupied;
                continue;
            }
            attacks |= 1 << next;
            if occupied {
                break;
            }
        }
    }
    attacks
}

/// (a) The crate.
fn crate_rook(sq: usize, occ: u128) -> u128 {
    rook_attacks(Square::new(sq), Bitboard::from_bits(occ)).bits()
}

fn crate_cannon(sq: usize, occ: u128) -> u128 {
    cannon_attacks(Square::new(sq), Bitboard::from_bits(occ)).bits()
}

/// (b) Ray scan: `rays[sq][d]` holds every square from `sq` (exclusive) to the edge.
struct Rays {
    rays: [[u128; 4]; SQUARES],
}

impl Rays {
    fn new() -> Rays {
        let mut rays = [[0; 4]; SQUARES];
        for (sq, per_square) in rays.iter_mut().enumerate() {
            for (d, ray) in per_square.iter_mut().enumerate() {
                // A lone slider on an empty board attacks exactly the ray.
                *ray = walk(sq, 0, false) & Self::half_plane(sq, d);
            }
        }
        Rays { rays }
    }

    /// The squares of `sq`'s rank or file lying in direction `d`.
    fn half_plane(sq: usize, d: usize) -> u128 {
        let (file, rank) = ((sq % 9) as i32, (sq / 9) as i32);
        let (df, dr) = DIRECTIONS[d];
        (0..SQUARES)
            .filter(|&s| {
                let (f, r) = ((s % 9) as i32, (s / 9) as i32);
                (df != 0 && r == rank && (f - file).signum() == df)
                    || (dr != 0 && f == file && (r - rank).signum() == dr)
            })
            .fold(0, |m, s| m | 1 << s)
    }

    #[inline(always)]
    fn first<const UP: bool>(bits: u128) -> usize {
        if UP {
            bits.trailing_zeros() as usize
        } else {
            127 - bits.leading_zeros() as usize
        }
    }

    #[inline(always)]
    fn rook_ray<const UP: bool>(&self, sq: usize, d: usize, occ: u128) -> u128 {
        let ray = self.rays[sq][d];
        let blockers = ray & occ;
        if blockers == 0 {
            return ray;
        }
        ray ^ self.rays[Self::first::<UP>(blockers)][d]
    }

    #[inline(always)]
    fn cannon_ray<const UP: bool>(&self, sq: usize, d: usize, occ: u128) -> u128 {
        let blockers = self.rays[sq][d] & occ;
        if blockers == 0 {
            return 0;
        }
        let beyond = self.rays[Self::first::<UP>(blockers)][d];
        let targets = beyond & occ;
        if targets == 0 {
            return beyond;
        }
        beyond ^ self.rays[Self::first::<UP>(targets)][d]
    }

    #[inline(always)]
    fn rook(&self, sq: usize, occ: u128) -> u128 {
        self.rook_ray::<true>(sq, 0, occ)
            | self.rook_ray::<true>(sq, 1, occ)
            | self.rook_ray::<false>(sq, 2, occ)
            | self.rook_ray::<false>(sq, 3, occ)
    }

    #[inline(always)]
    fn cannon(&self, sq: usize, occ: u128) -> u128 {
        self.cannon_ray::<true>(sq, 0, occ)
            | self.cannon_ray::<true>(sq, 1, occ)
            | self.cannon_ray::<false>(sq, 2, occ)
            | self.cannon_ray::<false>(sq, 3, occ)
    }
}

/// (c) PEXT: per square, the occupancy of the squares that can block (its rank and file without
/// the board edges) is gathered from each 64-bit half and the two indices joined. The tables
/// are the ~1.08 M-entry (17 MB each) layout a PEXT or 128-bit-magic engine needs.
#[cfg(target_arch = "x86_64")]
mod pext {
    use super::{walk, SQUARES};

    pub struct Pext {
        mask_lo: [u64; SQUARES],
        mask_hi: [u64; SQUARES],
        lo_bits: [u32; SQUARES],
        offset: [usize; SQUARES],
        rook: Vec<u128>,
        cannon: Vec<u128>,
    }

    /// Portable gather, used only while filling the tables.
    fn soft_pext(value: u64, mut mask: u64) -> u64 {
        let mut out = 0;
        let mut k = 0;
        while mask != 0 {
            if value & mask & mask.wrapping_neg() != 0 {
                out |= 1 << k;
            }
            mask &= mask - 1;
            k += 1;
        }
        out
    }

    fn relevant(sq: usize) -> u128 {
        let (file, rank) = (sq % 9, sq / 9);
        let along_rank = (1..8).map(|f| rank * 9 + f);
        let along_file = (1..9).map(|r| r * 9 + file);
        along_rank
            .chain(along_file)
            .filter(|&s| s != sq)
            .fold(0, |m, s| m | 1 << s)
    }

    impl Pext {
        pub fn new() -> Pext {
            let mut p = Pext {
                mask_lo: [0; SQUARES],
                mask_hi: [0; SQUARES],
                lo_bits: [0; SQUARES],
                offset: [0; SQUARES],
                rook: Vec::new(),
                cannon: Vec::new(),
            };
            for sq in 0..SQUARES {
                let mask = relevant(sq);
                p.mask_lo[sq] = mask as u64;
                p.mask_hi[sq] = (mask >> 64) as u64;
                p.lo_bits[sq] = p.mask_lo[sq].count_ones();
                p.offset[sq] = p.rook.len();
                let size = 1usize << mask.count_ones();
                p.rook.resize(p.offset[sq] + size, 0);
                p.cannon.resize(p.offset[sq] + size, 0);
                let mut filled = vec![false; size];
                // Every subset of the mask (carry-rippler), each must land on its own slot.
                let mut subset: u128 = 0;
                loop {
                    let index = p.soft_index(sq, subset);
                    assert!(!filled[index], "index collision at square {sq}");
                    filled[index] = true;
                    p.rook[p.offset[sq] + index] = walk(sq, subset, false);
                    p.cannon[p.offset[sq] + index] = walk(sq, subset, true);
                    subset = subset.wrapping_sub(mask) & mask;
                    if subset == 0 {
                        break;
                    }
                }
            }
            p
        }

        fn soft_index(&self, sq: usize, occ: u128) -> usize {
            let lo = soft_pext(occ as u64, self.mask_lo[sq]);
            let hi = soft_pext((occ >> 64) as u64, self.mask_hi[sq]);
            (lo | hi << self.lo_bits[sq]) as usize
        }

        pub fn table_entries(&self) -> usize {
            self.rook.len()
        }

        #[target_feature(enable = "bmi2")]
        #[inline]
        fn index(&self, sq: usize, occ: u128) -> usize {
            use std::arch::x86_64::_pext_u64;
            let lo = _pext_u64(occ as u64, self.mask_lo[sq]);
            let hi = _pext_u64((occ >> 64) as u64, self.mask_hi[sq]);
            self.offset[sq] + (lo | hi << self.lo_bits[sq]) as usize
        }

        #[target_feature(enable = "bmi2")]
        #[inline]
        pub fn rook(&self, sq: usize, occ: u128) -> u128 {
            self.rook[self.index(sq, occ)]
        }

        #[target_feature(enable = "bmi2")]
        #[inline]
        pub fn cannon(&self, sq: usize, occ: u128) -> u128 {
            self.cannon[self.index(sq, occ)]
        }

        /// The timed loops are compiled with BMI2 so `pext` inlines into them.
        #[target_feature(enable = "bmi2")]
        pub fn fold_rook(&self, queries: &[(usize, u128)]) -> u128 {
            queries
                .iter()
                .fold(0, |acc, &(sq, occ)| acc ^ self.rook(sq, occ))
        }

        #[target_feature(enable = "bmi2")]
        pub fn fold_cannon(&self, queries: &[(usize, u128)]) -> u128 {
            queries
                .iter()
                .fold(0, |acc, &(sq, occ)| acc ^ self.cannon(sq, occ))
        }
    }
}

/// The PEXT variant, if this CPU can run it.
#[cfg(target_arch = "x86_64")]
fn pext_variant() -> Option<pext::Pext> {
    is_x86_feature_detected!("bmi2").then(pext::Pext::new)
}

const BOARD: u128 = (1 << SQUARES) - 1;

/// Random queries: a square and 2..=32 occupied squares (a game's range of material).
fn random_queries(count: usize, seed: u64) -> Vec<(usize, u128)> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..count)
        .map(|_| {
            let pieces = rng.usize(2..=32);
            let occ = (0..pieces).fold(0u128, |m, _| m | 1 << rng.usize(0..SQUARES));
            (rng.usize(0..SQUARES), occ & BOARD)
        })
        .collect()
}

/// Game-like queries: every occupied square of every bench.fen position, with its occupancy.
fn position_queries() -> Vec<(usize, u128)> {
    chariot::data::bench_fens()
        .iter()
        .flat_map(|fen| {
            let occ = support::position(fen).occupied();
            occ.into_iter().map(move |sq| (sq.index(), occ.bits()))
        })
        .collect()
}

/// Every variant must give the crate's answer on every query before any timing.
fn check_variants(rays: &Rays, queries: &[(usize, u128)]) {
    for &(sq, occ) in queries {
        let (rook, cannon) = (crate_rook(sq, occ), crate_cannon(sq, occ));
        assert_eq!(
            rook,
            walk(sq, occ, false),
            "crate rook, square {sq}, occ {occ:#x}"
        );
        assert_eq!(
            cannon,
            walk(sq, occ, true),
            "crate cannon, square {sq}, occ {occ:#x}"
        );
        assert_eq!(
            rays.rook(sq, occ),
            rook,
            "ray-scan rook, square {sq}, occ {occ:#x}"
        );
        assert_eq!(
            rays.cannon(sq, occ),
            cannon,
            "ray-scan cannon, square {sq}, occ {occ:#x}"
        );
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(pext) = pext_variant() {
        for &(sq, occ) in queries {
            // SAFETY: `pext_variant` returned Some only because this CPU has BMI2.
            let (rook, cannon) = unsafe { (pext.rook(sq, occ), pext.cannon(sq, occ)) };
            assert_eq!(
                rook,
                crate_rook(sq, occ),
                "pext rook, square {sq}, occ {occ:#x}"
            );
            assert_eq!(
                cannon,
                crate_cannon(sq, occ),
                "pext cannon, square {sq}, occ {occ:#x}"
            );
        }
    }
}

fn sliders(c: &mut Criterion) {
    let rays = Rays::new();
    let random = random_queries(4096, 0x5EED);
    let positions = position_queries();
    check_variants(&rays, &random_queries(200_000, 7));
    check_variants(&rays, &random);
    check_variants(&rays, &positions);

    #[cfg(target_arch = "x86_64")]
    let pext = pext_variant();
    #[cfg(target_arch = "x86_64")]
    match &pext {
        Some(p) => eprintln!("pext tables: {} entries per piece kind", p.table_entries()),
        None => eprintln!("this CPU has no BMI2: the pext variant is skipped"),
    }

    for (set, queries) in [("random", &random), ("positions", &positions)] {
        for piece in ["rook", "cannon"] {
            let is_rook = piece == "rook";
            let mut group = c.benchmark_group(format!("{piece}/{set}"));
            group.throughput(Throughput::Elements(queries.len() as u64));
            let fold = |f: &dyn Fn(usize, u128) -> u128| -> u128 {
                black_box(queries)
                    .iter()
                    .fold(0, |acc, &(sq, occ)| acc ^ f(sq, occ))
            };
            let expected = if is_rook {
                fold(&crate_rook)
            } else {
                fold(&crate_cannon)
            };
            group.bench_function("rank_file_lookup", |b| {
                b.iter(|| {
                    let q = black_box(queries.as_slice());
                    let r = if is_rook {
                        q.iter()
                            .fold(0, |acc, &(sq, occ)| acc ^ crate_rook(sq, occ))
                    } else {
                        q.iter()
                            .fold(0, |acc, &(sq, occ)| acc ^ crate_cannon(sq, occ))
                    };
                    assert_eq!(r, expected);
                    r
                })
            });
            group.bench_function("ray_scan", |b| {
                b.iter(|| {
                    let q = black_box(queries.as_slice());
                    let r = if is_rook {
                        q.iter().fold(0, |acc, &(sq, occ)| acc ^ rays.rook(sq, occ))
                    } else {
                        q.iter()
                            .fold(0, |acc, &(sq, occ)| acc ^ rays.cannon(sq, occ))
                    };
                    assert_eq!(r, expected);
                    r
                })
            });
            #[cfg(target_arch = "x86_64")]
            if let Some(p) = &pext {
                group.bench_function("pext", |b| {
                    b.iter(|| {
                        let q = black_box(queries.as_slice());
                        // SAFETY: `pext` is Some only because this CPU has BMI2.
                        let r = unsafe {
                            if is_rook {
                                p.fold_rook(q)
                            } else {
                                p.fold_cannon(q)
                            }
                        };
                        assert_eq!(r, expected);
                        r
                    })
                });
            }
            group.finish();
        }
    }
}

criterion_group!(benches, sliders);
criterion_main!(benches);
