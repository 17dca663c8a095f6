/* SPDX-License-Identifier: MIT */
/*
 * The referee's UCI wire (UCI spec, April 2006), read with the UCI codec.
 * Commands set the wire's board (`position`), its mode (UCI_Chess960) and
 * what the peer owes (`go`: one bestmove, `isready`: one readyok). Each
 * `go` keeps its own position, so an engine's output is judged against
 * the search it belongs to (the oldest not yet answered), even when the
 * next `position` has already been sent. The GUI wire's commands are the
 * GUI's and are checked (moves that do not follow, rights without rooks,
 * a go before the readyok after ucinewgame); the engine wire's replies are
 * the engine's and are checked (moves, pvs, answers, grammar).
 *
 * Pure code: no I/O, no allocation.
 */
#include <stdlib.h>
#include <string.h>

#include "fenbridge/fen.h"
#include "fenbridge/movegen.h"
#include "proto.h"
#include "referee_int.h"
#include "uci_codec.h"

/* The UCI spec does not bound id name, but GUIs show it in fields of
 * about this size (Arena, Shredder cut it). */
#define ID_NAME_MAX 64

static enum fb_castle_notation
want(const struct fb_ref_wire *w)
{
	return w->chess960 ? FB_CASTLE_KXR : FB_CASTLE_KING;
}

/* A random variant (caparandom) with UCI_Chess960 off: engines write its
 * castles either way (Fairy-Stockfish: king takes rook, its variant being
 * 960-like); the notation is not judged. */
static bool
judge_castle(const struct fb_ref_wire *w)
{
	return w->chess960 || w->variant == NULL || !w->variant->random;
}

static const char *
want_name(const struct fb_ref_wire *w)
{
	return w->chess960 ? "king takes rook (UCI_Chess960 is on)"
			   : "the king's destination (UCI_Chess960 is off)";
}

/* fb_ref_legal (coordinates), but a move found legal in the same position
 * just before (on the other wire) is not looked at again. */
static bool
legal_memo(struct fb_referee *r, const struct fb_game *g, const char *text,
	   size_t n, struct fb_move *m)
{
	struct fb_ref_legal_memo *c = &r->memo;

	if (fb_game_parse_move(g, text, n, m) != 0 || m->null)
		return false;
	/* Whole structs compared, padding too: a miss at worst. */
	if (c->valid && memcmp(&c->m, m, sizeof *m) == 0 &&
	    memcmp(&c->g, g, sizeof *g) == 0)
		return true;
	if (!fb_moves_is_legal(g, m))
		return false;
	c->valid = true;
	c->g = *g;
	c->m = *m;
	return true;
}

static void
position(struct fb_referee *r, enum fb_referee_side side, bool check,
	 const char *text, size_t len)
{
	struct fb_ref_wire *w = &r->wire[side];
	struct fb_uci_position p;
	struct fb_game g;
	size_t pos, start, n;
	unsigned ply = 0;
	size_t last = w->pos_len, kept = 0;

	w->pos_len = 0;
	if (fb_uci_parse_position(text, len, &p) < 0) {
		w->known = false;
		return;
	}
	if (w->known && last > 0 && len > last && fb_token_blank(text[last]) &&
	    memcmp(text, w->pos_line, last) == 0) {
		/* The last line and more moves: a GUI sends the whole game
		 * each time, which read from the start would cost the square
		 * of its length. */
		pos = kept = last;
		ply = w->pos_plies;
		goto moves;
	}
	if (p.startpos) {
		fb_ref_start(w, &g);
	} else {
		struct fb_fen fen;
		struct fb_fen_report rep;
		if (fb_fen_parse(&fen, text + p.fen.off, p.fen.len, &rep) < 0) {
			w->known = false;
			return;
		}
		g = fen.pos;
		if (check && rep.ndiag > 0)
			fb_ref_find(r, side, FB_REF_CASTLING, &g,
				    "the GUI's FEN has a castling right no "
				    "rook holds (%s)",
				    rep.diag[0].msg);
	}
	fb_ref_set_pos(w, &g);
	w->known = !w->unsupported;
	pos = p.moves;
moves:
	while (w->known && (n = fb_proto_token(text, len, &pos, &start)) > 0) {
		struct fb_move m;
		ply++;
		if (!legal_memo(r, &w->pos, text + start, n, &m)) {
			if (check)
				fb_ref_find(r, side, FB_REF_GUIKIND, NULL,
					    "the position does not follow "
					    "from its moves: move %u '%.*s' is "
					    "not legal",
					    ply, (int)n, text + start);
			w->known = false;
			return;
		}
		fb_game_play(&w->pos, &m);
		fb_ref_add_move(w, text + start, n);
	}
	if (w->known && p.has_moves && len <= sizeof w->pos_line) {
		/* After the same start only what is new is copied. */
		memcpy(w->pos_line + kept, text + kept, len - kept);
		w->pos_len = len;
		w->pos_plies = ply;
	}
}

