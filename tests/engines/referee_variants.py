#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Short engine-against-engine games from random starts behind fenbridge
--referee=strict, for referee_games.py: Chess960, DFRC (each side its own
random back rank) and CRC (10x8 Capablanca random), each through a UCI GUI
and an XBoard GUI written here, with native and translated engines:
stockfish, fairy-stockfish (UCI and XBoard), sjaakii, toga2 and GNU Chess.

Each game is two fenbridge sessions of the same engine, one per colour,
driven as a GUI does: UCI `position fen START moves ...` and `go depth N`;
XBoard `new`, `variant`, `force`, `setboard`, `sd`, then the opponent's
moves as they come and `go` for the side on move. The GUI never judges a
move: the referee does. Engines without Chess960 (toga2, GNU Chess) play
Chess960 starts without castling rights, as normal chess. GNU Chess is
driven in XBoard by fenbridge's pair (a UCI GUI here): this GUI's own
XBoard session does not suit it (it takes no `sd`, and sends its features
one by one without `done=1`).

Usage (standalone): referee_variants.py FENBRIDGE
"""

import os
import random
import re
import select
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chesstest import (FAIRY, GAMES, GNUCHESS, STOCKFISH, TOGA,  # noqa: E402
                       WAIT, caparandom_rank, scharnagl, start_fen)

SJAAKII = GAMES + "/sjaakii"
# Sjaak II reads an uninitialised field under meson's MALLOC_PERTURB_
# (uci_xboard.py): it runs without it.
SJAAK = ["env", "-u", "MALLOC_PERTURB_", SJAAKII]
PLIES = 24
MOVE_RE = re.compile(r"^(?:move|My move is\s*:)\s+(\S+)")
FEATURE_RE = re.compile(r'(\w+)=("[^"]*"|\S+)')
END_RE = re.compile(r"^(?:1-0|0-1|1/2-1/2|resign|Illegal move|Error)")


def dfrc_start(rng):
    """A DFRC start: each side its own Chess960 back rank (Shredder-FEN
    castling field)."""
    w, b = scharnagl(rng.randrange(960)), scharnagl(rng.randrange(960))

    def rooks(rank):
        f = [chr(ord("a") + i) for i, p in enumerate(rank) if p == "R"]
        return f[1] + f[0]
    return "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w %s%s - 0 1" % (
        b.lower(), w, rooks(w).upper(), rooks(b))


# The fixed 10x8 variants with their own castling (fairy-stockfish's start
# positions, `d` after `position startpos`), and each one's start with
# the back rank cleared between king and rooks, so that games castle.
FIXED = {
    "janus": "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR"
             " w KQkq - 0 1",
    "embassy": "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR"
               " w KQkq - 0 1",
}
CASTLE_READY = {
    "janus": "r3k4r/pppppppppp/3j2q3/10/10/3J2Q3/PPPPPPPPPP/R3K4R"
             " w KQkq - 0 1",
    "embassy": "r3k4r/pppppppppp/3c2a3/10/10/3C2A3/PPPPPPPPPP/R3K4R"
               " w KQkq - 0 1",
}


def starts(rng, kind):
    if kind in FIXED:
        return FIXED[kind]
    if kind.endswith("-castle"):
        return CASTLE_READY[kind[:-len("-castle")]]
    if kind == "960":
        return start_fen(scharnagl(rng.randrange(960)))
    if kind == "dfrc":
        return dfrc_start(rng)
    if kind == "crc":
        return start_fen(caparandom_rank(rng))
    # A Chess960 start as normal chess: no castling rights
    return re.sub(r" w \S+ ", " w - ",
                  start_fen(scharnagl(rng.randrange(960))))


def variant_of(kind):
    """janus for the kinds janus and janus-castle."""
    return kind.split("-")[0]


class Session:
    """One fenbridge session (one colour of a game)."""

    def __init__(self, fb, argv, fbopts):
        self.p = subprocess.Popen([fb] + fbopts + ["--"] + argv,
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, bufsize=0)
        self.buf = b""

    def send(self, *lines):
        self.p.stdin.write("".join(x + "\n" for x in lines).encode())

    def line(self, deadline):
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer")
            r, _, _ = select.select([self.p.stdout], [], [], left)
            if r:
                data = os.read(self.p.stdout.fileno(), 65536)
                if not data:
                    raise EOFError("fenbridge ended")
                self.buf += data
        raw, self.buf = self.buf.split(b"\n", 1)
        return raw.decode("latin-1").rstrip("\r")

    def until(self, pred, timeout=20):
        deadline = time.monotonic() + timeout * WAIT
        while True:
            ln = self.line(deadline)
            if pred(ln):
                return ln

    def close(self, quit="quit"):
        try:
            self.send(quit)
            self.p.stdin.close()
        except OSError:
            pass
        try:
            return self.p.wait(15)
        except subprocess.TimeoutExpired:
            self.p.kill()
            return self.p.wait()


class UciGui:
    def __init__(self, fb, argv, fbopts, kind, depth):
        self.s = Session(fb, argv, fbopts)
        self.depth = depth
        s = self.s
        s.send("uci")
        s.until(lambda ln: ln == "uciok")
        if kind == "crc":
            s.send("setoption name UCI_Variant value caparandom")
        if variant_of(kind) in FIXED:
            s.send("setoption name UCI_Variant value " + variant_of(kind))
        if kind in ("960", "dfrc", "crc"):
            s.send("setoption name UCI_Chess960 value true")
        s.send("ucinewgame", "isready")
        s.until(lambda ln: ln == "readyok")

    def start(self, fen, white):
        self.fen = fen

    def play(self, moves):
        """The engine's move after moves, or None."""
        self.s.send("position fen %s%s" % (
            self.fen, " moves " + " ".join(moves) if moves else ""),
            "go depth %d" % self.depth)
        best = self.s.until(lambda ln: ln.startswith("bestmove")).split()
        if len(best) < 2 or best[1] in ("(none)", "0000"):
            return None
        return best[1]

    def told(self, move):
        pass

    def close(self):
        return self.s.close()


