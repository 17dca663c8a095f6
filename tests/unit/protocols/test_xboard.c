/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the XBoard pair (protocols/xboard.c: an XBoard GUI with an
 * XBoard engine) through a capturing sink (capture.h): `setboard` in every
 * known variant, Janus' X-FEN prefix, spacing and terminators, unknown
 * variants until `new`, the engine's `setup` toward the GUI's FEN, a
 * feature line behind GNU Chess's prompt and a forced option's name.
 *
 * Each line must come out exactly once, compared whole with what is
 * expected; only the castling field may differ from the input.
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
#include "filter.h"

static void
test_filter_xboard_setboard_in_known_variants(void **state)
{
	static const struct {
		const char *variant;
		const char *in;
		const char *want;
	} rows[] = {
		{NULL, "setboard " START " w HAha - 0 1\n",
		 "setboard " START " w KQkq - 0 1\n"},
		{"normal", "setboard " XEX " w Gga - 4 11\n",
		 "setboard " XEX " w Gkq - 4 11\n"},
		{"fischerandom", "setboard " F960 " w GEge - 0 1\n",
		 "setboard " F960 " w KQkq - 0 1\n"},
		{"capablanca", "setboard " CAPA " w JAja - 0 1\n",
		 "setboard " CAPA " w KQkq - 0 1\n"},
		{"caparandom", "setboard " CAPA " b JAja - 0 1\n",
		 "setboard " CAPA " b KQkq - 0 1\n"},
		{"gothic", "setboard " CAPA " w Ja - 0 1\n",
		 "setboard " CAPA " w Kq - 0 1\n"},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(rows); i++) {
		struct fb_filter f;
		char cmd[64];

		xboard_filter(&f, FB_XFEN, FB_SHREDDER);
		expect_same(&f, true, "new\n");
		if (rows[i].variant != NULL) {
			snprintf(cmd, sizeof cmd, "variant %s\n",
				 rows[i].variant);
			expect_same(&f, true, cmd);
			assert_string_equal(fb_filter_variant(&f),
					    rows[i].variant);
		}
		assert_non_null(known_variant(&f));
		expect_line(&f, true, rows[i].in, rows[i].want, 0);
		fb_filter_free(&f);
	}
}

/*
 * Janus chess: X-FEN writes its castling field with the 's' prefix
 * (doc/dialects.md, "Boards": "adds one only when the variant is known
 * (`variant janus`, ...)"); Shredder-FEN has none.
 */
static void
test_filter_xboard_janus_prefix(void **state)
{
	struct fb_filter f;

	(void)state;
	xboard_filter(&f, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "variant janus\n");
	assert_non_null(known_variant(&f));
	expect_line(&f, true, "setboard " CAPA " w JAja - 0 1\n",
		    "setboard " CAPA " w sKQkq - 0 1\n", 0);
	fb_filter_free(&f);

	xboard_filter(&f, FB_SHREDDER, FB_XFEN);
	expect_same(&f, true, "variant janus\n");
	expect_line(&f, true, "setboard " CAPA " w sKQkq - 0 1\n",
		    "setboard " CAPA " w JAja - 0 1\n", 0);
	/* The engine's setup goes to an X-FEN GUI with the prefix. */
	expect_line(&f, false,
		    "setup (PNBRQKACpnbrqkac) 10x8+0_janus " CAPA
		    " w JAja - 0 1\n",
		    "setup (PNBRQKACpnbrqkac) 10x8+0_janus " CAPA
		    " w sKQkq - 0 1\n",
		    0);
	fb_filter_free(&f);
}

static void
test_filter_xboard_setboard_spacing_and_terminators(void **state)
{
	struct fb_filter f;

	(void)state;
	xboard_filter(&f, FB_XFEN, FB_SHREDDER);
	expect_line(&f, true, "setboard\t " START " w  HAha \t-  0   1 \t\r\n",
		    "setboard\t " START " w  KQkq \t-  0   1 \t\r\n", 0);
	expect_line(&f, true, "setboard " START " w HAha - 0 1\r",
		    "setboard " START " w KQkq - 0 1\r", 0);
	expect_line(&f, true, "setboard " START " w HAha - 0 1",
		    "setboard " START " w KQkq - 0 1", 0);
	expect_line(&f, true, "setboard " START " w HAha -\n",
		    "setboard " START " w KQkq -\n", 0);
	expect_line(&f, true, "  setboard " START " b HAha - 0 1\n",
		    "  setboard " START " b KQkq - 0 1\n", 0);
	/* No FEN, a malformed FEN: unchanged, with a warning. */
	expect_line(&f, true, "setboard\n", "setboard\n", 1);
	expect_line(&f, true, "setboard  \r\n", "setboard  \r\n", 1);
	expect_line(&f, true, "setboard " START " w HAhaQ - 0 1\n",
		    "setboard " START " w HAhaQ - 0 1\n", 1);
	expect_line(&f, true, "setboard 8/8/8/8/8/8/8/8 w - - 0 1\n",
		    "setboard 8/8/8/8/8/8/8/8 w - - 0 1\n", 1);
	/* An impossible right: dropped, with a warning. */
	expect_line(&f, true, "setboard " F960 " w GEgeA - 0 1\n",
		    "setboard " F960 " w KQkq - 0 1\n", 1);
	/* Other commands pass. */
	expect_same(&f, true, "force\n");
	expect_same(&f, true, "usermove e2e4\n");
	expect_same(&f, true, "e7e5\n");
	expect_same(&f, true, "edit\n");
	expect_same(&f, true, "setboardx " START " w HAha - 0 1\n");
	fb_filter_free(&f);
}

