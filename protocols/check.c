/* SPDX-License-Identifier: MIT */
/*
 * `fenbridge check`'s script (see check.h): the steps of a compliance run,
 * what each sends, what answer ends it, and how that answer is judged.
 *
 * The test positions (check_pos.c) have a castle that is the one move that
 * mates ("read" positions) or gives check with exactly one legal reply
 * ("accept" positions). An engine that
 * read the castling field right plays the castle; one that did not plays
 * another move, an illegal one, or dies. An engine that took a castle sent
 * in some form as that castle answers the check with the one legal reply;
 * one that rejected or misread it answers otherwise. The castling rook of
 * the Chess960 ones stands off the corner (X-FEN `K`, Shredder-FEN `G`: the
 * two dialects differ) or inside another rook (`F` in both); in the DFRC
 * one the two colours' back ranks differ and both have rights.
 *
 * No I/O, no allocation.
 */
#include "check.h"
#include "check_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cecp_codec.h"
#include "cecp_edit.h"
#include "fenbridge/fen.h"
#include "fenbridge/movegen.h"
#include "token.h"
#include "uci_codec.h"
#include "uci_xboard/uci_xboard.h" /* its nudges of a silent engine */

enum phase {
	PH_PROBE_UCI,  /* uci sent, uciok awaited */
	PH_XB_FEATURE, /* xboard + protover 2 sent, done=1 awaited */
	PH_STEP_SETUP, /* a step's setup sent, readyok / pong awaited */
	PH_STEP,       /* a step's question sent, its answer awaited */
	PH_STOP_WAIT,  /* go infinite sent: the timer says when to stop */
	PH_DONE,
};

#define SEARCH_DEPTH 3
#define STOP_AFTER_MS 500
#define ANALYZE_MS 1000 /* analyze this long before exit */
/* The pondering steps' moves: position -2 follows from them. */
#define PONDER_MOVES "e2e4 e7e5"
#define MULTIPV FB_CHECK_MULTIPV
#define MAX_RESTARTS FB_CHECK_MAX_RESTARTS

const char fb_check_unknown_cmd[] = "fenbridge-check-unknown-command";
#define unknown_cmd fb_check_unknown_cmd

__attribute__((format(printf, 2, 3))) static void
put(struct fb_check_out *out, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out->text + out->len, sizeof out->text - out->len, fmt,
		      ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof out->text - out->len)
		out->len += (size_t)n;
}

/* (Re)arms the driver's timer for ms (0: stops it): an answer's
 * deadline. */
static void
arm(struct fb_check_out *out, unsigned ms)
{
	out->rearm = true;
	out->wait_ms = ms;
	out->clock = FB_CHECK_ANSWER;
}

/* The same for another clock than an answer's deadline. */
static void
arm_clock(struct fb_check_out *out, unsigned ms, enum fb_check_clock clock)
{
	arm(out, ms);
	out->clock = clock;
}

static struct fb_check_step *
add(struct fb_check *c, int kind, int pos, bool c960, enum fb_notation d,
    enum fb_castle_notation form)
{
	struct fb_check_step *s;

	if (c->nsteps >= FB_CHECK_STEPS_MAX)
		return NULL;
	s = &c->step[c->nsteps++];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->pos = pos;
	s->c960 = c960;
	s->dialect = d;
	s->form = form;
	return s;
}

void
fb_check_init(struct fb_check *c, enum fb_check_protocol want,
	      unsigned timeout_ms, unsigned search_ms)
{
	memset(c, 0, sizeof *c);
	c->want = want;
	c->timeout_ms = timeout_ms;
	c->search_ms = search_ms;
}

/* The engine's Chess960 mode is usable: UCI_Chess960, or fischerandom in
 * the variants feature. */
static bool
has_960(const struct fb_check *c)
{
	return c->proto == FB_CHECK_UCI ? c->opt_chess960
					: c->feat_setboard && c->var_960;
}

/* A step with a position, through edit for an XBoard engine without
 * setboard (one per position: there is no castling field to vary). */
static void
add_pos(struct fb_check *c, int kind, int i, bool c960, enum fb_notation d,
	enum fb_castle_notation form)
{
	bool edit = c->proto == FB_CHECK_XBOARD && !c->feat_setboard;
	struct fb_check_step *s;

	if (edit && (d != FB_XFEN || !fb_check_edit_can(i)))
		return;
	s = add(c, kind, i, c960, d, form);
	if (s != NULL)
		s->edit = edit;
}

/* The engine lists variant v (UCI_Variant's values, XBoard's variants
 * feature). */
static bool
listed(const struct fb_check *c, enum fb_check_variant v)
{
	switch (v) {
	case FB_CKV_CAPABLANCA:
		return c->var_capab;
	case FB_CKV_CAPARANDOM:
		return c->var_capa;
	case FB_CKV_JANUS:
		return c->var_janus;
	case FB_CKV_EMBASSY:
		return c->var_embassy;
	default:
		return true;
	}
}

