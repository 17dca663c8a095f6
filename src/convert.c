/* SPDX-License-Identifier: MIT */
/*
 * `fenbridge convert`: FENs from the command line or standard input, one per
 * line, translated to the requested dialect. Exactly one output line per
 * input line, so it can run in a pipeline over a large file; every diagnostic
 * goes to stderr with its line (or argument) number.
 */
#include "convert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenbridge/config.h"
#include "fenbridge/fen.h"
#include "platform.h" /* getline on Windows */

struct convert {
	struct fb_fen_style style;
	const char *what; /* "line" or "argument" */
	unsigned long number;
	int status;
	char *out;
	size_t cap;
};

static void
report(struct convert *cv, size_t column0, const struct fb_fen_report *rep)
{
	for (unsigned i = 0; i < rep->ndiag; i++)
		fprintf(stderr, "fenbridge convert: %s %lu, column %zu: %s%s\n",
			cv->what, cv->number, column0 + rep->diag[i].offset + 1,
			rep->error ? "malformed FEN, left unchanged: " : "",
			rep->diag[i].msg);
	if (rep->nmore > 0)
		fprintf(stderr, "fenbridge convert: %s %lu: %u more castling "
			"letters dropped\n", cv->what, cv->number, rep->nmore);
	if (rep->ndiag > 0)
		cv->status = 1;
}

/* Converts one line (without its terminator) and writes it with eol. */
static void
convert_line(struct convert *cv, const char *line, size_t len,
	     const char *eol)
{
	struct fb_fen_report rep;
	size_t b = 0, e = len;
	int n;

	while (b < e && (line[b] == ' ' || line[b] == '\t'))
		b++;
	while (e > b && (line[e - 1] == ' ' || line[e - 1] == '\t'))
		e--;
	if (b == e) {
		fwrite(line, 1, len, stdout);
		fputs(eol, stdout);
		return;
	}
	if (cv->cap < e - b + FB_FEN_GROWTH) {
		free(cv->out);
		cv->cap = (e - b + FB_FEN_GROWTH) * 2;
		cv->out = malloc(cv->cap);
		if (cv->out == NULL) {
			perror("fenbridge convert");
			exit(1);
		}
	}
	n = fb_fen_translate(line + b, e - b, &cv->style, cv->out, cv->cap,
			     &rep);
	report(cv, b, &rep);
	if (rep.error)
		fwrite(line, 1, len, stdout);
	else
		fwrite(cv->out, 1, (size_t)n, stdout);
	fputs(eol, stdout);
}

static void
convert_stream(struct convert *cv, FILE *in)
{
	char *line = NULL;
	size_t size = 0;
	ssize_t n;

	cv->what = "line";
	while ((n = getline(&line, &size, in)) > 0) {
		size_t len = (size_t)n;
		const char *eol = "\n";
		cv->number++;
		if (len > 0 && line[len - 1] == '\n')
			len--;
		if (len > 0 && line[len - 1] == '\r') {
			len--;
			eol = "\r\n";
		}
		convert_line(cv, line, len, eol);
	}
	free(line);
	if (ferror(in)) {
		perror("fenbridge convert: reading standard input");
		cv->status = 1;
	}
}

static int
usage_error(const char *fmt, const char *arg)
{
	fputs("fenbridge convert: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'fenbridge convert --help'.\n", stderr);
	return 2;
}

int
fb_convert_main(int argc, char **argv)
{
	struct convert cv = {.what = "argument"};
	struct fb_convert_config opt;
	char err[512];
	int i;

	if (fb_config_parse_convert(&opt, argc, argv, err, sizeof err) < 0)
		return usage_error("%s", err);
	if (opt.action == FB_SHOW_HELP) {
		static char help[4096];
		fb_config_print_help(&fb_config_convert_table, help, sizeof help);
		fputs(help, stdout);
		return 0;
	}
	cv.style = opt.style;
	i = opt.first;
	if (i == argc) {
		convert_stream(&cv, stdin);
	} else {
		for (; i < argc; i++) {
			cv.number++;
			convert_line(&cv, argv[i], strlen(argv[i]), "\n");
		}
	}
	free(cv.out);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("fenbridge convert: writing standard output");
		return 1;
	}
	return cv.status;
}
