/* SPDX-License-Identifier: MIT */
/*
 * --help of fenbridge, `fenbridge convert` and `fenbridge check`, built from
 * their option tables: the options with their values and defaults, wrapped
 * at HELP_WIDTH, then the INI keys that are not options.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fenbridge/text.h"

/* --help's layout: the option column, then text wrapped at this width. */
#define HELP_COLUMN 30
#define HELP_WIDTH 79

static void
put(struct fb_text *t, const char *s, size_t n)
{
	fb_text_say(t, "%.*s", (int)n, s);
}

static void
puts_(struct fb_text *t, const char *s)
{
	fb_text_say(t, "%s", s);
}

static void
pad(struct fb_text *t, size_t n)
{
	while (n-- > 0)
		put(t, " ", 1);
}

/* Joins two words that --help must not break apart: "(default auto)". */
#define NBSP '\x01'

/* Writes head, then the words of body wrapped to HELP_WIDTH, every line
 * after head's starting at column col (0: a paragraph of its own). */
static void
entry(struct fb_text *t, const char *head, const char *body, size_t col)
{
	size_t x = strlen(head);

	puts_(t, head);
	if (col > 0 && x + 2 > col) {
		put(t, "\n", 1);
		x = 0;
	}
	pad(t, col - x);
	x = col;
	for (const char *w = body; *w != '\0';) {
		size_t n = strcspn(w, " ");
		if (x > col && x + 1 + n > HELP_WIDTH) {
			put(t, "\n", 1);
			pad(t, col);
			x = col;
		} else if (x > col) {
			put(t, " ", 1);
			x++;
		}
		for (size_t i = 0; i < n; i++)
			put(t, w[i] == NBSP ? " " : &w[i], 1);
		x += n;
		w += n;
		w += strspn(w, " ");
	}
	put(t, "\n", 1);
}

/* The help text of o with its default: "(default auto)", or for a default
 * that is prose, "(default: the folder of its executable)". */
static void
describe(const struct fb_option *o, char *out, size_t cap)
{
	if (o->def == NULL)
		snprintf(out, cap, "%s", o->help);
	else
		snprintf(out, cap, "%s (default%s%c%s)", o->help,
			 strchr(o->def, ' ') != NULL ? ":" : "", NBSP, o->def);
}

size_t
fb_config_print_help(const struct fb_option_table *t, char *out, size_t cap)
{
	struct fb_text tx;
	const struct fb_option *o;
	char head[96], body[512];
	size_t col = 0;
	bool ini = false;

	fb_text_init(&tx, out, cap);
	/* The text column: after the longest option, but at most
	 * HELP_COLUMN (longer ones get a line of their own). */
	for (o = t->options; o->name != NULL; o++) {
		size_t w = 2 + (o->short_name ? 4 : 0) + 2 + strlen(o->name) +
			   (o->arg != NULL ? 1 + strlen(o->arg) : 0) + 2;
		if ((o->scope & FB_SCOPE_ARGV) && w > col)
			col = w;
		ini |= (o->scope & FB_SCOPE_INI) != 0;
	}
	if (col > HELP_COLUMN)
		col = HELP_COLUMN;

	puts_(&tx, t->usage);
	puts_(&tx, "\nOptions:\n");
	for (o = t->options; o->name != NULL; o++) {
		if (!(o->scope & FB_SCOPE_ARGV))
			continue;
		if (o->short_name != '\0')
			snprintf(head, sizeof head, "  -%c, --%s%s%s",
				 o->short_name, o->name, o->arg ? "=" : "",
				 o->arg ? o->arg : "");
		else
			snprintf(head, sizeof head, "  --%s%s%s", o->name,
				 o->arg ? "=" : "", o->arg ? o->arg : "");
		describe(o, body, sizeof body);
		entry(&tx, head, body, col);
	}
	if (ini) {
		/* The options that are not keys, then the keys that are not
		 * options: together, every key once. */
		size_t len =
			(size_t)snprintf(body, sizeof body,
					 "A config file's section [fenbridge] "
					 "takes every long option except");
		size_t k = 0, i = 0;

		for (o = t->options; o->name != NULL; o++)
			k += o->scope == FB_SCOPE_ARGV;
		for (o = t->options; o->name != NULL; o++)
			if (o->scope == FB_SCOPE_ARGV && len < sizeof body)
				len += (size_t)snprintf(
					body + len, sizeof body - len, "%s--%s",
					i++ == 0 ? " "
					: i == k ? " and "
						 : ", ",
					o->name);
		if (len < sizeof body)
			snprintf(body + len, sizeof body - len,
				 " as a key (log = FILE), and:");
		put(&tx, "\n", 1);
		entry(&tx, "", body, 0);
		for (o = t->options; o->name != NULL; o++) {
			if (o->scope != FB_SCOPE_INI)
				continue;
			snprintf(head, sizeof head, "  %s = %s", o->name,
				 o->arg);
			describe(o, body, sizeof body);
			entry(&tx, head, body, col);
		}
	}
	puts_(&tx, "\n");
	puts_(&tx, t->epilog);
	return tx.len;
}
