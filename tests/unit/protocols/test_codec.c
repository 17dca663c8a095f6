/* SPDX-License-Identifier: MIT */
/*
 * The per-side codecs (protocols/uci_codec.c, protocols/cecp_codec.c): every
 * line form the pairs rely on, read into events whose spans are checked as
 * the exact bytes of the line they name. Lines are taken from real engines
 * and GUIs (Stockfish 15.1, Fairy-Stockfish, GNU Chess 6 in XBoard mode,
 * Sjaak II, cutechess, XBoard) and from the specs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cecp_codec.h"
#include "uci_codec.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* The bytes a span names, checked against what is expected (NULL: the
 * span is empty). */
static void
span_equal(const char *line, struct fb_span s, const char *want)
{
	if (want == NULL) {
		if (s.len != 0)
			fail_msg("'%s': expected no span, got '%.*s'", line,
				 (int)s.len, line + s.off);
		return;
	}
	if (s.len != strlen(want) || memcmp(line + s.off, want, s.len) != 0)
		fail_msg("'%s': expected '%s', got '%.*s'", line, want,
			 (int)s.len, line + s.off);
}

static void
test_codec_uci_engine_kinds(void **state)
{
	static const struct {
		const char *line;
		enum fb_uci_engine kind;
	} cases[] = {
		{"info depth 1", FB_UCI_E_INFO},
		{"  info string x", FB_UCI_E_INFO},
		{"id name Stockfish 15.1", FB_UCI_E_ID},
		{"bestmove e2e4 ponder e7e5", FB_UCI_E_BESTMOVE},
		{"option name Hash type spin", FB_UCI_E_OPTION},
		{"uciok", FB_UCI_E_UCIOK},
		{"readyok", FB_UCI_E_READYOK},
		{"informative", FB_UCI_E_OTHER},
		{"idle", FB_UCI_E_OTHER},
		{"Stockfish 15.1 by the Stockfish developers", FB_UCI_E_OTHER},
		{"", FB_UCI_E_OTHER},
		{"uciokay", FB_UCI_E_OTHER},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		size_t start;
		enum fb_uci_engine k = fb_uci_engine_kind(
			cases[i].line, strlen(cases[i].line), &start);
		if (k != cases[i].kind)
			fail_msg("'%s': kind %d, expected %d", cases[i].line, k,
				 cases[i].kind);
	}
}

static void
test_codec_uci_option_spin_and_combo(void **state)
{
	const char *spin = "option name Skill Level type spin default 20 min 0 "
			   "max 20";
	const char *combo = "option name UCI_Variant type combo default chess "
			    "var chess var chess960 var crazyhouse";
	const char *str = "option name SyzygyPath type string default <empty>";
	const char *bad = "option name Hash";
	struct fb_uci_option o;

	(void)state;
	assert_int_equal(fb_uci_parse_option(spin, strlen(spin), &o), 0);
	span_equal(spin, o.name, "Skill Level");
	assert_int_equal(o.type, FB_UCI_T_SPIN);
	span_equal(spin, o.def, "20");
	span_equal(spin, o.min, "0");
	span_equal(spin, o.max, "20");
	assert_int_equal(o.nvars, 0);

	assert_int_equal(fb_uci_parse_option(combo, strlen(combo), &o), 0);
	span_equal(combo, o.name, "UCI_Variant");
	assert_int_equal(o.type, FB_UCI_T_COMBO);
	span_equal(combo, o.def, "chess");
	assert_int_equal(o.nvars, 3);
	span_equal(combo, o.var[1], "chess960");
	span_equal(combo, o.vars, "var chess var chess960 var crazyhouse");

	assert_int_equal(fb_uci_parse_option(str, strlen(str), &o), 0);
	assert_int_equal(o.type, FB_UCI_T_STRING);
	span_equal(str, o.def, "<empty>");

	assert_int_equal(fb_uci_parse_option(bad, strlen(bad), &o), -1);
	/* without a type the name is still read (a config may hide it) */
	span_equal(bad, o.name, "Hash");
}

