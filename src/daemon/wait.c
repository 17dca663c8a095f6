/* SPDX-License-Identifier: MIT */
/*
 * Slow or silent (wait.h): the decision of a deadline that ran out. No
 * I/O in this file.
 */
#include "wait.h"

#include <string.h>

/* An extension is checked again after this part of the deadline (at
 * least MIN_SLICE_MS): often enough that a hung engine is not waited for
 * much beyond the cap, seldom enough that the samples cost nothing. */
#define SLICE_PARTS 4
#define MIN_SLICE_MS 100
/* Starved during a slice: its threads waited for a CPU at least 1/20 of
 * it; working: it got at least 1/100 of it. A sleeping engine does
 * neither (a timer thread that wakes now and then waits microseconds). */
#define STARVED_PART 20
#define WORKING_PART 100

void
fb_wait_start(struct fb_wait *w, enum fb_wait_kind kind, unsigned limit_ms,
	      uint64_t now_ms, const struct fb_proc_sample *s)
{
	memset(w, 0, sizeof *w);
	w->kind = kind;
	w->limit_ms = limit_ms;
	w->start_ms = w->last_ms = now_ms;
	if (s != NULL)
		w->start = w->last = *s;
}

static uint64_t
delta(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

/* During the last slice (slice_ms long, from w->last to s): did the
 * engine wait for a CPU, or work? Either says it is alive and slow. */
static bool
slow_not_silent(const struct fb_wait *w, const struct fb_proc_sample *s,
		uint64_t slice_ms)
{
	uint64_t slice_us = slice_ms * 1000;

	if (s->runnable)
		return true;
	if (s->delay_known && w->last.delay_known &&
	    delta(s->delay_us, w->last.delay_us) * STARVED_PART >= slice_us &&
	    slice_us > 0)
		return true;
	return slice_us > 0 &&
	       delta(s->cpu_us, w->last.cpu_us) * WORKING_PART >= slice_us;
}

/* The decision is reached: after one last look, or now. */
static unsigned
decided(struct fb_wait *w)
{
	if (w->looked)
		return 0;
	w->looked = true;
	return FB_WAIT_LOOK_MS;
}

unsigned
fb_wait_due(struct fb_wait *w, uint64_t now_ms, const struct fb_proc_sample *s)
{
	uint64_t wall = delta(now_ms, w->start_ms);
	uint64_t cap, cpu_ms, slice;
	bool alive;

	if (w->looked)
		return 0;
	if (wall < w->limit_ms)
		return (unsigned)(w->limit_ms - wall);
	if (w->kind == FB_WAIT_WALL || s == NULL || !s->known ||
	    !w->start.known)
		return decided(w);
	cap = (uint64_t)w->limit_ms * (w->kind == FB_WAIT_SILENCE
					       ? FB_WAIT_SILENCE_CAP
					       : FB_WAIT_ENGINE_CAP);
	cpu_ms = delta(s->cpu_us, w->start.cpu_us) / 1000;
	/* It had the time an idle machine gives it, and more waiting would
	 * only wait for a hung engine. */
	if (wall >= cap || cpu_ms >= w->limit_ms)
		return decided(w);
	alive = slow_not_silent(w, s, delta(now_ms, w->last_ms));
	w->last_ms = now_ms;
	w->last = *s;
	if (!alive)
		return decided(w);
	w->extended++;
	slice = w->limit_ms / SLICE_PARTS;
	if (slice < MIN_SLICE_MS)
		slice = MIN_SLICE_MS;
	if (slice > cap - wall)
		slice = cap - wall;
	return (unsigned)slice;
}

uint64_t
fb_wait_late_ms(const struct fb_wait *w, uint64_t now_ms)
{
	uint64_t wall = delta(now_ms, w->start_ms);

	return wall > w->limit_ms ? wall : 0;
}
