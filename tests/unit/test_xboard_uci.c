/* SPDX-License-Identifier: MIT */
/*
 * Script-driven tests of the XBoard-GUI / UCI-engine pair
 * (protocols/xboard_uci.c) through the public filter API.
 *
 * A script is a string of lines: "G text" feeds a GUI line, "E text" an
 * engine line; every line the filter sends is recorded in order, "> text"
 * toward the engine and "< text" toward the GUI, and the whole record is
 * compared with the expected one. Expected lines were written by hand
 * from the CECP and UCI specs (and the README), not pasted from a run.
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

#include "fenbridge/filter.h"

#define MAX_OUT (64 * 1024)

struct rec {
	char out[MAX_OUT];
	size_t n;
	bool line_start;
	unsigned timer; /* the last timer request */
};

static void
put(struct rec *r, char dir, const char *data, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		assert_true(r->n + 3 < MAX_OUT);
		if (r->line_start) {
			r->out[r->n++] = dir;
			r->out[r->n++] = ' ';
			r->line_start = false;
		}
		r->out[r->n++] = data[i];
		if (data[i] == '\n')
			r->line_start = true;
	}
}

static void
to_engine(void *ctx, const char *data, size_t len)
{
	put(ctx, '>', data, len);
}

static void
to_gui(void *ctx, const char *data, size_t len)
{
	put(ctx, '<', data, len);
}

static void
report(void *ctx, enum fb_level level, const char *msg)
{
	(void)ctx;
	(void)level;
	assert_non_null(msg);
}

static void
timer(void *ctx, unsigned ms)
{
	((struct rec *)ctx)->timer = ms;
}

struct session {
	struct fb_filter f;
	struct rec r;
	struct fb_sink gui, engine;
};

static void
start(struct session *s, enum fb_notation engine_fen)
{
	struct fb_filter_options opt = {
		.proto = &fb_protocol_xboard,
		.engine_proto = &fb_protocol_uci,
		.engine_fen = engine_fen,
		.gui_fen = FB_XFEN,
		.gui_castling = FB_CASTLE_AUTO,
		.engine_castling = FB_CASTLE_AUTO,
	};

	memset(&s->r, 0, sizeof s->r);
	s->r.line_start = true;
	s->gui = (struct fb_sink){.emit = to_engine, .reply = to_gui,
				  .report = report, .timer = timer,
				  .ctx = &s->r, .min_level = FB_LOG_DEBUG};
	s->engine = (struct fb_sink){.emit = to_gui, .reply = to_engine,
				     .report = report, .timer = timer,
				     .ctx = &s->r, .min_level = FB_LOG_DEBUG};
	fb_filter_init(&s->f, &opt);
}

/* Feeds the script's G and E lines. */
static void
feed(struct session *s, const char *script)
{
	while (*script != '\0') {
		const char *nl = strchr(script, '\n');
		size_t len = nl ? (size_t)(nl - script) : strlen(script);
		assert_true(len >= 2);
		if (script[0] == 'G')
			fb_filter_gui_line(&s->f, script + 2, len - 2, 1, 0,
					   &s->gui);
		else
			fb_filter_engine_line(&s->f, script + 2, len - 2, 1,
					      0, &s->engine);
		script += len + (nl != NULL);
	}
}

/* Feeds script and checks that exactly expect was sent, then forgets it. */
static void
step(struct session *s, const char *script, const char *expect)
{
	s->r.n = 0;
	feed(s, script);
	s->r.out[s->r.n] = '\0';
	assert_string_equal(s->r.out, expect);
}

/* The handshake of an engine with UCI_Chess960 and a few options. */
#define SF_OPTIONS                                                          \
	"E id name Stockfish 15.1\n"                                        \
	"E id author someone\n"                                             \
	"E option name Threads type spin default 1 min 1 max 1024\n"        \
	"E option name Hash type spin default 16 min 1 max 33554432\n"      \
	"E option name Clear Hash type button\n"                            \
	"E option name Ponder type check default false\n"                   \
	"E option name Skill Level type spin default 20 min 0 max 20\n"     \
	"E option name UCI_Chess960 type check default false\n"             \
	"E option name Syzygy50MoveRule type check default true\n"          \
	"E option name EvalFile type string default nn-x.nnue\n"            \
	"E option name Debug Log File type string default <empty>\n"        \
	"E option name Style type combo default Normal var Solid var "      \
	"Normal var Risky Play\n"

