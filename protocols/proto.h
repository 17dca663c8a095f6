/* SPDX-License-Identifier: MIT */
/*
 * What the protocol files share, private to protocols/: tokens, editing a
 * line, translating a FEN inside a line, following a move and rewriting a
 * castle, reports and lines of fenbridge's own. Nothing outside protocols/
 * includes this.
 *
 * No I/O: output goes through the caller's sink.
 */
#ifndef FB_PROTO_H
#define FB_PROTO_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "fenbridge/variant.h"
#include "quirk.h"
#include "filter.h"
#include "token.h"

/* The pairs (one file each). */
extern const struct fb_pair fb_pair_uci;
extern const struct fb_pair fb_pair_xboard;
extern const struct fb_pair fb_pair_xboard_uci; /* XBoard GUI, UCI engine */
extern const struct fb_pair fb_pair_uci_xboard; /* UCI GUI, XBoard engine */

/* Likewise, ignoring ASCII case. */
bool
fb_proto_is_nocase(const char *text, size_t start, size_t n, const char *word);

/* The config's entry for the engine option name[0..n) (any case), or NULL. */
const struct fb_engine_option *
fb_proto_option(const struct fb_filter_options *opt, const char *name,
		size_t n);

/* Reports a formatted diagnostic through out. */
void
fb_proto_report(const struct fb_sink *out, enum fb_level level, const char *fmt,
		...) __attribute__((format(printf, 3, 4)));

/* The two directions of a session. */
enum fb_dir { FB_TO_GUI, FB_TO_ENGINE };

/* Bytes toward the GUI or the engine. */
static inline void
fb_sink_put(const struct fb_sink *out, enum fb_dir d, const char *data,
	    size_t len)
{
	(d == FB_TO_GUI ? out->to_gui : out->to_engine)(out->ctx, data, len);
}

/*
 * Queues a whole line of fenbridge's own toward the GUI or the engine,
 * built from a format, with the terminator "\n"; a line is cut at
 * FB_OWN_LINE_MAX.
 */
void
fb_proto_gui(const struct fb_sink *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void
fb_proto_engine(const struct fb_sink *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void
fb_proto_vline(const struct fb_sink *out, enum fb_dir d, const char *fmt,
	       va_list ap) __attribute__((format(printf, 3, 0)));

/* Queues a line of fenbridge's own to the GUI, which speaks gui:
 * "<its prefix of level>fenbridge: <text>" (the one wording of in-band
 * lines: struct fb_protocol), cut at FB_OWN_LINE_MAX. */
void
fb_proto_say(const struct fb_sink *out, const struct fb_protocol *gui,
	     enum fb_say level, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * The array a of n elements of size bytes (capacity *cap) with room for one
 * more: a itself, a grown copy (the capacity doubles, from first), or NULL
 * when it cannot grow (a is then still the array). The pairs' move and
 * position histories.
 */
void *
fb_proto_grow(void *a, size_t n, size_t *cap, size_t size, size_t first);

/* A growing byte buffer (zero it to start); oom remembers a failed
 * append, after which appends do nothing. The owner frees p. */
struct fb_buf {
	char *p;
	size_t len, cap;
	bool oom;
};

/* Appends data[0..n) or the string s to b. */
void
fb_proto_buf_add(struct fb_buf *b, const char *data, size_t n);
void
fb_proto_buf_str(struct fb_buf *b, const char *s);

/* Lines a pair holds until its engine's handshake ends, "\n" after each:
 * fb_proto_hold keeps text[0..len) while h stays within max bytes, and
 * returns false (h unchanged) when it does not fit; fb_proto_release
 * empties h and gives each line to line(ctx, text, len, out), in order
 * (what line does may hold new lines in h). */
bool
fb_proto_hold(struct fb_buf *h, const char *text, size_t len, size_t max);
void
fb_proto_release(struct fb_buf *h,
		 void (*line)(void *ctx, const char *text, size_t len,
			      const struct fb_sink *out),
		 void *ctx, const struct fb_sink *out);

/* A replacement of text[off..off+len) by the bytes text_out[0..tlen). */
struct fb_edit {
	size_t off, len;
	const char *text;
	size_t tlen;
};

/* Emits the line toward d with the edits (in increasing offset order)
 * applied. */
void
fb_proto_emit_edited(const struct fb_sink *out, enum fb_dir d, const char *text,
		     size_t len, size_t term, const struct fb_edit *edits,
		     unsigned n);

/*
 * Parses the FEN at text[b..e) into *fen, reporting what is wrong (with
 * what naming the command). Returns 0 when it is understood; a negative
 * FB_E* code when it is malformed, or FB_ENOSPC when it is too long to
 * translate: it must then pass unchanged.
 */
int
fb_proto_parse_fen(const char *text, size_t b, size_t e, const char *what,
		   const struct fb_sink *out, struct fb_fen *fen);

/*
 * Prints a parsed FEN in style into buf (cap bytes, at least the FEN's
 * length + FB_FEN_GROWTH). Returns 1 when it differs from the input (then
 * *edit replaces the FEN with it, at offset 0 of the FEN: the caller adds
 * where the FEN starts in its line; the rewrite is reported), 0 when it is
 * the same, or FB_ENOSPC.
 */
int
fb_proto_print_fen(const struct fb_fen *fen, const struct fb_fen_style *style,
		   const char *what, const struct fb_sink *out, char *buf,
		   size_t cap, struct fb_edit *edit);

/*
 * Emits the line toward d with the FEN at text[b..e) translated to style,
 * or unchanged when it is malformed (with a report); with standard,
 * without the rights standard notation cannot express. Returns true when
 * the FEN was understood (then *fen holds it as read, if fen is not NULL).
 */
bool
fb_proto_splice_fen(const struct fb_sink *out, enum fb_dir d, const char *text,
		    size_t len, size_t term, size_t b, size_t e,
		    const struct fb_fen_style *style, bool standard,
		    const char *what, struct fb_fen *fen);

/*
 * Reads the move token text[start..start+n) in g and plays it. When it
 * castles and notation `to` spells it differently, fills *edit (text in
 * pool) and sets edit->len > 0; otherwise edit->len is 0. A castling move
 * `to` cannot express is left as it is and reported at level (an engine's
 * info lines repeat it many times: debug there, a warning elsewhere).
 * Returns 0, or FB_EINVAL when the token is not a move (g unchanged).
 */
int
fb_proto_move(struct fb_game *g, const char *text, size_t start, size_t n,
	      enum fb_castle_notation to, struct fb_edit *edit,
	      char pool[static 8], const struct fb_sink *out, const char *what,
	      enum fb_level level);

#endif
