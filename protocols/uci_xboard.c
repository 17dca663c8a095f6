/* SPDX-License-Identifier: MIT */
/*
 * A UCI GUI with an XBoard engine (UCI spec of April 2006; CECP, "Chess
 * Engine Communication Protocol", T. Mann, H.G. Muller): legacy engines
 * behind Fritz, Shredder, cutechess or fastchess.
 *
 * Unlike the same-protocol pairs this one translates every command:
 *
 * - Handshake: `uci` -> `xboard`, `protover 2`; the engine's features are
 *   answered `accepted`/`rejected` and collected until `done=1` (or 2 s of
 *   silence for a protover-1 engine; `done=0` extends the wait to 30 s).
 *   An engine that has said nothing at all gets an empty line every
 *   100 ms of that wait (GNU Chess 6.2.7 hangs at start until a line
 *   comes, see nudge()).
 *   Then the GUI gets `id name` (myname, or the config's name), the
 *   engine's `feature option=` lines as UCI options, UCI_Chess960 and
 *   UCI_Variant for the variants it lists (from the variant table), Ponder,
 *   and `uciok`. `isready` -> `ping N`, `pong N` -> `readyok`.
 * - Position: the engine keeps its own game, always in force mode between
 *   searches so that it never moves on its own. A `position` line that
 *   extends what the engine has sends only the new moves (`usermove M` or
 *   M; coordinates, or SAN for san=1; castling in the engine's notation);
 *   any other gets `new`, `force`, `variant V`, `setboard FEN` (`edit` for
 *   a setboard=0 engine) and the moves.
 * - Search: `go` with clocks -> `level`, `time`, `otim`, `go`; `movetime` ->
 *   `st` (whole seconds, rounded up) and `?` at the GUI's deadline; `depth`
 *   -> `sd` (or `?` when the thinking output reaches it, for an engine
 *   that rejects sd); `nodes` -> `nps` + `st 1`; `infinite` and `ponder`
 *   -> `analyze`; `stop` -> `?` (or `exit` from analysis, with the pv's
 *   first move as bestmove); `ponderhit` -> `exit` and a real search.
 * - Engine -> GUI: thinking output -> `info depth score time nodes pv`
 *   (a SAN pv read with movegen, castling in the GUI's notation, cut at a
 *   move to fit a line), `move M` -> `bestmove M` (checked legal; GNU
 *   Chess's second announcement of the same move is dropped), resign and
 *   result claims, errors and `telluser` -> `info string`.
 *
 * An engine that lists `normal` but not `fischerandom` plays Chess960 as
 * normal chess, as in xboard.c: standard castling rights only, and a castle
 * it cannot read re-anchored: `setboard` of the position after it, or for
 * an engine without setboard `new`, `force`, `a2a3` when Black is to move
 * (CECP's own way: edit keeps the side to move), and `edit`. The time
 * control goes again before the next search.
 *
 * No I/O in this file.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenbridge/movegen.h"
#include "proto.h"

/* CECP: a GUI waits 2 s for the features of a protover-2 engine; done=0
 * asks it to wait for done=1, which a broken engine may never send. An
 * engine that has said nothing at all is nudged every NUDGE_MS for up to
 * SILENT_MS, as long as XBoard itself waits for it: GNU Chess 6.2.7 hangs
 * at start until a line wins a race (see nudge()), which on a loaded
 * machine took more than the 2 s (CI, twice). An engine that speaks gets
 * FEATURE_MS from its first line. */
#define FEATURE_MS 2000
#define FEATURE_DONE0_MS 30000
#define NUDGE_MS 100
#define SILENT_MS 10000

/* CECP mate scores: 100000 + N for mate in N moves, -100000 - N. */
#define MATE_SCORE 100000

#define MYNAME_MAX 128
#define SD_UNLIMITED 64
/* How long a stopped analysis may take to show its first pv. */
#define STOP_WAIT_MS 5000
/* A go movetime this long goes as st alone (a second is little of it). */
#define DEADLINE_MAX_MS 60000
#define OPTIONS_MAX 64

/* What the engine can do, from its features (CECP defaults). */
struct features {
	bool usermove, san, setboard, ping, analyze, nps, oocastle_off;
	char myname[MYNAME_MAX];
	char *variants; /* its variants="..." list, or NULL: normal only */
};

/* One of the engine's `feature option=` lines. */
enum opt_type { OPT_BUTTON, OPT_CHECK, OPT_VALUE };

struct engine_opt {
	char name[64];
	enum opt_type type;
};

enum phase {
	PHASE_START,    /* before the GUI's uci */
	PHASE_FEATURES, /* xboard + protover sent: collecting features */
	PHASE_READY,    /* uciok sent */
};

enum search {
	SEARCH_IDLE,
	SEARCH_THINKING, /* go: the engine will send a move */
	SEARCH_ANALYZING, /* go infinite or go ponder: analyze mode */
};

/* What the session's one timer (fb_sink.timer) waits for. */
enum wait {
	WAIT_NONE,
	WAIT_FEATURES, /* the features (nudging a silent engine) */
	WAIT_PV,       /* a stopped analysis's first pv */
	WAIT_DEADLINE, /* the end of a go movetime: then `?` */
};

/* The forms of a move announcement (CECP "move M", the old "N. ... M",
 * GNU Chess's "My move is : M"). */
enum form { FORM_MOVE, FORM_OLD, FORM_MY_MOVE };

struct uxb {
	const struct fb_filter_options *opt;
	enum phase phase;
	struct features f;
	const struct fb_quirk *quirk;
	struct engine_opt options[OPTIONS_MAX];
	size_t noptions;
	char *uci_options; /* the UCI option lines for the GUI */
	size_t uci_len;
	unsigned pending_ready; /* isready before uciok */
	unsigned ping_sent, pong_seen;
	enum wait wait;
	bool heard;       /* any line from the engine since protover 2 */
	unsigned nudges;  /* empty lines sent to a silent engine */

	/* What the GUI chose. */
	bool gui_960;
	const struct fb_variant *variant;

	/* The engine's game: the GUI's position line (normalised: tokens
	 * joined by one blank) that it has, and its board. */
	char *have;
	size_t have_len, have_base, have_cap;
	bool have_valid;
	struct fb_game game;
	bool emulated; /* Chess960 played as normal chess */

	/* What was said of this game (reset by ucinewgame or a new start):
	 * the log hears of emulation and re-anchoring at info level once per
	 * game, the GUI once per game. */
	char start[256];
	size_t start_len;
	bool logged_emulation, logged_anchor, told_gui;

	/* The search. */
	enum search search;
	bool pondering;      /* the analysis is a go ponder */
	char pv[2][24];      /* the last pv's first two moves (GUI) */
	char ponder_go[256]; /* the go line to run at ponderhit */
	bool stop_sent;
	/* Time control sent this game: "level ..." or "st N", to resend only
	 * when it changes. */
	char control[64];
	bool depth_set; /* an sd of a go depth is in force */
	bool no_sd;     /* the engine rejected sd */
	bool no_movenow; /* the engine rejected ? (Fairy-Max: after its move) */
	bool analysed;   /* no setboard, and no timed search since analysis */
	bool restored;   /* xboard mode restored since the last analysis */
	long long depth_goal; /* this search's go depth, or 0 */
	/* The last move taken from the engine, and in which form: a second
	 * announcement in another form is the same move (GNU Chess writes
	 * "1. ... g1f3", then "My move is : g1f3"). */
	char echo[24];
	enum form echo_form;
};

/* Where lines go: to the engine and to the GUI, whatever the direction of
 * the line being handled (the sink's directions are absolute). */
struct io {
	const struct fb_sink *s;
};

static struct io
io_gui_side(const struct fb_sink *out)
{
	return (struct io){out};
}

static struct io
io_engine_side(const struct fb_sink *out)
{
	return (struct io){out};
}

/* A line toward the engine or the GUI, whichever side the input came from. */
static void __attribute__((format(printf, 3, 4)))
say(const struct io *io, bool to_engine, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fb_proto_vline(io->s, to_engine ? FB_TO_ENGINE : FB_TO_GUI, fmt, ap);
	va_end(ap);
}

static void end_analysis(struct uxb *x, const struct io *io);
static void bestmove_from_pv(struct uxb *x, const struct io *io);

#define ENG(io, ...) say(io, true, __VA_ARGS__)
#define GUI(io, ...) say(io, false, __VA_ARGS__)

