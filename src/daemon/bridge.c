/* SPDX-License-Identifier: MIT */
/*
 * The bridge's run: fb_bridge_run() sets up the session (protocols/
 * session.h: the filter, the referee, the journal), the flight recorder,
 * both directions, the engine and the GUI's stdio, and runs the loop until
 * every handle is closed. Here too is the glue between the loop and the
 * pure session: its io (bytes queued toward each side, its timers and
 * clocks, its events brought to br_lifecycle()) and the flight recorder's
 * records. The other bridge_*.c files: bridge_int.h.
 */
#include "bridge.h"
#include "bridge_int.h"

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
	char dir[1024], head[2048];
	int rc;

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
	fb_session_describe(b->session, head, sizeof head);
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

static void
session_alarm(void *ctx, uint64_t at);

/* The referee's deadline (a millisecond before it): an answer owed is late,
 * unless the engine is slow, not silent. */
static void
on_ref_timer(uv_timer_t *t)
{
	struct fb_bridge *b = t->data;

	if (b->ref_want != b->ref_armed) {
		/* Set for an answer given since (session_alarm): nothing to
		 * judge or to wait for; set again for the next, if any. */
		b->ref_armed = 0;
		if (b->ref_want != 0)
			session_alarm(b, b->ref_want);
		return;
	}
	if (!br_wait_due(b, &b->ref_wait, t, on_ref_timer)) {
		if (!b->ref_holding)
			b->ref_hold_from = uv_now(b->loop);
		b->ref_holding = true;
		return;
	}
	ref_release(b);
	b->ref_armed = b->ref_want = 0;
	fb_session_run(b->session, FB_STEP_JUDGE);
	br_outq_flush(&b->down.q);
}

/* The session's alarm (the referee's next deadline, on its clock). */
static void
session_alarm(void *ctx, uint64_t at)
{
	struct fb_bridge *b = ctx;
	uv_timer_t *t = &b->ref_timer;
	uint64_t now;

	b->ref_want = at;
	/* The timer set for an earlier deadline stays (unless the clock
	 * stands still for it): it fires, finds that answer given and is set
	 * again (on_ref_timer). A game's isready each ply would otherwise
	 * start a wait (a sample of the engine's CPU time) twice a ply. */
	if ((b->ref_armed != 0 && !b->ref_holding &&
	     (at == 0 || at > b->ref_armed)) ||
	    uv_handle_get_type((uv_handle_t *)t) == UV_UNKNOWN_HANDLE ||
	    uv_is_closing((uv_handle_t *)t))
		return;
	ref_release(b);
	now = ref_now(b);
	b->ref_armed = at;
	if (at == 0)
		uv_timer_stop(t);
	else
		br_wait_start(b, &b->ref_wait, FB_WAIT_SILENCE, t, on_ref_timer,
			      at > now + 1 ? at - 1 - now : 1);
}

static uint64_t
session_now(void *ctx, enum fb_session_clock clock)
{
	struct fb_bridge *b = ctx;

	return clock == FB_CLOCK_JUDGE ? ref_now(b) : br_since_start(b);
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
	if (from > d->q.len) /* a flush inside the call (the GUI's EOF) */
		from = d->q.len;
	fb_recorder_add(&d->b->rec,
			d->to_engine ? FB_REC_TO_ENGINE : FB_REC_TO_GUI,
			br_since_start(d->b), d->q.buf + from, d->q.len - from);
}

/* session_out's bytes other than a call's line (fenbridge's own lines, the
 * engine's held bytes): recorded and logged at once, unless a call fills
 * d; written at once. */
static void __attribute__((noinline))
queue_more(struct direction *d, const char *data, size_t len,
	   enum fb_session_out how)
{
	size_t before = d->q.len;

	br_outq_append(&d->q, data, len);
	if (d->filtering) {
		if (how == FB_OUT_OWN && !d->to_engine)
			record_queued(d, before);
		return;
	}
	if (how == FB_OUT_OWN)
		record_queued(d, before);
	if (d->logging)
		br_log_queued(d, before);
	br_outq_flush(&d->q);
}

/*
 * The session's bytes toward one side. Those of a call that fills d
 * (d->filtering: its line, or a step toward the engine) are recorded and
 * logged once the call is through (br_on_line, br_session_up); others go
 * at once. The flight recorder keeps every byte the engine is sent and
 * fenbridge's own lines to the GUI; the engine's lines to the GUI are in
 * its ring as read.
 */
static bool
session_out(void *ctx, enum fb_session_side to, const char *data, size_t len,
	    enum fb_session_out how)
{
	struct fb_bridge *b = ctx;
	struct direction *d = to == FB_SIDE_ENGINE ? &b->up : &b->down;

	if (d->q.dead)
		return false;
	if (how == FB_OUT_LINE)
		br_outq_append(&d->q, data, len);
	else
		queue_more(d, data, len, how);
	return true;
}

static void
session_log(void *ctx, enum fb_level level, const char *msg)
{
	(void)ctx;
	fb_log_msg(level, "%s", msg);
}

static void
session_print(void *ctx, const char *line, size_t len)
{
	(void)ctx;
	fb_log_stderr(line, len);
}

