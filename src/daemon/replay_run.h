/* SPDX-License-Identifier: MIT */
/* `fenbridge replay`: a flight record or a log fed to an engine again
 * (replay_run.c). */
#ifndef FENBRIDGE_REPLAY_RUN_H
#define FENBRIDGE_REPLAY_RUN_H

/* Runs `fenbridge replay` (argv[0] is "replay"): returns the exit status,
 * 0 reproduced, 1 not, 2 a usage error, an unreadable record or no
 * engine. */
int
fb_replay_run_main(int argc, char **argv);

#endif
