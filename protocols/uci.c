/* SPDX-License-Identifier: MIT */
/*
 * A UCI GUI with a UCI engine (UCI spec of April 2006: "position",
 * "setoption", the Chess960 section), as state plus mapping: each line is
 * read once by the UCI codec (uci_codec.h), and every decision of castling
 * notation, FEN dialect, Chess960 mode, variant and re-anchoring is the
 * policy record's (policy.h), which this pair fills from what it reads.
 *
 * GUI -> engine: the FEN of `position fen <FEN> [moves ...]` goes into the
 * engine's dialect and castling moves into the engine's notation; the game
 * is followed so the engine's moves can be read back. A GUI resends the
 * whole game with every move: when a `position` line extends the previous
 * one, only the new moves are read, and only they are copied. `setoption
 * name UCI_Chess960` and `UCI_Variant` are kept consistent with what the
 * engine supports; `go searchmoves` moves are translated.
 *
 * An engine without Chess960 (no `option name UCI_Chess960`, or the option
 * off) speaks standard notation: fenbridge advertises the option for it,
 * sends it only the castling rights standard FEN can express (king on e1,
 * rook in the corner), and a castle it cannot read (king or rook off those
 * squares) is sent as the position after it: `position fen <after> moves
 * <the rest>` ("re-anchoring"). Its board then matches the game.
 *
 * Engine -> GUI: castling moves in `bestmove`/`ponder` and `info` (pv,
 * currmove, refutation, currline) go into the GUI's notation. An engine
 * floods its GUI with `info` lines: whether they need reading at all is
 * decided once per change of the session (struct uci: rewrite), so most
 * cost one classification.
 *
 * No I/O in this file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "normalize.h"
#include "policy.h"
#include "proto.h"
#include "uci_codec.h"

#define MAX_EDITS 8

/* The handshake, as one state: only step() changes it. */
enum uci_state {
	UCI_START,   /* the GUI has not sent uci */
	UCI_LISTING, /* uci went to the engine: its options come until uciok,
			and the GUI's lines wait (fb_pair.waiting), since
			what they mean to the engine depends on them */
	UCI_LISTED,  /* uciok came: the engine's option list is complete */
};

enum uci_event {
	UCI_EV_ASKED, /* the GUI sent uci */
	UCI_EV_UCIOK, /* the engine ended its option list */
};

/* What a position line means to the engine (the policy's answers): a
 * cached line is reused only under the same meaning. Whether the engine
 * lists UCI_Chess960 decides whether a Chess960 position switches it on
 * first (check_chess960). */
struct meaning {
	enum fb_castle_notation to; /* the engine's castling notation */
	bool standard;              /* the engine has no Chess960 mode */
	enum fb_notation dialect;   /* its FEN dialect */
	const struct fb_variant *variant;
	enum fb_support c960;
};

/*
 * The last position line and what went to the engine for it. Until a
 * re-anchor, the engine's line is the GUI's with a few edits (the FEN, a
 * castle): while there is none, same says so and out is not written; once
 * there is one, out holds the engine's line. What the engine gets so far
 * is out + text[copied..) of the line being read.
 */
struct position {
	struct fb_buf in, out;
	struct meaning meaning;
	bool same;      /* the engine gets the line as it is */
	bool in_moves;  /* its `moves` keyword was read: it may be extended */
	bool walking;   /* moves are still read: a right remains */
	bool known;     /* game is the position after the line */
	bool anchored;  /* out is `position fen <after a castle> ...` */
	bool out_moves; /* out has its `moves` keyword */
	size_t copied;
	struct fb_game game;
};

struct uci {
	const struct fb_filter_options *opt;
	struct fb_policy pol;
	enum uci_state state;
	/* UCI_Variant as the GUI set it, for a variant fenbridge does not
	 * know (pol.variant NULL): its lines pass unchanged. */
	char variant_name[32];
	/* The policy's answers now, refreshed after every line that may
	 * change them (refresh()), as position lines and the engine's flood
	 * need them: what a position means to the engine, and whether
	 * castling moves in the engine's bestmove and info lines need
	 * rewriting (the two sides spell castling differently and a right
	 * remains). */
	struct meaning now;
	enum fb_castle_notation gui_castling;
	bool rewrite;

	/* The game as the engine sees it after the GUI's last command. */
	struct fb_game game;
	bool game_known;
	struct position pos;

