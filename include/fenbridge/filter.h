/* SPDX-License-Identifier: MIT */
/*
 * Protocol filters: one whole line in, the same line or its rewrite out.
 *
 * A filter sees every line of both directions. It emits each line once,
 * through the sink, either byte for byte as it came or with a FEN or a
 * castling move rewritten. The few exceptions are documented where they
 * happen (a swallowed `setoption name UCI_Chess960` for an engine without
 * it, an injected `option` or `setoption` line) and reported. The state both
 * directions update (protocol, Chess960 mode, variant, the game each side
 * sees) is one struct.
 *
 * Each protocol (protocols/uci.c, protocols/xboard.c) exports one const
 * struct fb_protocol; protocols/protocols.c lists them.
 *
 * Pure code: no I/O. The bridge owns the sink and decides what to do with
 * the bytes and the reports.
 */
#ifndef FENBRIDGE_FILTER_H
#define FENBRIDGE_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "fenbridge/fen.h"
#include "fenbridge/game.h"

enum fb_level { FB_LOG_DEBUG, FB_LOG_INFO, FB_LOG_WARN, FB_LOG_ERROR };

/* What a filter tells the bridge besides bytes and diagnostics. */
enum fb_event {
	FB_EVENT_GUI_QUIT, /* the GUI sent quit: no more commands follow */
};

struct fb_sink {
	/* Bytes toward the peer, in order; borrowed for the call only. */
	void (*emit)(void *ctx, const char *data, size_t len);
	/* Whole lines back toward the sender of the line being filtered (an
	 * `info string` to the GUI about the GUI's own command). */
	void (*reply)(void *ctx, const char *data, size_t len);
	/* A diagnostic about the line being filtered (NUL-terminated). */
	void (*report)(void *ctx, enum fb_level level, const char *msg);
	/* An event of the session (may be NULL). */
	void (*event)(void *ctx, enum fb_event ev);
	void *ctx;
	/* Reports below this level are not even formatted. */
	enum fb_level min_level;
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

/* What the config says about one engine option. */
enum fb_option_flags {
	FB_OPT_SET = 1,    /* send it to the engine after the handshake */
	FB_OPT_FORCED = 2, /* and drop the GUI's own setting of it */
	FB_OPT_HIDDEN = 4, /* do not show it to the GUI */
};

struct fb_engine_option {
	const char *name;
	const char *value; /* NULL for a hidden option with no value */
	unsigned flags;
};

struct fb_filter_options {
	const struct fb_protocol *proto; /* NULL: decided by the GUI */
	enum fb_notation engine_fen;     /* dialect of FENs sent to the engine */
	/* engine_fen is only the default: the engine's entry in the quirk
	 * table may choose another (--engine-fen=auto). */
	bool engine_fen_auto;
	enum fb_notation gui_fen;        /* dialect of FENs sent to the GUI */
	enum fb_castle_notation gui_castling;
	enum fb_castle_notation engine_castling;
	/* From the config file: options to set, force or hide, and a name
	 * that replaces the engine's own (NULL: keep it). Borrowed. */
	const struct fb_engine_option *options;
	size_t noptions;
	const char *name;
};

struct fb_uci_position; /* protocols/uci.c: the last position line */

/* Frees a position cache (NULL is fine). */
void
fb_uci_position_free(struct fb_uci_position *p);

struct fb_filter {
	struct fb_filter_options opt;
	const struct fb_protocol *proto; /* NULL until the GUI's first command */
	bool gui_quit;                   /* the GUI sent quit */

	/* The game as the engine sees it after the GUI's last command. */
	struct fb_game game;
	bool game_known;

	/* UCI: Chess960 mode on both sides. */
	bool engine_has_960;  /* engine advertised option UCI_Chess960 */
	bool fake_960;        /* fenbridge advertised it on the engine's behalf */
	bool gui_960;         /* the GUI set UCI_Chess960 true */
	bool engine_960;      /* UCI_Chess960 is true in the engine */
	char uci_variant[32]; /* UCI_Variant as the GUI set it, or "" */
	char *engine_vars;    /* the engine's UCI_Variant `var` list, or NULL */
	struct fb_uci_position *uci_pos;
	/* Bumped whenever what a position line means to the engine changes
	 * (Chess960 mode, variant): the cached position is then not reused. */
	unsigned uci_epoch;

