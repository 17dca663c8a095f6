/* SPDX-License-Identifier: MIT */
/*
 * `fenbridge replay`'s pure part (replay.h): a record or a log read into
 * the lines the engine was sent and the answers it gave, a plan of steps,
 * and the replay's answers compared with the recorded ones. No I/O.
 */
#include "replay.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenbridge/error.h"

/* A line of the file as read: a send or an engine line. */
struct item {
	const char *text;
	unsigned line;
	uint64_t ms;
};

struct list {
	struct item *v;
	size_t n, cap;
};

/* What the reading gathers before the plan is made. */
struct reading {
	struct list send, ans;
	size_t cut_at; /* sends before the "cut" line */
	bool cecp_set; /* the record's header named the protocol */
	bool gone;     /* a log: the engine's end was read */
};

static int
bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return FB_EINVAL;
}

static bool
push(struct list *l, const char *text, unsigned line, uint64_t ms)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		struct item *v = realloc(l->v, cap * sizeof *v);
		if (v == NULL)
			return false;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (struct item){text, line, ms};
	return true;
}

/* The first word of s is w. */
static bool
word_is(const char *s, const char *w)
{
	size_t n = strlen(w);

	return strncmp(s, w, n) == 0 && (s[n] == '\0' || s[n] == ' ');
}

int
fb_replay_answer_kind(const char *line, size_t len)
{
	char buf[16];
	size_t n = 0;

	while (n < len && n < sizeof buf - 1 && line[n] != ' ')
		n++;
	memcpy(buf, line, n);
	buf[n] = '\0';
	if (strcmp(buf, "bestmove") == 0 || strcmp(buf, "move") == 0)
		return 2;
	if (strcmp(buf, "uciok") == 0 || strcmp(buf, "readyok") == 0 ||
	    strcmp(buf, "pong") == 0)
		return 1;
	if (strcmp(buf, "feature") == 0) {
		for (size_t i = 0; i + 7 <= len; i++)
			if (memcmp(line + i, " done=1", 7) == 0)
				return 1;
	}
	return 0;
}

