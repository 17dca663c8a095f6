/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of settings (src/daemon/config*.c): the bridge's command line, the
 * INI text, `fenbridge convert`'s command line, and the option tables that
 * drive all three and --help.
 *
 * Cases are tables. A config is rendered as "key=value" tokens (the engine's
 * words joined by '|', '-' for an unset string), and a case names the tokens
 * it expects, so that one line says what a command line must set and the
 * rest stays at its default. A failing case names the substring its error
 * message must contain.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "fenbridge/error.h"
#include "filter.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_ARGS 16
/* What the config writes between the INI's folder and a relative path. */
#ifdef _WIN32
#define SEP "\\"
#else
#define SEP "/"
#endif

static const char *
notation(enum fb_notation n)
{
	return n == FB_XFEN ? "xfen" : "shredder";
}

static const char *
castling(enum fb_castle_notation n)
{
	static const char *const names[] = {"auto", "kxr", "king", "oo"};
	return names[n];
}

static const char *
action(enum fb_config_action a)
{
	return a == FB_RUN_BRIDGE  ? "run"
	       : a == FB_SHOW_HELP ? "help"
				   : "version";
}

static const char *
str(const char *s)
{
	return s != NULL ? s : "-";
}

/* Appends key=value with the value's spaces as '_', so that a token never
 * holds a space. */
static void
add(char *out, size_t cap, size_t *n, const char *key, const char *val)
{
	size_t i = *n;

	i += (size_t)snprintf(out + i, cap - i, "%s%s=", i ? " " : "", key);
	for (const char *v = str(val); *v != '\0' && i + 1 < cap; v++)
		out[i++] = *v == ' ' ? '_' : *v;
	out[i] = '\0';
	*n = i;
}

static void
render(const struct fb_config *c, char *out, size_t cap)
{
	char num[32], words[512] = "";
	size_t n = 0, w = 0;

	add(out, cap, &n, "action", action(c->action));
	add(out, cap, &n, "engine-fen", notation(c->engine_fen));
	add(out, cap, &n, "auto", c->engine_fen_auto ? "1" : "0");
	add(out, cap, &n, "gui-fen", notation(c->gui_fen));
	add(out, cap, &n, "protocol", c->protocol);
	add(out, cap, &n, "gui-castling", castling(c->gui_castling));
	add(out, cap, &n, "engine-castling", castling(c->engine_castling));
	add(out, cap, &n, "log", c->log_path);
	snprintf(num, sizeof num, "%u", c->grace_ms);
	add(out, cap, &n, "grace", num);
	add(out, cap, &n, "engine-dir", c->engine_dir);
	add(out, cap, &n, "config", c->config_path);
	add(out, cap, &n, "name", c->name);
	add(out, cap, &n, "normalize", c->normalize ? "on" : "off");
	add(out, cap, &n, "from-config", c->engine_from_config ? "1" : "0");
	for (char **a = c->engine_argv; a != NULL && *a != NULL; a++)
		w += (size_t)snprintf(words + w, sizeof words - w, "%s%s",
				      a == c->engine_argv ? "" : "|", *a);
	add(out, cap, &n, "engine", c->engine_argv ? words : NULL);
	add(out, cap, &n, "engine-line", c->engine_line);
	for (int b = 0; b < FB_CPU_NBUILDS; b++) {
		char key[32];
		w = 0;
		for (char **a = c->build_argv[b]; a != NULL && *a != NULL; a++)
			w += (size_t)snprintf(
				words + w, sizeof words - w, "%s%s",
				a == c->build_argv[b] ? "" : "|", *a);
		snprintf(key, sizeof key, "engine.%s", fb_cpu_build_name(b));
		add(out, cap, &n, key, c->build_argv[b] ? words : NULL);
	}
	for (size_t i = 0; i < c->noptions; i++) {
		char key[128];
		snprintf(key, sizeof key, "option:%s", c->options[i].name);
		snprintf(words, sizeof words, "%s/%u", str(c->options[i].value),
			 c->options[i].flags);
		add(out, cap, &n, key, words);
	}
	for (size_t i = 0; i < c->nenv; i++)
		add(out, cap, &n, "env", c->env[i]);
	assert_true(n + 1 < cap);
}

/* Every space-separated token of want is a whole token of got. */
static void
expect_tokens(const char *got, const char *want, const char *what)
{
	char padded[2048];

	snprintf(padded, sizeof padded, " %s ", got);
	for (const char *w = want; *w != '\0';) {
		size_t n = strcspn(w, " ");
		char tok[256];
		snprintf(tok, sizeof tok, " %.*s ", (int)n, w);
		if (strstr(padded, tok) == NULL)
			fail_msg("%s: expected '%.*s' in: %s", what, (int)n, w,
				 got);
		w += n;
		w += strspn(w, " ");
	}
}

