/* SPDX-License-Identifier: MIT */
/*
 * The bridge: the only file that touches libuv. It spawns the engine on real
 * pipes, reads both sides, feeds the bytes to a line framer per direction,
 * hands each whole line to the protocol filter, and writes what the filter
 * emits in one write per batch. It owns the lifecycle: EOF, quit, grace
 * period, signals, the engine's exit.
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
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uv.h>

#include "fenbridge/filter.h"
#include "fenbridge/line.h"
#include "log.h"

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

struct fb_bridge;

/* One end fenbridge reads from or writes to. */
struct endpoint {
	struct fb_bridge *b;
	const char *name;
	int fd;
	bool is_file; /* regular file or device: uv_fs_read/uv_fs_write */
	bool open;    /* the stream handle needs closing */
	bool reading;
	bool eof;
	union {
		uv_handle_t handle;
		uv_stream_t stream;
		uv_pipe_t pipe;
		uv_tty_t tty;
		uv_tcp_t tcp;
	} h;
	uv_fs_t rreq;
	char *rbuf;
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
	uv_process_t proc;
	bool proc_started, proc_exited;
	int64_t exit_status;
	int term_signal;
	uv_signal_t sig[3];
	uv_timer_t timer;
	int stop_stage; /* 0 none, 1 waiting grace, 2 sent SIGTERM, 3 SIGKILL */
	bool gui_gone;  /* stdin EOF or stdout broken */
	bool finishing;
	bool signalled; /* we forwarded a signal the engine may die of */
	int exit_code;
	char **env; /* the engine's environment, or NULL: fenbridge's */
};

static const int forwarded_signals[3] = {SIGINT, SIGTERM, SIGHUP};

static void outq_flush(struct outq *q);
static void check_done(struct fb_bridge *b);
static void start_reading(struct endpoint *ep);
static void gui_gone(struct fb_bridge *b);
static void on_timer(uv_timer_t *t);

/* ---- output queues ---- */

static void
outq_append(struct outq *q, const char *data, size_t n)
{
	if (q->dead || n == 0)
		return;
	if (q->len + n > q->cap) {
		size_t cap = q->cap ? q->cap : 4096;
		char *p;
		while (cap < q->len + n)
			cap *= 2;
		p = realloc(q->buf, cap);
		if (p == NULL) {
			fb_log_msg(FB_LOG_ERROR, "out of memory queueing %zu "
				   "bytes for the %s", n, q->ep->name);
			abort();
		}
		q->buf = p;
		q->cap = cap;
	}
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

	if (!q->dead)
		fb_log_msg(status == UV_EPIPE || status == UV_ECANCELED
				   ? FB_LOG_INFO
				   : FB_LOG_WARN,
			   "writing to the %s: %s", q->ep->name,
			   uv_strerror(status));
	q->dead = true;
	q->len = 0;
	if (q == &b->down.q && !b->gui_gone) {
		/* The GUI is gone: end the session as on EOF. */
		b->gui_gone = true;
		gui_gone(b);
	}
}

