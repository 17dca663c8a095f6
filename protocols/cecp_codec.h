/* SPDX-License-Identifier: MIT */
/*
 * The CECP codec ("Chess Engine Communication Protocol", T. Mann, H.G.
 * Muller): each side read once into small events, as spans of the line.
 * The engine side knows every form engines really write: a move as `move
 * M`, `My move is: M` or the old `N. ... M`, a line behind GNU Chess's
 * prompt (`White (1) : feature done=0`), thinking output with extra fields
 * after a tab, results and resignation, `Error` and `Illegal move` with
 * what they reject, the tell* messages, and `feature` lines one key=value
 * at a time (quoted or not).
 *
 * Pure code: no I/O, no allocation.
 */
#ifndef FB_CECP_CODEC_H
#define FB_CECP_CODEC_H

#include <stdbool.h>
#include <stddef.h>

#include "token.h"

/* ---- engine to GUI ---- */

enum fb_cecp_engine {
	FB_CECP_E_OTHER,    /* a banner, a comment, anything else */
	FB_CECP_E_FEATURE,  /* feature k=v ...: fb_cecp_next_feature */
	FB_CECP_E_MOVE,     /* the engine's move: arg, form */
	FB_CECP_E_THINKING, /* ply score time nodes pv: think */
	FB_CECP_E_PONG,     /* pong N: arg */
	FB_CECP_E_RESULT,   /* 1-0, 0-1, 1/2-1/2 [{comment}]: arg the line */
	FB_CECP_E_RESIGN,
	FB_CECP_E_DRAW,    /* offer draw */
	FB_CECP_E_ERROR,   /* Error (...): CMD: arg CMD, the last word */
	FB_CECP_E_ILLEGAL, /* Illegal move [(...)]: M: arg M */
	FB_CECP_E_TELL,    /* telluser/tellusererror/tell*: arg the text */
	FB_CECP_E_SETUP,   /* setup [(PIECES)] [WxH+S_PARENT] FEN: arg FEN */
	FB_CECP_E_INVALID, /* Invalid move: X (GNU Chess: a move it does not
			       take, and its answer to any command it does
			       not know): arg the last word */
};

/* How the engine wrote its move. */
enum fb_cecp_move_form {
	FB_CECP_MOVE_CMD,    /* move M (CECP 2) */
	FB_CECP_MOVE_MYMOVE, /* My move is: M, My move is : M (old) */
	FB_CECP_MOVE_OLD,    /* N. ... M (the oldest form; GNU Chess writes
				it before My move is) */
};

struct fb_cecp_thinking {
	long long ply, score, time_cs, nodes;
	struct fb_span pv; /* to the end of the line */
};

struct fb_cecp_line {
	enum fb_cecp_engine kind;
	size_t start;        /* the command's first byte (after a prompt) */
	struct fb_span word; /* the command word */
	struct fb_span arg;  /* see the kinds */
	enum fb_cecp_move_form form;
	bool tellusererror;            /* FB_CECP_E_TELL: tellusererror */
	struct fb_cecp_thinking think; /* FB_CECP_E_THINKING */
	/* GNU Chess's prompt (one or more) came before the command. */
	bool prompt;
	/* FB_CECP_E_ERROR, _ILLEGAL, _INVALID: what follows the line's last
	 * ':', blanks trimmed (the command rejected, with its arguments:
	 * `Error (unknown command): sd 3`); len 0 without a ':'. */
	struct fb_span rejected;
};

/* Reads an engine line. */
void
fb_cecp_parse_engine(const char *text, size_t len, struct fb_cecp_line *l);

/* The same, but thinking output is not read (it is FB_CECP_E_OTHER): for
 * a pair that passes it on as it is, since engines write it by the
 * thousand. */
void
fb_cecp_parse_engine_command(const char *text, size_t len,
			     struct fb_cecp_line *l);

/* True when l (an engine line read by fb_cecp_parse_engine) is an
 * `Error`, `Illegal move` or `Invalid move` whose rejected command is
 * word: its first token, after a `usermove` (`Invalid move: sd 3` rejects
 * "sd", `Illegal move:e1h1` and `Error (unknown command): usermove e1h1`
 * reject "e1h1"). */
bool
fb_cecp_rejects(const char *text, const struct fb_cecp_line *l,
		const char *word);

/* CECP's sd lasts until new: a search after one with a depth gets this
 * one, which no timed search reaches (GUIs send sd 64 for "no limit"). */
#define FB_CECP_SD_UNLIMITED 64

/* True when the engine line's first token starts with a digit or a sign:
 * thinking output, a result or the oldest move form (`N. ... M`), none of
 * the other kinds. Inline: a reader that wants only those skips the
 * engine's thousands of thinking lines at the cost of this test. */
static inline bool
fb_cecp_engine_number_led(const char *text, size_t len)
{
	size_t i = 0;

	while (i < len && fb_token_blank(text[i]))
		i++;
	return i < len && ((text[i] >= '0' && text[i] <= '9') ||
			   text[i] == '-' || text[i] == '+');
}

