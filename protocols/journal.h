/* SPDX-License-Identifier: MIT */
/*
 * The engine wire's journal (--restart): it is fed every line fenbridge
 * sends to the engine (as sent, after translation) and every line the
 * engine sends, each with the loop's time in ms, and keeps the least that
 * brings a new engine to where the old one was. When the engine dies
 * mid-game, fb_journal_replay writes those lines, in the engine's protocol,
 * for the new engine; the new engine's handshake answers that the GUI saw
 * already are then dropped (fb_journal_from_engine says which).
 *
 * The record does not depend on the protocol: UCI and CECP commands have
 * different names except `go`, which each replay reads its own way; the
 * engine's protocol is only needed to replay. Pure code: no I/O.
 */
#ifndef FB_JOURNAL_H
#define FB_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fb_journal;

/* A new, empty journal, or NULL when out of memory. */
struct fb_journal *
fb_journal_new(void);

void
fb_journal_free(struct fb_journal *j);

/* Bytes toward the engine, in order, in any pieces: each whole line is
 * recorded at time ms. */
void
fb_journal_to_engine(struct fb_journal *j, const char *data, size_t len,
		     uint64_t ms);

/* One whole line from the engine (no terminator). Returns true when it is
 * a new engine's answer to the replayed handshake, which the GUI must not
 * see (UCI: its lines up to uciok, then the readyok of the replay's
 * isready; XBoard: its feature lines, until done=1), once the old engine
 * had ended its own (uciok, feature done=1): before, the GUI waits for
 * them. */
bool
fb_journal_from_engine(struct fb_journal *j, const char *text, size_t len,
		       uint64_t ms);

/* Restarts in this game (since the last ucinewgame / new). */
unsigned
fb_journal_restarts(const struct fb_journal *j);

typedef void (*fb_journal_emit_fn)(void *ctx, const char *line, size_t len);

/*
 * Writes, line by line (each ended by "\n"), what a new engine speaking UCI
 * (uci true) or XBoard needs to be where the old one was at time ms: its
 * clocks reduced by the time a running search has taken. Counts a restart
 * and arms the dropping of the new engine's handshake answers. Returns
 * false when out of memory (then some lines may be missing).
 */
bool
fb_journal_replay(struct fb_journal *j, bool uci, uint64_t ms,
		  fb_journal_emit_fn emit, void *ctx);

#endif
