/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of slow against silent (src/daemon/wait.c) with made-up
 * samples: an engine asleep or spinning alone fires at its deadline as on
 * an idle machine; one starved or working slowly is waited for until it
 * had the deadline's CPU time, up to the cap; wall deadlines never move;
 * without samples nothing moves. And this machine's sampling of itself
 * (platform.h) is checked for consistency.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "platform.h"
#include "wait.h"

/* A sample: CPU and run delay in ms. */
static struct fb_proc_sample
at(uint64_t cpu_ms, uint64_t delay_ms, bool runnable)
{
	struct fb_proc_sample s = {.known = true,
				   .cpu_us = cpu_ms * 1000,
				   .delay_known = true,
				   .delay_us = delay_ms * 1000,
				   .runnable = runnable};
	return s;
}

/* The wait fires at now: after its last look, a millisecond later. */
static void
fires(struct fb_wait *w, uint64_t now, const struct fb_proc_sample *s)
{
	assert_int_equal(fb_wait_due(w, now, s), FB_WAIT_LOOK_MS);
	assert_int_equal(fb_wait_due(w, now + FB_WAIT_LOOK_MS, s), 0);
}

static void
test_wait_before_deadline(void **state)
{
	struct fb_wait w;
	struct fb_proc_sample s0 = at(100, 0, false), s = at(100, 0, false);

	(void)state;
	fb_wait_start(&w, FB_WAIT_SILENCE, 5000, 1000, &s0);
	/* A timer that fired early waits for the rest. */
	assert_int_equal(fb_wait_due(&w, 3000, &s), 3000);
	assert_int_equal(fb_wait_late_ms(&w, 3000), 0);
}

static void
test_wait_asleep_fires(void **state)
{
	struct fb_wait w;
	struct fb_proc_sample s0 = at(100, 7, false), s = at(101, 7, false);

	(void)state;
	/* Blocked on its input the whole time: silent at the deadline. */
	fb_wait_start(&w, FB_WAIT_SILENCE, 5000, 0, &s0);
	fires(&w, 5000, &s);
	fb_wait_start(&w, FB_WAIT_ENGINE, 5000, 0, &s0);
	fires(&w, 5000, &s);
}

static void
test_wait_spinning_alone_fires(void **state)
{
	struct fb_wait w;
	struct fb_proc_sample s0 = at(0, 0, true), s = at(5000, 0, true);

	(void)state;
	/* Running, alone on its core: it had its time. */
	fb_wait_start(&w, FB_WAIT_SILENCE, 5000, 0, &s0);
	fires(&w, 5001, &s);
}

static void
test_wait_starved_extends(void **state)
{
	struct fb_wait w;
	struct fb_proc_sample s0 = at(0, 0, false), s;
	uint64_t now = 5000;
	unsigned more;

	(void)state;
	fb_wait_start(&w, FB_WAIT_SILENCE, 5000, 0, &s0);
	/* 75 ms of CPU in 5 s (nice 19 beside CPU hogs), the rest waiting
	 * for a CPU: slow, not silent, in slices of a quarter. */
	s = at(75, 4900, false);
	more = fb_wait_due(&w, now, &s);
	assert_int_equal(more, 1250);
	/* Until it had 5 s of CPU: silent then. */
	for (int i = 0; i < 300 && more > FB_WAIT_LOOK_MS; i++) {
		now += more;
		s.cpu_us += 20 * 1000;
		s.delay_us += (more - 20) * 1000;
		more = fb_wait_due(&w, now, &s);
	}
	assert_int_equal(more, FB_WAIT_LOOK_MS); /* a last look, then */
	assert_int_equal(fb_wait_due(&w, now + FB_WAIT_LOOK_MS, &s), 0);
	assert_true(s.cpu_us >= 5000 * 1000);
	assert_true(now < 5000 * FB_WAIT_SILENCE_CAP);
	assert_true(w.extended > 100);
	/* An answer now is late: the whole wait. */
	assert_int_equal(fb_wait_late_ms(&w, now), now);
}

