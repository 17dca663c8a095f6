/* SPDX-License-Identifier: MIT */
/*
 * Benchmark of the bridge (src/daemon/bridge*.c, the line framer, the
 * filters, the protocol pairs) against minimal relays, all measured in one
 * run so that the ratios come from the same machine and the same moment.
 *
 * Usage: bench_bridge [--quick] [--reps=N] [--only=LIST] [--count=N]
 *                     [--wrap=PROG] [--games=FILE] FENBRIDGE
 *   --quick      smaller streams, one repetition (a few seconds)
 *   --reps=N     repetitions of each fenbridge/relay pair (default 3)
 *   --only=LIST  some of flood,flood960,rtt,pos,fens,stall,game,gamego,
 *                xboard,mem (comma-separated; all but mem by default)
 *   --count=N    the size of each measurement chosen, in its unit: info
 *                lines (flood, flood960), round trips (rtt), lines (pos,
 *                fens), games of the game file (game, gamego), plies of
 *                each game (xboard); for bench/callgrind_lines.sh, which
 *                runs two sizes and divides the difference
 *   --wrap=PROG  start each bridge and relay as `PROG BRIDGE ARGS...`, with
 *                BENCH_BRIDGE_RUNNER=fenbridge|relay|linerelay|uvrelay in
 *                its environment (callgrind_lines.sh: valgrind)
 *   --games=FILE the game file (default bench/data/chess960_games.txt)
 * Each measurement also prints `units: MODE N` (what it counted).
 *
 * The parts this one program plays are in bench_parts.c (the fake engine,
 * the relays); the GUI (the default) starts `FENBRIDGE -- SELF --engine
 * ...` or `SELF --relay -- SELF --engine ...` (--linerelay, --uvrelay) on
 * pipes, talks UCI or XBoard to it, times it and checks every byte that
 * comes out.
 *
 * Every stream is generated once, before any timing, into files under
 * /dev/shm (unlinked at once; the engine opens them as /proc/PID/fd/N), so
 * neither end spends time formatting while the clock runs and both ends can
 * check byte for byte what the other sent.
 *
 * Measurements (each fenbridge run interleaved with the relay runs; figures
 * are medians over the repetitions, with the range; the CPU time per line
 * of the bridge or relay process, from /proc/PID/schedstat, is shown beside
 * the wall-clock rates because it is far less sensitive to other load on
 * the machine):
 *   1. engine -> GUI flood of `info` lines after a uci/position preamble,
 *      plain (castling notations agree: lines pass untouched) and the worst
 *      case (GUI in UCI_Chess960, engine without it, position with castling
 *      rights: every pv is parsed and castling moves rewritten e1g1 -> e1h1;
 *      the GUI checks that through a list of patched bytes);
 *   2. isready -> readyok round trips, one at a time, the fenbridge and the
 *      three relay sessions open together and taking turns: median and p99;
 *   3. GUI -> engine `position fen <Shredder-FEN> moves ...` lines: Chess960
 *      starts, games resent with one more move each time, long move lists of
 *      40-200 plies, mid-game FENs; the engine checks each line against the
 *      X-FEN rewrite the bench computed itself (BENCH_BRIDGE_DEBUG=1 in the
 *      environment: the engine prints the first line that differs); and
 *      (fens) 10,000 different Chess960 positions in bulk, X-FEN as sent,
 *      each a `position fen ... moves ...` line, to an engine that gets
 *      Shredder-FEN (--engine-fen=shredder);
 *   4. peak RSS (VmHWM) of the bridge process in the flood, and in a flood
 *      during which the GUI stops reading for a few seconds, then drains;
 *   5. (game, gamego) whole games of the game file as match runners send
 *      them, per ply `position fen START moves ...` and `isready` (gamego:
 *      and `go`, answered with the game's move): bench_game.c;
 *   6. (xboard) an XBoard GUI in fischerandom with a UCI engine behind
 *      `fenbridge --engine-protocol=uci` (the relays: an XBoard engine),
 *      every game of the file to a ply: bench_game.c;
 *   7. (mem) peak RSS of fenbridge in a flood, bulk FENs, whole games and
 *      XBoard games, each run short and 10 times as long: no growth.
 *
 * Exit status: 0 whatever the figures; 1 when any line was lost, reordered
 * or corrupted (or a run hung); 2 on a usage or setup error.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#ifndef BENCH_GAMES_FILE
#define BENCH_GAMES_FILE "bench/data/chess960_games.txt"
#endif

/* Targets. */
#define TARGET_FLOOD_RATIO 1.0 /* info flood, against the poll relay */
#define TARGET_FENS_RATIO 0.5  /* bulk X-FEN -> Shredder-FEN lines */
#define TARGET_RTT_US 0.5      /* isready, over the libuv relay's median */
#define TARGET_RSS_KIB 3072

struct sizes {
	unsigned long flood_lines; /* measurement 1 */
	unsigned long stall_lines; /* measurement 4, second part */
	unsigned stall_ms;
	unsigned long rtt_n; /* measurement 2 */
	unsigned long rtt_warmup;
	unsigned long pos_lines;  /* measurement 3 */
	unsigned long fens_lines; /* measurement 3, bulk FENs */
	unsigned games;           /* measurement 5, in rounds of the file */
	unsigned xboard_plies;    /* measurement 6 */
	int reps;                 /* of 1, 2, 3, 5 and 6 */
};

static const struct sizes full_sizes = {
	.flood_lines = 2000000,
	.stall_lines = 1000000,
	.stall_ms = 3000,
	.rtt_n = 20000,
	.rtt_warmup = 1000,
	.pos_lines = 300000,
	.fens_lines = 1000000,
	.games = 3,
	.xboard_plies = 400,
	.reps = 3,
};

static const struct sizes quick_sizes = {
	.flood_lines = 400000,
	.stall_lines = 300000,
	.stall_ms = 1000,
	.rtt_n = 4000,
	.rtt_warmup = 300,
	.pos_lines = 60000,
	.fens_lines = 200000,
	.games = 1,
	.xboard_plies = 400,
	.reps = 1,
};

