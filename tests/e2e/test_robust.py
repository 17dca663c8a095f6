# SPDX-License-Identifier: MIT
"""End-to-end tests of what a GUI or engine can do to fenbridge's own
plumbing: an unread or merged stderr, an engine that leaves a process
holding its output, an engine that exits only on EOF."""

import os
import signal
import stat
import subprocess
import time

import fbtest
from fbtest import check, eq, test


def script(ctx, name, body):
    path = ctx.path(name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


def read_until(p, needle, timeout):
    """Reads p.stdout until needle; returns what was read, or fails."""
    import select
    got = b""
    end = time.monotonic() + timeout * fbtest.WAIT
    while needle not in got:
        left = end - time.monotonic()
        check(left > 0, "no %r within %g s; got %r" % (needle, timeout * fbtest.WAIT,
                                                         got[-300:]))
        r, _, _ = select.select([p.stdout], [], [], left)
        if r:
            data = os.read(p.stdout.fileno(), 65536)
            check(data, "EOF before %r; got %r" % (needle, got[-300:]))
            got += data
    return got


@test(timeout=30)
def unread_stderr_does_not_stop_the_relay(ctx):
    # The engine writes 4 MB to stderr first; the GUI never reads stderr.
    eng = script(ctx, "noisy.sh",
                 'head -c 4000000 /dev/zero | tr "\\0" "x" | fold -w 99 >&2\n'
                 'exec "%s" %s\n' % (fbtest.FAKE, ctx.path("rec")))
    p = subprocess.Popen(fbtest.cmd("--", eng), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         cwd=ctx.dir)
    try:
        p.stdin.write(b"uci\nisready\n")
        p.stdin.flush()
        read_until(p, b"readyok\n", 15)
        p.stdin.write(b"quit\n")
        p.stdin.flush()
        eq(p.wait(10 * fbtest.WAIT), 0, "exit status")
    finally:
        p.kill()
        p.wait()


@test(timeout=20)
def merged_stderr_never_enters_the_protocol(ctx):
    # PolyGlot and others read stderr and stdout as one stream: fenbridge's
    # warnings must not land there (they could split a protocol line).
    p = subprocess.Popen(fbtest.cmd("--", fbtest.FAKE, ctx.path("rec")),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, cwd=ctx.dir)
    try:
        p.stdin.write(b"uci\n" + b"position fen 8/8/8 w - - 0 1\n" * 200 +
                      b"isready\n")
        p.stdin.flush()
        out = read_until(p, b"readyok\n", 10)
        check(b"fenbridge:" not in out, "diagnostic in the protocol "
              "stream: %r" % out[:300])
        p.stdin.write(b"quit\n")
        p.stdin.flush()
        eq(p.wait(10 * fbtest.WAIT), 0, "exit status")
    finally:
        p.kill()
        p.wait()
    with open(ctx.path("rec"), "rb") as f:
        eq(f.read().count(b"position fen 8/8/8 w - - 0 1\n"), 200,
           "malformed positions passed on unchanged")


@test(timeout=20)
def engine_child_holding_the_pipe_does_not_hang(ctx):
    # The engine leaves a process behind that keeps its stdout and stderr
    # open; fenbridge must still end soon after the engine exits: within
    # the wait's deadline, far shorter than the 600 s the child holds them.
    eng = script(ctx, "spawner.sh",
                 'sleep 600 &\necho $! >"%s"\n"%s" %s\n'
                 % (ctx.path("child"), fbtest.FAKE, ctx.path("rec")))
    b = ctx.bridge(engine=[eng])
    try:
        b.send(b"uci\n")
        b.expect(b"uciok\n")
        b.send(b"quit\n")
        rc, _ = b.wait(timeout=8)
        eq(rc, 0, "exit status")
    finally:
        try:
            with open(ctx.path("child")) as f:
                os.kill(int(f.read()), signal.SIGKILL)
        except (OSError, ValueError):
            pass


@test(timeout=20)
def quit_closes_the_engines_stdin(ctx):
    # An engine that ignores quit but ends at EOF, and a GUI that sends
    # quit without closing its pipe (python-chess): no SIGTERM needed. The
    # grace period (600 s) is far longer than the wait's deadline: an exit
    # within it did not wait for the grace period.
    b = ctx.bridge(opts=["--grace=600"], engine_opts=["--ignore-quit"])
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"quit\n")
    rc, _ = b.wait(timeout=8)
    eq(rc, 0, "exit status (not killed)")
    check("eof" in b.events(), "engine saw no EOF: %r" % b.events())


@test(timeout=90)
def hostile_input_from_both_sides(ctx):
    # A 10 MB line and a million empty lines from the GUI, a 10 MB line
    # from the engine, `position fen` without a FEN, a FEN with a repeated
    # castling letter: all pass byte for byte, nothing is lost.
    big = b"x" * fbtest.scale(10 << 20) + b"\n"
    sent = (b"uci\n" + big + b"\n" * fbtest.scale(1000000) +
            b"position fen\n"
            b"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK"
            b" - 0 1\nisready\n")
    eng = script(ctx, "bigline.sh",
                 'head -c %d /dev/zero | tr "\\0" "y"; echo\n'
                 'exec "%s" %s\n' % (fbtest.scale(10 << 20), fbtest.FAKE,
                                     ctx.path("rec")))
    b = ctx.bridge(engine=[eng])
    b.record = ctx.path("rec")
    t = b.send_in_thread(sent)
    out = b.expect(b"readyok\n", timeout=60)
    t.join()
    eq(out.count(b"y" * 1000) >= 1 and
       out.index(b"\n") == fbtest.scale(10 << 20), True,
       "the engine's 10 MB line arrived whole, first")
    b.send(b"quit\n")
    rc, _ = b.wait(timeout=30)
    eq(rc, 0, "exit status")
    eq(b.recorded(), sent + b"quit\n", "what the engine received")


if __name__ == "__main__":
    fbtest.main()
