/* SPDX-License-Identifier: MIT */
/*
 * Every option of fenbridge, `fenbridge convert` and `fenbridge check`, once:
 * the three tables (name, short name, value, scope, help, default, field)
 * and the setters that read a value into its field. config.c builds the
 * command lines from them, config_ini.c the INI keys, config_help.c --help.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config_int.h"
#include "fenbridge/game.h"
#include "fenbridge/variant.h"
#include "platform.h"
#include "filter.h"

/* A path from the file: relative ones are relative to the file's folder. */
static char *
file_path(struct fb_config *c, const char *dir, const char *path)
{
	size_t dl = strlen(dir), pl = strlen(path);
	char *p;

	if (fb_path_is_absolute(path) || dl == 0)
		return fb_config_copy(c, path);
	if ((p = malloc(dl + pl + 2)) == NULL)
		return NULL;
	memcpy(p, dir, dl);
	p[dl] = FB_PATH_SEP;
	memcpy(p + dl + 1, path, pl + 1);
	return fb_config_keep(c, p);
}

static void *
field(void *cfg, const struct fb_option *o)
{
	return (char *)cfg + o->field;
}

/* The index of val among the words "a|b|c" of o->arg, or -1. */
static int
word_index(const struct fb_option *o, const char *val)
{
	size_t n = strlen(val);
	int i = 0;

	for (const char *w = o->arg; w != NULL; i++) {
		const char *bar = strchr(w, '|');
		size_t len = bar != NULL ? (size_t)(bar - w) : strlen(w);
		if (len == n && strncmp(w, val, n) == 0)
			return i;
		w = bar != NULL ? bar + 1 : NULL;
	}
	return -1;
}

/* "unknown value 'x' (a, b or c)", the list taken from o->arg. */
static int
bad_word(const struct fb_option *o, const char *val, char *err, size_t errlen)
{
	char list[128];
	size_t n = 0;
	const char *w = o->arg;

	while (w != NULL && n + 1 < sizeof list) {
		const char *bar = strchr(w, '|');
		int len = bar != NULL ? (int)(bar - w) : (int)strlen(w);
		const char *sep = w == o->arg              ? ""
				  : strchr(w, '|') == NULL ? " or "
							   : ", ";
		n += (size_t)snprintf(list + n, sizeof list - n, "%s%.*s", sep,
				      len, w);
		w = bar != NULL ? bar + 1 : NULL;
	}
	return fb_config_bad(err, errlen, "unknown value '%s' (%s)", val, list);
}

/* --help, --version: the action to take instead of running. */
int
fb_config_set_action(void *cfg, const struct fb_option *o, const char *val,
		     const char *dir, char *err, size_t errlen)
{
	(void)val, (void)dir, (void)err, (void)errlen;
	*(enum fb_config_action *)field(cfg, o) =
		(enum fb_config_action)o->value;
	return 0;
}

static int
set_flag(void *cfg, const struct fb_option *o, const char *val, const char *dir,
	 char *err, size_t errlen)
{
	(void)val, (void)dir, (void)err, (void)errlen;
	*(bool *)field(cfg, o) = true;
	return 0;
}

/* A switch that an INI file also takes, as a key with a value (normalize =
 * on): on/off, yes/no, true/false, 1/0. */
static int
set_switch(void *cfg, const struct fb_option *o, const char *val,
	   const char *dir, char *err, size_t errlen)
{
	static const char *const words[] = {"on",   "off",   "yes", "no",
					    "true", "false", "1",   "0"};

	(void)dir;
	for (size_t i = 0; val != NULL && i < sizeof words / sizeof words[0];
	     i++)
		if (strcasecmp(val, words[i]) == 0) {
			*(bool *)field(cfg, o) = i % 2 == 0;
			return 0;
		}
	if (val != NULL)
		return fb_config_bad(err, errlen,
				     "unknown value '%s' (on or off)", val);
	*(bool *)field(cfg, o) = true;
	return 0;
}

/* A FEN dialect: the words of o->arg, and the other spellings that
 * fb_fen_parse_notation knows ("Shredder-FEN"). */
