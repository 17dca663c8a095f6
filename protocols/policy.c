/* SPDX-License-Identifier: MIT */
/*
 * The session's policy (see policy.h). The rules are doc/protocols.md's
 * "Castling moves: what auto means" and "Chess960 mode and re-anchoring",
 * and the dialect rules of doc/dialects.md; every pair asks here.
 *
 * No I/O in this file.
 */
#include "policy.h"
#include "proto.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define VARIANT_BITS 16

void
fb_policy_init(struct fb_policy *p, const struct fb_filter_options *opt,
	       const struct fb_protocol *gui, const struct fb_protocol *engine)
{
	memset(p, 0, sizeof *p);
	p->opt = opt;
	p->gui = gui;
	p->engine = engine;
	p->variant = fb_variant_normal;
}

static bool
engine_uci(const struct fb_policy *p)
{
	return p->engine == &fb_protocol_uci;
}

const struct fb_variant *
fb_policy_game_variant(const struct fb_policy *p)
{
	if (p->variant == NULL)
		return fb_variant_normal;
	if (p->gui_960 && p->variant == fb_variant_normal)
		return fb_variant_find("fischerandom", 12);
	return p->variant;
}

bool
fb_policy_gui_random(const struct fb_policy *p)
{
	return p->gui_960 || (p->variant != NULL && p->variant->random);
}

enum fb_castle_notation
fb_policy_gui_castling(const struct fb_policy *p)
{
	if (p->opt->gui_castling != FB_CASTLE_AUTO)
		return p->opt->gui_castling;
	if (p->gui == &fb_protocol_uci)
		return fb_policy_gui_random(p) ? FB_CASTLE_KXR : FB_CASTLE_KING;
	if (!fb_policy_gui_random(p))
		return FB_CASTLE_KING;
	/* The GUI read the engine's oocastle=0 only from an XBoard engine;
	 * fenbridge's own features never say it. */
	return !engine_uci(p) && p->oocastle_off ? FB_CASTLE_KXR : FB_CASTLE_OO;
}

bool
fb_policy_engine_960(const struct fb_policy *p)
{
	if (engine_uci(p))
		return (p->chess960 == FB_SUPPORT_LISTED && p->engine_960) ||
		       (p->engine_variant != NULL && p->engine_variant->random);
	return fb_policy_gui_random(p) && !p->emulated;
}

bool
fb_policy_engine_standard(const struct fb_policy *p)
{
	/* Before a UCI engine's option list ends nothing is known: FENs keep
	 * every right. */
	if (engine_uci(p))
		return !fb_policy_engine_960(p) &&
		       p->chess960 != FB_SUPPORT_UNKNOWN;
	return p->emulated;
}

static bool
rejects_oo(const struct fb_policy *p)
{
	return p->oocastle_off || p->kxr_for_oo ||
	       (p->quirk != NULL && p->quirk->kxr_for_oo);
}

enum fb_castle_notation
fb_policy_engine_castling(const struct fb_policy *p)
{
	bool random = fb_policy_gui_random(p);

	if (p->opt->engine_castling != FB_CASTLE_AUTO)
		return p->opt->engine_castling;
	if (engine_uci(p))
		return fb_policy_engine_960(p) ? FB_CASTLE_KXR : FB_CASTLE_KING;
	if (p->emulated)
		return FB_CASTLE_KING;
	if (random && rejects_oo(p))
		return FB_CASTLE_KXR;
	/* XBoard already writes what its engine asked for (O-O in FRC,
	 * king takes rook after oocastle=0): rewriting could only make
	 * things worse. */
	if (p->gui == &fb_protocol_xboard)
		return FB_CASTLE_AUTO;
	return random ? FB_CASTLE_OO : FB_CASTLE_KING;
}

struct fb_fen_style
fb_policy_engine_style(const struct fb_policy *p)
{
	enum fb_notation n = p->opt->engine_fen;

	if (p->opt->engine_fen_auto && p->quirk != NULL &&
	    p->quirk->shredder_fen)
		n = FB_SHREDDER;
	return (struct fb_fen_style){
		.notation = n,
		.prefix = p->variant != NULL ? p->variant->prefix : 0};
}

