/* SPDX-License-Identifier: MIT */
/*
 * The UCI GUI / XBoard engine pair's handshake and options: the engine's
 * `feature` lines (CECP "feature", read one key=value at a time by the
 * codec) answered and noted in the pair's state and its policy record;
 * its `feature option=` lines as UCI options; the GUI's id, options and
 * uciok; the GUI's setoption, UCI_Chess960 and UCI_Variant included.
 *
 * No I/O in this file.
 */
#include <stdio.h>
#include <string.h>

#include "normalize.h"
#include "uci_xboard.h"

/* Features fenbridge uses or that need nothing from it; CECP says a GUI
 * rejects the others. sigint/sigterm: fenbridge never signals the engine
 * while it runs, so whatever the engine asks is granted. reuse=0 (restart
 * the engine each game) is accepted but not honoured: one engine process
 * serves the whole session. */
static const char *const accepted_features[] = {
	"ping",      "setboard", "playother", "san",      "usermove",
	"time",      "draw",     "sigint",    "sigterm",  "reuse",
	"analyze",   "myname",   "variants",  "colors",   "ics",
	"name",      "pause",    "nps",       "debug",    "memory",
	"smp",       "done",     "option",    "oocastle", "myversion",
	"highlight", "exclude",  "setscore",  "egt",
};

static bool
feature_accepted(const char *text, struct fb_span key)
{
	for (size_t i = 0;
	     i < sizeof accepted_features / sizeof accepted_features[0]; i++)
		if (fb_span_is(text, key, accepted_features[i]))
			return true;
	return false;
}

/* The next value of a combo's `A /// *B /// C` from *v (n bytes left):
 * its bytes without blanks around them and the `*` of the default. */
struct combo_value {
	const char *p;
	size_t n;
	bool def;
};

static bool
combo_next(const char **v, size_t *n, struct combo_value *out)
{
	const char *p = *v;
	size_t len = *n, end = len, b = 0;

	if (p == NULL)
		return false;
	for (size_t i = 0; i + 3 <= len; i++)
		if (memcmp(p + i, "///", 3) == 0) {
			end = i;
			break;
		}
	*v = end < len ? p + end + 3 : NULL;
	*n = end < len ? len - end - 3 : 0;
	while (b < end && fb_token_blank(p[b]))
		b++;
	while (end > b && fb_token_blank(p[end - 1]))
		end--;
	out->def = b < end && p[b] == '*';
	b += out->def;
	out->p = p + b;
	out->n = end - b;
	return true;
}

/*
 * `NAME -combo A /// *B /// C` -> ` default B var A var B var C` in out
 * (cap bytes). Values that do not fit are left out whole (the default is
 * always kept: the first value when none has a `*`); returns how many.
 */
static unsigned
combo_values(const char *v, size_t n, char *out, size_t cap)
{
	struct combo_value c, def = {NULL, 0, false};
	const char *p = v;
	size_t left = n, k, room;
	unsigned dropped = 0;
	bool def_out = false;

	while (combo_next(&p, &left, &c))
		if (c.def || def.p == NULL)
			def = c;
	if (def.p == NULL || cap < 16)
		return 0;
	if (def.n > cap / 2 - 14)
		def.n = cap / 2 - 14; /* a default too long for any line */
	k = (size_t)snprintf(out, cap, " default %.*s", (int)def.n, def.p);
	p = v;
	left = n;
	while (combo_next(&p, &left, &c)) {
		bool is_def = !def_out && c.p == def.p;
		/* Room kept for the default's var until it is out. */
		room = cap - 1 - k - (def_out || is_def ? 0 : def.n + 5);
		if (5 + c.n > room || (is_def && c.n != def.n)) {
			dropped++;
			continue;
		}
		memcpy(out + k, " var ", 5);
		memcpy(out + k + 5, c.p, c.n);
		k += 5 + c.n;
		def_out |= is_def;
	}
	out[k] = '\0';
	return dropped;
}

/*
 * The UCI type of CECP option type t (-button -save -reset -check -string
 * -file -path -spin -slider -combo) and the rest of its UCI line from the
 * option's arguments a[0..an) into rest (cap bytes; line_room: what is
 * left of the line for a combo's values). NULL for a type UCI lacks.
 */
