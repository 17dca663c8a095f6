#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`fenbridge convert` and the PGN Variant tag (--variant-tag): a Variant
tag after the FEN tag moves before it (WinBoard reads them in order), a
Chess960 FEN without a Variant tag gets [Variant "chess960"] (ChessX and
others read it as standard chess), each with a warning and exit 1; games
that need neither keep their bytes; --variant-tag=keep changes no Variant
tag; a converted file converts again to itself with exit 0."""

import fbtest
from fbtest import check, eq, test

S960 = b"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w %s - 0 1"
CORNERS = b"rbnqknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNQKNBR w KQkq - 0 1"
STD = b"r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R b KQkq - 3 9"

# Game 1: FEN before Variant, CRLF lines (Shredder-FEN in, X-FEN out).
LATE_IN = (b'[Event "late"]\r\n[SetUp "1"]\r\n[FEN "' + S960 % b"HFhf" +
           b'"]\r\n[Variant "fischerandom"]\r\n\r\n1. e4 e5 1-0\r\n\r\n')
LATE_OUT = (b'[Event "late"]\r\n[SetUp "1"]\r\n[Variant "fischerandom"]\r\n'
            b'[FEN "' + S960 % b"KQkq" + b'"]\r\n\r\n1. e4 e5 1-0\r\n\r\n')
# Game 2: a Chess960 start whose castling standard chess could express,
# no Variant tag.
BARE_IN = (b'[Event "bare"]\n[SetUp "1"]\n[FEN "' + CORNERS +
           b'"]\n\n1. d4 *\n\n')
BARE_OUT = (b'[Event "bare"]\n[SetUp "1"]\n[Variant "chess960"]\n[FEN "' +
            CORNERS + b'"]\n\n1. d4 *\n\n')
# Games that need nothing: classical, a standard position, Variant first.
CLASSICAL = b'[Event "classical"]\n\n1. e4 c5 1/2-1/2\n\n'
SETUP = b'[Event "std"]\n[SetUp "1"]\n[FEN "' + STD + b'"]\n\n9... O-O-O *\n\n'
FIRST = (b'[Event "first"]\n[Variant "Chess960"]\n[SetUp "1"]\n[FEN "' +
         S960 % b"KQkq" + b'"]\n\n1. e4 0-1\n\n')


def convert(ctx, *args, data):
    path = ctx.path("in.pgn")
    with open(path, "wb") as f:
        f.write(data)
    return fbtest.run(fbtest.cmd("convert", *args, path))


@test()
def variant_tag_moved_and_added(ctx):
    data = CLASSICAL + LATE_IN + SETUP + BARE_IN + FIRST
    rc, out, err = convert(ctx, "--to=xfen", data=data)
    eq(out, CLASSICAL + LATE_OUT + SETUP + BARE_OUT + FIRST,
       "Variant moved in game 2, added in game 4, the rest byte for byte")
    eq(rc, 1, "exit status: a tag was moved and one added")
    lines = err.decode().splitlines()
    eq(len(lines), 2, "one warning each: %r" % lines)
    check("line 8, game 2:" in lines[0] and "FEN tag of line 7: moved "
          "before it" in lines[0],
          "the move, at the Variant tag's line: %r" % lines[0])
    check("line 20, game 4:" in lines[1] and
          '[Variant "chess960"] added' in lines[1],
          "the added tag, at the FEN tag's line: %r" % lines[1])
    rc, _, err = convert(ctx, "--to=xfen", "-v", data=data)
    check(b"5 games, 5 written, 4 FEN tags, 1 Variant tags moved, 1 added"
          in err, "--verbose counts them: %r" % err[-200:])
    # The output is what WinBoard and ChessX need: converting it again
    # changes nothing and is clean.
    rc, again, err = convert(ctx, "--to=xfen", data=out)
    eq((rc, again, err), (0, out, b""), "converting the output again")


@test()
def variant_tag_keep(ctx):
    data = LATE_IN + BARE_IN
    rc, out, err = convert(ctx, "--to=xfen", "--variant-tag=keep", data=data)
    eq((rc, err), (0, b""), "keep: nothing to say")
    eq(out, data.replace(S960 % b"HFhf", S960 % b"KQkq"),
       "keep: only the castling field changed")
    data = data.replace(CORNERS, CORNERS.replace(b"KQkq", b"HAha"))
    rc, out, err = convert(ctx, "--to=shredder", "--variant-tag", "keep",
                           data=data)
    eq((rc, out), (0, data), "keep, Shredder-FEN in and out: byte for byte")


@test()
def variant_tag_usage(ctx):
    rc, out, err = fbtest.run(fbtest.cmd("convert", "--to=xfen",
                                         "--variant-tag=add", "x.pgn"))
    eq((rc, out), (2, b""), "status and stdout of a bad --variant-tag")
    check(b"'add'" in err and b"auto or keep" in err.replace(b",", b""),
          "the message names the value and the choices: %r" % err)
    rc, out, _ = fbtest.run(fbtest.cmd("convert", "--help"))
    check(b"--variant-tag=auto|keep" in out and b"(default auto)" in out,
          "--help lists --variant-tag")


if __name__ == "__main__":
    fbtest.main()
