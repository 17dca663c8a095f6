/* SPDX-License-Identifier: MIT */
/*
 * The POSIX side of platform.h (Linux, the BSDs, macOS). The Windows side
 * is platform_win.c; meson builds one of the two.
 */
#include "platform.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wait.h"

void
fb_platform_init(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	/* A closed standard descriptor becomes /dev/null. Otherwise the next
	 * file, pipe or libuv descriptor would take its number: log text
	 * would go into an engine pipe, and libuv asserts that its own
	 * descriptors are above 2. */
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
			(void)open("/dev/null", O_RDWR); /* lowest free: fd */
}

void
fb_platform_ignore_sigpipe(void)
{
	signal(SIGPIPE, SIG_IGN);
}

int
fb_platform_wait_stdin(int ms)
{
	struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
	int n = poll(&pfd, 1, ms);

	return n < 0 ? -1 : n > 0;
}

FILE *
fb_platform_fopen(const char *path, const char *mode)
{
	char m[8];

	/* "e": close-on-exec, not inherited by the engine. */
	snprintf(m, sizeof m, "%se", mode);
	return fopen(path, m);
}

int
fb_platform_open_read(const char *path)
{
	return open(path, O_RDONLY | O_CLOEXEC);
}

enum fb_file_kind
fb_platform_file_kind(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return FB_FILE_NONE;
	return S_ISREG(st.st_mode)   ? FB_FILE_REG
	       : S_ISDIR(st.st_mode) ? FB_FILE_DIR
				     : FB_FILE_OTHER;
}

int
fb_platform_can_execute(const char *path)
{
	return access(path, X_OK) == 0 ? 0 : errno;
}

char *
fb_platform_getcwd(char *buf, size_t size)
{
	return getcwd(buf, size);
}

int
fb_platform_stderr_fd(bool *quiet)
{
	struct stat out, err;
	int fd;

	*quiet = false;
	if (fstat(STDERR_FILENO, &err) < 0)
		return STDERR_FILENO;
	if (fstat(STDOUT_FILENO, &out) == 0 && out.st_dev == err.st_dev &&
	    out.st_ino == err.st_ino && !isatty(STDERR_FILENO)) {
		*quiet = true;
		return STDERR_FILENO;
	}
	/* Opening the pipe anew gives a file description of fenbridge's own,
	 * so O_NONBLOCK does not reach whoever shares stderr. */
	if (S_ISFIFO(err.st_mode) &&
	    (fd = open("/proc/self/fd/2", O_WRONLY | O_NONBLOCK | O_CLOEXEC)) >=
		    0)
		return fd;
	return STDERR_FILENO;
}

char **
fb_platform_environ(void)
{
	extern char **environ;
	return environ;
}

int
fb_platform_self(void)
{
	return (int)getpid();
}

#ifdef __linux__
/* The text of a small /proc file in buf (NUL-terminated): its length, or
 * -1. */
static ssize_t
read_small(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* One thread: its state (stat's third field, after the name in
 * parentheses, which may hold blanks and parentheses) and its schedstat
 * (ns on a CPU, ns waiting for one, slices). */
static void
sample_task(int pid, const char *tid, struct fb_proc_sample *s,
	    uint64_t *cpu_ns, bool *sched)
{
	char path[320], buf[512];
	unsigned long long run, wait;
	const char *p;

	snprintf(path, sizeof path, "/proc/%d/task/%s/stat", pid, tid);
	if (read_small(path, buf, sizeof buf) > 0 &&
	    (p = strrchr(buf, ')')) != NULL && (p[2] == 'R' || p[2] == 'D'))
		s->runnable = true;
	snprintf(path, sizeof path, "/proc/%d/task/%s/schedstat", pid, tid);
	if (read_small(path, buf, sizeof buf) > 0 &&
	    sscanf(buf, "%llu %llu", &run, &wait) == 2) {
		*cpu_ns += run;
		s->delay_us += wait / 1000;
	} else {
		*sched = false;
	}
}
#endif

int
fb_platform_proc_sample(int pid, struct fb_proc_sample *s)
{
	memset(s, 0, sizeof *s);
#ifdef __linux__
	char path[64], buf[1024];
	unsigned long long ut, st;
	uint64_t cpu_ns = 0;
	bool sched = true;
	const char *p;
	struct dirent *e;
	DIR *dir;

	if (pid <= 0)
		return -1;
	/* The whole process's user and system time (fields 14 and 15),
	 * in clock ticks: what is left when schedstat is not there. */
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	if (read_small(path, buf, sizeof buf) <= 0 ||
	    (p = strrchr(buf, ')')) == NULL ||
	    sscanf(p + 2,
		   "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
		   &st) != 2)
		return -1;
	s->known = true;
	s->cpu_us = (uint64_t)(ut + st) * 1000000u /
		    (uint64_t)sysconf(_SC_CLK_TCK);
	snprintf(path, sizeof path, "/proc/%d/task", pid);
	if ((dir = opendir(path)) == NULL)
		return 0;
	while ((e = readdir(dir)) != NULL)
		if (e->d_name[0] != '.')
			sample_task(pid, e->d_name, s, &cpu_ns, &sched);
	closedir(dir);
	s->delay_known = sched;
	if (!sched)
		s->delay_us = 0;
	else
		s->cpu_us = cpu_ns / 1000; /* to the nanosecond, not the tick */
	return 0;
#else
	(void)pid;
	return -1;
#endif
}
