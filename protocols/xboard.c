/* SPDX-License-Identifier: MIT */
/*
 * An XBoard GUI with an XBoard engine (CECP, "Chess Engine Communication
 * Protocol", T. Mann, H.G. Muller).
 *
 * GUI -> engine: the FEN of `setboard <FEN>` goes into the engine's dialect;
 * moves (`usermove M` or a bare M) are followed and castling moves written
 * in the engine's notation. `new`, `variant NAME`, `undo` and `remove` keep
 * the game in step. Engine -> GUI: castling in `move M` goes into the GUI's
 * notation, and the FEN of `setup [(PIECES)] [WxH+S_PARENT] FEN` into the
 * GUI's dialect. `feature oocastle=0` (read by XBoard, undocumented) means
 * the engine wants king-takes-rook instead of O-O.
 *
 * An engine that does not list a random variant but its fixed-start
 * sibling (GNU Chess: variants="normal") is told to the GUI as knowing it
 * too, and plays it as that sibling in standard notation: it gets only
 * the castling rights standard FEN expresses, a standard castle as the
 * king's move, and a castle it cannot read as the position after it
 * (`setboard`, inside `force` ... `go` when it is to reply); `undo` after
 * that goes as `setboard` too.
 *
 * Engines break the protocol in ways fenbridge repairs: one that rejects a
 * castle written O-O (`Error`/`Illegal move`) gets it again as king takes
 * rook, and that notation from then on; `Error` replies to optional
 * commands (post, nopost, ...) are kept from the GUI, which may treat them
 * as fatal; an unquoted `feature myname=` is quoted.
 *
 * Only variants whose castling fenbridge knows are touched; for any other
 * variant every line passes unchanged. No I/O in this file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

struct xboard {
	const struct fb_filter_options *opt;
	/* The variant (NULL: one fenbridge does not know) and its name. */
	const struct fb_variant *variant;
	char variant_name[32];
	bool oocastle_off; /* the engine sent feature oocastle=0 */
	/* The engine rejects O-O: castling goes to it as king takes rook
	 * (its quirk entry says so, or it answered O-O with an error). */
	bool kxr_for_oo;
	const struct fb_quirk *quirk; /* the engine's entry, or NULL */
	char *engine_variants; /* its feature variants="...", or NULL */
	char *variants_out;    /* that list with what fenbridge adds */
	/* The engine does not know the variant in play: it plays its base
	 * (fischerandom as normal) in standard notation. */
	bool emulated;
	bool forced;   /* the engine is in force mode */
	bool anchored; /* it got a setboard of fenbridge's own this game */
	bool told;     /* this game's re-anchoring was said */

	struct fb_game game;
	bool game_known;
	struct fb_game *history; /* the game before each move, for undo */
	size_t nhistory, history_cap;

	/* The last castle sent to the engine as the GUI wrote it, and the
	 * line that says it as king takes rook: sent when the engine answers
	 * the first with an error. */
	char sent[16];
	size_t sent_len;
	char resend[32];
	size_t resend_len;
};

/* Commands an engine may reject without harm (CECP: post, nopost, computer,
 * random, hard, easy); its Error reply would only alarm the GUI. */
static const char *const optional_commands[] = {
	"post", "nopost", "computer", "random", "hard", "easy",
};

static bool
variant_random(const struct xboard *x)
{
	return x->variant != NULL && x->variant->random;
}

static enum fb_castle_notation
gui_notation(const struct xboard *x)
{
	if (x->opt->gui_castling != FB_CASTLE_AUTO)
		return x->opt->gui_castling;
	if (variant_random(x))
		return x->oocastle_off ? FB_CASTLE_KXR : FB_CASTLE_OO;
	return FB_CASTLE_KING;
}

/*
 * The engine's notation, or FB_CASTLE_AUTO: the engine gets castling moves
 * as the GUI wrote them. XBoard already writes what the engine asked for
 * (O-O in FRC, king takes rook after oocastle=0), so rewriting could only
 * make things worse, except for an engine that rejects O-O without saying
 * oocastle=0 (Fairy-Stockfish) and for GUIs that send O-O even to an engine
 * that said oocastle=0 (python-chess).
 */
