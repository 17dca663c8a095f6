/* SPDX-License-Identifier: MIT */
/*
 * Table-driven tests of the castling-move rewriting in the protocol filters,
 * readable as a specification. Public API only: fb_filter_init with a
 * struct fb_filter_options, fb_filter_gui_line / fb_filter_engine_line with
 * a capturing struct fb_sink, fb_filter_free. No field of struct fb_filter
 * is read or written here (its internals are being restructured).
 *
 * A row is: a name; the options (protocol, FEN dialects, castling
 * notations, config options and name); setup lines, each "G text" (GUI ->
 * engine) or "E text" (engine -> GUI), fed with a "\n" terminator and their
 * output discarded; then the line under test (its direction, its text with
 * terminator) and the exact bytes expected toward the peer and back toward
 * the sender (NULL: nothing back).
 *
 * Every expected line was derived by hand from doc/protocols.md ("Castling
 * moves: what auto means", "Chess960 mode and re-anchoring") and doc/dialects.md,
 * never pasted from a run. The reasoning for non-obvious rows is in a
 * one-line comment above them. Castling moves by notation:
 *   KxR   king takes own rook (e1h1)      UCI with UCI_Chess960
 *   king  the king's destination (e1g1)   standard UCI, XBoard normal
 *   O-O   O-O / O-O-O                     XBoard fischerandom/caparandom
 * Recognition accepts all three whatever a side declared.
 *
 * Rows in known_defect_rows are regressions of defects found while trying
 * fenbridge as a new user would (test_fixed_defects).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "filter.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* ---- positions ---- */

/* A Chess960 middle game (start brkbnrqn): kings c1/c8, castling rooks b
 * and f. h-side castle: KxR c1f1, king c1g1, O-O. a-side: KxR c1b1, O-O-O;
 * the king stays on c1, so king notation cannot write it.
 * Shredder FBfb, X-FEN KQkq (b and f are the outermost rooks). */
#define P960 "1rk2r2/ppp1qppp/2nbbn2/3pp3/3PP3/2NBBN2/PPP1QPPP/1RK2R2"
/* A Chess960 position, king g1, rooks f1/h1 (both outermost on their
 * wing): Shredder HFhf, X-FEN KQkq. */
#define BQNB "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR"
/* The X-FEN definition's example: white's inner g1 rook holds the h-side
 * right (h1 has none): X-FEN Gkq, Shredder Gga. White's h-side castle is
 * e1g1 in both KxR and king notation. */
#define XEX "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR"
/* Standard chess, Giuoco Piano with d3: both sides may castle short. */
#define ITAL "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R"
/* Capablanca after f4 f5 Cg3 Cg6 Nh3 Nh6 Be3 Be6: king f1, rooks a1/j1;
 * h-side castle: KxR f1j1, king f1i1 (10x8 kings go to the i-file). */
#define CAPAPOS "rnabqk3r/ppppp1pppp/4b1cn2/5p4/5P4/4B1CN2/PPPPP1PPPP/RNABQK3R"
/* Capablanca Random: king e1, rooks b1/j1. h-side: KxR e1j1, king e1i1;
 * a-side: KxR e1b1, king e1c1. Shredder JBjb, X-FEN KQkq. */
#define CRCPOS "1r2k4r/1bnqacbn2/pppppppppp/10/10/PPPPPPPPPP/1BNQACBN2/1R2K4R"

/* White to move, both sides' f- and g-files empty on the back rank. */
#define GIUOCO "position startpos moves e2e4 e7e5 g1f3 g8f6 f1c4 f8c5"
/* White to move, both sides' b-, c-, d-files empty on the back rank. */
#define QGD "position startpos moves d2d4 d7d5 b1c3 b8c6 c1f4 c8f5 d1d2 d8d7"
/* Ends with white to move and white's f1, g1 empty. */
#define ITALIAN "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6"

/* What a standard-notation engine's GUI hears about a Chess960 position. */
#define NO960_REPLY                                                            \
	"info string fenbridge: the engine has no Chess960 castling; it gets " \
	"only the castling rights standard FEN can express, and a castle it "  \
	"cannot read as the position after it\n"
#define FAKE_OPTION "option name UCI_Chess960 type check default false\n"

/* ---- setups ---- */

#define SETUP(...) ((const char *const[]){__VA_ARGS__, NULL})

/* UCI engine with the option (Stockfish), GUI in Chess960: both KxR. */
#define U960                                                                   \
	"G uci", "E id name Stockfish 15.1",                                   \
		"E option name UCI_Chess960 type check default false",         \
		"E uciok", "G setoption name UCI_Chess960 value true"
/* UCI engine without the option (Toga II): fenbridge fakes it and keeps
 * the GUI's setoption; GUI KxR, engine king notation. */
#define UFAKE                                                                  \
	"G uci", "E id name Toga II 3.0", "E uciok",                           \
		"G setoption name UCI_Chess960 value true"
/* UCI engine with the option, GUI never sets it (Arena, or plain chess):
 * both king notation until a Chess960 position arrives. */
#define USTD                                                                   \
	"G uci", "E id name Stockfish 15.1",                                   \
		"E option name UCI_Chess960 type check default false",         \
		"E uciok"

/* Fairy-Stockfish over UCI: UCI_Variant with chess960 among its vars. */
#define UFSF                                                                    \
	"G uci", "E id name Fairy-Stockfish 11.1 LB 64",                        \
		"E option name UCI_Variant type combo default chess var chess " \
		"var chess960 var capablanca var caparandom",                   \
		"E option name UCI_Chess960 type check default false",          \
		"E uciok"

#define XB_HELLO "G xboard", "G protover 2"
#define XB_FEAT                                                                \
	"E feature setboard=1 usermove=1 variants=\"normal,fischerandom,"      \
	"capablanca,caparandom\" done=1"
#define XB_FEAT_OO0                                                            \
	"E feature setboard=1 usermove=1 oocastle=0 variants=\"normal,"        \
	"fischerandom,capablanca,caparandom\" done=1"
/* Fischer Random after setboard P960 (XBoard sends file letters). */
#define XFRC XB_HELLO, XB_FEAT, "G new", "G variant fischerandom", "G force"
#define XFRC_OO0                                                               \
	XB_HELLO, XB_FEAT_OO0, "G new", "G variant fischerandom", "G force"
#define XFRC_P960 XFRC, "G setboard " P960 " w FBfb - 6 8"
#define XFRC_OO0_P960 XFRC_OO0, "G setboard " P960 " w FBfb - 6 8"
#define XNORMAL XB_HELLO, XB_FEAT, "G new", "G force"
#define XNORMAL_ITAL XNORMAL, "G setboard " ITAL " w KQkq - 1 5"
#define XCAPA XB_HELLO, XB_FEAT, "G new", "G variant capablanca", "G force"
#define XCAPA_POS XCAPA, "G setboard " CAPAPOS " w JAja - 6 5"
#define XCRC XB_HELLO, XB_FEAT, "G new", "G variant caparandom", "G force"
#define XCRC_OO0                                                               \
	XB_HELLO, XB_FEAT_OO0, "G new", "G variant caparandom", "G force"
#define XCRC_POS XCRC, "G setboard " CRCPOS " w JBjb - 0 12"
#define XCRC_OO0_POS XCRC_OO0, "G setboard " CRCPOS " w JBjb - 0 12"

/* Config-file options: set, forced, hidden. */
static const struct fb_engine_option cfg_opts[] = {
	{"Hash", "256", FB_OPT_SET},
	{"Threads", "1", FB_OPT_SET | FB_OPT_FORCED},
	{"Ponder", NULL, FB_OPT_HIDDEN},
};
#define CFG .options = cfg_opts, .noptions = N_ELEMS(cfg_opts)

/* ---- rows ---- */

struct row {
	const char *name;
	char proto;                  /* 'U' uci, 'X' xboard */
	enum fb_notation engine_fen; /* default FB_XFEN, as the bridge */
	bool gui_xfen;               /* default: Shredder-FEN to the GUI */
	enum fb_castle_notation gui_castling;    /* default FB_CASTLE_AUTO */
	enum fb_castle_notation engine_castling; /* default FB_CASTLE_AUTO */
	const struct fb_engine_option *options;
	size_t noptions;
	const char *idname;       /* fb_filter_options.name */
	const char *const *setup; /* "G ..." / "E ...", NULL-ended */
	char dir;                 /* 'G' or 'E': the line under test */
	const char *in;           /* with its terminator */
	const char *want;         /* exact bytes toward the peer */
	const char *reply;        /* exact bytes back, or NULL: none */
	bool fen_fixed; /* --engine-fen given: the quirk table may not pick */
};

#define U .proto = 'U'
#define X .proto = 'X'

