/* SPDX-License-Identifier: MIT */
/*
 * The referee (protocols/referee*.c) fed scripted lines: each line of a
 * script names its wire and way ("E<" sent to the engine, "E>" from the
 * engine, "G>" from the GUI, "G<" sent to the GUI), with no blank after and may carry a time
 * ("@5200 E> readyok"). Clean sessions give no finding; each kind of
 * misbehaviour gives its own, judged in the position it belongs to.
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

#include "referee.h"

#define MAX_FOUND 16

/* The findings, and apart from them the notes (not findings). */
struct found {
	unsigned n;
	enum fb_referee_kind kind[MAX_FOUND];
	char text[MAX_FOUND][2048];
	bool first[MAX_FOUND];
	unsigned nnotes;
	char note[MAX_FOUND][2048];
};

static void
on_found(void *ctx, enum fb_referee_kind kind, const char *text, bool first)
{
	struct found *f = ctx;

	if (kind == FB_REF_NOTE) {
		assert_true(f->nnotes < MAX_FOUND && first);
		snprintf(f->note[f->nnotes++], sizeof f->note[0], "%s", text);
		return;
	}
	assert_true(f->n < MAX_FOUND);
	f->kind[f->n] = kind;
	f->first[f->n] = first;
	snprintf(f->text[f->n], sizeof f->text[0], "%s", text);
	f->n++;
}

/* Runs script (lines as above) with the GUI wire in gui and the engine
 * wire in eng; returns the findings in *f. */
static void
run(struct fb_referee *r, struct found *f, enum fb_referee_proto gui,
    enum fb_referee_proto eng, const char *script)
{
	const char *p = script;
	uint64_t now = 0;

	while (*p != '\0') {
		const char *e = strchr(p, '\n');
		size_t n = e != NULL ? (size_t)(e - p) : strlen(p);
		if (*p == '@') {
			char *end;
			now = strtoull(p + 1, &end, 10);
			n -= (size_t)(end + 1 - p);
			p = end + 1;
		}
		assert_true(n >= 2 && (p[0] == 'E' || p[0] == 'G'));
		enum fb_referee_side side = p[0] == 'E' ? FB_REF_ENGINE
							: FB_REF_GUI;
		bool from_peer = p[1] == '>'; /* the peer wrote it */
		fb_referee_line(r, side, from_peer,
				side == FB_REF_ENGINE ? eng : gui, p + 2, n - 2,
				now);
		p += n;
		if (*p == '\n')
			p++;
	}
	(void)f;
}

static void
start(struct fb_referee *r, struct found *f)
{
	memset(f, 0, sizeof *f);
	fb_referee_init(r, FB_REFEREE_WARN, on_found, f);
}

static void
expect_one(const struct found *f, enum fb_referee_kind kind, const char *text)
{
	if (f->n != 1 || f->kind[0] != kind || strstr(f->text[0], text) == NULL)
		fail_msg("want one %s finding with '%s', got %u: %s",
			 fb_referee_kind_name(kind), text, f->n,
			 f->n > 0 ? f->text[0] : "");
}

static void
expect_none(const struct found *f)
{
	if (f->n != 0)
		fail_msg("want no finding, got %u: %s", f->n, f->text[0]);
}

/* One note with text, and no finding. */
static void
expect_note(const struct found *f, const char *text)
{
	expect_none(f);
	if (f->nnotes != 1 || strncmp(f->note[0], "note: ", 6) != 0 ||
	    strstr(f->note[0], text) == NULL)
		fail_msg("want one note with '%s', got %u: %s", text, f->nnotes,
			 f->nnotes > 0 ? f->note[0] : "");
}

static void
test_referee_clean_uci_game(void **state)
{
	struct fb_referee r;
	struct found f;

	(void)state;
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<uci\n"
	    "E>id name Stockfish 15.1\n"
	    "E>\n" /* Stockfish's empty line */
	    "E>option name Hash type spin default 16 min 1 max 33554432\n"
	    "E>option name Ponder type check default false\n"
	    "E>option name UCI_Chess960 type check default false\n"
	    "E>uciok\n"
	    "E<isready\n"
	    "E>readyok\n"
	    "E<position startpos moves e2e4 e7e5\n"
	    "E<go wtime 1000 btime 1000\n"
	    "E>info depth 1 seldepth 1 score cp 30 nodes 20 time 1 pv g1f3\n"
	    "E>info depth 2 score cp 25 upperbound pv g1f3 b8c6 f1b5\n"
	    "E>info currmove g1f3 currmovenumber 1\n"
	    "E>bestmove g1f3 ponder b8c6\n"
	    /* Fool's mate: the mated side answers (none) */
	    "E<position startpos moves f2f3 e7e5 g2g4 d8h4\n"
	    "E<go depth 3\n"
	    "E>info depth 0 score mate 0\n"
	    "E>bestmove (none)\n");
	expect_none(&f);
	fb_referee_finish(&r, 1000);
	expect_none(&f);
}

/* The engine's output belongs to the search it answers, even when the
 * next position has been sent meanwhile (a ponder miss). */
