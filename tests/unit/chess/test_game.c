/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of game tracking (src/chess/game.c): recognising castling moves in
 * the three notations (king takes own rook, king move, O-O) on 8x8, Chess960
 * and 10x8 boards; what is not castling; writing a castling move in each
 * notation; playing moves (castling, lost rights, en passant, promotion, the
 * null move, whole games); the standard-castling test; notation names; and
 * garbage tokens, which return FB_EINVAL and never crash.
 *
 * Positions are set up through fb_fen_parse (its pos). Boards are
 * checked by printing them back as a FEN placement field, rights as a
 * Shredder-FEN castling field, so a failing row shows the whole position.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fenbridge/error.h"
#include "fenbridge/fen.h"
#include "fenbridge/game.h"
#include "fenbridge/variant.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

#define H FB_HSIDE
#define A FB_ASIDE
#define NO (-1)
#define W FB_WHITE
#define B FB_BLACK

/* A FEN from a placement field, side to move and castling field. */
#define POS(board, side, rights) board " " side " " rights " - 0 1"

#define START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
/* The standard start with the back ranks cleared between king and rooks. */
#define CLEAR "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R"
#define SPARSE "r3k2r/8/8/8/8/8/8/R3K2R"
/* 10x8 (Capablanca family): king on f, rooks on a and j, cleared. */
#define CAPA "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR"
#define CAPA_CLEAR "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R"
/* Chess960 starts (KQkq), named by king file and castling rook files. */
#define C960_F_EG "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN"
#define C960_B_AH "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R"
#define C960_G_AH "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR"
#define C960_F_AG "r4kr1/pppppppp/8/8/8/8/PPPPPPPP/R4KR1"
#define C960_F_AH "r4k1r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R"
#define C960_D_CH "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/2RK3R"
#define C960_E_AF "r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R3KR2"
#define C960_C_AH "r1k4r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R"
/* The X-FEN definition's example: white rooks g1 and h1, g1 holds the
 * king-side right (inner rook); h1 is a rook without rights. */
#define XEX "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR"
/* Two white rooks on the a-side; the inner b1 rook holds the right. */
#define INNER_A "r3k3/8/8/8/8/8/8/RR2K3"

#define BOARD_CAP 128

/* Sets g from a FEN that must parse cleanly (no dropped rights). */
static void
setup(struct fb_game *g, const char *fen)
{
	struct fb_fen parsed;
	struct fb_fen_report rep;
	int rc = fb_fen_parse(&parsed, fen, strlen(fen), &rep);

	if (rc != 0 || rep.ndiag != 0)
		fail_msg("FEN '%s': fb_fen_parse returned %d with %u warnings",
			 fen, rc, rep.ndiag);
	*g = parsed.pos;
}

static int
parse(const struct fb_game *g, const char *text, struct fb_move *m)
{
	return fb_game_parse_move(g, text, strlen(text), m);
}

/* Writes square file/rank as "e1" (or "??" when off the board) to out[3]. */
static const char *
square(int file, int rank, char *out)
{
	if (file < 0 || file >= FB_FEN_MAX_FILES || rank < 0 ||
	    rank >= FB_FEN_RANKS) {
		strcpy(out, "??");
	} else {
		out[0] = (char)('a' + file);
		out[1] = (char)('1' + rank);
		out[2] = '\0';
	}
	return out;
}

/* Writes g's board as a FEN placement field to out[BOARD_CAP]. */
static const char *
placement(const struct fb_game *g, char *out)
{
	size_t n = 0;

	for (int r = FB_FEN_RANKS - 1; r >= 0; r--) {
		int empty = 0;
		for (int f = 0; f < (int)g->width; f++) {
			char p = g->board[r][f];
			if (p == 0) {
				empty++;
				continue;
			}
			if (empty > 0)
				n += (size_t)snprintf(out + n, BOARD_CAP - n,
						      "%d", empty);
			empty = 0;
			out[n++] = p;
		}
		if (empty > 0)
			n += (size_t)snprintf(out + n, BOARD_CAP - n, "%d",
					      empty);
		if (r > 0)
			out[n++] = '/';
	}
	out[n] = '\0';
	return out;
}

/* Writes g's rights as a Shredder-FEN castling field to out[6]. */
static const char *
rights(const struct fb_game *g, char *out)
{
	size_t n = 0;

	for (int c = 0; c < 2; c++)
		for (int w = 0; w < 2; w++)
			if (g->castle[c][w] >= 0)
				out[n++] = (char)((c == FB_WHITE ? 'A' : 'a') +
						  g->castle[c][w]);
	if (n == 0)
		out[n++] = '-';
	out[n] = '\0';
	return out;
}

/* Parses and plays each space-separated move of moves in g; every move must
 * parse. */
static void
play_line(struct fb_game *g, const char *moves)
{
	const char *p = moves;

	while (*p != '\0') {
		struct fb_move m;
		size_t len = strcspn(p, " ");
		int rc = fb_game_parse_move(g, p, len, &m);

		if (rc != 0)
			fail_msg("'%.*s' of '%s' does not parse: %d", (int)len,
				 p, moves, rc);
		fb_game_play(g, &m);
		p += len;
		while (*p == ' ')
			p++;
	}
}

/* Expects g to hold board, rights, side to move and e.p. file. */
static void
expect_position(const char *what, const struct fb_game *g, const char *board,
		const char *want_rights, int side, int ep_file)
{
	char got_board[BOARD_CAP], got_rights[6];

	placement(g, got_board);
	rights(g, got_rights);
	if (strcmp(got_board, board) != 0 ||
	    strcmp(got_rights, want_rights) != 0 || g->side != side ||
	    g->ep_file != ep_file)
		fail_msg("%s: got %s %s side %d ep %d, want %s %s side %d "
			 "ep %d",
			 what, got_board, got_rights, g->side, g->ep_file,
			 board, want_rights, side, ep_file);
}

struct recog_case {
	const char *fen;
	const char *move;
	int castle;       /* H, A or NO */
	const char *from; /* expected m.from square */
	const char *to;   /* expected m.to square: the rook's when castling */
};

static void
check_recog(const struct recog_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct recog_case *c = &cases[i];
		struct fb_game g;
		struct fb_move m;
		char from[3], to[3];
		int rc;

		setup(&g, c->fen);
		rc = parse(&g, c->move, &m);
		if (rc != 0)
			fail_msg("row %zu: '%s' in '%s': returned %d", i,
				 c->move, c->fen, rc);
		square(m.from_file, m.from_rank, from);
		square(m.to_file, m.to_rank, to);
		if (m.castle != c->castle || strcmp(from, c->from) != 0 ||
		    strcmp(to, c->to) != 0 || m.null || m.promo != 0)
			fail_msg("row %zu: '%s' in '%s': castle %d %s-%s "
				 "(null %d promo %d), want castle %d %s-%s",
				 i, c->move, c->fen, m.castle, from, to,
				 (int)m.null, m.promo, c->castle, c->from,
				 c->to);
	}
}

static void
test_game_recognises_castling_standard(void **state)
{
	static const struct recog_case cases[] = {
		/* White: king takes rook, king move, O-O in all spellings. */
		{POS(CLEAR, "w", "KQkq"), "e1h1", H, "e1", "h1"},
		{POS(CLEAR, "w", "KQkq"), "e1a1", A, "e1", "a1"},
		{POS(CLEAR, "w", "KQkq"), "e1g1", H, "e1", "h1"},
		{POS(CLEAR, "w", "KQkq"), "e1c1", A, "e1", "a1"},
		{POS(CLEAR, "w", "KQkq"), "O-O", H, "e1", "h1"},
		{POS(CLEAR, "w", "KQkq"), "O-O-O", A, "e1", "a1"},
		{POS(CLEAR, "w", "KQkq"), "0-0", H, "e1", "h1"},
		{POS(CLEAR, "w", "KQkq"), "0-0-0", A, "e1", "a1"},
		{POS(CLEAR, "w", "KQkq"), "O-O+", H, "e1", "h1"},
		{POS(CLEAR, "w", "KQkq"), "O-O-O#", A, "e1", "a1"},
		{POS(CLEAR, "w", "KQkq"), "0-0+", H, "e1", "h1"},
		{POS(CLEAR, "w", "KQkq"), "e1g1+", H, "e1", "h1"},
		{POS(CLEAR, "w", "KQkq"), "e1h1#", H, "e1", "h1"},
		/* Black. */
		{POS(CLEAR, "b", "KQkq"), "e8h8", H, "e8", "h8"},
		{POS(CLEAR, "b", "KQkq"), "e8a8", A, "e8", "a8"},
		{POS(CLEAR, "b", "KQkq"), "e8g8", H, "e8", "h8"},
		{POS(CLEAR, "b", "KQkq"), "e8c8", A, "e8", "a8"},
		{POS(CLEAR, "b", "KQkq"), "O-O", H, "e8", "h8"},
		{POS(CLEAR, "b", "KQkq"), "O-O-O", A, "e8", "a8"},
		{POS(CLEAR, "b", "KQkq"), "0-0", H, "e8", "h8"},
		{POS(CLEAR, "b", "KQkq"), "0-0-0+", A, "e8", "a8"},
		/* One right left is enough for its wing. */
		{POS(SPARSE, "w", "K"), "e1g1", H, "e1", "h1"},
		{POS(SPARSE, "w", "Q"), "e1c1", A, "e1", "a1"},
		{POS(SPARSE, "b", "k"), "O-O", H, "e8", "h8"},
		{POS(SPARSE, "b", "q"), "e8a8", A, "e8", "a8"},
	};

	(void)state;
	check_recog(cases, N_ELEMS(cases));
}

