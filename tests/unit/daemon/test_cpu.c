/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the CPU's features and the choice of the engine build
 * (src/daemon/cpu.c), with fake feature sets: cpuid's and xgetbv's bits
 * decoded (a feature the system does not enable is not usable), which
 * build each feature set runs, the first build given that it runs and why,
 * and the words --version and the messages use. Detection on this machine
 * is checked only for consistency; the e2e tests compare it with
 * /proc/cpuinfo.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cpu.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* cpuid's bits (Intel SDM vol. 2A, CPUID), written out again here. */
#define SSE41 (1u << 19)
#define POPCNT (1u << 23)
#define OSXSAVE (1u << 27)
#define AVX (1u << 28)
#define AVX2 (1u << 5)
#define BMI2 (1u << 8)
#define AVX512F (1u << 16)
#define AVX512BW (1u << 30)
#define AVX512VL (1u << 31)

#define F_POPCNT (FB_CPU_SSE41 | FB_CPU_POPCNT)
#define F_AVX2 (F_POPCNT | FB_CPU_AVX2)
#define F_BMI2 (F_AVX2 | FB_CPU_BMI2)
#define F_AVX512 (F_BMI2 | FB_CPU_AVX512F | FB_CPU_AVX512BW)

static struct fb_cpu
fake(unsigned usable)
{
	struct fb_cpu c = {.known = true, .present = usable, .usable = usable};
	return c;
}

static void
test_cpu_from_regs(void **state)
{
	static const struct {
		uint32_t ecx1, ebx7;
		uint64_t xcr0;
		unsigned present, usable;
	} cases[] = {
		{0, 0, 0, 0, 0},
		{SSE41 | POPCNT, 0, 0, F_POPCNT, F_POPCNT},
		{POPCNT, 0, 0, FB_CPU_POPCNT, FB_CPU_POPCNT}, /* AMD K10 */
		/* Haswell with a system that saves ymm */
		{SSE41 | POPCNT | OSXSAVE | AVX, AVX2 | BMI2, 0x7, F_BMI2,
		 F_BMI2},
		/* ... and one that does not: AVX2 would be #UD */
		{SSE41 | POPCNT | OSXSAVE | AVX, AVX2 | BMI2, 0x3, F_BMI2,
		 F_POPCNT | FB_CPU_BMI2},
		/* no OSXSAVE: xgetbv's answer does not count */
		{SSE41 | POPCNT | AVX, AVX2, 0x7, F_AVX2, F_POPCNT},
		/* AVX2 without AVX (no such CPU): not usable */
		{SSE41 | POPCNT | OSXSAVE, AVX2, 0x7, F_AVX2, F_POPCNT},
		/* Skylake-X; the system saves ymm but not zmm */
		{SSE41 | POPCNT | OSXSAVE | AVX,
		 AVX2 | BMI2 | AVX512F | AVX512BW | AVX512VL, 0x7,
		 F_AVX512 | FB_CPU_AVX512VL, F_BMI2},
		{SSE41 | POPCNT | OSXSAVE | AVX,
		 AVX2 | BMI2 | AVX512F | AVX512BW | AVX512VL, 0xe7,
		 F_AVX512 | FB_CPU_AVX512VL, F_AVX512 | FB_CPU_AVX512VL},
		/* zmm state without ymm's AVX bit: neither */
		{SSE41 | POPCNT | OSXSAVE | AVX, AVX2 | AVX512F, 0xe3,
		 F_AVX2 | FB_CPU_AVX512F, F_POPCNT},
		/* other bits are no features of ours */
		{~(SSE41 | POPCNT | OSXSAVE | AVX),
		 ~(AVX2 | BMI2 | AVX512F | AVX512BW | AVX512VL), ~0ull, 0, 0},
	};
	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		struct fb_cpu c;
		fb_cpu_from_regs(&c, cases[i].ecx1, cases[i].ebx7,
				 cases[i].xcr0);
		assert_true(c.known);
		assert_int_equal(c.present, cases[i].present);
		assert_int_equal(c.usable, cases[i].usable);
	}
}

