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
 *
 * The lines are read by the codecs, as every pair reads them: toward the
 * engine a UCI GUI command (uci_codec.h), else a CECP one (cecp_codec.h);
 * from the engine a UCI answer, else a CECP one. This file only maps
 * their events to the state.
 */
#include "journal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cecp_codec.h"
#include "fenbridge/line.h"
#include "uci_codec.h"

/* A kept line and what it replaces (its key: an option's name, a kind;
 * NULL in a list). */
struct entry {
	char *key;
	char *line;
};

struct entries {
	struct entry *v;
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
	/* The lines toward the engine; one longer than its cap (a position
	 * of thousands of plies) is not recorded. */
	struct fb_line framer;
	uint64_t now; /* the time of the bytes being framed */
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
	/* The gos no bestmove has answered yet: after stop, position, go
	 * the old search's bestmove comes when the new one runs. */
	unsigned gos;
	unsigned isready; /* not answered yet */

	/* XBoard */
	int protover;
	struct entries features; /* accepted / rejected, as sent */
	struct entries settings; /* level, post, option NAME, ... */
	bool xnew, usermove, force, analyzing;
	char *variant, *setboard, *time, *otim;
	long long time_cs;     /* time's */
	struct entries moves;  /* since new or setboard, both sides' */
	int stm0, engine_side; /* 0 white, 1 black */
	uint64_t think_ms;     /* when the engine last went on move */
	struct entries pings;  /* ping lines without their pong */
};

struct fb_journal *
fb_journal_new(void)
{
	struct fb_journal *j = calloc(1, sizeof *j);

	if (j != NULL) {
		fb_line_init(&j->framer, FB_LINE_DEFAULT_MAX);
		j->engine_side = 1;
	}
	return j;
}

static void
entries_drop(struct entries *e, size_t i)
{
	free(e->v[i].key);
	free(e->v[i].line);
	memmove(e->v + i, e->v + i + 1, (e->n - i - 1) * sizeof *e->v);
	e->n--;
}

static void
entries_clear(struct entries *e)
{
	while (e->n > 0)
		entries_drop(e, e->n - 1);
}

void
fb_journal_free(struct fb_journal *j)
{
	if (j == NULL)
		return;
	struct entries *all[] = {&j->options, &j->settings, &j->features,
				 &j->moves, &j->pings};
	char *slots[] = {j->position, j->go,   j->variant,
			 j->setboard, j->time, j->otim};

	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		entries_clear(all[i]);
		free(all[i]->v);
	}
	for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
		free(slots[i]);
	fb_line_free(&j->framer);
	free(j);
}

