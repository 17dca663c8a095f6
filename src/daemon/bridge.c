/* SPDX-License-Identifier: MIT */
/*
 * The bridge's run: fb_bridge_run() sets up the session (the filter, the
 * flight recorder, both directions, the engine, the GUI's stdio) and runs
 * the loop until every handle is closed. Here too is the glue between the
 * loop and the pure session: the filter's sinks, which queue its lines and
 * bring its events to br_lifecycle(), the lines of fenbridge's own, and the
 * flight recorder's records. The other bridge_*.c files: bridge_int.h.
 */
#include "bridge.h"
#include "bridge_int.h"
#include "cause.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fb_version.h"
#include "platform.h"

/* Flight records one session may write (an engine that plays one illegal
 * move after another would fill a folder otherwise). */
#define RECORDS_MAX 3

/*
 * Writes the flight record (recorder.h) beside the log file, else beside
 * the config file, else in the temporary folder, with the session's
 * header. Returns its path, or NULL when none was written (RECORDS_MAX
 * reached, or it could not be written: logged).
 */
const char *
br_write_record(struct fb_bridge *b, const char *reason)
{
	const struct fb_config *cfg = b->cfg;
	const char *beside = cfg->log_path ? cfg->log_path : cfg->config_path;
	const struct fb_protocol *gp = fb_filter_protocol(&b->filter);
	const struct fb_protocol *ep = fb_filter_engine_protocol(&b->filter);
	const struct fb_game *g = fb_filter_game(&b->filter);
	char dir[1024], head[2048], fen[FB_GAME_FEN_MAX];
	struct fb_fen_style style = {.notation = FB_SHREDDER};
	size_t n = 0;
	int rc, k;

	if (b->records >= RECORDS_MAX)
		return NULL;
	b->records++;
	if (beside != NULL) {
		const char *sep = fb_path_last_sep(beside);
		size_t dl = sep != NULL ? (size_t)(sep - beside) + 1 : 0;
		if (dl >= sizeof dir)
			dl = 0;
		memcpy(dir, beside, dl);
		dir[dl] = '\0';
	}
	n += (size_t)snprintf(head + n, sizeof head - n,
			      "fenbridge %s; GUI protocol %s, engine protocol "
			      "%s, variant %s\nengine:",
			      FB_VERSION, gp ? gp->name : "(not known yet)",
			      ep ? ep->name : "(not known yet)",
			      fb_filter_variant(&b->filter));
	for (char **a = cfg->engine_argv; a && *a && n < sizeof head; a++)
		n += (size_t)snprintf(head + n, sizeof head - n, " %s", *a);
	k = g != NULL ? fb_game_print_fen(g, &style, fen, sizeof fen) : -1;
	if (n < sizeof head)
		snprintf(head + n, sizeof head - n,
			 "\nthe position now: %.*s\n", k > 0 ? k : 28,
			 k > 0 ? fen : "(not followed by fenbridge)");
	rc = fb_recorder_write(&b->rec, beside != NULL ? dir : NULL, reason,
			       head);
	if (rc < 0) {
		fb_log_msg(FB_LOG_WARN, "cannot write the flight record: %s",
			   uv_strerror(rc));
		return NULL;
	}
	fb_log_msg(FB_LOG_WARN, "flight record (%s) written to %s", reason,
		   b->rec.path);
	return b->rec.path;
}

/*
 * The journal's tap (--restart; b->journal is NULL without it): the bytes
 * of every line toward the engine, as fenbridge queues them (in pieces,
 * also while the engine is being started again), and every whole line from
 * the engine. Returns true for a new engine's answer to the replayed
 * handshake, which the GUI must not see.
 */
static bool
journal_tap(struct fb_bridge *b, bool to_engine, const char *p, size_t n)
{
	if (to_engine) {
		fb_journal_to_engine(b->journal, p, n, br_since_start(b));
		return false;
	}
	return fb_journal_from_engine(b->journal, p, n, br_since_start(b));
}

static void
ref_arm(struct fb_bridge *b);
static uint64_t
ref_now(const struct fb_bridge *b);

