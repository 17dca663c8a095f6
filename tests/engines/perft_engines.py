#!/usr/bin/env python3
"""fenbridge's legal moves (src/chess/movegen.c) against real engines' perft.

Usage: perft_engines.py PERFT_DRIVER [--seed N] [--n8 N] [--n10 N]
                                     [--depth D] [--verbose]

For each position, `go perft D` of the engine and `perft_driver D FEN`
must list the same moves (castling as king takes rook: UCI_Chess960 is on
in both engines) with the same node count under each:

  * 8x8: /usr/games/stockfish, UCI_Chess960 = true: random Chess960 starts
    and positions from random games played from them (the move choice of
    diff_fen.py, which keeps castling rights alive, walks rooks to inner
    squares and produces en-passant captures), plus known tricky positions;
  * 10x8: /usr/games/fairy-stockfish, caparandom: random Capablanca-random
    starts and positions from random games; the Capablanca start and a few
    tricky positions with UCI_Variant capablanca, the Gothic start with
    gothic; Janus and Embassy (their own castling files, J; the driver
    with --variant) from their starts, a start with the back rank cleared
    and positions from random games played from them.

The driver also prints every move at the root and the first ply in SAN and
reads it back (fb_moves_print_san, fb_moves_parse): any mismatch fails.
A missing engine skips its half; 77 when both are missing.  About 10-20 s.
"""

import argparse
import os
import random
import re
import subprocess
import sys
import time

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chesstest import (FAIRY, SKIP, STOCKFISH, Engine,  # noqa: E402
                       Referee, caparandom_rank, scharnagl)
from diff_fen import collect, random_start  # noqa: E402

DIVIDE_RE = re.compile(r"^([a-j][1-8][a-j][1-8][a-z]?): (\d+)$")
NODES_RE = re.compile(r"^Nodes searched: (\d+)$")

# Positions random play seldom reaches: the perft suite's classics
# (Kiwipete, promotions, en passant with pins, Chess960 castling with the
# rook or the king on its destination square).
TRICKY8 = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/8/8/K1pP3r/8/8/8/7k w - c6 0 2",
    "1r2k2r/8/8/8/8/8/8/R1K3R1 w GAhb - 0 1",
    "2r1kr2/8/8/8/8/8/8/1R2KR2 w FBfc - 0 1",
    "4k3/8/8/8/8/8/8/qRK4R w HB - 0 1",
    "r5kr/8/8/8/8/8/8/RK5R b HAha - 0 1",
]
TRICKY10 = [
    "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1",
    "1r3k3r/c9/10/10/10/10/10/RA3K2R1 w IAbj - 0 1",
    "4k5/1P8/10/3pP5/10/10/10/4K5 w - d6 0 2",
]


def engine_divide(eng, fen, depth):
    """`position fen`, `go perft depth` -> ({move: count}, total)."""
    eng.send("position fen " + fen, "go perft %d" % depth)
    divide, total = {}, None
    for line in eng.wait_for(r"^Nodes searched", 60):
        m = DIVIDE_RE.match(line)
        if m:
            divide[m.group(1)] = int(m.group(2))
        m = NODES_RE.match(line)
        if m:
            total = int(m.group(1))
    return divide, total


def driver_divides(driver, jobs, variant=None):
    """Runs the driver once on all (depth, fen) jobs (by variant's rules)
    -> a list of (divide, total, other lines) in the same order."""
    text = "".join("%d %s\n" % job for job in jobs)
    argv = [driver] + (["--variant=" + variant] if variant else [])
    out = subprocess.run(argv, input=text, capture_output=True,
                         text=True, timeout=120).stdout
    results, divide, other = [], {}, []
    for line in out.splitlines():
        m = DIVIDE_RE.match(line)
        n = NODES_RE.match(line)
        if m:
            divide[m.group(1)] = int(m.group(2))
        elif n:
            results.append((divide, int(n.group(1)), other))
            divide, other = {}, []
        else:
            other.append(line)
    if other:
        results.append(({}, None, other))
    return results


def compare(label, eng, driver, fens, depth, verbose, variant=None):
    """Returns the number of failing positions."""
    jobs = [(depth, fen) for fen in fens]
    ours = driver_divides(driver, jobs, variant)
    failures, nodes = 0, 0
    for i, fen in enumerate(fens):
        theirs, total = engine_divide(eng, fen, depth)
        mine, mytotal, other = ours[i] if i < len(ours) else ({}, None, [])
        nodes += total or 0
        if mine == theirs and mytotal == total and not other:
            if verbose:
                print("ok   %s %s: %d" % (label, fen, total))
            continue
        failures += 1
        print("FAIL %s perft %d %s: engine %s, fenbridge %s"
              % (label, depth, fen, total, mytotal))
        for move in sorted(set(mine) | set(theirs)):
            if mine.get(move) != theirs.get(move):
                print("       %s: engine %s, fenbridge %s"
                      % (move, theirs.get(move), mine.get(move)))
        for line in other[:10]:
            print("       " + line)
    print("perft_engines: %s: %d positions, perft %d, %d nodes, %d failing"
          % (label, len(fens), depth, nodes, failures))
    return failures


