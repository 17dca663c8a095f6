/* SPDX-License-Identifier: MIT */
/*
 * The position (see game.h): a board, the side to move, the castling rooks,
 * the en-passant file and the clocks, updated move by move without
 * legality checks, and printed as a FEN in either castling dialect
 * (docs: doc/dialects.md). Enough to tell a castling move from a king move
 * in any notation and to write it in another.
 *
 * No I/O and no allocation in this file.
 */
#include "fenbridge/game.h"

#include "fenbridge/error.h"

#include <stdio.h>
#include <string.h>

/* Standard chess and the Capablanca family (Capablanca, Gothic, CRC):
 * king and rook land on the c- and d-files or the g- and f-files (i and h
 * on 10x8). */
static const struct fb_rules chess_rules = {4, {6, 2}, {5, 3}, "qrbn"};
static const struct fb_rules capablanca_rules = {5, {8, 2}, {7, 3}, "qrbnac"};

const struct fb_rules *
fb_game_rules(const struct fb_game *g)
{
	if (g->rules != NULL)
		return g->rules;
	return g->width == 10 ? &capablanca_rules : &chess_rules;
}

/* Where king and rook land when castling on a wing. */
static int
king_target(const struct fb_game *g, int wing)
{
	return fb_game_rules(g)->king_to[wing];
}

static int
rook_target(const struct fb_game *g, int wing)
{
	return fb_game_rules(g)->rook_to[wing];
}

static int
colour_of(char piece)
{
	return piece >= 'a' ? FB_BLACK : FB_WHITE;
}

int
fb_game_king_file(const struct fb_game *g, int colour)
{
	const char *rank = g->board[fb_game_back_rank(colour)];
	char k = colour == FB_WHITE ? 'K' : 'k';

	for (int f = 0; f < (int)g->width; f++)
		if (rank[f] == k)
			return f;
	return -1;
}

void
fb_game_start(struct fb_game *g, const char *row)
{
	memset(g, 0, sizeof *g);
	g->width = strlen(row) == 10 ? 10 : 8;
	for (unsigned f = 0; f < g->width; f++) {
		g->board[0][f] = row[f];
		g->board[1][f] = 'P';
		g->board[6][f] = 'p';
		g->board[7][f] = (char)(row[f] | 0x20);
	}
	g->side = FB_WHITE;
	g->castle[0][FB_HSIDE] = g->castle[1][FB_HSIDE] = (int)g->width - 1;
	g->castle[0][FB_ASIDE] = g->castle[1][FB_ASIDE] = 0;
	g->ep_file = -1;
	g->fullmove = 1;
}

bool
fb_game_parse_oo(const char *t, size_t len, int *wing)
{
	size_t n = len;

	while (n > 0 && (t[n - 1] == '+' || t[n - 1] == '#'))
		n--;
	if (n == 3 && (t[0] == 'O' || t[0] == '0') && t[1] == '-' &&
	    t[2] == t[0]) {
		*wing = FB_HSIDE;
		return true;
	}
	if (n == 5 && (t[0] == 'O' || t[0] == '0') && t[1] == '-' &&
	    t[2] == t[0] && t[3] == '-' && t[4] == t[0]) {
		*wing = FB_ASIDE;
		return true;
	}
	return false;
}

/* The file of g's board a letter names, or -1. */
static int
file_of(const struct fb_game *g, char c)
{
	unsigned f = (unsigned)(unsigned char)c - 'a';

	return f < g->width ? (int)f : -1;
}

static int
rank_of(char c)
{
	unsigned r = (unsigned)(unsigned char)c - '1';

	return r < FB_FEN_RANKS ? (int)r : -1;
}

static bool
is_promotion(char c)
{
	switch (c | 0x20) {
	case 'q':
	case 'r':
	case 'b':
	case 'n':
	case 'a':
	case 'c':
	case 'j':
		return true;
	}
	return false;
}

/* A move of the king of the side to move along its back rank (m, no
 * promotion): castling when it takes its own rook that holds a right, or
 * moves two or more files to its castling square while the right
 * remains. */
