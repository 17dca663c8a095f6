/* SPDX-License-Identifier: MIT */
/*
 * A UCI GUI with a UCI engine (UCI spec of April 2006: "position",
 * "setoption", the Chess960 section).
 *
 * GUI -> engine: the FEN of `position fen <FEN> [moves ...]` goes into the
 * engine's dialect and castling moves into the engine's notation; the game
 * is followed so the engine's moves can be read back. A GUI resends the
 * whole game with every move: when a `position` line extends the previous
 * one, only the new moves are read. `setoption name UCI_Chess960` and
 * `UCI_Variant` are kept consistent with what the engine supports; `go
 * searchmoves` moves are translated.
 *
 * An engine without Chess960 (no `option name UCI_Chess960`, or the option
 * off) speaks standard notation: fenbridge advertises the option for it,
 * sends it only the castling rights standard FEN can express (king on e1,
 * rook in the corner), and a castle it cannot read (king or rook off those
 * squares) is sent as the position after it: `position fen <after> moves
 * <the rest>` ("re-anchoring"). Its board then matches the game.
 *
 * Engine -> GUI: castling moves in `bestmove`/`ponder` and `info` (pv,
 * currmove, refutation, currline) go into the GUI's notation.
 *
 * No I/O in this file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

#define MAX_EDITS 8

/* The engine's UCI_Chess960 option: known once its list ends (uciok). */
enum support {
	SUPPORT_UNKNOWN, /* uciok not seen yet */
	SUPPORT_LISTED,  /* the engine listed the option */
	SUPPORT_FAKED,   /* it did not: fenbridge advertises it */
};

/* What a position line means to the engine: a cached line is reused only
 * under the same meaning. Whether the engine lists UCI_Chess960 decides
 * whether a Chess960 position switches it on first (check_chess960). */
struct meaning {
	enum fb_castle_notation to;  /* the engine's castling notation */
	bool standard;               /* the engine has no Chess960 mode */
	enum fb_notation dialect;    /* its FEN dialect */
	const struct fb_variant *variant;
	enum support c960;
};

/* The last position line and what went to the engine for it. */
struct position {
	struct fb_buf in, out;
	struct meaning meaning;
	bool in_moves;   /* its `moves` keyword was read: it may be extended */
	bool walking;    /* moves are still read: a right remains */
	bool known;      /* game is the position after the line */
	bool anchored;   /* out is `position fen <after a castle> ...` */
	bool out_moves;  /* out has its `moves` keyword */
	struct fb_game game;
};

struct uci {
	const struct fb_filter_options *opt;
	/* The GUI sent uci, and the engine ended its answer (uciok): until
	 * then the GUI's lines wait (fb_pair.waiting), since what they mean
	 * to the engine depends on its options. */
	bool asked, answered;
	enum support c960;
	bool gui_960;    /* the GUI set UCI_Chess960 true */
	bool engine_960; /* UCI_Chess960 is true in the engine */
	char *vars;      /* the engine's UCI_Variant `var` list, or NULL */
	const struct fb_quirk *quirk;
	/* UCI_Variant as the GUI set it (normal by default); NULL for a
	 * variant fenbridge does not know: its lines pass unchanged. */
	const struct fb_variant *variant;
	char variant_name[32];
	/* The variant is a random one (chess960) that the engine lists in
	 * its UCI_Variant: selecting it is Chess960 mode (cutechess does
	 * that for Fairy-Stockfish instead of UCI_Chess960). */
	bool engine_variant_960;

	/* The game as the engine sees it after the GUI's last command. */
	struct fb_game game;
	bool game_known;
	struct position pos;

	/* What was said of this game (reset by ucinewgame or a new start):
	 * the log and the GUI hear of re-anchoring once per game. */
	char base[256];
	size_t base_len;
	bool told_gui, logged_anchor, logged_rights;
};

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The engine is in Chess960 mode: UCI_Chess960 on, or a random variant
 * it lists selected through UCI_Variant. */
static bool
engine_in_960(const struct uci *u)
{
	return (u->c960 == SUPPORT_LISTED && u->engine_960) ||
	       u->engine_variant_960;
}

