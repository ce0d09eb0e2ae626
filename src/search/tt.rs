//! The transposition table: a shared hash of search results, one 64-byte bucket of four entries
//! per index. Threads share it without locks: each entry stores `key ^ data` beside `data`, so a
//! torn write from a racing thread fails the key check instead of handing out mixed fields.
//!
//! Beside the buckets, a tag array keeps four bits of each entry's key, two bytes a bucket
//! (a thirty-second of the table). Most probes find nothing, and the tags, small enough to
//! stay in the second-level cache, tell them so without waiting for the bucket's line from
//! memory: the line is needed only at the node's store, by when the prefetch has brought it.
//! (Four bits, not eight: half the array stays in cache far more often. In a full table a
//! probe for a missing key then reads its bucket for nothing about a quarter of the time,
//! which costs about what the smaller array saves; see perf/README.md.)

use crate::board::types::Move;
use crate::memory::{prefetch, HugeSlice, Zeroable};
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8, Ordering};

/// Which side of the true score a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is a lower bound (the search failed high).
    Lower = 1,
    /// The score is an upper bound (failed low).
    Upper = 2,
    Exact = 3,
}

impl Bound {
    /// Does a stored score with this bound settle a search with window (alpha, beta)?
    #[inline]
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// One probed entry, unpacked. The move still has to be checked against the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    pub mv: Option<Move>,
    /// Score as stored: mate scores are relative to the node (see [`score_to_tt`]).
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The position was on a principal variation when stored (or under one, failing low).
    pub pv: bool,
}

#[derive(Default)]
struct Entry {
    /// `key ^ data`: verifies that `data` belongs to the probed position.
    check: AtomicU64,
    data: AtomicU64,
}

const ENTRIES_PER_BUCKET: usize = 4;

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

// SAFETY: a bucket is eight atomic words; all zero is an empty bucket (`Bucket::default()`).
unsafe impl Zeroable for Bucket {}

/// A bucket's four key tags ([`tag`]), bits `4i..4i + 4` for entry `i`; zero where the entry
/// is empty.
#[derive(Default)]
struct Tags(AtomicU16);

// SAFETY: an atomic word; all zero is four empty entries' tags.
unsafe impl Zeroable for Tags {}

/// The four bits of `key` kept in the tag array: its lowest, which the bucket index (from the
/// highest bits) leaves free to differ within a bucket, with 0 read as 1 so that no key's tag
/// is an empty entry's. A position whose tag is in no nibble of its bucket's tags is in none
/// of its entries.
#[inline(always)]
fn tag(key: u64) -> u16 {
    (key as u16 & 0xF).max(1)
}

impl Tags {
    /// Could an entry of this bucket hold a key with tag `tag`? (No false "no".)
    #[inline(always)]
    fn may_hold(&self, tag: u16) -> bool {
        // A zero nibble in `tags ^ tag repeated` is a match: the classic zero-byte test, on
        // nibbles.
        const ONES: u16 = 0x1111;
        const HIGHS: u16 = 0x8888;
        let diff = self.0.load(Ordering::Relaxed) ^ (tag * ONES);
        diff.wrapping_sub(ONES) & !diff & HIGHS != 0
    }

    /// Entry `way` now holds a key with tag `tag`. Threads racing on one bucket may lose a
    /// tag: a probe then misses an entry that is there, a lost hit and no wrong one (the key
    /// check stays the entry's own).
    #[inline(always)]
    fn set(&self, way: usize, tag: u16) {
        let shift = 4 * way;
        let tags = self.0.load(Ordering::Relaxed);
        let tags = tags & !(0xF << shift) | tag << shift;
        self.0.store(tags, Ordering::Relaxed);
    }
}

static_assertions::assert_eq_size!(Entry, [u64; 2]);
static_assertions::assert_eq_size!(Bucket, [u8; 64]);
const _: () = assert!(
    std::mem::align_of::<Bucket>() == 64,
    "a bucket is one cache line"
);

