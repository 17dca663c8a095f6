/* SPDX-License-Identifier: MIT */
/*
 * --normalize (see normalize.h): each engine line read once by the UCI
 * codec, and the few forms GUIs trip on rewritten as edits of the line, so
 * that every byte not edited stays as it came.
 *
 * No I/O and no allocation in this file.
 */
#include "normalize.h"

#include <string.h>

#include "proto.h"

/* Edits of one line: at most the multipv and the score of an info line. */
#define EDITS_MAX 2

static long long
number(const char *text, struct fb_span s)
{
	long long v = 0;

	if (s.len == 0 || s.len > 9)
		return 0; /* not a count of lines */
	for (size_t i = 0; i < s.len; i++) {
		char c = text[s.off + i];
		if (c < '0' || c > '9')
			return 0;
		v = v * 10 + (c - '0');
	}
	return v;
}

static bool
is_multipv(const char *name, size_t n)
{
	return fb_proto_is_nocase(name, 0, n, "MultiPV");
}

void
fb_normalize_init(struct fb_normalize *n, const struct fb_filter_options *opt)
{
	memset(n, 0, sizeof *n);
	n->on = opt->normalize;
	n->renamed = opt->name != NULL;
	n->multipv = 1; /* an engine without the option shows one line */
	for (size_t i = 0; i < opt->noptions; i++) {
		const struct fb_engine_option *o = &opt->options[i];
		struct fb_span all = {0, o->value ? strlen(o->value) : 0};
		if ((o->flags & FB_OPT_SET) && o->value != NULL &&
		    is_multipv(o->name, strlen(o->name))) {
			n->multipv = number(o->value, all);
			n->multipv_set = true;
		}
	}
}

void
fb_normalize_setoption(struct fb_normalize *n, const char *text,
		       const struct fb_uci_setoption *s)
{
	if (!is_multipv(text + s->name.off, s->name.len) || !s->has_value)
		return;
	n->multipv = number(text, s->value);
	n->multipv_set = true;
}

/* l with the edits (in increasing offset order) applied, into n->line.
 * Returns false when it does not fit: l then stays as it was. */
static bool
apply(struct fb_normalize *n, struct fb_normalize_line *l,
      const struct fb_edit *e, unsigned ne)
{
	size_t at = 0, k = 0, cap = sizeof n->line;

	for (unsigned i = 0; i <= ne; i++) {
		size_t end = i < ne ? e[i].off : l->len + l->term;
		size_t add = i < ne ? e[i].tlen : 0;
		if (end - at > cap - k || add > cap - k - (end - at))
			return false;
		memcpy(n->line + k, l->text + at, end - at);
		k += end - at;
		memcpy(n->line + k, i < ne ? e[i].text : "", add);
		k += add;
		if (i < ne)
			at = e[i].off + e[i].len;
	}
	l->text = n->line;
	l->len = k - l->term;
	return true;
}

static void
rewrite(struct fb_normalize *n, struct fb_normalize_line *l,
	const struct fb_edit *e, unsigned ne, const struct fb_sink *out,
	const char *what)
{
	const char *was = l->text;
	size_t was_len = l->len;

	if (!apply(n, l, e, ne)) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"normalize: line too long to rewrite (%s); "
				"passed as it came",
				what);
		return;
	}
	fb_proto_report(out, FB_LOG_DEBUG,
			"normalize: %s: '%.*s' sent as "
			"'%.*s'",
			what, (int)was_len, was, (int)l->len, l->text);
}

/* A check option's default True / False in lowercase. */
static void
option(struct fb_normalize *n, struct fb_normalize_line *l,
       const struct fb_sink *out)
{
	struct fb_uci_option o;
	struct fb_edit e;
	const char *v;

	if (fb_uci_parse_option(l->text, l->len, &o) < 0)
		return;
	if (o.type != FB_UCI_T_CHECK) {
		if (is_multipv(l->text + o.name.off, o.name.len) &&
		    !n->multipv_set && o.has_default)
			n->multipv = number(l->text, o.def);
		return;
	}
	v = l->text + o.def.off;
	if (fb_proto_is(v, 0, o.def.len, "true") ||
	    fb_proto_is(v, 0, o.def.len, "false"))
		return;
	if (fb_proto_is_nocase(v, 0, o.def.len, "true"))
		e = (struct fb_edit){o.def.off, o.def.len, "true", 4};
	else if (fb_proto_is_nocase(v, 0, o.def.len, "false"))
		e = (struct fb_edit){o.def.off, o.def.len, "false", 5};
	else
		return;
	rewrite(n, l, &e, 1, out, "check default in lowercase");
}