static void
test_referee_uci_output_belongs_to_its_search(void **state)
{
	struct fb_referee r;
	struct found f;

	(void)state;
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position startpos moves e2e4\n"
	    "E<go ponder\n"
	    "E<stop\n"
	    "E<position startpos moves d2d4\n"
	    "E<go depth 5\n"
	    "E>info depth 3 score cp 1 pv e7e5 g1f3\n"
	    "E>bestmove e7e5 ponder g1f3\n"
	    "E>info depth 3 score cp 1 pv d7d5 c2c4\n"
	    "E>bestmove d7d5\n");
	expect_none(&f);
	/* The old search's move as the new one's answer */
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position startpos moves d2d4\n"
	    "E<go depth 5\n"
	    "E>bestmove e7e5\n");
	expect_none(&f); /* e7e5 is legal after d2d4 too */
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position startpos moves d2d4 d7d5\n"
	    "E<go depth 5\n"
	    "E>bestmove d7d5\n");
	expect_one(&f, FB_REF_ILLEGAL, "bestmove 'd7d5' is not legal");
	assert_non_null(strstr(f.text[0], "position rnbqkbnr/ppp1pppp/8/3p4/"
					  "3P4/8/PPP1PPPP/RNBQKBNR w KQkq - "
					  "0 2, moves d2d4 d7d5, last sent 'go "
					  "depth 5'"));
}

static void
test_referee_uci_pv(void **state)
{
	struct fb_referee r;
	struct found f;

	(void)state;
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position startpos\n"
	    "E<go infinite\n"
	    "E>info depth 2 multipv 1 score cp 5 pv e2e4 e7e5 e1e3\n");
	expect_one(&f, FB_REF_ILLEGAL, "pv move 3 'e1e3' is not legal");
	/* MultiPV's lines take turns: each is read on from the cached pv it
	 * begins like, in that pv's positions */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position startpos\nE<go infinite\n"
	    "E>info multipv 1 pv e2e4 e7e5 g1f3\n"
	    "E>info multipv 2 pv d2d4 d7d5 c1f4\n"
	    "E>info multipv 3 pv e2e4 c7c5 g1f3 d7d6\n"
	    "E>info multipv 1 pv e2e4 e7e5 g1f3 b8c6 f1b5\n"
	    "E>info multipv 2 pv d2d4 d7d5 c1f4 c8f5 e2e3\n"
	    "E>info multipv 3 pv e2e4 c7c5 g1f3 d7d6 d2d4 c5d4\n"
	    "E>info multipv 1 pv e2e4 e7e5 g1f3 b8c6 f1c4 f8c5\n");
	expect_none(&f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E>info multipv 3 pv e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f1b5 c8d7 "
	    "d1d8\n");
	expect_one(&f, FB_REF_ILLEGAL, "pv move 9 'd1d8' is not legal");
	assert_non_null(strstr(f.text[0], "position rn1qkbnr/pp1bpppp/3p4/"
					  "1B6/3pP3/5N2/PPP2PPP/RNBQK2R w"));
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position startpos moves f2f3 e7e5 g2g4\n"
	    "E<go infinite\n"
	    "E>info depth 2 score mate 1 pv d8h4\n"
	    "E>info depth 3 score mate 1 pv d8h4 e1f2\n");
	expect_one(&f, FB_REF_ILLEGAL, "goes on after mate: move 2 'e1f2'");
	/* The moves a pv shares with the last one are not looked at again,
	 * the rest are; and a new search has its own position. */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position startpos\n"
	    "E<go infinite\n"
	    "E>info depth 1 pv e2e4 e7e5\n"
	    "E>info depth 2 pv e2e4 e7e5 g1f3\n"
	    "E>info depth 2 pv e2e4 e7e5 g1f3\n"
	    "E>info depth 3 pv e2e4 e7e5 e1e3\n");
	expect_one(&f, FB_REF_ILLEGAL, "pv move 3 'e1e3' is not legal");
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<stop\n"
	    "E>bestmove e2e4\n"
	    "E<position startpos moves d2d4\n"
	    "E<go infinite\n"
	    "E>info depth 1 pv e2e4 e7e5 g1f3\n");
	assert_int_equal(f.n, 2);
	assert_non_null(strstr(f.text[1], "pv move 1 'e2e4' is not legal"));
	/* No search: nothing to judge a pv by */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position startpos\n"
	    "E>info depth 2 score cp 5 pv e2e5\n");
	expect_none(&f);
}

static void
test_referee_uci_answers(void **state)
{
	struct fb_referee r;
	struct found f;

	(void)state;
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position startpos\n"
	    "E>bestmove e2e4\n");
	expect_one(&f, FB_REF_PROTOCOL, "bestmove without go");
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position startpos\n"
	    "E<go depth 1\n"
	    "E>bestmove e2e4\n"
	    "E>bestmove d2d4\n");
	expect_one(&f, FB_REF_PROTOCOL, "a second bestmove to one go");
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "@1000 E<isready\n"
	    "@6000 E>readyok\n"
	    "@7000 E<isready\n"
	    "@12001 E>readyok\n");
	expect_one(&f, FB_REF_PROTOCOL, "readyok came 5001 ms");
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI, "@10 E<isready\n");
	fb_referee_finish(&r, 9000);
	expect_one(&f, FB_REF_PROTOCOL, "isready never answered");
	/* After work that takes time, the readyok may take it too */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "@0 E<uci\n@100 E>uciok\n@100 E<isready\n@9000 E>readyok\n"
	    "@9000 E<setoption name Hash value 65536\n@9000 E<isready\n"
	    "@19000 E>readyok\n@19000 E<ucinewgame\n@19000 E<isready\n"
	    "@29000 E>readyok\n@29000 E<position startpos\n@29000 E<go\n"
	    "@29000 E<isready\n@34001 E>readyok\n");
	expect_one(&f, FB_REF_PROTOCOL, "readyok came 5001 ms");
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "@100 E<quit\n"
	    "@1500 E>info string bye\n"
	    "@2200 E>info string still here\n"
	    "@2300 E>info string and here\n");
	expect_one(&f, FB_REF_PROTOCOL, "output 2100 ms after quit");
}

