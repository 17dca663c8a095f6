/* SPDX-License-Identifier: MIT */
/*
 * The variant table (see variant.h). Names come from the CECP spec's list
 * of variants, the UCI_Variant values of Fairy-Stockfish and Sjaak, and the
 * PGN Variant tags of ChessBase, Shredder and cutechess.
 *
 * No I/O in this file.
 */
#include "fenbridge/variant.h"

#include <strings.h>
#include <string.h>

/* White's back rank in the fixed starts. */
#define START_NORMAL "RNBQKBNR"
#define START_CAPABLANCA "RNABQKBCNR"
#define START_GOTHIC "RNBQCKABNR"
#define START_JANUS "RJNBKQBNJR"
#define START_EMBASSY "RNBQKCABNR"

/* Janus: the king castles to the i- or b-file, the rook beside it (h, c);
 * Embassy (a mirrored Capablanca with the king on e): to the h- or
 * b-file, rook g or c. As Fairy-Stockfish plays them (its variant.cpp:
 * castlingKingsideFile, castlingQueensideFile) and `go perft` counts. */
static const struct fb_rules janus_rules = {4, {8, 1}, {7, 2}, "qrbnj"};
static const struct fb_rules embassy_rules = {4, {7, 1}, {6, 2}, "qrbnac"};

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})

static const struct fb_variant variants[] = {
	{"normal", "chess",
	 NAMES("standard", "fide_chess", "classical", "from position"), 8,
	 START_NORMAL, false, true, 0, NULL, NULL},
	{"fischerandom", "chess960",
	 NAMES("fischerrandom", "frc", "960", "chess 960", "fischer random",
	       "fischerandom chess", "fischer random chess",
	       "chess960 (fischer random)"),
	 8, NULL, true, true, 0, "normal", NULL},
	{"capablanca", "capablanca", NAMES("capablanca chess"), 10,
	 START_CAPABLANCA, false, true, 0, NULL, NULL},
	{"caparandom", "caparandom",
	 NAMES("capablancarandom", "crc", "capablanca random",
	       "capablanca random chess"),
	 10, NULL, true, true, 0, "capablanca", NULL},
	{"gothic", "gothic", NAMES("gothic chess"), 10, START_GOTHIC, false,
	 true, 0, NULL, NULL},
	/* Janus castles symmetrically (king to b or i): the X-FEN prefix s
	 * on its FENs toward an X-FEN side. */
	{"janus", "janus", NAMES("janus chess"), 10, START_JANUS, false, true,
	 's', NULL, &janus_rules},
	/* Embassy castles the king three files (modern castling, prefix m). */
	{"embassy", "embassy", NAMES("embassy chess"), 10, START_EMBASSY, false,
	 true, 'm', NULL, &embassy_rules},
};

const struct fb_variant *const fb_variant_normal = &variants[0];

static bool
same(const char *word, const char *name, size_t n)
{
	return strlen(word) == n && strncasecmp(word, name, n) == 0;
}

const struct fb_variant *
fb_variant_find(const char *name, size_t n)
{
	for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
		const struct fb_variant *v = &variants[i];
		if (same(v->name, name, n) || same(v->uci, name, n))
			return v;
		for (const char *const *a = v->aliases; *a != NULL; a++)
			if (same(*a, name, n))
				return v;
	}
	return NULL;
}

const char *
fb_variant_start_row(const struct fb_variant *v)
{
	if (v->start != NULL)
		return v->start;
	return v->width == 10 ? START_CAPABLANCA : START_NORMAL;
}

void
fb_variant_apply(const struct fb_variant *v, struct fb_game *g)
{
	g->rules = v != NULL && v->width == g->width ? v->rules : NULL;
}

void
fb_variant_start(const struct fb_variant *v, struct fb_game *g)
{
	fb_game_start(g, fb_variant_start_row(v));
	fb_variant_apply(v, g);
}

size_t
fb_variant_count(void)
{
	return sizeof variants / sizeof variants[0];
}

const struct fb_variant *
fb_variant_at(size_t i)
{
	return i < fb_variant_count() ? &variants[i] : NULL;
}

size_t
fb_variant_index(const struct fb_variant *v)
{
	return (size_t)(v - variants);
}
