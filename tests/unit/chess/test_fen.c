/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the pure FEN core (src/chess/fen.c) against doc/dialects.md:
 * reading and writing X-FEN and Shredder-FEN castling fields on 8x8 and 10x8
 * boards, all 960 Chess960 starts (generated here from the Scharnagl
 * numbering), inner rooks, prefixes, en passant, malformed FENs (passed on
 * unchanged) and impossible rights (dropped with a warning).
 *
 * Most tests are tables of {input, notation, expected}; a failing row names
 * itself, its input and what came out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fenbridge/fen.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Standard start board and its 10x8 Capablanca counterpart. */
#define START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
#define CAPA "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR"
/* The X-FEN definition's example: white rooks g1 and h1, g1 holds the right. */
#define XEX "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR"
/* 10x8 with rooks on i and j of both back ranks (king on f). */
#define CAPA_IJ "rnabqkbcrr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCRR"

#define OUT_CAP 512

struct fen_case {
	const char *input;
	enum fb_notation notation;
	const char *expected;
};

struct styled_case {
	const char *input;
	struct fb_fen_style style;
	const char *expected;
};

static const char *
notation_name(enum fb_notation nt)
{
	return nt == FB_XFEN ? "X-FEN" : "Shredder-FEN";
}

/*
 * Translates the NUL-terminated in with style into out (NUL-terminated) and
 * returns what fb_fen_translate returned.
 */
static int
translate_style(const char *in, const struct fb_fen_style *style, char *out,
		struct fb_fen_report *rep)
{
	int n = fb_fen_translate(in, strlen(in), style, out, OUT_CAP - 1, rep);

	if (n < 0 || n >= OUT_CAP)
		fail_msg("'%s': fb_fen_translate returned %d", in, n);
	out[n] = '\0';
	return n;
}

static int
translate(const char *in, enum fb_notation nt, char *out,
	  struct fb_fen_report *rep)
{
	struct fb_fen_style style = {.notation = nt};

	return translate_style(in, &style, out, rep);
}

/* Expects in to translate to want with a clean report. */
static void
expect_clean(const char *what, size_t row, const char *in,
	     const struct fb_fen_style *style, const char *want)
{
	char out[OUT_CAP];
	struct fb_fen_report rep;
	int n = translate_style(in, style, out, &rep);

	if (strcmp(out, want) != 0 || n != (int)strlen(want) ||
	    rep.error != 0 || rep.ndiag != 0 || rep.nmore != 0)
		fail_msg("%s row %zu: '%s' to %s gave '%s' (error %d, %u "
			 "diags: %s), want '%s'",
			 what, row, in, notation_name(style->notation), out,
			 rep.error, rep.ndiag,
			 rep.ndiag > 0 ? rep.diag[0].msg : "", want);
}

/*
 * Runs a table of clean cases. The expected output is canonical, so it must
 * also come back unchanged when translated to the same dialect again.
 */
static void
run_cases(const char *what, const struct fen_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct fb_fen_style style = {.notation = cases[i].notation};

		expect_clean(what, i, cases[i].input, &style,
			     cases[i].expected);
		expect_clean(what, i, cases[i].expected, &style,
			     cases[i].expected);
	}
}

static void
run_styled_cases(const char *what, const struct styled_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++)
		expect_clean(what, i, cases[i].input, &cases[i].style,
			     cases[i].expected);
}

/*
 * Scharnagl's numbering of the Chess960 starts: n % 4 puts the light-squared
 * bishop on b, d, f or h; (n / 4) % 4 the dark-squared one on a, c, e or g;
 * then the queen on one of the 6 free files, the knights on one of the 10
 * pairs of the 5 left, and R, K, R on the last three.
 */
