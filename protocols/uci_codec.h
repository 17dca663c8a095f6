/* SPDX-License-Identifier: MIT */
/*
 * The UCI codec: each side of the protocol (UCI spec, April 2006) read once
 * into small events. A line is first classified by its first token, which
 * costs no split of the line (engines flood their GUI with `info`); the
 * parsers below then read the fields a pair needs, as spans of the line, so
 * that a rewrite splices them back byte for byte. No pair tokenizes a UCI
 * line itself.
 *
 * Pure code: no I/O, no allocation.
 */
#ifndef FB_UCI_CODEC_H
#define FB_UCI_CODEC_H

#include <stdbool.h>
#include <stddef.h>

#include "token.h"

/* ---- engine to GUI ---- */

enum fb_uci_engine {
	FB_UCI_E_OTHER,    /* no UCI command (a banner, an empty line) */
	FB_UCI_E_ID,       /* id name ... / id author ... */
	FB_UCI_E_OPTION,   /* option name ... type ... */
	FB_UCI_E_INFO,     /* info ... */
	FB_UCI_E_BESTMOVE, /* bestmove M [ponder P] */
	FB_UCI_E_UCIOK,
	FB_UCI_E_READYOK,
};

/* True when the token at text[at..] (the line's first) is word: what
 * fb_proto_token and fb_proto_is would say, without splitting the line. */
static inline bool
fb_uci_first_is(const char *text, size_t len, size_t at, const char *word)
{
	size_t k = __builtin_strlen(word);

	return len - at >= k && __builtin_memcmp(text + at, word, k) == 0 &&
	       (len - at == k || fb_token_blank(text[at + k]));
}

/* The kind of an engine line from its first token; *start is where that
 * token begins (after leading blanks). Inline: it runs for every line of
 * an engine's flood of info, and a call costs as much as the test. */
static inline __attribute__((always_inline)) enum fb_uci_engine
fb_uci_engine_kind(const char *text, size_t len, size_t *start)
{
	size_t i = 0;

	while (i < len && fb_token_blank(text[i]))
		i++;
	*start = i;
	if (fb_uci_first_is(text, len, i, "info"))
		return FB_UCI_E_INFO; /* the most of any engine's lines */
	if (i == len)
		return FB_UCI_E_OTHER;
	switch (text[i]) {
	case 'i':
		if (fb_uci_first_is(text, len, i, "id"))
			return FB_UCI_E_ID;
		break;
	case 'b':
		if (fb_uci_first_is(text, len, i, "bestmove"))
			return FB_UCI_E_BESTMOVE;
		break;
	case 'o':
		if (fb_uci_first_is(text, len, i, "option"))
			return FB_UCI_E_OPTION;
		break;
	case 'u':
		if (fb_uci_first_is(text, len, i, "uciok"))
			return FB_UCI_E_UCIOK;
		break;
	case 'r':
		if (fb_uci_first_is(text, len, i, "readyok"))
			return FB_UCI_E_READYOK;
		break;
	}
	return FB_UCI_E_OTHER;
}

struct fb_uci_id {
	bool name; /* id name (else id author, or neither) */
	bool author;
	struct fb_span value; /* to the end of the line, blanks trimmed */
};

/* `id name X` / `id author X`: returns 0, or -1 when it is neither. */
int
fb_uci_parse_id(const char *text, size_t len, struct fb_uci_id *id);

enum fb_uci_type {
	FB_UCI_T_UNKNOWN,
	FB_UCI_T_CHECK,
	FB_UCI_T_SPIN,
	FB_UCI_T_COMBO,
	FB_UCI_T_BUTTON,
	FB_UCI_T_STRING,
};

#define FB_UCI_VARS_MAX 64

struct fb_uci_option {
	struct fb_span name; /* its words up to `type` */
	enum fb_uci_type type;
	struct fb_span type_word;
	struct fb_span def, min, max; /* each value's words up to a keyword */
	struct fb_span vars; /* from the first `var` to the end: the list */
	size_t nvars;        /* all of them; the first FB_UCI_VARS_MAX: */
	struct fb_span var[FB_UCI_VARS_MAX];
	bool has_default; /* `default` was there (an empty string's
				  value may be empty) */
};

/* `option name N type T [default D] [min A] [max B] [var V]...`: returns
 * 0, or -1 when there is no name or no type (the option is malformed;
 * without a type, o->name still holds every word after `name`). */
int
fb_uci_parse_option(const char *text, size_t len, struct fb_uci_option *o);

/* The values of an option's `var` fields one at a time, all of them (a
 * list longer than FB_UCI_VARS_MAX too): start *pos at o->vars.off of a
 * parsed option with nvars > 0. Returns false after the last. */
