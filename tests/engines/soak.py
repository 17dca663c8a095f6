#!/usr/bin/env python3
"""Soak test: a timed match of fast Chess960 games through two fenbridges.

Usage: soak.py FENBRIDGE [--seconds N] [--stockfish PATH] [--nodes N]
                         [--seed N] [--keep] [-v]

The script is the match runner, the GUI of two fenbridge processes, each in
front of its own Debian stockfish (15.1), speaking UCI in Chess960 mode as
cutechess/fastchess do: `uci`, `uciok`, `setoption name UCI_Chess960 value
true`, `setoption name Hash value 1`, `isready`; per game `ucinewgame`,
`isready`; per move `position fen <start> moves <every move so far>` and
`go nodes 200`, then `bestmove`.  Starts are random Chess960 positions
(Scharnagl numbers from a fixed seed), a new one every game (the two
engines are the same deterministic search: a start replayed with colours
swapped would replay the game); the fenbridges take turns playing white.

  A: fenbridge --log=A.log -- stockfish
       (default options: the engine gets X-FEN; castling king-takes-rook)
  B: fenbridge --engine-fen=shredder --gui-castling=king --log=B.log
       -- stockfish
       (the engine gets Shredder-FEN; toward the runner castling is the
       king's move `e1g1` where that notation can express it, else
       king-takes-rook; the runner writes its castling moves the same way)

The runner's FEN dialect rotates per game (game number mod 3): 0: A gets
Shredder-FEN (HAha), B gets X-FEN (KQkq); 1: A Shredder, B Shredder; 2: A
X-FEN, B X-FEN.  So A rewrites Shredder to X-FEN in two games of three, B
rewrites X-FEN to Shredder in two of three, and the rest pass unchanged.

A third stockfish, not behind fenbridge, with UCI_Chess960 true, is the
referee: per ply `position fen <Shredder start> moves <KxR moves>`, `d`
(Fen, Key, Checkers) and `go perft 1` (read up to `Nodes searched:`: perft
runs in the search thread, so its output may come after a later reply).
A bestmove not in the perft list is an illegal move and fails the test.
Games end on mate, stalemate, the 50-move rule (halfmove clock 100),
threefold repetition (the referee's Key), bare kings or king and one minor,
or at 200 plies.  New games start until the time is up (60 s, or --seconds,
or $FB_SOAK_SECONDS); the game in progress is finished.

Checks afterwards:
  - no illegal move, no castling move in the wrong notation, every game
    ended by a rule or the ply limit, more than a minimum number of games
    (seconds / 10, at least 3), castling in several games (at least 3 when
    there were 10 games or more, else 1), and B's castling moves in king
    notation in both directions;
  - no line lost, added, duplicated or changed: per fenbridge, the lines the
    runner wrote == the `gui>` lines of its log (count and SHA-256 of the
    text), == the `>engine` lines (count, and SHA-256 against the lines the
    engine should get: the same, with the FEN castling field in the
    engine's dialect and castling moves king-takes-rook); `engine>` lines ==
    `>gui` lines == the lines the runner read (count, SHA-256 of `>gui`
    against what the runner read).  In this setup fenbridge documents no
    line it keeps or adds: the runner sends `quit` itself, so fenbridge
    injects none (it would add one `>engine quit` if the runner only closed
    stdin; that case is handled, but does not happen here).  No `engine!`
    line, no warning in the log except B's documented "castling move ...
    cannot be written in king-move notation; passed unchanged";
  - flat memory: VmRSS of each fenbridge sampled every 2 s; the last sample
    (taken after the last game too) may exceed the first after warm-up
    (10 s, or a quarter of a shorter run) by at most 256 KiB, and VmHWM must stay under 6 MiB;
  - no fd leak: /proc/PID/fd of each fenbridge counted after the handshake
    and after the last game: equal;
  - no process leak: after `quit`, each fenbridge exits with status 0
    within 3 s (its grace period is 5 s) and
    its engine (pid from the log's `engine started, pid N`) is gone.

Prints a summary and `N passed, M failed` last; exit 1 on any failure, 77
(skip) when stockfish is missing.  Logs go to a temporary folder that is
kept (and named) when a check fails, or with --keep.
"""

