/* SPDX-License-Identifier: MIT */
/*
 * Logging: one line per protocol line or message, timestamped, tagged, with
 * control bytes escaped (\r, \t, \xNN) so the log shows exactly what passed.
 * stdout is never written here: it belongs to the protocol.
 */
#include "log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static FILE *log_file;

static const char *const level_name[] = {"debug", "info", "warning", "error"};

int
fb_log_open(const char *path)
{
	log_file = fopen(path, "a");
	if (log_file == NULL)
		return -errno;
	setvbuf(log_file, NULL, _IOFBF, 64 * 1024);
	return 0;
}

int
fb_log_enabled(void)
{
	return log_file != NULL;
}

static void
stamp(void)
{
	struct timespec ts;
	struct tm tm;
	char buf[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(log_file, "%s.%06ld ", buf, ts.tv_nsec / 1000);
}

void
fb_log_line(const char *tag, const char *text, size_t len)
{
	if (log_file == NULL)
		return;
	stamp();
	fputs(tag, log_file);
	fputc(' ', log_file);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c >= 0x20 && c < 0x7f && c != '\\')
			fputc(c, log_file);
		else if (c == '\\')
			fputs("\\\\", log_file);
		else if (c == '\r')
			fputs("\\r", log_file);
		else if (c == '\t')
			fputs("\\t", log_file);
		else
			fprintf(log_file, "\\x%02x", c);
	}
	fputc('\n', log_file);
}

void
fb_log_msg(enum fb_level level, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (level >= FB_LOG_WARN)
		fprintf(stderr, "fenbridge: %s%s\n",
			level == FB_LOG_ERROR ? "error: " : "", msg);
	if (log_file != NULL) {
		stamp();
		fprintf(log_file, "%s %s\n", level_name[level], msg);
	}
}

void
fb_log_flush(void)
{
	if (log_file != NULL)
		fflush(log_file);
}

void
fb_log_close(void)
{
	if (log_file != NULL)
		fclose(log_file);
	log_file = NULL;
}
