#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--referee=warn behind whole games with real engines: no finding.

Usage: referee_games.py FENBRIDGE
       referee_games.py --driver DRIVER.py FENBRIDGE [DRIVER ARGS...]

With --driver (how meson runs the engines suite's games, match, uci_xboard
and xboard_uci): runs that game driver of this folder, whole, with a
fenbridge that adds --referee=warn and keeps its stderr; passes when the
driver's own checks pass (its exit status) and the referee found nothing
but the KNOWN defects: each game is played once and judged both ways.
games.py: toga2, gnuchess -u, glaurung, stockfish in Chess960,
fairy-stockfish in XBoard mode and 10x8; match.py: stockfish against
toga2, gnuchess, glaurung, fairy-stockfish UCI and XBoard, sjaakii;
uci_xboard.py: a UCI GUI with sjaakii, GNU Chess, Fairy-Max,
fairy-stockfish as XBoard engines; xboard_uci.py: an XBoard GUI with
stockfish in normal chess and fischerandom, toga2, fairy-stockfish.

Without it: a control (a GUI move that is not legal is found), a self-play
game of stockfish in standard chess with ponder, ponderhit and stop through
--referee=warn; then, with --referee=strict,
referee_variants.py: short games from random Chess960, DFRC and CRC (10x8)
starts for stockfish, fairy-stockfish (UCI and XBoard), sjaakii, toga2 and
GNU Chess, native and through the translating pairs (exit status 3
exactly for the sessions with a finding). Each session's findings and its summary
are read from that stderr: a clean engine gives no finding, so any finding fails the
test, but for those listed in KNOWN, real engine defects shown there with
their evidence. A control shows the tap at work with a real engine: a GUI
position whose move is not legal is the one finding of its session.