/* The steps, once the handshake told what the engine offers. */
static void
plan(struct fb_check *c)
{
	static const enum fb_castle_notation uci_forms[] = {FB_CASTLE_KING,
							    FB_CASTLE_KXR};
	static const enum fb_castle_notation xb_forms[] = {
		FB_CASTLE_OO, FB_CASTLE_KXR, FB_CASTLE_KING};
	bool uci = c->proto == FB_CHECK_UCI;
	const enum fb_castle_notation *forms = uci ? uci_forms : xb_forms;
	size_t nforms = uci ? 2 : 3;

	c->nsteps = 0;
	add(c, FB_CK_READY, -1, false, FB_XFEN, FB_CASTLE_AUTO);
	add(c, FB_CK_UNKNOWN, -1, false, FB_XFEN, FB_CASTLE_AUTO);
	/* Standard chess first, then Chess960, then 10x8: an XBoard engine
	 * whose new keeps the last variant spoils no step of another mode,
	 * and a step after each variant shows it (FB_CK_NEWNORMAL). */
	for (int m = 0; m <= has_960(c); m++) {
		/* Standard positions in both modes, Chess960 ones in Chess960
		 * mode; one dialect where both write the same field. */
		for (int i = 0; i < fb_check_npos(); i++)
			for (int d = FB_XFEN; d <= FB_SHREDDER; d++)
				if (fb_check_pos_read(i) &&
				    !fb_check_pos_wide(i) &&
				    (!fb_check_pos_c960(i) || m) &&
				    (d == FB_XFEN || !fb_check_pos_same(i)))
					add_pos(c, FB_CK_READ, i, m,
						(enum fb_notation)d,
						FB_CASTLE_AUTO);
		/* O-O is XBoard's form for FRC only: standard chess gets the
		 * king's move and king takes rook. A form that cannot write
		 * the castle (the king's move one file away) is left out. */
		for (int i = 0; i < fb_check_npos(); i++)
			for (size_t f = 0; f < nforms; f++)
				if (!fb_check_pos_read(i) &&
				    !fb_check_pos_wide(i) &&
				    fb_check_pos_c960(i) == m &&
				    (m || forms[f] != FB_CASTLE_OO) &&
				    fb_check_can_write(i, forms[f]))
					add_pos(c, FB_CK_ACCEPT, i, m, FB_XFEN,
						forms[f]);
	}
	if (!uci && c->feat_setboard && has_960(c))
		add(c, FB_CK_NEWNORMAL, FB_CHECK_P_STD_ACCEPT, false, FB_XFEN,
		    FB_CASTLE_KING);
	/* 10x8 in each variant it lists (capablanca, caparandom, janus,
	 * embassy): which field it reads there, which castle forms it takes
	 * (as in 8x8, O-O in caparandom only). */
	for (int v = FB_CKV_CAPABLANCA; v < FB_CKV_COUNT; v++) {
		bool m = v == FB_CKV_CAPARANDOM;
		if (!listed(c, (enum fb_check_variant)v))
			continue;
		for (int i = 0; i < fb_check_npos(); i++)
			for (int d = FB_XFEN; d <= FB_SHREDDER; d++)
				if (fb_check_pos_read(i) &&
				    (int)fb_check_variant_in(i, m) == v &&
				    (!fb_check_pos_c960(i) || m) &&
				    (d == FB_XFEN || !fb_check_pos_same(i)))
					add_pos(c, FB_CK_READ, i, m,
						(enum fb_notation)d,
						FB_CASTLE_AUTO);
		for (int i = 0; i < fb_check_npos(); i++)
			for (size_t f = 0; f < nforms; f++)
				if (!fb_check_pos_read(i) &&
				    (int)fb_check_variant_in(i, m) == v &&
				    fb_check_pos_c960(i) == m &&
				    (m || forms[f] != FB_CASTLE_OO) &&
				    fb_check_can_write(i, forms[f]))
					add_pos(c, FB_CK_ACCEPT, i, m, FB_XFEN,
						forms[f]);
	}
	if (!uci && c->feat_setboard &&
	    (c->var_capa || c->var_capab || c->var_janus || c->var_embassy))
		add(c, FB_CK_NEWNORMAL, FB_CHECK_P_STD_ACCEPT, false, FB_XFEN,
		    FB_CASTLE_KING);
	if (uci && c->opt_ponder) {
		add(c, FB_CK_PONDERHIT, -2, false, FB_XFEN, FB_CASTLE_AUTO);
		add(c, FB_CK_PONDERMISS, -2, false, FB_XFEN, FB_CASTLE_AUTO);
	}
	if (uci && c->opt_multipv)
		add(c, FB_CK_MULTIPV, -1, false, FB_XFEN, FB_CASTLE_AUTO);
	/* XBoard pondering and analyze: ping tells when each setup is in. */
	if (!uci && c->feat_ping) {
		add(c, FB_CK_XB_PONDERHIT, -1, false, FB_XFEN, FB_CASTLE_AUTO);
		add(c, FB_CK_XB_PONDERMISS, -1, false, FB_XFEN, FB_CASTLE_AUTO);
		if (!c->feat_analyze_off)
			add(c, FB_CK_ANALYZE, -1, false, FB_XFEN,
			    FB_CASTLE_AUTO);
	}
	add(c, FB_CK_STOP, -1, false, FB_XFEN, FB_CASTLE_AUTO);
	add(c, FB_CK_QUIT, -1, false, FB_XFEN, FB_CASTLE_AUTO);
	c->at = 0;
}

/* The dialect the engine read in this mode (its X-FEN read step, else its
 * Shredder-FEN one): for the accept steps' FENs. */
static enum fb_notation
readable(const struct fb_check *c, bool c960)
{
	for (size_t i = 0; i < c->nsteps; i++) {
		const struct fb_check_step *s = &c->step[i];
		if (s->kind == FB_CK_READ && s->c960 == c960 &&
		    !fb_check_pos_same(s->pos) && s->dialect == FB_SHREDDER &&
		    s->verdict == FB_CV_OK) {
			for (size_t j = 0; j < c->nsteps; j++) {
				const struct fb_check_step *t = &c->step[j];
				if (t->kind == FB_CK_READ && t->c960 == c960 &&
				    t->dialect == FB_XFEN &&
				    t->verdict != FB_CV_OK &&
				    t->verdict != FB_CV_UNTESTED)
					return FB_SHREDDER;
			}
		}
	}
	return FB_XFEN;
}

static void
start_step(struct fb_check *c, struct fb_check_out *out);

/* Copies an engine's text[0..len) into out (cap bytes, NUL-terminated),
 * control characters as '?': the report goes to a terminal. */
static void
copy_text(char *out, size_t cap, const char *text, size_t len)
{
	size_t n = len < cap - 1 ? len : cap - 1;

	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)text[i];
		out[i] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	out[n] = '\0';
}

static void
handshake(struct fb_check *c, struct fb_check_out *out)
{
	if (c->proto == FB_CHECK_XBOARD) {
		c->phase = PH_XB_FEATURE;
		c->nudges = c->reasks = 0;
		c->spoke = c->heard = false;
		put(out, "xboard\nprotover 2\n");
		/* The first nudge (fb_check_timeout). */
		arm(out, FB_UXB_NUDGE_MS < c->timeout_ms ? FB_UXB_NUDGE_MS
							 : c->timeout_ms);
	} else {
		c->phase = PH_PROBE_UCI;
		put(out, "uci\n");
		arm(out, c->timeout_ms);
	}
}

void
fb_check_start(struct fb_check *c, struct fb_check_out *out)
{
	memset(out, 0, sizeof *out);
	c->running = true;
	c->uci960_known = false;
	c->uci_variant = 0;
	if (!c->rehandshake)
		c->proto = c->want == FB_CHECK_XBOARD ? FB_CHECK_XBOARD
						      : FB_CHECK_UCI;
	handshake(c, out);
}

static void
finish(struct fb_check *c, struct fb_check_out *out)
{
	c->phase = PH_DONE;
	arm(out, 0);
	out->done = true;
	if (c->running)
		out->kill = true;
}

static void
next_step(struct fb_check *c, struct fb_check_out *out)
{
	c->at++;
	start_step(c, out);
}

static struct fb_check_step *
cur(struct fb_check *c)
{
	return c->at < c->nsteps ? &c->step[c->at] : NULL;
}

/* The handshake is over (again): plan the run, or go on where a restart
 * left off. */
