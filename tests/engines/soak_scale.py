#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A soak at scale: N engine-against-engine games at once through
fenbridge --referee=warn, for M minutes.

Usage: soak_scale.py FENBRIDGE [--minutes M] [--games-at-once N] [--seed S]

N defaults to twice the cores. Each worker plays game after game until the
time is up: a pairing chosen at random among referee_variants.py's, which
cover all four pairs (UCI GUI with UCI and XBoard engines, XBoard GUI with
XBoard and UCI engines: stockfish, fairy-stockfish, sjaakii, toga2, GNU
Chess), from a random Chess960, DFRC or CRC start (plain chess for engines
without Chess960), with default flags plus --referee=warn. Prints:

  games         games played, and plies
  illegal       moves the referee found not legal, and `Illegal move` lines
  lost          games lost by fenbridge: a stall (no answer within the
                deadline, scaled by FB_TEST_WAIT), the GUI's end closed
                (disconnect), or an exit status but 0
  findings      the referee's findings that are not known engine defects
                (referee_games.KNOWN)
  cpu           fenbridge's CPU seconds against the engines' (each
                fenbridge's own, read from /proc before it is told to quit;
                the engines' are the rest of what wait4 reports for it)

and the targets: 0 illegal, 0 lost, 0 findings (exit 1 otherwise), and
fenbridge under 1 % of the engines' CPU (printed; not a verdict: CPU time
on a loaded machine is noisy). 77 without stockfish.
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chesstest  # noqa: E402
import referee_games  # noqa: E402
import referee_variants as rv  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def own_cpu(pid):
    """pid's own user + system CPU seconds (/proc/PID/stat), or 0."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            st = f.read()
    except OSError:
        return 0.0
    fields = st[st.rindex(b")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.games = self.plies = self.lost = self.illegal_lines = 0
        self.fb_cpu = self.total_cpu = 0.0
        self.losses = []


class Session(rv.Session):
    """referee_variants' session, with stderr to a file and the CPU time
    accounted at its end."""

    def __init__(self, fb, argv, fbopts, err, stats):
        self.p = subprocess.Popen([fb, "--referee=warn"] + fbopts + ["--"] +
                                  argv, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=err,
                                  bufsize=0)
        self.buf = b""
        self.stats = stats

    def line(self, deadline):
        ln = super().line(deadline)
        if ln.startswith("Illegal move"):
            with self.stats.lock:
                self.stats.illegal_lines += 1
        return ln

    def close(self, quit="quit"):
        fb = own_cpu(self.p.pid)
        try:
            self.send(quit)
            self.p.stdin.close()
        except OSError:
            pass
        deadline = time.monotonic() + 15 * chesstest.WAIT
        while True:
            pid, status, ru = os.wait4(self.p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                self.p.kill()
                pid, status, ru = os.wait4(self.p.pid, 0)
                break
            time.sleep(0.05)
        self.p.returncode = os.waitstatus_to_exitcode(status)
        with self.stats.lock:
            self.stats.fb_cpu += fb
            self.stats.total_cpu += ru.ru_utime + ru.ru_stime
        return self.p.returncode


def installed(argv):
    return os.access(argv[-1] if argv[0] == "env" else argv[0], os.X_OK)


def worker(fb, end, seed, stats, log):
    rng = random.Random(seed)
    pairs = [p for p in rv.pairings() if installed(p[2])]
    while time.monotonic() < end:
        label, gui, argv, fbopts, kinds, depth = rng.choice(pairs)
        kind = rng.choice(kinds)
        fen = rv.starts(rng, kind)
        sides = []
        moves = []
        why = None
        try:
            for _ in range(2):
                sides.append(gui(fb, argv, fbopts, kind, depth))
            for i, g in enumerate(sides):
                g.start(fen, i == 0)
            for ply in range(rv.PLIES):
                m = sides[ply % 2].play(moves)
                if m is None:
                    break
                moves.append(m)
                if ply + 1 < rv.PLIES:
                    sides[(ply + 1) % 2].told(m)
        except TimeoutError:
            why = "stall"
        except (EOFError, OSError) as e:
            why = "disconnect (%s)" % e
        statuses = [g.close() for g in sides]
        if why is None and any(rc != 0 for rc in statuses):
            why = "exit statuses %r" % statuses
        with stats.lock:
            stats.games += 1
            stats.plies += len(moves)
            if why:
                stats.lost += 1
                stats.losses.append("%s, %s from %s: %s after %d plies" % (
                    label, kind, fen, why, len(moves)))
        log.write("%s %s %d plies%s\n" % (label, kind, len(moves),
                                          ": " + why if why else ""))
        log.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fenbridge")
    ap.add_argument("--minutes", type=float, default=20)
    ap.add_argument("--games-at-once", type=int,
                    default=2 * (os.cpu_count() or 1))
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    if not os.access(chesstest.STOCKFISH, os.X_OK):
        print("skipped: no stockfish")
        return 77
    fb = os.path.abspath(args.fenbridge)
    tmp = tempfile.mkdtemp(prefix="fb-soak-scale-")
    errpath = os.path.join(tmp, "stderr.txt")
    stats = Stats()
    t0 = time.monotonic()
    end = t0 + args.minutes * 60
    with open(errpath, "ab") as err, \
            open(os.path.join(tmp, "games.txt"), "w") as log:
        # referee_variants' GUIs start their sessions as ours.
        rv.Session = lambda f, a, o: Session(f, a, o, err, stats)
        threads = [threading.Thread(target=worker, daemon=True,
                                    args=(fb, end, args.seed + i, stats, log))
                   for i in range(args.games_at_once)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    sums, found = referee_games.findings(errpath)
    illegal = [f for f in found if f.startswith("illegal")]
    unknown = referee_games.judge(sums, found)
    engines = stats.total_cpu - stats.fb_cpu
    share = 100 * stats.fb_cpu / engines if engines > 0 else 0.0
    print("soak_scale: %d games at once for %.1f min (%.0f s)"
          % (args.games_at_once, args.minutes, time.monotonic() - t0))
    print("games:    %d (%d plies, %d sessions)" % (stats.games, stats.plies,
                                                   len(sums)))
    print("illegal:  %d (referee) + %d (Illegal move lines)"
          % (len(illegal), stats.illegal_lines))
    print("lost:     %d by fenbridge" % stats.lost)
    for why in stats.losses[:20]:
        print("  " + why)
    print("findings: %d not known engine defects (%d in all)"
          % (len(unknown), len(found)))
    print("cpu:      fenbridge %.1f s, engines %.1f s: %.2f %% (target < 1 %%)"
          % (stats.fb_cpu, engines, share))
    ok = (stats.games > 0 and not illegal and stats.illegal_lines == 0 and
          stats.lost == 0 and not unknown)
    print("soak_scale: %s (logs in %s)" % ("targets met" if ok and share < 1
                                            else "PASS" if ok else "FAIL",
                                            tmp))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
