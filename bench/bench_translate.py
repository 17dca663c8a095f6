#!/usr/bin/env python3
"""Benchmark of protocol translation (issue 12): an XBoard GUI with a UCI
engine, engine -> GUI thinking output, in one run:

    polyglot INI                         (PolyGlot 2.0.4, EngineCommand = engine)
    fenbridge --engine-protocol=uci -- engine
    sh -c 'engine | cat'                 (baseline: a plain pipe, no translation;
                                          the GUI speaks UCI to it)

The engine is this program (`--engine N`): a UCI engine that answers `go`
with N `info depth D seldepth S score cp X nodes N nps P time T pv ...`
lines (legal moves from the start position: PolyGlot turns the pv into
SAN), then `bestmove e2e4`; the flood is formatted before the clock runs
and written in 64 KiB pieces.  The GUI (this program) sends `go` (XBoard:
`new`, `force`, `post`, `go`; the pipe: `position startpos`, `go`) and
counts lines until the move (`move ...` / `bestmove ...`), reading 64 KiB
at a time: the drain rate is the engine's N lines / (move received - go
sent); PolyGlot shows only some of them (it forwards a thinking line when
what it shows changes), so the lines that reached the GUI are printed
beside it.  Each
adapter's CPU time (/proc/PID/stat of the adapter process) per line is
printed too.

Latency (`--engine latency K`): K info lines 20 ms apart, each carrying
the engine's CLOCK_MONOTONIC in its nodes field (passed through by both
adapters); the GUI notes when each line arrives.  Median and max delay per
adapter: a line held back until the next one comes would show 20 ms.

Prints figures and ratios (fenbridge / PolyGlot, issue target >= 5x;
fenbridge / pipe); exit 0 whatever the figures, 1 when a run lost lines or
hung, 77 when polyglot is missing.

Usage: bench_translate.py FENBRIDGE [--lines N] [--reps R]
"""

import os
import select
import shlex
import subprocess
import sys
import tempfile
import time

PV = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5"
POLYGLOT = "/usr/games/polyglot"
SKIP = 77


# ---------------------------------------------------------------- the engine

def flood(n):
    lines = []
    for i in range(n):
        d = 1 + i % 40
        lines.append("info depth %d seldepth %d multipv 1 score cp %d nodes %d "
                     "nps 1234567 hashfull 12 tbhits 0 time %d pv %s\n"
                     % (d, d + 5, (i * 7) % 300 - 150, 1000 + i * 97, i, PV))
    return "".join(lines).encode()


def engine(mode, n):
    out = sys.stdout.buffer
    block = flood(n) if mode == "flood" else b""

    def say(b):
        out.write(b)
        out.flush()
    for line in sys.stdin.buffer:
        w = line.split()
        if not w:
            continue
        if w[0] == b"uci":
            say(b"id name FloodEngine\nid author bench\nuciok\n")
        elif w[0] == b"isready":
            say(b"readyok\n")
        elif w[0] == b"go":
            if mode == "flood":
                for i in range(0, len(block), 65536):
                    out.write(block[i:i + 65536])
                    out.flush()
            else:
                for i in range(n):
                    say(b"info depth %d score cp 10 nodes %d time %d pv %s\n"
                        % (i + 1, time.monotonic_ns(), i, PV.encode()))
                    time.sleep(0.02)
            say(b"bestmove e2e4\n")
        elif w[0] == b"quit":
            return


# ---------------------------------------------------------------- the GUI

class Session:
    def __init__(self, kind, argv, xboard, tmp):
        self.kind, self.xboard = kind, xboard
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, cwd=tmp,
                                  start_new_session=True)
        self.fd = self.p.stdout.fileno()
        self.buf = b""
        if xboard:
            self.send(b"xboard\nprotover 2\n")
            self.until(lambda l: l.startswith(b"feature") and b"done=1" in l)
            self.send(b"new\nforce\npost\n")
            self.go = b"go\n"
            self.end = b"move "
        else:
            self.send(b"uci\n")
            self.until(lambda l: l == b"uciok")
            self.send(b"isready\n")
            self.until(lambda l: l == b"readyok")
            self.go = b"position startpos\ngo\n"
            self.end = b"bestmove "

    def send(self, b):
        self.p.stdin.write(b)
        self.p.stdin.flush()

    def read(self, timeout):
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            raise TimeoutError("%s: no output for %g s" % (self.kind, timeout))
        chunk = os.read(self.fd, 65536)
        if not chunk:
            raise EOFError("%s: output ended" % self.kind)
        return chunk

    def until(self, pred, timeout=20):
        while True:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                if pred(line.rstrip(b"\r")):
                    return line
            self.buf += self.read(timeout)

    def drain(self):
        """After go: (lines before the move, seconds)."""
        t0 = time.monotonic()
        self.send(self.go)
        count, tail = 0, b""
        while True:
            chunk = self.read(60)
            count += chunk.count(b"\n")
            data = tail + chunk
            i = data.find(b"\n" + self.end)
            if i >= 0:
                count -= data[i + 1:].count(b"\n")   # the move, after it
                return count, time.monotonic() - t0
            if count == 0 and data.startswith(self.end):
                return 0, time.monotonic() - t0
            tail = data[-16:]

    def latencies(self, k):
        self.send(self.go)
        delays, seen = [], set()
        self.repeats = 0
        while True:
            line = self.until(lambda l: True, 10)
            now = time.monotonic_ns()
            if line.startswith(self.end):
                return delays
            w = line.split()
            # XBoard: depth score time nodes pv; UCI: ... nodes N ...
            if self.xboard and len(w) >= 4 and w[0].isdigit():
                stamp = int(w[3])
            elif b"nodes" in w:
                stamp = int(w[w.index(b"nodes") + 1])
            else:
                continue
            if stamp in seen:           # a line shown again (PolyGlot
                self.repeats += 1       # repeats the last one at the move)
                continue
            seen.add(stamp)
            delays.append((now - stamp) / 1e6)

    def cpu(self):
        """User+system seconds of the adapter process so far."""
        with open("/proc/%d/stat" % self.p.pid) as f:
            st = f.read()
        fields = st[st.rfind(")") + 2:].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self):
        try:
            self.send(b"quit\n")
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(5)
        except subprocess.TimeoutExpired:
            os.killpg(self.p.pid, 9)
            self.p.wait()


