/* SPDX-License-Identifier: MIT */
/*
 * The referee's CECP wire (Chess Engine Communication Protocol, version
 * 2), read with the CECP codec. Commands (`new`, `variant`, `setboard`,
 * the moves, `force`, `go`, `playother`, `analyze`) follow the game and
 * who is on move; the engine's `move` is then judged (legal, in turn, not
 * in force mode, castling as the variant writes it), and so are its
 * thinking output (only what reads for sure as moves), `pong` (late),
 * `Illegal move` (of a legal move), result claims of mate and stalemate
 * (movegen says) and feature lines. On the GUI wire the GUI's moves and
 * FENs are checked.
 *
 * A command that leaves the game unclear to the referee (`undo`, `edit`,
 * a variant it does not follow) stops the checks of moves until the next
 * `new` or `setboard`: it never reports what it cannot be sure of.
 *
 * Pure code: no I/O, no allocation.
 */
#include <string.h>

#include "cecp_codec.h"
#include "fenbridge/fen.h"
#include "fenbridge/movegen.h"
#include "proto.h"
#include "referee_int.h"

/* The engine is thinking on its own move. */
static bool
on_move(const struct fb_ref_wire *w)
{
	return w->known && !w->force && !w->analyze &&
	       w->engine_side == w->pos.side;
}

/* Before a move is played on w: the position it leaves is prev, and the
 * newest of the recent ones. */
static void
remember(struct fb_ref_wire *w)
{
	unsigned n = w->nrecent < FB_REF_RECENT ? w->nrecent
						: FB_REF_RECENT - 1;

	w->prev = w->pos;
	memmove(&w->recent[1], &w->recent[0], n * sizeof w->recent[0]);
	w->recent[0] = w->pos;
	w->nrecent = n + 1;
}

static void
new_game(struct fb_ref_wire *w)
{
	struct fb_game g;

	w->variant = NULL;
	fb_ref_start(w, &g);
	fb_ref_set_pos(w, &g);
	w->chess960 = w->unsupported = false;
	w->force = w->analyze = w->race = false;
	w->engine_side = FB_BLACK;
	w->last_move[0] = w->announced[0] = '\0';
}

/* `variant NAME`: a fixed start (capablanca, gothic) is the position
 * now; a random one (fischerandom, caparandom) is not known until its
 * setboard. */
static void
variant(struct fb_referee *r, enum fb_referee_side side, const char *text,
	struct fb_span arg)
{
	struct fb_ref_wire *w = &r->wire[side];
	const struct fb_variant *v =
		fb_ref_set_variant(r, side, text + arg.off, arg.len);
	struct fb_game g;

	if (v == NULL)
		return;
	w->chess960 = v->random;
	fb_ref_start(w, &g);
	fb_ref_set_pos(w, &g);
	w->known = v->start != NULL;
}

static void
setboard(struct fb_referee *r, enum fb_referee_side side, bool check,
	 const char *text, struct fb_span arg)
{
	struct fb_ref_wire *w = &r->wire[side];
	struct fb_fen fen;
	struct fb_fen_report rep;

	w->last_move[0] = '\0';
	if (fb_fen_parse(&fen, text + arg.off, arg.len, &rep) < 0) {
		w->known = false;
		return;
	}
	fb_ref_set_pos(w, &fen.pos);
	w->known = !w->unsupported;
	if (check && rep.ndiag > 0)
		fb_ref_find(r, side, FB_REF_CASTLING, NULL,
			    "the GUI's FEN has a castling right no rook holds "
			    "(%s)",
			    rep.diag[0].msg);
}

