/* SPDX-License-Identifier: MIT */
/*
 * The XBoard-GUI / UCI-engine handshake (xboard_uci.h): the GUI's
 * `xboard`/`protover` send `uci`; the engine's `id name` and `option`
 * lines (read by uci_codec.h) become `feature` lines, answered once
 * `uciok` arrives (`feature done=0` holds the GUI meanwhile; an engine
 * that never says uciok is reported after FB_XBU_UCIOK_MS and the GUI
 * released). What the engine declares fills the policy record: its
 * UCI_Chess960 (listed, or absent once uciok came) and its UCI_Variant
 * list, of which the features offer what fenbridge can play
 * (fb_policy_plays).
 *
 * The GUI's `option NAME=VALUE`, `memory`, `cores` and `egtpath` go to
 * the engine as `setoption` lines.
 *
 * No I/O in this file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xboard_uci.h"

static void
set_timer(const struct fb_sink *out, unsigned ms)
{
	if (out->timer != NULL)
		out->timer(out->ctx, ms);
}

void
fb_xbu_ask_engine(struct xbu *x, const struct fb_sink *out)
{
	(void)x;
	fb_proto_engine(out, "uci");
	set_timer(out, FB_XBU_UCIOK_MS);
}

/* The feature lines toward the GUI. */
void
fb_xbu_features(struct xbu *x, const struct fb_sink *out)
{
	char line[1024];
	size_t n;
	const char *name = x->opt->name != NULL ? x->opt->name
			   : x->name[0]         ? x->name
						: "UCI engine";

	n = (size_t)snprintf(line, sizeof line,
			     "feature myname=\"%s\" setboard=1 usermove=1 "
			     "ping=1 playother=1 sigint=0 sigterm=0 "
			     "analyze=1 colors=0 reuse=1 san=0 time=1 "
			     "draw=0 variants=\"normal",
			     name);
	for (size_t i = 0; i < fb_variant_count() && n < sizeof line; i++) {
		const struct fb_variant *v = fb_variant_at(i);
		if (v != fb_variant_normal &&
		    fb_policy_plays(&x->pol, v) != FB_PLAY_NO)
			n += (size_t)snprintf(line + n, sizeof line - n, ",%s",
					      v->name);
	}
	if (n < sizeof line)
		n += (size_t)snprintf(line + n, sizeof line - n, "\"%s%s%s\n",
				      x->has_hash ? " memory=1" : "",
				      x->has_threads ? " smp=1" : "",
				      x->has_syzygy ? " egt=\"syzygy\"" : "");
	if (n >= sizeof line)
		n = sizeof line - 1;
	out->to_gui(out->ctx, line, n);
	if (x->feat_options.len > 0 && !x->feat_options.oom)
		out->to_gui(out->ctx, x->feat_options.p, x->feat_options.len);
	out->to_gui(out->ctx, "feature done=1\n", 15);
}

void
fb_xbu_engine_id(struct xbu *x, const char *text, size_t len,
		 const struct fb_sink *out)
{
	struct fb_uci_id id;

	if (fb_uci_parse_id(text, len, &id) == 0 && id.name) {
		size_t n = id.value.len;
		if (n >= sizeof x->name)
			n = sizeof x->name - 1;
		/* a quote would end XBoard's myname="..." */
		for (size_t i = 0; i < n; i++) {
			char c = text[id.value.off + i];
			x->name[i] = c == '"' ? '\'' : c;
		}
		x->name[n] = '\0';
		x->pol.quirk = fb_quirk_find(x->name, n, "uci");
		if (x->pol.quirk != NULL)
			fb_proto_report(out, FB_LOG_INFO, "engine '%s': %s",
					x->name, x->pol.quirk->why);
	}
	fb_proto_report(out, FB_LOG_DEBUG, "%.*s: into the features", (int)len,
			text);
}

/* Options fenbridge drives itself (UCI_Chess960, UCI_Variant, Ponder,
 * Hash, Threads, SyzygyPath: variant, hard/easy, memory, cores, egtpath):
 * not offered to the GUI. */
static const char *const driven[] = {
	"UCI_Chess960", "UCI_Variant", "UCI_AnalyseMode",
	"UCI_Opponent", "Ponder",      "Hash",
	"Threads",      "SyzygyPath",  NULL};

/* The variants UCI_Variant lists (every var, beyond the codec's first
 * FB_UCI_VARS_MAX too), into the policy record. */
