/* SPDX-License-Identifier: MIT */
/*
 * `fenbridge check`'s script (protocols/check.c) against simulated engines
 * written here: a correct UCI engine, one that dies on a file letter in the
 * castling field, one that reads K/Q as the corner rooks in Chess960
 * (Glaurung's misreading), the same under another id name, one that knows
 * no DFRC (different back ranks), an XBoard engine
 * without setboard, a silent one. The simulated engines play with
 * fenbridge's own move generator: the mate in one when there is one, else
 * their first legal move. The test positions' properties (the castle is the
 * one mate; the castle checks with one legal reply) are pinned too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check.h"
#include "check_int.h"
#include "fenbridge/fen.h"
#include "fenbridge/movegen.h"
#include "fenbridge/variant.h"

enum sim_kind {
	SIM_GOOD,         /* UCI, both dialects, KxR in 960, king move else */
	SIM_CAPA_RULES,   /* SIM_GOOD, but it plays Janus and Embassy (which
			    it lists) by Capablanca's castling rules */
	SIM_DIE_LETTER,   /* exits 1 on any file letter in the castling field */
	SIM_KQ_CORNER,    /* in 960 mode K/Q name the corner rooks */
	SIM_XB_NOSETUP,   /* XBoard, setboard=0 */
	SIM_SILENT,       /* says nothing */
	SIM_NO_STOP,      /* ignores stop */
	SIM_EARLY_PONDER, /* ends go ponder at once; MultiPV gives one line */
	SIM_XB,           /* XBoard with setboard: O-O and KxR in FRC */
	SIM_XB_STICKY,    /* the same, but new keeps fischerandom */
	SIM_XB_EDIT,      /* XBoard, setboard=0: positions through edit, the
			    rights from the king and rooks on their squares */
	SIM_XB_EDIT_MOVED, /* the same, but takes edited pieces as moved:
			      no castling after edit */
	SIM_XB_PONDER_BAD, /* SIM_XB, but hard: hangs when our reply is not
			      its ponder move; analyze: no thinking */
	SIM_SYMMETRIC,     /* SIM_GOOD, but in 960 mode it drops the castling
			    rights when the two colours' kings or castling
			    rooks stand on different files (it takes
			    Black's setup from White's) */
	SIM_XB_GNU,        /* GNU Chess 6.2.7 in XBoard mode: hangs at start
			    until an empty line comes (and has lost the
			    protover 2 before it); `Invalid move: X` for sd
			    and every command or move it refuses; each ping
			    answered twice, the second copy after the next
			    ping; thinks until ? (no sd); each move announced
			    twice, `N. ... M` and, late (before its answer to
			    the next command), `My move is : M` */
};

struct sim {
	enum sim_kind kind;
	const char *name;
	bool c960;
	bool alive;
	bool searching_infinite;
	bool thinking; /* XBoard: go after st 60, until ? */
	bool long_think;
	bool hard, force;   /* XBoard: pondering on; in force mode */
	char predicted[16]; /* the reply its last pv predicted */
	int multipv;
	bool editing, edit_black; /* in edit; placing Black's pieces */
	struct fb_game g;
	const struct fb_variant *variant; /* as last set, or NULL */
	struct fb_check ck;
	unsigned starts;
	bool awake;         /* SIM_XB_GNU: out of its hang at start */
	unsigned last_ping; /* its ping answered once so far */
	bool searching;     /* thinking until ? */
	char echo[16];      /* its move, to be announced again */
	char sent[65536];   /* everything the script sent */
	size_t nsent;
	char report[FB_CHECK_REPORT_MAX];
};

static void
run_out(struct sim *s, struct fb_check_out *out, int depth);

static void
reply(struct sim *s, const char *line, int depth)
{
	struct fb_check_out out;

	fb_check_line(&s->ck, line, strlen(line), &out);
	run_out(s, &out, depth + 1);
}

static void
die(struct sim *s, unsigned status, int depth)
{
	struct fb_check_out out;

	s->alive = false;
	fb_check_exit(&s->ck, status, 0, &out);
	run_out(s, &out, depth + 1);
}

/* The move the simulated engine plays: a mate in one, else the first. */
static void
best(struct sim *s, char *mv, size_t cap)
{
	struct fb_move m[FB_MOVES_MAX];
	size_t n = fb_moves_legal(&s->g, m), pick = 0;

	if (n == 0) {
		snprintf(mv, cap, "0000");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct fb_game a = s->g;
		fb_game_play(&a, &m[i]);
		if (fb_moves_end(&a) == FB_END_CHECKMATE) {
			pick = i;
			break;
		}
	}
	fb_moves_print_coord(&s->g, &m[pick],
			     s->c960 ? FB_CASTLE_KXR : FB_CASTLE_KING, mv, cap);
}

/* The file of king k, or -1. */
static int
king_file(const struct fb_game *g, char k)
{
	for (int r = 0; r < FB_FEN_RANKS; r++)
		for (unsigned f = 0; f < g->width; f++)
			if (g->board[r][f] == k)
				return (int)f;
	return -1;
}

/* True unless both colours have rights and their kings or castling rooks
 * stand on different files: a DFRC position. */
static bool
symmetric(const struct fb_game *g)
{
	bool w = g->castle[FB_WHITE][0] >= 0 || g->castle[FB_WHITE][1] >= 0;
	bool b = g->castle[FB_BLACK][0] >= 0 || g->castle[FB_BLACK][1] >= 0;

	return !w || !b ||
	       (king_file(g, 'K') == king_file(g, 'k') &&
		memcmp(g->castle[FB_WHITE], g->castle[FB_BLACK],
		       sizeof g->castle[0]) == 0);
}

