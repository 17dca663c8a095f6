/* SPDX-License-Identifier: MIT */
/*
 * An XBoard GUI with an XBoard engine (CECP, "Chess Engine Communication
 * Protocol", T. Mann, H.G. Muller), as state plus mapping: each line is
 * read once by the CECP codec (cecp_codec.h), and every decision of
 * castling notation, FEN dialect, variant and re-anchoring is the policy
 * record's (policy.h), which this pair fills from what it reads.
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
 * too, and plays it as that sibling in standard notation (the policy's
 * FB_PLAY_EMULATED): it gets only the castling rights standard FEN
 * expresses, a standard castle as the king's move, and a castle it cannot
 * read as the position after it (`setboard`, inside `force` ... `go` when
 * it is to reply); `undo` after that goes as `setboard` too.
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

#include "cecp_codec.h"
#include "policy.h"
#include "proto.h"

/* How far the pair follows the game, as one state: only follow() changes
 * it. */
enum xb_follow {
	XB_LOST,     /* not followed (a variant fenbridge does not follow,
			edit, a move it could not read): castling moves pass
			unchanged until the next new or setboard */
	XB_FOLLOWED, /* game is the game */
	XB_ANCHORED, /* followed, and the engine got a setboard of
			fenbridge's own this game: it cannot take back past
			that */
};

enum xb_event {
	XB_EV_START,    /* new, variant: the variant's start (ok: followed) */
	XB_EV_SETBOARD, /* the GUI's setboard (ok: understood, followed) */
	XB_EV_LOST,     /* edit, a move not understood, undo past the start */
	XB_EV_ANCHORED, /* a setboard of fenbridge's own went out */
};

struct xboard {
	const struct fb_filter_options *opt;
	struct fb_policy pol;
	/* The variant's name (pol.variant NULL: one fenbridge does not
	 * know). */
	char variant_name[32];
	char *variants_out; /* the engine's list with what fenbridge adds */
	bool forced;        /* the engine is in force mode */
	bool logged, told;  /* this game's re-anchoring was logged, told */
	/* The policy's castling notations, asked again after each change of
	 * the record (refresh()) rather than for every move. */
	enum fb_castle_notation gui_castling, engine_castling;

