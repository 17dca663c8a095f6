#!/usr/bin/env python3
"""The bridge (`fenbridge [OPTIONS] -- ENGINE`) with real Debian engines.

Usage: bridge_engines.py FENBRIDGE [-v] [--stockfish PATH] [--toga PATH]
                                   [--fairy PATH] [--polyglot PATH]

Every check drives the real fenbridge binary (or, for the controls, the
engine alone) through pipes, with a hard timeout on every wait, and reads
fenbridge's `--log` to see what reached the engine (`>engine` lines).

  1. stockfish 15.1, UCI.  `uci`, `setoption name UCI_Chess960 value true`,
     then for five Chess960 positions (inner-rook rights on either wing and
     for either colour, a capturable en-passant square) `position fen
     <Shredder-FEN>`, `d`, `isready`: the `Fen:` line (Stockfish prints
     Shredder-FEN in Chess960 mode) must be the position sent, and the log
     must show the X-FEN (`Gkq`, `KQkc`, ...) going to the engine.  Then the
     same position with `moves <KxR castling>`: the castled `Fen:` proves
     the right was attached to the intended rook (stockfish 15.1 silently
     drops a move it cannot play).  Last a Nibbler-style standard-chess
     `position fen <start> w HAha - 0 1 moves e2e4` with UCI_Chess960 off.
     Repeated with `--engine-fen=shredder`: the Shredder-FEN must reach the
     engine unchanged.
     Castling moves: in a Chess960 position where castling (f1g1) is the
     only legal move, `go depth 3` must bring `bestmove f1g1` by default and
     `bestmove O-O` with `--gui-castling=oo` (Arena's FRC mode), whose GUI
     `moves O-O` must reach stockfish as `moves e1g1`.
     Impossible rights: `HAha` with no rook on h1, and `HAha` with the white
     king on e2.  Control: stockfish alone keeps a phantom right (`Fen:
     ... w HAha` and `... w Aha`).  Through fenbridge (both engine
     dialects): a diagnostic on stderr names each dropped letter, the engine
     gets `Qkq` / `kq` (X-FEN) or `Aha` / `ha` (Shredder), and `Fen:` shows
     no such right.
  2. toga2 3.0 (no Chess960, reads only KQkq).  Control: toga2 alone, given
     `position fen <start> w HAha - 0 1` and `go depth 3`, exits with status
     1 (`board_from_fen(): bad FEN (pos=46)` on stderr) and no bestmove.
     Through fenbridge it answers `bestmove` (also for a middlegame
     position), and the log shows `KQkq`.  With `--engine-fen=shredder`
     toga2 dies as before, and fenbridge tells the GUI in-band
     (`info string fenbridge: the engine exited with status 1`) and exits 1.
  3. fairy-stockfish 11.1, XBoard.  It enters XBoard mode only on `xboard`
     (control: `protover 2` as first line gives `Unknown command: protover
     2`); `protover 2` then brings `feature ... done=1` (no `oocastle=0`).
     In XBoard mode `d` still prints the board and a `Fen:` line
     (Shredder-FEN in fischerandom and caparandom), so for `variant
     fischerandom` (8x8) and `variant caparandom` (10x8): `force`,
     `setboard <Shredder-FEN>`, `d`, `ping`; the log shows the X-FEN
     (`Gkq`, `GQkq`) reaching the engine, with `--engine-fen=shredder` the
     Shredder-FEN unchanged.  Then `usermove <KxR>` and `usermove O-O` (or
     `O-O-O`), each followed by `d`: the castled position.  The engine
     takes only king-takes-rook (`usermove O-O` gives `Error (unkown
     command): O-O`, `O-O-O` gives `Error (unkown command): O-O-o`), so
     these sessions run with `--engine-castling=kxr` and the log must show
     KxR for both.  A search (`sd 2`, `go`) in a position whose only legal
     move is castling: the engine writes `move f1g1`, the GUI must get
     `move O-O` (XBoard's FRC notation).  With default options the GUI's
     `usermove e1g1` reaches the engine unchanged.
  4. polyglot 2.0.4 (XBoard GUI side) -> fenbridge -> stockfish.  An ini
     file in a temp dir (`[PolyGlot]` EngineDir, EngineCommand = fenbridge
     --log=... -- stockfish, Log, LogFile).  `xboard`, `protover 2`, wait for
     `feature done=1`, `new`, `variant fischerandom`, `setboard <Shredder>`,
     `sd 5`, `go` -> `move ...`.  PolyGlot regenerates the FEN from its own
     board and sends Shredder-FEN (`setoption name UCI_Chess960 value true`,
     `position fen ... Gga ...`); fenbridge must pass X-FEN (`Gkq`) on.
     Second game: the GUI sends X-FEN (`Gkq`) and `usermove O-O`; polyglot
     sends `position fen ... Gga ... moves e1g1`, which must reach stockfish
     as `Gkq ... moves e1g1`, and stockfish must answer with a move.
  5. Default settings (--engine-protocol=auto) in the four pairings.  UCI
     GUI + stockfish: its one `uci` gets one handshake; `uci`,
     `setoption name UCI_Chess960 value true` and `position fen ... moves
     b8e8` in one burst (also with --engine-protocol=same): `d` shows the
     castled position (issue 17 item 7: b8g8, which Stockfish in Chess960
     mode cannot parse, went out before uciok).  UCI GUI + sjaakii: UCI
     (it speaks both).  XBoard GUI + fairy-stockfish: its features come
     straight back, no `uci` reaches it; a Chess960 `setboard` without
     `variant fischerandom` (ChessX) is preceded by that variant, so `d`
     shows the Shredder-FEN sent and the castle is played (item 8; in
     normal chess it reads Gkq as Kkq).  XBoard GUI + stockfish (refuses
     `xboard`, decided at once) and + toga2 (silent, asked `uci` after
     1 s): the translating pair's features, a move.  Control: an explicit
     --engine-protocol=same gives that XBoard GUI no features.  UCI GUI +
     fairymax, started 12 times: a handshake and a bestmove every time
     (started again when it dies of the probe), and once behind a wrapper
     that dies of SIGSEGV on the probe at its first start.  Notes give the time from
     the start of each process to the end of its handshake.

Sessions end with `quit`: fenbridge must exit with the engine's status
(0) and leave no process behind in its process group.

Prints failures (every check with -v), one line per group, and the
summary `N passed, M failed` last; exit 1 on any failure, 77 (skip) if none
of the engines is installed (each missing engine skips its own checks).  A
check marked `xfail=` is a known fenbridge bug: it counts as passed while
it fails and as a failure once it passes (remove the mark then).
"""

