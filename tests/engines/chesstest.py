"""What the real-engine tests in this folder share (diff_fen.py,
bridge_engines.py, games.py, soak.py; stdlib only).

  * start positions: Chess960 (Scharnagl numbering), Capablanca-random,
    their FENs in Shredder-FEN or X-FEN;
  * boards: FEN placements, squares, the rooks beyond a castling rook, the
    rook walks that steer random games toward inner-rook rights;
  * Engine: a child process spoken to by lines, with a deadline on every
    wait (UCI and XBoard handshakes, `d` + `go perft 1`, quit / kill);
    Referee: stockfish or fairy-stockfish in Chess960 mode;
  * Results (counted checks), backstop (a timer for the whole run), and
    readers for /proc and fenbridge's --log.

The scripts run as `python3 tests/engines/X.py FENBRIDGE` and import this
module from their own folder.
"""

import collections
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

# Every deadline a test waits for an answer with is multiplied by this
# (FB_TEST_WAIT, default 3): answers are taken when they come, the deadline
# only says when silence is a failure, and a loaded machine is slow, not
# wrong.
WAIT = float(os.environ.get("FB_TEST_WAIT", "3"))

GAMES = "/usr/games"
STOCKFISH = GAMES + "/stockfish"
FAIRY = GAMES + "/fairy-stockfish"
TOGA = GAMES + "/toga2"
GLAURUNG = GAMES + "/glaurung"
GNUCHESS = GAMES + "/gnuchess"
POLYGLOT = GAMES + "/polyglot"
SKIP = 77                    # exit status: test skipped


# ---------------------------------------------------------------- starts

def scharnagl(n):
    """Chess960 start number n (0..959) -> white back rank, e.g. 518 ->
    RNBQKBNR (standard Scharnagl numbering)."""
    assert 0 <= n < 960
    rank = [None] * 8
    n, b1 = divmod(n, 4)
    rank[2 * b1 + 1] = "B"           # light-squared bishop: b, d, f, h
    n, b2 = divmod(n, 4)
    rank[2 * b2] = "B"               # dark-squared bishop: a, c, e, g
    n, q = divmod(n, 6)
    free = [i for i in range(8) if rank[i] is None]
    rank[free[q]] = "Q"
    knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2),
               (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n]
    free = [i for i in range(8) if rank[i] is None]
    for k in knights:
        rank[free[k]] = "N"
    free = [i for i in range(8) if rank[i] is None]
    for i, p in zip(free, "RKR"):
        rank[i] = p
    return "".join(rank)


def caparandom_rank(rng):
    """A Capablanca-random white back rank (10 files): bishops on opposite
    colours, queen and archbishop on opposite colours, king between the
    rooks, and every pawn on rank 2 protected by a back-rank piece."""
    pieces = list("RRNNBBQKAC")
    while True:
        rng.shuffle(pieces)
        pos = {}
        for i, p in enumerate(pieces):
            pos.setdefault(p, []).append(i)
        (b1, b2), (r1, r2) = pos["B"], pos["R"]
        if (b1 + b2) % 2 == 0 or (pos["Q"][0] + pos["A"][0]) % 2 == 0:
            continue
        if not r1 < pos["K"][0] < r2:
            continue

        def protected(f):
            for g in range(max(0, f - 2), min(10, f + 3)):
                d, p = abs(g - f), pieces[g]
                if (d == 0 and p in "RQCK") or (d == 1 and p in "BQAK") \
                        or (d == 2 and p in "NAC"):
                    return True
            return False

        if all(protected(f) for f in range(10)):
            return "".join(pieces)


def start_fen(rank, xfen=False):
    """The start FEN with white back rank `rank` (8 or 10 files), castling
    in Shredder-FEN (`HAha`) or, with xfen, in X-FEN (`KQkq`)."""
    w = len(rank)
    rooks = [i for i, p in enumerate(rank) if p == "R"]
    assert rooks[0] < rank.index("K") < rooks[-1]
    if xfen:
        castle = "KQkq"
    else:
        h, a = chr(ord("a") + rooks[-1]), chr(ord("a") + rooks[0])
        castle = h.upper() + a.upper() + h + a
    return "%s/%s/%d/%d/%d/%d/%s/%s w %s - 0 1" % (
        rank.lower(), "p" * w, w, w, w, w, "P" * w, rank, castle)


