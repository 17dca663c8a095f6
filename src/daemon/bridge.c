/* SPDX-License-Identifier: MIT */
/*
 * The bridge: the only file that touches libuv. It spawns the engine on real
 * pipes, reads both sides, feeds the bytes to a line framer per direction,
 * hands each whole line to the protocol filter, and writes what the filter
 * emits in one write per batch. It owns the session's lifecycle (EOF, quit,
 * grace period, signals, the engine's exit): one state, changed only by
 * lifecycle(), through which every event passes.
 *
 * One write is in flight per direction; what arrives meanwhile collects in a
 * second buffer and goes out as the next single write. When a direction has
 * more than HIGH_WATER bytes queued its source stops being read until the
 * queue drains below LOW_WATER, so memory stays bounded and nothing is lost.
 */
/* F_SETPIPE_SZ (Linux) */
#define _GNU_SOURCE
#include "bridge.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/wait.h>
#endif

#include <uv.h>

#include "fenbridge/line.h"
#include "log.h"
#include "fb_version.h"
#include "platform.h"
#include "recorder.h"
#include "session.h"

/* Larger than a pipe holds (64 KiB): a read that does not fill the buffer
 * tells libuv the pipe is drained, sparing a read that would only say
 * EAGAIN. */
#define READ_SIZE (128 * 1024)
#define PIPE_SIZE (256 * 1024)
#define HIGH_WATER (64 * 1024)
#define LOW_WATER (16 * 1024)
#define KILL_DELAY_MS 1000
/* After the engine exits: how long its output pipes may stay open. */
#define DRAIN_MS 1000
/* The trampoline's descriptor for its exec status (see spawn_engine). */
#define EXEC_STATUS_FD 3
/* Flight records one session may write (an engine that plays one illegal
 * move after another would fill a folder otherwise). */
#define RECORDS_MAX 3

struct fb_bridge;

/*
 * The session's lifecycle, in the order it runs; it never goes back. Only
 * lifecycle() changes it. Each state that waits for time has the one timer
 * running: grace, KILL_DELAY_MS, DRAIN_MS.
 */
enum bridge_state {
	FB_ST_STARTING,    /* the engine is not running yet */
	FB_ST_RUNNING,     /* relaying both ways */
	FB_ST_QUITTING,    /* the GUI quit or went away: the engine got quit
			      and then EOF; waiting --grace for it to exit */
	FB_ST_TERMINATING, /* grace over: SIGTERM sent; waiting 1 s */
	FB_ST_KILLING,     /* SIGTERM ignored: SIGKILL sent */
	FB_ST_DRAINING,    /* the engine exited: reading the rest of its
			      output (a process it started may hold the
			      pipes: DRAIN_MS at most) */
	FB_ST_DELIVERING,  /* its output is read: the rest, and a report if
			      the exit is news, goes to the GUI */
	FB_ST_CLOSING,     /* delivered, endpoints closed: a write to the
			      engine is still being cancelled */
	FB_ST_DONE,        /* every handle is closing: uv_run returns */
};

static const char *const state_name[] = {
	"starting", "running", "quitting", "terminating", "killing",
	"draining", "delivering", "closing", "done",
};

/* What happens to a session; each goes through lifecycle(). */
enum bridge_event {
	FB_EV_SPAWNED,     /* the engine runs */
	FB_EV_GUI_QUIT,    /* the GUI sent quit (the filter's sink event) */
	FB_EV_GUI_GONE,    /* the GUI's stdin ended or its stdout broke */
	FB_EV_SIGNAL,      /* fenbridge got a signal (arg: its number) */
	FB_EV_TIMER,       /* the state's timer ran out */
	FB_EV_ENGINE_EXIT, /* the engine exited (b->exit_status, term_signal) */
	FB_EV_IO,          /* an input ended or a write completed */
};

static const char *const event_name[] = {
	"engine started", "GUI quit", "GUI gone", "signal", "timer",
	"engine exit", "I/O",
};

/* One end fenbridge reads from or writes to. */
struct endpoint {
	struct fb_bridge *b;
	const char *name;
	int fd;
	bool is_file; /* regular file or device: uv_fs_read/uv_fs_write */
	bool open;    /* the stream handle needs closing */
	bool reading;
	bool eof;
	bool fs_pending; /* a uv_fs_read of rreq is in libuv's thread pool */
	union {
		uv_handle_t handle;
		uv_stream_t stream;
		uv_pipe_t pipe;
		uv_tty_t tty;
		uv_tcp_t tcp;
	} h;
	uv_fs_t rreq;
	char *rbuf;
	/* Reads go straight into this flight recorder ring (the GUI's or the
	 * engine's), or -1: into rbuf, and the recorder gets a copy. */
	int rec_ring;
	char *rdata; /* where the read in flight goes */
	struct direction *dir; /* the direction this endpoint feeds */
};

/* Bytes queued toward one endpoint. */
struct outq {
	struct endpoint *ep;
	char *buf; /* collecting */
	size_t len, cap;
	char *wbuf; /* in flight */
	size_t wlen, woff, wcap;
	bool busy;
	bool dead;          /* the peer is gone: discard */
	bool close_after;   /* close the endpoint once drained (engine stdin) */
	bool at_line_start; /* the last byte queued ended a line */
	union {
		uv_write_t w;
		uv_fs_t fs;
	} req;
};

struct direction {
	struct fb_bridge *b;
	struct endpoint *src;
	struct outq q;
	struct fb_line framer;
	bool to_engine;
	bool logging; /* fb_log_enabled(), fixed before the bridge runs */
	const char *in_tag, *out_tag;
	struct fb_sink sink;
};

struct fb_bridge {
	uv_loop_t *loop;
	const struct fb_config *cfg;
	struct fb_filter filter;
	struct endpoint gui_in, gui_out, eng_in, eng_out, eng_err;
	struct direction up, down; /* GUI -> engine, engine -> GUI */
	struct fb_line err_framer;
	struct fb_recorder rec; /* the flight recorder */
	unsigned records;       /* files it wrote this session */
	uint64_t t0;            /* the loop's time at the start (ms) */
	uv_process_t proc;
	int64_t exit_status;
	int term_signal;
	uv_signal_t sig[3];
	uv_timer_t timer;
	uv_timer_t filter_timer; /* the filter's (fb_sink.timer) */
	enum bridge_state state;
	/* The engine's end is no news to the GUI: the GUI quit or left, or
	 * fenbridge forwarded a signal the engine may die of. Whatever the
	 * state, so an exit that crosses the GUI's quit is not reported. */
	bool quiet_end;
	/* The filter asked for the engine to be started again (it died of
	 * the protocol probe); closing counts the handles still closing. */
	bool restart;
	int closing;
	int exit_code;
	char **env; /* the engine's environment, or NULL: fenbridge's */
};

static const int forwarded_signals[3] = {SIGINT, SIGTERM, SIGHUP};
#ifdef _WIN32
/* None on Windows: Ctrl-C in a console reaches the engine there too, and
 * uv_process_kill could only terminate it. */
#define NFORWARDED 0
#else
#define NFORWARDED 3
#endif

static void outq_flush(struct outq *q);
static void lifecycle(struct fb_bridge *b, enum bridge_event ev, int arg);
static void start_reading(struct endpoint *ep);

/* ---- output queues ---- */