/* The engine is known to speak standard notation only: it has no
 * UCI_Chess960 (fenbridge advertises it), or has it off. Before its option
 * list ends nothing is known: FENs keep every right. */
static bool
engine_standard(const struct uci *u)
{
	return !engine_in_960(u) && u->c960 != SUPPORT_UNKNOWN;
}

static enum fb_castle_notation
engine_notation(const struct uci *u)
{
	if (u->opt->engine_castling != FB_CASTLE_AUTO)
		return u->opt->engine_castling;
	return engine_in_960(u) ? FB_CASTLE_KXR : FB_CASTLE_KING;
}

/* The GUI plays Chess960: it set UCI_Chess960, or a random UCI_Variant. */
static enum fb_castle_notation
gui_notation(const struct uci *u)
{
	if (u->opt->gui_castling != FB_CASTLE_AUTO)
		return u->opt->gui_castling;
	return u->gui_960 || (u->variant != NULL && u->variant->random)
		       ? FB_CASTLE_KXR
		       : FB_CASTLE_KING;
}

static enum fb_notation
engine_dialect(const struct uci *u)
{
	if (u->opt->engine_fen_auto && u->quirk != NULL &&
	    u->quirk->shredder_fen)
		return FB_SHREDDER;
	return u->opt->engine_fen;
}

static struct meaning
meaning_now(const struct uci *u)
{
	return (struct meaning){.to = engine_notation(u),
				.standard = engine_standard(u),
				.dialect = engine_dialect(u),
				.variant = u->variant,
				.c960 = u->c960};
}

static bool
meaning_equal(const struct meaning *a, const struct meaning *b)
{
	return a->to == b->to && a->standard == b->standard &&
	       a->dialect == b->dialect && a->variant == b->variant &&
	       a->c960 == b->c960;
}

static struct fb_fen_style
engine_style(const struct uci *u)
{
	return (struct fb_fen_style){
		.notation = engine_dialect(u),
		.prefix = u->variant != NULL ? u->variant->prefix : 0};
}

static void *
uci_new(const struct fb_filter_options *opt)
{
	struct uci *u = calloc(1, sizeof *u);

	if (u == NULL)
		return NULL;
	u->opt = opt;
	u->variant = fb_variant_normal;
	fb_game_start(&u->game, fb_variant_normal->start);
	u->game_known = true;
	return u;
}

static void
uci_free(void *state)
{
	struct uci *u = state;

	free(u->pos.in.p);
	free(u->pos.out.p);
	free(u->vars);
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

	return u->variant != NULL ? u->variant->name : u->variant_name;
}

/* ---- setoption ---- */

/* Splits `setoption name N... [value V...]`: returns false if not one. */
static bool
parse_setoption(const char *text, size_t len, size_t *name_b, size_t *name_e,
		size_t *val_b, size_t *val_e)
{
	size_t pos = 0, start, n;

	n = fb_proto_token(text, len, &pos, &start);
	if (!fb_proto_is(text, start, n, "setoption"))
		return false;
	n = fb_proto_token(text, len, &pos, &start);
	if (!fb_proto_is(text, start, n, "name"))
		return false;
	*name_b = *name_e = *val_b = *val_e = 0;
	while ((n = fb_proto_token(text, len, &pos, &start)) > 0) {
		if (fb_proto_is(text, start, n, "value")) {
			fb_proto_token(text, len, &pos, &start);
			*val_b = start;
			*val_e = len;
			while (*val_e > *val_b && is_blank(text[*val_e - 1]))
				(*val_e)--;
			break;
		}
		if (*name_b == 0)
			*name_b = start;
		*name_e = start + n;
	}
	return *name_b != 0;
}

/*
 * The name the engine lists for the variant value[0..n): the first of the
 * variant's names (from the variant table) found after `var` in the
 * engine's UCI_Variant option. Returns NULL when it lists none of them.
 */
static const char *
engine_variant_name(const struct uci *u, const struct fb_variant *v,
		    size_t *out_len)
{
	size_t vl = strlen(u->vars);
	size_t pos = 0, start, k;
	bool after_var = false;

	while ((k = fb_proto_token(u->vars, vl, &pos, &start)) > 0) {
		if (after_var && fb_variant_find(u->vars + start, k) == v) {
			*out_len = k;
			return u->vars + start;
		}
		after_var = fb_proto_is(u->vars, start, k, "var");
	}
	return NULL;
}