static void
test_referee_uci_castling(void **state)
{
	struct fb_referee r;
	struct found f;
	const char *pos =
		"E<position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\n"
		"E<go depth 1\n";
	char script[512];

	(void)state;
	start(&r, &f);
	snprintf(script, sizeof script, "%s%s", pos, "E>bestmove e1g1\n");
	run(&r, &f, FB_REF_UCI, FB_REF_UCI, script);
	expect_none(&f);
	snprintf(script, sizeof script, "%s%s", pos, "E>bestmove e1h1\n");
	run(&r, &f, FB_REF_UCI, FB_REF_UCI, script);
	expect_one(&f, FB_REF_CASTLING, "not written as the king's");
	start(&r, &f);
	snprintf(script, sizeof script,
		 "E<setoption name UCI_Chess960 value true\n%s%s", pos,
		 "E>info depth 1 score cp 1 pv e1h1 e8c8\n");
	run(&r, &f, FB_REF_UCI, FB_REF_UCI, script);
	expect_one(&f, FB_REF_CASTLING, "pv move 2 'e8c8' is a castle");
	/* A castle only one notation can write (king g1, rook h1) is no
	 * finding in either mode. */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<setoption name UCI_Chess960 value true\n"
	    "E<position fen rk5r/8/8/8/8/8/8/R5KR w HAha - 0 1\n"
	    "E<go depth 1\n"
	    "E>bestmove g1h1\n");
	expect_none(&f);
}

static void
test_referee_uci_format(void **state)
{
	struct fb_referee r;
	struct found f;

	(void)state;
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<uci\n"
	    "E>id name Fine Engine\n"
	    "E>option name Hash type spin default 16 min 1 max 1024\n"
	    "E>option name Style type combo default Normal var Solid var "
	    "Normal\n"
	    "E>option name Clear Hash type button\n"
	    "E>option name Book type string default <empty>\n"
	    "E>uciok\n"
	    "E>\n");
	expect_none(&f); /* a blank line after uciok is no handshake's */
	static const struct {
		const char *line, *text;
	} bad[] = {
		{"E>option name Ponder type check default False",
		 "the default 'False'"},
		{"E>option name Hash type spin default 16k min 1 max 2",
		 "needs integers"},
		{"E>option name Hash default 16", "malformed option line"},
		{"E>option name Hash type number default 1",
		 "the unknown type 'number'"},
		{"E>info depth 3 score 25 nodes 100", "score without cp"},
		{"E>info depth 3 score cp 25 nodes 1e6", "not an integer"},
		{"E>id name "
		 "A Very Long Engine Name That Goes On And On Beyond Sixty-Four "
		 "Bytes",
		 "id name of 67 bytes"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		start(&r, &f);
		run(&r, &f, FB_REF_UCI, FB_REF_UCI, bad[i].line);
		expect_one(&f, FB_REF_FORMAT, bad[i].text);
	}
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI, "E<uci\nE>id name x\nE>\nE> \n");
	expect_one(&f, FB_REF_FORMAT, "a line of blanks in the handshake");
}

static void
test_referee_uci_gui(void **state)
{
	struct fb_referee r;
	struct found f;

	(void)state;
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "G>ucinewgame\n"
	    "G>isready\n"
	    "G<readyok\n"
	    "G>position startpos moves e2e4 e7e5 g1f3\n"
	    "G>go depth 3\n"
	    "G<bestmove b8c6\n");
	expect_none(&f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "G>position startpos moves e2e4 e7e5 e1e3\n");
	expect_one(&f, FB_REF_GUIKIND, "move 3 'e1e3' is not legal");
	/* A position that adds to the last one is read on from it */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "G>position startpos moves e2e4\n"
	    "G>position startpos moves e2e4 e7e5\n"
	    "G>position startpos moves e2e4 e7e5 g1f3 b8c6\n"
	    "G>position startpos moves e2e4 e7e6\n"
	    "G>position startpos moves e2e4 e7e6 d2d4 d7d5 e1e3\n");
	expect_one(&f, FB_REF_GUIKIND, "move 5 'e1e3' is not legal");
	assert_non_null(strstr(f.text[0], "moves e2e4 e7e6 d2d4 d7d5,"));
	/* Longer, but another start of the same length: read from the
	 * start (after e2e4 the bishop could not go to f4) */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "G>position startpos moves e2e4\n"
	    "G>position startpos moves d2d4 d7d5 c1f4\n");
	expect_none(&f);
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "G>ucinewgame\n"
	    "G>isready\n"
	    "G>position startpos\n"
	    "G>go depth 3\n");
	expect_one(&f, FB_REF_GUIKIND, "go before the readyok");
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "G>position fen 4k3/8/8/8/8/8/8/4K2R w KQ - 0 1\n");
	expect_one(&f, FB_REF_CASTLING, "castling right no rook holds");
	/* The GUI's findings are not the engine's: the same lines on the
	 * engine wire are fenbridge's and are not judged. */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position startpos moves e2e4 e7e5 e1e3\n"
	    "G<bestmove e2e5\n");
	expect_none(&f);
}