static int
set_fen(void *cfg, const struct fb_option *o, const char *val, const char *dir,
	char *err, size_t errlen)
{
	(void)dir;
	if (fb_fen_parse_notation(val, field(cfg, o)) < 0)
		return bad_word(o, val, err, errlen);
	return 0;
}

/* auto keeps X-FEN as the default but lets the bridge follow the engine's
 * entry in the quirk table (Glaurung reads only Shredder-FEN). */
static int
set_engine_fen(void *cfg, const struct fb_option *o, const char *val,
	       const char *dir, char *err, size_t errlen)
{
	struct fb_config *c = cfg;

	if (strcmp(val, "auto") == 0) {
		c->engine_fen = FB_XFEN;
		c->engine_fen_auto = true;
		return 0;
	}
	c->engine_fen_auto = false;
	return set_fen(cfg, o, val, dir, err, errlen);
}

static int
set_castling(void *cfg, const struct fb_option *o, const char *val,
	     const char *dir, char *err, size_t errlen)
{
	(void)dir;
	if (fb_game_parse_notation(val, field(cfg, o)) < 0)
		return bad_word(o, val, err, errlen);
	return 0;
}

static int
set_protocol(void *cfg, const struct fb_option *o, const char *val,
	     const char *dir, char *err, size_t errlen)
{
	/* Literals: a value from the INI file lives only as long as the
	 * parse (the fuzzer's first finding). Every word of o->arg is one. */
	static const char *const names[] = {"auto", "same", "uci", "xboard"};

	(void)dir;
	if (word_index(o, val) < 0)
		return bad_word(o, val, err, errlen);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(names[i], val) == 0) {
			*(const char **)field(cfg, o) = names[i];
			return 0;
		}
	return bad_word(o, val, err, errlen);
}

/* A file or folder (bridge only): from the INI, relative to its folder. */
static int
set_path(void *cfg, const struct fb_option *o, const char *val, const char *dir,
	 char *err, size_t errlen)
{
	const char *path = val;

	if (*val == '\0')
		return fb_config_bad(err, errlen, "%s is empty", o->arg);
	if (dir != NULL && (path = file_path(cfg, dir, val)) == NULL)
		return fb_config_bad(err, errlen, "out of memory");
	*(const char **)field(cfg, o) = path;
	return 0;
}

/* Text kept as given (the INI reader has already copied it). */
static int
set_string(void *cfg, const struct fb_option *o, const char *val,
	   const char *dir, char *err, size_t errlen)
{
	(void)dir, (void)err, (void)errlen;
	*(const char **)field(cfg, o) = val;
	return 0;
}

static int
set_seconds(void *cfg, const struct fb_option *o, const char *val,
	    const char *dir, char *err, size_t errlen)
{
	char *end;
	double s = strtod(val, &end);

	(void)dir;
	if (end == val || *end != '\0' || !(s >= 0 && s <= 86400))
		return fb_config_bad(err, errlen,
				     "takes seconds from 0 to 86400, not "
				     "'%s'",
				     val);
	*(unsigned *)field(cfg, o) = (unsigned)(s * 1000 + 0.5);
	return 0;
}

/* A line of a file (replay --until). */
static int
set_line(void *cfg, const struct fb_option *o, const char *val, const char *dir,
	 char *err, size_t errlen)
{
	char *end;
	long n = strtol(val, &end, 10);

	(void)dir;
	if (end == val || *end != '\0' || n < 1 || n > 100000000)
		return fb_config_bad(err, errlen,
				     "takes a line number from 1, not '%s'",
				     val);
	*(unsigned *)field(cfg, o) = (unsigned)n;
	return 0;
}

/* A small count (--restart). */
static int
set_count(void *cfg, const struct fb_option *o, const char *val,
	  const char *dir, char *err, size_t errlen)
{
	char *end;
	long n = strtol(val, &end, 10);

	(void)dir;
	if (end == val || *end != '\0' || n < 0 || n > 100)
		return fb_config_bad(err, errlen,
				     "takes a number from 0 to 100, not "
				     "'%s'",
				     val);
	*(unsigned *)field(cfg, o) = (unsigned)n;
	return 0;
}

