/* SPDX-License-Identifier: MIT */
/*
 * Command line -> struct fb_config, or an error message. Every option has a
 * long form `--name=value` and `--name value`.
 *
 * No I/O in this file.
 */
#include "fenbridge/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char fb_config_usage[] =
	"Usage: fenbridge [OPTIONS] -- ENGINE [ARGS...]\n"
	"       fenbridge convert --to=xfen|shredder [FEN ...]\n"
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
		if (fb_fen_parse_notation(val, n) < 0)
			return bad(err, errlen,
				   "unknown FEN dialect '%s' (xfen or shredder)",
				   val);
	} else if (strcmp(name, "--protocol") == 0) {
		if (strcmp(val, "auto") != 0 && strcmp(val, "uci") != 0 &&
		    strcmp(val, "xboard") != 0)
			return bad(err, errlen,
				   "unknown protocol '%s' (auto, uci or xboard)",
				   val);
		c->protocol = val;
	} else if (strcmp(name, "--gui-castling") == 0 ||
		   strcmp(name, "--engine-castling") == 0) {
		enum fb_castle_notation n = FB_CASTLE_KXR;
		int rc = fb_game_parse_notation(val, &n);
		if (rc < 0)
			return bad(err, errlen,
				   "unknown castling notation '%s' (auto, kxr, "
				   "king or oo)", val);
		*(name[2] == 'g' ? &c->gui_castling : &c->engine_castling) =
			rc == 1 ? FB_CASTLE_AUTO : (int)n;
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
		"--engine-castling", "--log", "--grace"};
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
	if (i >= argc)
		return bad(err, errlen, "%s",
			   "no engine given: fenbridge [OPTIONS] -- ENGINE "
			   "[ARGS...]");
	c->engine_argv = argv + i;
	return 0;
}
