/* SPDX-License-Identifier: MIT */
/*
 * The flight recorder (see recorder.h). A record is a fixed header and the
 * bytes of one chunk, stored in a byte ring that wraps; when a new record
 * does not fit, the oldest ones go. Records carry a sequence number, so
 * the two rings merge back into the order things happened; a chunk that
 * goes on with the line its tag's last chunk left open says so, so that a
 * line whose start was pushed out is left out whole. Nothing is split into
 * lines or formatted until a file is written.
 */
#include "recorder.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <uv.h>

#include "platform.h"

struct header {
	uint64_t seq, ms;
	uint32_t len;  /* bytes after the header, to the next record */
	uint32_t used; /* of which the chunk's */
	uint8_t tag;
	uint8_t cont; /* goes on with its tag's unfinished line */
	uint8_t spare[6];
};

static const char *const tags[FB_REC_TAGS] = {
	"gui>", ">engine", "engine>", ">gui", "engine!", "fenbridge:", "cut",
};

/* The ring a tag's bytes go to. */
static int
ring_of(enum fb_rec_tag tag)
{
	return tag == FB_REC_GUI         ? FB_REC_RING_GUI
	       : tag == FB_REC_ENGINE    ? FB_REC_RING_ENGINE
	       : tag == FB_REC_TO_ENGINE ? FB_REC_RING_TO_ENGINE
					 : FB_REC_RING_OWN;
}

const char *
fb_recorder_tag(enum fb_rec_tag tag)
{
	return (size_t)tag < FB_REC_TAGS ? tags[tag] : "?";
}

bool
fb_recorder_init(struct fb_recorder *r)
{
	static const size_t sizes[FB_REC_RINGS] = {
		FB_RECORDER_GUI_SIZE, FB_RECORDER_ENGINE_SIZE,
		FB_RECORDER_TO_ENGINE_SIZE, FB_RECORDER_OWN_SIZE};

	memset(r, 0, sizeof *r);
	for (int i = 0; i < FB_REC_RINGS; i++) {
		r->ring[i].size = sizes[i];
		if ((r->ring[i].buf = malloc(sizes[i])) == NULL) {
			fb_recorder_free(r);
			return false;
		}
	}
	return true;
}

void
fb_recorder_free(struct fb_recorder *r)
{
	for (int i = 0; i < FB_REC_RINGS; i++) {
		free(r->ring[i].buf);
		r->ring[i].buf = NULL;
	}
}

/*
 * Records never wrap: one that does not fit before the end of the ring
 * starts at its beginning, and the space left at the end is a pad record
 * (tag FB_REC_TAGS) when a header fits there, else simply skipped. So a
 * record is two plain copies, and reading one is a plain load.
 */
#define PAD FB_REC_TAGS

static struct header *
at(const struct fb_rec_ring *g, size_t off)
{
	return (struct header *)(void *)(g->buf + off);
}

/* Drops the oldest record. */
static void
evict(struct fb_rec_ring *g)
{
	struct header *h = at(g, g->tail);
	size_t n = sizeof *h + h->len;

	g->lost = true;
	g->used -= n;
	g->tail += n;
	if (g->tail + sizeof *h > g->size || at(g, g->tail)->tag == PAD ||
	    g->used == 0) {
		/* what lies after it up to the end is the pad, or nothing */
		g->used -= g->used == 0 ? 0 : g->size - g->tail;
		g->tail = 0;
	}
	if (g->used == 0)
		g->head = g->tail = 0;
}

/* Makes need contiguous bytes free at g->head; returns false when the
 * ring cannot hold them at all. */
static bool
make_room(struct fb_rec_ring *g, size_t need)
{
	if (need > g->size)
		return false;
	for (;;) {
		if (g->used == 0) {
			g->head = g->tail = 0;
			return true;
		}
		if (g->head > g->tail || (g->head == g->tail && g->used == 0)) {
			if (g->size - g->head >= need)
				return true;
			/* no room before the end: pad it, go on at 0 */
			if (g->size - g->head >= sizeof(struct header)) {
				struct header *p = at(g, g->head);
				p->tag = PAD;
				p->len = (uint32_t)(g->size - g->head -
						    sizeof *p);
			}
			g->used += g->size - g->head;
			g->head = 0;
			continue;
		}
		/* head at or behind tail: the free space is between them */
		if (g->tail - g->head >= need && g->head != g->tail)
			return true;
		evict(g);
	}
}

/* The bytes a record of len chunk bytes takes, header included. */
static size_t
record_size(size_t len)
{
	return (sizeof(struct header) + len + 7) & ~(size_t)7;
}