static void
test_game_recognises_castling_chess960(void **state)
{
	static const struct recog_case cases[] = {
		/* King f1, a-side rook e1, h-side rook g1. */
		{POS(C960_F_EG, "w", "KQkq"), "f1g1", H, "f1", "g1"},
		{POS(C960_F_EG, "w", "KQkq"), "f1e1", A, "f1", "e1"},
		{POS(C960_F_EG, "w", "KQkq"), "f1c1", A, "f1", "e1"},
		{POS(C960_F_EG, "w", "KQkq"), "O-O", H, "f1", "g1"},
		{POS(C960_F_EG, "w", "KQkq"), "O-O-O", A, "f1", "e1"},
		{POS(C960_F_EG, "b", "KQkq"), "f8g8", H, "f8", "g8"},
		{POS(C960_F_EG, "b", "KQkq"), "f8e8", A, "f8", "e8"},
		{POS(C960_F_EG, "b", "KQkq"), "f8c8", A, "f8", "e8"},
		{POS(C960_F_EG, "b", "KQkq"), "0-0-0", A, "f8", "e8"},
		/* King b1, rook a1: a-side castling moves the king right. */
		{POS(C960_B_AH, "w", "KQkq"), "b1a1", A, "b1", "a1"},
		{POS(C960_B_AH, "w", "KQkq"), "O-O-O", A, "b1", "a1"},
		{POS(C960_B_AH, "w", "KQkq"), "b1h1", H, "b1", "h1"},
		{POS(C960_B_AH, "w", "KQkq"), "b1g1", H, "b1", "h1"},
		{POS(C960_B_AH, "b", "KQkq"), "b8a8", A, "b8", "a8"},
		/* King g1, rook h1: only KxR or O-O can say it. */
		{POS(C960_G_AH, "w", "KQkq"), "g1h1", H, "g1", "h1"},
		{POS(C960_G_AH, "w", "KQkq"), "O-O", H, "g1", "h1"},
		{POS(C960_G_AH, "w", "KQkq"), "g1a1", A, "g1", "a1"},
		{POS(C960_G_AH, "w", "KQkq"), "g1c1", A, "g1", "a1"},
		{POS(C960_G_AH, "b", "KQkq"), "g8h8", H, "g8", "h8"},
		/* King f1, rook g1: KxR and the king's move are one string. */
		{POS(C960_F_AG, "w", "KQkq"), "f1g1", H, "f1", "g1"},
		{POS(C960_F_AG, "w", "KQkq"), "f1c1", A, "f1", "a1"},
		{POS(C960_F_AG, "b", "KQkq"), "f8g8", H, "f8", "g8"},
		/* King d1, rook c1: likewise on the a-side. */
		{POS(C960_D_CH, "w", "KQkq"), "d1c1", A, "d1", "c1"},
		{POS(C960_D_CH, "w", "KQkq"), "d1g1", H, "d1", "h1"},
		{POS(C960_D_CH, "b", "KQkq"), "O-O-O", A, "d8", "c8"},
		/* King e1, rook f1: the rook stays where it is. */
		{POS(C960_E_AF, "w", "KQkq"), "e1f1", H, "e1", "f1"},
		{POS(C960_E_AF, "w", "KQkq"), "e1g1", H, "e1", "f1"},
		/* King c1 already on its a-side target. */
		{POS(C960_C_AH, "w", "KQkq"), "c1a1", A, "c1", "a1"},
		{POS(C960_C_AH, "w", "KQkq"), "O-O-O", A, "c1", "a1"},
		/* Inner rooks: the right is on g1 (h1 has none), on b1 (a1
		 * has none); king notation means the rook with the right. */
		{POS(XEX, "w", "Gkq"), "e1g1", H, "e1", "g1"},
		{POS(XEX, "w", "Gkq"), "O-O", H, "e1", "g1"},
		{POS(XEX, "b", "Gkq"), "e8g8", H, "e8", "g8"},
		{POS(XEX, "b", "Gkq"), "e8c8", A, "e8", "a8"},
		{POS(INNER_A, "w", "Bq"), "e1b1", A, "e1", "b1"},
		{POS(INNER_A, "w", "Bq"), "e1c1", A, "e1", "b1"},
		{POS(INNER_A, "w", "Bq"), "O-O-O", A, "e1", "b1"},
	};

	(void)state;
	check_recog(cases, N_ELEMS(cases));
}

static void
test_game_recognises_castling_10x8(void **state)
{
	static const struct recog_case cases[] = {
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1j1", H, "f1", "j1"},
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1i1", H, "f1", "j1"},
		{POS(CAPA_CLEAR, "w", "KQkq"), "O-O", H, "f1", "j1"},
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1a1", A, "f1", "a1"},
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1c1", A, "f1", "a1"},
		{POS(CAPA_CLEAR, "w", "KQkq"), "O-O-O", A, "f1", "a1"},
		{POS(CAPA_CLEAR, "b", "KQkq"), "f8j8", H, "f8", "j8"},
		{POS(CAPA_CLEAR, "b", "KQkq"), "f8i8", H, "f8", "j8"},
		{POS(CAPA_CLEAR, "b", "KQkq"), "f8c8", A, "f8", "a8"},
		{POS(CAPA_CLEAR, "b", "KQkq"), "0-0", H, "f8", "j8"},
		/* On 10x8 the king lands on i, not g: these are king moves. */
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1h1", NO, "f1", "h1"},
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1g1", NO, "f1", "g1"},
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1d1", NO, "f1", "d1"},
	};

	(void)state;
	check_recog(cases, N_ELEMS(cases));
}