static void
position(struct sim *s, const char *fen_and_moves, int depth)
{
	const char *mv = strstr(fen_and_moves, " moves ");
	size_t len = mv ? (size_t)(mv - fen_and_moves) : strlen(fen_and_moves);
	struct fb_fen fen;
	const char *castling;

	assert_int_equal(fb_fen_parse(&fen, fen_and_moves, len, NULL), 0);
	castling = fen_and_moves + fen.off[2];
	if (s->kind == SIM_DIE_LETTER && castling[0] >= 'A' &&
	    castling[0] <= 'H' && castling[0] != 'K' && castling[0] != 'Q') {
		die(s, 1, depth);
		return;
	}
	s->g = fen.pos;
	if (s->kind != SIM_CAPA_RULES)
		fb_variant_apply(s->variant, &s->g);
	if (s->kind == SIM_KQ_CORNER && s->c960 && castling[0] == 'K' &&
	    s->g.board[0][7] != 'R')
		s->g.castle[FB_WHITE][FB_HSIDE] = -1; /* no rook on h1 */
	if (s->kind == SIM_SYMMETRIC && s->c960 && !symmetric(&s->g))
		memset(s->g.castle, 0xff, sizeof s->g.castle);
	if (mv != NULL) {
		struct fb_move m;
		const char *t = mv + 7;
		size_t tl = strcspn(t, " ");
		char form[8];
		int fl = 0;
		/* Standard UCI reads e1g1 only; KxR in 960 mode only. */
		if (fb_game_parse_move(&s->g, t, tl, &m) == 0 && m.castle >= 0)
			fl = fb_game_print_castle(&s->g, &m,
						  s->c960 ? FB_CASTLE_KXR
							  : FB_CASTLE_KING,
						  form, sizeof form);
		if (fb_game_parse_move(&s->g, t, tl, &m) == 0 &&
		    (m.castle < 0 ||
		     (fl == (int)tl && memcmp(form, t, tl) == 0)))
			fb_game_play(&s->g, &m);
	}
}

/* One line inside edit: # clears, c toggles the colour, . ends (the
 * rights from a king and rook on their start squares), else a piece. */
static void
edit_line(struct sim *s, const char *line)
{
	struct fb_game *g = &s->g;

	if (strcmp(line, "#") == 0) {
		memset(g->board, 0, sizeof g->board);
	} else if (strcmp(line, "c") == 0) {
		s->edit_black = !s->edit_black;
	} else if (strcmp(line, ".") == 0) {
		s->editing = false;
		g->ep_file = -1;
		for (int c = 0; c < 2; c++) {
			int r = c == 0 ? 0 : 7;
			bool k = g->board[r][4] == (c == 0 ? 'K' : 'k');
			char rook = c == 0 ? 'R' : 'r';
			g->castle[c][FB_HSIDE] =
				k && g->board[r][7] == rook ? 7 : -1;
			g->castle[c][FB_ASIDE] =
				k && g->board[r][0] == rook ? 0 : -1;
			if (s->kind == SIM_XB_EDIT_MOVED)
				g->castle[c][0] = g->castle[c][1] = -1;
		}
	} else {
		assert_int_equal(strlen(line), 3);
		g->board[line[2] - '1'][line[1] - 'a'] =
			(char)(s->edit_black ? line[0] | 0x20 : line[0]);
	}
}

/* An XBoard engine's move: thinking (its move and the reply it expects),
 * then the move, played. */
static void
xb_move(struct sim *s, int depth)
{
	struct fb_move m, r[FB_MOVES_MAX];
	struct fb_game a;
	char mv[16], buf[96];

	best(s, mv, sizeof mv);
	s->predicted[0] = '\0';
	a = s->g;
	if (fb_game_parse_move(&a, mv, strlen(mv), &m) == 0) {
		fb_game_play(&a, &m);
		if (fb_moves_legal(&a, r) > 0)
			fb_moves_print_coord(&a, &r[0], FB_CASTLE_KING,
					     s->predicted, sizeof s->predicted);
	}
	snprintf(buf, sizeof buf, " 3 0 0 10 %s %s", mv, s->predicted);
	reply(s, buf, depth);
	snprintf(buf, sizeof buf, "move %s", mv);
	if (fb_game_parse_move(&s->g, mv, strlen(mv), &m) == 0)
		fb_game_play(&s->g, &m);
	reply(s, buf, depth);
}

/* The XBoard engines: castles as O-O or king takes rook in fischerandom,
 * as the king's move otherwise; `Error` for a castle in another form. */
static void
xb_command(struct sim *s, const char *line, int depth)
{
	char mv[16], buf[96];
	struct fb_fen fen;
	struct fb_move m;

	if (s->editing) {
		edit_line(s, line);
		return;
	}
	if (strcmp(line, "edit") == 0) {
		s->editing = true;
		s->edit_black = false;
		return;
	}
	if (strcmp(line, "protover 2") == 0 && s->kind != SIM_XB &&
	    s->kind != SIM_XB_STICKY && s->kind != SIM_XB_PONDER_BAD) {
		reply(s,
		      "feature myname=\"ESim\" setboard=0 usermove=1 "
		      "ping=1 variants=\"normal\" done=1",
		      depth);
	} else if (strcmp(line, "protover 2") == 0) {
		reply(s,
		      s->kind == SIM_XB
			      ? "feature myname=\"XSim\" setboard=1 "
				"usermove=1 ping=1 variants=\"normal,"
				"fischerandom,capablanca,caparandom,janus,"
				"embassy\" done=1"
			      : "feature myname=\"XSim\" setboard=1 "
				"usermove=1 ping=1 variants=\"normal,"
				"fischerandom\" done=1",
		      depth);
	} else if (strncmp(line, "ping ", 5) == 0) {
		snprintf(buf, sizeof buf, "pong %s", line + 5);
		reply(s, buf, depth);
	} else if (strcmp(line, "new") == 0) {
		s->c960 = s->c960 && s->kind == SIM_XB_STICKY;
		s->long_think = false;
		s->hard = s->force = false;
		s->variant = NULL;
		fb_game_start(&s->g, "RNBQKBNR");
	} else if (strcmp(line, "force") == 0) {
		s->force = true;
	} else if (strcmp(line, "hard") == 0 || strcmp(line, "easy") == 0) {
		s->hard = line[0] == 'h';
	} else if (strcmp(line, "analyze") == 0) {
		struct fb_move r[FB_MOVES_MAX];
		if (s->kind != SIM_XB_PONDER_BAD &&
		    fb_moves_legal(&s->g, r) > 0) {
			fb_moves_print_coord(&s->g, &r[0], FB_CASTLE_KING, mv,
					     sizeof mv);
			snprintf(buf, sizeof buf, " 1 0 0 1 %s", mv);
			reply(s, buf, depth);
		}
	} else if (strcmp(line, "variant fischerandom") == 0 ||
		   strcmp(line, "variant caparandom") == 0) {
		s->c960 = true;
	} else if (strcmp(line, "variant capablanca") == 0 ||
		   strcmp(line, "variant janus") == 0 ||
		   strcmp(line, "variant embassy") == 0) {
		s->c960 = false;
		s->variant = fb_variant_find(line + 8, strlen(line + 8));
	} else if (strncmp(line, "setboard ", 9) == 0) {
		assert_int_equal(
			fb_fen_parse(&fen, line + 9, strlen(line + 9), NULL),
			0);
		s->g = fen.pos;
		fb_variant_apply(s->variant, &s->g);
	} else if (strncmp(line, "usermove ", 9) == 0) {
		const char *t = line + 9;
		char form[8];
		int fl = -1;
		if (fb_game_parse_move(&s->g, t, strlen(t), &m) == 0 &&
		    m.castle >= 0)
			fl = fb_game_print_castle(&s->g, &m,
						  s->c960 ? FB_CASTLE_KXR
							  : FB_CASTLE_KING,
						  form, sizeof form);
		if (fb_game_parse_move(&s->g, t, strlen(t), &m) == 0 &&
		    (m.castle < 0 || fb_game_parse_oo(t, strlen(t), &fl) ||
		     (fl == (int)strlen(t) &&
		      memcmp(form, t, strlen(t)) == 0))) {
			fb_game_play(&s->g, &m);
			/* Out of force mode: its answer (a miss hangs the
			 * bad one). */
			if (!s->force &&
			    !(s->kind == SIM_XB_PONDER_BAD && s->hard &&
			      strcmp(t, s->predicted) != 0))
				xb_move(s, depth);
		} else {
			snprintf(buf, sizeof buf, "Error (unknown command): %s",
				 t);
			reply(s, buf, depth);
		}
	} else if (strcmp(line, "st 60") == 0) {
		s->long_think = true;
	} else if (strcmp(line, "go") == 0 && s->long_think) {
		s->thinking = true;
	} else if (strcmp(line, "go") == 0 ||
		   (strcmp(line, "?") == 0 && s->thinking)) {
		s->thinking = false;
		s->force = false;
		xb_move(s, depth);
	} else if (strcmp(line, "quit") == 0) {
		die(s, 0, depth);
	} else if (strcmp(line, "uci") == 0 ||
		   strncmp(line, "fenbridge", 9) == 0) {
		snprintf(buf, sizeof buf, "Error (unknown command): %s", line);
		reply(s, buf, depth);
	}
}

