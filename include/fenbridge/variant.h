/* SPDX-License-Identifier: MIT */
/*
 * The one table of chess variants fenbridge knows: their names in each
 * protocol (XBoard `variant`, UCI `UCI_Variant`, the PGN `Variant` tag),
 * board width, start position, whether castling follows the king-and-rook
 * rules that game.c reads, and the X-FEN castling prefix. UCI, XBoard and
 * `fenbridge convert` all read this table.
 *
 * Pure code: a const table and lookups.
 */
#ifndef FENBRIDGE_VARIANT_H
#define FENBRIDGE_VARIANT_H

#include <stdbool.h>
#include <stddef.h>

#include "fenbridge/game.h"

struct fb_variant {
	const char *name; /* XBoard's name: "fischerandom" */
	const char *uci;  /* the usual UCI_Variant value: "chess960" */
	/* Other names, in any protocol or PGN tag, NULL-terminated. */
	const char *const *aliases;
	unsigned width; /* files: 8 or 10 */
	/* White's back rank at the start, or NULL: a random start (the GUI
	 * sends the position). */
	const char *start;
	/* Castling is written O-O by an XBoard GUI (FRC-style variants). */
	bool random;
	/* fenbridge follows its games: castling moves are translated and
	 * the referee judges them (with rules below). Otherwise FENs are
	 * translated, moves pass. */
	bool follow;
	char prefix; /* X-FEN castling prefix ('s', 'm') or 0 */
	/* A random variant's fixed-start sibling (fischerandom: normal): an
	 * engine that knows only that one plays it in standard notation.
	 * NULL for the others. */
	const char *base;
	/* Where king and rook castle to, what a pawn becomes; NULL: the
	 * standard rules of the width (fb_game_rules). */
	const struct fb_rules *rules;
};

/* The variant of standard chess (the default of every protocol). */
extern const struct fb_variant *const fb_variant_normal;

/*
 * Finds the variant named name[0..n) in any of its names, ignoring case
 * ("chess960", "fischerandom", "Chess960", "FRC" are one). Returns NULL for
 * a variant fenbridge does not know.
 */
const struct fb_variant *
fb_variant_find(const char *name, size_t n);

/* White's back rank at the start of a game of v: its fixed start, or for a
 * random variant (whose GUI sends the position) the start of its board's
 * standard game ("RNBQKBNR", "RNABQKBCNR"). For fb_game_start(). */
const char *
fb_variant_start_row(const struct fb_variant *v);

/* Gives g (a position of a game of v, or of an unknown variant when v is
 * NULL) v's castling and promotion rules: a FEN read or a board set up is
 * played by them from then on. A board of another width keeps the
 * standard rules of its width. */
void
fb_variant_apply(const struct fb_variant *v, struct fb_game *g);

/* Sets g to the start of a game of v (fb_variant_start_row) with v's
 * rules. */
void
fb_variant_start(const struct fb_variant *v, struct fb_game *g);

/* The number of variants in the table, the i-th, and v's index. */
size_t
fb_variant_count(void);
const struct fb_variant *
fb_variant_at(size_t i);
size_t
fb_variant_index(const struct fb_variant *v);

#endif