def walk(eng, rng, starts, n):
    """n positions of random games from starts, played by the engine's
    own legal moves (`go perft 1`), read back as FENs with `d`; king moves
    (castles among them) are preferred, so that games castle."""
    cmds = []
    for _ in range(n):
        start, moves = rng.choice(starts), []
        for _ in range(rng.randrange(1, 30)):
            line = start + (" moves " + " ".join(moves) if moves else "")
            divide, _ = engine_divide(eng, line, 1)
            if not divide:
                break
            legal = sorted(divide)
            kings = [m for m in legal if m[:2] in ("e1", "e8")]
            moves.append(rng.choice(kings if kings and rng.random() < 0.3
                                    else legal))
        cmds.append("position fen %s moves %s" % (start, " ".join(moves)))
    return [f for f in eng.fens(cmds) if f is not None]


def run8(args, rng):
    sf = Referee(8, stockfish=STOCKFISH)
    try:
        starts = [random_start(scharnagl(rng.randrange(960)), rng)
                  for _ in range(20)]
        games, _, _ = collect(
            sf, rng, args.n8, 8,
            lambda: random_start(scharnagl(rng.randrange(960)), rng))
        return compare("8x8 stockfish", sf, args.driver,
                       TRICKY8 + starts + games, args.depth, args.verbose)
    finally:
        sf.close()


def run10(args, rng):
    failures = 0
    for variant, fens in (
            ("capablanca", [
                "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR"
                " w KQkq - 0 1"] + TRICKY10),
            ("gothic", [
                "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR"
                " w KQkq - 0 1"])):
        eng = Engine([FAIRY], "fairy-stockfish " + variant)
        try:
            eng.uci([("UCI_Variant", variant), ("UCI_Chess960", "true")])
            failures += compare("10x8 " + variant, eng, args.driver, fens,
                                args.depth, args.verbose)
        finally:
            eng.close()
    for variant, start, ready in (
            ("janus",
             "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR"
             " w KQkq - 0 1",
             "r3k4r/pppppppppp/3j2q3/10/10/3J2Q3/PPPPPPPPPP/R3K4R"
             " w KQkq - 0 1"),
            ("embassy",
             "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR"
             " w KQkq - 0 1",
             "r3k4r/pppppppppp/3c2a3/10/10/3C2A3/PPPPPPPPPP/R3K4R"
             " w KQkq - 0 1")):
        eng = Engine([FAIRY], "fairy-stockfish " + variant)
        try:
            eng.uci([("UCI_Variant", variant), ("UCI_Chess960", "true")])
            fens = [start, ready] + walk(eng, rng, [start, ready],
                                         args.n10 // 4)
            failures += compare("10x8 " + variant, eng, args.driver, fens,
                                args.depth, args.verbose, variant)
        finally:
            eng.close()
    fy = Referee(10, fairy=FAIRY)
    try:
        starts = [random_start(caparandom_rank(rng), rng) for _ in range(10)]
        games, _, _ = collect(fy, rng, args.n10, 10,
                              lambda: random_start(caparandom_rank(rng), rng))
        failures += compare("10x8 caparandom", fy, args.driver,
                            starts + games, args.depth, args.verbose)
    finally:
        fy.close()
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("driver")
    ap.add_argument("--seed", type=int, default=20261130,
                    help="-1: a random seed")
    ap.add_argument("--n8", type=int, default=300)
    ap.add_argument("--n10", type=int, default=120)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    seed = args.seed if args.seed >= 0 else random.randrange(1 << 30)
    print("perft_engines: seed %d (--seed %d repeats this run)"
          % (seed, seed))
    rng = random.Random(seed)
    t0 = time.monotonic()
    failures, ran = 0, 0
    if os.access(STOCKFISH, os.X_OK):
        failures += run8(args, rng)
        ran += 1
    else:
        print("perft_engines: %s not found, 8x8 skipped" % STOCKFISH)
    if os.access(FAIRY, os.X_OK):
        failures += run10(args, rng)
        ran += 1
    else:
        print("perft_engines: %s not found, 10x8 skipped" % FAIRY)
    if not ran:
        return SKIP
    print("perft_engines: %d failing positions, %.1f s"
          % (failures, time.monotonic() - t0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
