/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the PGN/EPD/FEN file scanner (src/chess/pgn.c): FEN tags
 * translated and nothing else touched (CRLF, Latin-1, a byte-order mark,
 * comments that look like tags), SetUp added, the Variant tag, --select,
 * EPD operations, format detection, diagnostics with line and game, bounded
 * memory (overlong tag sections and lines), and the same output for every
 * split of the input into two pieces and into single bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fenbridge/pgn.h"
#include "fenbridge/variant.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))
#define OUT_MAX 8192

struct run {
	char out[OUT_MAX];
	size_t nout;
	struct fb_pgn_diag diag[16];
	unsigned ndiag;
	enum fb_pgn_format format;
	struct fb_pgn_stats stats;
};

static void
on_emit(void *ctx, const char *s, size_t n)
{
	struct run *r = ctx;

	assert_true(r->nout + n < OUT_MAX);
	memcpy(r->out + r->nout, s, n);
	r->nout += n;
	r->out[r->nout] = '\0';
}

static void
on_diag(void *ctx, const struct fb_pgn_diag *d)
{
	struct run *r = ctx;

	if (d->kind == FB_PGN_NOTE)
		return;
	if (r->ndiag < N_ELEMS(r->diag))
		r->diag[r->ndiag] = *d;
	r->ndiag++;
}

/* What run_split does with Variant tags: the default of convert, unless a
 * test says otherwise. */
static enum fb_pgn_variant_tag variant_tag = FB_PGN_VARIANT_AUTO;

/* Runs in through a scanner, in pieces of at most step bytes (0: whole),
 * with the first piece ending at split (0: none). */
static void
run_split(struct run *r, const char *in, enum fb_pgn_format f,
	  enum fb_pgn_select sel, enum fb_notation to, size_t cap, size_t split,
	  size_t step)
{
	static char buf[65536];
	struct fb_pgn p;
	struct fb_fen_style style = {.notation = to};
	size_t n = strlen(in), i = 0;

	memset(r, 0, sizeof *r);
	assert_true(cap <= sizeof buf);
	fb_pgn_init(&p, f, sel, variant_tag, &style, buf, cap, on_emit, on_diag,
		    r);
	if (split > 0) {
		fb_pgn_push(&p, in, split);
		i = split;
	}
	while (i < n) {
		size_t k = step == 0 || n - i < step ? n - i : step;
		fb_pgn_push(&p, in + i, k);
		i += k;
	}
	fb_pgn_finish(&p);
	r->format = p.format;
	r->stats = p.stats;
}

static void
run(struct run *r, const char *in, enum fb_pgn_format f, enum fb_pgn_select sel,
    enum fb_notation to)
{
	run_split(r, in, f, sel, to, 65536, 0, 0);
}

/* Seed document's example (X-FEN), with a Latin-1 byte, CRLF lines, a
 * byte-order mark, comments that hold '[' at a line start, escapes. */
#define SEED_TAGS                                                              \
	"[Event \"SmirfGUI Computerchess Game\"]\n"                            \
	"[Site \"CHESSBOX \xfc\"]\n"                                           \
	"[Annotator \"R. \\\"S\\\" Scharnagl\"]\n"                             \
	"[SetUp \"1\"]\n"
#define SEED_FEN_X                                                             \
	"[FEN \"rnbnkqrb/pppppppp/8/8/8/8/PPPPPPPP/RNBNKQRB w KQkq - 0 1\"]\n"
#define SEED_FEN_S                                                             \
	"[FEN \"rnbnkqrb/pppppppp/8/8/8/8/PPPPPPPP/RNBNKQRB w GAga - 0 1\"]\n"
#define SEED_MOVES                                                             \
	"1. h4 g6 2. g3 Bf6 3. a4 Qh6 4. Ra3 Bxh4 5. gxh4 Qxh4 6. Qh3 Qxh3 "   \
	"7. Rxh3 Ne6\n8. Bf3 d6 9. Nbc3 Ng5 10. Rhh1 Bf5 11. O-O *\n"

#define GAME2_IN                                                               \
	"\xef\xbb\xbf[Event \"x\"]\r\n"                                        \
	"[Variant \"Chess960\"]\r\n"                                           \
	"  [FEN \"rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gkq " \
	"- 4 11\"]\r\n"                                                        \
	"\r\n"                                                                 \
	"{a comment\r\n[Event \"not a tag\"]} 11... Nh3 ; rest [x]\r\n"        \
	"% escape\r\n1-0\r\n\r\n"
