#!/usr/bin/env bash
# Time-forfeit check (issue 5): Chariot plays itself 200 games at 1+0.01 with two games at once
# and must lose none on time. Takes several minutes; prints the match summary and the count.
# Usage: perf/time_forfeit.sh [GAMES] [TC]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
tc=${2:-1+0.01}
cargo build --release --quiet
bin=$PWD/target/release/chariot
pgn=$(mktemp --suffix=.pgn)
"$bin" match --engine cmd="$bin" name=Chariot-A --engine cmd="$bin" name=Chariot-B \
    --tc "$tc" --games "$games" --concurrency 2 --pgn "$pgn" | tail -n 12
forfeits=$(grep -c '^\[Termination "time forfeit"\]' "$pgn" || true)
played=$(grep -c '^\[Result ' "$pgn" || true)
echo "games: $played, time forfeits: $forfeits (PGN: $pgn)"
grep -h -A0 'loses on time' "$pgn" || true
[ "$forfeits" -eq 0 ]