static const struct row uci_rows[] = {
	/* -- setoption UCI_Chess960, the faked option, config options -- */
	{"uci setoption True sent as true", U, .setup = SETUP(USTD), .dir = 'G',
	 .in = "setoption name UCI_Chess960 value True\n",
	 .want = "setoption name UCI_Chess960 value true\n"},
	{"uci setoption TRUE sent as true", U, .setup = SETUP(USTD), .dir = 'G',
	 .in = "setoption name UCI_Chess960 value TRUE\n",
	 .want = "setoption name UCI_Chess960 value true\n"},
	{"uci setoption False sent as false", U, .setup = SETUP(USTD),
	 .dir = 'G', .in = "setoption name UCI_Chess960 value False\n",
	 .want = "setoption name UCI_Chess960 value false\n"},
	{"uci setoption true unchanged", U, .setup = SETUP(USTD), .dir = 'G',
	 .in = "setoption name UCI_Chess960 value true\n",
	 .want = "setoption name UCI_Chess960 value true\n"},
	{"uci setoption True CRLF keeps CRLF", U, .setup = SETUP(USTD),
	 .dir = 'G', .in = "setoption name UCI_Chess960 value True\r\n",
	 .want = "setoption name UCI_Chess960 value true\r\n"},
	/* The engine listed no UCI_Chess960: fenbridge adds it before uciok. */
	{"uci fake option injected before uciok", U,
	 .setup = SETUP(
		 "G uci", "E id name Toga II 3.0",
		 "E option name Hash type spin default 16 min 1 max 1024"),
	 .dir = 'E', .in = "uciok\n", .want = FAKE_OPTION "uciok\n"},
	{"uci no fake option for an engine that has it", U,
	 .setup = SETUP("G uci", "E id name Stockfish 15.1",
			"E option name UCI_Chess960 type check default false"),
	 .dir = 'E', .in = "uciok\n", .want = "uciok\n"},
	{"uci setoption for the faked option swallowed", U,
	 .setup = SETUP("G uci", "E id name Toga II 3.0", "E uciok"),
	 .dir = 'G', .in = "setoption name UCI_Chess960 value true\n",
	 .want = ""},
	{"uci setoption false for the faked option swallowed", U,
	 .setup = SETUP(UFAKE), .dir = 'G',
	 .in = "setoption name UCI_Chess960 value false\n", .want = ""},
	{"uci other setoption passes for a faked engine", U,
	 .setup = SETUP(UFAKE), .dir = 'G',
	 .in = "setoption name Hash value 64\n",
	 .want = "setoption name Hash value 64\n"},
	/* Config options are sent to the engine (reply) at uciok, in order. */
	{"uci config options sent at uciok", U, CFG,
	 .setup = SETUP("G uci",
			"E option name UCI_Chess960 type check default false"),
	 .dir = 'E', .in = "uciok\n", .want = "uciok\n",
	 .reply = "setoption name Hash value 256\n"
		  "setoption name Threads value 1\n"},
	{"uci config options and fake option at uciok", U, CFG,
	 .setup = SETUP("G uci"), .dir = 'E', .in = "uciok\n",
	 .want = FAKE_OPTION "uciok\n",
	 .reply = "setoption name Hash value 256\n"
		  "setoption name Threads value 1\n"},
	{"uci config-hidden option not shown", U, CFG, .setup = SETUP("G uci"),
	 .dir = 'E', .in = "option name Ponder type check default false\n",
	 .want = ""},
	/* fb_filter_option matches option names in any case (filter.h). */
	{"uci config-hidden option any case", U, CFG, .setup = SETUP("G uci"),
	 .dir = 'E', .in = "option name ponder type check default false\n",
	 .want = ""},
	{"uci config option not hidden is shown", U, CFG,
	 .setup = SETUP("G uci"), .dir = 'E',
	 .in = "option name Hash type spin default 16 min 1 max 33554432\n",
	 .want = "option name Hash type spin default 16 min 1 max 33554432\n"},
	{"uci forced option: GUI setoption dropped", U, CFG,
	 .setup = SETUP(USTD), .dir = 'G',
	 .in = "setoption name Threads value 4\n", .want = ""},
	{"uci set (not forced) option: GUI setoption passes", U, CFG,
	 .setup = SETUP(USTD), .dir = 'G',
	 .in = "setoption name Hash value 64\n",
	 .want = "setoption name Hash value 64\n"},
	{"uci id name replaced by config name", U, .idname = "My Engine 960",
	 .setup = SETUP("G uci"), .dir = 'E', .in = "id name Stockfish 15.1\n",
	 .want = "id name My Engine 960\n"},
	{"uci id name replaced keeps CRLF", U, .idname = "My Engine 960",
	 .setup = SETUP("G uci"), .dir = 'E',
	 .in = "id name Stockfish 15.1\r\n",
	 .want = "id name My Engine 960\r\n"},
	{"uci id author untouched by config name", U, .idname = "My Engine 960",
	 .setup = SETUP("G uci"), .dir = 'E',
	 .in = "id author the Stockfish developers\n",
	 .want = "id author the Stockfish developers\n"},
	{"uci id name kept without config name", U, .setup = SETUP("G uci"),
	 .dir = 'E', .in = "id name Stockfish 15.1\n",
	 .want = "id name Stockfish 15.1\n"},
	/* The engine's var list spells the variant; crc is an alias. */
	{"uci UCI_Variant alias mapped to the engine's name", U,
	 .setup = SETUP("G uci",
			"E option name UCI_Variant type combo default chess "
			"var chess var capablanca var caparandom",
			"E uciok"),
	 .dir = 'G', .in = "setoption name UCI_Variant value crc\n",
	 .want = "setoption name UCI_Variant value caparandom\n"},

	/* -- position startpos ... moves -- */
	{"uci startpos KxR to a faked engine becomes king move", U,
	 .setup = SETUP(UFAKE), .dir = 'G', .in = ITALIAN " e1h1\n",
	 .want = ITALIAN " e1g1\n"},
	{"uci startpos king move to a faked engine unchanged", U,
	 .setup = SETUP(UFAKE), .dir = 'G', .in = ITALIAN " e1g1\n",
	 .want = ITALIAN " e1g1\n"},
	{"uci startpos both queen-side KxR to a faked engine", U,
	 .setup = SETUP(UFAKE), .dir = 'G', .in = QGD " e1a1 e8a8\n",
	 .want = QGD " e1c1 e8c8\n"},
	{"uci startpos KxR to a Chess960 engine unchanged", U,
	 .setup = SETUP(U960), .dir = 'G', .in = ITALIAN " e1h1\n",
	 .want = ITALIAN " e1h1\n"},
	/* Recognition ignores the GUI's declared notation: e1g1 is castling. */
	{"uci startpos king move to a Chess960 engine becomes KxR", U,
	 .setup = SETUP(U960), .dir = 'G', .in = ITALIAN " e1g1\n",
	 .want = ITALIAN " e1h1\n"},
	{"uci startpos queen-side king moves to a Chess960 engine", U,
	 .setup = SETUP(U960), .dir = 'G', .in = QGD " e1c1 e8c8\n",
	 .want = QGD " e1a1 e8a8\n"},
	{"uci startpos standard both sides unchanged", U, .setup = SETUP(USTD),
	 .dir = 'G', .in = ITALIAN " e1g1\n", .want = ITALIAN " e1g1\n"},
	/* Nibbler writes KxR in standard chess; the engine is not in 960. */
	{"uci startpos KxR from a non-960 GUI to king notation", U,
	 .setup = SETUP(USTD), .dir = 'G', .in = ITALIAN " e1h1\n",
	 .want = ITALIAN " e1g1\n"},
	{"uci startpos KxR CRLF", U, .setup = SETUP(UFAKE), .dir = 'G',
	 .in = ITALIAN " e1h1\r\n", .want = ITALIAN " e1g1\r\n"},
	{"uci startpos moves after castling are kept", U, .setup = SETUP(UFAKE),
	 .dir = 'G', .in = ITALIAN " e1h1 f8c5 d2d3\n",
	 .want = ITALIAN " e1g1 f8c5 d2d3\n"},
	/* The line extends the previous one: the cached edit is kept. */
	{"uci position extending the last one keeps its castle edit", U,
	 .setup = SETUP(UFAKE, "G " ITALIAN " e1h1"), .dir = 'G',
	 .in = ITALIAN " e1h1 f8c5\n", .want = ITALIAN " e1g1 f8c5\n"},
	{"uci position extended twice, second castle by black", U,
	 .setup = SETUP(UFAKE, "G " ITALIAN " e1h1", "G " ITALIAN " e1h1 f8c5"),
	 .dir = 'G', .in = ITALIAN " e1h1 f8c5 d2d3 e8h8\n",
	 .want = ITALIAN " e1g1 f8c5 d2d3 e8g8\n"},
	/* Chess960 turned on between two lines: the cache is not reused. */
	{"uci position after the GUI turned Chess960 on", U,
	 .setup = SETUP(USTD, "G " ITALIAN " e1g1",
			"G setoption name UCI_Chess960 value true"),
	 .dir = 'G', .in = ITALIAN " e1g1\n", .want = ITALIAN " e1h1\n"},
	/* UCI_Variant capablanca: startpos is 10x8, king f1 castles to i1. */
	{"uci capablanca startpos KxR to king notation", U,
	 .setup = SETUP("G uci",
			"E option name UCI_Variant type combo default chess "
			"var chess var capablanca",
			"E option name UCI_Chess960 type check default false",
			"E uciok",
			"G setoption name UCI_Variant value capablanca"),
	 .dir = 'G',
	 .in = "position startpos moves f2f4 f7f5 h1g3 h8g6 i1h3 i8h6 g1e3 "
	       "g8e6 f1j1\n",
	 .want = "position startpos moves f2f4 f7f5 h1g3 h8g6 i1h3 i8h6 g1e3 "
		 "g8e6 f1i1\n"},

	/* -- position fen ... moves -- */
	{"uci python-chess Shredder start + KxR to a Chess960 engine", U,
	 .setup = SETUP(U960), .dir = 'G',
	 .in = "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha "
	       "- 0 1 moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1\n",
	 .want = "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w "
		 "KQkq - 0 1 moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1\n"},
	{"uci python-chess Shredder start + KxR to a faked engine", U,
	 .setup = SETUP(UFAKE), .dir = 'G',
	 .in = "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha "
	       "- 0 1 moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1\n",
	 .want = "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w "
		 "KQkq - 0 1 moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1\n"},
	{"uci fen Shredder ITAL + KxR to a faked engine", U,
	 .setup = SETUP(UFAKE), .dir = 'G',
	 .in = "position fen " ITAL " w HAha - 1 5 moves e1h1\n",
	 .want = "position fen " ITAL " w KQkq - 1 5 moves e1g1\n"},
	{"uci fen Shredder->X-FEN HFhf", U, .setup = SETUP(U960), .dir = 'G',
	 .in = "position fen " BQNB " w HFhf - 2 9\n",
	 .want = "position fen " BQNB " w KQkq - 2 9\n"},
	{"uci fen X-FEN->Shredder HFhf", U, .engine_fen = FB_SHREDDER,
	 .setup = SETUP(U960), .dir = 'G',
	 .in = "position fen " BQNB " w KQkq - 2 9\n",
	 .want = "position fen " BQNB " w HFhf - 2 9\n"},
	/* Inner rook g1: X-FEN keeps G; black's outermost g8 rook is k. */
	{"uci fen inner rook Gga->Gkq, e1g1 is KxR already", U,
	 .setup = SETUP(U960), .dir = 'G',
	 .in = "position fen " XEX " w Gga - 4 11 moves e1g1\n",
	 .want = "position fen " XEX " w Gkq - 4 11 moves e1g1\n"},
	{"uci fen inner rook Gkq->Gga to a Shredder engine", U,
	 .engine_fen = FB_SHREDDER, .setup = SETUP(U960), .dir = 'G',
	 .in = "position fen " XEX " w Gkq - 4 11 moves e1g1\n",
	 .want = "position fen " XEX " w Gga - 4 11 moves e1g1\n"},
	{"uci fen Chess960 KxR to a Chess960 engine unchanged", U,
	 .setup = SETUP(U960), .dir = 'G',
	 .in = "position fen " P960 " w FBfb - 6 8 moves c1f1 c8b8\n",
	 .want = "position fen " P960 " w KQkq - 6 8 moves c1f1 c8b8\n"},
	/* c1g1: king two files toward its h-side castling square = castle. */
	{"uci fen Chess960 king move to a Chess960 engine becomes KxR", U,
	 .setup = SETUP(U960), .dir = 'G',
	 .in = "position fen " P960 " w FBfb - 6 8 moves c1g1\n",
	 .want = "position fen " P960 " w KQkq - 6 8 moves c1f1\n"},
	{"uci fen Chess960 to a Shredder Chess960 engine", U,
	 .engine_fen = FB_SHREDDER, .setup = SETUP(U960), .dir = 'G',
	 .in = "position fen " P960 " w KQkq - 6 8 moves c1f1 c8g8\n",
	 .want = "position fen " P960 " w FBfb - 6 8 moves c1f1 c8f8\n"},
	/* Not a standard castle (king c1, rook f1): an engine without
	 * Chess960 would read c1g1 as a king move, so it gets the position
	 * after the castle (king g1, rook f1), every right standard FEN
	 * cannot express dropped (black's king is on c8), and the GUI is
	 * told once. */
	{"uci fen Chess960 KxR to a faked engine: re-anchored", U,
	 .setup = SETUP(UFAKE), .dir = 'G',
	 .in = "position fen " P960 " w FBfb - 6 8 moves c1f1\n",
	 .want = "position fen 1rk2r2/ppp1qppp/2nbbn2/3pp3/3PP3/2NBBN2/"
		 "PPP1QPPP/1R3RK1 b - - 7 8\n",
	 .reply = NO960_REPLY},
	/* c1b1 leaves the king on c1 (rook to d1): no king move says it. */
	{"uci fen Chess960 a-side KxR to a faked engine: re-anchored", U,
	 .setup = SETUP(UFAKE), .dir = 'G',
	 .in = "position fen " P960 " w FBfb - 6 8 moves c1b1 b7b6\n",
	 .want = "position fen 1rk2r2/ppp1qppp/2nbbn2/3pp3/3PP3/2NBBN2/"
		 "PPP1QPPP/2KR1R2 b - - 7 8 moves b7b6\n",
	 .reply = NO960_REPLY},
	/* After a re-anchor the line is fenbridge's own, spelled from its
	 * tokens: one blank each, whatever the GUI's; tokens that are no
	 * moves go on as they came (the fuzz finding
	 * reanchored-castle-junk-blanks-differ-with-cache). */
	{"uci re-anchored: tokens after the castle one blank apart", U,
	 .setup = SETUP(UFAKE), .dir = 'G',
	 .in = "position fen " P960 " w FBfb - 6 8 moves c1b1  b7b6\tw  - "
	       " 0 \n",
	 .want = "position fen 1rk2r2/ppp1qppp/2nbbn2/3pp3/3PP3/2NBBN2/"
		 "PPP1QPPP/2KR1R2 b - - 7 8 moves b7b6 w - 0\n",
	 .reply = NO960_REPLY},
	/* The same line read through the position cache: the line before
	 * it (its start, with a trailing blank) and then the whole. */
	{"uci re-anchored through the position cache: the same bytes", U,
	 .setup = SETUP(UFAKE, "G position fen " P960 " w FBfb - 6 8 moves "
			       "c1b1 "),
	 .dir = 'G',
	 .in = "position fen " P960 " w FBfb - 6 8 moves c1b1  b7b6\tw  - "
	       " 0 \n",
	 .want = "position fen 1rk2r2/ppp1qppp/2nbbn2/3pp3/3PP3/2NBBN2/"
		 "PPP1QPPP/2KR1R2 b - - 7 8 moves b7b6 w - 0\n"},
	/* Arena: engine has the option, GUI never set it: fenbridge sets it
	 * first, then the engine gets KxR. */
	{"uci Arena Chess960 fen: setoption injected, king move -> KxR", U,
	 .setup = SETUP(USTD), .dir = 'G',
	 .in = "position fen " P960 " w FBfb - 6 8 moves c1g1\n",
	 .want = "setoption name UCI_Chess960 value true\n"
		 "position fen " P960 " w KQkq - 6 8 moves c1f1\n"},
	{"uci forced engine KxR from a standard GUI", U,
	 .engine_castling = FB_CASTLE_KXR, .setup = SETUP(USTD), .dir = 'G',
	 .in = ITALIAN " e1g1\n", .want = ITALIAN " e1h1\n"},

	/* -- go searchmoves -- */
	{"uci go searchmoves KxR to a faked engine", U,
	 .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'G',
	 .in = "go searchmoves e1h1 d2d3 wtime 1000\n",
	 .want = "go searchmoves e1g1 d2d3 wtime 1000\n"},
	{"uci go searchmoves king move to a Chess960 engine", U,
	 .setup = SETUP(U960, "G " GIUOCO), .dir = 'G',
	 .in = "go searchmoves e1g1 d2d3\n",
	 .want = "go searchmoves e1h1 d2d3\n"},
	/* Each searchmove is from the current position: e1f1 is a king step. */
	{"uci go searchmoves after other tokens", U,
	 .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'G',
	 .in = "go wtime 300000 btime 300000 searchmoves e1h1 e1f1\n",
	 .want = "go wtime 300000 btime 300000 searchmoves e1g1 e1f1\n"},
	{"uci go searchmoves queen-side", U, .setup = SETUP(UFAKE, "G " QGD),
	 .dir = 'G', .in = "go searchmoves e1a1 a2a3\n",
	 .want = "go searchmoves e1c1 a2a3\n"},
	/* The engine cannot read that castle: it is left out (c1g1 would be
	 * another move to it). */
	{"uci go searchmoves Chess960 to a faked engine", U,
	 .setup = SETUP(UFAKE, "G position fen " P960 " w FBfb - 6 8"),
	 .dir = 'G', .in = "go searchmoves c1f1 c1d1\n",
	 .want = "go searchmoves  c1d1\n"},
	{"uci go without searchmoves unchanged", U,
	 .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'G', .in = "go infinite\n",
	 .want = "go infinite\n"},

	/* -- bestmove / ponder -- */
	{"uci bestmove+ponder king moves to a 960 GUI", U,
	 .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'E',
	 .in = "bestmove e1g1 ponder e8g8\n",
	 .want = "bestmove e1h1 ponder e8h8\n"},
	{"uci bestmove king move to a 960 GUI", U,
	 .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'E',
	 .in = "bestmove e1g1\n", .want = "bestmove e1h1\n"},
	/* The ponder move is read after the bestmove is played. */
	{"uci ponder castle after a quiet bestmove", U,
	 .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'E',
	 .in = "bestmove d2d3 ponder e8g8\n",
	 .want = "bestmove d2d3 ponder e8h8\n"},
	{"uci bestmove+ponder without castling unchanged", U,
	 .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'E',
	 .in = "bestmove d2d3 ponder d7d6\n",
	 .want = "bestmove d2d3 ponder d7d6\n"},
	{"uci bestmove (none) unchanged", U, .setup = SETUP(UFAKE, "G " GIUOCO),
	 .dir = 'E', .in = "bestmove (none)\n", .want = "bestmove (none)\n"},
	{"uci bestmove queen-side king moves to a 960 GUI", U,
	 .setup = SETUP(UFAKE, "G " QGD), .dir = 'E',
	 .in = "bestmove e1c1 ponder e8c8\n",
	 .want = "bestmove e1a1 ponder e8a8\n"},
	{"uci bestmove KxR both sides 960 unchanged", U,
	 .setup = SETUP(U960, "G " GIUOCO), .dir = 'E',
	 .in = "bestmove e1h1 ponder e8h8\n",
	 .want = "bestmove e1h1 ponder e8h8\n"},
	{"uci bestmove standard both sides unchanged", U,
	 .setup = SETUP(USTD, "G " GIUOCO), .dir = 'E', .in = "bestmove e1g1\n",
	 .want = "bestmove e1g1\n"},
	{"uci bestmove to a GUI forced to O-O", U, .gui_castling = FB_CASTLE_OO,
	 .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'E',
	 .in = "bestmove e1g1 ponder e8g8\n",
	 .want = "bestmove O-O ponder O-O\n"},
	{"uci bestmove from an engine forced to KxR to a standard GUI", U,
	 .engine_castling = FB_CASTLE_KXR, .setup = SETUP(USTD, "G " GIUOCO),
	 .dir = 'E', .in = "bestmove e1h1 ponder e8h8\n",
	 .want = "bestmove e1g1 ponder e8g8\n"},
	{"uci bestmove Chess960 king moves from a faked engine", U,
	 .setup = SETUP(UFAKE, "G position fen " P960 " w FBfb - 6 8"),
	 .dir = 'E', .in = "bestmove c1g1 ponder c8g8\n",
	 .want = "bestmove c1f1 ponder c8f8\n"},
	/* Arena: after the injected setoption the engine writes KxR, the GUI
	 * (which never set UCI_Chess960) reads king moves. */
	{"uci Arena bestmove KxR to king move", U,
	 .setup = SETUP(USTD, "G position fen " P960 " w FBfb - 6 8"),
	 .dir = 'E', .in = "bestmove c1f1\n", .want = "bestmove c1g1\n"},
	{"uci Arena bestmove a-side KxR cannot be a king move", U,
	 .setup = SETUP(USTD, "G position fen " P960 " w FBfb - 6 8"),
	 .dir = 'E', .in = "bestmove c1b1\n", .want = "bestmove c1b1\n"},
	{"uci bestmove after black to move", U,
	 .setup = SETUP(UFAKE, "G " GIUOCO " e1h1"), .dir = 'E',
	 .in = "bestmove e8g8 ponder d2d3\n",
	 .want = "bestmove e8h8 ponder d2d3\n"},

	/* -- info -- */
	{"uci info pv castles of both sides", U,
	 .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'E',
	 .in = "info depth 12 seldepth 15 multipv 1 score cp 35 nodes 12345 "
	       "nps 1000000 time 12 pv e1g1 e8g8 d2d3 d7d6\n",
	 .want = "info depth 12 seldepth 15 multipv 1 score cp 35 nodes 12345 "
		 "nps 1000000 time 12 pv e1h1 e8h8 d2d3 d7d6\n"},
	/* The pv is played: after e1f1 white has no rights, f1g1 is a step. */
	{"uci info pv played move by move", U,
	 .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'E',
	 .in = "info depth 9 pv e1f1 e8g8 f1g1\n",
	 .want = "info depth 9 pv e1f1 e8h8 f1g1\n"},
	{"uci info currmove", U, .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'E',
	 .in = "info depth 5 currmove e1g1 currmovenumber 3\n",
	 .want = "info depth 5 currmove e1h1 currmovenumber 3\n"},
	{"uci info currmove not castling unchanged", U,
	 .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'E',
	 .in = "info depth 5 currmove d2d3 currmovenumber 1\n",
	 .want = "info depth 5 currmove d2d3 currmovenumber 1\n"},
	/* A refutation is a line: black's castle follows white's d2d3. */
	{"uci info refutation", U, .setup = SETUP(UFAKE, "G " GIUOCO),
	 .dir = 'E', .in = "info refutation d2d3 e8g8\n",
	 .want = "info refutation d2d3 e8h8\n"},
	{"uci info currline without cpunr", U,
	 .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'E',
	 .in = "info currline e1g1 e8g8\n",
	 .want = "info currline e1h1 e8h8\n"},
	{"uci info currline with cpunr", U, .setup = SETUP(UFAKE, "G " GIUOCO),
	 .dir = 'E', .in = "info currline 1 e1g1 e8g8\n",
	 .want = "info currline 1 e1h1 e8h8\n"},
	{"uci info string untouched", U, .setup = SETUP(UFAKE, "G " GIUOCO),
	 .dir = 'E', .in = "info string pv e1g1 e8g8\n",
	 .want = "info string pv e1g1 e8g8\n"},
	{"uci info string after other fields untouched", U,
	 .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'E',
	 .in = "info depth 3 string currmove e1g1\n",
	 .want = "info depth 3 string currmove e1g1\n"},
	/* Each field starts from the current position again. */
	{"uci info currmove and pv on one line", U,
	 .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'E',
	 .in = "info depth 10 currmove e1g1 currmovenumber 1 pv e1g1 e8g8\n",
	 .want = "info depth 10 currmove e1h1 currmovenumber 1 pv e1h1 e8h8\n"},
	{"uci info pv KxR both sides 960 unchanged", U,
	 .setup = SETUP(U960, "G " GIUOCO), .dir = 'E',
	 .in = "info depth 20 score cp 30 pv e1h1 e8h8\n",
	 .want = "info depth 20 score cp 30 pv e1h1 e8h8\n"},
	{"uci info pv queen-side", U, .setup = SETUP(UFAKE, "G " QGD),
	 .dir = 'E', .in = "info depth 7 pv e1c1 e8c8 a2a3\n",
	 .want = "info depth 7 pv e1a1 e8a8 a2a3\n"},
	{"uci info pv Chess960 from a faked engine", U,
	 .setup = SETUP(UFAKE, "G position fen " P960 " w FBfb - 6 8"),
	 .dir = 'E', .in = "info depth 8 score cp 10 pv c1g1 c8g8 d3b5\n",
	 .want = "info depth 8 score cp 10 pv c1f1 c8f8 d3b5\n"},
	{"uci info pv CRLF", U, .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'E',
	 .in = "info depth 4 pv e1g1 e8g8\r\n",
	 .want = "info depth 4 pv e1h1 e8h8\r\n"},
	{"uci info pv to a GUI forced to O-O", U, .gui_castling = FB_CASTLE_OO,
	 .setup = SETUP(UFAKE, "G " GIUOCO), .dir = 'E',
	 .in = "info depth 4 pv e1g1 e8g8 d2d3\n",
	 .want = "info depth 4 pv O-O O-O d2d3\n"},
};

