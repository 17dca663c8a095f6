/* SPDX-License-Identifier: MIT */
/*
 * Filter dispatch: decides the GUI's protocol from its first command, the
 * engine's from the options or by probing it, finds the pair of protocols
 * for the session, creates its state through the pair, and hands each
 * whole line to it. Knows no protocol by name: the tables and descriptors
 * in protocols/ do.
 *
 * The probe costs a same-protocol session nothing: the GUI's own opening
 * is the question, and an engine that answers it in kind is the answer.
 * Only the GUI's lines after its opening wait, until the engine has said
 * which protocol it speaks (fb_filter_init). The same holding serves a
 * pair whose engine must finish its handshake before the GUI's lines can
 * be read right (fb_pair.waiting): held lines go on in order, and no line
 * is dropped while held; `quit` never waits.
 *
 * No I/O in this file: output goes through the caller's sink.
 */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenbridge/line.h"

/* How long a GUI told to wait (fb_protocol.hold) waits for an engine of
 * its own protocol to end the wait, as CECP's GUI does for protover 2. */
#define RELEASE_MS 2000

/* How many engine lines after the decision may still refuse one of
 * fenbridge's questions or answer it (an engine answers in order, so they
 * come first; its features, or a UCI option list, may come between). */
#define REFUSAL_LINES 64

