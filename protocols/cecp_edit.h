/* SPDX-License-Identifier: MIT */
/*
 * CECP `edit`: a position as the lines that set it up in an engine without
 * `setboard` (Fairy-Max), and what those lines cannot say. Shared by the
 * UCI GUI + XBoard engine pair and by `fenbridge check`.
 *
 * Pure code: no I/O, no allocation.
 */
#ifndef FB_CECP_EDIT_H
#define FB_CECP_EDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "fenbridge/game.h"

/* Room for the longest edit: a move, edit, #, c, ., and a piece each. */
#define FB_CECP_EDIT_MAX (64 + 5 * FB_FEN_RANKS * FB_FEN_MAX_FILES)

/*
 * Writes g as edit lines to out (cap bytes), each ending in \n: for Black
 * to move first a White move (`a2a3`, `usermove a2a3` with usermove, `a3`
 * with san), then `edit`, `#`, White's pieces, `c`, Black's, `.`. Returns
 * the length, or -1 when it does not fit.
 */
int
fb_cecp_print_edit(const struct fb_game *g, bool usermove, bool san, char *out,
		   size_t cap);

/*
 * What edit cannot say about g, or NULL: it has no field for an en-passant
 * square nor for castling rights, which an engine then infers from a king
 * and rook on their start squares (Fairy-Max takes such pieces as
 * unmoved). The rights it can carry are those: a corner rook with the king
 * on the e-file (f-file on 10x8).
 */
const char *
fb_cecp_edit_loses(const struct fb_game *g);

#endif
