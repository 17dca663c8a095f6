/* SPDX-License-Identifier: MIT */
/*
 * CECP edit (see cecp_edit.h): `#` clears, a piece letter and square each,
 * `c` toggles the colour, `.` ends; XBoard writes the letters of any
 * variant's pieces the same way, and Fairy-Max 5.0b reads A and C on 10x8.
 * edit keeps the side to move, which after `new` is White; for Black,
 * CECP's own way is a White move first (XBoard sends a2a3: legal from every
 * start fenbridge follows).
 *
 * No I/O, no allocation.
 */
#include "cecp_edit.h"

#include <stdarg.h>
#include <stdio.h>

/* Appends to out[*len..cap), snprintf-style; false when it does not fit. */
__attribute__((format(printf, 4, 5))) static bool
add(char *out, size_t cap, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= cap)
		return false;
	va_start(ap, fmt);
	n = vsnprintf(out + *len, cap - *len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= cap - *len)
		return false;
	*len += (size_t)n;
	return true;
}

int
fb_cecp_print_edit(const struct fb_game *g, bool usermove, bool san, char *out,
		   size_t cap)
{
	size_t len = 0;
	bool ok = true;

	if (g->side == FB_BLACK)
		ok = add(out, cap, &len, "%s%s\n", usermove ? "usermove " : "",
			 san ? "a3" : "a2a3");
	ok = ok && add(out, cap, &len, "edit\n#\n");
	for (int c = 0; c < 2; c++) {
		if (c == 1)
			ok = ok && add(out, cap, &len, "c\n");
		for (int r = 0; r < FB_FEN_RANKS; r++)
			for (int f = 0; f < (int)g->width; f++) {
				char p = g->board[r][f];
				if (p != 0 && (p >= 'a') == (c == 1))
					ok = ok &&
					     add(out, cap, &len, "%c%c%d\n",
						 p & ~0x20, 'a' + f, r + 1);
			}
	}
	ok = ok && add(out, cap, &len, ".\n");
	return ok ? (int)len : -1;
}

const char *
fb_cecp_edit_loses(const struct fb_game *g)
{
	int kf = fb_game_rules(g)->king_home;

	if (g->ep_file >= 0) {
		int r = g->side == FB_WHITE ? 4 : 3;
		char p = g->side == FB_WHITE ? 'P' : 'p';
		for (int f = g->ep_file - 1; f <= g->ep_file + 1; f += 2)
			if (f >= 0 && f < (int)g->width && g->board[r][f] == p)
				return "the en-passant capture";
	}
	for (int c = 0; c < 2; c++) {
		int r = c == 0 ? 0 : 7;
		char k = c == 0 ? 'K' : 'k', rook = c == 0 ? 'R' : 'r';
		if (g->board[r][kf] != k)
			continue;
		for (int wing = 0; wing < 2; wing++) {
			int f = wing == FB_HSIDE ? (int)g->width - 1 : 0;
			if (g->board[r][f] == rook && g->castle[c][wing] != f)
				return "that a castling right is gone";
		}
	}
	return NULL;
}
