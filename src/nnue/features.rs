//! The network's inputs: which input a piece on a square is, seen from one side.
//!
//! A side sees the board turned so that it plays up (Black's ranks flipped), its own pieces
//! before the opponent's, and, with general buckets, from where its own general stands: the
//! board is mirrored left-right when the general is on the right-hand file of the palace, so the
//! general is always on the d or e file, and each of those six palace squares has its own set of
//! inputs (Pikafish's HalfKAv2_hm, without the reachable-square compression). A general's move
//! from one bucket to another changes every input of its side's view: the only refresh.

use super::architecture::{KING_BUCKETS, PIECE_SQUARES};
use crate::board::types::{Color, Piece, Square};

/// Distinct views a side can have: a bucket and whether the board is mirrored.
pub const VIEWS: usize = if KING_BUCKETS == 1 { 1 } else { 9 };

const _: () = assert!(KING_BUCKETS == 1 || KING_BUCKETS == 6);

/// How one side sees the board: from which bucket, and whether mirrored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    perspective: Color,
    /// First input of the general's bucket.
    offset: u16,
    mirror: bool,
    /// Which of the [`VIEWS`] this is (the refresh cache's slot).
    slot: u8,
}

impl View {
    /// `perspective`'s view with its general on `king`.
    #[inline(always)]
    pub fn new(perspective: Color, king: Square) -> View {
        if KING_BUCKETS == 1 {
            return View {
                perspective,
                offset: 0,
                mirror: false,
                slot: 0,
            };
        }
        let own = match perspective {
            Color::Red => king,
            Color::Black => king.flip_rank(),
        };
        // The general stays in its palace: files d-f (3-5), ranks 0-2 from its side. Clamped so
        // that a set of pieces no game reaches (a hand-made eval report) still has a view.
        let file = own.file().clamp(3, 5);
        let rank = own.rank().min(2);
        let mirror = file == 5;
        let bucket = rank * 2 + if mirror { 0 } else { file - 3 };
        View {
            perspective,
            offset: (bucket * PIECE_SQUARES) as u16,
            mirror,
            slot: (rank * 3 + file - 3) as u8,
        }
    }

    /// The input of `piece` on `sq`.
    #[inline(always)]
    pub fn feature(self, piece: Piece, sq: Square) -> usize {
        let theirs = (piece.color() != self.perspective) as usize;
        let turned = match self.perspective {
            Color::Red => sq,
            Color::Black => sq.flip_rank(),
        };
        let seen = if self.mirror {
            turned.mirror_file()
        } else {
            turned
        };
        self.offset as usize + (theirs * 7 + piece.kind().index()) * 90 + seen.index()
    }

    pub fn perspective(self) -> Color {
        self.perspective
    }

    /// The refresh cache's slot of this view, below [`VIEWS`].
    #[inline(always)]
    pub fn slot(self) -> usize {
        self.slot as usize
    }
}

#[cfg(test)]
mod tests {
    use super::super::architecture::FEATURES;
    use super::*;
    use crate::board::types::PieceType;

    fn palace(color: Color) -> impl Iterator<Item = Square> {
        let ranks = match color {
            Color::Red => 0..3,
            Color::Black => 7..10,
        };
        ranks.flat_map(|r| (3..6).map(move |f| Square::from_coords(f, r).unwrap()))
    }

    #[test]
    fn each_view_numbers_the_pieces_once_within_its_bucket() {
        for color in Color::BOTH {
            for king in palace(color) {
                let view = View::new(color, king);
                let mut seen = vec![0; FEATURES];
                for side in Color::BOTH {
                    for kind in PieceType::ALL {
                        for sq in Square::all() {
                            seen[view.feature(Piece::new(side, kind), sq)] += 1;
                        }
                    }
                }
                let used = seen.iter().filter(|&&n| n == 1).count();
                assert_eq!(used, PIECE_SQUARES);
                assert!(seen.iter().all(|&n| n <= 1));
                assert!(view.slot() < VIEWS);
            }
        }
    }

    #[test]
    fn colour_flip_and_mirror_give_the_same_inputs() {
        for king in palace(Color::Red) {
            for kind in PieceType::ALL {
                for sq in Square::all() {
                    let piece = Piece::new(Color::Red, kind);
                    let red = View::new(Color::Red, king);
                    // Black seeing the colour-flipped board sees what Red sees.
                    let black = View::new(Color::Black, king.flip_rank());
                    assert_eq!(
                        black.feature(Piece::new(Color::Black, kind), sq.flip_rank()),
                        red.feature(piece, sq)
                    );
                    if KING_BUCKETS > 1 {
                        // The mirrored board, general included, sees the same inputs.
                        let mirrored = View::new(Color::Red, king.mirror_file());
                        if king.file() != 4 {
                            assert_eq!(
                                mirrored.feature(piece, sq.mirror_file()),
                                red.feature(piece, sq)
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_nine_palace_squares_have_nine_views_in_six_buckets() {
        let views: Vec<View> = palace(Color::Red)
            .map(|k| View::new(Color::Red, k))
            .collect();
        let slots: std::collections::HashSet<usize> = views.iter().map(|v| v.slot()).collect();
        let buckets: std::collections::HashSet<u16> = views.iter().map(|v| v.offset).collect();
        assert_eq!(slots.len(), VIEWS);
        assert_eq!(buckets.len(), KING_BUCKETS);
    }
}
