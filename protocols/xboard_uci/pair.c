/* SPDX-License-Identifier: MIT */
/*
 * An XBoard (CECP v2) GUI with a UCI engine: what PolyGlot does (issue
 * 12), as state plus mapping (xboard_uci.h). This file is the pair's
 * descriptor and its two line handlers: each GUI line is read once by
 * fb_cecp_parse_gui and each engine line by the UCI codec, then mapped to
 * the event it is.
 *
 * The handshake: the GUI's first line (XBoard's `xboard`) sends `uci`.
 * Until uciok (or FB_XBU_UCIOK_MS) the GUI's other lines wait here, as CECP
 * GUIs wait for `feature done=1` themselves: a UCI engine is then told the
 * game only once its options (UCI_Chess960, UCI_Variant) are known.
 *
 * No I/O in this file.
 */
#include <stdlib.h>
#include <string.h>

#include "xboard_uci.h"

static void
undo(struct xbu *x, size_t plies, const struct fb_sink *out)
{
	fb_xbu_step(x, FB_XBU_EV_STOP, NULL, 0, out);
	if (plies > x->nmoves) {
		fb_proto_report(out, FB_LOG_WARN,
				"undo: no move to take back; ignored");
		return;
	}
	fb_xbu_game_undo(x, plies);
	fb_xbu_step(x, FB_XBU_EV_UNDONE, NULL, 0, out);
}

static void
egtpath(struct xbu *x, const char *text, size_t len, struct fb_span arg,
	const struct fb_sink *out)
{
	struct fb_span kind = fb_span_first(text, arg);

	if (!fb_span_is(text, kind, "syzygy")) {
		fb_proto_report(out, FB_LOG_INFO,
				"egtpath: only syzygy is passed on");
		return;
	}
	fb_xbu_gui_resource(x, "SyzygyPath", x->has_syzygy, text, len,
			    fb_span_rest(text, len, kind.off + kind.len), out);
}

/* Commands XBoard sends that need nothing from a UCI engine. */
static bool
ignored(const char *text, const struct fb_cecp_command *c)
{
	switch (c->kind) {
	case FB_CECP_G_ACCEPTED:
	case FB_CECP_G_REJECTED:
	case FB_CECP_G_RANDOM:
	case FB_CECP_G_COMPUTER:
	case FB_CECP_G_NAME:
	case FB_CECP_G_RATING:
	case FB_CECP_G_ICS:
	case FB_CECP_G_HINT:
	case FB_CECP_G_BK:
	case FB_CECP_G_DRAW:
	case FB_CECP_G_DOT:
	case FB_CECP_G_WHITE:
	case FB_CECP_G_BLACK:
		return true;
	default:
		return fb_span_is(text, c->word, "otherwise");
	}
}

static void
other(struct xbu *x, const char *text, size_t len,
      const struct fb_cecp_command *c, const struct fb_sink *out)
{
	if (c->kind == FB_CECP_G_OTHER &&
	    fb_cecp_looks_like_move(text, c->word)) {
		fb_xbu_gui_move(x, text, c->word, out);
	} else if (ignored(text, c)) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"'%.*s': nothing to do for a UCI engine",
				(int)len, text);
	} else {
		fb_proto_report(out, FB_LOG_WARN, "unknown command '%.*s'",
				(int)len, text);
		fb_proto_gui(out, "Error (unknown command): %.*s",
			     (int)c->word.len, text + c->word.off);
	}
}

/* The game's commands: a new game, the position, moves and takebacks.
 * Returns false for a command of another kind. */
static bool
gui_game(struct xbu *x, const char *text, const struct fb_cecp_command *c,
	 const struct fb_sink *out)
{
	switch (c->kind) {
	case FB_CECP_G_NEW:
		fb_xbu_step(x, FB_XBU_EV_NEW, NULL, 0, out);
		fb_xbu_game_reset(x, fb_variant_normal);
		x->sd = 0;
		x->st_ms = 0;
		x->time_cs = x->otim_cs = -1;
		fb_proto_engine(out, "ucinewgame");
		return true;
	case FB_CECP_G_VARIANT:
		fb_xbu_gui_variant(x, text, c->arg, out);
		return true;
	case FB_CECP_G_SETBOARD:
		fb_xbu_gui_setboard(x, text, c->arg, out);
		return true;
	case FB_CECP_G_USERMOVE:
		fb_xbu_gui_move(x, text, fb_span_first(text, c->arg), out);
		return true;
	case FB_CECP_G_UNDO:
		undo(x, 1, out);
		return true;
	case FB_CECP_G_REMOVE:
		undo(x, 2, out);
		return true;
	default:
		return false;
	}
}

/* The clocks and search limits, and the engine's resources. Returns
 * false for a command of another kind. */
