#!/usr/bin/env python3
"""Match harness: refereed Chess960 games as match runners play them.

Usage: match.py FENBRIDGE [--seed N] [--games N] [--jobs N] [--plies N]
                          [--only SUBSTRING] [--no-controls] [--keep-logs]
                          [--verbose] [--crash STATE]

Default: 6 games per pairing (3 starts x 2 colours), 2 jobs: about 2-2.5
minutes on the 2-core development machine.

games.py plays through fenbridge as a test GUI that steers games toward
castling.  This script instead plays what cutechess-cli and fastchess play
(see protocols.md, "What real clients showed"): stockfish, run directly
(UCI, `setoption name UCI_Chess960 value true`), against an engine behind
fenbridge with DEFAULT settings (`fenbridge --log=FILE -- ENGINE [ARGS]`,
nothing else), from random Chess960 starts (seeded), each start played
twice with colours reversed, every move chosen by the engines themselves.

How each side is spoken to (as cutechess-cli does):

  * UCI: `uci`; `setoption name UCI_Chess960 value true` only if the engine
    advertised the option (a real runner refuses a UCI engine without it for
    Chess960: the bridge advertises it for toga2 / gnuchess; the controls
    go on without it to show what would happen), `Threads 1` and `Hash 16`
    when advertised; per game `ucinewgame`, `isready`; per move `position
    fen <Shredder-FEN start> moves <every move, castling as king takes rook>`
    and `go depth N`; the answer is `bestmove`, castling read as king takes
    rook only.
  * XBoard: `xboard`, `protover 2`, `feature ... done=1` awaited and every
    feature `accepted`; the engine must list fischerandom in variants; per
    game `new`, `variant fischerandom`, `force`, `setboard <X-FEN start>`,
    `sd N`, `ping`; moves as `usermove M` after usermove=1 (else bare),
    castling as `O-O` / `O-O-O` (king takes rook after oocastle=0); `go`
    when the engine is to move in force mode, after that every move of its
    opponent starts its search; the answer is `move M`, castling read as
    O-O / O-O-O or king takes rook (both are taken by match runners); a
    king's two-square move is not castling in Chess960: it is illegal.

The referee (chesstest.Referee: stockfish, UCI_Chess960, `go perft 1`)
holds the true game.  A game ends at mate or stalemate, by the 50-move
rule, threefold repetition, bare kings (or one minor piece), when the engine
resigns or claims a result, or is adjudicated at --plies (160).

A game FAILS on: an illegal move (not in the referee's list, or unreadable),
an `Error` or `Illegal move` line from the bridged side, the engine or
fenbridge exiting or crashing, a stall (no move within 20 s times FB_TEST_WAIT, 3).  After a
failure both players are restarted for the next game.  Each failure is
printed with the game's start, the moves so far, the position (Shredder-FEN
from the referee), the offending line, the last lines of the bridged
side's pipe and the tail of that game's part of fenbridge's log.

Pairings (stockfish vs ENGINE behind fenbridge): toga2, gnuchess --uci,
glaurung, fairy-stockfish (UCI), fairy-stockfish (XBoard), sjaakii
(XBoard).  Per pairing: games, finished, failures by kind (illegal, error,
crash, stall, refused), castles by the engine under test (and how many
were Chess960 castles: not a king on e1/e8 with a corner rook), castles by
stockfish, games whose fenbridge log says `re-anchored`.

Controls (the same harness without fenbridge): toga2 and gnuchess --uci
(asserted to fail: they exit with status 1 on the Shredder-FEN), glaurung
(2 games, reported only: it reads Shredder-FEN and KxR itself),
fairy-stockfish XBoard (asserted to fail: `Error (unkown command): O-O`;
its 2 games open with a book line in which White castles at once, since
stockfish's own castling is too rare for a sure control).  A failing
control stops at its first failed game.  They show the harness can fail.

Search: `go depth N` / `sd N` from small per-engine lists (DEPTHS), about
50-150 ms a move; deep enough that engines search castling as under a
match time control (glaurung's crashes need depth 7 or so).

Checks: one per pairing (every game finished without failure), one per
asserted control, and one that Chess960 castles happened in the bridged
games (by either side; when the engines under test played any, they are
counted too).  Output ends with `N passed, M failed`.  Exit 1 on failure,
77 when stockfish is missing; pairings whose engine is missing are skipped.
"""

import argparse
import collections
import concurrent.futures
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
import zlib

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chesstest  # noqa: E402
from chesstest import (FAIRY, GLAURUNG, GNUCHESS, SKIP,  # noqa: E402
                       STOCKFISH, TOGA, XBOARD_DONE, EngineError, Timeout,
                       parse_board, scharnagl, sq, sqname, start_fen)

