/* SPDX-License-Identifier: MIT */
/*
 * Filter dispatch: decides the protocol from the GUI's first command, hands
 * each whole line to the active protocol, and gives protocol files the shared
 * pieces (tokens, splicing a translated FEN into its line).
 *
 * No I/O in this file: output goes through the caller's sink.
 */
#include "fenbridge/filter.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fenbridge/line.h"

void
fb_filter_init(struct fb_filter *f, const struct fb_protocol *proto,
	       enum fb_notation engine_fen, enum fb_notation gui_fen)
{
	memset(f, 0, sizeof *f);
	f->proto = proto;
	f->engine_fen = engine_fen;
	f->gui_fen = gui_fen;
	strcpy(f->variant, "normal");
	f->variant_known = true;
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

bool
fb_filter_is(const char *text, size_t start, size_t n, const char *word)
{
	return strlen(word) == n && memcmp(text + start, word, n) == 0;
}

static void
report(const struct fb_sink *out, enum fb_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
report(const struct fb_sink *out, enum fb_level level, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	out->report(out->ctx, level, msg);
}

void
fb_filter_splice_fen(struct fb_filter *f, const char *text, size_t len,
		     size_t term, size_t b, size_t e,
		     const struct fb_fen_style *style, const char *what,
		     const struct fb_sink *out)
{
	char buf[1024];
	struct fb_fen_report rep;
	int n;

	if (e - b + FB_FEN_GROWTH > sizeof buf) {
		report(out, FB_LOG_WARN,
		       "%s: FEN of %zu bytes is too long to translate; passed "
		       "unchanged", what, e - b);
		out->emit(out->ctx, text, len + term);
		return;
	}
	n = fb_fen_translate(text + b, e - b, style, buf, sizeof buf, &rep);
	for (unsigned i = 0; i < rep.ndiag; i++)
		report(out, FB_LOG_WARN, "%s: %s%s (column %zu)", what,
		       rep.error ? "malformed FEN passed unchanged: " : "",
		       rep.diag[i].msg, b + rep.diag[i].offset + 1);
	if (rep.nmore > 0)
		report(out, FB_LOG_WARN, "%s: %u more castling letters dropped",
		       what, rep.nmore);
	if (rep.error || ((size_t)n == e - b && memcmp(buf, text + b, e - b) == 0)) {
		out->emit(out->ctx, text, len + term);
		return;
	}
	f->rewrites++;
	report(out, FB_LOG_DEBUG, "%s: rewrote '%.*s' as '%.*s'", what,
	       (int)(e - b), text + b, n, buf);
	out->emit(out->ctx, text, b);
	out->emit(out->ctx, buf, (size_t)n);
	out->emit(out->ctx, text + e, len + term - e);
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
	if (fb_filter_is(text, start, n, "quit"))
		f->gui_quit = true;
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
