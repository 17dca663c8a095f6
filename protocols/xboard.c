/* SPDX-License-Identifier: MIT */
/*
 * XBoard (CECP): rewrites the FEN of `setboard <FEN>` into the engine's
 * dialect and the FEN of the engine's `setup [(PIECES)] [WxH+S_PARENT] FEN`
 * into the GUI's, while the current variant is one whose castling fenbridge
 * knows. Tracks `new` (normal chess) and `variant NAME`; for any other
 * variant the lines pass unchanged.
 *
 * No I/O in this file.
 */
#include <string.h>

#include "fenbridge/filter.h"

/* Variants whose castling follows the king-and-rook rules fenbridge reads,
 * with the X-FEN castling prefix a variant needs (dialects.md, Boards). */
static const struct {
	const char *name;
	char prefix;
} known_variants[] = {
	{"normal", 0},     {"fischerandom", 0}, {"capablanca", 0},
	{"caparandom", 0}, {"gothic", 0},       {"janus", 's'},
};

static void
set_variant(struct fb_filter *f, const char *name, size_t n)
{
	if (n >= sizeof f->variant)
		n = sizeof f->variant - 1;
	memcpy(f->variant, name, n);
	f->variant[n] = '\0';
	f->variant_known = false;
	f->variant_prefix = 0;
	for (size_t i = 0; i < sizeof known_variants / sizeof known_variants[0];
	     i++)
		if (strcmp(known_variants[i].name, f->variant) == 0) {
			f->variant_known = true;
			f->variant_prefix = known_variants[i].prefix;
		}
}

/* The FEN runs from its first token to the last non-blank of the line. */
static size_t
fen_end(const char *text, size_t len)
{
	while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	return len;
}

static void
xboard_gui_line(struct fb_filter *f, const char *text, size_t len,
		size_t term, const struct fb_sink *out)
{
	struct fb_fen_style style = {.notation = f->engine_fen,
				     .prefix = f->variant_prefix};
	size_t pos = 0, start, n;

	n = fb_filter_token(text, len, &pos, &start);
	if (fb_filter_is(text, start, n, "new")) {
		set_variant(f, "normal", 6);
	} else if (fb_filter_is(text, start, n, "variant")) {
		n = fb_filter_token(text, len, &pos, &start);
		set_variant(f, text + start, n);
	} else if (fb_filter_is(text, start, n, "setboard")) {
		n = fb_filter_token(text, len, &pos, &start);
		if (n == 0) {
			out->report(out->ctx, FB_LOG_WARN,
				    "setboard: no FEN on the line; passed "
				    "unchanged");
		} else if (!f->variant_known) {
			out->report(out->ctx, FB_LOG_DEBUG,
				    "setboard: variant not known to fenbridge; "
				    "passed unchanged");
		} else {
			fb_filter_splice_fen(f, text, len, term, start,
					     fen_end(text, len), &style,
					     "setboard", out);
			return;
		}
	}
	out->emit(out->ctx, text, len + term);
}

static void
xboard_engine_line(struct fb_filter *f, const char *text, size_t len,
		   size_t term, const struct fb_sink *out)
{
	struct fb_fen_style style = {.notation = f->gui_fen,
				     .prefix = f->variant_prefix};
	size_t pos = 0, start, n;

	n = fb_filter_token(text, len, &pos, &start);
	if (!fb_filter_is(text, start, n, "setup")) {
		out->emit(out->ctx, text, len + term);
		return;
	}
	/* Skip the optional (PIECES) and WxH+S_PARENT tokens: the FEN is the
	 * first token holding a '/' (its board). */
	while ((n = fb_filter_token(text, len, &pos, &start)) > 0 &&
	       memchr(text + start, '/', n) == NULL)
		;
	if (n == 0 || !f->variant_known) {
		out->emit(out->ctx, text, len + term);
		return;
	}
	fb_filter_splice_fen(f, text, len, term, start, fen_end(text, len),
			     &style, "setup", out);
}

const struct fb_protocol fb_protocol_xboard = {
	.name = "xboard",
	.user_message = "tellusererror ",
	.gui_line = xboard_gui_line,
	.engine_line = xboard_engine_line,
};