static void
handshake_done(struct fb_check *c, struct fb_check_out *out)
{
	if (!c->rehandshake) {
		c->handshake_ok = true;
		plan(c);
	}
	c->rehandshake = false;
	start_step(c, out);
}

/* Ends a step that cannot go on in this process: verdict, then kill (the
 * exit restarts it and the run goes on at the next step). */
static void
give_up(struct fb_check *c, enum fb_check_verdict v, struct fb_check_out *out)
{
	struct fb_check_step *s = cur(c);

	if (s != NULL && s->verdict == FB_CV_UNTESTED)
		s->verdict = v;
	arm(out, 0);
	out->kill = true;
}

static void
ping(struct fb_check *c, struct fb_check_out *out)
{
	if (c->proto == FB_CHECK_UCI)
		put(out, "isready\n");
	else
		put(out, "ping %u\n", ++c->pings);
}

/* The variant of a step (chess for one without a position). */
static enum fb_check_variant
variant_of(const struct fb_check_step *s)
{
	return fb_check_variant_in(s->pos, s->c960);
}

/* UCI_Variant for a 10x8 step, back to chess after one. */
static void
uci_variant(struct fb_check *c, enum fb_check_variant v,
	    struct fb_check_out *out)
{
	if (c->proto != FB_CHECK_UCI || (int)v == c->uci_variant)
		return;
	put(out, "setoption name UCI_Variant value %s\n",
	    fb_check_variant_name(v));
	c->uci_variant = v;
}

/* XBoard: the search's depth, before the round trip that ends the set-up
 * (its refusal then comes before go); without sd (GNU Chess), thinking
 * output, whose depth then ends the search with `?` (see limit_search). */
static void
depth_limit(struct fb_check *c, struct fb_check_out *out)
{
	put(out, "post\n");
	if (!c->no_sd)
		put(out, "sd %d\n", SEARCH_DEPTH);
}

/* The mode and position lines of a step with a position. */
static void
setup_position(struct fb_check *c, const struct fb_check_step *s,
	       struct fb_check_out *out)
{
	char fen[FB_GAME_FEN_MAX + 1];
	int n = fb_check_position(s->pos, s->dialect, fen, sizeof fen - 1);
	struct fb_game g;
	struct fb_move m;
	char mv[16] = "";

	fen[n > 0 ? n : 0] = '\0';
	if ((s->kind == FB_CK_ACCEPT || s->kind == FB_CK_NEWNORMAL) &&
	    fb_check_load(s->pos, &g) && fb_check_castle_of(&g, &m)) {
		int k = fb_game_print_castle(&g, &m, s->form, mv,
					     sizeof mv - 1);
		mv[k > 0 ? k : 0] = '\0';
	}
	if (c->proto == FB_CHECK_UCI) {
		uci_variant(c, variant_of(s), out);
		if (c->opt_chess960 &&
		    (!c->uci960_known || c->uci960 != s->c960))
			put(out, "setoption name UCI_Chess960 value %s\n",
			    s->c960 ? "true" : "false");
		c->uci960 = s->c960;
		c->uci960_known = true;
		put(out, "ucinewgame\nposition fen %s%s%s\n", fen,
		    mv[0] ? " moves " : "", mv);
		return;
	}
	if (variant_of(s) != FB_CKV_CHESS)
		put(out, "new\nvariant %s\n",
		    fb_check_variant_name(variant_of(s)));
	else if (s->c960)
		put(out, "new\nvariant fischerandom\n");
	else
		put(out, "new\n");
	if (s->edit) {
		char ed[FB_CECP_EDIT_MAX];
		int k = fb_check_load(s->pos, &g)
				? fb_cecp_print_edit(&g, c->feat_usermove,
						     false, ed, sizeof ed)
				: -1;
		put(out, "force\n%.*s", k > 0 ? k : 0, ed);
	} else {
		put(out, "force\nsetboard %s\n", fen);
	}
	if (mv[0])
		put(out, "%s%s\n", c->feat_usermove ? "usermove " : "", mv);
	snprintf(c->castle, sizeof c->castle, "%s", mv);
	depth_limit(c, out);
}

static void
ask(struct fb_check *c, struct fb_check_out *out)
{
	struct fb_check_step *s = cur(c);

	c->phase = PH_STEP;
	c->movenow_sent = false;
	arm(out, c->timeout_ms);
	switch (s->kind) {
	case FB_CK_READ:
	case FB_CK_ACCEPT:
	case FB_CK_NEWNORMAL:
		arm(out, c->search_ms);
		if (c->proto == FB_CHECK_UCI)
			put(out, "go depth %d\n", SEARCH_DEPTH);
		else
			put(out, "go\n"); /* sd: in the set-up */
		break;
	case FB_CK_STOP:
		c->phase = PH_STOP_WAIT;
		arm_clock(out, STOP_AFTER_MS, FB_CHECK_OWN_TIME);
		if (c->proto == FB_CHECK_UCI)
			put(out, "go infinite\n");
		else
			put(out, "go\n");
		break;
	case FB_CK_PONDERHIT:
	case FB_CK_PONDERMISS:
		/* A ponder search may not end before ponderhit or stop. */
		c->phase = PH_STOP_WAIT;
		arm_clock(out, STOP_AFTER_MS, FB_CHECK_OWN_TIME);
		put(out, "go ponder wtime 2000 btime 2000\n");
		break;
	case FB_CK_XB_PONDERHIT:
	case FB_CK_XB_PONDERMISS:
		arm(out, c->search_ms);
		c->xb_stage = 0;
		c->xb_first[0] = c->xb_pv[0] = '\0';
		put(out, "go\n");
		break;
	case FB_CK_ANALYZE:
		c->phase = PH_STOP_WAIT;
		arm_clock(out, ANALYZE_MS, FB_CHECK_OWN_TIME);
		c->xb_stage = 1;
		c->saw_thinking = c->thinking_bad = c->thinking_early = false;
		put(out, "analyze\n");
		break;
	case FB_CK_MULTIPV:
		arm(out, c->search_ms);
		c->multipv_seen = 0;
		c->multipv_bad = false;
		put(out, "go depth %d\n", SEARCH_DEPTH);
		break;
	default:
		break;
	}
}

