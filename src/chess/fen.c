/* SPDX-License-Identifier: MIT */
/*
 * FEN castling dialects (doc/dialects.md): parse a FEN far enough to know the
 * kings, the back-rank rooks and the pawns around the en-passant square, turn
 * each castling letter into a canonical (colour, wing, rook file), and print
 * the castling field as X-FEN or Shredder-FEN.
 *
 * No I/O and no allocation in this file. It never plays moves: following a
 * game is game tracking's job. A malformed FEN is never partly translated.
 */
#include "fenbridge/fen.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *const colour_name[2] = {"white", "black"};
static const char *const wing_name[2] = {"king side", "queen side"};

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static char
own_rook(int colour)
{
	return colour == FB_WHITE ? 'R' : 'r';
}

__attribute__((format(printf, 4, 5))) static void
rep_add(struct fb_fen_report *rep, int code, size_t offset, const char *fmt,
	...)
{
	va_list ap;
	struct fb_diag *d;

	if (rep == NULL)
		return;
	if (rep->ndiag >= FB_FEN_MAX_DIAGS) {
		rep->nmore++;
		return;
	}
	d = &rep->diag[rep->ndiag++];
	d->code = code;
	d->offset = offset;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
	va_end(ap);
}

/* Records a malformed FEN: the report then holds this one error only. */
__attribute__((format(printf, 4, 5))) static int
fail(struct fb_fen_report *rep, int code, size_t offset, const char *fmt, ...)
{
	va_list ap;
	struct fb_diag *d;

	if (rep == NULL)
		return code;
	rep->error = code;
	rep->ndiag = 1;
	rep->nmore = 0;
	d = &rep->diag[0];
	d->code = code;
	d->offset = offset;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
	va_end(ap);
	return code;
}

/*
 * True when one of the 8 bytes at p is below 0x21, i.e. a blank once every
 * byte is known to be a tab or printable ASCII (below 0x80): the "has less"
 * bit trick, exact for bytes below 0x80 and independent of byte order.
 */
static bool
has_blank(const char *p)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	uint64_t x;

	memcpy(&x, p, sizeof x);
	return ((x - ones * 0x21) & ~x & ones * 0x80) != 0;
}

static int
split_fields(struct fb_fen *fen, struct fb_fen_report *rep)
{
	const char *t = fen->text;
	size_t i = 0, n = fen->len;
	unsigned bad = 0;

	fen->nfields = 0;
	/* Branch-free (vectorisable) scan; the exact loop only for a bad FEN. */
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t[i];
		bad |= ((unsigned char)(c - 0x20) > 0x5e) & (c != '\t');
	}
	for (i = 0; bad && i < n; i++) {
		unsigned char c = (unsigned char)t[i];
		if ((c < 0x20 && c != '\t') || c > 0x7e)
			return fail(rep, FB_EBYTE, i,
				    "byte 0x%02x is not printable ASCII", c);
	}
	i = 0;
	for (;;) {
		while (i < n && is_blank(t[i]))
			i++;
		if (i == n)
			break;
		if (fen->nfields == FB_FEN_MAX_FIELDS)
			return fail(rep, FB_EFIELDS, i,
				    "more than 6 fields (extra text at '%.*s')",
				    (int)(n - i > 12 ? 12 : n - i), t + i);
		fen->off[fen->nfields] = i;
		/* eight bytes at a time while none of them is a blank */
		while (n - i >= 8 && !has_blank(t + i))
			i += 8;
		while (i < n && !is_blank(t[i]))
			i++;
		fen->flen[fen->nfields] = i - fen->off[fen->nfields];
		fen->nfields++;
	}
	if (fen->nfields < 4)
		return fail(rep, FB_EFIELDS, n,
			    "%u field%s; a FEN needs board, side, castling and "
			    "en passant",
			    fen->nfields, fen->nfields == 1 ? "" : "s");
	return 0;
}

static int
piece_ok(char c)
{
	switch (c) {
	case 'P':
	case 'N':
	case 'B':
	case 'R':
	case 'Q':
	case 'K':
	case 'p':
	case 'n':
	case 'b':
	case 'r':
	case 'q':
	case 'k':
		return 1;
	case 'A':
	case 'C':
	case 'a':
	case 'c':
	case 'J':
	case 'j':
		return 2; /* Capablanca (and Janus) pieces: 10x8 only */
	default:
		return 0;
	}
}

