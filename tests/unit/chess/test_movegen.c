/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of legal moves and SAN (src/chess/movegen.c): perft counts of
 * published positions (the standard start, the classic suite with
 * Kiwipete, Chess960 positions of the chessprogramming wiki list as
 * Ethereal's fischer.epd has them, 10x8 positions counted by
 * fairy-stockfish); castling by the Chess960 rule in its corner cases;
 * check, mate and stalemate; SAN written and read (disambiguation, check
 * signs, promotions, the tolerant forms); every legal move of positions
 * from seeded random games printed in SAN and read back as itself; and
 * garbage that must be refused without a crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fenbridge/error.h"
#include "fenbridge/fen.h"
#include "fenbridge/movegen.h"
#include "fenbridge/variant.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static struct fb_game
game(const char *fen)
{
	struct fb_fen parsed;

	assert_int_equal(fb_fen_parse(&parsed, fen, strlen(fen), NULL), 0);
	return parsed.pos;
}

static unsigned long
perft(const struct fb_game *g, int depth)
{
	struct fb_move moves[FB_MOVES_MAX];
	size_t n = fb_moves_legal(g, moves);
	unsigned long total = 0;

	if (depth == 1)
		return n;
	for (size_t i = 0; i < n; i++) {
		struct fb_game next = *g;
		fb_game_play(&next, &moves[i]);
		total += perft(&next, depth - 1);
	}
	return total;
}

struct perft_case {
	const char *fen;
	unsigned long nodes[4]; /* depth 1..4; 0: not checked */
	const char *variant;    /* its rules (fb_variant_apply), or NULL */
};

static const struct perft_case perft_cases[] = {
	/* The standard start and the classic suite (chessprogramming wiki,
	 * "Perft Results"): Kiwipete, en passant with pins, promotions. */
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	 {20, 400, 8902, 197281},
	 NULL},
	{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 "
	 "1",
	 {48, 2039, 97862, 0},
	 NULL},
	{"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	 {14, 191, 2812, 43238},
	 NULL},
	{"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	 {6, 264, 9467, 0},
	 NULL},
	{"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	 {44, 1486, 62379, 0},
	 NULL},
	{"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - "
	 "0 10",
	 {46, 2079, 89890, 0},
	 NULL},
	/* Chess960 (chessprogramming wiki "Chess960 Perft Results", as in
	 * Ethereal's src/perft/fischer.epd). */
	{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
	 {21, 528, 12189, 326672},
	 NULL},
	{"2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
	 {21, 807, 18002, 0},
	 NULL},
	{"b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
	 {20, 479, 10471, 0},
	 NULL},
	{"qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
	 {22, 593, 13440, 0},
	 NULL},
	{"qnr1bkrb/pppp2pp/3np3/5p2/8/P2P2P1/NPP1PP1P/QN1RBKRB w GDg - 3 9",
	 {33, 823, 26895, 0},
	 NULL},
	{"bnqnrbkr/1pp2pp1/p7/3pP2p/4P1P1/8/PPPP3P/BNQNRBKR w HEhe d6 0 9",
	 {31, 984, 28677, 0},
	 NULL},
	{"nnrqbkrb/pppp1pp1/7p/4p3/6P1/2N2B2/PPPPPP1P/NR1QBKR1 w Ggc - 2 9",
	 {29, 658, 19364, 0},
	 NULL},
	{"nb1r1nkr/ppp1ppp1/2bp4/7p/3P2qP/P6R/1PP1PPP1/NBQRBNK1 w Dhd - 1 9",
	 {38, 1691, 60060, 0},
	 NULL},
	{"nnrkrbbq/pppp2pp/8/4pp2/4P3/P7/1PPPBPPP/NNKRR1BQ w c - 0 9",
	 {25, 792, 19883, 0},
	 NULL},
	{"bnnbrkr1/ppp2p1p/5q2/3pp1p1/4P3/1N4P1/PPPPRP1P/BN1B1KRQ w Gge - 0 9",
	 {26, 1036, 27228, 0},
	 NULL},
	/* 10x8, counted by fairy-stockfish 11.1 (capablanca, caparandom). */
	{"rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 "
	 "1",
	 {28, 784, 25228, 0},
	 NULL},
	{"rbqnkcnbar/pppppppppp/10/10/10/10/PPPPPPPPPP/RBQNKCNBAR w KQkq - 0 "
	 "1",
	 {0, 0, 24904, 0},
	 NULL},
	/* Janus (king to i or b, rook to h or c; promotion to J) and Embassy
	 * (king to h or b, rook to g or c), counted by fairy-stockfish 11.1:
	 *   printf 'uci\nsetoption name UCI_Variant value janus\n
	 *   position fen FEN\ngo perft N\n' | /usr/games/fairy-stockfish
	 * (depth 4 agrees too; left out for the valgrind run). */
	{"rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 "
	 "1",
	 {28, 782, 24747, 0},
	 "janus"},
	{"r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1",
	 {31, 961, 29272, 0},
	 "janus"},
	{"r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1",
	 {28, 673, 18296, 0},
	 "janus"},
	{"4k5/P9/10/10/10/10/9p/4K5 w - - 0 1", {10, 86, 977, 11069}, "janus"},
	{"rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w KQkq - 0 "
	 "1",
	 {28, 784, 25281, 0},
	 "embassy"},
	{"r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1",
	 {31, 961, 29210, 0},
	 "embassy"},
	{"r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1",
	 {28, 674, 18317, 0},
	 "embassy"},
	{"4k5/P9/10/10/10/10/9p/4K5 w - - 0 1",
	 {11, 97, 1142, 13493},
	 "embassy"},
};

