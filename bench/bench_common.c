/* SPDX-License-Identifier: MIT */
/*
 * bench_bridge's helpers, the streams its parts read (generated once into
 * unlinked files before any timing), and the GUI's sessions: the process
 * behind the GUI (fenbridge or a relay, with the engine behind it) on two
 * pipes, its lines, its figures from /proc, its end.
 */
/* MAP_POPULATE on Linux (glibc hides it under plain POSIX); the rest is
 * POSIX, plus /proc for the figures. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE 1
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

char self_path[PATH_MAX];
#define NWATCHED 4
static volatile pid_t watched_pid[NWATCHED]; /* killed when a run hangs */

void
die(const char *fmt, ...)
{
	va_list ap;

	fputs("bench_bridge: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* write(2) until done: 0, or -1 (errno set). */
int
write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

void
on_alarm(int sig)
{
	static const char msg[] = "bench_bridge: a run hung (no progress "
				  "for the session timeout): lines lost\n";
	(void)sig;
	for (int i = 0; i < NWATCHED; i++)
		if (watched_pid[i] > 0)
			kill(watched_pid[i], SIGKILL);
	if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0)
		_exit(1);
	_exit(1);
}

uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint64_t rng_state = SEED;

static uint64_t
rng_next(void)
{
	return mix64(rng_state += UINT64_C(0x9e3779b97f4a7c15));
}

/* Uniform enough in [0, n) for small n. */
unsigned
rnd(unsigned n)
{
	return (unsigned)((rng_next() >> 32) % n);
}

char *
put_s(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

char *
put_u(char *p, uint64_t v)
{
	char t[24];
	int n = 0;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (n > 0)
		*p++ = t[--n];
	return p;
}

#define STAGE_SIZE (1024 * 1024)

void
stream_create(struct stream *s)
{
	const char *dirs[] = {"/dev/shm", getenv("TMPDIR"), "/tmp"};
	char tmpl[PATH_MAX];

	memset(s, 0, sizeof *s);
	s->fd = -1;
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0] && s->fd < 0; i++) {
		struct stat st;
		if (dirs[i] == NULL || stat(dirs[i], &st) < 0 ||
		    !S_ISDIR(st.st_mode))
			continue;
		snprintf(tmpl, sizeof tmpl, "%s/bench_bridge.XXXXXX", dirs[i]);
		s->fd = mkstemp(tmpl);
		if (s->fd >= 0)
			unlink(tmpl);
	}
	if (s->fd < 0)
		die("cannot create a temporary file: %s", strerror(errno));
	fcntl(s->fd, F_SETFD, FD_CLOEXEC);
	if ((s->stage = malloc(STAGE_SIZE)) == NULL)
		die("out of memory");
	snprintf(s->path, sizeof s->path, "/proc/%ld/fd/%d", (long)getpid(),
		 s->fd);
}

static void
stream_flush(struct stream *s)
{
	if (write_all(s->fd, s->stage, s->slen) < 0)
		die("writing a temporary file: %s", strerror(errno));
	s->slen = 0;
}

/* Room for n more bytes; the stream's offset of the returned pointer is
 * s->len. */
char *
stream_at(struct stream *s, size_t n)
{
	if (n > STAGE_SIZE)
		die("internal error: stream write of %zu bytes", n);
	if (s->slen + n > STAGE_SIZE)
		stream_flush(s);
	return s->stage + s->slen;
}

/* The bytes up to end (from stream_at) are the stream's. */
void
stream_wrote(struct stream *s, const char *end)
{
	size_t n = (size_t)(end - s->stage);

	s->len += n - s->slen;
	s->slen = n;
}

/* Maps p[0..n) from fd read-only, every page present (no page fault left
 * for the timed part). */