static void
expect_error(int rc, const char *err, const char *want, const char *what)
{
	if (rc == 0)
		fail_msg("%s: accepted, expected an error with '%s'", what,
			 want);
	assert_int_equal(rc, FB_EINVAL);
	if (strstr(err, want) == NULL)
		fail_msg("%s: error '%s' lacks '%s'", what, err, want);
}

/* Splits words on spaces into argv with argv[0] = prog. */
static int
make_argv(const char *prog, const char *words, char *buf, size_t cap,
	  char **argv)
{
	int argc = 0;

	argv[argc++] = (char *)prog;
	snprintf(buf, cap, "%s", words);
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w != NULL;
	     w = strtok_r(NULL, " ", &save)) {
		assert_true(argc < MAX_ARGS);
		argv[argc++] = w;
	}
	argv[argc] = NULL;
	return argc;
}

struct case_ {
	const char *in;   /* words of a command line, or INI text */
	const char *want; /* tokens of the rendered config, or NULL */
	const char *err;  /* substring of the error, or NULL */
};

static const struct case_ argv_cases[] = {
	{"",
	 "action=run engine-fen=xfen auto=1 gui-fen=shredder "
	 "protocol=auto gui-castling=auto engine-castling=auto log=- "
	 "grace=5000 engine-dir=- config=- engine=- normalize=off",
	 NULL},
	{"--normalize e", "normalize=on engine=e", NULL},
	{"--normalize=on e", NULL, "--normalize takes no value"},
	{"-- /bin/eng -x", "engine=/bin/eng|-x from-config=0", NULL},
	{"eng --uci", "engine=eng|--uci", NULL},
	{"--log=a.log eng --log=b", "log=a.log engine=eng|--log=b", NULL},
	{"--engine-fen=shredder -- e", "engine-fen=shredder auto=0", NULL},
	{"--engine-fen shredder -- e", "engine-fen=shredder auto=0", NULL},
	{"--engine-fen=Shredder-FEN e", "engine-fen=shredder auto=0", NULL},
	{"--engine-fen=xfen e", "engine-fen=xfen auto=0", NULL},
	{"--engine-fen=xfen --engine-fen=auto e", "engine-fen=xfen auto=1",
	 NULL},
	{"--gui-fen=xfen e", "gui-fen=xfen", NULL},
	{"--protocol=xboard e", "protocol=xboard", NULL},
	{"--protocol uci e", "protocol=uci", NULL},
	{"--gui-castling=oo --engine-castling kxr e",
	 "gui-castling=oo engine-castling=kxr", NULL},
	{"--engine-castling=king e", "engine-castling=king", NULL},
	{"--grace=0.5 e", "grace=500", NULL},
	{"--grace 0 e", "grace=0", NULL},
	{"--grace=86400 e", "grace=86400000", NULL},
	{"--engine-dir=/tmp --config=x.ini e", "engine-dir=/tmp config=x.ini",
	 NULL},
	{"--log -- e", "log=-- engine=e", NULL}, /* the value is taken */
	{"--help --bogus", "action=help", NULL},
	{"-h", "action=help", NULL},
	{"--log=x --version", "action=version log=x", NULL},
	{"-V", "action=version", NULL},
	{"-- --help", "action=run engine=--help", NULL},
	{"--bogus e", NULL, "unknown option '--bogus'"},
	{"-x e", NULL, "unknown option '-x'"},
	{"--engine-fen=lan e", NULL,
	 "--engine-fen: unknown value 'lan' "
	 "(auto, xfen or shredder)"},
	{"--gui-fen=auto e", NULL,
	 "--gui-fen: unknown value 'auto' "
	 "(xfen or shredder)"},
	{"--gui-fen", NULL, "--gui-fen needs a value"},
	{"--protocol=winboard e", NULL,
	 "unknown value 'winboard' "
	 "(auto, uci or xboard)"},
	{"--gui-castling=castle e", NULL, "(auto, kxr, king or oo)"},
	{"--grace=soon e", NULL,
	 "--grace: takes seconds from 0 to 86400, "
	 "not 'soon'"},
	{"--grace=-1 e", NULL, "'-1'"},
	{"--grace=86401 e", NULL, "'86401'"},
	{"--grace=1x e", NULL, "'1x'"},
	{"--grace", NULL, "--grace needs a value"},
	{"--log= e", NULL, "--log: FILE is empty"},
	{"--log", NULL, "--log needs a value"},
	{"--help=x", NULL, "--help takes no value"},
	{"--prot=uci e", NULL,
	 "unknown option '--prot=uci' (did you mean "
	 "--protocol?)"},
	{"--engine=x e", NULL,
	 "unknown option '--engine=x' (did you mean "
	 "--engine-fen or --engine-protocol or "
	 "--engine-castling or --engine-dir?)"},
	{"--name=x e", NULL, "unknown option '--name=x'"}, /* INI only */
};

