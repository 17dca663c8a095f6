/* SPDX-License-Identifier: MIT */
/*
 * The XBoard-GUI / UCI-engine pair's searches (xboard_uci.h): CECP's
 * clocks (level, st, sd, time, otim) as UCI `go` lines, the engine's
 * bestmove as the GUI's `move`, pondering, and ping.
 *
 * A bestmove is checked (fb_xbu_legal: legal in the game) before it reaches the GUI as
 * `move`; an illegal one is told to the user with tellusererror. When the
 * engine's move mates or stalemates, the result is claimed as XBoard
 * expects of an engine.
 *
 * Pondering (`hard`): after the engine's move with `bestmove X ponder P`,
 * the engine gets the game with P played and `go ponder` (UCI); when the
 * GUI's move is P it gets `ponderhit` and that search gives the engine's
 * move; another move stops it (its bestmove is stale) and a search starts
 * on the real position. Thinking output while pondering is dropped: its pv
 * starts after a move the GUI has not seen.
 *
 * No I/O in this file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenbridge/movegen.h"
#include "xboard_uci.h"

/* The clock of the side to move and the other, in ms: time is always the
 * engine's own clock, otim its opponent's (CECP `time`). */
static void
add_clocks(const struct xbu *x, char *go, size_t cap)
{
	long long mine = x->time_cs >= 0 ? x->time_cs * 10 : x->base_ms;
	long long theirs = x->otim_cs >= 0 ? x->otim_cs * 10 : x->base_ms;
	bool white = x->engine_side == FB_WHITE;
	size_t n = strlen(go);

	if (mine < 1)
		mine = 1; /* 0 means no time to UCI engines; some crash */
	if (theirs < 1)
		theirs = 1;
	n += (size_t)snprintf(go + n, cap - n,
			      " wtime %lld btime %lld winc %lld binc %lld",
			      white ? mine : theirs, white ? theirs : mine,
			      x->inc_ms, x->inc_ms);
	if (x->mps > 0 && n < cap) {
		/* the moves the side to move made since the start */
		size_t made = x->nmoves / 2;
		snprintf(go + n, cap - n, " movestogo %d",
			 x->mps - (int)(made % (size_t)x->mps));
	}
}

/* The go line for the engine's turn (or, pondering, the turn after the
 * pondered move: the engine's clocks are the same). */
static void
send_go(struct xbu *x, const char *go0, const struct fb_sink *out)
{
	char go[160];

	snprintf(go, sizeof go, "%s", go0);
	if (x->st_ms > 0)
		snprintf(go + strlen(go), sizeof go - strlen(go),
			 " movetime %lld", x->st_ms);
	else if (x->level || x->time_cs >= 0)
		add_clocks(x, go, sizeof go);
	else if (x->sd == 0) {
		snprintf(go + strlen(go), sizeof go - strlen(go),
			 " movetime 1000");
		fb_proto_report(out,
				x->logged_clock ? FB_LOG_DEBUG : FB_LOG_INFO,
				"go: no level, st or sd from the GUI: the "
				"engine gets 1 s");
		x->logged_clock = true;
	}
	if (x->sd > 0) {
		size_t n = strlen(go);
		snprintf(go + n, sizeof go - n, " depth %d", x->sd);
	}
	fb_proto_engine(out, "%s", go);
}

void
fb_xbu_start_search(struct xbu *x, bool analyze, const struct fb_sink *out)
{
	fb_xbu_sync_variant(x, out);
	fb_xbu_send_position(x, out);
	if (analyze) {
		fb_proto_engine(out, "go infinite");
		return;
	}
	x->engine_side = x->cur.side;
	send_go(x, "go", out);
}

/*
 * After the engine's move: ponders on its expected reply p, when the GUI
 * allows it (hard), the engine plays on and p is a legal move that does
 * not end the game. The engine's line gets p for that search only.
 */
