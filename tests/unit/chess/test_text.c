/* SPDX-License-Identifier: MIT */
/* The text builder (text.h): snprintf-style lengths, and JSON strings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "fenbridge/text.h"

static void
json_is(const char *in, size_t n, const char *want)
{
	char out[256];
	struct fb_text t;

	fb_text_init(&t, out, sizeof out);
	fb_text_json(&t, in, n);
	assert_string_equal(out, want);
	assert_int_equal(t.len, strlen(want));
}

static void
test_text_json_escapes(void **state)
{
	(void)state;
	json_is("", 0, "\"\"");
	json_is("Stockfish 15.1", 14, "\"Stockfish 15.1\"");
	json_is("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
	json_is("t\tn\n\x01\x7f", 6, "\"t\\u0009n\\u000a\\u0001\\u007f\"");
	json_is("x\0y", 3, "\"x\\u0000y\"");
}

static void
test_text_json_utf8(void **state)
{
	(void)state;
	/* Well-formed sequences pass as they are. */
	json_is("Ca\xc3\xafssa \xe2\x99\x94 \xf0\x9f\x90\xb4", 16,
		"\"Ca\xc3\xafssa \xe2\x99\x94 \xf0\x9f\x90\xb4\"");
	/* Latin-1, a cut sequence, an overlong '/', a surrogate: U+FFFD. */
	json_is("Ca\xefssa", 6, "\"Ca\\ufffdssa\"");
	json_is("\xe2\x99", 2, "\"\\ufffd\\ufffd\"");
	json_is("\xc0\xaf", 2, "\"\\ufffd\\ufffd\"");
	json_is("\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\"");
	json_is("\xf4\x90\x80\x80", 4, "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
}

static void
test_text_length_past_the_buffer(void **state)
{
	char out[4];
	struct fb_text t;

	(void)state;
	fb_text_init(&t, out, sizeof out);
	fb_text_say(&t, "%s", "abcdef");
	fb_text_json(&t, "\"", 1);
	assert_string_equal(out, "abc");
	assert_int_equal(t.len, 6 + 4);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_json_escapes),
		cmocka_unit_test(test_text_json_utf8),
		cmocka_unit_test(test_text_length_past_the_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