/* A move given to the engine (usermove, or a bare move). */
static void
given_move(struct fb_referee *r, enum fb_referee_side side, bool check,
	   const char *text, struct fb_span mv)
{
	struct fb_ref_wire *w = &r->wire[side];
	struct fb_move m;
	size_t n = mv.len < sizeof w->last_move ? mv.len
						: sizeof w->last_move - 1;

	if (!w->known)
		return;
	if (!fb_ref_legal(&w->pos, text + mv.off, mv.len, true, &m)) {
		if (check)
			fb_ref_find(r, side, FB_REF_GUIKIND, NULL,
				    "the GUI's move '%.*s' is not legal",
				    (int)mv.len, text + mv.off);
		w->known = false;
		return;
	}
	/* Given to an engine thinking on its move (fenbridge sending a
	 * rejected castle again): its move may cross this one. */
	if (side == FB_REF_ENGINE && on_move(w))
		w->race = true;
	remember(w);
	fb_game_play(&w->pos, &m);
	fb_ref_add_move(w, text + mv.off, mv.len);
	memcpy(w->last_move, text + mv.off, n);
	w->last_move[n] = '\0';
	w->go_after = 0;
}

/* Token t[0..n) written the way coordinates are (e2e4, e7e8q, a-j and
 * 1-8 on 10x8 boards). */
static bool
coordinates(const char *t, size_t n)
{
	if (n != 4 && n != 5)
		return false;
	for (size_t i = 0; i < 4; i++) {
		char c = t[i];
		if (i % 2 == 0 ? c < 'a' || c > 'j' : c < '1' || c > '8')
			return false;
	}
	return n == 4 || (t[4] >= 'a' && t[4] <= 'z');
}

static void
command(struct fb_referee *r, enum fb_referee_side side, bool check,
	const char *text, size_t len, uint64_t now)
{
	struct fb_ref_wire *w = &r->wire[side];
	struct fb_cecp_command c;
	struct fb_move m;
	long long id;

	fb_cecp_parse_gui(text, len, &c);
	switch (c.kind) {
	case FB_CECP_G_NEW:
		new_game(w);
		w->busy = true;
		break;
	case FB_CECP_G_PROTOVER:
	case FB_CECP_G_MEMORY:
	case FB_CECP_G_CORES:
	case FB_CECP_G_EGTPATH:
	case FB_CECP_G_OPTION:
		w->busy = true;
		break;
	case FB_CECP_G_VARIANT:
		variant(r, side, text, c.arg);
		break;
	case FB_CECP_G_SETBOARD:
		setboard(r, side, check, text, c.arg);
		break;
	case FB_CECP_G_FORCE:
	case FB_CECP_G_RESULT:
		w->race = w->race || on_move(w);
		w->force = true;
		break;
	case FB_CECP_G_GO:
		w->force = false;
		w->engine_side = w->pos.side;
		w->go_after = w->last_move[0] != '\0' ? 1 : 0;
		break;
	case FB_CECP_G_PLAYOTHER:
		w->force = false;
		w->engine_side = !w->pos.side;
		w->go_after = w->last_move[0] != '\0' ? 2 : 0;
		break;
	case FB_CECP_G_USERMOVE:
		given_move(r, side, check, text, fb_span_first(text, c.arg));
		break;
	case FB_CECP_G_OTHER:
		/* A bare move (no feature usermove=1), or a command the
		 * codec does not name: only what reads as a move counts, or
		 * is written as one (coordinates). */
		if (c.arg.len == 0 && w->known &&
		    (coordinates(text + c.word.off, c.word.len) ||
		     fb_ref_legal(&w->pos, text + c.word.off, c.word.len, true,
				  &m)))
			given_move(r, side, check, text, c.word);
		break;
	case FB_CECP_G_WHITE:
	case FB_CECP_G_BLACK:
	case FB_CECP_G_UNDO:
	case FB_CECP_G_REMOVE:
	case FB_CECP_G_EDIT:
		w->known = false;
		break;
	case FB_CECP_G_ANALYZE:
		w->analyze = true;
		break;
	case FB_CECP_G_EXIT:
		w->analyze = false;
		break;
	case FB_CECP_G_PING:
		/* An engine on its move may answer after the move (CECP:
		 * ping), one busy with new or memory after that work;
		 * otherwise at once. */
		if (fb_cecp_parse_number(text, c.arg, &id))
			fb_ref_wait_push(w, id, now, !on_move(w) && !w->busy);
		break;
	case FB_CECP_G_QUIT:
		w->quit = true;
		w->quit_at = now;
		break;
	default:
		break;
	}
	fb_ref_set_last(w, text, len);
}