	/* XBoard: the variant, the engine's features, undo history. */
	char variant[32];
	bool variant_known;
	char variant_prefix; /* X-FEN castling prefix of the variant, or 0 */
	bool oocastle_off;   /* engine sent feature oocastle=0 */
	struct fb_game *history;
	size_t nhistory, history_cap;
};

/* The protocols fenbridge speaks, looked up by name ("uci", "xboard"). */
extern const struct fb_protocol fb_protocol_uci;
extern const struct fb_protocol fb_protocol_xboard;

/* Returns the protocol called name, or NULL. */
const struct fb_protocol *
fb_protocol_find(const char *name);

/*
 * Sets up a filter. opt->proto may be NULL: the GUI's first command then
 * decides (`uci` -> UCI; `xboard` or `protover` -> XBoard).
 */
void
fb_filter_init(struct fb_filter *f, const struct fb_filter_options *opt);

/* Frees what the filter allocated (position cache, XBoard history). */
void
fb_filter_free(struct fb_filter *f);

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

/* ---- helpers for protocol files ---- */

/*
 * Finds the next token at or after *pos in text[0..len): returns its length
 * (0 at the end) and sets *start; *pos moves past it. Tokens are separated
 * by spaces and tabs.
 */
size_t
fb_filter_token(const char *text, size_t len, size_t *pos, size_t *start);

/* True when the token text[start..start+n) equals word. Inline, so that
 * the length of a literal word is a constant: it runs for every token of
 * every engine line. */
static inline bool
fb_filter_is(const char *text, size_t start, size_t n, const char *word)
{
	size_t k = __builtin_strlen(word);
	return k == n && __builtin_memcmp(text + start, word, k) == 0;
}

/* The config's entry for the engine option name (any case), or NULL. */
const struct fb_engine_option *
fb_filter_option(const struct fb_filter *f, const char *name, size_t n);

/* Reports a formatted diagnostic through out. */
void
fb_filter_report(const struct fb_sink *out, enum fb_level level,
		 const char *fmt, ...) __attribute__((format(printf, 3, 4)));

struct fb_edit;

/*
 * Translates the FEN at text[b..e) to style into buf (cap bytes), parsing it
 * into *fen and reporting what is wrong, with what naming the command.
 * Returns 1 when the translation differs (then *edit replaces text[b..e)
 * with it, the text in buf, and the rewrite is reported), 0 when it is the
 * same, or -1 when the FEN is malformed or too long (it must then pass
 * unchanged; *fen is not usable).
 */
int
fb_filter_translate_fen(const char *text, size_t b, size_t e,
			const struct fb_fen_style *style, const char *what,
			const struct fb_sink *out, struct fb_fen *fen,
			char *buf, size_t cap, struct fb_edit *edit);

/*
 * Emits the line with the FEN at text[b..e) translated to style, or
 * unchanged when it is malformed (with a report). Returns true when the FEN
 * was understood (then *fen holds it, if fen is not NULL).
 */
bool
fb_filter_splice_fen(const char *text, size_t len, size_t term, size_t b,
		     size_t e, const struct fb_fen_style *style,
		     const char *what, const struct fb_sink *out,
		     struct fb_fen *fen);

/* A replacement of text[off..off+len) by the bytes text_out[0..tlen). */
struct fb_edit {
	size_t off, len;
	const char *text;
	size_t tlen;
};

/*
 * Reads the move token text[start..start+n) in g and plays it. When it
 * castles and notation `to` spells it differently, fills *edit (text in
 * pool) and sets edit->len > 0; otherwise edit->len is 0. A castling move
 * `to` cannot express is left as it is and reported at level (an engine's
 * info lines repeat it many times: debug there, a warning elsewhere). Returns 0, or
 * FB_EINVAL when the token is not a move (g unchanged).
 */
int
fb_filter_move(struct fb_game *g, const char *text, size_t start, size_t n,
	       enum fb_castle_notation to, struct fb_edit *edit,
	       char pool[static 8], const struct fb_sink *out,
	       const char *what, enum fb_level level);

/* Emits the line with the edits (in increasing offset order) applied. */
void
fb_filter_emit_edited(const char *text, size_t len, size_t term,
		      const struct fb_edit *edits, unsigned n,
		      const struct fb_sink *out);

/*
 * Queues a whole line toward the sender (reply) or the peer (emit), built
 * from a format, with the terminator "\n".
 */
void
fb_filter_reply(const struct fb_sink *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void
fb_filter_inject(const struct fb_sink *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
