/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the UCI pair (protocols/uci.c: a UCI GUI with a UCI engine)
 * through a capturing sink (capture.h): `position fen` toward X-FEN and
 * Shredder-FEN engines, line after line in one session, an overlong FEN,
 * the engine's lines, Embassy, the position cache, UCI_Chess960 set by
 * the config, and a re-anchored line's leading blanks.
 *
 * Each line must come out exactly once: the captured bytes of one line are
 * compared whole with what is expected, so a dropped or doubled piece fails.
 * Only the castling field (and, toward X-FEN, an en-passant square with no
 * capture, doc/dialects.md) may differ from the input.
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

struct filter_case {
	const char *in;
	const char *want;
	size_t nwarn;
};

/*
 * UCI GUI lines toward an X-FEN engine. Each row runs on a fresh filter that
 * has seen `uci`. The moves are not castling moves (those are rewritten by
 * notation, which is not what these rows test).
 */
static const struct filter_case uci_to_xfen[] = {
	{"position fen " START " w HAha - 0 1 moves e2e4 e7e5\n",
	 "position fen " START " w KQkq - 0 1 moves e2e4 e7e5\n", 0},
	{"position fen " F960 " w GEge - 0 1 moves e2e4\n",
	 "position fen " F960 " w KQkq - 0 1 moves e2e4\n", 0},
	{"position fen " XEX " w Gga - 4 11\n",
	 "position fen " XEX " w Gkq - 4 11\n", 0},
	/* Runs of spaces and tabs everywhere stay as they were. */
	{"position\tfen \t " START
	 " \t w  HAha\t-   0  1 \t moves\t e2e4  e7e5 "
	 "\n",
	 "position\tfen \t " START
	 " \t w  KQkq\t-   0  1 \t moves\t e2e4  e7e5 "
	 "\n",
	 0},
	{"  position  fen  " START " w HAha - 0 1\n",
	 "  position  fen  " START " w KQkq - 0 1\n", 0},
	/* CRLF, lone CR, and no terminator (the last line of the input). */
	{"position fen " START " w HAha - 0 1 moves e2e4\r\n",
	 "position fen " START " w KQkq - 0 1 moves e2e4\r\n", 0},
	{"position fen " START " w HAha - 0 1 moves e2e4\r",
	 "position fen " START " w KQkq - 0 1 moves e2e4\r", 0},
	{"position fen " START " w HAha - 0 1",
	 "position fen " START " w KQkq - 0 1", 0},
	/* A bare trailing `moves`, and blanks after the FEN. */
	{"position fen " START " w HAha - 0 1 moves\n",
	 "position fen " START " w KQkq - 0 1 moves\n", 0},
	{"position fen " START " w HAha - 0 1 moves \r\n",
	 "position fen " START " w KQkq - 0 1 moves \r\n", 0},
	{"position fen " START " w HAha - 0 1 \t \n",
	 "position fen " START " w KQkq - 0 1 \t \n", 0},
	/* 4 and 5 fields keep their count. */
	{"position fen " START " w HAha -\n",
	 "position fen " START " w KQkq -\n", 0},
	{"position fen " START " w HAha - moves e2e4\r\n",
	 "position fen " START " w KQkq - moves e2e4\r\n", 0},
	{"position fen " START " w HAha - 0 moves e2e4\n",
	 "position fen " START " w KQkq - 0 moves e2e4\n", 0},
	/* Counters with leading zeros are copied. */
	{"position fen " START " w HAha - 007 0042\n",
	 "position fen " START " w KQkq - 007 0042\n", 0},
	/* Toward X-FEN an en-passant square without a capture becomes '-'. */
	{"position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha e3 "
	 "0 1 moves e7e5\n",
	 "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - "
	 "0 1 moves e7e5\n",
	 0},
	/* Already X-FEN: passed as it came. */
	{"position fen " START " w KQkq - 0 1 moves e2e4\n",
	 "position fen " START " w KQkq - 0 1 moves e2e4\n", 0},
	{"position fen " XEX " w Gkq - 4 11\n",
	 "position fen " XEX " w Gkq - 4 11\n", 0},
	/* Not a FEN position: passed unchanged. */
	{"position startpos moves e2e4 e7e5\n",
	 "position startpos moves e2e4 e7e5\n", 0},
	{"position startpos\r\n", "position startpos\r\n", 0},
	{"positionfen " START " w HAha - 0 1\n",
	 "positionfen " START " w HAha - 0 1\n", 0},
	{"setoption name Hash value 64\n", "setoption name Hash value 64\n", 0},
	{"go wtime 1000 btime 1000\n", "go wtime 1000 btime 1000\n", 0},
	{"isready\r\n", "isready\r\n", 0},
	{"\n", "\n", 0},
	{"", "", 0},
	/* No FEN after `fen`: unchanged, with a warning. */
	{"position fen\n", "position fen\n", 1},
	{"position fen   \r\n", "position fen   \r\n", 1},
	{"position fen moves e2e4\n", "position fen moves e2e4\n", 1},
	/* Malformed: unchanged, with a warning. */
	{"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w HAha - 0 1\n",
	 "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w HAha - 0 1\n", 1},
	{"position fen " START " w HAha - 0 1 e2e4\n",
	 "position fen " START " w HAha - 0 1 e2e4\n", 1},
	{"position fen " START " w HAhaX - 0 1\n",
	 "position fen " START " w HAhaX - 0 1\n", 1},
	{"position fen " START " x HAha - 0 1 moves e2e4\n",
	 "position fen " START " x HAha - 0 1 moves e2e4\n", 1},
	{"position fen " START "\n", "position fen " START "\n", 1},
	/* An impossible right is dropped, with a warning. */
	{"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w HAha - 0 1 "
	 "moves e2e4\n",
	 "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1 "
	 "moves e2e4\n",
	 1},
	{"position fen " START " w HAhaB - 0 1\n",
	 "position fen " START " w KQkq - 0 1\n", 1},
};