/* SIM_XB_GNU's search: thinking output, deeper and deeper, until ?
 * (it has no sd). */
static void
gnu_search(struct sim *s, int depth)
{
	char mv[16], buf[64];

	s->searching = true;
	best(s, mv, sizeof mv);
	for (int ply = 1; ply <= 5 && s->searching; ply++) {
		snprintf(buf, sizeof buf, "%d 0 0 %d %s", ply, ply * 10, mv);
		reply(s, buf, depth);
	}
}

/* SIM_XB_GNU's move: `N. ... M` now, `My move is : M` later. */
static void
gnu_move(struct sim *s, int depth)
{
	struct fb_move m;
	char mv[16], buf[64];

	s->searching = false;
	best(s, mv, sizeof mv);
	if (fb_game_parse_move(&s->g, mv, strlen(mv), &m) == 0)
		fb_game_play(&s->g, &m);
	snprintf(s->echo, sizeof s->echo, "%s", mv);
	snprintf(buf, sizeof buf, "1. ... %s", mv);
	reply(s, buf, depth);
}

/* SIM_XB_GNU: what it does differently from SIM_XB (which does the rest:
 * new, force, setboard, analyze, quit); true when line was that. */
static bool
gnu_command(struct sim *s, const char *line, int depth)
{
	char buf[96];
	struct fb_move m;

	if (s->echo[0] != '\0') {
		snprintf(buf, sizeof buf, "My move is : %s", s->echo);
		s->echo[0] = '\0';
		reply(s, buf, depth);
	}
	if (strcmp(line, "protover 2") == 0) {
		reply(s, "White (1) : feature done=0", depth);
		reply(s,
		      "feature myname=\"GNU Sim\" setboard=1 usermove=1 "
		      "ping=1 variants=\"normal\"",
		      depth);
		reply(s, "feature done=1", depth);
	} else if (strncmp(line, "ping ", 5) == 0) {
		if (s->last_ping > 0) {
			snprintf(buf, sizeof buf, "pong %u", s->last_ping);
			reply(s, buf, depth);
		}
		s->last_ping = (unsigned)atoi(line + 5);
		snprintf(buf, sizeof buf, "pong %u", s->last_ping);
		reply(s, buf, depth);
	} else if (strcmp(line, "go") == 0) {
		s->force = false;
		gnu_search(s, depth);
	} else if (strcmp(line, "?") == 0) {
		if (s->searching)
			gnu_move(s, depth);
	} else if (strncmp(line, "usermove ", 9) == 0) {
		const char *t = line + 9;
		/* Standard chess only: a castle as the king's move. */
		if (fb_game_parse_move(&s->g, t, strlen(t), &m) == 0 &&
		    (m.castle < 0 || fb_game_parse_oo(t, strlen(t), NULL) ||
		     abs(t[0] - t[2]) == 2)) {
			fb_game_play(&s->g, &m);
			if (!s->force)
				gnu_search(s, depth);
		} else {
			snprintf(buf, sizeof buf, "Invalid move: %s", t);
			reply(s, buf, depth);
		}
	} else if (strncmp(line, "sd ", 3) == 0 || strcmp(line, "uci") == 0 ||
		   strncmp(line, "fenbridge", 9) == 0) {
		snprintf(buf, sizeof buf, "Invalid move: %s", line);
		reply(s, buf, depth);
	} else {
		return false;
	}
	return true;
}