static bool
is_chess960_option(const char *name, size_t n)
{
	return fb_proto_is_nocase(name, 0, n, "UCI_Chess960");
}

static void
set_variant(struct uci *u, const char *value, size_t n)
{
	if (n >= sizeof u->variant_name)
		n = sizeof u->variant_name - 1;
	memcpy(u->variant_name, value, n);
	u->variant_name[n] = '\0';
	u->variant = fb_variant_find(value, n);
}

static void
uci_setoption(struct uci *u, const char *text, size_t len, size_t term,
	      const struct fb_sink *out)
{
	size_t nb, ne, vb, ve;
	struct fb_edit edit = {0};
	const struct fb_engine_option *o;
	const char *name;
	bool on;

	if (!parse_setoption(text, len, &nb, &ne, &vb, &ve)) {
		out->to_engine(out->ctx, text, len + term);
		return;
	}
	name = text + nb;
	on = vb > 0 && fb_proto_is_nocase(text, vb, ve - vb, "true");
	o = fb_proto_option(u->opt, name, ne - nb);
	if (o != NULL && (o->flags & FB_OPT_FORCED)) {
		/* The GUI still wants what it said for its side. */
		if (is_chess960_option(name, ne - nb))
			u->gui_960 = on;
		fb_proto_report(out, FB_LOG_INFO,
				"setoption for '%.*s' dropped: the config "
				"forces it to '%s'", (int)(ne - nb), name,
				o->value);
		return;
	}
	if (is_chess960_option(name, ne - nb)) {
		u->gui_960 = on;
		if (u->c960 == SUPPORT_FAKED) {
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
		u->engine_960 = on;
		/* Stockfish ignores a check value that is not exactly
		 * `true`/`false`; GUIs send True. */
		if (vb > 0 &&
		    (on || fb_proto_is_nocase(text, vb, ve - vb, "false"))) {
			edit = (struct fb_edit){.off = vb, .len = ve - vb,
						.text = on ? "true" : "false"};
			edit.tlen = strlen(edit.text);
			if (edit.tlen == edit.len &&
			    memcmp(edit.text, text + vb, edit.len) == 0)
				edit.len = 0;
		}
	} else if (fb_proto_is_nocase(name, 0, ne - nb, "UCI_Variant") &&
		   vb > 0) {
		size_t alen;
		const char *alias = NULL;
		set_variant(u, text + vb, ve - vb);
		if (u->vars != NULL && u->variant != NULL)
			alias = engine_variant_name(u, u->variant, &alen);
		u->engine_variant_960 = alias != NULL && u->variant->random;
		if (alias != NULL &&
		    (alen != ve - vb || memcmp(alias, text + vb, alen) != 0))
			edit = (struct fb_edit){.off = vb, .len = ve - vb,
						.text = alias, .tlen = alen};
	}
	if (edit.len > 0) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"setoption: value '%.*s' sent as '%.*s'",
				(int)edit.len, text + edit.off, (int)edit.tlen,
				edit.text);
		fb_proto_emit_edited(out, FB_TO_ENGINE, text, len, term, &edit, 1);
		return;
	}
	out->to_engine(out->ctx, text, len + term);
}

/* ---- position ---- */

/*
 * Says what fenbridge does for an engine without Chess960: in the log at
 * info level once per game (*logged), at debug level after that; to the
 * GUI once per game.
 */
static void
say_once(struct uci *u, bool *logged, const struct fb_sink *out,
	 const char *msg)
{
	fb_proto_report(out, *logged ? FB_LOG_DEBUG : FB_LOG_INFO, "%s", msg);
	*logged = true;
	if (!u->told_gui) {
		u->told_gui = true;
		fb_proto_gui(out,
			       "info string fenbridge: the engine has no "
			       "Chess960 castling; it gets only the castling "
			       "rights standard FEN can express, and a castle "
			       "it cannot read as the position after it");
	}
}

/* A new game (another start position, or ucinewgame): say it all again. */
static void
new_game(struct uci *u)
{
	u->told_gui = u->logged_anchor = u->logged_rights = false;
}