static void
start_step(struct fb_check *c, struct fb_check_out *out)
{
	struct fb_check_step *s = cur(c);

	c->castle[0] = '\0';
	c->castle_refused = false;
	c->q_rejected = false;
	if (s == NULL) {
		finish(c, out);
		return;
	}
	arm(out, c->timeout_ms);
	switch (s->kind) {
	case FB_CK_READY:
		c->phase = PH_STEP;
		if (c->proto == FB_CHECK_XBOARD && !c->feat_ping) {
			s->verdict = FB_CV_UNTESTED;
			next_step(c, out);
			return;
		}
		ping(c, out);
		break;
	case FB_CK_UNKNOWN:
		c->phase = PH_STEP;
		put(out, "%s\n", unknown_cmd);
		if (c->proto == FB_CHECK_UCI || c->feat_ping)
			ping(c, out);
		else
			/* alive after this? (the time it has to die of it) */
			arm_clock(out, STOP_AFTER_MS, FB_CHECK_OWN_TIME);
		break;
	case FB_CK_READ:
	case FB_CK_ACCEPT:
	case FB_CK_NEWNORMAL:
		if (s->kind != FB_CK_READ)
			s->dialect = readable(c, s->c960);
		setup_position(c, s, out);
		if (c->proto == FB_CHECK_UCI || c->feat_ping) {
			c->phase = PH_STEP_SETUP;
			ping(c, out);
		} else {
			ask(c, out);
		}
		break;
	case FB_CK_STOP:
		uci_variant(c, FB_CKV_CHESS, out);
		c->xb_stage = 0; /* 1: its move came, a pong awaited */
		if (c->proto == FB_CHECK_UCI)
			put(out, "ucinewgame\nposition startpos\n");
		else if (c->no_sd)
			put(out, "new\nst 60\n"); /* go: White's move */
		else
			/* sd: an engine may keep the last one past new. */
			put(out, "new\nsd %d\nst 60\n", FB_CECP_SD_UNLIMITED);
		/* The set-up read (a round trip) before go: the pause before
		 * stop is the search's. */
		if (c->proto == FB_CHECK_UCI || c->feat_ping) {
			c->phase = PH_STEP_SETUP;
			ping(c, out);
		} else {
			ask(c, out);
		}
		break;
	case FB_CK_PONDERHIT:
	case FB_CK_PONDERMISS:
	case FB_CK_MULTIPV:
		uci_variant(c, FB_CKV_CHESS, out);
		if (s->kind == FB_CK_MULTIPV)
			put(out, "setoption name MultiPV value %d\n", MULTIPV);
		put(out, "ucinewgame\nposition startpos%s\n",
		    s->kind == FB_CK_MULTIPV ? "" : " moves " PONDER_MOVES);
		c->phase = PH_STEP_SETUP;
		ping(c, out);
		break;
	case FB_CK_XB_PONDERHIT:
	case FB_CK_XB_PONDERMISS:
	case FB_CK_ANALYZE:
		/* From the start: the engine plays White (pondering) or
		 * analyses it. */
		c->xb_stage = 0;
		if (s->kind == FB_CK_ANALYZE) {
			put(out, "new\nforce\npost\n");
		} else {
			put(out, "new\nhard\n");
			depth_limit(c, out);
		}
		c->phase = PH_STEP_SETUP;
		ping(c, out);
		break;
	case FB_CK_QUIT:
		c->phase = PH_STEP;
		c->quitting = true;
		put(out, "quit\n");
		break;
	}
}

/* An info line during the MultiPV step: which lines came (multipv N),
 * and whether each pv starts with a legal move. */
static void
multipv_line(struct fb_check *c, const char *text, size_t len)
{
	struct fb_uci_info in;
	struct fb_game g;
	struct fb_move m;
	const char *mp = NULL;
	size_t pos = 0, start, n;
	long k;

	for (size_t i = 0; i + 9 <= len; i++)
		if (memcmp(text + i, " multipv ", 9) == 0) {
			mp = text + i + 9;
			break;
		}
	if (mp == NULL)
		return;
	k = strtol(mp, NULL, 10);
	fb_uci_parse_info(text, len, &in);
	if (!(in.have & FB_INFO_PV) || k < 1 || k > MULTIPV)
		return;
	c->multipv_seen |= 1u << k;
	n = fb_proto_token(text + in.moves[FB_UCI_PV].off,
			   in.moves[FB_UCI_PV].len, &pos, &start);
	if (n > 0 && fb_check_load(-1, &g) &&
	    fb_moves_parse(&g, text + in.moves[FB_UCI_PV].off + start, n, &m) !=
		    0)
		c->multipv_bad = true;
}

/* The form castle (of g) takes in text[0..len). */
static enum fb_castle_notation
form_of(const struct fb_game *g, const struct fb_move *castle, const char *text,
	size_t len)
{
	char kxr[8];
	int wing, n;

	if (fb_game_parse_oo(text, len, &wing))
		return FB_CASTLE_OO;
	n = fb_game_print_castle(g, castle, FB_CASTLE_KXR, kxr, sizeof kxr);
	if (n > 0 && (size_t)n <= len && memcmp(text, kxr, (size_t)n) == 0)
		return FB_CASTLE_KXR;
	return FB_CASTLE_KING;
}

/* Judges move text[0..len) of the engine for the current step. */
static void
judge_move(struct fb_check *c, const char *text, size_t len)
{
	struct fb_check_step *s = cur(c);
	struct fb_game g, before;
	struct fb_move m = {0}, castle;
	bool legal;

	copy_text(s->got, sizeof s->got, text, len);
	if (s->kind == FB_CK_STOP || s->kind == FB_CK_PONDERHIT ||
	    s->kind == FB_CK_PONDERMISS || s->kind == FB_CK_MULTIPV) {
		s->verdict =
			fb_check_load(s->pos, &g) &&
					fb_moves_parse(&g, text, len, &m) == 0
				? FB_CV_OK
				: FB_CV_ILLEGAL;
		if (s->kind == FB_CK_MULTIPV && s->verdict == FB_CV_OK &&
		    (c->multipv_bad ||
		     c->multipv_seen != (1u << (MULTIPV + 1)) - 2)) {
			s->verdict = FB_CV_WRONG;
			snprintf(s->got, sizeof s->got, "%s lines %#x",
				 c->multipv_bad ? "illegal pv in" : "only",
				 c->multipv_seen);
		}
		return;
	}
	if (!fb_check_load(s->pos, &g) || !fb_check_castle_of(&g, &castle)) {
		s->verdict = FB_CV_WRONG;
		return;
	}
	before = g;
	if (s->kind != FB_CK_READ)
		fb_game_play(&g, &castle);
	legal = fb_moves_parse(&g, text, len, &m) == 0;
	if (s->kind == FB_CK_READ) {
		s->verdict = legal && m.castle == castle.castle ? FB_CV_OK
								: FB_CV_WRONG;
		if (!legal)
			s->verdict = FB_CV_ILLEGAL;
		if (s->verdict == FB_CV_OK)
			s->form = form_of(&before, &castle, text, len);
		return;
	}
	/* Accept: the one legal reply to the castle's check. A move of the
	 * side that castled means the castle was dropped (Stockfish ignores
	 * the rest of `moves` at a move it does not read): refused, no
	 * illegal move. */
	if (!legal && fb_moves_parse(&before, text, len, &m) == 0)
		s->verdict = FB_CV_WRONG;
	else if (!legal)
		s->verdict = FB_CV_ILLEGAL;
	else /* the one legal move there is the reply */
		s->verdict = c->castle_refused ? FB_CV_WRONG : FB_CV_OK;
}

