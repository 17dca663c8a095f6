/* SPDX-License-Identifier: MIT */
/*
 * An XBoard (CECP v2) GUI with a UCI engine: the pair's state and the
 * functions its files share, private to protocols/xboard_uci/.
 *
 * The GUI speaks CECP (Tim Mann's "Chess Engine Communication Protocol",
 * protover 2); the engine speaks UCI. XBoard tells its engine every move
 * and expects it to keep the game; a UCI engine keeps nothing and is sent
 * the game before each search. So this pair keeps the game and what the
 * engine was last sent of it, and maps the events the codecs read from
 * each side (cecp_codec.h for the GUI, uci_codec.h for the engine) to
 * lines for the other. Every decision of notation, dialect, variant and
 * re-anchoring is the policy record's (policy.h).
 *
 * The files, by concern:
 *   pair.c      the descriptor: state, the two line handlers (each line
 *               read once through its codec), the GUI's lines held during
 *               the handshake
 *   lifecycle.c the state (enum fb_xbu_state) and its one transition function
 *   handshake.c uci/uciok, the engine's id and options as features, the
 *               GUI's option/memory/cores/egtpath
 *   game.c      the game and the engine's position line, kept in sync
 *               incrementally; variants and re-anchoring
 *   search.c    clocks and go lines, bestmove, pondering, ping
 *   thinking.c  info lines as thinking output (the hot path)
 *
 * No I/O in these files.
 */
#ifndef FB_XBOARD_UCI_H
#define FB_XBOARD_UCI_H

#include <stdbool.h>
#include <stddef.h>

#include "cecp_codec.h"
#include "fenbridge/movegen.h"
#include "policy.h"
#include "proto.h"
#include "uci_codec.h"

/* How long the GUI waits for the engine's uciok before it is told. */
#define FB_XBU_UCIOK_MS 10000

/*
 * The session, as one state: where the handshake is, what the engine is
 * doing for the game, and in which of CECP's modes (playing a colour,
 * force, analyze). Only fb_xbu_step() changes it (lifecycle.c). Whether the
 * game is over is the game's own fact (struct xbu: over).
 */
enum fb_xbu_state {
	FB_XBU_START,        /* the engine was asked nothing yet */
	FB_XBU_HELLO,        /* `uci` sent: its id and options come until uciok
			    (or FB_XBU_UCIOK_MS); the GUI's lines wait */
	FB_XBU_WAITING,      /* it plays engine_side; no search: not its turn,
			    or the game is over */
	FB_XBU_FORCE,        /* force: it plays neither colour */
	FB_XBU_THINKING,     /* go: its bestmove is its move in the game */
	FB_XBU_PONDERING,    /* go ponder on the reply it expects (ponder) */
	FB_XBU_ANALYZING,    /* analyze: go infinite on the game, restarted
			    after each change of it */
	FB_XBU_ANALYZE_IDLE, /* analyze mode without a search (after force,
			    result, variant): the next change starts one */
};

/* What happens to the session; each goes through fb_xbu_step(). */
enum fb_xbu_event {
	FB_XBU_EV_OPEN,    /* the GUI's first line: ask the engine (uci) */
	FB_XBU_EV_LISTED,  /* uciok, or the wait for it given up */
	FB_XBU_EV_NEW,     /* new */
	FB_XBU_EV_STOP,    /* stop what the engine does: the game is about to
			    change (a move, undo, variant, setboard, result,
			    quit) */
	FB_XBU_EV_CHANGED, /* the game changed (a move, setboard): the engine
			    thinks when that is its job now */
	FB_XBU_EV_UNDONE,  /* undo/remove took moves back */
	FB_XBU_EV_FORCE,
	FB_XBU_EV_GO,
	FB_XBU_EV_PLAYOTHER,
	FB_XBU_EV_ANALYZE,
	FB_XBU_EV_EXIT,
	FB_XBU_EV_MOVENOW,   /* ? */
	FB_XBU_EV_EASY,      /* easy: no pondering */
	FB_XBU_EV_PONDERHIT, /* the GUI's move is the one pondered on */
	FB_XBU_EV_PONDER,    /* go ponder was sent */
	FB_XBU_EV_BESTMOVE,  /* a bestmove: true when it is the engine's move */
};

