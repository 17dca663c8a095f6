/* SPDX-License-Identifier: MIT */
/*
 * The position: one type for every board fenbridge reads, follows and
 * prints (8x8 or 10x8: pieces, side to move, castling rights, en passant,
 * clocks). The FEN parser (fen.h) fills it, moves change it, and it prints
 * itself as a FEN in either castling dialect. Moves are played without
 * legality checking (movegen.h checks them), so that a castling move can be
 * recognised in any notation and written in another.
 *
 * Castling notations:
 *   FB_CASTLE_KXR   king takes own rook (e1h1): UCI with UCI_Chess960
 *   FB_CASTLE_KING  the king's destination (e1g1): standard UCI, XBoard
 *   FB_CASTLE_OO    O-O / O-O-O: XBoard in fischerandom
 * Recognition accepts all three whatever a side declared: a king moving onto
 * an own rook that holds a right, a king moving two or more files along its
 * back rank to its castling square while the right remains, and O-O/O-O-O;
 * always by the side to move (a king move of the other side is no castle).
 *
 * No legality checking and no I/O. Pure code; the struct is plain data that
 * may be copied (to play a pv on a scratch copy).
 */
#ifndef FENBRIDGE_GAME_H
#define FENBRIDGE_GAME_H

#include <stdbool.h>
#include <stddef.h>

#define FB_FEN_RANKS 8
#define FB_FEN_MAX_FILES 10

enum fb_notation {
	FB_XFEN, /* KQkq for the outermost rook, file letter for an inner one */
	FB_SHREDDER, /* always the rook's file letter: HAha */
};

enum fb_colour { FB_WHITE = 0, FB_BLACK = 1 };
enum fb_wing { FB_HSIDE = 0, FB_ASIDE = 1 }; /* king side, queen side */

/* How to print a FEN. A zeroed struct means X-FEN, no prefix, e.p. per
 * X-FEN. */
struct fb_fen_style {
	enum fb_notation notation;
	/* X-FEN only: prefix to add when the input had none ('s', 'm' or 0). */
	char prefix;
	/* X-FEN only: keep the en-passant field even when no capture exists. */
	bool keep_ep;
};

/* The back rank of a colour: rank 1 (index 0) for White, 8 for Black. */
static inline int
fb_game_back_rank(int colour)
{
	return colour == FB_WHITE ? 0 : FB_FEN_RANKS - 1;
}

enum fb_castle_notation {
	FB_CASTLE_AUTO, /* an option's value: decided from what each side says */
	FB_CASTLE_KXR,
	FB_CASTLE_KING,
	FB_CASTLE_OO,
};

/*
 * How a variant castles and promotes: the king's file at the start (where
 * standard notation expects it), the files king and rook land on per wing
 * ([FB_HSIDE], [FB_ASIDE]), and the pieces a pawn may become (lower case).
 * Chess, Chess960, Capablanca, CRC and Gothic castle to the c- and g-files
 * (c and i on 10x8); Janus and Embassy otherwise (variant.c).
 */
struct fb_rules {
	signed char king_home;
	signed char king_to[2];
	signed char rook_to[2];
	const char *promos;
};

/* A position. */
struct fb_game {
	unsigned width;                             /* 8 or 10 */
	char board[FB_FEN_RANKS][FB_FEN_MAX_FILES]; /* [rank][file], 0 empty */
	int side;                                   /* FB_WHITE or FB_BLACK */
	int castle[2][2];  /* [colour][wing]: castling rook's file, or -1 */
	int ep_file;       /* file of an en-passant target square, or -1 */
	unsigned halfmove; /* plies since the last capture or pawn move */
	unsigned fullmove; /* starts at 1, grows after Black's move */
	/* The variant's castling and promotion, or NULL: the standard ones
	 * of the board's width (fb_game_rules). A pointer to a const table,
	 * so the struct stays plain data; a zeroed struct is standard. */
	const struct fb_rules *rules;
};

/* g's rules: g->rules, or those of chess (8x8) or Capablanca (10x8). */
const struct fb_rules *
fb_game_rules(const struct fb_game *g);

struct fb_move {
	int from_file, from_rank, to_file, to_rank;
	char promo; /* promotion piece as written (any case), or 0 */
	int castle; /* FB_HSIDE, FB_ASIDE, or -1: not castling */
	bool null;  /* UCI null move 0000 */
};

/* Sets g to the start position whose white back rank is row (8 or 10
 * pieces: a variant's start row, fb_variant_start_row()), pawns in front,
 * black mirrored, all four rights on the corner rooks, standard rules
 * (fb_variant_start() also sets a variant's rules). */
