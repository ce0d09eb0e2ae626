#!/usr/bin/env bash
# Lazy SMP time to depth, counted in nodes: `bench DEPTH` on one thread, then RUNS times on
# THREADS threads (whose node count varies from run to run). With N threads running at N times
# one thread's speed, the speed-up to depth is N x (one thread's nodes) / (N threads' nodes);
# nodes rather than wall time, since a shared machine's speed drifts more than the effect.
# WHICH says whose completion of the depth counts: `first` (any thread's, what `go depth`
# answers on) or `main` (the main thread's, whose iterations a timed search plays).
# Usage: perf/smp_ttd.sh [RUNS] [DEPTH] [THREADS] [first|main]   (defaults 12, 14, 2, first)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-12}
depth=${2:-14}
threads=${3:-2}
which=${4:-first}
case $which in
first) flag=() ;;
main) flag=(--main-thread) ;;
*) echo "smp_ttd.sh: WHICH must be first or main, not $which" >&2; exit 2 ;;
esac
cargo build --release --quiet
bin=$PWD/target/release/chariot
nodes() { "$bin" bench "$depth" "$@" | tail -n 1 | cut -d' ' -f1; }
one=$(nodes)
total=0
for run in $(seq "$runs"); do
    many=$(nodes --threads "$threads" "${flag[@]}")
    echo "run $run: $many nodes on $threads threads"
    total=$((total + many))
done
awk -v one="$one" -v total="$total" -v runs="$runs" -v n="$threads" 'BEGIN {
    mean = total / runs
    printf "depth %d (%s thread): %d nodes on 1 thread, %.0f on %d (mean of %d runs): speed-up %.2fx\n",
        '"$depth"', "'"$which"'", one, mean, n, runs, n * one / mean
}'
