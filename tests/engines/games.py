#!/usr/bin/env python3
"""Acceptance test: complete games through fenbridge against real engines.

Usage: games.py FENBRIDGE [--seed N] [--games N] [--plies N] [--jobs N]
                          [--only SUBSTRING] [--keep-logs] [--verbose]

A small test GUI, written here, plays whole games through the real
fenbridge binary (`fenbridge --log=... [OPTIONS] -- ENGINE`) against the
Debian engines in /usr/games.  It speaks ITS dialect (Shredder-FEN or
X-FEN) and ITS castling notation (king takes rook `e1h1`, or `O-O` in
XBoard), as a GUI of that kind would, and never looks at what fenbridge
sends to the engine (the log is only printed on a failure).

Referee.  A separate `stockfish` (UCI_Chess960 = true), for 10x8 a
`fairy-stockfish` (UCI_Variant caparandom, UCI_Chess960 = true), holds the
true game: `position fen <start Shredder-FEN> moves <all moves, castling as
king takes rook>`, `d` for the current Shredder-FEN (where the kings and
castling rooks are), `go perft 1` for the legal moves.

The GUI's moves: castling whenever it is legal (80 %), else mostly the
referee's own choice at depth 1-2 (so that games last and both sides get
to castle), else quiet moves that clear the back rank, else anything.  Most
games start with a "prelude" of 10-18 plies in which the GUI picks
developing moves for BOTH sides (sent in the `moves` list like any other),
so that the engine's side can castle early.  At a UCI engine turn where
castling is legal the GUI now and then sends `go depth N searchmoves
<castling moves>` (a user restricting the search), so that engines that
would rarely choose castling at low depth castle too; toga2 and gnuchess
ignore searchmoves, they castle on their own.  Now and then, mostly right
after a castling, the GUI takes back two plies (UCI: a shorter `position`
line; XBoard: `undo` twice, Fairy-Stockfish 11.1 has no `remove`).

Checks, every engine turn (the GUI is strict: castling in another notation
than its own is an illegal move):
  * `bestmove` / `move`, read in the GUI's notation, is in the referee's
    legal list; with searchmoves it is one of them;
  * the first move of every `info ... pv` and `currmove` is legal; the whole
    last pv (two moves or more) is playable move by move by the referee;
    the `ponder` move is legal in the position after the engine's move;
  * `d` before the search (fenbridge passes it through): stockfish and
    fairy-stockfish print `Fen: <Shredder-FEN>`, which must be the referee's
    FEN byte for byte; glaurung prints a FEN with K/Q/k/q flags, whose board,
    side to move and castling wings must match.  So the FEN and every
    castling move reached the engine as intended.
A game ends at mate or stalemate (no legal moves) or after --plies plies.

Pairings (each must finish every game with no illegal move, castling in two
games or more, by the GUI in one or more and by the engine in one or more):

  1. Chess960-mode UCI GUI (Shredder-FEN, KxR, `setoption name UCI_Chess960
     value true`) from the standard start, sent like python-chess (`position
     fen ... w HAha - 0 1 moves ...`) in odd games and as `position startpos
     moves ...` with KxR castling (Nibbler style) in even ones, vs toga2 and
     vs `gnuchess -u`, engines without Chess960 support; default options
     (fenbridge advertises UCI_Chess960 itself, sends KQkq and e1g1).
  2. X-FEN GUI (`KQkq`, KxR, UCI_Chess960 true) from random Chess960 starts
     vs glaurung with --engine-fen=shredder.
  3. XBoard GUI: `xboard`, `protover 2` (waits for `feature ... done=1`),
     per game `new`, `variant fischerandom`, `force`, `setboard
     <Shredder-FEN>`, `sd N`; its moves as `usermove M` (odd games) or bare
     (even games), castling as `O-O` / `O-O-O`, `ping` after each to catch
     an `Error` or `Illegal move` reply; `go` for the engine's move (`move
     M`, castling expected as O-O), then `force` again.  Against
     fairy-stockfish 11.1 in XBoard mode with --engine-castling=kxr.  Also
     the same in `variant caparandom` (10x8), which has no control.
  4. Chess960 UCI GUI (Shredder, KxR) vs stockfish, default options
     (stockfish gets X-FEN), from random Chess960 starts and from positions
     where the side to move can castle with an inner rook (the referee's own
     random games, steered as in diff_fen.py: a rook walks to the back rank
     beyond the other castling rook; X-FEN then writes a file letter like
     `Gkq`).
  5. caparandom (10x8) via fairy-stockfish (UCI, UCI_Variant caparandom,
     UCI_Chess960 true), random Capablanca-random starts and inner-rook
     positions, in both dialects: the GUI sends Shredder-FEN and fenbridge
     --engine-fen=xfen; the GUI sends X-FEN and --engine-fen=shredder.

Controls: for 1-3 the same GUI plays the same games with the engine alone
(no fenbridge), and the test asserts that this FAILS, so that fenbridge is
what makes each pairing work: toga2 and gnuchess exit with status 1 on
`HAha` (`board_from_fen(): bad FEN (pos=46)`); glaurung, given `KQkq` in a
Chess960 start whose rooks are not on a and h, silently drops the castling
rights (its `d` shows `-` where the referee has `HBhb`); fairy-stockfish
answers `usermove O-O` with `Error (unkown command): O-O` and writes its
own castling as king takes rook (`move e1f1`), which an XBoard GUI in
fischerandom does not read.

Output: per pairing a line like `toga2 (960 GUI, std start): 8 games, 0
illegal, castled in 6 (gui 6, engine 3)` and a detail line, per control a
line, then `N passed, M failed`.  On a failure: the game's last moves, the
GUI's last lines and the tail of fenbridge's --log (kept in a temp dir).
A pairing listed in KNOWN_FAILURES is run and reported but neither passes
nor fails the suite.  Exit status: 0 pass, 1 failure, 77 (skip) when no
engine is installed; pairings whose engine or referee is missing are
skipped.  Fixed seed and fixed-depth searches: the games are the same on
every run.
"""

