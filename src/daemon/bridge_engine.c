/* SPDX-License-Identifier: MIT */
/*
 * The engine process: starting it on new pipes (on Linux through
 * fenbridge's own trampoline, --exec-engine, so that it dies with
 * fenbridge), its environment, its exit, closing it and starting it
 * again (RESTARTING), and signals to it. What its exit means for the
 * session is br_lifecycle()'s (which asks the session).
 */
#include "bridge.h"
#include "bridge_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/wait.h>
#endif

#include "cause.h"
#include "platform.h"

/* The trampoline's descriptor for its exec status (see br_spawn_engine). */
#define EXEC_STATUS_FD 3

const char *
br_signal_name(int sig)
{
	return fb_cause_signal_name(sig);
}

static void
on_engine_exit(uv_process_t *p, int64_t status, int sig)
{
	struct fb_bridge *b = p->data;

	b->exit_status = status;
	b->term_signal = sig;
	if (sig != 0)
		fb_log_msg(FB_LOG_INFO, "engine died of %s (%d)",
			   br_signal_name(sig), sig);
	else
		fb_log_msg(FB_LOG_INFO, "engine exited with status %lld",
			   (long long)status);
	br_lifecycle(b, FB_EV_ENGINE_EXIT, 0);
}

void
br_engine_kill(struct fb_bridge *b, int sig)
{
	int rc = uv_process_kill(&b->proc, sig);

	/* ESRCH: it exited a moment ago and its exit callback is on the way. */
	if (rc < 0)
		fb_log_msg(rc == UV_ESRCH ? FB_LOG_INFO : FB_LOG_WARN,
			   "sending %s to the engine: %s", br_signal_name(sig),
			   uv_strerror(rc));
}

/* The engine process now (wait.h), or NULL when none runs. */
static const struct fb_proc_sample *
engine_sample(struct fb_bridge *b, struct fb_proc_sample *s)
{
	uv_handle_t *h = (uv_handle_t *)&b->proc;

	if (uv_handle_get_type(h) != UV_PROCESS || !uv_is_active(h) ||
	    fb_platform_proc_sample(b->proc.pid, s) < 0)
		return NULL;
	return s;
}

void
br_wait_start(struct fb_bridge *b, struct fb_wait *w, enum fb_wait_kind kind,
	      uv_timer_t *t, uv_timer_cb cb, uint64_t ms)
{
	struct fb_proc_sample s;
	int rc;

	fb_wait_start(w, kind, ms > UINT32_MAX ? UINT32_MAX : (unsigned)ms,
		      uv_now(b->loop), engine_sample(b, &s));
	/* Only a closing timer refuses; then no state waits for it. */
	if ((rc = uv_timer_start(t, cb, ms, 0)) < 0)
		fb_log_msg(FB_LOG_ERROR, "uv_timer_start: %s", uv_strerror(rc));
}

bool
br_wait_due(struct fb_bridge *b, struct fb_wait *w, uv_timer_t *t,
	    uv_timer_cb cb)
{
	struct fb_proc_sample s;
	unsigned more = fb_wait_due(w, uv_now(b->loop), engine_sample(b, &s));

	if (more == 0)
		return true;
	if (w->extended == 1)
		fb_log_msg(FB_LOG_INFO,
			   "the engine is slow, not silent (it waits for a "
			   "CPU, or works): waiting on past %u ms",
			   w->limit_ms);
	return uv_timer_start(t, cb, more, 0) < 0;
}