/* The protocol of the referee's wire side, as far as it is known (the
 * engine's while the probe runs: not yet; the referee holds those lines
 * and judges them once it is). */
static enum fb_referee_proto
ref_proto(const struct fb_bridge *b, enum fb_referee_side side)
{
	const struct fb_protocol *p =
		side == FB_REF_GUI ? fb_filter_protocol(&b->filter)
		: fb_filter_probing(&b->filter)
			? NULL
			: fb_filter_engine_protocol(&b->filter);

	return p == NULL                     ? FB_REF_UNKNOWN
	       : strcmp(p->name, "uci") == 0 ? FB_REF_UCI
					     : FB_REF_CECP;
}

/*
 * The referee's tap (--referee): the whole lines of text[0..len) on one
 * wire (referee.h), from its peer or sent to it; queued bytes are whole
 * lines but for an FB_LINE_CONT piece (a lone LF: skipped, as is any
 * empty line). Called only when b->ref_on.
 */
static void
wire_line(struct fb_bridge *b, enum fb_referee_side side, bool from_peer,
	  const char *text, size_t len)
{
	enum fb_referee_proto proto = ref_proto(b, side);
	const char *end = text + len;

	if (b->ref_busy)
		return;
	if (from_peer) {
		fb_referee_line(&b->ref, side, true, proto, text, len,
				ref_now(b));
		ref_arm(b);
		return;
	}
	while (text < end) {
		const char *e = text;
		while (e < end && *e != '\n' && *e != '\r')
			e++;
		if (e > text)
			fb_referee_line(&b->ref, side, false, proto, text,
					(size_t)(e - text), ref_now(b));
		if (e < end && *e == '\r')
			e++;
		if (e < end && *e == '\n')
			e++;
		text = e;
	}
	ref_arm(b);
}

/*
 * The referee's clock: the loop's, standing still while an answer's
 * deadline is extended for an engine that is slow, not silent (wait.h).
 * So an answer that comes after such an extension is in time, by the
 * time an idle machine would have taken, and the referee's findings do
 * not depend on the load.
 */
static uint64_t
ref_now(const struct fb_bridge *b)
{
	uint64_t now = uv_now(b->loop);

	return now - b->ref_held -
	       (b->ref_holding ? now - b->ref_hold_from : 0);
}

/* The clock goes on: the extension is over. */
static void
ref_release(struct fb_bridge *b)
{
	if (b->ref_holding)
		b->ref_held += uv_now(b->loop) - b->ref_hold_from;
	b->ref_holding = false;
}

/* The referee's deadline (a millisecond before it): an answer owed is late
 * (fb_referee_tick), unless the engine is slow, not silent. */
static void
on_ref_timer(uv_timer_t *t)
{
	struct fb_bridge *b = t->data;
	uint64_t at = b->ref_deadline, now;

	if (!br_wait_due(b, &b->ref_wait, t, on_ref_timer)) {
		if (!b->ref_holding)
			b->ref_hold_from = uv_now(b->loop);
		b->ref_holding = true;
		return;
	}
	ref_release(b);
	now = ref_now(b);
	b->ref_deadline = 0;
	fb_referee_tick(&b->ref, now > at ? now : at);
	ref_arm(b);
	br_outq_flush(&b->down.q);
}

/* Sets the referee's timer for its next deadline, when that changed. */
static void
ref_arm(struct fb_bridge *b)
{
	uint64_t at = b->ref_done ? 0 : fb_referee_next_deadline(&b->ref);
	uint64_t now;
	uv_timer_t *t = &b->ref_timer;

	if (at == b->ref_deadline ||
	    uv_handle_get_type((uv_handle_t *)t) == UV_UNKNOWN_HANDLE ||
	    uv_is_closing((uv_handle_t *)t))
		return;
	ref_release(b);
	now = ref_now(b);
	b->ref_deadline = at;
	if (at == 0)
		uv_timer_stop(t);
	else
		br_wait_start(b, &b->ref_wait, FB_WAIT_SILENCE, t, on_ref_timer,
			      at > now + 1 ? at - 1 - now : 1);
}