import argparse
import collections
import concurrent.futures
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time
import zlib

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chesstest  # noqa: E402
from chesstest import (FAIRY, GLAURUNG, GNUCHESS, SKIP,  # noqa: E402
                       STOCKFISH, TOGA, XBOARD_DONE, EngineError,
                       caparandom_rank, fens_in, outer_rook, parse_board,
                       rook_walk, scharnagl, sq, sqname, squares_beyond,
                       start_fen)

STANDARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"

# Known fenbridge failures: pairing label -> why.  A pairing listed here is
# run and reported, but neither counted as passed nor failing the suite.
KNOWN_FAILURES = {}


class GameOver(Exception):
    """The engine resigned or claimed a result instead of moving."""


class GameError(Exception):
    """The game cannot go on: an illegal move, a rejected move, a wrong
    position in the engine.  (An engine that exited or hangs raises
    chesstest.EngineError, which ends the game the same way.)"""


# ---------------------------------------------------------------- boards

class Pos:
    """A Shredder-FEN from the referee, with what the GUI needs to know:
    the board, the side to move, the castling rooks."""

    def __init__(self, fen):
        self.fen = fen
        f = fen.split(" ")
        self.board = parse_board(f[0])
        self.width = len(self.board[0])
        self.stm = f[1]
        self.castling = f[2]

    @staticmethod
    def back(colour):
        return 0 if colour == "w" else 7

    def own(self, colour, piece):
        return piece.upper() if colour == "w" else piece.lower()

    def king_file(self, colour):
        row = self.board[self.back(colour)]
        k = self.own(colour, "K")
        return row.index(k) if k in row else None

    def rights(self, colour):
        """{'h'|'a': rook file} of colour's castling rights."""
        out = {}
        kf = self.king_file(colour)
        for c in self.castling:
            if c == "-" or (c.isupper() != (colour == "w")) or kf is None:
                continue
            x = ord(c.lower()) - ord("a")
            out["h" if x > kf else "a"] = x
        return out

    def castle_wing(self, move):
        """'h' or 'a' when move (KxR notation) is a castling move of the
        side to move, else None."""
        if len(move) != 4:
            return None
        (ff, fr), (tf, tr) = sq(move[:2]), sq(move[2:])
        back = self.back(self.stm)
        if fr != back or tr != back:
            return None
        if self.board[fr][ff] != self.own(self.stm, "K") or \
                self.board[tr][tf] != self.own(self.stm, "R"):
            return None
        return "h" if tf > ff else "a"

    def inner_castle(self, move):
        """True when castling move (KxR) castles with an inner rook."""
        (tf, tr) = sq(move[2:])
        return outer_rook(self.board[tr], tf, sq(move[:2])[0],
                          self.own(self.stm, "R"))

    def inner_right(self):
        """True when a castling rook has another own rook further out on
        its wing of the back rank (X-FEN writes its file letter)."""
        return any(outer_rook(self.board[self.back(colour)], x,
                              self.king_file(colour), self.own(colour, "R"))
                   for colour in "wb" for x in self.rights(colour).values())

    def xfen(self):
        """This FEN in X-FEN: K/Q/k/q for an outermost castling rook, the
        file letter for an inner one (written here independently of
        fenbridge)."""
        out = []
        for colour in "wb":
            row = self.board[self.back(colour)]
            for wing in "ha":
                x = self.rights(colour).get(wing)
                if x is None:
                    continue
                if outer_rook(row, x, self.king_file(colour),
                              self.own(colour, "R")):
                    letter = chr(ord("a") + x)
                else:
                    letter = "k" if wing == "h" else "q"
                out.append(letter.upper() if colour == "w" else letter)
        f = self.fen.split(" ")
        f[2] = "".join(out) or "-"
        return " ".join(f)


