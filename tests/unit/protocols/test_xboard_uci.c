/* SPDX-License-Identifier: MIT */
/*
 * Script-driven tests of the XBoard-GUI / UCI-engine pair
 * (protocols/xboard_uci/) through the public filter API.
 *
 * A script (tests/unit/script.h) is lines: "g text" feeds a GUI line,
 * "e text" an engine line, "t" the timer's expiry; every line the filter
 * sends is recorded in order, "> text" toward the engine, "< text" toward
 * the GUI, "timer N" a timer request, and the whole record is compared
 * with the expected one. Expected lines were written by hand
 * from the CECP and UCI specs (and doc/protocols.md), not pasted from a run.
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

static void
start(struct script *s, enum fb_notation engine_fen)
{
	struct fb_filter_options opt = {
		.proto = &fb_protocol_xboard,
		.engine_proto = &fb_protocol_uci,
		.engine_fen = engine_fen,
		.gui_fen = FB_XFEN,
		.gui_castling = FB_CASTLE_AUTO,
		.engine_castling = FB_CASTLE_AUTO,
	};

	script_start(s, &opt);
}

/* Feeds script and checks that exactly expect was sent. */
static void
step(struct script *s, const char *script, const char *expect)
{
	assert_string_equal(script_step(s, script), expect);
}

/* The handshake of an engine with UCI_Chess960 and a few options. */
#define SF_OPTIONS                                                             \
	"e id name Stockfish 15.1\n"                                           \
	"e id author someone\n"                                                \
	"e option name Threads type spin default 1 min 1 max 1024\n"           \
	"e option name Hash type spin default 16 min 1 max 33554432\n"         \
	"e option name Clear Hash type button\n"                               \
	"e option name Ponder type check default false\n"                      \
	"e option name Skill Level type spin default 20 min 0 max 20\n"        \
	"e option name UCI_Chess960 type check default false\n"                \
	"e option name Syzygy50MoveRule type check default true\n"             \
	"e option name EvalFile type string default nn-x.nnue\n"               \
	"e option name Debug Log File type string default <empty>\n"           \
	"e option name Style type combo default Normal var Solid var "         \
	"Normal var Risky Play\n"

static void
handshake(struct script *s)
{
	step(s, "g xboard\ng protover 2\n",
	     "> uci\ntimer 10000\n< feature done=0\n");
	step(s, SF_OPTIONS "e uciok\n",
	     "timer 0\n"
	     "< feature myname=\"Stockfish 15.1\" setboard=1 usermove=1 "
	     "ping=1 playother=1 sigint=0 sigterm=0 analyze=1 colors=0 "
	     "reuse=1 san=0 time=1 draw=0 variants=\"normal,fischerandom\" "
	     "memory=1 smp=1\n"
	     "< feature option=\"Clear Hash -button\"\n"
	     "< feature option=\"Skill Level -spin 20 0 20\"\n"
	     "< feature option=\"Syzygy50MoveRule -check 1\"\n"
	     "< feature option=\"EvalFile -string nn-x.nnue\"\n"
	     "< feature option=\"Debug Log File -string \"\n"
	     "< feature option=\"Style -combo Solid /// *Normal /// Risky "
	     "Play\"\n"
	     "< feature done=1\n");
}

static void
test_xboard_uci_handshake_and_options(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s,
	     "g accepted setboard\ng option Skill Level=5\n"
	     "g option Syzygy50MoveRule=0\ng option Clear Hash\n"
	     "g option Style=Risky Play\ng memory 64\ng cores 2\n"
	     "g egtpath syzygy /tb\ng option Nope=1\n",
	     "> setoption name Skill Level value 5\n"
	     "> setoption name Syzygy50MoveRule value false\n"
	     "> setoption name Clear Hash\n"
	     "> setoption name Style value Risky Play\n"
	     "> setoption name Hash value 64\n"
	     "> setoption name Threads value 2\n"
	     "< Error (unknown option): Nope=1\n");
	script_end(&s);
}

/* The engine never says uciok: the GUI is told and released. */
static void
test_xboard_uci_no_uciok(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	step(&s, "g xboard\ng protover 2\ne id name Slow\n",
	     "> uci\ntimer 10000\n< feature done=0\n");
	script_step(&s, "t");
	assert_non_null(strstr(s.text, "< tellusererror fenbridge: the "
				       "engine did not finish"));
	assert_non_null(strstr(s.text, "myname=\"Slow\""));
	assert_non_null(strstr(s.text, "< feature done=1\n"));
	script_end(&s);
}

