/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the protocol filters (src/filter.c, protocols/uci.c,
 * protocols/xboard.c, protocols/protocols.c) through a capturing sink:
 * protocol detection from the GUI's first command, UCI `position fen`, XBoard
 * `setboard` and the engine's `setup` per variant, `quit`, raw and
 * continuation pieces, the protocol table, and the filter fed by the line
 * framer split at every byte.
 *
 * Each line must come out exactly once: the captured bytes of one line are
 * compared whole with what is expected, so a dropped or doubled piece fails.
 * Only the castling field (and, toward X-FEN, an en-passant square with no
 * capture, docs/dialects.md) may differ from the input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fenbridge/filter.h"
#include "fenbridge/variant.h"

/* The variant in play when the variant table knows it, else NULL. */
static const struct fb_variant *
known_variant(const struct fb_filter *f)
{
	const char *v = fb_filter_variant(f);

	return fb_variant_find(v, strlen(v));
}
#include "fenbridge/line.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

#define START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
/* A Chess960 start: king f1, rooks e1 and g1 (X-FEN KQkq, Shredder GEge). */
#define F960 "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN"
/* The X-FEN definition's example: white rooks g1 and h1, g1 holds the right. */
#define XEX "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR"
#define CAPA "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR"

#define MAX_OUT (64 * 1024)
#define MAX_REPORTS 16

/* What a filter emitted and reported for one or more lines. */
struct capture {
	char out[MAX_OUT];
	size_t nout;
	size_t nemit;
	char back[MAX_OUT]; /* replies toward the sender */
	size_t nback;
	size_t nrep;
	size_t nwarn; /* reports at FB_LOG_WARN or above */
	struct {
		enum fb_level level;
		char msg[256];
	} rep[MAX_REPORTS];
};

static void
cap_emit(void *ctx, const char *data, size_t len)
{
	struct capture *c = ctx;

	assert_true(c->nout + len <= MAX_OUT);
	memcpy(c->out + c->nout, data, len);
	c->nout += len;
	c->nemit++;
}

static void
cap_reply(void *ctx, const char *data, size_t len)
{
	struct capture *c = ctx;

	assert_true(c->nback + len <= MAX_OUT);
	memcpy(c->back + c->nback, data, len);
	c->nback += len;
}

static void
cap_report(void *ctx, enum fb_level level, const char *msg)
{
	struct capture *c = ctx;

	assert_non_null(msg);
	if (c->nrep < MAX_REPORTS) {
		c->rep[c->nrep].level = level;
		snprintf(c->rep[c->nrep].msg, sizeof c->rep[c->nrep].msg, "%s",
			 msg);
	}
	c->nrep++;
	if (level >= FB_LOG_WARN)
		c->nwarn++;
}

/*
 * Sets up f for proto (NULL: detected) with the given FEN dialects and
 * castling notations decided by the filter.
 */
static void
filter_init(struct fb_filter *f, const struct fb_protocol *proto,
	    enum fb_notation engine_fen, enum fb_notation gui_fen)
{
	struct fb_filter_options opt = {
		.proto = proto,
		.engine_fen = engine_fen,
		.gui_fen = gui_fen,
		.gui_castling = FB_CASTLE_AUTO,
		.engine_castling = FB_CASTLE_AUTO,
	};

	fb_filter_init(f, &opt);
}

static struct fb_sink
sink_of(struct capture *c)
{
	memset(c, 0, sizeof *c);
	return (struct fb_sink){.emit = cap_emit,
				.reply = cap_reply,
				.report = cap_report,
				.ctx = c};
}

