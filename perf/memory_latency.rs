//! How long a read at random over a hash-table-sized region waits on this machine right now:
//! a chase through every cache line of the region in an order no prefetcher can follow, on
//! huge pages as the search's table is (so the figure is the caches' and memory's, not the
//! TLB's). The region competes for the shared last-level cache with whatever else the
//! machine runs, so the figure tells the memory's state when speed is compared
//! (`perf/paired_bench.sh` prints it every round).
//! Usage: `cargo run --release --example memory_latency -- [MB]` (default 16, the default
//! `Hash`). Prints nanoseconds a read.

use chariot::memory::HugeSlice;
use std::time::Instant;

/// u64 slots a 64-byte cache line: the chase uses the first of each line.
const STRIDE: usize = 8;
/// Reads timed: enough that the clock's resolution does not matter, few enough for a tenth of
/// a second or so.
const READS: usize = 1 << 21;

fn main() {
    let mb = match std::env::args().nth(1) {
        None => 16,
        Some(text) => match text.parse::<usize>() {
            Ok(mb) if (1..=4096).contains(&mb) => mb,
            _ => {
                eprintln!("error: the size must be 1 to 4096 MB, not {text}");
                std::process::exit(1);
            }
        },
    };
    let lines = (mb << 20) / 64;
    let mut next = HugeSlice::<u64>::zeroed(lines * STRIDE);
    // The lines in a random order (seeded, so runs are alike), each pointing at the next and
    // the last at the first: one cycle through all of them.
    let mut order: Vec<usize> = (0..lines).collect();
    fastrand::Rng::with_seed(0x9E37_79B9_7F4A_7C15).shuffle(&mut order);
    for (k, &line) in order.iter().enumerate() {
        next[line * STRIDE] = (order[(k + 1) % lines] * STRIDE) as u64;
    }
    // One lap first, so the region is as resident as it will get.
    let mut at = 0;
    for _ in 0..lines {
        at = next[at] as usize;
    }
    let start = Instant::now();
    for _ in 0..READS {
        at = next[at] as usize;
    }
    let ns = start.elapsed().as_secs_f64() * 1e9 / READS as f64;
    std::hint::black_box(at);
    println!("{ns:.1}");
}
