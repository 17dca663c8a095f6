/* SPDX-License-Identifier: MIT */
/*
 * The engine wire's journal (journal.h). It keeps state, not a log: for
 * UCI the last setoption of each option, ucinewgame, the last position and
 * the search running; for XBoard the handshake (protover, fenbridge's or
 * the GUI's accepted/rejected), the settings that persist (level, post,
 * hard, option, ...: the last of each kind), the game since new (variant,
 * setboard, the moves of both sides), the clocks, the mode (force, the
 * engine's side) and the pings not answered. A replay is made from that
 * state, so it stays short however long the session.
 */
#include "journal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A line toward the engine longer than this is not recorded (a position
 * of thousands of plies; the framer's cap is 1 MiB too). */
#define LINE_MAX_BYTES (1024 * 1024)

/* A kept line and what it replaces (its key: an option's name, a kind). */
struct entry {
	char *key;
	char *line;
};

struct entries {
	struct entry *v;
	size_t n, cap;
};

struct lines {
	char **v;
	size_t n, cap;
};

/* What the new engine says that the GUI has already seen. */
enum drop {
	DROP_NONE,
	DROP_UCI_HANDSHAKE, /* every line up to uciok */
	DROP_UCI_READYOK,   /* the readyok of the replay's isready */
	DROP_FEATURES,      /* feature lines, until done=1 */
};

struct fb_journal {
	char *part; /* a line toward the engine still coming */
	size_t plen, pcap;
	bool part_over; /* longer than LINE_MAX_BYTES: not recorded */
	bool oom;
	unsigned restarts;
	enum drop drop;
	/* The old engine ended its handshake (uciok, feature done=1): the
	 * GUI has the answers; before, the new engine's go to it. */
	bool answered;

	/* UCI */
	struct entries options; /* setoption, by name, the last one last */
	bool newgame;
	char *position;
	char *go; /* the search running (go sent, no bestmove yet) */
	uint64_t go_ms, hit_ms;
	bool searching, ponderhit, stopped;
	unsigned isready; /* not answered yet */

	/* XBoard */
	int protover;
	struct lines features;  /* accepted / rejected, as sent */
	struct entries settings; /* level, post, option NAME, ... */
	bool xnew, usermove, force, analyzing;
	char *variant, *setboard, *time, *otim;
	struct lines moves; /* since new or setboard, both sides' */
	int stm0, engine_side; /* 0 white, 1 black */
	uint64_t think_ms;     /* when the engine last went on move */
	struct lines pings;    /* ping lines without their pong */
};

struct fb_journal *
fb_journal_new(void)
{
	struct fb_journal *j = calloc(1, sizeof *j);

	if (j != NULL)
		j->engine_side = 1;
	return j;
}

static void
entries_free(struct entries *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->v[i].key);
		free(e->v[i].line);
	}
	free(e->v);
}

static void
lines_clear(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	l->n = 0;
}

void
fb_journal_free(struct fb_journal *j)
{
	if (j == NULL)
		return;
	free(j->part);
	entries_free(&j->options);
	entries_free(&j->settings);
	lines_clear(&j->features);
	lines_clear(&j->moves);
	lines_clear(&j->pings);
	free(j->features.v);
	free(j->moves.v);
	free(j->pings.v);
	free(j->position);
	free(j->go);
	free(j->variant);
	free(j->setboard);
	free(j->time);
	free(j->otim);
	free(j);
}

unsigned
fb_journal_restarts(const struct fb_journal *j)
{
	return j->restarts;
}

static char *
dup_n(struct fb_journal *j, const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p == NULL) {
		j->oom = true;
		return NULL;
	}
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* *slot = a copy of text[0..len) (NULL: nothing). */
static void
keep(struct fb_journal *j, char **slot, const char *text, size_t len)
{
	char *p;

	if (text == NULL) {
		free(*slot);
		*slot = NULL;
		return;
	}
	/* The same slot again and again (a position a ply): grow it. */
	if ((p = realloc(*slot, len + 1)) == NULL) {
		j->oom = true;
		return;
	}
	memcpy(p, text, len);
	p[len] = '\0';
	*slot = p;
}

