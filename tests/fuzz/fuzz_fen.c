/* SPDX-License-Identifier: MIT */
/*
 * fuzz_fen: the FEN parser and printer (src/chess/fen.c) on arbitrary bytes.
 *
 * The whole input is the FEN text. For every style (X-FEN with no, 's' or
 * 'm' prefix, e.p. kept or not; Shredder-FEN) it checks:
 *  - fb_fen_translate never writes more than len + FB_FEN_GROWTH bytes, and
 *    refuses a smaller buffer; a malformed FEN comes back unchanged with one
 *    diagnostic; fb_fen_parse agrees with it, with and without a report;
 *  - an accepted FEN parses to a consistent struct (kings, castling rooks on
 *    the right wing of their king, files inside the board);
 *  - only the castling and en-passant fields change, every other byte is
 *    copied;
 *  - the output parses again, without warnings, to the same position (board,
 *    side, castling rook files, king files), and translating it again in the
 *    same style gives the same bytes;
 *  - X-FEN -> Shredder-FEN -> X-FEN is the identity on the X-FEN output;
 *  - fb_fen_print and fb_game_print_castling honour their cap exactly;
 *  - fb_fen_parse_notation accepts only the documented dialect names (ASCII
 *    letters in any case), on a NUL-terminated prefix of the input.
 * Buffers are malloc'ed to their exact size so ASan sees any overrun.
 */
#include <stdbool.h>

#include "fenbridge/fen.h"
#include "fuzz_common.h"

static int
back(int col)
{
	return col == FB_WHITE ? 0 : FB_FEN_RANKS - 1;
}

static void
check_fen(const struct fb_fen *f, size_t len)
{
	const struct fb_game *g = &f->pos;

	CHECK(g->width == 8 || g->width == 10);
	CHECK(g->side == FB_WHITE || g->side == FB_BLACK);
	CHECK(g->ep_file >= -1 && g->ep_file < (int)g->width);
	CHECK(f->nfields >= 4 && f->nfields <= FB_FEN_MAX_FIELDS);
	CHECK(f->prefix == 0 || f->prefix == 's' || f->prefix == 'm');
	CHECK(f->len == len);
	for (unsigned i = 0; i < f->nfields; i++) {
		CHECK(f->flen[i] > 0);
		CHECK(f->off[i] + f->flen[i] <= len);
		if (i > 0)
			CHECK(f->off[i] > f->off[i - 1] + f->flen[i - 1]);
	}
	for (int col = 0; col < 2; col++) {
		const char *rank = g->board[back(col)];
		char rook = col == FB_WHITE ? 'R' : 'r';
		char king = col == FB_WHITE ? 'K' : 'k';
		const char *kp = memchr(rank, king, g->width);
		int k = kp != NULL ? (int)(kp - rank) : -1;

		CHECK(fb_game_king_file(g, col) == k);
		for (int w = 0; w < 2; w++) {
			int c = g->castle[col][w];
			if (c < 0) {
				CHECK(c == -1);
				continue;
			}
			CHECK(c < (int)g->width);
			CHECK(k >= 0);
			CHECK(rank[c] == rook);
			CHECK(w == FB_HSIDE ? c > k : c < k);
		}
	}
	for (int r = 0; r < FB_FEN_RANKS; r++)
		for (unsigned x = g->width; x < FB_FEN_MAX_FILES; x++)
			CHECK(g->board[r][x] == 0);
}

static bool
same_position(const struct fb_fen *a, const struct fb_fen *b)
{
	return a->pos.width == b->pos.width &&
	       memcmp(a->pos.board, b->pos.board, sizeof a->pos.board) == 0 &&
	       a->pos.side == b->pos.side &&
	       memcmp(a->pos.castle, b->pos.castle, sizeof a->pos.castle) == 0;
}

/* Translates in[0..len) into a fresh buffer of exactly len + GROWTH bytes;
 * *out must be freed. Returns the length. */
