/* SPDX-License-Identifier: MIT */
/*
 * fenbridge's entry point: config (defaults, INI file, command line) -> log
 * -> bridge -> exit status, or the `convert`, `check` and `replay`
 * subcommands.
 *
 * A GUI like Fritz starts a program with no arguments: then the settings
 * come from <program name>.ini beside the program, and an error in that
 * file, or an engine that cannot be started, is told to the GUI's user
 * in-band before fenbridge exits.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bridge.h"
#include "check_run.h"
#include "replay_run.h"
#include "config.h"
#include "convert.h"
#include "cpu.h"
#include "fb_version.h"
#include "log.h"
#include "platform.h"

#define MAX_CONFIG_BYTES (1024 * 1024)

/* Reads a whole file into a NUL-terminated heap string. */
static char *
read_file(const char *path, char *err, size_t errlen)
{
	FILE *f = fb_platform_fopen(path, "rb");
	char *text = NULL;
	size_t n = 0;

	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	text = malloc(MAX_CONFIG_BYTES + 1);
	if (text != NULL)
		n = fread(text, 1, MAX_CONFIG_BYTES + 1, f);
	if (text == NULL || ferror(f) || n > MAX_CONFIG_BYTES ||
	    memchr(text, '\0', n) != NULL) {
		snprintf(err, errlen, "%s: %s", path,
			 text == NULL ? "out of memory"
			 : ferror(f)  ? strerror(errno)
				      : "not a text file of at most 1 MiB");
		free(text);
		fclose(f);
		return NULL;
	}
	fclose(f);
	text[n] = '\0';
	return text;
}

static char *
dir_of(const char *path)
{
	const char *slash = fb_path_last_sep(path);
	size_t n = slash == NULL ? 1 : (size_t)(slash - path);
	char *d = malloc(n + 2);

	if (d == NULL)
		return NULL;
	if (slash == NULL)
		memcpy(d, ".", 1);
	else if (n == 0 || (n == 2 && path[1] == ':'))
		memcpy(d, path, ++n); /* "/", "C:\" */
	else
		memcpy(d, path, n);
	d[n] = '\0';
	return d;
}

static bool
is_file(const char *path)
{
	return fb_platform_file_kind(path) == FB_FILE_REG;
}

/* <program name>.ini beside the program (its real path), if there. */
static char *
default_ini(const char *argv0)
{
	char exe[PATH_MAX + 8];
	size_t n = PATH_MAX;
	char *dot;

	if (fb_bridge_exepath(exe, &n) < 0) {
		if (!fb_path_has_dir(argv0) || strlen(argv0) > PATH_MAX)
			return NULL;
		strcpy(exe, argv0);
		n = strlen(exe);
	}
	dot = strrchr(exe, '.');
	if (dot != NULL && strcasecmp(dot, ".exe") == 0)
		n = (size_t)(dot - exe);
	strcpy(exe + n, ".ini");
	return is_file(exe) ? strdup(exe) : NULL;
}

/* dir, a separator and name, allocated; NULL if out of memory. */
static char *
join(const char *dir, const char *name, size_t name_len)
{
	size_t dl = strlen(dir);
	char *p = malloc(dl + name_len + 2);

	if (p == NULL)
		return NULL;
	memcpy(p, dir, dl);
	p[dl] = FB_PATH_SEP;
	memcpy(p + dl + 1, name, name_len);
	p[dl + 1 + name_len] = '\0';
	return p;
}

/*
 * The program file path names, if it is a regular file: path itself, or on
 * Windows, for a name without an extension, path + ".exe" first (as
 * CreateProcess and cmd.exe look). Frees path; returns the allocated file
 * name found, or NULL.
 */
static char *
existing_program(char *path)
{
	const char *base, *sep;

	if (path == NULL)
		return NULL;
	sep = fb_path_last_sep(path);
	base = sep != NULL ? sep + 1 : path;
	if (FB_EXE_SUFFIX[0] != '\0' && strchr(base, '.') == NULL) {
		char *exe = malloc(strlen(path) + sizeof FB_EXE_SUFFIX);
		if (exe != NULL) {
			sprintf(exe, "%s%s", path, FB_EXE_SUFFIX);
			if (is_file(exe)) {
				free(path);
				return exe;
			}
			free(exe);
		}
	}
	if (is_file(path))
		return path;
	free(path);
	return NULL;
}

/*
 * The program named by the first len bytes of an engine line, found on disk
 * (an absolute path as it is, a relative one in config_dir): then cfg's
 * engine_argv becomes it and the words of rest. Returns the program's
 * allocated path, or NULL.
 */
static char *
program_named(struct fb_config *cfg, const char *config_dir, const char *line,
	      size_t len, const char *rest)
{
	char *word = malloc(len + 1), *path;

	if (word == NULL)
		return NULL;
	memcpy(word, line, len);
	word[len] = '\0';
	path = fb_path_is_absolute(word)
		       ? existing_program(strdup(word))
		       : existing_program(join(config_dir, word, len));
	free(word);
	if (path != NULL && fb_config_set_engine(cfg, path, rest) < 0) {
		free(path);
		return NULL;
	}
	return path;
}

