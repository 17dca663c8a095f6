/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the line framer (src/chess/line.c): LF, CRLF and lone-CR lines,
 * the terminator handed on with its line, CRLF split between pushes
 * (FB_LINE_CONT), lines over the cap (FB_LINE_RAW pieces, then resync), the
 * unterminated last line, empty lines and NUL bytes.
 *
 * The main property is checked by splitting one input at every byte (and at
 * every pair of bytes, and into 1-byte pushes): the callbacks must give back
 * the input exactly, and the lines they describe, with CONT pieces joined to
 * the line before and RAW pieces joined into their line, must be the same for
 * every split and match a small reference model written here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fenbridge/error.h"
#include "fenbridge/line.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* The small cap of most tests: a line of 15 bytes plus LF is the longest. */
#define SMALL_MAX 16

/* One callback (or, after normalising, one line): offsets into the output. */
struct piece {
	size_t off;
	size_t len;
	size_t term;
	unsigned flags;
};

/* Everything the callbacks handed on, in order. */
struct capture {
	char *out;
	size_t nout;
	size_t capout;
	struct piece *p;
	size_t np;
	size_t capp;
};

static void
capture_free(struct capture *c)
{
	free(c->out);
	free(c->p);
	memset(c, 0, sizeof *c);
}

static void
on_line(void *ctx, const char *text, size_t len, size_t term, unsigned flags)
{
	struct capture *c = ctx;
	size_t n = len + term;

	assert_true(term <= 2);
	if (c->nout + n > c->capout) {
		size_t cap = c->capout ? c->capout : 256;
		while (cap < c->nout + n)
			cap *= 2;
		c->out = realloc(c->out, cap);
		assert_non_null(c->out);
		c->capout = cap;
	}
	if (c->np == c->capp) {
		c->capp = c->capp ? 2 * c->capp : 64;
		c->p = realloc(c->p, c->capp * sizeof *c->p);
		assert_non_null(c->p);
	}
	/* The terminator, when there is one, is the line end it claims to be. */
	if (term == 2)
		assert_true(text[len] == '\r' && text[len + 1] == '\n');
	else if (term == 1)
		assert_true(text[len] == '\r' || text[len] == '\n');
	/* The text itself never holds a terminator. */
	assert_null(memchr(text, '\n', len));
	if (!(flags & FB_LINE_RAW))
		assert_null(memchr(text, '\r', len));
	if (n > 0)
		memcpy(c->out + c->nout, text, n);
	c->p[c->np++] = (struct piece){c->nout, len, term, flags};
	c->nout += n;
}

/*
 * Frames in[0..n) pushed as the pieces [0, cut[0]), [cut[0], cut[1]), ...,
 * [cut[ncut-1], n), then finishes. Each push must succeed.
 */
static void
frame(const char *in, size_t n, size_t max, const size_t *cut, size_t ncut,
      struct capture *c)
{
	struct fb_line lf;
	size_t from = 0;

	memset(c, 0, sizeof *c);
	fb_line_init(&lf, max);
	for (size_t i = 0; i <= ncut; i++) {
		size_t to = i < ncut ? cut[i] : n;
		assert_int_equal(
			fb_line_push(&lf, in + from, to - from, on_line, c), 0);
		from = to;
	}
	fb_line_finish(&lf, on_line, c);
	assert_int_equal(fb_line_pending(&lf), 0);
	fb_line_free(&lf);
}

/* Frames in[0..n) with one push per byte. */
static void
frame_bytewise(const char *in, size_t n, size_t max, struct capture *c)
{
	struct fb_line lf;

	memset(c, 0, sizeof *c);
	fb_line_init(&lf, max);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(fb_line_push(&lf, in + i, 1, on_line, c), 0);
	fb_line_finish(&lf, on_line, c);
	assert_int_equal(fb_line_pending(&lf), 0);
	fb_line_free(&lf);
}

