#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--referee: each misbehaviour of the fake engine (its --on-go answer,
--answer-delay, --handshake-line, or a line it writes on `fake-line`) and
of the GUI gives its finding, of the right kind, with the position it was
judged in, on stderr and once per kind in-band; a clean session gives none;
strict mode exits with 3 and writes a flight record; off says nothing.
The engine's answer to the protocol probe (the default
--engine-protocol=auto) is judged as any line; a pv past a draw by rule
and a variant the referee cannot judge are notes, no findings."""

import glob
import time

import fbtest
from fbtest import check, eq, test

START_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
CASTLES = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
CRC = "rnbckqbanr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBCKQBANR w KQkq - 0 1"
CRC_E4 = "rnbckqbanr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBCKQBANR b"
UCI_OPEN = [b"uci\n", b"isready\n"]
XB_OPEN = [b"xboard\n", b"protover 2\n", 0.3]


def settle(b, proto, lines):
    """Waits until the fake engine has answered every line sent so far: it
    writes a line that is valid output in its protocol, and the test waits
    for it to come through (not for a fixed time). A session that has
    ended (strict mode, an engine that exits) settles at once. Through a
    translating pair the GUI's fake-line does not reach the engine: there,
    a pause."""
    first = next((x for x in lines if isinstance(x, bytes)), b"")
    if (b"uci" if first.startswith(b"uci") else b"xboard") != proto.encode():
        time.sleep(0.3 * fbtest.SLOW)
        return
    tag = b"info string fbtest settled" if proto == "uci" else \
        b"# fbtest settled"
    try:
        b.send(b"fake-line " + tag + b"\n")
        b.expect(tag + b"\n", timeout=10)
    except (AssertionError, OSError):
        pass


def session(ctx, proto, lines, engine_opts=(), mode="warn", opts=()):
    """Plays lines (a float: a pause) through fenbridge --referee=mode to
    the fake engine speaking proto, then quits: (exit status, GUI output,
    the findings on stderr, stderr)."""
    b = ctx.bridge(["--referee=" + mode, "--engine-protocol=" + proto] +
                   list(opts), engine_opts)
    for line in lines:
        if isinstance(line, float):
            time.sleep(line * fbtest.SLOW)
        else:
            b.send(line)
    settle(b, proto, lines)
    try:
        b.send(b"quit\n")
    except OSError:
        pass  # the session is over already (the engine exited)
    rc, _ = b.wait(timeout=20)
    err = b.stderr().decode("latin-1")
    found = [line[len("fenbridge: referee: "):] for line in err.splitlines()
             if line.startswith("fenbridge: referee: ")
             and not line.startswith("fenbridge: referee: summary")
             and not line.startswith("fenbridge: referee: note: ")]
    return rc, bytes(b.out).decode("latin-1"), found, err


def notes(err):
    """The notes on stderr (not findings)."""
    return [line[len("fenbridge: referee: "):] for line in err.splitlines()
            if line.startswith("fenbridge: referee: note: ")]


def one(found, kind, text, fen=None):
    """Exactly one finding, of kind, saying text (and naming fen)."""
    eq(len(found), 1, "findings: %r" % found)
    check(found[0].startswith(kind + ": "), "kind %s: %r" % (kind, found))
    check(text in found[0], "%r in %r" % (text, found[0]))
    if fen is not None:
        check("position " + fen in found[0], "%r in %r" % (fen, found[0]))


def go_answer(text):
    return ["--on-go=" + text]


# name: (protocol, engine options, GUI lines, kind, text, FEN)
CASES = {
    "uci_illegal_bestmove": (
        "uci", go_answer("bestmove e7e4"),
        UCI_OPEN + [b"position startpos moves e2e4\n", b"go depth 3\n"],
        "illegal", "bestmove 'e7e4' is not legal", START_E4),
    "uci_illegal_ponder": (
        "uci", go_answer("bestmove e7e5 ponder e1e3"),
        UCI_OPEN + [b"position startpos moves e2e4\n", b"go depth 3\n"],
        "illegal", "ponder move 'e1e3' is not legal", None),
    "uci_pv_illegal_ply": (
        "uci", go_answer("info depth 2 score cp 5 pv e7e5 g1f3 e8e6|"
                         "bestmove e7e5"),
        UCI_OPEN + [b"position startpos moves e2e4\n", b"go depth 3\n"],
        "illegal", "pv move 3 'e8e6' is not legal", None),
    "uci_pv_after_mate": (
        "uci", go_answer("info depth 2 score mate 1 pv d8h4 a2a3|"
                         "bestmove d8h4"),
        UCI_OPEN + [b"position startpos moves f2f3 e7e5 g2g4\n",
                    b"go depth 3\n"],
        "illegal", "the pv goes on after mate: move 2 'a2a3'", None),
    "uci_currmove_illegal": (
        "uci", go_answer("info currmove e2e4 currmovenumber 1|"
                         "bestmove e7e5"),
        UCI_OPEN + [b"position startpos moves e2e4\n", b"go depth 3\n"],
        "illegal", "currmove 'e2e4' is not legal", START_E4),
    "uci_bestmove_without_go": (
        "uci", (), UCI_OPEN + [b"position startpos\n",
                               b"fake-line bestmove e2e4\n"],
        "protocol", "bestmove without go", None),
    "uci_two_answers": (
        "uci", go_answer("bestmove e7e5|bestmove e7e6"),
        UCI_OPEN + [b"position startpos moves e2e4\n", b"go depth 3\n"],
        "protocol", "a second bestmove to one go", None),
    "uci_late_readyok": (
        "uci", ["--answer-delay=5600"],
        # the first isready (after uci: the engine may be loading) is
        # not judged; the one during a search is
        [b"uci\n", b"isready\n", 6.0, b"position startpos\n",
         b"go infinite\n", b"isready\n", 6.5],
        # judged at 5 s, before it came
        "protocol", "isready not answered after", None),
    "uci_after_quit": (
        "uci", (),
        UCI_OPEN + [b"fake-sleep 2600\nfake-line info string late\n"
                    b"quit\n", 3.5],
        "protocol", "after quit", None),
    "uci_castle_king_move_in_960": (
        "uci", go_answer("bestmove e1g1"),
        UCI_OPEN + [b"setoption name UCI_Chess960 value true\n",
                    ("position fen %s\n" % CASTLES).encode(),
                    b"go depth 3\n"],
        "castling", "not written as king takes rook", None),
    "uci_castle_kxr_in_standard": (
        "uci", go_answer("bestmove e1h1"),
        UCI_OPEN + [("position fen %s\n" % CASTLES).encode(),
                    b"go depth 3\n"],
        "castling", "not written as the king's destination", None),
    "uci_score_without_cp": (
        "uci", go_answer("info depth 1 score 10 nodes 5|bestmove e7e5"),
        UCI_OPEN + [b"position startpos moves e2e4\n", b"go depth 3\n"],
        "format", "score without cp or mate", None),
    "uci_not_an_integer": (
        "uci", go_answer("info depth 1.5 score cp 3|bestmove e7e5"),
        UCI_OPEN + [b"position startpos moves e2e4\n", b"go depth 3\n"],
        "format", "not an integer", None),
    "uci_check_default_False": (
        "uci", ["--handshake-line=option name Ponder type check "
                "default False"], UCI_OPEN,
        "format", "check option 'Ponder' has the default 'False'", None),
    "uci_malformed_option": (
        "uci", ["--handshake-line=option name Hash default 16"], UCI_OPEN,
        "format", "malformed option line", None),
    "uci_spin_not_integer": (
        "uci", ["--handshake-line=option name Hash type spin default 16 "
                "min 1 max lots"], UCI_OPEN,
        "format", "spin option 'Hash' needs integers", None),
    "uci_blank_in_handshake": (
        "uci", ["--handshake-line= \t"], UCI_OPEN,
        "format", "a line of blanks in the handshake", None),
    "uci_long_id_name": (
        "uci", ["--handshake-line=id name " + "x" * 70], UCI_OPEN,
        "format", "id name of 70 bytes", None),
    "uci_gui_position_illegal": (
        "uci", (), UCI_OPEN + [b"position startpos moves e2e4 e7e5 e1e3\n"],
        "gui", "move 3 'e1e3' is not legal", None),
    "uci_gui_rights_without_rook": (
        "uci", (), UCI_OPEN + [b"position fen 4k3/8/8/8/8/8/8/4K3 w K - 0 1\n"],
        "castling", "castling right no rook holds", None),
    "uci_gui_go_before_readyok": (
        "uci", ["--answer-delay=1500"],
        [b"uci\n", 0.2, b"ucinewgame\n", b"isready\n",
         b"position startpos\n", b"go depth 1\n", 2.5],
        "gui", "go before the readyok", None),
    "uci_crc_illegal_bestmove": (
        "uci", go_answer("bestmove e8e6"),
        UCI_OPEN + [b"setoption name UCI_Variant value caparandom\n",
                    ("position fen %s moves e2e4\n" % CRC).encode(),
                    b"go depth 3\n"],
        "illegal", "bestmove 'e8e6' is not legal", CRC_E4),
    "xb_crc_illegal_move": (
        "xboard", (), XB_OPEN + [b"new\n", b"variant caparandom\n",
                                 b"force\n", ("setboard %s\n" % CRC).encode(),
                                 b"usermove e2e4\n", b"go\n", 0.2,
                                 b"fake-line move e8e6\n"],
        "illegal", "move 'e8e6' is not legal", CRC_E4),
    "xb_move_in_force_mode": (
        "xboard", (), XB_OPEN + [b"new\n", b"force\n", b"usermove e2e4\n",
                                 0.2, b"fake-line move e7e5\n"],
        "protocol", "move 'e7e5' in force mode", START_E4),
    "xb_move_out_of_turn": (
        "xboard", (), XB_OPEN + [b"new\n", b"force\n", b"usermove e2e4\n",
                                 b"playother\n", 0.2,
                                 b"fake-line move d2d4\n"],
        "protocol", "move 'd2d4' out of turn", START_E4),
    "xb_illegal_move": (
        "xboard", (), XB_OPEN + [b"new\n", b"usermove e2e4\n", 0.2,
                                 b"fake-line move e7e4\n"],
        "illegal", "move 'e7e4' is not legal", START_E4),
    "xb_thinking_pv_illegal": (
        "xboard", (), XB_OPEN + [b"new\n", b"usermove e2e4\n", 0.2,
                                 b"fake-line 3 10 5 100 e7e5 g1f3 e8e6\n"],
        "illegal", "thinking pv move 3 'e8e6' is not legal", START_E4),
    "xb_illegal_move_for_legal": (
        "xboard", (), XB_OPEN + [b"new\n", b"usermove e2e4\n", 0.2,
                                 b"fake-line Illegal move: e2e4\n"],
        "protocol", "'Illegal move' for the legal move e2e4", None),
    "xb_wrong_mate_claim": (
        "xboard", (), XB_OPEN + [b"new\n", b"usermove e2e4\n", 0.2,
                                 b"fake-line 1-0 {White mates}\n"],
        "protocol", "a wrong result claim", START_E4),
    "xb_wrong_repetition_claim": (
        "xboard", (), XB_OPEN + [b"new\n", b"usermove g1f3\n", 0.1,
                                 b"fake-line move g8f6\n", 0.1,
                                 b"usermove f3g1\n", 0.1,
                                 b"fake-line move f6g8\n", 0.1,
                                 b"fake-line 1/2-1/2 {Draw by repetition}\n"],
        "protocol", "a wrong result claim: '1/2-1/2 {Draw by repetition}",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3"),
    # The engine's answer to the probe (--engine-protocol=auto): its
    # first line, which tells the protocol (Fairy-Stockfish's unquoted
    # myname), judged once the protocol is known; each protocol and a
    # translating pair.
    "auto_xb_probe_answer": (
        "auto", ["--speaks=xboard", "--handshake-first",
                 "--handshake-line=feature myname=Fake ping=1"],
        XB_OPEN, "format", "feature myname: the string 'Fake' is not quoted",
        None),
    "auto_uci_probe_answer": (
        "auto", ["--speaks=uci", "--handshake-first",
                 "--handshake-line=option name Hash type spinner default 1"],
        UCI_OPEN, "format", "option 'Hash' has the unknown type 'spinner'",
        None),
    "auto_uci_gui_xb_engine_probe_answer": (
        "auto", ["--speaks=xboard", "--handshake-first",
                 "--handshake-line=feature myname=Fake ping=1"],
        [b"uci\n", 0.5, b"isready\n"], "format",
        "feature myname: the string 'Fake' is not quoted", None),
    "xb_late_pong": (
        "xboard", ["--answer-delay=5600"],
        XB_OPEN + [b"new\n", b"force\n", b"ping 6\n", 6.5,
                   b"usermove e2e4\n", b"ping 7\n", 6.5],
        "protocol", "ping not answered after", None),
    "xb_castle_kxr_in_normal": (
        "xboard", (), XB_OPEN + [b"new\n", b"force\n",
                                 ("setboard %s\n" % CASTLES).encode(),
                                 b"go\n", 0.2, b"fake-line move e1h1\n"],
        "castling", "not written as the king's destination or O-O", None),
    "xb_feature_flag_not_flag": (
        "xboard", ["--handshake-line=feature san=yes"], XB_OPEN,
        "format", "feature san: the flag 'yes' is not 0 or 1", None),
    "xb_gui_illegal_usermove": (
        "xboard", (), XB_OPEN + [b"new\n", b"usermove e2e5\n"],
        "gui", "the GUI's move 'e2e5' is not legal", None),
}


def make_case(name, case):
    proto, eopts, lines, kind, text, fen = case

    @test(timeout=40)
    def t(ctx):
        rc, out, found, err = session(ctx, proto, lines, eopts)
        one(found, kind, text, fen)
        check("summary: 1 finding (" in err, "summary in %r" % err)
        eq(rc, 0, "exit status in warn mode")
        # Once per kind to the GUI, in its protocol (XBoard: a comment).
        uci_gui = lines[0] == b"uci\n"
        inband = ("info string fenbridge: referee: " if uci_gui
                  else "# fenbridge: referee: ") + kind + ": "
        eq(out.count(inband), 1, "in-band lines: " + out)
    t.__name__ = name
    globals()["test_" + name] = t


for _name, _case in CASES.items():
    make_case(_name, _case)


@test(timeout=30)
def pv_past_a_draw_is_a_note(ctx):
    """A pv that goes on past a draw by rule (here the 50-move rule) is
    legal: a note, once, on stderr and in-band as a comment, never a
    finding; strict mode exits 0 and writes no flight record."""
    rc, out, found, err = session(
        ctx, "uci",
        UCI_OPEN + [b"position fen 8/8/4k3/8/8/8/4K3/R7 w - - 98 80\n",
                    b"go depth 3\n", 0.2, b"go depth 3\n"],
        go_answer("info depth 2 score cp 500 pv a1a2 e6e5 a2a3|"
                  "bestmove a1a2"), mode="strict")
    eq(found, [], "findings")
    n = notes(err)
    eq(len(n), 1, "notes: %r" % n)
    check("the pv goes on after a draw by the 50-move rule: move 3 'a2a3'"
          in n[0] and "8/8/8/4k3/8/8/R3K3/8 w - - 100 81" in n[0], n[0])
    eq(out.count("info string fenbridge: referee: note: "), 1, out)
    check("summary: 0 findings" in err, "summary: " + err)
    eq(rc, 0, "exit status")
    eq(glob.glob(ctx.path("fenbridge-*.txt")), [], "flight records")


@test(timeout=30)
def variant_not_judged(ctx):
    """A variant the referee cannot judge: a note, and the summary says
    so instead of "0 findings"; strict mode exits 0."""
    rc, out, found, err = session(
        ctx, "xboard", XB_OPEN + [b"new\n", b"variant xiangqi\n",
                                  b"usermove h2e2\n", 0.2],
        mode="strict")
    eq(found, [], "findings")
    n = notes(err)
    eq(len(n), 1, "notes: %r" % n)
    check("note: the variant xiangqi is not judged" in n[0], n[0])
    check("# fenbridge: referee: note: the variant xiangqi" in out, out)
    check("telluser" not in out, "a note opens no dialog: " + out)
    check("summary: not judged: the variant xiangqi" in err, err)
    check("0 findings" not in err, err)
    eq(rc, 0, "exit status")


@test(timeout=30)
def clean_session_has_no_finding(ctx):
    """A fake engine that follows the protocols gives none, in strict
    mode, with exit status 0 (the engine's), and a summary of zeros."""
    rc, out, found, err = session(
        ctx, "uci",
        UCI_OPEN + [b"ucinewgame\n", b"isready\n", 0.2,
                    b"setoption name UCI_Chess960 value true\n",
                    ("position fen %s\n" % CASTLES).encode(),
                    b"go depth 3\n", 0.3],
        go_answer("info depth 2 score cp 5 pv e1h1 e8a8 f1f8 d8f8|"
                  "info depth 1 score mate -1 pv a1a8|bestmove e1h1 "
                  "ponder e8a8"), mode="strict")
    eq(found, [], "findings")
    check("summary: 0 findings" in err, "summary: " + err)
    eq(rc, 0, "exit status")
    eq(glob.glob(ctx.path("fenbridge-*.txt")), [], "flight records")


@test(timeout=30)
def clean_xboard_session_has_no_finding(ctx):
    rc, out, found, err = session(
        ctx, "xboard",
        XB_OPEN + [b"new\n", b"variant fischerandom\n", b"force\n",
                   ("setboard %s\n" % CASTLES).encode(), b"go\n", 0.2,
                   b"fake-line 3 10 5 100 O-O O-O-O Rf7\n",
                   b"fake-line move e1h1\n", 0.2, b"usermove O-O-O\n",
                   b"ping 3\n",
                   0.2], mode="strict")
    eq(found, [], "findings")
    eq(rc, 0, "exit status")


@test(timeout=30)
def strict_exits_3_with_a_flight_record(ctx):
    rc, out, found, err = session(
        ctx, "xboard", XB_OPEN + [b"new\n", b"usermove e2e4\n", 0.2,
                                  b"fake-line move e7e4\n"], mode="strict")
    eq(len(found), 1, "findings")
    eq(rc, 3, "exit status")
    check("telluser fenbridge: referee: illegal: " in out, out)
    records = glob.glob(ctx.path("fenbridge-*.txt"))
    eq(len(records), 1, "flight records")
    with open(records[0], encoding="latin-1") as f:
        check("move e7e4" in f.read(), "the record holds the move")


@test(timeout=30)
def strict_keeps_a_worse_status(ctx):
    """The engine's own non-zero status wins over 3."""
    rc, _, found, _ = session(
        ctx, "uci", UCI_OPEN + [b"position startpos\n",
                                b"fake-line bestmove e2e4\n", 0.2,
                                b"fake-exit 5\n"], mode="strict")
    eq(len(found), 1, "findings")
    eq(rc, 5, "exit status")


@test(timeout=30)
def once_per_kind_in_band(ctx):
    rc, out, found, _ = session(
        ctx, "uci", UCI_OPEN + [b"position startpos\n",
                                b"fake-line bestmove e2e4\n",
                                b"fake-line bestmove d2d4\n", 0.2])
    eq(len(found), 2, "findings")
    eq(out.count("info string fenbridge: referee: protocol"), 1, out)


@test(timeout=30)
def translating_pairs(ctx):
    """Each wire in its own protocol: a UCI GUI with an XBoard engine
    whose move is not legal (the engine wire is CECP; the in-band line is
    UCI's), and an XBoard GUI whose move is not legal with a UCI engine."""
    rc, out, found, _ = session(
        ctx, "xboard", [b"uci\n", 0.5, b"position startpos moves e2e4\n",
                        b"go depth 2\n", 0.3], go_answer("move e7e4"))
    one(found, "illegal", "move 'e7e4' is not legal", START_E4)
    eq(out.count("info string fenbridge: referee: illegal: "), 1, out)
    rc, out, found, _ = session(
        ctx, "uci", [b"xboard\n", b"protover 2\n", 0.5, b"new\n",
                     b"force\n", b"usermove e2e5\n", 0.2])
    one(found, "gui", "the GUI's move 'e2e5' is not legal")
    eq(out.count("# fenbridge: referee: gui: "), 1, out)


@test(timeout=30)
def ini_key(ctx):
    """`referee = strict` in the config file, as --referee=strict."""
    ini = ctx.path("fb.ini")
    with open(ini, "w") as f:
        f.write("[fenbridge]\nreferee = strict\n")
    rc, out, found, _ = session(
        ctx, "uci", UCI_OPEN + [b"position startpos\n",
                                b"fake-line bestmove e2e4\n", 0.2],
        mode="off", opts=["--config=" + ini])
    check(len(found) == 0, "--referee=off on the command line wins")
    eq(rc, 0, "exit status with --referee=off")
    b = ctx.bridge(["--config=" + ini, "--engine-protocol=uci"], [])
    b.send(b"uci\nposition startpos\nfake-line bestmove e2e4\n")
    time.sleep(0.3 * fbtest.SLOW)
    b.send(b"quit\n")
    rc, _ = b.wait(timeout=20)
    eq(rc, 3, "exit status with the INI's referee = strict")
    check(b"referee: protocol: bestmove without go" in b.stderr(),
          b.stderr())


def hung_session(ctx, proto, lines, needle):
    """The fake engine hangs (fake-sleep) before the last of lines, which
    it thus never answers; the GUI kills fenbridge with SIGKILL (as
    cutechess does) once the finding is in: (GUI output, stderr)."""
    b = ctx.bridge(["--referee=strict", "--engine-protocol=" + proto])
    for line in lines:
        if isinstance(line, float):
            time.sleep(line * fbtest.SLOW)
        elif line.startswith(b"="):
            b.expect(line[1:])
        else:
            b.send(line)
    out = b.expect(needle, timeout=15).decode("latin-1")
    out += b.expect(b"\n").decode("latin-1")
    err = ""
    deadline = time.monotonic() + 5 * fbtest.WAIT
    while "flight record" not in err and time.monotonic() < deadline:
        time.sleep(0.05)
        err = b.stderr().decode("latin-1")
    b.kill()
    return out, err


@test(timeout=40)
def hung_readyok_judged_while_pending(ctx):
    """An isready never answered is a finding at 5 s, while the engine
    hangs, before the GUI kills fenbridge; strict mode writes the flight
    record then."""
    t0 = time.monotonic()
    out, err = hung_session(
        ctx, "uci", [b"uci\n", b"isready\n", b"=readyok",
                     b"position startpos\n", b"go infinite\n",
                     b"fake-sleep 60000\nisready\n"],
        b"info string fenbridge: referee: protocol: ")
    took = time.monotonic() - t0
    check("isready not answered after" in out, out)
    check(took >= 5.0, "judged after %.1f s, not before 5 s" % took)
    check("referee: protocol: isready not answered" in err, err)
    records = glob.glob(ctx.path("fenbridge-*.txt"))
    eq(len(records), 1, "flight records: " + err)
    with open(records[0], encoding="latin-1") as f:
        check("isready" in f.read(), "the record holds the isready")


@test(timeout=40)
def hung_pong_judged_while_pending(ctx):
    out, err = hung_session(
        ctx, "xboard", XB_OPEN + [b"new\n", b"force\n", b"ping 1\n",
                                  b"=pong 1", b"fake-sleep 60000\nping 2\n"],
        b"telluser fenbridge: referee: protocol: ")
    check("ping not answered after" in out, out)
    eq(len(glob.glob(ctx.path("fenbridge-*.txt"))), 1, "flight records")


@test(timeout=30)
def off_says_nothing(ctx):
    rc, out, found, err = session(
        ctx, "uci", UCI_OPEN + [b"position startpos\n",
                                b"fake-line bestmove e2e4\n", 0.2],
        mode="off")
    eq(found, [], "findings")
    check("referee" not in err and "referee" not in out, err + out)


if __name__ == "__main__":
    fbtest.main()
