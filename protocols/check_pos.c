/* SPDX-License-Identifier: MIT */
/*
 * `fenbridge check`'s test positions (see check_int.h): the FENs, their
 * mirrors for Black, and what the script asks of each (its castle, the
 * forms that can write it, whether edit can set it up).
 *
 * The positions were chosen (by a search with fenbridge's move generator;
 * tests/unit/protocols/test_check.c pins their properties) so that a
 * castle is the one move that mates ("read" positions) or gives check with
 * exactly one legal reply ("accept" positions).
 *
 * No I/O, no allocation.
 */
#include "check.h"
#include "check_int.h"

#include <string.h>

#include "cecp_edit.h"
#include "fenbridge/fen.h"
#include "fenbridge/movegen.h"
#include "fenbridge/variant.h"

enum pos_role { ROLE_READ, ROLE_ACCEPT };

static const struct test_pos {
	const char *fen; /* X-FEN */
	bool c960; /* 960 mode only (10 wide: caparandom, not capablanca) */
	enum pos_role role;
	const char *what;
	/* Its UCI_Variant / XBoard variant (Janus's and Embassy's castling
	 * rules), chess on 8x8. */
	enum fb_check_variant variant;
} positions[] = {
	/* O-O is the only mate (rook f1 along the first rank). */
	{"8/8/8/2q5/B5p1/3pR3/7Q/2k1K2R w K - 0 1", false, ROLE_READ,
	 "standard, h-rook", FB_CKV_CHESS},
	/* O-O checks the king on a1: one legal reply. */
	{"r5Q1/8/5P2/8/8/8/8/k3K2R w K - 0 1", false, ROLE_ACCEPT,
	 "standard, h-rook", FB_CKV_CHESS},
	/* O-O-O is the only mate (rook d1 along the first rank). */
	{"8/8/8/3p3N/8/8/1Q6/R3K2k w Q - 0 1", false, ROLE_READ,
	 "standard, a-rook", FB_CKV_CHESS},
	/* O-O-O checks the king on g1: one legal reply. */
	{"8/8/R7/8/7q/6B1/8/R3K1k1 w Q - 0 1", false, ROLE_ACCEPT,
	 "standard, a-rook", FB_CKV_CHESS},
	/* King c1, rook g1 (the outermost: K / G): the castle mates. */
	{"8/8/8/1n6/8/8/4R3/k1K3R1 w K - 0 1", true, ROLE_READ,
	 "960, rook off the corner", FB_CKV_CHESS},
	/* King c1, rooks f1 and h1, right on f1 (F / F): the castle mates;
	 * king takes rook is c1f1, the king's move c1g1. */
	{"8/8/3q4/8/8/8/3R4/k1K2R1R w F - 0 1", true, ROLE_READ,
	 "960, inner rook", FB_CKV_CHESS},
	/* The same rooks: the castle checks, one legal reply. */
	{"r7/8/8/8/3p4/8/p7/k1K2R1R w F - 0 1", true, ROLE_ACCEPT,
	 "960, inner rook", FB_CKV_CHESS},
	/* DFRC: the back ranks differ, both colours have rights. King d1,
	 * rooks a1 and b1, right on b1 (B / B); Black's king d8, rook h8
	 * (k / h). The castle (king to c1, rook over it to d1, where no rook
	 * move goes) mates on the d-file. */
	{"3k3r/2p1p3/B5B1/8/8/8/8/RR1K4 w Bk - 0 1", true, ROLE_READ,
	 "DFRC, inner rook, both colours' rights", FB_CKV_CHESS},
	/* 10x8 (capablanca, caparandom): king f1, rook j1 (K / J): the castle
	 * (king to i1, rook to h1) mates. */
	{"10/10/10/10/10/1p8/9R/1k3K3R w K - 0 1", false, ROLE_READ,
	 "10x8, corner rook", FB_CKV_CAPABLANCA},
	/* King c1, rook i1 (K / I). */
	{"10/6p3/10/10/10/10/7R2/k1K5R1 w K - 0 1", true, ROLE_READ,
	 "10x8, rook off the corner", FB_CKV_CAPARANDOM},
	/* King b1, rooks g1 and j1, right on g1 (G / G). */
	{"10/10/6R3/10/10/7k2/8R1/1K4R2R w G - 0 1", true, ROLE_READ,
	 "10x8, inner rook", FB_CKV_CAPARANDOM},
	/* 10x8: the castle (king f1 to i1, rook j1 to h1) checks on the
	 * h-file, one legal reply. */
	{"7k2/1p3P3P/10/10/10/10/10/2B2K3R w K - 0 1", false, ROLE_ACCEPT,
	 "10x8, corner rook", FB_CKV_CAPABLANCA},
	/* King b1, rooks g1 and j1, right on g1 (G / G): king takes rook is
	 * b1g1, the king's move b1i1. */
	{"7k2/10/4B1B2P/p9/10/10/10/1K4R2R w G - 0 1", true, ROLE_ACCEPT,
	 "10x8, inner rook", FB_CKV_CAPARANDOM},
	/* Janus: king e1, rook a1 (Q / A): the castle (king to b1, rook to
	 * c1) mates on the c-file, the king on b1 taking b2 (rook a1 to c1
	 * does not mate). Castled as in Capablanca (king c1, rook d1), it
	 * does not check. */
	{"10/3R6/10/10/10/P1k7/B9/R3K5 w Q - 0 1", false, ROLE_READ,
	 "10x8, a-rook", FB_CKV_JANUS},
	/* Janus: the castle (king to b1, rook to c1) checks on the c-file,
	 * one legal reply. */
	{"2k7/P3P3p1/10/10/10/10/10/R3K2B2 w Q - 0 1", false, ROLE_ACCEPT,
	 "10x8, a-rook", FB_CKV_JANUS},
	/* Embassy: king e1, rook j1 (K / J): the castle (king to h1, rook to
	 * g1) mates on the g-file, the king on h1 taking h2. Castled as in
	 * Capablanca (king i1, rook h1), it does not check. */
	{"5R4/10/10/10/10/6k1P1/8P1/4K4R w K - 0 1", false, ROLE_READ,
	 "10x8, corner rook", FB_CKV_EMBASSY},
	/* Embassy: the castle (king to h1, rook to g1) checks on the g-file,
	 * one legal reply (Capablanca's i1 and h1 would not check). */
	{"6k3/p3P3P1/10/10/10/10/10/1B2K4R w K - 0 1", false, ROLE_ACCEPT,
	 "10x8, corner rook", FB_CKV_EMBASSY},
};
/* Each position also serves mirrored, for Black: index NPOS + i. */
#define NPOS ((int)(sizeof positions / sizeof positions[0]))

