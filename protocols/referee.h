/* SPDX-License-Identifier: MIT */
/*
 * The referee (--referee=warn|strict): watches the two wires of a session,
 * each in its own protocol, and says who broke a rule. The ENGINE wire is
 * what fenbridge sent to the engine (after any translation, in the
 * engine's protocol) and what the engine wrote; the GUI wire is what the
 * GUI wrote and what it was sent (in the GUI's protocol). Each wire keeps
 * its own board (struct fb_game), read from the lines that went by with
 * the codecs, and the peer of each wire is checked against that board and
 * its protocol: the engine's lines on the engine wire, the GUI's on the
 * GUI wire. The same code thus serves every pair, translating or not.
 *
 * A finding is one line of text handed to the caller's callback; the
 * referee counts them per kind. A note (FB_REF_NOTE) is one line too, said
 * once a session and not counted: what the referee does not hold against
 * the peer (a pv that goes on past a draw by rule: the rules end the game,
 * not the search) or cannot judge (a variant it does not follow). It never
 * changes a line: what the peers get is the relay's business.
 *
 * Lines of a protocol not yet known (the engine's answer to the protocol
 * probe) are held, FB_REF_HOLD_LINES and FB_REF_HOLD_BYTES at most, and
 * judged once the wire's protocol is known: every line is judged, whichever
 * way it came.
 *
 * Pure code: no I/O, no allocation. Times are the caller's clock in ms.
 */
#ifndef FB_REFEREE_H
#define FB_REFEREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fenbridge/game.h"
#include "fenbridge/variant.h"

enum fb_referee_mode {
	FB_REFEREE_OFF,
	FB_REFEREE_WARN,
	FB_REFEREE_STRICT,
};

enum fb_referee_side {
	FB_REF_ENGINE, /* the engine wire: the engine is checked */
	FB_REF_GUI,    /* the GUI wire: the GUI is checked */
};

enum fb_referee_proto {
	FB_REF_UNKNOWN, /* not known yet: the line is held until it is */
	FB_REF_UCI,
	FB_REF_CECP,
};

enum fb_referee_kind {
	FB_REF_ILLEGAL,  /* a move or pv move that is not legal */
	FB_REF_CASTLING, /* a castle in the wrong notation, wrong rights */
	FB_REF_PROTOCOL, /* an answer out of order, late or wrong */
	FB_REF_FORMAT,   /* a line that does not follow the grammar */
	FB_REF_GUIKIND,  /* the GUI: positions, ucinewgame without a wait */
	FB_REF_NKINDS,
	/* Not a finding: not counted, no reason for strict mode's exit
	 * status or a flight record; each of its kinds said once a session
	 * ("note: ..."). */
	FB_REF_NOTE = FB_REF_NKINDS,
};

/* Called once per finding: kind, the finding's text (NUL-terminated,
 * "KIND: what, position ..., moves ..., last sent ...", borrowed for the
 * call), and whether it is the session's first of its kind. Called for a
 * note too, with FB_REF_NOTE ("note: what ..."; first_of_kind true). */
typedef void (*fb_referee_fn)(void *ctx, enum fb_referee_kind kind,
			      const char *text, bool first_of_kind);

#define FB_REF_MOVES_MAX 480 /* a finding fits the log's 1 KiB line */
#define FB_REF_CMD_MAX 120
#define FB_REF_SEARCHES 4
#define FB_REF_PINGS 8
#define FB_REF_POS_LINE 8192 /* a position line of some 1,600 plies */

/* An answer the peer of a wire owes: isready/readyok, ping/pong. */
struct fb_ref_wait {
	long long id; /* ping's number (0 for isready) */
	uint64_t at;  /* when it was sent */
	bool judged;  /* the engine was free to answer at once */
	bool said;    /* reported while still owed (fb_referee_tick) */
};

/* The moves of a pv judged, and the board after each: the next pv of the
 * same search mostly starts with the same moves as one of the last few
 * (a flood of info lines, MultiPV's lines taking turns), which need no
 * second look. FB_REF_PV_WAYS pvs are kept, the least recently used
 * making room. */