/*
 * Joins the callbacks into lines: a CONT piece (the LF of a CRLF split
 * between pushes) goes onto the line before it, which must have ended in a
 * CR; consecutive RAW pieces make one line, which ends at the first piece
 * with a terminator. Returns the number of lines, written over c->p.
 */
static size_t
normalise(struct capture *c)
{
	size_t nl = 0;
	bool raw_open = false;

	for (size_t i = 0; i < c->np; i++) {
		struct piece p = c->p[i];

		if (p.flags & FB_LINE_CONT) {
			assert_int_equal(p.flags, FB_LINE_CONT);
			assert_int_equal(p.len, 0);
			assert_int_equal(p.term, 1);
			assert_int_equal(c->out[p.off], '\n');
			assert_true(nl > 0);
			assert_int_equal(c->p[nl - 1].term, 1);
			assert_int_equal(c->out[p.off - 1], '\r');
			c->p[nl - 1].term = 2;
			continue;
		}
		if ((p.flags & FB_LINE_RAW) && raw_open) {
			struct piece *l = &c->p[nl - 1];
			assert_int_equal(l->off + l->len, p.off);
			l->len += p.len;
			l->term = p.term;
			l->flags |= p.flags;
		} else {
			c->p[nl++] = p;
		}
		raw_open = (p.flags & FB_LINE_RAW) && p.term == 0;
	}
	c->np = nl;
	return nl;
}

/*
 * The reference model: the lines of in[0..n), each ending at LF, CRLF or a
 * lone CR. A terminated line is over the cap when its text plus one byte of
 * terminator exceeds max (a CRLF counts as one byte here, so that the
 * verdict cannot depend on whether its LF came in the same push as its CR);
 * an unterminated one when its text alone does. Over the cap means
 * FB_LINE_RAW; an unterminated line within the cap is FB_LINE_UNTERMINATED.
 */
static size_t
model(const char *in, size_t n, size_t max, struct piece *out)
{
	size_t nl = 0, i = 0;

	while (i < n) {
		size_t j = i, term = 0;
		unsigned flags;

		while (j < n && in[j] != '\n' && in[j] != '\r')
			j++;
		if (j < n)
			term = (in[j] == '\r' && j + 1 < n && in[j + 1] == '\n')
				       ? 2
				       : 1;
		if (term > 0)
			flags = (j - i) + 1 > max ? FB_LINE_RAW : 0;
		else
			flags = (j - i) > max ? FB_LINE_RAW
					      : FB_LINE_UNTERMINATED;
		out[nl++] = (struct piece){i, j - i, term, flags};
		i = j + term;
	}
	return nl;
}

/*
 * Prints in[0..n) with control bytes escaped, for failure messages. The
 * result lives until the fourth call after this one.
 */
static const char *
show(const char *in, size_t n)
{
	static char bufs[4][1024];
	static unsigned next;
	char *buf = bufs[next++ % 4];
	size_t o = 0;

	for (size_t i = 0; i < n && o + 5 < sizeof bufs[0]; i++) {
		unsigned char ch = (unsigned char)in[i];
		if (ch == '\n')
			o += (size_t)snprintf(buf + o, 5, "\\n");
		else if (ch == '\r')
			o += (size_t)snprintf(buf + o, 5, "\\r");
		else if (ch < 0x20 || ch >= 0x7f)
			o += (size_t)snprintf(buf + o, 5, "\\x%02x", ch);
		else
			buf[o++] = (char)ch;
	}
	buf[o] = '\0';
	return buf;
}

/*
 * Checks one framing of in[0..n): the bytes come back exactly, and the
 * joined lines equal the model's. how names the split in failure messages.
 */