static void
test_codec_uci_info_fields_and_moves(void **state)
{
	const char *line = "info depth 12 seldepth 17 multipv 1 score cp -31 "
			   "nodes 123456 nps 99 time 250 pv e1h1 e8a8 d2d4";
	const char *mate = "info depth 9 score mate -3 time 5 pv g1h1";
	const char *cur = "info currmove e1g1 currmovenumber 2";
	const char *line2 = "info currline 1 e2e4 e7e5 refutation d1h5 g8f6";
	const char *str = "info string NNUE evaluation enabled pv e2e4";
	struct fb_uci_info in;

	(void)state;
	fb_uci_parse_info(line, strlen(line), &in);
	assert_int_equal(in.depth, 12);
	assert_int_equal(in.score, -31);
	assert_false(in.mate);
	assert_int_equal(in.nodes, 123456);
	assert_int_equal(in.time, 250);
	assert_int_equal(in.have, FB_INFO_DEPTH | FB_INFO_SCORE | FB_INFO_TIME |
					  FB_INFO_NODES | FB_INFO_PV |
					  FB_INFO_MULTIPV);
	span_equal(line, in.score_word, "cp");
	span_equal(line, in.moves[FB_UCI_PV], "e1h1 e8a8 d2d4");
	span_equal(line, in.moves[FB_UCI_CURRMOVE], NULL);

	fb_uci_parse_info(mate, strlen(mate), &in);
	span_equal(mate, in.score_word, "mate");
	assert_false(in.have & FB_INFO_MULTIPV);
	assert_true(in.mate);
	assert_int_equal(in.score, -3);
	span_equal(mate, in.moves[FB_UCI_PV], "g1h1");

	fb_uci_parse_info(cur, strlen(cur), &in);
	span_equal(cur, in.moves[FB_UCI_CURRMOVE], "e1g1");
	assert_int_equal(in.have, 0);

	fb_uci_parse_info(line2, strlen(line2), &in);
	span_equal(line2, in.moves[FB_UCI_CURRLINE], "e2e4 e7e5");
	span_equal(line2, in.moves[FB_UCI_REFUTATION], "d1h5 g8f6");

	/* An engine's bare score: the number is the word after score
	 * (--normalize reads it there). */
	{
		const char *bare = "info depth 4 score -25 pv e2e4";
		fb_uci_parse_info(bare, strlen(bare), &in);
		span_equal(bare, in.score_word, "-25");
		assert_true(in.have & FB_INFO_SCORE);
	}

	/* free text to the end: a pv inside it is no pv */
	fb_uci_parse_info(str, strlen(str), &in);
	span_equal(str, in.string, "NNUE evaluation enabled pv e2e4");
	span_equal(str, in.moves[FB_UCI_PV], NULL);
	assert_false(in.have & FB_INFO_PV);
}

/* A pv keyword with no move: there, and empty right after the keyword
 * (XBoard thinking output then has no moves). */
/* What the referee asks of an info line: numbers that are integers, a
 * score with its unit. */
static void
test_codec_uci_info_bad_fields(void **state)
{
	static const struct {
		const char *line;
		unsigned bad;
	} cases[] = {
		{"info depth 12 score cp -31 nodes 9 time 250 pv e2e4", 0},
		{"info depth 3 score mate -2 lowerbound", 0},
		{"info depth 3 score cp +20", 0},
		{"info depth 99999999999999999999 nodes 1", 0}, /* clamped */
		{"info depth 1.5 score cp 3", FB_INFO_BAD_NUMBER},
		{"info nodes 10k", FB_INFO_BAD_NUMBER},
		{"info time", FB_INFO_BAD_NUMBER},
		/* its value read as the unit, `nodes` as the value */
		{"info score 25 nodes 100",
		 FB_INFO_BAD_SCORE | FB_INFO_BAD_NUMBER},
		{"info score centipawns 25", FB_INFO_BAD_SCORE},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct fb_uci_info in;
		fb_uci_parse_info(cases[i].line, strlen(cases[i].line), &in);
		if (in.bad != cases[i].bad)
			fail_msg("%s: bad %u, want %u", cases[i].line, in.bad,
				 cases[i].bad);
	}
}