import argparse
import collections
import hashlib
import os
import random
import shutil
import signal
import sys
import tempfile
import time

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chesstest import (SKIP, STOCKFISH, Engine, EngineError,  # noqa: E402
                       Referee, Results, backstop, log_entries, parse_board,
                       proc_stat, scharnagl, sqname, start_fen)

READ_TIMEOUT = 15.0          # one reply; longer means a hang
MAX_PLIES = 200
SAMPLE_EVERY = 2.0           # seconds between memory samples
WARMUP = 10.0                # seconds before the reference sample
QUIT_SECS = 3.0             # stockfish quits at once; the grace is 5 s
RSS_MARGIN_KB = 256
HWM_LIMIT_KB = 6 * 1024
EXPECTED_WARNING = "cannot be written in king-move notation; passed unchanged"


# ------------------------------------------------------------ processes

class Uci(Engine):
    """A fenbridge on pipes, in its own process group, stderr to a file.
    Counts and hashes every line written to it and read from it, and the
    lines the engine behind it should get (each line written, unless
    send() is given the engine's form of it)."""

    def __init__(self, name, argv, errpath):
        self.errpath = errpath
        with open(errpath, "wb") as err:
            super().__init__(argv, name, stderr=err, new_session=True,
                             timeout=READ_TIMEOUT)
        self.n_out = self.n_in = self.n_engine = 0
        self.h_out = hashlib.sha256()
        self.h_in = hashlib.sha256()
        self.h_engine = hashlib.sha256()
        self.quit_sent = False

    def send(self, *lines, engine_line=None):
        """engine_line: what the engine should get for the (one) line."""
        for line in lines:
            self.n_out += 1
            self.h_out.update((line + "\n").encode())
            self.n_engine += 1
            self.h_engine.update(((line if engine_line is None
                                   else engine_line) + "\n").encode())
            self.quit_sent |= line == "quit"
        super().send(*lines)

    def _took(self, raw):
        self.n_in += 1
        self.h_in.update(raw + b"\n")
        return super()._took(raw)


def proc_status(pid):
    """(VmRSS, VmHWM) in KiB, or None."""
    try:
        with open("/proc/%d/status" % pid) as f:
            st = f.read()
    except OSError:
        return None
    vals = {}
    for line in st.splitlines():
        k, _, v = line.partition(":")
        if k in ("VmRSS", "VmHWM"):
            vals[k] = int(v.split()[0])
    return vals.get("VmRSS"), vals.get("VmHWM")


def fd_count(pid):
    try:
        return len(os.listdir("/proc/%d/fd" % pid))
    except OSError:
        return None


def pid_state(pid):
    """None if there is no such process, else (state, ppid, comm)."""
    st = proc_stat(pid)
    if st is None:
        return None
    comm, fields = st
    return fields[0], int(fields[1]), comm


# ------------------------------------------------------------ chess

def start_fens(n):
    """(Shredder-FEN, X-FEN) of Scharnagl position n."""
    rank = scharnagl(n)
    return start_fen(rank), start_fen(rank, xfen=True)


def board_of(placement):
    """{square name: piece letter}."""
    return {sqname(f, r): p for r, row in enumerate(parse_board(placement))
            for f, p in enumerate(row) if p}


def castling_of(board, move):
    """For a king-takes-rook castling move: the king-move form (e1g1) or
    None when that notation cannot express it (king on or next to its
    castling square).  False when move is not castling."""
    piece, target = board.get(move[:2]), board.get(move[2:4])
    if piece not in ("K", "k") or target != ("R" if piece == "K" else "r"):
        return False
    kf, rf = move[0], move[2]
    dest = "g" if rf > kf else "c"
    if abs(ord(dest) - ord(kf)) < 2:
        return None
    return move[:2] + dest + move[1]