static void
test_filter_xboard_unknown_variant_until_new(void **state)
{
	static const char *const unknown[] = {"shogi", "suicide", "3check",
					      "xiangqi", "fairy"};
	static const char setb[] = "setboard " START " w HAha - 0 1\n";
	static const char setb_x[] = "setboard " START " w KQkq - 0 1\n";
	static const char setup[] = "setup (PNBRQKpnbrqk) 8x8+0_fairy " START
				    " w KQkq - 0 1\n";
	static const char setup_s[] = "setup (PNBRQKpnbrqk) 8x8+0_fairy " START
				      " w HAha - 0 1\n";

	(void)state;
	for (size_t i = 0; i < N_ELEMS(unknown); i++) {
		struct fb_filter f;
		char cmd[64];

		xboard_filter(&f, FB_XFEN, FB_SHREDDER);
		snprintf(cmd, sizeof cmd, "variant %s\r\n", unknown[i]);
		expect_same(&f, true, cmd);
		assert_null(known_variant(&f));
		expect_same(&f, true, setb);
		expect_same(&f, false, setup);
		expect_same(&f, true, "force\n");
		expect_same(&f, true, setb);
		expect_same(&f, true, "new\n");
		assert_non_null(known_variant(&f));
		assert_string_equal(fb_filter_variant(&f), "normal");
		expect_line(&f, true, setb, setb_x, 0);
		expect_line(&f, false, setup, setup_s, 0);
		/* A known variant after an unknown one works again too. */
		expect_same(&f, true, cmd);
		expect_same(&f, true, "variant fischerandom\n");
		expect_line(&f, true, setb, setb_x, 0);
		fb_filter_free(&f);
	}
}

static void
test_filter_xboard_engine_setup_to_gui_fen(void **state)
{
	struct fb_filter f;

	(void)state;
	xboard_filter(&f, FB_XFEN, FB_SHREDDER);
	expect_line(&f, false,
		    "setup (PNBRQKpnbrqk) 8x8+0_fairy " START " w KQkq - 0 1\n",
		    "setup (PNBRQKpnbrqk) 8x8+0_fairy " START " w HAha - 0 1\n",
		    0);
	expect_line(&f, false, "setup " F960 " w KQkq - 0 1\r\n",
		    "setup " F960 " w GEge - 0 1\r\n", 0);
	expect_line(&f, false, "setup  " XEX "  w Gkq - 4 11 \n",
		    "setup  " XEX "  w Gga - 4 11 \n", 0);
	expect_same(&f, false, "setup " START " w HAha - 0 1\n");
	expect_same(&f, false, "setup (PNBRQKpnbrqk)\n");
	expect_same(&f, false, "setup\n");
	expect_same(&f, false,
		    "feature setboard=1 variants=\"normal,"
		    "fischerandom\" done=1\n");
	expect_same(&f, false, "telluser setboard " START " w HAha - 0 1\n");
	expect_line(&f, false, "setup " START " w KQkq - 0 x\n",
		    "setup " START " w KQkq - 0 x\n", 1);
	fb_filter_free(&f);

	/* Toward an X-FEN GUI. */
	xboard_filter(&f, FB_SHREDDER, FB_XFEN);
	expect_line(&f, false, "setup " F960 " w GEge - 0 1\n",
		    "setup " F960 " w KQkq - 0 1\n", 0);
	expect_line(&f, true, "setboard " F960 " w KQkq - 0 1\n",
		    "setboard " F960 " w GEge - 0 1\n", 0);
	fb_filter_free(&f);
}

/*
 * GNU Chess writes its prompt before a line (`White (1) : feature ...`,
 * doc/protocols.md): the feature line behind it is read all the same, so
 * an unquoted myname is quoted and the variants list extended.
 */
static void
test_filter_xboard_feature_behind_a_prompt(void **state)
{
	struct fb_filter f;

	(void)state;
	xboard_filter(&f, FB_XFEN, FB_SHREDDER);
	expect_line(&f, false,
		    "White (1) : feature myname=GNU variants=\"normal\" "
		    "done=1\n",
		    "White (1) : feature myname=\"GNU\" "
		    "variants=\"normal,fischerandom\" done=1\n",
		    0);
	fb_filter_free(&f);
}

/* `option NAME=VALUE` with a blank in NAME (an XBoard spin from a UCI
 * engine's `Skill Level`): the config's forced option is found whole. */
static void
test_filter_xboard_forced_option_with_a_blank(void **state)
{
	static const struct fb_engine_option forced[] = {
		{"Skill Level", "20", FB_OPT_SET | FB_OPT_FORCED}};
	struct fb_filter_options opt = {
		.proto = &fb_protocol_xboard,
		.engine_fen = FB_XFEN,
		.gui_fen = FB_SHREDDER,
		.options = forced,
		.noptions = 1,
	};
	struct fb_filter f;
	struct capture c;

	(void)state;
	fb_filter_init(&f, &opt);
	expect_same(&f, true, "xboard\n");
	expect_same(&f, true, "protover 2\n");
	feed(&f, true, "option Skill Level=5\n", &c);
	assert_int_equal(c.nout, 0);
	expect_same(&f, true, "option Threads=2\n");
	fb_filter_free(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_xboard_setboard_in_known_variants),
		cmocka_unit_test(test_filter_xboard_janus_prefix),
		cmocka_unit_test(
			test_filter_xboard_setboard_spacing_and_terminators),
		cmocka_unit_test(test_filter_xboard_unknown_variant_until_new),
		cmocka_unit_test(test_filter_xboard_engine_setup_to_gui_fen),
		cmocka_unit_test(test_filter_xboard_feature_behind_a_prompt),
		cmocka_unit_test(test_filter_xboard_forced_option_with_a_blank),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
