/* SPDX-License-Identifier: MIT */
/*
 * perft_driver: the move generator (src/chess/movegen.c) in the shape of
 * an engine's `go perft N`, for perft_engines.py to compare with stockfish
 * and fairy-stockfish move by move.
 *
 *   perft_driver [--variant=NAME] DEPTH FEN  one position
 *   perft_driver [--variant=NAME]            lines "DEPTH FEN" on stdin
 *
 * --variant: the positions are played by that variant's rules (castling
 * files, promotion pieces: janus, embassy); default: the board's standard.
 *
 * For each position: one line "MOVE: COUNT" per legal move (coordinates,
 * castling as king takes rook, as both engines write it with
 * UCI_Chess960), then "Nodes searched: TOTAL". At the root and the first
 * ply every move is also written in SAN and read back; a move that does
 * not come back as itself prints "san-mismatch FEN MOVE SAN". A FEN that
 * does not parse prints "bad-fen FEN".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenbridge/fen.h"
#include "fenbridge/movegen.h"
#include "fenbridge/variant.h"

static const struct fb_variant *variant;

static unsigned long
perft(const struct fb_game *g, int depth)
{
	struct fb_move moves[FB_MOVES_MAX];
	size_t n = fb_moves_legal(g, moves);
	unsigned long total = 0;

	if (depth <= 1)
		return depth == 1 ? n : 1;
	for (size_t i = 0; i < n; i++) {
		struct fb_game next = *g;
		fb_game_play(&next, &moves[i]);
		total += perft(&next, depth - 1);
	}
	return total;
}

static bool
same(const struct fb_move *a, const struct fb_move *b)
{
	return a->from_file == b->from_file && a->from_rank == b->from_rank &&
	       a->to_file == b->to_file && a->to_rank == b->to_rank &&
	       a->promo == b->promo && a->castle == b->castle &&
	       a->null == b->null;
}

/* Every move of g printed in SAN parses back to itself; plies more levels
 * down too. Returns the number of mismatches (each printed). */
static unsigned
san_round_trip(const struct fb_game *g, const char *fen, int plies)
{
	struct fb_move moves[FB_MOVES_MAX];
	size_t n = fb_moves_legal(g, moves);
	unsigned bad = 0;

	for (size_t i = 0; i < n; i++) {
		char san[16], coord[8];
		struct fb_move back;
		int len = fb_moves_print_san(g, &moves[i], san, sizeof san);
		if (len < 0 ||
		    fb_moves_parse(g, san, (size_t)len, &back) != 0 ||
		    !same(&back, &moves[i])) {
			fb_moves_print_coord(g, &moves[i], FB_CASTLE_KXR, coord,
					     sizeof coord);
			printf("san-mismatch %s %s %s\n", fen, coord,
			       len < 0 ? "?" : san);
			bad++;
		}
		if (plies > 0) {
			struct fb_game next = *g;
			fb_game_play(&next, &moves[i]);
			bad += san_round_trip(&next, fen, plies - 1);
		}
	}
	return bad;
}

static int
run(int depth, const char *fen)
{
	struct fb_move moves[FB_MOVES_MAX];
	struct fb_fen parsed;
	struct fb_game g;
	unsigned long total = 0;
	size_t n;

	if (fb_fen_parse(&parsed, fen, strlen(fen), NULL) != 0) {
		printf("bad-fen %s\n", fen);
		return 1;
	}
	g = parsed.pos;
	fb_variant_apply(variant, &g);
	n = fb_moves_legal(&g, moves);
	for (size_t i = 0; i < n; i++) {
		struct fb_game next = g;
		char coord[8];
		unsigned long count;
		fb_game_play(&next, &moves[i]);
		count = perft(&next, depth - 1);
		fb_moves_print_coord(&g, &moves[i], FB_CASTLE_KXR, coord,
				     sizeof coord);
		printf("%s: %lu\n", coord, count);
		total += count;
	}
	printf("Nodes searched: %lu\n", total);
	return san_round_trip(&g, fen, 1) == 0 ? 0 : 1;
}

int
main(int argc, char **argv)
{
	char line[512];
	int status = 0;

	if (argc > 1 && strncmp(argv[1], "--variant=", 10) == 0) {
		variant = fb_variant_find(argv[1] + 10, strlen(argv[1] + 10));
		if (variant == NULL) {
			fprintf(stderr, "perft_driver: unknown variant %s\n",
				argv[1] + 10);
			return 2;
		}
		argv++;
		argc--;
	}
	if (argc == 3)
		return run(atoi(argv[1]), argv[2]);
	if (argc != 1) {
		fprintf(stderr,
			"usage: perft_driver [--variant=NAME] [DEPTH FEN]\n");
		return 2;
	}
	while (fgets(line, sizeof line, stdin) != NULL) {
		char *fen;
		int depth = (int)strtol(line, &fen, 10);
		line[strcspn(line, "\r\n")] = '\0';
		fen += strspn(fen, " ");
		if (depth < 1 || *fen == '\0')
			continue;
		status |= run(depth, fen);
		fflush(stdout);
	}
	return status;
}
