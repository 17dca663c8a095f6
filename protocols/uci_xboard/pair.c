/* SPDX-License-Identifier: MIT */
/*
 * A UCI GUI with an XBoard engine (UCI spec of April 2006; CECP, "Chess
 * Engine Communication Protocol", T. Mann, H.G. Muller): legacy engines
 * behind Fritz, Shredder, cutechess or fastchess. Unlike the same-protocol
 * pairs this one translates every command (see uci_xboard.h for which file
 * does what):
 *
 * - Handshake: `uci` -> `xboard`, `protover 2`; the engine's features are
 *   answered `accepted`/`rejected` and collected until `done=1` (or 2 s of
 *   silence for a protover-1 engine; `done=0` extends the wait to 30 s).
 *   An engine that has said nothing at all gets an empty line every
 *   100 ms of that wait (GNU Chess 6.2.7 hangs at start until a line
 *   comes). Then the GUI gets `id name`, the engine's `feature option=`
 *   lines as UCI options, UCI_Chess960 and UCI_Variant for the variants it
 *   can play, Ponder, and `uciok`. `isready` -> `ping N`, `pong N` ->
 *   `readyok`.
 * - Position: the engine keeps its own game, always in force mode between
 *   searches so that it never moves on its own; a `position` line that
 *   extends what it has sends only the new moves.
 * - Search: `go` -> `level`/`time`/`otim`, `st` (and `?` at a sub-second
 *   deadline), `sd`, `nps`, then `go`; `infinite` and `ponder` ->
 *   `analyze`; `stop` -> `?` (or `exit` from analysis, with the pv's first
 *   move as bestmove); `ponderhit` -> `exit` and a real search.
 * - Engine -> GUI: thinking output -> `info ... pv`, `move M` -> `bestmove
 *   M`, resign and result claims, errors and `telluser` -> `info string`.
 *
 * This file reads each line once through its side's codec and maps it
 * to the lifecycle's events (lifecycle.c) or to the other side.
 *
 * No I/O in this file.
 */
#include <stdlib.h>
#include <string.h>

#include "uci_xboard.h"

static void *
uxb_new(const struct fb_filter_options *opt)
{
	struct uxb *x = calloc(1, sizeof *x);

	if (x == NULL)
		return NULL;
	x->opt = opt;
	fb_policy_init(&x->pol, opt, &fb_protocol_uci, &fb_protocol_xboard);
	x->state = FB_UXB_START;
	x->f.analyze = true; /* CECP default */
	fb_game_start(&x->game, fb_variant_normal->start);
	return x;
}

static void
uxb_free(void *state)
{
	struct uxb *x = state;

	free(x->uci_options.p);
	free(x->held.p);
	free(x->have.p);
	free(x);
}

static const struct fb_game *
uxb_game(const void *state)
{
	const struct uxb *x = state;

	return x->have_valid ? &x->game : NULL;
}

static const char *
uxb_variant(const void *state)
{
	const struct uxb *x = state;

	return fb_policy_game_variant(&x->pol)->name;
}

static void
uxb_timeout(void *state, const struct fb_sink *out)
{
	fb_uxb_lifecycle(state, FB_UXB_EV_TIMER, 0, out);
}

/*
 * Between the engine's `protover 2` and its `feature done=1` CECP allows
 * nothing but the answers to its features: a UCI GUI's setoption,
 * ucinewgame, position and isready sent before uciok (GNU Chess got
 * `new`, `force` and the moves) wait for it, in order, as the GUI's lines
 * do for a UCI engine; a go waits as before (go_held, which stop and
 * ponderhit change) and runs after them. Returns true when the line is
 * held.
 */