static void
queue_own_line(struct direction *d, const char *data, size_t len);

/* A finding of the referee: to the log and stderr; to the GUI once per
 * kind (an XBoard GUI opens a dialog on telluser: only in strict mode,
 * else a comment line); in strict mode the first one writes the flight
 * record. A note (said once a session, no finding) goes to the log at
 * info level, to stderr, and to the GUI as a comment only. */
static void
on_finding(void *ctx, enum fb_referee_kind kind, const char *text,
	   bool first_of_kind)
{
	struct fb_bridge *b = ctx;
	const struct fb_protocol *gp = fb_filter_protocol(&b->filter);
	bool strict = b->ref.mode == FB_REFEREE_STRICT;
	bool note = kind == FB_REF_NOTE;
	char line[1100];
	int n;

	fb_log_msg(note ? FB_LOG_INFO : FB_LOG_WARN, "referee: %s", text);
	if (note) {
		n = snprintf(line, sizeof line, "fenbridge: referee: %s\n",
			     text);
		if (n > 0)
			fb_log_stderr(line, (size_t)n < sizeof line
						    ? (size_t)n
						    : sizeof line - 1);
	} else if (strict && fb_referee_total(&b->ref) == 1) {
		(void)br_write_record(b, text);
	}
	if (!first_of_kind || gp == NULL || b->ref_done)
		return;
	n = snprintf(line, sizeof line, "%sfenbridge: referee: %s",
		     strcmp(gp->name, "uci") == 0 ? "info string "
		     : strict && !note            ? "telluser "
						  : "# ",
		     text);
	if (n < 0)
		return;
	if ((size_t)n > sizeof line - 2)
		n = (int)sizeof line - 2;
	line[n++] = '\n';
	b->ref_busy = true;
	queue_own_line(&b->down, line, (size_t)n);
	b->ref_busy = false;
	br_outq_flush(&b->down.q);
}

/* The session is over: the answers still owed, the counts; strict mode's
 * exit status 3 when the engine's own says nothing worse. */
static void
referee_end(struct fb_bridge *b)
{
	char sum[256], line[300];
	int n;

	/* Lines still held for a protocol learnt since, with no line after
	 * (the engine's last answer to the probe). */
	fb_referee_protocol(&b->ref, FB_REF_ENGINE,
			    ref_proto(b, FB_REF_ENGINE));
	fb_referee_protocol(&b->ref, FB_REF_GUI, ref_proto(b, FB_REF_GUI));
	b->ref_done = true;
	fb_referee_finish(&b->ref, ref_now(b));
	fb_referee_summary(&b->ref, sum, sizeof sum);
	/* Not a warning in the log (a clean session has none), but on
	 * stderr too, as each finding. */
	fb_log_msg(FB_LOG_INFO, "referee: summary: %s", sum);
	n = snprintf(line, sizeof line, "fenbridge: referee: summary: %s\n",
		     sum);
	if (n > 0 && (size_t)n < sizeof line)
		fb_log_stderr(line, (size_t)n);
	if (b->ref.mode == FB_REFEREE_STRICT && fb_referee_total(&b->ref) > 0 &&
	    b->exit_code == 0)
		b->exit_code = 3;
}

static void
sink_emit(void *ctx, const char *data, size_t len)
{
	struct direction *d = ctx;
	br_outq_append(&d->q, data, len);
}

/* sink_emit toward the engine with --restart (installed only then: the
 * relay without it tests nothing). */
static void
sink_emit_journal(void *ctx, const char *data, size_t len)
{
	struct direction *d = ctx;

	journal_tap(d->b, true, data, len);
	sink_emit(ctx, data, len);
}