static void
test_game_not_castling(void **state)
{
	static const struct recog_case cases[] = {
		/* King steps along and off the back rank. */
		{POS(CLEAR, "w", "KQkq"), "e1f1", NO, "e1", "f1"},
		{POS(CLEAR, "w", "KQkq"), "e1d1", NO, "e1", "d1"},
		{POS(SPARSE, "w", "KQkq"), "e1e2", NO, "e1", "e2"},
		{POS(SPARSE, "w", "KQkq"), "e1f2", NO, "e1", "f2"},
		{POS(CLEAR, "b", "KQkq"), "e8f8", NO, "e8", "f8"},
		{POS(SPARSE, "b", "KQkq"), "e8d7", NO, "e8", "d7"},
		/* A king off its back rank moving two files is no castling. */
		{POS("r3k2r/8/8/8/8/8/4K3/R6R", "w", "-"), "e2g2", NO, "e2",
		 "g2"},
		{POS("r6r/4k3/8/8/8/8/8/R3K2R", "b", "KQ"), "e7c7", NO, "e7",
		 "c7"},
		/* The white king on Black's back rank is not on its own. */
		{POS("r3K2r/8/8/8/8/8/8/R6k", "w", "-"), "e8g8", NO, "e8",
		 "g8"},
		/* King move to the castling square without that right. */
		{POS(SPARSE, "w", "Qkq"), "e1g1", NO, "e1", "g1"},
		{POS(SPARSE, "w", "Kkq"), "e1c1", NO, "e1", "c1"},
		{POS(SPARSE, "b", "KQq"), "e8g8", NO, "e8", "g8"},
		{POS(SPARSE, "w", "-"), "e1g1", NO, "e1", "g1"},
		/* A rook move, also along the back rank next to the king. */
		{POS(CLEAR, "w", "KQkq"), "h1g1", NO, "h1", "g1"},
		{POS(CLEAR, "w", "KQkq"), "a1d1", NO, "a1", "d1"},
		{POS(CLEAR, "b", "KQkq"), "h8f8", NO, "h8", "f8"},
		/* The king onto an own rook without the right: an ordinary
		 * (illegal) capture, never castling. */
		{POS(SPARSE, "w", "Qkq"), "e1h1", NO, "e1", "h1"},
		{POS(SPARSE, "w", "Kkq"), "e1a1", NO, "e1", "a1"},
		{POS(SPARSE, "b", "KQk"), "e8a8", NO, "e8", "a8"},
		{POS(XEX, "w", "Gkq"), "e1h1", NO, "e1", "h1"},
		{POS(INNER_A, "w", "Bq"), "e1a1", NO, "e1", "a1"},
		/* Chess960: a king step that only looks like castling. */
		{POS(C960_B_AH, "w", "KQkq"), "b1c1", NO, "b1", "c1"},
		{POS(C960_G_AH, "w", "KQkq"), "g1f1", NO, "g1", "f1"},
		{POS(C960_F_AH, "w", "KQkq"), "f1g1", NO, "f1", "g1"},
		{POS(C960_F_EG, "w", "KQkq"), "f1g2", NO, "f1", "g2"},
	};
	struct fb_game g;
	struct fb_move m;

	(void)state;
	check_recog(cases, N_ELEMS(cases));

	/* A king move with a promotion letter is not castling. */
	setup(&g, POS(SPARSE, "w", "KQkq"));
	assert_int_equal(parse(&g, "e1g1q", &m), 0);
	assert_int_equal(m.castle, -1);
	assert_int_equal(m.promo, 'q');
	assert_int_equal(m.to_file, 6);
}

struct invalid_case {
	const char *fen;
	const char *move;
};

static void
test_game_oo_without_right_is_invalid(void **state)
{
	static const struct invalid_case cases[] = {
		{POS(CLEAR, "w", "Qkq"), "O-O"},
		{POS(CLEAR, "w", "Qkq"), "0-0+"},
		{POS(CLEAR, "w", "Kkq"), "O-O-O"},
		{POS(CLEAR, "w", "-"), "O-O"},
		{POS(CLEAR, "w", "-"), "0-0-0"},
		/* Black to move: White's rights do not count. */
		{POS(CLEAR, "b", "KQ"), "O-O"},
		{POS(CLEAR, "b", "KQk"), "O-O-O"},
		{POS(INNER_A, "w", "Bq"), "O-O"},
		{POS(CAPA_CLEAR, "w", "Qkq"), "O-O"},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		struct fb_game g;
		struct fb_move m;
		int rc;

		setup(&g, cases[i].fen);
		rc = parse(&g, cases[i].move, &m);
		if (rc != FB_EINVAL)
			fail_msg("row %zu: '%s' in '%s' returned %d, want "
				 "FB_EINVAL",
				 i, cases[i].move, cases[i].fen, rc);
	}
}

static void
test_game_garbage_tokens_invalid(void **state)
{
	static const char *const tokens[] = {
		"",         "e",        "e2",    "e2e",     "e2e9",  "e0e1",
		"e2e0",     "k1k2",     "i1i2",  "e7e8x",   "e7e8k", "e7e8p",
		"e2e4e",    "e7e8qq",   "e7e8=", "e7e8==Q", "e2e4 ", " e2e4",
		"E2E4",     "e2-e4",    "e2xe4", "O-0",     "0-O",   "o-o",
		"OO",       "O-",       "O-O-",  "O-O-O-O", "O-O-0", "-",
		"+",        "#",        "000",   "00000",   "0000+", "e2e4+q",
		"\xff\xfe", "e2e4\xe9",
	};
	static const char *const fens[] = {
		POS(START, "w", "KQkq"),
		POS(CLEAR, "b", "KQkq"),
	};
	char big[200];
	struct fb_game g;
	struct fb_move m;

	(void)state;
	for (size_t f = 0; f < N_ELEMS(fens); f++) {
		setup(&g, fens[f]);
		for (size_t i = 0; i < N_ELEMS(tokens); i++) {
			int rc = parse(&g, tokens[i], &m);
			if (rc != FB_EINVAL)
				fail_msg("'%s' in '%s' returned %d, want "
					 "FB_EINVAL",
					 tokens[i], fens[f], rc);
		}
	}

	/* 200-byte tokens: a move followed by junk, repeated castling, and
	 * plain letters; none is NUL-terminated. */
	memset(big, 'q', sizeof big);
	memcpy(big, "e7e8", 4);
	assert_int_equal(fb_game_parse_move(&g, big, sizeof big, &m),
			 FB_EINVAL);
	memset(big, 'O', sizeof big);
	assert_int_equal(fb_game_parse_move(&g, big, sizeof big, &m),
			 FB_EINVAL);
	for (size_t i = 0; i + 1 < sizeof big; i += 2)
		memcpy(big + i, "O-", 2);
	assert_int_equal(fb_game_parse_move(&g, big, sizeof big, &m),
			 FB_EINVAL);
	memset(big, 'e', sizeof big);
	assert_int_equal(fb_game_parse_move(&g, big, sizeof big, &m),
			 FB_EINVAL);

	/* A NUL inside the token is a byte like any other. */
	assert_int_equal(fb_game_parse_move(&g, "e2\0e4", 5, &m), FB_EINVAL);
	assert_int_equal(fb_game_parse_move(&g, "e2e4\0", 5, &m), FB_EINVAL);

	/* File letters beyond the board: j is on 10x8 only, k never. */
	setup(&g, POS(CAPA, "w", "KQkq"));
	assert_int_equal(parse(&g, "k1k2", &m), FB_EINVAL);
	assert_int_equal(parse(&g, "j2j9", &m), FB_EINVAL);
	assert_int_equal(parse(&g, "j2j4", &m), 0);
	assert_int_equal(m.from_file, 9);
	assert_int_equal(m.to_rank, 3);
}

static void
test_game_parse_move_spellings(void **state)
{
	static const struct {
		const char *move;
		const char *from, *to;
		char promo;
		bool null;
	} cases[] = {
		{"e2e4", "e2", "e4", 0, false},
		{"e2e4+", "e2", "e4", 0, false},
		{"e2e4#", "e2", "e4", 0, false},
		{"a7a8q", "a7", "a8", 'q', false},
		{"a7a8Q", "a7", "a8", 'Q', false},
		{"a7a8=Q", "a7", "a8", 'Q', false},
		{"a7a8=n+", "a7", "a8", 'n', false},
		{"a7b8r", "a7", "b8", 'r', false},
		{"a7a8b", "a7", "a8", 'b', false},
		{"h2h1N", "h2", "h1", 'N', false},
		{"0000", "a1", "a1", 0, true},
	};
	struct fb_game g;

	(void)state;
	setup(&g, POS("4k3/P7/8/8/8/8/7p/4K3", "w", "-"));
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		struct fb_move m;
		char from[3], to[3];
		int rc = parse(&g, cases[i].move, &m);

		if (rc != 0)
			fail_msg("'%s' returned %d", cases[i].move, rc);
		square(m.from_file, m.from_rank, from);
		square(m.to_file, m.to_rank, to);
		if (strcmp(from, cases[i].from) != 0 ||
		    strcmp(to, cases[i].to) != 0 || m.promo != cases[i].promo ||
		    m.null != cases[i].null || m.castle != -1)
			fail_msg("'%s': %s-%s promo %d null %d castle %d",
				 cases[i].move, from, to, m.promo, (int)m.null,
				 m.castle);
	}
}