/* Splits a NUL-terminated line into text length and terminator length. */
static void
split_term(const char *line, size_t *len, size_t *term)
{
	size_t n = strlen(line);

	*term = 0;
	if (n >= 2 && line[n - 2] == '\r' && line[n - 1] == '\n')
		*term = 2;
	else if (n >= 1 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		*term = 1;
	*len = n - *term;
}

/*
 * Filters one whole line (terminator included in line) from the GUI (gui
 * true) or from the engine into a fresh capture.
 */
static void
feed(struct fb_filter *f, bool gui, const char *line, struct capture *c)
{
	struct fb_sink s = sink_of(c);
	size_t len, term;

	split_term(line, &len, &term);
	if (gui)
		fb_filter_gui_line(f, line, len, term, 0, &s);
	else
		fb_filter_engine_line(f, line, len, term, 0, &s);
}

/* Checks that the capture holds exactly want, and nwarn warnings. */
static void
expect_out(const struct capture *c, const char *in, const char *want,
	   size_t nwarn)
{
	size_t n = strlen(want);

	if (c->nout != n || memcmp(c->out, want, n) != 0)
		fail_msg("'%s'\n gave '%.*s'\n want '%s'", in, (int)c->nout,
			 c->out, want);
	if (c->nwarn != nwarn)
		fail_msg("'%s': %zu warnings (first: '%s'), want %zu", in,
			 c->nwarn, c->nrep > 0 ? c->rep[0].msg : "", nwarn);
	/* A line passed unchanged goes out in one piece. */
	if (strcmp(in, want) == 0)
		assert_int_equal(c->nemit, 1);
	/* Nothing here needs an answer to the sender. */
	if (c->nback != 0)
		fail_msg("'%s': replied '%.*s'", in, (int)c->nback, c->back);
}

/* Feeds in and expects want with nwarn warnings. */
static void
expect_line(struct fb_filter *f, bool gui, const char *in, const char *want,
	    size_t nwarn)
{
	struct capture c;

	feed(f, gui, in, &c);
	expect_out(&c, in, want, nwarn);
}

static void
expect_same(struct fb_filter *f, bool gui, const char *in)
{
	expect_line(f, gui, in, in, 0);
}

struct filter_case {
	const char *in;
	const char *want;
	size_t nwarn;
};

/*
 * UCI GUI lines toward an X-FEN engine. Each row runs on a fresh filter that
 * has seen `uci`. The moves are not castling moves (those are rewritten by
 * notation, which is not what these rows test).
 */
static const struct filter_case uci_to_xfen[] = {
	{"position fen " START " w HAha - 0 1 moves e2e4 e7e5\n",
	 "position fen " START " w KQkq - 0 1 moves e2e4 e7e5\n", 0},
	{"position fen " F960 " w GEge - 0 1 moves e2e4\n",
	 "position fen " F960 " w KQkq - 0 1 moves e2e4\n", 0},
	{"position fen " XEX " w Gga - 4 11\n",
	 "position fen " XEX " w Gkq - 4 11\n", 0},
	/* Runs of spaces and tabs everywhere stay as they were. */
	{"position\tfen \t " START " \t w  HAha\t-   0  1 \t moves\t e2e4  e7e5 "
	 "\n",
	 "position\tfen \t " START " \t w  KQkq\t-   0  1 \t moves\t e2e4  e7e5 "
	 "\n",
	 0},
	{"  position  fen  " START " w HAha - 0 1\n",
	 "  position  fen  " START " w KQkq - 0 1\n", 0},
	/* CRLF, lone CR, and no terminator (the last line of the input). */
	{"position fen " START " w HAha - 0 1 moves e2e4\r\n",
	 "position fen " START " w KQkq - 0 1 moves e2e4\r\n", 0},
	{"position fen " START " w HAha - 0 1 moves e2e4\r",
	 "position fen " START " w KQkq - 0 1 moves e2e4\r", 0},
	{"position fen " START " w HAha - 0 1",
	 "position fen " START " w KQkq - 0 1", 0},
	/* A bare trailing `moves`, and blanks after the FEN. */
	{"position fen " START " w HAha - 0 1 moves\n",
	 "position fen " START " w KQkq - 0 1 moves\n", 0},
	{"position fen " START " w HAha - 0 1 moves \r\n",
	 "position fen " START " w KQkq - 0 1 moves \r\n", 0},
	{"position fen " START " w HAha - 0 1 \t \n",
	 "position fen " START " w KQkq - 0 1 \t \n", 0},
	/* 4 and 5 fields keep their count. */
	{"position fen " START " w HAha -\n", "position fen " START " w KQkq -\n",
	 0},
	{"position fen " START " w HAha - moves e2e4\r\n",
	 "position fen " START " w KQkq - moves e2e4\r\n", 0},
	{"position fen " START " w HAha - 0 moves e2e4\n",
	 "position fen " START " w KQkq - 0 moves e2e4\n", 0},
	/* Counters with leading zeros are copied. */
	{"position fen " START " w HAha - 007 0042\n",
	 "position fen " START " w KQkq - 007 0042\n", 0},
	/* Toward X-FEN an en-passant square without a capture becomes '-'. */
	{"position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha e3 "
	 "0 1 moves e7e5\n",
	 "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - "
	 "0 1 moves e7e5\n",
	 0},
	/* Already X-FEN: passed as it came. */
	{"position fen " START " w KQkq - 0 1 moves e2e4\n",
	 "position fen " START " w KQkq - 0 1 moves e2e4\n", 0},
	{"position fen " XEX " w Gkq - 4 11\n",
	 "position fen " XEX " w Gkq - 4 11\n", 0},
	/* Not a FEN position: passed unchanged. */
	{"position startpos moves e2e4 e7e5\n",
	 "position startpos moves e2e4 e7e5\n", 0},
	{"position startpos\r\n", "position startpos\r\n", 0},
	{"positionfen " START " w HAha - 0 1\n",
	 "positionfen " START " w HAha - 0 1\n", 0},
	{"setoption name Hash value 64\n", "setoption name Hash value 64\n", 0},
	{"go wtime 1000 btime 1000\n", "go wtime 1000 btime 1000\n", 0},
	{"isready\r\n", "isready\r\n", 0},
	{"\n", "\n", 0},
	{"", "", 0},
	/* No FEN after `fen`: unchanged, with a warning. */
	{"position fen\n", "position fen\n", 1},
	{"position fen   \r\n", "position fen   \r\n", 1},
	{"position fen moves e2e4\n", "position fen moves e2e4\n", 1},
	/* Malformed: unchanged, with a warning. */
	{"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w HAha - 0 1\n",
	 "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w HAha - 0 1\n", 1},
	{"position fen " START " w HAha - 0 1 e2e4\n",
	 "position fen " START " w HAha - 0 1 e2e4\n", 1},
	{"position fen " START " w HAhaX - 0 1\n",
	 "position fen " START " w HAhaX - 0 1\n", 1},
	{"position fen " START " x HAha - 0 1 moves e2e4\n",
	 "position fen " START " x HAha - 0 1 moves e2e4\n", 1},
	{"position fen " START "\n", "position fen " START "\n", 1},
	/* An impossible right is dropped, with a warning. */
	{"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w HAha - 0 1 "
	 "moves e2e4\n",
	 "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1 "
	 "moves e2e4\n",
	 1},
	{"position fen " START " w HAhaB - 0 1\n",
	 "position fen " START " w KQkq - 0 1\n", 1},
};

/* Toward a Shredder-FEN engine. */
static const struct filter_case uci_to_shredder[] = {
	{"position fen " START " w KQkq - 0 1 moves e2e4\n",
	 "position fen " START " w HAha - 0 1 moves e2e4\n", 0},
	{"position fen " XEX " w Gkq - 4 11\r\n",
	 "position fen " XEX " w Gga - 4 11\r\n", 0},
	{"position fen " F960 " b Kq -\n", "position fen " F960 " b Ge -\n", 0},
	{"position fen " START " w - - 0 1\n",
	 "position fen " START " w - - 0 1\n", 0},
	{"position fen " START " w HAha - 0 1\n",
	 "position fen " START " w HAha - 0 1\n", 0},
};

static void
run_uci_cases(const struct filter_case *cases, size_t n,
	      enum fb_notation engine_fen)
{
	for (size_t i = 0; i < n; i++) {
		struct fb_filter f;
		struct capture c;

		/* No `uci`: its lines would wait for the engine's uciok. */
		filter_init(&f, &fb_protocol_uci, engine_fen, FB_SHREDDER);
		feed(&f, true, cases[i].in, &c);
		expect_out(&c, cases[i].in, cases[i].want, cases[i].nwarn);
		/* A warning names the command. */
		for (size_t r = 0; r < c.nrep && r < MAX_REPORTS; r++)
			if (c.rep[r].level >= FB_LOG_WARN &&
			    strstr(c.rep[r].msg, "position fen") == NULL)
				fail_msg("'%s': report '%s' does not name the "
					 "command", cases[i].in, c.rep[r].msg);
		fb_filter_free(&f);
	}
}

static void
test_filter_uci_position_fen_to_xfen(void **state)
{
	(void)state;
	run_uci_cases(uci_to_xfen, N_ELEMS(uci_to_xfen), FB_XFEN);
}

static void
test_filter_uci_position_fen_to_shredder(void **state)
{
	(void)state;
	run_uci_cases(uci_to_shredder, N_ELEMS(uci_to_shredder), FB_SHREDDER);
}

/* The same filter, line after line: each is handled on its own. */
static void
test_filter_uci_rows_in_one_session(void **state)
{
	struct fb_filter f;

	(void)state;
	filter_init(&f, &fb_protocol_uci, FB_XFEN, FB_SHREDDER);
	for (size_t i = 0; i < N_ELEMS(uci_to_xfen); i++) {
		/* An unterminated row would run into the next one. */
		const char *in = uci_to_xfen[i].in;
		size_t n = strlen(in);
		if (n == 0 || (in[n - 1] != '\n' && in[n - 1] != '\r'))
			continue;
		expect_line(&f, true, in, uci_to_xfen[i].want,
			    uci_to_xfen[i].nwarn);
	}
	fb_filter_free(&f);
}

/* A FEN too long for the filter's buffer passes unchanged, with a warning. */
static void
test_filter_uci_overlong_fen_passes_unchanged(void **state)
{
	static char line[3000];
	struct fb_filter f;
	size_t o;

	(void)state;
	o = (size_t)snprintf(line, sizeof line, "position fen %s w HAha - 0 ",
			     START);
	memset(line + o, '0', 2000);
	memcpy(line + o + 2000, "1 moves e2e4\n", sizeof "1 moves e2e4\n");
	filter_init(&f, &fb_protocol_uci, FB_XFEN, FB_SHREDDER);
	expect_line(&f, true, line, line, 1);
	fb_filter_free(&f);
}

static void
test_filter_uci_engine_lines_unchanged(void **state)
{
	struct fb_filter f;

	(void)state;
	filter_init(&f, &fb_protocol_uci, FB_XFEN, FB_SHREDDER);
	expect_same(&f, false, "id name Stockfish 15.1\n");
	expect_same(&f, false, "option name UCI_Chess960 type check default "
			       "false\r\n");
	expect_same(&f, false, "info string position fen " START
			       " w HAha - 0 1\n");
	expect_same(&f, false, "info depth 1 score cp 20 pv e2e4 e7e5\n");
	expect_same(&f, false, "bestmove e2e4 ponder e7e5\n");
	expect_same(&f, false, "\r\n");
	fb_filter_free(&f);
}

static void
test_filter_detects_protocol_from_first_command(void **state)
{
	static const char pos[] = "position fen " START " w HAha - 0 1\n";
	static const char setb[] = "setboard " START " w HAha - 0 1\n";
	struct fb_filter f;
	struct capture c;

	(void)state;
	/* Before detection everything passes unchanged, both ways. */
	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, pos);
	expect_same(&f, true, setb);
	expect_same(&f, true, "ucinewgame\n");
	expect_same(&f, true, "isready\n");
	expect_same(&f, false, "setup " START " w KQkq - 0 1\n");
	expect_same(&f, false, "uciok\n");
	assert_null(fb_filter_protocol(&f));
	expect_same(&f, true, "uci\r\n");
	assert_ptr_equal(fb_filter_protocol(&f), &fb_protocol_uci);
	feed(&f, false, "uciok\n", &c); /* what follows uci waits for it */
	expect_line(&f, true, pos, "position fen " START " w KQkq - 0 1\n", 0);
	/* Detection happens once. */
	expect_same(&f, true, "xboard\n");
	assert_ptr_equal(fb_filter_protocol(&f), &fb_protocol_uci);
	fb_filter_free(&f);

	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "xboard\n");
	assert_ptr_equal(fb_filter_protocol(&f), &fb_protocol_xboard);
	expect_same(&f, true, "protover 2\n");
	expect_same(&f, true, "uci\n");
	assert_ptr_equal(fb_filter_protocol(&f), &fb_protocol_xboard);
	expect_line(&f, true, setb, "setboard " START " w KQkq - 0 1\n", 0);
	expect_same(&f, true, pos);
	fb_filter_free(&f);

	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "protover 2\n");
	assert_ptr_equal(fb_filter_protocol(&f), &fb_protocol_xboard);
	fb_filter_free(&f);

	/* A given protocol needs no detection. */
	filter_init(&f, &fb_protocol_uci, FB_XFEN, FB_SHREDDER);
	expect_line(&f, true, pos, "position fen " START " w KQkq - 0 1\n", 0);
	assert_ptr_equal(fb_filter_protocol(&f), &fb_protocol_uci);
	fb_filter_free(&f);
}