static void
sink_report(void *ctx, enum fb_level level, const char *msg)
{
	struct direction *d = ctx;
	struct fb_bridge *b = d->b;
	const struct fb_protocol *gp;
	const char *path;
	char line[1200];
	int n;

	fb_log_msg(level, "%s %s",
		   d->to_engine ? "GUI line:" : "engine line:", msg);
	if (level < FB_LOG_ERROR)
		return;
	/* Something went wrong in the session (an illegal move, an engine
	 * that does not answer): keep what led to it, and tell the GUI
	 * where, once. */
	n = snprintf(line, sizeof line, "%s\n", msg);
	if (n > 0)
		fb_recorder_add(&b->rec, FB_REC_NOTE, br_since_start(b), line,
				(size_t)n < sizeof line ? (size_t)n
							: sizeof line - 1);
	if ((path = br_write_record(b, msg)) == NULL || b->records > 1 ||
	    (gp = fb_filter_protocol(&b->filter)) == NULL)
		return;
	n = snprintf(line, sizeof line,
		     "%sfenbridge: flight record written "
		     "to %s\n",
		     gp->user_message, path);
	if (n > 0 && (size_t)n < sizeof line)
		queue_own_line(&b->down, line, (size_t)n);
}

/* Logs the queued bytes from..q->len as lines tagged d->out_tag. */
void
br_log_queued(struct direction *d, size_t from)
{
	const char *p = d->q.buf + from, *end = d->q.buf + d->q.len;

	while (p < end) {
		const char *e = p;
		while (e < end && *e != '\n' && *e != '\r')
			e++;
		fb_log_line(d->out_tag, p, (size_t)(e - p));
		if (e < end && *e == '\r')
			e++;
		if (e < end && *e == '\n')
			e++;
		p = e;
	}
}

/* Keeps the lines queued from `from` on in the flight recorder, as what
 * d's peer is sent. */
static void
record_queued(struct direction *d, size_t from)
{
	fb_recorder_add(&d->b->rec,
			d->to_engine ? FB_REC_TO_ENGINE : FB_REC_TO_GUI,
			br_since_start(d->b), d->q.buf + from, d->q.len - from);
}

/*
 * Queues whole lines of fenbridge's own toward d's peer. The line start also
 * covers bytes already written: a half line the peer has got is ended first.
 */
static void
queue_own_line(struct direction *d, const char *data, size_t len)
{
	size_t before = d->q.len;

	if (d->b->journal != NULL && d == &d->b->up) {
		if (!br_outq_at_line_start(&d->q))
			journal_tap(d->b, true, "\n", 1);
		journal_tap(d->b, true, data, len);
	}
	if (!br_outq_at_line_start(&d->q))
		br_outq_append(&d->q, "\n", 1);
	br_outq_append(&d->q, data, len);
	record_queued(d, before);
	if (fb_log_enabled())
		br_log_queued(d, before);
	if (d->b->ref_on && !d->filtering) /* else br_on_line shows it */
		wire_line(d->b, d->to_engine ? FB_REF_ENGINE : FB_REF_GUI,
			  false, d->q.buf + before, d->q.len - before);
}

/* Lines of fenbridge's own toward the other side than d's peer. */
static void
sink_reply(void *ctx, const char *data, size_t len)
{
	struct direction *d = ctx;
	struct direction *back = d == &d->b->up ? &d->b->down : &d->b->up;

	queue_own_line(back, data, len);
	br_outq_flush(&back->q);
}

/* The engine's bytes the filter held, toward the GUI, as they came. */
static void
sink_pass(void *ctx, const char *data, size_t len)
{
	struct direction *d = ctx;
	struct direction *back = &d->b->down;
	size_t before = back->q.len;

	br_outq_append(&back->q, data, len);
	if (back->logging && !back->q.dead)
		br_log_queued(back, before);
	if (d->b->ref_on)
		wire_line(d->b, FB_REF_GUI, false, data, len);
	br_outq_flush(&back->q);
	back->ref_mark = back->q.len; /* the flush moved what was queued */
}