/* level/time/otim -> go; the engine's clock by its colour; mps. */
static void
test_xboard_uci_clocks(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s,
	     "g new\ng level 40 5 2\ng post\ng time 30000\ng otim 29000\n"
	     "g usermove e2e4\n",
	     "> ucinewgame\n> position startpos moves e2e4\n"
	     "> go wtime 290000 btime 300000 winc 2000 binc 2000 "
	     "movestogo 40\n");
	step(&s, "e bestmove e7e5 ponder g1f3\n", "< move e7e5\n");
	/* playother: White is on move, so the engine plays Black: its
	 * clock (time) is btime; MIN:SEC base, fractional increment */
	step(&s,
	     "g force\ng level 0 1:30 0.5\ng playother\ng time 500\n"
	     "g otim 600\ng usermove g1f3\n",
	     "> position startpos moves e2e4 e7e5 g1f3\n"
	     "> go wtime 6000 btime 5000 winc 500 binc 500\n");
	step(&s, "g ?\n", "> stop\n");
	step(&s, "e bestmove b8c6\n", "< move b8c6\n");
	step(&s, "g force\ng st 3\ng sd 7\ng go\n",
	     "> position startpos moves e2e4 e7e5 g1f3 b8c6\n"
	     "> go movetime 3000 depth 7\n");
	script_end(&s);
}

/* Thinking output: ply score time(cs) nodes pv; mates 100000+N. */
static void
test_xboard_uci_thinking(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "g new\ng post\ng force\ng go\n",
	     "> ucinewgame\n> position startpos\n> go movetime 1000\n");
	step(&s,
	     "e info depth 12 seldepth 15 multipv 1 score cp -31 nodes "
	     "1234 nps 5000 hashfull 3 tbhits 0 time 2567 pv e2e4 e7e5\n"
	     "e info depth 20 score mate 3 time 10 nodes 9 wdl 1000 0 0 "
	     "pv d1h5\n"
	     "e info depth 20 score mate -2 upperbound nodes 9 time 10 pv "
	     "g2g4\n"
	     "e info currmove e2e4 currmovenumber 1\n"
	     "e info string NNUE on\ne info depth 3 nodes 7\n",
	     "< 12 -31 256 1234 e2e4 e7e5\n"
	     "< 20 100003 1 9 d1h5\n"
	     "< 20 -100002 1 9 g2g4\n");
	step(&s,
	     "g nopost\ne info depth 13 score cp 5 time 0 nodes 1 pv "
	     "e2e4\n",
	     "");
	script_end(&s);
}

/* A Chess960 start with inner rooks: king f1, rooks e1 (a-side) and g1
 * (h-side). O-O is legal at once: king f1 -> g1, rook g1 -> f1 (KxR f1g1);
 * O-O-O is not (knight c1, bishop d1 in the way). */
#define F960 "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1"
#define F960_SH "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"

static void
test_xboard_uci_fischerandom_castling(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	/* The GUI sends Shredder-FEN: the engine gets X-FEN. */
	step(&s,
	     "g new\ng variant fischerandom\ng setboard " F960_SH "\n"
	     "g post\ng force\ng usermove c2c3\ng usermove c7c6\n"
	     "g usermove O-O-O\ng usermove O-O\ng go\n",
	     "> ucinewgame\n> setoption name UCI_Chess960 value true\n"
	     "< Illegal move: O-O-O\n"
	     "> position fen " F960 " moves c2c3 c7c6 f1g1\n"
	     "> go movetime 1000\n");
	/* The engine's KxR castle and pv go to the GUI as O-O. */
	step(&s,
	     "e info depth 1 score cp 0 time 0 nodes 1 pv f8g8 d2d4\n"
	     "e bestmove f8g8\n",
	     "< 1 0 0 1 O-O d2d4\n< move O-O\n");
	/* undo takes back the engine's castle; a bare move also works */
	step(&s, "g force\ng undo\ng d7d6\ng go\n",
	     "> position fen " F960 " moves c2c3 c7c6 f1g1 d7d6\n"
	     "> go movetime 1000\n");
	script_end(&s);
}

/* A Chess960 position set up in variant normal: the inner-rook rights
 * cannot reach the engine, and the GUI is told so in a comment line (a
 * telluser would be a dialog in every game of a tournament). */
static void
test_xboard_uci_normal_drops_rights_aloud(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s,
	     "g new\ng force\ng setboard "
	     "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - "
	     "4 11\ng go\n",
	     "> ucinewgame\n"
	     "< # fenbridge: 2 castling rights of this position need "
	     "Chess960 (variant fischerandom); the engine plays without "
	     "them\n"
	     "> position fen rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/"
	     "2BNK1RR w q - 4 11\n"
	     "> go movetime 1000\n");
	assert_non_null(strstr(s.log, "warn: setboard: 2 castling rights"));
	script_end(&s);
}