/*
 * Splits line into an argv that belongs to c, with room for a word before
 * the first when first is set. Returns the array (words at argv[first..]),
 * or NULL with err set.
 */
static char **
split_owned(struct fb_config *c, const char *line, size_t first, char *err,
	    size_t errlen)
{
	size_t n = strlen(line);
	char *buf = fb_config_keep(c, malloc(n + 1));
	char **argv =
		fb_config_keep(c, malloc((n / 2 + 2 + first) * sizeof *argv));
	int words;

	if (buf == NULL || argv == NULL) {
		fb_config_bad(err, errlen, "out of memory");
		return NULL;
	}
	words = fb_config_split_words(line, buf, argv + first, n / 2 + 2);
	if (words < 0) {
		fb_config_bad(err, errlen, "unterminated quote in '%s'", line);
		return NULL;
	}
	if (words == 0 && first == 0) {
		fb_config_bad(err, errlen, "empty command");
		return NULL;
	}
	return argv;
}

/* An INI engine command line's words, in an array that belongs to the
 * config; a relative program path is relative to the file's folder, and a
 * bare name too when such a file exists there (main checks that). */
static char **
engine_words(struct fb_config *c, const char *val, const char *dir, char *err,
	     size_t errlen)
{
	char **argv;

	if ((argv = split_owned(c, val, 0, err, errlen)) == NULL)
		return NULL;
	if (dir != NULL && fb_path_has_dir(argv[0]) &&
	    !fb_path_is_absolute(argv[0]) &&
	    (argv[0] = file_path(c, dir, argv[0])) == NULL) {
		fb_config_bad(err, errlen, "out of memory");
		return NULL;
	}
	return argv;
}

/* The INI's engine command line. */
static int
set_engine(void *cfg, const struct fb_option *o, const char *val,
	   const char *dir, char *err, size_t errlen)
{
	struct fb_config *c = cfg;
	char **argv;

	(void)o;
	if ((argv = engine_words(c, val, dir, err, errlen)) == NULL)
		return FB_EINVAL;
	c->engine_argv = argv;
	c->engine_line = fb_config_copy(c, val);
	c->engine_from_config = dir != NULL;
	return 0;
}

/* engine.avx512 ... engine.popcnt: a build for those instructions
 * (o->value: enum fb_cpu_build), kept until fb_cpu_pick_engine. */
static int
set_engine_build(void *cfg, const struct fb_option *o, const char *val,
		 const char *dir, char *err, size_t errlen)
{
	struct fb_config *c = cfg;
	char **argv;

	if ((argv = engine_words(c, val, dir, err, errlen)) == NULL)
		return FB_EINVAL;
	c->build_argv[o->value] = argv;
	c->build_line[o->value] = fb_config_copy(c, val);
	return 0;
}

int
fb_config_set_engine(struct fb_config *c, const char *program, const char *args)
{
	char err[16];
	char **argv = split_owned(c, args, 1, err, sizeof err);

	if (argv == NULL || (argv[0] = fb_config_copy(c, program)) == NULL)
		return FB_EINVAL;
	c->engine_argv = argv;
	return 0;
}

/* convert --to: required, so remember that it was given. */
static int
set_to(void *cfg, const struct fb_option *o, const char *val, const char *dir,
       char *err, size_t errlen)
{
	struct fb_convert_config *c = cfg;

	c->have_to = true;
	return set_fen(cfg, o, val, dir, err, errlen);
}

/* convert --variant: any name of a variant in the variant table; only
 * janus and embassy have an X-FEN castling prefix, the others change
 * nothing. */
static int
set_variant(void *cfg, const struct fb_option *o, const char *val,
	    const char *dir, char *err, size_t errlen)
{
	const struct fb_variant *v = fb_variant_find(val, strlen(val));
	char names[256];
	size_t n = 0;

	(void)dir;
	if (v != NULL) {
		*(char *)field(cfg, o) = v->prefix;
		return 0;
	}
	for (size_t i = 0; fb_variant_at(i) != NULL && n < sizeof names; i++)
		n += (size_t)snprintf(names + n, sizeof names - n, "%s%s",
				      i > 0 ? ", " : "",
				      fb_variant_at(i)->name);
	return fb_config_bad(err, errlen, "unknown variant '%s' (%s)", val,
			     names);
}

