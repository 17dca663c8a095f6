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
#include "engine_proc.h"
#include "platform.h"
#include "check.h"
#include "wait.h"

struct drv {
	uv_loop_t loop;
	uv_timer_t timer;
	struct fb_wait wait; /* the timer's, while armed */
	bool waiting;
	struct fb_check ck;
	char **argv;
	bool verbose;
	bool done;
	struct fb_eproc *p; /* the engine now, or NULL */
	int start_error;
	size_t at_seen;   /* steps whose time is stamped */
	uint64_t step_t0; /* when the step at at_seen began */
};

static void
apply(struct drv *d, struct fb_check_out *out);
static int
spawn(struct drv *d);

/* The engine's end (after its last lines): an engine killed or started
 * again before is no longer the one the script talks to. */
static void
on_exit_cb(void *ctx, struct fb_eproc *p, int64_t status, int sig)
{
	struct drv *d = ctx;
	struct fb_check_out out;

	if (d->p != p)
		return;
	d->p = NULL;
	if (d->verbose)
		fprintf(stderr, "engine exited (status %lld, signal %d)\n",
			(long long)status, sig);
	fb_check_exit(&d->ck, (unsigned)status, sig, &out);
	apply(d, &out);
}

static void
on_line(void *ctx, struct fb_eproc *p, const char *text, size_t len)
{
	struct drv *d = ctx;
	struct fb_check_out out;

	if (d->p != p)
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

/* The engine process now, for the wait (nothing known without one). */
static const struct fb_proc_sample *
sample(struct drv *d, struct fb_proc_sample *s)
{
	if (d->p == NULL || fb_platform_proc_sample(fb_eproc_pid(d->p), s) < 0)
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
	if (d->p == NULL || n == 0)
		return;
	if (d->verbose)
		fprintf(stderr, "%.*s", (int)n, s); /* ">engine" lines */
	fb_eproc_send(d->p, s, n);
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
	if (out->kill)
		fb_eproc_kill(d->p, SIGKILL);
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
	static const struct fb_eproc_cb cb0 = {.line = on_line,
					       .exit = on_exit_cb};
	struct fb_eproc_cb cb = cb0;
	int rc;

	cb.ctx = d;
	/* The engine's stderr: shown with -v only. */
	if ((rc = fb_eproc_spawn(&d->loop, d->argv, d->verbose, &cb, &d->p)) <
	    0) {
		d->p = NULL;
		d->start_error = rc;
	}
	return rc;
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
	free(d);
	return rc;
}