/*
 * An unquoted engine line in the INI file whose first word is no program:
 * `engine = C:\Engines\Toga II\toga2.exe`. The whole line is tried first,
 * as the program with no arguments (doc/gui-recipes.md's example, and what a
 * user who pastes a path writes); then, like CreateProcess with such a
 * command line, the shortest run of words that names a program file is the
 * program, and the words after it are its arguments. Returns the program's
 * allocated path (and sets cfg's engine_argv), or NULL.
 */
static char *
program_with_blanks(struct fb_config *cfg, const char *config_dir)
{
	const char *line = cfg->engine_line, *end, *p;
	char *path;

	while (*line == ' ' || *line == '\t')
		line++;
	if (strpbrk(line, "\"'") != NULL)
		return NULL; /* quotes say where the program's name ends */
	end = line + strlen(line);
	while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (end == line)
		return NULL;
	path = program_named(cfg, config_dir, line, (size_t)(end - line), end);
	for (p = strpbrk(line, " \t"); path == NULL && p != NULL && p < end;
	     p = strpbrk(p + 1, " \t"))
		path = program_named(cfg, config_dir, line, (size_t)(p - line),
				     p);
	return path;
}

/*
 * Finds the engine's program: a path with a folder as given (made absolute,
 * since the engine starts in its own folder), a bare name beside the config
 * file first and then in PATH; on Windows a name without an extension also
 * as NAME.exe. Sets cfg->engine_file and, unless set, the engine's working
 * directory. Returns the allocated path, or NULL.
 */
static char *
resolve_engine(struct fb_config *cfg, const char *config_dir)
{
	const char *prog = cfg->engine_argv[0];
	char *path = NULL, *found, cwd[PATH_MAX];

	if (fb_path_has_dir(prog)) {
		if (fb_path_is_absolute(prog))
			path = strdup(prog);
		else if (fb_platform_getcwd(cwd, sizeof cwd) != NULL)
			path = join(cwd, prog, strlen(prog));
		/* Not there: as given, and the start fails with its name. */
		if (path != NULL && (found = existing_program(strdup(path)))) {
			free(path);
			path = found;
		}
	} else {
		const char *env = getenv("PATH");
		char *dirs = NULL;
		if (config_dir != NULL)
			path = existing_program(
				join(config_dir, prog, strlen(prog)));
		if (path == NULL && env != NULL && (dirs = strdup(env))) {
			for (char *d = dirs, *e; d != NULL; d = e) {
				if ((e = strchr(d, FB_PATH_LIST_SEP)) != NULL)
					*e++ = '\0';
				path = existing_program(
					join(*d ? d : ".", prog, strlen(prog)));
				if (path != NULL &&
				    fb_platform_can_execute(path) == 0)
					break;
				free(path);
				path = NULL;
			}
			free(dirs);
		}
	}
	if ((path == NULL || !is_file(path)) && cfg->engine_line != NULL &&
	    config_dir != NULL &&
	    (found = program_with_blanks(cfg, config_dir))) {
		free(path);
		path = found;
	}
	if (path != NULL) {
		cfg->engine_file = path;
		if (cfg->engine_dir == NULL) {
			static char dir[PATH_MAX];
			char *d = dir_of(path);
			if (d != NULL && strlen(d) < sizeof dir) {
				strcpy(dir, d);
				cfg->engine_dir = dir;
			}
			free(d);
		}
	}
	return path;
}

/*
 * A GUI user sees no stderr: answer the GUI's first command with the error
 * in its protocol (UCI `info string`, XBoard `tellusererror`); what goes in
 * the UCI `id name`.
 */
static void
tell_gui(const char *what, const char *msg)
{
	const struct fb_protocol *p;
	char line[256], answer[1024];
	ssize_t n;

	if (isatty(STDIN_FILENO) || fb_platform_wait_stdin(3000) <= 0)
		return;
	n = read(STDIN_FILENO, line, sizeof line - 1);
	if (n <= 0)
		return;
	line[n] = '\0';
	/* The first command, up to the end of its line. */
	p = fb_protocol_detect(line, strcspn(line, "\r\n"));
	if (p != NULL && p->failure(answer, sizeof answer, what, msg) > 0) {
		fputs(answer, stdout);
		fflush(stdout);
	}
}

static int
config_error(const char *msg)
{
	fprintf(stderr, "fenbridge: %s\n", msg);
	tell_gui("configuration error", msg);
	return 1;
}

/*
 * Checks before spawning that the engine's program can run, so that the
 * message names the cause. Returns 0, or the exit status (127 not found,
 * 126 not executable or a directory) with the message in msg; ini, when
 * the engine comes from that file, starts the message.
 */