/* Toward a Shredder-FEN engine. */
static const struct filter_case uci_to_shredder[] = {
	{"position fen " START " w KQkq - 0 1 moves e2e4\n",
	 "position fen " START " w HAha - 0 1 moves e2e4\n", 0},
	{"position fen " XEX " w Gkq - 4 11\r\n",
	 "position fen " XEX " w Gga - 4 11\r\n", 0},
	{"position fen " F960 " b Kq -\n", "position fen " F960 " b Ge -\n", 0},
	{"position fen " START " w - - 0 1\n",
	 "position fen " START " w - - 0 1\n", 0},
	{"position fen " START " w HAha - 0 1\n",
	 "position fen " START " w HAha - 0 1\n", 0},
};

static void
run_uci_cases(const struct filter_case *cases, size_t n,
	      enum fb_notation engine_fen)
{
	for (size_t i = 0; i < n; i++) {
		struct fb_filter f;
		struct capture c;

		/* No `uci`: its lines would wait for the engine's uciok. */
		filter_init(&f, &fb_protocol_uci, engine_fen, FB_SHREDDER);
		feed(&f, true, cases[i].in, &c);
		expect_out(&c, cases[i].in, cases[i].want, cases[i].nwarn);
		/* A warning names the command. */
		for (size_t r = 0; r < c.nrep && r < MAX_REPORTS; r++)
			if (c.rep[r].level >= FB_LOG_WARN &&
			    strstr(c.rep[r].msg, "position fen") == NULL)
				fail_msg("'%s': report '%s' does not name the "
					 "command",
					 cases[i].in, c.rep[r].msg);
		fb_filter_free(&f);
	}
}

static void
test_filter_uci_position_fen_to_xfen(void **state)
{
	(void)state;
	run_uci_cases(uci_to_xfen, N_ELEMS(uci_to_xfen), FB_XFEN);
}

static void
test_filter_uci_position_fen_to_shredder(void **state)
{
	(void)state;
	run_uci_cases(uci_to_shredder, N_ELEMS(uci_to_shredder), FB_SHREDDER);
}