static void
start_ponder(struct xbu *x, const char *text, struct fb_span p,
	     const struct fb_sink *out)
{
	struct fb_game saved = x->cur, after;
	struct fb_xbu_mark mark;
	struct fb_move m;

	if (!x->hard || x->state != FB_XBU_WAITING || x->over || p.len == 0)
		return;
	if (fb_game_parse_move(&x->cur, text + p.off, p.len, &m) < 0 ||
	    !fb_xbu_legal(x, &m)) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"no pondering on '%.*s': not a legal move",
				(int)p.len, text + p.off);
		return;
	}
	after = x->cur;
	fb_game_play(&after, &m);
	if (fb_moves_end(&after) != FB_END_NONE) {
		/* nothing to ponder: that reply ends the game */
		fb_proto_report(out, FB_LOG_DEBUG,
				"no pondering on '%.*s': it ends the game",
				(int)p.len, text + p.off);
		return;
	}
	fb_xbu_sync_variant(x, out);
	fb_xbu_mark(x, &mark, out);
	if (!fb_xbu_game_push(x, &m)) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"no pondering on '%.*s': out of memory",
				(int)p.len, text + p.off);
		return;
	}
	fb_xbu_send_position(x, out);
	send_go(x, "go ponder", out); /* movestogo counts the reply */
	x->nmoves--;                  /* the GUI has not played it */
	x->cur = saved;
	fb_xbu_restore(x, &mark);
	x->ponder = m;
	fb_xbu_step(x, FB_XBU_EV_PONDER, NULL, 0, out);
}

/* The engine's move ended the game: claim the result, as XBoard expects
 * of an engine (CECP "result" / "1-0 {White mates}"). */
static void
claim(struct xbu *x, enum fb_game_end e, const struct fb_sink *out)
{
	x->over = true;
	if (e == FB_END_STALEMATE)
		fb_proto_gui(out, "1/2-1/2 {Stalemate}");
	else if (x->cur.side == FB_BLACK)
		fb_proto_gui(out, "1-0 {White mates}");
	else
		fb_proto_gui(out, "0-1 {Black mates}");
}

void
fb_xbu_bestmove(struct xbu *x, const char *text, size_t len,
		const struct fb_sink *out)
{
	struct fb_uci_bestmove b;
	struct fb_move m;
	enum fb_game_end e;
	char mv[8];
	int k;

	if (!fb_xbu_step(x, FB_XBU_EV_BESTMOVE, text, len, out))
		return;
	if (fb_uci_parse_bestmove(text, len, &b) < 0)
		b.move = (struct fb_span){len, 0};
	/* A legal move: the game was not over. */
	if (fb_game_parse_move(&x->cur, text + b.move.off, b.move.len, &m) ==
		    0 &&
	    fb_xbu_legal(x, &m)) {
		k = fb_xbu_print_move(&x->cur, &m,
				      fb_policy_gui_castling(&x->pol), mv);
		if (!fb_xbu_game_push(x, &m)) {
			fb_proto_report(out, FB_LOG_ERROR, "out of memory");
			return;
		}
		fb_proto_gui(out, "move %.*s", k, mv);
		if ((e = fb_xbu_end(x)) != FB_END_NONE) {
			claim(x, e, out);
			return;
		}
		start_ponder(x, text, b.ponder, out);
		return;
	}
	if ((e = fb_xbu_end(x)) != FB_END_NONE) {
		/* `bestmove (none)` or 0000 on a mate or stalemate the GUI
		 * did not see as the end (after setboard): say the result;
		 * not when it was said or the GUI's move made it. */
		fb_proto_report(out, FB_LOG_INFO, "%.*s: the game is over",
				(int)len, text);
		if (!x->over)
			claim(x, e, out);
		return;
	}
	fb_proto_report(out, FB_LOG_ERROR, "the engine's move is illegal: %.*s",
			(int)len, text);
	fb_proto_say(out, &fb_protocol_xboard, FB_SAY_ERROR,
		     "the engine played an illegal "
		     "move (%.*s); it is not passed on",
		     (int)b.move.len, text + b.move.off);
}

/* ---- the GUI's clocks ---- */

