/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of choosing the engine's protocol (protocols/filter.c with
 * --engine-protocol=auto; protocols/protocols.c's probe descriptors): what
 * goes to the engine and to the GUI while the engine is asked, how each
 * answer (or silence, through fb_filter_timeout) decides, that the GUI's
 * held lines reach the chosen pair in order, the XBoard GUI's wait, an
 * engine that dies of the probe (started again), and the UCI pair's wait
 * for uciok (the same holding, without a probe).
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

#include "filter.h"

#define MAX_OUT (128 * 1024)

/* Both directions of a session: what reached the engine and the GUI, and
 * the timer as the filter last asked for it (-1: never asked). */
struct session {
	struct fb_filter f;
	/* Large: a test fills the filter's 64 KiB of held lines. */
	char engine[MAX_OUT], gui[MAX_OUT];
	size_t nengine, ngui;
	long timer;
	int restarts; /* FB_EVENT_RESTART events */
	int done;     /* FB_EVENT_GUI_DONE events */
	struct fb_sink from_gui, from_engine;
};

static void
add(char *buf, size_t *n, const char *data, size_t len)
{
	assert_true(*n + len < MAX_OUT);
	memcpy(buf + *n, data, len);
	*n += len;
	buf[*n] = '\0';
}

static void
to_engine(void *ctx, const char *data, size_t len)
{
	struct session *s = ctx;
	add(s->engine, &s->nengine, data, len);
}

static void
to_gui(void *ctx, const char *data, size_t len)
{
	struct session *s = ctx;
	add(s->gui, &s->ngui, data, len);
}

static void
report(void *ctx, enum fb_level level, const char *msg)
{
	(void)ctx;
	(void)level;
	assert_non_null(msg);
}

static void
timer(void *ctx, unsigned ms)
{
	struct session *s = ctx;
	s->timer = (long)ms;
}

static void
event(void *ctx, enum fb_event ev)
{
	struct session *s = ctx;
	if (ev == FB_EVENT_RESTART)
		s->restarts++;
	else if (ev == FB_EVENT_GUI_DONE)
		s->done++;
}

static struct session *
start(void)
{
	struct session *s = calloc(1, sizeof *s);
	struct fb_filter_options opt = {
		.engine_fen = FB_XFEN,
		.gui_fen = FB_SHREDDER,
		.engine_probe = true,
	};

	assert_non_null(s);
	s->timer = -1;
	s->from_gui = (struct fb_sink){.to_engine = to_engine,
				       .to_gui = to_gui,
				       .pass = to_gui,
				       .report = report,
				       .event = event,
				       .timer = timer,
				       .ctx = s,
				       .min_level = FB_LOG_DEBUG};
	s->from_engine = (struct fb_sink){.to_gui = to_gui,
					  .to_engine = to_engine,
					  .pass = to_gui,
					  .report = report,
					  .event = event,
					  .timer = timer,
					  .ctx = s,
					  .min_level = FB_LOG_DEBUG};
	fb_filter_init(&s->f, &opt);
	return s;
}

static void
stop(struct session *s)
{
	fb_filter_free(&s->f);
	free(s);
}

/* Lines are given with their "\n", the one-byte terminator. */
static void
gui(struct session *s, const char *line)
{
	fb_filter_gui_line(&s->f, line, strlen(line) - 1, 1, 0, &s->from_gui);
}

static void
engine(struct session *s, const char *line)
{
	fb_filter_engine_line(&s->f, line, strlen(line) - 1, 1, 0,
			      &s->from_engine);
}

/* Forgets what was captured so far. */
static void
clear(struct session *s)
{
	s->nengine = s->ngui = 0;
	s->engine[0] = s->gui[0] = '\0';
}

/* Fires the timer the filter asked for, as the bridge would. */
static void
fire(struct session *s)
{
	assert_true(s->timer > 0);
	s->timer = -1;
	fb_filter_timeout(&s->f, &s->from_gui);
}

/* A UCI GUI and a UCI engine: the GUI's uci is the question, the
 * engine's answer goes to the GUI as it comes; nothing is asked twice. */
