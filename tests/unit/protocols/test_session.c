/* SPDX-License-Identifier: MIT */
/*
 * The session (protocols/session.c) driven through a capturing io, as the
 * bridge drives it: the filter, the referee and the journal on one wire.
 * A referee's finding reaches the GUI before the line that caused it; the
 * probe's restart is not --restart's (no flight record, not counted), and
 * --restart's replays the journal and tells the GUI once; fenbridge's own
 * lines carry the prefix of their level in the GUI's protocol.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fenbridge/line.h"
#include "session.h"

#define CAP (32 * 1024)

/* What the session gave its io. */
struct io {
	char out[2][CAP]; /* by enum fb_session_side */
	size_t nout[2];
	char log[CAP];
	size_t nlog;
	unsigned records, events[2];
	char reason[256];
	uint64_t now;
};

static bool
io_out(void *ctx, enum fb_session_side to, const char *data, size_t len,
       enum fb_session_out how)
{
	struct io *io = ctx;

	(void)how;
	assert_true(io->nout[to] + len < CAP);
	memcpy(io->out[to] + io->nout[to], data, len);
	io->nout[to] += len;
	io->out[to][io->nout[to]] = '\0';
	return true;
}

static void
io_log(void *ctx, enum fb_level level, const char *msg)
{
	struct io *io = ctx;
	int n = snprintf(io->log + io->nlog, CAP - io->nlog, "%d %s\n",
			 (int)level, msg);

	if (n > 0 && io->nlog + (size_t)n < CAP)
		io->nlog += (size_t)n;
}

static void
io_print(void *ctx, const char *line, size_t len)
{
	(void)ctx;
	(void)line;
	(void)len;
}

static const char *
io_record(void *ctx, const char *reason, bool note, bool *first)
{
	struct io *io = ctx;

	(void)note;
	snprintf(io->reason, sizeof io->reason, "%s", reason);
	*first = ++io->records == 1;
	return "/tmp/fenbridge-record.txt";
}

static void
io_timer(void *ctx, bool answer, unsigned ms)
{
	(void)ctx;
	(void)answer;
	(void)ms;
}

static uint64_t
io_now(void *ctx, enum fb_session_clock clock)
{
	(void)clock;
	return ((struct io *)ctx)->now;
}

static void
io_event(void *ctx, enum fb_session_event ev)
{
	((struct io *)ctx)->events[ev]++;
}

static struct fb_session *
session(struct io *io, const char *gui, const char *engine, unsigned restarts,
	int referee)
{
	static char *argv[] = {"engine", NULL};
	struct fb_session_options o = {
		.protocol = gui,
		.engine_protocol = engine,
		.engine_fen = FB_SHREDDER,
		.gui_fen = FB_SHREDDER,
		.restarts = restarts,
		.referee = referee,
		.level = FB_LOG_DEBUG,
		.version = "test",
		.engine_argv = argv,
	};
	struct fb_session_io sio = {
		.out = io_out,
		.log = io_log,
		.print = io_print,
		.record = io_record,
		.timer = io_timer,
		.now = io_now,
		.event = io_event,
		.ctx = io,
	};
	struct fb_session *s;

	memset(io, 0, sizeof *io);
	s = fb_session_new(&o, &sio);
	assert_non_null(s);
	return s;
}

/* Feeds the lines of text (each ended by "\n") from the GUI or the engine. */
static void
feed(struct fb_session *s, bool gui, const char *text)
{
	while (*text != '\0') {
		size_t len = strcspn(text, "\n");
		if (gui)
			fb_session_gui_line(s, text, len, 1, 0);
		else
			fb_session_engine_line(s, text, len, 1, 0);
		text += len + 1;
	}
}

/* Forgets what the io got so far. */
static void
clear(struct io *io)
{
	io->nout[0] = io->nout[1] = 0;
	io->out[0][0] = io->out[1][0] = '\0';
	io->nlog = 0;
	io->log[0] = '\0';
}

static const struct fb_session_exit died = {
	.running = true, .answers_probe = true, .what = "exited with status 1"};

/* The referee judges the engine's line as read: its finding is on the
 * GUI's wire before the line itself (warn mode: a UCI GUI's note). */
