/* SPDX-License-Identifier: MIT */
/*
 * Waiting for an engine on a loaded machine: is a deadline that ran out
 * a verdict ("silent"), or was the engine only slow? Every decision
 * fenbridge makes by a clock (doc/internals.md, "Decisions made by a
 * clock") goes through fb_wait_due() when its timer fires: given how long
 * fenbridge waited (wall time), how much CPU time the engine got since it
 * was asked, and whether it was runnable but not running (starved), the
 * wait either fires or is extended. An engine that is asleep (blocked on
 * its input, hung) or that had as much CPU time as the deadline is silent
 * at the deadline, as on an idle machine; one that works, slowly, because
 * others have the CPU, is waited for, up to a cap, so that a hung engine
 * that spins slowly is still declared silent.
 *
 * Pure: the samples come from fb_platform_proc_sample() (platform.h), the
 * times from the caller's clock. No I/O in this file.
 */
#ifndef FB_WAIT_H
#define FB_WAIT_H

#include <stdbool.h>
#include <stdint.h>

/* What the system tells of a process at one moment (platform.h fills
 * it). */
struct fb_proc_sample {
	bool known;        /* cpu_us is the process's (else nothing is) */
	uint64_t cpu_us;   /* user + system CPU time, all its threads */
	bool delay_known;  /* delay_us is known (Linux schedstat) */
	uint64_t delay_us; /* time its threads waited, runnable, for a CPU */
	bool runnable;     /* a thread was runnable or in an uninterruptible
			      wait (disk) at the sample */
};

/* What a deadline measures. */
enum fb_wait_kind {
	/* Time the outside world set: a move's time on the GUI's clock, a
	 * pause before stop. Fires at the wall deadline, as ever. */
	FB_WAIT_WALL,
	/* How long an engine may stay silent before an answer owed (uciok,
	 * readyok, pong, a move) is given up: fires when the engine had
	 * that much CPU time, or slept (was not starved) through the last
	 * slice, or at FB_WAIT_SILENCE_CAP times the deadline. */
	FB_WAIT_SILENCE,
	/* Time the engine is given to do something of its own (exit after
	 * quit, analyze for a while): as silence, capped sooner
	 * (FB_WAIT_ENGINE_CAP): a user waits for it. */
	FB_WAIT_ENGINE,
};

/* The caps: a wait is never extended beyond this many times its
 * deadline. At nice 19 beside two CPU-bound processes a core, an engine
 * gets about 1/70 of a core (weights 15 against 2 x 1024). */
#define FB_WAIT_SILENCE_CAP 100
#define FB_WAIT_ENGINE_CAP 10

/* One wait: started when the engine was asked. */
struct fb_wait {
	enum fb_wait_kind kind;
	unsigned limit_ms;
	uint64_t start_ms, last_ms; /* when it started, when last checked */
	struct fb_proc_sample start, last;
	unsigned extended; /* how many times it was extended */
	bool looked;       /* the last look is over */
};

/* Starts w: the engine was asked now (now_ms on the caller's clock; s:
 * the engine process's sample now). */
void
fb_wait_start(struct fb_wait *w, enum fb_wait_kind kind, unsigned limit_ms,
	      uint64_t now_ms, const struct fb_proc_sample *s);

/*
 * The wait's timer fired (or the caller asks anyway), at now_ms, with the
 * engine's sample s. Returns 0 when the deadline has passed: the decision
 * by the clock is taken (silent, kill, ...). Else the milliseconds to
 * wait before asking again: the rest of the deadline, or a slice of an
 * extension while the engine was starved or working slowly, or, once the
 * decision is reached, FB_WAIT_LOOK_MS for a last look: a fenbridge that
 * was itself starved runs its timers before it reads what came meanwhile,
 * so an answer that is already in the pipe is read first.
 */
#define FB_WAIT_LOOK_MS 1
unsigned
fb_wait_due(struct fb_wait *w, uint64_t now_ms, const struct fb_proc_sample *s);

/* How long past its deadline an answer that comes at now_ms is: 0 when
 * in time, else the whole wait in ms (for "slow: N s"). */
uint64_t
fb_wait_late_ms(const struct fb_wait *w, uint64_t now_ms);

#endif
