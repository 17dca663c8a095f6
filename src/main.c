/* SPDX-License-Identifier: MIT */
/*
 * fenbridge's entry point: picks the subcommand (convert) or the bridge,
 * and turns what happened into the exit status.
 */
#include <stdio.h>
#include <string.h>

#include "convert.h"
#include "fb_version.h"

static const char usage_text[] =
	"Usage: fenbridge convert --to=xfen|shredder [FEN ...]\n"
	"\n"
	"  convert        translate FENs between X-FEN and Shredder-FEN\n"
	"                 ('fenbridge convert --help' for details)\n"
	"  -h, --help     this text\n"
	"  -V, --version  print the version\n";

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "convert") == 0)
		return fb_convert_main(argc - 1, argv + 1);
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 ||
			 strcmp(argv[1], "-h") == 0)) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc > 1 && (strcmp(argv[1], "--version") == 0 ||
			 strcmp(argv[1], "-V") == 0)) {
		printf("fenbridge %s\n", FB_VERSION);
		return 0;
	}
	fputs(usage_text, stderr);
	return 2;
}