static void
test_session_finding_before_its_line(void **state)
{
	struct io io;
	struct fb_session *s = session(&io, "uci", "uci", 0, 1);

	(void)state;
	feed(s, true, "position startpos moves e2e4\ngo depth 1\n");
	assert_string_equal(io.out[FB_SIDE_ENGINE],
			    "position startpos moves e2e4\ngo depth 1\n");
	feed(s, false, "bestmove e2e4\n");
	assert_non_null(strstr(io.out[FB_SIDE_GUI],
			       "info string fenbridge: referee: "));
	assert_non_null(strstr(io.out[FB_SIDE_GUI], "bestmove 'e2e4' is not "
						    "legal"));
	/* The finding's line, then the engine's as it came, last. */
	assert_int_equal(strncmp(io.out[FB_SIDE_GUI], "info string ", 12), 0);
	assert_true(io.nout[FB_SIDE_GUI] > 15);
	assert_string_equal(io.out[FB_SIDE_GUI] + io.nout[FB_SIDE_GUI] - 15,
			    "\nbestmove e2e4\n");
	assert_int_equal(io.records, 0); /* warn mode: no flight record */
	assert_int_equal(fb_session_end(s), 0);
	fb_session_free(s);

	/* Strict mode: the first finding writes the flight record, and the
	 * end calls for exit status 3. */
	s = session(&io, "uci", "uci", 0, 2);
	feed(s, true, "position startpos moves e2e4\ngo depth 1\n");
	feed(s, false, "bestmove e2e4\n");
	assert_int_equal(io.records, 1);
	assert_non_null(strstr(io.reason, "bestmove 'e2e4' is not legal"));
	assert_int_equal(fb_session_end(s), 3);
	fb_session_free(s);
}

/* An XBoard GUI: a finding is a comment in warn mode, telluser (a dialog)
 * in strict mode. */
static void
test_session_finding_xboard(void **state)
{
	static const char *const want[] = {NULL, "# fenbridge: referee: ",
					   "telluser fenbridge: referee: "};
	struct io io;

	(void)state;
	for (int mode = 1; mode <= 2; mode++) {
		struct fb_session *s =
			session(&io, "xboard", "xboard", 0, mode);
		feed(s, true,
		     "xboard\nprotover 2\nnew\nforce\nusermove e2e4\n");
		clear(&io);
		feed(s, false, "move e2e4\n");
		assert_int_equal(strncmp(io.out[FB_SIDE_GUI], want[mode],
					 strlen(want[mode])),
				 0);
		assert_int_equal(io.records, mode == 2 ? 1 : 0);
		fb_session_free(s);
	}
}

/* The engine dies of the probe's question: the probe's restart (the other
 * protocol), whatever --restart says: no flight record, not counted, no
 * word to the GUI. */
static void
test_session_probe_restart(void **state)
{
	struct io io;

	(void)state;
	for (unsigned restarts = 0; restarts <= 1; restarts++) {
		struct fb_session *s = session(&io, "uci", "auto", restarts, 0);
		feed(s, true, "uci\n");
		assert_true(fb_session_probing(s));
		assert_string_equal(io.out[FB_SIDE_ENGINE], "uci\n");
		clear(&io);
		assert_int_equal(fb_session_engine_exited(s, &died),
				 FB_SESSION_RESTART);
		assert_int_equal(io.records, 0);
		assert_null(strstr(io.log, "mid-game"));
		fb_session_run(s, FB_STEP_ENGINE_STARTED);
		assert_int_equal(strncmp(io.out[FB_SIDE_ENGINE], "xboard\n", 7),
				 0);
		assert_int_equal(io.nout[FB_SIDE_GUI], 0);
		/* It dies again: once is the probe's. */
		assert_int_equal(fb_session_engine_exited(s, &died),
				 restarts > 0 && !fb_session_probing(s)
					 ? FB_SESSION_RESTART
					 : FB_SESSION_END);
		fb_session_free(s);
	}
}

static const char handshake[] = "uci\n";
static const char answer[] = "id name T\nuciok\n";
static const char game[] = "isready\nposition startpos moves e2e4\n"
			   "go depth 1\n";

/* --restart: an engine that dies mid-game is started again and brought
 * where the GUI believes it was (the journal's replay); the flight record
 * is written, the GUI told once; the new engine's answer to the replayed
 * handshake is not the GUI's. As many times as --restart says. */