/* Normal chess: king moves both ways; startpos; remove; new resets. */
static void
test_xboard_uci_normal_castling(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s,
	     "g new\ng force\ng e2e4\ng e7e5\ng g1f3\ng b8c6\ng f1c4\n"
	     "g g8f6\ng go\n",
	     "> ucinewgame\n> position startpos moves e2e4 e7e5 g1f3 b8c6 "
	     "f1c4 g8f6\n> go movetime 1000\n");
	step(&s, "e bestmove e1g1\n", "< move e1g1\n");
	/* remove takes back Nf6 and the castle: the user replays Nf6 and
	 * the engine (White) is to move again */
	step(&s, "g remove\ng g8f6\n",
	     "> position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6\n"
	     "> go movetime 1000\n");
	/* the GUI castles with the king's move too */
	step(&s, "e bestmove d2d3\ng force\ng f8c5\ng e1g1\ng go\n",
	     "< move d2d3\n> position startpos moves e2e4 e7e5 g1f3 b8c6 "
	     "f1c4 g8f6 d2d3 f8c5 e1g1\n> go movetime 1000\n");
	script_end(&s);
}

/* Capablanca Random with an engine that lists it in UCI_Variant. */
static void
test_xboard_uci_caparandom(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	step(&s, "g xboard\ng protover 2\n",
	     "> uci\ntimer 10000\n< feature done=0\n");
	step(&s,
	     "e id name Fairy-Stockfish 11.1\n"
	     "e option name UCI_Chess960 type check default false\n"
	     "e option name UCI_Variant type combo default chess var "
	     "capablanca var caparandom var chess var fischerandom\n"
	     "e uciok\n",
	     "timer 0\n"
	     "< feature myname=\"Fairy-Stockfish 11.1\" setboard=1 "
	     "usermove=1 ping=1 playother=1 sigint=0 sigterm=0 analyze=1 "
	     "colors=0 reuse=1 san=0 time=1 draw=0 "
	     "variants=\"normal,fischerandom,capablanca,caparandom\"\n"
	     "< feature done=1\n");
	/* King e1, rooks b1 (inner: a1 holds a bishop? no: a1 is empty) and
	 * i1; O-O: king to i1, rook to h1 (KxR e1i1). */
	step(&s,
	     "g new\ng variant caparandom\n"
	     "g setboard r1nbqkbcr1/pppppppppp/10/10/10/10/PPPPPPPPPP/"
	     "R1NBQKBCR1 w KQkq - 0 1\ng force\ng go\n",
	     "> ucinewgame\n> setoption name UCI_Variant value caparandom\n"
	     "> setoption name UCI_Chess960 value true\n"
	     "> position fen r1nbqkbcr1/pppppppppp/10/10/10/10/PPPPPPPPPP/"
	     "R1NBQKBCR1 w KQkq - 0 1\n> go movetime 1000\n");
	script_end(&s);
}

/* 10x8 with an inner rook: white king e1, rooks a1, i1 (castling) and j1;
 * X-FEN writes the inner rook's file (I). The engine's KxR e1i1 is O-O to
 * the GUI; the GUI's O-O-O is e1a1 to the engine. */
#define CAPA_INNER "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K3RR"

static void
test_xboard_uci_caparandom_inner_rook(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	step(&s,
	     "g xboard\ng protover 2\n"
	     "e option name UCI_Chess960 type check default false\n"
	     "e option name UCI_Variant type combo default chess var "
	     "caparandom var chess\ne uciok\n",
	     "> uci\ntimer 10000\n< feature done=0\ntimer 0\n"
	     "< feature myname=\"UCI engine\" setboard=1 usermove=1 ping=1 "
	     "playother=1 sigint=0 sigterm=0 analyze=1 colors=0 reuse=1 "
	     "san=0 time=1 draw=0 variants=\"normal,fischerandom,caparandom\""
	     "\n< feature done=1\n");
	/* Shredder-FEN from the GUI */
	step(&s,
	     "g new\ng variant caparandom\ng setboard " CAPA_INNER
	     " w IAja - 0 1\ng post\ng go\n",
	     "> ucinewgame\n> setoption name UCI_Variant value caparandom\n"
	     "> setoption name UCI_Chess960 value true\n"
	     "> position fen " CAPA_INNER " w IQkq - 0 1\n"
	     "> go movetime 1000\n");
	step(&s,
	     "e info depth 2 score cp 3 time 5 nodes 80 pv e1i1 e8a8\n"
	     "e bestmove e1i1 ponder e8a8\n",
	     "< 2 3 0 80 O-O O-O-O\n< move O-O\n");
	step(&s, "g usermove O-O-O\ne bestmove a2a3\n",
	     "> position fen " CAPA_INNER " w IQkq - 0 1 moves e1i1 e8a8\n"
	     "> go movetime 1000\n< move a2a3\n");
	script_end(&s);
}