/*
 * An option whose value is one of the words of o->arg, stored as its index
 * in an enum that lists them in that order: one setter per enum type.
 */
#define WORD_SETTER(name, type)                                                \
	static int name(void *cfg, const struct fb_option *o, const char *val, \
			const char *dir, char *err, size_t errlen)             \
	{                                                                      \
		int i = word_index(o, val);                                    \
                                                                               \
		(void)dir;                                                     \
		if (i < 0)                                                     \
			return bad_word(o, val, err, errlen);                  \
		*(type *)field(cfg, o) = (type)i;                              \
		return 0;                                                      \
	}

WORD_SETTER(set_format, enum fb_pgn_format)           /* convert --format */
WORD_SETTER(set_select, enum fb_pgn_select)           /* convert --select */
WORD_SETTER(set_variant_tag, enum fb_pgn_variant_tag) /* --variant-tag */
WORD_SETTER(set_referee, int) /* --referee: enum fb_referee_mode's order */
WORD_SETTER(set_report, int)  /* check --format: 0 text, 1 json */
WORD_SETTER(set_speed, int)   /* replay --speed: 0 recorded, 1 fast */

#define BRIDGE(f) offsetof(struct fb_config, f)
#define ARGV_INI (FB_SCOPE_ARGV | FB_SCOPE_INI)