/*
 * Byte classes for parse_board_fast(), one word per byte value:
 *   bits 0-3   squares the byte fills: 1 for a piece and for '/', a digit
 *              its value
 *   bit 4      a digit
 *   bits 8-15  what the byte leaves in its square: the piece letter, '/' for
 *              '/', 0 for a digit
 *   bits 32-39 1 for every byte the fast path knows (not: unknown bytes,
 *              '0', the 10x8-only pieces A, C, J; parse_board() deals with
 *              those)
 *   bits 40-47, 48-55, 56-63: 1 for '/', 'K' and 'k' respectively.
 * Summing the words of at most 87 bytes, the counts never carry.
 */
#define BC_FILL 0x0fu
#define BC_DIGIT 0x10u
#define BC_KNOWN(c, fill) ((uint64_t)1 << 32 | (uint64_t)(c) << 8 | (fill))
#define BC_RUN(n) (BC_KNOWN(0, n) | BC_DIGIT)
#define BC_COUNTS(known, slash, wk, bk)                                        \
	((uint64_t)(known) << 32 | (uint64_t)(slash) << 40 |                   \
	 (uint64_t)(wk) << 48 | (uint64_t)(bk) << 56)

static const uint64_t board_class[256] = {
	['P'] = BC_KNOWN('P', 1),
	['N'] = BC_KNOWN('N', 1),
	['B'] = BC_KNOWN('B', 1),
	['R'] = BC_KNOWN('R', 1),
	['Q'] = BC_KNOWN('Q', 1),
	['K'] = BC_KNOWN('K', 1) | BC_COUNTS(0, 0, 1, 0),
	['p'] = BC_KNOWN('p', 1),
	['n'] = BC_KNOWN('n', 1),
	['b'] = BC_KNOWN('b', 1),
	['r'] = BC_KNOWN('r', 1),
	['q'] = BC_KNOWN('q', 1),
	['k'] = BC_KNOWN('k', 1) | BC_COUNTS(0, 0, 0, 1),
	['1'] = BC_RUN(1),
	['2'] = BC_RUN(2),
	['3'] = BC_RUN(3),
	['4'] = BC_RUN(4),
	['5'] = BC_RUN(5),
	['6'] = BC_RUN(6),
	['7'] = BC_RUN(7),
	['8'] = BC_RUN(8),
	['9'] = BC_RUN(9),
	['/'] = BC_KNOWN('/', 1) | BC_COUNTS(0, 1, 0, 0),
};

/*
 * The common case of parse_board() without data-dependent branches: 8x8 or
 * 10x8, standard pieces, single-digit runs, one king each. Returns false,
 * having changed nothing in fen, for anything else (malformed or not), which
 * parse_board() then handles as before; when it returns true, fen holds
 * exactly what parse_board() would have stored.
 */
static bool
parse_board_fast(struct fb_fen *fen, int king[2])
{
	const unsigned char *t = (const unsigned char *)fen->text + fen->off[0];
	size_t n = fen->flen[0];
	/* The squares from a8 on with each '/' in a square of its own: with
	 * ranks of width W, rank 8 - r starts at r * (W + 1). A byte of the
	 * field fills squares pos.. onward: its piece (0 for a run) at pos,
	 * the rest of a run stays as cleared here. */
	unsigned char sq[128 + 16] = {0};
	uint64_t counts = 0, pairs = 0, prev = 0;
	size_t pos = 0, width, at[2];

	if (n > 8 * FB_FEN_MAX_FILES + 7)
		return false; /* also keeps the counts from carrying */
	for (size_t i = 0; i < n; i++) {
		uint64_t cls = board_class[t[i]];
		size_t k = pos & 127;

		sq[k] = (unsigned char)(cls >> 8);
		counts += cls;
		pairs |= cls & prev; /* a digit after a digit ("10" too) */
		prev = cls;
		pos += cls & BC_FILL;
	}
	if ((pos != 8 * 8 + 7 && pos != 8 * FB_FEN_MAX_FILES + 7) ||
	    counts >> 32 != BC_COUNTS(n, 7, 1, 1) >> 32 || (pairs & BC_DIGIT))
		return false;
	/* 8 ranks of width squares and 7 '/', all where they belong */
	width = (pos - (FB_FEN_RANKS - 1)) / FB_FEN_RANKS;
	for (size_t r = 1; r < FB_FEN_RANKS; r++)
		if (sq[r * (width + 1) - 1] != '/')
			return false;
	for (int col = 0; col < 2; col++) { /* there is exactly one */
		const unsigned char *k = memchr(sq, col ? 'k' : 'K', pos);
		at[col] = (size_t)(k - sq);
	}
	for (size_t r = 0; r < FB_FEN_RANKS; r++) {
		char *row = fen->pos.board[FB_FEN_RANKS - 1 - r];
		memcpy(row, sq + r * (width + 1), FB_FEN_MAX_FILES);
		if (width == 8)
			row[8] = row[9] = 0;
	}
	for (int col = 0; col < 2; col++) {
		size_t kr = FB_FEN_RANKS - 1 - at[col] / (width + 1);
		king[col] = kr == (size_t)fb_game_back_rank(col)
				    ? (int)(at[col] % (width + 1))
				    : -1;
	}
	fen->pos.width = (unsigned)width;
	return true;
}