/* The comment line an engine without Chess960 makes, once per game. */
#define TOLD_STANDARD                                                          \
	"< # fenbridge: the engine has no Chess960 castling; it gets only "    \
	"the castling rights standard FEN can express, and a castle it "       \
	"cannot read as the position after it\n"

/* How often needle occurs in hay. */
static int
count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

/* Toga II's handshake (no UCI_Chess960): fischerandom is offered all the
 * same, to be played in standard notation (issue 17, item 1). */
static void
handshake_standard(struct script *s)
{
	step(s, "g xboard\ng protover 2\ne id name Toga II 3.0\ne uciok\n",
	     "> uci\ntimer 10000\n< feature done=0\ntimer 0\n"
	     "< feature myname=\"Toga II 3.0\" setboard=1 usermove=1 ping=1 "
	     "playother=1 sigint=0 sigterm=0 analyze=1 colors=0 reuse=1 "
	     "san=0 time=1 draw=0 variants=\"normal,fischerandom\"\n"
	     "< feature done=1\n");
}

/*
 * The config's UCI_Chess960 (fb_policy_send_uci_options, as the UCI pair):
 * not sent to an engine that does not list it (fenbridge plays that part);
 * sent to one that does, and then its mode: a normal game sets it back to
 * false before the first search, so that castles stay the king's move.
 */
static void
test_xboard_uci_config_chess960(void **st)
{
	static const struct fb_engine_option set[] = {
		{"UCI_Chess960", "true", FB_OPT_SET}};
	struct fb_filter_options opt = {
		.proto = &fb_protocol_xboard,
		.engine_proto = &fb_protocol_uci,
		.engine_fen = FB_XFEN,
		.gui_fen = FB_XFEN,
		.gui_castling = FB_CASTLE_AUTO,
		.engine_castling = FB_CASTLE_AUTO,
		.options = set,
		.noptions = 1,
	};
	struct script s;

	(void)st;
	script_start(&s, &opt);
	handshake_standard(&s);
	script_end(&s);

	script_start(&s, &opt);
	step(&s, "g xboard\ng protover 2\n",
	     "> uci\ntimer 10000\n< feature done=0\n");
	assert_non_null(strstr(script_step(&s, SF_OPTIONS "e uciok\n"),
			       "timer 0\n> setoption name UCI_Chess960 value "
			       "true\n< feature myname="));
	step(&s, "g new\ng force\ng usermove e2e4\ng go\n",
	     "> ucinewgame\n> setoption name UCI_Chess960 value false\n"
	     "> position startpos moves e2e4\n> go movetime 1000\n");
	script_end(&s);
}

/* fischerandom with an engine without UCI_Chess960: only standard rights
 * reach it, a castle it cannot read goes as the position after it
 * (re-anchoring), said once per game to the log at info level (with the
 * word "re-anchored") and to the GUI in a comment line; a later search
 * only appends the new moves to that line (nothing is re-anchored again),
 * and a later castle of the game is said at debug level. */
