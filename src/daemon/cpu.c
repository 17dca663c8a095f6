/* SPDX-License-Identifier: MIT */
/*
 * The CPU's features and the choice of the engine build (cpu.h). Only
 * fb_cpu_detect() asks the CPU; the rest takes a feature set. No I/O in
 * this file.
 */
#include "cpu.h"
#include "fenbridge/text.h"

#include <stdio.h>
#include <string.h>

#include "config.h"
#include "fenbridge/error.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <cpuid.h>
#define HAVE_CPUID 1
#endif

/* cpuid leaf 1, ecx (Intel SDM vol. 2A, CPUID, table 3-10). */
#define L1_SSE41 (1u << 19)
#define L1_POPCNT (1u << 23)
#define L1_OSXSAVE (1u << 27)
#define L1_AVX (1u << 28)
/* cpuid leaf 7 subleaf 0, ebx (table 3-8). */
#define L7_AVX2 (1u << 5)
#define L7_BMI2 (1u << 8)
#define L7_AVX512F (1u << 16)
#define L7_AVX512BW (1u << 30)
#define L7_AVX512VL (1u << 31)
/* XCR0: the register state the system saves on a task switch (SDM vol. 1,
 * 13.3): SSE and AVX for ymm; opmask, ZMM_Hi256 and Hi16_ZMM for zmm. An
 * instruction whose state is not saved raises #UD, as if the CPU lacked
 * it: the SIGILL fenbridge must avoid. */
#define XCR0_YMM 0x06u
#define XCR0_ZMM 0xe6u

/* In the order of enum fb_cpu_feature's bits. */
static const char *const feature_name[FB_CPU_NFEATURES] = {
	"SSE4.1",   "POPCNT",    "AVX2",      "BMI2",
	"AVX-512F", "AVX-512BW", "AVX-512VL",
};

/* What each build needs, as compilers build them: Stockfish's avx512
 * (-mavx512f -mavx512bw) also uses BMI2 and AVX2, its bmi2 AVX2, and every
 * one of them SSE4.1 and POPCNT (sse41-popcnt); a "popcnt" build made for
 * AMD's K10 (POPCNT without SSE4.1) is thus passed over on one, for the
 * plain build: slower, never an illegal instruction. */
#define NEEDS_POPCNT (FB_CPU_SSE41 | FB_CPU_POPCNT)
#define NEEDS_AVX2 (NEEDS_POPCNT | FB_CPU_AVX2)
#define NEEDS_BMI2 (NEEDS_AVX2 | FB_CPU_BMI2)
#define NEEDS_AVX512 (NEEDS_BMI2 | FB_CPU_AVX512F | FB_CPU_AVX512BW)

static const struct {
	const char *name;
	unsigned needs;
} builds[FB_CPU_NBUILDS + 1] = {
	[FB_CPU_BUILD_AVX512] = {"avx512", NEEDS_AVX512},
	[FB_CPU_BUILD_BMI2] = {"bmi2", NEEDS_BMI2},
	[FB_CPU_BUILD_AVX2] = {"avx2", NEEDS_AVX2},
	[FB_CPU_BUILD_POPCNT] = {"popcnt", NEEDS_POPCNT},
	[FB_CPU_NBUILDS] = {"x86-64", 0},
};

void
fb_cpu_from_regs(struct fb_cpu *cpu, uint32_t leaf1_ecx, uint32_t leaf7_ebx,
		 uint64_t xcr0)
{
	unsigned p = 0, lost = 0;
	bool ymm = (leaf1_ecx & L1_OSXSAVE) && (leaf1_ecx & L1_AVX) &&
		   (xcr0 & XCR0_YMM) == XCR0_YMM;
	bool zmm = ymm && (xcr0 & XCR0_ZMM) == XCR0_ZMM;

	p |= leaf1_ecx & L1_SSE41 ? FB_CPU_SSE41 : 0;
	p |= leaf1_ecx & L1_POPCNT ? FB_CPU_POPCNT : 0;
	p |= leaf7_ebx & L7_AVX2 ? FB_CPU_AVX2 : 0;
	p |= leaf7_ebx & L7_BMI2 ? FB_CPU_BMI2 : 0;
	p |= leaf7_ebx & L7_AVX512F ? FB_CPU_AVX512F : 0;
	p |= leaf7_ebx & L7_AVX512BW ? FB_CPU_AVX512BW : 0;
	p |= leaf7_ebx & L7_AVX512VL ? FB_CPU_AVX512VL : 0;
	if (!ymm)
		lost |= FB_CPU_AVX2;
	if (!zmm)
		lost |= FB_CPU_AVX512F | FB_CPU_AVX512BW | FB_CPU_AVX512VL;
	cpu->known = true;
	cpu->present = p;
	cpu->usable = p & ~lost;
}

#ifdef HAVE_CPUID
static uint64_t
xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}
#endif

void
fb_cpu_detect(struct fb_cpu *cpu)
{
	memset(cpu, 0, sizeof *cpu);
#ifdef HAVE_CPUID
	unsigned a, b, c, d, ecx1, ebx7 = 0;

	/* Both check the highest leaf first (and on i386 that there is a
	 * cpuid at all). */
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return;
	ecx1 = c;
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
		ebx7 = b;
	/* xgetbv exists only where the system set OSXSAVE. */
	fb_cpu_from_regs(cpu, ecx1, ebx7, ecx1 & L1_OSXSAVE ? xgetbv0() : 0);
#endif
}