/* What parse_board() has read of the board field so far. */
struct board_scan {
	unsigned rank, width, files, kings[2];
	bool capa;
	size_t capa_at; /* the first 10x8 piece */
	int king_rank[2], king_file[2];
};

/* A '/' (or the field's end, as one) at offset at: the rank just read
 * must be as wide as rank 8, and 8 or 10 files wide. */
static int
scan_rank_end(struct board_scan *b, size_t at, struct fb_fen_report *rep)
{
	if (b->rank == 0)
		b->width = b->files;
	else if (b->files != b->width)
		return fail(rep, FB_EWIDTH, at,
			    "rank %u has %u files, rank 8 has %u",
			    FB_FEN_RANKS - b->rank, b->files, b->width);
	if (b->width != 8 && b->width != FB_FEN_MAX_FILES)
		return fail(rep, FB_EWIDTH, at,
			    "ranks are %u files wide; only 8 and 10 are known",
			    b->width);
	b->rank++;
	b->files = 0;
	return 0;
}

/* A run of empty squares at t[*i..n): 1 to 9, or 10; *i moves past it. */
static int
scan_run(struct board_scan *b, const char *t, size_t n, size_t *i, size_t at,
	 struct fb_fen_report *rep)
{
	size_t j = *i;
	unsigned run;

	while (j < n && t[j] >= '0' && t[j] <= '9')
		j++;
	if (j - *i == 2 && t[*i] == '1' && t[*i + 1] == '0')
		run = 10;
	else if (j - *i == 1 && t[*i] != '0')
		run = (unsigned)(t[*i] - '0');
	else
		return fail(rep, FB_EDIGITS, at,
			    "'%.*s' is not a run of 1 to 10 empty squares",
			    (int)(j - *i > 8 ? 8 : j - *i), t + *i);
	b->files += run;
	if (b->files > FB_FEN_MAX_FILES)
		return fail(rep, FB_EWIDTH, at,
			    "rank %u is wider than 10 files",
			    FB_FEN_RANKS - b->rank);
	*i = j;
	return 0;
}

/* Piece letter c at offset at: onto the board, a king counted. */
static int
scan_piece(struct fb_fen *fen, struct board_scan *b, char c, size_t at,
	   struct fb_fen_report *rep)
{
	switch (piece_ok(c)) {
	case 0:
		return fail(rep, FB_EPIECE, at, "unknown piece letter '%c'", c);
	case 2:
		if (!b->capa)
			b->capa_at = at;
		b->capa = true;
		break;
	}
	if (b->files >= FB_FEN_MAX_FILES)
		return fail(rep, FB_EWIDTH, at,
			    "rank %u is wider than 10 files",
			    FB_FEN_RANKS - b->rank);
	fen->pos.board[FB_FEN_RANKS - 1 - b->rank][b->files] = c;
	if (c == 'K' || c == 'k') {
		int col = c == 'K' ? FB_WHITE : FB_BLACK;
		b->kings[col]++;
		b->king_rank[col] = (int)(FB_FEN_RANKS - 1 - b->rank);
		b->king_file[col] = (int)b->files;
	}
	b->files++;
	return 0;
}

/* The whole field is read: 8 ranks, 10x8 pieces on a 10x8 board, one
 * king a side; king[col] is its file on its back rank, else -1. */
