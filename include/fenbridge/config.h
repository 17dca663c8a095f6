/* SPDX-License-Identifier: MIT */
/*
 * fenbridge's settings and the command line that sets them.
 *
 * Pure code: no I/O. The caller prints what the parser returns.
 */
#ifndef FENBRIDGE_CONFIG_H
#define FENBRIDGE_CONFIG_H

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
	enum fb_notation gui_fen;    /* default Shredder-FEN */
	const char *protocol;        /* "auto", "uci" or "xboard" */
	int gui_castling;    /* FB_CASTLE_AUTO or an enum fb_castle_notation */
	int engine_castling; /* likewise */
	const char *log_path;        /* NULL: no log file */
	unsigned grace_ms;           /* wait for the engine after quit/EOF */
	char **engine_argv;          /* borrowed from argv, NULL-terminated */
};

/* The option summary printed by --help; matches the README. */
extern const char fb_config_usage[];

/* Fills c with the defaults. */
void
fb_config_init(struct fb_config *c);

/*
 * Parses the bridge's command line (argv[0] is the program name): options,
 * then `--` and the engine's command. The strings stay borrowed from argv.
 * Returns 0, or FB_EINVAL with a message for the user in err.
 */
int
fb_config_parse_args(struct fb_config *c, int argc, char **argv, char *err,
		     size_t errlen);

#endif