/* A UCI option the GUI may set: its name and type (`option NAME=VALUE`
 * needs the type: a check's 1 is UCI's true). */
struct fb_xbu_option {
	char *name;
	enum fb_uci_type type;
};

/*
 * The engine's position line: `position startpos|fen F [moves ...]\n` as
 * last built, covering the game's first `ply` moves, and the board after
 * them. A new move is appended (a castle the engine cannot read restarts
 * the line from the position after it); the line is rebuilt from the
 * start only when the game was set anew or moves were taken back, or when
 * the policy's answers it was built with changed.
 */
struct fb_xbu_sync {
	struct fb_buf text;
	bool valid;
	size_t ply;
	struct fb_game end;
	bool moves;       /* " moves" is written */
	unsigned anchors; /* re-anchorings so far (a mark before one cannot
			     be restored: the text was replaced) */
	/* the policy's answers the line was built with */
	enum fb_castle_notation notation;
	bool standard;
	struct fb_fen_style style;
};

/* The line up to some ply, to go back to (the reply pondered on). */
struct fb_xbu_mark {
	size_t len, ply;
	struct fb_game end;
	bool moves;
	unsigned anchors;
};

struct xbu {
	const struct fb_filter_options *opt;
	struct fb_policy pol;
	enum fb_xbu_state state;
	/* analyze's mode to go back to on exit (FB_XBU_WAITING or FB_XBU_FORCE);
	 * meaningful in the analyze states only */
	enum fb_xbu_state after_analyze;
	unsigned stale;     /* bestmoves still owed to fenbridge's own stops */
	bool protover;      /* the GUI said protover 2: it wants features */
	struct fb_buf held; /* GUI lines waiting for the handshake, "\n" each */

	/* What the engine declared (with pol: UCI_Chess960, UCI_Variant). */
	char name[128];
	bool has_hash, has_threads, has_syzygy, has_ponder;
	struct fb_buf feat_options; /* `feature option=...` lines */
	struct fb_xbu_option *options;
	size_t noptions;
	bool engine_ponder; /* Ponder true sent */
	/* The GUI's castling notation when the engine's differs (the pv's
	 * castles are rewritten), else FB_CASTLE_AUTO: the policy's answers
	 * for the search in progress (they cannot change during one), asked
	 * once per search rather than per info line. */
	enum fb_castle_notation pv_castling;

	/* The game: the start (new, variant, setboard), the moves since, the
	 * board after them. */
	struct fb_game start, cur;
	bool startpos; /* start is the normal start: `position startpos` */
	/* The game has a result: a mate or stalemate on the board (the GUI's
	 * move, or the engine's, claimed), or the GUI's result. The engine is
	 * not asked to move (go still asks) until new, setboard or undo. */
	bool over;
	struct fb_move *moves;
	size_t nmoves, cap_moves;
	struct fb_xbu_sync sync;
	/* The legal moves of cur, generated once per position: a move is
	 * checked and the game's end seen with one generation. */
	struct fb_move legal[FB_MOVES_MAX];
	size_t nlegal, legal_ply;
	bool legal_ok; /* for the position after legal_ply moves */

	/* What this game's log and GUI were told already (once per game: a
	 * tournament has many games). */
	bool logged_anchor, logged_rights, logged_clock, told_gui;

	/* Settings and clocks. */
	bool post, hard;
	struct fb_move ponder; /* the reply pondered on (FB_XBU_PONDERING) */
	int engine_side;       /* the colour the engine plays */
	int mps;               /* moves per period, 0: the whole game */
	long long base_ms, inc_ms, st_ms;
	int sd;
	long long time_cs, otim_cs; /* -1: not told */
	bool level;

	/* ping numbers waiting for readyok, oldest first */
	long long pings[16];
	unsigned npings;
};

/* lifecycle.c */
/* The one transition function: event ev, brought by the line
 * text[0..len) (for reports; NULL, 0 when none). Returns false when the
 * event does not apply in the state (a stale or stray bestmove, a late
 * uciok, ...). */