#define FB_REF_PV_CACHE 24
#define FB_REF_PV_WAYS 8
struct fb_ref_pvcache {
	unsigned search; /* the search it belongs to (search_id) */
	unsigned n;
	unsigned used; /* when last used (fb_ref_wire.pv_clock) */
	char tok[FB_REF_PV_CACHE][8];
	unsigned char len[FB_REF_PV_CACHE];
	struct fb_game after[FB_REF_PV_CACHE];
	uint64_t key[FB_REF_PV_CACHE]; /* after's, for repetitions */
};

/* The positions since the last capture or pawn move, for repetitions:
 * keys of board, side and castling rights (not the en-passant square, so
 * a count is never too low). */
#define FB_REF_HIST 128
struct fb_ref_hist {
	uint64_t key[FB_REF_HIST];
	unsigned n;
	/* Every position since the last irreversible move is here: the
	 * base position's clock was 0 or a move seen set it to 0, and none
	 * was dropped. */
	bool complete;
};

/* What one wire has seen; private to referee*.c, plain data. */
/* How many positions back a CECP engine's thinking may lag. */
#define FB_REF_RECENT 8

struct fb_ref_wire {
	enum fb_referee_proto proto;
	bool known;       /* pos follows the game (a position was seen) */
	bool chess960;    /* UCI_Chess960 on / variant fischerandom */
	bool unsupported; /* a variant the referee does not follow */
	/* The variant followed (UCI_Variant, CECP variant): NULL for normal
	 * chess; one of the table's that game.c follows (8x8, 10x8). */
	const struct fb_variant *variant;
	struct fb_game pos;  /* the position the peer was last given */
	struct fb_game prev; /* CECP: before the last move given */
	/* CECP: the positions before the last moves given, newest first:
	 * thinking about one of them may still be in the pipe (in analyze
	 * mode the GUI gives moves while the engine thinks). */
	struct fb_game recent[FB_REF_RECENT];
	unsigned nrecent;
	char moves[FB_REF_MOVES_MAX]; /* the moves since pos's base */
	struct fb_ref_hist hist;      /* pos's and those before it */
	size_t nmoves;
	char last[FB_REF_CMD_MAX]; /* the last command sent toward the engine */
	bool quit;
	uint64_t quit_at;
	bool after_quit_said;
	bool in_handshake; /* uci sent, uciok not seen */
	/* UCI: the positions of the searches not yet answered (oldest
	 * first); a search whose position is not followed is not checked. */
	struct fb_game search[FB_REF_SEARCHES];
	struct fb_ref_hist search_hist[FB_REF_SEARCHES]; /* and before */
	bool search_known[FB_REF_SEARCHES];
	unsigned search_id[FB_REF_SEARCHES];
	unsigned nsearch, searches; /* searches: the go lines so far */
	struct fb_ref_pvcache pv[FB_REF_PV_WAYS];
	unsigned pv_clock;
	/* UCI: the last position line (with moves) that pos follows, and
	 * its plies: the next one mostly adds a move or two, and only those
	 * are played (a line longer than pos_line is read whole). */
	size_t pos_len;
	unsigned pos_plies;
	char pos_line[FB_REF_POS_LINE];
	bool answered; /* the last search has its bestmove; no go since */
	struct fb_ref_wait wait[FB_REF_PINGS];
	unsigned nwait;
	/* A command that may take the engine a while (uci, setoption,
	 * ucinewgame; CECP new, memory, egtpath, option ...) went since the
	 * last answer: the isready or ping that waits for it may wait long
	 * (UCI isready: "can take some time"). */
	bool busy;
	/* UCI GUI: ucinewgame, then isready, and no readyok yet. */
	bool newgame;
	bool newgame_ready;
	/* CECP */
	bool force, analyze;
	/* force, result or new while the engine was on move: a move it
	 * had already written may still come, and is no offence. */
	bool race;
	int engine_side;    /* the colour the engine plays, or -1 */
	char last_move[24]; /* the last move given, for `Illegal move` */
	/* A go (1) or playother (2) came after last_move: the engine took
	 * its side from the position after it, or, when it rejects the
	 * move, from the one before. */
	unsigned char go_after;
	/* The engine's last move when written `N. ... M`: GNU Chess writes
	 * `My move is: M` after it, the same move. */
	char announced[24];
};

