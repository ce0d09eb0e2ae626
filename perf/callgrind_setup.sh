# Sourced by the callgrind scripts: checks for valgrind, builds the release binary and makes
# perf/out. Run from the repository root.
for tool in valgrind callgrind_annotate; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found (install valgrind)" >&2; exit 1; }
done
cargo build --release --bin chariot
mkdir -p perf/out