long long
fb_xbu_number(const char *text, size_t start, size_t n, bool *ok)
{
	long long v = 0;
	size_t i = 0;
	bool neg = false;

	*ok = n > 0;
	if (n > 0 && (text[start] == '-' || text[start] == '+')) {
		neg = text[start] == '-';
		i = 1;
		*ok = n > 1;
	}
	for (; i < n; i++) {
		char c = text[start + i];
		if (c < '0' || c > '9' || v > 100000000000LL) {
			*ok = false;
			return 0;
		}
		v = v * 10 + (c - '0');
	}
	return neg ? -v : v;
}

long long
fb_xbu_seconds_ms(const char *text, size_t start, size_t n)
{
	char tmp[32];
	double v;

	if (n >= sizeof tmp)
		return 0;
	memcpy(tmp, text + start, n);
	tmp[n] = '\0';
	v = strtod(tmp, NULL);
	if (!(v >= 0 && v <= 366 * 86400.0))
		return 0;
	return (long long)(v * 1000.0 + 0.5);
}

void
fb_xbu_gui_level(struct xbu *x, const char *text, size_t len,
		 struct fb_span arg, const struct fb_sink *out)
{
	size_t s[3], n[3], pos = arg.off;
	bool ok;
	const char *colon;
	long long mps;

	for (int i = 0; i < 3; i++)
		n[i] = fb_proto_token(text, len, &pos, &s[i]);
	mps = fb_xbu_number(text, s[0], n[0], &ok);
	if (!ok || n[1] == 0 || n[2] == 0 || mps < 0 || mps > 10000) {
		x->mps = 0;
		fb_proto_report(out, FB_LOG_WARN, "level: not understood");
		fb_proto_gui(out, "Error (bad level): %.*s", (int)len, text);
		return;
	}
	x->mps = (int)mps;
	colon = memchr(text + s[1], ':', n[1]);
	if (colon != NULL) {
		size_t k = (size_t)(colon - (text + s[1]));
		x->base_ms =
			fb_xbu_number(text, s[1], k, &ok) * 60000 +
			fb_xbu_seconds_ms(text, s[1] + k + 1, n[1] - k - 1);
	} else {
		x->base_ms = fb_xbu_seconds_ms(text, s[1], n[1]) * 60;
	}
	x->inc_ms = fb_xbu_seconds_ms(text, s[2], n[2]);
	x->level = true;
	x->st_ms = 0;
}

void
fb_xbu_gui_clock(long long *cs, const char *text, size_t len,
		 struct fb_span arg, const struct fb_sink *out)
{
	size_t pos = arg.off, start,
	       n = fb_proto_token(text, len, &pos, &start);
	bool ok;
	long long v = fb_xbu_number(text, start, n, &ok);

	if (!ok) {
		fb_proto_report(out, FB_LOG_WARN,
				"'%.*s': not a number of centiseconds; the "
				"clock stays as it was",
				(int)len, text);
		return;
	}
	*cs = v;
}

/* ---- ping ---- */

void
fb_xbu_ping(struct xbu *x, const char *text, struct fb_span arg,
	    const struct fb_sink *out)
{
	size_t pos = arg.off, start;
	size_t n = fb_proto_token(text, arg.off + arg.len, &pos, &start);
	bool ok;
	long long v = fb_xbu_number(text, start, n, &ok);

	if (x->npings == sizeof x->pings / sizeof x->pings[0]) {
		/* A GUI does not have 16 pings out; answer the oldest. */
		fb_proto_gui(out, "pong %lld", x->pings[0]);
		memmove(x->pings, x->pings + 1,
			--x->npings * sizeof x->pings[0]);
	}
	/* pong only after everything before it: the engine's readyok. */
	x->pings[x->npings++] = ok ? v : 0;
	fb_proto_engine(out, "isready");
}

void
fb_xbu_readyok(struct xbu *x, const struct fb_sink *out)
{
	if (x->npings == 0) {
		fb_proto_report(out, FB_LOG_DEBUG, "readyok: no ping waits");
		return;
	}
	fb_proto_gui(out, "pong %lld", x->pings[0]);
	memmove(x->pings, x->pings + 1, --x->npings * sizeof x->pings[0]);
}