static bool
hold(struct uxb *x, enum fb_uci_gui kind, const char *text, size_t len,
     const struct fb_sink *out)
{
	if ((x->state != FB_UXB_HELLO && x->state != FB_UXB_FEATURES) ||
	    (kind != FB_UCI_G_SETOPTION && kind != FB_UCI_G_UCINEWGAME &&
	     kind != FB_UCI_G_POSITION && kind != FB_UCI_G_ISREADY) ||
	    x->no_hold)
		return false;
	if (fb_proto_hold(&x->held, text, len, FB_HOLD_MAX))
		return true;
	fb_proto_report(out, FB_LOG_WARN,
			"too many GUI lines before the engine's feature "
			"done=1: they go on now");
	x->no_hold = true;
	fb_proto_release(&x->held, fb_uxb_held_line, x, out);
	return false;
}

static void
uxb_gui_line(void *state, const char *text, size_t len, size_t term,
	     const struct fb_sink *out)
{
	struct uxb *x = state;
	size_t start;
	enum fb_uci_gui kind = fb_uci_gui_kind(text, len, &start);

	(void)term;
	if (hold(x, kind, text, len, out))
		return;
	switch (kind) {
	case FB_UCI_G_UCI:
		fb_uxb_lifecycle(x, FB_UXB_EV_UCI, 0, out);
		return;
	case FB_UCI_G_ISREADY:
		if (!fb_uxb_ready(x))
			x->pending_ready++;
		else if (x->f.ping && x->state == FB_UXB_IDLE)
			fb_proto_engine(out, "ping %u", ++x->ping_sent);
		else
			fb_proto_gui(out, "readyok");
		return;
	case FB_UCI_G_SETOPTION:
		fb_uxb_setoption(x, text, len, out);
		return;
	case FB_UCI_G_UCINEWGAME:
		x->have_valid = false;
		fb_uxb_new_game(x);
		return;
	case FB_UCI_G_POSITION:
		if (fb_uxb_searching(x))
			fb_uxb_lifecycle(x, FB_UXB_EV_STOP, 0, out);
		fb_uxb_position(x, text, len, out);
		return;
	case FB_UCI_G_GO:
		fb_uci_parse_go(text, len, &x->go);
		fb_uxb_lifecycle(x, FB_UXB_EV_GO, 0, out);
		return;
	case FB_UCI_G_STOP:
		fb_uxb_lifecycle(x, FB_UXB_EV_STOP, 0, out);
		return;
	case FB_UCI_G_PONDERHIT:
		fb_uxb_lifecycle(x, FB_UXB_EV_PONDERHIT, 0, out);
		return;
	case FB_UCI_G_QUIT:
		fb_proto_engine(out, "quit");
		return;
	case FB_UCI_G_DEBUG:
	case FB_UCI_G_REGISTER:
		fb_proto_report(out, FB_LOG_DEBUG,
				"'%.*s': nothing to do for an XBoard engine",
				(int)len, text);
		return;
	case FB_UCI_G_OTHER:
		if (start < len)
			fb_proto_report(out, FB_LOG_WARN,
					"'%.*s' is no UCI command fenbridge "
					"knows: not passed to the XBoard "
					"engine",
					(int)len, text);
		return;
	}
}

void
fb_uxb_held_line(void *ctx, const char *text, size_t len,
		 const struct fb_sink *out)
{
	uxb_gui_line(ctx, text, len, 0, out);
}

/*
 * GNU Chess 6.2.7 leaves xboard mode (and post, and starts to ponder) on
 * exit from analyze: it sets its flags to a copy it never made. The prompt
 * it then writes before its lines shows it.
 */
static void
prompt(struct uxb *x, const char *text, const struct fb_cecp_line *l,
       const struct fb_sink *out)
{
	struct fb_span p = fb_span_rest(text, l->start, 0);

	fb_proto_report(out, FB_LOG_DEBUG,
			"engine prompt '%.*s' taken off its line", (int)p.len,
			text + p.off);
	if (fb_uxb_ready(x) && !x->restored) {
		fb_proto_report(out, FB_LOG_INFO,
				"the engine left xboard mode (GNU Chess does "
				"after analyze): xboard, post and easy again");
		fb_proto_engine(out, "xboard");
		fb_proto_engine(out, "post");
		fb_proto_engine(out, "easy");
		x->restored = true;
	}
}

