#!/usr/bin/env bash
# A fuzz campaign: runs one cargo-fuzz target for SECONDS on one core (stable toolchain, no
# sanitizer), then prints the executions, coverage and any crash it found.
#
#   fuzz/run.sh TARGET SECONDS [RUNS]
#
# RUNS (optional) stops earlier after that many executions (libFuzzer -runs). New inputs go to
# a scratch corpus (fuzz/scratch/TARGET, ignored by git) that later campaigns start from; the
# committed seeds in fuzz/corpus/TARGET are read, never written. Crashes land in
# fuzz/artifacts/TARGET/. The full libFuzzer log is kept in fuzz/scratch/TARGET.log.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: fuzz/run.sh TARGET SECONDS [RUNS]" >&2
  exit 2
fi
target=$1
seconds=$2
runs=${3:--1}
cd "$(dirname "$0")"

if ! grep -q "^name = \"$target\"$" Cargo.toml; then
  echo "error: no fuzz target '$target' in fuzz/Cargo.toml" >&2
  exit 2
fi
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  echo "error: cargo-fuzz is missing: cargo install cargo-fuzz --locked" >&2
  exit 2
fi

scratch=scratch/$target
log=scratch/$target.log
mkdir -p "$scratch" corpus/"$target" artifacts/"$target"
before=$(find artifacts/"$target" -type f | wc -l)

# RUSTC_BOOTSTRAP lets stable accept cargo-fuzz's nightly flags; no sanitizer on stable.
# -timeout: one input taking longer than 10 s counts as a hang (a crash to libFuzzer).
# -rss_limit_mb: a leak or runaway allocation is a crash too.
# MALLOC_MMAP_THRESHOLD_ fixes glibc's mmap threshold: left dynamic, it rises after the first
# freed table, later tables come from the heap and the heap's fragments pile up over thousands
# of inputs (the protocol target measured 456 MB peak RSS after 1,151 inputs, 32 MB with this).
status=0
MALLOC_MMAP_THRESHOLD_=131072 RUSTC_BOOTSTRAP=1 cargo fuzz run "$target" --sanitizer none "$scratch" corpus/"$target" -- \
  -max_total_time="$seconds" -runs="$runs" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 >"$log" 2>&1 || status=$?

after=$(find artifacts/"$target" -type f | wc -l)
# The last status line holds the totals: "#EXECS DONE cov: C ft: F corp: N/SIZE ...".
last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
execs=$(grep -E '^stat::number_of_executed_units:' "$log" | awk '{print $2}' | tail -n 1)
secs=$(grep -E '^stat::average_exec_per_sec:' "$log" | awk '{print $2}' | tail -n 1)
cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
corp=$(sed -nE 's/.* corp: ([0-9]+\/[^ ]+).*/\1/p' <<<"$last")

echo "target:      $target"
echo "time limit:  ${seconds} s"
echo "executions:  ${execs:-?} (${secs:-?}/s)"
echo "coverage:    cov ${cov:-?} ft ${ft:-?} corpus ${corp:-?}"
echo "new crashes: $((after - before)) (fuzz/artifacts/$target/)"
echo "exit status: $status (log: fuzz/$log)"
if [ "$status" -ne 0 ]; then
  grep -E 'panicked|ERROR: libFuzzer|Test unit written|SUMMARY' "$log" | head -n 20 || true
fi
exit "$status"
