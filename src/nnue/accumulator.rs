//! The first layer's output for both perspectives computed from a set of pieces, and the
//! output layer over it. The search keeps its accumulators incrementally (`stack.rs`); this is
//! the plain computation it is checked against, and what one-off evaluations use.

use super::features::View;
use super::network::{Network, Row};
use super::{bucket, QA, QB, SCALE, SCORE_LIMIT};
use crate::board::types::{Color, Piece, PieceType, Square};
use crate::Position;

/// The hidden layer before activation, from Red's and from Black's point of view.
#[derive(Clone, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulators {
    pub(super) halves: [Row; 2],
}

impl std::fmt::Debug for Row {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Row({:?}...)", &self.0[..4])
    }
}

impl Accumulators {
    /// Computed from scratch.
    pub fn new(net: &Network, pos: &Position) -> Accumulators {
        Accumulators::from_pieces(
            net,
            Square::all().filter_map(|sq| pos.piece_at(sq).map(|p| (p, sq))),
        )
    }

    /// Computed from scratch for these pieces (any set, legal or not: the eval report's
    /// positions with a piece taken off). A side without its general is seen as if the general
    /// stood on its starting square.
    pub fn from_pieces(
        net: &Network,
        pieces: impl Iterator<Item = (Piece, Square)>,
    ) -> Accumulators {
        let pieces: Vec<(Piece, Square)> = pieces.collect();
        let halves = Color::BOTH.map(|perspective| {
            let king = pieces
                .iter()
                .find(|(p, _)| *p == Piece::new(perspective, PieceType::King))
                .map_or(start_square(perspective), |&(_, sq)| sq);
            let view = View::new(perspective, king);
            let mut half = net.ft_bias;
            for &(piece, sq) in &pieces {
                add_row(&mut half, &net.ft_weights[view.feature(piece, sq)]);
            }
            half
        });
        Accumulators { halves }
    }

    /// The network's score in centipawns for `side` to move with `pieces` on the board.
    #[inline]
    pub fn evaluate(&self, net: &Network, side: Color, pieces: u32) -> i32 {
        evaluate_halves(net, &self.halves, side, pieces)
    }

    /// The same score through the plain loop only (tests hold the two equal).
    pub fn evaluate_scalar(&self, net: &Network, side: Color, pieces: u32) -> i32 {
        let b = bucket(pieces);
        let [ours, theirs] = &net.out_weights[b];
        let sum = dot_scalar(&self.halves[side.index()], ours)
            + dot_scalar(&self.halves[(!side).index()], theirs);
        output(sum, net.out_bias[b])
    }

    /// Red's half and Black's.
    pub fn halves(&self) -> &[Row; 2] {
        &self.halves
    }

    /// The hidden value `i` of `perspective`'s half (tests, the eval report).
    pub fn value(&self, perspective: Color, i: usize) -> i16 {
        self.halves[perspective.index()].0[i]
    }
}

/// Where `color`'s general starts (e0 or e9).
fn start_square(color: Color) -> Square {
    match color {
        Color::Red => Square::from_coords(4, 0).expect("e0"),
        Color::Black => Square::from_coords(4, 9).expect("e9"),
    }
}

/// The score of two halves (Red's, Black's) for `side` to move with `pieces` on the board.
#[inline(always)]
pub(super) fn evaluate_halves(net: &Network, halves: &[Row; 2], side: Color, pieces: u32) -> i32 {
    let b = bucket(pieces);
    let [ours, theirs] = &net.out_weights[b];
    let sum = dot(&halves[side.index()], ours) + dot(&halves[(!side).index()], theirs);
    output(sum, net.out_bias[b])
}

#[inline(always)]
pub(super) fn add_row(half: &mut Row, column: &Row) {
    for (h, w) in half.0.iter_mut().zip(column.0) {
        *h = h.wrapping_add(w);
    }
}

#[inline(always)]
pub(super) fn sub_row(half: &mut Row, column: &Row) {
    for (h, w) in half.0.iter_mut().zip(column.0) {
        *h = h.wrapping_sub(w);
    }
}

/// Centipawns from the two halves' dot products and the bucket's bias: the dot is in units of
/// `QA² / 256 × QB`, the bias of `QB`. Kept within [`SCORE_LIMIT`].
#[inline(always)]
fn output(dot: i32, bias: i32) -> i32 {
    let units = dot as i64 * 256 / (QA * QA) as i64 + bias as i64;
    (units * SCALE as i64 / QB as i64).clamp(-SCORE_LIMIT as i64, SCORE_LIMIT as i64) as i32
}