static void
uxb_engine_line(void *state, const char *text, size_t len, size_t term,
		const struct fb_sink *out)
{
	struct uxb *x = state;
	struct fb_cecp_line l;
	long long num;

	(void)term;
	fb_cecp_parse_engine(text, len, &l);
	/* Only a feature line ends the nudging: GNU Chess may print its
	 * banner and refuse the probe's `uci`, then hang again before its
	 * features (CI: twice). */
	if (l.kind == FB_CECP_E_FEATURE)
		fb_uxb_lifecycle(x, FB_UXB_EV_HEARD, 0, out);
	else if (x->state == FB_UXB_HELLO && x->nudges > 0)
		x->spoke = true; /* an answer to a nudge: awake */
	if (l.prompt)
		prompt(x, text, &l, out);
	switch (l.kind) {
	case FB_CECP_E_FEATURE:
		fb_uxb_features(x, text + l.start, len - l.start, out);
		return;
	case FB_CECP_E_PONG:
		if (fb_cecp_parse_number(text, l.arg, &num) && num > 0 &&
		    num <= (long long)x->ping_sent &&
		    num > (long long)x->pong_seen) {
			x->pong_seen = (unsigned)num;
			fb_proto_gui(out, "readyok");
		}
		return;
	case FB_CECP_E_MOVE:
		fb_uxb_engine_move(x, text, len, &l, out);
		return;
	case FB_CECP_E_THINKING:
		fb_uxb_engine_thinking(x, text, &l, out);
		return;
	case FB_CECP_E_RESULT:
	case FB_CECP_E_RESIGN:
		fb_uxb_engine_result(x, text + l.word.off, len - l.word.off,
				     out);
		return;
	case FB_CECP_E_DRAW:
		fb_proto_say(out, &fb_protocol_uci, FB_SAY_NOTE,
			     "the engine offers a "
			     "draw");
		return;
	case FB_CECP_E_TELL:
		fb_proto_gui(out, "info string %.*s", (int)(len - l.arg.off),
			     text + l.arg.off);
		return;
	case FB_CECP_E_ERROR:
	case FB_CECP_E_ILLEGAL:
	case FB_CECP_E_INVALID:
		fb_uxb_engine_error(x, text, len, &l, out);
		return;
	case FB_CECP_E_SETUP:
	case FB_CECP_E_OTHER:
		if (l.word.len > 0)
			fb_proto_report(out, FB_LOG_DEBUG,
					"engine line not passed to the GUI: "
					"%.*s",
					(int)(len - fb_uxb_shown(&l)),
					text + fb_uxb_shown(&l));
		return;
	}
}

/* After the GUI's EOF, what a UCI engine alone would end: an analysis or
 * a ponder search gives its move (a UCI engine quits at EOF with its
 * bestmove); a timed search runs to its move. */
static void
uxb_gui_eof(void *state, const struct fb_sink *out)
{
	struct uxb *x = state;

	if (x->state == FB_UXB_ANALYZING || x->state == FB_UXB_PONDERING)
		fb_uxb_lifecycle(x, FB_UXB_EV_STOP, 0, out);
}

/* The engine owes the GUI its handshake (uciok), a readyok, or a move. */
static bool
uxb_busy(const void *state)
{
	const struct uxb *x = state;

	return x->state == FB_UXB_HELLO || x->state == FB_UXB_FEATURES ||
	       x->go_held || fb_uxb_thinking(x) ||
	       x->state == FB_UXB_STOPPING || x->pong_seen < x->ping_sent;
}

const struct fb_pair fb_pair_uci_xboard = {
	.gui = &fb_protocol_uci,
	.engine = &fb_protocol_xboard,
	.state_new = uxb_new,
	.state_free = uxb_free,
	.gui_line = uxb_gui_line,
	.engine_line = uxb_engine_line,
	.game = uxb_game,
	.variant = uxb_variant,
	.timeout = uxb_timeout,
	.gui_eof = uxb_gui_eof,
	.busy = uxb_busy,
};
