/* SPDX-License-Identifier: MIT */
/*
 * `fenbridge check`'s report (see check.h): one line per step with its
 * verdict, the castle forms the engine writes, the findings, and the
 * [fenbridge] INI lines that follow from the experiments; as text for a
 * person, or as one JSON document for an engine's CI (doc/check.md has
 * its schema). Both are written by the same functions: the JSON's
 * strings are the text's lines.
 *
 * No I/O, no allocation.
 */
#include "check.h"
#include "check_int.h"
#include "fenbridge/text.h"

#include <stdio.h>
#include <string.h>

static const char *
dialect_name(enum fb_notation d)
{
	return d == FB_SHREDDER ? "Shredder-FEN" : "X-FEN";
}

static const char *
form_name(enum fb_castle_notation f)
{
	switch (f) {
	case FB_CASTLE_KXR:
		return "king takes rook";
	case FB_CASTLE_KING:
		return "king move";
	case FB_CASTLE_OO:
		return "O-O";
	default:
		return "?";
	}
}

static const char *
verdict_name(enum fb_check_verdict v)
{
	switch (v) {
	case FB_CV_OK:
		return "ok";
	case FB_CV_WRONG:
		return "wrong";
	case FB_CV_ILLEGAL:
		return "ILLEGAL";
	case FB_CV_SILENT:
		return "SILENT";
	case FB_CV_DIED:
		return "DIED";
	default:
		return "-";
	}
}

static const char *
mode_name(bool c960)
{
	return c960 ? "Chess960" : "standard";
}

/* The mode of a step with a position: 10x8 ones by their variant. */
static const char *
step_mode(const struct fb_check_step *s)
{
	if (!fb_check_pos_wide(s->pos))
		return mode_name(s->c960);
	return fb_check_variant_name(fb_check_variant_in(s->pos, s->c960));
}

/* The variants the run tests that the engine lists, comma-separated
 * (empty: none), for the report's options line. */
static void
listed_variants(const struct fb_check *c, char *out, size_t cap)
{
	const bool on[FB_CKV_COUNT] = {
		[FB_CKV_CAPABLANCA] = c->var_capab,
		[FB_CKV_CAPARANDOM] = c->var_capa,
		[FB_CKV_JANUS] = c->var_janus,
		[FB_CKV_EMBASSY] = c->var_embassy,
	};
	size_t n = 0;

	out[0] = '\0';
	for (int v = 0; v < FB_CKV_COUNT; v++)
		if (on[v]) {
			int k = snprintf(out + n, cap - n, "%s%s",
					 n ? ", " : "",
					 fb_check_variant_name(
						 (enum fb_check_variant)v));
			if (k < 0 || (size_t)k >= cap - n)
				return;
			n += (size_t)k;
		}
}

/* The step's own line: what was asked. */
static void
describe(const struct fb_check *c, const struct fb_check_step *s,
	 struct fb_text *t)
{
	char fen[FB_GAME_FEN_MAX + 1];
	int n;

