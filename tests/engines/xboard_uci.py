#!/usr/bin/env python3
"""An XBoard GUI with a UCI engine through fenbridge (issue 12):
`fenbridge --engine-protocol=uci -- ENGINE` in front of a small CECP
client (games.py's XboardGui and game machinery), refereed by stockfish
(8x8) or fairy-stockfish (10x8) perft:

  * stockfish, fischerandom from random Chess960 starts and inner-rook
    starts (castling written O-O by the GUI, king takes rook to the
    engine), and normal chess (castling as the king's move);
  * toga2 (no UCI_Chess960), normal chess, and fischerandom played in
    standard notation (issue 17): only standard rights reach it, every
    castle it cannot read is re-anchored, its own castles (e8g8) reach
    the GUI as O-O; from random Chess960 starts, and from starts where the
    GUI's side castles at once (the pieces between king and rooks taken
    off, inner-rook rights, a king on e with standard rights on one side
    only); the re-anchoring is logged at info level once per game, the
    GUI gets no telluser;
  * fairy-stockfish, caparandom (10x8) through UCI_Variant;
  * analyze mode (thinking output follows the moves, exit), ping/pong,
    the handshake's features;
  * pondering (`hard`): ponderhit on the expected reply, stop otherwise;
  * mates: the GUI's own mate starts no search and no claim (the losing
    side's), the engine's is claimed once; in every pairing a claim
    follows only the engine's own move;
  * a control: the same GUI with --engine-protocol=same gets no features.

Every game is whole (up to the ply limit or its end) with undo; a move
the referee calls illegal, an Error reply, a stall or a crash fails.
Usage: xboard_uci.py FENBRIDGE [--games N] [--verbose].  Exits 77 when
stockfish is missing; pairings whose engine is missing are skipped.
"""

import argparse
import collections
import concurrent.futures
import os
import random
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chesstest  # noqa: E402
import games  # noqa: E402
from chesstest import FAIRY, SKIP, STOCKFISH, TOGA  # noqa: E402

# fenbridge's --engine-protocol: none, the default (auto), as users run it;
# ["--engine-protocol=uci"] names it.
ENGINE_PROTOCOL = []

THINK_RE = re.compile(r"^(\d+) (-?\d+) (\d+) (\d+) (\S.*)$")
RESULT_RE = re.compile(r"^(1-0|0-1|1/2-1/2) \{")
CLAIMS = collections.Counter()  # results claimed, by pairing label
# castles by the GUI and by the engine, games opened by a GUI castle; by
# pairing label
CASTLES = collections.defaultdict(collections.Counter)


class Gui(games.XboardGui):
    """games.XboardGui with the castling notation of the variant: O-O in
    fischerandom/caparandom, the king's move (e1g1) in normal chess, as
    XBoard writes them."""

    def __init__(self, proc, cfg):
        super().__init__(proc, cfg)
        self.notation = cfg.get("notation", "oo")
        self.count = CASTLES[cfg["label"]]
        self.ply = 0

    def new_game(self, start_pos):
        super().new_game(start_pos)
        self.ply = 0
        self.count["games"] += 1

    def takeback(self, n):
        super().takeback(n)
        self.ply -= n

    def sync(self, what):
        lines = super().sync(what)
        CLAIMS[self.cfg["label"]] += sum(1 for l in lines
                                         if RESULT_RE.match(l))
        return lines

    def gui_move(self, move, pos):
        m = games.to_notation(move, pos, self.notation)
        if pos.castle_wing(move):
            self.count["gui"] += 1
            if self.ply == 0 and self.count["opened_in"] < \
                    self.count["games"]:
                self.count["opened"] += 1       # once per game
                self.count["opened_in"] = self.count["games"]
        self.ply += 1
        self.proc.send(self.prefix + m)
        self.sync(self.prefix + m)

    def engine_move(self, pos, legal, depth, only=None):
        self.proc.send("sd %d" % depth, "go")
        lines = self.proc.wait_for(
            lambda l: l.startswith("move ") or self.ERROR_RE.match(l)
            or l.startswith("tellusererror"), 30)
        self.proc.send("force")
        t = lines[-1].split()
        if t[0] != "move" or len(t) < 2:
            raise games.GameError("engine answered go with: " + lines[-1])
        move = games.from_notation(t[1], pos, legal, self.notation)
        self.count["engine"] += pos.castle_wing(move) is not None
        self.ply += 1
        return move


