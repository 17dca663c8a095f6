#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The engine's protocol with default settings (--engine-protocol=auto) and
the fake engine in each role: a same-protocol session costs nothing (the
same bytes both ways as with --engine-protocol=same), a refusal or silence
chooses the other protocol, an engine that dies of the probe is started
again once, and UCI lines sent before uciok wait for it."""

import os
import signal
import time

import fbtest
from fbtest import check, eq, test

# The fake engine's answers (tests/fake/fake_engine.c).
UCI_ANSWER = (b"id name fake\nid author fenbridge e2e tests\n"
              b"option name UCI_Chess960 type check default false\n"
              b"uciok\n")
FEATURES = (b"feature myname=\"fake\" setboard=1 ping=1 usermove=1 "
            b"sigint=1 sigterm=1 variants=\"normal,fischerandom\" done=1\n")
BANNER = "--do=fake-line Fake 1.0 by the fenbridge tests"


def session(ctx, opts, engine_opts, lines, until):
    """Sends lines, reads up to until, then quits: (GUI output, what the
    engine got, exit status, the bridge)."""
    b = ctx.bridge(opts, engine_opts)
    b.send(lines)
    out = b.expect(until)
    b.send(b"quit\n")
    rc, rest = b.wait()
    return out + rest, b.recorded(), rc, b


def log_of(ctx, name):
    with open(ctx.path(name), "rb") as f:
        return f.read().decode("latin-1")


@test()
def same_protocol_costs_nothing(ctx):
    # A UCI GUI and a UCI engine, an XBoard GUI and an XBoard engine: with
    # default settings both directions carry the bytes they carry with
    # --engine-protocol=same (the GUI's own handshake is the question).
    uci = b"uci\nisready\n"
    xb = b"xboard\nprotover 2\nping 7\n"
    for lines, until, speaks in ((uci, b"readyok\n", "--speaks=uci"),
                                 (xb, b"pong 7\n", "--speaks=xboard")):
        runs = []
        for opts, name in (([], "auto"), (["--engine-protocol=same"],
                                          "same")):
            b = ctx.bridge(opts, [BANNER, speaks],
                           name=name + speaks[9:])
            b.send(lines)
            out = b.expect(until)
            b.send(b"quit\n")
            rc, rest = b.wait()
            eq(rc, 0, "exit status (%s)" % name)
            runs.append((out + rest, b.recorded()))
        eq(runs[0][0], runs[1][0], "what the GUI got, auto vs same")
        eq(runs[0][1], runs[1][1], "what the engine got, auto vs same")
        eq(runs[0][1], lines + b"quit\n", "the engine got the GUI's lines")
    check(b"feature done=0" not in runs[0][0], "no done=0: %r" % runs[0][0])


@test()
def uci_lines_before_uciok_wait(ctx):
    # Issue 17 item 7: uci, setoption UCI_Chess960 and a position with a
    # castle in one burst. The castle must reach the engine as king takes
    # rook (it lists UCI_Chess960), after the setoption, not as e1g1.
    for opts in ([], ["--engine-protocol=same"]):
        burst = (b"uci\nsetoption name UCI_Chess960 value true\n"
                 b"position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 "
                 b"e1h1\nisready\n")
        b = ctx.bridge(opts, ["--do=fake-sleep 100"],
                       name="burst%d" % len(opts))
        b.send(burst)
        out = b.expect(b"readyok\n")
        eq(out, UCI_ANSWER + b"readyok\n", "what the GUI got (%s)" % opts)
        b.send(b"quit\n")
        rc, _ = b.wait()
        eq(b.recorded(), burst + b"quit\n", "what the engine got (%s)" % opts)
        eq(rc, 0, "exit status")


@test()
def xboard_gui_uci_engine_that_refuses(ctx):
    # Stockfish answers `xboard` with `Unknown command: 'xboard'`: the UCI
    # engine is spoken to through the translating pair at once, and no
    # refusal reaches the GUI.
    out, rec, rc, b = session(
        ctx, ["--log=fb.log"], [BANNER, "--speaks=uci"],
        b"xboard\nprotover 2\n", b"done=1\n")
    check(b"myname=\"fake\"" in out, "features from the pair: %r" % out)
    check(b"Unknown" not in out and b"Fake 1.0" not in out,
          "a refusal or the banner reached the GUI: %r" % out)
    check(rec.startswith(b"xboard\nprotover 2\nuci\n"),
          "what the engine got: %r" % rec)
    # Decided by the refusal, not by silence (after which the engine is
    # asked uci twice, and the log says it was silent): evidence, not a
    # clock.
    check(not rec.startswith(b"xboard\nprotover 2\nuci\nuci\n"),
          "asked uci as a silent engine is: %r" % rec)
    check("the engine speaks uci (it refused the GUI's opening)"
          in log_of(ctx, "fb.log"), "the log says why")
    eq(rc, 0, "exit status")


@test()
def xboard_gui_silent_uci_engine(ctx):
    # Toga II says nothing to `xboard`: after 1 s it is asked `uci`, the
    # GUI is told to wait, and the engine's answer chooses UCI.
    t0 = time.monotonic()
    out, rec, rc, b = session(
        ctx, ["--log=fb.log"], ["--speaks=uci", "--quiet-unknown"],
        b"xboard\nprotover 2\n", b"done=1\n")
    took = time.monotonic() - t0
    check(out.startswith(b"feature done=0\n"), "the GUI waits: %r" % out)
    check(b"myname=\"fake\"" in out, "features from the pair: %r" % out)
    # Issue 27 item 2: the engine is asked once; the probe's answer is
    # the pair's, and the GUI is told to wait once.
    check(rec.startswith(b"xboard\nprotover 2\nuci\n") and
          rec.split(b"\n").count(b"uci") == 1,
          "asked uci once: %r" % rec)
    eq(out.count(b"feature done=0\n"), 1, "done=0 once: %r" % out)
    check(0.9 < took, "not before 1 s of silence: %.2f s" % took)
    eq(rc, 0, "exit status")


@test()
def uci_gui_xboard_engine(ctx):
    # Fairy-Max answers `uci` with `Error (unknown command): uci`: spoken
    # to in XBoard; the GUI sees one UCI handshake.
    out, rec, rc, b = session(ctx, ["--log=fb.log"], ["--speaks=xboard"],
                              b"uci\nisready\n", b"readyok\n")
    check(b"uciok\n" in out and b"Error" not in out,
          "what the GUI got: %r" % out)
    check(rec.startswith(b"uci\nxboard\nprotover 2\n") and
          rec.split(b"\n").count(b"protover 2") == 1,
          "what the engine got: %r" % rec)
    eq(out.count(b"uciok\n"), 1, "one uciok: %r" % out)
    check("the engine speaks xboard (it refused the GUI's opening)"
          in log_of(ctx, "fb.log"), "the log says why")
    eq(rc, 0, "exit status")


@test()
def uci_lines_wait_for_the_xboard_engines_features(ctx):
    # CECP allows nothing but the answers to features between protover 2
    # and done=1: a UCI GUI's setoption and position sent before uciok
    # reach an XBoard engine after its done=1 (GNU Chess got new, force
    # and the moves before it). The log shows the order.
    out, rec, rc, b = session(
        ctx, ["--log=fb.log"], ["--speaks=xboard"],
        b"uci\nsetoption name UCI_Chess960 value true\n"
        b"position startpos moves e2e4\nisready\n", b"readyok\n")
    check(rec.startswith(b"uci\nxboard\nprotover 2\n"),
          "what the engine got: %r" % rec)
    check(b"\nnew\n" in rec and b"\nusermove e2e4\n" in rec,
          "the position went on: %r" % rec)
    log = [l.split(" ", 2)[2] for l in
           log_of(ctx, "fb.log").splitlines() if l.count(" ") >= 2]
    done = [i for i, l in enumerate(log)
            if l.startswith("engine> feature") and "done=1" in l]
    sent = [i for i, l in enumerate(log)
            if l in (">engine new", ">engine force",
                     ">engine usermove e2e4",
                     ">engine variant fischerandom")]
    check(done and sent and min(sent) > done[0],
          "nothing but answers before done=1: %r" % log)
    eq(rc, 0, "exit status")


@test(timeout=30)
def slow_uci_engine_answers_late(ctx):
    # A UCI engine that says nothing for 6 s (a long start): the probe
    # takes it for XBoard, then its late answer to uci shows it speaks
    # UCI after all. The GUI sees the engine's handshake, and its isready
    # reaches the engine as isready. The probe's 3 s are extended by a
    # slice while the engine works or waits for a CPU (its start under
    # ASan on a busy machine does both), and ends at the first slice it
    # sleeps through: 6 s is past that on any machine, 3.5 s was not (CI
    # saw the answer come inside the first extension).
    out, rec, rc, b = session(
        ctx, ["--log=fb.log"], ["--speaks=uci", "--do=fake-sleep 6000"],
        b"uci\nisready\n", b"readyok\n")
    eq(out, UCI_ANSWER + b"readyok\n", "what the GUI got")
    check(rec.startswith(b"uci\n") and rec.endswith(b"isready\nquit\n"),
          "what the engine got: %r" % rec)
    check("it speaks the GUI's protocol after all" in log_of(ctx, "fb.log"),
          "the log says so")
    eq(rc, 0, "exit status")


@test(timeout=20)
def engine_that_dies_of_the_probe_starts_again(ctx):
    # It dies of SIGSEGV on `uci` at its first start (as Fairy-Max does
    # now and then): fenbridge starts it again, speaks XBoard to it and
    # gives it every line of the GUI's; the log says what happened.
    once = ctx.path("started")
    out, rec, rc, b = session(
        ctx, ["--log=fb.log"],
        ["--speaks=xboard", "--die-on-unknown=%d" % signal.SIGSEGV,
         "--once=" + once], b"uci\nsetoption name Hash value 32\nisready\n",
        b"readyok\n")
    pids = [e for e in b.events() if e.startswith("pid ")]
    eq(len(pids), 2, "engine starts: %r" % b.events())
    check(b"uciok\n" in out and b"died" not in out,
          "the GUI got one handshake and no death: %r" % out)
    # The first start got uci and died; the second the translated lines.
    first, second = rec.split(b"uci\n", 1)[0], rec.split(b"uci\n", 1)[1]
    eq(first, b"", "the first start's lines")
    check(second.startswith(b"xboard\nprotover 2\n") and
          b"option Hash=32\n" in second,
          "the second start's lines: %r" % second)
    log = log_of(ctx, "fb.log")
    check("engine died of SIGSEGV (11)" in log and
          "starting it again to speak xboard" in log,
          "the log says what happened")
    eq(rc, 0, "exit status")


@test(timeout=20)
def engine_that_dies_of_the_probe_in_a_script(ctx):
    # The same behind a script that closes stdin at once: the engine
    # started again still answers the GUI's lines, and fenbridge ends.
    rc, out, _ = fbtest.run(fbtest.cmd(
        "--", fbtest.FAKE, "--speaks=xboard",
        "--die-on-unknown=%d" % signal.SIGSEGV, "--once=" +
        ctx.path("started"), ctx.path("rec")), stdin=b"uci\nisready\n",
        timeout=10)
    check(out.endswith(b"uciok\nreadyok\n"), "readyok: %r" % out)
    eq(rc, 0, "exit status")


@test(timeout=20)
def engine_that_dies_twice(ctx):
    # Started again once only: then the GUI learns of the death and how to
    # avoid the probe. The first start dies of the probe's `uci` (only once
    # it has read it: the GUI's line is there by then), the second at once.
    events, rec = ctx.path("engine.events"), ctx.path("engine.rec")
    marker, script = ctx.path("started"), ctx.path("engine.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\n"
                "if [ -e %s ]; then exec %s --events=%s --speaks=xboard "
                "'--do=fake-die %d' %s; fi\n"
                ": > %s\n"
                "exec %s --events=%s --speaks=xboard --die-on-unknown=%d %s\n"
                % (marker, fbtest.FAKE, events, signal.SIGSEGV, rec, marker,
                   fbtest.FAKE, events, signal.SIGSEGV, rec))
    os.chmod(script, 0o755)
    b = ctx.bridge([], engine=[script], events=events, record=rec)
    b.send(b"uci\n")
    rc, out = b.wait(timeout=10)
    pids = [e for e in b.events() if e.startswith("pid ")]
    check(len(pids) == 2, "two starts: %r" % b.events())
    check(b"info string fenbridge: the engine died of SIGSEGV (11)" in out,
          "the GUI is told: %r" % out)
    eq(rc, 128 + signal.SIGSEGV, "exit status")


@test(timeout=30)
def engine_killed_on_the_probe_is_not_started_again(ctx):
    # A signal from outside or an illegal instruction is no answer to the
    # probe (src/daemon/cause.c): started again in the other protocol, the
    # engine would only die the same way. One start, its end told once.
    # SIGSEGV stays an answer (Fairy-Max: engine_that_dies_of_the_probe_...).
    starts = 0  # the events file is the test's, across its sessions
    for sig in (signal.SIGILL, signal.SIGKILL, signal.SIGTERM,
                signal.SIGHUP):
        log = "fb-%d.log" % sig
        b = ctx.bridge(["--log=" + log],
                       ["--speaks=xboard", "--quiet-unknown",
                        "--die-on-unknown=%d" % sig])
        b.send(b"uci\n")
        rc, out = b.wait(timeout=10)
        name = signal.Signals(sig).name
        pids = [e for e in b.events() if e.startswith("pid ")]
        eq(len(pids) - starts, 1, "%s: one start: %r" % (name, b.events()))
        starts = len(pids)
        check(out.startswith(b"info string fenbridge: the engine died of "
                             b"%s (%d)" % (name.encode(), sig)),
              "%s: the GUI is told: %r" % (name, out))
        eq(out.count(b"died of"), 1, "%s: told once" % name)
        text = log_of(ctx, log)
        check("starting it again" not in text and
              "of a cause that is no answer: not started again" in text,
              "%s: the log says why" % name)
        check("--engine-protocol" not in text or sig != signal.SIGILL,
              "%s: no advice about the probe" % name)
        eq(rc, 128 + sig, "%s: exit status" % name)


@test()
def explicit_same_does_not_probe(ctx):
    # --engine-protocol=same stays: the XBoard engine gets the UCI GUI's
    # lines unchanged, and its refusal reaches the GUI.
    out, rec, rc, b = session(ctx, ["--engine-protocol=same"],
                              ["--speaks=xboard"], b"uci\n",
                              b"Error (unknown command): uci\n")
    eq(out, b"Error (unknown command): uci\n", "what the GUI got")
    eq(rec, b"uci\nquit\n", "what the engine got")
    eq(rc, 0, "exit status")


@test()
def gui_leaves_before_the_answer(ctx):
    # The GUI's input ends while its lines wait: they reach the engine,
    # then quit.
    b = ctx.bridge([], ["--do=fake-sleep 200"])
    b.send(b"uci\nisready\ndebug on\n")
    b.close_stdin()
    rc, out = b.wait()
    eq(b.recorded(), b"uci\nisready\ndebug on\nquit\n", "what the engine got")
    eq(rc, 0, "exit status")


if __name__ == "__main__":
    fbtest.main()