struct fb_cecp_feature {
	struct fb_span key, value;
	struct fb_span pair; /* key=value with its quotes */
	bool quoted;
};

/*
 * The next key=value of a feature line from *pos (start it at 0: the word
 * feature is skipped); a token without '=' is skipped. Returns false at the
 * end of the line.
 */
bool
fb_cecp_next_feature(const char *text, size_t len, size_t *pos,
		     struct fb_cecp_feature *f);

struct fb_cecp_option_feature {
	struct fb_span name; /* up to the first " -" (blanks kept) */
	struct fb_span type; /* the word after it: spin, check, combo ... */
	struct fb_span args; /* the rest, leading blanks skipped */
};

/* The value v of `feature option="NAME -TYPE ARGS"` (CECP "option"
 * feature). Returns false without a " -": name is then all of v, type and
 * args are empty. */
bool
fb_cecp_parse_option_feature(const char *text, struct fb_span v,
			     struct fb_cecp_option_feature *o);

/* True when the value of f is the flag 1 (0: false; anything else: false,
 * and *valid false). */
bool
fb_cecp_feature_flag(const char *text, const struct fb_cecp_feature *f,
		     bool *valid);

/* `ply score time nodes pv` (CECP "Thinking Output"; a ply may carry a
 * trailing '.' or '&'; fields after a tab that hold numbers are skipped).
 * Returns 0, or -1 when the line is not one. */
int
fb_cecp_parse_thinking(const char *text, size_t len,
		       struct fb_cecp_thinking *t);

/* A CECP number in text's span s (a pong's, a thinking field's): an
 * optional sign, digits and an optional trailing '.' or '&'; clamped to
 * +-10^12. Returns false when s holds none (*v may have changed). */
bool
fb_cecp_parse_number(const char *text, struct fb_span s, long long *v);

/* ---- GUI to engine ---- */

enum fb_cecp_gui {
	FB_CECP_G_OTHER, /* not a command fenbridge knows: maybe a bare move */
	FB_CECP_G_XBOARD,
	FB_CECP_G_PROTOVER,
	FB_CECP_G_ACCEPTED,
	FB_CECP_G_REJECTED,
	FB_CECP_G_NEW,
	FB_CECP_G_VARIANT,
	FB_CECP_G_QUIT,
	FB_CECP_G_RANDOM,
	FB_CECP_G_FORCE,
	FB_CECP_G_GO,
	FB_CECP_G_PLAYOTHER,
	FB_CECP_G_WHITE,
	FB_CECP_G_BLACK,
	FB_CECP_G_LEVEL,
	FB_CECP_G_ST,
	FB_CECP_G_SD,
	FB_CECP_G_NPS,
	FB_CECP_G_TIME,
	FB_CECP_G_OTIM,
	FB_CECP_G_USERMOVE,
	FB_CECP_G_MOVENOW, /* ? */
	FB_CECP_G_PING,
	FB_CECP_G_DRAW,
	FB_CECP_G_RESULT,
	FB_CECP_G_SETBOARD,
	FB_CECP_G_EDIT,
	FB_CECP_G_HINT,
	FB_CECP_G_BK,
	FB_CECP_G_UNDO,
	FB_CECP_G_REMOVE,
	FB_CECP_G_HARD,
	FB_CECP_G_EASY,
	FB_CECP_G_POST,
	FB_CECP_G_NOPOST,
	FB_CECP_G_ANALYZE,
	FB_CECP_G_EXIT,
	FB_CECP_G_NAME,
	FB_CECP_G_RATING,
	FB_CECP_G_ICS,
	FB_CECP_G_COMPUTER,
	FB_CECP_G_PAUSE,
	FB_CECP_G_RESUME,
	FB_CECP_G_MEMORY,
	FB_CECP_G_CORES,
	FB_CECP_G_EGTPATH,
	FB_CECP_G_OPTION,
	FB_CECP_G_DOT, /* . (analysis status) */
};

struct fb_cecp_command {
	enum fb_cecp_gui kind;
	struct fb_span word; /* the first token */
	struct fb_span arg;  /* the rest of the line, blanks trimmed */
};

/* Reads a GUI line into its command and argument. */
void
fb_cecp_parse_gui(const char *text, size_t len, struct fb_cecp_command *c);

struct fb_cecp_option {
	struct fb_span name;  /* up to '=', blanks trimmed */
	struct fb_span value; /* after '=' (len 0: empty or none) */
	bool has_value;       /* an '=' (none: a button) */
};

/* The argument arg of `option NAME[=VALUE]`. */
void
fb_cecp_parse_option(const char *text, struct fb_span arg,
		     struct fb_cecp_option *o);

/* True when the token w may be a bare move (FB_CECP_G_OTHER: protover 1,
 * or a GUI that ignores usermove=1): a square and a square (e2e4, e7e8q,
 * up to 12 files and 10 ranks), a drop (P@e4) or a castle (O-O, o-o,
 * 0-0). */
bool
fb_cecp_looks_like_move(const char *text, struct fb_span w);

#endif
