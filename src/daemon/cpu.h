/* SPDX-License-Identifier: MIT */
/*
 * The CPU's instruction sets that engine builds are made for (Stockfish
 * ships x86-64, sse41-popcnt, avx2, bmi2, avx512 builds; most engines
 * follow), and the decisions that depend on them: which of the engine's
 * builds this CPU runs (INI keys engine.avx512 ... engine.popcnt), and the
 * words for the features fenbridge sees (--version, the message after an
 * illegal instruction); and the choice made in the config
 * (fb_cpu_pick_engine).
 *
 * fb_cpu_detect() is the one function that asks the CPU (cpuid and xgetbv
 * on x86 and x86-64; elsewhere nothing is known); fb_cpu_from_regs()
 * decodes the registers, and every other function takes a feature set, so
 * tests use fake ones. No I/O in this file.
 */
#ifndef FB_CPU_H
#define FB_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fb_config;

/* The features, as bits of struct fb_cpu. */
enum fb_cpu_feature {
	FB_CPU_SSE41 = 1u << 0,
	FB_CPU_POPCNT = 1u << 1,
	FB_CPU_AVX2 = 1u << 2,
	FB_CPU_BMI2 = 1u << 3,
	FB_CPU_AVX512F = 1u << 4,
	FB_CPU_AVX512BW = 1u << 5,
	FB_CPU_AVX512VL = 1u << 6,
};
#define FB_CPU_NFEATURES 7

/*
 * What fenbridge knows of a CPU. usable: the features a program may use
 * (AVX2 and AVX-512 also need the system to save their registers, which
 * xgetbv tells); present: what cpuid reports, usable or not. known false
 * (not x86, or no cpuid): nothing is known, and both are 0.
 */
struct fb_cpu {
	bool known;
	unsigned present;
	unsigned usable;
};

/* The engine builds fenbridge can choose from, best first: the order in
 * which their INI keys are tried (engine.avx512, ...), before the plain
 * `engine`. */
enum fb_cpu_build {
	FB_CPU_BUILD_AVX512,
	FB_CPU_BUILD_BMI2,
	FB_CPU_BUILD_AVX2,
	FB_CPU_BUILD_POPCNT,
	FB_CPU_NBUILDS /* the plain engine: any x86-64 */
};

/*
 * Fills cpu from the registers: leaf 1's ecx, leaf 7 (subleaf 0)'s ebx, and
 * XCR0 (xgetbv 0; pass 0 when leaf 1's OSXSAVE bit is clear). Pure: the
 * decoding fb_cpu_detect() uses, for tests.
 */
void
fb_cpu_from_regs(struct fb_cpu *cpu, uint32_t leaf1_ecx, uint32_t leaf7_ebx,
		 uint64_t xcr0);

/* Fills cpu with this CPU's features (cpuid, xgetbv); known is false
 * where there is no cpuid to ask. */
void
fb_cpu_detect(struct fb_cpu *cpu);

/* The build's name as in its INI key after "engine.": "avx512", ...;
 * "x86-64" for FB_CPU_NBUILDS. */
const char *
fb_cpu_build_name(enum fb_cpu_build b);

/* The features build b needs (enum fb_cpu_feature bits); 0 for the plain
 * engine. */
unsigned
fb_cpu_build_needs(enum fb_cpu_build b);

/* Does cpu run build b: are all the features it needs usable? The plain
 * engine (FB_CPU_NBUILDS) always; any other never on an unknown CPU. */
bool
fb_cpu_runs(const struct fb_cpu *cpu, enum fb_cpu_build b);

/*
 * The build to start: the first of the builds given (bit 1 << b set in
 * given, for b < FB_CPU_NBUILDS) that cpu runs, in enum order; or
 * FB_CPU_NBUILDS (the plain engine) when it runs none of them. Writes why
 * for the log to out (snprintf-like, truncated to cap - 1 bytes): the
 * chosen build and what the CPU has, and each better build given that was
 * passed over with what it lacks.
 */
enum fb_cpu_build
fb_cpu_choose(const struct fb_cpu *cpu, unsigned given, char *out, size_t cap);

/*
 * The features in words, for --version and messages: the usable ones
 * ("SSE4.1 POPCNT AVX2 BMI2"), then "; not: AVX-512F ..." for those it
 * lacks, and those present but not enabled by the system; "features not
 * known (no cpuid)" for an unknown CPU. snprintf-like: returns the whole
 * length, writes at most cap - 1 bytes and a NUL.
 */
size_t
fb_cpu_print(const struct fb_cpu *cpu, char *out, size_t cap);

/*
 * The builds cpu runs (runs true), best first, or those it does not, as
 * words joined by commas and last before the last one: with " or ",
 * "'bmi2', 'avx2', 'popcnt' or 'x86-64'"; maybe empty. snprintf-like, as
 * fb_cpu_print.
 */
size_t
fb_cpu_print_builds(const struct fb_cpu *cpu, bool runs, const char *last,
		    char *out, size_t cap);

/*
 * Chooses c's engine (config.h) among the INI's builds (engine.avx512,
 * engine.bmi2, engine.avx2, engine.popcnt: the first that cpu runs, in
 * that order) and its plain engine, after the command line is parsed: the
 * chosen build becomes engine_argv (borrowed from c, as from the INI).
 * cpu: the CPU's features, or NULL for this CPU's (fb_cpu_detect, only
 * when a build is given). An engine given on the command line wins over
 * all of them. Writes why for the log to why (truncated to cap - 1 bytes).
 * Returns 0 when no build was given (nothing to choose; why is empty), 1
 * when the engine is chosen (or is the command line's), or FB_EINVAL when
 * the CPU runs none of the builds and there is no plain engine; why then
 * says so, for the user.
 */
int
fb_cpu_pick_engine(struct fb_config *c, const struct fb_cpu *cpu, char *why,
		   size_t cap);

#endif