size_t
fb_normalize_name(const char *name, size_t len)
{
	size_t k = FB_NORMALIZE_NAME_MAX;

	if (len <= k)
		return len;
	while (k > 0 && ((unsigned char)name[k] & 0xc0) == 0x80)
		k--; /* name[k] continues a sequence: cut before its lead */
	while (k > 0 && fb_token_blank(name[k - 1]))
		k--;
	return k;
}

static void
id(struct fb_normalize *n, struct fb_normalize_line *l,
   const struct fb_sink *out)
{
	struct fb_uci_id id;
	struct fb_edit e;
	const char *name = l->text;
	size_t k;

	if (fb_uci_parse_id(l->text, l->len, &id) < 0)
		return;
	if (id.author) {
		n->author = true;
		return;
	}
	if (n->renamed || id.value.len <= FB_NORMALIZE_NAME_MAX)
		return;
	name += id.value.off; /* the line's: apply() moves l->text */
	k = fb_normalize_name(name, id.value.len);
	/* The rest of the line goes: it is all name. */
	e = (struct fb_edit){id.value.off + k, l->len - id.value.off - k, "",
			     0};
	if (apply(n, l, &e, 1))
		fb_proto_report(out, FB_LOG_DEBUG,
				"normalize: id name cut to %zu bytes: '%.*s'; "
				"the engine's full name: '%.*s'",
				k, (int)k, name, (int)id.value.len, name);
}

static bool
is_number(const char *text, struct fb_span s)
{
	size_t i = s.len > 1 && (text[s.off] == '-' || text[s.off] == '+');

	return i < s.len && text[s.off + i] >= '0' && text[s.off + i] <= '9';
}

/* `score N` -> `score cp N`; `multipv 1` into a single-line engine's
 * info lines that show a line (start: where `info` begins). */
static void
info(struct fb_normalize *n, struct fb_normalize_line *l, size_t start,
     const struct fb_sink *out)
{
	struct fb_uci_info in;
	struct fb_edit e[EDITS_MAX];
	unsigned ne = 0;

	fb_uci_parse_info(l->text, l->len, &in);
	if (n->multipv == 1 && !(in.have & FB_INFO_MULTIPV) &&
	    (in.have & (FB_INFO_SCORE | FB_INFO_PV)))
		e[ne++] = (struct fb_edit){start + 4, 0, " multipv 1", 10};
	if ((in.have & FB_INFO_SCORE) && is_number(l->text, in.score_word))
		e[ne++] = (struct fb_edit){in.score_word.off, 0, "cp ", 3};
	if (ne > 0)
		rewrite(n, l, e, ne, out,
			ne == 2          ? "multipv 1 and score cp added"
			: e[0].tlen == 3 ? "score cp added"
					 : "multipv 1 added");
}

bool
fb_normalize_engine_line(struct fb_normalize *n, struct fb_normalize_line *l,
			 const struct fb_sink *out)
{
	size_t start;

	switch (fb_uci_engine_kind(l->text, l->len, &start)) {
	case FB_UCI_E_INFO:
		info(n, l, start, out);
		break;
	case FB_UCI_E_OPTION:
		option(n, l, out);
		break;
	case FB_UCI_E_ID:
		id(n, l, out);
		break;
	case FB_UCI_E_UCIOK:
		if (!n->author) {
			fb_proto_gui(out, "id author unknown");
			fb_proto_report(out, FB_LOG_DEBUG,
					"normalize: the engine sent no id "
					"author: sent id author unknown");
		}
		n->author = false; /* a later handshake says it again */
		n->listed = true;
		break;
	case FB_UCI_E_OTHER:
		if (start == l->len && !n->listed) {
			fb_proto_report(out, FB_LOG_DEBUG,
					"normalize: a blank line in the "
					"handshake dropped");
			return false;
		}
		break;
	default:
		break;
	}
	return true;
}