static void
test_config_argv_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_ELEMS(argv_cases); i++) {
		const struct case_ *k = &argv_cases[i];
		char buf[256], *argv[MAX_ARGS + 1], err[256] = "", got[2048];
		struct fb_config c;
		int argc = make_argv("fenbridge", k->in, buf, sizeof buf, argv);
		int rc;

		fb_config_init(&c);
		rc = fb_config_parse_args(&c, argc, argv, err, sizeof err);
		if (k->err != NULL) {
			expect_error(rc, err, k->err, k->in);
		} else {
			if (rc != 0)
				fail_msg("%s: %s", k->in, err);
			render(&c, got, sizeof got);
			expect_tokens(got, k->want, k->in);
		}
		fb_config_free(&c);
	}
}

/* main parses argv twice (before and after the INI file): the second run
 * must see everything again, also after a run that stopped early. */
static void
test_config_argv_parses_twice(void **state)
{
	static const char *const lines[] = {
		"--engine-fen=shredder --grace 2 -- eng -x",
		"--help --log=x",
		"-V",
		"--bogus",
		"--grace",
	};
	(void)state;
	for (size_t i = 0; i < N_ELEMS(lines); i++) {
		for (size_t j = 0; j < N_ELEMS(lines); j++) {
			char b1[256], b2[256], *a1[MAX_ARGS + 1],
				*a2[MAX_ARGS + 1], e1[256], e2[256], g1[2048],
				g2[2048];
			struct fb_config c1, c2, c3;
			int n1 = make_argv("fb", lines[i], b1, sizeof b1, a1);
			int n2 = make_argv("fb", lines[j], b2, sizeof b2, a2);
			int r1, r2;

			fb_config_init(&c1);
			fb_config_init(&c2);
			fb_config_init(&c3);
			r1 = fb_config_parse_args(&c1, n1, a1, e1, sizeof e1);
			(void)fb_config_parse_args(&c3, n2, a2, e2, sizeof e2);
			r2 = fb_config_parse_args(&c2, n1, a1, e2, sizeof e2);
			assert_int_equal(r1, r2);
			if (r1 == 0) {
				render(&c1, g1, sizeof g1);
				render(&c2, g2, sizeof g2);
				assert_string_equal(g1, g2);
			} else {
				assert_string_equal(e1, e2);
			}
		}
	}
}

