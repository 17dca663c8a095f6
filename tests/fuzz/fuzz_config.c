/* SPDX-License-Identifier: MIT */
/*
 * fuzz_config: the config parsers (src/daemon/config*.c) on arbitrary text.
 *
 * The input, NUL-terminated (an embedded NUL ends the text), is parsed as
 * an INI file with fb_config_parse_ini (its folder: "" , "/etc/fenbridge"
 * or "rel/dir", chosen by the input's length), as a command line with
 * fb_config_split_words, and those words as fenbridge's own arguments with
 * fb_config_parse_args (twice, as main does) and as `fenbridge convert`'s
 * with fb_config_parse_convert. All three parsers are driven by the option
 * tables. fb_config_free runs every time. Checked:
 *  - a result is 0 or FB_EINVAL, with a NUL-terminated message that fits;
 *  - after a successful INI parse every string in the config is still
 *    valid and owned (the parser's line buffer is gone: the stack under
 *    the call is overwritten first), protocol is auto/uci/xboard, enums and
 *    the grace period are in range, engine_argv is NULL-terminated, each
 *    option has a name and a value exactly when it is set, each env entry
 *    holds '=';
 *  - the INI's engine builds (engine.avx512 ...) are NULL-terminated word
 *    lists; fb_cpu_pick_engine with a CPU made from the input's length
 *    answers 0 (no build) with nothing to say, 1 with an engine, or
 *    FB_EINVAL without one, its words NUL-terminated;
 *  - parsing the same argv a second time gives the same result and the same
 *    message (getopt's state is reset between parses);
 *  - convert's result: the FENs start within argv, the dialect and the
 *    X-FEN prefix are in range;
 *  - split_words stores at most max - 1 words, NULL-terminated, inside buf
 *    (strlen + 1 bytes, exact size), and quoting each word in single
 *    quotes and splitting again gives the same words;
 *  - no leak (LeakSanitizer) and no overrun (ASan).
 */
#include <stdbool.h>

#include "config.h"
#include "fuzz_common.h"

#define MAX_WORDS 64

/* Overwrites the stack below the caller's frame, where the callee's frames
 * (and inih's line buffer) were. */
__attribute__((noinline)) static void
clobber_stack(void)
{
	volatile char junk[64 * 1024];

	memset((char *)junk, 0x5a, sizeof junk);
	__asm__ volatile("" : : "r"(junk) : "memory");
}

static void
check_str(const char *s)
{
	if (s != NULL)
		CHECK(strlen(s) < (1u << 20));
}

static void
check_config(const struct fb_config *c)
{
	CHECK(c->action == FB_RUN_BRIDGE || c->action == FB_SHOW_HELP ||
	      c->action == FB_SHOW_VERSION);
	CHECK(c->engine_fen == FB_XFEN || c->engine_fen == FB_SHREDDER);
	CHECK(c->gui_fen == FB_XFEN || c->gui_fen == FB_SHREDDER);
	CHECK(c->protocol != NULL);
	CHECK(strcmp(c->protocol, "auto") == 0 ||
	      strcmp(c->protocol, "uci") == 0 ||
	      strcmp(c->protocol, "xboard") == 0);
	CHECK(c->gui_castling >= FB_CASTLE_AUTO &&
	      c->gui_castling <= FB_CASTLE_OO);
	CHECK(c->engine_castling >= FB_CASTLE_AUTO &&
	      c->engine_castling <= FB_CASTLE_OO);
	CHECK(c->grace_ms <= 86400u * 1000u);
	check_str(c->log_path);
	check_str(c->engine_dir);
	check_str(c->engine_file);
	check_str(c->config_path);
	check_str(c->name);
	if (c->engine_argv != NULL) {
		size_t n = 0;
		for (; c->engine_argv[n] != NULL; n++)
			check_str(c->engine_argv[n]);
		CHECK(n > 0 || !c->engine_from_config);
	}
	for (int b = 0; b < FB_CPU_NBUILDS; b++) {
		CHECK((c->build_argv[b] == NULL) == (c->build_line[b] == NULL));
		for (char **a = c->build_argv[b]; a != NULL && *a != NULL; a++)
			check_str(*a);
	}
	for (size_t i = 0; i < c->noptions; i++) {
		const struct fb_engine_option *o = &c->options[i];
		CHECK(o->name != NULL);
		check_str(o->name);
		CHECK(o->flags != 0 && (o->flags & ~7u) == 0);
		CHECK((o->value != NULL) == ((o->flags & FB_OPT_SET) != 0));
		check_str(o->value);
		if (o->flags & FB_OPT_FORCED)
			CHECK(o->flags & FB_OPT_SET);
	}
	for (size_t i = 0; i < c->nenv; i++) {
		CHECK(c->env[i] != NULL);
		CHECK(strchr(c->env[i], '=') != NULL);
	}
}

static void
check_err(int rc, const char *err, size_t errlen)
{
	CHECK(rc == 0 || rc == FB_EINVAL);
	if (rc != 0)
		CHECK(memchr(err, '\0', errlen) != NULL && err[0] != '\0');
}

/* Splits text into words; returns the count or FB_EINVAL. argv holds
 * MAX_WORDS + 1 pointers; *bufp (strlen + 1 bytes) must be freed. */