/* The first move of a pv after a draw by rule: its rule, ply and token. */
struct pv_draw {
	const char *rule; /* NULL: none */
	unsigned ply;
	struct fb_span tok;
};

/*
 * Reads the thinking pv text[s] on a copy of g. Move numbers (12. 12...
 * 1.e4) are skipped; SAN and coordinates are read; the first other token
 * ends it. Returns 0, or the ply of the first coordinate move that is not
 * legal or comes after the game's end (*after says which: NULL for a move
 * not legal), with its token; *read counts the moves read. With draw, the
 * first move after a draw by rule goes there (hist: the positions of the
 * game before g, for repetitions), and the pv is read on.
 */
static unsigned
read_pv(const struct fb_game *g0, const char *text, struct fb_span s,
	const char **after, struct fb_span *tok, unsigned *read,
	struct pv_draw *draw, const struct fb_ref_hist *hist)
{
	struct fb_game g = *g0;
	struct fb_ref_pvline line;
	size_t pos = s.off, end = s.off + s.len, start, n;
	unsigned ply = 0;
	const char *dr;

	*read = 0;
	fb_ref_pvline_start(&line, hist);
	while ((n = fb_proto_token(text, end, &pos, &start)) > 0) {
		const char *t = text + start;
		struct fb_move m;
		size_t k = 0;
		bool dot = false;
		while (k < n && ((t[k] >= '0' && t[k] <= '9') || t[k] == '.'))
			dot |= t[k++] == '.';
		if (k > 0 && !dot)
			return 0; /* a number: not a pv any more */
		t += k, n -= k;
		if (n == 0)
			continue;
		*tok = (struct fb_span){(size_t)(t - text), n};
		dr = draw != NULL && draw->rule == NULL
			     ? fb_ref_drawn(g0, &g, ply, &line)
			     : NULL;
		ply++;
		if (fb_moves_end(&g) != FB_END_NONE) {
			*after = "the game's end";
			return coordinates(t, n) ? ply : 0;
		}
		if (fb_moves_parse(&g, t, n, &m) == 0) {
			if (dr != NULL) /* a move for sure */
				*draw = (struct pv_draw){dr, ply, *tok};
			fb_game_play(&g, &m);
			if (draw != NULL && draw->rule == NULL)
				fb_ref_pvline_add(&line, &g, fb_ref_key(&g));
			++*read;
			continue;
		}
		/* Sure only of coordinates that name a move: SAN that does
		 * not read may be ours to misread. */
		*after = NULL;
		return coordinates(t, n) &&
				       fb_game_parse_move(&g, t, n, &m) == 0
			       ? ply
			       : 0;
	}
	return 0;
}