static void
handshake(struct session *s)
{
	step(s, "G xboard\nG protover 2\n", "> uci\n< feature done=0\n");
	assert_int_equal(s->r.timer, 10000);
	step(s, SF_OPTIONS "E uciok\n",
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
	assert_int_equal(s->r.timer, 0);
}

static void
test_xboard_uci_handshake_and_options(void **st)
{
	struct session s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "G accepted setboard\nG option Skill Level=5\n"
		 "G option Syzygy50MoveRule=0\nG option Clear Hash\n"
		 "G option Style=Risky Play\nG memory 64\nG cores 2\n"
		 "G egtpath syzygy /tb\nG option Nope=1\n",
	     "> setoption name Skill Level value 5\n"
	     "> setoption name Syzygy50MoveRule value false\n"
	     "> setoption name Clear Hash\n"
	     "> setoption name Style value Risky Play\n"
	     "> setoption name Hash value 64\n"
	     "> setoption name Threads value 2\n"
	     "< Error (unknown option): Nope=1\n");
	fb_filter_free(&s.f);
}

/* The engine never says uciok: the GUI is told and released. */
static void
test_xboard_uci_no_uciok(void **st)
{
	struct session s;

	(void)st;
	start(&s, FB_XFEN);
	step(&s, "G xboard\nG protover 2\nE id name Slow\n",
	     "> uci\n< feature done=0\n");
	s.r.n = 0;
	fb_filter_timeout(&s.f, &s.gui);
	s.r.out[s.r.n] = '\0';
	assert_non_null(strstr(s.r.out, "< tellusererror fenbridge: the "
					"engine did not finish"));
	assert_non_null(strstr(s.r.out, "myname=\"Slow\""));
	assert_non_null(strstr(s.r.out, "< feature done=1\n"));
	fb_filter_free(&s.f);
}

/* level/time/otim -> go; the engine's clock by its colour; mps. */
static void
test_xboard_uci_clocks(void **st)
{
	struct session s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "G new\nG level 40 5 2\nG post\nG time 30000\nG otim 29000\n"
		 "G usermove e2e4\n",
	     "> ucinewgame\n> position startpos moves e2e4\n"
	     "> go wtime 290000 btime 300000 winc 2000 binc 2000 "
	     "movestogo 40\n");
	step(&s, "E bestmove e7e5 ponder g1f3\n", "< move e7e5\n");
	/* playother: White is on move, so the engine plays Black: its
	 * clock (time) is btime; MIN:SEC base, fractional increment */
	step(&s, "G force\nG level 0 1:30 0.5\nG playother\nG time 500\n"
		 "G otim 600\nG usermove g1f3\n",
	     "> position startpos moves e2e4 e7e5 g1f3\n"
	     "> go wtime 6000 btime 5000 winc 500 binc 500\n");
	step(&s, "G ?\n", "> stop\n");
	step(&s, "E bestmove b8c6\n", "< move b8c6\n");
	step(&s, "G force\nG st 3\nG sd 7\nG go\n",
	     "> position startpos moves e2e4 e7e5 g1f3 b8c6\n"
	     "> go movetime 3000 depth 7\n");
	fb_filter_free(&s.f);
}

