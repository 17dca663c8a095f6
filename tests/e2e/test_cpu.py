#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The CPU and the engine's build (issue 21, parts 2 and 3): an engine that
dies of an illegal instruction (the fake engine executes ud2), at its start
or after the handshake, is reported once, in-band in both protocols and in
the log, with the fix and the CPU's features; --version prints them; the
INI's engine.avx512 ... engine.popcnt builds, small scripts that record
which one ran, start the first this CPU runs. What this CPU has is read
from /proc/cpuinfo here, not from fenbridge, so the expectations hold on
any machine."""

import os
import re
import signal
import stat
import time

import cpuinfo
import fbtest
from fbtest import check, eq, test

FEATURES, BUILDS, HAS, RUNS = (cpuinfo.FEATURES, cpuinfo.BUILDS, cpuinfo.HAS,
                               cpuinfo.RUNS)
words, advice = cpuinfo.words, cpuinfo.advice


ILL = "the engine died of SIGILL (%d), an illegal instruction" % signal.SIGILL


def told_once(out, err, log, prefix):
    """The message is in the GUI's output once (prefix, then ILL and the
    advice), in the log once and on stderr once."""
    text = out.decode()
    lines = [ln for ln in text.split("\n") if "illegal instruction" in ln]
    eq(len(lines), 1, "in-band messages: %r" % text)
    check(lines[0].startswith(prefix + "fenbridge: " + ILL + advice()),
          "the in-band message: %r\n  want it to start: %r"
          % (lines[0], prefix + "fenbridge: " + ILL + advice()))
    eq(err.decode().count("illegal instruction"), 1, "stderr: %r" % err)
    with open(log, encoding="latin-1") as f:
        text = f.read()
    # once as a warning; the log's copy of what the GUI got is tagged >gui
    logged = re.findall(r"^\S+ \S+ (\S+) .*illegal instruction", text, re.M)
    eq(sorted(logged), [">gui", "warning"], "log lines: %r" % text[-2000:])
    return lines[0]


HANDSHAKE = {"uci": (b"uci\n", b"uciok\n", "info string "),
             "xboard": (b"xboard\nprotover 2\n", b"done=1\n",
                        "tellusererror ")}


def dies_at_start(ctx, proto, delay):
    """The engine dies at once, before it reads a line (as a bmi2 build
    does on an older CPU); the GUI sends its first command after delay
    seconds. fenbridge waits for it to have a protocol to tell in."""
    first, _, prefix = HANDSHAKE[proto]
    log = ctx.path("fb-%s.log" % proto)
    b = ctx.bridge(opts=["--log=" + log], engine_opts=["--do=fake-ill"],
                   name="engine-" + proto)
    time.sleep(delay)
    b.send(first)
    rc, out = b.wait()
    eq(rc, 128 + signal.SIGILL, "exit status")
    line = told_once(out, b.stderr(), log, prefix)
    check("flight record: " + ctx.dir in line, "names the record: %r" % line)


@test()
def illegal_instruction_at_start_uci(ctx):
    dies_at_start(ctx, "uci", 0)


@test()
def illegal_instruction_at_start_xboard(ctx):
    dies_at_start(ctx, "xboard", 0)


@test()
def illegal_instruction_at_start_slow_gui(ctx):
    # The engine is long gone when the GUI's uci comes (0.2 s; fenbridge
    # waits up to 1 s after the exit).
    dies_at_start(ctx, "uci", 0.2)


def dies_after_handshake(ctx, proto, opts=()):
    first, done, prefix = HANDSHAKE[proto]
    log = ctx.path("fb.log")
    b = ctx.bridge(opts=["--log=" + log] + list(opts))
    b.send(first)
    b.expect(done)
    b.send(b"fake-ill 3\n")
    rc, out = b.wait()
    eq(rc, 128 + signal.SIGILL, "exit status")
    check(out.startswith(b"info string burst 1\ninfo string burst 2\n"
                         b"info string burst 3\n"),
          "the engine's output first: %r" % out[:80])
    told_once(out, b.stderr(), log, prefix)


@test()
def illegal_instruction_after_handshake_uci(ctx):
    dies_after_handshake(ctx, "uci")


@test()
def illegal_instruction_after_handshake_xboard(ctx):
    dies_after_handshake(ctx, "xboard")


@test()
def illegal_instruction_not_restarted(ctx):
    # --restart would start the same build again, to die the same way:
    # the death is told instead, as without the option.
    for proto in HANDSHAKE:
        dies_after_handshake(ctx, proto, ["--restart=2"])
        with open(ctx.path("fb.log"), encoding="latin-1") as f:
            check("starting it again" not in f.read(), "not restarted")
        os.remove(ctx.path("fb.log"))


@test()
def other_deaths_unchanged(ctx):
    # Other signals and exit statuses keep their words (test_lifecycle
    # checks them whole): no illegal-instruction advice.
    for i, cmd in enumerate((b"fake-die %d" % signal.SIGBUS,
                             b"fake-exit %d" % (128 + signal.SIGILL))):
        b = ctx.bridge(name="engine%d" % i)
        b.send(b"uci\n")
        b.expect(b"uciok\n")
        b.send(cmd + b"\n")
        rc, out = b.wait()
        want = (b"the engine died of SIGBUS (%d)" % signal.SIGBUS if i == 0
                else b"the engine exited with status %d" % (128 +
                                                           signal.SIGILL))
        check(b"info string fenbridge: " + want + b"; flight record: " in out
              and b"illegal" not in out, "%r: %r" % (cmd, out))


@test()
def version_prints_cpu_features(ctx):
    rc, out, err = fbtest.run(fbtest.cmd("--version"))
    eq((rc, err), (0, b""), "status and stderr")
    lines = out.decode().split("\n")
    eq(len(lines), 3, "two lines: %r" % out)
    check(re.fullmatch(r"fenbridge \d+\.\d+\.\d+", lines[0]),
          "the first line as before: %r" % lines[0])
    m = re.fullmatch(r"CPU: (.*) \(runs the engine builds (.*)\)", lines[1])
    check(m is not None, "the CPU line: %r" % lines[1])
    shown = m.group(1).split(";")[0].split()
    if HAS:
        eq(shown, HAS, "features shown (/proc/cpuinfo)")
    else:
        eq(shown[:2], ["none", "of"], "no feature shown")
    eq(m.group(2), words(RUNS, " and "), "builds it runs")


def build_scripts(ctx, folder):
    """engine-NAME.sh for each build and the plain engine: each appends
    NAME to ran.txt, then becomes the fake engine."""
    os.makedirs(folder, exist_ok=True)
    for name in [b for b, _ in BUILDS] + ["plain"]:
        path = os.path.join(folder, "engine-%s.sh" % name)
        with open(path, "w") as f:
            f.write('#!/bin/sh\necho %s >> "%s"\nexec "%s" "%s"\n'
                    % (name, ctx.path("ran.txt"), fbtest.FAKE,
                       ctx.path("rec.txt")))
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


def ran(ctx):
    try:
        with open(ctx.path("ran.txt")) as f:
            names = f.read().split()
        os.unlink(ctx.path("ran.txt"))
        return names
    except FileNotFoundError:
        return []


@test(timeout=30)
def engine_builds_choice(ctx):
    build_scripts(ctx, ctx.path("builds"))
    # which keys the INI has (in the order written), and the plain engine
    given_sets = [["avx512", "bmi2", "avx2", "popcnt"],
                  ["popcnt", "avx2", "bmi2"],     # written in another order
                  ["bmi2", "popcnt"], ["avx2"], ["popcnt"], ["avx512"], []]
    for i, given in enumerate(given_sets):
        ini = ctx.path("t%d.ini" % i)
        log = ctx.path("t%d.log" % i)
        with open(ini, "w") as f:
            f.write("[fenbridge]\n")
            for g in given:
                # relative to the INI's folder, as engine = is
                f.write("engine.%s = builds/engine-%s.sh\n" % (g, g))
            f.write("engine = builds/engine-plain.sh\nlog = %s\n" % log)
        want = cpuinfo.choice(given)
        b = ctx.bridge(argv=[fbtest.FENBRIDGE, "--config=" + ini],
                       name="e%d" % i, cwd=ctx.path("builds"))
        b.send(b"uci\n")
        b.expect(b"uciok\n")
        b.send(b"quit\n")
        eq(b.wait()[0], 0, "exit status with %r" % given)
        eq(ran(ctx), [want], "the build started with %r (cpuinfo: %s)"
           % (given, " ".join(HAS)))
        with open(log, encoding="latin-1") as f:
            text = f.read()
        if given:
            key = "engine.%s" % want if want != "plain" else "engine"
            check(re.search(r" info engine build: %s: " % re.escape(key),
                            text), "the log says which: %r" % text[-600:])
        else:
            check("engine build" not in text, "nothing to choose")


@test()
def command_line_engine_wins(ctx):
    build_scripts(ctx, ctx.path("builds"))
    ini = ctx.path("t.ini")
    with open(ini, "w") as f:
        f.write("[fenbridge]\nengine.popcnt = builds/engine-popcnt.sh\n"
                "engine = builds/engine-plain.sh\n")
    b = ctx.bridge(opts=["--config=" + ini, "--log=" + ctx.path("fb.log")])
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"quit\n")
    eq(b.wait()[0], 0, "exit status")
    eq(ran(ctx), [], "no build of the INI ran")
    check(b"uci\n" in b.recorded(), "the command line's engine ran")
    with open(ctx.path("fb.log"), encoding="latin-1") as f:
        check("engine build: the engine of the command line" in f.read(),
              "the log says why")


if __name__ == "__main__":
    fbtest.main()