	switch (s->kind) {
	case FB_CK_READY:
		fb_text_say(t, "%s answered",
			    c->proto == FB_CHECK_UCI ? "isready" : "ping");
		break;
	case FB_CK_UNKNOWN:
		fb_text_say(t, "survives the unknown command '%s'",
			    fb_check_unknown_cmd);
		break;
	case FB_CK_READ:
		n = fb_check_position(s->pos, s->dialect, fen, sizeof fen - 1);
		fen[n > 0 ? n : 0] = '\0';
		fb_text_say(t, "%s mode, %s (%s%s): castles in %s",
			    step_mode(s),
			    s->edit ? "edit" : dialect_name(s->dialect),
			    fb_check_pos_what(s->pos),
			    fb_check_pos_black(s->pos) ? ", Black" : "", fen);
		break;
	case FB_CK_ACCEPT:
		fb_text_say(t, "%s mode: accepts a castle as %s (%s%s)",
			    step_mode(s), form_name(s->form),
			    fb_check_pos_what(s->pos),
			    fb_check_pos_black(s->pos) ? ", Black" : "");
		break;
	case FB_CK_STOP:
		fb_text_say(t, c->proto == FB_CHECK_UCI
				       ? "stop during go infinite answered"
				       : "? (move now) answered");
		break;
	case FB_CK_PONDERHIT:
		fb_text_say(t,
			    "go ponder, then ponderhit: a move on the clock");
		break;
	case FB_CK_PONDERMISS:
		fb_text_say(t, "go ponder, then stop (a miss): bestmove");
		break;
	case FB_CK_MULTIPV:
		fb_text_say(t, "MultiPV %d: %d lines with legal pvs",
			    FB_CHECK_MULTIPV, FB_CHECK_MULTIPV);
		break;
	case FB_CK_NEWNORMAL:
		fb_text_say(t,
			    "new after variant %s: standard chess again (takes "
			    "the king's move e1g1)",
			    s > c->step && fb_check_pos_wide(s[-1].pos)
				    ? fb_check_variant_name(fb_check_variant_in(
					      s[-1].pos, s[-1].c960))
				    : "fischerandom");
		break;
	case FB_CK_XB_PONDERHIT:
		fb_text_say(
			t,
			"hard: its move, then its ponder move: a legal answer");
		break;
	case FB_CK_XB_PONDERMISS:
		fb_text_say(
			t,
			"hard: its move, then another (a miss): a legal answer");
		break;
	case FB_CK_ANALYZE:
		fb_text_say(
			t, "analyze: thinking with legal pvs; exit, then pong");
		break;
	case FB_CK_QUIT:
		fb_text_say(t, "quit: exits");
		break;
	}
}

static bool
bad(enum fb_check_verdict v)
{
	return v == FB_CV_SILENT || v == FB_CV_DIED || v == FB_CV_ILLEGAL;
}

/* True when every read step of dialect d (outside the inner-rook one) in
 * the modes tested gave the castle; *tested says whether there was one. */
static bool
reads(const struct fb_check *c, enum fb_notation d, int c960, bool *tested)
{
	bool ok = true;

	*tested = false;
	for (size_t i = 0; i < c->nsteps; i++) {
		const struct fb_check_step *s = &c->step[i];
		if (s->kind != FB_CK_READ || fb_check_pos_same(s->pos) ||
		    s->edit || s->dialect != d ||
		    (c960 >= 0 && s->c960 != (c960 > 0)))
			continue;
		*tested = true;
		ok = ok && s->verdict == FB_CV_OK;
	}
	return ok && *tested;
}

static bool
mode_tested(const struct fb_check *c, bool c960)
{
	for (size_t i = 0; i < c->nsteps; i++)
		if (c->step[i].kind == FB_CK_ACCEPT && c->step[i].c960 == c960)
			return true;
	return false;
}

/* True when every castle sent in form f in that mode was taken. */
static bool
accepts(const struct fb_check *c, bool c960, enum fb_castle_notation f)
{
	bool any = false;

	for (size_t i = 0; i < c->nsteps; i++) {
		const struct fb_check_step *s = &c->step[i];
		if (s->kind == FB_CK_ACCEPT && s->c960 == c960 &&
		    s->form == f) {
			if (s->verdict != FB_CV_OK)
				return false;
			any = true;
		}
	}
	return any;
}

/* What fenbridge's engine-castling=auto writes in that mode. */
static enum fb_castle_notation
auto_form(const struct fb_check *c, bool c960)
{
	if (!c960)
		return FB_CASTLE_KING;
	return c->proto == FB_CHECK_UCI ? FB_CASTLE_KXR : FB_CASTLE_OO;
}

