/* SPDX-License-Identifier: MIT */
/*
 * The UCI-GUI / XBoard-engine session's lifecycle (uci_xboard.h): one
 * state and the one function that changes it, fb_uxb_lifecycle(). Every
 * event of the handshake (the GUI's uci, the engine's first line and its
 * done=1) and of the searches (go, stop, ponderhit, the engine's thinking
 * output and move, the timer) comes here.
 *
 * No I/O in this file.
 */
#include "uci_xboard.h"

void
fb_uxb_timer(const struct fb_sink *out, unsigned ms)
{
	if (out->timer != NULL)
		out->timer(out->ctx, ms);
}

bool
fb_uxb_ready(const struct uxb *x)
{
	return x->state >= FB_UXB_IDLE;
}

bool
fb_uxb_searching(const struct uxb *x)
{
	return x->state > FB_UXB_IDLE;
}

bool
fb_uxb_thinking(const struct uxb *x)
{
	return x->state == FB_UXB_THINKING || x->state == FB_UXB_TIMED ||
	       x->state == FB_UXB_MOVENOW;
}

/* A real search for g, from the idle engine. */
static void
search(struct uxb *x, const struct fb_uci_go *g, const struct fb_sink *out)
{
	unsigned deadline = 0;

	x->pv[0][0] = x->pv[1][0] = '\0';
	x->state = fb_uxb_search(x, g, &deadline, out);
	if (x->state == FB_UXB_TIMED && out->deadline != NULL)
		out->deadline(out->ctx, deadline); /* the GUI's clock */
	else if (x->state == FB_UXB_TIMED)
		fb_uxb_timer(out, deadline);
}

/* go for the current x->go, from the idle engine. */
static void
go(struct uxb *x, const struct fb_sink *out)
{
	x->pv[0][0] = x->pv[1][0] = '\0';
	if (x->refused) {
		/* No search of a board the engine was not given. */
		fb_proto_gui(out, "bestmove 0000");
		return;
	}
	if (x->go.ponder) {
		/* Kept for ponderhit. */
		x->ponder_go = x->go;
		x->state = FB_UXB_PONDERING;
		fb_uxb_analyze(x, out);
	} else if (x->go.infinite) {
		x->state = FB_UXB_ANALYZING;
		fb_uxb_analyze(x, out);
	} else {
		search(x, &x->go, out);
	}
}

/* ? (CECP: move now) to an engine asked to move: its move comes, and a
 * deadline is waited for no more. */
static void
move_now(struct uxb *x, const struct fb_sink *out)
{
	fb_proto_engine(out, "?");
	if (x->state == FB_UXB_TIMED)
		fb_uxb_timer(out, 0);
	x->state = FB_UXB_MOVENOW;
}

/* The handshake is over: the GUI hears it, a go that came before it runs,
 * and the GUI's lines held since its uci go on, in order. */
static void
handshake_done(struct uxb *x, const struct fb_sink *out)
{
	x->state = FB_UXB_IDLE;
	fb_uxb_announce(x, out);
	fb_proto_release(&x->held, fb_uxb_held_line, x, out);
	if (x->go_held) {
		x->go_held = false;
		go(x, out);
	}
}

/*
 * The one place where the session's state changes. Every event comes here:
 * the GUI's uci, go, stop and ponderhit, the engine's first line, its
 * done=1, its thinking output and its move, and the timer. The behaviour
 * is the file comment's; the events that a state does not expect change
 * nothing (a stop with no search, a timer that was cancelled). Longer than
 * 100 lines on purpose: one case per event, read as the table of the
 * state machine; split, the transitions would be spread over files again.
 */