static const struct case_ ini_cases[] = {
	/* The builds by instruction set: each as engine is, kept apart
	 * until fb_cpu_pick_engine. */
	{"[fenbridge]\nengine.avx512 = bin/sf-avx512 -a\n"
	 "engine.bmi2 = \"b dir/sf\"\nengine.avx2 = sf-avx2\n"
	 "engine.popcnt = /abs/sf 'x y'\nengine = sf\n",
	 "engine.avx512=/cfg" SEP "bin/sf-avx512|-a engine.bmi2=/cfg" SEP
	 "b_dir/sf engine.avx2=sf-avx2 engine.popcnt=/abs/sf|x_y engine=sf "
	 "engine-line=sf from-config=1",
	 NULL},
	{"[fenbridge]\nengine.avx2 = a\n",
	 "engine.avx2=a engine.avx512=- engine=- engine-line=- "
	 "from-config=0",
	 NULL},
	{"[fenbridge]\nengine.avx2 = a\nengine.avx2 = b\n", NULL,
	 "t.ini:3: key 'engine.avx2' is given twice"},
	{"[fenbridge]\nengine.avx2 =\n", NULL, "engine.avx2: empty command"},
	{"[fenbridge]\nengine.popcnt = \"x\n", NULL,
	 "engine.popcnt: unterminated quote"},
	{"[fenbridge]\nengine.sse2 = x\n", NULL,
	 "unknown key 'engine.sse2' in [fenbridge]"},
	/* A relative path with a slash is relative to the file's folder. */
	{"[fenbridge]\nengine = \"eng dir/x\" --uci 'a b' c\\\"d\n",
	 "engine=/cfg" SEP "eng_dir/x|--uci|a_b|c\"d from-config=1", NULL},
	/* Windows paths: backslashes stay, on every system. */
	{"[fenbridge]\nengine = \"C:\\Engines\\Toga II\\toga2.exe\" -x\n",
	 "engine=C:\\Engines\\Toga_II\\toga2.exe|-x", NULL},
	{"[fenbridge]\nengine = C:\\Engines\\Toga II\\toga2.exe\n",
	 "engine=C:\\Engines\\Toga|II\\toga2.exe "
	 "engine-line=C:\\Engines\\Toga_II\\toga2.exe",
	 NULL},
#ifdef _WIN32
	{"[fenbridge]\nengine = ..\\engines\\x.exe\nengine-dir = e\\f\n",
	 "engine=/cfg\\..\\engines\\x.exe engine-dir=/cfg\\e\\f", NULL},
#else
	{"[fenbridge]\nengine = ../engines/x\nengine-dir = e/f\n",
	 "engine=/cfg/../engines/x engine-dir=/cfg/e/f", NULL},
#endif
	{"[fenbridge]\nengine = /abs/x\n", "engine=/abs/x", NULL},
	{"[fenbridge]\nengine = stockfish\n", "engine=stockfish", NULL},
	{"[fenbridge]\nengine-dir = eng\nlog = \"f b.log\"\nname = \"My E\"\n",
	 "engine-dir=/cfg" SEP "eng log=/cfg" SEP "f_b.log name=My_E", NULL},
	{"[fenbridge]\nengine-dir = /e\nlog = /l\n", "engine-dir=/e log=/l",
	 NULL},
	{"[fenbridge]\nengine-fen = shredder\ngui-fen = xfen\n"
	 "protocol = xboard\ngui-castling = kxr\nengine-castling = oo\n"
	 "grace = 1.5\n",
	 "engine-fen=shredder auto=0 gui-fen=xfen protocol=xboard "
	 "gui-castling=kxr engine-castling=oo grace=1500",
	 NULL},
	{"[fenbridge]\nengine-fen = auto\n", "engine-fen=xfen auto=1", NULL},
	{"[fenbridge]\nnormalize = on\n", "normalize=on", NULL},
	{"[fenbridge]\nnormalize = Yes\n", "normalize=on", NULL},
	{"[fenbridge]\nnormalize = 1\n", "normalize=on", NULL},
	{"[fenbridge]\nnormalize = off\n", "normalize=off", NULL},
	{"[fenbridge]\nnormalize = FALSE\n", "normalize=off", NULL},
	{"[fenbridge]\nnormalize = maybe\n", NULL,
	 "t.ini:2: normalize: unknown value 'maybe' (on or off)"},
	{"[fenbridge]\nnormalize =\n", NULL,
	 "t.ini:2: normalize: unknown value '' (on or off)"},
	{"; comment\n[fenbridge] ; after a blank\r\nname = x ; y\r\n", "name=x",
	 NULL},
	{"[options]\nHash = 256\nStyle = \"a b\"\n[forced-options]\n"
	 "Threads = 1\n[hidden-options]\nPonder = yes\n[env]\nA = 1\n",
	 "option:Hash=256/1 option:Style=a_b/1 option:Threads=1/3 "
	 "option:Ponder=-/4 env=A=1",
	 NULL},
	{"[fenbridge]\nengin = x\n", NULL,
	 "t.ini:2: unknown key 'engin' in "
	 "[fenbridge]"},
	{"[fenbridge]\nconfig = x\n", NULL, "t.ini:2: unknown key 'config'"},
	{"[fenbridge]\nhelp = 1\n", NULL, "t.ini:2: unknown key 'help'"},
	{"[fenbridge]\nname = a\nname = b\n", NULL,
	 "t.ini:3: key 'name' is given twice"},
	{"[fenbridge]\nlog = a\n\nlog = a\n", NULL,
	 "t.ini:4: key 'log' is given twice"},
	{"[fenbridge]\nengine-fen = lan\n", NULL,
	 "t.ini:2: engine-fen: unknown value 'lan' (auto, xfen or shredder)"},
	{"[fenbridge]\ngrace = soon\n", NULL, "t.ini:2: grace: takes seconds"},
	{"[fenbridge]\nlog =\n", NULL, "t.ini:2: log: FILE is empty"},
	{"[fenbridge]\nengine = \"x\n", NULL,
	 "t.ini:2: engine: unterminated quote"},
	{"[fenbridge]\nengine = \n", NULL, "t.ini:2: engine: empty command"},
	{"[fenbrige]\nname = x\n", NULL,
	 "t.ini:2: unknown section "
	 "[fenbrige]"},
	{"[fenbridge]\nno equals sign\n", NULL,
	 "t.ini:2: expected 'name = value' or '[section]'"},
	{"[options]\nHash = 1\nhash = 2\n", NULL,
	 "t.ini:3: option 'hash' is set twice"},
	{"[env]\nA = 1\nA = 2\n", NULL,
	 "t.ini:3: environment variable 'A' is set twice"},
	{"[hidden-options]\nX = no\n", NULL,
	 "t.ini:2: hidden option 'X': value must be yes"},
};