games.XboardGui = Gui   # run_games builds its GUI by that name


def fb_argv(fenbridge, log, engine, proto=None):
    # Fairy-Stockfish knows both protocols and answers the GUI's own
    # `xboard`: its UCI side, which this file tests, must be named.
    if proto is None:
        proto = ["--engine-protocol=uci"] if engine == FAIRY \
            else ENGINE_PROTOCOL
    return [fenbridge, "--log=" + log, "--grace=2"] + proto + \
        ["--", engine]


def reanchoring(log):
    """What fenbridge's log says of re-anchoring: (castles re-anchored,
    info-level lines, telluser lines to the GUI).  Each search rebuilds
    the position and says it again at debug level, so a castle counts
    once: its ply, in the game its info line opened."""
    castles, infos, tells, plies = 0, 0, 0, set()
    for tag, payload in chesstest.log_entries(log):
        text = payload.decode("latin-1")
        if tag == ">gui" and text.startswith("telluser"):
            tells += 1
        m = re.search(r"re-anchored: the castle \S+ at ply (\d+)", text)
        if not m:
            continue
        if tag == "info":
            infos += 1
            plies = set()
        if m.group(1) not in plies:
            plies.add(m.group(1))
            castles += 1
    return castles, infos, tells


def pairing(fenbridge, logdir, label, engine, cfg, starts, seed):
    """-> (ok, lines)."""
    if not os.access(engine, os.X_OK):
        return True, ["%s: skipped (%s missing)" % (label, engine)]
    log = os.path.join(logdir, re.sub(r"\W+", "_", label) + ".log")
    t0 = time.monotonic()
    st, err, report = games.run_games(
        fb_argv(fenbridge, log, engine), "fenbridge+" +
        os.path.basename(engine), dict(cfg, label=label), starts, seed, log)
    c = CASTLES[label]
    anchored, infos, tells = reanchoring(log)
    lines = ["%s: %d games, %d plies, castled in %d (gui %d, engine %d), "
             "%d castles (gui %d, engine %d, %d inner-rook, %d opening a "
             "game), %d re-anchored, %d takebacks, ends %s, %d results "
             "claimed by fenbridge, %.1f s"
             % (label, st["games"], st["plies"], st["castled"], st["gui"],
                st["engine"], c["gui"] + c["engine"], c["gui"], c["engine"],
                st["inner"], c["opened"], anchored, st["takebacks"],
                dict(st["ends"]), CLAIMS[label], time.monotonic() - t0)]
    ok = err is None and st["games"] == len(starts)
    if err:
        lines += ["  FAIL: game %d: %s" % (st["games"] + 1, err)] + report
    elif st["castled"] < cfg.get("min_castled", 1):
        ok = False
        lines.append("  FAIL: no game castled")
    for what, got, least in (
            ("re-anchored castles", anchored, cfg.get("min_anchored", 0)),
            ("engine castles", c["engine"], cfg.get("min_engine", 0)),
            ("games opened by a GUI castle", c["opened"],
             cfg.get("min_opened", 0)),
            ("inner-rook castles", st["inner"], cfg.get("min_inner", 0))):
        if got < least:
            ok = False
            lines.append("  FAIL: %d %s, expected %d or more"
                         % (got, what, least))
    # Claims only after the engine's own move: the GUI's mate or
    # stalemate starts no search (the loser would claim too).
    claims, stray = chesstest.result_claims(log)
    if stray:
        ok = False
        lines.append("  FAIL: %d of %d result claims not after the "
                     "engine's own move" % (stray, claims))
    # One info line per game at most; never a dialog (telluser).
    if infos > st["games"] or tells:
        ok = False
        lines.append("  FAIL: %d info-level re-anchoring lines in %d games,"
                     " %d telluser to the GUI" % (infos, st["games"], tells))
    return ok, lines