	/* What was said of this game (reset by ucinewgame or a new start):
	 * the log and the GUI hear of re-anchoring once per game. */
	char base[256];
	size_t base_len;
	bool told_gui, logged_anchor, logged_rights;

	struct fb_normalize norm; /* --normalize */
};

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static struct meaning
meaning_now(const struct uci *u)
{
	return (struct meaning){
		.to = fb_policy_engine_castling(&u->pol),
		.standard = fb_policy_engine_standard(&u->pol),
		.dialect = fb_policy_engine_style(&u->pol).notation,
		.variant = u->pol.variant,
		.c960 = u->pol.chess960};
}

static bool
meaning_equal(const struct meaning *a, const struct meaning *b)
{
	return a->to == b->to && a->standard == b->standard &&
	       a->dialect == b->dialect && a->variant == b->variant &&
	       a->c960 == b->c960;
}

/* After the game changed. */
static void
refresh_game(struct uci *u)
{
	u->rewrite = u->game_known && fb_game_can_castle(&u->game) &&
		     u->gui_castling != u->now.to;
}

/* After the policy record changed. */
static void
refresh(struct uci *u)
{
	u->now = meaning_now(u);
	u->gui_castling = fb_policy_gui_castling(&u->pol);
	refresh_game(u);
}

static void *
uci_new(const struct fb_filter_options *opt)
{
	struct uci *u = calloc(1, sizeof *u);

	if (u == NULL)
		return NULL;
	u->opt = opt;
	fb_policy_init(&u->pol, opt, &fb_protocol_uci, &fb_protocol_uci);
	fb_game_start(&u->game, fb_variant_normal->start);
	u->game_known = true;
	u->pos.same = true;
	fb_normalize_init(&u->norm, opt);
	refresh(u);
	return u;
}

static void
uci_free(void *state)
{
	struct uci *u = state;

	free(u->pos.in.p);
	free(u->pos.out.p);
	free(u);
}

static const struct fb_game *
uci_game(const void *state)
{
	const struct uci *u = state;

	return u->game_known ? &u->game : NULL;
}

static const char *
uci_variant(const void *state)
{
	const struct uci *u = state;

	return u->pol.variant != NULL ? u->pol.variant->name : u->variant_name;
}

/* ---- the handshake ---- */

static bool
is_chess960_option(const char *name, size_t n)
{
	return fb_proto_is_nocase(name, 0, n, "UCI_Chess960");
}

/* The one transition function of the handshake. */
static void
step(struct uci *u, enum uci_event ev, const struct fb_sink *out)
{
	switch (ev) {
	case UCI_EV_ASKED:
		if (u->state == UCI_START)
			u->state = UCI_LISTING;
		return;
	case UCI_EV_UCIOK:
		u->state = UCI_LISTED;
		/* An option not listed by now is absent. */
		if (u->pol.chess960 == FB_SUPPORT_UNKNOWN)
			u->pol.chess960 = FB_SUPPORT_ABSENT;
		fb_policy_send_uci_options(&u->pol, out);
		if (u->pol.chess960 == FB_SUPPORT_ABSENT) {
			/* python-chess refuses Chess960 with an engine that
			 * does not advertise it: fenbridge plays that part
			 * and speaks standard notation to the engine. */
			fb_proto_gui(out, "option name UCI_Chess960 type "
					  "check default false");
			fb_proto_report(out, FB_LOG_INFO,
					"the engine has no UCI_Chess960: "
					"fenbridge advertises it and "
					"translates");
		}
		return;
	}
}

/*
 * A GUI (or a person) may send setoption and position before uciok: a
 * `position ... moves e1h1` read before the engine has listed
 * UCI_Chess960 would go out as e1g1, which Stockfish in Chess960 mode
 * cannot parse. Such lines wait for uciok (the filter holds them).
 */
static bool
uci_waiting(const void *state)
{
	const struct uci *u = state;

	return u->state == UCI_LISTING;
}

/* ---- setoption ---- */

static void
set_variant(struct uci *u, const char *value, size_t n)
{
	if (n >= sizeof u->variant_name)
		n = sizeof u->variant_name - 1;
	memcpy(u->variant_name, value, n);
	u->variant_name[n] = '\0';
	u->pol.variant = fb_variant_find(value, n);
}

