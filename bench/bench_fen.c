/* SPDX-License-Identifier: MIT */
/*
 * Benchmark of the pure FEN library: fb_fen_translate() each way over a fixed,
 * deterministic set of Chess960 positions, against a memcpy baseline.
 *
 * The set: the 960 Chess960 starts (Scharnagl numbering) and, for each, ten
 * positions derived from it with a fixed-seed PRNG: back-rank pieces developed
 * or captured, pawns advanced (some by captures), kings castled or moved, rooks
 * moved or captured, inner-rook rights (the other rook parked further out on
 * the same wing, as in the X-FEN example), rights silently lost, e.p. squares
 * after a real double step (some capturable, some not), varied counters. No
 * king is left in check. Every FEN is built by this file in both dialects and
 * checked against the library before timing: no diagnostic, the library's
 * output equal to ours, and X-FEN -> Shredder-FEN -> X-FEN the identity.
 *
 * Exit status: 0 whatever the speed; 1 only when a check of the set fails.
 */
#include "fenbridge/fen.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NSTARTS 960
#define PER_START 11 /* the start itself and 10 derived positions */
#define NFEN (NSTARTS * PER_START)
#define FEN_MAX 96
#define OUT_CAP (FEN_MAX + FB_FEN_GROWTH)
#define HASH_SIZE 32768 /* power of two, > 2 * NFEN */
#define ROUNDS 20       /* passes over the set per timed repetition */
#define REPS 15         /* timed repetitions; best and median reported */
#define GOAL 5e6        /* FENs per second, each way */
#define SEED UINT64_C(0x5eed0f960c4e55)

static uint64_t rng_state = SEED;

