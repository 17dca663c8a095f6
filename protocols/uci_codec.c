/* SPDX-License-Identifier: MIT */
/*
 * The UCI codec (see uci_codec.h): UCI spec of April 2006, "Engine to GUI"
 * (id, uciok, readyok, bestmove, info, option) and "GUI to engine" (uci,
 * debug, isready, setoption, register, ucinewgame, position, go, stop,
 * ponderhit, quit). Unknown tokens are skipped, as the spec asks.
 *
 * No I/O and no allocation in this file.
 */
#include "uci_codec.h"

#include <stdint.h>
#include <string.h>

#define INFO_MAX 1000000000000000LL
#define GO_MAX 1000000000000LL

int
fb_uci_parse_id(const char *text, size_t len, struct fb_uci_id *id)
{
	size_t pos = 0, start, n;

	memset(id, 0, sizeof *id);
	fb_proto_token(text, len, &pos, &start); /* id */
	n = fb_proto_token(text, len, &pos, &start);
	id->name = fb_proto_is(text, start, n, "name");
	id->author = fb_proto_is(text, start, n, "author");
	if (!id->name && !id->author)
		return -1;
	id->value = fb_span_rest(text, len, pos);
	return 0;
}

static bool
option_key(const char *text, size_t start, size_t n)
{
	return fb_proto_is(text, start, n, "type") ||
	       fb_proto_is(text, start, n, "default") ||
	       fb_proto_is(text, start, n, "min") ||
	       fb_proto_is(text, start, n, "max") ||
	       fb_proto_is(text, start, n, "var");
}

/* The value after a keyword: its words up to the next keyword; *pos moves
 * there. */
static struct fb_span
option_value(const char *text, size_t len, size_t *pos)
{
	size_t p = *pos, start, n;
	struct fb_span v = {*pos, 0};
	bool any = false;

	while ((n = fb_proto_token(text, len, &p, &start)) > 0 &&
	       !option_key(text, start, n)) {
		if (!any)
			v.off = start;
		any = true;
		v.len = start + n - v.off;
		*pos = p;
	}
	return v; /* empty: at the end of the keyword */
}

static enum fb_uci_type
option_type(const char *text, struct fb_span t)
{
	if (fb_span_is(text, t, "check"))
		return FB_UCI_T_CHECK;
	if (fb_span_is(text, t, "spin"))
		return FB_UCI_T_SPIN;
	if (fb_span_is(text, t, "combo"))
		return FB_UCI_T_COMBO;
	if (fb_span_is(text, t, "button"))
		return FB_UCI_T_BUTTON;
	if (fb_span_is(text, t, "string"))
		return FB_UCI_T_STRING;
	return FB_UCI_T_UNKNOWN;
}

int
fb_uci_parse_option(const char *text, size_t len, struct fb_uci_option *o)
{
	size_t pos = 0, start, n;
	bool typed = false;

	memset(o, 0, sizeof *o);
	fb_proto_token(text, len, &pos, &start); /* option */
	n = fb_proto_token(text, len, &pos, &start);
	if (!fb_proto_is(text, start, n, "name"))
		return -1;
	while ((n = fb_proto_token(text, len, &pos, &start)) > 0 &&
	       !fb_proto_is(text, start, n, "type")) {
		if (o->name.len == 0)
			o->name.off = start;
		o->name.len = start + n - o->name.off;
	}
	if (o->name.len == 0 || n == 0)
		return -1;
	pos = start;
	while ((n = fb_proto_token(text, len, &pos, &start)) > 0) {
		struct fb_span v = option_value(text, len, &pos);
		if (fb_proto_is(text, start, n, "type")) {
			o->type_word = v;
			o->type = option_type(text, v);
			typed = true;
		} else if (fb_proto_is(text, start, n, "default")) {
			o->def = v;
			o->has_default = true;
		} else if (fb_proto_is(text, start, n, "min")) {
			o->min = v;
		} else if (fb_proto_is(text, start, n, "max")) {
			o->max = v;
		} else if (fb_proto_is(text, start, n, "var")) {
			if (o->nvars == 0)
				o->vars = fb_span_rest(text, len, start);
			if (o->nvars < FB_UCI_VARS_MAX)
				o->var[o->nvars] = v;
			o->nvars++;
		}
	}
	return typed ? 0 : -1;
}

