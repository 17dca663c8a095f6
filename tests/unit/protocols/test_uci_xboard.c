/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the UCI GUI with an XBoard engine pair
 * (protocols/uci_xboard/) through the filter: each case is a script of
 * lines from the GUI ("g ") and the engine ("e "), and timer expiries
 * ("t"), and the exact transcript of what went to the engine ("> "), to
 * the GUI ("< ") and to the timer ("timer N").
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

#include "script.h"
#include "filter.h"

/* Runs script through a UCI-GUI/XBoard-engine filter with opt's extras and
 * returns the transcript (static). */
static const char *
run_with(const char *script, const struct fb_filter_options *extra)
{
	static struct script s;
	struct fb_filter_options opt = {
		.proto = &fb_protocol_uci,
		.engine_proto = &fb_protocol_xboard,
		.engine_fen = FB_XFEN,
		.gui_fen = FB_SHREDDER,
		.gui_castling = FB_CASTLE_AUTO,
		.engine_castling = FB_CASTLE_AUTO,
	};
	const char *t;

	if (extra != NULL) {
		opt.options = extra->options;
		opt.noptions = extra->noptions;
		opt.name = extra->name;
		opt.engine_castling = extra->engine_castling;
		opt.normalize = extra->normalize;
	}
	script_start(&s, &opt);
	t = script_step(&s, script);
	script_end(&s);
	return t;
}

static const char *
run(const char *script)
{
	return run_with(script, NULL);
}

/* The handshake of an engine like Sjaak II: features accepted or
 * rejected, then the GUI's id, options and uciok. */
#define SJAAK_HELLO                                                            \
	"g uci\n"                                                              \
	"e feature setboard=1 ping=1 analyze=1 nps=1 sjef=1 "                  \
	"myname=\"Sjaak II\" variants=\"normal,fischerandom,capablanca,"       \
	"caparandom\"\n"                                                       \
	"e feature done=1\n"
#define SJAAK_HELLO_OUT                                                        \
	"> xboard\n"                                                           \
	"> protover 2\n"                                                       \
	"timer 100\n"                                                          \
	"timer 2000\n"                                                         \
	"> accepted setboard\n"                                                \
	"> accepted ping\n"                                                    \
	"> accepted analyze\n"                                                 \
	"> accepted nps\n"                                                     \
	"> rejected sjef\n"                                                    \
	"> accepted myname\n"                                                  \
	"> accepted variants\n"                                                \
	"> accepted done\n"                                                    \
	"timer 0\n"                                                            \
	"> post\n"                                                             \
	"> easy\n"                                                             \
	"< id name Sjaak II\n"                                                 \
	"< id author Sjaak II (XBoard engine, through fenbridge)\n"            \
	"< option name UCI_Chess960 type check default false\n"                \
	"< option name UCI_Variant type combo default chess var chess var "    \
	"chess960 var capablanca var caparandom\n"                             \
	"< option name Ponder type check default false\n"                      \
	"< uciok\n"

/* Fairy-Stockfish in XBoard mode: usermove, an unquoted name, and the
 * quirk that it wants king takes rook for O-O. */
#define FSF_HELLO                                                              \
	"g uci\n"                                                              \
	"e feature setboard=1 usermove=1 ping=1 myname=Fairy-Stockfish "       \
	"variants=\"chess,fischerandom,caparandom,normal\"\n"                  \
	"e feature done=1\n"

static void
test_uci_xboard_handshake(void **state)
{
	(void)state;
	assert_string_equal(run(SJAAK_HELLO "g isready\ne pong 1\n"),
			    SJAAK_HELLO_OUT "> ping 1\n< readyok\n");
}

/* n expiries of the timer ("t" lines). */
static const char *
expiries(unsigned n)
{
	static char t[256];

	assert_true(2 * n < sizeof t);
	for (unsigned i = 0; i < n; i++)
		memcpy(t + 2 * i, "t\n", 2);
	t[2 * n] = '\0';
	return t;
}

/* What a silent engine gets: an empty line every 100 ms of the 10 s it is
 * waited for, n of them (static storage, overwritten by the next call). */
static const char *
nudges(size_t n)
{
	static char t[4096];
	size_t k = 0;

	for (size_t i = 0; i < n && k + 16 < sizeof t; i++)
		k += (size_t)snprintf(t + k, sizeof t - k, "> \ntimer 100\n");
	t[k] = '\0';
	return t;
}

static void
test_uci_xboard_protover1_silence(void **state)
{
	char script[512], want[8192];

	(void)state;
	/* No features and no other line: 99 nudges, then after the 10 s the
	 * GUI hears of an engine of normal chess without ping; isready is
	 * answered at once. */
	snprintf(script, sizeof script, "g uci\ng isready\n%sg isready\n",
		 expiries(100));
	snprintf(want, sizeof want, "> xboard\n> protover 2\ntimer 100\n%s",
		 nudges(99));
	assert_string_equal(
		run(script),
		strcat(want,
		       "timer 0\n> post\n> easy\n"
		       "< id name XBoard engine\n"
		       "< id author XBoard engine (XBoard engine, through "
		       "fenbridge)\n"
		       "< option name UCI_Chess960 type check default "
		       "false\n"
		       "< option name Ponder type check default false\n"
		       "< uciok\n< readyok\n< readyok\n"));
	/* done=0 extends the wait. */
	assert_string_equal(run("g uci\ne feature done=0\n"),
			    "> xboard\n> protover 2\ntimer 100\ntimer 2000\n"
			    "> accepted done\ntimer 30000\n");
}

