/* SPDX-License-Identifier: MIT */
/*
 * What a PGN file's FEN says about its variant (see pgn.h): whether it is
 * one of the 960 Chess960 starts (--select=chess960), and which random
 * variant a FEN without a Variant tag needs (--variant-tag=auto). Chess960
 * differs from standard chess only in castling, so the castling rights
 * decide, and a non-standard start tells a Chess960 game whose rights
 * happen to look standard.
 *
 * No I/O in this file.
 */
#include "fenbridge/pgn.h"

#include <string.h>

#include "fenbridge/variant.h"

bool
fb_pgn_is_chess960_start(const struct fb_fen *fen)
{
	const char *back = fen->pos.board[0];
	int rooks = 0, bishops[2] = {0, 0}, n = 0, q = 0, k = 0;

	if (fen->pos.width != 8 || fen->pos.side != FB_WHITE)
		return false;
	for (int f = 0; f < 8; f++) {
		char c = back[f];
		if (fen->pos.board[1][f] != 'P' ||
		    fen->pos.board[6][f] != 'p' ||
		    fen->pos.board[7][f] != c + ('a' - 'A'))
			return false;
		for (int r = 2; r < 6; r++)
			if (fen->pos.board[r][f] != '\0')
				return false;
		switch (c) {
		case 'R':
			/* the king stands between the rooks */
			if (rooks++ == 1 && k == 0)
				return false;
			break;
		case 'K':
			if (rooks != 1)
				return false;
			k++;
			break;
		case 'B':
			bishops[f % 2]++;
			break;
		case 'N':
			n++;
			break;
		case 'Q':
			q++;
			break;
		default:
			return false;
		}
	}
	return rooks == 2 && k == 1 && q == 1 && n == 2 && bishops[0] == 1 &&
	       bishops[1] == 1;
}

/* Whether a Janus piece ('J') is on the board: no Capablanca game. */
static bool
has_janus(const struct fb_game *g)
{
	for (int r = 0; r < FB_FEN_RANKS; r++)
		for (unsigned f = 0; f < g->width; f++)
			if (g->board[r][f] == 'J' || g->board[r][f] == 'j')
				return true;
	return false;
}

const struct fb_variant *
fb_pgn_needs_random(const struct fb_fen *fen, const char **why)
{
	const char *dummy,
		*name = fen->pos.width == 8 ? "chess960" : "caparandom";

	if (why == NULL)
		why = &dummy;
	/* janus or embassy castling (a prefix), Janus pieces: not
	 * Capablanca's game. */
	if (fen->pos.width == 10 && (fen->prefix != 0 || has_janus(&fen->pos)))
		return NULL;
	if (!fb_game_is_standard_castling(&fen->pos))
		*why = fen->pos.width == 8
			       ? "castling rights standard chess cannot express"
			       : "castling rights Capablanca chess cannot "
				 "express";
	else if (fb_pgn_is_chess960_start(fen) &&
		 memcmp(fen->pos.board[0], "RNBQKBNR", 8) != 0)
		*why = "a Chess960 start position";
	else
		return NULL;
	return fb_variant_find(name, strlen(name));
}
