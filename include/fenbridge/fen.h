/* SPDX-License-Identifier: MIT */
/*
 * FEN castling dialects: read a FEN in X-FEN or Shredder-FEN (either, mixed,
 * per right) on 8x8 and 10x8 boards and print it in the requested dialect.
 *
 * The rules are those of doc/dialects.md. Only the castling field and, toward
 * X-FEN, the en-passant field may change; every other byte of the input,
 * spacing between fields included, is copied as it was.
 *
 * Pure code: no I/O, no allocation, no globals. Every function works on the
 * caller's memory and is safe to call from several threads on distinct data.
 */
#ifndef FENBRIDGE_FEN_H
#define FENBRIDGE_FEN_H

#include <stdbool.h>
#include <stddef.h>

#include "fenbridge/error.h"
#include "fenbridge/game.h"

#define FB_FEN_MAX_FIELDS 6
#define FB_FEN_MSG_MAX 96
#define FB_FEN_MAX_DIAGS 8
/* Output never exceeds the input by more than this (castling prefix etc.). */
#define FB_FEN_GROWTH 8

/* One diagnostic: what, where (byte offset into the FEN text) and why. */
struct fb_diag {
	int code;
	size_t offset;
	char msg[FB_FEN_MSG_MAX];
};

/*
 * What parsing or translating found wrong. error is 0 or a negative FB_E*
 * code (the FEN is malformed; diag[0] says why). Otherwise ndiag counts
 * dropped impossible rights (FB_W* codes); at most FB_FEN_MAX_DIAGS are kept
 * in diag[] and nmore counts the rest.
 */
struct fb_fen_report {
	int error;
	unsigned ndiag;
	unsigned nmore;
	struct fb_diag diag[FB_FEN_MAX_DIAGS];
};

/*
 * A parsed FEN: the position it describes and where each field stands in
 * the text, so that a rewrite splices only the castling (and e.p.) field
 * and copies every other byte. The text is borrowed: field spans point into
 * the caller's buffer, which must outlive any use of them.
 */
struct fb_fen {
	const char *text;
	size_t len;
	unsigned nfields;
	size_t off[FB_FEN_MAX_FIELDS]; /* field start offsets into text */
	size_t flen[FB_FEN_MAX_FIELDS];
	char prefix; /* X-FEN castling prefix 's' or 'm' as read, or 0 */
	/* The position, impossible rights already dropped; the counters are
	 * 0 and 1 when the FEN has no such field, capped at 9,999,999. */
	struct fb_game pos;
};

/*
 * Parses the FEN in text[0..len). Fields are separated by runs of spaces or
 * tabs; leading and trailing blanks are not allowed (callers trim).
 *
 * Returns 0 when the FEN is understood. Impossible castling rights (king off
 * its back rank, no own rook where a right points) are then already dropped
 * from fen->pos.castle and listed in rep as warnings. Returns a negative FB_E*
 * code when the FEN is malformed; rep->error holds it and rep->diag[0] the
 * offset and reason. rep may be NULL.
 */
int
fb_fen_parse(struct fb_fen *fen, const char *text, size_t len,
	     struct fb_fen_report *rep);

/*
 * Writes the whole FEN in the given style to out (not NUL-terminated): the
 * input with its castling field, and toward X-FEN its en-passant field,
 * replaced. Returns the length written, or FB_ENOSPC. A cap of at least
 * fen->len + FB_FEN_GROWTH is always enough.
 */
int
fb_fen_print(const struct fb_fen *fen, const struct fb_fen_style *style,
	     char *out, size_t cap);

/*
 * Parses in[0..len) and prints it in the given style to out. A malformed FEN
 * is copied to out unchanged (rep->error says why); impossible rights are
 * dropped and reported. Returns the length written (also for a malformed
 * FEN), or FB_ENOSPC when cap is below len + FB_FEN_GROWTH. rep may be NULL.
 */
int
fb_fen_translate(const char *in, size_t len, const struct fb_fen_style *style,
		 char *out, size_t cap, struct fb_fen_report *rep);

/*
 * Parses a dialect name ("xfen", "x-fen", "shredder", "shredder-fen", any
 * case). Returns 0 and sets *out, or FB_EINVAL.
 */
int
fb_fen_parse_notation(const char *name, enum fb_notation *out);

#endif
