/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the filter dispatcher (protocols/filter.c, with
 * protocols/protocols.c) through a capturing sink (capture.h): protocol
 * detection from the GUI's first command, `quit`, raw and continuation
 * pieces, the protocol table, and the filter fed by the line framer split
 * at every byte. The pairs' own lines: test_uci.c, test_xboard.c.
 *
 * Each line must come out exactly once: the captured bytes of one line are
 * compared whole with what is expected, so a dropped or doubled piece fails.
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
#include "fenbridge/line.h"
#include "filter.h"

static void
test_filter_detects_protocol_from_first_command(void **state)
{
	static const char pos[] = "position fen " START " w HAha - 0 1\n";
	static const char setb[] = "setboard " START " w HAha - 0 1\n";
	struct fb_filter f;
	struct capture c;

	(void)state;
	/* Before detection everything passes unchanged, both ways. */
	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, pos);
	expect_same(&f, true, setb);
	expect_same(&f, true, "ucinewgame\n");
	expect_same(&f, true, "isready\n");
	expect_same(&f, false, "setup " START " w KQkq - 0 1\n");
	expect_same(&f, false, "uciok\n");
	assert_null(fb_filter_protocol(&f));
	expect_same(&f, true, "uci\r\n");
	assert_ptr_equal(fb_filter_protocol(&f), &fb_protocol_uci);
	feed(&f, false, "uciok\n", &c); /* what follows uci waits for it */
	expect_line(&f, true, pos, "position fen " START " w KQkq - 0 1\n", 0);
	/* Detection happens once. */
	expect_same(&f, true, "xboard\n");
	assert_ptr_equal(fb_filter_protocol(&f), &fb_protocol_uci);
	fb_filter_free(&f);

	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "xboard\n");
	assert_ptr_equal(fb_filter_protocol(&f), &fb_protocol_xboard);
	expect_same(&f, true, "protover 2\n");
	expect_same(&f, true, "uci\n");
	assert_ptr_equal(fb_filter_protocol(&f), &fb_protocol_xboard);
	expect_line(&f, true, setb, "setboard " START " w KQkq - 0 1\n", 0);
	expect_same(&f, true, pos);
	fb_filter_free(&f);

	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "protover 2\n");
	assert_ptr_equal(fb_filter_protocol(&f), &fb_protocol_xboard);
	fb_filter_free(&f);

	/* A given protocol needs no detection. */
	filter_init(&f, &fb_protocol_uci, FB_XFEN, FB_SHREDDER);
	expect_line(&f, true, pos, "position fen " START " w KQkq - 0 1\n", 0);
	assert_ptr_equal(fb_filter_protocol(&f), &fb_protocol_uci);
	fb_filter_free(&f);
}

static void
test_filter_quit_sets_gui_quit(void **state)
{
	struct fb_filter f;

	(void)state;
	xboard_filter(&f, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "quitx\n");
	expect_same(&f, false, "quit\n"); /* from the engine: not the GUI's */
	assert_false(f.gui_quit);
	expect_same(&f, true, "quit\n");
	assert_true(f.gui_quit);
	fb_filter_free(&f);

	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "uci\n");
	assert_false(f.gui_quit);
	expect_same(&f, true, "quit\r\n");
	assert_true(f.gui_quit);
	fb_filter_free(&f);

	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "quit");
	assert_true(f.gui_quit);
	fb_filter_free(&f);
}

static void
test_filter_raw_and_cont_pieces_pass_unchanged(void **state)
{
	static const char pos[] = "position fen " START " w HAha - 0 1\n";
	static const char setb[] = "setboard " START " w HAha - 0 1\n";
	static const char setup[] = "setup " START " w KQkq - 0 1\n";
	struct fb_filter f;
	struct capture c;
	struct fb_sink s;

	(void)state;
	/* Raw pieces are not parsed: no detection from them either. */
	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	s = sink_of(&c);
	fb_filter_gui_line(&f, "uci", 3, 0, FB_LINE_RAW, &s);
	assert_null(fb_filter_protocol(&f));
	expect_out(&c, "uci", "uci", 0);
	fb_filter_free(&f);

	filter_init(&f, &fb_protocol_uci, FB_XFEN, FB_SHREDDER);
	s = sink_of(&c);
	fb_filter_gui_line(&f, pos, sizeof pos - 2, 1, FB_LINE_RAW, &s);
	expect_out(&c, pos, pos, 0);
	s = sink_of(&c);
	fb_filter_gui_line(&f, pos, sizeof pos - 2, 0, FB_LINE_RAW, &s);
	assert_int_equal(c.nout, sizeof pos - 2);
	assert_memory_equal(c.out, pos, sizeof pos - 2);
	s = sink_of(&c);
	fb_filter_gui_line(&f, "\n", 0, 1, FB_LINE_CONT, &s);
	expect_out(&c, "\n", "\n", 0);
	s = engine_sink_of(&c);
	fb_filter_engine_line(&f, "\n", 0, 1, FB_LINE_CONT, &s);
	expect_out(&c, "\n", "\n", 0);
	fb_filter_free(&f);

	xboard_filter(&f, FB_XFEN, FB_SHREDDER);
	s = sink_of(&c);
	fb_filter_gui_line(&f, "variant shogi", 13, 0, FB_LINE_RAW, &s);
	assert_non_null(known_variant(&f));
	s = sink_of(&c);
	fb_filter_gui_line(&f, setb, sizeof setb - 2, 1, FB_LINE_RAW, &s);
	expect_out(&c, setb, setb, 0);
	s = engine_sink_of(&c);
	fb_filter_engine_line(&f, setup, sizeof setup - 2, 1, FB_LINE_RAW, &s);
	expect_out(&c, setup, setup, 0);
	s = sink_of(&c);
	fb_filter_gui_line(&f, setb, sizeof setb - 2, 1,
			   FB_LINE_RAW | FB_LINE_UNTERMINATED, &s);
	expect_out(&c, setb, setb, 0);
	s = engine_sink_of(&c);
	fb_filter_engine_line(&f, "\n", 0, 1, FB_LINE_CONT, &s);
	expect_out(&c, "\n", "\n", 0);
	/* An unterminated last line that is not raw is filtered. */
	s = sink_of(&c);
	fb_filter_gui_line(&f, setb, sizeof setb - 2, 0, FB_LINE_UNTERMINATED,
			   &s);
	assert_int_equal(c.nout, sizeof setb - 2);
	assert_memory_equal(c.out, "setboard " START " w KQkq - 0 1",
			    sizeof setb - 2);
	fb_filter_free(&f);
}

