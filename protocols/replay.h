/* SPDX-License-Identifier: MIT */
/*
 * `fenbridge replay`'s pure part: a flight record (src/daemon/recorder.c)
 * or a --log file (src/daemon/log.c) read into the engine's side of the
 * wire, a plan of what to send and what to wait for, and the engine's
 * answers compared with the recorded ones. The driver
 * (src/daemon/replay_run.c) starts the engine, sends the steps, hands over
 * the engine's lines and its end, and prints the verdict.
 *
 * Format of the inputs (doc/replay.md):
 * - a flight record: "fenbridge flight record: REASON", header lines
 *   ("...; GUI protocol P, engine protocol P, variant V"), then one line
 *   per kept line: "%8.3f TAG TEXT", TAG padded to 8 columns: ">engine"
 *   every line the engine was sent, "engine>" every line it wrote; a line
 *   tagged "cut" marks where every ring is whole from (the rings
 *   overflowed); control bytes are written \xNN;
 * - a log: "YYYY-MM-DD HH:MM:SS.UUUUUU TAG TEXT" per line, the same tags,
 *   \\, \r, \t, \xNN escaped; messages "LEVEL TEXT" ("engine died of
 *   SIGSEGV (11)"); a new session starts at "---- fenbridge": the last
 *   one is replayed.
 *
 * Answers are what a GUI waits for: uciok, readyok, bestmove, pong,
 * move, "feature ... done=1". Moves (bestmove, move) are compared move by
 * move in order; acknowledgements (uciok, readyok, pong N, done=1) are
 * counted in order, on their own.
 */
#ifndef FB_REPLAY_H
#define FB_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How the recorded session ended. */
enum fb_replay_end {
	FB_RP_END_NONE,   /* nothing went wrong (or --until stops before) */
	FB_RP_END_SIGNAL, /* the engine died of a signal (code) */
	FB_RP_END_EXIT,   /* it exited with a status (code) unasked */
	FB_RP_END_OTHER,  /* something else (an illegal move, a hang): the
			     answers themselves must come out the same */
};

/* One line to send. */
struct fb_replay_step {
	const char *text; /* NUL-terminated, no terminator */
	uint64_t ms;      /* recorded time, since the first step */
	unsigned line;    /* line of the file; 0: made up (a cut record) */
	size_t answers;   /* answers recorded before the next step, counted
			     from the first step: in fast mode the replay
			     waits for as many */
	uint64_t wait_ms; /* how long the recorded answers took */
};

/* One recorded answer. */
struct fb_replay_answer {
	const char *text;
	unsigned line;
	bool move; /* bestmove / move; else an acknowledgement */
};

struct fb_replay {
	char *mem; /* the text, lines cut in place */
	struct fb_replay_step *step;
	size_t nstep;
	struct fb_replay_answer *ans;
	size_t nans;
	bool log;            /* read from a log, not a flight record */
	bool cecp;           /* the engine's protocol is CECP (XBoard) */
	bool cut;            /* a record whose rings overflowed */
	unsigned cut_line;   /* its "cut" line */
	unsigned start_line; /* the first line replayed from the file */
	unsigned lost;       /* lines sent before start_line, not replayed */
	bool until;          /* read up to --until's line, or a log cut
				short: answers to the last lines may follow */
	char reason[256];    /* why the record was written / the log ended */
	enum fb_replay_end end;
	int code;        /* signal (POSIX numbers) or status */
	uint64_t end_ms; /* the recorded end (the last line's time) */
};

/*
 * Reads text[0..len) (a record or a log, told apart by its first line)
 * into r, up to line until of the file (0: all). Returns 0, or FB_EINVAL
 * with a message in err (not a record, nothing sent to an engine) or
 * FB_ENOMEM.
 */
int
fb_replay_parse(struct fb_replay *r, const char *text, size_t len,
		unsigned until, char *err, size_t errlen);

void
fb_replay_free(struct fb_replay *r);

/* Is line[0..len) an answer, and a move? Returns 0 (no), 1 (an
 * acknowledgement), 2 (a move). */
int
fb_replay_answer_kind(const char *line, size_t len);

/* The replay so far, compared with the record. */
struct fb_replay_cmp {
	const struct fb_replay *r;
	size_t got;         /* answers so far */
	size_t moves, acks; /* of each kind */
	size_t want_moves, want_acks;
	size_t sent; /* steps sent */
	bool diverged;
	char first[512]; /* the first difference */
};

void
fb_replay_cmp_init(struct fb_replay_cmp *c, const struct fb_replay *r);

/* A line of the engine in the replay; true when it is an answer. */
bool
fb_replay_cmp_line(struct fb_replay_cmp *c, const char *text, size_t len);

/*
 * The verdict once the replay is over: the engine died of signal sig
 * (POSIX numbers; 0 none), exited with status (exited), or is still
 * running (neither). Writes what happened to out; returns 0 (the
 * recorded failure reproduced, or for a record of nothing wrong: no
 * divergence) or 1.
 */
int
fb_replay_verdict(struct fb_replay_cmp *c, bool exited, int64_t status, int sig,
		  char *out, size_t cap);

/* A Windows exception code's POSIX signal (0xC0000005: SIGSEGV), or 0. */
int
fb_replay_signal_of(int64_t status);

#endif