const char *
fb_cpu_build_name(enum fb_cpu_build b)
{
	return builds[b <= FB_CPU_NBUILDS ? b : FB_CPU_NBUILDS].name;
}

unsigned
fb_cpu_build_needs(enum fb_cpu_build b)
{
	return b < FB_CPU_NBUILDS ? builds[b].needs : 0;
}

bool
fb_cpu_runs(const struct fb_cpu *cpu, enum fb_cpu_build b)
{
	unsigned needs = fb_cpu_build_needs(b);

	if (needs == 0)
		return true;
	return cpu->known && (cpu->usable & needs) == needs;
}

/* The names of the features in set, separated by blanks. */
static void
say_features(struct fb_text *t, unsigned set)
{
	const char *sep = "";

	for (unsigned i = 0; i < FB_CPU_NFEATURES; i++)
		if (set & (1u << i)) {
			fb_text_say(t, "%s%s", sep, feature_name[i]);
			sep = " ";
		}
}

enum fb_cpu_build
fb_cpu_choose(const struct fb_cpu *cpu, unsigned given, char *out, size_t cap)
{
	enum fb_cpu_build b, chosen = FB_CPU_NBUILDS;
	struct fb_text t;

	fb_text_init(&t, out, cap);
	for (b = 0; b < FB_CPU_NBUILDS; b++)
		if ((given & (1u << b)) && fb_cpu_runs(cpu, b)) {
			chosen = b;
			break;
		}
	if (chosen < FB_CPU_NBUILDS) {
		fb_text_say(&t, "engine.%s: this CPU has ",
			    fb_cpu_build_name(chosen));
		say_features(&t, fb_cpu_build_needs(chosen));
	} else {
		fb_text_say(&t, "engine: %s",
			    cpu->known ? "this CPU runs none of the "
					 "builds given"
				       : "this CPU's features are "
					 "not known (no cpuid)");
	}
	for (b = 0; b < chosen; b++) {
		if (!(given & (1u << b)))
			continue;
		fb_text_say(&t, "; not engine.%s: ", fb_cpu_build_name(b));
		if (cpu->known) {
			fb_text_say(&t, "no ");
			say_features(&t, fb_cpu_build_needs(b) & ~cpu->usable);
		} else {
			fb_text_say(&t, "needs ");
			say_features(&t, fb_cpu_build_needs(b));
		}
	}
	return chosen;
}

size_t
fb_cpu_print(const struct fb_cpu *cpu, char *out, size_t cap)
{
	unsigned all = (1u << FB_CPU_NFEATURES) - 1;
	unsigned off = cpu->present & ~cpu->usable;
	struct fb_text t;

	fb_text_init(&t, out, cap);
	if (!cpu->known) {
		fb_text_say(&t, "features not known (no cpuid)");
		return t.len;
	}
	if (cpu->usable == 0) {
		fb_text_say(&t, "none of ");
		say_features(&t, all);
	} else {
		say_features(&t, cpu->usable);
		if ((all & ~cpu->present) != 0) {
			fb_text_say(&t, "; not: ");
			say_features(&t, all & ~cpu->present);
		}
	}
	if (off != 0) {
		fb_text_say(&t, "; not enabled by the system: ");
		say_features(&t, off);
	}
	return t.len;
}

size_t
fb_cpu_print_builds(const struct fb_cpu *cpu, bool runs, const char *last,
		    char *out, size_t cap)
{
	enum fb_cpu_build list[FB_CPU_NBUILDS + 1];
	size_t n = 0;
	struct fb_text t;

	fb_text_init(&t, out, cap);
	for (enum fb_cpu_build b = 0; b <= FB_CPU_NBUILDS; b++)
		if (fb_cpu_runs(cpu, b) == runs)
			list[n++] = b;
	for (size_t i = 0; i < n; i++)
		fb_text_say(&t, "%s'%s'",
			    i == 0       ? ""
			    : i + 1 == n ? last
					 : ", ",
			    fb_cpu_build_name(list[i]));
	return t.len;
}

int
fb_cpu_pick_engine(struct fb_config *c, const struct fb_cpu *cpu, char *why,
		   size_t cap)
{
	unsigned given = 0;
	enum fb_cpu_build b;
	struct fb_cpu here;
	char has[200];

	if (cap > 0)
		why[0] = '\0';
	for (b = 0; b < FB_CPU_NBUILDS; b++)
		if (c->build_argv[b] != NULL)
			given |= 1u << b;
	if (given == 0)
		return 0;
	if (c->engine_argv != NULL && !c->engine_from_config) {
		snprintf(why, cap,
			 "the engine of the command line, not the "
			 "config file's builds");
		return 1;
	}
	if (cpu == NULL) {
		/* Only now: in a virtual machine cpuid traps to the
		 * hypervisor (45 us for the four calls on the development
		 * machine), which a config without builds need not pay. */
		fb_cpu_detect(&here);
		cpu = &here;
	}
	b = fb_cpu_choose(cpu, given, why, cap);
	if (b == FB_CPU_NBUILDS && c->engine_argv == NULL) {
		size_t n = strlen(why);
		fb_cpu_print(cpu, has, sizeof has);
		/* why begins "engine: ...": the plain engine it would be */
		snprintf(why + n, cap - n,
			 "; and there is no 'engine = ...' "
			 "(a build for any x86-64 CPU) to start instead (this "
			 "CPU: %s)",
			 has);
		return FB_EINVAL;
	}
	if (b < FB_CPU_NBUILDS) {
		c->engine_argv = c->build_argv[b];
		c->engine_line = c->build_line[b];
		c->engine_from_config = true;
	}
	return 1;
}