static const struct row xboard_rows[] = {
	/* -- fischerandom, O-O toward the GUI -- */
	{"xb frc setboard Shredder->X-FEN", X, .setup = SETUP(XFRC), .dir = 'G',
	 .in = "setboard " P960 " w FBfb - 6 8\n",
	 .want = "setboard " P960 " w KQkq - 6 8\n"},
	{"xb frc setboard inner rook Gga->Gkq", X, .setup = SETUP(XFRC),
	 .dir = 'G', .in = "setboard " XEX " w Gga - 4 11\n",
	 .want = "setboard " XEX " w Gkq - 4 11\n"},
	{"xb frc setboard HFhf->KQkq", X, .setup = SETUP(XFRC), .dir = 'G',
	 .in = "setboard " BQNB " w HFhf - 2 9\n",
	 .want = "setboard " BQNB " w KQkq - 2 9\n"},
	{"xb frc setboard X-FEN->Shredder engine", X, .engine_fen = FB_SHREDDER,
	 .setup = SETUP(XFRC), .dir = 'G',
	 .in = "setboard " XEX " w Gkq - 4 11\n",
	 .want = "setboard " XEX " w Gga - 4 11\n"},
	/* The engine side gets castling as XBoard wrote it. */
	{"xb frc usermove O-O unchanged", X, .setup = SETUP(XFRC_P960),
	 .dir = 'G', .in = "usermove O-O\n", .want = "usermove O-O\n"},
	{"xb frc usermove O-O-O unchanged", X, .setup = SETUP(XFRC_P960),
	 .dir = 'G', .in = "usermove O-O-O\n", .want = "usermove O-O-O\n"},
	{"xb frc usermove KxR unchanged", X, .setup = SETUP(XFRC_P960),
	 .dir = 'G', .in = "usermove c1f1\n", .want = "usermove c1f1\n"},
	{"xb frc usermove king move unchanged", X, .setup = SETUP(XFRC_P960),
	 .dir = 'G', .in = "usermove c1g1\n", .want = "usermove c1g1\n"},
	{"xb frc bare O-O unchanged", X,
	 .setup = SETUP(XB_HELLO, "E feature setboard=1 done=1", "G new",
			"G variant fischerandom", "G force",
			"G setboard " P960 " w FBfb - 6 8"),
	 .dir = 'G', .in = "O-O-O\n", .want = "O-O-O\n"},
	{"xb frc engine move KxR to O-O", X,
	 .setup = SETUP(XFRC_P960, "G usermove O-O"), .dir = 'E',
	 .in = "move c8f8\n", .want = "move O-O\n"},
	{"xb frc engine move a-side KxR to O-O-O", X,
	 .setup = SETUP(XFRC_P960, "G usermove O-O"), .dir = 'E',
	 .in = "move c8b8\n", .want = "move O-O-O\n"},
	{"xb frc engine move king move to O-O", X,
	 .setup = SETUP(XFRC_P960, "G usermove O-O"), .dir = 'E',
	 .in = "move c8g8\n", .want = "move O-O\n"},
	{"xb frc engine move O-O-O unchanged", X,
	 .setup = SETUP(XFRC_P960, "G usermove O-O"), .dir = 'E',
	 .in = "move O-O-O\n", .want = "move O-O-O\n"},
	{"xb frc engine move not castling unchanged", X,
	 .setup = SETUP(XFRC_P960, "G usermove O-O"), .dir = 'E',
	 .in = "move h7h6\n", .want = "move h7h6\n"},
	{"xb frc engine move O-O as white", X, .setup = SETUP(XFRC_P960),
	 .dir = 'E', .in = "move c1f1\n", .want = "move O-O\n"},
	{"xb frc GUI forced to KxR", X, .gui_castling = FB_CASTLE_KXR,
	 .setup = SETUP(XFRC_P960, "G usermove O-O"), .dir = 'E',
	 .in = "move O-O\n", .want = "move c8f8\n"},
	/* --engine-castling=kxr (Fairy-Stockfish rejects O-O). */
	{"xb frc engine forced to KxR", X, .engine_castling = FB_CASTLE_KXR,
	 .setup = SETUP(XFRC_P960), .dir = 'G', .in = "usermove O-O\n",
	 .want = "usermove c1f1\n"},
	{"xb frc engine forced to king moves", X,
	 .engine_castling = FB_CASTLE_KING, .setup = SETUP(XFRC_P960),
	 .dir = 'G', .in = "usermove O-O\n", .want = "usermove c1g1\n"},
	{"xb frc engine forced to king moves, O-O-O cannot", X,
	 .engine_castling = FB_CASTLE_KING, .setup = SETUP(XFRC_P960),
	 .dir = 'G', .in = "usermove O-O-O\n", .want = "usermove O-O-O\n"},
	/* The inner-rook castle is e1g1 in KxR and king notation alike. */
	{"xb frc inner rook O-O to a king-notation engine", X,
	 .engine_castling = FB_CASTLE_KING,
	 .setup = SETUP(XFRC, "G setboard " XEX " w Gga - 4 11"), .dir = 'G',
	 .in = "usermove O-O\n", .want = "usermove e1g1\n"},

	/* -- feature oocastle=0: king takes rook both ways -- */
	{"xb feature oocastle=0 passes", X, .setup = SETUP(XB_HELLO),
	 .dir = 'E', .in = "feature oocastle=0 done=1\n",
	 .want = "feature oocastle=0 done=1\n"},
	{"xb oocastle=0 usermove O-O to KxR", X, .setup = SETUP(XFRC_OO0_P960),
	 .dir = 'G', .in = "usermove O-O\n", .want = "usermove c1f1\n"},
	{"xb oocastle=0 usermove O-O-O to KxR", X,
	 .setup = SETUP(XFRC_OO0_P960), .dir = 'G', .in = "usermove O-O-O\n",
	 .want = "usermove c1b1\n"},
	{"xb oocastle=0 usermove KxR unchanged", X,
	 .setup = SETUP(XFRC_OO0_P960), .dir = 'G', .in = "usermove c1f1\n",
	 .want = "usermove c1f1\n"},
	{"xb oocastle=0 usermove king move to KxR", X,
	 .setup = SETUP(XFRC_OO0_P960), .dir = 'G', .in = "usermove c1g1\n",
	 .want = "usermove c1f1\n"},
	{"xb oocastle=0 bare O-O to KxR", X,
	 .setup = SETUP(XB_HELLO, "E feature setboard=1 oocastle=0 done=1",
			"G new", "G variant fischerandom", "G force",
			"G setboard " P960 " w FBfb - 6 8"),
	 .dir = 'G', .in = "O-O\n", .want = "c1f1\n"},
	{"xb oocastle=0 engine move KxR unchanged", X,
	 .setup = SETUP(XFRC_OO0_P960, "G usermove c1f1"), .dir = 'E',
	 .in = "move c8f8\n", .want = "move c8f8\n"},
	{"xb oocastle=0 engine move O-O-O to KxR", X,
	 .setup = SETUP(XFRC_OO0_P960, "G usermove c1f1"), .dir = 'E',
	 .in = "move O-O-O\n", .want = "move c8b8\n"},
	{"xb oocastle=0 engine move king move to KxR", X,
	 .setup = SETUP(XFRC_OO0_P960, "G usermove c1f1"), .dir = 'E',
	 .in = "move c8g8\n", .want = "move c8f8\n"},
	/* oocastle=0 matters in random variants only: normal is king moves. */
	{"xb oocastle=0 in normal chess: engine KxR to king move", X,
	 .setup = SETUP(XB_HELLO, XB_FEAT_OO0, "G new", "G force",
			"G setboard " ITAL " w KQkq - 1 5"),
	 .dir = 'E', .in = "move e1h1\n", .want = "move e1g1\n"},

	/* -- undo / remove -- */
	/* After O-O it is black's turn: O-O-O is black's a-side castle. */
	{"xb oocastle=0 second castle is black's", X,
	 .setup = SETUP(XFRC_OO0_P960, "G usermove O-O"), .dir = 'G',
	 .in = "usermove O-O-O\n", .want = "usermove c8b8\n"},
	{"xb undo: white castles again", X,
	 .setup = SETUP(XFRC_OO0_P960, "G usermove O-O", "G undo"), .dir = 'G',
	 .in = "usermove O-O-O\n", .want = "usermove c1b1\n"},
	{"xb remove: two plies back", X,
	 .setup = SETUP(XFRC_OO0_P960, "G usermove O-O", "E move O-O",
			"G remove"),
	 .dir = 'G', .in = "usermove O-O-O\n", .want = "usermove c1b1\n"},
	{"xb normal undo: white's right is back", X,
	 .setup = SETUP(XNORMAL_ITAL, "G usermove e1g1", "G undo"), .dir = 'E',
	 .in = "move e1h1\n", .want = "move e1g1\n"},
	/* Without undo e1 is empty: e1h1 is no castle (and no move). */
	{"xb normal without undo black castles", X,
	 .setup = SETUP(XNORMAL_ITAL, "G usermove e1g1"), .dir = 'E',
	 .in = "move e8h8\n", .want = "move e8g8\n"},

	/* -- normal chess, new -- */
	{"xb normal usermove king move unchanged", X,
	 .setup = SETUP(XNORMAL_ITAL), .dir = 'G', .in = "usermove e1g1\n",
	 .want = "usermove e1g1\n"},
	{"xb normal bare king move unchanged", X,
	 .setup = SETUP(XB_HELLO, "E feature setboard=1 done=1", "G new",
			"G force", "G setboard " ITAL " w KQkq - 1 5"),
	 .dir = 'G', .in = "e1g1\n", .want = "e1g1\n"},
	/* Fairy-Stockfish writes KxR in normal chess too. */
	{"xb normal engine KxR to king move", X, .setup = SETUP(XNORMAL_ITAL),
	 .dir = 'E', .in = "move e1h1\n", .want = "move e1g1\n"},
	{"xb normal engine O-O to king move", X, .setup = SETUP(XNORMAL_ITAL),
	 .dir = 'E', .in = "move O-O\n", .want = "move e1g1\n"},
	{"xb normal engine king move unchanged", X,
	 .setup = SETUP(XNORMAL_ITAL), .dir = 'E', .in = "move e1g1\n",
	 .want = "move e1g1\n"},
	{"xb normal from the start by moves", X,
	 .setup = SETUP(XNORMAL, "G usermove e2e4", "G usermove e7e5",
			"G usermove g1f3", "G usermove b8c6", "G usermove f1c4",
			"G usermove g8f6", "G go"),
	 .dir = 'E', .in = "move e1h1\n", .want = "move e1g1\n"},
	/* new ends fischerandom: the GUI reads king moves again. */
	{"xb new after fischerandom", X,
	 .setup = SETUP(XFRC_P960, "G new", "G force",
			"G setboard " ITAL " w KQkq - 1 5"),
	 .dir = 'E', .in = "move e1h1\n", .want = "move e1g1\n"},
	{"xb fischerandom standard-looking position still O-O", X,
	 .setup = SETUP(XFRC, "G setboard " ITAL " w HAha - 1 5"), .dir = 'E',
	 .in = "move e1g1\n", .want = "move O-O\n"},
	/* edit is not followed (doc/protocols.md, "Known limitations"). */
	{"xb edit: castling passes unchanged", X,
	 .setup = SETUP(XNORMAL_ITAL, "G edit", "G ."), .dir = 'E',
	 .in = "move e1h1\n", .want = "move e1h1\n"},

	/* -- capablanca / caparandom (10x8) -- */
	{"xb capablanca from the start by moves: KxR to king move", X,
	 .setup = SETUP(XCAPA, "G usermove f2f4", "G usermove f7f5",
			"G usermove h1g3", "G usermove h8g6", "G usermove i1h3",
			"G usermove i8h6", "G usermove g1e3", "G usermove g8e6",
			"G go"),
	 .dir = 'E', .in = "move f1j1\n", .want = "move f1i1\n"},
	{"xb capablanca setboard JAja->KQkq", X, .setup = SETUP(XCAPA),
	 .dir = 'G', .in = "setboard " CAPAPOS " w JAja - 6 5\n",
	 .want = "setboard " CAPAPOS " w KQkq - 6 5\n"},
	{"xb capablanca engine O-O to king move", X, .setup = SETUP(XCAPA_POS),
	 .dir = 'E', .in = "move O-O\n", .want = "move f1i1\n"},
	{"xb capablanca usermove king move unchanged", X,
	 .setup = SETUP(XCAPA_POS), .dir = 'G', .in = "usermove f1i1\n",
	 .want = "usermove f1i1\n"},
	{"xb capablanca engine forced to KxR", X,
	 .engine_castling = FB_CASTLE_KXR, .setup = SETUP(XCAPA_POS),
	 .dir = 'G', .in = "usermove f1i1\n", .want = "usermove f1j1\n"},
	{"xb caparandom setboard JBjb->KQkq", X, .setup = SETUP(XCRC),
	 .dir = 'G', .in = "setboard " CRCPOS " w JBjb - 0 12\n",
	 .want = "setboard " CRCPOS " w KQkq - 0 12\n"},
	{"xb caparandom engine KxR to O-O", X, .setup = SETUP(XCRC_POS),
	 .dir = 'E', .in = "move e1j1\n", .want = "move O-O\n"},
	{"xb caparandom engine king move to O-O-O", X, .setup = SETUP(XCRC_POS),
	 .dir = 'E', .in = "move e1c1\n", .want = "move O-O-O\n"},
	{"xb caparandom usermove O-O unchanged", X, .setup = SETUP(XCRC_POS),
	 .dir = 'G', .in = "usermove O-O\n", .want = "usermove O-O\n"},
	{"xb caparandom oocastle=0 usermove O-O-O to KxR", X,
	 .setup = SETUP(XCRC_OO0_POS), .dir = 'G', .in = "usermove O-O-O\n",
	 .want = "usermove e1b1\n"},
	{"xb caparandom oocastle=0 usermove O-O to KxR", X,
	 .setup = SETUP(XCRC_OO0_POS), .dir = 'G', .in = "usermove O-O\n",
	 .want = "usermove e1j1\n"},
	{"xb caparandom oocastle=0 engine king move to KxR", X,
	 .setup = SETUP(XCRC_OO0_POS), .dir = 'E', .in = "move e1i1\n",
	 .want = "move e1j1\n"},
	{"xb caparandom engine setup X-FEN->Shredder", X, .setup = SETUP(XCRC),
	 .dir = 'E',
	 .in = "setup (PNBRQKACpnbrqkac) 10x8+0_caparandom " CRCPOS
	       " w KQkq - 0 12\n",
	 .want = "setup (PNBRQKACpnbrqkac) 10x8+0_caparandom " CRCPOS
		 " w JBjb - 0 12\n"},

	/* -- engine setup, config -- */
	{"xb engine setup to a Shredder GUI", X, .setup = SETUP(XFRC),
	 .dir = 'E',
	 .in = "setup (PNBRQKpnbrqk) 8x8+0_fischerandom " P960
	       " w KQkq - 6 8\n",
	 .want = "setup (PNBRQKpnbrqk) 8x8+0_fischerandom " P960
		 " w FBfb - 6 8\n"},
	{"xb engine setup inner rook to an X-FEN GUI", X, .gui_xfen = true,
	 .setup = SETUP(XFRC), .dir = 'E', .in = "setup " XEX " w Gga - 4 11\n",
	 .want = "setup " XEX " w Gkq - 4 11\n"},
	{"xb config options sent after done=1", X, CFG,
	 .setup = SETUP(XB_HELLO), .dir = 'E',
	 .in = "feature setboard=1 usermove=1 done=1\n",
	 .want = "feature setboard=1 usermove=1 done=1\n",
	 .reply = "option Hash=256\noption Threads=1\n"},
	/* The hidden option's pair goes; the blanks around it stay. */
	{"xb config-hidden option removed from feature", X, CFG,
	 .setup = SETUP(XB_HELLO), .dir = 'E',
	 .in = "feature option=\"Ponder -check 0\" option=\"Hash -spin 16 1 "
	       "1024\"\n",
	 .want = "feature  option=\"Hash -spin 16 1 1024\"\n"},
	{"xb forced option from the GUI dropped", X, CFG,
	 .setup = SETUP(XB_HELLO, XB_FEAT), .dir = 'G',
	 .in = "option Threads=4\n", .want = ""},
	{"xb myname replaced by config name", X, .idname = "My Engine 960",
	 .setup = SETUP(XB_HELLO), .dir = 'E',
	 .in = "feature myname=\"Fairy-Stockfish 11.1\" done=1\n",
	 .want = "feature myname=\"My Engine 960\" done=1\n"},
};