static void
test_probe_uci_engine_answers(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "uci\n");
	assert_string_equal(s->engine, "uci\n"); /* the GUI's own */
	assert_string_equal(s->gui, "");
	/* No second question to a UCI GUI's engine: silence means XBoard. */
	assert_int_equal(s->timer, FB_PROBE_MS);
	assert_null(fb_filter_engine_protocol(&s->f));
	/* A banner waits for the answer that tells the protocol. */
	engine(s, "Stockfish 15.1 by the Stockfish developers\n");
	assert_string_equal(s->gui, "");
	engine(s, "id name Stockfish 15.1\n");
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_uci);
	assert_string_equal(s->gui, "Stockfish 15.1 by the Stockfish "
				    "developers\nid name Stockfish 15.1\n");
	assert_int_equal(s->timer, 0); /* the probe's timer is off */
	engine(s, "option name UCI_Chess960 type check default false\n");
	engine(s, "uciok\n");
	assert_string_equal(s->gui, "Stockfish 15.1 by the Stockfish "
				    "developers\nid name Stockfish 15.1\n"
				    "option name UCI_Chess960 type check "
				    "default false\nuciok\n");
	gui(s, "isready\n");
	assert_string_equal(s->engine, "uci\nisready\n");
	assert_false(fb_filter_probing(&s->f));
	stop(s);
}

/* What the GUI sends before uciok waits for it, in order. */
static void
test_probe_held_lines_keep_their_order(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "uci\n");
	gui(s, "setoption name Hash value 32\n");
	gui(s, "isready\n");
	assert_string_equal(s->engine, "uci\n");
	engine(s, "id name Stockfish 15.1\n");
	/* UCI: now known, but the GUI's lines wait for the option list. */
	assert_string_equal(s->engine, "uci\n");
	assert_int_equal(s->timer, FB_HOLD_MS);
	engine(s, "uciok\n");
	assert_int_equal(s->timer, 1);
	fire(s);
	assert_string_equal(s->engine,
			    "uci\nsetoption name Hash value 32\nisready\n");
	stop(s);
}

static void
test_probe_xboard_error_decides_at_once(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "uci\n");
	engine(s, "tellics say     Fairy-Max 5.0b\n");
	assert_null(fb_filter_engine_protocol(&s->f));
	engine(s, "Error (unknown command): uci\n");
	assert_int_equal(s->timer, 1);
	clear(s);
	fire(s);
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_xboard);
	/* The GUI's uci reached the translating pair, which opens CECP
	 * (and waits for the features with its own timer). */
	assert_non_null(strstr(s->engine, "xboard\nprotover 2\n"));
	assert_string_equal(s->gui, ""); /* the refusal is fenbridge's */
	engine(s, "feature myname=\"Fairy-Max 5.0b\" done=1\n");
	assert_false(fb_filter_probing(&s->f)); /* it answered the pair */
	stop(s);
}

/* An XBoard GUI and a CECP engine: xboard and protover go through, the
 * features come straight back; no done=0, no uci. */
static void
test_probe_xboard_engine_answers(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "xboard\n");
	gui(s, "protover 2\n");
	assert_string_equal(s->engine, "xboard\nprotover 2\n");
	assert_string_equal(s->gui, "");
	assert_int_equal(s->timer, FB_PROBE_OTHER_MS);
	engine(s, "feature myname=\"Fairy-Stockfish\" setboard=1\n");
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_xboard);
	engine(s, "feature done=1\n");
	assert_string_equal(s->gui, "feature myname=\"Fairy-Stockfish\" "
				    "setboard=1\nfeature done=1\n");
	gui(s, "new\n");
	assert_string_equal(s->engine, "xboard\nprotover 2\nnew\n");
	stop(s);
}

/* An XBoard GUI and Stockfish: it refuses xboard; the second refusal (of
 * protover) is dropped too, and the UCI engine is asked by the pair. */
static void
test_probe_uci_engine_refuses_xboard(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "xboard\n");
	gui(s, "protover 2\n");
	engine(s, "Stockfish 15.1 by the Stockfish developers\n");
	engine(s, "Unknown command: 'xboard'. Type help for more "
		  "information.\n");
	assert_int_equal(s->timer, 1);
	clear(s);
	fire(s);
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_uci);
	assert_string_equal(s->engine, "uci\n");
	engine(s, "Unknown command: 'protover 2'. Type help for more "
		  "information.\n");
	engine(s, "id name Stockfish 15.1\n");
	engine(s, "uciok\n");
	assert_null(strstr(s->gui, "Unknown"));
	assert_null(strstr(s->gui, "Stockfish 15.1 by"));
	assert_non_null(strstr(s->gui, "feature done=1\n"));
	stop(s);
}

