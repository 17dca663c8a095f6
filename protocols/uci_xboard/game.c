/* SPDX-License-Identifier: MIT */
/*
 * The UCI GUI / XBoard engine pair's game: the GUI's `position` lines (UCI
 * "position", read by the codec) kept in step with the engine's game. The
 * engine stays in force mode between searches. A line that extends what
 * the engine has sends only the new moves (`usermove M` or M; coordinates,
 * or SAN for san=1; castling in the engine's notation); any other gets
 * `new`, `force`, `variant V`, `setboard FEN` (`edit` for a setboard=0
 * engine) and the moves.
 *
 * An engine that lists `normal` but not `fischerandom` plays Chess960 as
 * normal chess (the policy's FB_PLAY_EMULATED): standard castling rights
 * only, and a castle it cannot read re-anchored: `setboard` of the
 * position after it, or for an engine without setboard `new`, `force`,
 * `a2a3` when Black is to move (CECP's own way: edit keeps the side to
 * move), and `edit`. The time control goes again before the next search.
 *
 * No I/O in this file.
 */
#include <stdlib.h>
#include <string.h>

#include "cecp_edit.h"
#include "fenbridge/movegen.h"
#include "uci_xboard.h"

void
fb_uxb_new_game(struct uxb *x)
{
	x->logged_emulation = x->logged_anchor = x->told_gui = false;
	x->start_len = 0;
}

/* Appends text[0..n) to the engine's line. */
static void
have_add(struct uxb *x, const char *text, size_t n)
{
	fb_proto_buf_add(&x->have, text, n);
	x->have_valid &= !x->have.oom;
}

void
fb_uxb_played(struct uxb *x, const struct fb_move *m, const char *mv, size_t n)
{
	fb_game_play(&x->game, m);
	have_add(x, " ", 1);
	have_add(x, mv, n);
}

/* A move for the engine: `usermove M` or M, in SAN for a san=1 engine;
 * played on its board. Returns false when it cannot be written. */
static bool
send_move(struct uxb *x, const struct fb_move *m, const struct fb_sink *out)
{
	char mv[24];
	int k = x->f.san ? fb_moves_print_san(&x->game, m, mv, sizeof mv)
			 : fb_moves_print_coord(
				   &x->game, m,
				   fb_policy_engine_castling(&x->pol), mv,
				   sizeof mv);

	if (k < 0)
		return false;
	fb_proto_engine(out, "%s%s", x->f.usermove ? "usermove " : "", mv);
	fb_game_play(&x->game, m);
	return true;
}

/* The engine's board for an engine without setboard: CECP edit (see
 * cecp_edit.h), and a warning for what edit cannot say. */
static void
send_edit(struct uxb *x, const struct fb_game *g, const struct fb_sink *out)
{
	const char *lost = fb_cecp_edit_loses(g);
	char buf[FB_CECP_EDIT_MAX];
	int n = fb_cecp_print_edit(g, x->f.usermove, x->f.san, buf, sizeof buf);

	for (int at = 0, end; at < n; at = end + 1) {
		for (end = at; buf[end] != '\n'; end++)
			;
		fb_proto_engine(out, "%.*s", end - at, buf + at);
	}
	if (lost != NULL) {
		fb_proto_report(out, FB_LOG_WARN,
				"the engine has no setboard, and edit cannot "
				"say %s: its position may allow a move the "
				"game does not (such a move is not passed on)",
				lost);
		fb_proto_say(out, &fb_protocol_uci, FB_SAY_WARNING,
			     "the engine has no "
			     "setboard, and edit cannot say %s",
			     lost);
	}
}

/* new, force and the variant: the engine at the start of a game, in
 * force mode, without a time control or depth. */
static void
engine_new(struct uxb *x, const struct fb_sink *out)
{
	const struct fb_variant *v = fb_policy_game_variant(&x->pol);

	fb_proto_engine(out, "new");
	fb_proto_engine(out, "force");
	x->control[0] = '\0'; /* new resets the clocks and sd */
	x->depth_set = false;
	x->pol.engine_variant = x->pol.emulated && fb_policy_base(v) != NULL
					? fb_policy_base(v)
					: v;
	if (x->pol.engine_variant != fb_variant_normal)
		fb_proto_engine(out, "variant %s", x->pol.engine_variant->name);
}

