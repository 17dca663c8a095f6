/* SPDX-License-Identifier: MIT */
/*
 * What differs between POSIX and Windows, outside libuv: path syntax (pure,
 * inline below, so that the pure core can use it), the standard descriptors,
 * file names in UTF-8. The
 * POSIX side is platform_posix.c, the Windows side platform_win.c; the rest
 * of fenbridge calls these and holds no #ifdef _WIN32 of its own beyond a
 * few in the bridge (bridge_*.c).
 */
#ifndef FB_PLATFORM_H
#define FB_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#ifdef _WIN32
#include <sys/types.h> /* ssize_t */
/* A file name's separators: Windows takes both. */
#define FB_PATH_SEPS "/\\"
/* The one written between a folder and a name. */
#define FB_PATH_SEP '\\'
/* Between the folders of PATH. */
#define FB_PATH_LIST_SEP ';'
/* What a program's name ends with when it is given without. */
#define FB_EXE_SUFFIX ".exe"
#else
#define FB_PATH_SEPS "/"
#define FB_PATH_SEP '/'
#define FB_PATH_LIST_SEP ':'
#define FB_EXE_SUFFIX ""
#endif

static inline bool
fb_path_is_sep(char c)
{
	return c != '\0' && strchr(FB_PATH_SEPS, c) != NULL;
}

/* Does path name a folder (a separator, or on Windows a drive "C:")? */
static inline bool
fb_path_has_dir(const char *path)
{
#ifdef _WIN32
	if (path[0] != '\0' && path[1] == ':')
		return true;
#endif
	return strpbrk(path, FB_PATH_SEPS) != NULL;
}

/* Is path absolute: /x; on Windows also C:\x, C:/x and \x (\\server\x)? */
static inline bool
fb_path_is_absolute(const char *path)
{
#ifdef _WIN32
	if (((path[0] >= 'A' && path[0] <= 'Z') ||
	     (path[0] >= 'a' && path[0] <= 'z')) &&
	    path[1] == ':' && fb_path_is_sep(path[2]))
		return true;
#endif
	return fb_path_is_sep(path[0]);
}

/* The last separator in path, or NULL. */
static inline const char *
fb_path_last_sep(const char *path)
{
	const char *last = NULL;

	for (const char *p = path; *p != '\0'; p++)
		if (fb_path_is_sep(*p))
			last = p;
	return last;
}

/*
 * Sets up the process before anything else: argv (replaced by a UTF-8 copy
 * on Windows, which lives until exit), standard descriptors that are closed
 * become the null device (so that no file takes their numbers), and on
 * Windows stdin, stdout and stderr in binary mode (CRLF passes unchanged).
 */
void
fb_platform_init(int *argc, char ***argv);

/* Ignores SIGPIPE where there is one: a write to a gone GUI fails instead. */
void
fb_platform_ignore_sigpipe(void);

/*
 * Waits up to ms milliseconds for stdin to be readable. Returns 1 if a read
 * will not block (data or end of input), 0 on timeout, -1 on error. stdin
 * is not a console (the caller checks isatty).
 */
int
fb_platform_wait_stdin(int ms);

/* fopen() for a UTF-8 file name. The log passes "a" (binary, and not
 * inherited by the engine, on both systems); the INI file "rb". */
FILE *
fb_platform_fopen(const char *path, const char *mode);

/* open() for reading a UTF-8 file name, in binary mode (on Windows no CRLF
 * translation and no end at ^Z) and not inherited by the engine. Returns
 * the descriptor, or -1 with errno set. */
int
fb_platform_open_read(const char *path);

/* What is at path (a UTF-8 name). */
enum fb_file_kind {
	FB_FILE_NONE,  /* nothing, or it cannot be looked at: errno says */
	FB_FILE_REG,   /* a regular file */
	FB_FILE_DIR,   /* a folder */
	FB_FILE_OTHER, /* a device, a socket, ... */
};
enum fb_file_kind
fb_platform_file_kind(const char *path);

/* May the regular file at path be run? 0, or an errno value. Windows: any
 * file may be tried (CreateProcess decides). */
int
fb_platform_can_execute(const char *path);

/* The current folder in buf (UTF-8): buf, or NULL. */
char *
fb_platform_getcwd(char *buf, size_t size);

/*
 * stderr for messages while the bridge runs: the descriptor to write to,
 * and *quiet set when stderr is the same pipe or file as stdout (a message
 * there would split a protocol line). On POSIX a pipe gets a non-blocking
 * descriptor of fenbridge's own.
 */
int
fb_platform_stderr_fd(bool *quiet);

/* The process environment, NAME=VALUE strings, NULL-terminated. */
char **
fb_platform_environ(void);

/*
 * What the system tells of process pid now (wait.h): its CPU time (all
 * threads), and on Linux the time its threads waited for a CPU
 * (/proc/PID/task/N/schedstat) and whether one is runnable or in a disk
 * wait (state R or D); on Windows the CPU time (GetProcessTimes). Returns
 * 0, or -1 with s->known false when nothing can be read (no such process,
 * another system).
 */
struct fb_proc_sample;
int
fb_platform_proc_sample(int pid, struct fb_proc_sample *s);

/* This process's id (for fb_platform_proc_sample). */
int
fb_platform_self(void);

#endif
