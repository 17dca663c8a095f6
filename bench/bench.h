/* SPDX-License-Identifier: MIT */
/*
 * What the files of bench_bridge share (one program, five files):
 *   bench_common.c    helpers, the streams the parts read, the GUI's
 *                     sessions (start, lines, /proc figures, end);
 *   bench_chess960.c  the info flood; Chess960 games (pseudo-legal play,
 *                     FENs in both dialects), the position streams, the
 *                     game file;
 *   bench_parts.c     the fake engine and the three relays;
 *   bench_game.c      whole games as match runners and XBoard send them;
 *   bench_bridge.c    floods, round trips, position lines, memory, the
 *                     report and main.
 * A benchmark program, not part of fenbridge: it may print and exit.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define IO_SIZE (64 * 1024)   /* reads and writes of every part */
#define SESSION_TIMEOUT_S 180 /* a run that takes longer has hung */
#define SEED UINT64_C(0xfe4b41d6e5eed)

/* bench_common.c: helpers */

extern char self_path[];
extern const char *fenbridge_path;
extern const char *bench_wrap; /* --wrap: runs each bridge or relay */
extern int failures; /* runs that lost, reordered or corrupted lines */

void
die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
uint64_t
now_ns(void);
int
write_all(int fd, const char *p, size_t n);
void
on_alarm(int sig);
uint64_t
mix64(uint64_t z);
unsigned
rnd(unsigned n);
char *
put_s(char *p, const char *s);
char *
put_u(char *p, uint64_t v);
const char *
map_stream(int fd, size_t n);

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

void
stream_create(struct stream *s);
char *
stream_at(struct stream *s, size_t n);
void
stream_wrote(struct stream *s, const char *end);
void
stream_seal(struct stream *s);

/* bench_common.c: the GUI's sessions */

/* What stands between the GUI and the engine in a session. */
enum runner {
	RUN_RELAY,     /* the poll/read/write relay (--relay) */
	RUN_UVRELAY,   /* the libuv relay (--uvrelay) */
	RUN_BRIDGE,    /* fenbridge */
	RUN_LINERELAY, /* the line-splitting relay (--linerelay) */
	NRUNNERS
};

extern const char *const runner_name[NRUNNERS];
/* The same, one word: BENCH_BRIDGE_RUNNER for --wrap (callgrind's file). */
extern const char *const runner_tag[NRUNNERS];

struct session {
	const char *name; /* runner_name[] */
	pid_t pid;
	int to, from; /* the GUI's ends */
	char *buf;    /* bytes read, not consumed yet */
	size_t len;
	bool failed;
	bool told; /* an informational line was shown */
};

#define SBUF (256 * 1024)

/* Starts the engine in mode behind who: `--engine MODE [FILE LEN [REP]]`
 * (REP when rep > 1); extra: fenbridge's options (NULL or
 * NULL-terminated), before the `--`. */
void
session_start(struct session *s, enum runner who, const char *mode,
	      const struct stream *file, size_t len, unsigned long rep,
	      const char *const *extra);
void
session_fail(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void
send_line(struct session *s, const char *line);
bool
expect_line(struct session *s, const char *want, const char *capture,
	    char *cbuf, size_t ccap);
bool
next_line(struct session *s, char *out, size_t cap);
long
proc_status_kib(pid_t pid, const char *field);
double
proc_cpu_s(pid_t pid);
void
session_end(struct session *s, bool kill_it);
void
report_mismatch(struct session *s, const char *exp, size_t explen, size_t at,
		const char *got, size_t gotlen);

/* bench_chess960.c */

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

/* The flood as the engine writes it (king notation) into s, the patches
 * that make it the Chess960 expectation, and the offset where line
 * stall_lines ends; openings_init first. */
void
openings_init(void);
void
make_flood(struct stream *s, struct patches *kxr, unsigned long lines,
	   unsigned long stall_lines, size_t *stall_len);

/* A game followed without legality checks beyond pseudo-legal moves. */
struct cgame {
	char b[8][8];     /* [rank][file], 0 empty */
	int side;         /* 0 white, 1 black */
	int castle[2][2]; /* [colour][0 = h-side, 1 = a-side]: rook file, -1 */
	int ep;           /* file of a double step just made, or -1 */
	unsigned half, full;
};

struct cmove {
	signed char ff, fr, tf, tr;
	char promo;
	bool castle;
};

void
cgame_start(struct cgame *g, unsigned idx);
void
cgame_play(struct cgame *g, const struct cmove *m);
char *
put_fen(char *p, const struct cgame *g, bool xfen);

#define POS_MAX_PLIES 200
#define POS_LINE_MAX (16 + 100 + 8 + POS_MAX_PLIES * 6 + 2)
#define BULK_FENS 10000

unsigned long
make_positions(struct stream *in, struct stream *out, unsigned long lines);
void
make_bulk(struct stream *in, struct stream *out, unsigned long lines);

/*
 * A whole game of the game file (bench/data/chess960_games.txt): its start
 * (FEN in both dialects), its moves as UCI writes them in Chess960 (king
 * takes rook) and as XBoard writes them in fischerandom (O-O, O-O-O), and
 * the text " moves m1 m2 ..." (UCI) of which the first k plies are
 * text[0..off[k]).
 */
#define GAME_MAX_PLIES 512
#define GAME_LINE_MAX (16 + 100 + 8 + GAME_MAX_PLIES * 6 + 2)

struct game960 {
	unsigned number; /* Scharnagl */
	char shredder[96], xfen[96];
	unsigned n;
	unsigned castles;
	char uci[GAME_MAX_PLIES][6];
	char xb[GAME_MAX_PLIES][8];
	unsigned off[GAME_MAX_PLIES + 1];
	char text[GAME_MAX_PLIES * 6 + 8];
};

/* Reads the game file's text (len bytes): the games (malloc'd) and their
 * number; dies with the line on anything but a pseudo-legal game. */
struct game960 *
games_parse(const char *text, size_t len, unsigned *ngames);

/* bench_parts.c: the parts this program plays besides the GUI */

int
engine_main(int argc, char **argv);
int
relay_main(char **argv);
int
linerelay_main(char **argv);
int
uvrelay_main(char **argv);

/* bench_game.c: whole games, GUI side */

struct game_result {
	unsigned long plies;   /* measured: plies of every game played */
	double us_per_ply;     /* wall clock */
	double cpu_ns_per_ply; /* of the bridge or relay process */
	long hwm_kib;
	bool ok;
};

/* Whole UCI games as match runners send them: per ply a growing
 * `position fen START moves ...` and `isready` (readyok), with go a
 * `go wtime ...` too (bestmove: the game's move). ngames games of the
 * file in turn. */
struct game_result
run_game(enum runner who, const struct stream *file, const struct game960 *g,
	 unsigned nfile, unsigned ngames, bool go);

/* An XBoard GUI (fischerandom, O-O) with a UCI engine behind
 * `fenbridge --engine-protocol=uci` (the relays: an XBoard engine):
 * every game of the file to ply `plies`, repeated `rounds` times. */
struct game_result
run_xboard(enum runner who, const struct stream *file, const struct game960 *g,
	   unsigned nfile, unsigned plies, unsigned rounds);

#endif
