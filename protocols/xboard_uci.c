/* SPDX-License-Identifier: MIT */
/*
 * An XBoard (CECP v2) GUI with a UCI engine: what PolyGlot does, in one
 * pure file (issue 12).
 *
 * The GUI speaks CECP (Tim Mann's "Chess Engine Communication Protocol",
 * protover 2); the engine speaks UCI. XBoard tells its engine every move
 * and expects it to keep the game; a UCI engine keeps nothing and is sent
 * the whole game before each search. So this pair keeps the game: the
 * start position (new, variant, setboard), the moves since (usermove and
 * the engine's own), the clocks (level, st, sd, time, otim) and the mode
 * (force, playing a colour, analyzing), and turns them into `position ...
 * moves ...` and `go ...` lines when the engine is to think.
 *
 * Handshake: `xboard`/`protover` send `uci`; the engine's `id name` and
 * `option` lines become `feature` lines, answered once `uciok` arrives
 * (`feature done=0` holds the GUI meanwhile; an engine that never says
 * uciok is reported after UCIOK_MS and the GUI released).
 *
 * Searches: every `go` is matched by a `bestmove`. When fenbridge itself
 * stops a search because the game changed under it (new, force, undo,
 * setboard, a move in analyze mode, ...), the bestmove that answers is
 * stale: it is counted and swallowed, with the info lines before it.
 * A bestmove is checked (fb_moves_is_legal) before it reaches the GUI as
 * `move`; an illegal one is told to the user with tellusererror. When the
 * engine's move mates or stalemates, the result is claimed as XBoard
 * expects of an engine.
 *
 * Castling: the GUI writes O-O in random variants (fischerandom,
 * caparandom) and the king's move otherwise; the engine gets king takes
 * rook in Chess960 mode and the king's move otherwise; a castle an engine
 * without Chess960 cannot read is sent as the position after it.
 *
 * Pondering (`hard`): after the engine's move with `bestmove X ponder P`,
 * the engine gets the game with P played and `go ponder` (UCI); when the
 * GUI's move is P it gets `ponderhit` and that search gives the engine's
 * move; another move stops it (its bestmove is stale) and a search starts
 * on the real position. Thinking output while pondering is dropped: its pv
 * starts after a move the GUI has not seen.
 *
 * The hot path is engine -> GUI `info`: one pass over the line, no
 * allocation, numbers printed by hand.
 *
 * No I/O in this file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenbridge/movegen.h"
#include "proto.h"

/* How long the GUI waits for the engine's uciok before it is told. */
#define UCIOK_MS 10000
#define MAX_EDITS 8

/* Where the UCI handshake is. */
enum phase {
	PHASE_IDLE,   /* `uci` not sent yet */
	PHASE_ASKED,  /* `uci` sent, uciok awaited */
	PHASE_READY,  /* uciok arrived (or the wait was given up) */
};

/* What the engine is doing, as far as fenbridge asked it. */
enum search {
	SEARCH_NONE,
	SEARCH_THINK,   /* go for a move: its bestmove is the engine's move */
	SEARCH_ANALYZE, /* go infinite: ended only by fenbridge's stop */
	SEARCH_PONDER,  /* go ponder on the expected reply: ponderhit or stop */
};

/* A UCI option the GUI may set: its name and type (`option NAME=VALUE`
 * needs the type: a check's 1 is UCI's true). */
struct option {
	char *name;
	char type; /* 's'pin, 'c'heck, 't' string, 'o' combo, 'b'utton */
};

struct xu {
	const struct fb_filter_options *opt;
	enum phase phase;
	bool protover;      /* the GUI said protover 2: it wants features */
	bool features_sent; /* done=1 was said */

	/* What the engine declared. */
	char name[128];
	const struct fb_quirk *quirk;
	bool has_960, has_hash, has_threads, has_syzygy, has_ponder;
	char *vars;              /* its UCI_Variant `var` list, or NULL */
	struct fb_buf feat_options; /* `feature option=...` lines to the GUI */
	struct option *options;
	size_t noptions;

	/* What the engine was set to. */
	const struct fb_variant *engine_variant; /* UCI_Variant sent */
	bool engine_960;                         /* UCI_Chess960 true sent */
	bool engine_ponder;                      /* Ponder true sent */

	/* The game. */
	const struct fb_variant *variant;
	struct fb_game start, cur;
	bool startpos; /* start is the normal start: `position startpos` */
	struct fb_move *moves;
	size_t nmoves, cap_moves;

	/* What this game's log and GUI were told already (once per game:
	 * every search rebuilds the position, a tournament has many games). */
	bool logged_anchor, logged_rights, logged_clock, told_gui;

	/* Mode and clocks. */
	bool force, analyze, post, ended;
	bool hard;                /* the GUI allows pondering */
	struct fb_move ponder;    /* the reply pondered on (SEARCH_PONDER) */
	int engine_side; /* the colour the engine plays */
	int mps;         /* moves per period, 0: the whole game */
	long long base_ms, inc_ms, st_ms;
	int sd;
	long long time_cs, otim_cs; /* -1: not told */
	bool level;

	/* Searches. */
	enum search search;
	unsigned stale; /* bestmoves still owed to fenbridge's own stops */
	/* ping numbers waiting for readyok, oldest first */
	long long pings[16];
	unsigned npings;

	struct fb_buf line; /* the position line under construction */
};

