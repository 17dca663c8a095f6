/* SPDX-License-Identifier: MIT */
/*
 * fuzz_codec: the per-side codecs (protocols/uci_codec.c,
 * protocols/cecp_codec.c) on arbitrary lines.
 *
 * Each line of the input (split at LF) is copied to a buffer of its exact
 * size, so ASan sees any read past it, and read by every parser of both
 * protocols, as a GUI line and as an engine line. Properties:
 *  - every span an event holds lies inside the line;
 *  - a UCI option's vars lie inside its var list, in order;
 *  - a position's offsets are ordered and inside the line, and its FEN
 *    span starts and ends on a non-blank;
 *  - fb_cecp_next_feature always advances and ends, each key is non-empty
 *    and free of blanks and '=', each value lies after its key;
 *  - the classification is the same whatever the bytes after the line
 *    (the exact-size copy makes any look past it a crash).
 */
#include <stdbool.h>

#include "cecp_codec.h"
#include "fuzz_common.h"
#include "uci_codec.h"

static void
in_line(struct fb_span s, size_t len)
{
	CHECK(s.off <= len && s.len <= len - s.off);
}

static void
uci_engine(const char *t, size_t len)
{
	size_t start;
	struct fb_uci_id id;
	struct fb_uci_option o;
	struct fb_uci_info in;
	struct fb_uci_bestmove b;

	(void)fb_uci_engine_kind(t, len, &start);
	CHECK(start <= len);
	if (fb_uci_parse_id(t, len, &id) == 0)
		in_line(id.value, len);
	if (fb_uci_parse_option(t, len, &o) == 0) {
		in_line(o.name, len);
		CHECK(o.name.len > 0);
		in_line(o.type_word, len);
		in_line(o.def, len);
		in_line(o.min, len);
		in_line(o.max, len);
		in_line(o.vars, len);
		for (size_t i = 0; i < o.nvars && i < FB_UCI_VARS_MAX; i++) {
			in_line(o.var[i], len);
			CHECK(o.var[i].off >= o.vars.off);
			if (i > 0)
				CHECK(o.var[i].off > o.var[i - 1].off);
		}
	}
	fb_uci_parse_info(t, len, &in);
	for (int i = 0; i < FB_UCI_NMOVES; i++)
		in_line(in.moves[i], len);
	in_line(in.string, len);
	if (fb_uci_parse_bestmove(t, len, &b) == 0) {
		in_line(b.move, len);
		CHECK(b.move.len > 0);
		in_line(b.ponder, len);
	}
}

static void
uci_gui(const char *t, size_t len)
{
	size_t start;
	struct fb_uci_setoption s;
	struct fb_uci_position p;
	struct fb_uci_go g;

	(void)fb_uci_gui_kind(t, len, &start);
	CHECK(start <= len);
	if (fb_uci_parse_setoption(t, len, &s) == 0) {
		in_line(s.name, len);
		in_line(s.value, len);
		CHECK(s.has_value || s.value.len == 0);
	}
	if (fb_uci_parse_position(t, len, &p) == 0) {
		in_line(p.fen, len);
		CHECK(p.base_end <= p.moves && p.moves <= len);
		if (!p.startpos) {
			CHECK(p.fen.len > 0);
			CHECK(!fb_token_blank(t[p.fen.off]));
			CHECK(!fb_token_blank(t[p.fen.off + p.fen.len - 1]));
			CHECK(p.base_end == p.fen.off + p.fen.len);
		}
	}
	fb_uci_parse_go(t, len, &g);
	in_line(g.searchmoves, len);
	CHECK(g.winc >= -1000000000000LL && g.winc <= 1000000000000LL);
}

static void
cecp(const char *t, size_t len)
{
	struct fb_cecp_line l;
	struct fb_cecp_command c;
	struct fb_cecp_feature f;
	size_t pos = 0, last = 0;
	unsigned steps = 0;

	fb_cecp_parse_engine(t, len, &l);
	CHECK(l.start <= len);
	in_line(l.word, len);
	in_line(l.arg, len);
	if (l.kind == FB_CECP_E_THINKING)
		in_line(l.think.pv, len);
	while (fb_cecp_next_feature(t, len, &pos, &f)) {
		CHECK(pos > last && pos <= len);
		last = pos;
		in_line(f.key, len);
		in_line(f.value, len);
		in_line(f.pair, len);
		CHECK(f.key.len > 0);
		CHECK(memchr(t + f.key.off, '=', f.key.len) == NULL);
		CHECK(memchr(t + f.key.off, ' ', f.key.len) == NULL);
		CHECK(f.value.off > f.key.off);
		CHECK(++steps <= len);
	}
	fb_cecp_parse_gui(t, len, &c);
	in_line(c.word, len);
	in_line(c.arg, len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *d = (const char *)data;
	size_t at = 0;

	while (at <= size) {
		const char *nl = memchr(d + at, '\n', size - at);
		size_t n = nl != NULL ? (size_t)(nl - (d + at)) : size - at;
		char *line = malloc(n ? n : 1);

		CHECK(line != NULL);
		memcpy(line, d + at, n);
		uci_engine(line, n);
		uci_gui(line, n);
		cecp(line, n);
		free(line);
		if (nl == NULL)
			break;
		at += n + 1;
	}
	return 0;
}