static void
test_uci_xboard_options(void **state)
{
	static const struct fb_engine_option cfg[] = {
		{"Hidden", NULL, 4},
		{"Skill", "3", 1},
	};
	struct fb_filter_options extra = {
		.options = cfg, .noptions = 2, .name = "Old Engine"};
	(void)state;
	assert_string_equal(
		run_with("g uci\n"
			 "e feature option=\"Resign -check 1\" "
			 "option=\"Clear Hash -button\" "
			 "option=\"Depth -spin 5 1 99\" "
			 "option=\"Style -combo Solid /// *Normal /// Wild\" "
			 "option=\"Book -file book.bin\" "
			 "option=\"Hidden -string x\" "
			 "option=\"UCI_Chess960 -check 0\" "
			 "option=\"Odd -weird 1\" done=1\n"
			 "g setoption name Resign value false\n"
			 "g setoption name Clear Hash\n"
			 "g setoption name Depth value 7\n"
			 "g setoption name Style value Wild\n"
			 "g setoption name Book value /tmp/my book.bin\n"
			 "g setoption name Skill value 9\n",
			 &extra),
		"> xboard\n> protover 2\ntimer 100\ntimer 2000\n"
		"> accepted option\n> accepted option\n> accepted option\n"
		"> accepted option\n> accepted option\n> accepted option\n"
		"> accepted option\n> accepted option\n> accepted done\n"
		"timer 0\n> post\n> easy\n"
		"< id name Old Engine\n"
		"< id author Old Engine (XBoard engine, through fenbridge)\n"
		"< option name UCI_Chess960 type check default false\n"
		"< option name Ponder type check default false\n"
		"< option name Resign type check default true\n"
		"< option name Clear Hash type button\n"
		"< option name Depth type spin default 5 min 1 max 99\n"
		"< option name Style type combo default Normal var Solid var "
		"Normal var Wild\n"
		"< option name Book type string default book.bin\n"
		"> option Skill=3\n"
		"< uciok\n"
		"> option Resign=0\n"
		"> option Clear Hash\n"
		"> option Depth=7\n"
		"> option Style=Wild\n"
		"> option Book=/tmp/my book.bin\n"
		"> option Skill=9\n");
}

static void
test_uci_xboard_position_extends_or_resets(void **state)
{
	(void)state;
	assert_string_equal(
		run(SJAAK_HELLO
		    "g position startpos\n"
		    "g position startpos moves e2e4\n"
		    "g position startpos moves e2e4 e7e5\n"
		    "g position  startpos moves e2e4 e7e5\tg1f3\n"
		    "g position startpos moves d2d4\n"
		    "g ucinewgame\n"
		    "g position startpos moves d2d4\n"
		    "g position fen 4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 moves "
		    "e8d7\n"),
		SJAAK_HELLO_OUT
		"> new\n> force\n"
		"> e2e4\n"
		"> e7e5\n"
		"> g1f3\n"
		"> new\n> force\n> d2d4\n"
		"> new\n> force\n> d2d4\n"
		"> new\n> force\n> setboard 4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\n"
		"> e8d7\n");
}

static void
test_uci_xboard_clocks(void **state)
{
	(void)state;
	assert_string_equal(
		run(SJAAK_HELLO
		    "g position startpos moves e2e4\n"
		    "g go wtime 61000 btime 59990 winc 2000 binc 2000\n"
		    "e move e7e5\n"
		    "g position startpos moves e2e4 e7e5 g1f3\n"
		    "g go wtime 60000 btime 58000 winc 2000 binc 2000\n"
		    "e move b8c6\n"
		    "g position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4\n"
		    "g go wtime 60000 btime 300000 movestogo 40\n"
		    "e move g8f6\n"
		    "g position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 "
		    "d2d3\n"
		    "g go movetime 2500\n"
		    "e move f8c5\n"
		    "g position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 "
		    "d2d3 f8c5 c2c3\n"
		    "g go movetime 300 depth 4\n"
		    "e move d7d6\n"
		    "g go nodes 5000000000\n"),
		SJAAK_HELLO_OUT
		"> new\n> force\n> e2e4\n"
		"> level 0 1 2\n> time 5999\n> otim 6100\n> go\n"
		"> force\n< bestmove e7e5\n"
		"> g1f3\n"
		"> time 5800\n> otim 6000\n> go\n"
		"> force\n< bestmove b8c6\n"
		"> f1c4\n"
		"> level 40 5 0\n> time 30000\n> otim 6000\n> go\n"
		"> force\n< bestmove g8f6\n"
		"> d2d3\n"
		"> st 3\n> go\ntimer 2500\n"
		"timer 0\n> force\n< bestmove f8c5\n"
		"> c2c3\n"
		"> sd 4\n> st 1\n> go\ntimer 300\n"
		"timer 0\n> force\n< bestmove d7d6\n"
		"> sd 64\n> nps 5000000000\n> go\n"); /* st 1 is in force */
}

static void
test_uci_xboard_thinking(void **state)
{
	(void)state;
	/* SAN pvs with move numbers (Sjaak), coordinates after a tab of
	 * extra fields (Fairy-Stockfish), mates both ways; a pv ends at
	 * the first token that is no legal move. */
	assert_string_equal(
		run(SJAAK_HELLO
		    "g position startpos moves e2e4\n"
		    "g go movetime 1000\n"
		    "e   6   -19     38     24336  1. ...  d5 2. Nc3  dxe4 "
		    "3. Nxe4 Qd4 4. Qf3\n"
		    "e 7 30 9 3202 7 34430 0\t d7d5 e4d5 d8d5 Qxq\n"
		    "e 9 100003 12 5000 Nf6 e5 Nd5 e6 junk Nf6\n"
		    "e 9 -100002 12 5000 (Nf6) Nc3\n"
		    "e 20 15 100 5000000000 d5\n" /* past 2^32: Windows */
		    "e move d7d5\n"),
		SJAAK_HELLO_OUT
		"> new\n> force\n> e2e4\n> st 1\n> go\n"
		"< info depth 6 score cp -19 time 380 nodes 24336 pv d7d5 b1c3 "
		"d5e4 c3e4 d8d4 d1f3\n"
		"< info depth 7 score cp 30 time 90 nodes 3202 pv d7d5 e4d5 "
		"d8d5\n"
		"< info depth 9 score mate 3 time 120 nodes 5000 pv g8f6 e4e5 "
		"f6d5 e5e6\n"
		"< info depth 9 score mate -2 time 120 nodes 5000\n"
		"< info depth 20 score cp 15 time 1000 nodes 5000000000 pv "
		"d7d5\n"
		"> force\n< bestmove d7d5\n");
}

