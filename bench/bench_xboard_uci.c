/* SPDX-License-Identifier: MIT */
/*
 * The XBoard-GUI / UCI-engine pair (protocols/xboard_uci/) driven through
 * the filter's public API by a scripted session, for callgrind: what one
 * move costs the pair at a given ply, and what one engine `info` line
 * costs. No process, no pipes: the sink only counts, so the figures are the
 * pair's own (a UCI engine is sent the whole game in each `position` line;
 * passing those bytes on is the bridge's part).
 *
 * The session: the handshake of a UCI engine (Stockfish's options with
 * UCI_Chess960, or Toga II's without), `new`, a level, then a game of
 * --plies plies in which the GUI plays White (`time`, `otim`, `usermove`)
 * and the engine Black (`bestmove`, with `ponder` and the GUI playing that
 * reply with --ponder). The moves are legal moves picked with a fixed seed
 * (castles first, never one that ends the game), so every run plays the
 * same game. In fischerandom the game starts from a Chess960 position with
 * inner rooks (setboard), castles with O-O from the GUI, king takes rook
 * from a Chess960 engine; a standard engine (--toga) castles only where
 * standard chess can, and its GUI's castles are re-anchored.
 *
 * Usage:
 *   bench_xboard_uci [--toga] [--frc] [--ponder] [--plies N]
 *                    [--at PLY] [--window W] [--print] [--info N]
 * --at PLY: the cycles (a GUI move and the engine's answer) from ply PLY on,
 * W of them (default 5), run inside measured_cycle(): with
 *   valgrind --tool=callgrind --toggle-collect=measured_cycle ...
 * callgrind counts only those; divide by W. --info N: after the handshake
 * and a `go`, N thinking lines inside measured_info(). --print: the whole
 * transcript to stdout ("> " toward the engine, "< " toward the GUI), to
 * compare two builds of the pair byte for byte.
 *
 * Exit status 0; 1 when the pair answers a move not as expected.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fenbridge/movegen.h"
#include "filter.h"

#define MAX_PLIES 2000

static bool print;
static size_t bytes_out, lines_out;
static char last_gui[128];
static size_t last_gui_len;

static void
put(const char *prefix, const char *data, size_t len)
{
	static bool line_start = true;

	bytes_out += len;
	if (!print)
		return;
	for (size_t i = 0; i < len; i++) {
		if (line_start)
			fputs(prefix, stdout);
		putchar(data[i]);
		line_start = data[i] == '\n';
	}
}

static void
to_engine(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	lines_out++;
	put("> ", data, len);
}

static void
to_gui(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	lines_out++;
	/* the pair's answer to a move: "move ..." (one whole line) */
	if (len < sizeof last_gui) {
		memcpy(last_gui, data, len);
		last_gui_len = len;
	}
	put("< ", data, len);
}

static void
report(void *ctx, enum fb_level level, const char *msg)
{
	(void)ctx;
	(void)level;
	(void)msg;
}

static const struct fb_sink sink = {
	.to_gui = to_gui,
	.to_engine = to_engine,
	.report = report,
	.min_level = FB_LOG_WARN,
};

static struct fb_filter filter;

static void
gui(const char *line)
{
	fb_filter_gui_line(&filter, line, strlen(line), 1, 0, &sink);
}

static void
engine(const char *line)
{
	fb_filter_engine_line(&filter, line, strlen(line), 1, 0, &sink);
}

/* ---- the game ---- */

static uint64_t rng = UINT64_C(0x5eed0f960c4e55);

