/* SPDX-License-Identifier: MIT */
/*
 * The filter tests' capturing sink and line helpers (see capture.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "capture.h"
#include "fenbridge/variant.h"

/* The variant in play when the variant table knows it, else NULL. */
const struct fb_variant *
known_variant(const struct fb_filter *f)
{
	const char *v = fb_filter_variant(f);

	return fb_variant_find(v, strlen(v));
}

static void
cap_emit(void *ctx, const char *data, size_t len)
{
	struct capture *c = ctx;

	assert_true(c->nout + len <= MAX_OUT);
	memcpy(c->out + c->nout, data, len);
	c->nout += len;
	c->nemit++;
}

static void
cap_reply(void *ctx, const char *data, size_t len)
{
	struct capture *c = ctx;

	assert_true(c->nback + len <= MAX_OUT);
	memcpy(c->back + c->nback, data, len);
	c->nback += len;
}

static void
cap_report(void *ctx, enum fb_level level, const char *msg)
{
	struct capture *c = ctx;

	assert_non_null(msg);
	if (c->nrep < MAX_REPORTS) {
		c->rep[c->nrep].level = level;
		snprintf(c->rep[c->nrep].msg, sizeof c->rep[c->nrep].msg, "%s",
			 msg);
	}
	c->nrep++;
	if (level >= FB_LOG_WARN)
		c->nwarn++;
}

/*
 * Sets up f for proto (NULL: detected) with the given FEN dialects and
 * castling notations decided by the filter.
 */
void
filter_init(struct fb_filter *f, const struct fb_protocol *proto,
	    enum fb_notation engine_fen, enum fb_notation gui_fen)
{
	struct fb_filter_options opt = {
		.proto = proto,
		.engine_fen = engine_fen,
		.gui_fen = gui_fen,
		.gui_castling = FB_CASTLE_AUTO,
		.engine_castling = FB_CASTLE_AUTO,
	};

	fb_filter_init(f, &opt);
}

/* A capture of a GUI line: out is what the engine gets, back what the
 * GUI gets. */
struct fb_sink
sink_of(struct capture *c)
{
	memset(c, 0, sizeof *c);
	return (struct fb_sink){.to_engine = cap_emit,
				.to_gui = cap_reply,
				.report = cap_report,
				.ctx = c};
}

/* A capture of an engine line: out is what the GUI gets, back what the
 * engine gets. */
struct fb_sink
engine_sink_of(struct capture *c)
{
	memset(c, 0, sizeof *c);
	return (struct fb_sink){.to_gui = cap_emit,
				.to_engine = cap_reply,
				.report = cap_report,
				.ctx = c};
}

/* Splits a NUL-terminated line into text length and terminator length. */
static void
split_term(const char *line, size_t *len, size_t *term)
{
	size_t n = strlen(line);

	*term = 0;
	if (n >= 2 && line[n - 2] == '\r' && line[n - 1] == '\n')
		*term = 2;
	else if (n >= 1 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		*term = 1;
	*len = n - *term;
}

/*
 * Filters one whole line (terminator included in line) from the GUI (gui
 * true) or from the engine into a fresh capture.
 */
void
feed(struct fb_filter *f, bool gui, const char *line, struct capture *c)
{
	struct fb_sink s = gui ? sink_of(c) : engine_sink_of(c);
	size_t len, term;

	split_term(line, &len, &term);
	if (gui)
		fb_filter_gui_line(f, line, len, term, 0, &s);
	else
		fb_filter_engine_line(f, line, len, term, 0, &s);
}

/* Checks that the capture holds exactly want, and nwarn warnings. */
void
expect_out(const struct capture *c, const char *in, const char *want,
	   size_t nwarn)
{
	size_t n = strlen(want);

	if (c->nout != n || memcmp(c->out, want, n) != 0)
		fail_msg("'%s'\n gave '%.*s'\n want '%s'", in, (int)c->nout,
			 c->out, want);
	if (c->nwarn != nwarn)
		fail_msg("'%s': %zu warnings (first: '%s'), want %zu", in,
			 c->nwarn, c->nrep > 0 ? c->rep[0].msg : "", nwarn);
	/* A line passed unchanged goes out in one piece. */
	if (strcmp(in, want) == 0)
		assert_int_equal(c->nemit, 1);
	/* Nothing here needs an answer to the sender. */
	if (c->nback != 0)
		fail_msg("'%s': replied '%.*s'", in, (int)c->nback, c->back);
}

/* Feeds in and expects want with nwarn warnings. */
void
expect_line(struct fb_filter *f, bool gui, const char *in, const char *want,
	    size_t nwarn)
{
	struct capture c;

	feed(f, gui, in, &c);
	expect_out(&c, in, want, nwarn);
}

void
expect_same(struct fb_filter *f, bool gui, const char *in)
{
	expect_line(f, gui, in, in, 0);
}

/* A fresh XBoard filter after the GUI's handshake. */
void
xboard_filter(struct fb_filter *f, enum fb_notation engine_fen,
	      enum fb_notation gui_fen)
{
	filter_init(f, NULL, engine_fen, gui_fen);
	expect_same(f, true, "xboard\n");
	expect_same(f, true, "protover 2\n");
	assert_ptr_equal(fb_filter_protocol(f), &fb_protocol_xboard);
}