#define GAME2_OUT                                                              \
	"\xef\xbb\xbf[Event \"x\"]\r\n"                                        \
	"[Variant \"Chess960\"]\r\n"                                           \
	"  [SetUp \"1\"]\r\n"                                                  \
	"  [FEN \"rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga " \
	"- 4 11\"]\r\n"                                                        \
	"\r\n"                                                                 \
	"{a comment\r\n[Event \"not a tag\"]} 11... Nh3 ; rest [x]\r\n"        \
	"% escape\r\n1-0\r\n\r\n"

static void
test_pgn_fen_tags_translated_rest_unchanged(void **state)
{
	static char copy[OUT_MAX];
	struct run r;

	(void)state;
	/* The seed game, a Chess960 start without a Variant tag, gets none
	 * with --variant-tag=keep (test_pgn_variant_tag_added: with auto). */
	variant_tag = FB_PGN_VARIANT_KEEP;
	run(&r, SEED_TAGS SEED_FEN_X "\n" SEED_MOVES, FB_PGN_PGN, FB_PGN_ALL,
	    FB_SHREDDER);
	assert_string_equal(r.out, SEED_TAGS SEED_FEN_S "\n" SEED_MOVES);
	assert_int_equal(r.ndiag, 0);
	memcpy(copy, r.out, r.nout + 1);
	run(&r, copy, FB_PGN_PGN, FB_PGN_ALL, FB_XFEN);
	assert_string_equal(r.out, SEED_TAGS SEED_FEN_X "\n" SEED_MOVES);
	assert_int_equal(r.ndiag, 0);
	assert_int_equal(r.stats.games, 1);
	assert_int_equal(r.stats.fens, 1);
	variant_tag = FB_PGN_VARIANT_AUTO;
}

static void
test_pgn_setup_added_crlf_bom_comments(void **state)
{
	struct run r;

	(void)state;
	run(&r, GAME2_IN, FB_PGN_AUTO, FB_PGN_ALL, FB_SHREDDER);
	assert_int_equal(r.format, FB_PGN_PGN);
	assert_string_equal(r.out, GAME2_OUT);
	assert_int_equal(r.ndiag, 1);
	assert_int_equal(r.diag[0].kind, FB_PGN_SETUP_ADDED);
	assert_int_equal(r.diag[0].line, 3);
	assert_int_equal(r.diag[0].game, 1);
	assert_int_equal(r.stats.games, 1); /* the comment held no game */
}

static void
test_pgn_every_split_same_output(void **state)
{
	const char *in = SEED_TAGS SEED_FEN_S "\n" SEED_MOVES "\n" GAME2_IN
					      "[Event \"c\"]\n\n1. e4 {open";
	struct run whole, part;
	size_t n = strlen(in);

	(void)state;
	run(&whole, in, FB_PGN_AUTO, FB_PGN_ALL, FB_XFEN);
	for (size_t s = 1; s < n; s++) {
		run_split(&part, in, FB_PGN_AUTO, FB_PGN_ALL, FB_XFEN, 65536, s,
			  0);
		assert_string_equal(part.out, whole.out);
		assert_int_equal(part.ndiag, whole.ndiag);
		for (unsigned k = 0; k < whole.ndiag && k < 16; k++) {
			assert_int_equal(part.diag[k].line, whole.diag[k].line);
			assert_string_equal(part.diag[k].msg,
					    whole.diag[k].msg);
		}
	}
	run_split(&part, in, FB_PGN_AUTO, FB_PGN_ALL, FB_XFEN, 65536, 0, 1);
	assert_string_equal(part.out, whole.out);
	assert_int_equal(part.ndiag, whole.ndiag);
	/* The seed game gets a Variant tag, the second a SetUp tag; the
	 * last game: its comment is open and it has no result. */
	assert_int_equal(whole.ndiag, 4);
	assert_int_equal(whole.diag[0].kind, FB_PGN_VARIANT_ADDED);
	assert_int_equal(whole.diag[1].kind, FB_PGN_SETUP_ADDED);
	assert_int_equal(whole.diag[2].kind, FB_PGN_TRUNCATED);
	assert_int_equal(whole.diag[2].game, 3);
	assert_int_equal(whole.diag[3].kind, FB_PGN_TRUNCATED);
}

