/* SPDX-License-Identifier: MIT */
/*
 * TEMPORARY: stands in for src/movegen.c (branch movegen) until it is
 * merged; meson.build builds this file only while src/movegen.c is absent.
 * It checks only that a move starts on a piece of the side to move and
 * never sees a game end.
 */
#include "fenbridge/movegen.h"

bool
fb_moves_is_legal(const struct fb_game *g, const struct fb_move *m)
{
	char p;

	if (m->null || m->from_rank < 0 || m->from_rank >= FB_FEN_RANKS ||
	    m->from_file < 0 || m->from_file >= (int)g->width)
		return false;
	p = g->board[m->from_rank][m->from_file];
	return p != 0 && ((p >= 'a') == (g->side == FB_BLACK));
}

enum fb_game_end
fb_moves_end(const struct fb_game *g)
{
	(void)g;
	return FB_END_NONE;
}
