/* SPDX-License-Identifier: MIT */
/*
 * The bridge's state and the functions its files share, private to them;
 * bridge.h is what main.c sees. The bridge spawns the engine on real pipes,
 * reads both sides, feeds the bytes to a line framer per direction, hands
 * each whole line to the session (protocols/session.h), and writes what it
 * sends in one write per batch. It owns the session's lifecycle (EOF, quit, grace
 * period, signals, the engine's exit): one state, changed only by
 * br_lifecycle(), through which every event passes.
 *
 * The files, by concern (with recorder.c, the only ones that use libuv):
 *   bridge_io.c        output queues, endpoints, reading, back-pressure
 *   bridge_engine.c    the engine process: spawn, the Linux trampoline
 *                      (--exec-engine), environment, respawn, kill, exit
 *   bridge_lifecycle.c the state (enum bridge_state), br_lifecycle() and
 *                      advance(); the timer and the forwarded signals
 *   bridge.c           fb_bridge_run(): the session's io (queues, timers,
 *                      clocks, events), the flight recorder's records
 */
#ifndef FB_BRIDGE_INT_H
#define FB_BRIDGE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <uv.h>

#include "config.h"
#include "fenbridge/line.h"
#include "log.h"
#include "recorder.h"
#include "session.h"
#include "wait.h"

#define KILL_DELAY_MS 1000
/* After the engine exits: how long its output pipes may stay open. */
#define DRAIN_MS 1000

/*
 * The session's lifecycle, in the order it runs; it never goes back, but
 * for RESTARTING, which returns to the state it came from. Only
 * br_lifecycle() changes it. Each state that waits for time has the one
 * timer running: grace, KILL_DELAY_MS, DRAIN_MS.
 */
enum bridge_state {
	FB_ST_STARTING,    /* the engine is not running yet */
	FB_ST_RUNNING,     /* relaying both ways */
	FB_ST_FINISHING,   /* the GUI's input ended: what it sent is still
			      being delivered as if it had stayed (the
			      engine's handshake, a search's move: the
			      session's FB_SESSION_GUI_DONE); --grace at most */
	FB_ST_RESTARTING,  /* from RUNNING or FINISHING (b->resume), the
			      engine ended and the session wants it again
			      (the probe's restart, --restart): its handles
			      close, then it starts again, and the state is
			      b->resume again; the GUI's quit or departure
			      meanwhile goes on as QUITTING, without it */
	FB_ST_QUITTING,    /* the GUI quit or went away: the engine got quit
			      and then EOF; waiting --grace for it to exit */
	FB_ST_TERMINATING, /* grace over: SIGTERM sent; waiting 1 s */
	FB_ST_KILLING,     /* SIGTERM ignored: SIGKILL sent */
	FB_ST_DRAINING,    /* the engine exited: reading the rest of its
			      output (a process it started may hold the
			      pipes: DRAIN_MS at most) */
	FB_ST_DELIVERING,  /* its output is read: the rest, and a report if
			      the exit is news, goes to the GUI */
	FB_ST_CLOSING,     /* delivered, endpoints closed: a write to the
			      engine is still being cancelled */
	FB_ST_DONE,        /* every handle is closing: uv_run returns */
};

/* What happens to a session; each goes through br_lifecycle(). */
enum bridge_event {
	FB_EV_SPAWNED,     /* the engine runs */
	FB_EV_GUI_QUIT,    /* the GUI sent quit (FB_SESSION_GUI_QUIT) */
	FB_EV_GUI_EOF,     /* the GUI's stdin ended */
	FB_EV_GUI_DONE,    /* after it, all it sent is delivered (the
			      session's FB_SESSION_GUI_DONE) */
	FB_EV_GUI_GONE,    /* the GUI's stdout broke: nothing to deliver */
	FB_EV_SIGNAL,      /* fenbridge got a signal (arg: its number) */
	FB_EV_TIMER,       /* the state's timer ran out */
	FB_EV_ENGINE_EXIT, /* the engine exited (b->exit_status, term_signal) */
	FB_EV_ENGINE_CLOSED, /* RESTARTING: the old engine's handles are
				closed */
	FB_EV_IO,            /* an input ended or a write completed */
};