/* Appends the tokens of text[at..len) as they are. After a re-anchor the
 * `moves` keyword comes first. */
static void
add_rest(struct position *p, const char *text, size_t at, size_t len)
{
	size_t pos = at, start;

	if (at >= len)
		return;
	if (p->anchored && !p->out_moves &&
	    fb_proto_token(text, len, &pos, &start) > 0) {
		fb_proto_buf_add(&p->out, " moves", 6);
		p->out_moves = true;
	}
	fb_proto_buf_add(&p->out, text + at, len - at);
}

/* Restarts the output as the position after a castle the engine cannot
 * read: `position fen <game>`. */
static void
anchor(struct uci *u, struct position *p, const char *text, size_t start,
       size_t n, const struct fb_sink *out)
{
	struct fb_fen_style style = engine_style(u);
	struct fb_game g = p->game;
	char fen[FB_GAME_FEN_MAX], msg[400];
	int k;

	if (p->meaning.standard)
		fb_game_drop_nonstandard(&g);
	k = fb_game_print_fen(&g, &style, fen, sizeof fen);
	if (k < 0)
		return; /* cannot happen: the buffer fits any board */
	p->out.len = 0;
	fb_proto_buf_add(&p->out, "position fen ", 13);
	fb_proto_buf_add(&p->out, fen, (size_t)k);
	p->anchored = true;
	p->out_moves = false;
	snprintf(msg, sizeof msg,
		 "position: re-anchored: the castle '%.*s' cannot be written "
		 "in the engine's notation; it gets the position after it "
		 "(%.*s) and the moves after that", (int)n, text + start, k,
		 fen);
	say_once(u, &u->logged_anchor, out, msg);
}

/*
 * Reads the moves of text from pos (the whole line or the part that extends
 * the cached one) into p, appending what the engine gets to p->out.
 *
 * Until a re-anchor, what the engine gets is the line itself but for the
 * castles rewritten: p->out + text[copied..prev) is the output so far, and
 * the bytes of the line are copied in one piece at an edit and at the end,
 * not token by token.
 */
static void
read_moves(struct uci *u, struct position *p, const char *text, size_t len,
	   size_t pos, const struct fb_sink *out)
{
	size_t prev = pos, copied = pos, start, n;

	while ((n = fb_proto_token(text, len, &pos, &start)) > 0) {
		struct fb_move m;
		char cast[8];
		int k = -1;

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
					"unchanged", (int)n, text + start);
			p->known = p->walking = false;
			break;
		}
		if (m.castle >= 0 &&
		    (!p->meaning.standard ||
		     fb_game_is_standard_castle(&p->game, &m)))
			k = fb_game_print_castle(&p->game, &m, p->meaning.to,
						 cast, sizeof cast);
		fb_game_play(&p->game, &m);
		if (m.castle >= 0 && k < 0) {
			anchor(u, p, text, start, n, out);
		} else {
			const char *t = k > 0 ? cast : text + start;
			size_t tl = k > 0 ? (size_t)k : n;
			bool same = k <= 0 ||
				    (tl == n && memcmp(t, text + start, n) == 0);
			if (!same)
				fb_proto_report(out, FB_LOG_DEBUG,
						"position: castling '%.*s' "
						"sent as '%.*s'", (int)n,
						text + start, (int)tl, t);
			if (p->anchored) {
				fb_proto_buf_add(&p->out, p->out_moves ? " " : " moves ",
					p->out_moves ? 1 : 7);
				p->out_moves = true;
				fb_proto_buf_add(&p->out, t, tl);
			} else if (!same) {
				fb_proto_buf_add(&p->out, text + copied, start - copied);
				fb_proto_buf_add(&p->out, t, tl);
				copied = pos;
			}
		}
		prev = pos;
	}
	add_rest(p, text, p->anchored ? prev : copied, len);
}

/*
 * Chess960 castling in a position: an engine that has the option but not
 * on (Arena sends Chess960 positions without UCI_Chess960) gets it set.
 */