static void
setoption(struct fb_referee *r, enum fb_referee_side side, const char *text,
	  size_t len)
{
	struct fb_ref_wire *w = &r->wire[side];
	struct fb_uci_setoption s;

	if (fb_uci_parse_setoption(text, len, &s) < 0)
		return;
	if (fb_proto_is_nocase(text, s.name.off, s.name.len, "UCI_Chess960"))
		w->chess960 = fb_proto_is_nocase(text, s.value.off, s.value.len,
						 "true");
	else if (fb_proto_is_nocase(text, s.name.off, s.name.len,
				    "UCI_Variant"))
		(void)fb_ref_set_variant(r, side, text + s.value.off,
					 s.value.len);
}

/* The oldest search is answered (or forgotten). */
static void
pop_search(struct fb_ref_wire *w)
{
	w->nsearch--;
	memmove(w->search, w->search + 1, w->nsearch * sizeof w->search[0]);
	memmove(w->search_hist, w->search_hist + 1,
		w->nsearch * sizeof w->search_hist[0]);
	memmove(w->search_known, w->search_known + 1,
		w->nsearch * sizeof w->search_known[0]);
	memmove(w->search_id, w->search_id + 1,
		w->nsearch * sizeof w->search_id[0]);
}

static void
command(struct fb_referee *r, enum fb_referee_side side, bool check,
	const char *text, size_t len, uint64_t now)
{
	struct fb_ref_wire *w = &r->wire[side];
	size_t start;

	switch (fb_uci_gui_kind(text, len, &start)) {
	case FB_UCI_G_UCI:
		w->in_handshake = true;
		w->busy = true;
		break;
	case FB_UCI_G_REGISTER:
		w->busy = true;
		break;
	case FB_UCI_G_ISREADY:
		fb_ref_wait_push(w, 0, now, !w->busy);
		if (w->newgame)
			w->newgame_ready = true;
		break;
	case FB_UCI_G_SETOPTION:
		setoption(r, side, text, len);
		w->busy = true;
		break;
	case FB_UCI_G_UCINEWGAME:
		w->busy = true;
		w->newgame = true;
		w->newgame_ready = false;
		break;
	case FB_UCI_G_POSITION:
		position(r, side, check, text, len);
		break;
	case FB_UCI_G_GO:
		if (check && w->newgame && w->newgame_ready)
			fb_ref_find(r, side, FB_REF_GUIKIND, NULL,
				    "go before the readyok to the isready "
				    "after ucinewgame");
		if (w->nsearch == FB_REF_SEARCHES)
			pop_search(w);
		w->search[w->nsearch] = w->pos;
		w->search_hist[w->nsearch] = w->hist;
		w->search_id[w->nsearch] = ++w->searches;
		w->search_known[w->nsearch++] = w->known;
		w->answered = false;
		break;
	case FB_UCI_G_QUIT:
		w->quit = true;
		w->quit_at = now;
		break;
	default:
		break;
	}
	fb_ref_set_last(w, text, len);
}

