#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The tested recipes of doc/gui-recipes.md, run as written against real
engines (recipes.py reads them from the document):

  * cutechess-cli and fastchess: the fenbridge engine's `cmd=` and its
    `arg=` words (cutechess) or its `args=` string split at blanks
    (fastchess) are started, with the path of the fenbridge under test in
    place of /usr/games/fenbridge, and spoken to as those match runners
    speak in `-variant fischerandom`: `uci`, and the engine refused unless
    it lists UCI_Chess960; `setoption name UCI_Chess960 value true`,
    `ucinewgame`, `isready`, then a game from a Chess960 start with castling
    ready, in Shredder-FEN, `position fen ... moves ...` with king-takes-rook
    castles (the GUI's side castles at once), every bestmove checked
    against a referee's legal moves.  The other engine of each recipe
    must exist.  Control: the recipe's engine started directly (toga2)
    lists no UCI_Chess960, so both runners would refuse it.
  * PyChess: the engines.json entry, with the same substitution, is given
    to PyChess 1.0.3's own engine layer (Debian's pychess, headless: its
    engineNest discoverer and UCIEngine players on an asyncio loop, run
    with /usr/bin/python3): the engine is discovered, Fischer Random is
    among its variants, and two such players play a Fischer Random game
    from a start where White castles at once (PyChess writes the castle as
    king takes rook, PyChess checks every engine move).  Control: the same
    entry with toga2 itself gets no Fischer Random.  Skipped (a note) when
    pychess is not installed.

XBoard's recipe is run by xboard_gui.py.  A few seconds; 77 without the
engines.
"""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chesstest  # noqa: E402
import recipes  # noqa: E402

PLIES = 16
MOVETIME = 60
# A Chess960 start with the pieces between king and rooks taken off:
# N R K . . . R N, so White can castle at once either way (king c1 takes
# the g1 or the b1 rook).
RANK = "NRKBBQRN"
KING = "c1"
ROOKS = ("b1", "g1")
PYCHESS = "/usr/lib/python3/dist-packages/pychess"


def play_as_runner(res, what, argv):
    """A game through argv spoken to as cutechess / fastchess do."""
    e = chesstest.Engine(argv, what, new_session=True)
    ref = chesstest.Referee()
    try:
        lines = e.uci(options=[("UCI_Chess960", "true")])
        res.check("%s: UCI_Chess960 offered (else the runner refuses the "
                  "engine)" % what,
                  any(l.startswith("option name UCI_Chess960 ")
                      for l in lines), "\n".join(lines))
        start = chesstest.opened_start(RANK)
        e.send("ucinewgame")
        e.sync()
        _, legal = ref.step(start)
        castles = [m for m in legal if m[:2] == KING and m[2:4] in ROOKS]
        moves = [castles[0]] if castles else []
        res.check("%s: White can castle at once" % what, bool(castles),
                  " ".join(legal))
        bad = []
        while len(moves) < PLIES:
            e.send("position fen %s moves %s" % (start, " ".join(moves)),
                   "go movetime %d" % MOVETIME)
            m = e.wait_for(r"^bestmove ")[-1].split()[1]
            _, legal = ref.step(start, moves)
            if m not in legal:
                bad.append("ply %d: %s not in %s" % (len(moves) + 1, m,
                                                     " ".join(legal)))
                break
            moves.append(m)
        res.check("%s: %d plies, every bestmove legal in Chess960 notation"
                  % (what, len(moves)), not bad and len(moves) == PLIES,
                  "\n".join(bad) + "\n" + e.tail())
        e.close()
    except chesstest.EngineError as exc:
        res.abort(what, exc, e)
    finally:
        ref.close()


def runner_recipe(res, fb, name, argv_of):
    argv = recipes.words(name)
    engines = recipes.engines(argv)
    res.check("%s: two engines in the recipe" % name, len(engines) == 2,
              repr(engines))
    ours = [e for e in engines if dict(e).get("cmd") == recipes.FENBRIDGE]
    res.check("%s: one engine is fenbridge" % name, len(ours) == 1,
              repr(engines))
    for e in engines:
        cmd = dict(e).get("cmd", "")
        if cmd != recipes.FENBRIDGE:
            res.check("%s: the other engine %s exists" % (name, cmd),
                      os.access(cmd, os.X_OK))
        proto = dict(e).get("proto", "uci")
        res.check("%s: %s speaks uci" % (name, cmd), proto == "uci")
    if len(ours) == 1:
        fbargv = recipes.fenbridge_argv(recipes.FENBRIDGE, argv_of(ours[0]),
                                        fb)
        play_as_runner(res, name, fbargv)
        return fbargv
    return None


PYCHESS_DRIVER = r'''
import asyncio, json, sys
from pychess.Players.engineNest import discoverer
from pychess.Variants.fischerandom import FischerandomBoard
from pychess.Utils.const import WHITE, BLACK, FISCHERRANDOMCHESS, \
    UNKNOWN_REASON, CASTLE_KR
from pychess.Utils.Move import parseSAN, toAN

name, fen, plies = sys.argv[1], sys.argv[2], int(sys.argv[3])
out = {"discovered": [], "failed": [], "moves": []}
loop = asyncio.get_event_loop()
discoverer.connect("engine_discovered",
                   lambda d, n, e: out["discovered"].append(n))
discoverer.connect("engine_failed", lambda d, n, e: out["failed"].append(n))
discoverer.connect("all_engines_discovered", lambda d: loop.stop())
discoverer.discover()
loop.call_later(60, loop.stop)
loop.run_forever()
eng = discoverer.getEngineByName(name)
out["fischerandom"] = eng is not None and \
    FISCHERRANDOMCHESS in discoverer.getEngineVariants(eng)


class Model:
    """What a player reads of PyChess's GameModel at the start."""
    def __init__(self, boards, moves):
        self.boards, self.moves, self.ply = boards, moves, len(moves)