static void
check_chess960(struct uci *u, const struct fb_game *g,
	       const struct fb_sink *out)
{
	if (fb_game_is_standard_castling(g) || u->c960 != SUPPORT_LISTED ||
	    engine_in_960(u))
		return;
	fb_proto_engine(out, "setoption name UCI_Chess960 value true");
	u->engine_960 = true;
	fb_proto_report(out, FB_LOG_INFO,
			"position has Chess960 castling: sent setoption name "
			"UCI_Chess960 value true to the engine");
}

/*
 * Reads the base of a fresh position line (`position startpos` or
 * `position fen FEN`) into p and p->out. Returns the offset where moves may
 * start, or 0 when the line is not understood (it passes unchanged).
 */
static size_t
read_base(struct uci *u, struct position *p, const char *text, size_t len,
	  const struct fb_sink *out)
{
	size_t pos = 0, start, n, b = 0, e = 0, base_end;
	struct fb_fen fen;
	char buf[1040];
	struct fb_edit edit = {0};

	fb_proto_token(text, len, &pos, &start); /* position */
	n = fb_proto_token(text, len, &pos, &start);
	if (fb_proto_is(text, start, n, "startpos")) {
		fb_game_start(&p->game, fb_variant_start_row(u->variant));
		base_end = pos;
	} else if (fb_proto_is(text, start, n, "fen")) {
		while ((n = fb_proto_token(text, len, &pos, &start)) > 0 &&
		       !fb_proto_is(text, start, n, "moves")) {
			if (b == 0)
				b = start;
			e = start + n;
		}
		if (n > 0)
			pos = start; /* moves is read by read_moves */
		if (b == 0) {
			fb_proto_report(out, FB_LOG_WARN,
					"position fen: no FEN on the line; "
					"passed unchanged");
			return 0;
		}
		base_end = e;
		if (fb_proto_parse_fen(text, b, e, "position fen", out, &fen) <
		    0) {
			p->known = p->walking = false;
		} else {
			p->game = fen.pos;
			check_chess960(u, &p->game, out);
		}
	} else {
		return 0;
	}
	/* Another start position: another game. */
	if (base_end > sizeof u->base || u->base_len != base_end ||
	    memcmp(u->base, text, base_end) != 0) {
		new_game(u);
		u->base_len = base_end <= sizeof u->base ? base_end : 0;
		memcpy(u->base, text, u->base_len);
	}
	p->meaning = meaning_now(u);
	if (b == 0 || !p->known) {
		fb_proto_buf_add(&p->out, text, pos);
		return pos;
	}
	/* A right the engine cannot express is never sent to it. */
	if (p->meaning.standard && fb_game_drop_nonstandard(&fen.pos) > 0) {
		char msg[400];
		snprintf(msg, sizeof msg,
			 "position fen: castling rights that standard notation "
			 "cannot express are not sent to the engine (%.*s)",
			 (int)(e - b), text + b);
		say_once(u, &u->logged_rights, out, msg);
	}
	{
		struct fb_fen_style style = engine_style(u);
		int rc = fb_proto_print_fen(&fen, &style, "position fen", out,
					    buf, sizeof buf, &edit);
		fb_proto_buf_add(&p->out, text, b);
		if (rc > 0)
			fb_proto_buf_add(&p->out, edit.text, edit.tlen);
		else
			fb_proto_buf_add(&p->out, text + b, e - b);
		fb_proto_buf_add(&p->out, text + e, pos - e);
	}
	return pos;
}