def insufficient(placement):
    rest = [c for c in placement if c.isalpha() and c not in "Kk"]
    return not rest or (len(rest) == 1 and rest[0] in "NBnb")


# ------------------------------------------------------------ the match

class Side:
    """One fenbridge + stockfish, as the runner sees it."""

    def __init__(self, label, fb, stockfish, opts, tmp, king_notation):
        self.label = label
        self.log = os.path.join(tmp, "%s.log" % label)
        self.opts = opts
        self.king_notation = king_notation
        self.u = Uci("fenbridge " + label,
                     [fb] + opts + ["--log=" + self.log, "--", stockfish],
                     os.path.join(tmp, "%s.stderr" % label))
        self.engine_pid = None
        self.samples = []                  # (t, rss, hwm)
        self.fds = [None, None]
        self.fen_rewrites = 0              # runner dialect != engine's
        self.king_sent = 0                 # king-notation castling sent
        self.king_got = 0                  # ... and received
        self.kxr_got = 0                   # ... as KxR (king notation
                                           # cannot express it)
        self.quit_secs = float("nan")

    def sample(self, t):
        st = proc_status(self.u.pid)
        if st is not None and st[0] is not None:
            self.samples.append((t, st[0], st[1]))


def log_engine_pid(path):
    for tag, payload in log_entries(path):
        if tag == "info" and payload.startswith(b"engine started, pid "):
            try:
                return int(payload[20:].split()[0])
            except (ValueError, IndexError):
                return None
    return None


def handshake(side):
    u = side.u
    u.uci([("UCI_Chess960", "true"), ("Hash", "1")],
          require=["UCI_Chess960"])
    side.engine_pid = log_engine_pid(side.log)
    side.fds[0] = fd_count(u.pid)


def look(ref, start, moves):
    """(fen, key, in_check, legal moves) after moves from start."""
    fen, legal = ref.step(start, moves)
    if "Key" not in ref.d:
        raise EngineError("%s: no Key in the output of d" % ref.name)
    return fen, ref.d["Key"], bool(ref.d.get("Checkers")), legal