static void
test_wait_runnable_or_working_extends(void **state)
{
	struct fb_wait w;
	struct fb_proc_sample s0 = at(0, 0, false), s;

	(void)state;
	/* No schedstat: runnable at the sample is the evidence. */
	fb_wait_start(&w, FB_WAIT_SILENCE, 1000, 0, &s0);
	s = at(10, 0, true);
	s.delay_known = false;
	assert_int_equal(fb_wait_due(&w, 1000, &s), 250);
	/* Neither: it got 1 % of the slice (starved but not seen so). */
	s = at(13, 0, false);
	s.delay_known = false;
	assert_int_equal(fb_wait_due(&w, 1250, &s), 250);
	/* Then nothing more: asleep (hung), silent. */
	fires(&w, 1500, &s);
}

static void
test_wait_cap(void **state)
{
	struct fb_wait w;
	struct fb_proc_sample s0 = at(0, 0, false), s = at(1, 1000, true);
	uint64_t now = 100;
	unsigned more;

	(void)state;
	/* Starved forever: given up at the cap. */
	fb_wait_start(&w, FB_WAIT_SILENCE, 100, 0, &s0);
	while ((more = fb_wait_due(&w, now, &s)) > FB_WAIT_LOOK_MS) {
		now += more;
		s.delay_us += more * 1000;
	}
	assert_int_equal(now, 100 * FB_WAIT_SILENCE_CAP);
	fb_wait_start(&w, FB_WAIT_ENGINE, 100, 0, &s0);
	now = 100;
	while ((more = fb_wait_due(&w, now, &s)) > FB_WAIT_LOOK_MS) {
		now += more;
		s.delay_us += more * 1000;
	}
	assert_int_equal(now, 100 * FB_WAIT_ENGINE_CAP);
}

static void
test_wait_wall_and_unknown(void **state)
{
	struct fb_wait w;
	struct fb_proc_sample s0 = at(0, 0, false), s = at(1, 4000, true);
	struct fb_proc_sample none = {0};

	(void)state;
	/* A move's deadline on the GUI's clock does not move. */
	fb_wait_start(&w, FB_WAIT_WALL, 5000, 0, &s0);
	fires(&w, 5000, &s);
	/* Nothing known of the engine: the wall deadline, as before. */
	fb_wait_start(&w, FB_WAIT_SILENCE, 5000, 0, &none);
	fires(&w, 5000, &s);
	fb_wait_start(&w, FB_WAIT_SILENCE, 5000, 0, &s0);
	fires(&w, 5000, &none);
	fb_wait_start(&w, FB_WAIT_SILENCE, 5000, 0, NULL);
	fires(&w, 5000, NULL);
}

/* This process, sampled: known, and its CPU time grows as it spins. */
static void
test_wait_sample_self(void **state)
{
	struct fb_proc_sample a, b;
	volatile unsigned long x = 0;

	(void)state;
	assert_int_equal(fb_platform_proc_sample(fb_platform_self(), &a), 0);
	assert_true(a.known);
	for (int i = 0; i < 1000; i++) {
		for (unsigned long j = 0; j < 1000000; j++)
			x += j;
		assert_int_equal(
			fb_platform_proc_sample(fb_platform_self(), &b), 0);
		if (b.cpu_us > a.cpu_us)
			break;
	}
	assert_true(b.cpu_us > a.cpu_us);
	/* Sampling itself, it runs. */
#ifdef __linux__
	assert_true(b.runnable);
	assert_true(b.delay_known);
#endif
	/* No such process. */
	assert_true(fb_platform_proc_sample(-1, &a) < 0);
	assert_false(a.known);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wait_before_deadline),
		cmocka_unit_test(test_wait_asleep_fires),
		cmocka_unit_test(test_wait_spinning_alone_fires),
		cmocka_unit_test(test_wait_starved_extends),
		cmocka_unit_test(test_wait_runnable_or_working_extends),
		cmocka_unit_test(test_wait_cap),
		cmocka_unit_test(test_wait_wall_and_unknown),
		cmocka_unit_test(test_wait_sample_self),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
