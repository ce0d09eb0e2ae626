//! The small value types everything else is built from: colours, pieces, squares and moves.

use crate::board::geometry::{FILES, SQUARES, SQUARE_FILE, SQUARE_RANK};
use std::fmt;
use std::num::{NonZeroU16, NonZeroU8};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    King = 0,
    Advisor = 1,
    Elephant = 2,
    Horse = 3,
    Rook = 4,
    Cannon = 5,
    Pawn = 6,
}

impl PieceType {
    pub const ALL: [PieceType; 7] = [
        PieceType::King,
        PieceType::Advisor,
        PieceType::Elephant,
        PieceType::Horse,
        PieceType::Rook,
        PieceType::Cannon,
        PieceType::Pawn,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The most pieces of this kind one colour may have: what a FEN may set up (moves only
    /// take pieces away), so the evaluation may rely on it too.
    pub const fn most_per_side(self) -> u32 {
        match self {
            PieceType::King => 1,
            PieceType::Pawn => 5,
            _ => 2,
        }
    }

    /// FEN letter for Red (upper case); `H` and `E` are read as aliases of `N` and `B`.
    pub const fn letter(self) -> char {
        match self {
            PieceType::King => 'K',
            PieceType::Advisor => 'A',
            PieceType::Elephant => 'B',
            PieceType::Horse => 'N',
            PieceType::Rook => 'R',
            PieceType::Cannon => 'C',
            PieceType::Pawn => 'P',
        }
    }

    pub fn from_letter(c: char) -> Option<PieceType> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceType::King,
            'A' => PieceType::Advisor,
            'B' | 'E' => PieceType::Elephant,
            'N' | 'H' => PieceType::Horse,
            'R' => PieceType::Rook,
            'C' => PieceType::Cannon,
            'P' => PieceType::Pawn,
            _ => return None,
        })
    }
}

/// A coloured piece; index = colour * 7 + type, so per-piece tables have 14 rows. Held one
/// above its index, so it is never zero and `Option<Piece>` is one byte: a board square is read
/// with one load (a tag byte and a piece byte otherwise) and set with one store.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(NonZeroU8);

static_assertions::assert_eq_size!(Piece, Option<Piece>, u8);

impl Piece {
    pub const COUNT: usize = 14;

    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        match NonZeroU8::new(color as u8 * 7 + kind as u8 + 1) {
            Some(v) => Piece(v),
            None => unreachable!(),
        }
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0.get() <= 7 {
            Color::Red
        } else {
            Color::Black
        }
    }

    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        // A table read instead of `% 7`, by the held value (one above the index); masking to
        // 16 entries needs no bounds check.
        const KIND: [PieceType; 16] = {
            let mut table = [PieceType::King; 16];
            let mut i = 0;
            while i < Piece::COUNT {
                table[i + 1] = PieceType::ALL[i % 7];
                i += 1;
            }
            table
        };
        KIND[self.0.get() as usize & 15]
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        // SAFETY: `Piece::new` is the only constructor, and colour * 7 + kind + 1 is at most 14.
        // Told to the compiler, per-piece tables are read without bounds checks.
        unsafe { std::hint::assert_unchecked(self.0.get() <= Piece::COUNT as u8) };
        // In usize, so the one off folds into a table's address.
        self.0.get() as usize - 1
    }

    /// The piece as held, one above its index (1 to 14): per-piece tables with a spare first
    /// row are read by it with no one to take off.
    #[inline(always)]
    pub const fn held_index(self) -> usize {
        // SAFETY: as in `index`: the held value is at most 14.
        unsafe { std::hint::assert_unchecked(self.0.get() <= Piece::COUNT as u8) };
        self.0.get() as usize
    }

    /// What a square holding `content` is numbered by in per-content tables: 0 when empty,
    /// else the piece's index + 1 (the byte the square holds: no branch on it).
    #[inline(always)]
    pub const fn content_index(content: Option<Piece>) -> usize {
        match content {
            Some(piece) => piece.held_index(),
            None => 0,
        }
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    pub fn from_letter(c: char) -> Option<Piece> {
        let kind = PieceType::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }
}

impl fmt::Debug for Piece {
    /// As the index, as when the piece held its index.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.debug_tuple("Piece").field(&(self.index() as u8)).finish()
    }
}

/// A square a0..i9, numbered rank * 9 + file (a0 = 0, i9 = 89).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// # Panics
    /// If `index >= 90`.
    #[inline(always)]
    pub const fn new(index: usize) -> Square {
        assert!(index < SQUARES, "square index out of range");
        Square(index as u8)
    }

    /// # Safety
    /// `index` must be below 90.
    #[inline(always)]
    pub const unsafe fn new_unchecked(index: usize) -> Square {
        Square(index as u8)
    }

    pub const fn from_coords(file: usize, rank: usize) -> Option<Square> {
        if file < FILES && rank < 10 {
            Some(Square((rank * FILES + file) as u8))
        } else {
            None
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        // SAFETY: every square is below 90: the constructors check it (`new_unchecked` makes
        // its caller promise it), and a move holds only squares it was made from. Told to the
        // compiler, per-square tables are read without bounds checks.
        unsafe { std::hint::assert_unchecked(self.0 < SQUARES as u8) };
        self.0 as usize
    }

    /// From a table: the search asks this often enough that the division by 9 shows.
    #[inline(always)]
    pub const fn file(self) -> usize {
        SQUARE_FILE[self.index()] as usize
    }

    #[inline(always)]
    pub const fn rank(self) -> usize {
        SQUARE_RANK[self.index()] as usize
    }

    /// The same square seen from the other side of the board (rank r -> 9 - r).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square(((9 - self.rank()) * FILES + self.file()) as u8)
    }

    /// The left-right mirror (file f -> 8 - f).
    #[inline(always)]
    pub const fn mirror_file(self) -> Square {
        Square((self.rank() * FILES + 8 - self.file()) as u8)
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file() as u8) as char, self.rank())
    }
}

/// A move from one square to another in 16 bits; never zero, so `Option<Move>` is 2 bytes.
/// `to` in the low seven bits, `from` above and the top bit set: the butterfly history, indexed
/// by these bits, keeps one square's moves side by side (a piece's quiets share cache lines).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

static_assertions::assert_eq_size!(Move, Option<Move>, u16);

impl Move {
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        let raw = to.0 as u16 | (from.0 as u16) << 7 | 1 << 15;
        match NonZeroU16::new(raw) {
            Some(v) => Move(v),
            None => unreachable!(),
        }
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square(((self.0.get() >> 7) & 0x7F) as u8)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0.get() & 0x7F) as u8)
    }

    /// Raw 16-bit form, for compact storage (transposition table entries).
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0.get()
    }

    /// The inverse of [`Move::raw`]; `None` for values no move produces.
    pub fn from_raw(raw: u16) -> Option<Move> {
        let to = (raw & 0x7F) as usize;
        let from = ((raw >> 7) & 0x7F) as usize;
        (raw >> 15 == 1 && from < SQUARES && to < SQUARES)
            .then(|| Move::new(Square::new(from), Square::new(to)))
    }
}

impl fmt::Display for Move {
    /// ICCS coordinates with ranks 0-9, e.g. `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}
