/* SPDX-License-Identifier: MIT */
/*
 * The capturing sink shared by the filter unit tests (test_filter.c: the
 * dispatcher; test_uci.c, test_xboard.c: the same-protocol pairs): a
 * filter set up with FEN dialects and castling decided by it, one line fed
 * at a time, and the exact bytes and warnings it gave checked.
 */
#ifndef FB_TEST_CAPTURE_H
#define FB_TEST_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "filter.h"

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

const struct fb_variant *
known_variant(const struct fb_filter *f);
void
filter_init(struct fb_filter *f, const struct fb_protocol *proto,
	    enum fb_notation engine_fen, enum fb_notation gui_fen);
struct fb_sink
sink_of(struct capture *c);
struct fb_sink
engine_sink_of(struct capture *c);
void
feed(struct fb_filter *f, bool gui, const char *line, struct capture *c);
void
expect_out(const struct capture *c, const char *in, const char *want,
	   size_t nwarn);
void
expect_line(struct fb_filter *f, bool gui, const char *in, const char *want,
	    size_t nwarn);
void
expect_same(struct fb_filter *f, bool gui, const char *in);
void
xboard_filter(struct fb_filter *f, enum fb_notation engine_fen,
	      enum fb_notation gui_fen);

#endif
