/* SPDX-License-Identifier: MIT */
/*
 * The quirk table (see quirk.h). Each entry was seen with the Debian 12
 * package of the engine (doc/protocols.md, "What engines accept").
 *
 * No I/O in this file.
 */
#include "quirk.h"

#include <string.h>
#include <strings.h>

static const struct fb_quirk quirks[] = {
	{"Glaurung", NULL, true, false,
	 "reads K/Q as rooks on the a- and h-files in Chess960: it gets "
	 "Shredder-FEN"},
	{"Fairy-Stockfish", "xboard", false, true,
	 "rejects O-O with 'Error (unkown command)' and waits forever: it "
	 "gets castling as king takes rook"},
};

const struct fb_quirk *
fb_quirk_find(const char *name, size_t n, const char *protocol)
{
	for (size_t i = 0; i < sizeof quirks / sizeof quirks[0]; i++) {
		const struct fb_quirk *q = &quirks[i];
		size_t k = strlen(q->name);
		if (n >= k && strncasecmp(name, q->name, k) == 0 &&
		    (q->protocol == NULL || strcmp(q->protocol, protocol) == 0))
			return q;
	}
	return NULL;
}

size_t
fb_quirk_count(void)
{
	return sizeof quirks / sizeof quirks[0];
}

const struct fb_quirk *
fb_quirk_at(size_t i)
{
	return i < fb_quirk_count() ? &quirks[i] : NULL;
}
