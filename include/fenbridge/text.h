/* SPDX-License-Identifier: MIT */
/*
 * A string built in a caller's buffer, piece by piece, snprintf-style: len
 * counts everything said (so a caller can return it as snprintf does, and
 * tell that the buffer was too small), out holds what fits, NUL-terminated.
 * For the messages and reports fenbridge words (why the engine died, the
 * CPU's features, fenbridge check's report). No I/O.
 */
#ifndef FENBRIDGE_TEXT_H
#define FENBRIDGE_TEXT_H

#include <stddef.h>

struct fb_text {
	char *out;
	size_t cap, len;
};

/* Starts t on out[0..cap), empty. */
void
fb_text_init(struct fb_text *t, char *out, size_t cap);

/* Appends printf(fmt, ...) to t: what fits in out, all of it in len. */
void
fb_text_say(struct fb_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Appends s[0..n) as a JSON string, quotes included: `"` and `\`
 * escaped, control bytes and DEL as \u00XX, a byte that is not part of
 * well-formed UTF-8 as \ufffd (an engine's name is not always UTF-8). */
void
fb_text_json(struct fb_text *t, const char *s, size_t n);

#endif
