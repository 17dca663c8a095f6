#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--restart=N with real engines that die mid-game.

Usage: restart.py FENBRIDGE [--games N] [--plies N] [--verbose]

The engine is dying_engine.py in front of a real one (stockfish for UCI,
sjaakii and fairy-stockfish for XBoard): it dies of SIGSEGV at chosen `go` lines, its count
kept across fenbridge's restarts.

Games: games.py's UCI and XBoard test GUIs play whole refereed games (every
move checked legal by a stockfish referee) through `fenbridge --restart=2`
in the four pairs (UCI-UCI, XBoard-XBoard, XBoard GUI with a UCI engine,
UCI GUI with an XBoard engine); the engine dies twice in the first game
and twice in the second: every game must end (mate, stalemate or the ply
limit) with no illegal move, and the log must show four restarts.

Clocks: one search with a clock of 6 s, in each pair; the engine dies 1.5 s
into it: the new engine's go carries the clock less those 1.5 s (at least
1.2 s less, and no more than the time until the move), and the move
reaches the GUI.

Beyond N: with --restart=1 a second death in one game reaches the GUI as
without the option (`info string fenbridge: the engine died ...`, EOF).
Controls: the same games without --restart end at the first death.

Exit status 0 pass, 1 failure, 77 (skip) without stockfish or sjaakii.
"""

import argparse
import os
import re
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chesstest  # noqa: E402
import games  # noqa: E402
from chesstest import FAIRY, SKIP, STOCKFISH, EngineError  # noqa: E402

SJAAKII = chesstest.GAMES + "/sjaakii"
# Sjaak II without MALLOC_PERTURB_ (see uci_xboard.py).
SJAAK = ["env", "-u", "MALLOC_PERTURB_", SJAAKII]
WRAPPER = [sys.executable, os.path.join(HERE, "dying_engine.py")]
STANDARD = games.STANDARD

failures = 0


def report(ok, line, extra=()):
    global failures
    print(("ok   " if ok else "FAIL ") + line)
    for x in extra:
        print("     " + x)
    failures += not ok


def dying(tmp, name, die_at, delay, engine):
    state = os.path.join(tmp, name + ".gos")
    return state, WRAPPER + [state, die_at, str(delay)] + engine


# label, fenbridge options, the engine, the GUI's protocol
PAIRS = [
    ("UCI GUI, UCI engine (stockfish)", [], [STOCKFISH], "uci"),
    # games.py's XBoard GUI needs usermove=1, which Sjaak II lacks; it
    # plays fischerandom (castling O-O), which Fairy-Stockfish 11.1 takes
    # as king takes rook.
    ("XBoard GUI, XBoard engine (fairy-stockfish)",
     ["--engine-protocol=xboard", "--engine-castling=kxr"], [FAIRY],
     "xboard"),
    ("XBoard GUI, UCI engine (stockfish)", ["--engine-protocol=uci"],
     [STOCKFISH], "xboard"),
    ("UCI GUI, XBoard engine (sjaakii)", ["--engine-protocol=xboard"],
     SJAAK, "uci"),
]


def gui_cfg(protocol, args):
    cfg = {"plies": args.plies, "verbose": args.verbose, "depths": [1, 2],
           "protocol": protocol, "preludes": [0, 6]}
    if protocol == "uci":
        cfg.update(dialect="shredder", options=[], p_searchmoves=0)
    else:
        cfg.update(xvariant="fischerandom", sd=2)
    return cfg


def restarts_logged(log):
    try:
        with open(log, errors="replace") as f:
            return f.read().count("mid-game; starting it again")
    except FileNotFoundError:
        return 0


def play(tmp, label, fbopts, engine, protocol, args, restart, die_at, tag):
    log = os.path.join(tmp, tag + ".log")
    state, argv = dying(tmp, tag, die_at, 100, engine)
    argv = [args.fenbridge, "--log=" + log, "--grace=2"] + \
        (["--restart=%d" % restart] if restart else []) + fbopts + \
        ["--"] + argv
    stats, err, rep = games.run_games(argv, "fenbridge+" + label,
                                      gui_cfg(protocol, args),
                                      [STANDARD] * args.games, 21, log)
    return stats, err, rep, restarts_logged(log)


def check_games(tmp, args):
    for i, (label, fbopts, engine, protocol) in enumerate(PAIRS):
        # Deaths at the 3rd and 5th engine turn of game 1 and the 2nd and
        # 4th of game 2 (the test GUI sends one go per engine turn).
        turns = (args.plies + 1) // 2
        die_at = "3,5,%d,%d" % (turns + 2, turns + 4)
        t0 = time.monotonic()
        stats, err, rep, n = play(tmp, label, fbopts, engine, protocol,
                                  args, 2, die_at, "games%d" % i)
        ok = err is None and stats["games"] == args.games and n >= 3
        report(ok, "%s: %d games, %d plies, %d restarts, ends %s (%.1f s)"
               % (label, stats["games"], stats["plies"], n,
                  dict(stats["ends"]), time.monotonic() - t0),
               ([err] + rep) if err else [])
        # The control: the same without --restart ends at the first death.
        stats, err, _, n = play(tmp, label, fbopts, engine, protocol, args,
                                0, die_at, "control%d" % i)
        report(err is not None and stats["games"] == 0,
               "  control without --restart: %s" %
               (err or "went through (expected the crash)"))


def second_start(state):
    with open(state + ".log") as f:
        return f.read().split("## start\n")[2:]


def clock_search(tmp, i, label, fbopts, engine, protocol, args):
    """One search with 6 s on the engine's clock; it dies 1.5 s in."""
    tag = "clock%d" % i
    state, argv = dying(tmp, tag, "1", 1500, engine)
    log = os.path.join(tmp, tag + ".log")
    fb = chesstest.Engine([args.fenbridge, "--log=" + log, "--restart=2"] +
                          fbopts + ["--"] + argv, "fenbridge+" + label)
    try:
        if protocol == "uci":
            fb.uci([], timeout=20)
            fb.send("ucinewgame", "position startpos moves e2e4")
            fb.sync(20)
            t0 = time.monotonic()
            fb.send("go wtime 60000 btime 6000 winc 0 binc 0")
            lines = fb.wait_for(r"^bestmove ", 20)
        else:
            fb.send("xboard", "protover 2")
            fb.wait_for(chesstest.XBOARD_DONE, 20)
            fb.send("new", "level 0 1 0", "post", "force",
                    "usermove e2e4")
            fb.ping(20)
            t0 = time.monotonic()
            fb.send("time 600", "otim 6000", "go")
            lines = fb.wait_for(r"^move ", 20)
        took = time.monotonic() - t0
    except EngineError as e:
        report(False, "%s: clock: %s" % (label, e), [fb.tail(20)])
        return
    finally:
        fb.close()
    replay = "".join(second_start(state))
    # The engine's protocol: UCI go with btime (black to move), or XBoard
    # time in centiseconds.
    m = re.search(r"^go .*btime (\d+)", replay, re.M)
    clock = int(m.group(1)) if m else None
    if m is None:
        m = re.search(r"^time (\d+)\n(?:.*\n)*?go$", replay, re.M)
        clock = int(m.group(1)) * 10 if m else None
    note = [l for l in lines if "restarted (1 of 2)" in l]
    # The new engine's clock is what was left when it started: less than
    # 6000 - 1200 (it died 1.5 s in), and no less than 6000 ms minus the
    # time until the move (the restart came before the move). No bound on
    # how fast: a loaded machine is slow, not wrong.
    ok = clock is not None and 6000 - took * 1000 <= clock <= 4800 and \
        len(note) == 1
    report(ok, "%s: clock 6000 ms, died 1500 ms in: the new engine got "
           "%s ms, the move came after %.2f s, note %s"
           % (label, clock, took, bool(note)),
           [] if ok else ["replay: %r" % replay[:600]])