SJAAKII = chesstest.GAMES + "/sjaakii"
MOVE_TIMEOUT = 20           # s (x chesstest.WAIT): no move within this is a stall
START_TIMEOUT = 20          # s: handshake, new game
ERROR_RE = re.compile(r"^(Error|Illegal move)")
RESULT_RE = re.compile(r"^(1-0|0-1|1/2-1/2)(\s|$)")
# an engine's search output: UCI `info` (but `info string`), XBoard
# thinking lines (`ply score time nodes pv`)
THINKING_RE = re.compile(r"^< (info (?!string)|\s*\d+ -?\d+ \d+ \d+)")
LOG_THINKING_RE = re.compile(
    r"^\S+ \S+ (engine>|>gui) (info (?!string)|\s*\d+ -?\d+ \d+ \d+)")
LOG_WARNING_RE = re.compile(r"^\S+ \S+ (warning|error) ")
KINDS = ("illegal", "error", "crash", "stall", "refused", "opponent")


class Failure(Exception):
    """A failed game: kind is one of KINDS ('opponent': stockfish, the
    harness's own side, failed: a harness bug rather than a finding)."""

    def __init__(self, kind, msg, line=None):
        super().__init__(msg)
        self.kind, self.line = kind, line


class GameEnd(Exception):
    """The engine resigned or claimed a result instead of moving."""


# ---------------------------------------------------------------- positions

class Pos:
    """A Shredder-FEN from the referee: board, side to move, castling."""

    def __init__(self, fen):
        self.fen = fen
        f = fen.split(" ")
        self.board = parse_board(f[0])
        self.stm = f[1]
        self.castling = f[2]
        self.halfmove = int(f[4]) if len(f) > 4 else 0
        self.key = " ".join(f[:4])
        self.back = 0 if self.stm == "w" else 7

    def own(self, piece):
        return piece.upper() if self.stm == "w" else piece.lower()

    def king_file(self):
        row = self.board[self.back]
        return row.index(self.own("K")) if self.own("K") in row else None

    def rook_file(self, wing):
        """The file of the castling rook on wing 'h' / 'a', or None."""
        kf = self.king_file()
        if kf is None:
            return None
        for c in self.castling:
            if c != "-" and c.isupper() == (self.stm == "w"):
                x = ord(c.lower()) - ord("a")
                if (x > kf) == (wing == "h"):
                    return x
        return None

    def castle_wing(self, move):
        """'h' / 'a' when move (king takes rook) castles, else None."""
        if len(move) != 4 or not re.match(r"^[a-h][1-8][a-h][1-8]$", move):
            return None
        (ff, fr), (tf, tr) = sq(move[:2]), sq(move[2:])
        if fr != self.back or tr != self.back:
            return None
        if self.board[fr][ff] != self.own("K") or \
                self.board[tr][tf] != self.own("R"):
            return None
        return "h" if tf > ff else "a"

    def castle_move(self, wing):
        """The king-takes-rook move castling on wing, or None."""
        kf, rf = self.king_file(), self.rook_file(wing)
        if kf is None or rf is None:
            return None
        return sqname(kf, self.back) + sqname(rf, self.back)

    def chess960_castle(self, move):
        """True when the castling move (KxR) is not the standard e1g1 /
        e1c1 with the rook in the corner."""
        return not (move[0] == "e" and move[2] in "ah")

    def bare(self):
        """Only kings, or kings and one knight or bishop."""
        rest = [p for row in self.board for p in row
                if p is not None and p not in "Kk"]
        return not rest or (len(rest) == 1 and rest[0] in "NBnb")


def to_oo(move, pos):
    wing = pos.castle_wing(move)
    if wing is None:
        return move
    return "O-O" if wing == "h" else "O-O-O"


# ---------------------------------------------------------------- players