static void
command(struct sim *s, const char *line, int depth)
{
	char mv[16], buf[64];

	if (s->kind == SIM_SILENT)
		return;
	if (s->kind == SIM_XB_GNU && gnu_command(s, line, depth))
		return;
	if (s->kind == SIM_XB || s->kind == SIM_XB_STICKY ||
	    s->kind == SIM_XB_PONDER_BAD || s->kind == SIM_XB_EDIT ||
	    s->kind == SIM_XB_EDIT_MOVED || s->kind == SIM_XB_GNU) {
		xb_command(s, line, depth);
		return;
	}
	if (s->kind == SIM_XB_NOSETUP) {
		if (strcmp(line, "protover 2") == 0) {
			reply(s,
			      "feature myname=\"Sim\" setboard=0 ping=1 "
			      "done=1",
			      depth);
		} else if (strncmp(line, "ping ", 5) == 0) {
			snprintf(buf, sizeof buf, "pong %s", line + 5);
			reply(s, buf, depth);
		} else if (strcmp(line, "go") == 0) {
			reply(s, "move e2e4", depth);
		} else if (strcmp(line, "quit") == 0) {
			die(s, 0, depth);
		} else if (strcmp(line, "uci") == 0 ||
			   strncmp(line, "fenbridge", 9) == 0) {
			snprintf(buf, sizeof buf, "Error (unknown command): %s",
				 line);
			reply(s, buf, depth);
		}
		return;
	}
	if (strcmp(line, "uci") == 0) {
		snprintf(buf, sizeof buf, "id name %s", s->name);
		reply(s, buf, depth);
		if (s->kind != SIM_DIE_LETTER)
			reply(s,
			      "option name UCI_Chess960 type check default "
			      "false",
			      depth);
		if (s->kind == SIM_GOOD || s->kind == SIM_CAPA_RULES)
			reply(s,
			      "option name UCI_Variant type combo default "
			      "chess var chess var capablanca var caparandom "
			      "var embassy var janus",
			      depth);
		reply(s, "option name Ponder type check default false", depth);
		reply(s, "option name MultiPV type spin default 1 min 1 max 9",
		      depth);
		reply(s, "uciok", depth);
	} else if (strcmp(line, "isready") == 0) {
		reply(s, "readyok", depth);
	} else if (strncmp(line, "setoption name UCI_Chess960 value ", 34) ==
		   0) {
		s->c960 = strcmp(line + 34, "true") == 0;
	} else if (strncmp(line, "setoption name UCI_Variant value ", 33) ==
		   0) {
		s->variant = fb_variant_find(line + 33, strlen(line + 33));
	} else if (strncmp(line, "position fen ", 13) == 0) {
		position(s, line + 13, depth);
	} else if (strncmp(line, "position startpos", 17) == 0) {
		const char *t = strstr(line, " moves ");
		fb_game_start(&s->g, "RNBQKBNR");
		for (t = t ? t + 7 : NULL; t != NULL && *t;) {
			struct fb_move m;
			size_t tl = strcspn(t, " ");
			assert_int_equal(fb_moves_parse(&s->g, t, tl, &m), 0);
			fb_game_play(&s->g, &m);
			t += tl + (t[tl] == ' ');
		}
	} else if (strncmp(line, "setoption name MultiPV value ", 29) == 0) {
		s->multipv = s->kind == SIM_EARLY_PONDER ? 1 : atoi(line + 29);
	} else if (strcmp(line, "go infinite") == 0 ||
		   (strncmp(line, "go ponder", 9) == 0 &&
		    s->kind != SIM_EARLY_PONDER)) {
		s->searching_infinite = true;
	} else if (strcmp(line, "ponderhit") == 0 && s->searching_infinite) {
		s->searching_infinite = false;
		best(s, mv, sizeof mv);
		snprintf(buf, sizeof buf, "bestmove %s", mv);
		reply(s, buf, depth);
	} else if (strncmp(line, "go", 2) == 0) {
		best(s, mv, sizeof mv);
		for (int k = 1; k <= s->multipv; k++) {
			snprintf(buf, sizeof buf,
				 "info depth 1 multipv %d score cp 0 pv %s", k,
				 mv);
			reply(s, buf, depth);
		}
		best(s, mv, sizeof mv);
		snprintf(buf, sizeof buf, "bestmove %s", mv);
		reply(s, buf, depth);
	} else if (strcmp(line, "stop") == 0 && s->kind != SIM_NO_STOP &&
		   s->searching_infinite) {
		s->searching_infinite = false;
		best(s, mv, sizeof mv);
		snprintf(buf, sizeof buf, "bestmove %s", mv);
		reply(s, buf, depth);
	} else if (strcmp(line, "quit") == 0) {
		die(s, 0, depth);
	}
}

static void
run_out(struct sim *s, struct fb_check_out *out, int depth)
{
	char text[FB_CHECK_OUT_MAX + 1];
	char *line, *save = NULL;
	bool timer = out->rearm && out->wait_ms > 0;

	assert_true(depth < 4000);
	memcpy(text, out->text, out->len);
	text[out->len] = '\0';
	assert_true(s->nsent + out->len < sizeof s->sent);
	memcpy(s->sent + s->nsent, out->text, out->len);
	s->nsent += out->len;
	if (out->kill && s->alive) {
		die(s, 137, depth);
		return;
	}
	if (out->restart) {
		struct fb_check_out next;
		s->alive = true;
		s->c960 = false;
		s->awake = false;
		s->last_ping = 0;
		s->searching = false;
		s->echo[0] = '\0';
		s->starts++;
		fb_check_start(&s->ck, &next);
		run_out(s, &next, depth + 1);
		return;
	}
	if (out->done)
		return;
	if (s->kind == SIM_XB_GNU && !s->awake) {
		/* Every line is lost until an empty one wakes it up. */
		if (text[0] == '\n' || strstr(text, "\n\n") != NULL) {
			s->awake = true;
			reply(s, "GNU Chess 6.2.7", depth);
		}
		return;
	}
	for (line = strtok_r(text, "\n", &save); line != NULL && s->alive;
	     line = strtok_r(NULL, "\n", &save))
		command(s, line, depth);
	/* Nothing answered what the script waits for: its timer fires.
	 * (A line above may have moved the script on: then its own call
	 * ran the next step, and this one's timer is stale.) */
	(void)timer;
}

/* Runs the whole check; fires the timer whenever the script waits with
 * nothing pending. */
static unsigned
run(struct sim *s, enum sim_kind kind, const char *name,
    enum fb_check_protocol want)
{
	struct fb_check_out out;
	int guard = 0;

	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->name = name;
	s->alive = true;
	fb_check_init(&s->ck, want, 1000, 2000);
	fb_check_start(&s->ck, &out);
	run_out(s, &out, 0);
	while (!fb_check_done(&s->ck) && guard++ < 100) {
		fb_check_timeout(&s->ck, &out);
		run_out(s, &out, 0);
	}
	fb_check_report(&s->ck, s->report, sizeof s->report);
	return fb_check_findings(&s->ck);
}

static unsigned
run_quiet(struct sim *s, enum sim_kind kind, const char *name,
	  enum fb_check_protocol want)
{
	unsigned n = run(s, kind, name, want);
	fputs(s->report, stderr);
	return n;
}
#define run run_quiet

static bool
has(const struct sim *s, const char *text)
{
	if (strstr(s->report, text) != NULL)
		return true;
	print_message("report lacks '%s':\n%s\n", text, s->report);
	return false;
}