static const char *
option_type(const char *t, size_t tn, const char *a, size_t an, char *rest,
	    size_t cap, size_t line_room, const struct fb_sink *out,
	    const char *name, size_t nl)
{
	rest[0] = '\0';
	if (fb_proto_is(t, 0, tn, "button") || fb_proto_is(t, 0, tn, "save") ||
	    fb_proto_is(t, 0, tn, "reset"))
		return "button";
	if (fb_proto_is(t, 0, tn, "check")) {
		snprintf(rest, cap, " default %s",
			 an > 0 && *a == '1' ? "true" : "false");
		return "check";
	}
	if (fb_proto_is(t, 0, tn, "string") || fb_proto_is(t, 0, tn, "file") ||
	    fb_proto_is(t, 0, tn, "path")) {
		snprintf(rest, cap, " default %.*s", an > 0 ? (int)an : 7,
			 an > 0 ? a : "<empty>");
		return "string";
	}
	if (fb_proto_is(t, 0, tn, "spin") || fb_proto_is(t, 0, tn, "slider")) {
		long long d = 0, lo = 0, hi = 0;
		char tmp[128];
		snprintf(tmp, sizeof tmp, "%.*s", (int)an, a);
		sscanf(tmp, "%lld %lld %lld", &d, &lo, &hi);
		snprintf(rest, cap, " default %lld min %lld max %lld", d, lo,
			 hi);
		return "spin";
	}
	if (fb_proto_is(t, 0, tn, "combo")) {
		unsigned d = combo_values(a, an, rest,
					  line_room < cap ? line_room : cap);
		if (d > 0)
			fb_proto_report(
				out, FB_LOG_INFO,
				"engine option '%.*s': %u of its values "
				"do not fit a line; not shown to the "
				"GUI",
				(int)nl, name, d);
		return "combo";
	}
	return NULL;
}

/*
 * `feature option="NAME -TYPE ARGS"` (the value v[0..n)): kept for
 * setoption, and written as a UCI option line for the GUI.
 */
static void
engine_option(struct uxb *x, const char *v, size_t n, const struct fb_sink *out)
{
	char line[800], rest[700];
	struct fb_cecp_option_feature of;
	size_t nl;
	const char *type;
	const struct fb_engine_option *o;
	int k;

	if (!fb_cecp_parse_option_feature(v, (struct fb_span){0, n}, &of) ||
	    of.name.len >= sizeof x->options[0].name) {
		fb_proto_report(out, FB_LOG_WARN,
				"engine option '%.*s' not understood; not "
				"shown to the GUI",
				(int)n, v);
		return;
	}
	nl = of.name.len;
	o = fb_proto_option(x->opt, v, nl);
	if (o != NULL && (o->flags & FB_OPT_HIDDEN))
		return;
	/* fenbridge's own options: the engine's would be a second line of
	 * the same name (Fairy-Stockfish lists UCI_Chess960 and Ponder). */
	if (fb_proto_is_nocase(v, 0, nl, "UCI_Chess960") ||
	    fb_proto_is_nocase(v, 0, nl, "UCI_Variant") ||
	    fb_proto_is_nocase(v, 0, nl, "Ponder")) {
		fb_proto_report(out, FB_LOG_INFO,
				"engine option '%.*s' not shown: fenbridge "
				"plays that part",
				(int)nl, v);
		return;
	}
	/* line holds "option name N type combo" and rest. */
	type = option_type(v + of.type.off, of.type.len, v + of.args.off,
			   of.args.len, rest, sizeof rest,
			   sizeof line - 30 - nl, out, v, nl);
	if (type == NULL) {
		fb_proto_report(out, FB_LOG_WARN,
				"engine option '%.*s' has a type UCI does not "
				"have; not shown to the GUI",
				(int)n, v);
		return;
	}
	if (x->noptions < FB_UXB_OPTIONS_MAX) {
		struct fb_uxb_option *e = &x->options[x->noptions++];
		memcpy(e->name, v, nl);
		e->name[nl] = '\0';
		e->type = type[0] == 'b'                     ? FB_UXB_OPT_BUTTON
			  : type[0] == 'c' && type[1] == 'h' ? FB_UXB_OPT_CHECK
							     : FB_UXB_OPT_VALUE;
	}
	k = snprintf(line, sizeof line, "option name %.*s type %s%s", (int)nl,
		     v, type, rest);
	if (k > 0) {
		size_t m = (size_t)k < sizeof line ? (size_t)k
						   : sizeof line - 1;
		fb_proto_buf_add(&x->uci_options, line, m);
		fb_proto_buf_add(&x->uci_options, "\n", 1);
	}
}