static void
test_referee_clean_cecp_game(void **state)
{
	struct fb_referee r;
	struct found f;

	(void)state;
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<xboard\n"
	    "E<protover 2\n"
	    "E>feature ping=1 setboard=1 usermove=1 myname=\"Sjaak II\" "
	    "variants=\"normal,fischerandom\" done=1\n"
	    "E<new\n"
	    "E<variant fischerandom\n"
	    "E<force\n"
	    "E<setboard r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\n"
	    "E<go\n"
	    "E>1 10 0 20 O-O O-O-O\n"
	    "E>2 12 0 80 1. O-O O-O-O 2. Rf7 {tt} <HT>\n"
	    "E>move e1h1\n"
	    "E<usermove e8c8\n"
	    "E>2 8 0 80 Rf7 Rd7\n"
	    "E>move f1f7\n"
	    "@100 E<ping 4\n"
	    "@150 E>pong 4\n"
	    "E<new\n"
	    "E<usermove f2f3\n"
	    "E>move e7e5\n"
	    "E<usermove g2g4\n"
	    "E>move Qh4#\n"
	    "E>0-1 {Black mates}\n");
	expect_none(&f);
}

/* A Chess960 start where White castles at once, the castle given as O-O. */
#define FRC_CASTLE                                                             \
	"E<new\nE<variant fischerandom\nE<force\nE<setboard "                  \
	"nbnrbkrq/pppppppp/8/8/8/8/PPPPPPPP/NBNRBKRQ w GDgd - 0 1\nE<O-O\n"

static void
test_referee_cecp_moves(void **state)
{
	struct fb_referee r;
	struct found f;

	(void)state;
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<force\nE<usermove e2e4\nE>move e7e5\n");
	expect_one(&f, FB_REF_PROTOCOL, "move 'e7e5' in force mode");
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<usermove e2e4\nE>move e7e4\n");
	expect_one(&f, FB_REF_ILLEGAL, "move 'e7e4' is not legal");
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<force\nE<usermove e2e4\nE<playother\nE>move d2d4\n");
	expect_one(&f, FB_REF_PROTOCOL, "out of turn");
	/* force while the engine thinks: its move may cross it */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<usermove e2e4\nE<force\nE>move e7e5\n");
	expect_none(&f);
	/* Standard chess: king takes rook is no castle there */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<setboard r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1\n"
	    "E>move e8h8\n");
	expect_one(&f, FB_REF_CASTLING, "'e8h8' is a castle");
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<variant fischerandom\n"
	    "E<setboard r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1\n"
	    "E>move e8g8\n");
	expect_one(&f, FB_REF_CASTLING, "'e8g8' is a castle");
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<usermove e2e4\nE>Illegal move: e2e4\n");
	expect_one(&f, FB_REF_PROTOCOL, "for the legal move e2e4");
	/* A move the engine rejects with `Error` (here a bare move to an
	 * engine that wants usermove) is not on its board: the castle sent
	 * again as king takes rook is the game's first move, not a second
	 * castle (soak: Fairy-Stockfish, slow to start) */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    FRC_CASTLE "E>Error (unkown command): O-O\nE<f1g1\nE<go\n"
		       "E>move a8b6\nE<usermove a2a3\nE>move b6a3\n");
	expect_one(&f, FB_REF_ILLEGAL, "move 'b6a3' is not legal");
	assert_non_null(strstr(f.text[0], "moves f1g1 a8b6 a2a3,"));
	/* The same with the go before the Error came: the engine played the
	 * side on move on its board, White; the castle sent again crossed
	 * its move (fenbridge's doing, not the engine's) */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    FRC_CASTLE "E<go\nE>Error (unkown command): O-O\nE<f1g1\n"
		       "E>move a2a3\nE>Error (unkown command): f1g1\n");
	expect_none(&f);
	/* Rejected with the go after it: the engine plays White now */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<force\nE<usermove e2e4\nE<go\n"
	    "E>Error (unknown command): usermove e2e4\nE>move d2d4\n");
	expect_none(&f);
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<force\nE<usermove e2e4\nE<go\n"
	    "E>Illegal move: e2e4\nE>move d2d4\n");
	expect_one(&f, FB_REF_PROTOCOL, "for the legal move e2e4");
	/* GNU Chess announces its move twice, the second after a force */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<usermove e2e4\nE>1. ... e7e5\nE<force\n"
	    "E>My move is : e7e5\n");
	expect_none(&f);
	/* After undo the referee does not know the game: no finding */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<usermove e2e4\nE<undo\nE>move e2e4\n");
	expect_none(&f);
}

static void
test_referee_cecp_thinking(void **state)
{
	struct fb_referee r;
	struct found f;

	(void)state;
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<usermove e2e4\n"
	    "E>3 10 5 100 e7e5 Nf3 Nc6 Bb5\n"
	    "E>3 10 5 100 Nc6 Nf3 Qxz9 e1e7\n" /* unreadable SAN: stop */
	    "E>3 10 5 100 (e7e5) e2e4\n");
	expect_none(&f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP, "E>4 10 5 100 e7e5 g1f3 e8e6\n");
	expect_one(&f, FB_REF_ILLEGAL, "thinking pv move 3 'e8e6'");
	/* A pv of the position before the move just given: in flight */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<usermove e2e4\nE>move e7e5\nE<usermove g1f3\n"
	    "E>3 10 5 100 g1f3 b8c6\n");
	expect_none(&f);
	/* Analysis (after force, as XBoard sends it) is judged too; a pv
	 * while pondering (the engine not on move) is not */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<usermove e2e4\nE>move e7e5\nE>3 0 1 9 g1f3 e8e6\n"
	    "E<force\nE<analyze\nE>3 0 1 9 g1f3 e8e6\n");
	expect_one(&f, FB_REF_ILLEGAL, "thinking pv move 2 'e8e6'");
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<usermove f2f3\nE>move e7e5\nE<usermove g2g4\n"
	    "E>2 100000 5 100 Qh4# a2a3\n");
	expect_one(&f, FB_REF_ILLEGAL, "after the game's end");
	/* Analysis takes the GUI's moves as it thinks: a pv of a position
	 * two moves back is still in the pipe (as seen with fairy-stockfish
	 * behind a UCI GUI); one legal in none of the recent positions is
	 * not. */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<force\nE<analyze\nE<usermove e2e4\n"
	    "E<usermove e7e5\nE<usermove g1f3\nE>5 10 5 100 e7e5 g1f3\n"
	    "E>5 10 5 100 b8c6 f1b5\n");
	expect_none(&f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP, "E>5 10 5 100 e8e6 f1b5\n");
	expect_one(&f, FB_REF_ILLEGAL, "thinking pv move 1 'e8e6'");
}

