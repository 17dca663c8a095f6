/* SPDX-License-Identifier: MIT */
/*
 * Benchmark of the bridge (src/daemon/bridge.c, the line framer, the filters)
 * against two minimal relays, all measured in one run so that the ratios
 * come from the same machine and the same moment.
 *
 * Usage: bench_bridge [--quick] [--reps=N] [--only=LIST] FENBRIDGE
 *   --quick      smaller streams, one repetition (a few seconds)
 *   --reps=N     repetitions of each fenbridge/relay pair (default 3)
 *   --only=LIST  some of flood,flood960,rtt,pos,fens,stall (comma-separated),
 *                e.g. to profile one: FENBRIDGE may be a wrapper script
 *                (bench/callgrind_lines.sh runs it under callgrind)
 *
 * This one program plays four parts:
 *   - the GUI (the default): it starts `FENBRIDGE -- SELF --engine ...`,
 *     `SELF --relay -- SELF --engine ...` or `SELF --uvrelay -- ...` on
 *     pipes, talks UCI to it, times it and checks every byte that comes out;
 *   - the minimal relay (`--relay -- ENGINE [ARGS...]`): the engine on two
 *     pipes, poll(2), read(2) 64 KiB, write(2) it all to the other side;
 *   - the libuv relay (`--uvrelay -- ENGINE [ARGS...]`): the same with
 *     libuv, as fenbridge uses it (uv_read_start, uv_try_write, uv_write
 *     for what the pipe does not take): what libuv itself costs;
 *   - the fake engine (`--engine MODE [FILE LEN]`): answers uci/isready/
 *     quit; in flood mode writes LEN bytes of FILE on `go` (64 KiB writes);
 *     in pos mode compares every `position` line it gets with the next line
 *     of FILE and tells the tally in an `info string` before `readyok`.
 *
 * Every stream is generated once, before any timing, into files under
 * /dev/shm (unlinked at once; the engine opens them as /proc/PID/fd/N), so
 * neither end spends time formatting while the clock runs and both ends can
 * check byte for byte what the other sent.
 *
 * Measurements (each fenbridge run interleaved with a relay run; figures are
 * medians over the repetitions, with the range; the CPU time per line of the
 * bridge or relay process, from /proc/PID/schedstat, is shown beside the
 * wall-clock rates because it is far less sensitive to other load on the
 * machine):
 *   1. engine -> GUI flood of `info` lines after a uci/position preamble,
 *      plain (castling notations agree: lines pass untouched) and the worst
 *      case (GUI in UCI_Chess960, engine without it, position with castling
 *      rights: every pv is parsed and castling moves rewritten e1g1 -> e1h1;
 *      the GUI checks that through a list of patched bytes);
 *   2. isready -> readyok round trips, one at a time, the fenbridge and the
 *      two relay sessions open together and taking turns: median and p99;
 *   3. GUI -> engine `position fen <Shredder-FEN> moves ...` lines: Chess960
 *      starts, games resent with one more move each time, long move lists of
 *      40-200 plies, mid-game FENs; the engine checks each line against the
 *      X-FEN rewrite the bench computed itself (BENCH_BRIDGE_DEBUG=1 in the
 *      environment: the engine prints the first line that differs); and
 *      (fens) 10,000 different Chess960 positions in bulk, X-FEN as sent,
 *      each a `position fen ... moves ...` line, to an engine that gets
 *      Shredder-FEN (--engine-fen=shredder);
 *   4. peak RSS (VmHWM) of the bridge process in the flood, and in a flood
 *      during which the GUI stops reading for a few seconds, then drains.
 *
 * Exit status: 0 whatever the figures; 1 when any line was lost, reordered
 * or corrupted (or a run hung); 2 on a usage or setup error.
 */
/* MAP_POPULATE on Linux (glibc hides it under plain POSIX); the rest is
 * POSIX, plus /proc for the figures. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE 1
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

#define IO_SIZE (64 * 1024)   /* reads and writes of every part */
#define SESSION_TIMEOUT_S 180 /* a run that takes longer has hung */
#define SEED UINT64_C(0xfe4b41d6e5eed)

/* Targets. */
#define TARGET_FLOOD_RATIO 1.0 /* info flood, against the poll relay */
#define TARGET_FENS_RATIO 0.6  /* bulk X-FEN -> Shredder-FEN lines */
#define TARGET_RTT_US 0.5      /* isready, over the libuv relay's median */
#define TARGET_RSS_KIB 3072

struct sizes {
	unsigned long flood_lines; /* measurement 1 */
	unsigned long stall_lines; /* measurement 4, second part */
	unsigned stall_ms;
	unsigned long rtt_n; /* measurement 2 */
	unsigned long rtt_warmup;
	unsigned long pos_lines; /* measurement 3 */
	unsigned long fens_lines; /* measurement 3, bulk FENs */
	int reps;                /* of 1, 2 and 3 */
};

static const struct sizes full_sizes = {
	.flood_lines = 2000000,
	.stall_lines = 1000000,
	.stall_ms = 3000,
	.rtt_n = 20000,
	.rtt_warmup = 1000,
	.pos_lines = 300000,
	.fens_lines = 1000000,
	.reps = 3,
};

static const struct sizes quick_sizes = {
	.flood_lines = 400000,
	.stall_lines = 300000,
	.stall_ms = 1000,
	.rtt_n = 4000,
	.rtt_warmup = 300,
	.pos_lines = 60000,
	.fens_lines = 200000,
	.reps = 1,
};

/* ---------------------------------------------------------------- common */

static char self_path[PATH_MAX];
#define NWATCHED 3
static volatile pid_t watched_pid[NWATCHED]; /* killed when a run hangs */

static void
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

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* write(2) until done: 0, or -1 (errno set). */
static int
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

static void
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

static uint64_t
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
static unsigned
rnd(unsigned n)
{
	return (unsigned)((rng_next() >> 32) % n);
}

static char *
put_s(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

static char *
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

/* ---------------------------------------------------------------- streams */

/*
 * A stream lives in a file under /dev/shm (or /tmp), unlinked at once: the
 * GUI maps it, the engine opens /proc/<bench pid>/fd/<fd>.
 */
struct stream {
	int fd;
	const char *data; /* once sealed: the whole stream, mapped */
	size_t len;       /* bytes so far */
	char *stage;      /* while generating: bytes not written yet */
	size_t slen;
	unsigned long lines;
	char path[64];
};

#define STAGE_SIZE (1024 * 1024)

static void
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
static char *
stream_at(struct stream *s, size_t n)
{
	if (n > STAGE_SIZE)
		die("internal error: stream write of %zu bytes", n);
	if (s->slen + n > STAGE_SIZE)
		stream_flush(s);
	return s->stage + s->slen;
}

/* The bytes up to end (from stream_at) are the stream's. */
static void
stream_wrote(struct stream *s, const char *end)
{
	size_t n = (size_t)(end - s->stage);

	s->len += n - s->slen;
	s->slen = n;
}

/* Maps p[0..n) from fd read-only, every page present (no page fault left
 * for the timed part). */
static const char *
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
static void
stream_seal(struct stream *s)
{
	stream_flush(s);
	free(s->stage);
	s->stage = NULL;
	if ((s->data = map_stream(s->fd, s->len)) == NULL)
		die("mmap: %s", strerror(errno));
}

/* ------------------------------------------------------- flood: info lines */

/* Openings from the start position; castling is the king's two-square move
 * here (standard UCI), e1h1-style in the Chess960 expectation. */
static const char *const openings[] = {
	/* Ruy Lopez, Chigorin */
	"e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 "
	"d7d6 c2c3 e8g8 h2h3 c6a5 b3c2 c7c5 d2d4 d8c7",
	/* Giuoco Piano */
	"e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6 d2d3 d7d6 e1g1 e8g8 f1e1 "
	"a7a6 c4b3 c5a7 h2h3 h7h6 b1d2 c8e6",
	/* Najdorf, English Attack */
	"e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5 d4b3 "
	"c8e6 f2f3 f8e7 d1d2 e8g8 e1c1 b8d7 g2g4 b7b5",
	/* QGD */
	"d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3 e8g8 g1f3 h7h6 g5h4 "
	"b7b6 f1e2 c8b7 e1g1 b8d7 c4d5 e6d5",
	/* King's Indian, Classical */
	"d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6 g1f3 e8g8 f1e2 e7e5 e1g1 "
	"b8c6 d4d5 c6e7 f3e1 f6d7 e1d3 f7f5",
	/* French, Winawer poisoned pawn */
	"e2e4 e7e6 d2d4 d7d5 b1c3 f8b4 e4e5 c7c5 a2a3 b4c3 b2c3 g8e7 d1g4 "
	"d8c7 g4g7 h8g8 g7h7 c5d4 g1e2 b8c6",
	/* Caro-Kann, Classical */
	"e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5 e4g3 f5g6 h2h4 h7h6 g1f3 "
	"b8d7 h4h5 g6h7 f1d3 h7d3 d1d3 e7e6 c1d2 g8f6 e1c1 f8e7",
	/* English, reversed Dragon */
	"c2c4 e7e5 b1c3 g8f6 g1f3 b8c6 g2g3 d7d5 c4d5 f6d5 f1g2 d5b6 e1g1 "
	"f8e7 d2d3 e8g8 a2a3 c8e6 b2b4 f7f6",
};
#define NOPENINGS (sizeof openings / sizeof openings[0])
#define MAX_PLIES 32

static char pv_move[NOPENINGS][MAX_PLIES][8];     /* king notation */
static char pv_move_kxr[NOPENINGS][MAX_PLIES][8]; /* king takes rook */
static unsigned pv_len[NOPENINGS];

static void
openings_init(void)
{
	static const char *const castles[][2] = {
		{"e1g1", "e1h1"}, {"e1c1", "e1a1"},
		{"e8g8", "e8h8"}, {"e8c8", "e8a8"}};

	for (size_t o = 0; o < NOPENINGS; o++) {
		const char *p = openings[o];
		unsigned n = 0;
		while (*p != '\0' && n < MAX_PLIES) {
			size_t k = strcspn(p, " ");
			memcpy(pv_move[o][n], p, k);
			pv_move[o][n][k] = '\0';
			strcpy(pv_move_kxr[o][n], pv_move[o][n]);
			for (size_t c = 0; c < 4; c++)
				if (strcmp(pv_move[o][n], castles[c][0]) == 0)
					strcpy(pv_move_kxr[o][n],
					       castles[c][1]);
			n++;
			p += k;
			while (*p == ' ')
				p++;
		}
		pv_len[o] = n;
	}
}

/*
 * Where the Chess960 expectation differs from the flood: king-takes-rook
 * castling has the same length as the king's move (e1g1 -> e1h1), so one
 * byte per castling move.
 */
struct patch {
	size_t off;
	char c;
};

struct patches {
	struct patch *v;
	size_t n, cap;
};

static void
patch_add(struct patches *ps, size_t off, char c)
{
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? ps->cap * 2 : 4096;
		if ((ps->v = realloc(ps->v, ps->cap * sizeof *ps->v)) == NULL)
			die("out of memory");
	}
	ps->v[ps->n++] = (struct patch){off, c};
}

