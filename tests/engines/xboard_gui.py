#!/usr/bin/env python3
"""XBoard 4.9, the real GUI, plays matches against UCI engines that only
fenbridge's translation makes XBoard engines (issue 12), with default
settings as users run it (fenbridge finds out the engine's protocol):

    xboard -mg N -variant fischerandom
           -fcp "fenbridge -- stockfish"  (both sides)
    xboard -mg N -variant fischerandom
           -fcp "fenbridge -- toga2" -scp "fenbridge -- stockfish"
    xboard -mg N -variant caparandom
           -fcp "fenbridge -- fairy-stockfish"   (which knows both: XBoard)

fenbridge is started as the XBoard recipe of doc/gui-recipes.md writes
it: its -fcp / -scp words (recipes.py reads them from the document), with
this fenbridge, a log file and each match's engine.

Toga II has no UCI_Chess960: fenbridge offers it fischerandom all the
same and plays it in standard notation (issue 17): only standard rights
reach it, a castle it cannot read (stockfish's, across the board) goes as
the position after it (re-anchored), its own e8g8 reaches XBoard as O-O.
Its starts add a king on e with rooks on a and h and two with standard
rights on one side only (XBoard alternates colours: toga2 gets them with
each colour).

XBoard runs under an Xvfb of our own (-displayfd picks a free display),
the matches at once, each game from a position of a -loadPositionFile
(-lpi -1: the next position each game): Chess960 / Capablanca-random
starts with the pieces between king and rooks taken off both sides (so
that castling is legal at once and the engines do castle), in X-FEN and
Shredder-FEN, and the X-FEN example of an inner-rook right (`Gga`, a rook
beyond the castling rook).  Short clocks (-tc 0:04 -inc 0.05) and
draw / loss adjudication keep a game to a few seconds.

Checks, from what XBoard wrote (-saveGameFile PGN, -savePositionFile
final FENs, -nameOfDebugFile protocol log):
  * XBoard ended the match by itself (exit 0, `final score` printed);
  * every game has a decisive or drawn result, none ended by an illegal
    move, a false claim, an engine error or exit, or the clock (an engine
    that does not answer loses on time), and both sides moved;
  * the debug log shows no `Illegal move`, `Error`, `tellusererror` from
    an engine and no XBoard error; fenbridge's logs show the engines got
    UCI `position fen` lines;
  * castles occurred (O-O / O-O-O in the PGN) in each variant;
  * fenbridge claims a result only after its engine's own move, never
    for the side that lost to the other's mate (the last game of the
    fischerandom matches is a mate in 2);
  * toga2: fenbridge re-anchored castles, said at info level at most once
    per game;
  * the games replay legally: fischerandom with chessops (npm, as
    pgn_files.py; skipped without node/npm), both variants with a
    referee engine (stockfish / fairy-stockfish in Chess960 mode, SAN
    matched against `go perft 1`), and the final position is the one
    XBoard saved.

Without the feature it fails: `--engine-protocol=same` puts the UCI engine
bare behind fenbridge and XBoard cannot play it.  `--engines=xboard` runs
the harness against fairy-stockfish's own XBoard mode (`fenbridge --
fairy-stockfish`), a control that needs no translation.

Exits 77 when xboard, Xvfb or an engine is missing.  About 60 s.
"""

import argparse
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chesstest  # noqa: E402
import recipes  # noqa: E402
from chesstest import FAIRY, SKIP, STOCKFISH, TOGA  # noqa: E402

XBOARD = "/usr/games/xboard"
# fenbridge's --engine-protocol for the UCI engines, in this one place
# (another change makes `auto` the default; then this can go).
ENGINE_PROTOCOL = "auto"
DEPTH = 8                   # XBoard's -depth (sd N): fast moves, no flag fall
MATCH_TIMEOUT = 200 * chesstest.WAIT  # the matches (about 60 s alone; CI
                            # runs another test beside this one): a stall
TOTAL_TIMEOUT = 270         # the whole run, below meson's timeout (both
                            # multiplied: FB_TEST_WAIT, meson's 3)

