/* SPDX-License-Identifier: MIT */
/*
 * Command line and INI text -> struct fb_config, or an error message a user
 * can act on (for the INI: file, line and reason); `fenbridge convert`'s
 * command line -> struct fb_convert_config, `fenbridge check`'s -> struct
 * fb_check_config.
 *
 * Every option is described once, in fb_config_bridge_table,
 * fb_config_convert_table or fb_config_check_table (config_options.c, with
 * their setters): getopt_long's list (here), the INI keys (config_ini.c) and
 * --help (config_help.c) are all built from those entries, so adding an
 * option is adding an entry (and a setter when no existing one fits).
 * This file: the defaults, what a config owns, and the command lines.
 *
 * No I/O in these files: the caller reads the INI file into a string and
 * prints what the parsers and fb_config_print_help return.
 */
#include "config.h"

#include <assert.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_int.h"

/* Enough for each table; fb_config_parse_table asserts it. */
#define MAX_OPTIONS 24
/* getopt_long returns this plus the entry's index for a long option, above
 * any short option's character. */
#define LONG_BASE 256

void
fb_config_init(struct fb_config *c)
{
	memset(c, 0, sizeof *c);
	c->action = FB_RUN_BRIDGE;
	c->engine_fen = FB_XFEN;
	c->engine_fen_auto = true;
	c->gui_fen = FB_SHREDDER;
	c->protocol = "auto";
	c->engine_protocol = "auto";
	c->gui_castling = FB_CASTLE_AUTO;
	c->engine_castling = FB_CASTLE_AUTO;
	c->grace_ms = FB_CONFIG_DEFAULT_GRACE_MS;
}

int
fb_config_bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return FB_EINVAL;
}
struct owned {
	void **ptr;
	size_t n, cap;
};

void *
fb_config_keep(struct fb_config *c, void *p)
{
	struct owned *o = c->owned;

	if (p == NULL)
		return NULL;
	if (o == NULL && (o = c->owned = calloc(1, sizeof *o)) == NULL) {
		free(p);
		return NULL;
	}
	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 16;
		void **np = realloc(o->ptr, cap * sizeof *np);
		if (np == NULL) {
			free(p);
			return NULL;
		}
		o->ptr = np;
		o->cap = cap;
	}
	o->ptr[o->n++] = p;
	return p;
}

void
fb_config_free(struct fb_config *c)
{
	struct owned *o = c->owned;

	if (o != NULL) {
		for (size_t i = 0; i < o->n; i++)
			free(o->ptr[i]);
		free(o->ptr);
		free(o);
	}
	c->owned = NULL;
	free(c->options);
	free(c->env);
	c->options = NULL;
	c->env = NULL;
	c->noptions = c->nenv = 0;
}

char *
fb_config_copy(struct fb_config *c, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p != NULL)
		memcpy(p, s, n);
	return fb_config_keep(c, p);
}

/* " (did you mean --a or --b?)" for the options that word begins, or "". */
static void
suggest(const struct fb_option_table *t, const char *word, char *out,
	size_t cap)
{
	size_t n = strcspn(word, "="), len = 0, found = 0;

	out[0] = '\0';
	for (const struct fb_option *o = t->options; o->name != NULL; o++)
		if ((o->scope & FB_SCOPE_ARGV) && n > 0 &&
		    strncmp(o->name, word, n) == 0 && len < cap)
			len += (size_t)snprintf(out + len, cap - len, "%s--%s",
						found++ ? " or "
							: " (did you "
							  "mean ",
						o->name);
	if (found > 0 && len < cap)
		snprintf(out + len, cap - len, "?)");
}