import argparse
import os
import shlex
import shutil
import signal
import sys
import tempfile
import time

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chesstest import (FAIRY, POLYGLOT, SKIP, STOCKFISH,  # noqa: E402
                       TOGA, XBOARD_DONE, Engine, Results, Timeout,
                       backstop, fens_in, log_entries)

TOTAL_TIMEOUT = 50       # backstop, below meson's timeout (60 s)


# ---------------------------------------------------------------- processes

def spawn(argv, cwd=None):
    """A child in its own process group, 10 s for each answer."""
    return Engine(argv, cwd=cwd, new_session=True, timeout=10)


def log_lines(path, tag):
    """The payloads of fenbridge log lines with this tag (`>engine`,
    `gui>`, `warning`, ...)."""
    return [payload.decode("latin-1") for t, payload in log_entries(path)
            if t == tag]


def expect(want, got):
    return "expected: %s\n     got: %s" % (want, got)


# ---------------------------------------------------------------- UCI helpers

def handshake(p, pattern, cmds, timeout):
    """Sends cmds and waits for pattern; on failure ends p (the exception
    carries it, for the transcript)."""
    try:
        p.send(*cmds)
        p.wait_for(pattern, timeout)
    except Exception as e:
        e.proc = p
        p.close(quit=None, timeout=1)
        raise
    return p


def uci_open(argv, chess960=True, timeout=10):
    p = handshake(spawn(argv), r"^uciok$", ["uci"], timeout)
    if chess960:
        p.send("setoption name UCI_Chess960 value true")
    return p


def diagnostics(p):
    return [l for l in p.err if l.startswith("fenbridge:")]


def session_end(res, name, p, logfile=None, want_rc=0):
    rc = p.close()
    res.check("%s: fenbridge exits with the engine's status %d after quit"
              % (name, want_rc), rc == want_rc, expect(want_rc, rc)
              + ("\n" + p.tail(10) if rc != want_rc else ""))
    left = p.leftovers()
    res.check("%s: no process left behind" % name, not left,
              "still running: %s" % left)
    if left:
        p.kill()


# ---------------------------------------------------------------- positions

# (name, Shredder-FEN, X-FEN, KxR castling move or None, Fen after the move)
SF_POSITIONS = [
    ("X-FEN example, white inner g1 rook",
     "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - 4 11",
     "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gkq - 4 11",
     "e1g1",
     "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BN1RKR b ga - 5 11"),
    ("black inner c8 rook (a-side)",
     "r1r1k2r/pp1bppbp/2np1np1/q7/3NP3/2N1BP2/PPPQ2PP/R3KB1R b HAhc - 3 10",
     "r1r1k2r/pp1bppbp/2np1np1/q7/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQkc - 3 10",
     "e8c8",
     "r1kr3r/pp1bppbp/2np1np1/q7/3NP3/2N1BP2/PPPQ2PP/R3KB1R w HA - 4 11"),
    ("Chess960 game, outer rooks only",
     "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
     "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
     None, None),
    ("king on b-file, capturable en passant",
     "rk2r3/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RK2R3 b EAea d3 0 3",
     "rk2r3/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RK2R3 b KQkq d3 0 3",
     "b8e8",
     "r4rk1/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RK2R3 w EA - 1 4"),
    ("inner rooks on both wings",
     "2k5/8/8/8/8/8/8/RR2K1RR w GB - 0 1",
     "2k5/8/8/8/8/8/8/RR2K1RR w GB - 0 1",
     "e1b1",
     "2k5/8/8/8/8/8/8/R1KR2RR b - - 1 1"),
]

# Standard chess, UCI_Chess960 off, as Nibbler sends it.
STD_SHREDDER = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
STD_XFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
STD_AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"

# (name, FEN sent, stockfish alone, to engine as X-FEN, as Shredder,
#  Fen through fenbridge, letters that must be reported dropped)
IMPOSSIBLE = [
    ("no rook on h1",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w HAha - 0 1",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w HAha - 0 1",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Aha - 0 1",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Aha - 0 1",
     "H"),
    ("white king on e2",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w HAha - 0 1",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w Aha - 0 1",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w kq - 0 1",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w ha - 0 1",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w ha - 0 1",
     "HA"),
]

# (variant, name, Shredder-FEN, X-FEN, KxR move, O-O form, Fen after it)
FAIRY_POSITIONS = [
    ("fischerandom", "X-FEN example, white inner g1 rook",
     SF_POSITIONS[0][1], SF_POSITIONS[0][2], "e1g1", "O-O",
     SF_POSITIONS[0][4]),
    ("fischerandom", "black inner c8 rook",
     SF_POSITIONS[1][1], SF_POSITIONS[1][2], "e8c8", "O-O-O",
     SF_POSITIONS[1][4]),
    ("caparandom", "10x8 start",
     "brnqkcrnab/pppppppppp/10/10/10/10/PPPPPPPPPP/BRNQKCRNAB w GBgb - 0 1",
     "brnqkcrnab/pppppppppp/10/10/10/10/PPPPPPPPPP/BRNQKCRNAB w KQkq - 0 1",
     None, None, None),
    ("caparandom", "10x8 white inner g1 rook",
     "r1abqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K1R2R w GAja - 0 1",
     "r1abqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K1R2R w GQkq - 0 1",
     "e1g1", "O-O",
     "r1abqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/R6RKR b ja - 1 1"),
]