static void
test_xboard_uci_standard_engine_reanchors(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake_standard(&s);
	/* No UCI_Chess960 to set; its rights cannot reach the engine. */
	step(&s,
	     "g new\ng variant fischerandom\ng force\ng setboard " F960_SH
	     "\ng go\n",
	     "> ucinewgame\n" TOLD_STANDARD
	     "> position fen bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w - "
	     "- 0 1\n> go movetime 1000\n");
	assert_int_equal(count(s.log, "info: setboard: 4 castling rights "
				      "that standard notation cannot express "
				      "not sent to the engine"),
			 1);
	/* The GUI's O-O is f1g1 (king f1, rook g1): re-anchored. */
	step(&s,
	     "e bestmove c2c3\ng force\ng usermove c7c6\ng O-O\n"
	     "g d7d6\ng go\n",
	     "< move c2c3\n> position fen bqnbrkrn/pp1ppppp/2p5/8/8/2P5/"
	     "PP1PPPPP/BQNBRRKN b - - 1 2 moves d7d6\n> go movetime 1000\n");
	assert_int_equal(count(s.log, "info: re-anchored: the "
				      "castle f1g1 at ply 3"),
			 1);
	/* The next search appends to what the engine has: quietly. */
	step(&s, "e bestmove d2d4\ng usermove e7e5\n",
	     "< move d2d4\n> position fen bqnbrkrn/pp1ppppp/2p5/8/8/2P5/"
	     "PP1PPPPP/BQNBRRKN b - - 1 2 moves d7d6 d2d4 e7e5\n"
	     "> go movetime 1000\n");
	assert_int_equal(count(s.log, "re-anchored"), 0);
	assert_int_equal(count(s.log, "info:"), 0);
	/* Black's castle (king f8, rook g8) later in the game: said at debug
	 * level, once */
	step(&s, "e bestmove a2a3\ng usermove O-O\n",
	     "< move a2a3\n> position fen bqnbrrkn/pp3ppp/2pp4/4p3/3P4/P1P5/"
	     "1P2PPPP/BQNBRRKN w - - 1 5\n> go movetime 1000\n");
	assert_int_equal(count(s.log, "re-anchored"), 1);
	assert_int_equal(count(s.log, "debug: re-anchored: the "
				      "castle f8g8 at ply 8"),
			 1);
	assert_int_equal(count(s.log, "info:"), 0);
	script_end(&s);
}

/* A new game is told again. The engine's castle in the king's notation
 * (e1g1) reaches the GUI as O-O, in its pv too; the GUI's standard O-O
 * goes as e1g1, its castle with the king on f8 and the rook on g8 as the
 * position after it. White: king e1, rooks a1, h1 (standard rights);
 * black: king f8, rooks b8, g8 (dropped). */
#define MIXED "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/R3K2R"

static void
test_xboard_uci_standard_engine_castles(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake_standard(&s);
	step(&s, "g new\ng variant fischerandom\ng setboard " F960_SH "\n",
	     "> ucinewgame\n" TOLD_STANDARD);
	step(&s,
	     "g new\ng variant fischerandom\ng post\ng setboard " MIXED
	     " w HAgb - 0 1\ng go\n",
	     "> ucinewgame\n" TOLD_STANDARD "> position fen " MIXED
	     " w KQ - 0 1\n> go movetime 1000\n");
	assert_int_equal(count(s.log, "info: setboard: 2 castling rights"), 1);
	step(&s,
	     "e info depth 2 score cp 9 time 10 nodes 50 pv e1g1 f8g8\n"
	     "e bestmove e1g1 ponder f8g8\n",
	     "< 2 9 1 50 O-O O-O\n< move O-O\n");
	step(&s, "g usermove O-O\n",
	     "> position fen 1r3rk1/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 "
	     "2\n> go movetime 1000\n");
	assert_int_equal(count(s.log, "info: re-anchored: the "
				      "castle f8g8 at ply 2"),
			 1);
	step(&s, "e bestmove a2a3\n", "< move a2a3\n");
	/* The GUI's standard castle needs no re-anchoring. */
	step(&s,
	     "g new\ng variant fischerandom\ng force\ng setboard " MIXED
	     " w HAgb - 0 1\ng usermove O-O-O\ng go\n",
	     "> ucinewgame\n" TOLD_STANDARD "> position fen " MIXED
	     " w KQ - 0 1 moves e1c1\n"
	     "> go movetime 1000\n");
	assert_int_equal(count(s.log, "re-anchored"), 0);
	/* the engine's move is checked on the real game: e8g8 is no move
	 * of black's (the king is on f8) */
	step(&s, "e bestmove e8g8\n",
	     "< tellusererror fenbridge: the engine played an illegal move "
	     "(e8g8); it is not passed on\n");
	script_end(&s);
}

/* caparandom for an engine without UCI_Chess960 that plays 10x8
 * (capablanca in UCI_Variant): played as capablanca in standard notation,
 * the king on f1 castling to i1. An engine that lists no 10x8 variant
 * is not offered caparandom (handshake_standard). */
#define CAPA_STD "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R"