class Player:
    """One side of the match: a child process (an engine, or fenbridge in
    front of one), reused from game to game as cutechess-cli does."""

    def __init__(self, argv, name, bridged, log, cfg):
        self.argv, self.name, self.bridged = argv, name, bridged
        self.log, self.cfg = log, cfg
        self.notes = []             # `info string fenbridge` / telluser...
        self.proc = chesstest.Engine(argv, name, new_session=True,
                                     timeout=START_TIMEOUT)

    def fail_kind(self, e):
        return "stall" if isinstance(e, Timeout) else "crash"

    def read(self, until, timeout, what):
        """Lines up to `until`; an Error / Illegal move line fails the
        game, as do the end of output (crash) and a timeout (stall)."""
        def stop(line):
            return ERROR_RE.match(line) or until(line)
        try:
            lines = self.proc.wait_for(stop, timeout)
        except Timeout:
            raise Failure("stall", "%s: no answer within %g s %s" %
                          (self.name, timeout * chesstest.WAIT, what))
        except EngineError as e:
            st = self.proc.wait(1)
            raise Failure("crash", "%s %s; exit status %s%s" % (
                e, what, st, self.signal_note(st)))
        for line in lines:
            if line.startswith("info string fenbridge") or \
                    line.startswith("telluser"):
                self.notes.append(line)
        if ERROR_RE.match(lines[-1]):
            raise Failure("error", "%s answered %s with an error line"
                          % (self.name, what), lines[-1])
        return lines

    @staticmethod
    def signal_note(st):
        if st is None:
            return " (still running)"
        if st < 0:
            return " (killed by signal %d)" % -st
        if st > 128:
            return " (fenbridge: engine died of signal %d)" % (st - 128)
        return ""

    def tail(self, n=16):
        """The last n lines of the pipe, without the engine's search
        `info` lines (but with `info string`)."""
        keep = [x for x in self.proc.transcript
                if not THINKING_RE.match(x)]
        return "\n".join("      " + x[:240] for x in keep[-n:])

    def close(self, failed=False):
        if failed:
            self.proc.kill()
            self.proc.close(quit=None, timeout=2)
        else:
            self.proc.close(timeout=3)
            if self.proc.p.poll() is None or self.proc.leftovers():
                self.proc.kill()


class UciPlayer(Player):
    proto = "uci"

    def start(self):
        self.proc.send("uci")
        lines = self.read(lambda l: l == "uciok", START_TIMEOUT, "'uci'")
        opts = {l.split()[2] for l in lines
                if l.startswith("option name ") and len(l.split()) > 2}
        self.has_960 = "UCI_Chess960" in opts
        if not self.has_960 and self.bridged:
            raise Failure("refused", "%s advertises no UCI_Chess960: a match "
                          "runner refuses it for Chess960" % self.name)
        for name, value in (("Threads", "1"), ("Hash", "16")):
            if name in opts:
                self.proc.send("setoption name %s value %s" % (name, value))
        if self.has_960:
            self.proc.send("setoption name UCI_Chess960 value true")
        self.proc.send("isready")
        self.read(lambda l: l == "readyok", START_TIMEOUT, "'isready'")

    def new_game(self, game):
        self.proc.send("ucinewgame", "isready")
        self.read(lambda l: l == "readyok", START_TIMEOUT,
                  "'ucinewgame', 'isready'")

    def get_move(self, game, pos, legal, depth):
        cmd = "position fen " + game.start
        if game.moves:
            cmd += " moves " + " ".join(game.moves)
        self.proc.send(cmd, "go depth %d" % depth)
        lines = self.read(lambda l: l.startswith("bestmove"), MOVE_TIMEOUT,
                          "'go depth %d' (ply %d)" % (depth, len(game.moves)
                                                      + 1))
        t = lines[-1].split()
        token = t[1] if len(t) > 1 else "(none)"
        if token in legal:
            return token, lines[-1]
        if token in ("O-O", "O-O-O"):
            raise Failure("illegal", "castling written as %s to a UCI "
                          "runner in Chess960 mode (it reads king takes "
                          "rook)" % token, lines[-1])
        raise Failure("illegal", "illegal move %s" % token, lines[-1])