# Chess960: castling f1g1 (king f1 and g1 rook swap) is white's only legal
# move (stockfish `go perft 1`: `f1g1: 1`), so any search must castle.
FORCED = "k3r3/8/8/8/8/6p1/6P1/5KRB w G - 0 1"
FORCED_XFEN = "k3r3/8/8/8/8/6p1/6P1/5KRB w K - 0 1"


# ---------------------------------------------------------------- 1. stockfish

def check_stockfish(res, fb, sf, tmp):
    for dialect in ("xfen", "shredder"):
        name = "stockfish --engine-fen=%s" % dialect
        log = os.path.join(tmp, "sf-%s.log" % dialect)
        p = None
        try:
            p = uci_open([fb, "--engine-fen=" + dialect, "--log=" + log,
                          "--", sf])
            got = []
            for label, shred, xfen, move, after in SF_POSITIONS:
                f1 = p.fen("position fen " + shred)
                f2 = p.fen("position fen %s moves %s" % (shred, move)) \
                    if move else None
                got.append((f1, f2))
            p.send("setoption name UCI_Chess960 value false")
            std = p.fen("position fen %s moves e2e4" % STD_SHREDDER)
            diags = diagnostics(p)
        except Exception as e:
            res.abort(name, e, p)
            continue
        session_end(res, name, p)
        sent = log_lines(log, ">engine")
        for (label, shred, xfen, move, after), (f1, f2) in \
                zip(SF_POSITIONS, got):
            want = xfen if dialect == "xfen" else shred
            res.check("%s: %s: Fen: is the position sent" % (name, label),
                      f1 == shred, expect(shred, f1))
            res.check("%s: %s: engine got %s" % (name, label, want.split()[2]),
                      "position fen " + want in sent,
                      expect("position fen " + want,
                             [s for s in sent if s.startswith("position")]))
            if move:
                res.check("%s: %s: castles %s" % (name, label, move),
                          f2 == after, expect(after, f2))
                line = "position fen %s moves %s" % (want, move)
                res.check("%s: %s: moves passed unchanged" % (name, label),
                          line in sent, expect(line, "not in the log"))
        want = STD_XFEN if dialect == "xfen" else STD_SHREDDER
        res.check("%s: standard chess, HAha + moves e2e4" % name,
                  std == STD_AFTER_E4 and
                  "position fen %s moves e2e4" % want in sent,
                  expect("Fen: %s; engine got %s moves e2e4"
                         % (STD_AFTER_E4, want), "Fen: %s; log: %s" % (
                             std, [s for s in sent if "e2e4" in s])))
        res.check("%s: no diagnostics for valid positions" % name,
                  not diags, "stderr: %s" % diags)


def check_stockfish_castling(res, fb, sf, tmp):
    """Castling moves in UCI Chess960: by default king takes rook both
    ways; with --gui-castling=oo (Arena's FRC mode) the GUI gets O-O and
    its O-O reaches stockfish as king takes rook."""
    for opt, want in ((None, "f1g1"), ("--gui-castling=oo", "O-O")):
        name = "stockfish castling moves %s" % (opt or "(default)")
        log = os.path.join(tmp, "sf-castling-%s.log" % want)
        p = None
        try:
            p = uci_open([fb] + ([opt] if opt else []) + ["--log=" + log,
                                                          "--", sf])
            p.send("position fen " + FORCED, "go depth 3")
            lines, m = p.read_until(r"^bestmove (\S+)", 10)
            best = m and m.group(1)
            shred, after = SF_POSITIONS[0][1], SF_POSITIONS[0][4]
            castled = p.fen("position fen %s moves %s"
                              % (shred, "O-O" if opt else "e1g1"))
        except Exception as e:
            res.abort(name, e, p)
            continue
        session_end(res, name, p)
        sent = log_lines(log, ">engine")
        res.check("%s: only legal move castling: bestmove %s" % (name, want),
                  best == want, expect("bestmove " + want, lines[-3:]))
        res.check("%s: stockfish wrote bestmove f1g1" % name,
                  any(l.startswith("bestmove f1g1")
                      for l in log_lines(log, "engine>")),
                  expect("bestmove f1g1", "not in the log"))
        line = "position fen %s moves e1g1" % SF_POSITIONS[0][2]
        res.check("%s: GUI's %s reaches stockfish as e1g1 and castles"
                  % (name, "O-O" if opt else "e1g1"),
                  line in sent and castled == after,
                  expect("%s; Fen: %s" % (line, after),
                         "%s; Fen: %s" % ([s for s in sent
                                           if "moves" in s], castled)))


def check_stockfish_impossible(res, fb, sf, tmp):
    # Control: stockfish 15.1 alone keeps a right no rook can use.
    name = "stockfish alone (control)"
    p = None
    try:
        p = uci_open([sf])
        alone = [p.fen("position fen " + fen)
                 for _, fen, _, _, _, _, _ in IMPOSSIBLE]
        p.close()
        for (label, fen, want, *_), got in zip(IMPOSSIBLE, alone):
            res.check("%s: %s: keeps a phantom right" % (name, label),
                      got == want, expect(want, got))
    except Exception as e:
        res.abort(name, e, p)

    for label, fen, _, to_x, to_s, fen_after, dropped in IMPOSSIBLE:
        for dialect, want in (("xfen", to_x), ("shredder", to_s)):
            name = "stockfish --engine-fen=%s: %s" % (dialect, label)
            log = os.path.join(tmp, "sf-imp-%s-%s.log" % (dialect, dropped))
            p = None
            try:
                p = uci_open([fb, "--engine-fen=" + dialect, "--log=" + log,
                              "--", sf])
                got = p.fen("position fen " + fen)
            except Exception as e:
                res.abort(name, e, p)
                continue
            session_end(res, name, p)
            diags = diagnostics(p)
            sent = log_lines(log, ">engine")
            res.check("%s: engine got %s" % (name, want.split()[2]),
                      "position fen " + want in sent,
                      expect("position fen " + want,
                             [s for s in sent if s.startswith("position")]))
            res.check("%s: Fen: has no such right" % name, got == fen_after,
                      expect(fen_after, got))
            for letter in dropped:
                res.check("%s: stderr reports '%s' dropped" % (name, letter),
                          any("'%s'" % letter in d and "dropped" in d
                              for d in diags), "stderr: %s" % p.err)