/* An XBoard GUI and Toga II, silent to xboard: asked uci after a second
 * (the GUI is told to wait), it answers, and the answer is the pair's: the
 * engine is asked once, the GUI told to wait once (issue 27 item 2). */
static void
test_probe_silent_uci_engine_asked_uci(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "xboard\n");
	gui(s, "protover 2\n");
	engine(s, "Toga II 3.0 UCI based on Fruit 2.1\n");
	clear(s);
	fire(s);
	assert_string_equal(s->engine, "uci\n");
	assert_string_equal(s->gui, "feature done=0\n");
	assert_int_equal(s->timer, FB_PROBE_MS - FB_PROBE_OTHER_MS);
	engine(s, "id name Toga II 3.0\n");
	engine(s, "option name Hash type spin default 16 min 4 max 1024\n");
	assert_null(fb_filter_engine_protocol(&s->f));
	engine(s, "uciok\n");
	clear(s);
	fire(s);
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_uci);
	assert_string_equal(s->engine, "");
	assert_non_null(strstr(s->gui, "myname=\"Toga II 3.0\""));
	assert_null(strstr(s->gui, "feature done=0"));
	assert_non_null(strstr(s->gui, "memory=1")); /* its Hash */
	assert_non_null(strstr(s->gui, "feature done=1\n"));
	stop(s);
}

/* A CECP engine slow to answer: asked uci, it answers its features; its
 * refusal of uci is kept from the GUI. */
static void
test_probe_slow_xboard_engine(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "xboard\n");
	gui(s, "protover 2\n");
	fire(s);
	clear(s);
	engine(s, "feature ping=1 setboard=1 done=1\n");
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_xboard);
	engine(s, "Error (unknown command): uci\n");
	engine(s, "pong 1\n");
	assert_string_equal(s->gui, "feature ping=1 setboard=1 done=1\n"
				    "pong 1\n");
	stop(s);
}

/* An engine of both protocols, slow: it answers the features and then
 * the uci too, which switched it (Fairy-Stockfish): the GUI does not see
 * that answer, and the engine gets xboard again. */
static void
test_probe_slow_engine_of_both_protocols(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "xboard\n");
	gui(s, "protover 2\n");
	fire(s);
	clear(s);
	engine(s, "feature setboard=1 done=1\n");
	engine(s, "id name Fairy-Stockfish 11.1 LB 64\n");
	engine(s, "option name Hash type spin default 16 min 1 max 1024\n");
	assert_string_equal(s->engine, "");
	engine(s, "uciok\n");
	assert_string_equal(s->gui, "feature setboard=1 done=1\n");
	assert_string_equal(s->engine, "xboard\n");
	engine(s, "pong 1\n");
	assert_string_equal(s->gui, "feature setboard=1 done=1\npong 1\n");
	stop(s);
}

/* Silent to both (a protover-1 engine): XBoard, and fenbridge ends the
 * GUI's wait it started. */
static void
test_probe_silence_means_xboard(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "xboard\n");
	gui(s, "protover 2\n");
	gui(s, "new\n");
	fire(s);
	assert_string_equal(s->gui, "feature done=0\n");
	clear(s);
	fire(s);
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_xboard);
	assert_string_equal(s->engine, "new\n"); /* the held line */
	assert_int_equal(s->timer, 2000);
	engine(s, "Hello\n");
	assert_string_equal(s->gui, "Hello\n");
	fire(s);
	assert_string_equal(s->gui, "Hello\nfeature done=1\n");
	stop(s);
}

/* Silent to xboard, it refuses uci: an XBoard engine of protover 1. */
static void
test_probe_refused_uci_means_xboard(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "xboard\n");
	gui(s, "protover 2\n");
	fire(s);
	engine(s, "Error (unknown command): uci\n");
	clear(s);
	fire(s);
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_xboard);
	assert_string_equal(s->gui, "");
	assert_int_equal(s->timer, 2000); /* fenbridge ends the wait */
	stop(s);
}

/* The second question's answer without its end: after the probe's time
 * the engine is taken at its word. */
static void
test_probe_id_then_silence_means_uci(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "xboard\n");
	fire(s);
	engine(s, "id name Slow\n");
	fire(s);
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_uci);
	stop(s);
}

