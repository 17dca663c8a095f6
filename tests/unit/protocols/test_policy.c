/* SPDX-License-Identifier: MIT */
/*
 * The session's policy record (protocols/policy.c): the castling notation
 * toward each side, the engine's FEN style, standard-notation engines,
 * re-anchoring and the variants an engine can play, for each of the four
 * pairs. Expected values follow doc/protocols.md ("Castling moves: what
 * auto means", "Chess960 mode and re-anchoring") and doc/dialects.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fenbridge/fen.h"
#include "policy.h"
#include "quirk.h"

static const struct fb_filter_options defaults = {
	.engine_fen = FB_XFEN,
	.engine_fen_auto = true,
	.gui_fen = FB_SHREDDER,
};

static struct fb_game
position(const char *fen)
{
	struct fb_fen f;

	assert_int_equal(fb_fen_parse(&f, fen, strlen(fen), NULL), 0);
	return f.pos;
}

static struct fb_move
move(const struct fb_game *g, const char *m)
{
	struct fb_move mv;

	assert_int_equal(fb_game_parse_move(g, m, strlen(m), &mv), 0);
	return mv;
}

static const struct fb_variant *
variant(const char *name)
{
	return fb_variant_find(name, strlen(name));
}

static void
test_policy_uci_pair_chess960_support(void **state)
{
	struct fb_policy p;

	(void)state;
	fb_policy_init(&p, &defaults, &fb_protocol_uci, &fb_protocol_uci);
	/* before uciok nothing is known: not standard */
	assert_false(fb_policy_engine_standard(&p));
	assert_int_equal(fb_policy_gui_castling(&p), FB_CASTLE_KING);
	p.gui_960 = true;
	assert_int_equal(fb_policy_gui_castling(&p), FB_CASTLE_KXR);
	/* Stockfish lists the option and the GUI's setoption reached it */
	p.chess960 = FB_SUPPORT_LISTED;
	assert_int_equal(fb_policy_engine_castling(&p), FB_CASTLE_KING);
	assert_true(fb_policy_engine_standard(&p));
	p.engine_960 = true;
	assert_int_equal(fb_policy_engine_castling(&p), FB_CASTLE_KXR);
	assert_false(fb_policy_engine_standard(&p));
	/* Toga II has no option: standard notation, whatever it was sent */
	p.chess960 = FB_SUPPORT_ABSENT;
	assert_true(fb_policy_engine_standard(&p));
	assert_int_equal(fb_policy_engine_castling(&p), FB_CASTLE_KING);
	/* a random UCI_Variant the engine lists is Chess960 mode */
	p.engine_variant = variant("chess960");
	assert_true(fb_policy_engine_960(&p));
	/* an explicit option wins */
	{
		struct fb_filter_options o = defaults;
		o.engine_castling = FB_CASTLE_OO;
		o.gui_castling = FB_CASTLE_KING;
		p.opt = &o;
		assert_int_equal(fb_policy_engine_castling(&p), FB_CASTLE_OO);
		assert_int_equal(fb_policy_gui_castling(&p), FB_CASTLE_KING);
	}
}

static void
test_policy_xboard_notations(void **state)
{
	struct fb_policy p;

	(void)state;
	fb_policy_init(&p, &defaults, &fb_protocol_xboard, &fb_protocol_xboard);
	assert_int_equal(fb_policy_gui_castling(&p), FB_CASTLE_KING);
	p.variant = variant("fischerandom");
	assert_int_equal(fb_policy_gui_castling(&p), FB_CASTLE_OO);
	/* as the GUI wrote it: XBoard writes what its engine asked for */
	assert_int_equal(fb_policy_engine_castling(&p), FB_CASTLE_AUTO);
	p.oocastle_off = true;
	assert_int_equal(fb_policy_gui_castling(&p), FB_CASTLE_KXR);
	assert_int_equal(fb_policy_engine_castling(&p), FB_CASTLE_KXR);
	p.oocastle_off = false;
	p.quirk = fb_quirk_find("Fairy-Stockfish", 15, "xboard");
	assert_non_null(p.quirk);
	assert_int_equal(fb_policy_engine_castling(&p), FB_CASTLE_KXR);
	p.quirk = NULL;
	p.emulated = true; /* GNU Chess: variants="normal" */
	assert_int_equal(fb_policy_engine_castling(&p), FB_CASTLE_KING);
	assert_true(fb_policy_engine_standard(&p));

	/* UCI GUI, XBoard engine: fenbridge writes the engine's moves */
	fb_policy_init(&p, &defaults, &fb_protocol_uci, &fb_protocol_xboard);
	assert_int_equal(fb_policy_engine_castling(&p), FB_CASTLE_KING);
	p.gui_960 = true;
	assert_int_equal(fb_policy_game_variant(&p), variant("fischerandom"));
	assert_int_equal(fb_policy_engine_castling(&p), FB_CASTLE_OO);
	assert_int_equal(fb_policy_gui_castling(&p), FB_CASTLE_KXR);
	p.oocastle_off = true;
	assert_int_equal(fb_policy_engine_castling(&p), FB_CASTLE_KXR);

	/* XBoard GUI, UCI engine: the GUI never saw an oocastle=0 */
	fb_policy_init(&p, &defaults, &fb_protocol_xboard, &fb_protocol_uci);
	p.variant = variant("caparandom");
	p.oocastle_off = true;
	assert_int_equal(fb_policy_gui_castling(&p), FB_CASTLE_OO);
}