static int
scan_done(struct fb_fen *fen, const struct board_scan *b, int king[2],
	  struct fb_fen_report *rep)
{
	if (b->rank != FB_FEN_RANKS)
		return fail(rep, FB_ERANKS, fen->off[0] + fen->flen[0],
			    "%u rank%s; a board has 8", b->rank,
			    b->rank == 1 ? "" : "s");
	if (b->capa && b->width != FB_FEN_MAX_FILES)
		return fail(
			rep, FB_EPIECE, b->capa_at,
			"pieces 'A', 'C' and 'J' exist only on 10x8 boards");
	for (int col = 0; col < 2; col++) {
		if (b->kings[col] != 1)
			return fail(rep, FB_EKINGS, fen->off[0],
				    "%u %s kings; a FEN needs exactly one",
				    b->kings[col], colour_name[col]);
		king[col] = b->king_rank[col] == fb_game_back_rank(col)
				    ? b->king_file[col]
				    : -1;
	}
	fen->pos.width = b->width;
	return 0;
}

/* The board field, any case parse_board_fast() leaves: every malformed
 * one gets its own message, at its offset. */
static int
parse_board(struct fb_fen *fen, int king[2], struct fb_fen_report *rep)
{
	const char *t = fen->text + fen->off[0];
	size_t n = fen->flen[0], i = 0;
	struct board_scan b = {.king_rank = {-1, -1}, .king_file = {-1, -1}};
	int rc;

	memset(fen->pos.board, 0, sizeof fen->pos.board);
	for (;;) {
		char c = i < n ? t[i] : '/';
		size_t at = fen->off[0] + i;

		if (c == '/') {
			if ((rc = scan_rank_end(&b, at, rep)) < 0)
				return rc;
			if (i >= n)
				break;
			if (b.rank == FB_FEN_RANKS)
				return fail(rep, FB_ERANKS, at,
					    "more than 8 ranks");
			i++;
		} else if (c >= '0' && c <= '9') {
			if ((rc = scan_run(&b, t, n, &i, at, rep)) < 0)
				return rc;
		} else {
			if ((rc = scan_piece(fen, &b, c, at, rep)) < 0)
				return rc;
			i++;
		}
	}
	return scan_done(fen, &b, king, rep);
}

/* Syntax of the castling field; resolving letters to rooks comes later. */
static int
check_castling(struct fb_fen *fen, struct fb_fen_report *rep)
{
	const char *t = fen->text + fen->off[2];
	size_t n = fen->flen[2], i = 0;
	char last_file = (char)('a' + fen->pos.width - 1);
	uint64_t seen = 0; /* the letters so far, bit c - 'A' */

	fen->prefix = 0;
	if (n == 1 && t[0] == '-')
		return 0;
	if (n > 1 && (t[0] == 's' || t[0] == 'm')) {
		fen->prefix = t[0];
		i = 1;
	}
	for (; i < n; i++) {
		char c = t[i], lc = (char)(c | 0x20);
		size_t at = fen->off[2] + i;

		if (c == '-')
			return fail(rep, FB_ECASTLING, at,
				    "castling field mixes '-' with letters");
		bool kq = lc == 'k' || lc == 'q';

		if (!kq && !(lc >= 'a' && lc <= 'j'))
			return fail(
				rep, FB_ECASTLING, at,
				"castling letter '%c' is not KQkq or a file",
				c);
		if (!kq && lc > last_file)
			return fail(
				rep, FB_ECASTLING, at,
				"castling letter '%c' is beyond the %u-file "
				"board",
				c, fen->pos.width);
		/* every letter here is one of A-Z, a-z */
		if (seen & (UINT64_C(1) << (c - 'A')))
			return fail(rep, FB_ECASTLING, at,
				    "castling letter '%c' is repeated", c);
		seen |= UINT64_C(1) << (c - 'A');
	}
	return 0;
}

/*
 * Turns each castling letter into a (colour, wing) slot holding a rook file.
 * Impossible rights become warnings; two letters for one slot are malformed.
 */
static int
resolve_castling(struct fb_fen *fen, const int kings[2],
		 struct fb_fen_report *rep)
{
	const char *t = fen->text + fen->off[2];
	size_t n = fen->flen[2];
	char slot_letter[2][2] = {{0, 0}, {0, 0}};
	int(*castle)[2] = fen->pos.castle;
	char(*board)[FB_FEN_MAX_FILES] = fen->pos.board;

