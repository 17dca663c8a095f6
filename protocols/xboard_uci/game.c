/* SPDX-License-Identifier: MIT */
/*
 * The game an XBoard GUI plays with a UCI engine (xboard_uci.h): its start
 * (new, variant, setboard), the moves since, the board after them, and the
 * engine's `position` line kept in sync with it.
 *
 * A UCI engine keeps nothing: each search is sent the whole game. The line
 * is not rebuilt for that: it is kept with the board at its end, and a new
 * move is printed once and appended, so a move costs the same at ply 300
 * as at ply 20. It is rebuilt from the start only after new, variant,
 * setboard, undo and remove, or when the policy's notation or dialect
 * toward the engine changed.
 *
 * Castling: the GUI writes O-O in random variants (fischerandom,
 * caparandom) and the king's move otherwise; the engine gets king takes
 * rook in Chess960 mode and the king's move otherwise (the policy's
 * fb_policy_gui_castling and fb_policy_engine_castling). An engine without
 * Chess960 gets only the rights standard FEN expresses, and a castle it
 * cannot read as the position after it: re-anchoring (fb_policy_must_reanchor,
 * fb_policy_anchor_fen), said once per game.
 *
 * No I/O in this file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenbridge/movegen.h"
#include "xboard_uci.h"

void
fb_xbu_game_reset(struct xbu *x, const struct fb_variant *v)
{
	x->pol.variant = v;
	x->nmoves = 0;
	x->logged_anchor = x->logged_rights = x->logged_clock = false;
	x->told_gui = false;
	fb_variant_start(v, &x->start);
	x->cur = x->start;
	x->startpos = v == fb_variant_normal;
	x->sync.valid = false;
	x->legal_ok = false;
	x->over = false;
}

bool
fb_xbu_game_push(struct xbu *x, const struct fb_move *m)
{
	struct fb_move *p = fb_proto_grow(x->moves, x->nmoves, &x->cap_moves,
					  sizeof *p, 256);

	if (p == NULL)
		return false;
	x->moves = p;
	x->moves[x->nmoves++] = *m;
	fb_game_play(&x->cur, m);
	return true;
}

/* Takes back the last plies (at most nmoves): the board is replayed from
 * the start, and the engine's line rebuilt before the next search. */
void
fb_xbu_game_undo(struct xbu *x, size_t plies)
{
	x->nmoves -= plies;
	x->cur = x->start;
	for (size_t i = 0; i < x->nmoves; i++)
		fb_game_play(&x->cur, &x->moves[i]);
	x->sync.valid = false;
	x->legal_ok = false;
	x->over = false;
}

/* The legal moves of cur: one generation per position (a move pushed
 * makes another ply; the positions at a ply change only by undo or a new
 * start, which drop them). */
static void
legal_moves(struct xbu *x)
{
	if (x->legal_ok && x->legal_ply == x->nmoves)
		return;
	x->nlegal = fb_moves_legal(&x->cur, x->legal);
	x->legal_ply = x->nmoves;
	x->legal_ok = true;
}

static char
lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

bool
fb_xbu_legal(struct xbu *x, const struct fb_move *m)
{
	if (m->null)
		return false;
	legal_moves(x);
	for (size_t i = 0; i < x->nlegal; i++) {
		const struct fb_move *l = &x->legal[i];
		if (l->from_file == m->from_file &&
		    l->from_rank == m->from_rank && l->to_file == m->to_file &&
		    l->to_rank == m->to_rank && l->castle == m->castle &&
		    lower(l->promo) == lower(m->promo))
			return true;
	}
	return false;
}

enum fb_game_end
fb_xbu_end(struct xbu *x)
{
	legal_moves(x);
	if (x->nlegal > 0)
		return FB_END_NONE;
	return fb_moves_in_check(&x->cur) ? FB_END_CHECKMATE : FB_END_STALEMATE;
}

bool
fb_xbu_same_move(const struct fb_move *a, const struct fb_move *b)
{
	return a->from_file == b->from_file && a->from_rank == b->from_rank &&
	       a->to_file == b->to_file && a->to_rank == b->to_rank &&
	       a->castle == b->castle && (a->promo | 0x20) == (b->promo | 0x20);
}

