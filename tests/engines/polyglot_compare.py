#!/usr/bin/env python3
"""The same XBoard sessions through PolyGlot 2.0.4 and through fenbridge
--engine-protocol=uci, on the cases where PolyGlot goes wrong (issue 12).

A small CECP client (the lines XBoard sends: `xboard`, `protover 2`, wait
for `feature done=1`, `new`, `variant`, `force`, `setboard`, `post`,
`sd`, `go`) speaks to

    polyglot INI          (EngineCommand = ENGINE)
    fenbridge --engine-protocol=uci --log=LOG -- ENGINE

and reads what reached the engine from PolyGlot's LogFile
(`Adapter->Engine:`) and fenbridge's --log (`>engine`).  A referee
(stockfish / fairy-stockfish in Chess960 mode) reads each FEN the engine
got and prints it in Shredder-FEN, which names every castling rook by its
file: that is what the engine understood, whatever the dialect.

  1. A Chess960 position with an inner-rook right (`Gga`: the g1 rook,
     with the h1 rook beyond it), `setboard` without `variant
     fischerandom` (a GUI in normal mode).  PolyGlot regenerates the FEN
     with KQkq letters (`Kkq`): the white right moves to the h1 rook.
     fenbridge must give the engine no right to a rook the GUI did not
     name.  Then the same with `variant fischerandom`: both must keep
     the g1, g8 and a8 rooks.
  2. Capablanca random (10x8, fairy-stockfish): PolyGlot announces only
     `variants="normal,fischerandom"`, and a 10x8 `setboard` makes it
     say `tellusererror POLYGLOT: board_from_fen(): bad FEN` and exit.
     fenbridge must announce caparandom and answer with a legal move.
  3. An engine that writes diagnostics to stderr (a fake engine, as many
     real ones log there): PolyGlot reads the engine's stderr as
     protocol, so the GUI shows thinking output the engine never sent
     (`99 +12345 ...`) and the real line gets the bogus depth.  Through
     fenbridge the GUI must see exactly the engine's stdout.

PolyGlot's faults are printed as observations (`polyglot: ...`), not
counted: a PolyGlot that behaves is no failure of fenbridge.  Every check
on fenbridge counts.  Exit 77 without polyglot or stockfish.
"""

import os
import re
import shlex
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chesstest  # noqa: E402
from chesstest import (FAIRY, POLYGLOT, SKIP, STOCKFISH, XBOARD_DONE,  # noqa
                       Engine, Results)

INNER = "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - 4 11"
INNER_ROOKS = set("Gga")            # g1, g8, a8
CAPA = "r1k6r/pppppppppp/10/10/10/10/PPPPPPPPPP/R1K6R w KQkq - 0 1"

NOISY = r'''#!/usr/bin/env python3
# A UCI engine that logs to stderr, as many do.
import sys
def out(s): sys.stdout.write(s + "\n"); sys.stdout.flush()
def err(s): sys.stderr.write(s + "\n"); sys.stderr.flush()
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == "uci":
        err("debug: loading network")
        out("id name Noisy"); out("uciok")
    elif w[0] == "isready":
        out("readyok")
    elif w[0] == "go":
        err("info depth 99 score cp 12345 pv a1a1")
        out("info depth 1 score cp 5 nodes 20 pv e2e4")
        out("bestmove e2e4")
    elif w[0] == "quit":
        break
'''


class Adapter:
    """polyglot or fenbridge in front of an engine, spoken to as XBoard
    does; .engine_lines() -> what the adapter sent to the engine."""

    def __init__(self, kind, fb, engine, tmp, tag):
        self.kind = kind
        self.log = os.path.join(tmp, "%s-%s.log" % (kind, tag))
        if kind == "polyglot":
            ini = os.path.join(tmp, "%s.ini" % tag)
            with open(ini, "w") as f:
                f.write("[PolyGlot]\nEngineDir = %s\nEngineCommand = %s\n"
                        "Log = true\nLogFile = %s\nBook = false\n[Engine]\n"
                        % (tmp, shlex.quote(engine), self.log))
            argv = [POLYGLOT, ini]
        else:
            argv = [fb, "--engine-protocol=uci", "--log=" + self.log,
                    "--", engine]
        self.p = Engine(argv, cwd=tmp, new_session=True, timeout=10)
        self.p.send("xboard", "protover 2")
        self.features = " ".join(self.p.wait_for(XBOARD_DONE, 15))

    def send(self, *lines):
        self.p.send(*lines)

    def think(self, timeout=15):
        """Lines up to the engine's move (or the end of output)."""
        lines, _ = self.p.read_until(r"^move ", timeout)
        return lines

    def close(self):
        rc = self.p.close()
        return rc

    def engine_lines(self):
        try:
            with open(self.log, encoding="latin-1") as f:
                text = f.read().splitlines()
        except OSError:
            return []
        if self.kind == "polyglot":
            return [l.split("Adapter->Engine: ", 1)[1] for l in text
                    if "Adapter->Engine: " in l]
        return [e[1].decode("latin-1") for e in chesstest.log_entries(
            self.log) if e[0] == ">engine"]


def last_fen(lines):
    fens = [l[len("position fen "):].split(" moves ")[0] for l in lines
            if l.startswith("position fen ")]
    return fens[-1] if fens else None


def rooks_understood(ref, fen):
    """The castling field of the referee's Shredder-FEN for fen."""
    if fen is None:
        return None
    shredder, _ = ref.step(fen)
    return shredder.split()[2]


def move_of(lines):
    for l in lines:
        if l.startswith("move "):
            return l.split()[1]
    return None