static bool
all_digits(const char *text, struct fb_span s)
{
	size_t i = s.off, end = s.off + s.len;

	if (i < end && (text[i] == '-' || text[i] == '+'))
		i++;
	if (i == end)
		return false;
	for (; i < end; i++)
		if ((unsigned)(unsigned char)text[i] - '0' > 9)
			return false;
	return true;
}

static void
option(struct fb_referee *r, const char *text, size_t len)
{
	struct fb_uci_option o;

	if (fb_uci_parse_option(text, len, &o) < 0) {
		fb_ref_find(r, FB_REF_ENGINE, FB_REF_FORMAT, NULL,
			    "malformed option line (no name or no type): "
			    "'%.*s'",
			    (int)(len < 80 ? len : 80), text);
		return;
	}
	switch (o.type) {
	case FB_UCI_T_UNKNOWN:
		fb_ref_find(r, FB_REF_ENGINE, FB_REF_FORMAT, NULL,
			    "option '%.*s' has the unknown type '%.*s'",
			    (int)o.name.len, text + o.name.off,
			    (int)o.type_word.len, text + o.type_word.off);
		break;
	case FB_UCI_T_CHECK:
		if (!o.has_default || (!fb_span_is(text, o.def, "true") &&
				       !fb_span_is(text, o.def, "false")))
			fb_ref_find(r, FB_REF_ENGINE, FB_REF_FORMAT, NULL,
				    "check option '%.*s' has the default "
				    "'%.*s', not true or false",
				    (int)o.name.len, text + o.name.off,
				    (int)o.def.len, text + o.def.off);
		break;
	case FB_UCI_T_SPIN:
		if (!all_digits(text, o.def) || !all_digits(text, o.min) ||
		    !all_digits(text, o.max))
			fb_ref_find(r, FB_REF_ENGINE, FB_REF_FORMAT, NULL,
				    "spin option '%.*s' needs integers for "
				    "default, min and max",
				    (int)o.name.len, text + o.name.off);
		break;
	default:
		break;
	}
}

/* The way of the pv cache to fill from ply on, for a pv that matched way
 * best (-1: none) up to ply: best itself when the pv goes on after all it
 * holds, else the least recently used other way, given best's first
 * plies. */
/* A cached token t[0..n) (n at most its size) is text[0..n). */
static bool
same_token(const char *t, const char *text, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (t[i] != text[i])
			return false;
	return true;
}

static struct fb_ref_pvcache *
pv_way(struct fb_ref_wire *w, int best, unsigned ply)
{
	bool extend = best >= 0 && w->pv[best].n == ply;
	int k = extend ? best : -1;

	for (int i = 0; !extend && i < FB_REF_PV_WAYS; i++) {
		if (i == best)
			continue;
		if (w->pv[i].search != w->search_id[0]) {
			k = i; /* an older search's: free */
			break;
		}
		if (k < 0 || w->pv[i].used < w->pv[k].used)
			k = i;
	}
	if (best >= 0 && k != best) {
		const struct fb_ref_pvcache *b = &w->pv[best];
		struct fb_ref_pvcache *c = &w->pv[k];
		memcpy(c->tok, b->tok, ply * sizeof b->tok[0]);
		memcpy(c->len, b->len, ply * sizeof b->len[0]);
		memcpy(c->after, b->after, ply * sizeof b->after[0]);
		memcpy(c->key, b->key, ply * sizeof b->key[0]);
	}
	w->pv[k].search = w->search_id[0];
	w->pv[k].n = best >= 0 ? ply : 0;
	w->pv[k].used = ++w->pv_clock;
	return &w->pv[k];
}