int
fb_xbu_print_move(const struct fb_game *g, const struct fb_move *m,
		  enum fb_castle_notation n, char out[static 8])
{
	int k = 0;

	if (m->castle >= 0) {
		k = fb_game_print_castle(g, m, n, out, 8);
		if (k < 0)
			k = fb_game_print_castle(g, m, FB_CASTLE_OO, out, 8);
		return k < 0 ? 0 : k;
	}
	if (m->null) {
		memcpy(out, "0000", 4);
		return 4;
	}
	out[k++] = (char)('a' + m->from_file);
	out[k++] = (char)('1' + m->from_rank);
	out[k++] = (char)('a' + m->to_file);
	out[k++] = (char)('1' + m->to_rank);
	if (m->promo != 0)
		out[k++] = (char)(m->promo | 0x20);
	return k;
}

/* ---- the engine's position line ---- */

/* What the line depends on besides the moves: the policy's answers. */
static void
line_key(const struct xbu *x, struct fb_xbu_sync *k)
{
	k->notation = fb_policy_engine_castling(&x->pol);
	k->standard = fb_policy_engine_standard(&x->pol);
	k->style = fb_policy_engine_style(&x->pol);
}

static bool
same_key(const struct fb_xbu_sync *a, const struct fb_xbu_sync *b)
{
	return a->notation == b->notation && a->standard == b->standard &&
	       a->style.notation == b->style.notation &&
	       a->style.prefix == b->style.prefix;
}

/* "position fen <g as the engine can read it>\n" into the line. */
static void
put_fen(struct xbu *x, const struct fb_game *g)
{
	char fen[FB_GAME_FEN_MAX];
	int k = fb_policy_anchor_fen(&x->pol, g, fen, sizeof fen, NULL);

	fb_proto_buf_str(&x->sync.text, "position fen ");
	if (k > 0)
		fb_proto_buf_add(&x->sync.text, fen, (size_t)k);
	fb_proto_buf_add(&x->sync.text, "\n", 1);
}

/* The line for the start of the game, no moves. */
static void
line_start(struct xbu *x)
{
	struct fb_xbu_sync *s = &x->sync;

	s->text.len = 0;
	s->text.oom = false;
	s->ply = 0;
	s->end = x->start;
	s->moves = false;
	s->valid = true;
	line_key(x, s);
	if (x->startpos)
		fb_proto_buf_str(&s->text, "position startpos\n");
	else
		put_fen(x, &x->start);
}

/* Appends the game's move m to the line: printed in the
 * engine's notation, or, when it cannot read it, the line restarts from
 * the position after it. */
static void
line_append(struct xbu *x, const struct fb_move *m, const struct fb_sink *out)
{
	struct fb_xbu_sync *s = &x->sync;
	char mv[8];
	int k;

	if (s->text.oom)
		return; /* reported when it is sent */
	if (fb_policy_must_reanchor(&x->pol, &s->end, m)) {
		k = fb_xbu_print_move(&s->end, m, FB_CASTLE_KXR, mv);
		fb_game_play(&s->end, m);
		s->text.len = 0;
		put_fen(x, &s->end);
		s->moves = false;
		s->anchors++;
		fb_policy_tell_anchor(&x->pol, &x->logged_anchor, &x->told_gui,
				      &s->end, mv, (size_t)k, out);
		return;
	}
	k = fb_xbu_print_move(&s->end, m, s->notation, mv);
	s->text.len--; /* its "\n" */
	if (!s->moves)
		fb_proto_buf_str(&s->text, " moves");
	s->moves = true;
	fb_proto_buf_add(&s->text, " ", 1);
	fb_proto_buf_add(&s->text, mv, (size_t)k);
	fb_proto_buf_add(&s->text, "\n", 1);
	fb_game_play(&s->end, m);
}

/* Brings the line to the game's last move: appends the moves it lacks,
 * or rebuilds it when it no longer describes the game's first moves. */
static void
line_sync(struct xbu *x, const struct fb_sink *out)
{
	struct fb_xbu_sync *s = &x->sync, key;

	line_key(x, &key);
	if (!s->valid || s->text.oom || s->ply > x->nmoves ||
	    !same_key(s, &key))
		line_start(x);
	for (; s->ply < x->nmoves; s->ply++)
		line_append(x, &x->moves[s->ply], out);
}