static uint64_t
next_rand(void)
{
	uint64_t z = (rng += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

struct ply {
	char gui[16];    /* as the GUI writes it */
	char engine[16]; /* as the engine writes it */
};

static struct ply game[MAX_PLIES];

/* A legal move of g that does not end the game: a castle the side may
 * play if there is one, else one picked at random. */
static bool
pick(const struct fb_game *g, bool std_only, struct fb_move *out)
{
	static struct fb_move m[FB_MOVES_MAX];
	size_t n = fb_moves_legal(g, m), k = 0;
	struct fb_move ok[FB_MOVES_MAX];

	for (size_t i = 0; i < n; i++) {
		struct fb_game c = *g;
		if (m[i].castle >= 0 && std_only &&
		    !fb_game_is_standard_castle(g, &m[i]))
			continue;
		fb_game_play(&c, &m[i]);
		if (fb_moves_end(&c) != FB_END_NONE)
			continue;
		if (m[i].castle >= 0) {
			*out = m[i];
			return true;
		}
		ok[k++] = m[i];
	}
	if (k == 0)
		return false;
	*out = ok[next_rand() % k];
	return true;
}

static void
coord(const struct fb_game *g, const struct fb_move *m,
      enum fb_castle_notation n, char out[16])
{
	if (fb_moves_print_coord(g, m, n, out, 16) < 0)
		fb_moves_print_coord(g, m, FB_CASTLE_KXR, out, 16);
}

#define F960 "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1"

static size_t
make_game(size_t plies, bool frc, bool toga)
{
	struct fb_game g;
	enum fb_castle_notation gn = frc ? FB_CASTLE_OO : FB_CASTLE_KING;
	enum fb_castle_notation en = frc && !toga ? FB_CASTLE_KXR
						  : FB_CASTLE_KING;
	size_t i;

	if (frc) {
		struct fb_fen fen;
		if (fb_fen_parse(&fen, F960, strlen(F960), NULL) < 0)
			return 0;
		g = fen.pos;
	} else {
		fb_game_start(&g, "RNBQKBNR");
	}
	for (i = 0; i < plies; i++) {
		struct fb_move m;
		/* the engine (Black) without Chess960 castles only as
		 * standard chess can */
		if (!pick(&g, toga && (i & 1), &m))
			break;
		coord(&g, &m, gn, game[i].gui);
		coord(&g, &m, en, game[i].engine);
		fb_game_play(&g, &m);
	}
	return i;
}

/* ---- the session ---- */

static void
handshake(bool toga)
{
	gui("xboard");
	gui("protover 2");
	if (toga) {
		engine("id name Toga II 3.0");
		engine("option name Hash type spin default 16 min 4 max 1024");
		engine("option name Ponder type check default true");
	} else {
		engine("id name Stockfish 15.1");
		engine("option name Threads type spin default 1 min 1 max 1024");
		engine("option name Hash type spin default 16 min 1 max "
		       "33554432");
		engine("option name Clear Hash type button");
		engine("option name Ponder type check default false");
		engine("option name MultiPV type spin default 1 min 1 max 500");
		engine("option name Skill Level type spin default 20 min 0 "
		       "max 20");
		engine("option name UCI_Chess960 type check default false");
		engine("option name SyzygyPath type string default <empty>");
	}
	engine("uciok");
	gui("accepted done");
}

static long long clock_cs = 30000;

/* The GUI's move at ply i (White) and the engine's answer at i + 1. */
static bool
cycle(size_t i, bool ponder)
{
	char line[64];

	snprintf(line, sizeof line, "time %lld", clock_cs);
	gui(line);
	snprintf(line, sizeof line, "otim %lld", clock_cs - 7);
	gui(line);
	snprintf(line, sizeof line, "usermove %s", game[i].gui);
	gui(line);
	if (ponder && i + 2 < MAX_PLIES && game[i + 2].engine[0] != '\0')
		snprintf(line, sizeof line, "bestmove %s ponder %s",
			 game[i + 1].engine, game[i + 2].engine);
	else
		snprintf(line, sizeof line, "bestmove %s", game[i + 1].engine);
	last_gui_len = 0;
	engine(line);
	clock_cs -= 3;
	return last_gui_len > 5 && memcmp(last_gui, "move ", 5) == 0;
}

/* Only what runs in here is counted (callgrind --toggle-collect). */
__attribute__((noinline)) static bool
measured_cycle(size_t i, bool ponder)
{
	return cycle(i, ponder);
}

static const char *const info_line =
	"info depth 21 seldepth 28 multipv 1 score cp 31 nodes 2345678 "
	"nps 1234567 hashfull 412 tbhits 0 time 1900 pv e2e4 e7e5 g1f3 b8c6 "
	"f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5";

__attribute__((noinline)) static void
measured_info(size_t n)
{
	for (size_t i = 0; i < n; i++)
		engine(info_line);
}

int
main(int argc, char **argv)
{
	struct fb_filter_options opt = {
		.proto = &fb_protocol_xboard,
		.engine_proto = &fb_protocol_uci,
		.engine_fen = FB_XFEN,
		.gui_fen = FB_XFEN,
		.gui_castling = FB_CASTLE_AUTO,
		.engine_castling = FB_CASTLE_AUTO,
	};
	bool toga = false, frc = false, ponder = false;
	size_t plies = 320, at = (size_t)-1, window = 5, info = 0, n;
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--toga") == 0)
			toga = true;
		else if (strcmp(argv[i], "--frc") == 0)
			frc = true;
		else if (strcmp(argv[i], "--ponder") == 0)
			ponder = true;
		else if (strcmp(argv[i], "--print") == 0)
			print = true;
		else if (strcmp(argv[i], "--plies") == 0 && i + 1 < argc)
			plies = strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--at") == 0 && i + 1 < argc)
			at = strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--window") == 0 && i + 1 < argc)
			window = strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--info") == 0 && i + 1 < argc)
			info = strtoul(argv[++i], NULL, 10);
		else {
			fprintf(stderr, "usage: bench_xboard_uci [--toga] "
					"[--frc] [--ponder] [--plies N] "
					"[--at PLY] [--window W] [--print] "
					"[--info N]\n");
			return 2;
		}
	}
	if (plies > MAX_PLIES - 2)
		plies = MAX_PLIES - 2;
	n = make_game(plies, frc, toga);
	fb_filter_init(&filter, &opt);
	handshake(toga);
	gui("new");
	if (frc) {
		gui("variant fischerandom");
		gui("setboard " F960);
	}
	if (ponder)
		gui("hard");
	gui("level 0 5 0");
	if (info > 0) {
		gui("post");
		gui("force");
		gui("go");
		measured_info(info);
		fb_filter_free(&filter);
		fprintf(stderr, "info: %zu lines, %zu bytes out\n", info,
			bytes_out);
		return 0;
	}
	for (size_t i = 0; i + 1 < n; i += 2) {
		bool in = at != (size_t)-1 && i >= at && i < at + 2 * window;
		if (!(in ? measured_cycle(i, ponder) : cycle(i, ponder))) {
			fprintf(stderr, "ply %zu: no move from the pair\n",
				i + 1);
			bad = 1;
			break;
		}
	}
	gui("quit");
	fb_filter_free(&filter);
	fprintf(stderr, "%zu plies played, %zu lines and %zu bytes out\n", n,
		lines_out, bytes_out);
	return bad;
}