static void
thinking(struct fb_referee *r, const char *text,
	 const struct fb_cecp_thinking *th)
{
	struct fb_ref_wire *w = &r->wire[FB_REF_ENGINE];
	struct fb_span tok, t2;
	struct pv_draw draw = {0};
	const char *after, *a2;
	unsigned ply, read, read2;

	if (!w->known || !(on_move(w) || w->analyze))
		return; /* pondering: its pv may start after a guess */
	ply = read_pv(&w->pos, text, th->pv, &after, &tok, &read,
		      r->noted & FB_REF_NOTE_DRAW ? NULL : &draw, &w->hist);
	if (ply == 0) {
		if (draw.rule != NULL)
			fb_ref_note(r, FB_REF_ENGINE, FB_REF_NOTE_DRAW, &w->pos,
				    "the thinking pv goes on after a draw by "
				    "%s: move %u '%.*s' (the rules end the "
				    "game, not the search: no finding)",
				    draw.rule, draw.ply, (int)draw.tok.len,
				    text + draw.tok.off);
		return;
	}
	/* Thinking about a position before the moves just given, still in
	 * the pipe when they went: no offence. */
	for (unsigned i = 0; i < w->nrecent; i++)
		if (read_pv(&w->recent[i], text, th->pv, &a2, &t2, &read2, NULL,
			    NULL) == 0 &&
		    read2 > 0)
			return;
	if (after != NULL)
		fb_ref_find(r, FB_REF_ENGINE, FB_REF_ILLEGAL, NULL,
			    "the thinking pv goes on after %s: move %u '%.*s'",
			    after, ply, (int)tok.len, text + tok.off);
	else
		fb_ref_find(r, FB_REF_ENGINE, FB_REF_ILLEGAL, NULL,
			    "thinking pv move %u '%.*s' is not legal", ply,
			    (int)tok.len, text + tok.off);
}

/* The engine's move, on either wire (on the GUI wire: as the GUI got
 * it); judged on the engine wire. */
static void
engine_move(struct fb_referee *r, enum fb_referee_side side, bool check,
	    const char *text, struct fb_span mv, enum fb_cecp_move_form form)
{
	struct fb_ref_wire *w = &r->wire[side];
	struct fb_move m;
	size_t n = mv.len < sizeof w->announced ? mv.len
						: sizeof w->announced - 1;
	bool again = form != FB_CECP_MOVE_OLD && w->announced[0] != '\0' &&
		     fb_span_is(text, mv, w->announced);

	w->announced[0] = '\0';
	if (form == FB_CECP_MOVE_OLD) {
		memcpy(w->announced, text + mv.off, n);
		w->announced[n] = '\0';
	}
	if (!w->known || again)
		return;
	if (w->race) {
		/* Written before the engine read the force: the GUI may take
		 * it or not; the game is not sure any more. */
		w->race = false;
		w->known = false;
		return;
	}
	if (w->force || w->analyze || w->engine_side != w->pos.side) {
		if (check)
			fb_ref_find(r, side, FB_REF_PROTOCOL, NULL,
				    "move '%.*s' %s", (int)mv.len,
				    text + mv.off,
				    w->force     ? "in force mode"
				    : w->analyze ? "in analyze mode"
						 : "out of turn");
		w->known = false;
		return;
	}
	if (!fb_ref_legal(&w->pos, text + mv.off, mv.len, true, &m)) {
		if (check)
			fb_ref_find(r, side, FB_REF_ILLEGAL, NULL,
				    "move '%.*s' is not legal", (int)mv.len,
				    text + mv.off);
		w->known = false;
		return;
	}
	if (check &&
	    fb_ref_wrong_castle(&w->pos, &m, text + mv.off, mv.len,
				w->chess960 ? FB_CASTLE_KXR : FB_CASTLE_KING))
		fb_ref_find(r, side, FB_REF_CASTLING, NULL,
			    "move '%.*s' is a castle not written as %s",
			    (int)mv.len, text + mv.off,
			    w->chess960 ? "O-O or king takes rook "
					  "(variant fischerandom)"
					: "the king's destination or O-O "
					  "(normal chess)");
	remember(w);
	fb_game_play(&w->pos, &m);
	fb_ref_add_move(w, text + mv.off, mv.len);
	w->last_move[0] = '\0';
}

static bool
contains_nocase(const char *text, size_t len, const char *word)
{
	size_t k = strlen(word);

	for (size_t i = 0; i + k <= len; i++)
		if (fb_proto_is_nocase(text, i, k, word))
			return true;
	return false;
}