static void
uci_setoption(struct uci *u, const char *text, size_t len, size_t term,
	      const struct fb_sink *out)
{
	struct fb_uci_setoption s;
	struct fb_edit edit = {0};
	const struct fb_engine_option *o;
	const char *name;
	size_t nl;
	bool on;

	if (fb_uci_parse_setoption(text, len, &s) < 0) {
		out->to_engine(out->ctx, text, len + term);
		return;
	}
	name = text + s.name.off;
	nl = s.name.len;
	on = s.has_value &&
	     fb_proto_is_nocase(text, s.value.off, s.value.len, "true");
	o = fb_proto_option(u->opt, name, nl);
	if (o != NULL && (o->flags & FB_OPT_FORCED)) {
		/* The GUI still wants what it said for its side. */
		if (is_chess960_option(name, nl))
			u->pol.gui_960 = on;
		fb_proto_report(out, FB_LOG_INFO,
				"setoption for '%.*s' dropped: the config "
				"forces it to '%s'",
				(int)nl, name, o->value);
		return;
	}
	fb_normalize_setoption(&u->norm, text, &s);
	if (is_chess960_option(name, nl)) {
		u->pol.gui_960 = on;
		if (u->pol.chess960 == FB_SUPPORT_ABSENT) {
			fb_proto_report(out, FB_LOG_INFO,
					"setoption UCI_Chess960 %s kept by "
					"fenbridge: the engine has no such "
					"option and gets standard notation",
					on ? "true" : "false");
			return; /* swallowed: the engine does not know it */
		}
		/* Before uciok the engine's list is not complete: it gets
		 * the setting (an engine without the option ignores it),
		 * and whether it is in Chess960 mode is decided at uciok. */
		u->pol.engine_960 = on;
		/* Stockfish ignores a check value that is not exactly
		 * `true`/`false`; GUIs send True. */
		if (s.has_value &&
		    (on || fb_proto_is_nocase(text, s.value.off, s.value.len,
					      "false"))) {
			edit = (struct fb_edit){.off = s.value.off,
						.len = s.value.len,
						.text = on ? "true" : "false"};
			edit.tlen = strlen(edit.text);
			if (edit.tlen == edit.len &&
			    memcmp(edit.text, text + edit.off, edit.len) == 0)
				edit.len = 0;
		}
	} else if (fb_proto_is_nocase(name, 0, nl, "UCI_Variant") &&
		   s.has_value) {
		/* The engine's spelling of the variant, from its list. */
		const char *alias;
		set_variant(u, text + s.value.off, s.value.len);
		alias = fb_policy_engine_name(&u->pol, u->pol.variant);
		u->pol.engine_variant = alias != NULL ? u->pol.variant : NULL;
		if (alias != NULL &&
		    !fb_proto_is(text, s.value.off, s.value.len, alias))
			edit = (struct fb_edit){.off = s.value.off,
						.len = s.value.len,
						.text = alias,
						.tlen = strlen(alias)};
	}
	if (edit.len > 0) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"setoption: value '%.*s' sent as '%.*s'",
				(int)edit.len, text + edit.off, (int)edit.tlen,
				edit.text);
		fb_proto_emit_edited(out, FB_TO_ENGINE, text, len, term, &edit,
				     1);
		return;
	}
	out->to_engine(out->ctx, text, len + term);
}

/* ---- position ---- */

/* A new game (another start position, or ucinewgame): say it all again. */
static void
new_game(struct uci *u)
{
	u->told_gui = u->logged_anchor = u->logged_rights = false;
}

/* The engine's line so far differs from the GUI's at text[b..e): it gets
 * t[0..n) there instead. */
static void
put_edit(struct position *p, const char *text, size_t b, size_t e,
	 const char *t, size_t n)
{
	fb_proto_buf_add(&p->out, text + p->copied, b - p->copied);
	fb_proto_buf_add(&p->out, t, n);
	p->copied = e;
	p->same = false;
}

/*
 * Appends the rest of the line, text[at..len): as it is, or after a
 * re-anchor token by token, each after one blank and the `moves` keyword
 * first, as the moves read before it. The line is then fenbridge's own,
 * spelled from its tokens only: the same whether the position cache read
 * it in one piece or as a line and its extension (the GUI's blanks fall
 * elsewhere in the two). Tokens that are not moves go on as they came.
 */
