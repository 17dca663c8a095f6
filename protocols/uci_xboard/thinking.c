/* SPDX-License-Identifier: MIT */
/*
 * The UCI GUI / XBoard engine pair's engine output, as the codec read it:
 * thinking output -> `info depth score time nodes pv` (a SAN pv read with
 * movegen, castling in the GUI's notation, cut at a move to fit a line),
 * `move M` -> `bestmove M` (checked legal; GNU Chess's second
 * announcement of the same move is dropped), resign and result claims,
 * and the engine's Error / Illegal move / Invalid move lines.
 *
 * No I/O in this file.
 */
#include <stdio.h>
#include <string.h>

#include "fenbridge/movegen.h"
#include "uci_xboard.h"

/* CECP mate scores: 100000 + N for mate in N moves, -100000 - N. */
#define MATE_SCORE 100000

/*
 * Reads the engine's pv text[pv] on a copy of its board and writes it in
 * coordinates (castling in the GUI's notation) to out. Move numbers ("12."
 * "12...") are skipped; the pv ends at the first token that is not a legal
 * move, or at the last that fits. Keeps the first two moves for bestmove
 * and ponder (an empty pv keeps the last one).
 */
static void
convert_pv(struct uxb *x, const char *text, struct fb_span pv, char *out,
	   size_t cap)
{
	struct fb_game g = x->game;
	enum fb_castle_notation to = fb_policy_gui_castling(&x->pol);
	size_t pos = pv.off, end = pv.off + pv.len, start, n, k = 0, ply = 0;

	while ((n = fb_proto_token(text, end, &pos, &start)) > 0) {
		struct fb_move m;
		char mv[24];
		int ml;
		if (((text[start] >= '0' && text[start] <= '9') ||
		     text[start] == '.') &&
		    text[start + n - 1] == '.')
			continue; /* "12." "12..." "..." */
		if (fb_moves_parse(&g, text + start, n, &m) < 0 ||
		    (ml = fb_moves_print_coord(&g, &m, to, mv, sizeof mv)) <
			    0 ||
		    k + (size_t)ml + 2 > cap)
			break;
		if (ply < 2)
			snprintf(x->pv[ply], sizeof x->pv[ply], "%s", mv);
		out[k++] = ' ';
		memcpy(out + k, mv, (size_t)ml);
		k += (size_t)ml;
		ply++;
		fb_game_play(&g, &m);
	}
	out[k] = '\0';
	if (ply == 1)
		x->pv[1][0] = '\0'; /* no ponder move from an older pv */
}

void
fb_uxb_engine_thinking(struct uxb *x, const char *text,
		       const struct fb_cecp_line *l, const struct fb_sink *out)
{
	const struct fb_cecp_thinking *t = &l->think;
	char pv[FB_OWN_LINE_MAX], head[160], score[32];
	int hn;

	if (!fb_uxb_searching(x))
		return; /* the thinking of a finished search */
	if (t->score >= MATE_SCORE)
		snprintf(score, sizeof score, "mate %lld",
			 t->score - MATE_SCORE);
	else if (t->score <= -MATE_SCORE)
		snprintf(score, sizeof score, "mate -%lld",
			 -t->score - MATE_SCORE);
	else
		snprintf(score, sizeof score, "cp %lld", t->score);
	/* --normalize: an XBoard engine shows one line (lichess's external
	 * engine wants it said). */
	hn = snprintf(head, sizeof head,
		      "info%s depth %lld score %s time %lld nodes %lld",
		      x->opt->normalize ? " multipv 1" : "", t->ply, score,
		      t->time_cs * 10, t->nodes);
	if (hn < 0 || (size_t)hn >= sizeof head)
		return; /* cannot happen: the codec clamps the numbers */
	/* The pv ends at the last whole move that fits one line of
	 * fenbridge's own (a 240-ply pv does not). */
	convert_pv(x, text, t->pv, pv, FB_OWN_LINE_MAX - (size_t)hn - 3);
	fb_proto_gui(out, "%s%s%s", head, pv[0] != '\0' ? " pv" : "", pv);
	fb_uxb_lifecycle(x, FB_UXB_EV_PV, t->ply, out);
}

/*
 * The engine's move (`move M`, `My move is: M`, `N. ... M`). One search,
 * one move: the same move announced again in another
 * form (GNU Chess writes "1. ... g1f3", then "My move is : g1f3", which
 * may come after the GUI's next go) is dropped.
 */