void
br_on_line(void *ctx, const char *text, size_t len, size_t term, unsigned flags)
{
	struct direction *d = ctx;
	struct fb_bridge *b = d->b;
	size_t before;

	if (d->logging && !(flags & FB_LINE_CONT))
		fb_log_line(d->in_tag, text, len);
	if (b->journal != NULL && !d->to_engine && flags == 0 &&
	    journal_tap(b, false, text, len)) {
		fb_log_msg(FB_LOG_DEBUG, "the new engine's answer to the "
					 "replayed handshake: not for the GUI");
		return;
	}
	/* First the line as read (a finding goes to the GUI before the line
	 * that caused it), then what the filter queued toward the peer. */
	if (b->ref_on && !(flags & (FB_LINE_CONT | FB_LINE_RAW)))
		wire_line(b, d->to_engine ? FB_REF_GUI : FB_REF_ENGINE, true,
			  text, len);
	before = d->ref_mark = d->q.len;
	d->filtering = true;
	if (d->to_engine)
		fb_filter_gui_line(&b->filter, text, len, term, flags,
				   &d->sink);
	else
		fb_filter_engine_line(&b->filter, text, len, term, flags,
				      &d->sink);
	d->filtering = false;
	if (b->ref_on && d->ref_mark <= d->q.len)
		wire_line(b, d->to_engine ? FB_REF_ENGINE : FB_REF_GUI, false,
			  d->q.buf + d->ref_mark, d->q.len - d->ref_mark);
	/* What the engine got, every line of it (as it came, rewritten,
	 * held, or lines of fenbridge's own): the record holds the engine's
	 * side of the wire whole, for `fenbridge replay`. The GUI mostly gets
	 * the engine's lines as they came: those are kept as read. */
	if (d->to_engine)
		record_queued(d, before);
	if (d->logging && !(flags & FB_LINE_CONT) && !d->q.dead)
		br_log_queued(d, before);
}

void
br_on_engine_line(void *ctx, const char *text, size_t len, size_t term,
		  unsigned flags)
{
	struct direction *d = ctx;

	/* An engine's flood of lines toward the GUI: nothing is recorded
	 * per line, and without logging nothing is read back from the
	 * queue, so the line goes to the filter and that is all (the
	 * journal of --restart and the referee read each line: br_on_line). */
	if (d->logging || d->b->journal != NULL || d->b->ref_on)
		br_on_line(ctx, text, len, term, flags);
	else
		fb_filter_engine_line(&d->b->filter, text, len, term, flags,
				      &d->sink);
}

void
br_filter_up(struct fb_bridge *b,
	     void (*run)(struct fb_filter *f, const struct fb_sink *out))
{
	struct direction *d = &b->up;
	size_t before = d->q.len;

	d->filtering = true;
	run(&b->filter, &d->sink);
	d->filtering = false;
	if (b->ref_on)
		wire_line(b, FB_REF_ENGINE, false, d->q.buf + before,
			  d->q.len - before);
	record_queued(d, before);
	if (d->logging && !d->q.dead)
		br_log_queued(d, before);
}

static void
on_filter_timer(uv_timer_t *t)
{
	struct fb_bridge *b = t->data;

	if (!br_wait_due(b, &b->filter_wait, t, on_filter_timer))
		return; /* slow, not silent */
	br_filter_up(b, fb_filter_timeout);
	br_outq_flush(&b->up.q);
	br_outq_flush(&b->down.q);
}

/* The filter's timer: a deadline for the engine's answer (the probe, the
 * hold for uciok, a nudge, ...), or for the GUI's clock (wall), or, under
 * NOW_MS, "go on from the timer": wall time too. */
#define NOW_MS 50
static void
filter_timer(struct direction *d, enum fb_wait_kind kind, unsigned ms)
{
	struct fb_bridge *b = d->b;
	uv_timer_t *t = &b->filter_timer;

	if (uv_is_closing((uv_handle_t *)t))
		return;
	if (ms == 0) {
		uv_timer_stop(t);
		return;
	}
	br_wait_start(b, &b->filter_wait, ms < NOW_MS ? FB_WAIT_WALL : kind, t,
		      on_filter_timer, ms);
}

static void
sink_timer(void *ctx, unsigned ms)
{
	filter_timer(ctx, FB_WAIT_SILENCE, ms);
}

static void
sink_deadline(void *ctx, unsigned ms)
{
	filter_timer(ctx, FB_WAIT_WALL, ms);
}