/* Room for n more bytes in q->buf; out of memory is fatal (README). Kept
 * out of outq_append, which runs for every line. */
static __attribute__((noinline)) void
outq_grow(struct outq *q, size_t n)
{
	size_t cap = q->cap ? q->cap : 4096;
	char *p;

	while (cap < q->len + n)
		cap *= 2;
	p = realloc(q->buf, cap);
	if (p == NULL) {
		fb_log_msg(FB_LOG_ERROR, "out of memory queueing %zu bytes "
			   "for the %s", n, q->ep->name);
		abort();
	}
	q->buf = p;
	q->cap = cap;
}

static void
outq_append(struct outq *q, const char *data, size_t n)
{
	if (q->dead || n == 0)
		return;
	if (q->len + n > q->cap)
		outq_grow(q, n);
	memcpy(q->buf + q->len, data, n);
	q->len += n;
	q->at_line_start = data[n - 1] == '\n' || data[n - 1] == '\r';
}

static size_t
outq_size(const struct outq *q)
{
	return q->len + (q->wlen - q->woff);
}

/* The peer is gone or broken: what is queued for it is discarded. */
static void
outq_failed(struct outq *q, int status)
{
	struct fb_bridge *b = q->ep->b;
	bool was_dead = q->dead;

	if (!was_dead)
		fb_log_msg(status == UV_EPIPE || status == UV_ECANCELED
				   ? FB_LOG_INFO
				   : FB_LOG_WARN,
			   "writing to the %s: %s", q->ep->name,
			   uv_strerror(status));
	q->dead = true;
	q->len = 0;
	if (q == &b->down.q && !was_dead)
		lifecycle(b, FB_EV_GUI_GONE, 0); /* as on EOF */
}

/* Back-pressure released: read the source of q's direction again. */
static void
maybe_resume(struct outq *q)
{
	struct fb_bridge *b = q->ep->b;
	struct direction *d = q == &b->up.q ? &b->up : &b->down;

	/* Not before the engine runs, nor once its output is all read. */
	if (!d->src->reading && !d->src->eof && outq_size(q) < LOW_WATER &&
	    b->state >= FB_ST_RUNNING && b->state <= FB_ST_DRAINING)
		start_reading(d->src);
}

static void
outq_written(struct outq *q, int status)
{
	q->busy = false;
	if (status < 0)
		outq_failed(q, status);
	q->wlen = q->woff = 0;
	maybe_resume(q);
	outq_flush(q);
	lifecycle(q->ep->b, FB_EV_IO, 0);
}

static void
on_stream_written(uv_write_t *req, int status)
{
	outq_written(req->data, status);
}

static void
on_file_written(uv_fs_t *req)
{
	struct outq *q = req->data;
	ssize_t r = req->result;

	uv_fs_req_cleanup(req);
	if (r > 0 && q->woff + (size_t)r < q->wlen) {
		uv_buf_t buf;
		q->woff += (size_t)r;
		buf = uv_buf_init(q->wbuf + q->woff,
				  (unsigned)(q->wlen - q->woff));
		q->req.fs.data = q;
		r = uv_fs_write(q->ep->b->loop, &q->req.fs, q->ep->fd, &buf, 1,
				-1, on_file_written);
		if (r == 0)
			return;
	}
	outq_written(q, r < 0 ? (int)r : 0);
}

static void
endpoint_close(struct endpoint *ep)
{
	if (ep->open && !uv_is_closing(&ep->h.handle))
		uv_close(&ep->h.handle, NULL);
	else if (ep->is_file && ep->fd > 2)
		close(ep->fd);
	ep->open = false;
	ep->is_file = false;
}

static void
outq_flush(struct outq *q)
{
	uv_buf_t buf;
	char *t;
	size_t tc;
	int rc;

	if (q->len > 0 && !q->dead && q->ep->open) {
		/* Write at once what the pipe takes: no request, no callback,
		 * no extra trip through the loop. libuv refuses (EAGAIN) while
		 * an earlier write of its own is still pending, so the order
		 * of bytes holds even while q->busy. */
		buf = uv_buf_init(q->buf, (unsigned)q->len);
		rc = uv_try_write(&q->ep->h.stream, &buf, 1);
		if (rc > 0) {
			q->len -= (size_t)rc;
			memmove(q->buf, q->buf + rc, q->len);
			maybe_resume(q);
		} else if (rc < 0 && rc != UV_EAGAIN) {
			outq_failed(q, rc);
		}
	}
	if (q->busy)
		return;
	if (!q->ep->open && !q->ep->is_file) {
		/* Unusable from the start (endpoint_open) or closed: libuv
		 * must not see a write to a handle that was never opened. */
		q->dead = true;
		q->len = 0;
	}
	if (q->len == 0 || q->dead) {
		if (q->close_after && q->ep->open) {
			endpoint_close(q->ep);
			q->dead = true; /* later lines have nowhere to go */
			fb_log_msg(FB_LOG_DEBUG, "closed the %s", q->ep->name);
		}
		return;
	}
	/* Swap: the collected bytes go out, the spent buffer collects. */
	t = q->wbuf;
	tc = q->wcap;
	q->wbuf = q->buf;
	q->wcap = q->cap;
	q->wlen = q->len;
	q->woff = 0;
	q->buf = t;
	q->cap = tc;
	q->len = 0;
	q->busy = true;
	buf = uv_buf_init(q->wbuf, (unsigned)q->wlen);
	if (q->ep->is_file) {
		q->req.fs.data = q;
		rc = uv_fs_write(q->ep->b->loop, &q->req.fs, q->ep->fd, &buf, 1,
				 -1, on_file_written);
	} else {
		q->req.w.data = q;
		rc = uv_write(&q->req.w, &q->ep->h.stream, &buf, 1,
			      on_stream_written);
	}
	if (rc < 0) {
		q->busy = false;
		q->wlen = 0;
		outq_failed(q, rc);
	}
}

/* ---- flight recorder ---- */

/* The loop's cached time since the session started, in ms: no clock read
 * per line. */
static uint64_t
since_start(const struct fb_bridge *b)
{
	return uv_now(b->loop) - b->t0;
}

/*
 * Writes the flight record (recorder.h) beside the log file, else beside
 * the config file, else in the temporary folder, with the session's
 * header. Returns its path, or NULL when none was written (RECORDS_MAX
 * reached, or it could not be written: logged).
 */