static bool
gui_limit(struct xbu *x, const char *text, size_t len,
	  const struct fb_cecp_command *c, const struct fb_sink *out)
{
	struct fb_span t = fb_span_first(text, c->arg);
	long long d;
	bool ok;

	switch (c->kind) {
	case FB_CECP_G_LEVEL:
		fb_xbu_gui_level(x, text, len, c->arg, out);
		return true;
	case FB_CECP_G_ST:
		x->st_ms = fb_xbu_seconds_ms(text, t.off, t.len);
		return true;
	case FB_CECP_G_SD:
		d = fb_xbu_number(text, t.off, t.len, &ok);
		x->sd = ok && d > 0 && d < 1000 ? (int)d : 0;
		return true;
	case FB_CECP_G_TIME:
		fb_xbu_gui_clock(&x->time_cs, text, len, c->arg, out);
		return true;
	case FB_CECP_G_OTIM:
		fb_xbu_gui_clock(&x->otim_cs, text, len, c->arg, out);
		return true;
	case FB_CECP_G_MEMORY:
		fb_xbu_gui_resource(x, "Hash", x->has_hash, text, len, c->arg,
				    out);
		return true;
	case FB_CECP_G_CORES:
		fb_xbu_gui_resource(x, "Threads", x->has_threads, text, len,
				    c->arg, out);
		return true;
	case FB_CECP_G_EGTPATH:
		egtpath(x, text, len, c->arg, out);
		return true;
	default:
		return false;
	}
}

/* A GUI line once the handshake let it through: the game's commands, the
 * limits, or one that moves the lifecycle or sets how the engine thinks. */
static void
gui_command(struct xbu *x, const char *text, size_t len,
	    const struct fb_cecp_command *c, const struct fb_sink *out)
{
	if (gui_game(x, text, c, out) || gui_limit(x, text, len, c, out))
		return;
	switch (c->kind) {
	case FB_CECP_G_FORCE:
		fb_xbu_step(x, FB_XBU_EV_FORCE, NULL, 0, out);
		break;
	case FB_CECP_G_GO:
		fb_xbu_step(x, FB_XBU_EV_GO, NULL, 0, out);
		break;
	case FB_CECP_G_PLAYOTHER:
		fb_xbu_step(x, FB_XBU_EV_PLAYOTHER, NULL, 0, out);
		break;
	case FB_CECP_G_HARD:
		x->hard = true;
		break;
	case FB_CECP_G_EASY:
		x->hard = false;
		fb_xbu_step(x, FB_XBU_EV_EASY, NULL, 0, out);
		break;
	case FB_CECP_G_RESULT:
		fb_xbu_step(x, FB_XBU_EV_STOP, NULL, 0, out);
		x->over = true;
		break;
	case FB_CECP_G_MOVENOW:
		fb_xbu_step(x, FB_XBU_EV_MOVENOW, NULL, 0, out);
		break;
	case FB_CECP_G_ANALYZE:
		fb_xbu_step(x, FB_XBU_EV_ANALYZE, NULL, 0, out);
		break;
	case FB_CECP_G_EXIT:
		fb_xbu_step(x, FB_XBU_EV_EXIT, NULL, 0, out);
		break;
	case FB_CECP_G_XBOARD:
		break; /* the engine was asked at the first line */
	case FB_CECP_G_PROTOVER:
		if (!x->protover) {
			x->protover = true;
			fb_xbu_features(x, out);
		}
		break;
	case FB_CECP_G_PING:
		fb_xbu_ping(x, text, c->arg, out);
		break;
	case FB_CECP_G_POST:
	case FB_CECP_G_NOPOST:
		x->post = c->kind == FB_CECP_G_POST;
		break;
	case FB_CECP_G_OPTION:
		fb_xbu_gui_option(x, text, c->arg, out);
		break;
	case FB_CECP_G_QUIT:
		fb_xbu_step(x, FB_XBU_EV_STOP, NULL, 0, out);
		fb_proto_engine(out, "quit");
		break;
	default:
		other(x, text, len, c, out);
		break;
	}
}

static void
gui_line(struct xbu *x, const char *text, size_t len,
	 const struct fb_sink *out);

static void
held_line(void *ctx, const char *text, size_t len, const struct fb_sink *out)
{
	gui_line(ctx, text, len, out);
}

/* The handshake is over: the GUI's lines that waited go on, in order. */
static void
release(struct xbu *x, const struct fb_sink *out)
{
	fb_proto_release(&x->held, held_line, x, out);
}

/* A GUI line during the handshake waits for it (CECP GUIs wait for
 * done=1 themselves); one that does not fit (FB_HOLD_MAX, or memory) ends
 * the wait: the lines go on without the engine's options. */
static void
hold(struct xbu *x, const char *text, size_t len, const struct fb_sink *out)
{
	if (fb_proto_hold(&x->held, text, len, FB_HOLD_MAX))
		return;
	fb_proto_report(out, FB_LOG_WARN,
			"the GUI does not wait for the engine's uciok: its "
			"commands go on without it");
	fb_xbu_step(x, FB_XBU_EV_LISTED, NULL, 0, out);
	release(x, out);
	gui_line(x, text, len, out);
}