# The X-FEN definition's inner-rook example (dialects.md): white's `G` is
# the g1 rook, with the h1 rook beyond it.
INNER = "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - 4 11"


# Start 502 (RQBNKBNR: king on e, rooks on a and h, the rights standard
# FEN expresses) for one side, 296 (QBNRBKRN) for the other: toga2 (white
# in odd games, XBoard alternates) gets 502 with each colour.
ONE_SIDE = ["qbnrbkrn/pppppppp/8/8/8/8/PPPPPPPP/RQBNKBNR w HAgd - 0 1",
            "rqbnkbnr/pppppppp/8/8/8/8/PPPPPPPP/QBNRBKRN w GDha - 0 1"]


# A mate in 2 for white (Kb6 Kb8 Rh8#), last in an odd-numbered game:
# the first engine mates and claims it; the loser behind the other
# fenbridge must not claim as well.
MATE_IN_2 = "k7/8/2K5/8/8/8/8/7R w - - 0 1"


def positions(name):
    """The start positions of the match, one per game."""
    if name == "fischerandom-toga2":
        ranks = [chesstest.scharnagl(n) for n in (296, 714, 502)]
        return [chesstest.opened_start(ranks[0], xfen=True),
                chesstest.opened_start(ranks[1]),
                INNER, chesstest.start_fen(ranks[2])] + ONE_SIDE + \
            [MATE_IN_2]
    if name == "fischerandom":
        ranks = [chesstest.scharnagl(n) for n in (296, 714, 18)]
        fens = [chesstest.opened_start(ranks[0], xfen=True),
                chesstest.opened_start(ranks[1]),
                INNER,
                chesstest.start_fen(ranks[2], xfen=True), MATE_IN_2]
    else:
        rng = random.Random(12)
        ranks = [chesstest.caparandom_rank(rng) for _ in range(2)]
        fens = [chesstest.opened_start(ranks[0], xfen=True),
                chesstest.opened_start(ranks[1])]
    return fens


# ---------------------------------------------------------------- Xvfb

def start_xvfb():
    """Xvfb on a free display (-displayfd writes its number): (Popen,
    ':N'), or None."""
    r, w = os.pipe()
    p = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0",
                          "1024x768x24", "-nolisten", "tcp"],
                         pass_fds=(w,), stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    os.close(w)
    data = b""
    deadline = time.monotonic() + 15 * chesstest.WAIT
    while not data.endswith(b"\n") and time.monotonic() < deadline:
        ready, _, _ = select.select([r], [], [], 1)
        if ready:
            chunk = os.read(r, 64)
            if not chunk:
                break
            data += chunk
    os.close(r)
    if not data.strip().isdigit():
        kill_group(p)
        return None
    return p, ":" + data.decode().strip()