	enum xb_follow follow;
	struct fb_game game;
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

/* The one transition function of the game's state. */
static void
follow(struct xboard *x, enum xb_event ev, bool ok)
{
	switch (ev) {
	case XB_EV_START:
	case XB_EV_SETBOARD:
		x->follow = ok ? XB_FOLLOWED : XB_LOST;
		return;
	case XB_EV_LOST:
		x->follow = XB_LOST;
		return;
	case XB_EV_ANCHORED:
		if (x->follow == XB_FOLLOWED)
			x->follow = XB_ANCHORED;
		return;
	}
}

static bool
followed(const struct xboard *x)
{
	return x->follow != XB_LOST;
}

/* After the policy record changed. */
static void
refresh(struct xboard *x)
{
	x->gui_castling = fb_policy_gui_castling(&x->pol);
	x->engine_castling = fb_policy_engine_castling(&x->pol);
}

static void *
xboard_new(const struct fb_filter_options *opt)
{
	struct xboard *x = calloc(1, sizeof *x);

	if (x == NULL)
		return NULL;
	x->opt = opt;
	fb_policy_init(&x->pol, opt, &fb_protocol_xboard, &fb_protocol_xboard);
	strcpy(x->variant_name, "normal");
	fb_game_start(&x->game, fb_variant_normal->start);
	follow(x, XB_EV_START, true);
	refresh(x);
	return x;
}

static void
xboard_free(void *state)
{
	struct xboard *x = state;

	free(x->history);
	free(x->variants_out);
	free(x);
}

static const struct fb_game *
xboard_game(const void *state)
{
	const struct xboard *x = state;

	return followed(x) ? &x->game : NULL;
}

static const char *
xboard_variant(const void *state)
{
	const struct xboard *x = state;

	return x->variant_name;
}

static void
set_variant(struct xboard *x, const char *name, size_t n)
{
	const struct fb_variant *v = fb_variant_find(name, n);

	if (n >= sizeof x->variant_name)
		n = sizeof x->variant_name - 1;
	memcpy(x->variant_name, name, n);
	x->variant_name[n] = '\0';
	x->pol.variant = v;
	x->pol.emulated = fb_policy_emulates(&x->pol, v);
	x->nhistory = 0;
	x->sent_len = 0;
	x->logged = x->told = false;
	follow(x, XB_EV_START, v != NULL && v->start != NULL && v->follow);
	if (followed(x))
		fb_variant_start(v, &x->game);
	refresh(x);
}

static bool
push_history(struct xboard *x)
{
	struct fb_game *h = fb_proto_grow(x->history, x->nhistory,
					  &x->history_cap, sizeof *h, 64);

	if (h == NULL)
		return false;
	x->history = h;
	x->history[x->nhistory++] = x->game;
	return true;
}

static void
undo(struct xboard *x, unsigned plies)
{
	for (unsigned i = 0; i < plies; i++) {
		if (x->nhistory == 0) {
			follow(x, XB_EV_LOST, false);
			return;
		}
		x->game = x->history[--x->nhistory];
	}
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

/* Follows the move mv of the line and emits the line with a castling move
 * in notation to (FB_CASTLE_AUTO: as it was written) toward d. */
static void
move_line(struct xboard *x, const char *text, size_t len, size_t term,
	  struct fb_span mv, enum fb_castle_notation to, const char *what,
	  const struct fb_sink *out, enum fb_dir d)
{
	struct fb_edit edit;
	char pool[8];
	bool pushed;

	if (!followed(x)) {
		fb_sink_put(out, d, text, len + term);
		return;
	}
	pushed = push_history(x);
	if (fb_proto_move(&x->game, text, mv.off, mv.len,
			  to == FB_CASTLE_AUTO ? FB_CASTLE_KXR : to, &edit,
			  pool, out, what, FB_LOG_WARN) < 0) {
		if (pushed)
			x->nhistory--;
		fb_proto_report(out, FB_LOG_WARN,
				"%s: cannot follow the game at '%.*s'; "
				"castling moves pass unchanged until the "
				"next new or setboard",
				what, (int)mv.len, text + mv.off);
		follow(x, XB_EV_LOST, false);
		fb_sink_put(out, d, text, len + term);
		return;
	}
	if (!pushed)
		x->nhistory = 0; /* out of memory: undo will lose the game */
	if (edit.len > 0 && to != FB_CASTLE_AUTO) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"%s: castling '%.*s' sent "
				"as '%.*s'",
				what, (int)mv.len, text + mv.off,
				(int)edit.tlen, edit.text);
		fb_proto_emit_edited(out, d, text, len, term, &edit, 1);
	} else {
		fb_sink_put(out, d, text, len + term);
	}
}

/* Emits a line of fenbridge's own toward the engine, ended like the
 * GUI's line it replaces. */
static void
emit_line(const char *line, size_t n, const char *text, size_t len, size_t term,
	  const struct fb_sink *out)
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
	const struct fb_variant *v = x->pol.variant;
	char line[64];
	int n;

	fb_proto_report(out, FB_LOG_INFO,
			"variant %s: the engine does not list it; it plays "
			"it as %s in standard notation",
			v->name, v->base);
	if (fb_policy_base(v) == fb_variant_normal)
		return;
	n = snprintf(line, sizeof line, "variant %s", v->base);
	emit_line(line, (size_t)n, text, len, term, out);
}

/*
 * Sends the game's position to the engine as a setboard of fenbridge's
 * own (the policy's re-anchoring FEN: only the rights it can read) instead
 * of the GUI's line; when the engine is to reply (not in force mode),
 * inside force ... go.
 */
static void
send_position(struct xboard *x, const char *text, size_t len, size_t term,
	      const struct fb_sink *out)
{
	char line[16 + FB_GAME_FEN_MAX];
	int n;

	memcpy(line, "setboard ", 9);
	n = fb_policy_anchor_fen(&x->pol, &x->game, line + 9, sizeof line - 9,
				 NULL);
	if (n < 0)
		return; /* cannot happen: the buffer fits any board */
	if (!x->forced)
		fb_proto_engine(out, "force");
	emit_line(line, (size_t)n + 9, text, len, term, out);
	if (!x->forced)
		fb_proto_engine(out, "go");
	follow(x, XB_EV_ANCHORED, true);
}