static const struct fb_option bridge_options[] = {
	{.name = "engine-fen",
	 .kind = FB_ARG_WORD,
	 .arg = "auto|xfen|shredder",
	 .def = "auto",
	 .help = "dialect of FENs sent to the engine; auto: X-FEN, unless "
		 "fenbridge knows that the engine needs Shredder-FEN "
		 "(Glaurung)",
	 .scope = ARGV_INI,
	 .set = set_engine_fen,
	 .field = BRIDGE(engine_fen)},
	{.name = "gui-fen",
	 .kind = FB_ARG_WORD,
	 .arg = "xfen|shredder",
	 .def = "shredder",
	 .help = "dialect of FENs sent to the GUI",
	 .scope = ARGV_INI,
	 .set = set_fen,
	 .field = BRIDGE(gui_fen)},
	{.name = "protocol",
	 .kind = FB_ARG_WORD,
	 .arg = "auto|uci|xboard",
	 .def = "auto",
	 .help = "protocol; auto decides from the GUI's first command (uci, "
		 "or xboard/protover)",
	 .scope = ARGV_INI,
	 .set = set_protocol,
	 .field = BRIDGE(protocol)},
	{.name = "engine-protocol",
	 .kind = FB_ARG_WORD,
	 .arg = "auto|same|uci|xboard",
	 .def = "auto",
	 .help = "the engine's protocol; auto: the engine gets the GUI's "
		 "handshake, and one that refuses it or is silent speaks the "
		 "other protocol (fenbridge translates); same: the GUI's; uci "
		 "or xboard: fenbridge translates when it differs",
	 .scope = ARGV_INI,
	 .set = set_protocol,
	 .field = BRIDGE(engine_protocol)},
	{.name = "gui-castling",
	 .kind = FB_ARG_WORD,
	 .arg = "auto|kxr|king|oo",
	 .def = "auto",
	 .help = "castling moves toward the GUI: king takes rook (e1h1), king "
		 "move (e1g1) or O-O; auto follows UCI_Chess960 / the XBoard "
		 "variant",
	 .scope = ARGV_INI,
	 .set = set_castling,
	 .field = BRIDGE(gui_castling)},
	{.name = "engine-castling",
	 .kind = FB_ARG_WORD,
	 .arg = "auto|kxr|king|oo",
	 .def = "auto",
	 .help = "castling moves toward the engine",
	 .scope = ARGV_INI,
	 .set = set_castling,
	 .field = BRIDGE(engine_castling)},
	{.name = "referee",
	 .kind = FB_ARG_WORD,
	 .arg = "off|warn|strict",
	 .def = "off",
	 .help = "check both sides against the board and their protocol and "
		 "report each finding (log, stderr, once per kind to the GUI); "
		 "a pv past a draw by rule and a variant it cannot judge are "
		 "notes, said once, no findings; strict also writes a flight "
		 "record and exits with status 3",
	 .scope = ARGV_INI,
	 .set = set_referee,
	 .field = BRIDGE(referee)},
	{.name = "log",
	 .kind = FB_ARG_PATH,
	 .arg = "FILE",
	 .help = "append a timestamped log of both directions, rewrites and "
		 "diagnostics to FILE",
	 .scope = ARGV_INI,
	 .set = set_path,
	 .field = BRIDGE(log_path)},
	{.name = "grace",
	 .kind = FB_ARG_TEXT,
	 .arg = "SECONDS",
	 .def = "5",
	 .help = "after the GUI quits or closes stdin, wait this long for the "
		 "engine to exit before terminating it; after a closed stdin "
		 "first as long for what the GUI sent to be answered (a "
		 "search's move)",
	 .scope = ARGV_INI,
	 .set = set_seconds,
	 .field = BRIDGE(grace_ms)},
	{.name = "normalize",
	 .def = "off",
	 .help = "tidy a UCI engine's output where GUIs trip on it: check "
		 "defaults True/False in lowercase, no blank lines in the "
		 "handshake, score N as score cp N, multipv 1 in a single-line "
		 "search's info lines, an id name over 64 bytes cut, id author "
		 "unknown when there is none; each rewrite logged (debug); "
		 "INI: normalize = on",
	 .scope = ARGV_INI,
	 .set = set_switch,
	 .field = BRIDGE(normalize)},
	{.name = "restart",
	 .kind = FB_ARG_TEXT,
	 .arg = "N",
	 .def = "0",
	 .help = "start an engine that dies mid-game again, at most N times "
		 "a game, and bring it to where the GUI believes it is",
	 .scope = ARGV_INI,
	 .set = set_count,
	 .field = BRIDGE(restarts)},
	{.name = "engine-dir",
	 .kind = FB_ARG_PATH,
	 .arg = "DIR",
	 .def = "the folder of its executable",
	 .help = "run the engine in DIR",
	 .scope = ARGV_INI,
	 .set = set_path,
	 .field = BRIDGE(engine_dir)},
	{.name = "config",
	 .kind = FB_ARG_PATH,
	 .arg = "FILE",
	 .def = "PROGRAM.ini beside the program, if there",
	 .help = "read settings from this INI file; command-line options "
		 "override it",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_path,
	 .field = BRIDGE(config_path)},
	{.name = "help",
	 .short_name = 'h',
	 .help = "this text",
	 .scope = FB_SCOPE_ARGV,
	 .set = fb_config_set_action,
	 .field = BRIDGE(action),
	 .value = FB_SHOW_HELP},
	{.name = "version",
	 .short_name = 'V',
	 .help = "print the version, and the CPU's features and the engine "
		 "builds it runs",
	 .scope = FB_SCOPE_ARGV,
	 .set = fb_config_set_action,
	 .field = BRIDGE(action),
	 .value = FB_SHOW_VERSION},
	{.name = "engine",
	 .kind = FB_ARG_COMMAND,
	 .arg = "COMMAND",
	 .help = "the engine's command line, split into words at blanks; "
		 "\"...\" and '...' keep blanks, a backslash is literal "
		 "except before a quote or a backslash; a bare program name "
		 "is looked up beside the file first, then in PATH",
	 .scope = FB_SCOPE_INI,
	 .set = set_engine},
	{.name = "engine.avx512",
	 .kind = FB_ARG_COMMAND,
	 .arg = "COMMAND",
	 .help = "a build of the engine for CPUs with AVX-512 (F and BW), "
		 "BMI2, AVX2, POPCNT and SSE4.1; fenbridge starts the first "
		 "of engine.avx512, engine.bmi2, engine.avx2 and "
		 "engine.popcnt whose instructions the CPU has (cpuid), else "
		 "engine; written as engine is",
	 .scope = FB_SCOPE_INI,
	 .set = set_engine_build,
	 .value = FB_CPU_BUILD_AVX512},
	{.name = "engine.bmi2",
	 .kind = FB_ARG_COMMAND,
	 .arg = "COMMAND",
	 .help = "a build for CPUs with BMI2, AVX2, POPCNT and SSE4.1",
	 .scope = FB_SCOPE_INI,
	 .set = set_engine_build,
	 .value = FB_CPU_BUILD_BMI2},
	{.name = "engine.avx2",
	 .kind = FB_ARG_COMMAND,
	 .arg = "COMMAND",
	 .help = "a build for CPUs with AVX2, POPCNT and SSE4.1",
	 .scope = FB_SCOPE_INI,
	 .set = set_engine_build,
	 .value = FB_CPU_BUILD_AVX2},
	{.name = "engine.popcnt",
	 .kind = FB_ARG_COMMAND,
	 .arg = "COMMAND",
	 .help = "a build for CPUs with POPCNT and SSE4.1 (sse41-popcnt)",
	 .scope = FB_SCOPE_INI,
	 .set = set_engine_build,
	 .value = FB_CPU_BUILD_POPCNT},
	{.name = "name",
	 .kind = FB_ARG_TEXT,
	 .arg = "NAME",
	 .help = "replaces the engine's id name (UCI) / myname (XBoard)",
	 .scope = FB_SCOPE_INI,
	 .set = set_string,
	 .field = BRIDGE(name)},
	{0},
};

