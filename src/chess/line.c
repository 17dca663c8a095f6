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

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(FB_LINE_NO_SIMD)
#include <immintrin.h>
#endif

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
 * The offset of the first CR or LF in p[0..n), or n. Either ends a line, so
 * one pass finds the end whatever it is (a memchr for LF and one for CR
 * would read every byte twice). Every byte b of 0x08..0x0f, CR and LF
 * among them, has b | 7 == 0x0f: one compare per vector, and the rare other
 * candidates (tab, BS, VT, FF, SO, SI) are looked at one by one. 32 bytes
 * at a time where the CPU has AVX2 (asked once), 16 (SSE2: every x86-64)
 * otherwise; the last vector overlaps the one before instead of reading
 * past the end. Elsewhere, or built with FB_LINE_NO_SIMD, byte by byte.
 */
static size_t
eol_scalar(const char *p, size_t i, size_t n)
{
	while (i < n && p[i] != '\n' && p[i] != '\r')
		i++;
	return i;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(FB_LINE_NO_SIMD)
/* The first CR or LF of the 8 bytes at p + at (x86: little-endian), or
 * SIZE_MAX: a candidate is
 * a zero byte of (w | 7...) ^ 0x0f...; the usual test for one marks the
 * lowest exactly and may mark bytes above it, which are looked at too. */
static inline size_t
eol_word(const char *p, size_t at)
{
	const uint64_t ones = 0x0101010101010101u;
	uint64_t w;

	memcpy(&w, p + at, 8);
	w = (w | 7 * ones) ^ 0x0f * ones;
	w = (w - ones) & ~w & 0x80 * ones;
	for (; w != 0; w &= w - 1) {
		size_t k = at + ((size_t)__builtin_ctzll(w) >> 3);
		if (p[k] == '\n' || p[k] == '\r')
			return k;
	}
	return SIZE_MAX;
}

/* The first CR or LF among the candidates of mask m (bit k: p[at + k]),
 * or SIZE_MAX. */
static inline size_t
eol_in_mask(const char *p, size_t at, uint64_t m)
{
	while (m != 0) {
		size_t k = at + (size_t)__builtin_ctzll(m);
		if (p[k] == '\n' || p[k] == '\r')
			return k;
		m &= m - 1;
	}
	return SIZE_MAX;
}

/* eol for p[i..n) when 8 <= n - i <= 16: two words, overlapping. */
static size_t
eol_words(const char *p, size_t i, size_t n)
{
	size_t k = eol_word(p, i);

	if (k == SIZE_MAX &&
	    (n - i == 8 || (k = eol_word(p, n - 8)) == SIZE_MAX))
		k = n;
	return k;
}

/* The candidates of the 16 bytes at p + at, as a bit mask. */
static inline uint32_t
eol_mask16(const char *p, size_t at)
{
	__m128i v = _mm_loadu_si128((const void *)(p + at));

	return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
		_mm_or_si128(v, _mm_set1_epi8(7)), _mm_set1_epi8(0x0f)));
}

/* eol for p[i..n) of fewer than 32 bytes, none past the end read. */
static size_t
eol_short(const char *p, size_t i, size_t n)
{
	size_t k;

	if (n - i >= 16) {
		uint32_t m = eol_mask16(p, i) |
			     (eol_mask16(p, n - 16) << (n - 16 - i));
		k = m != 0 ? eol_in_mask(p, i, m) : SIZE_MAX;
		return k != SIZE_MAX ? k : n;
	}
	if (n - i >= 8)
		return eol_words(p, i, n);
	return eol_scalar(p, i, n);
}