void
fb_game_start(struct fb_game *g, const char *row);

/* The file of colour's king on its back rank, or -1 when it is not there. */
int
fb_game_king_file(const struct fb_game *g, int colour);

/* Reads O-O / O-O-O (also 0-0, 0-0-0, with trailing + or #) at t[0..len):
 * true with *wing set, or false. */
bool
fb_game_parse_oo(const char *t, size_t len, int *wing);

/* The X-FEN condition on the en-passant square: true when a pawn of the
 * side to move stands beside the pawn that just made a double step, and
 * the square it skipped is empty (no pin or check test). */
bool
fb_game_ep_capturable(const struct fb_game *g);

/* True when a side to move has any castling right left. Inline: a game's
 * moves are read only while it is true, and it is asked at every one. */
static inline bool
fb_game_can_castle(const struct fb_game *g)
{
	return g->castle[0][0] >= 0 || g->castle[0][1] >= 0 ||
	       g->castle[1][0] >= 0 || g->castle[1][1] >= 0;
}

/*
 * Parses a move token text[0..len) in the position g: coordinates with an
 * optional promotion letter (e7e8q, also e7e8=Q), UCI's 0000, or
 * O-O / O-O-O (also 0-0, 0-0-0, with a trailing + or #). Sets m, including
 * whether and how it castles. Returns 0, or FB_EINVAL when text is not a
 * move fenbridge can follow.
 */
int
fb_game_parse_move(const struct fb_game *g, const char *text, size_t len,
		   struct fb_move *m);

/*
 * Writes castling move m (m->castle >= 0) of the side to move in notation n
 * to out (not NUL-terminated). Returns the length, or FB_EINVAL when the
 * notation cannot express it (king notation with the king already on, or
 * one file from, its castling square, unless the castling rook stands on
 * that square: f1g1 cannot be a plain king step onto an own rook), or
 * FB_ENOSPC.
 */
int
fb_game_print_castle(const struct fb_game *g, const struct fb_move *m,
		     enum fb_castle_notation n, char *out, size_t cap);

/* Plays m in g: moves pieces, updates rights, side to move, e.p. file,
 * clocks. */
void
fb_game_play(struct fb_game *g, const struct fb_move *m);

/*
 * True when every castling right of g can be written in standard chess
 * notation: king on its home file (the rules' king_home: e, or f on
 * Capablanca's 10x8) and castling rooks in the corners. Engines without Chess960 support need this.
 */
bool
fb_game_is_standard_castling(const struct fb_game *g);

/*
 * True when castling move m (m->castle >= 0) of the side to move is a
 * standard castle: the king on its home square (e, f on 10x8), the rook in
 * its corner. Only such a castle means the same to an engine without
 * Chess960 support as to the game.
 */
bool
fb_game_is_standard_castle(const struct fb_game *g, const struct fb_move *m);

/*
 * Drops every castling right that standard notation cannot express (see
 * fb_game_is_standard_castling). Returns how many were dropped.
 */
unsigned
fb_game_drop_nonstandard(struct fb_game *g);

/*
 * Writes the castling field of g in the given style to out (not
 * NUL-terminated): Shredder-FEN file letters, or X-FEN K/Q unless another
 * own rook stands further out on that wing. prefix is an X-FEN prefix the
 * FEN it came from had ('s', 'm', or 0: then style->prefix). Returns the
 * length (1 to 5 bytes), or FB_ENOSPC.
 */
int
fb_game_print_castling(const struct fb_game *g, char prefix,
		       const struct fb_fen_style *style, char *out, size_t cap);

/*
 * Writes the position as a whole FEN (6 fields) in the given style to out,
 * not NUL-terminated: castling per style (and its prefix), the en-passant
 * square only where a pawn can capture on it. Returns the length, or
 * FB_ENOSPC (FB_GAME_FEN_MAX is always enough).
 */
#define FB_GAME_FEN_MAX 160
int
fb_game_print_fen(const struct fb_game *g, const struct fb_fen_style *style,
		  char *out, size_t cap);

/* Parses "auto", "kxr", "king" or "oo" into *n: returns 0, or FB_EINVAL. */
int
fb_game_parse_notation(const char *name, enum fb_castle_notation *n);

/* The name fb_game_parse_notation reads for n: "auto", "kxr", "king",
 * "oo". */
const char *
fb_game_notation_name(enum fb_castle_notation n);

#endif
