/* SPDX-License-Identifier: MIT */
/*
 * A fake chess engine for the e2e tests. It appends every byte it reads on
 * stdin to RECORD (lines exactly as received, terminators included), answers
 * the UCI and XBoard handshakes, and misbehaves on request: through `fake-*`
 * commands read on stdin, or the same commands given with --do at start.
 *
 * Usage: fake_engine [OPTIONS] RECORD
 *   --events=FILE     append "pid N", "quit", "eof", "signal SIGxxx" lines
 *   --ignore-quit     `quit` does not end it
 *   --hang-on-eof     at EOF on stdin wait for a signal instead of exiting
 *   --protover1       an XBoard engine of CECP version 1: no answer to uci
 *                     or protover
 *   --speaks=P        uci: `xboard` and `protover` are unknown commands
 *                     (answered `Unknown command: 'X'. Type help for more
 *                     information.`, as Stockfish does); xboard: `uci` and
 *                     `isready` are (`Error (unknown command): X`, CECP);
 *                     both (default): it knows all of them
 *   --quiet-unknown   an unknown command gets no answer (Toga II)
 *   --die-on-unknown=SIG  and then it dies of SIG (Fairy-Max, now and then)
 *   --once=FILE       --die-on-unknown only if FILE does not exist, which
 *                     the engine creates: a second start behaves
 *   --eof-status=N    at EOF exit with status N (default 0)
 *   --ignore-term     SIGTERM is recorded but does not end it
 *   --do=CMD          run CMD (below) before reading stdin; repeatable
 *   --sloppy          a UCI engine that gets its output slightly wrong, as
 *                     --normalize knows engines do: its uci answer has
 *                     blank lines, a 69-byte id name, no id author and a
 *                     check option defaulting to False; go is answered by
 *                     an info line with a bare score and no multipv, an
 *                     info string saying "score 5", and bestmove e2e4
 *   --die-at-go=FILE:K[,K...]  count the `go` lines of every start in
 *                     FILE and die of SIGSEGV at the K-th (--restart;
 *                     Windows: of exception 0xC0000005, an access violation);
 *                     any other go is answered `bestmove a2a3` (after
 *                     uci) or `move a2a3` (after xboard)
 *   --die-on-position=N|TEXT  die of SIGSEGV (Windows: an access
 *                     violation) at the N-th position-setting line
 *                     (`position`, `setboard`, `usermove`), or at the first
 *                     one holding TEXT (a FEN, a move list); as an engine
 *                     that crashes on one position deep in a match
 *   --answer-delay=MS readyok and pong come MS milliseconds late
 *   --burn=MS         spend MS milliseconds of CPU time before each
 *                     answer (uciok, readyok, the features, pong, the
 *                     --on-go answer): an engine that works, which a busy
 *                     machine makes slow
 *   --on-go=TEXT      answer UCI/CECP `go` with TEXT, '|' ending a line
 *                     (an illegal bestmove, a pv with an illegal move)
 *   --handshake-line=TEXT  write TEXT and a newline before uciok / in
 *                     the feature answer, before done=1 (a blank line)
 *   --handshake-first write --handshake-line's TEXT first instead, before
 *                     `id name` / the first feature line: the line that
 *                     answers the protocol probe
 *
 * Answers: uci -> id, option UCI_Chess960, uciok; isready -> readyok;
 * protover N -> feature ... setboard=1 ... done=1 (CECP wants no answer to
 * xboard itself); ping N -> pong N; quit -> exit 0. Misbehaviour:
 *   fake-flood N         write N lines "info string flood I" (I = 1..N),
 *                        then "info string flood done"
 *   fake-exit CODE [N]   write N lines "info string burst I", exit CODE
 *   fake-die SIG [N]     write N lines "info string burst I", die of SIG
 *   fake-ill [N]         write N lines "info string burst I", then execute
 *                        an illegal instruction (x86: ud2, which is SIGILL
 *                        on POSIX and exception 0xC000001D on Windows, as a
 *                        build for a newer CPU dies; elsewhere SIGILL)
 *   fake-stderr TEXT     write TEXT and a newline to stderr
 *   fake-half TEXT       write TEXT with no terminator, exit 0
 *   fake-echo TEXT       write TEXT and the command's own terminator
 *   fake-line TEXT       write TEXT and a newline (a banner, with --do)
 *   fake-closeout        close stdout and keep running
 *   fake-sleep MS        sleep MS milliseconds
 *
 * SIGINT and SIGHUP are recorded and otherwise ignored (as XBoard engines
 * with `feature sigint=1` do); SIGTERM is recorded, then kills it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifndef _WIN32
#include <sys/resource.h>
#endif
#ifdef _WIN32
/* The Windows build's fake engine (tests/wine): no sigaction, SIGHUP,
 * pause, nanosleep or getline there; stdio in binary mode. */
