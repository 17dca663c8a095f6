/* SPDX-License-Identifier: MIT */
/*
 * The tables of protocols and of pairs (a GUI's protocol with an engine's).
 * Adding a protocol is one descriptor here; adding a pair is one file under
 * protocols/ and one entry here.
 */
#include <stdio.h>
#include <string.h>

#include "proto.h"

static bool
detect_uci(const char *text, size_t len)
{
	size_t pos = 0, start, n = fb_proto_token(text, len, &pos, &start);

	return fb_proto_is(text, start, n, "uci");
}

static bool
detect_xboard(const char *text, size_t len)
{
	size_t pos = 0, start, n = fb_proto_token(text, len, &pos, &start);

	return fb_proto_is(text, start, n, "xboard") ||
	       fb_proto_is(text, start, n, "protover");
}

static int
fits(int n, size_t cap)
{
	return n < 0 || (size_t)n >= cap ? FB_ENOSPC : n;
}

/* UCI: a GUI waits for uciok; the name and an info string carry it. */
static int
failure_uci(char *out, size_t cap, const char *what, const char *msg)
{
	return fits(snprintf(out, cap,
			     "id name fenbridge (%s)\n"
			     "info string fenbridge: %s\nuciok\n",
			     what, msg),
		    cap);
}

/* XBoard shows tellusererror in a dialog. */
static int
failure_xboard(char *out, size_t cap, const char *what, const char *msg)
{
	(void)what;
	return fits(snprintf(out, cap, "tellusererror fenbridge: %s\n", msg),
		    cap);
}

/* The probe's `uci`: id or uciok mean UCI; an XBoard engine's error or
 * feature line means another protocol. */
static enum fb_probe_answer
answer_uci(const char *text, size_t len)
{
	size_t pos = 0, start, n = fb_proto_token(text, len, &pos, &start);

	if (fb_proto_is(text, start, n, "uciok"))
		return FB_ANSWER_END;
	if (fb_proto_is(text, start, n, "id") ||
	    fb_proto_is(text, start, n, "option"))
		return FB_ANSWER_YES;
	if ((n >= 5 && memcmp(text + start, "Error", 5) == 0) ||
	    fb_proto_is(text, start, n, "Illegal") ||
	    fb_proto_is(text, start, n, "Invalid") || /* GNU Chess */
	    fb_proto_is(text, start, n, "feature") ||
	    fb_proto_is(text, start, n, "tellusererror"))
		return FB_ANSWER_NO;
	return FB_ANSWER_UNKNOWN;
}

/* An XBoard GUI waits 2 s for an engine's features after protover 2, and
 * as long as it takes after feature done=0. */
static bool
hold_xboard(const char *text, size_t len, const struct fb_sink *out)
{
	size_t pos = 0, start, n = fb_proto_token(text, len, &pos, &start);

	if (!fb_proto_is(text, start, n, "protover"))
		return false;
	fb_proto_gui(out, "feature done=0");
	return true;
}

static bool
released_xboard(const char *text, size_t len)
{
	size_t pos = 0, start, n = fb_proto_token(text, len, &pos, &start);

	if (!fb_proto_is(text, start, n, "feature"))
		return false;
	for (size_t i = start; i + 5 <= len; i++)
		if (memcmp(text + i, "done=", 5) == 0)
			return true;
	return false;
}

const struct fb_protocol fb_protocol_uci = {
	.name = "uci",
	.aliases = (const char *const[]){NULL},
	.user_message = "info string ",
	.detect = detect_uci,
	.failure = failure_uci,
	.probe = "uci\n",
	.probe_answer = answer_uci,
};

const struct fb_protocol fb_protocol_xboard = {
	.name = "xboard",
	.aliases = (const char *const[]){"cecp", "winboard", NULL},
	.user_message = "tellusererror ",
	.detect = detect_xboard,
	.failure = failure_xboard,
	.hold = hold_xboard,
	.release = "feature done=1\n",
	.released = released_xboard,
};

static const struct fb_protocol *const protocols[] = {
	&fb_protocol_uci,
	&fb_protocol_xboard,
};

static const struct fb_pair *const pairs[] = {
	&fb_pair_uci,
	&fb_pair_xboard,
	&fb_pair_xboard_uci,
	&fb_pair_uci_xboard,
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const struct fb_protocol *
fb_protocol_find(const char *name)
{
	for (size_t i = 0; i < COUNT(protocols); i++) {
		if (strcmp(protocols[i]->name, name) == 0)
			return protocols[i];
		for (const char *const *a = protocols[i]->aliases; *a; a++)
			if (strcmp(*a, name) == 0)
				return protocols[i];
	}
	return NULL;
}

const struct fb_protocol *
fb_protocol_detect(const char *text, size_t len)
{
	for (size_t i = 0; i < COUNT(protocols); i++)
		if (protocols[i]->detect(text, len))
			return protocols[i];
	return NULL;
}

const struct fb_pair *
fb_pair_find(const struct fb_protocol *gui, const struct fb_protocol *engine)
{
	for (size_t i = 0; i < COUNT(pairs); i++)
		if (pairs[i]->gui == gui && pairs[i]->engine == engine)
			return pairs[i];
	return NULL;
}