/* A draw claim in a result comment, by its rule: the words engines use
 * (`{Draw by repetition}`, `{3-fold repetition}`, `{50 move rule}`,
 * `{fifty moves}`, `{Insufficient material}`). */
enum claim { C_NONE, C_REPETITION, C_FIFTY, C_MATERIAL, C_STALEMATE, C_MATE };

static enum claim
claim_of(const char *c, size_t n)
{
	if (contains_nocase(c, n, "repetition") ||
	    contains_nocase(c, n, "3-fold") ||
	    contains_nocase(c, n, "threefold"))
		return C_REPETITION;
	if (contains_nocase(c, n, "50") || contains_nocase(c, n, "fifty"))
		return C_FIFTY;
	/* Before "mate": "material" holds it. */
	if (contains_nocase(c, n, "material"))
		return C_MATERIAL;
	if (contains_nocase(c, n, "stalemate"))
		return C_STALEMATE;
	if (contains_nocase(c, n, "mate"))
		return C_MATE;
	return C_NONE;
}

/* `1-0 {White mates}`, `1/2-1/2 {Draw by repetition}`: the claims the
 * board can judge (mate, stalemate, repetition, the 50-move rule,
 * material), each wrong only when the board says so for sure: a
 * repetition with the positions since the last capture or pawn move all
 * followed, material that can mate for sure. */
static void
result(struct fb_referee *r, const char *text, size_t len, size_t start)
{
	struct fb_ref_wire *w = &r->wire[FB_REF_ENGINE];
	const char *brace = memchr(text + start, '{', len - start);
	enum fb_game_end e;
	size_t cl;
	unsigned reps;
	bool ok;

	if (!w->known || brace == NULL)
		return;
	cl = len - (size_t)(brace - text);
	switch (claim_of(brace, cl)) {
	case C_REPETITION:
		ok = (reps = fb_ref_repetitions(w)) == 0 || reps >= 3;
		break;
	case C_FIFTY:
		ok = w->pos.halfmove >= 100;
		break;
	case C_MATERIAL:
		ok = fb_ref_material(&w->pos) >= 0;
		break;
	case C_STALEMATE:
		ok = fb_moves_end(&w->pos) == FB_END_STALEMATE;
		break;
	case C_MATE:
		if (fb_proto_is(text, start, 7, "1/2-1/2"))
			return; /* "neither side can mate": no mate claim */
		e = fb_moves_end(&w->pos);
		ok = e == FB_END_CHECKMATE &&
		     fb_proto_is(text, start, 3,
				 w->pos.side == FB_WHITE ? "0-1" : "1-0");
		break;
	default:
		return;
	}
	if (!ok)
		fb_ref_find(r, FB_REF_ENGINE, FB_REF_PROTOCOL, NULL,
			    "a wrong result claim: '%.*s'",
			    (int)(len - start < 80 ? len - start : 80),
			    text + start);
}

/* Features whose value is the flag 0 or 1 (CECP "feature"). */
static bool
flag_feature(const char *text, struct fb_span k)
{
	static const char *const flags[] = {
		"ping",     "setboard",  "playother", "san",     "usermove",
		"time",     "draw",      "sigint",    "sigterm", "reuse",
		"analyze",  "colors",    "ics",       "name",    "pause",
		"nps",      "debug",     "memory",    "smp",     "exclude",
		"setscore", "highlight", "done",
	};

	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
		if (fb_span_is(text, k, flags[i]))
			return true;
	return false;
}

/* Features whose value is a string, which CECP quotes. */
static bool
string_feature(const char *text, struct fb_span k)
{
	return fb_span_is(text, k, "myname") ||
	       fb_span_is(text, k, "variants") || fb_span_is(text, k, "egt") ||
	       fb_span_is(text, k, "option");
}

