/* SPDX-License-Identifier: MIT */
/*
 * Command line and INI text -> struct fb_config, or an error message a user
 * can act on (for the INI: file, line and reason). Every option has a long
 * form `--name=value` and `--name value`, and the same name as an INI key.
 *
 * No I/O in this file: the caller reads the INI file into a string.
 */
#include "fenbridge/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ini.h>

const char fb_config_usage[] =
	"Usage: fenbridge [OPTIONS] -- ENGINE [ARGS...]\n"
	"       fenbridge convert --to=xfen|shredder [--keep-ep] [--variant=NAME]"
	" [FEN ...]\n"
	"\n"
	"Starts ENGINE and relays every line between it and the GUI on stdin and\n"
	"stdout, rewriting the FEN castling field of UCI 'position fen' and\n"
	"XBoard 'setboard' (and the engine's 'setup') into the dialect each side\n"
	"expects. Everything else passes through byte for byte.\n"
	"\n"
	"Options:\n"
	"  --engine-fen=xfen|shredder  dialect of FENs sent to the engine"
	" (default xfen)\n"
	"  --gui-fen=xfen|shredder     dialect of FENs sent to the GUI"
	" (default shredder)\n"
	"  --protocol=auto|uci|xboard  protocol; auto decides from the GUI's"
	" first\n"
	"                              command (uci, or xboard/protover)"
	" (default auto)\n"
	"  --gui-castling=auto|kxr|king|oo\n"
	"                              castling moves toward the GUI: king takes"
	" rook\n"
	"                              (e1h1), king move (e1g1) or O-O; auto"
	" follows\n"
	"                              UCI_Chess960 / the XBoard variant"
	" (default auto)\n"
	"  --engine-castling=auto|kxr|king|oo\n"
	"                              castling moves toward the engine"
	" (default auto)\n"
	"  --log=FILE                  append a timestamped log of both"
	" directions,\n"
	"                              rewrites and diagnostics to FILE\n"
	"  --grace=SECONDS             after the GUI quits or closes stdin, wait"
	" this\n"
	"                              long for the engine to exit before"
	" terminating\n"
	"                              it (default 5)\n"
	"  --engine-dir=DIR            run the engine in DIR (default: the folder"
	" of\n"
	"                              its executable)\n"
	"  --config=FILE               read settings from this INI file (default:"
	"\n"
	"                              <program name>.ini beside the program, if"
	"\n"
	"                              there); command-line options override it\n"
	"  -h, --help                  this text\n"
	"  -V, --version               print the version\n"
	"\n"
	"Exit status: the engine's exit status; 128+N if it died of signal N;\n"
	"1 fenbridge failed; 2 usage error; 126 the engine cannot be executed;\n"
	"127 the engine was not found.\n"
	"\n"
	"Example: fenbridge --log=/tmp/fb.log -- /usr/games/stockfish\n";

void
fb_config_init(struct fb_config *c)
{
	memset(c, 0, sizeof *c);
	c->action = FB_RUN_BRIDGE;
	c->engine_fen = FB_XFEN;
	c->engine_fen_auto = true;
	c->gui_fen = FB_SHREDDER;
	c->protocol = "auto";
	c->gui_castling = FB_CASTLE_AUTO;
	c->engine_castling = FB_CASTLE_AUTO;
	c->grace_ms = FB_CONFIG_DEFAULT_GRACE_MS;
}

static int
bad(char *err, size_t errlen, const char *fmt, const char *arg)
{
	snprintf(err, errlen, fmt, arg);
	return FB_EINVAL;
}

/* Matches `--name=value` or `--name value`; returns the value or NULL. */
static const char *
option_value(const char *name, int argc, char **argv, int *i, bool *missing)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