/* Plays the first two moves of pv text[0..len) on g while they are legal
 * there (move numbers skipped) into mv; returns how many. */
static int
play_pv(struct fb_game *g, const char *text, size_t len, struct fb_move mv[2])
{
	size_t pos = 0, start, n;
	int k = 0;

	while (k < 2 && (n = fb_proto_token(text, len, &pos, &start)) > 0) {
		if (fb_moves_parse(g, text + start, n, &mv[k]) != 0) {
			if (text[start + n - 1] == '.')
				continue; /* 1. or 1... */
			break;
		}
		fb_game_play(g, &mv[k++]);
	}
	return k;
}

static bool
same_squares(const struct fb_move *a, const struct fb_move *b)
{
	return a->from_file == b->from_file && a->from_rank == b->from_rank &&
	       a->to_file == b->to_file && a->to_rank == b->to_rank;
}

/* The start position after the engine's move (and ours: both). */
static void
xb_game(const struct fb_check *c, bool both, struct fb_game *g)
{
	struct fb_move m;

	fb_check_load(-1, g);
	if (fb_moves_parse(g, c->xb_first, strlen(c->xb_first), &m) == 0)
		fb_game_play(g, &m);
	if (both &&
	    fb_moves_parse(g, c->xb_reply, strlen(c->xb_reply), &m) == 0)
		fb_game_play(g, &m);
}

/* XBoard pondering: the engine moved (hard, from the start); our reply:
 * its ponder move (the second move of its last pv, if the first is the
 * move it played) for a hit, else the first legal move that is not it. */
static void
xb_reply(struct fb_check *c, const struct fb_check_step *s,
	 struct fb_check_out *out)
{
	struct fb_game g, p;
	struct fb_move mv[FB_MOVES_MAX], pv[2], played;
	bool hit = s->kind == FB_CK_XB_PONDERHIT, known;
	size_t n, pick = 0;

	fb_check_load(-1, &g);
	fb_moves_parse(&g, c->xb_first, strlen(c->xb_first), &played);
	fb_game_play(&g, &played);
	fb_check_load(-1, &p);
	known = play_pv(&p, c->xb_pv, strlen(c->xb_pv), pv) == 2 &&
		same_squares(&pv[0], &played);
	n = fb_moves_legal(&g, mv);
	for (size_t i = 0; i < n; i++)
		if ((known && same_squares(&mv[i], &pv[1])) == hit) {
			pick = i;
			break;
		}
	c->xb_known = known;
	c->xb_reply[0] = '\0';
	if (n > 0)
		fb_moves_print_coord(&g, &mv[pick], FB_CASTLE_KING, c->xb_reply,
				     sizeof c->xb_reply);
	put(out, "%s%s\n", c->feat_usermove ? "usermove " : "", c->xb_reply);
	c->xb_stage = 1;
	c->movenow_sent = false; /* its answer: another search */
	arm(out, c->search_ms);
}

/* An XBoard line during the pondering and analyze steps; true when it
 * was theirs. */
static bool
xb_ponder_line(struct fb_check *c, const struct fb_cecp_line *l,
	       const char *text, struct fb_check_out *out)
{
	struct fb_check_step *s = cur(c);
	struct fb_game g;
	struct fb_move m, pv[2];
	bool analyze = s->kind == FB_CK_ANALYZE;

	if (l->kind == FB_CECP_E_THINKING && c->phase == PH_STEP && !analyze &&
	    c->xb_stage == 0) {
		copy_text(c->xb_pv, sizeof c->xb_pv, text + l->think.pv.off,
			  l->think.pv.len);
		return true;
	}
	if (l->kind == FB_CECP_E_THINKING && analyze && c->xb_stage == 1) {
		fb_check_load(-1, &g);
		if (play_pv(&g, text + l->think.pv.off, l->think.pv.len, pv) >
		    0)
			c->saw_thinking = true;
		else if (c->saw_thinking)
			c->thinking_bad = true;
		else
			c->thinking_early = true;
		return true;
	}
	if (l->kind == FB_CECP_E_PONG && analyze && c->xb_stage == 2) {
		if (s->verdict == FB_CV_UNTESTED)
			s->verdict = c->thinking_bad     ? FB_CV_ILLEGAL
				     : c->saw_thinking   ? FB_CV_OK
				     : c->thinking_early ? FB_CV_ILLEGAL
							 : FB_CV_WRONG;
		if (s->verdict == FB_CV_WRONG && !s->got[0])
			snprintf(s->got, sizeof s->got, "no thinking");
		if (s->verdict == FB_CV_ILLEGAL)
			snprintf(s->got, sizeof s->got, "illegal pv");
		next_step(c, out);
		return true;
	}
	if (l->kind != FB_CECP_E_MOVE)
		return false;
	if (analyze) {
		/* A move in analyze mode: no move was asked for. */
		s->verdict = FB_CV_WRONG;
		snprintf(s->got, sizeof s->got, "moved");
		return true;
	}
	if (c->phase != PH_STEP)
		return false;
	fb_check_load(-1, &g);
	if (c->xb_stage == 0) {
		copy_text(c->xb_first, sizeof c->xb_first, text + l->arg.off,
			  l->arg.len);
		if (fb_moves_parse(&g, c->xb_first, strlen(c->xb_first), &m) !=
		    0) {
			s->verdict = FB_CV_ILLEGAL;
			copy_text(s->got, sizeof s->got, text + l->arg.off,
				  l->arg.len);
			put(out, "force\neasy\n");
			next_step(c, out);
			return true;
		}
		xb_reply(c, s, out);
		return true;
	}
	/* Its answer to ours, after the two moves. */
	xb_game(c, true, &g);
	/* No pv with a second move: the hit was a guess. (Cut to fit.) */
	if (snprintf(s->got, sizeof s->got, "%s %s %.*s%s", c->xb_first,
		     c->xb_reply, (int)(l->arg.len < 8 ? l->arg.len : 8),
		     text + l->arg.off,
		     c->xb_known || s->kind != FB_CK_XB_PONDERHIT
			     ? ""
			     : " (no pv)") >= (int)sizeof s->got)
		s->got[sizeof s->got - 1] = '\0';
	s->verdict = fb_moves_parse(&g, text + l->arg.off, l->arg.len, &m) == 0
			     ? FB_CV_OK
			     : FB_CV_ILLEGAL;
	put(out, "force\neasy\n");
	next_step(c, out);
	return true;
}