/*
 * The engine line's one rule on every system: blanks separate words, '...'
 * is literal, "..." keeps blanks; a backslash escapes only a quote or a
 * backslash, so Windows paths need no doubling. Words joined by '|'; NULL:
 * an error.
 */
static const struct {
	const char *line, *words;
} split_cases[] = {
	{"/usr/games/toga2 --uci 'a b'", "/usr/games/toga2|--uci|a b"},
	{"  a\tb  ", "a|b"},
	{"", ""},
	{"C:\\Engines\\Toga II\\toga2.exe", "C:\\Engines\\Toga|II\\toga2.exe"},
	{"\"C:\\Engines\\Toga II\\toga2.exe\" -x",
	 "C:\\Engines\\Toga II\\toga2.exe|-x"},
	{"'C:\\Engines\\Toga II\\toga2.exe'",
	 "C:\\Engines\\Toga II\\toga2.exe"},
	{"..\\engines\\x.exe", "..\\engines\\x.exe"},
	{"C:\\dir\\", "C:\\dir\\"},
	/* A doubled backslash is one; single quotes keep both. */
	{"\\\\server\\share\\e.exe", "\\server\\share\\e.exe"},
	{"'\\\\server\\share\\e.exe'", "\\\\server\\share\\e.exe"},
	{"\"C:\\dir\\\\\" x", "C:\\dir\\|x"},
	{"\"a \\\"b\\\" c\"", "a \"b\" c"},
	{"a\\\"b a\\'b", "a\"b|a'b"},
	{"c\\ d", "c\\|d"},
	{"\"\\$x \\n\"", "\\$x \\n"},
	{"a\"b c\"d'e f'", "ab cde f"},
	{"\"C:\\dir\\\"", NULL},
	{"'a", NULL},
	{"\"a", NULL},
};

static void
test_config_split_words(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_ELEMS(split_cases); i++) {
		const char *line = split_cases[i].line;
		char buf[256], *argv[16], got[512] = "";
		size_t n = 0;
		int words = fb_config_split_words(line, buf, argv, 16);

		if (split_cases[i].words == NULL) {
			if (words != FB_EINVAL)
				fail_msg("'%s': %d words, expected an error",
					 line, words);
			continue;
		}
		if (words < 0)
			fail_msg("'%s': error %d", line, words);
		assert_null(argv[words]);
		for (int w = 0; w < words; w++)
			n += (size_t)snprintf(got + n, sizeof got - n, "%s%s",
					      w ? "|" : "", argv[w]);
		if (strcmp(got, split_cases[i].words) != 0)
			fail_msg("'%s': got '%s', expected '%s'", line, got,
				 split_cases[i].words);
	}
}

/* A program found on disk under a name with blanks (main.c) keeps the
 * words after it as its arguments. */
static void
test_config_set_engine(void **state)
{
	struct fb_config c;
	char got[2048], err[256];

	(void)state;
	fb_config_init(&c);
	assert_int_equal(fb_config_parse_ini(&c,
					     "[fenbridge]\nengine = "
					     "C:\\E\\Toga II\\t.exe -a 'b c'\n",
					     "t.ini", "/cfg", err, sizeof err),
			 0);
	assert_int_equal(
		fb_config_set_engine(&c, "C:\\E\\Toga II\\t.exe", " -a 'b c'"),
		0);
	render(&c, got, sizeof got);
	expect_tokens(got, "engine=C:\\E\\Toga_II\\t.exe|-a|b_c", "set");
	assert_int_equal(fb_config_set_engine(&c, "x", " 'unterminated"),
			 FB_EINVAL);
	fb_config_free(&c);
}

static void
test_config_ini_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_ELEMS(ini_cases); i++) {
		const struct case_ *k = &ini_cases[i];
		char err[256] = "", got[2048];
		struct fb_config c;
		int rc;

		fb_config_init(&c);
		rc = fb_config_parse_ini(&c, k->in, "t.ini", "/cfg", err,
					 sizeof err);
		if (k->err != NULL) {
			expect_error(rc, err, k->err, k->in);
		} else {
			if (rc != 0)
				fail_msg("%s: %s", k->in, err);
			render(&c, got, sizeof got);
			expect_tokens(got, k->want, k->in);
			expect_tokens(got, "config=t.ini", k->in);
		}
		fb_config_free(&c);
	}
}

/* inih cuts lines at INI_MAX_LINE (200): a longer one is refused with its
 * number, not read in two pieces. */