class XboardGui:
    def __init__(self, fb, argv, fbopts, kind, depth):
        self.s = Session(fb, argv, fbopts)
        self.kind = kind
        self.depth = depth
        self.s.send("xboard", "protover 2")
        self.usermove = False
        # Each feature accepted, as XBoard does. Every engine driven here
        # (Fairy-Stockfish, Sjaak II, fenbridge's pair for a UCI engine)
        # ends its features with `done=1`: waited for until it comes (a
        # deadline, scaled by FB_TEST_WAIT, only for a stall). XBoard's
        # 2 s without `done=0` are too short on a loaded machine:
        # Fairy-Stockfish, started 3 s late in a soak, got the moves
        # before its `usermove=1` and rejected them, and its move for the
        # wrong side reached the other session as the GUI's illegal move.
        deadline = time.monotonic() + 60 * WAIT
        while True:
            try:
                ln = self.s.line(deadline)
            except TimeoutError:
                break
            if not ln.startswith("feature "):
                continue
            for key, value in FEATURE_RE.findall(ln):
                if key == "done":
                    continue
                self.s.send("accepted " + key)
                if key == "usermove":
                    self.usermove = value == "1"
            if "done=1" in ln:
                break

    def start(self, fen, white):
        variant = {"960": "fischerandom", "dfrc": "fischerandom",
                   "crc": "caparandom"}.get(self.kind)
        if variant_of(self.kind) in FIXED:
            variant = variant_of(self.kind)
        self.s.send("new", *(["variant " + variant] if variant else []))
        self.s.send("force", "setboard " + fen, "sd %d" % self.depth,
                    "st 2", "post")
        self.white = white
        self.started = False

    def play(self, moves):
        if not self.started:
            self.s.send("go")
            self.started = True
        ln = self.s.until(lambda x: MOVE_RE.match(x) or END_RE.match(x))
        m = MOVE_RE.match(ln)
        return m.group(1) if m else None

    def told(self, move):
        """The opponent's move."""
        self.s.send("usermove " + move if self.usermove else move)

    def close(self):
        return self.s.close()


