/* SPDX-License-Identifier: MIT */
/*
 * The parts bench_bridge plays besides the GUI:
 *   - the fake engine (`--engine MODE [FILE LEN [REPEAT]]`): answers
 *     uci/isready/quit; flood: writes LEN bytes of FILE REPEAT times on
 *     `go` (64 KiB writes); pos: compares every `position` line it gets
 *     with the next line of FILE (REPEAT times over) and tells the tally in
 *     an `info string` before `readyok`; game-shredder, game-xfen,
 *     game-any (UCI) and xbgame (CECP): FILE is the game file, the engine
 *     finds the game by its start, checks every move it is told and
 *     answers with the game's next move;
 *   - the minimal relay (`--relay -- ENGINE [ARGS...]`): the engine on two
 *     pipes, poll(2), read(2) 64 KiB, write(2) it all to the other side;
 *   - the line relay (`--linerelay -- ENGINE [ARGS...]`): the same, but it
 *     frames lines as a line-based filter must (memchr for each newline,
 *     each whole line copied out, the rest kept for the next read);
 *   - the libuv relay (`--uvrelay -- ENGINE [ARGS...]`): the poll relay
 *     written with libuv as fenbridge uses it (uv_read_start, uv_try_write,
 *     uv_write for what the pipe does not take): what libuv itself costs.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uv.h>

#include "bench.h"

struct engine {
	const char *mode; /* flood, pos, plain, game-*, xbgame */
	const char *data; /* FILE mapped */
	size_t len;
	unsigned long rep; /* flood: FILE written rep times; pos: read */
	/* pos mode: where the next expected line starts, and the tally */
	size_t epos;
	unsigned long got, bad, lines; /* lines: of FILE */
	long first_bad;
	/* game modes: the games of FILE, the one being played, its ply */
	struct game960 *games;
	unsigned ngames;
	const struct game960 *game;
	unsigned ply;
	bool force; /* xbgame: CECP force mode */
};

static void
engine_say(const char *s)
{
	if (write_all(STDOUT_FILENO, s, strlen(s)) < 0)
		exit(0); /* the other side is gone */
}

static void
engine_position(struct engine *e, const char *line, size_t n)
{
	const char *exp, *end = e->data + e->len, *nl;

	if (e->epos >= e->len && e->got < e->rep * e->lines)
		e->epos = 0; /* the stream again, as the GUI sends it */
	exp = e->data + e->epos;
	nl = e->epos < e->len ? memchr(exp, '\n', (size_t)(end - exp)) : NULL;

	if (nl == NULL || (size_t)(nl - exp) != n ||
	    memcmp(exp, line, n) != 0) {
		if (e->bad++ == 0)
			e->first_bad = (long)e->got;
		if (e->bad == 1 && getenv("BENCH_BRIDGE_DEBUG") != NULL)
			fprintf(stderr,
				"engine: line %lu\n got: %.*s\nwant: "
				"%.*s\n",
				e->got + 1, (int)n, line,
				nl ? (int)(nl - exp) : 0, exp);
	}
	e->got++;
	if (nl != NULL)
		e->epos = (size_t)(nl + 1 - e->data);
}

static void
engine_line(struct engine *e, const char *line, size_t n)
{
	if (n == 3 && memcmp(line, "uci", 3) == 0) {
		engine_say("id name bench_bridge engine\nid author fenbridge\n"
			   "option name Hash type spin default 16 min 1 max "
			   "1024\n");
		if (strcmp(e->mode, "pos") == 0)
			engine_say("option name UCI_Chess960 type check "
				   "default false\n");
		engine_say("uciok\n");
	} else if (n == 7 && memcmp(line, "isready", 7) == 0) {
		if (strcmp(e->mode, "pos") == 0) {
			char buf[160];
			snprintf(buf, sizeof buf,
				 "info string bench lines "
				 "%lu bad %lu first %ld\n",
				 e->got, e->bad, e->first_bad);
			engine_say(buf);
		}
		engine_say("readyok\n");
	} else if (n >= 9 && memcmp(line, "position ", 9) == 0 &&
		   strcmp(e->mode, "pos") == 0) {
		engine_position(e, line, n);
	} else if (n >= 2 && memcmp(line, "go", 2) == 0 &&
		   (n == 2 || line[2] == ' ')) {
		if (strcmp(e->mode, "flood") == 0) {
			for (unsigned long r = 0; r < e->rep; r++)
				for (size_t off = 0; off < e->len;
				     off += IO_SIZE) {
					size_t k = e->len - off < IO_SIZE
							   ? e->len - off
							   : IO_SIZE;
					if (write_all(STDOUT_FILENO,
						      e->data + off, k) < 0)
						exit(0);
				}
		} else {
			engine_say("bestmove 0000\n");
		}
	} else if (n == 4 && memcmp(line, "quit", 4) == 0) {
		exit(0);
	}
}