/// Depth is stored with this offset so quiescence entries (depth 0 or below) fit in a byte.
const DEPTH_OFFSET: i32 = 8;
/// The age byte's low three bits hold the PV flag and the bound; the generation counts in
/// the five above them (it wraps after 32 searches, far older than any entry worth keeping).
const GENERATION_STEP: u8 = 8;
const PV_FLAG: u8 = 4;

// data layout: move 16 | score 16 | eval 16 | depth 8 | generation 5 + PV 1 + bound 2
#[allow(clippy::too_many_arguments)]
fn pack(
    mv: Option<Move>,
    score: i32,
    eval: i32,
    depth: i32,
    bound: Bound,
    pv: bool,
    generation: u8,
) -> u64 {
    let mv = mv.map_or(0, Move::raw) as u64;
    let score = score as i16 as u16 as u64;
    let eval = eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    let age = (generation | if pv { PV_FLAG } else { 0 } | bound as u8) as u64;
    mv | score << 16 | eval << 32 | depth << 48 | age << 56
}

#[inline(always)]
fn unpack(data: u64) -> Option<TtHit> {
    // Read from a table: a match on the bound bits became a jump through a table, an
    // indirect branch taken by the stored bound at every hit.
    const BOUNDS: [Option<Bound>; 4] = [
        None, // an empty slot
        Some(Bound::Lower),
        Some(Bound::Upper),
        Some(Bound::Exact),
    ];
    let bound = BOUNDS[(data >> 56) as usize & 3]?;
    Some(TtHit {
        mv: Move::from_raw(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xFF) as i32 - DEPTH_OFFSET,
        bound,
        pv: (data >> 56) as u8 & PV_FLAG != 0,
    })
}

fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xFF) as i32
}

fn generation_of(data: u64) -> u8 {
    (data >> 56) as u8 & !(GENERATION_STEP - 1)
}

pub struct TranspositionTable {
    /// On huge pages: the probes go anywhere in it.
    buckets: HugeSlice<Bucket>,
    /// One per bucket ([`Tags`]).
    tags: HugeSlice<Tags>,
    generation: AtomicU8,
}

impl TranspositionTable {
    pub const DEFAULT_MB: usize = 16;

    /// Buckets of (at most) `mb` megabytes, at least one, and their tag array, a thirty-second
    /// of that.
    pub fn new(mb: usize) -> TranspositionTable {
        let count = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        TranspositionTable {
            buckets: HugeSlice::zeroed(count),
            tags: HugeSlice::zeroed(count),
            generation: AtomicU8::new(0),
        }
    }

    pub fn clear(&mut self) {
        self.buckets.zero();
        self.tags.zero();
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of older searches become the first to be replaced.
    pub fn new_search(&self) {
        let next = self
            .generation
            .load(Ordering::Relaxed)
            .wrapping_add(GENERATION_STEP);
        self.generation.store(next, Ordering::Relaxed);
    }

    /// The handle a search thread works through, for the current search: it stores with the
    /// generation [`TranspositionTable::new_search`] last set (a view is made after it).
    #[inline(always)]
    pub fn view(&self) -> TtView<'_> {
        TtView {
            buckets: &self.buckets,
            tags: &self.tags,
            generation: self.generation.load(Ordering::Relaxed),
        }
    }

    /// [`TtView::probe`].
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        self.view().probe(key)
    }

    /// Per mille of sampled slots holding results of the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = &self.buckets[..self.buckets.len().min(250)];
        let mut used = 0;
        for bucket in sample {
            let data = bucket
                .entries
                .each_ref()
                .map(|e| e.data.load(Ordering::Relaxed));
            // Early in a search most sampled buckets are empty: one test for the four.
            if data.iter().fold(0, |all, &d| all | d) == 0 {
                continue;
            }
            for data in data {
                if data != 0 && generation_of(data) == generation {
                    used += 1;
                }
            }
        }
        let total = sample.len() * ENTRIES_PER_BUCKET;
        (used * 1000 / total.max(1)) as u32
    }
}

