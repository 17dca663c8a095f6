/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the UCI GUI with an XBoard engine pair
 * (protocols/uci_xboard.c) through the filter: each case is a script of
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
#include "session.h"

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
#define SJAAK_HELLO                                                          \
	"g uci\n"                                                            \
	"e feature setboard=1 ping=1 analyze=1 nps=1 sjef=1 "                \
	"myname=\"Sjaak II\" variants=\"normal,fischerandom,capablanca,"     \
	"caparandom\"\n"                                                     \
	"e feature done=1\n"
#define SJAAK_HELLO_OUT                                                      \
	"> xboard\n"                                                         \
	"> protover 2\n"                                                     \
	"timer 2000\n"                                                       \
	"> accepted setboard\n"                                              \
	"> accepted ping\n"                                                  \
	"> accepted analyze\n"                                               \
	"> accepted nps\n"                                                   \
	"> rejected sjef\n"                                                  \
	"> accepted myname\n"                                                \
	"> accepted variants\n"                                              \
	"> accepted done\n"                                                  \
	"timer 0\n"                                                          \
	"> post\n"                                                           \
	"> easy\n"                                                           \
	"< id name Sjaak II\n"                                               \
	"< id author Sjaak II (XBoard engine, through fenbridge)\n"           \
	"< option name UCI_Chess960 type check default false\n"              \
	"< option name UCI_Variant type combo default chess var chess var "  \
	"chess960 var capablanca var caparandom\n"                           \
	"< option name Ponder type check default false\n"                    \
	"< uciok\n"

/* Fairy-Stockfish in XBoard mode: usermove, an unquoted name, and the
 * quirk that it wants king takes rook for O-O. */
#define FSF_HELLO                                                            \
	"g uci\n"                                                            \
	"e feature setboard=1 usermove=1 ping=1 myname=Fairy-Stockfish "     \
	"variants=\"chess,fischerandom,caparandom,normal\"\n"                \
	"e feature done=1\n"

static void
test_uci_xboard_handshake(void **state)
{
	(void)state;
	assert_string_equal(run(SJAAK_HELLO "g isready\ne pong 1\n"),
			    SJAAK_HELLO_OUT "> ping 1\n< readyok\n");
}

static void
test_uci_xboard_protover1_silence(void **state)
{
	(void)state;
	/* No features: after the 2 s the GUI hears of an engine of normal
	 * chess without ping; isready is answered at once. */
	assert_string_equal(run("g uci\ng isready\nt\ng isready\n"),
			    "> xboard\n> protover 2\ntimer 2000\n"
			    "timer 0\n> post\n> easy\n"
			    "< id name XBoard engine\n"
			    "< id author XBoard engine (XBoard engine, through "
			    "fenbridge)\n"
			    "< option name UCI_Chess960 type check default "
			    "false\n"
			    "< option name Ponder type check default false\n"
			    "< uciok\n< readyok\n< readyok\n");
	/* done=0 extends the wait. */
	assert_string_equal(run("g uci\ne feature done=0\n"),
			    "> xboard\n> protover 2\ntimer 2000\n"
			    "> accepted done\ntimer 30000\n");
}

static void
test_uci_xboard_options(void **state)
{
	static const struct fb_engine_option cfg[] = {
		{"Hidden", NULL, 4},
		{"Skill", "3", 1},
	};
	struct fb_filter_options extra = {.options = cfg, .noptions = 2,
					  .name = "Old Engine"};
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
		"> xboard\n> protover 2\ntimer 2000\n"
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
		"> st 2\n> go\n"
		"> force\n< bestmove f8c5\n"
		"> c2c3\n"
		"> sd 4\n> st 1\n> go\n"
		"> force\n< bestmove d7d6\n"
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
		SJAAK_HELLO_OUT
		"> new\n> force\n> variant fischerandom\n"
		"> setboard " F960 " w KQkq - 0 1\n"
		"> e2e4\n> e7e5\n> O-O\n"
		"> st 1\n> go\n"
		"> force\n< bestmove f8g8\n");
	/* Fairy-Stockfish: king takes rook both ways (its quirk). */
	assert_string_equal(
		run(FSF_HELLO
		    "g setoption name UCI_Chess960 value true\n"
		    "g position fen " F960 " w GEge - 0 1 moves e2e4 e7e5 "
		    "f1g1\n"),
		"> xboard\n> protover 2\ntimer 2000\n"
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

/* The X-FEN definition's example: white rooks g1 and h1, the inner g1
 * holds the right (X-FEN G, not K); black's rook g8 is its outermost. */
#define XEX "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR"

static void
test_uci_xboard_castling_inner_rook(void **state)
{
	(void)state;
	assert_string_equal(
		run(SJAAK_HELLO
		    "g setoption name UCI_Chess960 value true\n"
		    "g position fen " XEX " w Gg - 0 1 moves e1g1\n"
		    "g go depth 3\n"
		    "e move O-O\n"),
		SJAAK_HELLO_OUT
		"> new\n> force\n> variant fischerandom\n"
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
		SJAAK_HELLO_OUT
		"> new\n> force\n> variant caparandom\n"
		"> setboard " CRC_READY " w KQkq - 0 1\n"
		"> O-O-O\n> st 1\n> go\n"
		"> force\n< bestmove e8a8\n");
}

static void
test_uci_xboard_emulated_960(void **state)
{
	(void)state;
	/* An engine of normal chess only (GNU Chess): Chess960 is offered,
	 * the engine gets standard rights only and a castle it cannot
	 * read as the position after it. */
	assert_string_equal(
		run("g uci\n"
		    "e feature setboard=1 usermove=1 variants=\"normal\" "
		    "done=1\n"
		    "g setoption name UCI_Chess960 value true\n"
		    "g position fen " F960 " w GEge - 0 1 moves e2e4 e7e5 "
		    "f1g1\n"),
		"> xboard\n> protover 2\ntimer 2000\n"
		"> accepted setboard\n> accepted usermove\n"
		"> accepted variants\n> accepted done\n"
		"timer 0\n> post\n> easy\n"
		"< id name XBoard engine\n"
		"< id author XBoard engine (XBoard engine, through "
		"fenbridge)\n"
		"< option name UCI_Chess960 type check default false\n"
		"< option name Ponder type check default false\n"
		"< uciok\n"
		"> new\n> force\n"
		"> setboard " F960 " w - - 0 1\n"
		"> usermove e2e4\n> usermove e7e5\n"
		"> setboard bqnbrkrn/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/BQNBRRKN b - "
		"- 1 2\n");
}

static void
test_uci_xboard_illegal_and_resign(void **state)
{
	(void)state;
	assert_string_equal(
		run(SJAAK_HELLO
		    "g position startpos moves e2e4\n"
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
		cmocka_unit_test(test_uci_xboard_illegal_and_resign),
		cmocka_unit_test(test_uci_xboard_analysis_and_ponder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
