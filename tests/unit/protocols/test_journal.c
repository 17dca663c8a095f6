/* SPDX-License-Identifier: MIT */
/*
 * The engine wire's journal (protocols/journal.c): what a new engine is
 * sent after the old one died, for UCI and XBoard engines: the handshake,
 * the last setting of each option, the game, the search running with its
 * clocks reduced by the time spent, the pings not answered; and which of
 * the new engine's answers the GUI must not see.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "journal.h"

static char out[8192];
static size_t outlen;

static void
capture(void *ctx, const char *line, size_t len)
{
	(void)ctx;
	assert_true(outlen + len < sizeof out);
	assert_int_equal(line[len - 1], '\n');
	memcpy(out + outlen, line, len);
	outlen += len;
	out[outlen] = '\0';
}

static const char *
replay(struct fb_journal *j, bool uci, uint64_t ms)
{
	outlen = 0;
	out[0] = '\0';
	assert_true(fb_journal_replay(j, uci, ms, capture, NULL));
	return out;
}

static void
send(struct fb_journal *j, const char *lines, uint64_t ms)
{
	fb_journal_to_engine(j, lines, strlen(lines), ms);
}

static bool
hear(struct fb_journal *j, const char *line, uint64_t ms)
{
	return fb_journal_from_engine(j, line, strlen(line), ms);
}

static void
test_journal_uci_replay_reduces_the_clock_of_the_side_to_move(void **st)
{
	struct fb_journal *j = fb_journal_new();

	(void)st;
	send(j, "uci\n", 0);
	hear(j, "uciok", 10);
	send(j,
	     "setoption name Hash value 16\n"
	     "setoption name Clear Hash\n"
	     "setoption name UCI_Chess960 value true\n"
	     "setoption name hash value 64\n"
	     "isready\n",
	     20);
	hear(j, "readyok", 30);
	send(j, "ucinewgame\nposition startpos moves e2e4\n", 40);
	send(j, "go wtime 60000 btime 50000 winc 1000 binc 1000\n", 1000);
	hear(j, "info depth 10 score cp 20", 1500);
	assert_string_equal(replay(j, true, 3500),
			    "uci\n"
			    "setoption name Clear Hash\n"
			    "setoption name UCI_Chess960 value true\n"
			    "setoption name hash value 64\n"
			    "ucinewgame\n"
			    "isready\n"
			    "position startpos moves e2e4\n"
			    "go wtime 60000 btime 47500 winc 1000 binc 1000\n");
	fb_journal_free(j);
}

static void
test_journal_uci_no_search_after_bestmove_and_movetime_rest(void **st)
{
	struct fb_journal *j = fb_journal_new();

	(void)st;
	send(j, "uci\n", 0);
	hear(j, "uciok", 0);
	send(j, "position fen 8/8/8/8/8/8/k7/K7 w - - 0 1 moves a1b1\n", 0);
	send(j, "go movetime 2000\n", 100);
	hear(j, "bestmove a2a3", 2100);
	assert_string_equal(replay(j, true, 3000),
			    "uci\nisready\n"
			    "position fen 8/8/8/8/8/8/k7/K7 w - - 0 1 moves "
			    "a1b1\n");
	send(j, "go movetime 2000 btime 9000 wtime 100\n", 4000);
	send(j, "stop\n", 4100);
	assert_string_equal(replay(j, true, 4500),
			    "uci\nisready\n"
			    "position fen 8/8/8/8/8/8/k7/K7 w - - 0 1 moves "
			    "a1b1\n"
			    "go movetime 1500 btime 8500 wtime 100\nstop\n");
	/* a clock never goes below 1 ms */
	assert_non_null(strstr(replay(j, true, 20000), "movetime 1 btime 1 "));
	fb_journal_free(j);
}

/* A GUI that stops a search and starts the next one at once (analysis,
 * or every go sent before the engine's uciok came) gets the old bestmove
 * while the new search runs: that search is still replayed. */
