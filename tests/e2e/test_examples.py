# SPDX-License-Identifier: MIT
"""The example INIs (doc/examples/*.ini, shipped in the .deb and the Windows
zip) and the Debian package's version, end to end.

Each example is read by fenbridge's own parser (`--config=FILE`): once with
the fake engine named on the command line (which overrides the INI's
`engine =`), so every example, the Windows ones too, must parse and its
`name =` and [options] must reach the GUI and the engine; and once as it
is, against the real engine it names, when that engine is installed: a
Chess960 position in Shredder-FEN if fenbridge offers UCI_Chess960 for it,
else a standard one, `go depth 5`, a legal bestmove (checked with
Stockfish's perft when there is one). An example without a [fenbridge]
`engine =` fails. A new example in doc/examples is tested without a change
here."""

import glob
import os
import re
import subprocess

import fbtest
from fbtest import check, eq, test

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
EXAMPLES = sorted(glob.glob(os.path.join(SRC, "doc", "examples", "*.ini")))
STOCKFISH = "/usr/games/stockfish"
FEN_960 = "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - 4 11"


def ini_values(path):
    """{section: {key: value}} as an INI reader sees the file (the check's
    own reading, to know what to expect; fenbridge's parser is the one
    tested)."""
    out, section = {}, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line[0] in ";#":
                continue
            m = re.match(r"\[(.*)\]$", line)
            if m:
                section = out.setdefault(m.group(1), {})
            elif "=" in line and section is not None:
                k, v = line.split("=", 1)
                section[k.strip()] = v.strip()
    return out


def legal_moves(fen, chess960):
    """Stockfish's legal moves in fen (king takes rook in Chess960), or
    None without Stockfish."""
    if not os.access(STOCKFISH, os.X_OK):
        return None
    p = subprocess.run([STOCKFISH], input=(
        "setoption name UCI_Chess960 value %s\nposition fen %s\n"
        "go perft 1\nquit\n" % ("true" if chess960 else "false",
                                fen)).encode(),
        capture_output=True, timeout=30)
    return {ln.split(b":")[0].decode() for ln in p.stdout.splitlines()
            if ln.endswith(b": 1")}


def parses(ini):
    def fn(ctx):
        want = ini_values(ini)
        check("engine" in want.get("fenbridge", {}),
              "%s: no 'engine =' in [fenbridge]" % ini)
        b = ctx.bridge(opts=["--config=" + ini,
                             "--log=" + ctx.path("fb.log")])
        b.send(b"uci\n")
        out = b.expect(b"uciok\n")
        if "name" in want["fenbridge"]:
            check(("id name %s\n" % want["fenbridge"]["name"]).encode()
                  in out, "the INI's name: %s" % fbtest.show(out))
        b.send(b"isready\n")
        b.expect(b"readyok\n")
        b.send(b"quit\n")
        rc, _ = b.wait()
        eq(rc, 0, "exit status")
        rec = b.recorded()
        for k, v in want.get("options", {}).items():
            check(("setoption name %s value %s\n" % (k, v)).encode() in rec,
                  "[options] %s = %s reached the engine: %s"
                  % (k, v, fbtest.show(rec)))
    fn.__name__ = "parses_" + os.path.basename(ini)
    return fn


def real_engine(ini):
    def fn(ctx):
        program = ini_values(ini)["fenbridge"]["engine"].split()[0]
        if "\\" in program:
            print("    (%s: a Windows example, parsed only; the Wine suite "
                  "runs it)" % os.path.basename(ini))
            return
        if not os.access(program, os.X_OK):
            print("    (%s: %s not installed, not run)"
                  % (os.path.basename(ini), program))
            return
        b = ctx.bridge(argv=[fbtest.FENBRIDGE, "--config=" + ini,
                             "--log=" + ctx.path("fb.log")])
        b.send(b"uci\n")
        out = b.expect(b"uciok\n", timeout=20)
        chess960 = b"option name UCI_Chess960 " in out
        if chess960:
            fen = FEN_960
            b.send(b"setoption name UCI_Chess960 value true\n")
        else:
            fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        b.send(b"isready\n")
        b.expect(b"readyok\n", timeout=20)
        b.send(("position fen %s\ngo depth 5\n" % fen).encode())
        b.expect(b"\nbestmove ", timeout=60)
        line = b.expect(b"\n", timeout=5)
        move = line.split()[0].decode()
        legal = legal_moves(fen, chess960)
        check(legal is None or move in legal,
              "%s: bestmove %s is legal in %s (%s)"
              % (program, move, fen, sorted(legal or ())))
        b.send(b"quit\n")
        rc, _ = b.wait(timeout=20)
        eq(rc, 0, "exit status")
        print("    (%s: %s, %s: bestmove %s)"
              % (os.path.basename(ini), program,
                 "Chess960" if chess960 else "standard", move))
    fn.__name__ = "real_engine_" + os.path.basename(ini)
    return fn


@test()
def examples_exist(ctx):
    """The five examples the .deb and the zip name are there."""
    names = {os.path.basename(p) for p in EXAMPLES}
    for n in ("toga2.ini", "glaurung.ini", "gnuchess.ini",
              "fritz-chess960.ini", "winboard-uci.ini"):
        check(n in names, "doc/examples/%s is missing (%s)" % (n, names))


@test()
def debian_version_is_meson_version(ctx):
    """debian/changelog's top entry names the version fenbridge --version
    prints (meson.build's project version): the .deb's file name."""
    rc, out, _ = fbtest.run([fbtest.FENBRIDGE, "--version"])
    eq(rc, 0, "--version")
    version = out.split()[1].decode()
    with open(os.path.join(SRC, "debian", "changelog")) as f:
        top = f.readline()
    m = re.match(r"fenbridge \(([^)]*)\) ", top)
    check(m is not None, "debian/changelog's first line: %r" % top)
    eq(m.group(1), version, "debian/changelog's version")


for _ini in EXAMPLES:
    test(timeout=20)(parses(_ini))
    test(timeout=120)(real_engine(_ini))

fbtest.main()
