/* SPDX-License-Identifier: MIT */
/*
 * fuzz_movegen: legal moves and SAN (src/chess/movegen.c) on positions from
 * FENs and games played from them.
 *
 * Input: a first line that is a FEN, or "capablanca" or "gothic" (any
 * other line that is not a valid FEN: the normal start position); then
 * tokens separated by blanks or newlines. Each token is read with
 * fb_moves_parse; when it is no legal move, its first byte picks one of
 * the legal moves instead, so that random bytes still walk into games.
 * The move is played. In every position reached:
 *  - at most FB_MOVES_MAX moves, each on the board, castles only with a
 *    right, promotions only to a piece of the board's width, onto the
 *    last rank;
 *  - fb_moves_end agrees with the count and fb_moves_in_check;
 * and a token that reads as a move is legal. In the first position every
 * move, and later each move played, is legal by fb_moves_is_legal and
 * reads back as itself from SAN (within 16 bytes) and from its coordinate
 * form in each castling notation that can say it.
 */
#include <stdbool.h>

#include "fenbridge/movegen.h"
#include "fuzz_common.h"
#include "fuzz_game_input.h"

static bool
same(const struct fb_move *a, const struct fb_move *b)
{
	return a->from_file == b->from_file && a->from_rank == b->from_rank &&
	       a->to_file == b->to_file && a->to_rank == b->to_rank &&
	       a->promo == b->promo && a->castle == b->castle && !a->null &&
	       !b->null;
}

/* m read from its printed forms: SAN, then coordinates in each castling
 * notation that can express it. */
static void
check_prints(const struct fb_game *g, const struct fb_move *m)
{
	char out[16];
	struct fb_move back;
	int len = fb_moves_print_san(g, m, out, sizeof out);

	CHECK(len > 0 && len < 16 && out[len] == '\0');
	CHECK(fb_moves_parse(g, out, (size_t)len, &back) == 0);
	CHECK(same(&back, m));
	for (int n = FB_CASTLE_KXR; n <= FB_CASTLE_OO; n++) {
		len = fb_moves_print_coord(g, m, (enum fb_castle_notation)n,
					   out, sizeof out);
		if (len == FB_EINVAL) {
			CHECK(m->castle >= 0 && n == FB_CASTLE_KING);
			continue;
		}
		CHECK(len >= 3 && len <= 5 && out[len] == '\0');
		/* KxR needs the rook on its square; it is, in a legal
		 * castle. */
		CHECK(fb_moves_parse(g, out, (size_t)len, &back) == 0);
		CHECK(same(&back, m));
		if (m->castle < 0)
			break; /* the same string in every notation */
	}
}

/* Every move's prints are checked in the first position only, and then
 * the moves played: enough to cover SAN in every position while one input
 * stays fast (each print and parse generates the moves again). */
static void
check_position(const struct fb_game *g, struct fb_move *moves, size_t *n,
	       bool all)
{
	int last = g->side == FB_WHITE ? FB_FEN_RANKS - 1 : 0;
	enum fb_game_end end;

	*n = fb_moves_legal(g, moves);
	CHECK(*n <= FB_MOVES_MAX);
	end = fb_moves_end(g);
	CHECK((*n == 0) == (end != FB_END_NONE));
	if (*n == 0)
		CHECK((end == FB_END_CHECKMATE) == fb_moves_in_check(g));
	for (size_t i = 0; i < *n; i++) {
		const struct fb_move *m = &moves[i];
		CHECK(m->from_file >= 0 && m->from_file < (int)g->width);
		CHECK(m->to_file >= 0 && m->to_file < (int)g->width);
		CHECK(m->from_rank >= 0 && m->from_rank < FB_FEN_RANKS);
		CHECK(m->to_rank >= 0 && m->to_rank < FB_FEN_RANKS);
		CHECK(!m->null && m->castle >= -1 && m->castle <= 1);
		if (m->castle >= 0)
			CHECK(g->castle[g->side][m->castle] == m->to_file);
		if (m->promo) {
			CHECK(strchr(g->width == 10 ? "qrbnac" : "qrbn",
				     m->promo) != NULL);
			CHECK(m->to_rank == last);
		}
		if (all) {
			CHECK(fb_moves_is_legal(g, m));
			check_prints(g, m);
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *d = (const char *)data;
	struct fb_game g;
	size_t first = fz_game_from_first_line(&g, d, size), i, n;
	struct fb_move moves[FB_MOVES_MAX];
	int plies = 0;

	check_position(&g, moves, &n, true);

	/* A game's plies are bounded so that one input stays fast. */
	for (i = first; i < size && plies < 24;) {
		size_t s;
		struct fb_move m;
		char *tok;
		while (i < size && (d[i] == ' ' || d[i] == '\t' ||
				    d[i] == '\n' || d[i] == '\r'))
			i++;
		s = i;
		while (i < size && d[i] != ' ' && d[i] != '\t' &&
		       d[i] != '\n' && d[i] != '\r')
			i++;
		if (i == s)
			break;
		/* An exact-size copy: ASan sees any read past the token. */
		tok = malloc(i - s);
		CHECK(tok != NULL);
		memcpy(tok, d + s, i - s);
		if (fb_moves_parse(&g, tok, i - s, &m) == 0) {
			CHECK(fb_moves_is_legal(&g, &m));
		} else if (n > 0) {
			m = moves[(unsigned char)tok[0] % n];
		} else {
			free(tok);
			break;
		}
		free(tok);
		check_prints(&g, &m);
		fb_game_play(&g, &m);
		plies++;
		check_position(&g, moves, &n, false);
	}
	return 0;
}
