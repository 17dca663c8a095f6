#!/usr/bin/env python3
"""Differential test of `fenbridge convert` against real engines.

Usage: diff_fen.py FENBRIDGE [--seed N] [--n8 N] [--n10 N]
                             [--stockfish PATH] [--fairy PATH]

Positions come from random games played through the engines' own move
generators (`go perft 1` lists the legal moves), so every position is a
valid, reachable one:

  * 8x8:  Debian's /usr/games/stockfish (15.1), UCI_Chess960 = true, from
          random Chess960 starts (Scharnagl numbering 0..959).
  * 10x8: /usr/games/fairy-stockfish (11.1), UCI_Variant = caparandom,
          UCI_Chess960 = true, from random Capablanca-random starts.

In Chess960 mode both engines print Shredder-FEN in `d` (`Fen: ...`,
castling as rook files, white first, h-side before a-side: `HAha`, `JAja`).
For every position P (the engine's `Fen:` line):

  1. `fenbridge convert --to=shredder P` must be P itself, byte for byte.
  2. X = `fenbridge convert --to=xfen P`:
     a. X equals P in every field except castling (board, side to move,
        en passant, counters).  En passant: both engines only ever print a
        square that a pawn of the side to move could capture on
        (pseudo-legally: a pin is NOT checked, e.g. stockfish 15.1 prints
        `8/7k/8/KPp4r/8/8/8/8 w - c6 0 2` after ...c7c5 although bxc6 is
        illegal).  That is exactly X-FEN's rule, so fenbridge must keep the
        square as it is.  (The engines differ only on input that play
        cannot produce: stockfish 15.1 also drops the square when the
        pawn's origin square, c7 for c6, is occupied; fairy-stockfish 11.1
        and fenbridge keep it.  Not tested here.)
     b. Every castling letter in X is K/Q/k/q, except a file letter for a
        rook with another own rook further out on the same wing of the
        back rank (an inner-rook right).
     c. Fed back to the engine (`position fen X`, `d`), X gives the same
        `Fen:` line P: the same castling rooks, the same en-passant square.
     d. `fenbridge convert --to=shredder X` is P again.
  3. Raw en-passant squares: for each position P just after a pawn double
     step where the engine prints `-` (no pawn can capture), R is P with
     the skipped square written in, as many GUIs send it.  --to=shredder
     copies it (R unchanged); --to=xfen of R must equal --to=xfen of P
     (fenbridge drops exactly the squares the engines drop); and the
     engine reads R as P (it too ignores an uncapturable square).
  4. Every start position reads `KQkq` in X-FEN.
  In every call fenbridge must exit 0 with nothing on stderr: these are
  valid positions, so any diagnostic is a failure.

FENs go to fenbridge in batch (one `convert` process per direction, one
FEN per line on stdin).  One engine process per board size.

Exit status: 0 pass, 1 mismatch, 77 (skip) if an engine is missing.
"""

import argparse
import os
import random
import subprocess
import sys
import time

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chesstest import (FAIRY, SKIP, STOCKFISH, Referee,  # noqa: E402
                       caparandom_rank, outer_rook, parse_board, rook_walk,
                       scharnagl, sq, squares_beyond, start_fen)


# ---------------------------------------------------------------- positions

def random_start(rank, rng):
    """Start FEN from a white back rank; the castling field is X-FEN or
    Shredder-FEN at random (the engines read both)."""
    return start_fen(rank, xfen=rng.random() < 0.5)


def castling_rooks(castle):
    """Shredder castling field -> set of (colour, file index)."""
    if castle == "-":
        return set()
    return {("w" if c.isupper() else "b", ord(c.lower()) - ord("a"))
            for c in castle}


# ---------------------------------------------------------------- games