static void
test_codec_uci_info_empty_pv(void **state)
{
	const char *end = "info depth 3 pv";
	const char *kw = "info depth 3 pv  nodes 7";
	struct fb_uci_info in;

	(void)state;
	fb_uci_parse_info(end, strlen(end), &in);
	assert_true(in.have & FB_INFO_PV);
	assert_int_equal(in.moves[FB_UCI_PV].len, 0);
	assert_int_equal(in.moves[FB_UCI_PV].off, strlen(end));

	fb_uci_parse_info(kw, strlen(kw), &in);
	assert_true(in.have & FB_INFO_PV);
	assert_int_equal(in.moves[FB_UCI_PV].len, 0);
	assert_int_equal(in.moves[FB_UCI_PV].off, strlen("info depth 3 pv"));
	assert_int_equal(in.nodes, 7);
}

/* Every var of a list longer than the codec's array, in order, each
 * value up to the next keyword. */
static void
test_codec_uci_option_all_vars(void **state)
{
	char line[2048];
	size_t n = (size_t)snprintf(line, sizeof line,
				    "option name UCI_Variant type combo "
				    "default v0");
	struct fb_uci_option o;
	struct fb_span v;
	size_t pos, count = 0;

	(void)state;
	for (int i = 0; i < FB_UCI_VARS_MAX + 6; i++)
		n += (size_t)snprintf(line + n, sizeof line - n, " var v%d", i);
	n += (size_t)snprintf(line + n, sizeof line - n, " var two words");
	assert_int_equal(fb_uci_parse_option(line, n, &o), 0);
	assert_int_equal(o.nvars, FB_UCI_VARS_MAX + 7);
	pos = o.vars.off;
	while (fb_uci_option_next_var(line, n, &pos, &v)) {
		char want[16];
		if (count == FB_UCI_VARS_MAX + 6)
			span_equal(line, v, "two words");
		else {
			snprintf(want, sizeof want, "v%zu", count);
			span_equal(line, v, want);
		}
		if (count < FB_UCI_VARS_MAX)
			assert_int_equal(v.off, o.var[count].off);
		count++;
	}
	assert_int_equal(count, FB_UCI_VARS_MAX + 7);
}

static void
test_codec_uci_bestmove_and_id(void **state)
{
	const char *b1 = "bestmove e1h1 ponder e8g8";
	const char *b2 = "bestmove (none)";
	const char *b3 = "bestmove";
	const char *id = "id name  Toga II 3.0  ";
	struct fb_uci_bestmove b;
	struct fb_uci_id i;

	(void)state;
	assert_int_equal(fb_uci_parse_bestmove(b1, strlen(b1), &b), 0);
	span_equal(b1, b.move, "e1h1");
	span_equal(b1, b.ponder, "e8g8");
	assert_int_equal(fb_uci_parse_bestmove(b2, strlen(b2), &b), 0);
	span_equal(b2, b.move, "(none)");
	span_equal(b2, b.ponder, NULL);
	assert_int_equal(fb_uci_parse_bestmove(b3, strlen(b3), &b), -1);
	assert_int_equal(fb_uci_parse_id(id, strlen(id), &i), 0);
	assert_true(i.name);
	span_equal(id, i.value, "Toga II 3.0");
}