/* --normalize: the pair's own lines are right but for two forms: a
 * myname longer than a GUI shows is cut for id name (the author keeps it),
 * and the info lines of its one line say multipv 1. */
static void
test_uci_xboard_normalize(void **state)
{
	const struct fb_filter_options norm = {.normalize = true};
#define LONG_NAME                                                              \
	"Sjaak II: a variant engine by Evert Glebbeek, 64-bit build 2026 x86"
#define LONG_CUT                                                               \
	"Sjaak II: a variant engine by Evert Glebbeek, 64-bit build 2026"
	const char *script = "g uci\n"
			     "e feature setboard=1 ping=1 myname=\"" LONG_NAME
			     "\"\n"
			     "e feature done=1\n"
			     "g position startpos moves e2e4\n"
			     "g go movetime 1000\n"
			     "e 7 30 9 3202 d7d5 e4d5\n";
	const char *t;

	(void)state;
	t = run_with(script, &norm);
	if (strstr(t, "< id name " LONG_CUT "\n") == NULL ||
	    strstr(t, "< id author " LONG_NAME " (XBoard engine") == NULL ||
	    strstr(t, "< info multipv 1 depth 7 score cp 30 time 90 nodes "
		      "3202 pv d7d5 e4d5\n") == NULL)
		fail_msg("%s", t);
	/* Without it, as ever. */
	t = run(script);
	if (strstr(t, "< id name " LONG_NAME "\n") == NULL ||
	    strstr(t, "< info depth 7 score cp 30 time 90 nodes 3202 pv "
		      "d7d5 e4d5\n") == NULL)
		fail_msg("%s", t);
#undef LONG_NAME
#undef LONG_CUT
}

/* A Chess960 start with the rooks on e1 and g1 beside the king on f1 (the
 * inner-rook case: X-FEN KQkq, Shredder GEge). */
#define F960 "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN"

static void
test_uci_xboard_castling_960(void **state)
{
	(void)state;
	/* Sjaak: O-O toward it; its O-O back as king takes rook. */
	assert_string_equal(
		run(SJAAK_HELLO
		    "g setoption name UCI_Chess960 value true\n"
		    "g position fen " F960 " w GEge - 0 1 moves e2e4\n"
		    "g position fen " F960 " w GEge - 0 1 moves e2e4 "
		    "e7e5 f1g1\n"
		    "g go movetime 1000\n"
		    "e move O-O\n"),
		SJAAK_HELLO_OUT "> new\n> force\n> variant fischerandom\n"
				"> setboard " F960 " w KQkq - 0 1\n"
				"> e2e4\n> e7e5\n> O-O\n"
				"> st 1\n> go\n"
				"> force\n< bestmove f8g8\n");
	/* Fairy-Stockfish: king takes rook both ways (its quirk). */
	assert_string_equal(
		run(FSF_HELLO "g setoption name UCI_Chess960 value true\n"
			      "g position fen " F960
			      " w GEge - 0 1 moves e2e4 e7e5 "
			      "f1g1\n"),
		"> xboard\n> protover 2\ntimer 100\ntimer 2000\n"
		"> accepted setboard\n> accepted usermove\n> accepted ping\n"
		"> accepted myname\n> accepted variants\n> accepted done\n"
		"timer 0\n> post\n> easy\n"
		"< id name Fairy-Stockfish\n"
		"< id author Fairy-Stockfish (XBoard engine, through "
		"fenbridge)\n"
		"< option name UCI_Chess960 type check default false\n"
		"< option name UCI_Variant type combo default chess var chess "
		"var chess960 var caparandom\n"
		"< option name Ponder type check default false\n"
		"< uciok\n"
		"> new\n> force\n> variant fischerandom\n"
		"> setboard " F960 " w KQkq - 0 1\n"
		"> usermove e2e4\n> usermove e7e5\n> usermove f1g1\n");
}

/* A UCI_Variant the engine does not play, with UCI_Chess960 on: the game
 * stays chess960, and a 10x8 position is never sent as its setboard
 * (Fairy-Stockfish 11.1 crashed on `variant fischerandom` and a 10x8
 * setboard); a go gets bestmove 0000. */
static void
test_uci_xboard_other_width_not_sent(void **state)
{
	const char *out;

	(void)state;
	out = run(FSF_HELLO "g setoption name UCI_Variant value centaur\n"
			    "g setoption name UCI_Chess960 value true\n"
			    "g position fen rcnbqkbncr/pppppppppp/10/10/10/10/"
			    "PPPPPPPPPP/RCNBQKBNCR w KQkq - 0 1\n"
			    "g go depth 2\n");
	assert_null(strstr(out, "> setboard"));
	assert_null(strstr(out, "> variant"));
	assert_null(strstr(out, "> go"));
	assert_non_null(strstr(out, "a 10x8 position in variant chess960"));
	assert_non_null(strstr(out, "< bestmove 0000\n"));
}

/* The X-FEN definition's example: white rooks g1 and h1, the inner g1
 * holds the right (X-FEN G, not K); black's rook g8 is its outermost. */
#define XEX "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR"

static void
test_uci_xboard_castling_inner_rook(void **state)
{
	(void)state;
	assert_string_equal(
		run(SJAAK_HELLO "g setoption name UCI_Chess960 value true\n"
				"g position fen " XEX " w Gg - 0 1 moves e1g1\n"
				"g go depth 3\n"
				"e move O-O\n"),
		SJAAK_HELLO_OUT "> new\n> force\n> variant fischerandom\n"
				"> setboard " XEX " w Gk - 0 1\n"
				"> O-O\n> sd 3\n> level 0 60 0\n> go\n"
				"> force\n< bestmove e8g8\n");
}