/* The game of a perft case: its FEN played by its variant's rules. */
static struct fb_game
case_game(const struct perft_case *c)
{
	struct fb_game g = game(c->fen);

	if (c->variant != NULL) {
		const struct fb_variant *v =
			fb_variant_find(c->variant, strlen(c->variant));
		assert_non_null(v);
		fb_variant_apply(v, &g);
	}
	return g;
}

/* Under memcheck (the valgrind setup sets FB_TEST_SCALE below 1) the
 * counts are smaller: perft to depth 3 instead of 4, and 8 plies instead
 * of 40 of each random game whose every square pair is asked. Every path
 * is still taken; the native and ASan builds run the full counts. */
static bool
reduced(void)
{
	const char *scale = getenv("FB_TEST_SCALE");

	return scale != NULL && strtod(scale, NULL) < 1.0;
}

static void
test_movegen_perft(void **state)
{
	int max = reduced() ? 3 : 4;

	(void)state;
	for (size_t i = 0; i < N_ELEMS(perft_cases); i++) {
		struct fb_game g = case_game(&perft_cases[i]);
		for (int d = 1; d <= max; d++) {
			unsigned long want = perft_cases[i].nodes[d - 1];
			unsigned long got;
			if (want == 0)
				continue;
			got = perft(&g, d);
			if (got != want)
				fail_msg("perft %d of %s: %lu, want %lu", d,
					 perft_cases[i].fen, got, want);
		}
	}
}

static int
compare_words(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The legal moves of fen in coordinates (castling as king takes rook),
 * sorted and joined by spaces, for comparing whole move lists. */
static void
move_list(const char *fen, char *out, size_t cap)
{
	struct fb_game g = game(fen);
	struct fb_move moves[FB_MOVES_MAX];
	size_t n = fb_moves_legal(&g, moves), len = 0;
	char words[FB_MOVES_MAX][8];

	for (size_t i = 0; i < n; i++)
		assert_true(fb_moves_print_coord(&g, &moves[i], FB_CASTLE_KXR,
						 words[i], 8) > 0);
	qsort(words, n, sizeof words[0], compare_words);
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		len += (size_t)snprintf(out + len, cap - len, "%s%s",
					i ? " " : "", words[i]);
		assert_true(len < cap);
	}
}