static void
test_policy_reanchor_and_fen(void **state)
{
	/* Chess960: king c1, rooks b1 and f1 (Shredder FBfb) */
	struct fb_game g = position("1rk2r2/ppp1qppp/2nbbn2/3pp3/3PP3/2NBBN2/"
				    "PPP1QPPP/1RK2R2 w FBfb - 4 9");
	struct fb_game std = position("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/"
				      "3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5");
	struct fb_move oo = move(&g, "O-O"), soo = move(&std, "e1g1");
	struct fb_policy p;
	char fen[FB_GAME_FEN_MAX];
	unsigned dropped;
	int n;

	(void)state;
	fb_policy_init(&p, &defaults, &fb_protocol_uci, &fb_protocol_uci);
	p.chess960 = FB_SUPPORT_ABSENT; /* Toga II */
	assert_true(fb_policy_must_reanchor(&p, &g, &oo));
	assert_false(fb_policy_must_reanchor(&p, &std, &soo));
	n = fb_policy_anchor_fen(&p, &g, fen, sizeof fen, &dropped);
	assert_true(n > 0);
	/* every right of this position needs Chess960 notation */
	assert_int_equal(dropped, 4);
	assert_memory_equal(fen,
			    "1rk2r2/ppp1qppp/2nbbn2/3pp3/3PP3/2NBBN2/"
			    "PPP1QPPP/1RK2R2 w - - 4 9",
			    (size_t)n);

	/* in Chess960 mode nothing is re-anchored or dropped */
	p.chess960 = FB_SUPPORT_LISTED;
	p.engine_960 = true;
	assert_false(fb_policy_must_reanchor(&p, &g, &oo));
	n = fb_policy_anchor_fen(&p, &g, fen, sizeof fen, &dropped);
	assert_int_equal(dropped, 0);
	assert_true(n > 10);
	assert_memory_equal(fen + n - 10, "KQkq - 4 9", 10);

	/* a forced king notation cannot write a king that stays on c1 */
	{
		struct fb_filter_options o = defaults;
		struct fb_move ooo = move(&g, "O-O-O");
		o.engine_castling = FB_CASTLE_KING;
		p.opt = &o;
		assert_true(fb_policy_must_reanchor(&p, &g, &ooo));
		p.opt = &defaults;
	}

	/* a position given otherwise (CECP edit) loses the same rights:
	 * GNU Chess (variants="normal") playing Chess960 as normal chess */
	{
		struct fb_game e = g;
		fb_policy_init(&p, &defaults, &fb_protocol_uci,
			       &fb_protocol_xboard);
		assert_int_equal(fb_policy_anchor_game(&p, &e), 0);
		assert_memory_equal(e.castle, g.castle, sizeof e.castle);
		p.emulated = true;
		assert_int_equal(fb_policy_anchor_game(&p, &e), 4);
		for (int c = 0; c < 2; c++)
			for (int w = 0; w < 2; w++)
				assert_int_equal(e.castle[c][w], -1);
		fb_policy_init(&p, &defaults, &fb_protocol_uci,
			       &fb_protocol_uci);
		p.chess960 = FB_SUPPORT_LISTED;
		p.engine_960 = true;
	}

	/* Glaurung reads K/Q as the corner rooks: Shredder-FEN for it */
	p.quirk = fb_quirk_find("Glaurung 2.2", 12, "uci");
	assert_non_null(p.quirk);
	assert_int_equal(fb_policy_engine_style(&p).notation, FB_SHREDDER);
	{
		struct fb_filter_options o = defaults;
		o.engine_fen_auto = false;
		p.opt = &o;
		assert_int_equal(fb_policy_engine_style(&p).notation, FB_XFEN);
		p.opt = &defaults;
	}
}