#define CRC "rbqnkcnabr/pppppppppp/10/10/10/10/PPPPPPPPPP/RBQNKCNABR"
#define CRC_READY "r3k3br/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K3BR"

static void
test_uci_xboard_castling_10x8(void **state)
{
	(void)state;
	/* Capablanca Random: the a-side castle from e1 goes O-O-O to Sjaak,
	 * and its O-O-O comes back as king takes rook. */
	assert_string_equal(
		run(SJAAK_HELLO
		    "g setoption name UCI_Variant value caparandom\n"
		    "g position fen " CRC_READY " w AJaj - 0 1 moves e1a1\n"
		    "g go movetime 1000\n"
		    "e move O-O-O\n"),
		SJAAK_HELLO_OUT "> new\n> force\n> variant caparandom\n"
				"> setboard " CRC_READY " w KQkq - 0 1\n"
				"> O-O-O\n> st 1\n> go\n"
				"> force\n< bestmove e8a8\n");
}

/* What the GUI hears of an engine of normal chess only that gave no name
 * and no options. */
#define NONAME_NORMAL_IDS                                                      \
	"< id name XBoard engine\n"                                            \
	"< id author XBoard engine (XBoard engine, through fenbridge)\n"       \
	"< option name UCI_Chess960 type check default false\n"                \
	"< option name Ponder type check default false\n"                      \
	"< uciok\n"

/* The handshake of an engine of normal chess only (GNU Chess). */
#define NORMAL_ONLY_HELLO                                                      \
	"g uci\n"                                                              \
	"e feature setboard=1 usermove=1 variants=\"normal\" done=1\n"
#define NORMAL_ONLY_HELLO_OUT                                                  \
	"> xboard\n> protover 2\ntimer 100\ntimer 2000\n"                      \
	"> accepted setboard\n> accepted usermove\n"                           \
	"> accepted variants\n> accepted done\n"                               \
	"timer 0\n> post\n> easy\n" NONAME_NORMAL_IDS

#define F960_GAME "g position fen " F960 " w GEge - 0 1 moves e2e4 e7e5 f1g1"
#define F960_ANCHOR_GUI                                                        \
	"< info string fenbridge: the engine plays fischerandom as normal in " \
	"standard notation; it gets only the castling rights standard FEN "    \
	"can express, and a castle it cannot read as the position after it\n"

static void
test_uci_xboard_emulated_960(void **state)
{
	(void)state;
	/* An engine of normal chess only (GNU Chess): Chess960 is offered,
	 * the engine gets standard rights only and a castle it cannot
	 * read as the position after it; the GUI hears of it once a game;
	 * the time control goes again after each re-anchoring. */
	assert_string_equal(
		run(NORMAL_ONLY_HELLO
		    "g setoption name UCI_Chess960 value true\n" F960_GAME "\n"
		    "g go wtime 60000 btime 60000\n"
		    "e move d7d6\n" F960_GAME " d7d6 d2d3\n"
		    "g go wtime 60000 btime 59000\n"
		    "e move c8b6\n" F960_GAME " d7d6 d2d3 c8b6 c2c3 f8g8\n"
		    "g go wtime 59000 btime 59000\n"
		    "e move b2b3\n"
		    "g ucinewgame\n" F960_GAME "\n"),
		NORMAL_ONLY_HELLO_OUT
		"> new\n> force\n"
		"> setboard " F960 " w - - 0 1\n"
		"> usermove e2e4\n> usermove e7e5\n" F960_ANCHOR_GUI
		"> setboard bqnbrkrn/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/BQNBRRKN b - "
		"- 1 2\n"
		"> level 0 1 0\n> time 6000\n> otim 6000\n> go\n"
		"> force\n< bestmove d7d6\n"
		"> usermove d2d3\n"
		"> time 5900\n> otim 6000\n> go\n"
		"> force\n< bestmove c8b6\n"
		"> usermove c2c3\n"
		"> setboard bq1brrkn/ppp2ppp/1n1p4/4p3/4P3/2PP4/PP3PPP/BQNBRRKN w - "
		"- 1 5\n"
		"> level 0 0:59 0\n> time 5900\n> otim 5900\n> go\n"
		"> force\n< bestmove b2b3\n"
		"> new\n> force\n"
		"> setboard " F960 " w - - 0 1\n"
		"> usermove e2e4\n> usermove e7e5\n" F960_ANCHOR_GUI
		"> setboard bqnbrkrn/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/BQNBRRKN b - "
		"- 1 2\n");
}

static void
test_uci_xboard_castle_the_notation_cannot_write(void **state)
{
	struct fb_filter_options king = {.engine_castling = FB_CASTLE_KING};

	(void)state;
	/* --engine-castling=king: the a-side castle of a king on c1 with
	 * its rook on b1 has no king's move (the king goes to c1, where it
	 * is): the engine gets the position after it (the policy's
	 * re-anchoring), not a game that stops before it. */
	assert_string_equal(
		run_with(
			SJAAK_HELLO
			"g setoption name UCI_Chess960 value true\n"
			"g position fen 1rk1r3/pppppppp/8/8/8/8/PPPPPPPP/1RK1R3 w "
			"EBeb - 0 1 moves c1b1\n",
			&king),
		SJAAK_HELLO_OUT
		"> new\n> force\n> variant fischerandom\n"
		"> setboard 1rk1r3/pppppppp/8/8/8/8/PPPPPPPP/1RK1R3 w KQkq - 0 1\n"
		"< info string fenbridge: the engine's castling notation "
		"cannot write every castle; a castle it cannot write goes as "
		"the position after it\n"
		"> setboard 1rk1r3/pppppppp/8/8/8/8/PPPPPPPP/2KRR3 b kq - 1 1\n");
}

