/* SPDX-License-Identifier: MIT */
/*
 * The XBoard-GUI / UCI-engine session's lifecycle (xboard_uci.h): one
 * state and the one function that changes it, fb_xbu_step(). Every event of
 * the handshake, of the GUI's modes (CECP new, force, go, playother,
 * analyze, exit, result, easy) and of the engine's searches comes here.
 *
 * Searches: every `go` is matched by a `bestmove`. When fenbridge itself
 * stops a search because the game changed under it (new, force, undo,
 * setboard, a move in analyze mode, ...), the bestmove that answers is
 * stale: it is counted here and swallowed, with the info lines before it
 * (fb_xbu_thinking_shown).
 *
 * No I/O in this file.
 */
#include "xboard_uci.h"

bool
fb_xbu_searching(const struct xbu *x)
{
	return x->state == FB_XBU_THINKING || x->state == FB_XBU_PONDERING ||
	       x->state == FB_XBU_ANALYZING;
}

bool
fb_xbu_analyze_mode(const struct xbu *x)
{
	return x->state == FB_XBU_ANALYZING || x->state == FB_XBU_ANALYZE_IDLE;
}

bool
fb_xbu_thinking_shown(const struct xbu *x)
{
	return x->stale == 0 &&
	       (x->state == FB_XBU_THINKING || x->state == FB_XBU_ANALYZING);
}

/* Stops what the engine does for fenbridge (its bestmove will be stale):
 * the state becomes its mode's idle one. */
static void
stop(struct xbu *x, const struct fb_sink *out)
{
	if (!fb_xbu_searching(x))
		return;
	fb_proto_engine(out, "stop");
	x->stale++;
	x->state = x->state == FB_XBU_ANALYZING ? FB_XBU_ANALYZE_IDLE
						: FB_XBU_WAITING;
}

/* The mode a state plays in, as analyze returns to it. */
static enum fb_xbu_state
mode_of(const struct xbu *x)
{
	if (x->state == FB_XBU_FORCE)
		return FB_XBU_FORCE;
	if (fb_xbu_analyze_mode(x))
		return x->after_analyze;
	return FB_XBU_WAITING;
}

/* Sets the mode: in analyze mode, the one exit returns to. */
static void
set_mode(struct xbu *x, enum fb_xbu_state mode)
{
	if (fb_xbu_analyze_mode(x))
		x->after_analyze = mode;
	else
		x->state = mode;
}

static void
search(struct xbu *x, bool analyze, const struct fb_sink *out)
{
	stop(x, out);
	fb_xbu_start_search(x, analyze, out);
	x->state = analyze ? FB_XBU_ANALYZING : FB_XBU_THINKING;
}

/* After the game changed: the engine analyzes, or thinks when it is its
 * turn in a game that is not over. */
static void
changed(struct xbu *x, const struct fb_sink *out)
{
	if (fb_xbu_analyze_mode(x))
		search(x, true, out);
	else if (x->state == FB_XBU_WAITING && !x->over &&
		 x->cur.side == x->engine_side)
		search(x, false, out);
}

/* The pair's one transition function (xboard_uci.h): every event changes
 * the state here and nowhere else. Longer than 100 lines on purpose: one
 * case per event, read as the state machine's table. */
bool
fb_xbu_step(struct xbu *x, enum fb_xbu_event ev, const char *text, size_t len,
	    const struct fb_sink *out)
{
	switch (ev) {
	case FB_XBU_EV_OPEN:
		if (x->state == FB_XBU_START) {
			fb_xbu_ask_engine(x, out);
			x->state = FB_XBU_HELLO;
		}
		return true;
	case FB_XBU_EV_LISTED:
		if (x->state != FB_XBU_START && x->state != FB_XBU_HELLO)
			return false; /* late: the game goes on */
		x->state = FB_XBU_WAITING;
		if (x->protover)
			fb_xbu_features(x, out);
		return true;
	case FB_XBU_EV_NEW:
		/* CECP: the engine plays Black, out of force and analyze
		 * mode */
		stop(x, out);
		x->state = FB_XBU_WAITING;
		x->engine_side = FB_BLACK;
		return true;
	case FB_XBU_EV_STOP:
		stop(x, out);
		return true;
	case FB_XBU_EV_CHANGED:
		changed(x, out);
		return true;
	case FB_XBU_EV_UNDONE:
		if (fb_xbu_analyze_mode(x))
			search(x, true, out);
		return true;
	case FB_XBU_EV_FORCE:
		stop(x, out);
		set_mode(x, FB_XBU_FORCE);
		return true;
	case FB_XBU_EV_GO:
		/* CECP: leave force mode, play the colour on move */
		stop(x, out);
		x->engine_side = x->cur.side;
		set_mode(x, FB_XBU_WAITING);
		search(x, fb_xbu_analyze_mode(x), out);
		return true;
	case FB_XBU_EV_PLAYOTHER:
		stop(x, out);
		x->engine_side = !x->cur.side;
		set_mode(x, FB_XBU_WAITING);
		return true;
	case FB_XBU_EV_ANALYZE:
		if (!fb_xbu_analyze_mode(x))
			x->after_analyze = mode_of(x);
		stop(x, out);
		x->state = FB_XBU_ANALYZE_IDLE;
		search(x, true, out);
		return true;
	case FB_XBU_EV_EXIT:
		stop(x, out);
		if (fb_xbu_analyze_mode(x))
			x->state = x->after_analyze;
		return true;
	case FB_XBU_EV_MOVENOW:
		if (x->state == FB_XBU_THINKING)
			fb_proto_engine(out, "stop"); /* its move is wanted */
		return true;
	case FB_XBU_EV_EASY:
		if (x->state == FB_XBU_PONDERING)
			stop(x, out);
		return true;
	case FB_XBU_EV_PONDERHIT:
		if (x->state != FB_XBU_PONDERING)
			return false;
		/* the expected reply: that search now gives the move */
		fb_proto_engine(out, "ponderhit");
		x->state = FB_XBU_THINKING;
		return true;
	case FB_XBU_EV_PONDER:
		if (x->state != FB_XBU_WAITING)
			return false;
		x->state = FB_XBU_PONDERING;
		return true;
	case FB_XBU_EV_BESTMOVE:
		if (x->stale > 0) {
			x->stale--;
			fb_proto_report(out, FB_LOG_DEBUG,
					"bestmove of a search fenbridge "
					"stopped: swallowed");
			return false;
		}
		if (x->state == FB_XBU_PONDERING) {
			/* UCI: no bestmove before ponderhit or stop; one
			 * that comes anyway is not the engine's move */
			x->state = FB_XBU_WAITING;
			fb_proto_report(out, FB_LOG_WARN,
					"bestmove while pondering: dropped: "
					"%.*s",
					(int)len, text);
			return false;
		}
		if (x->state != FB_XBU_THINKING) {
			fb_proto_report(out, FB_LOG_WARN,
					"bestmove without a search: dropped: "
					"%.*s",
					(int)len, text);
			return false;
		}
		x->state = FB_XBU_WAITING;
		return true;
	}
	return false;
}
