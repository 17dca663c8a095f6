/* SPDX-License-Identifier: MIT */
/*
 * The tables of protocols and of pairs (a GUI's protocol with an engine's).
 * Adding a protocol is one descriptor here; adding a pair is one file under
 * protocols/ and one entry here.
 */
#include <stdio.h>
#include <string.h>

#include "cecp_codec.h"
#include "proto.h"
#include "uci_codec.h"

static bool
detect_uci(const char *text, size_t len)
{
	size_t start;

	return fb_uci_gui_kind(text, len, &start) == FB_UCI_G_UCI;
}

static bool
detect_xboard(const char *text, size_t len)
{
	struct fb_cecp_command c;

	fb_cecp_parse_gui(text, len, &c);
	return c.kind == FB_CECP_G_XBOARD || c.kind == FB_CECP_G_PROTOVER;
}

static int
fits(int n, size_t cap)
{
	return n < 0 || (size_t)n >= cap ? FB_ENOSPC : n;
}

/* UCI: a GUI waits for uciok; the name and an info string carry it. */
static int
failure_uci(char *out, size_t cap, const char *what, const char *msg)
{
	return fits(snprintf(out, cap,
			     "id name fenbridge (%s)\n"
			     "%sfenbridge: %s\nuciok\n",
			     what, fb_protocol_uci.error, msg),
		    cap);
}

/* XBoard shows tellusererror (its error prefix) in a dialog. */
static int
failure_xboard(char *out, size_t cap, const char *what, const char *msg)
{
	(void)what;
	return fits(snprintf(out, cap, "%sfenbridge: %s\n",
			     fb_protocol_xboard.error, msg),
		    cap);
}

static bool
is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* True when text[0..len) holds word on its own (not inside another word:
 * `'xboard'.` and `: uci` do, `ucinewgame` does not). */
static bool
mentions(const char *text, size_t len, const char *word)
{
	size_t n = strlen(word);

	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(text + i, word, n) == 0 &&
		    (i == 0 || !is_word_char(text[i - 1])) &&
		    (i + n == len || !is_word_char(text[i + n])))
			return true;
	return false;
}

/* GNU Chess writes its prompt before its answers, with no newline: `White
 * (1) : Invalid move: uci`, `White (1) : feature done=0`. Returns where
 * the answer starts. */
static size_t
after_prompt(const char *text, size_t len)
{
	const char *p;

	if (len < 8 || (memcmp(text, "White (", 7) != 0 &&
			memcmp(text, "Black (", 7) != 0))
		return 0;
	p = memchr(text, ')', len);
	if (p == NULL || (size_t)(text + len - p) < 4 ||
	    memcmp(p, ") : ", 4) != 0)
		return 0;
	return (size_t)(p + 4 - text);
}

/* The first word says the engine did not take a command: XBoard engines
 * write `Error (unknown command): X` (CECP), GNU Chess `Invalid move: X`,
 * UCI engines `Unknown command: X` (Stockfish, Glaurung). */
static bool
is_refusal(const char *text, size_t len)
{
	size_t pos = after_prompt(text, len), start,
	       n = fb_proto_token(text, len, &pos, &start);

	return (n >= 5 && (memcmp(text + start, "Error", 5) == 0 ||
			   memcmp(text + start, "error", 5) == 0)) ||
	       (n >= 7 && (memcmp(text + start, "Unknown", 7) == 0 ||
			   memcmp(text + start, "unknown", 7) == 0 ||
			   memcmp(text + start, "Illegal", 7) == 0 ||
			   memcmp(text + start, "Invalid", 7) == 0));
}

/* The probe's `uci`: id or uciok mean UCI; an XBoard engine's error or
 * feature line means another protocol. */
static enum fb_probe_answer
answer_uci(const char *text, size_t len)
{
	size_t pos, start, n;

	switch (fb_uci_engine_kind(text, len, &start)) {
	case FB_UCI_E_UCIOK:
		return FB_ANSWER_END;
	case FB_UCI_E_ID:
	case FB_UCI_E_OPTION:
		return FB_ANSWER_YES;
	default:
		break;
	}
	pos = after_prompt(text, len);
	n = fb_proto_token(text, len, &pos, &start);
	if ((n >= 5 && memcmp(text + start, "Error", 5) == 0) ||
	    fb_proto_is(text, start, n, "Illegal") ||
	    fb_proto_is(text, start, n, "Invalid") || /* GNU Chess */
	    fb_proto_is(text, start, n, "feature") ||
	    fb_proto_is(text, start, n, "tellusererror"))
		return FB_ANSWER_NO;
	return FB_ANSWER_UNKNOWN;
}