/* A line the engine did not expect: the run fails (the GUI sees the end
 * of output), with the line on stderr. */
static void
engine_unexpected(const char *what, const char *line, size_t n)
{
	fprintf(stderr, "bench_bridge engine: %s: '%.*s'\n", what,
		(int)(n > 300 ? 300 : n), line);
	exit(3);
}

/* The game whose start is fen[0..n) (X-FEN or Shredder-FEN, as allowed). */
static const struct game960 *
engine_find_game(const struct engine *e, const char *fen, size_t n, bool xfen,
		 bool shredder)
{
	for (unsigned i = 0; i < e->ngames; i++) {
		const struct game960 *g = &e->games[i];
		if ((shredder && strlen(g->shredder) == n &&
		     memcmp(g->shredder, fen, n) == 0) ||
		    (xfen && strlen(g->xfen) == n &&
		     memcmp(g->xfen, fen, n) == 0))
			return g;
	}
	return NULL;
}

/*
 * `position fen START[ moves m1 .. mk]` of a game of the file: the game
 * and k, after checking that the moves are the game's first k (byte for
 * byte, as the game's own text).
 */
static void
engine_game_position(struct engine *e, const char *line, size_t n)
{
	static const char pre[] = "position fen ", mv[] = " moves";
	const char *p = line + sizeof pre - 1, *end = line + n, *m = NULL;
	const struct game960 *g;
	size_t len;
	unsigned lo = 0, hi;

	if (n < sizeof pre - 1 || memcmp(line, pre, sizeof pre - 1) != 0)
		engine_unexpected("not a position fen line", line, n);
	for (const char *q = p; q + sizeof mv - 1 <= end && m == NULL; q++)
		if (memcmp(q, mv, sizeof mv - 1) == 0)
			m = q;
	if (m == NULL)
		m = end;
	g = engine_find_game(e, p, (size_t)(m - p),
			     strcmp(e->mode, "game-shredder") != 0,
			     strcmp(e->mode, "game-xfen") != 0);
	if (g == NULL)
		engine_unexpected("no game starts there", line, n);
	len = (size_t)(end - m);
	hi = g->n;
	while (lo < hi) { /* the k with off[k] == len */
		unsigned mid = (lo + hi) / 2;
		if (g->off[mid] < len)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (g->off[lo] != len || memcmp(m, g->text, len) != 0)
		engine_unexpected("not the game's moves", line, n);
	e->game = g;
	e->ply = lo;
}

/* The UCI engine of a game: the game's next move is its best move. */
static void
engine_game_line(struct engine *e, const char *line, size_t n)
{
	if (n == 3 && memcmp(line, "uci", 3) == 0) {
		engine_say("id name bench_bridge engine\nid author fenbridge\n"
			   "option name Hash type spin default 16 min 1 max "
			   "1024\noption name UCI_Chess960 type check default "
			   "false\nuciok\n");
	} else if (n == 7 && memcmp(line, "isready", 7) == 0) {
		engine_say("readyok\n");
	} else if (n >= 9 && memcmp(line, "position ", 9) == 0) {
		engine_game_position(e, line, n);
	} else if (n >= 2 && memcmp(line, "go", 2) == 0 &&
		   (n == 2 || line[2] == ' ')) {
		char buf[32];
		if (e->game == NULL || e->ply >= e->game->n)
			engine_unexpected("go after no game or its end", line,
					  n);
		snprintf(buf, sizeof buf, "bestmove %s\n",
			 e->game->uci[e->ply]);
		engine_say(buf);
	} else if (n == 4 && memcmp(line, "quit", 4) == 0) {
		exit(0);
	}
}

/* The CECP engine's move: the game's next one. */
static void
engine_xb_move(struct engine *e)
{
	char buf[32];

	if (e->game == NULL || e->ply >= e->game->n)
		engine_unexpected("a move asked after no game or its end", "",
				  0);
	snprintf(buf, sizeof buf, "move %s\n", e->game->xb[e->ply++]);
	engine_say(buf);
}

/* The CECP engine of a game (for the relays: the XBoard GUI as it talks
 * to an XBoard engine, what fenbridge turns into UCI). */
static void
engine_xb_line(struct engine *e, const char *line, size_t n)
{
	char buf[64];

	if (n >= 8 && memcmp(line, "protover", 8) == 0) {
		engine_say("feature myname=\"bench_bridge engine\" ping=1 "
			   "setboard=1 usermove=1 sigint=0 sigterm=0 "
			   "variants=\"normal,fischerandom\" done=1\n");
	} else if (n == 3 && memcmp(line, "new", 3) == 0) {
		e->game = NULL;
		e->force = false;
	} else if (n == 5 && memcmp(line, "force", 5) == 0) {
		e->force = true;
	} else if (n > 9 && memcmp(line, "setboard ", 9) == 0) {
		e->game = engine_find_game(e, line + 9, n - 9, true, true);
		e->ply = 0;
		if (e->game == NULL)
			engine_unexpected("no game starts there", line, n);
	} else if (n > 9 && memcmp(line, "usermove ", 9) == 0) {
		if (e->game == NULL || e->ply >= e->game->n ||
		    strlen(e->game->xb[e->ply]) != n - 9 ||
		    memcmp(e->game->xb[e->ply], line + 9, n - 9) != 0)
			engine_unexpected("not the game's move", line, n);
		e->ply++;
		if (!e->force)
			engine_xb_move(e);
	} else if (n == 2 && memcmp(line, "go", 2) == 0) {
		e->force = false;
		engine_xb_move(e);
	} else if (n > 5 && memcmp(line, "ping ", 5) == 0) {
		snprintf(buf, sizeof buf, "pong %.*s\n",
			 (int)(n - 5 > 20 ? 20 : n - 5), line + 5);
		engine_say(buf);
	} else if (n == 4 && memcmp(line, "quit", 4) == 0) {
		exit(0);
	}
}

int
engine_main(int argc, char **argv)
{
	struct engine e = {.first_bad = -1, .rep = 1};
	size_t cap = 1024 * 1024, have = 0;
	char *buf = malloc(cap);

	if (argc < 1 || buf == NULL)
		return 2;
	e.mode = argv[0];
	if (argc >= 3) {
		int fd = open(argv[1], O_RDONLY);
		e.len = strtoul(argv[2], NULL, 10);
		if (fd < 0) {
			fprintf(stderr, "engine: %s: %s\n", argv[1],
				strerror(errno));
			return 2;
		}
		if (e.len > 0) {
			if ((e.data = map_stream(fd, e.len)) == NULL) {
				fprintf(stderr, "engine: mmap: %s\n",
					strerror(errno));
				return 2;
			}
		}
		close(fd);
		if (argc >= 4)
			e.rep = strtoul(argv[3], NULL, 10);
		for (size_t i = 0; i < e.len; i++)
			e.lines += e.data[i] == '\n';
		if (strncmp(e.mode, "game-", 5) == 0 ||
		    strcmp(e.mode, "xbgame") == 0)
			e.games = games_parse(e.data, e.len, &e.ngames);
	}
	for (;;) {
		ssize_t r = read(STDIN_FILENO, buf + have, cap - have);
		char *p = buf, *end, *nl;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		have += (size_t)r;
		end = buf + have;
		while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
			size_t n = (size_t)(nl - p);
			if (n > 0 && p[n - 1] == '\r')
				n--;
			if (e.games == NULL)
				engine_line(&e, p, n);
			else if (strcmp(e.mode, "xbgame") == 0)
				engine_xb_line(&e, p, n);
			else
				engine_game_line(&e, p, n);
			p = nl + 1;
		}
		have = (size_t)(end - p);
		if (have == cap) { /* a line of a MiB: count it as bad */
			e.bad++;
			have = 0;
		} else {
			memmove(buf, p, have);
		}
	}
}

