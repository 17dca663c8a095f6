/* SPDX-License-Identifier: MIT */
/*
 * fuzz_line: the line framer (src/chess/line.c).
 *
 * The input is pushed through fresh framers in several ways: in one push;
 * one byte at a time; in pieces whose lengths come from the input's first
 * bytes; in pieces that cut right after every CR (the CRLF-across-pushes
 * case). Each with a small cap (64) and with the default cap. For each:
 *  - the concatenation of every handed-on text[0..len+term) is the input,
 *    byte for byte (nothing lost, duplicated or reordered);
 *  - each callback is well formed: term 0..2 and a real terminator (LF, CR
 *    or CRLF) that does not occur inside the text; a CONT piece is exactly
 *    "\n"; only the last piece may be UNTERMINATED; lines not flagged RAW
 *    fit the cap;
 *  - the sequence of lines is the same for every split: CONT pieces are
 *    joined to the line before them (a CR then its LF is one CRLF line) and
 *    RAW pieces of one overlong line are joined; the result (bytes,
 *    terminator, RAW, UNTERMINATED) must not depend on where the input was
 *    cut.
 *  - nothing stays pending after fb_line_finish, and fb_line_free frees all.
 * Once at start (LLVMFuzzerInitialize), the same checks on a few fixed
 * 68 KiB streams with a 66 KiB cap: lines past 64 KiB, where the framer
 * gives its grown buffer back.
 */
#include <stdbool.h>

#include "fenbridge/line.h"
#include "fuzz_common.h"

#define SMALL_MAX 64

struct run {
	size_t max;
	struct fz_buf all;   /* every byte handed on */
	struct fz_buf lines; /* normalised line records */
	/* the line being assembled (RAW pieces and a trailing CONT) */
	struct fz_buf cur;
	size_t cur_term;
	unsigned cur_flags;
	bool have_cur;
	bool cur_open; /* a RAW piece without terminator: more pieces follow */
	bool done;     /* an UNTERMINATED piece was seen: must be the last */
};

/* Appends the finished line: [flags][term][len:8][bytes]. */
static void
close_line(struct run *r)
{
	unsigned char hdr[10];
	size_t len = r->cur.len;

	if (!r->have_cur)
		return;
	hdr[0] = (unsigned char)r->cur_flags;
	hdr[1] = (unsigned char)r->cur_term;
	memcpy(hdr + 2, &len, sizeof len);
	fz_buf_add(&r->lines, hdr, sizeof hdr);
	fz_buf_add(&r->lines, r->cur.p, r->cur.len);
	r->cur.len = 0;
	r->have_cur = false;
	r->cur_open = false;
}

static void
on_line(void *ctx, const char *text, size_t len, size_t term, unsigned flags)
{
	struct run *r = ctx;

	CHECK(!r->done);
	CHECK((flags & ~7u) == 0);
	CHECK(term <= 2);
	CHECK(len + term > 0);
	fz_buf_add(&r->all, text, len + term);
	/* No terminator inside the text, a real one after it. */
	CHECK(memchr(text, '\n', len) == NULL &&
	      memchr(text, '\r', len) == NULL);
	if (term == 1)
		CHECK(text[len] == '\n' || text[len] == '\r');
	if (term == 2)
		CHECK(text[len] == '\r' && text[len + 1] == '\n');

	if (flags & FB_LINE_CONT) {
		/* The LF of a CRLF whose CR closed the line before. */
		CHECK(flags == FB_LINE_CONT && len == 0 && term == 1 &&
		      text[0] == '\n');
		CHECK(r->have_cur && !r->cur_open && r->cur_term == 1);
		r->cur_term = 2;
		close_line(r);
		return;
	}
	if (flags & FB_LINE_UNTERMINATED) {
		CHECK(term == 0);
		r->done = true;
	}
	if (!(flags & FB_LINE_RAW))
		CHECK(len + (term > 0) <= r->max);
	if (r->cur_open) {
		/* Later piece of an overlong line. */
		CHECK(flags & FB_LINE_RAW);
		fz_buf_add(&r->cur, text, len);
		r->cur_term = term;
		r->cur_flags |= flags & FB_LINE_UNTERMINATED;
		r->cur_open = term == 0;
	} else {
		close_line(r);
		r->have_cur = true;
		fz_buf_add(&r->cur, text, len);
		r->cur_term = term;
		r->cur_flags = flags;
		r->cur_open = (flags & FB_LINE_RAW) && term == 0;
	}
	/* A CR may still get its LF as a CONT piece: keep the line open for
	 * that; anything else ends it now. */
	if (!r->cur_open && !(term == 1 && text[len] == '\r'))
		close_line(r);
}

/* Cut points: split(i) gives the length of the next push (>= 1). */
enum split_kind { WHOLE, BYTES, FROM_INPUT, AFTER_CR, BEFORE_LF, NSPLITS };

