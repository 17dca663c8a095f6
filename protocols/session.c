/* SPDX-License-Identifier: MIT */
/*
 * Filter dispatch: decides the GUI's protocol from its first command, the
 * engine's from the options or by probing it, finds the pair of protocols
 * for the session, creates its state through the pair, and hands each
 * whole line to it. Knows no protocol by name: the tables and descriptors
 * in protocols/ do.
 *
 * No I/O in this file: output goes through the caller's sink.
 */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenbridge/line.h"

/* The GUI's lines held while the engine is probed: a GUI sends a few
 * commands and waits, so this is generous; a GUI that sends more ends the
 * probe as if its time had run out. */
#define HELD_MAX (64 * 1024)

/* How long a GUI told to wait (fb_protocol.hold) waits for an engine of
 * its own protocol to end the wait, as CECP's GUI does for protover 2. */
#define RELEASE_MS 2000

/* One held line: its header, then len + term bytes. */
struct held {
	size_t len, term;
	unsigned flags;
};

static void
report(const struct fb_sink *out, enum fb_level level, const char *msg)
{
	if (level >= out->min_level)
		out->report(out->ctx, level, msg);
}

static void
set_timer(const struct fb_sink *out, unsigned ms)
{
	if (out->timer != NULL)
		out->timer(out->ctx, ms);
}

static void
choose(struct fb_filter *f, const struct fb_protocol *engine)
{
	f->pair = fb_pair_find(f->gui, engine);
	if (f->pair != NULL)
		f->state = f->pair->state_new(&f->opt);
}

/* The protocol that asks engines whether they speak it (UCI), and the one
 * an engine that does not answer speaks (XBoard): see fb_protocol.probe. */
#define ASKING (&fb_protocol_uci)
#define SILENT (&fb_protocol_xboard)

void
fb_filter_init(struct fb_filter *f, const struct fb_filter_options *opt)
{
	memset(f, 0, sizeof *f);
	f->opt = *opt;
	f->gui = opt->proto;
	if (opt->engine_probe)
		f->probe = FB_PROBE_ASKING; /* from the GUI's first line */
	else if (opt->proto != NULL)
		choose(f, opt->engine_proto ? opt->engine_proto : opt->proto);
}

void
fb_filter_free(struct fb_filter *f)
{
	if (f->pair != NULL && f->state != NULL)
		f->pair->state_free(f->state);
	f->state = NULL;
	free(f->held);
	f->held = NULL;
}

static bool
is_quit(const char *text, size_t len)
{
	size_t i = 0;

	while (i < len && (text[i] == ' ' || text[i] == '\t'))
		i++;
	return len - i >= 4 && memcmp(text + i, "quit", 4) == 0 &&
	       (len - i == 4 || text[i + 4] == ' ' || text[i + 4] == '\t');
}

static void
to_pair(struct fb_filter *f, const char *text, size_t len, size_t term,
	unsigned flags, const struct fb_sink *out)
{
	if (f->state == NULL || (flags & (FB_LINE_RAW | FB_LINE_CONT)))
		out->to_engine(out->ctx, text, len + term);
	else
		f->pair->gui_line(f->state, text, len, term, out);
}

/* Keeps a GUI line for the pair the probe chooses. Returns false when
 * there is no room. */
static bool
hold(struct fb_filter *f, const char *text, size_t len, size_t term,
     unsigned flags)
{
	struct held h = {len, term, flags};
	size_t need = f->held_len + sizeof h + len + term;

	if (need > HELD_MAX)
		return false;
	if (need > f->held_cap) {
		size_t cap = f->held_cap ? f->held_cap * 2 : 1024;
		char *p;
		while (cap < need)
			cap *= 2;
		if ((p = realloc(f->held, cap)) == NULL)
			return false;
		f->held = p;
		f->held_cap = cap;
	}
	memcpy(f->held + f->held_len, &h, sizeof h);
	memcpy(f->held + f->held_len + sizeof h, text, len + term);
	f->held_len = need;
	return true;
}

/*
 * The probe is over: the engine speaks engine (why says how that was found
 * out). Starts the pair and gives it the GUI's held lines; out is a sink
 * whose emit goes to the engine.
 */
static void
decide(struct fb_filter *f, const struct fb_protocol *engine, const char *why,
       const struct fb_sink *out)
{
	char msg[160];
	size_t at = 0;

	f->probe = FB_PROBE_DONE;
	f->chosen = NULL;
	set_timer(out, 0);
	snprintf(msg, sizeof msg, "the engine speaks %s (%s)", engine->name,
		 why);
	report(out, FB_LOG_INFO, msg);
	choose(f, engine);
	while (at < f->held_len) {
		struct held h;
		memcpy(&h, f->held + at, sizeof h);
		at += sizeof h;
		to_pair(f, f->held + at, h.len, h.term, h.flags, out);
		at += h.len + h.term;
	}
	free(f->held);
	f->held = NULL;
	f->held_len = f->held_cap = 0;
	/* A GUI told to wait waits for an engine of its own protocol to
	 * end the wait; a pair that translates ends it itself. */
	if (f->held_gui && engine == f->gui && f->gui->release != NULL) {
		f->timing = true;
		set_timer(out, RELEASE_MS);
	}
}