static size_t
translate(const char *in, size_t len, const struct fb_fen_style *st, char **out,
	  struct fb_fen_report *rep)
{
	size_t cap = len + FB_FEN_GROWTH;
	int n;

	*out = malloc(cap);
	CHECK(*out != NULL);
	n = fb_fen_translate(in, len, st, *out, cap, rep);
	CHECK(n >= 0 && (size_t)n <= cap);
	return (size_t)n;
}

static void
check_report(const struct fb_fen_report *rep, const struct fb_fen *f,
	     size_t len)
{
	if (rep->error != 0) {
		CHECK(rep->error < 0 && rep->error >= FB_ECOUNTER);
		CHECK(rep->ndiag == 1 && rep->nmore == 0);
		CHECK(rep->diag[0].code == rep->error);
		CHECK(rep->diag[0].offset <= len);
		CHECK(memchr(rep->diag[0].msg, '\0', FB_FEN_MSG_MAX) != NULL);
		return;
	}
	CHECK(rep->ndiag <= FB_FEN_MAX_DIAGS);
	CHECK(rep->nmore == 0 || rep->ndiag == FB_FEN_MAX_DIAGS);
	for (unsigned i = 0; i < rep->ndiag; i++) {
		CHECK(rep->diag[i].code == FB_WKING ||
		      rep->diag[i].code == FB_WROOK);
		/* Warnings point into the castling field. */
		CHECK(rep->diag[i].offset >= f->off[2] &&
		      rep->diag[i].offset < f->off[2] + f->flen[2]);
		CHECK(memchr(rep->diag[i].msg, '\0', FB_FEN_MSG_MAX) != NULL);
	}
}

