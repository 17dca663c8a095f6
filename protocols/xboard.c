/* SPDX-License-Identifier: MIT */
/*
 * XBoard (CECP, "Chess Engine Communication Protocol", T. Mann, H.G. Muller).
 *
 * GUI -> engine: the FEN of `setboard <FEN>` goes into the engine's dialect;
 * moves (`usermove M` or a bare M) are followed and castling moves written
 * in the engine's notation. `new`, `variant NAME`, `undo` and `remove` keep
 * the game in step. Engine -> GUI: castling in `move M` goes into the GUI's
 * notation, and the FEN of `setup [(PIECES)] [WxH+S_PARENT] FEN` into the
 * GUI's dialect. `feature oocastle=0` (read by XBoard, undocumented) means
 * the engine wants king-takes-rook instead of O-O.
 *
 * Only variants whose castling fenbridge knows are touched; for any other
 * variant every line passes unchanged. No I/O in this file.
 */
#include <stdlib.h>
#include <string.h>

#include "fenbridge/filter.h"

/* Variants whose castling follows the king-and-rook rules fenbridge reads;
 * start is the white back rank, NULL where the GUI sends setboard. */
static const struct {
	const char *name;
	const char *start;
	bool random;     /* FRC-style: the GUI writes castling as O-O */
	bool follow;     /* castling moves follow game.c's rules */
	char prefix;     /* X-FEN castling prefix (dialects.md, Boards) */
} known_variants[] = {
	{"normal", FB_GAME_NORMAL, false, true, 0},
	{"fischerandom", NULL, true, true, 0},
	{"capablanca", FB_GAME_CAPABLANCA, false, true, 0},
	{"caparandom", NULL, true, true, 0},
	{"gothic", FB_GAME_GOTHIC, false, true, 0},
	/* Janus castles symmetrically (king to b or i): its FENs are
	 * translated, its castling moves pass unchanged. */
	{"janus", NULL, false, false, 's'},
};

static int
variant_index(const char *name)
{
	for (int i = 0; i < (int)(sizeof known_variants /
				  sizeof known_variants[0]);
	     i++)
		if (strcmp(known_variants[i].name, name) == 0)
			return i;
	return -1;
}

static enum fb_castle_notation
gui_notation(const struct fb_filter *f)
{
	int v = variant_index(f->variant);

	if (f->opt.gui_castling != FB_CASTLE_AUTO)
		return f->opt.gui_castling;
	if (v >= 0 && known_variants[v].random)
		return f->oocastle_off ? FB_CASTLE_KXR : FB_CASTLE_OO;
	return FB_CASTLE_KING;
}

/*
 * The engine's notation, or FB_CASTLE_AUTO: the engine gets castling moves
 * as the GUI wrote them (but king takes rook when it said oocastle=0). XBoard already writes what the engine asked for
 * (O-O in FRC, king takes rook after oocastle=0), so rewriting could only
 * make things worse; --engine-castling is for engines that break the rule
 * (Fairy-Stockfish rejects O-O without saying oocastle=0).
 */
static enum fb_castle_notation
engine_notation(const struct fb_filter *f)
{
	int v = variant_index(f->variant);

	/* python-chess sends O-O even to an engine that said oocastle=0. */
	if (f->opt.engine_castling == FB_CASTLE_AUTO && f->oocastle_off &&
	    v >= 0 && known_variants[v].random)
		return FB_CASTLE_KXR;
	return f->opt.engine_castling;
}

static void
set_variant(struct fb_filter *f, const char *name, size_t n)
{
	int v;

	if (n >= sizeof f->variant)
		n = sizeof f->variant - 1;
	memcpy(f->variant, name, n);
	f->variant[n] = '\0';
	v = variant_index(f->variant);
	f->variant_known = v >= 0;
	f->variant_prefix = v >= 0 ? known_variants[v].prefix : 0;
	f->nhistory = 0;
	f->game_known = v >= 0 && known_variants[v].start != NULL;
	if (f->game_known)
		fb_game_start(&f->game, known_variants[v].start);
}

static bool
push_history(struct fb_filter *f)
{
	if (f->nhistory == f->history_cap) {
		size_t cap = f->history_cap ? f->history_cap * 2 : 64;
		struct fb_game *h = realloc(f->history, cap * sizeof *h);
		if (h == NULL)
			return false;
		f->history = h;
		f->history_cap = cap;
	}
	f->history[f->nhistory++] = f->game;
	return true;
}

static void
undo(struct fb_filter *f, unsigned plies)
{
	for (unsigned i = 0; i < plies; i++) {
		if (f->nhistory == 0) {
			f->game_known = false;
			return;
		}
		f->game = f->history[--f->nhistory];
	}
}