static void
check_framing(const char *in, size_t n, size_t max, struct capture *c,
	      const char *how)
{
	struct piece *want = calloc(n + 1, sizeof *want);
	size_t nw, nl;

	assert_non_null(want);
	if (c->nout != n || (n > 0 && memcmp(c->out, in, n) != 0))
		fail_msg("%s: bytes out differ from '%s'", how, show(in, n));
	nl = normalise(c);
	nw = model(in, n, max, want);
	if (nl != nw)
		fail_msg("%s: %zu lines, want %zu, in '%s'", how, nl, nw,
			 show(in, n));
	for (size_t i = 0; i < nw; i++) {
		struct piece g = c->p[i], w = want[i];
		/* An overlong unterminated tail is passed on as RAW pieces;
		 * whether they also say UNTERMINATED is not pinned here. */
		if (g.flags & FB_LINE_RAW)
			g.flags &= ~(unsigned)FB_LINE_UNTERMINATED;
		if (g.off != w.off || g.len != w.len || g.term != w.term ||
		    g.flags != w.flags)
			fail_msg(
				"%s: line %zu is '%s' term %zu flags %u, want "
				"offset %zu len %zu term %zu flags %u, in '%s'",
				how, i, show(c->out + g.off, g.len), g.term,
				g.flags, w.off, w.len, w.term, w.flags,
				show(in, n));
	}
	free(want);
}

/* The number of CONT pieces among the raw callbacks. */
static size_t
count_cont(const struct capture *c)
{
	size_t k = 0;

	for (size_t i = 0; i < c->np; i++)
		k += (c->p[i].flags & FB_LINE_CONT) != 0;
	return k;
}

static size_t
count_crlf(const char *in, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i + 1 < n; i++)
		k += in[i] == '\r' && in[i + 1] == '\n';
	return k;
}

/*
 * Frames in[0..n) in one push, split at every byte into two pushes, split at
 * every pair of bytes into three, and one byte at a time; checks each.
 */
static void
check_every_split(const char *in, size_t n, size_t max)
{
	struct capture c;
	char how[96];

	frame(in, n, max, NULL, 0, &c);
	check_framing(in, n, max, &c, "one push");
	capture_free(&c);

	for (size_t k = 0; k <= n; k++) {
		size_t cut[1] = {k};
		bool crlf_cut = k > 0 && k < n && in[k - 1] == '\r' &&
				in[k] == '\n';

		frame(in, n, max, cut, 1, &c);
		/* A CRLF cut between CR and LF gives a CONT piece there. */
		if (count_cont(&c) != (crlf_cut ? 1u : 0u))
			fail_msg("split at %zu: %zu CONT pieces, want %d, in "
				 "'%s'",
				 k, count_cont(&c), crlf_cut, show(in, n));
		if (crlf_cut) {
			bool found = false;
			for (size_t i = 0; i < c.np; i++)
				if (c.p[i].flags & FB_LINE_CONT) {
					assert_int_equal(c.p[i].off, k);
					found = true;
				}
			assert_true(found);
		}
		snprintf(how, sizeof how, "split at %zu", k);
		check_framing(in, n, max, &c, how);
		capture_free(&c);
	}

	for (size_t a = 0; a <= n; a++)
		for (size_t b = a; b <= n; b++) {
			size_t cut[2] = {a, b};
			frame(in, n, max, cut, 2, &c);
			snprintf(how, sizeof how, "split at %zu and %zu", a, b);
			check_framing(in, n, max, &c, how);
			capture_free(&c);
		}

	frame_bytewise(in, n, max, &c);
	assert_int_equal(count_cont(&c), count_crlf(in, n));
	check_framing(in, n, max, &c, "1-byte pushes");
	capture_free(&c);
}

/* Checks the single-push framing of a string against explicit lines. */
struct want_line {
	const char *text;
	const char *term;
	unsigned flags;
};

