/* SPDX-License-Identifier: MIT */
/*
 * fuzz_journal: the engine wire's journal (protocols/journal.c, --restart).
 *
 * The input is lines: `>TEXT` goes toward the engine, `<TEXT` comes from
 * it (up to a CR, as the bridge frames it), `!u` / `!x` asks for a UCI / XBoard replay; each line's time is its
 * number times 37 ms. Two journals are fed the same: one each line whole,
 * the other toward the engine a byte at a time. Properties:
 *  - a replay is whole lines, each ended by "\n" and holding no other
 *    (no CR either); a UCI one opens with `uci`, an XBoard one with
 *    `xboard`;
 *  - both journals give the same replays and drop the same engine lines
 *    (pieces do not matter);
 *  - a second replay at once is the same as the first (a replay changes
 *    no state but the restart count and what is dropped).
 */
#include "fuzz_common.h"
#include "journal.h"

static void
collect(void *ctx, const char *line, size_t len)
{
	struct fz_buf *b = ctx;

	CHECK(len >= 1 && line[len - 1] == '\n');
	CHECK(memchr(line, '\n', len - 1) == NULL);
	CHECK(memchr(line, '\r', len) == NULL);
	fz_buf_add(b, line, len);
}

static void
replay(struct fb_journal *j, bool uci, uint64_t ms, struct fz_buf *out)
{
	out->len = 0;
	fb_journal_replay(j, uci, ms, collect, out);
	CHECK(out->len >= (uci ? 4u : 7u));
	CHECK(memcmp(out->p, uci ? "uci\n" : "xboard\n", uci ? 4 : 7) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	struct fb_journal *a = fb_journal_new(), *b = fb_journal_new();
	struct fz_buf ra = {0}, rb = {0}, again = {0};
	uint64_t ms = 0;

	CHECK(a != NULL && b != NULL);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);

		ms += 37;
		if (len >= 1 && p[0] == '>') {
			/* with its newline: a line toward the engine is whole */
			fb_journal_to_engine(a, p + 1, len - 1, ms);
			fb_journal_to_engine(a, "\n", 1, ms);
			for (size_t i = 1; i < len; i++)
				fb_journal_to_engine(b, p + i, 1, ms);
			fb_journal_to_engine(b, "\n", 1, ms);
		} else if (len >= 1 && p[0] == '<') {
			/* framed as the bridge frames: a CR ends it */
			const char *cr = memchr(p, '\r', len);
			size_t n = (cr != NULL ? (size_t)(cr - p) : len) - 1;
			CHECK(fb_journal_from_engine(a, p + 1, n, ms) ==
			      fb_journal_from_engine(b, p + 1, n, ms));
		} else if (len >= 2 && p[0] == '!') {
			bool uci = p[1] == 'u';
			replay(a, uci, ms, &ra);
			replay(b, uci, ms, &rb);
			CHECK(ra.len == rb.len &&
			      memcmp(ra.p, rb.p, ra.len) == 0);
			replay(a, uci, ms, &again);
			replay(b, uci, ms, &rb);
			CHECK(again.len == ra.len &&
			      memcmp(again.p, ra.p, ra.len) == 0);
			CHECK(fb_journal_restarts(a) == fb_journal_restarts(b));
		}
		p += len + (nl != NULL);
	}
	fb_journal_free(a);
	fb_journal_free(b);
	fz_buf_free(&ra);
	fz_buf_free(&rb);
	fz_buf_free(&again);
	return 0;
}