static void
test_uci_xboard_illegal_and_resign(void **state)
{
	(void)state;
	assert_string_equal(
		run(SJAAK_HELLO "g position startpos moves e2e4\n"
				"g go movetime 1000\n"
				"e move e2e4\n"
				"g position startpos moves e2e4\n"
				"g go movetime 1000\n"
				"e resign\n"
				"e Illegal move: e7e4\n"
				"e telluser hello\n"),
		SJAAK_HELLO_OUT
		"> new\n> force\n> e2e4\n> st 1\n> go\n"
		"> force\n"
		"< info string fenbridge: the engine played 'e2e4', which is no "
		"legal move here\n"
		"< bestmove 0000\n"
		"> new\n> force\n> e2e4\n> st 1\n> go\n"
		"< info string fenbridge: the engine says 'resign'\n"
		"> force\n< bestmove 0000\n"
		"< info string fenbridge: the engine says 'Illegal move: "
		"e7e4'\n"
		"< info string hello\n");
}

static void
test_uci_xboard_analysis_and_ponder(void **state)
{
	(void)state;
	assert_string_equal(
		run(SJAAK_HELLO
		    "g position startpos moves e2e4\n"
		    "g go infinite\n"
		    "e 5 20 10 1000 e5 Nf3\n"
		    "g stop\n"
		    "g position startpos moves e2e4 e7e5\n"
		    "g go ponder wtime 1000 btime 2000\n"
		    "g ponderhit\n"
		    "e move g1f3\n"
		    "g position startpos moves e2e4 e7e5 g1f3 b8c6\n"
		    "g go ponder wtime 1000 btime 2000\n"
		    "g stop\n"
		    "g go infinite\n"
		    "g stop\n"
		    "e 3 10 5 100 Bc4 Nf6\n"
		    "g go infinite\n"
		    "g stop\n"
		    "t\n"),
		SJAAK_HELLO_OUT
		"> new\n> force\n> e2e4\n> analyze\n"
		"< info depth 5 score cp 20 time 100 nodes 1000 pv e7e5 "
		"g1f3\n"
		"> exit\n> force\n< bestmove e7e5 ponder g1f3\n"
		"> e7e5\n> analyze\n"
		"> exit\n> force\n> level 0 0:01 0\n> time 100\n> otim 200\n"
		"> go\n> force\n< bestmove g1f3\n"
		"> b8c6\n> analyze\n> exit\n> force\n< bestmove 0000\n"
		/* Stopped before any pv: the first pv is the bestmove, or
		 * after 5 s a legal move that the GUI is told is not the
		 * engine's (the generator's first: b1c3). */
		"> analyze\ntimer 5000\n"
		"< info depth 3 score cp 10 time 50 nodes 100 pv f1c4 g8f6\n"
		"timer 0\n> exit\n> force\n< bestmove f1c4 ponder g8f6\n"
		"> analyze\ntimer 5000\n> exit\n> force\n"
		"< info string fenbridge: the engine showed no move in its "
		"analysis; b1c3 is fenbridge's pick of a legal move, not the "
		"engine's\n< bestmove b1c3\n");
}

/* Fairy-Max 5.0b: no setboard, capablanca and gothic but no random
 * variants, a done=0 first. */
#define FMAX_HELLO                                                             \
	"g uci\n"                                                              \
	"e feature myname=\"Fairy-Max 5.0b\"\n"                                \
	"e feature setboard=0 xedit=1 ping=1 done=0\n"                         \
	"e feature variants=\"normal,nocastle,capablanca,gothic,janus\"\n"     \
	"e feature done=1\n"
#define FMAX_HELLO_OUT                                                         \
	"> xboard\n> protover 2\ntimer 100\ntimer 2000\n"                      \
	"> accepted myname\n"                                                  \
	"> accepted setboard\n> rejected xedit\n> accepted ping\n"             \
	"> accepted done\ntimer 30000\n"                                       \
	"> accepted variants\n"                                                \
	"> accepted done\ntimer 0\n> post\n> easy\n"                           \
	"< id name Fairy-Max 5.0b\n"                                           \
	"< id author Fairy-Max 5.0b (XBoard engine, through fenbridge)\n"      \
	"< option name UCI_Chess960 type check default false\n"                \
	"< option name UCI_Variant type combo default chess var chess var "    \
	"chess960 var capablanca var caparandom var gothic var janus\n"        \
	"< option name Ponder type check default false\n"                      \
	"< uciok\n"

/* The edit of F960's start (each rank from a, rank 1 first). */
#define F960_EDIT_WHITE                                                        \
	"> Ba1\n> Qb1\n> Nc1\n> Bd1\n> Re1\n> Kf1\n> Rg1\n> Nh1\n"
#define F960_EDIT_BLACK                                                        \
	"> Ba8\n> Qb8\n> Nc8\n> Bd8\n> Re8\n> Kf8\n> Rg8\n> Nh8\n"