/* Only text[0..len) is read: the rest of a protocol line is not the move. */
static void
test_game_parse_reads_only_len(void **state)
{
	static const char line[] = "e1g1 e8g8";
	struct fb_game g;
	struct fb_move m;

	(void)state;
	setup(&g, POS(CLEAR, "w", "KQkq"));
	assert_int_equal(fb_game_parse_move(&g, line, 4, &m), 0);
	assert_int_equal(m.castle, H);
	assert_int_equal(m.to_file, 7);
	assert_int_equal(fb_game_parse_move(&g, "O-O-O", 3, &m), 0);
	assert_int_equal(m.castle, H);
	assert_int_equal(fb_game_parse_move(&g, "e7e8q", 4, &m), 0);
	assert_int_equal(m.promo, 0);
	assert_int_equal(fb_game_parse_move(&g, "0000e2", 4, &m), 0);
	assert_true(m.null);
}

struct print_case {
	const char *fen;
	const char *move;
	enum fb_castle_notation n;
	const char *want; /* NULL: FB_EINVAL */
};

static const char *
notation_name(enum fb_castle_notation n)
{
	return n == FB_CASTLE_KXR ? "kxr" : n == FB_CASTLE_KING ? "king" : "oo";
}

static void
test_game_print_castle_notations(void **state)
{
	static const struct print_case cases[] = {
		/* 8x8 standard, every input notation to every output. */
		{POS(CLEAR, "w", "KQkq"), "e1h1", FB_CASTLE_KXR, "e1h1"},
		{POS(CLEAR, "w", "KQkq"), "e1h1", FB_CASTLE_KING, "e1g1"},
		{POS(CLEAR, "w", "KQkq"), "e1h1", FB_CASTLE_OO, "O-O"},
		{POS(CLEAR, "w", "KQkq"), "e1g1", FB_CASTLE_KXR, "e1h1"},
		{POS(CLEAR, "w", "KQkq"), "e1g1", FB_CASTLE_KING, "e1g1"},
		{POS(CLEAR, "w", "KQkq"), "e1g1", FB_CASTLE_OO, "O-O"},
		{POS(CLEAR, "w", "KQkq"), "O-O", FB_CASTLE_KXR, "e1h1"},
		{POS(CLEAR, "w", "KQkq"), "0-0+", FB_CASTLE_KING, "e1g1"},
		{POS(CLEAR, "w", "KQkq"), "0-0", FB_CASTLE_OO, "O-O"},
		{POS(CLEAR, "w", "KQkq"), "e1a1", FB_CASTLE_KXR, "e1a1"},
		{POS(CLEAR, "w", "KQkq"), "e1a1", FB_CASTLE_KING, "e1c1"},
		{POS(CLEAR, "w", "KQkq"), "e1a1", FB_CASTLE_OO, "O-O-O"},
		{POS(CLEAR, "w", "KQkq"), "e1c1", FB_CASTLE_KXR, "e1a1"},
		{POS(CLEAR, "w", "KQkq"), "O-O-O", FB_CASTLE_KING, "e1c1"},
		{POS(CLEAR, "w", "KQkq"), "0-0-0", FB_CASTLE_OO, "O-O-O"},
		{POS(CLEAR, "b", "KQkq"), "e8h8", FB_CASTLE_KING, "e8g8"},
		{POS(CLEAR, "b", "KQkq"), "e8g8", FB_CASTLE_KXR, "e8h8"},
		{POS(CLEAR, "b", "KQkq"), "e8g8", FB_CASTLE_OO, "O-O"},
		{POS(CLEAR, "b", "KQkq"), "O-O-O", FB_CASTLE_KXR, "e8a8"},
		{POS(CLEAR, "b", "KQkq"), "O-O-O", FB_CASTLE_KING, "e8c8"},
		{POS(CLEAR, "b", "KQkq"), "e8a8", FB_CASTLE_OO, "O-O-O"},
		/* 10x8: the king castles to i and c. */
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1j1", FB_CASTLE_KING, "f1i1"},
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1i1", FB_CASTLE_KXR, "f1j1"},
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1i1", FB_CASTLE_OO, "O-O"},
		{POS(CAPA_CLEAR, "w", "KQkq"), "O-O", FB_CASTLE_KXR, "f1j1"},
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1a1", FB_CASTLE_KING, "f1c1"},
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1c1", FB_CASTLE_KXR, "f1a1"},
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1c1", FB_CASTLE_OO, "O-O-O"},
		{POS(CAPA_CLEAR, "b", "KQkq"), "f8j8", FB_CASTLE_KING, "f8i8"},
		{POS(CAPA_CLEAR, "b", "KQkq"), "O-O", FB_CASTLE_KXR, "f8j8"},
		{POS(CAPA_CLEAR, "b", "KQkq"), "O-O-O", FB_CASTLE_KING, "f8c8"},
		{POS(CAPA_CLEAR, "b", "KQkq"), "f8c8", FB_CASTLE_KXR, "f8a8"},
		/* Chess960, king f1, rooks e1 and g1. */
		{POS(C960_F_EG, "w", "KQkq"), "O-O-O", FB_CASTLE_KXR, "f1e1"},
		{POS(C960_F_EG, "w", "KQkq"), "f1e1", FB_CASTLE_KING, "f1c1"},
		{POS(C960_F_EG, "w", "KQkq"), "f1c1", FB_CASTLE_OO, "O-O-O"},
		{POS(C960_F_EG, "b", "KQkq"), "O-O", FB_CASTLE_KXR, "f8g8"},
		/* King b1, rook a1: b1c1 would be a king step. */
		{POS(C960_B_AH, "w", "KQkq"), "b1a1", FB_CASTLE_KXR, "b1a1"},
		{POS(C960_B_AH, "w", "KQkq"), "b1a1", FB_CASTLE_KING, NULL},
		{POS(C960_B_AH, "w", "KQkq"), "b1a1", FB_CASTLE_OO, "O-O-O"},
		{POS(C960_B_AH, "w", "KQkq"), "O-O-O", FB_CASTLE_KING, NULL},
		{POS(C960_B_AH, "w", "KQkq"), "b1h1", FB_CASTLE_KING, "b1g1"},
		{POS(C960_B_AH, "b", "KQkq"), "O-O-O", FB_CASTLE_KXR, "b8a8"},
		/* King g1, rook h1: the king does not move. */
		{POS(C960_G_AH, "w", "KQkq"), "g1h1", FB_CASTLE_KXR, "g1h1"},
		{POS(C960_G_AH, "w", "KQkq"), "g1h1", FB_CASTLE_KING, NULL},
		{POS(C960_G_AH, "w", "KQkq"), "O-O", FB_CASTLE_KING, NULL},
		{POS(C960_G_AH, "w", "KQkq"), "g1h1", FB_CASTLE_OO, "O-O"},
		{POS(C960_G_AH, "w", "KQkq"), "g1a1", FB_CASTLE_KING, "g1c1"},
		{POS(C960_G_AH, "b", "KQkq"), "O-O", FB_CASTLE_KXR, "g8h8"},
		/* King f1, rook h1: f1g1 would be a king step. */
		{POS(C960_F_AH, "w", "KQkq"), "f1h1", FB_CASTLE_KING, NULL},
		{POS(C960_F_AH, "w", "KQkq"), "O-O", FB_CASTLE_KXR, "f1h1"},
		/* King f1, rook g1 (and king d1, rook c1): the king's move
		 * lands on the castling rook, so both notations are the same
		 * string and no king step can be meant. */
		{POS(C960_F_AG, "w", "KQkq"), "f1g1", FB_CASTLE_KXR, "f1g1"},
		{POS(C960_F_AG, "w", "KQkq"), "f1g1", FB_CASTLE_KING, "f1g1"},
		{POS(C960_F_AG, "w", "KQkq"), "O-O", FB_CASTLE_KING, "f1g1"},
		{POS(C960_F_AG, "w", "KQkq"), "f1g1", FB_CASTLE_OO, "O-O"},
		{POS(C960_F_AG, "b", "KQkq"), "O-O", FB_CASTLE_KING, "f8g8"},
		{POS(C960_F_EG, "w", "KQkq"), "O-O", FB_CASTLE_KING, "f1g1"},
		{POS(C960_D_CH, "w", "KQkq"), "O-O-O", FB_CASTLE_KING, "d1c1"},
		{POS(C960_D_CH, "w", "KQkq"), "d1c1", FB_CASTLE_KXR, "d1c1"},
		/* King c1 already on its a-side square. */
		{POS(C960_C_AH, "w", "KQkq"), "c1a1", FB_CASTLE_KING, NULL},
		{POS(C960_C_AH, "w", "KQkq"), "O-O-O", FB_CASTLE_KXR, "c1a1"},
		/* King e1, rook f1: the king goes two files to g1. */
		{POS(C960_E_AF, "w", "KQkq"), "e1f1", FB_CASTLE_KING, "e1g1"},
		{POS(C960_E_AF, "w", "KQkq"), "O-O", FB_CASTLE_KXR, "e1f1"},
		/* Inner rooks. */
		{POS(XEX, "w", "Gkq"), "O-O", FB_CASTLE_KXR, "e1g1"},
		{POS(XEX, "w", "Gkq"), "e1g1", FB_CASTLE_KING, "e1g1"},
		{POS(XEX, "w", "Gkq"), "e1g1", FB_CASTLE_OO, "O-O"},
		{POS(INNER_A, "w", "Bq"), "e1c1", FB_CASTLE_KXR, "e1b1"},
		{POS(INNER_A, "w", "Bq"), "e1b1", FB_CASTLE_KING, "e1c1"},
		{POS(INNER_A, "w", "Bq"), "O-O-O", FB_CASTLE_KXR, "e1b1"},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		const struct print_case *c = &cases[i];
		struct fb_game g;
		struct fb_move m;
		char out[16];
		int len;

		setup(&g, c->fen);
		if (parse(&g, c->move, &m) != 0 || m.castle < 0)
			fail_msg("row %zu: '%s' in '%s' is not castling", i,
				 c->move, c->fen);
		memset(out, '#', sizeof out);
		len = fb_game_print_castle(&g, &m, c->n, out, sizeof out);
		if (c->want == NULL) {
			if (len != FB_EINVAL)
				fail_msg("row %zu: '%s' in '%s' as %s: "
					 "returned %d '%.*s', want FB_EINVAL",
					 i, c->move, c->fen,
					 notation_name(c->n), len,
					 len > 0 ? len : 0, out);
			continue;
		}
		if (len != (int)strlen(c->want) ||
		    memcmp(out, c->want, (size_t)len) != 0 || out[len] != '#')
			fail_msg("row %zu: '%s' in '%s' as %s: returned %d "
				 "'%.*s', want '%s'",
				 i, c->move, c->fen, notation_name(c->n), len,
				 len > 0 ? len : 0, out, c->want);
	}
}

