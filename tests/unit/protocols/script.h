/* SPDX-License-Identifier: MIT */
/*
 * A filter driven by a script, for the unit tests of the protocol pairs.
 *
 * A script is lines: "g TEXT" is a line from the GUI, "e TEXT" a line from
 * the engine, "t" the expiry of the timer the filter asked for. The
 * transcript is every byte the filter sent, in order, each line prefixed
 * "> " toward the engine or "< " toward the GUI, and a line "timer N" for
 * each timer request (N in ms; 0 cancels). The filter's reports of the
 * step go to a log of their own, one line each, "LEVEL: message" (debug,
 * info, warn, error), so that a test can check what is said and how
 * loudly without it in the transcript.
 */
#ifndef FB_TEST_SCRIPT_H
#define FB_TEST_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include "filter.h"

#define SCRIPT_MAX (64 * 1024)

struct script {
	struct fb_filter f;
	struct fb_sink from_gui, from_engine;
	char text[SCRIPT_MAX];
	size_t n;
	bool line_start;
	long timer;           /* the last request; -1 before any */
	char log[SCRIPT_MAX]; /* the step's reports */
	size_t nlog;
};

/* Starts a filter with opt. */
void
script_start(struct script *s, const struct fb_filter_options *opt);

/* Feeds script; returns the transcript of what it made the filter send
 * (valid until the next call; kept after script_end). s->log then holds
 * the step's reports. */
const char *
script_step(struct script *s, const char *script);

void
script_end(struct script *s);

#endif
