/* SPDX-License-Identifier: MIT */
/*
 * The session (session.h): the filter, the referee and the journal on one
 * wire, the restarts, and the wording of fenbridge's own lines to the GUI.
 *
 * Every byte toward a side goes through emit(), which shows it to the
 * journal (toward the engine) and the referee, then hands it to the
 * bridge. The referee sees each line read before what it causes (so a
 * finding reaches the GUI before the line that caused it), and what goes
 * toward the line's peer once the line is through (the bytes are whole
 * lines then).
 */
#include "session.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenbridge/line.h"
#include "journal.h"
#include "referee.h"

/* The filter's sink for one direction: a GUI line's (and the steps' that
 * send toward the engine as one does), or an engine line's. */
struct sess_dir {
	struct fb_session *s;
	enum fb_session_side peer; /* where its line goes */
	struct fb_sink sink;
};

struct fb_session {
	struct fb_session_options opt;
	struct fb_session_io io;
	struct fb_filter filter;
	struct sess_dir dir[2]; /* by the side the line comes from: 0 GUI */
	/* --restart: the journal of the engine wire (NULL without it). */
	struct fb_journal *journal;
	/* The side a call is filling with FB_OUT_LINE (its bytes are shown
	 * to the referee once the call is through), or -1. */
	int in_line;
	/* The last byte sent toward each side ('\n' at the start). */
	char last[2];
	/* The filter asked for the engine to be started again (the probe);
	 * --restart's replay is due; the GUI was told of a restart. */
	bool restart, replay, told_restart;
	char what[64]; /* how the engine ended, for the GUI */
	bool watch;    /* journal or referee: engine lines need more */
	/* --referee: on, its own lines being sent (not shown to it), over;
	 * the bytes toward in_line not shown yet; its alarm as set. */
	bool ref_on, ref_busy, ref_done;
	char *pend;
	size_t plen, pcap;
	uint64_t alarm;
	struct fb_referee ref;
};

enum { FROM_GUI, FROM_ENGINE };