void
fb_uxb_engine_move(struct uxb *x, const char *line, size_t len,
		   const struct fb_cecp_line *l, const struct fb_sink *out)
{
	const char *text = line + fb_uxb_shown(l), *mt = line + l->arg.off;
	size_t n = l->arg.len;
	struct fb_move m;
	char mv[24];
	int k = -1;

	if (x->echo[0] != '\0' && l->form != x->echo_form &&
	    fb_proto_is(mt, 0, n, x->echo)) {
		x->echo[0] = '\0';
		fb_proto_report(out, FB_LOG_DEBUG,
				"'%.*s': the move the engine just played, "
				"announced again",
				(int)(len - fb_uxb_shown(l)), text);
		return;
	}
	if (!fb_uxb_thinking(x)) {
		fb_proto_report(out, FB_LOG_WARN,
				"engine move '%.*s' when it was not asked to "
				"move: not passed on",
				(int)(len - fb_uxb_shown(l)), text);
		return;
	}
	fb_uxb_lifecycle(x, FB_UXB_EV_MOVED, 0, out);
	snprintf(x->echo, sizeof x->echo, "%.*s", (int)n, mt);
	x->echo_form = l->form;
	if (fb_moves_parse(&x->game, mt, n, &m) == 0 &&
	    fb_moves_is_legal(&x->game, &m))
		k = fb_moves_print_coord(&x->game, &m,
					 fb_policy_gui_castling(&x->pol), mv,
					 sizeof mv);
	if (k < 0) {
		fb_proto_report(out, FB_LOG_WARN,
				"engine move '%.*s' is not legal here", (int)n,
				mt);
		fb_proto_say(out, &fb_protocol_uci, FB_SAY_ERROR,
			     "the engine played "
			     "'%.*s', which is no legal move here",
			     (int)n, mt);
		fb_proto_gui(out, "bestmove 0000");
		x->have_valid = false;
		return;
	}
	fb_uxb_played(x, &m, mv, (size_t)k);
	if (strcmp(x->pv[0], mv) == 0 && x->pv[1][0] != '\0')
		fb_proto_gui(out, "bestmove %s ponder %s", mv, x->pv[1]);
	else
		fb_proto_gui(out, "bestmove %s", mv);
}

/*
 * resign, 1-0, 0-1, 1/2-1/2 {...} (text[0..len) from the word on): UCI has
 * no word for them. The GUI is told in an info string; when the engine was
 * asked to move and gives up instead, it gets bestmove 0000 (no move: a
 * UCI GUI scores that as the engine's loss, which is what a resignation
 * is).
 */
void
fb_uxb_engine_result(struct uxb *x, const char *text, size_t len,
		     const struct fb_sink *out)
{
	fb_proto_say(out, &fb_protocol_uci, FB_SAY_NOTE,
		     "the engine says '%.*s'", (int)len, text);
	if (fb_uxb_thinking(x)) {
		fb_uxb_lifecycle(x, FB_UXB_EV_MOVED, 0, out);
		fb_proto_gui(out, "bestmove 0000");
		x->have_valid = false;
	}
}

/* An Error about post or easy, which fenbridge sends on its own
 * (Fairy-Stockfish does not know post), about the empty line of a nudge,
 * or about ? (Fairy-Max 5.0b does not know it: it answers after its
 * move, and from then on gets no ? at a go movetime's deadline). */
static bool
own_optional_error(struct uxb *x, const char *text,
		   const struct fb_cecp_line *l)
{
	struct fb_span w = l->arg; /* the last word */

	if (l->kind != FB_CECP_E_ERROR || w.off + w.len - l->start <= 5)
		return false;
	if (fb_span_is(text, w, "?")) {
		x->no_movenow = true;
		return true;
	}
	return fb_span_is(text, w, "post") || fb_span_is(text, w, "easy") ||
	       (w.len == 0 && text[w.off - 1] == ':' && x->nudges > 0);
}

/* Error, Illegal move, Invalid move. What is shown of the line starts
 * after any prompt. */
void
fb_uxb_engine_error(struct uxb *x, const char *line, size_t all,
		    const struct fb_cecp_line *l, const struct fb_sink *out)
{
	const char *text = line + fb_uxb_shown(l);
	size_t len = all - fb_uxb_shown(l);

	/* "Invalid move: sd 3" (GNU Chess, whose depth command is `depth`),
	 * "Error (unknown command): sd 3": the engine has no sd. */
	if (fb_cecp_rejects(line, l, "sd")) {
		fb_proto_report(out, x->no_sd ? FB_LOG_DEBUG : FB_LOG_INFO,
				"'%.*s': the engine has no sd; a go depth "
				"ends when its thinking output reaches the "
				"depth",
				(int)len, text);
		x->no_sd = true;
		x->depth_set = false;
	} else if (own_optional_error(x, line, l)) {
		fb_proto_report(out, FB_LOG_INFO,
				"'%.*s' kept from the GUI: the engine does not "
				"know an optional command of fenbridge's own",
				(int)len, text);
	} else if (l->kind == FB_CECP_E_INVALID &&
		   !fb_cecp_looks_like_move(line,
					    fb_span_first(line, l->rejected))) {
		/* GNU Chess's "Invalid move: " for a command it does not
		 * know, not for a move it does not take */
		fb_proto_report(out, FB_LOG_DEBUG,
				"engine line not passed to the GUI: %.*s",
				(int)len, text);
	} else {
		fb_proto_report(out, FB_LOG_WARN, "engine: %.*s", (int)len,
				text);
		fb_proto_say(out, &fb_protocol_uci, FB_SAY_NOTE,
			     "the engine says "
			     "'%.*s'",
			     (int)len, text);
		if (l->kind != FB_CECP_E_ERROR)
			x->have_valid = false; /* it did not take a move */
	}
}