static void
test_uci_xboard_edit(void **state)
{
	(void)state;
	/* No setboard: every start goes as edit, 10x8 too (archbishop A,
	 * chancellor C, as Fairy-Max reads them). */
	assert_string_equal(
		run(FMAX_HELLO "g setoption name UCI_Variant value caparandom\n"
			       "g position fen " CRC " w AJaj - 0 1\n"),
		FMAX_HELLO_OUT
		"> new\n> force\n> variant capablanca\n> edit\n> #\n"
		"> Ra1\n> Bb1\n> Qc1\n> Nd1\n> Ke1\n> Cf1\n> Ng1\n> Ah1\n"
		"> Bi1\n> Rj1\n"
		"> Pa2\n> Pb2\n> Pc2\n> Pd2\n> Pe2\n> Pf2\n> Pg2\n> Ph2\n"
		"> Pi2\n> Pj2\n> c\n"
		"> Pa7\n> Pb7\n> Pc7\n> Pd7\n> Pe7\n> Pf7\n> Pg7\n> Ph7\n"
		"> Pi7\n> Pj7\n"
		"> Ra8\n> Bb8\n> Qc8\n> Nd8\n> Ke8\n> Cf8\n> Ng8\n> Ah8\n"
		"> Bi8\n> Rj8\n> .\n");
	/* Chess960 played as normal chess: after White's castle the
	 * engine gets a new game, a2a3 (so that Black is to move: edit
	 * keeps the side to move) and the position; then it plays Black. */
	assert_string_equal(
		run(FMAX_HELLO
		    "g setoption name UCI_Chess960 value true\n" F960_GAME "\n"
		    "g go depth 2\n"
		    "e move d7d6\n"),
		FMAX_HELLO_OUT
		"> new\n> force\n> edit\n> #\n" F960_EDIT_WHITE
		"> Pa2\n> Pb2\n> Pc2\n> Pd2\n> Pe2\n> Pf2\n> Pg2\n> Ph2\n"
		"> c\n"
		"> Pa7\n> Pb7\n> Pc7\n> Pd7\n> Pe7\n> Pf7\n> Pg7\n> Ph7\n" F960_EDIT_BLACK
		"> .\n"
		"> e2e4\n> e7e5\n" F960_ANCHOR_GUI
		"> new\n> force\n> a2a3\n> edit\n> #\n"
		"> Ba1\n> Qb1\n> Nc1\n> Bd1\n> Re1\n> Rf1\n> Kg1\n> Nh1\n"
		"> Pa2\n> Pb2\n> Pc2\n> Pd2\n> Pf2\n> Pg2\n> Ph2\n> Pe4\n"
		"> c\n> Pe5\n"
		"> Pa7\n> Pb7\n> Pc7\n> Pd7\n> Pf7\n> Pg7\n> Ph7\n" F960_EDIT_BLACK
		"> .\n"
		"> sd 2\n> level 0 60 0\n> go\n"
		"> force\n< bestmove d7d6\n");
	/* After an analysis the GUI's moves go as the position after them
	 * (Fairy-Max rejects a legal move with a line behind it until its
	 * next timed search); a ? it does not know is not sent again. */
	assert_string_equal(
		run(FMAX_HELLO "g position startpos moves e2e4\n"
			       "g go infinite\n"
			       "e 3 10 5 100 e7e5 g1f3\n"
			       "g stop\n"
			       "g position startpos moves e2e4 e7e5 g1f3\n"
			       "g go movetime 300\n"
			       "t\n"
			       "e move b8c6\n"
			       "e Error (unknown command): ?\n"
			       "g position startpos moves e2e4 e7e5 g1f3 b8c6 "
			       "d2d4\n"
			       "g go movetime 300\n"
			       "e move e5d4\n"
			       "g position startpos moves e2e4 e7e5 g1f3 b8c6 "
			       "d2d4 e5d4 f1c4\n"
			       "g go movetime 2500\n"),
		FMAX_HELLO_OUT
		"> new\n> force\n> e2e4\n> analyze\n"
		"< info depth 3 score cp 10 time 50 nodes 100 pv e7e5 g1f3\n"
		"> exit\n> force\n< bestmove e7e5 ponder g1f3\n"
		"> new\n> force\n> a2a3\n> edit\n> #\n"
		"> Ra1\n> Nb1\n> Bc1\n> Qd1\n> Ke1\n> Bf1\n> Rh1\n"
		"> Pa2\n> Pb2\n> Pc2\n> Pd2\n> Pf2\n> Pg2\n> Ph2\n> Nf3\n> Pe4\n"
		"> c\n> Pe5\n"
		"> Pa7\n> Pb7\n> Pc7\n> Pd7\n> Pf7\n> Pg7\n> Ph7\n"
		"> Ra8\n> Nb8\n> Bc8\n> Qd8\n> Ke8\n> Bf8\n> Ng8\n> Rh8\n> .\n"
		"> st 1\n> go\ntimer 300\n"
		"> ?\n> force\n< bestmove b8c6\n"
		"> d2d4\n> go\n> force\n< bestmove e5d4\n"
		"> f1c4\n> st 2\n> go\n"); /* never more than 2.5 s */
	/* What edit cannot say is told: an en-passant capture. */
	assert_string_equal(
		run(FMAX_HELLO
		    "g position fen 4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1\n"),
		FMAX_HELLO_OUT
		"> new\n> force\n> a2a3\n> edit\n> #\n> Ke1\n> Pe4\n> c\n"
		"> Pd4\n> Ke8\n> .\n"
		"< info string fenbridge: the engine has no setboard, and edit "
		"cannot say the en-passant capture\n");
}

