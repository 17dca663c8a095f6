/* SPDX-License-Identifier: MIT */
/*
 * `fenbridge replay`: the I/O around protocols/replay.c. Reads the record,
 * starts the engine (engine_proc.c, as `check` does), sends the plan's
 * steps (at their recorded times, or at once, waiting where the record
 * shows an answer was awaited), hands the engine's lines to the comparer,
 * waits for the recorded end, and prints the verdict. Every judgement is
 * replay.c's; this file only carries lines and time.
 */
#include "replay_run.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "config.h"
#include "engine_proc.h"
#include "platform.h"
#include "replay.h"

/* How long an answer the record shows may take beyond its recorded time,
 * and the recorded end (a crash) beyond the record's. */
#define ANSWER_GRACE_MS 10000
#define END_GRACE_MS 5000
/* A record bigger than this is no record. */
#define RECORD_MAX (256u * 1024 * 1024)

struct run {
	uv_loop_t loop;
	uv_timer_t timer;
	struct fb_replay r;
	struct fb_replay_cmp c;
	struct fb_eproc *p;
	bool fast, verbose;
	size_t next; /* the next step to send */
	uint64_t t0; /* when the first step was sent */
	bool ending; /* every step sent (or no more will be) */
	bool killed; /* we ended the engine: no death of its own */
	bool over;   /* the engine is gone */
	bool exited; /* its end: an exit status, or a signal */
	int64_t status;
	int sig;
};

static void
advance(struct run *u);

/* The record ends in the engine's death or exit (or its quit). */
static bool
death_owed(const struct run *u)
{
	return u->r.end == FB_RP_END_SIGNAL || u->r.end == FB_RP_END_EXIT ||
	       strcmp(u->r.step[u->r.nstep - 1].text, "quit") == 0;
}

static void
finish(struct run *u);

static void
on_exit_cb(void *ctx, struct fb_eproc *p, int64_t status, int sig)
{
	struct run *u = ctx;

	(void)p;
	u->p = NULL;
	u->over = true;
	if (!u->killed) {
		u->exited = sig == 0;
		u->status = status;
		u->sig = sig;
	}
	uv_timer_stop(&u->timer);
	uv_close((uv_handle_t *)&u->timer, NULL);
}

static void
on_line(void *ctx, struct fb_eproc *p, const char *text, size_t len)
{
	struct run *u = ctx;

	(void)p;
	if (u->verbose)
		fprintf(stderr, "engine> %.*s\n", (int)len, text);
	if (!fb_replay_cmp_line(&u->c, text, len))
		return;
	if (!u->ending)
		advance(u);
	else if (u->c.got >= u->r.nans && !death_owed(u) &&
		 u->r.end == FB_RP_END_NONE)
		finish(u); /* every answer in, and no end to wait for */
}

/* The engine is to go: the replay is over (its answers are all in). */
static void
finish(struct run *u)
{
	u->ending = true;
	if (u->p != NULL && !u->killed) {
		u->killed = true;
		fb_eproc_kill(u->p, SIGKILL);
	}
}

static void
on_timer(uv_timer_t *t)
{
	struct run *u = t->data;

	if (u->ending) {
		/* the recorded end did not come */
		finish(u);
		return;
	}
	if (u->fast || u->next == 0 || u->r.step[u->next - 1].line == 0) {
		/* an awaited answer did not come: the replay stops there */
		if (u->verbose)
			fprintf(stderr, "replay: no answer in time\n");
		finish(u);
		return;
	}
	advance(u);
}

static void
send_step(struct run *u)
{
	const struct fb_replay_step *s = &u->r.step[u->next];
	size_t n = strlen(s->text);
	char *line = malloc(n + 1);

	if (u->verbose)
		fprintf(stderr, ">engine %s\n", s->text);
	if (line != NULL) {
		memcpy(line, s->text, n);
		line[n] = '\n';
		fb_eproc_send(u->p, line, n + 1);
		free(line);
	}
	if (u->next == 0)
		u->t0 = uv_now(&u->loop);
	u->c.sent = ++u->next;
}

/* Sends what may be sent now; arms the timer for what is waited for. */
static void
advance(struct run *u)
{
	uint64_t now;

	while (u->p != NULL && !u->ending) {
		const struct fb_replay_step *prev =
			u->next > 0 ? &u->r.step[u->next - 1] : NULL;
		bool made_up = prev != NULL && prev->line == 0;
		now = uv_now(&u->loop);
		uv_timer_stop(&u->timer);
		/* fast, and always after a made-up step: the answers the
		 * record shows before the next line */
		if (prev != NULL && (u->fast || made_up) &&
		    u->c.got < prev->answers) {
			uv_timer_start(&u->timer, on_timer,
				       ANSWER_GRACE_MS + 2 * prev->wait_ms, 0);
			return;
		}
		if (u->next == u->r.nstep)
			break;
		if (!u->fast && u->next > 0 && !made_up &&
		    u->t0 + u->r.step[u->next].ms > now) {
			uv_timer_start(&u->timer, on_timer,
				       u->t0 + u->r.step[u->next].ms - now, 0);
			return;
		}
		send_step(u);
	}
	if (u->p == NULL || u->ending)
		return;
	/* Every line sent: wait for the recorded end, a crash or an exit,
	 * as long as the record took to it and some; a record of nothing
	 * wrong ends here, unless its last line was quit. */
	u->ending = true;
	if (death_owed(u)) {
		uint64_t last = u->r.step[u->r.nstep - 1].ms;
		uv_timer_start(&u->timer, on_timer,
			       END_GRACE_MS + 2 * (u->r.end_ms > last
							   ? u->r.end_ms - last
							   : 0),
			       0);
	} else if (u->c.got >= u->r.nans && u->r.end == FB_RP_END_NONE) {
		finish(u);
	} else if (u->c.got >= u->r.nans) {
		/* a record of a hang or an illegal move: an answer the record
		 * lacks (the readyok that did not come) may still come, as
		 * long as the referee waited for it */
		uv_timer_start(&u->timer, on_timer, END_GRACE_MS, 0);
	} else {
		/* the answers still owed, then the end */
		uv_timer_start(&u->timer, on_timer,
			       ANSWER_GRACE_MS +
				       2 * u->r.step[u->r.nstep - 1].wait_ms,
			       0);
	}
}

