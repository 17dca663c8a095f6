/* SPDX-License-Identifier: MIT */
/*
 * --normalize: a UCI engine's lines tidied for its UCI GUI, only where GUIs
 * and sites are known to trip on what engines get slightly wrong:
 *
 * - `option name X type check default False` (or True): the value in
 *   lowercase (python-chess skips the option otherwise: lichess-bot#1129);
 * - a blank line before the engine's first uciok: dropped;
 * - `info ... score N` (a bare number): `score cp N` (En Croissant shows
 *   "No analysis"); cp, mate, lowerbound, upperbound stay as they are;
 * - `multipv 1` after `info` in an info line that has a score or a pv but
 *   no multipv, while the engine runs one line (lichess's external engine
 *   needs it): its MultiPV as last set (the GUI's setoption, else the
 *   config's), else its option's default, else 1 (no such option);
 * - `id name` longer than FB_NORMALIZE_NAME_MAX bytes: cut there, at a
 *   UTF-8 boundary, the full name in the report (not when the config gives
 *   the engine a name: that replaces it);
 * - no `id author` before uciok: `id author unknown` before it (Shredder
 *   will not install an engine without one; an author fenbridge does not
 *   know is better unnamed than guessed from the engine's name).
 *
 * Every other line, and every other byte of a rewritten one, stays as it
 * came. Each rewrite is reported at debug level. The pair (uci.c) calls
 * this for each engine line before its own reading, only with
 * opt->normalize. The pair UCI GUI + XBoard engine writes its own lines,
 * right but for two: its info lines get `multipv 1` and its engine's
 * myname is cut the same way (uci_xboard/thinking.c, handshake.c).
 *
 * Pure code: no I/O, no allocation.
 */
#ifndef FB_NORMALIZE_H
#define FB_NORMALIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "filter.h"
#include "uci_codec.h"

/* The longest `id name` value a GUI is given (Arena and the Fritz GUIs
 * cut names in their lists well before this). */
#define FB_NORMALIZE_NAME_MAX 64

/* The longest line rewritten (with its terminator): a longer one passes
 * as it came (a pv of 1,000 moves is 5 KB). */
#define FB_NORMALIZE_LINE_MAX 16384

struct fb_normalize {
	bool on;      /* opt->normalize */
	bool renamed; /* the config names the engine: its id name stays */
	bool listed;  /* the engine's first uciok came */
	bool author;  /* an id author came since the last uciok */
	/* The engine's MultiPV: set (by the config or the GUI) or its
	 * option's default; 0 when not a number. */
	long long multipv;
	bool multipv_set;
	char line[FB_NORMALIZE_LINE_MAX];
};

/* One engine line: text[0..len), its terminator text[len..len+term). */
struct fb_normalize_line {
	const char *text;
	size_t len, term;
};

/* Sets up n for a session with options opt (read now, not kept). */
void
fb_normalize_init(struct fb_normalize *n, const struct fb_filter_options *opt);

/*
 * Tidies the engine line *l. Returns false when it is dropped; otherwise
 * *l is the line to relay: as it was, or rewritten into n->line (valid
 * until the next call), with the same terminator. A line of fenbridge's
 * own (`id author unknown`) may go to the GUI through out first.
 */
bool
fb_normalize_engine_line(struct fb_normalize *n, struct fb_normalize_line *l,
			 const struct fb_sink *out);

/* The length of an engine's name[0..len) as a GUI is given it: at most
 * FB_NORMALIZE_NAME_MAX bytes, cut before a UTF-8 sequence that would not
 * fit and before the blanks it would then end in. */
size_t
fb_normalize_name(const char *name, size_t len);

/* A GUI's `setoption` (as the codec read it: s) that went to the engine:
 * MultiPV changes which info lines get `multipv 1`. */
void
fb_normalize_setoption(struct fb_normalize *n, const char *text,
		       const struct fb_uci_setoption *s);

#endif
