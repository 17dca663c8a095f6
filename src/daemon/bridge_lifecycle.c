/* SPDX-License-Identifier: MIT */
/*
 * The session's lifecycle: one state (enum bridge_state, bridge_int.h),
 * changed only by br_lifecycle(), and advance(), which takes an exited
 * engine's session as far as what has ended allows: its output read,
 * delivered, every handle closed. Also the one timer the waiting states
 * use, and the signals fenbridge forwards to the engine.
 */
#include "bridge_int.h"

#include "cause.h"
#include "cpu.h"

#include <signal.h>
#include <stdio.h>

const char *const br_state_name[] = {
	"starting",   "running",     "finishing", "restarting",
	"quitting",   "terminating", "killing",   "draining",
	"delivering", "closing",     "done",
};

static const char *const event_name[] = {
	"engine started", "GUI quit", "GUI EOF", "GUI done",
	"GUI gone",       "signal",   "timer",   "engine exit",
	"engine closed",  "I/O",
};

static const int forwarded_signals[3] = {SIGINT, SIGTERM, SIGHUP};
#ifdef _WIN32
/* None on Windows: Ctrl-C in a console reaches the engine there too, and
 * uv_process_kill could only terminate it. */
#define NFORWARDED 0
#else
#define NFORWARDED 3
#endif

static void
on_timer(uv_timer_t *t)
{
	struct fb_bridge *b = t->data;

	/* The grace after quit is the engine's time to exit: extended
	 * while it is slow (wait.h); the other waits are wall time. */
	if (br_wait_due(b, &b->timer_wait, t, on_timer))
		br_lifecycle(b, FB_EV_TIMER, 0);
}

static void
on_signal(uv_signal_t *s, int signum)
{
	br_lifecycle(s->data, FB_EV_SIGNAL, signum);
}

static void
timer_start(struct fb_bridge *b, enum fb_wait_kind kind, uint64_t ms)
{
	br_wait_start(b, &b->timer_wait, kind, &b->timer, on_timer, ms);
}

static void
timer_stop(struct fb_bridge *b)
{
	int rc = uv_timer_stop(&b->timer);

	if (rc < 0)
		fb_log_msg(FB_LOG_ERROR, "uv_timer_stop: %s", uv_strerror(rc));
}

/* Closes fenbridge's own handles (those initialised and still open). */
void
br_close_own_handles(struct fb_bridge *b)
{
	uv_handle_t *h[6] = {
		(uv_handle_t *)&b->timer,  (uv_handle_t *)&b->filter_timer,
		(uv_handle_t *)&b->sig[0], (uv_handle_t *)&b->sig[1],
		(uv_handle_t *)&b->sig[2], (uv_handle_t *)&b->ref_timer};

	for (int i = 0; i < 6; i++)
		if (uv_handle_get_type(h[i]) != UV_UNKNOWN_HANDLE &&
		    !uv_is_closing(h[i]))
			uv_close(h[i], NULL);
}

static void
set_state(struct fb_bridge *b, enum bridge_state to, enum bridge_event ev)
{
	fb_log_msg(FB_LOG_DEBUG, "session: %s -> %s (%s)",
		   br_state_name[b->state], br_state_name[to], event_name[ev]);
	b->state = to;
}

/* The session runs: the engine relays, or is being started again. */
static bool
live(const struct fb_bridge *b)
{
	return b->state == FB_ST_RUNNING || b->state == FB_ST_FINISHING ||
	       b->state == FB_ST_RESTARTING;
}

/* The GUI quit or left while the engine runs: give it --grace to exit. */
static void
begin_quitting(struct fb_bridge *b, enum bridge_event ev)
{
	set_state(b, FB_ST_QUITTING, ev);
	timer_start(b, FB_WAIT_ENGINE, b->cfg->grace_ms);
}

/*
 * The GUI quit, left, or its EOF is delivered: the filter's held lines go
 * to the engine, then quit (both protocols end with it) and EOF for
 * engines that only watch that; --grace for it to exit. From RUNNING or
 * FINISHING; later states have done this already.
 */
static void
end_engine_input(struct fb_bridge *b, enum bridge_event ev)
{
	bool engine_runs = b->state >= FB_ST_RUNNING &&
			   b->state <= FB_ST_KILLING;

	fb_log_msg(FB_LOG_DEBUG, "%s; ending the session", event_name[ev]);
	b->quiet_end = true;
	if (!engine_runs)
		return;
	br_session_up(b, FB_STEP_GUI_GONE);
	b->up.q.close_after = true;
	br_outq_flush(&b->up.q);
	br_outq_flush(&b->down.q);
	fb_log_flush();
	if (live(b))
		begin_quitting(b, ev);
}