static void
test_codec_uci_gui_commands(void **state)
{
	const char *set = "setoption name UCI_Chess960 value True ";
	const char *btn = "setoption name Clear Hash";
	const char *p1 = "position startpos moves e2e4 e7e5";
	const char *p2 = "position fen  bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/"
			 "NPP1P1PP/BQ1BNRKR w HFhf - 2 9 moves g1h1";
	const char *p3 = "position fen 8/8 w";
	const char *p4 = "position fen";
	const char *go = "go wtime 1000 btime -5 winc 10 movestogo 7 "
			 "searchmoves e1h1 e2e4 infinite";
	struct fb_uci_setoption s;
	struct fb_uci_position p;
	struct fb_uci_go g;
	size_t start;

	(void)state;
	assert_int_equal(fb_uci_gui_kind(p1, strlen(p1), &start),
			 FB_UCI_G_POSITION);
	assert_int_equal(fb_uci_gui_kind("stopped", 7, &start), FB_UCI_G_OTHER);
	assert_int_equal(fb_uci_parse_setoption(set, strlen(set), &s), 0);
	span_equal(set, s.name, "UCI_Chess960");
	span_equal(set, s.value, "True");
	assert_true(s.has_value);
	assert_int_equal(fb_uci_parse_setoption(btn, strlen(btn), &s), 0);
	span_equal(btn, s.name, "Clear Hash");
	assert_false(s.has_value);

	assert_int_equal(fb_uci_parse_position(p1, strlen(p1), &p), 0);
	assert_true(p.startpos);
	assert_true(p.has_moves);
	assert_string_equal(p1 + p.moves, " e2e4 e7e5");
	assert_int_equal(fb_uci_parse_position(p2, strlen(p2), &p), 0);
	span_equal(p2, p.fen,
		   "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w "
		   "HFhf - 2 9");
	assert_true(p.has_moves);
	assert_string_equal(p2 + p.moves, " g1h1");
	assert_int_equal(fb_uci_parse_position(p3, strlen(p3), &p), 0);
	assert_false(p.has_moves);
	assert_int_equal(p.moves, strlen(p3));
	assert_int_equal(fb_uci_parse_position(p4, strlen(p4), &p), -1);
	assert_true(p.fen_keyword); /* `fen` without a FEN: said so */
	assert_int_equal(
		fb_uci_parse_position("position fen  moves e2e4", 24, &p), -1);
	assert_true(p.fen_keyword);
	assert_int_equal(fb_uci_parse_position("position fenx", 13, &p), -1);
	assert_false(p.fen_keyword);
	assert_int_equal(fb_uci_parse_position(p2, strlen(p2), &p), 0);
	assert_true(p.fen_keyword);

	fb_uci_parse_go(go, strlen(go), &g);
	assert_int_equal(g.wtime, 1000);
	assert_int_equal(g.btime, -5);
	assert_int_equal(g.winc, 10);
	assert_int_equal(g.binc, 0);
	assert_int_equal(g.movestogo, 7);
	assert_int_equal(g.movetime, -1);
	assert_true(g.infinite);
	span_equal(go, g.searchmoves, "e1h1 e2e4");
}

static void
test_codec_cecp_engine_forms(void **state)
{
	static const struct {
		const char *line;
		enum fb_cecp_engine kind;
		const char *arg; /* NULL: not checked */
		int form;
	} cases[] = {
		{"move e2e4", FB_CECP_E_MOVE, "e2e4", FB_CECP_MOVE_CMD},
		{"move O-O", FB_CECP_E_MOVE, "O-O", FB_CECP_MOVE_CMD},
		{"My move is: Nf3", FB_CECP_E_MOVE, "Nf3", FB_CECP_MOVE_MYMOVE},
		{"My move is : g1f3", FB_CECP_E_MOVE, "g1f3",
		 FB_CECP_MOVE_MYMOVE},
		{"1. ... g1f3", FB_CECP_E_MOVE, "g1f3", FB_CECP_MOVE_OLD},
		{"12 ... e7e5", FB_CECP_E_MOVE, "e7e5", FB_CECP_MOVE_OLD},
		{"White (1) : feature done=0", FB_CECP_E_FEATURE, "done=0", 0},
		{"Black (12) : move e7e5", FB_CECP_E_MOVE, "e7e5",
		 FB_CECP_MOVE_CMD},
		{"pong 7", FB_CECP_E_PONG, "7", 0},
		{"1-0 {White mates}", FB_CECP_E_RESULT, "1-0 {White mates}", 0},
		{"1/2-1/2 {Stalemate}", FB_CECP_E_RESULT, NULL, 0},
		{"resign", FB_CECP_E_RESIGN, NULL, 0},
		{"offer draw", FB_CECP_E_DRAW, NULL, 0},
		{"Error (unknown command): post", FB_CECP_E_ERROR, "post", 0},
		{"Error (unkown command): O-O", FB_CECP_E_ERROR, "O-O", 0},
		{"Illegal move (no such piece): e1h1", FB_CECP_E_ILLEGAL,
		 "e1h1", 0},
		{"Illegal move: e9e4", FB_CECP_E_ILLEGAL, "e9e4", 0},
		{"telluser hello world", FB_CECP_E_TELL, "hello world", 0},
		{"setup (PNBRQKpnbrqk) 8x8+0_fairy rnbqkbnr/pppppppp/8/8/8/8/"
		 "PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_CECP_E_SETUP,
		 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0},
		{"7 31 150 12345 Nf3 Nc6 O-O", FB_CECP_E_THINKING, NULL, 0},
		{"# a comment", FB_CECP_E_OTHER, NULL, 0},
		{"White (1) : ", FB_CECP_E_OTHER, NULL, 0},
		{"Fairy-Max 5.0b by H.G. Muller", FB_CECP_E_OTHER, NULL, 0},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		struct fb_cecp_line l;
		const char *t = cases[i].line;
		fb_cecp_parse_engine(t, strlen(t), &l);
		if (l.kind != cases[i].kind)
			fail_msg("'%s': kind %d, expected %d", t, l.kind,
				 cases[i].kind);
		if (cases[i].arg != NULL)
			span_equal(t, l.arg, cases[i].arg);
		if (l.kind == FB_CECP_E_MOVE && (int)l.form != cases[i].form)
			fail_msg("'%s': form %d, expected %d", t, l.form,
				 cases[i].form);
		/* Commands only: the same, but thinking output unread. */
		{
			struct fb_cecp_line c;
			fb_cecp_parse_engine_command(t, strlen(t), &c);
			if (l.kind == FB_CECP_E_THINKING)
				l.kind = FB_CECP_E_OTHER;
			if (c.kind != l.kind || c.arg.off != l.arg.off ||
			    c.arg.len != l.arg.len || c.start != l.start)
				fail_msg("'%s': commands only: kind %d, "
					 "expected %d",
					 t, c.kind, l.kind);
		}
	}
}