static void
expect_lines(const char *in, size_t n, size_t max, const struct want_line *w,
	     size_t nw)
{
	struct capture c;
	size_t nl;

	frame(in, n, max, NULL, 0, &c);
	assert_int_equal(c.nout, n);
	assert_memory_equal(c.out, in, n);
	nl = normalise(&c);
	if (nl != nw)
		fail_msg("'%s': %zu lines, want %zu", show(in, n), nl, nw);
	for (size_t i = 0; i < nw; i++) {
		struct piece g = c.p[i];
		size_t tl = strlen(w[i].text), rl = strlen(w[i].term);
		if (g.len != tl || memcmp(c.out + g.off, w[i].text, tl) != 0 ||
		    g.term != rl ||
		    memcmp(c.out + g.off + g.len, w[i].term, rl) != 0 ||
		    g.flags != w[i].flags)
			fail_msg("'%s': line %zu is '%s' term %zu flags %u, "
				 "want '%s' flags %u",
				 show(in, n), i, show(c.out + g.off, g.len),
				 g.term, g.flags, w[i].text, w[i].flags);
	}
	capture_free(&c);
}

#define S(lit) lit, sizeof(lit) - 1

static void
test_line_terminators_handed_on_with_line(void **state)
{
	static const struct want_line w[] = {
		{"uci", "\n", 0},
		{"isready", "\r\n", 0},
		{"go", "\r\n", 0},
		{"", "\n", 0},
		{"", "\r", 0},
		{"", "\r\n", 0},
		{"tail", "", FB_LINE_UNTERMINATED},
	};

	(void)state;
	expect_lines(S("uci\nisready\r\ngo\r\n\n\r\r\ntail"), 1024, w,
		     N_ELEMS(w));
}

static void
test_line_every_split_reproduces_input(void **state)
{
	static const struct {
		const char *s;
		size_t n;
	} inputs[] = {
		{S("uci\nisready\r\ngo\r\n\r\r\ntail")},
		{S("\r\n\r\n\n\n\r\r")},
		{S("\n\r\n\r")},
		{S("a\rb\r\nc\n\rd\n\r\ne")},
		{S("position startpos moves e2e4\r\nquit\r\n")},
		{S("\r")},
		{S("\n")},
		{S("x")},
		{S("")},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(inputs); i++) {
		check_every_split(inputs[i].s, inputs[i].n, 1024);
		check_every_split(inputs[i].s, inputs[i].n, SMALL_MAX);
	}
}

/*
 * The framer finds a line end 32 or 16 bytes at a time, and byte values
 * 0x08..0x0f (tab among them) look like CR and LF to its first test: at
 * every length a vector loop and its tail handle, a CR, LF or CRLF at
 * every position among such bytes, framed in one push and in two.
 */
static void
test_line_end_found_at_every_offset(void **state)
{
	static const size_t lens[] = {
		1,   2,   7,   8,   9,   15,  16,  17,  31,  32,  33,
		47,  63,  64,  65,  95,  96,  97,  127, 128, 129, 130,
		159, 160, 161, 191, 192, 193, 255, 256, 257, 300,
	};
	static const char *const ends[] = {"\n", "\r", "\r\n"};
	static const char decoys[] = "\t\x08\x0b\x0c\x0e\x0f";
	char in[320];
	struct capture c;

	(void)state;
	for (size_t li = 0; li < N_ELEMS(lens); li++) {
		size_t n = lens[li];
		for (size_t at = 0; at < n; at++) {
			for (size_t e = 0; e < N_ELEMS(ends); e++) {
				size_t el = strlen(ends[e]);
				size_t cut = at / 2;
				if (at + el > n)
					continue;
				for (size_t i = 0; i < n; i++)
					in[i] = i % 5 == 3
							? decoys[(i / 5) % 6]
							: (char)('a' + i % 26);
				memcpy(in + at, ends[e], el);
				frame(in, n, 1024, NULL, 0, &c);
				check_framing(in, n, 1024, &c, "one push");
				capture_free(&c);
				frame(in, n, 1024, &cut, 1, &c);
				check_framing(in, n, 1024, &c, "two pushes");
				capture_free(&c);
			}
		}
	}
}