static void
read_king_move(const struct fb_game *g, struct fb_move *m, char piece)
{
	int c = colour_of(piece), wing;
	char target;

	/* Only the side to move castles: a king move of the other side is
	 * what it says (an engine or GUI out of step must not get a rewrite
	 * that changes which move it is). */
	if (c != g->side || m->from_rank != m->to_rank ||
	    m->from_rank != fb_game_back_rank(c))
		return;
	target = g->board[m->to_rank][m->to_file];
	wing = m->to_file > m->from_file ? FB_HSIDE : FB_ASIDE;
	if (target == (c == FB_WHITE ? 'R' : 'r') &&
	    g->castle[c][wing] == m->to_file) {
		m->castle = wing; /* king takes own rook */
	} else if (g->castle[c][wing] >= 0 &&
		   m->to_file == king_target(g, wing) &&
		   (m->to_file - m->from_file >= 2 ||
		    m->from_file - m->to_file >= 2)) {
		m->castle = wing; /* the king's two-square move */
		m->to_file = g->castle[c][wing];
	}
}

int
fb_game_parse_move(const struct fb_game *g, const char *text, size_t len,
		   struct fb_move *m)
{
	size_t i = 4;
	int wing, k;
	char piece;

	*m = (struct fb_move){.castle = -1};
	/* No square starts with O or 0: the null move and O-O are read
	 * apart, and a plain move (the most of any game) skips them. */
	if (len > 0 && (text[0] == '0' || text[0] == 'O')) {
		if (len == 4 && memcmp(text, "0000", 4) == 0) {
			m->null = true;
			return 0;
		}
		if (!fb_game_parse_oo(text, len, &wing))
			return FB_EINVAL;
		k = fb_game_king_file(g, g->side);
		if (k < 0 || g->castle[g->side][wing] < 0)
			return FB_EINVAL;
		m->castle = wing;
		m->from_file = k;
		m->from_rank = m->to_rank = fb_game_back_rank(g->side);
		m->to_file = g->castle[g->side][wing];
		return 0;
	}
	if (len < 4 || (m->from_file = file_of(g, text[0])) < 0 ||
	    (m->from_rank = rank_of(text[1])) < 0 ||
	    (m->to_file = file_of(g, text[2])) < 0 ||
	    (m->to_rank = rank_of(text[3])) < 0)
		return FB_EINVAL;
	if (i < len) {
		if (text[i] == '=') {
			i++;
			if (i == len || text[i] == '+' || text[i] == '#')
				return FB_EINVAL; /* '=' without a piece */
		}
		/* A check or mate sign may follow the move without a
		 * promotion. */
		if (i < len && text[i] != '+' && text[i] != '#') {
			if (!is_promotion(text[i]))
				return FB_EINVAL;
			m->promo = text[i++];
		}
		while (i < len && (text[i] == '+' || text[i] == '#'))
			i++;
		if (i != len)
			return FB_EINVAL;
	}
	piece = g->board[m->from_rank][m->from_file];
	if ((piece | 0x20) == 'k' && m->promo == 0)
		read_king_move(g, m, piece);
	return 0;
}

static size_t
put_square(char *out, int file, int rank)
{
	out[0] = (char)('a' + file);
	out[1] = (char)('1' + rank);
	return 2;
}

int
fb_game_print_castle(const struct fb_game *g, const struct fb_move *m,
		     enum fb_castle_notation n, char *out, size_t cap)
{
	char buf[8];
	size_t len = 0;
	int dest;

	if (m->castle < 0)
		return FB_EINVAL;
	switch (n) {
	case FB_CASTLE_OO:
		len = m->castle == FB_HSIDE ? 3 : 5;
		memcpy(buf, "O-O-O", len);
		break;
	case FB_CASTLE_KXR:
		len = put_square(buf, m->from_file, m->from_rank);
		len += put_square(buf + len, m->to_file, m->to_rank);
		break;
	case FB_CASTLE_AUTO:
		return FB_EINVAL;
	case FB_CASTLE_KING:
		dest = king_target(g, m->castle);
		/* One file away (b1c1) the king's move reads as a king step,
		 * unless the castling rook stands on that square (f1g1): no
		 * king step can go there, and the string is the KxR one. */
		if (dest - m->from_file < 2 && m->from_file - dest < 2 &&
		    dest != m->to_file)
			return FB_EINVAL;
		len = put_square(buf, m->from_file, m->from_rank);
		len += put_square(buf + len, dest, m->from_rank);
		break;
	}
	if (len > cap)
		return FB_ENOSPC;
	memcpy(out, buf, len);
	return (int)len;
}

/* A move from or to a square of a back rank loses the right of a rook
 * there (moved or taken). */
