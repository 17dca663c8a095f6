#!/usr/bin/env python3
"""`fenbridge convert` on PGN and EPD files, checked by an independent
reader (chessops from npm, run by node: pgn_chessops.mjs).

The games are real: Stockfish (Chess960 mode) gives every start position
and every final position as its `d` prints them (Shredder-FEN), and the
legal moves (`go perft 1`) from which the games are drawn, castling
whenever it is legal more often than not. chessops turns the UCI moves
into SAN; the files are written as XBoard saves games (PGN export format:
seven-tag roster, TimeControl, Variant "fischerandom", SetUp, FEN, clock
comments), some with CRLF lines, a Latin-1 Site tag, no SetUp tag, some
classical games without a FEN tag, and the seed document's X-FEN example.
The EPD file holds Stockfish's middle-game positions with operations.

Checks: convert --to=xfen changes only FEN tags (and adds SetUp where it
is missing, and [Variant "chess960"] to the seed game, a Chess960 start
without a Variant tag, with one warning each); chessops' parsePgn reads the same
games, tags and moves, every game replays legally from its converted
start, the castling rooks are the same, and the final position is
Stockfish's; X-FEN -> Shredder -> X-FEN is byte-identical and Shredder
gives back Stockfish's own FENs; --select picks what it should; EPD
operations stay byte for byte.

Skips (77) without stockfish, node/npm, or when npm cannot install
chessops (FB_NPM_DIR: where to install, default a folder beside the build).
"""

import fcntl
import json
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chesstest  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = (b'[Event "SmirfGUI Computerchess Game"]\n[Site "CHESSBOX"]\n'
        b'[Date "2005.06.19"]\n[Time "10:22:29"]\n[Round "Test"]\n'
        b'[White "White"]\n[Black "Black"]\n[Result "*"]\n'
        b'[Annotator "R. Scharnagl"]\n[SetUp "1"]\n'
        b'[FEN "rnbnkqrb/pppppppp/8/8/8/8/PPPPPPPP/RNBNKQRB w KQkq - 0 1"]\n'
        b'1. h4 g6 2. g3 Bf6 3. a4 Qh6 4. Ra3 Bxh4 5. gxh4 Qxh4 6. Qh3 '
        b'Qxh3 7. Rxh3 Ne6\n8. Bf3 d6 9. Nbc3 Ng5 10. Rhh1 Bf5 11. O-O *\n\n')


INNER = "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - 4 11"


def skip(why):
    print("SKIP: " + why)
    sys.exit(chesstest.SKIP)


