/* SPDX-License-Identifier: MIT */
/*
 * The UCI GUI / XBoard engine pair's private header: its state, the one
 * lifecycle that runs the handshake and the search, and what each file of
 * protocols/uci_xboard/ does for the others:
 *
 *   pair.c       the pair's descriptor; each line read once through its
 *                codec (uci_codec.h, cecp_codec.h) and mapped; the GUI's
 *                lines held during the handshake
 *   lifecycle.c  the state (enum fb_uxb_state) and its one transition
 *                function (fb_uxb_lifecycle); the timer
 *   handshake.c  uci -> xboard + protover 2, the engine's features and
 *                options, the GUI's id/options/uciok, setoption
 *   game.c       the GUI's position -> the engine's game: new moves only,
 *                or new, variant, setboard / edit; re-anchoring
 *   search.c     go -> level/time/otim/st/sd/nps + go, or analyze; stop,
 *                ponderhit; bestmoves that end an analysis
 *   thinking.c   the engine's thinking output, moves, results and errors
 *                -> info, bestmove, info string
 *
 * Every decision about notations, FEN style, variants and re-anchoring is
 * the policy's (policy.h); the pair fills the record from what it reads.
 *
 * No I/O in these files.
 */
#ifndef FB_UCI_XBOARD_H
#define FB_UCI_XBOARD_H

#include <stdbool.h>
#include <stddef.h>

#include "cecp_codec.h"
#include "fenbridge/game.h"
#include "policy.h"
#include "proto.h"
#include "uci_codec.h"

/* CECP: a GUI waits 2 s for the features of a protover-2 engine; done=0
 * asks it to wait for done=1, which a broken engine may never send. An
 * engine that has sent no feature yet is nudged every FB_UXB_NUDGE_MS for
 * up to FB_UXB_SILENT_MS, as long as XBoard itself waits for it: GNU Chess
 * 6.2.7 hangs at start until a line wins a race (see fb_uxb_nudge), which
 * on a loaded machine took more than the 2 s (CI, twice), and may hang
 * again after its banner. From its first feature an engine gets the rest
 * of FB_UXB_FEATURE_MS. */
#define FB_UXB_FEATURE_MS 2000
#define FB_UXB_FEATURE_DONE0_MS 30000
#define FB_UXB_NUDGE_MS 100
#define FB_UXB_SILENT_MS 10000
/* How long a stopped analysis may take to show its first pv. */
#define FB_UXB_STOP_WAIT_MS 5000

#define FB_UXB_MYNAME_MAX 128
#define FB_UXB_OPTIONS_MAX 64

/*
 * The session's lifecycle. Only fb_uxb_lifecycle() changes it. The states
 * that wait for time have the sink's one timer running: HELLO (a nudge
 * every FB_UXB_NUDGE_MS), FEATURES (the rest of FB_UXB_FEATURE_MS, or
 * FB_UXB_FEATURE_DONE0_MS after done=0), TIMED (a go movetime's deadline),
 * STOPPING (FB_UXB_STOP_WAIT_MS).
 */
enum fb_uxb_state {
	FB_UXB_START,     /* before the GUI's uci */
	FB_UXB_HELLO,     /* xboard + protover 2 sent; nothing heard yet */
	FB_UXB_FEATURES,  /* the engine's features come, until done=1 */
	FB_UXB_IDLE,      /* uciok sent; the engine is in force mode */
	FB_UXB_THINKING,  /* go: the engine will move */
	FB_UXB_TIMED,     /* go movetime: likewise, and ? at the deadline */
	FB_UXB_MOVENOW,   /* ? sent (stop, deadline, depth): its move comes */
	FB_UXB_ANALYZING, /* go infinite (or a go without limits): analyze */
	FB_UXB_PONDERING, /* go ponder: analyze until ponderhit or stop */
	FB_UXB_STOPPING,  /* stop before the analysis showed a pv: its first
			     pv is the bestmove */
};