/* The lines of one wire whose protocol is not known yet, in order. */
#define FB_REF_HOLD_LINES 128
#define FB_REF_HOLD_BYTES 16384
struct fb_ref_held {
	char text[FB_REF_HOLD_BYTES];
	size_t used;
	unsigned n;
	unsigned lost; /* lines past the bounds: not judged */
	struct {
		uint32_t off, len;
		uint64_t at;
		bool from_peer;
	} line[FB_REF_HOLD_LINES];
};

/* The last move found legal and its position: the GUI wire and the engine
 * wire mostly see the same move in the same position, one after the
 * other. */
struct fb_ref_legal_memo {
	bool valid;
	struct fb_game g;
	struct fb_move m;
};

struct fb_referee {
	enum fb_referee_mode mode;
	fb_referee_fn report;
	void *ctx;
	unsigned count[FB_REF_NKINDS];
	unsigned noted; /* the notes said (referee_int.h: FB_REF_NOTE_*) */
	/* The first variant not judged, for the summary ("" when none). */
	char unjudged[32];
	struct fb_ref_wire wire[2]; /* indexed by enum fb_referee_side */
	struct fb_ref_held held[2]; /* by side: lines of a protocol unknown */
	struct fb_ref_legal_memo memo;
};

/* Sets r up for a session in mode (not FB_REFEREE_OFF); report gets each
 * finding with ctx. */
void
fb_referee_init(struct fb_referee *r, enum fb_referee_mode mode,
		fb_referee_fn report, void *ctx);

/*
 * One whole line text[0..len) (no terminator) on wire side, in protocol
 * proto: from_peer when the wire's peer wrote it (the engine on the
 * engine wire, the GUI on the GUI wire), else a line the peer was sent.
 * now is the caller's clock (ms), for the answers that are late. A change
 * of proto starts the wire afresh.
 */
void
fb_referee_line(struct fb_referee *r, enum fb_referee_side side, bool from_peer,
		enum fb_referee_proto proto, const char *text, size_t len,
		uint64_t now);

/* The protocol of wire side is proto from now on (FB_REF_UNKNOWN: not
 * known yet; nothing happens): the lines held meanwhile are judged now, in
 * order, with their own times. fb_referee_line does it for a line in a
 * known protocol; the caller calls it too where it learns the protocol
 * with no line to give (before fb_referee_finish). */
void
fb_referee_protocol(struct fb_referee *r, enum fb_referee_side side,
		    enum fb_referee_proto proto);

/* The session ends at now: answers owed for too long are findings. */
void
fb_referee_finish(struct fb_referee *r, uint64_t now);

/*
 * When the referee next needs the clock: the time (the caller's clock, ms)
 * at which an answer still owed becomes late, or 0 when none is owed. An
 * engine that hangs is killed by its GUI before it answers or the session
 * ends: the caller runs a timer for this and calls fb_referee_tick.
 */
uint64_t
fb_referee_next_deadline(const struct fb_referee *r);

/* The clock is now: each answer owed for more than FB_REF_LATE_MS is a
 * finding (once: not again when it comes, or at the end). */
void
fb_referee_tick(struct fb_referee *r, uint64_t now);

/* The number of findings so far. */
unsigned
fb_referee_total(const struct fb_referee *r);

/* "illegal", "castling", "protocol", "format", "gui"; "note". */
const char *
fb_referee_kind_name(enum fb_referee_kind k);

/* Writes "N findings (illegal A, castling B, ...)" to out, NUL-terminated;
 * after a variant the referee could not judge "not judged: the variant X"
 * instead of "0 findings", or after the counts when there are findings. */
void
fb_referee_summary(const struct fb_referee *r, char *out, size_t cap);

/* How late readyok and pong may come (ms). */
#define FB_REF_LATE_MS 5000
/* Output this long after quit is the engine's, not a line in flight. */
#define FB_REF_QUIT_MS 2000

#endif