def play(fb, gui, argv, fbopts, kind, depth, fen, plies=PLIES, opening=()):
    """One game of argv against itself, after the GUI's own opening moves
    (told to both sides; an XBoard GUI's engine is in force mode): (the
    moves, exit statuses)."""
    sides = [gui(fb, argv, fbopts, kind, depth) for _ in range(2)]
    moves = list(opening)
    for i, g in enumerate(sides):
        g.start(fen, i == 0)
        for m in moves:
            g.told(m)
    try:
        for ply in range(len(moves), plies):
            g = sides[ply % 2]
            m = g.play(moves)
            if m is None:
                break
            moves.append(m)
            if ply + 1 < plies:
                sides[(ply + 1) % 2].told(m)
    except (TimeoutError, EOFError) as e:
        print("    %s: %s after %d plies" % (argv[-1], e, len(moves)))
    return moves, [g.close() for g in sides]


def game(fb, gui, argv, fbopts, kind, depth, fen, plies=PLIES):
    """One game of argv against itself: (plies played, exit statuses)."""
    moves, rcs = play(fb, gui, argv, fbopts, kind, depth, fen, plies)
    return len(moves), rcs


def pairings():
    """(label, GUI, engine argv, fenbridge options, kinds, depth)."""
    xb = ["--engine-protocol=xboard"]
    uci = ["--engine-protocol=uci"]
    return [
        ("stockfish uci", UciGui, [STOCKFISH], uci,
         ["960", "960", "dfrc", "dfrc"], 6),
        ("fairy-stockfish uci", UciGui, [FAIRY], uci,
         ["960", "dfrc", "crc", "crc", "crc"], 5),
        ("toga2 uci", UciGui, [TOGA], uci, ["plain", "plain"], 5),
        ("sjaakii (uci gui, xboard engine)", UciGui, SJAAK, xb,
         ["960", "dfrc", "crc", "crc"], 3),
        ("gnuchess (uci gui, xboard engine)", UciGui,
         [GNUCHESS, "--xboard"], xb, ["plain", "plain"], 3),
        ("fairy-stockfish (uci gui, xboard engine)", UciGui, [FAIRY], xb,
         ["crc"], 4),
        ("fairy-stockfish xboard", XboardGui, [FAIRY], xb,
         ["960", "dfrc", "crc", "crc"], 4),
        ("sjaakii xboard", XboardGui, SJAAK, xb,
         ["960", "dfrc", "crc", "crc"], 3),
        ("stockfish (xboard gui, uci engine)", XboardGui, [STOCKFISH], uci,
         ["960", "dfrc", "dfrc"], 6),
        ("toga2 (xboard gui, uci engine)", XboardGui, [TOGA], uci,
         ["plain"], 5),
    ]


def run(fb, seed=19):
    """Plays every pairing whose engine is installed: (games, sessions,
    [(label, statuses)] of sessions that did not exit 0 or 3)."""
    rng = random.Random(seed)
    games = sessions = 0
    statuses = []
    for label, gui, argv, fbopts, kinds, depth in pairings():
        if not os.access(argv[-1] if argv[0] == "env" else argv[0],
                         os.X_OK):
            print("  %s: not installed" % label)
            continue
        t0 = time.monotonic()
        plies = []
        for kind in kinds:
            n, rcs = game(fb, gui, argv, fbopts, kind, depth,
                          starts(rng, kind))
            games += 1
            sessions += 2
            plies.append("%s %d" % (kind, n))
            statuses += [(label, rc) for rc in rcs]
        print("  %s: %s (%.1f s)" % (label, ", ".join(plies),
                                     time.monotonic() - t0))
    return games, sessions, statuses


if __name__ == "__main__":
    tmp = tempfile.mkdtemp(prefix="fb-referee-variants-")
    out = os.path.join(tmp, "stderr.txt")
    wrap = os.path.join(tmp, "fenbridge")
    with open(wrap, "w") as f:
        f.write('#!/bin/sh\nexec "%s" --referee=strict "$@" 2>>"%s"\n'
                % (os.path.abspath(sys.argv[1]), out))
    os.chmod(wrap, 0o755)
    print(run(wrap))
    print("stderr in", out)