/*
 * Writes `info` line i of the flood (numbers varying with i) at p, which is
 * at offset `at` of the stream; where castling in king-takes-rook notation
 * differs, adds a patch to ps. Returns the end.
 */
static char *
info_line(char *p, size_t at, uint64_t i, struct patches *ps)
{
	const char *base = p;
	uint64_t h = mix64(i + SEED);
	unsigned kind = (unsigned)(h % 20);
	unsigned depth = 8 + (unsigned)((i / 20000) % 30) + (unsigned)(h >> 61);
	size_t o = (size_t)((h >> 44) % NOPENINGS);
	uint64_t nodes = i * 1237 + (h >> 32) % 100000;
	uint64_t ms = i / 256 + 1;

	p = put_s(p, "info ");
	if (kind == 0) { /* current move */
		p = put_s(p, "depth ");
		p = put_u(p, depth);
		p = put_s(p, " currmove ");
		p = put_s(p, pv_move[o][0]);
		p = put_s(p, " currmovenumber ");
		p = put_u(p, 1 + (h >> 20) % 30);
		*p++ = '\n';
		return p;
	}
	if (kind == 1) { /* periodic statistics */
		p = put_s(p, "nodes ");
		p = put_u(p, nodes);
		p = put_s(p, " nps ");
		p = put_u(p, 900000 + (h >> 40) % 1200000);
		p = put_s(p, " hashfull ");
		p = put_u(p, (h >> 5) % 1000);
		p = put_s(p, " tbhits 0 time ");
		p = put_u(p, ms);
		*p++ = '\n';
		return p;
	}
	p = put_s(p, "depth ");
	p = put_u(p, depth);
	p = put_s(p, " seldepth ");
	p = put_u(p, depth + 3 + (h >> 8) % 12);
	p = put_s(p, " multipv ");
	p = put_u(p, (h >> 12) % 8 == 0 ? 1 + (h >> 16) % 3 : 1);
	if ((h >> 20) % 64 == 0) {
		p = put_s(p, (h >> 27) & 1 ? " score mate -" : " score mate ");
		p = put_u(p, 1 + (h >> 28) % 12);
	} else {
		long cp = (long)((h >> 24) % 700) - 300;
		p = put_s(p, " score cp ");
		if (cp < 0) {
			*p++ = '-';
			cp = -cp;
		}
		p = put_u(p, (uint64_t)cp);
		if ((h >> 34) % 16 == 0)
			p = put_s(p, (h >> 38) & 1 ? " lowerbound"
						   : " upperbound");
	}
	p = put_s(p, " nodes ");
	p = put_u(p, nodes);
	p = put_s(p, " nps ");
	p = put_u(p, 900000 + (h >> 40) % 1200000);
	p = put_s(p, " hashfull ");
	p = put_u(p, (h >> 5) % 1000);
	p = put_s(p, " tbhits 0 time ");
	p = put_u(p, ms);
	p = put_s(p, " pv");
	{
		unsigned n = 6 + (unsigned)((h >> 50) % (pv_len[o] - 5));
		for (unsigned k = 0; k < n; k++) {
			*p++ = ' ';
			if (pv_move_kxr[o][k][2] != pv_move[o][k][2])
				patch_add(ps, at + (size_t)(p + 2 - base),
					  pv_move_kxr[o][k][2]);
			p = put_s(p, pv_move[o][k]);
		}
	}
	*p++ = '\n';
	return p;
}

#define INFO_MAX 400
#define FLOOD_END "bestmove e2e4 ponder e7e5\n"

/*
 * The flood as the engine writes it (king notation) into s, the patches
 * that make it the Chess960 expectation, and the offset where line
 * stall_lines ends.
 */
static void
make_flood(struct stream *s, struct patches *kxr, unsigned long lines,
	   unsigned long stall_lines, size_t *stall_len)
{
	stream_create(s);
	*stall_len = 0;
	for (unsigned long i = 0; i < lines; i++) {
		char *p = stream_at(s, INFO_MAX);
		stream_wrote(s, info_line(p, s->len, i, kxr));
		if (i + 1 == stall_lines)
			*stall_len = s->len;
	}
	stream_wrote(s, put_s(stream_at(s, INFO_MAX), FLOOD_END));
	if (*stall_len == 0)
		*stall_len = s->len;
	s->lines = lines + 1;
	stream_seal(s);
}

/* --------------------------------------------- position lines: Chess960 */

/* A game followed without legality checks beyond pseudo-legal moves. */
struct cgame {
	char b[8][8]; /* [rank][file], 0 empty */
	int side;     /* 0 white, 1 black */
	int castle[2][2]; /* [colour][0 = h-side, 1 = a-side]: rook file, -1 */
	int ep;           /* file of a double step just made, or -1 */
	unsigned half, full;
};

struct cmove {
	signed char ff, fr, tf, tr;
	char promo;
	bool castle;
};

static int
colour_of(char p)
{
	return p >= 'a' ? 1 : 0;
}

/* Chess960 start number idx (Scharnagl numbering; 518 is chess). */
static void
cgame_start(struct cgame *g, unsigned idx)
{
	static const int knights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4},
					   {1, 2}, {1, 3}, {1, 4}, {2, 3},
					   {2, 4}, {3, 4}};
	char row[8] = {0};
	int empty[8], ne, rooks = 0;
	unsigned n = idx;

	row[2 * (n % 4) + 1] = 'B';
	n /= 4;
	row[2 * (n % 4)] = 'B';
	n /= 4;
	ne = 0;
	for (int f = 0; f < 8; f++)
		if (row[f] == 0)
			empty[ne++] = f;
	row[empty[n % 6]] = 'Q';
	n /= 6;
	ne = 0;
	for (int f = 0; f < 8; f++)
		if (row[f] == 0)
			empty[ne++] = f;
	row[empty[knights[n][0]]] = 'N';
	row[empty[knights[n][1]]] = 'N';
	memset(g, 0, sizeof *g);
	for (int f = 0; f < 8; f++) {
		if (row[f] == 0)
			row[f] = rooks++ == 1 ? 'K' : 'R';
		g->b[0][f] = row[f];
		g->b[1][f] = 'P';
		g->b[6][f] = 'p';
		g->b[7][f] = (char)(row[f] | 0x20);
	}
	for (int c = 0; c < 2; c++) {
		g->castle[c][1] = -1;
		for (int f = 0; f < 8; f++)
			if (row[f] == 'R') {
				if (g->castle[c][1] < 0)
					g->castle[c][1] = f;
				else
					g->castle[c][0] = f;
			}
	}
	g->ep = -1;
	g->full = 1;
}

static int
king_file(const struct cgame *g, int c)
{
	int r = c == 0 ? 0 : 7;

	for (int f = 0; f < 8; f++)
		if (g->b[r][f] == (c == 0 ? 'K' : 'k'))
			return f;
	return -1;
}

static bool
on_board(int f, int r)
{
	return f >= 0 && f < 8 && r >= 0 && r < 8;
}

#define MAX_MOVES 320 /* more than any position has */