static void
features(struct fb_referee *r, const char *text, size_t len)
{
	struct fb_cecp_feature f;
	size_t pos = 0;
	unsigned n = 0;
	bool valid;

	while (fb_cecp_next_feature(text, len, &pos, &f)) {
		n++;
		if (flag_feature(text, f.key)) {
			(void)fb_cecp_feature_flag(text, &f, &valid);
			if (!valid)
				fb_ref_find(
					r, FB_REF_ENGINE, FB_REF_FORMAT, NULL,
					"feature %.*s: the flag '%.*s' is "
					"not 0 or 1",
					(int)f.key.len, text + f.key.off,
					(int)f.value.len, text + f.value.off);
		} else if (string_feature(text, f.key) && !f.quoted) {
			fb_ref_find(r, FB_REF_ENGINE, FB_REF_FORMAT, NULL,
				    "feature %.*s: the string '%.*s' is not "
				    "quoted",
				    (int)f.key.len, text + f.key.off,
				    (int)f.value.len, text + f.value.off);
		}
	}
	if (n == 0)
		fb_ref_find(r, FB_REF_ENGINE, FB_REF_FORMAT, NULL,
			    "a feature line without key=value: '%.*s'",
			    (int)(len < 80 ? len : 80), text);
}

/* The engine rejected the last move given: its game goes back one move,
 * and a go or playother after the move took its side from there. */
static void
take_back(struct fb_ref_wire *w)
{
	w->pos = w->prev;
	fb_ref_hist_pop(w);
	w->last_move[0] = '\0';
	if (w->go_after != 0)
		w->engine_side = w->go_after == 1 ? w->pos.side : !w->pos.side;
	w->go_after = 0;
}

static void
reply(struct fb_referee *r, enum fb_referee_side side, bool check,
      const char *text, size_t len, uint64_t now)
{
	struct fb_ref_wire *w = &r->wire[side];
	struct fb_cecp_line l;
	long long id;

	if (check)
		fb_cecp_parse_engine(text, len, &l);
	else /* the GUI wire: only what changes the game */
		fb_cecp_parse_engine_command(text, len, &l);
	if (l.kind == FB_CECP_E_MOVE)
		engine_move(r, side, check, text, l.arg, l.form);
	else if (l.kind == FB_CECP_E_PONG &&
		 fb_cecp_parse_number(text, l.arg, &id))
		(void)fb_ref_wait_answer(r, side, id, now, "pong");
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
	switch (l.kind) {
	case FB_CECP_E_THINKING:
		thinking(r, text, &l.think);
		break;
	case FB_CECP_E_RESULT:
		result(r, text, len, l.start);
		break;
	case FB_CECP_E_ILLEGAL:
		/* Rejects the move just given, which was legal: the engine's
		 * board is not the game's. */
		if (w->known && w->last_move[0] != '\0' &&
		    fb_span_is(text, fb_span_first(text, l.arg),
			       w->last_move)) {
			fb_ref_find(r, side, FB_REF_PROTOCOL, &w->prev,
				    "'Illegal move' for the legal move %s",
				    w->last_move);
			take_back(w);
		}
		break;
	case FB_CECP_E_ERROR:
	case FB_CECP_E_INVALID:
		/* `Error (unknown command): O-O`: the move was not taken
		 * (a notation or form the engine does not read; fenbridge
		 * may send it again otherwise). No finding: the engine said
		 * so, and nothing on its board is wrong. */
		if (w->known && w->last_move[0] != '\0' &&
		    fb_cecp_rejects(text, &l, w->last_move))
			take_back(w);
		break;
	case FB_CECP_E_FEATURE:
		features(r, text, len);
		break;
	default:
		break;
	}
}

void
fb_ref_cecp_line(struct fb_referee *r, enum fb_referee_side side,
		 bool command_way, const char *text, size_t len, uint64_t now)
{
	if (command_way)
		command(r, side, side == FB_REF_GUI, text, len, now);
	else
		reply(r, side, side == FB_REF_ENGINE, text, len, now);
}
