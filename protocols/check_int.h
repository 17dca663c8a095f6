/* SPDX-License-Identifier: MIT */
/*
 * `fenbridge check`'s script, private to protocols/check*.c: the kinds of
 * steps and what the report (check_report.c) needs to know about the test
 * positions of check.c.
 */
#ifndef FB_CHECK_INT_H
#define FB_CHECK_INT_H

#include <stdbool.h>

enum fb_check_kind {
	FB_CK_READY,   /* isready / ping answered */
	FB_CK_UNKNOWN, /* an unknown command, then isready / ping */
	FB_CK_READ,    /* a read position in a dialect: the castle expected */
	FB_CK_ACCEPT,  /* an accept position plus the castle in a form */
	FB_CK_STOP,    /* stop during go infinite (XBoard: ? while thinking) */
	FB_CK_PONDERHIT,  /* UCI: go ponder, then ponderhit */
	FB_CK_PONDERMISS, /* UCI: go ponder, then stop */
	FB_CK_MULTIPV,    /* UCI: MultiPV 3 gives three lines */
	FB_CK_NEWNORMAL,  /* XBoard: new after a variant is standard chess:
			     the standard accept position, king's move */
	FB_CK_QUIT,
};

#define FB_CHECK_MULTIPV 3
#define FB_CHECK_MAX_RESTARTS 24

/* The command no engine knows, sent to see that it survives one. */
extern const char fb_check_unknown_cmd[];

/* Test position i (see check.c): what it tests, in words; played by Black
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

#endif