def opened_start(rank, xfen=False):
    """start_fen() of rank with the pieces between the king and the rooks
    taken off both sides: castling is legal from the first move."""
    rooks = [i for i, p in enumerate(rank) if p == "R"]
    row = "".join(p if p in "KR" or not rooks[0] < i < rooks[-1] else "1"
                  for i, p in enumerate(rank))
    return re.sub(r"1{2,}", lambda m: str(len(m.group(0))),
                  start_fen(row, xfen))


# ---------------------------------------------------------------- boards

def parse_board(placement):
    """FEN placement -> list of 8 ranks (index 0 = rank 1), each a list of
    piece letters or None."""
    ranks = []
    for row in placement.split("/"):
        out = []
        for m in re.finditer(r"\d+|.", row):
            t = m.group(0)
            out.extend([None] * int(t) if t.isdigit() else [t])
        ranks.append(out)
    ranks.reverse()
    return ranks


def sq(s):
    """Square name -> (file, rank) indices: "b3" -> (1, 2)."""
    return ord(s[0]) - ord("a"), int(s[1:]) - 1


def sqname(f, r):
    return "%s%d" % (chr(ord("a") + f), r + 1)


def beyond(x, kfile, width):
    """The files further out than file x on its wing (the side of the king
    file kfile that x is on)."""
    return range(x + 1, width) if x > kfile else range(0, x)


def outer_rook(row, x, kfile, rook):
    """True when a `rook` stands further out than file x on the back-rank
    row: the castling rook on x is an inner rook, and X-FEN writes its
    file letter (`Gkq`)."""
    return any(row[i] == rook for i in beyond(x, kfile, len(row)))


def squares_beyond(files, kfile, back, width):
    """The back-rank squares further out than any of the castling rook
    files; none when there is no king on the back rank (kfile None)."""
    if kfile is None:
        return set()
    return {(i, back) for x in files for i in beyond(x, kfile, width)}


def rook_distance(board, start, targets, own):
    """Fewest rook moves from start to any target square on the board (own
    pieces block, enemy pieces may be captured), or None.  (The rook on
    start blocks a later move that would pass over start; that changes no
    distance: whatever lies beyond start is one move from start itself.)"""
    width = len(board[0])
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for (f, r) in frontier:
            if (f, r) in targets:
                return dist[(f, r)]
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nf, nr = f + df, r + dr
                while 0 <= nf < width and 0 <= nr < 8:
                    p = board[nr][nf]
                    if p is not None and p in own:
                        break
                    if (nf, nr) not in dist:
                        dist[(nf, nr)] = dist[(f, r)] + 1
                        nxt.append((nf, nr))
                    if p is not None:
                        break
                    nf, nr = nf + df, nr + dr
        frontier = nxt
    return None


def rook_walk(board, move, targets, own):
    """rook_distance to targets after the rook move `move` is played on
    board (restored afterwards)."""
    (ff, fr), (tf, tr) = sq(move[0:2]), sq(move[2:4])
    rook, saved = board[fr][ff], board[tr][tf]
    board[tr][tf], board[fr][ff] = rook, None
    try:
        return rook_distance(board, (tf, tr), targets, own)
    finally:
        board[tr][tf], board[fr][ff] = saved, rook


def fens_in(lines):
    """The FENs of the `Fen: ...` lines of an engine's `d`."""
    return [l[5:].strip() for l in lines if l.startswith("Fen: ")]


# ---------------------------------------------------------------- processes

class EngineError(Exception):
    """A child ended, or did not answer in time (Timeout)."""


class Timeout(EngineError):
    pass


PERFT_RE = re.compile(r"^([a-j][1-8][a-j][1-8][a-z]?): 1$")
XBOARD_DONE = r"^feature\b.*\bdone=1\b"


def _text(raw):
    return raw.decode("latin-1").rstrip("\r\n")


