/* SPDX-License-Identifier: MIT */
/*
 * `fenbridge convert` on a large PGN file of Chess960 games, against the
 * physical limit (`cat` of the same file) and against Debian's pgn-extract
 * doing its nearest job (reading every game and writing it again; and
 * picking the games with a SetUp tag, like --select=setup), all in one run
 * on the same file in the page cache. Prints MB/s, the ratios, and
 * fenbridge's peak RSS; then fenbridge on a file of one line without a
 * newline (a tag that never ends), for its memory.
 *
 *   bench_pgn FENBRIDGE SAMPLE.pgn [MB]
 *
 * SAMPLE.pgn (tests/data/chess960_stockfish.pgn: Stockfish's games, in
 * XBoard's saved-game format, Shredder-FEN) is repeated up to MB (default
 * 256) in a temporary file. pgn-extract (/usr/games) is skipped if missing.
 */
#define _DEFAULT_SOURCE /* wait4 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PGN_EXTRACT "/usr/games/pgn-extract"

struct result {
	double seconds;
	long maxrss_kb;
	int status;
};

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Runs argv with stdout and stderr to /dev/null; best of three. */
static struct result
run(char *const argv[])
{
	struct result best = {1e9, 0, -1};

	for (int k = 0; k < 3; k++) {
		struct rusage ru;
		int status;
		double t0 = now();
		pid_t pid = fork();
		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);
			dup2(fd, 1);
			dup2(fd, 2);
			execv(argv[0], argv);
			_exit(127);
		}
		if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) {
			perror("bench_pgn");
			exit(1);
		}
		double t = now() - t0;
		if (t < best.seconds)
			best.seconds = t;
		if (ru.ru_maxrss > best.maxrss_kb)
			best.maxrss_kb = ru.ru_maxrss;
		best.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	}
	return best;
}

static void
fill(const char *path, const char *sample, size_t n, size_t total)
{
	FILE *f = fopen(path, "wb");
	size_t done = 0;

	if (f == NULL) {
		perror(path);
		exit(1);
	}
	while (done < total) {
		fwrite(sample, 1, n, f);
		done += n;
	}
	if (fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

int
main(int argc, char **argv)
{
	char file[] = "/tmp/bench_pgn_XXXXXX",
	     line[] = "/tmp/bench_line_XXXXXX";
	size_t mb = argc > 3 ? strtoul(argv[3], NULL, 10) : 256, n;
	char *sample, *fb;
	FILE *f;
	double size, cat_s, extract_s = 0;
	struct stat st;
	struct result r;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: bench_pgn FENBRIDGE SAMPLE.pgn [MB]\n");
		return 2;
	}
	fb = argv[1];
	if ((f = fopen(argv[2], "rb")) == NULL || fstat(fileno(f), &st) < 0) {
		perror(argv[2]);
		return 1;
	}
	sample = malloc((size_t)st.st_size);
	n = fread(sample, 1, (size_t)st.st_size, f);
	fclose(f);
	if ((fd = mkstemp(file)) < 0 || (close(fd), 0)) {
		perror("mkstemp");
		return 1;
	}
	fill(file, sample, n, mb << 20);
	stat(file, &st);
	size = (double)st.st_size / 1e6;
	printf("bench_pgn: %.0f MB of Chess960 games (%s repeated)\n", size,
	       argv[2]);

	run((char *const[]){"/bin/cat", file, NULL}); /* into the page cache */
	r = run((char *const[]){"/bin/cat", file, NULL});
	cat_s = r.seconds;
	printf("%-44s %7.0f MB/s\n", "cat", size / cat_s);
	if (access(PGN_EXTRACT, X_OK) == 0) {
		r = run((char *const[]){PGN_EXTRACT, "-s", "-o", "/dev/null",
					file, NULL});
		extract_s = r.seconds;
		printf("%-44s %7.0f MB/s  %5.2fx cat\n",
		       "pgn-extract -s (read and write every game)",
		       size / r.seconds, cat_s / r.seconds);
		r = run((char *const[]){PGN_EXTRACT, "-s", "--onlysetuptags",
					"-o", "/dev/null", file, NULL});
		printf("%-44s %7.0f MB/s  %5.2fx cat\n",
		       "pgn-extract -s --onlysetuptags", size / r.seconds,
		       cat_s / r.seconds);
	} else {
		printf("pgn-extract: not installed (%s), skipped\n",
		       PGN_EXTRACT);
	}
	static const char *const jobs[][2] = {
		{"--to=xfen", NULL},
		{"--to=shredder", NULL},
		{"--to=xfen", "--select=setup"},
		{"--to=xfen", "--select=chess960"},
	};
	for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++) {
		char label[64];
		char *args[6] = {fb, "convert", (char *)jobs[j][0], NULL};
		int k = 3;
		if (jobs[j][1] != NULL)
			args[k++] = (char *)jobs[j][1];
		args[k++] = file;
		args[k] = NULL;
		r = run(args);
		snprintf(label, sizeof label, "fenbridge convert %s%s%s",
			 jobs[j][0], jobs[j][1] ? " " : "",
			 jobs[j][1] ? jobs[j][1] : "");
		printf("%-44s %7.0f MB/s  %5.2fx cat", label, size / r.seconds,
		       cat_s / r.seconds);
		if (extract_s > 0)
			printf("  %5.1fx pgn-extract", extract_s / r.seconds);
		printf("  RSS %ld KiB  exit %d\n", r.maxrss_kb, r.status);
	}

	/* One line of mb MiB without a newline: a tag that never ends. */
	if ((fd = mkstemp(line)) < 0 || (close(fd), 0)) {
		perror("mkstemp");
		return 1;
	}
	memset(sample, 'x', n);
	memcpy(sample, "[Event \"", 8);
	fill(line, sample, n, mb << 20);
	r = run((char *const[]){fb, "convert", "--to=xfen", line, NULL});
	printf("%-44s %7.0f MB/s  RSS %ld KiB  exit %d\n",
	       "fenbridge on one line without a newline", size / r.seconds,
	       r.maxrss_kb, r.status);
	unlink(line);
	unlink(file);
	free(sample);
	return 0;
}