/* The findings, one line each to t (may be NULL); returns their number. */
static unsigned
findings(const struct fb_check *c, struct fb_text *t)
{
	unsigned n = 0;
	char d[400];

	if (!c->handshake_ok) {
		if (t != NULL)
			fb_text_say(
				t, "  - no handshake: neither uciok to uci nor "
				   "features to xboard/protover 2\n");
		return 1;
	}
	for (size_t i = 0; i < c->nsteps; i++) {
		const struct fb_check_step *s = &c->step[i];
		struct fb_text dt = {d, sizeof d, 0};
		bool finding =
			(bad(s->verdict) && !(s->kind == FB_CK_ACCEPT &&
					      s->verdict == FB_CV_ILLEGAL)) ||
			((s->kind == FB_CK_READY || s->kind == FB_CK_STOP ||
			  s->kind == FB_CK_PONDERHIT ||
			  s->kind == FB_CK_PONDERMISS ||
			  s->kind == FB_CK_MULTIPV ||
			  s->kind == FB_CK_ANALYZE ||
			  s->kind == FB_CK_NEWNORMAL) &&
			 s->verdict == FB_CV_WRONG) ||
			(s->kind == FB_CK_READ &&
			 (fb_check_pos_same(s->pos) || s->edit) &&
			 s->verdict == FB_CV_WRONG);
		/* A castle form the engine does not take (or misreads) is no
		 * finding: its protocol may not have it, and engine-castling
		 * picks one it takes; nor is a misread dialect while the
		 * other one works (engine-fen): both below. A castle missed
		 * through edit is: there is no other way to say the right. */
		if (!finding)
			continue;
		n++;
		describe(c, s, &dt);
		if (t != NULL)
			fb_text_say(t, "  - %s: %s%s%s\n",
				    verdict_name(s->verdict), d,
				    s->got[0] ? ": " : "", s->got);
	}
	for (int m = 0; m < 2; m++) {
		bool tx, ts, x = reads(c, FB_XFEN, m, &tx),
			     sh = reads(c, FB_SHREDDER, m, &ts);
		bool any = false;
		if (tx && ts && !x && !sh) {
			n++;
			if (t != NULL)
				fb_text_say(
					t,
					"  - %s mode: reads neither X-FEN nor "
					"Shredder-FEN castling rights\n",
					mode_name(m));
		}
		if (!mode_tested(c, m))
			continue;
		for (int f = FB_CASTLE_KXR; f <= FB_CASTLE_OO; f++)
			any = any || accepts(c, m, (enum fb_castle_notation)f);
		if (!any) {
			n++;
			if (t != NULL)
				fb_text_say(t,
					    "  - %s mode: takes a castle in no "
					    "form fenbridge can send\n",
					    mode_name(m));
		}
	}
	return n;
}

unsigned
fb_check_findings(const struct fb_check *c)
{
	return findings(c, NULL);
}