class Engine:
    """A child process spoken to by lines: an engine, fenbridge, polyglot.

    A thread reads its stdout into a queue, so that writing to it never
    deadlocks and every wait has a deadline (Timeout); another collects
    its stderr lines in .err (unless stderr is given, e.g. a file).  Both
    directions go to a transcript for failure reports (`> ` to the child,
    `< ` from it, `! ` its stderr).  A write to a child that has gone is
    noted there, not raised: the next read sees the end of output.  With
    new_session the child gets its own process group (an engine behind
    fenbridge, fenbridge behind polyglot), which kill() ends as a whole.
    """

    started = []                # every child, for backstop()

    def __init__(self, argv, name=None, cwd=None, stderr=None,
                 new_session=False, timeout=20):
        self.argv = argv
        self.name = name or os.path.basename(argv[0])
        self.timeout = timeout              # default for every wait
        self.new_session = new_session
        self.p = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE if stderr is None else stderr, cwd=cwd,
            start_new_session=new_session)
        self.pid = self.p.pid
        Engine.started.append(self)
        self.q = queue.Queue()
        self.err = []
        self.transcript = collections.deque(maxlen=200)
        self.last_sent = ""
        self.pings = 0
        self.closed = False
        self.threads = []
        pumps = [self._pump_out] + ([self._pump_err] if stderr is None
                                    else [])
        for pump in pumps:
            t = threading.Thread(target=pump, daemon=True)
            t.start()
            self.threads.append(t)

    def _pump_out(self):
        for raw in self.p.stdout:
            raw = raw.rstrip(b"\n")
            self.transcript.append("< " + _text(raw))
            self.q.put(raw)
        self.q.put(None)

    def _pump_err(self):
        for raw in self.p.stderr:
            line = _text(raw)
            self.err.append(line)
            self.transcript.append("! " + line)

    def send(self, *lines):
        for line in lines:
            self.transcript.append("> " + line)
        if lines:
            self.last_sent = lines[-1]
        try:
            self.p.stdin.write("".join(l + "\n" for l in lines).encode())
            self.p.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self.transcript.append("  (write failed: pipe closed)")

    def _took(self, raw):
        """A line read from the queue (bytes without the newline) -> str."""
        return _text(raw)

    def _next(self, deadline, timeout):
        """The next line; None at the end of output; Timeout at deadline."""
        try:
            raw = self.q.get(timeout=max(deadline - time.monotonic(), 0.001))
        except queue.Empty:
            raise Timeout("%s: no answer within %g s (waiting after '%s')"
                          % (self.name, timeout * WAIT, self.last_sent))
        if raw is None:
            self.q.put(None)
            return None
        return self._took(raw)

    def read_until(self, until, timeout=None):
        """Lines up to and including the first that matches `until` (a
        regex, searched, or a function of the line): (lines, the match).
        At the end of output (lines, None).  Raises Timeout."""
        timeout = self.timeout if timeout is None else timeout
        if isinstance(until, str):
            until = re.compile(until).search
        deadline = time.monotonic() + timeout * WAIT
        lines = []
        while True:
            line = self._next(deadline, timeout)
            if line is None:
                return lines, None
            lines.append(line)
            m = until(line)
            if m:
                return lines, m

    def wait_for(self, until, timeout=None):
        """The lines of read_until; the end of output raises ended()."""
        lines, m = self.read_until(until, timeout)
        if m is None:
            raise self.ended()
        return lines

    def drain(self, timeout):
        """Every line until the end of output (at most timeout s)."""
        lines = []
        deadline = time.monotonic() + timeout
        try:
            while True:
                line = self._next(deadline, timeout)
                if line is None:
                    return lines
                lines.append(line)
        except Timeout:
            return lines

    def ended(self):
        """The EngineError for a child whose output ended: its exit status
        and last stderr lines."""
        st = self.wait(2)
        if len(self.threads) > 1:
            self.threads[1].join(1)         # the rest of stderr
        err = [l for l in self.err if l]
        return EngineError("%s exited (exit status %s)%s" % (
            self.name, st, "; stderr: " + " | ".join(err[-3:]) if err
            else ""))

    # -- protocol

    def sync(self, timeout=None):
        """`isready` ... `readyok`: the lines up to readyok."""
        self.send("isready")
        return self.wait_for(r"^readyok$", timeout)

    def uci(self, options=(), require=(), timeout=None):
        """`uci` ... `uciok`, `setoption` for each (name, value) of
        options, then sync().  Each option name in require must be
        advertised.  Returns the lines up to uciok."""
        self.send("uci")
        lines = self.wait_for(r"^uciok$", timeout)
        for name in require:
            if not any(l.startswith("option name %s " % name)
                       for l in lines):
                raise EngineError("%s: no option %s before uciok"
                                  % (self.name, name))
        for name, value in options:
            self.send("setoption name %s value %s" % (name, value))
        self.sync(timeout)
        return lines

    def step(self, start, moves=(), timeout=None):
        """`position fen start moves ...`, `d`, `go perft 1` -> (the `Fen:`
        of `d`, the legal moves in the engine's order).  `d` is answered
        by the UCI thread before `go` starts the search thread, so its
        lines come first; perft ends with `Nodes searched`.  The other
        fields of `d` (`Key`, `Checkers`) are left in self.d."""
        cmd = "position fen " + start
        if moves:
            cmd += " moves " + " ".join(moves)
        self.send(cmd, "d", "go perft 1")
        legal, self.d = [], {}
        for line in self.wait_for(r"^Nodes searched", timeout):
            key, colon, value = line.partition(":")
            if colon and key in ("Fen", "Key", "Checkers"):
                self.d[key] = value.strip()
                continue
            m = PERFT_RE.match(line)
            if m:
                legal.append(m.group(1))
        if "Fen" not in self.d:
            raise EngineError("%s printed no Fen after %s" % (self.name, cmd))
        return self.d["Fen"], legal

    def fens(self, cmds, timeout=None):
        """For each command (a `position` line): it, `d` and `isready`;
        -> the `Fen:` each brought (None where there is none).  All are
        written at once: the reader thread keeps the output flowing."""
        self.send(*[line for c in cmds for line in (c, "d", "isready")])
        out = []
        for _ in cmds:
            seen = fens_in(self.wait_for(r"^readyok$", timeout))
            out.append(seen[-1] if seen else None)
        return out

    def fen(self, cmd, timeout=None):
        return self.fens([cmd], timeout)[0]

    def ping(self, timeout=None):
        """XBoard `ping N` ... `pong N`: the lines up to pong."""
        self.pings += 1
        self.send("ping %d" % self.pings)
        return self.wait_for(r"^pong %d$" % self.pings, timeout)

    # -- the end

    def wait(self, timeout):
        """The exit status, or None if still running after timeout s."""
        try:
            return self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self):
        """With new_session SIGKILL to the whole process group; else
        SIGTERM (fenbridge then ends its engine), SIGKILL after 3 s."""
        try:
            if self.new_session:
                os.killpg(self.pid, signal.SIGKILL)
            else:
                self.p.terminate()
                if self.wait(3) is None:
                    self.p.kill()
        except (ProcessLookupError, PermissionError):
            pass

    def close(self, quit="quit", timeout=5):
        """Sends quit (if any and still running), closes stdin, waits;
        kills if it does not end.  Returns the exit status, or None when
        it had to be killed; a second close returns what the first did."""
        if self.closed:
            return self.close_rc
        if quit and self.p.poll() is None:
            self.send(quit)
        try:
            self.p.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        rc = self.wait(timeout)
        if rc is None:
            self.kill()
            self.p.wait()
        for t in self.threads:
            t.join(2)
        self.closed, self.close_rc = True, rc
        return rc

    def leftovers(self):
        """Pids still in this child's process group (with new_session)."""
        left = []
        for d in os.listdir("/proc"):
            st = proc_stat(int(d)) if d.isdigit() else None
            if st and len(st[1]) > 2 and st[1][0] != "Z" \
                    and int(st[1][2]) == self.pid:
                left.append(int(d))
        return left

    def tail(self, n=30, indent="      "):
        """The last n transcript lines, for a failure report."""
        return "\n".join(indent + x[:200] for x in list(self.transcript)[-n:])


