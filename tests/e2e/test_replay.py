#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fenbridge replay: a game through fenbridge whose engine (the fake engine's
--die-on-position) crashes on one position after about 300 lines leaves a
flight record; `fenbridge replay` feeds the same engine the same lines
(byte for byte what the first one read) and reproduces the crash (exit 0),
at both speeds, from the record and from the --log file; the engine
without the bug does not crash (exit 1); a record whose rings overflowed
replays from the first position after its cut; an XBoard engine behind
the UCI GUI / XBoard engine pair replays in its own protocol; what is no
record, or no engine, exits 2."""

import glob
import os

import fbtest
from fbtest import check, eq, test

GO = "--on-go=info depth 1 pv e2e4|bestmove e2e4"


def play(b, rounds, flood_at=None):
    """A UCI GUI's game: position, go, isready each round, until the engine
    is gone. Returns the rounds played."""
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    moves = []
    for i in range(rounds):
        if i == flood_at:
            b.send(b"fake-flood 20000\nisready\n")
            b.expect(b"readyok\n", timeout=20)
        b.send(b"position startpos moves %s\ngo depth 1\n"
               % " ".join(moves).encode())
        try:
            b.expect(b"bestmove e2e4\n")
        except AssertionError:
            return i
        moves.append("e2e4" if i % 2 == 0 else "e7e5")
        b.send(b"isready\n")
        b.expect(b"readyok\n")
    return rounds


def record_of(ctx):
    recs = glob.glob(ctx.path("fenbridge-*.txt"))
    eq(len(recs), 1, "flight records")
    return recs[0]


def replay(ctx, rec, engine_opts, *opts, name="replay"):
    """fenbridge replay OPTS REC -- fake engine: (status, stdout, what the
    engine read)."""
    got = ctx.path(name + ".rec")
    rc, out, err = fbtest.run(fbtest.cmd(
        "replay", *opts, rec, "--", fbtest.FAKE, *engine_opts, got),
        timeout=60)
    out = out.decode()
    check(err == b"", "stderr: %r" % err)
    with open(got, "rb") as f:
        return rc, out, f.read()


def crashed_game(ctx, opts=(), flood_at=None):
    b = ctx.bridge(opts, [GO, "--die-on-position=60"])
    played = play(b, 100, flood_at)
    eq(played, 59, "rounds before the crash")
    rc, _ = b.wait()
    eq(rc, 139, "fenbridge's status: the engine's SIGSEGV")
    return b


@test(timeout=60)
def crash_is_reproduced(ctx):
    b = crashed_game(ctx)
    rec = record_of(ctx)
    for speed in ("fast", "recorded"):
        rc, out, got = replay(ctx, rec, [GO, "--die-on-position=60"],
                              "--speed=" + speed, name=speed)
        eq(rc, 0, "replay at %s speed: %s" % (speed, out))
        check("recorded: the engine died of SIGSEGV (11)\n" in out and
              "the engine's 119 answers (59 moves) are the recorded ones\n"
              in out and
              "the engine died of SIGSEGV (11) after 180 of 180 lines\n"
              in out and out.endswith("\nreproduced\n"), out)
        # the replayed engine read what the first one read, byte for byte
        eq(got, b.recorded(), "what the replayed engine read")
    # the fixed engine: no crash, and a bestmove the record lacks
    rc, out, _ = replay(ctx, rec, [GO], "--speed=fast", name="fixed")
    eq(rc, 1, "the fixed engine: %s" % out)
    check("first difference: the engine answered 'bestmove e2e4' after "
          "line" in out and out.endswith("\nnot reproduced\n"), out)
    # an engine that plays another move and crashes as well: reproduced,
    # the difference told
    rc, out, _ = replay(ctx, rec, ["--on-go=bestmove d2d4",
                                   "--die-on-position=60"], "--speed=fast",
                        name="other")
    eq(rc, 0, out)
    check("first difference: the record has 'bestmove e2e4' (line 17), "
          "the engine answered 'bestmove d2d4' after line 15 ('go depth "
          "1')" in out, out)
    # --until: up to the 10th round, the answers only
    rc, out, got = replay(ctx, rec, [GO], "--speed=fast", "--until=70",
                          name="until")
    eq(rc, 0, out)
    check("replayed: no divergence" in out, out)


@test(timeout=60)
def crash_is_reproduced_from_the_log(ctx):
    log = ctx.path("fb.log")
    b = crashed_game(ctx, ["--log=" + log])
    rc, out, got = replay(ctx, log, [GO, "--die-on-position=60"],
                          "--speed=fast")
    eq(rc, 0, out)
    check("(a log: its last session)" in out and "reproduced" in out, out)
    eq(got, b.recorded(), "what the replayed engine read")


@test(timeout=90)
def cut_record_replays_from_a_full_position(ctx):
    # 20,000 info lines (about 500 KiB) overflow the engine's ring
    crashed_game(ctx, flood_at=20)
    rec = record_of(ctx)
    with open(rec) as f:
        text = f.read()
    check(" cut      every line from here on was kept" in text, "cut line")
    rc, out, got = replay(ctx, rec, [GO, "--die-on-position=40"],
                          "--speed=fast")
    eq(rc, 0, out)
    check("the record is cut at line " in out and
          "the first position sent in full after it, after a made-up "
          "handshake" in out and out.endswith("\nreproduced\n"), out)
    got = got.decode()
    check(got.startswith("uci\nisready\nposition startpos moves "), got[:80])
    # the same record against the fixed engine
    rc, out, _ = replay(ctx, rec, [GO], "--speed=fast", name="fixed")
    eq(rc, 1, out)


@test(timeout=60)
def xboard_engine_behind_a_pair(ctx):
    """A UCI GUI, a CECP engine: the record holds what the engine got, in
    its protocol, and the replay speaks it."""
    b = ctx.bridge(["--engine-protocol=xboard"],
                   ["--speaks=xboard", "--on-go=move e7e5",
                    "--die-on-position=12"])
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    rounds = 0
    for rounds in range(40):
        b.send(b"isready\n")
        b.expect(b"readyok\n")
        b.send(b"ucinewgame\nposition startpos moves e2e4\ngo depth 1\n")
        try:
            b.expect(b"bestmove e7e5\n")
        except AssertionError:
            break
    check(5 <= rounds < 39, "rounds before the crash: %d" % rounds)
    rc, _ = b.wait()
    eq(rc, 139, "the engine's SIGSEGV")
    rec = record_of(ctx)
    rc, out, got = replay(ctx, rec, ["--speaks=xboard", "--on-go=move e7e5",
                                     "--die-on-position=12"],
                          "--speed=fast")
    eq(rc, 0, out)
    check("the engine speaks xboard" in out, out)
    eq(got, b.recorded(), "what the replayed engine read")
    check(got.startswith(b"xboard\nprotover 2\n"), got[:40])


@test()
def usage_errors_exit_2(ctx):
    junk = ctx.path("junk.txt")
    with open(junk, "w") as f:
        f.write("hello\n")
    for args, what in (([junk, "--", fbtest.FAKE, "x"], "neither a "
                        "fenbridge flight record nor a fenbridge log"),
                       ([ctx.path("none.txt"), "--", fbtest.FAKE],
                        "No such file"),
                       ([junk], "no engine given"),
                       (["--speed=slow", junk, fbtest.FAKE], "--speed"),
                       (["--until=0", junk, fbtest.FAKE], "--until")):
        rc, out, err = fbtest.run(fbtest.cmd("replay", *args))
        eq(rc, 2, "replay %r" % args)
        check(what.encode() in err, "%r: %r" % (args, err))
    rc, out, err = fbtest.run(fbtest.cmd("replay", "--help"))
    eq(rc, 0, "--help")
    check(out.startswith(b"Usage: fenbridge replay"), out[:40])


if __name__ == "__main__":
    fbtest.main()
