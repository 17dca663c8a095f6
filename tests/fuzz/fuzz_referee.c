/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the referee (protocols/referee*.c) fed any lines on
 * both wires. The input is lines; each line's first byte chooses the wire,
 * the way, each wire's protocol and how far the clock moves. Properties:
 * no crash, no overrun (ASan/UBSan), every finding is one line of text
 * that names its position, the counts add up to the findings reported
 * (notes not among them, each said once), lines of a protocol not yet
 * known held and judged later,
 * and after a tick the next deadline is none or still to come.
 */
#include "fuzz_common.h"

#include "referee.h"

static unsigned reported, noted;

static void
on_finding(void *ctx, enum fb_referee_kind kind, const char *text, bool first)
{
	(void)ctx;
	CHECK((unsigned)kind <= FB_REF_NOTE);
	CHECK(strchr(text, '\n') == NULL && strchr(text, '\r') == NULL);
	if (kind == FB_REF_NOTE) { /* once a session each: a few at most */
		CHECK(first && strncmp(text, "note: ", 6) == 0);
		CHECK(++noted <= 3);
		return;
	}
	CHECK(strstr(text, ", position ") != NULL);
	reported++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fb_referee r;
	const char *p = (const char *)data, *end = p + size;
	uint64_t now = 0;

	reported = noted = 0;
	fb_referee_init(&r,
			(size > 0 && data[0] & 1) ? FB_REFEREE_STRICT
						  : FB_REFEREE_WARN,
			on_finding, NULL);
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t n = e != NULL ? (size_t)(e - p) : (size_t)(end - p);
		if (n > 0) {
			unsigned c = (unsigned char)p[0];
			enum fb_referee_side side = c & 1 ? FB_REF_GUI
							  : FB_REF_ENGINE;
			bool from_peer = c & 2;
			enum fb_referee_proto proto = (c >> 2 & 3) == 0
							      ? FB_REF_UNKNOWN
						      : (c >> 2 & 3) == 1
							      ? FB_REF_CECP
							      : FB_REF_UCI;
			now += (uint64_t)(c >> 4) * 700;
			fb_referee_line(&r, side, from_peer, proto, p + 1,
					n - 1, now);
			if (c & 0x10) {
				uint64_t at;
				fb_referee_tick(&r, now);
				at = fb_referee_next_deadline(&r);
				CHECK(at == 0 || at > now);
			}
		}
		p += n + (e != NULL);
	}
	/* What is still held is judged once the protocols are known. */
	fb_referee_protocol(&r, FB_REF_ENGINE,
			    size & 2 ? FB_REF_UCI : FB_REF_CECP);
	fb_referee_protocol(&r, FB_REF_GUI,
			    size & 4 ? FB_REF_UCI : FB_REF_CECP);
	fb_referee_finish(&r, now + 10000);
	CHECK(fb_referee_total(&r) == reported);
	return 0;
}