async def play():
    start = FischerandomBoard(setup=fen)
    # The GUI's side castles first: PyChess writes it as king takes rook.
    castle = parseSAN(start, "O-O")
    out["moves"].append(toAN(start, castle, castleNotation=CASTLE_KR))
    prev, board, last = start, start.move(castle), castle
    players = []
    for color in (WHITE, BLACK):
        p = await discoverer.initPlayerEngine(eng, color, 8,
                                              FischerandomBoard, secs=30)
        ready, dead = asyncio.Event(), set()
        p.start(ready, dead)
        await ready.wait()
        if dead:
            raise SystemExit("engine died at start")
        p.setOptionInitialBoard(Model([start, board], [castle]))
        players.append(p)
    while len(out["moves"]) < plies:
        p = players[len(out["moves"]) % 2]
        for q in players:
            q.updateTime(30, 30)
        m = await asyncio.wait_for(p.makeMove(board, last, prev), 30)
        out["moves"].append(toAN(board, m, castleNotation=CASTLE_KR))
        prev, board, last = board, board.move(m), m
    out["fen"] = board.asFen()
    for p in players:
        p.kill(UNKNOWN_REASON)

if out["fischerandom"] and plies > 0:
    try:
        loop.run_until_complete(play())
    except BaseException as exc:
        out["error"] = "%s: %s" % (type(exc).__name__, exc)