/// The squared clipped activation of one accumulator value, in `QA² / 256` units, rounded.
#[inline(always)]
fn activation(a: i16) -> i32 {
    let v = a.clamp(0, QA as i16) as i32;
    (v * v + 128) >> 8
}

/// Σ activation(a) × w over a half.
#[inline(always)]
fn dot(acc: &Row, weights: &Row) -> i32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        dot_avx2(acc, weights)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        dot_scalar(acc, weights)
    }
}

fn dot_scalar(acc: &Row, weights: &Row) -> i32 {
    acc.0
        .iter()
        .zip(&weights.0)
        .map(|(&a, &w)| activation(a) * w as i32)
        .sum()
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
fn dot_avx2(acc: &Row, weights: &Row) -> i32 {
    use super::HIDDEN;
    use std::arch::x86_64::*;
    const LANES: usize = 16;
    const _: () = assert!(HIDDEN % LANES == 0);
    // SAFETY: this build targets AVX2 (the cfg above), and every load reads 32 bytes at
    // `i < HIDDEN` in steps of 16 i16 from a 64-byte-aligned `Row` of HIDDEN i16, so each load
    // is in bounds and 32-byte aligned.
    unsafe {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let half = _mm256_set1_epi16(128);
        let mut sum = _mm256_setzero_si256();
        for i in (0..HIDDEN).step_by(LANES) {
            let a = _mm256_load_si256(acc.0.as_ptr().add(i).cast());
            let w = _mm256_load_si256(weights.0.as_ptr().add(i).cast());
            let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            // v² ≤ 65,025 and + 128 still fits 16 unsigned bits; the logical shift reads them so.
            let squared = _mm256_srli_epi16::<8>(_mm256_add_epi16(_mm256_mullo_epi16(v, v), half));
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(squared, w));
        }
        let halves = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let pairs = _mm_add_epi32(halves, _mm_shuffle_epi32::<0b01_00_11_10>(halves));
        let one = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b10_11_00_01>(pairs));
        _mm_cvtsi128_si32(one)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;

    #[test]
    fn the_simd_output_equals_the_plain_one_along_games() {
        let net = Network::random(11);
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..10 {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves.as_slice()[rng.usize(..moves.len())]);
                let acc = Accumulators::new(&net, &pos);
                let pieces = pos.occupied().count();
                let side = pos.side_to_move();
                assert_eq!(
                    acc.evaluate(&net, side, pieces),
                    acc.evaluate_scalar(&net, side, pieces)
                );
            }
        }
    }

    #[test]
    fn the_simd_dot_equals_the_plain_one_at_the_extremes() {
        let mut rng = fastrand::Rng::with_seed(9);
        for _ in 0..200 {
            let acc = Row(std::array::from_fn(|_| rng.i16(-600..=600)));
            let w = Row(std::array::from_fn(|_| rng.i16(-4096..=4096)));
            assert_eq!(dot(&acc, &w), dot_scalar(&acc, &w));
        }
    }

    #[test]
    fn colour_flipped_and_mirrored_positions_score_the_same() {
        let net = Network::random(12);
        let mut rng = fastrand::Rng::with_seed(6);
        let mut pos = Position::startpos();
        for _ in 0..300 {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                pos = Position::startpos();
                continue;
            }
            pos.make_move(moves.as_slice()[rng.usize(..moves.len())]);
            let score = |p: &Position| {
                Accumulators::new(&net, p).evaluate(&net, p.side_to_move(), p.occupied().count())
            };
            assert_eq!(score(&pos), score(&pos.color_flipped()), "{}", pos.to_fen());
            // With general buckets the board is mirrored by the general's file, so a position
            // and its mirror image read the same inputs unless a general stands on the e file
            // (its own view is then not mirrored, and the two boards differ to it).
            let kings_off_centre = Color::BOTH.iter().all(|&c| pos.king_square(c).file() != 4);
            if super::super::KING_BUCKETS > 1 && kings_off_centre {
                assert_eq!(score(&pos), score(&pos.mirrored()), "{}", pos.to_fen());
            }
        }
    }
}