static void
set_timer(const struct fb_sink *out, unsigned ms)
{
	if (out->timer != NULL)
		out->timer(out->ctx, ms);
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* ---- the variant, the engine's modes and notations ---- */

/* The name the engine lists after `var` for variant v, or NULL. */
static const char *
listed(const struct xu *x, const struct fb_variant *v, size_t *out_len)
{
	size_t vl, pos = 0, start, k;
	bool after_var = false;

	if (x->vars == NULL || v == NULL)
		return NULL;
	vl = strlen(x->vars);
	while ((k = fb_proto_token(x->vars, vl, &pos, &start)) > 0) {
		if (after_var && fb_variant_find(x->vars + start, k) == v) {
			*out_len = k;
			return x->vars + start;
		}
		after_var = fb_proto_is(x->vars, start, k, "var");
	}
	return NULL;
}

static const struct fb_variant *
base_of(const struct fb_variant *v)
{
	return v->base != NULL ? fb_variant_find(v->base, strlen(v->base))
			       : NULL;
}

/*
 * Whether the engine can play v, and how: through UCI_Variant with v
 * itself (*uci = v), or with v's fixed-start sibling (fischerandom:
 * normal; caparandom: capablanca, which the engine must list), in Chess960
 * mode when it has UCI_Chess960 and otherwise in standard notation, as
 * protocols/uci.c plays such an engine: only the castling rights standard
 * FEN expresses, and a castle it cannot read as the position after it
 * (send_position). Only variants whose castling game.c follows are
 * offered: the moves must be checked.
 */
static bool
engine_plays(const struct xu *x, const struct fb_variant *v,
	     const struct fb_variant **uci)
{
	const struct fb_variant *b = base_of(v);
	size_t n;

	*uci = v;
	if (!v->follow)
		return false;
	if (v == fb_variant_normal)
		return true;
	if (listed(x, v, &n) != NULL)
		return true;
	*uci = b;
	return v->random && b != NULL &&
	       (b == fb_variant_normal || listed(x, b, &n) != NULL);
}

/* The engine is in Chess960 mode: fenbridge set UCI_Chess960, or chose a
 * random variant through UCI_Variant. */
static bool
engine_in_960(const struct xu *x)
{
	return x->engine_960 ||
	       (x->engine_variant != NULL && x->engine_variant->random);
}

/* The engine will play the variant in play in Chess960 mode (sync_variant
 * sets it before the next search); otherwise in standard notation. */
static bool
variant_in_960(const struct xu *x)
{
	const struct fb_variant *uci;

	return x->variant->random && engine_plays(x, x->variant, &uci) &&
	       (x->has_960 || (uci != NULL && uci->random));
}

static enum fb_castle_notation
engine_notation(const struct xu *x)
{
	if (x->opt->engine_castling != FB_CASTLE_AUTO)
		return x->opt->engine_castling;
	return engine_in_960(x) ? FB_CASTLE_KXR : FB_CASTLE_KING;
}

/* As protocols/xboard.c decides for an XBoard GUI: O-O in the random
 * variants (the engine never says oocastle=0 here), the king's move
 * otherwise. */
static enum fb_castle_notation
gui_notation(const struct xu *x)
{
	if (x->opt->gui_castling != FB_CASTLE_AUTO)
		return x->opt->gui_castling;
	return x->variant->random ? FB_CASTLE_OO : FB_CASTLE_KING;
}

static struct fb_fen_style
engine_style(const struct xu *x)
{
	enum fb_notation n = x->opt->engine_fen;

	if (x->opt->engine_fen_auto && x->quirk != NULL &&
	    x->quirk->shredder_fen)
		n = FB_SHREDDER;
	return (struct fb_fen_style){.notation = n,
				     .prefix = x->variant->prefix};
}

/* Sets the engine's UCI_Variant and UCI_Chess960 for the variant in
 * play, and its Ponder option (UCI: the engine may then plan its time for
 * pondering) when they differ from what it has: right before a search,
 * never during one. */
static void
sync_variant(struct xu *x, const struct fb_sink *out)
{
	const struct fb_variant *uci;
	bool want960;
	size_t n;
	const char *name;

	if (!engine_plays(x, x->variant, &uci))
		uci = fb_variant_normal; /* reported when it was chosen */
	want960 = x->variant->random && x->has_960;
	if (x->vars != NULL && uci != x->engine_variant &&
	    (name = listed(x, uci, &n)) != NULL) {
		fb_proto_engine(out, "setoption name UCI_Variant value %.*s",
				(int)n, name);
		x->engine_variant = uci;
	}
	if (x->has_960 && want960 != x->engine_960) {
		fb_proto_engine(out, "setoption name UCI_Chess960 value %s",
				want960 ? "true" : "false");
		x->engine_960 = want960;
	}
	if (x->has_ponder && x->hard != x->engine_ponder) {
		fb_proto_engine(out, "setoption name Ponder value %s",
				x->hard ? "true" : "false");
		x->engine_ponder = x->hard;
	}
}

/* ---- the game ---- */

static void
game_reset(struct xu *x, const struct fb_variant *v)
{
	x->variant = v;
	x->nmoves = 0;
	x->ended = false;
	x->logged_anchor = x->logged_rights = x->logged_clock = false;
	x->told_gui = false;
	fb_game_start(&x->start, fb_variant_start_row(v));
	x->cur = x->start;
	x->startpos = v == fb_variant_normal;
}

/* Replays the moves from the start (after undo). */
static void
game_replay(struct xu *x)
{
	x->cur = x->start;
	for (size_t i = 0; i < x->nmoves; i++)
		fb_game_play(&x->cur, &x->moves[i]);
	x->ended = false;
}

static bool
game_push(struct xu *x, const struct fb_move *m)
{
	if (x->nmoves == x->cap_moves) {
		size_t cap = x->cap_moves ? x->cap_moves * 2 : 256;
		struct fb_move *p = realloc(x->moves, cap * sizeof *p);
		if (p == NULL)
			return false;
		x->moves = p;
		x->cap_moves = cap;
	}
	x->moves[x->nmoves++] = *m;
	fb_game_play(&x->cur, m);
	return true;
}

/* Writes move m of g in coordinates, a castle in notation n (O-O when n
 * cannot express it). Returns the length (out holds 8 bytes). */
static int
print_move(const struct fb_game *g, const struct fb_move *m,
	   enum fb_castle_notation n, char out[static 8])
{
	int k = 0;

	if (m->castle >= 0) {
		k = fb_game_print_castle(g, m, n, out, 8);
		if (k < 0)
			k = fb_game_print_castle(g, m, FB_CASTLE_OO, out, 8);
		return k < 0 ? 0 : k;
	}
	if (m->null) {
		memcpy(out, "0000", 4);
		return 4;
	}
	out[k++] = (char)('a' + m->from_file);
	out[k++] = (char)('1' + m->from_rank);
	out[k++] = (char)('a' + m->to_file);
	out[k++] = (char)('1' + m->to_rank);
	if (m->promo != 0)
		out[k++] = (char)(m->promo | 0x20);
	return k;
}

/*
 * Says what fenbridge does for an engine that plays the game in standard
 * notation: msg to the log at info level once per game (*logged), at
 * debug level after that (each search rebuilds the position, so the same
 * castle would be told on every move); to the GUI once per game as a `#`
 * comment line, as protocols/xboard.c does: XBoard shows it in its debug
 * log only, while telluser would open a dialog in every game of a
 * tournament.
 */
static void
say_once(struct xu *x, bool *logged, const struct fb_sink *out,
	 const char *msg)
{
	fb_proto_report(out, *logged ? FB_LOG_DEBUG : FB_LOG_INFO, "%s", msg);
	*logged = true;
	if (!x->told_gui) {
		x->told_gui = true;
		fb_proto_gui(out, "# fenbridge: the engine has no Chess960 "
			       "castling; it gets only the castling rights "
			       "standard FEN can express, and a castle it "
			       "cannot read as the position after it");
	}
}

static void
add_fen(struct xu *x, const struct fb_game *g, bool standard)
{
	struct fb_fen_style style = engine_style(x);
	struct fb_game c = *g;
	char fen[FB_GAME_FEN_MAX];
	int k;

	if (standard)
		fb_game_drop_nonstandard(&c);
	k = fb_game_print_fen(&c, &style, fen, sizeof fen);
	fb_proto_buf_str(&x->line, "position fen ");
	if (k > 0)
		fb_proto_buf_add(&x->line, fen, (size_t)k);
}

/*
 * Sends `position startpos|fen <start> moves ...` for the game so far.
 * An engine without Chess960 gets only standard castling rights, and a
 * castle it cannot read restarts the line from the position after it.
 */
static void
send_position(struct xu *x, const struct fb_sink *out)
{
	bool standard = !engine_in_960(x);
	enum fb_castle_notation to = engine_notation(x);
	struct fb_game g = x->start;
	bool moves = false;

	x->line.len = 0;
	x->line.oom = false;
	if (x->startpos)
		fb_proto_buf_str(&x->line, "position startpos");
	else
		add_fen(x, &g, standard);
	for (size_t i = 0; i < x->nmoves; i++) {
		const struct fb_move *m = &x->moves[i];
		char mv[8];
		int k;

		if (m->castle >= 0 && standard &&
		    !fb_game_is_standard_castle(&g, m)) {
			char msg[160];
			k = print_move(&g, m, FB_CASTLE_KXR, mv);
			fb_game_play(&g, m);
			x->line.len = 0;
			add_fen(x, &g, standard);
			moves = false;
			snprintf(msg, sizeof msg,
				 "position: re-anchored: the castle %.*s at "
				 "ply %zu cannot be written in standard "
				 "notation; the engine gets the position "
				 "after it",
				 k, mv, i + 1);
			say_once(x, &x->logged_anchor, out, msg);
			continue;
		}
		k = print_move(&g, m, to, mv);
		if (!moves)
			fb_proto_buf_str(&x->line, " moves");
		moves = true;
		fb_proto_buf_add(&x->line, " ", 1);
		fb_proto_buf_add(&x->line, mv, (size_t)k);
		fb_game_play(&g, m);
	}
	fb_proto_buf_add(&x->line, "\n", 1);
	if (x->line.oom) {
		fb_proto_report(out, FB_LOG_ERROR,
				"out of memory: no position for the engine");
		return;
	}
	out->to_engine(out->ctx, x->line.p, x->line.len);
}

/* ---- searches ---- */

/* Stops what the engine does for fenbridge; its bestmove will be stale. */
static void
stop_search(struct xu *x, const struct fb_sink *out)
{
	if (x->search == SEARCH_NONE)
		return;
	fb_proto_engine(out, "stop");
	x->stale++;
	x->search = SEARCH_NONE;
}

/* The clock of the side to move and the other, in ms: time is always the
 * engine's own clock, otim its opponent's (CECP `time`). */
static void
add_clocks(struct xu *x, char *go, size_t cap)
{
	long long mine = x->time_cs >= 0 ? x->time_cs * 10 : x->base_ms;
	long long theirs = x->otim_cs >= 0 ? x->otim_cs * 10 : x->base_ms;
	bool white = x->engine_side == FB_WHITE;
	size_t n = strlen(go);

	if (mine < 1)
		mine = 1; /* 0 means no time to UCI engines; some crash */
	if (theirs < 1)
		theirs = 1;
	n += (size_t)snprintf(go + n, cap - n,
			      " wtime %lld btime %lld winc %lld binc %lld",
			      white ? mine : theirs, white ? theirs : mine,
			      x->inc_ms, x->inc_ms);
	if (x->mps > 0 && n < cap) {
		/* the moves the side to move made since the start */
		size_t made = x->nmoves / 2;
		snprintf(go + n, cap - n, " movestogo %d",
			 x->mps - (int)(made % (size_t)x->mps));
	}
}

/* The go line for the engine's turn (or, pondering, the turn after the
 * pondered move: the engine's clocks are the same). */
static void
send_go(struct xu *x, const char *go0, const struct fb_sink *out)
{
	char go[160];

	snprintf(go, sizeof go, "%s", go0);
	if (x->st_ms > 0)
		snprintf(go + strlen(go), sizeof go - strlen(go),
			 " movetime %lld", x->st_ms);
	else if (x->level || x->time_cs >= 0)
		add_clocks(x, go, sizeof go);
	else if (x->sd == 0) {
		snprintf(go + strlen(go), sizeof go - strlen(go),
			 " movetime 1000");
		fb_proto_report(out, x->logged_clock ? FB_LOG_DEBUG
						     : FB_LOG_INFO,
				"go: no level, st or sd from the GUI: the "
				"engine gets 1 s");
		x->logged_clock = true;
	}
	if (x->sd > 0) {
		size_t n = strlen(go);
		snprintf(go + n, sizeof go - n, " depth %d", x->sd);
	}
	fb_proto_engine(out, "%s", go);
}

static void
start_search(struct xu *x, const struct fb_sink *out)
{
	stop_search(x, out);
	sync_variant(x, out);
	send_position(x, out);
	if (x->analyze) {
		fb_proto_engine(out, "go infinite");
		x->search = SEARCH_ANALYZE;
		return;
	}
	x->engine_side = x->cur.side;
	send_go(x, "go", out);
	x->search = SEARCH_THINK;
}

/*
 * After the engine's move: ponders on its expected reply, when the GUI
 * allows it (hard) and the move is legal. out's emit goes to the engine.
 */
static void
start_ponder(struct xu *x, const char *text, size_t len, size_t pos,
	     const struct fb_sink *out)
{
	size_t start, n = fb_proto_token(text, len, &pos, &start);
	struct fb_move m;

	if (!x->hard || x->force || x->ended || x->analyze ||
	    !fb_proto_is(text, start, n, "ponder"))
		return;
	n = fb_proto_token(text, len, &pos, &start);
	if (fb_game_parse_move(&x->cur, text + start, n, &m) < 0 || m.null ||
	    !fb_moves_is_legal(&x->cur, &m) || !game_push(x, &m)) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"no pondering on '%.*s': not a legal move",
				(int)n, text + start);
		return;
	}
	if (fb_moves_end(&x->cur) != FB_END_NONE) {
		/* nothing to ponder: that reply ends the game */
		x->nmoves--;
		game_replay(x);
		fb_proto_report(out, FB_LOG_DEBUG,
				"no pondering on '%.*s': it ends the game",
				(int)n, text + start);
		return;
	}
	sync_variant(x, out);
	send_position(x, out);
	send_go(x, "go ponder", out); /* movestogo counts the reply */
	x->nmoves--; /* the GUI has not played it */
	game_replay(x);
	x->ponder = m;
	x->search = SEARCH_PONDER;
}