/* Plays the pv text[s] of the oldest search on a copy of its position:
 * the first move that is not legal, or one after mate or stalemate, is a
 * finding; a move after a draw by rule (the rules end the game, not the
 * search) is the session's note, until it is said. The moves a pv of that
 * search in the cache began with are taken from there. */
static void
check_pv(struct fb_referee *r, const char *text, struct fb_span s,
	 const char *what)
{
	struct fb_ref_wire *w = &r->wire[FB_REF_ENGINE];
	struct fb_ref_pvcache *c = NULL;
	/* The position so far: in the cache while the pv follows it. */
	const struct fb_game *gp = &w->search[0];
	struct fb_game g;
	struct fb_ref_pvline line;
	size_t pos = s.off, end = s.off + s.len, start, n;
	unsigned ply = 0, live = 0;
	int best = -1;
	/* Draws are looked for until the note is said: a pv that never
	 * reaches one pays for the positions' keys only. */
	bool draws = !(r->noted & FB_REF_NOTE_DRAW);
	enum fb_game_end e;
	const char *dr;

	for (int i = 0; i < FB_REF_PV_WAYS; i++)
		if (w->pv[i].search == w->search_id[0] && w->pv[i].n > 0)
			live |= 1u << i;
	fb_ref_pvline_start(&line, &w->search_hist[0]);
	while ((n = fb_proto_token(text, end, &pos, &start)) > 0) {
		struct fb_move m;
		unsigned next = 0;
		for (unsigned k = live; k != 0; k &= k - 1) {
			const struct fb_ref_pvcache *x =
				&w->pv[__builtin_ctz(k)];
			if (ply < x->n && x->len[ply] == n &&
			    same_token(x->tok[ply], text + start, n))
				next |= k & -k;
		}
		if (next != 0) {
			const struct fb_ref_pvcache *b;
			live = next;
			best = __builtin_ctz(next);
			b = &w->pv[best];
			if (draws)
				fb_ref_pvline_add(&line, &b->after[ply],
						  b->key[ply]);
			gp = &b->after[ply++];
			continue;
		}
		if (c == NULL) { /* the pv parts from the cache here */
			live = 0;
			g = *gp;
			c = pv_way(w, best, ply);
		}
		if (draws &&
		    (dr = fb_ref_drawn(&w->search[0], &g, ply, &line)) !=
			    NULL &&
		    fb_moves_end(&g) == FB_END_NONE) {
			/* (Mate or stalemate on the same move: below.) */
			fb_ref_note(r, FB_REF_ENGINE, FB_REF_NOTE_DRAW, &g,
				    "the %s goes on after a draw by %s: move "
				    "%u '%.*s' (the rules end the game, not "
				    "the search: no finding)",
				    what, dr, ply + 1, (int)n, text + start);
			draws = false;
		}
		ply++;
		if (!fb_ref_legal(&g, text + start, n, false, &m)) {
			/* A move that is legal is no move after the end:
			 * only now is movegen asked about the end. */
			if ((e = fb_moves_end(&g)) != FB_END_NONE)
				fb_ref_find(r, FB_REF_ENGINE, FB_REF_ILLEGAL,
					    &g,
					    "the %s goes on after %s: move %u "
					    "'%.*s'",
					    what,
					    e == FB_END_CHECKMATE ? "mate"
								  : "stalemate",
					    ply, (int)n, text + start);
			else
				fb_ref_find(r, FB_REF_ENGINE, FB_REF_ILLEGAL,
					    &g,
					    "%s move %u '%.*s' is not legal",
					    what, ply, (int)n, text + start);
			return;
		}
		if (judge_castle(w) &&
		    fb_ref_wrong_castle(&g, &m, text + start, n, want(w))) {
			fb_ref_find(r, FB_REF_ENGINE, FB_REF_CASTLING, &g,
				    "%s move %u '%.*s' is a castle not "
				    "written as %s",
				    what, ply, (int)n, text + start,
				    want_name(w));
			return;
		}
		fb_game_play(&g, &m);
		{
			/* The key only while draws are looked for: the
			 * cache's keys are read only then too. */
			uint64_t k = draws ? fb_ref_key(&g) : 0;
			if (draws)
				fb_ref_pvline_add(&line, &g, k);
			if (c->n == ply - 1 && ply <= FB_REF_PV_CACHE &&
			    n <= sizeof c->tok[0]) {
				memcpy(c->tok[ply - 1], text + start, n);
				c->len[ply - 1] = (unsigned char)n;
				c->after[ply - 1] = g;
				c->key[ply - 1] = k;
				c->n = ply;
			}
		}
	}
	if (c == NULL && best >= 0) /* all of it from the cache */
		w->pv[best].used = ++w->pv_clock;
}