/* Thinking output: ply score time(cs) nodes pv; mates 100000+N. */
static void
test_xboard_uci_thinking(void **st)
{
	struct session s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "G new\nG post\nG force\nG go\n",
	     "> ucinewgame\n> position startpos\n> go movetime 1000\n");
	step(&s, "E info depth 12 seldepth 15 multipv 1 score cp -31 nodes "
		 "1234 nps 5000 hashfull 3 tbhits 0 time 2567 pv e2e4 e7e5\n"
		 "E info depth 20 score mate 3 time 10 nodes 9 wdl 1000 0 0 "
		 "pv d1h5\n"
		 "E info depth 20 score mate -2 upperbound nodes 9 time 10 pv "
		 "g2g4\n"
		 "E info currmove e2e4 currmovenumber 1\n"
		 "E info string NNUE on\nE info depth 3 nodes 7\n",
	     "< 12 -31 256 1234 e2e4 e7e5\n"
	     "< 20 100003 1 9 d1h5\n"
	     "< 20 -100002 1 9 g2g4\n");
	step(&s, "G nopost\nE info depth 13 score cp 5 time 0 nodes 1 pv "
		 "e2e4\n",
	     "");
	fb_filter_free(&s.f);
}

/* A Chess960 start with inner rooks: king f1, rooks e1 (a-side) and g1
 * (h-side). O-O is legal at once: king f1 -> g1, rook g1 -> f1 (KxR f1g1);
 * O-O-O is not (knight c1, bishop d1 in the way). */
#define F960 "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1"
#define F960_SH "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"

static void
test_xboard_uci_fischerandom_castling(void **st)
{
	struct session s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	/* The GUI sends Shredder-FEN: the engine gets X-FEN. */
	step(&s, "G new\nG variant fischerandom\nG setboard " F960_SH "\n"
		 "G post\nG force\nG usermove c2c3\nG usermove c7c6\n"
		 "G usermove O-O-O\nG usermove O-O\nG go\n",
	     "> ucinewgame\n> setoption name UCI_Chess960 value true\n"
	     "< Illegal move: O-O-O\n"
	     "> position fen " F960 " moves c2c3 c7c6 f1g1\n"
	     "> go movetime 1000\n");
	/* The engine's KxR castle and pv go to the GUI as O-O. */
	step(&s, "E info depth 1 score cp 0 time 0 nodes 1 pv f8g8 d2d4\n"
		 "E bestmove f8g8\n",
	     "< 1 0 0 1 O-O d2d4\n< move O-O\n");
	/* undo takes back the engine's castle; a bare move also works */
	step(&s, "G force\nG undo\nG d7d6\nG go\n",
	     "> position fen " F960 " moves c2c3 c7c6 f1g1 d7d6\n"
	     "> go movetime 1000\n");
	fb_filter_free(&s.f);
}

/* A Chess960 position set up in variant normal: the inner-rook rights
 * cannot reach the engine, and the GUI's user is told so. */
static void
test_xboard_uci_normal_drops_rights_aloud(void **st)
{
	struct session s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "G new\nG force\nG setboard "
		 "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - "
		 "4 11\nG go\n",
	     "> ucinewgame\n"
	     "< telluser fenbridge: 2 castling rights of this position need "
	     "Chess960 (variant fischerandom); the engine plays without "
	     "them\n"
	     "> position fen rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/"
	     "2BNK1RR w q - 4 11\n"
	     "> go movetime 1000\n");
	fb_filter_free(&s.f);
}

/* Normal chess: king moves both ways; startpos; remove; new resets. */
static void
test_xboard_uci_normal_castling(void **st)
{
	struct session s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "G new\nG force\nG e2e4\nG e7e5\nG g1f3\nG b8c6\nG f1c4\n"
		 "G g8f6\nG go\n",
	     "> ucinewgame\n> position startpos moves e2e4 e7e5 g1f3 b8c6 "
	     "f1c4 g8f6\n> go movetime 1000\n");
	step(&s, "E bestmove e1g1\n", "< move e1g1\n");
	/* remove takes back Nf6 and the castle: the user replays Nf6 and
	 * the engine (White) is to move again */
	step(&s, "G remove\nG g8f6\n",
	     "> position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6\n"
	     "> go movetime 1000\n");
	/* the GUI castles with the king's move too */
	step(&s, "E bestmove d2d3\nG force\nG f8c5\nG e1g1\nG go\n",
	     "< move d2d3\n> position startpos moves e2e4 e7e5 g1f3 b8c6 "
	     "f1c4 g8f6 d2d3 f8c5 e1g1\n> go movetime 1000\n");
	fb_filter_free(&s.f);
}

