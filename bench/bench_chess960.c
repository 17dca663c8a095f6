/* SPDX-License-Identifier: MIT */
/*
 * The chess of bench_bridge's streams: the engine's `info` flood (pvs from
 * standard openings, castling in both notations), and Chess960: a game
 * followed with pseudo-legal moves (no
 * check test: the streams need plausible games, and the game file's
 * games were checked by stockfish when they were made), its FEN in
 * Shredder-FEN and X-FEN, the position streams (games resent, bulk FENs)
 * and the game file of whole games (bench/make_games.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* Openings from the start position; castling is the king's two-square move
 * here (standard UCI), e1h1-style in the Chess960 expectation. */
static const char *const openings[] = {
	/* Ruy Lopez, Chigorin */
	"e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 "
	"d7d6 c2c3 e8g8 h2h3 c6a5 b3c2 c7c5 d2d4 d8c7",
	/* Giuoco Piano */
	"e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6 d2d3 d7d6 e1g1 e8g8 f1e1 "
	"a7a6 c4b3 c5a7 h2h3 h7h6 b1d2 c8e6",
	/* Najdorf, English Attack */
	"e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5 d4b3 "
	"c8e6 f2f3 f8e7 d1d2 e8g8 e1c1 b8d7 g2g4 b7b5",
	/* QGD */
	"d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3 e8g8 g1f3 h7h6 g5h4 "
	"b7b6 f1e2 c8b7 e1g1 b8d7 c4d5 e6d5",
	/* King's Indian, Classical */
	"d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6 g1f3 e8g8 f1e2 e7e5 e1g1 "
	"b8c6 d4d5 c6e7 f3e1 f6d7 e1d3 f7f5",
	/* French, Winawer poisoned pawn */
	"e2e4 e7e6 d2d4 d7d5 b1c3 f8b4 e4e5 c7c5 a2a3 b4c3 b2c3 g8e7 d1g4 "
	"d8c7 g4g7 h8g8 g7h7 c5d4 g1e2 b8c6",
	/* Caro-Kann, Classical */
	"e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5 e4g3 f5g6 h2h4 h7h6 g1f3 "
	"b8d7 h4h5 g6h7 f1d3 h7d3 d1d3 e7e6 c1d2 g8f6 e1c1 f8e7",
	/* English, reversed Dragon */
	"c2c4 e7e5 b1c3 g8f6 g1f3 b8c6 g2g3 d7d5 c4d5 f6d5 f1g2 d5b6 e1g1 "
	"f8e7 d2d3 e8g8 a2a3 c8e6 b2b4 f7f6",
};
#define NOPENINGS (sizeof openings / sizeof openings[0])
#define MAX_PLIES 32

static char pv_move[NOPENINGS][MAX_PLIES][8];     /* king notation */
static char pv_move_kxr[NOPENINGS][MAX_PLIES][8]; /* king takes rook */
static unsigned pv_len[NOPENINGS];

void
openings_init(void)
{
	static const char *const castles[][2] = {{"e1g1", "e1h1"},
						 {"e1c1", "e1a1"},
						 {"e8g8", "e8h8"},
						 {"e8c8", "e8a8"}};

	for (size_t o = 0; o < NOPENINGS; o++) {
		const char *p = openings[o];
		unsigned n = 0;
		while (*p != '\0' && n < MAX_PLIES) {
			size_t k = strcspn(p, " ");
			memcpy(pv_move[o][n], p, k);
			pv_move[o][n][k] = '\0';
			strcpy(pv_move_kxr[o][n], pv_move[o][n]);
			for (size_t c = 0; c < 4; c++)
				if (strcmp(pv_move[o][n], castles[c][0]) == 0)
					strcpy(pv_move_kxr[o][n],
					       castles[c][1]);
			n++;
			p += k;
			while (*p == ' ')
				p++;
		}
		pv_len[o] = n;
	}
}