static void
add_rest(struct position *p, const char *text, size_t at, size_t len)
{
	size_t pos = at, start, n;

	if (!p->anchored) {
		fb_proto_buf_add(&p->out, text + at, len - at);
		return;
	}
	while ((n = fb_token_next(text, len, &pos, &start)) > 0) {
		fb_proto_buf_add(&p->out, p->out_moves ? " " : " moves ",
				 p->out_moves ? 1 : 7);
		p->out_moves = true;
		fb_proto_buf_add(&p->out, text + start, n);
	}
}

/*
 * Restarts the engine's line as the position after a castle it cannot
 * read: the line's own bytes up to its command word (the blanks before
 * it too), then ` fen <game>` (the policy's re-anchoring FEN).
 */
static void
anchor(struct uci *u, struct position *p, const char *text, size_t word,
       size_t start, size_t n, const struct fb_sink *out)
{
	char fen[FB_GAME_FEN_MAX];
	int k = fb_policy_anchor_fen(&u->pol, &p->game, fen, sizeof fen, NULL);

	if (k < 0)
		return; /* cannot happen: the buffer fits any board */
	p->out.len = 0;
	fb_proto_buf_add(&p->out, text, word);
	fb_proto_buf_add(&p->out, " fen ", 5);
	fb_proto_buf_add(&p->out, fen, (size_t)k);
	p->same = false;
	p->anchored = true;
	p->out_moves = false;
	fb_policy_tell_anchor(&u->pol, &u->logged_anchor, &u->told_gui,
			      &p->game, text + start, n, out);
}

/*
 * Reads the moves of text from pos (the whole line or the part that extends
 * the cached one) into p, appending what the engine gets to p->out (word:
 * where the command word `position` ends). The bytes of the line are
 * copied in one piece at an edit and at the end, not token by token.
 */
static void
read_moves(struct uci *u, struct position *p, const char *text, size_t len,
	   size_t pos, size_t word, const struct fb_sink *out)
{
	size_t prev = pos, start, n;

	while ((n = fb_token_next(text, len, &pos, &start)) > 0) {
		struct fb_move m;
		char cast[8];
		int k = -1;
		bool reanchor = false;

		if (!p->in_moves) {
			p->in_moves = fb_proto_is(text, start, n, "moves");
			p->out_moves = p->in_moves && !p->anchored;
			prev = pos;
			continue;
		}
		/* Without a right no later move can castle: the rest of a
		 * long game needs no reading (p->game's board goes stale,
		 * but only a right makes anyone look at it). */
		if (!p->walking || !fb_game_can_castle(&p->game)) {
			p->walking = false;
			break;
		}
		if (fb_game_parse_move(&p->game, text + start, n, &m) < 0) {
			fb_proto_report(out, FB_LOG_WARN,
					"position: cannot follow the game at "
					"'%.*s'; later castling moves pass "
					"unchanged",
					(int)n, text + start);
			p->known = p->walking = false;
			break;
		}
		if (m.castle >= 0) {
			reanchor =
				fb_policy_must_reanchor(&u->pol, &p->game, &m);
			if (!reanchor)
				k = fb_game_print_castle(&p->game, &m,
							 p->meaning.to, cast,
							 sizeof cast);
		}
		fb_game_play(&p->game, &m);
		if (reanchor) {
			anchor(u, p, text, word, start, n, out);
		} else {
			const char *t = k > 0 ? cast : text + start;
			size_t tl = k > 0 ? (size_t)k : n;
			bool same = k <= 0 || (tl == n &&
					       memcmp(t, text + start, n) == 0);
			if (!same)
				fb_proto_report(out, FB_LOG_DEBUG,
						"position: castling '%.*s' "
						"sent as '%.*s'",
						(int)n, text + start, (int)tl,
						t);
			if (p->anchored) {
				fb_proto_buf_add(&p->out,
						 p->out_moves ? " " : " moves ",
						 p->out_moves ? 1 : 7);
				p->out_moves = true;
				fb_proto_buf_add(&p->out, t, tl);
			} else if (!same) {
				put_edit(p, text, start, pos, t, tl);
			}
		}
		prev = pos;
	}
	if (p->anchored || !p->same)
		add_rest(p, text, p->anchored ? prev : p->copied, len);
}

