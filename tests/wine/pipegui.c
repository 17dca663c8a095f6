/* SPDX-License-Identifier: MIT */
/*
 * A stand-in for a Windows chess GUI in the Wine suite (test_wine.py): it
 * starts COMMAND LINE (the rest of its own command line, passed verbatim to
 * CreateProcess) on anonymous pipes from CreatePipe, as Fritz, Arena or
 * Cute Chess do, copies its own stdin to the child's and the child's stdout
 * to its own, and exits with the child's exit status. Under Wine a Linux
 * program cannot hand a Windows one such pipes itself.
 *
 * A line "pipegui-kill NAME" on stdin is not passed on: the child is ended
 * with TerminateProcess (as ChessBase unloads an engine), then pipegui
 * waits up to 5 s for every process named NAME to be gone and prints
 * "pipegui: NAME gone" or "pipegui: NAME still running" before it exits
 * ("pipegui: NAME not running" if there was none to begin with).
 *
 * Usage: pipegui.exe PROGRAM [ARGS...]
 */
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include <windows.h>
#include <tlhelp32.h>

static HANDLE child, to_child;
static volatile LONG killing; /* the feed thread ends the process */

/* How many processes are named name (case-insensitive, ASCII). */
static int
count_named(const char *name)
{
	PROCESSENTRY32 pe;
	HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
	int n = 0;

	if (snap == INVALID_HANDLE_VALUE)
		return -1;
	pe.dwSize = sizeof pe;
	for (BOOL ok = Process32First(snap, &pe); ok;
	     ok = Process32Next(snap, &pe))
		if (_stricmp(pe.szExeFile, name) == 0)
			n++;
	CloseHandle(snap);
	return n;
}

static void
kill_and_check(const char *name)
{
	HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
	char msg[256];
	DWORD w;
	int n = -1;

	InterlockedExchange(&killing, 1);
	if (count_named(name) <= 0) {
		/* Nothing to show: the check itself would be broken. */
		snprintf(msg, sizeof msg, "pipegui: %s not running\n", name);
		WriteFile(out, msg, (DWORD)strlen(msg), &w, NULL);
		ExitProcess(1);
	}
	TerminateProcess(child, 9);
	WaitForSingleObject(child, 5000);
	for (int i = 0; i < 50 && (n = count_named(name)) > 0; i++)
		Sleep(100);
	snprintf(msg, sizeof msg, "pipegui: %s %s\n", name,
		 n == 0 ? "gone" : "still running");
	WriteFile(out, msg, (DWORD)strlen(msg), &w, NULL);
	ExitProcess(0);
}

/* stdin -> the child's stdin, line by line (to see pipegui-kill). */
static DWORD WINAPI
feed(LPVOID arg)
{
	HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
	char buf[65536];
	size_t len = 0;
	DWORD n, w;

	(void)arg;
	for (;;) {
		char *nl;
		if (len == sizeof buf) { /* a huge line: pass what we have */
			WriteFile(to_child, buf, (DWORD)len, &w, NULL);
			len = 0;
		}
		if (!ReadFile(in, buf + len, (DWORD)(sizeof buf - len), &n,
			      NULL) ||
		    n == 0)
			break;
		len += n;
		while ((nl = memchr(buf, '\n', len)) != NULL) {
			size_t line = (size_t)(nl - buf) + 1;
			if (line > 13 &&
			    memcmp(buf, "pipegui-kill ", 13) == 0) {
				char name[128];
				size_t k = line - 13;
				while (k > 0 && (buf[13 + k - 1] == '\n' ||
						 buf[13 + k - 1] == '\r'))
					k--;
				if (k >= sizeof name)
					k = sizeof name - 1;
				memcpy(name, buf + 13, k);
				name[k] = '\0';
				kill_and_check(name);
			}
			if (!WriteFile(to_child, buf, (DWORD)line, &w, NULL))
				return 0;
			memmove(buf, buf + line, len - line);
			len -= line;
		}
	}
	if (len > 0)
		WriteFile(to_child, buf, (DWORD)len, &w, NULL);
	CloseHandle(to_child);
	return 0;
}

int
main(void)
{
	SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;
	HANDLE in_r, in_w, out_r, out_w;
	HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
	wchar_t *cmd = GetCommandLineW();
	char buf[65536];
	DWORD n, w, code = 1;

	/* Our own name, then the child's command line as it was given. */
	if (*cmd == L'"') {
		cmd = wcschr(cmd + 1, L'"');
		cmd = cmd != NULL ? cmd + 1 : L"";
	} else {
		while (*cmd != L'\0' && *cmd != L' ' && *cmd != L'\t')
			cmd++;
	}
	while (*cmd == L' ' || *cmd == L'\t')
		cmd++;
	if (*cmd == L'\0') {
		fputs("usage: pipegui.exe PROGRAM [ARGS...]\n", stderr);
		return 2;
	}
	if (!CreatePipe(&in_r, &in_w, &sa, 0) ||
	    !CreatePipe(&out_r, &out_w, &sa, 0))
		return 3;
	SetHandleInformation(in_w, HANDLE_FLAG_INHERIT, 0);
	SetHandleInformation(out_r, HANDLE_FLAG_INHERIT, 0);
	memset(&si, 0, sizeof si);
	si.cb = sizeof si;
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = in_r;
	si.hStdOutput = out_w;
	si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
	if (!CreateProcessW(NULL, cmd, NULL, NULL, TRUE, 0, NULL, NULL, &si,
			    &pi)) {
		fprintf(stderr, "pipegui: CreateProcess: error %lu\n",
			GetLastError());
		return 4;
	}
	CloseHandle(in_r);
	CloseHandle(out_w);
	CloseHandle(pi.hThread);
	child = pi.hProcess;
	to_child = in_w;
	CreateThread(NULL, 0, feed, NULL, 0, NULL);
	while (ReadFile(out_r, buf, sizeof buf, &n, NULL) && n > 0)
		WriteFile(out, buf, n, &w, NULL);
	while (InterlockedCompareExchange(&killing, 0, 0))
		Sleep(INFINITE); /* kill_and_check reports and exits */
	WaitForSingleObject(child, INFINITE);
	GetExitCodeProcess(child, &code);
	return (int)code;
}
