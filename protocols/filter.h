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
#ifndef FB_FILTER_H
#define FB_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "fenbridge/fen.h"
#include "fenbridge/game.h"

enum fb_level { FB_LOG_DEBUG, FB_LOG_INFO, FB_LOG_WARN, FB_LOG_ERROR };

/* What a filter tells the bridge besides bytes and diagnostics. */
enum fb_event {
	FB_EVENT_GUI_QUIT, /* the GUI sent quit: no more commands follow */
	/* The engine died before the session was decided (on the probe):
	 * start it again, then call fb_filter_engine_started. */
	FB_EVENT_RESTART,
	/* After fb_filter_gui_eof: everything the GUI sent has reached the
	 * engine, translated with the engine's real answers, and the engine
	 * owes the GUI nothing fenbridge waits for (a translating pair's
	 * search has ended in its move): the engine may be told to quit. */
	FB_EVENT_GUI_DONE,
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
	/* The engine's own bytes, held by the filter, toward the GUI while
	 * another line is filtered (the engine's banner given to the GUI
	 * from a GUI line or a timeout): in order, as they came, not lines
	 * of fenbridge's own. May be NULL: to_gui then. */
	void (*pass)(void *ctx, const char *data, size_t len);
	/* A diagnostic about the line being filtered (NUL-terminated). */
	void (*report)(void *ctx, enum fb_level level, const char *msg);
	/* An event of the session (may be NULL). */
	void (*event)(void *ctx, enum fb_event ev);
	/* Asks for one call of fb_filter_timeout after ms milliseconds,
	 * replacing any earlier request; 0 cancels it. A filter has one
	 * timer. May be NULL: then nothing waits for time (unit tests call
	 * fb_filter_timeout themselves). The time is a deadline for the
	 * engine's answer: the daemon extends it while the engine is slow,
	 * not silent (src/daemon/wait.h). */
	void (*timer)(void *ctx, unsigned ms);
	/* The same for a time on the GUI's clock (a move's time), which no
	 * busy machine extends. May be NULL: timer then. */
	void (*deadline)(void *ctx, unsigned ms);
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

/* What a line of fenbridge's own to the GUI is (its prefix: struct
 * fb_protocol's note, warning, error). */
enum fb_say {
	FB_SAY_NOTE,    /* for the GUI's log only */
	FB_SAY_WARNING, /* for its user, who may go on */
	FB_SAY_ERROR,   /* for its user: something failed */
};

/* A protocol one side speaks. */
struct fb_protocol {
	const char *name;           /* "uci", "xboard" */
	const char *const *aliases; /* other names for --protocol, NULL-ended */
	/* What starts a line of fenbridge's own to the GUI, ending in a
	 * blank; the one home of in-band wording (session.h, fb_session_say).
	 * A note its user need not see: "info string " (UCI), "# " (XBoard:
	 * a comment, in XBoard's debug log only; telluser would open a
	 * dialog). A warning for its user, who may go on: "info string ",
	 * "telluser ". An error, something failed: "info string ",
	 * "tellusererror ". */
	const char *note, *warning, *error;
	/* True when a GUI's first command text[0..len) opens this protocol. */
	bool (*detect)(const char *text, size_t len);
	/* Writes to out (NUL-terminated) the answer to the GUI's first
	 * command when no engine can run, so that its user reads msg: what
	 * says briefly what failed. Returns the length, or FB_ENOSPC. */
	int (*failure)(char *out, size_t cap, const char *what,
		       const char *msg);