# A king on e with standard rights for black, the GUI's white castling
# with king f1 and rooks b1 / g1: the engine's own castle e8g8 must reach
# the GUI as O-O (XBoard rejected it as a king move).
ONE_SIDE = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBha - 0 1"


# The Chess960 starts with king on e and rooks on a and h: their rights
# reach toga2 (K/Q), which castles as e1g1 / e8c8.
STANDARD_RIGHTS = [r for r in map(chesstest.scharnagl, range(960))
                   if r[::7] == "RR" and r[4] == "K" and r != "RNBQKBNR"]


def opening_castles(rng):
    """Starts in which the side to move (the GUI's, with gui_first)
    can castle at once: two random Chess960 starts with the pieces between
    king and rooks taken off, one with king on e and rooks
    on a and h (standard rights, nothing to re-anchor), ONE_SIDE."""
    other = [r for r in map(chesstest.scharnagl, range(960))
             if r[::7] != "RR" or r[4] != "K"]
    ks = rng.sample(other, 2) + [rng.choice(STANDARD_RIGHTS)]
    return [chesstest.opened_start(k) for k in ks] + [ONE_SIDE]


def handshake(proc):
    proc.send("xboard", "protover 2")
    lines = proc.wait_for(chesstest.XBOARD_DONE, 10)
    return " ".join(l for l in lines if l.startswith("feature"))


def analyze_and_ping(fenbridge, logdir):
    """Analyze mode through fenbridge + stockfish, with pings."""
    log = os.path.join(logdir, "analyze.log")
    proc = chesstest.Engine(fb_argv(fenbridge, log, STOCKFISH), "analyze")
    problems = []
    try:
        feats = handshake(proc)
        for need in ("setboard=1", "usermove=1", "ping=1", "analyze=1",
                     "myname=\"Stockfish", "fischerandom", "done=1"):
            if need not in feats:
                problems.append("feature %s missing: %s" % (need, feats))
        proc.ping(10)
        proc.send("new", "post", "force", "analyze")
        proc.wait_for(THINK_RE.pattern, 10)
        proc.send("usermove e2e4")
        lines = proc.ping(10)
        # After the pong, thinking is about the position after e2e4:
        # its pv starts with a black move.
        lines = proc.wait_for(lambda l: THINK_RE.match(l) and
                              THINK_RE.match(l).group(5)[1] in "78", 10)
        proc.send("undo")
        proc.ping(10)
        lines = proc.wait_for(lambda l: THINK_RE.match(l) and
                              THINK_RE.match(l).group(5)[1] in "12", 10)
        proc.send("exit")
        proc.ping(10)
        time.sleep(0.3)
        proc.send("ping 99")
        after = proc.wait_for(r"^pong 99$", 10)
        if any(THINK_RE.match(l) for l in after):
            problems.append("thinking output after exit: %s" % after)
        # ping answered in order while a search runs
        proc.send("new", "force", "sd 30", "go", "ping 7")
        proc.wait_for(r"^pong 7$", 10)
        proc.send("?")
        proc.wait_for(r"^move ", 10)
    except chesstest.EngineError as e:
        problems.append(str(e))
        problems.append(proc.tail(20))
    finally:
        proc.close()
    return not problems, ["analyze + ping (stockfish): %s" %
                          ("ok" if not problems else "FAIL")] + \
        ["  " + p for p in problems]