static void
test_config_ini_line_length_limit(void **state)
{
	char text[512], err[256];
	struct fb_config c;
	int n;

	(void)state;
	n = snprintf(text, sizeof text, "[fenbridge]\nname = ");
	memset(text + n, 'x', 198 - 7);
	strcpy(text + n + 198 - 7, "\n");
	fb_config_init(&c);
	assert_int_equal(
		fb_config_parse_ini(&c, text, "t.ini", "", err, sizeof err), 0);
	fb_config_free(&c);

	strcpy(text + n + 198 - 7, "y\n");
	fb_config_init(&c);
	expect_error(
		fb_config_parse_ini(&c, text, "t.ini", "", err, sizeof err),
		err, "t.ini:2: line longer than 198 characters", "long");
	fb_config_free(&c);
}

/* Overwrites the stack below the caller's frame, where the parser's frames
 * (and inih's line buffer) were. */
__attribute__((noinline)) static void
clobber_stack(void)
{
	volatile char junk[16 * 1024];

	memset((char *)junk, 'z', sizeof junk);
}

/* The INI's values outlive inih's line buffer: overwrite the stack the
 * parser used and read them again. */
static void
test_config_ini_strings_are_copies(void **state)
{
	struct fb_config c;
	char err[256], got[2048];

	(void)state;
	fb_config_init(&c);
	assert_int_equal(
		fb_config_parse_ini(&c,
				    "[fenbridge]\nprotocol = uci\nname = N\n"
				    "engine = e -x\nlog = /l\n",
				    "t.ini", "", err, sizeof err),
		0);
	clobber_stack();
	render(&c, got, sizeof got);
	expect_tokens(got, "protocol=uci name=N engine=e|-x log=/l", "copies");
	fb_config_free(&c);
	assert_null(c.owned);
}

/* The command line overrides the file, as main runs them. */
static void
test_config_argv_overrides_ini(void **state)
{
	char buf[256], *argv[MAX_ARGS + 1], err[256], got[2048];
	struct fb_config c;
	int argc = make_argv("fb", "--engine-fen=xfen --log=cli.log -- e2 -y",
			     buf, sizeof buf, argv);

	(void)state;
	fb_config_init(&c);
	assert_int_equal(
		fb_config_parse_ini(&c,
				    "[fenbridge]\nengine = e1\n"
				    "engine-fen = shredder\nlog = f.log\n"
				    "grace = 2\n",
				    "/d/t.ini", "/d", err, sizeof err),
		0);
	assert_int_equal(fb_config_parse_args(&c, argc, argv, err, sizeof err),
			 0);
	render(&c, got, sizeof got);
	expect_tokens(got,
		      "engine-fen=xfen auto=0 log=cli.log grace=2000 "
		      "engine=e2|-y from-config=0",
		      "override");
	assert_int_equal(fb_config_check(&c, err, sizeof err), 0);
	fb_config_free(&c);

	fb_config_init(&c);
	expect_error(fb_config_check(&c, err, sizeof err), err,
		     "no engine given", "check");
	fb_config_free(&c);
}

#define F_POPCNT (FB_CPU_SSE41 | FB_CPU_POPCNT)
#define F_AVX2 (F_POPCNT | FB_CPU_AVX2)
#define F_AVX512 (F_AVX2 | FB_CPU_BMI2 | FB_CPU_AVX512F | FB_CPU_AVX512BW)

/* The INI's builds: the first the (fake) CPU runs is the engine, as the
 * INI wrote it; the command line's engine wins over all of them. */