static void
test_codec_cecp_thinking_with_extras(void **state)
{
	const char *t1 = "12& -45 1234 987654 21 5000 0\tNf3 Nc6";
	const char *t2 = "9 100031 20 500 Qh5# ";
	const char *t3 = "9 31 20 Nf3";
	struct fb_cecp_line l;

	(void)state;
	fb_cecp_parse_engine(t1, strlen(t1), &l);
	assert_int_equal(l.kind, FB_CECP_E_THINKING);
	assert_int_equal(l.think.ply, 12);
	assert_int_equal(l.think.score, -45);
	assert_int_equal(l.think.time_cs, 1234);
	assert_int_equal(l.think.nodes, 987654);
	span_equal(t1, l.think.pv, "Nf3 Nc6");
	fb_cecp_parse_engine(t2, strlen(t2), &l);
	assert_int_equal(l.think.score, 100031);
	span_equal(t2, l.think.pv, "Qh5#");
	fb_cecp_parse_engine(t3, strlen(t3), &l);
	assert_int_equal(l.kind, FB_CECP_E_OTHER);
}

static void
test_codec_cecp_features(void **state)
{
	const char *f = "feature myname=\"GNU Chess 6.2.7\" setboard=1 "
			"usermove=1 variants=\"normal,fischerandom\" junk =4 "
			"option=\"Hash -spin 32 1 1024\" done=1";
	static const char *const keys[] = {"myname",   "setboard", "usermove",
					   "variants", "option",   "done"};
	static const char *const vals[] = {
		"GNU Chess 6.2.7",      "1", "1", "normal,fischerandom",
		"Hash -spin 32 1 1024", "1"};
	struct fb_cecp_feature ft;
	size_t pos = 0, k = 0;
	bool valid;

	(void)state;
	while (fb_cecp_next_feature(f, strlen(f), &pos, &ft)) {
		assert_true(k < N_ELEMS(keys));
		span_equal(f, ft.key, keys[k]);
		span_equal(f, ft.value, vals[k]);
		assert_int_equal(ft.quoted, vals[k][0] != '1');
		k++;
	}
	assert_int_equal(k, N_ELEMS(keys));
	pos = 0;
	fb_cecp_next_feature("feature done=0", 14, &pos, &ft);
	assert_false(fb_cecp_feature_flag("feature done=0", &ft, &valid));
	assert_true(valid);
}