/*
 * Chess960 castling in a position: an engine that has the option but not
 * on (Arena sends Chess960 positions without UCI_Chess960) gets it set.
 */
static void
check_chess960(struct uci *u, const struct fb_game *g,
	       const struct fb_sink *out)
{
	if (u->pol.chess960 != FB_SUPPORT_LISTED ||
	    fb_policy_engine_960(&u->pol) || fb_game_is_standard_castling(g))
		return;
	fb_proto_engine(out, "setoption name UCI_Chess960 value true");
	u->pol.engine_960 = true;
	refresh(u);
	fb_proto_report(out, FB_LOG_INFO,
			"position has Chess960 castling: sent setoption name "
			"UCI_Chess960 value true to the engine");
}

/*
 * Reads the base of a fresh position line (`position startpos` or
 * `position fen FEN`, as the codec read it: pp) into p and p->out.
 */
static void
read_base(struct uci *u, struct position *p, const char *text,
	  const struct fb_uci_position *pp, const struct fb_sink *out)
{
	size_t b = pp->fen.off, e = b + pp->fen.len;
	struct fb_fen fen;
	char buf[1040];
	struct fb_edit edit = {0};

	if (pp->startpos) {
		fb_variant_start(u->pol.variant, &p->game);
	} else if (fb_proto_parse_fen(text, b, e, "position fen", out, &fen) <
		   0) {
		p->known = p->walking = false;
	} else {
		/* Its rules first: which rights standard notation can
		 * express depends on them (Janus's king on e). */
		fb_variant_apply(u->pol.variant, &fen.pos);
		p->game = fen.pos;
		check_chess960(u, &p->game, out);
	}
	/* Another start position: another game. */
	if (pp->base_end > sizeof u->base || u->base_len != pp->base_end ||
	    memcmp(u->base, text, pp->base_end) != 0) {
		new_game(u);
		u->base_len = pp->base_end <= sizeof u->base ? pp->base_end : 0;
		memcpy(u->base, text, u->base_len);
	}
	p->meaning = u->now; /* check_chess960 may have changed it */
	if (pp->startpos || !p->known)
		return;
	/* A right the engine cannot express is never sent to it. */
	if (p->meaning.standard && fb_game_drop_nonstandard(&fen.pos) > 0) {
		fb_policy_tell(&u->pol, &u->logged_rights, &u->told_gui, out,
			       "position fen: castling rights that standard "
			       "notation cannot express are not sent to the "
			       "engine (%.*s)",
			       (int)(e - b), text + b);
	}
	{
		struct fb_fen_style style = fb_policy_engine_style(&u->pol);
		if (fb_proto_print_fen(&fen, &style, "position fen", out, buf,
				       sizeof buf, &edit) > 0)
			put_edit(p, text, b, e, edit.text, edit.tlen);
	}
}

static void
uci_position(struct uci *u, const char *text, size_t len, size_t term,
	     size_t start, const struct fb_sink *out)
{
	struct position *p = &u->pos;
	const struct meaning *now = &u->now;
	size_t word = start + 8, pos; /* after `position` */
	struct fb_uci_position pp;

	if (!u->opt->no_position_cache && p->in_moves && p->in.len > 0 &&
	    len >= p->in.len &&
	    (len == p->in.len || is_blank(text[p->in.len])) &&
	    meaning_equal(&p->meaning, now) &&
	    memcmp(text, p->in.p, p->in.len) == 0) {
		/* The same game, maybe with more moves: what the engine got
		 * for it stands, and only the new part is read and kept. */
		pos = p->in.len;
		p->copied = p->same ? 0 : pos;
		fb_proto_buf_add(&p->in, text + pos, len - pos);
	} else {
		p->in.len = p->out.len = p->copied = 0;
		p->in.oom = p->out.oom = false;
		p->in_moves = p->anchored = p->out_moves = false;
		p->same = true;
		p->known = p->walking = u->pol.variant != NULL;
		if (u->pol.variant == NULL ||
		    fb_uci_parse_position(text, len, &pp) < 0) {
			if (u->pol.variant != NULL && pp.fen_keyword)
				fb_proto_report(out, FB_LOG_WARN,
						"position fen: no FEN on the "
						"line; passed unchanged");
			u->game_known = false;
			out->to_engine(out->ctx, text, len + term);
			return;
		}
		read_base(u, p, text, &pp, out);
		if (!u->pol.variant->follow)
			p->known = p->walking = false;
		pos = pp.base_end;
	}
	read_moves(u, p, text, len, pos, word, out);
	/* Only a line that may be extended is kept. */
	if (!p->in_moves)
		p->in.len = 0;
	else if (p->in.len == 0)
		fb_proto_buf_add(&p->in, text, len);
	u->game = p->game;
	u->game_known = p->known;
	if (p->out.oom || p->in.oom) {
		fb_proto_report(out, FB_LOG_WARN,
				"out of memory: position passed unchanged");
		p->in.len = p->out.len = 0;
		p->in_moves = false;
		p->same = true;
		u->game_known = false;
		out->to_engine(out->ctx, text, len + term);
		return;
	}
	if (p->same) {
		out->to_engine(out->ctx, text, len + term); /* one piece */
		return;
	}
	out->to_engine(out->ctx, p->out.p, p->out.len);
	out->to_engine(out->ctx, text + len, term);
}