static void
patch_add(struct patches *ps, size_t off, char c)
{
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? ps->cap * 2 : 4096;
		if ((ps->v = realloc(ps->v, ps->cap * sizeof *ps->v)) == NULL)
			die("out of memory");
	}
	ps->v[ps->n++] = (struct patch){off, c};
}

/* `nodes N nps N hashfull N tbhits 0 time N` of an info line. */
static char *
put_stats(char *p, uint64_t nodes, uint64_t h, uint64_t ms)
{
	p = put_s(p, "nodes ");
	p = put_u(p, nodes);
	p = put_s(p, " nps ");
	p = put_u(p, 900000 + (h >> 40) % 1200000);
	p = put_s(p, " hashfull ");
	p = put_u(p, (h >> 5) % 1000);
	p = put_s(p, " tbhits 0 time ");
	return put_u(p, ms);
}

/*
 * Writes `info` line i of the flood (numbers varying with i) at p, which is
 * at offset `at` of the stream; where castling in king-takes-rook notation
 * differs, adds a patch to ps. Returns the end.
 */
static char *
info_line(char *p, size_t at, uint64_t i, struct patches *ps)
{
	const char *base = p;
	uint64_t h = mix64(i + SEED);
	unsigned kind = (unsigned)(h % 20);
	unsigned depth = 8 + (unsigned)((i / 20000) % 30) + (unsigned)(h >> 61);
	size_t o = (size_t)((h >> 44) % NOPENINGS);
	uint64_t nodes = i * 1237 + (h >> 32) % 100000;
	uint64_t ms = i / 256 + 1;

	p = put_s(p, "info ");
	if (kind == 0) { /* current move */
		p = put_s(p, "depth ");
		p = put_u(p, depth);
		p = put_s(p, " currmove ");
		p = put_s(p, pv_move[o][0]);
		p = put_s(p, " currmovenumber ");
		p = put_u(p, 1 + (h >> 20) % 30);
		*p++ = '\n';
		return p;
	}
	if (kind == 1) { /* periodic statistics */
		p = put_stats(p, nodes, h, ms);
		*p++ = '\n';
		return p;
	}
	p = put_s(p, "depth ");
	p = put_u(p, depth);
	p = put_s(p, " seldepth ");
	p = put_u(p, depth + 3 + (h >> 8) % 12);
	p = put_s(p, " multipv ");
	p = put_u(p, (h >> 12) % 8 == 0 ? 1 + (h >> 16) % 3 : 1);
	if ((h >> 20) % 64 == 0) {
		p = put_s(p, (h >> 27) & 1 ? " score mate -" : " score mate ");
		p = put_u(p, 1 + (h >> 28) % 12);
	} else {
		long cp = (long)((h >> 24) % 700) - 300;
		p = put_s(p, " score cp ");
		if (cp < 0) {
			*p++ = '-';
			cp = -cp;
		}
		p = put_u(p, (uint64_t)cp);
		if ((h >> 34) % 16 == 0)
			p = put_s(p, (h >> 38) & 1 ? " lowerbound"
						   : " upperbound");
	}
	*p++ = ' ';
	p = put_stats(p, nodes, h, ms);
	p = put_s(p, " pv");
	{
		unsigned n = 6 + (unsigned)((h >> 50) % (pv_len[o] - 5));
		for (unsigned k = 0; k < n; k++) {
			*p++ = ' ';
			if (pv_move_kxr[o][k][2] != pv_move[o][k][2])
				patch_add(ps, at + (size_t)(p + 2 - base),
					  pv_move_kxr[o][k][2]);
			p = put_s(p, pv_move[o][k]);
		}
	}
	*p++ = '\n';
	return p;
}

#define INFO_MAX 400
#define FLOOD_END "bestmove e2e4 ponder e7e5\n"

/*
 * The flood as the engine writes it (king notation) into s, the patches
 * that make it the Chess960 expectation, and the offset where line
 * stall_lines ends.
 */