#ifdef __linux__
/*
 * Why a trampoline: the engine must not outlive fenbridge, however
 * fenbridge dies. cutechess-cli kills a stalled engine, which is fenbridge,
 * with SIGKILL: fenbridge gets no chance to act, and an engine that does
 * not watch its stdin would keep a core busy. Linux ties a child to its
 * parent's death with prctl(PR_SET_PDEATHSIG), but only the child can ask,
 * between fork and exec, and uv_spawn has no hook there. So fenbridge
 * spawns its own program (uv_exepath) as
 *
 *   fenbridge --exec-engine PARENT_PID FILE ARGV0 ARGS...
 *
 * and main() hands that, before anything else, to fb_bridge_exec_engine():
 * it asks for SIGKILL at the parent's death (kept across exec), checks that
 * its parent is still PARENT_PID (fenbridge may have died before prctl, and
 * then no signal would ever come), and execs the engine in its place. The
 * engine keeps the pid, stdio pipes, folder and environment that uv_spawn
 * set up. Descriptor EXEC_STATUS_FD is a close-on-exec pipe to fenbridge:
 * the exec closes it, or it carries the errno of a failed exec, so an engine
 * that cannot run is a start failure (127/126) as with a direct spawn, not
 * an engine that exited.
 *
 * The parent is the thread that forked: uv_spawn forks on the loop's
 * thread, fenbridge's main thread, which lives as long as fenbridge.
 *
 * Windows needs none of this: libuv's uv_spawn puts every child in a job
 * object with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE (src/win/process.c), whose
 * one handle closes when fenbridge ends, however it ends (tests/wine).
 */
int
fb_bridge_exec_engine(int argc, char **argv)
{
	char *end;
	long parent;
	int e;
	ssize_t w;

	if (argc < 5)
		return 2;
	errno = 0;
	parent = strtol(argv[2], &end, 10);
	if (errno != 0 || end == argv[2] || *end != '\0' || parent <= 1)
		return 2;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		/* Not expected (SIGKILL is valid): the engine still runs,
		 * as it would without the trampoline. */
		dprintf(STDERR_FILENO,
			"fenbridge: prctl(PR_SET_PDEATHSIG): %s\n",
			strerror(errno));
	else if (getppid() != (pid_t)parent)
		return 1; /* fenbridge is gone: no engine without it */
	(void)fcntl(EXEC_STATUS_FD, F_SETFD, FD_CLOEXEC);
	/* execvp, as uv_spawn itself uses: FILE holds a slash (the path as
	 * resolved), and a script without #! still runs under /bin/sh. */
	execvp(argv[3], argv + 4);
	e = errno;
	w = write(EXEC_STATUS_FD, &e, sizeof e);
	(void)w; /* fenbridge also sees the status */
	return e == ENOENT ? 127 : 126;
}

/*
 * Sets opt up to start the engine through the trampoline: the arguments
 * in *args (to free), the status pipe in st. Returns 0, or a negative error
 * (nothing to free; the engine is then started directly).
 */
static int
trampoline_setup(uv_process_options_t *opt, char *exe, size_t exe_size,
		 char *ppid, size_t ppid_size, char ***args, uv_file st[2])
{
	char **argv = opt->args, **a;
	size_t n = 0, size = exe_size;
	int rc;

	if ((rc = uv_exepath(exe, &size)) < 0) {
		fb_log_msg(FB_LOG_WARN, "uv_exepath: %s", uv_strerror(rc));
		return rc;
	}
	while (argv[n] != NULL)
		n++;
	if ((a = calloc(n + 5, sizeof *a)) == NULL)
		return UV_ENOMEM;
	if ((rc = uv_pipe(st, 0, 0)) < 0) {
		fb_log_msg(FB_LOG_WARN, "uv_pipe: %s", uv_strerror(rc));
		free(a);
		return rc;
	}
	snprintf(ppid, ppid_size, "%ld", (long)getpid());
	a[0] = exe;
	a[1] = (char *)FB_BRIDGE_EXEC_ENGINE;
	a[2] = ppid;
	a[3] = (char *)opt->file;
	memcpy(a + 4, argv, (n + 1) * sizeof *a);
	opt->file = exe;
	opt->args = a;
	*args = a;
	return 0;
}

/*
 * The trampoline's report on st (see above): 0 once the engine runs (the
 * exec closed the pipe), or the error of the failed exec. Blocks until the
 * trampoline has exec'd, a matter of microseconds, as uv_spawn blocks for
 * its own child.
 */