/* One held line: its header, then len + term bytes. */
struct held_line {
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
drop_pair(struct fb_filter *f)
{
	if (f->pair != NULL && f->state != NULL)
		f->pair->state_free(f->state);
	f->pair = NULL;
	f->state = NULL;
}

static void
choose(struct fb_filter *f, const struct fb_protocol *engine)
{
	drop_pair(f);
	f->pair = fb_pair_find(f->gui, engine);
	if (f->pair != NULL)
		f->state = f->pair->state_new(&f->opt);
}

/* An engine silent to every question speaks the protocol that has no
 * question of its own (XBoard: see fb_protocol.probe). */
static const struct fb_protocol *
silent_protocol(void)
{
	return fb_protocol_uci.probe == NULL ? &fb_protocol_uci
					     : &fb_protocol_xboard;
}

/* Keeps a line in h. Returns false when there is no room. */
static bool
held_add(struct fb_held *h, const char *text, size_t len, size_t term,
	 unsigned flags)
{
	struct held_line l = {len, term, flags};
	size_t need = h->len + sizeof l + len + term;

	/* a GUI that sends more ends the probe as if its time had run out */
	if (need > FB_HOLD_MAX)
		return false;
	if (need > h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 1024;
		char *p;
		while (cap < need)
			cap *= 2;
		if ((p = realloc(h->p, cap)) == NULL)
			return false;
		h->p = p;
		h->cap = cap;
	}
	memcpy(h->p + h->len, &l, sizeof l);
	memcpy(h->p + h->len + sizeof l, text, len + term);
	h->len = need;
	return true;
}

/* The line at *at in h: its header in *l, its text returned; *at moves to
 * the next one. */
static const char *
held_next(const struct fb_held *h, size_t *at, struct held_line *l)
{
	const char *text;

	memcpy(l, h->p + *at, sizeof *l);
	text = h->p + *at + sizeof *l;
	*at += sizeof *l + l->len + l->term;
	return text;
}

static void
held_clear(struct fb_held *h)
{
	free(h->p);
	memset(h, 0, sizeof *h);
}

void
fb_filter_init(struct fb_filter *f, const struct fb_filter_options *opt)
{
	memset(f, 0, sizeof *f);
	f->opt = *opt;
	f->gui = opt->proto;
	f->confirmed = true;
	if (opt->engine_probe) {
		/* Started by the GUI's first line (pair still NULL). */
		f->probe = FB_PROBE_ASKING;
		f->confirmed = false;
		f->journal = true;
		f->watch = true;
	} else if (opt->proto != NULL) {
		choose(f, opt->engine_proto ? opt->engine_proto : opt->proto);
	}
}

void
fb_filter_free(struct fb_filter *f)
{
	drop_pair(f);
	held_clear(&f->held);
	held_clear(&f->early);
	held_clear(&f->answer);
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

static bool
is_whole(unsigned flags)
{
	return !(flags & (FB_LINE_RAW | FB_LINE_CONT));
}

static void
to_pair(struct fb_filter *f, const char *text, size_t len, size_t term,
	unsigned flags, const struct fb_sink *out)
{
	if (f->state == NULL || !is_whole(flags))
		out->to_engine(out->ctx, text, len + term);
	else
		f->pair->gui_line(f->state, text, len, term, out);
}

static void
engine_to_pair(struct fb_filter *f, const char *text, size_t len, size_t term,
	       unsigned flags, const struct fb_sink *out)
{
	if (f->state == NULL || !is_whole(flags))
		out->to_gui(out->ctx, text, len + term);
	else
		f->pair->engine_line(f->state, text, len, term, out);
}

/* The pair wants the GUI's lines to wait (and has not waited too long). */
static bool
pair_waits(const struct fb_filter *f)
{
	return !f->waited && f->state != NULL && f->pair->waiting != NULL &&
	       f->pair->waiting(f->state);
}

/* Whether engine lines need more than the pair: kept in one flag so that
 * the engine's flood of info lines costs one test. */
static void
update_watch(struct fb_filter *f)
{
	f->watch = (f->probe != FB_PROBE_OFF && f->probe != FB_PROBE_DONE) ||
		   f->refusals > 0 || !f->confirmed || f->held.len > f->done ||
		   f->timing || (f->gui_eof && !f->gui_done);
}

/*
 * After the GUI's EOF: once the probe is decided and its held lines have
 * reached the pair, the pair hears of the EOF, and once it owes the GUI
 * nothing more, the bridge may end the engine (FB_EVENT_GUI_DONE).
 */
static void
check_done(struct fb_filter *f, const struct fb_sink *out)
{
	if (!f->gui_eof || f->gui_done ||
	    (f->probe != FB_PROBE_OFF && f->probe != FB_PROBE_DONE) ||
	    f->held.len > f->done || f->replay || pair_waits(f))
		return;
	if (!f->eof_given) {
		f->eof_given = true;
		if (f->state != NULL && f->pair->gui_eof != NULL)
			f->pair->gui_eof(f->state, out);
	}
	if (f->state != NULL && f->pair->busy != NULL &&
	    f->pair->busy(f->state))
		return;
	f->gui_done = true;
	report(out, FB_LOG_DEBUG,
	       "the GUI's input has ended and all it sent is delivered");
	if (out->event != NULL)
		out->event(out->ctx, FB_EVENT_GUI_DONE);
}

/* The engine has answered the chosen pair: it will not be started again,
 * and the lines kept for that are no longer needed. */
static void
confirm(struct fb_filter *f)
{
	f->confirmed = true;
	f->journal = false;
	f->late_ok = false; /* it needs the opening, dropped here */
	if (f->done == f->held.len) {
		held_clear(&f->held);
	} else if (f->done > 0) {
		memmove(f->held.p, f->held.p + f->done, f->held.len - f->done);
		f->held.len -= f->done;
	}
	f->done = 0;
}

/* Gives the held lines not yet given to the pair (out: GUI to engine). */
static void
replay(struct fb_filter *f, const struct fb_sink *out)
{
	while (f->done < f->held.len) {
		struct held_line l;
		const char *text = held_next(&f->held, &f->done, &l);
		to_pair(f, text, l.len, l.term, l.flags, out);
	}
	if (!f->journal) {
		held_clear(&f->held);
		f->done = 0;
	}
}

/* The engine's early lines: to the GUI as they came (through pass, out
 * being the GUI-to-engine sink), or dropped when they answered a question
 * of fenbridge's. */
static void
flush_early(struct fb_filter *f, bool to_gui, const struct fb_sink *out)
{
	size_t at = 0;

	if (f->early.len > 0 && !to_gui)
		report(out, FB_LOG_DEBUG,
		       "the engine's answer to the probe: "
		       "not passed on to the GUI");
	while (to_gui && at < f->early.len) {
		struct held_line l;
		const char *text = held_next(&f->early, &at, &l);
		if (out->pass != NULL)
			out->pass(out->ctx, text, l.len + l.term);
		else
			out->to_gui(out->ctx, text, l.len + l.term);
	}
	held_clear(&f->early);
}

/* The same from the engine-to-GUI sink: as they came, to the GUI. */
static void
flush_early_here(struct fb_filter *f, const struct fb_sink *out)
{
	size_t at = 0;

	while (at < f->early.len) {
		struct held_line l;
		const char *text = held_next(&f->early, &at, &l);
		out->to_gui(out->ctx, text, l.len + l.term);
	}
	held_clear(&f->early);
}

static void
say_chosen(const struct fb_protocol *engine, const char *why,
	   const struct fb_sink *out)
{
	char msg[200];

	snprintf(msg, sizeof msg, "the engine speaks %s (%s)", engine->name,
		 why);
	report(out, FB_LOG_INFO, msg);
}

/* A GUI told to wait waits for an engine of its own protocol to end the
 * wait; a pair that translates ends it itself. */
static void
start_release(struct fb_filter *f, const struct fb_sink *out)
{
	if (f->held_gui && f->pair != NULL && f->pair->engine == f->gui &&
	    f->gui->release != NULL) {
		f->timing = true;
		set_timer(out, RELEASE_MS);
	}
}

/*
 * The engine is asked once. The translating pair's opening asks the engine
 * what the probe already asked (`uci`), and tells a GUI to wait as the
 * session already did (`feature done=0`): while the pair is given the
 * GUI's held lines, those two go nowhere, and the probe's answer, kept
 * line by line, is the pair's answer. Pairs need not know: the sink in
 * between drops the one question and the one hold, once each.
 */
struct once {
	const struct fb_sink *out;
	const char *question, *hold; /* still to drop, or NULL */
};

static bool
drop_once(const char **what, const char *data, size_t len)
{
	if (*what == NULL || len != strlen(*what) || memcmp(data, *what, len))
		return false;
	*what = NULL;
	return true;
}

static void
once_to_gui(void *ctx, const char *data, size_t len)
{
	struct once *o = ctx;

	if (!drop_once(&o->hold, data, len))
		o->out->to_gui(o->out->ctx, data, len);
}

static void
once_to_engine(void *ctx, const char *data, size_t len)
{
	struct once *o = ctx;

	if (!drop_once(&o->question, data, len))
		o->out->to_engine(o->out->ctx, data, len);
}

static void
once_pass(void *ctx, const char *data, size_t len)
{
	struct once *o = ctx;

	(o->out->pass != NULL ? o->out->pass : o->out->to_gui)(o->out->ctx,
							       data, len);
}

static void
once_report(void *ctx, enum fb_level level, const char *msg)
{
	struct once *o = ctx;

	o->out->report(o->out->ctx, level, msg);
}

static void
once_event(void *ctx, enum fb_event ev)
{
	struct once *o = ctx;

	if (o->out->event != NULL)
		o->out->event(o->out->ctx, ev);
}

static void
once_timer(void *ctx, unsigned ms)
{
	struct once *o = ctx;

	if (o->out->timer != NULL)
		o->out->timer(o->out->ctx, ms);
}

static void
replay_answered(struct fb_filter *f, const struct fb_sink *out)
{
	struct once o = {out, f->asked->probe,
			 f->held_gui ? f->gui->hold : NULL};
	struct fb_sink via = {.to_gui = once_to_gui,
			      .to_engine = once_to_engine,
			      .pass = once_pass,
			      .report = once_report,
			      .event = once_event,
			      .timer = once_timer,
			      .ctx = &o,
			      .min_level = out->min_level};
	size_t at = 0;

	replay(f, &via);
	if (o.question != NULL)
		return; /* the pair did not ask (yet): it asks the engine */
	report(out, FB_LOG_DEBUG,
	       "the engine's answer to the probe is the pair's: asked once");
	while (at < f->answer.len && f->pair != NULL) {
		struct held_line l;
		const char *text = held_next(&f->answer, &at, &l);
		engine_to_pair(f, text, l.len, l.term, l.flags, out);
	}
}

/*
 * The probe is over: the engine speaks engine (why says how that was found
 * out). Starts the pair (a translating one gets every line of the GUI's,
 * its opening too) and gives it the GUI's held lines; out is the
 * GUI-to-engine sink.
 */
static void
decide(struct fb_filter *f, const struct fb_protocol *engine, const char *why,
       const struct fb_sink *out)
{
	bool same = engine == f->gui;

	f->probe = FB_PROBE_DONE;
	f->chosen = NULL;
	set_timer(out, 0);
	say_chosen(engine, why, out);
	flush_early(f, same, out);
	f->refusal_lines = REFUSAL_LINES;
	if (same) {
		/* Its answer to the second question may still come. */
		f->refusing = f->asked;
		f->refusals = f->asked != NULL;
		confirm(f);
	} else {
		/* The GUI's opening, not yet refused line by line. */
		f->refusing = f->gui;
		f->refusals = f->refusals_due;
		choose(f, engine);
		f->done = 0;
	}
	if (!same && engine == f->asked && f->answer_end)
		replay_answered(f, out);
	else
		replay(f, out);
	held_clear(&f->answer);
	f->answer_end = false;
	start_release(f, out);
	update_watch(f);
}

/*
 * Decided from an engine line (out: engine to GUI): the engine speaks the
 * GUI's protocol, and its answer flows on. The GUI's held lines need the
 * other sink: they go on from the timer, unless the pair waits anyway.
 */
static void
settle_same(struct fb_filter *f, const char *why, const struct fb_sink *out)
{
	size_t at = 0;

	f->probe = FB_PROBE_DONE;
	say_chosen(f->gui, why, out);
	while (at < f->early.len) {
		struct held_line l;
		const char *text = held_next(&f->early, &at, &l);
		engine_to_pair(f, text, l.len, l.term, l.flags, out);
	}
	held_clear(&f->early);
	f->refusing = f->asked;
	f->refusals = f->asked != NULL;
	f->refusal_lines = REFUSAL_LINES;
	confirm(f);
	set_timer(out, 0);
	start_release(f, out);
}

/* Decided from an engine line: applied on the next timeout. */
static void
choose_later(struct fb_filter *f, const struct fb_protocol *engine,
	     const char *why, const struct fb_sink *out)
{
	f->probe = FB_PROBE_CHOSEN;
	f->chosen = engine;
	f->why = why;
	set_timer(out, 1);
}

/* The GUI's first line of a session with a probe: the pair of its own
 * protocol starts, to be replaced if the engine speaks the other. Returns
 * false when the line does not open the protocol (a GUI named with
 * --protocol that starts without its handshake): the engine is then taken
 * to speak the GUI's protocol. */
static bool
start_probe(struct fb_filter *f, const char *text, size_t len,
	    const struct fb_sink *out)
{
	choose(f, f->gui);
	if (!f->gui->detect(text, len)) {
		f->probe = FB_PROBE_DONE;
		say_chosen(f->gui, "the GUI did not open with its handshake",
			   out);
		flush_early(f, true, out);
		confirm(f);
		update_watch(f);
		return false;
	}
	set_timer(out, fb_protocol_other(f->gui)->probe != NULL
			       ? FB_PROBE_OTHER_MS
			       : FB_PROBE_MS);
	return true;
}

/* A GUI line while the probe runs: the opening goes to the engine, the
 * rest waits. */
static void
probe_gui_line(struct fb_filter *f, const char *text, size_t len, size_t term,
	       unsigned flags, const struct fb_sink *out)
{
	bool whole = is_whole(flags);

	if (f->probe == FB_PROBE_ASKING && f->asked == NULL && whole &&
	    f->done == f->held.len && f->gui->detect(text, len) &&
	    held_add(&f->held, text, len, term, flags)) {
		f->done = f->opening_end = f->held.len;
		f->refusals_due++;
		if (f->gui->waits != NULL && f->gui->waits(text, len))
			f->gui_waits = true;
		to_pair(f, text, len, term, flags, out);
		return;
	}
	if (whole && is_quit(text, len) && f->probe != FB_PROBE_RESTART) {
		/* No more questions: the engine hears the GUI's quit. */
		bool kept = held_add(&f->held, text, len, term, flags);
		decide(f, f->chosen ? f->chosen : f->gui,
		       f->chosen ? f->why : "the GUI quit before it answered",
		       out);
		if (!kept)
			to_pair(f, text, len, term, flags, out);
		return;
	}
	if (held_add(&f->held, text, len, term, flags))
		return;
	if (f->probe == FB_PROBE_RESTART) {
		/* The engine is being started again: nowhere to go yet. */
		report(out, FB_LOG_ERROR,
		       "too many GUI lines while the engine "
		       "starts again: line lost");
		return;
	}
	/* The GUI's own opening went out: the guess that costs nothing. */
	decide(f, f->chosen ? f->chosen : f->gui,
	       f->chosen ? f->why : "the GUI did not wait for the probe", out);
	to_pair(f, text, len, term, flags, out);
}

void
fb_filter_gui_line(struct fb_filter *f, const char *text, size_t len,
		   size_t term, unsigned flags, const struct fb_sink *out)
{
	bool whole = is_whole(flags);

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
	if (f->gui == NULL) {
		/* No handshake, no probe (yet): the engine's lines are the
		 * GUI's as they come. */
		if (f->probe == FB_PROBE_ASKING && !f->early_pass) {
			flush_early(f, true, out);
			f->early_pass = true;
		}
		to_pair(f, text, len, term, flags, out);
		return;
	}
	if (f->probe == FB_PROBE_ASKING && f->pair == NULL &&
	    !start_probe(f, text, len, out)) {
		to_pair(f, text, len, term, flags, out);
		return;
	}
	if ((flags & FB_LINE_CONT) && f->held.len == f->done) {
		/* The LF of a CRLF follows its line, which went out. */
		if (f->journal && held_add(&f->held, text, len, term, flags))
			f->done = f->held.len;
		out->to_engine(out->ctx, text, len + term);
		return;
	}
	if (f->probe != FB_PROBE_OFF && f->probe != FB_PROBE_DONE) {
		probe_gui_line(f, text, len, term, flags, out);
		update_watch(f);
		return;
	}
	if (f->held.len > f->done && !pair_waits(f))
		replay(f, out); /* the wait is over: they come first */
	if (f->held.len > f->done || pair_waits(f)) {
		bool first = f->held.len == f->done;
		if (whole && is_quit(text, len)) {
			replay(f, out);
			if (!f->replay)
				set_timer(out, 0);
			to_pair(f, text, len, term, flags, out);
		} else if (held_add(&f->held, text, len, term, flags)) {
			if (first)
				set_timer(out, FB_HOLD_MS);
		} else {
			/* A script's file of commands: as without the wait
			 * (the order holds, nothing is lost). */
			report(out, FB_LOG_INFO,
			       "too many GUI lines before "
			       "the engine finished its handshake: they go "
			       "on now");
			f->waited = true;
			replay(f, out);
			to_pair(f, text, len, term, flags, out);
		}
		update_watch(f);
		return;
	}
	if (f->journal) {
		/* The engine may yet be started again: it would need this. */
		if (held_add(&f->held, text, len, term, flags))
			f->done = f->held.len;
		else
			confirm(f);
	}
	to_pair(f, text, len, term, flags, out);
}

static void
discard(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	(void)data;
	(void)len;
}

/*
 * The engine answers the GUI's opening after the probe took its silence
 * for the other protocol (a UCI engine slower than FB_PROBE_MS to start):
 * it speaks the GUI's protocol after all. The pair of the GUI's protocol
 * takes over: it is given the opening, which went to the engine as it was,
 * and the GUI's later lines again when it no longer waits; what the
 * translating pair sent meanwhile the engine refuses, and its refusals of
 * xboard and protover are dropped. out: engine to GUI.
 */
static void
late_answer(struct fb_filter *f, const struct fb_sink *out)
{
	struct fb_sink none = *out;
	size_t at = 0;

	none.to_gui = none.to_engine = discard;
	none.pass = NULL;
	report(out, FB_LOG_INFO,
	       "the engine answered the GUI's opening after "
	       "the probe's time: it speaks the GUI's protocol after all");
	choose(f, f->gui);
	while (at < f->opening_end) {
		struct held_line l;
		const char *text = held_next(&f->held, &at, &l);
		to_pair(f, text, l.len, l.term, l.flags, &none);
	}
	f->done = f->opening_end;
	f->late_ok = false;
	f->refusing = fb_protocol_other(f->gui);
	f->refusals = 2; /* the translating pair's opening: two lines */
	f->refusal_lines = REFUSAL_LINES;
	confirm(f);
	set_timer(out, f->held.len > f->done ? FB_HOLD_MS : 0);
}

/* A line of the engine's answer to the probe, kept for the pair; one
 * that does not fit drops the whole answer (the pair then asks again). */
static void
keep_answer(struct fb_filter *f, const char *text, size_t len, size_t term,
	    unsigned flags)
{
	if (f->answer_lost || held_add(&f->answer, text, len, term, flags))
		return;
	held_clear(&f->answer);
	f->answer_lost = true;
}

/* An engine line while the probe runs (out: engine to GUI). */
static void
probe_engine_line(struct fb_filter *f, const char *text, size_t len,
		  size_t term, unsigned flags, const struct fb_sink *out)
{
	const struct fb_protocol *other = fb_protocol_other(f->gui);
	enum fb_probe_answer a = FB_ANSWER_UNKNOWN, q = FB_ANSWER_UNKNOWN;

	if (is_whole(flags) && f->probe != FB_PROBE_RESTART) {
		a = f->gui->probe_answer(text, len);
		if (f->asked != NULL)
			q = f->asked->probe_answer(text, len);
	}
	if (f->probe == FB_PROBE_ASKING &&
	    (a == FB_ANSWER_YES || a == FB_ANSWER_END)) {
		settle_same(f, "it answered the GUI's opening", out);
		engine_to_pair(f, text, len, term, flags, out);
		if (f->held.len > f->done && !pair_waits(f)) {
			f->replay = true;
			set_timer(out, 1);
		} else if (f->held.len > f->done) {
			set_timer(out, FB_HOLD_MS);
		}
		return;
	}
	report(out, FB_LOG_DEBUG, "answer to the probe, not passed on yet");
	if (f->probe == FB_PROBE_ASKING && a == FB_ANSWER_NO) {
		f->refusals_due--;
		choose_later(f, other, "it refused the GUI's opening", out);
	} else if ((f->probe == FB_PROBE_ASKING ||
		    f->probe == FB_PROBE_ANSWERING) &&
		   q == FB_ANSWER_END) {
		keep_answer(f, text, len, term, flags);
		f->answer_end = !f->answer_lost;
		choose_later(f, f->asked, "it answered the probe", out);
	} else if ((f->probe == FB_PROBE_ASKING && q == FB_ANSWER_YES) ||
		   f->probe == FB_PROBE_ANSWERING) {
		/* Kept up to its end for the pair, not passed on. */
		f->probe = FB_PROBE_ANSWERING;
		keep_answer(f, text, len, term, flags);
	} else if (f->probe == FB_PROBE_ASKING && q == FB_ANSWER_NO) {
		f->asked = NULL; /* refused: nothing more to drop */
		choose_later(f, f->gui, "it refused the probe", out);
	} else if (f->probe != FB_PROBE_ANSWERING &&
		   f->probe != FB_PROBE_RESTART &&
		   (f->early_pass ||
		    !held_add(&f->early, text, len, term, flags))) {
		/* More than a banner before its answer: no line is dropped,
		 * so what is held goes to the GUI as it came, and the rest
		 * with it until the answer tells the protocol. */
		if (!f->early_pass)
			report(out, FB_LOG_INFO,
			       "more than 64 KiB from the "
			       "engine before it answered the probe: passed "
			       "on as it came");
		flush_early_here(f, out);
		f->early_pass = true;
		out->to_gui(out->ctx, text, len + term);
	}
}

/* An engine line while more than the pair needs it (f->watch). */
static __attribute__((noinline)) void
engine_line_watched(struct fb_filter *f, const char *text, size_t len,
		    size_t term, unsigned flags, const struct fb_sink *out)
{
	if (f->probe == FB_PROBE_ASKING && f->pair == NULL) {
		/* Before the GUI's first line (a banner): kept for the
		 * probe's answer, unless the engine has exited (an engine
		 * that writes and exits at once: its lines are news). */
		if (!f->early_pass &&
		    held_add(&f->early, text, len, term, flags))
			return;
		flush_early_here(f, out);
		f->early_pass = true; /* that much is no banner */
		out->to_gui(out->ctx, text, len + term);
		return;
	}
	if (f->probe != FB_PROBE_OFF && f->probe != FB_PROBE_DONE) {
		probe_engine_line(f, text, len, term, flags, out);
		update_watch(f);
		return;
	}
	if (f->late_ok && is_whole(flags)) {
		/* Until the engine answers either protocol: a banner or a
		 * refusal of the translating pair's opening says nothing. */
		enum fb_probe_answer a = f->gui->probe_answer(text, len),
				     b = fb_protocol_other(f->gui)
						 ->probe_answer(text, len);
		if (a == FB_ANSWER_YES || a == FB_ANSWER_END)
			late_answer(f, out);
		else if (b == FB_ANSWER_YES || b == FB_ANSWER_END)
			f->late_ok = false;
	}
	if (f->refusals > 0 && is_whole(flags)) {
		enum fb_probe_answer a = f->refusing->probe_answer(text, len);
		if (f->refusing->refused(text, len)) {
			f->refusals--;
			report(out, FB_LOG_DEBUG,
			       "refusal of the probe, not "
			       "passed on");
			update_watch(f);
			return;
		}
		if (f->refusing != f->gui &&
		    (a == FB_ANSWER_YES || a == FB_ANSWER_END)) {
			/* An engine of both protocols answered the question
			 * too, and took it as a switch (Fairy-Stockfish):
			 * its answer is not the GUI's; the GUI's opening
			 * switches it back. */
			report(out, FB_LOG_DEBUG,
			       "answer to the probe, not "
			       "passed on");
			if (a == FB_ANSWER_END) {
				f->refusals = 0;
				if (f->gui->opening != NULL) {
					report(out, FB_LOG_INFO,
					       "the engine "
					       "also answered the probe: sent "
					       "it the GUI's opening again");
					out->to_engine(out->ctx,
						       f->gui->opening,
						       strlen(f->gui->opening));
				}
			}
			update_watch(f);
			return;
		}
		if (--f->refusal_lines == 0)
			f->refusals = 0;
	}
	if (!f->confirmed && !f->late_ok)
		confirm(f);
	if (f->timing && is_whole(flags) && f->gui->released(text, len)) {
		f->timing = false;
		if (!f->replay)
			set_timer(out, 0);
	}
	engine_to_pair(f, text, len, term, flags, out);
	if (f->held.len > f->done && !f->replay && !pair_waits(f)) {
		/* The pair has what it waited for: the GUI's lines go on,
		 * from the timer (they need the other sink). */
		f->replay = true;
		set_timer(out, 1);
	}
	update_watch(f);
}

/* An engine floods its GUI with lines that only the pair reads: those
 * cost one test here, and both calls are this function's last act (it
 * keeps no frame of its own). */
void
fb_filter_engine_line(struct fb_filter *f, const char *text, size_t len,
		      size_t term, unsigned flags, const struct fb_sink *out)
{
	if (f->watch) {
		engine_line_watched(f, text, len, term, flags, out);
		check_done(f, out);
	} else {
		engine_to_pair(f, text, len, term, flags, out);
	}
}

void
fb_filter_timeout(struct fb_filter *f, const struct fb_sink *out)
{
	const struct fb_protocol *other =
		f->gui != NULL ? fb_protocol_other(f->gui) : NULL;

	switch (f->probe) {
	case FB_PROBE_RESTART:
		return;
	case FB_PROBE_CHOSEN:
		decide(f, f->chosen, f->why, out);
		check_done(f, out);
		return;
	case FB_PROBE_ASKING:
		if (f->pair == NULL)
			return; /* not started */
		if (f->asked == NULL && other->probe != NULL) {
			/* Silent to the GUI's opening: ask the other
			 * protocol, and keep the GUI waiting meanwhile. */
			report(out, FB_LOG_INFO,
			       "no answer to the GUI's "
			       "opening: asking the engine in the other "
			       "protocol");
			f->asked = other;
			out->to_engine(out->ctx, other->probe,
				       strlen(other->probe));
			if (f->gui_waits && f->gui->hold != NULL &&
			    !f->held_gui) {
				out->to_gui(out->ctx, f->gui->hold,
					    strlen(f->gui->hold));
				f->held_gui = true;
			}
			set_timer(out, FB_PROBE_MS - FB_PROBE_OTHER_MS);
			return;
		}
		decide(f, silent_protocol(), "no answer to the probe in time",
		       out);
		f->late_ok = f->pair != NULL && f->pair->engine != f->gui;
		check_done(f, out);
		return;
	case FB_PROBE_ANSWERING:
		decide(f, f->asked, "it answered the probe without ending it",
		       out);
		check_done(f, out);
		return;
	default:
		break;
	}
	if (f->replay || f->held.len > f->done) {
		if (!f->replay) {
			report(out, FB_LOG_WARN,
			       "the engine did not finish "
			       "its handshake in time: the GUI's lines go on");
			f->waited = true;
		}
		f->replay = false;
		replay(f, out);
		if (f->timing)
			set_timer(out, RELEASE_MS);
	} else if (f->timing) {
		f->timing = false;
		report(out, FB_LOG_INFO,
		       "the engine did not end the GUI's wait: fenbridge did");
		out->to_gui(out->ctx, f->gui->release, strlen(f->gui->release));
	} else if (f->state != NULL && f->pair->timeout != NULL) {
		f->pair->timeout(f->state, out);
	}
	check_done(f, out);
	update_watch(f);
}

void
fb_filter_gui_eof(struct fb_filter *f, const struct fb_sink *out)
{
	f->gui_eof = true;
	if (f->probe == FB_PROBE_ASKING && f->pair == NULL) {
		/* Nothing was asked: the GUI sent no opening. */
		flush_early(f, true, out);
		f->early_pass = true;
		f->probe = FB_PROBE_DONE;
	}
	check_done(f, out);
	update_watch(f);
}

void
fb_filter_gui_gone(struct fb_filter *f, const struct fb_sink *out)
{
	f->gui_eof = f->gui_done = true; /* nothing more is waited for */
	if (f->probe == FB_PROBE_ASKING && f->pair == NULL) {
		flush_early(f, true, out); /* nothing was asked */
		f->early_pass = true;
	} else if (f->probe == FB_PROBE_ASKING ||
		   f->probe == FB_PROBE_ANSWERING ||
		   f->probe == FB_PROBE_CHOSEN) {
		if (f->pair != NULL)
			decide(f, f->chosen ? f->chosen : f->gui,
			       f->chosen ? f->why
					 : "the GUI left before it answered",
			       out);
	} else if (f->probe == FB_PROBE_OFF || f->probe == FB_PROBE_DONE) {
		f->waited = true;
		f->replay = false;
		replay(f, out);
	}
	update_watch(f);
}

/* The engine's end (answered: it may be its answer to the probe). */
static void
engine_exit(struct fb_filter *f, bool answered, const struct fb_sink *out)
{
	const struct fb_protocol *next = NULL;
	char msg[200];

	if (f->probe == FB_PROBE_ASKING && f->pair == NULL) {
		/* Nothing was asked: what it wrote is the GUI's. */
		flush_early(f, true, out);
		f->early_pass = true;
		return;
	}
	if (!answered && fb_filter_probing(f))
		report(out, FB_LOG_INFO,
		       "the engine ended before it answered the protocol "
		       "probe, of a cause that is no answer: not started "
		       "again");
	if (!answered || f->restarted || f->gui == NULL || f->gui_quit ||
	    !f->journal)
		return;
	switch (f->probe) {
	case FB_PROBE_ASKING:
		if (f->pair == NULL)
			return; /* the GUI has said nothing yet */
		/* It died of the last question: the protocol of the other. */
		next = fb_protocol_other(f->asked != NULL ? f->asked : f->gui);
		break;
	case FB_PROBE_ANSWERING:
		next = f->asked;
		break;
	case FB_PROBE_CHOSEN:
		next = f->chosen;
		break;
	case FB_PROBE_DONE:
		if (f->confirmed || f->pair == NULL)
			return;
		next = f->pair->engine;
		break;
	default:
		return;
	}
	f->restarted = true;
	f->late_ok = false;
	f->probe = FB_PROBE_RESTART;
	f->chosen = next;
	f->replay = f->timing = false;
	f->asked = NULL;
	set_timer(out, 0);
	held_clear(&f->early);
	held_clear(&f->answer);
	f->answer_end = f->answer_lost = false;
	snprintf(msg, sizeof msg,
		 "the engine ended before it answered the "
		 "protocol probe: starting it again to speak %s",
		 next->name);
	report(out, FB_LOG_WARN, msg);
	if (out->event != NULL)
		out->event(out->ctx, FB_EVENT_RESTART);
	update_watch(f);
}

void
fb_filter_engine_exit(struct fb_filter *f, const struct fb_sink *out)
{
	engine_exit(f, true, out);
}

void
fb_filter_engine_gone(struct fb_filter *f, const struct fb_sink *out)
{
	engine_exit(f, false, out);
}

void
fb_filter_engine_started(struct fb_filter *f, const struct fb_sink *out)
{
	if (f->probe != FB_PROBE_RESTART)
		return;
	f->probe = FB_PROBE_DONE;
	say_chosen(f->chosen, "started again after it died on the probe", out);
	choose(f, f->chosen);
	f->chosen = NULL;
	f->journal = false; /* no second start */
	f->refusals = 0;
	f->done = 0;
	replay(f, out);
	start_release(f, out);
	check_done(f, out);
	update_watch(f);
}

const struct fb_protocol *
fb_filter_protocol(const struct fb_filter *f)
{
	return f->gui;
}

bool
fb_filter_probing(const struct fb_filter *f)
{
	/* Not before the GUI's first line: nothing was asked yet. */
	return f->opt.engine_probe && f->gui != NULL &&
	       !(f->probe == FB_PROBE_ASKING && f->pair == NULL) &&
	       (f->probe != FB_PROBE_DONE || !f->confirmed);
}

bool
fb_filter_holding(const struct fb_filter *f)
{
	return (f->probe != FB_PROBE_OFF && f->probe != FB_PROBE_DONE) ||
	       f->held.len > f->done || pair_waits(f);
}

const struct fb_protocol *
fb_filter_engine_protocol(const struct fb_filter *f)
{
	if (f->probe != FB_PROBE_OFF && f->probe != FB_PROBE_DONE)
		return NULL;
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
