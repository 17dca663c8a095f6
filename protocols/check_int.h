/* SPDX-License-Identifier: MIT */
/*
 * `fenbridge check`'s script, private to protocols/check*.c: the kinds of
 * steps and the test positions (check_pos.c) that the script (check.c) and
 * the report (check_report.c) use.
 */
#ifndef FB_CHECK_INT_H
#define FB_CHECK_INT_H

#include <stdbool.h>

#include "fenbridge/game.h"

enum fb_check_kind {
	FB_CK_READY,   /* isready / ping answered */
	FB_CK_UNKNOWN, /* an unknown command, then isready / ping */
	FB_CK_READ,    /* a read position in a dialect: the castle expected */
	FB_CK_ACCEPT,  /* an accept position plus the castle in a form */
	FB_CK_STOP,    /* stop during go infinite (XBoard: ? while thinking) */
	FB_CK_PONDERHIT,     /* UCI: go ponder, then ponderhit */
	FB_CK_PONDERMISS,    /* UCI: go ponder, then stop */
	FB_CK_MULTIPV,       /* UCI: MultiPV 3 gives three lines */
	FB_CK_NEWNORMAL,     /* XBoard: new after a variant is standard chess:
			     the standard accept position, king's move */
	FB_CK_XB_PONDERHIT,  /* XBoard: hard, a move, its ponder move */
	FB_CK_XB_PONDERMISS, /* XBoard: hard, a move, another reply */
	FB_CK_ANALYZE,       /* XBoard: analyze gives thinking, exit ends it */
	FB_CK_QUIT,
};

#define FB_CHECK_MULTIPV 3
#define FB_CHECK_MAX_RESTARTS 24

/* The command no engine knows, sent to see that it survives one. */
extern const char fb_check_unknown_cmd[];

/* The test positions (check_pos.c): fb_check_npos() of them, the second
 * half the first mirrored for Black; -1 is the start position, -2 the
 * pondering steps' (after 1. e4 e5). */
int
fb_check_npos(void);
bool
fb_check_load(int i, struct fb_game *g);
/* The castle of position g (its one castling move). */
bool
fb_check_castle_of(const struct fb_game *g, struct fb_move *m);
/* A read position (the castle is the one mate), else an accept one (the
 * castle checks, one legal reply); for Chess960 mode only. */
bool
fb_check_pos_read(int i);
bool
fb_check_pos_c960(int i);
/* Form f can write position i's castle. */
bool
fb_check_can_write(int i, enum fb_castle_notation f);
/* CECP edit can set position i up with its castling rights. */
bool
fb_check_edit_can(int i);
/* The standard accept position, also the one of FB_CK_NEWNORMAL. */
#define FB_CHECK_P_STD_ACCEPT 1

/* Test position i: what it tests, in words; played by Black
 * (a mirrored one); 10 files wide (caparandom); written alike in X-FEN and
 * Shredder-FEN (an inner rook's right is a file letter in both); its castle
 * reads differently as king takes rook and as the king's move. */
const char *
fb_check_pos_what(int i);
bool
fb_check_pos_black(int i);
bool
fb_check_pos_wide(int i);
bool
fb_check_pos_same(int i);
bool
fb_check_pos_forms_differ(int i);

/* The variant a test position is played in (its UCI_Variant and XBoard
 * variant name: fb_check_variant_name): chess for the 8x8 ones. */
enum fb_check_variant {
	FB_CKV_CHESS,
	FB_CKV_CAPABLANCA,
	FB_CKV_CAPARANDOM,
	FB_CKV_JANUS,
	FB_CKV_EMBASSY,
	FB_CKV_COUNT,
};
enum fb_check_variant
fb_check_pos_variant(int i);
/* The variant position i is played in, in Chess960 mode or not (a
 * capablanca position in Chess960 mode: caparandom). */
enum fb_check_variant
fb_check_variant_in(int i, bool c960);
const char *
fb_check_variant_name(enum fb_check_variant v);

#endif