/* Capablanca Random with an engine that lists it in UCI_Variant. */
static void
test_xboard_uci_caparandom(void **st)
{
	struct session s;

	(void)st;
	start(&s, FB_XFEN);
	step(&s, "G xboard\nG protover 2\n", "> uci\n< feature done=0\n");
	step(&s, "E id name Fairy-Stockfish 11.1\n"
		 "E option name UCI_Chess960 type check default false\n"
		 "E option name UCI_Variant type combo default chess var "
		 "capablanca var caparandom var chess var fischerandom\n"
		 "E uciok\n",
	     "< feature myname=\"Fairy-Stockfish 11.1\" setboard=1 "
	     "usermove=1 ping=1 playother=1 sigint=0 sigterm=0 analyze=1 "
	     "colors=0 reuse=1 san=0 time=1 draw=0 "
	     "variants=\"normal,fischerandom,capablanca,caparandom\"\n"
	     "< feature done=1\n");
	/* King e1, rooks b1 (inner: a1 holds a bishop? no: a1 is empty) and
	 * i1; O-O: king to i1, rook to h1 (KxR e1i1). */
	step(&s, "G new\nG variant caparandom\n"
		 "G setboard r1nbqkbcr1/pppppppppp/10/10/10/10/PPPPPPPPPP/"
		 "R1NBQKBCR1 w KQkq - 0 1\nG force\nG go\n",
	     "> ucinewgame\n> setoption name UCI_Variant value caparandom\n"
	     "> setoption name UCI_Chess960 value true\n"
	     "> position fen r1nbqkbcr1/pppppppppp/10/10/10/10/PPPPPPPPPP/"
	     "R1NBQKBCR1 w KQkq - 0 1\n> go movetime 1000\n");
	fb_filter_free(&s.f);
}

/* 10x8 with an inner rook: white king e1, rooks a1, i1 (castling) and j1;
 * X-FEN writes the inner rook's file (I). The engine's KxR e1i1 is O-O to
 * the GUI; the GUI's O-O-O is e1a1 to the engine. */
#define CAPA_INNER "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K3RR"

static void
test_xboard_uci_caparandom_inner_rook(void **st)
{
	struct session s;

	(void)st;
	start(&s, FB_XFEN);
	step(&s, "G xboard\nG protover 2\n"
		 "E option name UCI_Chess960 type check default false\n"
		 "E option name UCI_Variant type combo default chess var "
		 "caparandom var chess\nE uciok\n",
	     "> uci\n< feature done=0\n"
	     "< feature myname=\"UCI engine\" setboard=1 usermove=1 ping=1 "
	     "playother=1 sigint=0 sigterm=0 analyze=1 colors=0 reuse=1 "
	     "san=0 time=1 draw=0 variants=\"normal,fischerandom,caparandom\""
	     "\n< feature done=1\n");
	/* Shredder-FEN from the GUI */
	step(&s, "G new\nG variant caparandom\nG setboard " CAPA_INNER
		 " w IAja - 0 1\nG post\nG go\n",
	     "> ucinewgame\n> setoption name UCI_Variant value caparandom\n"
	     "> setoption name UCI_Chess960 value true\n"
	     "> position fen " CAPA_INNER " w IQkq - 0 1\n"
	     "> go movetime 1000\n");
	step(&s, "E info depth 2 score cp 3 time 5 nodes 80 pv e1i1 e8a8\n"
		 "E bestmove e1i1 ponder e8a8\n",
	     "< 2 3 0 80 O-O O-O-O\n< move O-O\n");
	step(&s, "G usermove O-O-O\nE bestmove a2a3\n",
	     "> position fen " CAPA_INNER " w IQkq - 0 1 moves e1i1 e8a8\n"
	     "> go movetime 1000\n< move a2a3\n");
	fb_filter_free(&s.f);
}