# ---------------------------------------------------------------- 2. toga2

TOGA_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
TOGA_MIDDLE = ("r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R "
               "w HAha - 6 8")


def check_toga(res, fb, toga, tmp):
    name = "toga2 alone (control)"
    p = None
    try:
        p = uci_open([toga], chess960=False)
        p.send("position fen " + TOGA_START, "go depth 3")
        lines, m = p.read_until(r"^bestmove", 5)
        rc = p.wait(5)
        res.check("%s: exits on HAha without a bestmove" % name,
                  m is None and rc not in (None, 0),
                  expect("exit, non-zero status, no bestmove",
                         "status %s, %s" % (rc, m and m.string)))
        p.close()
        print("note: toga2 alone: status %s, stderr %s" % (rc, p.err))
    except Exception as e:
        res.abort(name, e, p)

    name = "toga2 via fenbridge"
    log = os.path.join(tmp, "toga.log")
    p = None
    try:
        p = uci_open([fb, "--log=" + log, "--", toga], chess960=False)
        best = []
        for fen in (TOGA_START, TOGA_MIDDLE):
            p.send("position fen " + fen, "go depth 3")
            _, m = p.read_until(r"^bestmove (\S+)", 10)
            best.append(m and m.group(1))
        session_end(res, name, p)
        sent = log_lines(log, ">engine")
        for fen, b in zip((TOGA_START, TOGA_MIDDLE), best):
            x = fen.replace("HAha", "KQkq")
            res.check("%s: %s...: bestmove" % (name, fen[:20]), b is not None,
                      expect("bestmove", "none") + "\n" + p.tail(10))
            res.check("%s: %s...: engine got KQkq" % (name, fen[:20]),
                      "position fen " + x in sent,
                      expect("position fen " + x,
                             [s for s in sent if s.startswith("position")]))
    except Exception as e:
        res.abort(name, e, p)

    # Shredder-FEN to toga2 kills it: fenbridge must say so in-band and
    # exit with the engine's status.
    name = "toga2 via fenbridge --engine-fen=shredder"
    p = None
    try:
        p = uci_open([fb, "--engine-fen=shredder", "--", toga],
                     chess960=False)
        p.send("position fen " + TOGA_START, "go depth 3")
        lines, m = p.read_until(r"^bestmove", 5)
        rc = p.wait(5)
        rest = p.drain(2)
        said = [l for l in lines + rest if l.startswith("info string")]
        res.check("%s: toga2 dies, GUI told by info string" % name,
                  m is None and any("exit" in l for l in said),
                  expect("no bestmove, 'info string ... exited ...'",
                         "%s, info strings %s" % (m and m.string, said)))
        res.check("%s: fenbridge exits with the engine's status 1" % name,
                  rc == 1, expect(1, rc))
        p.close()
    except Exception as e:
        res.abort(name, e, p)


# ---------------------------------------------------------------- 3. fairy

def xb_open(argv, timeout=10):
    return handshake(spawn(argv), XBOARD_DONE, ["xboard", "protover 2"],
                     timeout)


def xb_fen(p, *cmds):
    """Sends commands, then `d` and `ping`: fairy-stockfish's `Fen:` line
    and any `Error`/`Illegal` lines it wrote meanwhile."""
    p.send(*cmds, "d")
    lines = p.ping()
    fens = fens_in(lines)
    errs = [l for l in lines if l.startswith(("Error", "Illegal"))]
    return (fens[-1] if fens else None), errs