static void
test_filter_protocol_find(void **state)
{
	(void)state;
	assert_ptr_equal(fb_protocol_find("uci"), &fb_protocol_uci);
	assert_ptr_equal(fb_protocol_find("xboard"), &fb_protocol_xboard);
	assert_ptr_equal(fb_protocol_find("cecp"), &fb_protocol_xboard);
	assert_ptr_equal(fb_protocol_find("winboard"), &fb_protocol_xboard);
	assert_null(fb_protocol_find("nope"));
	assert_null(fb_protocol_find(""));
	assert_null(fb_protocol_find("UCIX"));
	assert_string_equal(fb_protocol_uci.name, "uci");
	assert_string_equal(fb_protocol_xboard.name, "xboard");
	/* The one home of in-band wording: each protocol's prefixes. */
	assert_string_equal(fb_protocol_prefix(&fb_protocol_uci, FB_SAY_NOTE),
			    "info string ");
	assert_string_equal(
		fb_protocol_prefix(&fb_protocol_uci, FB_SAY_WARNING),
		"info string ");
	assert_string_equal(fb_protocol_prefix(&fb_protocol_uci, FB_SAY_ERROR),
			    "info string ");
	assert_string_equal(
		fb_protocol_prefix(&fb_protocol_xboard, FB_SAY_NOTE), "# ");
	assert_string_equal(
		fb_protocol_prefix(&fb_protocol_xboard, FB_SAY_WARNING),
		"telluser ");
	assert_string_equal(
		fb_protocol_prefix(&fb_protocol_xboard, FB_SAY_ERROR),
		"tellusererror ");
}

struct relay {
	struct fb_filter *f;
	const struct fb_sink *s;
};

static void
relay_line(void *ctx, const char *text, size_t len, size_t term, unsigned flags)
{
	struct relay *r = ctx;

	fb_filter_gui_line(r->f, text, len, term, flags, r->s);
}

/* Frames in split at cut (two pushes), filters it and checks the output. */
static void
relay_split(const char *in, size_t cut, size_t max, const char *want)
{
	size_t n = strlen(in);
	struct fb_filter f;
	struct fb_line lf;
	struct capture c;
	struct fb_sink s = sink_of(&c);
	struct relay r = {&f, &s};

	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	fb_line_init(&lf, max);
	assert_int_equal(fb_line_push(&lf, in, cut, relay_line, &r), 0);
	assert_int_equal(fb_line_push(&lf, in + cut, n - cut, relay_line, &r),
			 0);
	fb_line_finish(&lf, relay_line, &r);
	fb_line_free(&lf);
	if (c.nout != strlen(want) || memcmp(c.out, want, c.nout) != 0)
		fail_msg("split at %zu, max %zu: gave '%.*s'", cut, max,
			 (int)c.nout, c.out);
	if (c.nwarn != 0)
		fail_msg("split at %zu, max %zu: warning '%s'", cut, max,
			 c.rep[0].msg);
	assert_int_equal(c.nback, 0);
	assert_true(f.gui_quit);
	fb_filter_free(&f);
}

/* The framer feeding the filter: the output is the same for every split. */
static void
test_filter_fed_by_framer_split_at_every_byte(void **state)
{
	static const char in[] = "uci\r\n"
				 "setoption name UCI_Chess960 value true\r\n"
				 "position fen " F960
				 " w GEge - 0 1 moves e2e4 e7e5\r\n"
				 "position startpos\r"
				 "position fen " START " w HAha - 0 1\n"
				 "go\n"
				 "quit";
	static const char want[] = "uci\r\n"
				   "setoption name UCI_Chess960 value true\r\n"
				   "position fen " F960
				   " w KQkq - 0 1 moves e2e4 e7e5\r\n"
				   "position startpos\r"
				   "position fen " START " w KQkq - 0 1\n"
				   "go\n"
				   "quit";

	(void)state;
	for (size_t k = 0; k <= sizeof in - 1; k++) {
		relay_split(in, k, FB_LINE_DEFAULT_MAX, want);
		/* Under a cap of 64 the position lines are raw: unchanged. */
		relay_split(in, k, 64, in);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_filter_detects_protocol_from_first_command),
		cmocka_unit_test(test_filter_quit_sets_gui_quit),
		cmocka_unit_test(
			test_filter_raw_and_cont_pieces_pass_unchanged),
		cmocka_unit_test(test_filter_protocol_find),
		cmocka_unit_test(test_filter_fed_by_framer_split_at_every_byte),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