/* What happens to the session; each goes through fb_uxb_lifecycle(). */
enum fb_uxb_event {
	FB_UXB_EV_UCI,   /* the GUI's uci */
	FB_UXB_EV_HEARD, /* the engine's first feature after protover 2 */
	FB_UXB_EV_DONE,  /* feature done=1 */
	FB_UXB_EV_TIMER, /* the one timer ran out */
	FB_UXB_EV_GO,    /* the GUI's go (read into x->go) */
	FB_UXB_EV_STOP,  /* stop, or a position during a search */
	FB_UXB_EV_PONDERHIT,
	FB_UXB_EV_PV,    /* thinking output (arg: its ply) was shown */
	FB_UXB_EV_MOVED, /* the engine moved, resigned or claimed a result
				while it was asked to move */
};

/* What the engine can do, from its features (CECP defaults). What the
 * policy decides from (variants, oocastle, the quirk) is in the policy. */
struct fb_uxb_features {
	bool usermove, san, setboard, ping, analyze, nps;
	char myname[FB_UXB_MYNAME_MAX];
};

/* One of the engine's `feature option=` lines, for setoption. */
enum fb_uxb_opt_type { FB_UXB_OPT_BUTTON, FB_UXB_OPT_CHECK, FB_UXB_OPT_VALUE };

struct fb_uxb_option {
	char name[64];
	enum fb_uxb_opt_type type;
};

struct uxb {
	const struct fb_filter_options *opt;
	struct fb_policy pol;
	enum fb_uxb_state state;

	/* The handshake. */
	struct fb_uxb_features f;
	struct fb_uxb_option options[FB_UXB_OPTIONS_MAX];
	size_t noptions;
	struct fb_buf uci_options; /* the UCI option lines for the GUI */
	/* The GUI's lines after uci, held until done=1 (CECP: nothing but
	 * the answers to features before it), "\n" after each; no_hold:
	 * they did not fit, and go on as they come. */
	struct fb_buf held;
	bool no_hold;
	unsigned pending_ready; /* isready before uciok */
	unsigned ping_sent, pong_seen;
	unsigned nudges; /* empty lines sent to a silent engine */
	/* The engine spoke since the last nudge, but sent no feature: GNU
	 * Chess, awake after a hang, has lost the `protover 2` it read
	 * meanwhile; it is asked again (reasks times so far). */
	bool spoke;
	unsigned reasks;
	/* UCI_Chess960 as the GUI set it: it makes normal chess Chess960
	 * (pol.gui_960), and no other variant. */
	bool uci_960;

	/* The engine's game: the GUI's position line (normalised: tokens
	 * joined by one blank) that it has, where its moves start, and its
	 * board. */
	struct fb_buf have;
	size_t have_base;
	bool have_valid;
	/* The GUI's last position is not of the engine's variant (a 10x8
	 * FEN while it plays 8x8: a UCI_Variant it does not play): it was
	 * not sent, and a go gets bestmove 0000. */
	bool refused;
	struct fb_game game;

	/* What was said of this game (reset by ucinewgame or a new start):
	 * the log hears of emulation and re-anchoring at info level once per
	 * game, the GUI once per game. */
	char start[256];
	size_t start_len;
	bool logged_emulation, logged_anchor, told_gui;

	/* The search. */
	struct fb_uci_go go;        /* the last go */
	bool go_held;               /* it came before uciok: it runs then */
	struct fb_uci_go ponder_go; /* the go ponder to run at ponderhit */
	char pv[2][24];             /* the last pv's first two moves (GUI) */
	/* Time control sent this game: "level ..." or "st N", to resend only
	 * when it changes. */
	char control[64];
	bool depth_set;  /* an sd of a go depth is in force */
	bool no_sd;      /* the engine rejected sd */
	bool no_movenow; /* the engine rejected ? (Fairy-Max: after its move) */
	bool analysed;   /* no setboard, and no timed search since analysis */
	bool restored;   /* xboard mode restored since the last analysis */
	long long depth_goal; /* this search's go depth, or 0 */
	/* The last move taken from the engine, and in which form: a second
	 * announcement in another form is the same move (GNU Chess writes
	 * "1. ... g1f3", then "My move is : g1f3"). */
	char echo[24];
	enum fb_cecp_move_form echo_form;
};