/* The FEN runs from its first token to the last non-blank of the line. */
static size_t
fen_end(const char *text, size_t len)
{
	while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	return len;
}

/* Follows the move token at text[start..start+n) and emits the line with
 * a castling move in notation to (FB_CASTLE_AUTO: as it was written). */
static void
move_line(struct fb_filter *f, const char *text, size_t len, size_t term,
	  size_t start, size_t n, enum fb_castle_notation to, const char *what,
	  const struct fb_sink *out)
{
	struct fb_edit edit;
	char pool[8];
	bool pushed;

	if (!f->game_known) {
		out->emit(out->ctx, text, len + term);
		return;
	}
	pushed = push_history(f);
	if (fb_filter_move(&f->game, text, start, n,
			   to == FB_CASTLE_AUTO ? FB_CASTLE_KXR : to,
			   &edit, pool, out, what, FB_LOG_WARN) < 0) {
		if (pushed)
			f->nhistory--;
		fb_filter_report(out, FB_LOG_WARN,
				 "%s: cannot follow the game at '%.*s'; "
				 "castling moves pass unchanged until the "
				 "next new or setboard", what, (int)n,
				 text + start);
		f->game_known = false;
		out->emit(out->ctx, text, len + term);
		return;
	}
	if (!pushed)
		f->nhistory = 0; /* out of memory: undo will lose the game */
	if (edit.len > 0 && to != FB_CASTLE_AUTO) {
		fb_filter_report(out, FB_LOG_DEBUG, "%s: castling '%.*s' sent "
				 "as '%.*s'", what, (int)n, text + start,
				 (int)edit.tlen, edit.text);
		fb_filter_emit_edited(text, len, term, &edit, 1, out);
	} else {
		out->emit(out->ctx, text, len + term);
	}
}

/* A bare move: one token that reads as a move in the current game. */
static bool
is_bare_move(const struct fb_filter *f, const char *text, size_t len,
	     size_t start, size_t n)
{
	struct fb_move m;
	size_t pos = start + n, s2;

	return f->game_known && fb_filter_token(text, len, &pos, &s2) == 0 &&
	       fb_game_parse_move(&f->game, text + start, n, &m) == 0;
}

static void
xboard_gui_line(struct fb_filter *f, const char *text, size_t len,
		size_t term, const struct fb_sink *out)
{
	struct fb_fen_style style = {.notation = f->opt.engine_fen,
				     .prefix = f->variant_prefix};
	struct fb_fen fen;
	size_t pos = 0, start, n;

	n = fb_filter_token(text, len, &pos, &start);
	if (fb_filter_is(text, start, n, "new")) {
		set_variant(f, "normal", 6);
	} else if (fb_filter_is(text, start, n, "variant")) {
		n = fb_filter_token(text, len, &pos, &start);
		set_variant(f, text + start, n);
	} else if (fb_filter_is(text, start, n, "edit")) {
		/* Board edited square by square: not followed. Castling moves
		 * pass unchanged until the next new or setboard. */
		f->game_known = false;
	} else if (fb_filter_is(text, start, n, "undo")) {
		undo(f, 1);
	} else if (fb_filter_is(text, start, n, "remove")) {
		undo(f, 2);
	} else if (fb_filter_is(text, start, n, "option")) {
		const struct fb_engine_option *o;
		const char *eq;
		n = fb_filter_token(text, len, &pos, &start);
		eq = memchr(text + start, '=', n);
		o = fb_filter_option(f, text + start,
				     eq != NULL ? (size_t)(eq - text - start)
						: n);
		if (o != NULL && (o->flags & FB_OPT_FORCED)) {
			fb_filter_report(out, FB_LOG_INFO,
					 "option for '%s' dropped: the config "
					 "forces it to '%s'", o->name, o->value);
			return;
		}
	} else if (fb_filter_is(text, start, n, "usermove")) {
		n = fb_filter_token(text, len, &pos, &start);
		move_line(f, text, len, term, start, n, engine_notation(f),
			  "usermove", out);
		return;
	} else if (fb_filter_is(text, start, n, "setboard")) {
		n = fb_filter_token(text, len, &pos, &start);
		if (n == 0) {
			fb_filter_report(out, FB_LOG_WARN,
					 "setboard: no FEN on the line; "
					 "passed unchanged");
		} else if (!f->variant_known) {
			fb_filter_report(out, FB_LOG_DEBUG,
					 "setboard: variant %s is not known "
					 "to fenbridge; passed unchanged",
					 f->variant);
		} else {
			f->nhistory = 0;
			f->game_known = fb_filter_splice_fen(
				text, len, term, start, fen_end(text, len),
				&style, "setboard", out, &fen);
			if (f->game_known)
				fb_game_from_fen(&f->game, &fen);
			if (!known_variants[variant_index(f->variant)].follow)
				f->game_known = false;
			return;
		}
	} else if (n > 0 && is_bare_move(f, text, len, start, n)) {
		move_line(f, text, len, term, start, n, engine_notation(f),
			  "move", out);
		return;
	}
	out->emit(out->ctx, text, len + term);
}