class Match:
    def __init__(self, args, res, a, b, ref):
        self.args = args
        self.res = res
        self.sides = (a, b)
        self.ref = ref
        self.games = 0
        self.finished = 0
        self.moves = 0
        self.illegal = 0
        self.notation_errors = 0
        self.castled_games = 0
        self.castlings = 0
        self.reasons = collections.Counter()
        self.first_failures = []
        self.t0 = time.monotonic()
        self.next_sample = self.t0

    def maybe_sample(self):
        now = time.monotonic()
        if now >= self.next_sample:
            for s in self.sides:
                s.sample(now - self.t0)
            self.next_sample = now + SAMPLE_EVERY

    def fail_once(self, what, detail):
        if len(self.first_failures) < 5:
            self.first_failures.append((what, detail))

    def position_line(self, side, fen_gui, fen_engine, moves, castle_forms):
        """(line to fenbridge, line the engine should get)."""
        gui_moves = []
        for mv, form in zip(moves, castle_forms):
            if side.king_notation and form:
                gui_moves.append(form)
            else:
                gui_moves.append(mv)
        line = "position fen " + fen_gui
        eng = "position fen " + fen_engine
        if moves:
            line += " moves " + " ".join(gui_moves)
            eng += " moves " + " ".join(moves)
        return line, eng

    def bestmove_to_kxr(self, side, mv, board, legal):
        """The runner's reading of a bestmove: (KxR move or None, error)."""
        if mv in legal:
            form = castling_of(board, mv)
            if form and form != mv and side.king_notation:
                side.kxr_got += 1
                return mv, ("castling %s arrived as king-takes-rook although "
                            "--gui-castling=king can write it as %s"
                            % (mv, form))
            if form is not False and side.king_notation:
                if form == mv:
                    side.king_got += 1  # d1g1: both notations agree
                else:
                    side.kxr_got += 1
            return mv, None
        # King notation: the king moves two or more files on its rank.
        piece = board.get(mv[:2]) if len(mv) == 4 else None
        if (side.king_notation and piece in ("K", "k") and mv[1] == mv[3]
                and mv[2] in "cg" and abs(ord(mv[2]) - ord(mv[0])) >= 2):
            rook = "R" if piece == "K" else "r"
            for cand in legal:
                if (cand[:2] == mv[:2] and board.get(cand[2:4]) == rook
                        and (cand[2] > mv[0]) == (mv[2] > mv[0])):
                    side.king_got += 1
                    return cand, None
        return None, "illegal"

    def play_game(self, gi, number):
        a, b = self.sides
        white, black = (a, b) if gi % 2 == 0 else (b, a)
        shredder, xfen = start_fens(number)
        rot = gi % 3
        dialect = {a: "xfen" if rot == 2 else "shredder",
                   b: "shredder" if rot == 1 else "xfen"}
        engine_dialect = {a: "xfen", b: "shredder"}
        fens = {"xfen": xfen, "shredder": shredder}
        for s in self.sides:
            s.u.send("ucinewgame")
            s.u.sync()
            if dialect[s] != engine_dialect[s]:
                s.fen_rewrites += 1
        moves, forms = [], []
        seen = collections.Counter()
        castled = False
        reason = None
        while reason is None:
            self.maybe_sample()
            fen, key, check, legal = look(self.ref, shredder, moves)
            placement, stm, _, _, half = fen.split()[:5]
            seen[key] += 1
            if not legal:
                reason = "checkmate" if check else "stalemate"
                break
            if int(half) >= 100:
                reason = "50-move rule"
            elif seen[key] >= 3:
                reason = "repetition"
            elif insufficient(placement):
                reason = "insufficient material"
            elif len(moves) >= MAX_PLIES:
                reason = "ply limit"
            if reason:
                break
            side = white if stm == "w" else black
            line, eng = self.position_line(side, fens[dialect[side]],
                                           fens[engine_dialect[side]],
                                           moves, forms)
            if side.king_notation and forms and forms[-1] and \
                    forms[-1] != moves[-1]:
                side.king_sent += 1  # the opponent's castling, new here
            side.u.send(line, engine_line=eng)
            side.u.send("go nodes %d" % self.args.nodes)
            best = side.u.wait_for(r"^bestmove")[-1].split()
            mv_raw = best[1] if len(best) > 1 else "(none)"
            board = board_of(placement)
            mv, err = self.bestmove_to_kxr(side, mv_raw, board, legal)
            where = ("game %d (Scharnagl %d, %s white), ply %d, fenbridge "
                     "%s; runner sent %s FEN\n  %s\n  referee Fen: %s\n  "
                     "bestmove: %s\n  legal: %s"
                     % (gi + 1, number, white.label, len(moves) + 1,
                        side.label, dialect[side], line[:400], fen, mv_raw,
                        " ".join(sorted(legal))))
            if mv is None:
                self.illegal += 1
                self.fail_once("illegal move", where)
                reason = "illegal move"
                break
            if err:
                self.notation_errors += 1
                self.fail_once("castling notation: " + err, where)
            form = castling_of(board, mv)
            if form is not False:
                castled = True
                self.castlings += 1
            forms.append(form if form else None)
            moves.append(mv)
            self.moves += 1
        self.games += 1
        if reason != "illegal move":
            self.finished += 1
        self.reasons[reason] += 1
        if castled:
            self.castled_games += 1
        if self.args.verbose:
            print("game %d: Scharnagl %d, %s white, %d plies, %s%s"
                  % (gi + 1, number, white.label, len(moves), reason,
                     ", castled" if castled else ""))
            sys.stdout.flush()

    def run(self, seconds):
        rng = random.Random(self.args.seed)
        deadline = self.t0 + seconds
        gi = 0
        while time.monotonic() < deadline:
            # Both engines are the same stockfish with a node limit: the
            # same start with colours swapped would replay the same game.
            number = rng.randrange(960)
            self.play_game(gi, number)
            gi += 1
        self.elapsed = time.monotonic() - self.t0