static void
chess960_rank(unsigned n, char rank[9])
{
	static const int knights[10][2] = {
		{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
		{1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4},
	};
	int empty[8], ne;

	assert_true(n < 960);
	memset(rank, 0, 9);
	rank[2 * (n % 4) + 1] = 'B';
	n /= 4;
	rank[2 * (n % 4)] = 'B';
	n /= 4;
	ne = 0;
	for (int f = 0; f < 8; f++)
		if (rank[f] == 0)
			empty[ne++] = f;
	assert_int_equal(ne, 6);
	rank[empty[n % 6]] = 'Q';
	n /= 6;
	ne = 0;
	for (int f = 0; f < 8; f++)
		if (rank[f] == 0)
			empty[ne++] = f;
	assert_int_equal(ne, 5);
	rank[empty[knights[n][0]]] = 'N';
	rank[empty[knights[n][1]]] = 'N';
	ne = 0;
	for (int f = 0; f < 8; f++)
		if (rank[f] == 0)
			empty[ne++] = f;
	assert_int_equal(ne, 3);
	rank[empty[0]] = 'R';
	rank[empty[1]] = 'K';
	rank[empty[2]] = 'R';
}

/* Files of the rooks on an arrangement: [0] h-side, [1] a-side. */
static void
rook_files(const char *rank, int files[2])
{
	const char *k = strchr(rank, 'K');

	assert_non_null(k);
	files[0] = (int)(strrchr(rank, 'R') - rank);
	files[1] = (int)(strchr(rank, 'R') - rank);
	assert_true(files[1] < k - rank && k - rank < files[0]);
}

static void
lower(char *dst, const char *src)
{
	for (; *src != '\0'; src++, dst++)
		*dst = (char)(*src | 0x20);
	*dst = '\0';
}

/*
 * Builds a Chess960-style start FEN with the given white and black back
 * ranks (upper case), side to move and the castling rights in mask (bit 0
 * white h-side, 1 white a-side, 2 black h-side, 3 black a-side), in both
 * dialects.
 */
static void
build_960(const char *white, const char *black, char side, unsigned mask,
	  char *xfen, char *shredder, size_t cap)
{
	static const char kq[4] = {'K', 'Q', 'k', 'q'};
	char brank[9], x[8], s[8];
	int wf[2], bf[2];
	size_t nx = 0, ns = 0;

	rook_files(white, wf);
	rook_files(black, bf);
	lower(brank, black);
	for (int i = 0; i < 4; i++) {
		if (!(mask & (1u << i)))
			continue;
		x[nx++] = kq[i];
		s[ns++] = i < 2 ? (char)('A' + wf[i]) : (char)('a' + bf[i - 2]);
	}
	if (nx == 0) {
		x[nx++] = '-';
		s[ns++] = '-';
	}
	x[nx] = '\0';
	s[ns] = '\0';
	snprintf(xfen, cap, "%s/pppppppp/8/8/8/8/PPPPPPPP/%s %c %s - 0 1",
		 brank, white, side, x);
	snprintf(shredder, cap, "%s/pppppppp/8/8/8/8/PPPPPPPP/%s %c %s - 0 1",
		 brank, white, side, s);
}

/* Both directions and both round trips for one pair of FENs. */
static void
expect_pair(const char *xfen, const char *shredder)
{
	char a[OUT_CAP], b[OUT_CAP];
	struct fb_fen_report rep;

	translate(xfen, FB_SHREDDER, a, &rep);
	if (strcmp(a, shredder) != 0 || rep.ndiag != 0)
		fail_msg("'%s' to Shredder-FEN gave '%s', want '%s'", xfen, a,
			 shredder);
	translate(a, FB_XFEN, b, &rep);
	if (strcmp(b, xfen) != 0 || rep.ndiag != 0)
		fail_msg("X->S->X: '%s' came back as '%s'", xfen, b);
	translate(shredder, FB_XFEN, a, &rep);
	if (strcmp(a, xfen) != 0 || rep.ndiag != 0)
		fail_msg("'%s' to X-FEN gave '%s', want '%s'", shredder, a,
			 xfen);
	translate(a, FB_SHREDDER, b, &rep);
	if (strcmp(b, shredder) != 0 || rep.ndiag != 0)
		fail_msg("S->X->S: '%s' came back as '%s'", shredder, b);
	translate(xfen, FB_XFEN, a, &rep);
	if (strcmp(a, xfen) != 0 || rep.ndiag != 0)
		fail_msg("X-FEN '%s' not kept: '%s'", xfen, a);
	translate(shredder, FB_SHREDDER, a, &rep);
	if (strcmp(a, shredder) != 0 || rep.ndiag != 0)
		fail_msg("Shredder-FEN '%s' not kept: '%s'", shredder, a);
}

static void
test_fen_start_position_both_dialects(void **state)
{
	static const struct fen_case cases[] = {
		{START " w KQkq - 0 1", FB_SHREDDER, START " w HAha - 0 1"},
		{START " w HAha - 0 1", FB_XFEN, START " w KQkq - 0 1"},
		{START " w KQkq - 0 1", FB_XFEN, START " w KQkq - 0 1"},
		{START " w HAha - 0 1", FB_SHREDDER, START " w HAha - 0 1"},
		{START " b KQkq - 0 1", FB_SHREDDER, START " b HAha - 0 1"},
		{START " w - - 0 1", FB_SHREDDER, START " w - - 0 1"},
		{START " w - - 0 1", FB_XFEN, START " w - - 0 1"},
		{CAPA " w KQkq - 0 1", FB_SHREDDER, CAPA " w JAja - 0 1"},
		{CAPA " w JAja - 0 1", FB_XFEN, CAPA " w KQkq - 0 1"},
		{CAPA " w KQkq - 0 1", FB_XFEN, CAPA " w KQkq - 0 1"},
		{CAPA " w JAja - 0 1", FB_SHREDDER, CAPA " w JAja - 0 1"},
	};

	(void)state;
	run_cases("start", cases, N_ELEMS(cases));
}

static void
test_fen_chess960_scharnagl_numbers(void **state)
{
	static const struct {
		unsigned n;
		const char *rank;
	} known[] = {
		{0, "BBQNNRKR"},
		{518, "RNBQKBNR"},
		{959, "RKRNNQBB"},
	};
	char ranks[960][9];

	(void)state;
	for (size_t i = 0; i < N_ELEMS(known); i++) {
		chess960_rank(known[i].n, ranks[0]);
		assert_string_equal(ranks[0], known[i].rank);
	}
	/* The generator yields 960 distinct legal arrangements. */
	for (unsigned n = 0; n < 960; n++) {
		const char *r = ranks[n];
		int light = -1, dark = -1, w[2];

		chess960_rank(n, ranks[n]);
		rook_files(r, w);
		for (int f = 0; f < 8; f++)
			if (r[f] == 'B')
				*(f % 2 ? &light : &dark) = f;
		assert_true(light >= 0 && dark >= 0);
		for (unsigned m = 0; m < n; m++)
			if (strcmp(ranks[m], r) == 0)
				fail_msg("positions %u and %u are both %s", m,
					 n, r);
	}
}

static void
test_fen_chess960_all_starts_both_ways(void **state)
{
	char rank[9], xfen[128], shredder[128];

	(void)state;
	for (unsigned n = 0; n < 960; n++) {
		chess960_rank(n, rank);
		build_960(rank, rank, n % 2 ? 'b' : 'w', 0xf, xfen, shredder,
			  sizeof xfen);
		assert_non_null(strstr(xfen, " KQkq "));
		if (n == 518)
			assert_non_null(strstr(shredder, " HAha "));
		expect_pair(xfen, shredder);
	}
	/* One with rooks on b and g, spelled out. */
	expect_pair("nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w KQkq - 0 1",
		    "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1");
}

static void
test_fen_chess960_every_subset_of_rights(void **state)
{
	char rank[9], xfen[128], shredder[128];

	(void)state;
	for (unsigned n = 0; n < 960; n += 7) {
		chess960_rank(n, rank);
		for (unsigned mask = 0; mask < 16; mask++) {
			build_960(rank, rank, 'w', mask, xfen, shredder,
				  sizeof xfen);
			expect_pair(xfen, shredder);
		}
	}
}

static void
test_fen_double_fischer_random(void **state)
{
	char white[9], black[9], xfen[128], shredder[128];

	(void)state;
	expect_pair("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAhf - 0 1");
	for (unsigned n = 0; n < 960; n++) {
		/* 389 is prime to 960 and m != n for every n. */
		unsigned m = (n * 389 + 17) % 960;

		chess960_rank(n, white);
		chess960_rank(m, black);
		assert_string_not_equal(white, black);
		build_960(white, black, 'w', 0xf, xfen, shredder, sizeof xfen);
		expect_pair(xfen, shredder);
		build_960(white, black, 'b', n % 16, xfen, shredder,
			  sizeof xfen);
		expect_pair(xfen, shredder);
	}
}

static void
test_fen_xfen_inner_rook_uses_file_letter(void **state)
{
	static const struct fen_case cases[] = {
		/* dialects.md example */
		{XEX " w Gkq - 4 11", FB_SHREDDER, XEX " w Gga - 4 11"},
		{XEX " w Gga - 4 11", FB_XFEN, XEX " w Gkq - 4 11"},
		{XEX " w Gkq - 4 11", FB_XFEN, XEX " w Gkq - 4 11"},
		/* same board, outer h1 rook holds the right */
		{XEX " w Kkq - 4 11", FB_SHREDDER, XEX " w Hga - 4 11"},
		{XEX " w Hga - 4 11", FB_XFEN, XEX " w Kkq - 4 11"},
		/* two rooks on each king side */
		{"r3k1rr/pppppppp/8/8/8/8/PPPPPPPP/R3K1RR w GQgq - 0 1",
		 FB_SHREDDER,
		 "r3k1rr/pppppppp/8/8/8/8/PPPPPPPP/R3K1RR w GAga - 0 1"},
		{"r3k1rr/pppppppp/8/8/8/8/PPPPPPPP/R3K1RR w GAga - 0 1",
		 FB_XFEN,
		 "r3k1rr/pppppppp/8/8/8/8/PPPPPPPP/R3K1RR w GQgq - 0 1"},
		{"r3k1rr/pppppppp/8/8/8/8/PPPPPPPP/R3K1RR w KQkq - 0 1",
		 FB_SHREDDER,
		 "r3k1rr/pppppppp/8/8/8/8/PPPPPPPP/R3K1RR w HAha - 0 1"},
		{"r3k1rr/pppppppp/8/8/8/8/PPPPPPPP/R3K1RR w HAha - 0 1",
		 FB_XFEN,
		 "r3k1rr/pppppppp/8/8/8/8/PPPPPPPP/R3K1RR w KQkq - 0 1"},
		/* two rooks on each queen side */
		{"rr2k2r/pppppppp/8/8/8/8/PPPPPPPP/RR2K2R w KBkb - 0 1",
		 FB_SHREDDER,
		 "rr2k2r/pppppppp/8/8/8/8/PPPPPPPP/RR2K2R w HBhb - 0 1"},
		{"rr2k2r/pppppppp/8/8/8/8/PPPPPPPP/RR2K2R w HBhb - 0 1",
		 FB_XFEN,
		 "rr2k2r/pppppppp/8/8/8/8/PPPPPPPP/RR2K2R w KBkb - 0 1"},
		{"rr2k2r/pppppppp/8/8/8/8/PPPPPPPP/RR2K2R w KQkq - 0 1",
		 FB_SHREDDER,
		 "rr2k2r/pppppppp/8/8/8/8/PPPPPPPP/RR2K2R w HAha - 0 1"},
		/* three rooks on one wing: the middle one is inner too */
		{"4k3/8/8/8/8/8/8/RRR1K3 w B - 0 1", FB_XFEN,
		 "4k3/8/8/8/8/8/8/RRR1K3 w B - 0 1"},
		{"4k3/8/8/8/8/8/8/RRR1K3 w C - 0 1", FB_SHREDDER,
		 "4k3/8/8/8/8/8/8/RRR1K3 w C - 0 1"},
		{"4k3/8/8/8/8/8/8/RRR1K3 w Q - 0 1", FB_SHREDDER,
		 "4k3/8/8/8/8/8/8/RRR1K3 w A - 0 1"},
		/* a black rook further out does not make the white rook inner */
		{"4k3/8/8/8/8/8/8/R3K1Rr w KQ - 0 1", FB_SHREDDER,
		 "4k3/8/8/8/8/8/8/R3K1Rr w GA - 0 1"},
		{"4k3/8/8/8/8/8/8/R3K1Rr w GA - 0 1", FB_XFEN,
		 "4k3/8/8/8/8/8/8/R3K1Rr w KQ - 0 1"},
		/* a rook off the back rank is not further out either */
		{"4k3/8/8/8/8/8/7R/R3K1R1 w GA - 0 1", FB_XFEN,
		 "4k3/8/8/8/8/8/7R/R3K1R1 w KQ - 0 1"},
		/* 10x8, rooks on i and j */
		{CAPA_IJ " w IQiq - 0 1", FB_SHREDDER, CAPA_IJ " w IAia - 0 1"},
		{CAPA_IJ " w IAia - 0 1", FB_XFEN, CAPA_IJ " w IQiq - 0 1"},
		{CAPA_IJ " w KQkq - 0 1", FB_SHREDDER, CAPA_IJ " w JAja - 0 1"},
		{CAPA_IJ " w JAja - 0 1", FB_XFEN, CAPA_IJ " w KQkq - 0 1"},
		{CAPA_IJ " b Ikq - 0 1", FB_SHREDDER, CAPA_IJ " b Ija - 0 1"},
	};

	(void)state;
	run_cases("inner rook", cases, N_ELEMS(cases));
}

static void
test_fen_mixed_and_single_rights_written_canonically(void **state)
{
	static const struct fen_case cases[] = {
		{START " w Hkq - 0 1", FB_XFEN, START " w Kkq - 0 1"},
		{START " w Hkq - 0 1", FB_SHREDDER, START " w Hha - 0 1"},
		{START " w qkQK - 0 1", FB_XFEN, START " w KQkq - 0 1"},
		{START " w qkQK - 0 1", FB_SHREDDER, START " w HAha - 0 1"},
		{START " w ahAH - 0 1", FB_XFEN, START " w KQkq - 0 1"},
		{START " w aKhQ - 0 1", FB_SHREDDER, START " w HAha - 0 1"},
		{START " w QK - 0 1", FB_SHREDDER, START " w HA - 0 1"},
		{START " w qk - 0 1", FB_XFEN, START " w kq - 0 1"},
		{START " w K - 0 1", FB_SHREDDER, START " w H - 0 1"},
		{START " w Q - 0 1", FB_SHREDDER, START " w A - 0 1"},
		{START " w k - 0 1", FB_SHREDDER, START " w h - 0 1"},
		{START " w q - 0 1", FB_SHREDDER, START " w a - 0 1"},
		{START " w H - 0 1", FB_XFEN, START " w K - 0 1"},
		{START " w A - 0 1", FB_XFEN, START " w Q - 0 1"},
		{START " w h - 0 1", FB_XFEN, START " w k - 0 1"},
		{START " w a - 0 1", FB_XFEN, START " w q - 0 1"},
		{START " w - - 0 1", FB_XFEN, START " w - - 0 1"},
		{START " w - - 0 1", FB_SHREDDER, START " w - - 0 1"},
		{"nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w gBKq - 0 1",
		 FB_SHREDDER,
		 "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1"},
		{"nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w gBKq - 0 1",
		 FB_XFEN,
		 "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w KQkq - 0 1"},
		{CAPA " w ajJA - 0 1", FB_XFEN, CAPA " w KQkq - 0 1"},
		{CAPA " w q - 0 1", FB_SHREDDER, CAPA " w a - 0 1"},
	};

	(void)state;
	run_cases("mixed", cases, N_ELEMS(cases));
}

static void
test_fen_xfen_prefix_kept_dropped_added(void **state)
{
	static const struct styled_case cases[] = {
		{START " w sKQkq - 0 1",
		 {.notation = FB_XFEN},
		 START " w sKQkq - 0 1"},
		{START " w mKQkq - 0 1",
		 {.notation = FB_XFEN},
		 START " w mKQkq - 0 1"},
		{START " w sKQkq - 0 1",
		 {.notation = FB_SHREDDER},
		 START " w HAha - 0 1"},
		{START " w mHAha - 0 1",
		 {.notation = FB_SHREDDER},
		 START " w HAha - 0 1"},
		{START " w mHAha - 0 1",
		 {.notation = FB_XFEN},
		 START " w mKQkq - 0 1"},
		{START " w KQkq - 0 1",
		 {.notation = FB_XFEN, .prefix = 's'},
		 START " w sKQkq - 0 1"},
		{START " w HAha - 0 1",
		 {.notation = FB_XFEN, .prefix = 'm'},
		 START " w mKQkq - 0 1"},
		/* the input's own prefix wins over the style's */
		{START " w mKQkq - 0 1",
		 {.notation = FB_XFEN, .prefix = 's'},
		 START " w mKQkq - 0 1"},
		{START " w KQkq - 0 1",
		 {.notation = FB_SHREDDER, .prefix = 's'},
		 START " w HAha - 0 1"},
		/* no rights, no prefix */
		{START " w - - 0 1",
		 {.notation = FB_XFEN, .prefix = 's'},
		 START " w - - 0 1"},
		{CAPA " w mKQkq - 0 1",
		 {.notation = FB_SHREDDER},
		 CAPA " w JAja - 0 1"},
		{CAPA " w JAja - 0 1",
		 {.notation = FB_XFEN, .prefix = 'm'},
		 CAPA " w mKQkq - 0 1"},
		{CAPA_IJ " w sIAia - 0 1",
		 {.notation = FB_XFEN},
		 CAPA_IJ " w sIQiq - 0 1"},
		{CAPA " w sq - 0 1", {.notation = FB_XFEN}, CAPA " w sq - 0 1"},
	};
	char out[OUT_CAP];
	struct fb_fen_report rep;
	struct fb_fen_style style = {.notation = FB_XFEN, .prefix = 's'};

	(void)state;
	run_styled_cases("prefix", cases, N_ELEMS(cases));
	/* every right dropped as impossible: no prefix left either */
	translate(START " w sH - 0 1", FB_XFEN, out, &rep);
	assert_string_equal(out, START " w sK - 0 1");
	translate("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w sK - 0 1",
		  FB_XFEN, out, &rep);
	assert_string_equal(
		out, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w - - 0 1");
	assert_int_equal(rep.ndiag, 1);
	translate_style("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w K - 0 1",
			&style, out, &rep);
	assert_string_equal(
		out, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w - - 0 1");
	assert_int_equal(rep.ndiag, 1);
}

static void
test_fen_en_passant(void **state)
{
	const struct fb_fen_style x = {.notation = FB_XFEN};
	const struct fb_fen_style s = {.notation = FB_SHREDDER};
	const struct fb_fen_style xk = {.notation = FB_XFEN, .keep_ep = true};
	const struct styled_case cases[] = {
		/* white to move, black pawn d7-d5, white pawn e5 or c5 */
		{"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
		 x,
		 "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"},
		{"rnbqkbnr/ppp1pppp/8/2Pp4/8/8/PP1PPPPP/RNBQKBNR w HAha d6 0 3",
		 x,
		 "rnbqkbnr/ppp1pppp/8/2Pp4/8/8/PP1PPPPP/RNBQKBNR w KQkq d6 0 3"},
		/* no white pawn beside d5 */
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w HAha d6 0 2",
		 x,
		 "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"},
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
		 s,
		 "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w HAha d6 0 2"},
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w HAha d6 0 2",
		 xk,
		 "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"},
		/* beside d5 stands a black pawn, not a white one */
		{"rnbqkbnr/ppp2ppp/8/3pp3/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 3",
		 x,
		 "rnbqkbnr/ppp2ppp/8/3pp3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3"},
		/* the square behind the pawn is occupied */
		{"rnbqkbnr/ppp1pppp/3n4/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
		 x,
		 "rnbqkbnr/ppp1pppp/3n4/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3"},
		/* no pawn in front of the square */
		{"rnbqkbnr/ppp1pppp/8/4P3/3p4/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
		 x,
		 "rnbqkbnr/ppp1pppp/8/4P3/3p4/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3"},
		/* black to move after 1.e4: nothing can capture */
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
		 x,
		 "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
		 s,
		 "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha e3 0 1"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
		 xk,
		 "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"},
		/* black to move, black pawn d4 or f4 beside e4 */
		{"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
		 x,
		 "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"},
		{"rnbqkbnr/ppppp1pp/8/8/4Pp2/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
		 x,
		 "rnbqkbnr/ppppp1pp/8/8/4Pp2/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"},
		/* white pawn beside e4 does not help black */
		{"rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq e3 0 2",
		 x,
		 "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2"},
		/* a-file: b5 captures, pawns on the h-file do not wrap */
		{"rnbqkbnr/1ppppppp/8/pP6/8/8/P1PPPPPP/RNBQKBNR w KQkq a6 0 3",
		 x,
		 "rnbqkbnr/1ppppppp/8/pP6/8/8/P1PPPPPP/RNBQKBNR w KQkq a6 0 3"},
		{"rnbqkbnr/1ppppppp/7P/p6P/7P/8/PPPPP3/RNBQKBNR w KQkq a6 0 3",
		 x,
		 "rnbqkbnr/1ppppppp/7P/p6P/7P/8/PPPPP3/RNBQKBNR w KQkq - 0 3"},
		/* h-file: g5 captures, pawns on the a-file do not wrap */
		{"rnbqkbnr/ppppppp1/8/6Pp/8/8/PPPPPP1P/RNBQKBNR w KQkq h6 0 3",
		 x,
		 "rnbqkbnr/ppppppp1/8/6Pp/8/8/PPPPPP1P/RNBQKBNR w KQkq h6 0 3"},
		{"rnbqkbnr/ppppppp1/P7/P6p/P7/8/3PPPPP/RNBQKBNR w KQkq h6 0 3",
		 x,
		 "rnbqkbnr/ppppppp1/P7/P6p/P7/8/3PPPPP/RNBQKBNR w KQkq - 0 3"},
		/* black to move on the edges */
		{"rnbqkbnr/p1pppppp/8/8/Pp6/8/1PPPPPPP/RNBQKBNR b KQkq a3 0 3",
		 x,
		 "rnbqkbnr/p1pppppp/8/8/Pp6/8/1PPPPPPP/RNBQKBNR b KQkq a3 0 3"},
		{"rnbqkbn1/ppppp3/8/7p/P6p/7p/1PPPPPPP/RNBQKBNR b KQq a3 0 3",
		 x,
		 "rnbqkbn1/ppppp3/8/7p/P6p/7p/1PPPPPPP/RNBQKBNR b KQq - 0 3"},
		{"rnbqkbnr/pppppp1p/8/8/6pP/8/PPPPPPP1/RNBQKBNR b KQkq h3 0 3",
		 x,
		 "rnbqkbnr/pppppp1p/8/8/6pP/8/PPPPPPP1/RNBQKBNR b KQkq h3 0 3"},
		{"rnbqkbnr/3ppppp/8/p7/p6P/p7/PPPPPPP1/RNBQKBNR b KQkq h3 0 3",
		 x,
		 "rnbqkbnr/3ppppp/8/p7/p6P/p7/PPPPPPP1/RNBQKBNR b KQkq - 0 3"},
		/* 10x8: the j-file edge */
		{"rnabqkbcnr/ppppppppp1/10/8Pp/10/10/PPPPPPPP1P/RNABQKBCNR w JAja j6 0 3",
		 x,
		 "rnabqkbcnr/ppppppppp1/10/8Pp/10/10/PPPPPPPP1P/RNABQKBCNR w KQkq j6 0 3"},
		{"rnabqkbcnr/ppppppppp1/P9/P8p/P9/10/4PPPPPP/RNABQKBCNR w JAja j6 0 3",
		 x,
		 "rnabqkbcnr/ppppppppp1/P9/P8p/P9/10/4PPPPPP/RNABQKBCNR w KQkq - 0 3"},
		{"rnabqkbcnr/pppppppp1p/10/10/8pP/10/PPPPPPPPP1/RNABQKBCNR b KQkq j3 0 3",
		 x,
		 "rnabqkbcnr/pppppppp1p/10/10/8pP/10/PPPPPPPPP1/RNABQKBCNR b KQkq j3 0 3"},
		{"rnabqkbcnr/ppppppppp1/P9/P8p/P9/10/4PPPPPP/RNABQKBCNR w KQkq j6 0 3",
		 s,
		 "rnabqkbcnr/ppppppppp1/P9/P8p/P9/10/4PPPPPP/RNABQKBCNR w JAja j6 0 3"},
		{"rnabqkbcnr/ppppppppp1/P9/P8p/P9/10/4PPPPPP/RNABQKBCNR w JAja j6 0 3",
		 xk,
		 "rnabqkbcnr/ppppppppp1/P9/P8p/P9/10/4PPPPPP/RNABQKBCNR w KQkq j6 0 3"},
	};
	struct fb_fen fen;

	(void)state;
	run_styled_cases("en passant", cases, N_ELEMS(cases));
	assert_int_equal(fb_fen_parse(&fen, cases[0].input,
				      strlen(cases[0].input), NULL),
			 0);
	assert_true(fb_game_ep_capturable(&fen.pos));
	assert_int_equal(fb_fen_parse(&fen, cases[2].input,
				      strlen(cases[2].input), NULL),
			 0);
	assert_false(fb_game_ep_capturable(&fen.pos));
	assert_int_equal(fb_fen_parse(&fen, START " w KQkq - 0 1",
				      strlen(START " w KQkq - 0 1"), NULL),
			 0);
	assert_false(fb_game_ep_capturable(&fen.pos));
}