static void
test_policy_variants_and_play(void **state)
{
	const char *vars =
		"var chess var chess960 var capablanca var crazyhouse";
	struct fb_span spans[4] = {{4, 5}, {14, 8}, {27, 10}, {42, 10}};
	const char *csv = "normal,capablanca,gothic,shogi";
	struct fb_policy p;

	(void)state;
	/* Fairy-Stockfish over UCI */
	fb_policy_init(&p, &defaults, &fb_protocol_xboard, &fb_protocol_uci);
	fb_policy_read_variants(&p.variants, vars, spans, 4);
	p.chess960 = FB_SUPPORT_LISTED;
	assert_string_equal(fb_policy_engine_name(&p, variant("fischerandom")),
			    "chess960");
	assert_int_equal(fb_policy_plays(&p, variant("fischerandom")),
			 FB_PLAY_LISTED);
	/* caparandom: capablanca with UCI_Chess960 */
	assert_int_equal(fb_policy_plays(&p, variant("caparandom")),
			 FB_PLAY_CHESS960);
	assert_int_equal(fb_policy_plays(&p, variant("gothic")), FB_PLAY_NO);

	/* Toga II: no UCI_Variant, no UCI_Chess960 */
	fb_policy_init(&p, &defaults, &fb_protocol_xboard, &fb_protocol_uci);
	p.chess960 = FB_SUPPORT_ABSENT;
	assert_int_equal(fb_policy_plays(&p, fb_variant_normal),
			 FB_PLAY_LISTED);
	assert_int_equal(fb_policy_plays(&p, variant("fischerandom")),
			 FB_PLAY_EMULATED);
	assert_int_equal(fb_policy_plays(&p, variant("caparandom")),
			 FB_PLAY_NO);

	/* Fairy-Max over CECP: normal, capablanca, gothic */
	fb_policy_init(&p, &defaults, &fb_protocol_uci, &fb_protocol_xboard);
	assert_int_equal(fb_policy_plays(&p, variant("capablanca")),
			 FB_PLAY_NO); /* no list yet: normal only */
	fb_policy_read_variants_csv(&p.variants, csv, strlen(csv));
	assert_true(fb_policy_engine_lists(&p, variant("gothic")));
	assert_false(fb_policy_engine_lists(&p, variant("fischerandom")));
	assert_int_equal(fb_policy_plays(&p, variant("caparandom")),
			 FB_PLAY_EMULATED);
	assert_int_equal(fb_policy_plays(&p, variant("fischerandom")),
			 FB_PLAY_EMULATED);
	assert_int_equal(fb_policy_plays(&p, variant("janus")), FB_PLAY_NO);
	assert_null(fb_policy_engine_name(&p, variant("janus")));

	/* One at a time (a UCI_Variant longer than an array): the first
	 * spelling of a variant counts, unknown names are ignored. */
	fb_policy_init(&p, &defaults, &fb_protocol_uci, &fb_protocol_uci);
	fb_policy_read_variants(&p.variants, "", NULL, 0);
	assert_true(p.variants.given);
	assert_false(fb_policy_engine_lists(&p, variant("fischerandom")));
	fb_policy_add_variant(&p.variants, "crazyhouse", 10);
	fb_policy_add_variant(&p.variants, "fischerandom", 12);
	fb_policy_add_variant(&p.variants, "chess960", 8);
	assert_string_equal(fb_policy_engine_name(&p, variant("fischerandom")),
			    "fischerandom");
	assert_null(fb_policy_engine_name(&p, variant("capablanca")));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy_uci_pair_chess960_support),
		cmocka_unit_test(test_policy_xboard_notations),
		cmocka_unit_test(test_policy_reanchor_and_fen),
		cmocka_unit_test(test_policy_variants_and_play),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