	castle[0][0] = castle[0][1] = -1;
	castle[1][0] = castle[1][1] = -1;
	if (n == 1 && t[0] == '-')
		return 0;
	for (size_t i = fen->prefix ? 1 : 0; i < n; i++) {
		char c = t[i];
		size_t at = fen->off[2] + i;
		int col = (c >= 'A' && c <= 'Z') ? FB_WHITE : FB_BLACK;
		int br = fb_game_back_rank(col), king = kings[col], wing,
		    file = -1;
		char lc = (char)(c | 0x20);

		if (king < 0) {
			rep_add(rep, FB_WKING, at,
				"castling letter '%c' dropped: the %s king is "
				"not on rank %d",
				c, colour_name[col], br + 1);
			continue;
		}
		if (lc == 'k' || lc == 'q') {
			wing = lc == 'k' ? FB_HSIDE : FB_ASIDE;
			if (wing == FB_HSIDE) {
				for (int f = (int)fen->pos.width - 1; f > king;
				     f--)
					if (board[br][f] == own_rook(col)) {
						file = f;
						break;
					}
			} else {
				for (int f = 0; f < king; f++)
					if (board[br][f] == own_rook(col)) {
						file = f;
						break;
					}
			}
			if (file < 0) {
				rep_add(rep, FB_WROOK, at,
					"castling letter '%c' dropped: no %s rook "
					"on the %s of rank %d",
					c, colour_name[col], wing_name[wing],
					br + 1);
				continue;
			}
		} else {
			file = lc - 'a';
			if (file == king) {
				rep_add(rep, FB_WROOK, at,
					"castling letter '%c' dropped: the %s king "
					"stands on %c%d",
					c, colour_name[col], lc, br + 1);
				continue;
			}
			if (board[br][file] != own_rook(col)) {
				rep_add(rep, FB_WROOK, at,
					"castling letter '%c' dropped: no %s rook "
					"on %c%d",
					c, colour_name[col], lc, br + 1);
				continue;
			}
			wing = file > king ? FB_HSIDE : FB_ASIDE;
		}
		if (castle[col][wing] == file)
			return fail(
				rep, FB_ECONFLICT, at,
				"castling letters '%c' and '%c' name the same "
				"rook",
				slot_letter[col][wing], c);
		if (castle[col][wing] >= 0)
			return fail(rep, FB_ECONFLICT, at,
				    "castling letters '%c' and '%c' are two "
				    "rights on the %s %s",
				    slot_letter[col][wing], c, colour_name[col],
				    wing_name[wing]);
		castle[col][wing] = file;
		slot_letter[col][wing] = c;
	}
	return 0;
}

static int
check_ep(struct fb_fen *fen, struct fb_fen_report *rep)
{
	const char *t = fen->text + fen->off[3];
	size_t n = fen->flen[3];
	char rank = fen->pos.side == FB_WHITE ? '6' : '3';

	fen->pos.ep_file = -1;
	if (n == 1 && t[0] == '-')
		return 0;
	if (n != 2 || t[0] < 'a' || t[0] >= (char)('a' + fen->pos.width) ||
	    t[1] != rank)
		return fail(rep, FB_EEP, fen->off[3],
			    "en passant '%.*s' is not '-' or a square on rank "
			    "%c",
			    (int)(n > 8 ? 8 : n), t, rank);
	fen->pos.ep_file = t[0] - 'a';
	return 0;
}

/* The counters, digits only, into the position: capped, since a game
 * needs no more and a huge value must not wrap (the text keeps it). */
#define COUNTER_MAX 9999999

static int
check_counters(struct fb_fen *fen, struct fb_fen_report *rep)
{
	unsigned long v[2] = {0, 1};

	for (unsigned f = 4; f < fen->nfields; f++) {
		const char *t = fen->text + fen->off[f];
		v[f - 4] = 0;
		for (size_t i = 0; i < fen->flen[f]; i++) {
			if (t[i] < '0' || t[i] > '9')
				return fail(rep, FB_ECOUNTER, fen->off[f] + i,
					    "%s counter '%.*s' is not a number",
					    f == 4 ? "halfmove" : "fullmove",
					    (int)(fen->flen[f] > 12
							  ? 12
							  : fen->flen[f]),
					    t);
			v[f - 4] = v[f - 4] * 10 + (unsigned long)(t[i] - '0');
			if (v[f - 4] > COUNTER_MAX)
				v[f - 4] = COUNTER_MAX;
		}
	}
	fen->pos.halfmove = (unsigned)v[0];
	fen->pos.fullmove = v[1] == 0 ? 1 : (unsigned)v[1];
	return 0;
}