def check_fairy(res, fb, fairy, tmp):
    # Control: XBoard mode starts only with `xboard`.
    name = "fairy-stockfish alone (control)"
    p = None
    try:
        p = spawn([fairy])
        p.send("protover 2", "quit")
        lines, _ = p.read_until(r"^feature", 5)
        p.close()
        res.check("%s: `protover 2` first is an unknown command" % name,
                  any(l.startswith("Unknown command: protover") for l in lines)
                  and not any(l.startswith("feature") for l in lines),
                  expect("Unknown command: protover 2", lines))
    except Exception as e:
        res.abort(name, e, p)

    # fairy-stockfish 11.1 takes castling only as king takes rook in XBoard
    # mode and does not say so (no `feature oocastle=0`), so these sessions
    # use --engine-castling=kxr, as a user of this engine must.
    for dialect in ("xfen", "shredder"):
        name = "fairy-stockfish xboard --engine-fen=%s" % dialect
        log = os.path.join(tmp, "fairy-%s.log" % dialect)
        p = None
        results = []
        try:
            p = xb_open([fb, "--engine-fen=" + dialect,
                         "--engine-castling=kxr", "--log=" + log,
                         "--", fairy])
            for variant, label, shred, xfen, kxr, oo, after in \
                    FAIRY_POSITIONS:
                r = [xb_fen(p, "new", "variant " + variant, "force",
                            "setboard " + shred)]
                if kxr:
                    for mv in (kxr, oo):
                        r.append(xb_fen(p, "setboard " + shred,
                                        "usermove " + mv))
                results.append(r)
            # A search where castling is the only legal move: the engine
            # writes f1g1, the GUI (auto: O-O in fischerandom) gets O-O.
            p.send("new", "variant fischerandom", "force",
                   "setboard " + FORCED, "sd 2", "go")
            lines, m = p.read_until(r"^move (\S+)", 10)
            res.check("%s: only legal move castling: GUI gets move O-O"
                      % name, m is not None and m.group(1) == "O-O",
                      expect("move O-O", lines[-5:]))
            diags = diagnostics(p)
        except Exception as e:
            res.abort(name, e, p)
            continue
        session_end(res, name, p)
        sent = log_lines(log, ">engine")
        from_engine = log_lines(log, "engine>")
        res.check("%s: engine wrote move f1g1" % name,
                  "move f1g1" in from_engine,
                  expect("move f1g1", [l for l in from_engine
                                       if l.startswith("move")]))
        want = FORCED_XFEN if dialect == "xfen" else FORCED
        res.check("%s: forced position: engine got %s"
                  % (name, want.split()[2]), "setboard " + want in sent,
                  expect("setboard " + want,
                         [s for s in sent if s.startswith("setboard")]))
        for (variant, label, shred, xfen, kxr, oo, after), r in \
                zip(FAIRY_POSITIONS, results):
            want = xfen if dialect == "xfen" else shred
            lab = "%s: %s %s" % (name, variant, label)
            f1, e1 = r[0]
            res.check("%s: Fen: is the position sent" % lab,
                      f1 == shred and not e1,
                      expect(shred, "%s %s" % (f1, e1)))
            res.check("%s: engine got %s" % (lab, want.split()[2]),
                      "setboard " + want in sent,
                      expect("setboard " + want,
                             [s for s in sent if s.startswith("setboard")]))
            if kxr:
                for (f2, e2), mv in zip(r[1:], (kxr, oo)):
                    res.check("%s: usermove %s castles" % (lab, mv),
                              f2 == after and not e2,
                              expect(after, "%s %s" % (f2, e2)))
        moves = [s for s in sent if s.startswith("usermove")]
        want = ["usermove " + kxr for (_, _, _, _, kxr, _, _) in
                FAIRY_POSITIONS if kxr for _ in range(2)]
        res.check("%s: usermove KxR and O-O/O-O-O both reach the engine "
                  "as KxR" % name, moves == want, expect(want, moves))
        res.check("%s: no diagnostics for valid positions" % name,
                  not diags, "stderr: %s" % diags)

    # Default options (--engine-castling=auto).
    name = "fairy-stockfish xboard, default castling"
    log = os.path.join(tmp, "fairy-default.log")
    p = None
    try:
        p = xb_open([fb, "--log=" + log, "--", fairy])
        var, label, shred, xfen, kxr, oo, after = FAIRY_POSITIONS[0]
        f_kxr, e_kxr = xb_fen(p, "new", "variant " + var, "force",
                              "setboard " + shred, "usermove " + kxr)
        f_oo, e_oo = xb_fen(p, "setboard " + shred, "usermove " + oo)
    except Exception as e:
        res.abort(name, e, p)
        return
    session_end(res, name, p)
    sent = [s for s in log_lines(log, ">engine") if s.startswith("usermove")]
    # KNOWN BUG (fenbridge, --engine-castling=auto): the GUI's king-takes-
    # rook `usermove e1g1`, which fairy-stockfish plays when it gets it
    # directly, reaches the engine as `usermove O-O` (log: "usermove:
    # castling 'e1g1' sent as 'O-O'"), and the engine answers
    # `Error (unkown command): O-O`: with both sides on auto, fenbridge
    # would rewrite a castling move nobody asked it to translate, leaving
    # GUI and engine worse off than without it.
    res.check("%s: GUI's usermove %s reaches the engine unchanged and "
              "castles" % (name, kxr),
              sent[:1] == ["usermove " + kxr] and f_kxr == after
              and not e_kxr,
              expect("usermove %s; Fen: %s" % (kxr, after),
                     "%s; Fen: %s %s" % (sent[:1], f_kxr, e_kxr)))
    # O-O: fairy-stockfish 11.1 rejects it ("Error (unkown command): O-O")
    # and then waits forever.  fenbridge's quirk table knows it by its
    # myname and sends it king takes rook instead: the engine castles.
    res.check("%s: GUI's usermove O-O reaches the engine as king takes "
              "rook and castles" % name,
              sent[1:2] == ["usermove " + kxr] and f_oo == after
              and not e_oo,
              expect("usermove %s; Fen: %s" % (kxr, after),
                     "%s; Fen: %s %s" % (sent[1:2], f_oo, e_oo)))


# ---------------------------------------------------------------- 4. polyglot

PG_SHREDDER = SF_POSITIONS[0][1]
PG_XFEN = SF_POSITIONS[0][2]