const char *
map_stream(int fd, size_t n)
{
	int flags = MAP_SHARED;
	volatile char sink = 0;
	const char *p;

#ifdef MAP_POPULATE
	flags |= MAP_POPULATE;
#endif
	if (n == 0)
		return "";
	p = mmap(NULL, n, PROT_READ, flags, fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	for (size_t i = 0; i < n; i += 4096)
		sink ^= p[i];
	(void)sink;
	return p;
}

/* Done writing: maps the stream read-only. */
void
stream_seal(struct stream *s)
{
	stream_flush(s);
	free(s->stage);
	s->stage = NULL;
	if ((s->data = map_stream(s->fd, s->len)) == NULL)
		die("mmap: %s", strerror(errno));
}

const char *fenbridge_path;
const char *bench_wrap;
int failures; /* runs that lost, reordered or corrupted lines */

const char *const runner_name[NRUNNERS] = {"relay", "uv relay", "fenbridge",
					   "line relay"};
const char *const runner_tag[NRUNNERS] = {"relay", "uvrelay", "fenbridge",
					  "linerelay"};

/* Starts the engine in mode behind who; extra: fenbridge's options (NULL
 * or NULL-terminated), before the `--`. */
void
session_start(struct session *s, enum runner who, const char *mode,
	      const struct stream *file, size_t len, unsigned long rep,
	      const char *const *extra)
{
	int in[2], out[2];
	char lenstr[32], repstr[32];
	const char *argv[24];
	int n = 0;

	memset(s, 0, sizeof *s);
	s->name = runner_name[who];
	if ((s->buf = malloc(SBUF)) == NULL)
		die("out of memory");
	snprintf(lenstr, sizeof lenstr, "%zu", len);
	if (bench_wrap != NULL)
		argv[n++] = bench_wrap;
	if (who == RUN_BRIDGE) {
		argv[n++] = fenbridge_path;
		for (; extra != NULL && *extra != NULL && n < 16; extra++)
			argv[n++] = *extra;
	} else {
		argv[n++] = self_path;
		argv[n++] = who == RUN_UVRELAY     ? "--uvrelay"
			    : who == RUN_LINERELAY ? "--linerelay"
						   : "--relay";
	}
	argv[n++] = "--";
	argv[n++] = self_path;
	argv[n++] = "--engine";
	argv[n++] = mode;
	if (file != NULL) {
		argv[n++] = file->path;
		argv[n++] = lenstr;
		snprintf(repstr, sizeof repstr, "%lu", rep);
		if (rep > 1)
			argv[n++] = repstr;
	}
	argv[n] = NULL;
	if (pipe(in) < 0 || pipe(out) < 0)
		die("pipe: %s", strerror(errno));
	fcntl(in[1], F_SETFD, FD_CLOEXEC);
	fcntl(out[0], F_SETFD, FD_CLOEXEC);
	s->pid = fork();
	if (s->pid < 0)
		die("fork: %s", strerror(errno));
	if (s->pid == 0) {
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		close(in[0]);
		close(out[1]);
		signal(SIGPIPE, SIG_DFL);
		/* for a --wrap script: callgrind names its file after it */
		setenv("BENCH_BRIDGE_RUNNER", runner_tag[who], 1);
		execv(argv[0], (char *const *)argv);
		fprintf(stderr, "bench_bridge: %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	s->to = in[1];
	s->from = out[0];
	for (int i = 0; i < NWATCHED; i++)
		if (watched_pid[i] <= 0) {
			watched_pid[i] = s->pid;
			break;
		}
	alarm(SESSION_TIMEOUT_S);
}

void
session_fail(struct session *s, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bench_bridge: %s: ", s->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (!s->failed)
		failures++;
	s->failed = true;
}

void
send_line(struct session *s, const char *line)
{
	if (write_all(s->to, line, strlen(line)) < 0 ||
	    write_all(s->to, "\n", 1) < 0)
		session_fail(s, "writing '%s': %s", line, strerror(errno));
}

/* The next line (without its newline, cut to cap - 1 bytes) into out.
 * False (and the session failed) at EOF. */
bool
next_line(struct session *s, char *out, size_t cap)
{
	for (;;) {
		char *nl = memchr(s->buf, '\n', s->len);
		if (nl != NULL) {
			size_t n = (size_t)(nl - s->buf);
			size_t k = n < cap - 1 ? n : cap - 1;
			memcpy(out, s->buf, k);
			out[k] = '\0';
			s->len -= n + 1;
			memmove(s->buf, nl + 1, s->len);
			return true;
		}
		if (s->len == SBUF) {
			session_fail(s, "a line of %d bytes", SBUF);
			return false;
		}
		{
			ssize_t r =
				read(s->from, s->buf + s->len, SBUF - s->len);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				session_fail(s, "end of output");
				return false;
			}
			s->len += (size_t)r;
		}
	}
}

/*
 * Reads lines until one equal to want; a line starting with capture is
 * copied to cbuf. False (and the session failed) at EOF.
 */
bool
expect_line(struct session *s, const char *want, const char *capture,
	    char *cbuf, size_t ccap)
{
	char line[1024];

	while (next_line(s, line, sizeof line)) {
		if (capture != NULL &&
		    strncmp(line, capture, strlen(capture)) == 0)
			snprintf(cbuf, ccap, "%s", line);
		if (strcmp(line, want) == 0)
			return true;
	}
	session_fail(s, "(that was while waiting for '%s')", want);
	return false;
}

long
proc_status_kib(pid_t pid, const char *field)
{
	char path[64], line[256];
	size_t fl = strlen(field);
	long v = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, field, fl) == 0 && line[fl] == ':') {
			v = strtol(line + fl + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* CPU time of pid so far in seconds (/proc/PID/schedstat: nanoseconds on
 * the CPU; /proc/PID/stat's clock ticks if there is none), or -1. */
double
proc_cpu_s(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ns;
	unsigned long ut = 0, st = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/schedstat", (long)pid);
	if ((fd = open(path, O_RDONLY)) >= 0) {
		n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			if (sscanf(buf, "%llu", &ns) == 1)
				return (double)ns / 1e9;
		}
	}
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY)) < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* after "pid (comm) ": state is field 3; utime, stime 14 and 15 */
	if ((p = strrchr(buf, ')')) == NULL ||
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
		   &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/*
 * Ends the session: quit, EOF, everything read (nothing may be left), the
 * process reaped. With kill_it (a failed run) it is killed instead and its
 * output is not read.
 */
void
session_end(struct session *s, bool kill_it)
{
	char tmp[4096];
	size_t extra = s->len;
	int st;

	if (kill_it)
		kill(s->pid, SIGKILL);
	else
		write_all(s->to, "quit\n", 5);
	close(s->to);
	while (!kill_it) {
		ssize_t r = read(s->from, tmp, sizeof tmp);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (extra == 0)
			fprintf(stderr,
				"bench_bridge: %s: unexpected output "
				"at the end: '%.*s'\n",
				s->name, (int)(r > 80 ? 80 : r), tmp);
		extra += (size_t)r;
	}
	close(s->from);
	while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR)
		;
	for (int i = 0; i < NWATCHED; i++)
		if (watched_pid[i] == s->pid)
			watched_pid[i] = 0;
	{
		bool any = false;
		for (int i = 0; i < NWATCHED; i++)
			any = any || watched_pid[i] > 0;
		if (!any)
			alarm(0);
	}
	if (!kill_it && extra > 0)
		session_fail(s, "%zu unexpected bytes after the stream", extra);
	if (!kill_it && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
		fprintf(stderr, "bench_bridge: %s: exit status %d%s\n", s->name,
			WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
			WIFSIGNALED(st) ? " (signal)" : "");
	free(s->buf);
	s->buf = NULL;
}

/* Tells where received bytes first differ from the expected stream. */
void
report_mismatch(struct session *s, const char *exp, size_t explen, size_t at,
		const char *got, size_t gotlen)
{
	unsigned long line = 1;
	const char *ls = exp, *le;

	for (const char *p = exp; p < exp + at; p++)
		if (*p == '\n') {
			line++;
			ls = p + 1;
		}
	le = memchr(ls, '\n', (size_t)(exp + explen - ls));
	if (le == NULL)
		le = exp + explen;
	session_fail(s,
		     "output differs from the expected stream at line %lu "
		     "(byte %zu)\n  expected: %.*s\n  got from there: %.*s",
		     line, at, (int)(le - ls), ls,
		     (int)(gotlen > 100 ? 100 : gotlen), got);
}
