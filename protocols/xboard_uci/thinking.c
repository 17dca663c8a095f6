/* SPDX-License-Identifier: MIT */
/*
 * The engine's `info` lines as XBoard thinking output (xboard_uci.h).
 *
 * The hot path: engines write info lines by the thousand. Each is read
 * once by fb_uci_parse_info, no allocation; the numbers are printed by
 * hand, and the pv goes on as the engine wrote it, but for castles in the
 * GUI's notation (only while a castling right remains, and only when the
 * two notations differ).
 *
 * No I/O in this file.
 */
#include <string.h>

#include "fenbridge/movegen.h"
#include "xboard_uci.h"

#define MAX_EDITS 8

/* Writes v in decimal to p (20 bytes); returns the length. */
static size_t
put_num(char *p, long long v)
{
	char tmp[20];
	size_t n = sizeof tmp, k = 0;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v
				     : (unsigned long long)v;

	if (v < 0)
		p[k++] = '-';
	do {
		tmp[--n] = (char)('0' + u % 10);
		u /= 10;
	} while (u > 0);
	memcpy(p + k, tmp + n, sizeof tmp - n);
	return k + sizeof tmp - n;
}

/*
 * `info depth D score cp S|mate M time T nodes N pv ...` -> the thinking
 * line `D S T/10 N pv` (CECP "Thinking output"). Mates are 100000 + M
 * moves, -100000 - M when mated (CECP: "mate scores"). The pv is copied
 * as it is from the `pv` keyword to the end of the line, but for castles
 * in the GUI's notation.
 */
void
fb_xbu_engine_info(struct xbu *x, const char *text, size_t len,
		   const struct fb_sink *out)
{
	struct fb_uci_info in;
	struct fb_span pv;
	long long score;
	char head[96];
	size_t h = 0, from;

	if (!fb_xbu_thinking_shown(x)) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"info of a search fenbridge stopped: dropped");
		return;
	}
	fb_uci_parse_info(text, len, &in);
	if (!(in.have & FB_INFO_PV)) {
		if (in.have & FB_INFO_STRING)
			fb_proto_report(out, FB_LOG_DEBUG, "engine says: %.*s",
					(int)in.string.len,
					text + in.string.off);
		else
			fb_proto_report(out, FB_LOG_DEBUG,
					"info without a pv: not thinking "
					"output");
		return;
	}
	if (!x->post && x->state != FB_XBU_ANALYZING) {
		fb_proto_report(out, FB_LOG_DEBUG, "nopost: info dropped");
		return;
	}
	score = in.score;
	if (in.mate)
		score = score > 0 ? 100000 + score : -100000 + score;
	h += put_num(head + h, in.depth);
	head[h++] = ' ';
	h += put_num(head + h, score);
	head[h++] = ' ';
	h += put_num(head + h, in.time / 10);
	head[h++] = ' ';
	h += put_num(head + h, in.nodes);
	out->to_gui(out->ctx, head, h);
	pv = in.moves[FB_UCI_PV];
	/* from right after the keyword: the blanks before the first move */
	from = pv.off;
	if (pv.len > 0)
		while (from > 0 && fb_token_blank(text[from - 1]))
			from--;
	{
		struct fb_edit edits[MAX_EDITS];
		char pool[MAX_EDITS][8];
		unsigned ne = 0;
		enum fb_castle_notation to = x->pv_castling;

		/* Only castles differ, and only while a right remains. */
		if (to != FB_CASTLE_AUTO && fb_game_can_castle(&x->cur)) {
			struct fb_game g = x->cur;
			size_t p = pv.off, end = pv.off + pv.len, s, n;
			while (fb_game_can_castle(&g) && ne < MAX_EDITS &&
			       (n = fb_proto_token(text, end, &p, &s)) > 0 &&
			       fb_proto_move(&g, text, s, n, to, &edits[ne],
					     pool[ne], out, "info pv",
					     FB_LOG_DEBUG) == 0)
				if (edits[ne].len > 0)
					ne++;
		}
		for (unsigned i = 0; i < ne; i++) {
			out->to_gui(out->ctx, text + from, edits[i].off - from);
			out->to_gui(out->ctx, edits[i].text, edits[i].tlen);
			from = edits[i].off + edits[i].len;
		}
		out->to_gui(out->ctx, text + from, len - from);
		out->to_gui(out->ctx, "\n", 1);
	}
}