static bool
same_move(const struct fb_move *a, const struct fb_move *b)
{
	return a->from_file == b->from_file && a->from_rank == b->from_rank &&
	       a->to_file == b->to_file && a->to_rank == b->to_rank &&
	       a->castle == b->castle && (a->promo | 0x20) == (b->promo | 0x20);
}

/* After the game changed: the engine thinks when it is its turn. */
static void
after_change(struct xu *x, const struct fb_sink *out)
{
	if (x->analyze)
		start_search(x, out);
	else if (!x->force && !x->ended && x->cur.side == x->engine_side)
		start_search(x, out);
}

/* ---- GUI -> engine ---- */

/* Parses a decimal (with sign) from text[start..start+n); *ok false when
 * it is not one. */
static long long
number(const char *text, size_t start, size_t n, bool *ok)
{
	long long v = 0;
	size_t i = 0;
	bool neg = false;

	*ok = n > 0;
	if (n > 0 && (text[start] == '-' || text[start] == '+')) {
		neg = text[start] == '-';
		i = 1;
		*ok = n > 1;
	}
	for (; i < n; i++) {
		char c = text[start + i];
		if (c < '0' || c > '9' || v > 100000000000LL) {
			*ok = false;
			return 0;
		}
		v = v * 10 + (c - '0');
	}
	return neg ? -v : v;
}

/* The number in the token at or after pos (a command's argument). */
static long long
next_number(const char *text, size_t len, size_t pos, bool *ok)
{
	size_t start, n = fb_proto_token(text, len, &pos, &start);

	return number(text, start, n, ok);
}

/* Seconds, maybe with a fraction (level's increment 0.5), in ms; 0 for
 * what is no number of seconds up to a year. */
static long long
seconds_ms(const char *text, size_t start, size_t n)
{
	char tmp[32];
	double v;

	if (n >= sizeof tmp)
		return 0;
	memcpy(tmp, text + start, n);
	tmp[n] = '\0';
	v = strtod(tmp, NULL);
	if (!(v >= 0 && v <= 366 * 86400.0))
		return 0;
	return (long long)(v * 1000.0 + 0.5);
}

/* `level MPS BASE INC`: BASE is minutes or MIN:SEC. */
static void
gui_level(struct xu *x, const char *text, size_t len, size_t pos,
	  const struct fb_sink *out)
{
	size_t s[3], n[3];
	bool ok;
	const char *colon;
	long long mps;

	for (int i = 0; i < 3; i++)
		n[i] = fb_proto_token(text, len, &pos, &s[i]);
	mps = number(text, s[0], n[0], &ok);
	if (!ok || n[1] == 0 || n[2] == 0 || mps < 0 || mps > 10000) {
		x->mps = 0;
		fb_proto_report(out, FB_LOG_WARN, "level: not understood");
		fb_proto_gui(out, "Error (bad level): %.*s", (int)len, text);
		return;
	}
	x->mps = (int)mps;
	colon = memchr(text + s[1], ':', n[1]);
	if (colon != NULL) {
		size_t k = (size_t)(colon - (text + s[1]));
		x->base_ms = number(text, s[1], k, &ok) * 60000 +
			     seconds_ms(text, s[1] + k + 1, n[1] - k - 1);
	} else {
		x->base_ms = seconds_ms(text, s[1], n[1]) * 60;
	}
	x->inc_ms = seconds_ms(text, s[2], n[2]);
	x->level = true;
	x->st_ms = 0;
}