static void
sink_event(void *ctx, enum fb_event ev)
{
	struct direction *d = ctx;

	if (ev == FB_EVENT_GUI_QUIT && d->to_engine)
		br_lifecycle(d->b, FB_EV_GUI_QUIT, 0);
	else if (ev == FB_EVENT_RESTART)
		d->b->restart = true;
	else if (ev == FB_EVENT_GUI_DONE)
		br_lifecycle(d->b, FB_EV_GUI_DONE, 0);
}

/* Queues a line of fenbridge's own, starting a new line if needed. */
void
br_inject(struct direction *d, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof buf - 2)
		n = (int)sizeof buf - 2;
	buf[n++] = '\n';
	queue_own_line(d, buf, (size_t)n);
}

/* What the engine's end was, for the log and the GUI. */
/* The engine's end in a few words (cause.c): "died of SIGSEGV (11)". */
static void
exit_what(const struct fb_bridge *b, char *what, size_t n)
{
	struct fb_cause c = {.os = FB_CAUSE_HOST,
			     .status = b->exit_status,
			     .signal = b->term_signal};

	fb_cause_what(&c, what, n);
}

/* An engine that died of an illegal instruction (a build for a newer CPU)
 * would only die the same way again: its end is told instead. */
static bool
dies_again(const struct fb_bridge *b)
{
	struct fb_cause c = {.os = FB_CAUSE_HOST,
			     .status = b->exit_status,
			     .signal = b->term_signal};

	return fb_cause_is_illegal_instruction(&c);
}

bool
br_may_restart(const struct fb_bridge *b)
{
	return b->journal != NULL &&
	       (b->state == FB_ST_RUNNING || b->state == FB_ST_FINISHING) &&
	       !b->quiet_end && !b->filter.gui_quit &&
	       !fb_filter_probing(&b->filter) &&
	       fb_filter_engine_protocol(&b->filter) != NULL &&
	       fb_journal_restarts(b->journal) < b->cfg->restarts &&
	       !dies_again(b);
}

void
br_restart_note(struct fb_bridge *b)
{
	char what[64], reason[96];
	unsigned k = fb_journal_restarts(b->journal) + 1;

	exit_what(b, what, sizeof what);
	fb_log_msg(FB_LOG_WARN,
		   "the engine %s mid-game; starting it again "
		   "(%u of %u this game)",
		   what, k, b->cfg->restarts);
	snprintf(reason, sizeof reason, "the engine %s", what);
	br_write_record(b, reason);
	b->replay = true;
}

static void
replay_line(void *ctx, const char *line, size_t len)
{
	br_outq_append(&((struct direction *)ctx)->q, line, len);
}

void
br_replay(struct fb_bridge *b)
{
	const struct fb_protocol *gp = fb_filter_protocol(&b->filter);
	bool uci = fb_filter_engine_protocol(&b->filter) == &fb_protocol_uci;
	size_t before = b->up.q.len;
	char what[64];

	b->replay = false;
	if (!fb_journal_replay(b->journal, uci, br_since_start(b), replay_line,
			       &b->up))
		fb_log_msg(FB_LOG_ERROR, "out of memory: the engine's replay "
					 "misses lines");
	record_queued(&b->up, before);
	if (b->up.logging)
		br_log_queued(&b->up, before);
	if (b->told_restart || gp == NULL)
		return;
	/* Once a session: the user should know the engine is unstable. An
	 * XBoard GUI's telluser is a note, tellusererror an error. */
	b->told_restart = true;
	exit_what(b, what, sizeof what);
	br_inject(&b->down, "%sfenbridge: the engine %s; restarted (%u of %u)",
		  gp == &fb_protocol_xboard ? "telluser " : gp->user_message,
		  what, fb_journal_restarts(b->journal), b->cfg->restarts);
}