struct flood_result {
	double lines_per_s;
	double cpu_ns_per_line; /* of the bridge or relay process */
	long ctxsw;             /* its context switches in the timed part */
	long hwm_kib;
	long stall_rss_kib; /* max VmRSS seen while the GUI did not read */
	bool ok;
};

/*
 * One flood: preamble, `go`, read and compare explen bytes, rep times over
 * (rep > 1: explen is the whole flood and ps NULL). With stall_at, stops
 * reading there for stall_ms, sampling the bridge's RSS.
 */
static struct flood_result
run_flood(enum runner who, const struct patches *ps, const struct stream *flood,
	  size_t explen, unsigned rep, unsigned long lines, size_t stall_at,
	  unsigned stall_ms)
{
	struct flood_result res = {0};
	struct session s;
	bool chess960 = ps != NULL;
	const char *exp = flood->data;
	char *rb = malloc(IO_SIZE), *eb = malloc(IO_SIZE);
	size_t off = 0, pi = 0, total = explen * rep;
	uint64_t t0, t1;
	double cpu0;
	long cs0;

	if (rb == NULL || eb == NULL)
		die("out of memory");
	session_start(&s, who, "flood", flood, explen, rep, NULL);
	send_line(&s, "uci");
	if (!expect_line(&s, "uciok", NULL, NULL, 0))
		goto out;
	if (chess960)
		send_line(&s, "setoption name UCI_Chess960 value true");
	send_line(&s, "isready");
	if (!expect_line(&s, "readyok", NULL, NULL, 0))
		goto out;
	send_line(&s, "ucinewgame");
	if (chess960)
		send_line(&s, "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/"
			      "RNBQKBNR w HAha - 0 1");
	else
		send_line(&s, "position startpos");
	send_line(&s, "isready");
	if (!expect_line(&s, "readyok", NULL, NULL, 0))
		goto out;
	cpu0 = proc_cpu_s(s.pid);
	cs0 = proc_status_kib(s.pid, "voluntary_ctxt_switches") +
	      proc_status_kib(s.pid, "nonvoluntary_ctxt_switches");
	t0 = now_ns();
	if (s.len > 0) {
		session_fail(&s, "unexpected output before the flood: '%.*s'",
			     (int)(s.len > 80 ? 80 : s.len), s.buf);
		goto out;
	}
	send_line(&s, "go infinite");
	while (off < total) {
		size_t at = off % explen; /* in this copy of the flood */
		size_t want = explen - at < IO_SIZE ? explen - at : IO_SIZE;
		ssize_t r;
		if (stall_at > 0 && off >= stall_at) {
			uint64_t until = now_ns() +
					 (uint64_t)stall_ms * 1000000u;
			struct timespec nap = {0, 50 * 1000000L};
			while (now_ns() < until) {
				long rss = proc_status_kib(s.pid, "VmRSS");
				if (rss > res.stall_rss_kib)
					res.stall_rss_kib = rss;
				nanosleep(&nap, NULL);
			}
			stall_at = 0;
		}
		r = read(s.from, rb, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			session_fail(&s, "end of output after %zu of %zu bytes",
				     off, total);
			goto out;
		}
		/* The expectation: the flood, with the Chess960 patches. */
		memcpy(eb, exp + at, (size_t)r);
		for (; ps != NULL && pi < ps->n &&
		       ps->v[pi].off < off + (size_t)r;
		     pi++)
			eb[ps->v[pi].off - off] = ps->v[pi].c;
		if (memcmp(rb, eb, (size_t)r) != 0) {
			size_t k = 0;
			while (rb[k] == eb[k])
				k++;
			report_mismatch(&s, exp, explen, at + k, rb + k,
					(size_t)r - k);
			goto out;
		}
		off += (size_t)r;
	}
	t1 = now_ns();
	lines *= rep;
	res.lines_per_s = (double)lines / ((double)(t1 - t0) / 1e9);
	res.cpu_ns_per_line = (proc_cpu_s(s.pid) - cpu0) * 1e9 / (double)lines;
	res.ctxsw = proc_status_kib(s.pid, "voluntary_ctxt_switches") +
		    proc_status_kib(s.pid, "nonvoluntary_ctxt_switches") - cs0;
	res.hwm_kib = proc_status_kib(s.pid, "VmHWM");
	res.ok = true;
out:
	session_end(&s, !res.ok);
	free(rb);
	free(eb);
	return res;
}

struct rtt_result {
	double median_us, p99_us;
	double cpu_us; /* the bridge's or relay's CPU time per round trip */
	bool ok;
};

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One isready -> readyok round trip: its time in ns, or 0 on failure. */
static uint64_t
round_trip(struct session *s, unsigned long i)
{
	uint64_t t0 = now_ns();
	char rb[64];
	size_t got = 0;

	if (write_all(s->to, "isready\n", 8) < 0) {
		session_fail(s, "write: %s", strerror(errno));
		return 0;
	}
	while (got < 8) {
		ssize_t r = read(s->from, rb + got, sizeof rb - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			session_fail(s, "end of output in round trip %lu",
				     i + 1);
			return 0;
		}
		got += (size_t)r;
	}
	if (got != 8 || memcmp(rb, "readyok\n", 8) != 0) {
		session_fail(s, "round trip %lu: got '%.*s' for readyok", i + 1,
			     (int)got, rb);
		return 0;
	}
	return now_ns() - t0;
}

/*
 * Round trips through the poll relay, the libuv relay and fenbridge, the
 * three sessions open at once and taking turns (in rotating order), so that
 * all see the same machine at the same moment: res[] by enum runner.
 */