static void
test_config_pick_build(void **state)
{
	static const struct {
		const char *ini, *argv;
		unsigned usable;
		int rc;
		const char *want, *why;
	} cases[] = {
		{"engine.avx512 = e512\nengine.avx2 = \"e 2\" -x\n"
		 "engine.popcnt = pop\nengine = plain\n",
		 "", F_AVX2, 1,
		 "engine=e_2|-x engine-line=\"e_2\"_-x from-config=1",
		 "engine.avx2: this CPU has SSE4.1 POPCNT AVX2; not "
		 "engine.avx512: no BMI2 AVX-512F AVX-512BW"},
		{"engine.avx512 = e512\nengine.avx2 = e2\nengine = plain\n", "",
		 F_AVX512, 1, "engine=e512 engine-line=e512",
		 "engine.avx512: this CPU has"},
		{"engine = plain\nengine.avx2 = e2\n", "", F_POPCNT, 1,
		 "engine=plain engine-line=plain from-config=1",
		 "engine: this CPU runs none of the builds given; not "
		 "engine.avx2: no AVX2"},
		/* INI keys in any order: the order is the table's */
		{"engine.popcnt = pop\nengine.bmi2 = b\n", "", F_AVX512, 1,
		 "engine=b", "engine.bmi2: "},
		{"engine.avx2 = e2\n", "", F_POPCNT, FB_EINVAL, "engine=-",
		 "engine: this CPU runs none of the builds given; not "
		 "engine.avx2: no AVX2; and there is no 'engine = ...' (a "
		 "build for any x86-64 CPU) to start instead (this CPU: SSE4.1 "
		 "POPCNT; not: AVX2 BMI2 AVX-512F AVX-512BW AVX-512VL)"},
		{"engine.avx2 = e2\nengine = plain\n", "-- cli -y", F_AVX512, 1,
		 "engine=cli|-y from-config=0",
		 "the engine of the command line, not the config file's "
		 "builds"},
		{"engine.avx2 = e2\n", "-- cli", 0, 1, "engine=cli", NULL},
		{"engine = plain\n", "", F_AVX512, 0, "engine=plain", ""},
		{"engine = plain\n", "-- cli", F_AVX512, 0, "engine=cli", ""},
	};

	(void)state;
	for (size_t i = 0; i < N_ELEMS(cases); i++) {
		char ini[512], buf[256], *argv[MAX_ARGS + 1], err[256];
		char why[512], got[2048];
		struct fb_config c;
		struct fb_cpu cpu = {true, cases[i].usable, cases[i].usable};
		int argc =
			make_argv("fb", cases[i].argv, buf, sizeof buf, argv);
		int rc;

		snprintf(ini, sizeof ini, "[fenbridge]\n%s", cases[i].ini);
		fb_config_init(&c);
		assert_int_equal(fb_config_parse_ini(&c, ini, "t.ini", "/cfg",
						     err, sizeof err),
				 0);
		assert_int_equal(
			fb_config_parse_args(&c, argc, argv, err, sizeof err),
			0);
		rc = fb_cpu_pick_engine(&c, &cpu, why, sizeof why);
		if (rc != cases[i].rc)
			fail_msg("case %zu: %d, not %d (%s)", i, rc,
				 cases[i].rc, why);
		render(&c, got, sizeof got);
		expect_tokens(got, cases[i].want, cases[i].ini);
		if (cases[i].why != NULL &&
		    (cases[i].why[0] == '\0'
			     ? why[0] != '\0'
			     : strstr(why, cases[i].why) != why))
			fail_msg("case %zu: why '%s', not '%s'", i, why,
				 cases[i].why);
		fb_config_free(&c);
	}
}

static void
render_convert(const struct fb_convert_config *c, char *out, size_t cap)
{
	snprintf(out, cap,
		 "action=%s to=%s have-to=%d keep-ep=%d prefix=%c "
		 "first=%d",
		 action(c->action), notation(c->style.notation), c->have_to,
		 c->style.keep_ep, c->style.prefix ? c->style.prefix : '-',
		 c->first);
}

static const struct case_ convert_cases[] = {
	{"--to=shredder", "action=run to=shredder keep-ep=0 prefix=- first=2",
	 NULL},
	{"--to xfen FEN1 FEN2", "to=xfen first=3", NULL},
	{"--to=X-FEN --keep-ep --variant=janus", "to=xfen keep-ep=1 prefix=s",
	 NULL},
	{"--variant embassy --to=shredder", "prefix=m", NULL},
	{"--variant=chess960 --to=shredder", "prefix=-", NULL},
	{"--to=xfen -- -x", "first=3", NULL},
	{"--to=xfen - x", "first=2", NULL}, /* "-" is a FEN, as before */
	{"--help", "action=help", NULL},
	{"--bogus -h", NULL, "unknown option '--bogus'"},
	{"-h --bogus", "action=help", NULL},
	{"", NULL, "--to=xfen or --to=shredder is required"},
	{"FEN", NULL, "--to=xfen or --to=shredder is required"},
	{"--to=lan", NULL, "--to: unknown value 'lan' (xfen or shredder)"},
	{"--to", NULL, "--to needs a value"},
	{"--variant=atomic --to=xfen", NULL, "unknown variant 'atomic'"},
	{"--keep-ep=1 --to=xfen", NULL, "--keep-ep takes no value"},
	{"-V", NULL, "unknown option '-V'"},
	{"--engine-fen=xfen", NULL, "unknown option '--engine-fen=xfen'"},
};

static void
test_config_convert_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_ELEMS(convert_cases); i++) {
		const struct case_ *k = &convert_cases[i];
		char buf[256], *argv[MAX_ARGS + 1], err[256] = "", got[512];
		struct fb_convert_config c;
		int argc = make_argv("convert", k->in, buf, sizeof buf, argv);
		int rc = fb_config_parse_convert(&c, argc, argv, err,
						 sizeof err);

		if (k->err != NULL) {
			expect_error(rc, err, k->err, k->in);
			continue;
		}
		if (rc != 0)
			fail_msg("%s: %s", k->in, err);
		render_convert(&c, got, sizeof got);
		expect_tokens(got, k->want, k->in);
	}
}