/* Pseudo-legal moves (kings are never captured) of the side to move. */
static int
cgame_moves(const struct cgame *g, struct cmove *mv)
{
	static const int kn[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
				     {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
	static const int dirs[8][2] = {{1, 0},  {-1, 0}, {0, 1},  {0, -1},
				       {1, 1},  {1, -1}, {-1, 1}, {-1, -1}};
	int c = g->side, fwd = c == 0 ? 1 : -1, n = 0;

#define ADD(FF, FR, TF, TR, PR, CA)                                          \
	do {                                                                 \
		if (n == MAX_MOVES)                                          \
			break;                                               \
		mv[n].ff = (signed char)(FF);                                \
		mv[n].fr = (signed char)(FR);                                \
		mv[n].tf = (signed char)(TF);                                \
		mv[n].tr = (signed char)(TR);                                \
		mv[n].promo = (PR);                                          \
		mv[n].castle = (CA);                                         \
		n++;                                                         \
	} while (0)

	for (int r = 0; r < 8; r++)
		for (int f = 0; f < 8; f++) {
			char p = g->b[r][f], k;
			int lo = 0, hi = 8;
			bool slide = true;
			if (p == 0 || colour_of(p) != c)
				continue;
			k = (char)(p | 0x20);
			if (k == 'p') {
				int r1 = r + fwd;
				char pr = (r1 == 0 || r1 == 7) ? 'q' : 0;
				if (on_board(f, r1) && g->b[r1][f] == 0) {
					ADD(f, r, f, r1, pr, false);
					if (r == (c == 0 ? 1 : 6) &&
					    g->b[r1 + fwd][f] == 0)
						ADD(f, r, f, r1 + fwd, 0,
						    false);
				}
				for (int df = -1; df <= 1; df += 2) {
					char t;
					if (!on_board(f + df, r1))
						continue;
					t = g->b[r1][f + df];
					if (t != 0 && colour_of(t) != c &&
					    (t | 0x20) != 'k')
						ADD(f, r, f + df, r1, pr,
						    false);
					else if (t == 0 && g->ep == f + df &&
						 r == (c == 0 ? 4 : 3))
						ADD(f, r, f + df, r1, 0, false);
				}
				continue;
			}
			if (k == 'n' || k == 'k') {
				for (int d = 0; d < 8; d++) {
					int tf = f + (k == 'n' ? kn[d][0]
							       : dirs[d][0]);
					int tr = r + (k == 'n' ? kn[d][1]
							       : dirs[d][1]);
					char t;
					if (!on_board(tf, tr))
						continue;
					t = g->b[tr][tf];
					if (t == 0 || (colour_of(t) != c &&
						       (t | 0x20) != 'k'))
						ADD(f, r, tf, tr, 0, false);
				}
				continue;
			}
			if (k == 'r')
				hi = 4;
			else if (k == 'b')
				lo = 4;
			else if (k != 'q')
				slide = false;
			for (int d = lo; slide && d < hi; d++) {
				int tf = f + dirs[d][0], tr = r + dirs[d][1];
				while (on_board(tf, tr)) {
					char t = g->b[tr][tf];
					if (t != 0 && (colour_of(t) == c ||
						       (t | 0x20) == 'k'))
						break;
					ADD(f, r, tf, tr, 0, false);
					if (t != 0)
						break;
					tf += dirs[d][0];
					tr += dirs[d][1];
				}
			}
		}
	/* Castling, Chess960 rules (no check test): everything between the
	 * king, the rook and their targets empty but the two of them. */
	for (int w = 0; w < 2; w++) {
		int rf = g->castle[c][w], kf = king_file(g, c), br = c ? 7 : 0;
		int kt = w == 0 ? 6 : 2, rt = w == 0 ? 5 : 3, lo, hi;
		bool ok = true;
		if (rf < 0 || kf < 0)
			continue;
		lo = kf < rf ? kf : rf;
		hi = kf > rf ? kf : rf;
		lo = lo < kt ? lo : kt;
		lo = lo < rt ? lo : rt;
		hi = hi > kt ? hi : kt;
		hi = hi > rt ? hi : rt;
		for (int f = lo; f <= hi; f++)
			if (f != kf && f != rf && g->b[br][f] != 0)
				ok = false;
		if (ok)
			ADD(kf, br, rf, br, 0, true);
	}
#undef ADD
	return n;
}

static void
lose_right_at(struct cgame *g, int f, int r)
{
	for (int c = 0; c < 2; c++)
		if (r == (c == 0 ? 0 : 7))
			for (int w = 0; w < 2; w++)
				if (g->castle[c][w] == f)
					g->castle[c][w] = -1;
}

static void
cgame_play(struct cgame *g, const struct cmove *m)
{
	int c = g->side;
	char p = g->b[m->fr][m->ff], cap = g->b[m->tr][m->tf];

	if (m->castle) {
		int w = m->tf > m->ff ? 0 : 1;
		char rook = g->b[m->tr][m->tf];
		g->b[m->fr][m->ff] = 0;
		g->b[m->tr][m->tf] = 0;
		g->b[m->fr][w == 0 ? 6 : 2] = p;
		g->b[m->fr][w == 0 ? 5 : 3] = rook;
		g->castle[c][0] = g->castle[c][1] = -1;
		g->ep = -1;
		g->half++;
	} else {
		bool pawn = (p | 0x20) == 'p';
		if (pawn && m->ff != m->tf && cap == 0)
			g->b[m->fr][m->tf] = 0; /* en passant */
		g->ep = pawn && (m->tr - m->fr == 2 || m->fr - m->tr == 2)
				? m->ff
				: -1;
		if ((p | 0x20) == 'k')
			g->castle[c][0] = g->castle[c][1] = -1;
		lose_right_at(g, m->ff, m->fr);
		lose_right_at(g, m->tf, m->tr);
		g->b[m->tr][m->tf] =
			m->promo ? (c == 0 ? 'Q' : 'q') : p;
		g->b[m->fr][m->ff] = 0;
		g->half = pawn || cap ? 0 : g->half + 1;
	}
	if (c == 1)
		g->full++;
	g->side ^= 1;
}

/* The move as UCI writes it with UCI_Chess960: castling king takes rook. */
static char *
put_move(char *p, const struct cmove *m)
{
	*p++ = (char)('a' + m->ff);
	*p++ = (char)('1' + m->fr);
	*p++ = (char)('a' + m->tf);
	*p++ = (char)('1' + m->tr);
	if (m->promo)
		*p++ = m->promo;
	return p;
}

/* Picks a move: castling when it can (half the time), else any. */
static bool
cgame_random_move(const struct cgame *g, struct cmove *out)
{
	struct cmove mv[MAX_MOVES];
	int n = cgame_moves(g, mv);

	if (n == 0)
		return false;
	if (mv[n - 1].castle && rnd(2) == 0)
		*out = mv[n - 1];
	else
		*out = mv[rnd((unsigned)n)];
	return true;
}

/* Another own rook on the back rank further out than file on that wing. */
static bool
outer_rook(const struct cgame *g, int c, int w, int file)
{
	int r = c == 0 ? 0 : 7;
	int lo = w == 0 ? file + 1 : 0, hi = w == 0 ? 8 : file;

	for (int f = lo; f < hi; f++)
		if (g->b[r][f] == (c == 0 ? 'R' : 'r'))
			return true;
	return false;
}

/* The FEN of g; castling as Shredder-FEN (rook files) or as X-FEN. The
 * e.p. field is always '-' (an X-FEN writer may drop a useless one). */
static char *
put_fen(char *p, const struct cgame *g, bool xfen)
{
	bool any = false;

	for (int r = 7; r >= 0; r--) {
		int run = 0;
		for (int f = 0; f < 8; f++) {
			if (g->b[r][f] == 0) {
				run++;
				continue;
			}
			if (run > 0)
				*p++ = (char)('0' + run);
			run = 0;
			*p++ = g->b[r][f];
		}
		if (run > 0)
			*p++ = (char)('0' + run);
		if (r > 0)
			*p++ = '/';
	}
	*p++ = ' ';
	*p++ = g->side == 0 ? 'w' : 'b';
	*p++ = ' ';
	for (int c = 0; c < 2; c++)
		for (int w = 0; w < 2; w++) {
			int file = g->castle[c][w];
			char base = c == 0 ? 'A' : 'a';
			if (file < 0)
				continue;
			any = true;
			if (xfen && !outer_rook(g, c, w, file))
				*p++ = (char)((w == 0 ? 'K' : 'Q') +
					      (base - 'A'));
			else
				*p++ = (char)(base + file);
		}
	if (!any)
		*p++ = '-';
	p = put_s(p, " - ");
	p = put_u(p, g->half);
	*p++ = ' ';
	p = put_u(p, g->full);
	return p;
}

#define POS_MAX_PLIES 200
#define POS_LINE_MAX (16 + 100 + 8 + POS_MAX_PLIES * 6 + 2)
#define POOL_GAMES 768

/* A game of the pool: its start, its moves, and the text " moves m1 m2..."
 * of which the first k plies are text[0..off[k]). */
struct pool_game {
	struct cgame start;
	struct cmove mv[POS_MAX_PLIES];
	unsigned n;
	unsigned off[POS_MAX_PLIES + 1];
	char text[POS_MAX_PLIES * 6 + 8];
};

struct pos_gen {
	struct stream *in, *out; /* the FENs as sent, as expected */
	bool in_xfen; /* false: Shredder-FEN in, X-FEN out; true: the reverse */
	unsigned long lines, resent; /* resent: lines of resent games */
};

/* One line: `position fen FEN` and moves, in both dialects. */
static void
pos_emit(struct pos_gen *pg, const struct cgame *base, const char *prefix,
	 const char *moves, size_t mlen)
{
	char *a, *b;

	a = put_fen(put_s(stream_at(pg->in, POS_LINE_MAX), "position fen "),
		    base, pg->in_xfen);
	b = put_fen(put_s(stream_at(pg->out, POS_LINE_MAX), "position fen "),
		    base, !pg->in_xfen);
	if (mlen > 0) {
		a = put_s(a, prefix);
		b = put_s(b, prefix);
	}
	memcpy(a, moves, mlen);
	memcpy(b, moves, mlen);
	a[mlen] = b[mlen] = '\n';
	stream_wrote(pg->in, a + mlen + 1);
	stream_wrote(pg->out, b + mlen + 1);
	pg->lines++;
}

/* A random game of up to POS_MAX_PLIES from a random Chess960 start. */
static void
pool_game_make(struct pool_game *pg)
{
	struct cgame g;
	size_t len = 0;

	cgame_start(&g, rnd(960));
	pg->start = g;
	pg->n = 0;
	pg->off[0] = 0;
	while (pg->n < POS_MAX_PLIES && cgame_random_move(&g, &pg->mv[pg->n])) {
		if (len == 0)
			len = (size_t)(put_s(pg->text, " moves") - pg->text);
		pg->text[len++] = ' ';
		len = (size_t)(put_move(pg->text + len, &pg->mv[pg->n]) -
			       pg->text);
		cgame_play(&g, &pg->mv[pg->n]);
		pg->off[++pg->n] = (unsigned)len;
	}
}

/*
 * The position stream, from a pool of random Chess960 games; sessions drawn
 * at random until `lines` lines:
 *  - a game resent with one more ply each time (as a GUI does along a game),
 *    up to 40-200 plies: 1 session in 40 (most of the lines);
 *  - one line with a move list of 40-200 plies from a Chess960 start;
 *  - a mid-game FEN (10-70 plies in), with 0-20 moves after it.
 * Returns how many lines belong to resent games.
 */
static unsigned long
make_positions(struct stream *in, struct stream *out, unsigned long lines)
{
	struct pos_gen pg = {.in = in, .out = out};
	struct pool_game *pool = malloc(POOL_GAMES * sizeof *pool);

	if (pool == NULL)
		die("out of memory");
	for (unsigned i = 0; i < POOL_GAMES; i++)
		pool_game_make(&pool[i]);
	stream_create(in);
	stream_create(out);
	while (pg.lines < lines) {
		const struct pool_game *pgm = &pool[rnd(POOL_GAMES)];
		unsigned kind = rnd(40), n = 40 + rnd(161);
		if (n > pgm->n)
			n = pgm->n;
		if (kind == 0) {
			pos_emit(&pg, &pgm->start, "", "", 0);
			for (unsigned k = 1; k <= n && pg.lines < lines; k++) {
				pos_emit(&pg, &pgm->start, "", pgm->text,
					 pgm->off[k]);
				pg.resent++;
			}
		} else if (kind < 33) {
			pos_emit(&pg, &pgm->start, "", pgm->text, pgm->off[n]);
		} else {
			struct cgame g = pgm->start;
			unsigned p = 10 + rnd(61), j = rnd(21);
			if (p + j > pgm->n)
				p = j = 0;
			for (unsigned k = 0; k < p; k++)
				cgame_play(&g, &pgm->mv[k]);
			pos_emit(&pg, &g, " moves", pgm->text + pgm->off[p],
				 pgm->off[p + j] - pgm->off[p]);
		}
	}
	free(pool);
	in->lines = out->lines = pg.lines;
	stream_seal(in);
	stream_seal(out);
	return pg.resent;
}

static bool
has_rights(const struct cgame *g)
{
	for (int c = 0; c < 2; c++)
		for (int w = 0; w < 2; w++)
			if (g->castle[c][w] >= 0)
				return true;
	return false;
}

static uint64_t
hash_bytes(const char *p, size_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * UINT64_C(0x100000001b3);
	return h | 1; /* 0 marks an empty slot */
}

#define BULK_FENS 10000

/* A position of the bulk set: a pool game after `ply` plies, and `nmoves`
 * plies after it on the line. */
struct bulk_pos {
	struct cgame g;
	unsigned game, ply, nmoves;
};

/*
 * Bulk FENs, as a GUI analysing a database sends them: BULK_FENS different
 * Chess960 positions (0-60 plies into a pool game, each with a castling
 * right left: a field to rewrite), each as `position fen <FEN> moves ...`
 * with 0-20 plies, in X-FEN as sent and Shredder-FEN as the engine must get
 * it. The set is repeated until `lines`; no line extends the one before it,
 * so the position cache never helps.
 */
static void
make_bulk(struct stream *in, struct stream *out, unsigned long lines)
{
	struct pos_gen pg = {.in = in, .out = out, .in_xfen = true};
	struct pool_game *pool = malloc(POOL_GAMES * sizeof *pool);
	struct bulk_pos *set = malloc(BULK_FENS * sizeof *set);
	size_t nslots = 4 * BULK_FENS;
	uint64_t *seen = calloc(nslots, sizeof *seen);
	unsigned count = 0;

	if (pool == NULL || set == NULL || seen == NULL)
		die("out of memory");
	for (unsigned i = 0; i < POOL_GAMES; i++)
		pool_game_make(&pool[i]);
	while (count < BULK_FENS) {
		struct bulk_pos *b = &set[count];
		const struct pool_game *pgm;
		char fen[POS_LINE_MAX];
		unsigned want;
		size_t slot;
		uint64_t h;

		b->game = rnd(POOL_GAMES);
		pgm = &pool[b->game];
		want = rnd((pgm->n < 60 ? pgm->n : 60) + 1);
		b->g = pgm->start;
		for (b->ply = 0; b->ply < want; b->ply++) {
			struct cgame next = b->g;
			cgame_play(&next, &pgm->mv[b->ply]);
			if (!has_rights(&next))
				break;
			b->g = next;
		}
		b->nmoves = rnd(21);
		if (b->ply + b->nmoves > pgm->n)
			b->nmoves = pgm->n - b->ply;
		h = hash_bytes(fen, (size_t)(put_fen(fen, &b->g, true) - fen));
		for (slot = h % nslots; seen[slot] != 0 && seen[slot] != h;
		     slot = (slot + 1) % nslots)
			;
		if (seen[slot] == 0) { /* a new position */
			seen[slot] = h;
			count++;
		}
	}
	stream_create(in);
	stream_create(out);
	while (pg.lines < lines) {
		const struct bulk_pos *b = &set[pg.lines % BULK_FENS];
		const struct pool_game *pgm = &pool[b->game];
		unsigned from = pgm->off[b->ply], to = pgm->off[b->ply +
								 b->nmoves];
		/* off[0] is before the text's own " moves" */
		pos_emit(&pg, &b->g, b->ply == 0 ? "" : " moves",
			 pgm->text + from, to - from);
	}
	free(seen);
	free(set);
	free(pool);
	in->lines = out->lines = pg.lines;
	stream_seal(in);
	stream_seal(out);
}

/* ---------------------------------------------------------------- engine */

struct engine {
	const char *mode; /* flood, pos, plain */
	const char *data; /* FILE mapped */
	size_t len;
	/* pos mode: where the next expected line starts, and the tally */
	size_t epos;
	unsigned long got, bad;
	long first_bad;
};

static void
engine_say(const char *s)
{
	if (write_all(STDOUT_FILENO, s, strlen(s)) < 0)
		exit(0); /* the other side is gone */
}

static void
engine_position(struct engine *e, const char *line, size_t n)
{
	const char *exp = e->data + e->epos, *end = e->data + e->len;
	const char *nl = e->epos < e->len ? memchr(exp, '\n',
						   (size_t)(end - exp))
					  : NULL;

	if (nl == NULL || (size_t)(nl - exp) != n ||
	    memcmp(exp, line, n) != 0) {
		if (e->bad++ == 0)
			e->first_bad = (long)e->got;
		if (e->bad == 1 && getenv("BENCH_BRIDGE_DEBUG") != NULL)
			fprintf(stderr, "engine: line %lu\n got: %.*s\nwant: "
				"%.*s\n", e->got + 1, (int)n, line,
				nl ? (int)(nl - exp) : 0, exp);
	}
	e->got++;
	if (nl != NULL)
		e->epos = (size_t)(nl + 1 - e->data);
}

static void
engine_line(struct engine *e, const char *line, size_t n)
{
	if (n > 0 && line[n - 1] == '\r')
		n--;
	if (n == 3 && memcmp(line, "uci", 3) == 0) {
		engine_say("id name bench_bridge engine\nid author fenbridge\n"
			   "option name Hash type spin default 16 min 1 max "
			   "1024\n");
		if (strcmp(e->mode, "pos") == 0)
			engine_say("option name UCI_Chess960 type check "
				   "default false\n");
		engine_say("uciok\n");
	} else if (n == 7 && memcmp(line, "isready", 7) == 0) {
		if (strcmp(e->mode, "pos") == 0) {
			char buf[160];
			snprintf(buf, sizeof buf, "info string bench lines "
				 "%lu bad %lu first %ld\n", e->got, e->bad,
				 e->first_bad);
			engine_say(buf);
		}
		engine_say("readyok\n");
	} else if (n >= 9 && memcmp(line, "position ", 9) == 0 &&
		   strcmp(e->mode, "pos") == 0) {
		engine_position(e, line, n);
	} else if (n >= 2 && memcmp(line, "go", 2) == 0 &&
		   (n == 2 || line[2] == ' ')) {
		if (strcmp(e->mode, "flood") == 0) {
			for (size_t off = 0; off < e->len; off += IO_SIZE) {
				size_t k = e->len - off < IO_SIZE
						   ? e->len - off
						   : IO_SIZE;
				if (write_all(STDOUT_FILENO, e->data + off,
					      k) < 0)
					exit(0);
			}
		} else {
			engine_say("bestmove 0000\n");
		}
	} else if (n == 4 && memcmp(line, "quit", 4) == 0) {
		exit(0);
	}
}

static int
engine_main(int argc, char **argv)
{
	struct engine e = {.first_bad = -1};
	size_t cap = 1024 * 1024, have = 0;
	char *buf = malloc(cap);

	if (argc < 1 || buf == NULL)
		return 2;
	e.mode = argv[0];
	if (argc >= 3) {
		int fd = open(argv[1], O_RDONLY);
		e.len = strtoul(argv[2], NULL, 10);
		if (fd < 0) {
			fprintf(stderr, "engine: %s: %s\n", argv[1],
				strerror(errno));
			return 2;
		}
		if (e.len > 0) {
			if ((e.data = map_stream(fd, e.len)) == NULL) {
				fprintf(stderr, "engine: mmap: %s\n",
					strerror(errno));
				return 2;
			}
		}
		close(fd);
	}
	for (;;) {
		ssize_t r = read(STDIN_FILENO, buf + have, cap - have);
		char *p = buf, *end, *nl;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		have += (size_t)r;
		end = buf + have;
		while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
			engine_line(&e, p, (size_t)(nl - p));
			p = nl + 1;
		}
		have = (size_t)(end - p);
		if (have == cap) { /* a line of a MiB: count it as bad */
			e.bad++;
			have = 0;
		} else {
			memmove(buf, p, have);
		}
	}
}

/* ---------------------------------------------------------------- relay */

/* The minimal relay: the engine on two pipes, poll, read, write. */
static int
relay_main(char **argv)
{
	int in[2], out[2], st;
	struct pollfd pf[2];
	static char buf[IO_SIZE];
	pid_t pid;

	if (argv[0] == NULL)
		return 2;
	if (pipe(in) < 0 || pipe(out) < 0)
		return 2;
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	pf[0] = (struct pollfd){.fd = STDIN_FILENO, .events = POLLIN};
	pf[1] = (struct pollfd){.fd = out[0], .events = POLLIN};
	for (;;) {
		ssize_t r;
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[1].revents != 0) {
			r = read(out[0], buf, sizeof buf);
			if (r <= 0)
				break; /* the engine is done */
			if (write_all(STDOUT_FILENO, buf, (size_t)r) < 0)
				break;
		}
		if (pf[0].fd >= 0 && pf[0].revents != 0) {
			r = read(STDIN_FILENO, buf, sizeof buf);
			if (r <= 0 || write_all(in[1], buf, (size_t)r) < 0) {
				close(in[1]);
				pf[0].fd = -1;
			}
		}
	}
	if (pf[0].fd >= 0)
		close(in[1]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * The libuv relay: the same part, written as a libuv program would be, to
 * show what libuv itself costs: uv_spawn, uv_read_start on both sources,
 * uv_try_write of each read to the other side; what the pipe does not take
 * at once goes out with uv_write (a copy) while that source pauses.
 */
struct uvr_dir {
	uv_pipe_t *src, *dst;
	uv_write_t req;
	char *rest;    /* the bytes uv_write is sending, or NULL */
	bool src_done; /* src ended: close dst once rest is out */
	char buf[IO_SIZE];
};

static uv_pipe_t uvr_gui_in, uvr_gui_out, uvr_eng_in, uvr_eng_out;
static uv_process_t uvr_proc;
static struct uvr_dir uvr_up = {.src = &uvr_gui_in, .dst = &uvr_eng_in};
static struct uvr_dir uvr_down = {.src = &uvr_eng_out, .dst = &uvr_gui_out};
static int uvr_status = 1;

static void
uvr_close(void *h)
{
	if (!uv_is_closing(h))
		uv_close(h, NULL);
}

/* d's source ended and its bytes are out: close its destination; the
 * engine's output ending ends the relay. */
static void
uvr_finish(struct uvr_dir *d)
{
	uvr_close(d->dst);
	if (d == &uvr_down) {
		uvr_close(&uvr_gui_in);
		uvr_close(&uvr_eng_in);
	}
}

static void
uvr_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	struct uvr_dir *d = h->data;

	(void)suggested;
	*buf = uv_buf_init(d->buf, sizeof d->buf);
}

static void uvr_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf);

