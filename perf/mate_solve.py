#!/usr/bin/env python3
"""Mate-puzzle measurement (issue 12): drives a UCI engine over an EPD of `FEN;N` lines and
counts the puzzles where the last reported score is `mate M` with 1 <= M <= N.

Usage:
  perf/mate_solve.py [--engine PATH] [--epd FILE] movetime MS    # go movetime MS
  perf/mate_solve.py [--engine PATH] [--epd FILE] nodes N        # go mate N nodes N
  add -v for one line per puzzle.
A measurement, not a test: movetime results depend on the machine and its load.
"""
import argparse, os, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ap = argparse.ArgumentParser()
ap.add_argument("--engine", default=os.path.join(root, "target/release/chariot"))
ap.add_argument("--epd", default=os.path.join(root, "data/mates.epd"))
ap.add_argument("mode", choices=["movetime", "nodes"])
ap.add_argument("amount", type=int)
ap.add_argument("-v", action="store_true")
args = ap.parse_args()

engine = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

def send(line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()

def until(prefix):
    lines = []
    while True:
        line = engine.stdout.readline()
        if not line:
            sys.exit("the engine exited")
        lines.append(line.split())
        if line.startswith(prefix):
            return lines

send("uci")
until("uciok")
solved = total = 0
unsolved = []
for row in open(args.epd):
    if not row.strip():
        continue
    fen, n = row.strip().rsplit(";", 1)
    n = int(n)
    total += 1
    send("ucinewgame")
    send("position fen " + fen)
    send("isready")
    until("readyok")
    if args.mode == "movetime":
        send(f"go movetime {args.amount}")
    else:
        send(f"go mate {n} nodes {args.amount}")
    mate, depth, nodes = None, 0, 0
    for words in until("bestmove"):
        if words[:2] == ["info", "depth"] and "score" in words:
            i = words.index("score")
            mate = int(words[i + 2]) if words[i + 1] == "mate" else None
            depth = int(words[2])
            nodes = int(words[words.index("nodes") + 1])
    ok = mate is not None and 1 <= mate <= n
    solved += ok
    if not ok:
        unsolved.append(f"{fen} (mate in {n}; reported {mate}, depth {depth})")
    if args.v:
        print(f"{'ok ' if ok else 'BAD'} mate in {n}: reported {mate}, depth {depth}, {nodes} nodes, {fen}")
send("quit")
print(f"go {args.mode} {args.amount}: solved {solved} of {total}")
for line in unsolved:
    print("  unsolved:", line)
