/* SPDX-License-Identifier: MIT */
/*
 * `fenbridge check`'s script: a compliance run against one engine as a
 * state machine. The driver (src/daemon/check.c) feeds it the engine's
 * lines, the firing of its timer and the engine's exit; after each call it
 * sends what the script queued, arms the timer for the time asked, kills or
 * restarts the engine when asked. Everything the run finds out is found by
 * experiment on positions this module builds and judges with fenbridge's
 * own move generator: which protocol the engine speaks, its options or
 * features, which FEN castling field it reads (X-FEN, Shredder-FEN) in
 * standard chess and in Chess960, which castling move forms it accepts and
 * which it writes, whether it survives an unknown command, `stop` during
 * `go infinite`, and `quit`. The engine's name plays no part.
 *
 * Pure code: no I/O, no allocation, no clock (the driver's timer is the
 * only time there is).
 */
#ifndef FB_CHECK_H
#define FB_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "fenbridge/game.h"

enum fb_check_protocol {
	FB_CHECK_AUTO, /* try UCI, then XBoard */
	FB_CHECK_UCI,
	FB_CHECK_XBOARD,
};

/* What an experiment gave: each field an enum fb_check_verdict. */
enum fb_check_verdict {
	FB_CV_UNTESTED = 0,
	FB_CV_OK,      /* did what a correct engine does */
	FB_CV_WRONG,   /* answered, but not correctly (a legal but wrong
			   move, a refused one) */
	FB_CV_ILLEGAL, /* answered with an illegal move */
	FB_CV_SILENT,  /* no answer within the timeout */
	FB_CV_DIED,    /* exited or died */
};

#define FB_CHECK_OUT_MAX 2048
#define FB_CHECK_REPORT_MAX 65536
/* Fairy-Stockfish in XBoard mode, which lists every variant the run tests,
 * gets 89 steps. */
#define FB_CHECK_STEPS_MAX 128
#define FB_CHECK_NAME_MAX 96

/* What the timer's time measures (doc/internals.md, "Decisions made by
 * a clock"); the driver extends both while the engine is slow, not
 * silent. */
enum fb_check_clock {
	FB_CHECK_ANSWER = 0, /* an answer's deadline: silent when it fires */
	FB_CHECK_OWN_TIME,   /* the engine's time to do something: search
				before stop, analyze, die of a command */
};

/* What the driver is to do after a call. */
struct fb_check_out {
	char text[FB_CHECK_OUT_MAX]; /* lines to send, each ending in \n */
	size_t len;
	bool rearm; /* (re)arm the timer: for wait_ms, 0: stop it;
			     false: leave it running */
	unsigned wait_ms;
	enum fb_check_clock clock; /* what wait_ms measures */
	bool kill;    /* kill the engine (its exit is then reported) */
	bool restart; /* start the engine again (it has exited) */
	bool done;    /* the run is over: print the report */
};

/* One experiment of the run (the report lists them). */
struct fb_check_step {
	int kind;                     /* the script's own enum */
	int pos;                      /* a test position, or -1 */
	bool c960;                    /* in the engine's Chess960 mode */
	enum fb_notation dialect;     /* the FEN's castling field */
	enum fb_castle_notation form; /* a castle sent in this form */
	bool edit;                    /* XBoard without setboard: the position
				       through edit (no castling field) */
	enum fb_check_verdict verdict;
	char got[32];     /* the engine's answer (a move), or "" */
	unsigned ms;      /* how long it took (the driver's clock) */
	unsigned slow_ms; /* an answer came this late (past its deadline,
			     the machine busy), or 0 */
};

