#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A real engine that dies mid-game, for --restart (tests/engines/restart.py).

Usage: dying_engine.py STATE DIE_AT DELAY_MS ENGINE [ARGS...]

Relays stdin to ENGINE and ENGINE's stdout back, line by line, and counts
the `go` lines it gets (UCI and XBoard) in the file STATE, shared by every
start, so that the count goes on after fenbridge starts it again.  At a go
whose number is in DIE_AT (comma-separated), it keeps the go from the
engine, waits DELAY_MS (the search "runs" meanwhile: time the GUI's clock
loses), kills the engine and dies of SIGSEGV, as a crashing engine would.
Every line it gets is appended to STATE.log, each start opened by
`## start`.
"""

import os
import signal
import subprocess
import sys
import threading
import time


def count_go(state):
    try:
        with open(state) as f:
            n = int(f.read().strip() or 0)
    except FileNotFoundError:
        n = 0
    n += 1
    with open(state, "w") as f:
        f.write("%d\n" % n)
    return n


def main():
    state, die_at, delay = sys.argv[1], sys.argv[2], int(sys.argv[3])
    deaths = {int(x) for x in die_at.split(",") if x}
    eng = subprocess.Popen(sys.argv[4:], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, bufsize=0)
    log = open(state + ".log", "a")
    log.write("## start\n")
    log.flush()

    def pump():
        for raw in eng.stdout:
            os.write(1, raw)
    t = threading.Thread(target=pump, daemon=True)
    t.start()
    for raw in sys.stdin.buffer:
        line = raw.decode(errors="replace").rstrip("\r\n")
        log.write(line + "\n")
        log.flush()
        if line.split()[:1] == ["go"] and count_go(state) in deaths:
            time.sleep(delay / 1000)
            eng.kill()
            eng.wait()
            signal.signal(signal.SIGSEGV, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGSEGV)
        try:
            eng.stdin.write(raw)
        except BrokenPipeError:
            break
    try:
        eng.stdin.close()
    except BrokenPipeError:
        pass
    eng.wait()
    t.join(2)


main()
