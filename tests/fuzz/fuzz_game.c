/* SPDX-License-Identifier: MIT */
/*
 * fuzz_game: game tracking (src/chess/game.c) on positions from FENs and on
 * arbitrary move tokens.
 *
 * Input: a first line that is a FEN, or "startpos", "capablanca" or
 * "gothic" (any other line that is not a valid FEN: the normal start
 * position); then move tokens separated by blanks or newlines. Each token
 * is parsed in the current position and, when it reads as a move, played.
 * After every step:
 *  - castle[][] entries are -1 or a file < width, width is 8 or 10, the
 *    side is white or black, ep_file is -1 or a file < width;
 *  - a king never multiplies (at most one per colour on the board);
 *  - a remaining right belongs to a king on its back rank, on the wing its
 *    rook is on (kings lose their rights when they move);
 *  - a parsed move has squares on the board; a castling move names the
 *    king's square and a rook file that holds the right;
 *  - a castling move printed in each notation (KxR, king move, O-O) fits
 *    its cap, and reads back as the same castling move.
 * fb_game_parse_move failing must leave the game unchanged.
 */
#include <stdbool.h>

#include "fenbridge/game.h"
#include "fuzz_common.h"
#include "fuzz_game_input.h"

static int
back(int col)
{
	return col == FB_WHITE ? 0 : FB_FEN_RANKS - 1;
}

static int
king_on_back_rank(const struct fb_game *g, int col)
{
	char k = col == FB_WHITE ? 'K' : 'k';

	for (int f = 0; f < (int)g->width; f++)
		if (g->board[back(col)][f] == k)
			return f;
	return -1;
}

static void
check_game(const struct fb_game *g)
{
	int kings[2] = {0, 0};

	CHECK(g->width == 8 || g->width == 10);
	CHECK(g->side == FB_WHITE || g->side == FB_BLACK);
	CHECK(g->ep_file == -1 ||
	      (g->ep_file >= 0 && g->ep_file < (int)g->width));
	for (int r = 0; r < FB_FEN_RANKS; r++)
		for (int f = 0; f < FB_FEN_MAX_FILES; f++) {
			char p = g->board[r][f];
			if (f >= (int)g->width)
				CHECK(p == 0);
			kings[0] += p == 'K';
			kings[1] += p == 'k';
		}
	CHECK(kings[0] <= 1 && kings[1] <= 1);
	for (int c = 0; c < 2; c++) {
		int k = king_on_back_rank(g, c);
		for (int w = 0; w < 2; w++) {
			int file = g->castle[c][w];
			CHECK(file == -1 ||
			      (file >= 0 && file < (int)g->width));
			/* The king never moved, so it is where the right was
			 * given, unless it was captured. */
			if (file >= 0 && k >= 0)
				CHECK(w == FB_HSIDE ? file > k : file < k);
			if (file >= 0 && kings[c] == 1)
				CHECK(k >= 0);
		}
	}
	(void)fb_game_can_castle(g);
	(void)fb_game_is_standard_castling(g);
}

static void
check_castle_print(const struct fb_game *g, const struct fb_move *m)
{
	for (int n = FB_CASTLE_KXR; n <= FB_CASTLE_OO; n++) {
		char out[8];
		struct fb_move m2;
		int len = fb_game_print_castle(g, m, (enum fb_castle_notation)n,
					       out, sizeof out);
		if (len == FB_EINVAL) {
			/* Only king notation may be unable to say it. */
			CHECK(n == FB_CASTLE_KING);
			continue;
		}
		CHECK(len >= 3 && len <= 5);
		/* Exact-size buffers: one short is refused. */
		{
			char *exact = malloc((size_t)len), *shorter;
			CHECK(exact != NULL);
			CHECK(fb_game_print_castle(g, m,
						   (enum fb_castle_notation)n,
						   exact, (size_t)len) == len);
			CHECK(memcmp(exact, out, (size_t)len) == 0);
			free(exact);
			shorter = malloc((size_t)len - 1);
			CHECK(shorter != NULL);
			CHECK(fb_game_print_castle(
				      g, m, (enum fb_castle_notation)n, shorter,
				      (size_t)len - 1) == FB_ENOSPC);
			free(shorter);
		}
		/* Reads back as the same castling move, except king takes
		 * rook when the rook is no longer there to be taken. */
		if (fb_game_parse_move(g, out, (size_t)len, &m2) != 0 ||
		    m2.castle != m->castle || m2.from_file != m->from_file ||
		    m2.to_file != m->to_file) {
			char rook = g->side == FB_WHITE ? 'R' : 'r';
			CHECK(n == FB_CASTLE_KXR &&
			      g->board[m->from_rank][m->to_file] != rook);
		}
	}
}

static void
play_token(struct fb_game *g, const char *t, size_t n)
{
	struct fb_game before = *g;
	struct fb_move m;
	char *copy = malloc(n ? n : 1);

	CHECK(copy != NULL);
	memcpy(copy, t, n);
	if (fb_game_parse_move(g, copy, n, &m) < 0) {
		CHECK(memcmp(&before, g, sizeof before) == 0);
		free(copy);
		return;
	}
	free(copy);
	CHECK(memcmp(&before, g, sizeof before) == 0);
	CHECK(m.castle >= -1 && m.castle <= 1);
	if (!m.null) {
		CHECK(m.from_file >= 0 && m.from_file < (int)g->width);
		CHECK(m.to_file >= 0 && m.to_file < (int)g->width);
		CHECK(m.from_rank >= 0 && m.from_rank < FB_FEN_RANKS);
		CHECK(m.to_rank >= 0 && m.to_rank < FB_FEN_RANKS);
	}
	if (m.castle >= 0) {
		int c = m.from_rank == 0 ? FB_WHITE : FB_BLACK;
		CHECK(m.from_rank == back(c) && m.to_rank == m.from_rank);
		CHECK(g->castle[c][m.castle] == m.to_file);
		CHECK(g->board[m.from_rank][m.from_file] ==
		      (c == FB_WHITE ? 'K' : 'k'));
		if (c == g->side)
			check_castle_print(g, &m);
	}
	fb_game_play(g, &m);
	check_game(g);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *d = (const char *)data;
	struct fb_game g;
	size_t first = fz_game_from_first_line(&g, d, size), i;

	check_game(&g);

	for (i = first; i < size;) {
		size_t s;
		while (i < size && (d[i] == ' ' || d[i] == '\t' ||
				    d[i] == '\n' || d[i] == '\r'))
			i++;
		s = i;
		while (i < size && d[i] != ' ' && d[i] != '\t' &&
		       d[i] != '\n' && d[i] != '\r')
			i++;
		if (i > s)
			play_token(&g, d + s, i - s);
	}
	return 0;
}
