/* SPDX-License-Identifier: MIT */
/*
 * An INI file's text -> struct fb_config: [fenbridge] takes the options of
 * fb_config_bridge_table whose scope has FB_SCOPE_INI, [options] and
 * [forced-options] engine options to set, [hidden-options] options kept
 * from the GUI, [env] the engine's environment. The first error wins, with
 * its line. Also the words of a command line (fb_config_split_words).
 */
#include "config.h"

#include <assert.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ini.h>

#include "config_int.h"
#include "filter.h"

struct ini_state {
	struct fb_config *c;
	const char *dir;
	char msg[200]; /* the first error's reason */
	unsigned seen; /* [fenbridge] keys given, a bit per table entry */
};

/* A copy of v that belongs to c (inih's line buffer does not outlive the
 * parse). One pair of matching quotes around a plain value is not part of
 * it. */
static const char *
unquote(struct fb_config *c, const char *v)
{
	size_t n = strlen(v);

	if (n < 2 || (v[0] != '"' && v[0] != '\'') || v[n - 1] != v[0])
		return fb_config_copy(c, v);
	char *p = malloc(n - 1);
	if (p == NULL)
		return NULL;
	memcpy(p, v + 1, n - 2);
	p[n - 2] = '\0';
	return fb_config_keep(c, p);
}

int
fb_config_split_words(const char *line, char *buf, char **argv, size_t max)
{
	const char *s = line;
	char *o = buf;
	size_t n = 0;

	for (;;) {
		bool word = false;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			break;
		if (n + 1 >= max)
			return FB_EINVAL;
		argv[n] = o;
		while (*s != '\0' && *s != ' ' && *s != '\t') {
			word = true;
			if (*s == '\'') {
				/* POSIX: everything literal up to the next '. */
				const char *e = strchr(s + 1, '\'');
				if (e == NULL)
					return FB_EINVAL;
				memcpy(o, s + 1, (size_t)(e - s - 1));
				o += e - s - 1;
				s = e + 1;
			} else if (*s == '"') {
				for (s++; *s != '"'; s++) {
					if (*s == '\0')
						return FB_EINVAL;
					if (*s == '\\' &&
					    (s[1] == '"' || s[1] == '\\'))
						s++;
					*o++ = *s;
				}
				s++;
			} else if (*s == '\\' && (s[1] == '"' || s[1] == '\'' ||
						  s[1] == '\\')) {
				/* Only where it must escape: C:\Engines\x
				 * keeps its backslashes on every system. */
				*o++ = s[1];
				s += 2;
			} else {
				*o++ = *s++;
			}
		}
		if (word) {
			*o++ = '\0';
			n++;
		}
	}
	argv[n] = NULL;
	return (int)n;
}

__attribute__((format(printf, 2, 3))) static int
ini_fail(struct ini_state *st, const char *fmt, ...)
{
	va_list ap;

	if (st->msg[0] == '\0') {
		va_start(ap, fmt);
		vsnprintf(st->msg, sizeof st->msg, fmt, ap);
		va_end(ap);
	}
	return 0;
}

static int
add_option(struct ini_state *st, const char *name, const char *value,
	   unsigned flags)
{
	struct fb_config *c = st->c;
	struct fb_engine_option *o;

	for (size_t i = 0; i < c->noptions; i++)
		if (strcasecmp(c->options[i].name, name) == 0) {
			if ((flags & FB_OPT_SET) &&
			    (c->options[i].flags & FB_OPT_SET))
				return ini_fail(st, "option '%s' is set twice",
						name);
			c->options[i].flags |= flags;
			if (flags & FB_OPT_SET)
				c->options[i].value = fb_config_copy(c, value);
			return 1;
		}
	o = realloc(c->options, (c->noptions + 1) * sizeof *o);
	if (o == NULL)
		return ini_fail(st, "out of memory");
	c->options = o;
	o = &o[c->noptions++];
	o->name = fb_config_copy(c, name);
	o->value = (flags & FB_OPT_SET) ? fb_config_copy(c, value) : NULL;
	o->flags = flags;
	return 1;
}

static bool
is_yes(const char *v)
{
	return strcasecmp(v, "yes") == 0 || strcasecmp(v, "true") == 0 ||
	       strcmp(v, "1") == 0;
}