/*
 * Known defects (the lead is fixing them): these rows fail on the code as
 * it is.
 */
static const struct row known_defect_rows[] = {
	/* Black to move: e1g1 is white's, no castle of the side to move. */
	{"defect: castle by the side not to move passes unchanged", U,
	 .setup = SETUP(U960), .dir = 'G',
	 .in = "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R b KQkq "
	       "- 0 1 moves e1g1\n",
	 .want = "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R b KQkq "
		 "- 0 1 moves e1g1\n"},
	/* The engine has the option and it is true: KxR passes as KxR. The
	 * GUI's setoption waited for uciok and goes first. */
	{"defect: setoption pipelined before the engine's option list", U,
	 .setup = SETUP("G uci", "G setoption name UCI_Chess960 value true",
			"E id name Stockfish 15.1",
			"E option name UCI_Chess960 type check default false",
			"E uciok"),
	 .dir = 'G',
	 .in = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1\n",
	 .want = "setoption name UCI_Chess960 value true\n"
		 "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 "
		 "e1h1\n"},
	/* Issue 17 item 8: ChessX sends a Chess960 setboard without variant
	 * fischerandom. The engine lists it: it hears the variant first
	 * (as UCI_Chess960 is set for Arena). */
	{"defect: Chess960 setboard in variant normal", X,
	 .setup = SETUP(XNORMAL), .dir = 'G',
	 .in = "setboard " P960 " w FBfb - 6 8\n",
	 .want = "variant fischerandom\nsetboard " P960 " w KQkq - 6 8\n"},
	/* From then on the game is fischerandom: the engine's KxR castle
	 * reaches the GUI as O-O. */
	{"defect: Chess960 setboard in variant normal, the engine castles", X,
	 .setup = SETUP(XNORMAL, "G setboard " P960 " w FBfb - 6 8"),
	 .dir = 'E', .in = "move c1f1\n", .want = "move O-O\n"},
	{"defect: a standard setboard in variant normal stays normal", X,
	 .setup = SETUP(XNORMAL), .dir = 'G',
	 .in = "setboard " ITAL " w KQkq - 1 5\n",
	 .want = "setboard " ITAL " w KQkq - 1 5\n"},
	{"defect: Chess960 setboard in variant capablanca (10x8)", X,
	 .setup = SETUP(XB_HELLO, XB_FEAT, "G new", "G variant capablanca",
			"G force"),
	 .dir = 'G', .in = "setboard " CRCPOS " w JBjb - 0 1\n",
	 .want = "variant caparandom\nsetboard " CRCPOS " w KQkq - 0 1\n"},
	/* Issue 17 item 7: uci, setoption and position in one burst. Before
	 * uciok the engine's Chess960 mode is not known, and e1h1 went out
	 * as e1g1, which Stockfish in Chess960 mode cannot parse (it stays
	 * in the old position). The lines wait for uciok, then go in order,
	 * the castle as king takes rook. */
	{"defect: position with a castle before uciok", U,
	 .setup = SETUP("G uci", "G setoption name UCI_Chess960 value true",
			"G position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 "
			"g8f6 e1h1",
			"E id name Stockfish 15.1",
			"E option name UCI_Chess960 type check default false",
			"E uciok"),
	 .dir = 'G', .in = "isready\n",
	 .want = "setoption name UCI_Chess960 value true\n"
		 "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 "
		 "e1h1\n"
		 "isready\n"},
	/* The same burst to an engine without UCI_Chess960 (Toga II): it
	 * gets standard notation, the setoption is kept from it. */
	{"defect: position with a castle before uciok, no Chess960", U,
	 .setup = SETUP("G uci", "G setoption name UCI_Chess960 value true",
			"G position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 "
			"g8f6 e1h1",
			"E id name Toga II 3.0", "E uciok"),
	 .dir = 'G', .in = "isready\n",
	 .want = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 "
		 "e1g1\n"
		 "isready\n"},
};

