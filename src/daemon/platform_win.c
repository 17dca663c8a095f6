/* SPDX-License-Identifier: MIT */
/*
 * The Windows side of platform.h, for the MinGW-w64 build. Names inside
 * fenbridge are UTF-8 (as libuv takes them): the command line is read as
 * UTF-16 and converted, and every file name goes back to UTF-16 for the
 * system. (The engine dies with fenbridge without help from here: libuv
 * puts it in a kill-on-close job object, see bridge_engine.c.)
 */
#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdlib.h>

#include <windows.h>
#include <shellapi.h>

#include "wait.h"

/* UTF-8 -> a UTF-16 copy to free, or NULL. */
static wchar_t *
wide(const char *s)
{
	int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
	wchar_t *w;

	if (n <= 0 || (w = malloc((size_t)n * sizeof *w)) == NULL)
		return NULL;
	MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n);
	return w;
}

/* UTF-16 -> a UTF-8 copy to free, or NULL. */
static char *
narrow(const wchar_t *w)
{
	int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
	char *s;

	if (n <= 0 || (s = malloc((size_t)n)) == NULL)
		return NULL;
	WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
	return s;
}

void
fb_platform_init(int *argc, char ***argv)
{
	wchar_t **wargv;
	int n;

	/* A GUI may start fenbridge without some standard handle: then the
	 * null device, so that no file of fenbridge's takes its number. */
	for (int fd = 0; fd <= 2; fd++) {
		intptr_t h = _get_osfhandle(fd);
		if (h == -1 || h == -2) {
			int nul = _open("NUL", _O_RDWR | _O_BINARY);
			if (nul >= 0 && nul != fd) {
				_dup2(nul, fd);
				_close(nul);
			}
		}
		/* The protocol's bytes pass unchanged: no CRLF translation,
		 * no end at ^Z. */
		_setmode(fd, _O_BINARY);
	}
	/* main's argv is in the ANSI code page: take the UTF-16 command
	 * line instead, so any file name reaches libuv as UTF-8. */
	wargv = CommandLineToArgvW(GetCommandLineW(), &n);
	if (wargv != NULL && n == *argc) {
		char **a = calloc((size_t)n + 1, sizeof *a);
		bool ok = a != NULL;
		for (int i = 0; ok && i < n; i++)
			ok = (a[i] = narrow(wargv[i])) != NULL;
		if (ok)
			*argv = a; /* kept until exit */
		else if (a != NULL) {
			for (int i = 0; i < n; i++)
				free(a[i]);
			free(a);
		}
	}
	if (wargv != NULL)
		LocalFree(wargv);
}

void
fb_platform_ignore_sigpipe(void)
{
	/* No SIGPIPE: a write to a closed pipe fails with an error. */
}

int
fb_platform_wait_stdin(int ms)
{
	HANDLE h = (HANDLE)_get_osfhandle(0);
	DWORD avail;

	if (h == INVALID_HANDLE_VALUE)
		return -1;
	if (GetFileType(h) != FILE_TYPE_PIPE)
		return 1; /* a file or a device: a read does not wait long */
	/* An anonymous pipe cannot be waited on; look every 10 ms. */
	for (int waited = 0;; waited += 10) {
		if (!PeekNamedPipe(h, NULL, 0, NULL, &avail, NULL))
			return 1; /* broken: the read sees the end */
		if (avail > 0)
			return 1;
		if (waited >= ms)
			return 0;
		Sleep(10);
	}
}

FILE *
fb_platform_fopen(const char *path, const char *mode)
{
	wchar_t wmode[8], *wpath = wide(path);
	FILE *f;
	size_t i;

	if (wpath == NULL) {
		errno = EINVAL;
		return NULL;
	}
	/* "N": not inherited by the engine. */
	for (i = 0; mode[i] != '\0' && i < 5; i++)
		wmode[i] = (wchar_t)mode[i];
	wmode[i++] = L'N';
	wmode[i] = L'\0';
	f = _wfopen(wpath, wmode);
	free(wpath);
	return f;
}

int
fb_platform_open_read(const char *path)
{
	wchar_t *wpath = wide(path);
	int fd;

	if (wpath == NULL) {
		errno = EINVAL;
		return -1;
	}
	/* The C library's open() takes the name in the ANSI code page and
	 * reads in text mode (CRLF becomes LF, ^Z ends the file). */
	fd = _wopen(wpath, _O_RDONLY | _O_BINARY | _O_NOINHERIT);
	free(wpath);
	return fd;
}