void
fb_xbu_send_position(struct xbu *x, const struct fb_sink *out)
{
	line_sync(x, out);
	if (x->sync.text.oom) {
		x->sync.valid = false;
		fb_proto_report(out, FB_LOG_ERROR,
				"out of memory: no position for the engine");
		return;
	}
	out->to_engine(out->ctx, x->sync.text.p, x->sync.text.len);
}

void
fb_xbu_mark(struct xbu *x, struct fb_xbu_mark *m, const struct fb_sink *out)
{
	line_sync(x, out);
	m->len = x->sync.text.len;
	m->ply = x->sync.ply;
	m->end = x->sync.end;
	m->moves = x->sync.moves;
	m->anchors = x->sync.anchors;
}

void
fb_xbu_restore(struct xbu *x, const struct fb_xbu_mark *m)
{
	struct fb_xbu_sync *s = &x->sync;

	/* After a re-anchoring the text before it is gone: rebuild. */
	if (!s->valid || s->text.oom || s->anchors != m->anchors ||
	    m->len == 0 || m->len > s->text.len) {
		s->valid = false;
		return;
	}
	s->text.len = m->len;
	s->text.p[m->len - 1] = '\n';
	s->ply = m->ply;
	s->end = m->end;
	s->moves = m->moves;
}

/* ---- the variant and the engine's modes ---- */

/* The variant the engine plays the game's as: UCI_Variant's value. */
static const struct fb_variant *
engine_variant(const struct xbu *x)
{
	const struct fb_variant *v = x->pol.variant;

	switch (fb_policy_plays(&x->pol, v)) {
	case FB_PLAY_LISTED:
		return v;
	case FB_PLAY_CHESS960:
	case FB_PLAY_EMULATED:
		return fb_policy_base(v);
	case FB_PLAY_NO:
		break;
	}
	return fb_variant_normal; /* reported when it was chosen */
}

/* True when the engine plays the game's variant in Chess960 mode (set by
 * fb_xbu_sync_variant before the next search); otherwise in standard
 * notation. */
static bool
plays_960(const struct xbu *x)
{
	enum fb_play p = fb_policy_plays(&x->pol, x->pol.variant);

	return x->pol.variant->random &&
	       (p == FB_PLAY_LISTED || p == FB_PLAY_CHESS960);
}

/* Before each search: the engine's UCI_Variant, UCI_Chess960 and Ponder
 * as the game needs them, and the notations for its pv. */
void
fb_xbu_sync_variant(struct xbu *x, const struct fb_sink *out)
{
	const struct fb_variant *uci = engine_variant(x);
	bool has960 = x->pol.chess960 == FB_SUPPORT_LISTED;
	bool want960 = x->pol.variant->random && has960;
	const char *name;

	if (x->pol.variants.given && uci != x->pol.engine_variant &&
	    (name = fb_policy_engine_name(&x->pol, uci)) != NULL) {
		fb_proto_engine(out, "setoption name UCI_Variant value %s",
				name);
		x->pol.engine_variant = uci;
	}
	if (has960 && want960 != x->pol.engine_960) {
		fb_proto_engine(out, "setoption name UCI_Chess960 value %s",
				want960 ? "true" : "false");
		x->pol.engine_960 = want960;
	}
	if (x->has_ponder && x->hard != x->engine_ponder) {
		fb_proto_engine(out, "setoption name Ponder value %s",
				x->hard ? "true" : "false");
		x->engine_ponder = x->hard;
	}
	x->pv_castling = fb_policy_gui_castling(&x->pol);
	if (x->pv_castling == fb_policy_engine_castling(&x->pol))
		x->pv_castling = FB_CASTLE_AUTO;
}

void
fb_xbu_gui_variant(struct xbu *x, const char *text, struct fb_span arg,
		   const struct fb_sink *out)
{
	size_t pos = arg.off, start;
	size_t n = fb_proto_token(text, arg.off + arg.len, &pos, &start);
	const struct fb_variant *v = fb_variant_find(text + start, n);

	if (fb_policy_plays(&x->pol, v) == FB_PLAY_NO) {
		fb_proto_gui(out, "Error (unsupported variant): %.*s", (int)n,
			     text + start);
		return;
	}
	fb_xbu_step(x, FB_XBU_EV_STOP, NULL, 0, out);
	fb_xbu_game_reset(x, v);
	fb_xbu_sync_variant(x, out);
}