struct fb_fen_style
fb_policy_gui_style(const struct fb_policy *p)
{
	return (struct fb_fen_style){
		.notation = p->opt->gui_fen,
		.prefix = p->variant != NULL ? p->variant->prefix : 0};
}

bool
fb_policy_must_reanchor(const struct fb_policy *p, const struct fb_game *g,
			const struct fb_move *m)
{
	enum fb_castle_notation n;
	char buf[8];

	if (m->castle < 0)
		return false;
	if (fb_policy_engine_standard(p) && !fb_game_is_standard_castle(g, m))
		return true;
	n = fb_policy_engine_castling(p);
	return n != FB_CASTLE_AUTO &&
	       fb_game_print_castle(g, m, n, buf, sizeof buf) < 0;
}

int
fb_policy_anchor_fen(const struct fb_policy *p, const struct fb_game *g,
		     char *out, size_t cap, unsigned *dropped)
{
	struct fb_fen_style style = fb_policy_engine_style(p);
	struct fb_game c = *g;
	unsigned n = 0;

	if (fb_policy_engine_standard(p))
		n = fb_game_drop_nonstandard(&c);
	if (dropped != NULL)
		*dropped = n;
	return fb_game_print_fen(&c, &style, out, cap);
}

unsigned
fb_policy_anchor_game(const struct fb_policy *p, struct fb_game *g)
{
	return fb_policy_engine_standard(p) ? fb_game_drop_nonstandard(g) : 0;
}

static void
list_add(struct fb_variant_list *l, const char *name, size_t n)
{
	const struct fb_variant *v = fb_variant_find(name, n);
	size_t i;

	if (v == NULL || (i = fb_variant_index(v)) >= VARIANT_BITS ||
	    n >= FB_POLICY_NAME_MAX || (l->bits & (1u << i)))
		return;
	l->bits |= 1u << i;
	memcpy(l->name[i], name, n);
	l->name[i][n] = '\0';
}

void
fb_policy_read_variants(struct fb_variant_list *l, const char *text,
			const struct fb_span *vars, size_t nvars)
{
	memset(l, 0, sizeof *l);
	l->given = true;
	for (size_t i = 0; i < nvars; i++)
		list_add(l, text + vars[i].off, vars[i].len);
}

void
fb_policy_read_variants_csv(struct fb_variant_list *l, const char *text,
			    size_t len)
{
	size_t i = 0;

	memset(l, 0, sizeof *l);
	l->given = true;
	while (i < len) {
		size_t e = i;
		while (e < len && text[e] != ',')
			e++;
		list_add(l, text + i, e - i);
		i = e + 1;
	}
}

void
fb_policy_add_variant(struct fb_variant_list *l, const char *name, size_t n)
{
	list_add(l, name, n);
}

bool
fb_policy_engine_lists(const struct fb_policy *p, const struct fb_variant *v)
{
	size_t i;

	if (v == NULL)
		return false;
	/* UCI engines play normal chess without saying so; a CECP engine
	 * without a variants feature plays normal chess only. */
	if (!p->variants.given || (engine_uci(p) && v == fb_variant_normal))
		return v == fb_variant_normal;
	i = fb_variant_index(v);
	return i < VARIANT_BITS && (p->variants.bits & (1u << i));
}

const char *
fb_policy_engine_name(const struct fb_policy *p, const struct fb_variant *v)
{
	size_t i;

	if (v == NULL || !p->variants.given ||
	    (i = fb_variant_index(v)) >= VARIANT_BITS ||
	    !(p->variants.bits & (1u << i)))
		return NULL;
	return p->variants.name[i];
}

const struct fb_variant *
fb_policy_base(const struct fb_variant *v)
{
	return v != NULL && v->base != NULL
		       ? fb_variant_find(v->base, strlen(v->base))
		       : NULL;
}