/* pair.c */

/* A GUI line held during the handshake, read now (fb_proto_release). */
void
fb_uxb_held_line(void *ctx, const char *text, size_t len,
		 const struct fb_sink *out);

/* lifecycle.c */

/* The one place where x->state changes (arg: the ply of FB_UXB_EV_PV). */
void
fb_uxb_lifecycle(struct uxb *x, enum fb_uxb_event ev, long long arg,
		 const struct fb_sink *out);

/* Asks for the sink's timer in ms (0: cancels it). */
void
fb_uxb_timer(const struct fb_sink *out, unsigned ms);

/* True once uciok went to the GUI; true while the engine searches or
 * analyses; true while it was asked to move. */
bool
fb_uxb_ready(const struct uxb *x);
bool
fb_uxb_searching(const struct uxb *x);
bool
fb_uxb_thinking(const struct uxb *x);

/* handshake.c */

/* The engine's `feature` line: each feature accepted or rejected and
 * noted; done=1 and done=0 go to the lifecycle. */
void
fb_uxb_features(struct uxb *x, const char *text, size_t len,
		const struct fb_sink *out);

/* The GUI hears the engine's name, options and uciok (the handshake's
 * end, or the GUI's uci again); held isready lines are answered. */
void
fb_uxb_announce(struct uxb *x, const struct fb_sink *out);

/* An empty line to a silent engine (see handshake.c). */
void
fb_uxb_nudge(struct uxb *x, const struct fb_sink *out);

/* The GUI's setoption (parsed by the codec). */
void
fb_uxb_setoption(struct uxb *x, const char *text, size_t len,
		 const struct fb_sink *out);

/* game.c */

/* The GUI's position line -> the engine's game. */
void
fb_uxb_position(struct uxb *x, const char *text, size_t len,
		const struct fb_sink *out);

/* A new game (ucinewgame): what fenbridge says of it is said again. */
void
fb_uxb_new_game(struct uxb *x);

/* The engine's move m (legal in x->game, written mv in the GUI's
 * notation) is played and added to the engine's line. */
void
fb_uxb_played(struct uxb *x, const struct fb_move *m, const char *mv, size_t n);

/* search.c */

/* A real search for go g: the limits, then go. Returns the state it puts
 * the engine in (THINKING, TIMED: *deadline_ms set, or ANALYZING for a go
 * without limits). */
enum fb_uxb_state
fb_uxb_search(struct uxb *x, const struct fb_uci_go *g, unsigned *deadline_ms,
	      const struct fb_sink *out);

/* Starts analyze mode (go infinite, go ponder). */
void
fb_uxb_analyze(struct uxb *x, const struct fb_sink *out);

/* Leaves analyze mode: the engine is in force mode after it. */
void
fb_uxb_end_analysis(struct uxb *x, const struct fb_sink *out);

/* The pv's first move as bestmove, its second as ponder. */
void
fb_uxb_bestmove_from_pv(struct uxb *x, const struct fb_sink *out);

/* A stopped analysis that showed no move: a legal move of fenbridge's
 * choosing, which the GUI is told is not the engine's. */
void
fb_uxb_no_pv_bestmove(struct uxb *x, const struct fb_sink *out);

/* thinking.c */

/* Where what is shown of an engine line (in reports and info strings)
 * starts: after GNU Chess's prompt, or the line as it came. */
static inline size_t
fb_uxb_shown(const struct fb_cecp_line *l)
{
	return l->prompt ? l->start : 0;
}

/* Engine lines (the whole line, read by the codec into l). */
void
fb_uxb_engine_thinking(struct uxb *x, const char *text,
		       const struct fb_cecp_line *l, const struct fb_sink *out);
void
fb_uxb_engine_move(struct uxb *x, const char *text, size_t len,
		   const struct fb_cecp_line *l, const struct fb_sink *out);
void
fb_uxb_engine_result(struct uxb *x, const char *text, size_t len,
		     const struct fb_sink *out);
void
fb_uxb_engine_error(struct uxb *x, const char *text, size_t len,
		    const struct fb_cecp_line *l, const struct fb_sink *out);

#endif