#include <io.h>
#include <windows.h>
#define O_CLOEXEC _O_BINARY
#define SIGHUP SIGBREAK
#define pause() Sleep(INFINITE)
static ssize_t
getline(char **line, size_t *cap, FILE *f)
{
	size_t n = 0;
	int c;

	if (*line == NULL || *cap == 0) {
		*cap = 128;
		if ((*line = malloc(*cap)) == NULL)
			return -1;
	}
	while ((c = getc(f)) != EOF) {
		if (n + 2 > *cap) {
			char *p = realloc(*line, *cap * 2);
			if (p == NULL)
				return -1;
			*line = p;
			*cap *= 2;
		}
		(*line)[n++] = (char)c;
		if (c == '\n')
			break;
	}
	(*line)[n] = '\0';
	return n == 0 ? -1 : (ssize_t)n;
}
#endif

#define MAX_DO 16

static int record_fd = -1;
static int events_fd = -1;
static bool ignore_quit, ignore_term, hang_on_eof, out_closed;
/* An old XBoard engine: silent to uci and to protover. */
static bool protover1;
static bool sloppy;
static int eof_status;
/* The protocols it knows (--speaks), how it takes the others' commands. */
static bool knows_uci = true, knows_xboard = true, quiet_unknown;
static int die_on_unknown;
/* --die-at-go: the counter's file and the counts to die at; the protocol
 * the answer to go is in. */
static const char *go_file, *go_deaths;
/* --die-on-position: the count or the text, and the lines seen so far. */
static const char *die_position;
static long positions;
static bool saw_xboard;

/* Counts a go in go_file (shared by every start): true when this one is
 * to be died of. */
static bool
go_kills(void)
{
	long n = 0;
	const char *p = go_deaths;
	FILE *f = fopen(go_file, "r");

	if (f != NULL) {
		if (fscanf(f, "%ld", &n) != 1)
			n = 0;
		fclose(f);
	}
	n++;
	if ((f = fopen(go_file, "w")) != NULL) {
		fprintf(f, "%ld\n", n);
		fclose(f);
	}
	while (p != NULL && *p != '\0') {
		char *end;
		if (strtol(p, &end, 10) == n)
			return true;
		p = *end == ',' ? end + 1 : NULL;
	}
	return false;
}
/* The referee's misbehaviours (--answer-delay, --on-go,
 * --handshake-line). */
static long answer_delay;
static long burn;
static const char *on_go, *handshake_line;
static bool handshake_first;