/* `time N` / `otim N` (centiseconds) into *cs. What is no number leaves
 * the clock as it was (maybe not told): read as 0 it would give the
 * engine a 1 ms clock. */
static void
gui_clock(long long *cs, const char *text, size_t len, size_t pos,
	  const struct fb_sink *out)
{
	bool ok;
	long long v = next_number(text, len, pos, &ok);

	if (!ok) {
		fb_proto_report(out, FB_LOG_WARN,
				"'%.*s': not a number of centiseconds; the "
				"clock stays as it was", (int)len, text);
		return;
	}
	*cs = v;
}

static void
send_config_options(struct xu *x, const struct fb_sink *out)
{
	for (size_t i = 0; i < x->opt->noptions; i++) {
		const struct fb_engine_option *o = &x->opt->options[i];
		if (!(o->flags & FB_OPT_SET) || o->value == NULL)
			continue;
		if (o->value[0] != '\0')
			fb_proto_engine(out, "setoption name %s value %s",
					o->name, o->value);
		else
			fb_proto_engine(out, "setoption name %s", o->name);
	}
}

static void
ask_engine(struct xu *x, const struct fb_sink *out)
{
	if (x->phase != PHASE_IDLE)
		return;
	fb_proto_engine(out, "uci");
	x->phase = PHASE_ASKED;
	set_timer(out, UCIOK_MS);
}

