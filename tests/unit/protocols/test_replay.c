/* SPDX-License-Identifier: MIT */
/*
 * `fenbridge replay`'s pure part (protocols/replay.c): flight records and
 * logs read into steps and answers (UCI and CECP, a Windows record, a cut
 * record, a log of two sessions, --until), and the comparer's verdicts: a
 * crash reproduced, a different move, a missing readyok, an answer the
 * record lacks, a record of nothing wrong.
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

#include "fenbridge/error.h"
#include "replay.h"

static const char uci_record[] =
	"fenbridge flight record: the engine died of SIGSEGV (11)\n"
	"fenbridge 1.0; GUI protocol uci, engine protocol uci, variant "
	"normal\n"
	"engine: /x/fake\n"
	"the position now: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w "
	"HAha - 0 1\n"
	"the last lines both ways, oldest first, in the order they were read "
	"(seconds since fenbridge started); what fenbridge sent follows the "
	"read it came from, and every line the engine was sent is an >engine "
	"line:\n"
	"   0.010 gui>     uci\n"                                    /* 6 */
	"   0.010 >engine  uci\n"                                    /* 7 */
	"   0.020 engine>  id name fake\n"                           /* 8 */
	"   0.020 engine>  uciok\n"                                  /* 9 */
	"   0.030 >engine  isready\n"                                /* 10 */
	"   0.040 engine>  readyok\n"                                /* 11 */
	"   0.050 >engine  position startpos moves e2e4\n"           /* 12 */
	"   0.050 >engine  go depth 3\n"                             /* 13 */
	"   0.070 engine>  info depth 3 pv e7e5\n"                   /* 14 */
	"   0.250 engine>  bestmove e7e5 ponder g1f3\n"              /* 15 */
	"   0.300 >engine  position startpos moves e2e4 e7e5 g1f3\n" /* 16 */
	"   0.300 >engine  go depth 3\n"                             /* 17 */
	"   0.300 engine!  Segmentation fault\\x07\n"                /* 18 */
	"   0.400 fenbridge: something\n";

static struct fb_replay
parsed(const char *text, unsigned until)
{
	struct fb_replay r;
	char err[256] = "";
	int rc =
		fb_replay_parse(&r, text, strlen(text), until, err, sizeof err);

	if (rc != 0)
		fail_msg("parse: %s", err);
	return r;
}

static void
test_replay_reads_a_uci_record(void **state)
{
	struct fb_replay r = parsed(uci_record, 0);

	(void)state;
	assert_false(r.log);
	assert_false(r.cecp);
	assert_false(r.cut);
	assert_int_equal(r.end, FB_RP_END_SIGNAL);
	assert_int_equal(r.code, 11);
	assert_string_equal(r.reason, "the engine died of SIGSEGV (11)");
	assert_int_equal(r.nstep, 6);
	assert_string_equal(r.step[0].text, "uci");
	assert_int_equal(r.step[0].line, 7);
	assert_string_equal(r.step[3].text, "go depth 3");
	assert_int_equal(r.step[3].ms, 40); /* since the first step */
	/* what fast mode waits for after each: uciok; readyok; nothing
	 * between position and go; the bestmove; nothing; nothing */
	assert_int_equal(r.step[0].answers, 1);
	assert_int_equal(r.step[1].answers, 2);
	assert_int_equal(r.step[2].answers, 2);
	assert_int_equal(r.step[3].answers, 3);
	assert_int_equal(r.step[3].wait_ms, 200);
	assert_int_equal(r.step[5].answers, 3);
	assert_int_equal(r.nans, 3);
	assert_true(r.ans[2].move);
	assert_string_equal(r.ans[2].text, "bestmove e7e5 ponder g1f3");
	fb_replay_free(&r);
}

