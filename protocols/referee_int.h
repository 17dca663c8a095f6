/* SPDX-License-Identifier: MIT */
/*
 * Private to referee*.c: what the common part (referee.c) gives the two
 * protocol files (referee_uci.c, referee_cecp.c), and their entries.
 *
 * A line is a "command" when it goes the GUI-to-engine way (on the engine
 * wire: what fenbridge sent; on the GUI wire: what the GUI wrote) and a
 * "reply" when it goes the other way. Both wires follow both ways the
 * same; only the peer's lines are checked: replies on the engine wire,
 * commands on the GUI wire.
 *
 * Pure code: no I/O.
 */
#ifndef FB_REFEREE_INT_H
#define FB_REFEREE_INT_H

#include "referee.h"

/* Reports a finding of kind on wire side: what (printf), then the
 * position g (NULL: the wire's), the moves so far and the last command. */
__attribute__((format(printf, 5, 6))) void
fb_ref_find(struct fb_referee *r, enum fb_referee_side side,
	    enum fb_referee_kind kind, const struct fb_game *g, const char *fmt,
	    ...);

/* The notes, each said once a session (struct fb_referee.noted). */
enum {
	FB_REF_NOTE_DRAW = 1,    /* a pv that goes on past a draw by rule */
	FB_REF_NOTE_VARIANT = 2, /* a variant not judged */
	FB_REF_NOTE_HELD = 4,    /* lines of an unknown protocol not held */
};

/* Says note (FB_REF_NOTE_*) once a session: "note: " what (printf), then,
 * with g, the position g, the moves so far and the last command. */
__attribute__((format(printf, 5, 6))) void
fb_ref_note(struct fb_referee *r, enum fb_referee_side side, unsigned note,
	    const struct fb_game *g, const char *fmt, ...);

/* A new base position: pos = g, no moves yet. */
void
fb_ref_set_pos(struct fb_ref_wire *w, const struct fb_game *g);

/* A move was just played on w->pos: adds its text to the moves so far
 * (the oldest go when full) and the position to the history. */
void
fb_ref_add_move(struct fb_ref_wire *w, const char *text, size_t n);

/* The last move is taken back (`Illegal move`): its position from the
 * history, its text from the moves so far. */
void
fb_ref_hist_pop(struct fb_ref_wire *w);

/* How often w->pos stands in its history (itself included), or 0 when
 * the history is not complete. */
unsigned
fb_ref_repetitions(const struct fb_ref_wire *w);

/* The material of g: 1 when neither side can mate by any moves (FIDE's
 * dead positions of material: kings with at most one knight or bishop, or
 * bishops on one colour only), -1 when there is a pawn, rook, queen or
 * fairy piece, 0 otherwise (minor pieces only, which rules count
 * differently). */
int
fb_ref_material(const struct fb_game *g);

/* The positions of a pv so far, for its repetitions: the game's before
 * the search (hist, NULL once a pv move was irreversible) and the pv's own
 * since its last irreversible move (keys). */
#define FB_REF_PV_KEYS 128
struct fb_ref_pvline {
	const struct fb_ref_hist *hist;
	uint64_t key[FB_REF_PV_KEYS];
	unsigned n;
	bool full; /* a pv longer than key[]: no more counting */
};

void
fb_ref_pvline_start(struct fb_ref_pvline *l, const struct fb_ref_hist *hist);

/* The key of g as the history keeps it. */
uint64_t
fb_ref_key(const struct fb_game *g);

/* g, with key k (fb_ref_key), is the position after the pv's next move. */
void
fb_ref_pvline_add(struct fb_ref_pvline *l, const struct fb_game *g, uint64_t k);

/* g, reached in a pv from root at ply (1 and on; l: the pv's positions up
 * to g, or NULL), ends the game by a rule the pv then goes on after: "the
 * 50-move rule" (the clock at 100 in this pv), "dead material" (a capture
 * left a dead position) or "threefold repetition" (g stands a third time
 * in the game and the pv, the game's history counted); else NULL. */
const char *
fb_ref_drawn(const struct fb_game *root, const struct fb_game *g, unsigned ply,
	     const struct fb_ref_pvline *l);

/* Keeps text[0..len) as the last command toward the engine. */
void
fb_ref_set_last(struct fb_ref_wire *w, const char *text, size_t len);

/* Reads token text[0..n) as a legal move of g into *m: coordinates
 * (castling in any notation, as fb_game_parse_move); SAN too when san.
 * Returns true when legal. */
bool
fb_ref_legal(const struct fb_game *g, const char *text, size_t n, bool san,
	     struct fb_move *m);

/* Castle m of g written as text[0..n): true when it is written in the
 * notation want does not use (KXR: not king takes rook; KING: king takes
 * rook where the king's square would do). O-O is never wrong. */
bool
fb_ref_wrong_castle(const struct fb_game *g, const struct fb_move *m,
		    const char *text, size_t n, enum fb_castle_notation want);

/* An answer now owed: isready (id 0) or ping id, at now. */
void
fb_ref_wait_push(struct fb_ref_wire *w, long long id, uint64_t now,
		 bool judged);

/* The answer to the oldest wait with id came at now: a finding when it
 * was late. False when nothing waited for it. */
bool
fb_ref_wait_answer(struct fb_referee *r, enum fb_referee_side side,
		   long long id, uint64_t now, const char *what);

/* The start position of the wire's variant (a random one: its board's
 * standard start, until the position comes). */
void
fb_ref_start(const struct fb_ref_wire *w, struct fb_game *g);

/* The peer of wire side was told to play the variant named name[0..n):
 * the wire follows it when the variant table knows it and game.c follows
 * its castling (normal, Chess960, capablanca, caparandom, gothic), else
 * stops judging moves (unsupported) and says so once a session (a note).
 * Returns the variant followed, or NULL. */
const struct fb_variant *
fb_ref_set_variant(struct fb_referee *r, enum fb_referee_side side,
		   const char *name, size_t n);

void
fb_ref_uci_line(struct fb_referee *r, enum fb_referee_side side, bool command,
		const char *text, size_t len, uint64_t now);
void
fb_ref_cecp_line(struct fb_referee *r, enum fb_referee_side side, bool command,
		 const char *text, size_t len, uint64_t now);

#endif