/* Sets the one timer to wait ms for w (0: for nothing). */
static void
set_wait(struct uxb *x, enum wait w, unsigned ms, const struct io *io)
{
	x->wait = ms > 0 ? w : WAIT_NONE;
	if (io->s->timer != NULL)
		io->s->timer(io->s->ctx, ms);
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static void *
uxb_new(const struct fb_filter_options *opt)
{
	struct uxb *x = calloc(1, sizeof *x);

	if (x == NULL)
		return NULL;
	x->opt = opt;
	x->variant = fb_variant_normal;
	x->f.analyze = true; /* CECP default */
	fb_game_start(&x->game, fb_variant_normal->start);
	return x;
}

static void
uxb_free(void *state)
{
	struct uxb *x = state;

	free(x->f.variants);
	free(x->uci_options);
	free(x->have);
	free(x);
}

static const struct fb_game *
uxb_game(const void *state)
{
	const struct uxb *x = state;

	return x->have_valid ? &x->game : NULL;
}

/* The variant in play for the GUI: UCI_Chess960 makes normal chess
 * Chess960. */
static const struct fb_variant *
gui_variant(const struct uxb *x)
{
	if (x->gui_960 && x->variant == fb_variant_normal)
		return fb_variant_find("fischerandom", 12);
	return x->variant;
}

static const char *
uxb_variant(const void *state)
{
	return gui_variant(state)->name;
}

/* ---- notations ---- */

static enum fb_castle_notation
gui_notation(const struct uxb *x)
{
	if (x->opt->gui_castling != FB_CASTLE_AUTO)
		return x->opt->gui_castling;
	return gui_variant(x)->random ? FB_CASTLE_KXR : FB_CASTLE_KING;
}

/* XBoard writes O-O in the random variants, king takes rook for an engine
 * that said oocastle=0 or that the quirk table says rejects O-O, and the
 * king's move otherwise (protocols/xboard.c does the same). */
static enum fb_castle_notation
engine_notation(const struct uxb *x)
{
	if (x->opt->engine_castling != FB_CASTLE_AUTO)
		return x->opt->engine_castling;
	if (x->emulated || !gui_variant(x)->random)
		return FB_CASTLE_KING;
	if (x->f.oocastle_off || (x->quirk != NULL && x->quirk->kxr_for_oo))
		return FB_CASTLE_KXR;
	return FB_CASTLE_OO;
}

static enum fb_notation
engine_dialect(const struct uxb *x)
{
	if (x->opt->engine_fen_auto && x->quirk != NULL &&
	    x->quirk->shredder_fen)
		return FB_SHREDDER;
	return x->opt->engine_fen;
}

/* True when the engine's variants list holds v (in any of its names); an
 * engine without the feature plays normal chess only. */
static bool
engine_lists(const struct uxb *x, const struct fb_variant *v)
{
	const char *p = x->f.variants;

	if (p == NULL)
		return v == fb_variant_normal;
	while (v != NULL && *p != '\0') {
		size_t n = strcspn(p, ",");
		if (fb_variant_find(p, n) == v)
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

/* The engine can play v: it lists it, or lists its fixed-start base and
 * fenbridge plays the rest (emulated). */
static bool
engine_plays(const struct uxb *x, const struct fb_variant *v)
{
	return v->follow &&
	       (engine_lists(x, v) ||
		(v->base != NULL &&
		 engine_lists(x, fb_variant_find(v->base, strlen(v->base)))));
}

/* ---- handshake ---- */

/* Features fenbridge uses or that need nothing from it; CECP says a GUI
 * rejects the others. sigint/sigterm: fenbridge never signals the engine
 * while it runs, so whatever the engine asks is granted. reuse=0 (restart
 * the engine each game) is accepted but not honoured: one engine process
 * serves the whole session. */
static const char *const accepted_features[] = {
	"ping", "setboard", "playother", "san", "usermove", "time", "draw",
	"sigint", "sigterm", "reuse", "analyze", "myname", "variants",
	"colors", "ics", "name", "pause", "nps", "debug", "memory", "smp",
	"done", "option", "oocastle", "myversion", "highlight", "exclude",
	"setscore", "egt",
};

static bool
feature_accepted(const char *key, size_t n)
{
	for (size_t i = 0; i < sizeof accepted_features /
				       sizeof accepted_features[0];
	     i++)
		if (fb_proto_is(key, 0, n, accepted_features[i]))
			return true;
	return false;
}

static void
add_uci_option(struct uxb *x, const char *line, size_t n)
{
	char *p;

	if ((p = realloc(x->uci_options, x->uci_len + n + 1)) == NULL)
		return; /* out of memory: the option is not shown */
	x->uci_options = p;
	memcpy(p + x->uci_len, line, n);
	p[x->uci_len + n] = '\n';
	x->uci_len += n + 1;
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
	while (b < end && is_blank(p[b]))
		b++;
	while (end > b && is_blank(p[end - 1]))
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
 * `feature option="NAME -TYPE ARGS"`: kept for setoption, and written as a
 * UCI option line for the GUI (CECP types: -button -save -reset -check
 * -string -file -path -spin -slider -combo).
 */
static void
engine_option(struct uxb *x, const char *v, size_t n, const struct io *io)
{
	char line[800], rest[700];
	size_t nl = 0, tb, tn;
	const char *type = NULL;
	const struct fb_engine_option *o;
	struct engine_opt *e;
	int k;

	while (nl < n && !(v[nl] == ' ' && nl + 1 < n && v[nl + 1] == '-'))
		nl++;
	if (nl >= n || nl >= sizeof e->name) {
		fb_proto_report(io->s, FB_LOG_WARN,
				"engine option '%.*s' not understood; not "
				"shown to the GUI", (int)n, v);
		return;
	}
	tb = nl + 2;
	tn = 0;
	while (tb + tn < n && !is_blank(v[tb + tn]))
		tn++;
	o = fb_proto_option(x->opt, v, nl);
	if (o != NULL && (o->flags & FB_OPT_HIDDEN))
		return;
	/* fenbridge's own options: the engine's would be a second line of
	 * the same name (Fairy-Stockfish lists UCI_Chess960 and Ponder). */
	if (fb_proto_is_nocase(v, 0, nl, "UCI_Chess960") ||
	    fb_proto_is_nocase(v, 0, nl, "UCI_Variant") ||
	    fb_proto_is_nocase(v, 0, nl, "Ponder")) {
		fb_proto_report(io->s, FB_LOG_INFO,
				"engine option '%.*s' not shown: fenbridge "
				"plays that part", (int)nl, v);
		return;
	}
	rest[0] = '\0';
	{
		const char *a = v + tb + tn;
		size_t an = n - tb - tn;
		while (an > 0 && is_blank(*a))
			a++, an--;
		if (fb_proto_is(v, tb, tn, "button") ||
		    fb_proto_is(v, tb, tn, "save") ||
		    fb_proto_is(v, tb, tn, "reset")) {
			type = "button";
		} else if (fb_proto_is(v, tb, tn, "check")) {
			type = "check";
			snprintf(rest, sizeof rest, " default %s",
				 an > 0 && *a == '1' ? "true" : "false");
		} else if (fb_proto_is(v, tb, tn, "string") ||
			   fb_proto_is(v, tb, tn, "file") ||
			   fb_proto_is(v, tb, tn, "path")) {
			type = "string";
			snprintf(rest, sizeof rest, " default %.*s",
				 an > 0 ? (int)an : 7, an > 0 ? a : "<empty>");
		} else if (fb_proto_is(v, tb, tn, "spin") ||
			   fb_proto_is(v, tb, tn, "slider")) {
			long long d = 0, lo = 0, hi = 0;
			type = "spin";
			char tmp[128];
			snprintf(tmp, sizeof tmp, "%.*s", (int)an, a);
			sscanf(tmp, "%lld %lld %lld", &d, &lo, &hi);
			snprintf(rest, sizeof rest,
				 " default %lld min %lld max %lld", d, lo, hi);
		} else if (fb_proto_is(v, tb, tn, "combo")) {
			unsigned d;
			type = "combo";
			/* line holds "option name N type combo" and rest. */
			d = combo_values(a, an, rest,
					 sizeof line - 30 - nl < sizeof rest
						 ? sizeof line - 30 - nl
						 : sizeof rest);
			if (d > 0)
				fb_proto_report(io->s, FB_LOG_INFO,
						"engine option '%.*s': %u of "
						"its values do not fit a line; "
						"not shown to the GUI",
						(int)nl, v, d);
		}
	}
	if (type == NULL) {
		fb_proto_report(io->s, FB_LOG_WARN,
				"engine option '%.*s' has a type UCI does not "
				"have; not shown to the GUI", (int)n, v);
		return;
	}
	if (x->noptions < OPTIONS_MAX) {
		e = &x->options[x->noptions++];
		memcpy(e->name, v, nl);
		e->name[nl] = '\0';
		e->type = type[0] == 'b'   ? OPT_BUTTON
			  : type[0] == 'c' && type[1] == 'h' ? OPT_CHECK
							      : OPT_VALUE;
	}
	k = snprintf(line, sizeof line, "option name %.*s type %s%s", (int)nl,
		     v, type, rest);
	if (k > 0)
		add_uci_option(x, line, (size_t)k < sizeof line
						? (size_t)k
						: sizeof line - 1);
}

static void
set_string(char **dst, const char *v, size_t n)
{
	free(*dst);
	if ((*dst = malloc(n + 1)) != NULL) {
		memcpy(*dst, v, n);
		(*dst)[n] = '\0';
	}
}

static bool
flag(const char *v, size_t n)
{
	return n == 1 && v[0] == '1';
}

/* Notes one feature; returns false when it is rejected. */
static bool
note_feature(struct uxb *x, const char *key, size_t kn, const char *v,
	     size_t n, const struct io *io)
{
	if (fb_proto_is(key, 0, kn, "usermove"))
		x->f.usermove = flag(v, n);
	else if (fb_proto_is(key, 0, kn, "san"))
		x->f.san = flag(v, n);
	else if (fb_proto_is(key, 0, kn, "setboard"))
		x->f.setboard = flag(v, n);
	else if (fb_proto_is(key, 0, kn, "ping"))
		x->f.ping = flag(v, n);
	else if (fb_proto_is(key, 0, kn, "analyze"))
		x->f.analyze = flag(v, n);
	else if (fb_proto_is(key, 0, kn, "nps"))
		x->f.nps = flag(v, n);
	else if (fb_proto_is(key, 0, kn, "oocastle"))
		x->f.oocastle_off = n == 1 && v[0] == '0';
	else if (fb_proto_is(key, 0, kn, "variants"))
		set_string(&x->f.variants, v, n);
	else if (fb_proto_is(key, 0, kn, "option"))
		engine_option(x, v, n, io);
	else if (fb_proto_is(key, 0, kn, "myname")) {
		snprintf(x->f.myname, sizeof x->f.myname, "%.*s", (int)n, v);
		x->quirk = fb_quirk_find(v, n, "xboard");
		if (x->quirk != NULL)
			fb_proto_report(io->s, FB_LOG_INFO, "engine '%.*s': %s",
					(int)n, v, x->quirk->why);
	}
	return feature_accepted(key, kn);
}

/* The UCI name of v: the table's, "chess960" for fischerandom. */
static void
variant_option(const struct uxb *x, const struct io *io)
{
	char line[512] = "option name UCI_Variant type combo default chess";
	size_t k = strlen(line), count = 0;

	for (size_t i = 0; fb_variant_at(i) != NULL; i++) {
		const struct fb_variant *v = fb_variant_at(i);
		if (!engine_plays(x, v))
			continue;
		count++;
		k += (size_t)snprintf(line + k, sizeof line - k, " var %s",
				      v->uci);
		if (k >= sizeof line)
			return;
	}
	/* Only normal chess and Chess960: UCI_Chess960 says it all. */
	if (count > 2)
		GUI(io, "%s", line);
}

/* The features are in (done=1, or the wait ran out): the GUI hears the
 * engine's name, options and uciok. */
static void
finish_handshake(struct uxb *x, const struct io *io)
{
	const char *name = x->opt->name != NULL ? x->opt->name
			   : x->f.myname[0] != '\0' ? x->f.myname
						    : "XBoard engine";

	x->phase = PHASE_READY;
	set_wait(x, WAIT_NONE, 0, io);
	/* Thinking output on; no pondering of the engine's own: go ponder
	 * is analysis. */
	ENG(io, "post");
	ENG(io, "easy");
	GUI(io, "id name %s", name);
	GUI(io, "id author %s (XBoard engine, through fenbridge)", name);
	if (engine_plays(x, fb_variant_find("fischerandom", 12)))
		GUI(io, "option name UCI_Chess960 type check default false");
	variant_option(x, io);
	GUI(io, "option name Ponder type check default false");
	if (x->uci_len > 0)
		io->s->to_gui(io->s->ctx, x->uci_options, x->uci_len);
	for (size_t k = 0; k < x->opt->noptions; k++) {
		const struct fb_engine_option *o = &x->opt->options[k];
		if (o->flags & FB_OPT_SET)
			ENG(io, "option %s=%s", o->name, o->value);
	}
	GUI(io, "uciok");
	for (; x->pending_ready > 0; x->pending_ready--) {
		if (x->f.ping)
			ENG(io, "ping %u", ++x->ping_sent);
		else
			GUI(io, "readyok");
	}
}

/* `feature k=v k="v w" ...`: each one accepted or rejected. */
static void
engine_features(struct uxb *x, const char *text, size_t len,
		const struct io *io)
{
	size_t i = 7; /* after "feature" */
	bool done = false, done0 = false;

	while (i < len) {
		size_t key, kn, val, vn;
		while (i < len && is_blank(text[i]))
			i++;
		key = i;
		while (i < len && text[i] != '=' && !is_blank(text[i]))
			i++;
		kn = i - key;
		if (i >= len || text[i] != '=')
			continue;
		val = ++i;
		if (i < len && text[i] == '"') {
			val = ++i;
			while (i < len && text[i] != '"')
				i++;
			vn = i - val;
			if (i < len)
				i++;
		} else {
			while (i < len && !is_blank(text[i]))
				i++;
			vn = i - val;
		}
		if (fb_proto_is(text, key, kn, "done")) {
			done = flag(text + val, vn);
			done0 = !done;
		}
		ENG(io, "%s %.*s",
		    note_feature(x, text + key, kn, text + val, vn, io)
			    ? "accepted"
			    : "rejected",
		    (int)kn, text + key);
	}
	if (x->phase != PHASE_FEATURES)
		return;
	if (done)
		finish_handshake(x, io);
	else if (done0)
		set_wait(x, WAIT_FEATURES, FEATURE_DONE0_MS, io);
}

/*
 * The engine showed no move in the analysis a `stop` ended (an engine
 * whose `analyze` did not start: Sjaak II 1.4.1 skips it when an
 * uninitialised field happens to be non-zero, see README). UCI wants
 * a bestmove; `0000` is scored as a loss by some GUIs, so the GUI gets a
 * legal move of fenbridge's choosing, and is told it is not the engine's.
 */
static void
no_pv_bestmove(struct uxb *x, const struct io *io)
{
	struct fb_move moves[FB_MOVES_MAX];
	char mv[16];
	int k = -1;

	if (fb_moves_legal(&x->game, moves) > 0)
		k = fb_moves_print_coord(&x->game, &moves[0], gui_notation(x),
					 mv, sizeof mv);
	if (k <= 0) {
		GUI(io, "info string fenbridge: the engine showed no move in "
			"its analysis");
		GUI(io, "bestmove 0000");
		return;
	}
	GUI(io, "info string fenbridge: the engine showed no move in its "
		"analysis; %s is fenbridge's pick of a legal move, not the "
		"engine's", mv);
	GUI(io, "bestmove %s", mv);
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
static void
nudge(struct uxb *x, const struct io *io)
{
	x->nudges++;
	io->s->to_engine(io->s->ctx, "\n", 1);
	set_wait(x, WAIT_FEATURES, NUDGE_MS, io);
}

static void
uxb_timeout(void *state, const struct fb_sink *out)
{
	struct uxb *x = state;
	struct io io = io_gui_side(out);
	enum wait w = x->wait;

	x->wait = WAIT_NONE;
	if (w == WAIT_PV) {
		end_analysis(x, &io);
		no_pv_bestmove(x, &io);
	} else if (w == WAIT_DEADLINE) {
		if (x->search == SEARCH_THINKING && !x->stop_sent) {
			ENG(&io, "?"); /* CECP: move now */
			x->stop_sent = true;
		}
	} else if (w == WAIT_FEATURES && x->phase == PHASE_FEATURES) {
		if (!x->heard && (x->nudges + 1) * NUDGE_MS < SILENT_MS) {
			nudge(x, &io);
			return;
		}
		fb_proto_report(out, FB_LOG_INFO,
				"no feature done=1 from the engine in time: "
				"its features end here (a protover 1 engine)");
		finish_handshake(x, &io);
	}
}

/* ---- GUI: setoption ---- */

static void
gui_setoption(struct uxb *x, const char *text, size_t len,
	      const struct io *io)
{
	size_t pos = 0, start, n, nb = 0, ne = 0, vb = 0, ve = 0;
	const struct fb_engine_option *o;
	const struct engine_opt *e = NULL;

	fb_proto_token(text, len, &pos, &start);
	n = fb_proto_token(text, len, &pos, &start);
	if (!fb_proto_is(text, start, n, "name"))
		goto bad;
	while ((n = fb_proto_token(text, len, &pos, &start)) > 0) {
		if (fb_proto_is(text, start, n, "value")) {
			fb_proto_token(text, len, &pos, &start);
			vb = start;
			ve = len;
			while (ve > vb && is_blank(text[ve - 1]))
				ve--;
			break;
		}
		if (nb == 0)
			nb = start;
		ne = start + n;
	}
	if (nb == 0)
		goto bad;
	if (fb_proto_is_nocase(text, nb, ne - nb, "UCI_Chess960")) {
		x->gui_960 = vb > 0 &&
			     fb_proto_is_nocase(text, vb, ve - vb, "true");
		x->have_valid = false;
		return;
	}
	if (fb_proto_is_nocase(text, nb, ne - nb, "UCI_Variant")) {
		const struct fb_variant *v =
			vb > 0 ? fb_variant_find(text + vb, ve - vb) : NULL;
		if (v == NULL || !engine_plays(x, v)) {
			GUI(io, "info string fenbridge: variant '%.*s' is not "
				"one the engine plays; it stays %s",
			    (int)(ve - vb), text + vb, x->variant->uci);
			return;
		}
		x->variant = v;
		x->have_valid = false;
		return;
	}
	if (fb_proto_is_nocase(text, nb, ne - nb, "Ponder"))
		return; /* fenbridge's own: go ponder is analysis */
	o = fb_proto_option(x->opt, text + nb, ne - nb);
	if (o != NULL && (o->flags & FB_OPT_FORCED)) {
		fb_proto_report(io->s, FB_LOG_INFO,
				"setoption for '%s' dropped: the config "
				"forces it to '%s'", o->name, o->value);
		return;
	}
	for (size_t i = 0; i < x->noptions; i++)
		if (fb_proto_is_nocase(text, nb, ne - nb, x->options[i].name))
			e = &x->options[i];
	if (e != NULL && e->type == OPT_BUTTON)
		ENG(io, "option %s", e->name);
	else if (e != NULL && e->type == OPT_CHECK)
		ENG(io, "option %s=%d", e->name,
		    vb > 0 && fb_proto_is_nocase(text, vb, ve - vb, "true"));
	else
		ENG(io, "option %.*s=%.*s", (int)(ne - nb), text + nb,
		    (int)(ve - vb), text + vb);
	return;
bad:
	fb_proto_report(io->s, FB_LOG_WARN, "setoption not understood: '%.*s'",
			(int)len, text);
}

/* ---- GUI: position ---- */

/* A new game (another start, or ucinewgame): what fenbridge says of it
 * is said again. */
static void
new_game(struct uxb *x)
{
	x->logged_emulation = x->logged_anchor = x->told_gui = false;
	x->start_len = 0;
}

/* Appends text[0..n) to the engine's line. */
static bool
have_add(struct uxb *x, const char *text, size_t n)
{
	if (x->have_len + n + 1 > x->have_cap) {
		size_t cap = x->have_cap ? x->have_cap * 2 : 512;
		char *p;
		while (cap < x->have_len + n + 1)
			cap *= 2;
		if ((p = realloc(x->have, cap)) == NULL)
			return false;
		x->have = p;
		x->have_cap = cap;
	}
	memcpy(x->have + x->have_len, text, n);
	x->have_len += n;
	x->have[x->have_len] = '\0';
	return true;
}

/* A move for the engine: `usermove M` or M, in SAN for a san=1 engine;
 * played on its board. Returns false when it cannot be written. */
static bool
send_move(struct uxb *x, const struct fb_move *m, const struct io *io)
{
	char mv[24];
	int k = x->f.san ? fb_moves_print_san(&x->game, m, mv, sizeof mv)
			 : fb_moves_print_coord(&x->game, m,
						engine_notation(x), mv,
						sizeof mv);

	if (k < 0)
		return false;
	ENG(io, "%s%s", x->f.usermove ? "usermove " : "", mv);
	fb_game_play(&x->game, m);
	return true;
}

/*
 * What CECP edit cannot say about g, or NULL: it has no field for an
 * en-passant square nor for castling rights, which an engine then infers
 * from a king and rook on their start squares (Fairy-Max takes such pieces
 * as unmoved).
 */
static const char *
edit_loses(const struct fb_game *g)
{
	int kf = g->width == 10 ? 5 : 4;

	if (g->ep_file >= 0) {
		int r = g->side == FB_WHITE ? 4 : 3;
		char p = g->side == FB_WHITE ? 'P' : 'p';
		for (int f = g->ep_file - 1; f <= g->ep_file + 1; f += 2)
			if (f >= 0 && f < (int)g->width && g->board[r][f] == p)
				return "the en-passant capture";
	}
	for (int c = 0; c < 2; c++) {
		int r = c == 0 ? 0 : 7;
		char k = c == 0 ? 'K' : 'k', rook = c == 0 ? 'R' : 'r';
		if (g->board[r][kf] != k)
			continue;
		for (int wing = 0; wing < 2; wing++) {
			int f = wing == FB_HSIDE ? (int)g->width - 1 : 0;
			if (g->board[r][f] == rook && g->castle[c][wing] != f)
				return "that a castling right is gone";
		}
	}
	return NULL;
}

/*
 * The engine's board for an engine without setboard: CECP edit (`#`
 * clears, a piece letter and square each, `c` toggles the colour, `.`
 * ends; XBoard writes the letters of any variant's pieces the same way,
 * and Fairy-Max 5.0b reads A and C on 10x8). edit keeps the side to move,
 * which after `new` is White; for Black, CECP's own way is a White move
 * first (XBoard sends a2a3: legal from every start fenbridge follows).
 */
static void
send_edit(struct uxb *x, const struct fb_game *g, const struct io *io)
{
	const char *lost = edit_loses(g);

	if (g->side == FB_BLACK)
		ENG(io, "%s%s", x->f.usermove ? "usermove " : "",
		    x->f.san ? "a3" : "a2a3");
	ENG(io, "edit");
	ENG(io, "#");
	for (int c = 0; c < 2; c++) {
		if (c == 1)
			ENG(io, "c");
		for (int r = 0; r < FB_FEN_RANKS; r++)
			for (int f = 0; f < (int)g->width; f++) {
				char p = g->board[r][f];
				if (p != 0 && (p >= 'a') == (c == 1))
					ENG(io, "%c%c%d", p & ~0x20, 'a' + f,
					    r + 1);
			}
	}
	ENG(io, ".");
	if (lost != NULL) {
		fb_proto_report(io->s, FB_LOG_WARN,
				"the engine has no setboard, and edit cannot "
				"say %s: its position may allow a move the "
				"game does not (such a move is not passed on)",
				lost);
		GUI(io, "info string fenbridge: the engine has no setboard, "
			"and edit cannot say %s", lost);
	}
}

/* new, force and the variant: the engine at the start of a game, in
 * force mode, without a time control or depth. */
static void
engine_new(struct uxb *x, const struct io *io)
{
	const struct fb_variant *v = gui_variant(x);

	ENG(io, "new");
	ENG(io, "force");
	x->control[0] = '\0'; /* new resets the clocks and sd */
	x->depth_set = false;
	if (x->emulated) {
		if (strcmp(v->base, "normal") != 0)
			ENG(io, "variant %s", v->base);
	} else if (v != fb_variant_normal) {
		ENG(io, "variant %s", v->name);
	}
}

/* Sends the engine's board as a position of its own: setboard in its
 * dialect, or a new game and edit for an engine without setboard
 * (fresh: it has just had new). */
static void
send_board(struct uxb *x, bool fresh, const struct io *io)
{
	struct fb_fen_style style = {.notation = engine_dialect(x),
				     .prefix = gui_variant(x)->prefix};
	struct fb_game g = x->game;
	char fen[FB_GAME_FEN_MAX];
	int n;

	if (x->emulated)
		fb_game_drop_nonstandard(&g);
	if (!x->f.setboard) {
		if (!fresh)
			engine_new(x, io);
		send_edit(x, &g, io);
		return;
	}
	n = fb_game_print_fen(&g, &style, fen, sizeof fen);
	if (n > 0)
		ENG(io, "setboard %.*s", n, fen);
}

/* A new game for the engine: new, force, variant, the start. */
static void
reset_engine(struct uxb *x, bool startpos, const struct io *io)
{
	const struct fb_variant *v = gui_variant(x);

	x->emulated = !engine_lists(x, v) && v->base != NULL;
	engine_new(x, io);
	if (x->emulated) {
		fb_proto_report(io->s,
				x->logged_emulation ? FB_LOG_DEBUG
						    : FB_LOG_INFO,
				"the engine does not list %s: it plays it as "
				"%s in standard notation (a castle it cannot "
				"read goes as the position after it)", v->name,
				v->base);
		x->logged_emulation = true;
	}
	if (!startpos || v->start == NULL)
		send_board(x, true, io);
}

/* The engine's move list is a prefix of the line's: the new moves start
 * at *from. */
static bool
extends(const struct uxb *x, const char *norm, size_t nlen, size_t base,
	size_t *from)
{
	if (!x->have_valid || x->have_base != base || nlen < x->have_len ||
	    memcmp(norm, x->have, x->have_len) != 0 ||
	    (nlen > x->have_len && norm[x->have_len] != ' '))
		return false;
	*from = x->have_len;
	return true;
}

/* A castle the engine cannot read (Chess960 played as normal chess) goes
 * as the position after it. */
static bool
emulated_castle(struct uxb *x, const struct fb_move *m, const struct io *io)
{
	char kmove[8];

	if (!x->emulated || m->castle < 0 ||
	    (fb_game_is_standard_castle(&x->game, m) &&
	     fb_game_print_castle(&x->game, m, FB_CASTLE_KING, kmove,
				  sizeof kmove) > 0))
		return false;
	fb_game_play(&x->game, m);
	fb_proto_report(io->s, x->logged_anchor ? FB_LOG_DEBUG : FB_LOG_INFO,
			"re-anchored: the engine cannot read this castle (it "
			"plays %s as %s): it gets the position after it",
			gui_variant(x)->name, gui_variant(x)->base);
	x->logged_anchor = true;
	if (!x->told_gui) {
		x->told_gui = true;
		GUI(io, "info string fenbridge: re-anchored: the engine plays "
			"%s as %s; a castle it cannot read goes as the "
			"position after it", gui_variant(x)->name,
		    gui_variant(x)->base);
	}
	send_board(x, false, io);
	/* An engine may take a loaded position for a new game: the time
	 * control goes again before the next search. */
	x->control[0] = '\0';
	return true;
}

/*
 * Reads and sends the GUI's moves from norm[from..]; the engine's line
 * grows by each move it got.
 *
 * After an analysis, an engine without setboard gets the position after
 * the moves instead (edit): Fairy-Max 5.0b checks a move with a search
 * that, from an analysis until its next timed search, stops at any input
 * waiting in its pipe, and then answers "Illegal move" to a legal move
 * that has another line behind it (measured: always, 5 in 5).
 */
static void
send_moves(struct uxb *x, const char *norm, size_t nlen, size_t from,
	   const struct io *io)
{
	size_t pos = from, start, n;
	unsigned held = 0;

	while ((n = fb_proto_token(norm, nlen, &pos, &start)) > 0) {
		struct fb_move m;
		bool ok;
		if (fb_proto_is(norm, start, n, "moves"))
			continue;
		ok = fb_game_parse_move(&x->game, norm + start, n, &m) == 0;
		if (ok && x->analysed) {
			fb_game_play(&x->game, &m);
			held++;
		} else if (!ok || (!emulated_castle(x, &m, io) &&
				   !send_move(x, &m, io))) {
			if (held > 0)
				send_board(x, false, io);
			fb_proto_report(io->s, FB_LOG_WARN,
					"position: cannot give the engine "
					"the move '%.*s'", (int)n,
					norm + start);
			GUI(io, "info string fenbridge: cannot give the "
				"engine the move '%.*s': its position stops "
				"before it", (int)n, norm + start);
			x->have_valid = false;
			return;
		}
		have_add(x, " ", 1);
		have_add(x, norm + start, n);
	}
	if (held > 0) {
		fb_proto_report(io->s, FB_LOG_DEBUG,
				"after an analysis: %u moves go as the "
				"position after them", held);
		send_board(x, false, io);
	}
}

/*
 * `position startpos|fen FEN [moves M...]` -> the engine's game. The line
 * is normalised (one blank between tokens) and compared with what the
 * engine has.
 */
static void
gui_position(struct uxb *x, const char *text, size_t len, const struct io *io)
{
	char *norm = malloc(len + 8);
	size_t pos = 0, start, n, k = 0, base = 0, from = 0;
	bool startpos = false, in_moves = false;

	/* norm: "startpos moves e2e4 ..." or "fen FEN moves ...", with
	 * " moves" added when the line has none; base is where it starts. */
	struct fb_fen fen;

	if (norm == NULL)
		return;
	fb_proto_token(text, len, &pos, &start); /* position */
	while ((n = fb_proto_token(text, len, &pos, &start)) > 0) {
		if (k > 0)
			norm[k++] = ' ';
		memcpy(norm + k, text + start, n);
		k += n;
		if (!in_moves && fb_proto_is(text, start, n, "moves")) {
			in_moves = true;
			base = k - n - (k > n);
		}
	}
	if (!in_moves) {
		base = k;
		memcpy(norm + k, " moves", 6);
		k += 6;
	}
	norm[k] = '\0';
	if (extends(x, norm, k, base, &from)) {
		send_moves(x, norm, k, from, io);
		free(norm);
		return;
	}
	x->have_len = 0;
	x->have_valid = false;
	if (base > sizeof x->start || base != x->start_len ||
	    memcmp(norm, x->start, base) != 0) {
		new_game(x);
		x->start_len = base <= sizeof x->start ? base : 0;
		memcpy(x->start, norm, x->start_len);
	}
	pos = 0;
	n = fb_proto_token(norm, base, &pos, &start);
	if (fb_proto_is(norm, start, n, "startpos")) {
		const struct fb_variant *v = gui_variant(x);
		startpos = true;
		fb_game_start(&x->game, fb_variant_start_row(v));
	} else if (fb_proto_is(norm, start, n, "fen") && pos < base &&
		   fb_proto_parse_fen(norm, pos + 1, base, "position fen",
				      io->s, &fen) == 0) {
		x->game = fen.pos;
	} else {
		GUI(io, "info string fenbridge: position not understood: "
			"'%.*s'", (int)len, text);
		free(norm);
		return;
	}
	reset_engine(x, startpos, io);
	x->have_valid = have_add(x, norm, base + 6);
	x->have_base = base;
	if (x->have_valid)
		send_moves(x, norm, k, base + 6, io);
	free(norm);
}

/* ---- GUI: go, stop, ponderhit ---- */

struct go {
	long long wtime, btime, winc, binc, movestogo, movetime, depth, nodes;
	long long mate;
	bool infinite, ponder, searchmoves;
};

/* Numbers from a peer stay far from overflow in the arithmetic on them
 * (ms * 10, 2 * mate): a trillion ms is 31 years. */
#define NUMBER_MAX 1000000000000LL

static long long
clamp(long long v)
{
	return v > NUMBER_MAX ? NUMBER_MAX : v < -NUMBER_MAX ? -NUMBER_MAX : v;
}

static struct go
parse_go(const char *text, size_t len)
{
	struct go g = {-1, -1, 0, 0, 0, -1, -1, -1, -1, false, false, false};
	static const char *const keys[] = {"wtime", "btime", "winc", "binc",
					   "movestogo", "movetime", "depth",
					   "nodes", "mate"};
	long long *vals[] = {&g.wtime, &g.btime, &g.winc, &g.binc, &g.movestogo,
			&g.movetime, &g.depth, &g.nodes, &g.mate};
	size_t pos = 0, start, n;

	fb_proto_token(text, len, &pos, &start); /* go */
	while ((n = fb_proto_token(text, len, &pos, &start)) > 0) {
		if (fb_proto_is(text, start, n, "infinite"))
			g.infinite = true;
		else if (fb_proto_is(text, start, n, "ponder"))
			g.ponder = true;
		else if (fb_proto_is(text, start, n, "searchmoves"))
			g.searchmoves = true;
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
			size_t p2 = pos, s2, k;
			if (!fb_proto_is(text, start, n, keys[i]))
				continue;
			k = fb_proto_token(text, len, &p2, &s2);
			if (k > 0 && k < 20) {
				char num[20];
				memcpy(num, text + s2, k);
				num[k] = '\0';
				*vals[i] = clamp(strtoll(num, NULL, 10));
				pos = p2;
			}
		}
	}
	return g;
}

/* Sends the time control when it differs from the one in force. */
static void
control(struct uxb *x, const char *line, const struct io *io)
{
	if (strcmp(x->control, line) == 0)
		return;
	snprintf(x->control, sizeof x->control, "%s", line);
	ENG(io, "%s", line);
}

/*
 * Clocks -> `level MPS BASE INC` + `time` + `otim`. The level is sent when
 * its moves per session or increment change (CECP engines count the moves
 * of a session themselves; `time` then says what is left), with the
 * engine's clock as BASE. CECP times are in centiseconds, INC in seconds.
 */
static void
clocks(struct uxb *x, const struct go *g, const struct io *io)
{
	long long mine = x->game.side == FB_WHITE ? g->wtime : g->btime;
	long long theirs = x->game.side == FB_WHITE ? g->btime : g->wtime;
	long long inc = x->game.side == FB_WHITE ? g->winc : g->binc;
	long long s = (mine + 500) / 1000;
	char line[64];

	if (s < 1)
		s = 1;
	if (x->control[0] == '\0' || strncmp(x->control, "level", 5) != 0 ||
	    atoll(x->control + 6) != g->movestogo ||
	    atoll(strrchr(x->control, ' ') + 1) != (inc + 500) / 1000) {
		if (s % 60 == 0)
			snprintf(line, sizeof line, "level %lld %lld %lld",
				 g->movestogo, s / 60, (inc + 500) / 1000);
		else
			snprintf(line, sizeof line,
				 "level %lld %lld:%02lld %lld", g->movestogo,
				 s / 60, s % 60, (inc + 500) / 1000);
		control(x, line, io);
	}
	ENG(io, "time %lld", mine / 10 > 0 ? mine / 10 : 1);
	if (theirs >= 0)
		ENG(io, "otim %lld", theirs / 10 > 0 ? theirs / 10 : 1);
}

static void
start_analysis(struct uxb *x, bool ponder, const struct io *io)
{
	x->search = SEARCH_ANALYZING;
	x->pondering = ponder;
	if (!x->f.analyze)
		GUI(io, "info string fenbridge: the engine has no analyze "
			"mode: it waits for stop");
	else
		ENG(io, "analyze");
}

/* A real search: the limits, then go. */
static void
start_search(struct uxb *x, const struct go *g, const struct io *io)
{
	char line[64];
	long long deadline = 0;

	if (g->searchmoves)
		GUI(io, "info string fenbridge: searchmoves has no XBoard "
			"equivalent; all moves are searched");
	x->depth_goal = g->depth > 0 ? g->depth
			: g->mate > 0 ? 2 * g->mate - 1
				      : 0;
	if (x->depth_goal > 0 && !x->no_sd) {
		ENG(io, "sd %lld", x->depth_goal);
		x->depth_set = true;
	} else if (x->depth_set) {
		/* CECP's sd lasts until new: lifted by a depth no timed
		 * search reaches. */
		ENG(io, "sd %d", SD_UNLIMITED);
		x->depth_set = false;
	}
	if (g->movetime >= 0) {
		/* CECP st is whole seconds: rounded up, and the GUI's
		 * deadline kept with `?` (GNU Chess thought 1 s for a go
		 * movetime 100 that went as st 1 alone); rounded down (never
		 * 0) for an engine without `?`, or where a second is little. */
		bool exact = !x->no_movenow && g->movetime < DEADLINE_MAX_MS;
		long long st = exact ? (g->movetime + 999) / 1000
				     : g->movetime / 1000;
		snprintf(line, sizeof line, "st %lld", st > 1 ? st : 1);
		control(x, line, io);
		if (exact && (g->movetime % 1000 != 0 || g->movetime == 0))
			deadline = g->movetime > 0 ? g->movetime : 1;
	} else if (g->nodes > 0 && x->f.nps) {
		/* nps N makes N nodes one second of the engine's clock. */
		ENG(io, "nps %lld", g->nodes);
		control(x, "st 1", io);
	} else if (g->wtime >= 0 || g->btime >= 0) {
		clocks(x, g, io);
	} else if (g->depth > 0 || g->mate > 0) {
		control(x, "level 0 60 0", io); /* the depth decides */
	} else {
		if (g->nodes > 0)
			GUI(io, "info string fenbridge: the engine has no "
				"nps: go nodes is searched as go infinite");
		start_analysis(x, false, io);
		return;
	}
	x->search = SEARCH_THINKING;
	x->analysed = false;
	ENG(io, "go");
	if (deadline > 0)
		set_wait(x, WAIT_DEADLINE, (unsigned)deadline, io);
}

static void
clear_pv(struct uxb *x)
{
	x->pv[0][0] = x->pv[1][0] = '\0';
}

static void
gui_go(struct uxb *x, const char *text, size_t len, const struct io *io)
{
	struct go g = parse_go(text, len);

	clear_pv(x);
	x->stop_sent = false;
	if (x->search != SEARCH_IDLE) {
		fb_proto_report(io->s, FB_LOG_WARN,
				"go while the engine searches: ignored");
		return;
	}
	if (g.ponder) {
		/* Kept for ponderhit, without the ponder token. */
		snprintf(x->ponder_go, sizeof x->ponder_go, "%.*s", (int)len,
			 text);
		start_analysis(x, true, io);
		return;
	}
	if (g.infinite) {
		start_analysis(x, false, io);
		return;
	}
	start_search(x, &g, io);
}

/* Leaves analysis: the engine is in force mode after it. */
static void
end_analysis(struct uxb *x, const struct io *io)
{
	if (x->f.analyze) {
		ENG(io, "exit");
		ENG(io, "force");
		x->analysed = !x->f.setboard; /* see send_moves */
		x->restored = false;
	}
	x->search = SEARCH_IDLE;
}

/* The pv's first move as bestmove, its second as ponder. */
static void
bestmove_from_pv(struct uxb *x, const struct io *io)
{
	if (x->pv[0][0] == '\0')
		GUI(io, "bestmove 0000");
	else if (x->pv[1][0] == '\0')
		GUI(io, "bestmove %s", x->pv[0]);
	else
		GUI(io, "bestmove %s ponder %s", x->pv[0], x->pv[1]);
}

static void
gui_stop(struct uxb *x, const struct io *io)
{
	if (x->search == SEARCH_ANALYZING && x->wait != WAIT_PV) {
		bool ponder = x->pondering;
		if (x->pv[0][0] == '\0' && !ponder) {
			/* No pv yet (stopped at once, or a slow start): the
			 * analysis runs on until its first pv, which is the
			 * bestmove (a go + ? instead was lost by Sjaak II
			 * in the same state). After go ponder the GUI
			 * ignores the bestmove: none is waited for. */
			set_wait(x, WAIT_PV, STOP_WAIT_MS, io);
			return;
		}
		end_analysis(x, io);
		bestmove_from_pv(x, io);
	} else if (x->search == SEARCH_THINKING && !x->stop_sent) {
		ENG(io, "?"); /* CECP: move now */
		x->stop_sent = true;
		if (x->wait == WAIT_DEADLINE)
			set_wait(x, WAIT_NONE, 0, io);
	}
}

static void
gui_ponderhit(struct uxb *x, const struct io *io)
{
	struct go g;

	if (x->search != SEARCH_ANALYZING || !x->pondering) {
		fb_proto_report(io->s, FB_LOG_WARN,
				"ponderhit without go ponder: ignored");
		return;
	}
	end_analysis(x, io);
	g = parse_go(x->ponder_go, strlen(x->ponder_go));
	clear_pv(x);
	start_search(x, &g, io);
}

static void
uxb_gui_line(void *state, const char *text, size_t len, size_t term,
	     const struct fb_sink *out)
{
	struct uxb *x = state;
	struct io io = io_gui_side(out);
	size_t pos = 0, start, n;

	(void)term;
	n = fb_proto_token(text, len, &pos, &start);
	if (fb_proto_is(text, start, n, "uci")) {
		if (x->phase == PHASE_READY) {
			x->phase = PHASE_FEATURES;
			finish_handshake(x, &io);
			return;
		}
		x->phase = PHASE_FEATURES;
		x->heard = false;
		x->nudges = 0;
		ENG(&io, "xboard");
		ENG(&io, "protover 2");
		set_wait(x, WAIT_FEATURES, NUDGE_MS, &io);
	} else if (fb_proto_is(text, start, n, "isready")) {
		if (x->phase != PHASE_READY)
			x->pending_ready++;
		else if (x->f.ping && x->search == SEARCH_IDLE)
			ENG(&io, "ping %u", ++x->ping_sent);
		else
			GUI(&io, "readyok");
	} else if (fb_proto_is(text, start, n, "setoption")) {
		gui_setoption(x, text, len, &io);
	} else if (fb_proto_is(text, start, n, "ucinewgame")) {
		x->have_valid = false;
		new_game(x);
	} else if (fb_proto_is(text, start, n, "position")) {
		if (x->search != SEARCH_IDLE)
			gui_stop(x, &io);
		gui_position(x, text, len, &io);
	} else if (fb_proto_is(text, start, n, "go")) {
		gui_go(x, text, len, &io);
	} else if (fb_proto_is(text, start, n, "stop")) {
		gui_stop(x, &io);
	} else if (fb_proto_is(text, start, n, "ponderhit")) {
		gui_ponderhit(x, &io);
	} else if (fb_proto_is(text, start, n, "quit")) {
		ENG(&io, "quit");
	} else if (fb_proto_is(text, start, n, "debug") ||
		   fb_proto_is(text, start, n, "register")) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"'%.*s': nothing to do for an XBoard engine",
				(int)len, text);
	} else if (n > 0) {
		fb_proto_report(out, FB_LOG_WARN,
				"'%.*s' is no UCI command fenbridge knows: "
				"not passed to the XBoard engine", (int)len,
				text);
	}
}

/* ---- engine -> GUI ---- */

/*
 * Reads the engine's pv from text[pos..len) on a copy of its board and
 * writes it in coordinates (castling in the GUI's notation) to out. Move
 * numbers ("12." "12...") are skipped; the pv ends at the first token that
 * is not a legal move. Keeps the first two moves for bestmove and ponder
 * (an empty pv keeps the last one).
 */
static size_t
convert_pv(struct uxb *x, const char *text, size_t len, size_t pos,
	   char *out, size_t cap, bool keep)
{
	struct fb_game g = x->game;
	size_t start, n, k = 0, ply = 0;

	while ((n = fb_proto_token(text, len, &pos, &start)) > 0) {
		struct fb_move m;
		char mv[24];
		int ml;
		if (((text[start] >= '0' && text[start] <= '9') ||
		     text[start] == '.') &&
		    text[start + n - 1] == '.')
			continue; /* "12." "12..." "..." */
		if (fb_moves_parse(&g, text + start, n, &m) < 0 ||
		    (ml = fb_moves_print_coord(&g, &m, gui_notation(x), mv,
					       sizeof mv)) < 0 ||
		    k + (size_t)ml + 2 > cap)
			break;
		if (keep && ply < 2)
			snprintf(x->pv[ply], sizeof x->pv[ply], "%s", mv);
		out[k++] = ' ';
		memcpy(out + k, mv, (size_t)ml);
		k += (size_t)ml;
		ply++;
		fb_game_play(&g, &m);
	}
	out[k] = '\0';
	if (keep && ply == 1)
		x->pv[1][0] = '\0'; /* no ponder move from an older pv */
	return ply;
}

static bool
read_number(const char *text, size_t start, size_t n, long long *v)
{
	char num[24], *end;

	while (n > 0 && (text[start + n - 1] == '.' ||
			 text[start + n - 1] == '&'))
		n--; /* "12." and "12&" (fail high/low marks of some) */
	if (n == 0 || n >= sizeof num)
		return false;
	memcpy(num, text + start, n);
	num[n] = '\0';
	*v = strtoll(num, &end, 10);
	*v = clamp(*v);
	return *end == '\0';
}

/* `ply score time nodes pv`: returns false when the line is not one. */
static bool
engine_thinking(struct uxb *x, const char *text, size_t len,
		const struct io *io)
{
	long long f[4];
	size_t pos = 0, start, n;
	char pv[FB_OWN_LINE_MAX], head[160], score[32];
	int hn;

	for (int i = 0; i < 4; i++) {
		n = fb_proto_token(text, len, &pos, &start);
		if (!read_number(text, start, n, &f[i]))
			return false;
	}
	if (x->search == SEARCH_IDLE)
		return true; /* the thinking of a finished search */
	/* Newer engines add selective depth, speed, tbhits after a tab. */
	{
		size_t tab = pos;
		while (tab < len && text[tab] != '\t')
			tab++;
		if (tab < len) {
			size_t p2 = pos, s2;
			long long extra;
			while (p2 < tab && (n = fb_proto_token(text, tab, &p2,
							       &s2)) > 0 &&
			       read_number(text, s2, n, &extra))
				;
			if (p2 >= tab)
				pos = tab;
		}
	}
	if (f[1] >= MATE_SCORE)
		snprintf(score, sizeof score, "mate %lld", f[1] - MATE_SCORE);
	else if (f[1] <= -MATE_SCORE)
		snprintf(score, sizeof score, "mate -%lld", -f[1] - MATE_SCORE);
	else
		snprintf(score, sizeof score, "cp %lld", f[1]);
	hn = snprintf(head, sizeof head, "info depth %lld score %s time %lld "
		      "nodes %lld", f[0], score, f[2] * 10, f[3]);
	if (hn < 0 || (size_t)hn >= sizeof head)
		return true; /* cannot happen: the numbers are clamped */
	/* The pv ends at the last whole move that fits one line of
	 * fenbridge's own (a 240-ply pv does not). */
	convert_pv(x, text, len, pos, pv, FB_OWN_LINE_MAX - (size_t)hn - 3,
		   true);
	GUI(io, "%s%s%s", head, pv[0] != '\0' ? " pv" : "", pv);
	if (x->wait == WAIT_PV && x->pv[0][0] != '\0') {
		set_wait(x, WAIT_NONE, 0, io);
		end_analysis(x, io);
		bestmove_from_pv(x, io);
	} else if (x->search == SEARCH_THINKING && x->no_sd &&
		   x->depth_goal > 0 && f[0] >= x->depth_goal &&
		   !x->stop_sent) {
		/* The depth an engine without sd was asked for. */
		ENG(io, "?");
		x->stop_sent = true;
	}
	return true;
}

/* The search the engine was asked for is over (it moved or gave up). */
static void
search_done(struct uxb *x, const struct io *io)
{
	x->search = SEARCH_IDLE;
	if (x->wait == WAIT_DEADLINE)
		set_wait(x, WAIT_NONE, 0, io);
	ENG(io, "force"); /* it must not move again on its own */
}

/*
 * The engine's move (`move M`, `My move is: M`, `N. ... M`), in one of
 * those forms. One search, one move: the same move announced again in
 * another form (GNU Chess writes "1. ... g1f3", then "My move is : g1f3",
 * which may come after the GUI's next go) is dropped.
 */
static void
engine_move(struct uxb *x, const char *text, size_t len, size_t pos,
	    enum form form, const struct io *io)
{
	size_t start, n = fb_proto_token(text, len, &pos, &start);
	struct fb_move m;
	char mv[24];
	int k = -1;

	if (x->echo[0] != '\0' && form != x->echo_form &&
	    fb_proto_is(text, start, n, x->echo)) {
		x->echo[0] = '\0';
		fb_proto_report(io->s, FB_LOG_DEBUG,
				"'%.*s': the move the engine just played, "
				"announced again", (int)len, text);
		return;
	}
	if (x->search != SEARCH_THINKING) {
		fb_proto_report(io->s, FB_LOG_WARN,
				"engine move '%.*s' when it was not asked to "
				"move: not passed on", (int)len, text);
		return;
	}
	search_done(x, io);
	snprintf(x->echo, sizeof x->echo, "%.*s", (int)n, text + start);
	x->echo_form = form;
	if (fb_moves_parse(&x->game, text + start, n, &m) == 0 &&
	    fb_moves_is_legal(&x->game, &m))
		k = fb_moves_print_coord(&x->game, &m, gui_notation(x), mv,
					 sizeof mv);
	if (k < 0) {
		fb_proto_report(io->s, FB_LOG_WARN,
				"engine move '%.*s' is not legal here",
				(int)n, text + start);
		GUI(io, "info string fenbridge: the engine played '%.*s', "
			"which is no legal move here", (int)n, text + start);
		GUI(io, "bestmove 0000");
		x->have_valid = false;
		return;
	}
	fb_game_play(&x->game, &m);
	have_add(x, " ", 1);
	x->have_valid &= have_add(x, mv, (size_t)k);
	if (strcmp(x->pv[0], mv) == 0 && x->pv[1][0] != '\0')
		GUI(io, "bestmove %s ponder %s", mv, x->pv[1]);
	else
		GUI(io, "bestmove %s", mv);
}

/*
 * resign, 1-0, 0-1, 1/2-1/2 {...}: UCI has no word for them. The GUI is
 * told in an info string; when the engine was asked to move and gives up
 * instead, it gets bestmove 0000 (no move: a UCI GUI scores that as the
 * engine's loss, which is what a resignation is).
 */
static void
engine_result(struct uxb *x, const char *text, size_t len, const struct io *io)
{
	GUI(io, "info string fenbridge: the engine says '%.*s'", (int)len,
	    text);
	if (x->search == SEARCH_THINKING) {
		search_done(x, io);
		GUI(io, "bestmove 0000");
		x->have_valid = false;
	}
}

static bool
starts(const char *text, size_t len, size_t start, const char *word)
{
	size_t k = strlen(word);

	return len - start >= k && memcmp(text + start, word, k) == 0;
}

/* "N. ... M" (also "N ... M"): true, with *pos before M. */
static bool
is_old_move(const char *text, size_t len, size_t start, size_t n,
	    size_t *pos)
{
	size_t p2 = *pos, s2;
	long long num;

	if (!read_number(text, start, n, &num) ||
	    fb_proto_token(text, len, &p2, &s2) != 3 ||
	    memcmp(text + s2, "...", 3) != 0)
		return false;
	*pos = p2;
	return true;
}

/* An Error about post or easy, which fenbridge sends on its own
 * (Fairy-Stockfish does not know post), about the empty line of a nudge,
 * or about ? (Fairy-Max 5.0b does not know it: it answers after its
 * move, and from then on gets no ? at a go movetime's deadline). */
static bool
own_optional_error(struct uxb *x, const char *text, size_t len)
{
	size_t b;

	while (len > 0 && is_blank(text[len - 1]))
		len--;
	b = len;
	while (b > 0 && !is_blank(text[b - 1]) && text[b - 1] != ':')
		b--;
	if (len <= 5 || memcmp(text, "Error", 5) != 0)
		return false;
	if (fb_proto_is(text, b, len - b, "?")) {
		x->no_movenow = true;
		return true;
	}
	return fb_proto_is(text, b, len - b, "post") ||
	       fb_proto_is(text, b, len - b, "easy") ||
	       (b == len && text[b - 1] == ':' && x->nudges > 0);
}

/* "Invalid move: sd 3" (GNU Chess, whose depth command is `depth`),
 * "Error (unknown command): sd 3": the engine has no sd. */
static bool
rejects_sd(const char *text, size_t len)
{
	size_t c = len;

	if (!(len > 5 && (memcmp(text, "Error", 5) == 0 ||
			  starts(text, len, 0, "Illegal move") ||
			  starts(text, len, 0, "Invalid move"))))
		return false;
	while (c > 0 && text[c - 1] != ':')
		c--;
	while (c < len && is_blank(text[c]))
		c++;
	return c > 0 && len - c >= 2 && memcmp(text + c, "sd", 2) == 0 &&
	       (len - c == 2 || is_blank(text[c + 2]));
}

/* GNU Chess's "Invalid move: M" for a move it does not take ("Invalid
 * move: " is also its answer to any command it does not know). */
static bool
gnu_invalid_move(const char *text, size_t len)
{
	const char *m = text + 14;

	return len >= 18 && memcmp(text, "Invalid move: ", 14) == 0 &&
	       ((m[0] >= 'a' && m[0] <= 'j' && m[1] >= '1' && m[1] <= '9') ||
		memcmp(m, "O-O", 3) == 0);
}

/*
 * GNU Chess 6 prints its prompt ("White (1) : ", no newline) outside
 * xboard mode, also when its input thread starts before it knows it is in
 * xboard mode: the prompt heads its next line ("White (1) : feature
 * done=0"). Returns how long the prompt at the start of text is, or 0.
 */
static size_t
prompt_len(const char *text, size_t len)
{
	size_t i = 7;

	if (len < 11 || (memcmp(text, "White (", 7) != 0 &&
			 memcmp(text, "Black (", 7) != 0))
		return 0;
	while (i < len && text[i] >= '0' && text[i] <= '9')
		i++;
	if (i == 7 || len - i < 4 || memcmp(text + i, ") : ", 4) != 0)
		return 0;
	return i + 4;
}

static void
uxb_engine_line(void *state, const char *text, size_t len, size_t term,
		const struct fb_sink *out)
{
	struct uxb *x = state;
	struct io io = io_engine_side(out);
	size_t pos = 0, start, n;
	long long num;

	(void)term;
	if (x->phase == PHASE_FEATURES && !x->heard) {
		/* A sign of life: the rest of CECP's 2 s for its features,
		 * or all of it for an engine nudged awake. */
		x->heard = true;
		set_wait(x, WAIT_FEATURES,
			 x->nudges * NUDGE_MS < FEATURE_MS
				 ? FEATURE_MS - x->nudges * NUDGE_MS
				 : FEATURE_MS,
			 &io);
	}
	if ((n = prompt_len(text, len)) > 0) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"engine prompt '%.*s' taken off its line",
				(int)n - 1, text);
		do {
			text += n;
			len -= n;
		} while ((n = prompt_len(text, len)) > 0);
		if (x->phase == PHASE_READY && !x->restored) {
			/* GNU Chess 6.2.7 leaves xboard mode (and post, and
			 * starts to ponder) on exit from analyze: it sets its
			 * flags to a copy it never made. Its prompt shows
			 * it. */
			fb_proto_report(out, FB_LOG_INFO,
					"the engine left xboard mode (GNU "
					"Chess does after analyze): xboard, "
					"post and easy again");
			ENG(&io, "xboard");
			ENG(&io, "post");
			ENG(&io, "easy");
			x->restored = true;
		}
	}
	n = fb_proto_token(text, len, &pos, &start);
	if (n == 0)
		return;
	if (fb_proto_is(text, start, n, "feature")) {
		engine_features(x, text + start, len - start, &io);
	} else if (fb_proto_is(text, start, n, "pong")) {
		n = fb_proto_token(text, len, &pos, &start);
		if (read_number(text, start, n, &num) && num > 0 &&
		    num <= (long long)x->ping_sent &&
		    num > (long long)x->pong_seen) {
			x->pong_seen = (unsigned)num;
			GUI(&io, "readyok");
		}
	} else if (fb_proto_is(text, start, n, "move")) {
		engine_move(x, text, len, pos, FORM_MOVE, &io);
	} else if (starts(text, len, start, "My move is")) {
		pos = start + 10;
		while (pos < len && (text[pos] == ':' || is_blank(text[pos])))
			pos++;
		engine_move(x, text, len, pos, FORM_MY_MOVE, &io);
	} else if (engine_thinking(x, text, len, &io)) {
		;
	} else if (is_old_move(text, len, start, n, &pos)) {
		/* "N. ... M": the old form of a move (GNU Chess writes it
		 * before "My move is"). */
		engine_move(x, text, len, pos, FORM_OLD, &io);
	} else if (rejects_sd(text + start, len - start)) {
		fb_proto_report(out, x->no_sd ? FB_LOG_DEBUG : FB_LOG_INFO,
				"'%.*s': the engine has no sd; a go depth "
				"ends when its thinking output reaches the "
				"depth", (int)(len - start), text + start);
		x->no_sd = true;
		x->depth_set = false;
	} else if (fb_proto_is(text, start, n, "resign") ||
		   fb_proto_is(text, start, n, "1-0") ||
		   fb_proto_is(text, start, n, "0-1") ||
		   fb_proto_is(text, start, n, "1/2-1/2")) {
		engine_result(x, text + start, len - start, &io);
	} else if (fb_proto_is(text, start, n, "offer")) {
		GUI(&io, "info string fenbridge: the engine offers a draw");
	} else if (fb_proto_is(text, start, n, "telluser") ||
		   fb_proto_is(text, start, n, "tellusererror") ||
		   fb_proto_is(text, start, n, "tellopponent") ||
		   fb_proto_is(text, start, n, "tellothers") ||
		   fb_proto_is(text, start, n, "tellall")) {
		fb_proto_token(text, len, &pos, &start);
		GUI(&io, "info string %.*s", (int)(len - start), text + start);
	} else if (own_optional_error(x, text + start, len - start)) {
		fb_proto_report(out, FB_LOG_INFO,
				"'%.*s' kept from the GUI: the engine does not "
				"know an optional command of fenbridge's own",
				(int)len, text);
	} else if (starts(text, len, start, "Illegal move") ||
		   starts(text, len, start, "Error") ||
		   gnu_invalid_move(text + start, len - start)) {
		fb_proto_report(out, FB_LOG_WARN, "engine: %.*s", (int)len,
				text);
		GUI(&io, "info string fenbridge: the engine says '%.*s'",
		    (int)len, text);
		if (text[start] == 'I')
			x->have_valid = false; /* it did not take a move */
	} else {
		fb_proto_report(out, FB_LOG_DEBUG,
				"engine line not passed to the GUI: %.*s",
				(int)len, text);
	}
}

const struct fb_pair fb_pair_uci_xboard = {
	.gui = &fb_protocol_uci,
	.engine = &fb_protocol_xboard,
	.state_new = uxb_new,
	.state_free = uxb_free,
	.gui_line = uxb_gui_line,
	.engine_line = uxb_engine_line,
	.game = uxb_game,
	.variant = uxb_variant,
	.timeout = uxb_timeout,
};
