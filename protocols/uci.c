/* SPDX-License-Identifier: MIT */
/*
 * UCI: rewrites the FEN of `position fen <FEN> [moves ...]` into the engine's
 * dialect. Per the UCI spec the FEN is the tokens after `fen` up to `moves`
 * or the end of the line; spacing, the move list and the terminator stay as
 * they were. Engine output carries no FEN in UCI and passes unchanged.
 *
 * No I/O in this file.
 */
#include "fenbridge/filter.h"

static void
uci_gui_line(struct fb_filter *f, const char *text, size_t len, size_t term,
	     const struct fb_sink *out)
{
	struct fb_fen_style style = {.notation = f->engine_fen};
	size_t pos = 0, start, n, b = 0, e = 0;

	n = fb_filter_token(text, len, &pos, &start);
	if (!fb_filter_is(text, start, n, "position")) {
		out->emit(out->ctx, text, len + term);
		return;
	}
	n = fb_filter_token(text, len, &pos, &start);
	if (!fb_filter_is(text, start, n, "fen")) {
		out->emit(out->ctx, text, len + term);
		return;
	}
	while ((n = fb_filter_token(text, len, &pos, &start)) > 0 &&
	       !fb_filter_is(text, start, n, "moves")) {
		if (b == 0)
			b = start;
		e = start + n;
	}
	if (b == 0) {
		out->report(out->ctx, FB_LOG_WARN,
			    "position fen: no FEN on the line; passed unchanged");
		out->emit(out->ctx, text, len + term);
		return;
	}
	fb_filter_splice_fen(f, text, len, term, b, e, &style, "position fen",
			     out);
}

static void
uci_engine_line(struct fb_filter *f, const char *text, size_t len,
		size_t term, const struct fb_sink *out)
{
	(void)f;
	out->emit(out->ctx, text, len + term);
}

const struct fb_protocol fb_protocol_uci = {
	.name = "uci",
	.user_message = "info string ",
	.gui_line = uci_gui_line,
	.engine_line = uci_engine_line,
};