/* ---- moves in other lines ---- */

/*
 * Rewrites the castling moves among the tokens of s of text: a sequence
 * played from *g (pv), or, with single, one move. Stops at the first token
 * that is not a move, or once no castle can follow. Returns false when the
 * first token is no move.
 */
static bool
translate_moves(struct fb_game *g, const char *text, struct fb_span s,
		bool single, enum fb_castle_notation to, struct fb_edit *edits,
		unsigned *nedits, char pool[][8], const struct fb_sink *out,
		const char *what, enum fb_level level)
{
	size_t pos = s.off, end = s.off + s.len, start, n;

	for (bool first = true;; first = false) {
		if (!fb_game_can_castle(g))
			break; /* no castling can follow */
		if ((n = fb_token_next(text, end, &pos, &start)) == 0 ||
		    *nedits == MAX_EDITS)
			break;
		if (fb_proto_move(g, text, start, n, to, &edits[*nedits],
				  pool[*nedits], out, what, level) < 0)
			return !first;
		if (edits[*nedits].len > 0)
			(*nedits)++;
		if (single)
			break;
	}
	return true;
}

static void
uci_go(struct uci *u, const char *text, size_t len, size_t term,
       const struct fb_sink *out)
{
	struct fb_edit edits[MAX_EDITS];
	char pool[MAX_EDITS][8];
	unsigned nedits = 0;
	struct fb_uci_go g;
	size_t pos, end, start, n;
	bool standard = fb_policy_engine_standard(&u->pol);

	if (!u->game_known || !fb_game_can_castle(&u->game)) {
		out->to_engine(out->ctx, text, len + term);
		return;
	}
	fb_uci_parse_go(text, len, &g);
	pos = g.searchmoves.off;
	end = g.searchmoves.off + g.searchmoves.len;
	/* Each searchmove is a move from the current position. */
	while (nedits < MAX_EDITS &&
	       (n = fb_proto_token(text, end, &pos, &start)) > 0) {
		struct fb_move m;
		struct fb_game c = u->game;
		if (fb_game_parse_move(&u->game, text + start, n, &m) < 0)
			break;
		if (m.castle >= 0 && standard &&
		    !fb_game_is_standard_castle(&u->game, &m)) {
			/* The engine would read it as another move. */
			edits[nedits++] = (struct fb_edit){
				.off = start, .len = n, .text = ""};
			fb_proto_report(out, FB_LOG_WARN,
					"go searchmoves: the castle '%.*s' "
					"cannot be written for this engine; "
					"left out",
					(int)n, text + start);
			continue;
		}
		fb_proto_move(&c, text, start, n,
			      fb_policy_engine_castling(&u->pol),
			      &edits[nedits], pool[nedits], out,
			      "go searchmoves", FB_LOG_WARN);
		if (edits[nedits].len > 0)
			nedits++;
	}
	fb_proto_emit_edited(out, FB_TO_ENGINE, text, len, term, edits, nedits);
}