bool
fb_uci_option_next_var(const char *text, size_t len, size_t *pos,
		       struct fb_span *v)
{
	size_t start, n;

	while ((n = fb_proto_token(text, len, pos, &start)) > 0)
		if (fb_proto_is(text, start, n, "var")) {
			*v = option_value(text, len, pos);
			return true;
		}
	return false;
}

/* A decimal with an optional sign at text[start..start+n): digits up to the
 * first other byte; clamped. */
static long long
number(const char *text, size_t start, size_t n, long long max)
{
	long long v = 0;
	bool neg = n > 0 && text[start] == '-';

	for (size_t i = neg || (n > 0 && text[start] == '+'); i < n; i++) {
		char c = text[start + i];
		if (c < '0' || c > '9')
			break;
		if (v > max / 10) {
			v = max;
			break;
		}
		v = v * 10 + (c - '0');
	}
	if (v > max)
		v = max;
	return neg ? -v : v;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR 1
#define ONES 0x0101010101010101u
#define HIGH (ONES * 0x80)
#endif

/* The keywords of UCI `info` (the spec's list, and wdl). */
static bool
info_key(const char *text, size_t start, size_t n)
{
	switch (text[start]) {
	case 'c':
		return fb_proto_is(text, start, n, "cpuload") ||
		       fb_proto_is(text, start, n, "currmove") ||
		       fb_proto_is(text, start, n, "currmovenumber") ||
		       fb_proto_is(text, start, n, "currline");
	case 'd':
		return fb_proto_is(text, start, n, "depth");
	case 'h':
		return fb_proto_is(text, start, n, "hashfull");
	case 'm':
		return fb_proto_is(text, start, n, "multipv");
	case 'n':
		return fb_proto_is(text, start, n, "nodes") ||
		       fb_proto_is(text, start, n, "nps");
	case 'p':
		return fb_proto_is(text, start, n, "pv");
	case 'r':
		return fb_proto_is(text, start, n, "refutation");
	case 's':
		return fb_proto_is(text, start, n, "score") ||
		       fb_proto_is(text, start, n, "seldepth") ||
		       fb_proto_is(text, start, n, "sbhits") ||
		       fb_proto_is(text, start, n, "string");
	case 't':
		return fb_proto_is(text, start, n, "time") ||
		       fb_proto_is(text, start, n, "tbhits");
	case 'w':
		return fb_proto_is(text, start, n, "wdl");
	}
	return false;
}

/* number() of the next token, read as it is scanned: a value after a
 * keyword of info; *pos moves past the token. */
static long long
info_number(const char *text, size_t len, size_t *pos, unsigned *bad)
{
	size_t i = *pos, digits;
	long long v = 0;
	bool neg;

	while (i < len && fb_token_blank(text[i]))
		i++;
	neg = i < len && text[i] == '-';
	if (i < len && (text[i] == '-' || text[i] == '+'))
		i++;
	digits = i;
	for (; i < len; i++) {
		unsigned d = (unsigned)(unsigned char)text[i] - '0';
		if (d > 9)
			break;
		if (v > INFO_MAX / 10) {
			v = INFO_MAX;
			break;
		}
		v = v * 10 + (long long)d;
	}
	/* No digit, or a token that goes on with other bytes (1.5, 10k):
	 * not the integer the spec asks for. */
	if (i == digits || (i < len && !fb_token_blank(text[i]) &&
			    (unsigned)(unsigned char)text[i] - '0' > 9))
		*bad |= FB_INFO_BAD_NUMBER;
	if (v > INFO_MAX)
		v = INFO_MAX;
	while (i < len && !fb_token_blank(text[i]))
		i++; /* the rest of the token */
	*pos = i;
	return neg ? -v : v;
}

static bool
is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

/*
 * True when two lowercase letters follow each other in text[i..e): every
 * keyword of info starts so, no move does (e2e4, e7e8q, 0000, (none)), so
 * without such a pair the moves run to the end of the line. Eight bytes
 * at a time where the line has them (a byte between 'a' - 1 and 'z' + 1
 * exclusive, exactly: the low seven bits are added without carries).
 */
static bool
lower_pair(const char *text, size_t i, size_t e)
{
#ifdef SWAR
	while (e - i >= 8) {
		uint64_t w, x, lower;
		memcpy(&w, text + i, 8);
		x = w & (ONES * 0x7f);
		lower = (ONES * (127 + 'z' + 1) - x) & ~w &
			(x + ONES * (127 - ('a' - 1))) & HIGH;
		if (lower & (lower >> 8))
			return true;
		i += 7; /* the last byte pairs with the next word's first */
	}
#endif
	for (; e - i >= 2; i++)
		if (is_lower(text[i]) && is_lower(text[i + 1]))
			return true;
	return false;
}

/* The tokens from *pos up to the next keyword; *pos moves to that
 * keyword. */
static struct fb_span
info_moves(const char *text, size_t len, size_t *pos)
{
	size_t p = *pos, start, n;
	struct fb_span s = {*pos, 0};
	bool any = false;

	if (!lower_pair(text, *pos, len)) {
		/* no keyword follows: the rest of the line (the pv is
		 * usually last, and long) */
		struct fb_span r = fb_span_rest(text, len, *pos);
		if (r.len == 0)
			return s;
		*pos = r.off + r.len;
		return r;
	}
	while ((n = fb_token_next(text, len, &p, &start)) > 0 &&
	       !info_key(text, start, n)) {
		if (!any)
			s.off = start;
		any = true;
		s.len = start + n - s.off;
		*pos = p;
	}
	return s;
}

void
fb_uci_parse_info(const char *text, size_t len, struct fb_uci_info *in)
{
	size_t pos = 0, start, n, s2, k;

	memset(in, 0, sizeof *in);
	fb_token_next(text, len, &pos, &start); /* info */
	while ((n = fb_token_next(text, len, &pos, &start)) > 0) {
		int which = -1;
		switch (text[start]) {
		case 'd':
			if (fb_proto_is(text, start, n, "depth")) {
				in->depth =
					info_number(text, len, &pos, &in->bad);
				in->have |= FB_INFO_DEPTH;
			}
			continue;
		case 's':
			if (fb_proto_is(text, start, n, "score")) {
				k = fb_token_next(text, len, &pos, &s2);
				in->mate = fb_proto_is(text, s2, k, "mate");
				in->score_word = (struct fb_span){s2, k};
				if (!in->mate &&
				    !fb_proto_is(text, s2, k, "cp"))
					in->bad |= FB_INFO_BAD_SCORE;
				in->score =
					info_number(text, len, &pos, &in->bad);
				in->have |= FB_INFO_SCORE;
			} else if (fb_proto_is(text, start, n, "string")) {
				in->string = fb_span_rest(text, len, pos);
				in->have |= FB_INFO_STRING;
				return; /* free text to the end of the line */
			}
			continue;
		case 't':
			if (fb_proto_is(text, start, n, "time")) {
				in->time =
					info_number(text, len, &pos, &in->bad);
				in->have |= FB_INFO_TIME;
			}
			continue;
		case 'n':
			if (fb_proto_is(text, start, n, "nodes")) {
				in->nodes =
					info_number(text, len, &pos, &in->bad);
				in->have |= FB_INFO_NODES;
			}
			continue;
		case 'm':
			if (fb_proto_is(text, start, n, "multipv"))
				in->have |= FB_INFO_MULTIPV;
			continue;
		case 'p':
			if (fb_proto_is(text, start, n, "pv")) {
				which = FB_UCI_PV;
				in->have |= FB_INFO_PV;
			}
			break;
		case 'r':
			if (fb_proto_is(text, start, n, "refutation"))
				which = FB_UCI_REFUTATION;
			break;
		case 'c':
			if (fb_proto_is(text, start, n, "currmove")) {
				which = FB_UCI_CURRMOVE;
			} else if (fb_proto_is(text, start, n, "currline")) {
				size_t p2 = pos;
				k = fb_token_next(text, len, &p2, &s2);
				if (k > 0 && text[s2] >= '0' && text[s2] <= '9')
					pos = p2; /* the optional cpunr */
				which = FB_UCI_CURRLINE;
			}
			break;
		}
		if (which >= 0)
			in->moves[which] = info_moves(text, len, &pos);
	}
}

int
fb_uci_parse_bestmove(const char *text, size_t len, struct fb_uci_bestmove *b)
{
	size_t pos = 0, start, n;

	memset(b, 0, sizeof *b);
	fb_proto_token(text, len, &pos, &start); /* bestmove */
	n = fb_proto_token(text, len, &pos, &start);
	if (n == 0)
		return -1;
	b->move = (struct fb_span){start, n};
	n = fb_proto_token(text, len, &pos, &start);
	if (fb_proto_is(text, start, n, "ponder")) {
		n = fb_proto_token(text, len, &pos, &start);
		b->ponder = (struct fb_span){start, n};
	}
	return 0;
}

enum fb_uci_gui
fb_uci_gui_kind(const char *text, size_t len, size_t *start)
{
	size_t i = 0;

	while (i < len && fb_token_blank(text[i]))
		i++;
	*start = i;
	if (i == len)
		return FB_UCI_G_OTHER;
	switch (text[i]) {
	case 'u':
		if (fb_uci_first_is(text, len, i, "uci"))
			return FB_UCI_G_UCI;
		if (fb_uci_first_is(text, len, i, "ucinewgame"))
			return FB_UCI_G_UCINEWGAME;
		break;
	case 'd':
		if (fb_uci_first_is(text, len, i, "debug"))
			return FB_UCI_G_DEBUG;
		break;
	case 'i':
		if (fb_uci_first_is(text, len, i, "isready"))
			return FB_UCI_G_ISREADY;
		break;
	case 's':
		if (fb_uci_first_is(text, len, i, "setoption"))
			return FB_UCI_G_SETOPTION;
		if (fb_uci_first_is(text, len, i, "stop"))
			return FB_UCI_G_STOP;
		break;
	case 'r':
		if (fb_uci_first_is(text, len, i, "register"))
			return FB_UCI_G_REGISTER;
		break;
	case 'p':
		if (fb_uci_first_is(text, len, i, "position"))
			return FB_UCI_G_POSITION;
		if (fb_uci_first_is(text, len, i, "ponderhit"))
			return FB_UCI_G_PONDERHIT;
		break;
	case 'g':
		if (fb_uci_first_is(text, len, i, "go"))
			return FB_UCI_G_GO;
		break;
	case 'q':
		if (fb_uci_first_is(text, len, i, "quit"))
			return FB_UCI_G_QUIT;
		break;
	}
	return FB_UCI_G_OTHER;
}

int
fb_uci_parse_setoption(const char *text, size_t len, struct fb_uci_setoption *s)
{
	size_t pos = 0, start, n;

	memset(s, 0, sizeof *s);
	fb_proto_token(text, len, &pos, &start); /* setoption */
	n = fb_proto_token(text, len, &pos, &start);
	if (!fb_proto_is(text, start, n, "name"))
		return -1;
	while ((n = fb_proto_token(text, len, &pos, &start)) > 0) {
		if (fb_proto_is(text, start, n, "value")) {
			s->has_value = true;
			s->value = fb_span_rest(text, len, pos);
			break;
		}
		if (s->name.len == 0)
			s->name.off = start;
		s->name.len = start + n - s->name.off;
	}
	return s->name.len > 0 ? 0 : -1;
}

int
fb_uci_parse_position(const char *text, size_t len, struct fb_uci_position *p)
{
	size_t pos = 0, start, n;

	memset(p, 0, sizeof *p);
	fb_token_next(text, len, &pos, &start); /* position */
	n = fb_token_next(text, len, &pos, &start);
	if (fb_proto_is(text, start, n, "startpos")) {
		p->startpos = true;
		p->base_end = pos;
	} else if (fb_proto_is(text, start, n, "fen")) {
		/* The FEN runs to the token `moves`: a FEN holds no 'm' but
		 * in an X-FEN prefix, so the first 'm' after it is nearly
		 * always that token, found without splitting the FEN. */
		size_t end = len, at = pos;
		const char *m;
		p->fen_keyword = true;
		while (at < len &&
		       (m = memchr(text + at, 'm', len - at)) != NULL) {
			at = (size_t)(m - text);
			if (fb_token_blank(text[at - 1]) &&
			    fb_uci_first_is(text, len, at, "moves")) {
				end = at;
				p->has_moves = true;
				break;
			}
			at++;
		}
		p->fen = fb_span_rest(text, end, pos);
		if (p->fen.len == 0)
			return -1;
		p->base_end = p->fen.off + p->fen.len;
		p->moves = p->has_moves ? end + 5 : p->base_end;
		return 0;
	} else {
		return -1;
	}
	n = fb_token_next(text, len, &pos, &start);
	p->has_moves = fb_proto_is(text, start, n, "moves");
	p->moves = p->has_moves ? pos : p->base_end;
	return 0;
}

static bool
go_key(const char *text, size_t start, size_t n)
{
	static const char *const keys[] = {
		"searchmoves", "ponder", "wtime",     "btime",
		"winc",        "binc",   "movestogo", "depth",
		"nodes",       "mate",   "movetime",  "infinite"};

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (fb_proto_is(text, start, n, keys[i]))
			return true;
	return false;
}

void
fb_uci_parse_go(const char *text, size_t len, struct fb_uci_go *g)
{
	static const char *const keys[] = {"wtime", "btime",     "winc",
					   "binc",  "movestogo", "movetime",
					   "depth", "nodes",     "mate"};
	long long *vals[] = {&g->wtime, &g->btime,     &g->winc,
			     &g->binc,  &g->movestogo, &g->movetime,
			     &g->depth, &g->nodes,     &g->mate};
	struct fb_span *spans[] = {&g->wtime_value,
				   &g->btime_value,
				   NULL,
				   NULL,
				   NULL,
				   &g->movetime_value,
				   NULL,
				   NULL,
				   NULL};
	size_t pos = 0, start, n;

	memset(g, 0, sizeof *g);
	g->wtime = g->btime = g->movetime = g->depth = g->nodes = g->mate = -1;
	fb_proto_token(text, len, &pos, &start); /* go */
	while ((n = fb_proto_token(text, len, &pos, &start)) > 0) {
		if (fb_proto_is(text, start, n, "infinite")) {
			g->infinite = true;
			continue;
		}
		if (fb_proto_is(text, start, n, "ponder")) {
			g->ponder = true;
			g->ponder_word = (struct fb_span){start, n};
			continue;
		}
		if (fb_proto_is(text, start, n, "searchmoves")) {
			size_t p = pos, s2, k;
			g->searchmoves = (struct fb_span){pos, 0};
			while ((k = fb_proto_token(text, len, &p, &s2)) > 0 &&
			       !go_key(text, s2, k)) {
				if (g->searchmoves.len == 0)
					g->searchmoves.off = s2;
				g->searchmoves.len = s2 + k -
						     g->searchmoves.off;
				pos = p;
			}
			continue;
		}
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
			size_t p2 = pos, s2, k;
			if (!fb_proto_is(text, start, n, keys[i]))
				continue;
			k = fb_proto_token(text, len, &p2, &s2);
			if (k > 0 && ((text[s2] >= '0' && text[s2] <= '9') ||
				      text[s2] == '-' || text[s2] == '+')) {
				*vals[i] = number(text, s2, k, GO_MAX);
				if (spans[i] != NULL)
					*spans[i] = (struct fb_span){s2, k};
				pos = p2;
			}
			break;
		}
	}
}