/* A fresh XBoard filter after the GUI's handshake. */
static void
xboard_filter(struct fb_filter *f, enum fb_notation engine_fen,
	      enum fb_notation gui_fen)
{
	filter_init(f, NULL, engine_fen, gui_fen);
	expect_same(f, true, "xboard\n");
	expect_same(f, true, "protover 2\n");
	assert_ptr_equal(fb_filter_protocol(f), &fb_protocol_xboard);
}

static void
test_filter_xboard_setboard_in_known_variants(void **state)
{
	static const struct {
		const char *variant;
		const char *in;
		const char *want;
	} rows[] = {
		{NULL, "setboard " START " w HAha - 0 1\n",
		 "setboard " START " w KQkq - 0 1\n"},
		{"normal", "setboard " XEX " w Gga - 4 11\n",
		 "setboard " XEX " w Gkq - 4 11\n"},
		{"fischerandom", "setboard " F960 " w GEge - 0 1\n",
		 "setboard " F960 " w KQkq - 0 1\n"},
		{"capablanca", "setboard " CAPA " w JAja - 0 1\n",
		 "setboard " CAPA " w KQkq - 0 1\n"},
		{"caparandom", "setboard " CAPA " b JAja - 0 1\n",
		 "setboard " CAPA " b KQkq - 0 1\n"},
		{"gothic", "setboard " CAPA " w Ja - 0 1\n",
		 "setboard " CAPA " w Kq - 0 1\n"},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(rows); i++) {
		struct fb_filter f;
		char cmd[64];

		xboard_filter(&f, FB_XFEN, FB_SHREDDER);
		expect_same(&f, true, "new\n");
		if (rows[i].variant != NULL) {
			snprintf(cmd, sizeof cmd, "variant %s\n",
				 rows[i].variant);
			expect_same(&f, true, cmd);
			assert_string_equal(fb_filter_variant(&f), rows[i].variant);
		}
		assert_non_null(known_variant(&f));
		expect_line(&f, true, rows[i].in, rows[i].want, 0);
		fb_filter_free(&f);
	}
}