static const char *
write_record(struct fb_bridge *b, const char *reason)
{
	const struct fb_config *cfg = b->cfg;
	const char *near = cfg->log_path ? cfg->log_path : cfg->config_path;
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
	if (near != NULL) {
		const char *sep = fb_path_last_sep(near);
		size_t dl = sep != NULL ? (size_t)(sep - near) + 1 : 0;
		if (dl >= sizeof dir)
			dl = 0;
		memcpy(dir, near, dl);
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
		snprintf(head + n, sizeof head - n, "\nthe position now: %.*s\n",
			 k > 0 ? k : 28, k > 0 ? fen : "(not followed by fenbridge)");
	rc = fb_recorder_write(&b->rec, near != NULL ? dir : NULL, reason,
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

/* ---- filter sink ---- */

static void
sink_emit(void *ctx, const char *data, size_t len)
{
	struct direction *d = ctx;
	outq_append(&d->q, data, len);
}

static void queue_own_line(struct direction *d, const char *data,
			   size_t len);

static void
sink_report(void *ctx, enum fb_level level, const char *msg)
{
	struct direction *d = ctx;
	struct fb_bridge *b = d->b;
	const struct fb_protocol *gp;
	const char *path;
	char line[1200];
	int n;

	fb_log_msg(level, "%s %s", d->to_engine ? "GUI line:" : "engine line:",
		   msg);
	if (level < FB_LOG_ERROR)
		return;
	/* Something went wrong in the session (an illegal move, an engine
	 * that does not answer): keep what led to it, and tell the GUI
	 * where, once. */
	n = snprintf(line, sizeof line, "%s\n", msg);
	if (n > 0)
		fb_recorder_add(&b->rec, FB_REC_NOTE, since_start(b), line,
				(size_t)n < sizeof line ? (size_t)n
							: sizeof line - 1);
	if ((path = write_record(b, msg)) == NULL || b->records > 1 ||
	    (gp = fb_filter_protocol(&b->filter)) == NULL)
		return;
	n = snprintf(line, sizeof line, "%sfenbridge: flight record written "
		     "to %s\n", gp->user_message, path);
	if (n > 0 && (size_t)n < sizeof line)
		queue_own_line(&b->down, line, (size_t)n);
}

/* Logs the queued bytes from..q->len as lines tagged d->out_tag. */
static void
log_queued(struct direction *d, size_t from)
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
			since_start(d->b), d->q.buf + from, d->q.len - from);
}

/*
 * Queues whole lines of fenbridge's own toward d's peer. at_line_start also
 * covers bytes already written: a half line the peer has got is ended first.
 */
static void
queue_own_line(struct direction *d, const char *data, size_t len)
{
	size_t before = d->q.len;

	if (!d->q.at_line_start)
		outq_append(&d->q, "\n", 1);
	outq_append(&d->q, data, len);
	record_queued(d, before);
	if (fb_log_enabled())
		log_queued(d, before);
}

/* Lines of fenbridge's own toward the other side than d's peer. */
static void
sink_reply(void *ctx, const char *data, size_t len)
{
	struct direction *d = ctx;
	struct direction *back = d == &d->b->up ? &d->b->down : &d->b->up;

	queue_own_line(back, data, len);
	outq_flush(&back->q);
}

/* The engine's bytes the filter held, toward the GUI, as they came. */
static void
sink_pass(void *ctx, const char *data, size_t len)
{
	struct direction *d = ctx;
	struct direction *back = &d->b->down;
	size_t before = back->q.len;

	outq_append(&back->q, data, len);
	if (back->logging && !back->q.dead)
		log_queued(back, before);
	outq_flush(&back->q);
}

static void
on_line(void *ctx, const char *text, size_t len, size_t term, unsigned flags)
{
	struct direction *d = ctx;
	struct fb_bridge *b = d->b;
	size_t before = d->q.len;

	if (d->logging && !(flags & FB_LINE_CONT))
		fb_log_line(d->in_tag, text, len);
	if (d->to_engine)
		fb_filter_gui_line(&b->filter, text, len, term, flags,
				   &d->sink);
	else
		fb_filter_engine_line(&b->filter, text, len, term, flags,
				      &d->sink);
	/* What the engine got, when it is not the GUI's line as it came
	 * (the record says so): rewritten, held, or with lines of
	 * fenbridge's own. The GUI mostly gets the engine's lines as they
	 * came: those are kept as read. */
	if (d->to_engine && !(flags & FB_LINE_CONT) &&
	    (d->q.len - before != len + term ||
	     memcmp(d->q.buf + before, text, len + term) != 0))
		record_queued(d, before);
	if (d->logging && !(flags & FB_LINE_CONT) && !d->q.dead)
		log_queued(d, before);
}

static void
on_filter_timer(uv_timer_t *t)
{
	struct fb_bridge *b = t->data;
	size_t before = b->up.q.len;

	fb_filter_timeout(&b->filter, &b->up.sink);
	record_queued(&b->up, before);
	if (b->up.logging && !b->up.q.dead)
		log_queued(&b->up, before);
	outq_flush(&b->up.q);
	outq_flush(&b->down.q);
}

static void
sink_timer(void *ctx, unsigned ms)
{
	struct direction *d = ctx;
	uv_timer_t *t = &d->b->filter_timer;
	int rc = ms > 0 ? uv_timer_start(t, on_filter_timer, ms, 0)
			: uv_timer_stop(t);

	if (rc < 0 && !uv_is_closing((uv_handle_t *)t))
		fb_log_msg(FB_LOG_ERROR, "filter timer: %s", uv_strerror(rc));
}

static void
sink_event(void *ctx, enum fb_event ev)
{
	struct direction *d = ctx;

	if (ev == FB_EVENT_GUI_QUIT && d->to_engine)
		lifecycle(d->b, FB_EV_GUI_QUIT, 0);
	else if (ev == FB_EVENT_RESTART)
		d->b->restart = true;
}

/* Queues a line of fenbridge's own, starting a new line if needed. */
static void
inject(struct direction *d, const char *fmt, ...)
{
	char buf[512];
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

/* ---- reading ---- */

/* Where the next read goes: the recorder's ring, so that keeping what was
 * read costs no copy, else the endpoint's own buffer. */
static uv_buf_t
read_buffer(struct endpoint *ep)
{
	size_t cap;
	char *p = ep->rec_ring >= 0
			  ? fb_recorder_reserve(&ep->b->rec,
						(enum fb_rec_ring_id)ep->rec_ring,
						READ_SIZE, &cap)
			  : NULL;

	if (p == NULL) {
		p = ep->rbuf;
		cap = READ_SIZE;
	}
	ep->rdata = p;
	return uv_buf_init(p, (unsigned)cap);
}

static void
on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	struct endpoint *ep = h->data;
	(void)suggested;
	*buf = read_buffer(ep);
}

static void
stderr_line(void *ctx, const char *text, size_t len, size_t term,
	    unsigned flags)
{
	(void)ctx;
	if (!(flags & FB_LINE_CONT))
		fb_log_line(FB_TAG_ENGINE_ERR, text, len);
	fb_log_stderr(text, len + term);
	if (term == 0 && !(flags & FB_LINE_RAW))
		fb_log_stderr("\n", 1);
}

static void
read_stop(struct endpoint *ep)
{
	int rc = uv_read_stop(&ep->h.stream);

	if (rc < 0)
		fb_log_msg(FB_LOG_WARN, "uv_read_stop on the %s: %s", ep->name,
			   uv_strerror(rc));
}

static void
got_data(struct endpoint *ep, const char *data, size_t n)
{
	struct direction *d = ep->dir;

	/* The flight recorder keeps what was read, as it was read: read into
	 * its ring (no copy), or copied once per read, not per line. */
	enum fb_rec_tag tag = d == NULL	     ? FB_REC_ERR
			      : d->to_engine ? FB_REC_GUI
					     : FB_REC_ENGINE;
	if (data != ep->rbuf)
		fb_recorder_commit(&ep->b->rec, (enum fb_rec_ring_id)ep->rec_ring,
				   tag, since_start(ep->b), n);
	else
		fb_recorder_add(&ep->b->rec, tag, since_start(ep->b), data, n);
	if (d == NULL) { /* the engine's stderr */
		fb_line_push(&ep->b->err_framer, data, n, stderr_line, ep->b);
		return;
	}
	fb_line_push(&d->framer, data, n, on_line, d);
	outq_flush(&d->q);
	fb_log_flush();
	if (outq_size(&d->q) > HIGH_WATER && ep->reading) {
		fb_log_msg(FB_LOG_DEBUG, "%s not reading: pausing the %s",
			   d->q.ep->name, ep->name);
		if (!ep->is_file)
			read_stop(ep);
		ep->reading = false;
	}
}

static void
got_eof(struct endpoint *ep, int status)
{
	struct fb_bridge *b = ep->b;

	if (ep->eof)
		return;
	ep->eof = true;
	ep->reading = false;
	if (status < 0 && status != UV_EOF)
		fb_log_msg(FB_LOG_WARN, "reading from the %s: %s", ep->name,
			   uv_strerror(status));
	if (ep->open && !ep->is_file)
		read_stop(ep);
	if (ep->dir == NULL) {
		fb_line_finish(&b->err_framer, stderr_line, b);
	} else {
		fb_line_finish(&ep->dir->framer, on_line, ep->dir);
		outq_flush(&ep->dir->q);
	}
	fb_log_msg(FB_LOG_DEBUG, "end of input from the %s", ep->name);
	fb_log_flush();
	if (ep == &b->gui_in)
		lifecycle(b, FB_EV_GUI_GONE, 0);
	lifecycle(b, FB_EV_IO, 0);
}

static void
on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
	struct endpoint *ep = s->data;

	if (nread > 0)
		got_data(ep, buf->base, (size_t)nread);
	else if (nread < 0)
		got_eof(ep, (int)nread);
}