static void
test_probe_gui_that_does_not_wait(void **state)
{
	struct session *s = start();
	char line[1001];

	(void)state;
	memset(line, 'x', sizeof line - 2);
	memcpy(line, "debug ", 6);
	line[sizeof line - 2] = '\n';
	line[sizeof line - 1] = '\0';
	gui(s, "uci\n");
	for (int i = 0; i < 100 && fb_filter_engine_protocol(&s->f) == NULL;
	     i++) {
		clear(s);
		gui(s, line);
	}
	/* Held lines are bounded: the probe ends with the guess that costs
	 * nothing (the GUI's uci went out: its protocol), and the held
	 * lines go on. */
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_uci);
	assert_null(strstr(s->engine, "xboard\n"));
	assert_non_null(strstr(s->engine, line));
	stop(s);
}

/* The GUI quits before the engine answered: its quit goes at once. */
static void
test_probe_quit_does_not_wait(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "uci\n");
	gui(s, "isready\n");
	gui(s, "quit\n");
	assert_string_equal(s->engine, "uci\nisready\nquit\n");
	assert_true(s->f.gui_quit);
	stop(s);
}

/* Fairy-Max dies of the probe now and then: it is started again once,
 * spoken to in XBoard, and gets every line of the GUI's. */
static void
test_probe_engine_dies_on_the_probe(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "uci\n");
	gui(s, "setoption name Hash value 32\n");
	fb_filter_engine_exit(&s->f, &s->from_gui);
	assert_int_equal(s->restarts, 1);
	assert_int_equal(s->timer, 0);
	gui(s, "isready\n"); /* while it starts again */
	clear(s);
	fb_filter_engine_started(&s->f, &s->from_gui);
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_xboard);
	assert_non_null(strstr(s->engine, "xboard\nprotover 2\n"));
	assert_true(fb_filter_probing(&s->f)); /* not answered yet */
	/* Once only. */
	fb_filter_engine_exit(&s->f, &s->from_gui);
	assert_int_equal(s->restarts, 1);
	stop(s);
}

/* It refused, was given the GUI's lines, and died before answering
 * them: started again in the chosen protocol, with every line again. */
static void
test_probe_engine_dies_before_answering_the_pair(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "uci\n");
	engine(s, "Error (unknown command): uci\n");
	fire(s);
	gui(s, "isready\n");
	fb_filter_engine_exit(&s->f, &s->from_gui);
	assert_int_equal(s->restarts, 1);
	clear(s);
	fb_filter_engine_started(&s->f, &s->from_gui);
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_xboard);
	assert_non_null(strstr(s->engine, "xboard\nprotover 2\n"));
	stop(s);
}

/* An engine that answered is not started again: its death is news. */
static void
test_probe_no_restart_after_an_answer(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "uci\n");
	engine(s, "id name Stockfish 15.1\n");
	fb_filter_engine_exit(&s->f, &s->from_gui);
	assert_int_equal(s->restarts, 0);
	stop(s);

	s = start();
	gui(s, "uci\n");
	engine(s, "Error (unknown command): uci\n");
	fire(s);
	engine(s, "feature done=1\n");
	fb_filter_engine_exit(&s->f, &s->from_gui);
	assert_int_equal(s->restarts, 0);
	stop(s);

	s = start();
	gui(s, "uci\n");
	gui(s, "quit\n"); /* the GUI is gone: nothing to start again for */
	fb_filter_engine_exit(&s->f, &s->from_gui);
	assert_int_equal(s->restarts, 0);
	stop(s);
}

/* A UCI engine slower than the probe's time: taken for XBoard, then its
 * answer to the GUI's uci shows it speaks UCI after all. */
static void
test_probe_late_uci_answer(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "uci\n");
	gui(s, "isready\n");
	fire(s);
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_xboard);
	clear(s);
	engine(s, "id name Slow\n");
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_uci);
	engine(s, "uciok\n");
	engine(s, "Unknown command: 'xboard'. Type help for more "
		  "information.\n");
	engine(s, "Unknown command: 'protover 2'. Type help for more "
		  "information.\n");
	assert_string_equal(s->gui, "id name Slow\noption name UCI_Chess960 "
				    "type check default false\nuciok\n");
	fire(s);
	assert_string_equal(s->engine, "isready\n"); /* again, as UCI */
	stop(s);
}

/* GNU Chess writes its prompt before its refusal. */
static void
test_probe_gnuchess_prompt(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "uci\n");
	engine(s, "White (1) : Invalid move: uci\n");
	fire(s);
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_xboard);
	stop(s);
}

/* An engine's banner before the GUI's first line is part of its answer:
 * the GUI of its protocol gets it, the other GUI does not. */