static void
logmsg(struct fb_session *s, enum fb_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
logmsg(struct fb_session *s, enum fb_level level, const char *fmt, ...)
{
	char msg[1200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	s->io.log(s->io.ctx, level, msg);
}

/* ---- the referee ---- */

static uint64_t
ref_now(struct fb_session *s)
{
	return s->io.now(s->io.ctx, FB_CLOCK_JUDGE);
}

/* The protocol of the referee's wire side, as far as it is known (the
 * engine's while the probe runs: not yet; the referee holds those lines
 * and judges them once it is). */
static enum fb_referee_proto
ref_proto(const struct fb_session *s, enum fb_referee_side side)
{
	const struct fb_protocol *p =
		side == FB_REF_GUI ? fb_filter_protocol(&s->filter)
		: fb_filter_probing(&s->filter)
			? NULL
			: fb_filter_engine_protocol(&s->filter);

	return p == NULL               ? FB_REF_UNKNOWN
	       : p == &fb_protocol_uci ? FB_REF_UCI
				       : FB_REF_CECP;
}

/* Tells the bridge the referee's next deadline, when that changed. */
static void
ref_arm(struct fb_session *s)
{
	uint64_t at = s->ref_done ? 0 : fb_referee_next_deadline(&s->ref);

	if (at == s->alarm || s->io.alarm == NULL)
		return;
	s->alarm = at;
	s->io.alarm(s->io.ctx, at);
}

/*
 * The whole lines of text[0..len) on one wire (referee.h), from its peer or
 * sent to it; bytes sent are whole lines but for an FB_LINE_CONT piece (a
 * lone LF: skipped, as is any empty line).
 */
static void
judge(struct fb_session *s, enum fb_referee_side side, bool from_peer,
      const char *text, size_t len)
{
	enum fb_referee_proto proto = ref_proto(s, side);
	const char *end = text + len;

	if (from_peer) {
		fb_referee_line(&s->ref, side, true, proto, text, len,
				ref_now(s));
		ref_arm(s);
		return;
	}
	while (text < end) {
		const char *e = memchr(text, '\n', (size_t)(end - text));
		const char *cr =
			memchr(text, '\r', (size_t)((e ? e : end) - text));
		e = cr != NULL ? cr : e != NULL ? e : end;
		if (e > text)
			fb_referee_line(&s->ref, side, false, proto, text,
					(size_t)(e - text), ref_now(s));
		if (e < end && *e == '\r')
			e++;
		if (e < end && *e == '\n')
			e++;
		text = e;
	}
	ref_arm(s);
}

static enum fb_referee_side
ref_side(enum fb_session_side to)
{
	return to == FB_SIDE_ENGINE ? FB_REF_ENGINE : FB_REF_GUI;
}

/* The bytes sent toward in_line during the call: to the referee. */
static void
judge_pending(struct fb_session *s)
{
	size_t n = s->plen;

	if (s->in_line < 0 || n == 0)
		return;
	s->plen = 0;
	judge(s, ref_side((enum fb_session_side)s->in_line), false, s->pend, n);
}

/* ---- bytes out ---- */

/* Bytes sent toward a side, for the referee: those toward the side a call
 * fills wait until it is through (the line whole); the others are judged
 * now, the engine's held bytes after what came before them. */
static void
judge_out(struct fb_session *s, enum fb_session_side to, const char *p,
	  size_t n, enum fb_session_out how)
{
	if (how == FB_OUT_PASS && (int)to == s->in_line)
		judge_pending(s);
	if ((int)to != s->in_line || how == FB_OUT_PASS) {
		judge(s, ref_side(to), false, p, n);
		return;
	}
	if (s->plen + n > s->pcap) {
		size_t cap = s->pcap * 2 > s->plen + n ? s->pcap * 2
						       : s->plen + n + 256;
		char *q = realloc(s->pend, cap);
		if (q == NULL)
			return; /* not judged: the referee holds no line */
		s->pend = q;
		s->pcap = cap;
	}
	memcpy(s->pend + s->plen, p, n);
	s->plen += n;
}

/* Bytes toward a side: to the journal, to the bridge, to the referee.
 * Inline: it runs for every line. */
static inline void
emit(struct fb_session *s, enum fb_session_side to, const char *p, size_t n,
     enum fb_session_out how)
{
	if (n == 0)
		return;
	if (s->journal != NULL && to == FB_SIDE_ENGINE)
		fb_journal_to_engine(s->journal, p, n,
				     s->io.now(s->io.ctx, FB_CLOCK_WALL));
	if (!s->io.out(s->io.ctx, to, p, n, how))
		return;
	s->last[to] = p[n - 1];
	if (s->ref_on && !s->ref_busy)
		judge_out(s, to, p, n, how);
}

/* A whole line of fenbridge's own toward a side: a half line the peer has
 * got is ended first. */
static void
own_line(struct fb_session *s, enum fb_session_side to, const char *p, size_t n)
{
	if (s->last[to] != '\n' && s->last[to] != '\r')
		emit(s, to, "\n", 1, FB_OUT_OWN);
	emit(s, to, p, n, FB_OUT_OWN);
}

static bool
vsay(struct fb_session *s, enum fb_say level, const char *fmt, va_list ap)
{
	const struct fb_protocol *gp = fb_filter_protocol(&s->filter);
	char line[1200];
	int n, k;

	if (gp == NULL)
		return false;
	n = snprintf(line, sizeof line,
		     "%sfenbridge: ", fb_protocol_prefix(gp, level));
	if (n < 0 || (size_t)n >= sizeof line)
		return false;
	k = vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	if (k < 0)
		return false;
	n += k;
	if ((size_t)n > sizeof line - 2)
		n = (int)sizeof line - 2;
	line[n++] = '\n';
	own_line(s, FB_SIDE_GUI, line, (size_t)n);
	return true;
}

bool
fb_session_say(struct fb_session *s, enum fb_say level, const char *fmt, ...)
{
	va_list ap;
	bool said;

	va_start(ap, fmt);
	said = vsay(s, level, fmt, ap);
	va_end(ap);
	return said;
}

bool
fb_session_can_say(const struct fb_session *s)
{
	return fb_filter_protocol(&s->filter) != NULL;
}

/* ---- the filter's sink ---- */

/* Bytes of the filter toward a side: the line's own way on, or a line of
 * fenbridge's own. */
static void
sink_to(struct sess_dir *d, enum fb_session_side to, const char *data,
	size_t len)
{
	if (d->peer == to)
		emit(d->s, to, data, len, FB_OUT_LINE);
	else
		own_line(d->s, to, data, len);
}

static void
sink_gui(void *ctx, const char *data, size_t len)
{
	sink_to(ctx, FB_SIDE_GUI, data, len);
}

static void
sink_engine(void *ctx, const char *data, size_t len)
{
	sink_to(ctx, FB_SIDE_ENGINE, data, len);
}

/* The line's own way on when nothing but the filter reads the wire (no
 * journal, no referee): the flood's path (the engine's info lines), as
 * short as it can be. The last byte is kept before the call, which is then
 * the last thing done: a side gone takes no bytes, and needs no line
 * start. */
static inline void
flood(struct fb_session *s, enum fb_session_side to, const char *data,
      size_t len)
{
	if (len > 0) {
		s->last[to] = data[len - 1];
		(void)s->io.out(s->io.ctx, to, data, len, FB_OUT_LINE);
	}
}

static void
sink_gui_flood(void *ctx, const char *data, size_t len)
{
	flood(((struct sess_dir *)ctx)->s, FB_SIDE_GUI, data, len);
}

static void
sink_engine_flood(void *ctx, const char *data, size_t len)
{
	flood(((struct sess_dir *)ctx)->s, FB_SIDE_ENGINE, data, len);
}

static void
sink_pass(void *ctx, const char *data, size_t len)
{
	struct sess_dir *d = ctx;

	emit(d->s, FB_SIDE_GUI, data, len, FB_OUT_PASS);
}

/* A diagnostic of the filter: to the log; an error also writes the flight
 * record (with it as a note), and the GUI is told where, once. */
static void
sink_report(void *ctx, enum fb_level level, const char *msg)
{
	struct sess_dir *d = ctx;
	struct fb_session *s = d->s;
	const char *path;
	bool first = false;

	logmsg(s, level, "%s %s",
	       d->peer == FB_SIDE_ENGINE ? "GUI line:" : "engine line:", msg);
	if (level < FB_LOG_ERROR)
		return;
	/* Something went wrong in the session (an illegal move, an engine
	 * that does not answer): keep what led to it. */
	path = s->io.record(s->io.ctx, msg, true, &first);
	if (path != NULL && first)
		fb_session_say(s, FB_SAY_ERROR, "flight record written to %s",
			       path);
}

static void
sink_event(void *ctx, enum fb_event ev)
{
	struct sess_dir *d = ctx;
	struct fb_session *s = d->s;

	if (ev == FB_EVENT_GUI_QUIT && d->peer == FB_SIDE_ENGINE)
		s->io.event(s->io.ctx, FB_SESSION_GUI_QUIT);
	else if (ev == FB_EVENT_RESTART)
		s->restart = true;
	else if (ev == FB_EVENT_GUI_DONE)
		s->io.event(s->io.ctx, FB_SESSION_GUI_DONE);
}

static void
sink_timer(void *ctx, unsigned ms)
{
	struct fb_session *s = ((struct sess_dir *)ctx)->s;

	s->io.timer(s->io.ctx, true, ms);
}

static void
sink_deadline(void *ctx, unsigned ms)
{
	struct fb_session *s = ((struct sess_dir *)ctx)->s;

	s->io.timer(s->io.ctx, false, ms);
}

/* ---- the referee's findings ---- */

/* A finding of the referee: to the log (and stderr); to the GUI once per
 * kind (an XBoard GUI opens a dialog on a warning: only in strict mode,
 * else a note); in strict mode the first one writes the flight record. A
 * note (said once a session, no finding) goes to the log at info level, to
 * stderr, and to the GUI as a note only. */
static void
on_finding(void *ctx, enum fb_referee_kind kind, const char *text,
	   bool first_of_kind)
{
	struct fb_session *s = ctx;
	bool strict = s->ref.mode == FB_REFEREE_STRICT;
	bool note = kind == FB_REF_NOTE;
	bool first;
	char line[1100];
	int n;

	logmsg(s, note ? FB_LOG_INFO : FB_LOG_WARN, "referee: %s", text);
	if (note) {
		n = snprintf(line, sizeof line, "fenbridge: referee: %s\n",
			     text);
		if (n > 0)
			s->io.print(s->io.ctx, line,
				    (size_t)n < sizeof line ? (size_t)n
							    : sizeof line - 1);
	} else if (strict && fb_referee_total(&s->ref) == 1) {
		(void)s->io.record(s->io.ctx, text, false, &first);
	}
	if (!first_of_kind || s->ref_done)
		return;
	s->ref_busy = true;
	(void)fb_session_say(s, strict && !note ? FB_SAY_WARNING : FB_SAY_NOTE,
			     "referee: %s", text);
	s->ref_busy = false;
}

/* ---- lines ---- */

static void
dir_init(struct fb_session *s, int from)
{
	struct sess_dir *d = &s->dir[from];

	d->s = s;
	d->peer = from == FROM_GUI ? FB_SIDE_ENGINE : FB_SIDE_GUI;
	d->sink.to_gui = sink_gui;
	d->sink.to_engine = sink_engine;
	d->sink.pass = sink_pass;
	d->sink.report = sink_report;
	d->sink.event = sink_event;
	d->sink.timer = sink_timer;
	d->sink.deadline = sink_deadline;
	d->sink.ctx = d;
	d->sink.min_level = s->opt.level;
}

struct fb_session *
fb_session_new(const struct fb_session_options *opt,
	       const struct fb_session_io *io)
{
	struct fb_session *s = calloc(1, sizeof *s);
	struct fb_filter_options fopt = {0};

	if (s == NULL)
		return NULL;
	s->opt = *opt;
	s->io = *io;
	s->in_line = -1;
	s->last[0] = s->last[1] = '\n';
	fopt.proto = opt->protocol ? fb_protocol_find(opt->protocol) : NULL;
	fopt.engine_probe = opt->engine_protocol != NULL &&
			    strcmp(opt->engine_protocol, "auto") == 0;
	fopt.engine_proto = opt->engine_protocol
				    ? fb_protocol_find(opt->engine_protocol)
				    : NULL;
	fopt.engine_fen = opt->engine_fen;
	fopt.engine_fen_auto = opt->engine_fen_auto;
	fopt.gui_fen = opt->gui_fen;
	fopt.gui_castling = opt->gui_castling;
	fopt.engine_castling = opt->engine_castling;
	fopt.options = opt->options;
	fopt.noptions = opt->noptions;
	fopt.name = opt->name;
	fopt.normalize = opt->normalize;
	fb_filter_init(&s->filter, &fopt);
	dir_init(s, FROM_GUI);
	dir_init(s, FROM_ENGINE);
	if (opt->restarts > 0 && (s->journal = fb_journal_new()) == NULL)
		logmsg(s, FB_LOG_WARN, "out of memory: no --restart");
	if ((s->ref_on = opt->referee != FB_REFEREE_OFF))
		fb_referee_init(&s->ref, (enum fb_referee_mode)opt->referee,
				on_finding, s);
	s->watch = s->journal != NULL || s->ref_on;
	if (!s->watch) {
		s->dir[FROM_GUI].sink.to_engine = sink_engine_flood;
		s->dir[FROM_ENGINE].sink.to_gui = sink_gui_flood;
	}
	return s;
}

void
fb_session_free(struct fb_session *s)
{
	if (s == NULL)
		return;
	fb_filter_free(&s->filter);
	fb_journal_free(s->journal);
	free(s->pend);
	free(s);
}

/* Begins a call that fills side `to` with FB_OUT_LINE; returns what
 * line_end restores (a step may run inside another: the GUI's EOF ends
 * the session at once). */
static int
line_begin(struct fb_session *s, enum fb_session_side to)
{
	int was = s->in_line;

	if (s->ref_on)
		judge_pending(s);
	s->in_line = (int)to;
	return was;
}

static void
line_end(struct fb_session *s, int was)
{
	if (s->ref_on)
		judge_pending(s);
	s->in_line = was;
}

/* A GUI line with the referee on. Not inlined: the relay's path stays
 * short. */
static void __attribute__((noinline))
judged_gui_line(struct fb_session *s, const char *text, size_t len, size_t term,
		unsigned flags)
{
	int was;

	/* First the line as read (a finding goes to the GUI before the line
	 * that caused it), then what the filter sends toward the peer. */
	if (!(flags & (FB_LINE_CONT | FB_LINE_RAW)))
		judge(s, FB_REF_GUI, true, text, len);
	was = line_begin(s, FB_SIDE_ENGINE);
	fb_filter_gui_line(&s->filter, text, len, term, flags,
			   &s->dir[FROM_GUI].sink);
	line_end(s, was);
}

void
fb_session_gui_line(struct fb_session *s, const char *text, size_t len,
		    size_t term, unsigned flags)
{
	if (s->ref_on)
		judged_gui_line(s, text, len, term, flags);
	else
		fb_filter_gui_line(&s->filter, text, len, term, flags,
				   &s->dir[FROM_GUI].sink);
}

/* An engine line that more than the filter reads (watch). Not inlined:
 * the flood's path stays short. */
static void __attribute__((noinline))
watched_engine_line(struct fb_session *s, const char *text, size_t len,
		    size_t term, unsigned flags)
{
	int was;

	if (s->journal != NULL && flags == 0 &&
	    fb_journal_from_engine(s->journal, text, len,
				   s->io.now(s->io.ctx, FB_CLOCK_WALL))) {
		logmsg(s, FB_LOG_DEBUG,
		       "the new engine's answer to the "
		       "replayed handshake: not for the GUI");
		return;
	}
	if (s->ref_on && !(flags & (FB_LINE_CONT | FB_LINE_RAW)))
		judge(s, FB_REF_ENGINE, true, text, len);
	was = line_begin(s, FB_SIDE_GUI);
	fb_filter_engine_line(&s->filter, text, len, term, flags,
			      &s->dir[FROM_ENGINE].sink);
	line_end(s, was);
}

void
fb_session_engine_line(struct fb_session *s, const char *text, size_t len,
		       size_t term, unsigned flags)
{
	/* An engine's flood of lines toward the GUI: when nothing reads
	 * them but the filter, that is all. */
	if (s->watch)
		watched_engine_line(s, text, len, term, flags);
	else
		fb_filter_engine_line(&s->filter, text, len, term, flags,
				      &s->dir[FROM_ENGINE].sink);
}

/* ---- restarts ---- */

/* True when the engine's end may be undone (--restart): mid-game, not
 * asked for, restarts left in this game. */
static bool
may_restart(const struct fb_session *s, const struct fb_session_exit *e)
{
	return s->journal != NULL && e->running && !e->asked &&
	       !s->filter.gui_quit && !fb_filter_probing(&s->filter) &&
	       fb_filter_engine_protocol(&s->filter) != NULL &&
	       fb_journal_restarts(s->journal) < s->opt.restarts &&
	       !e->dies_again;
}

enum fb_session_action
fb_session_engine_exited(struct fb_session *s, const struct fb_session_exit *e)
{
	const struct fb_sink *up = &s->dir[FROM_GUI].sink;
	char reason[96];

	/* Before the session is decided the filter may want it started
	 * again (an engine that died of the protocol probe). A cause that
	 * answers nothing (a signal from outside, an illegal instruction)
	 * would end the new engine alike. */
	s->restart = false;
	if (e->running) {
		if (e->answers_probe)
			fb_filter_engine_exit(&s->filter, up);
		else
			fb_filter_engine_gone(&s->filter, up);
	}
	if (!s->restart && may_restart(s, e)) {
		/* --restart: the journal brings the new engine where the GUI
		 * believes the old one was. */
		logmsg(s, FB_LOG_WARN,
		       "the engine %s mid-game; starting it again "
		       "(%u of %u this game)",
		       e->what, fb_journal_restarts(s->journal) + 1,
		       s->opt.restarts);
		snprintf(reason, sizeof reason, "the engine %s", e->what);
		(void)s->io.record(s->io.ctx, reason, false, &(bool){false});
		snprintf(s->what, sizeof s->what, "%s", e->what);
		s->replay = s->restart = true;
	}
	return s->restart ? FB_SESSION_RESTART : FB_SESSION_END;
}

static void
replay_line(void *ctx, const char *line, size_t len)
{
	struct fb_session *s = ctx;

	s->io.out(s->io.ctx, FB_SIDE_ENGINE, line, len, FB_OUT_LINE);
}

/* The journal's replay for the engine started again; the GUI is told once
 * a session: its user should know the engine is unstable. */
static void
replay(struct fb_session *s)
{
	bool uci = fb_filter_engine_protocol(&s->filter) == &fb_protocol_uci;

	s->replay = false;
	if (!fb_journal_replay(s->journal, uci,
			       s->io.now(s->io.ctx, FB_CLOCK_WALL), replay_line,
			       s))
		logmsg(s, FB_LOG_ERROR,
		       "out of memory: the engine's replay "
		       "misses lines");
	if (s->told_restart || !fb_session_can_say(s))
		return;
	s->told_restart = true;
	fb_session_say(s, FB_SAY_WARNING, "the engine %s; restarted (%u of %u)",
		       s->what, fb_journal_restarts(s->journal),
		       s->opt.restarts);
}

/* ---- steps ---- */

/* The referee's alarm is due (the bridge calls a millisecond early). */
static void
judge_due(struct fb_session *s)
{
	uint64_t at = s->alarm, now = ref_now(s);

	s->alarm = 0;
	fb_referee_tick(&s->ref, now > at ? now : at);
	ref_arm(s);
}

void
fb_session_run(struct fb_session *s, enum fb_session_step step)
{
	const struct fb_sink *up = &s->dir[FROM_GUI].sink;
	int was;

	if (step == FB_STEP_JUDGE) {
		if (s->ref_on)
			judge_due(s);
		return;
	}
	was = line_begin(s, FB_SIDE_ENGINE);
	switch (step) {
	case FB_STEP_TIMEOUT:
		fb_filter_timeout(&s->filter, up);
		break;
	case FB_STEP_GUI_EOF:
		fb_filter_gui_eof(&s->filter, up);
		break;
	case FB_STEP_GUI_GONE:
		/* The held lines go to the engine, then quit (both protocols
		 * end with it) unless the GUI sent it. */
		fb_filter_gui_gone(&s->filter, up);
		if (!s->filter.gui_quit) {
			s->filter.gui_quit = true;
			own_line(s, FB_SIDE_ENGINE, "quit\n", 5);
		}
		break;
	case FB_STEP_ENGINE_STARTED:
		s->last[FB_SIDE_ENGINE] = '\n';
		if (s->replay)
			replay(s);
		else
			fb_filter_engine_started(&s->filter, up);
		break;
	case FB_STEP_JUDGE:
		break;
	}
	line_end(s, was);
}

bool
fb_session_probing(const struct fb_session *s)
{
	return fb_filter_probing(&s->filter);
}

void
fb_session_describe(const struct fb_session *s, char *out, size_t cap)
{
	const struct fb_protocol *gp = fb_filter_protocol(&s->filter);
	const struct fb_protocol *ep = fb_filter_engine_protocol(&s->filter);
	const struct fb_game *g = fb_filter_game(&s->filter);
	struct fb_fen_style style = {.notation = FB_SHREDDER};
	char fen[FB_GAME_FEN_MAX];
	size_t n = 0;
	int k;

	if (cap == 0)
		return;
	out[0] = '\0';
	n += (size_t)snprintf(out, cap,
			      "fenbridge %s; GUI protocol %s, engine protocol "
			      "%s, variant %s\nengine:",
			      s->opt.version ? s->opt.version : "",
			      gp ? gp->name : "(not known yet)",
			      ep ? ep->name : "(not known yet)",
			      fb_filter_variant(&s->filter));
	for (char *const *a = s->opt.engine_argv; a && *a && n < cap; a++)
		n += (size_t)snprintf(out + n, cap - n, " %s", *a);
	k = g != NULL ? fb_game_print_fen(g, &style, fen, sizeof fen) : -1;
	if (n < cap)
		snprintf(out + n, cap - n, "\nthe position now: %.*s\n",
			 k > 0 ? k : 28,
			 k > 0 ? fen : "(not followed by fenbridge)");
}

int
fb_session_end(struct fb_session *s)
{
	char sum[256], line[300];
	int n;

	if (!s->ref_on)
		return 0;
	/* Lines still held for a protocol learnt since, with no line after
	 * (the engine's last answer to the probe). */
	fb_referee_protocol(&s->ref, FB_REF_ENGINE,
			    ref_proto(s, FB_REF_ENGINE));
	fb_referee_protocol(&s->ref, FB_REF_GUI, ref_proto(s, FB_REF_GUI));
	s->ref_done = true;
	fb_referee_finish(&s->ref, ref_now(s));
	fb_referee_summary(&s->ref, sum, sizeof sum);
	/* Not a warning in the log (a clean session has none), but on
	 * stderr too, as each finding. */
	logmsg(s, FB_LOG_INFO, "referee: summary: %s", sum);
	n = snprintf(line, sizeof line, "fenbridge: referee: summary: %s\n",
		     sum);
	if (n > 0 && (size_t)n < sizeof line)
		s->io.print(s->io.ctx, line, (size_t)n);
	return s->ref.mode == FB_REFEREE_STRICT && fb_referee_total(&s->ref) > 0
		       ? 3
		       : 0;
}