/*
 * Janus chess: X-FEN writes its castling field with the 's' prefix
 * (docs/dialects.md, Boards: "adds one only when the variant is known
 * (`variant janus`, ...)"); Shredder-FEN has none.
 */
static void
test_filter_xboard_janus_prefix(void **state)
{
	struct fb_filter f;

	(void)state;
	xboard_filter(&f, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "variant janus\n");
	assert_non_null(known_variant(&f));
	expect_line(&f, true, "setboard " CAPA " w JAja - 0 1\n",
		    "setboard " CAPA " w sKQkq - 0 1\n", 0);
	fb_filter_free(&f);

	xboard_filter(&f, FB_SHREDDER, FB_XFEN);
	expect_same(&f, true, "variant janus\n");
	expect_line(&f, true, "setboard " CAPA " w sKQkq - 0 1\n",
		    "setboard " CAPA " w JAja - 0 1\n", 0);
	/* The engine's setup goes to an X-FEN GUI with the prefix. */
	expect_line(&f, false,
		    "setup (PNBRQKACpnbrqkac) 10x8+0_janus " CAPA
		    " w JAja - 0 1\n",
		    "setup (PNBRQKACpnbrqkac) 10x8+0_janus " CAPA
		    " w sKQkq - 0 1\n",
		    0);
	fb_filter_free(&f);
}