class XboardPlayer(Player):
    proto = "xboard"

    def start(self):
        self.proc.send("xboard", "protover 2")
        lines = self.read(re.compile(XBOARD_DONE).search, START_TIMEOUT,
                          "'protover 2'")
        self.features = {}
        for l in lines:
            if l.startswith("feature "):
                for m in re.finditer(r'(\w+)=("[^"]*"|\S+)', l):
                    self.features[m.group(1)] = m.group(2).strip('"')
        if self.features:
            self.proc.send(*["accepted " + k for k in self.features])
        variants = self.features.get("variants", "").split(",")
        if "fischerandom" not in variants:
            raise Failure("refused", "%s does not list fischerandom in "
                          "variants" % self.name)
        if self.features.get("setboard") != "1":
            raise Failure("refused", "%s: no setboard=1" % self.name)
        self.usermove = self.features.get("usermove") == "1"
        self.oocastle = self.features.get("oocastle", "1") != "0"
        self.ping = self.features.get("ping") == "1"
        self.pings = 0

    def sync(self, what):
        if self.ping:
            self.pings += 1
            self.proc.send("ping %d" % self.pings)
            self.read(lambda l: l == "pong %d" % self.pings, START_TIMEOUT,
                      what)

    def new_game(self, game):
        self.proc.send("new", "variant fischerandom", "force",
                       "setboard " + game.xfen)
        self.forced, self.sent = True, 0
        self.sync("'new', 'variant fischerandom', 'setboard %s'" % game.xfen)

    def get_move(self, game, pos, legal, depth):
        cmds = ["sd %d" % depth]
        for i in range(self.sent, len(game.moves)):
            m = game.moves[i]
            if self.oocastle:
                m = to_oo(m, game.positions[i])
            cmds.append(("usermove " if self.usermove else "") + m)
        self.sent = len(game.moves)
        if self.forced:
            cmds.append("go")
            self.forced = False
        self.proc.send(*cmds)
        what = "'%s' (ply %d)" % ("', '".join(cmds[1:]),
                                  len(game.moves) + 1)
        while True:
            lines = self.read(
                lambda l: l.startswith("move ") or l.startswith("resign")
                or RESULT_RE.match(l), MOVE_TIMEOUT, what)
            last = lines[-1]
            if last.startswith("move "):
                break
            if last.startswith("resign"):
                raise GameEnd("engine resigned")
            # A claim: only taken when it is not the rest of an earlier
            # game's ending (those are drained by the ping of new_game).
            raise GameEnd("engine claimed " + last)
        token = last.split()[1] if len(last.split()) > 1 else ""
        self.sent += 1          # the engine knows its own move
        if token in ("O-O", "O-O-O", "0-0", "0-0-0"):
            m = pos.castle_move("h" if token in ("O-O", "0-0") else "a")
            if m is None or m not in legal:
                raise Failure("illegal", "illegal castling %s (no such "
                              "castling right or not legal now)" % token,
                              last)
            return m, last
        norm = token.replace("=", "").lower()
        if norm in legal:
            return norm, last
        if len(norm) == 4 and pos.board[sq(norm[:2])[1]][sq(norm[:2])[0]] \
                == pos.own("K") and abs(sq(norm[:2])[0] -
                                        sq(norm[2:])[0]) == 2:
            raise Failure("illegal", "king's two-square move %s: not "
                          "castling in Chess960" % token, last)
        raise Failure("illegal", "illegal move %s" % token, last)


# ---------------------------------------------------------------- games

class Game:
    def __init__(self, rank):
        self.rank = rank
        self.start = start_fen(rank)                # Shredder-FEN
        self.xfen = start_fen(rank, xfen=True)      # X-FEN
        self.moves = []                             # king takes rook
        self.positions = []                         # Pos before each move


def play(ref, players, eut, rank, rng, cfg):
    """One game: players {'w': Player, 'b': Player}; eut the colour of the
    engine under test.  Returns the game's record (a dict); a failure is
    recorded in it, with everything needed to report it."""
    g = Game(rank)
    rec = {"start": g.start, "eut": eut, "plies": 0, "end": None,
           "castles": [], "failure": None, "time_eut": 0.0, "time_sf": 0.0,
           "moves_eut": 0, "moves_sf": 0}
    seen = collections.Counter()
    current = None
    try:
        for c in "wb":
            current = players[c]
            try:
                current.new_game(g)
            except Failure as f:
                if current is not players[eut]:
                    f.kind = "opponent"
                raise
        current = None
        if cfg.get("opening"):
            book = opening(ref, g.start, cfg["opening"])
            g.positions += [Pos(f) for f in book[1]]
            g.moves += book[0]
            rec["book"] = len(book[0])
        while True:
            fen, legal = ref.step(g.start, g.moves)
            pos = Pos(fen)
            seen[pos.key] += 1
            if not legal:
                rec["end"] = "checkmate" if ref.d.get("Checkers") \
                    else "stalemate"
                break
            if seen[pos.key] >= 3:
                rec["end"] = "threefold repetition"
                break
            if pos.halfmove >= 100:
                rec["end"] = "50-move rule"
                break
            if pos.bare():
                rec["end"] = "insufficient material"
                break
            if len(g.moves) >= cfg["plies"]:
                rec["end"] = "adjudicated at %d plies" % cfg["plies"]
                break
            current = players[pos.stm]
            is_eut = pos.stm == eut
            depth = rng.choice(cfg["depths"] if is_eut else cfg["sf_depths"])
            rec["pos"] = fen
            t_move = time.monotonic()
            try:
                move, line = current.get_move(g, pos, legal, depth)
            except GameEnd as e:
                rec["end"] = "%s (%s)" % (e, "engine under test" if is_eut
                                          else "stockfish")
                break
            except Failure as f:
                if not is_eut:
                    f.kind = "opponent"
                raise
            rec["time_eut" if is_eut else "time_sf"] += \
                time.monotonic() - t_move
            rec["moves_eut" if is_eut else "moves_sf"] += 1
            wing = pos.castle_wing(move)
            if wing:
                rec["castles"].append((is_eut, pos.chess960_castle(move),
                                       move, len(g.moves) + 1))
            g.positions.append(pos)
            g.moves.append(move)
        current = None
    except Failure as f:
        rec["failure"] = f
        rec["side"] = current.name if current else "?"
        rec["tail"] = current.tail() if current else ""
    except EngineError as e:              # the referee
        rec["failure"] = Failure("opponent", "referee: %s" % e)
        rec["side"] = "referee"
        rec["tail"] = ref.tail(10, "      ")
    rec["plies"] = len(g.moves)
    rec["moves"] = list(g.moves)
    return rec