def check_polyglot(res, fb, pg, sf, tmp):
    name = "polyglot -> fenbridge -> stockfish"
    d = os.path.join(tmp, "polyglot")
    os.mkdir(d)
    fblog = os.path.join(d, "fenbridge.log")
    ini = os.path.join(d, "fenbridge-stockfish.ini")
    # EngineCommand goes through wordexp(3): shell quoting applies.
    cmd = " ".join(shlex.quote(a) for a in
                   (fb, "--log=" + fblog, "--", sf))
    with open(ini, "w") as f:
        f.write("[PolyGlot]\n"
                "EngineDir = %s\n"
                "EngineCommand = %s\n"
                "Log = true\n"
                "LogFile = %s\n"
                "Book = false\n"
                "[Engine]\n" % (d, cmd, os.path.join(d, "polyglot.log")))
    p = None
    moves = []
    try:
        p = handshake(spawn([pg, ini], cwd=d), XBOARD_DONE,
                      ["xboard", "protover 2"], 15)
        # Game 1: Shredder-FEN from the GUI, the engine moves first.
        p.send("new", "variant fischerandom", "setboard " + PG_SHREDDER,
               "sd 5", "go")
        _, m = p.read_until(r"^move (\S+)", 15)
        moves.append(m and m.group(1))
        # Game 2: X-FEN from the GUI, the GUI castles with the inner rook.
        p.send("new", "variant fischerandom", "force", "setboard " + PG_XFEN,
               "usermove O-O", "sd 5", "go")
        lines, m = p.read_until(r"^move (\S+)", 15)
        moves.append(m and m.group(1))
        bad = [l for l in lines if l.startswith(("Error", "Illegal"))]
        res.check("%s: usermove O-O accepted" % name, not bad,
                  "polyglot said: %s" % bad)
    except Exception as e:
        res.abort(name, e, p)
    finally:
        if p:
            rc = p.close()
            left = p.leftovers()
            res.check("%s: all processes end after quit" % name,
                      rc is not None and not left,
                      "polyglot status %s, still running %s" % (rc, left))
            if left:
                p.kill()
    got = log_lines(fblog, "gui>")
    sent = log_lines(fblog, ">engine")
    print("note: polyglot sent: %s" %
          [g for g in got if g.startswith(("position", "setoption"))])
    for i, (mv, tail) in enumerate(zip(moves, ("", " moves e1g1"))):
        game = "%s: game %d" % (name, i + 1)
        res.check("%s: answers with a move" % game, mv is not None,
                  expect("move ...", mv))
        res.check("%s: polyglot sends Shredder-FEN%s" % (game, tail),
                  "position fen " + PG_SHREDDER + tail in got,
                  expect("position fen " + PG_SHREDDER + tail,
                         [g for g in got if g.startswith("position")]))
        res.check("%s: stockfish gets X-FEN%s" % (game, tail),
                  "position fen " + PG_XFEN + tail in sent,
                  expect("position fen " + PG_XFEN + tail,
                         [s for s in sent if s.startswith("position")]))
    res.check("%s: UCI_Chess960 reaches stockfish" % name,
              "setoption name UCI_Chess960 value true" in sent,
              expect("setoption name UCI_Chess960 value true",
                     [s for s in sent if s.startswith("setoption")]))


# ---------------------------------------------------------------- 5. auto

FAIRYMAX = "/usr/games/fairymax"
SJAAK = "/usr/games/sjaakii"
FAIRYMAX_STARTS = 12

# Black castles h-side with the e8 rook: king takes rook b8e8, king move
# b8g8 (which Stockfish in Chess960 mode cannot parse).
BURST = SF_POSITIONS[3]


def said(log):
    """The log's lines that say how the engine's protocol was chosen."""
    return [l for l in log_lines(log, "info") if "the engine speaks" in l]


def timed_handshake(p, cmds, pattern, timeout=10):
    """Sends cmds, waits for pattern: (lines, seconds since the start of
    the process, as a GUI that starts an engine sees it)."""
    t = time.monotonic()
    p.send(*cmds)
    lines = p.wait_for(pattern, timeout)
    return lines, time.monotonic() - t