static void
test_check_positions_have_one_castle_that_mates(void **state)
{
	char fen[FB_GAME_FEN_MAX + 1];
	int n;

	(void)state;
	for (int i = 0;
	     (n = fb_check_position(i, FB_XFEN, fen, sizeof fen - 1)) > 0;
	     i++) {
		struct fb_fen f;
		struct fb_move m[FB_MOVES_MAX], r[FB_MOVES_MAX];
		size_t nm, castles = 0, mates = 0, mate_castles = 0;
		bool checks_one_reply = false;

		/* The FEN as the engine reads it, in the variant's rules. */
		assert_int_equal(fb_fen_parse(&f, fen, (size_t)n, NULL), 0);
		assert_true(fb_check_load(i, &f.pos));
		nm = fb_moves_legal(&f.pos, m);
		for (size_t j = 0; j < nm; j++) {
			struct fb_game a = f.pos;
			bool mate;
			fb_game_play(&a, &m[j]);
			mate = fb_moves_end(&a) == FB_END_CHECKMATE;
			mates += mate;
			if (m[j].castle >= 0) {
				castles++;
				mate_castles += mate;
				checks_one_reply = fb_moves_in_check(&a) &&
						   fb_moves_legal(&a, r) == 1;
			}
		}
		assert_int_equal(castles, 1);
		/* A read position: the castle is the one mate; an accept
		 * position: it checks, and one reply is legal. */
		assert_true((mates == 1 && mate_castles == 1) ||
			    (mate_castles == 0 && checks_one_reply));
	}
	assert_true(fb_check_position(0, FB_XFEN, fen, sizeof fen) > 0);
}

/* Janus's and Embassy's read positions mate only by their own castling
 * rules: played by Capablanca's, no castle mates. */
static void
test_check_janus_embassy_mate_by_their_rules_only(void **state)
{
	int seen[FB_CKV_COUNT] = {0};

	(void)state;
	for (int i = 0; i < fb_check_npos(); i++) {
		enum fb_check_variant v = fb_check_pos_variant(i);
		struct fb_move m[FB_MOVES_MAX];
		struct fb_game g;
		size_t nm;

		if (v != FB_CKV_JANUS && v != FB_CKV_EMBASSY)
			continue;
		assert_true(fb_check_load(i, &g));
		assert_non_null(g.rules);
		seen[v]++;
		if (!fb_check_pos_read(i))
			continue;
		g.rules = NULL;
		nm = fb_moves_legal(&g, m);
		for (size_t j = 0; j < nm; j++) {
			struct fb_game a = g;
			fb_game_play(&a, &m[j]);
			assert_false(m[j].castle >= 0 &&
				     fb_moves_end(&a) == FB_END_CHECKMATE);
		}
	}
	/* A read and an accept position each, and their mirrors. */
	assert_int_equal(seen[FB_CKV_JANUS], 4);
	assert_int_equal(seen[FB_CKV_EMBASSY], 4);
}

static void
test_check_960_position_differs_by_dialect(void **state)
{
	char x[FB_GAME_FEN_MAX + 1], s[FB_GAME_FEN_MAX + 1];
	int n = 0, white = 0, black = 0;

	(void)state;
	/* Some position has its castling rook off the corner, for White and
	 * (mirrored) for Black: X-FEN K / k, Shredder-FEN G / g. */
	for (int i = 0; fb_check_position(i, FB_XFEN, x, sizeof x - 1) > 0;
	     i++) {
		int nx = fb_check_position(i, FB_XFEN, x, sizeof x - 1);
		int ns = fb_check_position(i, FB_SHREDDER, s, sizeof s - 1);
		x[nx] = s[ns] = '\0';
		white += strstr(x, " w K ") && strstr(s, " w G ");
		black += strstr(x, " b k ") && strstr(s, " b g ");
		n++;
	}
	assert_int_equal(white, 1);
	assert_int_equal(black, 1);
	assert_true(n >= 14);
}

static void
test_check_dfrc_position_has_both_colours_rights(void **state)
{
	char x[FB_GAME_FEN_MAX + 1], sh[FB_GAME_FEN_MAX + 1];
	int found = 0, white = 0, black = 0;

	(void)state;
	/* A 960 position whose two back ranks differ (the castling rooks on
	 * other files), both colours with rights, White's on an inner rook (a file
	 * letter in X-FEN too); the dialects differ in Black's right. */
	for (int i = 0; fb_check_position(i, FB_XFEN, x, sizeof x - 1) > 0;
	     i++) {
		int nx = fb_check_position(i, FB_XFEN, x, sizeof x - 1);
		int ns = fb_check_position(i, FB_SHREDDER, sh, sizeof sh - 1);
		struct fb_fen f;
		x[nx] = sh[ns] = '\0';
		assert_int_equal(fb_fen_parse(&f, x, (size_t)nx, NULL), 0);
		if (symmetric(&f.pos))
			continue;
		white += strstr(x, " w Bk ") && strstr(sh, " w Bh ");
		black += strstr(x, " b Kb ") && strstr(sh, " b Hb ");
		found++;
	}
	assert_int_equal(white, 1);
	assert_int_equal(black, 1); /* mirrored */
	assert_int_equal(found, 2);
}

static void
test_check_engine_without_dfrc_reads_no_960_field(void **state)
{
	struct sim *s = *state;

	/* The other 960 positions give one colour rights: only the DFRC
	 * steps show it, in both dialects, for White and for Black. */
	assert_int_equal(run(s, SIM_SYMMETRIC, "Sim", FB_CHECK_UCI), 1);
	assert_true(has(s, "wrong    Chess960 mode, X-FEN (DFRC, inner rook, "
			   "both colours' rights): castles in "
			   "3k3r/2p1p3/B5B1/8/8/8/8/RR1K4 w Bk - 0 1"));
	assert_true(has(s, "wrong    Chess960 mode, Shredder-FEN (DFRC, "
			   "inner rook, both colours' rights, Black)"));
	assert_true(has(s, "ok       Chess960 mode, X-FEN (960, inner rook)"));
	assert_true(has(s, "  - Chess960 mode: reads neither X-FEN nor "
			   "Shredder-FEN castling rights\n"));
}