void
make_flood(struct stream *s, struct patches *kxr, unsigned long lines,
	   unsigned long stall_lines, size_t *stall_len)
{
	stream_create(s);
	*stall_len = 0;
	for (unsigned long i = 0; i < lines; i++) {
		char *p = stream_at(s, INFO_MAX);
		stream_wrote(s, info_line(p, s->len, i, kxr));
		if (i + 1 == stall_lines)
			*stall_len = s->len;
	}
	stream_wrote(s, put_s(stream_at(s, INFO_MAX), FLOOD_END));
	if (*stall_len == 0)
		*stall_len = s->len;
	s->lines = lines + 1;
	stream_seal(s);
}

static int
colour_of(char p)
{
	return p >= 'a' ? 1 : 0;
}

/* Chess960 start number idx (Scharnagl numbering; 518 is chess). */
void
cgame_start(struct cgame *g, unsigned idx)
{
	static const int knights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4},
					   {1, 2}, {1, 3}, {1, 4}, {2, 3},
					   {2, 4}, {3, 4}};
	char row[8] = {0};
	int empty[8], ne, rooks = 0;
	unsigned n = idx;

	row[2 * (n % 4) + 1] = 'B';
	n /= 4;
	row[2 * (n % 4)] = 'B';
	n /= 4;
	ne = 0;
	for (int f = 0; f < 8; f++)
		if (row[f] == 0)
			empty[ne++] = f;
	row[empty[n % 6]] = 'Q';
	n /= 6;
	ne = 0;
	for (int f = 0; f < 8; f++)
		if (row[f] == 0)
			empty[ne++] = f;
	row[empty[knights[n][0]]] = 'N';
	row[empty[knights[n][1]]] = 'N';
	memset(g, 0, sizeof *g);
	for (int f = 0; f < 8; f++) {
		if (row[f] == 0)
			row[f] = rooks++ == 1 ? 'K' : 'R';
		g->b[0][f] = row[f];
		g->b[1][f] = 'P';
		g->b[6][f] = 'p';
		g->b[7][f] = (char)(row[f] | 0x20);
	}
	for (int c = 0; c < 2; c++) {
		g->castle[c][1] = -1;
		for (int f = 0; f < 8; f++)
			if (row[f] == 'R') {
				if (g->castle[c][1] < 0)
					g->castle[c][1] = f;
				else
					g->castle[c][0] = f;
			}
	}
	g->ep = -1;
	g->full = 1;
}

static int
king_file(const struct cgame *g, int c)
{
	int r = c == 0 ? 0 : 7;

	for (int f = 0; f < 8; f++)
		if (g->b[r][f] == (c == 0 ? 'K' : 'k'))
			return f;
	return -1;
}

static bool
on_board(int f, int r)
{
	return f >= 0 && f < 8 && r >= 0 && r < 8;
}

#define MAX_MOVES 320 /* more than any position has */