static void
test_xboard_uci_standard_engine_caparandom(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	step(&s,
	     "g xboard\ng protover 2\ne id name Capa 1\n"
	     "e option name UCI_Variant type combo default chess var "
	     "chess var capablanca\ne uciok\n",
	     "> uci\ntimer 10000\n< feature done=0\ntimer 0\n"
	     "< feature myname=\"Capa 1\" setboard=1 usermove=1 ping=1 "
	     "playother=1 sigint=0 sigterm=0 analyze=1 colors=0 reuse=1 "
	     "san=0 time=1 draw=0 "
	     "variants=\"normal,fischerandom,capablanca,caparandom\"\n"
	     "< feature done=1\n");
	step(&s,
	     "g new\ng variant caparandom\ng force\ng setboard " CAPA_STD
	     " w JAja - 0 1\ng usermove O-O\ng go\n",
	     "> ucinewgame\n> setoption name UCI_Variant value capablanca\n"
	     "> position fen " CAPA_STD " w KQkq - 0 1 moves f1i1\n"
	     "> go movetime 1000\n");
	step(&s, "e bestmove f8c8\n", "< move O-O-O\n");
	script_end(&s);
}

/* Malformed time / otim: the clock stays as it was (or not told), with
 * a warning; never a 1 ms clock (issue 17, item 6). */
static void
test_xboard_uci_bad_clock_kept(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s,
	     "g new\ng level 40 5 0\ng time 30000\ng otim 29000\n"
	     "g time abc\ng otim 12x\ng time\ng usermove e2e4\n",
	     "> ucinewgame\n> position startpos moves e2e4\n"
	     "> go wtime 290000 btime 300000 winc 0 binc 0 movestogo 40\n");
	assert_int_equal(count(s.log, "warn: "), 3);
	assert_non_null(strstr(s.log, "warn: 'time abc': not a number"));
	/* never told in this game: the engine gets the level's base, not a
	 * 1 ms clock */
	step(&s, "g new\ng time -\ng otim 5e3\ng usermove e2e4\n",
	     "> stop\n> ucinewgame\n> position startpos moves e2e4\n"
	     "> go wtime 300000 btime 300000 winc 0 binc 0 movestogo 40\n");
	script_end(&s);
}

/* The GUI's move mates: XBoard knows the result; the engine's side (the
 * loser) neither searches nor claims it, nor ponders on that reply
 * (issue 17, item 12). */
static void
test_xboard_uci_gui_mate_not_claimed(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "g new\ng force\ng f2f3\ng e7e5\ng go\n",
	     "> ucinewgame\n> position startpos moves f2f3 e7e5\n"
	     "> go movetime 1000\n");
	step(&s, "e bestmove g2g4\n", "< move g2g4\n");
	step(&s, "g usermove d8h4\n", "");
	step(&s, "g result 0-1 {Black mates}\n", "");
	/* pondering: no go ponder on a reply that mates the engine */
	step(&s, "g new\ng hard\ng force\ng f2f3\ng e7e5\ng go\n",
	     "> ucinewgame\n> setoption name Ponder value true\n"
	     "> position startpos moves f2f3 e7e5\n> go movetime 1000\n");
	step(&s, "e bestmove g2g4 ponder d8h4\n", "< move g2g4\n");
	step(&s, "g usermove d8h4\n", "");
	/* a stalemating move likewise */
	step(&s,
	     "g new\ng force\ng setboard 7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\n"
	     "g playother\ng usermove f1f7\n",
	     "> ucinewgame\n");
	script_end(&s);
}

/* hard: go ponder on the expected reply; ponderhit when it comes, stop
 * and a new search (the pondering bestmove swallowed) when it does not. */
static void
test_xboard_uci_ponder(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s,
	     "g new\ng hard\ng post\ng level 40 5 0\ng time 1000\n"
	     "g otim 900\ng usermove e2e4\n",
	     "> ucinewgame\n> setoption name Ponder value true\n"
	     "> position startpos moves e2e4\n"
	     "> go wtime 9000 btime 10000 winc 0 binc 0 movestogo 40\n");
	step(&s, "e bestmove e7e5 ponder g1f3\n",
	     "< move e7e5\n> position startpos moves e2e4 e7e5 g1f3\n"
	     "> go ponder wtime 9000 btime 10000 winc 0 binc 0 movestogo 39\n");
	/* thinking while pondering is not shown */
	step(&s,
	     "e info depth 9 score cp 5 time 10 nodes 99 pv b8c6\n"
	     "g time 990\ng otim 800\ng usermove g1f3\n",
	     "> ponderhit\n");
	step(&s,
	     "e info depth 10 score cp 7 time 20 nodes 200 pv b8c6\n"
	     "e bestmove b8c6 ponder f1b5\n",
	     "< 10 7 2 200 b8c6\n< move b8c6\n"
	     "> position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5\n"
	     "> go ponder wtime 8000 btime 9900 winc 0 binc 0 movestogo 38\n");
	/* another move: stop, the new search; the old bestmove is stale */
	step(&s, "g usermove f1c4\n",
	     "> stop\n> position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4\n"
	     "> go wtime 8000 btime 9900 winc 0 binc 0 movestogo 38\n");
	step(&s, "e bestmove a7a6\ne bestmove f8c5\n", "< move f8c5\n");
	/* easy: no pondering after the next move */
	step(&s, "g easy\ng usermove b1c3\ne bestmove g8f6 ponder d2d3\n",
	     "> setoption name Ponder value false\n"
	     "> position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 b1c3\n"
	     "> go wtime 8000 btime 9900 winc 0 binc 0 movestogo 37\n"
	     "< move g8f6\n");
	script_end(&s);
}