static void
on_file_read(uv_fs_t *req)
{
	struct endpoint *ep = req->data;
	ssize_t r = req->result;

	uv_fs_req_cleanup(req);
	ep->reading = false;
	ep->fs_pending = false;
	if (r > 0) {
		ep->reading = true; /* got_data may pause us */
		got_data(ep, ep->rdata, (size_t)r);
		if (ep->reading) {
			ep->reading = false;
			start_reading(ep);
		}
	} else {
		got_eof(ep, r == 0 ? UV_EOF : (int)r);
	}
}

static void
start_reading(struct endpoint *ep)
{
	int rc;

	if (ep->eof || ep->reading)
		return;
	if (ep->is_file) {
		uv_buf_t buf = read_buffer(ep);
		ep->rreq.data = ep;
		rc = uv_fs_read(ep->b->loop, &ep->rreq, ep->fd, &buf, 1, -1,
				on_file_read);
		ep->fs_pending = rc == 0;
	} else if (ep->open) {
		rc = uv_read_start(&ep->h.stream, on_alloc, on_read);
	} else {
		rc = UV_EBADF;
	}
	if (rc < 0) {
		got_eof(ep, rc);
		return;
	}
	ep->reading = true;
}

/* ---- endpoints ---- */

/*
 * A bigger pipe lets an engine's burst of output, and fenbridge's write of
 * it, go through whole instead of in pieces that each cost a trip through
 * the loop. Only where the system allows it; nothing depends on it.
 */
static void
widen_pipe(int fd)
{
#ifdef F_SETPIPE_SZ
	(void)fcntl(fd, F_SETPIPE_SZ, PIPE_SIZE);
#else
	(void)fd;
#endif
}

/* Opens fd for the loop as a stream (pipe, tty, socket) or a file. */
static int
endpoint_open(struct fb_bridge *b, struct endpoint *ep, const char *name,
	      int fd, bool readable)
{
	int rc = 0;

	ep->b = b;
	ep->name = name;
	ep->fd = fd;
	ep->h.handle.data = ep;
	/* A second start of the engine keeps the buffer of the first, and
	 * its flight recorder ring. */
	if (ep->rbuf == NULL)
		ep->rec_ring = -1;
	if (readable && ep->rbuf == NULL &&
	    (ep->rbuf = malloc(READ_SIZE)) == NULL)
		return UV_ENOMEM;
	switch (uv_guess_handle(fd)) {
	case UV_TTY:
		rc = uv_tty_init(b->loop, &ep->h.tty, fd, 0);
		break;
	case UV_NAMED_PIPE:
		if (!readable)
			widen_pipe(fd);
		if ((rc = uv_pipe_init(b->loop, &ep->h.pipe, 0)) == 0)
			rc = uv_pipe_open(&ep->h.pipe, fd);
		if (rc < 0 && fd <= 2) {
			/* A pipe libuv cannot drive as a stream: under Wine, a
			 * Unix pipe from the shell that started fenbridge.exe.
			 * Blocking reads and writes in libuv's threads serve
			 * it as they serve a file. */
			fb_log_msg(FB_LOG_DEBUG, "%s: %s; using it as a file",
				   name, uv_strerror(rc));
			uv_close(&ep->h.handle, NULL);
			ep->is_file = true;
			return 0;
		}
		break;
	case UV_TCP:
		if ((rc = uv_tcp_init(b->loop, &ep->h.tcp)) == 0)
			rc = uv_tcp_open(&ep->h.tcp, fd);
		break;
	case UV_FILE:
		ep->is_file = true;
		return 0;
	default:
		/* Unusable (a datagram socket, say): start_reading reports
		 * EOF, so a GUI stdin ends the session; outq_flush drops
		 * writes. */
		return 0;
	}
	ep->h.handle.data = ep;
	if (rc == 0)
		ep->open = true;
	else if (!uv_is_closing(&ep->h.handle) &&
		 ep->h.handle.type != UV_UNKNOWN_HANDLE)
		uv_close(&ep->h.handle, NULL);
	return rc;
}

/* ---- engine process ---- */

static const char *
signal_name(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	case SIGKILL: return "SIGKILL";
	case SIGSEGV: return "SIGSEGV";
	case SIGABRT: return "SIGABRT";
#ifdef SIGPIPE
	case SIGPIPE: return "SIGPIPE";
#endif
	default: return "signal";
	}
}

static void restart_engine(struct fb_bridge *b);

static void
on_engine_exit(uv_process_t *p, int64_t status, int sig)
{
	struct fb_bridge *b = p->data;

	b->exit_status = status;
	b->term_signal = sig;
	if (sig != 0)
		fb_log_msg(FB_LOG_INFO, "engine died of %s (%d)",
			   signal_name(sig), sig);
	else
		fb_log_msg(FB_LOG_INFO, "engine exited with status %lld",
			   (long long)status);
	/* Before the session is decided the filter may want it started
	 * again (an engine that died of the protocol probe). */
	b->restart = false;
	if (b->state == FB_ST_RUNNING)
		fb_filter_engine_exit(&b->filter, &b->up.sink);
	if (b->restart) {
		restart_engine(b);
		return;
	}
	uv_close((uv_handle_t *)p, NULL);
	lifecycle(b, FB_EV_ENGINE_EXIT, 0);
}

static void
on_timer(uv_timer_t *t)
{
	lifecycle(t->data, FB_EV_TIMER, 0);
}

static void
on_signal(uv_signal_t *s, int signum)
{
	lifecycle(s->data, FB_EV_SIGNAL, signum);
}

/* ---- lifecycle ---- */

static void
timer_start(struct fb_bridge *b, uint64_t ms)
{
	int rc = uv_timer_start(&b->timer, on_timer, ms, 0);

	/* Only a closing timer refuses; then no state waits for it. */
	if (rc < 0)
		fb_log_msg(FB_LOG_ERROR, "uv_timer_start: %s", uv_strerror(rc));
}