/* Starts the engine argv on two pipes: *to its stdin, *from its stdout.
 * Its pid, or -1. */
static pid_t
spawn_engine(char **argv, int *to, int *from)
{
	int in[2], out[2];
	pid_t pid;

	if (pipe(in) < 0 || pipe(out) < 0 || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	*to = in[1];
	*from = out[0];
	return pid;
}

/* The engine's exit status, as a shell gives it. */
static int
reap(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The minimal relay: the engine on two pipes, poll, read, write. */
int
relay_main(char **argv)
{
	int to, from;
	struct pollfd pf[2];
	static char buf[IO_SIZE];
	pid_t pid;

	if (argv[0] == NULL)
		return 2;
	if ((pid = spawn_engine(argv, &to, &from)) < 0)
		return 2;
	pf[0] = (struct pollfd){.fd = STDIN_FILENO, .events = POLLIN};
	pf[1] = (struct pollfd){.fd = from, .events = POLLIN};
	for (;;) {
		ssize_t r;
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[1].revents != 0) {
			r = read(from, buf, sizeof buf);
			if (r <= 0)
				break; /* the engine is done */
			if (write_all(STDOUT_FILENO, buf, (size_t)r) < 0)
				break;
		}
		if (pf[0].fd >= 0 && pf[0].revents != 0) {
			r = read(STDIN_FILENO, buf, sizeof buf);
			if (r <= 0 || write_all(to, buf, (size_t)r) < 0) {
				close(to);
				pf[0].fd = -1;
			}
		}
	}
	if (pf[0].fd >= 0)
		close(to);
	return reap(pid);
}

/* One direction of the line relay. */
struct ldir {
	int from, to;
	char *buf, *out; /* bytes read, not a whole line yet; lines out */
	size_t len, cap;
};

/* Reads once from d->from and writes the whole lines read so far; at the
 * end of input also the rest. False when that side is done. */
static bool
line_pass(struct ldir *d)
{
	char *p, *end, *nl, *o;
	ssize_t r;

	if (d->len == d->cap) { /* a long line: room for more of it */
		d->cap *= 2;
		if ((d->buf = realloc(d->buf, d->cap)) == NULL ||
		    (d->out = realloc(d->out, d->cap)) == NULL)
			exit(2);
	}
	r = read(d->from, d->buf + d->len, d->cap - d->len);
	if (r < 0 && errno == EINTR)
		return true;
	if (r <= 0) {
		write_all(d->to, d->buf, d->len);
		return false;
	}
	d->len += (size_t)r;
	end = d->buf + d->len;
	o = d->out;
	for (p = d->buf; (nl = memchr(p, '\n', (size_t)(end - p))) != NULL;
	     p = nl + 1) {
		memcpy(o, p, (size_t)(nl + 1 - p));
		o += nl + 1 - p;
	}
	if (o > d->out && write_all(d->to, d->out, (size_t)(o - d->out)) < 0)
		return false;
	d->len = (size_t)(end - p);
	memmove(d->buf, p, d->len);
	return true;
}

/* The line relay: the poll relay, framing lines (a line-based filter
 * that changes nothing). */
int
linerelay_main(char **argv)
{
	int to, from;
	struct pollfd pf[2];
	struct ldir up = {.from = STDIN_FILENO}, down = {.to = STDOUT_FILENO};
	pid_t pid;

	if (argv[0] == NULL || (pid = spawn_engine(argv, &to, &from)) < 0)
		return 2;
	up.to = to;
	down.from = from;
	for (struct ldir *d = &up; d != NULL; d = d == &up ? &down : NULL) {
		d->cap = IO_SIZE;
		if ((d->buf = malloc(d->cap)) == NULL ||
		    (d->out = malloc(d->cap)) == NULL)
			return 2;
	}
	pf[0] = (struct pollfd){.fd = STDIN_FILENO, .events = POLLIN};
	pf[1] = (struct pollfd){.fd = from, .events = POLLIN};
	for (;;) {
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[1].revents != 0 && !line_pass(&down))
			break; /* the engine is done */
		if (pf[0].fd >= 0 && pf[0].revents != 0 && !line_pass(&up)) {
			close(to);
			pf[0].fd = -1;
		}
	}
	if (pf[0].fd >= 0)
		close(to);
	for (struct ldir *d = &up; d != NULL; d = d == &up ? &down : NULL) {
		free(d->buf);
		free(d->out);
	}
	return reap(pid);
}

