#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Flow control: a GUI that stops reading while the engine floods must not
make fenbridge's memory grow; once the GUI reads again, every line arrives,
in order."""

import time

import fbtest
from fbtest import check, eq, test

LIMIT_KB = 8 * 1024


def rss_is_meaningful():
    """False under a wrapper (valgrind) or AddressSanitizer."""
    if fbtest.WRAPPER:
        return False
    with open(fbtest.FENBRIDGE, "rb") as f:
        return b"__asan_init" not in f.read()


def memory_kb(pid):
    st = fbtest.proc_status(pid)
    return int(st["VmRSS"].split()[0]), int(st["VmHWM"].split()[0])


def engine_written(pid):
    """Bytes pid has written (wchar in /proc/PID/io), or None."""
    try:
        with open("/proc/%d/io" % pid) as f:
            for line in f:
                if line.startswith("wchar:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


@test(timeout=40)
def paused_gui_keeps_memory_bounded(ctx):
    n = fbtest.scale(1000000)
    b = ctx.bridge()
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"fake-flood %d\n" % n)
    # Stop reading. The engine soon blocks on its full pipe, fenbridge
    # stops reading it: RSS must stay flat while the GUI is paused.
    samples = []
    for _ in range(8):
        time.sleep(0.1)
        samples.append(memory_kb(b.pid))
    rss, hwm = samples[-1]
    check(b.p.poll() is None, "fenbridge is running")
    # The pause reached the engine: it is blocked with most still unwritten.
    written = engine_written(b.engine_pid())
    if written is not None:
        check(written < 4 << 20, "the engine wrote only %d bytes of about "
              "%d while the GUI paused" % (written, 25 * n))
    if not rss_is_meaningful():
        print("    (sanitizer or wrapper: RSS %d kB not checked)" % rss)
    else:
        check(hwm < LIMIT_KB, "VmHWM %d kB < %d kB (samples %r)"
              % (hwm, LIMIT_KB, samples))
    # The GUI reads again: the whole flood, in order.
    got = b.expect(b"info string flood done\n", timeout=25)
    lines = got.split(b"\n")
    eq(len(lines), n + 2, "number of lines")
    for i in range(n):
        if lines[i] != b"info string flood %d" % (i + 1):
            eq(lines[i], b"info string flood %d" % (i + 1), "line %d" % (i + 1))
    b.send(b"quit\n")
    rc, rest = b.wait()
    eq(rest, b"", "output after the flood")
    eq(rc, 0, "exit status")
    print("    (paused: VmRSS %d kB, VmHWM %d kB; engine wrote %s bytes)"
          % (rss, hwm, written))


@test(timeout=30)
def stalled_engine_keeps_memory_bounded(ctx):
    # The other way round: the engine stops reading while the GUI sends
    # about 16 MB; fenbridge stops reading the GUI instead of queueing.
    n = fbtest.scale(400000)
    b = ctx.bridge()
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"fake-sleep 4000\n")  # longer than any load delays the check below
    lines = b"".join(b"setoption name Line value %038d\n" % i
                     for i in range(n))
    sender = b.send_in_thread(lines + b"isready\n")
    time.sleep(0.5)
    rss, hwm = memory_kb(b.pid)
    check(sender.is_alive(), "the GUI's write blocks while the engine sleeps")
    if rss_is_meaningful():
        check(hwm < LIMIT_KB, "VmHWM %d kB < %d kB" % (hwm, LIMIT_KB))
    b.expect(b"readyok\n", timeout=20)
    sender.join(5)
    b.send(b"quit\n")
    rc, _ = b.wait()
    eq(rc, 0, "exit status")
    eq(b.recorded(), b"uci\nfake-sleep 4000\n" + lines + b"isready\nquit\n",
       "what the engine received")
    print("    (stalled: VmRSS %d kB, VmHWM %d kB)" % (rss, hwm))


if __name__ == "__main__":
    fbtest.main()