static void
uvr_written(uv_write_t *req, int status)
{
	struct uvr_dir *d = req->data;

	free(d->rest);
	d->rest = NULL;
	if (d->src_done || status < 0)
		uvr_finish(d);
	else
		uv_read_start((uv_stream_t *)d->src, uvr_alloc, uvr_read);
}

static void
uvr_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
	struct uvr_dir *d = s->data;
	uv_buf_t b;
	int r;

	if (nread < 0) {
		uvr_close(d->src);
		d->src_done = true;
		if (d->rest == NULL)
			uvr_finish(d);
		return;
	}
	if (nread == 0)
		return;
	b = uv_buf_init(buf->base, (unsigned)nread);
	r = uv_try_write((uv_stream_t *)d->dst, &b, 1);
	if (r == UV_EAGAIN)
		r = 0;
	if (r < 0) {
		uvr_close(d->src);
		d->src_done = true;
		uvr_finish(d);
		return;
	}
	if (r == nread)
		return;
	if ((d->rest = malloc((size_t)nread - (size_t)r)) == NULL)
		exit(2);
	memcpy(d->rest, buf->base + r, (size_t)nread - (size_t)r);
	b = uv_buf_init(d->rest, (unsigned)(nread - r));
	uv_read_stop(s);
	d->req.data = d;
	if (uv_write(&d->req, (uv_stream_t *)d->dst, &b, 1, uvr_written) < 0)
		uvr_written(&d->req, -1);
}