static int
on_ini_pair(void *user, const char *section, const char *name,
	    const char *value)
{
	struct ini_state *st = user;
	struct fb_config *c = st->c;
	const struct fb_option *o;
	char err[160];
	size_t k;

	if (st->msg[0] != '\0')
		return 0; /* report the first error only */
	if (strcmp(section, "options") == 0 ||
	    strcmp(section, "forced-options") == 0) {
		if ((value = unquote(c, value)) == NULL)
			return ini_fail(st, "out of memory");
		return add_option(st, name, value,
				  section[0] == 'f' ? FB_OPT_SET | FB_OPT_FORCED
						    : FB_OPT_SET);
	}
	if (strcmp(section, "hidden-options") == 0) {
		if (!is_yes(value))
			return ini_fail(st,
					"hidden option '%s': value must be "
					"yes (got '%s')",
					name, value);
		return add_option(st, name, value, FB_OPT_HIDDEN);
	}
	if (strcmp(section, "env") == 0) {
		size_t nl = strlen(name), vl;
		for (size_t i = 0; i < c->nenv; i++)
			if (strncmp(c->env[i], name, nl) == 0 &&
			    c->env[i][nl] == '=')
				return ini_fail(st,
						"environment variable '%s' "
						"is set twice",
						name);
		if ((value = unquote(c, value)) == NULL)
			return ini_fail(st, "out of memory");
		vl = strlen(value);
		char *e = fb_config_keep(c, malloc(nl + vl + 2));
		char **env = realloc(c->env, (c->nenv + 1) * sizeof *env);
		if (env != NULL)
			c->env = env; /* the old block is gone either way */
		if (e == NULL || env == NULL)
			return ini_fail(st, "out of memory");
		memcpy(e, name, nl);
		e[nl] = '=';
		memcpy(e + nl + 1, value, vl + 1);
		c->env[c->nenv++] = e;
		return 1;
	}
	if (strcmp(section, "fenbridge") != 0)
		return ini_fail(st,
				"unknown section [%s] (fenbridge, options, "
				"forced-options, hidden-options, env)",
				section);
	for (o = fb_config_bridge_table.options; o->name != NULL; o++)
		if ((o->scope & FB_SCOPE_INI) && strcmp(name, o->name) == 0)
			break;
	if (o->name == NULL)
		return ini_fail(st, "unknown key '%s' in [fenbridge]", name);
	k = (size_t)(o - fb_config_bridge_table.options);
	assert(k < 32);
	if (st->seen & (1u << k))
		return ini_fail(st, "key '%s' is given twice", name);
	st->seen |= 1u << k;
	/* The engine's command line keeps its quotes for the word split
	 * (which copies it). */
	if (o->kind != FB_ARG_COMMAND && (value = unquote(c, value)) == NULL)
		return ini_fail(st, "out of memory");
	if (o->set(c, o, value, st->dir, err, sizeof err) < 0)
		return ini_fail(st, "%s: %s", name, err);
	return 1;
}

int
fb_config_parse_ini(struct fb_config *c, const char *text, const char *path,
		    const char *dir, char *err, size_t errlen)
{
	struct ini_state st = {.c = c, .dir = dir};
	unsigned line = 1;
	size_t col = 0;
	int rc;

	c->config_path = path;
	/* inih cuts lines at INI_MAX_LINE: refuse them instead. */
	for (const char *p = text; *p != '\0'; p++) {
		if (*p == '\n') {
			line++;
			col = 0;
		} else if (++col >= INI_MAX_LINE - 1) {
			snprintf(err, errlen,
				 "%s:%u: line longer than %d characters", path,
				 line, INI_MAX_LINE - 2);
			return FB_EINVAL;
		}
	}
	rc = ini_parse_string(text, on_ini_pair, &st);
	if (rc == 0 && st.msg[0] == '\0')
		return 0;
	if (rc < 0)
		snprintf(err, errlen, "%s: out of memory", path);
	else
		snprintf(err, errlen, "%s:%d: %s", path, rc,
			 st.msg[0] ? st.msg
				   : "expected 'name = value' or '[section]'");
	return FB_EINVAL;
}