static void
test_check_good_engine_passes(void **state)
{
	struct sim *s = *state;

	assert_int_equal(run(s, SIM_GOOD, "Sim 1", FB_CHECK_AUTO), 0);
	assert_true(has(s, "protocol: UCI\n"));
	assert_true(has(s, "engine-protocol = uci\n"));
	assert_true(has(s, "engine-fen = auto\n"));
	assert_true(has(s, "engine-castling = auto\n"));
	assert_true(has(s, "emits castles in Chess960 mode as king takes "
			   "rook (e1h1)"));
	assert_true(has(s, "emits castles in standard mode as king move "
			   "(e1g1)"));
	assert_non_null(strstr(s->sent, "setoption name UCI_Chess960 value "
					"true\n"));
	assert_non_null(strstr(s->sent, "quit\n"));
	assert_true(has(s, "ok       go ponder, then ponderhit"));
	assert_true(has(s, "ok       go ponder, then stop"));
	assert_true(has(s, "ok       MultiPV 3"));
	/* 10x8: the king's move in capablanca, king takes rook in
	 * caparandom, as in 8x8. */
	assert_true(has(s, "ok       capablanca mode: accepts a castle as king "
			   "move (10x8, corner rook): "));
	assert_true(has(s, "wrong    capablanca mode: accepts a castle as king "
			   "takes rook (10x8, corner rook, Black)"));
	assert_true(has(s, "ok       caparandom mode: accepts a castle as king "
			   "takes rook (10x8, inner rook, Black): "));
	/* The capablanca position is read in caparandom mode too. */
	assert_true(has(s,
			"ok       caparandom mode, Shredder-FEN (10x8, corner "
			"rook): "));
	assert_non_null(strstr(s->sent,
			       "ucinewgame\nposition fen "
			       "7k2/10/4B1B2P/p9/10/10/10/1K4R2R w G - "
			       "0 1 moves b1g1\n"));
	assert_true(has(s, "ok       Chess960 mode, Shredder-FEN (DFRC, inner "
			   "rook, both colours' rights, Black): castles in "
			   "rr1k4/8/8/8/8/b5b1/2P1P3/3K3R b Hb - 0 1: d8b8\n"));
	assert_non_null(strstr(s->sent, "go ponder wtime 2000 btime 2000\n"
					"ponderhit\n"));
	/* Janus and Embassy through UCI_Variant, by their rules: the king
	 * to b1 (Janus), to h1 (Embassy). */
	assert_non_null(strstr(s->sent, "setoption name UCI_Variant value "
					"janus\n"));
	assert_true(has(s, "ok       janus mode, Shredder-FEN (10x8, a-rook): "
			   "castles in 10/3R6/10/10/10/P1k7/B9/R3K5 w A - 0 1: "
			   "e1b1\n"));
	assert_true(has(s, "ok       embassy mode, X-FEN (10x8, corner rook): "
			   "castles in 5R4/10/10/10/10/6k1P1/8P1/4K4R w K - 0 "
			   "1: e1h1\n"));
	assert_true(has(s, "ok       embassy mode: accepts a castle as king "
			   "move (10x8, corner rook, Black): g1f2"));
	assert_non_null(strstr(s->sent, "setoption name UCI_Variant value "
					"chess\n"));
}

/* An engine that lists Janus and Embassy but castles there as in
 * Capablanca misses every castle of theirs: it reads neither dialect, and
 * takes their castles in no form. */
static void
test_check_janus_by_capablanca_rules_is_a_finding(void **state)
{
	struct sim *s = *state;

	assert_int_equal(run(s, SIM_CAPA_RULES, "Sim C", FB_CHECK_UCI), 2);
	assert_true(has(s, "ok       capablanca mode, X-FEN (10x8, corner "
			   "rook)"));
	assert_true(has(s, "wrong    janus mode, X-FEN (10x8, a-rook): "));
	assert_true(has(s, "wrong    janus mode, Shredder-FEN (10x8, a-rook, "
			   "Black): "));
	assert_true(has(s, "wrong    embassy mode, X-FEN (10x8, corner "
			   "rook): "));
	/* e1h1 is no move by Capablanca's rules: it answers for White. */
	assert_true(has(s, "ILLEGAL  embassy mode: accepts a castle as king "
			   "move (10x8, corner rook): "));
	assert_true(has(s, "  - standard mode: reads neither X-FEN nor "
			   "Shredder-FEN castling rights\n"));
	assert_true(has(s, "  - standard mode: takes a castle in no form "
			   "fenbridge can send\n"));
}

static void
test_check_early_ponder_and_one_multipv_line_are_findings(void **state)
{
	struct sim *s = *state;

	assert_int_equal(run(s, SIM_EARLY_PONDER, "Sim", FB_CHECK_UCI), 3);
	assert_true(has(s, "wrong    go ponder, then ponderhit: a move on "
			   "the clock: early"));
	assert_true(has(s, "wrong    go ponder, then stop (a miss): bestmove: "
			   "early"));
	assert_true(has(s, "wrong    MultiPV 3: 3 lines with legal pvs: only "
			   "lines 0x2"));
}

static void
test_check_death_on_file_letter_is_a_finding(void **state)
{
	struct sim *s = *state;

	/* White's H and A: the simulated engine reads lower case as K/Q. */
	assert_int_equal(run(s, SIM_DIE_LETTER, "Sim 2", FB_CHECK_AUTO), 2);
	assert_true(has(s, "DIED     standard mode, Shredder-FEN (standard, "
			   "h-rook)"));
	assert_true(has(s, "DIED     standard mode, Shredder-FEN (standard, "
			   "a-rook)"));
	assert_true(has(s, "ok       standard mode, Shredder-FEN (standard, "
			   "a-rook, Black)"));
	assert_true(has(s, "engine-fen = xfen\n"));
	assert_true(has(s, "restarts: 2\n"));
	assert_true(has(s, "ok       quit"));
	/* No Chess960 mode: none of its steps. */
	assert_null(strstr(s->report, "Chess960 mode, X-FEN"));
}

static void
test_check_kq_misreader_gets_shredder_whatever_its_name(void **state)
{
	struct sim *s = *state;
	char first[FB_CHECK_REPORT_MAX];

	assert_int_equal(run(s, SIM_KQ_CORNER, "Glaurung 2.2", FB_CHECK_AUTO),
			 0);
	assert_true(has(s, "engine-fen = shredder\n"));
	assert_true(has(s, "wrong    Chess960 mode, X-FEN (960, rook off the "
			   "corner)"));
	strcpy(first, strchr(s->report, '\n'));
	assert_int_equal(run(s, SIM_KQ_CORNER, "Renamed", FB_CHECK_AUTO), 0);
	assert_string_equal(strchr(s->report, '\n'), first);
}