static void
test_referee_cecp_answers(void **state)
{
	struct fb_referee r;
	struct found f;

	(void)state;
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "@0 E<new\n@0 E<force\n@0 E<ping 1\n@6000 E>pong 1\n"
	    "@6000 E<ping 2\n@11001 E>pong 2\n");
	expect_one(&f, FB_REF_PROTOCOL, "pong came 5001 ms");
	/* The engine on its move may answer after its move */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "@0 E<new\n@0 E<usermove e2e4\n@0 E<ping 2\n@9000 E>move e7e5\n"
	    "@9000 E>pong 2\n");
	expect_none(&f);
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<usermove e2e4\nE>1-0 {White mates}\n");
	expect_one(&f, FB_REF_PROTOCOL, "a wrong result claim");
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E>feature ping=1 san=yes myname=Fake done=1\n");
	assert_int_equal(f.n, 2);
	assert_true(f.first[0] && !f.first[1]);
	assert_non_null(strstr(f.text[0], "flag 'yes'"));
	assert_non_null(strstr(f.text[1], "'Fake' is not quoted"));
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP, "E>feature\n");
	expect_one(&f, FB_REF_FORMAT, "without key=value");
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP, "G>new\nG>usermove e2e5\n");
	expect_one(&f, FB_REF_GUIKIND, "the GUI's move 'e2e5'");
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "G>new\nG>e2e4\nG<move e7e5\nG>Nf3\nG>hard\nG<move Nc6\n"
	    "G>b1b4\n");
	expect_one(&f, FB_REF_GUIKIND, "the GUI's move 'b1b4'");
}

/* Each wire in its own protocol: a UCI GUI, an XBoard engine. */
/* An answer that never comes is judged while it is owed: the referee
 * names its deadline and judges at the tick, once. */
static void
test_referee_pending_answers(void **state)
{
	struct fb_referee r;
	struct found f;

	(void)state;
	start(&r, &f);
	assert_int_equal(fb_referee_next_deadline(&r), 0);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "@0 E<uci\n@100 E>uciok\n@100 E<isready\n@200 E>readyok\n"
	    "@1000 E<isready\n");
	assert_int_equal(fb_referee_next_deadline(&r), 6001);
	fb_referee_tick(&r, 6000);
	expect_none(&f);
	fb_referee_tick(&r, 6001);
	expect_one(&f, FB_REF_PROTOCOL, "isready not answered after 5001 ms");
	assert_int_equal(fb_referee_next_deadline(&r), 0);
	fb_referee_tick(&r, 9000);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI, "@9000 E>readyok\n");
	fb_referee_finish(&r, 20000);
	expect_one(&f, FB_REF_PROTOCOL, "still waiting");
	/* Never answered: one finding at the tick, none at the end */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "@0 E<new\n@0 E<force\n@0 E<ping 1\n@10 E>pong 1\n"
	    "@500 E<ping 7\n@600 E<ping 8\n");
	assert_int_equal(fb_referee_next_deadline(&r), 5501);
	fb_referee_tick(&r, 5501);
	expect_one(&f, FB_REF_PROTOCOL, "ping not answered after 5001 ms");
	assert_int_equal(fb_referee_next_deadline(&r), 0);
	fb_referee_finish(&r, 20000);
	assert_int_equal(f.n, 1);
	/* No deadline for an answer that may take long, nor after quit */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI, "@0 E<uci\n@0 E<isready\n");
	assert_int_equal(fb_referee_next_deadline(&r), 0);
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "@0 E<new\n@0 E<force\n@0 E<ping 1\n@10 E>pong 1\n"
	    "@10 E<ping 2\n@10 E<quit\n");
	assert_int_equal(fb_referee_next_deadline(&r), 0);
	fb_referee_tick(&r, 9000);
	expect_none(&f);
}

/* 10x8 variants of the variant table are followed: moves judged on a
 * board of ten files, castles too. */