# ------------------------------------------------------------ log checks

def scan_log(path):
    """Counts and SHA-256 of the payloads per tag, the warnings, the
    `position fen: rewrote` lines, the log size."""
    tags = ("gui>", ">engine", "engine>", ">gui", "engine!")
    n = dict.fromkeys(tags, 0)
    h = {t: hashlib.sha256() for t in tags}
    last = dict.fromkeys(tags)
    warnings = collections.Counter()
    rewrites = 0
    for tag, payload in log_entries(path):
        if tag in n:
            n[tag] += 1
            h[tag].update(payload + b"\n")
            last[tag] = payload.decode("latin-1")
        elif tag in ("warning", "error"):
            text = payload.decode("latin-1")
            warnings[EXPECTED_WARNING if EXPECTED_WARNING in text
                     else text[:200]] += 1
        elif tag == "debug" and b"position fen: rewrote" in payload:
            rewrites += 1
    return n, {t: h[t].hexdigest() for t in tags}, last, warnings, rewrites


def check_side(res, s, rc, stderr_bytes):
    L = s.label
    n, h, last, warnings, rewrites = scan_log(s.log)
    s.scan = (n, rewrites)
    u = s.u
    res.check("%s: runner wrote %d lines, log has %d gui> lines (same text)"
              % (L, u.n_out, n["gui>"]),
              n["gui>"] == u.n_out and h["gui>"] == u.h_out.hexdigest(),
              "counts %d / %d; SHA-256 %s" % (u.n_out, n["gui>"],
                                               "equal" if h["gui>"] ==
                                               u.h_out.hexdigest()
                                               else "differ"))
    # fenbridge injects `quit` toward the engine only when the GUI closes
    # stdin without one; the runner always sends it.
    injected = 0 if u.quit_sent else 1
    want = u.n_engine + injected
    res.check("%s: %d >engine lines == gui> lines%s, with the FEN dialect "
              "and castling the engine needs"
              % (L, n[">engine"], " + injected quit" if injected else ""),
              n[">engine"] == want and (injected or
                                        h[">engine"] ==
                                        u.h_engine.hexdigest()),
              "expected %d, got %d; SHA-256 against the expected engine "
              "lines: %s; last >engine: %r"
              % (want, n[">engine"], "equal" if h[">engine"] ==
                 u.h_engine.hexdigest() else "differ", last[">engine"]))
    res.check("%s: engine> %d == >gui %d == runner read %d (same text)"
              % (L, n["engine>"], n[">gui"], u.n_in),
              n["engine>"] == n[">gui"] == u.n_in and
              h[">gui"] == u.h_in.hexdigest(),
              "SHA-256 of >gui against what the runner read: %s"
              % ("equal" if h[">gui"] == u.h_in.hexdigest() else "differ"))
    res.check("%s: no engine stderr (engine! lines: %d)"
              % (L, n["engine!"]), n["engine!"] == 0)
    unexpected = {k: v for k, v in warnings.items()
                  if not (s.king_notation and k == EXPECTED_WARNING)}
    res.check("%s: no unexpected warning in the log" % L, not unexpected,
              "\n".join("%6d x %s" % (v, k) for k, v in
                        sorted(unexpected.items(), key=lambda kv: -kv[1])))
    if s.fen_rewrites:
        res.check("%s: the log shows FEN rewrites (%d position lines)"
                  % (L, rewrites), rewrites > 0)
    res.check("%s: fenbridge exited with status 0 within %.0f s of quit "
              "(got %s after %.2f s)" % (L, QUIT_SECS, rc, s.quit_secs),
              rc == 0 and s.quit_secs < QUIT_SECS,
              "stderr: %s" % stderr_bytes[-2000:].decode("latin-1"))
    st = pid_state(s.engine_pid) if s.engine_pid else None
    if s.engine_pid is None:
        why = "no `engine started, pid N` in the log"
    elif st is not None:
        why = "still there: state %s, parent %d, %s" % st
    else:
        why = ""
    res.check("%s: its engine (pid %s) is gone" % (L, s.engine_pid),
              s.engine_pid is not None and st is None, why)
    return warnings