char *
fb_recorder_reserve(struct fb_recorder *r, enum fb_rec_ring_id ring, size_t max,
		    size_t *cap)
{
	struct fb_rec_ring *g = &r->ring[ring];

	if (g->buf == NULL)
		return NULL;
	if (max > g->size / 2)
		max = g->size / 2;
	if (!make_room(g, record_size(max)))
		return NULL;
	*cap = max;
	return g->buf + g->head + sizeof(struct header);
}

void
fb_recorder_commit(struct fb_recorder *r, enum fb_rec_ring_id ring,
		   enum fb_rec_tag tag, uint64_t ms, size_t len)
{
	struct fb_rec_ring *g = &r->ring[ring];
	struct header *h;
	const char *data;

	if (g->buf == NULL || len == 0 || (size_t)tag >= FB_REC_TAGS)
		return;
	h = at(g, g->head);
	data = (const char *)(h + 1);
	h->seq = r->seq++;
	h->ms = ms;
	h->len = (uint32_t)(record_size(len) - sizeof *h);
	h->used = (uint32_t)len;
	h->tag = (uint8_t)tag;
	h->cont = r->open_line[tag];
	r->open_line[tag] = data[len - 1] != '\n' && data[len - 1] != '\r';
	g->head += sizeof *h + h->len;
	g->used += sizeof *h + h->len;
}

void
fb_recorder_add(struct fb_recorder *r, enum fb_rec_tag tag, uint64_t ms,
		const char *data, size_t len)
{
	enum fb_rec_ring_id ring = ring_of(tag);
	size_t cap;
	char *p;

	if (len == 0 || (size_t)tag >= FB_REC_TAGS)
		return;
	if (len > r->ring[ring].size / 2) {
		/* a chunk bigger than the ring can keep: its last bytes, the
		 * first of which go on with a line whose start is gone */
		data += len - r->ring[ring].size / 2;
		len = r->ring[ring].size / 2;
		r->open_line[tag] = true;
		r->ring[ring].lost = true;
	}
	if ((p = fb_recorder_reserve(r, ring, len, &cap)) == NULL)
		return;
	memcpy(p, data, len);
	fb_recorder_commit(r, ring, tag, ms, len);
}

/* A line being put together from chunks, per tag. */
struct pending {
	char text[FB_RECORDER_LINE_MAX + 3];
	size_t len;
	bool cut, skip, any;
	uint64_t ms;
};

struct walk {
	void (*fn)(void *ctx, enum fb_rec_tag tag, uint64_t ms,
		   const char *text, size_t len);
	void *ctx;
	struct pending p[FB_REC_TAGS];
	bool seen[FB_REC_TAGS];
};

static void
flush_line(struct walk *w, enum fb_rec_tag tag)
{
	struct pending *p = &w->p[tag];

	if (p->skip) {
		p->skip = false;
	} else if (p->len > 0 || p->any) {
		if (p->cut) {
			memcpy(p->text + p->len, "...", 3);
			p->len += 3;
		}
		w->fn(w->ctx, tag, p->ms, p->text, p->len);
	}
	p->len = 0;
	p->cut = p->any = false;
}

/* Splits one record's bytes into lines (LF, CRLF or CR end one). */
static void
feed(struct walk *w, const struct header *h, const char *b)
{
	enum fb_rec_tag tag = (enum fb_rec_tag)h->tag;
	struct pending *p = &w->p[tag];

	if (!w->seen[tag]) {
		/* The first record of a tag: a line it goes on with lost its
		 * start to the ring. */
		w->seen[tag] = true;
		p->skip = h->cont;
	}
	for (size_t i = 0; i < h->used; i++) {
		char c = b[i];
		if (c == '\n' && i > 0 && b[i - 1] == '\r')
			continue; /* the LF of a CRLF */
		if (c == '\n' || c == '\r') {
			flush_line(w, tag);
			continue;
		}
		if (p->len == 0 && !p->any)
			p->ms = h->ms;
		p->any = true;
		if (p->len < FB_RECORDER_LINE_MAX)
			p->text[p->len++] = c;
		else
			p->cut = true;
	}
}

/* The next record of ring g from *off (NULL at the end); *left counts the
 * bytes of records still to read. */
static const struct header *
next_record(const struct fb_rec_ring *g, size_t *off, size_t *left)
{
	while (*left > 0) {
		const struct header *h;
		if (*off + sizeof *h > g->size) {
			*left -= g->size - *off;
			*off = 0;
			continue;
		}
		h = at(g, *off);
		if (h->tag == PAD) {
			*left -= g->size - *off;
			*off = 0;
			continue;
		}
		return h;
	}
	return NULL;
}

/* The sequence number from which on no ring lost a record, or 0 when none
 * lost any. */