/* The feature lines toward the GUI. */
static void
send_features(struct xu *x, const struct fb_sink *out)
{
	char line[1024];
	size_t n;
	const char *name = x->opt->name != NULL ? x->opt->name
			   : x->name[0]    ? x->name
					   : "UCI engine";

	if (x->features_sent)
		return;
	x->features_sent = true;
	n = (size_t)snprintf(line, sizeof line,
			     "feature myname=\"%s\" setboard=1 usermove=1 "
			     "ping=1 playother=1 sigint=0 sigterm=0 "
			     "analyze=1 colors=0 reuse=1 san=0 time=1 "
			     "draw=0 variants=\"normal",
			     name);
	for (size_t i = 0; i < fb_variant_count() && n < sizeof line; i++) {
		const struct fb_variant *v = fb_variant_at(i), *uci;
		if (v != fb_variant_normal && engine_plays(x, v, &uci))
			n += (size_t)snprintf(line + n, sizeof line - n,
					      ",%s", v->name);
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

static const struct option *
find_option(const struct xu *x, const char *name, size_t n)
{
	for (size_t i = 0; i < x->noptions; i++)
		if (fb_proto_is_nocase(name, 0, n, x->options[i].name))
			return &x->options[i];
	return NULL;
}

/* `option NAME=VALUE` or `option NAME` (a button). */
static void
gui_option(struct xu *x, const char *text, size_t len, size_t pos,
	   const struct fb_sink *out)
{
	size_t b, e = len, eq;
	const struct option *o;
	const struct fb_engine_option *cfg;

	while (pos < len && is_blank(text[pos]))
		pos++;
	b = pos;
	while (e > b && is_blank(text[e - 1]))
		e--;
	for (eq = b; eq < e && text[eq] != '='; eq++)
		;
	o = find_option(x, text + b, eq - b);
	if (o == NULL) {
		fb_proto_gui(out, "Error (unknown option): %.*s",
			       (int)(e - b), text + b);
		return;
	}
	cfg = fb_proto_option(x->opt, o->name, strlen(o->name));
	if (cfg != NULL && (cfg->flags & FB_OPT_FORCED)) {
		fb_proto_report(out, FB_LOG_INFO,
				"option '%s' dropped: the config forces it",
				o->name);
		return;
	}
	if (eq == e) {
		fb_proto_engine(out, "setoption name %s", o->name);
	} else if (o->type == 'c') {
		bool on = e > eq + 1 && text[eq + 1] != '0';
		fb_proto_engine(out, "setoption name %s value %s", o->name,
				on ? "true" : "false");
	} else {
		fb_proto_engine(out, "setoption name %s value %.*s", o->name,
				(int)(e - eq - 1), text + eq + 1);
	}
}

/* memory, cores, egtpath -> the engine's Hash, Threads, SyzygyPath. */
static void
gui_resource(struct xu *x, const char *uci, bool has, const char *text,
	     size_t len, size_t pos, const struct fb_sink *out)
{
	size_t b;

	(void)x;
	while (pos < len && is_blank(text[pos]))
		pos++;
	b = pos;
	if (!has) {
		fb_proto_report(out, FB_LOG_INFO,
				"'%.*s' ignored: the engine has no %s option",
				(int)len, text, uci);
		return;
	}
	fb_proto_engine(out, "setoption name %s value %.*s", uci,
			(int)(len - b), text + b);
}

/*
 * The engine plays the new start in standard notation: rights on inner
 * rooks or off the e-file king cannot reach it. Never silently. In a
 * random variant that is how an engine without Chess960 plays (told once
 * per game); in another the user may have meant fischerandom (a warning
 * each time, and a comment line to the GUI: no dialog in every game).
 */
static void
note_dropped(struct xu *x, const struct fb_sink *out)
{
	struct fb_game c = x->start;
	unsigned dropped = fb_game_drop_nonstandard(&c);
	char msg[200];

	if (dropped == 0)
		return;
	if (x->variant->random) {
		snprintf(msg, sizeof msg,
			 "setboard: %u castling right%s that standard "
			 "notation cannot express not sent to the engine "
			 "(it has no Chess960)",
			 dropped, dropped > 1 ? "s" : "");
		say_once(x, &x->logged_rights, out, msg);
		return;
	}
	fb_proto_report(out, FB_LOG_WARN,
			"setboard: %u castling right%s that standard chess "
			"cannot express not sent to the engine (variant %s)",
			dropped, dropped > 1 ? "s" : "", x->variant->name);
	fb_proto_gui(out,
		       "# fenbridge: %u castling right%s of this position "
		       "need Chess960 (variant fischerandom); the engine "
		       "plays without %s",
		       dropped, dropped > 1 ? "s" : "",
		       dropped > 1 ? "them" : "it");
}

static void
gui_setboard(struct xu *x, const char *text, size_t len, size_t pos,
	     const struct fb_sink *out)
{
	struct fb_fen fen;
	size_t b, e = len;

	while (pos < len && is_blank(text[pos]))
		pos++;
	b = pos;
	while (e > b && is_blank(text[e - 1]))
		e--;
	stop_search(x, out);
	if (b == e ||
	    fb_proto_parse_fen(text, b, e, "setboard", out, &fen) < 0 ||
	    fen.pos.width != x->variant->width) {
		fb_proto_gui(out, "tellusererror Illegal position");
		return;
	}
	x->start = fen.pos;
	x->cur = x->start;
	x->nmoves = 0;
	x->ended = false;
	x->startpos = false;
	if (!variant_in_960(x))
		note_dropped(x, out);
	after_change(x, out);
}

static void
gui_variant(struct xu *x, const char *text, size_t len, size_t pos,
	    const struct fb_sink *out)
{
	size_t start, n = fb_proto_token(text, len, &pos, &start);
	const struct fb_variant *v = fb_variant_find(text + start, n), *uci;

	if (v == NULL || !engine_plays(x, v, &uci)) {
		fb_proto_gui(out, "Error (unsupported variant): %.*s", (int)n,
			       text + start);
		return;
	}
	stop_search(x, out);
	game_reset(x, v);
	sync_variant(x, out);
}

/* A GUI move (usermove or bare): checked, played, answered. */
static void
gui_move(struct xu *x, const char *text, size_t start, size_t n,
	 const struct fb_sink *out)
{
	struct fb_move m;

	if (fb_game_parse_move(&x->cur, text + start, n, &m) < 0 ||
	    m.null || !fb_moves_is_legal(&x->cur, &m)) {
		fb_proto_gui(out, "Illegal move: %.*s", (int)n,
			       text + start);
		return;
	}
	if (x->search == SEARCH_PONDER && same_move(&m, &x->ponder) &&
	    !x->force && game_push(x, &m)) {
		/* the expected reply: that search now gives the move */
		fb_proto_engine(out, "ponderhit");
		x->search = SEARCH_THINK;
		return;
	}
	stop_search(x, out); /* analyze, pondering, a move while thinking */
	if (!game_push(x, &m)) {
		fb_proto_report(out, FB_LOG_ERROR, "out of memory");
		fb_proto_gui(out, "Illegal move (out of memory): %.*s",
			       (int)n, text + start);
		return;
	}
	if (fb_moves_end(&x->cur) != FB_END_NONE) {
		/* The GUI's move mates or stalemates: the GUI knows the
		 * result. A search would make the engine's side, the loser,
		 * claim it too. */
		x->ended = true;
		fb_proto_report(out, FB_LOG_DEBUG,
				"%.*s ends the game: no search", (int)n,
				text + start);
	}
	after_change(x, out);
}

/* A token that may be a bare move (protover 1, or a GUI that ignores
 * usermove=1): a file letter and a rank digit, or O-O. */
static bool
looks_like_move(const char *text, size_t start, size_t n)
{
	char a = text[start];

	if (n >= 3 && (a == 'O' || a == '0') && text[start + 1] == '-')
		return true;
	return n >= 4 && n <= 6 && a >= 'a' && a <= 'j' &&
	       text[start + 1] >= '1' && text[start + 1] <= '9';
}

static void
undo(struct xu *x, size_t plies, const struct fb_sink *out)
{
	stop_search(x, out);
	if (plies > x->nmoves) {
		fb_proto_report(out, FB_LOG_WARN,
				"undo: no move to take back; ignored");
		return;
	}
	x->nmoves -= plies;
	game_replay(x);
	if (x->analyze)
		start_search(x, out);
}

static void
ping(struct xu *x, const char *text, size_t len, size_t pos,
     const struct fb_sink *out)
{
	bool ok;
	long long v = next_number(text, len, pos, &ok);

	if (x->npings == sizeof x->pings / sizeof x->pings[0]) {
		/* A GUI does not have 16 pings out; answer the oldest. */
		fb_proto_gui(out, "pong %lld", x->pings[0]);
		memmove(x->pings, x->pings + 1,
			--x->npings * sizeof x->pings[0]);
	}
	/* pong only after everything before it: the engine's readyok. */
	x->pings[x->npings++] = ok ? v : 0;
	fb_proto_engine(out, "isready");
}

/* Commands XBoard sends that need nothing from a UCI engine. */
static const char *const ignored[] = {
	"accepted", "rejected", "random", "computer", "name", "rating",
	"ics", "hint", "bk", "draw", ".", "white", "black",
	"otherwise", NULL};

static bool
gui_game_command(struct xu *x, const char *text, size_t len, size_t pos,
		 size_t start, size_t n, const struct fb_sink *out)
{
	bool ok;

	if (fb_proto_is(text, start, n, "new")) {
		stop_search(x, out);
		game_reset(x, fb_variant_normal);
		x->force = x->analyze = false;
		x->engine_side = FB_BLACK;
		x->sd = 0;
		x->st_ms = 0;
		x->time_cs = x->otim_cs = -1;
		fb_proto_engine(out, "ucinewgame");
	} else if (fb_proto_is(text, start, n, "variant")) {
		gui_variant(x, text, len, pos, out);
	} else if (fb_proto_is(text, start, n, "setboard")) {
		gui_setboard(x, text, len, pos, out);
	} else if (fb_proto_is(text, start, n, "usermove")) {
		n = fb_proto_token(text, len, &pos, &start);
		gui_move(x, text, start, n, out);
	} else if (fb_proto_is(text, start, n, "force")) {
		stop_search(x, out);
		x->force = true;
	} else if (fb_proto_is(text, start, n, "go")) {
		x->force = false;
		x->engine_side = x->cur.side;
		start_search(x, out);
	} else if (fb_proto_is(text, start, n, "playother")) {
		stop_search(x, out);
		x->force = false;
		x->engine_side = !x->cur.side;
	} else if (fb_proto_is(text, start, n, "undo")) {
		undo(x, 1, out);
	} else if (fb_proto_is(text, start, n, "remove")) {
		undo(x, 2, out);
	} else if (fb_proto_is(text, start, n, "hard")) {
		x->hard = true;
	} else if (fb_proto_is(text, start, n, "easy")) {
		x->hard = false;
		if (x->search == SEARCH_PONDER)
			stop_search(x, out);
	} else if (fb_proto_is(text, start, n, "result")) {
		stop_search(x, out);
		x->ended = true;
	} else if (fb_proto_is(text, start, n, "?")) {
		if (x->search == SEARCH_THINK)
			fb_proto_engine(out, "stop"); /* its move is wanted */
	} else if (fb_proto_is(text, start, n, "analyze")) {
		x->analyze = true;
		start_search(x, out);
	} else if (fb_proto_is(text, start, n, "exit")) {
		stop_search(x, out);
		x->analyze = false;
	} else if (fb_proto_is(text, start, n, "level")) {
		gui_level(x, text, len, pos, out);
	} else if (fb_proto_is(text, start, n, "st")) {
		n = fb_proto_token(text, len, &pos, &start);
		x->st_ms = seconds_ms(text, start, n);
	} else if (fb_proto_is(text, start, n, "sd")) {
		long long d = next_number(text, len, pos, &ok);
		x->sd = ok && d > 0 && d < 1000 ? (int)d : 0;
	} else if (fb_proto_is(text, start, n, "time")) {
		gui_clock(&x->time_cs, text, len, pos, out);
	} else if (fb_proto_is(text, start, n, "otim")) {
		gui_clock(&x->otim_cs, text, len, pos, out);
	} else {
		return false;
	}
	return true;
}

static void
xu_gui_line(void *state, const char *text, size_t len, size_t term,
	    const struct fb_sink *out)
{
	struct xu *x = state;
	size_t pos = 0, start, n = fb_proto_token(text, len, &pos, &start);

	(void)term;
	if (n == 0)
		return; /* an empty line means nothing in CECP */
	if (gui_game_command(x, text, len, pos, start, n, out))
		return;
	if (fb_proto_is(text, start, n, "xboard")) {
		ask_engine(x, out);
	} else if (fb_proto_is(text, start, n, "protover")) {
		ask_engine(x, out);
		x->protover = true;
		if (x->phase == PHASE_READY)
			send_features(x, out);
		else
			fb_proto_gui(out, "feature done=0");
	} else if (fb_proto_is(text, start, n, "ping")) {
		ping(x, text, len, pos, out);
	} else if (fb_proto_is(text, start, n, "post")) {
		x->post = true;
	} else if (fb_proto_is(text, start, n, "nopost")) {
		x->post = false;
	} else if (fb_proto_is(text, start, n, "option")) {
		gui_option(x, text, len, pos, out);
	} else if (fb_proto_is(text, start, n, "memory")) {
		gui_resource(x, "Hash", x->has_hash, text, len, pos, out);
	} else if (fb_proto_is(text, start, n, "cores")) {
		gui_resource(x, "Threads", x->has_threads, text, len, pos,
			     out);
	} else if (fb_proto_is(text, start, n, "egtpath")) {
		n = fb_proto_token(text, len, &pos, &start); /* the kind */
		if (fb_proto_is(text, start, n, "syzygy"))
			gui_resource(x, "SyzygyPath", x->has_syzygy, text, len,
				     pos, out);
		else
			fb_proto_report(out, FB_LOG_INFO,
					"egtpath: only syzygy is passed on");
	} else if (fb_proto_is(text, start, n, "quit")) {
		stop_search(x, out);
		fb_proto_engine(out, "quit");
	} else if (looks_like_move(text, start, n)) {
		gui_move(x, text, start, n, out);
	} else {
		for (const char *const *w = ignored; *w != NULL; w++)
			if (fb_proto_is(text, start, n, *w)) {
				fb_proto_report(out, FB_LOG_DEBUG,
						"'%.*s': nothing to do for a "
						"UCI engine", (int)len, text);
				return;
			}
		fb_proto_report(out, FB_LOG_WARN, "unknown command '%.*s'",
				(int)len, text);
		fb_proto_gui(out, "Error (unknown command): %.*s", (int)n,
			       text + start);
	}
}

/* ---- engine -> GUI ---- */

/* The engine's `option` line: remembered, and offered to the GUI as a
 * `feature option=` line unless fenbridge drives it itself (UCI_Chess960,
 * UCI_Variant, Ponder, Hash, Threads, SyzygyPath: variant, hard/easy,
 * memory, cores, egtpath) or the config hides it. */
static const char *const driven[] = {
	"UCI_Chess960", "UCI_Variant", "UCI_AnalyseMode", "UCI_Opponent",
	"Ponder", "Hash", "Threads", "SyzygyPath", NULL};

static bool
option_key(const char *text, size_t start, size_t n)
{
	return fb_proto_is(text, start, n, "type") ||
	       fb_proto_is(text, start, n, "default") ||
	       fb_proto_is(text, start, n, "min") ||
	       fb_proto_is(text, start, n, "max") ||
	       fb_proto_is(text, start, n, "var");
}

/* The value after a keyword of an option line: its words up to the next
 * keyword, [*b, *e); *pos moves there. */
static void
option_value(const char *text, size_t len, size_t *pos, size_t *b, size_t *e)
{
	size_t p = *pos, start, n;

	*b = *e = 0;
	while ((n = fb_proto_token(text, len, &p, &start)) > 0 &&
	       !option_key(text, start, n)) {
		if (*e == 0)
			*b = start;
		*e = start + n;
		*pos = p;
	}
}

/* The option's part after its name, `type T default D min A max B var
 * V ...` (from pos), in XBoard's form (CECP `feature option`). Returns the
 * type letter, 0 when unknown. */
static char
option_feature(struct fb_buf *f, const char *text, size_t len, size_t pos)
{
	size_t start, n, b, e, at = pos, db = 0, de = 0, mb = 0, me = 0,
			       xb = 0, xe = 0;
	char type = 0;
	bool first = true;

	while ((n = fb_proto_token(text, len, &pos, &start)) > 0) {
		option_value(text, len, &pos, &b, &e);
		if (fb_proto_is(text, start, n, "type"))
			type = fb_proto_is(text, b, e - b, "spin")     ? 's'
			       : fb_proto_is(text, b, e - b, "check")  ? 'c'
			       : fb_proto_is(text, b, e - b, "string") ? 't'
			       : fb_proto_is(text, b, e - b, "combo")  ? 'o'
			       : fb_proto_is(text, b, e - b, "button") ? 'b'
								       : 0;
		else if (fb_proto_is(text, start, n, "default"))
			db = b, de = e;
		else if (fb_proto_is(text, start, n, "min"))
			mb = b, me = e;
		else if (fb_proto_is(text, start, n, "max"))
			xb = b, xe = e;
	}
	switch (type) {
	case 's':
		fb_proto_buf_str(f, " -spin ");
		fb_proto_buf_add(f, text + db, de - db);
		fb_proto_buf_add(f, " ", 1);
		fb_proto_buf_add(f, text + mb, me - mb);
		fb_proto_buf_add(f, " ", 1);
		fb_proto_buf_add(f, text + xb, xe - xb);
		break;
	case 'c':
		fb_proto_buf_str(f, fb_proto_is_nocase(text, db, de - db, "true")
				   ? " -check 1"
				   : " -check 0");
		break;
	case 't':
		fb_proto_buf_str(f, " -string ");
		if (!fb_proto_is(text, db, de - db, "<empty>"))
			fb_proto_buf_add(f, text + db, de - db);
		break;
	case 'o':
		/* -combo A /// *B /// C: the default is starred */
		fb_proto_buf_str(f, " -combo");
		pos = at;
		while ((n = fb_proto_token(text, len, &pos, &start)) > 0) {
			option_value(text, len, &pos, &b, &e);
			if (!fb_proto_is(text, start, n, "var"))
				continue;
			fb_proto_buf_str(f, first ? " " : " /// ");
			first = false;
			if (e - b == de - db &&
			    memcmp(text + b, text + db, e - b) == 0)
				fb_proto_buf_add(f, "*", 1);
			fb_proto_buf_add(f, text + b, e - b);
		}
		break;
	case 'b':
		fb_proto_buf_str(f, " -button");
		break;
	}
	return type;
}

static void
engine_option(struct xu *x, const char *text, size_t len,
	      const struct fb_sink *out)
{
	size_t pos = 0, start, n, nb = 0, ne = 0, after;
	const struct fb_engine_option *cfg;
	struct option *o;
	char type;
	size_t mark;

	fb_proto_token(text, len, &pos, &start); /* option */
	n = fb_proto_token(text, len, &pos, &start);
	if (!fb_proto_is(text, start, n, "name"))
		goto bad;
	while ((n = fb_proto_token(text, len, &pos, &start)) > 0 &&
	       !fb_proto_is(text, start, n, "type")) {
		if (nb == 0)
			nb = start;
		ne = start + n;
	}
	if (nb == 0 || n == 0)
		goto bad;
	after = start;
	if (fb_proto_is_nocase(text, nb, ne - nb, "UCI_Chess960"))
		x->has_960 = true;
	else if (fb_proto_is_nocase(text, nb, ne - nb, "Hash"))
		x->has_hash = true;
	else if (fb_proto_is_nocase(text, nb, ne - nb, "Threads"))
		x->has_threads = true;
	else if (fb_proto_is_nocase(text, nb, ne - nb, "SyzygyPath"))
		x->has_syzygy = true;
	else if (fb_proto_is_nocase(text, nb, ne - nb, "Ponder"))
		x->has_ponder = true;
	else if (fb_proto_is_nocase(text, nb, ne - nb, "UCI_Variant")) {
		free(x->vars);
		x->vars = malloc(len - after + 1);
		if (x->vars != NULL) {
			memcpy(x->vars, text + after, len - after);
			x->vars[len - after] = '\0';
		}
	}
	for (const char *const *w = driven; *w != NULL; w++)
		if (fb_proto_is_nocase(text, nb, ne - nb, *w)) {
			fb_proto_report(out, FB_LOG_DEBUG,
					"option %s: driven by fenbridge, not "
					"offered to the GUI", *w);
			return;
		}
	cfg = fb_proto_option(x->opt, text + nb, ne - nb);
	if (cfg != NULL && (cfg->flags & FB_OPT_HIDDEN)) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"option hidden from the GUI by the config");
		return;
	}
	mark = x->feat_options.len;
	fb_proto_buf_str(&x->feat_options, "feature option=\"");
	fb_proto_buf_add(&x->feat_options, text + nb, ne - nb);
	type = option_feature(&x->feat_options, text, len, after);
	fb_proto_buf_str(&x->feat_options, "\"\n");
	if (type == 0) {
		x->feat_options.len = mark;
		goto bad;
	}
	o = realloc(x->options, (x->noptions + 1) * sizeof *o);
	if (o == NULL)
		return;
	x->options = o;
	o[x->noptions].type = type;
	o[x->noptions].name = malloc(ne - nb + 1);
	if (o[x->noptions].name == NULL)
		return;
	memcpy(o[x->noptions].name, text + nb, ne - nb);
	o[x->noptions].name[ne - nb] = '\0';
	x->noptions++;
	return;
bad:
	fb_proto_report(out, FB_LOG_WARN, "engine option not understood: %.*s",
			(int)len, text);
}

