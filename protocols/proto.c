/* SPDX-License-Identifier: MIT */
/*
 * The protocol files' shared pieces (see proto.h).
 *
 * No I/O in this file: output goes through the caller's sink.
 */
#include "proto.h"

#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

void *
fb_proto_grow(void *a, size_t n, size_t *cap, size_t size, size_t first)
{
	size_t c = *cap ? *cap * 2 : first;
	void *p;

	if (n < *cap)
		return a;
	if ((p = realloc(a, c * size)) != NULL)
		*cap = c;
	return p;
}

bool
fb_proto_is_nocase(const char *text, size_t start, size_t n, const char *word)
{
	return strlen(word) == n && strncasecmp(text + start, word, n) == 0;
}

const struct fb_engine_option *
fb_proto_option(const struct fb_filter_options *opt, const char *name, size_t n)
{
	for (size_t i = 0; i < opt->noptions; i++) {
		const struct fb_engine_option *o = &opt->options[i];
		if (strlen(o->name) == n && strncasecmp(o->name, name, n) == 0)
			return o;
	}
	return NULL;
}

void
fb_proto_report(const struct fb_sink *out, enum fb_level level, const char *fmt,
		...)
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

void
fb_proto_vline(const struct fb_sink *out, enum fb_dir d, const char *fmt,
	       va_list ap)
{
	char buf[FB_OWN_LINE_MAX + 1]; /* room for a long pv */
	int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);

	if (n < 0)
		return;
	if ((size_t)n > sizeof buf - 2)
		n = (int)sizeof buf - 2;
	buf[n++] = '\n';
	fb_sink_put(out, d, buf, (size_t)n);
}

void
fb_proto_gui(const struct fb_sink *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fb_proto_vline(out, FB_TO_GUI, fmt, ap);
	va_end(ap);
}