__attribute__((target("avx2"))) static size_t
eol_avx2(const char *p, size_t n)
{
	const __m256i seven = _mm256_set1_epi8(7), f = _mm256_set1_epi8(0x0f);
	const char *q = p, *end = p + n;
	size_t k;

#define EOL_EQ(at)                                                             \
	_mm256_cmpeq_epi8(                                                     \
		_mm256_or_si256(_mm256_loadu_si256((const void *)(at)),        \
				seven),                                        \
		f)
#define EOL_MASK(at) (uint32_t) _mm256_movemask_epi8(EOL_EQ(at))
	/* 128 bytes a turn, one test for all four vectors: a line is
	 * mostly found in the first turn, a game's long position line is
	 * most of the bytes. */
	for (; end - q >= 128; q += 128) {
		__m256i e0 = EOL_EQ(q), e1 = EOL_EQ(q + 32);
		__m256i e2 = EOL_EQ(q + 64), e3 = EOL_EQ(q + 96);
		__m256i any = _mm256_or_si256(_mm256_or_si256(e0, e1),
					      _mm256_or_si256(e2, e3));
		uint64_t m;
		if (_mm256_testz_si256(any, any))
			continue;
		m = (uint32_t)_mm256_movemask_epi8(e0) |
		    (uint64_t)(uint32_t)_mm256_movemask_epi8(e1) << 32;
		if (m != 0 &&
		    (k = eol_in_mask(p, (size_t)(q - p), m)) != SIZE_MAX)
			return k;
		m = (uint32_t)_mm256_movemask_epi8(e2) |
		    (uint64_t)(uint32_t)_mm256_movemask_epi8(e3) << 32;
		if (m != 0 &&
		    (k = eol_in_mask(p, (size_t)(q - p) + 64, m)) != SIZE_MAX)
			return k;
	}
	for (; end - q >= 32; q += 32) {
		uint32_t m = EOL_MASK(q);
		if (m != 0 &&
		    (k = eol_in_mask(p, (size_t)(q - p), m)) != SIZE_MAX)
			return k;
	}
	if (q < end && n >= 32) {
		const char *at = end - 32;
		uint32_t m = EOL_MASK(at) & (~0u << (q - at));
		k = m != 0 ? eol_in_mask(p, (size_t)(at - p), m) : SIZE_MAX;
		return k != SIZE_MAX ? k : n;
	}
#undef EOL_MASK
#undef EOL_EQ
	return q < end ? eol_short(p, (size_t)(q - p), n) : n;
}

static size_t
eol_sse2(const char *p, size_t n)
{
	size_t i = 0, k;

	for (; i + 32 <= n; i += 32) {
		uint32_t m = eol_mask16(p, i) | eol_mask16(p, i + 16) << 16;
		if (m != 0 && (k = eol_in_mask(p, i, m)) != SIZE_MAX)
			return k;
	}
	return i < n ? eol_short(p, i, n) : n;
}

/* Whether eol_avx2 may run: asked once, then per push (not per line). */
static bool
eol_wide(void)
{
	static int avx2 = -1;

	if (avx2 < 0)
		avx2 = __builtin_cpu_supports("avx2") != 0;
	return avx2 != 0;
}

static inline size_t
find_eol(const char *p, size_t n, bool wide)
{
	/* A short line alone in its read (isready, readyok): no vectors */
	if (n < 16)
		return n >= 8 ? eol_words(p, 0, n) : eol_scalar(p, 0, n);
	return wide ? eol_avx2(p, n) : eol_sse2(p, n);
}
#else
static bool
eol_wide(void)
{
	return false;
}

static inline size_t
find_eol(const char *p, size_t n, bool wide)
{
	(void)wide;
	return eol_scalar(p, 0, n);
}
#endif

/*
 * Returns the offset of the first terminator in p[0..n), or n if none, and
 * its length in *term (CRLF is one terminator of 2 bytes).
 */
static inline size_t
find_term(const char *p, size_t n, size_t *term, bool wide)
{
	size_t at = find_eol(p, n, wide);

	if (at == n)
		*term = 0;
	else if (p[at] == '\r' && at + 1 < n && p[at + 1] == '\n')
		*term = 2;
	else
		*term = 1;
	return at;
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
	bool wide = eol_wide();

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
		size_t term, at = i + find_term(data + i, n - i, &term, wide);
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