/// A search thread's handle on the table: the bucket slice and the search's generation, held
/// by the worker itself, so each probe, store and prefetch reads the slice's pointer and length
/// without first loading the table's address, and a store has the generation at hand.
#[derive(Clone, Copy)]
pub struct TtView<'a> {
    buckets: &'a [Bucket],
    /// As long as `buckets`.
    tags: &'a [Tags],
    generation: u8,
}

impl<'a> TtView<'a> {
    /// Asks the CPU to start loading `key`'s bucket, so the probe a moment later finds it in
    /// cache (the search calls it when it picks a move, before testing and making it).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        // A hint needs no bounds check: the address is only prefetched (and is in the slice).
        let index = self.index(key);
        prefetch(self.buckets.as_ptr().wrapping_add(index));
        prefetch(self.tags.as_ptr().wrapping_add(index));
    }

    /// `key`'s bucket index. Multiply-shift maps the key onto the bucket count without a
    /// division; the index is below the count.
    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &'a Bucket {
        &self.buckets[self.index(key)]
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        self.slot(key).probe(key)
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        self.store_in(self.slot(key), key, mv, score, eval, depth, bound, pv);
    }

    /// `key`'s bucket, for a probe and a later store of the same key: the search finds it
    /// once a node instead of twice.
    #[inline(always)]
    pub fn slot(&self, key: u64) -> TtSlot<'a> {
        let index = self.index(key);
        TtSlot {
            bucket: &self.buckets[index],
            // SAFETY: `index` is below the bucket count (just indexed), and the tag array has
            // one element per bucket: both are made with the same count and never resized.
            tags: unsafe { self.tags.get_unchecked(index) },
        }
    }

    /// [`TtView::store`] into `slot`, found for `key` by [`TtView::slot`]. The generation is
    /// read from the view at the store: a slot kept across a node's moves holds only the
    /// bucket.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn store_in(
        &self,
        slot: TtSlot<'a>,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        debug_assert!(
            std::ptr::eq(slot.bucket, self.bucket(key)),
            "a slot of another key"
        );
        let generation = self.generation;
        let bucket = slot.bucket;
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (way, entry) in bucket.entries.iter().enumerate() {
            let data = entry.data.load(Ordering::Relaxed);
            if entry.check.load(Ordering::Relaxed) ^ data == key {
                // Same position: keep the old move when the new result has none, and do not let
                // a shallow non-exact result overwrite a much deeper one.
                if bound != Bound::Exact
                    && generation_of(data) == generation
                    && depth + DEPTH_OFFSET + 3 < depth_of(data)
                {
                    return;
                }
                // Without a move the entry keeps the old one (its bound needs no reading: a
                // stored entry has one).
                let mv = mv.or_else(|| Move::from_raw(data as u16));
                write(
                    entry,
                    key,
                    pack(mv, score, eval, depth, bound, pv, generation),
                );
                return;
            }
            // A bucket fills from its first entry on (an empty entry is worth less than any
            // other, the first such is taken) and no entry is ever emptied again (only a
            // clear empties them all): past an empty entry none holds a position, so the key
            // is in none of them and this entry is the one to replace.
            if data == 0 {
                write(
                    entry,
                    key,
                    pack(mv, score, eval, depth, bound, pv, generation),
                );
                slot.tags.set(way, tag(key));
                return;
            }
            // Older searches' entries are worth less.
            let age = generation.wrapping_sub(generation_of(data)) as i32 / GENERATION_STEP as i32;
            let worth = depth_of(data) - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = way;
            }
        }
        write(
            &bucket.entries[victim],
            key,
            pack(mv, score, eval, depth, bound, pv, generation),
        );
        slot.tags.set(victim, tag(key));
    }
}

/// One key's bucket in the table ([`TtView::slot`]). Its probe and its store
/// ([`TtView::store_in`]) must be given the key it was found for.
#[derive(Clone, Copy)]
pub struct TtSlot<'a> {
    bucket: &'a Bucket,
    tags: &'a Tags,
}