static void
timer_stop(struct fb_bridge *b)
{
	int rc = uv_timer_stop(&b->timer);

	if (rc < 0)
		fb_log_msg(FB_LOG_ERROR, "uv_timer_stop: %s", uv_strerror(rc));
}

static void
engine_kill(struct fb_bridge *b, int sig)
{
	int rc = uv_process_kill(&b->proc, sig);

	/* ESRCH: it exited a moment ago and its exit callback is on the way. */
	if (rc < 0)
		fb_log_msg(rc == UV_ESRCH ? FB_LOG_INFO : FB_LOG_WARN,
			   "sending %s to the engine: %s", signal_name(sig),
			   uv_strerror(rc));
}

/* Closes fenbridge's own handles (those initialised and still open). */
static void
close_own_handles(struct fb_bridge *b)
{
	uv_handle_t *h[5] = {
		(uv_handle_t *)&b->timer, (uv_handle_t *)&b->filter_timer,
		(uv_handle_t *)&b->sig[0], (uv_handle_t *)&b->sig[1],
		(uv_handle_t *)&b->sig[2]};

	for (int i = 0; i < 5; i++)
		if (uv_handle_get_type(h[i]) != UV_UNKNOWN_HANDLE &&
		    !uv_is_closing(h[i]))
			uv_close(h[i], NULL);
}

static void
set_state(struct fb_bridge *b, enum bridge_state to, enum bridge_event ev)
{
	fb_log_msg(FB_LOG_DEBUG, "session: %s -> %s (%s)",
		   state_name[b->state], state_name[to], event_name[ev]);
	b->state = to;
}

/* The GUI quit or left while the engine runs: give it --grace to exit. */
static void
begin_quitting(struct fb_bridge *b, enum bridge_event ev)
{
	set_state(b, FB_ST_QUITTING, ev);
	timer_start(b, b->cfg->grace_ms);
}

/*
 * The engine has exited: once its output is read, tell the GUI if the exit
 * is news, then deliver everything and close. Called on each event that
 * may end a wait; goes as far as what has ended allows.
 */
static void
advance(struct fb_bridge *b, enum bridge_event ev)
{
	if (b->state == FB_ST_DRAINING) {
		if (!b->eng_out.eof || !b->eng_err.eof)
			return;
		set_state(b, FB_ST_DELIVERING, ev);
		timer_stop(b);
		if (b->term_signal != 0)
			b->exit_code = 128 + b->term_signal;
		else
			b->exit_code = (int)b->exit_status;
		if (!b->quiet_end) {
			char what[64];
			if (b->term_signal != 0)
				snprintf(what, sizeof what, "died of %s (%d)",
					 signal_name(b->term_signal),
					 b->term_signal);
			else
				snprintf(what, sizeof what,
					 "exited with status %lld",
					 (long long)b->exit_status);
			/* Some XBoard engines crash on a command they do
			 * not know (Fairy-Max 5.0b on `uci`, now and then);
			 * one started again that dies before it answers: the
			 * user should learn how to avoid the probe. */
			const char *hint =
				fb_filter_probing(&b->filter)
					? " before it answered the protocol "
					  "probe; name its protocol with "
					  "--engine-protocol=uci or xboard"
					: "";
			char reason[96];
			const char *path;
			fb_log_msg(FB_LOG_WARN, "the engine %s%s", what, hint);
			snprintf(reason, sizeof reason, "the engine %s", what);
			path = write_record(b, reason);
			if (fb_filter_protocol(&b->filter) != NULL)
				inject(&b->down,
				       "%sfenbridge: the engine %s%s%s%s",
				       fb_filter_protocol(&b->filter)
					       ->user_message,
				       what, hint,
				       path != NULL ? "; flight record: " : "",
				       path != NULL ? path : "");
		}
		outq_flush(&b->down.q);
	}
	if (b->state == FB_ST_DELIVERING) {
		if (b->down.q.busy || (b->down.q.len > 0 && !b->down.q.dead))
			return; /* outq_written brings the next event */
		endpoint_close(&b->gui_in);
		endpoint_close(&b->eng_in);
		endpoint_close(&b->eng_out);
		endpoint_close(&b->eng_err);
		endpoint_close(&b->gui_out);
		set_state(b, FB_ST_CLOSING, ev);
	}
	if (b->state == FB_ST_CLOSING) {
		/* Closing the engine's stdin cancels a pending write; its
		 * callback still has to run before the queue goes away. */
		if (b->up.q.busy)
			return;
		close_own_handles(b);
		set_state(b, FB_ST_DONE, ev);
		/* A GUI stdin served as a file (under Wine, a Unix pipe from a
		 * Linux GUI) is read by a blocking read in libuv's thread
		 * pool, which nothing interrupts: it would keep the loop, and
		 * fenbridge, alive until the GUI writes or closes it, and a
		 * GUI that waits for its engine to exit after quit would wait
		 * for ever. The session is over: leave the loop, and let the
		 * read end with the process (fb_bridge_run). */
		if (b->gui_in.fs_pending)
			uv_stop(b->loop);
		fb_log_flush();
	}
}

/*
 * The one place where the session's state changes. Every event comes here:
 * the GUI's quit, its EOF or broken stdout, signals, the timer, the
 * engine's exit, and I/O that may end a wait (an input's end, a completed
 * write). The behaviour is the README's: after the GUI's quit or EOF the
 * engine gets quit (unless the GUI sent it) and EOF, then --grace seconds,
 * SIGTERM, and 1 s later SIGKILL; once it has exited, its output is read to
 * the end (DRAIN_MS at most), delivered, followed by a report to the GUI if
 * the exit was not asked for.
 */