	/*
	 * Finding out an engine's protocol (--engine-protocol=auto). The
	 * GUI's own opening (its lines for which detect is true: `uci`;
	 * `xboard`, `protover`) goes to the engine as the first question.
	 * probe is the line that asks an engine for this protocol when the
	 * GUI speaks the other one and the engine has not answered (NULL:
	 * none; an engine silent to every question speaks this protocol).
	 * probe_answer says what an engine's line tells of this protocol,
	 * and refused whether it refuses one of its commands (`Error
	 * (unknown command): uci`, `Unknown command: 'xboard'`): such lines
	 * answer fenbridge's questions and are kept from the GUI.
	 */
	const char *probe;
	/* The line that opens the protocol (`xboard`): sent again to an
	 * engine of both protocols that the other's probe switched. */
	const char *opening;
	enum fb_probe_answer (*probe_answer)(const char *text, size_t len);
	bool (*refused)(const char *text, size_t len);
	/* A GUI that waits a limited time for the engine's answer to one of
	 * its lines (waits: XBoard's protover, 2 s for the features) is sent
	 * hold when the answer is late (feature done=0), and release when
	 * the engine, speaking this protocol, does not end that wait itself
	 * (feature done=1); released tells an engine line that ends it.
	 * NULL when the GUI needs nothing. */
	bool (*waits)(const char *text, size_t len);
	const char *hold;
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
	/* The time asked for through the sink's timer ran out; out is the
	 * sink. May be NULL for a pair that never asks. */
	void (*timeout)(void *state, const struct fb_sink *out);
	/* True while the GUI's next lines must wait for the engine: its
	 * answer to the handshake says what they mean (UCI: the options,
	 * until uciok). The filter holds them meanwhile, FB_HOLD_MS at
	 * most, and gives them to the pair in order. May be NULL. */
	bool (*waiting)(const void *state);
	/* The GUI's input has ended and every line of it was given to the
	 * pair: it ends what would never end on its own (a translated
	 * infinite analysis: as stop). Called once; may be NULL. */
	void (*gui_eof)(void *state, const struct fb_sink *out);
	/* True while the engine owes the GUI an answer the pair translates
	 * (its handshake, a pong, a search's move): after the GUI's EOF the
	 * session waits for it. NULL: never (a same-protocol pair, whose
	 * engine gets the EOF as it would alone). */
	bool (*busy)(const void *state);
};

struct fb_filter_options {
	const struct fb_protocol *proto; /* NULL: decided by the GUI */
	/* The engine's protocol; NULL: the GUI's. With engine_probe it is
	 * found out instead (see fb_filter_init). */
	const struct fb_protocol *engine_proto;
	bool engine_probe;
	enum fb_notation engine_fen; /* dialect of FENs sent to the engine */
	/* engine_fen is only the default: the engine's entry in the quirk
	 * table may choose another (--engine-fen=auto). */
	bool engine_fen_auto;
	enum fb_notation gui_fen; /* dialect of FENs sent to the GUI */
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
	/* --normalize: a UCI engine's output tidied for a UCI GUI
	 * (normalize.h). */
	bool normalize;
};

/* How far finding out the engine's protocol has got (engine_probe). */
enum fb_probe {
	FB_PROBE_OFF,       /* no probe: the pair is chosen at the start */
	FB_PROBE_ASKING,    /* the GUI's opening went to the engine (and,
			       late, the other protocol's probe) */
	FB_PROBE_ANSWERING, /* the engine answers that second probe */
	FB_PROBE_CHOSEN,    /* decided from an engine line: the GUI's held
			       lines go on at the next timeout */
	FB_PROBE_RESTART,   /* the engine died on the probe: it is started
			       again to speak the chosen protocol */
	FB_PROBE_DONE,      /* the pair is chosen */
};

/* GUI lines kept by the filter: a header (struct in filter.c), then the
 * bytes, one after another. */
struct fb_held {
	char *p;
	size_t len, cap;
};

struct fb_filter {
	struct fb_filter_options opt;
	const struct fb_protocol *gui; /* NULL until the GUI's first command */
	const struct fb_pair *pair;    /* NULL until the pair is chosen */
	void *state;                   /* the pair's, or NULL */
	bool gui_quit;                 /* the GUI sent quit */
	enum fb_probe probe;
	/* The second probe went out (the other protocol's), and when. */
	const struct fb_protocol *asked;
	/* Chosen from the engine's answer; decided on the next timeout (the
	 * held lines need the GUI-to-engine sink). */
	const struct fb_protocol *chosen;
	const char *why;
	/* The GUI's lines since its opening: held[0..done) went to the
	 * pair; the rest wait (for the probe or for the pair). Kept whole
	 * while the engine may still be started again (journal). */
	struct fb_held held;
	size_t done;
	size_t opening_end; /* held[0..opening_end): the GUI's opening */
	bool journal;
	bool late_ok; /* chosen by silence: a late answer in kind undoes it */
	/* The engine's lines before the probe is decided (a banner): the
	 * GUI gets them if the engine speaks its protocol, or if it exits
	 * before the GUI's first line (then early_pass: they pass). */
	struct fb_held early;
	bool early_pass;
	/* The engine's answer to the probe (`id` .. `uciok`), kept whole
	 * (answer_end: its last line is there; answer_lost: it did not fit)
	 * for the translating pair: its own question is answered from it,
	 * so the engine is asked once. */
	struct fb_held answer;
	bool answer_end, answer_lost;
	/* Refusals of fenbridge's questions still to drop (refusing: of
	 * its protocol), and how many more engine lines may carry one;
	 * refusals_due: lines of the GUI's opening not refused yet. */
	const struct fb_protocol *refusing;
	unsigned refusals, refusal_lines, refusals_due;
	bool confirmed; /* the engine has answered the chosen pair */
	bool restarted; /* the engine was started again once */
	bool replay;    /* held lines go on at the next timeout */
	bool waited;    /* the pair's wait ran out: no more waiting */
	bool held_gui;  /* the GUI was told to wait (fb_protocol.hold) */
	bool gui_waits; /* the GUI sent a line it waits on (fb_protocol.waits) */
	bool timing;    /* the filter's own timer runs (not the pair's) */
	bool gui_eof;   /* the GUI's input ended (fb_filter_gui_eof) */
	bool eof_given; /* and the pair was told (fb_pair.gui_eof) */
	bool gui_done;  /* FB_EVENT_GUI_DONE was emitted */
	bool watch;     /* engine lines need more than the pair (any of the
			   above): one test on the hot path */
};

/* The protocols fenbridge speaks. */
extern const struct fb_protocol fb_protocol_uci;
extern const struct fb_protocol fb_protocol_xboard;

/* Returns the protocol called name (or an alias: "cecp", "winboard"), or
 * NULL. */
const struct fb_protocol *
fb_protocol_find(const char *name);

/* The prefix of a line of fenbridge's own of level in protocol p. */
const char *
fb_protocol_prefix(const struct fb_protocol *p, enum fb_say level);

/* The protocol of the two that is not p. */
const struct fb_protocol *
fb_protocol_other(const struct fb_protocol *p);

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
 * With opt->engine_probe the engine's protocol is found out from its
 * answer to the GUI's own opening, which goes to it unchanged: an answer
 * in the GUI's protocol (`id`, `option`, `uciok`; `feature`) flows on to
 * the GUI, and the session is the GUI's protocol on both sides. A refusal
 * (`Error (unknown command): uci`, `Unknown command: 'xboard'`) chooses
 * the other protocol. A UCI engine may ignore `xboard`: after
 * FB_PROBE_OTHER_MS of silence it is asked `uci` (the XBoard GUI is told
 * feature done=0, so it waits); an answer chooses UCI. An engine silent
 * for FB_PROBE_MS in all speaks XBoard. Meanwhile the GUI's other lines
 * are held; the chosen pair gets them in order, the opening too when it
 * translates (answers to fenbridge's questions are then dropped).
 */
#define FB_PROBE_OTHER_MS 1000
#define FB_PROBE_MS 3000
/* The longest wait of the GUI's lines for a pair (fb_pair.waiting). */
#define FB_HOLD_MS 5000
/* The most the GUI's lines held until the engine's handshake ends may
 * take, wherever they wait: while the engine is probed, for a pair
 * (fb_pair.waiting), and inside the translating pairs (for uciok, for
 * feature done=1). A GUI sends a few commands and waits, so this is
 * generous; more ends the wait. The engine's early lines while it is
 * probed have the same bound. */
#define FB_HOLD_MAX (64 * 1024)

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

/* The time asked for through the sink's timer ran out: out is the
 * sink (its directions are absolute). */
void
fb_filter_timeout(struct fb_filter *f, const struct fb_sink *out);

/* The GUI's protocol, or NULL before its first command told it. */
const struct fb_protocol *
fb_filter_protocol(const struct fb_filter *f);

/*
 * The GUI's input ended: everything it sent is delivered as if it had
 * stayed. The probe and the pair's waits go on with the engine's real
 * answers (uciok, feature done=1), the held lines follow, and a pair that
 * translates waits for what its engine owes the GUI (fb_pair.busy); then
 * the filter emits FB_EVENT_GUI_DONE (at once when nothing waits).
 */
void
fb_filter_gui_eof(struct fb_filter *f, const struct fb_sink *out);

/* The GUI is gone (its output broke), or its EOF waited too long: what
 * the filter holds of its lines goes to the engine now, before the quit
 * the bridge sends. */
void
fb_filter_gui_gone(struct fb_filter *f, const struct fb_sink *out);

/*
 * The engine exited or died while the session runs. When that was before
 * the probe was decided (an engine that dies of a command it does not
 * know), and for the first time, the filter emits FB_EVENT_RESTART and
 * chooses the protocol the probe did not ask last; the bridge starts the
 * engine again and calls fb_filter_engine_started with the GUI-to-engine
 * sink, which gives the new engine the GUI's lines so far. Otherwise it
 * does nothing.
 */
void
fb_filter_engine_exit(struct fb_filter *f, const struct fb_sink *out);
/* The engine ended of a cause that answers nothing (an illegal
 * instruction, a signal from outside: the daemon's cause.c decides): as
 * fb_filter_engine_exit, but it is not started again. */
void
fb_filter_engine_gone(struct fb_filter *f, const struct fb_sink *out);
void
fb_filter_engine_started(struct fb_filter *f, const struct fb_sink *out);

/* True while the engine's protocol is not yet known for sure: asked, or
 * chosen but not yet answered (engine_probe). */
bool
fb_filter_probing(const struct fb_filter *f);

/* True while the GUI's lines are held (the probe, or a pair's wait): a
 * line given now may come out later. */
bool
fb_filter_holding(const struct fb_filter *f);

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