static void
test_codec_cecp_gnu_chess_and_rejections(void **state)
{
	/* GNU Chess writes a prompt for each line it read, nudges too. */
	const char *two = "White (1) : White (1) : feature done=0";
	const char *sd = "Invalid move: sd 3";
	const char *nudge = "Invalid move: ";
	const char *err = "Error (unknown command): level 40 5 0 ";
	const char *ill = "Illegal move (no such piece): e1h1";
	const char *bare = "Error";
	const char *um = "Error (unknown command): usermove O-O";
	const char *fm = "Illegal move:f1j1"; /* Fairy-Max */
	const char *pong = "pong 3";
	struct fb_cecp_line l;
	long long v;

	(void)state;
	fb_cecp_parse_engine(two, strlen(two), &l);
	assert_int_equal(l.kind, FB_CECP_E_FEATURE);
	assert_true(l.prompt);
	assert_int_equal(l.start, 24);
	fb_cecp_parse_engine("feature done=1", 14, &l);
	assert_false(l.prompt);
	/* What was rejected: after the last colon, with its arguments. */
	fb_cecp_parse_engine(sd, strlen(sd), &l);
	assert_int_equal(l.kind, FB_CECP_E_INVALID);
	span_equal(sd, l.rejected, "sd 3");
	fb_cecp_parse_engine(nudge, strlen(nudge), &l);
	assert_int_equal(l.kind, FB_CECP_E_INVALID);
	span_equal(nudge, l.rejected, NULL);
	fb_cecp_parse_engine(err, strlen(err), &l);
	assert_int_equal(l.kind, FB_CECP_E_ERROR);
	span_equal(err, l.rejected, "level 40 5 0");
	span_equal(err, l.arg, "0");
	fb_cecp_parse_engine(ill, strlen(ill), &l);
	span_equal(ill, l.rejected, "e1h1");
	fb_cecp_parse_engine(bare, strlen(bare), &l);
	assert_int_equal(l.kind, FB_CECP_E_ERROR);
	span_equal(bare, l.rejected, NULL);
	assert_false(fb_cecp_rejects(bare, &l, ""));
	/* Which command a refusal names: its first word, after usermove;
	 * none for a line that refuses nothing. */
	fb_cecp_parse_engine(sd, strlen(sd), &l);
	assert_true(fb_cecp_rejects(sd, &l, "sd"));
	assert_false(fb_cecp_rejects(sd, &l, "s"));
	assert_false(fb_cecp_rejects(sd, &l, "sd 3"));
	fb_cecp_parse_engine(ill, strlen(ill), &l);
	assert_true(fb_cecp_rejects(ill, &l, "e1h1"));
	assert_false(fb_cecp_rejects(ill, &l, "e1g1"));
	fb_cecp_parse_engine(um, strlen(um), &l);
	assert_true(fb_cecp_rejects(um, &l, "O-O"));
	fb_cecp_parse_engine(fm, strlen(fm), &l);
	assert_true(fb_cecp_rejects(fm, &l, "f1j1"));
	fb_cecp_parse_engine(pong, strlen(pong), &l);
	assert_false(fb_cecp_rejects(pong, &l, "3"));
	/* Numbers as engines write them. */
	assert_true(fb_cecp_parse_number("12.", (struct fb_span){0, 3}, &v));
	assert_int_equal(v, 12);
	assert_true(fb_cecp_parse_number("-7&", (struct fb_span){0, 3}, &v));
	assert_int_equal(v, -7);
	assert_true(fb_cecp_parse_number("99999999999999",
					 (struct fb_span){0, 14}, &v));
	assert_int_equal(v, 1000000000000LL);
	assert_false(fb_cecp_parse_number("1x", (struct fb_span){0, 2}, &v));
	assert_false(fb_cecp_parse_number("-", (struct fb_span){0, 1}, &v));
	assert_false(fb_cecp_parse_number("", (struct fb_span){0, 0}, &v));
}