/*
 * A castle the engine cannot read (it plays the variant in standard
 * notation, and this castle is not a standard one): played here, sent as
 * the position after it. Returns false when the move is something else.
 */
static bool
reanchor(struct xboard *x, const char *text, size_t len, size_t term,
	 struct fb_span mv, const struct fb_sink *out)
{
	struct fb_move m;

	if (fb_game_parse_move(&x->game, text + mv.off, mv.len, &m) < 0 ||
	    !fb_policy_must_reanchor(&x->pol, &x->game, &m))
		return false;
	if (!push_history(x))
		x->nhistory = 0; /* out of memory: undo will lose the game */
	fb_game_play(&x->game, &m);
	fb_policy_tell_anchor(&x->pol, &x->logged, &x->told, &x->game,
			      text + mv.off, mv.len, out);
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
random_for_setboard(struct xboard *x, const char *text, struct fb_span f,
		    const struct fb_sink *out)
{
	const struct fb_variant *v = x->pol.variant, *r = NULL;
	struct fb_fen fen;

	if (v == NULL || v->random || !x->pol.variants.given || !v->follow)
		return;
	for (size_t i = 0; r == NULL && fb_variant_at(i) != NULL; i++) {
		const struct fb_variant *c = fb_variant_at(i);
		if (c->random && fb_policy_base(c) == v)
			r = c;
	}
	if (r == NULL || fb_fen_parse(&fen, text + f.off, f.len, NULL) < 0 ||
	    fen.pos.width != v->width)
		return;
	if (fb_game_is_standard_castling(&fen.pos) ||
	    (!fb_policy_engine_lists(&x->pol, r) &&
	     !fb_policy_engine_lists(&x->pol, v)))
		return;
	set_variant(x, r->name, strlen(r->name));
	if (x->pol.emulated) {
		fb_proto_report(out, FB_LOG_INFO,
				"setboard: a %s position in "
				"variant %s: the engine does not list %s and "
				"plays it as %s in standard notation",
				r->name, r->base, r->name, r->base);
		return;
	}
	fb_proto_engine(out, "variant %s", r->name);
	fb_proto_report(out, FB_LOG_INFO,
			"setboard: a %s position in variant "
			"%s: sent variant %s to the engine first",
			r->name, r->base, r->name);
}

/* A move from the GUI, in the engine's notation. */
static void
gui_move(struct xboard *x, const char *text, size_t len, size_t term,
	 struct fb_span mv, const char *what, const struct fb_sink *out)
{
	enum fb_castle_notation to = x->engine_castling;

	if (x->pol.emulated && followed(x) &&
	    reanchor(x, text, len, term, mv, out))
		return;
	if (to == FB_CASTLE_AUTO && followed(x))
		remember_castle(x, text, mv.off, mv.len);
	move_line(x, text, len, term, mv, to, what, out, FB_TO_ENGINE);
}

/* `setboard FEN`: the FEN in the engine's dialect, the game from it. */
static void
gui_setboard(struct xboard *x, const char *text, size_t len, size_t term,
	     struct fb_span f, const struct fb_sink *out)
{
	struct fb_fen_style style;
	struct fb_fen fen;
	bool ok;

