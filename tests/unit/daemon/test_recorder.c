/* SPDX-License-Identifier: MIT */
/*
 * The flight recorder's rings (src/daemon/recorder.c): chunks as the bridge
 * reads them (several lines, a line split between reads) come back as
 * whole lines, oldest first across both rings, with their tags and times;
 * when a ring is full the oldest chunks go and a line that lost its start
 * is left out, never shown in part; the engine's flood does not push out
 * the GUI's lines; a long line is kept cut and marked; the file holds the
 * reason, the header and every kept line.
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
	size_t n, gui;
	unsigned long long first, last; /* the engine lines' numbers */
	bool ordered, whole;
	size_t cut;
	size_t marks, mark_at; /* FB_REC_CUT calls, lines before the first */
	enum fb_rec_tag tags[16];
};

/* Engine lines read "line N" and 40 x; GUI lines "gui N". */
static void
check_line(void *ctx, enum fb_rec_tag tag, uint64_t ms, const char *text,
	   size_t len)
{
	struct seen *s = ctx;
	char buf[FB_RECORDER_LINE_MAX + 8];
	unsigned long long n;
	int k;

	if (tag == FB_REC_CUT) {
		if (s->marks++ == 0)
			s->mark_at = s->n;
		return;
	}
	if (s->n < 16)
		s->tags[s->n] = tag;
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (tag == FB_REC_GUI) {
		s->gui++;
		s->n++;
		return;
	}
	if (sscanf(buf, "line %llu%n", &n, &k) != 1) {
		s->whole = false;
		return;
	}
	if (len >= 3 && memcmp(text + len - 3, "...", 3) == 0)
		s->cut++;
	else if (len != (size_t)k + 40 || ms > n || ms == 0)
		s->whole =
			false; /* a line has the time of the read it began in */
	if (s->n > s->gui && n != s->last + 1)
		s->ordered = false;
	if (s->n == s->gui)
		s->first = n;
	s->last = n;
	s->n++;
}

/* Engine output "line FIRST" .. "line LAST", read in chunks of about
 * `chunk` bytes cut anywhere (inside lines too). */
static void
engine_lines(struct fb_recorder *r, unsigned long long first,
	     unsigned long long last, size_t chunk)
{
	static char buf[1 << 16];
	size_t n = 0;

	for (unsigned long long i = first; i <= last; i++) {
		n += (size_t)snprintf(buf + n, sizeof buf - n, "line %llu", i);
		memset(buf + n, 'x', 40);
		n += 40;
		buf[n++] = i % 3 ? '\n' : '\r';
		if (i % 3 == 0)
			buf[n++] = '\n';
		while (n >= chunk || (i == last && n > 0)) {
			size_t k = n < chunk ? n : chunk;
			/* each piece's time is the number of the first line
			 * it starts: no later than its lines' numbers */
			unsigned long long t;
			sscanf(buf, "line %llu", &t);
			fb_recorder_add(r, FB_REC_ENGINE, t, buf, k);
			memmove(buf, buf + k, n - k);
			n -= k;
			if (n > 0 && memcmp(buf, "line ", 5) != 0) {
				/* the rest starts inside a line: send it on
				 * to the line's end in a piece of its own */
				char *e = memchr(buf, '\n', n);
				size_t m = e != NULL ? (size_t)(e - buf) + 1
						     : n;
				fb_recorder_add(r, FB_REC_ENGINE, t, buf, m);
				memmove(buf, buf + m, n - m);
				n -= m;
			}
		}
	}
}