/* Notes one feature; returns false when it is rejected. */
static bool
note_feature(struct uxb *x, const char *text, const struct fb_cecp_feature *ft,
	     const struct fb_sink *out)
{
	const char *v = text + ft->value.off;
	size_t n = ft->value.len;
	bool one = fb_cecp_feature_flag(text, ft, NULL);

	if (fb_span_is(text, ft->key, "usermove"))
		x->f.usermove = one;
	else if (fb_span_is(text, ft->key, "san"))
		x->f.san = one;
	else if (fb_span_is(text, ft->key, "setboard"))
		x->f.setboard = one;
	else if (fb_span_is(text, ft->key, "ping"))
		x->f.ping = one;
	else if (fb_span_is(text, ft->key, "analyze"))
		x->f.analyze = one;
	else if (fb_span_is(text, ft->key, "nps"))
		x->f.nps = one;
	else if (fb_span_is(text, ft->key, "oocastle"))
		x->pol.oocastle_off = n == 1 && v[0] == '0';
	else if (fb_span_is(text, ft->key, "variants"))
		fb_policy_read_variants_csv(&x->pol.variants, v, n);
	else if (fb_span_is(text, ft->key, "option"))
		engine_option(x, v, n, out);
	else if (fb_span_is(text, ft->key, "myname")) {
		snprintf(x->f.myname, sizeof x->f.myname, "%.*s", (int)n, v);
		x->pol.quirk = fb_quirk_find(v, n, "xboard");
		if (x->pol.quirk != NULL)
			fb_proto_report(out, FB_LOG_INFO, "engine '%.*s': %s",
					(int)n, v, x->pol.quirk->why);
	}
	return feature_accepted(text, ft->key);
}

void
fb_uxb_features(struct uxb *x, const char *text, size_t len,
		const struct fb_sink *out)
{
	struct fb_cecp_feature ft;
	size_t pos = 0;
	bool done = false, done0 = false;

	while (fb_cecp_next_feature(text, len, &pos, &ft)) {
		if (fb_span_is(text, ft.key, "done")) {
			done = fb_cecp_feature_flag(text, &ft, NULL);
			done0 = !done;
		}
		fb_proto_engine(out, "%s %.*s",
				note_feature(x, text, &ft, out) ? "accepted"
								: "rejected",
				(int)ft.key.len, text + ft.key.off);
	}
	if (done)
		fb_uxb_lifecycle(x, FB_UXB_EV_DONE, 0, out);
	else if (done0 && x->state == FB_UXB_FEATURES)
		fb_uxb_timer(out, FB_UXB_FEATURE_DONE0_MS);
}

/* UCI_Variant for the variants the engine can play beyond normal chess
 * and Chess960 (which UCI_Chess960 says), in the table's UCI names. */
static void
variant_option(const struct uxb *x, const struct fb_sink *out)
{
	char line[512] = "option name UCI_Variant type combo default chess";
	size_t k = strlen(line), count = 0;

	for (size_t i = 0; fb_variant_at(i) != NULL; i++) {
		const struct fb_variant *v = fb_variant_at(i);
		if (fb_policy_plays(&x->pol, v) == FB_PLAY_NO)
			continue;
		count++;
		k += (size_t)snprintf(line + k, sizeof line - k, " var %s",
				      v->uci);
		if (k >= sizeof line)
			return;
	}
	if (count > 2)
		fb_proto_gui(out, "%s", line);
}

void
fb_uxb_announce(struct uxb *x, const struct fb_sink *out)
{
	const char *name = x->opt->name != NULL     ? x->opt->name
			   : x->f.myname[0] != '\0' ? x->f.myname
						    : "XBoard engine";
	size_t nl = strlen(name);

	fb_uxb_timer(out, 0);
	/* Thinking output on; no pondering of the engine's own: go ponder
	 * is analysis. */
	fb_proto_engine(out, "post");
	fb_proto_engine(out, "easy");
	if (x->opt->normalize && x->opt->name == NULL &&
	    fb_normalize_name(name, nl) < nl) {
		nl = fb_normalize_name(name, nl);
		fb_proto_report(out, FB_LOG_DEBUG,
				"normalize: id name cut to %zu bytes; the "
				"engine's full name: '%s'",
				nl, name);
	}
	fb_proto_gui(out, "id name %.*s", (int)nl, name);
	fb_proto_gui(out, "id author %s (XBoard engine, through fenbridge)",
		     name);
	if (fb_policy_plays(&x->pol, fb_variant_find("fischerandom", 12)) !=
	    FB_PLAY_NO)
		fb_proto_gui(out, "option name UCI_Chess960 type check default "
				  "false");
	variant_option(x, out);
	fb_proto_gui(out, "option name Ponder type check default false");
	if (x->uci_options.len > 0)
		fb_sink_put(out, FB_TO_GUI, x->uci_options.p,
			    x->uci_options.len);
	for (size_t k = 0; k < x->opt->noptions; k++) {
		const struct fb_engine_option *o = &x->opt->options[k];
		if (o->flags & FB_OPT_SET)
			fb_proto_engine(out, "option %s=%s", o->name, o->value);
	}
	fb_proto_gui(out, "uciok");
	for (; x->pending_ready > 0; x->pending_ready--) {
		if (x->f.ping)
			fb_proto_engine(out, "ping %u", ++x->ping_sent);
		else
			fb_proto_gui(out, "readyok");
	}
}

