#!/usr/bin/env python3
"""An XBoard GUI with a UCI engine through fenbridge (issue 12):
`fenbridge --engine-protocol=uci -- ENGINE` in front of a small CECP
client (games.py's XboardGui and game machinery), refereed by stockfish
(8x8) or fairy-stockfish (10x8) perft:

  * stockfish, fischerandom from random Chess960 starts and inner-rook
    starts (castling written O-O by the GUI, king takes rook to the
    engine), and normal chess (castling as the king's move);
  * toga2 (no UCI_Chess960), normal chess;
  * fairy-stockfish, caparandom (10x8) through UCI_Variant;
  * analyze mode (thinking output follows the moves, exit), ping/pong,
    the handshake's features;
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

THINK_RE = re.compile(r"^(\d+) (-?\d+) (\d+) (\d+) (\S.*)$")
RESULT_RE = re.compile(r"^(1-0|0-1|1/2-1/2) \{")
CLAIMS = collections.Counter()  # results claimed, by pairing label


class Gui(games.XboardGui):
    """games.XboardGui with the castling notation of the variant: O-O in
    fischerandom/caparandom, the king's move (e1g1) in normal chess, as
    XBoard writes them."""

    def __init__(self, proc, cfg):
        super().__init__(proc, cfg)
        self.notation = cfg.get("notation", "oo")

    def sync(self, what):
        lines = super().sync(what)
        CLAIMS[self.cfg["label"]] += sum(1 for l in lines
                                         if RESULT_RE.match(l))
        return lines

    def gui_move(self, move, pos):
        m = games.to_notation(move, pos, self.notation)
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
        return games.from_notation(t[1], pos, legal, self.notation)


games.XboardGui = Gui   # run_games builds its GUI by that name


def fb_argv(fenbridge, log, engine, proto="uci"):
    return [fenbridge, "--log=" + log, "--grace=2",
            "--engine-protocol=" + proto, "--", engine]


def pairing(fenbridge, logdir, label, engine, cfg, starts, seed):
    """-> (ok, lines)."""
    if not os.access(engine, os.X_OK):
        return True, ["%s: skipped (%s missing)" % (label, engine)]
    log = os.path.join(logdir, re.sub(r"\W+", "_", label) + ".log")
    t0 = time.monotonic()
    st, err, report = games.run_games(
        fb_argv(fenbridge, log, engine), "fenbridge+" +
        os.path.basename(engine), dict(cfg, label=label), starts, seed, log)
    lines = ["%s: %d games, %d plies, castled in %d (gui %d, engine %d), "
             "%d with an inner rook, %d takebacks, ends %s, %d results "
             "claimed by fenbridge, %.1f s"
             % (label, st["games"], st["plies"], st["castled"], st["gui"],
                st["engine"], st["inner"], st["takebacks"],
                dict(st["ends"]), CLAIMS[label], time.monotonic() - t0)]
    ok = err is None and st["games"] == len(starts)
    if err:
        lines += ["  FAIL: game %d: %s" % (st["games"] + 1, err)] + report
    elif st["castled"] < cfg.get("min_castled", 1):
        ok = False
        lines.append("  FAIL: no game castled")
    return ok, lines


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


def control(fenbridge, logdir):
    """Without the pair (the GUI's protocol on both sides) the XBoard GUI
    gets no features from a UCI engine: the test above must fail."""
    log = os.path.join(logdir, "control.log")
    proc = chesstest.Engine(fb_argv(fenbridge, log, STOCKFISH, "same"),
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
            futs.append(ex.submit(control, args.fenbridge, logdir))
            for f in futs:
                good, lines = f.result()
                ok = ok and good
                print("\n".join(lines))
                sys.stdout.flush()
    print("xboard_uci: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
