#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--log=FILE: a timestamped, direction-tagged, escaped log of both
directions and of every rewrite; an unopenable log is only a warning."""

import re

import fbtest
from fbtest import check, eq, test

START_SH = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
START_X = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6} (\S+) ?(.*)\Z")


def read_log(path):
    """The log as a list of (tag, text); every line must be well formed."""
    with open(path, "rb") as f:
        data = f.read()
    check(data.endswith(b"\n"), "the log ends with a newline")
    entries = []
    for raw in data.split(b"\n")[:-1]:
        check(all(0x20 <= c < 0x7f for c in raw),
              "log line is printable ASCII: %r" % raw)
        m = LINE.match(raw.decode("ascii"))
        check(m is not None, "log line format: %r" % raw)
        entries.append((m.group(1), m.group(2)))
    return entries


def find(entries, tag, text, after=0):
    """Index of the first (tag, text) at or after index after."""
    for i in range(after, len(entries)):
        if entries[i] == (tag, text):
            return i
    raise AssertionError("no log line %s %r after line %d in:\n  %s" % (
        tag, text, after,
        "\n  ".join("%s %s" % e for e in entries[after:after + 40])))


@test()
def log_both_directions(ctx):
    log = ctx.path("fb.log")
    b = ctx.bridge(["--log=" + log])
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"position fen " + START_SH + b" moves e2e4\r\n"
           b"setoption name A\tvalue b\x01c\\d\xff\x00\x1b\r\n"
           b"fake-stderr engine complains\n"
           b"isready\n")
    b.expect(b"readyok\n")
    b.send(b"quit\n")
    rc, _ = b.wait()
    eq(rc, 0, "exit status")
    e = read_log(log)
    sh, x = START_SH.decode(), START_X.decode()
    i = find(e, "gui>", "uci")
    i = find(e, ">engine", "uci", i)
    i = find(e, "engine>", "uciok", i)
    i = find(e, ">gui", "uciok", i)
    j = find(e, "gui>", "position fen %s moves e2e4" % sh, i)
    k = find(e, "debug", "GUI line: position fen: rewrote '%s' as '%s'"
             % (sh, x), j)
    find(e, ">engine", "position fen %s moves e2e4" % x, k)
    j = find(e, "gui>", r"setoption name A\tvalue b\x01c\\d\xff\x00\x1b", i)
    find(e, ">engine", r"setoption name A\tvalue b\x01c\\d\xff\x00\x1b", j)
    find(e, "engine!", "engine complains")
    j = find(e, "gui>", "quit")
    find(e, "info", "engine exited with status 0", j)
    check(not any(t == "error" for t, _ in e), "no errors logged: %r"
          % [m for t, m in e if t == "error"])

    # Appended, not overwritten; XBoard's setup rewrite is logged too.
    b = ctx.bridge(["--log=" + log], name="engine2")
    b.send(b"xboard\nprotover 2\n")
    b.expect(b"done=1\n")
    b.send(b"fake-echo setup (PNBRQKpnbrqk) 8x8+0_fairy " + START_X + b"\n"
           b"quit\n")
    rc, _ = b.wait()
    eq(rc, 0, "exit status")
    e2 = read_log(log)
    eq(e2[:len(e)], e, "the first session's log is kept")
    i = find(e2, "engine>", "setup (PNBRQKpnbrqk) 8x8+0_fairy " + x, len(e))
    find(e2, ">gui", "setup (PNBRQKpnbrqk) 8x8+0_fairy " + sh, i)


@test()
def log_unopenable(ctx):
    for path in (ctx.dir, ctx.path("no/such/dir/fb.log")):
        b = ctx.bridge(["--log=" + path], name="engine-%d" % len(path))
        b.send(b"uci\nposition fen " + START_SH + b"\nisready\n")
        b.expect(b"readyok\n")
        b.send(b"quit\n")
        rc, _ = b.wait()
        eq(rc, 0, "exit status")
        eq(b.recorded(), b"uci\nposition fen " + START_X +
           b"\nisready\nquit\n", "what the engine received")
        err = b.stderr().decode().splitlines()
        eq(len(err), 1, "stderr lines (%r)" % err)
        check(err[0].startswith("fenbridge: ") and path in err[0],
              "a warning naming the log: %r" % err[0])


if __name__ == "__main__":
    fbtest.main()