static void
uvr_exit(uv_process_t *p, int64_t status, int sig)
{
	uvr_status = sig ? 128 + sig : (int)status;
	uv_close((uv_handle_t *)p, NULL);
}

static int
uvrelay_main(char **argv)
{
	uv_loop_t *loop = uv_default_loop();
	uv_process_options_t opt = {0};
	uv_stdio_container_t stdio[3];
	uv_file in[2], out[2];

	if (argv[0] == NULL)
		return 2;
	uv_pipe_init(loop, &uvr_gui_in, 0);
	uv_pipe_init(loop, &uvr_gui_out, 0);
	uv_pipe_init(loop, &uvr_eng_in, 0);
	uv_pipe_init(loop, &uvr_eng_out, 0);
	/* Real pipes to the engine, as the other two use (UV_CREATE_PIPE
	 * would make socketpairs, which wake up slower). */
	if (uv_pipe(in, 0, 0) < 0 || uv_pipe(out, 0, 0) < 0 ||
	    uv_pipe_open(&uvr_gui_in, STDIN_FILENO) < 0 ||
	    uv_pipe_open(&uvr_gui_out, STDOUT_FILENO) < 0 ||
	    uv_pipe_open(&uvr_eng_in, in[1]) < 0 ||
	    uv_pipe_open(&uvr_eng_out, out[0]) < 0)
		return 2;
	stdio[0].flags = UV_INHERIT_FD;
	stdio[0].data.fd = in[0];
	stdio[1].flags = UV_INHERIT_FD;
	stdio[1].data.fd = out[1];
	stdio[2].flags = UV_INHERIT_FD;
	stdio[2].data.fd = STDERR_FILENO;
	opt.file = argv[0];
	opt.args = argv;
	opt.stdio = stdio;
	opt.stdio_count = 3;
	opt.exit_cb = uvr_exit;
	if (uv_spawn(loop, &uvr_proc, &opt) < 0)
		return 2;
	close(in[0]);
	close(out[1]);
	uvr_gui_in.data = &uvr_up;
	uvr_eng_out.data = &uvr_down;
	uv_read_start((uv_stream_t *)&uvr_gui_in, uvr_alloc, uvr_read);
	uv_read_start((uv_stream_t *)&uvr_eng_out, uvr_alloc, uvr_read);
	uv_run(loop, UV_RUN_DEFAULT);
	uv_loop_close(loop);
	return uvr_status;
}

/* ---------------------------------------------------------------- the GUI */

static const char *fenbridge_path;
static int failures; /* runs that lost, reordered or corrupted lines */

/* What stands between the GUI and the engine in a session. */
enum runner {
	RUN_RELAY,   /* the poll/read/write relay (--relay) */
	RUN_UVRELAY, /* the libuv relay (--uvrelay) */
	RUN_BRIDGE,  /* fenbridge */
};

static const char *const runner_name[] = {"relay", "uv relay", "fenbridge"};

struct session {
	const char *name; /* runner_name[] */
	pid_t pid;
	int to, from; /* the GUI's ends */
	char *buf;    /* bytes read, not consumed yet */
	size_t len;
	bool failed;
};

#define SBUF (256 * 1024)

/* Starts the engine in mode behind who; extra: fenbridge's options (NULL
 * or NULL-terminated), before the `--`. */
static void
session_start(struct session *s, enum runner who, const char *mode,
	      const struct stream *file, size_t len, const char *const *extra)
{
	int in[2], out[2];
	char lenstr[32];
	const char *argv[24];
	int n = 0;

	memset(s, 0, sizeof *s);
	s->name = runner_name[who];
	if ((s->buf = malloc(SBUF)) == NULL)
		die("out of memory");
	snprintf(lenstr, sizeof lenstr, "%zu", len);
	if (who == RUN_BRIDGE) {
		argv[n++] = fenbridge_path;
		for (; extra != NULL && *extra != NULL && n < 16; extra++)
			argv[n++] = *extra;
	} else {
		argv[n++] = self_path;
		argv[n++] = who == RUN_UVRELAY ? "--uvrelay" : "--relay";
	}
	argv[n++] = "--";
	argv[n++] = self_path;
	argv[n++] = "--engine";
	argv[n++] = mode;
	if (file != NULL) {
		argv[n++] = file->path;
		argv[n++] = lenstr;
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

static void
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

static void
send_line(struct session *s, const char *line)
{
	if (write_all(s->to, line, strlen(line)) < 0 ||
	    write_all(s->to, "\n", 1) < 0)
		session_fail(s, "writing '%s': %s", line, strerror(errno));
}

/*
 * Reads lines until one equal to want; a line starting with capture is
 * copied to cbuf. False (and the session failed) at EOF.
 */
static bool
expect_line(struct session *s, const char *want, const char *capture,
	    char *cbuf, size_t ccap)
{
	size_t wl = strlen(want);

	for (;;) {
		char *nl = memchr(s->buf, '\n', s->len);
		if (nl != NULL) {
			size_t n = (size_t)(nl - s->buf);
			bool match = n == wl && memcmp(s->buf, want, wl) == 0;
			if (capture != NULL &&
			    n >= strlen(capture) &&
			    memcmp(s->buf, capture, strlen(capture)) == 0) {
				size_t k = n < ccap - 1 ? n : ccap - 1;
				memcpy(cbuf, s->buf, k);
				cbuf[k] = '\0';
			}
			s->len -= n + 1;
			memmove(s->buf, nl + 1, s->len);
			if (match)
				return true;
			continue;
		}
		if (s->len == SBUF) {
			session_fail(s, "a line of %d bytes while waiting for "
				     "'%s'", SBUF, want);
			return false;
		}
		{
			ssize_t r = read(s->from, s->buf + s->len,
					 SBUF - s->len);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				session_fail(s, "end of output while waiting "
					     "for '%s'", want);
				return false;
			}
			s->len += (size_t)r;
		}
	}
}

static long
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
static double
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
static void
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
			fprintf(stderr, "bench_bridge: %s: unexpected output "
				"at the end: '%.*s'\n", s->name,
				(int)(r > 80 ? 80 : r), tmp);
		extra += (size_t)r;
	}
	close(s->from);
	while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR)
		;
	for (int i = 0; i < NWATCHED; i++)
		if (watched_pid[i] == s->pid)
			watched_pid[i] = 0;
	if (watched_pid[0] == 0 && watched_pid[1] == 0 && watched_pid[2] == 0)
		alarm(0);
	if (!kill_it && extra > 0)
		session_fail(s, "%zu unexpected bytes after the stream", extra);
	if (!kill_it && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
		fprintf(stderr, "bench_bridge: %s: exit status %d%s\n",
			s->name, WIFEXITED(st) ? WEXITSTATUS(st)
					       : 128 + WTERMSIG(st),
			WIFSIGNALED(st) ? " (signal)" : "");
	free(s->buf);
	s->buf = NULL;
}