const struct fb_option_table fb_config_bridge_table = {
	.usage =
		"Usage: fenbridge [OPTIONS] -- ENGINE [ARGS...]\n"
		"       fenbridge convert --to=xfen|shredder [OPTIONS] "
		"[FILE|FEN ...]\n"
		"\n"
		"Starts ENGINE and relays every line between it and the GUI on "
		"stdin and\n"
		"stdout, rewriting the FEN castling field of UCI 'position fen' "
		"and\n"
		"XBoard 'setboard' (and the engine's 'setup') into the dialect "
		"each side\n"
		"expects. Everything else passes through byte for byte.\n",
	.epilog =
		"Exit status: the engine's exit status; 128+N if it died of "
		"signal N;\n"
		"1 fenbridge failed; 2 usage error; 3 --referee=strict found "
		"something\n"
		"(when the engine's status is 0); 126 the engine cannot be "
		"executed;\n"
		"127 the engine was not found.\n"
		"\n"
		"Example: fenbridge --log=/tmp/fb.log -- /usr/games/stockfish\n",
	.options = bridge_options,
};

#define CONVERT(f) offsetof(struct fb_convert_config, f)

static const struct fb_option convert_options[] = {
	{.name = "to",
	 .kind = FB_ARG_WORD,
	 .arg = "xfen|shredder",
	 .help = "dialect to write (required)",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_to,
	 .field = CONVERT(style.notation)},
	{.name = "keep-ep",
	 .def = "write '-'",
	 .help = "X-FEN: keep an en-passant square even when no pawn can "
		 "capture there",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_flag,
	 .field = CONVERT(style.keep_ep)},
	{.name = "variant",
	 .kind = FB_ARG_TEXT,
	 .arg = "NAME",
	 .help = "X-FEN: add the castling prefix of a variant that has one "
		 "(janus: 's', embassy: 'm')",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_variant,
	 .field = CONVERT(style.prefix)},
	{.name = "format",
	 .kind = FB_ARG_WORD,
	 .arg = "auto|fen|epd|pgn",
	 .def = "auto",
	 .help = "what FILE holds: FEN lines, EPD lines (the first four "
		 "fields are the position) or PGN games (every FEN tag); auto "
		 "decides per input from its first line with content",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_format,
	 .field = CONVERT(format)},
	{.name = "select",
	 .kind = FB_ARG_WORD,
	 .arg = "all|classical|setup|chess960",
	 .def = "all",
	 .help = "PGN: write only the games without a FEN tag (classical), "
		 "with one (setup), or whose FEN tag is a Chess960 start "
		 "position (chess960); games are copied whole",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_select,
	 .field = CONVERT(select)},
	{.name = "variant-tag",
	 .kind = FB_ARG_WORD,
	 .arg = "auto|keep",
	 .def = "auto",
	 .help = "PGN: auto moves a Variant tag that follows the FEN tag "
		 "before it (WinBoard reads them in order) and adds "
		 "[Variant \"chess960\"] (10x8: \"caparandom\") to a FEN tag "
		 "that needs it and has none, with a warning each; keep "
		 "leaves Variant tags as they are",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_variant_tag,
	 .field = CONVERT(variant_tag)},
	{.name = "verbose",
	 .short_name = 'v',
	 .help = "also say how each input was read and what it held",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_flag,
	 .field = CONVERT(verbose)},
	{.name = "help",
	 .short_name = 'h',
	 .help = "this text",
	 .scope = FB_SCOPE_ARGV,
	 .set = fb_config_set_action,
	 .field = CONVERT(action),
	 .value = FB_SHOW_HELP},
	{0},
};