static void
test_line_crlf_split_gives_cont_piece(void **state)
{
	static const char in[] = "go\r\nstop\n";
	struct capture c;
	size_t cut[1] = {3}; /* after the CR */

	(void)state;
	frame(in, sizeof in - 1, 1024, cut, 1, &c);
	assert_int_equal(c.np, 3);
	assert_int_equal(c.p[0].len, 2);
	assert_int_equal(c.p[0].term, 1);
	assert_int_equal(c.p[0].flags, 0);
	assert_int_equal(c.out[c.p[0].off + 2], '\r');
	assert_int_equal(c.p[1].off, 3);
	assert_int_equal(c.p[1].len, 0);
	assert_int_equal(c.p[1].term, 1);
	assert_int_equal(c.p[1].flags, FB_LINE_CONT);
	assert_int_equal(c.out[3], '\n');
	assert_int_equal(c.p[2].len, 4);
	assert_int_equal(c.p[2].term, 1);
	assert_int_equal(c.p[2].flags, 0);
	assert_memory_equal(c.out, in, sizeof in - 1);
	capture_free(&c);
}

/* A CR at the end of a push followed by anything but LF is a lone CR. */
static void
test_line_cr_at_push_end_then_other_byte(void **state)
{
	struct fb_line lf;
	struct capture c;

	(void)state;
	memset(&c, 0, sizeof c);
	fb_line_init(&lf, 1024);
	assert_int_equal(fb_line_push(&lf, "a\r", 2, on_line, &c), 0);
	assert_int_equal(fb_line_push(&lf, "", 0, on_line, &c), 0);
	assert_int_equal(fb_line_push(&lf, "b\n", 2, on_line, &c), 0);
	assert_int_equal(fb_line_push(&lf, "\n", 1, on_line, &c), 0);
	fb_line_finish(&lf, on_line, &c);
	fb_line_free(&lf);
	assert_int_equal(c.np, 3);
	assert_int_equal(count_cont(&c), 0);
	assert_int_equal(c.p[0].len, 1);
	assert_int_equal(c.p[1].len, 1);
	assert_int_equal(c.p[2].len, 0); /* "\n" after "b\n": an empty line */
	assert_int_equal(c.p[2].flags, 0);
	assert_memory_equal(c.out, "a\rb\n\n", 5);
	capture_free(&c);
}

/*
 * A whole CRLF at the end of a push leaves nothing pending: an LF starting
 * the next push is an empty line of its own, not a continuation.
 */
static void
test_line_crlf_at_push_end_then_empty_line(void **state)
{
	struct fb_line lf;
	struct capture c;

	(void)state;
	memset(&c, 0, sizeof c);
	fb_line_init(&lf, 1024);
	assert_int_equal(fb_line_push(&lf, "a\r\n", 3, on_line, &c), 0);
	assert_int_equal(fb_line_push(&lf, "\nb\n", 3, on_line, &c), 0);
	fb_line_finish(&lf, on_line, &c);
	fb_line_free(&lf);
	assert_int_equal(c.np, 3);
	assert_int_equal(count_cont(&c), 0);
	assert_int_equal(c.p[0].len, 1);
	assert_int_equal(c.p[0].term, 2);
	assert_int_equal(c.p[1].len, 0);
	assert_int_equal(c.p[1].term, 1);
	assert_int_equal(c.p[1].flags, 0);
	assert_int_equal(c.p[2].len, 1);
	assert_memory_equal(c.out, "a\r\n\nb\n", 6);
	capture_free(&c);
}

/* An empty push between CR and LF keeps the CRLF together. */
static void
test_line_empty_push_between_cr_and_lf(void **state)
{
	struct fb_line lf;
	struct capture c;

	(void)state;
	memset(&c, 0, sizeof c);
	fb_line_init(&lf, 1024);
	assert_int_equal(fb_line_push(&lf, "a\r", 2, on_line, &c), 0);
	assert_int_equal(fb_line_push(&lf, "", 0, on_line, &c), 0);
	assert_int_equal(fb_line_push(&lf, "\nb\n", 3, on_line, &c), 0);
	fb_line_finish(&lf, on_line, &c);
	fb_line_free(&lf);
	assert_int_equal(c.np, 3);
	assert_int_equal(c.p[1].flags, FB_LINE_CONT);
	assert_memory_equal(c.out, "a\r\nb\n", 5);
	capture_free(&c);
}