static bool
refused_uci(const char *text, size_t len)
{
	return is_refusal(text, len) && mentions(text, len, "uci");
}

/* xboard + protover 2: a CECP engine answers with its features (GNU Chess
 * after its prompt: `White (1) : feature done=0`); a UCI engine may say it
 * does not know them, or nothing. */
static enum fb_probe_answer
answer_xboard(const char *text, size_t len)
{
	size_t pos = after_prompt(text, len), start,
	       n = fb_proto_token(text, len, &pos, &start);

	if (fb_proto_is(text, start, n, "feature"))
		return FB_ANSWER_YES;
	if (is_refusal(text, len) &&
	    (mentions(text, len, "xboard") || mentions(text, len, "protover")))
		return FB_ANSWER_NO;
	return FB_ANSWER_UNKNOWN;
}

static bool
refused_xboard(const char *text, size_t len)
{
	return answer_xboard(text, len) == FB_ANSWER_NO;
}

/* An XBoard GUI waits 2 s for an engine's features after protover 2, and
 * as long as it takes after feature done=0. */
static bool
waits_xboard(const char *text, size_t len)
{
	struct fb_cecp_command c;

	fb_cecp_parse_gui(text, len, &c);
	return c.kind == FB_CECP_G_PROTOVER;
}

static bool
released_xboard(const char *text, size_t len)
{
	size_t pos = 0, start, n = fb_proto_token(text, len, &pos, &start);

	if (!fb_proto_is(text, start, n, "feature"))
		return false;
	for (size_t i = start; i + 5 <= len; i++)
		if (memcmp(text + i, "done=", 5) == 0)
			return true;
	return false;
}

const struct fb_protocol fb_protocol_uci = {
	.name = "uci",
	.aliases = (const char *const[]){NULL},
	.note = "info string ",
	.warning = "info string ",
	.error = "info string ",
	.detect = detect_uci,
	.failure = failure_uci,
	.probe = "uci\n",
	.opening = "uci\n",
	.probe_answer = answer_uci,
	.refused = refused_uci,
};

const struct fb_protocol fb_protocol_xboard = {
	.name = "xboard",
	.aliases = (const char *const[]){"cecp", "winboard", NULL},
	.note = "# ",
	.warning = "telluser ",
	.error = "tellusererror ",
	.detect = detect_xboard,
	.failure = failure_xboard,
	.opening = "xboard\n",
	.probe_answer = answer_xboard,
	.refused = refused_xboard,
	.waits = waits_xboard,
	.hold = "feature done=0\n",
	.release = "feature done=1\n",
	.released = released_xboard,
};

static const struct fb_protocol *const protocols[] = {
	&fb_protocol_uci,
	&fb_protocol_xboard,
};

static const struct fb_pair *const pairs[] = {
	&fb_pair_uci,
	&fb_pair_xboard,
	&fb_pair_xboard_uci,
	&fb_pair_uci_xboard,
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const struct fb_protocol *
fb_protocol_find(const char *name)
{
	for (size_t i = 0; i < COUNT(protocols); i++) {
		if (strcmp(protocols[i]->name, name) == 0)
			return protocols[i];
		for (const char *const *a = protocols[i]->aliases; *a; a++)
			if (strcmp(*a, name) == 0)
				return protocols[i];
	}
	return NULL;
}

const char *
fb_protocol_prefix(const struct fb_protocol *p, enum fb_say level)
{
	return level == FB_SAY_NOTE      ? p->note
	       : level == FB_SAY_WARNING ? p->warning
					 : p->error;
}

const struct fb_protocol *
fb_protocol_other(const struct fb_protocol *p)
{
	return p == protocols[0] ? protocols[1] : protocols[0];
}

const struct fb_protocol *
fb_protocol_detect(const char *text, size_t len)
{
	for (size_t i = 0; i < COUNT(protocols); i++)
		if (protocols[i]->detect(text, len))
			return protocols[i];
	return NULL;
}

const struct fb_pair *
fb_pair_find(const struct fb_protocol *gui, const struct fb_protocol *engine)
{
	for (size_t i = 0; i < COUNT(pairs); i++)
		if (pairs[i]->gui == gui && pairs[i]->engine == engine)
			return pairs[i];
	return NULL;
}