unsigned
fb_journal_restarts(const struct fb_journal *j)
{
	return j->restarts;
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

/* Appends line under key (NULL: a list's). */
static void
entries_push(struct fb_journal *j, struct entries *e, const char *key,
	     size_t klen, const char *line, size_t len)
{
	struct entry x = {NULL, NULL};

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
	keep(j, &x.line, line, len);
	if (key != NULL)
		keep(j, &x.key, key, klen);
	if (x.line == NULL || (key != NULL && x.key == NULL)) {
		free(x.key);
		free(x.line);
		return;
	}
	e->v[e->n++] = x;
}

static void
lines_pop(struct entries *e)
{
	if (e->n > 0)
		entries_drop(e, e->n - 1);
}

/* Keeps line under key, as the last entry: a later setting of the same
 * key replaces an earlier one and goes where the engine last heard it.
 * line NULL: the key is forgotten. */
static void
entries_set(struct fb_journal *j, struct entries *e, const char *key,
	    size_t klen, const char *line, size_t len)
{
	for (size_t i = 0; i < e->n; i++)
		if (strlen(e->v[i].key) == klen &&
		    strncasecmp(e->v[i].key, key, klen) == 0) {
			entries_drop(e, i);
			break;
		}
	if (line != NULL)
		entries_push(j, e, key, klen, line, len);
}

/* A number of the span s (0 when it holds none, as atoll). */
static long long
span_number(const char *t, struct fb_span s)
{
	long long v;

	return fb_cecp_parse_number(t, s, &v) ? v : 0;
}

/* Black is to move in the FEN fen (its second field). */
static bool
fen_black(const char *t, struct fb_span fen)
{
	size_t pos = fen.off, start, end = fen.off + fen.len;

	fb_proto_token(t, end, &pos, &start); /* placement */
	return fb_proto_token(t, end, &pos, &start) == 1 && t[start] == 'b';
}

/* The side to move (0 white, 1 black) after a UCI position line. */
static int
uci_side_to_move(const char *pos)
{
	size_t len = strlen(pos), at, start;
	struct fb_uci_position p;
	int side;

	if (fb_uci_parse_position(pos, len, &p) < 0)
		return 0;
	side = p.fen.len > 0 && fen_black(pos, p.fen);
	for (at = p.moves; fb_token_next(pos, len, &at, &start) > 0;)
		side ^= 1;
	return side;
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
xb_move(struct fb_journal *j, const char *t, struct fb_span m, uint64_t ms)
{
	if (m.len == 0)
		return;
	entries_push(j, &j->moves, NULL, 0, t + m.off, m.len);
	if (xb_thinking(j))
		j->think_ms = ms;
}

/* XBoard settings kept by kind: the last of each wins. */
static const char *const xb_kinds[] = {
	[FB_CECP_G_LEVEL] = "tc",    [FB_CECP_G_ST] = "tc",
	[FB_CECP_G_SD] = "sd",       [FB_CECP_G_POST] = "post",
	[FB_CECP_G_NOPOST] = "post", [FB_CECP_G_HARD] = "hard",
	[FB_CECP_G_EASY] = "hard",   [FB_CECP_G_COMPUTER] = "computer",
	[FB_CECP_G_NAME] = "name",   [FB_CECP_G_RATING] = "rating",
	[FB_CECP_G_ICS] = "ics",     [FB_CECP_G_MEMORY] = "memory",
	[FB_CECP_G_CORES] = "cores", [FB_CECP_G_EGTPATH] = "egtpath",
};

static void
uci_command(struct fb_journal *j, enum fb_uci_gui k, const char *t, size_t len,
	    uint64_t ms)
{
	struct fb_uci_setoption so;

	switch (k) {
	case FB_UCI_G_SETOPTION:
		if (fb_uci_parse_setoption(t, len, &so) == 0)
			entries_set(j, &j->options, t + so.name.off,
				    so.name.len, t, len);
		break;
	case FB_UCI_G_UCINEWGAME:
		j->newgame = true;
		j->restarts = 0;
		break;
	case FB_UCI_G_POSITION:
		keep(j, &j->position, t, len);
		break;
	case FB_UCI_G_GO:
		/* Both protocols: a UCI search, an XBoard engine on move. */
		keep(j, &j->go, t, len);
		j->go_ms = j->think_ms = ms;
		j->searching = true;
		j->gos++;
		j->ponderhit = j->stopped = false;
		j->force = false;
		j->engine_side = xb_side_to_move(j);
		break;
	case FB_UCI_G_PONDERHIT:
		j->ponderhit = true;
		j->hit_ms = ms;
		break;
	case FB_UCI_G_STOP:
		j->stopped = j->searching;
		break;
	case FB_UCI_G_ISREADY:
		j->isready++;
		break;
	default:
		break;
	}
}

static void
xb_new(struct fb_journal *j)
{
	j->xnew = true;
	j->force = j->analyzing = false;
	j->engine_side = 1;
	j->stm0 = 0;
	entries_clear(&j->moves);
	keep(j, &j->variant, NULL, 0);
	keep(j, &j->setboard, NULL, 0);
	keep(j, &j->time, NULL, 0);
	keep(j, &j->otim, NULL, 0);
	entries_set(j, &j->settings, "sd", 2, NULL, 0);
	j->restarts = 0;
}

/* accepted / rejected FEATURE: each once, as sent. */
static void
xb_feature(struct fb_journal *j, const char *t, size_t len,
	   const struct fb_cecp_command *c)
{
	if (fb_span_is(t, fb_span_first(t, c->arg), "usermove"))
		j->usermove = c->kind == FB_CECP_G_ACCEPTED;
	for (size_t i = 0; i < j->features.n; i++)
		if (strlen(j->features.v[i].line) == len &&
		    memcmp(j->features.v[i].line, t, len) == 0)
			return;
	entries_push(j, &j->features, NULL, 0, t, len);
}

static void
cecp_command(struct fb_journal *j, const char *t, size_t len, uint64_t ms)
{
	struct fb_cecp_command c;
	struct fb_cecp_option o;
	const char *key;
	bool on = false;

	fb_cecp_parse_gui(t, len, &c);
	switch (c.kind) {
	case FB_CECP_G_PROTOVER:
		j->protover = (int)span_number(t, fb_span_first(t, c.arg));
		break;
	case FB_CECP_G_ACCEPTED:
	case FB_CECP_G_REJECTED:
		xb_feature(j, t, len, &c);
		break;
	case FB_CECP_G_NEW:
		xb_new(j);
		break;
	case FB_CECP_G_VARIANT:
		keep(j, &j->variant, t, len);
		break;
	case FB_CECP_G_SETBOARD:
		keep(j, &j->setboard, t, len);
		entries_clear(&j->moves);
		j->stm0 = fen_black(t, c.arg);
		break;
	case FB_CECP_G_FORCE:
		j->force = true;
		break;
	case FB_CECP_G_RESULT:
		j->force = true;
		j->analyzing = false;
		break;
	case FB_CECP_G_PLAYOTHER:
		j->force = false;
		j->engine_side = !xb_side_to_move(j);
		break;
	case FB_CECP_G_ANALYZE:
		j->analyzing = true;
		break;
	case FB_CECP_G_EXIT:
		j->analyzing = false;
		break;
	case FB_CECP_G_TIME:
		keep(j, &j->time, t, len);
		j->time_cs = span_number(t, fb_span_first(t, c.arg));
		break;
	case FB_CECP_G_OTIM:
		keep(j, &j->otim, t, len);
		break;
	case FB_CECP_G_PING:
		entries_push(j, &j->pings, NULL, 0, t, len);
		break;
	case FB_CECP_G_UNDO:
		lines_pop(&j->moves);
		break;
	case FB_CECP_G_REMOVE:
		lines_pop(&j->moves);
		lines_pop(&j->moves);
		break;
	case FB_CECP_G_RANDOM:
		/* a toggle: kept while it is on */
		for (size_t i = 0; i < j->settings.n; i++)
			on |= strcmp(j->settings.v[i].key, "random") == 0;
		entries_set(j, &j->settings, "random", 6, on ? NULL : t, len);
		break;
	case FB_CECP_G_OPTION:
		/* by "option NAME": no kind's key has a blank */
		fb_cecp_parse_option(t, c.arg, &o);
		entries_set(j, &j->settings, t + c.word.off,
			    o.name.off + o.name.len - c.word.off, t, len);
		break;
	case FB_CECP_G_USERMOVE:
		xb_move(j, t, fb_span_first(t, c.arg), ms);
		break;
	case FB_CECP_G_OTHER:
		if (c.arg.len == 0 && fb_cecp_looks_like_move(t, c.word))
			xb_move(j, t, c.word, ms);
		break;
	default:
		key = (size_t)c.kind < sizeof xb_kinds / sizeof xb_kinds[0]
			      ? xb_kinds[c.kind]
			      : NULL;
		if (key != NULL)
			entries_set(j, &j->settings, key, strlen(key), t, len);
		break;
	}
}

/* One whole line toward the engine: a UCI command, else a CECP one. The
 * engine's protocol may not be known yet (fenbridge probes it), and the
 * two share no command the journal keeps but go. */
static void
to_engine_line(struct fb_journal *j, const char *t, size_t len, uint64_t ms)
{
	size_t start;
	enum fb_uci_gui k = fb_uci_gui_kind(t, len, &start);

	if (k != FB_UCI_G_OTHER)
		uci_command(j, k, t, len, ms);
	else
		cecp_command(j, t, len, ms);
}

static void
framed(void *ctx, const char *text, size_t len, size_t term, unsigned flags)
{
	(void)term;
	/* an overlong line's pieces, a CRLF's LF: nothing to record */
	if (flags == 0)
		to_engine_line(ctx, text, len, ((struct fb_journal *)ctx)->now);
}

void
fb_journal_to_engine(struct fb_journal *j, const char *data, size_t len,
		     uint64_t ms)
{
	/* LF, CR or CRLF ends a line (the GUI's lines go on with theirs) */
	j->now = ms;
	if (fb_line_push(&j->framer, data, len, framed, j) != 0)
		j->oom = true;
}

/* A feature line that says done=1. */
static bool
features_done(const char *t, size_t len)
{
	struct fb_cecp_feature f;
	size_t pos = 0;

	while (fb_cecp_next_feature(t, len, &pos, &f))
		if (fb_span_is(t, f.key, "done") &&
		    fb_cecp_feature_flag(t, &f, NULL))
			return true;
	return false;
}

static long long
ping_number(const char *line)
{
	struct fb_cecp_command c;

	fb_cecp_parse_gui(line, strlen(line), &c);
	return span_number(line, fb_span_first(line, c.arg));
}

/* pong N: the ping it answers, else the oldest, is answered. */
static void
xb_pong(struct fb_journal *j, long long n)
{
	size_t k = 0;

	for (size_t i = 0; i < j->pings.n; i++)
		if (ping_number(j->pings.v[i].line) == n) {
			k = i;
			break;
		}
	if (j->pings.n > 0)
		entries_drop(&j->pings, k);
}

/* An engine line that may be an answer: a UCI one (k), else a CECP one
 * (the protocol of the engine may not be known yet). Not inlined: its
 * frame is large, and most lines never come here. */
static __attribute__((noinline)) bool
from_engine(struct fb_journal *j, enum fb_uci_engine k, const char *t,
	    size_t len, uint64_t ms)
{
	struct fb_cecp_line l;

	l.kind = FB_CECP_E_OTHER;
	if (k == FB_UCI_E_OTHER)
		fb_cecp_parse_engine_command(t, len, &l);
	switch (j->drop) {
	case DROP_UCI_HANDSHAKE:
		if (k == FB_UCI_E_UCIOK)
			j->drop = DROP_UCI_READYOK;
		return true;
	case DROP_UCI_READYOK:
		if (k == FB_UCI_E_READYOK) {
			j->drop = DROP_NONE;
			return true;
		}
		break;
	case DROP_FEATURES:
		if (l.kind == FB_CECP_E_FEATURE) {
			if (features_done(t, len))
				j->drop = DROP_NONE;
			return true;
		}
		if (l.kind == FB_CECP_E_MOVE || l.kind == FB_CECP_E_PONG)
			j->drop = DROP_NONE;
		break;
	case DROP_NONE:
		break;
	}
	if (k == FB_UCI_E_UCIOK) {
		j->answered = true;
	} else if (k == FB_UCI_E_BESTMOVE) {
		if (j->gos > 0)
			j->gos--;
		j->searching = j->gos > 0;
	} else if (k == FB_UCI_E_READYOK) {
		if (j->isready > 0)
			j->isready--;
	} else if (l.kind == FB_CECP_E_FEATURE) {
		j->answered |= features_done(t, len);
	} else if (l.kind == FB_CECP_E_MOVE && l.form == FB_CECP_MOVE_CMD) {
		/* GNU Chess says its move twice in the older forms */
		xb_move(j, t, l.arg, ms);
	} else if (l.kind == FB_CECP_E_PONG) {
		xb_pong(j, span_number(t, l.arg));
	}
	return false;
}

bool
fb_journal_from_engine(struct fb_journal *j, const char *t, size_t len,
		       uint64_t ms)
{
	size_t start;
	enum fb_uci_engine k = fb_uci_engine_kind(t, len, &start);

	/* Most lines are info lines or thinking output: none of the
	 * answers followed. */
	if (k == FB_UCI_E_INFO ||
	    (k == FB_UCI_E_OTHER && fb_cecp_engine_number_led(t, len)))
		return j->drop == DROP_UCI_HANDSHAKE;
	return from_engine(j, k, t, len, ms);
}

/* The replay's line being made, ended by "\n" when emitted. */
struct out {
	char *p;
	size_t n, cap;
	bool lost; /* out of memory: this line is not emitted */
	fb_journal_emit_fn emit;
	void *ctx;
};

static void
put(struct fb_journal *j, struct out *o, const char *s, size_t n)
{
	if (o->n + n + 1 > o->cap) {
		size_t cap = (o->n + n + 1) * 2;
		char *p = realloc(o->p, cap);
		if (p == NULL) {
			j->oom = o->lost = true;
			return;
		}
		o->p = p;
		o->cap = cap;
	}
	memcpy(o->p + o->n, s, n);
	o->n += n;
}

/* Emits the line made, with s after it (when not NULL). */
static void
line(struct fb_journal *j, struct out *o, const char *s)
{
	if (s != NULL)
		put(j, o, s, strlen(s));
	put(j, o, "\n", 1);
	if (!o->lost)
		o->emit(o->ctx, o->p, o->n);
	o->n = 0;
	o->lost = false;
}

/* The clock value v less the time spent, at least 1 ms (cs). */
static long long
rest(long long v, uint64_t spent)
{
	return v - (long long)spent > 1 ? v - (long long)spent : 1;
}

/* The search again: the GUI's go with the side to move's clock reduced
 * by what the search has taken (movetime: the rest); a go ponder whose
 * ponderhit came is a normal go now, its clock running since then. The
 * go line is spliced at the spans its codec read. */
static void
uci_go(struct fb_journal *j, uint64_t ms, struct out *o)
{
	const char *t = j->go;
	size_t len = strlen(t), at = 0;
	struct fb_uci_go g;
	struct fb_span cut[3];
	long long val[3];
	char num[32];
	uint64_t spent;
	bool black;

	fb_uci_parse_go(t, len, &g);
	if ((g.ponder || g.infinite) && !j->ponderhit) {
		line(j, o, t);
		return;
	}
	spent = ms - (j->ponderhit ? j->hit_ms : j->go_ms);
	black = j->position != NULL && uci_side_to_move(j->position);
	/* ponder (after ponderhit) goes with the blanks before it */
	cut[0] = g.ponder_word;
	while (cut[0].off > 0 && fb_token_blank(t[cut[0].off - 1]))
		cut[0].off--, cut[0].len++;
	cut[1] = black ? g.btime_value : g.wtime_value;
	val[1] = rest(black ? g.btime : g.wtime, spent);
	cut[2] = g.movetime_value;
	val[2] = rest(g.movetime, spent);
	/* the cuts in the order of the line */
	for (;;) {
		int m = -1;
		for (int i = 0; i < 3; i++)
			if (cut[i].len > 0 &&
			    (m < 0 || cut[i].off < cut[m].off))
				m = i;
		if (m < 0)
			break;
		put(j, o, t + at, cut[m].off - at);
		if (m > 0) {
			snprintf(num, sizeof num, "%lld", val[m]);
			put(j, o, num, strlen(num));
		}
		at = cut[m].off + cut[m].len;
		cut[m].len = 0;
	}
	line(j, o, t + at);
}

static void
uci_replay(struct fb_journal *j, uint64_t ms, struct out *o)
{
	line(j, o, "uci");
	for (size_t i = 0; i < j->options.n; i++)
		line(j, o, j->options.v[i].line);
	if (j->newgame)
		line(j, o, "ucinewgame");
	/* Its readyok is dropped: the options are set when it comes. */
	if (j->answered)
		line(j, o, "isready");
	if (j->position != NULL)
		line(j, o, j->position);
	/* The new engine owes one bestmove at most: the replayed go's. */
	j->gos = 0;
	if (j->searching && j->go != NULL) {
		uci_go(j, ms, o);
		j->gos = 1;
		if (j->stopped)
			line(j, o, "stop");
	}
	for (unsigned i = 0; i < j->isready; i++)
		line(j, o, "isready");
	j->drop = j->answered ? DROP_UCI_HANDSHAKE : DROP_NONE;
}

/* The game since new: the position, the moves, the clocks, the mode. */
static void
xb_game(struct fb_journal *j, uint64_t ms, struct out *o)
{
	char buf[64];
	bool thinking = xb_thinking(j);

	line(j, o, "force");
	if (j->setboard != NULL)
		line(j, o, j->setboard);
	for (size_t i = 0; i < j->moves.n; i++) {
		if (j->usermove)
			put(j, o, "usermove ", 9);
		line(j, o, j->moves.v[i].line);
	}
	if (j->time != NULL && thinking) {
		snprintf(buf, sizeof buf, "time %lld",
			 rest(j->time_cs, (ms - j->think_ms) / 10));
		line(j, o, buf);
	} else if (j->time != NULL) {
		line(j, o, j->time);
	}
	if (j->otim != NULL)
		line(j, o, j->otim);
	if (j->analyzing)
		line(j, o, "analyze");
	else if (thinking)
		line(j, o, "go");
	else if (!j->force && j->protover >= 2)
		line(j, o, "playother");
}

static void
xb_replay(struct fb_journal *j, uint64_t ms, struct out *o)
{
	char buf[32];

	line(j, o, "xboard");
	if (j->protover > 0) {
		snprintf(buf, sizeof buf, "protover %d", j->protover);
		line(j, o, buf);
	}
	for (size_t i = 0; i < j->features.n; i++)
		line(j, o, j->features.v[i].line);
	if (j->xnew)
		line(j, o, "new");
	if (j->variant != NULL)
		line(j, o, j->variant);
	for (size_t i = 0; i < j->settings.n; i++)
		line(j, o, j->settings.v[i].line);
	/* Before any game the engine is as it starts. */
	if (j->xnew || j->setboard != NULL || j->moves.n > 0)
		xb_game(j, ms, o);
	for (size_t i = 0; i < j->pings.n; i++)
		line(j, o, j->pings.v[i].line);
	j->drop = j->answered ? DROP_FEATURES : DROP_NONE;
}

bool
fb_journal_replay(struct fb_journal *j, bool uci, uint64_t ms,
		  fb_journal_emit_fn emit, void *ctx)
{
	struct out o = {.emit = emit, .ctx = ctx};

	j->restarts++;
	/* a half line went to the dead engine */
	fb_line_free(&j->framer);
	fb_line_init(&j->framer, FB_LINE_DEFAULT_MAX);
	if (uci)
		uci_replay(j, ms, &o);
	else
		xb_replay(j, ms, &o);
	free(o.p);
	return !j->oom;
}