static void
test_referee_10x8(void **state)
{
	struct fb_referee r;
	struct found f;

	(void)state;
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<setoption name UCI_Variant value caparandom\n"
	    "E<position fen rnbckqbanr/pppppppppp/10/10/10/10/PPPPPPPPPP/"
	    "RNBCKQBANR w KQkq - 0 1 moves e2e4 e7e5\n"
	    "E<go depth 3\n"
	    "E>info depth 2 score cp 5 pv h1i3 h8i6 d1e3\n"
	    "E>bestmove h1i3 ponder h8i6\n"
	    "E<position fen rnbckqbanr/pppppppppp/10/10/10/10/PPPPPPPPPP/"
	    "RNBCKQBANR w KQkq - 0 1 moves e2e4 e7e5 h1i3\n"
	    "E<go depth 3\n"
	    "E>bestmove e8e6\n");
	expect_one(&f, FB_REF_ILLEGAL, "bestmove 'e8e6' is not legal");
	assert_non_null(strstr(f.text[0], "rnbckqbanr/pppp1ppppp/10/4p5/"
					  "4P5/8A1/PPPP1PPPPP/RNBCKQB1NR b"));
	/* The king's move to i1 is a castle; with UCI_Chess960 on it is the
	 * wrong notation */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<setoption name UCI_Variant value caparandom\n"
	    "E<setoption name UCI_Chess960 value true\n"
	    "E<position fen r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/"
	    "R3K4R w KQkq - 0 1\n"
	    "E<go depth 3\nE>bestmove e1j1\n"
	    "E<go depth 3\nE>bestmove e1i1\n");
	expect_one(&f, FB_REF_CASTLING, "bestmove 'e1i1' is a castle");
	/* CECP: capablanca starts in its own position */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<variant capablanca\nE<usermove e2e4\n"
	    "E>move h8i6\nE<usermove c1b3\nE>move i6g4\n");
	expect_one(&f, FB_REF_ILLEGAL, "move 'i6g4' is not legal");
	/* caparandom: not known until its setboard */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<variant caparandom\nE<usermove e2e4\n"
	    "E>move a7a3\nE<new\nE<variant caparandom\nE<force\n"
	    "E<setboard rnbckqbanr/pppppppppp/10/10/10/10/PPPPPPPPPP/"
	    "RNBCKQBANR w KQkq - 0 1\nE<usermove e2e4\nE<go\n"
	    "E>move h8i6\nE<usermove e1i1\n");
	expect_none(&f);
	/* Janus is judged by its own rules: a7a3 is no move */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<variant janus\nE<usermove e2e4\nE>move a7a3\n");
	expect_one(&f, FB_REF_ILLEGAL, "move 'a7a3' is not legal");
	/* its castles (king to i1 or b1, the rook beside it) and its J */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<variant janus\nE<force\n"
	    "E<setboard r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq "
	    "- 0 1\nE<usermove e1i1\nE<go\nE>move e8b8\n"
	    "E<usermove h1h2\nE>move a7a6\n");
	expect_none(&f);
	/* Embassy: the king castles to h1, not to i1 */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<variant embassy\nE<force\n"
	    "E<setboard r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R b KQkq "
	    "- 0 1\nE<usermove e8h8\nE<go\nE>move e1i1\n");
	expect_one(&f, FB_REF_ILLEGAL, "move 'e1i1' is not legal");
}

#define KNIGHTS_BACK                                                           \
	"E<usermove g1f3\nE>move g8f6\nE<usermove f3g1\nE>move f6g8\n"

/* Result claims by rule (repetition, 50 moves, material) and pvs that go
 * on after a draw by rule, judged with the board's history; what the
 * board cannot say for sure is no finding. */
static void
test_referee_draw_rules(void **state)
{
	struct fb_referee r;
	struct found f;

	(void)state;
	/* The start position three times: a true claim */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\n" KNIGHTS_BACK KNIGHTS_BACK
	    "E>1/2-1/2 {Draw by repetition}\n");
	expect_none(&f);
	/* Twice only */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\n" KNIGHTS_BACK "E>1/2-1/2 {Draw by repetition}\n");
	expect_one(&f, FB_REF_PROTOCOL, "a wrong result claim: '1/2-1/2 {Draw");
	/* Positions before the setboard not seen (its clock is not 0) */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w "
	    "KQkq - 8 5\n" KNIGHTS_BACK "E>1/2-1/2 {3-fold repetition}\n");
	expect_none(&f);
	/* The 50-move rule: the clock at 100, or not */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<setboard 8/8/4k3/8/8/8/4K3/R7 w - - 98 80\n"
	    "E<usermove a1a2\nE>move e6e5\nE>1/2-1/2 {50 move rule}\n");
	expect_none(&f);
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<setboard 8/8/4k3/8/8/8/4K3/R7 w - - 40 80\n"
	    "E<usermove a1a2\nE>move e6e5\nE>1/2-1/2 {50 move rule}\n");
	expect_one(&f, FB_REF_PROTOCOL, "{50 move rule}");
	/* Material: a rook can mate; a lone king cannot ("material" is
	 * no mate claim); knight against knight is not judged */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<setboard 8/8/4k3/8/8/8/4K3/R7 w - - 0 80\n"
	    "E<usermove a1a2\nE>move e6e5\n"
	    "E>1/2-1/2 {Insufficient material}\n");
	expect_one(&f, FB_REF_PROTOCOL, "{Insufficient material}");
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<setboard 8/8/4k3/8/8/4n3/4K3/8 w - - 0 80\n"
	    "E<usermove e2e3\nE>1/2-1/2 {Insufficient material}\n"
	    "E<new\nE<setboard 8/8/4k3/3n4/8/4N3/4K3/8 w - - 0 80\n"
	    "E<usermove e2f2\nE>1/2-1/2 {Insufficient material}\n"
	    "E>1/2-1/2 {Neither side can mate}\n");
	expect_none(&f);
	/* UCI pvs after a draw by rule: the rules end the game, not the
	 * search; a note, once a session, and no finding */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position fen 8/8/4k3/8/8/8/4K3/R7 w - - 98 80\n"
	    "E<go depth 5\n"
	    "E>info depth 1 score cp 500 pv a1a2 e6e5\n"
	    "E>info depth 2 score cp 500 pv a1a2 e6e5 a2a3\n"
	    "E>bestmove a1a2\n");
	expect_note(&f, "the pv goes on after a draw by the 50-move rule: "
			"move 3 'a2a3'");
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position fen 8/8/4k3/8/8/4n3/4K3/8 w - - 3 80\n"
	    "E<go depth 5\n"
	    "E>info depth 2 score cp 0 pv e2e3 e6e5\n"
	    "E>info depth 3 score cp 0 pv e2e3 e6d5 e3d3\n"
	    "E>bestmove e2e3\n"
	    "E<position fen 8/8/4k3/8/8/4n3/4K3/8 w - - 3 80\n"
	    "E<go depth 5\n"
	    "E>info depth 2 score cp 0 pv e2e3 e6e5\n"
	    "E>bestmove e2e3\n");
	expect_note(&f, "goes on after a draw by dead material: move 2 "
			"'e6e5'");
	assert_int_equal(fb_referee_total(&r), 0);
	/* A move after the draw is still judged: one not legal is */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position fen 8/8/4k3/8/8/4n3/4K3/8 w - - 3 80\n"
	    "E<go depth 5\n"
	    "E>info depth 3 score cp 0 pv e2e3 e6e5 e3e5\n"
	    "E>bestmove e2e3\n");
	expect_one(&f, FB_REF_ILLEGAL, "pv move 3 'e3e5' is not legal");
	assert_int_equal(f.nnotes, 1);
	/* CECP thinking too */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<force\nE<setboard 8/8/4k3/8/8/4n3/4K3/8 w - - 3 80\n"
	    "E<go\nE>2 0 5 100 Kxe3 Ke5\nE>3 0 5 100 Kxe3 Kd5 Kd3\n");
	expect_note(&f, "the thinking pv goes on after a draw by dead "
			"material: move 2 'Ke5'");
}

