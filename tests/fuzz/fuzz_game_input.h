/* SPDX-License-Identifier: MIT */
/*
 * The start of a game-driven fuzz input (fuzz_game, fuzz_movegen): a first
 * line that is a FEN, or "capablanca" or "gothic"; any other line that is
 * not a valid FEN gives the normal start position.
 */
#ifndef FENBRIDGE_FUZZ_GAME_INPUT_H
#define FENBRIDGE_FUZZ_GAME_INPUT_H

#include "fenbridge/fen.h"
#include "fenbridge/game.h"
#include "fenbridge/variant.h"
#include "fuzz_common.h"

/* Sets g from the first line of d[0..size); returns that line's length
 * (the moves follow from there). */
static inline size_t
fz_game_from_first_line(struct fb_game *g, const char *d, size_t size)
{
	const char *nl = memchr(d, '\n', size);
	size_t first = nl != NULL ? (size_t)(nl - d) : size;
	struct fb_fen fen;
	/* An exact-size copy: ASan sees any read past the line. */
	char *head = malloc(first ? first : 1);

	CHECK(head != NULL);
	memcpy(head, d, first);
	if ((first == 10 && memcmp(head, "capablanca", 10) == 0) ||
	    (first == 6 && memcmp(head, "gothic", 6) == 0))
		fb_game_start(g, fb_variant_find(head, first)->start);
	else if (fb_fen_parse(&fen, head, first, NULL) == 0)
		*g = fen.pos;
	else
		fb_game_start(g, fb_variant_normal->start);
	free(head);
	return first;
}

#endif