struct fb_check {
	enum fb_check_protocol want, proto;
	unsigned timeout_ms; /* for every answer but a search's */
	unsigned search_ms;  /* for a search's */
	/* The handshake. */
	char name[FB_CHECK_NAME_MAX];
	bool opt_chess960, opt_variant, opt_ponder, opt_multipv;
	bool feat_setboard, feat_usermove, feat_ping, feat_done;
	bool var_960;                /* XBoard: variants lists fischerandom */
	bool var_capa;               /* caparandom in UCI_Variant / variants */
	bool var_capab;              /* capablanca there */
	bool var_janus, var_embassy; /* janus, embassy there */
	bool handshake_ok;
	/* XBoard: until its first feature the engine gets an empty line
	 * every FB_UXB_NUDGE_MS (GNU Chess 6.2.7 hangs at start until a line
	 * comes: see protocols/uci_xboard/handshake.c), protover 2 again when
	 * it answered one but sent no feature (it lost the first). */
	unsigned nudges, reasks;
	bool spoke, heard;
	/* The run. */
	struct fb_check_step step[FB_CHECK_STEPS_MAX];
	size_t nsteps, at;
	int phase;        /* the script's own enum */
	bool rehandshake; /* restarted: handshake again, then step `at` */
	bool quitting;    /* quit sent: waiting for the exit */
	bool running;     /* the engine process runs */
	unsigned restarts;
	unsigned pings;
	bool uci960, uci960_known; /* UCI_Chess960 as last set */
	int uci_variant;           /* UCI_Variant as set: an fb_check_variant */
	unsigned long lines;       /* engine lines seen */
	unsigned multipv_seen;     /* bit N: a line with multipv N came */
	bool multipv_bad;          /* one's pv began with an illegal move */
	bool feat_analyze_off;     /* XBoard: analyze=0 */
	int xb_stage;      /* XBoard pondering: 0 the engine's move awaited,
				1 its answer to ours; analyze: 1 thinking,
				2 exit sent, pong awaited */
	char xb_first[16]; /* XBoard pondering: the engine's move */
	char xb_reply[16]; /* and ours */
	bool xb_known;     /* its pv gave its ponder move */
	char xb_pv[96];    /* the last thinking line's pv */
	/* analyze: a thinking line whose pv began legally came; one that
	 * began illegally came after it; one came before any legal one (a
	 * late line of the search before, GNU Chess's pondering, if a legal
	 * one follows) */
	bool saw_thinking, thinking_bad, thinking_early;
	/* XBoard: what a step asked is judged by the answer to it, not by
	 * any Error line (GNU Chess's `Invalid move: sd 3` is no refusal of
	 * the castle). */
	char castle[16];      /* the castle this step sent, or "" */
	bool castle_refused;  /* an Error/Illegal/Invalid line named it */
	bool q_rejected;      /* Error for ? during this step */
	bool no_sd;           /* sd was rejected: `?` when the thinking
				output reaches the depth, as the UCI GUI /
				XBoard engine pair does */
	bool movenow_sent;    /* that `?`, once per search */
	char echo[16];        /* the engine's last move as it announced it: */
	int echo_form;        /* the same again in another form (GNU Chess:
				`1. ... e1g1`, `My move is : e1g1`) is the
				same move (enum fb_cecp_move_form) */
	bool just_moved;      /* the last line was a move: a result right
				after it is that move's claim */
	unsigned exit_status; /* the engine's last exit */
	int exit_signal;
};

/* Sets c up for a run: protocol to use (or AUTO), the timeout for an
 * answer, and for a search. */
void
fb_check_init(struct fb_check *c, enum fb_check_protocol want,
	      unsigned timeout_ms, unsigned search_ms);

/* The engine has started: fills out with the first lines. */
void
fb_check_start(struct fb_check *c, struct fb_check_out *out);

/* One line of the engine (text[0..len), no terminator). */
void
fb_check_line(struct fb_check *c, const char *text, size_t len,
	      struct fb_check_out *out);

/* The timer armed by the last out->wait_ms fired. */
void
fb_check_timeout(struct fb_check *c, struct fb_check_out *out);

/* The next line comes ms after it was asked for, past its deadline: the
 * driver waited on for an engine that was slow, not silent. The step
 * waiting for it reports "(slow: N s)". */
void
fb_check_slow(struct fb_check *c, unsigned ms);

/* The engine exited (status, or signal != 0). */
void
fb_check_exit(struct fb_check *c, unsigned status, int signal,
	      struct fb_check_out *out);

/* The engine could not be started (again): ends the run. */
void
fb_check_fail(struct fb_check *c, struct fb_check_out *out);

/* True when the run is over (out->done was set). */
bool
fb_check_done(const struct fb_check *c);

/* Number of findings (0: the engine passes). */
unsigned
fb_check_findings(const struct fb_check *c);

/*
 * Writes the report (the steps with their verdicts, the findings, and the
 * [fenbridge] INI lines to use) to out, NUL-terminated, truncated to
 * cap - 1 bytes. Returns its whole length, like snprintf.
 */
size_t
fb_check_report(const struct fb_check *c, char *out, size_t cap);

/* The same report as one JSON document (schema: doc/check.md, "JSON
 * report"), NUL-terminated, truncated to cap - 1 bytes; returns its whole
 * length. */
size_t
fb_check_report_json(const struct fb_check *c, char *out, size_t cap);

/* The test positions (for the unit tests): the FEN of position i in
 * dialect d into out (FB_GAME_FEN_MAX); returns its length, or -1 past the
 * last one. */
int
fb_check_position(int i, enum fb_notation d, char *out, size_t cap);

#endif