static void
test_cpu_runs(void **state)
{
	/* the features, then whether it runs avx512, bmi2, avx2, popcnt */
	static const struct {
		unsigned usable;
		bool runs[FB_CPU_NBUILDS];
	} cases[] = {
		{0, {false, false, false, false}},
		{FB_CPU_POPCNT, {false, false, false, false}}, /* no SSE4.1 */
		{F_POPCNT, {false, false, false, true}},
		{F_POPCNT | FB_CPU_BMI2, {false, false, false, true}},
		{F_AVX2, {false, false, true, true}},
		{FB_CPU_AVX2 | FB_CPU_BMI2, {false, false, false, false}},
		{F_BMI2, {false, true, true, true}},
		{F_BMI2 | FB_CPU_AVX512F, {false, true, true, true}},
		{F_AVX512, {true, true, true, true}},
		{F_AVX512 & ~FB_CPU_BMI2, {false, false, true, true}},
	};
	struct fb_cpu unknown = {0};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		struct fb_cpu c = fake(cases[i].usable);
		for (int b = 0; b < FB_CPU_NBUILDS; b++)
			if (fb_cpu_runs(&c, b) != cases[i].runs[b])
				fail_msg("case %zu, build %s", i,
					 fb_cpu_build_name(b));
		assert_true(fb_cpu_runs(&c, FB_CPU_NBUILDS));
	}
	/* Only what it has counts, not what cpuid says */
	unknown.present = F_AVX512;
	assert_false(fb_cpu_runs(&unknown, FB_CPU_BUILD_POPCNT));
	assert_true(fb_cpu_runs(&unknown, FB_CPU_NBUILDS));
	assert_string_equal(fb_cpu_build_name(FB_CPU_BUILD_AVX512), "avx512");
	assert_string_equal(fb_cpu_build_name(FB_CPU_BUILD_POPCNT), "popcnt");
	assert_string_equal(fb_cpu_build_name(FB_CPU_NBUILDS), "x86-64");
	assert_int_equal(fb_cpu_build_needs(FB_CPU_NBUILDS), 0);
}

#define G(b) (1u << FB_CPU_BUILD_##b)

static void
test_cpu_choose(void **state)
{
	static const struct {
		bool known;
		unsigned usable, given;
		enum fb_cpu_build want;
		const char *why;
	} cases[] = {
		{true, F_AVX512, G(AVX512) | G(BMI2), FB_CPU_BUILD_AVX512,
		 "engine.avx512: this CPU has SSE4.1 POPCNT AVX2 BMI2 "
		 "AVX-512F AVX-512BW"},
		{true, F_BMI2, G(AVX512) | G(BMI2) | G(AVX2) | G(POPCNT),
		 FB_CPU_BUILD_BMI2,
		 "engine.bmi2: this CPU has SSE4.1 POPCNT AVX2 BMI2; not "
		 "engine.avx512: no AVX-512F AVX-512BW"},
		/* bmi2 not given: the next best that is */
		{true, F_BMI2, G(AVX512) | G(AVX2) | G(POPCNT),
		 FB_CPU_BUILD_AVX2,
		 "engine.avx2: this CPU has SSE4.1 POPCNT AVX2; not "
		 "engine.avx512: no AVX-512F AVX-512BW"},
		{true, F_POPCNT, G(BMI2) | G(AVX2) | G(POPCNT),
		 FB_CPU_BUILD_POPCNT,
		 "engine.popcnt: this CPU has SSE4.1 POPCNT; not engine.bmi2: "
		 "no AVX2 BMI2; not engine.avx2: no AVX2"},
		{true, FB_CPU_POPCNT, G(AVX2) | G(POPCNT), FB_CPU_NBUILDS,
		 "engine: this CPU runs none of the builds given; not "
		 "engine.avx2: no SSE4.1 AVX2; not engine.popcnt: no SSE4.1"},
		{true, F_AVX512, 0, FB_CPU_NBUILDS,
		 "engine: this CPU runs none of the builds given"},
		{false, 0, G(POPCNT), FB_CPU_NBUILDS,
		 "engine: this CPU's features are not known (no cpuid); not "
		 "engine.popcnt: needs SSE4.1 POPCNT"},
	};
	char why[300];

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		struct fb_cpu c = fake(cases[i].usable);
		c.known = cases[i].known;
		assert_int_equal(
			fb_cpu_choose(&c, cases[i].given, why, sizeof why),
			cases[i].want);
		assert_string_equal(why, cases[i].why);
	}
	/* Cut to the buffer, never past it */
	{
		struct fb_cpu c = fake(F_POPCNT);
		char small[8];
		assert_int_equal(
			fb_cpu_choose(&c, G(AVX2), small, sizeof small),
			FB_CPU_NBUILDS);
		assert_string_equal(small, "engine:");
	}
}

