/* SPDX-License-Identifier: MIT */
/*
 * `fenbridge check`: the I/O around protocols/check.c's script. Starts the
 * engine on pipes, frames its stdout into lines for the script, sends what
 * the script queues, runs its one timer, kills and restarts the engine
 * when it asks, and prints the report at the end. Every decision is the
 * script's; this file only carries lines and time, and tells slow from
 * silent (wait.h): a deadline for an answer that runs out while the
 * engine is starved of CPU is extended, and an answer that comes late is
 * the script's as any other, noted as slow.
 */
#include "check_run.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "config.h"
#include "fenbridge/line.h"
#include "platform.h"
#include "check.h"
#include "wait.h"

/* After its exit, how long the engine's output may stay open (a child of
 * its own may hold the pipe) before the exit counts anyway. */
#define EOF_GRACE_MS 1000

/* One engine process, its pipes and its grace timer; freed when all four
 * are closed. */
struct proc {
	uv_process_t proc;
	uv_pipe_t in, out;
	uv_timer_t grace;
	struct drv *d;
	int open; /* handles not yet closed */
	bool exited, eof;
	int64_t status;
	int signal;
};

struct drv {
	uv_loop_t loop;
	uv_timer_t timer;
	struct fb_wait wait; /* the timer's, while armed */
	bool waiting;
	struct fb_line lf;
	struct fb_check ck;
	char **argv;
	bool verbose;
	bool done;
	struct proc *p; /* the engine now, or NULL */
	int start_error;
	size_t at_seen;   /* steps whose time is stamped */
	uint64_t step_t0; /* when the step at at_seen began */
};

static void
apply(struct drv *d, struct fb_check_out *out);
static void
on_line(void *ctx, const char *text, size_t len, size_t term, unsigned flags);
static int
spawn(struct drv *d);

static void
on_closed(uv_handle_t *h)
{
	struct proc *p = h->data;

	if (--p->open == 0)
		free(p);
}

static void
close_proc(struct proc *p)
{
	uv_close((uv_handle_t *)&p->proc, on_closed);
	uv_close((uv_handle_t *)&p->in, on_closed);
	uv_close((uv_handle_t *)&p->out, on_closed);
	uv_close((uv_handle_t *)&p->grace, on_closed);
}

/* The exit counts once the output has been read to its end too, so that
 * the script sees the last lines before the exit. */
static void
maybe_exited(struct proc *p)
{
	struct drv *d = p->d;
	struct fb_check_out out;

	if (!p->exited || !p->eof || d->p != p)
		return;
	uv_timer_stop(&p->grace);
	d->p = NULL;
	close_proc(p);
	if (d->verbose)
		fprintf(stderr, "engine exited (status %lld, signal %d)\n",
			(long long)p->status, p->signal);
	fb_check_exit(&d->ck, (unsigned)p->status, p->signal, &out);
	apply(d, &out);
}

static void
on_grace(uv_timer_t *t)
{
	struct proc *p = t->data;

	if (!p->eof) {
		uv_read_stop((uv_stream_t *)&p->out);
		if (p->d->p == p)
			fb_line_finish(&p->d->lf, on_line, p->d);
		p->eof = true;
	}
	maybe_exited(p);
}

static void
on_exit_cb(uv_process_t *h, int64_t status, int sig)
{
	struct proc *p = h->data;

	p->exited = true;
	p->status = status;
	p->signal = sig;
	if (!p->eof)
		uv_timer_start(&p->grace, on_grace, EOF_GRACE_MS, 0);
	maybe_exited(p);
}

static void
on_line(void *ctx, const char *text, size_t len, size_t term, unsigned flags)
{
	struct drv *d = ctx;
	struct fb_check_out out;

	(void)term;
	if (flags & FB_LINE_CONT)
		return;
	if (d->verbose)
		fprintf(stderr, "engine> %.*s\n", (int)len, text);
	if (d->waiting) {
		uint64_t late = fb_wait_late_ms(&d->wait, uv_now(&d->loop));
		if (late > 0)
			fb_check_slow(&d->ck, (unsigned)late);
	}
	fb_check_line(&d->ck, text, len, &out);
	apply(d, &out);
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
	struct proc *p = s->data;
	struct drv *d = p->d;

	if (n > 0 && d->p == p) {
		fb_line_push(&d->lf, buf->base, (size_t)n, on_line, d);
	} else if (n < 0) {
		uv_read_stop(s);
		if (d->p == p)
			fb_line_finish(&d->lf, on_line, d);
		p->eof = true;
		maybe_exited(p);
	}
}

