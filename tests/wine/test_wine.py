#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Windows build under Wine (suite 'wine', scripts/windows.sh test).

Every program here is a Windows .exe: fenbridge.exe, the fake engine
(tests/fake) and toga2.exe cross-built from Debian's source. pipegui.exe
starts fenbridge.exe on anonymous pipes as a Windows GUI does. Wine starts a
process in a fraction of a second once its wineserver runs (windows.sh keeps
one alive with `wineserver -p`), so each check is one short session.

The zip for users (FB_WIN_ZIP, made by windows.sh before the suite runs):
its files, their CRLF line ends, and each of its example INIs started as a
Windows user starts it: fenbridge.exe renamed beside it, no arguments. With
no engine where the INI says, fenbridge.exe must get past the INI and fail
on the engine (127, naming the INI's engine); with toga2.exe where the
INI's own lines say (Wine's C: is WINEPREFIX/drive_c), it must play. The
README.txt's WinBoard /adapterCommand line is taken from the file, unescaped
as WinBoard does, and started the same way.

Usage: test_wine.py FENBRIDGE_EXE FAKE_ENGINE_EXE PIPEGUI_EXE [TOGA2_EXE]
Prints one line per check and "wine: N passed, M failed" last.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

# What this CPU has, from /proc/cpuinfo (shared with tests/e2e/test_cpu.py)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "e2e"))
import cpuinfo  # noqa: E402

FB, FAKE_LINUX, GUI = (os.path.abspath(p) for p in sys.argv[1:4])
FAKE = "Z:" + FAKE_LINUX.replace("/", "\\")
TOGA = os.path.abspath(sys.argv[4]) if len(sys.argv) > 4 else ""
STOCKFISH = "/usr/games/stockfish"
ENV = dict(os.environ, WINEDEBUG="-all")
passed = failed = 0
TMP = tempfile.mkdtemp(prefix="fb-wine-")


def win(path):
    """The Windows name of a Linux path (Wine's drive Z: is /)."""
    return "Z:" + os.path.abspath(path).replace("/", "\\")


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL " + what)
    sys.stdout.flush()


def run(args, data=b"", timeout=60, cwd=None):
    """wine ARGS with data on stdin: (status, stdout, stderr, seconds)."""
    t = time.monotonic()
    p = subprocess.run(["wine"] + args, input=data, capture_output=True,
                       timeout=timeout, env=ENV, cwd=cwd or TMP)
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t


def gui(args, data, timeout=60, cwd=None):
    """fenbridge.exe ARGS started by pipegui.exe on anonymous pipes."""
    return run([GUI] + args, data, timeout, cwd)


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def fresh(name):
    d = os.path.join(TMP, name)
    os.makedirs(d)
    return d


def t_version():
    rc, out, _, secs = run([FB, "--version"])
    check(rc == 0 and out.startswith(b"fenbridge "),
          "fenbridge.exe --version (%.2f s): %r" % (secs, out.strip()))