static void
engine_uciok(struct xu *x, const struct fb_sink *out)
{
	if (x->phase == PHASE_READY && x->features_sent) {
		fb_proto_report(out, FB_LOG_INFO, "late uciok");
	}
	set_timer(out, 0);
	x->phase = PHASE_READY;
	send_config_options(x, out);
	if (x->protover)
		send_features(x, out);
}

/* Writes v in decimal to p; returns the length. */
static size_t
put_num(char *p, long long v)
{
	char tmp[24];
	size_t n = 0, k = 0;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v
				     : (unsigned long long)v;

	if (v < 0)
		p[k++] = '-';
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u > 0);
	while (n > 0)
		p[k++] = tmp[--n];
	return k;
}

/* A decimal at text[start..start+n), or 0. */
static long long
info_num(const char *text, size_t start, size_t n)
{
	long long v = 0;
	bool neg = n > 0 && text[start] == '-';

	for (size_t i = neg; i < n; i++) {
		char c = text[start + i];
		if (c < '0' || c > '9' || v > 100000000000000LL)
			break;
		v = v * 10 + (c - '0');
	}
	return neg ? -v : v;
}

/* Keywords of UCI `info` followed by one value this pair does not use. */
static bool
one_value(const char *text, size_t start, size_t n)
{
	return fb_proto_is(text, start, n, "seldepth") ||
	       fb_proto_is(text, start, n, "multipv") ||
	       fb_proto_is(text, start, n, "nps") ||
	       fb_proto_is(text, start, n, "hashfull") ||
	       fb_proto_is(text, start, n, "tbhits") ||
	       fb_proto_is(text, start, n, "sbhits") ||
	       fb_proto_is(text, start, n, "cpuload") ||
	       fb_proto_is(text, start, n, "currmove") ||
	       fb_proto_is(text, start, n, "currmovenumber");
}