static void
test_codec_cecp_gui_commands(void **state)
{
	const char *lv = "level 40 5:30 2";
	const char *um = "usermove O-O-O";
	const char *bare = "e2e4";
	struct fb_cecp_command c;

	(void)state;
	fb_cecp_parse_gui(lv, strlen(lv), &c);
	assert_int_equal(c.kind, FB_CECP_G_LEVEL);
	span_equal(lv, c.arg, "40 5:30 2");
	fb_cecp_parse_gui(um, strlen(um), &c);
	assert_int_equal(c.kind, FB_CECP_G_USERMOVE);
	span_equal(um, c.arg, "O-O-O");
	fb_cecp_parse_gui(bare, strlen(bare), &c);
	assert_int_equal(c.kind, FB_CECP_G_OTHER);
	span_equal(bare, c.word, "e2e4");
	fb_cecp_parse_gui("?", 1, &c);
	assert_int_equal(c.kind, FB_CECP_G_MOVENOW);
}

/* The spans a rewrite splices (the journal's replay of a search): the
 * ponder token and the clock values, the last when a key repeats; none
 * for a value that is no number. */
static void
test_codec_uci_go_spans(void **state)
{
	const char *go = "go ponder wtime 60000 btime  47500 winc 10 "
			 "movetime 2000";
	const char *bad = "go wtime x btime 5 btime 7";
	struct fb_uci_go g;

	(void)state;
	fb_uci_parse_go(go, strlen(go), &g);
	span_equal(go, g.ponder_word, "ponder");
	span_equal(go, g.wtime_value, "60000");
	span_equal(go, g.btime_value, "47500");
	span_equal(go, g.movetime_value, "2000");
	fb_uci_parse_go(bad, strlen(bad), &g);
	span_equal(bad, g.ponder_word, NULL);
	span_equal(bad, g.wtime_value, NULL);
	assert_int_equal(g.btime, 7);
	assert_int_equal(g.btime_value.off, strlen(bad) - 1);
	span_equal(bad, g.movetime_value, NULL);
}

static struct fb_span
whole(const char *s)
{
	return (struct fb_span){0, strlen(s)};
}

static void
test_codec_cecp_option_bare_moves_and_skips(void **state)
{
	const char *opt = "option Hash Size = 64 ";
	const char *btn = "option Clear Hash";
	const char *empty = "option Book File=";
	const char *moves[] = {"e2e4",  "e7e8q", "P@e4",  "O-O",
			       "o-o-o", "0-0",   "l10l9", "a1b1=Q"};
	const char *not_moves[] = {"new", "e2",   "m2m4",    "ee2e4",
				   "O",   "2e4x", "a1a2a3a4"};
	struct fb_cecp_command c;
	struct fb_cecp_option o;

	(void)state;
	/* what a reader of commands only may skip unparsed */
	assert_true(fb_cecp_engine_number_led("  12 25 340 1234 e2e4", 21));
	assert_true(fb_cecp_engine_number_led("-3 0 1 2 e2e4", 13));
	assert_true(fb_cecp_engine_number_led("1-0 {White mates}", 17));
	assert_false(fb_cecp_engine_number_led("move e2e4", 9));
	assert_false(
		fb_cecp_engine_number_led("White (1) : feature done=0", 26));
	assert_false(fb_cecp_engine_number_led("  ", 2));

	fb_cecp_parse_gui(opt, strlen(opt), &c);
	fb_cecp_parse_option(opt, c.arg, &o);
	span_equal(opt, o.name, "Hash Size");
	span_equal(opt, o.value, "64");
	assert_true(o.has_value);
	fb_cecp_parse_gui(btn, strlen(btn), &c);
	fb_cecp_parse_option(btn, c.arg, &o);
	span_equal(btn, o.name, "Clear Hash");
	assert_false(o.has_value);
	fb_cecp_parse_gui(empty, strlen(empty), &c);
	fb_cecp_parse_option(empty, c.arg, &o);
	span_equal(empty, o.name, "Book File");
	span_equal(empty, o.value, NULL);
	assert_true(o.has_value);
	for (size_t i = 0; i < N_ELEMS(moves); i++)
		if (!fb_cecp_looks_like_move(moves[i], whole(moves[i])))
			fail_msg("'%s' should read as a move", moves[i]);
	for (size_t i = 0; i < N_ELEMS(not_moves); i++)
		if (fb_cecp_looks_like_move(not_moves[i], whole(not_moves[i])))
			fail_msg("'%s' is no move", not_moves[i]);
}

/* `feature option="NAME -TYPE ARGS"` (the value as fb_cecp_next_feature
 * gives it): the name ends at the first " -", so a name may hold blanks
 * and a '-' inside a word (Sjaak II, Fairy-Max, GNU Chess). */