def kill_group(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    p.wait()


def group_members(pgid):
    out = []
    for d in os.listdir("/proc"):
        st = chesstest.proc_stat(int(d)) if d.isdigit() else None
        if st and st[1][0] != "Z" and int(st[1][2]) == pgid:
            out.append("%s %s" % (d, st[0]))
    return out


# ---------------------------------------------------------------- a match

class Match:
    def __init__(self, name, variant, engine_cmd, uci, tmp, display):
        self.name, self.variant, self.uci = name, variant, uci
        self.dir = os.path.join(tmp, name)
        os.mkdir(self.dir)
        self.fens = positions(name)
        self.games = len(self.fens)
        self.posfile = self.path("positions.fen")
        with open(self.posfile, "w") as f:
            f.write("".join(fen + "\n" for fen in self.fens))
        self.pgn, self.final = self.path("games.pgn"), self.path("final.fen")
        self.debug = self.path("xboard.debug")
        cmd = [XBOARD, "-mg", str(self.games), "-variant", variant,
               "-lpf", self.posfile, "-lpi", "-1",
               "-tc", "0:30", "-inc", "0.1", "-depth", str(DEPTH),
               "-matchPause", "200", "-adjudicateDrawMoves", "60",
               "-adjudicateLossThreshold", "-1000",
               "-autoCallFlag", "true", "-xexit", "-saveSettingsOnExit", "false",
               "-xponder", "-xanimate",
               "-sgf", self.pgn, "-spf", self.final,
               "-debug", "-nameOfDebugFile", self.debug,
               "-fcp", engine_cmd("first", self.dir),
               "-scp", engine_cmd("second", self.dir),
               "-fd", self.dir, "-secondDirectory", self.dir]
        env = dict(os.environ, DISPLAY=display)
        self.out = open(self.path("xboard.out"), "w+")
        self.t0 = time.monotonic()
        self.p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                  stdout=self.out, stderr=subprocess.STDOUT,
                                  cwd=self.dir, env=env,
                                  start_new_session=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def wait(self, deadline):
        try:
            self.rc = self.p.wait(timeout=max(deadline - time.monotonic(), 1))
        except subprocess.TimeoutExpired:
            self.rc = None
        self.seconds = time.monotonic() - self.t0
        # Engines told to quit end: wait for that (a deadline only for a
        # process that stays), not for a fixed time.
        end = time.monotonic() + 5 * chesstest.WAIT
        self.left = group_members(self.p.pid)
        while self.left and time.monotonic() < end:
            time.sleep(0.05)
            self.left = group_members(self.p.pid)
        kill_group(self.p)
        self.out.seek(0)
        self.output = self.out.read()
        self.out.close()


# ---------------------------------------------------------------- PGN

TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
RESULTS = ("1-0", "0-1", "1/2-1/2")
# Game-end comments XBoard writes for a game that was played out; every
# other reason (illegal move, false claim, engine error or exit, time,
# a stall) is a failure here.
GOOD_END = re.compile(r"checkmate|mates|stalemate|adjudication|repetition|"
                      r"50-move|fifty|insufficient|resigns|draw|wins by",
                      re.I)
BAD_END = re.compile(r"illegal|false|error|crash|exit|terminat|on time|"
                     r"forfeit|flag|disconnect|stall|abort", re.I)


def read_pgn(path):
    """[(tags, sans, last comment)] of XBoard's saved games."""
    try:
        with open(path, encoding="latin-1") as f:
            text = f.read()
    except OSError:
        return []
    games = []
    for chunk in re.split(r"\n(?=\[Event )", text):
        tags, body = {}, []
        for line in chunk.split("\n"):
            m = TAG.match(line)
            if m:
                tags[m.group(1)] = m.group(2)
            else:
                body.append(line)
        if not tags:
            continue
        text = "\n".join(body)
        comments = re.findall(r"\{([^}]*)\}", text)
        moves = re.sub(r"\{[^}]*\}|\([^)]*\)|\$\d+", " ", text)
        sans = [t for t in moves.split()
                if not re.match(r"^\d+\.+$", t) and t not in RESULTS + ("*",)]
        sans = [re.sub(r"^\d+\.+", "", t) for t in sans]
        games.append((tags, [s for s in sans if s],
                      comments[-1].strip() if comments else ""))
    return games


SAN = re.compile(r"^([KQRBNAC])?([a-j])?([1-8])?x?([a-j][1-8])=?([QRBNAC])?$")


def san_to_uci(san, fen, legal):
    """The one legal move (the referee's UCI, Chess960 castling as king
    takes rook) that SAN names in the position fen, or None."""
    board = chesstest.parse_board(fen.split()[0])
    white = fen.split()[1] == "w"
    own = str.isupper if white else str.islower

    def piece(s):
        f, r = chesstest.sq(s)
        return board[r][f]

    def castle(m):
        p, q = piece(m[:2]), piece(m[2:4])
        return p and p.upper() == "K" and q and q.upper() == "R" and own(q)

    s = san.rstrip("+#!?")
    if s in ("O-O", "O-O-O"):
        found = [m for m in legal if castle(m) and
                 (m[2] > m[0]) == (s == "O-O")]
    else:
        m = SAN.match(s)
        if not m:
            return None
        kind, ffile, frank, dest, promo = m.groups()
        kind = kind or "P"
        found = [u for u in legal if not castle(u) and u[2:4] == dest
                 and piece(u[:2]).upper() == kind
                 and (not ffile or u[0] == ffile)
                 and (not frank or u[1] == frank)
                 and u[4:] == (promo or "").lower()]
    return found[0] if len(found) == 1 else None


def referee_replay(width, games):
    """Each game replayed by the referee: (errors, [(final position, the
    position XBoard saves)])."""
    errors, finals = [], []
    ref = chesstest.Referee(width)
    try:
        for i, (tags, sans, last) in enumerate(games):
            start, moves = tags.get("FEN"), []
            fen, legal = ref.step(start)
            for san in sans:
                u = san_to_uci(san, fen, legal)
                if u is None:
                    errors.append("game %d: %s is not one legal move at %s"
                                  % (i + 1, san, fen))
                    break
                moves.append(u)
                fen, legal = ref.step(start, moves)
            end = fen
            if re.search(r"long game|repetition|mate", last):
                # XBoard saves the position before the last move of a
                # game it stops at the move limit, a repetition or a
                # mate.
                fen = ref.step(start, moves[:-1])[0] if moves else fen
            finals.append((end, fen))
    finally:
        ref.close()
    return errors, finals


def same_position(a, b):
    """Placement and side to move of two FENs agree."""
    return a is not None and b is not None and a.split()[:2] == b.split()[:2]


# ---------------------------------------------------------------- checks

ENGINE_BAD = re.compile(r"^\d+ <(first|second): *(Illegal move|Error|"
                        r"tellusererror|telluser|Unknown command)", re.I)
XBOARD_BAD = re.compile(r"xboard: .*(error|failed|illegal)|"
                        r"Illegal move|False illegal-move claim", re.I)


def claims(res, m):
    """The result claims fenbridge sent XBoard: each after its engine's
    own move (a mate or stalemate); the losing side must not claim too
    (chesstest.result_claims)."""
    got = [chesstest.result_claims(m.path("fenbridge-%s.log" % side))
           for side in ("first", "second")]
    res.check("%s: result claims only after the engine's own move (%d "
              "claims)" % (m.name, sum(c for c, _ in got)),
              not any(s for _, s in got),
              "stray claims: first %d, second %d" % (got[0][1], got[1][1]))


def reanchoring(res, m):
    """toga2 (the first engine) has no Chess960: fenbridge re-anchored the
    castles it cannot read, said so at info level at most once per game,
    and toga2's own castles reached XBoard as O-O / O-O-O."""
    infos, castles = 0, 0
    for tag, payload in chesstest.log_entries(m.path("fenbridge-first.log")):
        infos += tag == "info" and b"re-anchored" in payload
        castles += tag == ">gui" and payload.startswith(b"move O-O")
    res.check("%s: castles re-anchored for toga2 in %d games, said at "
              "info level once in each" % (m.name, infos),
              0 < infos <= m.games, "games: %d" % m.games)
    res.check("%s: toga2 castled (%d moves O-O / O-O-O to XBoard)"
              % (m.name, castles), castles > 0)


def check_match(res, m, npm):
    name = m.name
    res.check("%s: xboard ended the %d-game match itself (exit 0, %.0f s)"
              % (name, m.games, m.seconds),
              m.rc == 0 and "final score" in m.output,
              "exit status %s; its output:\n%s" % (m.rc, m.output[-1500:]))
    res.check("%s: nothing left running after xboard" % name, not m.left,
              " ".join(m.left))
    bad = [l for l in m.output.splitlines() if XBOARD_BAD.search(l)]
    res.check("%s: no xboard error or illegal-move message" % name, not bad,
              "\n".join(bad[:10]))
    try:
        with open(m.debug, encoding="latin-1") as f:
            dbg = f.read().splitlines()
    except OSError:
        dbg = []
    bad = [l for l in dbg if ENGINE_BAD.search(l)]
    res.check("%s: debug log: no Illegal move / Error / telluser from an "
              "engine (%d lines)" % (name, len(dbg)), dbg and not bad,
              "\n".join(bad[:10]))

    if m.uci:
        # The UCI engines really spoke UCI: fenbridge sent them positions
        # (with default settings fairy-stockfish, which knows both, is
        # spoken to in XBoard, its answer to the GUI's own `xboard`).
        for side in m.uci_sides:
            sent = [e[1] for e in chesstest.log_entries(
                m.path("fenbridge-%s.log" % side)) if e[0] == ">engine"]
            pos = sum(1 for l in sent if l.startswith(b"position fen "))
            res.check("%s: the %s engine got UCI (%d `position fen` lines)"
                      % (name, side, pos), pos >= m.games,
                      "last lines to it: %s" % sent[-5:])

    games = read_pgn(m.pgn)
    res.check("%s: %d games saved" % (name, m.games), len(games) == m.games,
              "saved: %d" % len(games))
    for i, (tags, sans, last) in enumerate(games):
        result = tags.get("Result")
        ok = result in RESULTS and GOOD_END.search(last) \
            and not BAD_END.search(last) and len(sans) >= 2
        res.check("%s game %d: %s {%s} after %d plies" % (
            name, i + 1, result, last, len(sans)), ok,
            "start %s; moves: %s" % (tags.get("FEN"), " ".join(sans[:40])))
        want = tags.get("FEN", "").split()[:1]
        res.check("%s game %d: started from its position" % (name, i + 1),
                  want == m.fens[i].split()[:1],
                  "expected: %s\n     got: %s" % (m.fens[i], tags.get("FEN")))
    castles = sum(1 for _, sans, _ in games for s in sans
                  if s.startswith("O-O"))
    res.check("%s: castles occurred (%d O-O / O-O-O)" % (name, castles),
              castles >= 1)
    if m.uci:
        claims(res, m)
    if TOGA in m.engines:
        reanchoring(res, m)

    try:
        with open(m.final) as f:
            xb_finals = [l.strip() for l in f if l.strip()]
    except OSError:
        xb_finals = []
    width = 10 if m.variant == "caparandom" else 8
    errors, finals = referee_replay(width, games)
    res.check("%s: the referee replays every game legally" % name,
              games and not errors, "\n".join(errors[:5]))
    saved = [b for _, b in finals]
    same = len(xb_finals) == len(games) and all(
        same_position(a, b) for a, b in zip(saved, xb_finals))
    res.check("%s: the referee's final positions are XBoard's" % name, same,
              "\n".join("referee %s\n xboard %s" % ab
                        for ab in zip(saved, xb_finals)))
    if npm and width == 8 and games:
        r = node(npm, "replay", m.pgn)
        res.check("%s: chessops replays %d/%d games legally (%d castles)"
                  % (name, r["checked"], r["games"], r["castles"]),
                  not r["errors"] and r["checked"] == len(games) > 0,
                  "\n".join(r["errors"]))
        ends = [a for a, _ in finals]
        res.check("%s: chessops' final positions are the referee's" % name,
                  len(ends) == len(r["finals"]) and all(
                      same_position(a, b) for a, b in zip(r["finals"], ends)),
                  "\n".join("chessops %s\n referee %s" % ab
                            for ab in zip(r["finals"], ends)))


def node(npm, *args):
    import pgn_files
    return pgn_files.node(npm, *args)


def find_npm():
    """chessops as pgn_files.py installs it, or None (no node / npm)."""
    if not (shutil.which("node") and shutil.which("npm")):
        return None
    import pgn_files
    try:
        return pgn_files.chessops_dir()
    except SystemExit:              # npm could not install it
        return None


# ---------------------------------------------------------------- main

def recipe_fcp(res):
    """The words of -fcp / -scp in doc/gui-recipes.md's XBoard recipe
    (XBoard splits them at blanks): fenbridge's options before `--`, and
    the engines it names. The matches below start fenbridge this way."""
    argv = recipes.words("xboard")
    opts, named = [], []
    for flag in ("-fcp", "-scp"):
        ok = flag in argv[:-1]
        words = argv[argv.index(flag) + 1].split() if ok else []
        ok = ok and words[0] == recipes.FENBRIDGE and "--" in words[1:-1]
        res.check("recipe: xboard %s is `%s [OPTIONS] -- ENGINE`"
                  % (flag, recipes.FENBRIDGE), ok, " ".join(argv))
        if ok:
            opts.append(words[1:words.index("--")])
            named.append(words[words.index("--") + 1])
    res.check("recipe: xboard plays -variant fischerandom",
              "-variant" in argv and
              argv[argv.index("-variant") + 1] == "fischerandom",
              " ".join(argv))
    res.check("recipe: its engines are those played here",
              named and set(named) <= {STOCKFISH, TOGA}, repr(named))
    res.check("recipe: both sides start fenbridge alike",
              len(opts) == 2 and opts[0] == opts[1], repr(opts))
    return opts[0] if opts else []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fenbridge")
    ap.add_argument("--engine-protocol", default=ENGINE_PROTOCOL,
                    help="fenbridge's --engine-protocol (same: the control "
                    "that must fail)")
    ap.add_argument("--engines", choices=("uci", "xboard"), default="uci",
                    help="xboard: fairy-stockfish in its own XBoard mode "
                    "for both variants (a harness check)")
    ap.add_argument("--only", choices=("fischerandom", "fischerandom-toga2",
                                       "caparandom"))
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    fb = os.path.abspath(a.fenbridge)

    need = [XBOARD, FAIRY] + ([STOCKFISH, TOGA] if a.engines == "uci"
                              else [])
    for exe in need:
        if not os.access(exe, os.X_OK):
            print("SKIP: no " + exe)
            return SKIP
    if not shutil.which("Xvfb"):
        print("SKIP: no Xvfb")
        return SKIP
    npm = find_npm()            # before the backstop: npm may install
    chesstest.backstop("xboard_gui", TOTAL_TIMEOUT)
    if npm is None:
        print("note: no node/npm/chessops: fischerandom replayed by the "
              "referee only")

    res = chesstest.Results(a.v)
    doc_opts = recipe_fcp(res)
    tmp = tempfile.mkdtemp(prefix="fb-xboard-")
    xvfb = start_xvfb()
    if xvfb is None:
        print("SKIP: Xvfb did not start")
        return SKIP
    matches = []
    try:
        for name, variant, engines in (
                ("fischerandom", "fischerandom", (STOCKFISH, STOCKFISH)),
                ("fischerandom-toga2", "fischerandom", (TOGA, STOCKFISH)),
                ("caparandom", "caparandom", (FAIRY, FAIRY))):
            if a.only and a.only != name:
                continue
            if a.engines == "xboard":
                if TOGA in engines:
                    continue        # no XBoard mode of its own
                engines, proto = (FAIRY, FAIRY), []
            elif a.engine_protocol == "auto":
                proto = []          # default settings: fenbridge finds out
            else:
                proto = ["--engine-protocol=" + a.engine_protocol]

            def engine_cmd(side, d, engines=engines, proto=proto):
                # The recipe's command line, with this fenbridge, a log
                # and the match's engine. XBoard splits -fcp at blanks (no
                # shell); no quoting needed for these paths.
                engine = engines[side == "second"]
                return " ".join([fb] + doc_opts + proto +
                                ["--log=%s/fenbridge-%s.log" % (d, side),
                                 "--", engine])
            matches.append(Match(name, variant, engine_cmd,
                                 a.engines == "uci", tmp, xvfb[1]))
            matches[-1].engines = engines
            matches[-1].uci_sides = [
                side for side, e in zip(("first", "second"), engines)
                if e != FAIRY or a.engine_protocol == "uci"]
        deadline = time.monotonic() + MATCH_TIMEOUT
        for m in matches:
            m.wait(deadline)
        for m in matches:
            check_match(res, m, npm)
    finally:
        for m in matches:
            if m.p.poll() is None:
                kill_group(m.p)
        kill_group(xvfb[0])
    signal.alarm(0)
    if res.failed:
        print("files kept in " + tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (res.passed, res.failed))
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