static void
uci_gui_line(void *state, const char *text, size_t len, size_t term,
	     const struct fb_sink *out)
{
	struct uci *u = state;
	size_t start;

	switch (fb_uci_gui_kind(text, len, &start)) {
	case FB_UCI_G_POSITION:
		uci_position(u, text, len, term, start, out);
		refresh_game(u);
		break;
	case FB_UCI_G_SETOPTION:
		uci_setoption(u, text, len, term, out);
		refresh(u);
		break;
	case FB_UCI_G_GO:
		uci_go(u, text, len, term, out);
		break;
	case FB_UCI_G_UCINEWGAME:
		out->to_engine(out->ctx, text, len + term);
		new_game(u);
		break;
	case FB_UCI_G_UCI:
		out->to_engine(out->ctx, text, len + term);
		step(u, UCI_EV_ASKED, out);
		break;
	default:
		out->to_engine(out->ctx, text, len + term);
		break;
	}
}

/* ---- engine lines ---- */

/* `option name UCI_Chess960 ...` and `option name UCI_Variant ... var`
 * into the policy record. Returns true when the config hides the option
 * from the GUI. */
static bool
engine_option(struct uci *u, const char *text, size_t len)
{
	const struct fb_engine_option *cfg;
	struct fb_uci_option o;
	int rc = fb_uci_parse_option(text, len, &o);
	const char *name = text + o.name.off;
	struct fb_span v;
	size_t pos;

	if (o.name.len == 0)
		return false;
	cfg = fb_proto_option(u->opt, name, o.name.len);
	if (cfg != NULL && (cfg->flags & FB_OPT_HIDDEN))
		return true;
	if (is_chess960_option(name, o.name.len)) {
		u->pol.chess960 = FB_SUPPORT_LISTED;
	} else if (rc == 0 &&
		   fb_proto_is_nocase(name, 0, o.name.len, "UCI_Variant")) {
		/* Its vars, all of them: the names the engine gives the
		 * variants (a later list replaces an earlier one). */
		fb_policy_read_variants(&u->pol.variants, text, NULL, 0);
		pos = o.vars.off;
		while (o.nvars > 0 &&
		       fb_uci_option_next_var(text, len, &pos, &v))
			fb_policy_add_variant(&u->pol.variants, text + v.off,
					      v.len);
	}
	return false;
}

/* `id name NAME`: the quirk table, and the config's name instead. Returns
 * true when the line was emitted. */
static bool
engine_id(struct uci *u, const char *text, size_t len, size_t term,
	  const struct fb_sink *out)
{
	struct fb_uci_id id;
	size_t e;

	if (fb_uci_parse_id(text, len, &id) < 0 || !id.name)
		return false;
	u->pol.quirk = fb_quirk_find(text + id.value.off, id.value.len, "uci");
	if (u->pol.quirk != NULL)
		fb_proto_report(out, FB_LOG_INFO, "engine '%.*s': %s",
				(int)id.value.len, text + id.value.off,
				u->pol.quirk->why);
	if (u->opt->name == NULL)
		return false;
	/* `id name` as the engine wrote it, then the config's name */
	for (e = id.value.off; e > 0 && is_blank(text[e - 1]); e--)
		;
	out->to_gui(out->ctx, text, e);
	out->to_gui(out->ctx, " ", 1);
	out->to_gui(out->ctx, u->opt->name, strlen(u->opt->name));
	out->to_gui(out->ctx, text + len, term);
	return true;
}

/* The castles of an info line's pv, currmove, refutation and currline, in
 * the GUI's notation. Not inlined: uci_engine_line, which runs for every
 * engine line, stays small. */
static __attribute__((noinline)) void
engine_info(struct uci *u, const char *text, size_t len, size_t term,
	    const struct fb_sink *out)
{
	struct fb_edit edits[MAX_EDITS];
	char pool[MAX_EDITS][8];
	unsigned nedits = 0, order[FB_UCI_NMOVES], n = 0;
	enum fb_castle_notation to = u->gui_castling;
	struct fb_uci_info in;

	fb_uci_parse_info(text, len, &in);
	/* The fields in the order of the line: the edits must be. */
	for (unsigned f = 0; f < FB_UCI_NMOVES; f++) {
		unsigned i;
		if (in.moves[f].len == 0)
			continue;
		for (i = n++;
		     i > 0 && in.moves[order[i - 1]].off > in.moves[f].off; i--)
			order[i] = order[i - 1];
		order[i] = f;
	}
	for (unsigned i = 0; i < n; i++) {
		struct fb_game g = u->game;
		/* info lines repeat a castle many times: debug. */
		translate_moves(&g, text, in.moves[order[i]],
				order[i] == FB_UCI_CURRMOVE, to, edits, &nedits,
				pool, out, "info", FB_LOG_DEBUG);
	}
	fb_proto_emit_edited(out, FB_TO_GUI, text, len, term, edits, nedits);
}