static void
lifecycle(struct fb_bridge *b, enum bridge_event ev, int arg)
{
	bool engine_runs =
		b->state >= FB_ST_RUNNING && b->state <= FB_ST_KILLING;

	switch (ev) {
	case FB_EV_SPAWNED:
		set_state(b, FB_ST_RUNNING, ev);
		return;
	case FB_EV_GUI_QUIT:
		/* quit is the last word: EOF follows for engines that watch
		 * only that. python-chess waits for the process after quit
		 * without closing the pipe: make sure the engine does exit. */
		b->quiet_end = true;
		b->up.q.close_after = true;
		if (b->state == FB_ST_RUNNING)
			begin_quitting(b, ev);
		return;
	case FB_EV_GUI_GONE:
		fb_log_msg(FB_LOG_DEBUG, "GUI gone; ending the session");
		b->quiet_end = true;
		if (!engine_runs)
			return;
		{
			size_t before = b->up.q.len;
			fb_filter_gui_eof(&b->filter, &b->up.sink);
			if (b->up.logging && !b->up.q.dead)
				log_queued(&b->up, before);
		}
		if (!b->filter.gui_quit && !b->up.q.dead) {
			/* Both protocols end with quit; then EOF on the
			 * engine's stdin for engines that only watch that. */
			inject(&b->up, "quit");
			b->filter.gui_quit = true;
		}
		b->up.q.close_after = true;
		outq_flush(&b->up.q);
		fb_log_flush();
		if (b->state == FB_ST_RUNNING)
			begin_quitting(b, ev);
		return;
	case FB_EV_SIGNAL:
		/* XBoard signals its direct child, which is fenbridge: the
		 * engine gets the signal, fenbridge lives on and relays. */
		if (engine_runs) {
			int rc;
			fb_log_msg(FB_LOG_INFO, "got %s; forwarding it to the "
				   "engine", signal_name(arg));
			rc = uv_process_kill(&b->proc, arg);
			if (rc < 0)
				fb_log_msg(FB_LOG_WARN, "forwarding %s: %s",
					   signal_name(arg), uv_strerror(rc));
			b->quiet_end = true;
		} else {
			fb_log_msg(FB_LOG_INFO, "got %s; the engine has "
				   "exited", signal_name(arg));
		}
		fb_log_flush();
		return;
	case FB_EV_TIMER:
		if (b->state == FB_ST_QUITTING) {
			fb_log_msg(FB_LOG_WARN, "engine still running %.1f s "
				   "after quit; sending SIGTERM",
				   b->cfg->grace_ms / 1000.0);
			write_record(b, "the engine did not exit after quit");
			set_state(b, FB_ST_TERMINATING, ev);
			engine_kill(b, SIGTERM);
			timer_start(b, KILL_DELAY_MS);
		} else if (b->state == FB_ST_TERMINATING) {
			fb_log_msg(FB_LOG_WARN, "engine ignored SIGTERM; "
				   "sending SIGKILL");
			set_state(b, FB_ST_KILLING, ev);
			engine_kill(b, SIGKILL);
		} else if (b->state == FB_ST_DRAINING) {
			/* The engine is gone but its output pipes are not
			 * closed: a process it started holds them. Its own
			 * output is read by now; do not wait for the other
			 * one. Each got_eof brings an FB_EV_IO. */
			if (!b->eng_out.eof || !b->eng_err.eof)
				fb_log_msg(FB_LOG_WARN, "the engine exited but "
					   "its output stays open (a process "
					   "it started holds it); not waiting "
					   "for it");
			got_eof(&b->eng_out, UV_EOF);
			got_eof(&b->eng_err, UV_EOF);
		}
		return;
	case FB_EV_ENGINE_EXIT:
		set_state(b, FB_ST_DRAINING, ev);
		/* Replaces a grace or kill timeout that was running. */
		timer_start(b, DRAIN_MS);
		advance(b, ev);
		return;
	case FB_EV_IO:
		advance(b, ev);
		return;
	}
}

/* ---- starting the engine ---- */

#ifdef __linux__
/*
 * Why a trampoline: the engine must not outlive fenbridge, however
 * fenbridge dies. cutechess-cli kills a stalled engine, which is fenbridge,
 * with SIGKILL: fenbridge gets no chance to act, and an engine that does
 * not watch its stdin would keep a core busy. Linux ties a child to its
 * parent's death with prctl(PR_SET_PDEATHSIG), but only the child can ask,
 * between fork and exec, and uv_spawn has no hook there. So fenbridge
 * spawns its own program (uv_exepath) as
 *
 *   fenbridge --exec-engine PARENT_PID FILE ARGV0 ARGS...
 *
 * and main() hands that, before anything else, to fb_bridge_exec_engine():
 * it asks for SIGKILL at the parent's death (kept across exec), checks that
 * its parent is still PARENT_PID (fenbridge may have died before prctl, and
 * then no signal would ever come), and execs the engine in its place. The
 * engine keeps the pid, stdio pipes, folder and environment that uv_spawn
 * set up. Descriptor EXEC_STATUS_FD is a close-on-exec pipe to fenbridge:
 * the exec closes it, or it carries the errno of a failed exec, so an engine
 * that cannot run is a start failure (127/126) as with a direct spawn, not
 * an engine that exited.
 *
 * The parent is the thread that forked: uv_spawn forks on the loop's
 * thread, fenbridge's main thread, which lives as long as fenbridge.
 *
 * Windows needs none of this: libuv's uv_spawn puts every child in a job
 * object with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE (src/win/process.c), whose
 * one handle closes when fenbridge ends, however it ends (tests/wine).
 */
int
fb_bridge_exec_engine(int argc, char **argv)
{
	char *end;
	long parent;
	int e;
	ssize_t w;

	if (argc < 5)
		return 2;
	errno = 0;
	parent = strtol(argv[2], &end, 10);
	if (errno != 0 || end == argv[2] || *end != '\0' || parent <= 1)
		return 2;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		/* Not expected (SIGKILL is valid): the engine still runs,
		 * as it would without the trampoline. */
		dprintf(STDERR_FILENO,
			"fenbridge: prctl(PR_SET_PDEATHSIG): %s\n",
			strerror(errno));
	else if (getppid() != (pid_t)parent)
		return 1; /* fenbridge is gone: no engine without it */
	(void)fcntl(EXEC_STATUS_FD, F_SETFD, FD_CLOEXEC);
	/* execvp, as uv_spawn itself uses: FILE holds a slash (the path as
	 * resolved), and a script without #! still runs under /bin/sh. */
	execvp(argv[3], argv + 4);
	e = errno;
	w = write(EXEC_STATUS_FD, &e, sizeof e);
	(void)w; /* fenbridge also sees the status */
	return e == ENOENT ? 127 : 126;
}

/*
 * Sets opt up to start the engine through the trampoline: the arguments
 * in *args (to free), the status pipe in st. Returns 0, or a negative error
 * (nothing to free; the engine is then started directly).
 */
static int
trampoline_setup(uv_process_options_t *opt, char *exe, size_t exe_size,
		 char *ppid, size_t ppid_size, char ***args, uv_file st[2])
{
	char **argv = opt->args, **a;
	size_t n = 0, size = exe_size;
	int rc;

	if ((rc = uv_exepath(exe, &size)) < 0) {
		fb_log_msg(FB_LOG_WARN, "uv_exepath: %s", uv_strerror(rc));
		return rc;
	}
	while (argv[n] != NULL)
		n++;
	if ((a = calloc(n + 5, sizeof *a)) == NULL)
		return UV_ENOMEM;
	if ((rc = uv_pipe(st, 0, 0)) < 0) {
		fb_log_msg(FB_LOG_WARN, "uv_pipe: %s", uv_strerror(rc));
		free(a);
		return rc;
	}
	snprintf(ppid, ppid_size, "%ld", (long)getpid());
	a[0] = exe;
	a[1] = (char *)FB_BRIDGE_EXEC_ENGINE;
	a[2] = ppid;
	a[3] = (char *)opt->file;
	memcpy(a + 4, argv, (n + 1) * sizeof *a);
	opt->file = exe;
	opt->args = a;
	*args = a;
	return 0;
}

/*
 * The trampoline's report on st (see above): 0 once the engine runs (the
 * exec closed the pipe), or the error of the failed exec. Blocks until the
 * trampoline has exec'd, a matter of microseconds, as uv_spawn blocks for
 * its own child.
 */
static int
exec_status(uv_file st)
{
	int e = 0;
	ssize_t n;

	do
		n = read(st, &e, sizeof e);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return uv_translate_sys_error(errno);
	return n == (ssize_t)sizeof e && e > 0 ? uv_translate_sys_error(e) : 0;
}
#endif

static void
close_fds(uv_file *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
}