def ply_number(fen):
    f = fen.split()
    return (int(f[5]) - 1) * 2 + (f[1] == "b")


def to_notation(move, pos, notation):
    """The referee's move (KxR) in a GUI's castling notation."""
    wing = pos.castle_wing(move)
    if wing is None or notation == "kxr":
        return move
    if notation == "oo":
        return "O-O" if wing == "h" else "O-O-O"
    dest = pos.width - 2 if wing == "h" else 2          # "king"
    return move[:2] + chr(ord("a") + dest) + move[3]


def from_notation(token, pos, legal, notation):
    """A move written by the engine side (as the GUI reads it) -> the
    referee's KxR move; raises GameError when it is illegal or a castling
    move is not in the GUI's notation."""
    if token in ("O-O", "O-O-O"):
        if notation != "oo":
            raise GameError("castling written as %s, but this GUI reads "
                            "castling as %s" % (token, notation))
        x = pos.rights(pos.stm).get("h" if token == "O-O" else "a")
        kf = pos.king_file(pos.stm)
        if x is None or kf is None:
            raise GameError("illegal move %s: no such castling right"
                            % token)
        back = pos.back(pos.stm)
        move = sqname(kf, back) + sqname(x, back)
        if move not in legal:
            raise GameError("illegal move %s (= %s)" % (token, move))
        return move
    if token in legal:
        if pos.castle_wing(token) is not None and notation != "kxr":
            raise GameError("castling written as king takes rook %s, but "
                            "this GUI reads castling as %s"
                            % (token, notation))
        return token
    if notation == "king":
        for m in legal:
            if pos.castle_wing(m) and to_notation(m, pos, "king") == token:
                return m
    raise GameError("illegal move %s" % token)


# ---------------------------------------------------------------- choosing

def choose(rng, pos, legal, prelude, best, p_castle=0.8):
    """The GUI's move: castling when legal (mostly); else half of the time
    the referee's own choice at depth 1-2 (`best()`, so that games last and
    both sides get to castle), else quiet moves that clear the back rank
    and keep the castling rooks and king at home, else anything.  In the
    prelude (moves chosen for both sides before the engine takes over)
    never castle and only develop: pieces off the back rank, pawns."""
    castles = [m for m in legal if pos.castle_wing(m)]
    if castles and not prelude and rng.random() < p_castle:
        return rng.choice(castles)
    back = pos.back(pos.stm)
    keep = set(pos.rights(pos.stm).values())
    develop, pawns, safe = [], [], []
    for m in legal:
        if m in castles:
            continue
        (ff, fr), (tf, tr) = sq(m[:2]), sq(m[2:4])
        p = pos.board[fr][ff].upper()
        if p == "K" or (p == "R" and fr == back and ff in keep):
            continue
        safe.append(m)
        if pos.board[tr][tf] is not None:
            continue
        if fr == back and tr != back and p != "Q":
            develop.append(m)
        elif p == "P" and 0 < ff < pos.width - 1:
            pawns.append(m)
    r = rng.random()
    if prelude:
        if develop and r < 0.6:
            return rng.choice(develop)
        return rng.choice(pawns or develop or safe or legal)
    if r < 0.7:
        m = best()
        if m in legal:
            return m
    if develop and r < 0.8:
        return rng.choice(develop)
    if safe and r < 0.95:
        return rng.choice(safe)
    return rng.choice(legal)


def steer(rng, pos, legal):
    """A move toward an inner-rook right: some rook of the side to move
    walks to the back rank beyond one of its castling rooks, while the king
    and that castling rook stay at home."""
    board, width = pos.board, pos.width
    back = pos.back(pos.stm)
    own = "PNBRQKAC" if pos.stm == "w" else "pnbrqkac"
    rook = own[3]
    rights = set(pos.rights(pos.stm).values())  # none without a king
    kf = pos.king_file(pos.stm)
    targets = squares_beyond(rights, kf, back, width)
    files = {f for (f, _) in targets}
    for r in range(8):
        files |= {i for i in range(width) if board[r][i] == rook}

    outer, walk, opening, other = [], [], [], []
    for m in legal:
        (ff, fr), (tf, tr) = sq(m[:2]), sq(m[2:4])
        piece = board[fr][ff]
        if piece == own[5]:
            continue                    # no king moves, no castling
        if piece == rook:
            rest = rights - {ff} if fr == back else rights
            t = squares_beyond(rest, kf, back, width)
            if (tf, tr) in t:
                outer.append(m)
                continue
            if t:
                d = rook_walk(board, m, t, own)
                if d is not None:
                    walk.append((d, m))
        if rights and ((piece == own[0] and ff in files)
                       or (ff, fr) in targets):
            opening.append(m)
        other.append(m)
    r = rng.random()
    if outer and r < 0.95:
        return rng.choice(outer)
    if walk and r < 0.7:
        best = min(d for d, _ in walk)
        return rng.choice([m for d, m in walk if d == best])
    if opening and r < 0.85:
        return rng.choice(opening)
    return rng.choice(other or legal)