static void
info(struct fb_referee *r, const char *text, size_t len)
{
	const struct fb_ref_wire *w = &r->wire[FB_REF_ENGINE];
	struct fb_uci_info in;
	struct fb_span cm;

	fb_uci_parse_info(text, len, &in);
	if (in.bad & FB_INFO_BAD_SCORE)
		fb_ref_find(r, FB_REF_ENGINE, FB_REF_FORMAT, NULL,
			    "score without cp or mate: '%.*s'",
			    (int)(len < 100 ? len : 100), text);
	else if (in.bad & FB_INFO_BAD_NUMBER) /* not the score's value again */
		fb_ref_find(r, FB_REF_ENGINE, FB_REF_FORMAT, NULL,
			    "depth, score, time or nodes not an integer: "
			    "'%.*s'",
			    (int)(len < 100 ? len : 100), text);
	if (w->nsearch == 0 || !w->search_known[0])
		return; /* no search to judge it by */
	if (in.moves[FB_UCI_PV].len > 0)
		check_pv(r, text, in.moves[FB_UCI_PV], "pv");
	cm = fb_span_first(text, in.moves[FB_UCI_CURRMOVE]);
	if (cm.len > 0) {
		struct fb_move m;
		if (!fb_ref_legal(&w->search[0], text + cm.off, cm.len, false,
				  &m))
			fb_ref_find(r, FB_REF_ENGINE, FB_REF_ILLEGAL,
				    &w->search[0],
				    "currmove '%.*s' is not legal", (int)cm.len,
				    text + cm.off);
	}
}

static bool
no_move(const char *text, struct fb_span s)
{
	return fb_span_is(text, s, "(none)") || fb_span_is(text, s, "0000");
}

static void
bestmove(struct fb_referee *r, bool check, const char *text, size_t len)
{
	struct fb_ref_wire *w = &r->wire[check ? FB_REF_ENGINE : FB_REF_GUI];
	struct fb_uci_bestmove bm;
	struct fb_game g;
	struct fb_move m;
	bool known;

	if (w->nsearch == 0) {
		if (check)
			fb_ref_find(r, FB_REF_ENGINE, FB_REF_PROTOCOL, NULL,
				    "%s: '%.*s'",
				    w->answered ? "a second bestmove to one go"
						: "bestmove without go",
				    (int)(len < 80 ? len : 80), text);
		return;
	}
	g = w->search[0];
	known = w->search_known[0];
	pop_search(w);
	w->answered = w->nsearch == 0;
	if (!check || !known)
		return;
	if (fb_uci_parse_bestmove(text, len, &bm) < 0) {
		fb_ref_find(r, FB_REF_ENGINE, FB_REF_FORMAT, &g,
			    "bestmove without a move");
		return;
	}
	if (no_move(text, bm.move)) {
		if (fb_moves_end(&g) == FB_END_NONE)
			fb_ref_find(r, FB_REF_ENGINE, FB_REF_ILLEGAL, &g,
				    "bestmove '%.*s' while there are legal "
				    "moves",
				    (int)bm.move.len, text + bm.move.off);
		return;
	}
	if (!fb_ref_legal(&g, text + bm.move.off, bm.move.len, false, &m)) {
		fb_ref_find(r, FB_REF_ENGINE, FB_REF_ILLEGAL, &g,
			    "bestmove '%.*s' is not legal", (int)bm.move.len,
			    text + bm.move.off);
		return;
	}
	if (judge_castle(w) && fb_ref_wrong_castle(&g, &m, text + bm.move.off,
						   bm.move.len, want(w)))
		fb_ref_find(r, FB_REF_ENGINE, FB_REF_CASTLING, &g,
			    "bestmove '%.*s' is a castle not written as %s",
			    (int)bm.move.len, text + bm.move.off, want_name(w));
	if (bm.ponder.len == 0 || no_move(text, bm.ponder))
		return;
	fb_game_play(&g, &m);
	if (fb_moves_end(&g) != FB_END_NONE ||
	    !fb_ref_legal(&g, text + bm.ponder.off, bm.ponder.len, false, &m))
		fb_ref_find(r, FB_REF_ENGINE, FB_REF_ILLEGAL, &g,
			    "the ponder move '%.*s' is not legal after '%.*s'",
			    (int)bm.ponder.len, text + bm.ponder.off,
			    (int)bm.move.len, text + bm.move.off);
}

