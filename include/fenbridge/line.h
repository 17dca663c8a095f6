/* SPDX-License-Identifier: MIT */
/*
 * Line framer: bytes in, whole lines out. A line ends in LF, CRLF or a lone
 * CR; its terminator is handed on with it, so a relay that forwards each line
 * as given reproduces the byte stream exactly.
 *
 * Complete lines inside the pushed data are handed on in place (no copy); only
 * a partial line at the end of a push is kept, in a buffer that grows up to a
 * cap. A line longer than the cap is handed on in pieces flagged FB_LINE_RAW,
 * unparsed, and framing resumes after its terminator. Nothing is ever dropped.
 *
 * Pure code: no I/O. The framer's own buffer is the only allocation.
 */
#ifndef FENBRIDGE_LINE_H
#define FENBRIDGE_LINE_H

#include <stdbool.h>
#include <stddef.h>

#define FB_LINE_DEFAULT_MAX (1024 * 1024 + 16)

enum fb_line_flags {
	/* A piece of a line longer than the cap: forward it, do not parse. */
	FB_LINE_RAW = 1,
	/* The LF of a CRLF whose CR ended the previous push (the line was
	 * handed on at the CR): forward it, it is not a line of its own. */
	FB_LINE_CONT = 2,
	/* The last bytes before end of input, without a terminator. */
	FB_LINE_UNTERMINATED = 4,
};

/*
 * Called once per line: text[0..len) is the line without its terminator,
 * text[len..len+term) the terminator (0, 1 or 2 bytes), contiguous. The bytes
 * are borrowed for the duration of the call only.
 */
typedef void (*fb_line_fn)(void *ctx, const char *text, size_t len, size_t term,
			   unsigned flags);

struct fb_line {
	char *buf;
	size_t len;
	size_t cap;
	size_t max;    /* longest line parsed as a line, terminator included */
	bool overlong; /* inside a line over max: passing pieces through */
	bool after_cr; /* the last byte pushed was a CR ending a line */
};

/* Sets up an empty framer whose lines may grow to max bytes. */
void
fb_line_init(struct fb_line *lf, size_t max);

/* Frees the framer's buffer; the struct may be initialised again. */
void
fb_line_free(struct fb_line *lf);

/*
 * Frames data[0..n) and calls fn for every line completed. Returns 0, or
 * FB_ENOSPC (defined in error.h) when the buffer cannot grow; then the
 * partial line is handed on as FB_LINE_RAW and nothing is lost.
 */
int
fb_line_push(struct fb_line *lf, const char *data, size_t n, fb_line_fn fn,
	     void *ctx);

/* End of input: hands on a partial last line, flagged FB_LINE_UNTERMINATED. */
void
fb_line_finish(struct fb_line *lf, fb_line_fn fn, void *ctx);

/* Bytes held in the framer (a partial line). */
size_t
fb_line_pending(const struct fb_line *lf);

#endif