static uint64_t
complete_from(const struct fb_recorder *r)
{
	uint64_t from = 0;

	for (int i = 0; i < FB_REC_RINGS; i++) {
		const struct fb_rec_ring *g = &r->ring[i];
		size_t off = g->tail, left = g->used;
		const struct header *h;
		if (g->buf == NULL || !g->lost)
			continue;
		h = next_record(g, &off, &left);
		/* a ring that lost all: from the next record on */
		if ((h != NULL ? h->seq : r->seq) > from)
			from = h != NULL ? h->seq : r->seq;
		if (from == 0)
			from = 1; /* lost records, yet seq 0 is kept: no mark */
	}
	return from;
}

void
fb_recorder_each(const struct fb_recorder *r,
		 void (*fn)(void *ctx, enum fb_rec_tag tag, uint64_t ms,
			    const char *text, size_t len),
		 void *ctx)
{
	static const char cut[] = "every line from here on was kept; older "
				  "ones were pushed out of the rings";
	struct walk *w = calloc(1, sizeof *w);
	size_t off[FB_REC_RINGS], left[FB_REC_RINGS];
	uint64_t from = complete_from(r);
	bool marked = from == 0;

	if (w == NULL)
		return;
	for (int i = 0; i < FB_REC_RINGS; i++) {
		off[i] = r->ring[i].tail;
		left[i] = r->ring[i].used;
	}
	w->fn = fn;
	w->ctx = ctx;
	for (;;) {
		const struct header *h[FB_REC_RINGS] = {NULL};
		int pick = -1;
		for (int i = 0; i < FB_REC_RINGS; i++) {
			if (r->ring[i].buf == NULL ||
			    (h[i] = next_record(&r->ring[i], &off[i],
						&left[i])) == NULL)
				continue;
			if (pick < 0 || h[i]->seq < h[pick]->seq)
				pick = i;
		}
		if (!marked && (pick < 0 || h[pick]->seq >= from)) {
			marked = true;
			fn(ctx, FB_REC_CUT, pick < 0 ? 0 : h[pick]->ms, cut,
			   sizeof cut - 1);
		}
		if (pick < 0)
			break;
		feed(w, h[pick], (const char *)(h[pick] + 1));
		off[pick] += sizeof *h[pick] + h[pick]->len;
		left[pick] -= sizeof *h[pick] + h[pick]->len;
	}
	for (int t = 0; t < FB_REC_TAGS; t++)
		if (w->p[t].len > 0 || w->p[t].any)
			flush_line(w, (enum fb_rec_tag)t);
	free(w);
}

static void
write_one(void *ctx, enum fb_rec_tag tag, uint64_t ms, const char *text,
	  size_t len)
{
	FILE *f = ctx;

	fprintf(f, "%8.3f %-8s ", ms / 1000.0, fb_recorder_tag(tag));
	/* Control bytes of a peer's line would garble the file: as the log
	 * does, they are written escaped. */
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('\n', f);
}

static int
write_in(struct fb_recorder *r, const char *dir, const char *reason,
	 const char *head)
{
	static const char sep[] = {FB_PATH_SEP, '\0'};
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	FILE *f;
	int n;

#ifdef _WIN32
	localtime_s(&tm, &now);
#else
	localtime_r(&now, &tm);
#endif
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	/* The system's separator: the path is told to the user, and on
	 * Windows C:\...\Temp/fenbridge-... looks wrong. */
	n = snprintf(r->path, sizeof r->path, "%s%sfenbridge-%s-%d.txt", dir,
		     dir[0] != '\0' && !fb_path_is_sep(dir[strlen(dir) - 1])
			     ? sep
			     : "",
		     stamp, (int)uv_os_getpid());
	if (n < 0 || (size_t)n >= sizeof r->path)
		return -ENAMETOOLONG;
	if ((f = fb_platform_fopen(r->path, "wb")) == NULL)
		return -errno;
	fprintf(f, "fenbridge flight record: %s\n", reason);
	if (head != NULL)
		fputs(head, f);
	fprintf(f, "the last lines both ways, oldest first, in the order "
		   "they were read (seconds since fenbridge started); what "
		   "fenbridge sent follows the read it came from, and every "
		   "line the engine was sent is an >engine line:\n");
	fb_recorder_each(r, write_one, f);
	if (fclose(f) != 0)
		return -EIO;
	r->written = true;
	return 0;
}

int
fb_recorder_write(struct fb_recorder *r, const char *dir, const char *reason,
		  const char *head)
{
	char tmp[1024];
	size_t tl = sizeof tmp;
	int rc = -ENOENT;

	if (dir != NULL && (rc = write_in(r, dir, reason, head)) == 0)
		return 0;
	if (uv_os_tmpdir(tmp, &tl) != 0)
		return rc;
	return write_in(r, tmp, reason, head);
}
