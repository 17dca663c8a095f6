/* SPDX-License-Identifier: MIT */
/*
 * Shared bits of the libFuzzer targets: a property check that aborts (so
 * libFuzzer records a crash with the input) and a growable byte buffer.
 */
#ifndef FENBRIDGE_FUZZ_COMMON_H
#define FENBRIDGE_FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A violated property: say which and abort, so the input is kept. */
#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: property violated: %s\n",      \
				__FILE__, __LINE__, #cond);                    \
			abort();                                               \
		}                                                              \
	} while (0)

struct fz_buf {
	char *p;
	size_t len, cap;
};

static inline void
fz_buf_add(struct fz_buf *b, const void *data, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		CHECK(b->p != NULL);
		b->cap = cap;
	}
	if (n > 0)
		memcpy(b->p + b->len, data, n);
	b->len += n;
}

/*
 * What a filter sends as its own (a reply, an injected line): whole lines,
 * each ended by "\n", none longer than FB_OWN_LINE_MAX; with one_line,
 * exactly one. (No CR either, where the input was framed as the bridge
 * frames it: the callers that do so check that.)
 */
static inline void
fz_check_own_lines(const char *data, size_t len, bool one_line)
{
	size_t start = 0;

	CHECK(len >= 1 && data[len - 1] == '\n');
	for (size_t i = 0; i < len; i++) {
		if (data[i] != '\n')
			continue;
		CHECK(i + 1 - start <= FB_OWN_LINE_MAX);
		CHECK(!one_line || i + 1 == len);
		start = i + 1;
	}
}

static inline void
fz_buf_free(struct fz_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/*
 * An exact-size view of some bytes without a malloc per piece: the bytes
 * are copied to the start of one buffer (aligned, so ASan's shadow is exact)
 * and the rest of the buffer is poisoned, so reading a byte before or past
 * the piece is reported like an overrun of a malloc'ed piece would be.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define FZ_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define FZ_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#endif
#endif
#ifndef FZ_POISON
#define FZ_POISON(p, n) ((void)(p), (void)(n))
#define FZ_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

struct fz_window {
	char *p;
	size_t cap;
	size_t open; /* bytes at the start not poisoned */
};

static inline void
fz_window_init(struct fz_window *w, size_t cap)
{
	w->cap = cap ? cap : 1;
	w->p = malloc(w->cap);
	CHECK(w->p != NULL);
	FZ_POISON(w->p, w->cap);
	w->open = 0;
}

static inline char *
fz_window_put(struct fz_window *w, const void *data, size_t n)
{
	CHECK(n <= w->cap);
	/* Only the last piece's bytes are open: close them, open these. */
	FZ_POISON(w->p, w->open);
	FZ_UNPOISON(w->p, n);
	w->open = n;
	if (n > 0)
		memcpy(w->p, data, n);
	return w->p;
}

static inline void
fz_window_free(struct fz_window *w)
{
	FZ_UNPOISON(w->p, w->cap);
	free(w->p);
	w->p = NULL;
}

/* What the filter targets check of every report and every followed
 * game: a known level and a short NUL-terminated message; a sane board
 * width, side to move and castling rooks. */
static inline void
fz_check_report(void *ctx, enum fb_level level, const char *msg)
{
	(void)ctx;
	CHECK(level >= FB_LOG_DEBUG && level <= FB_LOG_ERROR);
	CHECK(msg != NULL && strlen(msg) < 512);
}

static inline void
fz_check_game(const struct fb_game *g)
{
	CHECK(g->width == 8 || g->width == 10);
	CHECK(g->side == FB_WHITE || g->side == FB_BLACK);
	for (int c = 0; c < 2; c++)
		for (int w = 0; w < 2; w++)
			CHECK(g->castle[c][w] >= -1 &&
			      g->castle[c][w] < (int)g->width);
}

#endif