# ---------------------------------------------------------------- referee

class Referee(chesstest.Referee):
    """The true game: the position and the legal moves (step), and what
    else the GUI asks of it."""

    def plies_after(self, start, moves):
        """How many of moves the referee could play from start: Stockfish
        stops reading a `moves` list at the first illegal move, so the
        ply count of its Fen tells where that was."""
        fen = self.fen("position fen %s moves %s" % (start, " ".join(moves)))
        return ply_number(fen) - ply_number(start)

    def best(self, depth):
        """The referee's move at depth in the position of the last step."""
        self.send("go depth %d" % depth)
        t = self.wait_for(r"^bestmove", 20)[-1].split()
        return t[1] if len(t) > 1 else None


# ---------------------------------------------------------------- GUIs

GLAURUNG_FEN_RE = re.compile(r"^[1-8pnbrqkPNBRQK/]+ [wb] \S+ \S+$")


def check_d(kind, lines, pos):
    """The engine's answer to `d` must show the referee's position.
    "fen": stockfish and fairy-stockfish print `Fen: <Shredder-FEN>`, which
    must be the referee's FEN byte for byte.  "glaurung": Glaurung prints
    a 4-field FEN with its castling rights as K/Q/k/q flags; the board, the
    side to move and which wings still have a right must match."""
    if kind == "fen":
        seen = fens_in(lines)
        if seen != [pos.fen]:
            raise GameError("engine's position (d) is %s, the referee's %s"
                            % (seen, pos.fen))
        return
    seen = [l for l in lines if GLAURUNG_FEN_RE.match(l)]
    flags = "".join(
        (c.upper() if colour == "w" else c)
        for colour in "wb" for wing, c in (("h", "k"), ("a", "q"))
        if wing in pos.rights(colour)) or "-"
    f = pos.fen.split(" ")
    want = "%s %s %s" % (f[0], f[1], flags)
    if len(seen) != 1 or " ".join(seen[0].split(" ")[:3]) != want:
        raise GameError("engine's position (d) is %s, the referee's %s "
                        "(castling flags %s)" % (seen, pos.fen, flags))


class UciGui:
    """A UCI GUI: Shredder-FEN or X-FEN, castling as king takes rook,
    UCI_Chess960 true (set right before the first position)."""

    def __init__(self, proc, cfg):
        self.proc, self.cfg = proc, cfg
        variant = [("UCI_Variant", cfg["variant"])] if cfg.get("variant") \
            else []
        lines = proc.uci(cfg["options"] + variant + [("UCI_Chess960", "true")],
                         timeout=20)
        # python-chess refuses a Chess960 board with an engine that has no
        # UCI_Chess960 option; this GUI notes it and goes on (the control
        # runs would stop here otherwise).
        self.has_960 = any(l.startswith("option name UCI_Chess960 ")
                           for l in lines)

    ponder = None
    games = 0
    pv = []

    def new_game(self, start_pos):
        self.ponder = None
        self.start = "fen " + (start_pos.xfen()
                               if self.cfg["dialect"] == "xfen"
                               else start_pos.fen)
        # Every other game from the standard start goes as `startpos`
        # (with king-takes-rook castling, as Nibbler and some match tools
        # send it); the others as python-chess does: a FEN with HAha.
        self.games += 1
        if self.cfg.get("startpos") and start_pos.fen == STANDARD and \
                self.games % 2 == 0:
            self.start = "startpos"
        self.moves = []
        self.proc.send("ucinewgame")
        self.proc.sync(20)

    def gui_move(self, move, pos):
        self.moves.append(to_notation(move, pos, "kxr"))

    def takeback(self, n):
        del self.moves[-n:]
        self.ponder = None

    def engine_move(self, pos, legal, depth, only=None):
        cmd = "position " + self.start
        if self.moves:
            cmd += " moves " + " ".join(self.moves)
        self.proc.send(cmd)
        if self.cfg.get("dcheck"):
            self.proc.send("d")
            check_d(self.cfg["dcheck"], self.proc.sync(20), pos)
        go = "go depth %d" % depth
        if only:
            go += " searchmoves " + " ".join(to_notation(m, pos, "kxr")
                                             for m in only)
        self.proc.send(go)
        lines = self.proc.wait_for(lambda l: l.startswith("bestmove"), 30)
        self.pv = []
        for line in lines[:-1]:
            t = line.split()
            if not t or t[0] != "info" or "string" in t:
                continue
            if "pv" in t:
                self.pv = t[t.index("pv") + 1:]
            for key in ("pv", "currmove"):
                if key in t and t.index(key) + 1 < len(t):
                    first = t[t.index(key) + 1]
                    try:
                        from_notation(first, pos, legal, "kxr")
                    except GameError as e:
                        raise GameError("in '%s': %s" % (line, e))
        t = lines[-1].split()
        if len(t) < 2:
            raise GameError("bestmove without a move: " + lines[-1])
        move = from_notation(t[1], pos, legal, "kxr")
        if only and move not in only:
            raise GameError("'%s' answered with %s, not one of the "
                            "searchmoves" % (go, t[1]))
        self.moves.append(t[1])
        # The ponder move is checked in the next position (the GUI's).
        self.ponder = t[3] if len(t) >= 4 and t[2] == "ponder" else None
        return move


