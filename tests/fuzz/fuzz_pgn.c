/* SPDX-License-Identifier: MIT */
/*
 * fuzz_pgn: PGN/EPD/FEN file scanner (src/chess/pgn.c), above all its PGN tag
 * scanner. The first input byte picks the format (auto, fen, epd, pgn), the
 * selection, the dialect and the buffer's size (256 bytes, to reach the
 * overlong paths, or 64 KiB); the rest is the file. Properties:
 *  - the output and the diagnostics (kind, line, game, column) do not
 *    depend on how the input is cut: one push, one byte at a time, and two
 *    pieces cut where the second byte says;
 *  - every diagnostic has a line within the input, and a game number only
 *    for PGN;
 *  - the output is a fixed point: scanned again with the same settings it
 *    comes out unchanged (translated FENs are canonical, SetUp is there,
 *    selected games are selected again);
 *  - with nothing to change (no '[' and no '/' in the input), the output is
 *    the input.
 */
#include <stdbool.h>

#include "fenbridge/pgn.h"
#include "fuzz_common.h"

struct run {
	struct fz_buf out, diags;
	unsigned long lines;
	bool pgn;
};

static void
on_emit(void *ctx, const char *s, size_t n)
{
	struct run *r = ctx;

	fz_buf_add(&r->out, s, n);
}

static void
on_diag(void *ctx, const struct fb_pgn_diag *d)
{
	struct run *r = ctx;
	char rec[64];
	int n;

	CHECK(d->line >= 1 && d->line <= r->lines);
	CHECK(d->game == 0 || r->pgn);
	CHECK(memchr(d->msg, '\0', sizeof d->msg) != NULL);
	n = snprintf(rec, sizeof rec, "%d %d %lu %lu %zu\n", (int)d->kind,
		     d->code, d->line, d->game, d->column);
	fz_buf_add(&r->diags, rec, (size_t)n);
}

static char buf[65536];

static void
scan(struct run *r, const char *in, size_t n, unsigned mode, size_t step,
     size_t cut)
{
	struct fb_pgn p;
	struct fb_fen_style style = {.notation = mode & 4 ? FB_SHREDDER
							  : FB_XFEN,
				     .keep_ep = (mode & 64) != 0};
	size_t cap = mode & 32 ? 256 : sizeof buf, i = 0;

	memset(r, 0, sizeof *r);
	r->lines = 1;
	for (size_t k = 0; k < n; k++)
		r->lines += in[k] == '\n';
	fb_pgn_init(&p, (enum fb_pgn_format)(mode & 3),
		    (enum fb_pgn_select)((mode >> 3) & 3),
		    mode & 128 ? FB_PGN_VARIANT_KEEP : FB_PGN_VARIANT_AUTO,
		    &style, buf, cap, on_emit, on_diag, r);
	r->pgn = (mode & 3) == FB_PGN_PGN ||
		 ((mode & 3) == FB_PGN_AUTO &&
		  fb_pgn_detect(in, n < FB_PGN_DETECT_MAX
					    ? n
					    : FB_PGN_DETECT_MAX) == FB_PGN_PGN);
	if (cut > 0 && cut < n) {
		fb_pgn_push(&p, in, cut);
		i = cut;
	}
	while (i < n) {
		size_t k = step == 0 || n - i < step ? n - i : step;
		fb_pgn_push(&p, in + i, k);
		i += k;
	}
	fb_pgn_finish(&p);
}

static bool
same(const struct fz_buf *a, const struct fz_buf *b)
{
	return a->len == b->len &&
	       (a->len == 0 || memcmp(a->p, b->p, a->len) == 0);
}

static void
release(struct run *r)
{
	free(r->out.p);
	free(r->diags.p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run whole, bytes, two, again;
	const char *in = (const char *)data + 2;
	unsigned mode;
	size_t n;

	if (size < 2 || size > 20000)
		return 0;
	mode = data[0];
	n = size - 2;
	scan(&whole, in, n, mode, 0, 0);
	scan(&bytes, in, n, mode, 1, 0);
	scan(&two, in, n, mode, 0, n > 0 ? data[1] % (n + 1) : 0);
	CHECK(same(&whole.out, &bytes.out));
	CHECK(same(&whole.diags, &bytes.diags));
	CHECK(same(&whole.out, &two.out));
	CHECK(same(&whole.diags, &two.diags));
	if (memchr(in, '[', n) == NULL && memchr(in, '/', n) == NULL &&
	    ((mode >> 3) & 3) == FB_PGN_ALL) {
		CHECK(whole.out.len == n);
		CHECK(n == 0 || memcmp(whole.out.p, in, n) == 0);
	}
	if (whole.out.len < 40000) {
		scan(&again, whole.out.p ? whole.out.p : "", whole.out.len,
		     mode, 0, 0);
		CHECK(same(&again.out, &whole.out));
		release(&again);
	}
	release(&whole);
	release(&bytes);
	release(&two);
	return 0;
}
