/* SPDX-License-Identifier: MIT */
/*
 * Files of positions and games, streamed: PGN (every `[FEN "..."]` tag),
 * EPD (the position in an EPD line's first four fields) and bare FEN lines,
 * translated to one FEN dialect. Bytes go in by fb_pgn_push() in pieces of
 * any size; what comes out goes to an emit callback, and everything the
 * scanner does not deliberately rewrite comes out byte for byte (movetext,
 * comments, other tags, line ends, Latin-1 or UTF-8 text).
 *
 * Memory is fixed: the caller gives one buffer, which holds one PGN tag
 * section or one FEN/EPD line; longer ones pass through unchanged with a
 * diagnostic. Movetext is never buffered.
 *
 * Pure code: no I/O, no allocation. Diagnostics go to a callback.
 */
#ifndef FENBRIDGE_PGN_H
#define FENBRIDGE_PGN_H

#include <stdbool.h>
#include <stddef.h>

#include "fenbridge/fen.h"

struct fb_variant;

/* Auto-detection looks at most this far into the input. */
#define FB_PGN_DETECT_MAX 4096
/* A FEN tag value or FEN/EPD position longer than this is left unchanged. */
#define FB_PGN_FEN_MAX 1024
#define FB_PGN_MSG_MAX 192

enum fb_pgn_format {
	FB_PGN_AUTO, /* decide from the first non-blank content */
	FB_PGN_FEN,  /* one FEN per line */
	FB_PGN_EPD, /* one EPD record per line: 4 position fields, operations */
	FB_PGN_PGN, /* games with tag pairs and movetext */
};

/* Which PGN games to write (games are copied whole, tags and all). */
enum fb_pgn_select {
	FB_PGN_ALL,
	FB_PGN_CLASSICAL, /* games without a FEN tag (the seed's rule) */
	FB_PGN_SETUP,     /* games with a FEN tag */
	FB_PGN_CHESS960,  /* games whose FEN tag is one of the 960 starts */
};

/* What to do with the Variant tag of PGN games (--variant-tag). */
enum fb_pgn_variant_tag {
	/* Move a Variant tag that stands after the FEN tag before it, and
	 * add one to a game whose FEN needs Chess960 (or Capablanca Random)
	 * and has none (fb_pgn_needs_random). */
	FB_PGN_VARIANT_AUTO,
	FB_PGN_VARIANT_KEEP, /* Variant tags stay as they are; none added */
};

enum fb_pgn_kind {
	FB_PGN_NOTE,        /* for --verbose only: the format found, a variant
			     whose FENs pass unchanged */
	FB_PGN_FEN_ERROR,   /* a malformed FEN, left unchanged (code: FB_E*) */
	FB_PGN_FEN_DROP,    /* an impossible right, dropped (code: FB_W*) */
	FB_PGN_SETUP_ADDED, /* [SetUp "1"] added before a FEN tag */
	FB_PGN_BAD_TAG,     /* a tag line that does not parse, left unchanged */
	FB_PGN_TRUNCATED,   /* a game without its result, an open comment */
	FB_PGN_TOO_LONG, /* a tag section or line over the buffer, unchanged */
	FB_PGN_VARIANT_MOVED, /* the Variant tag moved before the FEN tag */
	FB_PGN_VARIANT_ADDED, /* [Variant "chess960"] or "caparandom" added */
	FB_PGN_VARIANT_LATE,  /* after the FEN tag but not movable: left */
};

struct fb_pgn_diag {
	enum fb_pgn_kind kind;
	int code;           /* FB_E* / FB_W* for FEN diagnostics, else 0 */
	unsigned long line; /* 1-based line of the input */
	unsigned long game; /* PGN: 1-based game number; 0: none */
	size_t column;      /* 1-based byte column in the line; 0: none */
	char msg[FB_PGN_MSG_MAX];
};

/* bytes[0..n) is output; borrowed for the call only. */
typedef void (*fb_pgn_emit_fn)(void *ctx, const char *bytes, size_t n);
/* d is borrowed for the call only. */
typedef void (*fb_pgn_diag_fn)(void *ctx, const struct fb_pgn_diag *d);

struct fb_pgn_stats {
	unsigned long games;   /* PGN games read */
	unsigned long written; /* PGN games written (after --select) */
	unsigned long fens;    /* FEN tags, EPD or FEN lines translated */
	unsigned long variants_moved, variants_added; /* Variant tags */
};

/* What a PGN tag section says, gathered line by line as the section comes
 * in; part of the scanner state. The lines that writing the section must
 * look at again (a FEN tag, a fault) are marked by offset and line index,
 * or all of them when there are more than FB_PGN_MARKS. */