class XboardGui:
    """An XBoard GUI in variant fischerandom (or cfg xvariant, e.g.
    caparandom): setboard with Shredder-FEN, castling written and read as
    O-O / O-O-O."""

    ERROR_RE = re.compile(r"^(Error|Illegal move)")
    ponder = None
    pv = []

    def __init__(self, proc, cfg):
        self.proc, self.cfg = proc, cfg
        proc.send("xboard", "protover 2")
        lines = proc.wait_for(XBOARD_DONE, 10)
        feats = " ".join(l for l in lines if l.startswith("feature"))
        for need in ("setboard=1", "usermove=1", "ping=1"):
            if need not in feats.split():
                raise GameError("engine lacks feature " + need)

    def sync(self, what):
        """ping/pong; an Error or Illegal move reply before pong fails."""
        lines = self.proc.ping(20)
        bad = [l for l in lines if self.ERROR_RE.match(l)]
        if bad:
            raise GameError("engine rejected %s: %s" % (what, bad[0]))
        return lines

    def new_game(self, start_pos):
        # Moves go as `usermove M` in odd games, bare in even ones (both
        # are CECP; Fairy-Stockfish takes both).
        self.games = getattr(self, "games", 0) + 1
        self.prefix = "usermove " if self.games % 2 else ""
        self.proc.send("new")
        self.proc.send("variant " + self.cfg.get("xvariant", "fischerandom"))
        self.proc.send("force")
        self.proc.send("setboard " + start_pos.fen)
        self.proc.send("sd %d" % self.cfg.get("sd", 2))
        self.sync("setboard " + start_pos.fen)

    def takeback(self, n):
        for _ in range(n):
            self.proc.send("undo")
        self.sync("undo")

    def gui_move(self, move, pos):
        m = to_notation(move, pos, "oo")
        self.proc.send(self.prefix + m)
        self.sync(self.prefix + m)

    def engine_move(self, pos, legal, depth, only=None):
        if self.cfg.get("dcheck"):
            self.proc.send("d")
            check_d(self.cfg["dcheck"], self.sync("d"), pos)
        self.proc.send("sd %d" % depth)
        self.proc.send("go")
        lines = self.proc.wait_for(
            lambda l: l.startswith("move ") or self.ERROR_RE.match(l)
            or l.startswith("resign") or re.match(r"^(1-0|0-1|1/2-1/2)", l),
            30)
        self.proc.send("force")
        t = lines[-1].split()
        if t[0] == "resign" or re.match(r"^(1-0|0-1|1/2-1/2)", t[0]):
            raise GameOver("engine: " + lines[-1])
        if t[0] != "move" or len(t) < 2:
            raise GameError("engine answered go with: " + lines[-1])
        return from_notation(t[1], pos, legal, "oo")


# ---------------------------------------------------------------- games