#define MAX_FEATURE_EDITS 16

/*
 * Reads `feature k=v k="v w" ...`: notes oocastle, replaces myname with
 * the config's name, removes options the config hides, and after done=1
 * sends the config's options. Emits the (edited) line.
 */
static void
engine_features(struct fb_filter *f, const char *text, size_t len,
		size_t term, const struct fb_sink *out)
{
	struct fb_edit edits[MAX_FEATURE_EDITS] = {{0}};
	unsigned nedits = 0;
	bool done = false;
	size_t i = 7; /* after "feature" */

	while (i < len) {
		size_t pair, key, keylen, val, vallen;
		while (i < len && (text[i] == ' ' || text[i] == '\t'))
			i++;
		pair = key = i;
		while (i < len && text[i] != '=' && text[i] != ' ' &&
		       text[i] != '\t')
			i++;
		keylen = i - key;
		if (i >= len || text[i] != '=')
			continue;
		val = ++i;
		if (i < len && text[i] == '"') {
			val = ++i;
			while (i < len && text[i] != '"')
				i++;
			vallen = i - val;
			if (i < len)
				i++;
		} else {
			while (i < len && text[i] != ' ' && text[i] != '\t')
				i++;
			vallen = i - val;
		}
		if (fb_filter_is(text, key, keylen, "oocastle"))
			f->oocastle_off = vallen == 1 && text[val] == '0';
		else if (fb_filter_is(text, key, keylen, "done"))
			done = vallen == 1 && text[val] == '1';
		if (nedits == MAX_FEATURE_EDITS)
			continue;
		if (fb_filter_is(text, key, keylen, "myname") &&
		    f->opt.name != NULL) {
			edits[nedits++] = (struct fb_edit){
				.off = val, .len = vallen, .text = f->opt.name,
				.tlen = strlen(f->opt.name)};
		} else if (fb_filter_is(text, key, keylen, "option")) {
			/* option="NAME -type ...": the name ends at " -". */
			size_t nl = 0;
			const struct fb_engine_option *o;
			while (nl < vallen &&
			       !(text[val + nl] == ' ' &&
				 nl + 1 < vallen && text[val + nl + 1] == '-'))
				nl++;
			o = fb_filter_option(f, text + val, nl);
			if (o != NULL && (o->flags & FB_OPT_HIDDEN))
				edits[nedits++] = (struct fb_edit){
					.off = pair, .len = i - pair,
					.text = "", .tlen = 0};
		}
	}
	fb_filter_emit_edited(text, len, term, edits, nedits, out);
	if (done) {
		for (size_t k = 0; k < f->opt.noptions; k++) {
			const struct fb_engine_option *o = &f->opt.options[k];
			if (o->flags & FB_OPT_SET)
				fb_filter_reply(out, "option %s=%s", o->name,
						o->value);
		}
	}
}

static void
xboard_engine_line(struct fb_filter *f, const char *text, size_t len,
		   size_t term, const struct fb_sink *out)
{
	struct fb_fen_style style = {.notation = f->opt.gui_fen,
				     .prefix = f->variant_prefix};
	size_t pos = 0, start, n;

	n = fb_filter_token(text, len, &pos, &start);
	if (fb_filter_is(text, start, n, "move")) {
		n = fb_filter_token(text, len, &pos, &start);
		move_line(f, text, len, term, start, n, gui_notation(f),
			  "engine move", out);
		return;
	}
	if (fb_filter_is(text, start, n, "feature")) {
		engine_features(f, text, len, term, out);
		return;
	} else if (fb_filter_is(text, start, n, "setup") && f->variant_known) {
		/* Skip the optional (PIECES) and WxH+S_PARENT tokens: the FEN
		 * is the first token holding a '/' (its board). */
		while ((n = fb_filter_token(text, len, &pos, &start)) > 0 &&
		       memchr(text + start, '/', n) == NULL)
			;
		if (n > 0) {
			fb_filter_splice_fen(text, len, term, start,
					     fen_end(text, len), &style,
					     "setup", out, NULL);
			return;
		}
	}
	out->emit(out->ctx, text, len + term);
}

const struct fb_protocol fb_protocol_xboard = {
	.name = "xboard",
	.user_message = "tellusererror ",
	.gui_line = xboard_gui_line,
	.engine_line = xboard_engine_line,
};