/* The [fenbridge] lines. */
static void
ini_lines(const struct fb_check *c, struct fb_text *t)
{
	bool tx, ts, x = reads(c, FB_XFEN, -1, &tx),
		     sh = reads(c, FB_SHREDDER, -1, &ts);
	bool std = mode_tested(c, false), c960 = mode_tested(c, true);
	enum fb_castle_notation pick = FB_CASTLE_AUTO;

	fb_text_say(t, "[fenbridge]\nengine-protocol = %s\n",
		    c->proto == FB_CHECK_UCI ? "uci" : "xboard");
	if (!tx && !ts)
		fb_text_say(
			t, "# engine-fen: not tested (%s)\n",
			c->proto == FB_CHECK_XBOARD && !c->feat_setboard
				? "no setboard: positions through edit, whose "
				  "rights are a corner rook with the king on its "
				  "start square"
				: "no position was answered");
	else if (x && sh)
		fb_text_say(t, "engine-fen = auto\n# reads both dialects\n");
	else if (x)
		fb_text_say(t, "engine-fen = xfen\n");
	else if (sh)
		fb_text_say(t, "engine-fen = shredder\n");
	else
		fb_text_say(
			t,
			"# engine-fen: neither dialect read in every mode\n");

	if (!std && !c960) {
		fb_text_say(t, "# engine-castling: not tested\n");
		return;
	}
	if ((!std || accepts(c, false, auto_form(c, false))) &&
	    (!c960 || accepts(c, true, auto_form(c, true)))) {
		fb_text_say(t, "engine-castling = auto\n");
		return;
	}
	for (int f = FB_CASTLE_KXR; f <= FB_CASTLE_OO && !pick; f++)
		if ((!std || accepts(c, false, (enum fb_castle_notation)f)) &&
		    (!c960 || accepts(c, true, (enum fb_castle_notation)f)))
			pick = (enum fb_castle_notation)f;
	if (pick) {
		fb_text_say(t, "engine-castling = %s\n",
			    fb_game_notation_name(pick));
		return;
	}
	/* No one form for both modes: auto still sends the king's move in
	 * standard chess, and toward an XBoard engine that refuses O-O it
	 * learns king takes rook from the refusal. */
	fb_text_say(t, "engine-castling = auto\n# takes:");
	for (int m = 0; m < 2; m++) {
		bool any = false;
		if (!mode_tested(c, m))
			continue;
		fb_text_say(t, " %s", m ? "Chess960" : "standard chess");
		for (int f = FB_CASTLE_KXR; f <= FB_CASTLE_OO; f++)
			if (accepts(c, m, (enum fb_castle_notation)f)) {
				fb_text_say(
					t, "%s %s", any ? "," : "",
					form_name((enum fb_castle_notation)f));
				any = true;
			}
		if (!any)
			fb_text_say(t, " none");
		fb_text_say(t, m == 0 && c960 ? ";" : "\n");
	}
}

size_t
fb_check_report(const struct fb_check *c, char *out, size_t cap)
{
	struct fb_text t = {out, cap, 0};
	char d[400];
	unsigned n;

	if (cap > 0)
		out[0] = '\0';
	fb_text_say(&t, "engine: %s\nprotocol: %s\n",
		    c->name[0] ? c->name : "?",
		    !c->handshake_ok           ? "none found"
		    : c->proto == FB_CHECK_UCI ? "UCI"
					       : "XBoard (CECP)");
	if (c->handshake_ok && c->proto == FB_CHECK_UCI) {
		char vars[64];
		listed_variants(c, vars, sizeof vars);
		fb_text_say(&t,
			    "options: UCI_Chess960 %s, UCI_Variant %s%s%s%s, "
			    "Ponder %s, MultiPV %s\n",
			    c->opt_chess960 ? "yes" : "no",
			    c->opt_variant ? "yes" : "no",
			    c->opt_variant && vars[0] ? " (" : "",
			    c->opt_variant ? vars : "",
			    c->opt_variant && vars[0] ? ")" : "",
			    c->opt_ponder ? "yes" : "no",
			    c->opt_multipv ? "yes" : "no");
	} else if (c->handshake_ok) {
		fb_text_say(
			&t,
			"features: %s, setboard %s, usermove %s, ping %s, "
			"fischerandom %s, capablanca %s, caparandom %s, "
			"janus %s, embassy %s\n",
			c->feat_done ? "done=1" : "none (protover 1)",
			c->feat_setboard ? "yes" : "no",
			c->feat_usermove ? "yes" : "no",
			c->feat_ping ? "yes" : "no", c->var_960 ? "yes" : "no",
			c->var_capab ? "yes" : "no", c->var_capa ? "yes" : "no",
			c->var_janus ? "yes" : "no",
			c->var_embassy ? "yes" : "no");
	}
	fb_text_say(&t, "\n");
	for (size_t i = 0; i < c->nsteps; i++) {
		const struct fb_check_step *s = &c->step[i];
		struct fb_text dt = {d, sizeof d, 0};
		describe(c, s, &dt);
		fb_text_say(&t, "%-8s %s%s%s", verdict_name(s->verdict), d,
			    s->got[0] ? ": " : "", s->got);
		if (s->slow_ms > 0 && s->verdict != FB_CV_SILENT)
			fb_text_say(&t, " (slow: %u s)",
				    (s->slow_ms + 500) / 1000);
		fb_text_say(&t, "\n");
	}
	for (int m = 0; m < 2; m++)
		for (size_t i = 0; i < c->nsteps; i++) {
			const struct fb_check_step *s = &c->step[i];
			if (s->kind == FB_CK_READ && s->c960 == m &&
			    s->verdict == FB_CV_OK &&
			    fb_check_pos_forms_differ(s->pos)) {
				fb_text_say(
					&t,
					"emits castles in %s mode as %s (%s)\n",
					mode_name(m), form_name(s->form),
					s->got);
				break;
			}
		}
	fb_text_say(&t, "restarts: %u%s\n", c->restarts,
		    c->restarts >= FB_CHECK_MAX_RESTARTS
			    ? " (the most: the steps left were "
			      "not run)"
			    : "");
	n = findings(c, NULL);
	fb_text_say(&t, "\nfindings: %u\n", n);
	findings(c, &t);
	fb_text_say(&t, "\nINI lines to use:\n");
	if (c->handshake_ok)
		ini_lines(c, &t);
	return t.len;
}

