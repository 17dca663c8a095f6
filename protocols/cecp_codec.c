/* SPDX-License-Identifier: MIT */
/*
 * The CECP codec (see cecp_codec.h). The engine forms come from the CECP
 * spec (sections "Commands from the engine to xboard" and "Thinking
 * Output") and from what Debian's engines write (GNU Chess 6's prompt and
 * double announcement, Fairy-Max, Sjaak II, Fairy-Stockfish).
 *
 * No I/O and no allocation in this file.
 */
#include "cecp_codec.h"

#include <string.h>

#define NUMBER_MAX 1000000000000LL

static bool
starts(const char *text, size_t len, size_t at, const char *word)
{
	size_t k = strlen(word);

	return len - at >= k && memcmp(text + at, word, k) == 0;
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* GNU Chess writes its prompt before lines: `White (1) : `, `Black (12) : `.
 * Returns where the line proper starts (at when there is no prompt). */
static size_t
skip_prompt(const char *text, size_t len, size_t at)
{
	size_t i = at;

	if (starts(text, len, i, "White (") || starts(text, len, i, "Black ("))
		i += 7;
	else
		return at;
	if (i == len || !is_digit(text[i]))
		return at;
	while (i < len && is_digit(text[i]))
		i++;
	if (!starts(text, len, i, ") :"))
		return at;
	i += 3;
	while (i < len && fb_token_blank(text[i]))
		i++;
	return i;
}

/* A number with an optional sign and trailing '.' or '&' (some engines
 * mark fail high/low so). */
static bool
read_number(const char *text, size_t start, size_t n, long long *v)
{
	size_t i = 0;
	bool neg = false;

	while (n > 0 &&
	       (text[start + n - 1] == '.' || text[start + n - 1] == '&'))
		n--;
	if (n > 0 && (text[start] == '-' || text[start] == '+')) {
		neg = text[start] == '-';
		i = 1;
	}
	if (i == n)
		return false;
	*v = 0;
	for (; i < n; i++) {
		if (!is_digit(text[start + i]))
			return false;
		if (*v < NUMBER_MAX)
			*v = *v * 10 + (text[start + i] - '0');
	}
	if (*v > NUMBER_MAX)
		*v = NUMBER_MAX;
	if (neg)
		*v = -*v;
	return true;
}

static int
thinking_at(const char *text, size_t len, size_t pos,
	    struct fb_cecp_thinking *t)
{
	long long f[4];
	size_t start, n, tab;

	for (int i = 0; i < 4; i++) {
		n = fb_proto_token(text, len, &pos, &start);
		if (!read_number(text, start, n, &f[i]))
			return -1;
	}
	/* Newer engines add selective depth, speed, tbhits after a tab. */
	for (tab = pos; tab < len && text[tab] != '\t'; tab++)
		;
	if (tab < len) {
		size_t p2 = pos, s2;
		long long extra;
		while (p2 < tab &&
		       (n = fb_proto_token(text, tab, &p2, &s2)) > 0 &&
		       read_number(text, s2, n, &extra))
			;
		if (p2 >= tab)
			pos = tab;
	}
	t->ply = f[0];
	t->score = f[1];
	t->time_cs = f[2];
	t->nodes = f[3];
	t->pv = fb_span_rest(text, len, pos);
	return 0;
}

int
fb_cecp_parse_thinking(const char *text, size_t len, struct fb_cecp_thinking *t)
{
	return thinking_at(text, len, 0, t);
}

/* The last word of text[0..len), after a blank or a colon: what an Error
 * line rejects (`Error (unknown command): post`). */
static struct fb_span
last_word(const char *text, size_t len)
{
	size_t e = len, b;

	while (e > 0 && fb_token_blank(text[e - 1]))
		e--;
	b = e;
	while (b > 0 && !fb_token_blank(text[b - 1]) && text[b - 1] != ':')
		b--;
	return (struct fb_span){b, e - b};
}

/* What follows the last ':' of text[from..len), blanks trimmed; len 0
 * when there is no ':'. */
static struct fb_span
after_colon(const char *text, size_t len, size_t from)
{
	size_t c = len;

	while (c > from && text[c - 1] != ':')
		c--;
	if (c == from)
		return (struct fb_span){0, 0};
	return fb_span_rest(text, len, c);
}

bool
fb_cecp_rejects(const char *text, const struct fb_cecp_line *l,
		const char *word)
{
	struct fb_span r = l->rejected, w = fb_span_first(text, r);
	size_t end = r.off + r.len;

	if (l->kind != FB_CECP_E_ERROR && l->kind != FB_CECP_E_ILLEGAL &&
	    l->kind != FB_CECP_E_INVALID)
		return false;
	if (fb_span_is(text, w, "usermove"))
		w = fb_span_first(text, (struct fb_span){w.off + w.len,
							 end - w.off - w.len});
	return w.len > 0 && fb_span_is(text, w, word);
}

bool
fb_cecp_parse_number(const char *text, struct fb_span s, long long *v)
{
	return read_number(text, s.off, s.len, v);
}

static const char *const tells[] = {
	"telluser", "tellusererror", "tellopponent",   "tellothers",
	"tellall",  "tellics",       "tellicsnoalias", "askuser",
};

/* A line that starts with one of the engine's words (feature, move, My move
 * is, pong, resign, offer, setup, the tells, the error lines): read into l,
 * true. False for any other line. */
static bool
parse_word(const char *text, size_t len, struct fb_cecp_line *l, size_t start,
	   size_t n, size_t pos)
{
	if (fb_proto_is(text, start, n, "feature")) {
		l->kind = FB_CECP_E_FEATURE;
		l->arg = fb_span_rest(text, len, pos);
		return true;
	}
	if (fb_proto_is(text, start, n, "move")) {
		n = fb_proto_token(text, len, &pos, &start);
		l->kind = FB_CECP_E_MOVE;
		l->form = FB_CECP_MOVE_CMD;
		l->arg = (struct fb_span){start, n};
		return true;
	}
	if (starts(text, len, start, "My move is")) {
		pos = start + 10;
		while (pos < len &&
		       (text[pos] == ':' || fb_token_blank(text[pos])))
			pos++;
		n = fb_proto_token(text, len, &pos, &start);
		l->kind = FB_CECP_E_MOVE;
		l->form = FB_CECP_MOVE_MYMOVE;
		l->arg = (struct fb_span){start, n};
		return true;
	}
	if (fb_proto_is(text, start, n, "pong")) {
		n = fb_proto_token(text, len, &pos, &start);
		l->kind = FB_CECP_E_PONG;
		l->arg = (struct fb_span){start, n};
		return true;
	}
	if (fb_proto_is(text, start, n, "resign")) {
		l->kind = FB_CECP_E_RESIGN;
		return true;
	}
	if (fb_proto_is(text, start, n, "offer")) {
		l->kind = FB_CECP_E_DRAW;
		return true;
	}
	if (fb_proto_is(text, start, n, "setup")) {
		/* Skip the optional (PIECES) and WxH+S_PARENT tokens: the FEN
		 * is the first token holding a '/' (its board). */
		while ((n = fb_proto_token(text, len, &pos, &start)) > 0 &&
		       memchr(text + start, '/', n) == NULL)
			;
		if (n > 0) {
			l->kind = FB_CECP_E_SETUP;
			l->arg = fb_span_rest(text, len, start);
		}
		return true;
	}
	for (size_t i = 0; i < sizeof tells / sizeof tells[0]; i++)
		if (fb_proto_is(text, start, n, tells[i])) {
			l->kind = FB_CECP_E_TELL;
			l->tellusererror = i == 1;
			l->arg = fb_span_rest(text, len, pos);
			return true;
		}
	if (starts(text, len, start, "Error")) {
		l->kind = FB_CECP_E_ERROR;
	} else if (starts(text, len, start, "Illegal move")) {
		l->kind = FB_CECP_E_ILLEGAL;
	} else if (starts(text, len, start, "Invalid move")) {
		l->kind = FB_CECP_E_INVALID;
	}
	if (l->kind != FB_CECP_E_OTHER) {
		l->arg = last_word(text, len);
		l->rejected = after_colon(text, len, start);
		return true;
	}
	return false;
}

/* A line that starts with a number or a sign: a result, `N. ... M`, or
 * thinking output (read only when thinking). */
static void
parse_numeric(const char *text, size_t len, struct fb_cecp_line *l,
	      size_t start, size_t n, size_t pos, bool thinking)
{
	size_t p2, s2;
	long long num;

	if (fb_proto_is(text, start, n, "1-0") ||
	    fb_proto_is(text, start, n, "0-1") ||
	    fb_proto_is(text, start, n, "1/2-1/2")) {
		l->kind = FB_CECP_E_RESULT;
		l->arg = fb_span_rest(text, len, start);
		return;
	}
	/* "N. ... M" (also "N ... M"), before thinking: its second token is
	 * no number. */
	p2 = pos;
	if (fb_proto_token(text, len, &p2, &s2) == 3 &&
	    memcmp(text + s2, "...", 3) == 0 &&
	    read_number(text, start, n, &num)) {
		n = fb_proto_token(text, len, &p2, &start);
		if (n > 0) {
			l->kind = FB_CECP_E_MOVE;
			l->form = FB_CECP_MOVE_OLD;
			l->arg = (struct fb_span){start, n};
			return;
		}
	}
	if (thinking && thinking_at(text, len, l->start, &l->think) == 0)
		l->kind = FB_CECP_E_THINKING;
}

/* fb_cecp_parse_engine; without thinking, thinking output is not read. */
static void
parse_engine(const char *text, size_t len, struct fb_cecp_line *l,
	     bool thinking)
{
	size_t pos, start, n, p2;

	memset(l, 0, sizeof *l);
	pos = 0;
	while (pos < len && fb_token_blank(text[pos]))
		pos++;
	/* A prompt for each line GNU Chess read before it wrote this one (a
	 * nudge's empty line gets one too). */
	while ((p2 = skip_prompt(text, len, pos)) != pos) {
		l->prompt = true;
		pos = p2;
	}
	l->start = pos;
	n = fb_proto_token(text, len, &pos, &start);
	l->word = (struct fb_span){start, n};
	if (n == 0)
		return;
	/* Results, `N. ... M` and thinking output start with a digit or a
	 * sign, no word does: they skip the words (thinking output comes by
	 * the thousand). */
	if (!is_digit(text[start]) && text[start] != '-' &&
	    text[start] != '+' && parse_word(text, len, l, start, n, pos))
		return;
	parse_numeric(text, len, l, start, n, pos, thinking);
}

void
fb_cecp_parse_engine(const char *text, size_t len, struct fb_cecp_line *l)
{
	parse_engine(text, len, l, true);
}

void
fb_cecp_parse_engine_command(const char *text, size_t len,
			     struct fb_cecp_line *l)
{
	parse_engine(text, len, l, false);
}

bool
fb_cecp_next_feature(const char *text, size_t len, size_t *pos,
		     struct fb_cecp_feature *f)
{
	size_t i = *pos;

	if (i == 0) {
		size_t start;
		fb_proto_token(text, len, &i, &start); /* feature */
	}
	while (i < len) {
		size_t key;
		while (i < len && fb_token_blank(text[i]))
			i++;
		key = i;
		while (i < len && text[i] != '=' && !fb_token_blank(text[i]))
			i++;
		if (i >= len || text[i] != '=')
			continue;
		f->key = (struct fb_span){key, i - key};
		f->quoted = false;
		f->value.off = ++i;
		if (i < len && text[i] == '"') {
			f->quoted = true;
			f->value.off = ++i;
			while (i < len && text[i] != '"')
				i++;
			f->value.len = i - f->value.off;
			if (i < len)
				i++;
		} else {
			while (i < len && !fb_token_blank(text[i]))
				i++;
			f->value.len = i - f->value.off;
		}
		f->pair = (struct fb_span){key, i - key};
		if (f->key.len == 0)
			continue; /* "=4": no key, nothing to answer */
		*pos = i;
		return true;
	}
	*pos = len;
	return false;
}

bool
fb_cecp_parse_option_feature(const char *text, struct fb_span v,
			     struct fb_cecp_option_feature *o)
{
	size_t end = v.off + v.len, i = v.off, t;

	while (i < end &&
	       !(text[i] == ' ' && i + 1 < end && text[i + 1] == '-'))
		i++;
	o->name = (struct fb_span){v.off, i - v.off};
	if (i == end) {
		o->type = o->args = (struct fb_span){end, 0};
		return false;
	}
	t = i + 2;
	for (i = t; i < end && !fb_token_blank(text[i]); i++)
		;
	o->type = (struct fb_span){t, i - t};
	while (i < end && fb_token_blank(text[i]))
		i++;
	o->args = (struct fb_span){i, end - i};
	return true;
}

bool
fb_cecp_feature_flag(const char *text, const struct fb_cecp_feature *f,
		     bool *valid)
{
	bool one = f->value.len == 1 && text[f->value.off] == '1';
	bool zero = f->value.len == 1 && text[f->value.off] == '0';

	if (valid != NULL)
		*valid = one || zero;
	return one;
}

/* The GUI's commands by name, in strcmp order (gui_word searches it). */
static const struct {
	const char *word;
	enum fb_cecp_gui cmd;
} gui_words[] = {
	{".", FB_CECP_G_DOT},
	{"?", FB_CECP_G_MOVENOW},
	{"accepted", FB_CECP_G_ACCEPTED},
	{"analyze", FB_CECP_G_ANALYZE},
	{"bk", FB_CECP_G_BK},
	{"black", FB_CECP_G_BLACK},
	{"computer", FB_CECP_G_COMPUTER},
	{"cores", FB_CECP_G_CORES},
	{"draw", FB_CECP_G_DRAW},
	{"easy", FB_CECP_G_EASY},
	{"edit", FB_CECP_G_EDIT},
	{"egtpath", FB_CECP_G_EGTPATH},
	{"exit", FB_CECP_G_EXIT},
	{"force", FB_CECP_G_FORCE},
	{"go", FB_CECP_G_GO},
	{"hard", FB_CECP_G_HARD},
	{"hint", FB_CECP_G_HINT},
	{"ics", FB_CECP_G_ICS},
	{"level", FB_CECP_G_LEVEL},
	{"memory", FB_CECP_G_MEMORY},
	{"name", FB_CECP_G_NAME},
	{"new", FB_CECP_G_NEW},
	{"nopost", FB_CECP_G_NOPOST},
	{"nps", FB_CECP_G_NPS},
	{"option", FB_CECP_G_OPTION},
	{"otim", FB_CECP_G_OTIM},
	{"pause", FB_CECP_G_PAUSE},
	{"ping", FB_CECP_G_PING},
	{"playother", FB_CECP_G_PLAYOTHER},
	{"post", FB_CECP_G_POST},
	{"protover", FB_CECP_G_PROTOVER},
	{"quit", FB_CECP_G_QUIT},
	{"random", FB_CECP_G_RANDOM},
	{"rating", FB_CECP_G_RATING},
	{"rejected", FB_CECP_G_REJECTED},
	{"remove", FB_CECP_G_REMOVE},
	{"result", FB_CECP_G_RESULT},
	{"resume", FB_CECP_G_RESUME},
	{"sd", FB_CECP_G_SD},
	{"setboard", FB_CECP_G_SETBOARD},
	{"st", FB_CECP_G_ST},
	{"time", FB_CECP_G_TIME},
	{"undo", FB_CECP_G_UNDO},
	{"usermove", FB_CECP_G_USERMOVE},
	{"variant", FB_CECP_G_VARIANT},
	{"white", FB_CECP_G_WHITE},
	{"xboard", FB_CECP_G_XBOARD},
};

/* The command a GUI line's first token w[0..n) names. */
static enum fb_cecp_gui
gui_word(const char *w, size_t n)
{
	size_t lo = 0, hi = sizeof gui_words / sizeof gui_words[0];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *k = gui_words[mid].word;
		size_t kn = strlen(k);
		int c = memcmp(k, w, kn < n ? kn : n);

		if (c == 0)
			c = kn < n ? -1 : (int)(kn > n);
		if (c == 0)
			return gui_words[mid].cmd;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return FB_CECP_G_OTHER;
}

void
fb_cecp_parse_gui(const char *text, size_t len, struct fb_cecp_command *c)
{
	size_t pos = 0, start, n = fb_proto_token(text, len, &pos, &start);

	c->word = (struct fb_span){start, n};
	c->arg = fb_span_rest(text, len, pos);
	c->kind = n > 0 ? gui_word(text + start, n) : FB_CECP_G_OTHER;
}

void
fb_cecp_parse_option(const char *text, struct fb_span arg,
		     struct fb_cecp_option *o)
{
	const char *eq = memchr(text + arg.off, '=', arg.len);
	size_t end = eq != NULL ? (size_t)(eq - text) : arg.off + arg.len;

	o->has_value = eq != NULL;
	o->name = fb_span_rest(text, end, arg.off);
	o->value = eq != NULL ? fb_span_rest(text, arg.off + arg.len, end + 1)
			      : (struct fb_span){end, 0};
}

bool
fb_cecp_looks_like_move(const char *text, struct fb_span w)
{
	const char *m = text + w.off;

	if (w.len >= 3 && m[1] == '@')
		return true;
	if (w.len >= 3 && (m[0] == 'O' || m[0] == 'o' || m[0] == '0') &&
	    m[1] == '-')
		return true;
	return w.len >= 4 && w.len <= 7 && m[0] >= 'a' && m[0] <= 'l' &&
	       is_digit(m[1]);
}