def t_convert_file():
    d = fresh("convert")
    fen = os.path.join(d, "games.fen")
    with open(fen, "wb") as f:
        f.write(b"rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w "
                b"Gkq - 4 11\r\n"
                b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n")
    with open(fen, "rb") as f:
        p = subprocess.run(["wine", FB, "convert", "--to=shredder"], stdin=f,
                           capture_output=True, timeout=60, env=ENV)
    check(p.returncode == 0 and p.stdout ==
          b"rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - 4 "
          b"11\r\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\n",
          "convert < file: translated, CRLF and LF kept: %r" % p.stdout)


def t_convert_named_file():
    """convert FILE: the file read in binary mode (CRLF kept byte for byte,
    ^Z no end of file), under an ASCII name and under a Unicode one
    (Cyrillic and CJK: no ANSI code page has both)."""
    d = fresh("convert-named")
    for base in ("games.fen", "партия 棋譜.fen"):
        name = os.path.join(d, base)
        with open(name, "wb") as f:
            f.write(b"rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w "
                    b"Gkq - 4 11\r\n\x1a\r\n"
                    b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 "
                    b"1\r\n")
        rc, out, err, _ = run([FB, "convert", "--to=shredder", win(name)])
        check(rc == 1 and b"line 2, column 1: malformed FEN" in err and out ==
              b"rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - "
              b"4 11\r\n\x1a\r\n"
              b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\r\n",
              "convert FILE (%s, CRLF, ^Z): byte-exact (rc %d, %r, %r)" %
              ("ASCII name" if base.isascii() else "Unicode name", rc, out,
               err[-200:]))


SHREDDER_960 = (b"position fen rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/"
                b"2BNK1RR w Gga - 4 11")
XFEN_960 = (b"position fen rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/"
            b"2BNK1RR w Gkq - 4 11")


def t_relay(through_gui):
    how = "anonymous pipes" if through_gui else "Wine's Unix pipes"
    d = fresh("relay-gui" if through_gui else "relay-unix")
    rec, log = os.path.join(d, "rec.txt"), os.path.join(d, "fb.log")
    cmds = (b"uci\r\nsetoption name UCI_Chess960 value true\nisready\r\n" +
            SHREDDER_960 + b"\r\nquit\n")
    args = [FB, "--log=" + win(log), "--", FAKE, win(rec)]
    rc, out, err, _ = (gui if through_gui else run)(args, cmds)
    got = read(rec)
    check(rc == 0 and b"uciok\n" in out and b"readyok\n" in out,
          "%s: handshake relayed, exit 0 (rc %d, %r)" % (how, rc, err))
    check(b"uci\r\n" in got and b"isready\r\n" in got and
          XFEN_960 + b"\r\n" in got,
          "%s: CRLF kept, Shredder-FEN reached the engine as X-FEN" % how)
    lg = read(log)
    check(b">engine " + XFEN_960 in lg and b"\r\n" not in lg,
          "%s: the log is written in binary mode and names the rewrite" %
          how)


def t_spaces_and_folder():
    d = fresh("spaces")
    eng = os.path.join(d, "eng dir", "fake engine.exe")
    os.makedirs(os.path.dirname(eng))
    shutil.copy(FAKE_LINUX, eng)
    rc, out, _, _ = gui([FB, "--", win(eng), "rec file.txt"],
                        b"uci\nquit\n")
    check(rc == 0 and b"uciok" in out and
          read(os.path.join(d, "eng dir", "rec file.txt")) == b"uci\nquit\n",
          "engine path and argument with spaces; it runs in its own folder")


def t_start_failures():
    d = fresh("fail")
    rc, out, _, _ = gui([FB, "--", win(os.path.join(d, "nothere.exe"))],
                        b"uci\n")
    check(rc == 127 and b"id name fenbridge (engine not started)" in out,
          "missing engine: 127 and told in-band (rc %d, %r)" % (rc, out))
    rc, _, _, _ = gui([FB, "--", win(d)], b"")
    check(rc == 126, "a folder as engine: 126 (rc %d)" % rc)
    junk = os.path.join(d, "junk.exe")
    with open(junk, "wb") as f:
        f.write(b"not a program\n")
    rc, _, _, _ = gui([FB, "--", win(junk)], b"")
    check(rc == 126, "not a Windows program: 126 (rc %d)" % rc)


def ini_start(name, ini_text, files=()):
    """MyEngine960.exe (a renamed copy) beside NAME.ini in 'bin dir', the
    fake engine as 'eng dir/fake engine.exe' and beside the INI as
    fake_engine.exe; started with no arguments from a third folder."""
    d = fresh(name)
    bindir = os.path.join(d, "bin dir")
    os.makedirs(os.path.join(d, "eng dir"))
    os.makedirs(bindir)
    os.makedirs(os.path.join(d, "elsewhere"))
    shutil.copy(FAKE_LINUX, os.path.join(d, "eng dir", "fake engine.exe"))
    shutil.copy(FAKE_LINUX, os.path.join(bindir, "fake_engine.exe"))
    prog = os.path.join(bindir, "MyEngine960.exe")
    shutil.copy(FB, prog)
    with open(os.path.join(bindir, "MyEngine960.ini"), "wb") as f:
        f.write(ini_text.replace("@D@", win(d)).encode().replace(b"\n",
                                                                   b"\r\n"))
    rc, out, err, _ = gui([win(prog)], b"uci\n" + SHREDDER_960 + b"\nquit\n",
                          cwd=os.path.join(d, "elsewhere"))
    return d, rc, out, err


def t_ini():
    cases = [
        ("ini-relative", "engine = ..\\eng dir\\fake engine rec.txt\n",
         "eng dir", "unquoted ..\\ path with spaces, no .exe"),
        ("ini-quoted", 'engine = "@D@\\eng dir\\fake engine.exe" rec.txt\n',
         "eng dir", "quoted absolute C:\\-style path"),
        ("ini-unquoted", "engine = @D@\\eng dir\\fake engine.exe rec.txt\n",
         "eng dir", "unquoted absolute path with spaces"),
        ("ini-beside", "engine = fake_engine rec.txt\nname = My Engine 960\n",
         "bin dir", "bare name without .exe beside the INI"),
    ]
    for name, ini, where, what in cases:
        d, rc, out, err = ini_start(name, "[fenbridge]\n" + ini +
                                    "log = fb.log\n")
        rec = read(os.path.join(d, where, "rec.txt"))
        check(rc == 0 and b"uciok" in out and XFEN_960 + b"\n" in rec,
              "MyEngine960.exe with no arguments reads MyEngine960.ini: %s "
              "(rc %d, %r)" % (what, rc, err[-200:]))
        if name == "ini-beside":
            check(b"id name My Engine 960" in out and
                  os.path.exists(os.path.join(d, "bin dir", "fb.log")),
                  "the INI's name and log (beside the INI) are used")


def t_ini_toga2():
    """doc/gui-recipes.md's INI line as a Fritz user writes it: unquoted, a folder
    with a space, nothing after the program; the renamed copy started with
    no arguments."""
    if not os.path.exists(TOGA):
        check(False, "toga2.exe not built (%s)" % TOGA)
        return
    for how, engine in (("absolute", "@D@\\Engines\\Toga II\\toga2.exe"),
                        ("relative", "..\\Engines\\Toga II\\toga2.exe")):
        d = fresh("ini-toga2-" + how)
        bindir = os.path.join(d, "Toga960")
        os.makedirs(os.path.join(d, "Engines", "Toga II"))
        os.makedirs(bindir)
        shutil.copy(TOGA, os.path.join(d, "Engines", "Toga II", "toga2.exe"))
        prog = os.path.join(bindir, "Toga960.exe")
        shutil.copy(FB, prog)
        ini = ("[fenbridge]\nengine = %s\nname = Toga II 960\n"
               "engine-fen = xfen\ngui-fen = shredder\nlog = fenbridge.log\n"
               % engine.replace("@D@", win(d)))
        with open(os.path.join(bindir, "Toga960.ini"), "wb") as f:
            f.write(ini.encode().replace(b"\n", b"\r\n"))
        start = b"rnbnkbqr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBQR w "
        rc, out, err, _ = gui([win(prog)], b"uci\nsetoption name UCI_Chess960"
                              b" value true\nposition fen " + start +
                              b"HAha - 0 1\nisready\nquit\n", cwd=d)
        lg = read(os.path.join(bindir, "fenbridge.log"))
        check(rc == 0 and b"id name Toga II 960" in out and
              b"readyok" in out and
              b">engine position fen " + start + b"KQkq - 0 1" in lg,
              "Toga960.exe with no arguments: engine = %s (unquoted, a "
              "space, nothing after) starts toga2.exe (rc %d, %r)" %
              (engine.replace("@D@", "Z:\\..."), rc, (out + err)[-200:]))


ILL_WIN = ("fenbridge: the engine died of 0xC000001D "
           "(STATUS_ILLEGAL_INSTRUCTION), an illegal instruction")


def t_illegal_instruction(xboard, at_start):
    """The fake engine executes ud2 (an avx2 build on an older CPU): on
    Windows it ends with exception code 0xC000001D, which fenbridge.exe
    names, with the fix and the CPU's features, once in-band. The GUI
    keeps its stdin open (a GUI that closed it would get no message)."""
    first, done, prefix = ((b"xboard\nprotover 2\n", b"done=1",
                            "tellusererror ") if xboard else
                           (b"uci\n", b"uciok", "info string "))
    what = "%s, %s" % ("XBoard" if xboard else "UCI",
                       "at start" if at_start else "after the handshake")
    d = fresh("ill-%d-%d" % (xboard, at_start))
    p = subprocess.Popen(["wine", GUI, FB, "--", FAKE] +
                         (["--do=fake-ill"] if at_start else []) +
                         [win(os.path.join(d, "rec.txt"))],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env=ENV, cwd=d)
    p.stdin.write(first)
    p.stdin.flush()
    if not at_start:
        got = b""
        deadline = time.monotonic() + 30
        while done not in got and time.monotonic() < deadline:
            line = p.stdout.readline()
            if not line:
                break
            got += line
        p.stdin.write(b"fake-ill 2\n")
        p.stdin.flush()
    # Read to the end with stdin still open (communicate would close it)
    timer = threading.Timer(30, p.kill)
    timer.start()
    out = p.stdout.read()
    p.wait()
    timer.cancel()
    p.stdin.close()
    text = out.decode("utf-8", "replace")
    told = [ln for ln in text.split("\n") if "illegal instruction" in ln]
    # Wine's exit code, to Linux: the low byte of 0xC000001D
    check(p.returncode == 0x1D and len(told) == 1 and
          told[0].startswith(prefix + ILL_WIN + cpuinfo.advice()) and
          (at_start or "info string burst 2\n" in text),
          "%s: an illegal instruction (0xC000001D) is told once, with the "
          "fix (rc %d, %r)" % (what, p.returncode, text[-400:]))


def t_engine_builds():
    """engine.avx512 ... engine.popcnt beside the renamed copy: copies of
    the fake engine, each recording into its own file; the one started is
    the first this CPU runs (cpuid read by fenbridge.exe, the flags here
    from /proc/cpuinfo)."""
    for given in (["avx512", "bmi2", "avx2", "popcnt"], ["popcnt", "avx2"],
                  ["avx512"]):
        d = fresh("builds-" + "-".join(given))
        prog = os.path.join(d, "MyEngine960.exe")
        shutil.copy(FB, prog)
        ini = "[fenbridge]\nlog = fb.log\nengine = fake_plain plain.rec\n"
        for b in ["plain"] + given:
            shutil.copy(FAKE_LINUX, os.path.join(d, "fake_%s.exe" % b))
            if b != "plain":
                ini += "engine.%s = fake_%s %s.rec\n" % (b, b, b)
        with open(os.path.join(d, "MyEngine960.ini"), "wb") as f:
            f.write(ini.encode().replace(b"\n", b"\r\n"))
        rc, out, err, _ = gui([win(prog)], b"uci\nquit\n")
        want = cpuinfo.choice(given)
        ran = sorted(f[:-4] for f in os.listdir(d) if f.endswith(".rec"))
        key = "engine" if want == "plain" else "engine." + want
        check(rc == 0 and b"uciok" in out and ran == [want] and
              ("engine build: %s: " % key).encode() in
              read(os.path.join(d, "fb.log")),
              "INI builds %s: %s started (cpuinfo: %s; ran %r, rc %d)" %
              (", ".join(given), key, " ".join(cpuinfo.HAS), ran, rc))


def t_version_cpu():
    rc, out, _, _ = run([FB, "--version"])
    lines = out.decode().replace("\r", "").split("\n")
    check(rc == 0 and len(lines) == 3 and lines[1].startswith(
          "CPU: " + " ".join(cpuinfo.HAS) if cpuinfo.HAS else "CPU: none"),
          "fenbridge.exe --version: the CPU's features (%r)" % lines[1:2])


def t_grace():
    d = fresh("grace")
    ev = os.path.join(d, "ev.txt")
    t = time.monotonic()
    rc, _, _, _ = gui([FB, "--grace=0.5", "--", FAKE, "--ignore-quit",
                       "--hang-on-eof", "--events=" + win(ev),
                       win(os.path.join(d, "rec.txt"))], b"uci\nquit\n")
    secs = time.monotonic() - t
    check(b"quit" in read(ev) and secs < 10,
          "engine that ignores quit and EOF: terminated after the grace "
          "period (%.1f s, rc %d)" % (secs, rc))


def t_quit_stdin_open(through_gui):
    """The GUI sends quit and keeps stdin open while it waits for the
    engine, fenbridge.exe, to exit (python-chess does; a Windows GUI that
    waits too long kills it). The engine ignores quit and exits with 5 when
    its stdin closes: fenbridge.exe must exit at once, with that status."""
    how = "anonymous pipes" if through_gui else "Wine's Unix pipes"
    d = fresh("quit-open-" + ("gui" if through_gui else "unix"))
    p = subprocess.Popen(["wine"] + ([GUI] if through_gui else []) +
                         [FB, "--", FAKE, "--ignore-quit", "--eof-status=5",
                          win(os.path.join(d, "rec.txt"))],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env=ENV, cwd=d)
    p.stdin.write(b"uci\nquit\n")
    p.stdin.flush()
    t = time.monotonic()
    try:
        rc = p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        rc = None
    secs = time.monotonic() - t
    p.stdin.close()
    if rc is None:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    p.stdout.close()
    check(rc == 5 and secs < 5,
          "%s: quit with stdin left open: fenbridge.exe exits with the "
          "engine's status (rc %s after %.1f s)" % (how, rc, secs))


def t_killed(engine, args, name):
    """The GUI kills fenbridge.exe outright: the engine must die too."""
    d = fresh("kill-" + name)
    p = subprocess.Popen(["wine", GUI, FB, "--", engine] + args,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         env=ENV, cwd=d)
    p.stdin.write(b"uci\nisready\n")
    p.stdin.flush()
    lines = b""
    deadline = time.monotonic() + 30
    while b"readyok" not in lines and time.monotonic() < deadline:
        line = p.stdout.readline()
        if not line:
            break
        lines += line
    p.stdin.write(b"go infinite\npipegui-kill " + name.encode() + b"\n")
    p.stdin.flush()
    try:
        out, _ = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        out = b""
    check(("pipegui: %s gone" % name).encode() in out,
          "fenbridge.exe killed with TerminateProcess: %s is gone too (%r)" %
          (name, out[-80:]))


def legal_moves(fen):
    """Stockfish's legal moves (Chess960, king takes rook) or None."""
    if not os.access(STOCKFISH, os.X_OK):
        return None
    p = subprocess.run([STOCKFISH], input=(
        "setoption name UCI_Chess960 value true\nposition fen %s\n"
        "go perft 1\nquit\n" % fen).encode(), capture_output=True,
        timeout=30)
    return {ln.split(b":")[0].decode() for ln in p.stdout.splitlines()
            if ln.endswith(b": 1")}


def t_toga2():
    if not os.path.exists(TOGA):
        check(False, "toga2.exe not built (%s)" % TOGA)
        return
    d = fresh("toga2")
    shutil.copy(TOGA, os.path.join(d, "toga2.exe"))
    log = os.path.join(d, "fb.log")
    start = "rnbnkbqr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBQR w HAha - 0 1"
    moves = "g2g3 g7g6 f1h3 f8h6 g1g2 g8g7 e1h1"
    cmds = ("uci\nsetoption name UCI_Chess960 value true\n"
            "setoption name Hash value 16\nisready\n"
            "position fen %s\ngo depth 5\n" % start).encode()
    p = subprocess.Popen(["wine", GUI, FB, "--log=" + win(log), "--",
                          win(os.path.join(d, "toga2.exe"))],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         env=ENV, cwd=d)

    def until(word):
        got = b""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = p.stdout.readline()
            if not line:
                break
            got += line
            if line.startswith(word):
                return got, line.split()
        return got, []

    p.stdin.write(cmds)
    p.stdin.flush()
    out, best = until(b"bestmove")
    check(b"option name UCI_Chess960" in out,
          "toga2.exe (no Chess960 of its own) is offered UCI_Chess960")
    legal = legal_moves(start)
    check(len(best) >= 2 and (legal is None or best[1].decode() in legal),
          "toga2.exe's bestmove from a Chess960 start is legal: %r%s" %
          (best[1:2], "" if legal is not None else " (no stockfish to "
           "check with)"))
    p.stdin.write(("position fen %s moves %s\ngo depth 4 searchmoves e8h8"
                   "\n" % (start, moves)).encode())
    p.stdin.flush()
    _, best2 = until(b"bestmove")
    p.stdin.write(b"quit\n")
    p.stdin.flush()
    try:
        p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
    lg = read(log)
    check(b">engine position fen rnbnkbqr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBQR"
          b" w KQkq - 0 1\n" in lg.replace(b"\r", b"") or
          b">engine position fen rnbnkbqr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBQR"
          b" w KQkq - 0 1" in lg,
          "the Shredder-FEN start (HAha) reached toga2.exe as X-FEN (KQkq)")
    check(b"moves g2g3 g7g6 f1h3 f8h6 g1g2 g8g7 e1g1" in lg and
          b"searchmoves e8g8" in lg,
          "castling king-takes-rook (e1h1, e8h8) reached toga2.exe as e1g1, "
          "e8g8")
    # Toga II does not honour searchmoves: its castle in the other
    # direction is only shown when it plays one (the Linux suites check it).
    if best2[1:2] in ([b"e8g8"], [b"e8h8"]):
        check(best2[1:2] == [b"e8h8"],
              "toga2.exe's castle reached the GUI as e8h8: %r" % best2[1:2])
    t_killed(win(os.path.join(d, "toga2.exe")), [], "toga2.exe")


class Session:
    """fenbridge.exe ARGS started by pipegui.exe in folder d, fed line by
    line: until(word) reads up to the first line that starts with word."""

    def __init__(self, args, d):
        self.p = subprocess.Popen(["wine", GUI, FB] + args,
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, env=ENV, cwd=d)
        self.out = b""

    def send(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def until(self, word, secs=30):
        deadline = time.monotonic() + secs
        while time.monotonic() < deadline:
            line = self.p.stdout.readline()
            if not line:
                break
            self.out += line
            if line.startswith(word):
                return True
        return False

    def end(self, data=b"quit\n"):
        """Sends data, closes stdin: (status, all the output, stderr)."""
        try:
            self.p.stdin.write(data)
        except OSError:
            pass  # it is gone already
        try:  # communicate closes stdin
            rest, err = self.p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rest, err = self.p.communicate()
        self.out += rest
        return self.p.returncode, self.out, err


def windows_file(name):
    """The Linux path of a Windows path fenbridge.exe names (C:\ is the
    Wine prefix's drive_c, Z:\ is /)."""
    if name[:3].upper() == "Z:\\":
        return "/" + name[3:].replace("\\", "/")
    prefix = os.environ.get("WINEPREFIX", os.path.expanduser("~/.wine"))
    return os.path.join(prefix, "drive_c", *name[3:].split("\\"))


def record_path(err):
    """The flight record fenbridge.exe says (stderr) it wrote, or None."""
    m = re.search(rb"flight record \(.*\) written to (.*?)\r?\n", err)
    return windows_file(m.group(1).decode()) if m else None


CRASH_WIN = ("the engine died of 0xC0000005 (STATUS_ACCESS_VIOLATION)")


def t_restart(xboard):
    """--restart=2: the fake engine dies at its 2nd go, of an access
    violation (exception 0xC0000005, as a crashing Windows engine ends);
    fenbridge.exe starts it again and replays the game: the GUI gets its
    bestmove / move, one note in-band, no second handshake; the new engine
    gets the replay (its record). Without the option the death reaches the
    GUI."""
    if xboard:
        what, opening, done = "XBoard", b"xboard\nprotover 2\n", b"done=1"
        first = (b"accepted setboard\naccepted usermove\nnew\nlevel 40 5 0\n"
                 b"go\n")
        second, answer = b"force\nusermove e7e5\ngo\n", b"move a2a3"
        note = "telluser fenbridge: " + CRASH_WIN + "; restarted (1 of 2)"
        replay = (r"xboard\nprotover 2\naccepted setboard\naccepted usermove"
                  r"\nnew\nlevel 40 5 0\nforce\nusermove a2a3\nusermove e7e5\n"
                  r"go\n")
    else:
        what, opening, done = "UCI", b"uci\n", b"uciok"
        first = b"ucinewgame\nposition startpos\ngo depth 1\n"
        second = (b"position startpos moves a2a3 e7e5\n"
                  b"go wtime 60000 btime 60000\n")
        answer = b"bestmove a2a3"
        note = "info string fenbridge: " + CRASH_WIN + "; restarted (1 of 2)"
        replay = (r"uci\nucinewgame\nisready\nposition startpos moves a2a3 "
                  r"e7e5\ngo wtime \d+ btime 60000\n")
    for restart in (True, False):
        d = fresh("restart-%s-%d" % (what, restart))
        rec = os.path.join(d, "rec.txt")
        s = Session((["--restart=2"] if restart else []) +
                    ["--log=" + win(os.path.join(d, "fb.log")), "--", FAKE,
                     "--die-at-go=%s:2" % win(os.path.join(d, "gos")),
                     win(rec)], d)
        s.send(opening)
        s.until(b"feature" if xboard else done)
        # The first search answered before the second starts (a go
        # answered late would end the journal's search).
        s.send(first)
        s.until(answer)
        s.send(second)
        got = s.until(answer, 20)
        rc, out, err = s.end()
        text = out.decode("utf-8", "replace")
        # What the engine got after the second go's lines: the replay
        again = read(rec).decode("latin-1").split(second.decode(), 1)[-1]
        if restart:
            check(got and rc == 0 and text.count("restarted") == 1 and
                  text.count(note + "\n") == 1 and
                  text.count(done.decode()) == 1 and
                  err.count(b"starting it again (1 of 2") == 1 and
                  text.count(answer.decode()) == 2,
                  "%s, --restart=2: the engine dies of 0xC0000005 at its "
                  "2nd go; the GUI gets its %s after one note and no "
                  "second handshake (rc %s, %r)" %
                  (what, answer.decode(), rc, text[-400:]))
            check(re.match(replay, again) is not None,
                  "%s, --restart=2: the new engine got the game's replay "
                  "(%r)" % (what, again[:300]))
        else:
            check(not got and rc == 0xC0000005 & 0xFF and
                  "restarted" not in text and CRASH_WIN in text,
                  "%s, no --restart: the death (0xC0000005) reaches the "
                  "GUI (rc %s, %r)" % (what, rc, text[-300:]))


def t_normalize():
    """--normalize on the fake engine's --sloppy output: tidied (no blank
    lines, the name cut to 64 bytes, false in lowercase, an id author,
    score cp and multipv 1), the other lines as they came; off, byte for
    byte what the engine writes (the engine run alone under Wine)."""
    d = fresh("normalize")
    cmds = b"uci\nisready\ngo depth 1\n"
    _, raw, _, _ = run([FAKE, "--sloppy", win(os.path.join(d, "alone.txt"))],
                       cmds + b"quit\n", cwd=d)
    got = {}
    for on in (False, True):
        s = Session((["--normalize"] if on else []) +
                    ["--", FAKE, "--sloppy", win(os.path.join(d, "r.txt"))],
                    d)
        s.send(cmds)
        s.until(b"bestmove")
        rc, got[on], _ = s.end()
        check(rc == 0, "--normalize %s: exit 0 (rc %s)" %
              ("on" if on else "off", rc))
    check(raw.endswith(b"bestmove e2e4\n") and got[False] == raw,
          "without --normalize: the sloppy engine's output byte for byte "
          "(%r)" % got[False])
    name = re.search(rb"id name ([^\r\n]*)", raw)
    tidy = got[True]
    lines = tidy.split(b"\n")
    check(name is not None and len(name.group(1)) > 64 and
          b"\r" not in tidy and b"" not in lines[:-1] and
          b"id name " + name.group(1)[:64] + b"\n" in tidy and
          b"default False" not in tidy and
          b"option name Ponder type check default false\n" in tidy and
          b"id author unknown\nuciok\n" in tidy and
          b"info multipv 1 depth 1 score cp 20 nodes 20 pv e2e4\n" in tidy and
          b"info string score 5\ninfo depth 1 multipv 2 score cp 10 pv d2d4"
          b"\nbestmove e2e4\n" in tidy,
          "--normalize: the sloppy output tidied, the other lines as they "
          "came (%r)" % tidy)


def t_referee_strict():
    """--referee=strict, the fake engine's bestmove not legal: the finding
    in-band, exit status 3, and the flight record written where
    fenbridge.exe says (no --log: Windows' temp folder, in the Wine
    prefix), holding the move."""
    d = fresh("referee")
    s = Session(["--referee=strict", "--", FAKE, "--on-go=bestmove e7e4",
                 win(os.path.join(d, "rec.txt"))], d)
    s.send(b"uci\nisready\n")
    s.until(b"readyok")
    s.send(b"position startpos moves e2e4\ngo depth 3\n")
    s.until(b"bestmove")
    rc, out, err = s.end()
    path = record_path(err)
    record = read(path) if path else b""
    check(rc == 3 and out.count(b"info string fenbridge: referee: illegal: ")
          == 1 and b"bestmove 'e7e4' is not legal" in out,
          "--referee=strict: an illegal bestmove told in-band once, exit 3 "
          "(rc %s, %r)" % (rc, out[-300:]))
    check(b"bestmove e7e4" in record,
          "--referee=strict: the flight record written (%s)" % path)
    if path and os.path.exists(path):
        os.remove(path)


ZIP = os.environ.get("FB_WIN_ZIP", "")
ZIP_FILES = {"fenbridge.exe", "README.txt", "examples/fritz-chess960.ini",
             "examples/winboard-uci.ini"}


def unzip(name):
    """The zip unpacked in a fresh folder NAME: its top folder, or None."""
    if not os.path.exists(ZIP):
        check(False, "the zip is there (%r)" % ZIP)
        return None
    d = fresh(name)
    with zipfile.ZipFile(ZIP) as z:
        z.extractall(d)
    tops = os.listdir(d)
    return os.path.join(d, tops[0]) if len(tops) == 1 else None


def ini_engine(path):
    """The value of 'engine =' in an INI's [fenbridge] section."""
    section = None
    with open(path, newline="") as f:
        for line in f.read().split("\r\n"):
            m = re.match(r"\[(.*)\]$", line.strip())
            if m:
                section = m.group(1)
            elif section == "fenbridge" and re.match(r"engine\s*=", line):
                return line.split("=", 1)[1].strip()
    return None


def t_zip():
    """The zip's files, each text file with CRLF and no bare LF."""
    top = unzip("zip")
    if top is None:
        return
    names = set()
    for root, _, files in os.walk(top):
        for f in files:
            names.add(os.path.relpath(os.path.join(root, f), top)
                      .replace(os.sep, "/"))
    check(names == ZIP_FILES, "the zip holds %s (%s)" % (sorted(ZIP_FILES),
                                                          sorted(names)))
    for n in sorted(names - {"fenbridge.exe"}):
        data = read(os.path.join(top, n))
        check(data and data.count(b"\n") == data.count(b"\r\n"),
              "%s in the zip has CRLF line ends" % n)
    check(read(os.path.join(top, "fenbridge.exe")) == read(FB),
          "the zip's fenbridge.exe is the one tested")


def start_ini(top, ini, cmds, cwd):
    """The zip's INI copied as Engine.ini beside the zip's fenbridge.exe
    copied as Engine.exe in 'top/Engine dir', started with no arguments."""
    d = os.path.join(top, "Engine dir")
    os.makedirs(d, exist_ok=True)
    shutil.copy(os.path.join(top, "fenbridge.exe"), os.path.join(d,
                                                                "Engine.exe"))
    shutil.copy(os.path.join(top, "examples", ini), os.path.join(d,
                                                                "Engine.ini"))
    return d, gui([win(os.path.join(d, "Engine.exe"))], cmds, cwd=cwd)


def engine_place(ini_dir, engine):
    """Where, under Linux, the INI's engine value points (C:\ is the Wine
    prefix's drive_c; a relative path is relative to the INI's folder)."""
    if re.match(r"[A-Za-z]:\\", engine):
        prefix = os.environ.get("WINEPREFIX", os.path.expanduser("~/.wine"))
        return os.path.join(prefix, "drive_c", *engine[3:].split("\\"))
    return os.path.normpath(os.path.join(ini_dir, *engine.split("\\")))


def play(args, cmds, word, cwd):
    """args started by pipegui.exe, cmds sent; the output up to the first
    line that starts with word (60 s at most), then quit: (status, output,
    the line's words)."""
    p = subprocess.Popen(["wine", GUI] + args, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         env=ENV, cwd=cwd)
    p.stdin.write(cmds)
    p.stdin.flush()
    got, found = b"", []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = p.stdout.readline()
        if not line:
            break
        got += line
        if line.startswith(word):
            found = line.split()
            break
    try:
        p.stdin.write(b"quit\n")
        p.stdin.close()
    except OSError:
        pass
    try:
        got += p.stdout.read()
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    p.stdout.close()
    return p.returncode, got, found


XBOARD_GAME = b"xboard\nprotover 2\nnew\nvariant fischerandom\n" \
    b"setboard rnbnkbqr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBQR w KQkq - 0 1\n" \
    b"go\n"


def t_zip_examples():
    """Each example INI of the zip, as it is: parsed by fenbridge.exe (no
    engine there: 127 and the INI's engine named, not an INI error), then
    played with toga2.exe put where its own lines say."""
    top = unzip("zip-examples")
    if top is None:
        return
    for ini in sorted(os.listdir(os.path.join(top, "examples"))):
        engine = ini_engine(os.path.join(top, "examples", ini))
        place = engine_place(os.path.join(top, "Engine dir"), engine)
        if os.path.exists(place):  # left in the Wine prefix by a run
            os.remove(place)
        d, (rc, out, err, _) = start_ini(top, ini, b"uci\nquit\n", top)
        # The message names the INI's program (a relative one made
        # absolute), cut at its first blank as Windows reads a command
        # line whose whole does not name a file.
        named = re.search(rb"cannot start engine '([^']*)'", out)
        check(rc == 127 and b"(engine not started)" in out and
              named is not None and
              named.group(1).endswith(engine.split()[0].encode()),
              "%s parsed by fenbridge.exe: no engine there, 127 and the "
              "INI's engine named (rc %d, %r)" % (ini, rc, (out + err)[-300:]))
        if not os.path.exists(TOGA):
            check(False, "toga2.exe not built (%s)" % TOGA)
            continue
        os.makedirs(os.path.dirname(place), exist_ok=True)
        shutil.copy(TOGA, place)
        if "uci" in re.findall(r"^engine-protocol\s*=\s*(\w+)",
                               open(os.path.join(d, "Engine.ini")).read(),
                               re.M):
            # WinBoard's side: an XBoard GUI, the UCI engine behind.
            rc, out, words = play([win(os.path.join(d, "Engine.exe"))],
                                  XBOARD_GAME, b"move ", top)
        else:
            rc, out, words = play(
                [win(os.path.join(d, "Engine.exe"))],
                b"uci\nsetoption name UCI_Chess960 value true\n"
                b"position fen rnbnkbqr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBQR w"
                b" HAha - 0 1\ngo depth 4\n", b"bestmove ", top)
        check(len(words) > 1 and rc == 0,
              "%s as it is, toga2.exe at %s: it plays %r (rc %s, %r)"
              % (ini, engine, words[1:2], rc, out[-300:]))
        os.remove(place)


def t_adapter_command():
    """README.txt's /adapterCommand line: WinBoard's unescaping (\\ and
    \"), %fcp the engine, fenbridge.exe where the line says, an XBoard
    game against toga2.exe."""
    top = unzip("zip-adapter")
    if top is None:
        return
    text = read(os.path.join(top, "README.txt")).decode()
    m = re.search(r'/adapterCommand="((?:[^"\\]|\\.)*)"', text)
    check(m is not None, "README.txt has an /adapterCommand line")
    if m is None or not os.path.exists(TOGA):
        return
    line = re.sub(r"\\(.)", r"\1", m.group(1))
    toga = "C:\\Engines\\Toga II\\toga2.exe"
    line = line.replace("%fcp", toga)
    lex = shlex.shlex(line, posix=True)
    lex.whitespace_split, lex.escape = True, ""
    words = list(lex)
    placed = []
    for w, src in ((words[0], os.path.join(top, "fenbridge.exe")),
                   (toga, TOGA)):
        placed.append(engine_place(top, w))
        os.makedirs(os.path.dirname(placed[-1]), exist_ok=True)
        shutil.copy(src, placed[-1])
    rc, out, found = play(words, XBOARD_GAME, b"move ", top)
    check(len(found) > 1 and rc == 0,
          "README.txt's /adapterCommand, unescaped as WinBoard does (%s): "
          "an XBoard game with toga2.exe, it plays %r (rc %s, %r)"
          % (line, found[1:2], rc, out[-300:]))
    for p in placed:
        os.remove(p)


def main():
    t0 = time.monotonic()
    tests = [t_version, t_convert_file, t_convert_named_file,
             lambda: t_relay(True),
             lambda: t_relay(False), t_spaces_and_folder, t_start_failures,
             t_ini, t_ini_toga2, t_grace,
             lambda: t_illegal_instruction(False, True),
             lambda: t_illegal_instruction(True, True),
             lambda: t_illegal_instruction(False, False),
             lambda: t_illegal_instruction(True, False),
             t_engine_builds, t_version_cpu,
             lambda: t_quit_stdin_open(True),
             lambda: t_quit_stdin_open(False),
             lambda: t_killed(FAKE, ["--hang-on-eof", "rec.txt"],
                              "fake_engine.exe"),
             lambda: t_restart(False), lambda: t_restart(True),
             t_normalize, t_referee_strict,
             t_toga2, t_zip, t_zip_examples, t_adapter_command]
    for t in tests:
        try:
            t()
        except Exception as e:  # one broken check must not hide the rest
            check(False, "%s raised %r" % (getattr(t, "__name__", "test"),
                                             e))
    shutil.rmtree(TMP, ignore_errors=True)
    print("wine suite: %.1f s" % (time.monotonic() - t0))
    print("wine: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


main()