/* write(2) until done; async-signal-safe, so handlers may use it. */
static void
write_all(int fd, const char *p, size_t n)
{
	while (n > 0 && fd >= 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

static void
event(const char *s)
{
	write_all(events_fd, s, strlen(s));
}

static void
on_signal(int sig)
{
	int saved = errno;

	event(sig == SIGINT   ? "signal SIGINT\n"
	      : sig == SIGHUP ? "signal SIGHUP\n"
			      : "signal SIGTERM\n");
	if (sig == SIGTERM && !ignore_term) {
		/* Die of the signal itself, as an engine without a handler
		 * would; it is delivered when this handler returns. */
		signal(SIGTERM, SIG_DFL);
		raise(SIGTERM);
	}
	errno = saved;
}

static void
out(const char *p, size_t n)
{
	if (!out_closed)
		fwrite(p, 1, n, stdout);
}

static void
outs(const char *s)
{
	out(s, strlen(s));
}

static void
sleep_ms(long ms)
{
	fflush(stdout);
#ifdef _WIN32
	Sleep((DWORD)ms);
#else
	struct timespec ts;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = ms % 1000 * 1000000L;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
#endif
}

/* Spends burn ms of this process's CPU time (wall time on Windows). */
static void
burn_cpu(void)
{
	volatile unsigned long x = 0;
	clock_t end = clock() + (clock_t)(burn * (CLOCKS_PER_SEC / 1000));

	if (burn <= 0)
		return;
	fflush(stdout);
	while (clock() < end)
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
}

/* Writes t with each '|' as a line end, and a last newline. */
static void
out_lines(const char *t)
{
	for (; *t != '\0'; t++)
		out(*t == '|' ? "\n" : t, 1);
	outs("\n");
}

static void
burst(long n, const char *what)
{
	for (long i = 1; i <= n && !out_closed; i++)
		printf("info string %s %ld\n", what, i);
}

#ifdef _WIN32
/* What Windows does with the exception of a process started by fenbridge
 * (libuv's SEM_NOGPFAULTERRORBOX, inherited: no error dialog): the process
 * ends with the exception code as its exit code. Wine ignores the error
 * mode and starts its debugger, which writes a crash report to stdout for
 * seconds; this filter asks for the Windows end directly. */
static LONG WINAPI
end_with_code(EXCEPTION_POINTERS *e)
{
	(void)e;
	return EXCEPTION_EXECUTE_HANDLER;
}
#endif

/* Dies as an engine built for instructions this CPU lacks dies. */
static void
illegal_instruction(void)
{
#ifdef _WIN32
	SetUnhandledExceptionFilter(end_with_code);
#else
	/* No core file from a test (SIGILL dumps core by default). */
	struct rlimit no = {0, 0};
	setrlimit(RLIMIT_CORE, &no);
#endif
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
	__builtin_trap(); /* ud2 */
#else
	signal(SIGILL, SIG_DFL);
	raise(SIGILL);
	exit(1);
#endif
}

/* Dies as a crashing engine dies (--die-at-go): of SIGSEGV on POSIX; on
 * Windows of the access violation exception, 0xC0000005 (MinGW's
 * raise(SIGSEGV) would only exit with status 3). */
static void
crash(void)
{
	fflush(stdout);
#ifdef _WIN32
	SetUnhandledExceptionFilter(end_with_code);
	RaiseException(EXCEPTION_ACCESS_VIOLATION, EXCEPTION_NONCONTINUABLE, 0,
		       NULL);
#else
	signal(SIGSEGV, SIG_DFL);
	raise(SIGSEGV);
#endif
	exit(1);
}

/* Does line[0..len) hold s? */
static bool
holds(const char *line, size_t len, const char *s)
{
	size_t k = strlen(s);

	for (size_t i = 0; i + k <= len; i++)
		if (memcmp(line + i, s, k) == 0)
			return true;
	return false;
}

/* Is the first word of line[0..len) equal to word? Sets the arguments after
 * it: (*args)[0..*n). */
static bool
is_cmd(const char *line, size_t len, const char *word, const char **args,
       size_t *n)
{
	size_t w = strlen(word);

	if (len < w || memcmp(line, word, w) != 0 ||
	    (len > w && line[w] != ' '))
		return false;
	*args = len > w ? line + w + 1 : line + len;
	*n = (size_t)(line + len - *args);
	return true;
}

/* Reads up to two numbers from the arguments a[0..n) (not NUL-terminated,
 * maybe holding NUL bytes); missing ones are 0. */
static void
numbers(const char *a, size_t n, long *x, long *y)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : 63), a);
	*x = *y = 0;
	sscanf(buf, "%ld %ld", x, y);
}