/*
 * The libuv relay: the same part, written as a libuv program would be, to
 * show what libuv itself costs: uv_spawn, uv_read_start on both sources,
 * uv_try_write of each read to the other side; what the pipe does not take
 * at once goes out with uv_write (a copy) while that source pauses.
 */
struct uvr_dir {
	uv_pipe_t *src, *dst;
	uv_write_t req;
	char *rest;    /* the bytes uv_write is sending, or NULL */
	bool src_done; /* src ended: close dst once rest is out */
	char buf[IO_SIZE];
};

static uv_pipe_t uvr_gui_in, uvr_gui_out, uvr_eng_in, uvr_eng_out;
static uv_process_t uvr_proc;
static struct uvr_dir uvr_up = {.src = &uvr_gui_in, .dst = &uvr_eng_in};
static struct uvr_dir uvr_down = {.src = &uvr_eng_out, .dst = &uvr_gui_out};
static int uvr_status = 1;

static void
uvr_close(void *h)
{
	if (!uv_is_closing(h))
		uv_close(h, NULL);
}

/* d's source ended and its bytes are out: close its destination; the
 * engine's output ending ends the relay. */
static void
uvr_finish(struct uvr_dir *d)
{
	uvr_close(d->dst);
	if (d == &uvr_down) {
		uvr_close(&uvr_gui_in);
		uvr_close(&uvr_eng_in);
	}
}