/* The castling moves of a position: "O-O" / "O-O-O" as legal or not. */
static void
assert_castles(const char *fen, bool hside, bool aside)
{
	struct fb_game g = game(fen);
	struct fb_move m;

	if ((fb_moves_parse(&g, "O-O", 3, &m) == 0) != hside)
		fail_msg("O-O in %s: want %s", fen,
			 hside ? "legal" : "illegal");
	if ((fb_moves_parse(&g, "O-O-O", 5, &m) == 0) != aside)
		fail_msg("O-O-O in %s: want %s", fen,
			 aside ? "legal" : "illegal");
}

static void
test_movegen_castling_chess960_rule(void **state)
{
	(void)state;
	/* The standard case, and an attacked passing square. */
	assert_castles("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", true, true);
	assert_castles("r3k2r/8/8/8/8/5r2/8/R3K2R w KQkq - 0 1", false, true);
	/* b1 attacked: the king does not cross it, the rook does. */
	assert_castles("r3k2r/8/8/8/8/1r6/8/R3K2R w KQkq - 0 1", true, true);
	/* In check: no castling. */
	assert_castles("r3k2r/8/8/8/8/4r3/8/R3K2R w KQkq - 0 1", false, false);
	/* King on g1 with the rook on h1: the king stays, the rook goes to
	 * f1, which must be empty. */
	assert_castles("4k3/8/8/8/8/8/8/R5KR w HA - 0 1", true, true);
	assert_castles("4k3/8/8/8/8/8/8/R4NKR w HA - 0 1", false, false);
	/* Rook on the king's target square (f1 king, g1 rook). */
	assert_castles("4k3/8/8/8/8/8/8/R4KR1 w GA - 0 1", true, true);
	/* King b1, rook a1: the rook jumps to d1 over the king's c1; a piece
	 * on c1 blocks both wings. */
	assert_castles("4k3/8/8/8/8/8/8/RK5R w HA - 0 1", true, true);
	assert_castles("4k3/8/8/8/8/8/8/RKB4R w HA - 0 1", false, false);
	/* The castling rook shields the king's square: rook b1, king c1,
	 * queen a1; castling would uncover it. */
	assert_castles("4k3/8/8/8/8/8/8/qRK4R w HB - 0 1", true, false);
	/* The king's destination attacked through the rook's start. */
	assert_castles("4k3/8/8/8/8/8/8/1RK3Rr w GB - 0 1", false, true);
	/* 10x8: king f1 to i1 (rook j1 to h1) and to c1 (rook a1 to d1). */
	assert_castles("r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1", true,
		       true);
	assert_castles("r4k3r/10/10/10/10/10/10/R4K2NR w KQkq - 0 1", false,
		       true);
}

static void
test_movegen_move_lists(void **state)
{
	char list[4096];

	(void)state;
	/* Promotions to four pieces on 8x8, six on 10x8. */
	move_list("4k3/1P6/8/8/8/8/8/K7 w - - 0 1", list, sizeof list);
	assert_string_equal(list, "a1a2 a1b1 a1b2 b7b8b b7b8n b7b8q b7b8r");
	move_list("4k5/1P8/10/10/10/10/10/K9 w - - 0 1", list, sizeof list);
	assert_string_equal(list, "a1a2 a1b1 a1b2 b7b8a b7b8b b7b8c b7b8n "
				  "b7b8q b7b8r");
	/* En passant, and the pin along the rank that forbids it. */
	move_list("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", list, sizeof list);
	assert_string_equal(list, "e1d1 e1d2 e1e2 e1f1 e1f2 e5d6 e5e6");
	move_list("4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 2", list, sizeof list);
	assert_string_equal(list, "a5a4 a5a6 a5b4 a5b5 a5b6 e5e6");
	/* An e.p. file with no pawn that just moved is no capture. */
	move_list("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 2", list, sizeof list);
	assert_string_equal(list, "e1d1 e1d2 e1e2 e1f1 e1f2 e5e6");
	/* An e.p. file is no capture for a pawn on the 7th rank next to a
	 * pawn of the other side (found by perft_engines.py: e7xd6 after
	 * d2d4 with a white pawn on d7). */
	move_list("7k/3Pp3/8/8/3P4/8/8/4K3 b - d3 0 1", list, sizeof list);
	assert_string_equal(list, "e7e5 e7e6 h8g7 h8g8 h8h7");
	/* The archbishop and chancellor leap like knights. */
	move_list("k9/10/10/10/10/10/10/A8K w - - 0 1", list, sizeof list);
	assert_string_equal(list, "a1b2 a1b3 a1c2 a1c3 a1d4 a1e5 a1f6 a1g7 "
				  "a1h8 j1i1 j1i2 j1j2");
}

