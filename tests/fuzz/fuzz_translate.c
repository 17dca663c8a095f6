/* SPDX-License-Identifier: MIT */
/*
 * fuzz_translate: the filter with a GUI and an engine of any protocols,
 * the translating pairs included (protocols/xboard_uci/,
 * protocols/uci_xboard/) and the engine-protocol probe (protocols/filter.c),
 * fed a session from both sides through the line framers, with the timer
 * running out where the input says.
 *
 * Input: a first line whose first two bytes, each taken ^ '0' (so "00"
 * means UCI GUI, UCI engine, defaults), choose:
 *   byte 0: bit 0 the GUI's protocol (uci, xboard); bits 1-2 the engine's
 *           (0 the GUI's, 1 uci, 2 xboard, 3 probed); bit 3 FENs to the
 *           engine in Shredder-FEN; bit 4 FENs to the GUI in X-FEN
 *   byte 1: bits 0-1 GUI castling notation, bits 2-3 the engine's; bit 4
 *           a name for the engine; bit 5 two config options; bit 6 framer
 *           cap 64 bytes
 * then lines: '>' first means engine -> GUI, '!' the filter's timer runs
 * out (the rest of the line is ignored), anything else GUI -> engine.
 *
 * A translating pair rewrites lines freely, so the checks are those that
 * hold for any pair: raw and continuation pieces pass byte for byte (or
 * wait in the probe); replies are one whole line each; reports are
 * NUL-terminated and short; the followed game keeps sane castling rights;
 * output stays within 16 x input + 4096 per line and timeout; the timer is
 * asked for sane times; fb_filter_free frees everything (LeakSanitizer).
 */
#include <stdbool.h>

#include "filter.h"
#include "fenbridge/line.h"
#include "fuzz_common.h"

enum { TO_ENGINE, TO_GUI };

struct session {
	struct fb_filter f;
	struct fz_buf out[2];
	int dir; /* TO_ENGINE while a GUI line (or a timeout) is filtered */
	size_t in_bytes, events;
};

static void
sink_emit(void *ctx, const char *data, size_t len)
{
	struct session *s = ctx;

	fz_buf_add(&s->out[s->dir], data, len);
}

static void
sink_reply(void *ctx, const char *data, size_t len);

/* The sink's directions are absolute: what goes toward the line's own peer
 * is the line passed on (emit), the other direction gets whole lines of
 * fenbridge's own (reply). A timeout counts as a GUI line. */
static void
sink_to_engine(void *ctx, const char *data, size_t len)
{
	struct session *s = ctx;

	(s->dir == TO_ENGINE ? sink_emit : sink_reply)(ctx, data, len);
}

static void
sink_to_gui(void *ctx, const char *data, size_t len)
{
	struct session *s = ctx;

	(s->dir == TO_GUI ? sink_emit : sink_reply)(ctx, data, len);
}

static void
sink_reply(void *ctx, const char *data, size_t len)
{
	struct session *s = ctx;

	/* Whole lines, back toward the sender. */
	fz_check_own_lines(data, len, false);
	CHECK(memchr(data, '\r', len) == NULL);
	fz_buf_add(&s->out[!s->dir], data, len);
}

static void
sink_pass(void *ctx, const char *data, size_t len)
{
	struct session *s = ctx;

	/* The engine's held bytes, as they came, toward the GUI. */
	fz_buf_add(&s->out[TO_GUI], data, len);
}

static void
sink_report(void *ctx, enum fb_level level, const char *msg)
{
	(void)ctx;
	CHECK(level >= FB_LOG_DEBUG && level <= FB_LOG_ERROR);
	CHECK(msg != NULL && strlen(msg) < 512);
}

static void
sink_timer(void *ctx, unsigned ms)
{
	(void)ctx;
	CHECK(ms <= 3600u * 1000u);
}

static const struct fb_sink sink = {
	.to_engine = sink_to_engine,
	.to_gui = sink_to_gui,
	.pass = sink_pass,
	.report = sink_report,
	.timer = sink_timer,
};

static void
check_game(const struct fb_game *g)
{
	CHECK(g->width == 8 || g->width == 10);
	CHECK(g->side == FB_WHITE || g->side == FB_BLACK);
	for (int c = 0; c < 2; c++)
		for (int w = 0; w < 2; w++)
			CHECK(g->castle[c][w] == -1 ||
			      (g->castle[c][w] >= 0 &&
			       g->castle[c][w] < (int)g->width));
}

