#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Relaying both ways: every byte passes unchanged except the castling field
of UCI `position fen`, XBoard `setboard` (GUI to engine) and XBoard `setup`
(engine to GUI)."""

import time

import fbtest
from fbtest import check, eq, test

START_SH = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
START_X = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# The X-FEN definition's example: White's inner g1 rook holds the right.
INNER_SH = b"rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - 4 11"
INNER_X = b"rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gkq - 4 11"
C960_SH = b"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"
C960_X = b"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1"


def session(ctx, lines, opts=(), engine_opts=()):
    """Sends lines then quit; returns (status, GUI output, engine record)."""
    b = ctx.bridge(opts, engine_opts)
    b.send(b"".join(lines) + b"quit\n")
    rc, out = b.wait()
    return b, rc, out, b.recorded()


@test()
def gui_bytes_pass_unchanged(ctx):
    lines = [
        b"uci\n",
        b"isready\r\n",          # CRLF
        b"debug on\rdebug off\n",  # a lone CR inside the stream
        b"\n", b"\r\n", b"\r", b" \t \n",  # blank lines
        b"frobnicate the engine  twice\t\n",  # unknown command
        b"setoption name X value a\x00b\x00\n",  # NUL bytes
        b"go \xff\xfe\xc3\x28 \xed\xa0\x80 depth 1\n",  # invalid UTF-8
        b"\x1b[31m\x7f\x01\n",
        b"position startpos moves e2e4 e7e5\n",
        b"position fen " + START_X + b" moves e2e4\r\n",  # X-FEN stays
        b"ucinewgame\n",
    ]
    b, rc, out, rec = session(ctx, lines)
    eq(rec, b"".join(lines) + b"quit\n", "what the engine received")
    eq(rc, 0, "exit status")
    check(out.endswith(b"uciok\nreadyok\n"), "GUI output: %r" % out)
    eq(b.stderr(), b"", "stderr")


@test()
def lines_split_across_reads(ctx):
    # A FEN and a CRLF split over several writes: the framer must join the
    # pieces, rewrite the FEN, and keep the CRLF a CRLF.
    b = ctx.bridge()
    pieces = [b"uci\r", b"\nposition fen rnbqkbnr/pppppppp/8/8/8/8/",
              b"PPPPPPPP/RNBQKBNR w HA", b"ha - 0 1 moves e2e4\r",
              b"\nisready", b"\r\n"]
    for p in pieces:
        b.send(p)
        time.sleep(0.03)
    b.expect(b"readyok\n")
    b.send(b"quit\n")
    rc, _ = b.wait()
    eq(b.recorded(), b"uci\r\nposition fen " + START_X +
       b" moves e2e4\r\nisready\r\nquit\n", "what the engine received")
    eq(rc, 0, "exit status")


@test(timeout=20)
def long_lines(ctx):
    junk = b"setoption name Junk value " + b"x" * (2 << 20) + b"\n"
    # Over the framer's 1 MiB cap: passed through unsplit and untranslated.
    huge_pos = (b"position fen " + START_SH + b" moves" +
                b" g1f3 g8f6 f3g1 f6g8" * ((2 << 20) // 20) + b"\n")
    # 10000 plies (about 50 KB): still a line, so the FEN is rewritten.
    moves = b" g1f3 g8f6 f3g1 f6g8" * 2500
    long_pos = b"position fen " + START_SH + b" moves" + moves + b"\n"
    lines = [b"uci\n", junk, b"isready\n", huge_pos, long_pos, b"isready\n"]
    b = ctx.bridge()
    b.send(b"".join(lines))
    b.expect(b"readyok\nreadyok\n", timeout=10)
    b.send(b"quit\n")
    rc, _ = b.wait()
    want = b"".join(lines[:-2]) + b"position fen " + START_X + b" moves" + \
        moves + b"\nisready\nquit\n"
    rec = b.recorded()
    eq(rec, want, "what the engine received")
    check(rec.count(b"\n") == want.count(b"\n"), "line count")
    eq(rc, 0, "exit status")


@test()
def truncated_last_line(ctx):
    # The last line has no terminator when stdin ends: its bytes pass as
    # they are; fenbridge ends the line before the quit it sends itself.
    sent = b"uci\nisready\nposition startpos moves e2e4"
    b = ctx.bridge()
    b.send(sent)
    b.close_stdin()
    rc, out = b.wait()
    eq(b.recorded(), sent + b"\nquit\n", "what the engine received")
    eq(rc, 0, "exit status")
    check(out.endswith(b"uciok\nreadyok\n"), "GUI output: %r" % out)

    # An unterminated position fen is still rewritten.
    b = ctx.bridge(name="engine2")
    b.send(b"uci\nposition fen " + START_SH)
    b.close_stdin()
    rc, _ = b.wait()
    eq(b.recorded(), b"uci\nposition fen " + START_X + b"\nquit\n",
       "what the engine received")


@test()
def position_fen_to_xfen(ctx):
    lines = [
        (b"uci\n", b"uci\n"),
        (b"setoption name UCI_Chess960 value true\n",) * 2,
        (b"position fen " + START_SH + b"\n", b"position fen " + START_X + b"\n"),
        (b"position fen " + INNER_SH + b" moves a4a5\r\n",
         b"position fen " + INNER_X + b" moves a4a5\r\n"),
        (b"position  fen\t" + C960_SH.replace(b" ", b" \t ") + b"  moves \r",
         b"position  fen\t" + C960_X.replace(b" ", b" \t ") + b"  moves \r"),
        # Only 4 fields: no counters are invented.
        (b"position fen " + START_SH[:-4] + b"\n",
         b"position fen " + START_X[:-4] + b"\n"),
        (b"position fen " + START_X + b" moves e2e4 e7e5\n",) * 2,
        # Mixed and unordered letters are read and written canonically.
        (b"position fen " + START_SH.replace(b"HAha", b"qHkA") + b"\n",
         b"position fen " + START_X + b"\n"),
    ]
    b, rc, out, rec = session(ctx, [l[0] for l in lines])
    eq(rec, b"".join(l[1] for l in lines) + b"quit\n",
       "what the engine received")
    eq(rc, 0, "exit status")
    eq(b.stderr(), b"", "stderr")


@test()
def position_fen_engine_shredder(ctx):
    lines = [
        (b"uci\n", b"uci\n"),
        (b"position fen " + START_SH + b"\n",) * 2,
        (b"position fen " + INNER_X + b" moves a4a5\n",
         b"position fen " + INNER_SH + b" moves a4a5\n"),
        (b"position fen " + C960_X + b"\n", b"position fen " + C960_SH + b"\n"),
    ]
    b, rc, out, rec = session(ctx, [l[0] for l in lines],
                              opts=["--engine-fen=shredder"])
    eq(rec, b"".join(l[1] for l in lines) + b"quit\n",
       "what the engine received")
    eq(rc, 0, "exit status")


@test()
def malformed_fen_passes_unchanged(ctx):
    bad = [
        b"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w HAha - 0 1\n",
        b"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1\n",
        b"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1 9 moves e2e4\n",
        b"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x HAha - 0 1\n",
        b"position fen rnbqkbnr/ppp\xffpppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\n",
        b"position fen\n",
        b"position fen moves e2e4\n",
    ]
    b, rc, out, rec = session(ctx, [b"uci\n"] + bad)
    eq(rec, b"uci\n" + b"".join(bad) + b"quit\n", "what the engine received")
    eq(rc, 0, "exit status")
    err = b.stderr().decode("utf-8", "replace").splitlines()
    check(len([l for l in err if "malformed" in l]) >= 5,
          "a diagnostic per malformed FEN on stderr: %r" % err)
    check(all(l.startswith("fenbridge: ") for l in err),
          "stderr lines come from fenbridge: %r" % err)
    check(any("7 ranks" in l for l in err), "the reason is named: %r" % err)


@test()
def xboard_setboard(ctx):
    b = ctx.bridge()
    b.send(b"xboard\nprotover 2\n")
    b.expect(b"done=1\n")
    lines = [
        (b"new\n",) * 2,
        (b"variant fischerandom\n",) * 2,
        (b"setboard " + INNER_SH + b"\n", b"setboard " + INNER_X + b"\n"),
        (b"setboard " + C960_SH + b"\r\n", b"setboard " + C960_X + b"\r\n"),
        (b"variant shogi\n",) * 2,
        (b"setboard " + START_SH + b"\n",) * 2,  # unknown variant: unchanged
        (b"new\n",) * 2,
        (b"setboard " + START_SH + b"\n", b"setboard " + START_X + b"\n"),
        (b"ping 1\n",) * 2,
    ]
    b.send(b"".join(l[0] for l in lines))
    b.expect(b"pong 1\n")
    b.send(b"quit\n")
    rc, _ = b.wait()
    eq(b.recorded(), b"xboard\nprotover 2\n" + b"".join(l[1] for l in lines)
       + b"quit\n", "what the engine received")
    eq(rc, 0, "exit status")


@test(timeout=20)
def engine_flood_arrives_in_order(ctx):
    n = fbtest.scale(100000)
    b = ctx.bridge()
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"fake-flood %d\n" % n)
    got = b.expect(b"info string flood done\n", timeout=15)
    want = b"".join(b"info string flood %d\n" % i for i in range(1, n + 1)) \
        + b"info string flood done\n"
    eq(got, want, "the flood")
    b.send(b"quit\n")
    rc, rest = b.wait()
    eq(rest, b"", "output after the flood")
    eq(rc, 0, "exit status")


@test()
def engine_output_passes_unchanged(ctx):
    b = ctx.bridge()
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    # fake-echo writes its text with the command's own terminator; the
    # fake reads lines up to LF, so a CR inside the text is a lone CR.
    echoes = [b"info string a\x00b \xff\xc3\x28\r\n",
              b"info string cr\rinfo string after\n", b"\n",
              b"id name " + START_SH + b"\n",
              b"bestmove e2e4 ponder e7e5\n"]
    for e in echoes:
        b.send(b"fake-echo " + e)
    b.send(b"isready\n")
    got = b.expect(b"readyok\n")
    eq(got, b"".join(echoes) + b"readyok\n", "what the GUI received")
    b.send(b"quit\n")
    rc, _ = b.wait()
    eq(rc, 0, "exit status")


@test(timeout=20)
def engine_long_line(ctx):
    # A 2 MB line from the engine passes unsplit, as does a 2 MB setup line
    # (over the framer's cap, so not translated).
    junk = b"info string " + b"y" * (2 << 20)
    setup = b"setup (PNBRQKpnbrqk) 8x8+0_fairy " + START_X + b" " + \
        b"z" * (2 << 20)
    b = ctx.bridge()
    b.send(b"xboard\nprotover 2\n")
    b.expect(b"done=1\n")
    b.send_in_thread(b"fake-echo " + junk + b"\nfake-echo " + setup +
                     b"\nping 3\n")
    got = b.expect(b"pong 3\n", timeout=10)
    eq(got, junk + b"\n" + setup + b"\npong 3\n", "what the GUI received")
    b.send(b"quit\n")
    rc, _ = b.wait()
    eq(rc, 0, "exit status")


@test(timeout=20)
def files_as_gui_stdio(ctx):
    # A script may run fenbridge with files for stdin and stdout (read and
    # written through libuv's thread pool, not as streams).
    n = fbtest.scale(100000)
    cmds = (b"uci\nposition fen " + START_SH + b"\n" + b"isready\n" * n +
            b"fake-flood %d\n" % n)
    with open(ctx.path("cmds"), "wb") as f:
        f.write(cmds)
    rec = ctx.path("rec")
    with open(ctx.path("cmds"), "rb") as i, open(ctx.path("out"), "wb") as o:
        p = fbtest.subprocess.run(
            fbtest.cmd("--", fbtest.FAKE, rec), stdin=i, stdout=o,
            stderr=fbtest.subprocess.PIPE, timeout=15 * fbtest.WAIT)
    eq(p.returncode, 0, "exit status")
    eq(p.stderr, b"", "stderr")
    with open(rec, "rb") as f:
        eq(f.read(), cmds.replace(START_SH, START_X) + b"quit\n",
           "what the engine received")
    with open(ctx.path("out"), "rb") as f:
        out = f.read()
    eq(out[out.index(b"uciok\n") + 6:],
       b"readyok\n" * n +
       b"".join(b"info string flood %d\n" % i for i in range(1, n + 1)) +
       b"info string flood done\n", "what the GUI received")


@test()
def xboard_setup_from_engine(ctx):
    setup = b"setup (PNBRQKpnbrqk) 8x8+0_fairy "
    for opts, want in (([], START_SH), (["--gui-fen=xfen"], START_X)):
        b = ctx.bridge(opts, name="engine%d" % len(opts))
        b.send(b"xboard\nprotover 2\n")
        b.expect(b"done=1\n")
        b.send(b"fake-echo " + setup + START_X + b"\n")
        b.send(b"fake-echo " + setup + INNER_X + b"\r\n")
        b.send(b"ping 2\n")
        got = b.expect(b"pong 2\n")
        eq(got, setup + want + b"\n" + setup +
           (INNER_SH if not opts else INNER_X) + b"\r\npong 2\n",
           "what the GUI received with %r" % opts)
        b.send(b"quit\n")
        rc, _ = b.wait()
        eq(rc, 0, "exit status")


@test()
def engine_stderr_goes_to_stderr(ctx):
    b = ctx.bridge()
    b.send(b"uci\nfake-stderr oops: something\nisready\n")
    out = b.expect(b"readyok\n")
    check(b"oops" not in out, "engine stderr kept off the protocol")
    fbtest.wait_for(lambda: b"oops: something\n" in b.stderr(), 2,
                    "the engine's stderr on fenbridge's stderr")
    b.send(b"quit\n")
    rc, _ = b.wait()
    eq(rc, 0, "exit status")


@test()
def engine_closes_stdout(ctx):
    # An engine that closes its stdout but keeps running still gets every
    # line, and the session ends normally when the GUI goes.
    b = ctx.bridge()
    b.send(b"uci\n")
    b.expect(b"uciok\n")
    b.send(b"fake-closeout\n")
    fbtest.wait_for(lambda: "closed stdout" in b.events(), 2, "closed stdout")
    b.send(b"isready\nposition fen " + START_SH + b"\n")
    b.close_stdin()
    rc, rest = b.wait()
    eq(rest, b"", "GUI output after the engine closed stdout")
    eq(b.recorded(), b"uci\nfake-closeout\nisready\nposition fen " +
       START_X + b"\nquit\n", "what the engine received")
    eq(rc, 0, "exit status")


@test(timeout=20)
def probe_of_a_protover1_engine(ctx):
    # --engine-protocol=auto with an engine silent to uci and protover:
    # the GUI's xboard and protover reach it at once; after 1 s of
    # silence it is asked uci and the XBoard GUI told to wait (done=0),
    # the probe ends after 3 s, the GUI's held lines reach the engine in
    # order, and after 2 s more of silence fenbridge ends the GUI's wait
    # itself (done=1).
    b = ctx.bridge(["--engine-protocol=auto"], ["--protover1"])
    t0 = time.monotonic()
    b.send(b"xboard\nprotover 2\n")
    eq(b.expect(b"\n"), b"feature done=0\n", "the GUI is told to wait")
    eq(b.expect(b"feature done=1\n", timeout=10), b"feature done=1\n",
       "the wait ends")
    took = time.monotonic() - t0
    check(4.5 < took, "done=1 after the 3 s probe and the 2 s wait, "
          "not %.1f s" % took)
    b.send(b"ping 4\n")
    eq(b.expect(b"pong 4\n"), b"pong 4\n", "the engine answers")
    b.send(b"quit\n")
    rc, out = b.wait()
    eq(b.recorded(), b"xboard\nprotover 2\nuci\nping 4\nquit\n",
       "what the engine received")
    eq(rc, 0, "exit status")


if __name__ == "__main__":
    fbtest.main()