/* Tells where received bytes first differ from the expected stream. */
static void
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
	session_fail(s, "output differs from the expected stream at line %lu "
		     "(byte %zu)\n  expected: %.*s\n  got from there: %.*s",
		     line, at, (int)(le - ls), ls,
		     (int)(gotlen > 100 ? 100 : gotlen), got);
}

struct flood_result {
	double lines_per_s;
	double cpu_ns_per_line; /* of the bridge or relay process */
	long ctxsw;             /* its context switches in the timed part */
	long hwm_kib;
	long stall_rss_kib; /* max VmRSS seen while the GUI did not read */
	bool ok;
};

/*
 * One flood: preamble, `go`, read and compare explen bytes. With stall_at,
 * stops reading there for stall_ms, sampling the bridge's RSS.
 */
static struct flood_result
run_flood(enum runner who, const struct patches *ps, const struct stream *flood,
	  size_t explen, unsigned long lines, size_t stall_at,
	  unsigned stall_ms)
{
	struct flood_result res = {0};
	struct session s;
	bool chess960 = ps != NULL;
	const char *exp = flood->data;
	char *rb = malloc(IO_SIZE), *eb = malloc(IO_SIZE);
	size_t off = 0, pi = 0;
	uint64_t t0, t1;
	double cpu0;
	long cs0;

	if (rb == NULL || eb == NULL)
		die("out of memory");
	session_start(&s, who, "flood", flood, explen, NULL);
	send_line(&s, "uci");
	if (!expect_line(&s, "uciok", NULL, NULL, 0))
		goto out;
	if (chess960)
		send_line(&s, "setoption name UCI_Chess960 value true");
	send_line(&s, "isready");
	if (!expect_line(&s, "readyok", NULL, NULL, 0))
		goto out;
	send_line(&s, "ucinewgame");
	if (chess960)
		send_line(&s, "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/"
			  "RNBQKBNR w HAha - 0 1");
	else
		send_line(&s, "position startpos");
	send_line(&s, "isready");
	if (!expect_line(&s, "readyok", NULL, NULL, 0))
		goto out;
	cpu0 = proc_cpu_s(s.pid);
	cs0 = proc_status_kib(s.pid, "voluntary_ctxt_switches") +
	      proc_status_kib(s.pid, "nonvoluntary_ctxt_switches");
	t0 = now_ns();
	if (s.len > 0) {
		session_fail(&s, "unexpected output before the flood: '%.*s'",
			     (int)(s.len > 80 ? 80 : s.len), s.buf);
		goto out;
	}
	send_line(&s, "go infinite");
	while (off < explen) {
		size_t want = explen - off < IO_SIZE ? explen - off : IO_SIZE;
		ssize_t r;
		if (stall_at > 0 && off >= stall_at) {
			uint64_t until = now_ns() +
					 (uint64_t)stall_ms * 1000000u;
			struct timespec nap = {0, 50 * 1000000L};
			while (now_ns() < until) {
				long rss = proc_status_kib(s.pid, "VmRSS");
				if (rss > res.stall_rss_kib)
					res.stall_rss_kib = rss;
				nanosleep(&nap, NULL);
			}
			stall_at = 0;
		}
		r = read(s.from, rb, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			session_fail(&s, "end of output after %zu of %zu bytes",
				     off, explen);
			goto out;
		}
		/* The expectation: the flood, with the Chess960 patches. */
		memcpy(eb, exp + off, (size_t)r);
		for (; ps != NULL && pi < ps->n &&
		       ps->v[pi].off < off + (size_t)r;
		     pi++)
			eb[ps->v[pi].off - off] = ps->v[pi].c;
		if (memcmp(rb, eb, (size_t)r) != 0) {
			size_t k = 0;
			while (rb[k] == eb[k])
				k++;
			report_mismatch(&s, exp, explen, off + k, rb + k,
					(size_t)r - k);
			goto out;
		}
		off += (size_t)r;
	}
	t1 = now_ns();
	res.lines_per_s = (double)lines / ((double)(t1 - t0) / 1e9);
	res.cpu_ns_per_line = (proc_cpu_s(s.pid) - cpu0) * 1e9 / (double)lines;
	res.ctxsw = proc_status_kib(s.pid, "voluntary_ctxt_switches") +
		    proc_status_kib(s.pid, "nonvoluntary_ctxt_switches") - cs0;
	res.hwm_kib = proc_status_kib(s.pid, "VmHWM");
	res.ok = true;
out:
	session_end(&s, !res.ok);
	free(rb);
	free(eb);
	return res;
}

struct rtt_result {
	double median_us, p99_us;
	double cpu_us; /* the bridge's or relay's CPU time per round trip */
	bool ok;
};

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One isready -> readyok round trip: its time in ns, or 0 on failure. */
static uint64_t
round_trip(struct session *s, unsigned long i)
{
	uint64_t t0 = now_ns();
	char rb[64];
	size_t got = 0;

	if (write_all(s->to, "isready\n", 8) < 0) {
		session_fail(s, "write: %s", strerror(errno));
		return 0;
	}
	while (got < 8) {
		ssize_t r = read(s->from, rb + got, sizeof rb - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			session_fail(s, "end of output in round trip %lu",
				     i + 1);
			return 0;
		}
		got += (size_t)r;
	}
	if (got != 8 || memcmp(rb, "readyok\n", 8) != 0) {
		session_fail(s, "round trip %lu: got '%.*s' for readyok",
			     i + 1, (int)got, rb);
		return 0;
	}
	return now_ns() - t0;
}

/*
 * Round trips through the poll relay, the libuv relay and fenbridge, the
 * three sessions open at once and taking turns (in rotating order), so that
 * all see the same machine at the same moment: res[] by enum runner.
 */
static void
run_rtt(unsigned long n, unsigned long warmup, struct rtt_result res[3])
{
	struct session s[3];
	uint64_t *t[3];
	double cpu0[3] = {0, 0, 0};
	bool ok = true;

	for (int k = 0; k < 3; k++) {
		res[k] = (struct rtt_result){0};
		if ((t[k] = malloc(n * sizeof *t[k])) == NULL)
			die("out of memory");
		session_start(&s[k], (enum runner)k, "plain", NULL, 0, NULL);
		send_line(&s[k], "uci");
		ok = ok && expect_line(&s[k], "uciok", NULL, NULL, 0);
		send_line(&s[k], "position startpos");
		send_line(&s[k], "isready");
		ok = ok && expect_line(&s[k], "readyok", NULL, NULL, 0);
		if (ok && s[k].len > 0) {
			session_fail(&s[k], "unexpected output before the "
				     "round trips");
			ok = false;
		}
	}
	for (unsigned long i = 0; ok && i < warmup + n; i++) {
		if (i == warmup)
			for (int k = 0; k < 3; k++)
				cpu0[k] = proc_cpu_s(s[k].pid);
		for (int j = 0; ok && j < 3; j++) {
			int k = (int)((i + (unsigned long)j) % 3);
			uint64_t dt = round_trip(&s[k], i);
			ok = dt > 0;
			if (i >= warmup)
				t[k][i - warmup] = dt;
		}
	}
	for (int k = 0; k < 3; k++) {
		if (ok) {
			res[k].cpu_us = (proc_cpu_s(s[k].pid) - cpu0[k]) * 1e6 /
					(double)n;
			qsort(t[k], n, sizeof *t[k], cmp_u64);
			res[k].median_us = (double)t[k][n / 2] / 1e3;
			res[k].p99_us = (double)t[k][n - 1 - n / 100] / 1e3;
			res[k].ok = true;
		}
		session_end(&s[k], !ok);
		free(t[k]);
	}
}

struct pos_result {
	double lines_per_s, mb_per_s;
	double cpu_ns_per_line;
	long hwm_kib;
	bool ok;
};