	random_for_setboard(x, text, f, out);
	style = fb_policy_engine_style(&x->pol);
	x->nhistory = 0;
	ok = fb_proto_splice_fen(out, FB_TO_ENGINE, text, len, term, f.off,
				 f.off + f.len, &style, x->pol.emulated,
				 "setboard", &fen);
	follow(x, XB_EV_SETBOARD, ok && x->pol.variant->follow);
	if (ok) {
		x->game = fen.pos;
		fb_variant_apply(x->pol.variant, &x->game);
	}
}

static void
xboard_gui_line(void *state, const char *text, size_t len, size_t term,
		const struct fb_sink *out)
{
	struct xboard *x = state;
	struct fb_cecp_command c;
	struct fb_move m;
	struct fb_span w;

	fb_cecp_parse_gui(text, len, &c);
	switch (c.kind) {
	case FB_CECP_G_NEW:
		set_variant(x, "normal", 6);
		x->forced = false; /* CECP: new leaves force mode */
		break;
	case FB_CECP_G_FORCE:
		x->forced = true;
		break;
	case FB_CECP_G_GO:
	case FB_CECP_G_PLAYOTHER:
		x->forced = false;
		break;
	case FB_CECP_G_VARIANT:
		w = fb_span_first(text, c.arg);
		set_variant(x, text + w.off, w.len);
		if (x->pol.emulated) {
			emulated_variant(x, text, len, term, out);
			return;
		}
		break;
	case FB_CECP_G_EDIT:
		/* Board edited square by square: not followed. Castling moves
		 * pass unchanged until the next new or setboard. */
		follow(x, XB_EV_LOST, false);
		break;
	case FB_CECP_G_UNDO:
	case FB_CECP_G_REMOVE:
		undo(x, c.kind == FB_CECP_G_UNDO ? 1 : 2);
		/* The engine cannot take back past a position of
		 * fenbridge's own: it gets the position after the undo. */
		if (x->follow == XB_ANCHORED) {
			send_position(x, text, len, term, out);
			return;
		}
		break;
	case FB_CECP_G_OPTION: {
		/* option NAME=VALUE, or NAME alone (a button) */
		const struct fb_engine_option *o;
		struct fb_cecp_option opt;
		fb_cecp_parse_option(text, c.arg, &opt);
		o = fb_proto_option(x->opt, text + opt.name.off, opt.name.len);
		if (o != NULL && (o->flags & FB_OPT_FORCED)) {
			fb_proto_report(out, FB_LOG_INFO,
					"option for '%s' dropped: the config "
					"forces it to '%s'",
					o->name, o->value);
			return;
		}
		break;
	}
	case FB_CECP_G_USERMOVE:
		gui_move(x, text, len, term, fb_span_first(text, c.arg),
			 "usermove", out);
		return;
	case FB_CECP_G_SETBOARD:
		if (c.arg.len == 0) {
			fb_proto_report(out, FB_LOG_WARN,
					"setboard: no FEN on the line; "
					"passed unchanged");
		} else if (x->pol.variant == NULL) {
			fb_proto_report(out, FB_LOG_DEBUG,
					"setboard: variant %s is not known "
					"to fenbridge; passed unchanged",
					x->variant_name);
		} else {
			gui_setboard(x, text, len, term, c.arg, out);
			return;
		}
		break;
	case FB_CECP_G_OTHER:
		/* A bare move: one token that reads as a move in the game. */
		if (c.word.len > 0 && c.arg.len == 0 && followed(x) &&
		    fb_game_parse_move(&x->game, text + c.word.off, c.word.len,
				       &m) == 0) {
			gui_move(x, text, len, term, c.word, "move", out);
			return;
		}
		break;
	default:
		break;
	}
	out->to_engine(out->ctx, text, len + term);
}

#define MAX_FEATURE_EDITS 16

/*
 * `feature variants="..."`: the engine's list into the policy record;
 * returns it with the random variants the engine plays as their base (GNU
 * Chess: "normal" becomes "normal,fischerandom"; fenbridge plays that
 * part), or NULL when nothing is added.
 */
static const char *
note_variants(struct xboard *x, const char *val, size_t n, size_t *out_len)
{
	size_t k = 0, cap = n + 64;

	free(x->variants_out);
	x->variants_out = NULL;
	fb_policy_read_variants_csv(&x->pol.variants, val, n);
	for (size_t i = 0; fb_variant_at(i) != NULL; i++) {
		const struct fb_variant *v = fb_variant_at(i);
		size_t vl = strlen(v->name);
		if (!fb_policy_emulates(&x->pol, v))
			continue;
		if (x->variants_out == NULL &&
		    (x->variants_out = malloc(cap)) == NULL)
			return NULL; /* out of memory: the list passes as is */
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

/* The edits of one feature line, and the room a quoted name needs. */
struct feature_edits {
	struct fb_edit e[MAX_FEATURE_EDITS];
	unsigned n;
	char quoted[160];
};

static void
add_edit(struct feature_edits *fe, struct fb_span at, const char *text,
	 size_t tlen)
{
	if (fe->n < MAX_FEATURE_EDITS)
		fe->e[fe->n++] = (struct fb_edit){.off = at.off,
						  .len = at.len,
						  .text = text,
						  .tlen = tlen};
}

/* myname: the engine's quirk entry, learnt for good. */
static void
feature_quirk(struct xboard *x, const char *val, size_t vallen,
	      const struct fb_sink *out)
{
	x->pol.quirk = fb_quirk_find(val, vallen, "xboard");
	if (x->pol.quirk == NULL)
		return;
	/* learnt for good, as a rejected O-O is */
	x->pol.kxr_for_oo |= x->pol.quirk->kxr_for_oo;
	fb_proto_report(out, FB_LOG_INFO, "engine '%.*s': %s", (int)vallen, val,
			x->pol.quirk->why);
}

/* variants: noted, and extended by what fenbridge plays for the engine. */
static void
feature_variants(struct xboard *x, const char *text,
		 const struct fb_cecp_feature *f, struct feature_edits *fe,
		 const struct fb_sink *out)
{
	const char *val = text + f->value.off;
	size_t vallen = f->value.len, vl;
	const char *v = note_variants(x, val, vallen, &vl);

	if (v == NULL || fe->n == MAX_FEATURE_EDITS)
		return;
	add_edit(fe, f->value, v, vl);
	fb_proto_report(out, FB_LOG_INFO,
			"the engine lists '%.*s': fenbridge adds the rest of "
			"'%.*s' and plays those variants in standard notation "
			"for it",
			(int)vallen, val, (int)vl, v);
}

/* myname: the config's name instead, and quoted: XBoard refuses an
 * unquoted name (Fairy-Stockfish sends one), and the engine would be named
 * after fenbridge in its PGNs. */
static void
feature_name(const struct xboard *x, const char *text,
	     const struct fb_cecp_feature *f, struct feature_edits *fe)
{
	const char *name = x->opt->name != NULL ? x->opt->name
						: text + f->value.off;
	size_t nl = x->opt->name != NULL ? strlen(name) : f->value.len;

	if (x->opt->name == NULL && f->quoted)
		return;
	if (f->quoted) {
		add_edit(fe, f->value, name, nl);
	} else if (nl + 2 <= sizeof fe->quoted) {
		fe->quoted[0] = '"';
		memcpy(fe->quoted + 1, name, nl);
		fe->quoted[nl + 1] = '"';
		add_edit(fe, f->value, fe->quoted, nl + 2);
	}
}

/* option: one the config hides is taken out of the line. */
static void
feature_option(const struct xboard *x, const char *text,
	       const struct fb_cecp_feature *f, struct feature_edits *fe)
{
	struct fb_cecp_option_feature of;
	const struct fb_engine_option *o;

	fb_cecp_parse_option_feature(text, f->value, &of);
	o = fb_proto_option(x->opt, text + of.name.off, of.name.len);
	if (o != NULL && (o->flags & FB_OPT_HIDDEN))
		add_edit(fe, f->pair, "", 0);
}

/*
 * Reads `feature k=v k="v w" ...` one key=value at a time: notes oocastle,
 * the engine's name (its quirk entry) and its variants in the policy
 * record, replaces myname with the config's name and quotes an unquoted
 * one, removes options the config hides, extends the variants list, and
 * after done=1 sends the config's options. Emits the (edited) line.
 */
static void
engine_features(struct xboard *x, const char *text, size_t len, size_t term,
		const struct fb_cecp_line *l, const struct fb_sink *out)
{
	struct feature_edits fe = {.n = 0};
	struct fb_cecp_feature f;
	bool done = false, seen_variants = false, valid;
	size_t pos = l->word.off + l->word.len; /* after `feature` */

	while (fb_cecp_next_feature(text, len, &pos, &f)) {
		if (fb_span_is(text, f.key, "oocastle"))
			x->pol.oocastle_off =
				!fb_cecp_feature_flag(text, &f, &valid) &&
				valid;
		else if (fb_span_is(text, f.key, "done"))
			done = fb_cecp_feature_flag(text, &f, NULL);
		else if (fb_span_is(text, f.key, "myname")) {
			feature_quirk(x, text + f.value.off, f.value.len, out);
			feature_name(x, text, &f, &fe);
		} else if (fb_span_is(text, f.key, "variants") &&
			   !seen_variants) {
			/* One variants list per line: a second one would
			 * free the buffer the first one's edit points into
			 * (a fuzz finding). */
			seen_variants = true;
			feature_variants(x, text, &f, &fe, out);
		} else if (fb_span_is(text, f.key, "option")) {
			feature_option(x, text, &f, &fe);
		}
	}
	fb_proto_emit_edited(out, FB_TO_GUI, text, len, term, fe.e, fe.n);
	refresh(x);
	for (size_t k = 0; done && k < x->opt->noptions; k++) {
		const struct fb_engine_option *o = &x->opt->options[k];
		if (o->flags & FB_OPT_SET)
			fb_proto_engine(out, "option %s=%s", o->name, o->value);
	}
}

/*
 * An engine's `Error ...` or `Illegal move ...` line (l->arg: what it
 * rejects): a rejected castle is sent again as king takes rook (and
 * castling goes that way from now on), an error about an optional command
 * is dropped. Returns true when the line was handled and must not reach
 * the GUI.
 */
static bool
engine_error(struct xboard *x, const char *text, size_t len,
	     const struct fb_cecp_line *l, const struct fb_sink *out)
{
	struct fb_span a = l->arg;

	/* `Illegal move (O-O)`: the move in brackets */
	if (a.len >= 2 && text[a.off] == '(' &&
	    text[a.off + a.len - 1] == ')') {
		a.off++;
		a.len -= 2;
	}
	if (x->sent_len > 0 && a.len == x->sent_len &&
	    memcmp(text + a.off, x->sent, a.len) == 0) {
		fb_proto_report(out, FB_LOG_INFO,
				"the engine rejected the castle '%.*s' (%.*s): "
				"sent it again as '%.*s'; castling goes to it "
				"as king takes rook from now on",
				(int)x->sent_len, x->sent, (int)len, text,
				(int)x->resend_len, x->resend);
		x->resend[x->resend_len] = '\0';
		fb_proto_engine(out, "%s", x->resend);
		x->pol.kxr_for_oo = true;
		x->sent_len = 0;
		refresh(x);
		return true;
	}
	if (l->kind != FB_CECP_E_ERROR)
		return false;
	for (size_t k = 0;
	     k < sizeof optional_commands / sizeof optional_commands[0]; k++)
		if (fb_span_is(text, l->arg, optional_commands[k])) {
			fb_proto_report(out, FB_LOG_INFO,
					"'%.*s' kept from the GUI: the engine "
					"does not know the optional command "
					"'%s'",
					(int)(len - l->start), text + l->start,
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
	struct fb_cecp_line l;
	struct fb_fen_style style;

	/* Thinking output passes as it is: not read. */
	fb_cecp_parse_engine_command(text, len, &l);
	switch (l.kind) {
	case FB_CECP_E_MOVE:
		/* `move M`; the older forms (GNU Chess announces its move
		 * twice in them) pass as they are. */
		if (l.form != FB_CECP_MOVE_CMD)
			break;
		x->sent_len = 0;
		move_line(x, text, len, term, l.arg, x->gui_castling,
			  "engine move", out, FB_TO_GUI);
		return;
	case FB_CECP_E_FEATURE:
		engine_features(x, text, len, term, &l, out);
		return;
	case FB_CECP_E_ERROR:
	case FB_CECP_E_ILLEGAL:
		if (engine_error(x, text, len, &l, out))
			return;
		break;
	case FB_CECP_E_SETUP:
		if (x->pol.variant == NULL)
			break;
		style = fb_policy_gui_style(&x->pol);
		fb_proto_splice_fen(out, FB_TO_GUI, text, len, term, l.arg.off,
				    l.arg.off + l.arg.len, &style, false,
				    "setup", NULL);
		return;
	default:
		break;
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