static void
test_filter_xboard_setboard_spacing_and_terminators(void **state)
{
	struct fb_filter f;

	(void)state;
	xboard_filter(&f, FB_XFEN, FB_SHREDDER);
	expect_line(&f, true, "setboard\t " START " w  HAha \t-  0   1 \t\r\n",
		    "setboard\t " START " w  KQkq \t-  0   1 \t\r\n", 0);
	expect_line(&f, true, "setboard " START " w HAha - 0 1\r",
		    "setboard " START " w KQkq - 0 1\r", 0);
	expect_line(&f, true, "setboard " START " w HAha - 0 1",
		    "setboard " START " w KQkq - 0 1", 0);
	expect_line(&f, true, "setboard " START " w HAha -\n",
		    "setboard " START " w KQkq -\n", 0);
	expect_line(&f, true, "  setboard " START " b HAha - 0 1\n",
		    "  setboard " START " b KQkq - 0 1\n", 0);
	/* No FEN, a malformed FEN: unchanged, with a warning. */
	expect_line(&f, true, "setboard\n", "setboard\n", 1);
	expect_line(&f, true, "setboard  \r\n", "setboard  \r\n", 1);
	expect_line(&f, true, "setboard " START " w HAhaQ - 0 1\n",
		    "setboard " START " w HAhaQ - 0 1\n", 1);
	expect_line(&f, true, "setboard 8/8/8/8/8/8/8/8 w - - 0 1\n",
		    "setboard 8/8/8/8/8/8/8/8 w - - 0 1\n", 1);
	/* An impossible right: dropped, with a warning. */
	expect_line(&f, true, "setboard " F960 " w GEgeA - 0 1\n",
		    "setboard " F960 " w KQkq - 0 1\n", 1);
	/* Other commands pass. */
	expect_same(&f, true, "force\n");
	expect_same(&f, true, "usermove e2e4\n");
	expect_same(&f, true, "e7e5\n");
	expect_same(&f, true, "edit\n");
	expect_same(&f, true, "setboardx " START " w HAha - 0 1\n");
	fb_filter_free(&f);
}

static void
test_filter_xboard_unknown_variant_until_new(void **state)
{
	static const char *const unknown[] = {"shogi", "suicide", "3check",
					      "xiangqi", "fairy"};
	static const char setb[] = "setboard " START " w HAha - 0 1\n";
	static const char setb_x[] = "setboard " START " w KQkq - 0 1\n";
	static const char setup[] = "setup (PNBRQKpnbrqk) 8x8+0_fairy " START
				    " w KQkq - 0 1\n";
	static const char setup_s[] = "setup (PNBRQKpnbrqk) 8x8+0_fairy " START
				      " w HAha - 0 1\n";

	(void)state;
	for (size_t i = 0; i < N_ELEMS(unknown); i++) {
		struct fb_filter f;
		char cmd[64];

		xboard_filter(&f, FB_XFEN, FB_SHREDDER);
		snprintf(cmd, sizeof cmd, "variant %s\r\n", unknown[i]);
		expect_same(&f, true, cmd);
		assert_null(known_variant(&f));
		expect_same(&f, true, setb);
		expect_same(&f, false, setup);
		expect_same(&f, true, "force\n");
		expect_same(&f, true, setb);
		expect_same(&f, true, "new\n");
		assert_non_null(known_variant(&f));
		assert_string_equal(fb_filter_variant(&f), "normal");
		expect_line(&f, true, setb, setb_x, 0);
		expect_line(&f, false, setup, setup_s, 0);
		/* A known variant after an unknown one works again too. */
		expect_same(&f, true, cmd);
		expect_same(&f, true, "variant fischerandom\n");
		expect_line(&f, true, setb, setb_x, 0);
		fb_filter_free(&f);
	}
}