static void
test_movegen_check_mate_stalemate(void **state)
{
	struct fb_game g;

	(void)state;
	g = game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
	assert_false(fb_moves_in_check(&g));
	assert_int_equal(fb_moves_end(&g), FB_END_NONE);
	/* Fool's mate. */
	g = game("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 "
		 "3");
	assert_true(fb_moves_in_check(&g));
	assert_int_equal(fb_moves_end(&g), FB_END_CHECKMATE);
	g = game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
	assert_false(fb_moves_in_check(&g));
	assert_int_equal(fb_moves_end(&g), FB_END_STALEMATE);
	/* Mate by a chancellor's knight leap on 10x8. */
	g = game("8rk/7Cpp/10/10/10/10/10/K9 b - - 0 1");
	assert_true(fb_moves_in_check(&g));
	assert_int_equal(fb_moves_end(&g), FB_END_CHECKMATE);
}

struct san_case {
	const char *fen;
	const char *text;  /* input */
	const char *coord; /* the move read, KxR castling; NULL: refused */
	const char *san;   /* how it prints, when read */
};

#define START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
/* Knights on b1 and f1 both reach d2; rooks a1 and a5 both reach a3. */
#define AMBI "4k3/8/8/R7/8/8/8/RN2KN2 w - - 0 1"
/* Queens on a1, a3 and c1 all reach b2. */
#define QUEENS "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1"