static void
test_cpu_print(void **state)
{
	static const struct {
		bool known;
		unsigned present, usable;
		const char *features, *runs, *lacks;
	} cases[] = {
		{true, F_AVX512 | FB_CPU_AVX512VL, F_AVX512 | FB_CPU_AVX512VL,
		 "SSE4.1 POPCNT AVX2 BMI2 AVX-512F AVX-512BW AVX-512VL",
		 "'avx512', 'bmi2', 'avx2', 'popcnt' or 'x86-64'", ""},
		{true, F_AVX2, F_AVX2,
		 "SSE4.1 POPCNT AVX2; not: BMI2 AVX-512F AVX-512BW AVX-512VL",
		 "'avx2', 'popcnt' or 'x86-64'", "'avx512' or 'bmi2'"},
		{true, F_BMI2, F_POPCNT | FB_CPU_BMI2,
		 "SSE4.1 POPCNT BMI2; not: AVX-512F AVX-512BW AVX-512VL; not "
		 "enabled by the system: AVX2",
		 "'popcnt' or 'x86-64'", "'avx512', 'bmi2' or 'avx2'"},
		{true, 0, 0,
		 "none of SSE4.1 POPCNT AVX2 BMI2 AVX-512F AVX-512BW AVX-512VL",
		 "'x86-64'", "'avx512', 'bmi2', 'avx2' or 'popcnt'"},
		{false, 0, 0, "features not known (no cpuid)", "'x86-64'",
		 "'avx512', 'bmi2', 'avx2' or 'popcnt'"},
	};
	char out[300];

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		struct fb_cpu c = {cases[i].known, cases[i].present,
				   cases[i].usable};
		size_t n = fb_cpu_print(&c, out, sizeof out);
		assert_string_equal(out, cases[i].features);
		assert_int_equal(n, strlen(cases[i].features));
		fb_cpu_print_builds(&c, true, " or ", out, sizeof out);
		assert_string_equal(out, cases[i].runs);
		fb_cpu_print_builds(&c, false, " or ", out, sizeof out);
		assert_string_equal(out, cases[i].lacks);
	}
	{
		struct fb_cpu c = fake(F_AVX2);
		char small[5];
		/* snprintf-like: the whole length, a cut string */
		assert_int_equal(fb_cpu_print(&c, small, sizeof small),
				 strlen(cases[1].features));
		assert_string_equal(small, "SSE4");
		fb_cpu_print_builds(&c, true, " and ", out, sizeof out);
		assert_string_equal(out, "'avx2', 'popcnt' and 'x86-64'");
	}
}

/* This machine's CPU: what the decoding allows (the e2e tests compare it
 * with /proc/cpuinfo). */
static void
test_cpu_detect(void **state)
{
	struct fb_cpu c;

	(void)state;
	memset(&c, 0xa5, sizeof c);
	fb_cpu_detect(&c);
	assert_int_equal(c.usable & ~c.present, 0);
	assert_int_equal(c.present & ~((1u << FB_CPU_NFEATURES) - 1), 0);
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
	assert_true(c.known);
#if defined(__x86_64__) && defined(__SSE4_1__)
	assert_true(c.usable & FB_CPU_SSE41);
#endif
#else
	assert_false(c.known);
	assert_int_equal(c.present, 0);
#endif
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_from_regs),
		cmocka_unit_test(test_cpu_runs),
		cmocka_unit_test(test_cpu_choose),
		cmocka_unit_test(test_cpu_print),
		cmocka_unit_test(test_cpu_detect),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
