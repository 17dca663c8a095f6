/* SPDX-License-Identifier: MIT */
/*
 * The only writer to stderr and the log file. Protocol lines are logged with
 * a direction tag; diagnostics at warning level and above also go to stderr.
 */
#ifndef FB_LOG_H
#define FB_LOG_H

#include <stddef.h>

#include "config.h"
#include "filter.h"

/* Direction tags: what fenbridge got from the GUI, sent to the engine, ... */
#define FB_TAG_GUI_IN "gui>"
#define FB_TAG_ENGINE_OUT ">engine"
#define FB_TAG_ENGINE_IN "engine>"
#define FB_TAG_GUI_OUT ">gui"
#define FB_TAG_ENGINE_ERR "engine!"

/* Decides how stderr is written while the bridge runs (see log.c). */
void
fb_log_init_stderr(void);

/* Writes bytes to stderr without blocking; what does not fit is dropped
 * and counted. */
void
fb_log_stderr(const char *data, size_t len);

/* Opens path for appending. Returns 0, or -errno (the caller warns). */
int
fb_log_open(const char *path);

/* True when a log file is open (lines are worth formatting). */
int
fb_log_enabled(void);

/* Logs one protocol line (terminator excluded), control bytes escaped. */
void
fb_log_line(const char *tag, const char *text, size_t len);

/* Logs a message; FB_LOG_WARN and above also go to stderr. */
void
fb_log_msg(enum fb_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Logs the session header: version, config file, engine command and
 * folder, dialects, options from the config. */
void
fb_log_session(const struct fb_config *cfg, int argc, char **argv);

/* Writes buffered log text out (after each batch of lines). */
void
fb_log_flush(void);

void
fb_log_close(void);

#endif