const struct fb_option_table fb_config_convert_table = {
	.usage =
		"Usage: fenbridge convert --to=xfen|shredder [OPTIONS] [FILE|FEN ...]\n"
		"\n"
		"Translates the castling field of each FEN between X-FEN (KQkq, "
		"a file\n"
		"letter only for an inner rook) and Shredder-FEN (always rook "
		"files,\n"
		"HAha). Either dialect, or a mix, is read; 8x8 and 10x8 boards.\n"
		"\n"
		"Reads each FILE (an operand that is no file but has a blank is "
		"a FEN,\n"
		"translated on a line of its own; '-' or none: standard input) "
		"and\n"
		"writes it to standard output with only the castling fields "
		"(toward\n"
		"X-FEN also the en-passant fields) changed: in FEN lines, in the "
		"first\n"
		"four fields of EPD lines, in every [FEN \"...\"] tag of PGN "
		"games (where\n"
		"[SetUp \"1\"] is added if missing, and the Variant tag tells "
		"the board).\n"
		"Every other byte is copied as it was.\n",
	.epilog =
		"Diagnostics go to standard error, naming the line (and PGN "
		"game) or\n"
		"argument number.\n"
		"An impossible castling right (no rook where it points, king off "
		"its\n"
		"back rank) is dropped with a warning; a malformed FEN is left "
		"unchanged.\n"
		"\n"
		"Exit status: 0 every FEN was clean, 1 any FEN had a diagnostic, "
		"2 usage.\n"
		"\n"
		"Example:\n"
		"  $ fenbridge convert --to=shredder \\\n"
		"      'rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w "
		"Gkq - 4 11'\n"
		"  rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - "
		"4 11\n",
	.options = convert_options,
};

#define CHECK(f) offsetof(struct fb_check_config, f)

static const struct fb_option check_options[] = {
	{.name = "protocol",
	 .kind = FB_ARG_WORD,
	 .arg = "auto|uci|xboard",
	 .def = "auto",
	 .help = "the engine's protocol; auto: uci, and when no uciok comes "
		 "(or an Error line, or the engine dies of it) xboard and "
		 "protover 2",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_protocol,
	 .field = CHECK(protocol)},
	{.name = "timeout",
	 .kind = FB_ARG_TEXT,
	 .arg = "SECONDS",
	 .def = "5",
	 .help = "wait this long for an answer: uciok, readyok, pong, the "
		 "features, the exit after quit",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_seconds,
	 .field = CHECK(timeout_ms)},
	{.name = "search-timeout",
	 .kind = FB_ARG_TEXT,
	 .arg = "SECONDS",
	 .def = "10",
	 .help = "wait this long for a move (each search is go depth 3 / sd "
		 "3 on a position with a mate in one)",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_seconds,
	 .field = CHECK(search_ms)},
	{.name = "format",
	 .kind = FB_ARG_WORD,
	 .arg = "text|json",
	 .def = "text",
	 .help = "the report: text for a person, or one JSON document for a "
		 "script or an engine's CI (its schema is in doc/check.md); the "
		 "exit status is the same",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_report,
	 .field = CHECK(json)},
	{.name = "verbose",
	 .short_name = 'v',
	 .help = "also write every line both ways to standard error",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_flag,
	 .field = CHECK(verbose)},
	{.name = "help",
	 .short_name = 'h',
	 .help = "this text",
	 .scope = FB_SCOPE_ARGV,
	 .set = fb_config_set_action,
	 .field = CHECK(action),
	 .value = FB_SHOW_HELP},
	{0},
};

