//! Opening books: positions, found by their Zobrist key, with the moves played from them in a
//! set of games and a weight from how those games ended. `chariot book build` makes one from
//! PGN ([`build`]); the protocols' `OwnBook`/`BookFile` (UCI) and `usebook`/`bookfiles` (UCCI)
//! play from it.
//!
//! The file, all numbers little-endian (Polyglot's 16-byte entry, with Chariot's keys and moves):
//!
//! | bytes    | field                                                                   |
//! |----------|-------------------------------------------------------------------------|
//! | 0..8     | magic `CHRTBOOK`                                                        |
//! | 8..12    | format version, 1                                                       |
//! | 12..16   | number of entries N                                                     |
//! | 16..24   | the start position's key, so a book made with other keys is refused      |
//! | 24..32   | FNV-1a 64 checksum of the N entries' bytes                              |
//! | 32..     | N entries, sorted by key then move                                      |
//!
//! An entry: key `u64` (`Position::hash`), move `u16` (`Move::raw`), weight `u16` (relative
//! within its position; 0 is never played), games `u32` (how many games played the move).

#[cfg(feature = "tools")]
pub mod build;

use crate::board::movegen::legal_moves;
use crate::board::position::Position;
use crate::board::types::Move;
use std::path::Path;

pub const MAGIC: &[u8; 8] = b"CHRTBOOK";
pub const VERSION: u32 = 1;
pub const HEADER_BYTES: usize = 32;
pub const ENTRY_BYTES: usize = 16;

/// The `BookFile` value that names no book (the UCI convention for an empty string).
pub const NO_BOOK: &str = "<empty>";

/// One move of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    pub mv: Move,
    pub weight: u16,
    pub games: u32,
}

/// A book in memory: its entries sorted by key, then move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

/// FNV-1a, 64 bits: enough to tell a damaged file from a sound one, and no dependency.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(bytes[at..at + 2].try_into().expect("two bytes"))
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"))
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"))
}