static int
hex(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

/* Undoes the file's escapes in place: \xNN (a record writes only those,
 * for control bytes), and a log's \\, \r, \t. */
static void
unescape(char *s, bool log)
{
	char *o = s;

	for (const char *p = s; *p != '\0'; p++) {
		if (p[0] == '\\' && p[1] == 'x' && hex(p[2]) >= 0 &&
		    hex(p[3]) >= 0) {
			int c = hex(p[2]) * 16 + hex(p[3]);
			if (log || c < 0x20 || c == 0x7f) {
				*o++ = (char)c;
				p += 3;
				continue;
			}
		} else if (log && p[0] == '\\' &&
			   (p[1] == '\\' || p[1] == 'r' || p[1] == 't')) {
			*o++ = p[1] == '\\' ? '\\' : p[1] == 'r' ? '\r' : '\t';
			p++;
			continue;
		}
		*o++ = *p;
	}
	*o = '\0';
}

/* The signals a crash is told by (POSIX numbers of Linux, which the
 * record's "died of SIGSEGV (11)" carries). */
static const struct {
	int sig;
	const char *name;
	uint32_t win; /* the Windows exception that means the same */
} sigs[] = {
	{4, "SIGILL", 0xC000001Du},  {6, "SIGABRT", 0xC0000409u},
	{7, "SIGBUS", 0xC0000006u},  {8, "SIGFPE", 0xC0000094u},
	{9, "SIGKILL", 0},           {11, "SIGSEGV", 0xC0000005u},
	{15, "SIGTERM", 0},          {11, "SIGSEGV", 0xC00000FDu},
	{6, "SIGABRT", 0xC0000374u},
};

int
fb_replay_signal_of(int64_t status)
{
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		if (sigs[i].win != 0 && (uint32_t)status == sigs[i].win)
			return sigs[i].sig;
	return 0;
}

static const char *
sig_name(int sig)
{
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		if (sigs[i].sig == sig)
			return sigs[i].name;
	return "signal";
}

/* "died of SIGSEGV (11)", "died of 0xC0000005 (...)", "exited with status
 * N" (or 0x...) in s: the end they tell. */
static void
read_end(struct fb_replay *r, const char *s)
{
	const char *p;
	long long v;

	if ((p = strstr(s, "died of ")) != NULL) {
		p += 8;
		if (strncmp(p, "0x", 2) == 0) {
			v = strtoll(p + 2, NULL, 16);
			r->code = fb_replay_signal_of(v);
			r->end = r->code ? FB_RP_END_SIGNAL : FB_RP_END_EXIT;
			if (r->code == 0)
				r->code = (int)v;
		} else if ((p = strchr(p, '(')) != NULL) {
			r->end = FB_RP_END_SIGNAL;
			r->code = atoi(p + 1);
		}
	} else if ((p = strstr(s, "exited with status ")) != NULL) {
		p += 19;
		v = strncmp(p, "0x", 2) == 0 ? strtoll(p + 2, NULL, 16)
					     : strtoll(p, NULL, 10);
		r->code = fb_replay_signal_of(v);
		r->end = r->code ? FB_RP_END_SIGNAL : FB_RP_END_EXIT;
		if (r->code == 0)
			r->code = (int)v;
	}
}

/* "%8.3f TAG TEXT": true for a body line of a record. */
static bool
record_line(char *s, unsigned ln, struct fb_replay *r, struct reading *g)
{
	char *p = s, *tag, *text;
	uint64_t ms = 0, frac = 0;
	int nf = 0;
	size_t tl;

	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		ms = ms * 10 + (uint64_t)(*p++ - '0');
	if (*p++ != '.')
		return false;
	while (*p >= '0' && *p <= '9' && nf < 3)
		frac = frac * 10 + (uint64_t)(*p++ - '0'), nf++;
	if (nf != 3 || *p++ != ' ')
		return false;
	tag = p;
	while (*p != ' ' && *p != '\0')
		p++;
	tl = (size_t)(p - tag);
	text = tag + (tl < 8 ? 8 : tl);
	if ((size_t)(text - s) > strlen(s) || *text != ' ')
		text = p; /* a line that was not padded: be lenient */
	if (*text == ' ')
		text++;
	ms = ms * 1000 + frac;
	unescape(text, false);
	if (tl == 7 && memcmp(tag, ">engine", 7) == 0)
		return push(&g->send, text, ln, ms) || true;
	if (tl == 7 && memcmp(tag, "engine>", 7) == 0) {
		if (fb_replay_answer_kind(text, strlen(text)) > 0)
			(void)push(&g->ans, text, ln, ms);
		return true;
	}
	if (tl == 3 && memcmp(tag, "cut", 3) == 0) {
		r->cut = true;
		r->cut_line = ln;
		g->cut_at = g->send.n;
	}
	(void)r;
	return true;
}

/* "YYYY-MM-DD HH:MM:SS.UUUUUU ": the time of day in ms, or -1. */
static long long
log_stamp(const char *s)
{
	static const char shape[] = "dddd-dd-dd dd:dd:dd.dddddd ";
	long long h, m, sec, us;

	for (size_t i = 0; i < sizeof shape - 1; i++)
		if (shape[i] == 'd' ? s[i] < '0' || s[i] > '9'
				    : s[i] != shape[i])
			return -1;
	h = atoll(s + 11);
	m = atoll(s + 14);
	sec = atoll(s + 17);
	us = atoll(s + 20);
	return ((h * 60 + m) * 60 + sec) * 1000 + us / 1000;
}

static void
log_line(char *s, unsigned ln, struct fb_replay *r, struct reading *g,
	 long long *last, uint64_t *day)
{
	long long t = log_stamp(s);
	char *p = s + 27, *text;
	uint64_t ms;

	if (t < 0)
		return;
	if (t < *last)
		*day += 86400000; /* past midnight */
	*last = t;
	ms = *day + (uint64_t)t;
	text = strchr(p, ' ');
	text = text ? text + 1 : p + strlen(p);
	if (word_is(p, ">engine") || word_is(p, "engine>")) {
		if (g->gone)
			return; /* a new engine (--restart): not replayed */
		unescape(text, true);
		if (p[0] == '>')
			(void)push(&g->send, text, ln, ms);
		else if (fb_replay_answer_kind(text, strlen(text)) > 0)
			(void)push(&g->ans, text, ln, ms);
		return;
	}
	if (strncmp(text, "---- fenbridge", 14) == 0) {
		/* a new session: the last one is replayed */
		g->send.n = g->ans.n = 0;
		g->gone = false;
		r->end = FB_RP_END_NONE;
		r->reason[0] = '\0';
		return;
	}
	if (!g->gone &&
	    (strncmp(text, "engine died of ", 15) == 0 ||
	     strncmp(text, "engine exited with status ", 26) == 0)) {
		g->gone = true;
		read_end(r, text);
		snprintf(r->reason, sizeof r->reason, "the %s", text);
		/* the engine's exit after quit is no failure */
		if (g->send.n > 0 &&
		    word_is(g->send.v[g->send.n - 1].text, "quit"))
			r->end = FB_RP_END_NONE;
	} else if (!g->gone && r->end == FB_RP_END_NONE &&
		   word_is(p, "warning") &&
		   strncmp(text, "referee: ", 9) == 0) {
		/* a referee's finding: the answers must come out the same */
		r->end = FB_RP_END_OTHER;
		snprintf(r->reason, sizeof r->reason, "%s", text);
	}
}

/* Appends the made-up handshake of a cut record: its steps and the
 * answers they are owed. */
static bool
made_up(struct fb_replay *r, struct reading *g, struct list *steps,
	struct list *ans, size_t start)
{
	if (r->cecp)
		return push(steps, "xboard", 0, 0) &&
		       push(steps, "protover 2", 0, 0) &&
		       push(ans, "feature done=1", 0, 0);
	if (!push(steps, "uci", 0, 0) || !push(ans, "uciok", 0, 0))
		return false;
	/* the options the older lines still show */
	for (size_t i = 0; i < start; i++)
		if (word_is(g->send.v[i].text, "setoption") &&
		    !push(steps, g->send.v[i].text, g->send.v[i].line, 0))
			return false;
	return push(steps, "isready", 0, 0) && push(ans, "readyok", 0, 0);
}

/* Makes r's steps and answers from what was read, from start on. */
static int
plan(struct fb_replay *r, struct reading *g, size_t start, char *err,
     size_t errlen)
{
	struct list steps = {0}, ans = {0};
	size_t made = 0, a = 0;
	uint64_t t0 = g->send.v[start].ms;
	unsigned first_line = g->send.v[start].line;
	int rc = bad(err, errlen, "out of memory");

	if (r->cut && !made_up(r, g, &steps, &ans, start))
		goto out;
	made = ans.n;
	for (size_t i = start; i < g->send.n; i++)
		if (!push(&steps, g->send.v[i].text, g->send.v[i].line,
			  g->send.v[i].ms))
			goto out;
	for (size_t i = 0; i < g->ans.n; i++)
		if (g->ans.v[i].line > first_line &&
		    !push(&ans, g->ans.v[i].text, g->ans.v[i].line,
			  g->ans.v[i].ms))
			goto out;
	r->step = calloc(steps.n, sizeof *r->step);
	r->ans = calloc(ans.n ? ans.n : 1, sizeof *r->ans);
	if (r->step == NULL || r->ans == NULL)
		goto out;
	r->nstep = steps.n;
	r->nans = ans.n;
	for (size_t i = 0; i < ans.n; i++)
		r->ans[i] = (struct fb_replay_answer){
			ans.v[i].text, ans.v[i].line,
			fb_replay_answer_kind(ans.v[i].text,
					      strlen(ans.v[i].text)) == 2};
	/* The made-up steps are owed their answers at once (uci: uciok,
	 * isready: readyok); a recorded one what came before the next. */
	a = 0;
	for (size_t i = 0; i < steps.n; i++) {
		struct fb_replay_step *s = &r->step[i];
		bool mine = steps.v[i].ms == 0 && steps.v[i].line == 0;
		s->text = steps.v[i].text;
		s->line = steps.v[i].line;
		s->ms = steps.v[i].ms >= t0 ? steps.v[i].ms - t0 : 0;
		if (mine || (r->cut && steps.v[i].line < first_line)) {
			if (word_is(s->text, "uci") ||
			    word_is(s->text, "isready") ||
			    word_is(s->text, "protover"))
				a++;
			s->answers = a;
			s->line = 0;
			continue;
		}
		a = a < made ? made : a;
		while (a < ans.n && (i + 1 == steps.n ||
				     ans.v[a].line < steps.v[i + 1].line))
			a++;
		s->answers = a;
		if (a > made && ans.v[a - 1].line > s->line &&
		    ans.v[a - 1].ms >= steps.v[i].ms)
			s->wait_ms = ans.v[a - 1].ms - steps.v[i].ms;
	}
	rc = 0;
out:
	free(steps.v);
	free(ans.v);
	return rc;
}

/* A flight record's line ln before its body: the reason (line 1), the
 * engine's protocol; *body is set at the body's heading. */
static void
record_head(struct fb_replay *r, struct reading *g, const char *line,
	    unsigned ln, bool *body)
{
	const char *p;

	if (ln == 1) {
		snprintf(r->reason, sizeof r->reason, "%s", line + 25);
		read_end(r, r->reason);
		if (r->end == FB_RP_END_NONE)
			r->end = FB_RP_END_OTHER;
		return;
	}
	if ((p = strstr(line, "engine protocol ")) != NULL) {
		r->cecp = strncmp(p + 16, "xboard", 6) == 0;
		g->cecp_set = strncmp(p + 16, "(not", 4) != 0;
	}
	if (strncmp(line, "the last lines both ways", 24) == 0)
		*body = true;
}

/* The time of the last line read, sent or answered. */
static uint64_t
last_ms(const struct reading *g)
{
	const struct item *s = g->send.n ? &g->send.v[g->send.n - 1] : NULL,
			  *a = g->ans.n ? &g->ans.v[g->ans.n - 1] : NULL;

	return s != NULL && (a == NULL || s->line > a->line) ? s->ms : a->ms;
}

/* Reads r->mem line by line (up to line until, when not 0) into g;
 * *end_ms is the time of the last line read. Returns true when until
 * stopped it. */
static bool
read_lines(struct fb_replay *r, struct reading *g, unsigned until,
	   uint64_t *end_ms)
{
	char *line, *next;
	unsigned ln = 0;
	long long last = 0;
	uint64_t day = 0;
	bool body = false;

	for (line = r->mem; line != NULL; line = next) {
		size_t n;
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		n = strlen(line);
		if (n > 0 && line[n - 1] == '\r')
			line[--n] = '\0';
		if (until > 0 && ++ln > until)
			return true;
		ln += until == 0;
		if (r->log) {
			log_line(line, ln, r, g, &last, &day);
			if (last > 0)
				*end_ms = day + (uint64_t)last;
		} else if (!body) {
			record_head(r, g, line, ln, &body);
		} else {
			(void)record_line(line, ln, r, g);
			if (g->send.n + g->ans.n > 0)
				*end_ms = last_ms(g);
		}
	}
	return false;
}

/* A cut record replays from the first position sent in full after the
 * cut: its index in g->send, or -1 when there is none. */
static long
cut_start(const struct fb_replay *r, const struct reading *g)
{
	for (size_t i = g->cut_at; i < g->send.n; i++) {
		const char *s = g->send.v[i].text;
		if (r->cecp ? word_is(s, "new") || word_is(s, "setboard")
			    : word_is(s, "position"))
			return (long)i;
	}
	return -1;
}

int
fb_replay_parse(struct fb_replay *r, const char *text, size_t len,
		unsigned until, char *err, size_t errlen)
{
	struct reading g = {0};
	uint64_t end_ms = 0;
	size_t start = 0;
	int rc;

	memset(r, 0, sizeof *r);
	if ((r->mem = malloc(len + 1)) == NULL)
		return bad(err, errlen, "out of memory");
	memcpy(r->mem, text, len);
	r->mem[len] = '\0';
	if (strncmp(r->mem, "fenbridge flight record: ", 25) != 0) {
		if (log_stamp(r->mem) < 0) {
			fb_replay_free(r);
			return bad(err, errlen,
				   "neither a fenbridge flight record nor a "
				   "fenbridge log");
		}
		r->log = true;
	}
	if (read_lines(r, &g, until, &end_ms)) {
		r->end = FB_RP_END_NONE; /* --until: the answers only */
		r->until = true;
	}
	if (!g.cecp_set)
		for (size_t i = 0; i < g.send.n; i++)
			if (word_is(g.send.v[i].text, "uci") ||
			    word_is(g.send.v[i].text, "protover"))
				r->cecp = word_is(g.send.v[i].text, "protover");
	if (g.send.n == 0) {
		rc = bad(err, errlen, "the %s holds no line sent to the engine",
			 r->log ? "log" : "record");
		goto fail;
	}
	if (r->cut) {
		long at = cut_start(r, &g);
		if (at < 0) {
			rc = bad(err, errlen,
				 "the record is cut (line %u) and holds no "
				 "position sent in full after it",
				 r->cut_line);
			goto fail;
		}
		r->lost = (unsigned)(start = (size_t)at);
	}
	r->start_line = g.send.v[start].line;
	if ((rc = plan(r, &g, start, err, errlen)) < 0)
		goto fail;
	r->end_ms = end_ms >= g.send.v[start].ms ? end_ms - g.send.v[start].ms
						 : 0;
	/* A log cut short (no end, no quit) is as one read to --until. */
	if (r->end == FB_RP_END_NONE &&
	    !word_is(r->step[r->nstep - 1].text, "quit"))
		r->until = true;
	free(g.send.v);
	free(g.ans.v);
	return 0;
fail:
	free(g.send.v);
	free(g.ans.v);
	fb_replay_free(r);
	return rc;
}

void
fb_replay_free(struct fb_replay *r)
{
	free(r->mem);
	free(r->step);
	free(r->ans);
	memset(r, 0, sizeof *r);
}

void
fb_replay_cmp_init(struct fb_replay_cmp *c, const struct fb_replay *r)
{
	memset(c, 0, sizeof *c);
	c->r = r;
	for (size_t i = 0; i < r->nans; i++) {
		if (r->ans[i].move)
			c->want_moves++;
		else
			c->want_acks++;
	}
}

/* The k-th recorded answer of a kind, or NULL. */
static const struct fb_replay_answer *
nth(const struct fb_replay *r, bool move, size_t k)
{
	for (size_t i = 0; i < r->nans; i++)
		if (r->ans[i].move == move && k-- == 0)
			return &r->ans[i];
	return NULL;
}

/* The n-th word (0: the first) of s: its start, *len its length. */
static const char *
word(const char *s, size_t len, int n, size_t *wl)
{
	size_t i = 0;

	for (;;) {
		size_t b;
		while (i < len && s[i] == ' ')
			i++;
		b = i;
		while (i < len && s[i] != ' ')
			i++;
		if (n-- == 0 || i >= len) {
			*wl = n < 0 ? i - b : 0;
			return s + b;
		}
	}
}

/* The last step sent, for the messages: its line or "the start". */
static void
where(const struct fb_replay_cmp *c, char *out, size_t cap)
{
	const struct fb_replay_step *s = c->sent > 0 ? &c->r->step[c->sent - 1]
						     : NULL;

	if (s == NULL)
		snprintf(out, cap, "before the first line was sent");
	else if (s->line == 0)
		snprintf(out, cap, "after the made-up '%s'", s->text);
	else
		snprintf(out, cap, "after line %u ('%.60s')", s->line, s->text);
}

bool
fb_replay_cmp_line(struct fb_replay_cmp *c, const char *text, size_t len)
{
	int kind = fb_replay_answer_kind(text, len);
	bool move = kind == 2;
	const struct fb_replay_answer *want;
	size_t a, b;
	const char *x, *y;
	char at[128];
	bool same;

	if (kind == 0)
		return false;
	c->got++;
	want = nth(c->r, move, move ? c->moves : c->acks);
	if (move)
		c->moves++;
	else
		c->acks++;
	if (c->diverged)
		return true;
	where(c, at, sizeof at);
	if (want == NULL && c->r->until && c->sent == c->r->nstep)
		return true; /* an answer to a line before --until's, after it */
	if (want == NULL) {
		c->diverged = true;
		snprintf(c->first, sizeof c->first,
			 "the engine answered '%.*s' %s, which the record does "
			 "not show",
			 (int)(len > 200 ? 200 : len), text, at);
		return true;
	}
	/* the same word, and a move by its move, pong by its number */
	x = word(want->text, strlen(want->text), 0, &a);
	y = word(text, len, 0, &b);
	same = a == b && memcmp(x, y, a) == 0;
	if (same && (move || word_is(want->text, "pong"))) {
		x = word(want->text, strlen(want->text), 1, &a);
		y = word(text, len, 1, &b);
		same = a == b && memcmp(x, y, a) == 0;
	}
	if (!same) {
		c->diverged = true;
		snprintf(c->first, sizeof c->first,
			 "the record has '%s' (line %u), the engine answered "
			 "'%.*s' %s",
			 want->text, want->line, (int)(len > 200 ? 200 : len),
			 text, at);
	}
	return true;
}

int
fb_replay_verdict(struct fb_replay_cmp *c, bool exited, int64_t status, int sig,
		  char *out, size_t cap)
{
	const struct fb_replay *r = c->r;
	int n = 0, rc = 1;
	bool quit = c->sent > 0 && word_is(r->step[c->sent - 1].text, "quit");

	if (sig == 0 && exited)
		sig = fb_replay_signal_of(status);
	if (!c->diverged &&
	    (c->moves < c->want_moves || c->acks < c->want_acks)) {
		const struct fb_replay_answer *m = nth(r, true, c->moves);
		const struct fb_replay_answer *k = nth(r, false, c->acks);
		/* the one the record shows first */
		const struct fb_replay_answer *w =
			m == NULL || (k != NULL && k->line < m->line) ? k : m;
		c->diverged = true;
		snprintf(c->first, sizeof c->first,
			 "the record's '%s' (line %u) never came", w->text,
			 w->line);
	}
	if (c->diverged)
		n += snprintf(out + n, cap - (size_t)n,
			      "first difference: %s\n", c->first);
	else
		n += snprintf(out + n, cap - (size_t)n,
			      "the engine's %zu answers (%zu moves) are the "
			      "recorded ones\n",
			      c->got, c->moves);
	if (n < 0 || (size_t)n >= cap)
		return 1;
	if (sig != 0)
		n += snprintf(out + n, cap - (size_t)n,
			      "the engine died of %s (%d) after %zu of %zu "
			      "lines\n",
			      sig_name(sig), sig, c->sent, r->nstep);
	else if (exited && !quit)
		n += snprintf(out + n, cap - (size_t)n,
			      "the engine exited with status %lld after %zu of "
			      "%zu lines\n",
			      (long long)status, c->sent, r->nstep);
	if (n < 0 || (size_t)n >= cap)
		return 1;
	switch (r->end) {
	case FB_RP_END_SIGNAL:
		rc = sig == r->code ? 0 : 1;
		break;
	case FB_RP_END_EXIT:
		rc = exited && sig == 0 && status == r->code ? 0 : 1;
		break;
	case FB_RP_END_OTHER:
	case FB_RP_END_NONE:
		rc = !c->diverged && sig == 0 && (!exited || quit) ? 0 : 1;
		break;
	}
	snprintf(out + n, cap - (size_t)n, "%s\n",
		 rc == 0 ? (r->end == FB_RP_END_NONE ? "replayed: no divergence"
						     : "reproduced")
			 : "not reproduced");
	return rc;
}