void
fb_uxb_lifecycle(struct uxb *x, enum fb_uxb_event ev, long long arg,
		 const struct fb_sink *out)
{
	switch (ev) {
	case FB_UXB_EV_UCI:
		if (fb_uxb_ready(x)) {
			/* A second uci: the GUI hears it all again. As at the
			 * handshake's end, the timer is cancelled: a go
			 * movetime's deadline, a stopped analysis's wait. */
			if (x->state == FB_UXB_TIMED)
				x->state = FB_UXB_THINKING;
			else if (x->state == FB_UXB_STOPPING)
				x->state = FB_UXB_ANALYZING;
			fb_uxb_announce(x, out);
			return;
		}
		x->state = FB_UXB_HELLO;
		x->nudges = x->reasks = 0;
		x->spoke = false;
		fb_proto_engine(out, "xboard");
		fb_proto_engine(out, "protover 2");
		fb_uxb_timer(out, FB_UXB_NUDGE_MS);
		return;
	case FB_UXB_EV_HEARD:
		if (x->state != FB_UXB_HELLO)
			return;
		/* A sign of life: the rest of CECP's 2 s for its features,
		 * or all of it for an engine nudged awake. */
		x->state = FB_UXB_FEATURES;
		fb_uxb_timer(out,
			     x->nudges * FB_UXB_NUDGE_MS < FB_UXB_FEATURE_MS
				     ? FB_UXB_FEATURE_MS -
					       x->nudges * FB_UXB_NUDGE_MS
				     : FB_UXB_FEATURE_MS);
		return;
	case FB_UXB_EV_DONE:
		if (x->state == FB_UXB_HELLO || x->state == FB_UXB_FEATURES)
			handshake_done(x, out);
		return;
	case FB_UXB_EV_TIMER:
		switch (x->state) {
		case FB_UXB_HELLO:
			if (x->spoke && x->reasks < 3) {
				/* awake, yet no features: ask again */
				x->spoke = false;
				x->reasks++;
				x->nudges++;
				fb_proto_report(
					out, FB_LOG_INFO,
					"the engine answers but sent "
					"no features: protover 2 again");
				fb_proto_engine(out, "protover 2");
				fb_uxb_timer(out, FB_UXB_NUDGE_MS);
				return;
			}
			if ((x->nudges + 1) * FB_UXB_NUDGE_MS <
			    FB_UXB_SILENT_MS) {
				fb_uxb_nudge(x, out);
				return;
			}
			/* fall through */
		case FB_UXB_FEATURES:
			fb_proto_report(out, FB_LOG_INFO,
					"no feature done=1 from the engine in "
					"time: its features end here (a "
					"protover 1 engine)");
			handshake_done(x, out);
			return;
		case FB_UXB_TIMED:
			x->state = FB_UXB_THINKING; /* the deadline is over */
			move_now(x, out);
			return;
		case FB_UXB_STOPPING:
			x->state = FB_UXB_IDLE;
			fb_uxb_end_analysis(x, out);
			fb_uxb_no_pv_bestmove(x, out);
			return;
		default:
			return; /* a timer that was cancelled */
		}
	case FB_UXB_EV_GO:
		if (!fb_uxb_ready(x)) {
			/* The engine is not set up yet (its features decide
			 * how it is spoken to): the go waits for uciok, as
			 * isready does. */
			fb_proto_report(out, FB_LOG_INFO,
					"go before uciok: it waits for the "
					"engine's features");
			x->go_held = true;
		} else if (fb_uxb_searching(x)) {
			fb_proto_report(out, FB_LOG_WARN,
					"go while the engine searches: "
					"ignored");
		} else {
			go(x, out);
		}
		return;
	case FB_UXB_EV_STOP:
		switch (x->state) {
		case FB_UXB_ANALYZING:
			if (x->pv[0][0] == '\0') {
				/* No pv yet (stopped at once, or a slow
				 * start): the analysis runs on until its
				 * first pv, which is the bestmove (a go + ?
				 * instead was lost by Sjaak II in the same
				 * state). */
				x->state = FB_UXB_STOPPING;
				fb_uxb_timer(out, FB_UXB_STOP_WAIT_MS);
				return;
			}
			/* fall through */
		case FB_UXB_PONDERING:
			/* After go ponder the GUI ignores the bestmove: none
			 * is waited for. */
			x->state = FB_UXB_IDLE;
			fb_uxb_end_analysis(x, out);
			fb_uxb_bestmove_from_pv(x, out);
			return;
		case FB_UXB_THINKING:
		case FB_UXB_TIMED:
			move_now(x, out);
			return;
		default:
			if (x->go_held) {
				/* A go that never ran: no move. */
				x->go_held = false;
				fb_proto_gui(out, "bestmove 0000");
			}
			return;
		}
	case FB_UXB_EV_PONDERHIT:
		if (x->state == FB_UXB_PONDERING) {
			x->state = FB_UXB_IDLE;
			fb_uxb_end_analysis(x, out);
			search(x, &x->ponder_go, out);
		} else if (x->go_held && x->go.ponder) {
			x->go.ponder = false; /* the held go ponder is a go */
		} else {
			fb_proto_report(out, FB_LOG_WARN,
					"ponderhit without go ponder: ignored");
		}
		return;
	case FB_UXB_EV_PV:
		if (x->state == FB_UXB_STOPPING && x->pv[0][0] != '\0') {
			fb_uxb_timer(out, 0);
			x->state = FB_UXB_IDLE;
			fb_uxb_end_analysis(x, out);
			fb_uxb_bestmove_from_pv(x, out);
		} else if ((x->state == FB_UXB_THINKING ||
			    x->state == FB_UXB_TIMED) &&
			   x->no_sd && x->depth_goal > 0 &&
			   arg >= x->depth_goal) {
			/* The depth an engine without sd was asked for. */
			move_now(x, out);
		}
		return;
	case FB_UXB_EV_MOVED:
		if (!fb_uxb_thinking(x))
			return;
		if (x->state == FB_UXB_TIMED)
			fb_uxb_timer(out, 0);
		x->state = FB_UXB_IDLE;
		fb_proto_engine(out, "force"); /* it must not move again */
		return;
	}
}