static size_t
next_len(enum split_kind k, const uint8_t *d, size_t size, size_t at,
	 unsigned *step)
{
	size_t left = size - at, n = left;

	switch (k) {
	case WHOLE:
		break;
	case BYTES:
		n = 1;
		break;
	case FROM_INPUT: {
		/* Lengths 1..16 from the first 8 bytes, cycling. */
		uint8_t b = size > 0 ? d[*step % (size < 8 ? size : 8)] : 0;
		n = (size_t)(b % 16) + 1;
		(*step)++;
		break;
	}
	case AFTER_CR: {
		const uint8_t *cr = memchr(d + at, '\r', left);
		n = cr != NULL ? (size_t)(cr - (d + at)) + 1 : left;
		break;
	}
	case BEFORE_LF: {
		/* Cut before each LF and after each run of 7 bytes. */
		const uint8_t *lf = memchr(d + at + 1, '\n', left - 1);
		n = lf != NULL ? (size_t)(lf - (d + at)) : left;
		if (n > 7)
			n = 7;
		break;
	}
	default:
		break;
	}
	return n < left ? n : left;
}

static void
run_split(struct run *r, enum split_kind k, const uint8_t *d, size_t size,
	  size_t max)
{
	struct fb_line lf;
	size_t at = 0;
	unsigned step = 0;

	/* Keep the buffers of the last run (fewer allocations, faster). */
	struct fz_buf all = r->all, lines = r->lines, cur = r->cur;

	memset(r, 0, sizeof *r);
	r->all = all;
	r->lines = lines;
	r->cur = cur;
	r->all.len = r->lines.len = r->cur.len = 0;
	r->max = max;
	fb_line_init(&lf, max);
	/* Each push comes from an exact-size window so ASan sees a read
	 * before or past the piece. */
	struct fz_window win;

	fz_window_init(&win, size);
	while (at < size) {
		size_t n = next_len(k, d, size, at, &step);
		char *piece;

		CHECK(n > 0);
		piece = fz_window_put(&win, d + at, n);
		CHECK(fb_line_push(&lf, piece, n, on_line, r) == 0);
		CHECK(fb_line_pending(&lf) <= max);
		at += n;
	}
	fz_window_free(&win);
	CHECK(fb_line_push(&lf, "", 0, on_line, r) == 0); /* empty push */
	fb_line_finish(&lf, on_line, r);
	CHECK(fb_line_pending(&lf) == 0);
	close_line(r);
	fb_line_free(&lf);

	CHECK(r->all.len == size);
	CHECK(size == 0 || memcmp(r->all.p, d, size) == 0);
}

#define BIG_STREAM (68 * 1024)
#define BIG_MAX (66 * 1024)

/* Compares the lines of stream[0..n) framed whole and in pieces. */
static void
check_splits(const uint8_t *stream, size_t n, size_t max, struct run *ref,
	     struct run *r)
{
	run_split(ref, WHOLE, stream, n, max);
	for (int k = WHOLE + 1; k < NSPLITS; k++) {
		if (k == BYTES && n > 4096)
			continue; /* slow, and nothing new */
		run_split(r, (enum split_kind)k, stream, n, max);
		CHECK(r->lines.len == ref->lines.len);
		CHECK(r->lines.len == 0 ||
		      memcmp(r->lines.p, ref->lines.p, r->lines.len) == 0);
	}
}

/* Reused from input to input; reachable, so not a leak. */
static struct run ref_run, cur_run;

/*
 * Once at start: lines past 64 KiB (where the framer gives its grown buffer
 * back) with a 66 KiB cap, from a few fixed patterns repeated to 68 KiB. Not
 * per input: such inputs are slow and would crowd the corpus.
 */
int
LLVMFuzzerInitialize(int *argc, char ***argv);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const patterns[] = {
		"x", "info string abc", "\r\nx", "abc\r", "\n", "\rx",
	};
	uint8_t *big = malloc(BIG_STREAM);

	(void)argc;
	(void)argv;
	CHECK(big != NULL);
	for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
		size_t n = strlen(patterns[p]);
		for (size_t i = 0; i < BIG_STREAM; i++)
			big[i] = (uint8_t)patterns[p][i % n];
		/* One overlong line in the middle, then the pattern again. */
		memset(big + 100, 'y', 66 * 1024);
		check_splits(big, BIG_STREAM, BIG_MAX, &ref_run, &cur_run);
	}
	free(big);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t maxes[] = {SMALL_MAX, FB_LINE_DEFAULT_MAX};

	for (size_t m = 0; m < sizeof maxes / sizeof maxes[0]; m++)
		check_splits(data, size, maxes[m], &ref_run, &cur_run);
	return 0;
}