static void
one_style(const char *in, size_t len, const struct fb_fen_style *st)
{
	struct fb_fen_report rep, rep2;
	struct fb_fen fen, fen2, fen3;
	char *out, *again, *small, cast[8];
	size_t n, m;
	int rc;

	n = translate(in, len, st, &out, &rep);
	rc = fb_fen_parse(&fen, in, len, &rep2);
	CHECK(rc == rep.error && rc == rep2.error);
	CHECK(fb_fen_parse(&fen2, in, len, NULL) == rc);
	/* No report: same result. */
	again = malloc(len + FB_FEN_GROWTH);
	CHECK(again != NULL);
	CHECK(fb_fen_translate(in, len, st, again, len + FB_FEN_GROWTH, NULL) ==
	      (int)n);
	CHECK(memcmp(again, out, n) == 0);
	free(again);
	/* One byte short of the documented cap: refused, nothing written. */
	small = malloc(len + FB_FEN_GROWTH - 1);
	CHECK(small != NULL);
	CHECK(fb_fen_translate(in, len, st, small, len + FB_FEN_GROWTH - 1,
			       NULL) == FB_ENOSPC);
	free(small);

	if (rep.error != 0) {
		check_report(&rep, NULL, len);
		CHECK(n == len && memcmp(out, in, len) == 0);
		free(out);
		return;
	}
	check_fen(&fen, len);
	check_report(&rep, &fen, len);
	CHECK(same_position(&fen, &fen2));

	/* Only fields 2 and 3 change: the bytes before the castling field and
	 * after the e.p. field are copied. */
	{
		size_t head = fen.off[2];
		size_t tail = len - (fen.off[3] + fen.flen[3]);
		CHECK(n >= head + tail + 2);
		CHECK(memcmp(out, in, head) == 0);
		CHECK(memcmp(out + n - tail, in + len - tail, tail) == 0);
	}

	/* fb_fen_print into a buffer of exactly its size, and one short. */
	small = malloc(n);
	CHECK(small != NULL);
	CHECK(fb_fen_print(&fen, st, small, n) == (int)n);
	CHECK(memcmp(small, out, n) == 0);
	free(small);
	if (n > 0) {
		small = malloc(n - 1 ? n - 1 : 1);
		CHECK(small != NULL);
		CHECK(fb_fen_print(&fen, st, small, n - 1) == FB_ENOSPC);
		free(small);
	}
	rc = fb_game_print_castling(&fen.pos, fen.prefix, st, cast,
				    sizeof cast);
	CHECK(rc >= 1 && rc <= 5);
	for (size_t cap = 0; cap < (size_t)rc; cap++) {
		char *c = malloc(cap ? cap : 1);
		CHECK(c != NULL);
		CHECK(fb_game_print_castling(&fen.pos, fen.prefix, st, c,
					     cap) == FB_ENOSPC);
		free(c);
	}
	if (st->notation == FB_SHREDDER)
		CHECK(cast[0] != 's' && cast[0] != 'm' && cast[0] != 'K' &&
		      cast[0] != 'Q' && cast[0] != 'k' && cast[0] != 'q');
	if (fen.flen[3] == 2 && st->notation == FB_XFEN && !st->keep_ep &&
	    !fb_game_ep_capturable(&fen.pos))
		CHECK(memchr(out + fen.off[2], '-', n - fen.off[2]) != NULL);

	/* The output reads back as the same position, without warnings, and
	 * is a fixed point of the same translation. */
	CHECK(fb_fen_parse(&fen2, out, n, &rep2) == 0);
	CHECK(rep2.ndiag == 0 && rep2.nmore == 0);
	check_fen(&fen2, n);
	CHECK(same_position(&fen, &fen2));
	m = translate(out, n, st, &again, &rep2);
	CHECK(rep2.error == 0 && m == n && memcmp(again, out, n) == 0);
	free(again);

	/* Shredder-FEN of it parses to the same position, and for X-FEN output
	 * X -> Shredder -> X gives X back. */
	{
		struct fb_fen_style sh = {.notation = FB_SHREDDER};
		struct fb_fen_style x2 = *st;
		char *s, *x;
		size_t sn, xn;

		sn = translate(out, n, &sh, &s, &rep2);
		CHECK(rep2.error == 0 && rep2.ndiag == 0);
		CHECK(fb_fen_parse(&fen3, s, sn, &rep2) == 0);
		CHECK(rep2.ndiag == 0);
		CHECK(fen3.prefix == 0);
		CHECK(same_position(&fen, &fen3));
		if (st->notation == FB_XFEN) {
			x2.prefix = fen2.prefix ? fen2.prefix : st->prefix;
			xn = translate(s, sn, &x2, &x, &rep2);
			CHECK(rep2.error == 0);
			CHECK(xn == n && memcmp(x, out, n) == 0);
			free(x);
		}
		free(s);
	}
	free(out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char prefixes[] = {0, 's', 'm'};
	char *in = malloc(size ? size : 1);
	char name[33];
	enum fb_notation note;

	CHECK(in != NULL);
	memcpy(in, data, size);
	for (int p = 0; p < 3; p++)
		for (int keep = 0; keep < 2; keep++) {
			struct fb_fen_style st = {.notation = FB_XFEN,
						  .prefix = prefixes[p],
						  .keep_ep = keep};
			one_style(in, size, &st);
		}
	{
		struct fb_fen_style st = {.notation = FB_SHREDDER};
		one_style(in, size, &st);
	}
	/* The dialect-name parser, on a NUL-terminated prefix. */
	{
		size_t n = size < sizeof name - 1 ? size : sizeof name - 1;
		memcpy(name, data, n);
		name[n] = '\0';
		if (fb_fen_parse_notation(name, &note) == 0) {
			/* Only the documented names, letters in any case. */
			static const char *const ok[] = {
				"xfen", "x-fen", "shredder", "shredder-fen",
				"shredderfen"};
			bool found = false;
			for (char *p = name; *p != '\0'; p++)
				if (*p >= 'A' && *p <= 'Z')
					*p = (char)(*p - 'A' + 'a');
			for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
				if (strcmp(name, ok[i]) == 0) {
					found = true;
					CHECK(note ==
					      (i < 2 ? FB_XFEN : FB_SHREDDER));
				}
			CHECK(found);
		}
	}
	free(in);
	return 0;
}