static void
gui_line(struct xbu *x, const char *text, size_t len, const struct fb_sink *out)
{
	struct fb_cecp_command c;

	fb_cecp_parse_gui(text, len, &c);
	if (c.word.len == 0)
		return; /* an empty line means nothing in CECP */
	if (x->state == FB_XBU_START && c.kind != FB_CECP_G_QUIT)
		fb_xbu_step(x, FB_XBU_EV_OPEN, NULL, 0, out);
	if (x->state == FB_XBU_HELLO) {
		switch (c.kind) {
		case FB_CECP_G_XBOARD:
			return;
		case FB_CECP_G_PROTOVER:
			x->protover = true;
			fb_proto_gui(out, "feature done=0");
			return;
		case FB_CECP_G_QUIT:
			/* the wait ends with the session */
			if (x->held.len > 0) {
				fb_xbu_step(x, FB_XBU_EV_LISTED, NULL, 0, out);
				release(x, out);
			}
			break;
		default:
			hold(x, text, len, out);
			return;
		}
	}
	gui_command(x, text, len, &c, out);
}

static void
fb_xbu_gui_line(void *state, const char *text, size_t len, size_t term,
		const struct fb_sink *out)
{
	(void)term;
	gui_line(state, text, len, out);
}

/* Dispatched on the first token's kind: info lines come by the thousand. */
static void
fb_xbu_engine_line(void *state, const char *text, size_t len, size_t term,
		   const struct fb_sink *out)
{
	struct xbu *x = state;
	size_t start;
	enum fb_uci_engine kind = fb_uci_engine_kind(text, len, &start);

	(void)term;
	if (start < len) {
		text += start; /* no command starts with a blank */
		len -= start;
	}
	switch (kind) {
	case FB_UCI_E_INFO:
		fb_xbu_engine_info(x, text, len, out);
		break;
	case FB_UCI_E_BESTMOVE:
		fb_xbu_bestmove(x, text, len, out);
		break;
	case FB_UCI_E_READYOK:
		fb_xbu_readyok(x, out);
		break;
	case FB_UCI_E_OPTION:
		fb_xbu_engine_option(x, text, len, out);
		break;
	case FB_UCI_E_ID:
		fb_xbu_engine_id(x, text, len, out);
		break;
	case FB_UCI_E_UCIOK:
		fb_xbu_engine_uciok(x, out);
		release(x, out);
		break;
	case FB_UCI_E_OTHER:
		fb_proto_report(out, FB_LOG_INFO,
				"engine line with no XBoard meaning: %.*s",
				(int)len, text);
		break;
	}
}

static void
fb_xbu_timeout(void *state, const struct fb_sink *out)
{
	struct xbu *x = state;

	if (fb_xbu_uciok_timeout(x, out))
		release(x, out);
}

static void *
fb_xbu_new(const struct fb_filter_options *opt)
{
	struct xbu *x = calloc(1, sizeof *x);

	if (x == NULL)
		return NULL;
	x->opt = opt;
	fb_policy_init(&x->pol, opt, &fb_protocol_xboard, &fb_protocol_uci);
	x->state = FB_XBU_START;
	x->time_cs = x->otim_cs = -1;
	x->engine_side = FB_BLACK;
	fb_xbu_game_reset(x, fb_variant_normal);
	return x;
}

static void
fb_xbu_free(void *state)
{
	struct xbu *x = state;

	fb_xbu_options_free(x);
	free(x->held.p);
	free(x->moves);
	free(x->sync.text.p);
	free(x);
}

static const struct fb_game *
fb_xbu_game(const void *state)
{
	const struct xbu *x = state;

	return &x->cur;
}

static const char *
fb_xbu_variant(const void *state)
{
	const struct xbu *x = state;

	return x->pol.variant->name;
}

/* The engine owes the GUI its features (uciok), a pong, or the move it
 * was asked for: after the GUI's EOF the session waits for them. */
static bool
fb_xbu_busy(const void *state)
{
	const struct xbu *x = state;

	return x->state == FB_XBU_HELLO || x->held.len > 0 ||
	       x->state == FB_XBU_THINKING || x->npings > 0;
}

const struct fb_pair fb_pair_xboard_uci = {
	.gui = &fb_protocol_xboard,
	.engine = &fb_protocol_uci,
	.state_new = fb_xbu_new,
	.state_free = fb_xbu_free,
	.gui_line = fb_xbu_gui_line,
	.engine_line = fb_xbu_engine_line,
	.game = fb_xbu_game,
	.variant = fb_xbu_variant,
	.timeout = fb_xbu_timeout,
	.busy = fb_xbu_busy,
};