static __attribute__((noinline)) void
engine_bestmove(struct uci *u, const char *text, size_t len, size_t term,
		const struct fb_sink *out)
{
	struct fb_edit edits[MAX_EDITS];
	char pool[MAX_EDITS][8];
	unsigned nedits = 0;
	enum fb_castle_notation to = u->gui_castling;
	struct fb_uci_bestmove b;
	struct fb_game g = u->game;

	/* The ponder move follows the best move: only when that is one. */
	if (fb_uci_parse_bestmove(text, len, &b) == 0 &&
	    translate_moves(&g, text, b.move, true, to, edits, &nedits, pool,
			    out, "bestmove", FB_LOG_WARN) &&
	    b.ponder.len > 0)
		translate_moves(&g, text, b.ponder, true, to, edits, &nedits,
				pool, out, "ponder", FB_LOG_WARN);
	fb_proto_emit_edited(out, FB_TO_GUI, text, len, term, edits, nedits);
}

/* An engine line that needs more than passing on (kind: its kind). */
static __attribute__((noinline)) void
engine_line_read(struct uci *u, enum fb_uci_engine kind, const char *text,
		 size_t len, size_t term, const struct fb_sink *out)
{
	bool done = false;

	switch (kind) {
	case FB_UCI_E_INFO:
		engine_info(u, text, len, term, out);
		return;
	case FB_UCI_E_BESTMOVE:
		engine_bestmove(u, text, len, term, out);
		return;
	case FB_UCI_E_OPTION:
		done = engine_option(u, text, len);
		if (done)
			fb_proto_report(out, FB_LOG_DEBUG,
					"option hidden from the GUI by the "
					"config");
		break;
	case FB_UCI_E_ID:
		done = engine_id(u, text, len, term, out);
		break;
	case FB_UCI_E_UCIOK:
		step(u, UCI_EV_UCIOK, out);
		break;
	default:
		break;
	}
	refresh(u);
	if (!done)
		out->to_gui(out->ctx, text, len + term);
}

/*
 * Every engine line: most pass as they are, and the test is all they
 * cost (both calls below are the function's last act, so it keeps no
 * frame of its own).
 */
static inline __attribute__((always_inline)) void
engine_line(struct uci *u, const char *text, size_t len, size_t term,
	    const struct fb_sink *out)
{
	size_t start;
	enum fb_uci_engine kind;
	bool read;

	/* The flood, as engines write it: one test of the line's start. */
	if (!u->rewrite && len > 5 && __builtin_memcmp(text, "info ", 5) == 0) {
		out->to_gui(out->ctx, text, len + term);
		return;
	}
	kind = fb_uci_engine_kind(text, len, &start);
	read = kind == FB_UCI_E_INFO || kind == FB_UCI_E_BESTMOVE
		       ? u->rewrite
		       : kind != FB_UCI_E_OTHER && kind != FB_UCI_E_READYOK;
	if (read)
		engine_line_read(u, kind, text, len, term, out);
	else
		out->to_gui(out->ctx, text, len + term);
}

/* --normalize: the line tidied first (normalize.h). */
static __attribute__((noinline)) void
engine_line_normalized(struct uci *u, const char *text, size_t len, size_t term,
		       const struct fb_sink *out)
{
	struct fb_normalize_line l = {text, len, term};

	if (fb_normalize_engine_line(&u->norm, &l, out))
		engine_line(u, l.text, l.len, l.term, out);
}

/* Without --normalize this costs one test more. */
static void
uci_engine_line(void *state, const char *text, size_t len, size_t term,
		const struct fb_sink *out)
{
	struct uci *u = state;

	if (u->norm.on)
		engine_line_normalized(u, text, len, term, out);
	else
		engine_line(u, text, len, term, out);
}

const struct fb_pair fb_pair_uci = {
	.gui = &fb_protocol_uci,
	.engine = &fb_protocol_uci,
	.state_new = uci_new,
	.state_free = uci_free,
	.gui_line = uci_gui_line,
	.engine_line = uci_engine_line,
	.game = uci_game,
	.variant = uci_variant,
	.waiting = uci_waiting,
};
