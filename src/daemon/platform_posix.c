/* SPDX-License-Identifier: MIT */
/*
 * The POSIX side of platform.h (Linux, the BSDs, macOS). The Windows side
 * is platform_win.c; meson builds one of the two.
 */
#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

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
