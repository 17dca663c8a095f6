/* SPDX-License-Identifier: MIT */
/*
 * Protocol filters: one whole line in, the same line or its rewrite out.
 *
 * A filter sees every line of both directions. It emits each line exactly
 * once, through the sink, either byte for byte as it came or with a FEN
 * rewritten; it never drops a line. The state both directions update (which
 * protocol, which XBoard variant, whether the GUI said quit) is a plain
 * struct. Each protocol (protocols/uci.c, protocols/xboard.c) exports one
 * const struct fb_protocol; protocols/protocols.c lists them.
 *
 * Pure code: no I/O. The bridge owns the sink and decides what to do with
 * the bytes and the reports.
 */
#ifndef FENBRIDGE_FILTER_H
#define FENBRIDGE_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "fenbridge/fen.h"

enum fb_level { FB_LOG_DEBUG, FB_LOG_INFO, FB_LOG_WARN, FB_LOG_ERROR };

struct fb_sink {
	/* Bytes toward the peer, in order; borrowed for the call only. */
	void (*emit)(void *ctx, const char *data, size_t len);
	/* A diagnostic about the line being filtered (NUL-terminated). */
	void (*report)(void *ctx, enum fb_level level, const char *msg);
	void *ctx;
};

struct fb_filter;

struct fb_protocol {
	const char *name;
	/* What starts a GUI's in-band message to its user, ending in a blank:
	 * "info string " (UCI), "tellusererror " (XBoard). */
	const char *user_message;
	/* Filter one whole line (text[0..len), terminator text[len..len+term))
	 * from the GUI to the engine, or from the engine to the GUI. */
	void (*gui_line)(struct fb_filter *f, const char *text, size_t len,
			 size_t term, const struct fb_sink *out);
	void (*engine_line)(struct fb_filter *f, const char *text, size_t len,
			    size_t term, const struct fb_sink *out);
};

struct fb_filter {
	const struct fb_protocol *proto; /* NULL until the GUI's first command */
	enum fb_notation engine_fen;     /* dialect of FENs sent to the engine */
	enum fb_notation gui_fen;        /* dialect of FENs sent to the GUI */
	/* XBoard: the current variant and whether fenbridge knows its
	 * castling; 'new' resets it to normal chess. */
	char variant[32];
	bool variant_known;
	char variant_prefix; /* X-FEN castling prefix of the variant, or 0 */
	bool gui_quit;       /* the GUI sent quit */
	unsigned long rewrites;
};

/* The protocols fenbridge speaks, looked up by name ("uci", "xboard"). */
extern const struct fb_protocol fb_protocol_uci;
extern const struct fb_protocol fb_protocol_xboard;

/* Returns the protocol called name, or NULL. */
const struct fb_protocol *
fb_protocol_find(const char *name);

/*
 * Sets up a filter. proto may be NULL: the GUI's first command then decides
 * (`uci` -> UCI; `xboard` or `protover` -> XBoard).
 */
void
fb_filter_init(struct fb_filter *f, const struct fb_protocol *proto,
	       enum fb_notation engine_fen, enum fb_notation gui_fen);

/*
 * Filters one line from the framer (see line.h for text, len, term, flags)
 * coming from the GUI or from the engine, emitting it through out. Raw and
 * continuation pieces pass unchanged.
 */
void
fb_filter_gui_line(struct fb_filter *f, const char *text, size_t len,
		   size_t term, unsigned flags, const struct fb_sink *out);
void
fb_filter_engine_line(struct fb_filter *f, const char *text, size_t len,
		      size_t term, unsigned flags, const struct fb_sink *out);

/*
 * Helpers for protocol files. fb_filter_token() finds the next token at or
 * after *pos in text[0..len): returns its length (0 at the end) and sets
 * *start; *pos moves past it. Tokens are separated by spaces and tabs.
 */
size_t
fb_filter_token(const char *text, size_t len, size_t *pos, size_t *start);

/* True when the token text[start..start+n) equals word. */
bool
fb_filter_is(const char *text, size_t start, size_t n, const char *word);

/*
 * Emits the line with the FEN at text[b..e) translated to the given style,
 * or unchanged when it is malformed (with a report); what names the command
 * in reports ("position fen", "setboard").
 */
void
fb_filter_splice_fen(struct fb_filter *f, const char *text, size_t len,
		     size_t term, size_t b, size_t e,
		     const struct fb_fen_style *style, const char *what,
		     const struct fb_sink *out);

#endif