class Referee(Engine):
    """The true game, after `uci`, the options and `isready`: stockfish in
    Chess960 mode (8x8), or fairy-stockfish (10x8) with UCI_Variant
    caparandom and UCI_Chess960."""

    def __init__(self, width=8, stockfish=STOCKFISH, fairy=FAIRY, **kw):
        if width == 8:
            exe, opts = stockfish, [("UCI_Chess960", "true")]
        else:
            exe, opts = fairy, [("UCI_Variant", "caparandom"),
                                ("UCI_Chess960", "true")]
        super().__init__([exe], "referee " + os.path.basename(exe), **kw)
        try:
            self.uci(opts, require=[name for name, _ in opts])
        except BaseException:
            self.close(quit=None, timeout=1)
            raise


# ---------------------------------------------------------------- results

class Results:
    """Counts checks; prints failures always, passes only with verbose.
    A check marked xfail (a known bug) counts as passed while it fails
    and as a failure (XPASS) once it passes."""

    def __init__(self, verbose=False):
        self.passed = self.failed = self.xfailed = 0
        self.verbose = verbose

    def check(self, name, ok, detail="", xfail=None):
        if xfail is not None:
            if ok:
                self.failed += 1
                print("XPASS %s (marked as known bug: %s; remove the mark)"
                      % (name, xfail))
            else:
                self.passed += 1
                self.xfailed += 1
                print("xfail %s (known bug: %s)" % (name, xfail))
        elif ok:
            self.passed += 1
            if self.verbose:
                print("ok    %s" % name)
        else:
            self.failed += 1
            print("FAIL  %s" % name)
            if detail:
                if not isinstance(detail, str):  # a list of lines, say
                    detail = repr(detail)
                print("\n".join("      " + x for x in detail.split("\n")))
        sys.stdout.flush()
        return ok

    def abort(self, name, exc, proc=None):
        """A group of checks ended by an exception: a failure, with the
        transcript of the child (exc.proc or proc), which is ended."""
        proc = getattr(exc, "proc", proc)
        self.failed += 1
        print("FAIL  %s: %s: %s" % (name, type(exc).__name__, exc))
        if proc is not None:
            print("      last lines (> to, < from, ! stderr):")
            print(proc.tail())
            proc.close()