#define FB_PGN_MARKS 16
struct fb_pgn_section {
	bool fen, setup, chess960, variant;
	size_t variant_at, variant_len;
	/* fen_good: a FEN tag that parses (write_line sees it too); the
	 * (last) Variant tag's line (the offset of its start); late: a Variant
	 * tag came after such a FEN tag; alone: the last one is the only tag
	 * of its line; variants: how many there are. */
	bool fen_good;
	unsigned variants;
	size_t variant_line;
	unsigned long variant_index; /* its line index in the section */
	bool late, alone;
	size_t mark[FB_PGN_MARKS];
	unsigned long mark_line[FB_PGN_MARKS];
	unsigned nmarks;
	bool all;
};

/* Scanner state: fill by fb_pgn_init, then treat as opaque. */
struct fb_pgn {
	enum fb_pgn_format format;
	enum fb_pgn_select select;
	enum fb_pgn_variant_tag variant_tag;
	struct fb_fen_style style;
	fb_pgn_emit_fn emit;
	fb_pgn_diag_fn diag;
	void *ctx;
	char *buf;
	size_t cap, len;
	struct fb_pgn_stats stats;

	int state, sub;
	unsigned long line, game, game_line, comment_line;
	bool keep;    /* the current game is written */
	bool raw;     /* over the buffer: passing bytes as they come */
	bool started; /* a byte other than a byte-order mark was seen */
	bool last_nl; /* the last byte pushed was '\n' */
	unsigned char bom;
	size_t line_start;         /* buffer offset of the current tag line */
	struct fb_pgn_section sec; /* of the tag section in buf */
	/* The last Variant tag value looked up and its variant (NULL: not in
	 * the table): a file rarely mixes variants. */
	bool variant_known;
	char variant_name[24];
	size_t variant_len;
	const struct fb_variant *variant;
	/* The last movetext token of the game (its last 8 bytes, its length):
	 * a game ends with its result. */
	char tail[8];
	size_t tail_len;
	bool tail_open; /* the token may continue in the next piece */
	char det[FB_PGN_DETECT_MAX];
	size_t ndet;
	char out[FB_PGN_FEN_MAX + FB_FEN_GROWTH];
};

/*
 * Prepares p to translate a file of the given format (FB_PGN_AUTO decides
 * at the first non-blank line and says so in an FB_PGN_NOTE) to style,
 * writing the games select picks (PGN only), their Variant tags as
 * variant_tag says. buf[0..cap) is the scanner's
 * working memory, borrowed until the last call on p; a tag section or a
 * FEN/EPD line longer than cap passes through unchanged with an
 * FB_PGN_TOO_LONG diagnostic (cap of 64 KiB or more is sensible). emit and
 * diag are called with ctx during fb_pgn_push and fb_pgn_finish.
 */
void
fb_pgn_init(struct fb_pgn *p, enum fb_pgn_format format,
	    enum fb_pgn_select select, enum fb_pgn_variant_tag variant_tag,
	    const struct fb_fen_style *style, char *buf, size_t cap,
	    fb_pgn_emit_fn emit, fb_pgn_diag_fn diag, void *ctx);

/* Scans the next n bytes of the input; any n, any split. */
void
fb_pgn_push(struct fb_pgn *p, const char *data, size_t n);

/*
 * Ends the input: writes what is still held (a last line without its end,
 * a last tag section) and reports a truncated last game or an unclosed
 * comment. p may then be initialised again.
 */
void
fb_pgn_finish(struct fb_pgn *p);

/*
 * The format of a file that starts with s[0..n) (a byte-order mark, blank
 * lines and blanks skipped): PGN when the first content is a tag, a comment
 * or a word without '/'; EPD when its first line has a fifth field that is
 * not a number, or more than six fields; otherwise FEN.
 */
enum fb_pgn_format
fb_pgn_detect(const char *s, size_t n);

/* "fen", "epd", "pgn", "auto". */
const char *
fb_pgn_format_name(enum fb_pgn_format f);

/*
 * Whether a parsed FEN is one of the 960 Chess960 starts (the standard one
 * included) with White to move; castling rights and counters not looked at.
 */
bool
fb_pgn_is_chess960_start(const struct fb_fen *fen);

/*
 * The random variant a parsed FEN without a Variant tag needs, or NULL.
 * 8x8: Chess960 when a castling right (impossible ones already dropped)
 * has its king off the e-file or its rook off the corner, which standard
 * chess cannot express, or when the position is one of the 959 Chess960
 * starts other than the standard one. 10x8 (Capablanca's pieces: no
 * Janus 'J'), without an X-FEN prefix: Capablanca Random when a right has
 * its king off the f-file or its rook off the corner. *why (why may be
 * NULL) then says which reason holds, for a diagnostic.
 */
const struct fb_variant *
fb_pgn_needs_random(const struct fb_fen *fen, const char **why);

#endif