The sessions counted must be many. 77 without stockfish (with --driver:
the driver's own 77).
"""

import os
import re
import select
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import referee_variants  # noqa: E402
STOCKFISH = "/usr/games/stockfish"

# Real engines' defects, each with its evidence.
KNOWN = [
    # Fairy-Stockfish 11.1 in XBoard mode: `feature ... myname=Fairy-Stockfish
    # ...` unquoted; CECP quotes string values, and XBoard 4.9 rejects it
    # (doc/protocols.md, "What engines accept").
    (re.compile(r"^format: feature myname: the string 'Fairy-Stockfish' "
                r"is not quoted"), "Fairy-Stockfish's unquoted myname"),
]

PREFIX = "fenbridge: referee: "


def findings(path):
    """(sessions, findings) in the stderr kept at path."""
    try:
        with open(path, encoding="latin-1") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        lines = []
    sums = [ln for ln in lines if ln.startswith(PREFIX + "summary: ")]
    found = [ln[len(PREFIX):] for ln in lines
             if ln.startswith(PREFIX) and ln not in sums]
    return sums, found


def wrapper(tmp, fenbridge, out, name="fenbridge", mode="warn"):
    """A fenbridge with --referee=mode whose stderr goes to out (strict
    mode's flight records to tmp)."""
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write('#!/bin/sh\nTMPDIR="%s" exec "%s" --referee=%s "$@" '
                '2>>"%s"\n' % (tmp, fenbridge, mode, out))
    os.chmod(path, 0o755)
    return path


def scripted(argv, lines, readyoks):
    """Sends lines to argv, waits for its readyok-th readyok (the answers
    come before quit, however slow the machine), then quit: a finished
    process with its stdout."""
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    p.stdin.write(lines)
    p.stdin.flush()
    out = b""
    deadline = time.monotonic() + 60 * referee_variants.WAIT
    while out.count(b"readyok\n") < readyoks and \
            time.monotonic() < deadline:
        r, _, _ = select.select([p.stdout], [], [], 1)
        if r:
            data = os.read(p.stdout.fileno(), 65536)
            if not data:
                break
            out += data
    try:
        p.stdin.write(b"quit\n")
        p.stdin.close()
    except OSError:
        pass
    out += p.stdout.read()
    p.wait(60)
    p.stdout = out
    return p


def control(fenbridge, tmp):
    """stockfish, a GUI position with an illegal move: one gui finding."""
    out = os.path.join(tmp, "control.txt")
    p = scripted(
        [wrapper(tmp, fenbridge, out, "fenbridge-control"), "--",
         STOCKFISH],
        b"uci\nisready\nposition startpos moves e2e4 e7e5 e1e3\n"
        b"go depth 2\nisready\n", 2)
    sums, found = findings(out)
    ok = (len(sums) == 1 and len(found) == 1 and
          found[0].startswith("gui: the position does not follow") and
          b"info string fenbridge: referee: gui: " in p.stdout)
    print("control (stockfish, a GUI move that is not legal): %s %r"
          % ("ok" if ok else "FAIL", found))
    return ok


CRC = "rnbckqbanr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBCKQBANR w KQkq - 0 1"


def control_crc(fenbridge, tmp):
    """fairy-stockfish in caparandom, strict: the archbishop's knight
    jumps are followed on 10x8, a king's jump is the one finding (the CRC
    wire is judged, not skipped); exit status 3."""
    out = os.path.join(tmp, "control-crc.txt")
    p = scripted(
        [wrapper(tmp, fenbridge, out, "fenbridge-control-crc", "strict"),
         "--", referee_variants.FAIRY],
        b"uci\nsetoption name UCI_Variant value caparandom\n"
        b"isready\nposition fen " + CRC.encode() +
        b" moves h1i3 h8i6 e1e3\ngo depth 2\nisready\n", 2)
    sums, found = findings(out)
    ok = (len(sums) == 1 and len(found) == 1 and p.returncode == 3 and
          "move 3 'e1e3' is not legal" in found[0])
    print("control (fairy-stockfish caparandom, a GUI move that is not "
          "legal): %s %r exit %d" % ("ok" if ok else "FAIL", found,
                                     p.returncode))
    return ok


def read_until(p, word, timeout=30):
    """The engine's lines up to the first starting with word (the
    deadline scaled by FB_TEST_WAIT)."""
    deadline = time.monotonic() + timeout * referee_variants.WAIT
    lines = []
    while time.monotonic() < deadline:
        r, _, _ = select.select([p.stdout], [], [], 1)
        if not r:
            continue
        line = p.stdout.readline().decode("latin-1")
        if not line:
            break
        lines.append(line.rstrip("\r\n"))
        if line.startswith(word):
            return lines
    raise RuntimeError("no %s from the engine" % word)


def selfplay(fb, plies=40):
    """stockfish against itself in standard chess through fenbridge, as
    a GUI does it: ucinewgame and isready, a position line with every move,
    go with clocks, depth or movetime; go ponder then ponderhit, and go
    infinite then stop."""
    p = subprocess.Popen([fb, "--", STOCKFISH], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, bufsize=0)

    def send(line):
        p.stdin.write(line.encode() + b"\n")

    send("uci")
    read_until(p, "uciok")
    send("setoption name Ponder value true")
    send("ucinewgame")
    send("isready")
    read_until(p, "readyok")
    moves = []
    for ply in range(plies):
        send("position startpos" + (" moves " + " ".join(moves)
                                    if moves else ""))
        if ply % 5 == 3:
            send("go infinite")
            time.sleep(0.05)
            send("stop")
        elif ply % 5 == 4:
            send("go ponder movetime 30")
            send("ponderhit")
        else:
            send("go wtime 2000 btime 2000 winc 10 binc 10" if ply % 2
                 else "go depth 6")
        best = read_until(p, "bestmove")[-1].split()
        if best[1] in ("(none)", "0000"):
            break
        moves.append(best[1])
    send("quit")
    p.wait(10)
    return len(moves)


def judge(sums, found):
    """Prints the findings; returns those that are not KNOWN."""
    unknown = []
    for f in found:
        why = [w for rx, w in KNOWN if rx.search(f)]
        print("  finding%s: %s" % (" (known: %s)" % why[0] if why else "",
                                   f[:300]))
        if not why:
            unknown.append(f)
    print("%d sessions, %d findings, %d of them not known engine defects"
          % (len(sums), len(found), len(unknown)))
    return unknown


def driver(name, fenbridge, args):
    """DRIVER.py whole through --referee=warn: its own verdict and the
    referee's."""
    tmp = tempfile.mkdtemp(prefix="fb-referee-%s-" % name.split(".")[0])
    out = os.path.join(tmp, "stderr.txt")
    fb = wrapper(tmp, fenbridge, out)
    sys.stdout.flush()
    rc = subprocess.call([sys.executable, os.path.join(HERE, name), fb] +
                         args)
    if rc == 77:
        return 77
    sums, found = findings(out)
    unknown = judge(sums, found)
    ok = rc == 0 and not unknown and sums
    print("%s through --referee=warn: exit %d, %d sessions, %d findings not "
          "known: %s (stderr kept in %s)" % (name, rc, len(sums),
                                              len(unknown),
                                              "PASS" if ok else "FAIL", out))
    return 0 if ok else 1


def main():
    if sys.argv[1] == "--driver":
        return driver(sys.argv[2], os.path.abspath(sys.argv[3]),
                      sys.argv[4:])
    fenbridge = os.path.abspath(sys.argv[1])
    if not os.access(STOCKFISH, os.X_OK):
        print("skipped: no stockfish")
        return 77
    tmp = tempfile.mkdtemp(prefix="fb-referee-games-")
    out = os.path.join(tmp, "stderr.txt")
    fb = wrapper(tmp, fenbridge, out)
    ok = control(fenbridge, tmp)
    if os.access(referee_variants.FAIRY, os.X_OK):
        ok = control_crc(fenbridge, tmp) and ok
    print("stockfish self-play, standard chess: %d plies, %d sessions" % (
        selfplay(fb), len(findings(out)[0])))
    # Random starts (Chess960, DFRC, CRC) with --referee=strict: exit
    # status 3 exactly for the sessions with a finding.
    sout = os.path.join(tmp, "strict.txt")
    games, n, statuses = referee_variants.run(
        wrapper(tmp, fenbridge, sout, "fenbridge-strict", "strict"))
    ssums, sfound = findings(sout)
    with_finding = len([x for x in ssums if " 0 findings" not in x])
    threes = len([rc for _, rc in statuses if rc == 3])
    bad = [(label, rc) for label, rc in statuses if rc not in (0, 3)]
    print("strict, random starts: %d games, %d sessions, %d with findings, "
          "%d exit 3, other: %r" % (games, len(ssums), with_finding, threes,
                                    bad))
    if bad or threes != with_finding or len(ssums) != n or games < 24:
        print("FAIL: strict sessions: exit statuses or counts")
        ok = False
    sums, found = findings(out)
    sums += ssums
    found += sfound
    unknown = judge(sums, found)
    if len(sums) < 20:
        print("FAIL: too few sessions refereed")
        ok = False
    if unknown:
        print("FAIL: findings with clean engines")
        ok = False
    print("referee_games: %s (stderr kept in %s)" % ("PASS" if ok else
                                                     "FAIL", out))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