static int
split(const char *text, size_t max, char **argv, char **bufp)
{
	size_t n = strlen(text);
	char *buf = malloc(n + 1);
	int words;

	CHECK(buf != NULL);
	*bufp = buf;
	words = fb_config_split_words(text, buf, argv, max);
	CHECK(words == FB_EINVAL || (words >= 0 && (size_t)words < max));
	if (words < 0)
		return words;
	CHECK(argv[words] == NULL);
	for (int i = 0; i < words; i++) {
		size_t l;
		CHECK(argv[i] >= buf && argv[i] < buf + n + 1);
		l = strlen(argv[i]);
		CHECK(argv[i] + l < buf + n + 1);
		if (i > 0)
			CHECK(argv[i] > argv[i - 1]);
	}
	return words;
}

static void
fuzz_words(const char *text, size_t max)
{
	char *argv[MAX_WORDS + 1], *argv2[MAX_WORDS + 1], *buf, *buf2;
	int words = split(text, max, argv, &buf);

	if (words > 0) {
		/* Quote every word ('...' with ' as '\'') and split again. */
		size_t qlen = 1;
		char *q, *o;
		int again;

		for (int i = 0; i < words; i++)
			qlen += 4 * strlen(argv[i]) + 3;
		q = o = malloc(qlen);
		CHECK(q != NULL);
		for (int i = 0; i < words; i++) {
			*o++ = '\'';
			for (const char *p = argv[i]; *p != '\0'; p++) {
				if (*p == '\'') {
					memcpy(o, "'\\''", 4);
					o += 4;
				} else {
					*o++ = *p;
				}
			}
			*o++ = '\'';
			*o++ = ' ';
		}
		*o = '\0';
		again = split(q, max, argv2, &buf2);
		CHECK(again == words);
		for (int i = 0; i < words; i++)
			CHECK(strcmp(argv[i], argv2[i]) == 0);
		free(buf2);
		free(q);

		/* The words as fenbridge's command line (borrowed strings). */
		{
			char *args[MAX_WORDS + 2], err[256];
			struct fb_config c;
			int rc;

			args[0] = "fenbridge";
			memcpy(args + 1, argv,
			       sizeof argv[0] * (size_t)(words + 1));
			struct fb_config c2;
			struct fb_convert_config cv;
			char err2[256];
			int rc2;

			fb_config_init(&c);
			rc = fb_config_parse_args(&c, words + 1, args, err,
						  sizeof err);
			check_err(rc, err, sizeof err);
			fb_config_init(&c2);
			rc2 = fb_config_parse_args(&c2, words + 1, args, err2,
						   sizeof err2);
			CHECK(rc2 == rc);
			if (rc != 0)
				CHECK(strcmp(err, err2) == 0);
			else
				CHECK(c2.action == c.action &&
				      c2.engine_fen == c.engine_fen &&
				      c2.engine_fen_auto == c.engine_fen_auto &&
				      c2.grace_ms == c.grace_ms &&
				      c2.log_path == c.log_path &&
				      c2.engine_argv == c.engine_argv);
			fb_config_free(&c2);
			if (rc == 0) {
				check_config(&c);
				rc = fb_config_check(&c, err, sizeof err);
				check_err(rc, err, sizeof err);
			}
			fb_config_free(&c);

			args[0] = "convert";
			rc = fb_config_parse_convert(&cv, words + 1, args, err,
						     sizeof err);
			check_err(rc, err, sizeof err);
			if (rc == 0) {
				CHECK(cv.action == FB_RUN_BRIDGE ||
				      cv.action == FB_SHOW_HELP);
				CHECK(cv.action == FB_SHOW_HELP || cv.have_to);
				CHECK(cv.first >= 1 && cv.first <= words + 1);
				CHECK(cv.style.notation == FB_XFEN ||
				      cv.style.notation == FB_SHREDDER);
				CHECK(cv.style.prefix == 0 ||
				      cv.style.prefix == 's' ||
				      cv.style.prefix == 'm');
			}
		}
	}
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const dirs[] = {"", "/etc/fenbridge", "rel/dir"};
	char *text = malloc(size + 1), err[300];
	struct fb_config c;
	int rc;

	CHECK(text != NULL);
	memcpy(text, data, size);
	text[size] = '\0';

	fb_config_init(&c);
	rc = fb_config_parse_ini(&c, text, "fuzz.ini", dirs[size % 3], err,
				 sizeof err);
	clobber_stack();
	check_err(rc, err, sizeof err);
	if (rc == 0) {
		struct fb_cpu cpu;
		char why[400];
		check_config(&c);
		/* Some CPU: the bits of the length as cpuid's and XCR0's. */
		fb_cpu_from_regs(&cpu, (uint32_t)size * 2654435761u,
				 (uint32_t)size * 40503u,
				 size & 1 ? 0xe7 : 0x07);
		rc = fb_cpu_pick_engine(&c, &cpu, why, sizeof why);
		CHECK(rc == 0 || rc == 1 || rc == FB_EINVAL);
		CHECK(memchr(why, '\0', sizeof why) != NULL);
		CHECK((rc == 0) == (why[0] == '\0'));
		CHECK((rc == FB_EINVAL) == (c.engine_argv == NULL && rc != 0));
		check_config(&c);
		rc = fb_config_check(&c, err, sizeof err);
		check_err(rc, err, sizeof err);
	}
	fb_config_free(&c);
	CHECK(c.owned == NULL && c.options == NULL && c.env == NULL);

	/* The same text as a command line, with room for few or many words. */
	fuzz_words(text, 4);
	fuzz_words(text, MAX_WORDS);
	free(text);
	return 0;
}
