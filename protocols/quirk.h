/* SPDX-License-Identifier: MIT */
/*
 * Engine quirks: what fenbridge knows about particular engines, keyed by
 * the name they give (UCI `id name`, XBoard `feature myname`). Each entry
 * only changes a default: an explicit command-line or INI option wins.
 *
 * Pure code: a const table and a lookup.
 */
#ifndef FB_QUIRK_H
#define FB_QUIRK_H

#include <stdbool.h>
#include <stddef.h>

#include "fenbridge/fen.h"

struct fb_quirk {
	const char *name; /* the engine's name starts with this (any case) */
	const char *protocol; /* "uci", "xboard", or NULL: both */
	/* FENs toward the engine in Shredder-FEN (when --engine-fen=auto). */
	bool shredder_fen;
	/* XBoard: castling as king takes rook instead of O-O, as if the
	 * engine had sent feature oocastle=0 (when --engine-castling=auto). */
	bool kxr_for_oo;
	const char *why; /* for the log */
};

/*
 * Returns the entry for an engine named name[0..n) speaking protocol
 * ("uci" or "xboard"), or NULL.
 */
const struct fb_quirk *
fb_quirk_find(const char *name, size_t n, const char *protocol);

/* The number of entries and the i-th (for tests and --help). */
size_t
fb_quirk_count(void);
const struct fb_quirk *
fb_quirk_at(size_t i);

#endif