static void
test_filter_xboard_engine_setup_to_gui_fen(void **state)
{
	struct fb_filter f;

	(void)state;
	xboard_filter(&f, FB_XFEN, FB_SHREDDER);
	expect_line(&f, false,
		    "setup (PNBRQKpnbrqk) 8x8+0_fairy " START " w KQkq - 0 1\n",
		    "setup (PNBRQKpnbrqk) 8x8+0_fairy " START " w HAha - 0 1\n",
		    0);
	expect_line(&f, false, "setup " F960 " w KQkq - 0 1\r\n",
		    "setup " F960 " w GEge - 0 1\r\n", 0);
	expect_line(&f, false, "setup  " XEX "  w Gkq - 4 11 \n",
		    "setup  " XEX "  w Gga - 4 11 \n", 0);
	expect_same(&f, false, "setup " START " w HAha - 0 1\n");
	expect_same(&f, false, "setup (PNBRQKpnbrqk)\n");
	expect_same(&f, false, "setup\n");
	expect_same(&f, false, "feature setboard=1 variants=\"normal,"
			       "fischerandom\" done=1\n");
	expect_same(&f, false, "telluser setboard " START " w HAha - 0 1\n");
	expect_line(&f, false, "setup " START " w KQkq - 0 x\n",
		    "setup " START " w KQkq - 0 x\n", 1);
	fb_filter_free(&f);

	/* Toward an X-FEN GUI. */
	xboard_filter(&f, FB_SHREDDER, FB_XFEN);
	expect_line(&f, false, "setup " F960 " w GEge - 0 1\n",
		    "setup " F960 " w KQkq - 0 1\n", 0);
	expect_line(&f, true, "setboard " F960 " w KQkq - 0 1\n",
		    "setboard " F960 " w GEge - 0 1\n", 0);
	fb_filter_free(&f);
}

static void
test_filter_quit_sets_gui_quit(void **state)
{
	struct fb_filter f;

	(void)state;
	xboard_filter(&f, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "quitx\n");
	expect_same(&f, false, "quit\n"); /* from the engine: not the GUI's */
	assert_false(f.gui_quit);
	expect_same(&f, true, "quit\n");
	assert_true(f.gui_quit);
	fb_filter_free(&f);

	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "uci\n");
	assert_false(f.gui_quit);
	expect_same(&f, true, "quit\r\n");
	assert_true(f.gui_quit);
	fb_filter_free(&f);

	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "quit");
	assert_true(f.gui_quit);
	fb_filter_free(&f);
}

static void
test_filter_raw_and_cont_pieces_pass_unchanged(void **state)
{
	static const char pos[] = "position fen " START " w HAha - 0 1\n";
	static const char setb[] = "setboard " START " w HAha - 0 1\n";
	static const char setup[] = "setup " START " w KQkq - 0 1\n";
	struct fb_filter f;
	struct capture c;
	struct fb_sink s;

	(void)state;
	/* Raw pieces are not parsed: no detection from them either. */
	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	s = sink_of(&c);
	fb_filter_gui_line(&f, "uci", 3, 0, FB_LINE_RAW, &s);
	assert_null(fb_filter_protocol(&f));
	expect_out(&c, "uci", "uci", 0);
	fb_filter_free(&f);

	filter_init(&f, &fb_protocol_uci, FB_XFEN, FB_SHREDDER);
	s = sink_of(&c);
	fb_filter_gui_line(&f, pos, sizeof pos - 2, 1, FB_LINE_RAW, &s);
	expect_out(&c, pos, pos, 0);
	s = sink_of(&c);
	fb_filter_gui_line(&f, pos, sizeof pos - 2, 0, FB_LINE_RAW, &s);
	assert_int_equal(c.nout, sizeof pos - 2);
	assert_memory_equal(c.out, pos, sizeof pos - 2);
	s = sink_of(&c);
	fb_filter_gui_line(&f, "\n", 0, 1, FB_LINE_CONT, &s);
	expect_out(&c, "\n", "\n", 0);
	s = sink_of(&c);
	fb_filter_engine_line(&f, "\n", 0, 1, FB_LINE_CONT, &s);
	expect_out(&c, "\n", "\n", 0);
	fb_filter_free(&f);

	xboard_filter(&f, FB_XFEN, FB_SHREDDER);
	s = sink_of(&c);
	fb_filter_gui_line(&f, "variant shogi", 13, 0, FB_LINE_RAW, &s);
	assert_non_null(known_variant(&f));
	s = sink_of(&c);
	fb_filter_gui_line(&f, setb, sizeof setb - 2, 1, FB_LINE_RAW, &s);
	expect_out(&c, setb, setb, 0);
	s = sink_of(&c);
	fb_filter_engine_line(&f, setup, sizeof setup - 2, 1, FB_LINE_RAW, &s);
	expect_out(&c, setup, setup, 0);
	s = sink_of(&c);
	fb_filter_gui_line(&f, setb, sizeof setb - 2, 1,
			   FB_LINE_RAW | FB_LINE_UNTERMINATED, &s);
	expect_out(&c, setb, setb, 0);
	s = sink_of(&c);
	fb_filter_engine_line(&f, "\n", 0, 1, FB_LINE_CONT, &s);
	expect_out(&c, "\n", "\n", 0);
	/* An unterminated last line that is not raw is filtered. */
	s = sink_of(&c);
	fb_filter_gui_line(&f, setb, sizeof setb - 2, 0, FB_LINE_UNTERMINATED,
			   &s);
	assert_int_equal(c.nout, sizeof setb - 2);
	assert_memory_equal(c.out, "setboard " START " w KQkq - 0 1",
			    sizeof setb - 2);
	fb_filter_free(&f);
}