/* An engine without UCI_Chess960 gets only standard rights, and a castle
 * it cannot read as the position after it (re-anchoring). */
static void
test_xboard_uci_standard_engine_reanchors(void **st)
{
	struct session s;

	(void)st;
	start(&s, FB_XFEN);
	step(&s, "G xboard\nG protover 2\nE id name Toga II 3.0\nE uciok\n",
	     "> uci\n< feature done=0\n"
	     "< feature myname=\"Toga II 3.0\" setboard=1 usermove=1 ping=1 "
	     "playother=1 sigint=0 sigterm=0 analyze=1 colors=0 reuse=1 "
	     "san=0 time=1 draw=0 variants=\"normal\"\n"
	     "< feature done=1\n");
	step(&s, "G variant fischerandom\n",
	     "< Error (unsupported variant): fischerandom\n");
	/* Its rights cannot reach the engine: said, not silent. */
	step(&s, "G new\nG force\nG setboard " F960_SH "\nG go\n",
	     "> ucinewgame\n"
	     "< telluser fenbridge: 4 castling rights of this position need "
	     "Chess960 (variant fischerandom); the engine plays without "
	     "them\n"
	     "> position fen bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w - "
	     "- 0 1\n> go movetime 1000\n");
	step(&s, "E bestmove c2c3\nG force\nG usermove c7c6\nG O-O\n"
		 "G d7d6\nG go\n",
	     "< move c2c3\n> position fen bqnbrkrn/pp1ppppp/2p5/8/8/2P5/"
	     "PP1PPPPP/BQNBRRKN b - - 1 2 moves d7d6\n> go movetime 1000\n");
	fb_filter_free(&s.f);
}

/* hard: go ponder on the expected reply; ponderhit when it comes, stop
 * and a new search (the pondering bestmove swallowed) when it does not. */
static void
test_xboard_uci_ponder(void **st)
{
	struct session s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "G new\nG hard\nG post\nG level 40 5 0\nG time 1000\n"
		 "G otim 900\nG usermove e2e4\n",
	     "> ucinewgame\n> setoption name Ponder value true\n"
	     "> position startpos moves e2e4\n"
	     "> go wtime 9000 btime 10000 winc 0 binc 0 movestogo 40\n");
	step(&s, "E bestmove e7e5 ponder g1f3\n",
	     "< move e7e5\n> position startpos moves e2e4 e7e5 g1f3\n"
	     "> go ponder wtime 9000 btime 10000 winc 0 binc 0 movestogo 39\n");
	/* thinking while pondering is not shown */
	step(&s, "E info depth 9 score cp 5 time 10 nodes 99 pv b8c6\n"
		 "G time 990\nG otim 800\nG usermove g1f3\n",
	     "> ponderhit\n");
	step(&s, "E info depth 10 score cp 7 time 20 nodes 200 pv b8c6\n"
		 "E bestmove b8c6 ponder f1b5\n",
	     "< 10 7 2 200 b8c6\n< move b8c6\n"
	     "> position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5\n"
	     "> go ponder wtime 8000 btime 9900 winc 0 binc 0 movestogo 38\n");
	/* another move: stop, the new search; the old bestmove is stale */
	step(&s, "G usermove f1c4\n",
	     "> stop\n> position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4\n"
	     "> go wtime 8000 btime 9900 winc 0 binc 0 movestogo 38\n");
	step(&s, "E bestmove a7a6\nE bestmove f8c5\n", "< move f8c5\n");
	/* easy: no pondering after the next move */
	step(&s, "G easy\nG usermove b1c3\nE bestmove g8f6 ponder d2d3\n",
	     "> setoption name Ponder value false\n"
	     "> position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 b1c3\n"
	     "> go wtime 8000 btime 9900 winc 0 binc 0 movestogo 37\n"
	     "< move g8f6\n");
	fb_filter_free(&s.f);
}