/* Feeds the comparer answers, as if each followed step k-1. */
static int
replay(const struct fb_replay *r, const char *const *lines, size_t sent,
       bool exited, int sig, char *out, size_t cap)
{
	struct fb_replay_cmp c;

	fb_replay_cmp_init(&c, r);
	for (size_t i = 0; lines[i] != NULL; i++)
		fb_replay_cmp_line(&c, lines[i], strlen(lines[i]));
	c.sent = sent;
	return fb_replay_verdict(&c, exited, 0, sig, out, cap);
}

static void
test_replay_verdicts_on_a_crash(void **state)
{
	struct fb_replay r = parsed(uci_record, 0);
	static const char *const same[] = {"id name other",
					   "uciok",
					   "readyok",
					   "info depth 3",
					   "bestmove e7e5 ponder b8c6",
					   NULL};
	static const char *const other[] = {"uciok", "readyok", "bestmove d7d5",
					    NULL};
	static const char *const silent[] = {"uciok", NULL};
	char out[1024];

	(void)state;
	/* the same answers (the ponder move aside) and the same signal */
	assert_int_equal(replay(&r, same, 6, true, 11, out, sizeof out), 0);
	assert_non_null(strstr(out, "reproduced"));
	assert_non_null(strstr(out, "died of SIGSEGV (11) after 6 of 6"));
	/* the same signal, a different move: the crash is reproduced, the
	 * difference told */
	assert_int_equal(replay(&r, other, 6, true, 11, out, sizeof out), 0);
	assert_non_null(strstr(out, "first difference: the record has "
				    "'bestmove e7e5 ponder g1f3' (line 15), "
				    "the engine answered 'bestmove d7d5'"));
	/* no crash: not reproduced */
	assert_int_equal(replay(&r, same, 6, false, 0, out, sizeof out), 1);
	assert_non_null(strstr(out, "not reproduced"));
	/* another signal */
	assert_int_equal(replay(&r, same, 6, true, 6, out, sizeof out), 1);
	/* a readyok that never came */
	assert_int_equal(replay(&r, silent, 2, false, 0, out, sizeof out), 1);
	assert_non_null(strstr(out, "the record's 'readyok' (line 11) never "
				    "came"));
	fb_replay_free(&r);
}

static void
test_replay_reads_a_windows_cecp_record(void **state)
{
	static const char rec[] =
		"fenbridge flight record: the engine died of 0xC0000005 "
		"(STATUS_ACCESS_VIOLATION)\r\n"
		"fenbridge 1.0; GUI protocol uci, engine protocol xboard, "
		"variant normal\r\n"
		"the last lines both ways, oldest first:\r\n"
		"   0.001 gui>     uci\r\n"
		"   0.001 >engine  xboard\r\n"
		"   0.001 >engine  protover 2\r\n"
		"   0.002 engine>  feature ping=1 setboard=1 done=1\r\n"
		"   0.003 >engine  new\r\n"
		"   0.003 >engine  force\r\n"
		"   0.003 >engine  usermove e2e4\r\n"
		"   0.004 >engine  go\r\n"
		"   0.504 engine>  move e7e5\r\n"
		"   0.600 >engine  ping 7\r\n"
		"   0.601 engine>  pong 7\r\n";
	struct fb_replay r = parsed(rec, 0);
	static const char *const same[] = {"feature done=1", "move e7e5",
					   "pong 7", NULL};
	static const char *const pong[] = {"feature done=1", "move e7e5",
					   "pong 6", NULL};
	char out[1024];

	(void)state;
	assert_true(r.cecp);
	assert_int_equal(r.end, FB_RP_END_SIGNAL);
	assert_int_equal(r.code, 11); /* an access violation is a SIGSEGV */
	assert_int_equal(r.nstep, 7);
	assert_int_equal(r.step[6].answers, 3);
	assert_int_equal(r.step[5].answers, 2);
	assert_int_equal(r.step[4].answers, 1);
	assert_int_equal(replay(&r, same, 7, true, 11, out, sizeof out), 0);
	assert_int_equal(replay(&r, pong, 7, true, 11, out, sizeof out), 0);
	assert_non_null(strstr(out, "'pong 7' (line 14), the engine answered "
				    "'pong 6'"));
	assert_int_equal(fb_replay_signal_of(0xC0000005), 11);
	assert_int_equal(fb_replay_signal_of(0xC000001D), 4);
	fb_replay_free(&r);
}