/* One end fenbridge reads from or writes to. */
struct endpoint {
	struct fb_bridge *b;
	const char *name;
	int fd;
	bool is_file; /* regular file or device: uv_fs_read/uv_fs_write */
	bool open;    /* the stream handle needs closing */
	bool reading;
	bool eof;
	bool fs_pending; /* a uv_fs_read of rreq is in libuv's thread pool */
	union {
		uv_handle_t handle;
		uv_stream_t stream;
		uv_pipe_t pipe;
		uv_tty_t tty;
		uv_tcp_t tcp;
	} h;
	uv_fs_t rreq;
	char *rbuf;
	/* Reads go straight into this flight recorder ring (the GUI's or the
	 * engine's), or -1: into rbuf, and the recorder gets a copy. */
	int rec_ring;
	char *rdata;           /* where the read in flight goes */
	struct direction *dir; /* the direction this endpoint feeds */
};

/* Bytes queued toward one endpoint. */
struct outq {
	struct endpoint *ep;
	char *buf; /* collecting */
	size_t len, cap;
	char *wbuf; /* in flight */
	size_t wlen, woff, wcap;
	bool busy;
	bool dead;        /* the peer is gone: discard */
	bool close_after; /* close the endpoint once drained (engine stdin) */
	/* The last byte queued (written or not): '\n' at the start. A CR
	 * or LF there: the peer is at the start of a line. Kept as the byte,
	 * not the test, which only fenbridge's own lines need. */
	char last;
	union {
		uv_write_t w;
		uv_fs_t fs;
	} req;
};

struct direction {
	struct fb_bridge *b;
	struct endpoint *src;
	struct outq q;
	struct fb_line framer;
	bool to_engine;
	bool logging; /* fb_log_enabled(), fixed before the bridge runs */
	const char *in_tag, *out_tag;
	/* A session call is filling this direction's queue (its line, or a
	 * step toward the engine): its bytes are recorded and logged once
	 * the call is through. */
	bool filtering;
};

struct fb_bridge {
	uv_loop_t *loop;
	const struct fb_config *cfg;
	struct fb_session *session;
	struct endpoint gui_in, gui_out, eng_in, eng_out, eng_err;
	struct direction up, down; /* GUI -> engine, engine -> GUI */
	struct fb_line err_framer;
	struct fb_recorder rec; /* the flight recorder */
	unsigned records;       /* files it wrote this session */
	uint64_t t0;            /* the loop's time at the start (ms) */
	uv_process_t proc;
	int64_t exit_status;
	int term_signal;
	uv_signal_t sig[3];
	uv_timer_t timer;
	uv_timer_t filter_timer; /* the session's (fb_session_io.timer) */
	/* What each timer waits for (wait.h): slow is not silent. */
	struct fb_wait timer_wait, filter_wait, ref_wait;
	/* The referee's (only when b->ref_on): the session's alarm, when
	 * an answer owed becomes late. */
	uv_timer_t ref_timer;
	/* The referee's clock (ref_now) stood still this long, and stands
	 * still since ref_hold_from while ref_holding. */
	uint64_t ref_held, ref_hold_from;
	bool ref_holding;
	/* The deadline ref_timer is set for, and the session's latest: a
	 * later one waits for the timer set (session_alarm). */
	uint64_t ref_armed, ref_want;
	enum bridge_state state;
	enum bridge_state resume; /* where RESTARTING returns */
	/* The engine's end is no news to the GUI: the GUI quit or left, or
	 * fenbridge forwarded a signal the engine may die of. Whatever the
	 * state, so an exit that crosses the GUI's quit is not reported. */
	bool quiet_end;
	/* The handles still closing before the engine starts again. */
	int closing;
	int exit_code;
	char **env;  /* the engine's environment, or NULL: fenbridge's */
	bool ref_on; /* --referee: the session has an alarm */
};

/* bridge_lifecycle.c */

/* The state's name, for the log; indexed by enum bridge_state. */
extern const char *const br_state_name[];

/* Every event of the session: the one place where b->state changes. */
void
br_lifecycle(struct fb_bridge *b, enum bridge_event ev, int arg);

/* Sets up the timer, the filter's timer and the signals to forward: 0, or
 * a negative error (logged). */
int
br_own_handles_init(struct fb_bridge *b);

/* Closes the handles br_own_handles_init set up (those still open). */
void
br_close_own_handles(struct fb_bridge *b);

/* bridge_io.c */

/* Room for n more bytes in q->buf; out of memory is fatal
 * (doc/internals.md). */
void
br_outq_grow(struct outq *q, size_t n);

