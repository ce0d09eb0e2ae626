#!/usr/bin/env bash
# Paired speed: `chariot bench` of two or more builds, in rounds. Each round runs every build
# once, in an order rotated from round to round, pinned to one core, then reads the memory's
# state (`perf/memory_latency.rs`: nanoseconds a read at random over 16 MB, the default hash
# table's size). Speed on this kind of machine drifts with what else runs on it, so only
# figures from the same rounds are compared: each round's nps ratio against the first build.
# Usage: perf/paired_bench.sh ROUNDS BASE OTHER... (paths of chariot binaries; DEPTH=N for
# `chariot bench N`, CORE=N for the core, the last one by default).
# Prints one line a round (base nps, each ratio, memory ns) and then the medians; the lines
# also go to perf/out/paired-<time>.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
if (($# < 3)) || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: perf/paired_bench.sh ROUNDS BASE OTHER..." >&2
  exit 2
fi
rounds=$1
shift
builds=("$@")
for build in "${builds[@]}"; do
  [[ -x $build ]] || { echo "error: $build is not an executable" >&2; exit 2; }
done
core=${CORE:-$(($(nproc) - 1))}
cargo build --release --example memory_latency --quiet
probe=target/release/examples/memory_latency
mkdir -p perf/out
out="perf/out/paired-$(date -u +%Y%m%dT%H%M%S).txt"
echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg); builds: ${builds[*]}" | tee "$out"
count=${#builds[@]}
for ((round = 0; round < rounds; round++)); do
  nps=()
  for ((j = 0; j < count; j++)); do
    index=$(((j + round) % count))
    nps[index]=$(taskset -c "$core" "${builds[index]}" bench ${DEPTH:-} | tail -n 1 | awk '{print $3}')
  done
  line=${nps[0]}
  for ((j = 1; j < count; j++)); do
    line+=" $(awk -v a="${nps[j]}" -v b="${nps[0]}" 'BEGIN {printf "%.4f", a / b}')"
  done
  echo "$line $(taskset -c "$core" "$probe")" | tee -a "$out"
done
# Medians of each column (the base's nps, each ratio, the memory's ns).
grep -v '^#' "$out" | awk -v n="$count" '
  { for (c = 1; c <= n + 1; c++) column[c, NR] = $c }
  END {
    for (c = 1; c <= n + 1; c++) {
      for (i = 1; i <= NR; i++) v[i] = column[c, i]
      # Insertion sort: a few hundred rounds at most.
      for (i = 2; i <= NR; i++) { x = v[i]; for (k = i - 1; k >= 1 && v[k] > x; k--) v[k + 1] = v[k]; v[k + 1] = x }
      median[c] = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    }
    printf "median over %d rounds: base %.0f nps", NR, median[1]
    for (c = 2; c <= n; c++) printf ", build %d %.3f", c, median[c]
    printf ", memory %.1f ns\n", median[n + 1]
  }' | tee -a "$out"