/* A line of blanks only. An empty line is not one: Stockfish writes it
 * after its id lines, and the spec tells GUIs to skip what they do not
 * know. */
static bool
blank(const char *text, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!fb_token_blank(text[i]))
			return false;
	return true;
}

static void
reply(struct fb_referee *r, enum fb_referee_side side, bool check,
      const char *text, size_t len, uint64_t now)
{
	struct fb_ref_wire *w = &r->wire[side];
	struct fb_uci_id id;
	size_t start;
	enum fb_uci_engine kind = fb_uci_engine_kind(text, len, &start);

	if (kind == FB_UCI_E_READYOK) {
		/* One without an isready is no offence: the isready may have
		 * gone before the wire's protocol was known (the probe). */
		(void)fb_ref_wait_answer(r, side, 0, now, "readyok");
		w->newgame = w->newgame && !w->newgame_ready;
	} else if (kind == FB_UCI_E_BESTMOVE) {
		bestmove(r, check, text, len);
	}
	if (!check)
		return;
	if (w->quit && !w->after_quit_said &&
	    now - w->quit_at > FB_REF_QUIT_MS) {
		w->after_quit_said = true;
		fb_ref_find(r, side, FB_REF_PROTOCOL, NULL,
			    "output %llu ms after quit: '%.*s'",
			    (unsigned long long)(now - w->quit_at),
			    (int)(len < 80 ? len : 80), text);
	}
	switch (kind) {
	case FB_UCI_E_INFO:
		info(r, text, len);
		break;
	case FB_UCI_E_OTHER:
		if (w->in_handshake && blank(text, len))
			fb_ref_find(r, side, FB_REF_FORMAT, NULL,
				    "a line of blanks in the handshake "
				    "(between uci and uciok)");
		break;
	case FB_UCI_E_UCIOK:
		w->in_handshake = false;
		break;
	case FB_UCI_E_ID:
		if (fb_uci_parse_id(text, len, &id) == 0 && id.name &&
		    id.value.len > ID_NAME_MAX)
			fb_ref_find(r, side, FB_REF_FORMAT, NULL,
				    "id name of %zu bytes (more than %d)",
				    id.value.len, ID_NAME_MAX);
		break;
	case FB_UCI_E_OPTION:
		option(r, text, len);
		break;
	default:
		break;
	}
}

void
fb_ref_uci_line(struct fb_referee *r, enum fb_referee_side side,
		bool command_way, const char *text, size_t len, uint64_t now)
{
	/* Only the peer's lines are judged: the engine's replies, the
	 * GUI's commands. */
	if (command_way)
		command(r, side, side == FB_REF_GUI, text, len, now);
	else
		reply(r, side, side == FB_REF_ENGINE, text, len, now);
}