/* ping -> isready, pong after readyok, in order. */
static void
test_xboard_uci_ping(void **st)
{
	struct session s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "G ping 1\nG ping 2\n", "> isready\n> isready\n");
	step(&s, "E readyok\n", "< pong 1\n");
	step(&s, "E readyok\n", "< pong 2\n");
	fb_filter_free(&s.f);
}

/* A bestmove after fenbridge's own stop is stale: swallowed, with the
 * info lines before it. */
static void
test_xboard_uci_stale_bestmove(void **st)
{
	struct session s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "G new\nG post\nG usermove e2e4\n",
	     "> ucinewgame\n> position startpos moves e2e4\n"
	     "> go movetime 1000\n");
	step(&s, "G force\nG undo\n", "> stop\n");
	step(&s, "E info depth 5 score cp 1 time 1 nodes 1 pv e7e5\n"
		 "E bestmove e7e5\n",
	     "");
	/* analyze: a move restarts the search; the old bestmove is stale */
	step(&s, "G analyze\n", "> position startpos\n> go infinite\n");
	step(&s, "G usermove d2d4\n",
	     "> stop\n> position startpos moves d2d4\n> go infinite\n");
	step(&s, "E bestmove e2e4\nE info depth 1 score cp 9 time 0 nodes 1 "
		 "pv d7d5\n",
	     "< 1 9 0 1 d7d5\n");
	step(&s, "G exit\nE bestmove d7d5\n", "> stop\n");
	fb_filter_free(&s.f);
}

/* An illegal engine move is told, not passed; illegal GUI moves too. */
static void
test_xboard_uci_illegal(void **st)
{
	struct session s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "G new\nG usermove e2e5\n",
	     "> ucinewgame\n< Illegal move: e2e5\n");
	step(&s, "G usermove e2e4\n",
	     "> position startpos moves e2e4\n> go movetime 1000\n");
	step(&s, "E bestmove e2e3\n",
	     "< tellusererror fenbridge: the engine played an illegal move "
	     "(e2e3); it is not passed on\n");
	step(&s, "G frobnicate\n", "< Error (unknown command): frobnicate\n");
	fb_filter_free(&s.f);
}

/* The engine's mating move is claimed. */
static void
test_xboard_uci_mate_claimed(void **st)
{
	struct session s;

	(void)st;
	start(&s, FB_XFEN);
	handshake(&s);
	step(&s, "G new\nG force\nG f2f3\nG e7e5\nG g2g4\nG go\n",
	     "> ucinewgame\n> position startpos moves f2f3 e7e5 g2g4\n"
	     "> go movetime 1000\n");
	step(&s, "E bestmove d8h4\n",
	     "< move d8h4\n< 0-1 {Black mates}\n");
	/* a stalemate set up by the GUI: the engine has no move */
	step(&s, "G new\nG force\nG setboard 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\n"
		 "G go\n",
	     "> ucinewgame\n> position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\n"
	     "> go movetime 1000\n");
	step(&s, "E bestmove (none)\n", "< 1/2-1/2 {Stalemate}\n");
	fb_filter_free(&s.f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xboard_uci_handshake_and_options),
		cmocka_unit_test(test_xboard_uci_no_uciok),
		cmocka_unit_test(test_xboard_uci_clocks),
		cmocka_unit_test(test_xboard_uci_thinking),
		cmocka_unit_test(test_xboard_uci_fischerandom_castling),
		cmocka_unit_test(test_xboard_uci_normal_drops_rights_aloud),
		cmocka_unit_test(test_xboard_uci_normal_castling),
		cmocka_unit_test(test_xboard_uci_caparandom),
		cmocka_unit_test(test_xboard_uci_caparandom_inner_rook),
		cmocka_unit_test(test_xboard_uci_standard_engine_reanchors),
		cmocka_unit_test(test_xboard_uci_ponder),
		cmocka_unit_test(test_xboard_uci_ping),
		cmocka_unit_test(test_xboard_uci_stale_bestmove),
		cmocka_unit_test(test_xboard_uci_illegal),
		cmocka_unit_test(test_xboard_uci_mate_claimed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