def chessops_dir():
    d = os.environ.get("FB_NPM_DIR") or os.path.join(os.getcwd(), "npm-chessops")
    os.makedirs(d, exist_ok=True)
    # xboard_gui.py installs here too, maybe at the same time: one npm
    # install at a time.
    lock = open(os.path.join(d, ".lock"), "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    if os.path.isdir(os.path.join(d, "node_modules", "chessops")):
        return d
    try:
        p = subprocess.run(["npm", "install", "--no-audit", "--no-fund",
                            "--prefix", d, "chessops@0.15"],
                           capture_output=True, timeout=180)
    except (OSError, subprocess.TimeoutExpired) as e:
        skip("npm install chessops: %s" % e)
    if p.returncode != 0:
        skip("npm cannot install chessops: %s" % p.stderr[-300:])
    return d


def node(npm, *args, stdin=None):
    script = os.path.join(npm, "pgn_chessops.mjs")
    with open(os.path.join(HERE, "pgn_chessops.mjs"), "rb") as f:
        src = f.read()
    with open(script, "wb") as f:      # beside node_modules: imports resolve
        f.write(src)
    p = subprocess.run(["node", script] + list(args), input=stdin,
                       capture_output=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError("node %s: %s" % (args[:1], p.stderr.decode()[-800:]))
    return json.loads(p.stdout)


def king_and_rooks(fen):
    board, side = fen.split()[0], fen.split()[1]
    rank = board.split("/")[7 if side == "w" else 0]
    row, f = {}, 0
    for c in rank:
        if c.isdigit():
            f += int(c)
        else:
            row[f] = c
            f += 1
    k, r = ("K", "R") if side == "w" else ("k", "r")
    back = "1" if side == "w" else "8"
    king = [chr(97 + f) + back for f, c in row.items() if c == k]
    rooks = {chr(97 + f) + back for f, c in row.items() if c == r}
    return (king[0] if king else None), rooks


def play(sf, rng, start, plies):
    """A game from start: (moves, final Fen of `d`)."""
    moves = []
    fen, legal = sf.step(start)
    for _ in range(plies):
        if not legal:
            break
        king, rooks = king_and_rooks(fen)
        castles = [m for m in legal if m[:2] == king and m[2:4] in rooks]
        m = rng.choice(castles) if castles and rng.random() < 0.7 \
            else rng.choice(legal)
        moves.append(m)
        fen, legal = sf.step(start, moves)
    return moves, fen


def result_of(i):
    return ["1-0", "0-1", "1/2-1/2", "*"][i % 4]


def movetext(sans, result, rng, comments, first=1, black=False):
    words, n, white = [], first, not black
    for j, s in enumerate(sans):
        if white:
            words.append("%d." % n)
        elif j == 0:
            words.append("%d..." % n)
        words.append(s)
        if comments and rng.random() < 0.5:
            words.append("{%+.2f/%d %.1fs}" % (rng.uniform(-1, 1),
                                               rng.randrange(5, 20),
                                               rng.random()))
        if not white:
            n += 1
        white = not white
    words.append(result)
    lines, cur = [], ""
    for w in words:                     # XBoard wraps at 80 columns
        if cur and len(cur) + 1 + len(w) > 79:
            lines.append(cur)
            cur = w
        else:
            cur = w if not cur else cur + " " + w
    lines.append(cur)
    return lines


def xboard_game(i, tags, fen, setup, sans, rng, crlf, latin1):
    res = result_of(i)
    site = "D\xfcsseldorf" if latin1 else "cluster"
    t = [("Event", "Computer Chess Game"), ("Site", site),
         ("Date", "2024.05.%02d" % (i % 28 + 1)), ("Round", "%d" % (i + 1)),
         ("White", "Stockfish"), ("Black", "Stockfish"), ("Result", res),
         ("TimeControl", "40/60")] + tags
    if fen:
        t.append(("Variant", "fischerandom"))
        if setup:
            t.append(("SetUp", "1"))
        t.append(("FEN", fen))
    f = fen.split() if fen else None
    black = bool(f and f[1] == "b")
    first = int(f[5]) if f and len(f) > 5 else 1
    lines = ['[%s "%s"]' % kv for kv in t] + [""] + \
        movetext(sans, res, rng, i % 2 == 0, first, black) + [""]
    eol = "\r\n" if crlf else "\n"
    return (eol.join(lines) + eol).encode("latin-1")


def convert(fb, args, data):
    p = subprocess.run([fb, "convert"] + args, input=data,
                       capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def main():
    fb = sys.argv[1]
    if not os.access(chesstest.STOCKFISH, os.X_OK):
        skip("no " + chesstest.STOCKFISH)
    for tool in ("node", "npm"):
        if subprocess.run(["sh", "-c", "command -v " + tool],
                          capture_output=True).returncode != 0:
            skip("no " + tool)
    npm = chessops_dir()
    res = chesstest.Results("-v" in sys.argv)
    rng = random.Random(11)
    chesstest.backstop("pgn_files", 200)

    sf = chesstest.Referee()
    games = []      # (start fen or None, moves, final fen, is a 960 start)
    for i in range(44):
        if i < 30:
            start = chesstest.start_fen(chesstest.scharnagl(rng.randrange(960)))
            fen, _ = sf.step(start)
            moves, final = play(sf, rng, fen, rng.randrange(30, 90))
            games.append((fen, moves, final, True))
        elif i < 38:    # a position from the middle of a game
            start = chesstest.start_fen(chesstest.scharnagl(rng.randrange(960)))
            pre = play(sf, rng, start, rng.randrange(8, 20))[0]
            if i < 33:  # the X-FEN definition's inner rook (dialects.md)
                start, pre = INNER, []
            fen, _ = sf.step(start, pre)
            moves, final = play(sf, rng, fen, rng.randrange(10, 40))
            games.append((fen, moves, final, False))
        else:           # classical: no FEN tag
            start = chesstest.start_fen("RNBQKBNR")
            moves, final = play(sf, rng, start, rng.randrange(20, 60))
            games.append((None, moves, final, False))
    epd = []
    for g, (fen, moves, _, _) in enumerate(games[:30]):
        start = fen
        for ply in (6, 14, 24):
            if ply < len(moves):
                f, _ = sf.step(start, moves[:ply])
                epd.append("%s c0 \"%s\"; id \"g%d.p%d\";" % (
                    " ".join(f.split()[:4]), moves[ply], g + 1, ply))
    sf.close()

    std = chesstest.start_fen("RNBQKBNR")
    sans = node(npm, "san", stdin=json.dumps(
        [{"fen": f or std, "moves": m} for f, m, _, _ in games]).encode())
    pgn = b""
    for i, ((fen, moves, final, _), s) in enumerate(zip(games, sans)):
        pgn += xboard_game(i, [], fen, i % 5 != 1, s, rng, i % 3 == 0,
                           i % 4 == 0)
        if i == 20:
            pgn += SEED
    missing = sum(1 for i, g in enumerate(games) if g[0] and i % 5 == 1)
    tmp = tempfile.mkdtemp(prefix="fb-pgn-")
    orig = os.path.join(tmp, "stockfish.pgn")
    with open(orig, "wb") as f:
        f.write(pgn)

    # -- to X-FEN: only FEN tags change, SetUp added with a warning each,
    # and the seed game's Variant tag (game 22, after game 21)
    rc, x, err = convert(fb, ["--to=xfen", orig], b"")
    warn = err.splitlines()
    added = [w for w in warn if '[Variant "chess960"] added' in w]
    res.check("xfen: exit 1 for the added SetUp tags and Variant tag only",
              rc == 1 and len(warn) == missing + 1 and len(added) == 1 and
              "game 22:" in added[0] and
              all(("SetUp" in w or w in added) and "game" in w for w in warn),
              "%d %r" % (rc, warn[:3]))
    res.check("xfen: one Variant tag added, before the seed's FEN tag",
              x.count(b'[Variant "chess960"]\n[FEN "rnbnkqrb/') == 1 and
              x.count(b"[Variant ") == pgn.count(b"[Variant ") + 1)
    tagless = lambda t: [l for l in t.splitlines(True)
                         if not l.startswith((b"[FEN ", b"[SetUp ",
                                              b'[Variant "chess960"]'))]
    res.check("xfen: every line but FEN/SetUp tags byte-identical",
              tagless(pgn) == tagless(x))
    res.check("xfen: SetUp added before each FEN tag that had none",
              x.count(b"[SetUp ") == pgn.count(b"[SetUp ") + missing)
    xfile = os.path.join(tmp, "xfen.pgn")
    with open(xfile, "wb") as f:
        f.write(x)
    r = node(npm, "check", orig, xfile)
    res.check("chessops: same games, tags, moves; legal replay; same rooks",
              not r["errors"] and r["checked"] == len(games) + 1,
              "%r" % r["errors"][:5])
    finals = [f for i, f in enumerate(r["finals"]) if i != 21]
    same = all(fin.split()[:2] == g[2].split()[:2]
               for fin, g in zip(finals, games))
    res.check("chessops: every final position is Stockfish's", same)
    res.check("games castle (%d O-O/O-O-O)" % r["castles"], r["castles"] >= 20)

    # -- round trips
    rc2, s, _ = convert(fb, ["--to=shredder"], x)
    rc3, x2, _ = convert(fb, ["--to=xfen"], s)
    res.check("X-FEN -> Shredder -> X-FEN byte-identical", x2 == x and
              rc2 == 0 and rc3 == 0)
    rc4, s0, _ = convert(fb, ["--to=shredder", orig], b"")
    nosetup = lambda t: [l for l in t.splitlines(True)
                         if not l.startswith((b"[SetUp ",
                                              b'[Variant "chess960"]'))]
    seedless = lambda t: [l for l in nosetup(t)
                          if not l.startswith(b'[FEN "rnbnkqrb')]
    res.check("Shredder: Stockfish's own FENs come back byte for byte",
              s == s0 and seedless(s0) == seedless(pgn))
    inner = re.findall(rb'\[FEN "\S+ [wb] ([^" ]+) ', x)
    res.check("X-FEN tags with an inner-rook letter: %d" % sum(
        1 for c in inner if re.search(rb"[A-Ha-h]", c)), sum(
        1 for c in inner if re.search(rb"[A-Ha-h]", c)) >= 3)

    # -- select
    for sel, want in (("classical", sum(1 for g in games if not g[0])),
                      ("setup", sum(1 for g in games if g[0]) + 1),
                      ("chess960", sum(1 for g in games if g[3]) + 1)):
        rc, out, _ = convert(fb, ["--to=xfen", "--select=" + sel,
                                  "--format=pgn", xfile], b"")
        n = out.count(b"[Event ")
        res.check("--select=%s: %d games" % (sel, want), n == want and rc == 0,
                  "%d" % n)

    # -- EPD
    epd_in = ("\n".join(epd) + "\n").encode()
    rc, epd_x, err = convert(fb, ["--to=xfen"], epd_in)
    ops = lambda t: [l.split(None, 4)[4] for l in t.decode().splitlines()]
    res.check("EPD: %d lines, operations kept" % len(epd),
              rc == 0 and ops(epd_x) == ops(epd_in), err)
    as_pgn = lambda t: "".join('[SetUp "1"]\n[FEN "%s 0 1"]\n\n*\n\n' % " ".join(
        l.split()[:4]) for l in t.decode().splitlines()).encode()
    for name, data in (("a", as_pgn(epd_in)), ("b", as_pgn(epd_x))):
        with open(os.path.join(tmp, name + ".pgn"), "wb") as f:
            f.write(data)
    r = node(npm, "check", os.path.join(tmp, "a.pgn"), os.path.join(tmp, "b.pgn"))
    res.check("EPD: chessops finds the same castling rooks", not r["errors"],
              "%r" % r["errors"][:3])
    rc, back, _ = convert(fb, ["--to=shredder", "--format=epd"], epd_x)
    rc, again, _ = convert(fb, ["--to=xfen"], back)
    res.check("EPD: round trip byte-identical", again == epd_x)

    print("%d passed, %d failed" % (res.passed, res.failed))
    sys.exit(1 if res.failed else 0)


if __name__ == "__main__":
    main()
