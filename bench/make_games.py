#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes bench/data/chess960_games.txt: the whole Chess960 games that
bench_bridge's `game`, `gamego` and `xboard` measurements replay (issue 18).

Stockfish plays itself (`go nodes 20000` by default,
UCI_Chess960) from random Chess960
starts; a second stockfish referees every ply (`position ... moves ...`,
`d`, `go perft 1`: the move must be among the legal moves, and `d`'s FEN
shows where the kings and rooks are, so castles are counted). A game that
ends (mate, stalemate) before PLIES plies is thrown away, as is one in
which a side never castles: each kept game is a legal prefix of PLIES
plies with a castle by White and by Black. Draws by repetition or the
50-move rule do not end a game here (a match runner would adjudicate;
fenbridge does not), so a drawn ending goes on as the engine plays it.

Output, one game a line after `#` comments:
    SCHARNAGL SHREDDER-FEN;m1 m2 ... (UCI, castling as king takes rook)

Usage: make_games.py [--games N] [--plies P] [--nodes N] [--seed S] [OUT]
Run once; the file is committed. About 4 minutes for 8 games (most
games of stockfish at 20,000 nodes a move end before 400 plies).
"""

import argparse
import os
import random
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests", "engines"))
import chesstest  # noqa: E402


def start_fen(n):
    rank = chesstest.scharnagl(n)
    files = [chr(ord("a") + i) for i, p in enumerate(rank) if p == "R"]
    rights = files[1].upper() + files[0].upper() + files[1] + files[0]
    return "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w %s - 0 1" % (
        rank.lower(), rank, rights)


def board(fen):
    """FEN placement -> {square name: piece}."""
    out = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                out["%s%d" % (chr(ord("a") + f), 8 - r)] = c
                f += 1
    return out


def play(player, referee, n, plies, nodes):
    """One game from start n: (moves, castles by colour) or None when it
    ends before `plies`."""
    start, moves, castles = start_fen(n), [], [0, 0]
    player.send("ucinewgame")
    player.sync()
    while len(moves) < plies:
        fen, legal = referee.step(start, moves)
        if not legal:
            print("  ended at ply %d" % len(moves), file=sys.stderr)
            return None
        cmd = "position fen " + start
        if moves:
            cmd += " moves " + " ".join(moves)
        player.send(cmd, "go nodes %d" % nodes)
        best = player.wait_for(r"^bestmove ", 60)[-1].split()[1]
        if best not in legal:
            raise SystemExit("illegal %s after %s" % (best, cmd))
        b, side = board(fen), fen.split()[1]
        piece, target = b.get(best[:2], ""), b.get(best[2:4], "")
        if piece in "Kk" and target == ("R" if piece == "K" else "r"):
            castles[0 if side == "w" else 1] += 1
        moves.append(best)
    return moves, castles


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--plies", type=int, default=400)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=960)
    ap.add_argument("out", nargs="?", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "data",
        "chess960_games.txt"))
    a = ap.parse_args()
    rng = random.Random(a.seed)
    player = chesstest.Engine([chesstest.STOCKFISH], "player")
    player.uci([("UCI_Chess960", "true"), ("Threads", "1"), ("Hash", "16")])
    referee = chesstest.Referee()
    kept, tried = [], 0
    while len(kept) < a.games:
        n = rng.randrange(960)
        if any(n == k for k, _ in kept):
            continue  # the engine finds its game by the start
        tried += 1
        got = play(player, referee, n, a.plies, a.nodes)
        if got is None or min(got[1]) == 0:
            print("start %d: %s" % (n, "ended early" if got is None
                                    else "a side never castled"),
                  file=sys.stderr)
            continue
        kept.append((n, got[0]))
        print("start %d: kept (castles %d/%d)" % (n, *got[1]),
              file=sys.stderr)
    player.close()
    referee.close()
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("# Chess960 games of %d plies: stockfish 15.1 playing itself "
                "(go nodes %d,\n# UCI_Chess960), every ply checked against "
                "stockfish's legal moves, a castle\n# by each side; %d of %d "
                "games kept (the others ended early or did not\n# castle). "
                "Made by bench/make_games.py --games %d --plies %d --nodes "
                "%d --seed %d.\n# SCHARNAGL SHREDDER-FEN;MOVES (UCI, castling "
                "king takes rook)\n"
                % (a.plies, a.nodes, len(kept), tried, a.games, a.plies,
                   a.nodes, a.seed))
        for n, moves in kept:
            f.write("%d %s;%s\n" % (n, start_fen(n), " ".join(moves)))


if __name__ == "__main__":
    main()
