//! A small evaluation cache keyed by the Zobrist hash. Each bucket is half a cache line of four
//! entries kept newest first, so a probe touches one line and a store evicts the oldest.

use crate::memory::prefetch;
use static_assertions::const_assert_eq;

/// Entries per bucket. Most probes miss, and a miss reads every entry of its bucket; of one,
/// two, four and eight ways, four searched the fewest instructions.
const WAYS: usize = 4;
/// Buckets in the cache: a power of two, 256 KiB in all.
const BUCKETS: usize = 1 << 13;
/// Entry = the hash's upper 48 bits, then the score in the low 16. The low hash bits pick
/// the bucket, so a false hit needs the other 61 hash bits to collide.
const TAG_MASK: u64 = !0xFFFF;

#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Bucket([u64; WAYS]);

const_assert_eq!(std::mem::size_of::<Bucket>(), 32);
const_assert_eq!(std::mem::align_of::<Bucket>(), 32);
const_assert_eq!(BUCKETS & (BUCKETS - 1), 0);

#[derive(Clone)]
pub struct EvalCache {
    /// A fixed-size array: the masked index needs no bounds check.
    buckets: Box<[Bucket; BUCKETS]>,
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache {
            buckets: vec![Bucket::default(); BUCKETS]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("BUCKETS buckets")),
        }
    }
}

impl EvalCache {
    #[inline(always)]
    fn bucket(&self, hash: u64) -> usize {
        hash as usize & (BUCKETS - 1)
    }

    /// Asks the CPU to start loading `hash`'s bucket (see `TranspositionTable::prefetch`).
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        prefetch(&self.buckets[self.bucket(hash)]);
    }

    #[inline]
    pub fn probe(&self, hash: u64) -> Option<i32> {
        let tag = hash & TAG_MASK;
        let bucket = &self.buckets[self.bucket(hash)];
        // Entries are shifted in at the front: with the first one empty, so are the others
        // (or the first holds a score of 0 under the zero tag, one hash in 2^48, and a probe
        // merely misses what the rest hold).
        if bucket.0[0] == 0 {
            return None;
        }
        let entry = if tag != 0 {
            // A non-zero tag never matches an empty entry: one compare per entry.
            bucket.0.iter().find(|&&e| e ^ tag <= !TAG_MASK)
        } else {
            bucket.0.iter().find(|&&e| e & TAG_MASK == tag && e != 0)
        };
        entry.map(|&e| e as u16 as i16 as i32)
    }

    /// Stores a score, which is at least `i16::MIN` (every evaluation is: a mix of two 16-bit
    /// halves, drawn toward zero, perhaps negated); above `i16::MAX` it is clamped to it.
    #[inline]
    pub fn store(&mut self, hash: u64, score: i32) {
        debug_assert!(score >= i16::MIN as i32, "score {score}");
        let index = self.bucket(hash);
        let bucket = &mut self.buckets[index].0;
        bucket.copy_within(0..WAYS - 1, 1);
        let score = score.min(i16::MAX as i32) as i16 as u16;
        bucket[0] = (hash & TAG_MASK) | score as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_probes_and_evicts_the_oldest_of_a_bucket() {
        let mut cache = EvalCache::default();
        // One more hash than a bucket holds, all in one bucket (same low bits), different tags.
        let hashes: Vec<u64> = (1..=WAYS as u64 + 1).map(|i| i << 20 | 5).collect();
        assert_eq!(cache.probe(hashes[0]), None);
        for (i, &h) in hashes.iter().enumerate() {
            cache.store(h, i as i32 - 2);
        }
        assert_eq!(cache.probe(hashes[0]), None, "the oldest entry is evicted");
        for (i, &h) in hashes.iter().enumerate().skip(1) {
            assert_eq!(cache.probe(h), Some(i as i32 - 2));
        }
        assert_eq!(cache.probe(1 << 40 | 5), None, "an unknown tag misses");
        cache.store(7, 40_000);
        assert_eq!(cache.probe(7), Some(i16::MAX as i32), "clamped");
    }
}