/*
 * Re-anchoring (issue: every engine plays every Chess960 game to the end).
 * An engine without Chess960 (UFAKE: Toga II) cannot read a castle with
 * the king off its e-file square or the rook off its corner: it gets the
 * position after the castle as a FEN, with only the rights standard FEN
 * can express, and the moves after it. Each shape that broke real games:
 * king stays (c1a1, g1h1), king one file (d8a8, d1c1), the king's move
 * string meaning another rook (e1f1 sent as e1g1), both notations the
 * same string (f1g1), and 10x8. Counters: a castle adds a halfmove; the
 * fullmove number grows after Black's move.
 */
static const struct row reanchor_rows[] = {
	{"reanchor: c1a1, the king stays on c1", U, .setup = SETUP(UFAKE),
	 .dir = 'G',
	 .in = "position fen r1k4r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R w HAha - 0 1"
	       " moves c1a1\n",
	 .want = "position fen r1k4r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b - - 1 1"
		 "\n",
	 .reply = NO960_REPLY},
	/* Black castles; white's standard rights (king e1, corner rooks)
	 * stay in the FEN. */
	{"reanchor: d8a8, the king one file from c8", U, .setup = SETUP(UFAKE),
	 .dir = 'G',
	 .in = "position fen r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b HAha - 0 1"
	       " moves d8a8 e1e2\n",
	 .want = "position fen 2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQ - 1 2"
		 " moves e1e2\n",
	 .reply = NO960_REPLY},
	{"reanchor: g1h1, the king already on g1", U, .setup = SETUP(UFAKE),
	 .dir = 'G',
	 .in = "position fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/R5KR w HAha - 0 1"
	       " moves g1h1\n",
	 .want = "position fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b - - 1 1"
		 "\n",
	 .reply = NO960_REPLY},
	/* The king's move e1g1 would mean the h1 rook to Toga: there is
	 * none; black's a8 right is standard and stays. */
	{"reanchor: e1f1, rook on f1 not in the corner", U,
	 .setup = SETUP(UFAKE), .dir = 'G',
	 .in = "position fen r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w FAfa - 0 1"
	       " moves e1f1\n",
	 .want = "position fen r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b q - 1 1"
		 "\n",
	 .reply = NO960_REPLY},
	/* KxR and king move are the same string f1g1. */
	{"reanchor: f1g1, king f1 and rook g1", U, .setup = SETUP(UFAKE),
	 .dir = 'G',
	 .in = "position fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/5KR1 w G - 0 1"
	       " moves f1g1 e8d8\n",
	 .want = "position fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/5RK1 b - - 1 1"
		 " moves e8d8\n",
	 .reply = NO960_REPLY},
	{"reanchor: d1c1, king d1 and rook c1", U, .setup = SETUP(UFAKE),
	 .dir = 'G',
	 .in = "position fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/2RK4 w C - 0 1"
	       " moves d1c1\n",
	 .want = "position fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/2KR4 b - - 1 1"
		 "\n",
	 .reply = NO960_REPLY},
	/* The GUI writes the king's move: the same castle, the same answer. */
	{"reanchor: e1g1 written as a king move", U, .setup = SETUP(UFAKE),
	 .dir = 'G',
	 .in = "position fen r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w FAfa - 0 1"
	       " moves e1g1\n",
	 .want = "position fen r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b q - 1 1"
		 "\n",
	 .reply = NO960_REPLY},
	/* A standard castle needs no anchor: e1a1 is e1c1 to Toga; the f1
	 * rook's right is never sent (FEN Qq, not FAfa). */
	{"reanchor: none for a standard castle", U, .setup = SETUP(UFAKE),
	 .dir = 'G',
	 .in = "position fen r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w FAfa - 0 1"
	       " moves e1a1\n",
	 .want = "position fen r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w Qq - 0 1"
		 " moves e1c1\n",
	 .reply = NO960_REPLY},
	/* The GUI resends the game with more moves (the position cache
	 * reads only the new ones): the anchor comes with them. The setup
	 * line already told the GUI: no second notice. */
	{"reanchor: in moves that extend the last position", U,
	 .setup = SETUP(UFAKE, "G position fen r3kr2/pppppppp/8/8/8/8/"
			       "PPPPPPPP/R3KR2 w FAfa - 0 1 moves a2a3"),
	 .dir = 'G',
	 .in = "position fen r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w FAfa - 0 1"
	       " moves a2a3 a7a6 e1f1 b7b6 a3a4\n",
	 .want = "position fen r3kr2/1ppppppp/p7/8/8/P7/1PPPPPPP/R4RK1 b q - 1 2"
		 " moves b7b6 a3a4\n"},
	/* After the last castle the rest of a long game is not read. */
	{"reanchor: both sides castle, the last anchor counts", U,
	 .setup = SETUP(UFAKE), .dir = 'G',
	 .in = "position fen r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w FAfa - 0 1"
	       " moves e1f1 e8f8 h2h3 h7h6\n",
	 .want = "position fen r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2"
		 " moves h2h3 h7h6\n",
	 .reply = NO960_REPLY},
	/* 10x8: kings belong on the f-file; a CRC king on e1 castling with
	 * the j1 rook lands on i1, the rook on h1. */
	{"reanchor: 10x8 caparandom e1j1", U,
	 .setup = SETUP(UFAKE, "G setoption name UCI_Variant value caparandom"),
	 .dir = 'G', .in = "position fen " CRCPOS " w JBjb - 0 12 moves e1j1\n",
	 .want = "position fen 1r2k4r/1bnqacbn2/pppppppppp/10/10/PPPPPPPPPP/"
		 "1BNQACBN2/1R5RK1 b - - 1 12\n",
	 .reply = NO960_REPLY},
	/* 10x8 Capablanca: king f1 and corner rooks are standard. */
	{"reanchor: none for a 10x8 standard castle", U,
	 .setup = SETUP(UFAKE, "G setoption name UCI_Variant value capablanca"),
	 .dir = 'G', .in = "position fen " CAPAPOS " w JAja - 6 5 moves f1j1\n",
	 .want = "position fen " CAPAPOS " w KQkq - 6 5 moves f1i1\n"},
	/* An engine with Chess960 on reads every castle: no anchor. */
	{"reanchor: none for a Chess960 engine", U, .setup = SETUP(U960),
	 .dir = 'G',
	 .in = "position fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/5KR1 w G - 0 1"
	       " moves f1g1\n",
	 .want = "position fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/5KR1 w K - 0 1"
		 " moves f1g1\n"},
	/* The engine's own castle (a standard one) reaches a Chess960 GUI
	 * as king takes rook after a re-anchor too. */
	{"reanchor: engine's bestmove after an anchor", U,
	 .setup = SETUP(UFAKE, "G position fen r3kr2/pppppppp/8/8/8/8/"
			       "PPPPPPPP/R3K2R w HAa - 0 1 moves e1h1"),
	 .dir = 'E', .in = "bestmove e8c8\n", .want = "bestmove e8a8\n"},
};