static void
set_errno(DWORD e)
{
	errno = e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND ||
				e == ERROR_INVALID_NAME ||
				e == ERROR_BAD_NETPATH
			? ENOENT
			: EACCES;
}

enum fb_file_kind
fb_platform_file_kind(const char *path)
{
	wchar_t *w = wide(path);
	DWORD a;

	if (w == NULL) {
		errno = ENOENT;
		return FB_FILE_NONE;
	}
	a = GetFileAttributesW(w);
	free(w);
	if (a == INVALID_FILE_ATTRIBUTES) {
		set_errno(GetLastError());
		return FB_FILE_NONE;
	}
	if (a & FILE_ATTRIBUTE_DIRECTORY)
		return FB_FILE_DIR;
	if (a & FILE_ATTRIBUTE_DEVICE)
		return FB_FILE_OTHER;
	return FB_FILE_REG;
}

int
fb_platform_can_execute(const char *path)
{
	(void)path;
	return 0;
}

char *
fb_platform_getcwd(char *buf, size_t size)
{
	wchar_t w[MAX_PATH * 2];
	DWORD n = GetCurrentDirectoryW(MAX_PATH * 2, w);
	char *s;

	if (n == 0 || n >= MAX_PATH * 2 || (s = narrow(w)) == NULL)
		return NULL;
	if (strlen(s) >= size) {
		free(s);
		return NULL;
	}
	strcpy(buf, s);
	free(s);
	return buf;
}

int
fb_platform_stderr_fd(bool *quiet)
{
	HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
	HANDLE err = GetStdHandle(STD_ERROR_HANDLE);
	BY_HANDLE_FILE_INFORMATION a, b;
	DWORD mode;

	*quiet = false;
	if (err == NULL || err == INVALID_HANDLE_VALUE ||
	    GetConsoleMode(err, &mode))
		return 2;
	/* The same handle (a GUI that merges them), or the same file. */
	if (out == err || (GetFileType(err) == FILE_TYPE_DISK &&
			   GetFileInformationByHandle(out, &a) &&
			   GetFileInformationByHandle(err, &b) &&
			   a.dwVolumeSerialNumber == b.dwVolumeSerialNumber &&
			   a.nFileIndexHigh == b.nFileIndexHigh &&
			   a.nFileIndexLow == b.nFileIndexLow))
		*quiet = true;
	return 2;
}

char **
fb_platform_environ(void)
{
	static char **env;
	wchar_t *block, *p;
	size_t n = 0, k = 0;

	if (env != NULL || (block = GetEnvironmentStringsW()) == NULL)
		return env;
	for (p = block; *p != L'\0'; p += wcslen(p) + 1)
		n++;
	if ((env = calloc(n + 1, sizeof *env)) != NULL)
		for (p = block; *p != L'\0'; p += wcslen(p) + 1)
			/* "=C:=C:\..." entries are the shell's drive folders. */
			if (*p != L'=' && (env[k] = narrow(p)) != NULL)
				k++;
	FreeEnvironmentStringsW(block);
	return env;
}

int
fb_platform_self(void)
{
	return (int)GetCurrentProcessId();
}

int
fb_platform_proc_sample(int pid, struct fb_proc_sample *s)
{
	FILETIME created, exited, kernel, user;
	ULARGE_INTEGER k, u;
	HANDLE h;
	BOOL ok;

	memset(s, 0, sizeof *s);
	if (pid <= 0 || (h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION,
					 FALSE, (DWORD)pid)) == NULL)
		return -1;
	ok = GetProcessTimes(h, &created, &exited, &kernel, &user);
	CloseHandle(h);
	if (!ok)
		return -1;
	/* In 100 ns units. Windows tells no time waited for a CPU: the CPU
	 * time that grows is the evidence of a slow engine there. */
	k.LowPart = kernel.dwLowDateTime;
	k.HighPart = kernel.dwHighDateTime;
	u.LowPart = user.dwLowDateTime;
	u.HighPart = user.dwHighDateTime;
	s->known = true;
	s->cpu_us = (k.QuadPart + u.QuadPart) / 10;
	return 0;
}
