/* SPDX-License-Identifier: MIT */
/*
 * The flight recorder: the last bytes both ways, always kept in rings of
 * fixed size, written to a file when something goes wrong (the engine dies,
 * is killed, or a pair reports trouble), so that an engine author can see
 * which command came before the crash and whether a move was the engine's
 * or the GUI's notation.
 *
 * The bridge hands over what it reads as it reads it (a chunk of any number
 * of lines, maybe ending inside one), so keeping it is one copy per read,
 * not per line, and nothing is formatted or split into lines until a file
 * is written: it costs next to nothing while nothing fails. The GUI's side
 * and the engine's have a ring each, so an engine's flood of `info` lines
 * does not push out the GUI's last commands. Only fb_recorder_write does
 * I/O.
 */
#ifndef FB_RECORDER_H
#define FB_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The rings: what the GUI sent, what the engine sent (a few thousand
 * `info` lines), every line the engine was sent (the engine's side of the
 * wire whole, so that `fenbridge replay` can feed it again: a GUI line
 * passed as it came is kept there too), and fenbridge's own (lines of its
 * own to the GUI, the engine's stderr, notes). The GUI's and the engine's
 * are read into directly (fb_recorder_reserve): keeping what was read costs
 * no copy; the lines toward the engine are few (commands) and cost one. */
enum fb_rec_ring_id {
	FB_REC_RING_GUI,
	FB_REC_RING_ENGINE,
	FB_REC_RING_TO_ENGINE,
	FB_REC_RING_OWN,
	FB_REC_RINGS
};
#define FB_RECORDER_GUI_SIZE (128 * 1024)
#define FB_RECORDER_ENGINE_SIZE (384 * 1024)
#define FB_RECORDER_TO_ENGINE_SIZE (128 * 1024)
#define FB_RECORDER_OWN_SIZE (64 * 1024)
/* A line longer than this is written cut, marked as cut. */
#define FB_RECORDER_LINE_MAX 4096

/* Who recorded bytes are from or to, as the log tags them. */
enum fb_rec_tag {
	FB_REC_GUI,       /* gui>     the GUI's bytes as read */
	FB_REC_TO_ENGINE, /* >engine  a line the engine was sent */
	FB_REC_ENGINE,    /* engine>  the engine's bytes as read */
	FB_REC_TO_GUI,    /* >gui     a line of fenbridge's own to the GUI */
	FB_REC_ERR,       /* engine!  the engine's stderr */
	FB_REC_NOTE,      /* fenbridge's own diagnostics */
	FB_REC_CUT,       /* cut      no record: fb_recorder_each's mark of
			   * where every line is kept from */
	FB_REC_TAGS,
};

struct fb_rec_ring {
	char *buf;
	size_t size;
	size_t head, tail, used; /* records between tail and head */
	bool lost;               /* a record was pushed out */
};

struct fb_recorder {
	struct fb_rec_ring ring[FB_REC_RINGS]; /* enum fb_rec_ring_id */
	uint64_t seq;                          /* records ever kept */
	/* Each tag's last chunk ended inside a line. */
	bool open_line[FB_REC_TAGS];
	bool written;    /* a file was written this session */
	char path[1024]; /* its name */
};

/* Allocates the rings; false when out of memory (then nothing is kept). */
bool
fb_recorder_init(struct fb_recorder *r);

void
fb_recorder_free(struct fb_recorder *r);

/*
 * Keeps a copy of data[0..len) as tagged bytes at time ms since the start:
 * the engine's or the GUI's bytes as read (any number of lines, the last
 * maybe unfinished: the next bytes of the same tag go on with it), or whole
 * lines. Only the last bytes of a chunk bigger than half its ring are kept.
 */
void
fb_recorder_add(struct fb_recorder *r, enum fb_rec_tag tag, uint64_t ms,
		const char *data, size_t len);

/*
 * Room for a read of at most max bytes (capped at half the ring) straight
 * into ring (FB_REC_RING_GUI or FB_REC_RING_ENGINE), for the one reader of
 * that ring: returns where, and *cap how much, or NULL (no ring). Until
 * fb_recorder_commit nothing else goes into that ring; a reservation that
 * is never committed is simply forgotten.
 */
char *
fb_recorder_reserve(struct fb_recorder *r, enum fb_rec_ring_id ring, size_t max,
		    size_t *cap);

/* The read put len bytes where fb_recorder_reserve said (0: none): they
 * become a record of tag at time ms. */
void
fb_recorder_commit(struct fb_recorder *r, enum fb_rec_ring_id ring,
		   enum fb_rec_tag tag, uint64_t ms, size_t len);

/*
 * Calls fn for each kept line, oldest first across the rings, with its
 * text (no terminator) in a buffer valid for the call; cut lines end in
 * "...". A line whose start was pushed out of its ring is left out. When
 * a ring lost records, one call with tag FB_REC_CUT comes before the first
 * line from which on no ring lost any (the lines before it are what was
 * left of the older ones). For the file and tests.
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