static int
set_option(struct fb_config *c, const char *name, const char *val, char *err,
	   size_t errlen)
{
	if (strcmp(name, "--engine-fen") == 0 || strcmp(name, "--gui-fen") == 0) {
		enum fb_notation *n = name[2] == 'e' ? &c->engine_fen
						     : &c->gui_fen;
		bool is_auto = strcmp(val, "auto") == 0;
		if (is_auto && name[2] == 'e')
			*n = FB_XFEN;
		else if (fb_fen_parse_notation(val, n) < 0)
			return bad(err, errlen,
				   "unknown FEN dialect '%s' (xfen or shredder)",
				   val);
		if (name[2] == 'e')
			c->engine_fen_auto = is_auto;
	} else if (strcmp(name, "--protocol") == 0) {
		if (strcmp(val, "auto") != 0 && strcmp(val, "uci") != 0 &&
		    strcmp(val, "xboard") != 0)
			return bad(err, errlen,
				   "unknown protocol '%s' (auto, uci or xboard)",
				   val);
		/* A literal: an INI value lives in inih's line buffer. */
		c->protocol = strcmp(val, "auto") == 0  ? "auto"
			      : strcmp(val, "uci") == 0 ? "uci"
							: "xboard";
	} else if (strcmp(name, "--gui-castling") == 0 ||
		   strcmp(name, "--engine-castling") == 0) {
		enum fb_castle_notation n;
		if (fb_game_parse_notation(val, &n) < 0)
			return bad(err, errlen,
				   "unknown castling notation '%s' (auto, kxr, "
				   "king or oo)", val);
		*(name[2] == 'g' ? &c->gui_castling : &c->engine_castling) = n;
	} else if (strcmp(name, "--config") == 0) {
		c->config_path = val;
	} else if (strcmp(name, "--engine-dir") == 0) {
		c->engine_dir = val;
	} else if (strcmp(name, "--log") == 0) {
		if (*val == '\0')
			return bad(err, errlen, "%s", "--log needs a file name");
		c->log_path = val;
	} else if (strcmp(name, "--grace") == 0) {
		char *end;
		double s = strtod(val, &end);
		if (end == val || *end != '\0' || !(s >= 0 && s <= 86400))
			return bad(err, errlen,
				   "--grace takes seconds from 0 to 86400, not "
				   "'%s'", val);
		c->grace_ms = (unsigned)(s * 1000 + 0.5);
	}
	return 0;
}

int
fb_config_parse_args(struct fb_config *c, int argc, char **argv, char *err,
		     size_t errlen)
{
	static const char *const valued[] = {
		"--engine-fen", "--gui-fen", "--protocol",     "--gui-castling",
		"--engine-castling", "--log", "--grace", "--config",
		"--engine-dir"};
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		bool missing = false, known = false;
		int rc;

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			c->action = FB_SHOW_HELP;
			return 0;
		}
		if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
			c->action = FB_SHOW_VERSION;
			return 0;
		}
		if (a[0] != '-')
			break; /* the engine's command without `--` */
		for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++) {
			val = option_value(valued[k], argc, argv, &i, &missing);
			if (missing)
				return bad(err, errlen, "%s needs a value", a);
			if (val != NULL) {
				if ((rc = set_option(c, valued[k], val, err,
						     errlen)) < 0)
					return rc;
				known = true;
				break;
			}
		}
		if (!known)
			return bad(err, errlen, "unknown option '%s'", a);
	}
	if (i < argc) {
		c->engine_argv = argv + i;
		c->engine_from_config = false;
	}
	return 0;
}

int
fb_config_check(const struct fb_config *c, char *err, size_t errlen)
{
	if (c->engine_argv == NULL || c->engine_argv[0] == NULL ||
	    c->engine_argv[0][0] == '\0')
		return bad(err, errlen, "%s",
			   "no engine given: fenbridge [OPTIONS] -- ENGINE "
			   "[ARGS...], or 'engine = ...' in a config file");
	return 0;
}

/* ---- INI ---- */

struct owned {
	void **ptr;
	size_t n, cap;
};

struct ini_state {
	struct fb_config *c;
	const char *dir;
	char msg[200]; /* the first error's reason */
	unsigned seen;  /* [fenbridge] keys given, a bit per key */
};

static void *
keep(struct fb_config *c, void *p)
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

static char *
copy(struct fb_config *c, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p != NULL)
		memcpy(p, s, n);
	return keep(c, p);
}

/* A path from the file: relative ones are relative to the file's folder. */
static char *
file_path(struct fb_config *c, const char *dir, const char *path)
{
	size_t dl = strlen(dir), pl = strlen(path);
	char *p;

	if (path[0] == '/' || dl == 0)
		return copy(c, path);
	if ((p = malloc(dl + pl + 2)) == NULL)
		return NULL;
	memcpy(p, dir, dl);
	p[dl] = '/';
	memcpy(p + dl + 1, path, pl + 1);
	return keep(c, p);
}