/* "Write a flight record" (with reason as a note first when asked). */
static const char *
session_record(void *ctx, const char *reason, bool note, bool *first)
{
	struct fb_bridge *b = ctx;
	const char *path;
	char line[1200];
	int n;

	if (note && (n = snprintf(line, sizeof line, "%s\n", reason)) > 0)
		fb_recorder_add(&b->rec, FB_REC_NOTE, br_since_start(b), line,
				(size_t)n < sizeof line ? (size_t)n
							: sizeof line - 1);
	path = br_write_record(b, reason);
	*first = b->records == 1;
	return path;
}

static void
session_event(void *ctx, enum fb_session_event ev)
{
	br_lifecycle(
		ctx,
		ev == FB_SESSION_GUI_QUIT ? FB_EV_GUI_QUIT : FB_EV_GUI_DONE, 0);
}

/* After a session call that filled d: what it queued, to the flight record
 * (toward the engine: every line of it, as it came, rewritten, held, or of
 * fenbridge's own, for `fenbridge replay`) and the log. A call may run in
 * another (the GUI's EOF ends the session at once): d is filled as before
 * (was). */
static void
filled(struct direction *d, size_t before, bool log, bool was)
{
	d->filtering = was;
	if (d->to_engine)
		record_queued(d, before);
	if (log && d->logging && !d->q.dead)
		br_log_queued(d, before > d->q.len ? d->q.len : before);
}

void
br_on_line(void *ctx, const char *text, size_t len, size_t term, unsigned flags)
{
	struct direction *d = ctx;
	struct fb_bridge *b = d->b;
	size_t before = d->q.len;

	if (d->logging && !(flags & FB_LINE_CONT))
		fb_log_line(d->in_tag, text, len);
	d->filtering = true;
	if (d->to_engine)
		fb_session_gui_line(b->session, text, len, term, flags);
	else
		fb_session_engine_line(b->session, text, len, term, flags);
	filled(d, before, !(flags & FB_LINE_CONT), false);
}

void
br_on_engine_line(void *ctx, const char *text, size_t len, size_t term,
		  unsigned flags)
{
	struct direction *d = ctx;

	/* An engine's flood of lines toward the GUI: without logging nothing
	 * is read back from the queue, so the line goes to the session and
	 * that is all. */
	if (d->logging)
		br_on_line(ctx, text, len, term, flags);
	else
		fb_session_engine_line(d->b->session, text, len, term, flags);
}

void
br_session_up(struct fb_bridge *b, enum fb_session_step step)
{
	size_t before = b->up.q.len;
	bool was = b->up.filtering;

	b->up.filtering = true;
	fb_session_run(b->session, step);
	filled(&b->up, before, true, was);
}

static void
on_filter_timer(uv_timer_t *t)
{
	struct fb_bridge *b = t->data;

	if (!br_wait_due(b, &b->filter_wait, t, on_filter_timer))
		return; /* slow, not silent */
	br_session_up(b, FB_STEP_TIMEOUT);
	br_outq_flush(&b->up.q);
	br_outq_flush(&b->down.q);
}

/* The filter's timer: a deadline for the engine's answer (the probe, the
 * hold for uciok, a nudge, ...), or for the GUI's clock (wall), or, under
 * NOW_MS, "go on from the timer": wall time too. */
#define NOW_MS 50
static void
session_timer(void *ctx, bool answer, unsigned ms)
{
	struct fb_bridge *b = ctx;
	uv_timer_t *t = &b->filter_timer;

	if (uv_is_closing((uv_handle_t *)t))
		return;
	if (ms == 0) {
		uv_timer_stop(t);
		return;
	}
	br_wait_start(b, &b->filter_wait,
		      ms < NOW_MS || !answer ? FB_WAIT_WALL : FB_WAIT_SILENCE,
		      t, on_filter_timer, ms);
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
	d->logging = fb_log_enabled();
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
	fb_session_free(b->session);
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

/* The session, from the configuration, with the bridge as its io. */
static struct fb_session *
session_new(struct fb_bridge *b)
{
	const struct fb_config *cfg = b->cfg;
	struct fb_session_options o = {
		.protocol = cfg->protocol,
		.engine_protocol = cfg->engine_protocol,
		.engine_fen = cfg->engine_fen,
		.engine_fen_auto = cfg->engine_fen_auto,
		.gui_fen = cfg->gui_fen,
		.gui_castling = cfg->gui_castling,
		.engine_castling = cfg->engine_castling,
		.options = cfg->options,
		.noptions = cfg->noptions,
		.name = cfg->name,
		.normalize = cfg->normalize,
		.restarts = cfg->restarts,
		.referee = cfg->referee,
		.level = fb_log_enabled() ? FB_LOG_DEBUG : FB_LOG_WARN,
		.version = FB_VERSION,
		.engine_argv = cfg->engine_argv,
	};
	struct fb_session_io io = {
		.out = session_out,
		.log = session_log,
		.print = session_print,
		.record = session_record,
		.timer = session_timer,
		.alarm = session_alarm,
		.now = session_now,
		.event = session_event,
		.ctx = b,
	};

	b->ref_on = cfg->referee != 0; /* off */
	return fb_session_new(&o, &io);
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
	if ((b->session = session_new(b)) == NULL) {
		fb_log_msg(FB_LOG_ERROR, "out of memory");
		uv_loop_close(&loop);
		free(b->env);
		return 1;
	}
	/* A flight recorder that cannot be had costs its feature, not the
	 * session. */
	if (!fb_recorder_init(&b->rec))
		fb_log_msg(FB_LOG_WARN, "out of memory: no flight recorder");
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
	if ((rc = fb_session_end(b->session)) != 0 && b->exit_code == 0)
		b->exit_code = rc;
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