static void
test_game_print_castle_errors(void **state)
{
	struct fb_game g;
	struct fb_move m;
	char out[8];

	(void)state;
	setup(&g, POS(CLEAR, "w", "KQkq"));

	/* Not a castling move: nothing to write in any notation. */
	assert_int_equal(parse(&g, "e1f1", &m), 0);
	assert_int_equal(fb_game_print_castle(&g, &m, FB_CASTLE_KXR, out, 8),
			 FB_EINVAL);
	assert_int_equal(fb_game_print_castle(&g, &m, FB_CASTLE_KING, out, 8),
			 FB_EINVAL);
	assert_int_equal(fb_game_print_castle(&g, &m, FB_CASTLE_OO, out, 8),
			 FB_EINVAL);

	/* Too small a buffer: FB_ENOSPC and nothing written; exact fits. */
	assert_int_equal(parse(&g, "O-O-O", &m), 0);
	memset(out, '#', sizeof out);
	assert_int_equal(fb_game_print_castle(&g, &m, FB_CASTLE_OO, out, 4),
			 FB_ENOSPC);
	assert_int_equal(fb_game_print_castle(&g, &m, FB_CASTLE_KXR, out, 3),
			 FB_ENOSPC);
	assert_int_equal(fb_game_print_castle(&g, &m, FB_CASTLE_KING, out, 0),
			 FB_ENOSPC);
	assert_memory_equal(out, "########", 8);
	assert_int_equal(fb_game_print_castle(&g, &m, FB_CASTLE_OO, out, 5), 5);
	assert_memory_equal(out, "O-O-O###", 8);
	assert_int_equal(parse(&g, "O-O", &m), 0);
	assert_int_equal(fb_game_print_castle(&g, &m, FB_CASTLE_OO, out, 3), 3);
	assert_int_equal(fb_game_print_castle(&g, &m, FB_CASTLE_KXR, out, 4),
			 4);
	assert_memory_equal(out, "e1h1O###", 8);
}

struct play_case {
	const char *fen;
	const char *moves;
	const char *board;  /* placement field afterwards */
	const char *rights; /* Shredder-FEN castling field afterwards */
	int side;
	int ep_file;
};

static void
check_play(const struct play_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct play_case *c = &cases[i];
		struct fb_game g;
		char what[160];

		setup(&g, c->fen);
		play_line(&g, c->moves);
		snprintf(what, sizeof what, "row %zu: '%s' from '%s'", i,
			 c->moves, c->fen);
		expect_position(what, &g, c->board, c->rights, c->side,
				c->ep_file);
	}
}

static void
test_game_play_castling_targets(void **state)
{
	static const struct play_case cases[] = {
		/* 8x8: king g/c, rook f/d, whatever the notation. */
		{POS(CLEAR, "w", "KQkq"), "e1g1",
		 "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1", "ha", B, -1},
		{POS(CLEAR, "w", "KQkq"), "e1h1",
		 "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1", "ha", B, -1},
		{POS(CLEAR, "w", "KQkq"), "O-O",
		 "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1", "ha", B, -1},
		{POS(CLEAR, "w", "KQkq"), "e1c1",
		 "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R", "ha", B, -1},
		{POS(CLEAR, "w", "KQkq"), "e1a1",
		 "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R", "ha", B, -1},
		{POS(CLEAR, "w", "KQkq"), "0-0-0",
		 "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R", "ha", B, -1},
		{POS(CLEAR, "b", "KQkq"), "e8g8",
		 "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R3K2R", "HA", W, -1},
		{POS(CLEAR, "b", "KQkq"), "e8h8",
		 "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R3K2R", "HA", W, -1},
		{POS(CLEAR, "b", "KQkq"), "O-O-O",
		 "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R", "HA", W, -1},
		{POS(CLEAR, "b", "KQkq"), "e8c8",
		 "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R", "HA", W, -1},
		{POS(CLEAR, "w", "KQkq"), "e1g1 e8c8",
		 "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1", "-", W, -1},
		/* Castling clears an e.p. file. */
		{POS(CLEAR, "w", "KQkq"), "a2a4 e8g8",
		 "r4rk1/pppppppp/8/8/P7/8/1PPPPPPP/R3K2R", "HA", W, -1},
		/* 10x8: king i/c, rook h/d. */
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1i1",
		 "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R6RK1", "ja", B, -1},
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1j1",
		 "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R6RK1", "ja", B, -1},
		{POS(CAPA_CLEAR, "w", "KQkq"), "f1c1",
		 "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/2KR5R", "ja", B, -1},
		{POS(CAPA_CLEAR, "w", "KQkq"), "O-O-O",
		 "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/2KR5R", "ja", B, -1},
		{POS(CAPA_CLEAR, "b", "KQkq"), "O-O",
		 "r6rk1/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R", "JA", W, -1},
		{POS(CAPA_CLEAR, "b", "KQkq"), "f8a8",
		 "2kr5r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R", "JA", W, -1},
		/* Chess960: targets overlapping start squares. */
		{POS(C960_B_AH, "w", "KQkq"), "b1a1",
		 "rk5r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R", "ha", B, -1},
		{POS(C960_B_AH, "w", "KQkq"), "b1h1",
		 "rk5r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1", "ha", B, -1},
		{POS(C960_G_AH, "w", "KQkq"), "g1h1",
		 "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R4RK1", "ha", B, -1},
		{POS(C960_G_AH, "w", "KQkq"), "O-O-O",
		 "r5kr/pppppppp/8/8/8/8/PPPPPPPP/2KR3R", "ha", B, -1},
		{POS(C960_F_AG, "w", "KQkq"), "f1g1",
		 "r4kr1/pppppppp/8/8/8/8/PPPPPPPP/R4RK1", "ga", B, -1},
		{POS(C960_F_AG, "b", "KQkq"), "O-O",
		 "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R4KR1", "GA", W, -1},
		{POS(C960_D_CH, "w", "KQkq"), "d1c1",
		 "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R", "hc", B, -1},
		{POS(C960_E_AF, "w", "KQkq"), "e1f1",
		 "r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R4RK1", "fa", B, -1},
		{POS(C960_E_AF, "w", "KQkq"), "e1g1",
		 "r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R4RK1", "fa", B, -1},
		{POS(C960_C_AH, "w", "KQkq"), "c1a1",
		 "r1k4r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R", "ha", B, -1},
		{POS(C960_F_EG, "w", "KQkq"), "f1g1",
		 "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRRKN", "ge", B, -1},
		/* Inner rooks: the rook with the right moves, the other
		 * stays. */
		{POS(XEX, "w", "Gkq"), "e1g1",
		 "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BN1RKR", "ga",
		 B, -1},
		{POS(INNER_A, "w", "Bq"), "O-O-O", "r3k3/8/8/8/8/8/8/R1KR4",
		 "a", B, -1},
	};

	(void)state;
	check_play(cases, N_ELEMS(cases));
}