static void
test_pgn_variant_tag_board_and_prefix(void **state)
{
	static const struct {
		const char *in, *want;
		int kind;
	} cases[] = {
		/* CRC: 10x8, the inner-rook letter stays a letter */
		{"[Variant \"Capablanca Random\"]\n[SetUp \"1\"]\n"
		 "[FEN \"rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/"
		 "RNABQKBCNR w JAja - 0 1\"]\n\n*\n",
		 "[Variant \"Capablanca Random\"]\n[SetUp \"1\"]\n"
		 "[FEN \"rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/"
		 "RNABQKBCNR w KQkq - 0 1\"]\n\n*\n",
		 -1},
		/* janus: the X-FEN prefix s */
		{"[Variant \"janus\"]\n[SetUp \"1\"]\n"
		 "[FEN \"rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/"
		 "RJNBKQBNJR w JAja - 0 1\"]\n\n*\n",
		 "[Variant \"janus\"]\n[SetUp \"1\"]\n"
		 "[FEN \"rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/"
		 "RJNBKQBNJR w sKQkq - 0 1\"]\n\n*\n",
		 -1},
		/* a 10x8 FEN in a Chess960 game: left as it was */
		{"[Variant \"Chess960\"]\n[SetUp \"1\"]\n"
		 "[FEN \"rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/"
		 "RNABQKBCNR w JAja - 0 1\"]\n\n*\n",
		 NULL, FB_PGN_FEN_ERROR},
		/* a variant fenbridge does not know: left as it was */
		{"[Variant \"crazyhouse\"]\n[SetUp \"1\"]\n"
		 "[FEN \""
		 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w "
		 "HAha - 0 1\"]\n\n*\n",
		 NULL, -1},
		/* an impossible right dropped, with a warning */
		{"[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w Kq - 0 1\"]\n\n*\n",
		 "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n*\n",
		 FB_PGN_FEN_DROP},
		/* a tag line without its bracket: unchanged, reported */
		{"[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n\n*\n",
		 NULL, FB_PGN_BAD_TAG},
		/* two tags on one line: SetUp goes in before the FEN tag */
		{"[Event \"e\"] [FEN \""
		 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/"
		 "RNBQKBNR w HAha - 0 1\"]\n\n*\n",
		 "[Event \"e\"] [SetUp \"1\"] [FEN \""
		 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]"
		 "\n\n*\n",
		 FB_PGN_SETUP_ADDED},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		struct run r;
		run(&r, cases[i].in, FB_PGN_PGN, FB_PGN_ALL, FB_XFEN);
		print_message("case %zu\n", i);
		assert_string_equal(r.out, cases[i].want ? cases[i].want
							 : cases[i].in);
		if (cases[i].kind < 0) {
			assert_int_equal(r.ndiag, 0);
		} else {
			assert_true(r.ndiag >= 1);
			assert_int_equal(r.diag[0].kind, cases[i].kind);
		}
	}
}

#define G_CLASSICAL "[Event \"a\"]\n\n1. e4 e5 1/2-1/2\n\n"
#define G_960                                                                  \
	"[Event \"b\"]\n[SetUp \"1\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/"      \
	"PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 *\n\n"
#define G_SETUP                                                                \
	"[Event \"c\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 "    \
	"1\"]\n\n1. Ke2 *\n\n"

static void
test_pgn_select(void **state)
{
	const char *in = "; a file comment\n" G_CLASSICAL G_960 G_SETUP;
	struct run r;

	(void)state;
	variant_tag = FB_PGN_VARIANT_KEEP; /* G_960 has no Variant tag */
	run(&r, in, FB_PGN_PGN, FB_PGN_CLASSICAL, FB_SHREDDER);
	assert_string_equal(r.out, "; a file comment\n" G_CLASSICAL);
	assert_int_equal(r.stats.written, 1);
	run(&r, in, FB_PGN_PGN, FB_PGN_SETUP, FB_SHREDDER);
	assert_string_equal(r.out, G_960 G_SETUP);
	run(&r, in, FB_PGN_PGN, FB_PGN_CHESS960, FB_XFEN);
	assert_string_equal(r.out,
			    "[Event \"b\"]\n[SetUp \"1\"]\n[FEN \"bbqnnrkr/"
			    "pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 "
			    "1\"]\n\n1. e4 *\n\n");
	assert_int_equal(r.stats.games, 3);
	assert_int_equal(r.stats.written, 1);
	assert_int_equal(r.ndiag, 0);
	variant_tag = FB_PGN_VARIANT_AUTO;
}

