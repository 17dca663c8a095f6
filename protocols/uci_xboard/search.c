/* SPDX-License-Identifier: MIT */
/*
 * The UCI GUI / XBoard engine pair's search and clocks: a UCI `go` (read
 * by the codec) as CECP limits. Clocks -> `level`, `time`, `otim`;
 * `movetime` -> `st` (whole seconds, rounded up) and `?` at the GUI's
 * deadline; `depth` -> `sd` (or `?` when the thinking output reaches it,
 * for an engine that rejects sd); `nodes` -> `nps` + `st 1`; `infinite`
 * and `ponder` -> `analyze`, left with `exit`. The lifecycle (pair.c)
 * decides when each runs.
 *
 * No I/O in this file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenbridge/movegen.h"
#include "uci_xboard.h"

/* A go movetime this long goes as st alone (a second is little of it). */
#define DEADLINE_MAX_MS 60000

/* Sends the time control when it differs from the one in force. */
static void
control(struct uxb *x, const char *line, const struct fb_sink *out)
{
	if (strcmp(x->control, line) == 0)
		return;
	snprintf(x->control, sizeof x->control, "%s", line);
	fb_proto_engine(out, "%s", line);
}

/*
 * Clocks -> `level MPS BASE INC` + `time` + `otim`. The level is sent when
 * its moves per session or increment change (CECP engines count the moves
 * of a session themselves; `time` then says what is left), with the
 * engine's clock as BASE. CECP times are in centiseconds, INC in seconds.
 */
static void
clocks(struct uxb *x, const struct fb_uci_go *g, const struct fb_sink *out)
{
	long long mine = x->game.side == FB_WHITE ? g->wtime : g->btime;
	long long theirs = x->game.side == FB_WHITE ? g->btime : g->wtime;
	long long inc = x->game.side == FB_WHITE ? g->winc : g->binc;
	long long s = (mine + 500) / 1000;
	char line[64];

	if (s < 1)
		s = 1;
	if (x->control[0] == '\0' || strncmp(x->control, "level", 5) != 0 ||
	    atoll(x->control + 6) != g->movestogo ||
	    atoll(strrchr(x->control, ' ') + 1) != (inc + 500) / 1000) {
		if (s % 60 == 0)
			snprintf(line, sizeof line, "level %lld %lld %lld",
				 g->movestogo, s / 60, (inc + 500) / 1000);
		else
			snprintf(line, sizeof line,
				 "level %lld %lld:%02lld %lld", g->movestogo,
				 s / 60, s % 60, (inc + 500) / 1000);
		control(x, line, out);
	}
	fb_proto_engine(out, "time %lld", mine / 10 > 0 ? mine / 10 : 1);
	if (theirs >= 0)
		fb_proto_engine(out, "otim %lld",
				theirs / 10 > 0 ? theirs / 10 : 1);
}

void
fb_uxb_analyze(struct uxb *x, const struct fb_sink *out)
{
	if (!x->f.analyze)
		fb_proto_say(out, &fb_protocol_uci, FB_SAY_WARNING,
			     "the engine has no "
			     "analyze mode: it waits for stop");
	else
		fb_proto_engine(out, "analyze");
}

