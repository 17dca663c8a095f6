#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The session's lifecycle: engine start failures (told in-band too), an
engine that exits or dies mid-session, the GUI closing stdin or quitting,
the grace period, signals sent to fenbridge, and fenbridge killed with
SIGKILL (the engine dies with it)."""

import glob
import os
import re
import signal
import time

import fbtest
from fbtest import check, eq, test


def one_error_line(err, what):
    lines = err.decode("utf-8", "replace").splitlines()
    eq(len(lines), 1, "stderr lines (%r)" % lines)
    check(lines[0].startswith("fenbridge: ") and what in lines[0],
          "stderr names %r: %r" % (what, lines[0]))


def start_failure_cases(ctx):
    """(engine, exit status, what the message ends with) for engines that
    cannot be started."""
    noexec = ctx.path("not-executable")
    with open(noexec, "w") as f:
        f.write("#!/bin/sh\nexit 0\n")
    os.chmod(noexec, 0o644)
    # Passes the checks before the spawn; the exec itself fails (the
    # trampoline reports it), as for a binary whose loader is missing.
    badinterp = ctx.path("bad-interpreter")
    with open(badinterp, "w") as f:
        f.write("#!%s\nexit 0\n" % ctx.path("no-such-interpreter"))
    os.chmod(badinterp, 0o755)
    return [
        (ctx.path("missing-engine"), 127, "No such file or directory"),
        ("fenbridge-no-such-engine-on-path", 127, "not found"),
        (noexec, 126, "Permission denied"),
        (ctx.dir, 126, "is a directory"),
        (badinterp, 127, "no such file or directory"),
    ]


@test()
def engine_start_failures(ctx):
    # One line on stderr, the exit status, and (a GUI's user sees no
    # stderr) the same message in-band in answer to the GUI's uci.
    for engine, status, why in start_failure_cases(ctx):
        rc, out, err = fbtest.run(fbtest.cmd("--", engine, "-x"),
                                  stdin=b"uci\n")
        eq(rc, status, "exit status for %s" % engine)
        one_error_line(err, engine)
        msg = "cannot start engine '%s': %s" % (engine, why)
        check(msg in err.decode(), "stderr says %r: %r" % (msg, err))
        eq(out.decode(), "id name fenbridge (engine not started)\n"
           "info string fenbridge: %s\nuciok\n" % msg,
           "stdout for %s" % engine)


@test()
def engine_start_failures_in_xboard(ctx):
    for engine, status, why in start_failure_cases(ctx):
        rc, out, err = fbtest.run(fbtest.cmd("--", engine),
                                  stdin=b"xboard\nprotover 2\n")
        eq(rc, status, "exit status for %s" % engine)
        one_error_line(err, engine)
        eq(out.decode(), "tellusererror fenbridge: cannot start engine "
           "'%s': %s\n" % (engine, why), "stdout for %s" % engine)


def burst(n):
    return b"".join(b"info string burst %d\n" % i for i in range(1, n + 1))


def told_with_record(ctx, rest, before, message, lines):
    """rest is before, then message naming the flight record, which is in
    ctx's folder (the temporary folder: no log or config file), says why
    and holds each of lines (substrings, in order). Returns its text."""
    check(rest.startswith(before), "the engine's output comes first")
    tail = rest[len(before):].decode()
    m = re.fullmatch(re.escape(message) + r"; flight record: (\S+)\n", tail)
    check(m is not None, "the GUI is told, with the record: %r" % tail)
    path = m.group(1)
    eq(os.path.dirname(path), ctx.dir, "the record's folder")
    check(re.fullmatch(r"fenbridge-\d{8}-\d{6}-\d+\.txt",
                       os.path.basename(path)), "its name: %s" % path)
    text = open(path, encoding="utf-8").read()
    check(text.startswith("fenbridge flight record: the engine "),
          "it says why: %r" % text[:80])
    at = 0
    for want in lines:
        i = text.find(want, at)
        check(i >= 0, "the record holds %r after offset %d" % (want, at))
        at = i + len(want)
    return text


@test()
def engine_exits_mid_session(ctx):
    b = ctx.bridge()
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"fake-exit 3 5000\n")
    rc, rest = b.wait()
    told_with_record(ctx, rest, burst(5000),
                     "info string fenbridge: the engine exited with status 3",
                     ["gui>     uci", "engine>  uciok",
                      "gui>     fake-exit 3 5000",
                      "engine>  info string burst 5000"])
    eq(rc, 3, "exit status")
    check(b"exited with status 3" in b.stderr(), "stderr tells")
    check(b"flight record (the engine exited with status 3) written to "
          in b.stderr(), "stderr names the record")


@test()
def engine_dies_mid_session(ctx):
    b = ctx.bridge()
    b.send(b"xboard\nprotover 2\n")
    b.expect(b"done=1\n")
    # A line the engine gets rewritten is kept as read and as sent; one it
    # gets as it came only as read.
    b.send(b"setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha "
           b"- 0 1\n")
    b.send(b"fake-die %d 5000\n" % signal.SIGSEGV)
    rc, rest = b.wait()
    text = told_with_record(
        ctx, rest, burst(5000),
        "tellusererror fenbridge: the engine died of SIGSEGV (11)",
        ["GUI protocol xboard, engine protocol xboard, variant normal",
         "the position now: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w "
         "HAha - 0 1", "gui>     xboard", "gui>     protover 2",
         "gui>     setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w "
         "HAha - 0 1\n",
         # what the engine was sent follows the read it came from (which
         # may hold the next line too)
         ">engine  setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w "
         "KQkq - 0 1\n",
         "engine>  info string burst 1\n"])
    check(0 <= text.find("gui>     fake-die 11 5000\n") <
          text.find("engine>  info string burst 1\n"), "the last command")
    check("burst 5000" in text, "the last line is kept")
    check(">engine  fake-die" not in text, "a line passed as it came is "
          "kept once")
    eq(rc, 128 + signal.SIGSEGV, "exit status")

    b = ctx.bridge(name="engine2")
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"fake-die %d 10\n" % signal.SIGKILL)
    rc, rest = b.wait()
    told_with_record(ctx, rest, burst(10),
                     "info string fenbridge: the engine died of SIGKILL (9)",
                     ["gui>     fake-die 9 10"])
    eq(rc, 128 + signal.SIGKILL, "exit status")


@test(timeout=20)
def engine_exits_while_gui_paused(ctx):
    # Most of the burst is still in the pipes and queues when the engine
    # exits: all of it comes first, then the report. At least 1.5 MB, more
    # than pipes (256 KiB each) and queues hold, also when scaled down.
    n = max(fbtest.scale(200000), 60000)
    b = ctx.bridge()
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"fake-exit 3 %d\n" % n)
    time.sleep(0.5)
    check(b.p.poll() is None, "fenbridge waits for the GUI")
    rc, rest = b.wait(timeout=10)
    told_with_record(ctx, rest, burst(n),
                     "info string fenbridge: the engine exited with status 3",
                     ["engine>  info string burst %d\n" % n])
    eq(rc, 3, "exit status")


@test()
def engine_half_line_then_exit(ctx):
    # The half line is delivered as it is; fenbridge's report starts a line.
    b = ctx.bridge()
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"fake-half bestmove e2e4\n")
    rc, rest = b.wait()
    told_with_record(ctx, rest, b"bestmove e2e4\n",
                     "info string fenbridge: the engine exited with status 0",
                     ["engine>  bestmove e2e4"])
    eq(rc, 0, "exit status")


@test()
def engine_exits_at_start(ctx):
    # Before the GUI said anything there is no protocol to report in: the
    # output passes and the status tells.
    b = ctx.bridge(engine_opts=["--do=fake-exit 4 3"])
    rc, rest = b.wait()
    eq(rest, burst(3), "what the GUI received")
    eq(rc, 4, "exit status")


def ends_with_engine_status(ctx, end):
    """An engine that ignores quit and exits with 5 at EOF: after end(b),
    it gets quit and then EOF, and fenbridge exits at once with its
    status."""
    b = ctx.bridge(engine_opts=["--ignore-quit", "--eof-status=5"])
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    t0 = time.monotonic()
    end(b)
    rc, rest = b.wait()
    eq(rc, 5, "exit status")
    eq(rest, b"", "GUI output after the end")
    eq(b.recorded(), b"uci\nquit\n", "what the engine received")
    eq(b.events()[1:], ["quit", "eof"], "engine events")
    check(time.monotonic() - t0 < 2 * fbtest.SLOW,
          "no waiting for the grace period")


@test()
def gui_closes_stdin(ctx):
    ends_with_engine_status(ctx, lambda b: b.close_stdin())


@test()
def gui_quits_keeping_stdin_open_engine_status(ctx):
    # The GUI waits for fenbridge's exit without closing stdin (tests/wine
    # checks the same of fenbridge.exe).
    ends_with_engine_status(ctx, lambda b: b.send(b"quit\n"))


@test()
def gui_quits_keeping_stdin_open(ctx):
    # python-chess waits for the process after quit without closing stdin.
    b = ctx.bridge()
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"quit\n")
    rc, rest = b.wait()
    eq(rc, 0, "exit status")
    eq(rest, b"", "no report for a normal end")
    eq(b.stderr(), b"", "stderr")


@test()
def gui_goes_away(ctx):
    # The GUI closes both pipes while the engine talks: fenbridge tells the
    # engine to quit and ends; nothing is left running.
    b = ctx.bridge()
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.p.stdout.close()
    b.eof = True
    b.send(b"fake-flood 100000\n")
    b.close_stdin()
    rc, _ = b.wait(timeout=5)
    eq(rc, 0, "exit status")
    eq(b.recorded(), b"uci\nfake-flood 100000\nquit\n",
       "what the engine received")
    check_gone(b)


def run_sh(ctx, script, engine_opts=(), stdin=None, stdout=None):
    """Runs fenbridge through sh (for redirections such as <&-); returns
    (status, stdout, stderr, engine record, engine events)."""
    rec, ev = ctx.path("rec"), ctx.path("events")
    for f in (rec, ev):
        if os.path.exists(f):
            os.unlink(f)
    argv = ["/bin/sh", "-c", script, "sh"] + fbtest.cmd(
        "--", fbtest.FAKE, "--events=" + ev, *engine_opts, rec)
    try:
        p = fbtest.subprocess.run(
            argv, stdin=stdin, stdout=stdout or fbtest.subprocess.PIPE,
            stderr=fbtest.subprocess.PIPE, timeout=5 * fbtest.SLOW,
            cwd=ctx.dir)
    except fbtest.subprocess.TimeoutExpired:
        with open(ev) as f:
            pid = int(f.readline().split()[1])
        if fbtest.pid_alive(pid):
            os.kill(pid, signal.SIGKILL)
        raise AssertionError("fenbridge hung: %s" % script)
    with open(rec, "rb") as f:
        recorded = f.read()
    with open(ev) as f:
        events = f.read().splitlines()
    return p.returncode, p.stdout, p.stderr, recorded, events


@test(timeout=20)
def unusable_gui_stdio(ctx):
    # A closed stdin reads as EOF: the engine gets quit and the session
    # ends (not a hang, nor a libuv assertion on descriptor 0).
    rc, out, err, rec, ev = run_sh(ctx, 'exec "$@" <&-')
    eq((rc, out, rec), (0, b"", b"quit\n"), "closed stdin")
    # A closed stdout drops what the engine writes; the GUI's lines go on.
    rc, out, err, rec, ev = run_sh(ctx, 'printf "uci\\nisready\\nquit\\n" | '
                                   'exec "$@" >&-')
    eq((rc, rec), (0, b"uci\nisready\nquit\n"), "closed stdout")
    eq(err, b"", "stderr with a closed stdout")
    # Closed stderr: nothing of fenbridge's may land in a pipe. (Valgrind
    # itself does not start without a stderr.)
    if not fbtest.WRAPPER:
        rc, out, err, rec, ev = run_sh(
            ctx, 'printf "uci\\nposition fen x\\nquit\\n" | exec "$@" 2>&-')
        eq((rc, rec), (0, b"uci\nposition fen x\nquit\n"), "closed stderr")
        check(out.endswith(b"uciok\n"), "stdout with a closed stderr: %r"
              % out)
    # Descriptors libuv cannot stream (datagram sockets) are treated alike.
    a, b = fbtest.socket.socketpair(fbtest.socket.AF_UNIX,
                                    fbtest.socket.SOCK_DGRAM)
    with a, b:
        rc, out, err, rec, ev = run_sh(ctx, 'exec "$@"', stdin=a)
        eq((rc, out, rec), (0, b"", b"quit\n"), "datagram socket as stdin")
        rc, out, err, rec, ev = run_sh(
            ctx, 'printf "uci\\nquit\\n" | exec "$@"', stdout=a)
        eq((rc, rec), (0, b"uci\nquit\n"), "datagram socket as stdout")


def check_gone(b):
    pid = b.engine_pid()
    check(pid is not None, "the engine recorded its pid")
    fbtest.wait_for(lambda: not fbtest.pid_alive(pid), 1,
                    "engine %d to be gone" % pid)


@test()
def grace_then_sigkill(ctx):
    # The engine ignores quit, EOF and SIGTERM: SIGTERM after the grace
    # period, SIGKILL 1 s later.
    grace = 0.5
    b = ctx.bridge(["--grace=%g" % grace],
                   ["--ignore-quit", "--hang-on-eof", "--ignore-term"])
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    t0 = time.monotonic()
    b.close_stdin()
    rc, rest = b.wait(timeout=grace + 4)
    dt = time.monotonic() - t0
    check(grace + 0.9 <= dt <= grace + 1 + 1.5 * fbtest.SLOW,
          "returned after %.2f s (grace %.1f s + 1 s)" % (dt, grace))
    eq(rc, 128 + signal.SIGKILL, "exit status")
    eq(b.events()[1:], ["quit", "eof", "signal SIGTERM"], "engine events")
    check(b"SIGTERM" in b.stderr() and b"SIGKILL" in b.stderr(),
          "stderr tells: %r" % b.stderr())
    check_gone(b)


@test()
def grace_then_sigterm(ctx):
    grace = 0.3
    b = ctx.bridge(["--grace=%g" % grace], ["--ignore-quit", "--hang-on-eof"])
    b.send(b"uci\nquit\n")  # quit, stdin left open
    b.expect(b"uciok\n")
    t0 = time.monotonic()
    rc, rest = b.wait(timeout=grace + 3)
    dt = time.monotonic() - t0
    check(dt <= grace + 1.5 * fbtest.SLOW,
          "returned after %.2f s (grace %.1f s)"
          % (dt, grace))
    eq(rc, 128 + signal.SIGTERM, "exit status")
    eq(b.events()[-1], "signal SIGTERM", "the engine's last event")
    check_gone(b)


@test()
def engine_dies_with_fenbridge(ctx):
    # An engine that ignores quit, EOF and SIGTERM is still killed when
    # fenbridge is (cutechess-cli kills a stalled engine with SIGKILL):
    # fenbridge starts it with PR_SET_PDEATHSIG, through itself.
    b = ctx.bridge(engine_opts=["--ignore-quit", "--hang-on-eof",
                                "--ignore-term"])
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    pid = b.engine_pid()
    check(pid is not None and fbtest.pid_alive(pid), "the engine runs")
    # The trampoline became the engine: fenbridge's direct child.
    eq(int(fbtest.proc_status(pid)["PPid"]), b.pid, "the engine's parent")
    os.kill(b.pid, signal.SIGKILL)
    b.p.wait()
    end = time.monotonic() + 1
    while fbtest.pid_alive(pid) and time.monotonic() < end:
        time.sleep(0.01)
    check(not fbtest.pid_alive(pid), "engine %d still runs 1 s after "
          "fenbridge was killed" % pid)


@test()
def trampoline_needs_its_parent(ctx):
    # The internal command line fenbridge starts itself with: the engine
    # starts only while the parent named is still there.
    ev, rec = ctx.path("events"), ctx.path("rec")
    engine = [fbtest.FAKE, fbtest.FAKE, "--events=" + ev,
              "--do=fake-exit 7", rec]
    rc, out, err = fbtest.run(fbtest.cmd("--exec-engine", str(os.getpid()),
                                         *engine))
    eq((rc, out), (7, b""), "status and stdout with its parent there")
    check(os.path.exists(ev), "the engine ran")
    os.unlink(ev)
    rc, out, err = fbtest.run(fbtest.cmd("--exec-engine",
                                         str(os.getpid() + 1), *engine))
    eq((rc, out), (1, b""), "status and stdout with its parent gone")
    check(not os.path.exists(ev), "no engine without its parent")


@test()
def signals_forwarded(ctx):
    b = ctx.bridge()
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGINT):
        n = len(b.events())
        os.kill(b.pid, sig)
        fbtest.wait_for(lambda: len(b.events()) > n, 2,
                        "the engine to get %s" % sig.name)
        eq(b.events()[n:], ["signal " + sig.name], "engine events")
        # fenbridge lives on and still relays.
        b.send(b"isready\n")
        b.expect(b"readyok\n")
        check(b.p.poll() is None, "fenbridge survived %s" % sig.name)
    os.kill(b.pid, signal.SIGTERM)
    rc, rest = b.wait()
    eq(b.events()[-1], "signal SIGTERM", "the engine got SIGTERM")
    # The engine died of the forwarded signal; that is no crash to report.
    eq(rest, b"", "GUI output after SIGTERM")
    eq(rc, 128 + signal.SIGTERM, "exit status")
    check_gone(b)


STOCKFISH = "/usr/games/stockfish"
FAIRYMAX = "/usr/games/fairymax"
TOGA2 = "/usr/games/toga2"


def piped(ctx, engine, lines, opts=()):
    """A script's session: lines into fenbridge, stdin closed after them
    (printf ... | fenbridge -- ENGINE). Returns (status, stdout, log), or
    None when the engine is not installed."""
    if not os.access(engine, os.X_OK):
        print("    (%s not installed: not run)" % engine)
        return None
    log = ctx.path("fb.log")
    if os.path.exists(log):
        os.unlink(log)
    rc, out, _ = fbtest.run(fbtest.cmd("--log=" + log, *opts, "--",
                                       engine), stdin=lines, timeout=30)
    with open(log, "rb") as f:
        return rc, out, f.read().decode("latin-1")


@test(timeout=40)
def piped_script_same_protocol(ctx):
    # The GUI's lines wait for uciok as if it had stayed: the castle is
    # read with the engine's UCI_Chess960 known, and Stockfish's `d` shows
    # it played (before: the held lines went out at EOF, e1h1 as e1g1).
    r = piped(ctx, STOCKFISH,
              b"uci\nsetoption name UCI_Chess960 value true\n"
              b"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w "
              b"KQkq - 0 1 moves e1h1\nisready\nd\n")
    if r is None:
        return
    rc, out, log = r
    check(b"\nreadyok\n" in out, "readyok: %r" % out[-300:])
    check(b"Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1 b " in out,
          "the castle played: %r" % out[-600:])
    check("session: running -> finishing (GUI EOF)" in log,
          "the log shows the lifecycle")
    eq(rc, 0, "exit status")
    # The engine gets the EOF as alone: Stockfish ends its search with a
    # move.
    rc, out, log = piped(ctx, STOCKFISH,
                         b"uci\nposition startpos\ngo movetime 200\n")
    check(out.splitlines()[-1].startswith(b"bestmove "),
          "a bestmove: %r" % out[-200:])


def black_reply(line):
    """True for `bestmove M` / `move M` with M a move of Black's from the
    start (the search after 1. e4)."""
    words = line.split()
    return (len(words) >= 2 and words[0] in (b"bestmove", b"move") and
            len(words[1]) == 4 and words[1][1:2] in b"78" and
            words[1][3:4] in b"5678")


@test(timeout=40)
def piped_script_uci_gui_xboard_engine(ctx):
    # Fairy-Max behind a UCI script: the probe decides from its real
    # answer, the features end with done=1, the position and the search
    # follow, and the move reaches stdout before fenbridge ends (before:
    # no bestmove at all).
    r = piped(ctx, FAIRYMAX,
              b"uci\nposition startpos moves e2e4\ngo movetime 300\n")
    if r is None:
        return
    rc, out, log = r
    lines = out.splitlines()
    check(b"uciok" in lines and b"Error" not in out,
          "one UCI handshake: %r" % out[:300])
    check(black_reply(lines[-1]), "the search's move last: %r" % lines[-3:])
    check("the engine speaks xboard" in log, "the probe decided")
    eq(rc, 0, "exit status")


@test(timeout=60)
def piped_script_xboard_gui_uci_engine(ctx):
    # An XBoard script with a UCI engine (Toga II, Stockfish): the engine
    # moves after the GUI's e2e4, and that move reaches stdout.
    for engine in (TOGA2, STOCKFISH):
        r = piped(ctx, engine,
                  b"xboard\nprotover 2\nnew\nst 1\nusermove e2e4\n")
        if r is None:
            continue
        rc, out, log = r
        moves = [ln for ln in out.splitlines() if ln.startswith(b"move ")]
        check(len(moves) == 1 and black_reply(moves[0]),
              "%s: its move: %r" % (engine, out[-300:]))
        check("the engine speaks uci" in log, "the probe decided")
        eq(rc, 0, "%s: exit status" % engine)


@test(timeout=20)
def piped_script_waits_for_the_answers(ctx):
    # The fake XBoard engine answers ping late: the UCI script's isready
    # still gets its readyok (pong translated) before fenbridge ends.
    rc, out, _ = fbtest.run(fbtest.cmd(
        "--", fbtest.FAKE, "--speaks=xboard", "--answer-delay=300",
        ctx.path("rec")), stdin=b"uci\nisready\n", timeout=10)
    check(out.endswith(b"uciok\nreadyok\n"), "readyok: %r" % out)
    eq(rc, 0, "exit status")


@test(timeout=20)
def piped_script_search_that_never_ends(ctx):
    # A search that never ends in its move: --grace after the GUI's EOF
    # the engine gets quit, and the session ends (no hang).
    log = ctx.path("fb.log")
    rc, out, _ = fbtest.run(fbtest.cmd(
        "--grace=1", "--log=" + log, "--", fbtest.FAKE, "--speaks=xboard",
        ctx.path("rec")), stdin=b"uci\nposition startpos\ngo depth 9\n",
        timeout=10)
    check(out.endswith(b"uciok\n"), "no move: %r" % out[-100:])
    with open(log, "rb") as f:
        text = f.read().decode("latin-1")
    check("the engine still owes it an answer; ending the session" in text,
          "the log says why")
    eq(rc, 0, "exit status")


if __name__ == "__main__":
    fbtest.main()
