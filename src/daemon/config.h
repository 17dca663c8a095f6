/* SPDX-License-Identifier: MIT */
/*
 * fenbridge's settings: defaults, then the INI file (config file beside the
 * executable or --config), then the command line, each overriding the last.
 *
 * Pure code: no I/O. The caller reads the file and prints what the parser
 * returns. Strings from argv are borrowed; strings from the INI text are
 * copied into the config and freed by fb_config_free().
 */
#ifndef FENBRIDGE_CONFIG_H
#define FENBRIDGE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "cpu.h"
#include "fenbridge/fen.h"
#include "fenbridge/game.h"
#include "fenbridge/pgn.h"

/* The engine options read from [options] and the like: a session type
 * (filter.h), which config.c fills; a pointer here needs no more. */
struct fb_engine_option;

#define FB_CONFIG_DEFAULT_GRACE_MS 5000

enum fb_config_action {
	FB_RUN_BRIDGE,  /* relay between the GUI and the engine */
	FB_SHOW_HELP,   /* --help */
	FB_SHOW_VERSION /* --version */
};

struct fb_config {
	enum fb_config_action action;
	enum fb_notation engine_fen; /* default X-FEN */
	bool engine_fen_auto;        /* --engine-fen=auto (the default) */
	enum fb_notation gui_fen;    /* default Shredder-FEN */
	const char *protocol;        /* "auto", "uci" or "xboard" */
	const char *engine_protocol; /* "same", "uci", "xboard" or "auto" */
	enum fb_castle_notation gui_castling;
	enum fb_castle_notation engine_castling;
	int referee;             /* enum fb_referee_mode (referee.h) */
	const char *log_path;    /* NULL: no log file */
	unsigned grace_ms;       /* wait for the engine after quit/EOF */
	unsigned restarts;       /* --restart: per game; 0: none */
	char **engine_argv;      /* NULL-terminated */
	bool engine_from_config; /* engine_argv came from the INI file */
	const char *engine_line; /* the INI's engine line as written, or
					NULL */
	const char *engine_dir;  /* engine's working directory, or NULL:
					the folder of its executable */
	const char *engine_file; /* the engine's program as found, or
					NULL: engine_argv[0] */
	/* The INI's builds of the engine by instruction set (engine.avx512
	 * ... engine.popcnt), indexed by enum fb_cpu_build: the words as
	 * engine_argv holds them and the line as written; NULL when not
	 * given. fb_cpu_pick_engine (cpu.h) makes one of them the engine. */
	char **build_argv[FB_CPU_NBUILDS];
	const char *build_line[FB_CPU_NBUILDS];
	const char *config_path; /* the INI file read, or NULL */
	const char *name;        /* replaces the engine's name, or NULL */
	bool normalize;          /* --normalize */
	struct fb_engine_option *options;
	size_t noptions;
	char **env; /* NAME=VALUE added to the engine's */
	size_t nenv;
	void *owned; /* allocations of fb_config_parse_ini */
};

/*
 * One table describes every option once: its names, its value, its default,
 * its help text, where it may be given, and how it sets the config. The
 * command-line parsers, the INI reader's [fenbridge] keys and --help all
 * read it; the README's table and the man page are checked against --help.
 */
enum fb_option_arg {
	FB_ARG_NONE,    /* a switch: --help, --keep-ep */
	FB_ARG_WORD,    /* one of the values in arg: "auto|xfen|shredder" */
	FB_ARG_TEXT,    /* free text, named by arg: "SECONDS", "NAME" */
	FB_ARG_PATH,    /* a file or folder; in an INI file, relative to it */
	FB_ARG_COMMAND, /* a command line, split into words (see
			   fb_config_split_words) */
};

enum fb_option_scope {
	FB_SCOPE_ARGV = 1, /* a command-line option --name (and -s) */
	FB_SCOPE_INI = 2,  /* a key of the INI file's [fenbridge] section */
};