# ---------------------------------------------------------------- 1

def case_inner(res, fb, tmp, ref):
    for variant in (None, "fischerandom"):
        mode = "variant " + variant if variant else "normal mode"
        for kind in ("polyglot", "fenbridge"):
            tag = "inner-" + (variant or "normal")
            a = Adapter(kind, fb, STOCKFISH, tmp, tag)
            cmds = ["new"] + (["variant " + variant] if variant else []) + \
                ["force", "setboard " + INNER, "sd 4", "go"]
            a.send(*cmds)
            out = a.think()
            a.close()
            got = last_fen(a.engine_lines())
            rights = rooks_understood(ref, got)
            name = "%s, setboard %s (%s)" % (kind, INNER.split()[2], mode)
            legal = ref.step(INNER)[1]
            mv = move_of(out)
            if kind == "polyglot":
                extra = set(rights or "") - INNER_ROOKS
                print("polyglot (%s): engine got `%s` = rooks `%s`%s; "
                      "move %s" % (mode, got and " ".join(got.split()[1:3]),
                                   rights, "  <- right moved to the %s "
                                   "rook(s)" % "".join(sorted(extra))
                                   if extra else "", mv))
                continue
            ok = rights is not None and set(rights.replace("-", "")) <= \
                INNER_ROOKS
            if variant:
                ok = ok and set(rights) == INNER_ROOKS
            res.check("%s: engine got `%s`, rooks %s" % (
                name, got and " ".join(got.split()[1:3]), rights), ok,
                "engine lines: %s" % a.engine_lines()[-4:])
            dropped = set(INNER_ROOKS) - set(rights or "")
            told = [l for l in a.p.err if "castling" in l] + [
                l for l in out if l.startswith(("telluser", "tellusererror"))]
            if dropped and not told:
                # Not counted yet: the pair's author decides what to say.
                print("note: fenbridge (%s) dropped %s without a word"
                      % (mode, "".join(sorted(dropped))))
            res.check("%s: answers a legal move (%s)" % (name, mv),
                      mv is not None and (mv in legal or mv.startswith("O-O")),
                      "\n".join(out[-5:]))


# ---------------------------------------------------------------- 2

def case_capa(res, fb, tmp):
    if not os.access(FAIRY, os.X_OK):
        print("skip 10x8: no " + FAIRY)
        return
    ref = chesstest.Referee(10)
    try:
        legal = ref.step(CAPA)[1]
    finally:
        ref.close()
    for kind in ("polyglot", "fenbridge"):
        a = Adapter(kind, fb, FAIRY, tmp, "capa")
        announced = re.search(r'variants="([^"]*)"', a.features)
        announced = announced.group(1).split(",") if announced else []
        a.send("new", "variant caparandom", "force", "setboard " + CAPA,
               "sd 4", "go")
        out = a.think()
        rc = a.close()
        mv = move_of(out)
        told = [l for l in out if l.startswith(("tellusererror", "Error"))]
        if kind == "polyglot":
            print("polyglot (10x8): announces variants %s; after setboard: "
                  "%s; move %s; exit status %s" % (
                      ",".join(announced), " | ".join(told) or "-", mv, rc))
            continue
        res.check("fenbridge 10x8: announces caparandom",
                  "caparandom" in announced, a.features[:300])
        res.check("fenbridge 10x8: a legal move (%s), no error" % mv,
                  mv in legal and not told, "\n".join(out[-5:]))
        got = last_fen(a.engine_lines())
        res.check("fenbridge 10x8: the engine got the 10x8 position",
                  got is not None and got.split()[0] == CAPA.split()[0],
                  "engine got %s" % got)


# ---------------------------------------------------------------- 3

def case_stderr(res, fb, tmp):
    noisy = os.path.join(tmp, "noisy.py")
    with open(noisy, "w") as f:
        f.write(NOISY)
    os.chmod(noisy, 0o755)
    for kind in ("polyglot", "fenbridge"):
        a = Adapter(kind, fb, noisy, tmp, "noisy")
        a.send("new", "force", "post", "sd 4", "go")
        out = a.think()
        a.close()
        thinking = [l for l in out if re.match(r"^\d+ ", l)]
        if kind == "polyglot":
            print("polyglot (engine stderr): thinking lines the GUI saw: %s"
                  % " | ".join(thinking))
            continue
        res.check("fenbridge: the GUI sees only the engine's stdout "
                  "thinking (%s)" % " | ".join(thinking),
                  len(thinking) == 1 and thinking[0].split()[:2] == ["1", "5"]
                  and "12345" not in " ".join(out), "\n".join(out))


def main():
    if len(sys.argv) < 2:
        print("usage: polyglot_compare.py FENBRIDGE [-v]")
        return 2
    fb = os.path.abspath(sys.argv[1])
    for exe in (POLYGLOT, STOCKFISH):
        if not os.access(exe, os.X_OK):
            print("SKIP: no " + exe)
            return SKIP
    chesstest.backstop("polyglot_compare", 100)
    res = Results("-v" in sys.argv)
    with tempfile.TemporaryDirectory(prefix="fb-pgcmp-") as tmp:
        ref = chesstest.Referee(8)
        try:
            for case in (lambda: case_inner(res, fb, tmp, ref),
                         lambda: case_capa(res, fb, tmp),
                         lambda: case_stderr(res, fb, tmp)):
                try:
                    case()
                except chesstest.EngineError as e:
                    res.abort("case", e)
        finally:
            ref.close()
    print("%d passed, %d failed" % (res.passed, res.failed))
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