/*
 * The quirk table and what is learnt at run time (protocols/quirk.c,
 * protocols/xboard.c).
 */
static const struct row quirk_rows[] = {
	/* Glaurung reads K/Q as the a- and h-file rooks in Chess960. */
	{"quirk: Glaurung gets Shredder-FEN", U,
	 .setup = SETUP("G uci", "E id name Glaurung 2.2",
			"E option name UCI_Chess960 type check default false",
			"E uciok", "G setoption name UCI_Chess960 value true"),
	 .gui_xfen = true, .dir = 'G',
	 .in = "position fen " BQNB " w KQkq - 0 1\n",
	 .want = "position fen " BQNB " w HFhf - 0 1\n"},
	{"quirk: --engine-fen=xfen wins over the table", U,
	 .setup = SETUP("G uci", "E id name Glaurung 2.2",
			"E option name UCI_Chess960 type check default false",
			"E uciok", "G setoption name UCI_Chess960 value true"),
	 .fen_fixed = true, .dir = 'G',
	 .in = "position fen " BQNB " w HFhf - 0 1\n",
	 .want = "position fen " BQNB " w KQkq - 0 1\n"},
	/* cutechess selects Chess960 for Fairy-Stockfish with UCI_Variant
	 * chess960, not UCI_Chess960: both sides then speak king takes rook,
	 * and every right reaches the engine. */
	{"variant: UCI_Variant chess960 is Chess960 mode (engine side)", U,
	 .setup = SETUP(UFSF, "G setoption name UCI_Variant value chess960"),
	 .dir = 'G', .in = "position fen " P960 " w FBfb - 6 8 moves c1f1\n",
	 .want = "position fen " P960 " w KQkq - 6 8 moves c1f1\n"},
	{"variant: UCI_Variant chess960 is Chess960 mode (GUI side)", U,
	 .setup = SETUP(UFSF, "G setoption name UCI_Variant value chess960",
			"G position fen " P960 " w FBfb - 6 8"),
	 .dir = 'E', .in = "bestmove c1f1 ponder c8b8\n",
	 .want = "bestmove c1f1 ponder c8b8\n"},
	{"variant: UCI_Variant fischerandom maps to the engine's chess960", U,
	 .setup = SETUP(UFSF), .dir = 'G',
	 .in = "setoption name UCI_Variant value fischerandom\n",
	 .want = "setoption name UCI_Variant value chess960\n"},
	/* Fairy-Stockfish names itself unquoted, which XBoard rejects. */
	{"quirk: unquoted myname is quoted", X, .setup = SETUP(XB_HELLO),
	 .dir = 'E', .in = "feature myname=Fairy-Stockfish setboard=1\n",
	 .want = "feature myname=\"Fairy-Stockfish\" setboard=1\n"},
	{"quirk: unquoted myname replaced by the config's name", X,
	 .idname = "My Engine 960", .setup = SETUP(XB_HELLO), .dir = 'E',
	 .in = "feature myname=Fairy-Stockfish setboard=1\n",
	 .want = "feature myname=\"My Engine 960\" setboard=1\n"},
	/* ... and rejects O-O: it gets king takes rook. */
	{"quirk: Fairy-Stockfish XBoard gets KxR for O-O", X,
	 .setup = SETUP(XB_HELLO,
			"E feature myname=Fairy-Stockfish usermove=1 "
			"setboard=1 done=1",
			"G new", "G variant fischerandom", "G force",
			"G setboard " P960 " w FBfb - 6 8"),
	 .dir = 'G', .in = "usermove O-O\n", .want = "usermove c1f1\n"},
	/* Learnt: an unknown engine that rejects O-O gets it again as king
	 * takes rook; the error is not passed on. */
	{"learn: Error after O-O: sent again as KxR", X,
	 .setup = SETUP(XFRC_P960, "G usermove O-O"), .dir = 'E',
	 .in = "Error (unknown command): O-O\n", .want = "",
	 .reply = "usermove c1f1\n"},
	{"learn: Illegal move after O-O-O: sent again as KxR", X,
	 .setup = SETUP(XFRC_P960, "G O-O-O"), .dir = 'E',
	 .in = "Illegal move: O-O-O\n", .want = "", .reply = "c1b1\n"},
	{"learn: after a rejected O-O the engine gets KxR", X,
	 .setup = SETUP(XFRC_P960, "G usermove O-O",
			"E Error (unknown command): O-O"),
	 .dir = 'G', .in = "usermove O-O\n", .want = "usermove c8f8\n"},
	/* An error about something else passes. */
	{"learn: an unrelated Error passes", X,
	 .setup = SETUP(XFRC_P960, "G usermove O-O"), .dir = 'E',
	 .in = "Error (unknown command): foo\n",
	 .want = "Error (unknown command): foo\n"},
	/* python-chess treats any Error line as fatal. */
	{"learn: Error to nopost is kept from the GUI", X,
	 .setup = SETUP(XNORMAL, "G nopost"), .dir = 'E',
	 .in = "Error (unkown command): nopost\n", .want = ""},
	{"learn: Error to post is kept from the GUI", X,
	 .setup = SETUP(XNORMAL, "G post"), .dir = 'E',
	 .in = "Error (unkown command): post\n", .want = ""},
};