/*
 * The engine has exited: once its output is read, tell the GUI if the exit
 * is news, then deliver everything and close. Called on each event that
 * may end a wait; goes as far as what has ended allows.
 */
static void
advance(struct fb_bridge *b, enum bridge_event ev)
{
	if (b->state == FB_ST_DRAINING) {
		if (!b->eng_out.eof || !b->eng_err.eof)
			return;
		/* An engine that dies at once (a build for a newer CPU) may
		 * be gone before fenbridge has read the GUI's first command,
		 * which names the protocol to tell it in: wait for that
		 * command while the drain timer runs. */
		if (!b->quiet_end && !fb_session_can_say(b->session) &&
		    !b->gui_in.eof && uv_is_active((uv_handle_t *)&b->timer))
			return;
		set_state(b, FB_ST_DELIVERING, ev);
		timer_stop(b);
		if (b->term_signal != 0)
			b->exit_code = 128 + b->term_signal;
		else
			b->exit_code = (int)b->exit_status;
		if (!b->quiet_end) {
			/* What it died of, and for an illegal instruction the
			 * fix, with the CPU's features (cause.c). */
			struct fb_cpu cpu;
			struct fb_cause cause = {
				.os = FB_CAUSE_HOST,
				.status = b->exit_status,
				.signal = b->term_signal,
				.cpu = &cpu,
				.probing = fb_session_probing(b->session)};
			/* Only an end that may answer the probe is its. */
			cause.probing = cause.probing &&
					fb_cause_answers_probe(&cause);
			char what[64], msg[768], reason[96];
			const char *path;
			fb_cpu_detect(&cpu);
			fb_cause_what(&cause, what, sizeof what);
			fb_cause_explain(&cause, msg, sizeof msg);
			fb_log_msg(FB_LOG_WARN, "the engine %s", msg);
			snprintf(reason, sizeof reason, "the engine %s", what);
			path = br_write_record(b, reason);
			fb_session_say(b->session, FB_SAY_ERROR,
				       "the engine %s%s%s", msg,
				       path != NULL ? "; flight record: " : "",
				       path != NULL ? path : "");
		}
		br_outq_flush(&b->down.q);
	}
	if (b->state == FB_ST_DELIVERING) {
		if (b->down.q.busy || (b->down.q.len > 0 && !b->down.q.dead))
			return; /* outq_written brings the next event */
		br_endpoint_close(&b->gui_in);
		br_endpoint_close(&b->eng_in);
		br_endpoint_close(&b->eng_out);
		br_endpoint_close(&b->eng_err);
		br_endpoint_close(&b->gui_out);
		set_state(b, FB_ST_CLOSING, ev);
	}
	if (b->state == FB_ST_CLOSING) {
		/* Closing the engine's stdin cancels a pending write; its
		 * callback still has to run before the queue goes away. */
		if (b->up.q.busy)
			return;
		br_close_own_handles(b);
		set_state(b, FB_ST_DONE, ev);
		/* A GUI stdin served as a file (under Wine, a Unix pipe from a
		 * Linux GUI) is read by a blocking read in libuv's thread
		 * pool, which nothing interrupts: it would keep the loop, and
		 * fenbridge, alive until the GUI writes or closes it, and a
		 * GUI that waits for its engine to exit after quit would wait
		 * for ever. The session is over: leave the loop, and let the
		 * read end with the process (fb_bridge_run). */
		if (b->gui_in.fs_pending)
			uv_stop(b->loop);
		fb_log_flush();
	}
}

/* The engine's end, from RUNNING or FINISHING: does the session want it
 * started again (the probe's restart, --restart's)? It decides. */
static bool
wants_restart(struct fb_bridge *b)
{
	struct fb_cause c = {.os = FB_CAUSE_HOST,
			     .status = b->exit_status,
			     .signal = b->term_signal};
	char what[64];
	struct fb_session_exit e = {
		.running = b->state == FB_ST_RUNNING ||
			   b->state == FB_ST_FINISHING,
		.asked = b->quiet_end,
		/* A signal from outside or an illegal instruction is no
		 * answer to the probe: started again, it would end alike. */
		.answers_probe = fb_cause_answers_probe(&c),
		.dies_again = fb_cause_is_illegal_instruction(&c),
		.what = what,
	};

	fb_cause_what(&c, what, sizeof what);
	return fb_session_engine_exited(b->session, &e) == FB_SESSION_RESTART;
}

