/* SPDX-License-Identifier: MIT */
/*
 * The bridge's I/O: the output queue toward each endpoint, the endpoints
 * themselves (pipe, tty, socket, or a file served by libuv's threads), and
 * reading, which hands each read to the flight recorder and the direction's
 * framer.
 *
 * One write is in flight per direction; what arrives meanwhile collects in a
 * second buffer and goes out as the next single write. When a direction has
 * more than HIGH_WATER bytes queued its source stops being read until the
 * queue drains below LOW_WATER, so memory stays bounded and nothing is lost.
 */
/* F_SETPIPE_SZ (Linux) */
#define _GNU_SOURCE
#include "bridge_int.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Larger than a pipe holds (64 KiB): a read that does not fill the buffer
 * tells libuv the pipe is drained, sparing a read that would only say
 * EAGAIN. */
#define READ_SIZE (128 * 1024)
#define PIPE_SIZE (256 * 1024)
#define HIGH_WATER (64 * 1024)
#define LOW_WATER (16 * 1024)

/* Room for n more bytes in q->buf; out of memory is fatal
 * (doc/internals.md). Kept out of br_outq_append, which runs for every
 * line. */
__attribute__((noinline)) void
br_outq_grow(struct outq *q, size_t n)
{
	size_t cap = q->cap ? q->cap : 4096;
	char *p;

	while (cap < q->len + n)
		cap *= 2;
	p = realloc(q->buf, cap);
	if (p == NULL) {
		fb_log_msg(FB_LOG_ERROR,
			   "out of memory queueing %zu bytes "
			   "for the %s",
			   n, q->ep->name);
		abort();
	}
	q->buf = p;
	q->cap = cap;
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
		br_lifecycle(b, FB_EV_GUI_GONE, 0); /* as on EOF */
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
		br_start_reading(d->src);
}

static void
outq_written(struct outq *q, int status)
{
	q->busy = false;
	if (status < 0)
		outq_failed(q, status);
	q->wlen = q->woff = 0;
	maybe_resume(q);
	br_outq_flush(q);
	br_lifecycle(q->ep->b, FB_EV_IO, 0);
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

void
br_endpoint_close(struct endpoint *ep)
{
	if (ep->open && !uv_is_closing(&ep->h.handle))
		uv_close(&ep->h.handle, NULL);
	else if (ep->is_file && ep->fd > 2)
		close(ep->fd);
	ep->open = false;
	ep->is_file = false;
}

void
br_outq_flush(struct outq *q)
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
		/* Unusable from the start (br_endpoint_open) or closed: libuv
		 * must not see a write to a handle that was never opened. */
		q->dead = true;
		q->len = 0;
	}
	if (q->len == 0 || q->dead) {
		if (q->close_after && q->ep->open) {
			br_endpoint_close(q->ep);
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

/* Where the next read goes: the recorder's ring, so that keeping what was
 * read costs no copy, else the endpoint's own buffer. */
static uv_buf_t
read_buffer(struct endpoint *ep)
{
	size_t cap;
	char *p = ep->rec_ring >= 0 ? fb_recorder_reserve(
					      &ep->b->rec,
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

void
br_stderr_line(void *ctx, const char *text, size_t len, size_t term,
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
	enum fb_rec_tag tag = d == NULL      ? FB_REC_ERR
			      : d->to_engine ? FB_REC_GUI
					     : FB_REC_ENGINE;
	if (data != ep->rbuf)
		fb_recorder_commit(&ep->b->rec,
				   (enum fb_rec_ring_id)ep->rec_ring, tag,
				   br_since_start(ep->b), n);
	else
		fb_recorder_add(&ep->b->rec, tag, br_since_start(ep->b), data,
				n);
	if (d == NULL) { /* the engine's stderr */
		fb_line_push(&ep->b->err_framer, data, n, br_stderr_line,
			     ep->b);
		return;
	}
	fb_line_push(&d->framer, data, n,
		     d->to_engine ? br_on_line : br_on_engine_line, d);
	br_outq_flush(&d->q);
	fb_log_flush();
	if (d->to_engine && ep->b->state == FB_ST_DRAINING)
		br_lifecycle(ep->b, FB_EV_IO, 0); /* a wait for the GUI */
	if (outq_size(&d->q) > HIGH_WATER && ep->reading) {
		fb_log_msg(FB_LOG_DEBUG, "%s not reading: pausing the %s",
			   d->q.ep->name, ep->name);
		if (!ep->is_file)
			read_stop(ep);
		ep->reading = false;
	}
}

void
br_got_eof(struct endpoint *ep, int status)
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
		fb_line_finish(&b->err_framer, br_stderr_line, b);
	} else {
		fb_line_finish(&ep->dir->framer, br_on_line, ep->dir);
		br_outq_flush(&ep->dir->q);
	}
	fb_log_msg(FB_LOG_DEBUG, "end of input from the %s", ep->name);
	fb_log_flush();
	if (ep == &b->gui_in)
		br_lifecycle(b, FB_EV_GUI_EOF, 0);
	br_lifecycle(b, FB_EV_IO, 0);
}

static void
on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
	struct endpoint *ep = s->data;

	if (nread > 0)
		got_data(ep, buf->base, (size_t)nread);
	else if (nread < 0)
		br_got_eof(ep, (int)nread);
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
			br_start_reading(ep);
		}
	} else {
		br_got_eof(ep, r == 0 ? UV_EOF : (int)r);
	}
}

void
br_start_reading(struct endpoint *ep)
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
		br_got_eof(ep, rc);
		return;
	}
	ep->reading = true;
}

/*
 * A bigger pipe lets an engine's burst of output, and fenbridge's write of
 * it, go through whole instead of in pieces that each cost a trip through
 * the loop. Only where the system allows it; nothing depends on it.
 */
void
br_widen_pipe(int fd)
{
#ifdef F_SETPIPE_SZ
	(void)fcntl(fd, F_SETPIPE_SZ, PIPE_SIZE);
#else
	(void)fd;
#endif
}

/* Opens fd for the loop as a stream (pipe, tty, socket) or a file. */
int
br_endpoint_open(struct fb_bridge *b, struct endpoint *ep, const char *name,
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
			br_widen_pipe(fd);
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
		/* Unusable (a datagram socket, say): br_start_reading reports
		 * EOF, so a GUI stdin ends the session; br_outq_flush drops
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