static int
exec_status(uv_file st)
{
	int e = 0;
	ssize_t n;

	do
		n = read(st, &e, sizeof e);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return uv_translate_sys_error(errno);
	return n == (ssize_t)sizeof e && e > 0 ? uv_translate_sys_error(e) : 0;
}
#endif

static void
close_fds(uv_file *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
}

int
br_spawn_engine(struct fb_bridge *b)
{
	/* in, out, err: the engine's stdio; st: the trampoline's status */
	uv_file in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1},
		st[2] = {-1, -1};
	uv_process_options_t opt;
	uv_stdio_container_t stdio[4];
	char **args = NULL;
	pid_t pid = 0;
	int rc;

	if ((rc = uv_pipe(in, 0, 0)) < 0 || (rc = uv_pipe(out, 0, 0)) < 0 ||
	    (rc = uv_pipe(err, 0, 0)) < 0) {
		close_fds(in, 2);
		close_fds(out, 2);
		return rc;
	}
	br_widen_pipe(out[0]);
	memset(&opt, 0, sizeof opt);
	stdio[0].flags = UV_INHERIT_FD;
	stdio[0].data.fd = in[0];
	stdio[1].flags = UV_INHERIT_FD;
	stdio[1].data.fd = out[1];
	stdio[2].flags = UV_INHERIT_FD;
	stdio[2].data.fd = err[1];
	opt.file = b->cfg->engine_file ? b->cfg->engine_file
				       : b->cfg->engine_argv[0];
	opt.args = b->cfg->engine_argv;
	opt.cwd = b->cfg->engine_dir;
	opt.env = b->env;
	opt.exit_cb = on_engine_exit;
	opt.stdio = stdio;
	opt.stdio_count = 3;
#ifdef __linux__
	{
		char exe[PATH_MAX], ppid[24];
		if (trampoline_setup(&opt, exe, sizeof exe, ppid, sizeof ppid,
				     &args, st) == 0) {
			stdio[EXEC_STATUS_FD].flags = UV_INHERIT_FD;
			stdio[EXEC_STATUS_FD].data.fd = st[1];
			opt.stdio_count = EXEC_STATUS_FD + 1;
		} else {
			fb_log_msg(FB_LOG_WARN,
				   "starting the engine directly: "
				   "it will outlive fenbridge if fenbridge is "
				   "killed");
		}
		b->proc.data = b;
		rc = uv_spawn(b->loop, &b->proc, &opt);
	}
#else
	b->proc.data = b;
	rc = uv_spawn(b->loop, &b->proc, &opt);
#endif
	free(args);
	if (rc == 0)
		pid = b->proc.pid;
	close(in[0]);
	close(out[1]);
	close(err[1]);
	close_fds(&st[1], 1);
#ifdef __linux__
	if (rc == 0 && st[0] >= 0)
		rc = exec_status(st[0]);
#endif
	close_fds(&st[0], 1);
	if (rc < 0) {
		close(in[1]);
		close(out[0]);
		close(err[0]);
		uv_close((uv_handle_t *)&b->proc, NULL);
		/* The trampoline could not exec the engine and exits: reap
		 * it here, since libuv stops watching a closed handle. */
#ifdef __linux__
		while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
#else
		(void)pid;
#endif
		return rc;
	}
	fb_log_msg(FB_LOG_INFO, "engine started, pid %d", b->proc.pid);
	br_lifecycle(b, FB_EV_SPAWNED, 0);
	if ((rc = br_endpoint_open(b, &b->eng_in, "engine's stdin", in[1],
				   false)) < 0 ||
	    (rc = br_endpoint_open(b, &b->eng_out, "engine's stdout", out[0],
				   true)) < 0 ||
	    (rc = br_endpoint_open(b, &b->eng_err, "engine's stderr", err[0],
				   true)) < 0)
		return rc;
	return 0;
}

