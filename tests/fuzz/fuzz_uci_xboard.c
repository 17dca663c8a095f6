/* SPDX-License-Identifier: MIT */
/*
 * fuzz_uci_xboard: the UCI GUI / XBoard engine pair
 * (protocols/uci_xboard/) fed a session from both sides through the
 * filter, as the bridge does, with timer expiries between lines. The pair
 * reads everything itself (features, options, positions, go, SAN pvs read
 * by movegen), so every input is a chance to crash.
 *
 * Input: a first line whose first byte (^ '0') chooses: bit 0 a config
 * name for the engine, bit 1 config options (set, forced, hidden), bit 2
 * FENs to the engine in Shredder-FEN, bit 3 --normalize. Then lines: '>' first means engine
 * -> GUI, '!' a timer expiry, anything else GUI -> engine; the first byte
 * is dropped, the rest goes to fb_filter_*_line as one line.
 *
 * Checked: every write each way is whole lines (ends in '\n'); a reply to
 * the engine is one line; reports are NUL-terminated and short; the
 * engine's game keeps sane castling rights; the output of one line is
 * bounded; fb_filter_free frees everything (LeakSanitizer).
 */
#include <stdbool.h>

#include "fuzz_common.h"
#include "filter.h"

/* The handshake's option block is the biggest output of one line: 64
 * options of up to 800 bytes. */
#define MAX_LINE_OUT (128 * 1024)

static size_t written;

static void
whole_lines(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	fz_check_own_lines(data, len, false);
	written += len;
}

static void
one_line(void *ctx, const char *data, size_t len)
{
	whole_lines(ctx, data, len);
	fz_check_own_lines(data, len, true);
}

static void
timer(void *ctx, unsigned ms)
{
	(void)ctx;
	CHECK(ms <= 60000);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct fb_engine_option opts[] = {
		{"Hash", "16", FB_OPT_SET},
		{"Threads", "2", FB_OPT_SET | FB_OPT_FORCED},
		{"Resign", NULL, FB_OPT_HIDDEN},
	};
	const char *d = (const char *)data;
	const char *nl = memchr(d, '\n', size);
	unsigned b0 = (size > 0 && d[0] != '\n' ? data[0] : '0') ^ '0';
	struct fb_filter_options fo = {
		.proto = &fb_protocol_uci,
		.engine_proto = &fb_protocol_xboard,
		.engine_fen = (b0 & 4) ? FB_SHREDDER : FB_XFEN,
		.gui_fen = FB_SHREDDER,
		.name = (b0 & 1) ? "FuzzBot" : NULL,
		.options = (b0 & 2) ? opts : NULL,
		.noptions = (b0 & 2) ? 3 : 0,
		.normalize = (b0 & 8) != 0,
	};
	struct fb_filter f;
	size_t i = nl != NULL ? (size_t)(nl - d) + 1 : size;

	fb_filter_init(&f, &fo);
	while (i < size) {
		const char *e = memchr(d + i, '\n', size - i);
		size_t end = e != NULL ? (size_t)(e - d) : size;
		const char *text = d + i + 1;
		size_t len = end > i ? end - i - 1 : 0;
		struct fb_sink s = {.report = fz_check_report,
				    .timer = timer,
				    .min_level = FB_LOG_DEBUG};

		written = 0;
		if (end == i) {
			;
		} else if (d[i] == '!') {
			s.to_engine = whole_lines;
			s.to_gui = whole_lines;
			fb_filter_timeout(&f, &s);
		} else if (d[i] == '>') {
			s.to_gui = whole_lines;
			s.to_engine = one_line;
			fb_filter_engine_line(&f, text, len, 0, 0, &s);
		} else {
			s.to_engine = whole_lines;
			s.to_gui = whole_lines;
			fb_filter_gui_line(&f, text, len, 0, 0, &s);
		}
		CHECK(written <= MAX_LINE_OUT + 4 * len);
		if (fb_filter_game(&f) != NULL)
			fz_check_game(fb_filter_game(&f));
		i = end + 1;
	}
	fb_filter_free(&f);
	return 0;
}
