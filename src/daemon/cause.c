/* SPDX-License-Identifier: MIT */
/*
 * Why the engine ended, in words (cause.h). Signal numbers are the host's
 * (<signal.h>), the only ones libuv reports; Windows' exception codes are
 * constants, so a test on Linux reads the Windows messages too. No I/O in
 * this file.
 */
#include "cause.h"
#include "fenbridge/text.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>

static const struct {
	int sig;
	const char *name;
} signals[] = {
	{SIGINT, "SIGINT"},
	{SIGILL, "SIGILL"},
	{SIGABRT, "SIGABRT"},
	{SIGFPE, "SIGFPE"},
	{SIGSEGV, "SIGSEGV"},
	{SIGTERM, "SIGTERM"},
#ifdef SIGHUP
	{SIGHUP, "SIGHUP"},
#endif
#ifdef SIGKILL
	{SIGKILL, "SIGKILL"},
#endif
#ifdef SIGPIPE
	{SIGPIPE, "SIGPIPE"},
#endif
#ifdef SIGQUIT
	{SIGQUIT, "SIGQUIT"},
#endif
#ifdef SIGTRAP
	{SIGTRAP, "SIGTRAP"},
#endif
#ifdef SIGBUS
	{SIGBUS, "SIGBUS"},
#endif
#ifdef SIGSYS
	{SIGSYS, "SIGSYS"},
#endif
#ifdef SIGALRM
	{SIGALRM, "SIGALRM"},
#endif
#ifdef SIGUSR1
	{SIGUSR1, "SIGUSR1"},
	{SIGUSR2, "SIGUSR2"},
#endif
#ifdef SIGXCPU
	{SIGXCPU, "SIGXCPU"},
	{SIGXFSZ, "SIGXFSZ"},
#endif
#ifdef SIGBREAK
	{SIGBREAK, "SIGBREAK"},
#endif
#if defined(_WIN32) && !defined(SIGKILL)
	/* libuv's numbers (uv/win.h) for what uv_process_kill sends. */
	{1, "SIGHUP"},
	{9, "SIGKILL"},
#endif
};

#define STATUS_ILLEGAL_INSTRUCTION 0xC000001Du

/*
 * The exception codes an engine dies of on Windows (the process's exit
 * code when nothing handles them; ntstatus.h), and what each means to a
 * user. The loader's (a DLL missing, of the wrong kind) end a build that
 * needs the DLLs of the compiler it was built with, MinGW's most of all.
 */
static const struct {
	uint32_t code;
	const char *name;
	const char *meaning;
} ntstatus[] = {
	{0xC0000005u, "STATUS_ACCESS_VIOLATION",
	 "an access violation (it used memory it does not own: a crash)"},
	{0xC0000006u, "STATUS_IN_PAGE_ERROR",
	 "a page of its program could not be read (a network or removable "
	 "drive gone?)"},
	{0xC0000017u, "STATUS_NO_MEMORY", "out of memory"},
	{STATUS_ILLEGAL_INSTRUCTION, "STATUS_ILLEGAL_INSTRUCTION",
	 "an illegal instruction"},
	{0xC000007Bu, "STATUS_INVALID_IMAGE_FORMAT",
	 "a DLL it loads is not for this system (32-bit and 64-bit mixed?)"},
	{0xC000008Cu, "STATUS_ARRAY_BOUNDS_EXCEEDED", "an array bounds error"},
	{0xC000008Du, "STATUS_FLOAT_DENORMAL_OPERAND",
	 "a floating-point error"},
	{0xC000008Eu, "STATUS_FLOAT_DIVIDE_BY_ZERO",
	 "a floating-point division by zero"},
	{0xC000008Fu, "STATUS_FLOAT_INEXACT_RESULT", "a floating-point error"},
	{0xC0000090u, "STATUS_FLOAT_INVALID_OPERATION",
	 "a floating-point error"},
	{0xC0000091u, "STATUS_FLOAT_OVERFLOW", "a floating-point overflow"},
	{0xC0000092u, "STATUS_FLOAT_STACK_CHECK", "a floating-point error"},
	{0xC0000093u, "STATUS_FLOAT_UNDERFLOW", "a floating-point underflow"},
	{0xC0000094u, "STATUS_INTEGER_DIVIDE_BY_ZERO",
	 "an integer division by zero"},
	{0xC0000095u, "STATUS_INTEGER_OVERFLOW", "an integer overflow"},
	{0xC0000096u, "STATUS_PRIVILEGED_INSTRUCTION",
	 "a privileged instruction"},
	{0xC000009Au, "STATUS_INSUFFICIENT_RESOURCES",
	 "the system ran out of resources"},
	{0xC00000FDu, "STATUS_STACK_OVERFLOW", "a stack overflow"},
	{0xC0000135u, "STATUS_DLL_NOT_FOUND",
	 "a DLL it needs was not found: put the DLLs that came with it "
	 "beside it, or use a statically linked build"},
	{0xC0000139u, "STATUS_ENTRYPOINT_NOT_FOUND",
	 "a DLL it loads lacks a function it needs (another version of the "
	 "DLL found first, in its folder or on PATH)"},
	{0xC000013Au, "STATUS_CONTROL_C_EXIT", "Ctrl-C"},
	{0xC0000142u, "STATUS_DLL_INIT_FAILED", "a DLL it loads failed"},
	{0xC0000374u, "STATUS_HEAP_CORRUPTION", "heap corruption (a crash)"},
	{0xC0000409u, "STATUS_STACK_BUFFER_OVERRUN",
	 "a stack buffer overrun, or it aborted itself (fail fast)"},
	{0xC0000420u, "STATUS_ASSERTION_FAILURE", "an assertion failure"},
	{0x80000003u, "STATUS_BREAKPOINT", "a breakpoint"},
	{0x80000100u, "EXCEPTION_WINE_STUB",
	 "a function Wine does not implement"},
	{0xE06D7363u, "a C++ exception", "nothing caught it"},
	{0xE0434352u, "a .NET exception", "nothing caught it"},
};