struct fb_option;

/*
 * Sets the option o in cfg (the struct its table is for) to val (NULL for
 * FB_ARG_NONE). dir is the INI file's folder when the value comes from one,
 * NULL from the command line. val stays valid as long as cfg. Returns 0, or
 * FB_EINVAL with a reason in err that does not name where val came from.
 */
typedef int (*fb_option_set_fn)(void *cfg, const struct fb_option *o,
				const char *val, const char *dir, char *err,
				size_t errlen);

struct fb_option {
	const char *name; /* long option and INI key; NULL ends a table */
	char short_name;  /* -h; '\0' for none */
	enum fb_option_arg kind;
	const char *arg;  /* shown as --name=ARG; NULL for FB_ARG_NONE */
	const char *def;  /* the default, shown as "(default DEF)", or NULL */
	const char *help; /* one paragraph; --help wraps it */
	unsigned scope;   /* enum fb_option_scope bits */
	fb_option_set_fn set;
	size_t field; /* offsetof the field set, for shared setters */
	int value;    /* a constant to store there (--help's action) */
};

struct fb_option_table {
	const char *usage;  /* --help's text before "Options:" */
	const char *epilog; /* --help's text after the options */
	const struct fb_option *options;
};

/* fenbridge's own options and INI keys; `fenbridge convert`'s options. */
extern const struct fb_option_table fb_config_bridge_table;
extern const struct fb_option_table fb_config_convert_table;
extern const struct fb_option_table fb_config_check_table;
extern const struct fb_option_table fb_config_replay_table;

/*
 * Writes t's --help text (usage, options, epilog) to out as a C string,
 * truncated to cap - 1 bytes. Returns its whole length, like snprintf.
 */
size_t
fb_config_print_help(const struct fb_option_table *t, char *out, size_t cap);

/*
 * Parses argv against t into cfg, the struct the table is for: every
 * FB_SCOPE_ARGV option as `--name=value`, `--name value` or `-s value`, up to
 * `--` or the first argument that is not an option. Stops at an option whose
 * setter sets an action (--help, --version) so that later errors do not hide
 * it. Can run any number of times (it resets getopt's state). Sets *first to
 * the index of the first operand (argc if none). Returns 0, or FB_EINVAL with
 * a message for the user in err.
 */
int
fb_config_parse_table(const struct fb_option_table *t, void *cfg, int argc,
		      char **argv, int *first, char *err, size_t errlen);

/* What `fenbridge convert` was asked to do. */
struct fb_convert_config {
	enum fb_config_action action;        /* FB_RUN_BRIDGE: convert */
	struct fb_fen_style style;           /* --to, --keep-ep, --variant */
	bool have_to;                        /* --to was given */
	enum fb_pgn_format format;           /* --format (default auto) */
	enum fb_pgn_select select;           /* --select (default all) */
	enum fb_pgn_variant_tag variant_tag; /* --variant-tag (default auto) */
	bool verbose;                        /* --verbose */
	int first; /* argv index of the first operand */
};

/*
 * Parses `fenbridge convert`'s argv (argv[0] is "convert") into c: defaults
 * first, then the options; the FENs start at c->first. A missing --to is an
 * error unless --help was asked for. Returns 0, or FB_EINVAL with a message.
 */
int
fb_config_parse_convert(struct fb_convert_config *c, int argc, char **argv,
			char *err, size_t errlen);

/* What `fenbridge check` was asked to do. */
struct fb_check_config {
	enum fb_config_action action; /* FB_RUN_BRIDGE: run the check */
	const char *protocol;         /* "auto", "uci" or "xboard" */
	unsigned timeout_ms;          /* --timeout: for an answer */
	unsigned search_ms;           /* --search-timeout: for a move */
	int json;                     /* --format: 0 text, 1 json */
	bool verbose;                 /* --verbose: the lines both ways */
	int first;                    /* argv index of the engine's command */
};