static void
test_game_play_loses_rights(void **state)
{
	static const struct play_case cases[] = {
		/* The king moves, and comes back. */
		{POS(SPARSE, "w", "KQkq"), "e1e2", "r3k2r/8/8/8/8/8/4K3/R6R",
		 "ha", B, -1},
		{POS(SPARSE, "w", "KQkq"), "e1f1 e8d8 f1e1",
		 "r2k3r/8/8/8/8/8/8/R3K2R", "-", B, -1},
		/* A castling rook moves, and comes back. */
		{POS(SPARSE, "w", "KQkq"), "h1h2", "r3k2r/8/8/8/8/8/7R/R3K3",
		 "Aha", B, -1},
		{POS(SPARSE, "w", "KQkq"), "h1g1", "r3k2r/8/8/8/8/8/8/R3K1R1",
		 "Aha", B, -1},
		{POS(SPARSE, "w", "KQkq"), "a1a2 a8a7 a2a1",
		 "4k2r/r7/8/8/8/8/8/R3K2R", "Hh", B, -1},
		{POS(SPARSE, "b", "KQkq"), "h8h5", "r3k3/8/8/7r/8/8/8/R3K2R",
		 "HAa", W, -1},
		/* A castling rook is captured (and the capturer's right goes
		 * too, as its rook left its square). */
		{POS(SPARSE, "w", "KQkq"), "h1h8", "r3k2R/8/8/8/8/8/8/R3K3",
		 "Aa", B, -1},
		{POS(SPARSE, "b", "KQkq"), "a8a1", "4k2r/8/8/8/8/8/8/r3K2R",
		 "Hh", W, -1},
		{POS("r3k2r/8/8/8/8/8/6b1/R3K2R", "b", "KQkq"), "g2h1",
		 "r3k2r/8/8/8/8/8/8/R3K2b", "Aha", W, -1},
		{POS("r3k2r/6N1/8/8/8/8/8/R3K2R", "w", "KQkq"), "g7h5 a8b8",
		 "1r2k2r/8/8/7N/8/8/8/R3K2R", "HAh", W, -1},
		/* 10x8 and Chess960 rooks. */
		{POS(CAPA_CLEAR, "w", "KQkq"), "j1g1",
		 "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4KR3", "Aja", B, -1},
		{POS(C960_F_EG, "w", "KQkq"), "e2e4 e7e5 e1e3",
		 "bqnbrkrn/pppp1ppp/8/4p3/4P3/4R3/PPPP1PPP/BQNB1KRN", "Gge", B,
		 -1},
		/* Inner rooks: only the rook holding the right matters. */
		{POS(XEX, "w", "Gkq"), "h1h2",
		 "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP1R/2BNK1R1", "Gga",
		 B, -1},
		{POS(XEX, "w", "Gkq"), "g1g2",
		 "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPPR1/2BNK2R", "ga",
		 B, -1},
		{POS(INNER_A, "w", "Bq"), "a1a2", "r3k3/8/8/8/8/8/R7/1R2K3",
		 "Ba", B, -1},
		/* The king takes its own rook without the right: an ordinary
		 * capture, the rook is gone and so are the king's rights. */
		{POS(SPARSE, "w", "Qkq"), "e1h1", "r3k2r/8/8/8/8/8/8/R6K", "ha",
		 B, -1},
		{POS(XEX, "w", "Gkq"), "e1h1",
		 "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BN2RK", "ga", B,
		 -1},
	};

	(void)state;
	check_play(cases, N_ELEMS(cases));
}

static void
test_game_play_en_passant(void **state)
{
	static const struct play_case cases[] = {
		/* The capture removes the pawn that double-stepped. */
		{"4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", "d4e3",
		 "4k3/8/8/8/8/4p3/8/4K3", "-", W, -1},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6",
		 "4k3/8/3P4/8/8/8/8/4K3", "-", B, -1},
		/* An ordinary diagonal capture touches nothing else. */
		{POS("4k3/8/3p4/3pP3/8/8/8/4K3", "w", "-"), "e5d6",
		 "4k3/8/3P4/3p4/8/8/8/4K3", "-", B, -1},
		/* Double steps set the e.p. file; the next move clears it. */
		{POS(START, "w", "KQkq"), "e2e4",
		 "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", "HAha", B, 4},
		{POS(START, "w", "KQkq"), "e2e4 c7c5",
		 "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR", "HAha", W,
		 2},
		{POS(START, "w", "KQkq"), "e2e4 c7c5 g1f3",
		 "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R", "HAha", B,
		 -1},
		{POS(START, "w", "KQkq"), "e2e3",
		 "rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR", "HAha", B,
		 -1},
		/* A whole sequence: e4 ... d5 e5 f5 exf6. */
		{POS(START, "w", "KQkq"), "e2e4 d7d5 e4e5 f7f5 e5f6",
		 "rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR", "HAha", B,
		 -1},
	};
	struct fb_game g;

	(void)state;
	check_play(cases, N_ELEMS(cases));

	/* fb_fen_parse reads the e.p. file from the FEN. */
	setup(&g, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
	assert_int_equal(g.ep_file, 3);
	setup(&g, POS(START, "w", "KQkq"));
	assert_int_equal(g.ep_file, -1);
}

static void
test_game_play_promotion(void **state)
{
	static const struct play_case cases[] = {
		{POS("k7/4P3/8/8/8/8/4p3/K7", "w", "-"), "e7e8q",
		 "k3Q3/8/8/8/8/8/4p3/K7", "-", B, -1},
		{POS("k7/4P3/8/8/8/8/4p3/K7", "w", "-"), "e7e8Q e2e1n",
		 "k3Q3/8/8/8/8/8/8/K3n3", "-", W, -1},
		/* The piece takes the mover's colour, whatever the case. */
		{POS("k7/4P3/8/8/8/8/4p3/K7", "w", "-"), "e7e8=r e2e1=Q",
		 "k3R3/8/8/8/8/8/8/K3q3", "-", W, -1},
		{POS("k7/4P3/8/8/8/8/4p3/K7", "b", "-"), "e2e1b",
		 "k7/4P3/8/8/8/8/8/K3b3", "-", W, -1},
		/* Capturing a castling rook while promoting. */
		{POS("r3k3/1P6/8/8/8/8/8/4K3", "w", "q"), "b7a8n",
		 "N3k3/8/8/8/8/8/8/4K3", "-", B, -1},
		{POS("4k3/8/8/8/8/8/6p1/R3K2R", "b", "KQ"), "g2h1q",
		 "4k3/8/8/8/8/8/8/R3K2q", "A", W, -1},
		/* 10x8 pieces. */
		{POS("k9/4P5/10/10/10/10/5p4/K9", "w", "-"), "e7e8a f2f1C",
		 "k3A5/10/10/10/10/10/10/K4c4", "-", W, -1},
	};

	(void)state;
	check_play(cases, N_ELEMS(cases));
}

static void
test_game_play_null_move(void **state)
{
	static const struct play_case cases[] = {
		{POS(CLEAR, "w", "KQkq"), "0000",
		 "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R", "HAha", B, -1},
		{POS(CLEAR, "b", "KQkq"), "0000",
		 "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R", "HAha", W, -1},
		/* Two null moves: White castles with O-O again. */
		{POS(CLEAR, "w", "KQkq"), "0000 0000 O-O",
		 "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1", "ha", B, -1},
		/* A null move clears the e.p. file. */
		{POS(START, "w", "KQkq"), "e2e4 0000",
		 "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", "HAha", W,
		 -1},
		/* After a null move it is Black's O-O. */
		{POS(CLEAR, "w", "KQkq"), "0000 O-O-O",
		 "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R", "HA", W, -1},
	};

	(void)state;
	check_play(cases, N_ELEMS(cases));
}

