/* SPDX-License-Identifier: MIT */
/*
 * The snprintf-style string builder of text.h. No I/O.
 */
#include "fenbridge/text.h"

#include <stdarg.h>
#include <stdio.h>

void
fb_text_init(struct fb_text *t, char *out, size_t cap)
{
	t->out = out;
	t->cap = cap;
	t->len = 0;
	if (cap > 0)
		out[0] = '\0';
}

void
fb_text_say(struct fb_text *t, const char *fmt, ...)
{
	size_t room = t->len < t->cap ? t->cap - t->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room > 0 ? t->out + t->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len += (size_t)n;
}

/* The length of the well-formed UTF-8 sequence at s[0..n), or 0. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] >= 0xf0 && s[0] <= 0xf4   ? 4
		     : s[0] >= 0xe0                 ? 3
		     : s[0] >= 0xc2 && s[0] <= 0xdf ? 2
						    : 0;

	if (len == 0 || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* Overlong, surrogate and past U+10FFFF forms. */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return len;
}

void
fb_text_json(struct fb_text *t, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	fb_text_say(t, "\"");
	for (size_t i = 0; i < n; i++) {
		size_t k;
		if (u[i] == '"' || u[i] == '\\')
			fb_text_say(t, "\\%c", u[i]);
		else if (u[i] < 0x20 || u[i] == 0x7f)
			fb_text_say(t, "\\u%04x", u[i]);
		else if (u[i] < 0x80)
			fb_text_say(t, "%c", u[i]);
		else if ((k = utf8_len(u + i, n - i)) > 0) {
			fb_text_say(t, "%.*s", (int)k, s + i);
			i += k - 1;
		} else
			fb_text_say(t, "\\ufffd");
	}
	fb_text_say(t, "\"");
}