/*
 * A malformed FEN: the code, and where diag[0].offset must point: at the
 * first occurrence of the substring at in the input, or at its end if at is
 * NULL.
 */
struct malformed_case {
	const char *input;
	int code;
	const char *at;
};

static void
expect_malformed(size_t row, const char *in, size_t len, int code,
		 size_t offset)
{
	static const enum fb_notation nts[] = {FB_XFEN, FB_SHREDDER};
	char out[OUT_CAP];

	for (size_t k = 0; k < N_ELEMS(nts); k++) {
		struct fb_fen_style style = {.notation = nts[k], .prefix = 's'};
		struct fb_fen_report rep;
		struct fb_fen fen;
		int n;

		memset(out, '#', sizeof out);
		n = fb_fen_translate(in, len, &style, out, sizeof out, &rep);
		if (n != (int)len || memcmp(out, in, len) != 0)
			fail_msg("row %zu '%s' to %s: not copied unchanged "
				 "(%d bytes: '%.*s')",
				 row, in, notation_name(nts[k]), n,
				 n < 0 ? 0 : n, out);
		if (rep.error != code || rep.ndiag != 1 || rep.nmore != 0 ||
		    rep.diag[0].code != code || rep.diag[0].offset != offset ||
		    rep.diag[0].msg[0] == '\0')
			fail_msg(
				"row %zu '%s': error %d, %u diags, diag code %d "
				"offset %zu '%s'; want error %d at offset %zu",
				row, in, rep.error, rep.ndiag, rep.diag[0].code,
				rep.diag[0].offset, rep.diag[0].msg, code,
				offset);
		if (fb_fen_parse(&fen, in, len, &rep) != code ||
		    rep.error != code)
			fail_msg("row %zu '%s': fb_fen_parse did not return %d",
				 row, in, code);
		n = fb_fen_translate(in, len, &style, out, sizeof out, NULL);
		assert_int_equal(n, (int)len);
		assert_memory_equal(out, in, len);
	}
}