static void
test_pgn_epd_operations_kept(void **state)
{
	static char copy[OUT_MAX];
	const char *in =
		"rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gkq - "
		"bm Nh3; id \"x \\\"KQkq\\\"\";\r\n"
		"\n"
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3\tc0 "
		"\"e3 kept\";\n"
		"bad w - -\n";
	struct run r;

	(void)state;
	run(&r, in, FB_PGN_AUTO, FB_PGN_ALL, FB_SHREDDER);
	assert_int_equal(r.format, FB_PGN_EPD);
	assert_string_equal(
		r.out,
		"rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - "
		"bm Nh3; id \"x \\\"KQkq\\\"\";\r\n"
		"\n"
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha e3\tc0 "
		"\"e3 kept\";\n"
		"bad w - -\n");
	assert_int_equal(r.ndiag, 1);
	assert_int_equal(r.diag[0].kind, FB_PGN_FEN_ERROR);
	assert_int_equal(r.diag[0].line, 4);
	/* toward X-FEN the e.p. square no pawn can take on goes */
	memcpy(copy, r.out, r.nout + 1);
	run(&r, copy, FB_PGN_EPD, FB_PGN_ALL, FB_XFEN);
	assert_non_null(strstr(r.out, "b KQkq -\tc0 \"e3 kept\";\n"));
}

static void
test_pgn_detect(void **state)
{
	static const struct {
		const char *in;
		enum fb_pgn_format want;
	} cases[] = {
		{"[Event \"x\"]\n", FB_PGN_PGN},
		{"\xef\xbb\xbf\n  \n[Event \"x\"]\n", FB_PGN_PGN},
		{"1. e4 e5 *\n", FB_PGN_PGN},
		{"{comment}\n", FB_PGN_PGN},
		{"8/8/8/8/8/8/8/K1k5 w - - 0 1\n", FB_PGN_FEN},
		{"8/8/8/8/8/8/8/K1k5 w - -\n", FB_PGN_FEN},
		{"8/8/8/8/8/8/8/K1k5 w - - bm Kb2;\n", FB_PGN_EPD},
		{"8/8/8/8/8/8/8/K1k5 w - - 0 1 extra\n", FB_PGN_EPD},
		{"8/8/8/8/8/8/8/K1k5 w - - hmvc 0; fmvn 1;\n", FB_PGN_EPD},
		{"", FB_PGN_FEN},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++)
		assert_int_equal(
			fb_pgn_detect(cases[i].in, strlen(cases[i].in)),
			cases[i].want);
}

static void
test_pgn_overlong_passes_unchanged(void **state)
{
	char in[4096], tags[3000];
	struct run r;

	(void)state;
	memset(tags, 'x', sizeof tags);
	tags[sizeof tags - 1] = '\0';
	/* A tag line without its end, longer than the buffer (1 KiB). */
	snprintf(in, sizeof in, "[Event \"%s\n\n1. e4 *\n" G_960, tags);
	run_split(&r, in, FB_PGN_PGN, FB_PGN_ALL, FB_XFEN, 1024, 0, 100);
	assert_int_equal(r.ndiag, 2); /* and G_960's Variant tag added */
	assert_int_equal(r.diag[0].kind, FB_PGN_TOO_LONG);
	assert_int_equal(r.diag[0].game, 1);
	assert_int_equal(r.diag[1].kind, FB_PGN_VARIANT_ADDED);
	assert_int_equal(memcmp(r.out, in, strlen(in) - strlen(G_960)), 0);
	assert_non_null(strstr(r.out, "w KQkq - 0 1"));
	/* An EPD line over the buffer: unchanged too. */
	snprintf(in, sizeof in,
		 "4k3/8/8/8/8/8/8/4K3 w - - id \"%s\";\n"
		 "4k3/8/8/8/8/8/8/R3K3 w A - id \"y\";\n",
		 tags);
	run_split(&r, in, FB_PGN_EPD, FB_PGN_ALL, FB_XFEN, 1024, 0, 0);
	assert_int_equal(r.ndiag, 1);
	assert_int_equal(r.diag[0].kind, FB_PGN_TOO_LONG);
	assert_non_null(strstr(r.out, "R3K3 w Q - id"));
}