def choose(rng, fen, legal, width):
    """Pick a move for random play, biased so that the positions keep
    castling rights for a while, lose them one at a time, have capturable
    en-passant squares, and above all so that one rook walks around to the
    back rank beyond the other castling rook: then that castling rook is
    an inner rook, and X-FEN writes its file letter (`Gkq`)."""
    f = fen.split(" ")
    board = parse_board(f[0])
    stm = f[1]
    back = 0 if stm == "w" else 7
    own = "PNBRQKAC" if stm == "w" else "pnbrqkac"
    rook, king, pawn = own[3], own[5], own[0]
    enemy_pawn = "p" if stm == "w" else "P"
    rights = {x for (c, x) in castling_rooks(f[2]) if c == stm}
    row = board[back]
    kfile = row.index(king) if king in row else None

    def targets_for(rs):
        """Back-rank squares beyond a castling rook in rs."""
        return squares_beyond(rs, kfile, back, width)

    castle, kingm, ep_push, double, other = [], [], [], [], []
    outer, walk = [], []            # walk: (distance after, move)
    for m in legal:
        (ff, fr), (tf, tr) = sq(m[0:2]), sq(m[2:4])
        piece = board[fr][ff]
        if piece == king:
            (castle if board[tr][tf] == rook else kingm).append(m)
        elif piece == rook:
            rest = rights - {ff} if fr == back else rights
            targets = targets_for(rest)
            if (tf, tr) in targets:
                outer.append(m)
            elif targets:
                d = rook_walk(board, m, targets, own)
                if d is not None:
                    walk.append((d, m))
            other.append(m)
        elif piece == pawn and abs(tr - fr) == 2:
            double.append(m)
            if any(0 <= tf + dd < width and board[tr][tf + dd] == enemy_pawn
                   for dd in (-1, 1)):
                ep_push.append(m)
        else:
            other.append(m)

    r = rng.random()
    if outer and r < 0.95:
        return rng.choice(outer)
    if ep_push and r < 0.6:
        return rng.choice(ep_push)
    if castle and r < 0.03:
        return rng.choice(castle)
    if kingm and r < 0.05:
        return rng.choice(kingm)
    if walk and r < 0.7:
        # A rook on its way to a target: a move that shortens its path.
        best = min(d for d, _ in walk)
        return rng.choice([m for d, m in walk if d == best])
    targets = targets_for(rights)
    if r < 0.8 and (rights or targets):
        # No way through yet: move the pawns and pieces in the way (pawns
        # on the rooks' and targets' files, pieces on target squares).
        files = {t for (t, _) in targets}
        for rr in range(8):
            files |= {i for i in range(width) if board[rr][i] == rook}
        opening = [m for m in double + other
                   if (board[sq(m[0:2])[1]][sq(m[0:2])[0]] == pawn
                       and sq(m[0:2])[0] in files)
                   or (sq(m[0:2]) in targets and sq(m[0:2])[0] != kfile)]
        if opening:
            return rng.choice(opening)
    if r < 0.96 and (double or other):
        # Pawn double steps open files and produce en-passant squares.
        if double and rng.random() < 0.5:
            return rng.choice(double)
        return rng.choice(double + other)
    return rng.choice(legal)


def collect(engine, rng, want, width, new_start):
    """Play random games until `want` distinct positions are seen.
    Returns (positions in order, start positions as printed, raw-ep pairs).

    A raw-ep pair (R, P): P is a position just after a pawn double step in
    which no pawn can capture en passant, so the engine prints `-`; R is P
    with the skipped square written in anyway, as FEN's original definition
    (PGN standard) has it and as GUIs that always write it send it."""
    seen, order, starts, raw = set(), [], [], []
    while len(order) < want:
        start = new_start()
        moves = []
        plies = rng.choice([6, 12, 20, 30, 40, 60, 90, 140])
        prev = None
        for i in range(plies + 1):
            fen, legal = engine.step(start, moves)
            if i == 0:
                starts.append(fen)
            if fen not in seen:
                seen.add(fen)
                order.append(fen)
                if prev is not None:
                    skipped = double_step_square(prev, moves[-1])
                    fields = fen.split(" ")
                    if skipped and fields[3] == "-":
                        fields[3] = skipped
                        raw.append((" ".join(fields), fen))
            if not legal or len(order) >= want:
                break
            moves.append(choose(rng, fen, legal, width))
            prev = fen
    return order, starts, raw


