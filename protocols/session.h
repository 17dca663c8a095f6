/* SPDX-License-Identifier: MIT */
/*
 * Protocol filters: one whole line in, the same line or its rewrite out.
 *
 * A session has a GUI side and an engine side, each speaking a protocol
 * (struct fb_protocol: UCI, XBoard). A pair of them (struct fb_pair) owns
 * the state of the session: the game, the Chess960 mode, what each side
 * declared. protocols/protocols.c lists the protocols and the pairs; each
 * pair lives in its own file under protocols/ (uci.c: UCI GUI with a UCI
 * engine; xboard.c: XBoard with XBoard). A new pair is one file and one
 * table entry.
 *
 * A filter sees every line of both directions. It emits each line once,
 * through the sink, byte for byte as it came or with a FEN or a castling
 * move rewritten. The few exceptions are documented where they happen (a
 * swallowed `setoption name UCI_Chess960` for an engine without it, an
 * injected `option` or `setoption` line, a position re-anchored for an
 * engine that cannot read a castle) and reported.
 *
 * Pure code: no I/O. The bridge owns the sink and decides what to do with
 * the bytes, the reports and the events.
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

/* The longest line a filter makes up itself (a reply, an injected line,
 * a translated one), with its "\n"; longer ones are cut. */
#define FB_OWN_LINE_MAX 1023

struct fb_sink {
	/* Bytes toward the GUI and toward the engine, in order; borrowed for
	 * the call only. The line being filtered goes on toward its peer, as
	 * it came or rewritten, maybe in pieces; a line of fenbridge's own
	 * (an `info string` to the GUI, a resent move to the engine) goes
	 * whole, ended by "\n", in either direction. */
	void (*to_gui)(void *ctx, const char *data, size_t len);
	void (*to_engine)(void *ctx, const char *data, size_t len);
	/* A diagnostic about the line being filtered (NUL-terminated). */
	void (*report)(void *ctx, enum fb_level level, const char *msg);
	/* An event of the session (may be NULL). */
	void (*event)(void *ctx, enum fb_event ev);
	/* Asks for one call of fb_filter_timeout after ms milliseconds,
	 * replacing any earlier request; 0 cancels it. A filter has one
	 * timer. May be NULL: then nothing waits for time (unit tests call
	 * fb_filter_timeout themselves). */
	void (*timer)(void *ctx, unsigned ms);
	void *ctx;
	/* Reports below this level are not even formatted. */
	enum fb_level min_level;
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

/* What an engine's line says to a probe (struct fb_protocol). */
enum fb_probe_answer {
	FB_ANSWER_UNKNOWN, /* nothing: wait on */
	FB_ANSWER_YES,     /* it speaks the protocol; its answer goes on */
	FB_ANSWER_END,     /* it speaks it, and its answer is complete */
	FB_ANSWER_NO,      /* it speaks another protocol */
};

/* A protocol one side speaks. */
struct fb_protocol {
	const char *name;             /* "uci", "xboard" */
	const char *const *aliases;   /* other names for --protocol, NULL-ended */
	/* What starts a message to the GUI's user, ending in a blank:
	 * "info string " (UCI), "tellusererror " (XBoard). */
	const char *user_message;
	/* True when a GUI's first command text[0..len) opens this protocol. */
	bool (*detect)(const char *text, size_t len);
	/* Writes to out (NUL-terminated) the answer to the GUI's first
	 * command when no engine can run, so that its user reads msg: what
	 * says briefly what failed. Returns the length, or FB_ENOSPC. */
	int (*failure)(char *out, size_t cap, const char *what,
		       const char *msg);