void
fb_filter_gui_line(struct fb_filter *f, const char *text, size_t len,
		   size_t term, unsigned flags, const struct fb_sink *out)
{
	bool whole = !(flags & (FB_LINE_RAW | FB_LINE_CONT));

	if (whole && !f->gui_quit && is_quit(text, len)) {
		f->gui_quit = true;
		if (out->event != NULL)
			out->event(out->ctx, FB_EVENT_GUI_QUIT);
	}
	if (whole && f->gui == NULL) {
		f->gui = fb_protocol_detect(text, len);
		if (f->gui != NULL && f->probe == FB_PROBE_OFF)
			choose(f, f->opt.engine_proto ? f->opt.engine_proto
						      : f->gui);
	}
	if (f->probe == FB_PROBE_DONE || f->probe == FB_PROBE_OFF ||
	    f->gui == NULL) {
		to_pair(f, text, len, term, flags, out);
		return;
	}
	if (f->held == NULL && f->held_len == 0 && f->held_cap == 0) {
		/* The first line of a known GUI: ask the engine. */
		out->to_engine(out->ctx, ASKING->probe, strlen(ASKING->probe));
		set_timer(out, FB_PROBE_MS);
	}
	if (!hold(f, text, len, term, flags)) {
		decide(f, f->chosen ? f->chosen : SILENT,
		       f->chosen ? f->why : "the GUI did not wait for the probe",
		       out);
		to_pair(f, text, len, term, flags, out);
		return;
	}
	if (whole && f->gui->hold != NULL && f->gui->hold(text, len, out))
		f->held_gui = true;
}

void
fb_filter_engine_line(struct fb_filter *f, const char *text, size_t len,
		      size_t term, unsigned flags, const struct fb_sink *out)
{
	if (f->probe == FB_PROBE_ASKING || f->probe == FB_PROBE_ANSWERING) {
		enum fb_probe_answer a = FB_ANSWER_UNKNOWN;

		if (!(flags & (FB_LINE_RAW | FB_LINE_CONT)))
			a = ASKING->probe_answer(text, len);
		/* The engine's answer is to fenbridge's probe, not to the
		 * GUI: the chosen pair asks again. */
		report(out, FB_LOG_DEBUG, "answer to the probe, not passed on");
		if (f->chosen != NULL)
			return;
		if (a == FB_ANSWER_YES)
			f->probe = FB_PROBE_ANSWERING;
		if (a == FB_ANSWER_END || a == FB_ANSWER_NO) {
			/* The GUI's held lines go to the engine, which this
			 * sink cannot reach: at once, from the timer. */
			f->chosen = a == FB_ANSWER_END ? ASKING : SILENT;
			f->why = a == FB_ANSWER_END ? "it answered the probe"
						    : "it refused the probe";
			set_timer(out, 1);
		}
		return;
	}
	if (f->timing && !(flags & (FB_LINE_RAW | FB_LINE_CONT)) &&
	    f->gui->released(text, len)) {
		f->timing = false;
		set_timer(out, 0);
	}
	if (f->state == NULL || (flags & (FB_LINE_RAW | FB_LINE_CONT)))
		out->to_gui(out->ctx, text, len + term);
	else
		f->pair->engine_line(f->state, text, len, term, out);
}

void
fb_filter_timeout(struct fb_filter *f, const struct fb_sink *out)
{
	if (f->chosen != NULL) {
		decide(f, f->chosen, f->why, out);
	} else if (f->probe == FB_PROBE_ASKING) {
		decide(f, SILENT, "no answer to the probe in time", out);
	} else if (f->probe == FB_PROBE_ANSWERING) {
		decide(f, ASKING, "it answered the probe without ending it",
		       out);
	} else if (f->timing) {
		f->timing = false;
		report(out, FB_LOG_INFO,
		       "the engine did not end the GUI's wait: fenbridge did");
		out->to_gui(out->ctx, f->gui->release, strlen(f->gui->release));
	} else if (f->state != NULL && f->pair->timeout != NULL) {
		f->pair->timeout(f->state, out);
	}
}

const struct fb_protocol *
fb_filter_protocol(const struct fb_filter *f)
{
	return f->gui;
}

bool
fb_filter_probing(const struct fb_filter *f)
{
	return f->probe == FB_PROBE_ASKING || f->probe == FB_PROBE_ANSWERING;
}

const struct fb_protocol *
fb_filter_engine_protocol(const struct fb_filter *f)
{
	return f->pair != NULL ? f->pair->engine : NULL;
}

const struct fb_game *
fb_filter_game(const struct fb_filter *f)
{
	return f->state != NULL ? f->pair->game(f->state) : NULL;
}

const char *
fb_filter_variant(const struct fb_filter *f)
{
	return f->state != NULL ? f->pair->variant(f->state) : "normal";
}
