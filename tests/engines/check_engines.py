#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`fenbridge check` against the Debian engines in /usr/games.

Each engine's report goes to the test log. The findings asserted are those
the experiments give (README "fenbridge check"): Stockfish passes, reads both
dialects (also in DFRC: both colours' rights) and takes the castle forms
of its mode; Toga II dies (status 1) on a
Shredder-FEN castling field and gets engine-fen = xfen; Glaurung misses the
castle on X-FEN `K` for a rook off the corner in Chess960 and gets
engine-fen = shredder, also under another `id name` (a wrapper renames it:
the report is the same but for its first line); Fairy-Stockfish in XBoard
mode refuses O-O in Chess960 (king takes rook works), stays in
fischerandom after `new`, and dies of an 8x8 setboard after `new` that
follows its last 10x8 variant (`variant embassy`); in both protocols it
castles in Janus (king to b1) and Embassy (king to h1) read from either
dialect, and takes their castles as the king's move only; Fairy-Max
castles in Janus through edit; Sjaak II lists Embassy (not Janus) and
passes it in both protocols;
Fairy-Max has no setboard (its positions go through edit, and it castles
from them) and answers `?` with Error; Sjaak II ignores
`stop` during `go infinite` in UCI and passes in XBoard mode; a wrapper that makes Stockfish exit on a file
letter in the castling field gives exit status 1 with that finding.
GNU Chess (XBoard, found by its `Invalid move: uci`, or told) passes and
gets engine-fen = xfen, in both runs. Usage errors exit 2. An engine that
is missing skips its checks; 77 when none is there.

Usage: check_engines.py FENBRIDGE
       check_engines.py --wrap [--name=NAME] [--die-on-letter] ENGINE...
"""
import os
import re
import subprocess
import sys
import threading
import time

GAMES = "/usr/games"
HERE = os.path.abspath(__file__)


def wrap(argv):
    """A relay in front of a real engine: renames its id name / myname,
    and with --die-on-letter exits 1 on a castling field with a file
    letter in standard chess (as Toga II does), like an engine of another
    name or a worse one."""
    name, die = None, False
    while argv and argv[0].startswith("--"):
        a = argv.pop(0)
        if a.startswith("--name="):
            name = a[7:]
        elif a == "--die-on-letter":
            die = True
    eng = subprocess.Popen(argv, stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True, bufsize=1)

    def out():
        for line in eng.stdout:
            if name and line.startswith("id name "):
                line = "id name %s\n" % name
            sys.stdout.write(line)
            sys.stdout.flush()
        os._exit(eng.wait() or 0)

    threading.Thread(target=out, daemon=True).start()
    c960 = False
    for line in sys.stdin:
        m = re.match(r"position fen \S+ [wb] (\S+)", line)
        if line.startswith("setoption name UCI_Chess960 value "):
            c960 = line.split()[-1] == "true"
        # Standard chess only, as Toga II (which has no Chess960 mode):
        # in Chess960 the letter is X-FEN too (inner rook, DFRC).
        if die and m and not c960 and re.search(r"[A-HJa-hj]", m.group(1).replace(
                "K", "").replace("Q", "").replace("k", "").replace("q", "")):
            eng.kill()
            os._exit(1)
        eng.stdin.write(line)
        eng.stdin.flush()
    eng.stdin.close()
    eng.wait()
    os._exit(0)


passed = failed = 0


def check(what, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   %s" % what)
    else:
        failed += 1
        print("FAIL %s %s" % (what, detail))


def run(fb, args, timeout=1500):
    # A safety net against a hang, no more: on a busy machine check waits
    # for a slow engine's answers (minutes at nice 19 beside CPU hogs).
    t0 = time.monotonic()
    p = subprocess.run([fb, "check"] + args, capture_output=True, text=True,
                       timeout=timeout)
    dt = time.monotonic() - t0
    print("---- fenbridge check %s (exit %d, %.1f s)" %
          (" ".join(args), p.returncode, dt))
    print(p.stdout + p.stderr)
    return p.returncode, p.stdout, dt


def body(out):
    """The report without its first line (the name), without the move
    that stopped go infinite (which depends on how far the search got),
    and without the slowness of late answers (which depends on the
    load)."""
    out = re.sub(r" \(slow: \d+ s\)$", "", out, flags=re.M)
    return re.sub(r"^(ok +(stop during|\? \(move now\)|go ponder).*): \S+$",
                  r"\1",
                  out.split("\n", 1)[1], flags=re.M)


def has(out, text):
    return text in out


def line(out, pattern):
    """The report's line that starts with pattern (a verdict and step)."""
    return re.search("^" + pattern, out, re.M) is not None


def dfrc(out):
    """The DFRC steps (both colours' rights, White's on an inner rook):
    read in both dialects, for White and for Black."""
    return len(re.findall(r"^ok +Chess960 mode, \S+ \(DFRC, ", out,
                          re.M)) == 4


def janus_embassy(out):
    """Janus and Embassy (Fairy-Stockfish): the castle played by their
    rules (Janus e1b1, Embassy e1h1; mirrored for Black) in both dialects,
    four read steps each; the castle taken as the king's move (for White
    and for Black), king takes rook refused or dropped."""
    return all(
        len(re.findall(r"^ok +%s mode, \S+ \(.*: %s$" % (v, mv), out,
                       re.M)) == 2 and
        len(re.findall(r"^ok +%s mode, \S+ \(.*: %s$" % (v, bmv), out,
                       re.M)) == 2 and
        len(re.findall(r"^ok +%s mode: accepts a castle as king move " % v,
                       out, re.M)) == 2 and
        len(re.findall(r"^wrong +%s mode: accepts a castle as king takes "
                       r"rook " % v, out, re.M)) == 2
        for v, mv, bmv in (("janus", "e1b1", "e8b8"),
                           ("embassy", "e1h1", "e8h8")))


def embassy_all(out):
    """Embassy (Sjaak II): its four read steps and its four accept steps
    (the king's move and king takes rook, for White and Black) pass."""
    return len(re.findall(r"^ok +embassy mode[,:] ", out, re.M)) == 8


def xb_ponder_analyze(out):
    """XBoard: hard, its move, then its ponder move and another one, each
    answered with a legal move; analyze gives thinking and exit ends it."""
    return (line(out, r"ok +hard: its move, then its ponder move") and
            line(out, r"ok +hard: its move, then another \(a miss\)") and
            line(out, r"ok +analyze: thinking with legal pvs"))


def present(exe):
    return os.access(os.path.join(GAMES, exe), os.X_OK)


def main():
    fb = sys.argv[1]
    sf, toga, gl = (os.path.join(GAMES, e) for e in
                    ("stockfish", "toga2", "glaurung"))
    fairy, fmax = os.path.join(GAMES, "fairy-stockfish"), \
        os.path.join(GAMES, "fairymax")
    any_engine = False

    # Usage: exit 2, and --help names the options.
    rc, _, _ = run(fb, [])
    check("no engine: exit 2", rc == 2)
    rc, _, _ = run(fb, ["--protocol=cecp", "--", "true"])
    check("bad --protocol: exit 2", rc == 2)
    rc, out, _ = run(fb, ["--help"])
    check("--help", rc == 0 and "--timeout=SECONDS" in out and
          "--protocol=auto|uci|xboard" in out)
    rc, _, _ = run(fb, ["--", "/nonexistent/engine"])
    check("engine not found: exit 2", rc == 2)

    if present("stockfish"):
        any_engine = True
        rc, out, dt = run(fb, ["--", sf])
        check("stockfish: passes (exit 0)", rc == 0)
        print("note: stockfish: check took %.1f s" % dt)
        check("stockfish: UCI", has(out, "protocol: UCI\n"))
        for d in ("X-FEN", "Shredder-FEN"):
            check("stockfish: reads %s in Chess960" % d,
                  line(out, r"ok +Chess960 mode, %s \(960, rook off" % d))
        check("stockfish: both dialects", has(out, "engine-fen = auto\n"))
        check("stockfish: DFRC in both dialects", dfrc(out))
        check("stockfish: auto castling", has(out,
                                            "engine-castling = auto\n"))
        check("stockfish: emits king takes rook in Chess960",
              has(out, "emits castles in Chess960 mode as king takes rook"))
        check("stockfish: takes KxR in 960, not the king move",
              line(out, r"ok +Chess960 mode: accepts a castle as king "
                   r"takes rook") and
              line(out, r"wrong +Chess960 mode: accepts a castle as king "
                   r"move"))
        check("stockfish: stop, quit", line(out, r"ok +stop during") and
              line(out, r"ok +quit"))
        first = out

        rc, out, _ = run(fb, ["--", sys.executable, HERE, "--wrap",
                              "--name=Some Engine", sf])
        check("stockfish renamed: same report",
              rc == 0 and has(out, "engine: Some Engine\n") and
              body(out) == body(first))

        rc, out, _ = run(fb, ["--", sys.executable, HERE, "--wrap",
                              "--die-on-letter", sf])
        check("dies on a file letter: exit 1", rc == 1)
        check("dies on a file letter: the finding",
              has(out, "  - DIED: standard mode, Shredder-FEN"))
        check("dies on a file letter: engine-fen = xfen",
              has(out, "engine-fen = xfen\n"))

    if present("toga2"):
        any_engine = True
        rc, out, _ = run(fb, ["--", toga])
        check("toga2: exit 1 (dies on Shredder-FEN)", rc == 1)
        check("toga2: DIED on HAha-style field",
              line(out, r"DIED +standard mode, Shredder-FEN.*: status 1"))
        check("toga2: no Chess960 steps (nor DFRC)",
              "Chess960 mode" not in out)
        check("toga2: engine-fen = xfen", has(out, "engine-fen = xfen\n"))

    if present("glaurung"):
        any_engine = True
        rc, out, _ = run(fb, ["--", gl])
        check("glaurung: misses the castle on X-FEN K in Chess960",
              line(out, r"wrong +Chess960 mode, X-FEN \(960, rook off"))
        check("glaurung: reads Shredder-FEN in Chess960",
              line(out, r"ok +Chess960 mode, Shredder-FEN \(960, rook off"))
        check("glaurung: engine-fen = shredder",
              has(out, "engine-fen = shredder\n"))
        # Its misreading is X-FEN K for a rook off the corner only: the
        # inner rook's B and Black's k / h it reads.
        check("glaurung: DFRC in both dialects", dfrc(out))
        first = out
        rc, out, _ = run(fb, ["--", sys.executable, HERE, "--wrap",
                              "--name=Renamed", gl])
        check("glaurung renamed: still engine-fen = shredder",
              has(out, "engine-fen = shredder\n") and
              has(out, "engine: Renamed\n"))
        check("glaurung renamed: same report",
              body(out) == body(first))

    if present("fairy-stockfish"):
        any_engine = True
        rc, out, _ = run(fb, ["--protocol=xboard", "--", fairy])
        check("fairy-stockfish xboard: XBoard with setboard",
              has(out, "protocol: XBoard (CECP)\n") and
              has(out, "setboard yes"))
        check("fairy-stockfish xboard: refuses O-O",
              line(out, r"wrong +Chess960 mode: accepts a castle as O-O"))
        check("fairy-stockfish xboard: king move in standard chess, king "
              "takes rook in Chess960",
              has(out, "engine-castling = auto\n# takes: standard chess "
                  "king move; Chess960 king takes rook\n"))
        # Fairy-Stockfish 11.1 stays in fischerandom after new.
        check("fairy-stockfish xboard: new after fischerandom",
              line(out, r"wrong +new after variant fischerandom"))
        check("fairy-stockfish xboard: reads both dialects in caparandom",
              line(out, r"ok +caparandom mode, X-FEN \(10x8, rook off") and
              line(out, r"ok +caparandom mode, Shredder-FEN \(10x8, rook "
                   r"off"))
        check("fairy-stockfish xboard: DFRC in both dialects", dfrc(out))
        check("fairy-stockfish xboard: pondering and analyze",
              xb_ponder_analyze(out))
        check("fairy-stockfish xboard: 10x8 castles as in 8x8: the king's "
              "move in capablanca, only king takes rook in caparandom",
              line(out, r"ok +capablanca mode: accepts a castle as king "
                   r"move") and
              line(out, r"ok +caparandom mode: accepts a castle as king "
                   r"takes rook") and
              line(out, r"wrong +caparandom mode: accepts a castle as O-O.*"
                   r": refused"))
        check("fairy-stockfish xboard: Janus and Embassy",
              janus_embassy(out))
        # Fairy-Stockfish 11.1 stays in the last variant (embassy) after
        # new: the 8x8 setboard that follows kills it (SIGSEGV).
        check("fairy-stockfish xboard: new after embassy (exit 1)",
              rc == 1 and line(out, r"DIED +new after variant embassy"))
        rc, out, _ = run(fb, ["--", fairy])
        check("fairy-stockfish uci: passes, caparandom through UCI_Variant",
              rc == 0 and has(out, "caparandom, janus, embassy)") and
              line(out, r"ok +caparandom mode, Shredder-FEN \(10x8, corner"))
        check("fairy-stockfish uci: DFRC in both dialects", dfrc(out))
        check("fairy-stockfish uci: 10x8 castles: the king's move in "
              "capablanca (king takes rook dropped), king takes rook in "
              "caparandom",
              line(out, r"ok +capablanca mode: accepts a castle as king "
                   r"move") and
              line(out, r"wrong +capablanca mode: accepts a castle as king "
                   r"takes rook") and
              line(out, r"ok +caparandom mode: accepts a castle as king "
                   r"takes rook"))
        check("fairy-stockfish uci: Janus and Embassy through UCI_Variant",
              janus_embassy(out))

    if present("fairymax"):
        any_engine = True
        rc, out, _ = run(fb, ["--", fmax])
        check("fairymax: found XBoard by experiment",
              has(out, "engine-protocol = xboard\n"))
        check("fairymax: no setboard reported",
              has(out, "setboard no") and
              has(out, "# engine-fen: not tested (no setboard"))
        # No setboard: the positions through edit, whose rights it infers
        # from a king and rook on their start squares (8x8 and capablanca).
        check("fairymax: castles after edit (standard chess, capablanca)",
              len(re.findall(r"^ok +standard mode, edit ", out, re.M)) == 4
              and len(re.findall(r"^ok +capablanca mode, edit ", out,
                                 re.M)) == 2)
        # It lists janus: the corner rooks and the king on e1 are Janus's
        # start squares, so the positions go through edit too.
        check("fairymax: castles after edit in janus (king to b1)",
              line(out, r"ok +janus mode, edit \(10x8, a-rook\): .*: e1b1$")
              and line(out, r"ok +janus mode, edit \(10x8, a-rook, Black\)"
                       r": .*: e8b8$"))
        check("fairymax: pondering and analyze", xb_ponder_analyze(out))
        check("fairymax: takes the king's move, refuses king takes rook",
              line(out, r"ok +standard mode: accepts a castle as king move")
              and line(out, r"wrong +standard mode: accepts a castle as "
                       r"king takes rook.*: refused") and
              has(out, "engine-castling = auto\n"))
        # It moves when its own search ends: within the timeout (then
        # its Error for ? comes before the pong) or not, by the load.
        check("fairymax: ? is an unknown command to it (exit 1)",
              rc == 1 and (line(out, r"wrong +\? \(move now\) answered: "
                                r"Error") or
                           line(out, r"SILENT +\? \(move now\)")))
        # The control: forced to UCI, it has no handshake.
        rc, out, _ = run(fb, ["--protocol=uci", "--timeout=1", "--", fmax])
        check("fairymax as UCI: no handshake, exit 1",
              rc == 1 and has(out, "no handshake"))

    if present("sjaakii"):
        any_engine = True
        # Under most values of MALLOC_PERTURB_ it never answers `uci`
        # (164: no uciok in 5 s; 0 and 128 do): without it, as below.
        rc, out, _ = run(fb, ["--", "env", "-u", "MALLOC_PERTURB_",
                              os.path.join(GAMES, "sjaakii")])
        check("sjaakii: UCI, both dialects in Chess960",
              has(out, "protocol: UCI\n") and
              has(out, "engine-fen = auto\n"))
        check("sjaakii: DFRC in both dialects", dfrc(out))
        check("sjaakii: capablanca castles as the king's move and as king "
              "takes rook",
              line(out, r"ok +capablanca mode: accepts a castle as king "
                   r"move \(10x8, corner rook, Black\)") and
              line(out, r"ok +capablanca mode: accepts a castle as king "
                   r"takes rook \(10x8, corner rook, Black\)"))
        check("sjaakii: capablanca through UCI_Variant",
              line(out, r"ok +capablanca mode, Shredder-FEN \(10x8, corner"))
        check("sjaakii: embassy (listed, not janus) through UCI_Variant: "
              "both dialects, both forms",
              embassy_all(out) and "janus mode" not in out)
        check("sjaakii: stop during go infinite not answered",
              rc == 1 and line(out, r"SILENT +stop during go infinite"))
        # Sjaak II 1.4.1's analyze reads an uninitialised field: under the
        # MALLOC_PERTURB_ meson test sets it never starts analysing and
        # quits on `exit` (see uci_xboard.py); it runs without it here.
        rc, out, _ = run(fb, ["--protocol=xboard", "--", "env", "-u",
                              "MALLOC_PERTURB_",
                              os.path.join(GAMES, "sjaakii")])
        check("sjaakii xboard: passes, takes every form, writes O-O",
              rc == 0 and has(out, "engine-castling = auto\n") and
              has(out, "emits castles in Chess960 mode as O-O") and
              line(out, r"ok +\? \(move now\) answered"))
        check("sjaakii xboard: DFRC in both dialects", dfrc(out))
        check("sjaakii xboard: pondering and analyze",
              xb_ponder_analyze(out))
        check("sjaakii xboard: caparandom castles in every form",
              len(re.findall(r"^ok +caparandom mode: accepts a castle as ",
                             out, re.M)) == 6)
        check("sjaakii xboard: embassy (listed, not janus): both dialects, "
              "both forms",
              embassy_all(out) and "janus mode" not in out)

    if present("gnuchess"):
        any_engine = True
        gnu = os.path.join(GAMES, "gnuchess")
        # Found by experiment (its `Invalid move: uci`), or told. It has no
        # sd (its searches end with ? at the depth), answers each ping
        # twice, announces each move twice and hangs at start until a
        # line comes (nudged): none of that is a finding.
        for args in ([], ["--protocol=xboard"]):
            what = "gnuchess%s: " % (" xboard" if args else "")
            rc, out, _ = run(fb, args + ["--", gnu])
            check(what + "passes (exit 0), XBoard with setboard",
                  rc == 0 and has(out, "engine-protocol = xboard\n") and
                  has(out, "setboard yes") and has(out, "restarts: 0\n"))
            # Its board does not read a Shredder-FEN field: its answer to
            # go is a result claim, not a move.
            check(what + "reads X-FEN, not Shredder-FEN",
                  has(out, "engine-fen = xfen\n") and
                  len(re.findall(r"^ok +standard mode, X-FEN ", out,
                                 re.M)) == 4 and
                  len(re.findall(r"^wrong +standard mode, Shredder-FEN .*"
                                 r": [01]-[01] \{", out, re.M)) == 4)
            check(what + "takes the king's move, refuses king takes rook",
                  len(re.findall(r"^ok +standard mode: accepts a castle as "
                                 r"king move", out, re.M)) == 4 and
                  len(re.findall(r"^wrong +standard mode: accepts a castle "
                                 r"as king takes rook.*: refused$", out,
                                 re.M)) == 4)
            check(what + "pondering, analyze and ?",
                  xb_ponder_analyze(out) and
                  line(out, r"ok +\? \(move now\) answered"))

    print("%d passed, %d failed" % (passed, failed))
    if not any_engine:
        sys.exit(77)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--wrap":
        wrap(sys.argv[2:])
    main()