static void
filter_line(struct session *s, int dir, const char *text, size_t len,
	    size_t term, unsigned flags)
{
	struct fb_sink out = sink;
	size_t before = s->out[dir].len;

	/* Lines held before (the probe, a pair's wait) may go out first. */
	bool held = fb_filter_holding(&s->f);

	out.ctx = s;
	s->dir = dir;
	s->events++;
	if (dir == TO_ENGINE)
		fb_filter_gui_line(&s->f, text, len, term, flags, &out);
	else
		fb_filter_engine_line(&s->f, text, len, term, flags, &out);
	/* A raw piece passes as it came, unless the filter holds it. */
	if ((flags & (FB_LINE_RAW | FB_LINE_CONT)) && !held &&
	    !fb_filter_holding(&s->f) && !fb_filter_probing(&s->f))
		CHECK(s->out[dir].len - before == len + term &&
		      memcmp(s->out[dir].p + before, text, len + term) == 0);
	if (fb_filter_game(&s->f) != NULL)
		check_game(fb_filter_game(&s->f));
}

static void
on_gui(void *ctx, const char *text, size_t len, size_t term, unsigned flags)
{
	filter_line(ctx, TO_ENGINE, text, len, term, flags);
}

static void
on_engine(void *ctx, const char *text, size_t len, size_t term, unsigned flags)
{
	filter_line(ctx, TO_GUI, text, len, term, flags);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *d = (const char *)data;
	const char *nl = memchr(d, '\n', size);
	size_t hlen = nl != NULL ? (size_t)(nl - d) : size, i;
	unsigned b0 = (hlen > 0 ? data[0] : '0') ^ '0',
		 b1 = (hlen > 1 ? data[1] : '0') ^ '0';
	static const struct fb_engine_option opts[2] = {
		{"Hash", "16", FB_OPT_SET},
		{"Ponder", NULL, FB_OPT_HIDDEN},
	};
	struct fb_filter_options fo = {0};
	struct session *s = calloc(1, sizeof *s);
	struct fb_line gui, eng;
	struct fz_window win;
	size_t max;

	CHECK(s != NULL);
	fo.proto = b0 & 1 ? &fb_protocol_xboard : &fb_protocol_uci;
	switch ((b0 >> 1) & 3) {
	case 0:
		fo.engine_proto = NULL;
		break;
	case 1:
		fo.engine_proto = &fb_protocol_uci;
		break;
	case 2:
		fo.engine_proto = &fb_protocol_xboard;
		break;
	default:
		fo.engine_probe = true;
		break;
	}
	fo.engine_fen = (b0 >> 3) & 1 ? FB_SHREDDER : FB_XFEN;
	fo.gui_fen = (b0 >> 4) & 1 ? FB_XFEN : FB_SHREDDER;
	fo.gui_castling = (enum fb_castle_notation)(b1 & 3);
	fo.engine_castling = (enum fb_castle_notation)((b1 >> 2) & 3);
	fo.name = (b1 & 0x10) ? "FuzzBot 1.0" : NULL;
	fo.options = (b1 & 0x20) ? opts : NULL;
	fo.noptions = (b1 & 0x20) ? 2 : 0;
	max = (b1 & 0x40) ? 64 : FB_LINE_DEFAULT_MAX;

	fb_filter_init(&s->f, &fo);
	fb_line_init(&gui, max);
	fb_line_init(&eng, max);
	s->in_bytes = size;
	fz_window_init(&win, size);
	for (i = nl != NULL ? hlen + 1 : size; i < size;) {
		const char *e = memchr(d + i, '\n', size - i);
		size_t end = e != NULL ? (size_t)(e - d) + 1 : size;
		size_t n = end - i - 1;

		if (d[i] == '!') {
			struct fb_sink out = sink;
			out.ctx = s;
			s->dir = TO_ENGINE;
			s->events++;
			fb_filter_timeout(&s->f, &out);
		} else if (n > 0) {
			bool to_gui = d[i] == '>';
			char *piece = fz_window_put(&win, d + i + 1, n);
			CHECK(fb_line_push(to_gui ? &eng : &gui, piece, n,
					   to_gui ? on_engine : on_gui,
					   s) == 0);
		}
		i = end;
	}
	fz_window_free(&win);
	fb_line_finish(&gui, on_gui, s);
	fb_line_finish(&eng, on_engine, s);
	fb_line_free(&gui);
	fb_line_free(&eng);

	CHECK(s->out[0].len + s->out[1].len <=
	      16 * s->in_bytes + 4096 * (s->events + 1));
	fb_filter_free(&s->f);
	fz_buf_free(&s->out[0]);
	fz_buf_free(&s->out[1]);
	free(s);
	return 0;
}