/* ping -> isready, pong after readyok, in order. */
static void
test_xboard_uci_ping(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "g ping 1\ng ping 2\n", "> isready\n> isready\n");
	step(&s, "e readyok\n", "< pong 1\n");
	step(&s, "e readyok\n", "< pong 2\n");
	script_end(&s);
}

/* A bestmove after fenbridge's own stop is stale: swallowed, with the
 * info lines before it. */
static void
test_xboard_uci_stale_bestmove(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "g new\ng post\ng usermove e2e4\n",
	     "> ucinewgame\n> position startpos moves e2e4\n"
	     "> go movetime 1000\n");
	step(&s, "g force\ng undo\n", "> stop\n");
	step(&s,
	     "e info depth 5 score cp 1 time 1 nodes 1 pv e7e5\n"
	     "e bestmove e7e5\n",
	     "");
	/* analyze: a move restarts the search; the old bestmove is stale */
	step(&s, "g analyze\n", "> position startpos\n> go infinite\n");
	step(&s, "g usermove d2d4\n",
	     "> stop\n> position startpos moves d2d4\n> go infinite\n");
	step(&s,
	     "e bestmove e2e4\ne info depth 1 score cp 9 time 0 nodes 1 "
	     "pv d7d5\n",
	     "< 1 9 0 1 d7d5\n");
	step(&s, "g exit\ne bestmove d7d5\n", "> stop\n");
	script_end(&s);
}

/* An illegal engine move is told, not passed; illegal GUI moves too. */
static void
test_xboard_uci_illegal(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "g new\ng usermove e2e5\n",
	     "> ucinewgame\n< Illegal move: e2e5\n");
	step(&s, "g usermove e2e4\n",
	     "> position startpos moves e2e4\n> go movetime 1000\n");
	step(&s, "e bestmove e2e3\n",
	     "< tellusererror fenbridge: the engine played an illegal move "
	     "(e2e3); it is not passed on\n");
	step(&s, "g frobnicate\n", "< Error (unknown command): frobnicate\n");
	script_end(&s);
}

/* The engine's mating move is claimed. */
static void
test_xboard_uci_mate_claimed(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "g new\ng force\ng f2f3\ng e7e5\ng g2g4\ng go\n",
	     "> ucinewgame\n> position startpos moves f2f3 e7e5 g2g4\n"
	     "> go movetime 1000\n");
	step(&s, "e bestmove d8h4\n", "< move d8h4\n< 0-1 {Black mates}\n");
	/* a stalemate set up by the GUI: the engine has no move */
	step(&s,
	     "g new\ng force\ng setboard 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\n"
	     "g go\n",
	     "> ucinewgame\n> position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\n"
	     "> go movetime 1000\n");
	step(&s, "e bestmove (none)\n", "< 1/2-1/2 {Stalemate}\n");
	script_end(&s);
}

/* A GUI that does not wait for done=1 (protover 1, or one that ignores
 * done=0): its commands wait for the engine's uciok, then go on in order,
 * with the engine's options known (here UCI_Chess960: the Chess960 rights
 * reach it). quit ends the wait. */
static void
test_xboard_uci_lines_wait_for_uciok(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	step(&s,
	     "g xboard\ng new\ng variant fischerandom\n"
	     "g setboard bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w "
	     "KQkq - 0 1\ng ping 7\ng go\n",
	     "> uci\ntimer 10000\n");
	step(&s,
	     "e option name UCI_Chess960 type check default false\n"
	     "e uciok\n",
	     "timer 0\n> ucinewgame\n"
	     "> setoption name UCI_Chess960 value true\n> isready\n"
	     "> position fen bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w "
	     "KQkq - 0 1\n> go movetime 1000\n");
	step(&s, "e readyok\n", "< pong 7\n");
	script_end(&s);

	start(&s, FB_XFEN);
	step(&s, "g xboard\ng new\n", "> uci\ntimer 10000\n");
	step(&s, "g quit\n", "> ucinewgame\n> quit\n");
	script_end(&s);
}