void
fb_proto_say(const struct fb_sink *out, const struct fb_protocol *gui,
	     enum fb_say level, const char *fmt, ...)
{
	char text[FB_OWN_LINE_MAX + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	fb_proto_gui(out, "%sfenbridge: %s", fb_protocol_prefix(gui, level),
		     text);
}

void
fb_proto_engine(const struct fb_sink *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fb_proto_vline(out, FB_TO_ENGINE, fmt, ap);
	va_end(ap);
}

void
fb_proto_buf_add(struct fb_buf *b, const char *data, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *p;
		while (cap < b->len + n)
			cap *= 2;
		if ((p = realloc(b->p, cap)) == NULL) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

void
fb_proto_buf_str(struct fb_buf *b, const char *s)
{
	fb_proto_buf_add(b, s, strlen(s));
}

bool
fb_proto_hold(struct fb_buf *h, const char *text, size_t len, size_t max)
{
	size_t mark = h->len;

	if (mark + len + 1 > max)
		return false;
	fb_proto_buf_add(h, text, len);
	fb_proto_buf_add(h, "\n", 1);
	if (!h->oom)
		return true;
	h->len = mark;
	h->oom = false;
	return false;
}

void
fb_proto_release(struct fb_buf *h,
		 void (*line)(void *ctx, const char *text, size_t len,
			      const struct fb_sink *out),
		 void *ctx, const struct fb_sink *out)
{
	struct fb_buf held = *h;
	size_t at = 0;

	*h = (struct fb_buf){0};
	while (at < held.len) {
		const char *nl = memchr(held.p + at, '\n', held.len - at);
		size_t n = (size_t)(nl - (held.p + at));
		line(ctx, held.p + at, n, out);
		at += n + 1;
	}
	free(held.p);
}

void
fb_proto_emit_edited(const struct fb_sink *out, enum fb_dir d, const char *text,
		     size_t len, size_t term, const struct fb_edit *edits,
		     unsigned n)
{
	size_t at = 0;

	for (unsigned i = 0; i < n; i++) {
		fb_sink_put(out, d, text + at, edits[i].off - at);
		fb_sink_put(out, d, edits[i].text, edits[i].tlen);
		at = edits[i].off + edits[i].len;
	}
	fb_sink_put(out, d, text + at, len + term - at);
}

/* Longer than any FEN of a board fenbridge reads (10x8 with every square
 * spelled out and 20-digit counters is under 200 bytes). */
#define FEN_MAX 1024

int
fb_proto_parse_fen(const char *text, size_t b, size_t e, const char *what,
		   const struct fb_sink *out, struct fb_fen *fen)
{
	struct fb_fen_report rep;

	if (e - b + FB_FEN_GROWTH > FEN_MAX) {
		fb_proto_report(out, FB_LOG_WARN,
				"%s: FEN of %zu bytes is too long to "
				"translate; passed unchanged",
				what, e - b);
		return FB_ENOSPC;
	}
	fb_fen_parse(fen, text + b, e - b, &rep);
	for (unsigned i = 0; i < rep.ndiag; i++)
		fb_proto_report(out, FB_LOG_WARN, "%s: %s%s (column %zu)", what,
				rep.error ? "malformed FEN passed unchanged: "
					  : "",
				rep.diag[i].msg, b + rep.diag[i].offset + 1);
	if (rep.nmore > 0)
		fb_proto_report(out, FB_LOG_WARN,
				"%s: %u more castling letters dropped", what,
				rep.nmore);
	return rep.error;
}

int
fb_proto_print_fen(const struct fb_fen *fen, const struct fb_fen_style *style,
		   const char *what, const struct fb_sink *out, char *buf,
		   size_t cap, struct fb_edit *edit)
{
	const char *text = fen->text;
	size_t len = fen->len;
	int n = fb_fen_print(fen, style, buf, cap);

	if (n < 0)
		return n;
	if ((size_t)n == len && memcmp(buf, text, len) == 0)
		return 0;
	edit->off = 0; /* relative to the FEN: the caller places it */
	edit->len = len;
	edit->text = buf;
	edit->tlen = (size_t)n;
	fb_proto_report(out, FB_LOG_DEBUG, "%s: rewrote '%.*s' as '%.*s'", what,
			(int)len, text, n, buf);
	return 1;
}

bool
fb_proto_splice_fen(const struct fb_sink *out, enum fb_dir d, const char *text,
		    size_t len, size_t term, size_t b, size_t e,
		    const struct fb_fen_style *style, bool standard,
		    const char *what, struct fb_fen *fen)
{
	char buf[FEN_MAX];
	struct fb_fen scratch, printed;
	struct fb_edit edit = {0};
	int rc = FB_EINVAL;

	if (fen == NULL)
		fen = &scratch;
	if (fb_proto_parse_fen(text, b, e, what, out, fen) == 0) {
		printed = *fen;
		if (standard && fb_game_drop_nonstandard(&printed.pos) > 0)
			fb_proto_report(out, FB_LOG_INFO,
					"%s: castling rights standard notation "
					"cannot express are not sent to the "
					"engine",
					what);
		rc = fb_proto_print_fen(&printed, style, what, out, buf,
					sizeof buf, &edit);
	}
	if (rc > 0)
		edit.off += b; /* the edit is relative to the FEN */
	fb_proto_emit_edited(out, d, text, len, term, &edit, rc > 0 ? 1 : 0);
	return rc >= 0;
}

int
fb_proto_move(struct fb_game *g, const char *text, size_t start, size_t n,
	      enum fb_castle_notation to, struct fb_edit *edit,
	      char pool[static 8], const struct fb_sink *out, const char *what,
	      enum fb_level level)
{
	struct fb_move m;
	int len;

	edit->len = 0;
	if (fb_game_parse_move(g, text + start, n, &m) < 0)
		return FB_EINVAL;
	if (m.castle >= 0) {
		len = fb_game_print_castle(g, &m, to, pool, 8);
		if (len < 0) {
			fb_proto_report(out, level,
					"%s: castling move '%.*s' cannot be "
					"written in %s notation; passed "
					"unchanged",
					what, (int)n, text + start,
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