static void
uci_position(struct uci *u, const char *text, size_t len, size_t term,
	     const struct fb_sink *out)
{
	struct position *p = &u->pos;
	struct meaning now = meaning_now(u);
	size_t pos;

	if (!u->opt->no_position_cache && p->in_moves && p->in.len > 0 &&
	    len >= p->in.len &&
	    (len == p->in.len || is_blank(text[p->in.len])) &&
	    meaning_equal(&p->meaning, &now) &&
	    memcmp(text, p->in.p, p->in.len) == 0) {
		pos = p->in.len; /* the same game, maybe with more moves */
	} else {
		p->in.len = p->out.len = 0;
		p->in.oom = p->out.oom = false;
		p->in_moves = p->anchored = p->out_moves = false;
		p->known = p->walking = u->variant != NULL;
		if (u->variant == NULL ||
		    (pos = read_base(u, p, text, len, out)) == 0) {
			u->game_known = false;
			out->to_engine(out->ctx, text, len + term);
			return;
		}
		if (!u->variant->follow)
			p->known = p->walking = false;
	}
	read_moves(u, p, text, len, pos, out);
	p->in.len = 0;
	fb_proto_buf_add(&p->in, text, len);
	u->game = p->game;
	u->game_known = p->known;
	if (p->out.oom || p->in.oom) {
		fb_proto_report(out, FB_LOG_WARN,
				"out of memory: position passed unchanged");
		p->in.len = p->out.len = 0;
		p->in_moves = false;
		u->game_known = false;
		out->to_engine(out->ctx, text, len + term);
		return;
	}
	if (p->out.len == len && memcmp(p->out.p, text, len) == 0) {
		out->to_engine(out->ctx, text, len + term); /* unchanged: one piece */
		return;
	}
	out->to_engine(out->ctx, p->out.p, p->out.len);
	out->to_engine(out->ctx, text + len, term);
}

/* ---- moves in other lines ---- */

/*
 * Rewrites the castling moves among tokens from *pos of text: a sequence
 * played from *g (pv), or, with single, one move. Stops at the first token
 * that is not a move and leaves *pos before it.
 */
static void
translate_moves(struct fb_game *g, const char *text, size_t len, size_t *pos,
		bool single, enum fb_castle_notation to, struct fb_edit *edits,
		unsigned *nedits, char pool[][8], const struct fb_sink *out,
		const char *what, enum fb_level level)
{
	size_t start, n, before;

	for (;;) {
		before = *pos;
		if (!fb_game_can_castle(g))
			break; /* no castling can follow */
		if ((n = fb_proto_token(text, len, pos, &start)) == 0 ||
		    *nedits == MAX_EDITS)
			break;
		if (fb_proto_move(g, text, start, n, to, &edits[*nedits],
				  pool[*nedits], out, what, level) < 0) {
			*pos = before;
			break;
		}
		if (edits[*nedits].len > 0)
			(*nedits)++;
		if (single)
			break;
	}
}

static void
uci_go(struct uci *u, const char *text, size_t len, size_t term,
       const struct fb_sink *out)
{
	struct fb_edit edits[MAX_EDITS];
	char pool[MAX_EDITS][8];
	unsigned nedits = 0;
	size_t pos = 0, start, n;
	bool standard = engine_standard(u);

	while (u->game_known && fb_game_can_castle(&u->game) &&
	       (n = fb_proto_token(text, len, &pos, &start)) > 0) {
		if (!fb_proto_is(text, start, n, "searchmoves"))
			continue;
		/* Each searchmove is a move from the current position. */
		while ((n = fb_proto_token(text, len, &pos, &start)) > 0 &&
		       nedits < MAX_EDITS) {
			struct fb_move m;
			if (fb_game_parse_move(&u->game, text + start, n, &m) <
			    0) {
				pos = start;
				break;
			}
			if (m.castle >= 0 && standard &&
			    !fb_game_is_standard_castle(&u->game, &m)) {
				/* The engine would read it as another move. */
				edits[nedits++] = (struct fb_edit){
					.off = start, .len = n, .text = ""};
				fb_proto_report(out, FB_LOG_WARN,
						"go searchmoves: the castle "
						"'%.*s' cannot be written for "
						"this engine; left out",
						(int)n, text + start);
				continue;
			}
			{
				struct fb_game g = u->game;
				fb_proto_move(&g, text, start, n,
					      engine_notation(u),
					      &edits[nedits], pool[nedits],
					      out, "go searchmoves",
					      FB_LOG_WARN);
				if (edits[nedits].len > 0)
					nedits++;
			}
		}
	}
	fb_proto_emit_edited(out, FB_TO_ENGINE, text, len, term, edits, nedits);
}

