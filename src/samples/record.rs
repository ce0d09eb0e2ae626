//! The binary training record: one position in a fixed 40 bytes, with its search score and
//! game result. Files are plain concatenations of records (no header), so shards written by
//! separate processes concatenate (`cat a.bin b.bin`) into one valid file.
//!
//! Layout, little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 0..16 | occupancy: bit `i` set when square `i` holds a piece |
//! | 16..32 | the pieces of the occupied squares in square order, a nibble each (low nibble first): `Piece::index`, 0..14 |
//! | 32..34 | search score for Red, centipawns (`i16`) |
//! | 34 | game result for Red: 0 loss, 1 draw, 2 win |
//! | 35 | side to move: 0 Red, 1 Black |
//! | 36 | plies since the last capture |
//! | 37 | reserved, 0 |
//! | 38..40 | full-move number (`u16`) |

use crate::board::types::{Color, Piece, PieceType, Square};
use crate::Position;

/// Bytes in one record.
pub const RECORD_BYTES: usize = 40;

/// A position as stored: 32 bytes of board and the training targets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Record {
    pub occupancy: u128,
    pub pieces: [u8; 16],
    /// Search score for Red, centipawns.
    pub score: i16,
    /// Game result for Red in halves: 0 loss, 1 draw, 2 win.
    pub result: u8,
    pub side: Color,
    pub rule60: u8,
    pub fullmove: u16,
}

impl Record {
    /// Packs `pos` with its score and result (both for Red). Fails only on a position with
    /// more than 32 pieces, which a legal FEN cannot set up.
    pub fn new(pos: &Position, score: i32, result: u8) -> Result<Record, String> {
        if result > 2 {
            return Err(format!("result {result} is not 0, 1 or 2"));
        }
        let mut occupancy = 0u128;
        let mut pieces = [0u8; 16];
        let mut n = 0;
        for sq in Square::all() {
            if let Some(piece) = pos.piece_at(sq) {
                if n == 32 {
                    return Err("more than 32 pieces".into());
                }
                occupancy |= 1u128 << sq.index();
                pieces[n / 2] |= (piece.index() as u8) << (4 * (n % 2));
                n += 1;
            }
        }
        Ok(Record {
            occupancy,
            pieces,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            result,
            side: pos.side_to_move(),
            rule60: pos.rule60_count().min(255) as u8,
            fullmove: pos.fullmove_number(),
        })
    }

    /// The pieces on the board with their squares, in square order.
    #[inline]
    pub fn pieces(&self) -> impl Iterator<Item = (Piece, Square)> + '_ {
        let mut occupancy = self.occupancy;
        let mut n = 0;
        std::iter::from_fn(move || {
            if occupancy == 0 {
                return None;
            }
            let sq = occupancy.trailing_zeros() as usize;
            occupancy &= occupancy - 1;
            let nibble = (self.pieces[n / 2] >> (4 * (n % 2))) & 15;
            n += 1;
            let index = (nibble as usize).min(Piece::COUNT - 1);
            let color = if index < 7 { Color::Red } else { Color::Black };
            Some((
                Piece::new(color, PieceType::ALL[index % 7]),
                Square::new(sq.min(89)),
            ))
        })
    }

    /// The game result for Red as a score: 0, 0.5 or 1.
    pub fn result_for_red(&self) -> f32 {
        self.result as f32 / 2.0
    }

    /// The stored position, checked as a FEN is (kings, piece counts, squares, the side not to
    /// move not in check).
    pub fn position(&self) -> Result<Position, String> {
        Position::from_fen(&self.fen()).map_err(|e| format!("bad record: {e}"))
    }

    /// The stored position as a FEN.
    pub fn fen(&self) -> String {
        let mut board = [None; 90];
        for (piece, sq) in self.pieces() {
            board[sq.index()] = Some(piece);
        }
        let mut fen = String::with_capacity(90);
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match board[rank * 9 + file] {
                    Some(piece) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        format!("{fen} {side} - - {} {}", self.rule60, self.fullmove)
    }

    /// The 40 bytes of the record.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        out[0..16].copy_from_slice(&self.occupancy.to_le_bytes());
        out[16..32].copy_from_slice(&self.pieces);
        out[32..34].copy_from_slice(&self.score.to_le_bytes());
        out[34] = self.result;
        out[35] = self.side as u8;
        out[36] = self.rule60;
        out[38..40].copy_from_slice(&self.fullmove.to_le_bytes());
        out
    }

    /// Reads a record, checking what the bytes alone can tell: squares on the board, at most
    /// 32 pieces, piece codes, result and side in range.
    pub fn from_bytes(bytes: &[u8; RECORD_BYTES]) -> Result<Record, String> {
        let occupancy = u128::from_le_bytes(bytes[0..16].try_into().expect("16 bytes"));
        if occupancy >> 90 != 0 {
            return Err("occupancy has bits past square 89".into());
        }
        let count = occupancy.count_ones() as usize;
        if count > 32 {
            return Err(format!("{count} pieces (at most 32)"));
        }
        let mut pieces = [0u8; 16];
        pieces.copy_from_slice(&bytes[16..32]);
        for n in 0..count {
            if (pieces[n / 2] >> (4 * (n % 2))) & 15 >= Piece::COUNT as u8 {
                return Err("a piece code past 13".into());
            }
        }
        let result = bytes[34];
        if result > 2 {
            return Err(format!("result {result} is not 0, 1 or 2"));
        }
        let side = match bytes[35] {
            0 => Color::Red,
            1 => Color::Black,
            other => return Err(format!("side to move {other} is not 0 or 1")),
        };
        Ok(Record {
            occupancy,
            pieces,
            score: i16::from_le_bytes([bytes[32], bytes[33]]),
            result,
            side,
            rule60: bytes[36],
            fullmove: u16::from_le_bytes([bytes[38], bytes[39]]),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;

    #[test]
    fn a_record_written_and_read_back_is_the_same_position() {
        let mut rng = fastrand::Rng::with_seed(7);
        for game in 0..40 {
            let mut pos = Position::startpos();
            for ply in 0..120 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let score = rng.i32(-3000..3000);
                let result = (game + ply) as u8 % 3;
                let record = Record::new(&pos, score, result).unwrap();
                let back = Record::from_bytes(&record.to_bytes()).unwrap();
                assert_eq!(back, record);
                let restored = back.position().unwrap();
                assert_eq!(restored.to_fen(), pos.to_fen());
                assert_eq!(restored.hash(), pos.hash());
                assert_eq!((back.score as i32, back.result), (score, result));
                pos.make_move(moves.as_slice()[rng.usize(..moves.len())]);
            }
        }
    }

    #[test]
    fn bad_bytes_are_refused() {
        let good = Record::new(&Position::startpos(), 12, 1)
            .unwrap()
            .to_bytes();
        let mut bad = good;
        bad[11] = 0xff; // bits past square 89
        assert!(Record::from_bytes(&bad).is_err());
        let mut bad = good;
        bad[34] = 3;
        assert!(Record::from_bytes(&bad).is_err());
        let mut bad = good;
        bad[35] = 2;
        assert!(Record::from_bytes(&bad).is_err());
        let mut bad = good;
        bad[16] = 0xef; // piece code 15
        assert!(Record::from_bytes(&bad).is_err());
    }
}