/* Back-pressure released: read the source of q's direction again. */
static void
maybe_resume(struct outq *q)
{
	struct fb_bridge *b = q->ep->b;
	struct direction *d = q == &b->up.q ? &b->up : &b->down;

	if (!d->src->reading && !d->src->eof && outq_size(q) < LOW_WATER &&
	    b->proc_started && !b->finishing)
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
	check_done(q->ep->b);
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
		if (uv_fs_write(q->ep->b->loop, &q->req.fs, q->ep->fd, &buf, 1,
				-1, on_file_written) == 0)
			return;
		r = UV_EIO;
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

/* ---- filter sink ---- */

static void
sink_emit(void *ctx, const char *data, size_t len)
{
	struct direction *d = ctx;
	outq_append(&d->q, data, len);
}

static void
sink_report(void *ctx, enum fb_level level, const char *msg)
{
	struct direction *d = ctx;
	fb_log_msg(level, "%s %s", d->to_engine ? "GUI line:" : "engine line:",
		   msg);
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
	if (fb_log_enabled())
		log_queued(d, before);
}

/* Lines back toward the sender of the line being filtered. */
static void
sink_reply(void *ctx, const char *data, size_t len)
{
	struct direction *d = ctx;
	struct direction *back = d == &d->b->up ? &d->b->down : &d->b->up;

	queue_own_line(back, data, len);
	outq_flush(&back->q);
}

static void
on_line(void *ctx, const char *text, size_t len, size_t term, unsigned flags)
{
	struct direction *d = ctx;
	struct fb_bridge *b = d->b;
	size_t before = d->q.len;

	if (fb_log_enabled() && !(flags & FB_LINE_CONT))
		fb_log_line(d->in_tag, text, len);
	if (d->to_engine)
		fb_filter_gui_line(&b->filter, text, len, term, flags,
				   &d->sink);
	else
		fb_filter_engine_line(&b->filter, text, len, term, flags,
				      &d->sink);
	if (fb_log_enabled() && !(flags & FB_LINE_CONT) && !d->q.dead)
		log_queued(d, before);
}

static void
sink_event(void *ctx, enum fb_event ev)
{
	struct direction *d = ctx;
	struct fb_bridge *b = d->b;

	if (ev == FB_EVENT_GUI_QUIT && d->to_engine) {
		/* quit is the last word: EOF follows for engines that watch
		 * only that. python-chess waits for the process after quit
		 * without closing the pipe: make sure the engine does exit. */
		d->q.close_after = true;
		if (b->stop_stage == 0) {
			b->stop_stage = 1;
			uv_timer_start(&b->timer, on_timer, b->cfg->grace_ms,
				       0);
		}
	}
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

static void
on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	struct endpoint *ep = h->data;
	(void)suggested;
	*buf = uv_buf_init(ep->rbuf, READ_SIZE);
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
got_data(struct endpoint *ep, const char *data, size_t n)
{
	struct direction *d = ep->dir;

	if (d == NULL) { /* the engine's stderr */
		fb_line_push(&ep->b->err_framer, data, n, stderr_line, NULL);
		return;
	}
	fb_line_push(&d->framer, data, n, on_line, d);
	outq_flush(&d->q);
	fb_log_flush();
	if (outq_size(&d->q) > HIGH_WATER && ep->reading) {
		fb_log_msg(FB_LOG_DEBUG, "%s not reading: pausing the %s",
			   d->q.ep->name, ep->name);
		if (!ep->is_file)
			uv_read_stop(&ep->h.stream);
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
		uv_read_stop(&ep->h.stream);
	if (ep->dir == NULL) {
		fb_line_finish(&b->err_framer, stderr_line, NULL);
	} else {
		fb_line_finish(&ep->dir->framer, on_line, ep->dir);
		outq_flush(&ep->dir->q);
	}
	fb_log_msg(FB_LOG_DEBUG, "end of input from the %s", ep->name);
	fb_log_flush();
	if (ep == &b->gui_in && !b->gui_gone) {
		b->gui_gone = true;
		gui_gone(b);
	}
	check_done(b);
}

static void
on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
	struct endpoint *ep = s->data;
	(void)buf;

	if (nread > 0)
		got_data(ep, ep->rbuf, (size_t)nread);
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
	if (r > 0) {
		ep->reading = true; /* got_data may pause us */
		got_data(ep, ep->rbuf, (size_t)r);
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
		uv_buf_t buf = uv_buf_init(ep->rbuf, READ_SIZE);
		ep->rreq.data = ep;
		rc = uv_fs_read(ep->b->loop, &ep->rreq, ep->fd, &buf, 1, -1,
				on_file_read);
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
	if (readable && (ep->rbuf = malloc(READ_SIZE)) == NULL)
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
	case SIGPIPE: return "SIGPIPE";
	default: return "signal";
	}
}

static void
on_engine_exit(uv_process_t *p, int64_t status, int sig)
{
	struct fb_bridge *b = p->data;

	b->proc_exited = true;
	b->exit_status = status;
	b->term_signal = sig;
	uv_close((uv_handle_t *)p, NULL);
	if (sig != 0)
		fb_log_msg(FB_LOG_INFO, "engine died of %s (%d)",
			   signal_name(sig), sig);
	else
		fb_log_msg(FB_LOG_INFO, "engine exited with status %lld",
			   (long long)status);
	uv_timer_start(&b->timer, on_timer, DRAIN_MS, 0);
	check_done(b);
}

static void
on_timer(uv_timer_t *t)
{
	struct fb_bridge *b = t->data;

	if (b->proc_exited) {
		/* The engine is gone but its output pipes are not closed: a
		 * process it started holds them. Its own output is read by
		 * now; do not wait for the other one. */
		if (!b->eng_out.eof || !b->eng_err.eof)
			fb_log_msg(FB_LOG_WARN, "the engine exited but its "
				   "output stays open (a process it started "
				   "holds it); not waiting for it");
		got_eof(&b->eng_out, UV_EOF);
		got_eof(&b->eng_err, UV_EOF);
		return;
	}
	if (b->stop_stage == 1) {
		fb_log_msg(FB_LOG_WARN,
			   "engine still running %.1f s after quit; sending "
			   "SIGTERM", b->cfg->grace_ms / 1000.0);
		uv_process_kill(&b->proc, SIGTERM);
		b->stop_stage = 2;
		uv_timer_start(&b->timer, on_timer, KILL_DELAY_MS, 0);
	} else if (b->stop_stage == 2) {
		fb_log_msg(FB_LOG_WARN, "engine ignored SIGTERM; sending "
			   "SIGKILL");
		uv_process_kill(&b->proc, SIGKILL);
		b->stop_stage = 3;
	}
}

static void
gui_gone(struct fb_bridge *b)
{
	fb_log_msg(FB_LOG_DEBUG, "GUI gone; ending the session");
	if (!b->proc_started || b->proc_exited)
		return;
	if (!b->filter.gui_quit && !b->up.q.dead) {
		/* Both protocols end with quit; then EOF on the engine's
		 * stdin for engines that only watch that. */
		inject(&b->up, "quit");
		b->filter.gui_quit = true;
	}
	b->up.q.close_after = true;
	outq_flush(&b->up.q);
	fb_log_flush();
	if (b->stop_stage == 0) {
		b->stop_stage = 1;
		uv_timer_start(&b->timer, on_timer, b->cfg->grace_ms,
			       0);
	}
}

static void
on_signal(uv_signal_t *s, int signum)
{
	struct fb_bridge *b = s->data;

	fb_log_msg(FB_LOG_INFO, "got %s; forwarding it to the engine",
		   signal_name(signum));
	if (b->proc_started && !b->proc_exited) {
		int rc = uv_process_kill(&b->proc, signum);
		if (rc < 0)
			fb_log_msg(FB_LOG_WARN, "forwarding %s: %s",
				   signal_name(signum), uv_strerror(rc));
		b->signalled = true;
	}
	fb_log_flush();
}

/* The engine has exited and its output is read: tell and finish. */
static void
check_done(struct fb_bridge *b)
{
	if (!b->proc_exited || !b->eng_out.eof || !b->eng_err.eof)
		return;
	if (!b->finishing) {
		bool expected = b->filter.gui_quit || b->gui_gone ||
				b->signalled;
		b->finishing = true;
		if (b->term_signal != 0)
			b->exit_code = 128 + b->term_signal;
		else
			b->exit_code = (int)b->exit_status;
		if (!expected) {
			char what[64];
			if (b->term_signal != 0)
				snprintf(what, sizeof what, "died of %s (%d)",
					 signal_name(b->term_signal),
					 b->term_signal);
			else
				snprintf(what, sizeof what,
					 "exited with status %lld",
					 (long long)b->exit_status);
			fb_log_msg(FB_LOG_WARN, "the engine %s", what);
			if (fb_filter_protocol(&b->filter) != NULL)
				inject(&b->down, "%sfenbridge: the engine %s",
				       fb_filter_protocol(&b->filter)
					       ->user_message,
				       what);
		}
		outq_flush(&b->down.q);
		uv_timer_stop(&b->timer);
	}
	if (b->down.q.busy || (b->down.q.len > 0 && !b->down.q.dead))
		return; /* outq_written calls again */
	/* Everything is delivered: close what is still open. */
	endpoint_close(&b->gui_in);
	endpoint_close(&b->eng_in);
	endpoint_close(&b->eng_out);
	endpoint_close(&b->eng_err);
	endpoint_close(&b->gui_out);
	if (b->up.q.busy)
		return;
	for (int i = 0; i < 3; i++)
		if (!uv_is_closing((uv_handle_t *)&b->sig[i]))
			uv_close((uv_handle_t *)&b->sig[i], NULL);
	if (!uv_is_closing((uv_handle_t *)&b->timer))
		uv_close((uv_handle_t *)&b->timer, NULL);
	fb_log_flush();
}

static int
spawn_engine(struct fb_bridge *b)
{
	uv_file in[2], out[2], err[2];
	uv_process_options_t opt;
	uv_stdio_container_t stdio[3];
	int rc;

	if ((rc = uv_pipe(in, 0, 0)) < 0)
		return rc;
	if ((rc = uv_pipe(out, 0, 0)) < 0)
		return rc;
	widen_pipe(out[0]);
	if ((rc = uv_pipe(err, 0, 0)) < 0)
		return rc;
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
	b->proc.data = b;
	rc = uv_spawn(b->loop, &b->proc, &opt);
	close(in[0]);
	close(out[1]);
	close(err[1]);
	if (rc < 0) {
		close(in[1]);
		close(out[0]);
		close(err[0]);
		uv_close((uv_handle_t *)&b->proc, NULL);
		return rc;
	}
	b->proc_started = true;
	fb_log_msg(FB_LOG_INFO, "engine started, pid %d", b->proc.pid);
	if ((rc = endpoint_open(b, &b->eng_in, "engine's stdin", in[1],
				false)) < 0 ||
	    (rc = endpoint_open(b, &b->eng_out, "engine's stdout", out[0],
				true)) < 0 ||
	    (rc = endpoint_open(b, &b->eng_err, "engine's stderr", err[0],
				true)) < 0)
		return rc;
	return 0;
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
	d->sink.emit = sink_emit;
	d->sink.reply = sink_reply;
	d->sink.report = sink_report;
	d->sink.event = sink_event;
	d->sink.ctx = d;
	d->sink.min_level = fb_log_enabled() ? FB_LOG_DEBUG : FB_LOG_WARN;
	fb_line_init(&d->framer, FB_LINE_DEFAULT_MAX);
	src->dir = d;
}

/* fenbridge's environment with the config's additions (which win). */
static char **
engine_env(const struct fb_config *cfg)
{
	extern char **environ;
	size_t n = 0, k = 0;
	char **env;

	while (environ[n] != NULL)
		n++;
	if ((env = calloc(n + cfg->nenv + 1, sizeof *env)) == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		bool replaced = false;
		for (size_t j = 0; j < cfg->nenv; j++) {
			size_t len = strcspn(cfg->env[j], "=") + 1;
			if (strncmp(environ[i], cfg->env[j], len) == 0)
				replaced = true;
		}
		if (!replaced)
			env[k++] = environ[i];
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

int
fb_bridge_run(const struct fb_config *cfg)
{
	struct fb_bridge bridge, *b = &bridge;
	struct fb_filter_options fopt;
	uv_loop_t loop;
	int rc;

	memset(b, 0, sizeof *b);
	b->cfg = cfg;
	b->exit_code = 1;
	if ((rc = uv_loop_init(&loop)) < 0) {
		fb_log_msg(FB_LOG_ERROR, "uv_loop_init: %s", uv_strerror(rc));
		return 1;
	}
	b->loop = &loop;
	fopt.proto = fb_protocol_find(cfg->protocol);
	fopt.engine_fen = cfg->engine_fen;
	fopt.engine_fen_auto = cfg->engine_fen_auto;
	fopt.gui_fen = cfg->gui_fen;
	fopt.gui_castling = cfg->gui_castling;
	fopt.engine_castling = cfg->engine_castling;
	fopt.options = cfg->options;
	fopt.noptions = cfg->noptions;
	fopt.name = cfg->name;
	if (cfg->nenv > 0 && (b->env = engine_env(cfg)) == NULL) {
		fb_log_msg(FB_LOG_ERROR, "out of memory");
		return 1;
	}
	fb_filter_init(&b->filter, &fopt);
	fb_line_init(&b->err_framer, FB_LINE_DEFAULT_MAX);
	direction_init(b, &b->up, &b->gui_in, &b->eng_in, true);
	direction_init(b, &b->down, &b->eng_out, &b->gui_out, false);
	uv_timer_init(&loop, &b->timer);
	b->timer.data = b;
	for (int i = 0; i < 3; i++) {
		uv_signal_init(&loop, &b->sig[i]);
		b->sig[i].data = b;
		uv_signal_start(&b->sig[i], on_signal, forwarded_signals[i]);
	}

	rc = spawn_engine(b);
	if (rc < 0 && !b->proc_started) {
		fb_log_msg(FB_LOG_ERROR, "cannot start engine '%s': %s",
			   cfg->engine_argv[0], uv_strerror(rc));
		b->exit_code = rc == UV_ENOENT ? 127 : 126;
		for (int i = 0; i < 3; i++)
			uv_close((uv_handle_t *)&b->sig[i], NULL);
		uv_close((uv_handle_t *)&b->timer, NULL);
		uv_run(&loop, UV_RUN_DEFAULT);
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
		start_reading(&b->eng_out);
		start_reading(&b->eng_err);
		start_reading(&b->gui_in);
		uv_run(&loop, UV_RUN_DEFAULT);
	}
	rc = uv_loop_close(&loop);
	if (rc < 0) {
		fb_log_msg(FB_LOG_ERROR, "uv_loop_close: %s (a handle was left "
			   "open)", uv_strerror(rc));
		uv_walk(&loop, log_handle, NULL);
	}
	free_all(b);
	return b->exit_code;
}
