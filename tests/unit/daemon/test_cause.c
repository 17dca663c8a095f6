/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the words for the engine's end (src/daemon/cause.c): an
 * illegal instruction (SIGILL on POSIX, 0xC000001D on Windows) names the
 * fix and the features of a fake CPU; Windows' other exception codes by
 * name and meaning; other signals and exit statuses as before; the probe's
 * hint; the buffer's limit.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cause.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))
#define F_AVX2 (FB_CPU_SSE41 | FB_CPU_POPCNT | FB_CPU_AVX2)
#define F_ALL ((1u << FB_CPU_NFEATURES) - 1)

static const char probe_hint[] =
	" before it answered the protocol probe; name its protocol with "
	"--engine-protocol=uci or xboard";

/* The advice for a CPU with SSE4.1, POPCNT and AVX2 only. */
static const char avx2_advice[] =
	", an illegal instruction: this build of the engine needs "
	"instructions this CPU lacks; use a build for an older CPU: 'avx2', "
	"'popcnt' or 'x86-64', not 'avx512' or 'bmi2' (this CPU: SSE4.1 "
	"POPCNT AVX2; not: BMI2 AVX-512F AVX-512BW AVX-512VL); or name each "
	"build in fenbridge's INI file (engine.avx2 = ..., engine = ...) and "
	"it starts the one this CPU runs";

static void
expect(const struct fb_cause *c, const char *what, const char *msg)
{
	char out[1024];
	size_t n = fb_cause_what(c, out, sizeof out);

	assert_string_equal(out, what);
	assert_int_equal(n, strlen(what));
	n = fb_cause_explain(c, out, sizeof out);
	assert_string_equal(out, msg);
	assert_int_equal(n, strlen(msg));
}

static void
test_cause_sigill_posix(void **state)
{
	struct fb_cpu cpu = {true, F_AVX2, F_AVX2};
	struct fb_cause c = {
		.os = FB_CAUSE_POSIX, .signal = SIGILL, .cpu = &cpu};
	char what[64], msg[1024];

	(void)state;
	snprintf(what, sizeof what, "died of SIGILL (%d)", SIGILL);
	snprintf(msg, sizeof msg, "%s%s", what, avx2_advice);
	expect(&c, what, msg);
	assert_true(fb_cause_is_illegal_instruction(&c));
	/* Not the probe's doing: no hint about it */
	c.probing = true;
	expect(&c, what, msg);
}

static void
test_cause_illegal_instruction_windows(void **state)
{
	struct fb_cpu cpu = {true, F_AVX2, F_AVX2};
	struct fb_cause c = {
		.os = FB_CAUSE_WINDOWS, .status = 0xC000001D, .cpu = &cpu};
	const char *what = "died of 0xC000001D (STATUS_ILLEGAL_INSTRUCTION)";
	char msg[1024];

	(void)state;
	snprintf(msg, sizeof msg, "%s%s", what, avx2_advice);
	expect(&c, what, msg);
	assert_true(fb_cause_is_illegal_instruction(&c));
	/* An exit code made an int on the way */
	c.status = (int32_t)0xC000001D;
	expect(&c, what, msg);
	/* The same number on POSIX is only a status */
	c.os = FB_CAUSE_POSIX;
	c.status = 0xC000001D;
	expect(&c, "exited with status 3221225501",
	       "exited with status 3221225501");
	assert_false(fb_cause_is_illegal_instruction(&c));
}

static void
test_cause_illegal_instruction_cpus(void **state)
{
	struct fb_cpu all = {true, F_ALL, F_ALL}, none = {0};
	struct fb_cause c = {.os = FB_CAUSE_WINDOWS, .status = 0xC000001D};
	char out[1024];

	(void)state;
	c.cpu = &all;
	fb_cause_explain(&c, out, sizeof out);
	assert_string_equal(
		out, "died of 0xC000001D (STATUS_ILLEGAL_INSTRUCTION), an "
		     "illegal instruction: this CPU has every feature "
		     "fenbridge checks (SSE4.1 POPCNT AVX2 BMI2 AVX-512F "
		     "AVX-512BW AVX-512VL), so this build may need newer ones "
		     "(AVX-512 VNNI, AVX-VNNI), or the engine stopped itself "
		     "on purpose; try a build for an older CPU");
	for (int i = 0; i < 2; i++) {
		c.cpu = i == 0 ? &none : NULL;
		fb_cause_explain(&c, out, sizeof out);
		assert_string_equal(
			out,
			"died of 0xC000001D (STATUS_ILLEGAL_INSTRUCTION), "
			"an illegal instruction: this build of the engine "
			"probably needs instructions this CPU lacks; use a "
			"build for an older CPU (fenbridge cannot see this "
			"CPU's features)");
	}
}