/*
 * Embassy castles the king three files (X-FEN prefix m): fenbridge does
 * not follow its castling. Its FENs are translated (with the prefix toward
 * X-FEN), its moves and its `position startpos` pass unchanged, and no
 * game is followed (an 8x8 board was tracked here once).
 */
static void
test_filter_uci_embassy_not_followed(void **state)
{
	static const char efen[] =
		"rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR";
	char in[256], want[256];
	struct fb_filter f;

	(void)state;
	filter_init(&f, &fb_protocol_uci, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "setoption name UCI_Variant value embassy\n");
	expect_same(&f, true, "position startpos moves e2e4 e7e5 e1g1\n");
	assert_null(fb_filter_game(&f));
	snprintf(in, sizeof in, "position fen %s w JAja - 0 1 moves e1b1\n",
		 efen);
	snprintf(want, sizeof want, "position fen %s w mKQkq - 0 1 moves e1b1\n",
		 efen);
	expect_line(&f, true, in, want, 0);
	assert_null(fb_filter_game(&f));
	fb_filter_free(&f);
}

/*
 * The position cache reuses a line's game only while the line means the
 * same thing: after UCI_Variant or UCI_Chess960 change, `position startpos
 * moves ...` is read again (found by fuzzing: the 8x8 game was kept for a
 * Capablanca startpos).
 */
static void
test_filter_uci_cache_follows_variant_and_chess960(void **state)
{
	struct fb_filter f;

	(void)state;
	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	expect_same(&f, true, "uci\n");
	expect_same(&f, false, "option name UCI_Chess960 type check default "
			       "false\n");
	expect_same(&f, false, "uciok\n");
	expect_same(&f, true, "position startpos moves e2e4\n");
	assert_int_equal(fb_filter_game(&f)->width, 8);
	expect_same(&f, true, "setoption name UCI_Variant value capablanca\n");
	expect_same(&f, true, "position startpos moves e2e4\n");
	assert_int_equal(fb_filter_game(&f)->width, 10);
	assert_int_equal(fb_filter_game(&f)->board[3][4], 'P');

	/* With UCI_Chess960 on, the same line's castling goes out as king
	 * takes rook: the cached king-move edit must not be reused. */
	expect_same(&f, true, "setoption name UCI_Variant value chess\n");
	expect_same(&f, true, "position startpos moves e2e4 e7e5 g1f3 b8c6 "
			      "f1c4 g8f6 e1g1\n");
	expect_same(&f, true, "setoption name UCI_Chess960 value true\n");
	expect_line(&f, true,
		    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 "
		    "e1g1\n",
		    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 "
		    "e1h1\n",
		    0);
	fb_filter_free(&f);
}

/*
 * UCI_Chess960 set by the config file (here forced) counts as set: the
 * engine gets king-takes-rook castling and the GUI's own setting, dropped,
 * still decides the GUI's notation.
 */
static void
test_filter_uci_config_chess960_sets_the_mode(void **state)
{
	static const struct fb_engine_option forced[] = {
		{"UCI_Chess960", "true", FB_OPT_SET | FB_OPT_FORCED}};
	struct fb_filter_options opt = {
		.engine_fen = FB_XFEN,
		.gui_fen = FB_SHREDDER,
		.gui_castling = FB_CASTLE_AUTO,
		.engine_castling = FB_CASTLE_AUTO,
		.options = forced,
		.noptions = 1,
	};
	struct fb_filter f;
	struct capture c;
	struct fb_sink s = sink_of(&c);

	(void)state;
	fb_filter_init(&f, &opt);
	expect_same(&f, true, "uci\n");
	expect_same(&f, false, "option name UCI_Chess960 type check default "
			       "false\n");
	fb_filter_engine_line(&f, "uciok\n", 5, 1, 0, &s);
	c.back[c.nback] = '\0';
	assert_non_null(strstr(c.back, "setoption name UCI_Chess960 value "
				       "true\n"));
	/* The GUI's own setoption is dropped, but noted for its side. */
	sink_of(&c);
	fb_filter_gui_line(&f, "setoption name UCI_Chess960 value true\n", 38,
			   1, 0, &s);
	assert_int_equal(c.nout, 0);
	expect_same(&f, true,
		    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 "
		    "e1h1\n");
	fb_filter_free(&f);
}