static void
on_written(uv_write_t *req, int status)
{
	(void)status; /* a dead engine's pipe: its exit tells the script */
	free(req);
}

/* The engine process now, for the wait (nothing known without one). */
static const struct fb_proc_sample *
sample(struct drv *d, struct fb_proc_sample *s)
{
	if (d->p == NULL || fb_platform_proc_sample(d->p->proc.pid, s) < 0)
		return NULL;
	return s;
}

static void
on_timer(uv_timer_t *t)
{
	struct drv *d = t->data;
	struct fb_check_out out;
	struct fb_proc_sample s;
	unsigned more = fb_wait_due(&d->wait, uv_now(&d->loop), sample(d, &s));

	if (more > 0) {
		/* Slow, not silent: starved or working. */
		if (d->verbose && d->wait.extended == 1)
			fprintf(stderr,
				"fenbridge: the engine is slow (the machine is "
				"busy): waiting on\n");
		uv_timer_start(&d->timer, on_timer, more, 0);
		return;
	}
	d->waiting = false;
	fb_check_timeout(&d->ck, &out);
	apply(d, &out);
}

/* Arms the timer for a time the script asked for. */
static void
arm(struct drv *d, unsigned ms, enum fb_check_clock clock)
{
	struct fb_proc_sample s;
	enum fb_wait_kind kind = clock == FB_CHECK_OWN_TIME ? FB_WAIT_ENGINE
							    : FB_WAIT_SILENCE;

	fb_wait_start(&d->wait, kind, ms, uv_now(&d->loop), sample(d, &s));
	d->waiting = true;
	uv_timer_start(&d->timer, on_timer, ms, 0);
}

static void
send_text(struct drv *d, const char *s, size_t n)
{
	uv_write_t *req;
	uv_buf_t buf;

	if (d->p == NULL || n == 0)
		return;
	if (d->verbose)
		fprintf(stderr, "%.*s", (int)n, s); /* ">engine" lines */
	if ((req = malloc(sizeof *req + n)) == NULL)
		return;
	memcpy(req + 1, s, n);
	buf = uv_buf_init((char *)(req + 1), (unsigned)n);
	if (uv_write(req, (uv_stream_t *)&d->p->in, &buf, 1, on_written) < 0)
		free(req);
}

/* Stamps the time of each step the script finished since the last call
 * (the handshake's time counts toward the first step's). */
static void
stamp(struct drv *d)
{
	uint64_t now = uv_now(&d->loop);

	if (d->ck.nsteps == 0)
		d->step_t0 = now;
	for (; d->at_seen < d->ck.at && d->at_seen < d->ck.nsteps;
	     d->at_seen++) {
		d->ck.step[d->at_seen].ms = (unsigned)(now - d->step_t0);
		d->step_t0 = now;
	}
}

static void
apply(struct drv *d, struct fb_check_out *out)
{
	stamp(d);
	if (d->verbose && out->len > 0) {
		for (const char *s = out->text; s < out->text + out->len;) {
			const char *nl =
				memchr(s, '\n', out->text + out->len - s);
			size_t n = nl ? (size_t)(nl - s) : strlen(s);
			fprintf(stderr, ">engine %.*s\n", (int)n, s);
			s += n + 1;
		}
	}
	if (out->len > 0 && d->p != NULL) {
		bool v = d->verbose;
		d->verbose = false;
		send_text(d, out->text, out->len);
		d->verbose = v;
	}
	if (out->rearm) {
		uv_timer_stop(&d->timer);
		d->waiting = false;
		if (out->wait_ms > 0)
			arm(d, out->wait_ms, out->clock);
	}
	if (out->kill && d->p != NULL)
		uv_process_kill(&d->p->proc, SIGKILL);
	if (out->done) {
		d->done = true;
		d->waiting = false;
		uv_timer_stop(&d->timer);
	}
	if (out->restart && !d->done) {
		struct fb_check_out next;
		if (spawn(d) < 0) {
			fb_check_fail(&d->ck, &next);
			apply(d, &next);
			return;
		}
		fb_check_start(&d->ck, &next);
		apply(d, &next);
	}
	if (d->done && d->p == NULL && !uv_is_closing((uv_handle_t *)&d->timer))
		uv_close((uv_handle_t *)&d->timer, NULL);
}