def opening(ref, start, kind):
    """Book moves played before the engines take over, as a match runner
    sends an opening line (XBoard: in force mode, castling as O-O).
    "castle": the knight on f1 develops, Black's on f8 likewise, White
    castles g1h1 (starts ending in "NKR": king g1, rook h1).  -> (moves,
    the referee's FEN before each)."""
    assert kind == "castle"
    moves, fens = [], []
    for frm in ("f1", "f8", None):
        fen, legal = ref.step(start, moves)
        m = "g1h1" if frm is None else next(
            (x for x in legal if x.startswith(frm)), None)
        if m not in legal:
            raise Failure("opponent", "no book move %s in %s" % (
                m or frm, fen))
        fens.append(fen)
        moves.append(m)
    return moves, fens


# ---------------------------------------------------------------- pairings

# Search depths (`go depth N` / `sd N`, one of the list at random per
# move): each engine about 50-150 ms a move on the 2-core development
# machine, stockfish about 20 ms.  Deep enough that the engines search
# castling moves as they do under a match time control (glaurung crashes
# on its misread castling rights only from depth 7 or so), shallow enough
# for the CI budget.
SF_DEPTHS = [6, 7, 8]
DEPTHS = {"toga2": [5, 6], "gnuchess": [5, 6], "glaurung": [7, 8],
          "fairy-stockfish": [8, 9], "sjaakii": [4]}


def pairings(n, controls, crash=None):
    """The pairings in the order printed: label, engine executable, argv,
    protocol, depths, bridged, games, expect.  expect: None (every game
    must go through), "fail" (a control that must fail: it plays up to 4
    games and stops at the first failure) or "report" (a control that is
    only reported).  crash: a file for dying_engine.py's count: toga2
    behind it dies of SIGSEGV at its 20th go, a crash for fenbridge replay
    to reproduce from the flight record the game leaves (--crash)."""
    out = []

    def add(label, argv, proto, bridged=True, games=n, expect=None, **kw):
        exe = kw.pop("exe", argv[0])
        out.append(dict({"label": label, "exe": exe, "argv": argv,
                         "proto": proto, "bridged": bridged,
                         "depths": DEPTHS[os.path.basename(exe)],
                         "games": games, "expect": expect}, **kw))

    if crash is not None:
        add("crash: toga2 dying at its 20th go",
            [sys.executable, os.path.join(os.path.dirname(
                os.path.abspath(__file__)), "dying_engine.py"), crash, "20",
             "0", TOGA], "uci", True, 1, "fail", exe=TOGA)
        return out
    add("toga2", [TOGA], "uci")
    add("gnuchess --uci", [GNUCHESS, "--uci"], "uci")
    add("glaurung", [GLAURUNG], "uci")
    add("fairy-stockfish uci", [FAIRY], "uci")
    add("fairy-stockfish xboard", [FAIRY], "xboard")
    add("sjaakii xboard", [SJAAKII], "xboard")
    if controls:
        # toga2 / gnuchess exit with status 1 on the Shredder-FEN
        # (`board_from_fen(): bad FEN`); fairy-stockfish answers
        # `usermove O-O` with `Error (unkown command)`; glaurung reads
        # Shredder-FEN and KxR itself: only reported.
        add("control: toga2 without fenbridge", [TOGA], "uci", False, 4,
            "fail")
        add("control: gnuchess --uci without fenbridge",
            [GNUCHESS, "--uci"], "uci", False, 4, "fail")
        add("control: glaurung without fenbridge", [GLAURUNG], "uci",
            False, 2, "report")
        # Stockfish castles too rarely for a sure control: these games
        # start with a book line (as match runners play openings) in which
        # White castles at once: starts ending in "NKR" (king g1, rook
        # h1), the f-file knights develop, White castles
        # g1h1 (sent as `usermove O-O` in force mode).
        add("control: fairy-stockfish xboard without fenbridge", [FAIRY],
            "xboard", False, 2, "fail", opening="castle",
            start_re=r"NKR$")
    return out