static const struct san_case san_cases[] = {
	{START, "e4", "e2e4", "e4"},
	{START, "Nf3", "g1f3", "Nf3"},
	{START, "Ng1f3", "g1f3", "Nf3"},
	{START, "Ng1-f3", "g1f3", "Nf3"},
	{START, "e2-e4", "e2e4", "e4"},
	{START, "g1-f3", "g1f3", "Nf3"},
	{START, "b1xc3", "b1c3", "Nc3"},
	{START, "g1-g3", NULL, NULL},
	{START, "Bg1-f3", NULL, NULL},
	{START, "e2e4", "e2e4", "e4"},
	{START, "Nf3!?", "g1f3", "Nf3"},
	{START, "Nf3+", "g1f3", "Nf3"},
	{START, "e5", NULL, NULL},
	{START, "Ke2", NULL, NULL},
	{START, "Nd2", NULL, NULL},
	{START, "O-O", NULL, NULL},
	{START, "", NULL, NULL},
	{START, "x", NULL, NULL},
	{START, "Nxf3", "g1f3", "Nf3"},
	{START, "nf3", NULL, NULL},
	{AMBI, "Nd2", NULL, NULL},
	{AMBI, "Nbd2", "b1d2", "Nbd2"},
	{AMBI, "Nfd2", "f1d2", "Nfd2"},
	{AMBI, "Ra3", NULL, NULL},
	{AMBI, "R1a3", "a1a3", "R1a3"},
	{AMBI, "R5a3", "a5a3", "R5a3"},
	{AMBI, "Raa3", NULL, NULL},
	{QUEENS, "Qb2", NULL, NULL},
	{QUEENS, "Qa1b2", "a1b2", "Qa1b2"},
	{QUEENS, "Qab2", NULL, NULL},
	{QUEENS, "Q3b2", "a3b2", "Q3b2"},
	{QUEENS, "Qcb2", "c1b2", "Qcb2"},
	{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6", "e5d6", "exd6"},
	{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6e.p.", "e5d6", "exd6"},
	{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6 e.p.", "e5d6", "exd6"},
	{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "ed6", "e5d6", "exd6"},
	{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "d6", NULL, NULL},
	{"3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c8=Q+", "c7c8q", "c8=Q"},
	{"3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c8Q", "c7c8q", "c8=Q"},
	{"3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c8(Q)", "c7c8q", "c8=Q"},
	{"3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c8=N", "c7c8n", "c8=N"},
	{"3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "cxd8=R+", "c7d8r", "cxd8=R+"},
	{"3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7d8r", "c7d8r", "cxd8=R+"},
	{"3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c8", NULL, NULL},
	{"3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c8=K", NULL, NULL},
	{"3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c8=A", NULL, NULL},
	/* Castling: O-O, 0-0, king takes rook, king's two-square step. */
	{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "e1h1", "O-O"},
	{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0", "e1a1", "O-O-O"},
	{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "e1h1", "O-O"},
	{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", "e1h1", "O-O"},
	{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O+", "e1h1", "O-O"},
	{"4k3/8/8/8/8/8/8/R5KR w HA - 0 1", "O-O", "g1h1", "O-O"},
	{"2r1k3/8/8/8/8/8/8/R4K1R w HA - 0 1", "O-O-O", NULL, NULL},
	{"3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O-O+", "e1a1", "O-O-O+"},
	/* Mate. */
	{"6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", "Ra8", "a1a8", "Ra8#"},
	{"6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", "O-O-O", "e1a1", "O-O-O"},
	/* 10x8: archbishop and chancellor, disambiguated, promotion. */
	{"4k5/1P8/10/10/10/10/10/A1C1K5 w - - 0 1", "Ab2", "a1b2", "Ab2"},
	{"4k5/1P8/10/10/10/10/10/A1C1K5 w - - 0 1", "Cc3", "c1c3", "Cc3"},
	{"4k5/1P8/10/10/10/10/10/A1C1K5 w - - 0 1", "Cb3", "c1b3", "Cb3"},
	{"4k5/1P8/10/10/10/10/10/A1C1K5 w - - 0 1", "b8=C", "b7b8c", "b8=C+"},
	{"4k5/1P8/10/10/10/10/10/A1C1K5 w - - 0 1", "b8A", "b7b8a", "b8=A"},
	{"4k5/1P8/10/10/10/10/10/A1C1K5 w - - 0 1", "Ci1", NULL, NULL},
	{"4k5/10/10/10/10/10/10/C1C1K5 w - - 0 1", "Cb3", NULL, NULL},
	{"4k5/10/10/10/10/10/10/C1C1K5 w - - 0 1", "Cab3", "a1b3", "Cab3"},
	{"r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1", "O-O", "f1j1", "O-O"},
	{"r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1", "f1i1", "f1j1", "O-O"},
	{"r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1", "Rj8+", "j1j8", "Rxj8+"},
	{"r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1", "Rxj8+", "j1j8",
	 "Rxj8+"},
};

static void
test_movegen_san(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_ELEMS(san_cases); i++) {
		const struct san_case *c = &san_cases[i];
		struct fb_game g = game(c->fen);
		struct fb_move m;
		char coord[8], san[16];
		int rc = fb_moves_parse(&g, c->text, strlen(c->text), &m);
		if (c->coord == NULL) {
			if (rc != FB_EINVAL)
				fail_msg("%s in %s: read, want refused",
					 c->text, c->fen);
			continue;
		}
		if (rc != 0)
			fail_msg("%s in %s: refused", c->text, c->fen);
		assert_true(fb_moves_print_coord(&g, &m, FB_CASTLE_KXR, coord,
						 sizeof coord) > 0);
		assert_true(fb_moves_print_san(&g, &m, san, sizeof san) > 0);
		if (strcmp(coord, c->coord) != 0 || strcmp(san, c->san) != 0)
			fail_msg("%s in %s: %s %s, want %s %s", c->text, c->fen,
				 coord, san, c->coord, c->san);
	}
}

static void
test_movegen_print_limits(void **state)
{
	struct fb_game g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
	struct fb_move m;
	char out[16];

	(void)state;
	assert_int_equal(fb_moves_parse(&g, "O-O", 3, &m), 0);
	assert_int_equal(fb_moves_print_san(&g, &m, out, 4), 3);
	assert_int_equal(fb_moves_print_san(&g, &m, out, 3), FB_ENOSPC);
	assert_int_equal(fb_moves_print_coord(&g, &m, FB_CASTLE_KING, out, 5),
			 4);
	assert_string_equal(out, "e1g1");
	assert_int_equal(fb_moves_print_coord(&g, &m, FB_CASTLE_OO, out, 16),
			 3);
	assert_string_equal(out, "O-O");
	assert_int_equal(fb_moves_print_coord(&g, &m, FB_CASTLE_KING, out, 4),
			 FB_ENOSPC);
	assert_int_equal(fb_moves_print_coord(&g, &m, FB_CASTLE_AUTO, out, 16),
			 FB_EINVAL);
	/* No piece of the side to move on the origin: no SAN. */
	assert_int_equal(fb_game_parse_move(&g, "d1d2", 4, &m), 0);
	assert_int_equal(fb_moves_print_san(&g, &m, out, sizeof out),
			 FB_EINVAL);
	assert_int_equal(fb_game_parse_move(&g, "a8a7", 4, &m), 0);
	assert_int_equal(fb_moves_print_san(&g, &m, out, sizeof out),
			 FB_EINVAL);
	/* is_legal: promotion case does not matter, a missing one does. */
	g = game("4k3/1P6/8/8/8/8/8/K7 w - - 0 1");
	assert_int_equal(fb_game_parse_move(&g, "b7b8Q", 5, &m), 0);
	assert_true(fb_moves_is_legal(&g, &m));
	assert_int_equal(fb_game_parse_move(&g, "b7b8", 4, &m), 0);
	assert_false(fb_moves_is_legal(&g, &m));
	assert_int_equal(fb_game_parse_move(&g, "0000", 4, &m), 0);
	assert_false(fb_moves_is_legal(&g, &m));
	assert_int_equal(fb_moves_parse(&g, "0000", 4, &m), FB_EINVAL);
}

/* A small deterministic generator for the random games. */
static uint32_t
next_random(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Every legal move printed in SAN reads back as the same move. */
static void
assert_san_round_trip(const struct fb_game *g)
{
	struct fb_move moves[FB_MOVES_MAX], back;
	size_t n = fb_moves_legal(g, moves);

	for (size_t i = 0; i < n; i++) {
		char san[16], coord[8];
		int len = fb_moves_print_san(g, &moves[i], san, sizeof san);
		assert_true(len > 0);
		fb_moves_print_coord(g, &moves[i], FB_CASTLE_KXR, coord,
				     sizeof coord);
		if (fb_moves_parse(g, san, (size_t)len, &back) != 0 ||
		    back.from_file != moves[i].from_file ||
		    back.from_rank != moves[i].from_rank ||
		    back.to_file != moves[i].to_file ||
		    back.to_rank != moves[i].to_rank ||
		    back.promo != moves[i].promo ||
		    back.castle != moves[i].castle)
			fail_msg("%s (%s) does not read back", san, coord);
	}
}

static void
test_movegen_san_round_trip_random_games(void **state)
{
	static const char *starts[] = {
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - "
		"2 9",
		"nrkbbrqn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBRQN w FBfb - 0 1",
		"rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w "
		"KQkq "
		"- 0 1",
		"rbqnkcnbar/pppppppppp/10/10/10/10/PPPPPPPPPP/RBQNKCNBAR w "
		"KQkq "
		"- 0 1",
	};
	uint32_t seed = 960;
	unsigned positions = 0;

	(void)state;
	for (int game_no = 0; game_no < 30; game_no++) {
		struct fb_game g = game(starts[game_no % N_ELEMS(starts)]);
		for (int ply = 0; ply < 80; ply++) {
			struct fb_move moves[FB_MOVES_MAX];
			size_t n = fb_moves_legal(&g, moves);
			assert_san_round_trip(&g);
			positions++;
			if (n == 0)
				break;
			fb_game_play(&g, &moves[next_random(&seed) % n]);
		}
	}
	assert_true(positions > 1500);
}

/* fb_moves_is_legal(m) is m's membership in fb_moves_legal, for every
 * from/to pair and promotion, in the perft positions (pins, e.p., checks,
 * Chess960 castles, 10x8) and along random games. */
static void
assert_is_legal_agrees(const struct fb_game *g)
{
	struct fb_move moves[FB_MOVES_MAX];
	size_t n = fb_moves_legal(g, moves);
	static const char promos[] = {0, 'q', 'n', 'a'};

	for (int fr = 0; fr < 8; fr++)
		for (int ff = 0; ff < (int)g->width; ff++)
			for (int tr = 0; tr < 8; tr++)
				for (int tf = 0; tf < (int)g->width; tf++)
					for (size_t p = 0; p < sizeof promos;
					     p++) {
						struct fb_move m = {
							.from_file = ff,
							.from_rank = fr,
							.to_file = tf,
							.to_rank = tr,
							.promo = promos[p],
							.castle = -1};
						bool in = false;
						for (size_t i = 0; i < n; i++)
							in |= moves[i].from_file ==
								      ff &&
							      moves[i].from_rank ==
								      fr &&
							      moves[i].to_file ==
								      tf &&
							      moves[i].to_rank ==
								      tr &&
							      moves[i].castle <
								      0 &&
							      moves[i].promo ==
								      promos[p];
						if (fb_moves_is_legal(g, &m) !=
						    in)
							fail_msg(
								"is_legal %c%d%c%d%c: %d",
								'a' + ff,
								fr + 1,
								'a' + tf,
								tr + 1,
								promos[p]
									? promos[p]
									: ' ',
								!in);
					}
	for (size_t i = 0; i < n; i++)
		assert_true(fb_moves_is_legal(g, &moves[i]));
}

static void
test_movegen_is_legal_agrees_with_the_list(void **state)
{
	uint32_t seed = 19;
	int plies = reduced() ? 8 : 40;

	(void)state;
	for (size_t i = 0; i < N_ELEMS(perft_cases); i++) {
		struct fb_game g = case_game(&perft_cases[i]);
		for (int ply = 0; ply < plies; ply++) {
			struct fb_move moves[FB_MOVES_MAX];
			size_t n = fb_moves_legal(&g, moves);
			assert_is_legal_agrees(&g);
			if (n == 0)
				break;
			fb_game_play(&g, &moves[next_random(&seed) % n]);
		}
	}
}

static void
test_movegen_garbage_refused(void **state)
{
	static const char *junk[] = {
		"",     "+",  "O-",   "O-O-O-O", "Nz9",  "N",
		"e9",   "e",  "=Q",   "exd",     "Qxx4", "K-",
		"a1a1", "P",  "Pe4",  "e.p.",    "!!",   "Nb1b1c3",
		"e4e5", "00", "0-0-", "j1j2",    "\x80", "Ra1a1a1",
	};
	struct fb_game g = game(
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
	struct fb_move m;

	(void)state;
	for (size_t i = 0; i < N_ELEMS(junk); i++) {
		int rc = fb_moves_parse(&g, junk[i], strlen(junk[i]), &m);
		/* Pe4 is the pawn's e4 with its letter written. */
		if (strcmp(junk[i], "Pe4") == 0)
			assert_int_equal(rc, 0);
		else if (rc != FB_EINVAL)
			fail_msg("\"%s\" read as a move", junk[i]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_movegen_perft),
		cmocka_unit_test(test_movegen_castling_chess960_rule),
		cmocka_unit_test(test_movegen_move_lists),
		cmocka_unit_test(test_movegen_check_mate_stalemate),
		cmocka_unit_test(test_movegen_san),
		cmocka_unit_test(test_movegen_print_limits),
		cmocka_unit_test(test_movegen_san_round_trip_random_games),
		cmocka_unit_test(test_movegen_garbage_refused),
		cmocka_unit_test(test_movegen_is_legal_agrees_with_the_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