def beyond_n(tmp, args):
    state, argv = dying(tmp, "beyond", "1,2", 100, [STOCKFISH])
    fb = chesstest.Engine([args.fenbridge, "--restart=1", "--"] + argv,
                          "fenbridge+stockfish")
    fb.uci([], timeout=20)
    fb.send("ucinewgame", "position startpos", "go depth 5")
    lines = fb.drain(15)
    rc = fb.close()
    died = [l for l in lines if l.startswith("info string fenbridge: the "
                                             "engine died of SIGSEGV")]
    ok = len(died) == 2 and "restarted (1 of 1)" in died[0] and \
        "restarted" not in died[1] and \
        not any(l.startswith("bestmove") for l in lines) and \
        rc == 128 + 11
    report(ok, "beyond N: a second death in the game reaches the GUI "
           "(exit status %s)" % rc, [] if ok else lines[-8:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fenbridge")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--plies", type=int, default=30)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    if not all(os.access(e, os.X_OK) for e in (STOCKFISH, SJAAKII, FAIRY)):
        print("stockfish, sjaakii or fairy-stockfish missing: skipped")
        return SKIP
    tmp = tempfile.mkdtemp(prefix="fb-restart-")
    chesstest.backstop("restart.py", 280)
    try:
        check_games(tmp, args)
        for i, (label, fbopts, engine, protocol) in enumerate(PAIRS):
            clock_search(tmp, i, label, fbopts, engine, protocol, args)
        beyond_n(tmp, args)
    finally:
        if failures:
            print("(kept %s)" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print("%d failed" % failures)
    return 1 if failures else 0


sys.exit(main())
