#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The start-up time the engine-protocol probe adds (doc/protocols.md,
"The engine's protocol"), in the four pairings with Debian's engines:

    bench_probe.py FENBRIDGE [RUNS]      (default 10 runs)

For each pairing, interleaved RUNS times: the engine alone (where GUI and
engine speak one protocol), fenbridge with the protocol named
(--engine-protocol=same, or uci/xboard where it translates) and fenbridge
with default settings (auto). Each run starts the process, waits 0.3 s
(the engine's own start is not the probe's), sends the GUI's handshake
(`uci`; `xboard` + `protover 2`) and times it up to the line that ends
it (`uciok`; `feature ... done=1`). Prints median, min and max per way.
A missing engine is skipped.
"""

import os
import re
import select
import statistics
import subprocess
import sys
import time

G = "/usr/games/"
UCI = (b"uci\n", re.compile(r"^uciok\s*$", re.M))
XB = (b"xboard\nprotover 2\n", re.compile(r"^feature .*done=1", re.M))
# (pairing, GUI handshake, engine, named protocol, the engine alone?)
CASES = [
    ("UCI GUI + stockfish", UCI, "stockfish", "same", True),
    ("UCI GUI + sjaakii", UCI, "sjaakii", "same", True),
    ("UCI GUI + fairymax", UCI, "fairymax", "xboard", False),
    ("XBoard GUI + fairy-stockfish", XB, "fairy-stockfish", "same", True),
    ("XBoard GUI + sjaakii", XB, "sjaakii", "same", True),
    ("XBoard GUI + stockfish", XB, "stockfish", "uci", False),
    ("XBoard GUI + toga2", XB, "toga2", "uci", False),
]


def handshake(argv, lines, done, timeout=15):
    """Seconds from the handshake to its end, or None."""
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, bufsize=0)
    time.sleep(0.3)
    t0 = time.monotonic()
    os.write(p.stdin.fileno(), lines)
    buf, took = b"", None
    while time.monotonic() - t0 < timeout:
        if not select.select([p.stdout], [], [], timeout)[0]:
            break
        data = os.read(p.stdout.fileno(), 65536)
        if not data:
            break
        buf += data
        if done.search(buf.decode("latin-1")):
            took = time.monotonic() - t0
            break
    try:
        os.write(p.stdin.fileno(), b"quit\n")
    except OSError:
        pass
    try:
        p.wait(5)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    return took


def main():
    fb = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    for name, (lines, done), engine, named, alone in CASES:
        exe = G + engine
        if not os.access(exe, os.X_OK):
            print("%-30s skipped: no %s" % (name, exe))
            continue
        ways = [("alone", [exe])] if alone else []
        ways += [(named, [fb, "--engine-protocol=" + named, "--", exe]),
                 ("default", [fb, "--", exe])]
        times = {w: [] for w, _ in ways}
        for _ in range(runs):
            for w, argv in ways:
                times[w].append(handshake(argv, lines, done))
        out = []
        for w, _ in ways:
            ok = [t for t in times[w] if t is not None]
            out.append("%s %.1f ms (%.1f-%.1f, %d/%d)" % (
                w, 1000 * statistics.median(ok), 1000 * min(ok),
                1000 * max(ok), len(ok), runs) if ok else w + " FAILED")
        print("%-30s %s" % (name, "; ".join(out)), flush=True)


if __name__ == "__main__":
    main()
