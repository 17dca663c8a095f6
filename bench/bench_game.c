/* SPDX-License-Identifier: MIT */
/*
 * Whole Chess960 games through fenbridge or a relay, the GUI side (issue
 * 18): the games of the game file (bench/data/chess960_games.txt, legal
 * games with castles), told
 *   - as a match runner tells a UCI engine (cutechess, fastchess): per ply
 *     `position fen <Shredder-FEN start> moves m1 .. mk` (king takes rook)
 *     and `isready`, and with go `go wtime ...`; the engine answers
 *     readyok and the game's next move, and checks every line it gets;
 *   - as XBoard tells an engine in fischerandom (`setboard`, `usermove`,
 *     `O-O`, `time`/`otim` before each move): fenbridge translates for a
 *     UCI engine (--engine-protocol=uci); the relays carry it to an XBoard
 *     engine. The GUI checks each `move` it gets.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/*
 * The next line from s but informational ones (`info ...` toward a UCI
 * GUI, `#` and `telluser` toward XBoard: a bridge may tell the user
 * something; the first is shown) must be want; it fails the session if not.
 */
static bool
expect_exact(struct session *s, const char *want)
{
	char got[256];

	for (;;) {
		if (!next_line(s, got, sizeof got))
			return false;
		if (strcmp(got, want) == 0)
			return true;
		if (strncmp(got, "info ", 5) != 0 && got[0] != '#' &&
		    strncmp(got, "telluser ", 9) != 0) {
			session_fail(s, "got '%s' where '%s' was due", got,
				     want);
			return false;
		}
		if (!s->told)
			fprintf(stderr,
				"bench_bridge: %s: '%s' (not counted)\n",
				s->name, got);
		s->told = true;
	}
}

static void
result_figures(struct game_result *res, const struct session *s, uint64_t t0,
	       double cpu0)
{
	uint64_t t1 = now_ns();

	if (res->plies == 0)
		return;
	res->us_per_ply = (double)(t1 - t0) / 1e3 / (double)res->plies;
	res->cpu_ns_per_ply = (proc_cpu_s(s->pid) - cpu0) * 1e9 /
			      (double)res->plies;
	res->hwm_kib = proc_status_kib(s->pid, "VmHWM");
}

struct game_result
run_game(enum runner who, const struct stream *file, const struct game960 *g,
	 unsigned nfile, unsigned ngames, bool go)
{
	struct game_result res = {0};
	struct session s;
	/* fenbridge gives an engine with UCI_Chess960 X-FEN (--engine-fen
	 * auto); the relays pass the GUI's Shredder-FEN */
	const char *mode = who == RUN_BRIDGE ? "game-xfen" : "game-shredder";
	char *line = malloc(GAME_LINE_MAX + 16), want[32];
	uint64_t t0;
	double cpu0;

	if (line == NULL)
		die("out of memory");
	session_start(&s, who, mode, file, file->len, 1, NULL);
	send_line(&s, "uci");
	if (!expect_line(&s, "uciok", NULL, NULL, 0))
		goto out;
	send_line(&s, "setoption name UCI_Chess960 value true");
	send_line(&s, "isready");
	if (!expect_line(&s, "readyok", NULL, NULL, 0))
		goto out;
	cpu0 = proc_cpu_s(s.pid);
	t0 = now_ns();
	for (unsigned i = 0; i < ngames; i++) {
		const struct game960 *gm = &g[i % nfile];
		char *p = put_s(put_s(line, "position fen "), gm->shredder);
		size_t base = (size_t)(p - line);
		send_line(&s, "ucinewgame");
		send_line(&s, "isready");
		if (!expect_exact(&s, "readyok"))
			goto out;
		for (unsigned k = 0; k < gm->n; k++) {
			p = line + base;
			memcpy(p, gm->text, gm->off[k]);
			p = put_s(p + gm->off[k], "\nisready\n");
			if (write_all(s.to, line, (size_t)(p - line)) < 0) {
				session_fail(&s, "write failed");
				goto out;
			}
			if (!expect_exact(&s, "readyok"))
				goto out;
			if (go) {
				send_line(&s, "go wtime 60000 btime 60000 "
					      "winc 1000 binc 1000");
				snprintf(want, sizeof want, "bestmove %s",
					 gm->uci[k]);
				if (!expect_exact(&s, want))
					goto out;
			}
			res.plies++;
		}
	}
	result_figures(&res, &s, t0, cpu0);
	res.ok = true;
out:
	session_end(&s, !res.ok);
	free(line);
	return res;
}

/* The GUI's side of one XBoard game to ply `plies`: the GUI plays the
 * even plies, the engine the odd ones. False if the session failed. */
static bool
xboard_game(struct session *s, const struct game960 *gm, unsigned plies,
	    unsigned long *count)
{
	char buf[160], want[32];
	unsigned ply = 0;

	send_line(s, "new");
	send_line(s, "variant fischerandom");
	send_line(s, "level 0 5 0");
	send_line(s, "force");
	snprintf(buf, sizeof buf, "setboard %s", gm->shredder);
	send_line(s, buf);
	while (ply + 2 <= plies && ply + 2 <= gm->n) {
		send_line(s, "time 30000");
		send_line(s, "otim 30000");
		snprintf(buf, sizeof buf, "usermove %s", gm->xb[ply]);
		send_line(s, buf);
		if (ply == 0) /* still in force mode after setboard */
			send_line(s, "go");
		snprintf(want, sizeof want, "move %s", gm->xb[ply + 1]);
		if (!expect_exact(s, want))
			return false;
		ply += 2;
	}
	send_line(s, "force");
	*count += ply;
	return true;
}

struct game_result
run_xboard(enum runner who, const struct stream *file, const struct game960 *g,
	   unsigned nfile, unsigned plies, unsigned rounds)
{
	static const char *const to_uci[] = {"--engine-protocol=uci", NULL};
	struct game_result res = {0};
	struct session s;
	char line[1024];
	unsigned long pings = 0;
	uint64_t t0;
	double cpu0;

	session_start(&s, who, who == RUN_BRIDGE ? "game-any" : "xbgame", file,
		      file->len, 1, to_uci);
	send_line(&s, "xboard");
	send_line(&s, "protover 2");
	do { /* fenbridge: feature done=0, then the features after uciok */
		if (!next_line(&s, line, sizeof line))
			goto out;
	} while (strstr(line, "done=1") == NULL);
	send_line(&s, "ping 0");
	if (!expect_line(&s, "pong 0", NULL, NULL, 0))
		goto out;
	cpu0 = proc_cpu_s(s.pid);
	t0 = now_ns();
	for (unsigned r = 0; r < rounds; r++)
		for (unsigned i = 0; i < nfile; i++) {
			if (!xboard_game(&s, &g[i], plies, &res.plies))
				goto out;
			snprintf(line, sizeof line, "ping %lu", ++pings);
			send_line(&s, line);
			snprintf(line, sizeof line, "pong %lu", pings);
			if (!expect_exact(&s, line))
				goto out;
		}
	result_figures(&res, &s, t0, cpu0);
	res.ok = true;
out:
	session_end(&s, !res.ok);
	return res;
}