static void
run_rtt(unsigned long n, unsigned long warmup, struct rtt_result res[NRUNNERS])
{
	struct session s[NRUNNERS];
	uint64_t *t[NRUNNERS];
	double cpu0[NRUNNERS] = {0};
	bool ok = true;

	for (int k = 0; k < NRUNNERS; k++) {
		res[k] = (struct rtt_result){0};
		if ((t[k] = malloc(n * sizeof *t[k])) == NULL)
			die("out of memory");
		session_start(&s[k], (enum runner)k, "plain", NULL, 0, 1, NULL);
		send_line(&s[k], "uci");
		ok = ok && expect_line(&s[k], "uciok", NULL, NULL, 0);
		send_line(&s[k], "position startpos");
		send_line(&s[k], "isready");
		ok = ok && expect_line(&s[k], "readyok", NULL, NULL, 0);
		if (ok && s[k].len > 0) {
			session_fail(&s[k], "unexpected output before the "
					    "round trips");
			ok = false;
		}
	}
	for (unsigned long i = 0; ok && i < warmup + n; i++) {
		if (i == warmup)
			for (int k = 0; k < NRUNNERS; k++)
				cpu0[k] = proc_cpu_s(s[k].pid);
		for (int j = 0; ok && j < NRUNNERS; j++) {
			int k = (int)((i + (unsigned long)j) % NRUNNERS);
			uint64_t dt = round_trip(&s[k], i);
			ok = dt > 0;
			if (i >= warmup)
				t[k][i - warmup] = dt;
		}
	}
	for (int k = 0; k < NRUNNERS; k++) {
		if (ok) {
			res[k].cpu_us = (proc_cpu_s(s[k].pid) - cpu0[k]) * 1e6 /
					(double)n;
			qsort(t[k], n, sizeof *t[k], cmp_u64);
			res[k].median_us = (double)t[k][n / 2] / 1e3;
			res[k].p99_us = (double)t[k][n - 1 - n / 100] / 1e3;
			res[k].ok = true;
		}
		session_end(&s[k], !ok);
		free(t[k]);
	}
}

struct pos_result {
	double lines_per_s, mb_per_s;
	double cpu_ns_per_line;
	long hwm_kib;
	bool ok;
};

/* The position stream GUI -> engine, rep times over; the engine checks it
 * against exp. */
