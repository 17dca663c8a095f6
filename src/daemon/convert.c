/* SPDX-License-Identifier: MIT */
/*
 * `fenbridge convert`: files of FEN lines, EPD lines or PGN games (or FENs
 * given as arguments) translated to the requested dialect by the streaming
 * scanner of pgn.c. This file does the I/O: large reads into one fixed
 * buffer, output gathered into another and written in large pieces, every
 * diagnostic to stderr with its line (and game, or argument) number. Memory
 * is fixed whatever the input: the three buffers below.
 */
#include "convert.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "fenbridge/pgn.h"
#include "platform.h"

/* Reads and writes of this size run at disk (page cache) speed; the tag
 * buffer bounds one PGN tag section or one FEN/EPD line. */
#define IN_SIZE (256 * 1024)
#define OUT_SIZE (256 * 1024)
#define TAG_SIZE (256 * 1024)

struct convert {
	struct fb_convert_config opt;
	const char *name;     /* the input named in diagnostics, or NULL */
	const char *what;     /* "line" or "argument" */
	unsigned long number; /* the argument's number */
	int status;
	bool write_failed;
	bool tty; /* stdout and stderr are one terminal's */
	size_t nout;
	char out[OUT_SIZE];
	char in[IN_SIZE];
	char tags[TAG_SIZE];
	struct fb_pgn pgn;
};

