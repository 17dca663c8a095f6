/* SPDX-License-Identifier: MIT */
/*
 * UCI (spec of April 2006, "position", "setoption", Chess960 section).
 *
 * GUI -> engine: the FEN of `position fen <FEN> [moves ...]` goes into the
 * engine's dialect and castling moves into the engine's notation; the game
 * is followed so the engine's moves can be read back. A GUI resends the whole
 * game with every move: when a `position` line extends the previous one, only
 * the new moves are read. `setoption name UCI_Chess960` and `UCI_Variant` are
 * kept consistent with what the engine supports; `go searchmoves` moves are
 * translated.
 *
 * Engine -> GUI: castling moves in `bestmove`/`ponder` and `info` (pv,
 * currmove, refutation, currline) go into the GUI's notation. For an engine
 * without `option name UCI_Chess960`, fenbridge advertises the option itself
 * and speaks standard notation to the engine.
 *
 * No I/O in this file.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fenbridge/filter.h"

#define MAX_EDITS 8
#define FEN_BUF 1040

struct fb_uci_position {
	char *line; /* the last position line, without terminator */
	size_t len, cap;
	bool in_moves; /* its `moves` keyword was read: it may be extended */
	bool known;    /* the game could be followed to its end */
	int notation;  /* engine castling notation its edits were made for */
	enum fb_notation dialect;
	unsigned epoch; /* f->uci_epoch it was read under */
	struct fb_game game; /* the position after it */
	struct fb_edit edits[MAX_EDITS];
	unsigned nedits;
	char pool[MAX_EDITS][8];
	char fen[FEN_BUF];
};

/* Variant names that mean the same game, first the usual UCI_Variant. */
static const char *const variant_aliases[][4] = {
	{"chess", "normal", "standard", NULL},
	{"chess960", "fischerandom", "frc", "960"},
	{"caparandom", "capablancarandom", "crc", NULL},
};

/* UCI_Variant values whose castling fenbridge follows ("" = not set). */
static bool
variant_followed(const char *v)
{
	static const char *const ok[] = {"",           "chess",      "normal",
					 "standard",   "chess960",   "fischerandom",
					 "frc",        "960",        "capablanca",
					 "caparandom", "capablancarandom",
					 "crc",        "gothic",     "embassy"};

	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
		if (strcasecmp(v, ok[i]) == 0)
			return true;
	return false;
}

/* The start position `position startpos` means under UCI_Variant v. */
static const char *
variant_start(const char *v)
{
	if (strcasecmp(v, "capablanca") == 0)
		return FB_GAME_CAPABLANCA;
	if (strcasecmp(v, "gothic") == 0)
		return FB_GAME_GOTHIC;
	return FB_GAME_NORMAL;
}

static enum fb_castle_notation
engine_notation(const struct fb_filter *f)
{
	if (f->opt.engine_castling != FB_CASTLE_AUTO)
		return f->opt.engine_castling;
	return f->engine_has_960 && f->engine_960 ? FB_CASTLE_KXR
						  : FB_CASTLE_KING;
}