static int
spawn(struct drv *d)
{
	struct proc *p = calloc(1, sizeof *p);
	uv_process_options_t opt = {0};
	uv_stdio_container_t stdio[3];
	int rc;

	if (p == NULL)
		return UV_ENOMEM;
	p->d = d;
	uv_pipe_init(&d->loop, &p->in, 0);
	uv_pipe_init(&d->loop, &p->out, 0);
	uv_timer_init(&d->loop, &p->grace);
	p->in.data = p->out.data = p->proc.data = p->grace.data = p;
	stdio[0].flags = UV_CREATE_PIPE | UV_READABLE_PIPE;
	stdio[0].data.stream = (uv_stream_t *)&p->in;
	stdio[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	stdio[1].data.stream = (uv_stream_t *)&p->out;
	/* The engine's stderr is no protocol: shown with -v only. */
	stdio[2].flags = d->verbose ? UV_INHERIT_FD : UV_IGNORE;
	stdio[2].data.fd = 2;
	opt.file = d->argv[0];
	opt.args = d->argv;
	opt.exit_cb = on_exit_cb;
	opt.stdio = stdio;
	opt.stdio_count = 3;
	fb_line_free(&d->lf);
	fb_line_init(&d->lf, FB_LINE_DEFAULT_MAX);
	if ((rc = uv_spawn(&d->loop, &p->proc, &opt)) < 0) {
		p->open = 3;
		uv_close((uv_handle_t *)&p->in, on_closed);
		uv_close((uv_handle_t *)&p->out, on_closed);
		uv_close((uv_handle_t *)&p->grace, on_closed);
		uv_close((uv_handle_t *)&p->proc, NULL);
		d->start_error = rc;
		return rc;
	}
	p->open = 4;
	d->p = p;
	uv_read_start((uv_stream_t *)&p->out, on_alloc, on_read);
	return 0;
}

int
fb_check_run_main(int argc, char **argv)
{
	struct fb_check_config cfg;
	struct drv *d;
	struct fb_check_out out;
	static char report[FB_CHECK_REPORT_MAX];
	char err[512];
	enum fb_check_protocol proto;
	int rc;

	if (fb_config_parse_check(&cfg, argc, argv, err, sizeof err) < 0) {
		fprintf(stderr,
			"fenbridge check: %s\nTry 'fenbridge check "
			"--help'.\n",
			err);
		return 2;
	}
	if (cfg.action == FB_SHOW_HELP) {
		static char help[8192];
		fb_config_print_help(&fb_config_check_table, help, sizeof help);
		fputs(help, stdout);
		return 0;
	}
	proto = strcmp(cfg.protocol, "uci") == 0      ? FB_CHECK_UCI
		: strcmp(cfg.protocol, "xboard") == 0 ? FB_CHECK_XBOARD
						      : FB_CHECK_AUTO;
	if ((d = calloc(1, sizeof *d)) == NULL)
		return 1;
	fb_platform_ignore_sigpipe();
	d->argv = argv + cfg.first;
	d->verbose = cfg.verbose;
	uv_loop_init(&d->loop);
	uv_timer_init(&d->loop, &d->timer);
	d->timer.data = d;
	fb_line_init(&d->lf, FB_LINE_DEFAULT_MAX);
	fb_check_init(&d->ck, proto, cfg.timeout_ms, cfg.search_ms);
	d->step_t0 = uv_now(&d->loop);
	if ((rc = spawn(d)) < 0) {
		fprintf(stderr, "fenbridge check: cannot start '%s': %s\n",
			d->argv[0], uv_strerror(rc));
		uv_close((uv_handle_t *)&d->timer, NULL);
		uv_run(&d->loop, UV_RUN_DEFAULT);
		rc = 2;
	} else {
		fb_check_start(&d->ck, &out);
		apply(d, &out);
		uv_run(&d->loop, UV_RUN_DEFAULT);
		if (cfg.json)
			fb_check_report_json(&d->ck, report, sizeof report);
		else
			fb_check_report(&d->ck, report, sizeof report);
		fputs(report, stdout);
		rc = fb_check_findings(&d->ck) > 0 ? 1 : 0;
	}
	if (uv_loop_close(&d->loop) != 0)
		fprintf(stderr, "fenbridge check: handles left open\n");
	fb_line_free(&d->lf);
	free(d);
	return rc;
}