/* The step kinds' names in the JSON report, in enum fb_check_kind order. */
static const char *const kind_names[] = {
	"ready",         "unknown",    "read",    "accept",    "stop",
	"ponderhit",     "pondermiss", "multipv", "newnormal", "xb_ponderhit",
	"xb_pondermiss", "analyze",    "quit",
};

static const char *
json_bool(bool b)
{
	return b ? "true" : "false";
}

/* Each line of text[0..len) as a JSON string in an array, without the
 * prefix `skip` where it starts with it. */
static void
json_lines(struct fb_text *t, const char *text, size_t len, const char *skip)
{
	size_t k = strlen(skip);
	bool first = true;

	fb_text_say(t, "[");
	for (const char *s = text, *end = text + len; s < end;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl != NULL ? (size_t)(nl - s) : (size_t)(end - s);
		const char *l = s;
		s += n + 1;
		if (n >= k && memcmp(l, skip, k) == 0)
			l += k, n -= k;
		fb_text_say(t, first ? "\n    " : ",\n    ");
		fb_text_json(t, l, n);
		first = false;
	}
	fb_text_say(t, first ? "]" : "\n  ]");
}

static void
json_handshake(const struct fb_check *c, struct fb_text *t)
{
	if (c->handshake_ok && c->proto == FB_CHECK_UCI)
		fb_text_say(t,
			    "  \"options\": {\"UCI_Chess960\": %s, "
			    "\"UCI_Variant\": %s, \"capablanca\": %s, "
			    "\"caparandom\": %s, \"janus\": %s, "
			    "\"embassy\": %s, \"Ponder\": %s, "
			    "\"MultiPV\": %s},\n  \"features\": null,\n",
			    json_bool(c->opt_chess960),
			    json_bool(c->opt_variant), json_bool(c->var_capab),
			    json_bool(c->var_capa), json_bool(c->var_janus),
			    json_bool(c->var_embassy), json_bool(c->opt_ponder),
			    json_bool(c->opt_multipv));
	else if (c->handshake_ok)
		fb_text_say(t,
			    "  \"options\": null,\n  \"features\": {\"done\": "
			    "%s, \"setboard\": %s, \"usermove\": %s, "
			    "\"ping\": %s, \"fischerandom\": %s, "
			    "\"capablanca\": %s, \"caparandom\": %s, "
			    "\"janus\": %s, \"embassy\": %s},\n",
			    json_bool(c->feat_done),
			    json_bool(c->feat_setboard),
			    json_bool(c->feat_usermove),
			    json_bool(c->feat_ping), json_bool(c->var_960),
			    json_bool(c->var_capab), json_bool(c->var_capa),
			    json_bool(c->var_janus), json_bool(c->var_embassy));
	else
		fb_text_say(t, "  \"options\": null,\n  \"features\": null,\n");
}

