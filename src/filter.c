/* SPDX-License-Identifier: MIT */
/*
 * Filter dispatch: decides the protocol from the GUI's first command, finds
 * the pair of protocols for the session, creates its state through the
 * pair, and hands each whole line to it. Knows no protocol by name: the
 * tables in protocols/protocols.c do.
 *
 * No I/O in this file: output goes through the caller's sink.
 */
#include "fenbridge/filter.h"

#include <string.h>

#include "fenbridge/line.h"

static void
start(struct fb_filter *f, const struct fb_protocol *gui)
{
	/* Today the engine speaks the GUI's protocol. */
	f->pair = fb_pair_find(gui, gui);
	if (f->pair != NULL)
		f->state = f->pair->state_new(&f->opt);
}

void
fb_filter_init(struct fb_filter *f, const struct fb_filter_options *opt)
{
	memset(f, 0, sizeof *f);
	f->opt = *opt;
	if (opt->proto != NULL)
		start(f, opt->proto);
}

void
fb_filter_free(struct fb_filter *f)
{
	if (f->pair != NULL && f->state != NULL)
		f->pair->state_free(f->state);
	f->state = NULL;
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

void
fb_filter_gui_line(struct fb_filter *f, const char *text, size_t len,
		   size_t term, unsigned flags, const struct fb_sink *out)
{
	if (flags & (FB_LINE_RAW | FB_LINE_CONT)) {
		out->emit(out->ctx, text, len + term);
		return;
	}
	if (!f->gui_quit && is_quit(text, len)) {
		f->gui_quit = true;
		if (out->event != NULL)
			out->event(out->ctx, FB_EVENT_GUI_QUIT);
	}
	if (f->pair == NULL) {
		const struct fb_protocol *p = fb_protocol_detect(text, len);
		if (p != NULL)
			start(f, p);
	}
	if (f->state == NULL)
		out->emit(out->ctx, text, len + term);
	else
		f->pair->gui_line(f->state, text, len, term, out);
}

void
fb_filter_engine_line(struct fb_filter *f, const char *text, size_t len,
		      size_t term, unsigned flags, const struct fb_sink *out)
{
	if (f->state == NULL || (flags & (FB_LINE_RAW | FB_LINE_CONT)))
		out->emit(out->ctx, text, len + term);
	else
		f->pair->engine_line(f->state, text, len, term, out);
}

const struct fb_protocol *
fb_filter_protocol(const struct fb_filter *f)
{
	return f->pair != NULL ? f->pair->gui : NULL;
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
