#!/usr/bin/env python3
"""A large opening suite for fixed-node screens (`chariot match --nodes N --openings FILE`).

The built-in suite's 120 openings give a pairing 240 distinct games; at fixed nodes every game
past those replays an earlier one move for move. This plays self-play games with `chariot
datagen` (the built-in openings, then its random plies) and keeps one position a game: the
first at full moves 6-16 with the searched score within 60 cp of level and at least 26
pieces on the board. Each board is kept once; the suite is sorted, then shuffled with a fixed
seed, so the same games give the same file whatever order datagen's threads wrote them in.

Usage:
  perf/screen_openings.py OUT [--games N] [--seed S] [--count C] [--engine PATH]
  perf/screen_openings.py OUT --input DATAGEN.txt     # from datagen text output already made
14,000 games (the default) take about 20 minutes on two threads; about three in ten give an
opening.
"""
import argparse, os, random, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--games", type=int, default=14000)
ap.add_argument("--seed", type=int, default=4801, help="datagen's seed")
ap.add_argument("--count", type=int, default=4000, help="openings kept at most")
ap.add_argument("--engine", default=os.path.join(root, "target/release/chariot"))
ap.add_argument("--input", help="datagen text output to read instead of playing games")
args = ap.parse_args()

FIRST_MOVE, LAST_MOVE, MAX_SCORE, MIN_PIECES = 6, 16, 60, 26


def positions(path):
    """(fen, score) of each line of datagen's text output (`FEN | score | result`)."""
    with open(path) as lines:
        for line in lines:
            fen, score, _ = (part.strip() for part in line.split("|"))
            yield fen, int(score)


def one_per_game(path):
    """The first fitting position of each game. A game's positions are written together and
    in order, so a new game starts where the move number falls or pieces come back."""
    chosen, last_move, last_pieces, taken = [], 0, 0, False
    for fen, score in positions(path):
        fields = fen.split()
        move, pieces = int(fields[5]), sum(c.isalpha() for c in fields[0])
        if move < last_move or pieces > last_pieces:
            taken = False
        last_move, last_pieces = move, pieces
        fits = FIRST_MOVE <= move <= LAST_MOVE and abs(score) <= MAX_SCORE and pieces >= MIN_PIECES
        if fits and not taken:
            chosen.append(fen)
            taken = True
    return chosen


def suite(path):
    seen, kept = set(), []
    for fen in sorted(one_per_game(path)):
        board = " ".join(fen.split()[:2])
        if board not in seen:
            seen.add(board)
            kept.append(fen)
    random.Random(48).shuffle(kept)
    return kept[: args.count]


if args.input:
    kept = suite(args.input)
else:
    with tempfile.TemporaryDirectory() as tmp:
        games = os.path.join(tmp, "games.txt")
        command = [args.engine, "datagen", "--output", games, "--format", "text",
                   "--threads", "2", "--seed", str(args.seed), "--games", str(args.games),
                   "--nodes", "5000"]
        print(" ".join(command), file=sys.stderr)
        subprocess.run(command, check=True)
        kept = suite(games)
with open(args.out, "w") as out:
    out.writelines(fen + "\n" for fen in kept)
print(f"{len(kept)} openings written to {args.out}", file=sys.stderr)