static void
json_steps(const struct fb_check *c, struct fb_text *t)
{
	char d[400];

	fb_text_say(t, "  \"steps\": [");
	for (size_t i = 0; i < c->nsteps; i++) {
		const struct fb_check_step *s = &c->step[i];
		struct fb_text dt = {d, sizeof d, 0};
		describe(c, s, &dt);
		fb_text_say(t,
			    "%s\n    {\"kind\": \"%s\", \"verdict\": \"%s\", ",
			    i > 0 ? "," : "", kind_names[s->kind],
			    verdict_name(s->verdict));
		fb_text_say(t, "\"what\": ");
		fb_text_json(t, d, strlen(d));
		fb_text_say(t, ", \"answer\": ");
		if (s->got[0])
			fb_text_json(t, s->got, strlen(s->got));
		else
			fb_text_say(t, "null");
		if (s->verdict == FB_CV_UNTESTED)
			fb_text_say(t, ", \"ms\": null}");
		else
			fb_text_say(t, ", \"ms\": %u}", s->ms);
	}
	fb_text_say(t, c->nsteps > 0 ? "\n  ],\n" : "],\n");
}

/* The castle forms the engine wrote, per mode (the text's "emits"). */
static void
json_emits(const struct fb_check *c, struct fb_text *t)
{
	bool any = false;

	fb_text_say(t, "  \"emits\": [");
	for (int m = 0; m < 2; m++)
		for (size_t i = 0; i < c->nsteps; i++) {
			const struct fb_check_step *s = &c->step[i];
			if (s->kind != FB_CK_READ || s->c960 != m ||
			    s->verdict != FB_CV_OK ||
			    !fb_check_pos_forms_differ(s->pos))
				continue;
			fb_text_say(t,
				    "%s\n    {\"mode\": \"%s\", \"form\": "
				    "\"%s\", \"move\": ",
				    any ? "," : "", mode_name(m),
				    form_name(s->form));
			fb_text_json(t, s->got, strlen(s->got));
			fb_text_say(t, "}");
			any = true;
			break;
		}
	fb_text_say(t, any ? "\n  ],\n" : "],\n");
}

size_t
fb_check_report_json(const struct fb_check *c, char *out, size_t cap)
{
	struct fb_text t = {out, cap, 0};
	char part[FB_CHECK_REPORT_MAX / 2];
	struct fb_text p = {part, sizeof part, 0};
	unsigned n = findings(c, NULL);

	if (cap > 0)
		out[0] = '\0';
	fb_text_say(&t, "{\n  \"schema\": \"fenbridge-check/1\",\n"
			"  \"engine\": ");
	if (c->name[0])
		fb_text_json(&t, c->name, strlen(c->name));
	else
		fb_text_say(&t, "null");
	fb_text_say(&t, ",\n  \"protocol\": %s,\n",
		    !c->handshake_ok           ? "null"
		    : c->proto == FB_CHECK_UCI ? "\"uci\""
					       : "\"xboard\"");
	json_handshake(c, &t);
	json_steps(c, &t);
	json_emits(c, &t);
	fb_text_say(&t, "  \"restarts\": %u,\n  \"restarts_exhausted\": %s,\n",
		    c->restarts,
		    json_bool(c->restarts >= FB_CHECK_MAX_RESTARTS));
	findings(c, &p);
	fb_text_say(&t, "  \"findings\": ");
	json_lines(&t, part, p.len < sizeof part ? p.len : sizeof part - 1,
		   "  - ");
	p.len = 0;
	if (c->handshake_ok)
		ini_lines(c, &p);
	fb_text_say(&t, ",\n  \"ini\": ");
	json_lines(&t, part, p.len < sizeof part ? p.len : sizeof part - 1, "");
	fb_text_say(&t, ",\n  \"exit\": %d\n}\n", n > 0 ? 1 : 0);
	return t.len;
}