static void
direction_init(struct fb_bridge *b, struct direction *d, struct endpoint *src,
	       struct endpoint *dst, bool to_engine)
{
	d->b = b;
	d->src = src;
	d->to_engine = to_engine;
	d->q.ep = dst;
	d->q.last = '\n';
	d->in_tag = to_engine ? FB_TAG_GUI_IN : FB_TAG_ENGINE_IN;
	d->out_tag = to_engine ? FB_TAG_ENGINE_OUT : FB_TAG_GUI_OUT;
	/* The line being filtered goes on in pieces on its own direction's
	 * queue; fenbridge's own lines toward the other side go whole. */
	d->sink.to_engine = to_engine ? sink_emit : sink_reply;
	if (to_engine && b->journal != NULL)
		d->sink.to_engine = sink_emit_journal;
	d->sink.to_gui = to_engine ? sink_reply : sink_emit;
	d->sink.pass = sink_pass;
	d->sink.report = sink_report;
	d->sink.event = sink_event;
	d->sink.timer = sink_timer;
	d->sink.deadline = sink_deadline;
	d->sink.ctx = d;
	d->logging = fb_log_enabled();
	d->sink.min_level = d->logging ? FB_LOG_DEBUG : FB_LOG_WARN;
	fb_line_init(&d->framer, FB_LINE_DEFAULT_MAX);
	src->dir = d;
}

static void
free_all(struct fb_bridge *b)
{
	free(b->env);
	struct direction *dirs[2] = {&b->up, &b->down};
	for (int i = 0; i < 2; i++) {
		free(dirs[i]->q.buf);
		free(dirs[i]->q.wbuf);
		fb_line_free(&dirs[i]->framer);
	}
	fb_line_free(&b->err_framer);
	fb_filter_free(&b->filter);
	fb_journal_free(b->journal);
	fb_recorder_free(&b->rec);
	free(b->gui_in.rbuf);
	free(b->eng_out.rbuf);
	free(b->eng_err.rbuf);
}

static void
log_handle(uv_handle_t *h, void *arg)
{
	(void)arg;
	fb_log_msg(FB_LOG_ERROR, "left open: %s handle%s",
		   uv_handle_type_name(uv_handle_get_type(h)),
		   uv_is_closing(h) ? " (closing)" : "");
}

/* The session filter's options, from the configuration. */
static void
filter_options(const struct fb_config *cfg, struct fb_filter_options *fopt)
{
	memset(fopt, 0, sizeof *fopt);
	fopt->proto = fb_protocol_find(cfg->protocol);
	fopt->engine_proto = fb_protocol_find(cfg->engine_protocol);
	fopt->engine_probe = strcmp(cfg->engine_protocol, "auto") == 0;
	fopt->engine_fen = cfg->engine_fen;
	fopt->engine_fen_auto = cfg->engine_fen_auto;
	fopt->gui_fen = cfg->gui_fen;
	fopt->gui_castling = cfg->gui_castling;
	fopt->engine_castling = cfg->engine_castling;
	fopt->options = cfg->options;
	fopt->noptions = cfg->noptions;
	fopt->name = cfg->name;
	fopt->normalize = cfg->normalize;
}

/* The readers of the wire beside the filter: the journal (--restart), the
 * referee, the flight recorder. A journal or recorder that cannot be had
 * costs its feature, not the session. */
static void
watchers_init(struct fb_bridge *b)
{
	const struct fb_config *cfg = b->cfg;

	if (cfg->restarts > 0 && (b->journal = fb_journal_new()) == NULL)
		fb_log_msg(FB_LOG_WARN, "out of memory: no --restart");
	if ((b->ref_on = cfg->referee != FB_REFEREE_OFF))
		fb_referee_init(&b->ref, (enum fb_referee_mode)cfg->referee,
				on_finding, b);
	if (!fb_recorder_init(&b->rec))
		fb_log_msg(FB_LOG_WARN, "out of memory: no flight recorder");
}

/* The bridge's own handles, the engine, the GUI's stdio, and reading. An
 * engine that cannot be started ends the session at once (why says why,
 * the exit code is 127 or 126). */