/* splitmix64: small, fast, good enough, and the same on every platform. */
static uint64_t
rng_next(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform enough in [0, n) for n far below 2^32. */
static int
rnd(int n)
{
	return (int)((rng_next() >> 32) % (uint64_t)n);
}

struct pos {
	char b[8][8];     /* [rank][file], rank 0 = rank 1, '\0' empty */
	char side;        /* 'w' or 'b' */
	int kf;           /* the kings' start file */
	int rook[2];      /* start rook files, [FB_HSIDE] and [FB_ASIDE] */
	bool right[2][2]; /* [colour][wing] */
	int ep;           /* e.p. file, or -1 */
	unsigned half, full;
};

static int
back(int c)
{
	return c == FB_WHITE ? 0 : 7;
}

static int
fwd(int c)
{
	return c == FB_WHITE ? 1 : -1;
}

static char
piece(int c, char upper)
{
	return c == FB_WHITE ? upper : (char)(upper | 0x20);
}

static bool
on_board(int r, int f)
{
	return r >= 0 && r < 8 && f >= 0 && f < 8;
}

/* Chess960 start number n (0..959, Scharnagl) as a white back rank. */
static void
scharnagl(unsigned n, char row[8])
{
	static const int knights[10][2] = {
		{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
		{1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4},
	};
	static const char rkr[] = "RKR";
	int empty[8], k = 0, q;

	memset(row, 0, 8);
	row[(n % 4) * 2 + 1] = 'B'; /* light-squared bishop: b, d, f, h */
	n /= 4;
	row[(n % 4) * 2] = 'B'; /* dark-squared bishop: a, c, e, g */
	n /= 4;
	q = (int)(n % 6);
	n /= 6;
	for (int f = 0; f < 8; f++)
		if (row[f] == 0 && q-- == 0) {
			row[f] = 'Q';
			break;
		}
	for (int f = 0; f < 8; f++)
		if (row[f] == 0)
			empty[k++] = f;
	row[empty[knights[n][0]]] = 'N';
	row[empty[knights[n][1]]] = 'N';
	k = 0;
	for (int f = 0; f < 8; f++)
		if (row[f] == 0)
			row[f] = rkr[k++];
}

static void
setup(struct pos *p, const char row[8])
{
	memset(p, 0, sizeof *p);
	p->rook[FB_ASIDE] = p->rook[FB_HSIDE] = -1;
	for (int f = 0; f < 8; f++) {
		p->b[0][f] = row[f];
		p->b[1][f] = 'P';
		p->b[6][f] = 'p';
		p->b[7][f] = (char)(row[f] | 0x20);
		if (row[f] == 'K')
			p->kf = f;
		if (row[f] == 'R') {
			if (p->rook[FB_ASIDE] < 0)
				p->rook[FB_ASIDE] = f;
			else
				p->rook[FB_HSIDE] = f;
		}
	}
	for (int c = 0; c < 2; c++)
		p->right[c][0] = p->right[c][1] = true;
	p->side = 'w';
	p->ep = -1;
	p->half = 0;
	p->full = 1;
}

/* Is square (r, f) attacked by colour c? */
static bool
attacked(const struct pos *p, int r, int f, int c)
{
	static const int kn[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
				     {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
	static const int dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},
				       {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
	int pr = r - fwd(c);

	for (int d = -1; d <= 1; d += 2)
		if (on_board(pr, f + d) && p->b[pr][f + d] == piece(c, 'P'))
			return true;
	for (int i = 0; i < 8; i++) {
		int rr = r + kn[i][0], ff = f + kn[i][1];
		if (on_board(rr, ff) && p->b[rr][ff] == piece(c, 'N'))
			return true;
	}
	for (int i = 0; i < 8; i++) {
		char line = i < 4 ? 'R' : 'B';
		int rr = r + dirs[i][0], ff = f + dirs[i][1];

		if (on_board(rr, ff) && p->b[rr][ff] == piece(c, 'K'))
			return true;
		while (on_board(rr, ff)) {
			char x = p->b[rr][ff];
			if (x != 0) {
				if (x == piece(c, line) || x == piece(c, 'Q'))
					return true;
				break;
			}
			rr += dirs[i][0];
			ff += dirs[i][1];
		}
	}
	return false;
}

static bool
king_attacked(const struct pos *p, int c)
{
	for (int r = 0; r < 8; r++)
		for (int f = 0; f < 8; f++)
			if (p->b[r][f] == piece(c, 'K'))
				return attacked(p, r, f, !c);
	return true; /* no king: cannot happen */
}

/* Has colour c moved a pawn off its start rank (or lost one)? */
static bool
pawns_moved(const struct pos *p, int c)
{
	int pr = back(c) + fwd(c);

	for (int f = 0; f < 8; f++)
		if (p->b[pr][f] != piece(c, 'P'))
			return true;
	return false;
}

/*
 * The piece on (r, f) leaves: developed to an empty square of ranks 3 to 6
 * (a bishop keeps its square colour; only a knight gets out before a pawn
 * has moved), or captured.
 */
static void
develop(struct pos *p, int r, int f)
{
	char x = p->b[r][f];
	int c = x >= 'a' ? FB_BLACK : FB_WHITE;

	p->b[r][f] = 0;
	if (rnd(5) < 2 || ((x | 0x20) != 'n' && !pawns_moved(p, c)))
		return; /* captured */
	for (int tries = 0; tries < 16; tries++) {
		int rr = 2 + rnd(4), ff = rnd(8);
		if (p->b[rr][ff] != 0)
			continue;
		if ((x | 0x20) == 'b' && (rr + ff) % 2 != (r + f) % 2)
			continue;
		p->b[rr][ff] = x;
		return;
	}
}

/* Minor pieces and queen of colour c: some developed or captured. */
static void
develop_pieces(struct pos *p, int c)
{
	int br = back(c), pct = rnd(60);

	for (int f = 0; f < 8; f++) {
		char x = (char)(p->b[br][f] | 0x20);
		if ((x == 'n' || x == 'b' || x == 'q') && rnd(100) < pct)
			develop(p, br, f);
	}
}

/* Pawn moves of colour c: pushes, double steps, a few captures and losses. */
static void
move_pawns(struct pos *p, int c)
{
	int n = rnd(9), d = fwd(c), last = c == FB_WHITE ? 4 : 3;
	char pawn = piece(c, 'P');

	for (int i = 0; i < n; i++) {
		int f = rnd(8), r = -1;
		for (int rr = 1; rr < 7; rr++)
			if (p->b[rr][f] == pawn)
				r = rr; /* the only or the most advanced one */
		if (r < 0 || r == last)
			continue;
		if (rnd(12) == 0) { /* this pawn was captured */
			p->b[r][f] = 0;
			continue;
		}
		if (rnd(6) == 0) { /* captures toward an adjacent file */
			int ff = f + (rnd(2) ? 1 : -1);
			if (on_board(r + d, ff) && p->b[r + d][ff] == 0) {
				p->b[r][f] = 0;
				p->b[r + d][ff] = pawn;
			}
			continue;
		}
		if (p->b[r + d][f] != 0)
			continue;
		p->b[r][f] = 0;
		if (r == 1 + 5 * c && p->b[r + 2 * d][f] == 0 && rnd(2))
			r += 2 * d;
		else
			r += d;
		p->b[r][f] = pawn;
	}
}

/*
 * Empties the back-rank squares of colour c between files lo and hi
 * (inclusive) except the given files; other pieces there are developed.
 * Returns false (nothing changed) when a rook other than keep2 is in the way.
 */
static bool
clear_rank(struct pos *p, int c, int lo, int hi, int keep1, int keep2)
{
	int br = back(c);

	for (int f = lo; f <= hi; f++)
		if (f != keep1 && f != keep2 && p->b[br][f] == piece(c, 'R'))
			return false;
	for (int f = lo; f <= hi; f++)
		if (f != keep1 && f != keep2 && p->b[br][f] != 0)
			develop(p, br, f);
	return true;
}

static int
min4(int a, int b, int c, int d)
{
	int m = a < b ? a : b;
	m = m < c ? m : c;
	return m < d ? m : d;
}

static int
max4(int a, int b, int c, int d)
{
	int m = a > b ? a : b;
	m = m > c ? m : c;
	return m > d ? m : d;
}

/* Chess960 castling of colour c on wing w: king to g/c, rook to f/d. */
static bool
castle(struct pos *p, int c, int w)
{
	int br = back(c), kf = p->kf, rf = p->rook[w];
	int kt = w == FB_HSIDE ? 6 : 2, rt = w == FB_HSIDE ? 5 : 3;

	if (!clear_rank(p, c, min4(kf, rf, kt, rt), max4(kf, rf, kt, rt), kf,
			rf))
		return false;
	p->b[br][kf] = 0;
	p->b[br][rf] = 0;
	p->b[br][kt] = piece(c, 'K');
	p->b[br][rt] = piece(c, 'R');
	return true;
}

/* The king of colour c steps along its rank or off it. */
static bool
move_king(struct pos *p, int c, bool up)
{
	int br = back(c), r = up ? br + fwd(c) : br;
	int start = rnd(3);

	for (int i = 0; i < 3; i++) {
		int f = p->kf + (start + i) % 3 - 1;
		if (on_board(r, f) && p->b[r][f] == 0) {
			p->b[br][p->kf] = 0;
			p->b[r][f] = piece(c, 'K');
			return true;
		}
	}
	return false;
}

/* The castling rook of colour c on wing w moves (toward the king or up its
 * file) or is captured. */
static void
move_rook(struct pos *p, int c, int w)
{
	int br = back(c), rf = p->rook[w], d = w == FB_HSIDE ? -1 : 1;
	int to[2][8], n = 0;

	for (int f = rf + d; f != p->kf && p->b[br][f] == 0; f += d) {
		to[0][n] = br;
		to[1][n++] = f;
	}
	for (int r = br + fwd(c); r >= 0 && r < 8 && p->b[r][rf] == 0;
	     r += fwd(c)) {
		to[0][n] = r;
		to[1][n++] = rf;
	}
	p->b[br][rf] = 0;
	if (n > 0 && rnd(4) != 0) {
		int i = rnd(n);
		p->b[to[0][i]][to[1][i]] = piece(c, 'R');
	}
}

/*
 * Inner-rook right: the rook of the other wing has travelled to a back-rank
 * square further out than colour c's castling rook on wing w, which keeps its
 * right (as in the X-FEN example, 'Gkq'). The other wing's right is lost.
 */
static bool
inner_rook(struct pos *p, int c, int w)
{
	int br = back(c), rf = p->rook[w], other = p->rook[!w];
	int lo = w == FB_HSIDE ? rf + 1 : 0, hi = w == FB_HSIDE ? 7 : rf - 1;
	int t;

	if (lo > hi)
		return false;
	t = lo + rnd(hi - lo + 1);
	if (p->b[br][t] != 0)
		develop(p, br, t);
	p->b[br][other] = 0;
	p->b[br][t] = piece(c, 'R');
	p->right[c][!w] = false;
	return true;
}

/* What has happened to colour c's castling rights. */
static void
rights_event(struct pos *p, int c)
{
	int e = rnd(100), w = rnd(2);
	bool done = true;

	if (e < 35)
		return; /* untouched */
	if (e < 45)
		done = castle(p, c, FB_HSIDE);
	else if (e < 52)
		done = castle(p, c, FB_ASIDE);
	else if (e < 60)
		done = move_king(p, c, false) || move_king(p, c, true);
	else if (e < 66)
		done = move_king(p, c, true) || move_king(p, c, false);
	else if (e < 86)
		move_rook(p, c, e < 76 ? FB_HSIDE : FB_ASIDE);
	else if (e < 96)
		done = inner_rook(p, c, w) || inner_rook(p, c, !w);
	else
		p->right[c][w] = false; /* a rook went away and came back */
	if (!done) /* the king went for a walk and came back */
		p->right[c][0] = p->right[c][1] = false;
}

/*
 * The side not to move has just double-stepped a pawn: the e.p. square.
 * Sometimes the side to move gets a pawn beside it (a capture exists).
 */
static void
make_ep(struct pos *p)
{
	int s = p->side == 'w' ? FB_WHITE : FB_BLACK, o = !s;
	int from = o == FB_WHITE ? 1 : 6, d = fwd(o), start = rnd(8);
	int to = from + 2 * d;

	for (int i = 0; i < 8; i++) {
		int f = (start + i) % 8;
		if (p->b[from][f] != piece(o, 'P') || p->b[from + d][f] != 0 ||
		    p->b[to][f] != 0)
			continue;
		p->b[from][f] = 0;
		p->b[to][f] = piece(o, 'P');
		p->ep = f;
		if (rnd(2) == 0)
			return;
		/* bring a pawn of the side to move beside it */
		for (int side = 0; side < 2; side++) {
			int ff = f + ((side ^ (start & 1)) ? 1 : -1);
			if (!on_board(to, ff) || p->b[to][ff] != 0)
				continue;
			for (int r = to - fwd(s); r != back(s); r -= fwd(s)) {
				if (p->b[r][ff] == piece(s, 'P')) {
					p->b[r][ff] = 0;
					p->b[to][ff] = piece(s, 'P');
					return;
				}
				if (p->b[r][ff] != 0)
					break;
			}
		}
		return;
	}
}

static bool
ep_capturable(const struct pos *p)
{
	int s = p->side == 'w' ? FB_WHITE : FB_BLACK, f = p->ep;
	int sq = s == FB_WHITE ? 5 : 2, pr = s == FB_WHITE ? 4 : 3;

	if (f < 0 || p->b[sq][f] != 0 || p->b[pr][f] != piece(!s, 'P'))
		return false;
	return (f > 0 && p->b[pr][f - 1] == piece(s, 'P')) ||
	       (f < 7 && p->b[pr][f + 1] == piece(s, 'P'));
}

/* Drops rights whose king or rook is no longer on its start square. */
static void
settle_rights(struct pos *p)
{
	for (int c = 0; c < 2; c++) {
		int br = back(c);
		for (int w = 0; w < 2; w++)
			if (p->b[br][p->kf] != piece(c, 'K') ||
			    p->b[br][p->rook[w]] != piece(c, 'R'))
				p->right[c][w] = false;
	}
}

static void
derive(struct pos *p, const char row[8])
{
	for (;;) {
		setup(p, row);
		for (int c = 0; c < 2; c++) {
			move_pawns(p, c);
			develop_pieces(p, c);
			rights_event(p, c);
		}
		p->side = rnd(2) ? 'b' : 'w';
		if (rnd(100) < 35)
			make_ep(p);
		settle_rights(p);
		if (king_attacked(p, FB_WHITE) || king_attacked(p, FB_BLACK))
			continue; /* keep only positions without check */
		if (p->ep >= 0) {
			p->half = 0;
		} else {
			int h = rnd(10);
			p->half = h < 3   ? 0u
				  : h < 9 ? (unsigned)rnd(20)
					  : (unsigned)rnd(100);
		}
		p->full = rnd(25) == 0 ? 100u + (unsigned)rnd(400)
				       : 3u + (unsigned)rnd(70);
		return;
	}
}

/* An inner-rook right: another own rook further out on its wing. */
static bool
inner_right(const struct pos *p, int c, int w)
{
	int br = back(c), rf = p->rook[w];
	int lo = w == FB_HSIDE ? rf + 1 : 0, hi = w == FB_HSIDE ? 8 : rf;

	for (int f = lo; f < hi; f++)
		if (p->b[br][f] == piece(c, 'R'))
			return true;
	return false;
}

/*
 * Our own rendering. xfen: castling per X-FEN. keep_ep: print the e.p.
 * square even when no capture exists (Shredder-FEN copies it as given).
 */
static size_t
print_fen(const struct pos *p, bool xfen, bool keep_ep, char *out)
{
	size_t n = 0, n0;

	for (int r = 7; r >= 0; r--) {
		int run = 0;
		for (int f = 0; f < 8; f++) {
			if (p->b[r][f] == 0) {
				run++;
				continue;
			}
			if (run > 0)
				out[n++] = (char)('0' + run);
			run = 0;
			out[n++] = p->b[r][f];
		}
		if (run > 0)
			out[n++] = (char)('0' + run);
		if (r > 0)
			out[n++] = '/';
	}
	out[n++] = ' ';
	out[n++] = p->side;
	out[n++] = ' ';
	n0 = n;
	for (int c = 0; c < 2; c++)
		for (int w = 0; w < 2; w++) {
			if (!p->right[c][w])
				continue;
			if (xfen && !inner_right(p, c, w))
				out[n++] = piece(c, w == FB_HSIDE ? 'K' : 'Q');
			else
				out[n++] = (char)((c == FB_WHITE ? 'A' : 'a') +
						  p->rook[w]);
		}
	if (n == n0)
		out[n++] = '-';
	out[n++] = ' ';
	if (p->ep >= 0 && (keep_ep || ep_capturable(p))) {
		out[n++] = (char)('a' + p->ep);
		out[n++] = p->side == 'w' ? '6' : '3';
	} else {
		out[n++] = '-';
	}
	n += (size_t)snprintf(out + n, FEN_MAX - n, " %u %u", p->half, p->full);
	out[n] = '\0';
	return n;
}

struct fenset {
	char text[NFEN * FEN_MAX]; /* packed, each FEN NUL-terminated */
	size_t used;
	size_t off[NFEN];
	unsigned len[NFEN];
	unsigned count;
	unsigned hash[HASH_SIZE]; /* index + 1, 0 = free */
};

static struct fenset shredder_set, xfen_set;

static uint64_t
fnv1a(const char *s, size_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * UINT64_C(0x100000001b3);
	return h;
}

/* The hash slot where s is, or where it would go (then *found is false). */
static size_t
set_slot(const struct fenset *set, const char *s, size_t n, bool *found)
{
	size_t i = (size_t)fnv1a(s, n) & (HASH_SIZE - 1);

	while (set->hash[i] != 0) {
		unsigned k = set->hash[i] - 1;
		if (set->len[k] == n &&
		    memcmp(set->text + set->off[k], s, n) == 0) {
			*found = true;
			return i;
		}
		i = (i + 1) & (HASH_SIZE - 1);
	}
	*found = false;
	return i;
}

static void
set_add(struct fenset *set, size_t slot, const char *s, size_t n)
{
	unsigned k = set->count++;

	set->off[k] = set->used;
	set->len[k] = (unsigned)n;
	memcpy(set->text + set->used, s, n + 1);
	set->used += n + 1;
	set->hash[slot] = k + 1;
}

static const char *
fen_at(const struct fenset *set, unsigned i)
{
	return set->text + set->off[i];
}

static const struct fb_fen_style to_xfen = {FB_XFEN, 0, false};
static const struct fb_fen_style to_shredder = {FB_SHREDDER, 0, false};

/*
 * Translates in with style and checks the result: no error, no diagnostic,
 * output equal to want. Prints why and returns false otherwise.
 */
static bool
check_one(const char *what, const char *in, const struct fb_fen_style *st,
	  const char *want, char *out)
{
	struct fb_fen_report rep = {0};
	int n = fb_fen_translate(in, strlen(in), st, out, OUT_CAP, &rep);

	if (n < 0 || rep.error != 0 || rep.ndiag != 0) {
		fprintf(stderr,
			"bench_fen: %s: '%s': rc %d, error %d, %u "
			"diagnostic(s)%s%s\n",
			what, in, n, rep.error, rep.ndiag,
			rep.ndiag ? ": " : "",
			rep.ndiag ? rep.diag[0].msg : "");
		return false;
	}
	out[n] = '\0';
	if (strcmp(out, want) != 0) {
		fprintf(stderr,
			"bench_fen: %s: '%s'\n  gave '%s'\n  want '%s'\n", what,
			in, out, want);
		return false;
	}
	return true;
}

/*
 * s: our Shredder-FEN (any e.p. square), x: our X-FEN, sx: our Shredder-FEN
 * with the e.p. field of x (what X-FEN -> Shredder-FEN must give).
 */
static bool
check_position(const char *s, const char *x, const char *sx)
{
	char out[OUT_CAP + 1], back_to_x[OUT_CAP + 1];

	return check_one("shredder->xfen", s, &to_xfen, x, out) &&
	       check_one("xfen->shredder", x, &to_shredder, sx, out) &&
	       check_one("round trip xfen->shredder->xfen", out, &to_xfen, x,
			 back_to_x) &&
	       check_one("shredder->shredder", s, &to_shredder, s, out) &&
	       check_one("xfen->xfen", x, &to_xfen, x, out);
}

struct stats {
	unsigned ep, ep_capturable, inner, no_rights, castled;
};

/*
 * Builds both sets. Returns false when a FEN fails its checks (printed).
 */
static bool
build_sets(struct stats *st)
{
	memset(st, 0, sizeof *st);
	for (unsigned id = 0; id < NSTARTS; id++) {
		char row[8];

		scharnagl(id, row);
		for (int k = 0; k < PER_START; k++) {
			struct pos p;
			char s[FEN_MAX], x[FEN_MAX], sx[FEN_MAX];
			size_t ns, nx, slot_s, slot_x;
			bool dup_s, dup_x;
			int tries = 0;

			do {
				if (k == 0)
					setup(&p, row);
				else
					derive(&p, row);
				ns = print_fen(&p, false, true, s);
				nx = print_fen(&p, true, false, x);
				slot_s = set_slot(&shredder_set, s, ns, &dup_s);
				slot_x = set_slot(&xfen_set, x, nx, &dup_x);
			} while ((dup_s || dup_x) && ++tries < 1000);
			if (dup_s || dup_x) {
				fprintf(stderr,
					"bench_fen: cannot find a new "
					"position for start %u\n",
					id);
				return false;
			}
			print_fen(&p, false, false, sx);
			if (!check_position(s, x, sx))
				return false;
			set_add(&shredder_set, slot_s, s, ns);
			set_add(&xfen_set, slot_x, x, nx);
			if (p.ep >= 0) {
				st->ep++;
				st->ep_capturable += ep_capturable(&p);
			}
			for (int c = 0; c < 2; c++)
				for (int w = 0; w < 2; w++)
					st->inner += p.right[c][w] &&
						     inner_right(&p, c, w);
			st->no_rights += !p.right[0][0] && !p.right[0][1] &&
					 !p.right[1][0] && !p.right[1][1];
		}
	}
	return true;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Called through a volatile pointer so that the copy is really done. */
static void *(*volatile copy_fn)(void *, const void *, size_t) = memcpy;

static double
time_translate(const struct fenset *set, const struct fb_fen_style *st,
	       uint64_t *sum)
{
	char out[OUT_CAP];
	struct fb_fen_report rep;
	uint64_t h = 0;
	double t0 = now();

	for (int r = 0; r < ROUNDS; r++)
		for (unsigned i = 0; i < set->count; i++) {
			int n = fb_fen_translate(fen_at(set, i), set->len[i],
						 st, out, sizeof out, &rep);
			h = h * 31 + (uint64_t)n +
			    (unsigned char)out[(unsigned)n / 2];
		}
	*sum = h;
	return now() - t0;
}

static double
time_copy(const struct fenset *set, uint64_t *sum)
{
	char out[OUT_CAP];
	uint64_t h = 0;
	double t0 = now();

	for (int r = 0; r < ROUNDS; r++)
		for (unsigned i = 0; i < set->count; i++) {
			int n = (int)set->len[i];
			copy_fn(out, fen_at(set, i), set->len[i]);
			h = h * 31 + (uint64_t)n +
			    (unsigned char)out[(unsigned)n / 2];
		}
	*sum = h;
	return now() - t0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct timing {
	const char *name;
	double t[REPS];
	uint64_t sum;
	double best_ns, median_ns; /* per FEN */
};

static void
summarise(struct timing *tm, unsigned count)
{
	double per = 1e9 / ((double)ROUNDS * count);

	qsort(tm->t, REPS, sizeof tm->t[0], cmp_double);
	tm->best_ns = tm->t[0] * per;
	tm->median_ns = tm->t[REPS / 2] * per;
}

static void
print_timing(const struct timing *tm, unsigned count)
{
	printf("%-15s %u FENs x %d rounds x %d reps: best %.2f M FENs/s "
	       "(%.1f ns/FEN), median %.2f M FENs/s (%.1f ns/FEN)\n",
	       tm->name, count, ROUNDS, REPS, 1e3 / tm->best_ns, tm->best_ns,
	       1e3 / tm->median_ns, tm->median_ns);
}

int
main(void)
{
	struct stats st;
	struct timing tm[4] = {
		{.name = "shredder->xfen:"},
		{.name = "xfen->shredder:"},
		{.name = "memcpy shredder"},
		{.name = "memcpy xfen"},
	};
	uint64_t first[4] = {0, 0, 0, 0}, total = 0;
	double start = now();
	bool met_best = true, met_median = true;

	if (!build_sets(&st)) {
		fprintf(stderr, "bench_fen: the FEN set fails its checks\n");
		return 1;
	}
	printf("set: %u distinct Chess960 FENs per dialect (960 starts + %u "
	       "derived), %.1f bytes avg; %u with e.p. (%u capturable, kept "
	       "in X-FEN), %u inner-rook rights, %u without rights; built "
	       "and checked in %.2f s (0 diagnostics, X->S->X identity)\n",
	       shredder_set.count, shredder_set.count - NSTARTS,
	       (double)(shredder_set.used - shredder_set.count) /
		       shredder_set.count,
	       st.ep, st.ep_capturable, st.inner, st.no_rights, now() - start);

	/* Interleaved, so that a noisy neighbour hits every column alike. */
	for (int r = 0; r < REPS; r++) {
		uint64_t sum[4];

		tm[0].t[r] = time_translate(&shredder_set, &to_xfen, &sum[0]);
		tm[1].t[r] = time_translate(&xfen_set, &to_shredder, &sum[1]);
		tm[2].t[r] = time_copy(&shredder_set, &sum[2]);
		tm[3].t[r] = time_copy(&xfen_set, &sum[3]);
		for (int k = 0; k < 4; k++) {
			if (r == 0)
				first[k] = sum[k];
			else if (sum[k] != first[k]) {
				fprintf(stderr,
					"bench_fen: %s output changed "
					"between repetitions\n",
					tm[k].name);
				return 1;
			}
			total = total * 1000003 + sum[k];
		}
	}
	for (int k = 0; k < 4; k++)
		summarise(&tm[k], shredder_set.count);
	print_timing(&tm[0], shredder_set.count);
	print_timing(&tm[1], xfen_set.count);
	printf("memcpy baseline: best %.1f M FENs/s (%.1f ns/FEN) on the "
	       "Shredder set, %.1f M FENs/s (%.1f ns/FEN) on the X-FEN set\n",
	       1e3 / tm[2].best_ns, tm[2].best_ns, 1e3 / tm[3].best_ns,
	       tm[3].best_ns);
	printf("ratio (translate / memcpy time, best): shredder->xfen %.1fx, "
	       "xfen->shredder %.1fx\n",
	       tm[0].best_ns / tm[2].best_ns, tm[1].best_ns / tm[3].best_ns);
	for (int k = 0; k < 2; k++) {
		met_best = met_best && 1e9 / tm[k].best_ns >= GOAL;
		met_median = met_median && 1e9 / tm[k].median_ns >= GOAL;
	}
	printf("goal >= %.1f M FENs/s each way: %s by the best, %s by the "
	       "median; checksum %016llx; %.2f s in all\n",
	       GOAL / 1e6, met_best ? "met" : "NOT met",
	       met_median ? "met" : "NOT met", (unsigned long long)total,
	       now() - start);
	return 0;
}