static void
test_journal_uci_a_late_bestmove_answers_the_older_go(void **st)
{
	struct fb_journal *j = fb_journal_new();

	(void)st;
	send(j, "uci\n", 0);
	hear(j, "uciok", 0);
	send(j, "position startpos\ngo infinite\n", 100);
	send(j, "stop\nposition startpos moves e2e4\ngo movetime 900\n", 200);
	hear(j, "bestmove e2e4", 300);
	assert_string_equal(replay(j, true, 400),
			    "uci\nisready\nposition startpos moves e2e4\n"
			    "go movetime 700\n");
	/* the replayed go's bestmove, after the new handshake, ends it */
	assert_true(hear(j, "uciok", 450));
	assert_true(hear(j, "readyok", 460));
	assert_false(hear(j, "bestmove e7e5", 500));
	assert_string_equal(replay(j, true, 600),
			    "uci\nisready\nposition startpos moves e2e4\n");
	fb_journal_free(j);
}

static void
test_journal_uci_ponder_becomes_a_normal_go_after_ponderhit(void **st)
{
	struct fb_journal *j = fb_journal_new();
	const char *r;

	(void)st;
	send(j, "position startpos moves e2e4 e7e5\n", 0);
	send(j, "go ponder wtime 10000 btime 10000\n", 0);
	r = replay(j, true, 5000);
	assert_non_null(strstr(r, "go ponder wtime 10000 btime 10000\n"));
	send(j, "ponderhit\n", 6000);
	r = replay(j, true, 7000);
	assert_non_null(strstr(r, "\ngo wtime 9000 btime 10000\n"));
	send(j, "position startpos\ngo infinite\n", 8000);
	assert_non_null(strstr(replay(j, true, 9000), "\ngo infinite\n"));
	fb_journal_free(j);
}

static void
test_journal_uci_drops_the_new_handshake_answers(void **st)
{
	struct fb_journal *j = fb_journal_new();

	(void)st;
	send(j, "uci\n", 0);
	hear(j, "uciok", 0);
	send(j, "isready\nposition startpos\ngo depth 5\n", 0);
	/* the GUI's isready is not answered yet: the new engine gets it */
	assert_string_equal(replay(j, true, 10),
			    "uci\nisready\nposition startpos\ngo depth 5\n"
			    "isready\n");
	assert_true(hear(j, "Stockfish 15.1 by the Stockfish developers", 20));
	assert_true(hear(j, "id name Stockfish 15.1", 20));
	assert_true(hear(j, "option name Hash type spin default 16", 20));
	assert_true(hear(j, "uciok", 20));
	assert_true(hear(j, "readyok", 20)); /* the replay's own */
	assert_false(hear(j, "info depth 1 score cp 3", 30));
	assert_false(hear(j, "readyok", 30)); /* the GUI's */
	assert_false(hear(j, "bestmove e2e4", 40));
	assert_false(hear(j, "readyok", 50));
	assert_int_equal(fb_journal_restarts(j), 1);
	fb_journal_free(j);
}

static void
test_journal_a_death_in_the_handshake_gives_the_gui_the_answers(void **st)
{
	struct fb_journal *j = fb_journal_new();

	(void)st;
	send(j, "uci\n", 0);
	assert_false(hear(j, "id name Stockfish 15.1", 10));
	assert_string_equal(replay(j, true, 20), "uci\n");
	assert_false(hear(j, "id name Stockfish 15.1", 30));
	assert_false(hear(j, "uciok", 30));
	send(j, "xboard\nprotover 2\n", 40);
	fb_journal_free(j);
	j = fb_journal_new();
	send(j, "xboard\nprotover 2\n", 40);
	assert_false(hear(j, "feature done=0", 50));
	assert_string_equal(replay(j, false, 60), "xboard\nprotover 2\n");
	assert_false(hear(j, "feature done=0", 70));
	assert_false(hear(j, "feature myname=\"x\" done=1", 70));
	fb_journal_free(j);
}

static void
test_journal_lines_in_pieces_and_restarts_per_game(void **st)
{
	struct fb_journal *j = fb_journal_new();

	(void)st;
	send(j, "posi", 0);
	send(j, "tion startpos mo", 0);
	send(j, "ves d2d4\r\nucinewgame", 0);
	send(j, "\n", 0);
	/* a lone CR ends a line too */
	send(j,
	     "setoption name Hash value 1\rsetoption name Ponder value "
	     "true\r",
	     0);
	replay(j, true, 0);
	replay(j, true, 0);
	assert_int_equal(fb_journal_restarts(j), 2);
	assert_non_null(strstr(out, "position startpos moves d2d4\n"));
	assert_non_null(strstr(out, "\nsetoption name Hash value 1\n"
				    "setoption name Ponder value true\n"));
	send(j, "ucinewgame\n", 0);
	assert_int_equal(fb_journal_restarts(j), 0);
	send(j, "new\n", 0);
	replay(j, false, 0);
	assert_int_equal(fb_journal_restarts(j), 1);
	send(j, "new\n", 0);
	assert_int_equal(fb_journal_restarts(j), 0);
	fb_journal_free(j);
}