def backstop(prog, seconds):
    """Gives up after `seconds` times WAIT (SIGALRM; signal.alarm(0)
    cancels it; meson's timeouts are multiplied by 3 too) or on
    SIGTERM / SIGINT: kills every child still running, or whose process
    group is (children in their own process groups would outlive a
    runner's signal), prints the summary of a failed run and exits 1."""
    def handler(signum, frame):
        if signum == signal.SIGALRM:
            print("%s: whole run over %d s, giving up" % (prog, seconds * WAIT))
        else:
            print("%s: signal %d, giving up" % (prog, signum))
        for p in Engine.started:
            if p.p.poll() is None or p.leftovers():
                p.kill()
        print("0 passed, 1 failed")
        sys.stdout.flush()
        os._exit(1)
    for sig in (signal.SIGALRM, signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, handler)
    signal.alarm(int(seconds * WAIT))


# ---------------------------------------------------------------- files

def proc_stat(pid):
    """(comm, the fields after it) of /proc/PID/stat: fields[0] is the
    state, [1] the parent, [2] the process group.  None if no such pid."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return None
    return (stat[stat.find("(") + 1:stat.rfind(")")],
            stat[stat.rfind(")") + 2:].split())


def log_entries(path):
    """(tag, payload bytes) of each line of a fenbridge --log
    (`DATE TIME TAG PAYLOAD`; no payload: b""); none if unreadable."""
    try:
        with open(path, "rb") as f:
            for raw in f:
                parts = raw.rstrip(b"\n").split(b" ", 3)
                if len(parts) >= 3:
                    yield (parts[2].decode("latin-1"),
                           parts[3] if len(parts) > 3 else b"")
    except OSError:
        pass


CLAIM_RE = re.compile(rb"^(1-0|0-1|1/2-1/2) \{")


def result_claims(path):
    """Result claims fenbridge sent toward an XBoard GUI, from its --log:
    (claims, stray ones).  A claim belongs to the engine's side when the
    engine's move ended the game: `engine> bestmove M`, `>gui move M`,
    the claim.  One after any other engine line (`bestmove (none)` after
    the GUI's own mate: the losing side claiming too) is stray."""
    claims = stray = 0
    last, moved = b"", False
    for tag, payload in log_entries(path):
        if tag == "engine>":
            last, moved = payload, False
        elif tag == ">gui" and payload.startswith(b"move "):
            moved = True
        elif tag == ">gui" and CLAIM_RE.match(payload):
            claims += 1
            stray += not (moved and last.startswith(b"bestmove ") and
                          not re.match(rb"bestmove +(\(none\)|0000)", last))
    return claims, stray
