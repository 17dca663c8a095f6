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
Notes (a pv past a draw by rule, said once a session) are no findings:
counted apart; stockfish's searches in dead and nearly dead positions,
with --referee=strict, give none and exit 0 (issue 25). The answer to the
protocol probe is judged: Fairy-Stockfish's unquoted myname under the
default --engine-protocol=auto.

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


def findings(path, notes=False):
    """(sessions, findings) in the stderr kept at path; with notes, the
    notes instead of the findings."""
    try:
        with open(path, encoding="latin-1") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        lines = []
    sums = [ln for ln in lines if ln.startswith(PREFIX + "summary: ")]
    said = [ln[len(PREFIX):] for ln in lines
            if ln.startswith(PREFIX) and ln not in sums]
    return sums, [x for x in said if x.startswith("note: ") == notes]


def with_findings(summary):
    """A summary line that counts one finding or more."""
    return re.search(r"summary: [1-9][0-9]* finding", summary) is not None


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


# Positions where stockfish's pv runs on past a draw by rule (or starts in
# one): K+B v K+P (Kxe3 leaves dead material), K+B v K, K+N v K, and the
# Chess960 game of issue 25 (a runner's line, 110 plies, in an endgame).
DRAWN = [
    ("b6k/8/8/8/8/4p3/3K4/8 w - - 0 1", False),
    ("8/8/8/4k3/8/8/3KB3/8 w - - 0 1", False),
    ("7k/8/8/8/8/3n4/3K4/8 w - - 0 1", False),
    ("rnbnkbqr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBQR w KQkq - 0 1 moves f2f4 "
     "d7d5 b1c3 f7f5 g2g4 g8f7 f1g2 e7e6 g4f5 b8c6 f5e6 c8e6 f4f5 e6f5 g2d5 "
     "f5e6 d5e4 f8e7 d1e3 c6d4 g1g2 d8c6 e1d1 e7h4 c3d5 e8h8 h1f1 f7h5 d5f4 "
     "h5e5 f4e6 f8f1 e3f1 d4e6 c2c3 a8f8 e4f3 e6f4 g2g4 e5e7 d2d4 h7h5 g4g1 "
     "f4h3 g1g2 e7d7 c1d2 h3f4 d2f4 f8f4 d1c2 c6e7 a2a3 g7g5 h2h3 d7e6 f3h5 "
     "e6f5 c2d2 f5b5 b2b4 c7c5 d4c5 b5d7 d2c2 e7d5 h5g4 d7h7 c2b2 d5c3 a1c1 "
     "f4f2 g2h1 c3e2 h1d5 h7f7 d5d8 f7f8 d8f8 g8f8 c1c2 f2f1 g4e2 f1f2 b4b5 "
     "h4g3 b5b6 a7b6 c5b6 f2f6 e2g4 f6b6 b2a2 g3d6 c2e2", True),
]


def control_draws(fenbridge, tmp):
    """stockfish, strict, go depth 10 in each DRAWN position (MultiPV 3
    too, as cutechess ran it): no finding, exit 0; the pv past Kxe3's dead
    material is the session's one note."""
    ok = True
    for fen, c960 in DRAWN:
        for multipv in (1, 3):
            out = os.path.join(tmp, "control-draw.txt")
            if os.path.exists(out):
                os.unlink(out)
            p = subprocess.Popen(
                [wrapper(tmp, fenbridge, out, "fenbridge-control-draw",
                         "strict"), "--", STOCKFISH],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
            p.stdin.write(b"uci\n" + (b"setoption name UCI_Chess960 value "
                                      b"true\n" if c960 else b"") +
                          b"setoption name MultiPV value %d\nisready\n"
                          b"position fen %s\ngo depth 10\n"
                          % (multipv, fen.encode()))
            try:  # the whole search, then quit
                best = read_until(p, "bestmove")[-1]
            except RuntimeError:
                best = ""
            p.stdin.write(b"quit\n")
            p.wait(30)
            sums, found = findings(out)
            _, notes = findings(out, notes=True)
            good = (len(sums) == 1 and found == [] and p.returncode == 0
                    and best.startswith("bestmove") and len(notes) <= 1)
            if fen.startswith("b6k") and multipv == 1:
                good = good and len(notes) == 1 and \
                    "dead material" in notes[0]
            print("control (stockfish strict, go depth 10, multipv %d, %s): "
                  "%s, exit %d, %d findings, notes %r"
                  % (multipv, fen[:40], "ok" if good else "FAIL",
                     p.returncode, len(found), [n[:100] for n in notes]))
            ok = ok and good
    return ok


def control_probe(fenbridge, tmp):
    """fairy-stockfish under the default --engine-protocol=auto with an
    XBoard GUI: its answer to the probe is judged (its unquoted myname is
    the session's one finding), as with --engine-protocol=same."""
    ok = True
    for proto in ("auto", "same"):
        out = os.path.join(tmp, "control-probe-%s.txt" % proto)
        p = subprocess.Popen(
            [wrapper(tmp, fenbridge, out, "fenbridge-control-probe"),
             "--engine-protocol=" + proto, "--", referee_variants.FAIRY],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        # As the shell line: the answer comes while the GUI
        # waits (all lines at once, the probe's answer came after them).
        p.stdin.write(b"xboard\nprotover 2\n")
        read_until(p, "feature done=1")
        p.stdin.write(b"quit\n")
        p.wait(30)
        sums, found = findings(out)
        good = (len(sums) == 1 and len(found) == 1 and
                found[0].startswith("format: feature myname: the string "
                                    "'Fairy-Stockfish' is not quoted"))
        print("control (fairy-stockfish XBoard, --engine-protocol=%s, its "
              "answer to the probe judged): %s %r"
              % (proto, "ok" if good else "FAIL", found))
        ok = ok and good
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
    ok = control_draws(fenbridge, tmp) and ok
    if os.access(referee_variants.FAIRY, os.X_OK):
        ok = control_crc(fenbridge, tmp) and ok
        ok = control_probe(fenbridge, tmp) and ok
    print("stockfish self-play, standard chess: %d plies, %d sessions" % (
        selfplay(fb), len(findings(out)[0])))
    # Random starts (Chess960, DFRC, CRC) with --referee=strict: exit
    # status 3 exactly for the sessions with a finding.
    sout = os.path.join(tmp, "strict.txt")
    games, n, statuses = referee_variants.run(
        wrapper(tmp, fenbridge, sout, "fenbridge-strict", "strict"))
    ssums, sfound = findings(sout)
    with_finding = len([x for x in ssums if with_findings(x)])
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
    notes = findings(out, notes=True)[1] + findings(sout, notes=True)[1]
    for n in notes:
        print("  note (no finding): %s" % n[:300])
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
