/* SPDX-License-Identifier: MIT */
/*
 * Why the engine ended, in words for the GUI's user and the log: its exit
 * status, the signal it died of by name, and what a death means when it
 * has a usual cause and a fix. The commonest on Windows is an engine build
 * for instructions the CPU lacks (an avx2 or bmi2 build on an older PC):
 * SIGILL on POSIX, exit code 0xC000001D (STATUS_ILLEGAL_INSTRUCTION) on
 * Windows; the message then names the fix, a build for an older CPU, with
 * the features fenbridge sees. Windows' other exception codes (an access
 * violation, a stack overflow, a missing DLL, ...) are named too.
 *
 * Pure: (status, signal, system, CPU) in, words out; no I/O, so the tests
 * give any system's codes on any system.
 */
#ifndef FB_CAUSE_H
#define FB_CAUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu.h"

/* Whose conventions the status follows. */
enum fb_cause_os {
	FB_CAUSE_POSIX,   /* a signal number, or an exit status 0..255 */
	FB_CAUSE_WINDOWS, /* the exit code, an NTSTATUS after a crash */
};

#ifdef _WIN32
#define FB_CAUSE_HOST FB_CAUSE_WINDOWS
#else
#define FB_CAUSE_HOST FB_CAUSE_POSIX
#endif

/* How the engine ended, as libuv's exit callback tells it. */
struct fb_cause {
	enum fb_cause_os os;
	int64_t status; /* exit status; on Windows the DWORD exit code */
	int signal;     /* the signal it died of, or 0 (Windows: the one
			   uv_process_kill sent) */
	const struct fb_cpu *cpu; /* for an illegal instruction; NULL:
				     not known */
	bool probing; /* it ended before it answered the protocol probe */
};

/* A signal's name ("SIGILL"), or "signal" for one without a name here. */
const char *
fb_cause_signal_name(int sig);

/* Did the engine die of an illegal instruction (SIGILL; Windows:
 * 0xC000001D)? Starting it again would only end the same way. */
bool
fb_cause_is_illegal_instruction(const struct fb_cause *c);

/*
 * Can this end be the engine's answer to a command it does not know (the
 * protocol probe)? An exit, and a crash of its own code, can: Fairy-Max
 * 5.0b dies of SIGSEGV on `uci` now and then, and SIGBUS, SIGFPE, SIGABRT
 * (an assert), SIGTRAP and SIGSYS are crashes of the same kind, as are
 * Windows' exception codes. A signal sent from outside cannot (SIGKILL,
 * SIGTERM, SIGINT, SIGHUP, SIGQUIT: a user, the OOM killer, a GUI's Ctrl-C),
 * nor an illegal instruction (SIGILL, 0xC000001D: a build for a newer CPU,
 * which dies the same way whatever it is told). The engine is then not
 * started again in the other protocol.
 */
bool
fb_cause_answers_probe(const struct fb_cause *c);

/*
 * The end in a few words, after "the engine ": "exited with status 3",
 * "died of SIGILL (4)", "died of 0xC0000005 (STATUS_ACCESS_VIOLATION)".
 * For the flight record's reason. snprintf-like: returns the whole length,
 * writes at most cap - 1 bytes and a NUL.
 */
size_t
fb_cause_what(const struct fb_cause *c, char *out, size_t cap);

/*
 * The message for the GUI and the log, after "the engine ": what
 * fb_cause_what says, then what it means when that is known (an illegal
 * instruction: the build needs instructions this CPU lacks, which builds
 * it runs instead and the features it has; an access violation, a missing
 * DLL, ...), and for an engine that ended during the protocol probe how
 * to avoid the probe. One line. snprintf-like, as fb_cause_what.
 */
size_t
fb_cause_explain(const struct fb_cause *c, char *out, size_t cap);

#endif
