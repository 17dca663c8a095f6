/* SPDX-License-Identifier: MIT */
/*
 * Legal moves of a position (struct fb_game: 8x8, or 10x8 with the
 * Capablanca pieces A/a = archbishop (bishop + knight) and C/c =
 * chancellor (rook + knight), and Janus's J/j, an archbishop), for the translating pairs: an engine's
 * move is checked before it reaches a GUI, a game's end is seen, and the
 * SAN that XBoard engines may write (moves and pvs) is read; SAN is
 * written too.
 *
 * Castling follows the Chess960 rule on every start: king and rook end on
 * the files of the position's rules (fb_game_rules: the g- and f-files, c
 * and d for the a-side, i and h on 10x8; Janus and Embassy otherwise), every
 * square between each piece and its destination is empty but for the two
 * of them, and no square the king passes or stands on is attacked. A
 * castle is a struct fb_move with castle = the wing, from = the king's
 * square and to = the castling rook's square (as fb_game_parse_move reads
 * it in any notation).
 *
 * Pure code, no allocation, no I/O.
 */
#ifndef FENBRIDGE_MOVEGEN_H
#define FENBRIDGE_MOVEGEN_H

#include <stdbool.h>
#include <stddef.h>

#include "fenbridge/game.h"

/* More than the legal moves of any 8x8 or 10x8 position. */
#define FB_MOVES_MAX 512

/* Writes the legal moves of g's side to move to out (FB_MOVES_MAX
 * entries); returns how many. Promotions name the piece in lower case. */
size_t
fb_moves_legal(const struct fb_game *g, struct fb_move *out);

/* True when m (read by fb_game_parse_move or fb_moves_parse_san) is a
 * legal move in g; the promotion letter's case does not matter. */
bool
fb_moves_is_legal(const struct fb_game *g, const struct fb_move *m);

/* True when g's side to move is in check. */
bool
fb_moves_in_check(const struct fb_game *g);

enum fb_game_end {
	FB_END_NONE,      /* the side to move has a legal move */
	FB_END_CHECKMATE, /* it has none and is in check */
	FB_END_STALEMATE, /* it has none and is not in check */
};

enum fb_game_end
fb_moves_end(const struct fb_game *g);

/*
 * Reads text[0..len) as a legal move of g: SAN (Nf3, exd5, e8=Q, Nbd7,
 * R1a3, O-O, with + # ! ? suffixes, and the A/C pieces on 10x8) or any
 * notation fb_game_parse_move reads (coordinates with promotion, castling
 * as king takes rook, king move or O-O). Returns 0 and sets m, or
 * FB_EINVAL when it is no legal move of g (or an ambiguous SAN).
 */
int
fb_moves_parse(const struct fb_game *g, const char *text, size_t len,
	       struct fb_move *m);

/* Writes legal move m of g in SAN (with + or #) to out, NUL-terminated.
 * Returns the length, or FB_ENOSPC (16 bytes are always enough). */
int
fb_moves_print_san(const struct fb_game *g, const struct fb_move *m, char *out,
		   size_t cap);

/* Writes m of g in coordinates (e2e4, e7e8q; on 10x8 files a-j and ranks
 * 1-8), a castle in notation n (see fb_game_print_castle, whose limits
 * apply), NUL-terminated. Returns the length, FB_EINVAL or FB_ENOSPC. */
int
fb_moves_print_coord(const struct fb_game *g, const struct fb_move *m,
		     enum fb_castle_notation n, char *out, size_t cap);

#endif