/* The engine is gone for good: read the rest of its output. */
static void
engine_gone(struct fb_bridge *b, enum bridge_event ev)
{
	set_state(b, FB_ST_DRAINING, ev);
	/* Replaces a grace or kill timeout that was running. */
	timer_start(b, FB_WAIT_WALL, DRAIN_MS);
	advance(b, ev);
}

/* The old engine's handles are closed: start it again, unless the GUI
 * quit or left meanwhile (then the state is QUITTING: its end is the
 * session's). */
static void
restart(struct fb_bridge *b, enum bridge_event ev)
{
	if (b->state != FB_ST_RESTARTING) {
		fb_log_msg(FB_LOG_INFO, "not starting the engine again: the "
					"GUI has quit or left");
		b->eng_out.eof = b->eng_err.eof = true;
		engine_gone(b, ev);
		return;
	}
	if (br_engine_respawn(b) < 0) {
		b->eng_out.eof = b->eng_err.eof = true;
		engine_gone(b, ev);
		return;
	}
	/* FB_EV_SPAWNED has brought the state back; the new engine gets the
	 * GUI's lines, or the journal's replay. */
	br_session_up(b, FB_STEP_ENGINE_STARTED);
	br_outq_flush(&b->up.q);
	br_outq_flush(&b->down.q);
	fb_log_flush();
}

/*
 * The one place where the session's state changes. Every event comes here:
 * the GUI's quit, its EOF or broken stdout, signals, the timer, the
 * engine's exit, and I/O that may end a wait (an input's end, a completed
 * write). The behaviour is doc/protocols.md's: after the GUI's quit or EOF the
 * engine gets quit (unless the GUI sent it) and EOF, then --grace seconds,
 * SIGTERM, and 1 s later SIGKILL; once it has exited, the session decides
 * whether it starts again (RESTARTING), else its output is read to the end
 * (DRAIN_MS at most), delivered, followed by a report to the GUI if the
 * exit was not asked for. Longer than 100 lines on purpose: one case
 * per event, the state machine's whole table in one place.
 */