static void
test_replay_starts_a_cut_record_at_a_full_position(void **state)
{
	static const char rec[] =
		"fenbridge flight record: the engine died of SIGABRT (6)\n"
		"fenbridge 1.0; GUI protocol uci, engine protocol uci, variant "
		"fischerandom\n"
		"the last lines both ways:\n"
		"   5.000 >engine  setoption name UCI_Chess960 value true\n"
		"   5.100 engine>  info string flood 9000\n"
		"   5.200 cut      every line from here on was kept\n"
		"   5.200 >engine  go depth 2\n" /* 7: no full pos */
		"   5.300 engine>  bestmove a2a3\n"
		"   5.400 >engine  position startpos moves a2a3\n" /* 9 */
		"   5.400 >engine  go depth 2\n"
		"   5.500 engine>  bestmove b7b6\n";
	struct fb_replay r = parsed(rec, 0);
	static const char *const same[] = {"uciok", "readyok", "bestmove b7b6",
					   NULL};
	char out[1024];

	(void)state;
	assert_true(r.cut);
	assert_int_equal(r.cut_line, 6);
	assert_int_equal(r.start_line, 9);
	assert_int_equal(r.lost, 2);
	/* uci, the older setoption, isready made up; then from line 9 */
	assert_int_equal(r.nstep, 5);
	assert_string_equal(r.step[0].text, "uci");
	assert_int_equal(r.step[0].answers, 1);
	assert_string_equal(r.step[1].text,
			    "setoption name UCI_Chess960 value true");
	assert_string_equal(r.step[2].text, "isready");
	assert_int_equal(r.step[2].answers, 2);
	assert_string_equal(r.step[3].text, "position startpos moves a2a3");
	assert_int_equal(r.step[3].line, 9);
	assert_int_equal(r.step[4].answers, 3);
	assert_int_equal(replay(&r, same, 5, true, 6, out, sizeof out), 0);
	fb_replay_free(&r);
}

static void
test_replay_reads_the_last_session_of_a_log(void **state)
{
	static const char log[] =
		"2026-01-01 10:00:00.000000 info ---- fenbridge 1.0 session "
		"(3 arguments) ----\n"
		"2026-01-01 10:00:00.100000 >engine uci\n"
		"2026-01-01 10:00:00.200000 engine> uciok\n"
		"2026-01-01 10:00:01.000000 info engine exited with status 0\n"
		"2026-01-01 23:59:59.900000 info ---- fenbridge 1.0 session "
		"(3 arguments) ----\n"
		"2026-01-01 23:59:59.950000 >engine uci\n"
		"2026-01-01 23:59:59.990000 engine> uciok\n"
		"2026-01-02 00:00:00.000000 >engine setoption name A\\tvalue "
		"b\\\\c\\x01\n"
		"2026-01-02 00:00:00.050000 >engine isready\n"
		"2026-01-02 00:00:00.060000 engine> readyok\n"
		"2026-01-02 00:00:00.070000 >engine quit\n"
		"2026-01-02 00:00:00.080000 info engine exited with status 0\n";
	struct fb_replay r = parsed(log, 0);
	static const char *const same[] = {"uciok", "readyok", NULL};
	char out[1024];

	(void)state;
	assert_true(r.log);
	assert_int_equal(r.nstep, 4);
	assert_int_equal(r.start_line, 6);
	assert_string_equal(r.step[1].text, "setoption name A\tvalue b\\c\x01");
	assert_int_equal(r.step[1].ms, 50); /* across midnight */
	assert_int_equal(r.step[2].answers, 2);
	/* the exit after quit is no failure */
	assert_int_equal(r.end, FB_RP_END_NONE);
	assert_int_equal(replay(&r, same, 4, true, 0, out, sizeof out), 0);
	assert_non_null(strstr(out, "replayed: no divergence"));
	fb_replay_free(&r);

	/* --until=7: up to the second session's uciok */
	r = parsed(log, 7);
	assert_int_equal(r.nstep, 1);
	assert_int_equal(r.nans, 1);
	fb_replay_free(&r);
}

