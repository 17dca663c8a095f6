/* SPDX-License-Identifier: MIT */
#ifndef FB_BRIDGE_H
#define FB_BRIDGE_H

#include <stddef.h>

#include "config.h"

/*
 * Runs the bridge for cfg until the engine has exited and everything it
 * wrote is delivered. Returns the exit status for fenbridge: the engine's
 * status, 128+N if it died of signal N, 126/127 if it could not be started,
 * 1 if fenbridge itself failed. When the engine could not be started, why
 * (whylen bytes, at least 1) holds the message already logged, for the
 * caller to tell the GUI; otherwise why is "".
 *
 * Once per process: a read of the GUI's stdin that cannot be interrupted
 * (Windows, a stdin libuv reads as a file) is left to end with the
 * process, and the loop it reports to is this function's static storage.
 */
int
fb_bridge_run(const struct fb_config *cfg, char *why, size_t whylen);

/* The running program's real path (uv_exepath): 0, or a negative error. */
int
fb_bridge_exepath(char *buf, size_t *size);

#ifdef __linux__
/*
 * The hidden first argument with which fenbridge starts itself as the
 * engine's trampoline (see bridge_engine.c):
 *   fenbridge --exec-engine PARENT_PID FILE ARGV0 [ARGS...]
 * main() hands such a command line to fb_bridge_exec_engine() before it
 * does anything else.
 */
#define FB_BRIDGE_EXEC_ENGINE "--exec-engine"

/*
 * The trampoline: arranges for SIGKILL when the parent dies, then execs
 * FILE with ARGV0 ARGS. Returns only on failure, with the exit status:
 * 127 not found, 126 not executable, 1 the parent is already gone, 2 a
 * malformed command line.
 */
int
fb_bridge_exec_engine(int argc, char **argv);
#endif

#endif