void
br_lifecycle(struct fb_bridge *b, enum bridge_event ev, int arg)
{
	bool engine_runs = b->state >= FB_ST_RUNNING &&
			   b->state <= FB_ST_KILLING;
	/* The state the session is in, RESTARTING's being where it returns:
	 * the GUI's events mean the same while the engine starts again. */
	enum bridge_state running = b->state == FB_ST_RESTARTING ? b->resume
								 : b->state;

	switch (ev) {
	case FB_EV_SPAWNED:
		if (b->state == FB_ST_STARTING)
			set_state(b, FB_ST_RUNNING, ev);
		else if (b->state == FB_ST_RESTARTING)
			set_state(b, b->resume, ev);
		return;
	case FB_EV_GUI_QUIT:
		/* quit is the last word: EOF follows for engines that watch
		 * only that. python-chess waits for the process after quit
		 * without closing the pipe: make sure the engine does exit. */
		b->quiet_end = true;
		b->up.q.close_after = true;
		if (live(b))
			begin_quitting(b, ev);
		return;
	case FB_EV_GUI_EOF:
		if (running != FB_ST_RUNNING || b->down.q.dead) {
			end_engine_input(b, ev);
			return;
		}
		/* Everything the GUI sent is delivered as if it had stayed
		 * (a script's `printf ... | fenbridge`): the session says
		 * when (FB_EV_GUI_DONE, maybe at once), --grace at most. */
		fb_log_msg(FB_LOG_DEBUG, "end of the GUI's input; delivering "
					 "what it sent");
		if (b->state == FB_ST_RESTARTING)
			b->resume = FB_ST_FINISHING;
		else
			set_state(b, FB_ST_FINISHING, ev);
		timer_start(b, FB_WAIT_ENGINE, b->cfg->grace_ms);
		br_session_up(b, FB_STEP_GUI_EOF);
		br_outq_flush(&b->up.q);
		br_outq_flush(&b->down.q);
		fb_log_flush();
		return;
	case FB_EV_GUI_DONE:
		if (running == FB_ST_FINISHING)
			end_engine_input(b, ev);
		return;
	case FB_EV_GUI_GONE:
		end_engine_input(b, ev);
		return;
	case FB_EV_SIGNAL:
		/* XBoard signals its direct child, which is fenbridge: the
		 * engine gets the signal, fenbridge lives on and relays. */
		if (engine_runs) {
			int rc;
			fb_log_msg(FB_LOG_INFO,
				   "got %s; forwarding it to the "
				   "engine",
				   br_signal_name(arg));
			rc = uv_process_kill(&b->proc, arg);
			if (rc < 0)
				fb_log_msg(FB_LOG_WARN, "forwarding %s: %s",
					   br_signal_name(arg),
					   uv_strerror(rc));
			b->quiet_end = true;
		} else {
			fb_log_msg(FB_LOG_INFO,
				   "got %s; the engine has "
				   "exited",
				   br_signal_name(arg));
		}
		fb_log_flush();
		return;
	case FB_EV_TIMER:
		if (running == FB_ST_FINISHING) {
			fb_log_msg(FB_LOG_WARN,
				   "%.1f s after the GUI's input ended the "
				   "engine still owes it an answer; ending "
				   "the session",
				   b->cfg->grace_ms / 1000.0);
			end_engine_input(b, ev);
		} else if (b->state == FB_ST_QUITTING) {
			fb_log_msg(FB_LOG_WARN,
				   "engine still running %.1f s "
				   "after quit; sending SIGTERM",
				   b->cfg->grace_ms / 1000.0);
			br_write_record(b, "the engine did not exit after "
					   "quit");
			set_state(b, FB_ST_TERMINATING, ev);
			br_engine_kill(b, SIGTERM);
			timer_start(b, FB_WAIT_WALL, KILL_DELAY_MS);
		} else if (b->state == FB_ST_TERMINATING) {
			fb_log_msg(FB_LOG_WARN, "engine ignored SIGTERM; "
						"sending SIGKILL");
			set_state(b, FB_ST_KILLING, ev);
			br_engine_kill(b, SIGKILL);
		} else if (b->state == FB_ST_DRAINING) {
			/* The engine is gone but its output pipes are not
			 * closed: a process it started holds them. Its own
			 * output is read by now; do not wait for the other
			 * one. Each br_got_eof brings an FB_EV_IO. */
			if (!b->eng_out.eof || !b->eng_err.eof)
				fb_log_msg(FB_LOG_WARN,
					   "the engine exited but "
					   "its output stays open (a process "
					   "it started holds it); not waiting "
					   "for it");
			br_got_eof(&b->eng_out, UV_EOF);
			br_got_eof(&b->eng_err, UV_EOF);
			advance(b, ev); /* the wait for the GUI ends too */
		}
		return;
	case FB_EV_ENGINE_EXIT:
		if (wants_restart(b)) {
			b->resume = b->state;
			set_state(b, FB_ST_RESTARTING, ev);
			br_engine_close(b);
			return;
		}
		uv_close((uv_handle_t *)&b->proc, NULL);
		engine_gone(b, ev);
		return;
	case FB_EV_ENGINE_CLOSED:
		restart(b, ev);
		return;
	case FB_EV_IO:
		advance(b, ev);
		return;
	}
}

/* Sets up the timer and the signals to forward: 0, or a negative error. */
int
br_own_handles_init(struct fb_bridge *b)
{
	int rc;

	if ((rc = uv_timer_init(b->loop, &b->timer)) < 0) {
		fb_log_msg(FB_LOG_ERROR, "uv_timer_init: %s", uv_strerror(rc));
		return rc;
	}
	b->timer.data = b;
	if ((rc = uv_timer_init(b->loop, &b->filter_timer)) < 0) {
		fb_log_msg(FB_LOG_ERROR, "uv_timer_init: %s", uv_strerror(rc));
		return rc;
	}
	b->filter_timer.data = b;
	if (b->ref_on) {
		if ((rc = uv_timer_init(b->loop, &b->ref_timer)) < 0) {
			fb_log_msg(FB_LOG_ERROR, "uv_timer_init: %s",
				   uv_strerror(rc));
			return rc;
		}
		b->ref_timer.data = b;
		/* It judges; it never keeps a session alive. */
		uv_unref((uv_handle_t *)&b->ref_timer);
	}
	for (int i = 0; i < NFORWARDED; i++) {
		if ((rc = uv_signal_init(b->loop, &b->sig[i])) < 0) {
			fb_log_msg(FB_LOG_ERROR, "uv_signal_init: %s",
				   uv_strerror(rc));
			return rc;
		}
		b->sig[i].data = b;
		if ((rc = uv_signal_start(&b->sig[i], on_signal,
					  forwarded_signals[i])) < 0) {
			fb_log_msg(FB_LOG_ERROR, "uv_signal_start(%s): %s",
				   br_signal_name(forwarded_signals[i]),
				   uv_strerror(rc));
			return rc;
		}
	}
	return 0;
}