/* Sends the engine's board as a position of its own: setboard (the
 * policy's FEN), or a new game and edit for an engine without setboard
 * (fresh: it has just had new). */
static void
send_board(struct uxb *x, bool fresh, const struct fb_sink *out)
{
	char fen[FB_GAME_FEN_MAX];
	int n;

	if (!x->f.setboard) {
		struct fb_game g = x->game;
		fb_policy_anchor_game(&x->pol, &g);
		if (!fresh)
			engine_new(x, out);
		send_edit(x, &g, out);
		return;
	}
	n = fb_policy_anchor_fen(&x->pol, &x->game, fen, sizeof fen, NULL);
	if (n > 0)
		fb_proto_engine(out, "setboard %.*s", n, fen);
}

/* A new game for the engine: new, force, variant, the start. */
static void
reset_engine(struct uxb *x, bool startpos, const struct fb_sink *out)
{
	const struct fb_variant *v = fb_policy_game_variant(&x->pol);

	x->pol.emulated = fb_policy_emulates(&x->pol, v);
	engine_new(x, out);
	if (x->pol.emulated) {
		fb_proto_report(
			out, x->logged_emulation ? FB_LOG_DEBUG : FB_LOG_INFO,
			"the engine does not list %s: it plays it as "
			"%s in standard notation (a castle it cannot "
			"read goes as the position after it)",
			v->name, v->base);
		x->logged_emulation = true;
	}
	if (!startpos || v->start == NULL)
		send_board(x, true, out);
}

/* The engine's move list is a prefix of the line's: the new moves start
 * at *from. */
static bool
extends(const struct uxb *x, const char *norm, size_t nlen, size_t base,
	size_t *from)
{
	if (!x->have_valid || x->have_base != base || nlen < x->have.len ||
	    memcmp(norm, x->have.p, x->have.len) != 0 ||
	    (nlen > x->have.len && norm[x->have.len] != ' '))
		return false;
	*from = x->have.len;
	return true;
}

/* A castle the engine cannot read (the policy's re-anchoring; castle[0..n)
 * as the GUI wrote it) goes as the position after it. */
static bool
reanchor(struct uxb *x, const struct fb_move *m, const char *castle, size_t n,
	 const struct fb_sink *out)
{
	if (!fb_policy_must_reanchor(&x->pol, &x->game, m))
		return false;
	fb_game_play(&x->game, m);
	fb_policy_tell_anchor(&x->pol, &x->logged_anchor, &x->told_gui,
			      &x->game, castle, n, out);
	send_board(x, false, out);
	/* An engine may take a loaded position for a new game: the time
	 * control goes again before the next search. */
	x->control[0] = '\0';
	return true;
}

/*
 * Reads and sends the GUI's moves from norm[from..]; the engine's line
 * grows by each move it got.
 *
 * After an analysis, an engine without setboard gets the position after
 * the moves instead (edit): Fairy-Max 5.0b checks a move with a search
 * that, from an analysis until its next timed search, stops at any input
 * waiting in its pipe, and then answers "Illegal move" to a legal move
 * that has another line behind it (measured: always, 5 in 5).
 */
static void
send_moves(struct uxb *x, const char *norm, size_t nlen, size_t from,
	   const struct fb_sink *out)
{
	size_t pos = from, start, n;
	unsigned held = 0;

	while ((n = fb_proto_token(norm, nlen, &pos, &start)) > 0) {
		struct fb_move m;
		bool ok;
		if (fb_proto_is(norm, start, n, "moves"))
			continue;
		ok = fb_game_parse_move(&x->game, norm + start, n, &m) == 0;
		if (ok && x->analysed) {
			fb_game_play(&x->game, &m);
			held++;
		} else if (!ok || (!reanchor(x, &m, norm + start, n, out) &&
				   !send_move(x, &m, out))) {
			if (held > 0)
				send_board(x, false, out);
			fb_proto_report(out, FB_LOG_WARN,
					"position: cannot give the engine "
					"the move '%.*s'",
					(int)n, norm + start);
			fb_proto_say(out, &fb_protocol_uci, FB_SAY_ERROR,
				     "cannot give "
				     "the engine the move '%.*s': its "
				     "position stops before it",
				     (int)n, norm + start);
			x->have_valid = false;
			return;
		}
		have_add(x, " ", 1);
		have_add(x, norm + start, n);
	}
	if (held > 0) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"after an analysis: %u moves go as the "
				"position after them",
				held);
		send_board(x, false, out);
	}
}