static enum fb_castle_notation
gui_notation(const struct fb_filter *f)
{
	if (f->opt.gui_castling != FB_CASTLE_AUTO)
		return f->opt.gui_castling;
	return f->gui_960 ? FB_CASTLE_KXR : FB_CASTLE_KING;
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool
token_is_nocase(const char *text, size_t start, size_t n, const char *word)
{
	return strlen(word) == n && strncasecmp(text + start, word, n) == 0;
}

/* Splits `setoption name N... [value V...]`: returns false if not one. */
static bool
parse_setoption(const char *text, size_t len, size_t *name_b, size_t *name_e,
		size_t *val_b, size_t *val_e)
{
	size_t pos = 0, start, n;

	n = fb_filter_token(text, len, &pos, &start);
	if (!fb_filter_is(text, start, n, "setoption"))
		return false;
	n = fb_filter_token(text, len, &pos, &start);
	if (!fb_filter_is(text, start, n, "name"))
		return false;
	*name_b = *name_e = *val_b = *val_e = 0;
	while ((n = fb_filter_token(text, len, &pos, &start)) > 0) {
		if (fb_filter_is(text, start, n, "value")) {
			fb_filter_token(text, len, &pos, &start);
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

/* Finds value (or an alias of it) in the engine's `var` list. */
static const char *
engine_variant(const struct fb_filter *f, const char *value, size_t n,
	       size_t *out_len)
{
	const char *vars = f->engine_vars;

	for (size_t g = 0; g < sizeof variant_aliases / sizeof variant_aliases[0];
	     g++) {
		bool in_group = false;
		for (int a = 0; a < 4 && variant_aliases[g][a] != NULL; a++)
			if (strlen(variant_aliases[g][a]) == n &&
			    strncasecmp(variant_aliases[g][a], value, n) == 0)
				in_group = true;
		if (!in_group)
			continue;
		for (int a = 0; a < 4 && variant_aliases[g][a] != NULL; a++) {
			size_t pos = 0, start, k, al = strlen(variant_aliases[g][a]);
			size_t vl = strlen(vars);
			bool after_var = false;
			while ((k = fb_filter_token(vars, vl, &pos, &start)) > 0) {
				if (after_var && k == al &&
				    strncasecmp(vars + start,
						variant_aliases[g][a], al) == 0) {
					*out_len = k;
					return vars + start;
				}
				after_var = fb_filter_is(vars, start, k, "var");
			}
		}
	}
	return NULL;
}

/* UCI_Chess960 set by the GUI (gui) or sent to the engine (engine). */
static void
note_chess960(struct fb_filter *f, bool on, bool gui, bool engine)
{
	if (gui)
		f->gui_960 = on;
	if (engine)
		f->engine_960 = on;
	f->uci_epoch++;
}

static bool
is_chess960_option(const char *name, size_t n)
{
	return n == 12 && strncasecmp(name, "UCI_Chess960", 12) == 0;
}

static void
uci_setoption(struct fb_filter *f, const char *text, size_t len, size_t term,
	      const struct fb_sink *out)
{
	size_t nb, ne, vb, ve;
	struct fb_edit edit = {0};
	const char *name;

	if (!parse_setoption(text, len, &nb, &ne, &vb, &ve)) {
		out->emit(out->ctx, text, len + term);
		return;
	}
	name = text + nb;
	{
		const struct fb_engine_option *o =
			fb_filter_option(f, name, ne - nb);
		if (o != NULL && (o->flags & FB_OPT_FORCED)) {
			/* The GUI still wants what it said for its side. */
			if (is_chess960_option(name, ne - nb))
				note_chess960(f, token_is_nocase(text, vb,
								 ve - vb,
								 "true"),
					      true, false);
			fb_filter_report(out, FB_LOG_INFO,
					 "setoption for '%.*s' dropped: the "
					 "config forces it to '%s'",
					 (int)(ne - nb), name, o->value);
			return;
		}
	}
	if (is_chess960_option(name, ne - nb)) {
		bool on = token_is_nocase(text, vb, ve - vb, "true");
		note_chess960(f, on, true, !f->fake_960);
		if (f->fake_960) {
			fb_filter_report(out, FB_LOG_INFO,
					 "setoption UCI_Chess960 %s kept by "
					 "fenbridge: the engine has no such "
					 "option and gets standard notation",
					 on ? "true" : "false");
			return; /* swallowed: the engine does not know it */
		}
		/* Stockfish ignores a check value that is not exactly
		 * `true`/`false`; GUIs send True. */
		if (vb > 0 && (on || token_is_nocase(text, vb, ve - vb,
						     "false"))) {
			edit.off = vb;
			edit.len = ve - vb;
			edit.text = on ? "true" : "false";
			edit.tlen = strlen(edit.text);
			if (edit.tlen == edit.len &&
			    memcmp(edit.text, text + vb, edit.len) == 0)
				edit.len = 0;
		}
	} else if (ne - nb == 11 && strncasecmp(name, "UCI_Variant", 11) == 0 &&
		   vb > 0) {
		size_t n = ve - vb < sizeof f->uci_variant - 1
				   ? ve - vb
				   : sizeof f->uci_variant - 1;
		size_t alen;
		const char *alias;
		memcpy(f->uci_variant, text + vb, n);
		f->uci_variant[n] = '\0';
		f->uci_epoch++;
		if (f->engine_vars != NULL &&
		    (alias = engine_variant(f, text + vb, ve - vb, &alen)) !=
			    NULL &&
		    (alen != ve - vb || memcmp(alias, text + vb, alen) != 0)) {
			edit.off = vb;
			edit.len = ve - vb;
			edit.text = alias;
			edit.tlen = alen;
		}
	}
	if (edit.len > 0) {
		fb_filter_report(out, FB_LOG_DEBUG,
				 "setoption: value '%.*s' sent as '%.*s'",
				 (int)edit.len, text + edit.off,
				 (int)edit.tlen, edit.text);
		fb_filter_emit_edited(text, len, term, &edit, 1, out);
		return;
	}
	out->emit(out->ctx, text, len + term);
}

void
fb_uci_position_free(struct fb_uci_position *p)
{
	if (p != NULL)
		free(p->line);
	free(p);
}

static struct fb_uci_position *
position_cache(struct fb_filter *f)
{
	if (f->uci_pos == NULL)
		f->uci_pos = calloc(1, sizeof *f->uci_pos);
	return f->uci_pos;
}

/* The base of a fresh position line: startpos or fen. Returns the offset
 * where moves may start, or 0 if the line is not understood. */
static size_t
read_base(struct fb_filter *f, struct fb_uci_position *p, const char *text,
	  size_t len, const struct fb_sink *out)
{
	struct fb_fen_style style = {.notation = f->opt.engine_fen};
	struct fb_fen fen;
	size_t pos = 0, start, n, b = 0, e = 0;
	int rc;

	fb_filter_token(text, len, &pos, &start); /* position */
	n = fb_filter_token(text, len, &pos, &start);
	if (fb_filter_is(text, start, n, "startpos")) {
		fb_game_start(&p->game, variant_start(f->uci_variant));
		return pos;
	}
	if (!fb_filter_is(text, start, n, "fen"))
		return 0;
	while ((n = fb_filter_token(text, len, &pos, &start)) > 0 &&
	       !fb_filter_is(text, start, n, "moves")) {
		if (b == 0)
			b = start;
		e = start + n;
	}
	if (n > 0)
		pos = start; /* moves is read by the caller */
	if (b == 0) {
		fb_filter_report(out, FB_LOG_WARN,
				 "position fen: no FEN on the line; passed "
				 "unchanged");
		p->known = false;
		return pos;
	}
	rc = fb_filter_translate_fen(text, b, e, &style, "position fen", out,
				     &fen, p->fen, sizeof p->fen, &p->edits[0]);
	if (rc < 0) {
		p->known = false;
		return pos;
	}
	fb_game_from_fen(&p->game, &fen);
	p->nedits = (unsigned)rc;
	return pos;
}

/* Chess960 castling in a position: make sure the engine can read it. */
static void
check_chess960(struct fb_filter *f, const struct fb_game *g,
	       const struct fb_sink *out)
{
	if (fb_game_is_standard_castling(g))
		return;
	if (f->engine_has_960 && !f->engine_960) {
		/* Arena sends Chess960 positions without UCI_Chess960. */
		fb_filter_inject(out, "setoption name UCI_Chess960 value true");
		note_chess960(f, true, false, true);
		fb_filter_report(out, FB_LOG_INFO,
				 "position has Chess960 castling: sent "
				 "setoption name UCI_Chess960 value true to "
				 "the engine");
	} else if (f->fake_960) {
		fb_filter_report(out, FB_LOG_WARN,
				 "the engine has no Chess960 support and "
				 "cannot castle in this position (castling "
				 "rook or king off its standard square)");
		fb_filter_reply(out,
				"info string fenbridge: this engine has no "
				"Chess960 support; castling in this position "
				"cannot be expressed to it");
	}
}

static void
uci_position(struct fb_filter *f, const char *text, size_t len, size_t term,
	     const struct fb_sink *out)
{
	struct fb_uci_position *p = position_cache(f);
	enum fb_castle_notation to;
	size_t pos, start, n;

	if (p == NULL) {
		fb_filter_report(out, FB_LOG_WARN,
				 "out of memory: position passed unchanged");
		out->emit(out->ctx, text, len + term);
		return;
	}
	to = engine_notation(f);
	if (p->in_moves && p->len > 0 && len >= p->len &&
	    (len == p->len || is_blank(text[p->len])) && p->notation == (int)to &&
	    p->dialect == f->opt.engine_fen && p->epoch == f->uci_epoch &&
	    memcmp(text, p->line, p->len) == 0) {
		pos = p->len; /* the same game, maybe with more moves */
	} else {
		p->nedits = 0;
		p->in_moves = false;
		p->known = variant_followed(f->uci_variant);
		if (!p->known) {
			out->emit(out->ctx, text, len + term);
			p->len = 0;
			f->game_known = false;
			return;
		}
		pos = read_base(f, p, text, len, out);
		if (pos == 0) {
			out->emit(out->ctx, text, len + term);
			p->len = 0;
			f->game_known = false;
			return;
		}
		if (p->known)
			check_chess960(f, &p->game, out);
		to = engine_notation(f);
	}
	while ((n = fb_filter_token(text, len, &pos, &start)) > 0) {
		struct fb_edit *edit = &p->edits[p->nedits];
		if (!p->in_moves) {
			p->in_moves = fb_filter_is(text, start, n, "moves");
			continue;
		}
		if (!p->known)
			continue;
		/* Without a right no later move can castle: the rest of a
		 * long game needs no reading (p->game's board goes stale,
		 * but only a right makes anyone look at it). */
		if (!fb_game_can_castle(&p->game))
			break;
		if (p->nedits == MAX_EDITS) {
			fb_filter_report(out, FB_LOG_WARN,
					 "position: too many castling moves to "
					 "rewrite; the rest pass unchanged");
			p->known = false;
			continue;
		}
		if (fb_filter_move(&p->game, text, start, n, to, edit,
				   p->pool[p->nedits], out, "position",
				   FB_LOG_WARN) < 0) {
			fb_filter_report(out, FB_LOG_WARN,
					 "position: cannot follow the game at "
					 "'%.*s'; later castling moves pass "
					 "unchanged", (int)n, text + start);
			p->known = false;
		} else if (edit->len > 0) {
			p->nedits++;
		}
	}
	if (p->cap < len) {
		char *l = realloc(p->line, len);
		if (l == NULL) {
			p->len = 0;
			p->in_moves = false;
		} else {
			p->line = l;
			p->cap = len;
		}
	}
	if (p->cap >= len) {
		memcpy(p->line, text, len);
		p->len = len;
	}
	p->notation = (int)to;
	p->dialect = f->opt.engine_fen;
	p->epoch = f->uci_epoch;
	f->game = p->game;
	f->game_known = p->known;
	fb_filter_emit_edited(text, len, term, p->edits, p->nedits, out);
}

/*
 * Rewrites the castling moves among tokens from *pos of text: a sequence
 * played from *g (pv), or, with single, one move. Stops at the first token
 * that is not a move and leaves *pos before it.
 */
static void
translate_moves(struct fb_game *g, const char *text, size_t len, size_t *pos,
		bool single, enum fb_castle_notation to, struct fb_edit *edits,
		unsigned *nedits, char pool[][8], const struct fb_sink *out,
		const char *what)
{
	size_t start, n, before;

	for (;;) {
		before = *pos;
		if (!fb_game_can_castle(g))
			break; /* no castling can follow */
		if ((n = fb_filter_token(text, len, pos, &start)) == 0 ||
		    *nedits == MAX_EDITS)
			break;
		if (fb_filter_move(g, text, start, n, to, &edits[*nedits],
				   pool[*nedits], out, what,
				   strcmp(what, "info") == 0 ? FB_LOG_DEBUG
							     : FB_LOG_WARN) < 0) {
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
uci_go(struct fb_filter *f, const char *text, size_t len, size_t term,
       const struct fb_sink *out)
{
	struct fb_edit edits[MAX_EDITS];
	char pool[MAX_EDITS][8];
	unsigned nedits = 0;
	size_t pos = 0, start, n;

	while (f->game_known && (n = fb_filter_token(text, len, &pos, &start)) > 0) {
		if (!fb_filter_is(text, start, n, "searchmoves"))
			continue;
		/* Each searchmove is a move from the current position. */
		for (;;) {
			struct fb_game g = f->game;
			size_t before = pos;
			translate_moves(&g, text, len, &pos, true,
					engine_notation(f), edits, &nedits,
					pool, out, "go searchmoves");
			if (pos == before)
				break;
		}
	}
	fb_filter_emit_edited(text, len, term, edits, nedits, out);
}

static void
uci_gui_line(struct fb_filter *f, const char *text, size_t len, size_t term,
	     const struct fb_sink *out)
{
	size_t pos = 0, start, n;

	n = fb_filter_token(text, len, &pos, &start);
	if (fb_filter_is(text, start, n, "position"))
		uci_position(f, text, len, term, out);
	else if (fb_filter_is(text, start, n, "setoption"))
		uci_setoption(f, text, len, term, out);
	else if (fb_filter_is(text, start, n, "go"))
		uci_go(f, text, len, term, out);
	else
		out->emit(out->ctx, text, len + term);
}

/* `option name UCI_Chess960 ...` and `option name UCI_Variant ... var`.
 * Returns true when the config hides the option from the GUI. */
static bool
engine_option(struct fb_filter *f, const char *text, size_t len)
{
	const struct fb_engine_option *o;
	size_t pos = 0, start, n, nb = 0, ne = 0, p2;

	fb_filter_token(text, len, &pos, &start);
	n = fb_filter_token(text, len, &pos, &start);
	if (!fb_filter_is(text, start, n, "name"))
		return false;
	p2 = pos;
	while ((n = fb_filter_token(text, len, &p2, &start)) > 0 &&
	       !fb_filter_is(text, start, n, "type")) {
		if (nb == 0)
			nb = start;
		ne = start + n;
	}
	o = nb > 0 ? fb_filter_option(f, text + nb, ne - nb) : NULL;
	if (o != NULL && (o->flags & FB_OPT_HIDDEN))
		return true;
	n = fb_filter_token(text, len, &pos, &start);
	if (token_is_nocase(text, start, n, "UCI_Chess960")) {
		f->engine_has_960 = true;
		f->uci_epoch++;
	} else if (token_is_nocase(text, start, n, "UCI_Variant")) {
		free(f->engine_vars);
		f->engine_vars = malloc(len - pos + 1);
		if (f->engine_vars != NULL) {
			memcpy(f->engine_vars, text + pos, len - pos);
			f->engine_vars[len - pos] = '\0';
		}
	}
	return false;
}

/* After the handshake, before the GUI's own: the config's options. */
static void
send_config_options(struct fb_filter *f, const struct fb_sink *out)
{
	for (size_t i = 0; i < f->opt.noptions; i++) {
		const struct fb_engine_option *o = &f->opt.options[i];
		if (!(o->flags & FB_OPT_SET))
			continue;
		if (is_chess960_option(o->name, strlen(o->name))) {
			if (!f->engine_has_960)
				continue; /* fenbridge plays that part */
			note_chess960(f, strcasecmp(o->value, "true") == 0,
				      false, true);
		}
		if (o->value[0] != '\0')
			fb_filter_reply(out, "setoption name %s value %s",
					o->name, o->value);
		else
			fb_filter_reply(out, "setoption name %s", o->name);
	}
}

static void
uci_engine_moves(struct fb_filter *f, const char *text, size_t len,
		 size_t term, bool bestmove, const struct fb_sink *out)
{
	struct fb_edit edits[MAX_EDITS];
	char pool[MAX_EDITS][8];
	unsigned nedits = 0;
	enum fb_castle_notation to = gui_notation(f);
	size_t pos = 0, start, n;
	struct fb_game g;

	fb_filter_token(text, len, &pos, &start);
	if (bestmove) {
		g = f->game;
		translate_moves(&g, text, len, &pos, true, to, edits, &nedits,
				pool, out, "bestmove");
		n = fb_filter_token(text, len, &pos, &start);
		if (fb_filter_is(text, start, n, "ponder"))
			translate_moves(&g, text, len, &pos, true, to, edits,
					&nedits, pool, out, "ponder");
	} else {
		while ((n = fb_filter_token(text, len, &pos, &start)) > 0) {
			bool single = fb_filter_is(text, start, n, "currmove");
			if (fb_filter_is(text, start, n, "string"))
				break; /* free text to the end of the line */
			if (fb_filter_is(text, start, n, "currline")) {
				size_t p2 = pos, s2;
				size_t k = fb_filter_token(text, len, &p2, &s2);
				if (k > 0 && text[s2] >= '0' && text[s2] <= '9')
					pos = p2; /* the optional cpunr */
			} else if (!single &&
				   !fb_filter_is(text, start, n, "pv") &&
				   !fb_filter_is(text, start, n, "refutation")) {
				continue;
			}
			g = f->game;
			translate_moves(&g, text, len, &pos, single, to, edits,
					&nedits, pool, out, "info");
		}
	}
	fb_filter_emit_edited(text, len, term, edits, nedits, out);
}

static void
uci_engine_line(struct fb_filter *f, const char *text, size_t len,
		size_t term, const struct fb_sink *out)
{
	size_t pos = 0, start, n;

	n = fb_filter_token(text, len, &pos, &start);
	if (n == 0) {
		out->emit(out->ctx, text, len + term);
		return;
	}
	switch (text[start]) {
	case 'b':
		/* Castling can only appear while a right remains, and needs
		 * rewriting only when the two sides spell it differently. */
		if (f->game_known && fb_game_can_castle(&f->game) &&
		    gui_notation(f) != engine_notation(f)) {
			if (fb_filter_is(text, start, n, "bestmove")) {
				uci_engine_moves(f, text, len, term, true, out);
				return;
			}
		}
		break;
	case 'o':
		if (fb_filter_is(text, start, n, "option") &&
		    engine_option(f, text, len)) {
			fb_filter_report(out, FB_LOG_DEBUG,
					 "option hidden from the GUI by the "
					 "config");
			return;
		}
		break;
	case 'i':
		if (fb_filter_is(text, start, n, "info") && f->game_known &&
		    fb_game_can_castle(&f->game) &&
		    gui_notation(f) != engine_notation(f)) {
			uci_engine_moves(f, text, len, term, false, out);
			return;
		}
		if (f->opt.name != NULL && fb_filter_is(text, start, n, "id")) {
			size_t s2;
			n = fb_filter_token(text, len, &pos, &s2);
			if (fb_filter_is(text, s2, n, "name")) {
				struct fb_edit e = {
					.off = s2 + n,
					.len = len - s2 - n,
					.text = f->opt.name,
					.tlen = strlen(f->opt.name)};
				out->emit(out->ctx, text, e.off);
				out->emit(out->ctx, " ", 1);
				out->emit(out->ctx, e.text, e.tlen);
				out->emit(out->ctx, text + len, term);
				return;
			}
		}
		break;
	case 'u':
		if (fb_filter_is(text, start, n, "uciok"))
			send_config_options(f, out);
		if (fb_filter_is(text, start, n, "uciok") &&
		    !f->engine_has_960) {
			/* python-chess refuses Chess960 with an engine that
			 * does not advertise it: fenbridge plays that part
			 * and speaks standard notation to the engine. */
			fb_filter_inject(out, "option name UCI_Chess960 type "
					 "check default false");
			f->fake_960 = true;
			f->uci_epoch++;
			fb_filter_report(out, FB_LOG_INFO,
					 "the engine has no UCI_Chess960: "
					 "fenbridge advertises it and "
					 "translates");
		}
		break;
	}
	out->emit(out->ctx, text, len + term);
}

const struct fb_protocol fb_protocol_uci = {
	.name = "uci",
	.user_message = "info string ",
	.gui_line = uci_gui_line,
	.engine_line = uci_engine_line,
};