static int
spawn_engine(struct fb_bridge *b)
{
	/* in, out, err: the engine's stdio; st: the trampoline's status */
	uv_file in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1},
		st[2] = {-1, -1};
	uv_process_options_t opt;
	uv_stdio_container_t stdio[4];
	char **args = NULL;
	pid_t pid = 0;
	int rc;

	if ((rc = uv_pipe(in, 0, 0)) < 0 || (rc = uv_pipe(out, 0, 0)) < 0 ||
	    (rc = uv_pipe(err, 0, 0)) < 0) {
		close_fds(in, 2);
		close_fds(out, 2);
		return rc;
	}
	widen_pipe(out[0]);
	memset(&opt, 0, sizeof opt);
	stdio[0].flags = UV_INHERIT_FD;
	stdio[0].data.fd = in[0];
	stdio[1].flags = UV_INHERIT_FD;
	stdio[1].data.fd = out[1];
	stdio[2].flags = UV_INHERIT_FD;
	stdio[2].data.fd = err[1];
	opt.file = b->cfg->engine_file ? b->cfg->engine_file
					: b->cfg->engine_argv[0];
	opt.args = b->cfg->engine_argv;
	opt.cwd = b->cfg->engine_dir;
	opt.env = b->env;
	opt.exit_cb = on_engine_exit;
	opt.stdio = stdio;
	opt.stdio_count = 3;
#ifdef __linux__
	{
		char exe[PATH_MAX], ppid[24];
		if (trampoline_setup(&opt, exe, sizeof exe, ppid, sizeof ppid,
				     &args, st) == 0) {
			stdio[EXEC_STATUS_FD].flags = UV_INHERIT_FD;
			stdio[EXEC_STATUS_FD].data.fd = st[1];
			opt.stdio_count = EXEC_STATUS_FD + 1;
		} else {
			fb_log_msg(FB_LOG_WARN, "starting the engine directly: "
				   "it will outlive fenbridge if fenbridge is "
				   "killed");
		}
		b->proc.data = b;
		rc = uv_spawn(b->loop, &b->proc, &opt);
	}
#else
	b->proc.data = b;
	rc = uv_spawn(b->loop, &b->proc, &opt);
#endif
	free(args);
	if (rc == 0)
		pid = b->proc.pid;
	close(in[0]);
	close(out[1]);
	close(err[1]);
	close_fds(&st[1], 1);
#ifdef __linux__
	if (rc == 0 && st[0] >= 0)
		rc = exec_status(st[0]);
#endif
	close_fds(&st[0], 1);
	if (rc < 0) {
		close(in[1]);
		close(out[0]);
		close(err[0]);
		uv_close((uv_handle_t *)&b->proc, NULL);
		/* The trampoline could not exec the engine and exits: reap
		 * it here, since libuv stops watching a closed handle. */
#ifdef __linux__
		while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
#else
		(void)pid;
#endif
		return rc;
	}
	fb_log_msg(FB_LOG_INFO, "engine started, pid %d", b->proc.pid);
	lifecycle(b, FB_EV_SPAWNED, 0);
	if ((rc = endpoint_open(b, &b->eng_in, "engine's stdin", in[1],
				false)) < 0 ||
	    (rc = endpoint_open(b, &b->eng_out, "engine's stdout", out[0],
				true)) < 0 ||
	    (rc = endpoint_open(b, &b->eng_err, "engine's stderr", err[0],
				true)) < 0)
		return rc;
	return 0;
}

/*
 * Starting the engine again (FB_EVENT_RESTART): its handles and pipes are
 * closed first (libuv reuses none of them before its close callback), what
 * was queued for the dead engine and half a line of its output are
 * dropped, then the engine starts as at first and the filter gives it the
 * GUI's lines. The session stays running meanwhile; the GUI's lines wait
 * in the filter. A GUI that quits or leaves meanwhile ends it as an exit.
 */
static void
respawn(struct fb_bridge *b)
{
	struct endpoint *eps[3] = {&b->eng_in, &b->eng_out, &b->eng_err};
	size_t before;
	int rc;

	if (b->state != FB_ST_RUNNING) {
		fb_log_msg(FB_LOG_INFO, "not starting the engine again: the "
			   "GUI has quit or left");
		b->eng_out.eof = b->eng_err.eof = true;
		lifecycle(b, FB_EV_ENGINE_EXIT, 0);
		return;
	}
	for (int i = 0; i < 3; i++) {
		char *rbuf = eps[i]->rbuf;
		struct direction *dir = eps[i]->dir;
		memset(eps[i], 0, sizeof *eps[i]);
		eps[i]->rbuf = rbuf;
		eps[i]->dir = dir;
	}
	free(b->up.q.buf);
	free(b->up.q.wbuf);
	memset(&b->up.q, 0, sizeof b->up.q);
	b->up.q.ep = &b->eng_in;
	b->up.q.at_line_start = true;
	fb_line_free(&b->down.framer);
	fb_line_init(&b->down.framer, FB_LINE_DEFAULT_MAX);
	fb_line_finish(&b->err_framer, stderr_line, NULL);
	rc = spawn_engine(b);
	if (rc < 0 && !uv_is_active((uv_handle_t *)&b->proc)) {
		fb_log_msg(FB_LOG_ERROR, "cannot start the engine again: %s",
			   uv_strerror(rc));
		b->eng_out.eof = b->eng_err.eof = true;
		lifecycle(b, FB_EV_ENGINE_EXIT, 0);
		return;
	}
	if (rc < 0)
		fb_log_msg(FB_LOG_ERROR, "engine pipes: %s", uv_strerror(rc));
	start_reading(&b->eng_out);
	start_reading(&b->eng_err);
	before = b->up.q.len;
	fb_filter_engine_started(&b->filter, &b->up.sink);
	if (b->up.logging)
		log_queued(&b->up, before);
	outq_flush(&b->up.q);
	outq_flush(&b->down.q);
	fb_log_flush();
}

static void
on_restart_closed(uv_handle_t *h)
{
	struct fb_bridge *b = uv_handle_get_type(h) == UV_PROCESS
				      ? h->data
				      : ((struct endpoint *)h->data)->b;

	if (--b->closing == 0)
		respawn(b);
}

static void
restart_engine(struct fb_bridge *b)
{
	uv_handle_t *h[4] = {(uv_handle_t *)&b->proc, &b->eng_in.h.handle,
			     &b->eng_out.h.handle, &b->eng_err.h.handle};
	struct endpoint *eps[3] = {&b->eng_in, &b->eng_out, &b->eng_err};

	fb_log_msg(FB_LOG_INFO, "starting the engine again");
	b->closing = 1; /* until every close has been asked for */
	for (int i = 0; i < 4; i++) {
		if (i > 0 && !eps[i - 1]->open)
			continue;
		if (!uv_is_closing(h[i])) {
			b->closing++;
			uv_close(h[i], on_restart_closed);
		}
		if (i > 0)
			eps[i - 1]->open = false;
	}
	if (--b->closing == 0)
		respawn(b);
}