static void
test_uci_xboard_gnuchess(void **state)
{
	(void)state;
	/* GNU Chess 6.2.7 in XBoard mode: silent until nudged, its prompt
	 * before its first feature, every move announced twice (the
	 * second may come after the GUI's next go), no sd ("Invalid move:
	 * sd 3": the depth is reached through the thinking output and ?),
	 * "Invalid move: " to the nudges. */
	assert_string_equal(
		run("g uci\nt\nt\n"
		    "e Chess\n"
		    "e Invalid move: \n"
		    "e White (1) : feature done=0\n"
		    "e feature usermove=1 setboard=1 myname=\"GNU Chess\" "
		    "variants=\"normal\"\n"
		    "e Invalid move: \n"
		    "e feature done=1\n"
		    "g position startpos\n"
		    "g go wtime 1000 btime 1000\n"
		    "e 1 +26 0 2 Nf3\n"
		    "e 1. ... g1f3\n"
		    "g position startpos moves g1f3 g8f6\n"
		    "g go wtime 990 btime 1000\n"
		    "e My move is : g1f3\n"
		    "e 2. ... b1c3\n"
		    "e My move is : b1c3\n"
		    "g position startpos moves g1f3 g8f6 b1c3 d7d5\n"
		    "g go depth 3\n"
		    "e Invalid move: sd 3\n"
		    "e 2 10 0 50 d4 e6\n"
		    "e 3 12 0 150 d4 e6 Bf4\n"
		    "e 3. ... d2d4\n"
		    "e My move is : d2d4\n"
		    "g position startpos moves g1f3 g8f6 b1c3 d7d5 d2d4 e7e6\n"
		    "g go depth 2\n"
		    "e 2 5 0 20 Bf4 Bd6\n"
		    "e 4. ... c1f4\n"
		    "e My move is : c1f4\n"
		    "g position startpos moves g1f3 g8f6 b1c3 d7d5 d2d4 e7e6 "
		    "c1f4 f8d6\n"
		    "g go infinite\n"
		    "e 1 5 0 10 Bxd6\n"
		    "g stop\n"
		    "e White (6) : 6. f4d6\n"
		    "e White (6) : Thinking...\n"
		    "e Invalid move: c1f5\n"),
		"> xboard\n> protover 2\ntimer 100\n"
		"> \ntimer 100\n> \ntimer 100\n"
		"timer 1800\n"
		"> accepted done\ntimer 30000\n"
		"> accepted usermove\n> accepted setboard\n> accepted myname\n"
		"> accepted variants\n"
		"> accepted done\ntimer 0\n> post\n> easy\n"
		"< id name GNU Chess\n"
		"< id author GNU Chess (XBoard engine, through fenbridge)\n"
		"< option name UCI_Chess960 type check default false\n"
		"< option name Ponder type check default false\n"
		"< uciok\n"
		"> new\n> force\n"
		"> level 0 0:01 0\n> time 100\n> otim 100\n> go\n"
		"< info depth 1 score cp 26 time 0 nodes 2 pv g1f3\n"
		"> force\n< bestmove g1f3\n"
		"> usermove g8f6\n"
		"> time 99\n> otim 100\n> go\n"
		"> force\n< bestmove b1c3\n"
		"> usermove d7d5\n"
		"> sd 3\n> level 0 60 0\n> go\n"
		"< info depth 2 score cp 10 time 0 nodes 50 pv d2d4 e7e6\n"
		"< info depth 3 score cp 12 time 0 nodes 150 pv d2d4 e7e6 "
		"c1f4\n"
		"> ?\n"
		"> force\n< bestmove d2d4 ponder e7e6\n"
		"> usermove e7e6\n"
		"> go\n"
		"< info depth 2 score cp 5 time 0 nodes 20 pv c1f4 f8d6\n"
		"> ?\n"
		"> force\n< bestmove c1f4 ponder f8d6\n"
		"> usermove f8d6\n> analyze\n"
		"< info depth 1 score cp 5 time 0 nodes 10 pv f4d6\n"
		"> exit\n> force\n< bestmove f4d6\n"
		/* Out of xboard mode after exit (its prompt): put back. */
		"> xboard\n> post\n> easy\n"
		"< info string fenbridge: the engine says 'Invalid move: "
		"c1f5'\n");
}

/* The handshake of an engine that says all at once (no name, no
 * variants: normal chess, and Chess960 played as it): for the lines a go
 * before uciok waits for. */
#define QUICK_FEATURES "e feature setboard=1 ping=1 done=1\n"
#define QUICK_FEATURES_OUT                                                     \
	"timer 2000\n> accepted setboard\n> accepted ping\n> accepted done\n"  \
	"timer 0\n> post\n> easy\n" NONAME_NORMAL_IDS

static void
test_uci_xboard_depth_within_movetime(void **state)
{
	(void)state;
	/* An engine without sd reaches the depth before the deadline: ?
	 * ends the search, and the deadline's timer goes with it. */
	assert_string_equal(
		run(NORMAL_ONLY_HELLO "g position startpos\n"
				      "g go movetime 1500 depth 2\n"
				      "e Invalid move: sd 2\n"
				      "e 1 3 0 10 e4\n"
				      "e 2 5 0 20 e4 e5\n"
				      "t\n"
				      "e move e2e4\n"),
		NORMAL_ONLY_HELLO_OUT
		"> new\n> force\n"
		"> sd 2\n> st 2\n> go\ntimer 1500\n"
		"< info depth 1 score cp 3 time 0 nodes 10 pv e2e4\n"
		"< info depth 2 score cp 5 time 0 nodes 20 pv e2e4 e7e5\n"
		"> ?\ntimer 0\n"
		"> force\n< bestmove e2e4 ponder e7e5\n");
}

static void
test_uci_xboard_go_before_uciok(void **state)
{
	(void)state;
	/* A GUI that does not wait for uciok: the go waits for the
	 * features (a search sent before them would be spoken in the wrong
	 * dialect and lose the handshake's timer), as isready does; the
	 * position too (CECP: nothing but feature answers before done=1;
	 * GNU Chess got new, force and the moves during its features). */
	assert_string_equal(
		run("g uci\n"
		    "g position startpos moves e2e4\n"
		    "g go movetime 1000\n"
		    "g isready\n" QUICK_FEATURES "e move e7e5\n"
		    "e pong 1\n"),
		"> xboard\n> protover 2\ntimer 100\n" QUICK_FEATURES_OUT
		"> new\n> force\n> e2e4\n"
		"> ping 1\n> st 1\n> go\n"
		"> force\n< bestmove e7e5\n< readyok\n");
	/* Stopped before it ran: no search, and the bestmove UCI wants. */
	assert_string_equal(
		run("g uci\ng go infinite\ng stop\n" QUICK_FEATURES),
		"> xboard\n> protover 2\ntimer 100\n"
		"< bestmove 0000\n" QUICK_FEATURES_OUT);
	/* A ponderhit makes a held go ponder the real search. */
	assert_string_equal(
		run("g go ponder wtime 1000 btime 2000\ng ponderhit\n"
		    "g uci\n" QUICK_FEATURES),
		"> xboard\n> protover 2\ntimer 100\n" QUICK_FEATURES_OUT
		"> level 0 0:01 0\n> time 100\n> otim 200\n> go\n");
}

