#!/usr/bin/env bash
# Lazy SMP time to depth, counted in nodes: `bench DEPTH` on one thread, then RUNS times on
# THREADS threads (whose node count varies from run to run). With N threads running at N times
# one thread's speed, the speed-up to depth is N x (one thread's nodes) / (N threads' nodes);
# nodes rather than wall time, since a shared machine's speed drifts more than the effect.
# Usage: perf/smp_ttd.sh [RUNS] [DEPTH] [THREADS]   (defaults 12, 14, 2)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-12}
depth=${2:-14}
threads=${3:-2}
cargo build --release --quiet
bin=$PWD/target/release/chariot
nodes() { "$bin" bench "$depth" "$@" | tail -n 1 | cut -d' ' -f1; }
one=$(nodes)
total=0
for run in $(seq "$runs"); do
    many=$(nodes --threads "$threads")
    echo "run $run: $many nodes on $threads threads"
    total=$((total + many))
done
awk -v one="$one" -v total="$total" -v runs="$runs" -v n="$threads" 'BEGIN {
    mean = total / runs
    printf "depth %d: %d nodes on 1 thread, %.0f on %d (mean of %d runs): speed-up %.2fx\n",
        '"$depth"', one, mean, n, runs, n * one / mean
}'