int
fb_config_parse_table(const struct fb_option_table *t, void *cfg, int argc,
		      char **argv, int *first, char *err, size_t errlen)
{
	struct option longopts[MAX_OPTIONS + 1];
	/* '+': stop at the first operand (the engine's command, a FEN), so
	 * that its own options stay its own; ':': report a missing value as
	 * ':' rather than as an unknown option. */
	char shorts[2 + 2 * MAX_OPTIONS + 1] = "+:";
	size_t n = 0, ns = 2;
	const struct fb_option *o;

	for (o = t->options; o->name != NULL; o++) {
		if (!(o->scope & FB_SCOPE_ARGV))
			continue;
		assert(n < MAX_OPTIONS);
		longopts[n++] = (struct option){
			.name = o->name,
			.has_arg = o->kind == FB_ARG_NONE ? no_argument
							  : required_argument,
			.val = LONG_BASE + (int)(o - t->options)};
		if (o->short_name != '\0') {
			shorts[ns++] = o->short_name;
			if (o->kind != FB_ARG_NONE)
				shorts[ns++] = ':';
		}
	}
	longopts[n] = (struct option){0};
	shorts[ns] = '\0';

	/* The messages are ours. optind = 0 (not 1) makes glibc and musl
	 * start over completely, including the position inside a group of
	 * short options left by an earlier parse: main parses argv twice. */
	opterr = 0;
	optind = 0;
	for (;;) {
		int at = optind > 0 ? optind : 1;
		int c = getopt_long(argc, argv, shorts, longopts, NULL);
		char msg[256], hint[128];

		if (c == -1)
			break;
		if (c == '?' || c == ':') {
			/* optopt: the option's val, or 0 for an unknown
			 * or ambiguous long option. */
			o = optopt >= LONG_BASE
				    ? &t->options[optopt - LONG_BASE]
				    : NULL;
			for (const struct fb_option *s = t->options;
			     o == NULL && optopt > 0 && s->name != NULL; s++)
				if (s->short_name == optopt)
					o = s;
			/* BSD's getopt_long (MinGW's) answers ':' for a
			 * value given to a switch too. */
			if (c == ':' && (o == NULL || o->kind != FB_ARG_NONE))
				return fb_config_bad(err, errlen,
						     "--%s needs a value",
						     o != NULL ? o->name : "?");
			if (o != NULL && optopt >= LONG_BASE)
				return fb_config_bad(err, errlen,
						     "--%s takes no value",
						     o->name);
			if (optopt > 0)
				return fb_config_bad(err, errlen,
						     "unknown option '-%c'",
						     optopt);
			suggest(t, argv[at] + 2, hint, sizeof hint);
			return fb_config_bad(err, errlen,
					     "unknown option '%s'%s", argv[at],
					     hint);
		}
		o = c >= LONG_BASE ? &t->options[c - LONG_BASE] : NULL;
		for (const struct fb_option *s = t->options;
		     o == NULL && s->name != NULL; s++)
			if (s->short_name == c)
				o = s;
		assert(o != NULL);
		/* getopt_long takes any unambiguous prefix; an option's name
		 * is also an INI key and must not change meaning when an
		 * option is added, so only whole names count. */
		if (c >= LONG_BASE) {
			size_t len = strlen(o->name);
			if (strncmp(argv[at] + 2, o->name, len) != 0 ||
			    (argv[at][2 + len] != '\0' &&
			     argv[at][2 + len] != '=')) {
				suggest(t, argv[at] + 2, hint, sizeof hint);
				return fb_config_bad(err, errlen,
						     "unknown option '%s'%s",
						     argv[at], hint);
			}
		}
		if (o->set(cfg, o, optarg, NULL, msg, sizeof msg) < 0)
			return fb_config_bad(err, errlen, "--%s: %s", o->name,
					     msg);
		/* --help and --version win over whatever follows. */
		if (o->set == fb_config_set_action)
			break;
	}
	*first = optind;
	return 0;
}

int
fb_config_parse_args(struct fb_config *c, int argc, char **argv, char *err,
		     size_t errlen)
{
	int first;
	int rc = fb_config_parse_table(&fb_config_bridge_table, c, argc, argv,
				       &first, err, errlen);

	if (rc < 0 || c->action != FB_RUN_BRIDGE)
		return rc;
	if (first < argc) {
		c->engine_argv = argv + first;
		c->engine_from_config = false;
	}
	return 0;
}

int
fb_config_parse_convert(struct fb_convert_config *c, int argc, char **argv,
			char *err, size_t errlen)
{
	int rc;

	memset(c, 0, sizeof *c);
	c->action = FB_RUN_BRIDGE;
	rc = fb_config_parse_table(&fb_config_convert_table, c, argc, argv,
				   &c->first, err, errlen);
	if (rc < 0 || c->action != FB_RUN_BRIDGE)
		return rc;
	if (!c->have_to)
		return fb_config_bad(err, errlen,
				     "--to=xfen or --to=shredder is "
				     "required");
	return 0;
}

int
fb_config_parse_check(struct fb_check_config *c, int argc, char **argv,
		      char *err, size_t errlen)
{
	int rc;

	memset(c, 0, sizeof *c);
	c->action = FB_RUN_BRIDGE;
	c->protocol = "auto";
	c->timeout_ms = 5000;
	c->search_ms = 10000;
	rc = fb_config_parse_table(&fb_config_check_table, c, argc, argv,
				   &c->first, err, errlen);
	if (rc < 0 || c->action != FB_RUN_BRIDGE)
		return rc;
	if (c->first >= argc || argv[c->first][0] == '\0')
		return fb_config_bad(err, errlen,
				     "no engine given: fenbridge check "
				     "[OPTIONS] -- ENGINE [ARGS...]");
	if (c->timeout_ms == 0 || c->search_ms == 0)
		return fb_config_bad(err, errlen,
				     "a timeout of 0 leaves no time for "
				     "an answer");
	return 0;
}

int
fb_config_parse_replay(struct fb_replay_config *c, int argc, char **argv,
		       char *err, size_t errlen)
{
	int rc;

	memset(c, 0, sizeof *c);
	c->action = FB_RUN_BRIDGE;
	rc = fb_config_parse_table(&fb_config_replay_table, c, argc, argv,
				   &c->first, err, errlen);
	if (rc < 0 || c->action != FB_RUN_BRIDGE)
		return rc;
	if (c->first >= argc || argv[c->first][0] == '\0')
		return fb_config_bad(err, errlen,
				     "no record given: fenbridge replay "
				     "[OPTIONS] RECORD-OR-LOG -- ENGINE "
				     "[ARGS...]");
	c->record = argv[c->first++];
	if (c->first < argc && strcmp(argv[c->first], "--") == 0)
		c->first++;
	if (c->first >= argc || argv[c->first][0] == '\0')
		return fb_config_bad(err, errlen,
				     "no engine given: fenbridge replay "
				     "[OPTIONS] RECORD-OR-LOG -- ENGINE "
				     "[ARGS...]");
	return 0;
}

int
fb_config_check(const struct fb_config *c, char *err, size_t errlen)
{
	if (c->engine_argv == NULL || c->engine_argv[0] == NULL ||
	    c->engine_argv[0][0] == '\0')
		return fb_config_bad(
			err, errlen,
			"no engine given: fenbridge [OPTIONS] -- ENGINE "
			"[ARGS...], or 'engine = ...' in a config file");
	return 0;
}
