#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fenbridge replay with real engines.

Usage: replay_engines.py FENBRIDGE

For stockfish and toga2 (each skipped when missing): a UCI GUI plays a game
of fixed-depth searches (go depth 7, 24 plies, the engines' own moves)
through `fenbridge --log=FILE`; `fenbridge replay --speed=fast FILE` then
feeds the same engine the same lines and must find no divergence (exit 0,
every bestmove the same). The same game again, the engine killed with
SIGKILL at its end, leaves a flight record: its replay shows the same
answers but no death (exit 1, "not reproduced"). A log truncated at half
its lines (a session cut short) replays without divergence too. Then the
engine behind dying_engine.py (as restart.py uses it) dies of SIGSEGV at
its 30th go: the record that game leaves is reproduced (exit 0) with a
fresh dying_engine.py, and not with the engine alone (exit 1). Last, a
crash in the project's match harness (match.py --crash: toga2 behind
dying_engine.py against stockfish) is reproduced from the record the match
left.

Exit status 0 pass, 1 failure, 77 (skip) when neither engine is there.
"""

import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile

FB = None
HERE = os.path.dirname(os.path.abspath(__file__))
TOGA = "/usr/games/toga2"
failures = 0


def check(cond, msg):
    global failures
    if not cond:
        failures += 1
        print("FAIL: " + msg)
    return cond


def children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def play(engine, tmp, log=None, kill_at_end=False, plies=24):
    """A game of go depth 7 through fenbridge (engine: a path or an argv);
    returns the moves."""
    argv = [FB] + (["--log=" + log] if log else []) + ["--"] + \
        ([engine] if isinstance(engine, str) else engine)
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, cwd=tmp,
                         env=dict(os.environ, TMPDIR=tmp))

    def send(s):
        try:
            p.stdin.write(s.encode())
            p.stdin.flush()
        except BrokenPipeError:
            pass  # fenbridge is gone with its engine

    def until(word):
        while True:
            line = p.stdout.readline().decode()
            if not line:
                raise RuntimeError("EOF before %s" % word)
            if line.split()[:1] == [word]:
                return line.split()

    send("uci\n")
    until("uciok")
    send("setoption name Hash value 16\nucinewgame\nisready\n")
    until("readyok")
    moves = []
    for _ in range(plies):
        send("position startpos moves %s\ngo depth 7\n" % " ".join(moves))
        try:
            best = until("bestmove")
        except RuntimeError:
            break  # the engine died

        if best[1] in ("(none)", "0000"):
            break
        moves.append(best[1])
        send("isready\n")
        until("readyok")
    if kill_at_end:
        for c in children(p.pid):
            os.kill(c, signal.SIGKILL)
        # the GUI is told (and the record written) before it goes
        for line in p.stdout:
            if b"fenbridge: the engine" in line:
                break
    else:
        send("quit\n")
    try:
        p.stdin.close()
    except BrokenPipeError:
        pass
    p.wait(timeout=30)
    return moves


def replay(path, engine, *opts):
    r = subprocess.run([FB, "replay", "--speed=fast", *opts, path, "--"] +
                       ([engine] if isinstance(engine, str) else engine),
                       capture_output=True, timeout=300)
    out = r.stdout.decode()
    print("    " + out.replace("\n", "\n    ").rstrip())
    return r.returncode, out


def one(engine):
    tmp = tempfile.mkdtemp(prefix="fb-replay-")
    try:
        log = os.path.join(tmp, "game.log")
        moves = play(engine, tmp, log=log)
        print("%s: %d plies, %s ..." % (engine, len(moves),
                                        " ".join(moves[:6])))
        rc, out = replay(log, engine)
        check(rc == 0 and "replayed: no divergence" in out and
              "(%d moves) are the recorded ones" % len(moves) in out,
              "%s: the log's replay" % engine)

        # a log cut short at half its lines
        with open(log) as f:
            lines = f.readlines()
        cut = os.path.join(tmp, "cut.log")
        with open(cut, "w") as f:
            f.writelines(lines[:len(lines) // 2])
        rc, out = replay(cut, engine)
        check(rc == 0 and "replayed: no divergence" in out,
              "%s: the truncated log's replay" % engine)

        # a flight record: the engine killed at the game's end
        moves2 = play(engine, tmp, kill_at_end=True)
        check(moves2 == moves, "%s: the second game is the first" % engine)
        recs = glob.glob(os.path.join(tmp, "fenbridge-*.txt"))
        if check(len(recs) == 1, "%s: one flight record" % engine):
            rc, out = replay(recs[0], engine)
            check(rc == 1 and "recorded: the engine died of SIGKILL (9)"
                  in out and "are the recorded ones" in out and
                  out.endswith("not reproduced\n"),
                  "%s: the record's replay" % engine)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def crash(engine):
    """The engine dies of SIGSEGV at its 30th go (dying_engine.py in front
    of it, as in restart.py): the record the game leaves reproduces it."""
    tmp = tempfile.mkdtemp(prefix="fb-replay-")
    dying = [sys.executable, os.path.join(HERE, "dying_engine.py")]
    try:
        moves = play(dying + [os.path.join(tmp, "gos"), "30", "0", engine],
                     tmp, plies=60)
        print("%s, dying at its 30th go: %d plies" % (engine, len(moves)))
        check(len(moves) == 29, "%s: plies before the death" % engine)
        recs = glob.glob(os.path.join(tmp, "fenbridge-*.txt"))
        if not check(len(recs) == 1, "%s: one flight record" % engine):
            return
        rc, out = replay(recs[0], dying + [os.path.join(tmp, "gos2"), "30",
                                           "0", engine])
        check(rc == 0 and "recorded: the engine died of SIGSEGV (11)" in out
              and "(29 moves) are the recorded ones"
              in out and out.endswith("\nreproduced\n"),
              "%s: the crash reproduced" % engine)
        rc, out = replay(recs[0], engine)
        check(rc == 1 and out.endswith("\nnot reproduced\n"),
              "%s: the engine without the crash" % engine)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def match_crash():
    """The project's match harness (match.py --crash: toga2 behind
    dying_engine.py, played against stockfish as cutechess-cli plays it)
    loses a game to a crash at the engine's 20th go; the flight record that
    match leaves is reproduced by the one command doc/replay.md names."""
    tmp = tempfile.mkdtemp(prefix="fb-replay-match-")
    dying = [sys.executable, os.path.join(HERE, "dying_engine.py")]
    try:
        r = subprocess.run([sys.executable, os.path.join(HERE, "match.py"),
                            FB, "--crash", os.path.join(tmp, "gos"),
                            "--games", "1", "--keep-logs"],
                           capture_output=True, timeout=600)
        out = r.stdout.decode()
        kept = [ln[len("logs kept in "):] for ln in out.split("\n")
                if ln.startswith("logs kept in ")]
        if not check(r.returncode == 0 and "fails as expected" in out and
                     kept, "match.py --crash: the game lost to the crash\n"
                     + out[-2000:]):
            return
        recs = glob.glob(os.path.join(kept[0], "fenbridge-*.txt"))
        if check(len(recs) == 1, "match.py --crash: one flight record"):
            rc, text = replay(recs[0], dying + [os.path.join(tmp, "gos2"),
                                                "20", "0", TOGA])
            check(rc == 0 and "recorded: the engine died of SIGSEGV (11)"
                  in text and text.endswith("\nreproduced\n"),
                  "the match's crash reproduced")
            rc, text = replay(recs[0], TOGA)
            check(rc == 1 and text.endswith("\nnot reproduced\n"),
                  "the match's record and toga2 alone: not reproduced")
        shutil.rmtree(kept[0], ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    global FB
    FB = os.path.abspath(sys.argv[1])
    engines = [e for e in ("/usr/games/stockfish", "/usr/games/toga2")
               if os.access(e, os.X_OK)]
    if not engines:
        print("no stockfish or toga2: skipped")
        sys.exit(77)
    for e in engines:
        one(e)
        crash(e)
    if os.access(TOGA, os.X_OK) and os.access("/usr/games/stockfish",
                                              os.X_OK):
        match_crash()
    print("%d failures" % failures)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
