/* SPDX-License-Identifier: MIT */
/*
 * The session's policy: one record of what each side supports and has
 * chosen, and one function for each decision every pair makes the same way:
 * the castling notation toward each side, the FEN dialect toward the
 * engine, whether the engine speaks only standard notation, whether a
 * castle must be re-anchored (and the FEN it is re-anchored on), which
 * variants the engine lists and how it can play one. The four pairs fill
 * the record from what their codecs read and ask it; none decides these
 * on its own.
 *
 * Pure code: no I/O.
 */
#ifndef FB_POLICY_H
#define FB_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "filter.h"
#include "fenbridge/game.h"
#include "quirk.h"
#include "fenbridge/variant.h"
#include "token.h"

/* An option or feature of the engine: not seen yet (its list is not
 * complete), listed, or absent. */
enum fb_support {
	FB_SUPPORT_UNKNOWN,
	FB_SUPPORT_LISTED,
	FB_SUPPORT_ABSENT,
};

/* The longest name an engine may give a variant that fenbridge keeps. */
#define FB_POLICY_NAME_MAX 32

/* The variants an engine lists (UCI: UCI_Variant's vars; CECP: feature
 * variants), as entries of the variant table, each with the engine's own
 * spelling. */
struct fb_variant_list {
	bool given;    /* the engine gave a list */
	unsigned bits; /* 1 << fb_variant_index(v) for each listed v */
	char name[16][FB_POLICY_NAME_MAX];
};

struct fb_policy {
	const struct fb_filter_options *opt;
	const struct fb_protocol *gui, *engine;

	/* What the engine declared, or fenbridge learnt of it. */
	const struct fb_quirk *quirk;
	enum fb_support chess960; /* UCI: option UCI_Chess960 */
	struct fb_variant_list variants;
	bool oocastle_off; /* CECP: feature oocastle=0 */
	bool kxr_for_oo;   /* CECP: rejects O-O (quirk, or learnt) */

	/* The game as the GUI plays it: the variant selected (UCI_Variant,
	 * CECP variant; NULL for one fenbridge does not know) and, for a
	 * UCI GUI, UCI_Chess960. */
	const struct fb_variant *variant;
	bool gui_960;

	/* What the engine was set to. */
	bool engine_960;                         /* UCI_Chess960 true */
	const struct fb_variant *engine_variant; /* UCI_Variant / variant */
	/* The engine does not list the variant in play but its fixed-start
	 * sibling, and plays it as that in standard notation (CECP; UCI
	 * engines without UCI_Chess960 are standard by chess960). */
	bool emulated;
};

/* Sets p up for a session with these options and protocols: normal
 * chess, nothing known of the engine. */
void
fb_policy_init(struct fb_policy *p, const struct fb_filter_options *opt,
	       const struct fb_protocol *gui, const struct fb_protocol *engine);

/* The variant the GUI plays: UCI_Chess960 makes normal chess Chess960;
 * normal chess for a variant fenbridge does not know. */
const struct fb_variant *
fb_policy_game_variant(const struct fb_policy *p);

/* True when the GUI plays a random variant (Chess960, CRC). */
bool
fb_policy_gui_random(const struct fb_policy *p);

/* Castling moves toward the GUI (and as the GUI is expected to write
 * them): UCI: king takes rook in Chess960, the king's move otherwise;
 * CECP: O-O in a random variant (king takes rook after the engine's
 * oocastle=0, which the GUI saw), the king's move otherwise. */
enum fb_castle_notation
fb_policy_gui_castling(const struct fb_policy *p);

/* True when the engine is in Chess960 mode (UCI: UCI_Chess960 on, or a
 * random UCI_Variant it lists; CECP: a random variant it lists). */
bool
fb_policy_engine_960(const struct fb_policy *p);

/* True when the engine is known to read standard notation only: it gets
 * only the castling rights standard FEN expresses, and a castle it cannot
 * read is re-anchored. */
bool
fb_policy_engine_standard(const struct fb_policy *p);

/*
 * Castling moves toward the engine: king takes rook in Chess960 mode
 * (UCI), O-O for a CECP engine in a random variant (king takes rook after
 * oocastle=0 or for one that rejects O-O), the king's move for an engine in
 * standard notation. FB_CASTLE_AUTO means "as the GUI wrote it": an XBoard
 * GUI already writes what its XBoard engine asked for.
 */
enum fb_castle_notation
fb_policy_engine_castling(const struct fb_policy *p);

/* The FEN style toward the engine (its dialect: --engine-fen, or the quirk
 * table with --engine-fen=auto; the variant's X-FEN prefix) and toward the
 * GUI. */
struct fb_fen_style
fb_policy_engine_style(const struct fb_policy *p);
struct fb_fen_style
fb_policy_gui_style(const struct fb_policy *p);

/*
 * True when castling move m in position g (before it) must reach the
 * engine as the position after it ("re-anchoring"): the engine speaks
 * standard notation and m is no standard castle, or the engine's notation
 * cannot write m (fb_game_print_castle).
 */
