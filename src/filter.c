/* SPDX-License-Identifier: MIT */
/*
 * Filter dispatch: decides the protocol from the GUI's first command, hands
 * each whole line to the active protocol, and gives protocol files the shared
 * pieces (tokens, translating a FEN, emitting a line with edits).
 *
 * No I/O in this file: output goes through the caller's sink.
 */
#include "fenbridge/filter.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fenbridge/line.h"

void
fb_filter_init(struct fb_filter *f, const struct fb_filter_options *opt)
{
	memset(f, 0, sizeof *f);
	f->opt = *opt;
	f->proto = opt->proto;
	strcpy(f->variant, "normal");
	f->variant_known = true;
	fb_game_start(&f->game, FB_GAME_NORMAL);
	f->game_known = true;
}

void
fb_filter_free(struct fb_filter *f)
{
	fb_uci_position_free(f->uci_pos);
	free(f->engine_vars);
	free(f->history);
	f->uci_pos = NULL;
	f->engine_vars = NULL;
	f->history = NULL;
	f->nhistory = f->history_cap = 0;
}

size_t
fb_filter_token(const char *text, size_t len, size_t *pos, size_t *start)
{
	size_t i = *pos;

	while (i < len && (text[i] == ' ' || text[i] == '\t'))
		i++;
	*start = i;
	while (i < len && text[i] != ' ' && text[i] != '\t')
		i++;
	*pos = i;
	return i - *start;
}

const struct fb_engine_option *
fb_filter_option(const struct fb_filter *f, const char *name, size_t n)
{
	for (size_t i = 0; i < f->opt.noptions; i++) {
		const struct fb_engine_option *o = &f->opt.options[i];
		if (strlen(o->name) == n && strncasecmp(o->name, name, n) == 0)
			return o;
	}
	return NULL;
}

void
fb_filter_report(const struct fb_sink *out, enum fb_level level,
		 const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (level < out->min_level)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	out->report(out->ctx, level, msg);
}

static void
line_out(void (*fn)(void *, const char *, size_t), void *ctx, const char *fmt,
	 va_list ap)
{
	char buf[512];
	int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);

	if (n < 0)
		return;
	if ((size_t)n > sizeof buf - 2)
		n = (int)sizeof buf - 2;
	buf[n++] = '\n';
	fn(ctx, buf, (size_t)n);
}

void
fb_filter_reply(const struct fb_sink *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line_out(out->reply, out->ctx, fmt, ap);
	va_end(ap);
}

void
fb_filter_inject(const struct fb_sink *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line_out(out->emit, out->ctx, fmt, ap);
	va_end(ap);
}

int
fb_filter_translate_fen(const char *text, size_t b, size_t e,
			const struct fb_fen_style *style, const char *what,
			const struct fb_sink *out, struct fb_fen *fen,
			char *buf, size_t cap, struct fb_edit *edit)
{
	struct fb_fen_report rep;
	int n;

	if (e - b + FB_FEN_GROWTH > cap) {
		fb_filter_report(out, FB_LOG_WARN,
				 "%s: FEN of %zu bytes is too long to "
				 "translate; passed unchanged", what, e - b);
		return -1;
	}
	fb_fen_parse(fen, text + b, e - b, &rep);
	for (unsigned i = 0; i < rep.ndiag; i++)
		fb_filter_report(out, FB_LOG_WARN, "%s: %s%s (column %zu)",
				 what,
				 rep.error ? "malformed FEN passed unchanged: "
					   : "",
				 rep.diag[i].msg, b + rep.diag[i].offset + 1);
	if (rep.nmore > 0)
		fb_filter_report(out, FB_LOG_WARN,
				 "%s: %u more castling letters dropped", what,
				 rep.nmore);
	if (rep.error || (n = fb_fen_print(fen, style, buf, cap)) < 0)
		return -1;
	if ((size_t)n == e - b && memcmp(buf, text + b, e - b) == 0)
		return 0;
	*edit = (struct fb_edit){
		.off = b, .len = e - b, .text = buf, .tlen = (size_t)n};
	fb_filter_report(out, FB_LOG_DEBUG, "%s: rewrote '%.*s' as '%.*s'",
			 what, (int)(e - b), text + b, n, buf);
	return 1;
}