static void
read_variants(struct xbu *x, const char *text, size_t len,
	      const struct fb_uci_option *o)
{
	struct fb_span known[FB_UCI_VARS_MAX], v;
	size_t n = 0, pos = o->vars.off;

	/* only the ones the variant table knows count */
	while (o->nvars > 0 && n < FB_UCI_VARS_MAX &&
	       fb_uci_option_next_var(text, len, &pos, &v))
		if (fb_variant_find(text + v.off, v.len) != NULL)
			known[n++] = v;
	fb_policy_read_variants(&x->pol.variants, text, known, n);
}

/* The option's type and values in XBoard's form (CECP `feature option`):
 * false for a type XBoard has no form of. */
static bool
option_feature(struct fb_buf *f, const char *text, size_t len,
	       const struct fb_uci_option *o)
{
	struct fb_span d = o->def, v;
	size_t pos = o->vars.off;
	bool first = true;

	switch (o->type) {
	case FB_UCI_T_SPIN:
		fb_proto_buf_str(f, " -spin ");
		fb_proto_buf_add(f, text + d.off, d.len);
		fb_proto_buf_add(f, " ", 1);
		fb_proto_buf_add(f, text + o->min.off, o->min.len);
		fb_proto_buf_add(f, " ", 1);
		fb_proto_buf_add(f, text + o->max.off, o->max.len);
		return true;
	case FB_UCI_T_CHECK:
		fb_proto_buf_str(f,
				 fb_proto_is_nocase(text, d.off, d.len, "true")
					 ? " -check 1"
					 : " -check 0");
		return true;
	case FB_UCI_T_STRING:
		fb_proto_buf_str(f, " -string ");
		if (!fb_span_is(text, d, "<empty>"))
			fb_proto_buf_add(f, text + d.off, d.len);
		return true;
	case FB_UCI_T_COMBO:
		/* -combo A /// *B /// C: the default is starred */
		fb_proto_buf_str(f, " -combo");
		while (o->nvars > 0 &&
		       fb_uci_option_next_var(text, len, &pos, &v)) {
			fb_proto_buf_str(f, first ? " " : " /// ");
			first = false;
			if (v.len == d.len &&
			    memcmp(text + v.off, text + d.off, v.len) == 0)
				fb_proto_buf_add(f, "*", 1);
			fb_proto_buf_add(f, text + v.off, v.len);
		}
		return true;
	case FB_UCI_T_BUTTON:
		fb_proto_buf_str(f, " -button");
		return true;
	case FB_UCI_T_UNKNOWN:
		break;
	}
	return false;
}

/* The engine's `option` line: what it says of the engine goes into the
 * policy record and the features; the option is remembered, and offered
 * to the GUI as a `feature option=` line unless fenbridge drives it or the
 * config hides it. */
void
fb_xbu_engine_option(struct xbu *x, const char *text, size_t len,
		     const struct fb_sink *out)
{
	struct fb_uci_option o;
	const struct fb_engine_option *cfg;
	struct fb_xbu_option *opts;
	const char *name;
	size_t nl, mark;

	if (fb_uci_parse_option(text, len, &o) < 0)
		goto bad;
	name = text + o.name.off;
	nl = o.name.len;
	if (fb_proto_is_nocase(name, 0, nl, "UCI_Chess960"))
		x->pol.chess960 = FB_SUPPORT_LISTED;
	else if (fb_proto_is_nocase(name, 0, nl, "Hash"))
		x->has_hash = true;
	else if (fb_proto_is_nocase(name, 0, nl, "Threads"))
		x->has_threads = true;
	else if (fb_proto_is_nocase(name, 0, nl, "SyzygyPath"))
		x->has_syzygy = true;
	else if (fb_proto_is_nocase(name, 0, nl, "Ponder"))
		x->has_ponder = true;
	else if (fb_proto_is_nocase(name, 0, nl, "UCI_Variant"))
		read_variants(x, text, len, &o);
	for (const char *const *w = driven; *w != NULL; w++)
		if (fb_proto_is_nocase(name, 0, nl, *w)) {
			fb_proto_report(out, FB_LOG_DEBUG,
					"option %s: driven by fenbridge, not "
					"offered to the GUI",
					*w);
			return;
		}
	cfg = fb_proto_option(x->opt, name, nl);
	if (cfg != NULL && (cfg->flags & FB_OPT_HIDDEN)) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"option hidden from the GUI by the config");
		return;
	}
	mark = x->feat_options.len;
	fb_proto_buf_str(&x->feat_options, "feature option=\"");
	fb_proto_buf_add(&x->feat_options, name, nl);
	if (!option_feature(&x->feat_options, text, len, &o)) {
		x->feat_options.len = mark;
		goto bad;
	}
	fb_proto_buf_str(&x->feat_options, "\"\n");
	opts = realloc(x->options, (x->noptions + 1) * sizeof *opts);
	if (opts == NULL)
		return;
	x->options = opts;
	opts[x->noptions].type = o.type;
	opts[x->noptions].name = malloc(nl + 1);
	if (opts[x->noptions].name == NULL)
		return;
	memcpy(opts[x->noptions].name, name, nl);
	opts[x->noptions].name[nl] = '\0';
	x->noptions++;
	return;