static void
chess960_rank(unsigned n, char rank[9])
{
	static const int knights[10][2] = {
		{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
		{1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4},
	};
	int empty[8], ne;
	const char *rkr = "RKR";

	memset(rank, 0, 9);
	rank[2 * (n % 4) + 1] = 'B';
	n /= 4;
	rank[2 * (n % 4)] = 'B';
	n /= 4;
	for (int pass = 0; pass < 3; pass++) {
		ne = 0;
		for (int f = 0; f < 8; f++)
			if (rank[f] == 0)
				empty[ne++] = f;
		if (pass == 0) {
			rank[empty[n % 6]] = 'Q';
			n /= 6;
		} else if (pass == 1) {
			rank[empty[knights[n][0]]] = 'N';
			rank[empty[knights[n][1]]] = 'N';
		} else {
			for (int k = 0; k < 3; k++)
				rank[empty[k]] = rkr[k];
		}
	}
}

static void
test_pgn_chess960_starts(void **state)
{
	unsigned yes = 0;
	char fen[128];

	(void)state;
	for (unsigned n = 0; n < 960; n++) {
		char w[9], b[9];
		struct fb_fen f;
		chess960_rank(n, w);
		for (int i = 0; i < 9; i++)
			b[i] = (char)(w[i] ? w[i] + ('a' - 'A') : 0);
		snprintf(fen, sizeof fen,
			 "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w - "
			 "- 0 1",
			 b, w);
		assert_int_equal(fb_fen_parse(&f, fen, strlen(fen), NULL), 0);
		yes += fb_pgn_is_chess960_start(&f);
	}
	assert_int_equal(yes, 960);
	/* Not a start: bishops on one colour, king outside the rooks, a
	 * move played, Black to move, mirrored ranks that differ. */
	static const char *const no[] = {
		"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BQBNNRKR w - - 0 1",
		"rbbqnnrk/pppppppp/8/8/8/8/PPPPPPPP/RBBQNNRK w - - 0 1",
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1",
	};
	for (size_t i = 0; i < N_ELEMS(no); i++) {
		struct fb_fen f;
		assert_int_equal(fb_fen_parse(&f, no[i], strlen(no[i]), NULL),
				 0);
		assert_false(fb_pgn_is_chess960_start(&f));
	}
}

/* Chess960 positions: a start in Shredder-FEN, a start whose king and
 * rooks stand where standard chess has them (so only the position says
 * Chess960), the X-FEN inner-rook example, a standard game's. */
#define S960 "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
#define S960_CORNERS "rbnqknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNQKNBR w KQkq - 0 1"
#define INNER                                                                  \
	"rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gkq - 4 11"
#define STD_MID "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R b KQkq - 3 9"
#define VAR960 "[Variant \"chess960\"]\n"

struct variant_case {
	const char *in, *want; /* want NULL: unchanged */
	int kind[3];           /* the diagnostics' kinds, -1 ends */
	unsigned long line;    /* of the first diagnostic */
};

static void
check_variant_cases(const struct variant_case *cases, size_t n,
		    enum fb_pgn_variant_tag mode)
{
	variant_tag = mode;
	for (size_t i = 0; i < n; i++) {
		const struct variant_case *c = &cases[i];
		struct run r;
		unsigned k = 0;
		print_message("case %zu\n", i);
		run(&r, c->in, FB_PGN_PGN, FB_PGN_ALL, FB_XFEN);
		assert_string_equal(r.out, c->want ? c->want : c->in);
		for (; k < 3 && c->kind[k] >= 0; k++) {
			assert_true(r.ndiag > k);
			assert_int_equal(r.diag[k].kind, c->kind[k]);
			assert_int_equal(r.diag[k].game, 1);
		}
		assert_int_equal(r.ndiag, k);
		if (k > 0)
			assert_int_equal(r.diag[0].line, c->line);
	}
	variant_tag = FB_PGN_VARIANT_AUTO;
}

static void
test_pgn_variant_tag_moved_before_fen(void **state)
{
	static const struct variant_case cases[] = {
		/* after the FEN tag: moved before it, the rest in order */
		{"[Event \"e\"]\n[SetUp \"1\"]\n[FEN \"" S960 "\"]\n"
		 "[Variant \"fischerandom\"]\n[Round \"1\"]\n\n1. e4 *\n",
		 "[Event \"e\"]\n[SetUp \"1\"]\n[Variant \"fischerandom\"]\n"
		 "[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - "
		 "0 1\"]\n[Round \"1\"]\n\n1. e4 *\n",
		 {FB_PGN_VARIANT_MOVED, -1},
		 4},
		/* already before it: unchanged */
		{"[Variant \"fischerandom\"]\n[SetUp \"1\"]\n[FEN \"" INNER
		 "\"]\n\n*\n",
		 NULL,
		 {-1},
		 0},
		/* any Variant tag moves (a FEN of another board is then
		 * right: WinBoard sets the board first); CRLF, indented */
		{"[Event \"e\"]\r\n  [FEN \"" STD_MID "\"]\r\n"
		 "\t[Variant \"Standard\"]\r\n\r\n*\r\n",
		 "[Event \"e\"]\r\n\t[Variant \"Standard\"]\r\n  [SetUp \"1\"]"
		 "\r\n  [FEN \"" STD_MID "\"]\r\n\r\n*\r\n",
		 {FB_PGN_VARIANT_MOVED, FB_PGN_SETUP_ADDED, -1},
		 3},
		/* no SetUp tag: Variant, SetUp, FEN (as XBoard writes them) */
		{"[FEN \"" INNER "\"]\n[Variant \"Chess960\"]\n\n*\n",
		 "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"" INNER
		 "\"]\n\n*\n",
		 {FB_PGN_VARIANT_MOVED, FB_PGN_SETUP_ADDED, -1},
		 2},
		/* on a line with other tags: left, with a warning */
		{"[SetUp \"1\"]\n[FEN \"" INNER
		 "\"] [Variant \"Chess960\"]\n\n*\n",
		 NULL,
		 {FB_PGN_VARIANT_LATE, -1},
		 2},
		/* two Variant tags: neither moves */
		{"[SetUp \"1\"]\n[Variant \"Chess960\"]\n[FEN \"" INNER "\"]\n"
		 "[Variant \"Chess960\"]\n\n*\n",
		 NULL,
		 {FB_PGN_VARIANT_LATE, -1},
		 4},
		/* the last line of a truncated input: left */
		{"[SetUp \"1\"]\n[FEN \"" INNER "\"]\n[Variant \"Chess960\"]",
		 NULL,
		 {FB_PGN_VARIANT_LATE, FB_PGN_TRUNCATED, -1},
		 3},
		/* a FEN tag that does not parse: nothing to move before */
		{"[SetUp \"1\"]\n[FEN \"" INNER
		 "]\n[Variant \"Chess960\"]\n\n*\n",
		 NULL,
		 {FB_PGN_BAD_TAG, -1},
		 2},
	};

	(void)state;
	check_variant_cases(cases, N_ELEMS(cases), FB_PGN_VARIANT_AUTO);
}

static void
test_pgn_variant_tag_added(void **state)
{
	static const struct variant_case cases[] = {
		/* a Chess960 start (Shredder-FEN) without a Variant tag */
		{"[Event \"e\"]\n[SetUp \"1\"]\n[FEN \"" S960 "\"]\n\n*\n",
		 "[Event \"e\"]\n[SetUp \"1\"]\n" VAR960 "[FEN \"bbqnnrkr/"
		 "pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\n*\n",
		 {FB_PGN_VARIANT_ADDED, -1},
		 3},
		/* a start with standard castling: the position says it */
		{"[SetUp \"1\"]\n[FEN \"" S960_CORNERS "\"]\n\n*\n",
		 "[SetUp \"1\"]\n" VAR960 "[FEN \"" S960_CORNERS "\"]\n\n*\n",
		 {FB_PGN_VARIANT_ADDED, -1},
		 2},
		/* an inner-rook right, no SetUp tag, CRLF, indented:
		 * Variant, SetUp, FEN, each on a line like the FEN's */
		{"[Event \"e\"]\r\n [FEN \"" INNER "\"]\r\n\r\n*\r\n",
		 "[Event \"e\"]\r\n [Variant \"chess960\"]\r\n [SetUp \"1\"]"
		 "\r\n [FEN \"" INNER "\"]\r\n\r\n*\r\n",
		 {FB_PGN_VARIANT_ADDED, FB_PGN_SETUP_ADDED, -1},
		 2},
		/* the king off the e-file: only Chess960 castles so */
		{"[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R4K1R w HA - 0 1\"]\n\n*\n",
		 "[SetUp \"1\"]\n" VAR960 "[FEN \"4k3/8/8/8/8/8/8/R4K1R w KQ - "
		 "0 1\"]\n\n*\n",
		 {FB_PGN_VARIANT_ADDED, -1},
		 2},
		/* 10x8, a CRC start (king on e1): caparandom */
		{"[SetUp \"1\"]\n[FEN \"rnbqkabcnr/pppppppppp/10/10/10/10/"
		 "PPPPPPPPPP/RNBQKABCNR w KQkq - 0 1\"]\n\n*\n",
		 "[SetUp \"1\"]\n[Variant \"caparandom\"]\n[FEN \"rnbqkabcnr/"
		 "pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKABCNR w KQkq - 0 1\"]"
		 "\n\n*\n",
		 {FB_PGN_VARIANT_ADDED, -1},
		 2},
		/* standard chess: nothing */
		{"[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/"
		 "RNBQKBNR w KQkq - 0 1\"]\n\n*\n",
		 NULL,
		 {-1},
		 0},
		{"[SetUp \"1\"]\n[FEN \"" STD_MID "\"]\n\n*\n", NULL, {-1}, 0},
		/* a 960 start with no rights: the same game in either */
		{"[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n*\n",
		 NULL,
		 {-1},
		 0},
		/* Capablanca's start, Janus castling (prefix s): nothing */
		{"[SetUp \"1\"]\n[FEN \"rnabqkbcnr/pppppppppp/10/10/10/10/"
		 "PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\"]\n\n*\n",
		 NULL,
		 {-1},
		 0},
		{"[SetUp \"1\"]\n[FEN \"rnbqkabcnr/pppppppppp/10/10/10/10/"
		 "PPPPPPPPPP/RNBQKABCNR w sKQkq - 0 1\"]\n\n*\n",
		 NULL,
		 {-1},
		 0},
		/* a Variant tag says what the game is, even "Standard" */
		{"[Variant \"Standard\"]\n[SetUp \"1\"]\n[FEN \"" S960_CORNERS
		 "\"]\n\n*\n",
		 NULL,
		 {-1},
		 0},
		/* a malformed FEN: left, nothing added */
		{"[SetUp \"1\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRK"
		 " w HFhf - 0 1\"]\n\n*\n",
		 NULL,
		 {FB_PGN_FEN_ERROR, -1},
		 2},
	};

	(void)state;
	check_variant_cases(cases, N_ELEMS(cases), FB_PGN_VARIANT_AUTO);
}

static void
test_pgn_variant_tag_keep(void **state)
{
	/* --variant-tag=keep: Variant tags as they were, none added (only
	 * the castling fields change, SetUp is added as ever). */
	static const struct variant_case cases[] = {
		{"[SetUp \"1\"]\n[FEN \"" INNER
		 "\"]\n[Variant \"Chess960\"]\n\n*\n",
		 NULL,
		 {-1},
		 0},
		{"[SetUp \"1\"]\n[FEN \"" S960_CORNERS "\"]\n\n*\n",
		 NULL,
		 {-1},
		 0},
		{"[FEN \"" INNER "\"]\n\n*\n",
		 "[SetUp \"1\"]\n[FEN \"" INNER "\"]\n\n*\n",
		 {FB_PGN_SETUP_ADDED, -1},
		 1},
	};

	(void)state;
	check_variant_cases(cases, N_ELEMS(cases), FB_PGN_VARIANT_KEEP);
}

static void
test_pgn_variant_tag_splits_and_marks(void **state)
{
	/* More lines to look at than there are marks (FB_PGN_MARKS): the
	 * section is read line by line, and the Variant tag still moves. */
	static char in[4096], want[4096];
	const char *game2 = "[FEN \"" INNER "\"]\r\n[Variant \"Chess960\"]\r\n"
			    "\r\n1-0\r\n";
	struct run whole, part;
	size_t n = 0, w = 0;

	(void)state;
	for (int i = 0; i < FB_PGN_MARKS + 2; i++) {
		n += (size_t)snprintf(in + n, sizeof in - n, "[A \"%d\"] x\n",
				      i);
		w += (size_t)snprintf(want + w, sizeof want - w,
				      "[A \"%d\"] x\n", i);
	}
	n += (size_t)snprintf(in + n, sizeof in - n,
			      "[SetUp \"1\"]\n"
			      "[FEN \"" S960 "\"]\n[Round \"2\"]\n"
			      "[Variant \"fischerandom\"]\n\n*\n%s",
			      game2);
	snprintf(want + w, sizeof want - w,
		 "[SetUp \"1\"]\n"
		 "[Variant \"fischerandom\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/"
		 "8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n[Round \"2\"]\n\n*\n"
		 "[Variant \"Chess960\"]\r\n[SetUp \"1\"]\r\n[FEN \"" INNER
		 "\"]\r\n\r\n1-0\r\n");
	run(&whole, in, FB_PGN_PGN, FB_PGN_ALL, FB_XFEN);
	assert_string_equal(whole.out, want);
	assert_int_equal(whole.stats.variants_moved, 2);
	assert_int_equal(whole.stats.variants_added, 0);
	/* Every split into two pieces, and single bytes, alike. */
	for (size_t s = 1; s < n; s++) {
		run_split(&part, in, FB_PGN_PGN, FB_PGN_ALL, FB_XFEN, 65536, s,
			  0);
		assert_string_equal(part.out, whole.out);
		assert_int_equal(part.ndiag, whole.ndiag);
	}
	run_split(&part, in, FB_PGN_PGN, FB_PGN_ALL, FB_XFEN, 65536, 0, 1);
	assert_string_equal(part.out, whole.out);
}

static void
test_pgn_needs_random(void **state)
{
	static const struct {
		const char *fen, *want;
	} cases[] = {
		{S960, "fischerandom"},
		{S960_CORNERS, "fischerandom"},
		{INNER, "fischerandom"},
		{STD_MID, NULL},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		 NULL},
		/* Black to move in a 960 start: castling decides */
		{"rbnqknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNQKNBR b KQkq - 0 1",
		 NULL},
		{"rnbqkabcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKABCNR w Ij "
		 "- 0 1",
		 "caparandom"},
		{"rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq "
		 "- 0 1",
		 NULL},
		/* Janus pieces, no prefix: not Capablanca Random */
		{"rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq "
		 "- 0 1",
		 NULL},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		struct fb_fen f;
		const struct fb_variant *v;
		print_message("case %zu\n", i);
		assert_int_equal(fb_fen_parse(&f, cases[i].fen,
					      strlen(cases[i].fen), NULL),
				 0);
		v = fb_pgn_needs_random(&f, NULL);
		if (cases[i].want == NULL)
			assert_null(v);
		else
			assert_string_equal(v->name, cases[i].want);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pgn_fen_tags_translated_rest_unchanged),
		cmocka_unit_test(test_pgn_setup_added_crlf_bom_comments),
		cmocka_unit_test(test_pgn_every_split_same_output),
		cmocka_unit_test(test_pgn_variant_tag_board_and_prefix),
		cmocka_unit_test(test_pgn_select),
		cmocka_unit_test(test_pgn_epd_operations_kept),
		cmocka_unit_test(test_pgn_detect),
		cmocka_unit_test(test_pgn_overlong_passes_unchanged),
		cmocka_unit_test(test_pgn_chess960_starts),
		cmocka_unit_test(test_pgn_variant_tag_moved_before_fen),
		cmocka_unit_test(test_pgn_variant_tag_added),
		cmocka_unit_test(test_pgn_variant_tag_keep),
		cmocka_unit_test(test_pgn_variant_tag_splits_and_marks),
		cmocka_unit_test(test_pgn_needs_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
