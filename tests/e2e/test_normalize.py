#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--normalize (INI normalize = on): the fake engine's --sloppy output (blank
lines in its handshake, a 69-byte id name, no id author, a check option
defaulting to False, a bare score without multipv) tidied for the GUI, every
other line as it came; without the option, byte for byte as the engine
wrote it."""

import fbtest
from fbtest import check, eq, test

NAME = b"fake sloppy engine whose name is longer than any GUI shows: version 1"
GUI = b"uci\nisready\ngo depth 1\n"

# What the fake engine writes for GUI (its handshake, readyok, its search).
RAW = (b"\nid name " + NAME + b"\n"
       b"option name Ponder type check default False\n"
       b"option name UCI_Chess960 type check default false\n"
       b"\r\nuciok\n"
       b"readyok\n"
       b"info depth 1 score 20 nodes 20 pv e2e4\n"
       b"info string score 5\n"
       b"info depth 1 multipv 2 score cp 10 pv d2d4\n"
       b"bestmove e2e4\n")

# The same, tidied: the blank lines gone, the name cut at 64 bytes, False in
# lowercase, an author before uciok, score cp and multipv 1 in the search's
# line; the info string and the multipv 2 line as they came.
TIDY = (b"id name " + NAME[:64] + b"\n"
        b"option name Ponder type check default false\n"
        b"option name UCI_Chess960 type check default false\n"
        b"id author unknown\n"
        b"uciok\n"
        b"readyok\n"
        b"info multipv 1 depth 1 score cp 20 nodes 20 pv e2e4\n"
        b"info string score 5\n"
        b"info depth 1 multipv 2 score cp 10 pv d2d4\n"
        b"bestmove e2e4\n")


def session(b):
    """Plays GUI through b and quits; returns what the GUI got."""
    b.send(GUI)
    out = b.expect(b"bestmove e2e4\n")
    b.send(b"quit\n")
    rc, rest = b.wait()
    eq(rc, 0, "exit status")
    eq(rest, b"", "output after bestmove")
    return out


@test()
def sloppy_engine_byte_exact_without_normalize(ctx):
    b = ctx.bridge(engine_opts=["--sloppy"])
    eq(session(b), RAW, "what the GUI got")
    eq(b.recorded(), GUI + b"quit\n", "what the engine received")


@test()
def sloppy_engine_tidied_with_normalize(ctx):
    log = ctx.path("fb.log")
    b = ctx.bridge(opts=["--normalize", "--log=" + log],
                   engine_opts=["--sloppy"])
    eq(session(b), TIDY, "what the GUI got")
    # Only the engine's side is touched.
    eq(b.recorded(), GUI + b"quit\n", "what the engine received")
    with open(log, "rb") as f:
        text = f.read()
    # Each rewrite is in the log, the full name too.
    for what in (b"normalize: a blank line in the handshake dropped",
                 b"normalize: id name cut to 64 bytes",
                 b"the engine's full name: '" + NAME + b"'",
                 b"normalize: check default in lowercase",
                 b"normalize: the engine sent no id author",
                 b"normalize: multipv 1 and score cp added"):
        check(what in text, "log lacks %r:\n%s" % (what, text.decode()))


@test()
def well_behaved_engine_unchanged_with_normalize(ctx):
    # The plain fake engine gets nothing wrong: its output passes as it
    # came with --normalize too.
    outs = []
    for opts in ([], ["--normalize"]):
        b = ctx.bridge(opts=opts, name="e%d" % len(outs))
        b.send(b"uci\nisready\n")
        outs.append(b.expect(b"readyok\n"))
        b.send(b"quit\n")
        eq(b.wait()[0], 0, "exit status")
    eq(outs[1], outs[0], "with --normalize")
    check(b"id author fenbridge e2e tests\n" in outs[0], "output: %r" % outs[0])


def ini(ctx, value):
    path = ctx.path("fb.ini")
    with open(path, "w") as f:
        # The engine runs in the file's folder (short lines: inih's
        # limit).
        f.write("[fenbridge]\nengine = \"%s\" --sloppy "
                "--events=engine.events engine.rec\nengine-dir = .\n"
                "normalize = %s\n" % (fbtest.FAKE, value))
    return path


@test()
def ini_normalize_on_and_off(ctx):
    for value, want in (("on", TIDY), ("off", RAW), ("yes", TIDY)):
        b = ctx.bridge(argv=[fbtest.FENBRIDGE, "--config=" + ini(ctx, value)],
                       record=ctx.path("engine.rec"),
                       events=ctx.path("engine.events"))
        eq(session(b), want, "normalize = %s" % value)
    # The command line over the file.
    b = ctx.bridge(argv=[fbtest.FENBRIDGE, "--config=" + ini(ctx, "off"),
                         "--normalize"],
                   record=ctx.path("engine.rec"),
                   events=ctx.path("engine.events"))
    eq(session(b), TIDY, "--normalize over normalize = off")


@test()
def ini_normalize_bad_value_is_an_error(ctx):
    rc, out, err = fbtest.run(fbtest.cmd("--config=" + ini(ctx, "maybe")),
                              cwd=ctx.dir)
    eq(rc, 1, "exit status")  # a broken config file, as any other
    check(b"fb.ini:4: normalize: unknown value 'maybe' (on or off)" in err,
          "message: %r" % err)


fbtest.main()