/*
 * `info depth D score cp S|mate M time T nodes N pv ...` -> the thinking
 * line `D S T/10 N pv` (CECP "Thinking output"). Mates are 100000 + M
 * moves, -100000 - M when mated (CECP: "mate scores"). The pv is copied
 * as it is, but for castles in the GUI's notation.
 */
static void
engine_info(struct xu *x, const char *text, size_t len,
	    const struct fb_sink *out)
{
	size_t pos = 4, start, n, pv = 0;
	long long depth = 0, score = 0, time_ms = 0, nodes = 0;
	char head[96];
	size_t h = 0;

	if (x->stale > 0 || x->search == SEARCH_NONE ||
	    x->search == SEARCH_PONDER) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"info of a search fenbridge stopped: dropped");
		return;
	}
	while ((n = fb_proto_token(text, len, &pos, &start)) > 0) {
		switch (text[start]) {
		case 'd':
			if (fb_proto_is(text, start, n, "depth")) {
				n = fb_proto_token(text, len, &pos, &start);
				depth = info_num(text, start, n);
				continue;
			}
			break;
		case 's':
			if (fb_proto_is(text, start, n, "score")) {
				size_t s2, k;
				bool mate;
				n = fb_proto_token(text, len, &pos, &start);
				mate = fb_proto_is(text, start, n, "mate");
				k = fb_proto_token(text, len, &pos, &s2);
				score = info_num(text, s2, k);
				if (mate)
					score = score > 0 ? 100000 + score
							  : -100000 + score;
				continue;
			}
			if (fb_proto_is(text, start, n, "string")) {
				fb_proto_report(out, FB_LOG_DEBUG,
						"engine says: %.*s",
						(int)(len - pos), text + pos);
				return;
			}
			break;
		case 't':
			if (fb_proto_is(text, start, n, "time")) {
				n = fb_proto_token(text, len, &pos, &start);
				time_ms = info_num(text, start, n);
				continue;
			}
			break;
		case 'n':
			if (fb_proto_is(text, start, n, "nodes")) {
				n = fb_proto_token(text, len, &pos, &start);
				nodes = info_num(text, start, n);
				continue;
			}
			break;
		case 'p':
			if (fb_proto_is(text, start, n, "pv"))
				pv = pos;
			break;
		case 'w':
			if (fb_proto_is(text, start, n, "wdl")) {
				fb_proto_token(text, len, &pos, &start);
				fb_proto_token(text, len, &pos, &start);
				fb_proto_token(text, len, &pos, &start);
				continue;
			}
			break;
		}
		if (pv > 0 || fb_proto_is(text, start, n, "refutation") ||
		    fb_proto_is(text, start, n, "currline"))
			break;
		if (one_value(text, start, n))
			fb_proto_token(text, len, &pos, &start);
	}
	if (pv == 0) {
		fb_proto_report(out, FB_LOG_DEBUG,
				"info without a pv: not thinking output");
		return;
	}
	if (!x->post && x->search != SEARCH_ANALYZE) {
		fb_proto_report(out, FB_LOG_DEBUG, "nopost: info dropped");
		return;
	}
	h += put_num(head + h, depth);
	head[h++] = ' ';
	h += put_num(head + h, score);
	head[h++] = ' ';
	h += put_num(head + h, time_ms / 10);
	head[h++] = ' ';
	h += put_num(head + h, nodes);
	out->to_gui(out->ctx, head, h);
	{
		struct fb_edit edits[MAX_EDITS];
		char pool[MAX_EDITS][8];
		unsigned ne = 0;
		enum fb_castle_notation to = gui_notation(x);
		struct fb_game g = x->cur;
		size_t p = pv, s;

		/* Only castles differ, and only while a right remains. */
		while (to != engine_notation(x) && fb_game_can_castle(&g) &&
		       ne < MAX_EDITS &&
		       (n = fb_proto_token(text, len, &p, &s)) > 0 &&
		       fb_proto_move(&g, text, s, n, to, &edits[ne], pool[ne],
				     out, "info pv", FB_LOG_DEBUG) == 0)
			if (edits[ne].len > 0)
				ne++;
		p = pv; /* the blank before the pv's first move */
		for (unsigned i = 0; i < ne; i++) {
			out->to_gui(out->ctx, text + p, edits[i].off - p);
			out->to_gui(out->ctx, edits[i].text, edits[i].tlen);
			p = edits[i].off + edits[i].len;
		}
		out->to_gui(out->ctx, text + p, len - p);
		out->to_gui(out->ctx, "\n", 1);
	}
}

/* The engine's move ended the game: claim the result, as XBoard expects
 * of an engine (CECP "result" / "1-0 {White mates}"). */