/* XBoard: the pong of the last ping sent (pong N for ping N). */
static bool
pong_awaited(const struct fb_check *c, const char *text,
	     const struct fb_cecp_line *l)
{
	long long n;

	return fb_cecp_parse_number(text, l->arg, &n) &&
	       n == (long long)c->pings;
}

/* XBoard: one search, one move. The move just announced, announced again
 * in another form (GNU Chess writes `1. ... g1f3`, then `My move is :
 * g1f3`, which may come after the next command) is no second answer;
 * true for that one, which is then forgotten. */
static bool
announced_again(struct fb_check *c, const char *text,
		const struct fb_cecp_line *l)
{
	bool again = c->echo[0] != '\0' && (int)l->form != c->echo_form &&
		     fb_span_is(text, l->arg, c->echo);

	if (again)
		c->echo[0] = '\0';
	else
		copy_text(c->echo, sizeof c->echo, text + l->arg.off,
			  l->arg.len);
	c->echo_form = (int)l->form;
	return again;
}

/* The position the engine searches on its move now, into g: false when
 * it is asked for no search of SEARCH_DEPTH now (the stop step's search
 * is ended by ?; analyze has no move). */
static bool
searched_position(const struct fb_check *c, const struct fb_check_step *s,
		  struct fb_game *g)
{
	struct fb_move castle;

	if (c->phase != PH_STEP)
		return false;
	switch (s->kind) {
	case FB_CK_READ:
		return fb_check_load(s->pos, g);
	case FB_CK_ACCEPT:
	case FB_CK_NEWNORMAL:
		if (!fb_check_load(s->pos, g) ||
		    !fb_check_castle_of(g, &castle))
			return false;
		fb_game_play(g, &castle);
		return true;
	case FB_CK_XB_PONDERHIT:
	case FB_CK_XB_PONDERMISS:
		xb_game(c, c->xb_stage == 1, g);
		return true;
	default:
		return false;
	}
}

/* XBoard, an engine without sd: the search ends with ? once its thinking
 * output reaches the depth (as the UCI GUI / XBoard engine pair ends a go
 * depth), on a line whose pv starts with a legal move in the position
 * searched (not a ponder search's line that comes late). */
static void
limit_search(struct fb_check *c, const struct fb_check_step *s,
	     const char *text, const struct fb_cecp_line *l,
	     struct fb_check_out *out)
{
	struct fb_game g;
	struct fb_move pv[2];

	if (!c->no_sd || c->movenow_sent || l->think.ply < SEARCH_DEPTH ||
	    !searched_position(c, s, &g) ||
	    play_pv(&g, text + l->think.pv.off, l->think.pv.len, pv) == 0)
		return;
	put(out, "?\n");
	c->movenow_sent = true;
}

/* GNU Chess's `White (1) : Invalid move: uci`: behind its prompt, an
 * XBoard engine's refusal of `uci`. */
static bool
rejects_uci(const char *text, size_t len)
{
	struct fb_cecp_line l;

	fb_cecp_parse_engine(text, len, &l);
	return fb_cecp_rejects(text, &l, "uci");
}

/* XBoard's variants feature (value v[0..n)): the ones the run tests, each
 * found anywhere in the list. */
static void
xb_variants_seen(struct fb_check *c, const char *v, size_t n)
{
	const struct {
		const char *name;
		bool *seen;
	} want[] = {
		{"fischerandom", &c->var_960}, {"caparandom", &c->var_capa},
		{"capablanca", &c->var_capab}, {"janus", &c->var_janus},
		{"embassy", &c->var_embassy},
	};

	for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
		size_t k = strlen(want[w].name);
		for (size_t i = 0; i + k <= n; i++)
			if (memcmp(v + i, want[w].name, k) == 0)
				*want[w].seen = true;
	}
}

/* UCI, the handshake: an option the run cares about. */
static void
uci_option_seen(struct fb_check *c, const char *text, size_t len)
{
	struct fb_uci_option o;

	if (fb_uci_parse_option(text, len, &o) != 0)
		return;
	if (fb_span_is(text, o.name, "UCI_Chess960"))
		c->opt_chess960 = true;
	if (fb_span_is(text, o.name, "UCI_Variant")) {
		c->opt_variant = true;
		for (size_t v = 0; v < o.nvars && v < FB_UCI_VARS_MAX; v++)
			if (fb_span_is(text, o.var[v], "caparandom"))
				c->var_capa = true;
			else if (fb_span_is(text, o.var[v], "capablanca"))
				c->var_capab = true;
			else if (fb_span_is(text, o.var[v], "janus"))
				c->var_janus = true;
			else if (fb_span_is(text, o.var[v], "embassy"))
				c->var_embassy = true;
	}
	if (fb_span_is(text, o.name, "Ponder"))
		c->opt_ponder = true;
	if (fb_span_is(text, o.name, "MultiPV"))
		c->opt_multipv = true;
}

/* UCI, the handshake: id, options, uciok; an XBoard engine's answer to
 * `uci` needs no wait for the timeout. */
static void
uci_handshake_line(struct fb_check *c, const char *text, size_t len,
		   enum fb_uci_engine k, size_t at, struct fb_check_out *out)
{
	struct fb_uci_id id;

	if (k == FB_UCI_E_ID && !c->rehandshake &&
	    fb_uci_parse_id(text, len, &id) == 0 && id.name)
		copy_text(c->name, sizeof c->name, text + id.value.off,
			  id.value.len);
	if (k == FB_UCI_E_OPTION)
		uci_option_seen(c, text, len);
	if (k == FB_UCI_E_UCIOK)
		handshake_done(c, out);
	else if (c->want == FB_CHECK_AUTO && !c->rehandshake &&
		 (fb_uci_first_is(text, len, at, "Error") ||
		  fb_uci_first_is(text, len, at, "Illegal") ||
		  fb_uci_first_is(text, len, at, "feature") ||
		  rejects_uci(text, len)))
		fb_check_timeout(c, out);
}

/* A UCI engine's line. */
static void
uci_line(struct fb_check *c, const char *text, size_t len,
	 struct fb_check_out *out)
{
	struct fb_check_step *s = cur(c);
	size_t at;
	enum fb_uci_engine k = fb_uci_engine_kind(text, len, &at);
	struct fb_uci_bestmove b;