def play_game(gui, ref, cfg, start, rng, stats, trace):
    """One game; GameError ends it (and the run of the pairing).

    Now and then, mostly right after a castling, the GUI takes back the
    last two plies (UCI: a shorter `position` line; XBoard: `undo` twice,
    Fairy-Stockfish 11.1 has no `remove`) and the game goes on from there,
    so that fenbridge must restore the castling rights it followed."""
    start_pos = Pos(start)
    gui.new_game(start_pos)
    gui_colour = rng.choice("wb")
    if cfg.get("gui_first"):
        gui_colour = start_pos.stm      # the game opens with a GUI move
    prelude = rng.choice(cfg.get("preludes", [0, 10, 14, 18]))
    if start_pos.inner_right():
        prelude = 0     # an inner-rook castling is legal right now
    moves, plays = [], []       # plays: (who, castling?, inner rook?)
    trace[:] = ["start %s, GUI plays %s, prelude %d" %
                (start, "white" if gui_colour == "w" else "black", prelude)]
    end = "ply limit"
    chances = 0     # engine turns with a legal castling move
    takebacks = 0
    for _ in range(cfg["plies"] + 8):
        ply = len(moves)
        if ply >= cfg["plies"]:
            break
        fen, legal = ref.step(start, moves)
        if not legal:
            end = "no legal moves"
            break
        pos = Pos(fen)
        if gui.ponder:
            try:
                from_notation(gui.ponder, pos, legal, "kxr")
            except GameError as e:
                raise GameError("ponder move: %s" % e)
            gui.ponder = None
        if ply < prelude or pos.stm == gui_colour:
            if ply >= prelude + 2 and takebacks < 2 and rng.random() < (
                    0.5 if any(c for _, c, _ in plays[-2:]) else 0.02):
                takebacks += 1
                stats["takebacks"] += 1
                stats["castles_taken_back"] += sum(c for _, c, _ in
                                                   plays[-2:])
                gui.takeback(2)
                del moves[-2:], plays[-2:]
                trace.append("   takeback 2 plies")
                continue
            move = choose(rng, pos, legal, ply < prelude,
                          lambda: ref.best(rng.choice((1, 2))))
            who = "gui" if pos.stm == gui_colour else "prelude"
            gui.gui_move(move, pos)
        else:
            castles = [m for m in legal if pos.castle_wing(m)]
            only = None
            who = "engine"
            if castles:
                chances += 1
                # Now and then the user restricts the search to castling
                # (UCI `go searchmoves`), so that the engine castles in
                # games where its own choice would be another move.
                if cfg["protocol"] == "uci" and \
                        not any(w.startswith("engine") and c
                                for w, c, _ in plays) \
                        and rng.random() < cfg.get("p_searchmoves", 0.25):
                    only = castles
                    who = "engine-sm"
            try:
                move = gui.engine_move(pos, legal, rng.choice(cfg["depths"]),
                                       only)
            except GameOver as e:
                end = str(e)
                break
            # The engine's last pv, as the GUI got it (castling as king
            # takes rook), must be playable move by move from here.
            if len(gui.pv) >= 2:
                n = ref.plies_after(start, moves + gui.pv)
                if n != len(moves) + len(gui.pv):
                    raise GameError("pv %s: move %d (%s) is illegal" % (
                        " ".join(gui.pv), n - len(moves) + 1,
                        gui.pv[n - len(moves)]))
                stats["pvs"] += 1
        castle = pos.castle_wing(move) is not None
        plays.append((who, castle, castle and pos.inner_castle(move)))
        moves.append(move)
        trace.append("%d. %s %s" % (ply + 1, who, move))
    gui_c = any(c for w, c, _ in plays if w == "gui")
    eng_c = any(c for w, c, _ in plays if w.startswith("engine"))
    stats["games"] += 1
    stats["plies"] += len(moves)
    stats["castled"] += gui_c or eng_c
    stats["gui"] += gui_c
    stats["engine"] += eng_c
    stats["forced"] += any(c for w, c, _ in plays if w == "engine-sm")
    stats["inner"] += sum(i for _, _, i in plays)
    stats["ends"][end] += 1
    stats["chances"] += chances
    if cfg.get("verbose"):
        print("    game: %s, prelude %d, %d plies, %s, castled gui %s engine "
              "%s (could castle on %d turns)"
              % (start, prelude, len(moves), end, gui_c, eng_c, chances))
        print("      " + " ".join(t.split(" ", 2)[-1] for t in trace[1:]))


def run_games(argv, label, cfg, starts, seed, log=None):
    """Plays every start through argv with a fresh referee; returns
    (stats, error message or None, report lines)."""
    rng = random.Random(seed)
    stats = {"games": 0, "plies": 0, "castled": 0, "gui": 0, "engine": 0,
             "chances": 0, "forced": 0, "inner": 0, "takebacks": 0,
             "castles_taken_back": 0, "pvs": 0,
             "ends": collections.Counter()}
    trace = []
    ref = proc = None
    try:
        ref = Referee(cfg.get("width", 8))
        proc = chesstest.Engine(argv, label)
        gui = (XboardGui if cfg["protocol"] == "xboard" else UciGui)(proc,
                                                                      cfg)
        stats["has_960"] = getattr(gui, "has_960", None)
        for start in starts:
            play_game(gui, ref, cfg, start, rng, stats, trace)
        return stats, None, []
    except (GameError, EngineError) as e:
        game = "  game %d: " % (stats["games"] + 1)
        report = [game + t for t in trace[:1] + trace[1:][-12:]]
        report.append(game + "all moves (KxR, 'undo' = takeback): " + " ".join(
            t.split()[-1] if "takeback" not in t else "undo"
            for t in trace[1:]))
        if proc:
            report.append("  last lines of the GUI's pipe:")
            report.append(proc.tail(14, "    "))
        if log and os.path.exists(log):
            with open(log, errors="replace") as f:
                tail = f.read().splitlines()[-25:]
            report.append("  tail of fenbridge --log %s:" % log)
            report += ["    " + l for l in tail]
        return stats, str(e), report
    finally:
        if proc is not None:
            proc.close()
        if ref is not None:
            ref.close()


# ---------------------------------------------------------------- pairings

def random_960_starts(rng, n, standard_ok=False):
    out = []
    while len(out) < n:
        k = rng.randrange(960)
        if k != 518 or standard_ok:
            out.append(start_fen(scharnagl(k)))
    return out