static void
direction_init(struct fb_bridge *b, struct direction *d, struct endpoint *src,
	       struct endpoint *dst, bool to_engine)
{
	d->b = b;
	d->src = src;
	d->to_engine = to_engine;
	d->q.ep = dst;
	d->q.at_line_start = true;
	d->in_tag = to_engine ? FB_TAG_GUI_IN : FB_TAG_ENGINE_IN;
	d->out_tag = to_engine ? FB_TAG_ENGINE_OUT : FB_TAG_GUI_OUT;
	/* The line being filtered goes on in pieces on its own direction's
	 * queue; fenbridge's own lines toward the other side go whole. */
	d->sink.to_engine = to_engine ? sink_emit : sink_reply;
	d->sink.to_gui = to_engine ? sink_reply : sink_emit;
	d->sink.pass = sink_pass;
	d->sink.report = sink_report;
	d->sink.event = sink_event;
	d->sink.timer = sink_timer;
	d->sink.ctx = d;
	d->logging = fb_log_enabled();
	d->sink.min_level = d->logging ? FB_LOG_DEBUG : FB_LOG_WARN;
	fb_line_init(&d->framer, FB_LINE_DEFAULT_MAX);
	src->dir = d;
}

/* fenbridge's environment with the config's additions (which win). */
static char **
engine_env(const struct fb_config *cfg)
{
	char **base = fb_platform_environ();
	size_t n = 0, k = 0;
	char **env;

	while (base != NULL && base[n] != NULL)
		n++;
	if ((env = calloc(n + cfg->nenv + 1, sizeof *env)) == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		bool replaced = false;
		for (size_t j = 0; j < cfg->nenv; j++) {
			size_t len = strcspn(cfg->env[j], "=") + 1;
			if (strncmp(base[i], cfg->env[j], len) == 0)
				replaced = true;
		}
		if (!replaced)
			env[k++] = base[i];
	}
	for (size_t j = 0; j < cfg->nenv; j++)
		env[k++] = cfg->env[j];
	return env;
}

int
fb_bridge_exepath(char *buf, size_t *size)
{
	return uv_exepath(buf, size);
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

/* Sets up the timer and the signals to forward: 0, or a negative error. */
static int
own_handles_init(struct fb_bridge *b)
{
	int rc;

	if ((rc = uv_timer_init(b->loop, &b->timer)) < 0) {
		fb_log_msg(FB_LOG_ERROR, "uv_timer_init: %s", uv_strerror(rc));
		return rc;
	}
	b->timer.data = b;
	if ((rc = uv_timer_init(b->loop, &b->filter_timer)) < 0) {
		fb_log_msg(FB_LOG_ERROR, "uv_timer_init: %s", uv_strerror(rc));
		return rc;
	}
	b->filter_timer.data = b;
	for (int i = 0; i < NFORWARDED; i++) {
		if ((rc = uv_signal_init(b->loop, &b->sig[i])) < 0) {
			fb_log_msg(FB_LOG_ERROR, "uv_signal_init: %s",
				   uv_strerror(rc));
			return rc;
		}
		b->sig[i].data = b;
		if ((rc = uv_signal_start(&b->sig[i], on_signal,
					  forwarded_signals[i])) < 0) {
			fb_log_msg(FB_LOG_ERROR, "uv_signal_start(%s): %s",
				   signal_name(forwarded_signals[i]),
				   uv_strerror(rc));
			return rc;
		}
	}
	return 0;
}

int
fb_bridge_run(const struct fb_config *cfg, char *why, size_t whylen)
{
	/* Static: a read of the GUI's stdin left running at the end (see
	 * advance) may still complete into them until the process exits. */
	static struct fb_bridge bridge;
	static uv_loop_t loop;
	struct fb_bridge *b = &bridge;
	struct fb_filter_options fopt = {0};
	int alive, rc;

	memset(b, 0, sizeof *b);
	b->cfg = cfg;
	b->exit_code = 1;
	b->state = FB_ST_STARTING;
	why[0] = '\0';
	if (cfg->nenv > 0 && (b->env = engine_env(cfg)) == NULL) {
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
	fopt.proto = fb_protocol_find(cfg->protocol);
	fopt.engine_proto = fb_protocol_find(cfg->engine_protocol);
	fopt.engine_probe = strcmp(cfg->engine_protocol, "auto") == 0;
	fopt.engine_fen = cfg->engine_fen;
	fopt.engine_fen_auto = cfg->engine_fen_auto;
	fopt.gui_fen = cfg->gui_fen;
	fopt.gui_castling = cfg->gui_castling;
	fopt.engine_castling = cfg->engine_castling;
	fopt.options = cfg->options;
	fopt.noptions = cfg->noptions;
	fopt.name = cfg->name;
	fb_filter_init(&b->filter, &fopt);
	if (!fb_recorder_init(&b->rec))
		fb_log_msg(FB_LOG_WARN, "out of memory: no flight recorder");
	fb_line_init(&b->err_framer, FB_LINE_DEFAULT_MAX);
	direction_init(b, &b->up, &b->gui_in, &b->eng_in, true);
	direction_init(b, &b->down, &b->eng_out, &b->gui_out, false);

	if ((rc = own_handles_init(b)) < 0) {
		/* Without them the grace period or signals would not work:
		 * start no engine. */
		close_own_handles(b);
		b->state = FB_ST_DONE;
	} else if ((rc = spawn_engine(b)) < 0 && b->state == FB_ST_STARTING) {
		snprintf(why, whylen, "cannot start engine '%s': %s",
			 cfg->engine_argv[0], uv_strerror(rc));
		fb_log_msg(FB_LOG_ERROR, "%s", why);
		b->exit_code = rc == UV_ENOENT ? 127 : 126;
		close_own_handles(b);
		b->state = FB_ST_DONE;
	} else {
		if (rc < 0)
			fb_log_msg(FB_LOG_ERROR, "engine pipes: %s",
				   uv_strerror(rc));
		if ((rc = endpoint_open(b, &b->gui_in, "GUI's stdin",
					STDIN_FILENO, true)) < 0)
			fb_log_msg(FB_LOG_ERROR, "stdin: %s", uv_strerror(rc));
		if ((rc = endpoint_open(b, &b->gui_out, "GUI's stdout",
					STDOUT_FILENO, false)) < 0)
			fb_log_msg(FB_LOG_ERROR, "stdout: %s",
				   uv_strerror(rc));
		/* The GUI's and the engine's bytes are read into the flight
		 * recorder's rings; the engine's stderr is copied there. */
		b->gui_in.rec_ring = FB_REC_RING_GUI;
		b->eng_out.rec_ring = FB_REC_RING_ENGINE;
		start_reading(&b->eng_out);
		start_reading(&b->eng_err);
		start_reading(&b->gui_in);
	}
	/* Returns once every handle is closed: the session is over; or at
	 * uv_stop in advance(), and then again if the GUI's read has ended
	 * meanwhile, so that the closes still under way finish. */
	do
		alive = uv_run(&loop, UV_RUN_DEFAULT);
	while (alive != 0 && b->state == FB_ST_DONE && !b->gui_in.fs_pending);
	if (b->gui_in.fs_pending) {
		/* The loop, the request and its buffer stay: the process
		 * ends, and the blocked read with it. */
		fb_log_msg(FB_LOG_DEBUG, "session done; the GUI's stdin is "
			   "still open: not waiting for it");
		return b->exit_code;
	}
	if (alive != 0 || b->state != FB_ST_DONE)
		fb_log_msg(FB_LOG_ERROR, "the loop ended in state %s",
			   state_name[b->state]);
	rc = uv_loop_close(&loop);
	if (rc < 0) {
		fb_log_msg(FB_LOG_ERROR, "uv_loop_close: %s (a handle was left "
			   "open)", uv_strerror(rc));
		uv_walk(&loop, log_handle, NULL);
	}
	free_all(b);
	return b->exit_code;
}