static void
test_probe_banner_before_the_gui(void **state)
{
	struct session *s = start();

	(void)state;
	engine(s, "Stockfish 15.1 by the Stockfish developers\n");
	assert_string_equal(s->gui, "");
	gui(s, "uci\n");
	engine(s, "id name Stockfish 15.1\n");
	assert_string_equal(s->gui, "Stockfish 15.1 by the Stockfish "
				    "developers\nid name Stockfish 15.1\n");
	stop(s);

	s = start();
	engine(s, "Stockfish 15.1 by the Stockfish developers\n");
	gui(s, "xboard\n");
	engine(s, "Unknown command: 'xboard'. Type help for more "
		  "information.\n");
	fire(s);
	assert_string_equal(s->gui, "");
	stop(s);
}

/* More than the 64 KiB of early lines fenbridge keeps while it waits for
 * the engine's answer: none is dropped; the lines go on to the GUI as they
 * came, in order, and the answer after them too. */
static void
test_probe_long_banner_is_not_dropped(void **state)
{
	struct session *s = start();
	char line[1002], want[100 * 1001 + 64];
	size_t n = 0;

	(void)state;
	gui(s, "uci\n");
	memset(line, 'y', 1000);
	for (int i = 0; i < 100; i++) {
		line[0] = (char)('0' + i % 10);
		line[1000] = '\n';
		line[1001] = '\0';
		engine(s, line);
		memcpy(want + n, line, 1001);
		n += 1001;
	}
	engine(s, "id name Banner\n");
	memcpy(want + n, "id name Banner\n", 15);
	n += 15;
	assert_int_equal(s->ngui, n);
	assert_memory_equal(s->gui, want, n);
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_uci);
	stop(s);
}

/* An engine that writes and exits before the GUI says anything, or a GUI
 * that starts without a handshake: the engine's lines are the GUI's. */
static void
test_probe_banner_without_a_probe(void **state)
{
	struct session *s = start();

	(void)state;
	engine(s, "info string burst 1\n");
	fb_filter_engine_exit(&s->f, &s->from_gui);
	assert_int_equal(s->restarts, 0);
	assert_string_equal(s->gui, "info string burst 1\n");
	engine(s, "info string burst 2\n");
	assert_string_equal(s->gui, "info string burst 1\n"
				    "info string burst 2\n");
	stop(s);

	s = start();
	engine(s, "Hello\n");
	gui(s, "isready\n");
	assert_string_equal(s->gui, "Hello\n");
	assert_string_equal(s->engine, "isready\n");
	stop(s);
}

/* Without a probe, the UCI pair's wait for uciok is bounded: an engine
 * that never says it does not keep the GUI's lines for ever. */
static void
test_probe_uciok_wait_is_bounded(void **state)
{
	struct session *s = start();

	(void)state;
	fb_filter_free(&s->f);
	{
		struct fb_filter_options opt = {.engine_fen = FB_XFEN,
						.gui_fen = FB_SHREDDER};
		fb_filter_init(&s->f, &opt);
	}
	gui(s, "uci\n");
	gui(s, "setoption name UCI_Chess960 value true\n");
	assert_string_equal(s->engine, "uci\n");
	assert_true(fb_filter_holding(&s->f));
	assert_int_equal(s->timer, FB_HOLD_MS);
	fire(s);
	assert_string_equal(s->engine,
			    "uci\nsetoption name UCI_Chess960 value true\n");
	gui(s, "isready\n"); /* no more waiting */
	assert_string_equal(s->engine, "uci\nsetoption name UCI_Chess960 "
				       "value true\nisready\n");
	assert_false(fb_filter_holding(&s->f));
	stop(s);
}

/* quit never waits for uciok: what waited goes first. */
static void
test_probe_quit_during_the_uciok_wait(void **state)
{
	struct session *s = start();

	(void)state;
	fb_filter_free(&s->f);
	{
		struct fb_filter_options opt = {.engine_fen = FB_XFEN,
						.gui_fen = FB_SHREDDER};
		fb_filter_init(&s->f, &opt);
	}
	gui(s, "uci\n");
	gui(s, "debug on\n");
	gui(s, "quit\n");
	assert_string_equal(s->engine, "uci\ndebug on\nquit\n");
	stop(s);
}

