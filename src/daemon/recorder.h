/* SPDX-License-Identifier: MIT */
/*
 * The flight recorder: the last lines both ways, always kept in a ring of
 * fixed size, written to a file when something goes wrong (the engine dies,
 * is killed, or a pair reports trouble), so that an engine author can see
 * which command came before the crash and whether a move was the engine's
 * or the GUI's notation.
 *
 * Keeping a line is one copy into the ring, no formatting and no clock
 * read beyond the loop's cached time: it costs next to nothing while
 * nothing fails. Only fb_recorder_write does I/O.
 */
#ifndef FB_RECORDER_H
#define FB_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The ring's size: a few thousand lines of a busy engine. */
#define FB_RECORDER_SIZE (256 * 1024)
/* A longer line is kept cut to this, marked as cut. */
#define FB_RECORDER_LINE_MAX 4096

/* Who a recorded line is from or to, as the log tags it. */
enum fb_rec_tag {
	FB_REC_GUI,       /* gui>     the GUI's line as read */
	FB_REC_TO_ENGINE, /* >engine  what the engine was sent */
	FB_REC_ENGINE,    /* engine>  the engine's line as read */
	FB_REC_TO_GUI,    /* >gui     a line of fenbridge's own to the GUI */
	FB_REC_ERR,       /* engine!  the engine's stderr */
	FB_REC_NOTE,      /* fenbridge's own diagnostics */
};

struct fb_recorder {
	char *ring;      /* FB_RECORDER_SIZE bytes, or NULL (out of memory) */
	size_t head;     /* where the next record goes */
	size_t tail;     /* the oldest record */
	size_t used;     /* bytes of records between tail and head */
	uint64_t lines;  /* records ever kept */
	bool written;    /* a file was written this session */
	char path[1024]; /* its name */
};

/* Allocates the ring; false when out of memory (then nothing is kept). */
bool
fb_recorder_init(struct fb_recorder *r);

void
fb_recorder_free(struct fb_recorder *r);

/* Keeps one line (without its terminator), at time ms since the start. */
void
fb_recorder_add(struct fb_recorder *r, enum fb_rec_tag tag, uint64_t ms,
		const char *text, size_t len);

/*
 * Calls fn for each kept record, oldest first, with its text in a buffer
 * valid for the call (cut records end in "..."). For the file and tests.
 */
void
fb_recorder_each(const struct fb_recorder *r,
		 void (*fn)(void *ctx, enum fb_rec_tag tag, uint64_t ms,
			    const char *text, size_t len),
		 void *ctx);

/*
 * Writes the record to a new file fenbridge-YYYYMMDD-HHMMSS-PID.txt in dir
 * (a folder, or NULL for the system's temporary folder): why it was written
 * (reason), the header lines head (the session: version, engine, the game
 * so far; may be NULL), then every kept line with its time and tag. Sets
 * r->path and r->written. Returns 0, or a negative errno-style code; on
 * failure it tries the temporary folder once more.
 */
int
fb_recorder_write(struct fb_recorder *r, const char *dir, const char *reason,
		  const char *head);

/* The log's tag of a record ("gui>", ">engine", ...). */
const char *
fb_recorder_tag(enum fb_rec_tag tag);

#endif
