/* SPDX-License-Identifier: MIT */
/*
 * fuzz_filter: the protocol filters (protocols/filter.c, protocols/uci.c,
 * protocols/xboard.c) fed a session from both sides, as the bridge does:
 * each side's bytes go through its own line framer, whose lines go to
 * fb_filter_gui_line or fb_filter_engine_line.
 *
 * Input: a first line whose first three bytes, each taken ^ '0' (so "000"
 * means the defaults), choose the options:
 *   byte 0: protocol (% 3: auto, uci, xboard); bit 2: FENs to the engine
 *           in Shredder-FEN (default X-FEN); bit 3: FENs to the GUI in
 *           X-FEN (default Shredder-FEN)
 *   byte 1: bits 0-1 GUI castling notation, bits 2-3 the engine's (0 auto,
 *           1 kxr, 2 king, 3 oo); bit 4: --engine-fen=auto; bit 5: a name
 *           for the engine; bit 6:
 *           framer cap 64 bytes instead of 1 MiB; bit 7: --normalize
 *   byte 2: a mask of config options (set, forced, hidden, an empty value,
 *           a very long name and value)
 * then lines: '>' first means engine -> GUI, anything else GUI -> engine;
 * that first byte is dropped, the rest (with its '\n') goes to the framer.
 *
 * Checked per filtered line: raw and continuation pieces pass byte for byte;
 * a line is dropped only where the filter documents it (setoption, option;
 * with --normalize a blank engine line);
 * a terminated line's output is empty (swallowed) or whole lines ending in
 * a terminator, with no CR but the line's own; a single output line keeps
 * the input's leading command word (when the line has more than one token); replies are one whole line each;
 * reports are NUL-terminated; the followed game keeps sane castling rights;
 * a second filter fed the same lines without the UCI position cache
 * (no_position_cache) sends the same bytes and follows the same game (the
 * cache is an optimisation only).
 * At the end: output size <= 4 * input + 2048 per line, and fb_filter_free
 * frees everything (LeakSanitizer).
 */
#include <stdbool.h>

#include "fenbridge/line.h"
#include "fuzz_common.h"
#include "filter.h"

enum { TO_ENGINE, TO_GUI };

/* One filter and what it sent each way. */
struct peer {
	struct fb_filter f;
	struct fz_buf out[2];
	int dir; /* direction of the line being filtered: TO_ENGINE for a
		    GUI line, TO_GUI for an engine line */
};

struct session {
	struct peer main;
	/* The same lines through a second filter without the UCI position
	 * cache: the cache must not change what reaches the engine. */
	struct peer shadow;
	size_t in_bytes;
	size_t lines;
};

static void
sink_emit(void *ctx, const char *data, size_t len)
{
	struct peer *p = ctx;

	fz_buf_add(&p->out[p->dir], data, len);
}

static void
sink_reply(void *ctx, const char *data, size_t len);

/* The sink's directions are absolute: what goes toward the line's own peer
 * is the line passed on (emit), the other direction gets whole lines of
 * fenbridge's own (reply). A timeout counts as a GUI line. */
static void
sink_to_engine(void *ctx, const char *data, size_t len)
{
	struct peer *p = ctx;

	(p->dir == TO_ENGINE ? sink_emit : sink_reply)(ctx, data, len);
}

static void
sink_to_gui(void *ctx, const char *data, size_t len)
{
	struct peer *p = ctx;

	(p->dir == TO_GUI ? sink_emit : sink_reply)(ctx, data, len);
}

static void
sink_reply(void *ctx, const char *data, size_t len)
{
	struct peer *p = ctx;

	/* One whole line, back toward the sender. */
	fz_check_own_lines(data, len, true);
	CHECK(memchr(data, '\r', len) == NULL);
	fz_buf_add(&p->out[!p->dir], data, len);
}

/* The next blank-separated token of text from *pos (as the filters read). */
static size_t
token(const char *text, size_t len, size_t *pos, size_t *start)
{
	size_t i = *pos;

	while (i < len && (text[i] == ' ' || text[i] == '\t'))
		i++;
	*start = i;
	while (i < len && text[i] != ' ' && text[i] != '\t')
		i++;
	*pos = i;
	return i - *start;
}

static bool
is(const char *text, size_t start, size_t n, const char *word)
{
	return strlen(word) == n && memcmp(text + start, word, n) == 0;
}

/* On a violated property: what went in and what came out. */
static void
dump(int dir, const char *text, size_t len, size_t term, unsigned flags,
     const char *o, size_t n)
{
	fprintf(stderr, "%s line (flags %u, term %zu): '%.*s'\nout: '%.*s'\n",
		dir == TO_ENGINE ? "GUI" : "engine", flags, term, (int)len,
		text, (int)n, o);
}