/* Italian game, both sides castle short: 1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5
 * 4.c3 Nf6 5.d3 d6 6.O-O O-O 7.Re1 a6 8.Bb3 Ba7 9.h3 h6 10.Nbd2 Re8. */
static void
test_game_whole_italian_game(void **state)
{
	static const char moves[] = "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6 "
				    "d2d3 d7d6 e1g1 e8g8 f1e1 a7a6 c4b3 c5a7 "
				    "h2h3 h7h6 b1d2 f8e8";
	struct fb_game g, from_start;
	struct fb_move m;

	(void)state;
	setup(&g, POS(START, "w", "KQkq"));
	fb_game_start(&from_start, fb_variant_normal->start);
	play_line(&g, moves);
	play_line(&from_start, moves);
	expect_position("Italian game", &g,
			"r1bqr1k1/bpp2pp1/p1np1n1p/4p3/4P3/1BPP1N1P/PP1N1PP1/"
			"R1BQR1K1",
			"-", W, -1);
	assert_false(fb_game_can_castle(&g));
	assert_memory_equal(&g, &from_start, sizeof g);

	/* The castling moves were recognised as such on the way. */
	setup(&g, POS(START, "w", "KQkq"));
	play_line(&g, "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6 d2d3 d7d6");
	assert_int_equal(parse(&g, "e1g1", &m), 0);
	assert_int_equal(m.castle, H);
	assert_int_equal(m.to_file, 7);
	fb_game_play(&g, &m);
	assert_int_equal(parse(&g, "e8g8", &m), 0);
	assert_int_equal(m.castle, H);
	fb_game_play(&g, &m);
	assert_false(fb_game_can_castle(&g));

	/* The same game with O-O for Black. */
	setup(&g, POS(START, "w", "KQkq"));
	play_line(&g, "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6 d2d3 d7d6 "
		      "O-O O-O f1e1 a7a6 c4b3 c5a7 h2h3 h7h6 b1d2 f8e8");
	expect_position("Italian game with O-O", &g,
			"r1bqr1k1/bpp2pp1/p1np1n1p/4p3/4P3/1BPP1N1P/PP1N1PP1/"
			"R1BQR1K1",
			"-", W, -1);
}

/* A Chess960 game: White castles king takes rook at once, Black loses its
 * a-side right by moving that rook and then castles with O-O. */
static void
test_game_whole_chess960_game(void **state)
{
	struct fb_game g;

	(void)state;
	setup(&g, POS(C960_F_EG, "w", "KQkq"));
	assert_false(fb_game_is_standard_castling(&g));
	play_line(&g, "f1g1 e7e5");
	expect_position("960 after f1g1 e7e5", &g,
			"bqnbrkrn/pppp1ppp/8/4p3/8/8/PPPPPPPP/BQNBRRKN", "ge",
			W, 4);
	play_line(&g, "d2d4 e8e7");
	expect_position("960 after d2d4 e8e7", &g,
			"bqnb1krn/pppprppp/8/4p3/3P4/8/PPP1PPPP/BQNBRRKN", "g",
			W, -1);
	assert_true(fb_game_can_castle(&g));
	play_line(&g, "g2g3 O-O");
	expect_position("960 final", &g,
			"bqnb1rkn/pppprppp/8/4p3/3P4/6P1/PPP1PP1P/BQNBRRKN",
			"-", W, -1);
	assert_false(fb_game_can_castle(&g));
}

/* The struct is plain data: a copy can play a pv without touching g. */
static void
test_game_copy_is_independent(void **state)
{
	struct fb_game g, copy, saved;

	(void)state;
	setup(&g, POS(CLEAR, "w", "KQkq"));
	saved = g;
	copy = g;
	play_line(&copy, "e1g1 e8c8 a2a4");
	assert_memory_equal(&g, &saved, sizeof g);
	expect_position("copy", &copy, "2kr3r/pppppppp/8/8/P7/8/1PPPPPPP/R4RK1",
			"-", B, 0);
}

static void
test_game_start_matches_fen(void **state)
{
	static const struct {
		const char *variant;
		const char *fen;
	} cases[] = {
		{"normal", POS(START, "w", "KQkq")},
		{"capablanca", POS(CAPA, "w", "KQkq")},
		{"gothic",
		 POS("rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR",
		     "w", "KQkq")},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		struct fb_game started, parsed;
		const struct fb_variant *v = fb_variant_find(
			cases[i].variant, strlen(cases[i].variant));

		assert_non_null(v);
		fb_game_start(&started, fb_variant_start_row(v));
		setup(&parsed, cases[i].fen);
		if (memcmp(&started, &parsed, sizeof started) != 0)
			fail_msg("fb_game_start(%s) differs from '%s'",
				 cases[i].variant, cases[i].fen);
		assert_true(fb_game_can_castle(&started));
		assert_true(fb_game_is_standard_castling(&started));
	}
}

static void
test_game_is_standard_castling(void **state)
{
	static const struct {
		const char *fen;
		bool standard;
	} cases[] = {
		{POS(START, "w", "KQkq"), true},
		{POS(SPARSE, "w", "KQkq"), true},
		{POS(SPARSE, "b", "Kq"), true},
		{POS(SPARSE, "w", "-"), true},
		/* Chess960 starts: king off e, or rook off the corner. */
		{POS(C960_F_EG, "w", "KQkq"), false},
		{POS("nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN", "w",
		     "KQkq"),
		 false},
		{POS("nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN", "w", "K"),
		 false},
		{POS(C960_F_AH, "w", "KQkq"), false},
		{POS(C960_E_AF, "w", "Q"), true},
		{POS(C960_E_AF, "w", "K"), false},
		/* Inner rooks with the king on e. */
		{POS(XEX, "w", "Gkq"), false},
		{POS(XEX, "w", "kq"), false},
		{POS(XEX, "w", "q"), true},
		{POS(INNER_A, "w", "Bq"), false},
		{POS(INNER_A, "w", "Aq"), true},
		/* A colour without rights does not count, whatever its king. */
		{POS(C960_F_EG, "w", "-"), true},
		{POS("r3k2r/8/8/8/8/8/8/1K6", "w", "kq"), true},
		{POS("rk5r/8/8/8/8/8/8/R3K2R", "w", "KQ"), true},
		{POS("rk5r/8/8/8/8/8/8/R3K2R", "w", "KQkq"), false},
		{POS("r3k2r/8/8/8/8/8/8/R4K1R", "b", "KQkq"), false},
		{POS("r3k2r/8/8/8/8/8/8/R4K1R", "b", "kq"), true},
		/* 10x8: king on f, rooks on a and j. */
		{POS(CAPA, "w", "KQkq"), true},
		{POS(CAPA_CLEAR, "b", "KQkq"), true},
		{POS("r3k4r/10/10/10/10/10/10/R3K4R", "w", "KQkq"), false},
		{POS("r3k4r/10/10/10/10/10/10/R3K4R", "w", "-"), true},
		{POS("r4k2r1/10/10/10/10/10/10/R4K2R1", "w", "KQkq"), false},
		{POS("r4k2r1/10/10/10/10/10/10/R4K2R1", "w", "Qq"), true},
		{POS("1r3k3r/10/10/10/10/10/10/1R3K3R", "w", "Kk"), true},
		{POS("1r3k3r/10/10/10/10/10/10/1R3K3R", "w", "Kkq"), false},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		struct fb_game g;

		setup(&g, cases[i].fen);
		if (fb_game_is_standard_castling(&g) != cases[i].standard)
			fail_msg("row %zu: '%s': got %d, want %d", i,
				 cases[i].fen, (int)!cases[i].standard,
				 (int)cases[i].standard);
	}
}

static void
test_game_can_castle(void **state)
{
	static const struct {
		const char *fen;
		bool can;
	} cases[] = {
		{POS(START, "w", "KQkq"), true}, {POS(SPARSE, "w", "-"), false},
		{POS(SPARSE, "w", "K"), true},   {POS(SPARSE, "w", "Q"), true},
		{POS(SPARSE, "w", "k"), true},   {POS(SPARSE, "b", "q"), true},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		struct fb_game g;

		setup(&g, cases[i].fen);
		if (fb_game_can_castle(&g) != cases[i].can)
			fail_msg("row %zu: '%s'", i, cases[i].fen);
	}
}