static enum fb_castle_notation
engine_notation(const struct xboard *x)
{
	if (x->opt->engine_castling != FB_CASTLE_AUTO)
		return x->opt->engine_castling;
	if (x->emulated)
		return FB_CASTLE_KING;
	if (variant_random(x) && (x->oocastle_off || x->kxr_for_oo))
		return FB_CASTLE_KXR;
	return FB_CASTLE_AUTO;
}

static enum fb_notation
engine_dialect(const struct xboard *x)
{
	if (x->opt->engine_fen_auto && x->quirk != NULL &&
	    x->quirk->shredder_fen)
		return FB_SHREDDER;
	return x->opt->engine_fen;
}

static void *
xboard_new(const struct fb_filter_options *opt)
{
	struct xboard *x = calloc(1, sizeof *x);

	if (x == NULL)
		return NULL;
	x->opt = opt;
	x->variant = fb_variant_normal;
	strcpy(x->variant_name, "normal");
	fb_game_start(&x->game, fb_variant_normal->start);
	x->game_known = true;
	return x;
}

static void
xboard_free(void *state)
{
	struct xboard *x = state;

	free(x->history);
	free(x->engine_variants);
	free(x->variants_out);
	free(x);
}

static const struct fb_game *
xboard_game(const void *state)
{
	const struct xboard *x = state;

	return x->game_known ? &x->game : NULL;
}

static const char *
xboard_variant(const void *state)
{
	const struct xboard *x = state;

	return x->variant_name;
}