/*
 * Starting the engine again (RESTARTING, bridge_int.h): its handles and
 * pipes are closed first (libuv reuses none of them before its close
 * callback), then br_lifecycle hears FB_EV_ENGINE_CLOSED and calls
 * br_engine_respawn: what was queued for the dead engine and half a line
 * of its output are dropped, and the engine starts as at first. The GUI's
 * lines wait in the session meanwhile.
 */
int
br_engine_respawn(struct fb_bridge *b)
{
	struct endpoint *eps[3] = {&b->eng_in, &b->eng_out, &b->eng_err};
	int rc;

	for (int i = 0; i < 3; i++) {
		char *rbuf = eps[i]->rbuf;
		struct direction *dir = eps[i]->dir;
		memset(eps[i], 0, sizeof *eps[i]);
		eps[i]->rbuf = rbuf;
		eps[i]->dir = dir;
	}
	free(b->up.q.buf);
	free(b->up.q.wbuf);
	memset(&b->up.q, 0, sizeof b->up.q);
	b->up.q.ep = &b->eng_in;
	b->up.q.last = '\n';
	fb_line_free(&b->down.framer);
	fb_line_init(&b->down.framer, FB_LINE_DEFAULT_MAX);
	fb_line_finish(&b->err_framer, br_stderr_line, NULL);
	rc = br_spawn_engine(b);
	if (rc < 0 && !uv_is_active((uv_handle_t *)&b->proc)) {
		fb_log_msg(FB_LOG_ERROR, "cannot start the engine again: %s",
			   uv_strerror(rc));
		return rc;
	}
	if (rc < 0)
		fb_log_msg(FB_LOG_ERROR, "engine pipes: %s", uv_strerror(rc));
	br_start_reading(&b->eng_out);
	br_start_reading(&b->eng_err);
	return 0;
}

static void
on_restart_closed(uv_handle_t *h)
{
	struct fb_bridge *b = uv_handle_get_type(h) == UV_PROCESS
				      ? h->data
				      : ((struct endpoint *)h->data)->b;

	if (--b->closing == 0)
		br_lifecycle(b, FB_EV_ENGINE_CLOSED, 0);
}

void
br_engine_close(struct fb_bridge *b)
{
	uv_handle_t *h[4] = {(uv_handle_t *)&b->proc, &b->eng_in.h.handle,
			     &b->eng_out.h.handle, &b->eng_err.h.handle};
	struct endpoint *eps[3] = {&b->eng_in, &b->eng_out, &b->eng_err};

	fb_log_msg(FB_LOG_INFO, "starting the engine again");
	b->closing = 1; /* until every close has been asked for */
	for (int i = 0; i < 4; i++) {
		if (i > 0 && !eps[i - 1]->open)
			continue;
		if (!uv_is_closing(h[i])) {
			b->closing++;
			uv_close(h[i], on_restart_closed);
		}
		if (i > 0)
			eps[i - 1]->open = false;
	}
	if (--b->closing == 0)
		br_lifecycle(b, FB_EV_ENGINE_CLOSED, 0);
}

/* fenbridge's environment with the config's additions (which win). */
char **
br_engine_env(const struct fb_config *cfg)
{
	char **base = fb_platform_environ();
	size_t n = 0, k = 0;
	char **env;

	while (base != NULL && base[n] != NULL)
		n++;
	if ((env = calloc(n + cfg->nenv + 1, sizeof *env)) == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		bool replaced = false;
		for (size_t j = 0; j < cfg->nenv; j++) {
			size_t len = strcspn(cfg->env[j], "=") + 1;
			if (strncmp(base[i], cfg->env[j], len) == 0)
				replaced = true;
		}
		if (!replaced)
			env[k++] = base[i];
	}
	for (size_t j = 0; j < cfg->nenv; j++)
		env[k++] = cfg->env[j];
	return env;
}

int
fb_bridge_exepath(char *buf, size_t *size)
{
	return uv_exepath(buf, size);
}