static void
write_all(struct convert *cv, const char *s, size_t n)
{
	while (n > 0 && !cv->write_failed) {
		ssize_t w = write(STDOUT_FILENO, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			perror("fenbridge convert: writing standard output");
			cv->write_failed = true;
			cv->status = 1;
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

/* Writes the gathered output; the diagnostics gathered in stderr's buffer
 * (see fb_convert_main) go first, so that each still comes before the
 * output that follows it, as if both were written at once. */
static void
flush_out(struct convert *cv)
{
	fflush(stderr);
	write_all(cv, cv->out, cv->nout);
	cv->nout = 0;
}

static void
on_emit(void *ctx, const char *s, size_t n)
{
	struct convert *cv = ctx;

	if (n > sizeof cv->out - cv->nout) {
		flush_out(cv);
		if (n >= sizeof cv->out) {
			write_all(cv, s, n);
			return;
		}
	}
	memcpy(cv->out + cv->nout, s, n);
	cv->nout += n;
}

static void
on_diag(void *ctx, const struct fb_pgn_diag *d)
{
	struct convert *cv = ctx;
	char where[64] = "";

	if (d->kind == FB_PGN_NOTE && !cv->opt.verbose)
		return;
	if (d->kind != FB_PGN_NOTE)
		cv->status = 1;
	/* Our own output first, so that a diagnostic follows what it is
	 * about on a terminal (a write per diagnostic would slow a file). */
	if (cv->tty)
		flush_out(cv);
	if (d->game > 0)
		snprintf(where, sizeof where, ", game %lu", d->game);
	if (d->column > 0)
		snprintf(where + strlen(where), sizeof where - strlen(where),
			 ", column %zu", d->column);
	fprintf(stderr, "fenbridge convert: %s%s%s %lu%s: %s\n",
		cv->name ? cv->name : "", cv->name ? ": " : "", cv->what,
		strcmp(cv->what, "line") == 0 ? d->line : cv->number, where,
		d->msg);
}

static void
start(struct convert *cv, enum fb_pgn_format format)
{
	fb_pgn_init(&cv->pgn, format, cv->opt.select, cv->opt.variant_tag,
		    &cv->opt.style, cv->tags, sizeof cv->tags, on_emit, on_diag,
		    cv);
}

static void
finish(struct convert *cv)
{
	const struct fb_pgn_stats *st = &cv->pgn.stats;

	fb_pgn_finish(&cv->pgn);
	if (cv->pgn.format != FB_PGN_PGN && cv->opt.select != FB_PGN_ALL) {
		struct fb_pgn_diag d = {.kind = FB_PGN_NOTE, .line = 1};
		snprintf(d.msg, sizeof d.msg,
			 "--select applies to PGN "
			 "games only, not to %s",
			 fb_pgn_format_name(cv->pgn.format));
		on_diag(cv, &d);
	}
	if (cv->opt.verbose && strcmp(cv->what, "line") == 0) {
		flush_out(cv);
		if (cv->pgn.format == FB_PGN_PGN)
			fprintf(stderr,
				"fenbridge convert: %s%s%lu games, %lu "
				"written, %lu FEN tags, %lu Variant tags moved, "
				"%lu added\n",
				cv->name ? cv->name : "", cv->name ? ": " : "",
				st->games, st->written, st->fens,
				st->variants_moved, st->variants_added);
		else
			fprintf(stderr,
				"fenbridge convert: %s%s%lu lines, %lu "
				"positions\n",
				cv->name ? cv->name : "", cv->name ? ": " : "",
				cv->pgn.line - 1, st->fens);
	}
}

static void
convert_fd(struct convert *cv, int fd)
{
	start(cv, cv->opt.format);
	for (;;) {
		ssize_t n = read(fd, cv->in, sizeof cv->in);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			flush_out(cv);
			fprintf(stderr, "fenbridge convert: %s: %s\n",
				cv->name ? cv->name : "standard input",
				strerror(errno));
			cv->status = 1;
			break;
		}
		if (n == 0)
			break;
		fb_pgn_push(&cv->pgn, cv->in, (size_t)n);
		if (cv->write_failed)
			return;
	}
	finish(cv);
}

static void
convert_file(struct convert *cv, const char *path)
{
	int fd;

	if (strcmp(path, "-") == 0) {
		cv->name = NULL;
		convert_fd(cv, STDIN_FILENO);
		return;
	}
	cv->name = path;
	fd = fb_platform_open_read(path);
	if (fd < 0) {
		flush_out(cv);
		fprintf(stderr, "fenbridge convert: %s: %s\n", path,
			strerror(errno));
		cv->status = 1;
		return;
	}
#ifdef POSIX_FADV_SEQUENTIAL
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	convert_fd(cv, fd);
	close(fd);
}

/* A FEN given as an argument: one line out, as before files existed. */
static void
convert_argument(struct convert *cv, const char *fen)
{
	cv->what = "argument";
	cv->name = NULL;
	start(cv, FB_PGN_FEN);
	fb_pgn_push(&cv->pgn, fen, strlen(fen));
	fb_pgn_push(&cv->pgn, "\n", 1);
	fb_pgn_finish(&cv->pgn);
	cv->what = "line";
}

/* An operand is a file when one of that name exists, or when it has no
 * blank (a FEN has at least four fields); otherwise it is a FEN. */
static bool
is_file(const char *arg)
{
	return fb_platform_file_kind(arg) != FB_FILE_NONE ||
	       strpbrk(arg, " \t") == NULL;
}

__attribute__((format(printf, 1, 2))) static int
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("fenbridge convert: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'fenbridge convert --help'.\n", stderr);
	return 2;
}

int
fb_convert_main(int argc, char **argv)
{
	struct convert *cv = calloc(1, sizeof *cv);
	char err[512];
	int status;

	if (cv == NULL) {
		perror("fenbridge convert");
		return 1;
	}
	if (fb_config_parse_convert(&cv->opt, argc, argv, err, sizeof err) <
	    0) {
		free(cv);
		return usage_error("%s", err);
	}
	if (cv->opt.action == FB_SHOW_HELP) {
		static char help[8192];
		fb_config_print_help(&fb_config_convert_table, help,
				     sizeof help);
		fputs(help, stdout);
		free(cv);
		return 0;
	}
	cv->what = "line";
	cv->tty = isatty(STDOUT_FILENO) && isatty(STDERR_FILENO);
	/* An unbuffered stderr costs a write per diagnostic, and a file of
	 * games can have one every few games; flush_out empties the buffer
	 * before each write of output. A terminal gets each line at once. */
	if (!isatty(STDERR_FILENO)) {
		static char errbuf[16 * 1024];
		setvbuf(stderr, errbuf, _IOFBF, sizeof errbuf);
	}
	if (cv->opt.first == argc)
		convert_file(cv, "-");
	for (int i = cv->opt.first; i < argc && !cv->write_failed; i++) {
		cv->number++;
		if (is_file(argv[i]))
			convert_file(cv, argv[i]);
		else
			convert_argument(cv, argv[i]);
	}
	flush_out(cv);
	fflush(stderr);
	status = cv->status;
	free(cv);
	return status;
}