static void
lines_push(struct fb_journal *j, struct lines *l, const char *s, size_t n)
{
	char *p;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		char **v = realloc(l->v, cap * sizeof *v);
		if (v == NULL) {
			j->oom = true;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	if ((p = dup_n(j, s, n)) != NULL)
		l->v[l->n++] = p;
}

static void
lines_pop(struct lines *l)
{
	if (l->n > 0)
		free(l->v[--l->n]);
}

/* Keeps line under key, as the last entry: a later setting of the same
 * key replaces an earlier one and goes where the engine last heard it.
 * line NULL: the key is forgotten. */
static void
entries_set(struct fb_journal *j, struct entries *e, const char *key,
	    size_t klen, const char *line, size_t len)
{
	struct entry x;

	for (size_t i = 0; i < e->n; i++)
		if (strlen(e->v[i].key) == klen &&
		    strncasecmp(e->v[i].key, key, klen) == 0) {
			free(e->v[i].key);
			free(e->v[i].line);
			memmove(e->v + i, e->v + i + 1,
				(e->n - i - 1) * sizeof *e->v);
			e->n--;
			break;
		}
	if (line == NULL)
		return;
	if (e->n == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 16;
		struct entry *v = realloc(e->v, cap * sizeof *v);
		if (v == NULL) {
			j->oom = true;
			return;
		}
		e->v = v;
		e->cap = cap;
	}
	x.key = dup_n(j, key, klen);
	x.line = dup_n(j, line, len);
	if (x.key == NULL || x.line == NULL) {
		free(x.key);
		free(x.line);
		return;
	}
	e->v[e->n++] = x;
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The word at text[*at..len), skipping blanks first: its length (0: none),
 * *at moved past it. */
static size_t
word(const char *text, size_t len, size_t *at, const char **w)
{
	size_t i = *at, s;

	while (i < len && is_blank(text[i]))
		i++;
	s = i;
	while (i < len && !is_blank(text[i]))
		i++;
	*w = text + s;
	*at = i;
	return i - s;
}

/* The word w[0..n) is the literal lit: its length known at compile time,
 * so that the compiler inlines the compare (one per command name, for
 * every line). */
#define eq(w, n, lit) ((n) == sizeof("" lit) - 1 && memcmp((w), lit, (n)) == 0)

/* The number at text[at..len) after blanks (not NUL-terminated). */
static long long
number(const char *text, size_t len, size_t at)
{
	char buf[32];
	const char *w;
	size_t n = word(text, len, &at, &w);

	if (n >= sizeof buf)
		n = sizeof buf - 1;
	memcpy(buf, w, n);
	buf[n] = '\0';
	return atoll(buf);
}

/* The side to move (0 white, 1 black) after a UCI position line. */
static int
uci_side_to_move(const char *pos)
{
	size_t len = strlen(pos), at = 0, n;
	const char *w;
	int side = 0;
	bool moves = false;

	word(pos, len, &at, &w); /* position */
	while ((n = word(pos, len, &at, &w)) > 0) {
		if (moves) {
			side ^= 1;
		} else if (eq(w, n, "fen")) {
			word(pos, len, &at, &w); /* placement */
			n = word(pos, len, &at, &w);
			side = n == 1 && w[0] == 'b';
		} else if (eq(w, n, "moves")) {
			moves = true;
		}
	}
	return side;
}

/* An XBoard move from the GUI (or fenbridge): usermove's or a bare one
 * (e2e4, e7e8q, P@e4, O-O). */
static bool
looks_like_move(const char *w, size_t n)
{
	if (n >= 3 && w[1] == '@')
		return true;
	if (n >= 3 && (w[0] == 'O' || w[0] == 'o' || w[0] == '0') &&
	    w[1] == '-')
		return true;
	return n >= 4 && n <= 7 && w[0] >= 'a' && w[0] <= 'l' &&
	       w[1] >= '0' && w[1] <= '9';
}

static int
xb_side_to_move(const struct fb_journal *j)
{
	return (int)((j->stm0 + j->moves.n) & 1);
}

static bool
xb_thinking(const struct fb_journal *j)
{
	return !j->force && !j->analyzing &&
	       xb_side_to_move(j) == j->engine_side;
}

static void
xb_move(struct fb_journal *j, const char *m, size_t n, uint64_t ms)
{
	lines_push(j, &j->moves, m, n);
	if (xb_thinking(j))
		j->think_ms = ms;
}

static void
new_game(struct fb_journal *j)
{
	j->restarts = 0;
}

/* XBoard settings kept by kind: the last of each wins. */
static const char *
xb_setting_key(const char *w, size_t n)
{
	static const char *const kinds[][2] = {
		{"level", "tc"},     {"st", "tc"},
		{"sd", "sd"},        {"post", "post"},
		{"nopost", "post"},  {"hard", "hard"},
		{"easy", "hard"},    {"computer", "computer"},
		{"name", "name"},    {"rating", "rating"},
		{"ics", "ics"},      {"memory", "memory"},
		{"cores", "cores"},  {"egtpath", "egtpath"},
	};

	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strlen(kinds[i][0]) == n && memcmp(w, kinds[i][0], n) == 0)
			return kinds[i][1];
	return NULL;
}

/* One whole line toward the engine. */
static void
to_engine_line(struct fb_journal *j, const char *t, size_t len, uint64_t ms)
{
	size_t at = 0, n, a2;
	const char *w, *w2, *key;

	if ((n = word(t, len, &at, &w)) == 0)
		return;
	/* UCI */
	if (eq(w, n, "setoption")) {
		/* setoption name NAME [value V]: NAME may hold blanks */
		const char *name, *end = t + len, *v;
		a2 = at;
		if (word(t, len, &a2, &w2) != 4 || memcmp(w2, "name", 4) != 0)
			return;
		word(t, len, &a2, &name);
		for (v = name; v + 6 <= end; v++)
			if (memcmp(v, " value", 6) == 0 &&
			    (v + 6 == end || is_blank(v[6])))
				break;
		if (v + 6 > end)
			v = end;
		entries_set(j, &j->options, name, (size_t)(v - name), t, len);
	} else if (eq(w, n, "ucinewgame")) {
		j->newgame = true;
		new_game(j);
	} else if (eq(w, n, "position")) {
		keep(j, &j->position, t, len);
	} else if (eq(w, n, "go")) {
		/* Both protocols: a UCI search, an XBoard engine on move. */
		keep(j, &j->go, t, len);
		j->go_ms = j->think_ms = ms;
		j->searching = true;
		j->ponderhit = j->stopped = false;
		j->force = false;
		j->engine_side = xb_side_to_move(j);
	} else if (eq(w, n, "ponderhit")) {
		j->ponderhit = true;
		j->hit_ms = ms;
	} else if (eq(w, n, "stop")) {
		j->stopped = j->searching;
	} else if (eq(w, n, "isready")) {
		j->isready++;
	}
	/* XBoard */
	else if (eq(w, n, "protover")) {
		j->protover = (int)number(t, len, at);
	} else if (eq(w, n, "accepted") || eq(w, n, "rejected")) {
		a2 = at;
		if (word(t, len, &a2, &w2) == 8 && memcmp(w2, "usermove", 8) == 0)
			j->usermove = w[0] == 'a';
		for (size_t i = 0; i < j->features.n; i++)
			if (strlen(j->features.v[i]) == len &&
			    memcmp(j->features.v[i], t, len) == 0)
				return;
		lines_push(j, &j->features, t, len);
	} else if (eq(w, n, "new")) {
		j->xnew = true;
		j->force = j->analyzing = false;
		j->engine_side = 1;
		j->stm0 = 0;
		lines_clear(&j->moves);
		keep(j, &j->variant, NULL, 0);
		keep(j, &j->setboard, NULL, 0);
		keep(j, &j->time, NULL, 0);
		keep(j, &j->otim, NULL, 0);
		entries_set(j, &j->settings, "sd", 2, NULL, 0);
		new_game(j);
	} else if (eq(w, n, "variant")) {
		keep(j, &j->variant, t, len);
	} else if (eq(w, n, "setboard")) {
		keep(j, &j->setboard, t, len);
		lines_clear(&j->moves);
		word(t, len, &at, &w2); /* placement */
		n = word(t, len, &at, &w2);
		j->stm0 = n == 1 && w2[0] == 'b';
	} else if (eq(w, n, "force")) {
		j->force = true;
	} else if (eq(w, n, "result")) {
		j->force = true;
		j->analyzing = false;
	} else if (eq(w, n, "playother")) {
		j->force = false;
		j->engine_side = !xb_side_to_move(j);
	} else if (eq(w, n, "analyze")) {
		j->analyzing = true;
	} else if (eq(w, n, "exit")) {
		j->analyzing = false;
	} else if (eq(w, n, "time")) {
		keep(j, &j->time, t, len);
	} else if (eq(w, n, "otim")) {
		keep(j, &j->otim, t, len);
	} else if (eq(w, n, "ping")) {
		lines_push(j, &j->pings, t, len);
	} else if (eq(w, n, "undo")) {
		lines_pop(&j->moves);
	} else if (eq(w, n, "remove")) {
		lines_pop(&j->moves);
		lines_pop(&j->moves);
	} else if (eq(w, n, "random")) {
		/* a toggle: kept while it is on */
		bool on = false;
		for (size_t i = 0; i < j->settings.n; i++)
			on |= strcmp(j->settings.v[i].key, "random") == 0;
		entries_set(j, &j->settings, "random", 6, on ? NULL : t, len);
	} else if (eq(w, n, "option")) {
		/* option NAME[=VALUE] */
		const char *eqs = memchr(t, '=', len);
		size_t kend = eqs != NULL ? (size_t)(eqs - t) : len;
		entries_set(j, &j->settings, t, kend, t, len);
	} else if ((key = xb_setting_key(w, n)) != NULL) {
		entries_set(j, &j->settings, key, strlen(key), t, len);
	} else if (eq(w, n, "usermove")) {
		if ((n = word(t, len, &at, &w)) > 0)
			xb_move(j, w, n, ms);
	} else if (looks_like_move(w, n) && at == len) {
		xb_move(j, w, n, ms);
	}
}

void
fb_journal_to_engine(struct fb_journal *j, const char *data, size_t len,
		     uint64_t ms)
{
	while (len > 0) {
		/* LF, CR or CRLF ends a line (the framer's terminators: the
		 * GUI's lines go on with theirs); an empty line is nothing. */
		const char *nl = data;
		size_t n;

		while (nl < data + len && *nl != '\n' && *nl != '\r')
			nl++;
		if (nl == data + len)
			nl = NULL;
		n = nl != NULL ? (size_t)(nl - data) : len;
		const char *line = data;
		size_t ll = n;

		if (j->plen > 0 || nl == NULL) {
			/* a line in pieces: gather it */
			if (!j->part_over && j->plen + n > LINE_MAX_BYTES)
				j->part_over = true;
			if (!j->part_over && j->plen + n > j->pcap) {
				size_t cap = (j->plen + n) * 2 + 64;
				char *p = realloc(j->part, cap);
				if (p == NULL) {
					j->oom = j->part_over = true;
				} else {
					j->part = p;
					j->pcap = cap;
				}
			}
			if (!j->part_over) {
				memcpy(j->part + j->plen, data, n);
				j->plen += n;
			}
			line = j->part;
			ll = j->plen;
		}
		if (nl == NULL)
			return;
		if (!j->part_over)
			to_engine_line(j, line, ll, ms);
		j->plen = 0;
		j->part_over = false;
		data = nl + 1;
		len -= n + 1;
	}
}

bool
fb_journal_from_engine(struct fb_journal *j, const char *t, size_t len,
		       uint64_t ms)
{
	size_t at = 0, n;
	const char *w;

	/* Most lines are info lines: none of the answers followed. */
	if (j->drop == DROP_NONE && len > 0 && t[0] != 'b' && t[0] != 'r' &&
	    t[0] != 'm' && t[0] != 'p' && t[0] != 'u' && t[0] != 'f')
		return false;
	n = word(t, len, &at, &w);
	switch (j->drop) {
	case DROP_UCI_HANDSHAKE:
		if (eq(w, n, "uciok"))
			j->drop = DROP_UCI_READYOK;
		return true;
	case DROP_UCI_READYOK:
		if (eq(w, n, "readyok")) {
			j->drop = DROP_NONE;
			return true;
		}
		break;
	case DROP_FEATURES:
		if (eq(w, n, "feature")) {
			for (size_t i = 0; i + 6 <= len; i++)
				if (memcmp(t + i, "done=1", 6) == 0)
					j->drop = DROP_NONE;
			return true;
		}
		if (eq(w, n, "move") || eq(w, n, "pong"))
			j->drop = DROP_NONE;
		break;
	case DROP_NONE:
		break;
	}
	if (eq(w, n, "uciok")) {
		j->answered = true;
	} else if (eq(w, n, "feature")) {
		for (size_t i = 0; i + 6 <= len; i++)
			j->answered |= memcmp(t + i, "done=1", 6) == 0;
	} else if (eq(w, n, "bestmove")) {
		j->searching = false;
	} else if (eq(w, n, "readyok")) {
		if (j->isready > 0)
			j->isready--;
	} else if (eq(w, n, "move")) {
		if ((n = word(t, len, &at, &w)) > 0)
			xb_move(j, w, n, ms);
	} else if (eq(w, n, "pong")) {
		/* the ping it answers, else the oldest */
		size_t k = 0;
		for (size_t i = 0; i < j->pings.n; i++) {
			const char *p = j->pings.v[i];
			if (number(p, strlen(p), 4) == number(t, len, at)) {
				k = i;
				break;
			}
		}
		if (j->pings.n > 0) {
			free(j->pings.v[k]);
			memmove(j->pings.v + k, j->pings.v + k + 1,
				(j->pings.n - k - 1) * sizeof *j->pings.v);
			j->pings.n--;
		}
	}
	return false;
}

static void
emit_str(fb_journal_emit_fn emit, void *ctx, const char *s)
{
	size_t n = strlen(s);
	char *p = malloc(n + 1);

	if (p == NULL)
		return;
	memcpy(p, s, n);
	p[n] = '\n';
	emit(ctx, p, n + 1);
	free(p);
}

/* Appends to the growing line *out. */
static void
append(struct fb_journal *j, char **out, size_t *olen, const char *s,
       size_t n)
{
	char *p = realloc(*out, *olen + n + 2);

	if (p == NULL) {
		j->oom = true;
		return;
	}
	memcpy(p + *olen, s, n);
	*olen += n;
	p[*olen] = '\0';
	*out = p;
}

/* The clock value v less the time spent, at least 1 ms (cs). */
static long long
rest(long long v, uint64_t spent)
{
	return v - (long long)spent > 1 ? v - (long long)spent : 1;
}

/* The search again: the GUI's go with the side to move's clock reduced
 * by what the search has taken (movetime: the rest); a go ponder whose
 * ponderhit came is a normal go now, its clock running since then. */
static void
uci_go(struct fb_journal *j, uint64_t ms, fb_journal_emit_fn emit, void *ctx)
{
	const char *t = j->go, *w;
	size_t len = strlen(t), at = 0, n, olen = 0;
	bool ponder = false, black;
	char *out = NULL, num[32];
	uint64_t since = j->go_ms;

	for (size_t a = 0; (n = word(t, len, &a, &w)) > 0;)
		ponder |= eq(w, n, "ponder") || eq(w, n, "infinite");
	if (ponder && !j->ponderhit) {
		emit_str(emit, ctx, t);
		return;
	}
	if (j->ponderhit)
		since = j->hit_ms;
	black = j->position != NULL && uci_side_to_move(j->position);
	while ((n = word(t, len, &at, &w)) > 0) {
		if (eq(w, n, "ponder") && j->ponderhit)
			continue;
		if (olen > 0)
			append(j, &out, &olen, " ", 1);
		append(j, &out, &olen, w, n);
		if ((black ? eq(w, n, "btime") : eq(w, n, "wtime")) ||
		    eq(w, n, "movetime")) {
			size_t a = at;
			const char *v;
			if (word(t, len, &a, &v) > 0) {
				snprintf(num, sizeof num, " %lld",
					 rest(number(t, len, at), ms - since));
				append(j, &out, &olen, num, strlen(num));
				at = a;
			}
		}
	}
	if (out != NULL)
		emit_str(emit, ctx, out);
	free(out);
}

static void
uci_replay(struct fb_journal *j, uint64_t ms, fb_journal_emit_fn emit,
	   void *ctx)
{
	emit_str(emit, ctx, "uci");
	for (size_t i = 0; i < j->options.n; i++)
		emit_str(emit, ctx, j->options.v[i].line);
	if (j->newgame)
		emit_str(emit, ctx, "ucinewgame");
	/* Its readyok is dropped: the options are set when it comes. */
	if (j->answered)
		emit_str(emit, ctx, "isready");
	if (j->position != NULL)
		emit_str(emit, ctx, j->position);
	if (j->searching && j->go != NULL) {
		uci_go(j, ms, emit, ctx);
		if (j->stopped)
			emit_str(emit, ctx, "stop");
	}
	for (unsigned i = 0; i < j->isready; i++)
		emit_str(emit, ctx, "isready");
	j->drop = j->answered ? DROP_UCI_HANDSHAKE : DROP_NONE;
}

/* The game since new: the position, the moves, the clocks, the mode. */
static void
xb_game(struct fb_journal *j, uint64_t ms, fb_journal_emit_fn emit,
	void *ctx)
{
	char buf[64];
	bool thinking = xb_thinking(j);

	emit_str(emit, ctx, "force");
	if (j->setboard != NULL)
		emit_str(emit, ctx, j->setboard);
	for (size_t i = 0; i < j->moves.n; i++) {
		if (j->usermove) {
			char *m = NULL;
			size_t ml = 0;
			append(j, &m, &ml, "usermove ", 9);
			append(j, &m, &ml, j->moves.v[i], strlen(j->moves.v[i]));
			if (m != NULL)
				emit_str(emit, ctx, m);
			free(m);
		} else {
			emit_str(emit, ctx, j->moves.v[i]);
		}
	}
	if (j->time != NULL && thinking) {
		snprintf(buf, sizeof buf, "time %lld",
			 rest(number(j->time, strlen(j->time), 4),
			      (ms - j->think_ms) / 10));
		emit_str(emit, ctx, buf);
	} else if (j->time != NULL) {
		emit_str(emit, ctx, j->time);
	}
	if (j->otim != NULL)
		emit_str(emit, ctx, j->otim);
	if (j->analyzing)
		emit_str(emit, ctx, "analyze");
	else if (thinking)
		emit_str(emit, ctx, "go");
	else if (!j->force && j->protover >= 2)
		emit_str(emit, ctx, "playother");
}

static void
xb_replay(struct fb_journal *j, uint64_t ms, fb_journal_emit_fn emit,
	  void *ctx)
{
	char buf[32];

	emit_str(emit, ctx, "xboard");
	if (j->protover > 0) {
		snprintf(buf, sizeof buf, "protover %d", j->protover);
		emit_str(emit, ctx, buf);
	}
	for (size_t i = 0; i < j->features.n; i++)
		emit_str(emit, ctx, j->features.v[i]);
	if (j->xnew)
		emit_str(emit, ctx, "new");
	if (j->variant != NULL)
		emit_str(emit, ctx, j->variant);
	for (size_t i = 0; i < j->settings.n; i++)
		emit_str(emit, ctx, j->settings.v[i].line);
	/* Before any game the engine is as it starts. */
	if (j->xnew || j->setboard != NULL || j->moves.n > 0)
		xb_game(j, ms, emit, ctx);
	for (size_t i = 0; i < j->pings.n; i++)
		emit_str(emit, ctx, j->pings.v[i]);
	j->drop = j->answered ? DROP_FEATURES : DROP_NONE;
}

bool
fb_journal_replay(struct fb_journal *j, bool uci, uint64_t ms,
		  fb_journal_emit_fn emit, void *ctx)
{
	j->restarts++;
	j->plen = 0; /* a half line went to the dead engine */
	j->part_over = false;
	if (uci)
		uci_replay(j, ms, emit, ctx);
	else
		xb_replay(j, ms, emit, ctx);
	return !j->oom;
}