static void
start(struct fb_bridge *b, char *why, size_t whylen)
{
	int rc;

	if ((rc = br_own_handles_init(b)) < 0) {
		/* Without them the grace period or signals would not work:
		 * start no engine. */
		br_close_own_handles(b);
		b->state = FB_ST_DONE;
		return;
	}
	if ((rc = br_spawn_engine(b)) < 0 && b->state == FB_ST_STARTING) {
		snprintf(why, whylen, "cannot start engine '%s': %s",
			 b->cfg->engine_argv[0], uv_strerror(rc));
		fb_log_msg(FB_LOG_ERROR, "%s", why);
		b->exit_code = rc == UV_ENOENT ? 127 : 126;
		br_close_own_handles(b);
		b->state = FB_ST_DONE;
		return;
	}
	if (rc < 0)
		fb_log_msg(FB_LOG_ERROR, "engine pipes: %s", uv_strerror(rc));
	if ((rc = br_endpoint_open(b, &b->gui_in, "GUI's stdin", STDIN_FILENO,
				   true)) < 0)
		fb_log_msg(FB_LOG_ERROR, "stdin: %s", uv_strerror(rc));
	if ((rc = br_endpoint_open(b, &b->gui_out, "GUI's stdout",
				   STDOUT_FILENO, false)) < 0)
		fb_log_msg(FB_LOG_ERROR, "stdout: %s", uv_strerror(rc));
	/* The GUI's and the engine's bytes are read into the flight
	 * recorder's rings; the engine's stderr is copied there. */
	b->gui_in.rec_ring = FB_REC_RING_GUI;
	b->eng_out.rec_ring = FB_REC_RING_ENGINE;
	br_start_reading(&b->eng_out);
	br_start_reading(&b->eng_err);
	br_start_reading(&b->gui_in);
}

int
fb_bridge_run(const struct fb_config *cfg, char *why, size_t whylen)
{
	/* Static: a read of the GUI's stdin left running at the end (see
	 * advance() in bridge_lifecycle.c) may still complete into them
	 * until the process exits. */
	static struct fb_bridge bridge;
	static uv_loop_t loop;
	struct fb_bridge *b = &bridge;
	struct fb_filter_options fopt;
	int alive, rc;

	memset(b, 0, sizeof *b);
	b->cfg = cfg;
	b->exit_code = 1;
	b->state = FB_ST_STARTING;
	why[0] = '\0';
	if (cfg->nenv > 0 && (b->env = br_engine_env(cfg)) == NULL) {
		fb_log_msg(FB_LOG_ERROR, "out of memory");
		return 1;
	}
	if ((rc = uv_loop_init(&loop)) < 0) {
		fb_log_msg(FB_LOG_ERROR, "uv_loop_init: %s", uv_strerror(rc));
		free(b->env);
		return 1;
	}
	b->loop = &loop;
	b->t0 = uv_now(&loop);
	filter_options(cfg, &fopt);
	fb_filter_init(&b->filter, &fopt);
	watchers_init(b);
	fb_line_init(&b->err_framer, FB_LINE_DEFAULT_MAX);
	direction_init(b, &b->up, &b->gui_in, &b->eng_in, true);
	direction_init(b, &b->down, &b->eng_out, &b->gui_out, false);
	start(b, why, whylen);
	/* Returns once every handle is closed: the session is over; or at
	 * uv_stop in advance() (bridge_lifecycle.c), and then again if the
	 * GUI's read has ended meanwhile, so that the closes still under way
	 * finish. */
	do
		alive = uv_run(&loop, UV_RUN_DEFAULT);
	while (alive != 0 && b->state == FB_ST_DONE && !b->gui_in.fs_pending);
	if (b->ref_on)
		referee_end(b);
	if (b->gui_in.fs_pending) {
		/* The loop, the request and its buffer stay: the process
		 * ends, and the blocked read with it. */
		fb_log_msg(FB_LOG_DEBUG, "session done; the GUI's stdin is "
					 "still open: not waiting for it");
		return b->exit_code;
	}
	if (alive != 0 || b->state != FB_ST_DONE)
		fb_log_msg(FB_LOG_ERROR, "the loop ended in state %s",
			   br_state_name[b->state]);
	rc = uv_loop_close(&loop);
	if (rc < 0) {
		fb_log_msg(FB_LOG_ERROR,
			   "uv_loop_close: %s (a handle was left "
			   "open)",
			   uv_strerror(rc));
		uv_walk(&loop, log_handle, NULL);
	}
	free_all(b);
	return b->exit_code;
}
