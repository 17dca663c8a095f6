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

#include "fenbridge/fen.h"

static const char usage_text[] =
	"Usage: fenbridge convert --to=xfen|shredder [--keep-ep] [--variant=NAME]"
	" [FEN ...]\n"
	"\n"
	"Translates the castling field of each FEN between X-FEN (KQkq, a file\n"
	"letter only for an inner rook) and Shredder-FEN (always rook files,\n"
	"HAha). Either dialect, or a mix, is read; 8x8 and 10x8 boards.\n"
	"\n"
	"With FEN arguments, prints each translation on its own line. Without,\n"
	"reads standard input, one FEN per line (LF or CRLF), and writes exactly\n"
	"one line per input line: the translation, or a malformed FEN unchanged.\n"
	"Blank lines pass through as blank lines.\n"
	"\n"
	"Options:\n"
	"  --to=xfen|shredder  dialect to write (required)\n"
	"  --keep-ep           X-FEN: keep an en-passant square even when no pawn\n"
	"                      can capture there (default: write '-')\n"
	"  --variant=NAME      X-FEN: add the castling prefix of a variant that\n"
	"                      has one (janus: 's', embassy: 'm')\n"
	"  -h, --help          this text\n"
	"\n"
	"Diagnostics go to standard error, naming the line or argument number.\n"
	"An impossible castling right (no rook where it points, king off its\n"
	"back rank) is dropped with a warning; a malformed FEN is left unchanged.\n"
	"\n"
	"Exit status: 0 every FEN was clean, 1 any FEN had a diagnostic, 2 usage.\n"
	"\n"
	"Example:\n"
	"  $ fenbridge convert --to=shredder \\\n"
	"      'rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gkq - 4 11'\n"
	"  rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - 4 11\n";

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
	bool have_to = false;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
		const char *a = argv[i], *val = NULL;
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage_text, stdout);
			return 0;
		}
		if (strcmp(a, "--keep-ep") == 0) {
			cv.style.keep_ep = true;
			continue;
		}
		if (strncmp(a, "--to=", 5) == 0) {
			val = a + 5;
		} else if (strcmp(a, "--to") == 0) {
			if (++i == argc)
				return usage_error("%s needs a value", a);
			val = argv[i];
		}
		if (val != NULL) {
			if (fb_fen_parse_notation(val, &cv.style.notation) < 0)
				return usage_error("unknown dialect '%s' (xfen "
						   "or shredder)", val);
			have_to = true;
			continue;
		}
		if (strncmp(a, "--variant=", 10) == 0) {
			static const char *const plain[] = {
				"normal", "chess", "fischerandom", "chess960",
				"capablanca", "caparandom", "gothic"};
			bool known = false;
			val = a + 10;
			for (size_t k = 0; k < sizeof plain / sizeof plain[0];
			     k++)
				known |= strcmp(val, plain[k]) == 0;
			if (strcmp(val, "janus") == 0)
				cv.style.prefix = 's';
			else if (strcmp(val, "embassy") == 0)
				cv.style.prefix = 'm';
			else if (!known)
				return usage_error("unknown variant '%s'", val);
			continue;
		}
		return usage_error("unknown option '%s'", a);
	}
	if (!have_to)
		return usage_error("%s", "--to=xfen or --to=shredder is required");
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