/*
 * The engine plays the new start in standard notation: rights on inner
 * rooks or off the e-file king cannot reach it. Never silently. In a
 * random variant that is how an engine without Chess960 plays (told once
 * per game); in another the user may have meant fischerandom (a warning
 * each time, and a comment line to the GUI: no dialog in every game).
 */
static void
note_dropped(struct xbu *x, const struct fb_sink *out)
{
	struct fb_game c = x->start;
	unsigned dropped = fb_game_drop_nonstandard(&c);

	if (dropped == 0)
		return;
	if (x->pol.variant->random) {
		fb_policy_tell(&x->pol, &x->logged_rights, &x->told_gui, out,
			       "setboard: %u castling right%s that standard "
			       "notation cannot express not sent to the "
			       "engine (it has no Chess960)",
			       dropped, dropped > 1 ? "s" : "");
		return;
	}
	fb_proto_report(out, FB_LOG_WARN,
			"setboard: %u castling right%s that standard chess "
			"cannot express not sent to the engine (variant %s)",
			dropped, dropped > 1 ? "s" : "", x->pol.variant->name);
	fb_proto_say(out, &fb_protocol_xboard, FB_SAY_NOTE,
		     "%u castling right%s of this position "
		     "need Chess960 (variant fischerandom); the engine "
		     "plays without %s",
		     dropped, dropped > 1 ? "s" : "",
		     dropped > 1 ? "them" : "it");
}

void
fb_xbu_gui_setboard(struct xbu *x, const char *text, struct fb_span arg,
		    const struct fb_sink *out)
{
	struct fb_fen fen;

	fb_xbu_step(x, FB_XBU_EV_STOP, NULL, 0, out);
	if (arg.len == 0 ||
	    fb_proto_parse_fen(text, arg.off, arg.off + arg.len, "setboard",
			       out, &fen) < 0 ||
	    fen.pos.width != x->pol.variant->width) {
		fb_proto_gui(out, "tellusererror Illegal position");
		return;
	}
	x->start = fen.pos;
	fb_variant_apply(x->pol.variant, &x->start);
	x->cur = x->start;
	x->nmoves = 0;
	x->startpos = false;
	x->sync.valid = false;
	x->legal_ok = false;
	x->over = false;
	if (!plays_960(x))
		note_dropped(x, out);
	fb_xbu_step(x, FB_XBU_EV_CHANGED, NULL, 0, out);
}

/* A GUI move (usermove or bare): checked, played, answered. */
void
fb_xbu_gui_move(struct xbu *x, const char *text, struct fb_span mv,
		const struct fb_sink *out)
{
	struct fb_move m;

	if (fb_game_parse_move(&x->cur, text + mv.off, mv.len, &m) < 0 ||
	    !fb_xbu_legal(x, &m)) {
		fb_proto_gui(out, "Illegal move: %.*s", (int)mv.len,
			     text + mv.off);
		return;
	}
	if (x->state == FB_XBU_PONDERING && fb_xbu_same_move(&m, &x->ponder) &&
	    fb_xbu_game_push(x, &m)) {
		fb_xbu_step(x, FB_XBU_EV_PONDERHIT, NULL, 0, out);
		return;
	}
	/* analyze, pondering on another move, a move while thinking */
	fb_xbu_step(x, FB_XBU_EV_STOP, NULL, 0, out);
	if (!fb_xbu_game_push(x, &m)) {
		fb_proto_report(out, FB_LOG_ERROR, "out of memory");
		fb_proto_gui(out, "Illegal move (out of memory): %.*s",
			     (int)mv.len, text + mv.off);
		return;
	}
	if (fb_xbu_end(x) != FB_END_NONE) {
		/* The GUI's move mates or stalemates: the GUI knows the
		 * result. A search would make the engine's side, the
		 * loser, claim it too. */
		x->over = true;
		fb_proto_report(out, FB_LOG_DEBUG,
				"%.*s ends the game: no search", (int)mv.len,
				text + mv.off);
	}
	fb_xbu_step(x, FB_XBU_EV_CHANGED, NULL, 0, out);
}