def inner_rook_starts(rng, n, width):
    """Positions in which the side to move can castle with an inner rook
    (one with another own rook further out on its wing), from the
    referee's own random games: steer() until an inner-rook right exists,
    then developing moves that keep it until that castling is legal.  Each
    is the referee's Shredder-FEN."""
    ref = Referee(width)
    out = []
    try:
        for _ in range(60):
            if len(out) >= n:
                break
            rank = scharnagl(rng.randrange(960)) if width == 8 \
                else caparandom_rank(rng)
            # Each step from the last FEN alone: no ever longer move list.
            fen, legal = ref.step(start_fen(rank), [])
            for _ in range(160):
                if not legal:
                    break
                pos = Pos(fen)
                if any(pos.castle_wing(m) and pos.inner_castle(m)
                       for m in legal):
                    out.append(fen)
                    break
                if pos.inner_right():
                    m = choose(rng, pos, legal, True, None)
                else:
                    m = steer(rng, pos, legal)
                fen, legal = ref.step(fen, [m])
    finally:
        ref.close()
    return out


def pairings(args):
    """The pairings in the order printed: label, engine executable and argv,
    fenbridge options, GUI config, starts (a key and a function of an rng:
    computed when the pairing runs, with an rng seeded from --seed and the
    key, so --only does not change the games), control (what the run
    without fenbridge shows, or None)."""
    n = args.games
    common = {"plies": args.plies, "verbose": args.verbose,
              "depths": [1, 2, 3]}
    out = []

    def add(label, exe, argv, fbopts, cfg, starts, control=None):
        out.append({"label": label, "exe": exe, "argv": argv,
                    "fb": fbopts, "cfg": dict(common, **cfg),
                    "starts": starts, "control": control})

    std = ("std", lambda rng: [STANDARD] * n)
    # toga2 and gnuchess ignore `go searchmoves` (and `go nodes`): they
    # castle on their own or not at all.
    add("toga2 (960 GUI, std start)", TOGA, [TOGA], [],
        {"protocol": "uci", "dialect": "shredder", "p_searchmoves": 0,
         "depths": [2, 3, 4], "startpos": True,
         "options": [("Hash", "16"), ("OwnBook", "false")]},
        std, "toga2 exits with status 1 on HAha")
    add("gnuchess -u (960 GUI, std start)", GNUCHESS, [GNUCHESS, "-u"], [],
        {"protocol": "uci", "dialect": "shredder", "p_searchmoves": 0,
         "depths": [2, 3, 4], "startpos": True,
         "options": [("Hash", "16"), ("OwnBook", "false")]},
        std, "gnuchess exits with status 1 on HAha")
    add("glaurung (X-FEN GUI, 960 starts)", GLAURUNG, [GLAURUNG],
        ["--engine-fen=shredder"],
        {"protocol": "uci", "dialect": "xfen", "dcheck": "glaurung",
         "options": [("Threads", "1"), ("OwnBook", "false")]},
        ("960 glaurung", lambda rng: random_960_starts(rng, n)),
        "glaurung misreads KQkq")
    # Fairy-Stockfish's own choice at depth 1-3 is rarely castling; deeper
    # it castles in XBoard games too (there is no searchmoves in CECP).
    add("fairy-stockfish xboard (O-O GUI, 960 starts)", FAIRY, [FAIRY],
        ["--engine-castling=kxr"],
        {"protocol": "xboard", "dcheck": "fen", "depths": [4, 5, 6]},
        ("960 xboard", lambda rng: random_960_starts(rng, n)),
        "fairy-stockfish rejects O-O")
    add("stockfish (960 GUI, 960 + inner-rook starts)", STOCKFISH,
        [STOCKFISH], [],
        {"protocol": "uci", "dialect": "shredder", "dcheck": "fen",
         "options": [("Threads", "1")]},
        ("960 inner", lambda rng: random_960_starts(rng, n - n // 2) +
         inner_rook_starts(rng, n // 2, 8)))

    def capa(rng):
        k = max(1, n // 3)
        return [start_fen(caparandom_rank(rng)) for _ in range(n - k)] + \
            inner_rook_starts(rng, k, 10)

    add("fairy-stockfish xboard caparandom (O-O GUI)", FAIRY, [FAIRY],
        ["--engine-castling=kxr"],
        {"protocol": "xboard", "dcheck": "fen", "width": 10,
         "xvariant": "caparandom", "depths": [4, 5, 6]},
        ("capa", capa))
    for dialect, engine_fen in (("shredder", "xfen"), ("xfen", "shredder")):
        # Both dialects play the same starts (the same key).
        add("fairy-stockfish caparandom (%s GUI, --engine-fen=%s)"
            % ("Shredder" if dialect == "shredder" else "X-FEN", engine_fen),
            FAIRY, [FAIRY], ["--engine-fen=" + engine_fen],
            {"protocol": "uci", "dialect": dialect, "dcheck": "fen",
             "width": 10, "variant": "caparandom",
             "options": [("Threads", "1")]},
            ("capa", capa))
    return out


_starts_cache = {}
_starts_lock = threading.Lock()


def starts_for(p, seed):
    """The pairing's starts, computed once per key."""
    key, make = p["starts"]
    with _starts_lock:
        if key not in _starts_cache:
            _starts_cache[key] = make(random.Random("%d %s" % (seed, key)))
        return _starts_cache[key]


def run_pairing(fenbridge, p, seed, logdir, index):
    """-> list of (ok, known, lines) checks: the pairing, its control."""
    results = []
    log = os.path.join(logdir, "pairing%d.log" % index)
    argv = [fenbridge, "--log=" + log, "--grace=2"] + p["fb"] + ["--"] + \
        p["argv"]
    t0 = time.monotonic()
    try:
        starts = starts_for(p, seed)
    except (GameError, EngineError) as e:
        return [(False, False, ["%s: FAIL: no start positions: %s"
                                % (p["label"], e)])]
    t_starts = time.monotonic() - t0
    seed += zlib.crc32(p["label"].encode())
    stats, err, report = run_games(argv, "fenbridge+" +
                                   os.path.basename(p["exe"]), p["cfg"],
                                   starts, seed, log)
    st = stats
    line = "%s: %d games, %d illegal, castled in %d (gui %d, engine %d%s)" % (
        p["label"], st["games"], 1 if err else 0, st["castled"], st["gui"],
        st["engine"], ", %d of them with go searchmoves" % st["forced"]
        if st["forced"] else "")
    detail = ("  %d plies, %d castlings with an inner rook, %d takebacks "
              "(undoing %d castlings), %d pvs checked, ends: %s, %.1f s "
              "(%.1f s to find the starts)") % (
        st["plies"], st["inner"], st["takebacks"], st["castles_taken_back"],
        st["pvs"], ", ".join("%s %d" % kv for kv in
                               sorted(st["ends"].items())) or "-",
        time.monotonic() - t0, t_starts)
    problems = []
    if err:
        problems.append("game %d: %s" % (st["games"] + 1, err))
    else:
        if st["castled"] < 2:
            problems.append("castling in fewer than 2 games")
        if st["gui"] < 1 or st["engine"] < 1:
            problems.append("castling not played by both the GUI and the "
                            "engine")
    known = KNOWN_FAILURES.get(p["label"])
    lines = [line, detail]
    if problems:
        lines += ["  FAIL: " + x for x in problems] + report
        if known:
            lines.append("  KNOWN FAILURE (not counted): " + known)
    results.append((not problems, bool(known and problems), lines))

    if p["control"]:
        # The same GUI and games with the engine alone.
        stats, err, _ = run_games(p["argv"], os.path.basename(p["exe"]),
                                  p["cfg"], starts, seed)
        if err:
            note = ""
            if stats.get("has_960") is False:
                note = " (and it advertises no UCI_Chess960: python-chess " \
                       "would not even start a Chess960 game)"
            results.append((True, False, [
                "  control without fenbridge: fails as expected in game "
                "%d: %s%s" % (stats["games"] + 1, err, note)]))
        else:
            results.append((False, False, [
                "  control without fenbridge: FAIL: expected a failure (%s),"
                " but %d games went through (castled in %d)"
                % (p["control"], stats["games"], stats["castled"])]))
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fenbridge")
    ap.add_argument("--seed", type=int, default=960)
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--plies", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--keep-logs", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    fenbridge = os.path.abspath(args.fenbridge)
    if not os.access(fenbridge, os.X_OK):
        print("games: %s is not executable" % fenbridge)
        return 1
    assert scharnagl(518) == "RNBQKBNR" and scharnagl(0) == "BBQNNRKR"
    t0 = time.monotonic()
    todo, skipped = [], []
    for p in pairings(args):
        if args.only and args.only not in p["label"]:
            continue
        need = [p["exe"], STOCKFISH if p["cfg"].get("width", 8) == 8
                else FAIRY]
        missing = [e for e in need if not os.access(e, os.X_OK)]
        (skipped if missing else todo).append((p, sorted(set(missing))))
    for p, missing in skipped:
        print("%s: skipped, %s not installed" % (p["label"],
                                                 ", ".join(missing)))
    if not todo:
        print("games: no engine found, skipping")
        return SKIP

    logdir = tempfile.mkdtemp(prefix="fenbridge-games-")
    passed = failed = known = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = [pool.submit(run_pairing, fenbridge, p, args.seed, logdir, i)
                for i, (p, _) in enumerate(todo)]
        for fut in futs:
            for ok, is_known, lines in fut.result():
                print("\n".join(lines))
                if is_known:
                    known += 1
                elif ok:
                    passed += 1
                else:
                    failed += 1
            sys.stdout.flush()
    if args.keep_logs or failed:
        print("logs kept in " + logdir)
    else:
        shutil.rmtree(logdir, ignore_errors=True)
    print("games: %.1f s%s" % (time.monotonic() - t0,
                              ", %d known failure(s)" % known if known
                              else ""))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