static void
test_journal_xboard_replay_brings_the_game_and_the_clock(void **st)
{
	struct fb_journal *j = fb_journal_new();

	(void)st;
	send(j, "xboard\nprotover 2\n", 0);
	hear(j, "feature usermove=1 ping=1 setboard=1 done=1", 5);
	send(j,
	     "accepted usermove\naccepted ping\naccepted setboard\n"
	     "new\nvariant fischerandom\nrandom\nlevel 40 5 0\npost\n"
	     "hard\neasy\noption Hash=16\noption Hash=32\ncomputer\n"
	     "sd 12\nforce\n"
	     "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w "
	     "KQkq - 0 1\n"
	     "usermove e2e4\n",
	     10);
	send(j, "time 30000\notim 29000\ngo\n", 1000);
	hear(j, "move e7e5", 3000);
	send(j, "time 28000\notim 29000\nusermove g1f3\nping 7\n", 4000);
	assert_string_equal(replay(j, false, 6000),
			    "xboard\nprotover 2\n"
			    "accepted usermove\naccepted ping\n"
			    "accepted setboard\n"
			    "new\nvariant fischerandom\nrandom\nlevel 40 5 0\n"
			    "post\neasy\noption Hash=32\ncomputer\nsd 12\n"
			    "force\n"
			    "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ"
			    "KBNR w KQkq - 0 1\n"
			    "usermove e2e4\nusermove e7e5\nusermove g1f3\n"
			    "time 27800\notim 29000\ngo\nping 7\n");
	/* its features are dropped, the rest flows */
	assert_true(hear(j, "feature myname=\"Fairy-Max\" usermove=1", 6100));
	assert_true(hear(j, "feature done=1", 6100));
	assert_false(hear(j, "feature done=1", 6200));
	assert_false(hear(j, "pong 7", 6300));
	assert_false(hear(j, "move b8c6", 6400));
	/* answered and moved: the engine waits for the GUI's move */
	replay(j, false, 7000);
	assert_null(strstr(out, "ping 7"));
	assert_null(strstr(out, "\ngo\n"));
	assert_non_null(strstr(out, "usermove b8c6\ntime 28000\notim 29000\n"
				    "playother\n"));
	fb_journal_free(j);
}

static void
test_journal_xboard_force_mode_and_bare_moves(void **st)
{
	struct fb_journal *j = fb_journal_new();

	(void)st;
	send(j, "xboard\n", 0);
	hear(j, "feature done=1", 0);
	send(j, "new\nforce\ne2e4\ne7e5\nundo\nd7d5\nping 3\n", 0);
	hear(j, "pong 3", 0);
	assert_string_equal(replay(j, false, 100),
			    "xboard\nnew\nforce\ne2e4\nd7d5\n");
	/* the features after a replay are dropped only until done=1 or the
	 * first move */
	assert_false(hear(j, "tellics say hello", 110));
	assert_true(hear(j, "feature sigint=0", 120));
	assert_false(hear(j, "move e2e4", 130));
	assert_false(hear(j, "feature option=\"x -check 1\"", 140));
	fb_journal_free(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_journal_uci_replay_reduces_the_clock_of_the_side_to_move),
		cmocka_unit_test(
			test_journal_uci_no_search_after_bestmove_and_movetime_rest),
		cmocka_unit_test(
			test_journal_uci_ponder_becomes_a_normal_go_after_ponderhit),
		cmocka_unit_test(
			test_journal_uci_a_late_bestmove_answers_the_older_go),
		cmocka_unit_test(
			test_journal_uci_drops_the_new_handshake_answers),
		cmocka_unit_test(
			test_journal_a_death_in_the_handshake_gives_the_gui_the_answers),
		cmocka_unit_test(
			test_journal_lines_in_pieces_and_restarts_per_game),
		cmocka_unit_test(
			test_journal_xboard_replay_brings_the_game_and_the_clock),
		cmocka_unit_test(test_journal_xboard_force_mode_and_bare_moves),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