/* Reads the whole file; NULL with errno set. */
static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fb_platform_fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (f == NULL)
		return NULL;
	for (;;) {
		size_t k;
		if (n == cap) {
			char *b;
			cap = cap ? 2 * cap : 65536;
			if (cap > RECORD_MAX ||
			    (b = realloc(buf, cap)) == NULL) {
				free(buf);
				fclose(f);
				errno = EFBIG;
				return NULL;
			}
			buf = b;
		}
		k = fread(buf + n, 1, cap - n, f);
		n += k;
		if (k == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

/* What the replay is about to do, before it does it. */
static void
tell_plan(const struct fb_replay_config *cfg, const struct fb_replay *r)
{
	printf("fenbridge replay: %s (%s)\n", cfg->record,
	       r->log ? "a log: its last session" : "a flight record");
	if (r->reason[0] != '\0')
		printf("recorded: %s\n", r->reason);
	printf("the engine speaks %s; %zu lines to send from line %u, %zu "
	       "answers to compare, %s\n",
	       r->cecp ? "xboard" : "uci", r->nstep, r->start_line, r->nans,
	       cfg->fast ? "fast" : "at the recorded times");
	if (r->cut)
		printf("the record is cut at line %u (its rings overflowed): "
		       "it replays from line %u, the first position sent in "
		       "full after it, after a made-up handshake; %u older "
		       "lines sent to the engine are not replayed\n",
		       r->cut_line, r->start_line, r->lost);
	fflush(stdout);
}

int
fb_replay_run_main(int argc, char **argv)
{
	struct fb_replay_config cfg;
	struct run *u;
	char err[512], verdict[2048];
	char *text;
	size_t len = 0;
	int rc;

	if (fb_config_parse_replay(&cfg, argc, argv, err, sizeof err) < 0) {
		fprintf(stderr,
			"fenbridge replay: %s\nTry 'fenbridge replay "
			"--help'.\n",
			err);
		return 2;
	}
	if (cfg.action == FB_SHOW_HELP) {
		static char help[8192];
		fb_config_print_help(&fb_config_replay_table, help,
				     sizeof help);
		fputs(help, stdout);
		return 0;
	}
	if ((text = slurp(cfg.record, &len)) == NULL) {
		fprintf(stderr, "fenbridge replay: %s: %s\n", cfg.record,
			strerror(errno));
		return 2;
	}
	if ((u = calloc(1, sizeof *u)) == NULL) {
		free(text);
		return 2;
	}
	rc = fb_replay_parse(&u->r, text, len, cfg.until, err, sizeof err);
	free(text);
	if (rc < 0) {
		fprintf(stderr, "fenbridge replay: %s: %s\n", cfg.record, err);
		free(u);
		return 2;
	}
	tell_plan(&cfg, &u->r);
	u->fast = cfg.fast != 0;
	u->verbose = cfg.verbose;
	fb_replay_cmp_init(&u->c, &u->r);
	fb_platform_ignore_sigpipe();
	uv_loop_init(&u->loop);
	uv_timer_init(&u->loop, &u->timer);
	u->timer.data = u;
	{
		static const struct fb_eproc_cb cb0 = {.line = on_line,
						       .exit = on_exit_cb};
		struct fb_eproc_cb cb = cb0;
		cb.ctx = u;
		rc = fb_eproc_spawn(&u->loop, argv + cfg.first, cfg.verbose,
				    &cb, &u->p);
	}
	if (rc < 0) {
		fprintf(stderr, "fenbridge replay: cannot start '%s': %s\n",
			argv[cfg.first], uv_strerror(rc));
		u->p = NULL;
		uv_close((uv_handle_t *)&u->timer, NULL);
		uv_run(&u->loop, UV_RUN_DEFAULT);
		rc = 2;
	} else {
		advance(u);
		uv_run(&u->loop, UV_RUN_DEFAULT);
		rc = fb_replay_verdict(&u->c, u->exited, u->status, u->sig,
				       verdict, sizeof verdict);
		fputs(verdict, stdout);
	}
	if (uv_loop_close(&u->loop) != 0)
		fprintf(stderr, "fenbridge replay: handles left open\n");
	fb_replay_free(&u->r);
	free(u);
	return rc;
}