static void
test_check_xboard_without_setboard(void **state)
{
	struct sim *s = *state;

	run(s, SIM_XB_NOSETUP, "", FB_CHECK_AUTO);
	assert_true(has(s, "protocol: XBoard (CECP)\n"));
	assert_true(has(s, "engine-protocol = xboard\n"));
	assert_true(has(s, "# engine-fen: not tested (no setboard"));
	assert_true(has(s, "ok       ping answered"));
	assert_null(strstr(s->sent, "setboard"));
}

static void
test_check_xboard_edit_engine_reads_rights_from_the_pieces(void **state)
{
	struct sim *s = *state;

	/* Standard chess only (no fischerandom): the positions whose rights
	 * edit can carry, once each (no castling field to vary). */
	assert_int_equal(run(s, SIM_XB_EDIT, "", FB_CHECK_XBOARD), 0);
	assert_true(has(s, "ok       standard mode, edit (standard, h-rook): "
			   "castles in 8/8/8/2q5/B5p1/3pR3/7Q/2k1K2R w K - 0 "
			   "1: e1g1\n"));
	assert_true(has(s, "ok       standard mode, edit (standard, a-rook, "
			   "Black)"));
	assert_true(has(s, "ok       standard mode: accepts a castle as king "
			   "move (standard, a-rook, Black)"));
	assert_true(has(s, "# engine-fen: not tested (no setboard: positions "
			   "through edit"));
	assert_null(strstr(s->report, "Shredder-FEN"));
	assert_null(strstr(s->sent, "setboard"));
	/* Black to move: a White move first, then edit. */
	assert_non_null(strstr(s->sent, "new\nforce\nusermove a2a3\nedit\n#\n"
					"Qc4\nPg5\nPd6\nKc8\nc\n"));
}

static void
test_check_xboard_edit_engine_without_castling_is_a_finding(void **state)
{
	struct sim *s = *state;

	/* 4 read steps miss the castle; the accept ones find no castle to
	 * take in any form. */
	assert_int_equal(run(s, SIM_XB_EDIT_MOVED, "", FB_CHECK_XBOARD), 5);
	assert_true(
		has(s, "  - wrong: standard mode, edit (standard, h-rook)"));
	assert_true(has(s, "  - standard mode: takes a castle in no form"));
}

static void
test_check_xboard_engine_passes(void **state)
{
	struct sim *s = *state;

	assert_int_equal(run(s, SIM_XB, "", FB_CHECK_AUTO), 0);
	assert_true(has(s, "engine: XSim\nprotocol: XBoard (CECP)\n"));
	assert_true(has(s, "ok       Chess960 mode: accepts a castle as O-O"));
	assert_true(has(s, "wrong    Chess960 mode: accepts a castle as king "
			   "move (960, inner rook): refused"));
	assert_true(has(s, "ok       new after variant fischerandom"));
	assert_true(has(s, "ok       caparandom mode: accepts a castle as O-O "
			   "(10x8, inner rook): "));
	assert_true(has(s, "ok       capablanca mode: accepts a castle as king "
			   "move (10x8, corner rook, Black): "));
	assert_true(has(s, "wrong    caparandom mode: accepts a castle as king "
			   "move (10x8, inner rook): refused"));
	/* Janus and Embassy, which it lists, last: new after them. */
	assert_true(has(s, "ok       janus mode: accepts a castle as king move "
			   "(10x8, a-rook): c8d7"));
	assert_true(has(s, "ok       embassy mode, Shredder-FEN (10x8, corner "
			   "rook, Black): castles in "
			   "4k4r/8p1/6K1p1/10/10/10/10/5r4 b j - 0 1: e8h8"));
	assert_non_null(strstr(s->sent, "new\nvariant janus\nforce\nsetboard "
					"10/3R6/10/10/10/P1k7/B9/R3K5 w Q - "
					"0 1\n"));
	assert_true(has(s, "ok       new after variant embassy"));
	assert_true(has(s, "ok       ? (move now) answered"));
	assert_true(has(s, "ok       hard: its move, then its ponder move: a "
			   "legal answer: b1c3 a7a6 "));
	assert_true(has(s, "ok       hard: its move, then another (a miss): a "
			   "legal answer: b1c3 a7a5 "));
	assert_true(has(s, "ok       analyze: thinking with legal pvs; exit, "
			   "then pong\n"));
	assert_non_null(strstr(s->sent, "new\nhard\npost\nsd 3\nping "));
	assert_non_null(strstr(s->sent, "analyze\nexit\nping "));
	assert_true(has(s, "engine-castling = auto\n"));
	assert_non_null(strstr(s->sent, "usermove O-O\n"));
	assert_non_null(strstr(s->sent, "variant fischerandom\nforce\n"
					"setboard "));
}

static void
test_check_xboard_ponder_miss_and_analyze_without_thinking(void **state)
{
	struct sim *s = *state;

	assert_int_equal(run(s, SIM_XB_PONDER_BAD, "", FB_CHECK_XBOARD), 2);
	assert_true(has(s, "  - SILENT: hard: its move, then another (a "
			   "miss): a legal answer\n"));
	assert_true(has(s, "  - wrong: analyze: thinking with legal pvs; "
			   "exit, then pong: no thinking\n"));
	/* The hit: the reply its pv predicted. */
	assert_true(has(s, "ok       hard: its move, then its ponder move: a "
			   "legal answer: b1c3 a7a6 "));
}

static void
test_check_xboard_new_that_keeps_the_variant_is_a_finding(void **state)
{
	struct sim *s = *state;

	assert_int_equal(run(s, SIM_XB_STICKY, "", FB_CHECK_XBOARD), 1);
	assert_true(has(s, "  - wrong: new after variant fischerandom: "
			   "standard chess again (takes the king's move "
			   "e1g1): refused"));
	/* The standard steps came first: unspoilt. */
	assert_true(has(s, "ok       standard mode: accepts a castle as king "
			   "move (standard, h-rook)"));
}

