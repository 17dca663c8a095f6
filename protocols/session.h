/* SPDX-License-Identifier: MIT */
/*
 * The session: everything fenbridge does with the lines of one GUI and one
 * engine. It owns every reader of the wire: the protocol filter (filter.h:
 * the probe, the pair, the held lines), the referee (referee.h, --referee)
 * and the journal (journal.h, --restart). It decides whether an engine that
 * ended is started again (the probe's restart, or --restart's), and it
 * words every line of fenbridge's own to the GUI, with the GUI protocol's
 * note, warning and error prefixes (struct fb_protocol).
 *
 * The daemon's bridge moves the bytes (struct fb_session_io, in absolute
 * directions), keeps the time, the engine process and the flight
 * recorder, and talks to the session only through this header.
 *
 * Pure code: no I/O.
 */
#ifndef FB_SESSION_H
#define FB_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "filter.h"

struct fb_session;

/* A side of the session, as the target of bytes. */
enum fb_session_side {
	FB_SIDE_ENGINE,
	FB_SIDE_GUI,
};

/* What bytes toward a side are. */
enum fb_session_out {
	/* The line the session was given (or, from fb_session_run, what it
	 * sends on its own toward the engine), as it came or rewritten,
	 * maybe in pieces, with the lines of fenbridge's own among them:
	 * the call's bytes toward that side are whole once it returns. */
	FB_OUT_LINE,
	/* A whole line of fenbridge's own toward the other side (the peer
	 * is at the start of a line): may be written at once. */
	FB_OUT_OWN,
	/* The engine's bytes the filter held, toward the GUI, as they came
	 * (not lines of fenbridge's own): may be written at once. */
	FB_OUT_PASS,
};

/* What the session tells the bridge besides bytes. */
enum fb_session_event {
	FB_SESSION_GUI_QUIT, /* the GUI sent quit: no more commands follow */
	/* After FB_STEP_GUI_EOF: everything the GUI sent is delivered and
	 * the engine owes it nothing fenbridge waits for. */
	FB_SESSION_GUI_DONE,
};

/* The clocks the session reads (fb_session_io.now). */
enum fb_session_clock {
	FB_CLOCK_WALL,  /* ms since the session started */
	FB_CLOCK_JUDGE, /* the referee's: stands still while the engine is
			   slow, not silent (src/daemon/wait.h) */
};

struct fb_session_io {
	/* Bytes toward a side, in order; borrowed for the call only.
	 * Returns false when that side is gone (the bytes are dropped). */
	bool (*out)(void *ctx, enum fb_session_side to, const char *data,
		    size_t len, enum fb_session_out how);
	/* A message for the log (NUL-terminated; FB_LOG_WARN and above also
	 * for stderr), and a line for stderr only. */
	void (*log)(void *ctx, enum fb_level level, const char *msg);
	void (*print)(void *ctx, const char *line, size_t len);
	/* Writes a flight record for reason (note: reason goes into it as a
	 * note first). Returns its path, or NULL when none was written;
	 * *first: it is the session's first. */
	const char *(*record)(void *ctx, const char *reason, bool note,
			      bool *first);
	/* The filter's one timer: one call of fb_session_run(FB_STEP_TIMEOUT)
	 * after ms, replacing any earlier request; 0 cancels it. answer: a
	 * deadline for the engine's answer (extended while it is slow, not
	 * silent); else a time on the GUI's clock. */
	void (*timer)(void *ctx, bool answer, unsigned ms);
	/* The referee's deadline changed: one call of
	 * fb_session_run(FB_STEP_JUDGE) at `at` on FB_CLOCK_JUDGE (0: none).
	 * May be NULL when the referee is off. */
	void (*alarm)(void *ctx, uint64_t at);
	uint64_t (*now)(void *ctx, enum fb_session_clock clock);
	void (*event)(void *ctx, enum fb_session_event ev);
	void *ctx;
};

struct fb_session_options {
	/* The protocols by name (fb_protocol_find); NULL: the GUI's first
	 * command decides; "auto" for the engine: found out (the probe). */
	const char *protocol, *engine_protocol;
	enum fb_notation engine_fen, gui_fen;
	bool engine_fen_auto;
	enum fb_castle_notation gui_castling, engine_castling;
	const struct fb_engine_option *options; /* borrowed */
	size_t noptions;
	const char *name;
	bool normalize;
	unsigned restarts;   /* --restart: engine restarts a game (0: off) */
	int referee;         /* enum fb_referee_mode: 0 off, 1 warn, 2 strict */
	enum fb_level level; /* reports below it are not even formatted */
	/* For the flight record's header: fenbridge's version, the engine's
	 * command (NULL-ended). Borrowed. */
	const char *version;
	char *const *engine_argv;
};

/* Returns a new session, or NULL when out of memory. A journal that cannot
 * be had costs --restart (logged), not the session. opt and io are copied;
 * what they point to is borrowed for the session's life. */
struct fb_session *
fb_session_new(const struct fb_session_options *opt,
	       const struct fb_session_io *io);

void
fb_session_free(struct fb_session *s);

/* One line from the framer (line.h: text, len, term, flags) from the GUI,
 * or from the engine: judged, journalled, filtered toward its peer. */
void
fb_session_gui_line(struct fb_session *s, const char *text, size_t len,
		    size_t term, unsigned flags);
void
fb_session_engine_line(struct fb_session *s, const char *text, size_t len,
		       size_t term, unsigned flags);

/* What happens to the session besides lines. The steps marked (up) send
 * toward the engine as a GUI line does (FB_OUT_LINE). */
enum fb_session_step {
	FB_STEP_TIMEOUT,        /* (up) the filter's timer ran out */
	FB_STEP_JUDGE,          /* the referee's alarm is due */
	FB_STEP_GUI_EOF,        /* (up) the GUI's input ended */
	FB_STEP_GUI_GONE,       /* (up) the GUI is gone or its EOF waited too
				   long: the held lines go on, then quit */
	FB_STEP_ENGINE_STARTED, /* (up) the engine runs again (after
				   FB_SESSION_RESTART): the GUI's lines or
				   the journal's replay go to it */
};
void
fb_session_run(struct fb_session *s, enum fb_session_step step);

/* How the engine ended, as the bridge saw it. */
struct fb_session_exit {
	bool running;       /* while the session ran (not quitting) */
	bool asked;         /* the end was asked for: quit, a signal */
	bool answers_probe; /* its cause may answer a command it refused */
	bool dies_again;    /* started again, it would end alike */
	const char *what;   /* "exited with status 1" */
};
enum fb_session_action {
	FB_SESSION_END,     /* the engine's end is the session's */
	FB_SESSION_RESTART, /* start it again, then FB_STEP_ENGINE_STARTED */
};
enum fb_session_action
fb_session_engine_exited(struct fb_session *s, const struct fb_session_exit *e);

/* Queues "<prefix>fenbridge: <text>" to the GUI (printf-like), the prefix
 * of level in its protocol. False when its protocol is not known yet
 * (fb_session_can_say): nothing is sent. */
bool
fb_session_say(struct fb_session *s, enum fb_say level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool
fb_session_can_say(const struct fb_session *s);

/* True while the engine's protocol is not yet known for sure (the probe). */
bool
fb_session_probing(const struct fb_session *s);

/* Writes the flight record's header (NUL-terminated): version, protocols,
 * variant, the engine's command, the position now. */
void
fb_session_describe(const struct fb_session *s, char *out, size_t cap);

/* The session is over: the referee's answers still owed and its summary.
 * Returns the exit status its findings call for (3 in strict mode), or 0. */
int
fb_session_end(struct fb_session *s);

#endif