static void
uci_gui_line(void *state, const char *text, size_t len, size_t term,
	     const struct fb_sink *out)
{
	struct uci *u = state;
	size_t pos = 0, start, n;

	n = fb_proto_token(text, len, &pos, &start);
	if (fb_proto_is(text, start, n, "position")) {
		uci_position(u, text, len, term, out);
		return;
	}
	if (fb_proto_is(text, start, n, "setoption")) {
		uci_setoption(u, text, len, term, out);
		return;
	}
	if (fb_proto_is(text, start, n, "go"))
		uci_go(u, text, len, term, out);
	else
		out->to_engine(out->ctx, text, len + term);
	if (fb_proto_is(text, start, n, "ucinewgame"))
		new_game(u);
	else if (fb_proto_is(text, start, n, "uci"))
		u->asked = true;
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

	return u->asked && !u->answered;
}

/* ---- engine lines ---- */

/* `option name UCI_Chess960 ...` and `option name UCI_Variant ... var`.
 * Returns true when the config hides the option from the GUI. */
static bool
engine_option(struct uci *u, const char *text, size_t len)
{
	const struct fb_engine_option *o;
	size_t pos = 0, start, n, nb = 0, ne = 0, p2;

	fb_proto_token(text, len, &pos, &start);
	n = fb_proto_token(text, len, &pos, &start);
	if (!fb_proto_is(text, start, n, "name"))
		return false;
	p2 = pos;
	while ((n = fb_proto_token(text, len, &p2, &start)) > 0 &&
	       !fb_proto_is(text, start, n, "type")) {
		if (nb == 0)
			nb = start;
		ne = start + n;
	}
	o = nb > 0 ? fb_proto_option(u->opt, text + nb, ne - nb) : NULL;
	if (o != NULL && (o->flags & FB_OPT_HIDDEN))
		return true;
	n = fb_proto_token(text, len, &pos, &start);
	if (fb_proto_is_nocase(text, start, n, "UCI_Chess960")) {
		u->c960 = SUPPORT_LISTED;
	} else if (fb_proto_is_nocase(text, start, n, "UCI_Variant")) {
		free(u->vars);
		u->vars = malloc(len - pos + 1);
		if (u->vars != NULL) {
			memcpy(u->vars, text + pos, len - pos);
			u->vars[len - pos] = '\0';
		}
	}
	return false;
}

/* After the handshake, before the GUI's own: the config's options. */
static void
send_config_options(struct uci *u, const struct fb_sink *out)
{
	for (size_t i = 0; i < u->opt->noptions; i++) {
		const struct fb_engine_option *o = &u->opt->options[i];
		if (!(o->flags & FB_OPT_SET))
			continue;
		if (is_chess960_option(o->name, strlen(o->name))) {
			if (u->c960 != SUPPORT_LISTED)
				continue; /* fenbridge plays that part */
			u->engine_960 = fb_proto_is_nocase(
				o->value, 0, strlen(o->value), "true");
		}
		if (o->value[0] != '\0')
			fb_proto_engine(out, "setoption name %s value %s",
				       o->name, o->value);
		else
			fb_proto_engine(out, "setoption name %s", o->name);
	}
}

/* Not inlined: uci_engine_line, which runs for every engine line, stays
 * small. */
static __attribute__((noinline)) void
engine_moves(struct uci *u, const char *text, size_t len, size_t term,
	     bool bestmove, const struct fb_sink *out)
{
	struct fb_edit edits[MAX_EDITS];
	char pool[MAX_EDITS][8];
	unsigned nedits = 0;
	enum fb_castle_notation to = gui_notation(u);
	size_t pos = 0, start, n;
	struct fb_game g;

	fb_proto_token(text, len, &pos, &start);
	if (bestmove) {
		g = u->game;
		translate_moves(&g, text, len, &pos, true, to, edits, &nedits,
				pool, out, "bestmove", FB_LOG_WARN);
		n = fb_proto_token(text, len, &pos, &start);
		if (fb_proto_is(text, start, n, "ponder"))
			translate_moves(&g, text, len, &pos, true, to, edits,
					&nedits, pool, out, "ponder",
					FB_LOG_WARN);
	} else {
		while ((n = fb_proto_token(text, len, &pos, &start)) > 0) {
			bool single = fb_proto_is(text, start, n, "currmove");
			if (fb_proto_is(text, start, n, "string"))
				break; /* free text to the end of the line */
			if (fb_proto_is(text, start, n, "currline")) {
				size_t p2 = pos, s2;
				size_t k = fb_proto_token(text, len, &p2, &s2);
				if (k > 0 && text[s2] >= '0' && text[s2] <= '9')
					pos = p2; /* the optional cpunr */
			} else if (!single &&
				   !fb_proto_is(text, start, n, "pv") &&
				   !fb_proto_is(text, start, n, "refutation")) {
				continue;
			}
			g = u->game;
			/* info lines repeat a castle many times: debug. */
			translate_moves(&g, text, len, &pos, single, to, edits,
					&nedits, pool, out, "info",
					FB_LOG_DEBUG);
		}
	}
	fb_proto_emit_edited(out, FB_TO_GUI, text, len, term, edits, nedits);
}