static void
test_check_gnu_chess_is_judged_by_its_answers(void **state)
{
	struct sim *s = *state;

	/* Its refusal of sd is no refusal of the castle; a late pong is not
	 * the one awaited; its searches end with ? at the depth; its move
	 * announced again is no answer to the next question; woken at start
	 * by empty lines, asked for its features again. */
	assert_int_equal(run(s, SIM_XB_GNU, "", FB_CHECK_XBOARD), 0);
	assert_true(has(s, "engine: GNU Sim\n"));
	assert_true(has(s, "setboard yes, usermove yes, ping yes"));
	assert_true(has(s, "ok       ping answered"));
	assert_true(has(s, "ok       standard mode, X-FEN (standard, h-rook): "
			   "castles in 8/8/8/2q5/B5p1/3pR3/7Q/2k1K2R w K - 0 "
			   "1: e1g1\n"));
	assert_true(has(s, "ok       standard mode: accepts a castle as king "
			   "move (standard, h-rook): a1b2\n"));
	assert_true(has(s, "wrong    standard mode: accepts a castle as king "
			   "takes rook (standard, h-rook): refused\n"));
	assert_true(has(s, "ok       hard: its move, then its ponder move: a "
			   "legal answer"));
	assert_true(has(s, "ok       hard: its move, then another (a miss): a "
			   "legal answer"));
	assert_true(has(s, "ok       analyze: thinking with legal pvs"));
	assert_true(has(s, "ok       ? (move now) answered"));
	assert_true(has(s, "restarts: 0\n"));
	assert_true(has(s, "engine-fen = auto\n"));
	assert_true(has(s, "engine-castling = auto\n"));
	/* sd once: refused, never again; the set-up ends with the pong of
	 * its own ping. */
	assert_non_null(strstr(s->sent, "post\nsd 3\nping 3\ngo\n?\n"));
	assert_null(strstr(s->sent + (strstr(s->sent, "sd 3") - s->sent) + 1,
			   "sd 3"));
}

static void
test_check_silent_engine_has_no_handshake(void **state)
{
	struct sim *s = *state;

	assert_int_equal(run(s, SIM_SILENT, "", FB_CHECK_AUTO), 1);
	assert_true(has(s, "protocol: none found\n"));
	assert_true(has(s, "no handshake"));
}

static void
test_check_ignored_stop_is_a_finding(void **state)
{
	struct sim *s = *state;

	/* Neither after go infinite nor after go ponder. */
	assert_int_equal(run(s, SIM_NO_STOP, "Sim", FB_CHECK_UCI), 2);
	assert_true(has(s, "SILENT: go ponder, then stop (a miss)"));
	assert_true(has(s, "SILENT: stop during go infinite answered"));
	assert_non_null(strstr(s->sent, "go infinite\nstop\n"));
}

/* Whatever an engine writes, whenever: the script never breaks, and
 * timeouts and exits still bring it to its end. */
static void
test_check_survives_any_line_at_any_time(void **state)
{
	static const char *const junk[] = {
		"",
		" ",
		"bestmove",
		"bestmove ",
		"bestmove e1g1 ponder",
		"bestmove zz99",
		"bestmove (none)",
		"bestmove 0000",
		"bestmove O-O-O",
		"readyok extra",
		"uciok",
		"id name",
		"option name",
		"option name UCI_Variant type combo var",
		"info multipv 99 pv e2e4",
		"info multipv 2 pv",
		"feature",
		"feature done=1",
		"feature variants=\"caparandom\" done=0",
		"move",
		"move e2e4",
		"pong",
		"pong 99",
		"Error",
		"Illegal move",
		"Error (unknown command): ?",
		"\x01\x02\x7f",
	};
	struct sim *s = *state;
	struct fb_check_out out;
	char big[4096];

	memset(big, 'e', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	for (int want = FB_CHECK_AUTO; want <= FB_CHECK_XBOARD; want++)
		for (size_t j = 0; j <= sizeof junk / sizeof junk[0]; j++) {
			const char *line = j < sizeof junk / sizeof junk[0]
						   ? junk[j]
						   : big;
			int guard = 0;
			fb_check_init(&s->ck, (enum fb_check_protocol)want,
				      1000, 1000);
			fb_check_start(&s->ck, &out);
			while (!fb_check_done(&s->ck) && guard++ < 400) {
				fb_check_line(&s->ck, line, strlen(line), &out);
				if (out.restart)
					fb_check_start(&s->ck, &out);
				if (guard % 3 == 0)
					fb_check_line(&s->ck, "uciok", 5, &out);
				if (guard % 5 == 0)
					fb_check_line(&s->ck, "feature done=1",
						      14, &out);
				if (out.restart)
					fb_check_start(&s->ck, &out);
				fb_check_timeout(&s->ck, &out);
				if (out.kill)
					fb_check_exit(&s->ck, 0, 9, &out);
				if (out.restart)
					fb_check_start(&s->ck, &out);
			}
			assert_true(fb_check_done(&s->ck));
			assert_true(fb_check_report(&s->ck, s->report,
						    sizeof s->report) > 0);
		}
}

static int
setup(void **state)
{
	static struct sim s;

	*state = &s;
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_check_positions_have_one_castle_that_mates),
		cmocka_unit_test(test_check_960_position_differs_by_dialect),
		cmocka_unit_test(
			test_check_janus_embassy_mate_by_their_rules_only),
		cmocka_unit_test(
			test_check_dfrc_position_has_both_colours_rights),
		cmocka_unit_test(test_check_good_engine_passes),
		cmocka_unit_test(
			test_check_janus_by_capablanca_rules_is_a_finding),
		cmocka_unit_test(
			test_check_engine_without_dfrc_reads_no_960_field),
		cmocka_unit_test(test_check_death_on_file_letter_is_a_finding),
		cmocka_unit_test(
			test_check_kq_misreader_gets_shredder_whatever_its_name),
		cmocka_unit_test(test_check_xboard_without_setboard),
		cmocka_unit_test(test_check_xboard_engine_passes),
		cmocka_unit_test(
			test_check_xboard_edit_engine_reads_rights_from_the_pieces),
		cmocka_unit_test(
			test_check_xboard_edit_engine_without_castling_is_a_finding),
		cmocka_unit_test(
			test_check_xboard_new_that_keeps_the_variant_is_a_finding),
		cmocka_unit_test(
			test_check_xboard_ponder_miss_and_analyze_without_thinking),
		cmocka_unit_test(test_check_gnu_chess_is_judged_by_its_answers),
		cmocka_unit_test(test_check_silent_engine_has_no_handshake),
		cmocka_unit_test(test_check_ignored_stop_is_a_finding),
		cmocka_unit_test(
			test_check_early_ponder_and_one_multipv_line_are_findings),
		cmocka_unit_test(test_check_survives_any_line_at_any_time),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