bool
fb_uci_option_next_var(const char *text, size_t len, size_t *pos,
		       struct fb_span *v);

/* Fields of an info line that carry moves. */
enum fb_uci_moves {
	FB_UCI_PV,
	FB_UCI_CURRMOVE,
	FB_UCI_REFUTATION,
	FB_UCI_CURRLINE,
	FB_UCI_NMOVES,
};

enum fb_uci_info_have {
	FB_INFO_DEPTH = 1,
	FB_INFO_SCORE = 2,
	FB_INFO_TIME = 4,
	FB_INFO_NODES = 8,
	FB_INFO_STRING = 16,
	FB_INFO_PV = 32, /* the pv keyword, maybe with no move after it */
	FB_INFO_MULTIPV = 64,
};

/* What an info line gets wrong (for the referee). */
enum fb_uci_info_bad {
	FB_INFO_BAD_NUMBER = 1, /* depth, score, time or nodes: no integer */
	FB_INFO_BAD_SCORE = 2,  /* score without cp or mate */
};

struct fb_uci_info {
	unsigned have; /* enum fb_uci_info_have bits */
	unsigned bad;  /* enum fb_uci_info_bad bits */
	long long depth, time, nodes;
	long long score; /* centipawns, or moves to mate with mate */
	bool mate;
	/* The token after score: cp, mate, or (an engine's mistake) the
	 * number itself; len 0 without one. */
	struct fb_span score_word;
	/* The moves after pv, currmove, refutation, currline (after its
	 * optional cpu number): the tokens up to the next keyword; with no
	 * token, an empty span right after the keyword. */
	struct fb_span moves[FB_UCI_NMOVES];
	struct fb_span string; /* info string: the text to the end */
};

/* Reads an info line (one pass). Numbers that are not numbers read as 0;
 * they are clamped to +-10^15. */
void
fb_uci_parse_info(const char *text, size_t len, struct fb_uci_info *in);

struct fb_uci_bestmove {
	struct fb_span move, ponder; /* ponder.len 0: none */
};

/* `bestmove M [ponder P]`: returns 0, or -1 without a move. */
int
fb_uci_parse_bestmove(const char *text, size_t len, struct fb_uci_bestmove *b);

/* ---- GUI to engine ---- */

enum fb_uci_gui {
	FB_UCI_G_OTHER,
	FB_UCI_G_UCI,
	FB_UCI_G_DEBUG,
	FB_UCI_G_ISREADY,
	FB_UCI_G_SETOPTION,
	FB_UCI_G_REGISTER,
	FB_UCI_G_UCINEWGAME,
	FB_UCI_G_POSITION,
	FB_UCI_G_GO,
	FB_UCI_G_STOP,
	FB_UCI_G_PONDERHIT,
	FB_UCI_G_QUIT,
};

enum fb_uci_gui
fb_uci_gui_kind(const char *text, size_t len, size_t *start);

struct fb_uci_setoption {
	struct fb_span name;  /* its words up to `value` */
	struct fb_span value; /* to the end, blanks trimmed; len 0: none */
	bool has_value;
};

/* `setoption name N [value V]`: returns 0, or -1 without a name. */
int
fb_uci_parse_setoption(const char *text, size_t len,
		       struct fb_uci_setoption *s);

struct fb_uci_position {
	bool startpos;
	struct fb_span fen; /* the FEN's tokens (fen), blanks inside kept */
	size_t base_end;    /* end of `startpos` / the FEN's last token */
	bool has_moves;     /* the `moves` keyword is there */
	size_t moves;       /* right after `moves` (or base_end) */
	bool fen_keyword;   /* its second token is `fen` (set on -1 too) */
};

/* `position startpos|fen FEN [moves M...]`: returns 0, or -1 when it is
 * neither (or fen has no FEN: then fen_keyword tells the two apart). */
int
fb_uci_parse_position(const char *text, size_t len, struct fb_uci_position *p);

struct fb_uci_go {
	/* -1: not given (wtime, btime, movetime, depth, nodes, mate);
	 * 0 for winc, binc, movestogo */
	long long wtime, btime, winc, binc, movestogo, movetime, depth, nodes,
		mate;
	bool infinite, ponder;
	struct fb_span searchmoves; /* the tokens after it, to a keyword */
	/* Where a rewrite splices (len 0: absent; the last when repeated):
	 * the token ponder, and the numbers of wtime, btime, movetime. */
	struct fb_span ponder_word, wtime_value, btime_value, movetime_value;
};

/* Reads a go line; unknown tokens are skipped; numbers are clamped to
 * +-10^12 (a trillion ms is 31 years). */
void
fb_uci_parse_go(const char *text, size_t len, struct fb_uci_go *g);

#endif