bool
fb_policy_must_reanchor(const struct fb_policy *p, const struct fb_game *g,
			const struct fb_move *m);

/*
 * Writes the FEN on which the engine is re-anchored, the position after
 * the castle (g), with only the rights it can read, in its style. Returns
 * the length (FB_GAME_FEN_MAX is enough), or FB_ENOSPC. *dropped, if not
 * NULL, counts the rights left out.
 */
int
fb_policy_anchor_fen(const struct fb_policy *p, const struct fb_game *g,
		     char *out, size_t cap, unsigned *dropped);

/* Drops from g the castling rights the engine cannot read (those standard
 * notation cannot express, for an engine in standard notation), as
 * fb_policy_anchor_fen does: for a position that reaches the engine
 * otherwise than as a FEN (CECP edit). Returns how many were dropped. */
unsigned
fb_policy_anchor_game(const struct fb_policy *p, struct fb_game *g);

/* Reads the engine's variant list: a UCI_Variant option's vars, or a CECP
 * `variants` value (comma separated). Entries the table does not know are
 * ignored; a later list replaces an earlier one. */
void
fb_policy_read_variants(struct fb_variant_list *l, const char *text,
			const struct fb_span *vars, size_t nvars);
void
fb_policy_read_variants_csv(struct fb_variant_list *l, const char *text,
			    size_t len);
/* Adds the entry name[0..n) to a list (read one at a time: a UCI_Variant
 * with more vars than fit an array); ignored like the above. */
void
fb_policy_add_variant(struct fb_variant_list *l, const char *name, size_t n);

/* True when the engine lists v. A CECP engine that gave no list plays
 * normal chess only (CECP's default). */
bool
fb_policy_engine_lists(const struct fb_policy *p, const struct fb_variant *v);

/* The engine's spelling of v, NUL-terminated, or NULL when it does not
 * list it. */
const char *
fb_policy_engine_name(const struct fb_policy *p, const struct fb_variant *v);

/* How the engine can play a variant. */
enum fb_play {
	FB_PLAY_NO,       /* not at all: do not offer it */
	FB_PLAY_LISTED,   /* it lists it */
	FB_PLAY_CHESS960, /* as its base with UCI_Chess960 (UCI) */
	FB_PLAY_EMULATED, /* as its base in standard notation */
};

/* Whether and how the engine plays v. Only variants whose castling
 * fenbridge follows are offered beyond what the engine lists. */
enum fb_play
fb_policy_plays(const struct fb_policy *p, const struct fb_variant *v);

/*
 * Says that the engine's game differs from the GUI's: to the log (the
 * line fmt makes, at info level the first time, *logged, then at debug
 * level) and once to the GUI (*told), in its protocol's note form, why:
 * the engine plays the variant as its base in standard notation, or has
 * no Chess960 castling (it gets only the castling rights standard FEN can
 * express, and a castle it cannot read as the position after it), or its
 * castling notation cannot write every castle. The one wording of these
 * notes, for all four pairs.
 */
void
fb_policy_tell(const struct fb_policy *p, bool *logged, bool *told,
	       const struct fb_sink *out, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* fb_policy_tell of a re-anchoring: the castle castle[0..n) (as the pair
 * read or wrote it) was played, and the engine gets after, the position
 * after it. */
void
fb_policy_tell_anchor(const struct fb_policy *p, bool *logged, bool *told,
		      const struct fb_game *after, const char *castle, size_t n,
		      const struct fb_sink *out);

/*
 * After a UCI engine's uciok (p->chess960 is known by then): sends it the
 * config's options (FB_OPT_SET), each as `setoption`. UCI_Chess960 goes
 * only to an engine that lists it, and then sets p->engine_960 to its
 * value, so that the castling notation follows the engine's mode; to an
 * engine without it the option is not sent: fenbridge plays that part
 * (standard notation, re-anchoring). A pair that drives UCI_Chess960
 * itself (the XBoard GUI's variant) sets it again before a search where
 * the game needs the other value. Used by both pairs with a UCI engine.
 */
void
fb_policy_send_uci_options(struct fb_policy *p, const struct fb_sink *out);

/*
 * True when a CECP engine plays v as its base in standard notation
 * (emulated): v is not on its list, and
 * - behind a GUI of its own protocol, the engine gave a list and plays v
 *   as FB_PLAY_EMULATED (the GUI was offered v from that list only; a
 *   variant it could not have been offered goes to the engine as sent);
 * - behind a translating pair, v has a base: the pair must hand the engine
 *   a game it can play (a UCI GUI may set UCI_Chess960 unasked), and the
 *   base is the one it may know.
 */
bool
fb_policy_emulates(const struct fb_policy *p, const struct fb_variant *v);

/* The variant table's fixed-start sibling of v (fischerandom: normal), or
 * NULL. */
const struct fb_variant *
fb_policy_base(const struct fb_variant *v);

#endif