static struct pos_result
run_pos(enum runner who, const struct stream *in, const struct stream *exp,
	unsigned rep, const char *const *extra)
{
	struct pos_result res = {0};
	struct session s;
	char tally[160] = "";
	unsigned long got = 0, bad = 0;
	long first = -1;
	size_t off = 0, total = in->len * rep;
	unsigned long lines = in->lines * rep;
	uint64_t t0, t1;
	double cpu0;

	session_start(&s, who, "pos", exp, exp->len, rep, extra);
	send_line(&s, "uci");
	if (!expect_line(&s, "uciok", NULL, NULL, 0))
		goto out;
	send_line(&s, "setoption name UCI_Chess960 value true");
	send_line(&s, "ucinewgame");
	send_line(&s, "isready");
	if (!expect_line(&s, "readyok", NULL, NULL, 0))
		goto out;
	fcntl(s.to, F_SETFL, fcntl(s.to, F_GETFL) | O_NONBLOCK);
	cpu0 = proc_cpu_s(s.pid);
	t0 = now_ns();
	while (off < total) {
		struct pollfd pf[2] = {{.fd = s.to, .events = POLLOUT},
				       {.fd = s.from, .events = POLLIN}};
		ssize_t w;
		size_t at = off % in->len;
		size_t k = in->len - at < IO_SIZE ? in->len - at : IO_SIZE;
		w = write(s.to, in->data + at, k);
		if (w > 0) {
			off += (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EINTR) {
			session_fail(&s, "write: %s", strerror(errno));
			goto out;
		}
		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (pf[1].revents != 0) { /* keep what comes back */
			ssize_t r = read(s.from, s.buf + s.len, SBUF - s.len);
			if (r <= 0 || s.len + (size_t)r == SBUF) {
				session_fail(&s, "unexpected output while "
						 "sending positions");
				goto out;
			}
			s.len += (size_t)r;
		}
	}
	fcntl(s.to, F_SETFL, fcntl(s.to, F_GETFL) & ~O_NONBLOCK);
	send_line(&s, "isready");
	if (!expect_line(&s, "readyok", "info string bench lines ", tally,
			 sizeof tally))
		goto out;
	t1 = now_ns();
	if (sscanf(tally, "info string bench lines %lu bad %lu first %ld", &got,
		   &bad, &first) != 3) {
		session_fail(&s, "no tally from the engine");
		goto out;
	}
	if (got != lines || bad != 0) {
		session_fail(&s,
			     "the engine got %lu of %lu position lines, "
			     "%lu not as expected (first: line %ld)",
			     got, lines, bad, first + 1);
		goto out;
	}
	res.lines_per_s = (double)lines / ((double)(t1 - t0) / 1e9);
	res.mb_per_s = (double)total / ((double)(t1 - t0) / 1e3);
	res.cpu_ns_per_line = (proc_cpu_s(s.pid) - cpu0) * 1e9 / (double)lines;
	res.hwm_kib = proc_status_kib(s.pid, "VmHWM");
	res.ok = true;
out:
	session_end(&s, !res.ok);
	return res;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median of the n > 0 values (sorted in place). */
static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const char *
verdict(bool met)
{
	return met ? "met" : "NOT met";
}

static double
mib(long kib)
{
	return (double)kib / 1024.0;
}

#define MAX_REPS 9

struct flood_set {
	double lps[MAX_REPS], cpu[MAX_REPS];
	long hwm;
	int n;
};

static void
flood_add(struct flood_set *fs, const struct flood_result *r)
{
	if (!r->ok)
		return;
	fs->lps[fs->n] = r->lines_per_s;
	fs->cpu[fs->n] = r->cpu_ns_per_line;
	fs->n++;
	if (r->hwm_kib > fs->hwm)
		fs->hwm = r->hwm_kib;
}

static void
progress(const char *what, const char *who, double lps, double cpu, long ctxsw)
{
	fprintf(stderr, "  %-22s %-9s %6.3f M lines/s, %5.0f ns CPU/line", what,
		who, lps / 1e6, cpu);
	if (ctxsw >= 0)
		fprintf(stderr, ", %ld context switches", ctxsw);
	fputc('\n', stderr);
}

/* "1.23" or, over several runs, "1.23 (1.01-1.35)": M lines/s. */
static const char *
figure(char *buf, size_t cap, struct flood_set *fs)
{
	double m = median(fs->lps, fs->n); /* sorts */

	if (fs->n == 1)
		snprintf(buf, cap, "%.2f", m / 1e6);
	else
		snprintf(buf, cap, "%.2f (%.2f-%.2f)", m / 1e6,
			 fs->lps[0] / 1e6, fs->lps[fs->n - 1] / 1e6);
	return buf;
}

/* Throughput of fenbridge against a relay (rl, named rname) and the uv
 * relay (NULL or empty: none); target is the ratio to rl to reach, or 0
 * for a figure only. */
static void
print_throughput(const char *what, struct flood_set *fb, struct flood_set *rl,
		 const char *rname, struct flood_set *uv, double target)
{
	char fbuf[64], rbuf[64], ubuf[64], tbuf[64] = "";
	double ratio, cf, cr;

	if (fb->n == 0 || rl->n == 0) {
		printf("%s: no valid run\n", what);
		return;
	}
	ratio = median(fb->lps, fb->n) / median(rl->lps, rl->n);
	cf = median(fb->cpu, fb->n);
	cr = median(rl->cpu, rl->n);
	if (target > 0)
		snprintf(tbuf, sizeof tbuf, " (target >= %.1f: %s)", target,
			 verdict(ratio >= target));
	printf("%s: fenbridge %s M lines/s, %s %s M lines/s, ratio %.2f%s; "
	       "CPU per line fenbridge %.0f ns, %s %.0f ns (%.1fx)",
	       what, figure(fbuf, sizeof fbuf, fb), rname,
	       figure(rbuf, sizeof rbuf, rl), ratio, tbuf, cf, rname, cr,
	       cf / cr);
	if (uv != NULL && uv->n > 0) {
		double cu = median(uv->cpu, uv->n);
		printf("; uv relay %s M lines/s (ratio %.2f), %.0f ns CPU/line",
		       figure(ubuf, sizeof ubuf, uv),
		       median(fb->lps, fb->n) / median(uv->lps, uv->n), cu);
	}
	putchar('\n');
}

/* The 1, 5 and 15 minute load averages ("unknown" without /proc). */
static void
read_loadavg(char *buf, size_t cap)
{
	double l[3];
	FILE *f = fopen("/proc/loadavg", "r");

	if (f != NULL && fscanf(f, "%lf %lf %lf", &l[0], &l[1], &l[2]) == 3)
		snprintf(buf, cap, "%.2f %.2f %.2f", l[0], l[1], l[2]);
	else
		snprintf(buf, cap, "unknown");
	if (f != NULL)
		fclose(f);
}

/* Per-ply figures of whole games, by runner: median us/ply (wall) and CPU
 * ns/ply, with the ratios of fenbridge to the line relay. */
struct game_set {
	double us[NRUNNERS][MAX_REPS], cpu[NRUNNERS][MAX_REPS];
	int n[NRUNNERS];
	unsigned long plies;
	long hwm;
};

static void
game_add(struct game_set *gs, enum runner who, const struct game_result *r)
{
	if (!r->ok)
		return;
	gs->us[who][gs->n[who]] = r->us_per_ply;
	gs->cpu[who][gs->n[who]] = r->cpu_ns_per_ply;
	gs->n[who]++;
	gs->plies = r->plies;
	if (who == RUN_BRIDGE && r->hwm_kib > gs->hwm)
		gs->hwm = r->hwm_kib;
	fprintf(stderr, "  %-22s %-10s %7.1f us/ply, %6.0f ns CPU/ply\n",
		"whole games", runner_name[who], r->us_per_ply,
		r->cpu_ns_per_ply);
}

static void
print_game(const char *what, struct game_set *gs)
{
	double us[NRUNNERS], cpu[NRUNNERS];
	static const enum runner order[] = {RUN_BRIDGE, RUN_LINERELAY,
					    RUN_RELAY};

	for (int k = 0; k < 3; k++) {
		enum runner w = order[k];
		if (gs->n[w] == 0) {
			printf("%s: no valid run\n", what);
			return;
		}
		us[w] = median(gs->us[w], gs->n[w]);
		cpu[w] = median(gs->cpu[w], gs->n[w]);
	}
	printf("%s (%lu plies): per ply fenbridge %.1f us, %.0f ns CPU; line "
	       "relay %.1f us, %.0f ns CPU; relay %.1f us, %.0f ns CPU; "
	       "fenbridge / line relay: wall %.2fx, CPU %.2fx; peak RSS "
	       "fenbridge %.2f MiB\n",
	       what, gs->plies, us[RUN_BRIDGE], cpu[RUN_BRIDGE],
	       us[RUN_LINERELAY], cpu[RUN_LINERELAY], us[RUN_RELAY],
	       cpu[RUN_RELAY], us[RUN_BRIDGE] / us[RUN_LINERELAY],
	       cpu[RUN_BRIDGE] / cpu[RUN_LINERELAY], mib(gs->hwm));
}

/* Peak RSS of a short run and of one 10 times as long. */
/* Growth allowed: the peak of a run varies by up to about 200 KiB from run
 * to run (how far the pipes and queues fill); a leak of one byte per line
 * of the long flood or bulk-FEN run, or of 10 bytes per ply of the long
 * game runs, is more. */
#define MEM_TARGET_KIB 256

static void
print_mem(const char *what, long short_kib, long long_kib, long relay_kib,
	  bool ok)
{
	if (!ok || short_kib <= 0 || long_kib <= 0) {
		printf("memory, %s: no valid run\n", what);
		return;
	}
	printf("memory, %s: peak RSS fenbridge %.2f MiB, 10x as long %.2f MiB: "
	       "growth %+ld KiB (target <= %d KiB: %s); relay %.2f MiB\n",
	       what, mib(short_kib), mib(long_kib), long_kib - short_kib,
	       MEM_TARGET_KIB, verdict(long_kib - short_kib <= MEM_TARGET_KIB),
	       mib(relay_kib));
}

static int
usage(void)
{
	fputs("usage: bench_bridge [--quick] [--reps=N] [--only=LIST] "
	      "[--count=N] [--wrap=PROG]\n"
	      "                    [--games=FILE] FENBRIDGE\n"
	      "  Measures FENBRIDGE (the fenbridge executable) against "
	      "minimal relays:\n"
	      "  info-line floods, isready round trips, position lines, "
	      "whole games, XBoard\n"
	      "  games through --engine-protocol=uci, peak RSS.\n"
	      "  --quick      smaller streams, one repetition\n"
	      "  --reps=N     repetitions of each measurement (1-9, default "
	      "3)\n"
	      "  --only=LIST  some of flood,flood960,rtt,pos,fens,stall,game,"
	      "gamego,\n               xboard,mem\n"
	      "  --count=N    the size of each chosen measurement in its unit "
	      "(lines, round\n               trips, games, plies per XBoard "
	      "game)\n"
	      "  --wrap=PROG  start each bridge and relay under PROG "
	      "(e.g. valgrind)\n"
	      "  --games=FILE the whole games (default " BENCH_GAMES_FILE ")\n"
	      "  Exit status 0 whatever the figures, 1 if a line was lost, "
	      "reordered or\n  corrupted, 2 on a usage or setup error.\n",
	      stderr);
	return 2;
}

/* The game file, parsed, and its text as a stream for the engine. */
static struct game960 *
load_games(const char *path, struct stream *s, unsigned *n)
{
	FILE *f = fopen(path, "rb");
	char buf[IO_SIZE];
	size_t k;

	if (f == NULL)
		die("%s: %s", path, strerror(errno));
	stream_create(s);
	while ((k = fread(buf, 1, sizeof buf, f)) > 0)
		stream_wrote(s, (char *)memcpy(stream_at(s, k), buf, k) + k);
	fclose(f);
	stream_seal(s);
	return games_parse(s->data, s->len, n);
}

static void
units(const char *mode, unsigned long n)
{
	printf("units: %s %lu\n", mode, n);
}

static bool
chosen(const char *list, const char *mode)
{
	char l[160], m[32];

	if (list == NULL)
		return true;
	snprintf(l, sizeof l, ",%s,", list);
	snprintf(m, sizeof m, ",%s,", mode);
	return strstr(l, m) != NULL;
}

int
main(int argc, char **argv)
{
	struct sizes z;
	struct stream flood = {0}, pos_in = {0}, pos_out = {0};
	struct stream fens_in = {0}, fens_out = {0}, games_file = {0};
	struct patches flood_kxr = {0};
	size_t stall_len = 0;
	unsigned long resent = 0;
	long count = -1; /* --count: -1 for none */
	struct flood_set fl_fb = {0}, fl_rl = {0}, fl_uv = {0}, fl_lr = {0};
	struct flood_set fl960_fb = {0};
	struct flood_set pos_fb = {0}, pos_rl = {0}, pos_lr = {0};
	struct flood_set fens_fb = {0}, fens_rl = {0}, fens_lr = {0};
	struct game_set gm[2], xb;
	struct flood_result st_fb = {0}, st_rl = {0};
	double rtt_med[NRUNNERS][MAX_REPS], rtt_p99[NRUNNERS][MAX_REPS];
	double rtt_cpu[NRUNNERS][MAX_REPS];
	int nrtt = 0, runs = 0, reps = 0;
	const char *only = NULL, *games_path = BENCH_GAMES_FILE;
	bool quick = false, do_flood, do_flood960, do_rtt, do_pos, do_fens;
	bool do_stall, do_game, do_gamego, do_xboard, do_mem;
	long pos_hwm = 0, fens_hwm = 0;
	struct game960 *games = NULL;
	unsigned ngames = 0;
	unsigned long game_n;
	char loadavg[64];
	uint64_t t_start = now_ns(), tg;
	ssize_t sl;
	static const char *const to_shredder[] = {"--engine-fen=shredder",
						  NULL};
	static const enum runner pos_runners[] = {RUN_RELAY, RUN_LINERELAY,
						  RUN_BRIDGE};

	if (argc >= 2 && strcmp(argv[1], "--engine") == 0)
		return engine_main(argc - 2, argv + 2);
	memset(gm, 0, sizeof gm);
	memset(&xb, 0, sizeof xb);
	if (argc >= 3 && strcmp(argv[2], "--") == 0) {
		signal(SIGPIPE, SIG_IGN);
		if (strcmp(argv[1], "--relay") == 0)
			return relay_main(argv + 3);
		if (strcmp(argv[1], "--linerelay") == 0)
			return linerelay_main(argv + 3);
		if (strcmp(argv[1], "--uvrelay") == 0)
			return uvrelay_main(argv + 3);
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			quick = true;
		else if (strncmp(argv[i], "--reps=", 7) == 0)
			reps = atoi(argv[i] + 7);
		else if (strncmp(argv[i], "--only=", 7) == 0)
			only = argv[i] + 7;
		else if (strncmp(argv[i], "--count=", 8) == 0)
			count = strtol(argv[i] + 8, NULL, 10);
		else if (strncmp(argv[i], "--wrap=", 7) == 0)
			bench_wrap = argv[i] + 7;
		else if (strncmp(argv[i], "--games=", 8) == 0)
			games_path = argv[i] + 8;
		else if (argv[i][0] == '-')
			return usage();
		else if (fenbridge_path == NULL)
			fenbridge_path = argv[i];
		else
			return usage();
	}
	z = quick ? quick_sizes : full_sizes;
	if (fenbridge_path == NULL)
		return usage();
	if (reps == 0)
		reps = z.reps;
	if (reps < 1 || reps > MAX_REPS)
		return usage();
	do_flood = chosen(only, "flood");
	do_flood960 = chosen(only, "flood960");
	do_rtt = chosen(only, "rtt");
	do_pos = chosen(only, "pos");
	do_fens = chosen(only, "fens");
	do_stall = chosen(only, "stall");
	do_game = chosen(only, "game");
	do_gamego = chosen(only, "gamego");
	do_xboard = chosen(only, "xboard");
	do_mem = only != NULL && chosen(only, "mem");
	if (count == 0 && (do_flood || do_flood960 || do_rtt || do_pos ||
			   do_fens || do_xboard))
		die("--count=0 is for game and gamego only");
	if (count >= 0) {
		z.flood_lines = z.rtt_n = z.pos_lines = z.fens_lines =
			(unsigned long)count;
		z.games = (unsigned)count;
		z.xboard_plies = (unsigned)count;
	}
	if (access(fenbridge_path, X_OK) < 0)
		die("%s: %s", fenbridge_path, strerror(errno));
	if (bench_wrap != NULL && access(bench_wrap, X_OK) < 0)
		die("%s: %s", bench_wrap, strerror(errno));
	sl = readlink("/proc/self/exe", self_path, PATH_MAX - 1);
	if (sl <= 0)
		die("cannot find this program's path (/proc/self/exe): %s",
		    strerror(errno));
	self_path[sl] = '\0';
	signal(SIGPIPE, SIG_IGN);
	signal(SIGALRM, on_alarm);
	setvbuf(stdout, NULL, _IOLBF, 0);
	read_loadavg(loadavg, sizeof loadavg);

	tg = now_ns();
	openings_init();
	if (do_flood || do_flood960 || do_stall || do_mem)
		make_flood(&flood, &flood_kxr, z.flood_lines, z.stall_lines,
			   &stall_len);
	if (do_pos)
		resent = make_positions(&pos_in, &pos_out, z.pos_lines);
	if (do_fens || do_mem)
		make_bulk(&fens_in, &fens_out, z.fens_lines);
	if (do_game || do_gamego || do_xboard || do_mem) {
		unsigned plies = 0, castles = 0;
		games = load_games(games_path, &games_file, &ngames);
		for (unsigned i = 0; i < ngames; i++) {
			plies += games[i].n;
			castles += games[i].castles;
		}
		fprintf(stderr,
			"bench_bridge: %s: %u games, %u plies, %u "
			"castles\n",
			games_path, ngames, plies, castles);
	}
	/* count: games; by default rounds of the file */
	game_n = count >= 0 ? (unsigned long)count
			    : (unsigned long)z.games * ngames;
	fprintf(stderr,
		"bench_bridge: %s run, %d repetition%s; streams "
		"generated in %.1f s\n",
		quick ? "quick" : "full", reps, reps > 1 ? "s" : "",
		(double)(now_ns() - tg) / 1e9);

	/* 1 and 4a: floods, interleaved. */
	for (int r = 0; (do_flood || do_flood960) && r < reps; r++) {
		struct flood_result a;
		a = run_flood(RUN_RELAY, NULL, &flood, flood.len, 1,
			      z.flood_lines, 0, 0);
		flood_add(&fl_rl, &a);
		progress("flood", "relay", a.lines_per_s, a.cpu_ns_per_line,
			 a.ctxsw);
		runs++;
		if (do_flood) {
			a = run_flood(RUN_LINERELAY, NULL, &flood, flood.len, 1,
				      z.flood_lines, 0, 0);
			flood_add(&fl_lr, &a);
			progress("flood", "line relay", a.lines_per_s,
				 a.cpu_ns_per_line, a.ctxsw);
			a = run_flood(RUN_UVRELAY, NULL, &flood, flood.len, 1,
				      z.flood_lines, 0, 0);
			flood_add(&fl_uv, &a);
			progress("flood", "uv relay", a.lines_per_s,
				 a.cpu_ns_per_line, a.ctxsw);
			a = run_flood(RUN_BRIDGE, NULL, &flood, flood.len, 1,
				      z.flood_lines, 0, 0);
			flood_add(&fl_fb, &a);
			progress("flood", "fenbridge", a.lines_per_s,
				 a.cpu_ns_per_line, a.ctxsw);
			runs += 3;
		}
		if (do_flood960) {
			a = run_flood(RUN_BRIDGE, &flood_kxr, &flood, flood.len,
				      1, z.flood_lines, 0, 0);
			flood_add(&fl960_fb, &a);
			progress("flood, Chess960 GUI", "fenbridge",
				 a.lines_per_s, a.cpu_ns_per_line, a.ctxsw);
			runs++;
		}
	}
	/* 2: round trips. */
	for (int r = 0; do_rtt && r < reps; r++) {
		struct rtt_result res[NRUNNERS];
		bool ok = true;
		run_rtt(z.rtt_n, z.rtt_warmup, res);
		for (int k = 0; k < NRUNNERS; k++)
			ok = ok && res[k].ok;
		if (ok) {
			for (int k = 0; k < NRUNNERS; k++) {
				rtt_med[k][nrtt] = res[k].median_us;
				rtt_p99[k][nrtt] = res[k].p99_us;
				rtt_cpu[k][nrtt] = res[k].cpu_us;
			}
			nrtt++;
		}
		for (int k = 0; k < NRUNNERS; k++)
			fprintf(stderr,
				"  %-22s %-10s median %.1f us, p99 "
				"%.1f us, %.1f us CPU/round trip\n",
				"isready round trip", runner_name[k],
				res[k].median_us, res[k].p99_us, res[k].cpu_us);
		runs += NRUNNERS;
	}
	/* 3: position lines: a game resent, and bulk X-FEN -> Shredder. */
	for (int r = 0; (do_pos || do_fens) && r < reps; r++) {
		for (int f = 0; f < 2; f++) {
			const struct stream *in = f ? &fens_in : &pos_in;
			const struct stream *exp = f ? &fens_out : &pos_out;
			if (!(f ? do_fens : do_pos))
				continue;
			for (int k = 0; k < 3; k++) {
				enum runner w = pos_runners[k];
				struct pos_result a;
				struct flood_result fa;
				struct flood_set *set;
				if (w == RUN_BRIDGE)
					a = run_pos(w, in, exp, 1,
						    f ? to_shredder : NULL);
				else
					a = run_pos(w, in, in, 1, NULL);
				fa = (struct flood_result){
					.lines_per_s = a.lines_per_s,
					.cpu_ns_per_line = a.cpu_ns_per_line,
					.ok = a.ok};
				set = w == RUN_BRIDGE ? (f ? &fens_fb : &pos_fb)
				      : w == RUN_RELAY
					      ? (f ? &fens_rl : &pos_rl)
					      : (f ? &fens_lr : &pos_lr);
				flood_add(set, &fa);
				if (w == RUN_BRIDGE &&
				    a.hwm_kib > (f ? fens_hwm : pos_hwm))
					*(f ? &fens_hwm : &pos_hwm) = a.hwm_kib;
				progress(f ? "bulk FENs" : "position lines",
					 runner_name[w], a.lines_per_s,
					 a.cpu_ns_per_line, -1);
				runs++;
			}
		}
	}
	/* 4b: the GUI stops reading for a while, then drains. */
	if (do_stall) {
		st_rl = run_flood(RUN_RELAY, NULL, &flood, stall_len, 1,
				  z.stall_lines, stall_len / 10, z.stall_ms);
		st_fb = run_flood(RUN_BRIDGE, NULL, &flood, stall_len, 1,
				  z.stall_lines, stall_len / 10, z.stall_ms);
		runs += 2;
	}
	/* 5 and 6: whole games. */
	for (int r = 0; (do_game || do_gamego) && r < reps; r++)
		for (int go = 0; go < 2; go++) {
			if (!(go ? do_gamego : do_game))
				continue;
			for (int k = 0; k < 3; k++) {
				struct game_result a;
				a = run_game(pos_runners[k], &games_file, games,
					     ngames, (unsigned)game_n, go);
				game_add(&gm[go], pos_runners[k], &a);
				runs++;
			}
		}
	for (int r = 0; do_xboard && r < reps; r++)
		for (int k = 0; k < 3; k++) {
			struct game_result a;
			a = run_xboard(pos_runners[k], &games_file, games,
				       ngames, z.xboard_plies, 1);
			game_add(&xb, pos_runners[k], &a);
			runs++;
		}

	printf("\nbench_bridge: %s vs a minimal poll/read/write relay, a line "
	       "relay and a libuv relay (%s run, median of %d; load average "
	       "before: %s)\n",
	       fenbridge_path, quick ? "quick" : "full", reps, loadavg);
	if (do_flood) {
		char what[128];
		snprintf(what, sizeof what, "flood (%lu info lines)",
			 z.flood_lines);
		print_throughput(what, &fl_fb, &fl_rl, "relay", &fl_uv,
				 TARGET_FLOOD_RATIO);
		print_throughput("flood, against the line relay", &fl_fb,
				 &fl_lr, "line relay", NULL, 0);
	}
	if (do_flood)
		units("flood", z.flood_lines);
	if (do_flood960)
		units("flood960", z.flood_lines);
	if (do_flood960)
		print_throughput("flood, GUI in Chess960, engine not (pv "
				 "parsed)",
				 &fl960_fb, &fl_rl, "relay", NULL, 0);
	if (do_rtt && nrtt > 0) {
		double med[NRUNNERS], p99[NRUNNERS], cpu[NRUNNERS];
		for (int k = 0; k < NRUNNERS; k++) {
			med[k] = median(rtt_med[k], nrtt);
			p99[k] = median(rtt_p99[k], nrtt);
			cpu[k] = median(rtt_cpu[k], nrtt);
		}
		printf("isready round trip (%lu): median (p99) fenbridge %.1f "
		       "(%.1f) us, uv relay %.1f (%.1f) us, relay %.1f (%.1f) "
		       "us, line relay %.1f (%.1f) us; fenbridge - uv relay "
		       "%.2f us (target <= %.1f us: %s), fenbridge - relay "
		       "%.2f us; CPU/round trip fenbridge %.1f us, uv relay "
		       "%.1f us, relay %.1f us, line relay %.1f us\n",
		       z.rtt_n, med[RUN_BRIDGE], p99[RUN_BRIDGE],
		       med[RUN_UVRELAY], p99[RUN_UVRELAY], med[RUN_RELAY],
		       p99[RUN_RELAY], med[RUN_LINERELAY], p99[RUN_LINERELAY],
		       med[RUN_BRIDGE] - med[RUN_UVRELAY], TARGET_RTT_US,
		       verdict(med[RUN_BRIDGE] - med[RUN_UVRELAY] <=
			       TARGET_RTT_US),
		       med[RUN_BRIDGE] - med[RUN_RELAY], cpu[RUN_BRIDGE],
		       cpu[RUN_UVRELAY], cpu[RUN_RELAY], cpu[RUN_LINERELAY]);
	} else if (do_rtt) {
		printf("isready round trip: no valid run\n");
	}
	if (do_rtt) /* every round trip, the warm-up's too */
		units("rtt", z.rtt_n + z.rtt_warmup);
	if (do_pos) {
		char what[160];
		snprintf(what, sizeof what,
			 "position fen lines (%lu, %.0f MB, "
			 "%.0f%% of them a game resent with one more ply)",
			 pos_in.lines, (double)pos_in.len / 1e6,
			 100.0 * (double)resent / (double)pos_in.lines);
		print_throughput(what, &pos_fb, &pos_rl, "relay", NULL, 0);
		print_throughput("position fen lines, against the line relay",
				 &pos_fb, &pos_lr, "line relay", NULL, 0);
		units("pos", pos_in.lines);
	}
	if (do_fens) {
		char what[160];
		snprintf(what, sizeof what,
			 "bulk FENs X-FEN -> Shredder-FEN "
			 "(%d different, %lu lines, %.0f MB)",
			 BULK_FENS, fens_in.lines, (double)fens_in.len / 1e6);
		print_throughput(what, &fens_fb, &fens_rl, "relay", NULL,
				 TARGET_FENS_RATIO);
		print_throughput("bulk FENs, against the line relay", &fens_fb,
				 &fens_lr, "line relay", NULL, 0);
		units("fens", fens_in.lines);
	}
	if (do_game) {
		print_game("whole Chess960 games, position + isready per ply",
			   &gm[0]);
		units("game", gm[0].plies);
	}
	if (do_gamego) {
		print_game("whole Chess960 games, position + isready + go per "
			   "ply",
			   &gm[1]);
		units("gamego", gm[1].plies);
	}
	if (do_xboard) {
		char what[160];
		snprintf(what, sizeof what,
			 "XBoard GUI, fischerandom, every "
			 "game to ply %u (fenbridge: UCI engine)",
			 z.xboard_plies);
		print_game(what, &xb);
		units("xboard", xb.plies);
	}
	if (fl_fb.n > 0 && fl_rl.n > 0)
		printf("peak RSS, flood: fenbridge %.2f MiB, relay %.2f MiB, "
		       "ratio %.2f (target < %.0f MiB: %s)\n",
		       mib(fl_fb.hwm), mib(fl_rl.hwm),
		       (double)fl_fb.hwm / (double)fl_rl.hwm,
		       mib(TARGET_RSS_KIB),
		       verdict(fl_fb.hwm < TARGET_RSS_KIB));
	if (fl960_fb.n > 0)
		printf("peak RSS, Chess960 flood: fenbridge %.2f MiB\n",
		       mib(fl960_fb.hwm));
	if (pos_hwm > 0)
		printf("peak RSS, position lines: fenbridge %.2f MiB\n",
		       mib(pos_hwm));
	if (fens_hwm > 0)
		printf("peak RSS, bulk FENs: fenbridge %.2f MiB\n",
		       mib(fens_hwm));
	if (st_fb.ok && st_rl.ok)
		printf("peak RSS, flood of %lu lines, GUI not reading for "
		       "%.1f s: fenbridge %.2f MiB (RSS while stalled %.2f "
		       "MiB), relay %.2f MiB, ratio %.2f (target < %.0f MiB: "
		       "%s)\n",
		       z.stall_lines, z.stall_ms / 1000.0, mib(st_fb.hwm_kib),
		       mib(st_fb.stall_rss_kib), mib(st_rl.hwm_kib),
		       (double)st_fb.hwm_kib / (double)st_rl.hwm_kib,
		       mib(TARGET_RSS_KIB),
		       verdict(st_fb.hwm_kib < TARGET_RSS_KIB));
	else if (do_stall)
		printf("peak RSS with a stalled GUI: no valid run\n");
	/* 7: the same runs, short and 10 times as long. */
	if (do_mem) {
		struct flood_result f1, f10, fr;
		struct pos_result p1, p10, pr;
		struct game_result g1, g10, gr, x1, x10, xr;
		char what[96];
		f1 = run_flood(RUN_BRIDGE, NULL, &flood, flood.len, 1,
			       z.flood_lines, 0, 0);
		f10 = run_flood(RUN_BRIDGE, NULL, &flood, flood.len, 10,
				z.flood_lines, 0, 0);
		fr = run_flood(RUN_RELAY, NULL, &flood, flood.len, 1,
			       z.flood_lines, 0, 0);
		snprintf(what, sizeof what, "info flood of %lu lines",
			 z.flood_lines);
		print_mem(what, f1.hwm_kib, f10.hwm_kib, fr.hwm_kib,
			  f1.ok && f10.ok);
		p1 = run_pos(RUN_BRIDGE, &fens_in, &fens_out, 1, to_shredder);
		p10 = run_pos(RUN_BRIDGE, &fens_in, &fens_out, 10, to_shredder);
		pr = run_pos(RUN_RELAY, &fens_in, &fens_in, 1, NULL);
		snprintf(what, sizeof what, "%lu bulk FEN lines",
			 fens_in.lines);
		print_mem(what, p1.hwm_kib, p10.hwm_kib, pr.hwm_kib,
			  p1.ok && p10.ok);
		g1 = run_game(RUN_BRIDGE, &games_file, games, ngames, ngames,
			      false);
		g10 = run_game(RUN_BRIDGE, &games_file, games, ngames,
			       10 * ngames, false);
		gr = run_game(RUN_RELAY, &games_file, games, ngames, ngames,
			      false);
		snprintf(what, sizeof what, "%u whole games (%lu plies)",
			 ngames, g1.plies);
		print_mem(what, g1.hwm_kib, g10.hwm_kib, gr.hwm_kib,
			  g1.ok && g10.ok);
		x1 = run_xboard(RUN_BRIDGE, &games_file, games, ngames, 400, 1);
		x10 = run_xboard(RUN_BRIDGE, &games_file, games, ngames, 400,
				 10);
		xr = run_xboard(RUN_RELAY, &games_file, games, ngames, 400, 1);
		snprintf(what, sizeof what, "%u XBoard games (%lu plies)",
			 ngames, x1.plies);
		print_mem(what, x1.hwm_kib, x10.hwm_kib, xr.hwm_kib,
			  x1.ok && x10.ok);
		runs += 12;
	}
	printf("integrity: %d runs, %d with lines lost, reordered or "
	       "corrupted (%s); %.1f s in all\n",
	       runs, failures,
	       failures ? "FAILED" : "every line intact and in order",
	       (double)(now_ns() - t_start) / 1e9);
	free(flood_kxr.v);
	free(games);
	return failures ? 1 : 0;
}