static void
test_line_cap_boundary_lf_and_cr(void **state)
{
	/* SMALL_MAX counts the terminator: 15 bytes + LF is a line. */
	static const struct want_line w[] = {
		{"abcdefghijklmno", "\n", 0},
		{"abcdefghijklmnop", "\n", FB_LINE_RAW},
		{"ABCDEFGHIJKLMNO", "\r", 0},
		{"ABCDEFGHIJKLMNOP", "\r", FB_LINE_RAW},
		{"after", "\n", 0},
	};

	(void)state;
	expect_lines(S("abcdefghijklmno\nabcdefghijklmnop\n"
		       "ABCDEFGHIJKLMNO\rABCDEFGHIJKLMNOP\rafter\n"),
		     SMALL_MAX, w, N_ELEMS(w));
}

/*
 * A CRLF line whose text is max - 1 bytes: whether its CR and LF come in one
 * push or two must not decide whether it is parsed (the framer cannot wait
 * for the LF after a CR that ends a push), so it is a line either way.
 */
static void
test_line_cap_boundary_crlf_independent_of_split(void **state)
{
	static const struct want_line w[] = {
		{"abcdefghijklmno", "\r\n", 0},
		{"abcdefghijklmnop", "\r\n", FB_LINE_RAW},
		{"next", "\r\n", 0},
	};
	static const char in[] = "abcdefghijklmno\r\nabcdefghijklmnop\r\n"
				 "next\r\n";

	(void)state;
	expect_lines(in, sizeof in - 1, SMALL_MAX, w, N_ELEMS(w));
	check_every_split(in, sizeof in - 1, SMALL_MAX);
}

static void
test_line_overlong_passes_raw_and_resyncs(void **state)
{
	static const char in[] =
		"short\n"
		"0123456789abcdefghijklmnopqrstuvwxyz0123456789\n"
		"ok line\r\n"
		"0123456789abcdefghijklmnopqrstuvwxyz\r\n"
		"0123456789abcdefghijklmnopqrstuvwxyz\r"
		"exactly fifteen\n"
		"exactly sixteen!\n"
		"\n"
		"end\n";
	static const struct want_line w[] = {
		{"short", "\n", 0},
		{"0123456789abcdefghijklmnopqrstuvwxyz0123456789", "\n",
		 FB_LINE_RAW},
		{"ok line", "\r\n", 0},
		{"0123456789abcdefghijklmnopqrstuvwxyz", "\r\n", FB_LINE_RAW},
		{"0123456789abcdefghijklmnopqrstuvwxyz", "\r", FB_LINE_RAW},
		{"exactly fifteen", "\n", 0},
		{"exactly sixteen!", "\n", FB_LINE_RAW},
		{"", "\n", 0},
		{"end", "\n", 0},
	};

	(void)state;
	expect_lines(in, sizeof in - 1, SMALL_MAX, w, N_ELEMS(w));
	check_every_split(in, sizeof in - 1, SMALL_MAX);
}