def ponder_game(fenbridge, logdir, seed):
    """A game with `hard` against stockfish on a 10 s clock: the GUI
    answers with the engine's expected reply (the second move of its last
    pv) on odd turns and with a random legal move on even ones, so both
    `ponderhit` and a stopped ponder search happen; every engine move is
    refereed."""
    log = os.path.join(logdir, "ponder.log")
    rng = random.Random(seed)
    proc = chesstest.Engine(fb_argv(fenbridge, log, STOCKFISH), "ponder")
    ref = games.Referee(8)
    start, moves, problems = games.STANDARD, [], []
    clock = [10000, 10000]          # centiseconds: engine, GUI
    try:
        handshake(proc)
        proc.send("new", "hard", "post", "level 0 0:10 0")
        guess = None
        for turn in range(8):
            fen, legal = ref.step(start, moves)
            pos = games.Pos(fen)
            mine = guess if guess in legal and turn % 2 else \
                rng.choice(legal)
            proc.send("time %d" % clock[0], "otim %d" % clock[1],
                      "usermove " + games.to_notation(mine, pos, "king"))
            moves.append(mine)
            t0 = time.monotonic()
            lines = proc.wait_for(lambda l: l.startswith("move ") or
                                  l.startswith("Illegal") or
                                  l.startswith("tellusererror") or
                                  RESULT_RE.match(l), 20)
            clock[0] -= int((time.monotonic() - t0) * 100)
            t = lines[-1].split()
            if t[0] != "move":
                if not RESULT_RE.match(lines[-1]):
                    problems.append("answer: " + lines[-1])
                break
            fen, legal = ref.step(start, moves)
            moves.append(games.from_notation(t[1], games.Pos(fen), legal,
                                             "king"))
            pvs = [THINK_RE.match(l).group(5).split() for l in lines
                   if THINK_RE.match(l)]
            guess = pvs[-1][1] if pvs and len(pvs[-1]) > 1 and \
                pvs[-1][0] == t[1] else None
        proc.ping(10)
    except (chesstest.EngineError, games.GameError) as e:
        problems.append(str(e))
        problems.append(proc.tail(20))
    finally:
        proc.close()
        ref.close()
    sent = collections.Counter(
        p.split(b" ")[0].decode("latin-1") for tag, p in
        chesstest.log_entries(log) if tag == ">engine")
    hits, pondered = sent["ponderhit"], sent["go"]
    if not problems and (hits < 1 or sent["stop"] < 1):
        problems.append("no ponderhit or no stopped ponder search: %s"
                        % dict(sent))
    return not problems, ["ponder (stockfish, hard): %d engine moves, "
                          "%d ponderhit, %d stop: %s"
                          % (len(moves) // 2, hits, sent["stop"],
                             "ok" if not problems else "FAIL")] + \
        ["  " + p for p in problems]


def mates(fenbridge, logdir):
    """The GUI mates toga2 (fool's mate, with the engine to reply): no
    search, so no claim from the losing side; then toga2 mates the GUI
    and fenbridge claims that once (issue 17, item 12)."""
    log = os.path.join(logdir, "mates.log")
    proc = chesstest.Engine(fb_argv(fenbridge, log, TOGA), "mates")
    problems = []
    try:
        handshake(proc)
        proc.send("new", "force", "f2f3", "e7e5", "g2g4", "playother",
                  "usermove d8h4")
        lines = proc.ping(10)
        time.sleep(0.5)
        lines += proc.ping(10)
        proc.send("result 0-1 {Black mates}")
        if any(RESULT_RE.match(l) for l in lines):
            problems.append("a claim after the GUI's mate: %s" % lines)
        proc.send("new", "force", "f2f3", "e7e5", "g2g4", "sd 4", "go")
        lines = proc.wait_for(r"^move ", 10)
        lines += proc.ping(10)
        got = [l for l in lines if RESULT_RE.match(l)]
        if "move d8h4" not in lines or got != ["0-1 {Black mates}"]:
            problems.append("the engine's mate: %s" % lines)
    except chesstest.EngineError as e:
        problems.append(str(e))
        problems.append(proc.tail(20))
    finally:
        proc.close()
    claims, stray = chesstest.result_claims(log)
    if not problems and (claims, stray) != (1, 0):
        problems.append("%d claims in the log, %d stray" % (claims, stray))
    return not problems, ["mates (toga2): GUI's mate unclaimed, engine's "
                          "claimed once: %s" % ("ok" if not problems
                                                else "FAIL")] + \
        ["  " + p for p in problems]


