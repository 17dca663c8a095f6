# SPDX-License-Identifier: MIT
"""End-to-end tests of the config file, set up the way a Fritz user must:
the binary copied under another name beside NAME.ini, started with no
arguments from another working directory."""

import os
import shutil
import stat

import fbtest
from fbtest import check, eq, test

START = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


def install(ctx, ini, name="MyEngine960"):
    """Copies fenbridge to 'bin dir/NAME' beside NAME.ini, and an engine
    script in 'eng dir' that records its folder and environment before it
    becomes the fake engine. Returns (program, bin dir, eng dir)."""
    bindir = ctx.path("bin dir")
    engdir = ctx.path("eng dir")
    os.makedirs(bindir)
    os.makedirs(engdir)
    prog = os.path.join(bindir, name)
    shutil.copy(fbtest.FENBRIDGE, prog)
    with open(os.path.join(bindir, name + ".ini"), "w") as f:
        f.write(ini)
    script = os.path.join(engdir, "run engine.sh")
    with open(script, "w") as f:
        f.write('#!/bin/sh\npwd > cwd.txt\nprintf "%%s" "$FB_TEST_VAR" > '
                'env.txt\nexec "%s" --events=events.txt rec.txt\n'
                % fbtest.FAKE)
    os.chmod(script, os.stat(script).st_mode | stat.S_IXUSR)
    return prog, bindir, engdir


def start(ctx, prog, args=()):
    """Starts prog ARGS from a third folder, on pipes; the fake engine's
    record and events are where the engine script leaves them."""
    gui = ctx.path("gui dir")
    os.makedirs(gui, exist_ok=True)
    eng = ctx.path("eng dir")
    return ctx.bridge(argv=[prog] + list(args), cwd=gui,
                      record=os.path.join(eng, "rec.txt"),
                      events=os.path.join(eng, "events.txt"))


INI = """; MyEngine960.ini
[fenbridge]
engine = "../eng dir/run engine.sh"
name = My Engine 960
log = fenbridge.log

[options]
Hash = 32

[forced-options]
Threads = 1

[hidden-options]
Secret = yes

[env]
FB_TEST_VAR = bar baz
"""


@test(timeout=15)
def ini_beside_renamed_binary(ctx):
    prog, bindir, engdir = install(ctx, INI)
    b = start(ctx, prog)
    b.send(b"uci\n")
    out = b.expect(b"uciok\n")
    check(b"id name My Engine 960\n" in out, "name not replaced: %r" % out)
    check(b"id name fake" not in out, "engine's own name shown: %r" % out)
    b.send(b"setoption name Threads value 4\n"
           b"fake-echo option name Secret type check default false\n"
           b"fake-echo option name Shown type check default false\n"
           b"isready\n")
    out = b.expect(b"readyok\n")
    check(b"Secret" not in out, "hidden option shown: %r" % out)
    check(b"option name Shown" in out, "other option lost: %r" % out)
    b.send(b"quit\n")
    rc, _ = b.wait()
    eq(rc, 0, "exit status")
    with open(os.path.join(engdir, "cwd.txt")) as f:
        eq(os.path.realpath(f.read().strip()), os.path.realpath(engdir),
           "engine's working directory")
    with open(os.path.join(engdir, "env.txt")) as f:
        eq(f.read(), "bar baz", "environment addition")
    rec = b.recorded()
    check(b"setoption name Hash value 32\n" in rec,
          "injected option missing: %r" % rec)
    check(b"setoption name Threads value 1\n" in rec,
          "forced option missing: %r" % rec)
    check(b"Threads value 4" not in rec, "forced option overridden")
    check(rec.index(b"Hash value 32") < rec.index(b"isready"),
          "options not sent before the GUI's own commands")
    log = os.path.join(bindir, "fenbridge.log")
    check(os.path.exists(log), "no log beside the ini")
    with open(log, "rb") as f:
        text = f.read()
    check(b"config file: " + os.path.join(bindir, "MyEngine960.ini").encode()
          in text, "log does not name the config file")
    check(b"dropped: the config forces it" in text,
          "forced drop not logged")


