/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of --normalize (protocols/normalize.c): each rewrite of a UCI
 * engine's line, the lines that must not change (score cp, an info string
 * saying "score 5", multipv 2, a combo whose values are False/True ...),
 * MultiPV as the engine's option, the config and the GUI set it; then
 * whole sessions through the filter (the UCI pair's hook) with normalize
 * on and off: off, every engine line passes byte for byte.
 *
 * Every expected line is written by hand from normalize.h's rules.
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
#include "normalize.h"
#include "filter.h"

/* 70 bytes of name; its first 64 end in a blank, which goes too. */
#define LONG70                                                                 \
	"Deep Thought Ultimate Chess Analysis Engine 2026 x86-64 BMI2 AVX "    \
	"2 b12"
#define LONG70_CUT                                                             \
	"Deep Thought Ultimate Chess Analysis Engine 2026 x86-64 BMI2 AVX"
/* 62 ASCII bytes, then U+00E9 (2 bytes) at 62..63, U+20AC (3 bytes) at
 * 64..66: the cut at 64 falls between the two, and at 63 it would be
 * inside the first. */
#define NAME62 "Engine Engine Engine Engine Engine Engine Engine Engine Engine"

struct row {
	const char *in;
	const char *want; /* what the GUI gets: own lines first, then it */
};

/* Runs one line through n: what goes to the GUI (a line of fenbridge's
 * own, then the line unless dropped) into got. Returns the reports. */
static size_t
run(struct fb_normalize *n, const char *in, char *got, size_t cap)
{
	struct capture c;
	struct fb_sink s = engine_sink_of(&c);
	size_t len = strlen(in), term = 0;
	struct fb_normalize_line l;

	if (len >= 2 && in[len - 2] == '\r' && in[len - 1] == '\n')
		term = 2;
	else if (len >= 1 && (in[len - 1] == '\n' || in[len - 1] == '\r'))
		term = 1;
	l = (struct fb_normalize_line){in, len - term, term};
	if (fb_normalize_engine_line(n, &l, &s)) {
		memcpy(c.out + c.nout, l.text, l.len + l.term);
		c.nout += l.len + l.term;
	}
	assert_true(c.nout < cap);
	memcpy(got, c.out, c.nout);
	got[c.nout] = '\0';
	assert_int_equal(c.nwarn, 0);
	assert_int_equal(c.nback, 0);
	return c.nrep;
}

static void
normalize_on(struct fb_normalize *n, const struct fb_engine_option *options,
	     size_t noptions)
{
	struct fb_filter_options opt = {
		.normalize = true, .options = options, .noptions = noptions};

	fb_normalize_init(n, &opt);
	assert_true(n->on);
}

/* Each row on a fresh normalizer in the handshake (before uciok): a
 * rewrite is reported once, a line as it came not at all. */
static void
check_rows(const struct row *rows, size_t nrows, bool listed)
{
	static struct fb_normalize n;
	char got[512];

	for (size_t i = 0; i < nrows; i++) {
		size_t nrep;
		normalize_on(&n, NULL, 0);
		n.listed = listed;
		nrep = run(&n, rows[i].in, got, sizeof got);
		if (strcmp(got, rows[i].want) != 0)
			fail_msg("'%s'\n gave '%s'\n want '%s'", rows[i].in,
				 got, rows[i].want);
		assert_int_equal(nrep, strcmp(rows[i].in, rows[i].want) != 0);
	}
}

static const struct row check_defaults[] = {
	{"option name Ponder type check default False\n",
	 "option name Ponder type check default false\n"},
	{"option name Ponder type check default True\r\n",
	 "option name Ponder type check default true\r\n"},
	/* Blanks and the name's words stay as they were. */
	{"option  name Use  Book\ttype check default TRUE  \n",
	 "option  name Use  Book\ttype check default true  \n"},
	{"option name OwnBook type check default fAlSe",
	 "option name OwnBook type check default false"},
	/* Not to change. */
	{"option name Ponder type check default false\n",
	 "option name Ponder type check default false\n"},
	{"option name Ponder type check default true\n",
	 "option name Ponder type check default true\n"},
	{"option name Style type combo default False var False var True\n",
	 "option name Style type combo default False var False var True\n"},
	{"option name Motto type string default True\n",
	 "option name Motto type string default True\n"},
	{"option name Ponder type check default Falsey\n",
	 "option name Ponder type check default Falsey\n"},
	{"option name Ponder type check\n", "option name Ponder type check\n"},
	{"option name Ponder\n", "option name Ponder\n"},
	{"option name False type spin default 1 min 0 max 1\n",
	 "option name False type spin default 1 min 0 max 1\n"},
};

static void
test_normalize_check_default_lowercase(void **state)
{
	(void)state;
	check_rows(check_defaults, N_ELEMS(check_defaults), false);
}

static const struct row scores[] = {
	{"info depth 5 multipv 1 score 25 nodes 100 pv e2e4\n",
	 "info depth 5 multipv 1 score cp 25 nodes 100 pv e2e4\n"},
	{"info depth 5 multipv 1 score -25\r\n",
	 "info depth 5 multipv 1 score cp -25\r\n"},
	{"info multipv 1 score +7 upperbound",
	 "info multipv 1 score cp +7 upperbound"},
	{"info multipv 1 score 25 lowerbound pv e2e4\n",
	 "info multipv 1 score cp 25 lowerbound pv e2e4\n"},
	{"info multipv 1 depth 3 score\t 0\n",
	 "info multipv 1 depth 3 score\t cp 0\n"},
	/* Not to change. */
	{"info depth 5 multipv 1 score cp 25 pv e2e4\n",
	 "info depth 5 multipv 1 score cp 25 pv e2e4\n"},
	{"info depth 5 multipv 1 score mate -3 pv e2e4\n",
	 "info depth 5 multipv 1 score mate -3 pv e2e4\n"},
	{"info depth 5 multipv 1 score cp 20 lowerbound\n",
	 "info depth 5 multipv 1 score cp 20 lowerbound\n"},
	{"info string score 5\n", "info string score 5\n"},
	{"info depth 5 string the score 5 is bare\n",
	 "info depth 5 string the score 5 is bare\n"},
	{"info multipv 1 score\n", "info multipv 1 score\n"},
	{"info multipv 1 score - 5\n", "info multipv 1 score - 5\n"},
	{"infos score 5\n", "infos score 5\n"},
};

static void
test_normalize_bare_score_gets_cp(void **state)
{
	(void)state;
	check_rows(scores, N_ELEMS(scores), true);
}

static const struct row multipvs[] = {
	{"info depth 5 score cp 25 nodes 100 pv e2e4 e7e5\n",
	 "info multipv 1 depth 5 score cp 25 nodes 100 pv e2e4 e7e5\n"},
	{"info pv e2e4\n", "info multipv 1 pv e2e4\n"},
	{"info score mate 2\n", "info multipv 1 score mate 2\n"},
	{"  info\tdepth 1 score 3\r\n",
	 "  info multipv 1\tdepth 1 score cp 3\r\n"},
	{"info depth 9 score cp 1 pv e2e4 string ok\n",
	 "info multipv 1 depth 9 score cp 1 pv e2e4 string ok\n"},
	/* Not to change: no line shown, or multipv there already. */
	{"info depth 5 multipv 2 score cp 25 pv e2e4\n",
	 "info depth 5 multipv 2 score cp 25 pv e2e4\n"},
	{"info multipv 1 depth 5 score cp 25 pv e2e4\n",
	 "info multipv 1 depth 5 score cp 25 pv e2e4\n"},
	{"info depth 3 currmove e2e4 currmovenumber 1\n",
	 "info depth 3 currmove e2e4 currmovenumber 1\n"},
	{"info nodes 100 nps 1000 hashfull 3 tbhits 0\n",
	 "info nodes 100 nps 1000 hashfull 3 tbhits 0\n"},
	{"info depth 5 seldepth 7\n", "info depth 5 seldepth 7\n"},
	{"info refutation e2e4 e7e5\n", "info refutation e2e4 e7e5\n"},
	{"info string pv e2e4 score 5\n", "info string pv e2e4 score 5\n"},
	{"info\n", "info\n"},
	{"bestmove e2e4 ponder e7e5\n", "bestmove e2e4 ponder e7e5\n"},
	{"readyok\n", "readyok\n"},
};

static void
test_normalize_single_pv_gets_multipv(void **state)
{
	(void)state;
	check_rows(multipvs, N_ELEMS(multipvs), true);
}

static const struct row both[] = {
	{"info depth 5 score 25 pv e2e4\n",
	 "info multipv 1 depth 5 score cp 25 pv e2e4\n"},
};

static void
test_normalize_score_and_multipv_in_one_line(void **state)
{
	(void)state;
	check_rows(both, N_ELEMS(both), true);
}

static const struct row names[] = {
	{"id name " LONG70 "\n", "id name " LONG70_CUT "\n"},
	{"id name " LONG70 "  \r\n", "id name " LONG70_CUT "\r\n"},
	/* The cut falls after é, before €. */
	{"id name " NAME62 "\xc3\xa9\xe2\x82\xac tail\n",
	 "id name " NAME62 "\xc3\xa9\n"},
	/* At 64 the cut would split €: it goes before it. */
	{"id name " NAME62 "x\xe2\x82\xac tail\n", "id name " NAME62 "x\n"},
	/* Not to change: 64 bytes, a short name, an author. */
	{"id name " NAME62 "ab\n", "id name " NAME62 "ab\n"},
	{"id name Stockfish 17\n", "id name Stockfish 17\n"},
	{"id author " LONG70 "\n", "id author " LONG70 "\n"},
	{"id nameless\n", "id nameless\n"},
};

static void
test_normalize_long_name_cut(void **state)
{
	(void)state;
	check_rows(names, N_ELEMS(names), false);
}

/* The full name goes to the report. */
static void
test_normalize_long_name_reported(void **state)
{
	static struct fb_normalize n;
	struct capture c;
	struct fb_sink s = engine_sink_of(&c);
	const char *in = "id name " LONG70;
	struct fb_normalize_line l = {in, strlen(in), 0};

	(void)state;
	normalize_on(&n, NULL, 0);
	assert_true(fb_normalize_engine_line(&n, &l, &s));
	assert_int_equal(c.nrep, 1);
	assert_int_equal(c.rep[0].level, FB_LOG_DEBUG);
	assert_non_null(strstr(c.rep[0].msg, LONG70));
	/* With the config's name, the engine's stays (the pair replaces
	 * it). */
	{
		struct fb_filter_options opt = {.normalize = true,
						.name = "Mine"};
		fb_normalize_init(&n, &opt);
		l = (struct fb_normalize_line){in, strlen(in), 0};
		assert_true(fb_normalize_engine_line(&n, &l, &s));
		assert_ptr_equal(l.text, in);
		assert_int_equal(l.len, strlen(in));
	}
}

/* Blank lines in the handshake go; after uciok they stay. An author is
 * added before uciok when none came, per handshake. */
static void
test_normalize_handshake(void **state)
{
	static struct fb_normalize n;
	char got[256];

	(void)state;
	normalize_on(&n, NULL, 0);
	assert_int_equal(run(&n, "\n", got, sizeof got), 1);
	assert_string_equal(got, "");
	run(&n, " \t\r\n", got, sizeof got);
	assert_string_equal(got, "");
	run(&n, "Engine 1.0 by someone\n", got, sizeof got);
	assert_string_equal(got, "Engine 1.0 by someone\n");
	run(&n, "id name Engine 1.0\n", got, sizeof got);
	assert_string_equal(got, "id name Engine 1.0\n");
	assert_int_equal(run(&n, "uciok\n", got, sizeof got), 1);
	assert_string_equal(got, "id author unknown\nuciok\n");
	/* After the handshake a blank line is the engine's business. */
	assert_int_equal(run(&n, "\n", got, sizeof got), 0);
	assert_string_equal(got, "\n");
	/* A second handshake with its author: nothing added. */
	run(&n, "id author Someone\n", got, sizeof got);
	assert_string_equal(got, "id author Someone\n");
	assert_int_equal(run(&n, "uciok\r\n", got, sizeof got), 0);
	assert_string_equal(got, "uciok\r\n");
	/* A third without: added again. */
	run(&n, "uciok\n", got, sizeof got);
	assert_string_equal(got, "id author unknown\nuciok\n");
}

static const char *const pv_line = "info depth 5 score cp 25 pv e2e4\n";
static const char *const pv_one =
	"info multipv 1 depth 5 score cp 25 pv e2e4\n";

static void
expect_multipv(struct fb_normalize *n, bool added)
{
	char got[256];

	run(n, pv_line, got, sizeof got);
	assert_string_equal(got, added ? pv_one : pv_line);
}

static void
gui_setoption(struct fb_normalize *n, const char *line)
{
	struct fb_uci_setoption s;

	assert_int_equal(fb_uci_parse_setoption(line, strlen(line), &s), 0);
	fb_normalize_setoption(n, line, &s);
}

/* Whether the engine runs one line: its option's default, then what the
 * GUI sets; the config's setting before the engine's default. */
static void
test_normalize_multipv_as_set(void **state)
{
	static struct fb_normalize n;
	char got[256];
	const struct fb_engine_option cfg[] =
		{
			{"multipv", "3", FB_OPT_SET},
		},
				      hidden[] = {
					      {"MultiPV", NULL, FB_OPT_HIDDEN}};

	(void)state;
	normalize_on(&n, NULL, 0);
	run(&n, "option name MultiPV type spin default 2 min 1 max 500\n", got,
	    sizeof got);
	assert_string_equal(
		got, "option name MultiPV type spin default 2 min 1 max 500\n");
	expect_multipv(&n, false);
	gui_setoption(&n, "setoption name MultiPV value 1");
	expect_multipv(&n, true);
	gui_setoption(&n, "setoption name multipv value 4");
	expect_multipv(&n, false);
	gui_setoption(&n, "setoption name Hash value 1");
	expect_multipv(&n, false);
	gui_setoption(&n, "setoption name MultiPV value 1");
	expect_multipv(&n, true);
	/* A bare score is fixed whatever MultiPV is. */
	gui_setoption(&n, "setoption name MultiPV value 2");
	run(&n, "info depth 5 score 25 pv e2e4\n", got, sizeof got);
	assert_string_equal(got, "info depth 5 score cp 25 pv e2e4\n");
	/* Not a number: no line is known to be the only one. */
	gui_setoption(&n, "setoption name MultiPV value one");
	expect_multipv(&n, false);

	normalize_on(&n, cfg, 1);
	run(&n, "option name MultiPV type spin default 1 min 1 max 500\n", got,
	    sizeof got);
	expect_multipv(&n, false);
	gui_setoption(&n, "setoption name MultiPV value 1");
	expect_multipv(&n, true);

	normalize_on(&n, hidden, 1); /* hidden, not set: the default */
	expect_multipv(&n, true);
}

/* Normalize off: the struct says so, and the pair does not call it. */
static void
test_normalize_off_by_default(void **state)
{
	static struct fb_normalize n;
	struct fb_filter_options opt = {0};

	(void)state;
	fb_normalize_init(&n, &opt);
	assert_false(n.on);
}

/* A line too long to rewrite passes as it came. */
static void
test_normalize_overlong_line_passes(void **state)
{
	static struct fb_normalize n;
	static char in[FB_NORMALIZE_LINE_MAX + 64], got[sizeof in + 64];
	size_t k;

	(void)state;
	k = (size_t)snprintf(in, sizeof in, "info depth 5 score 25 pv");
	while (k + 6 < sizeof in - 1) {
		memcpy(in + k, " e2e4", 5);
		k += 5;
	}
	in[k++] = '\n';
	in[k] = '\0';
	normalize_on(&n, NULL, 0);
	run(&n, in, got, sizeof got);
	assert_string_equal(got, in);
}

/* ---- through the filter: the UCI pair's hook ---- */

static void
session_init(struct fb_filter *f, bool normalize, enum fb_castle_notation gui)
{
	struct fb_filter_options opt = {
		.proto = &fb_protocol_uci,
		.engine_fen = FB_XFEN,
		.gui_fen = FB_SHREDDER,
		.gui_castling = gui,
		.engine_castling = FB_CASTLE_AUTO,
		.normalize = normalize,
	};

	fb_filter_init(f, &opt);
	expect_same(f, true, "uci\n");
}

/* An engine that gets each of the forms wrong, line by line, and what the
 * GUI gets with normalize on. */
static const struct row session[] = {
	{"\n", ""},
	{"id name " LONG70 "\n", "id name " LONG70_CUT "\n"},
	{"option name Ponder type check default False\n",
	 "option name Ponder type check default false\n"},
	{"option name Hash type spin default 16 min 1 max 1024\n",
	 "option name Hash type spin default 16 min 1 max 1024\n"},
	{"\r\n", ""},
	{"uciok\n",
	 /* The pair advertises UCI_Chess960 for an engine without it. */
	 "id author unknown\n"
	 "option name UCI_Chess960 type check default false\nuciok\n"},
	{"readyok\n", "readyok\n"},
	{"info depth 1 score 20 nodes 20 pv e2e4\n",
	 "info multipv 1 depth 1 score cp 20 nodes 20 pv e2e4\n"},
	{"info string score 5\n", "info string score 5\n"},
	{"info depth 2 multipv 1 score cp 20 pv e2e4 e7e5\n",
	 "info depth 2 multipv 1 score cp 20 pv e2e4 e7e5\n"},
	{"\n", "\n"},
	{"bestmove e2e4 ponder e7e5\n", "bestmove e2e4 ponder e7e5\n"},
};

static void
feed_session(struct fb_filter *f, bool normalize)
{
	for (size_t i = 0; i < N_ELEMS(session); i++) {
		struct capture c;
		const char *want = normalize ? session[i].want : session[i].in;
		feed(f, false, session[i].in, &c);
		if (!normalize && i == 5)
			want = "option name UCI_Chess960 type check "
			       "default false\nuciok\n";
		if (c.nout != strlen(want) || memcmp(c.out, want, c.nout) != 0)
			fail_msg("'%s'\n gave '%.*s'\n want '%s'",
				 session[i].in, (int)c.nout, c.out, want);
		assert_int_equal(c.nwarn, 0);
		if (i == 5)
			expect_same(f, true, "isready\n");
	}
}

static void
test_normalize_session_on(void **state)
{
	struct fb_filter f;

	(void)state;
	session_init(&f, true, FB_CASTLE_AUTO);
	feed_session(&f, true);
	fb_filter_free(&f);
}

static void
test_normalize_session_off_is_byte_exact(void **state)
{
	struct fb_filter f;

	(void)state;
	session_init(&f, false, FB_CASTLE_AUTO);
	feed_session(&f, false);
	fb_filter_free(&f);
}

/* The normalized line is what the pair then reads: a castle in its pv is
 * still written in the GUI's notation. */
static void
test_normalize_then_castling(void **state)
{
	struct fb_filter f;

	(void)state;
	session_init(&f, true, FB_CASTLE_KXR);
	expect_line(&f, false, "id author A\n", "id author A\n", 0);
	{
		struct capture c;
		feed(&f, false, "uciok\n", &c);
	}
	expect_same(&f, true,
		    "position startpos moves e2e4 e7e5 g1f3 b8c6 "
		    "f1c4 g8f6\n");
	expect_line(&f, false, "info depth 3 score 20 pv e1g1 f8c5\n",
		    "info multipv 1 depth 3 score cp 20 pv e1h1 f8c5\n", 0);
	expect_line(&f, false, "bestmove e1g1\n", "bestmove e1h1\n", 0);
	fb_filter_free(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize_check_default_lowercase),
		cmocka_unit_test(test_normalize_bare_score_gets_cp),
		cmocka_unit_test(test_normalize_single_pv_gets_multipv),
		cmocka_unit_test(test_normalize_score_and_multipv_in_one_line),
		cmocka_unit_test(test_normalize_long_name_cut),
		cmocka_unit_test(test_normalize_long_name_reported),
		cmocka_unit_test(test_normalize_handshake),
		cmocka_unit_test(test_normalize_multipv_as_set),
		cmocka_unit_test(test_normalize_off_by_default),
		cmocka_unit_test(test_normalize_overlong_line_passes),
		cmocka_unit_test(test_normalize_session_on),
		cmocka_unit_test(test_normalize_session_off_is_byte_exact),
		cmocka_unit_test(test_normalize_then_castling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