/* Handles one line: text[0..len) plus its terminator text[len..len+term). */
static void
command(const char *text, size_t len, size_t term)
{
	const char *a; /* the arguments a[0..n), set by CMD() */
	size_t n;
	long x, y;
	bool die;

#define CMD(word) is_cmd(text, len, word, &a, &n)
	if (die_position != NULL &&
	    (CMD("position") || CMD("setboard") || CMD("usermove"))) {
		char *end;
		long k = strtol(die_position, &end, 10);
		positions++;
		if (*end == '\0' ? positions == k
				 : holds(text, len, die_position))
			crash();
	}
	if ((!knows_uci && (CMD("uci") || CMD("isready"))) ||
	    (!knows_xboard && (CMD("xboard") || CMD("protover")))) {
		if (!quiet_unknown && knows_xboard) {
			outs("Error (unknown command): ");
			out(text, len);
			outs("\n");
		} else if (!quiet_unknown) {
			outs("Unknown command: '");
			out(text, len);
			outs("'. Type help for more information.\n");
		}
		if (die_on_unknown != 0) {
			fflush(stdout);
			signal(die_on_unknown, SIG_DFL);
			raise(die_on_unknown);
			exit(1);
		}
	} else if (CMD("xboard")) {
		/* CECP wants no answer */
		saw_xboard = true;
	} else if (go_file != NULL && CMD("go")) {
		fflush(stdout);
		if (go_kills())
			crash();
		outs(saw_xboard ? "move a2a3\n" : "bestmove a2a3\n");
	} else if (protover1 && (CMD("uci") || CMD("protover"))) {
		/* no answer, as an engine of CECP version 1 */
	} else if (CMD("uci") && sloppy) {
		outs("\nid name fake sloppy engine whose name is longer than "
		     "any GUI shows: version 1\n"
		     "option name Ponder type check default False\n"
		     "option name UCI_Chess960 type check default false\n"
		     "\r\nuciok\n");
	} else if (CMD("go") && sloppy) {
		outs("info depth 1 score 20 nodes 20 pv e2e4\n"
		     "info string score 5\n"
		     "info depth 1 multipv 2 score cp 10 pv d2d4\n"
		     "bestmove e2e4\n");
	} else if (CMD("uci")) {
		if (handshake_line != NULL && handshake_first)
			out_lines(handshake_line);
		outs("id name fake\nid author fenbridge e2e tests\n"
		     "option name UCI_Chess960 type check default false\n");
		if (handshake_line != NULL && !handshake_first)
			out_lines(handshake_line);
		burn_cpu();
		outs("uciok\n");
	} else if (CMD("isready")) {
		if (answer_delay > 0)
			sleep_ms(answer_delay);
		burn_cpu();
		outs("readyok\n");
	} else if (CMD("protover")) {
		burn_cpu();
		if (handshake_line != NULL && handshake_first)
			out_lines(handshake_line);
		outs("feature myname=\"fake\" setboard=1 ping=1 usermove=1 "
		     "sigint=1 sigterm=1 variants=\"normal,fischerandom\"");
		if (handshake_line != NULL && !handshake_first) {
			outs("\n");
			out_lines(handshake_line);
			outs("feature");
		}
		outs(" done=1\n");
	} else if (CMD("go") && on_go != NULL) {
		burn_cpu();
		out_lines(on_go);
	} else if (CMD("ping")) {
		if (answer_delay > 0)
			sleep_ms(answer_delay);
		burn_cpu();
		outs("pong ");
		out(a, n);
		outs("\n");
	} else if (CMD("quit")) {
		event("quit\n");
		if (!ignore_quit) {
			fflush(stdout);
			exit(0);
		}
	} else if (CMD("fake-flood")) {
		numbers(a, n, &x, &y);
		burst(x, "flood");
		outs("info string flood done\n");
	} else if ((die = CMD("fake-die")) || CMD("fake-exit")) {
		numbers(a, n, &x, &y);
		burst(y, "burst");
		fflush(stdout);
		if (!die)
			exit((int)x);
		signal((int)x, SIG_DFL);
		raise((int)x);
		exit(1);
	} else if (CMD("fake-ill")) {
		numbers(a, n, &x, &y);
		burst(x, "burst");
		fflush(stdout);
		illegal_instruction();
	} else if (CMD("fake-stderr")) {
		fwrite(a, 1, n, stderr);
		fputc('\n', stderr);
		fflush(stderr);
	} else if (CMD("fake-half")) {
		out(a, n);
		fflush(stdout);
		exit(0);
	} else if (CMD("fake-echo")) {
		out(a, n + term);
	} else if (CMD("fake-line")) {
		out(a, n);
		outs("\n");
	} else if (CMD("fake-closeout")) {
		fflush(stdout);
		close(STDOUT_FILENO);
		out_closed = true;
		event("closed stdout\n");
	} else if (CMD("fake-sleep")) {
		numbers(a, n, &x, &y);
		sleep_ms(x);
	}
#undef CMD
}

static void
line_in(const char *line, size_t n)
{
	size_t len = n, term = 0;

	if (len > 0 && line[len - 1] == '\n')
		len--, term++;
	if (len > 0 && line[len - 1] == '\r')
		len--, term++;
	command(line, len, term);
	if (!out_closed)
		fflush(stdout);
}

static int
open_append(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0) {
		fprintf(stderr, "fake_engine: %s: %s\n", path, strerror(errno));
		exit(99);
	}
	return fd;
}