def unquoted_alone(ctx, absolute):
    """doc/gui-recipes.md's `engine = C:\\Engines\\Toga II\\toga2.exe`: unquoted,
    with blanks, no arguments after it: the whole value is the program."""
    engine = (os.path.join(ctx.path("eng dir"), "run engine.sh") if absolute
              else "../eng dir/run engine.sh")
    prog, _, _ = install(ctx, "[fenbridge]\nengine = %s\n" % engine)
    b = start(ctx, prog)
    b.send(b"uci\n")
    out = b.expect(b"uciok\n")
    check(b"id name fake" in out, "the engine did not start: %r" % out)
    b.send(b"quit\n")
    eq(b.wait()[0], 0, "exit status")
    eq(b.recorded(), b"uci\nquit\n", "what the engine received")


@test(timeout=15)
def unquoted_absolute_path_with_blanks_alone(ctx):
    unquoted_alone(ctx, True)


@test(timeout=15)
def unquoted_relative_path_with_blanks_alone(ctx):
    unquoted_alone(ctx, False)


@test(timeout=15)
def broken_ini_names_its_line(ctx):
    ini = "[fenbridge]\nengine = ../x\nthis line has no equals sign\n"
    prog, bindir, _ = install(ctx, ini)
    b = start(ctx, prog)
    b.send(b"uci\n")
    rc, out = b.wait()
    eq(rc, 1, "exit status")
    where = (os.path.join(bindir, "MyEngine960.ini") + ":3:").encode()
    check(where in b.stderr(), "stderr lacks %r: %r" % (where, b.stderr()))
    check(b"info string fenbridge: " + where in out,
          "GUI not told in-band: %r" % out)
    check(not os.path.exists(ctx.path("eng dir/rec.txt")),
          "the engine started with half a configuration")


@test(timeout=15)
def broken_ini_in_xboard(ctx):
    ini = "[fenbridge]\nengine = ../x\nengin = typo\n"
    prog, _, _ = install(ctx, ini)
    b = start(ctx, prog)
    b.send(b"xboard\n")
    rc, out = b.wait()
    eq(rc, 1, "exit status")
    check(b"tellusererror fenbridge: " in out and b":3: unknown key 'engin'"
          in out, "XBoard GUI not told: %r" % out)


@test(timeout=15)
def command_line_overrides_config(ctx):
    ini = INI.replace("[options]", "engine-fen = shredder\n\n[options]")
    prog, _, _ = install(ctx, ini)
    cfg = os.path.join(ctx.path("bin dir"), "MyEngine960.ini")
    # The same file by --config, and a command-line option over it.
    b = start(ctx, fbtest.FENBRIDGE, ["--config=" + cfg, "--engine-fen=xfen"])
    b.send(b"uci\nposition fen " + START + b" w HAha - 0 1\nisready\n")
    b.expect(b"readyok\n")
    b.send(b"quit\n")
    eq(b.wait()[0], 0, "exit status")
    rec = b.recorded()
    check(b"position fen " + START + b" w KQkq - 0 1\n" in rec,
          "--engine-fen did not override the file: %r" % rec)

    b = start(ctx, fbtest.FENBRIDGE, ["--config=" + cfg])
    b.send(b"uci\nposition fen " + START + b" w KQkq - 0 1\nisready\n")
    b.expect(b"readyok\n")
    b.send(b"quit\n")
    eq(b.wait()[0], 0, "exit status")
    check(b"position fen " + START + b" w HAha - 0 1\n" in b.recorded(),
          "engine-fen from the file not used")


@test(timeout=15)
def no_config_no_engine_is_a_usage_error(ctx):
    rc, out, err = fbtest.run(fbtest.cmd(), cwd=ctx.dir)
    eq(rc, 2, "exit status")
    check(b"no engine given" in err, "message: %r" % err)


@test(timeout=15)
def unreadable_config_is_an_error(ctx):
    rc, out, err = fbtest.run(fbtest.cmd("--config=" + ctx.path("none.ini")),
                              cwd=ctx.dir)
    eq(rc, 1, "exit status")
    check(b"none.ini" in err, "message: %r" % err)


if __name__ == "__main__":
    fbtest.main()