static void
test_filter_protocol_find(void **state)
{
	(void)state;
	assert_ptr_equal(fb_protocol_find("uci"), &fb_protocol_uci);
	assert_ptr_equal(fb_protocol_find("xboard"), &fb_protocol_xboard);
	assert_ptr_equal(fb_protocol_find("cecp"), &fb_protocol_xboard);
	assert_ptr_equal(fb_protocol_find("winboard"), &fb_protocol_xboard);
	assert_null(fb_protocol_find("nope"));
	assert_null(fb_protocol_find(""));
	assert_null(fb_protocol_find("UCIX"));
	assert_string_equal(fb_protocol_uci.name, "uci");
	assert_string_equal(fb_protocol_xboard.name, "xboard");
	assert_string_equal(fb_protocol_uci.user_message, "info string ");
	assert_string_equal(fb_protocol_xboard.user_message, "tellusererror ");
}

struct relay {
	struct fb_filter *f;
	const struct fb_sink *s;
};

static void
relay_line(void *ctx, const char *text, size_t len, size_t term,
	   unsigned flags)
{
	struct relay *r = ctx;

	fb_filter_gui_line(r->f, text, len, term, flags, r->s);
}

/* Frames in split at cut (two pushes), filters it and checks the output. */
static void
relay_split(const char *in, size_t cut, size_t max, const char *want)
{
	size_t n = strlen(in);
	struct fb_filter f;
	struct fb_line lf;
	struct capture c;
	struct fb_sink s = sink_of(&c);
	struct relay r = {&f, &s};

	filter_init(&f, NULL, FB_XFEN, FB_SHREDDER);
	fb_line_init(&lf, max);
	assert_int_equal(fb_line_push(&lf, in, cut, relay_line, &r), 0);
	assert_int_equal(fb_line_push(&lf, in + cut, n - cut, relay_line, &r),
			 0);
	fb_line_finish(&lf, relay_line, &r);
	fb_line_free(&lf);
	if (c.nout != strlen(want) || memcmp(c.out, want, c.nout) != 0)
		fail_msg("split at %zu, max %zu: gave '%.*s'", cut, max,
			 (int)c.nout, c.out);
	if (c.nwarn != 0)
		fail_msg("split at %zu, max %zu: warning '%s'", cut, max,
			 c.rep[0].msg);
	assert_int_equal(c.nback, 0);
	assert_true(f.gui_quit);
	fb_filter_free(&f);
}

/* The framer feeding the filter: the output is the same for every split. */
static void
test_filter_fed_by_framer_split_at_every_byte(void **state)
{
	static const char in[] =
		"uci\r\n"
		"setoption name UCI_Chess960 value true\r\n"
		"position fen " F960 " w GEge - 0 1 moves e2e4 e7e5\r\n"
		"position startpos\r"
		"position fen " START " w HAha - 0 1\n"
		"go\n"
		"quit";
	static const char want[] =
		"uci\r\n"
		"setoption name UCI_Chess960 value true\r\n"
		"position fen " F960 " w KQkq - 0 1 moves e2e4 e7e5\r\n"
		"position startpos\r"
		"position fen " START " w KQkq - 0 1\n"
		"go\n"
		"quit";

	(void)state;
	for (size_t k = 0; k <= sizeof in - 1; k++) {
		relay_split(in, k, FB_LINE_DEFAULT_MAX, want);
		/* Under a cap of 64 the position lines are raw: unchanged. */
		relay_split(in, k, 64, in);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_uci_position_fen_to_xfen),
		cmocka_unit_test(test_filter_uci_position_fen_to_shredder),
		cmocka_unit_test(test_filter_uci_rows_in_one_session),
		cmocka_unit_test(test_filter_uci_overlong_fen_passes_unchanged),
		cmocka_unit_test(test_filter_uci_engine_lines_unchanged),
		cmocka_unit_test(test_filter_detects_protocol_from_first_command),
		cmocka_unit_test(test_filter_xboard_setboard_in_known_variants),
		cmocka_unit_test(test_filter_xboard_janus_prefix),
		cmocka_unit_test(
			test_filter_xboard_setboard_spacing_and_terminators),
		cmocka_unit_test(test_filter_xboard_unknown_variant_until_new),
		cmocka_unit_test(test_filter_xboard_engine_setup_to_gui_fen),
		cmocka_unit_test(test_filter_quit_sets_gui_quit),
		cmocka_unit_test(test_filter_raw_and_cont_pieces_pass_unchanged),
		cmocka_unit_test(test_filter_uci_cache_follows_variant_and_chess960),
		cmocka_unit_test(test_filter_uci_embassy_not_followed),
		cmocka_unit_test(test_filter_uci_config_chess960_sets_the_mode),
		cmocka_unit_test(test_filter_protocol_find),
		cmocka_unit_test(test_filter_fed_by_framer_split_at_every_byte),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