/* An engine that lists more variants than the UCI codec keeps spans of
 * (Fairy-Stockfish lists 77): the ones after those count too. */
static void
test_xboard_uci_long_variant_list(void **st)
{
	struct script s;
	char line[2048];
	size_t n;

	(void)st;
	start(&s, FB_XFEN);
	n = (size_t)snprintf(line, sizeof line,
			     "e option name UCI_Variant type combo default "
			     "chess var chess");
	for (int i = 0; i < 70; i++)
		n += (size_t)snprintf(line + n, sizeof line - n, " var v%d", i);
	snprintf(line + n, sizeof line - n, " var gothic\ne uciok\n");
	step(&s, "g xboard\ng protover 2\n",
	     "> uci\ntimer 10000\n< feature done=0\n");
	script_step(&s, line);
	assert_non_null(strstr(s.text, "variants=\"normal,fischerandom,"
				       "gothic\""));
	step(&s, "g new\ng variant gothic\n",
	     "> ucinewgame\n> setoption name UCI_Variant value gothic\n");
	script_end(&s);
}

/* go while the engine thinks: its search is stopped (that bestmove is
 * stale) and started again on the same game. */
static void
test_xboard_uci_go_restarts(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "g new\ng usermove e2e4\n",
	     "> ucinewgame\n> position startpos moves e2e4\n"
	     "> go movetime 1000\n");
	step(&s, "g go\n",
	     "> stop\n> position startpos moves e2e4\n> go movetime 1000\n");
	step(&s, "e bestmove c7c5\ne bestmove e7e5\n", "< move e7e5\n");
	script_end(&s);
}

/* The engine's line depends on its notation: an engine whose UCI_Chess960
 * comes late (after the wait for uciok was given up) plays fischerandom in
 * standard notation first, then in Chess960 mode: the next search sends
 * the game again from its start, with every right. */
static void
test_xboard_uci_line_rebuilt_on_new_notation(void **st)
{
	struct script s;

	(void)st;
	start(&s, FB_XFEN);
	step(&s, "g xboard\ng protover 2\n",
	     "> uci\ntimer 10000\n< feature done=0\n");
	script_step(&s, "t");
	step(&s,
	     "g new\ng variant fischerandom\ng force\ng setboard " F960
	     "\ng usermove c2c3\ng go\n",
	     "> ucinewgame\n" TOLD_STANDARD
	     "> position fen bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w - "
	     "- 0 1 moves c2c3\n> go movetime 1000\n");
	step(&s,
	     "e option name UCI_Chess960 type check default false\n"
	     "e uciok\ne bestmove c7c6\ng usermove O-O\n",
	     "timer 0\n< move c7c6\n"
	     "> setoption name UCI_Chess960 value true\n"
	     "> position fen " F960 " moves c2c3 c7c6 f1g1\n"
	     "> go movetime 1000\n");
	script_end(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xboard_uci_handshake_and_options),
		cmocka_unit_test(test_xboard_uci_no_uciok),
		cmocka_unit_test(test_xboard_uci_lines_wait_for_uciok),
		cmocka_unit_test(test_xboard_uci_long_variant_list),
		cmocka_unit_test(test_xboard_uci_go_restarts),
		cmocka_unit_test(test_xboard_uci_line_rebuilt_on_new_notation),
		cmocka_unit_test(test_xboard_uci_clocks),
		cmocka_unit_test(test_xboard_uci_thinking),
		cmocka_unit_test(test_xboard_uci_fischerandom_castling),
		cmocka_unit_test(test_xboard_uci_normal_drops_rights_aloud),
		cmocka_unit_test(test_xboard_uci_normal_castling),
		cmocka_unit_test(test_xboard_uci_caparandom),
		cmocka_unit_test(test_xboard_uci_caparandom_inner_rook),
		cmocka_unit_test(test_xboard_uci_config_chess960),
		cmocka_unit_test(test_xboard_uci_standard_engine_reanchors),
		cmocka_unit_test(test_xboard_uci_standard_engine_castles),
		cmocka_unit_test(test_xboard_uci_standard_engine_caparandom),
		cmocka_unit_test(test_xboard_uci_bad_clock_kept),
		cmocka_unit_test(test_xboard_uci_gui_mate_not_claimed),
		cmocka_unit_test(test_xboard_uci_ponder),
		cmocka_unit_test(test_xboard_uci_ping),
		cmocka_unit_test(test_xboard_uci_stale_bestmove),
		cmocka_unit_test(test_xboard_uci_illegal),
		cmocka_unit_test(test_xboard_uci_mate_claimed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