/*
 * Parses `fenbridge check`'s argv (argv[0] is "check") into c: defaults,
 * the options, then `--` and the engine's command from c->first, which is
 * required unless --help was asked for. Returns 0, or FB_EINVAL with a
 * message.
 */
int
fb_config_parse_check(struct fb_check_config *c, int argc, char **argv,
		      char *err, size_t errlen);

/* What `fenbridge replay` was asked to do. */
struct fb_replay_config {
	enum fb_config_action action; /* FB_RUN_BRIDGE: replay */
	int fast;                     /* --speed: 0 recorded, 1 fast */
	unsigned until;               /* --until: the last line, 0 all */
	bool verbose;                 /* --verbose: the lines both ways */
	const char *record;           /* RECORD-OR-LOG */
	int first;                    /* argv index of the engine's command */
};

/*
 * Parses `fenbridge replay`'s argv (argv[0] is "replay") into c: defaults,
 * the options, the record, then `--` (or not) and the engine's command
 * from c->first; both are required unless --help was asked for. Returns 0,
 * or FB_EINVAL with a message.
 */
int
fb_config_parse_replay(struct fb_replay_config *c, int argc, char **argv,
		       char *err, size_t errlen);

/* Fills c with the defaults. */
void
fb_config_init(struct fb_config *c);

/* Frees what fb_config_parse_ini allocated. */
void
fb_config_free(struct fb_config *c);

/*
 * Parses the bridge's command line (argv[0] is the program name): options,
 * then `--` (or the first word that is not an option) and the engine's
 * command, which replaces the config file's. The strings stay borrowed from
 * argv. Runs fb_config_parse_table on fb_config_bridge_table: see there.
 * Returns 0, or FB_EINVAL with a message for the user in err.
 */
int
fb_config_parse_args(struct fb_config *c, int argc, char **argv, char *err,
		     size_t errlen);

/*
 * Parses INI text read from the file path (named in messages); relative
 * paths in it are taken relative to dir, the file's folder. Section
 * [fenbridge] holds the FB_SCOPE_INI keys of fb_config_bridge_table:
 * `engine` (a command line split by fb_config_split_words), `engine-dir`,
 * `name`, and every long
 * command-line option that sets the bridge under its own name; sections
 * [options], [forced-options], [hidden-options] and [env] hold NAME = VALUE
 * pairs. Returns 0, or FB_EINVAL with "path:line: reason" in err; then c is
 * not to be used but must still be freed.
 */
int
fb_config_parse_ini(struct fb_config *c, const char *text, const char *path,
		    const char *dir, char *err, size_t errlen);

/*
 * Splits a command line into words, by one rule on every system, so that a
 * Windows path needs no doubled backslashes: words are separated by blanks
 * (space, tab); '...' keeps everything inside as it is; "..." keeps blanks,
 * and inside it \" is a quote and \\ a backslash; outside quotes \", \'
 * and \\ are the character after the backslash. Every other backslash is
 * literal (C:\Engines\x.exe, ..\x). No expansion. Writes at most max word
 * pointers into argv (NUL-terminated words stored in buf, of size at least
 * strlen(line) + 1). Returns the number of words, or FB_EINVAL for an
 * unterminated quote or too many words.
 */
int
fb_config_split_words(const char *line, char *buf, char **argv, size_t max);

/*
 * Sets c's engine command line to program followed by the words of args
 * (split as above); both are copied into c. For a program name with blanks
 * found on disk (main.c). Returns 0, or FB_EINVAL (an unterminated quote,
 * out of memory).
 */
int
fb_config_set_engine(struct fb_config *c, const char *program,
		     const char *args);

/* Checks that the merged config can run: an engine is named. Returns 0 or
 * FB_EINVAL with a message. */
int
fb_config_check(const struct fb_config *c, char *err, size_t errlen);

#endif