/* The same filter, line after line: each is handled on its own. */
static void
test_filter_uci_rows_in_one_session(void **state)
{
	struct fb_filter f;

	(void)state;
	filter_init(&f, &fb_protocol_uci, FB_XFEN, FB_SHREDDER);
	for (size_t i = 0; i < N_ELEMS(uci_to_xfen); i++) {
		/* An unterminated row would run into the next one. */
		const char *in = uci_to_xfen[i].in;
		size_t n = strlen(in);
		if (n == 0 || (in[n - 1] != '\n' && in[n - 1] != '\r'))
			continue;
		expect_line(&f, true, in, uci_to_xfen[i].want,
			    uci_to_xfen[i].nwarn);
	}
	fb_filter_free(&f);
}

/* A FEN too long for the filter's buffer passes unchanged, with a warning. */
static void
test_filter_uci_overlong_fen_passes_unchanged(void **state)
{
	static char line[3000];
	struct fb_filter f;
	size_t o;

	(void)state;
	o = (size_t)snprintf(line, sizeof line, "position fen %s w HAha - 0 ",
			     START);
	memset(line + o, '0', 2000);
	memcpy(line + o + 2000, "1 moves e2e4\n", sizeof "1 moves e2e4\n");
	filter_init(&f, &fb_protocol_uci, FB_XFEN, FB_SHREDDER);
	expect_line(&f, true, line, line, 1);
	fb_filter_free(&f);
}

static void
test_filter_uci_engine_lines_unchanged(void **state)
{
	struct fb_filter f;

	(void)state;
	filter_init(&f, &fb_protocol_uci, FB_XFEN, FB_SHREDDER);
	expect_same(&f, false, "id name Stockfish 15.1\n");
	expect_same(&f, false,
		    "option name UCI_Chess960 type check default "
		    "false\r\n");
	expect_same(&f, false,
		    "info string position fen " START " w HAha - 0 1\n");
	expect_same(&f, false, "info depth 1 score cp 20 pv e2e4 e7e5\n");
	expect_same(&f, false, "bestmove e2e4 ponder e7e5\n");
	expect_same(&f, false, "\r\n");
	fb_filter_free(&f);
}

/*
 * Embassy castles the king three files (X-FEN prefix m): king to h1 with
 * the rook to g1, or to b1 with the rook to c1. Its FENs are translated
 * (with the prefix toward X-FEN) and its game is followed by its rules.
 */
static void
test_filter_uci_embassy_followed(void **state)
{
	static const char efen[] =
		"r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R";
	char in[256], want[256];
	const struct fb_game *g;
	struct fb_filter f;

	(void)state;
	filter_init(&f, &fb_protocol_uci, FB_XFEN, FB_SHREDDER);
	/* An engine with Chess960 off: standard notation, whose rights
	 * are those of the king on its home square, e1 in Embassy. */
	expect_same(&f, false,
		    "option name UCI_Chess960 type check default false\n");
	expect_same(&f, false, "uciok\n");
	expect_same(&f, true, "setoption name UCI_Variant value embassy\n");
	snprintf(in, sizeof in,
		 "position fen %s w JAja - 0 1 moves e1b1 e8h8\n", efen);
	snprintf(want, sizeof want,
		 "position fen %s w mKQkq - 0 1 moves e1b1 e8h8\n", efen);
	expect_line(&f, true, in, want, 0);
	g = fb_filter_game(&f);
	assert_non_null(g);
	assert_int_equal(g->board[0][1], 'K');
	assert_int_equal(g->board[0][2], 'R');
	assert_int_equal(g->board[7][7], 'k');
	assert_int_equal(g->board[7][6], 'r');
	assert_int_equal(g->board[7][9], 0);
	fb_filter_free(&f);
}

/*
 * The position cache reuses a line's game only while the line means the
 * same thing: after UCI_Variant or UCI_Chess960 change, `position startpos
 * moves ...` is read again (found by fuzzing: the 8x8 game was kept for a
 * Capablanca startpos).
 */
