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
