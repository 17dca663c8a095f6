/* SPDX-License-Identifier: MIT */
/* The script harness of script.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "script.h"

static void
put(struct script *s, const char *prefix, const char *data, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s->line_start) {
			size_t k = strlen(prefix);
			assert_true(s->n + k < SCRIPT_MAX);
			memcpy(s->text + s->n, prefix, k);
			s->n += k;
			s->line_start = false;
		}
		assert_true(s->n + 2 < SCRIPT_MAX);
		s->text[s->n++] = data[i];
		if (data[i] == '\n')
			s->line_start = true;
	}
	s->text[s->n] = '\0';
}

static void
to_engine(void *ctx, const char *data, size_t len)
{
	put(ctx, "> ", data, len);
}

static void
to_gui(void *ctx, const char *data, size_t len)
{
	put(ctx, "< ", data, len);
}

static void
timer(void *ctx, unsigned ms)
{
	struct script *s = ctx;
	char line[32];
	int n = snprintf(line, sizeof line, "timer %u\n", ms);

	s->timer = (long)ms;
	put(s, "", line, (size_t)n);
}

static void
report(void *ctx, enum fb_level level, const char *msg)
{
	static const char *const names[] = {"debug", "info", "warn", "error"};
	struct script *s = ctx;
	int n;

	assert_non_null(msg);
	assert_true(level >= FB_LOG_DEBUG && level <= FB_LOG_ERROR);
	n = snprintf(s->log + s->nlog, sizeof s->log - s->nlog, "%s: %s\n",
		     names[level], msg);
	if (n > 0 && (size_t)n < sizeof s->log - s->nlog)
		s->nlog += (size_t)n;
}

void
script_start(struct script *s, const struct fb_filter_options *opt)
{
	memset(s, 0, sizeof *s);
	s->line_start = true;
	s->timer = -1;
	s->from_gui = (struct fb_sink){.to_engine = to_engine,
				       .to_gui = to_gui,
				       .report = report,
				       .timer = timer,
				       .ctx = s,
				       .min_level = FB_LOG_DEBUG};
	s->from_engine = (struct fb_sink){.to_gui = to_gui,
					  .to_engine = to_engine,
					  .report = report,
					  .timer = timer,
					  .ctx = s,
					  .min_level = FB_LOG_DEBUG};
	fb_filter_init(&s->f, opt);
}

const char *
script_step(struct script *s, const char *script)
{
	s->n = 0;
	s->text[0] = '\0';
	s->nlog = 0;
	s->log[0] = '\0';
	while (*script != '\0') {
		const char *nl = strchr(script, '\n');
		size_t len = nl != NULL ? (size_t)(nl - script)
					: strlen(script);
		if (script[0] == 'g' && len >= 2)
			fb_filter_gui_line(&s->f, script + 2, len - 2, 1, 0,
					   &s->from_gui);
		else if (script[0] == 'e' && len >= 2)
			fb_filter_engine_line(&s->f, script + 2, len - 2, 1, 0,
					      &s->from_engine);
		else if (script[0] == 't' && len == 1)
			fb_filter_timeout(&s->f, &s->from_gui);
		else
			fail_msg("bad script line: %.*s", (int)len, script);
		script += len + (nl != NULL);
	}
	return s->text;
}

void
script_end(struct script *s)
{
	fb_filter_free(&s->f);
}