def double_step_square(fen, move):
    """The square a pawn skipped if `move` is a double step in `fen`."""
    (ff, fr), (tf, tr) = sq(move[0:2]), sq(move[2:4])
    if parse_board(fen.split(" ")[0])[fr][ff] not in ("P", "p") \
            or abs(tr - fr) != 2:
        return None
    return "%s%d" % (move[0], (fr + tr) // 2 + 1)


# ---------------------------------------------------------------- fenbridge

def convert(chk, label, fenbridge, to, fens, of="", count=True):
    """`fenbridge convert --to=TO` of fens (one per line on stdin) -> (its
    output lines, ok).  Not ok, a failure, unless it exits 0 with nothing
    on stderr and (with count) one line per FEN."""
    p = subprocess.run([fenbridge, "convert", "--to=" + to],
                       input="".join(f + "\n" for f in fens),
                       capture_output=True, text=True)
    out = p.stdout.split("\n")
    if out and out[-1] == "":
        out.pop()
    ok = p.returncode == 0 and not p.stderr and \
        (not count or len(out) == len(fens))
    if not ok:
        chk.fail("%s: convert --to=%s%s status/diagnostics" % (label, to, of),
                 "%d lines" % len(fens), "exit 0, no stderr%s"
                 % (", %d lines" % len(fens) if count else ""),
                 "exit %d, %d lines, stderr: %s"
                 % (p.returncode, len(out), p.stderr.strip()[:2000]))
    return out, ok


# ---------------------------------------------------------------- checks

class Checker:
    def __init__(self):
        self.failures = 0

    def fail(self, what, position, expected, got):
        self.failures += 1
        if self.failures <= 20:
            print("MISMATCH (%s)\n  position: %s\n  expected: %s\n  got:      %s"
                  % (what, position, expected, got))


def xfen_letters_ok(xfen):
    """2b: a file letter only for a rook with an own rook further out."""
    f = xfen.split(" ")
    if f[2] == "-":
        return True
    board = parse_board(f[0])
    for c in f[2]:
        if c in "KQkq":
            continue
        colour = "w" if c.isupper() else "b"
        row = board[0 if colour == "w" else 7]
        rook, king = ("R", "K") if colour == "w" else ("r", "k")
        x = ord(c.lower()) - ord("a")
        if king not in row or row[x] != rook:
            return False
        if not outer_rook(row, x, row.index(king), rook):
            return False
    return True


def check_set(label, fenbridge, engine, positions, starts, raw, chk):
    # 1. to Shredder: identity on the engine's own Shredder-FEN.
    shred, _ = convert(chk, label, fenbridge, "shredder", positions)
    for p, s in zip(positions, shred):
        if s != p:
            chk.fail(label + ": --to=shredder", p, p, s)

    # 2. to X-FEN.
    xfen, ok = convert(chk, label, fenbridge, "xfen", positions)
    if not ok:
        return {}
    stats = {"rights": 0, "inner": 0, "ep": 0}
    for p, x in zip(positions, xfen):
        pf, xf = p.split(" "), x.split(" ")
        if len(xf) != len(pf) or pf[:2] + pf[3:] != xf[:2] + xf[3:]:
            chk.fail(label + ": --to=xfen changed a non-castling field", p,
                     " ".join(pf[:2] + ["<castling>"] + pf[3:]), x)
            continue
        if not xfen_letters_ok(x):
            chk.fail(label + ": --to=xfen letter without an outer rook", p,
                     "K/Q/k/q unless an own rook stands further out", x)
        stats["rights"] += xf[2] != "-"
        stats["inner"] += any(c not in "KQkq-" for c in xf[2])
        stats["ep"] += xf[3] != "-"

    # 2c. The engine reads the X-FEN back into the same position.
    back = engine.fens(["position fen " + x for x in xfen])
    for p, x, b in zip(positions, xfen, back):
        if b != p:
            chk.fail(label + ": engine reading fenbridge's X-FEN " + x, p, p, b)

    # 2d. X-FEN back to Shredder gives the engine's FEN again.
    again, _ = convert(chk, label, fenbridge, "shredder", xfen, " of X-FEN")
    for p, x, a in zip(positions, xfen, again):
        if a != p:
            chk.fail(label + ": --to=shredder of X-FEN " + x, p, p, a)

    # 3. Raw en-passant squares (see collect): fenbridge drops exactly
    #    the squares the engine drops.  --to=shredder copies the field as
    #    given; --to=xfen of R equals --to=xfen of P; and the engine itself
    #    reads R as P (it ignores a square no pawn can capture on).
    if raw:
        rfens = [r for r, _ in raw]
        rshred, _ = convert(chk, label, fenbridge, "shredder", rfens,
                            " of raw-ep FENs")
        for r, sh in zip(rfens, rshred):
            if sh != r:
                chk.fail(label + ": --to=shredder of raw-ep FEN", r, r, sh)
        rx, _ = convert(chk, label, fenbridge, "xfen", rfens,
                        " of raw-ep FENs")
        xof = dict(zip(positions, xfen))
        for (r, p), x in zip(raw, rx):
            if x != xof[p]:
                chk.fail(label + ": --to=xfen of raw-ep FEN (engine: " + p
                         + ")", r, xof[p], x)
        rback = engine.fens(["position fen " + r for r in rfens])
        for (r, p), b in zip(raw, rback):
            if b != p:
                chk.fail(label + ": engine reading a raw-ep FEN", r, p, b)
    stats["raw"] = len(raw)

    # 4. Every start reads KQkq in X-FEN.
    xs, _ = convert(chk, label, fenbridge, "xfen", starts, " of starts",
                    count=False)
    for s, x in zip(starts, xs):
        if x.split(" ")[2] != "KQkq":
            chk.fail(label + ": start position in X-FEN", s, "KQkq", x)
    return stats


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fenbridge")
    ap.add_argument("--seed", type=int, default=20240960)
    ap.add_argument("--n8", type=int, default=3000)
    ap.add_argument("--n10", type=int, default=1500)
    ap.add_argument("--stockfish", default=STOCKFISH)
    ap.add_argument("--fairy", default=FAIRY)
    args = ap.parse_args()

    for exe in (args.stockfish, args.fairy):
        if not os.access(exe, os.X_OK):
            print("diff_fen: %s not found, skipping" % exe)
            return SKIP
    assert scharnagl(518) == "RNBQKBNR"
    assert scharnagl(0) == "BBQNNRKR"

    t0 = time.monotonic()
    rng = random.Random(args.seed)
    chk = Checker()

    sf = Referee(8, stockfish=args.stockfish)
    try:
        pos8, starts8, raw8 = collect(
            sf, rng, args.n8, 8,
            lambda: random_start(scharnagl(rng.randrange(960)), rng))
        st8 = check_set("8x8 stockfish", args.fenbridge, sf, pos8, starts8,
                        raw8, chk)
    finally:
        sf.close()

    fy = Referee(10, fairy=args.fairy)
    try:
        pos10, starts10, raw10 = collect(
            fy, rng, args.n10, 10,
            lambda: random_start(caparandom_rank(rng), rng))
        st10 = check_set("10x8 fairy-stockfish", args.fenbridge, fy, pos10,
                         starts10, raw10, chk)
    finally:
        fy.close()

    for label, st, n in (("8x8", st8, len(pos8)), ("10x8", st10, len(pos10))):
        if st:
            print("diff_fen: %s: %d positions, %d with castling rights, "
                  "%d with an inner-rook right, %d with an en-passant square; "
                  "%d uncapturable en-passant squares dropped"
                  % (label, n, st["rights"], st["inner"], st["ep"],
                     st["raw"]))
    print("diff_fen: %d positions (8x8), %d (10x8), %d mismatches, %.1f s"
          % (len(pos8), len(pos10), chk.failures, time.monotonic() - t0))
    return 1 if chk.failures else 0


if __name__ == "__main__":
    sys.exit(main())