	/* Finding out an engine's protocol (--engine-protocol=auto). The
	 * line that asks an engine whether it speaks this protocol (NULL:
	 * none; this is the protocol of an engine that does not answer),
	 * and what an engine's line says to it: */
	const char *probe;
	enum fb_probe_answer (*probe_answer)(const char *text, size_t len);
	/* Meanwhile the GUI waits. hold replies to a GUI line what keeps
	 * the GUI waiting, if it needs anything (XBoard: feature done=0 to
	 * protover), and returns true when it did; release is the line
	 * that ends the wait when the engine, speaking this protocol, does
	 * not (feature done=1), and released tells an engine line that
	 * ends it itself. NULL when the GUI needs nothing. */
	bool (*hold)(const char *text, size_t len, const struct fb_sink *out);
	const char *release;
	bool (*released)(const char *text, size_t len);
};

struct fb_filter_options;

/*
 * A session of a GUI speaking one protocol with an engine speaking one:
 * the pair's state is created and freed here and passed to its handlers.
 */
struct fb_pair {
	const struct fb_protocol *gui, *engine;
	/* Returns the state, or NULL when out of memory (lines then pass
	 * unchanged). opt is borrowed for the state's life. */
	void *(*state_new)(const struct fb_filter_options *opt);
	void (*state_free)(void *state);
	/* One whole line (text[0..len), terminator text[len..len+term)) from
	 * the GUI to the engine, or from the engine to the GUI. */
	void (*gui_line)(void *state, const char *text, size_t len, size_t term,
			 const struct fb_sink *out);
	void (*engine_line)(void *state, const char *text, size_t len,
			    size_t term, const struct fb_sink *out);
	/* The game as the engine sees it, or NULL when not followed. */
	const struct fb_game *(*game)(const void *state);
	/* The variant in play ("normal", "fischerandom", ...). */
	const char *(*variant)(const void *state);
	/* The time asked for through the sink's timer ran out. May be NULL
	 * for a pair that never asks. */
	void (*timeout)(void *state, const struct fb_sink *out);
};

struct fb_filter_options {
	const struct fb_protocol *proto; /* NULL: decided by the GUI */
	/* The engine's protocol; NULL: the GUI's. With engine_probe it is
	 * found out instead (see fb_filter_init). */
	const struct fb_protocol *engine_proto;
	bool engine_probe;
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
	/* For tests: no UCI position cache (it is an optimisation only; the
	 * fuzzer checks that a filter without it sends the same bytes). */
	bool no_position_cache;
};

/* How far finding out the engine's protocol has got (engine_probe). */
enum fb_probe {
	FB_PROBE_OFF,     /* no probe: the pair is chosen at the start */
	FB_PROBE_ASKING,  /* `uci` sent; the GUI's lines wait */
	FB_PROBE_ANSWERING, /* the engine answers: waiting for the end */
	FB_PROBE_DONE,    /* the pair is chosen */
};

struct fb_filter {
	struct fb_filter_options opt;
	const struct fb_protocol *gui; /* NULL until the GUI's first command */
	const struct fb_pair *pair; /* NULL until the pair is chosen */
	void *state;                /* the pair's, or NULL */
	bool gui_quit;              /* the GUI sent quit */
	/* While probing: the GUI's lines, replayed to the chosen pair. */
	enum fb_probe probe;
	/* Chosen from the engine's answer; decided on the next timeout (the
	 * held lines need the GUI-to-engine sink). */
	const struct fb_protocol *chosen;
	const char *why;
	char *held;
	size_t held_len, held_cap;
	bool held_oom;
	bool held_gui; /* the GUI was told to wait (fb_protocol.hold) */
	bool timing;   /* the filter's own timer runs (not the pair's) */
};

/* The protocols fenbridge speaks. */
extern const struct fb_protocol fb_protocol_uci;
extern const struct fb_protocol fb_protocol_xboard;

/* Returns the protocol called name (or an alias: "cecp", "winboard"), or
 * NULL. */
const struct fb_protocol *
fb_protocol_find(const char *name);

/* Returns the protocol whose GUI opens with this first command, or NULL. */
const struct fb_protocol *
fb_protocol_detect(const char *text, size_t len);

/* Returns the pair for a GUI speaking gui and an engine speaking engine,
 * or NULL when fenbridge cannot translate between them. */
const struct fb_pair *
fb_pair_find(const struct fb_protocol *gui, const struct fb_protocol *engine);

/*
 * Sets up a filter. opt->proto may be NULL: the GUI's first command then
 * decides (`uci` -> UCI; `xboard` or `protover` -> XBoard). opt is copied;
 * what it points to is borrowed for the filter's life.
 *
 * With opt->engine_probe the engine's protocol is found out once the GUI's
 * is known: the filter sends `uci`; an engine that answers `id` or `uciok`
 * speaks UCI (its answers are dropped and the session starts over with the
 * GUI's lines, which wait meanwhile); one that answers with an XBoard error
 * or nothing within FB_PROBE_MS speaks XBoard.
 */
#define FB_PROBE_MS 3000

void
fb_filter_init(struct fb_filter *f, const struct fb_filter_options *opt);

/* Frees the pair's state. */
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

/* The time asked for through the sink's timer ran out. */
void
fb_filter_timeout(struct fb_filter *f, const struct fb_sink *out);

/* The GUI's protocol, or NULL before its first command told it. */
const struct fb_protocol *
fb_filter_protocol(const struct fb_filter *f);

/* True while the engine is asked for its protocol (engine_probe). */
bool
fb_filter_probing(const struct fb_filter *f);

/* The engine's protocol, or NULL before it is known. */
const struct fb_protocol *
fb_filter_engine_protocol(const struct fb_filter *f);

/* The game as the engine sees it, or NULL when it is not followed. */
const struct fb_game *
fb_filter_game(const struct fb_filter *f);

/* The variant in play, or "normal" before the protocol is known. */
const char *
fb_filter_variant(const struct fb_filter *f);

#endif