static void
test_filter_uci_cache_follows_variant_and_chess960(void **state)
{
	struct fb_filter f;

	(void)state;
	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "uci\n");
	expect_same(&f, false,
		    "option name UCI_Chess960 type check default "
		    "false\n");
	expect_same(&f, false, "uciok\n");
	expect_same(&f, true, "position startpos moves e2e4\n");
	assert_int_equal(fb_filter_game(&f)->width, 8);
	expect_same(&f, true, "setoption name UCI_Variant value capablanca\n");
	expect_same(&f, true, "position startpos moves e2e4\n");
	assert_int_equal(fb_filter_game(&f)->width, 10);
	assert_int_equal(fb_filter_game(&f)->board[3][4], 'P');

	/* With UCI_Chess960 on, the same line's castling goes out as king
	 * takes rook: the cached king-move edit must not be reused. */
	expect_same(&f, true, "setoption name UCI_Variant value chess\n");
	expect_same(&f, true,
		    "position startpos moves e2e4 e7e5 g1f3 b8c6 "
		    "f1c4 g8f6 e1g1\n");
	expect_same(&f, true, "setoption name UCI_Chess960 value true\n");
	expect_line(&f, true,
		    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 "
		    "e1g1\n",
		    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 "
		    "e1h1\n",
		    0);
	fb_filter_free(&f);
}

/*
 * UCI_Chess960 set by the config file (here forced) counts as set: the
 * engine gets king-takes-rook castling and the GUI's own setting, dropped,
 * still decides the GUI's notation.
 */
static void
test_filter_uci_config_chess960_sets_the_mode(void **state)
{
	static const struct fb_engine_option forced[] = {
		{"UCI_Chess960", "true", FB_OPT_SET | FB_OPT_FORCED}};
	struct fb_filter_options opt = {
		.engine_fen = FB_XFEN,
		.gui_fen = FB_SHREDDER,
		.gui_castling = FB_CASTLE_AUTO,
		.engine_castling = FB_CASTLE_AUTO,
		.options = forced,
		.noptions = 1,
	};
	struct fb_filter f;
	struct capture c;
	struct fb_sink s = engine_sink_of(&c);

	(void)state;
	fb_filter_init(&f, &opt);
	expect_same(&f, true, "uci\n");
	expect_same(&f, false,
		    "option name UCI_Chess960 type check default "
		    "false\n");
	fb_filter_engine_line(&f, "uciok\n", 5, 1, 0, &s);
	c.back[c.nback] = '\0';
	assert_non_null(strstr(c.back, "setoption name UCI_Chess960 value "
				       "true\n"));
	/* The GUI's own setoption is dropped, but noted for its side. */
	s = sink_of(&c);
	fb_filter_gui_line(&f, "setoption name UCI_Chess960 value true\n", 38,
			   1, 0, &s);
	assert_int_equal(c.nout, 0);
	expect_same(&f, true,
		    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 "
		    "e1h1\n");
	fb_filter_free(&f);
}

/*
 * A re-anchored position keeps the line's own bytes before its command
 * word (a fuzz finding: the blanks before `position` were lost, so the
 * engine got a line the GUI never wrote the start of).
 */
static void
test_filter_uci_reanchor_keeps_leading_blanks(void **state)
{
	struct fb_filter f;
	struct capture c;
	static const char want[] =
		" \tposition fen rk2r3/pppppppp/8/8/8/8/PPPPPPPP/2KRR3 b - - 1 "
		"1 moves e7e5\n";

	(void)state;
	filter_init(&f, &fb_protocol_uci, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "uci\n");
	feed(&f, false, "uciok\n", &c); /* no UCI_Chess960: standard */
	/* The king on b1 takes its rook on a1: O-O-O, which standard
	 * notation cannot write. */
	feed(&f, true,
	     " \tposition fen rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w Q - "
	     "moves b1a1 e7e5\n",
	     &c);
	assert_int_equal(c.nout, strlen(want));
	assert_memory_equal(c.out, want, c.nout);
	assert_int_equal(c.nwarn, 0);
	fb_filter_free(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_uci_position_fen_to_xfen),
		cmocka_unit_test(test_filter_uci_position_fen_to_shredder),
		cmocka_unit_test(test_filter_uci_rows_in_one_session),
		cmocka_unit_test(test_filter_uci_overlong_fen_passes_unchanged),
		cmocka_unit_test(test_filter_uci_engine_lines_unchanged),
		cmocka_unit_test(
			test_filter_uci_cache_follows_variant_and_chess960),
		cmocka_unit_test(test_filter_uci_embassy_followed),
		cmocka_unit_test(test_filter_uci_config_chess960_sets_the_mode),
		cmocka_unit_test(test_filter_uci_reanchor_keeps_leading_blanks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