#define CHECK_LINE(cond)                                                       \
	do {                                                                   \
		if (!(cond))                                                   \
			dump(dir, text, len, term, flags, o, n);               \
		CHECK(cond);                                                   \
	} while (0)

/* Filters one line through p; returns where its output toward the peer
 * starts (*o) and its length. */
static size_t
run_filter(struct peer *p, int dir, const char *text, size_t len, size_t term,
	   unsigned flags, const char **o)
{
	/* Any other field zero: every report, debug included, is made. */
	const struct fb_sink sink = {.to_engine = sink_to_engine,
				     .to_gui = sink_to_gui,
				     .report = fz_check_report,
				     .ctx = p};
	size_t before = p->out[dir].len;

	p->dir = dir;
	if (dir == TO_ENGINE)
		fb_filter_gui_line(&p->f, text, len, term, flags, &sink);
	else
		fb_filter_engine_line(&p->f, text, len, term, flags, &sink);
	*o = p->out[dir].p != NULL ? p->out[dir].p + before : "";
	return p->out[dir].len - before;
}

static void
filter_line(struct session *s, int dir, const char *text, size_t len,
	    size_t term, unsigned flags)
{
	struct fb_filter *f = &s->main.f;
	size_t n, crs = 0, lfs = 0, pos = 0, start, k;
	const char *o;

	bool held;

	s->lines++;
	k = token(text, len, &pos, &start);
	/* While the filter holds the GUI's lines (after uci, until uciok) a
	 * line may come out later, and held ones with the next: only the
	 * shadow's agreement is checked then. */
	held = fb_filter_holding(f);
	n = run_filter(&s->main, dir, text, len, term, flags, &o);
	held = held || fb_filter_holding(f);
	if (held) {
		;
	} else if (n == 0) {
		/* Only the documented swallows: a GUI's setoption (forced by
		 * the config, or UCI_Chess960 kept by fenbridge), XBoard
		 * option (forced) or variant (an engine that plays it as
		 * normal chess), an engine's option (hidden by the config),
		 * an XBoard engine's Error / Illegal move (a rejected castle
		 * sent again, an optional command). */
		CHECK_LINE(!(flags & (FB_LINE_RAW | FB_LINE_CONT)));
		CHECK_LINE(
			is(text, start, k, "option") ||
			(dir == TO_ENGINE && (is(text, start, k, "setoption") ||
					      is(text, start, k, "variant"))) ||
			(dir == TO_GUI &&
			 ((k >= 5 && memcmp(text + start, "Error", 5) == 0) ||
			  is(text, start, k, "Illegal") ||
			  (k == 0 && f->opt.normalize))));
	}
	if (held) {
		;
	} else if (flags & (FB_LINE_RAW | FB_LINE_CONT)) {
		CHECK_LINE(n == len + term && memcmp(o, text, n) == 0);
	} else if (term > 0 && n > 0) {
		size_t tcr = text[len] == '\r';
		CHECK_LINE(o[n - 1] == '\n' || o[n - 1] == '\r');
		for (size_t i = 0; i < n; i++) {
			crs += o[i] == '\r';
			lfs += o[i] == '\n';
		}
		CHECK_LINE(crs <= tcr);
		/* One line out: the input line, maybe rewritten. Its command
		 * word (and the blanks before it) stay as they were, unless
		 * the line is a lone token (an XBoard bare move) or an XBoard
		 * move or undo became the position after it (setboard). */
		if (lfs + crs == term && n >= term &&
		    memcmp(o + n - term, text + len, term) == 0 &&
		    !(n > 9 && memcmp(o, "setboard ", 9) == 0 &&
		      !is(text, start, k, "setboard"))) {
			size_t p2 = pos, s2;
			if (token(text, len, &p2, &s2) > 0)
				CHECK_LINE(n >= start + k &&
					   memcmp(o, text, start + k) == 0);
		}
	}
	if (fb_filter_game(f) != NULL)
		fz_check_game(fb_filter_game(f));

	/* The shadow, without the position cache: same bytes toward the
	 * peer (replies may differ: a warning is not repeated for every
	 * move of one game), same game. */
	{
		struct fb_filter *g = &s->shadow.f;
		const char *o2;
		size_t n2;

		n2 = run_filter(&s->shadow, dir, text, len, term, flags, &o2);
		if (n2 != n || memcmp(o2, o, n) != 0) {
			fprintf(stderr, "without the position cache: '%.*s'\n",
				(int)n2, o2);
			CHECK_LINE(!"the position cache changed the output");
		}
		CHECK((fb_filter_game(g) == NULL) ==
		      (fb_filter_game(f) == NULL));
		if (fb_filter_game(f) != NULL)
			CHECK(memcmp(fb_filter_game(g), fb_filter_game(f),
				     sizeof(struct fb_game)) == 0);
	}
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

static char long_name[301], long_value[401];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *d = (const char *)data;
	const char *nl = memchr(d, '\n', size);
	size_t hlen = nl != NULL ? (size_t)(nl - d) : size, i;
	/* Each header byte is taken ^ '0', so "000" means all defaults. */
	unsigned b0 = (hlen > 0 ? data[0] : '0') ^ '0',
		 b1 = (hlen > 1 ? data[1] : '0') ^ '0',
		 b2 = (hlen > 2 ? data[2] : '0') ^ '0';
	struct fb_engine_option all[8], opts[8];
	struct fb_filter_options fo = {0};
	struct session *s = calloc(1, sizeof *s);
	struct fb_line gui, eng;
	struct fz_window win;
	size_t max, nopts = 0;
	unsigned mask = b2;

	CHECK(s != NULL);
	if (long_name[0] == '\0') {
		memset(long_name, 'N', sizeof long_name - 1);
		memset(long_value, 'v', sizeof long_value - 1);
	}
	all[0] = (struct fb_engine_option){"Hash", "16", FB_OPT_SET};
	all[1] = (struct fb_engine_option){"Threads", "2",
					   FB_OPT_SET | FB_OPT_FORCED};
	all[2] = (struct fb_engine_option){"UCI_Chess960", NULL, FB_OPT_HIDDEN};
	all[3] = (struct fb_engine_option){"UCI_Variant", "chess",
					   FB_OPT_HIDDEN | FB_OPT_SET};
	all[4] = (struct fb_engine_option){"Ponder", NULL, FB_OPT_HIDDEN};
	all[5] = (struct fb_engine_option){"OwnBook", "", FB_OPT_SET};
	all[6] = (struct fb_engine_option){long_name, long_value,
					   FB_OPT_SET | FB_OPT_FORCED};
	all[7] = (struct fb_engine_option){
		"MultiPV", "3", FB_OPT_SET | FB_OPT_FORCED | FB_OPT_HIDDEN};
	for (unsigned k = 0; k < 8; k++)
		if (mask & (1u << k))
			opts[nopts++] = all[k];

	switch (b0 % 3) {
	case 0:
		fo.proto = NULL;
		break;
	case 1:
		fo.proto = &fb_protocol_uci;
		break;
	default:
		fo.proto = &fb_protocol_xboard;
		break;
	}
	fo.engine_fen = (b0 >> 2) & 1 ? FB_SHREDDER : FB_XFEN;
	fo.gui_fen = (b0 >> 3) & 1 ? FB_XFEN : FB_SHREDDER;
	fo.gui_castling = (enum fb_castle_notation)(b1 & 3);
	fo.engine_castling = (enum fb_castle_notation)((b1 >> 2) & 3);
	fo.engine_fen_auto = (b1 >> 4) & 1;
	fo.options = nopts ? opts : NULL;
	fo.noptions = nopts;
	fo.name = (b1 & 0x20) ? "FuzzBot 1.0" : NULL;
	max = (b1 & 0x40) ? 64 : FB_LINE_DEFAULT_MAX;
	fo.normalize = (b1 & 0x80) != 0;

	fb_filter_init(&s->main.f, &fo);
	fo.no_position_cache = true;
	fb_filter_init(&s->shadow.f, &fo);
	fb_line_init(&gui, max);
	fb_line_init(&eng, max);
	s->in_bytes = size;
	fz_window_init(&win, size);
	for (i = nl != NULL ? hlen + 1 : size; i < size;) {
		const char *e = memchr(d + i, '\n', size - i);
		size_t end = e != NULL ? (size_t)(e - d) + 1 : size;
		bool to_gui = d[i] == '>';
		/* The rest of the line, '\n' included, in an exact-size
		 * window (the framer hands lines on in place). */
		size_t n = end - i - 1;
		char *piece = fz_window_put(&win, d + i + 1, n);

		if (n > 0)
			CHECK(fb_line_push(to_gui ? &eng : &gui, piece, n,
					   to_gui ? on_engine : on_gui,
					   s) == 0);
		i = end;
	}
	fz_window_free(&win);
	fb_line_finish(&gui, on_gui, s);
	fb_line_finish(&eng, on_engine, s);
	fb_line_free(&gui);
	fb_line_free(&eng);

	CHECK(s->main.out[0].len + s->main.out[1].len <=
	      4 * s->in_bytes + 2048 * (s->lines + 1));
	fb_filter_free(&s->main.f);
	fb_filter_free(&s->shadow.f);
	for (int dir = 0; dir < 2; dir++) {
		fz_buf_free(&s->main.out[dir]);
		fz_buf_free(&s->shadow.out[dir]);
	}
	free(s);
	return 0;
}