static void
uvr_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	struct uvr_dir *d = h->data;

	(void)suggested;
	*buf = uv_buf_init(d->buf, sizeof d->buf);
}

static void
uvr_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf);

static void
uvr_written(uv_write_t *req, int status)
{
	struct uvr_dir *d = req->data;

	free(d->rest);
	d->rest = NULL;
	if (d->src_done || status < 0)
		uvr_finish(d);
	else
		uv_read_start((uv_stream_t *)d->src, uvr_alloc, uvr_read);
}

static void
uvr_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
	struct uvr_dir *d = s->data;
	uv_buf_t b;
	int r;

	if (nread < 0) {
		uvr_close(d->src);
		d->src_done = true;
		if (d->rest == NULL)
			uvr_finish(d);
		return;
	}
	if (nread == 0)
		return;
	b = uv_buf_init(buf->base, (unsigned)nread);
	r = uv_try_write((uv_stream_t *)d->dst, &b, 1);
	if (r == UV_EAGAIN)
		r = 0;
	if (r < 0) {
		uvr_close(d->src);
		d->src_done = true;
		uvr_finish(d);
		return;
	}
	if (r == nread)
		return;
	if ((d->rest = malloc((size_t)nread - (size_t)r)) == NULL)
		exit(2);
	memcpy(d->rest, buf->base + r, (size_t)nread - (size_t)r);
	b = uv_buf_init(d->rest, (unsigned)(nread - r));
	uv_read_stop(s);
	d->req.data = d;
	if (uv_write(&d->req, (uv_stream_t *)d->dst, &b, 1, uvr_written) < 0)
		uvr_written(&d->req, -1);
}

static void
uvr_exit(uv_process_t *p, int64_t status, int sig)
{
	uvr_status = sig ? 128 + sig : (int)status;
	uv_close((uv_handle_t *)p, NULL);
}

int
uvrelay_main(char **argv)
{
	uv_loop_t *loop = uv_default_loop();
	uv_process_options_t opt = {0};
	uv_stdio_container_t stdio[3];
	uv_file in[2], out[2];

	if (argv[0] == NULL)
		return 2;
	uv_pipe_init(loop, &uvr_gui_in, 0);
	uv_pipe_init(loop, &uvr_gui_out, 0);
	uv_pipe_init(loop, &uvr_eng_in, 0);
	uv_pipe_init(loop, &uvr_eng_out, 0);
	/* Real pipes to the engine, as the other two use (UV_CREATE_PIPE
	 * would make socketpairs, which wake up slower). */
	if (uv_pipe(in, 0, 0) < 0 || uv_pipe(out, 0, 0) < 0 ||
	    uv_pipe_open(&uvr_gui_in, STDIN_FILENO) < 0 ||
	    uv_pipe_open(&uvr_gui_out, STDOUT_FILENO) < 0 ||
	    uv_pipe_open(&uvr_eng_in, in[1]) < 0 ||
	    uv_pipe_open(&uvr_eng_out, out[0]) < 0)
		return 2;
	stdio[0].flags = UV_INHERIT_FD;
	stdio[0].data.fd = in[0];
	stdio[1].flags = UV_INHERIT_FD;
	stdio[1].data.fd = out[1];
	stdio[2].flags = UV_INHERIT_FD;
	stdio[2].data.fd = STDERR_FILENO;
	opt.file = argv[0];
	opt.args = argv;
	opt.stdio = stdio;
	opt.stdio_count = 3;
	opt.exit_cb = uvr_exit;
	if (uv_spawn(loop, &uvr_proc, &opt) < 0)
		return 2;
	close(in[0]);
	close(out[1]);
	uvr_gui_in.data = &uvr_up;
	uvr_eng_out.data = &uvr_down;
	uv_read_start((uv_stream_t *)&uvr_gui_in, uvr_alloc, uvr_read);
	uv_read_start((uv_stream_t *)&uvr_eng_out, uvr_alloc, uvr_read);
	uv_run(loop, UV_RUN_DEFAULT);
	uv_loop_close(loop);
	return uvr_status;
}