static int
engine_start_error(const struct fb_config *cfg, const char *file,
		   const char *ini, char *msg, size_t len)
{
	const char *why;
	int status = 126, e;

	switch (file == NULL ? FB_FILE_NONE : fb_platform_file_kind(file)) {
	case FB_FILE_NONE:
		why = file == NULL ? "not found" : strerror(errno);
		if (file == NULL || errno == ENOENT)
			status = 127;
		break;
	case FB_FILE_DIR:
		why = "is a directory";
		break;
	default:
		if ((e = fb_platform_can_execute(file)) == 0)
			return 0;
		why = strerror(e);
		break;
	}
	snprintf(msg, len, "%s%scannot start engine '%s': %s",
		 ini != NULL ? ini : "", ini != NULL ? ": " : "",
		 cfg->engine_argv[0], why);
	return status;
}

/* --help or --version: printed, and 0. */
static int
show(const struct fb_config *cli)
{
	if (cli->action == FB_SHOW_HELP) {
		static char help[8192];
		fb_config_print_help(&fb_config_bridge_table, help,
				     sizeof help);
		fputs(help, stdout);
	} else {
		/* The first line as it always was (scripts read it). */
		struct fb_cpu cpu;
		char has[200], runs[96];
		fb_cpu_detect(&cpu);
		fb_cpu_print(&cpu, has, sizeof has);
		fb_cpu_print_builds(&cpu, true, " and ", runs, sizeof runs);
		printf("fenbridge %s\nCPU: %s (runs the engine builds %s)\n",
		       FB_VERSION, has, runs);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct fb_config cli, cfg;
	char err[512], pick[400];
	char *ini = NULL, *text = NULL, *dir = NULL, *engine_file = NULL;
	int rc;

#ifdef __linux__
	/* fenbridge started by itself to become the engine (bridge_engine.c). */
	if (argc > 1 && strcmp(argv[1], FB_BRIDGE_EXEC_ENGINE) == 0)
		return fb_bridge_exec_engine(argc, argv);
#endif
	fb_platform_init(&argc, &argv);
	if (argc > 1 && strcmp(argv[1], "convert") == 0)
		return fb_convert_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "check") == 0)
		return fb_check_run_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "replay") == 0)
		return fb_replay_run_main(argc - 1, argv + 1);

	/* A first pass finds --help, --version and --config. */
	fb_config_init(&cli);
	if (fb_config_parse_args(&cli, argc, argv, err, sizeof err) < 0) {
		fprintf(stderr, "fenbridge: %s\nTry 'fenbridge --help'.\n",
			err);
		return 2;
	}
	if (cli.action != FB_RUN_BRIDGE)
		return show(&cli);

	fb_config_init(&cfg);
	ini = cli.config_path != NULL ? strdup(cli.config_path)
				      : default_ini(argv[0]);
	if (ini != NULL) {
		dir = dir_of(ini);
		if ((text = read_file(ini, err, sizeof err)) == NULL ||
		    fb_config_parse_ini(&cfg, text, ini, dir ? dir : ".", err,
					sizeof err) < 0) {
			rc = config_error(err);
			goto out;
		}
	}
	fb_config_parse_args(&cfg, argc, argv, err, sizeof err);
	/* engine.avx512 ... engine.popcnt: the build this CPU runs. */
	if (fb_cpu_pick_engine(&cfg, NULL, pick, sizeof pick) < 0) {
		snprintf(err, sizeof err, "%s: %s", ini != NULL ? ini : "",
			 pick);
		rc = config_error(err);
		goto out;
	}
	if (fb_config_check(&cfg, err, sizeof err) < 0) {
		fprintf(stderr, "fenbridge: %s\nTry 'fenbridge --help'.\n",
			err);
		rc = 2;
		goto out;
	}
	engine_file = resolve_engine(&cfg, cfg.engine_from_config ? dir : NULL);

	/* A GUI that goes away must not kill us before the engine is told. */
	fb_platform_ignore_sigpipe();
	fb_log_init_stderr();
	if (cfg.log_path != NULL && (rc = fb_log_open(cfg.log_path)) < 0)
		fb_log_msg(FB_LOG_WARN,
			   "cannot open log file '%s': %s; "
			   "continuing without a log",
			   cfg.log_path, strerror(-rc));
	fb_log_session(&cfg, argc, argv);
	if (pick[0] != '\0')
		fb_log_msg(FB_LOG_INFO, "engine build: %s", pick);
	/* The commonest mistake, most of all in a config file. A GUI's user
	 * sees no stderr: every start failure is also told in-band. */
	rc = engine_start_error(&cfg, engine_file,
				cfg.engine_from_config ? ini : NULL, err,
				sizeof err);
	if (rc != 0)
		fb_log_msg(FB_LOG_ERROR, "%s", err);
	if (rc == 0 && isatty(STDIN_FILENO))
		fprintf(stderr,
			"fenbridge: relaying to '%s'; type engine "
			"commands (uci, position fen ..., d, quit). FENs go to "
			"the engine as %s.\n",
			cfg.engine_argv[0],
			cfg.engine_fen == FB_XFEN ? "X-FEN" : "Shredder-FEN");
	if (rc == 0)
		rc = fb_bridge_run(&cfg, err, sizeof err);
	fb_log_close();
	if (err[0] != '\0') /* the engine could not be started */
		tell_gui("engine not started", err);
out:
	fb_config_free(&cfg);
	free(engine_file);
	free(text);
	free(dir);
	free(ini);
	return rc;
}