impl Book {
    /// A book of these entries (in any order; a key and move should appear once).
    pub fn from_entries(mut entries: Vec<Entry>) -> Book {
        entries.sort_by_key(|e| (e.key, e.mv.raw()));
        Book { entries }
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// How many positions have at least one move.
    pub fn positions(&self) -> usize {
        self.entries.chunk_by(|a, b| a.key == b.key).count()
    }

    /// The file's bytes (see the module's table).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.entries.len() * ENTRY_BYTES);
        for e in &self.entries {
            body.extend_from_slice(&e.key.to_le_bytes());
            body.extend_from_slice(&e.mv.raw().to_le_bytes());
            body.extend_from_slice(&e.weight.to_le_bytes());
            body.extend_from_slice(&e.games.to_le_bytes());
        }
        let count = u32::try_from(self.entries.len()).expect("fewer than 2^32 entries");
        let mut bytes = Vec::with_capacity(HEADER_BYTES + body.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&count.to_le_bytes());
        bytes.extend_from_slice(&Position::startpos().hash().to_le_bytes());
        bytes.extend_from_slice(&fnv1a(&body).to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes
    }

    /// Reads a book's bytes, checking everything the format promises.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err("not a Chariot book (no CHRTBOOK header)".into());
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(format!(
                "book format version {version}; this Chariot reads version {VERSION}"
            ));
        }
        let count = u32_at(bytes, 12) as usize;
        let expected = HEADER_BYTES as u64 + count as u64 * ENTRY_BYTES as u64;
        if bytes.len() as u64 != expected {
            return Err(format!(
                "{} bytes where the header promises {expected} ({count} entries): the file is cut short or damaged",
                bytes.len()
            ));
        }
        if u64_at(bytes, 16) != Position::startpos().hash() {
            return Err("made with other Zobrist keys (another Chariot build)".into());
        }
        let body = &bytes[HEADER_BYTES..];
        if fnv1a(body) != u64_at(bytes, 24) {
            return Err("checksum mismatch: the file is damaged".into());
        }
        let mut entries = Vec::with_capacity(count);
        for (i, chunk) in body.chunks_exact(ENTRY_BYTES).enumerate() {
            let raw = u16_at(chunk, 8);
            let mv = Move::from_raw(raw)
                .ok_or_else(|| format!("entry {i}: {raw:#06x} is not a move"))?;
            let entry = Entry {
                key: u64_at(chunk, 0),
                mv,
                weight: u16_at(chunk, 10),
                games: u32_at(chunk, 12),
            };
            if let Some(last) = entries.last() {
                let last: &Entry = last;
                if (last.key, last.mv.raw()) >= (entry.key, raw) {
                    return Err(format!("entry {i} is out of order"));
                }
            }
            entries.push(entry);
        }
        Ok(Book { entries })
    }

    /// Loads the book at `path`; the error says what is wrong with it.
    pub fn load(path: impl AsRef<Path>) -> Result<Book, String> {
        let bytes = std::fs::read(path.as_ref()).map_err(|e| e.to_string())?;
        Book::from_bytes(&bytes)
    }

    /// The entries stored under `key`, whether or not their moves are legal anywhere.
    pub fn entries_for(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The book moves of `pos` that are legal there (a key shared by another position, or a
    /// damaged entry, can name any move), highest weight first.
    pub fn moves(&self, pos: &Position) -> Vec<Entry> {
        let legal = legal_moves(pos);
        let mut found: Vec<Entry> = self
            .entries_for(pos.hash())
            .iter()
            .filter(|e| legal.contains(e.mv))
            .copied()
            .collect();
        found.sort_by_key(|e| std::cmp::Reverse(e.weight));
        found
    }

    /// A book move for `pos`, drawn with probability in proportion to its weight, leaving out
    /// the moves in `banned`; `None` when the book has no playable move here.
    pub fn choose(
        &self,
        pos: &Position,
        banned: &[Move],
        rng: &mut fastrand::Rng,
    ) -> Option<Entry> {
        let candidates: Vec<Entry> = self
            .moves(pos)
            .into_iter()
            .filter(|e| e.weight > 0 && !banned.contains(&e.mv))
            .collect();
        let total: u32 = candidates.iter().map(|e| u32::from(e.weight)).sum();
        if total == 0 {
            return None;
        }
        let mut pick = rng.u32(0..total);
        for entry in candidates {
            let weight = u32::from(entry.weight);
            if pick < weight {
                return Some(entry);
            }
            pick -= weight;
        }
        unreachable!("the draw lies below the total weight")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::{parse_move, RankBase};

    fn mv(pos: &Position, text: &str) -> Move {
        parse_move(pos, text, RankBase::Zero).unwrap()
    }

    /// The start position with h2e2 (weight 3), b2e2 (weight 1), c3c4 (weight 0), and an
    /// entry whose move is not legal there (as a colliding key would bring).
    fn small_book() -> Book {
        let pos = Position::startpos();
        let key = pos.hash();
        let entry = |text: &str, weight, games| Entry {
            key,
            mv: mv(&pos, text),
            weight,
            games,
        };
        let illegal = Entry {
            key,
            mv: Move::new(crate::Square::new(0), crate::Square::new(89)),
            weight: 50,
            games: 9,
        };
        Book::from_entries(vec![
            entry("b2e2", 1, 2),
            entry("h2e2", 3, 4),
            entry("c3c4", 0, 1),
            illegal,
            Entry {
                key: key ^ 1,
                mv: mv(&pos, "h0g2"),
                weight: 7,
                games: 7,
            },
        ])
    }

    #[test]
    fn bytes_round_trip_and_entries_are_found_by_key() {
        let book = small_book();
        let bytes = book.to_bytes();
        assert_eq!(bytes.len(), HEADER_BYTES + 5 * ENTRY_BYTES);
        let back = Book::from_bytes(&bytes).unwrap();
        assert_eq!(back, book);
        assert_eq!(back.positions(), 2);
        let pos = Position::startpos();
        assert_eq!(back.entries_for(pos.hash()).len(), 4);
        assert_eq!(back.entries_for(pos.hash() ^ 1).len(), 1);
        assert!(back.entries_for(12345).is_empty());
        let legal: Vec<String> = back.moves(&pos).iter().map(|e| e.mv.to_string()).collect();
        assert_eq!(legal, ["h2e2", "b2e2", "c3c4"]);
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let bytes = small_book().to_bytes();
        let damaged = |at: usize| {
            let mut b = bytes.clone();
            b[at] ^= 0x40;
            Book::from_bytes(&b).unwrap_err()
        };
        assert!(damaged(0).contains("not a Chariot book"));
        assert!(damaged(8).contains("version"));
        assert!(damaged(12).contains("header promises"));
        assert!(damaged(17).contains("other Zobrist keys"));
        assert!(damaged(HEADER_BYTES + 11).contains("checksum"));
        let short = Book::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(short.contains("cut short"), "{short}");
        assert!(Book::from_bytes(b"").is_err());
        assert!(Book::from_bytes(b"[Event \"a PGN, not a book\"]\n")
            .unwrap_err()
            .contains("not a Chariot book"));
        let missing = Book::load("/nonexistent/chariot.book").unwrap_err();
        assert!(missing.contains("No such file"), "{missing}");
    }

    #[test]
    fn choice_follows_the_weights_and_skips_banned_and_weightless_moves() {
        let book = small_book();
        let pos = Position::startpos();
        let mut rng = fastrand::Rng::with_seed(11);
        let draws = 8000;
        let mut central = 0;
        for _ in 0..draws {
            let e = book.choose(&pos, &[], &mut rng).unwrap();
            match e.mv.to_string().as_str() {
                "h2e2" => central += 1,
                "b2e2" => {}
                other => panic!("{other} has no weight or is illegal, yet was chosen"),
            }
        }
        // Weights 3:1, so h2e2 three times in four: 6000 expected, standard deviation ~39.
        assert!(
            (5800..=6200).contains(&central),
            "h2e2 {central} of {draws}"
        );
        let only = book.choose(&pos, &[mv(&pos, "h2e2")], &mut rng).unwrap();
        assert_eq!(only.mv.to_string(), "b2e2");
        let none = book.choose(&pos, &[mv(&pos, "h2e2"), mv(&pos, "b2e2")], &mut rng);
        assert_eq!(none, None);
        let mut after = pos.clone();
        after.make_move(mv(&pos, "h2e2"));
        assert_eq!(book.choose(&after, &[], &mut rng), None);
    }
}