const char *
fb_check_pos_what(int i)
{
	return i >= 0 ? positions[i % NPOS].what : "";
}

bool
fb_check_pos_black(int i)
{
	return i >= NPOS;
}

/* Position -1 (the stop steps'), -2 (the pondering ones': after 1. e4
 * e5, the ponder move, White to move). */
#define STARTPOS "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define PONDERPOS "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"

static const struct test_pos *
base(int i)
{
	return &positions[i % NPOS];
}

bool
fb_check_pos_wide(int i)
{
	return fb_check_pos_variant(i) != FB_CKV_CHESS;
}

static const char *const variant_names[FB_CKV_COUNT] = {
	[FB_CKV_CHESS] = "chess",           [FB_CKV_CAPABLANCA] = "capablanca",
	[FB_CKV_CAPARANDOM] = "caparandom", [FB_CKV_JANUS] = "janus",
	[FB_CKV_EMBASSY] = "embassy",
};

const char *
fb_check_variant_name(enum fb_check_variant v)
{
	return v < FB_CKV_COUNT ? variant_names[v] : "chess";
}

enum fb_check_variant
fb_check_pos_variant(int i)
{
	return i >= 0 ? base(i)->variant : FB_CKV_CHESS;
}

enum fb_check_variant
fb_check_variant_in(int i, bool c960)
{
	enum fb_check_variant v = fb_check_pos_variant(i);

	return v == FB_CKV_CAPABLANCA && c960 ? FB_CKV_CAPARANDOM : v;
}

/* Position i: -1 the start, -2 the pondering steps', else a test position,
 * mirrored (colours and ranks swapped, Black to move) from NPOS on. */