/* A threefold repetition along a pv, counted with the game's history
 * (the positions since the last capture or pawn move): a note. */
static void
test_referee_pv_repetition(void **state)
{
	struct fb_referee r;
	struct found f;

	(void)state;
	/* The game stands in its start position the second time: the pv's
	 * return to it is the third */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position startpos moves g1f3 g8f6 f3g1 f6g8\n"
	    "E<go depth 5\n"
	    "E>info depth 4 score cp 0 pv g1f3 g8f6 f3g1 f6g8\n"
	    "E>info depth 5 score cp 0 pv g1f3 g8f6 f3g1 f6g8 e2e4\n"
	    "E>bestmove g1f3\n");
	expect_note(&f, "the pv goes on after a draw by threefold "
			"repetition: move 5 'e2e4'");
	/* Without that history, twice only; the third within the pv */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position startpos\n"
	    "E<go depth 5\n"
	    "E>info depth 5 score cp 0 pv g1f3 g8f6 f3g1 f6g8 e2e4\n"
	    "E>info depth 9 score cp 0 pv g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 "
	    "f3g1 f6g8 e2e4\n"
	    "E>bestmove g1f3\n");
	expect_note(&f, "threefold repetition: move 9 'e2e4'");
	/* An irreversible move in the pv: what came before it does not
	 * come again */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position startpos moves g1f3 g8f6 f3g1 f6g8\n"
	    "E<go depth 5\n"
	    "E>info depth 9 score cp 0 pv e2e3 e7e6 g1f3 g8f6 f3g1 f6g8 "
	    "g1f3 g8f6 f3g1\n"
	    "E>bestmove e2e3\n");
	expect_none(&f);
	assert_int_equal(f.nnotes, 0);
	/* CECP: thinking in analyze mode, the game's history counted */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<force\n"
	    "E<usermove g1f3\nE<usermove g8f6\nE<usermove f3g1\n"
	    "E<usermove f6g8\nE<analyze\n"
	    "E>5 0 5 100 Nf3 Nf6 Ng1 Ng8 e4\n");
	expect_note(&f, "the thinking pv goes on after a draw by threefold "
			"repetition: move 5 'e4'");
}

/* Strict mode: a note is no finding (no count, so no exit status 3). */
static void
test_referee_notes_strict(void **state)
{
	struct fb_referee r;
	struct found f;
	char sum[200];

	(void)state;
	memset(&f, 0, sizeof f);
	fb_referee_init(&r, FB_REFEREE_STRICT, on_found, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<position fen b6k/8/8/8/8/4p3/3K4/8 w - - 0 1\n"
	    "E<go depth 10\n"
	    "E>info depth 10 score cp 0 pv d2e3 h8g7 e3f4 g7f6\n"
	    "E>bestmove d2e3 ponder h8g7\n");
	fb_referee_finish(&r, 1000);
	expect_note(&f, "dead material: move 2 'h8g7'");
	assert_int_equal(fb_referee_total(&r), 0);
	fb_referee_summary(&r, sum, sizeof sum);
	assert_string_equal(sum, "0 findings (illegal 0, castling 0, protocol "
				 "0, format 0, gui 0)");
}

/* A variant the referee cannot judge: a note, and the summary says so
 * instead of "0 findings". */
