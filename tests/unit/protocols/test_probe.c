/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of choosing the engine's protocol (protocols/session.c with
 * --engine-protocol=auto; protocols/protocols.c's probe descriptors): what
 * goes to the engine and to the GUI while the engine is asked, how each
 * answer (or silence, through fb_filter_timeout) decides, that the GUI's
 * held lines reach the chosen pair in order, and the XBoard GUI's wait.
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

#include "session.h"

#define MAX_OUT (128 * 1024)

/* Both directions of a session: what reached the engine and the GUI, and
 * the timer as the filter last asked for it (-1: never asked). */
struct session {
	struct fb_filter f;
	/* Large: a test fills the filter's 64 KiB of held lines. */
	char engine[MAX_OUT], gui[MAX_OUT];
	size_t nengine, ngui;
	long timer;
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
	s->from_gui = (struct fb_sink){
		.to_engine = to_engine, .to_gui = to_gui, .report = report,
		.timer = timer, .ctx = s, .min_level = FB_LOG_DEBUG};
	s->from_engine = (struct fb_sink){
		.to_gui = to_gui, .to_engine = to_engine, .report = report,
		.timer = timer, .ctx = s, .min_level = FB_LOG_DEBUG};
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
	fb_filter_gui_line(&s->f, line, strlen(line) - 1, 1, 0,
			   &s->from_gui);
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


static void
test_probe_uci_engine_answers(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "uci\n");
	assert_string_equal(s->engine, "uci\n"); /* the probe, not the GUI's */
	assert_string_equal(s->gui, "");
	assert_int_equal(s->timer, FB_PROBE_MS);
	assert_null(fb_filter_engine_protocol(&s->f));
	clear(s);
	/* The banner and the answer are fenbridge's, not the GUI's. */
	engine(s, "Stockfish 15.1 by the Stockfish developers\n");
	engine(s, "id name Stockfish 15.1\n");
	engine(s, "option name Hash type spin default 16 min 1 max 33554432\n");
	assert_string_equal(s->gui, "");
	assert_null(fb_filter_engine_protocol(&s->f));
	engine(s, "uciok\n");
	/* Decided; the GUI's lines go on from the timer, with its sink. */
	assert_int_equal(s->timer, 1);
	assert_string_equal(s->engine, "");
	fb_filter_timeout(&s->f, &s->from_gui);
	assert_ptr_equal(fb_filter_engine_protocol(&s->f), &fb_protocol_uci);
	assert_int_equal(s->timer, 0);
	/* The GUI's held uci goes to the engine: it answers the GUI now. */
	assert_string_equal(s->engine, "uci\n");
	assert_string_equal(s->gui, "");
	clear(s);
	engine(s, "id name Stockfish 15.1\n");
	assert_string_equal(s->gui, "id name Stockfish 15.1\n");
	stop(s);
}

static void
test_probe_held_lines_keep_their_order(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "uci\n");
	gui(s, "setoption name Hash value 32\n");
	gui(s, "isready\n");
	clear(s);
	engine(s, "uciok\n");
	fb_filter_timeout(&s->f, &s->from_gui);
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
	engine(s, "Error (unknown command): uci\n"); /* no second decision */
	assert_int_equal(s->timer, 1);
	fb_filter_timeout(&s->f, &s->from_gui);
	assert_ptr_equal(fb_filter_engine_protocol(&s->f),
			 &fb_protocol_xboard);
	/* The GUI's held uci reached the translating pair, which opens
	 * CECP (and waits for the features with its own timer). */
	assert_non_null(strstr(s->engine, "xboard\nprotover 2\n"));
	assert_string_equal(s->gui, ""); /* the refusal is fenbridge's */
	stop(s);
}

static void
test_probe_silence_means_xboard(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "xboard\n");
	gui(s, "protover 2\n");
	/* The GUI waits while the engine is asked. */
	assert_string_equal(s->gui, "feature done=0\n");
	assert_string_equal(s->engine, "uci\n");
	clear(s);
	fb_filter_timeout(&s->f, &s->from_gui);
	assert_ptr_equal(fb_filter_engine_protocol(&s->f),
			 &fb_protocol_xboard);
	assert_string_equal(s->engine, "xboard\nprotover 2\n");
	/* The engine's features end the wait it was given. */
	assert_int_equal(s->timer, 2000);
	engine(s, "feature myname=\"Fairy-Max 5.0b\" done=1\n");
	assert_int_equal(s->timer, 0);
	assert_string_equal(s->gui, "feature myname=\"Fairy-Max 5.0b\" "
				    "done=1\n");
	stop(s);
}

static void
test_probe_protover1_engine_released_by_fenbridge(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "xboard\n");
	gui(s, "protover 2\n");
	fb_filter_timeout(&s->f, &s->from_gui);
	clear(s);
	/* An engine that sends no features: the GUI would wait an hour. */
	engine(s, "Hello\n");
	fb_filter_timeout(&s->f, &s->from_gui);
	assert_string_equal(s->gui, "Hello\nfeature done=1\n");
	stop(s);
}

static void
test_probe_id_then_silence_means_uci(void **state)
{
	struct session *s = start();

	(void)state;
	gui(s, "uci\n");
	engine(s, "id name Slow\n");
	fb_filter_timeout(&s->f, &s->from_gui);
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
	/* Held lines are bounded: the probe ends, and the held lines go to
	 * the pair (the UCI GUI / XBoard engine one). */
	assert_ptr_equal(fb_filter_engine_protocol(&s->f),
			 &fb_protocol_xboard);
	assert_non_null(strstr(s->engine, "xboard\n")); /* the held uci */
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_uci_engine_answers),
		cmocka_unit_test(test_probe_held_lines_keep_their_order),
		cmocka_unit_test(test_probe_xboard_error_decides_at_once),
		cmocka_unit_test(test_probe_silence_means_xboard),
		cmocka_unit_test(
			test_probe_protover1_engine_released_by_fenbridge),
		cmocka_unit_test(test_probe_id_then_silence_means_uci),
		cmocka_unit_test(test_probe_gui_that_does_not_wait),
		cmocka_unit_test(test_probe_off_chooses_at_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