static void
test_recorder_keeps_the_newest_whole_lines(void **state)
{
	struct fb_recorder r;
	struct seen s = {.ordered = true, .whole = true};
	const unsigned long long total = 100000; /* far more than it holds */

	(void)state;
	assert_true(fb_recorder_init(&r));
	fb_recorder_add(&r, FB_REC_GUI, 0, "gui 1\ngui 2\n", 12);
	engine_lines(&r, 1, total, 1000);
	fb_recorder_add(&r, FB_REC_GUI, total, "gui 3\n", 6);
	fb_recorder_each(&r, check_line, &s);
	assert_true(s.whole);
	assert_true(s.ordered);
	assert_int_equal(s.last, total);
	/* a ring's worth of the newest lines */
	assert_true(s.n - s.gui > FB_RECORDER_ENGINE_SIZE / 70);
	assert_true(s.first > 1);
	/* the engine's flood pushed out none of the GUI's lines */
	assert_int_equal(s.gui, 3);
	assert_int_equal(s.tags[0], FB_REC_GUI);
	assert_int_equal(s.tags[1], FB_REC_GUI);
	/* one mark, after the GUI's older lines: every line after it was
	 * kept (the replay starts there) */
	assert_int_equal(s.marks, 1);
	assert_int_equal(s.mark_at, 2);
	fb_recorder_free(&r);
}

static void
test_recorder_merges_the_rings_in_order(void **state)
{
	struct fb_recorder r;
	struct seen s = {.ordered = true, .whole = true};
	static const enum fb_rec_tag want[] = {
		FB_REC_GUI,    FB_REC_ENGINE, FB_REC_GUI,
		FB_REC_ENGINE, FB_REC_ENGINE,
	};

	(void)state;
	assert_true(fb_recorder_init(&r));
	fb_recorder_add(&r, FB_REC_GUI, 1, "gui 1\n", 6);
	engine_lines(&r, 1, 1, 1000);
	fb_recorder_add(&r, FB_REC_GUI, 2, "gui 2\n", 6);
	/* a line split between two reads is one line */
	fb_recorder_add(&r, FB_REC_ENGINE, 2, "line 2xxxxxxxxxxxxxxxxxxxx", 26);
	fb_recorder_add(&r, FB_REC_ENGINE, 2, "xxxxxxxxxxxxxxxxxxxx\n", 21);
	/* the last line, unfinished, is kept as it is */
	fb_recorder_add(&r, FB_REC_ENGINE, 3,
			"line 3xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 46);
	fb_recorder_each(&r, check_line, &s);
	assert_int_equal(s.n, 5);
	assert_int_equal(s.marks, 0); /* nothing lost: no mark */
	assert_true(s.whole);
	assert_true(s.ordered);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(s.tags[i], want[i]);
	fb_recorder_free(&r);
}

static void
test_recorder_cuts_a_long_line(void **state)
{
	struct fb_recorder r;
	struct seen s = {.ordered = true, .whole = true};
	char *big = malloc(3 * FB_RECORDER_LINE_MAX + 1);

	(void)state;
	assert_non_null(big);
	assert_true(fb_recorder_init(&r));
	memset(big, 'x', 3 * FB_RECORDER_LINE_MAX);
	memcpy(big, "line 1 ", 7);
	big[3 * FB_RECORDER_LINE_MAX] = '\n';
	fb_recorder_add(&r, FB_REC_ENGINE, 1, big,
			3 * FB_RECORDER_LINE_MAX + 1);
	engine_lines(&r, 2, 2, 1000);
	fb_recorder_each(&r, check_line, &s);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.cut, 1);
	assert_true(s.ordered);
	assert_true(s.whole);
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
	fb_recorder_add(&r, FB_REC_GUI, 1500, "uci\n", 4);
	fb_recorder_add(&r, FB_REC_ENGINE, 1600, "bad\x01line\r\n", 10);
	/* no folder given: the system's temporary one */
	assert_int_equal(
		fb_recorder_write(&r, NULL, "the engine died", "head line\n"),
		0);
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
		cmocka_unit_test(test_recorder_merges_the_rings_in_order),
		cmocka_unit_test(test_recorder_cuts_a_long_line),
		cmocka_unit_test(test_recorder_writes_a_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