const struct fb_option_table fb_config_check_table = {
	.usage =
		"Usage: fenbridge check [OPTIONS] -- ENGINE [ARGS...]\n"
		"\n"
		"Runs a scripted session against ENGINE and reports what it "
		"does: its\n"
		"protocol (UCI or XBoard), options or features, isready/ping, an "
		"unknown\n"
		"command, which FEN castling field it reads (X-FEN, "
		"Shredder-FEN) in\n"
		"standard chess, Chess960, DFRC and 10x8 (through edit for an "
		"XBoard\n"
		"engine without setboard), which castling move forms it takes "
		"and\n"
		"writes, ponder (a hit, a miss; XBoard: hard), MultiPV, XBoard's "
		"analyze,\n"
		"stop during go infinite, quit. Everything is found by "
		"experiment on\n"
		"positions judged by fenbridge's own move generator, never from "
		"the\n"
		"engine's name. Ends with the [fenbridge] INI lines to use.\n",
	.epilog =
		"Exit status: 0 the engine passed, 1 findings (a crash, a hang, "
		"an illegal\n"
		"move, no answer), 2 usage error or the engine cannot be "
		"started.\n"
		"\n"
		"Example: fenbridge check -- /usr/games/stockfish\n",
	.options = check_options,
};

#define REPLAY(f) offsetof(struct fb_replay_config, f)

static const struct fb_option replay_options[] = {
	{.name = "speed",
	 .kind = FB_ARG_WORD,
	 .arg = "recorded|fast",
	 .def = "recorded",
	 .help = "recorded: each line is sent when it was sent in the "
		 "record, its gaps kept; fast: at once, waiting only where "
		 "the record shows an answer was awaited (after isready, go, "
		 "ping, usermove: for readyok, bestmove, pong, move)",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_speed,
	 .field = REPLAY(fast)},
	{.name = "until",
	 .kind = FB_ARG_TEXT,
	 .arg = "N",
	 .help = "replay up to line N of the file only, and compare the "
		 "answers recorded up to it (the failure after it is not "
		 "asked for)",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_line,
	 .field = REPLAY(until)},
	{.name = "verbose",
	 .short_name = 'v',
	 .help = "also write every line both ways to standard error",
	 .scope = FB_SCOPE_ARGV,
	 .set = set_flag,
	 .field = REPLAY(verbose)},
	{.name = "help",
	 .short_name = 'h',
	 .help = "this text",
	 .scope = FB_SCOPE_ARGV,
	 .set = fb_config_set_action,
	 .field = REPLAY(action),
	 .value = FB_SHOW_HELP},
	{0},
};

const struct fb_option_table fb_config_replay_table = {
	.usage = "Usage: fenbridge replay [OPTIONS] RECORD-OR-LOG -- ENGINE "
		 "[ARGS...]\n"
		 "\n"
		 "Feeds ENGINE the lines fenbridge sent an engine in a flight "
		 "record (or a\n"
		 "--log file: its last session), from the handshake on, in "
		 "order and in the\n"
		 "engine's own protocol (UCI or XBoard, also behind a "
		 "translating pair),\n"
		 "and compares its answers with the recorded ones: the first "
		 "different\n"
		 "bestmove or move, a readyok or pong that does not come, a "
		 "crash and its\n"
		 "signal. A record whose rings overflowed replays from the "
		 "first position\n"
		 "sent in full after its cut, after a made-up handshake.\n",
	.epilog =
		"Exit status: 0 reproduced (the same crash or exit; for a "
		"record of no\n"
		"crash, the same answers), 1 not reproduced, 2 usage error, "
		"a record that\n"
		"cannot be read, or an engine that cannot be started.\n"
		"\n"
		"Example: fenbridge replay /tmp/fenbridge-20260101-120000-42.txt "
		"-- ./engine\n",
	.options = replay_options,
};
