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
#include <unistd.h>

#include "fb_version.h"
#include "platform.h"

static FILE *log_file;

/*
 * stderr while the bridge runs: a GUI may leave it unread (a full pipe
 * would stop fenbridge) or merge it into stdout (PolyGlot does; a message
 * there would split a protocol line). So it is written without blocking, a
 * message that does not fit is dropped and counted (the log keeps it), and
 * when stderr is the same pipe or file as stdout nothing goes there.
 */
static int err_fd = STDERR_FILENO;
static int err_quiet;
static unsigned long err_dropped;

void
fb_log_init_stderr(void)
{
	bool quiet;

	err_fd = fb_platform_stderr_fd(&quiet);
	err_quiet = quiet;
}

void
fb_log_stderr(const char *data, size_t len)
{
	ssize_t w;

	if (err_quiet)
		return;
	if (err_dropped > 0) {
		char note[96];
		int n = snprintf(note, sizeof note,
				 "fenbridge: %lu messages dropped: stderr is "
				 "not being read\n",
				 err_dropped);
		if (write(err_fd, note, (size_t)n) < 0)
			goto dropped;
		err_dropped = 0;
	}
	w = write(err_fd, data, len);
	if (w >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
		return;
dropped:
	err_dropped++;
}

static const char *const level_name[] = {"debug", "info", "warning", "error"};

int
fb_log_open(const char *path)
{
	/* Binary: lines end in LF on every system; not inherited by the
	 * engine. */
	log_file = fb_platform_fopen(path, "ab");
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

	if (level < FB_LOG_WARN && log_file == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (level >= FB_LOG_WARN) {
		char line[1100];
		int n = snprintf(line, sizeof line, "fenbridge: %s%s\n",
				 level == FB_LOG_ERROR ? "error: " : "", msg);
		fb_log_stderr(line, (size_t)n < sizeof line ? (size_t)n
							    : sizeof line - 1);
	}
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

void
fb_log_session(const struct fb_config *cfg, int argc, char **argv)
{
	char cmd[1024];
	size_t n = 0;

	cmd[0] = '\0';
	for (char **a = cfg->engine_argv; *a != NULL && n < sizeof cmd; a++)
		n += (size_t)snprintf(cmd + n, sizeof cmd - n, "%s%s",
				      a == cfg->engine_argv ? "" : " ", *a);
	fb_log_msg(FB_LOG_INFO, "---- fenbridge %s session (%d arguments) ----",
		   FB_VERSION, argc - 1);
	(void)argv;
	fb_log_msg(FB_LOG_INFO, "config file: %s",
		   cfg->config_path ? cfg->config_path : "(none)");
	fb_log_msg(FB_LOG_INFO, "engine: %s", cmd);
	fb_log_msg(FB_LOG_INFO, "engine program: %s, folder: %s",
		   cfg->engine_file ? cfg->engine_file : cfg->engine_argv[0],
		   cfg->engine_dir ? cfg->engine_dir : "(fenbridge's)");
	fb_log_msg(FB_LOG_INFO,
		   "protocol %s; FEN to engine %s, to GUI %s; castling to "
		   "engine %s, to GUI %s",
		   cfg->protocol,
		   cfg->engine_fen == FB_XFEN ? "X-FEN" : "Shredder-FEN",
		   cfg->gui_fen == FB_XFEN ? "X-FEN" : "Shredder-FEN",
		   fb_game_notation_name(cfg->engine_castling),
		   fb_game_notation_name(cfg->gui_castling));
	for (size_t i = 0; i < cfg->noptions; i++)
		fb_log_msg(FB_LOG_INFO, "option %s%s%s%s%s",
			   cfg->options[i].name,
			   cfg->options[i].value ? " = " : "",
			   cfg->options[i].value ? cfg->options[i].value : "",
			   (cfg->options[i].flags & FB_OPT_FORCED) ? " (forced)"
								   : "",
			   (cfg->options[i].flags & FB_OPT_HIDDEN) ? " (hidden)"
								   : "");
	for (size_t i = 0; i < cfg->nenv; i++)
		fb_log_msg(FB_LOG_INFO, "environment: %s", cfg->env[i]);
}