/* What every entry must have for the parsers and --help to work. */
static void
check_table(const struct fb_option_table *t)
{
	for (const struct fb_option *o = t->options; o->name != NULL; o++) {
		assert_non_null(o->set);
		assert_non_null(o->help);
		assert_true(o->scope != 0);
		assert_true((o->kind == FB_ARG_NONE) == (o->arg == NULL));
		if (o->kind == FB_ARG_WORD)
			assert_non_null(strchr(o->arg, '|'));
		if (o->kind == FB_ARG_WORD && o->def != NULL) {
			/* The default is one of the values. */
			char words[128];
			snprintf(words, sizeof words, "|%s|", o->arg);
			char def[64];
			snprintf(def, sizeof def, "|%s|", o->def);
			assert_non_null(strstr(words, def));
		}
		for (const struct fb_option *p = o + 1; p->name != NULL; p++) {
			if (strcmp(o->name, p->name) == 0)
				fail_msg("%s twice", o->name);
			if (o->short_name != '\0')
				assert_int_not_equal(o->short_name,
						     p->short_name);
		}
	}
}

/* --help comes from the table: every option with its value and default,
 * within 79 columns. */
static void
check_help(const struct fb_option_table *t)
{
	char help[8192], line[256];
	size_t n = fb_config_print_help(t, help, sizeof help);

	assert_true(n < sizeof help);
	assert_int_equal(n, strlen(help));
	assert_int_equal(fb_config_print_help(t, NULL, 0), n);
	assert_int_equal(fb_config_print_help(t, line, 10), n);
	assert_int_equal(strlen(line), 9);
	assert_true(strncmp(help, "Usage: fenbridge", 16) == 0);
	/* The generated part: from the options to the epilog. */
	const char *end = strstr(help, t->epilog);
	assert_non_null(end);
	for (const char *p = strstr(help, "\nOptions:\n"); p < end;) {
		size_t len = strcspn(p, "\n");
		if (len > 79)
			fail_msg("line over 79 columns: %.*s", (int)len, p);
		p += len + (p[len] == '\n');
	}
	for (const struct fb_option *o = t->options; o->name != NULL; o++) {
		if (!(o->scope & FB_SCOPE_ARGV)) {
			snprintf(line, sizeof line, "\n  %s = %s ", o->name,
				 o->arg);
		} else if (o->short_name != '\0') {
			snprintf(line, sizeof line, "\n  -%c, --%s ",
				 o->short_name, o->name);
		} else {
			snprintf(line, sizeof line, "\n  --%s%s%s", o->name,
				 o->arg ? "=" : "", o->arg ? o->arg : "");
		}
		if (strstr(help, line) == NULL)
			fail_msg("--help lacks '%s'", line + 1);
		if (o->def != NULL && strchr(o->def, ' ') == NULL) {
			snprintf(line, sizeof line, "(default %s)", o->def);
			assert_non_null(strstr(help, line));
		}
	}
}

static void
test_config_tables_and_help(void **state)
{
	char help[8192];

	(void)state;
	check_table(&fb_config_bridge_table);
	check_table(&fb_config_convert_table);
	check_help(&fb_config_bridge_table);
	check_help(&fb_config_convert_table);
	fb_config_print_help(&fb_config_bridge_table, help, sizeof help);
	assert_non_null(strstr(help, "Exit status: the engine's exit status"));
	assert_non_null(strstr(help, "126 the engine cannot be executed"));
	assert_non_null(strstr(help, "every long option except --config,"));
	assert_non_null(strstr(help, "--help and --version as a key"));
	fb_config_print_help(&fb_config_convert_table, help, sizeof help);
	assert_non_null(strstr(help, "Exit status: 0 every FEN was clean"));
	assert_null(strstr(help, "[fenbridge]"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_argv_cases),
		cmocka_unit_test(test_config_argv_parses_twice),
		cmocka_unit_test(test_config_ini_cases),
		cmocka_unit_test(test_config_split_words),
		cmocka_unit_test(test_config_set_engine),
		cmocka_unit_test(test_config_ini_line_length_limit),
		cmocka_unit_test(test_config_ini_strings_are_copies),
		cmocka_unit_test(test_config_argv_overrides_ini),
		cmocka_unit_test(test_config_pick_build),
		cmocka_unit_test(test_config_convert_cases),
		cmocka_unit_test(test_config_tables_and_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
