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

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})

static const struct fb_variant variants[] = {
	{"normal", "chess",
	 NAMES("standard", "fide_chess", "classical", "from position"), 8,
	 START_NORMAL, false, true, 0, NULL},
	{"fischerandom", "chess960",
	 NAMES("fischerrandom", "frc", "960", "chess 960", "fischer random",
	       "fischerandom chess", "fischer random chess",
	       "chess960 (fischer random)"),
	 8, NULL, true, true, 0, "normal"},
	{"capablanca", "capablanca", NAMES("capablanca chess"), 10,
	 START_CAPABLANCA, false, true, 0, NULL},
	{"caparandom", "caparandom",
	 NAMES("capablancarandom", "crc", "capablanca random",
	       "capablanca random chess"),
	 10, NULL, true, true, 0, "capablanca"},
	{"gothic", "gothic", NAMES("gothic chess"), 10, START_GOTHIC, false,
	 true, 0, NULL},
	/* Janus castles symmetrically (king to b or i): its FENs carry the
	 * X-FEN prefix s and are translated; castling moves pass unchanged. */
	{"janus", "janus", NAMES("janus chess"), 10, NULL, false, false, 's',
	 NULL},
	/* Embassy castles the king three files (modern castling, prefix m):
	 * FENs are translated, castling moves pass unchanged, and its start
	 * (king on e1) is not followed. */
	{"embassy", "embassy", NAMES("embassy chess"), 10, NULL, false, false,
	 'm', NULL},
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
