#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--restart=N: an engine that dies mid-game (the fake engine's
--die-at-go, whose count survives the restart) is started again and given
the journal's replay: the GUI gets its bestmove / move and its pong, one
note, no second handshake; beyond N per game the crash reaches the GUI as
without the option; a new game counts afresh; quit is not undone."""

import re

import fbtest
from fbtest import check, eq, test


def starts(b):
    return sum(1 for e in b.events() if e.startswith("pid "))


def quits(b):
    b.send(b"quit\n")
    rc, _ = b.wait()
    eq(rc, 0, "exit status after quit")


def second_start(b):
    """What the engine got after its first start (the replay and on)."""
    rec = b.recorded().decode()
    first = rec.index("go") + len(rec[rec.index("go"):].split("\n")[0]) + 1
    return rec[first:]


@test(timeout=20)
def uci_search_survives_a_death(ctx):
    counter = ctx.path("gos")
    log = ctx.path("fb.log")
    b = ctx.bridge(["--restart=2", "--log=" + log],
                   ["--die-at-go=%s:1" % counter])
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"setoption name Hash value 32\nsetoption name Hash value 64\n"
           b"isready\n")
    b.expect(b"readyok\n")
    b.send(b"ucinewgame\nposition startpos moves e2e4\n"
           b"go wtime 60000 btime 60000\n")
    out = b.expect(b"bestmove a2a3\n", timeout=10).decode()
    check("info string fenbridge: the engine died of SIGSEGV (11); "
          "restarted (1 of 2)\n" in out, "note to the GUI: %r" % out)
    b.send(b"isready\n")
    out += b.expect(b"readyok\n").decode()
    check("uciok" not in out and "id name" not in out and
          "option name" not in out, "no second handshake: %r" % out)
    eq(out.count("readyok"), 1, "readyok lines")
    replay = second_start(b)
    m = re.search(r"^uci\nsetoption name Hash value 64\nucinewgame\n"
                  r"isready\nposition startpos moves e2e4\n"
                  r"go wtime 60000 btime (\d+)\n", replay)
    check(m is not None, "the replay: %r" % replay)
    # black to move: its clock, less the time between go and the restart
    check(50000 <= int(m.group(1)) <= 60000, "btime %s" % m.group(1))
    eq(starts(b), 2, "engine starts")
    quits(b)
    # The restart is a state of the lifecycle, through its one function.
    with open(log, encoding="latin-1") as f:
        text = f.read()
    check("session: running -> restarting (engine exit)" in text and
          "session: restarting -> running (engine started)" in text,
          "the log shows the restart's state")


@test(timeout=20)
def a_search_whose_go_came_before_the_last_bestmove_is_replayed(ctx):
    # Every line at once: fenbridge holds them until the engine's uciok,
    # so the first search's bestmove comes after the second go.
    counter = ctx.path("gos")
    b = ctx.bridge(["--restart=2"], ["--die-at-go=%s:2" % counter])
    b.send(b"uci\nisready\nposition startpos\ngo depth 1\n"
           b"position startpos moves e2e4 a7a6\ngo wtime 60000 btime 60000\n")
    out = b.expect(b"restarted (1 of 2)\n", timeout=10)
    out += b.expect(b"bestmove a2a3\n", timeout=10)
    eq(out.count(b"bestmove a2a3\n"), 2, "bestmoves: %r" % out)
    rec = b.recorded().decode()
    check(re.search(r"\nuci\nisready\nposition startpos moves e2e4 a7a6\n"
                    r"go wtime \d+ btime 60000\n", rec) is not None,
          "the replay: %r" % rec)
    quits(b)


@test(timeout=20)
def xboard_game_and_ping_survive_a_death(ctx):
    counter = ctx.path("gos")
    b = ctx.bridge(["--restart=1"], ["--die-at-go=%s:1" % counter])
    b.send(b"xboard\nprotover 2\n")
    b.expect(b"done=1\n")
    b.send(b"accepted setboard\naccepted usermove\naccepted ping\n"
           b"new\nlevel 40 5 0\npost\nforce\nusermove e2e4\n"
           b"time 30000\notim 29000\ngo\nping 5\n")
    out = b.expect(b"pong 5\n", timeout=10).decode()
    check("telluser fenbridge: the engine died of SIGSEGV (11); "
          "restarted (1 of 1)\n" in out, "note: %r" % out)
    check("move a2a3\n" in out, "the engine's move: %r" % out)
    check("feature" not in out, "no second feature lines: %r" % out)
    replay = second_start(b)
    m = re.search(r"^xboard\nprotover 2\naccepted setboard\n"
                  r"accepted usermove\naccepted ping\nnew\nlevel 40 5 0\n"
                  r"post\nforce\nusermove e2e4\ntime (\d+)\notim 29000\n"
                  r"go\nping 5\n", replay)
    check(m is not None, "the replay: %r" % replay)
    check(2900 <= int(m.group(1)) <= 30000, "time %s" % m.group(1))
    quits(b)


@test(timeout=20)
def beyond_n_the_crash_reaches_the_gui(ctx):
    counter = ctx.path("gos")
    b = ctx.bridge(["--restart=1"], ["--die-at-go=%s:1,2" % counter])
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"position startpos\ngo depth 3\n")
    rc, rest = b.wait(timeout=10)
    rest = rest.decode()
    eq(rc, 128 + 11, "exit status")
    check("restarted (1 of 1)" in rest, "first death undone: %r" % rest)
    check("info string fenbridge: the engine died of SIGSEGV (11)" +
          "; flight record" in rest.split("restarted")[1],
          "second death told as without --restart: %r" % rest)
    check("bestmove" not in rest, "no bestmove: %r" % rest)
    eq(starts(b), 2, "engine starts")


@test(timeout=20)
def a_new_game_counts_afresh_and_the_gui_is_told_once(ctx):
    counter = ctx.path("gos")
    b = ctx.bridge(["--restart=1"], ["--die-at-go=%s:1,3" % counter])
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"ucinewgame\nposition startpos\ngo depth 3\n")
    out = b.expect(b"bestmove a2a3\n", timeout=10)
    b.send(b"ucinewgame\nposition startpos moves d2d4\ngo depth 3\n")
    out += b.expect(b"bestmove a2a3\n", timeout=10)
    eq(out.count(b"restarted"), 1, "notes to the GUI")
    eq(starts(b), 3, "engine starts")
    quits(b)
    eq(b.stderr().decode().count("starting it again (1 of 1 this game)"),
       2, "restarts logged: %r" % b.stderr())


@test(timeout=20)
def a_death_in_the_handshake_gives_the_gui_the_new_answers(ctx):
    # The engine dies before its uciok: the GUI still waits for it, so the
    # new engine's handshake answers go to the GUI this time.
    b = ctx.bridge(["--restart=1", "--protocol=uci",
                    "--engine-protocol=uci"])
    b.send(b"fake-die 11\nuci\n")
    out = b.expect(b"uciok\n", timeout=10).decode()
    check("id name fake\n" in out and "restarted (1 of 1)" in out,
          "the GUI got the handshake: %r" % out)
    b.send(b"isready\n")
    b.expect(b"readyok\n")
    eq(starts(b), 2, "engine starts")
    quits(b)


@test(timeout=20)
def no_restart_by_default_nor_after_quit(ctx):
    counter = ctx.path("gos")
    b = ctx.bridge([], ["--die-at-go=%s:1" % counter])
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"position startpos\ngo depth 3\n")
    rc, rest = b.wait(timeout=10)
    eq(rc, 128 + 11, "exit status")
    check(b"restarted" not in rest, "no restart: %r" % rest)
    b = ctx.bridge(["--restart=2"], name="quits")
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"quit\n")
    rc, rest = b.wait(timeout=10)
    eq(rc, 0, "exit status after quit")
    eq(starts(b), 1, "engine starts after quit")


fbtest.main()