static void
test_uci_xboard_movetime(void **state)
{
	(void)state;
	/* Sub-second budgets: st is whole seconds (rounded up), and ? at
	 * the GUI's deadline; a move or stop before it cancels it. */
	assert_string_equal(
		run(SJAAK_HELLO
		    "g position startpos moves e2e4\n"
		    "g go movetime 100\n"
		    "t\n"
		    "e move e7e5\n"
		    "g position startpos moves e2e4 e7e5 g1f3\n"
		    "g go movetime 30\n"
		    "g stop\n"
		    "e move b8c6\n"
		    "g position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4\n"
		    "g go movetime 1000\n"
		    "e move g8f6\n"
		    "g position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 "
		    "d2d3\n"
		    "g go movetime 1500\n"
		    "e move f8c5\n"
		    "g position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 "
		    "d2d3 f8c5 c2c3\n"
		    "g go movetime 90500\n"),
		SJAAK_HELLO_OUT "> new\n> force\n> e2e4\n"
				"> st 1\n> go\ntimer 100\n"
				"> ?\n> force\n< bestmove e7e5\n"
				"> g1f3\n"
				"> go\ntimer 30\n"
				"> ?\ntimer 0\n> force\n< bestmove b8c6\n"
				"> f1c4\n"
				"> go\n> force\n< bestmove g8f6\n"
				"> d2d3\n"
				"> st 2\n> go\ntimer 1500\n"
				"timer 0\n> force\n< bestmove f8c5\n"
				/* A minute or more: st alone, rounded down. */
				"> c2c3\n> st 90\n> go\n");
}

static void
test_uci_xboard_long_pv(void **state)
{
	static char script[8192];
	const char *t, *line, *end;
	size_t k, head, moves = 0;

	(void)state;
	/* A 240-ply pv: the GUI's line ends at the last whole move that
	 * fits a line of fenbridge's own. */
	k = (size_t)snprintf(script, sizeof script,
			     SJAAK_HELLO "g position startpos\n"
					 "g go movetime 1000\n"
					 "e 30 10 100 1000");
	for (int i = 0; i < 60; i++)
		k += (size_t)snprintf(script + k, sizeof script - k,
				      " g1f3 g8f6 f3g1 f6g8");
	snprintf(script + k, sizeof script - k, "\n");
	t = run(script);
	line = strstr(t, "< info depth 30 ");
	assert_non_null(line);
	line += 2;
	end = strchr(line, '\n');
	assert_non_null(end);
	assert_true((size_t)(end - line) + 1 <= FB_OWN_LINE_MAX);
	head = strlen("info depth 30 score cp 10 time 1000 nodes 1000 pv");
	assert_memory_equal(line,
			    "info depth 30 score cp 10 time 1000 nodes "
			    "1000 pv",
			    head);
	for (const char *p = line + head; p < end; p += 5, moves++) {
		const char *mv[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
		assert_true(end - p >= 5);
		assert_true(p[0] == ' ');
		assert_memory_equal(p + 1, mv[moves % 4], 4);
	}
	/* Not one move fewer than fits. */
	assert_int_equal(moves, (FB_OWN_LINE_MAX - 1 - head) / 5);
}

static void
test_uci_xboard_long_combo(void **state)
{
	static char script[4096];
	char v[32];
	const char *t, *line, *end, *p;
	size_t k;
	unsigned seen = 0;

	(void)state;
	/* A combo of 40 values of 30 bytes, the default last: the values
	 * that fit are shown whole, the default among them; no byte that
	 * was not in the engine's line. */
	k = (size_t)snprintf(script, sizeof script,
			     "g uci\ne feature option=\"Big -combo");
	for (int i = 0; i < 40; i++)
		k += (size_t)snprintf(script + k, sizeof script - k,
				      "%s %s%02d-abcdefghijklmnopqrstuvw ",
				      i > 0 ? " ///" : "", i == 39 ? "*" : "",
				      i);
	snprintf(script + k, sizeof script - k, "\" done=1\n");
	t = run(script);
	line = strstr(t, "< option name Big type combo default "
			 "39-abcdefghijklmnopqrstuvw var ");
	assert_non_null(line);
	end = strchr(line, '\n');
	assert_true(end - line < 800);
	p = strstr(line, " var ");
	for (int i = 0; i < 40 && p != NULL && p < end; i++) {
		snprintf(v, sizeof v, " var %02d-abcdefghijklmnopqrstuvw", i);
		if (strncmp(p, v, strlen(v)) != 0)
			continue; /* left out */
		seen++;
		p += strlen(v);
		assert_true(p == end || strncmp(p, " var ", 5) == 0);
	}
	assert_ptr_equal(p, end); /* nothing else on the line */
	assert_true(seen >= 10 && seen < 40);
	assert_non_null(strstr(line, " var 39-abcdefghijklmnopqrstuvw"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uci_xboard_handshake),
		cmocka_unit_test(test_uci_xboard_protover1_silence),
		cmocka_unit_test(test_uci_xboard_options),
		cmocka_unit_test(test_uci_xboard_position_extends_or_resets),
		cmocka_unit_test(test_uci_xboard_clocks),
		cmocka_unit_test(test_uci_xboard_thinking),
		cmocka_unit_test(test_uci_xboard_castling_960),
		cmocka_unit_test(test_uci_xboard_castling_inner_rook),
		cmocka_unit_test(test_uci_xboard_castling_10x8),
		cmocka_unit_test(test_uci_xboard_emulated_960),
		cmocka_unit_test(
			test_uci_xboard_castle_the_notation_cannot_write),
		cmocka_unit_test(test_uci_xboard_illegal_and_resign),
		cmocka_unit_test(test_uci_xboard_analysis_and_ponder),
		cmocka_unit_test(test_uci_xboard_edit),
		cmocka_unit_test(test_uci_xboard_other_width_not_sent),
		cmocka_unit_test(test_uci_xboard_gnuchess),
		cmocka_unit_test(test_uci_xboard_depth_within_movetime),
		cmocka_unit_test(test_uci_xboard_go_before_uciok),
		cmocka_unit_test(test_uci_xboard_movetime),
		cmocka_unit_test(test_uci_xboard_long_pv),
		cmocka_unit_test(test_uci_xboard_long_combo),
		cmocka_unit_test(test_uci_xboard_normalize),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