_refs = threading.local()
_all_refs = []
_refs_lock = threading.Lock()


def referee():
    """The worker thread's referee, started once."""
    if getattr(_refs, "ref", None) is None or _refs.ref.p.poll() is not None:
        _refs.ref = chesstest.Referee(8)
        with _refs_lock:
            _all_refs.append(_refs.ref)
    return _refs.ref


def log_size(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def log_part(path, offset):
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            return f.read().decode("latin-1").splitlines()
    except OSError:
        return []


def run_chunk(fenbridge, p, chunk, games, seed, logdir, cfg):
    """Plays the games of one chunk (a start with both colours) with one
    pair of players, restarted after a failed game.  -> records."""
    log = os.path.join(logdir, "%s-%d.log" % (
        re.sub(r"[^a-z0-9]+", "-", p["label"]).strip("-"), chunk))
    if p["bridged"]:
        argv = [fenbridge, "--log=" + log, "--"] + p["argv"]
        name = "fenbridge+" + os.path.basename(p["exe"])
    else:
        argv, name = p["argv"], os.path.basename(p["exe"])
    cls = UciPlayer if p["proto"] == "uci" else XboardPlayer
    records = []
    eut = sf = None
    for gi, (rank, eut_colour) in games:
        rng = random.Random("%d %s %d" % (seed, p["label"], gi))
        offset = log_size(log)
        rec = None
        starting = None
        try:
            if eut is None:
                starting = eut = cls(argv, name, p["bridged"], log, cfg)
                eut.start()
            if sf is None:
                starting = sf = UciPlayer([STOCKFISH], "stockfish", False,
                                          None, cfg)
                sf.start()
        except Failure as f:
            if starting is sf:
                f.kind = "opponent"
            rec = {"start": start_fen(rank), "eut": eut_colour, "plies": 0,
                   "end": None, "castles": [], "failure": f, "moves": [],
                   "side": starting.name,
                   "tail": starting.tail()}
        if rec is None:
            eut.notes = []
            players = {eut_colour: eut,
                       "b" if eut_colour == "w" else "w": sf}
            rec = play(referee(), players, eut_colour, rank, rng,
                       dict(cfg, depths=p["depths"],
                            opening=p.get("opening")))
            rec["notes"] = list(eut.notes)
        rec["index"] = gi
        if p["bridged"]:
            if rec["failure"] is None:
                # isready / ping: everything of this game is in the log
                try:
                    if p["proto"] == "uci":
                        eut.proc.send("isready")
                        eut.proc.wait_for(r"^readyok$", 5)
                    else:
                        eut.sync("end of game")
                except (EngineError, Failure):
                    pass
            part = log_part(log, offset)
            rec["reanchored"] = any("re-anchored" in l for l in part)
            rec["log"] = [l for l in part if not LOG_THINKING_RE.match(l)
                          ][-25:]
            rec["warnings"] = [l for l in part if LOG_WARNING_RE.match(l)]
            rec["logfile"] = log
        if rec["failure"] is not None:
            for pl in (eut, sf):
                if pl is not None:
                    pl.close(failed=True)
            eut = sf = None
        records.append(rec)
        if rec["failure"] is not None and p["expect"] == "fail":
            break
    for pl in (eut, sf):
        if pl is not None:
            pl.close()
    return records


def numbered(moves):
    """1. e2e4 e7e5 2. ... (every start is White to move)."""
    out = []
    for i, m in enumerate(moves):
        out.append("%d. %s" % (i // 2 + 1, m) if i % 2 == 0 else m)
    return " ".join(out)


def report_pairing(p, records, verbose):
    """-> (lines, ok, stats)."""
    fails = collections.Counter()
    st = collections.Counter()
    lines = []
    for r in sorted(records, key=lambda r: r["index"]):
        st["games"] += 1
        f = r["failure"]
        if f is None:
            st["finished"] += 1
        else:
            fails[f.kind] += 1
        st["reanchored"] += bool(r.get("reanchored"))
        for k in ("time_eut", "time_sf", "moves_eut", "moves_sf"):
            st[k] += r.get(k, 0)
        for is_eut, c960, _, _ in r["castles"]:
            who = "eut" if is_eut else "sf"
            st[who + "_castles"] += 1
            st[who + "_960"] += c960
    bridged = p["bridged"]
    head = "%s: %d games, %d finished, failures: %s; castles by the " \
        "engine %d (Chess960 %d), by stockfish %d (Chess960 %d)%s" % (
            p["label"], st["games"], st["finished"],
            ", ".join("%s %d" % (k, fails[k]) for k in KINDS
                      if fails[k] or k in KINDS[:4]),
            st["eut_castles"], st["eut_960"], st["sf_castles"],
            st["sf_960"], ", re-anchored in %d games" % st["reanchored"]
            if bridged else "")
    lines.append(head)
    lines.append("  %d plies; time per move: engine %.0f ms, stockfish %.0f ms"
                 % (st["moves_eut"] + st["moves_sf"],
                    1000 * st["time_eut"] / max(st["moves_eut"], 1),
                    1000 * st["time_sf"] / max(st["moves_sf"], 1)))
    for r in sorted(records, key=lambda r: r["index"]):
        f = r["failure"]
        cs = " ".join("%s%s@%d%s" % ("E:" if e else "S:", m, ply,
                                     "*" if c else "")
                      for e, c, m, ply in r["castles"])
        lines.append("  game %d: %s, engine %s, %d plies, %s%s%s%s" % (
            r["index"] + 1, r["start"], "white" if r["eut"] == "w"
            else "black", r["plies"],
            ("FAILED (%s)" % f.kind) if f else r["end"],
            ", castles " + cs if cs else "",
            ", re-anchored" if r.get("reanchored") else "",
            ", %d bridge notes" % len(r.get("notes", []))
            if r.get("notes") else ""))
    for r in sorted(records, key=lambda r: r["index"]):
        f = r["failure"]
        if f is None:
            if verbose and r.get("notes"):
                lines += ["    note: " + n[:200] for n in r["notes"][:3]]
            continue
        lines.append("  FAILURE game %d (%s, %s): %s" % (
            r["index"] + 1, f.kind, r.get("side", "?"), f))
        if f.line:
            lines.append("    offending line: %s" % f.line)
        lines.append("    start: %s (engine plays %s)" % (
            r["start"], "white" if r["eut"] == "w" else "black"))
        lines.append("    moves (king takes rook): %s" % (
            numbered(r["moves"]) or "-"))
        if r.get("pos"):
            lines.append("    position (referee): %s" % r["pos"])
        for n in r.get("notes", [])[-3:]:
            lines.append("    bridge note: %s" % n[:300])
        warn = r.get("warnings", [])
        if warn:
            lines.append("    fenbridge warnings in this game (%d, the last "
                         "5):" % len(warn))
            lines += ["      " + l[:300] for l in warn[-5:]]
        if r.get("tail"):
            lines.append("    last lines of %s's pipe (> to, < from, ! "
                         "stderr):" % r.get("side", "?"))
            lines.append(r["tail"])
        if r.get("log"):
            lines.append("    tail of this game's fenbridge log (%s):"
                         % r["logfile"])
            lines += ["      " + l[:300] for l in r["log"]]
    st["engine_failures"] = sum(fails[k] for k in KINDS if k != "opponent")
    return lines, not any(fails.values()), st


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fenbridge")
    ap.add_argument("--seed", type=int, default=960)
    ap.add_argument("--games", type=int, default=6,
                    help="games per pairing (pairs of colours)")
    ap.add_argument("--plies", type=int, default=160)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--no-controls", action="store_true")
    ap.add_argument("--keep-logs", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--crash", metavar="STATE",
                    help="play only toga2 behind dying_engine.py (count in "
                    "STATE), which dies at its 20th go: the game must fail "
                    "and leave a flight record (see doc/replay.md)")
    args = ap.parse_args()

    fenbridge = os.path.abspath(args.fenbridge)
    if not os.access(fenbridge, os.X_OK):
        print("match: %s is not executable" % fenbridge)
        print("0 passed, 1 failed")
        return 1
    if not os.access(STOCKFISH, os.X_OK):
        print("match: %s not installed, skipping" % STOCKFISH)
        return SKIP
    assert scharnagl(518) == "RNBQKBNR" and scharnagl(0) == "BBQNNRKR"
    # The whole run's limit grows with the games asked for (a longer local
    # run: --games 50); the default run stays well under meson's timeout.
    chesstest.backstop("match", max(450, 15 * args.games * 6 + 120))
    t0 = time.monotonic()
    cfg = {"plies": args.plies, "sf_depths": SF_DEPTHS}

    todo = []
    for p in pairings(args.games, not args.no_controls, args.crash):
        if args.only and args.only not in p["label"]:
            continue
        if not os.access(p["exe"], os.X_OK):
            print("%s: skipped, %s not installed" % (p["label"], p["exe"]))
            continue
        todo.append(p)
    if not todo:
        print("match: nothing to play")
        return SKIP

    # Starts: a pairing's games use starts from a generator seeded by
    # --seed and its label; each start is played twice, colours reversed
    # (as cutechess-cli -repeat / fastchess -games 2).  Chunks of those two
    # games are the jobs, longest pairings first interleaved.
    logdir = tempfile.mkdtemp(prefix="fenbridge-match-")
    tasks = []
    for p in todo:
        srng = random.Random("%d %s" % (args.seed,
                                        p["label"].replace("control: ", "")
                                        .replace(" without fenbridge", "")))
        games = []
        for i in range(p["games"]):
            if i % 2 == 0:
                k = srng.randrange(960)
                while k == 518 or not re.search(p.get("start_re", ""),
                                                 scharnagl(k)):
                    k = srng.randrange(960)
                rank = scharnagl(k)
            games.append((i, (rank, "w" if i % 2 == 0 else "b")))
        if p["expect"] == "fail":
            tasks.append((0, p, games))     # stops at the first failure
            continue
        for c in range(0, len(games), 2):
            tasks.append((c // 2, p, games[c:c + 2]))
    tasks.sort(key=lambda t: t[0])
    seed = args.seed
    results = collections.defaultdict(list)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = {pool.submit(run_chunk, fenbridge, p, chunk,
                            [(i, g) for i, g in games],
                            seed + zlib.crc32(p["label"].encode()), logdir,
                            cfg): p["label"]
                for chunk, p, games in tasks}
        for fut in concurrent.futures.as_completed(futs):
            results[futs[fut]] += fut.result()
    for r in _all_refs:
        r.close()

    passed = failed = 0
    total = collections.Counter()
    print("match: stockfish (UCI, Chess960) vs each engine behind fenbridge "
          "with default settings; seed %d, %d games per pairing, ply limit "
          "%d" % (args.seed, args.games, args.plies))
    print("  (castles: E: engine under test, S: stockfish, * Chess960 "
          "castle, @ply)")
    for p in todo:
        lines, ok, st = report_pairing(p, results[p["label"]], args.verbose)
        print("\n".join(lines))
        if p["expect"] is None:
            total += st
            if ok:
                passed += 1
            else:
                failed += 1
                print("FAIL  %s: %d of %d games failed" % (
                    p["label"], st["games"] - st["finished"], st["games"]))
        elif p["expect"] == "fail":
            # Games in which stockfish castled and the engine had to take
            # that move (it moved again afterwards).
            taken = sum(1 for r in results[p["label"]] for e, _, _, ply in
                        r["castles"] if not e and ply < r["plies"])
            taken += sum(1 for r in results[p["label"]]
                         if r.get("book"))
            if not ok and not st["engine_failures"]:
                failed += 1
                print("FAIL  %s: only the harness's side failed" % p["label"])
            elif ok and p["proto"] == "xboard" and not taken:
                passed += 1
                print("ok    %s: inconclusive, stockfish never castled "
                      "(the engine fails on `usermove O-O` only)"
                      % p["label"])
            elif ok:
                failed += 1
                print("FAIL  %s: expected a failure without fenbridge, but "
                      "every game went through" % p["label"])
            else:
                passed += 1
                print("ok    %s fails as expected" % p["label"])
        else:
            print("      (%s: reported only)" % p["label"])
        sys.stdout.flush()
    if any(p["expect"] is None for p in todo):
        n960 = total["eut_960"] + total["sf_960"]
        ok = n960 > 0
        print("%s Chess960 castles in the bridged games: %d (by the engines "
              "under test %d of %d castles, by stockfish %d of %d)" % (
                  "ok   " if ok else "FAIL ", n960, total["eut_960"],
                  total["eut_castles"], total["sf_960"],
                  total["sf_castles"]))
        passed += ok
        failed += not ok
    if args.keep_logs or failed:
        print("logs kept in " + logdir)
    else:
        shutil.rmtree(logdir, ignore_errors=True)
    signal.alarm(0)
    print("match: %.1f s" % (time.monotonic() - t0))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
