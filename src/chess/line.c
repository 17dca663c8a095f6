/* SPDX-License-Identifier: MIT */
/*
 * Line framer (see line.h): splits a byte stream into lines ending in LF,
 * CRLF or a lone CR, without adding latency. A CR that ends a push is taken
 * as a line end at once; if the next push starts with LF, that LF is handed
 * on as a continuation, so the bytes still come out exactly as they went in.
 *
 * No I/O in this file; the partial-line buffer is the only allocation.
 */
#include "fenbridge/line.h"

#include <stdlib.h>
#include <string.h>

#include "fenbridge/error.h"

void
fb_line_init(struct fb_line *lf, size_t max)
{
	memset(lf, 0, sizeof *lf);
	lf->max = max;
}

void
fb_line_free(struct fb_line *lf)
{
	free(lf->buf);
	lf->buf = NULL;
	lf->len = lf->cap = 0;
}

size_t
fb_line_pending(const struct fb_line *lf)
{
	return lf->len;
}

/*
 * Returns the offset of the first terminator in p[0..n), or n if none, and
 * its length in *term. any_cr false says p holds no CR (checked once per
 * push: most streams never have one).
 */
static size_t
find_term(const char *p, size_t n, size_t *term, bool any_cr)
{
	const char *nl = memchr(p, '\n', n);
	size_t end = nl != NULL ? (size_t)(nl - p) : n;
	const char *cr = any_cr ? memchr(p, '\r', end) : NULL;

	if (cr != NULL) {
		size_t at = (size_t)(cr - p);
		*term = (at + 1 < n && p[at + 1] == '\n') ? 2 : 1;
		return at;
	}
	*term = nl != NULL ? 1 : 0;
	return end;
}

static int
append(struct fb_line *lf, const char *data, size_t n)
{
	if (lf->len + n > lf->cap) {
		size_t cap = lf->cap ? lf->cap : 256;
		char *p;
		while (cap < lf->len + n)
			cap *= 2;
		if (cap > lf->max)
			cap = lf->max > lf->len + n ? lf->max : lf->len + n;
		p = realloc(lf->buf, cap);
		if (p == NULL)
			return FB_ENOSPC;
		lf->buf = p;
		lf->cap = cap;
	}
	memcpy(lf->buf + lf->len, data, n);
	lf->len += n;
	return 0;
}

/* Hands on the buffered partial line as raw bytes and enters overlong mode. */
static void
spill(struct fb_line *lf, fb_line_fn fn, void *ctx)
{
	if (lf->len > 0)
		fn(ctx, lf->buf, lf->len, 0, FB_LINE_RAW);
	lf->len = 0;
	lf->overlong = true;
	/* Give back a buffer grown for a huge line. */
	if (lf->cap > 64 * 1024) {
		free(lf->buf);
		lf->buf = NULL;
		lf->cap = 0;
	}
}

int
fb_line_push(struct fb_line *lf, const char *data, size_t n, fb_line_fn fn,
	     void *ctx)
{
	size_t i = 0;
	int rc = 0;
	bool any_cr = memchr(data, '\r', n) != NULL;

	if (n > 0 && lf->after_cr) {
		lf->after_cr = false;
		if (data[0] == '\n') {
			fn(ctx, data, 0, 1, FB_LINE_CONT);
			i = 1;
		}
	}
	/*
	 * Against the cap a terminator counts as one byte, CRLF included: a CR
	 * that ends a push is handed on at once, before its LF is seen, so
	 * counting both bytes would make the verdict depend on where the
	 * stream happened to be split.
	 */
	while (i < n) {
		size_t term, at = i + find_term(data + i, n - i, &term, any_cr);
		size_t end = at + term; /* one past the terminator */

		if (term == 0) { /* no terminator: keep the tail */
			if (lf->overlong) {
				fn(ctx, data + i, n - i, 0, FB_LINE_RAW);
			} else if (lf->len + (n - i) > lf->max) {
				spill(lf, fn, ctx);
				fn(ctx, data + i, n - i, 0, FB_LINE_RAW);
			} else if (append(lf, data + i, n - i) < 0) {
				spill(lf, fn, ctx);
				fn(ctx, data + i, n - i, 0, FB_LINE_RAW);
				rc = FB_ENOSPC;
			}
			return rc;
		}
		/* Only a lone CR ending the push may be followed by its LF in
		 * the next push; a whole CRLF there leaves nothing pending. */
		if (end == n && term == 1 && data[at] == '\r')
			lf->after_cr = true;
		if (lf->overlong) {
			fn(ctx, data + i, at - i, term, FB_LINE_RAW);
			lf->overlong = false;
		} else if (lf->len > 0) {
			if (lf->len + (at - i) + 1 > lf->max) {
				spill(lf, fn, ctx);
				fn(ctx, data + i, at - i, term, FB_LINE_RAW);
				lf->overlong = false;
			} else if (append(lf, data + i, end - i) < 0) {
				spill(lf, fn, ctx);
				fn(ctx, data + i, at - i, term, FB_LINE_RAW);
				lf->overlong = false;
				rc = FB_ENOSPC;
			} else {
				fn(ctx, lf->buf, lf->len - term, term, 0);
				lf->len = 0;
			}
		} else {
			fn(ctx, data + i, at - i, term,
			   at - i + 1 > lf->max ? FB_LINE_RAW : 0);
		}
		i = end;
	}
	return rc;
}

void
fb_line_finish(struct fb_line *lf, fb_line_fn fn, void *ctx)
{
	if (lf->len > 0)
		fn(ctx, lf->buf, lf->len, 0,
		   FB_LINE_UNTERMINATED | (lf->overlong ? FB_LINE_RAW : 0));
	lf->len = 0;
	lf->overlong = false;
	lf->after_cr = false;
}