int
fb_fen_parse(struct fb_fen *fen, const char *text, size_t len,
	     struct fb_fen_report *rep)
{
	int rc, king[2];

	if (rep != NULL) {
		rep->error = 0;
		rep->ndiag = 0;
		rep->nmore = 0;
	}
	fen->text = text;
	fen->len = len;
	/* Zeroed, padding too (positions are compared with memcmp); rules
	 * NULL: the board's standard, until a variant applies its own
	 * (fb_variant_apply). */
	memset(&fen->pos, 0, sizeof fen->pos);
	if ((rc = split_fields(fen, rep)) < 0 ||
	    (!parse_board_fast(fen, king) &&
	     (rc = parse_board(fen, king, rep)) < 0))
		return rc;
	if (fen->flen[1] != 1 ||
	    (text[fen->off[1]] != 'w' && text[fen->off[1]] != 'b'))
		return fail(rep, FB_ESIDE, fen->off[1],
			    "side to move '%.*s' is not 'w' or 'b'",
			    (int)(fen->flen[1] > 8 ? 8 : fen->flen[1]),
			    text + fen->off[1]);
	fen->pos.side = text[fen->off[1]] == 'b' ? FB_BLACK : FB_WHITE;
	if ((rc = check_castling(fen, rep)) < 0 ||
	    (rc = check_ep(fen, rep)) < 0 ||
	    (rc = check_counters(fen, rep)) < 0 ||
	    (rc = resolve_castling(fen, king, rep)) < 0)
		return rc;
	return 0;
}

int
fb_fen_print(const struct fb_fen *fen, const struct fb_fen_style *style,
	     char *out, size_t cap)
{
	char castling[8];
	int clen = fb_game_print_castling(&fen->pos, fen->prefix, style,
					  castling, sizeof castling);
	bool drop_ep = style->notation == FB_XFEN && !style->keep_ep &&
		       fen->flen[3] == 2 && !fb_game_ep_capturable(&fen->pos);
	size_t c0 = fen->off[2], c1 = c0 + fen->flen[2];
	size_t e0 = fen->off[3], e1 = e0 + fen->flen[3];
	size_t n = c0 + (size_t)clen + (e0 - c1) + (drop_ep ? 1 : e1 - e0) +
		   (fen->len - e1);

	if (clen < 0)
		return clen;
	if (n > cap)
		return FB_ENOSPC;
	memcpy(out, fen->text, c0);
	out += c0;
	memcpy(out, castling, (size_t)clen);
	out += clen;
	memcpy(out, fen->text + c1, e0 - c1);
	out += e0 - c1;
	if (drop_ep) {
		*out++ = '-';
	} else {
		memcpy(out, fen->text + e0, e1 - e0);
		out += e1 - e0;
	}
	memcpy(out, fen->text + e1, fen->len - e1);
	return (int)n;
}

int
fb_fen_translate(const char *in, size_t len, const struct fb_fen_style *style,
		 char *out, size_t cap, struct fb_fen_report *rep)
{
	struct fb_fen fen;

	if (cap < len + FB_FEN_GROWTH)
		return FB_ENOSPC;
	if (fb_fen_parse(&fen, in, len, rep) < 0) {
		memcpy(out, in, len);
		return (int)len;
	}
	return fb_fen_print(&fen, style, out, cap);
}

int
fb_fen_parse_notation(const char *name, enum fb_notation *out)
{
	static const struct {
		const char *name;
		enum fb_notation notation;
	} names[] = {
		{"xfen", FB_XFEN},
		{"x-fen", FB_XFEN},
		{"shredder", FB_SHREDDER},
		{"shredder-fen", FB_SHREDDER},
		{"shredderfen", FB_SHREDDER},
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const char *a = name, *b = names[i].name;
		/* Fold letters only: '\r' | 0x20 is '-'. */
		while (*a != '\0' && (*a >= 'A' && *a <= 'Z' ? (char)(*a | 0x20)
							     : *a) == *b) {
			a++;
			b++;
		}
		if (*a == '\0' && *b == '\0') {
			*out = names[i].notation;
			return 0;
		}
	}
	return FB_EINVAL;
}