def check_memory(res, s, warm_t):
    L = s.label
    ref = next((x for x in s.samples if x[0] >= warm_t), None)
    last = s.samples[-1] if s.samples else None
    peak = max((x[2] for x in s.samples), default=None)
    ok = ref is not None and last is not None and last is not ref
    res.check("%s: RSS flat: %s KiB at %.0f s -> %s KiB at %.0f s "
              "(margin %d KiB; %d samples)"
              % (L, ref and ref[1], ref[0] if ref else 0, last and last[1],
                 last[0] if last else 0, RSS_MARGIN_KB, len(s.samples)),
              ok and last[1] <= ref[1] + RSS_MARGIN_KB,
              "samples (s, RSS KiB): " + " ".join(
                  "%.0f:%d" % (t, r) for t, r, _ in s.samples))
    # AddressSanitizer's shadow memory and quarantine make the peak
    # meaningless there; the flat-RSS check above still applies.
    res.check("%s: peak RSS (VmHWM) %s KiB under %d KiB%s"
              % (L, peak, HWM_LIMIT_KB,
                 " (not checked: sanitizer build)" if SANITIZED else ""),
              peak is not None and (SANITIZED or peak < HWM_LIMIT_KB))
    res.check("%s: fds after the handshake %s == at the end %s"
              % (L, s.fds[0], s.fds[1]),
              s.fds[0] is not None and s.fds[0] == s.fds[1],
              "the end: %s" % (sorted(os.listdir("/proc/%d/fd" % s.u.pid))
                               if os.path.isdir("/proc/%d/fd" % s.u.pid)
                               else "-"))
    return ref, last, peak


# ------------------------------------------------------------ main

def mib(kb):
    return "%.1f" % (kb / 1024.0) if kb is not None else "?"


