/* SPDX-License-Identifier: MIT */
/* `fenbridge check`: a compliance run against an engine (check_run.c). */
#ifndef FENBRIDGE_CHECK_RUN_H
#define FENBRIDGE_CHECK_RUN_H

/* Runs `fenbridge check` (argv[0] is "check"): returns the exit status, 0
 * the engine passed, 1 findings, 2 a usage error or no engine. */
int
fb_check_run_main(int argc, char **argv);

#endif
