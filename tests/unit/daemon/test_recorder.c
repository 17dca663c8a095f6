/* SPDX-License-Identifier: MIT */
/*
 * The flight recorder's ring (src/daemon/recorder.c): lines come back
 * oldest first, whole, with their tags and times; when the ring is full
 * the oldest lines go, never a part of one; a long line is kept cut and
 * marked; the file holds the reason, the header and every kept line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "recorder.h"

struct seen {
	size_t n;
	uint64_t first, last; /* the numbers in the first and last line */
	bool ordered;
	bool whole;
	size_t cut;
};

/* Lines of the form "line N xxxx...": each must be whole and N must grow
 * by one from line to line. */
static void
check_line(void *ctx, enum fb_rec_tag tag, uint64_t ms, const char *text,
	   size_t len)
{
	struct seen *s = ctx;
	char buf[FB_RECORDER_LINE_MAX + 8];
	unsigned long long n;

	memcpy(buf, text, len);
	buf[len] = '\0';
	if (sscanf(buf, "line %llu", &n) != 1) {
		s->whole = false;
		return;
	}
	if (tag != (n % 2 ? FB_REC_ENGINE : FB_REC_GUI) || ms != n * 10)
		s->whole = false;
	if (len >= 3 && memcmp(text + len - 3, "...", 3) == 0)
		s->cut++;
	else if (len != (size_t)snprintf(NULL, 0, "line %llu", n) + 40)
		s->whole = false;
	if (s->n > 0 && n != s->last + 1)
		s->ordered = false;
	if (s->n == 0)
		s->first = n;
	s->last = n;
	s->n++;
}

static void
add(struct fb_recorder *r, uint64_t i)
{
	char line[64];
	int n = snprintf(line, sizeof line, "line %llu",
			 (unsigned long long)i);

	memset(line + n, 'x', 40);
	fb_recorder_add(r, i % 2 ? FB_REC_ENGINE : FB_REC_GUI, i * 10, line,
			(size_t)n + 40);
}

static void
test_recorder_keeps_the_newest_whole_lines(void **state)
{
	struct fb_recorder r;
	struct seen s = {.ordered = true, .whole = true};
	const uint64_t total = 100000; /* far more than the ring holds */

	(void)state;
	assert_true(fb_recorder_init(&r));
	for (uint64_t i = 1; i <= total; i++)
		add(&r, i);
	fb_recorder_each(&r, check_line, &s);
	assert_true(s.whole);
	assert_true(s.ordered);
	assert_int_equal(s.last, total);
	/* the ring is nearly full: only what a whole line needs is free */
	assert_true(s.n > FB_RECORDER_SIZE / 80);
	assert_true(r.used <= FB_RECORDER_SIZE);
	assert_true(FB_RECORDER_SIZE - r.used < 80);
	assert_int_equal(s.first, total - s.n + 1);
	assert_int_equal(r.lines, total);
	fb_recorder_free(&r);
}

static void
test_recorder_cuts_a_long_line(void **state)
{
	struct fb_recorder r;
	struct seen s = {.ordered = true, .whole = true};
	char *big = malloc(3 * FB_RECORDER_LINE_MAX);

	(void)state;
	assert_non_null(big);
	assert_true(fb_recorder_init(&r));
	memset(big, 'x', 3 * FB_RECORDER_LINE_MAX);
	memcpy(big, "line 1 ", 7);
	fb_recorder_add(&r, FB_REC_ENGINE, 10, big, 3 * FB_RECORDER_LINE_MAX);
	add(&r, 2);
	fb_recorder_each(&r, check_line, &s);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.cut, 1);
	assert_true(s.ordered);
	free(big);
	fb_recorder_free(&r);
}

static void
test_recorder_writes_a_file(void **state)
{
	struct fb_recorder r;
	char text[4096];
	FILE *f;
	size_t n;

	(void)state;
	assert_true(fb_recorder_init(&r));
	fb_recorder_add(&r, FB_REC_GUI, 1500, "uci", 3);
	fb_recorder_add(&r, FB_REC_ENGINE, 1600, "bad\x01line", 8);
	/* no folder given: the system's temporary one */
	assert_int_equal(fb_recorder_write(&r, NULL, "the engine died",
					   "head line\n"), 0);
	assert_true(r.written);
	assert_non_null(strstr(r.path, "fenbridge-"));
	f = fopen(r.path, "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	fclose(f);
	assert_non_null(strstr(text, "fenbridge flight record: the engine "
				     "died\nhead line\n"));
	assert_non_null(strstr(text, "   1.500 gui>     uci\n"));
	/* control bytes escaped */
	assert_non_null(strstr(text, "   1.600 engine>  bad\\x01line\n"));
	assert_int_equal(remove(r.path), 0);
	fb_recorder_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorder_keeps_the_newest_whole_lines),
		cmocka_unit_test(test_recorder_cuts_a_long_line),
		cmocka_unit_test(test_recorder_writes_a_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