bool
fb_check_load(int i, struct fb_game *g)
{
	struct fb_fen fen;
	const char *s = i == -2 ? PONDERPOS : i < 0 ? STARTPOS : base(i)->fen;
	const char *name;

	if (fb_fen_parse(&fen, s, strlen(s), NULL) < 0)
		return false;
	*g = fen.pos;
	/* The variant's castling rules (Janus's and Embassy's files). */
	name = fb_check_variant_name(fb_check_pos_variant(i));
	fb_variant_apply(fb_variant_find(name, strlen(name)), g);
	if (i >= NPOS) {
		for (int r = 0; r < FB_FEN_RANKS; r++)
			for (unsigned f = 0; f < g->width; f++) {
				char p = fen.pos.board[FB_FEN_RANKS - 1 - r][f];
				g->board[r][f] = (char)(p >= 'a'   ? p - 32
							: p >= 'A' ? p + 32
								   : 0);
			}
		for (int w = 0; w < 2; w++) {
			g->castle[FB_WHITE][w] = fen.pos.castle[FB_BLACK][w];
			g->castle[FB_BLACK][w] = fen.pos.castle[FB_WHITE][w];
		}
		g->side = 1 - fen.pos.side;
	}
	return true;
}

int
fb_check_position(int i, enum fb_notation d, char *out, size_t cap)
{
	struct fb_game g;
	struct fb_fen_style st = {.notation = d};

	if (i < 0 || i >= 2 * NPOS || !fb_check_load(i, &g))
		return -1;
	return fb_game_print_fen(&g, &st, out, cap);
}

/* The castle of position g (its one castling move). */
bool
fb_check_castle_of(const struct fb_game *g, struct fb_move *m)
{
	struct fb_move mv[FB_MOVES_MAX];
	size_t n = fb_moves_legal(g, mv);

	for (size_t i = 0; i < n; i++)
		if (mv[i].castle >= 0) {
			*m = mv[i];
			return true;
		}
	return false;
}

bool
fb_check_pos_same(int i)
{
	char x[FB_GAME_FEN_MAX], sh[FB_GAME_FEN_MAX];
	int nx = fb_check_position(i, FB_XFEN, x, sizeof x);
	int ns = fb_check_position(i, FB_SHREDDER, sh, sizeof sh);

	return nx == ns && memcmp(x, sh, (size_t)nx) == 0;
}

/* True when form f can write position i's castle. */
bool
fb_check_can_write(int i, enum fb_castle_notation f)
{
	struct fb_game g;
	struct fb_move m;
	char buf[8];

	return fb_check_load(i, &g) && fb_check_castle_of(&g, &m) &&
	       fb_game_print_castle(&g, &m, f, buf, sizeof buf) > 0;
}

bool
fb_check_pos_forms_differ(int i)
{
	struct fb_game g;
	struct fb_move m;
	char a[8], b[8];
	int na, nb;

	if (!fb_check_load(i, &g) || !fb_check_castle_of(&g, &m))
		return false;
	na = fb_game_print_castle(&g, &m, FB_CASTLE_KXR, a, sizeof a);
	nb = fb_game_print_castle(&g, &m, FB_CASTLE_KING, b, sizeof b);
	return na > 0 && (na != nb || memcmp(a, b, (size_t)na) != 0);
}

/* True when CECP edit can set position i up with its castling rights:
 * nothing lost, and each right a corner rook with the king on its start
 * square (what an engine infers from the pieces). */
bool
fb_check_edit_can(int i)
{
	struct fb_game g;
	int kf;

	if (!fb_check_load(i, &g) || fb_cecp_edit_loses(&g) != NULL)
		return false;
	kf = fb_game_rules(&g)->king_home;
	for (int col = 0; col < 2; col++)
		for (int w = 0; w < 2; w++)
			if (g.castle[col][w] >= 0 &&
			    (g.castle[col][w] !=
				     (w == FB_HSIDE ? (int)g.width - 1 : 0) ||
			     g.board[col == FB_WHITE ? 0 : 7][kf] !=
				     (col == FB_WHITE ? 'K' : 'k')))
				return false;
	return true;
}

bool
fb_check_pos_read(int i)
{
	return base(i)->role == ROLE_READ;
}

bool
fb_check_pos_c960(int i)
{
	return base(i)->c960;
}

int
fb_check_npos(void)
{
	return 2 * NPOS;
}