/* The position stream GUI -> engine; the engine checks it against exp. */
static struct pos_result
run_pos(enum runner who, const struct stream *in, const struct stream *exp,
	const char *const *extra)
{
	struct pos_result res = {0};
	struct session s;
	char tally[160] = "";
	unsigned long got = 0, bad = 0;
	long first = -1;
	size_t off = 0;
	uint64_t t0, t1;
	double cpu0;

	session_start(&s, who, "pos", exp, exp->len, extra);
	send_line(&s, "uci");
	if (!expect_line(&s, "uciok", NULL, NULL, 0))
		goto out;
	send_line(&s, "setoption name UCI_Chess960 value true");
	send_line(&s, "ucinewgame");
	send_line(&s, "isready");
	if (!expect_line(&s, "readyok", NULL, NULL, 0))
		goto out;
	fcntl(s.to, F_SETFL, fcntl(s.to, F_GETFL) | O_NONBLOCK);
	cpu0 = proc_cpu_s(s.pid);
	t0 = now_ns();
	while (off < in->len) {
		struct pollfd pf[2] = {{.fd = s.to, .events = POLLOUT},
				       {.fd = s.from, .events = POLLIN}};
		ssize_t w;
		size_t k = in->len - off < IO_SIZE ? in->len - off : IO_SIZE;
		w = write(s.to, in->data + off, k);
		if (w > 0) {
			off += (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EINTR) {
			session_fail(&s, "write: %s", strerror(errno));
			goto out;
		}
		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (pf[1].revents != 0) { /* keep what comes back */
			ssize_t r = read(s.from, s.buf + s.len, SBUF - s.len);
			if (r <= 0 || s.len + (size_t)r == SBUF) {
				session_fail(&s, "unexpected output while "
					     "sending positions");
				goto out;
			}
			s.len += (size_t)r;
		}
	}
	fcntl(s.to, F_SETFL, fcntl(s.to, F_GETFL) & ~O_NONBLOCK);
	send_line(&s, "isready");
	if (!expect_line(&s, "readyok", "info string bench lines ", tally,
			 sizeof tally))
		goto out;
	t1 = now_ns();
	if (sscanf(tally, "info string bench lines %lu bad %lu first %ld",
		   &got, &bad, &first) != 3) {
		session_fail(&s, "no tally from the engine");
		goto out;
	}
	if (got != in->lines || bad != 0) {
		session_fail(&s, "the engine got %lu of %lu position lines, "
			     "%lu not as expected (first: line %ld)",
			     got, in->lines, bad, first + 1);
		goto out;
	}
	res.lines_per_s = (double)in->lines / ((double)(t1 - t0) / 1e9);
	res.mb_per_s = (double)in->len / ((double)(t1 - t0) / 1e3);
	res.cpu_ns_per_line = (proc_cpu_s(s.pid) - cpu0) * 1e9 /
			      (double)in->lines;
	res.hwm_kib = proc_status_kib(s.pid, "VmHWM");
	res.ok = true;
out:
	session_end(&s, !res.ok);
	return res;
}

/* ---------------------------------------------------------------- report */

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median of the n > 0 values (sorted in place). */
static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const char *
verdict(bool met)
{
	return met ? "met" : "NOT met";
}

static double
mib(long kib)
{
	return (double)kib / 1024.0;
}

#define MAX_REPS 9

struct flood_set {
	double lps[MAX_REPS], cpu[MAX_REPS];
	long hwm;
	int n;
};

static void
flood_add(struct flood_set *fs, const struct flood_result *r)
{
	if (!r->ok)
		return;
	fs->lps[fs->n] = r->lines_per_s;
	fs->cpu[fs->n] = r->cpu_ns_per_line;
	fs->n++;
	if (r->hwm_kib > fs->hwm)
		fs->hwm = r->hwm_kib;
}

static void
progress(const char *what, const char *who, double lps, double cpu,
	 long ctxsw)
{
	fprintf(stderr, "  %-22s %-9s %6.3f M lines/s, %5.0f ns CPU/line",
		what, who, lps / 1e6, cpu);
	if (ctxsw >= 0)
		fprintf(stderr, ", %ld context switches", ctxsw);
	fputc('\n', stderr);
}

/* "1.23" or, over several runs, "1.23 (1.01-1.35)": M lines/s. */
static const char *
figure(char *buf, size_t cap, struct flood_set *fs)
{
	double m = median(fs->lps, fs->n); /* sorts */

	if (fs->n == 1)
		snprintf(buf, cap, "%.2f", m / 1e6);
	else
		snprintf(buf, cap, "%.2f (%.2f-%.2f)", m / 1e6,
			 fs->lps[0] / 1e6, fs->lps[fs->n - 1] / 1e6);
	return buf;
}

/* Throughput of fenbridge against the relays (uv may be empty); target
 * is the ratio to the poll relay to reach, or 0 for a figure only. */
static void
print_throughput(const char *what, struct flood_set *fb, struct flood_set *rl,
		 struct flood_set *uv, double target)
{
	char fbuf[64], rbuf[64], ubuf[64], tbuf[64] = "";
	double ratio, cf, cr;

	if (fb->n == 0 || rl->n == 0) {
		printf("%s: no valid run\n", what);
		return;
	}
	ratio = median(fb->lps, fb->n) / median(rl->lps, rl->n);
	cf = median(fb->cpu, fb->n);
	cr = median(rl->cpu, rl->n);
	if (target > 0)
		snprintf(tbuf, sizeof tbuf, " (target >= %.1f: %s)", target,
			 verdict(ratio >= target));
	printf("%s: fenbridge %s M lines/s, relay %s M lines/s, ratio %.2f%s; "
	       "CPU per line fenbridge %.0f ns, relay %.0f ns (%.1fx)",
	       what, figure(fbuf, sizeof fbuf, fb),
	       figure(rbuf, sizeof rbuf, rl), ratio, tbuf, cf, cr, cf / cr);
	if (uv != NULL && uv->n > 0) {
		double cu = median(uv->cpu, uv->n);
		printf("; uv relay %s M lines/s (ratio %.2f), %.0f ns CPU/line",
		       figure(ubuf, sizeof ubuf, uv),
		       median(fb->lps, fb->n) / median(uv->lps, uv->n), cu);
	}
	putchar('\n');
}

/* The 1, 5 and 15 minute load averages ("unknown" without /proc). */
static void
read_loadavg(char *buf, size_t cap)
{
	double l[3];
	FILE *f = fopen("/proc/loadavg", "r");

	if (f != NULL && fscanf(f, "%lf %lf %lf", &l[0], &l[1], &l[2]) == 3)
		snprintf(buf, cap, "%.2f %.2f %.2f", l[0], l[1], l[2]);
	else
		snprintf(buf, cap, "unknown");
	if (f != NULL)
		fclose(f);
}

static int
usage(void)
{
	fputs("usage: bench_bridge [--quick] [--reps=N] [--only=LIST] "
	      "FENBRIDGE\n"
	      "  Measures FENBRIDGE (the fenbridge executable) against a "
	      "minimal relay:\n"
	      "  info-line floods, isready round trips, position lines, "
	      "peak RSS.\n"
	      "  --quick      smaller streams, one repetition\n"
	      "  --reps=N     repetitions of each measurement (1-9, default "
	      "3)\n"
	      "  --only=LIST  some of flood,flood960,rtt,pos,fens,stall\n"
	      "  Exit status 0 whatever the figures, 1 if a line was lost, "
	      "reordered or\n  corrupted, 2 on a usage or setup error.\n",
	      stderr);
	return 2;
}

int
main(int argc, char **argv)
{
	const struct sizes *z = &full_sizes;
	struct stream flood = {0}, pos_in = {0}, pos_out = {0};
	struct stream fens_in = {0}, fens_out = {0};
	struct patches flood_kxr = {0};
	size_t stall_len = 0;
	unsigned long resent = 0;
	struct flood_set fl_fb = {0}, fl_rl = {0}, fl_uv = {0}, fl960_fb = {0};
	struct flood_set pos_fb = {0}, pos_rl = {0};
	struct flood_set fens_fb = {0}, fens_rl = {0};
	struct flood_result st_fb = {0}, st_rl = {0};
	double rtt_med[3][MAX_REPS], rtt_p99[3][MAX_REPS], rtt_cpu[3][MAX_REPS];
	int nrtt = 0, runs = 0, reps = 0;
	const char *only = NULL;
	bool do_flood = true, do_flood960 = true, do_rtt = true, do_pos = true;
	bool do_fens = true, do_stall = true;
	long pos_hwm = 0, fens_hwm = 0;
	char loadavg[64];
	uint64_t t_start = now_ns(), tg;
	ssize_t sl;
	static const char *const to_shredder[] = {"--engine-fen=shredder",
						  NULL};

	if (argc >= 2 && strcmp(argv[1], "--engine") == 0)
		return engine_main(argc - 2, argv + 2);
	if (argc >= 3 && strcmp(argv[1], "--relay") == 0 &&
	    strcmp(argv[2], "--") == 0) {
		signal(SIGPIPE, SIG_IGN);
		return relay_main(argv + 3);
	}
	if (argc >= 3 && strcmp(argv[1], "--uvrelay") == 0 &&
	    strcmp(argv[2], "--") == 0) {
		signal(SIGPIPE, SIG_IGN);
		return uvrelay_main(argv + 3);
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			z = &quick_sizes;
		else if (strncmp(argv[i], "--reps=", 7) == 0)
			reps = atoi(argv[i] + 7);
		else if (strncmp(argv[i], "--only=", 7) == 0)
			only = argv[i] + 7;
		else if (argv[i][0] == '-')
			return usage();
		else if (fenbridge_path == NULL)
			fenbridge_path = argv[i];
		else
			return usage();
	}
	if (fenbridge_path == NULL)
		return usage();
	if (reps == 0)
		reps = z->reps;
	if (reps < 1 || reps > MAX_REPS)
		return usage();
	if (only != NULL) {
		char list[128];
		snprintf(list, sizeof list, ",%s,", only);
		do_flood = strstr(list, ",flood,") != NULL;
		do_flood960 = strstr(list, ",flood960,") != NULL;
		do_rtt = strstr(list, ",rtt,") != NULL;
		do_pos = strstr(list, ",pos,") != NULL;
		do_fens = strstr(list, ",fens,") != NULL;
		do_stall = strstr(list, ",stall,") != NULL;
	}
	if (access(fenbridge_path, X_OK) < 0)
		die("%s: %s", fenbridge_path, strerror(errno));
	sl = readlink("/proc/self/exe", self_path, sizeof self_path - 1);
	if (sl <= 0)
		die("cannot find this program's path (/proc/self/exe): %s",
		    strerror(errno));
	self_path[sl] = '\0';
	signal(SIGPIPE, SIG_IGN);
	signal(SIGALRM, on_alarm);
	setvbuf(stdout, NULL, _IOLBF, 0);
	read_loadavg(loadavg, sizeof loadavg);

	tg = now_ns();
	openings_init();
	if (do_flood || do_flood960 || do_stall)
		make_flood(&flood, &flood_kxr, z->flood_lines, z->stall_lines,
			   &stall_len);
	if (do_pos)
		resent = make_positions(&pos_in, &pos_out, z->pos_lines);
	if (do_fens)
		make_bulk(&fens_in, &fens_out, z->fens_lines);
	fprintf(stderr, "bench_bridge: %s run, %d repetition%s; streams "
		"generated in %.1f s\n", z == &quick_sizes ? "quick" : "full",
		reps, reps > 1 ? "s" : "", (double)(now_ns() - tg) / 1e9);

	/* 1 and 4a: floods, interleaved. */
	for (int r = 0; (do_flood || do_flood960) && r < reps; r++) {
		struct flood_result a;
		a = run_flood(RUN_RELAY, NULL, &flood, flood.len,
			      z->flood_lines, 0, 0);
		flood_add(&fl_rl, &a);
		progress("flood", "relay", a.lines_per_s, a.cpu_ns_per_line,
			 a.ctxsw);
		runs++;
		if (do_flood) {
			a = run_flood(RUN_UVRELAY, NULL, &flood, flood.len,
				      z->flood_lines, 0, 0);
			flood_add(&fl_uv, &a);
			progress("flood", "uv relay", a.lines_per_s,
				 a.cpu_ns_per_line, a.ctxsw);
			a = run_flood(RUN_BRIDGE, NULL, &flood, flood.len,
				      z->flood_lines, 0, 0);
			flood_add(&fl_fb, &a);
			progress("flood", "fenbridge", a.lines_per_s,
				 a.cpu_ns_per_line, a.ctxsw);
			runs += 2;
		}
		if (do_flood960) {
			a = run_flood(RUN_BRIDGE, &flood_kxr, &flood, flood.len,
				      z->flood_lines, 0, 0);
			flood_add(&fl960_fb, &a);
			progress("flood, Chess960 GUI", "fenbridge",
				 a.lines_per_s, a.cpu_ns_per_line, a.ctxsw);
			runs++;
		}
	}
	/* 2: round trips. */
	for (int r = 0; do_rtt && r < reps; r++) {
		struct rtt_result res[3];
		run_rtt(z->rtt_n, z->rtt_warmup, res);
		if (res[0].ok && res[1].ok && res[2].ok) {
			for (int k = 0; k < 3; k++) {
				rtt_med[k][nrtt] = res[k].median_us;
				rtt_p99[k][nrtt] = res[k].p99_us;
				rtt_cpu[k][nrtt] = res[k].cpu_us;
			}
			nrtt++;
		}
		for (int k = 0; k < 3; k++)
			fprintf(stderr, "  %-22s %-9s median %.1f us, p99 "
				"%.1f us, %.1f us CPU/round trip\n",
				"isready round trip", runner_name[k],
				res[k].median_us, res[k].p99_us,
				res[k].cpu_us);
		runs += 3;
	}
	/* 3: position lines: a game resent, and bulk X-FEN -> Shredder. */
	for (int r = 0; (do_pos || do_fens) && r < reps; r++) {
		for (int f = 0; f < 2; f++) {
			const struct stream *in = f ? &fens_in : &pos_in;
			const struct stream *exp = f ? &fens_out : &pos_out;
			struct pos_result a, b;
			struct flood_result fa, fb;
			if (!(f ? do_fens : do_pos))
				continue;
			a = run_pos(RUN_RELAY, in, in, NULL);
			b = run_pos(RUN_BRIDGE, in, exp, f ? to_shredder : NULL);
			fa = (struct flood_result){
				.lines_per_s = a.lines_per_s,
				.cpu_ns_per_line = a.cpu_ns_per_line,
				.ok = a.ok};
			fb = (struct flood_result){
				.lines_per_s = b.lines_per_s,
				.cpu_ns_per_line = b.cpu_ns_per_line,
				.ok = b.ok};
			flood_add(f ? &fens_rl : &pos_rl, &fa);
			flood_add(f ? &fens_fb : &pos_fb, &fb);
			if (b.hwm_kib > (f ? fens_hwm : pos_hwm))
				*(f ? &fens_hwm : &pos_hwm) = b.hwm_kib;
			progress(f ? "bulk FENs" : "position lines", "relay",
				 a.lines_per_s, a.cpu_ns_per_line, -1);
			progress(f ? "bulk FENs" : "position lines",
				 "fenbridge", b.lines_per_s,
				 b.cpu_ns_per_line, -1);
			runs += 2;
		}
	}
	/* 4b: the GUI stops reading for a while, then drains. */
	if (do_stall) {
		st_rl = run_flood(RUN_RELAY, NULL, &flood, stall_len,
				  z->stall_lines, stall_len / 10, z->stall_ms);
		st_fb = run_flood(RUN_BRIDGE, NULL, &flood, stall_len,
				  z->stall_lines, stall_len / 10, z->stall_ms);
		runs += 2;
	}

	printf("\nbench_bridge: %s vs a minimal poll/read/write relay and a "
	       "libuv relay (%s run, median of %d; load average before: %s)\n",
	       fenbridge_path, z == &quick_sizes ? "quick" : "full", reps,
	       loadavg);
	if (do_flood) {
		char what[128];
		snprintf(what, sizeof what, "flood (%lu info lines)",
			 z->flood_lines);
		print_throughput(what, &fl_fb, &fl_rl, &fl_uv,
				 TARGET_FLOOD_RATIO);
	}
	if (do_flood960)
		print_throughput("flood, GUI in Chess960, engine not (pv "
				 "parsed)", &fl960_fb, &fl_rl, NULL, 0);
	if (do_rtt && nrtt > 0) {
		double med[3], p99[3], cpu[3];
		for (int k = 0; k < 3; k++) {
			med[k] = median(rtt_med[k], nrtt);
			p99[k] = median(rtt_p99[k], nrtt);
			cpu[k] = median(rtt_cpu[k], nrtt);
		}
		printf("isready round trip (%lu): median (p99) fenbridge %.1f "
		       "(%.1f) us, uv relay %.1f (%.1f) us, relay %.1f (%.1f) "
		       "us; fenbridge - uv relay %.2f us (target <= %.1f us: "
		       "%s), fenbridge - relay %.2f us; CPU/round trip "
		       "fenbridge %.1f us, uv relay %.1f us, relay %.1f us\n",
		       z->rtt_n, med[RUN_BRIDGE], p99[RUN_BRIDGE],
		       med[RUN_UVRELAY], p99[RUN_UVRELAY], med[RUN_RELAY],
		       p99[RUN_RELAY], med[RUN_BRIDGE] - med[RUN_UVRELAY],
		       TARGET_RTT_US,
		       verdict(med[RUN_BRIDGE] - med[RUN_UVRELAY] <=
			       TARGET_RTT_US),
		       med[RUN_BRIDGE] - med[RUN_RELAY], cpu[RUN_BRIDGE],
		       cpu[RUN_UVRELAY], cpu[RUN_RELAY]);
	} else if (do_rtt) {
		printf("isready round trip: no valid run\n");
	}
	if (do_pos) {
		char what[160];
		snprintf(what, sizeof what, "position fen lines (%lu, %.0f MB, "
			 "%.0f%% of them a game resent with one more ply)",
			 pos_in.lines, (double)pos_in.len / 1e6,
			 100.0 * (double)resent / (double)pos_in.lines);
		print_throughput(what, &pos_fb, &pos_rl, NULL, 0);
	}
	if (do_fens) {
		char what[160];
		snprintf(what, sizeof what, "bulk FENs X-FEN -> Shredder-FEN "
			 "(%d different, %lu lines, %.0f MB)", BULK_FENS,
			 fens_in.lines, (double)fens_in.len / 1e6);
		print_throughput(what, &fens_fb, &fens_rl, NULL,
				 TARGET_FENS_RATIO);
	}
	if (fl_fb.n > 0 && fl_rl.n > 0)
		printf("peak RSS, flood: fenbridge %.2f MiB, relay %.2f MiB, "
		       "ratio %.2f (target < %.0f MiB: %s)\n", mib(fl_fb.hwm),
		       mib(fl_rl.hwm), (double)fl_fb.hwm / (double)fl_rl.hwm,
		       mib(TARGET_RSS_KIB),
		       verdict(fl_fb.hwm < TARGET_RSS_KIB));
	if (fl960_fb.n > 0)
		printf("peak RSS, Chess960 flood: fenbridge %.2f MiB\n",
		       mib(fl960_fb.hwm));
	if (pos_hwm > 0)
		printf("peak RSS, position lines: fenbridge %.2f MiB\n",
		       mib(pos_hwm));
	if (fens_hwm > 0)
		printf("peak RSS, bulk FENs: fenbridge %.2f MiB\n",
		       mib(fens_hwm));
	if (st_fb.ok && st_rl.ok)
		printf("peak RSS, flood of %lu lines, GUI not reading for "
		       "%.1f s: fenbridge %.2f MiB (RSS while stalled %.2f "
		       "MiB), relay %.2f MiB, ratio %.2f (target < %.0f MiB: "
		       "%s)\n", z->stall_lines, z->stall_ms / 1000.0,
		       mib(st_fb.hwm_kib), mib(st_fb.stall_rss_kib),
		       mib(st_rl.hwm_kib),
		       (double)st_fb.hwm_kib / (double)st_rl.hwm_kib,
		       mib(TARGET_RSS_KIB),
		       verdict(st_fb.hwm_kib < TARGET_RSS_KIB));
	else if (do_stall)
		printf("peak RSS with a stalled GUI: no valid run\n");
	printf("integrity: %d runs, %d with lines lost, reordered or "
	       "corrupted (%s); %.1f s in all\n", runs, failures,
	       failures ? "FAILED" : "every line intact and in order",
	       (double)(now_ns() - t_start) / 1e9);
	free(flood_kxr.v);
	return failures ? 1 : 0;
}