/* Pseudo-legal moves (kings are never captured) of the side to move. */
static int
cgame_moves(const struct cgame *g, struct cmove *mv)
{
	static const int kn[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
				     {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
	static const int dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},
				       {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
	int c = g->side, fwd = c == 0 ? 1 : -1, n = 0;

#define ADD(FF, FR, TF, TR, PR, CA)                                            \
	do {                                                                   \
		if (n == MAX_MOVES)                                            \
			break;                                                 \
		mv[n].ff = (signed char)(FF);                                  \
		mv[n].fr = (signed char)(FR);                                  \
		mv[n].tf = (signed char)(TF);                                  \
		mv[n].tr = (signed char)(TR);                                  \
		mv[n].promo = (PR);                                            \
		mv[n].castle = (CA);                                           \
		n++;                                                           \
	} while (0)

	for (int r = 0; r < 8; r++)
		for (int f = 0; f < 8; f++) {
			char p = g->b[r][f], k;
			int lo = 0, hi = 8;
			bool slide = true;
			if (p == 0 || colour_of(p) != c)
				continue;
			k = (char)(p | 0x20);
			if (k == 'p') {
				int r1 = r + fwd;
				char pr = (r1 == 0 || r1 == 7) ? 'q' : 0;
				if (on_board(f, r1) && g->b[r1][f] == 0) {
					ADD(f, r, f, r1, pr, false);
					if (r == (c == 0 ? 1 : 6) &&
					    g->b[r1 + fwd][f] == 0)
						ADD(f, r, f, r1 + fwd, 0,
						    false);
				}
				for (int df = -1; df <= 1; df += 2) {
					char t;
					if (!on_board(f + df, r1))
						continue;
					t = g->b[r1][f + df];
					if (t != 0 && colour_of(t) != c &&
					    (t | 0x20) != 'k')
						ADD(f, r, f + df, r1, pr,
						    false);
					else if (t == 0 && g->ep == f + df &&
						 r == (c == 0 ? 4 : 3))
						ADD(f, r, f + df, r1, 0, false);
				}
				continue;
			}
			if (k == 'n' || k == 'k') {
				for (int d = 0; d < 8; d++) {
					int tf = f + (k == 'n' ? kn[d][0]
							       : dirs[d][0]);
					int tr = r + (k == 'n' ? kn[d][1]
							       : dirs[d][1]);
					char t;
					if (!on_board(tf, tr))
						continue;
					t = g->b[tr][tf];
					if (t == 0 || (colour_of(t) != c &&
						       (t | 0x20) != 'k'))
						ADD(f, r, tf, tr, 0, false);
				}
				continue;
			}
			if (k == 'r')
				hi = 4;
			else if (k == 'b')
				lo = 4;
			else if (k != 'q')
				slide = false;
			for (int d = lo; slide && d < hi; d++) {
				int tf = f + dirs[d][0], tr = r + dirs[d][1];
				while (on_board(tf, tr)) {
					char t = g->b[tr][tf];
					if (t != 0 && (colour_of(t) == c ||
						       (t | 0x20) == 'k'))
						break;
					ADD(f, r, tf, tr, 0, false);
					if (t != 0)
						break;
					tf += dirs[d][0];
					tr += dirs[d][1];
				}
			}
		}
	/* Castling, Chess960 rules (no check test): everything between the
	 * king, the rook and their targets empty but the two of them. */
	for (int w = 0; w < 2; w++) {
		int rf = g->castle[c][w], kf = king_file(g, c), br = c ? 7 : 0;
		int kt = w == 0 ? 6 : 2, rt = w == 0 ? 5 : 3, lo, hi;
		bool ok = true;
		if (rf < 0 || kf < 0)
			continue;
		lo = kf < rf ? kf : rf;
		hi = kf > rf ? kf : rf;
		lo = lo < kt ? lo : kt;
		lo = lo < rt ? lo : rt;
		hi = hi > kt ? hi : kt;
		hi = hi > rt ? hi : rt;
		for (int f = lo; f <= hi; f++)
			if (f != kf && f != rf && g->b[br][f] != 0)
				ok = false;
		if (ok)
			ADD(kf, br, rf, br, 0, true);
	}
#undef ADD
	return n;
}

static void
lose_right_at(struct cgame *g, int f, int r)
{
	for (int c = 0; c < 2; c++)
		if (r == (c == 0 ? 0 : 7))
			for (int w = 0; w < 2; w++)
				if (g->castle[c][w] == f)
					g->castle[c][w] = -1;
}

void
cgame_play(struct cgame *g, const struct cmove *m)
{
	int c = g->side;
	char p = g->b[m->fr][m->ff], cap = g->b[m->tr][m->tf];

	if (m->castle) {
		int w = m->tf > m->ff ? 0 : 1;
		char rook = g->b[m->tr][m->tf];
		g->b[m->fr][m->ff] = 0;
		g->b[m->tr][m->tf] = 0;
		g->b[m->fr][w == 0 ? 6 : 2] = p;
		g->b[m->fr][w == 0 ? 5 : 3] = rook;
		g->castle[c][0] = g->castle[c][1] = -1;
		g->ep = -1;
		g->half++;
	} else {
		bool pawn = (p | 0x20) == 'p';
		if (pawn && m->ff != m->tf && cap == 0)
			g->b[m->fr][m->tf] = 0; /* en passant */
		g->ep = pawn && (m->tr - m->fr == 2 || m->fr - m->tr == 2)
				? m->ff
				: -1;
		if ((p | 0x20) == 'k')
			g->castle[c][0] = g->castle[c][1] = -1;
		lose_right_at(g, m->ff, m->fr);
		lose_right_at(g, m->tf, m->tr);
		g->b[m->tr][m->tf] =
			m->promo ? (char)(c == 0 ? m->promo - 0x20 : m->promo)
				 : p;
		g->b[m->fr][m->ff] = 0;
		g->half = pawn || cap ? 0 : g->half + 1;
	}
	if (c == 1)
		g->full++;
	g->side ^= 1;
}

/* The move as UCI writes it with UCI_Chess960: castling king takes rook. */
static char *
put_move(char *p, const struct cmove *m)
{
	*p++ = (char)('a' + m->ff);
	*p++ = (char)('1' + m->fr);
	*p++ = (char)('a' + m->tf);
	*p++ = (char)('1' + m->tr);
	if (m->promo)
		*p++ = m->promo;
	return p;
}

/* Picks a move: castling when it can (half the time), else any. */
static bool
cgame_random_move(const struct cgame *g, struct cmove *out)
{
	struct cmove mv[MAX_MOVES];
	int n = cgame_moves(g, mv);

	if (n == 0)
		return false;
	if (mv[n - 1].castle && rnd(2) == 0)
		*out = mv[n - 1];
	else
		*out = mv[rnd((unsigned)n)];
	return true;
}

/* Another own rook on the back rank further out than file on that wing. */
static bool
outer_rook(const struct cgame *g, int c, int w, int file)
{
	int r = c == 0 ? 0 : 7;
	int lo = w == 0 ? file + 1 : 0, hi = w == 0 ? 8 : file;

	for (int f = lo; f < hi; f++)
		if (g->b[r][f] == (c == 0 ? 'R' : 'r'))
			return true;
	return false;
}

/* The FEN of g; castling as Shredder-FEN (rook files) or as X-FEN. The
 * e.p. field is always '-' (an X-FEN writer may drop a useless one). */
char *
put_fen(char *p, const struct cgame *g, bool xfen)
{
	bool any = false;

	for (int r = 7; r >= 0; r--) {
		int run = 0;
		for (int f = 0; f < 8; f++) {
			if (g->b[r][f] == 0) {
				run++;
				continue;
			}
			if (run > 0)
				*p++ = (char)('0' + run);
			run = 0;
			*p++ = g->b[r][f];
		}
		if (run > 0)
			*p++ = (char)('0' + run);
		if (r > 0)
			*p++ = '/';
	}
	*p++ = ' ';
	*p++ = g->side == 0 ? 'w' : 'b';
	*p++ = ' ';
	for (int c = 0; c < 2; c++)
		for (int w = 0; w < 2; w++) {
			int file = g->castle[c][w];
			char base = c == 0 ? 'A' : 'a';
			if (file < 0)
				continue;
			any = true;
			if (xfen && !outer_rook(g, c, w, file))
				*p++ = (char)((w == 0 ? 'K' : 'Q') +
					      (base - 'A'));
			else
				*p++ = (char)(base + file);
		}
	if (!any)
		*p++ = '-';
	p = put_s(p, " - ");
	p = put_u(p, g->half);
	*p++ = ' ';
	p = put_u(p, g->full);
	return p;
}

#define POOL_GAMES 768

/* A game of the pool: its start, its moves, and the text " moves m1 m2..."
 * of which the first k plies are text[0..off[k]). */
struct pool_game {
	struct cgame start;
	struct cmove mv[POS_MAX_PLIES];
	unsigned n;
	unsigned off[POS_MAX_PLIES + 1];
	char text[POS_MAX_PLIES * 6 + 8];
};

struct pos_gen {
	struct stream *in, *out; /* the FENs as sent, as expected */
	bool in_xfen; /* false: Shredder-FEN in, X-FEN out; true: the reverse */
	unsigned long lines, resent; /* resent: lines of resent games */
};

/* One line: `position fen FEN` and moves, in both dialects. */
static void
pos_emit(struct pos_gen *pg, const struct cgame *base, const char *prefix,
	 const char *moves, size_t mlen)
{
	char *a, *b;

	a = put_fen(put_s(stream_at(pg->in, POS_LINE_MAX), "position fen "),
		    base, pg->in_xfen);
	b = put_fen(put_s(stream_at(pg->out, POS_LINE_MAX), "position fen "),
		    base, !pg->in_xfen);
	if (mlen > 0) {
		a = put_s(a, prefix);
		b = put_s(b, prefix);
	}
	memcpy(a, moves, mlen);
	memcpy(b, moves, mlen);
	a[mlen] = b[mlen] = '\n';
	stream_wrote(pg->in, a + mlen + 1);
	stream_wrote(pg->out, b + mlen + 1);
	pg->lines++;
}

/* A random game of up to POS_MAX_PLIES from a random Chess960 start. */
static void
pool_game_make(struct pool_game *pg)
{
	struct cgame g;
	size_t len = 0;

	cgame_start(&g, rnd(960));
	pg->start = g;
	pg->n = 0;
	pg->off[0] = 0;
	while (pg->n < POS_MAX_PLIES && cgame_random_move(&g, &pg->mv[pg->n])) {
		if (len == 0)
			len = (size_t)(put_s(pg->text, " moves") - pg->text);
		pg->text[len++] = ' ';
		len = (size_t)(put_move(pg->text + len, &pg->mv[pg->n]) -
			       pg->text);
		cgame_play(&g, &pg->mv[pg->n]);
		pg->off[++pg->n] = (unsigned)len;
	}
}

/*
 * The position stream, from a pool of random Chess960 games; sessions drawn
 * at random until `lines` lines:
 *  - a game resent with one more ply each time (as a GUI does along a game),
 *    up to 40-200 plies: 1 session in 40 (most of the lines);
 *  - one line with a move list of 40-200 plies from a Chess960 start;
 *  - a mid-game FEN (10-70 plies in), with 0-20 moves after it.
 * Returns how many lines belong to resent games.
 */
unsigned long
make_positions(struct stream *in, struct stream *out, unsigned long lines)
{
	struct pos_gen pg = {.in = in, .out = out};
	struct pool_game *pool = malloc(POOL_GAMES * sizeof *pool);

	if (pool == NULL)
		die("out of memory");
	for (unsigned i = 0; i < POOL_GAMES; i++)
		pool_game_make(&pool[i]);
	stream_create(in);
	stream_create(out);
	while (pg.lines < lines) {
		const struct pool_game *pgm = &pool[rnd(POOL_GAMES)];
		unsigned kind = rnd(40), n = 40 + rnd(161);
		if (n > pgm->n)
			n = pgm->n;
		if (kind == 0) {
			pos_emit(&pg, &pgm->start, "", "", 0);
			for (unsigned k = 1; k <= n && pg.lines < lines; k++) {
				pos_emit(&pg, &pgm->start, "", pgm->text,
					 pgm->off[k]);
				pg.resent++;
			}
		} else if (kind < 33) {
			pos_emit(&pg, &pgm->start, "", pgm->text, pgm->off[n]);
		} else {
			struct cgame g = pgm->start;
			unsigned p = 10 + rnd(61), j = rnd(21);
			if (p + j > pgm->n)
				p = j = 0;
			for (unsigned k = 0; k < p; k++)
				cgame_play(&g, &pgm->mv[k]);
			pos_emit(&pg, &g, " moves", pgm->text + pgm->off[p],
				 pgm->off[p + j] - pgm->off[p]);
		}
	}
	free(pool);
	in->lines = out->lines = pg.lines;
	stream_seal(in);
	stream_seal(out);
	return pg.resent;
}

static bool
has_rights(const struct cgame *g)
{
	for (int c = 0; c < 2; c++)
		for (int w = 0; w < 2; w++)
			if (g->castle[c][w] >= 0)
				return true;
	return false;
}

static uint64_t
hash_bytes(const char *p, size_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * UINT64_C(0x100000001b3);
	return h | 1; /* 0 marks an empty slot */
}

/* A position of the bulk set: a pool game after `ply` plies, and `nmoves`
 * plies after it on the line. */
struct bulk_pos {
	struct cgame g;
	unsigned game, ply, nmoves;
};

/*
 * Bulk FENs, as a GUI analysing a database sends them: BULK_FENS different
 * Chess960 positions (0-60 plies into a pool game, each with a castling
 * right left: a field to rewrite), each as `position fen <FEN> moves ...`
 * with 0-20 plies, in X-FEN as sent and Shredder-FEN as the engine must get
 * it. The set is repeated until `lines`; no line extends the one before it,
 * so the position cache never helps.
 */
void
make_bulk(struct stream *in, struct stream *out, unsigned long lines)
{
	struct pos_gen pg = {.in = in, .out = out, .in_xfen = true};
	struct pool_game *pool = malloc(POOL_GAMES * sizeof *pool);
	struct bulk_pos *set = malloc(BULK_FENS * sizeof *set);
	size_t nslots = 4 * BULK_FENS;
	uint64_t *seen = calloc(nslots, sizeof *seen);
	unsigned count = 0;

	if (pool == NULL || set == NULL || seen == NULL)
		die("out of memory");
	for (unsigned i = 0; i < POOL_GAMES; i++)
		pool_game_make(&pool[i]);
	while (count < BULK_FENS) {
		struct bulk_pos *b = &set[count];
		const struct pool_game *pgm;
		char fen[POS_LINE_MAX];
		unsigned want;
		size_t slot;
		uint64_t h;

		b->game = rnd(POOL_GAMES);
		pgm = &pool[b->game];
		want = rnd((pgm->n < 60 ? pgm->n : 60) + 1);
		b->g = pgm->start;
		for (b->ply = 0; b->ply < want; b->ply++) {
			struct cgame next = b->g;
			cgame_play(&next, &pgm->mv[b->ply]);
			if (!has_rights(&next))
				break;
			b->g = next;
		}
		b->nmoves = rnd(21);
		if (b->ply + b->nmoves > pgm->n)
			b->nmoves = pgm->n - b->ply;
		h = hash_bytes(fen, (size_t)(put_fen(fen, &b->g, true) - fen));
		for (slot = h % nslots; seen[slot] != 0 && seen[slot] != h;
		     slot = (slot + 1) % nslots)
			;
		if (seen[slot] == 0) { /* a new position */
			seen[slot] = h;
			count++;
		}
	}
	stream_create(in);
	stream_create(out);
	while (pg.lines < lines) {
		const struct bulk_pos *b = &set[pg.lines % BULK_FENS];
		const struct pool_game *pgm = &pool[b->game];
		unsigned from = pgm->off[b->ply],
			 to = pgm->off[b->ply + b->nmoves];
		/* off[0] is before the text's own " moves" */
		pos_emit(&pg, &b->g, b->ply == 0 ? "" : " moves",
			 pgm->text + from, to - from);
	}
	free(seen);
	free(set);
	free(pool);
	in->lines = out->lines = pg.lines;
	stream_seal(in);
	stream_seal(out);
}

/* The move of g written t[0..n) (UCI, a castle as king takes rook) among
 * g's pseudo-legal moves, into out; false if it is none of them. */
static bool
find_move(const struct cgame *g, const char *t, size_t n, struct cmove *out)
{
	struct cmove mv[MAX_MOVES];
	int k = cgame_moves(g, mv);

	if (n < 4 || n > 5)
		return false;
	for (int i = 0; i < k; i++) {
		if (mv[i].ff != t[0] - 'a' || mv[i].fr != t[1] - '1' ||
		    mv[i].tf != t[2] - 'a' || mv[i].tr != t[3] - '1' ||
		    (n == 5) != (mv[i].promo != 0))
			continue;
		*out = mv[i];
		if (n == 5) {
			if (strchr("qrbn", t[4]) == NULL)
				return false;
			out->promo = t[4];
		}
		return true;
	}
	return false;
}

/* One line of the game file, `NUMBER SHREDDER-FEN;m1 m2 ...`, into gm. */
static void
game_parse(struct game960 *gm, const char *line, size_t n, unsigned lineno)
{
	const char *semi = memchr(line, ';', n), *p, *end = line + n;
	struct cgame g;
	char *e;
	size_t len = 0;
	unsigned long num = strtoul(line, &e, 10);

	if (semi == NULL || e == line || *e != ' ' || num >= 960)
		die("game file, line %u: not NUMBER FEN;MOVES", lineno);
	memset(gm, 0, sizeof *gm);
	gm->number = (unsigned)num;
	cgame_start(&g, gm->number);
	*put_fen(gm->shredder, &g, false) = '\0';
	*put_fen(gm->xfen, &g, true) = '\0';
	if ((size_t)(semi - (e + 1)) != strlen(gm->shredder) ||
	    memcmp(e + 1, gm->shredder, strlen(gm->shredder)) != 0)
		die("game file, line %u: the FEN is not Chess960 start %u (%s)",
		    lineno, gm->number, gm->shredder);
	for (p = semi + 1; p < end;) {
		const char *t = p;
		struct cmove m;
		size_t k;
		while (p < end && *p != ' ')
			p++;
		k = (size_t)(p - t);
		while (p < end && *p == ' ')
			p++;
		if (k == 0)
			continue;
		if (gm->n == GAME_MAX_PLIES || !find_move(&g, t, k, &m))
			die("game file, line %u: ply %u (%.*s) is no move of "
			    "the position",
			    lineno, gm->n + 1, (int)k, t);
		memcpy(gm->uci[gm->n], t, k);
		if (m.castle) {
			strcpy(gm->xb[gm->n], m.tf > m.ff ? "O-O" : "O-O-O");
			gm->castles++;
		} else {
			memcpy(gm->xb[gm->n], t, k);
		}
		if (len == 0)
			len = (size_t)(put_s(gm->text, " moves") - gm->text);
		gm->text[len++] = ' ';
		memcpy(gm->text + len, t, k);
		len += k;
		gm->off[++gm->n] = (unsigned)len;
		cgame_play(&g, &m);
	}
}

struct game960 *
games_parse(const char *text, size_t len, unsigned *ngames)
{
	const char *p = text, *end = text + len;
	struct game960 *v = NULL;
	unsigned n = 0, lineno = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t k = (size_t)((nl ? nl : end) - p);
		lineno++;
		if (k > 0 && p[k - 1] == '\r')
			k--;
		if (k > 0 && p[0] != '#') {
			if ((v = realloc(v, (n + 1) * sizeof *v)) == NULL)
				die("out of memory");
			game_parse(&v[n++], p, k, lineno);
		}
		p = nl ? nl + 1 : end;
	}
	if (n == 0)
		die("the game file has no game");
	*ngames = n;
	return v;
}