	if (c->phase == PH_PROBE_UCI) {
		uci_handshake_line(c, text, len, k, at, out);
		return;
	}
	if (k == FB_UCI_E_READYOK && c->phase == PH_STEP_SETUP) {
		ask(c, out);
		return;
	}
	if (k == FB_UCI_E_READYOK && c->phase == PH_STEP && s != NULL &&
	    (s->kind == FB_CK_READY || s->kind == FB_CK_UNKNOWN)) {
		s->verdict = FB_CV_OK;
		next_step(c, out);
		return;
	}
	if (k == FB_UCI_E_INFO && s != NULL && s->kind == FB_CK_MULTIPV &&
	    c->phase == PH_STEP)
		multipv_line(c, text, len);
	if (k != FB_UCI_E_BESTMOVE || s == NULL ||
	    (c->phase != PH_STEP && c->phase != PH_STOP_WAIT) ||
	    s->kind == FB_CK_READY || s->kind == FB_CK_UNKNOWN ||
	    s->kind == FB_CK_QUIT || fb_uci_parse_bestmove(text, len, &b) != 0)
		return;
	if (c->phase == PH_STOP_WAIT) {
		/* Before stop: a search that was to go on. */
		snprintf(s->got, sizeof s->got, "early");
		s->verdict = FB_CV_WRONG;
	} else {
		judge_move(c, text + b.move.off, b.move.len);
	}
	if (s->kind == FB_CK_MULTIPV)
		put(out, "setoption name MultiPV value 1\n");
	next_step(c, out);
}

/* XBoard, the handshake: each feature, up to done=1. */
static void
xb_feature_line(struct fb_check *c, const char *text, size_t len,
		const struct fb_cecp_line *l, struct fb_check_out *out)
{
	struct fb_cecp_feature f;
	size_t pos = 0;

	if (l->kind != FB_CECP_E_FEATURE) {
		c->spoke = c->nudges > 0; /* awake, but no feature */
		return;
	}
	if (!c->heard) {
		/* Awake: the rest of its time for the features. */
		c->heard = true;
		arm(out, c->timeout_ms);
	}
	while (fb_cecp_next_feature(text, len, &pos, &f)) {
		bool valid, on = fb_cecp_feature_flag(text, &f, &valid);
		if (fb_span_is(text, f.key, "done")) {
			if (on) {
				c->feat_done = true;
				handshake_done(c, out);
				return;
			}
			/* done=0: the engine needs time. */
			arm(out, 60000);
			continue;
		}
		if (c->rehandshake)
			continue;
		if (fb_span_is(text, f.key, "setboard"))
			c->feat_setboard = on;
		else if (fb_span_is(text, f.key, "usermove"))
			c->feat_usermove = on;
		else if (fb_span_is(text, f.key, "ping"))
			c->feat_ping = on;
		else if (fb_span_is(text, f.key, "analyze"))
			c->feat_analyze_off = !on;
		else if (fb_span_is(text, f.key, "myname"))
			copy_text(c->name, sizeof c->name, text + f.value.off,
				  f.value.len);
		else if (fb_span_is(text, f.key, "variants"))
			xb_variants_seen(c, text + f.value.off, f.value.len);
	}
}

/* XBoard: the pong that ends a step's set-up, or answers its ping. Returns
 * true when it was one. */
static bool
xb_pong(struct fb_check *c, struct fb_check_step *s, struct fb_check_out *out)
{
	if (c->phase == PH_STEP_SETUP && s != NULL && s->kind == FB_CK_STOP &&
	    c->xb_stage == 1) {
		if (c->q_rejected) {
			s->verdict = FB_CV_WRONG;
			snprintf(s->got, sizeof s->got, "Error (unknown): ?");
		}
		next_step(c, out);
		return true;
	}
	if (c->phase == PH_STEP_SETUP) {
		if (c->castle_refused &&
		    (s->kind == FB_CK_ACCEPT || s->kind == FB_CK_NEWNORMAL)) {
			/* The castle was refused: no go. */
			snprintf(s->got, sizeof s->got, "refused");
			s->verdict = FB_CV_WRONG;
			next_step(c, out);
			return true;
		}
		ask(c, out);
		return true;
	}
	if (c->phase == PH_STEP && s != NULL &&
	    (s->kind == FB_CK_READY || s->kind == FB_CK_UNKNOWN)) {
		s->verdict = FB_CV_OK;
		next_step(c, out);
		return true;
	}
	return false;
}

/* XBoard: the engine's move, the answer to a step's search. */
static void
xb_move(struct fb_check *c, struct fb_check_step *s, const char *text,
	const struct fb_cecp_line *l, struct fb_check_out *out)
{
	if (c->phase == PH_STOP_WAIT) {
		snprintf(s->got, sizeof s->got, "early");
		s->verdict = FB_CV_WRONG;
	} else {
		judge_move(c, text + l->arg.off, l->arg.len);
	}
	put(out, "force\n");
	if (s->kind == FB_CK_STOP && c->feat_ping && s->verdict == FB_CV_OK) {
		/* Did it take the ?, or just finish? An Error for ? before
		 * the pong says which (Fairy-Max). */
		c->phase = PH_STEP_SETUP;
		c->xb_stage = 1;
		ping(c, out);
		arm(out, c->timeout_ms);
		return;
	}
	next_step(c, out);
}

/* An XBoard engine's line. */
static void
xb_line(struct fb_check *c, const char *text, size_t len,
	struct fb_check_out *out)
{
	struct fb_check_step *s = cur(c);
	struct fb_cecp_line l;
	bool after_move, asked_move;

	fb_cecp_parse_engine(text, len, &l);
	if (c->phase == PH_XB_FEATURE) {
		xb_feature_line(c, text, len, &l, out);
		return;
	}
	/* A pong for an earlier ping, or a second one (GNU Chess answers
	 * each twice, the second late): not the answer awaited. */
	if (l.kind == FB_CECP_E_PONG && !pong_awaited(c, text, &l))
		return;
	/* What a refusal refuses: the step judges the answer to what it
	 * asked. */
	if (fb_cecp_rejects(text, &l, "sd"))
		c->no_sd = true;
	if (c->castle[0] != '\0' && fb_cecp_rejects(text, &l, c->castle))
		c->castle_refused = true;
	if (fb_cecp_rejects(text, &l, "?"))
		c->q_rejected = true;
	after_move = c->just_moved;
	c->just_moved = l.kind == FB_CECP_E_MOVE;
	if (l.kind == FB_CECP_E_MOVE && announced_again(c, text, &l))
		return;
	if (l.kind == FB_CECP_E_THINKING && s != NULL)
		limit_search(c, s, text, &l, out);
	if (s != NULL &&
	    (s->kind == FB_CK_XB_PONDERHIT || s->kind == FB_CK_XB_PONDERMISS ||
	     s->kind == FB_CK_ANALYZE) &&
	    xb_ponder_line(c, &l, text, out))
		return;
	if (l.kind == FB_CECP_E_PONG && xb_pong(c, s, out))
		return;
	asked_move = s != NULL &&
		     (s->kind == FB_CK_READ || s->kind == FB_CK_ACCEPT ||
		      s->kind == FB_CK_NEWNORMAL);
	if ((l.kind == FB_CECP_E_RESULT || l.kind == FB_CECP_E_RESIGN) &&
	    !after_move && c->phase == PH_STEP && asked_move) {
		/* A result claimed instead of a move: a wrong answer (GNU
		 * Chess's `1-0 {White mates}` to a Shredder-FEN position: its
		 * engine found the mate, which its board, which did not take
		 * the castling field, does not allow). */
		copy_text(s->got, sizeof s->got, text + l.start, len - l.start);
		s->verdict = FB_CV_WRONG;
		put(out, "force\n");
		next_step(c, out);
		return;
	}
	if (l.kind == FB_CECP_E_MOVE && s != NULL &&
	    (c->phase == PH_STEP || c->phase == PH_STOP_WAIT) &&
	    (asked_move || s->kind == FB_CK_STOP))
		xb_move(c, s, text, &l, out);
}