/* One pair of matching quotes around a plain value is not part of it. */
static const char *
unquote(struct fb_config *c, const char *v)
{
	size_t n = strlen(v);
	char *p;

	if (n < 2 || (v[0] != '"' && v[0] != '\'') || v[n - 1] != v[0])
		return v;
	if ((p = malloc(n - 1)) == NULL)
		return NULL;
	memcpy(p, v + 1, n - 2);
	p[n - 2] = '\0';
	return keep(c, p);
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
					if (*s == '\\' && strchr("\"\\$`", s[1]) &&
					    s[1] != '\0')
						s++;
					*o++ = *s;
				}
				s++;
			} else if (*s == '\\' && s[1] != '\0') {
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

static int
ini_fail(struct ini_state *st, const char *fmt, const char *a, const char *b)
{
	if (st->msg[0] == '\0')
		snprintf(st->msg, sizeof st->msg, fmt, a, b);
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
				return ini_fail(st, "option '%s' is set twice%s",
						name, "");
			c->options[i].flags |= flags;
			if (flags & FB_OPT_SET)
				c->options[i].value = copy(c, value);
			return 1;
		}
	o = realloc(c->options, (c->noptions + 1) * sizeof *o);
	if (o == NULL)
		return ini_fail(st, "%s%s", "out of memory", "");
	c->options = o;
	o = &o[c->noptions++];
	o->name = copy(c, name);
	o->value = (flags & FB_OPT_SET) ? copy(c, value) : NULL;
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
ini_engine(struct ini_state *st, const char *value)
{
	struct fb_config *c = st->c;
	size_t n = strlen(value);
	char *buf = keep(c, malloc(n + 1));
	char **argv = keep(c, malloc((n / 2 + 2) * sizeof *argv));
	int words;

	if (buf == NULL || argv == NULL)
		return ini_fail(st, "%s%s", "out of memory", "");
	words = fb_config_split_words(value, buf, argv, n / 2 + 2);
	if (words < 0)
		return ini_fail(st, "engine: unterminated quote in '%s'%s",
				value, "");
	if (words == 0)
		return ini_fail(st, "%s%s", "engine: empty command", "");
	/* A relative program path is relative to the file's folder; a bare
	 * name too, when such a file exists there (checked by main). */
	if (strchr(argv[0], '/') != NULL && argv[0][0] != '/')
		argv[0] = file_path(c, st->dir, argv[0]);
	c->engine_argv = argv;
	c->engine_from_config = true;
	return 1;
}

static int
on_ini_pair(void *user, const char *section, const char *name,
	    const char *value)
{
	static const char *const keys[] = {
		"engine",   "engine-dir",   "name",
		"engine-fen", "gui-fen",    "protocol",
		"gui-castling", "engine-castling", "log",
		"grace"};
	struct ini_state *st = user;
	struct fb_config *c = st->c;
	char opt[64], err[200];
	size_t k;

	if (st->msg[0] != '\0')
		return 0; /* report the first error only */
	if (strcmp(section, "options") == 0 ||
	    strcmp(section, "forced-options") == 0) {
		if ((value = unquote(c, value)) == NULL)
			return ini_fail(st, "%s%s", "out of memory", "");
		return add_option(st, name, value,
				  section[0] == 'f' ? FB_OPT_SET | FB_OPT_FORCED
						    : FB_OPT_SET);
	}
	if (strcmp(section, "hidden-options") == 0) {
		if (!is_yes(value))
			return ini_fail(st, "hidden option '%s': value must be "
					"yes (got '%s')", name, value);
		return add_option(st, name, value, FB_OPT_HIDDEN);
	}
	if (strcmp(section, "env") == 0) {
		size_t nl = strlen(name), vl;
		for (size_t i = 0; i < c->nenv; i++)
			if (strncmp(c->env[i], name, nl) == 0 &&
			    c->env[i][nl] == '=')
				return ini_fail(st, "environment variable '%s' "
						"is set twice%s", name, "");
		if ((value = unquote(c, value)) == NULL)
			return ini_fail(st, "%s%s", "out of memory", "");
		vl = strlen(value);
		char *e = keep(c, malloc(nl + vl + 2));
		char **env = realloc(c->env, (c->nenv + 1) * sizeof *env);
		if (env != NULL)
			c->env = env; /* the old block is gone either way */
		if (e == NULL || env == NULL)
			return ini_fail(st, "%s%s", "out of memory", "");
		memcpy(e, name, nl);
		e[nl] = '=';
		memcpy(e + nl + 1, value, vl + 1);
		c->env[c->nenv++] = e;
		return 1;
	}
	if (strcmp(section, "fenbridge") != 0)
		return ini_fail(st, "unknown section [%s]%s", section,
				" (fenbridge, options, forced-options, "
				"hidden-options, env)");
	for (k = 0; k < sizeof keys / sizeof keys[0]; k++)
		if (strcmp(name, keys[k]) == 0)
			break;
	if (k == sizeof keys / sizeof keys[0])
		return ini_fail(st, "unknown key '%s' in [fenbridge]%s", name,
				"");
	if (st->seen & (1u << k))
		return ini_fail(st, "key '%s' is given twice%s", name, "");
	st->seen |= 1u << k;
	if (k == 0)
		return ini_engine(st, value);
	value = unquote(c, value);
	if (value == NULL)
		return ini_fail(st, "%s%s", "out of memory", "");
	if (k == 1) {
		c->engine_dir = file_path(c, st->dir, value);
		return 1;
	}
	if (k == 2) {
		c->name = copy(c, value);
		return 1;
	}
	snprintf(opt, sizeof opt, "--%s", name);
	if (set_option(c, opt, value, err, sizeof err) < 0)
		return ini_fail(st, "%s%s", err, "");
	if (strcmp(name, "log") == 0)
		c->log_path = file_path(c, st->dir, value);
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