def control(fenbridge, logdir):
    """Without the pair (the GUI's protocol on both sides) the XBoard GUI
    gets no features from a UCI engine: the test above must fail."""
    log = os.path.join(logdir, "control.log")
    proc = chesstest.Engine(fb_argv(fenbridge, log, STOCKFISH,
                                    ["--engine-protocol=same"]),
                            "control")
    try:
        proc.send("xboard", "protover 2")
        proc.wait_for(chesstest.XBOARD_DONE, 3)
        return False, ["control (--engine-protocol=same): FAIL: got "
                       "feature done=1"]
    except chesstest.EngineError as e:
        return True, ["control (--engine-protocol=same): fails as "
                      "expected: %s" % e]
    finally:
        proc.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fenbridge")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    if not os.access(STOCKFISH, os.X_OK):
        print("stockfish missing: skipped")
        return SKIP
    chesstest.backstop("xboard_uci", 85)
    rng = random.Random(args.seed)
    trng = random.Random(args.seed + 1)     # toga2's starts
    n = args.games
    common = {"protocol": "xboard", "plies": 40, "verbose": args.verbose,
              "depths": [1, 2, 3], "preludes": [0, 6, 10]}
    std = [games.STANDARD] * n
    f960 = games.random_960_starts(rng, n)
    capa = [chesstest.start_fen(chesstest.caparandom_rank(rng))
            for _ in range(n)]
    jobs = [
        # deeper, the engine castles by itself now and then
        ("stockfish fischerandom", STOCKFISH,
         dict(common, xvariant="fischerandom", depths=[4, 5, 6]), f960),
        ("stockfish normal", STOCKFISH,
         dict(common, xvariant="normal", notation="king"), std),
        ("toga2 normal", TOGA,
         dict(common, xvariant="normal", notation="king"), std),
        # no UCI_Chess960: standard notation, castles re-anchored
        ("toga2 fischerandom", TOGA,
         dict(common, xvariant="fischerandom", min_anchored=1),
         games.random_960_starts(trng, n) + [
             chesstest.start_fen(r) for r in trng.sample(STANDARD_RIGHTS, 2)]),
        ("fairy-stockfish caparandom", FAIRY,
         dict(common, xvariant="caparandom", width=10, depths=[4, 5, 6]),
         capa),
    ]
    ok = True
    with tempfile.TemporaryDirectory(prefix="fb-xbuci-") as logdir:
        try:
            inner = games.inner_rook_starts(rng, 2, 8)
            jobs.append(("stockfish fischerandom, inner-rook starts",
                         STOCKFISH, dict(common, xvariant="fischerandom",
                                         preludes=[0]), inner))
            jobs.append(("toga2 fischerandom, GUI castles first", TOGA,
                         dict(common, xvariant="fischerandom", preludes=[0],
                              gui_first=True, min_anchored=3, min_opened=3,
                              min_inner=1, min_engine=1),
                         opening_castles(trng) + inner))
            if os.access(FAIRY, os.X_OK):
                inner = games.inner_rook_starts(rng, 1, 10)
                jobs.append(("fairy-stockfish caparandom, inner-rook start",
                             FAIRY, dict(common, xvariant="caparandom",
                                         width=10, preludes=[0]), inner))
        except chesstest.EngineError as e:
            print("FAIL: no inner-rook start: %s" % e)
            ok = False
        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            futs = [ex.submit(pairing, args.fenbridge, logdir, label, exe,
                              cfg, starts, args.seed + i)
                    for i, (label, exe, cfg, starts) in enumerate(jobs)]
            futs.append(ex.submit(analyze_and_ping, args.fenbridge, logdir))
            futs.append(ex.submit(ponder_game, args.fenbridge, logdir,
                                  args.seed))
            futs.append(ex.submit(control, args.fenbridge, logdir))
            if os.access(TOGA, os.X_OK):
                futs.append(ex.submit(mates, args.fenbridge, logdir))
            for f in futs:
                good, lines = f.result()
                ok = ok and good
                print("\n".join(lines))
                sys.stdout.flush()
    print("xboard_uci: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