/*
 * An XBoard engine that lists only normal chess (GNU Chess) is offered to
 * the GUI for fischerandom too and plays it as normal chess in standard
 * notation: `variant fischerandom` does not reach it, it gets only the
 * rights standard FEN expresses, and a castle it cannot read as a setboard
 * of the position after it (inside force ... go when it is to move).
 */
#define XSTD_FEAT "E feature setboard=1 usermove=1 variants=\"normal\" done=1"
#define XSTD XB_HELLO, XSTD_FEAT, "G new", "G variant fischerandom"
#define RKR "r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R3KR2"
#define XSTD_POS XSTD, "G force", "G setboard " RKR " w FAfa - 0 1"
#define XSTD_NOTICE                                                            \
	"# fenbridge: the engine plays fischerandom as normal in standard "    \
	"notation; it gets only the castling rights standard FEN can "         \
	"express, and a castle it cannot read as the position after it\n"

static const struct row emulate_rows[] = {
	{"emulate: fischerandom added to variants=normal", X,
	 .setup = SETUP(XB_HELLO), .dir = 'E',
	 .in = "feature setboard=1 variants=\"normal\" done=1\n",
	 .want = "feature setboard=1 variants=\"normal,fischerandom\" "
		 "done=1\n"},
	{"emulate: a list with capablanca gets caparandom too", X,
	 .setup = SETUP(XB_HELLO), .dir = 'E',
	 .in = "feature variants=\"normal,capablanca\"\n",
	 .want = "feature variants=\"normal,capablanca,fischerandom,"
		 "caparandom\"\n"},
	{"emulate: a list with fischerandom is left alone", X,
	 .setup = SETUP(XB_HELLO), .dir = 'E',
	 .in = "feature variants=\"normal,fischerandom\"\n",
	 .want = "feature variants=\"normal,fischerandom\"\n"},
	/* After new the engine already plays normal chess. */
	{"emulate: variant fischerandom does not reach the engine", X,
	 .setup = SETUP(XB_HELLO, XSTD_FEAT, "G new"), .dir = 'G',
	 .in = "variant fischerandom\n", .want = ""},
	{"emulate: setboard keeps only standard rights", X,
	 .setup = SETUP(XSTD, "G force"), .dir = 'G',
	 .in = "setboard " RKR " w FAfa - 0 1\n",
	 .want = "setboard " RKR " w Qq - 0 1\n"},
	{"emulate: a standard castle goes as the king's move", X,
	 .setup = SETUP(XSTD_POS), .dir = 'G', .in = "usermove O-O-O\n",
	 .want = "usermove e1c1\n"},
	/* King g1, rook f1 after it; black keeps its standard q right. */
	{"emulate: a Chess960 castle in force mode: setboard", X,
	 .setup = SETUP(XSTD_POS), .dir = 'G', .in = "usermove O-O\n",
	 .want = "setboard r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b q - 1 1\n",
	 .reply = XSTD_NOTICE},
	/* The engine is to reply: force, setboard, go. */
	{"emulate: a Chess960 castle in play: force setboard go", X,
	 .setup = SETUP(XSTD, "G setboard " RKR " w FAfa - 0 1"), .dir = 'G',
	 .in = "usermove O-O\n",
	 .want = "force\nsetboard r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b q "
		 "- 1 1\ngo\n",
	 .reply = XSTD_NOTICE},
	{"emulate: the engine's standard castle reaches the GUI as O-O-O", X,
	 .setup = SETUP(XSTD_POS, "G usermove O-O"), .dir = 'E',
	 .in = "move e8c8\n", .want = "move O-O-O\n"},
	/* After a setboard of fenbridge's own the engine cannot undo. */
	{"emulate: undo after an anchor goes as setboard", X,
	 .setup = SETUP(XSTD_POS, "G usermove O-O", "G usermove e7e6"),
	 .dir = 'G', .in = "undo\n",
	 .want = "setboard r3kr2/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b q - 1 1\n"},
	/* Issue 17 item 8 (ChessX: a Chess960 setboard without variant
	 * fischerandom) with GNU Chess: as if the GUI had chosen it. */
	{"emulate: Chess960 setboard in variant normal", X,
	 .setup = SETUP(XB_HELLO, XSTD_FEAT, "G new", "G force"), .dir = 'G',
	 .in = "setboard " RKR " w FAfa - 0 1\n",
	 .want = "setboard " RKR " w Qq - 0 1\n"},
	{"emulate: an engine that lists the variant is not emulated", X,
	 .setup = SETUP(XFRC, "G setboard " RKR " w FAfa - 0 1"), .dir = 'G',
	 .in = "usermove O-O\n", .want = "usermove O-O\n"},
};