static void
test_game_parse_notation(void **state)
{
	static const struct {
		const char *name;
		int rc;
		enum fb_castle_notation n;
	} cases[] = {
		{"auto", 0, FB_CASTLE_AUTO},
		{"kxr", 0, FB_CASTLE_KXR},
		{"king", 0, FB_CASTLE_KING},
		{"oo", 0, FB_CASTLE_OO},
		{"", FB_EINVAL, FB_CASTLE_KXR},
		{"KXR", FB_EINVAL, FB_CASTLE_KXR},
		{"Auto", FB_EINVAL, FB_CASTLE_KXR},
		{"kxr ", FB_EINVAL, FB_CASTLE_KXR},
		{"kin", FB_EINVAL, FB_CASTLE_KXR},
		{"o-o", FB_EINVAL, FB_CASTLE_KXR},
		{"O-O", FB_EINVAL, FB_CASTLE_KXR},
		{"san", FB_EINVAL, FB_CASTLE_KXR},
		{"autox", FB_EINVAL, FB_CASTLE_KXR},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		/* A value no case expects: errors leave it. */
		enum fb_castle_notation n = (enum fb_castle_notation)99;
		enum fb_castle_notation want =
			cases[i].rc == 0 ? cases[i].n
					 : (enum fb_castle_notation)99;
		int rc = fb_game_parse_notation(cases[i].name, &n);

		if (rc != cases[i].rc || n != want)
			fail_msg("'%s': returned %d, n %d; want %d, n %d",
				 cases[i].name, rc, (int)n, cases[i].rc,
				 (int)want);
	}
}

/*
 * The board prints the FEN it holds: a FEN read and printed again in the
 * same dialect is byte for byte the same (when written canonically: e.p.
 * only where a pawn can take, 6 fields), on 8x8 and 10x8.
 */
static void
test_game_print_fen_round_trip(void **state)
{
	static const struct {
		const char *fen;
		enum fb_notation n;
	} cases[] = {
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 FB_XFEN},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
		 FB_SHREDDER},
		{"rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gkq - 4 11",
		 FB_XFEN},
		{"rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - 4 11",
		 FB_SHREDDER},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		 FB_XFEN},
		{"4k3/8/8/8/8/8/8/4K3 b - - 99 120", FB_SHREDDER},
		{"1r2k4r/1bnqacbn2/pppppppppp/10/10/PPPPPPPPPP/1BNQACBN2/1R2K4R "
		 "w JBjb - 0 12",
		 FB_SHREDDER},
		{"r1abqk3r/ppppp1pppp/4b1cn2/5p4/5P4/4B1CN2/PPPPP1PPPP/RNABQK3R "
		 "b KQkq - 6 5",
		 FB_XFEN},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		struct fb_fen fen;
		struct fb_game g;
		struct fb_fen_style style = {.notation = cases[i].n};
		char out[FB_GAME_FEN_MAX];
		size_t len = strlen(cases[i].fen);
		int n;

		assert_int_equal(fb_fen_parse(&fen, cases[i].fen, len, NULL),
				 0);
		g = fen.pos;
		n = fb_game_print_fen(&g, &style, out, sizeof out);
		if (n < 0 || (size_t)n != len || memcmp(out, cases[i].fen, len))
			fail_msg("'%s' printed as '%.*s'", cases[i].fen,
				 n < 0 ? 0 : n, out);
	}
}

/* Moves change the clocks and e.p. as a FEN after them says. */
static void
test_game_print_fen_after_moves(void **state)
{
	static const char *const moves[] = {"e2e4", "c7c5", "e4e5", "d7d5",
					    "e5d6", "d8d6", "g1f3", "b8c6",
					    "f1e2", "c8g4", "e1h1"};
	struct fb_game g;
	struct fb_move m;
	struct fb_fen_style style = {.notation = FB_SHREDDER};
	char out[FB_GAME_FEN_MAX];
	int n;

	(void)state;
	fb_game_start(&g, fb_variant_normal->start);
	for (size_t i = 0; i < N_ELEMS(moves); i++) {
		assert_int_equal(
			fb_game_parse_move(&g, moves[i], strlen(moves[i]), &m),
			0);
		fb_game_play(&g, &m);
		if (i == 3) { /* d7d5 next to the e5 pawn: e.p. on d6 */
			n = fb_game_print_fen(&g, &style, out, sizeof out);
			assert_true(n > 0);
			assert_memory_equal(out,
					    "rnbqkbnr/pp2pppp/8/2ppP3/8/8/"
					    "PPPP1PPP/RNBQKBNR w HAha d6 0 3",
					    (size_t)n);
		}
	}
	n = fb_game_print_fen(&g, &style, out, sizeof out);
	assert_true(n > 0);
	/* e5xd6 e.p., Qxd6: captures reset the clock; five quiet moves
	 * follow, the last e1h1 castling. */
	assert_memory_equal(out,
			    "r3kbnr/pp2pppp/2nq4/2p5/6b1/5N2/PPPPBPPP/"
			    "RNBQ1RK1 b ha - 5 6",
			    (size_t)n);
}

/* Rights standard FEN cannot express are dropped, the others kept. */
static void
test_game_drop_nonstandard(void **state)
{
	static const struct {
		const char *fen;
		unsigned dropped;
		const char *left; /* Shredder castling field after */
	} cases[] = {
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", 0,
		 "HAha"},
		{"r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w FAfa - 0 1", 2, "Aa"},
		{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - "
		 "0 1",
		 4, "-"},
		{"1r2k4r/1bnqacbn2/pppppppppp/10/10/PPPPPPPPPP/1BNQACBN2/1R2K4R "
		 "w JBjb - 0 12",
		 4, "-"},
		{"r4k3r/10/10/10/10/10/10/R4K3R w JAja - 0 1", 0, "JAja"},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		struct fb_fen fen, back;
		struct fb_game g;
		struct fb_fen_style style = {.notation = FB_SHREDDER};
		char out[FB_GAME_FEN_MAX];
		int n;

		assert_int_equal(fb_fen_parse(&fen, cases[i].fen,
					      strlen(cases[i].fen), NULL),
				 0);
		g = fen.pos;
		assert_int_equal(fb_game_drop_nonstandard(&g),
				 cases[i].dropped);
		assert_true(fb_game_is_standard_castling(&g));
		n = fb_game_print_fen(&g, &style, out, sizeof out);
		assert_true(n > 0);
		assert_int_equal(fb_fen_parse(&back, out, (size_t)n, NULL), 0);
		assert_int_equal(back.flen[2], strlen(cases[i].left));
		assert_memory_equal(out + back.off[2], cases[i].left,
				    back.flen[2]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_game_recognises_castling_standard),
		cmocka_unit_test(test_game_recognises_castling_chess960),
		cmocka_unit_test(test_game_recognises_castling_10x8),
		cmocka_unit_test(test_game_not_castling),
		cmocka_unit_test(test_game_oo_without_right_is_invalid),
		cmocka_unit_test(test_game_garbage_tokens_invalid),
		cmocka_unit_test(test_game_parse_move_spellings),
		cmocka_unit_test(test_game_parse_reads_only_len),
		cmocka_unit_test(test_game_print_castle_notations),
		cmocka_unit_test(test_game_print_castle_errors),
		cmocka_unit_test(test_game_play_castling_targets),
		cmocka_unit_test(test_game_play_loses_rights),
		cmocka_unit_test(test_game_play_en_passant),
		cmocka_unit_test(test_game_play_promotion),
		cmocka_unit_test(test_game_play_null_move),
		cmocka_unit_test(test_game_whole_italian_game),
		cmocka_unit_test(test_game_whole_chess960_game),
		cmocka_unit_test(test_game_copy_is_independent),
		cmocka_unit_test(test_game_start_matches_fen),
		cmocka_unit_test(test_game_is_standard_castling),
		cmocka_unit_test(test_game_can_castle),
		cmocka_unit_test(test_game_parse_notation),
		cmocka_unit_test(test_game_print_fen_round_trip),
		cmocka_unit_test(test_game_print_fen_after_moves),
		cmocka_unit_test(test_game_drop_nonstandard),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