def check_auto(res, fb, sf, tmp):
    """Default settings (--engine-protocol=auto) in the four pairings: the
    engine gets the GUI's own handshake and an answer in kind flows
    straight through; a refusal or silence chooses the other protocol.
    Notes give each pairing's handshake time."""
    have = {e: os.access(e, os.X_OK) for e in (FAIRYMAX, SJAAK, TOGA, FAIRY)}

    # UCI GUI + stockfish: one uci, one handshake, no second question.
    name = "auto, UCI GUI, stockfish"
    log = os.path.join(tmp, "auto-uci-sf.log")
    p = None
    try:
        p = spawn([fb, "--log=" + log, "--", sf])
        lines, took = timed_handshake(p, ["uci"], r"^uciok$")
        p.send("isready")
        lines += p.wait_for(r"^readyok$")
        ids = [l for l in lines if l.startswith("id name")]
        res.check("%s: one handshake reaches the GUI" % name,
                  len(ids) == 1 and lines.count("uciok") == 1,
                  expect("one id name, one uciok", lines[:4]))
        session_end(res, name, p)
        sent = log_lines(log, ">engine")
        res.check("%s: the engine got the GUI's uci only" % name,
                  sent.count("uci") == 1, expect("one uci", sent[:3]))
        res.check("%s: the log says what was chosen and why" % name,
                  any("speaks uci (it answered the GUI's opening)" in l
                      for l in said(log)), expect("speaks uci", said(log)))
        print("note: %s: uciok %.1f ms after start" % (name, took * 1000))
    except Exception as e:
        res.abort(name, e, p)

    # Issue 17 item 7: uci, UCI_Chess960 and a position with a castle in
    # one burst. Stockfish in Chess960 mode cannot parse b8g8 and stays
    # in the old position; b8e8 castles.
    label, shred, xfen, kxr, after = BURST
    for opts in ([], ["--engine-protocol=same"]):
        name = "UCI lines before uciok %s, stockfish" % (opts or "(auto)")
        p = None
        try:
            p = spawn([fb] + opts + ["--", sf])
            p.send("uci", "setoption name UCI_Chess960 value true",
                   "position fen %s moves %s" % (shred, kxr), "d",
                   "isready")
            lines = p.wait_for(r"^readyok$")
            session_end(res, name, p)
            fens = fens_in(lines)
            res.check("%s: the castle %s is played" % (name, kxr),
                      fens == [after], expect(after, fens))
        except Exception as e:
            res.abort(name, e, p)

    # UCI GUI + sjaakii: it answers uci itself (it speaks both).
    if have[SJAAK]:
        name = "auto, UCI GUI, sjaakii"
        log = os.path.join(tmp, "auto-uci-sjaak.log")
        p = None
        try:
            p = spawn(["env", "-u", "MALLOC_PERTURB_", fb, "--log=" + log,
                       "--", SJAAK])
            _, took = timed_handshake(p, ["uci"], r"^uciok$")
            p.send("position startpos moves e2e4", "go depth 2")
            _, m = p.read_until(r"^bestmove (\S+)", 10)
            res.check("%s: a bestmove" % name, m is not None,
                      expect("bestmove", p.tail(5)))
            session_end(res, name, p)
            res.check("%s: spoken to in UCI" % name,
                      any("speaks uci" in l for l in said(log)), said(log))
            print("note: %s: uciok %.1f ms after start" % (name, took * 1000))
        except Exception as e:
            res.abort(name, e, p)

    # XBoard GUI + fairy-stockfish: xboard and protover go through, the
    # engine's features come straight back (no done=0, no uci).
    if have[FAIRY]:
        name = "auto, XBoard GUI, fairy-stockfish"
        log = os.path.join(tmp, "auto-xb-fairy.log")
        p = None
        try:
            p = spawn([fb, "--log=" + log, "--", FAIRY])
            lines, took = timed_handshake(p, ["xboard", "protover 2"],
                                          XBOARD_DONE)
            feats = [l for l in lines if l.startswith("feature")]
            res.check("%s: the engine's features, straight" % name,
                      feats and feats[0].startswith("feature setboard=1")
                      and not any("done=0" in l for l in lines),
                      expect("feature setboard=1 ...", lines[:2]))
            # Issue 17 item 8: ChessX's Chess960 setboard without
            # variant fischerandom. In normal chess fairy-stockfish
            # reads Gkq as Kkq (the h1 rook's right).
            fen, errs = xb_fen(p, "new", "force", "setboard " + shred)
            res.check("%s: Chess960 setboard without variant: Fen: is "
                      "the position sent" % name,
                      fen == shred and not errs,
                      expect(shred, "%s %s" % (fen, errs)))
            fen, errs = xb_fen(p, "usermove " + kxr)
            res.check("%s: ... and its castle %s is played" % (name, kxr),
                      fen == after and not errs,
                      expect(after, "%s %s" % (fen, errs)))
            session_end(res, name, p)
            sent = log_lines(log, ">engine")
            res.check("%s: no uci reaches the engine" % name,
                      "uci" not in sent, sent[:4])
            res.check("%s: told variant fischerandom first" % name,
                      "variant fischerandom" in sent and
                      sent.index("variant fischerandom") <
                      sent.index("setboard " + xfen),
                      expect("variant fischerandom, setboard " + xfen,
                             [s for s in sent if s.startswith(("variant",
                                                               "setboard"))]))
            print("note: %s: done=1 %.1f ms after start" % (name,
                                                              took * 1000))
        except Exception as e:
            res.abort(name, e, p)

    # XBoard GUI + stockfish: it refuses xboard; UCI through the pair.
    name = "auto, XBoard GUI, stockfish"
    log = os.path.join(tmp, "auto-xb-sf.log")
    p = None
    try:
        p = spawn([fb, "--log=" + log, "--", sf])
        lines, took = timed_handshake(p, ["xboard", "protover 2"],
                                      XBOARD_DONE)
        res.check("%s: the pair's features, no refusal" % name,
                  any('myname="Stockfish 15.1"' in l for l in lines) and
                  not any("Unknown" in l for l in lines),
                  expect('feature myname="Stockfish 15.1" ...', lines))
        p.send("new", "sd 4", "go")
        _, m = p.read_until(r"^move (\S+)", 10)
        res.check("%s: a move" % name, m is not None,
                  expect("move ...", p.tail(5)))
        session_end(res, name, p)
        # By evidence, not a clock: the log says the refusal decided.
        res.check("%s: decided by the refusal, not by silence" % name,
                  any("speaks uci (it refused the GUI's opening)" in l
                      for l in said(log)), said(log))
        print("note: %s: done=1 %.1f ms after start" % (name,
                                                          took * 1000))
    except Exception as e:
        res.abort(name, e, p)

    # XBoard GUI + toga2: silent to xboard; asked uci after 1 s.
    if have[TOGA]:
        name = "auto, XBoard GUI, toga2"
        log = os.path.join(tmp, "auto-xb-toga.log")
        p = None
        try:
            p = spawn([fb, "--log=" + log, "--", TOGA])
            lines, took = timed_handshake(p, ["xboard", "protover 2"],
                                          XBOARD_DONE)
            res.check("%s: told to wait, then the pair's features" % name,
                      lines[:1] == ["feature done=0"] and
                      any('myname="Toga II 3.0"' in l for l in lines),
                      expect('feature done=0, myname="Toga II 3.0"', lines))
            res.check("%s: asked uci after 1 s of silence" % name,
                      0.9 < took, "took %.2f s" % took)
            p.send("new", "sd 3", "go")
            _, m = p.read_until(r"^move (\S+)", 10)
            res.check("%s: a move" % name, m is not None,
                      expect("move ...", p.tail(5)))
            session_end(res, name, p)
            print("note: %s: done=1 %.1f ms after start" % (name,
                                                              took * 1000))
        except Exception as e:
            res.abort(name, e, p)

    # Control: explicit same stays; an XBoard GUI then gets no features.
    name = "--engine-protocol=same, XBoard GUI, stockfish (control)"
    p = None
    try:
        p = spawn([fb, "--engine-protocol=same", "--", sf])
        p.send("xboard", "protover 2")
        lines, m = p.read_until(XBOARD_DONE, 3)
        res.check("%s: no features" % name, m is None, lines)
    except Exception as e:
        if not isinstance(e, Timeout):
            res.abort(name, e, p)
        else:
            res.check("%s: no features" % name, True)
    finally:
        if p:
            p.close()

    if have[FAIRYMAX]:
        check_auto_fairymax(res, fb, tmp)