static void
test_probe_off_chooses_at_once(void **state)
{
	struct fb_filter f;
	struct fb_filter_options opt = {.engine_fen = FB_XFEN,
					.gui_fen = FB_SHREDDER,
					.proto = &fb_protocol_uci,
					.engine_proto = &fb_protocol_xboard};

	(void)state;
	fb_filter_init(&f, &opt);
	assert_ptr_equal(fb_filter_protocol(&f), &fb_protocol_uci);
	assert_ptr_equal(fb_filter_engine_protocol(&f), &fb_protocol_xboard);
	fb_filter_free(&f);
}

/* The GUI's input ends while the probe runs and its lines wait: they are
 * delivered as if it had stayed (after uciok), and only then is the GUI
 * done (a script's printf ... | fenbridge). */
static void
test_probe_gui_eof_delivers_as_if_it_stayed(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "uci\n");
	gui(s, "setoption name UCI_Chess960 value true\n");
	gui(s, "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq "
	       "- 0 1 moves e1h1\n");
	fb_filter_gui_eof(&s->f, &s->from_gui);
	assert_int_equal(s->done, 0);
	assert_string_equal(s->engine, "uci\n"); /* nothing flushed */
	engine(s, "id name Stockfish 15.1\n");
	engine(s, "option name UCI_Chess960 type check default false\n");
	assert_int_equal(s->done, 0);
	engine(s, "uciok\n");
	fire(s); /* the held lines need the GUI's sink */
	assert_string_equal(s->engine,
			    "uci\nsetoption name UCI_Chess960 value true\n"
			    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/"
			    "RNBQK2R w KQkq - 0 1 moves e1h1\n");
	assert_int_equal(s->done, 1);
	engine(s, "readyok\n");
	assert_int_equal(s->done, 1); /* once */
	stop(s);

	/* Nothing sent: done at once. */
	s = start();
	fb_filter_gui_eof(&s->f, &s->from_gui);
	assert_int_equal(s->done, 1);
	stop(s);

	/* A translating pair waits for its engine's handshake and move. */
	s = start();
	gui(s, "uci\n");
	gui(s, "position startpos moves e2e4\n");
	gui(s, "go depth 1\n");
	fb_filter_gui_eof(&s->f, &s->from_gui);
	engine(s, "Error (unknown command): uci\n");
	fire(s); /* decided: XBoard */
	assert_int_equal(s->done, 0);
	engine(s, "feature myname=\"x\" setboard=1 done=1\n");
	assert_non_null(strstr(s->engine, "sd 1\n"));
	assert_int_equal(s->done, 0); /* its move is owed */
	engine(s, "move e7e5\n");
	assert_non_null(strstr(s->gui, "bestmove e7e5\n"));
	assert_int_equal(s->done, 1);
	stop(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_uci_engine_answers),
		cmocka_unit_test(test_probe_held_lines_keep_their_order),
		cmocka_unit_test(test_probe_xboard_error_decides_at_once),
		cmocka_unit_test(test_probe_xboard_engine_answers),
		cmocka_unit_test(test_probe_uci_engine_refuses_xboard),
		cmocka_unit_test(test_probe_silent_uci_engine_asked_uci),
		cmocka_unit_test(test_probe_slow_xboard_engine),
		cmocka_unit_test(test_probe_slow_engine_of_both_protocols),
		cmocka_unit_test(test_probe_silence_means_xboard),
		cmocka_unit_test(test_probe_refused_uci_means_xboard),
		cmocka_unit_test(test_probe_id_then_silence_means_uci),
		cmocka_unit_test(test_probe_gui_that_does_not_wait),
		cmocka_unit_test(test_probe_quit_does_not_wait),
		cmocka_unit_test(test_probe_engine_dies_on_the_probe),
		cmocka_unit_test(
			test_probe_engine_dies_before_answering_the_pair),
		cmocka_unit_test(test_probe_no_restart_after_an_answer),
		cmocka_unit_test(test_probe_late_uci_answer),
		cmocka_unit_test(test_probe_gnuchess_prompt),
		cmocka_unit_test(test_probe_banner_before_the_gui),
		cmocka_unit_test(test_probe_banner_without_a_probe),
		cmocka_unit_test(test_probe_uciok_wait_is_bounded),
		cmocka_unit_test(test_probe_quit_during_the_uciok_wait),
		cmocka_unit_test(test_probe_off_chooses_at_once),
		cmocka_unit_test(test_probe_long_banner_is_not_dropped),
		cmocka_unit_test(test_probe_gui_eof_delivers_as_if_it_stayed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