int
main(int argc, char **argv)
{
	const char *todo[MAX_DO];
	int ndo = 0, i;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	char buf[64];
	const char *once = NULL;

	for (i = 1; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		const char *o = argv[i];
		if (strncmp(o, "--events=", 9) == 0)
			events_fd = open_append(o + 9);
		else if (strcmp(o, "--ignore-quit") == 0)
			ignore_quit = true;
		else if (strcmp(o, "--ignore-term") == 0)
			ignore_term = true;
		else if (strcmp(o, "--hang-on-eof") == 0)
			hang_on_eof = true;
		else if (strcmp(o, "--sloppy") == 0)
			sloppy = true;
		else if (strcmp(o, "--protover1") == 0)
			protover1 = true;
		else if (strcmp(o, "--speaks=uci") == 0)
			knows_xboard = false;
		else if (strcmp(o, "--speaks=xboard") == 0)
			knows_uci = false;
		else if (strcmp(o, "--speaks=both") == 0)
			knows_uci = knows_xboard = true;
		else if (strcmp(o, "--quiet-unknown") == 0)
			quiet_unknown = true;
		else if (strncmp(o, "--die-on-unknown=", 17) == 0)
			die_on_unknown = atoi(o + 17);
		else if (strncmp(o, "--once=", 7) == 0)
			once = o + 7;
		else if (strncmp(o, "--eof-status=", 13) == 0)
			eof_status = atoi(o + 13);
		else if (strncmp(o, "--die-at-go=", 12) == 0 &&
			 strrchr(o, ':') != NULL) {
			/* The last colon: a Windows FILE has one (Z:\...) */
			static char file[1024];
			snprintf(file, sizeof file, "%.*s",
				 (int)(strrchr(o, ':') - o - 12), o + 12);
			go_file = file;
			go_deaths = strrchr(o, ':') + 1;
		} else if (strncmp(o, "--die-on-position=", 18) == 0)
			die_position = o + 18;
		else if (strncmp(o, "--answer-delay=", 15) == 0)
			answer_delay = atol(o + 15);
		else if (strncmp(o, "--burn=", 7) == 0)
			burn = atol(o + 7);
		else if (strncmp(o, "--on-go=", 8) == 0)
			on_go = o + 8;
		else if (strcmp(o, "--handshake-first") == 0)
			handshake_first = true;
		else if (strncmp(o, "--handshake-line=", 17) == 0)
			handshake_line = o + 17;
		else if (strncmp(o, "--do=", 5) == 0 && ndo < MAX_DO)
			todo[ndo++] = o + 5;
		else
			break;
	}
	if (i + 1 != argc || strncmp(argv[i], "--", 2) == 0) {
		fprintf(stderr, "usage: fake_engine [--events=FILE] "
				"[--ignore-quit] [--ignore-term] "
				"[--hang-on-eof] [--protover1] [--sloppy] "
				"[--eof-status=N] "
				"[--speaks=uci|xboard|both] [--quiet-unknown] "
				"[--die-on-unknown=SIG] [--once=FILE] "
				"[--do=CMD] [--die-at-go=FILE:K,...] "
				"[--die-on-position=N|TEXT] "
				"[--answer-delay=MS] [--on-go=TEXT] "
				"[--handshake-line=TEXT] [--handshake-first] "
				"RECORD\n");
		return 99;
	}
	if (once != NULL) {
		/* The first start misbehaves; it leaves FILE behind. */
		int fd = open(once, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			      0644);
		if (fd < 0)
			die_on_unknown = 0;
		else
			close(fd);
	}
	record_fd = open_append(argv[i]);
	snprintf(buf, sizeof buf, "pid %ld\n", (long)getpid());
	event(buf);

#ifdef _WIN32
	_setmode(0, _O_BINARY);
	_setmode(1, _O_BINARY);
	signal(SIGINT, on_signal);
#else
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
#endif
	setvbuf(stdout, NULL, _IOFBF, 64 * 1024);

	for (i = 0; i < ndo; i++)
		line_in(todo[i], strlen(todo[i]));
	while ((n = getline(&line, &cap, stdin)) > 0) {
		write_all(record_fd, line, (size_t)n);
		line_in(line, (size_t)n);
	}
	free(line);
	event("eof\n");
	if (hang_on_eof)
		for (;;)
			pause();
	return eof_status;
}