/* `id name NAME`: the quirk table, and the config's name instead. Returns
 * true when the line was emitted. */
static bool
engine_id(struct uci *u, const char *text, size_t len, size_t term,
	  size_t pos, const struct fb_sink *out)
{
	size_t s2, n = fb_proto_token(text, len, &pos, &s2), nb;

	if (!fb_proto_is(text, s2, n, "name"))
		return false;
	nb = s2 + n;
	while (nb < len && is_blank(text[nb]))
		nb++;
	u->quirk = fb_quirk_find(text + nb, len - nb, "uci");
	if (u->quirk != NULL)
		fb_proto_report(out, FB_LOG_INFO, "engine '%.*s': %s",
				(int)(len - nb), text + nb, u->quirk->why);
	if (u->opt->name == NULL)
		return false;
	out->to_gui(out->ctx, text, s2 + n);
	out->to_gui(out->ctx, " ", 1);
	out->to_gui(out->ctx, u->opt->name, strlen(u->opt->name));
	out->to_gui(out->ctx, text + len, term);
	return true;
}

/* The first token of a line, at start, is word: what fb_proto_token and
 * fb_proto_is would say, without splitting the line. */
static bool
first_is(const char *text, size_t len, size_t start, const char *word)
{
	size_t k = __builtin_strlen(word);

	return len - start >= k && __builtin_memcmp(text + start, word, k) == 0 &&
	       (len - start == k || is_blank(text[start + k]));
}

/* Castling moves in the engine's bestmove/info need rewriting: the two
 * sides spell castling differently, and a right remains. */
static bool
engine_castling_differs(const struct uci *u)
{
	return gui_notation(u) != engine_notation(u) && u->game_known &&
	       fb_game_can_castle(&u->game);
}

/*
 * Dispatches on the first byte of the first token: an engine floods its GUI
 * with `info` lines, and most lines need nothing, so a line is only split
 * into tokens where a case below needs it.
 */
static void
uci_engine_line(void *state, const char *text, size_t len, size_t term,
		const struct fb_sink *out)
{
	struct uci *u = state;
	size_t start = 0;

	while (start < len && is_blank(text[start]))
		start++;
	if (start == len) {
		out->to_gui(out->ctx, text, len + term);
		return;
	}
	switch (text[start]) {
	case 'b':
		if (engine_castling_differs(u) &&
		    first_is(text, len, start, "bestmove")) {
			engine_moves(u, text, len, term, true, out);
			return;
		}
		break;
	case 'o':
		if (first_is(text, len, start, "option") &&
		    engine_option(u, text, len)) {
			fb_proto_report(out, FB_LOG_DEBUG,
					"option hidden from the GUI by the "
					"config");
			return;
		}
		break;
	case 'i':
		if (first_is(text, len, start, "info")) {
			if (engine_castling_differs(u)) {
				engine_moves(u, text, len, term, false, out);
				return;
			}
			break;
		}
		if (first_is(text, len, start, "id") &&
		    engine_id(u, text, len, term, start + 2, out))
			return;
		break;
	case 'u':
		if (!first_is(text, len, start, "uciok"))
			break;
		u->answered = true;
		if (u->c960 == SUPPORT_UNKNOWN)
			u->c960 = SUPPORT_FAKED;
		send_config_options(u, out);
		if (u->c960 == SUPPORT_FAKED) {
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
		break;
	}
	out->to_gui(out->ctx, text, len + term);
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