static void
lose_right_at(struct fb_game *g, int file, int rank)
{
	int c = rank == fb_game_back_rank(FB_WHITE)   ? FB_WHITE
		: rank == fb_game_back_rank(FB_BLACK) ? FB_BLACK
						      : -1;

	if (c < 0)
		return;
	for (int w = 0; w < 2; w++)
		if (g->castle[c][w] == file)
			g->castle[c][w] = -1;
}

void
fb_game_play(struct fb_game *g, const struct fb_move *m)
{
	char piece, target;
	bool pawn;
	int c;

	if (m->null) {
		g->side ^= 1;
		g->ep_file = -1;
		g->halfmove++;
		if (g->side == FB_WHITE)
			g->fullmove++;
		return;
	}
	piece = g->board[m->from_rank][m->from_file];
	target = g->board[m->to_rank][m->to_file];
	pawn = (piece | 0x20) == 'p';
	c = piece ? colour_of(piece) : g->side;
	if (c == FB_BLACK)
		g->fullmove++;
	if (m->castle >= 0 || (!pawn && target == 0))
		g->halfmove++;
	else
		g->halfmove = 0;
	if (m->castle >= 0) {
		int r = m->from_rank, w = m->castle;
		char rook = g->board[r][m->to_file];
		g->board[r][m->from_file] = 0;
		g->board[r][m->to_file] = 0;
		g->board[r][king_target(g, w)] = piece;
		g->board[r][rook_target(g, w)] = rook;
		g->castle[c][0] = g->castle[c][1] = -1;
		g->ep_file = -1;
		g->side = c ^ 1;
		return;
	}
	if (pawn && m->from_file != m->to_file && m->to_file == g->ep_file &&
	    target == 0)
		g->board[m->from_rank][m->to_file] = 0; /* en passant */
	g->ep_file = pawn && (m->to_rank - m->from_rank == 2 ||
			      m->from_rank - m->to_rank == 2)
			     ? m->from_file
			     : -1;
	/* Without a right left, no move can lose one. */
	if (fb_game_can_castle(g)) {
		if ((piece | 0x20) == 'k')
			g->castle[c][0] = g->castle[c][1] = -1;
		lose_right_at(g, m->from_file, m->from_rank);
		lose_right_at(g, m->to_file, m->to_rank);
	}
	g->board[m->to_rank][m->to_file] =
		m->promo ? (char)(c == FB_WHITE ? m->promo & ~0x20
						: m->promo | 0x20)
			 : piece;
	g->board[m->from_rank][m->from_file] = 0;
	g->side = c ^ 1;
}

static int
standard_king_file(const struct fb_game *g)
{
	return fb_game_rules(g)->king_home;
}

bool
fb_game_is_standard_castling(const struct fb_game *g)
{
	int kfile = standard_king_file(g);

	for (int c = 0; c < 2; c++) {
		if (g->castle[c][0] < 0 && g->castle[c][1] < 0)
			continue;
		if (fb_game_king_file(g, c) != kfile)
			return false;
		if (g->castle[c][FB_HSIDE] >= 0 &&
		    g->castle[c][FB_HSIDE] != (int)g->width - 1)
			return false;
		if (g->castle[c][FB_ASIDE] > 0)
			return false;
	}
	return true;
}

static bool
standard_right(const struct fb_game *g, int c, int wing)
{
	int file = g->castle[c][wing];

	return fb_game_king_file(g, c) == standard_king_file(g) &&
	       file == (wing == FB_HSIDE ? (int)g->width - 1 : 0);
}

bool
fb_game_is_standard_castle(const struct fb_game *g, const struct fb_move *m)
{
	return m->castle >= 0 && m->from_file == standard_king_file(g) &&
	       m->to_file == (m->castle == FB_HSIDE ? (int)g->width - 1 : 0);
}

unsigned
fb_game_drop_nonstandard(struct fb_game *g)
{
	unsigned n = 0;

	for (int c = 0; c < 2; c++)
		for (int w = 0; w < 2; w++)
			if (g->castle[c][w] >= 0 && !standard_right(g, c, w)) {
				g->castle[c][w] = -1;
				n++;
			}
	return n;
}

