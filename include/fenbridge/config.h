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

#include "fenbridge/fen.h"
#include "fenbridge/filter.h"

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
	enum fb_castle_notation gui_castling;
	enum fb_castle_notation engine_castling;
	const char *log_path;        /* NULL: no log file */
	unsigned grace_ms;           /* wait for the engine after quit/EOF */
	char **engine_argv;          /* NULL-terminated */
	bool engine_from_config;     /* engine_argv came from the INI file */
	const char *engine_dir;      /* engine's working directory, or NULL:
					the folder of its executable */
	const char *engine_file;     /* the engine's program as found, or
					NULL: engine_argv[0] */
	const char *config_path;     /* the INI file read, or NULL */
	const char *name;            /* replaces the engine's name, or NULL */
	struct fb_engine_option *options;
	size_t noptions;
	char **env;                  /* NAME=VALUE added to the engine's */
	size_t nenv;
	void *owned;                 /* allocations of fb_config_parse_ini */
};

/* The option summary printed by --help; matches the README. */
extern const char fb_config_usage[];

/* Fills c with the defaults. */
void
fb_config_init(struct fb_config *c);

/* Frees what fb_config_parse_ini allocated. */
void
fb_config_free(struct fb_config *c);

/*
 * Parses the bridge's command line (argv[0] is the program name): options,
 * then `--` and the engine's command (which replaces the config file's).
 * The strings stay borrowed from argv. Returns 0, or FB_EINVAL with a
 * message for the user in err.
 */
int
fb_config_parse_args(struct fb_config *c, int argc, char **argv, char *err,
		     size_t errlen);

/*
 * Parses INI text read from the file path (named in messages); relative
 * paths in it are taken relative to dir, the file's folder. Section
 * [fenbridge] holds `engine` (a command line split into words as a POSIX
 * shell would: quotes and backslashes, no expansion), `engine-dir`, `name`,
 * and every long command-line option under its own name; sections
 * [options], [forced-options], [hidden-options] and [env] hold NAME = VALUE
 * pairs. Returns 0, or FB_EINVAL with "path:line: reason" in err; then c is
 * not to be used but must still be freed.
 */
int
fb_config_parse_ini(struct fb_config *c, const char *text, const char *path,
		    const char *dir, char *err, size_t errlen);

/*
 * Splits a command line into words as a POSIX shell would (single and
 * double quotes, backslash escapes; no expansion). Writes at most max word
 * pointers into argv (NUL-terminated words stored in buf, of size at least
 * strlen(line) + 1). Returns the number of words, or FB_EINVAL for an
 * unterminated quote or too many words.
 */
int
fb_config_split_words(const char *line, char *buf, char **argv, size_t max);

/* Checks that the merged config can run: an engine is named. Returns 0 or
 * FB_EINVAL with a message. */
int
fb_config_check(const struct fb_config *c, char *err, size_t errlen);

#endif