static void
run_malformed(const struct malformed_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *in = cases[i].input;
		size_t off = strlen(in);

		if (cases[i].at != NULL) {
			const char *p = strstr(in, cases[i].at);
			if (p == NULL)
				fail_msg("row %zu: '%s' not in '%s'", i,
					 cases[i].at, in);
			off = (size_t)(p - in);
		}
		expect_malformed(i, in, strlen(in), cases[i].code, off);
	}
}

static void
test_fen_malformed_board_passes_unchanged(void **state)
{
	static const struct malformed_case cases[] = {
		/* 7 and 9 ranks, a trailing slash */
		{"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_ERANKS, " w KQkq"},
		{"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_ERANKS, "/RNBQKBNR"},
		{START "/ w KQkq - 0 1", FB_ERANKS, "/ w"},
		/* uneven ranks */
		{"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_EWIDTH, "/8/8/8/8/P"},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_EWIDTH, "/8/8/8/P"},
		{"rnbqkbnr/pppppppp/8/8//8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_EWIDTH, "/8/PPPPPPPP/"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRRRR w KQkq - 0 1",
		 FB_EWIDTH, "R w"},
		{"rnbqkbnr/pppppppp/10/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_EWIDTH, "/8/8/8/P"},
		{"rnbqkbnrr/ppppppppp/9/9/9/9/PPPPPPPPP/RNBQKBNRR w KQkq - 0 1",
		 FB_EWIDTH, "/ppp"},
		/* unknown characters; Capablanca pieces on 8x8 */
		{"rnbqkbnr/pppppppp/8/8/4x3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_EPIECE, "x3"},
		{"rnbqkbnr/pppppppp/8/8/4*3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_EPIECE, "*3"},
		{"rnbqkbnr/pppppppp/8/8/3A4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_EPIECE, "A4"},
		{"rnbqkbnr/pppppppp/8/8/8/2c5/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_EPIECE, "c5"},
		/* two digits in a row, 0, 11 */
		{"rnbqkbnr/pppppppp/8/8/44/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_EDIGITS, "44"},
		{"rnbqkbnr/pppppppp/8/8/P0P6/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_EDIGITS, "0P6"},
		{"rnbqkbnr/pppppppp/8/8/08/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_EDIGITS, "08"},
		{"rnabqkbcnr/pppppppppp/11/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
		 FB_EDIGITS, "11"},
		{"rnabqkbcnr/pppppppppp/10/010/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
		 FB_EDIGITS, "010"},
		/* not exactly one king per colour */
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w kq - 0 1",
		 FB_EKINGS, "rnbq"},
		{"rnbqkbnr/pppppppp/8/8/4K3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_EKINGS, "rnbq"},
		{"rnbqkbnr/pppppppp/8/8/4k3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_EKINGS, "rnbq"},
		{"8/8/8/8/8/8/8/8 w - - 0 1", FB_EKINGS, "8/8"},
	};

	(void)state;
	run_malformed(cases, N_ELEMS(cases));
}

static void
test_fen_malformed_fields_pass_unchanged(void **state)
{
	static const struct malformed_case cases[] = {
		/* side to move */
		{START " x KQkq - 0 1", FB_ESIDE, "x KQkq"},
		{START " W KQkq - 0 1", FB_ESIDE, "W KQkq"},
		{START " wb KQkq - 0 1", FB_ESIDE, "wb KQkq"},
		{START " - KQkq - 0 1", FB_ESIDE, "- KQkq"},
		/* repeated letters */
		{START " w KK - 0 1", FB_ECASTLING, "K - 0"},
		{START " w KQkqk - 0 1", FB_ECASTLING, "k - 0"},
		{START " w HHa - 0 1", FB_ECASTLING, "Ha - 0"},
		{START " w sKQkqq - 0 1", FB_ECASTLING, "q - 0"},
		/* two letters for one rook, two rights on one wing */
		{START " w KH - 0 1", FB_ECONFLICT, "H - 0"},
		{START " w HK - 0 1", FB_ECONFLICT, "K - 0"},
		{START " w Qkqa - 0 1", FB_ECONFLICT, "a - 0"},
		{XEX " w HGkq - 4 11", FB_ECONFLICT, "Gkq"},
		{XEX " w KGkq - 4 11", FB_ECONFLICT, "Gkq"},
		{CAPA_IJ " w JIkq - 0 1", FB_ECONFLICT, "Ikq"},
		{CAPA_IJ " w KIkq - 0 1", FB_ECONFLICT, "Ikq"},
		/* a rook file beyond the board, not a castling letter at all */
		{START " w KQIkq - 0 1", FB_ECASTLING, "Ikq"},
		{START " w KQkqj - 0 1", FB_ECASTLING, "j - 0"},
		{START " w KQkx - 0 1", FB_ECASTLING, "x - 0"},
		{START " w KQ1 - 0 1", FB_ECASTLING, "1 - 0"},
		{START " w s - 0 1", FB_ECASTLING, "s - 0"},
		{CAPA " w KQkqk - 0 1", FB_ECASTLING, "k - 0"},
		/* '-' mixed with letters */
		{START " w -K - 0 1", FB_ECASTLING, "-K"},
		{START " w K- - 0 1", FB_ECASTLING, "- - 0"},
		{START " w -- - 0 1", FB_ECASTLING, "-- - 0"},
		/* en passant */
		{START " w KQkq e3 0 1", FB_EEP, "e3"},
		{START " b KQkq e6 0 1", FB_EEP, "e6"},
		{START " w KQkq i6 0 1", FB_EEP, "i6"},
		{CAPA " w KQkq k6 0 1", FB_EEP, "k6"},
		{START " w KQkq e 0 1", FB_EEP, "e 0"},
		{START " w KQkq e66 0 1", FB_EEP, "e66"},
		{START " w KQkq E6 0 1", FB_EEP, "E6"},
		{START " w KQkq 6e 0 1", FB_EEP, "6e"},
		{START " w KQkq -- 0 1", FB_EEP, "-- 0"},
		/* counters */
		{START " w KQkq - x 1", FB_ECOUNTER, "x 1"},
		{START " w KQkq - 0 1x", FB_ECOUNTER, "x"},
		{START " w KQkq - -1 1", FB_ECOUNTER, "-1"},
		{START " w KQkq - 0 1.5", FB_ECOUNTER, ".5"},
		{START " w KQkq - 0 +1", FB_ECOUNTER, "+1"},
		{START " w KQkq - x", FB_ECOUNTER, "x"},
		/* field count */
		{START " w KQkq - 0 1 7", FB_EFIELDS, "7"},
		{START " w KQkq - 0 1 moves e2e4", FB_EFIELDS, "moves"},
		{START " w KQkq", FB_EFIELDS, NULL},
		{START, FB_EFIELDS, NULL},
		{"", FB_EFIELDS, NULL},
		/* bytes that are not printable ASCII */
		{START " w KQkq -\x01 0 1", FB_EBYTE, "\x01"},
		{START " w KQkq - 0 1\r", FB_EBYTE, "\r"},
		{START " w KQkq - 0 1\n", FB_EBYTE, "\n"},
		{"rnbqkbnr/pppppppp/8/8/\x1b/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_EBYTE, "\x1b"},
		{START " w KQ\x7fkq - 0 1", FB_EBYTE, "\x7f"},
		{START " w KQ\xc3\xa4kq - 0 1", FB_EBYTE, "\xc3"},
		{START " w KQkq - 0 1\x80", FB_EBYTE, "\x80"},
		{"\xff" START " w KQkq - 0 1", FB_EBYTE, "\xff"},
	};
	static const char nul[] = START " w KQ\0kq - 0 1";

	(void)state;
	run_malformed(cases, N_ELEMS(cases));
	expect_malformed(999, nul, sizeof nul - 1, FB_EBYTE,
			 strlen(START " w KQ"));
}

/* Malformed anywhere wins over impossible rights: nothing is dropped. */
static void
test_fen_malformed_with_impossible_rights_unchanged(void **state)
{
	static const struct malformed_case cases[] = {
		/* white king on e2, plus a bad e.p. square or counter */
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w KQkq e3 0 1",
		 FB_EEP, "e3"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w KQkq - 0 z",
		 FB_ECOUNTER, "z"},
		/* K has no rook (dropped), then q and a name one wing */
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Kqa - 0 1",
		 FB_ECONFLICT, "a - 0"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkqq - 0 1",
		 FB_ECASTLING, "q - 0"},
		/* the castling rights are dropped, the '-' mixed in is not */
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w KQ- - 0 1",
		 FB_ECASTLING, "- - 0"},
	};

	(void)state;
	run_malformed(cases, N_ELEMS(cases));
}

struct drop_case {
	const char *input;
	enum fb_notation notation;
	const char *expected;
	unsigned ndiag;
	int code;       /* of every diag */
	const char *at; /* diag[i].offset: the (i+1)-th letter of at */
};

static void
test_fen_impossible_rights_dropped_with_warning(void **state)
{
	static const struct drop_case cases[] = {
		/* white king off its back rank */
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w KQkq - 0 1",
		 FB_SHREDDER,
		 "rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w ha - 0 1", 2,
		 FB_WKING, "KQkq"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w HAha - 0 1",
		 FB_XFEN,
		 "rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w kq - 0 1", 2,
		 FB_WKING, "HAha"},
		/* black king off its back rank */
		{"rnbq1bnr/ppppkppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
		 FB_SHREDDER,
		 "rnbq1bnr/ppppkppp/8/8/8/8/PPPPPPPP/RNBQKBNR b HA - 0 1", 2,
		 FB_WKING, "kq - "},
		/* both letters for one rook, king off: both dropped, no conflict */
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w KHkq - 0 1",
		 FB_XFEN,
		 "rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w kq - 0 1", 2,
		 FB_WKING, "KHkq"},
		/* no own rook on the wing or on the file */
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
		 FB_SHREDDER,
		 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Aha - 0 1", 1,
		 FB_WROOK, "KQkq"},
		{START " w GAha - 0 1", FB_XFEN, START " w Qkq - 0 1", 1,
		 FB_WROOK, "GAha"},
		{"1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
		 FB_SHREDDER,
		 "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b HAh - 0 1", 1,
		 FB_WROOK, "q - "},
		/* a rook off the back rank does not count */
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPR/RNBQKBN1 w KQkq - 0 1",
		 FB_XFEN,
		 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPR/RNBQKBN1 w Qkq - 0 1", 1,
		 FB_WROOK, "KQkq"},
		/* a letter on the king's own file */
		{START " w EAha - 0 1", FB_SHREDDER, START " w Aha - 0 1", 1,
		 FB_WROOK, "EAha"},
		{START " w KQek - 0 1", FB_XFEN, START " w KQk - 0 1", 1,
		 FB_WROOK, "ek - "},
		/* a black rook where a white right points */
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNr w HAha - 0 1",
		 FB_XFEN,
		 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNr w Qkq - 0 1", 1,
		 FB_WROOK, "HAha"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNr w KQkq - 0 1",
		 FB_SHREDDER,
		 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNr w Aha - 0 1", 1,
		 FB_WROOK, "KQkq"},
		{"Rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_SHREDDER,
		 "Rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAh - 0 1", 1,
		 FB_WROOK, "q - "},
		/* HG with no rook on g: G dropped, H kept, not malformed */
		{START " w HGkq - 0 1", FB_SHREDDER, START " w Hha - 0 1", 1,
		 FB_WROOK, "Gkq"},
		{START " w GHkq - 0 1", FB_XFEN, START " w Kkq - 0 1", 1,
		 FB_WROOK, "GHkq"},
		/* 10x8 */
		{CAPA " w KQIkq - 0 1", FB_SHREDDER, CAPA " w JAja - 0 1", 1,
		 FB_WROOK, "Ikq"},
		{"rnabqkbcn1/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR b KQkq - 0 1",
		 FB_XFEN,
		 "rnabqkbcn1/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR b KQq - 0 1",
		 1, FB_WROOK, "kq - "},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		const struct drop_case *c = &cases[i];
		const char *at = strstr(c->input, c->at);
		char out[OUT_CAP];
		struct fb_fen_report rep;

		assert_non_null(at);
		translate(c->input, c->notation, out, &rep);
		if (strcmp(out, c->expected) != 0 || rep.error != 0 ||
		    rep.ndiag != c->ndiag || rep.nmore != 0)
			fail_msg("row %zu '%s' to %s gave '%s' (error %d, %u "
				 "diags), want '%s' and %u diags",
				 i, c->input, notation_name(c->notation), out,
				 rep.error, rep.ndiag, c->expected, c->ndiag);
		for (unsigned d = 0; d < rep.ndiag; d++)
			if (rep.diag[d].code != c->code ||
			    rep.diag[d].code <= 0 ||
			    rep.diag[d].offset != (size_t)(at - c->input) + d ||
			    strstr(rep.diag[d].msg, "dropped") == NULL)
				fail_msg("row %zu diag %u: code %d offset %zu "
					 "'%s'; want code %d offset %zu",
					 i, d, rep.diag[d].code,
					 rep.diag[d].offset, rep.diag[d].msg,
					 c->code, (size_t)(at - c->input) + d);
		/* the same without a report */
		assert_int_equal(
			fb_fen_translate(
				c->input, strlen(c->input),
				&(struct fb_fen_style){.notation = c->notation},
				out, sizeof out, NULL),
			(int)strlen(c->expected));
	}
}

static void
test_fen_many_dropped_rights_counted(void **state)
{
	static const char in[] =
		"r3r3/4k3/8/8/8/8/4K3/R3R3 w KQABCDEFGHkqabcdefgh - 0 1";
	char out[OUT_CAP];
	struct fb_fen_report rep;

	(void)state;
	translate(in, FB_XFEN, out, &rep);
	assert_string_equal(out, "r3r3/4k3/8/8/8/8/4K3/R3R3 w - - 0 1");
	assert_int_equal(rep.error, 0);
	assert_int_equal(rep.ndiag, FB_FEN_MAX_DIAGS);
	assert_int_equal(rep.nmore, 20 - FB_FEN_MAX_DIAGS);
	for (unsigned d = 0; d < rep.ndiag; d++)
		assert_int_equal(rep.diag[d].code, FB_WKING);
}

static void
test_fen_field_count_and_spacing_copied(void **state)
{
	static const struct fen_case cases[] = {
		{START " w KQkq -", FB_SHREDDER, START " w HAha -"},
		{START " w HAha -", FB_XFEN, START " w KQkq -"},
		{START " w KQkq - 0", FB_SHREDDER, START " w HAha - 0"},
		{START " b HAha - 17", FB_XFEN, START " b KQkq - 17"},
		{START "  \t w\t\tKQkq \t  -   007    000123456789012345678901",
		 FB_SHREDDER,
		 START
		 "  \t w\t\tHAha \t  -   007    000123456789012345678901"},
		{START "\tw\tHAha\t-\t00\t0", FB_XFEN,
		 START "\tw\tKQkq\t-\t00\t0"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR\tb  HAha\t\te3   0001  1",
		 FB_XFEN,
		 "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR\tb  KQkq\t\t-   0001  1"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b   Hkq  e3",
		 FB_XFEN,
		 "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b   Kkq  -"},
		{START " w - - 99999999999999999999 0", FB_SHREDDER,
		 START " w - - 99999999999999999999 0"},
		{XEX "   w     Gkq   -   4   11", FB_SHREDDER,
		 XEX "   w     Gga   -   4   11"},
	};

	(void)state;
	run_cases("fields", cases, N_ELEMS(cases));
}

static void
test_fen_output_buffer_too_small(void **state)
{
	static const char in[] = START " w - - 0 1";
	const size_t len = sizeof in - 1;
	struct fb_fen_style x = {.notation = FB_XFEN, .prefix = 's'};
	struct fb_fen_style s = {.notation = FB_SHREDDER};
	char out[OUT_CAP], field[8];
	struct fb_fen fen;
	int n;

	(void)state;
	assert_int_equal(fb_fen_translate(in, len, &x, out,
					  len + FB_FEN_GROWTH - 1, NULL),
			 FB_ENOSPC);
	assert_int_equal(fb_fen_translate(in, len, &s, out, len, NULL),
			 FB_ENOSPC);
	assert_int_equal(
		fb_fen_translate("x", 1, &s, out, 1 + FB_FEN_GROWTH - 1, NULL),
		FB_ENOSPC);
	/* exactly len + FB_FEN_GROWTH is enough; nothing beyond n is written */
	memset(out, '#', sizeof out);
	n = fb_fen_translate(START " w KQkq - 0 1", len + 3, &s, out,
			     len + 3 + FB_FEN_GROWTH, NULL);
	assert_int_equal(n, (int)(len + 3));
	assert_memory_equal(out, START " w HAha - 0 1", len + 3);
	for (size_t i = (size_t)n; i < sizeof out; i++)
		assert_int_equal(out[i], '#');

	/* fb_fen_print and fb_game_print_castling check their own caps */
	assert_int_equal(fb_fen_parse(&fen, in, len, NULL), 0);
	assert_int_equal(fb_fen_print(&fen, &s, out, len - 1), FB_ENOSPC);
	assert_int_equal(fb_fen_print(&fen, &s, out, len), (int)len);
	assert_int_equal(
		fb_game_print_castling(&fen.pos, fen.prefix, &s, field, 0),
		FB_ENOSPC);
	assert_int_equal(
		fb_game_print_castling(&fen.pos, fen.prefix, &s, field, 1), 1);
	assert_int_equal(field[0], '-');
	assert_int_equal(fb_fen_parse(&fen, START " b sKQkq - 0 1",
				      strlen(START " b sKQkq - 0 1"), NULL),
			 0);
	assert_int_equal(
		fb_game_print_castling(&fen.pos, fen.prefix, &x, field, 4),
		FB_ENOSPC);
	assert_int_equal(
		fb_game_print_castling(&fen.pos, fen.prefix, &x, field, 5), 5);
	assert_memory_equal(field, "sKQkq", 5);
}

static void
test_fen_parse_notation_names(void **state)
{
	static const struct {
		const char *name;
		enum fb_notation notation;
	} good[] = {
		{"xfen", FB_XFEN},
		{"XFEN", FB_XFEN},
		{"x-fen", FB_XFEN},
		{"X-Fen", FB_XFEN},
		{"shredder", FB_SHREDDER},
		{"Shredder", FB_SHREDDER},
		{"shredder-fen", FB_SHREDDER},
		{"SHREDDER-FEN", FB_SHREDDER},
	};
	static const char *const bad[] = {
		"",      "x",         "fen",           "xfe",
		"xfenx", " xfen",     "xfen ",         "x_fen",
		"x fen", "shredder-", "shredder fen",  "shred",
		"uci",   "x\rfen",    "shredder\rfen", "xf\xc5n",
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(good); i++) {
		enum fb_notation nt = good[i].notation == FB_XFEN ? FB_SHREDDER
								  : FB_XFEN;
		if (fb_fen_parse_notation(good[i].name, &nt) != 0 ||
		    nt != good[i].notation)
			fail_msg("'%s' not accepted as %s", good[i].name,
				 notation_name(good[i].notation));
	}
	for (size_t i = 0; i < N_ELEMS(bad); i++) {
		enum fb_notation nt = FB_SHREDDER;
		if (fb_fen_parse_notation(bad[i], &nt) != FB_EINVAL ||
		    nt != FB_SHREDDER)
			fail_msg("'%s' accepted as a dialect name", bad[i]);
	}
}

/* The diagnostics name what a user can look for on the board. */
static void
test_fen_messages_name_the_square(void **state)
{
	static const struct {
		const char *input;
		const char *words;
	} cases[] = {
		{START " w GAha - 0 1", "no white rook on g1"},
		{START " w HAga - 0 1", "no black rook on g8"},
		{START " w EAha - 0 1", "white king stands on e1"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w Kkq - 0 1",
		 "white king is not on rank 1"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
		 "no white rook on the king side of rank 1"},
		{"1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 "no black rook on the queen side of rank 8"},
		{START " w KH - 0 1", "same rook"},
		{XEX " w HGkq - 4 11", "two rights on the white king side"},
		{START " w KQkq - 0 1 7", "more than 6 fields"},
		{"rnbqkbnr/pppppppp/8/8/4K3/8/PPPPPPPP/RNBQKBNR w - - 0 1",
		 "2 white kings"},
		{START " w KQIkq - 0 1", "'I'"},
		{START " w KQkq e3 0 1", "rank 6"},
		{START " w KQkq - 0 1\x01", "0x01"},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		char out[OUT_CAP];
		struct fb_fen_report rep;

		translate(cases[i].input, FB_SHREDDER, out, &rep);
		if (rep.ndiag < 1 ||
		    strstr(rep.diag[0].msg, cases[i].words) == NULL)
			fail_msg("'%s': message '%s' lacks '%s'",
				 cases[i].input,
				 rep.ndiag ? rep.diag[0].msg : "(none)",
				 cases[i].words);
	}
}

/* What fb_fen_parse itself reports: board, kings, canonical rights. */
static void
test_fen_parse_fills_struct(void **state)
{
	static const char ex[] = XEX " w Gkq - 4 11";
	static const char capa[] = CAPA_IJ " b sIQk -";
	struct fb_fen fen;
	struct fb_fen_report rep;

	(void)state;
	assert_int_equal(fb_fen_parse(&fen, ex, sizeof ex - 1, &rep), 0);
	assert_int_equal(rep.error, 0);
	assert_int_equal(rep.ndiag, 0);
	assert_int_equal(fen.nfields, 6);
	assert_int_equal(fen.pos.width, 8);
	assert_int_equal(fen.pos.side, FB_WHITE);
	assert_int_equal(fen.prefix, 0);
	assert_int_equal(fb_game_king_file(&fen.pos, FB_WHITE), 4);
	assert_int_equal(fb_game_king_file(&fen.pos, FB_BLACK), 4);
	assert_int_equal(fen.pos.castle[FB_WHITE][FB_HSIDE], 6);
	assert_int_equal(fen.pos.castle[FB_WHITE][FB_ASIDE], -1);
	assert_int_equal(fen.pos.castle[FB_BLACK][FB_HSIDE], 6);
	assert_int_equal(fen.pos.castle[FB_BLACK][FB_ASIDE], 0);
	assert_int_equal(fen.pos.board[0][7], 'R');
	assert_int_equal(fen.pos.board[7][1], 'n');
	assert_int_equal(fen.off[2], strlen(XEX " w "));
	assert_int_equal(fen.flen[2], 3);

	assert_int_equal(fb_fen_parse(&fen, capa, sizeof capa - 1, NULL), 0);
	assert_int_equal(fen.nfields, 4);
	assert_int_equal(fen.pos.width, 10);
	assert_int_equal(fen.pos.side, FB_BLACK);
	assert_int_equal(fen.prefix, 's');
	assert_int_equal(fb_game_king_file(&fen.pos, FB_WHITE), 5);
	assert_int_equal(fen.pos.castle[FB_WHITE][FB_HSIDE], 8);
	assert_int_equal(fen.pos.castle[FB_WHITE][FB_ASIDE], 0);
	assert_int_equal(fen.pos.castle[FB_BLACK][FB_HSIDE], 9);
	assert_int_equal(fen.pos.castle[FB_BLACK][FB_ASIDE], -1);

	assert_int_equal(
		fb_fen_parse(
			&fen,
			"rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w KQkq - 0 1",
			strlen("rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w KQkq - 0 1"),
			&rep),
		0);
	assert_int_equal(fb_game_king_file(&fen.pos, FB_WHITE), -1);
	assert_int_equal(fen.pos.castle[FB_WHITE][FB_HSIDE], -1);
	assert_int_equal(fen.pos.castle[FB_WHITE][FB_ASIDE], -1);
	assert_int_equal(fen.pos.castle[FB_BLACK][FB_HSIDE], 7);
	assert_int_equal(rep.ndiag, 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fen_start_position_both_dialects),
		cmocka_unit_test(test_fen_chess960_scharnagl_numbers),
		cmocka_unit_test(test_fen_chess960_all_starts_both_ways),
		cmocka_unit_test(test_fen_chess960_every_subset_of_rights),
		cmocka_unit_test(test_fen_double_fischer_random),
		cmocka_unit_test(test_fen_xfen_inner_rook_uses_file_letter),
		cmocka_unit_test(
			test_fen_mixed_and_single_rights_written_canonically),
		cmocka_unit_test(test_fen_xfen_prefix_kept_dropped_added),
		cmocka_unit_test(test_fen_en_passant),
		cmocka_unit_test(test_fen_malformed_board_passes_unchanged),
		cmocka_unit_test(test_fen_malformed_fields_pass_unchanged),
		cmocka_unit_test(
			test_fen_malformed_with_impossible_rights_unchanged),
		cmocka_unit_test(
			test_fen_impossible_rights_dropped_with_warning),
		cmocka_unit_test(test_fen_many_dropped_rights_counted),
		cmocka_unit_test(test_fen_field_count_and_spacing_copied),
		cmocka_unit_test(test_fen_output_buffer_too_small),
		cmocka_unit_test(test_fen_parse_notation_names),
		cmocka_unit_test(test_fen_messages_name_the_square),
		cmocka_unit_test(test_fen_parse_fills_struct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