bad:
	fb_proto_report(out, FB_LOG_WARN, "engine option not understood: %.*s",
			(int)len, text);
}

/* uciok: the engine's list is complete (an option not listed is absent);
 * the config's options go to it, and the GUI gets its features. */
void
fb_xbu_engine_uciok(struct xbu *x, const struct fb_sink *out)
{
	if (x->state != FB_XBU_START && x->state != FB_XBU_HELLO && x->protover)
		fb_proto_report(out, FB_LOG_INFO, "late uciok");
	set_timer(out, 0);
	if (x->pol.chess960 == FB_SUPPORT_UNKNOWN)
		x->pol.chess960 = FB_SUPPORT_ABSENT;
	fb_policy_send_uci_options(&x->pol, out);
	fb_xbu_step(x, FB_XBU_EV_LISTED, NULL, 0, out);
}

/* The engine never said uciok: the GUI would wait for done=1 for ever.
 * Returns true when the wait is given up. */
bool
fb_xbu_uciok_timeout(struct xbu *x, const struct fb_sink *out)
{
	if (x->state != FB_XBU_HELLO)
		return false;
	fb_proto_report(out, FB_LOG_ERROR,
			"the engine did not answer uci with uciok in %u s",
			FB_XBU_UCIOK_MS / 1000);
	fb_proto_say(out, &fb_protocol_xboard, FB_SAY_ERROR,
		     "the engine did not finish "
		     "its UCI handshake (no uciok in %u s)",
		     FB_XBU_UCIOK_MS / 1000);
	if (x->pol.chess960 == FB_SUPPORT_UNKNOWN)
		x->pol.chess960 = FB_SUPPORT_ABSENT;
	return fb_xbu_step(x, FB_XBU_EV_LISTED, NULL, 0, out);
}

static const struct fb_xbu_option *
find_option(const struct xbu *x, const char *name, size_t n)
{
	for (size_t i = 0; i < x->noptions; i++)
		if (fb_proto_is_nocase(name, 0, n, x->options[i].name))
			return &x->options[i];
	return NULL;
}

/* `option NAME=VALUE` or `option NAME` (a button). */
void
fb_xbu_gui_option(struct xbu *x, const char *text, struct fb_span arg,
		  const struct fb_sink *out)
{
	struct fb_cecp_option v;
	const struct fb_xbu_option *o;
	const struct fb_engine_option *cfg;

	fb_cecp_parse_option(text, arg, &v);
	o = find_option(x, text + v.name.off, v.name.len);
	if (o == NULL) {
		fb_proto_gui(out, "Error (unknown option): %.*s", (int)arg.len,
			     text + arg.off);
		return;
	}
	cfg = fb_proto_option(x->opt, o->name, strlen(o->name));
	if (cfg != NULL && (cfg->flags & FB_OPT_FORCED)) {
		fb_proto_report(out, FB_LOG_INFO,
				"option '%s' dropped: the config forces it",
				o->name);
		return;
	}
	if (!v.has_value) {
		fb_proto_engine(out, "setoption name %s", o->name);
	} else if (o->type == FB_UCI_T_CHECK) {
		bool on = v.value.len > 0 && text[v.value.off] != '0';
		fb_proto_engine(out, "setoption name %s value %s", o->name,
				on ? "true" : "false");
	} else {
		fb_proto_engine(out, "setoption name %s value %.*s", o->name,
				(int)v.value.len, text + v.value.off);
	}
}

/* memory, cores, egtpath -> the engine's Hash, Threads, SyzygyPath. */
void
fb_xbu_gui_resource(struct xbu *x, const char *uci, bool has, const char *text,
		    size_t len, struct fb_span value, const struct fb_sink *out)
{
	(void)x;
	if (!has) {
		fb_proto_report(out, FB_LOG_INFO,
				"'%.*s' ignored: the engine has no %s option",
				(int)len, text, uci);
		return;
	}
	fb_proto_engine(out, "setoption name %s value %.*s", uci,
			(int)value.len, text + value.off);
}

void
fb_xbu_options_free(struct xbu *x)
{
	for (size_t i = 0; i < x->noptions; i++)
		free(x->options[i].name);
	free(x->options);
	free(x->feat_options.p);
}