static void
test_replay_refuses_what_is_no_record(void **state)
{
	struct fb_replay r;
	char err[256];
	static const char empty[] = "fenbridge flight record: x\n"
				    "the last lines both ways:\n"
				    "   0.001 gui>     uci\n";

	(void)state;
	assert_int_equal(fb_replay_parse(&r, "hello\n", 6, 0, err, sizeof err),
			 FB_EINVAL);
	assert_non_null(strstr(err, "neither"));
	assert_int_equal(
		fb_replay_parse(&r, empty, strlen(empty), 0, err, sizeof err),
		FB_EINVAL);
	assert_non_null(strstr(err, "no line sent to the engine"));
}

/* Every prefix of a record (a file cut anywhere, inside a line too) reads
 * or is refused; none is read out of bounds (ASan, MemorySanitizer). */
static void
test_replay_reads_every_prefix(void **state)
{
	size_t len = strlen(uci_record), ok = 0;

	(void)state;
	for (size_t n = 0; n <= len; n++) {
		char *copy = malloc(n ? n : 1);
		struct fb_replay r;
		char err[128];
		int rc;
		assert_non_null(copy);
		memcpy(copy, uci_record, n);
		rc = fb_replay_parse(&r, copy, n, 0, err, sizeof err);
		free(copy);
		assert_true(rc == 0 || rc == FB_EINVAL);
		if (rc == 0) {
			struct fb_replay_cmp c;
			char out[1024];
			ok++;
			assert_true(r.nstep > 0);
			fb_replay_cmp_init(&c, &r);
			fb_replay_cmp_line(&c, "bestmove e7e5", 13);
			c.sent = r.nstep;
			(void)fb_replay_verdict(&c, true, 0, 11, out,
						sizeof out);
			fb_replay_free(&r);
		}
	}
	/* from the first >engine line's tag on, every prefix reads */
	assert_int_equal(ok,
			 len + 1 -
				 (size_t)(strstr(uci_record, " >engine  uci") -
					  uci_record + 8));
}

static void
test_replay_tells_answers_apart(void **state)
{
	(void)state;
	assert_int_equal(fb_replay_answer_kind("bestmove e2e4", 13), 2);
	assert_int_equal(fb_replay_answer_kind("move e2e4", 9), 2);
	assert_int_equal(fb_replay_answer_kind("readyok", 7), 1);
	assert_int_equal(fb_replay_answer_kind("pong 3", 6), 1);
	assert_int_equal(fb_replay_answer_kind("feature done=1", 14), 1);
	assert_int_equal(fb_replay_answer_kind("feature done=0", 14), 0);
	assert_int_equal(fb_replay_answer_kind("info string bestmove", 20), 0);
	assert_int_equal(fb_replay_answer_kind("moves", 5), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_reads_a_uci_record),
		cmocka_unit_test(test_replay_verdicts_on_a_crash),
		cmocka_unit_test(test_replay_reads_a_windows_cecp_record),
		cmocka_unit_test(
			test_replay_starts_a_cut_record_at_a_full_position),
		cmocka_unit_test(test_replay_reads_the_last_session_of_a_log),
		cmocka_unit_test(test_replay_refuses_what_is_no_record),
		cmocka_unit_test(test_replay_reads_every_prefix),
		cmocka_unit_test(test_replay_tells_answers_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