/* Writes what q holds: at once what the pipe takes, the rest as the one
 * write in flight; closes the endpoint once drained if q->close_after. */
void
br_outq_flush(struct outq *q);

/* Opens fd for the loop as a stream (pipe, tty, socket) or a file:
 * 0, or a negative error. */
int
br_endpoint_open(struct fb_bridge *b, struct endpoint *ep, const char *name,
		 int fd, bool readable);

void
br_endpoint_close(struct endpoint *ep);

/* Reads ep (again): a failure to start is its end (br_got_eof). */
void
br_start_reading(struct endpoint *ep);

/* The end of ep's input (status UV_EOF or an error): its framer finishes,
 * and the lifecycle hears of it. Once per endpoint. */
void
br_got_eof(struct endpoint *ep, int status);

/* The engine's stderr line: to the log and to fenbridge's stderr. */
void
br_stderr_line(void *ctx, const char *text, size_t len, size_t term,
	       unsigned flags);

/* A bigger pipe buffer for fd where the system allows it. */
void
br_widen_pipe(int fd);

/* bridge_engine.c */

/* Starts the engine on new pipes and opens its endpoints: 0, or a negative
 * error. It may run though its pipes failed: then b->state is past
 * FB_ST_STARTING. */
int
br_spawn_engine(struct fb_bridge *b);

/* Closes the ended engine's process and pipes; once they are closed,
 * FB_EV_ENGINE_CLOSED. */
void
br_engine_close(struct fb_bridge *b);

/* Starts the engine again on new pipes (what was queued for the old one
 * and half a line of its output are dropped) and reads it: 0, or a
 * negative error (logged) when it does not run. */
int
br_engine_respawn(struct fb_bridge *b);

/* Sends sig to the engine; a failure is logged. */
void
br_engine_kill(struct fb_bridge *b, int sig);

/* Starts timer t for ms, a wait of kind w (wait.h), from the engine's
 * sample now. */
void
br_wait_start(struct fb_bridge *b, struct fb_wait *w, enum fb_wait_kind kind,
	      uv_timer_t *t, uv_timer_cb cb, uint64_t ms);

/* Timer t of wait w fired: true when the decision by the clock is due;
 * false when the engine is slow, not silent, and t runs again. */
bool
br_wait_due(struct fb_bridge *b, struct fb_wait *w, uv_timer_t *t,
	    uv_timer_cb cb);

/* fenbridge's environment with the config's additions (which win), to free
 * (the array only), or NULL when out of memory. */
char **
br_engine_env(const struct fb_config *cfg);

const char *
br_signal_name(int sig);

/* bridge.c */

/* The framer's callback: one line of d's source through the session. */
void
br_on_line(void *ctx, const char *text, size_t len, size_t term,
	   unsigned flags);

/* br_on_line for the engine's lines (d is the direction toward the GUI). */
void
br_on_engine_line(void *ctx, const char *text, size_t len, size_t term,
		  unsigned flags);

/* Logs the queued bytes from..d->q.len as lines tagged d->out_tag. */
void
br_log_queued(struct direction *d, size_t from);

/* Runs a step of the session that sends toward the engine as a GUI line
 * does (FB_STEP_TIMEOUT, _GUI_EOF, _GUI_GONE, _ENGINE_STARTED): what it
 * queues goes to the flight record and the log as a GUI line's would. */
void
br_session_up(struct fb_bridge *b, enum fb_session_step step);

/* Writes the flight record with reason: its path, or NULL (logged). */
const char *
br_write_record(struct fb_bridge *b, const char *reason);

/* The loop's cached time since the session started, in ms: no clock read
 * per line. */
static inline uint64_t
br_since_start(const struct fb_bridge *b)
{
	return uv_now(b->loop) - b->t0;
}

/* Queues n bytes toward q's endpoint (nothing once it is dead). Inline:
 * it runs for every line, from the sinks in bridge.c. */
static inline void
br_outq_append(struct outq *q, const char *data, size_t n)
{
	if (q->dead || n == 0)
		return;
	if (q->len + n > q->cap)
		br_outq_grow(q, n);
	memcpy(q->buf + q->len, data, n);
	q->len += n;
	q->last = data[n - 1];
}

/* Whether the bytes queued so far end a line. */
static inline bool
br_outq_at_line_start(const struct outq *q)
{
	return q->last == '\n' || q->last == '\r';
}

#endif