impl TtSlot<'_> {
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        // Most probes end here, without reading the bucket.
        if !self.tags.may_hold(tag(key)) {
            return None;
        }
        let [first, others @ ..] = &self.bucket.entries;
        let data = first.data.load(Ordering::Relaxed);
        // A bucket fills from its first entry on ([`TtView::store_in`]): with that one
        // empty, so are the others.
        if data == 0 {
            return None;
        }
        if first.check.load(Ordering::Relaxed) ^ data == key {
            return unpack(data);
        }
        for entry in others {
            let data = entry.data.load(Ordering::Relaxed);
            if entry.check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }
}

#[inline(always)]
fn write(entry: &Entry, key: u64, data: u64) {
    entry.data.store(data, Ordering::Relaxed);
    entry.check.store(key ^ data, Ordering::Relaxed);
}

/// Mate scores count plies from the root; the table stores them counted from the node, so a
/// transposition reached at another ply still reports the right distance.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    use crate::search::score::MATE_BOUND;
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    use crate::search::score::MATE_BOUND;
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::types::Square;

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1);
        let mv = Move::new(Square::new(1), Square::new(20));
        tt.view()
            .store(0xDEAD_BEEF, Some(mv), -123, 45, 7, Bound::Lower, true);
        let hit = tt.probe(0xDEAD_BEEF).expect("stored entry is found");
        assert_eq!(
            hit,
            TtHit {
                mv: Some(mv),
                score: -123,
                eval: 45,
                depth: 7,
                bound: Bound::Lower,
                pv: true,
            }
        );
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        // Every bound with the flag off reads back as stored, the flag apart from the bound.
        for bound in [Bound::Lower, Bound::Upper, Bound::Exact] {
            tt.view().store(0xDEAD_BEEF, None, 5, 0, 7, bound, false);
            let hit = tt.probe(0xDEAD_BEEF).expect("stored entry is found");
            assert_eq!((hit.bound, hit.pv, hit.mv), (bound, false, Some(mv)));
        }
    }

    /// The PV flag is no part of the generation: entries stored with it count as the current
    /// search's (`hashfull`), and once a new search starts they are the first replaced, deeper
    /// or not.
    #[test]
    fn the_pv_flag_leaves_the_generation_alone() {
        let tt = TranspositionTable::new(1);
        let n = tt.buckets.len() as u128;
        assert!(n >= 250, "hashfull samples 250 buckets, 1000 entries");
        let keys: Vec<u64> = (0..5).map(|i| i + 1).collect();
        assert!(keys.iter().all(|&k| (k as u128 * n) >> 64 == 0));
        tt.new_search();
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.view()
                .store(k, None, 0, 0, 30 - i as i32, Bound::Exact, true);
        }
        assert_eq!(tt.hashfull(), 4);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.view().store(keys[4], None, 0, 0, 2, Bound::Exact, true);
        assert_eq!(tt.hashfull(), 1);
        assert!(tt.probe(keys[4]).is_some());
        assert!(tt.probe(keys[3]).is_none(), "the shallowest old entry went");
    }

    /// A table on huge pages (16 MB) keeps entries anywhere in it, and forgets them all when
    /// cleared.
    #[test]
    fn a_large_table_stores_anywhere_and_clears() {
        let mut tt = TranspositionTable::new(16);
        let keys = [1, u64::MAX / 3, u64::MAX - 1];
        for (i, &key) in keys.iter().enumerate() {
            tt.view()
                .store(key, None, i as i32, 0, 3, Bound::Exact, false);
        }
        for (i, &key) in keys.iter().enumerate() {
            assert_eq!(tt.probe(key).map(|hit| hit.score), Some(i as i32));
        }
        tt.clear();
        assert!(keys.iter().all(|&key| tt.probe(key).is_none()));
    }

    /// The tag test says "maybe" for every nibble a bucket's tags hold and "no" for every other
    /// key tag.
    #[test]
    fn tags_match_exactly_their_nibbles() {
        let tags = Tags::default();
        assert!(
            (1..16).all(|t| !tags.may_hold(t)),
            "empty tags hold no key's tag"
        );
        assert!((0..=u64::from(u16::MAX)).all(|key| (1..16).contains(&tag(key))));
        let held = [0x8, 0x1, 0xF, 0x7];
        for (way, &t) in held.iter().enumerate() {
            tags.set(way, t);
        }
        for t in 1..16 {
            assert_eq!(tags.may_hold(t), held.contains(&t), "tag {t:#x}");
        }
        // Replacing a nibble forgets the old tag and leaves the others.
        tags.set(2, 0x4);
        assert!(tags.may_hold(0x4) && !tags.may_hold(0xF) && tags.may_hold(0x7));
    }

    /// The tags never hide an entry: over many keys crowding few buckets (so that entries are
    /// replaced and tags shared), every probe finds exactly what the bucket's entries hold.
    #[test]
    fn tags_never_hide_a_stored_entry() {
        let tt = TranspositionTable::new(1);
        let view = tt.view();
        let mut rng = fastrand::Rng::with_seed(11);
        // Keys in the first eight buckets, four low values only, so tags collide often.
        let buckets = tt.buckets.len() as u64;
        let key = |rng: &mut fastrand::Rng| {
            let bucket = rng.u64(..8);
            (bucket * (u64::MAX / buckets) + rng.u64(..1 << 40)) & !0xFC | rng.u64(..4)
        };
        let mut stored = Vec::new();
        for i in 0..4000 {
            let k = key(&mut rng);
            view.store(k, None, i % 500, 0, rng.i32(0..20), Bound::Exact, false);
            stored.push(k);
        }
        let in_bucket = |k: u64| {
            view.bucket(k).entries.iter().any(|e| {
                let data = e.data.load(Ordering::Relaxed);
                data != 0 && e.check.load(Ordering::Relaxed) ^ data == k
            })
        };
        let mut found = 0;
        for &k in stored.iter().chain(&[key(&mut rng), key(&mut rng)]) {
            assert_eq!(view.probe(k).is_some(), in_bucket(k), "key {k:#x}");
            found += in_bucket(k) as usize;
        }
        assert!(found >= 32, "the buckets hold entries ({found} found)");
        // Cleared, the tags forget too.
        let mut tt = tt;
        tt.clear();
        assert!(stored.iter().all(|&k| tt.probe(k).is_none()));
    }

    #[test]
    fn quiescence_depths_fit() {
        let tt = TranspositionTable::new(1);
        tt.view().store(42, None, 10, 0, -1, Bound::Upper, false);
        assert_eq!(tt.probe(42).map(|h| h.depth), Some(-1));
    }

    #[test]
    fn mate_scores_are_ply_relative() {
        use crate::search::score::MATE;
        let at_root = MATE - 9; // mate in 9 plies from the root
        let stored = score_to_tt(at_root, 4);
        assert_eq!(stored, MATE - 5);
        assert_eq!(score_from_tt(stored, 6), MATE - 11);
    }

    #[test]
    fn a_full_bucket_replaces_the_shallowest() {
        let tt = TranspositionTable::new(1);
        let n = tt.buckets.len() as u128;
        // Keys that land in bucket 0: the high bits select the bucket.
        let keys: Vec<u64> = (0..5).map(|i| i + 1).collect();
        assert!(keys.iter().all(|&k| (k as u128 * n) >> 64 == 0));
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.view()
                .store(k, None, 0, 0, 10 - i as i32, Bound::Exact, false);
        }
        tt.view()
            .store(keys[4], None, 0, 0, 20, Bound::Exact, false);
        assert!(
            tt.probe(keys[3]).is_none(),
            "depth 7 entry was the one to go"
        );
        assert!(keys[..3].iter().all(|&k| tt.probe(k).is_some()));
        assert!(tt.probe(keys[4]).is_some());
    }
}
