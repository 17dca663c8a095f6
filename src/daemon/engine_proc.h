/* SPDX-License-Identifier: MIT */
/*
 * An engine started on pipes by `fenbridge check` and `fenbridge replay`:
 * its stdout framed into whole lines, lines written to its stdin, and its
 * end reported once, after both its exit and the end of its output (so
 * that the last lines come before the exit). The bridge's own engine
 * (bridge_engine.c) has more to do (the engine's folder, environment,
 * stderr into the log, --restart) and stays there.
 */
#ifndef FB_ENGINE_PROC_H
#define FB_ENGINE_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

struct fb_eproc;

struct fb_eproc_cb {
	/* a whole line of the engine's stdout (no terminator) */
	void (*line)(void *ctx, struct fb_eproc *p, const char *text,
		     size_t len);
	/* the engine is gone: its status, or the signal it died of; p is
	 * freed after the call */
	void (*exit)(void *ctx, struct fb_eproc *p, int64_t status, int sig);
	void *ctx;
};

/* Starts argv (argv[0] the program) on loop; its stderr goes to ours when
 * show_stderr, else nowhere. Returns 0 and *out, or a libuv error. */
int
fb_eproc_spawn(uv_loop_t *loop, char **argv, bool show_stderr,
	       const struct fb_eproc_cb *cb, struct fb_eproc **out);

/* Writes s[0..n) to the engine (a dead engine's pipe: its exit tells). */
void
fb_eproc_send(struct fb_eproc *p, const char *s, size_t n);

/* Sends the engine signal sig (its end is then reported). */
void
fb_eproc_kill(struct fb_eproc *p, int sig);

/* The engine's process id (for fb_platform_proc_sample). */
int
fb_eproc_pid(const struct fb_eproc *p);

#endif