/* Appends the tokens of text[from..to) to norm at *k, each after one
 * blank. */
static void
add_tokens(char *norm, size_t *k, const char *text, size_t from, size_t to)
{
	size_t pos = from, start, n;

	while ((n = fb_proto_token(text, to, &pos, &start)) > 0) {
		norm[(*k)++] = ' ';
		memcpy(norm + *k, text + start, n);
		*k += n;
	}
}

/*
 * `position startpos|fen FEN [moves M...]` -> the engine's game. The line
 * as the codec read it is normalised ("startpos moves e2e4 ..." or "fen
 * FEN moves ...": one blank between tokens, " moves" there even when the
 * line has none) and compared with what the engine has.
 */
void
fb_uxb_position(struct uxb *x, const char *text, size_t len,
		const struct fb_sink *out)
{
	struct fb_uci_position p;
	struct fb_fen fen;
	char *norm;
	size_t k = 0, base, from = 0;
	bool parsed = fb_uci_parse_position(text, len, &p) == 0;

	if ((norm = malloc(len + 8)) == NULL)
		return;
	if (parsed && p.startpos) {
		memcpy(norm, "startpos", 8);
		k = 8;
	} else if (parsed) {
		memcpy(norm, "fen", 3);
		k = 3;
		add_tokens(norm, &k, text, p.fen.off, p.fen.off + p.fen.len);
	}
	base = k;
	memcpy(norm + k, " moves", 6);
	k += 6;
	if (parsed && p.has_moves)
		add_tokens(norm, &k, text, p.moves, len);
	if (parsed && extends(x, norm, k, base, &from)) {
		send_moves(x, norm, k, from, out);
		free(norm);
		return;
	}
	x->have.len = 0;
	x->have.oom = false;
	x->have_valid = false;
	if (!parsed || base > sizeof x->start || base != x->start_len ||
	    memcmp(norm, x->start, base) != 0) {
		fb_uxb_new_game(x);
		x->start_len = parsed && base <= sizeof x->start ? base : 0;
		memcpy(x->start, norm, x->start_len);
	}
	x->refused = false;
	if (parsed && p.startpos) {
		fb_variant_start(fb_policy_game_variant(&x->pol), &x->game);
	} else if (parsed && fb_proto_parse_fen(norm, 4, base, "position fen",
						out, &fen) == 0) {
		x->game = fen.pos;
		fb_variant_apply(fb_policy_game_variant(&x->pol), &x->game);
		if (fen.pos.width != fb_policy_game_variant(&x->pol)->width) {
			/* Never a board of another width in the engine's
			 * variant (Fairy-Stockfish crashes on a 10x8
			 * setboard in fischerandom). */
			x->refused = true;
			fb_proto_say(out, &fb_protocol_uci, FB_SAY_WARNING,
				     "a %ux8 position "
				     "in variant %s (the engine does not play "
				     "the GUI's variant): not sent to the "
				     "engine",
				     fen.pos.width,
				     fb_policy_game_variant(&x->pol)->uci);
			free(norm);
			return;
		}
	} else {
		fb_proto_say(out, &fb_protocol_uci, FB_SAY_ERROR,
			     "position not "
			     "understood: '%.*s'",
			     (int)len, text);
		free(norm);
		return;
	}
	reset_engine(x, p.startpos, out);
	x->have_valid = true;
	have_add(x, norm, base + 6);
	x->have_base = base;
	if (x->have_valid)
		send_moves(x, norm, k, base + 6, out);
	free(norm);
}