/* RAW pieces come in order and never hold bytes of the next line. */
static void
test_line_overlong_pieces_in_order_bytewise(void **state)
{
	static const char in[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
				 "uci\n";
	struct capture c;
	size_t raw = 0, nl;

	(void)state;
	frame_bytewise(in, sizeof in - 1, SMALL_MAX, &c);
	assert_int_equal(c.nout, sizeof in - 1);
	assert_memory_equal(c.out, in, sizeof in - 1);
	for (size_t i = 0; i < c.np; i++) {
		if (c.p[i].flags & FB_LINE_RAW) {
			assert_null(memchr(c.out + c.p[i].off, 'u',
					   c.p[i].len + c.p[i].term));
			raw++;
		}
	}
	assert_true(raw >= 2);
	nl = normalise(&c);
	assert_int_equal(nl, 2);
	assert_int_equal(c.p[0].flags, FB_LINE_RAW);
	assert_int_equal(c.p[0].len, 40);
	assert_int_equal(c.p[1].flags, 0);
	assert_int_equal(c.p[1].len, 3);
	assert_memory_equal(c.out + c.p[1].off, "uci\n", 4);
	capture_free(&c);
}

static void
test_line_unterminated_last_line(void **state)
{
	static const struct want_line w1[] = {
		{"quit", "", FB_LINE_UNTERMINATED},
	};
	static const struct want_line w2[] = {
		{"a", "\n", 0},
		{"exactly sixteen!", "", FB_LINE_UNTERMINATED},
	};
	struct fb_line lf;
	struct capture c;

	(void)state;
	expect_lines(S("quit"), 1024, w1, N_ELEMS(w1));
	/* Unterminated, its 16 bytes are within the cap. */
	expect_lines(S("a\nexactly sixteen!"), SMALL_MAX, w2, N_ELEMS(w2));
	check_every_split(S("a\nexactly sixteen!"), SMALL_MAX);
	/* Over the cap, it still comes out, raw, in order. */
	check_every_split(S("a\nexactly seventeen"), SMALL_MAX);

	/* Nothing pending: finish hands on nothing; twice is harmless. */
	memset(&c, 0, sizeof c);
	fb_line_init(&lf, 1024);
	assert_int_equal(fb_line_push(&lf, "go\n", 3, on_line, &c), 0);
	assert_int_equal(fb_line_pending(&lf), 0);
	assert_int_equal(fb_line_push(&lf, "sto", 3, on_line, &c), 0);
	assert_int_equal(fb_line_pending(&lf), 3);
	assert_int_equal(c.np, 1);
	fb_line_finish(&lf, on_line, &c);
	assert_int_equal(fb_line_pending(&lf), 0);
	fb_line_finish(&lf, on_line, &c);
	assert_int_equal(c.np, 2);
	assert_int_equal(c.p[1].flags, FB_LINE_UNTERMINATED);
	assert_int_equal(c.p[1].len, 3);
	assert_int_equal(c.p[1].term, 0);
	/* The framer can be used again after finish. */
	assert_int_equal(fb_line_push(&lf, "p\n", 2, on_line, &c), 0);
	assert_int_equal(c.np, 3);
	assert_int_equal(c.p[2].flags, 0);
	assert_int_equal(c.p[2].len, 1);
	fb_line_free(&lf);
	fb_line_free(&lf);
	capture_free(&c);
}

static void
test_line_nul_bytes_pass_through(void **state)
{
	static const char in[] = "a\0b\n\0\r\n\0\0\rx\0";
	struct capture c;

	(void)state;
	frame(in, sizeof in - 1, 1024, NULL, 0, &c);
	assert_int_equal(normalise(&c), 4);
	assert_int_equal(c.p[0].len, 3);
	assert_memory_equal(c.out + c.p[0].off, "a\0b\n", 4);
	assert_int_equal(c.p[1].len, 1);
	assert_int_equal(c.p[1].term, 2);
	assert_int_equal(c.p[2].len, 2);
	assert_int_equal(c.p[2].term, 1);
	assert_int_equal(c.p[3].len, 2);
	assert_int_equal(c.p[3].flags, FB_LINE_UNTERMINATED);
	capture_free(&c);
	check_every_split(in, sizeof in - 1, 1024);
	check_every_split(in, sizeof in - 1, 3);
}

struct counter {
	size_t lines;
	size_t cont;
	size_t bytes;
	size_t bad;
};

static void
count_line(void *ctx, const char *text, size_t len, size_t term, unsigned flags)
{
	struct counter *k = ctx;

	(void)text;
	k->bytes += len + term;
	if (flags & FB_LINE_CONT)
		k->cont++;
	else if (len == 0 && flags == 0)
		k->lines++;
	else
		k->bad++;
}

static void
test_line_million_empty_lines(void **state)
{
	const size_t n = 1000000;
	char *lf_in = malloc(n), *crlf_in = malloc(2 * n);
	struct fb_line lf;
	struct counter k;

	(void)state;
	assert_non_null(lf_in);
	assert_non_null(crlf_in);
	memset(lf_in, '\n', n);
	for (size_t i = 0; i < n; i++)
		memcpy(crlf_in + 2 * i, "\r\n", 2);

	memset(&k, 0, sizeof k);
	fb_line_init(&lf, SMALL_MAX);
	assert_int_equal(fb_line_push(&lf, lf_in, n, count_line, &k), 0);
	fb_line_finish(&lf, count_line, &k);
	fb_line_free(&lf);
	assert_int_equal(k.lines, n);
	assert_int_equal(k.bad, 0);
	assert_int_equal(k.bytes, n);

	/* CRLF in odd-sized pushes: some CRs end a push, their LF is CONT. */
	memset(&k, 0, sizeof k);
	fb_line_init(&lf, SMALL_MAX);
	for (size_t i = 0; i < 2 * n; i += 4095) {
		size_t m = 2 * n - i < 4095 ? 2 * n - i : 4095;
		assert_int_equal(
			fb_line_push(&lf, crlf_in + i, m, count_line, &k), 0);
	}
	fb_line_finish(&lf, count_line, &k);
	fb_line_free(&lf);
	assert_int_equal(k.lines, n);
	assert_int_equal(k.bad, 0);
	assert_true(k.cont > 0);
	assert_int_equal(k.bytes, 2 * n);

	free(lf_in);
	free(crlf_in);
}

/* A 1000-ply moves list (about 5 KB) is one line at the default cap. */
static void
test_line_long_moves_line_at_default_cap(void **state)
{
	static const char head[] = "position startpos moves";
	size_t n = sizeof head - 1 + 1000 * 5 + 2;
	char *in = malloc(n);
	struct capture c;
	size_t o = sizeof head - 1;

	(void)state;
	assert_non_null(in);
	memcpy(in, head, o);
	for (int i = 0; i < 1000; i++, o += 5)
		memcpy(in + o, i % 2 ? " e7e5" : " e2e4", 5);
	memcpy(in + o, "\r\n", 2);
	frame_bytewise(in, n, FB_LINE_DEFAULT_MAX, &c);
	assert_int_equal(normalise(&c), 1);
	assert_int_equal(c.p[0].flags, 0);
	assert_int_equal(c.p[0].len, n - 2);
	assert_int_equal(c.p[0].term, 2);
	assert_memory_equal(c.out, in, n);
	capture_free(&c);
	free(in);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_terminators_handed_on_with_line),
		cmocka_unit_test(test_line_every_split_reproduces_input),
		cmocka_unit_test(test_line_end_found_at_every_offset),
		cmocka_unit_test(test_line_crlf_split_gives_cont_piece),
		cmocka_unit_test(test_line_cr_at_push_end_then_other_byte),
		cmocka_unit_test(test_line_crlf_at_push_end_then_empty_line),
		cmocka_unit_test(test_line_empty_push_between_cr_and_lf),
		cmocka_unit_test(test_line_cap_boundary_lf_and_cr),
		cmocka_unit_test(
			test_line_cap_boundary_crlf_independent_of_split),
		cmocka_unit_test(test_line_overlong_passes_raw_and_resyncs),
		cmocka_unit_test(test_line_overlong_pieces_in_order_bytewise),
		cmocka_unit_test(test_line_unterminated_last_line),
		cmocka_unit_test(test_line_nul_bytes_pass_through),
		cmocka_unit_test(test_line_million_empty_lines),
		cmocka_unit_test(test_line_long_moves_line_at_default_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