const char *
fb_cause_signal_name(int sig)
{
	for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
		if (signals[i].sig == sig)
			return signals[i].name;
	return "signal";
}

/* The Windows exit code as the DWORD it is (libuv passes it as an
 * int64_t; a caller may have made it an int). */
static uint32_t
win_code(const struct fb_cause *c)
{
	return (uint32_t)c->status;
}

/* The exception code's entry, or -1: none, or not Windows. */
static int
ntstatus_index(const struct fb_cause *c)
{
	if (c->os != FB_CAUSE_WINDOWS || c->signal != 0)
		return -1;
	for (size_t i = 0; i < sizeof ntstatus / sizeof ntstatus[0]; i++)
		if (ntstatus[i].code == win_code(c))
			return (int)i;
	return -1;
}

bool
fb_cause_is_illegal_instruction(const struct fb_cause *c)
{
	if (c->signal != 0)
		return c->signal == SIGILL;
	return c->os == FB_CAUSE_WINDOWS &&
	       win_code(c) == STATUS_ILLEGAL_INSTRUCTION;
}

bool
fb_cause_answers_probe(const struct fb_cause *c)
{
	static const int from_outside[] = {
		SIGINT,   SIGTERM,
#ifdef SIGHUP
		SIGHUP,
#endif
#ifdef SIGKILL
		SIGKILL,
#endif
#ifdef SIGQUIT
		SIGQUIT,
#endif
#ifdef SIGBREAK
		SIGBREAK,
#endif
	};

	if (fb_cause_is_illegal_instruction(c))
		return false;
	for (size_t i = 0; i < sizeof from_outside / sizeof from_outside[0];
	     i++)
		if (c->signal == from_outside[i])
			return false;
	return true;
}

static void
say_what(struct fb_text *t, const struct fb_cause *c)
{
	int i = ntstatus_index(c);

	if (c->signal != 0)
		fb_text_say(t, "died of %s (%d)",
			    fb_cause_signal_name(c->signal), c->signal);
	else if (i >= 0)
		fb_text_say(t, "died of 0x%08" PRIX32 " (%s)", win_code(c),
			    ntstatus[i].name);
	else if (c->os == FB_CAUSE_WINDOWS &&
		 (c->status < 0 || c->status > INT32_MAX))
		/* An NTSTATUS (a crash) or a negative exit(): hex shows
		 * which. */
		fb_text_say(t, "exited with status 0x%08" PRIX32, win_code(c));
	else
		fb_text_say(t, "exited with status %" PRId64, c->status);
}

/* What an illegal instruction means: the fix, with what fenbridge sees. */
static void
say_illegal(struct fb_text *t, const struct fb_cpu *cpu)
{
	char has[200], runs[80], lacks[80];

	if (cpu == NULL || !cpu->known) {
		fb_text_say(
			t,
			": this build of the engine probably needs instructions "
			"this CPU lacks; use a build for an older CPU (fenbridge "
			"cannot see this CPU's features)");
		return;
	}
	fb_cpu_print(cpu, has, sizeof has);
	fb_cpu_print_builds(cpu, true, " or ", runs, sizeof runs);
	fb_cpu_print_builds(cpu, false, " or ", lacks, sizeof lacks);
	if (lacks[0] == '\0') {
		fb_text_say(
			t,
			": this CPU has every feature fenbridge checks (%s), so "
			"this build may need newer ones (AVX-512 VNNI, AVX-VNNI), "
			"or the engine stopped itself on purpose; try a build for "
			"an older CPU",
			has);
		return;
	}
	fb_text_say(
		t,
		": this build of the engine needs instructions this CPU "
		"lacks; use a build for an older CPU: %s, not %s (this CPU: %s); "
		"or name each build in fenbridge's INI file (engine.avx2 = ..., "
		"engine = ...) and it starts the one this CPU runs",
		runs, lacks, has);
}

size_t
fb_cause_what(const struct fb_cause *c, char *out, size_t cap)
{
	struct fb_text t = {.out = out, .cap = cap};

	if (cap > 0)
		out[0] = '\0';
	say_what(&t, c);
	return t.len;
}

size_t
fb_cause_explain(const struct fb_cause *c, char *out, size_t cap)
{
	struct fb_text t = {.out = out, .cap = cap};
	int i = ntstatus_index(c);

	if (cap > 0)
		out[0] = '\0';
	say_what(&t, c);
	if (fb_cause_is_illegal_instruction(c)) {
		/* Not the probe's doing, whenever it came. */
		fb_text_say(&t, ", an illegal instruction");
		say_illegal(&t, c->cpu);
		return t.len;
	}
	if (i >= 0)
		fb_text_say(&t, ", %s", ntstatus[i].meaning);
	/* Some XBoard engines crash on a command they do not know (Fairy-Max
	 * 5.0b on `uci`, now and then); one started again that dies before
	 * it answers: the user should learn how to avoid the probe. */
	if (c->probing)
		fb_text_say(&t,
			    " before it answered the protocol probe; name its "
			    "protocol with --engine-protocol=uci or xboard");
	return t.len;
}
