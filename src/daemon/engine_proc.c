/* SPDX-License-Identifier: MIT */
/*
 * An engine on pipes for `check` and `replay` (engine_proc.h): one process,
 * its two pipes, a framer for its stdout and a grace timer, freed when all
 * four handles are closed.
 */
#include "engine_proc.h"

#include <stdlib.h>
#include <string.h>

#include "fenbridge/line.h"

/* After its exit, how long the engine's output may stay open (a child of
 * its own may hold the pipe) before the exit counts anyway. */
#define EOF_GRACE_MS 1000

struct fb_eproc {
	uv_process_t proc;
	uv_pipe_t in, out;
	uv_timer_t grace;
	struct fb_line lf;
	struct fb_eproc_cb cb;
	int open; /* handles not yet closed */
	bool exited, eof, told;
	int64_t status;
	int signal;
};

static void
on_closed(uv_handle_t *h)
{
	struct fb_eproc *p = h->data;

	if (--p->open == 0) {
		fb_line_free(&p->lf);
		free(p);
	}
}

static void
on_line(void *ctx, const char *text, size_t len, size_t term, unsigned flags)
{
	struct fb_eproc *p = ctx;

	(void)term;
	if (!(flags & FB_LINE_CONT) && !p->told)
		p->cb.line(p->cb.ctx, p, text, len);
}

/* The exit counts once the output has been read to its end too. */
static void
maybe_exited(struct fb_eproc *p)
{
	if (!p->exited || !p->eof || p->told)
		return;
	p->told = true;
	uv_timer_stop(&p->grace);
	p->cb.exit(p->cb.ctx, p, p->status, p->signal);
	uv_close((uv_handle_t *)&p->proc, on_closed);
	uv_close((uv_handle_t *)&p->in, on_closed);
	uv_close((uv_handle_t *)&p->out, on_closed);
	uv_close((uv_handle_t *)&p->grace, on_closed);
}

static void
end_output(struct fb_eproc *p)
{
	if (p->eof)
		return;
	uv_read_stop((uv_stream_t *)&p->out);
	fb_line_finish(&p->lf, on_line, p);
	p->eof = true;
}

static void
on_grace(uv_timer_t *t)
{
	struct fb_eproc *p = t->data;

	end_output(p);
	maybe_exited(p);
}

static void
on_exit_cb(uv_process_t *h, int64_t status, int sig)
{
	struct fb_eproc *p = h->data;

	p->exited = true;
	p->status = status;
	p->signal = sig;
	if (!p->eof)
		uv_timer_start(&p->grace, on_grace, EOF_GRACE_MS, 0);
	maybe_exited(p);
}

static void
on_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
	static char mem[64 * 1024];

	(void)h, (void)hint;
	*buf = uv_buf_init(mem, sizeof mem);
}

static void
on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
	struct fb_eproc *p = s->data;

	if (n > 0) {
		fb_line_push(&p->lf, buf->base, (size_t)n, on_line, p);
	} else if (n < 0) {
		end_output(p);
		maybe_exited(p);
	}
}

static void
on_written(uv_write_t *req, int status)
{
	(void)status; /* a dead engine's pipe: its exit tells */
	free(req);
}

void
fb_eproc_send(struct fb_eproc *p, const char *s, size_t n)
{
	uv_write_t *req;
	uv_buf_t buf;

	if (p == NULL || n == 0 || p->told)
		return;
	if ((req = malloc(sizeof *req + n)) == NULL)
		return;
	memcpy(req + 1, s, n);
	buf = uv_buf_init((char *)(req + 1), (unsigned)n);
	if (uv_write(req, (uv_stream_t *)&p->in, &buf, 1, on_written) < 0)
		free(req);
}

void
fb_eproc_kill(struct fb_eproc *p, int sig)
{
	if (p != NULL && !p->exited)
		uv_process_kill(&p->proc, sig);
}

int
fb_eproc_spawn(uv_loop_t *loop, char **argv, bool show_stderr,
	       const struct fb_eproc_cb *cb, struct fb_eproc **out)
{
	struct fb_eproc *p = calloc(1, sizeof *p);
	uv_process_options_t opt = {0};
	uv_stdio_container_t stdio[3];
	int rc;

	if (p == NULL)
		return UV_ENOMEM;
	p->cb = *cb;
	fb_line_init(&p->lf, FB_LINE_DEFAULT_MAX);
	uv_pipe_init(loop, &p->in, 0);
	uv_pipe_init(loop, &p->out, 0);
	uv_timer_init(loop, &p->grace);
	p->in.data = p->out.data = p->proc.data = p->grace.data = p;
	stdio[0].flags = UV_CREATE_PIPE | UV_READABLE_PIPE;
	stdio[0].data.stream = (uv_stream_t *)&p->in;
	stdio[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	stdio[1].data.stream = (uv_stream_t *)&p->out;
	/* The engine's stderr is no protocol. */
	stdio[2].flags = show_stderr ? UV_INHERIT_FD : UV_IGNORE;
	stdio[2].data.fd = 2;
	opt.file = argv[0];
	opt.args = argv;
	opt.exit_cb = on_exit_cb;
	opt.stdio = stdio;
	opt.stdio_count = 3;
	if ((rc = uv_spawn(loop, &p->proc, &opt)) < 0) {
		p->open = 3;
		uv_close((uv_handle_t *)&p->in, on_closed);
		uv_close((uv_handle_t *)&p->out, on_closed);
		uv_close((uv_handle_t *)&p->grace, on_closed);
		uv_close((uv_handle_t *)&p->proc, NULL);
		return rc;
	}
	p->open = 4;
	uv_read_start((uv_stream_t *)&p->out, on_alloc, on_read);
	*out = p;
	return 0;
}

int
fb_eproc_pid(const struct fb_eproc *p)
{
	return p->proc.pid;
}