static void
claim_end(struct xu *x, const struct fb_sink *out)
{
	enum fb_game_end e = fb_moves_end(&x->cur);

	if (e == FB_END_NONE)
		return;
	x->ended = true;
	if (e == FB_END_STALEMATE)
		fb_proto_gui(out, "1/2-1/2 {Stalemate}");
	else if (x->cur.side == FB_BLACK)
		fb_proto_gui(out, "1-0 {White mates}");
	else
		fb_proto_gui(out, "0-1 {Black mates}");
}

static void
engine_bestmove(struct xu *x, const char *text, size_t len,
		const struct fb_sink *out)
{
	size_t pos = 0, start, n;
	struct fb_move m;
	char mv[8];
	int k;

	if (x->stale > 0) {
		x->stale--;
		fb_proto_report(out, FB_LOG_DEBUG,
				"bestmove of a search fenbridge stopped: "
				"swallowed");
		return;
	}
	if (x->search == SEARCH_PONDER) {
		/* UCI: no bestmove before ponderhit or stop; one that comes
		 * anyway is not the engine's move in the game */
		x->search = SEARCH_NONE;
		fb_proto_report(out, FB_LOG_WARN,
				"bestmove while pondering: dropped: %.*s",
				(int)len, text);
		return;
	}
	if (x->search != SEARCH_THINK) {
		fb_proto_report(out, FB_LOG_WARN,
				"bestmove without a search: dropped: %.*s",
				(int)len, text);
		return;
	}
	x->search = SEARCH_NONE;
	fb_proto_token(text, len, &pos, &start);
	n = fb_proto_token(text, len, &pos, &start);
	if (fb_moves_end(&x->cur) != FB_END_NONE) {
		/* `bestmove (none)` or 0000 on a mate or stalemate the GUI
		 * did not see as the end (after setboard): say the result;
		 * not when it was said or the GUI's move made it. */
		fb_proto_report(out, FB_LOG_INFO, "%.*s: the game is over",
				(int)len, text);
		if (!x->ended)
			claim_end(x, out);
		return;
	}
	if (fb_game_parse_move(&x->cur, text + start, n, &m) < 0 || m.null ||
	    !fb_moves_is_legal(&x->cur, &m)) {
		fb_proto_report(out, FB_LOG_ERROR,
				"the engine's move is illegal: %.*s", (int)len,
				text);
		fb_proto_gui(out,
				"tellusererror fenbridge: the engine played "
				"an illegal move (%.*s); it is not passed on",
				(int)n, text + start);
		return;
	}
	k = print_move(&x->cur, &m, gui_notation(x), mv);
	if (!game_push(x, &m)) {
		fb_proto_report(out, FB_LOG_ERROR, "out of memory");
		return;
	}
	fb_proto_gui(out, "move %.*s", k, mv);
	claim_end(x, out);
	start_ponder(x, text, len, pos, out);
}

static void
engine_readyok(struct xu *x, const struct fb_sink *out)
{
	if (x->npings == 0) {
		fb_proto_report(out, FB_LOG_DEBUG, "readyok: no ping waits");
		return;
	}
	fb_proto_gui(out, "pong %lld", x->pings[0]);
	memmove(x->pings, x->pings + 1, --x->npings * sizeof x->pings[0]);
}

static bool
first_is(const char *text, size_t len, size_t start, const char *word)
{
	size_t k = __builtin_strlen(word);

	return len - start >= k && memcmp(text + start, word, k) == 0 &&
	       (len - start == k || is_blank(text[start + k]));
}

static void
engine_id(struct xu *x, const char *text, size_t len,
	  const struct fb_sink *out)
{
	size_t pos = 2, start, n = fb_proto_token(text, len, &pos, &start);

	if (fb_proto_is(text, start, n, "name")) {
		while (pos < len && is_blank(text[pos]))
			pos++;
		n = len - pos;
		if (n >= sizeof x->name)
			n = sizeof x->name - 1;
		/* a quote would end XBoard's myname="..." */
		for (size_t i = 0; i < n; i++)
			x->name[i] = text[pos + i] == '"' ? '\'' : text[pos + i];
		x->name[n] = '\0';
		x->quirk = fb_quirk_find(x->name, n, "uci");
		if (x->quirk != NULL)
			fb_proto_report(out, FB_LOG_INFO, "engine '%s': %s",
					x->name, x->quirk->why);
	}
	fb_proto_report(out, FB_LOG_DEBUG, "%.*s: into the features",
			(int)len, text);
}

/* Dispatched on the first byte: info lines come by the thousand. */
static void
xu_engine_line(void *state, const char *text, size_t len, size_t term,
	       const struct fb_sink *out)
{
	struct xu *x = state;
	size_t start = 0;

	(void)term;
	while (start < len && is_blank(text[start]))
		start++;
	if (start > 0 && start < len) {
		text += start; /* no command starts with a blank */
		len -= start;
	}
	if (len >= 5 && memcmp(text, "info ", 5) == 0) {
		engine_info(x, text, len, out);
		return;
	}
	if (first_is(text, len, 0, "bestmove"))
		engine_bestmove(x, text, len, out);
	else if (first_is(text, len, 0, "readyok"))
		engine_readyok(x, out);
	else if (first_is(text, len, 0, "option"))
		engine_option(x, text, len, out);
	else if (first_is(text, len, 0, "id"))
		engine_id(x, text, len, out);
	else if (first_is(text, len, 0, "uciok"))
		engine_uciok(x, out);
	else if (first_is(text, len, 0, "info"))
		fb_proto_report(out, FB_LOG_DEBUG, "empty info: dropped");
	else
		fb_proto_report(out, FB_LOG_INFO,
				"engine line with no XBoard meaning: %.*s",
				(int)len, text);
}

/* The engine never said uciok: the GUI would wait for done=1 for ever. */
static void
xu_timeout(void *state, const struct fb_sink *out)
{
	struct xu *x = state;

	if (x->phase != PHASE_ASKED)
		return;
	fb_proto_report(out, FB_LOG_ERROR,
			"the engine did not answer uci with uciok in %u s",
			UCIOK_MS / 1000);
	fb_proto_gui(out,
		       "tellusererror fenbridge: the engine did not finish "
		       "its UCI handshake (no uciok in %u s)",
		       UCIOK_MS / 1000);
	x->phase = PHASE_READY;
	if (x->protover)
		send_features(x, out);
}

static void *
xu_new(const struct fb_filter_options *opt)
{
	struct xu *x = calloc(1, sizeof *x);

	if (x == NULL)
		return NULL;
	x->opt = opt;
	x->engine_variant = NULL;
	x->post = false;
	x->time_cs = x->otim_cs = -1;
	x->engine_side = FB_BLACK;
	game_reset(x, fb_variant_normal);
	return x;
}

static void
xu_free(void *state)
{
	struct xu *x = state;

	for (size_t i = 0; i < x->noptions; i++)
		free(x->options[i].name);
	free(x->options);
	free(x->vars);
	free(x->feat_options.p);
	free(x->moves);
	free(x->line.p);
	free(x);
}

static const struct fb_game *
xu_game(const void *state)
{
	const struct xu *x = state;

	return &x->cur;
}

static const char *
xu_variant(const void *state)
{
	const struct xu *x = state;

	return x->variant->name;
}

const struct fb_pair fb_pair_xboard_uci = {
	.gui = &fb_protocol_xboard,
	.engine = &fb_protocol_uci,
	.state_new = xu_new,
	.state_free = xu_free,
	.gui_line = xu_gui_line,
	.engine_line = xu_engine_line,
	.game = xu_game,
	.variant = xu_variant,
	.timeout = xu_timeout,
};