void
fb_filter_emit_edited(const char *text, size_t len, size_t term,
		      const struct fb_edit *edits, unsigned n,
		      const struct fb_sink *out)
{
	size_t at = 0;

	for (unsigned i = 0; i < n; i++) {
		out->emit(out->ctx, text + at, edits[i].off - at);
		out->emit(out->ctx, edits[i].text, edits[i].tlen);
		at = edits[i].off + edits[i].len;
	}
	out->emit(out->ctx, text + at, len + term - at);
}

bool
fb_filter_splice_fen(const char *text, size_t len, size_t term, size_t b,
		     size_t e, const struct fb_fen_style *style,
		     const char *what, const struct fb_sink *out,
		     struct fb_fen *fen)
{
	char buf[1024];
	struct fb_fen scratch;
	struct fb_edit edit = {0};
	int rc;

	if (fen == NULL)
		fen = &scratch;
	rc = fb_filter_translate_fen(text, b, e, style, what, out, fen, buf,
				     sizeof buf, &edit);
	fb_filter_emit_edited(text, len, term, &edit, rc > 0 ? 1 : 0, out);
	return rc >= 0;
}

static const struct fb_protocol *
detect(const char *text, size_t len)
{
	size_t pos = 0, start, n = fb_filter_token(text, len, &pos, &start);

	if (fb_filter_is(text, start, n, "uci"))
		return &fb_protocol_uci;
	if (fb_filter_is(text, start, n, "xboard") ||
	    fb_filter_is(text, start, n, "protover"))
		return &fb_protocol_xboard;
	return NULL;
}

void
fb_filter_gui_line(struct fb_filter *f, const char *text, size_t len,
		   size_t term, unsigned flags, const struct fb_sink *out)
{
	size_t pos = 0, start, n;

	if (flags & (FB_LINE_RAW | FB_LINE_CONT)) {
		out->emit(out->ctx, text, len + term);
		return;
	}
	n = fb_filter_token(text, len, &pos, &start);
	if (fb_filter_is(text, start, n, "quit") && !f->gui_quit) {
		f->gui_quit = true;
		if (out->event != NULL)
			out->event(out->ctx, FB_EVENT_GUI_QUIT);
	}
	if (f->proto == NULL)
		f->proto = detect(text, len);
	if (f->proto == NULL)
		out->emit(out->ctx, text, len + term);
	else
		f->proto->gui_line(f, text, len, term, out);
}

void
fb_filter_engine_line(struct fb_filter *f, const char *text, size_t len,
		      size_t term, unsigned flags, const struct fb_sink *out)
{
	if (f->proto == NULL || (flags & (FB_LINE_RAW | FB_LINE_CONT)))
		out->emit(out->ctx, text, len + term);
	else
		f->proto->engine_line(f, text, len, term, out);
}

int
fb_filter_move(struct fb_game *g, const char *text, size_t start, size_t n,
	       enum fb_castle_notation to, struct fb_edit *edit,
	       char pool[static 8], const struct fb_sink *out,
	       const char *what, enum fb_level level)
{
	struct fb_move m;
	int len;

	edit->len = 0;
	if (fb_game_parse_move(g, text + start, n, &m) < 0)
		return FB_EINVAL;
	if (m.castle >= 0) {
		len = fb_game_print_castle(g, &m, to, pool, 8);
		if (len < 0) {
			fb_filter_report(out, level,
					 "%s: castling move '%.*s' cannot be "
					 "written in %s notation; passed "
					 "unchanged", what, (int)n,
					 text + start,
					 to == FB_CASTLE_KING ? "king-move"
							      : "this");
		} else if ((size_t)len != n ||
			   memcmp(pool, text + start, n) != 0) {
			edit->off = start;
			edit->len = n;
			edit->text = pool;
			edit->tlen = (size_t)len;
		}
	}
	fb_game_play(g, &m);
	return 0;
}