static void
test_session_restart(void **state)
{
	struct io io;
	struct fb_session *s = session(&io, "uci", "uci", 1, 0);
	struct fb_session_exit asked = died, again = died;

	(void)state;
	feed(s, true, handshake);
	feed(s, false, answer);
	feed(s, true, game);
	feed(s, false, "readyok\n");
	clear(&io);
	/* Asked for (the GUI quit), or of a cause that comes again: no. */
	asked.asked = true;
	assert_int_equal(fb_session_engine_exited(s, &asked), FB_SESSION_END);
	again.dies_again = true;
	assert_int_equal(fb_session_engine_exited(s, &again), FB_SESSION_END);
	assert_int_equal(io.records, 0);

	assert_int_equal(fb_session_engine_exited(s, &died),
			 FB_SESSION_RESTART);
	assert_int_equal(io.records, 1);
	assert_string_equal(io.reason, "the engine exited with status 1");
	assert_non_null(strstr(io.log, "mid-game; starting it again (1 of 1"));
	fb_session_run(s, FB_STEP_ENGINE_STARTED);
	assert_non_null(strstr(io.out[FB_SIDE_ENGINE], "uci\n"));
	assert_non_null(
		strstr(io.out[FB_SIDE_ENGINE], "position startpos moves e2e4"));
	assert_string_equal(io.out[FB_SIDE_GUI],
			    "info string fenbridge: the engine exited with "
			    "status 1; restarted (1 of 1)\n");
	clear(&io);
	feed(s, false, answer);
	assert_int_equal(io.nout[FB_SIDE_GUI], 0);
	feed(s, false, "bestmove e7e5\n");
	assert_string_equal(io.out[FB_SIDE_GUI], "bestmove e7e5\n");
	/* Its one restart is used. */
	assert_int_equal(fb_session_engine_exited(s, &died), FB_SESSION_END);
	fb_session_free(s);

	/* Without --restart the end is the session's. */
	s = session(&io, "uci", "uci", 0, 0);
	feed(s, true, handshake);
	feed(s, false, answer);
	assert_int_equal(fb_session_engine_exited(s, &died), FB_SESSION_END);
	fb_session_free(s);
}

/* fenbridge's own lines, by protocol and level; none before the GUI's
 * protocol is known. */
static void
test_session_prefixes(void **state)
{
	static const struct {
		const char *proto;
		const char *want[3]; /* by enum fb_say */
	} cases[] = {
		{"uci",
		 {"info string fenbridge: x 1\n",
		  "info string fenbridge: x 1\n",
		  "info string fenbridge: x 1\n"}},
		{"xboard",
		 {"# fenbridge: x 1\n", "telluser fenbridge: x 1\n",
		  "tellusererror fenbridge: x 1\n"}},
	};
	struct io io;
	struct fb_session *s;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (int level = FB_SAY_NOTE; level <= FB_SAY_ERROR; level++) {
			s = session(&io, cases[i].proto, cases[i].proto, 0, 0);
			assert_true(fb_session_can_say(s));
			assert_true(fb_session_say(s, (enum fb_say)level,
						   "x %d", 1));
			assert_string_equal(io.out[FB_SIDE_GUI],
					    cases[i].want[level]);
			assert_int_equal(io.nout[FB_SIDE_ENGINE], 0);
			fb_session_free(s);
		}
	}
	/* The GUI's first command tells its protocol. */
	s = session(&io, NULL, "uci", 0, 0);
	assert_false(fb_session_can_say(s));
	assert_false(fb_session_say(s, FB_SAY_ERROR, "x"));
	assert_int_equal(io.nout[FB_SIDE_GUI], 0);
	feed(s, true, "xboard\n");
	assert_true(fb_session_say(s, FB_SAY_WARNING, "x"));
	assert_string_equal(io.out[FB_SIDE_GUI], "telluser fenbridge: x\n");
	fb_session_free(s);
}

/* A line of fenbridge's own after half a line the GUI has got starts a
 * new line. */
static void
test_session_own_line_after_half(void **state)
{
	struct io io;
	struct fb_session *s = session(&io, "uci", "uci", 0, 0);

	(void)state;
	fb_session_engine_line(s, "info string abc", 15, 0, FB_LINE_CONT);
	assert_true(fb_session_say(s, FB_SAY_NOTE, "x"));
	assert_string_equal(io.out[FB_SIDE_GUI],
			    "info string abc\ninfo string fenbridge: x\n");
	fb_session_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_session_finding_before_its_line),
		cmocka_unit_test(test_session_finding_xboard),
		cmocka_unit_test(test_session_probe_restart),
		cmocka_unit_test(test_session_restart),
		cmocka_unit_test(test_session_prefixes),
		cmocka_unit_test(test_session_own_line_after_half),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