bool
fb_game_ep_capturable(const struct fb_game *g)
{
	int f = g->ep_file;
	int rank = g->side == FB_WHITE ? 4 : 3;
	char ours = g->side == FB_WHITE ? 'P' : 'p';
	char theirs = g->side == FB_WHITE ? 'p' : 'P';

	if (f < 0 || f >= (int)g->width || g->board[rank][f] != theirs ||
	    g->board[g->side == FB_WHITE ? 5 : 2][f] != 0)
		return false;
	return (f > 0 && g->board[rank][f - 1] == ours) ||
	       (f + 1 < (int)g->width && g->board[rank][f + 1] == ours);
}

static char
own_rook(int colour)
{
	return colour == FB_WHITE ? 'R' : 'r';
}

/* True when another own rook stands further out than file on that wing. */
static bool
outer_rook(const struct fb_game *g, int col, int wing, int file)
{
	const char *rank = g->board[fb_game_back_rank(col)];
	int lo = wing == FB_HSIDE ? file + 1 : 0;
	int hi = wing == FB_HSIDE ? (int)g->width : file;

	for (int f = lo; f < hi; f++)
		if (rank[f] == own_rook(col))
			return true;
	return false;
}

int
fb_game_print_castling(const struct fb_game *g, char prefix,
		       const struct fb_fen_style *style, char *out, size_t cap)
{
	char buf[8];
	size_t n = 0;
	bool xfen = style->notation == FB_XFEN;

	for (int col = 0; col < 2; col++) {
		char base = col == FB_WHITE ? 'A' : 'a';
		for (int wing = 0; wing < 2; wing++) {
			int file = g->castle[col][wing];
			if (file < 0)
				continue;
			if (n == 0 && xfen && (prefix || style->prefix))
				buf[n++] = prefix ? prefix : style->prefix;
			if (xfen && !outer_rook(g, col, wing, file))
				buf[n++] =
					(char)((wing == FB_HSIDE ? 'K' : 'Q') +
					       (base - 'A'));
			else
				buf[n++] = (char)(base + file);
		}
	}
	if (n == 0)
		buf[n++] = '-';
	if (n > cap)
		return FB_ENOSPC;
	memcpy(out, buf, n);
	return (int)n;
}

int
fb_game_print_fen(const struct fb_game *g, const struct fb_fen_style *style,
		  char *out, size_t cap)
{
	char buf[FB_GAME_FEN_MAX];
	size_t n = 0;
	int k;

	for (int r = FB_FEN_RANKS - 1; r >= 0; r--) {
		int empty = 0;
		for (unsigned f = 0; f <= g->width; f++) {
			char p = f < g->width ? g->board[r][f] : 0;
			if (f < g->width && p == 0) {
				empty++;
				continue;
			}
			if (empty == 10) {
				buf[n++] = '1';
				buf[n++] = '0';
			} else if (empty > 0) {
				buf[n++] = (char)('0' + empty);
			}
			empty = 0;
			if (f < g->width)
				buf[n++] = p;
		}
		buf[n++] = r > 0 ? '/' : ' ';
	}
	buf[n++] = g->side == FB_WHITE ? 'w' : 'b';
	buf[n++] = ' ';
	k = fb_game_print_castling(g, 0, style, buf + n, 8);
	if (k < 0)
		return k;
	n += (size_t)k;
	buf[n++] = ' ';
	if (fb_game_ep_capturable(g)) {
		buf[n++] = (char)('a' + g->ep_file);
		buf[n++] = g->side == FB_WHITE ? '6' : '3';
	} else {
		buf[n++] = '-';
	}
	k = snprintf(buf + n, sizeof buf - n, " %u %u", g->halfmove,
		     g->fullmove);
	n += (size_t)k;
	if (n > cap)
		return FB_ENOSPC;
	memcpy(out, buf, n);
	return (int)n;
}

int
fb_game_parse_notation(const char *name, enum fb_castle_notation *n)
{
	if (strcmp(name, "auto") == 0)
		*n = FB_CASTLE_AUTO;
	else if (strcmp(name, "kxr") == 0)
		*n = FB_CASTLE_KXR;
	else if (strcmp(name, "king") == 0)
		*n = FB_CASTLE_KING;
	else if (strcmp(name, "oo") == 0)
		*n = FB_CASTLE_OO;
	else
		return FB_EINVAL;
	return 0;
}

const char *
fb_game_notation_name(enum fb_castle_notation n)
{
	switch (n) {
	case FB_CASTLE_KXR:
		return "kxr";
	case FB_CASTLE_KING:
		return "king";
	case FB_CASTLE_OO:
		return "oo";
	default:
		return "auto";
	}
}
