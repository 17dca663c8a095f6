/* SPDX-License-Identifier: MIT */
/*
 * Result codes shared by the pure core (fen, line, protocol filters).
 *
 * Functions of the core return 0 or a count on success and a negative FB_E*
 * code on failure. Positive FB_W* codes are warnings: the operation went
 * through, but something in the input was dropped and a user must hear of it.
 */
#ifndef FENBRIDGE_ERROR_H
#define FENBRIDGE_ERROR_H

enum fb_code {
	FB_OK = 0,

	/* Malformed FEN: passed on unchanged (doc/dialects.md, "Bad input"). */
	FB_EFIELDS = -1, /* fewer than 4 or more than 6 fields */
	FB_EBYTE = -2,   /* a byte that is not printable ASCII */
	FB_ERANKS = -3,  /* not exactly 8 ranks */
	FB_EWIDTH = -4,  /* ranks of different or unsupported width */
	FB_EPIECE = -5,  /* unknown piece letter */
	FB_EDIGITS = -6, /* two digit runs in a row, or a 0 */
	FB_EKINGS = -7,  /* not exactly one king per colour */
	FB_ESIDE = -8,   /* side to move is not w or b */
	FB_ECASTLING =
		-9, /* castling field syntax: letter, repeat, '-' mixed */
	FB_ECONFLICT = -10, /* two rights on one rook or on one wing */
	FB_EEP = -11,       /* bad en-passant square */
	FB_ECOUNTER = -12,  /* halfmove or fullmove counter is not a number */

	/* Programmer or resource errors. */
	FB_ENOSPC = -20, /* caller's output buffer too small */
	FB_EINVAL = -21, /* invalid argument */

	/* Warnings: impossible castling rights, dropped (dialects.md). */
	FB_WKING = 1, /* a right for a king that is not on its back rank */
	FB_WROOK = 2, /* a right naming no own rook on the back rank */
};

/*
 * Returns a short static description of code (never NULL, never freed).
 */
const char *
fb_strerror(int code);

#endif