static void
test_cause_windows_codes(void **state)
{
	static const struct {
		int64_t status;
		const char *what, *meaning;
	} cases[] = {
		{0xC0000005, "died of 0xC0000005 (STATUS_ACCESS_VIOLATION)",
		 ", an access violation (it used memory it does not own: a "
		 "crash)"},
		{0xC00000FD, "died of 0xC00000FD (STATUS_STACK_OVERFLOW)",
		 ", a stack overflow"},
		{0xC0000135, "died of 0xC0000135 (STATUS_DLL_NOT_FOUND)",
		 ", a DLL it needs was not found: put the DLLs that came with "
		 "it beside it, or use a statically linked build"},
		{0xC0000409, "died of 0xC0000409 (STATUS_STACK_BUFFER_OVERRUN)",
		 ", a stack buffer overrun, or it aborted itself (fail fast)"},
		{0xC0000094,
		 "died of 0xC0000094 (STATUS_INTEGER_DIVIDE_BY_ZERO)",
		 ", an integer division by zero"},
		{0xE06D7363, "died of 0xE06D7363 (a C++ exception)",
		 ", nothing caught it"},
		{0xC0001234, "exited with status 0xC0001234", ""},
		{-1, "exited with status 0xFFFFFFFF", ""},
		{0xFFFFFFFF, "exited with status 0xFFFFFFFF", ""},
		{3, "exited with status 3", ""},
		{0, "exited with status 0", ""},
	};
	char msg[1024];

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		struct fb_cause c = {.os = FB_CAUSE_WINDOWS,
				     .status = cases[i].status};
		snprintf(msg, sizeof msg, "%s%s", cases[i].what,
			 cases[i].meaning);
		expect(&c, cases[i].what, msg);
		assert_false(fb_cause_is_illegal_instruction(&c));
		/* During the probe the hint follows */
		c.probing = true;
		snprintf(msg, sizeof msg, "%s%s%s", cases[i].what,
			 cases[i].meaning, probe_hint);
		expect(&c, cases[i].what, msg);
	}
	/* A signal libuv reports (fenbridge's own kill) wins over the code */
	{
		struct fb_cause c = {
			.os = FB_CAUSE_WINDOWS, .status = 1, .signal = SIGTERM};
		char what[64];
		snprintf(what, sizeof what, "died of SIGTERM (%d)", SIGTERM);
		expect(&c, what, what);
	}
}

static void
test_cause_posix(void **state)
{
	static const struct {
		int sig;
		const char *name;
	} sigs[] = {
		{SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"},
		{SIGFPE, "SIGFPE"},   {SIGTERM, "SIGTERM"},
		{SIGINT, "SIGINT"},
#ifndef _WIN32
		{SIGKILL, "SIGKILL"}, {SIGBUS, "SIGBUS"},
		{SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"},
		{SIGHUP, "SIGHUP"},   {SIGPIPE, "SIGPIPE"},
		{SIGXCPU, "SIGXCPU"},
#endif
	};
	char what[64], msg[256];

	(void)state;
	for (size_t i = 0; i < N_ELEMS(sigs); i++) {
		struct fb_cause c = {.os = FB_CAUSE_POSIX,
				     .signal = sigs[i].sig};
		assert_string_equal(fb_cause_signal_name(sigs[i].sig),
				    sigs[i].name);
		snprintf(what, sizeof what, "died of %s (%d)", sigs[i].name,
			 sigs[i].sig);
		expect(&c, what, what);
		assert_false(fb_cause_is_illegal_instruction(&c));
		c.probing = true;
		snprintf(msg, sizeof msg, "%s%s", what, probe_hint);
		expect(&c, what, msg);
	}
	assert_string_equal(fb_cause_signal_name(0), "signal");
	{
		struct fb_cause c = {.os = FB_CAUSE_POSIX, .status = 3};
		expect(&c, "exited with status 3", "exited with status 3");
		/* 128 + SIGILL: a status, not a death (a shell's, maybe) */
		c.status = 128 + SIGILL;
		snprintf(what, sizeof what, "exited with status %d",
			 128 + SIGILL);
		expect(&c, what, what);
	}
}

static void
test_cause_buffer_limit(void **state)
{
	struct fb_cpu cpu = {true, F_AVX2, F_AVX2};
	struct fb_cause c = {
		.os = FB_CAUSE_POSIX, .signal = SIGILL, .cpu = &cpu};
	char whole[1024], cut[40];
	size_t n;

	(void)state;
	n = fb_cause_explain(&c, whole, sizeof whole);
	assert_int_equal(fb_cause_explain(&c, cut, sizeof cut), n);
	assert_int_equal(strlen(cut), sizeof cut - 1);
	assert_memory_equal(cut, whole, sizeof cut - 1);
	assert_int_equal(fb_cause_what(&c, NULL, 0),
			 strlen("died of SIGILL ()") +
				 (size_t)snprintf(NULL, 0, "%d", SIGILL));
}

/* Which ends may answer the protocol probe (an engine that dies of a
 * command it does not know is started again in the other protocol). */
static void
test_cause_answers_probe(void **state)
{
	static const int crashes[] = {SIGSEGV, SIGFPE, SIGABRT,
#ifndef _WIN32
				      SIGBUS
#endif
	};
	static const int outside[] = {SIGILL,  SIGTERM,
				      SIGINT,
#ifndef _WIN32
				      SIGKILL, SIGHUP,
				      SIGQUIT
#endif
	};
	struct fb_cause c = {.os = FB_CAUSE_POSIX};

	(void)state;
	assert_true(fb_cause_answers_probe(&c)); /* exit 0 */
	c.status = 1;
	assert_true(fb_cause_answers_probe(&c));
	c.status = 0;
	for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++) {
		c.signal = crashes[i];
		assert_true(fb_cause_answers_probe(&c));
	}
	for (size_t i = 0; i < sizeof outside / sizeof outside[0]; i++) {
		c.signal = outside[i];
		assert_false(fb_cause_answers_probe(&c));
	}
	c = (struct fb_cause){.os = FB_CAUSE_WINDOWS, .status = 0xC000001D};
	assert_false(fb_cause_answers_probe(&c));
	c.status = 0xC0000005; /* an access violation: a crash */
	assert_true(fb_cause_answers_probe(&c));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cause_sigill_posix),
		cmocka_unit_test(test_cause_answers_probe),
		cmocka_unit_test(test_cause_illegal_instruction_windows),
		cmocka_unit_test(test_cause_illegal_instruction_cpus),
		cmocka_unit_test(test_cause_windows_codes),
		cmocka_unit_test(test_cause_posix),
		cmocka_unit_test(test_cause_buffer_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