def argv_for(kind, fb, eng, tmp):
    if kind == "polyglot":
        ini = os.path.join(tmp, "flood.ini")
        with open(ini, "w") as f:
            f.write("[PolyGlot]\nEngineDir = %s\nEngineCommand = %s\n"
                    "Log = false\nBook = false\n[Engine]\n"
                    % (tmp, " ".join(shlex.quote(a) for a in eng)))
        return [POLYGLOT, ini], True
    if kind == "fenbridge":
        return [fb, "--engine-protocol=uci", "--"] + eng, True
    return ["sh", "-c", " ".join(shlex.quote(a) for a in eng) + " | cat"], False


def session(kind, fb, eng, tmp, run):
    """run(Session) on a new session of kind; None (reported) if it
    hung or ended."""
    argv, xb = argv_for(kind, fb, eng, tmp)
    s = Session(kind, argv, xb, tmp)
    try:
        return run(s)
    except (TimeoutError, EOFError) as e:
        print("  %s: %s" % (kind, e))
        return None
    finally:
        s.close()


def flood_run(s):
    """(lines that reached the GUI, seconds, adapter CPU seconds)."""
    c0 = s.cpu()
    count, secs = s.drain()
    return count, secs, s.cpu() - c0


def main():
    args = sys.argv[1:]
    if args[:1] == ["--engine"]:
        engine(args[1], int(args[2]))
        return 0
    if not args:
        print(__doc__)
        return 2
    fb = os.path.abspath(args[0])
    n = int(args[args.index("--lines") + 1]) if "--lines" in args else 300000
    reps = int(args[args.index("--reps") + 1]) if "--reps" in args else 3
    if not os.access(POLYGLOT, os.X_OK):
        print("SKIP: no " + POLYGLOT)
        return SKIP
    me = [sys.executable, os.path.abspath(__file__), "--engine"]
    kinds = ("pipe", "fenbridge", "polyglot")
    bad = 0
    with tempfile.TemporaryDirectory(prefix="bench-translate-") as tmp:
        print("bench_translate: engine -> XBoard GUI, %d info lines per "
              "go, %d repetitions, interleaved" % (n, reps))
        rates = {k: [] for k in kinds}
        cpus = {k: [] for k in kinds}
        for r in range(reps):
            for kind in kinds:
                got = session(kind, fb, me + ["flood", str(n)], tmp,
                              flood_run)
                if got is None:
                    bad += 1
                    continue
                count, secs, cpu = got
                # The drain rate is the engine's lines over the time to
                # the move: PolyGlot forwards only some of them (the ones
                # it shows), so what arrives is noted beside it.
                rates[kind].append(n / secs)
                cpus[kind].append(cpu / n)
                print("  rep %d %-9s %9.0f engine lines/s  %6.2f s  %5s "
                      "ns CPU/line in the adapter  %d lines reached the GUI"
                      % (r + 1, kind, n / secs, secs,
                         "%.0f" % (1e9 * cpu / n) if kind != "pipe" else "-",
                         count))

        def med(v):
            v = sorted(v)
            return v[len(v) // 2] if v else float("nan")
        print()
        for kind in kinds:
            print("%-9s median %10.0f engine lines/s drained, %6s ns CPU "
                  "per line in the adapter process" % (
                      kind, med(rates[kind]), "%.0f" % (1e9 * med(cpus[kind]))
                      if kind != "pipe" else "-"))
        fbr, pgr, pr = (med(rates[k]) for k in ("fenbridge", "polyglot",
                                                "pipe"))
        print("fenbridge / polyglot: %.1fx (issue target >= 5x: %s)"
              % (fbr / pgr, "met" if fbr / pgr >= 5 else "NOT met"))
        print("fenbridge / pipe:     %.2fx" % (fbr / pr))

        k = 50
        print("\nlatency: %d info lines 20 ms apart, delay from the engine's "
              "write to the GUI's read" % k)
        for kind in kinds:
            got = session(kind, fb, me + ["latency", str(k)], tmp,
                          lambda s: (sorted(s.latencies(k)), s.repeats))
            if got is None:
                bad += 1
                continue
            d, repeats = got
            if len(d) != k:
                print("  %s: %d of %d lines arrived" % (kind, len(d), k))
                bad += 1
            if repeats:
                print("  %s: %d line(s) shown twice (not timed again)"
                      % (kind, repeats))
            if d:
                print("%-9s median %.3f ms, max %.3f ms (%s)" % (
                    kind, d[len(d) // 2], d[-1],
                    "no line waits for the next" if d[-1] < 10 else
                    "a line waited for the next one"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
