/* SPDX-License-Identifier: MIT */
/*
 * The start of a game-driven fuzz input (fuzz_game, fuzz_movegen): a first
 * line that is a FEN, a fixed-start variant's name ("capablanca", "gothic",
 * "janus", "embassy": its start and rules) or such a name, a blank and a
 * FEN (the FEN by that variant's rules); any other line gives the normal
 * start position.
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
	const struct fb_variant *v;
	const char *sp;
	/* An exact-size copy: ASan sees any read past the line. */
	char *head = malloc(first ? first : 1);

	CHECK(head != NULL);
	memcpy(head, d, first);
	/* A variant's name: its start and its rules (capablanca, gothic,
	 * janus, embassy: each castles to its own files); "janus FEN": the
	 * FEN played by its rules. */
	if ((v = fb_variant_find(head, first)) != NULL && v->start != NULL) {
		fb_variant_start(v, g);
	} else if ((sp = memchr(head, ' ', first)) != NULL &&
		   (v = fb_variant_find(head, (size_t)(sp - head))) != NULL &&
		   v->start != NULL &&
		   fb_fen_parse(&fen, sp + 1, first - (size_t)(sp + 1 - head),
				NULL) == 0) {
		*g = fen.pos;
		fb_variant_apply(v, g);
	} else if (fb_fen_parse(&fen, head, first, NULL) == 0) {
		*g = fen.pos;
	} else {
		fb_game_start(g, fb_variant_normal->start);
	}
	free(head);
	return first;
}

#endif