/*
 * GNU Chess 6.2.7 hangs at start in about 9 runs of 10 when its input is a
 * pipe: its adapter thread calls setbuf(stdin) while its input thread
 * waits in fgets holding stdin's lock, so nothing happens (not even its
 * banner) until a line arrives and the adapter wins the lock in the moment
 * the input thread lets it go (fixed in 6.2.8: "Do not modify stdin/stdout
 * buffering from adapter thread"). XBoard gets it going with the commands
 * it sends when its own wait of 10 s runs out. An empty line is what CECP
 * engines ignore (GNU Chess says "Invalid move: ", Fairy-Stockfish
 * "Error (unkown command): ", both logged only); one every 100 ms starts
 * GNU Chess within a few tries (measured: at most 8 in 30 starts).
 */
void
fb_uxb_nudge(struct uxb *x, const struct fb_sink *out)
{
	x->nudges++;
	fb_sink_put(out, FB_TO_ENGINE, "\n", 1);
	fb_uxb_timer(out, FB_UXB_NUDGE_MS);
}

/* The GUI's choices into the policy: UCI_Chess960 makes normal chess
 * Chess960; with another UCI_Variant it changes nothing. */
static void
chosen(struct uxb *x, const struct fb_variant *v)
{
	x->pol.variant = v;
	x->pol.gui_960 = x->uci_960 && v == fb_variant_normal;
	x->have_valid = false;
}

void
fb_uxb_setoption(struct uxb *x, const char *text, size_t len,
		 const struct fb_sink *out)
{
	struct fb_uci_setoption so;
	const char *name, *value;
	const struct fb_engine_option *o;
	const struct fb_uxb_option *e = NULL;

	if (fb_uci_parse_setoption(text, len, &so) < 0) {
		fb_proto_report(out, FB_LOG_WARN,
				"setoption not understood: '%.*s'", (int)len,
				text);
		return;
	}
	name = text + so.name.off;
	value = text + so.value.off;
	if (fb_proto_is_nocase(name, 0, so.name.len, "UCI_Chess960")) {
		x->uci_960 = so.has_value &&
			     fb_proto_is_nocase(value, 0, so.value.len, "true");
		chosen(x, x->pol.variant);
		return;
	}
	if (fb_proto_is_nocase(name, 0, so.name.len, "UCI_Variant")) {
		const struct fb_variant *v =
			so.has_value ? fb_variant_find(value, so.value.len)
				     : NULL;
		if (v == NULL || fb_policy_plays(&x->pol, v) == FB_PLAY_NO) {
			fb_proto_say(out, &fb_protocol_uci, FB_SAY_WARNING,
				     "variant "
				     "'%.*s' is not one the engine plays; "
				     "it stays %s",
				     (int)so.value.len, value,
				     x->pol.variant->uci);
			return;
		}
		chosen(x, v);
		return;
	}
	if (fb_proto_is_nocase(name, 0, so.name.len, "Ponder"))
		return; /* fenbridge's own: go ponder is analysis */
	o = fb_proto_option(x->opt, name, so.name.len);
	if (o != NULL && (o->flags & FB_OPT_FORCED)) {
		fb_proto_report(out, FB_LOG_INFO,
				"setoption for '%s' dropped: the config "
				"forces it to '%s'",
				o->name, o->value);
		return;
	}
	for (size_t i = 0; i < x->noptions; i++)
		if (fb_proto_is_nocase(name, 0, so.name.len,
				       x->options[i].name))
			e = &x->options[i];
	if (e != NULL && e->type == FB_UXB_OPT_BUTTON)
		fb_proto_engine(out, "option %s", e->name);
	else if (e != NULL && e->type == FB_UXB_OPT_CHECK)
		fb_proto_engine(out, "option %s=%d", e->name,
				so.has_value && fb_proto_is_nocase(value, 0,
								   so.value.len,
								   "true"));
	else
		fb_proto_engine(out, "option %.*s=%.*s", (int)so.name.len, name,
				(int)so.value.len, value);
}