/* True when the engine's variants list holds v (in any of its names). */
static bool
engine_lists(const struct xboard *x, const struct fb_variant *v)
{
	const char *p = x->engine_variants;

	while (v != NULL && p != NULL && *p != '\0') {
		size_t n = strcspn(p, ",");
		if (fb_variant_find(p, n) == v)
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

static void
set_variant(struct xboard *x, const char *name, size_t n)
{
	if (n >= sizeof x->variant_name)
		n = sizeof x->variant_name - 1;
	memcpy(x->variant_name, name, n);
	x->variant_name[n] = '\0';
	x->variant = fb_variant_find(name, n);
	x->nhistory = 0;
	x->sent_len = 0;
	x->game_known = x->variant != NULL && x->variant->start != NULL &&
			x->variant->follow;
	x->anchored = x->told = false;
	x->emulated = x->variant != NULL && x->variant->base != NULL &&
		      x->engine_variants != NULL &&
		      !engine_lists(x, x->variant) &&
		      engine_lists(x, fb_variant_find(x->variant->base,
						      strlen(x->variant->base)));
	if (x->game_known)
		fb_game_start(&x->game, x->variant->start);
}

static bool
push_history(struct xboard *x)
{
	if (x->nhistory == x->history_cap) {
		size_t cap = x->history_cap ? x->history_cap * 2 : 64;
		struct fb_game *h = realloc(x->history, cap * sizeof *h);
		if (h == NULL)
			return false;
		x->history = h;
		x->history_cap = cap;
	}
	x->history[x->nhistory++] = x->game;
	return true;
}

static void
undo(struct xboard *x, unsigned plies)
{
	for (unsigned i = 0; i < plies; i++) {
		if (x->nhistory == 0) {
			x->game_known = false;
			return;
		}
		x->game = x->history[--x->nhistory];
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

/*
 * Remembers a castle going to the engine as written (to is AUTO) so that
 * it can be sent again as king takes rook if the engine rejects it: the
 * line is text[0..start) + the KxR move.
 */
static void
remember_castle(struct xboard *x, const char *text, size_t start, size_t n)
{
	struct fb_move m;
	char kxr[8];
	int k;

	x->sent_len = 0;
	if (fb_game_parse_move(&x->game, text + start, n, &m) < 0 ||
	    m.castle < 0 || n > sizeof x->sent ||
	    (k = fb_game_print_castle(&x->game, &m, FB_CASTLE_KXR, kxr,
				      sizeof kxr)) < 0 ||
	    ((size_t)k == n && memcmp(kxr, text + start, n) == 0) ||
	    start + (size_t)k >= sizeof x->resend)
		return;
	memcpy(x->sent, text + start, n);
	x->sent_len = n;
	memcpy(x->resend, text, start);
	memcpy(x->resend + start, kxr, (size_t)k);
	x->resend_len = start + (size_t)k;
}

/* Follows the move token at text[start..start+n) and emits the line with
 * a castling move in notation to (FB_CASTLE_AUTO: as it was written)
 * toward d. */
static void
move_line(struct xboard *x, const char *text, size_t len, size_t term,
	  size_t start, size_t n, enum fb_castle_notation to, const char *what,
	  const struct fb_sink *out, enum fb_dir d)
{
	struct fb_edit edit;
	char pool[8];
	bool pushed;

	if (!x->game_known) {
		fb_sink_put(out, d, text, len + term);
		return;
	}
	pushed = push_history(x);
	if (fb_proto_move(&x->game, text, start, n,
			  to == FB_CASTLE_AUTO ? FB_CASTLE_KXR : to, &edit, pool,
			  out, what, FB_LOG_WARN) < 0) {
		if (pushed)
			x->nhistory--;
		fb_proto_report(out, FB_LOG_WARN,
				"%s: cannot follow the game at '%.*s'; "
				"castling moves pass unchanged until the "
				"next new or setboard", what, (int)n,
				text + start);
		x->game_known = false;
		fb_sink_put(out, d, text, len + term);
		return;
	}
	if (!pushed)
		x->nhistory = 0; /* out of memory: undo will lose the game */
	if (edit.len > 0 && to != FB_CASTLE_AUTO) {
		fb_proto_report(out, FB_LOG_DEBUG, "%s: castling '%.*s' sent "
				"as '%.*s'", what, (int)n, text + start,
				(int)edit.tlen, edit.text);
		fb_proto_emit_edited(out, d, text, len, term, &edit, 1);
	} else {
		fb_sink_put(out, d, text, len + term);
	}
}

/* Emits a line of fenbridge's own toward the engine, ended like the
 * GUI's line it replaces. */
static void
emit_line(const char *line, size_t n, const char *text, size_t len,
	  size_t term, const struct fb_sink *out)
{
	out->to_engine(out->ctx, line, n);
	if (term > 0)
		out->to_engine(out->ctx, text + len, term);
	else
		out->to_engine(out->ctx, "\n", 1);
}

/* `variant R` toward an engine that plays R as its base: `variant BASE`,
 * or nothing for normal chess (new already set it). */
static void
emulated_variant(struct xboard *x, const char *text, size_t len, size_t term,
		 const struct fb_sink *out)
{
	char line[64];
	int n;

	fb_proto_report(out, FB_LOG_INFO,
			"variant %s: the engine does not list it; it plays "
			"it as %s in standard notation", x->variant->name,
			x->variant->base);
	if (strcmp(x->variant->base, "normal") == 0)
		return;
	n = snprintf(line, sizeof line, "variant %s", x->variant->base);
	emit_line(line, (size_t)n, text, len, term, out);
}

/*
 * Sends the game's position to the engine as a setboard of fenbridge's
 * own, with only the rights it can read, instead of the GUI's line; when
 * the engine is to reply (not in force mode), inside force ... go.
 */
static void
send_position(struct xboard *x, const char *text, size_t len, size_t term,
	      const struct fb_sink *out)
{
	struct fb_fen_style style = {.notation = engine_dialect(x)};
	struct fb_game g = x->game;
	char line[16 + FB_GAME_FEN_MAX];
	int n;

	fb_game_drop_nonstandard(&g);
	memcpy(line, "setboard ", 9);
	n = fb_game_print_fen(&g, &style, line + 9, sizeof line - 9);
	if (n < 0)
		return; /* cannot happen: the buffer fits any board */
	if (!x->forced)
		fb_proto_engine(out, "force");
	emit_line(line, (size_t)n + 9, text, len, term, out);
	if (!x->forced)
		fb_proto_engine(out, "go");
	x->anchored = true;
}

/*
 * A castle the engine cannot read (it plays the variant in standard
 * notation, and this castle is not a standard one): played here, sent as
 * the position after it. Returns false when the move is something else.
 */
static bool
reanchor(struct xboard *x, const char *text, size_t len, size_t term,
	 size_t start, size_t n, const struct fb_sink *out)
{
	struct fb_move m;
	char kxr[8];

	if (fb_game_parse_move(&x->game, text + start, n, &m) < 0 ||
	    m.castle < 0 ||
	    (fb_game_is_standard_castle(&x->game, &m) &&
	     fb_game_print_castle(&x->game, &m, FB_CASTLE_KING, kxr,
				  sizeof kxr) > 0))
		return false;
	if (!push_history(x))
		x->nhistory = 0; /* out of memory: undo will lose the game */
	fb_game_play(&x->game, &m);
	fb_proto_report(out, x->told ? FB_LOG_DEBUG : FB_LOG_INFO,
			"re-anchored: the castle '%.*s' cannot be written for "
			"the engine (it plays %s as %s); it gets the position "
			"after it", (int)n, text + start, x->variant->name,
			x->variant->base);
	if (!x->told) {
		/* A comment line: XBoard shows it in its debug log only,
		 * python-chess ignores it; telluser would open a dialog in
		 * every game of a tournament. */
		fb_proto_gui(out, "# fenbridge: the engine does not know "
			       "%s; castles it cannot read are sent as the "
			       "position after them", x->variant->name);
		x->told = true;
	}
	send_position(x, text, len, term, out);
	return true;
}

/*
 * ChessX sends a Chess960 position as `setboard` without `variant
 * fischerandom`: in normal chess the engine reads its rights as other
 * rooks' or not at all. As the UCI pair sets UCI_Chess960 for Arena, the
 * engine is told the random variant (fischerandom, caparandom on 10x8)
 * first when the position has rights standard notation cannot express and
 * the engine lists it; one that lists only the base plays it as the base
 * in standard notation (emulated), as if the GUI had chosen the variant.
 */
static void
random_for_setboard(struct xboard *x, const char *text, size_t b, size_t e,
		    const struct fb_sink *out)
{
	const struct fb_variant *r = NULL;
	struct fb_fen fen;

	if (x->variant == NULL || x->variant->random ||
	    x->engine_variants == NULL || !x->variant->follow)
		return;
	for (size_t i = 0; r == NULL && fb_variant_at(i) != NULL; i++) {
		const struct fb_variant *v = fb_variant_at(i);
		if (v->random && v->base != NULL &&
		    fb_variant_find(v->base, strlen(v->base)) == x->variant)
			r = v;
	}
	if (r == NULL || fb_fen_parse(&fen, text + b, e - b, NULL) < 0 ||
	    fen.pos.width != x->variant->width)
		return;
	if (fb_game_is_standard_castling(&fen.pos) ||
	    (!engine_lists(x, r) && !engine_lists(x, x->variant)))
		return;
	set_variant(x, r->name, strlen(r->name));
	if (x->emulated) {
		fb_proto_report(out, FB_LOG_INFO, "setboard: a %s position in "
				"variant %s: the engine does not list %s and "
				"plays it as %s in standard notation", r->name,
				r->base, r->name, r->base);
		return;
	}
	fb_proto_engine(out, "variant %s", r->name);
	fb_proto_report(out, FB_LOG_INFO, "setboard: a %s position in variant "
			"%s: sent variant %s to the engine first", r->name,
			r->base, r->name);
}

/* A move from the GUI, in the engine's notation. */
static void
gui_move(struct xboard *x, const char *text, size_t len, size_t term,
	 size_t start, size_t n, const char *what, const struct fb_sink *out)
{
	enum fb_castle_notation to = engine_notation(x);

	if (x->emulated && x->game_known &&
	    reanchor(x, text, len, term, start, n, out))
		return;
	if (to == FB_CASTLE_AUTO && x->game_known)
		remember_castle(x, text, start, n);
	move_line(x, text, len, term, start, n, to, what, out, FB_TO_ENGINE);
}

/* A bare move: one token that reads as a move in the current game. */
static bool
is_bare_move(const struct xboard *x, const char *text, size_t len,
	     size_t start, size_t n)
{
	struct fb_move m;
	size_t pos = start + n, s2;

	return x->game_known && fb_proto_token(text, len, &pos, &s2) == 0 &&
	       fb_game_parse_move(&x->game, text + start, n, &m) == 0;
}

static void
xboard_gui_line(void *state, const char *text, size_t len, size_t term,
		const struct fb_sink *out)
{
	struct xboard *x = state;
	struct fb_fen_style style = {
		.notation = engine_dialect(x),
		.prefix = x->variant != NULL ? x->variant->prefix : 0};
	struct fb_fen fen;
	size_t pos = 0, start, n;

	n = fb_proto_token(text, len, &pos, &start);
	if (fb_proto_is(text, start, n, "new")) {
		set_variant(x, "normal", 6);
		x->forced = false; /* CECP: new leaves force mode */
	} else if (fb_proto_is(text, start, n, "force")) {
		x->forced = true;
	} else if (fb_proto_is(text, start, n, "go") ||
		   fb_proto_is(text, start, n, "playother")) {
		x->forced = false;
	} else if (fb_proto_is(text, start, n, "variant")) {
		n = fb_proto_token(text, len, &pos, &start);
		set_variant(x, text + start, n);
		if (x->emulated) {
			emulated_variant(x, text, len, term, out);
			return;
		}
	} else if (fb_proto_is(text, start, n, "edit")) {
		/* Board edited square by square: not followed. Castling moves
		 * pass unchanged until the next new or setboard. */
		x->game_known = false;
	} else if (fb_proto_is(text, start, n, "undo") ||
		   fb_proto_is(text, start, n, "remove")) {
		undo(x, text[start] == 'u' ? 1 : 2);
		/* The engine cannot take back past a position of
		 * fenbridge's own: it gets the position after the undo. */
		if (x->anchored && x->game_known) {
			send_position(x, text, len, term, out);
			return;
		}
	} else if (fb_proto_is(text, start, n, "option")) {
		const struct fb_engine_option *o;
		const char *eq;
		n = fb_proto_token(text, len, &pos, &start);
		eq = memchr(text + start, '=', n);
		o = fb_proto_option(x->opt, text + start,
				    eq != NULL ? (size_t)(eq - text - start)
					       : n);
		if (o != NULL && (o->flags & FB_OPT_FORCED)) {
			fb_proto_report(out, FB_LOG_INFO,
					"option for '%s' dropped: the config "
					"forces it to '%s'", o->name, o->value);
			return;
		}
	} else if (fb_proto_is(text, start, n, "usermove")) {
		n = fb_proto_token(text, len, &pos, &start);
		gui_move(x, text, len, term, start, n, "usermove", out);
		return;
	} else if (fb_proto_is(text, start, n, "setboard")) {
		n = fb_proto_token(text, len, &pos, &start);
		if (n == 0) {
			fb_proto_report(out, FB_LOG_WARN,
					"setboard: no FEN on the line; "
					"passed unchanged");
		} else if (x->variant == NULL) {
			fb_proto_report(out, FB_LOG_DEBUG,
					"setboard: variant %s is not known "
					"to fenbridge; passed unchanged",
					x->variant_name);
		} else {
			random_for_setboard(x, text, start, fen_end(text, len),
					    out);
			x->nhistory = 0;
			x->anchored = false;
			x->game_known = fb_proto_splice_fen(out, FB_TO_ENGINE, 
				text, len, term, start, fen_end(text, len),
				&style, x->emulated, "setboard", &fen);
			if (x->game_known)
				x->game = fen.pos;
			if (!x->variant->follow)
				x->game_known = false;
			return;
		}
	} else if (n > 0 && is_bare_move(x, text, len, start, n)) {
		gui_move(x, text, len, term, start, n, "move", out);
		return;
	}
	out->to_engine(out->ctx, text, len + term);
}

#define MAX_FEATURE_EDITS 16

/*
 * `feature variants="..."`: keeps the engine's list and returns it with
 * the random variants whose base it lists but not themselves (GNU Chess:
 * "normal" becomes "normal,fischerandom"; fenbridge plays that part), or
 * NULL when nothing is added.
 */
static const char *
note_variants(struct xboard *x, const char *val, size_t n, size_t *out_len)
{
	size_t k = 0, cap = n + 64;

	free(x->engine_variants);
	free(x->variants_out);
	x->variants_out = NULL;
	if ((x->engine_variants = malloc(n + 1)) == NULL)
		return NULL; /* out of memory: the list passes as it is */
	memcpy(x->engine_variants, val, n);
	x->engine_variants[n] = '\0';
	for (size_t i = 0; fb_variant_at(i) != NULL; i++) {
		const struct fb_variant *v = fb_variant_at(i);
		size_t vl = strlen(v->name);
		if (v->base == NULL || engine_lists(x, v) ||
		    !engine_lists(x, fb_variant_find(v->base,
						     strlen(v->base))))
			continue;
		if (x->variants_out == NULL &&
		    (x->variants_out = malloc(cap)) == NULL)
			return NULL;
		if (k == 0) {
			memcpy(x->variants_out, val, n);
			k = n;
		}
		if (k + 1 + vl >= cap)
			break;
		x->variants_out[k++] = ',';
		memcpy(x->variants_out + k, v->name, vl);
		k += vl;
	}
	*out_len = k;
	return k > 0 ? x->variants_out : NULL;
}

/*
 * Reads `feature k=v k="v w" ...`: notes oocastle and the engine's name
 * (its quirk entry), replaces myname with the config's name and quotes an
 * unquoted one, removes options the config hides, and after done=1 sends
 * the config's options. Emits the (edited) line.
 */
static void
engine_features(struct xboard *x, const char *text, size_t len, size_t term,
		const struct fb_sink *out)
{
	struct fb_edit edits[MAX_FEATURE_EDITS] = {{0}};
	char quoted[160];
	unsigned nedits = 0;
	bool done = false, seen_variants = false;
	size_t i = 7; /* after "feature" */

	while (i < len) {
		size_t pair, key, keylen, val, vallen;
		bool is_quoted = false;
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
			is_quoted = true;
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
		if (fb_proto_is(text, key, keylen, "oocastle"))
			x->oocastle_off = vallen == 1 && text[val] == '0';
		else if (fb_proto_is(text, key, keylen, "done"))
			done = vallen == 1 && text[val] == '1';
		if (fb_proto_is(text, key, keylen, "myname")) {
			x->quirk = fb_quirk_find(text + val, vallen, "xboard");
			if (x->quirk != NULL) {
				x->kxr_for_oo |= x->quirk->kxr_for_oo;
				fb_proto_report(out, FB_LOG_INFO,
						"engine '%.*s': %s",
						(int)vallen, text + val,
						x->quirk->why);
			}
		}
		/* One variants list per line: a second one would free the
		 * buffer the first one's edit points into (a fuzz finding). */
		if (fb_proto_is(text, key, keylen, "variants") &&
		    !seen_variants) {
			size_t vl;
			seen_variants = true;
			const char *v = note_variants(x, text + val, vallen,
						      &vl);
			if (v != NULL && nedits < MAX_FEATURE_EDITS) {
				edits[nedits++] = (struct fb_edit){
					.off = val, .len = vallen, .text = v,
					.tlen = vl};
				fb_proto_report(out, FB_LOG_INFO,
						"the engine lists '%.*s': "
						"fenbridge adds the rest of "
						"'%.*s' and plays those "
						"variants in standard "
						"notation for it",
						(int)vallen, text + val,
						(int)vl, v);
			}
			continue;
		}
		if (nedits == MAX_FEATURE_EDITS)
			continue;
		if (fb_proto_is(text, key, keylen, "myname") &&
		    (x->opt->name != NULL || !is_quoted)) {
			/* XBoard refuses an unquoted name (Fairy-Stockfish
			 * sends one): the engine would be named after
			 * fenbridge in its PGNs. */
			const char *name = x->opt->name != NULL ? x->opt->name
								: text + val;
			size_t nl = x->opt->name != NULL ? strlen(name)
							 : vallen;
			if (is_quoted) {
				edits[nedits++] = (struct fb_edit){
					.off = val, .len = vallen,
					.text = name, .tlen = nl};
			} else if (nl + 2 <= sizeof quoted) {
				quoted[0] = '"';
				memcpy(quoted + 1, name, nl);
				quoted[nl + 1] = '"';
				edits[nedits++] = (struct fb_edit){
					.off = val, .len = vallen,
					.text = quoted, .tlen = nl + 2};
			}
		} else if (fb_proto_is(text, key, keylen, "option")) {
			/* option="NAME -type ...": the name ends at " -". */
			size_t nl = 0;
			const struct fb_engine_option *o;
			while (nl < vallen &&
			       !(text[val + nl] == ' ' &&
				 nl + 1 < vallen && text[val + nl + 1] == '-'))
				nl++;
			o = fb_proto_option(x->opt, text + val, nl);
			if (o != NULL && (o->flags & FB_OPT_HIDDEN))
				edits[nedits++] = (struct fb_edit){
					.off = pair, .len = i - pair,
					.text = "", .tlen = 0};
		}
	}
	fb_proto_emit_edited(out, FB_TO_GUI, text, len, term, edits, nedits);
	if (done) {
		for (size_t k = 0; k < x->opt->noptions; k++) {
			const struct fb_engine_option *o = &x->opt->options[k];
			if (o->flags & FB_OPT_SET)
				fb_proto_engine(out, "option %s=%s", o->name,
					       o->value);
		}
	}
}

static bool
is_any(char c, const char *set)
{
	return memchr(set, c, strlen(set)) != NULL;
}

/* True when text[0..len) holds the token word (between blanks, colons,
 * brackets or the ends). */
static bool
mentions(const char *text, size_t len, const char *word, size_t n)
{
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(text + i, word, n) == 0 &&
		    (i == 0 || is_any(text[i - 1], " \t:(")) &&
		    (i + n == len || is_any(text[i + n], " \t:)")))
			return true;
	return false;
}

/*
 * An engine's `Error ...` or `Illegal move ...` line: a rejected castle is
 * sent again as king takes rook (and castling goes that way from now on),
 * an error about an optional command is dropped. Returns true when the line
 * was handled and must not reach the GUI.
 */
static bool
engine_error(struct xboard *x, const char *text, size_t len,
	     const struct fb_sink *out)
{
	size_t e = fen_end(text, len), b = e;

	if (x->sent_len > 0 && mentions(text, len, x->sent, x->sent_len)) {
		fb_proto_report(out, FB_LOG_INFO,
				"the engine rejected the castle '%.*s' (%.*s): "
				"sent it again as '%.*s'; castling goes to it "
				"as king takes rook from now on",
				(int)x->sent_len, x->sent, (int)len, text,
				(int)x->resend_len, x->resend);
		x->resend[x->resend_len] = '\0';
		fb_proto_engine(out, "%s", x->resend);
		x->kxr_for_oo = true;
		x->sent_len = 0;
		return true;
	}
	if (text[0] != 'E')
		return false;
	while (b > 0 && text[b - 1] != ' ' && text[b - 1] != ':' &&
	       text[b - 1] != '\t')
		b--;
	for (size_t k = 0; k < sizeof optional_commands /
				       sizeof optional_commands[0];
	     k++)
		if (fb_proto_is(text, b, e - b, optional_commands[k])) {
			fb_proto_report(out, FB_LOG_INFO,
					"'%.*s' kept from the GUI: the engine "
					"does not know the optional command "
					"'%s'", (int)len, text,
					optional_commands[k]);
			return true;
		}
	return false;
}

static void
xboard_engine_line(void *state, const char *text, size_t len, size_t term,
		   const struct fb_sink *out)
{
	struct xboard *x = state;
	struct fb_fen_style style = {
		.notation = x->opt->gui_fen,
		.prefix = x->variant != NULL ? x->variant->prefix : 0};
	size_t pos = 0, start, n;

	n = fb_proto_token(text, len, &pos, &start);
	if (fb_proto_is(text, start, n, "move")) {
		x->sent_len = 0;
		n = fb_proto_token(text, len, &pos, &start);
		move_line(x, text, len, term, start, n, gui_notation(x),
			  "engine move", out, FB_TO_GUI);
		return;
	}
	if (fb_proto_is(text, start, n, "feature")) {
		engine_features(x, text, len, term, out);
		return;
	}
	if ((fb_proto_is(text, start, n, "Error") ||
	     (n > 5 && memcmp(text + start, "Error", 5) == 0) ||
	     fb_proto_is(text, start, n, "Illegal")) &&
	    engine_error(x, text + start, len - start, out))
		return;
	if (fb_proto_is(text, start, n, "setup") && x->variant != NULL) {
		/* Skip the optional (PIECES) and WxH+S_PARENT tokens: the FEN
		 * is the first token holding a '/' (its board). */
		while ((n = fb_proto_token(text, len, &pos, &start)) > 0 &&
		       memchr(text + start, '/', n) == NULL)
			;
		if (n > 0) {
			fb_proto_splice_fen(out, FB_TO_GUI, text, len, term, start,
					    fen_end(text, len), &style, false,
					    "setup", NULL);
			return;
		}
	}
	out->to_gui(out->ctx, text, len + term);
}

const struct fb_pair fb_pair_xboard = {
	.gui = &fb_protocol_xboard,
	.engine = &fb_protocol_xboard,
	.state_new = xboard_new,
	.state_free = xboard_free,
	.gui_line = xboard_gui_line,
	.engine_line = xboard_engine_line,
	.game = xboard_game,
	.variant = xboard_variant,
};