SANITIZED = False  # fenbridge was built with AddressSanitizer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fenbridge")
    ap.add_argument("--seconds", type=float,
                    default=float(os.environ.get("FB_SOAK_SECONDS") or 60),
                    help="how long new games start (default 60, or "
                         "$FB_SOAK_SECONDS)")
    ap.add_argument("--stockfish", default=STOCKFISH)
    ap.add_argument("--nodes", type=int, default=200)
    ap.add_argument("--seed", type=int, default=960)
    ap.add_argument("--keep", action="store_true",
                    help="keep the logs even when every check passes")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    if not os.access(args.stockfish, os.X_OK):
        print("soak: %s not found, skipping" % args.stockfish)
        return SKIP
    fb = os.path.abspath(args.fenbridge)
    global SANITIZED
    with open(fb, "rb") as f:
        SANITIZED = b"__asan_init" in f.read()
    if not os.access(fb, os.X_OK):
        print("soak: %s is not an executable" % fb)
        print("0 passed, 1 failed")
        return 1

    # Backstop: every wait has its own timeout, this is for the rest.
    # Children run in their own process groups: end them here.
    # (The logs grow by some 35 MB a minute each and are read at the end.)
    backstop("soak", int(args.seconds + args.seconds // 5) + 100)

    res = Results(args.verbose)
    tmp = tempfile.mkdtemp(prefix="fb-soak-")
    a = Side("A", fb, args.stockfish, [], tmp, king_notation=False)
    b = Side("B", fb, args.stockfish,
             ["--engine-fen=shredder", "--gui-castling=king"], tmp,
             king_notation=True)
    ref = None
    match = None
    aborted = None
    try:
        for s in (a, b):
            handshake(s)
        ref = Referee(8, stockfish=args.stockfish, new_session=True,
                      timeout=READ_TIMEOUT)
        match = Match(args, res, a, b, ref)
        match.run(args.seconds)
        for s in (a, b):
            s.sample(time.monotonic() - match.t0)
            s.fds[1] = fd_count(s.u.pid)
    except (EngineError, OSError, ValueError, IndexError) as e:
        aborted = e
        for u in (a.u, b.u) + ((ref,) if ref else ()):
            print("      last lines of %s (> to, < from, ! stderr):"
                  % u.name)
            print(u.tail(40))

    res.check("the match ran to the end without a hang or a dead pipe",
              aborted is None, "%s: %s" % (type(aborted).__name__, aborted))

    # quit: each fenbridge must end itself and its engine.
    rcs = {}
    t_quit = time.monotonic()
    for s in (a, b):
        s.u.send("quit")
        try:
            s.u.p.stdin.close()
        except OSError:
            pass
    for s in (a, b):
        s.u.drain(10)
        rcs[s] = s.u.wait(10)
        s.quit_secs = time.monotonic() - t_quit
        if rcs[s] is None:
            s.u.kill()
            s.u.wait(5)
    if ref is not None:
        ref.close()

    m = match
    if m is not None and aborted is None:
        min_games = max(3, int(args.seconds // 10))
        min_castled = 3 if m.games >= 10 else 1
        res.check("games played: %d (minimum %d)" % (m.games, min_games),
                  m.games >= min_games)
        res.check("every game ended by a rule or the ply limit (%d of %d)"
                  % (m.finished, m.games), m.finished == m.games)
        detail = "\n".join("%s\n%s" % (w, d) for w, d in m.first_failures)
        res.check("no illegal move (%d moves)" % m.moves, m.illegal == 0,
                  detail)
        res.check("castling in the notation each side asked for",
                  m.notation_errors == 0, detail)
        res.check("castling in %d games (minimum %d)"
                  % (m.castled_games, min_castled),
                  m.castled_games >= min_castled)
        res.check("B: castling in king notation both ways (%d of A's "
                  "castlings sent, %d bestmoves)" % (b.king_sent, b.king_got),
                  b.king_sent > 0 and b.king_got > 0)

    figures = {}
    for s in (a, b):
        err = b""
        try:
            with open(s.u.errpath, "rb") as f:
                err = f.read()
        except OSError:
            pass
        check_side(res, s, rcs.get(s), err)
        if m is not None and aborted is None:
            figures[s] = check_memory(res, s, min(WARMUP, m.elapsed / 4))

    if m is not None:
        print("soak: %.0f s, %d games, %d moves, %d illegal, castled in %d "
              "games (%d castlings); ends: %s"
              % (getattr(m, "elapsed", time.monotonic() - m.t0), m.games,
                 m.moves, m.illegal, m.castled_games, m.castlings,
                 ", ".join("%s %d" % kv for kv in sorted(m.reasons.items()))))
        for s in (a, b):
            n, rewrites = s.scan
            ref_s, last_s, peak = figures.get(s, (None, None, None))
            king = ""
            if s.king_notation:
                king = ("; castling in king notation: %d of the opponent's "
                        "sent, %d bestmoves (%d as king-takes-rook: not "
                        "expressible)" % (s.king_sent, s.king_got,
                                          s.kxr_got))
            print("  fenbridge %s (%s): %d lines to the engine, %d back; "
                  "RSS %s -> %s MiB (peak %s); fds %s -> %s; FEN "
                  "translated in %d games (%d rewrites logged)%s"
                  % (s.label, " ".join(s.opts) or "default options",
                     n[">engine"], n[">gui"],
                     mib(ref_s and ref_s[1]), mib(last_s and last_s[1]),
                     mib(peak), s.fds[0], s.fds[1], s.fen_rewrites, rewrites,
                     king))
    signal.alarm(0)
    if res.failed or args.keep:
        print("soak: logs kept in %s" % tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (res.passed, res.failed))
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