enum fb_uxb_state
fb_uxb_search(struct uxb *x, const struct fb_uci_go *g, unsigned *deadline_ms,
	      const struct fb_sink *out)
{
	char line[64];
	long long deadline = 0;

	/* The codec's span of a searchmoves with no move is empty but
	 * starts after the keyword. */
	if (g->searchmoves.off > 0)
		fb_proto_say(out, &fb_protocol_uci, FB_SAY_WARNING,
			     "searchmoves has no "
			     "XBoard equivalent; all moves are searched");
	x->depth_goal = g->depth > 0  ? g->depth
			: g->mate > 0 ? 2 * g->mate - 1
				      : 0;
	if (x->depth_goal > 0 && !x->no_sd) {
		fb_proto_engine(out, "sd %lld", x->depth_goal);
		x->depth_set = true;
	} else if (x->depth_set) {
		/* CECP's sd lasts until new: lifted by a depth no timed
		 * search reaches. */
		fb_proto_engine(out, "sd %d", FB_CECP_SD_UNLIMITED);
		x->depth_set = false;
	}
	if (g->movetime >= 0) {
		/* CECP st is whole seconds: rounded up, and the GUI's
		 * deadline kept with `?` (GNU Chess thought 1 s for a go
		 * movetime 100 that went as st 1 alone); rounded down (never
		 * 0) for an engine without `?`, or where a second is little. */
		bool exact = !x->no_movenow && g->movetime < DEADLINE_MAX_MS;
		long long st = exact ? (g->movetime + 999) / 1000
				     : g->movetime / 1000;
		snprintf(line, sizeof line, "st %lld", st > 1 ? st : 1);
		control(x, line, out);
		if (exact && (g->movetime % 1000 != 0 || g->movetime == 0))
			deadline = g->movetime > 0 ? g->movetime : 1;
	} else if (g->nodes > 0 && x->f.nps) {
		/* nps N makes N nodes one second of the engine's clock. */
		fb_proto_engine(out, "nps %lld", g->nodes);
		control(x, "st 1", out);
	} else if (g->wtime >= 0 || g->btime >= 0) {
		clocks(x, g, out);
	} else if (g->depth > 0 || g->mate > 0) {
		control(x, "level 0 60 0", out); /* the depth decides */
	} else {
		if (g->nodes > 0)
			fb_proto_say(out, &fb_protocol_uci, FB_SAY_WARNING,
				     "the engine "
				     "has no nps: go nodes is searched as "
				     "go infinite");
		fb_uxb_analyze(x, out);
		return FB_UXB_ANALYZING;
	}
	x->analysed = false;
	fb_proto_engine(out, "go");
	*deadline_ms = (unsigned)deadline;
	return deadline > 0 ? FB_UXB_TIMED : FB_UXB_THINKING;
}

void
fb_uxb_end_analysis(struct uxb *x, const struct fb_sink *out)
{
	if (!x->f.analyze)
		return;
	fb_proto_engine(out, "exit");
	fb_proto_engine(out, "force");
	x->analysed = !x->f.setboard; /* see send_moves in game.c */
	x->restored = false;
}

void
fb_uxb_bestmove_from_pv(struct uxb *x, const struct fb_sink *out)
{
	if (x->pv[0][0] == '\0')
		fb_proto_gui(out, "bestmove 0000");
	else if (x->pv[1][0] == '\0')
		fb_proto_gui(out, "bestmove %s", x->pv[0]);
	else
		fb_proto_gui(out, "bestmove %s ponder %s", x->pv[0], x->pv[1]);
}

/*
 * The engine showed no move in the analysis a `stop` ended (an engine
 * whose `analyze` did not start: Sjaak II 1.4.1 skips it when an
 * uninitialised field happens to be non-zero, see doc/protocols.md). UCI
 * wants a bestmove; `0000` is scored as a loss by some GUIs, so the GUI gets a
 * legal move of fenbridge's choosing, and is told it is not the engine's.
 */
void
fb_uxb_no_pv_bestmove(struct uxb *x, const struct fb_sink *out)
{
	struct fb_move moves[FB_MOVES_MAX];
	char mv[16];
	int k = -1;

	if (fb_moves_legal(&x->game, moves) > 0)
		k = fb_moves_print_coord(&x->game, &moves[0],
					 fb_policy_gui_castling(&x->pol), mv,
					 sizeof mv);
	if (k <= 0) {
		fb_proto_say(out, &fb_protocol_uci, FB_SAY_ERROR,
			     "the engine showed no "
			     "move in its analysis");
		fb_proto_gui(out, "bestmove 0000");
		return;
	}
	fb_proto_say(out, &fb_protocol_uci, FB_SAY_WARNING,
		     "the engine showed no move in "
		     "its analysis; %s is fenbridge's pick of a legal "
		     "move, not the engine's",
		     mv);
	fb_proto_gui(out, "bestmove %s", mv);
}