/* Why the engine's game differs from the GUI's, for fb_policy_tell. */
static void
why_differs(const struct fb_policy *p, char *out, size_t cap)
{
	const struct fb_variant *v = fb_policy_game_variant(p);

	if (p->emulated)
		snprintf(out, cap,
			 "the engine plays %s as %s in standard notation",
			 v->name, v->base);
	else if (fb_policy_engine_standard(p))
		snprintf(out, cap, "the engine has no Chess960 castling");
	else
		snprintf(out, cap,
			 "the engine's castling notation cannot "
			 "write every castle");
}

void
fb_policy_tell(const struct fb_policy *p, bool *logged, bool *told,
	       const struct fb_sink *out, const char *fmt, ...)
{
	char msg[512], why[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fb_proto_report(out, *logged ? FB_LOG_DEBUG : FB_LOG_INFO, "%s", msg);
	*logged = true;
	if (*told)
		return;
	*told = true;
	why_differs(p, why, sizeof why);
	if (p->emulated || fb_policy_engine_standard(p))
		fb_proto_gui(out,
			     "%sfenbridge: %s; it gets only the castling "
			     "rights standard FEN can express, and a castle "
			     "it cannot read as the position after it",
			     p->gui->note, why);
	else
		fb_proto_gui(out,
			     "%sfenbridge: %s; a castle it cannot write goes "
			     "as the position after it",
			     p->gui->note, why);
}

void
fb_policy_tell_anchor(const struct fb_policy *p, bool *logged, bool *told,
		      const struct fb_game *after, const char *castle, size_t n,
		      const struct fb_sink *out)
{
	/* the castle's ply: after it, White to move at an even one */
	unsigned ply = 2 * (after->fullmove > 0 ? after->fullmove - 1 : 0) +
		       (after->side == FB_BLACK);
	char why[96];

	why_differs(p, why, sizeof why);
	fb_policy_tell(p, logged, told, out,
		       "re-anchored: the castle %.*s at ply %u: %s; it gets "
		       "the position after it",
		       (int)n, castle, ply, why);
}

void
fb_policy_send_uci_options(struct fb_policy *p, const struct fb_sink *out)
{
	for (size_t i = 0; i < p->opt->noptions; i++) {
		const struct fb_engine_option *o = &p->opt->options[i];
		if (!(o->flags & FB_OPT_SET) || o->value == NULL)
			continue;
		if (fb_proto_is_nocase(o->name, 0, strlen(o->name),
				       "UCI_Chess960")) {
			if (p->chess960 != FB_SUPPORT_LISTED)
				continue; /* fenbridge plays that part */
			p->engine_960 = fb_proto_is_nocase(
				o->value, 0, strlen(o->value), "true");
		}
		if (o->value[0] != '\0')
			fb_proto_engine(out, "setoption name %s value %s",
					o->name, o->value);
		else
			fb_proto_engine(out, "setoption name %s", o->name);
	}
}

bool
fb_policy_emulates(const struct fb_policy *p, const struct fb_variant *v)
{
	enum fb_play how = fb_policy_plays(p, v);

	if (p->gui == p->engine)
		return p->variants.given && how == FB_PLAY_EMULATED;
	return how != FB_PLAY_LISTED && fb_policy_base(v) != NULL;
}

enum fb_play
fb_policy_plays(const struct fb_policy *p, const struct fb_variant *v)
{
	const struct fb_variant *base = fb_policy_base(v);
	bool same = p->gui == p->engine;

	if (v == NULL)
		return FB_PLAY_NO;
	/* A translating pair keeps the game: it must follow its moves. */
	if (fb_policy_engine_lists(p, v))
		return same || v->follow ? FB_PLAY_LISTED : FB_PLAY_NO;
	if (!v->follow || !v->random || base == NULL ||
	    !fb_policy_engine_lists(p, base))
		return FB_PLAY_NO;
	if (engine_uci(p) && p->chess960 == FB_SUPPORT_LISTED)
		return FB_PLAY_CHESS960;
	return FB_PLAY_EMULATED;
}