bool
fb_xbu_step(struct xbu *x, enum fb_xbu_event ev, const char *text, size_t len,
	    const struct fb_sink *out);
/* The engine searches (think, ponder, analyze). */
bool
fb_xbu_searching(const struct xbu *x);
bool
fb_xbu_analyze_mode(const struct xbu *x);
/* The engine's info lines are of a search the GUI sees. */
bool
fb_xbu_thinking_shown(const struct xbu *x);

/* handshake.c */
void
fb_xbu_ask_engine(struct xbu *x, const struct fb_sink *out);
void
fb_xbu_features(struct xbu *x, const struct fb_sink *out);
void
fb_xbu_engine_id(struct xbu *x, const char *text, size_t len,
		 const struct fb_sink *out);
void
fb_xbu_engine_option(struct xbu *x, const char *text, size_t len,
		     const struct fb_sink *out);
void
fb_xbu_engine_uciok(struct xbu *x, const struct fb_sink *out);
bool
fb_xbu_uciok_timeout(struct xbu *x, const struct fb_sink *out);
void
fb_xbu_gui_option(struct xbu *x, const char *text, struct fb_span arg,
		  const struct fb_sink *out);
void
fb_xbu_gui_resource(struct xbu *x, const char *uci, bool has, const char *text,
		    size_t len, struct fb_span arg, const struct fb_sink *out);
void
fb_xbu_options_free(struct xbu *x);

/* game.c */
void
fb_xbu_game_reset(struct xbu *x, const struct fb_variant *v);
bool
fb_xbu_game_push(struct xbu *x, const struct fb_move *m);
void
fb_xbu_game_undo(struct xbu *x, size_t plies);
void
fb_xbu_gui_setboard(struct xbu *x, const char *text, struct fb_span arg,
		    const struct fb_sink *out);
void
fb_xbu_gui_variant(struct xbu *x, const char *text, struct fb_span arg,
		   const struct fb_sink *out);
void
fb_xbu_gui_move(struct xbu *x, const char *text, struct fb_span mv,
		const struct fb_sink *out);
void
fb_xbu_sync_variant(struct xbu *x, const struct fb_sink *out);
void
fb_xbu_send_position(struct xbu *x, const struct fb_sink *out);
/* Brings the line to the game's last move and marks it there; restores a
 * mark after a move was appended (the reply pondered on), or makes the
 * next search rebuild the line when that cannot be done. */
void
fb_xbu_mark(struct xbu *x, struct fb_xbu_mark *m, const struct fb_sink *out);
void
fb_xbu_restore(struct xbu *x, const struct fb_xbu_mark *m);
int
fb_xbu_print_move(const struct fb_game *g, const struct fb_move *m,
		  enum fb_castle_notation n, char out[static 8]);
bool
fb_xbu_same_move(const struct fb_move *a, const struct fb_move *b);
/* fb_moves_is_legal and fb_moves_end on cur, from its legal moves. */
bool
fb_xbu_legal(struct xbu *x, const struct fb_move *m);
enum fb_game_end
fb_xbu_end(struct xbu *x);

/* search.c */
void
fb_xbu_start_search(struct xbu *x, bool analyze, const struct fb_sink *out);
void
fb_xbu_bestmove(struct xbu *x, const char *text, size_t len,
		const struct fb_sink *out);
void
fb_xbu_gui_level(struct xbu *x, const char *text, size_t len,
		 struct fb_span arg, const struct fb_sink *out);
void
fb_xbu_gui_clock(long long *cs, const char *text, size_t len,
		 struct fb_span arg, const struct fb_sink *out);
long long
fb_xbu_seconds_ms(const char *text, size_t start, size_t n);
long long
fb_xbu_number(const char *text, size_t start, size_t n, bool *ok);
void
fb_xbu_ping(struct xbu *x, const char *text, struct fb_span arg,
	    const struct fb_sink *out);
void
fb_xbu_readyok(struct xbu *x, const struct fb_sink *out);

/* thinking.c */
void
fb_xbu_engine_info(struct xbu *x, const char *text, size_t len,
		   const struct fb_sink *out);

#endif
