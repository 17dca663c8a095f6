/* SPDX-License-Identifier: MIT */
/*
 * The flight recorder (see recorder.h). A record is a fixed header and the
 * line's bytes, stored in a byte ring that wraps; when a new record does
 * not fit, the oldest ones go. Nothing is formatted until a file is
 * written.
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
	uint64_t ms;
	uint32_t len;
	uint8_t tag;
	uint8_t cut;
	uint16_t pad;
};

static const char *const tags[] = {
	"gui>", ">engine", "engine>", ">gui", "engine!", "fenbridge:",
};

const char *
fb_recorder_tag(enum fb_rec_tag tag)
{
	return (size_t)tag < sizeof tags / sizeof tags[0] ? tags[tag] : "?";
}

bool
fb_recorder_init(struct fb_recorder *r)
{
	memset(r, 0, sizeof *r);
	r->ring = malloc(FB_RECORDER_SIZE);
	return r->ring != NULL;
}

void
fb_recorder_free(struct fb_recorder *r)
{
	free(r->ring);
	r->ring = NULL;
}

static void
put(struct fb_recorder *r, size_t at, const void *data, size_t n)
{
	size_t first = FB_RECORDER_SIZE - at;

	if (n <= first) {
		memcpy(r->ring + at, data, n);
		return;
	}
	memcpy(r->ring + at, data, first);
	memcpy(r->ring, (const char *)data + first, n - first);
}

static void
get(const struct fb_recorder *r, size_t at, void *out, size_t n)
{
	size_t first = FB_RECORDER_SIZE - at;

	if (n <= first) {
		memcpy(out, r->ring + at, n);
		return;
	}
	memcpy(out, r->ring + at, first);
	memcpy((char *)out + first, r->ring, n - first);
}

void
fb_recorder_add(struct fb_recorder *r, enum fb_rec_tag tag, uint64_t ms,
		const char *text, size_t len)
{
	struct header h = {.ms = ms, .tag = (uint8_t)tag};
	size_t need;

	if (r->ring == NULL)
		return;
	if (len > FB_RECORDER_LINE_MAX) {
		len = FB_RECORDER_LINE_MAX;
		h.cut = 1;
	}
	h.len = (uint32_t)len;
	need = sizeof h + len;
	while (r->used + need > FB_RECORDER_SIZE) {
		struct header old;
		get(r, r->tail, &old, sizeof old);
		r->tail = (r->tail + sizeof old + old.len) % FB_RECORDER_SIZE;
		r->used -= sizeof old + old.len;
	}
	put(r, r->head, &h, sizeof h);
	put(r, (r->head + sizeof h) % FB_RECORDER_SIZE, text, len);
	r->head = (r->head + need) % FB_RECORDER_SIZE;
	r->used += need;
	r->lines++;
}

void
fb_recorder_each(const struct fb_recorder *r,
		 void (*fn)(void *ctx, enum fb_rec_tag tag, uint64_t ms,
			    const char *text, size_t len),
		 void *ctx)
{
	char line[FB_RECORDER_LINE_MAX + 3];
	size_t at = r->tail, left = r->used;

	while (r->ring != NULL && left > 0) {
		struct header h;
		get(r, at, &h, sizeof h);
		get(r, (at + sizeof h) % FB_RECORDER_SIZE, line, h.len);
		if (h.cut)
			memcpy(line + h.len, "...", 3);
		fn(ctx, (enum fb_rec_tag)h.tag, h.ms, line,
		   h.len + (h.cut ? 3 : 0));
		at = (at + sizeof h + h.len) % FB_RECORDER_SIZE;
		left -= sizeof h + h.len;
	}
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
	n = snprintf(r->path, sizeof r->path, "%s%sfenbridge-%s-%d.txt", dir,
		     dir[0] != '\0' && !fb_path_is_sep(dir[strlen(dir) - 1])
			     ? "/"
			     : "",
		     stamp, (int)uv_os_getpid());
	if (n < 0 || (size_t)n >= sizeof r->path)
		return -ENAMETOOLONG;
	if ((f = fb_platform_fopen(r->path, "wb")) == NULL)
		return -errno;
	fprintf(f, "fenbridge flight record: %s\n", reason);
	if (head != NULL)
		fputs(head, f);
	fprintf(f, "the last lines both ways, oldest first (seconds since "
		   "fenbridge started; %llu lines in all):\n",
		(unsigned long long)r->lines);
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