static void
test_codec_cecp_option_feature(void **state)
{
	static const struct {
		const char *value;
		bool ok;
		const char *name, *type, *args;
	} cases[] = {
		{"Hash -spin 64 1 1024", true, "Hash", "spin", "64 1 1024"},
		{"Clear Hash -button", true, "Clear Hash", "button", NULL},
		{"Resign-threshold -spin  -800 -3000 0", true,
		 "Resign-threshold", "spin", "-800 -3000 0"},
		{"Style -combo Solid /// *Normal /// Risky", true, "Style",
		 "combo", "Solid /// *Normal /// Risky"},
		{"Book File -file  ", true, "Book File", "file", NULL},
		{"Broken -", true, "Broken", NULL, NULL},
		{"NoType", false, "NoType", NULL, NULL},
		{"", false, NULL, NULL, NULL},
	};
	struct fb_cecp_option_feature o;

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		const char *v = cases[i].value;
		bool ok = fb_cecp_parse_option_feature(v, whole(v), &o);
		if (ok != cases[i].ok)
			fail_msg("'%s': expected %d", v, cases[i].ok);
		span_equal(v, o.name, cases[i].name);
		span_equal(v, o.type, cases[i].type);
		span_equal(v, o.args, cases[i].args);
	}
}

/* Every CECP command the codec knows is found by its whole name, each to a
 * kind of its own, and nothing else: not a prefix, not a longer word. */
static void
test_codec_cecp_gui_every_word(void **state)
{
	static const char *const words[] = {
		"xboard",    "protover", "accepted", "rejected", "new",
		"variant",   "quit",     "random",   "force",    "go",
		"playother", "white",    "black",    "level",    "st",
		"sd",        "nps",      "time",     "otim",     "usermove",
		"?",         "ping",     "draw",     "result",   "setboard",
		"edit",      "hint",     "bk",       "undo",     "remove",
		"hard",      "easy",     "post",     "nopost",   "analyze",
		"exit",      "name",     "rating",   "ics",      "computer",
		"pause",     "resume",   "memory",   "cores",    "egtpath",
		"option",    "."};
	static const char *const others[] = {"g",    "goo", "xboard2", "s",
					     "stt",  "a",   "zz",      "!",
					     "e2e4", ".."};
	bool seen[FB_CECP_G_DOT + 1] = {false};
	struct fb_cecp_command c;

	(void)state;
	assert_int_equal(sizeof words / sizeof words[0], FB_CECP_G_DOT);
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		char line[64];
		int n = snprintf(line, sizeof line, "%s 1", words[i]);
		fb_cecp_parse_gui(line, (size_t)n, &c);
		assert_int_not_equal(c.kind, FB_CECP_G_OTHER);
		assert_false(seen[c.kind]);
		seen[c.kind] = true;
	}
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		fb_cecp_parse_gui(others[i], strlen(others[i]), &c);
		assert_int_equal(c.kind, FB_CECP_G_OTHER);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codec_uci_engine_kinds),
		cmocka_unit_test(test_codec_cecp_gui_every_word),
		cmocka_unit_test(test_codec_uci_option_spin_and_combo),
		cmocka_unit_test(test_codec_uci_info_fields_and_moves),
		cmocka_unit_test(test_codec_uci_info_empty_pv),
		cmocka_unit_test(test_codec_uci_info_bad_fields),
		cmocka_unit_test(test_codec_uci_option_all_vars),
		cmocka_unit_test(test_codec_uci_bestmove_and_id),
		cmocka_unit_test(test_codec_uci_gui_commands),
		cmocka_unit_test(test_codec_cecp_engine_forms),
		cmocka_unit_test(test_codec_cecp_thinking_with_extras),
		cmocka_unit_test(test_codec_cecp_features),
		cmocka_unit_test(test_codec_cecp_gnu_chess_and_rejections),
		cmocka_unit_test(test_codec_cecp_gui_commands),
		cmocka_unit_test(test_codec_uci_go_spans),
		cmocka_unit_test(test_codec_cecp_option_bare_moves_and_skips),
		cmocka_unit_test(test_codec_cecp_option_feature),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
