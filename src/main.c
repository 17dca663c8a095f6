/* SPDX-License-Identifier: MIT */
/*
 * fenbridge's entry point: config -> log -> bridge -> exit status, or the
 * `convert` subcommand.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bridge.h"
#include "convert.h"
#include "fb_version.h"
#include "fenbridge/config.h"
#include "log.h"

int
main(int argc, char **argv)
{
	struct fb_config cfg;
	char err[256];
	int rc;

	if (argc > 1 && strcmp(argv[1], "convert") == 0)
		return fb_convert_main(argc - 1, argv + 1);

	fb_config_init(&cfg);
	if (fb_config_parse_args(&cfg, argc, argv, err, sizeof err) < 0) {
		fprintf(stderr, "fenbridge: %s\nTry 'fenbridge --help'.\n",
			err);
		return 2;
	}
	if (cfg.action == FB_SHOW_HELP) {
		fputs(fb_config_usage, stdout);
		return 0;
	}
	if (cfg.action == FB_SHOW_VERSION) {
		printf("fenbridge %s\n", FB_VERSION);
		return 0;
	}

	/* A GUI that goes away must not kill us before the engine is told. */
	signal(SIGPIPE, SIG_IGN);
	if (cfg.log_path != NULL && (rc = fb_log_open(cfg.log_path)) < 0)
		fprintf(stderr, "fenbridge: warning: cannot open log file "
			"'%s': %s; continuing without a log\n", cfg.log_path,
			strerror(-rc));
	fb_log_msg(FB_LOG_INFO, "fenbridge %s: engine '%s', protocol %s, "
		   "engine FEN %s, GUI FEN %s", FB_VERSION, cfg.engine_argv[0],
		   cfg.protocol,
		   cfg.engine_fen == FB_XFEN ? "X-FEN" : "Shredder-FEN",
		   cfg.gui_fen == FB_XFEN ? "X-FEN" : "Shredder-FEN");
	if (isatty(STDIN_FILENO))
		fprintf(stderr, "fenbridge: relaying to '%s'; type engine "
			"commands (uci, position fen ..., d, quit). FENs go to "
			"the engine as %s.\n", cfg.engine_argv[0],
			cfg.engine_fen == FB_XFEN ? "X-FEN" : "Shredder-FEN");
	rc = fb_bridge_run(&cfg);
	fb_log_close();
	return rc;
}