print("RESULT " + json.dumps(out))
'''


def pychess_run(entry, fen, plies, tmp):
    """PyChess's engine layer with engines.json = [entry] in a config
    folder of its own: discovery, the variants, a game of plies."""
    for sub in ("config/pychess", "data", "cache"):
        os.makedirs(os.path.join(tmp, sub), exist_ok=True)
    with open(os.path.join(tmp, "config/pychess/engines.json"), "w") as f:
        json.dump([entry], f)
    # PATH without /usr/games: PyChess adds every engine it finds there.
    env = dict(os.environ, HOME=tmp, PATH="/usr/bin:/bin",
               XDG_CONFIG_HOME=os.path.join(tmp, "config"),
               XDG_DATA_HOME=os.path.join(tmp, "data"),
               XDG_CACHE_HOME=os.path.join(tmp, "cache"))
    env.pop("DISPLAY", None)
    p = subprocess.run(["/usr/bin/python3", "-c", PYCHESS_DRIVER,
                        entry["name"], fen, str(plies)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env, cwd=tmp, timeout=180)
    for line in p.stdout.decode(errors="replace").splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:]), p
    return None, p


def pychess_recipe(res, fb, tmp):
    entry = json.loads(recipes.block("pychess"))
    res.check("pychess: the entry is a UCI engine",
              entry.get("protocol") == "uci", repr(entry))
    res.check("pychess: args is a JSON list of words",
              isinstance(entry.get("args"), list), repr(entry))
    if not os.path.isdir(PYCHESS):
        print("note: no pychess (%s): its engine layer not run" % PYCHESS)
        return
    ours = dict(entry)
    log = os.path.join(tmp, "fenbridge-pychess.log")
    argv = recipes.fenbridge_argv(entry["command"], entry["args"], fb)
    # The log goes before the documented words, which stay as they are.
    ours["command"], ours["args"] = argv[0], ["--log=" + log] + argv[1:]
    fen = chesstest.opened_start(RANK)
    out, p = pychess_run(ours, fen, PLIES, os.path.join(tmp, "pychess"))
    detail = p.stderr.decode(errors="replace")[-1500:]
    if not res.check("pychess: the driver reported", out is not None, detail):
        return
    res.check("pychess: %s discovered" % entry["name"],
              entry["name"] in out["discovered"] and not out["failed"],
              repr(out))
    res.check("pychess: Fischer Random offered for %s" % entry["name"],
              out["fischerandom"], repr(out))
    res.check("pychess: a Fischer Random game of %d plies, the GUI's "
              "castle first (%s)" % (PLIES, " ".join(out["moves"][:1])),
              "error" not in out and len(out["moves"]) == PLIES,
              repr(out) + "\n" + detail)
    ref = chesstest.Referee()
    try:
        # Stockfish drops the moves after one it cannot play: the board
        # it ends on is PyChess's only if every move was legal.
        got, _ = ref.step(fen, out["moves"])
        want = out.get("fen", "")
        res.check("pychess: the game replays legally on the referee, to "
                  "PyChess's final position",
                  got.split()[:2] == want.split()[:2],
                  "%s\nreferee %s\npychess %s" % (" ".join(out["moves"]),
                                                   got, want))
    except chesstest.EngineError as exc:
        res.abort("pychess referee", exc, ref)
    finally:
        ref.close()
    sent = [e for e in chesstest.log_entries(log) if e[0] == ">engine"]
    res.check("pychess: toga2 got positions from fenbridge",
              any(b"position fen" in payload for _, payload in sent),
              repr(sent[-3:]))
    # Control: the engine itself, not behind fenbridge.
    direct = dict(entry, name="Toga direct", command=entry["args"][-1],
                  args=[])
    out, p = pychess_run(direct, fen, 0, os.path.join(tmp, "direct"))
    res.check("pychess control: %s itself has no Fischer Random"
              % direct["command"], out is not None and
              not out["fischerandom"], repr(out))


def main():
    fb = os.path.abspath(sys.argv[1])
    verbose = "-v" in sys.argv[2:]
    for exe in (chesstest.STOCKFISH, chesstest.TOGA):
        if not os.access(exe, os.X_OK):
            print("SKIP: no " + exe)
            return chesstest.SKIP
    chesstest.backstop("gui_recipes", 240)
    res = chesstest.Results(verbose)
    tmp = tempfile.mkdtemp(prefix="fb-recipes-")
    cute = runner_recipe(res, fb, "cutechess", lambda e: [
        v for k, v in e if k == "arg"])
    fast = runner_recipe(res, fb, "fastchess", lambda e: " ".join(
        v for k, v in e if k == "args").split())
    for name, argv in (("cutechess", cute), ("fastchess", fast)):
        if argv is None:
            continue
        # Control: the documented engine without fenbridge.
        direct = chesstest.Engine([argv[-1]], name + " control")
        try:
            lines = direct.uci()
            res.check("%s control: %s itself offers no UCI_Chess960" % (
                name, argv[-1]), not any(
                    l.startswith("option name UCI_Chess960 ")
                    for l in lines))
            direct.close()
        except chesstest.EngineError as exc:
            res.abort(name + " control", exc, direct)
    pychess_recipe(res, fb, tmp)
    print("%d passed, %d failed" % (res.passed, res.failed))
    if res.failed:
        print("files kept in " + tmp)
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