static void
test_referee_variant_not_judged(void **state)
{
	struct fb_referee r;
	struct found f;
	char sum[200];

	(void)state;
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<setoption name UCI_Variant value atomic\n"
	    "G>setoption name UCI_Variant value atomic\n"
	    "E<position startpos moves e2e4\nE<go depth 3\n"
	    "E>bestmove e7e4\n"
	    "E<setoption name UCI_Variant value xiangqi\n");
	expect_note(&f, "the variant atomic is not judged");
	fb_referee_summary(&r, sum, sizeof sum);
	assert_string_equal(sum, "not judged: the variant atomic");
	/* With findings: the counts, then what was not judged */
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "E<setoption name UCI_Variant value chess\n"
	    "E<position startpos moves e2e4\nE<go depth 3\n"
	    "E>bestmove e7e4\n");
	fb_referee_summary(&r, sum, sizeof sum);
	assert_string_equal(sum, "1 finding (illegal 1, castling 0, protocol "
				 "0, format 0, gui 0); not judged: the "
				 "variant atomic");
	/* CECP, a name no table holds, control bytes and all */
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_CECP,
	    "E<new\nE<variant my\x01variant\nE<usermove e2e4\n"
	    "E>move a7a3\n");
	expect_note(&f, "the variant myvariant is not judged");
	fb_referee_summary(&r, sum, sizeof sum);
	assert_string_equal(sum, "not judged: the variant myvariant");
}

/* Lines of a protocol not known yet (the engine's answer to the probe)
 * are held and judged once it is known; past the bounds, a note. */
static void
test_referee_held_lines(void **state)
{
	struct fb_referee r;
	struct found f;
	char many[FB_REF_HOLD_LINES * 16 + 64];
	size_t n = 0;

	(void)state;
	start(&r, &f);
	run(&r, &f, FB_REF_CECP, FB_REF_UNKNOWN,
	    "G>xboard\nG>protover 2\nE<xboard\nE<protover 2\n"
	    "E>feature ping=1 myname=Fairy-Stockfish done=0\n");
	expect_none(&f);
	fb_referee_protocol(&r, FB_REF_ENGINE, FB_REF_CECP);
	expect_one(&f, FB_REF_FORMAT,
		   "feature myname: the string 'Fairy-Stockfish' is not "
		   "quoted");
	assert_non_null(strstr(f.text[0], "last sent 'protover 2'"));
	/* Judged with their own times, in order, before the line that
	 * made the protocol known */
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UNKNOWN,
	    "@30 E<isready\n@40 E>info string hello\n");
	run(&r, &f, FB_REF_UCI, FB_REF_UCI,
	    "@9000 E>readyok\n@9000 E<position startpos\n");
	expect_one(&f, FB_REF_PROTOCOL, "readyok came 8970 ms after");
	/* A line that is never known is never judged */
	start(&r, &f);
	run(&r, &f, FB_REF_UNKNOWN, FB_REF_UNKNOWN,
	    "E>bestmove e2e5\nG>position startpos moves e2e5\n");
	fb_referee_protocol(&r, FB_REF_ENGINE, FB_REF_UNKNOWN);
	fb_referee_finish(&r, 1000);
	expect_none(&f);
	assert_int_equal(f.nnotes, 0);
	/* More than the bound: the first are judged, the rest noted */
	for (unsigned i = 0; i < FB_REF_HOLD_LINES + 5; i++)
		n += (size_t)snprintf(many + n, sizeof many - n,
				      "E>banner %u\n", i);
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_UNKNOWN, many);
	run(&r, &f, FB_REF_UCI, FB_REF_UCI, "E>id name X\n");
	expect_note(&f, "5 lines on the engine wire before its protocol was "
			"known went unjudged");
}

static void
test_referee_translating_pair(void **state)
{
	struct fb_referee r;
	struct found f;
	char sum[200];

	(void)state;
	start(&r, &f);
	run(&r, &f, FB_REF_UCI, FB_REF_CECP,
	    "G>position startpos moves e2e4\n"
	    "G>go depth 3\n"
	    "E<new\nE<force\nE<usermove e2e4\nE<go\n"
	    "E>move e7e5\n"
	    "G<bestmove e7e5\n");
	expect_none(&f);
	run(&r, &f, FB_REF_UCI, FB_REF_CECP, "E>move e7e5\n");
	expect_one(&f, FB_REF_PROTOCOL, "out of turn");
	fb_referee_summary(&r, sum, sizeof sum);
	assert_string_equal(sum, "1 finding (illegal 0, castling 0, protocol "
				 "1, format 0, gui 0)");
	/* Lines of a protocol not yet known are held (test_referee_held) */
	start(&r, &f);
	run(&r, &f, FB_REF_UNKNOWN, FB_REF_UNKNOWN,
	    "E>bestmove e2e5\nG>position startpos moves e2e5\n");
	expect_none(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_referee_clean_uci_game),
		cmocka_unit_test(test_referee_uci_output_belongs_to_its_search),
		cmocka_unit_test(test_referee_uci_pv),
		cmocka_unit_test(test_referee_uci_answers),
		cmocka_unit_test(test_referee_uci_castling),
		cmocka_unit_test(test_referee_uci_format),
		cmocka_unit_test(test_referee_uci_gui),
		cmocka_unit_test(test_referee_clean_cecp_game),
		cmocka_unit_test(test_referee_cecp_moves),
		cmocka_unit_test(test_referee_cecp_thinking),
		cmocka_unit_test(test_referee_cecp_answers),
		cmocka_unit_test(test_referee_pending_answers),
		cmocka_unit_test(test_referee_10x8),
		cmocka_unit_test(test_referee_draw_rules),
		cmocka_unit_test(test_referee_pv_repetition),
		cmocka_unit_test(test_referee_notes_strict),
		cmocka_unit_test(test_referee_variant_not_judged),
		cmocka_unit_test(test_referee_held_lines),
		cmocka_unit_test(test_referee_translating_pair),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
