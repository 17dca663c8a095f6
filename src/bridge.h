/* SPDX-License-Identifier: MIT */
#ifndef FB_BRIDGE_H
#define FB_BRIDGE_H

#include <stddef.h>

#include "fenbridge/config.h"

/*
 * Runs the bridge for cfg until the engine has exited and everything it
 * wrote is delivered. Returns the exit status for fenbridge: the engine's
 * status, 128+N if it died of signal N, 126/127 if it could not be started,
 * 1 if fenbridge itself failed. When the engine could not be started, why
 * (whylen bytes, at least 1) holds the message already logged, for the
 * caller to tell the GUI; otherwise why is "".
 */
int
fb_bridge_run(const struct fb_config *cfg, char *why, size_t whylen);

/* The running program's real path (uv_exepath): 0, or a negative error. */
int
fb_bridge_exepath(char *buf, size_t *size);

#endif