void
fb_check_line(struct fb_check *c, const char *text, size_t len,
	      struct fb_check_out *out)
{
	memset(out, 0, sizeof *out);
	c->lines++;
	if (c->phase == PH_DONE)
		return;
	if (c->proto == FB_CHECK_UCI)
		uci_line(c, text, len, out);
	else
		xb_line(c, text, len, out);
}

void
fb_check_timeout(struct fb_check *c, struct fb_check_out *out)
{
	struct fb_check_step *s = cur(c);

	memset(out, 0, sizeof *out);
	switch (c->phase) {
	case PH_PROBE_UCI:
		if (c->want == FB_CHECK_AUTO && !c->rehandshake) {
			/* No uciok: try XBoard on the same process. */
			c->proto = FB_CHECK_XBOARD;
			handshake(c, out);
			return;
		}
		if (c->rehandshake)
			give_up(c, FB_CV_SILENT, out);
		else
			finish(c, out);
		return;
	case PH_XB_FEATURE:
		if (!c->heard && c->spoke && c->reasks < 3) {
			/* It answers a nudge, but its protover 2 is lost. */
			c->spoke = false;
			c->reasks++;
			c->nudges++;
			put(out, "protover 2\n");
			arm(out, FB_UXB_NUDGE_MS);
			return;
		}
		if (!c->heard &&
		    (c->nudges + 2) * FB_UXB_NUDGE_MS < c->timeout_ms) {
			c->nudges++;
			put(out, "\n");
			arm(out, FB_UXB_NUDGE_MS);
			return;
		}
		/* A protover 1 engine sends no features: it still plays;
		 * one that said nothing at all is no engine. */
		if (c->lines == 0 && !c->rehandshake)
			finish(c, out);
		else
			handshake_done(c, out);
		return;
	case PH_STOP_WAIT:
		c->phase = PH_STEP;
		arm(out, c->timeout_ms);
		if (s != NULL && s->kind == FB_CK_ANALYZE) {
			/* Enough: exit, and the pong says it is over. */
			c->phase = PH_STEP_SETUP;
			c->xb_stage = 2;
			put(out, "exit\n");
			ping(c, out);
			return;
		}
		if (s != NULL && s->kind == FB_CK_PONDERHIT) {
			/* Now a search on the clock: up to its time. */
			arm(out, c->search_ms);
			put(out, "ponderhit\n");
		} else {
			put(out, c->proto == FB_CHECK_UCI ? "stop\n" : "?\n");
		}
		return;
	case PH_STEP_SETUP:
	case PH_STEP:
		if (s == NULL) {
			finish(c, out);
			return;
		}
		if (s->kind == FB_CK_UNKNOWN && c->proto == FB_CHECK_XBOARD &&
		    !c->feat_ping) {
			s->verdict = FB_CV_OK; /* still there */
			next_step(c, out);
			return;
		}
		if (s->kind == FB_CK_QUIT) {
			s->verdict = FB_CV_SILENT; /* did not exit */
			finish(c, out);
			return;
		}
		give_up(c, FB_CV_SILENT, out);
		return;
	default:
		return;
	}
}

void
fb_check_slow(struct fb_check *c, unsigned ms)
{
	struct fb_check_step *s = cur(c);

	if (s != NULL && (c->phase == PH_STEP_SETUP || c->phase == PH_STEP ||
			  c->phase == PH_STOP_WAIT))
		s->slow_ms = ms;
}

void
fb_check_exit(struct fb_check *c, unsigned status, int signal,
	      struct fb_check_out *out)
{
	struct fb_check_step *s = cur(c);

	memset(out, 0, sizeof *out);
	c->running = false;
	c->exit_status = status;
	c->exit_signal = signal;
	if (c->phase == PH_DONE)
		return;
	if (c->quitting && s != NULL && s->kind == FB_CK_QUIT) {
		s->verdict = FB_CV_OK;
		if (signal != 0)
			snprintf(s->got, sizeof s->got, "signal %d", signal);
		else
			snprintf(s->got, sizeof s->got, "status %u", status);
		finish(c, out);
		return;
	}
	if (c->phase == PH_PROBE_UCI && c->want == FB_CHECK_AUTO &&
	    !c->handshake_ok && c->restarts == 0) {
		/* Died of `uci`: an XBoard engine, started again. */
		c->restarts++;
		c->want = FB_CHECK_XBOARD;
		out->restart = true;
		return;
	}
	if (!c->handshake_ok || c->restarts >= MAX_RESTARTS) {
		finish(c, out);
		return;
	}
	if (c->rehandshake) {
		/* Died again before the next step: start it once more. */
		c->restarts++;
		out->restart = true;
		return;
	}
	if (s != NULL && s->verdict == FB_CV_UNTESTED)
		s->verdict = FB_CV_DIED;
	if (s != NULL && s->verdict == FB_CV_DIED && signal != 0)
		snprintf(s->got, sizeof s->got, "signal %d", signal);
	else if (s != NULL && s->verdict == FB_CV_DIED)
		snprintf(s->got, sizeof s->got, "status %u", status);
	c->restarts++;
	c->at++;
	c->rehandshake = true;
	out->restart = true;
}

void
fb_check_fail(struct fb_check *c, struct fb_check_out *out)
{
	memset(out, 0, sizeof *out);
	c->running = false;
	finish(c, out);
	out->kill = false;
}

bool
fb_check_done(const struct fb_check *c)
{
	return c->phase == PH_DONE;
}