def check_auto_fairymax(res, fb, tmp):
    """UCI GUI + Fairy-Max, default settings, started many times: it
    refuses uci (Error) and is spoken to in XBoard; when it dies of the
    probe (Fairy-Max 5.0b does, now and then), fenbridge starts it again.
    Every start must give a handshake and a legal move."""
    name = "auto, UCI GUI, fairymax"
    restarts, times, bad = 0, [], []
    for i in range(FAIRYMAX_STARTS):
        log = os.path.join(tmp, "auto-uci-fmax%d.log" % i)
        p = None
        try:
            p = spawn([fb, "--log=" + log, "--", FAIRYMAX])
            lines, took = timed_handshake(p, ["uci"], r"^uciok$")
            times.append(took)
            p.send("isready")
            lines += p.wait_for(r"^readyok$")
            p.send("position startpos moves e2e4", "go depth 2")
            more, m = p.read_until(r"^bestmove (\S+)", 10)
            lines += more
            if m is None or m.group(1) == "0000" or \
                    any("Error" in l or "died" in l for l in lines):
                bad.append((i, lines[-5:]))
            rc = p.close()
            if rc != 0:
                bad.append((i, "status %s" % rc))
        except Exception as e:
            bad.append((i, "%s: %s" % (type(e).__name__, e)))
            if p:
                p.close(quit=None, timeout=1)
        if any("starting it again" in l for l in log_lines(log, "warning")):
            restarts += 1
    res.check("%s: %d starts, each with a handshake and a bestmove"
              % (name, FAIRYMAX_STARTS), not bad, bad)
    # Its death on the probe, made certain: a wrapper dies of SIGSEGV on
    # its first line at its first start, then runs Fairy-Max.
    wrapper = os.path.join(tmp, "fmax-dies-once.sh")
    with open(wrapper, "w") as f:
        f.write('#!/bin/sh\nif [ ! -e "$1" ]; then : > "$1"; read line; '
                'kill -SEGV $$; fi\nexec %s\n' % FAIRYMAX)
    os.chmod(wrapper, 0o755)
    log = os.path.join(tmp, "auto-uci-fmax-dies.log")
    p = None
    try:
        p = spawn([fb, "--log=" + log, "--", wrapper,
                   os.path.join(tmp, "fmax-started")])
        p.send("uci")
        lines = p.wait_for(r"^uciok$")
        p.send("isready")
        lines += p.wait_for(r"^readyok$")
        p.send("position startpos moves e2e4", "go depth 2")
        more, m = p.read_until(r"^bestmove (\S+)", 10)
        res.check("%s, dead at its first start: started again, a handshake "
                  "and a bestmove" % name,
                  m is not None and m.group(1) != "0000" and
                  not any("died" in l for l in lines + more),
                  expect("uciok ... bestmove", (lines + more)[-5:]))
        session_end(res, name + ", dead at its first start", p)
        res.check("%s, dead at its first start: the log says so" % name,
                  any("starting it again to speak xboard" in l
                      for l in log_lines(log, "warning")),
                  log_lines(log, "warning"))
    except Exception as e:
        res.abort(name + ", dead at its first start", e, p)
    if times:
        print("note: %s: uciok after start: median %.1f ms; started again "
              "after dying of the probe: %d of %d" % (
                  name, 1000 * sorted(times)[len(times) // 2], restarts,
                  FAIRYMAX_STARTS))


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fenbridge")
    ap.add_argument("--stockfish", default=STOCKFISH)
    ap.add_argument("--toga", default=TOGA)
    ap.add_argument("--fairy", default=FAIRY)
    ap.add_argument("--polyglot", default=POLYGLOT)
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print every check, not only failures")
    args = ap.parse_args()

    def have(exe):
        ok = os.access(exe, os.X_OK)
        if not ok:
            print("bridge_engines: %s not found, skipping its checks" % exe)
        return ok

    sf, toga, fairy, pg = (have(args.stockfish), have(args.toga),
                           have(args.fairy), have(args.polyglot))
    if not (sf or toga or fairy):
        print("bridge_engines: no engine installed, skipping")
        return SKIP
    fb = os.path.abspath(args.fenbridge)
    # Children run in their own process groups, so a runner's SIGTERM
    # or SIGKILL to this script would leave them behind: end them here.
    backstop("bridge_engines", TOTAL_TIMEOUT)

    t0 = time.monotonic()
    res = Results(args.verbose)
    tmp = tempfile.mkdtemp(prefix="fb-engines-")
    groups = []
    if sf:
        groups += [("1. stockfish UCI", check_stockfish, (args.stockfish,)),
                   ("1. stockfish castling moves", check_stockfish_castling,
                    (args.stockfish,)),
                   ("1. stockfish impossible rights",
                    check_stockfish_impossible, (args.stockfish,))]
    if toga:
        groups.append(("2. toga2 UCI", check_toga, (args.toga,)))
    if fairy:
        groups.append(("3. fairy-stockfish XBoard", check_fairy,
                       (args.fairy,)))
    if pg and sf:
        groups.append(("4. polyglot + stockfish", check_polyglot,
                       (args.polyglot, args.stockfish)))
    if sf:
        groups.append(("5. --engine-protocol=auto", check_auto,
                       (args.stockfish,)))
    for label, fn, engines in groups:
        t, p0, f0 = time.monotonic(), res.passed, res.failed
        fn(res, fb, *engines, tmp)
        print("bridge_engines: %s: %d passed, %d failed, %.1f s"
              % (label, res.passed - p0, res.failed - f0,
                 time.monotonic() - t))
    signal.alarm(0)
    for p in Engine.started:        # safety net: nothing may outlive us
        if p.p.poll() is None or p.leftovers():
            res.check("%s: ended" % p.argv, False, "killed at exit")
            p.kill()

    if res.failed:
        print("bridge_engines: logs kept in %s" % tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    print("bridge_engines: %.1f s, %d expected failures (known bugs)"
          % (time.monotonic() - t0, res.xfailed))
    print("%d passed, %d failed" % (res.passed, res.failed))
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