/* ---- the runner ---- */

#define MAX_OUT 8192

struct capture {
	char out[MAX_OUT];
	size_t nout;
	char back[MAX_OUT];
	size_t nback;
	unsigned nquit;
};

static void
cap_emit(void *ctx, const char *data, size_t len)
{
	struct capture *c = ctx;

	assert_true(c->nout + len <= MAX_OUT);
	memcpy(c->out + c->nout, data, len);
	c->nout += len;
}

static void
cap_reply(void *ctx, const char *data, size_t len)
{
	struct capture *c = ctx;

	assert_true(c->nback + len <= MAX_OUT);
	memcpy(c->back + c->nback, data, len);
	c->nback += len;
}

static void
cap_report(void *ctx, enum fb_level level, const char *msg)
{
	(void)ctx;
	(void)level;
	assert_non_null(msg);
}

static void
cap_event(void *ctx, enum fb_event ev)
{
	struct capture *c = ctx;

	if (ev == FB_EVENT_GUI_QUIT)
		c->nquit++;
}

/* Feeds text (terminator included) from the GUI or the engine. */
static void
feed(struct fb_filter *f, char dir, const char *text, struct capture *c)
{
	/* out: what the line's peer gets; back: what its sender gets. */
	struct fb_sink s = {.to_engine = dir == 'G' ? cap_emit : cap_reply,
			    .to_gui = dir == 'G' ? cap_reply : cap_emit,
			    .report = cap_report,
			    .event = cap_event,
			    .ctx = c,
			    .min_level = FB_LOG_DEBUG};
	size_t n = strlen(text), term = 0;

	memset(c, 0, sizeof *c);
	if (n >= 2 && text[n - 2] == '\r' && text[n - 1] == '\n')
		term = 2;
	else if (n >= 1 && (text[n - 1] == '\n' || text[n - 1] == '\r'))
		term = 1;
	if (dir == 'G')
		fb_filter_gui_line(f, text, n - term, term, 0, &s);
	else
		fb_filter_engine_line(f, text, n - term, term, 0, &s);
}

static bool
same(const char *got, size_t n, const char *want)
{
	if (want == NULL)
		want = "";
	return strlen(want) == n && memcmp(got, want, n) == 0;
}

/* Runs one row; prints what differs and returns false when it fails. */
static bool
run_row(const struct row *r)
{
	struct fb_filter_options opt = {
		.proto = r->proto == 'U' ? &fb_protocol_uci
					 : &fb_protocol_xboard,
		.engine_fen = r->engine_fen,
		.engine_fen_auto = !r->fen_fixed,
		.gui_fen = r->gui_xfen ? FB_XFEN : FB_SHREDDER,
		.gui_castling = r->gui_castling,
		.engine_castling = r->engine_castling,
		.options = r->options,
		.noptions = r->noptions,
		.name = r->idname,
	};
	static struct capture c; /* large: not on the stack */
	struct fb_filter f;
	char line[512];
	bool ok;

	assert_true(r->dir == 'G' || r->dir == 'E');
	fb_filter_init(&f, &opt);
	for (const char *const *s = r->setup; s != NULL && *s != NULL; s++) {
		assert_true(((*s)[0] == 'G' || (*s)[0] == 'E') &&
			    (*s)[1] == ' ');
		assert_true((size_t)snprintf(line, sizeof line, "%s\n",
					     *s + 2) < sizeof line);
		feed(&f, (*s)[0], line, &c); /* output discarded */
	}
	feed(&f, r->dir, r->in, &c);
	ok = same(c.out, c.nout, r->want) && same(c.back, c.nback, r->reply);
	if (!ok)
		print_message("FAIL row '%s'\n  %s: %s"
			      "  got  '%.*s'\n  want '%s'\n"
			      "  got reply  '%.*s'\n  want reply '%s'\n",
			      r->name, r->dir == 'G' ? "G->E" : "E->G", r->in,
			      (int)c.nout, c.out, r->want, (int)c.nback, c.back,
			      r->reply != NULL ? r->reply : "");
	fb_filter_free(&f);
	return ok;
}

static void
run_rows(const struct row *rows, size_t n)
{
	size_t failed = 0;

	for (size_t i = 0; i < n; i++)
		if (!run_row(&rows[i]))
			failed++;
	if (failed > 0)
		fail_msg("%zu of %zu rows failed", failed, n);
}

static void
test_uci_castling_table(void **state)
{
	(void)state;
	run_rows(uci_rows, N_ELEMS(uci_rows));
}

static void
test_xboard_castling_table(void **state)
{
	(void)state;
	run_rows(xboard_rows, N_ELEMS(xboard_rows));
}

static void
test_reanchor_table(void **state)
{
	(void)state;
	run_rows(reanchor_rows, N_ELEMS(reanchor_rows));
}

static void
test_quirk_table(void **state)
{
	(void)state;
	run_rows(quirk_rows, N_ELEMS(quirk_rows));
}

static void
test_emulate_table(void **state)
{
	(void)state;
	run_rows(emulate_rows, N_ELEMS(emulate_rows));
}

static void
test_fixed_defects(void **state)
{
	(void)state;
	run_rows(known_defect_rows, N_ELEMS(known_defect_rows));
}

/* Every row has a unique name, so a failure names one row. */
static void
test_row_names_unique(void **state)
{
	const struct row *all[] = {uci_rows,          xboard_rows,
				   known_defect_rows, reanchor_rows,
				   quirk_rows,        emulate_rows};
	const size_t n[] = {N_ELEMS(uci_rows),          N_ELEMS(xboard_rows),
			    N_ELEMS(known_defect_rows), N_ELEMS(reanchor_rows),
			    N_ELEMS(quirk_rows),        N_ELEMS(emulate_rows)};

	(void)state;
	for (size_t a = 0; a < N_ELEMS(all); a++)
		for (size_t i = 0; i < n[a]; i++)
			for (size_t b = a; b < N_ELEMS(all); b++)
				for (size_t j = b == a ? i + 1 : 0; j < n[b];
				     j++)
					if (strcmp(all[a][i].name,
						   all[b][j].name) == 0)
						fail_msg("duplicate row name "
							 "'%s'",
							 all[a][i].name);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_names_unique),
		cmocka_unit_test(test_uci_castling_table),
		cmocka_unit_test(test_xboard_castling_table),
		cmocka_unit_test(test_fixed_defects),
		cmocka_unit_test(test_reanchor_table),
		cmocka_unit_test(test_quirk_table),
		cmocka_unit_test(test_emulate_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
