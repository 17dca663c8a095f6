/* SPDX-License-Identifier: MIT */
/*
 * PGN, EPD and FEN files, streamed (see pgn.h). The PGN scanner knows just
 * enough of the PGN standard (sections 8.1 and 8.2: tag pairs, movetext,
 * brace and rest-of-line comments, % escape lines) to find where a game's
 * tag section starts and ends; only the tag section is buffered, since the
 * SetUp tag and the Variant tag may stand after the FEN tag and --select
 * decides on the whole section. Movetext is scanned, not parsed, and passes
 * as spans of the caller's input.
 *
 * No I/O in this file.
 */
#include "fenbridge/pgn.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "fenbridge/variant.h"

enum { S_MOVE, S_TAGS, S_LINE };
/* S_MOVE: at a line's start (blanks only so far), in text, in a brace
 * comment, up to the end of the line (';' comment, '%' escape). */
enum { M_START, M_TEXT, M_BRACE, M_EOL };
/* S_TAGS: at a line's start, inside a tag line. */
enum { T_START, T_LINE };

static const unsigned char bom[3] = {0xef, 0xbb, 0xbf};

static bool
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/*
 * The offset of the first byte of d[i..n) that is in stop, or n; a, b, c
 * and e are those bytes (one repeated when there are fewer than four).
 * This is the inner loop of the whole scan: movetext between its special
 * bytes, tag values. Those runs are short (a comment every few moves, a
 * line end every 80 bytes at most, values of a dozen bytes), too short for
 * memchr's call to pay off, and memchr looks for one byte only; SSE2, which
 * every x86-64 has, compares 16 bytes with all four in a few instructions.
 * Other machines, and the last bytes of the input, take a table lookup a
 * byte.
 */
static inline size_t
find_stop(const unsigned char *d, size_t n, size_t i, const bool stop[256],
	  char a, char b, char c, char e)
{
#ifdef __SSE2__
	const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b),
		      vc = _mm_set1_epi8(c), ve = _mm_set1_epi8(e);

	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const void *)(d + i));
		__m128i ab = _mm_or_si128(_mm_cmpeq_epi8(v, va),
					  _mm_cmpeq_epi8(v, vb));
		__m128i ce = _mm_or_si128(_mm_cmpeq_epi8(v, vc),
					  _mm_cmpeq_epi8(v, ve));
		int mask = _mm_movemask_epi8(_mm_or_si128(ab, ce));
		if (mask != 0)
			return i + (size_t)__builtin_ctz((unsigned)mask);
	}
#else
	(void)a, (void)b, (void)c, (void)e;
#endif
	while (i < n && !stop[d[i]])
		i++;
	return i;
}

static void
emit(struct fb_pgn *p, const char *s, size_t n)
{
	if (n > 0)
		p->emit(p->ctx, s, n);
}

static void
emit_kept(struct fb_pgn *p, const char *s, size_t n)
{
	if (p->keep)
		emit(p, s, n);
}

__attribute__((format(printf, 6, 7))) static void
say(struct fb_pgn *p, enum fb_pgn_kind kind, int code, unsigned long line,
    size_t column, const char *fmt, ...)
{
	struct fb_pgn_diag d = {
		.kind = kind, .code = code, .line = line, .column = column};
	va_list ap;

	if (p->diag == NULL)
		return;
	d.game = p->format == FB_PGN_PGN ? p->game : 0;
	va_start(ap, fmt);
	vsnprintf(d.msg, sizeof d.msg, fmt, ap);
	va_end(ap);
	p->diag(p->ctx, &d);
}

const char *
fb_pgn_format_name(enum fb_pgn_format f)
{
	switch (f) {
	case FB_PGN_FEN:
		return "fen";
	case FB_PGN_EPD:
		return "epd";
	case FB_PGN_PGN:
		return "pgn";
	default:
		return "auto";
	}
}

void
fb_pgn_init(struct fb_pgn *p, enum fb_pgn_format format,
	    enum fb_pgn_select select, enum fb_pgn_variant_tag variant_tag,
	    const struct fb_fen_style *style, char *buf, size_t cap,
	    fb_pgn_emit_fn emitfn, fb_pgn_diag_fn diag, void *ctx)
{
	memset(p, 0, sizeof *p);
	p->format = format;
	p->select = select;
	p->variant_tag = variant_tag;
	p->style = *style;
	p->emit = emitfn;
	p->diag = diag;
	p->ctx = ctx;
	p->buf = buf;
	p->cap = cap;
	p->line = 1;
	p->state = format == FB_PGN_PGN ? S_MOVE : S_LINE;
	/* Text before the first game: a file of movetext without tags is a
	 * classical game. */
	p->keep = select == FB_PGN_ALL || select == FB_PGN_CLASSICAL;
}

/* ---- translating one FEN ---- */

/* Translates text[0..n), which starts at column col (1-based) of line
 * line, into p->out; width, when not 0, is the board the game is played on.
 * Returns the length of the result, or -1 when the text is to stay as it
 * was (malformed, another board, too long); diagnostics are sent. One parse
 * serves the check and the print (it is most of the cost per game); with
 * need, also the question which random variant the FEN needs (*need and
 * *why: see fb_pgn_needs_random). */
static int
translate(struct fb_pgn *p, const char *text, size_t n,
	  const struct fb_fen_style *style, unsigned width, const char *game,
	  unsigned long line, size_t col, const struct fb_variant **need,
	  const char **why)
{
	struct fb_fen_report rep;
	struct fb_fen fen;
	int rc;

	if (n > FB_PGN_FEN_MAX) {
		say(p, FB_PGN_TOO_LONG, 0, line, col,
		    "FEN longer than %d bytes, left unchanged", FB_PGN_FEN_MAX);
		return -1;
	}
	p->stats.fens++;
	rc = fb_fen_parse(&fen, text, n, &rep);
	for (unsigned i = 0; i < rep.ndiag; i++)
		say(p, rep.error ? FB_PGN_FEN_ERROR : FB_PGN_FEN_DROP,
		    rep.diag[i].code, line, col + rep.diag[i].offset, "%s%s",
		    rep.error ? "malformed FEN, left unchanged: " : "",
		    rep.diag[i].msg);
	if (rep.nmore > 0)
		say(p, FB_PGN_FEN_DROP, FB_WROOK, line, 0,
		    "%u more castling letters dropped", rep.nmore);
	if (rc < 0)
		return -1;
	if (width != 0 && fen.pos.width != width) {
		say(p, FB_PGN_FEN_ERROR, FB_EWIDTH, line, col,
		    "FEN of %u files in a game of %s (%u files), left "
		    "unchanged",
		    fen.pos.width, game, width);
		return -1;
	}
	/* Toward X-FEN, a --variant prefix (janus, embassy) says the game is
	 * not Capablanca Random. */
	if (need != NULL && (fen.pos.width == 8 || style->prefix == 0))
		*need = fb_pgn_needs_random(&fen, why);
	return fb_fen_print(&fen, style, p->out, sizeof p->out);
}

/* ---- FEN and EPD lines ---- */

static void
line_done(struct fb_pgn *p, const char *s, size_t n)
{
	size_t end = n, b = 0, e;
	int len;

	if (end > 0 && s[end - 1] == '\n')
		end--;
	if (end > 0 && s[end - 1] == '\r')
		end--;
	while (b < end && (s[b] == ' ' || s[b] == '\t'))
		b++;
	e = end;
	while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t'))
		e--;
	if (b == e) {
		emit(p, s, n);
		return;
	}
	if (p->format == FB_PGN_EPD) {
		/* The position is the first four fields; the operations
		 * after them stay as they are. */
		size_t f = b;
		for (int k = 0; k < 4 && f < e; k++) {
			while (f < e && s[f] != ' ' && s[f] != '\t')
				f++;
			if (k < 3)
				while (f < e && (s[f] == ' ' || s[f] == '\t'))
					f++;
		}
		e = f;
	}
	len = translate(p, s + b, e - b, &p->style, 0, NULL, p->line, b + 1,
			NULL, NULL);
	if (len < 0) {
		emit(p, s, n);
		return;
	}
	emit(p, s, b);
	emit(p, p->out, (size_t)len);
	emit(p, s + e, n - e);
}

static size_t
scan_line(struct fb_pgn *p, const char *d, size_t n, size_t i)
{
	const char *q = memchr(d + i, '\n', n - i);
	size_t end = q != NULL ? (size_t)(q - d) + 1 : n, k = end - i;

	if (p->raw) {
		emit(p, d + i, k);
	} else if (p->len + k > p->cap) {
		say(p, FB_PGN_TOO_LONG, 0, p->line, 0,
		    "line longer than %zu bytes, left unchanged", p->cap);
		emit(p, p->buf, p->len);
		emit(p, d + i, k);
		p->len = 0;
		p->raw = true;
	} else if (q != NULL && p->len == 0) {
		line_done(p, d + i, k); /* the whole line is here */
	} else {
		memcpy(p->buf + p->len, d + i, k);
		p->len += k;
		if (q != NULL) {
			line_done(p, p->buf, p->len);
			p->len = 0;
		}
	}
	if (q != NULL) {
		p->raw = false;
		p->line++;
	}
	return end;
}

/* ---- PGN tag sections ---- */

struct tag {
	size_t start; /* the '[' */
	size_t name, name_len;
	size_t value, value_len; /* between the quotes, escapes as written */
};

/* A tag name's characters (PGN standard 8.1.1: letters, digits, '_';
 * '+', '#', '=', ':', '-' as import format allows). */
static const bool name_chars[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1,
	['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, ['A'] = 1, ['B'] = 1,
	['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1,
	['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1,
	['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1,
	['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1,
	['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1,
	['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1,
	['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
	['y'] = 1, ['z'] = 1, ['_'] = 1, ['+'] = 1, ['#'] = 1, ['='] = 1,
	[':'] = 1, ['-'] = 1};

/*
 * Reads the next tag of line s[0..n) from *pos. Returns 1 with t filled,
 * 0 at the end of the line, or -1 with *why and *pos at the fault; t holds
 * what was read (a name, a whole value) even then.
 */
static int
next_tag(const char *s, size_t n, size_t *pos, struct tag *t, const char **why)
{
	size_t i = *pos;

	memset(t, 0, sizeof *t);
	while (i < n && blank(s[i]))
		i++;
	*pos = i;
	if (i == n)
		return 0;
	if (s[i] != '[') {
		*why = "text after a tag";
		return -1;
	}
	t->start = i++;
	while (i < n && blank(s[i]))
		i++;
	t->name = i;
	while (i < n && name_chars[(unsigned char)s[i]])
		i++;
	t->name_len = i - t->name;
	while (i < n && blank(s[i]))
		i++;
	*pos = i;
	if (t->name_len == 0) {
		*why = "a tag without a name";
		return -1;
	}
	if (i == n || s[i] != '"') {
		*why = "a tag without a quoted value";
		return -1;
	}
	t->value = ++i;
	{
		/* Escapes are \" and \\ (PGN standard 7). Only a backslash
		 * right before it can escape the first quote, so one memchr
		 * finds the end of a value in all but rare cases. */
		const char *q = memchr(s + i, '"', n - i);
		if (q != NULL && (q == s + i || q[-1] != '\\'))
			i = (size_t)(q - s);
		else
			while (i < n && s[i] != '"')
				i += s[i] == '\\' && i + 1 < n ? 2 : 1;
	}
	*pos = i;
	if (i >= n) {
		t->value_len = 0;
		*why = "a tag value without its closing quote";
		return -1;
	}
	t->value_len = i - t->value;
	i++;
	while (i < n && blank(s[i]))
		i++;
	*pos = i;
	if (i == n || s[i] != ']') {
		*why = "a tag line without its closing bracket";
		return -1;
	}
	*pos = i + 1;
	return 1;
}

static bool
is_name(const char *s, const struct tag *t, const char *name)
{
	return t->name_len == strlen(name) &&
	       memcmp(s + t->name, name, t->name_len) == 0;
}

/* The end of the line starting at s[i] in s[0..n), past its '\n'. */
static size_t
line_end(const char *s, size_t n, size_t i)
{
	const char *q = memchr(s + i, '\n', n - i);

	return q != NULL ? (size_t)(q - s) + 1 : n;
}

/* The length of line s[0..n) without its "\n" or "\r\n". */
static size_t
content_len(const char *s, size_t n)
{
	if (n > 0 && s[n - 1] == '\n')
		n--;
	if (n > 0 && s[n - 1] == '\r')
		n--;
	return n;
}

/* Notes what tag t (next_tag's result rc) of the line at buf[at] (line
 * index line of the section) says in p->sec. */
static void
note_tag(struct fb_pgn *p, size_t at, const struct tag *t, int rc,
	 unsigned long line)
{
	struct fb_pgn_section *sec = &p->sec;
	const char *l = p->buf + at;
	/* Asked once: this runs for every tag of every game. */
	bool fen = is_name(l, t, "FEN");

	if ((rc < 0 || fen) &&
	    (sec->nmarks == 0 || sec->mark[sec->nmarks - 1] != at)) {
		if (sec->nmarks == FB_PGN_MARKS)
			sec->all = true;
		else {
			sec->mark[sec->nmarks] = at;
			sec->mark_line[sec->nmarks++] = line;
		}
	}
	if (is_name(l, t, "SetUp"))
		sec->setup = true;
	/* A FEN tag that parses: write_line sees it too. */
	if (rc > 0 && fen)
		sec->fen_good = true;
	if (is_name(l, t, "Variant") && (rc > 0 || t->value_len > 0)) {
		sec->variant = true;
		sec->variant_at = at + t->value;
		sec->variant_len = t->value_len;
		sec->variant_line = at;
		sec->variant_index = line;
		sec->late |= sec->fen_good;
		sec->variants++;
		sec->alone = rc > 0; /* survey_line says if others share it */
	}
	if (fen && !sec->fen) {
		struct fb_fen pos;
		const char *v = l + t->value;
		size_t vl = t->value_len;
		sec->fen = true;
		while (vl > 0 && blank(v[vl - 1]))
			vl--;
		while (vl > 0 && blank(*v))
			v++, vl--;
		/* Only --select=chess960 needs the position. */
		sec->chess960 = p->select == FB_PGN_CHESS960 &&
				fb_fen_parse(&pos, v, vl, NULL) == 0 &&
				fb_pgn_is_chess960_start(&pos);
	}
}

/* Notes what the tag line buf[at..end) (line index line of the section)
 * says. Each line is read as it comes in, while it is still in the cache;
 * end_tags then only decides and writes. */
static void
survey_line(struct fb_pgn *p, size_t at, size_t end, unsigned long line)
{
	const char *l = p->buf + at, *why;
	size_t len = content_len(l, end - at), pos = 0;
	struct tag t;
	unsigned ntags = 0;
	int rc = 0;

	/* pos == len: the line ends right after its tag, and next_tag would
	 * only say so. */
	while (pos < len && (rc = next_tag(l, len, &pos, &t, &why)) != 0) {
		note_tag(p, at, &t, rc, line);
		ntags++;
		if (rc < 0)
			break;
	}
	/* Only a Variant tag with a line of its own can move. */
	if (p->sec.variant && p->sec.variant_line == at &&
	    (ntags > 1 || rc < 0))
		p->sec.alone = false;
}

/* The bytes that end a tag value in usual_line: its closing quote, or
 * what makes the line unusual (an escape, the end of the line). */
static const bool value_stop[256] = {['"'] = 1, ['\\'] = 1, ['\n'] = 1};

/*
 * Nearly every tag line is `[Name "value"]` and its end. The general way
 * (memchr for the line's end, then next_tag and survey_line on the copy)
 * reads its bytes three times; this reads them once. s[0..n) starts with
 * '['. When it starts with a whole line of exactly that form (one space,
 * no backslash, "\n" or "\r\n" right after the ']'), fills t as next_tag
 * would and returns the line's length with its end; otherwise returns 0,
 * and the general way reads the line.
 */
static size_t
usual_line(const char *s, size_t n, struct tag *t)
{
	size_t i = 1;

	while (i < n && name_chars[(unsigned char)s[i]])
		i++;
	if (i == 1 || i + 2 > n || s[i] != ' ' || s[i + 1] != '"')
		return 0;
	t->start = 0;
	t->name = 1;
	t->name_len = i - 1;
	i += 2;
	t->value = i;
	i = find_stop((const unsigned char *)s, n, i, value_stop, '"', '\\',
		      '\n', '"');
	if (i + 2 > n || s[i] != '"' || s[i + 1] != ']')
		return 0;
	t->value_len = i - t->value;
	i += 2;
	if (i < n && s[i] == '\n')
		return i + 1;
	if (i + 1 < n && s[i] == '\r' && s[i + 1] == '\n')
		return i + 2;
	return 0;
}

static bool
wanted(const struct fb_pgn *p, const struct fb_pgn_section *sec)
{
	switch (p->select) {
	case FB_PGN_CLASSICAL:
		return !sec->fen;
	case FB_PGN_SETUP:
		return sec->fen;
	case FB_PGN_CHESS960:
		return sec->chess960;
	default:
		return true;
	}
}

/* How a tag section is being written: its variant (v, or unknown: FEN
 * tags pass unchanged), whether it has a SetUp tag (or one was added), and
 * what happens to its Variant tag at its first FEN tag: the line
 * s[vline..vend) moves there, or one is added if the FEN needs it. */
struct writing {
	const struct fb_pgn_section *sec;
	const struct fb_variant *v;
	bool known, setup, fen_seen, moving, adding;
	size_t vline, vend;
};

/* Writes l[from..to), the FEN tag whose value (blanks trimmed) is
 * l[b..e), with that value replaced by the n bytes of p->out (n < 0: as it
 * was). */
static void
put_fen(struct fb_pgn *p, const char *l, size_t from, size_t to, size_t b,
	size_t e, int n)
{
	if (n < 0) {
		emit(p, l + from, to - from);
		return;
	}
	emit(p, l + from, b - from);
	emit(p, p->out, (size_t)n);
	emit(p, l + e, to - e);
}

/* Before the first FEN tag, on line l of the section (line number line,
 * content len bytes, ended by eol): the Variant tag that stood after it,
 * or a new one when the FEN needs one (need, for the reason why). */
static void
put_variant(struct fb_pgn *p, struct writing *w, const char *s, const char *l,
	    size_t len, const char *eol, unsigned long line,
	    const struct fb_variant *need, const char *why)
{
	const struct fb_pgn_section *sec = w->sec;

	if (w->moving) {
		emit(p, s + w->vline, w->vend - w->vline);
		say(p, FB_PGN_VARIANT_MOVED, 0,
		    p->game_line + sec->variant_index, 0,
		    "Variant tag after the FEN tag of line %lu: moved before "
		    "it (WinBoard reads a FEN in the variant set before it)",
		    line);
		p->stats.variants_moved++;
	} else if (need != NULL) {
		size_t ind = 0;
		while (ind < len && blank(l[ind]))
			ind++;
		/* Indented and ended like the FEN tag's line, as SetUp. */
		emit(p, l, ind);
		emit(p, "[Variant \"", 10);
		emit(p, need->uci, strlen(need->uci));
		emit(p, "\"]", 2);
		emit(p, eol, strlen(eol));
		say(p, FB_PGN_VARIANT_ADDED, 0, line, 0,
		    "a FEN tag with %s and no Variant tag (read as standard "
		    "chess): [Variant \"%s\"] added",
		    why, need->uci);
		p->stats.variants_added++;
	}
}

/* Writes line s[at..end) (line number line) with its FEN tags translated
 * and, before the first, a SetUp tag if the section has none, and the
 * Variant tag w says. */
static void
write_line(struct fb_pgn *p, const char *s, size_t at, size_t end,
	   unsigned long line, struct writing *w)
{
	struct fb_fen_style style = p->style;
	size_t len, pos = 0, done = 0;
	const char *l = s + at, *why, *eol;
	struct tag t;
	int rc;

	bool first = true;

	if (w->v != NULL)
		style.prefix = w->v->prefix;
	len = content_len(l, end - at);
	eol = end - at > len + 1 ? "\r\n" : "\n";
	for (; (rc = next_tag(l, len, &pos, &t, &why)) > 0; first = false) {
		size_t b = t.value, e = t.value + t.value_len;
		const struct fb_variant *need = NULL;
		const char *reason = NULL;
		int n = -1;

		if (!is_name(l, &t, "FEN"))
			continue;
		while (b < e && blank(l[b]))
			b++;
		while (e > b && blank(l[e - 1]))
			e--;
		/* Columns count from the tag's '[', as they always have. */
		if (w->known)
			n = translate(
				p, l + b, e - b, &style, w->v ? w->v->width : 0,
				w->v ? w->v->name : NULL, line, b - t.start + 1,
				w->adding && !w->fen_seen ? &need : NULL,
				&reason);
		if (!w->fen_seen) {
			/* Nothing of this line is written yet (done == 0). */
			put_variant(p, w, s, l, len, eol, line, need, reason);
			w->fen_seen = true;
		}
		emit(p, l + done, t.start - done);
		if (!w->setup) {
			/* A PGN reader ignores a FEN tag without SetUp "1"
			 * (PGN standard 9.7.1). On a line of its own, the new
			 * tag gets a line of its own, indented and ended
			 * alike. */
			emit(p, "[SetUp \"1\"]", 11);
			if (first) {
				emit(p, eol, strlen(eol));
				emit(p, l, t.start);
			} else {
				emit(p, " ", 1);
			}
			say(p, FB_PGN_SETUP_ADDED, 0, line, 0,
			    "FEN tag without a SetUp tag: [SetUp \"1\"] added");
			w->setup = true;
		}
		put_fen(p, l, t.start, pos, b, e, n);
		done = pos;
	}
	if (rc < 0)
		say(p, FB_PGN_BAD_TAG, 0, line, pos + 1,
		    "%s; the rest of the line is left unchanged", why);
	emit(p, l + done, end - at - done);
}

/* fb_variant_find, which tries every name of every variant, once for each
 * new value of the Variant tag. */
static const struct fb_variant *
find_variant(struct fb_pgn *p, const char *name, size_t n)
{
	if (p->variant_known && n == p->variant_len &&
	    memcmp(name, p->variant_name, n) == 0)
		return p->variant;
	p->variant = fb_variant_find(name, n);
	p->variant_known = n <= sizeof p->variant_name;
	if (p->variant_known) {
		memcpy(p->variant_name, name, n);
		p->variant_len = n;
	}
	return p->variant;
}

/* Writes the tag section s[0..n) (its first line is p->game_line) with
 * every FEN tag translated and a SetUp tag added where missing. */

/* Writes s[from..to) of a tag section, but for the Variant tag's line
 * when it moves (it is written before the FEN tag). */
static void
put_lines(struct fb_pgn *p, const struct writing *w, const char *s, size_t from,
	  size_t to)
{
	if (w->moving && w->fen_seen && w->vline >= from && w->vline < to) {
		emit(p, s + from, w->vline - from);
		from = w->vend;
	}
	emit(p, s + from, to - from);
}

/* Decides what happens to the section's Variant tag (see writing). */
static void
plan_variant(struct fb_pgn *p, struct writing *w, const char *s, size_t n)
{
	const struct fb_pgn_section *sec = w->sec;

	if (p->variant_tag != FB_PGN_VARIANT_AUTO || !sec->fen_good)
		return;
	if (!sec->variant) {
		w->adding = true;
		return;
	}
	if (!sec->late)
		return;
	w->vline = sec->variant_line;
	w->vend = line_end(s, n, w->vline);
	/* A last line without its end (a truncated input) stays last; of
	 * two Variant tags, neither is the one to move. */
	w->moving = sec->variants == 1 && sec->alone && s[w->vend - 1] == '\n';
	if (!w->moving)
		say(p, FB_PGN_VARIANT_LATE, 0,
		    p->game_line + sec->variant_index, 0,
		    "Variant tag after the FEN tag, %s: left where it is "
		    "(WinBoard reads the FEN before it as standard chess)",
		    sec->variants > 1 ? "one of several Variant tags"
		    : sec->alone      ? "on the last line of the input"
				      : "on a line with other tags");
}

/* Writes the tag section s[0..n) (its first line is p->game_line) with
 * every FEN tag translated, a SetUp tag added where missing and the
 * Variant tag as p->variant_tag says. */
static void
write_section(struct fb_pgn *p, const char *s, size_t n,
	      const struct fb_pgn_section *sec)
{
	struct writing w = {.sec = sec, .known = true, .setup = sec->setup};
	size_t done = 0;

	if (sec->variant) {
		w.v = find_variant(p, s + sec->variant_at, sec->variant_len);
		w.known = w.v != NULL;
		if (!w.known && sec->fen)
			say(p, FB_PGN_NOTE, 0, p->game_line, 0,
			    "variant \"%.*s\" is not in fenbridge's table: its "
			    "FEN tags are left unchanged",
			    (int)(sec->variant_len > 40 ? 40
							: sec->variant_len),
			    s + sec->variant_at);
	}
	plan_variant(p, &w, s, n);
	if (sec->all) {
		unsigned long line = p->game_line;
		for (size_t at = 0; at < n; line++) {
			size_t end = line_end(s, n, at);
			if (!w.moving || !w.fen_seen || at != w.vline)
				write_line(p, s, at, end, line, &w);
			at = end;
		}
		return;
	}
	/* Only the marked lines need a look; the others go out in one. */
	for (unsigned k = 0; k < sec->nmarks; k++) {
		size_t at = sec->mark[k], end = line_end(s, n, at);
		put_lines(p, &w, s, done, at);
		write_line(p, s, at, end, p->game_line + sec->mark_line[k], &w);
		done = end;
	}
	put_lines(p, &w, s, done, n);
}

/* The tag section buf[0..upto) is complete: pick, translate, write; then
 * what follows it in the buffer (blanks, a blank line) as it is. */
static void
end_tags(struct fb_pgn *p, size_t upto)
{
	if (!p->raw) {
		p->keep = wanted(p, &p->sec);
		if (p->keep)
			write_section(p, p->buf, upto, &p->sec);
		emit_kept(p, p->buf + upto, p->len - upto);
	}
	if (p->keep)
		p->stats.written++;
	p->len = 0;
	p->raw = false;
	p->state = S_MOVE;
	p->sub = M_START;
}

/* Appends d[0..k) to the tag section, or passes it on when it is over the
 * buffer (then the game is written unchanged, whatever --select says). */
static void
append(struct fb_pgn *p, const char *d, size_t k)
{
	if (!p->raw && p->len + k > p->cap) {
		say(p, FB_PGN_TOO_LONG, 0, p->line, 0,
		    "tag section longer than %zu bytes (a tag line without "
		    "its end?): the game is written unchanged",
		    p->cap);
		p->keep = true;
		p->raw = true;
		emit(p, p->buf, p->len);
		p->len = 0;
	}
	if (p->raw)
		emit_kept(p, d, k);
	else {
		memcpy(p->buf + p->len, d, k);
		p->len += k;
	}
}

static bool
is_result(const struct fb_pgn *p)
{
	static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};

	for (size_t i = 0; i < 4; i++)
		if (p->tail_len == strlen(results[i]) &&
		    memcmp(p->tail, results[i], p->tail_len) == 0)
			return true;
	return false;
}

/* The current game ends (a new tag section starts, or the input ends). */
static void
end_game(struct fb_pgn *p)
{
	if (p->game > 0 && p->keep && !is_result(p))
		say(p, FB_PGN_TRUNCATED, 0, p->line, 0,
		    "the game (from line %lu) does not end with a result "
		    "(1-0, 0-1, 1/2-1/2 or *): truncated?",
		    p->game_line);
}

static void
start_game(struct fb_pgn *p)
{
	p->game++;
	p->stats.games++;
	p->game_line = p->line;
	p->state = S_TAGS;
	p->sub = T_START;
	p->len = p->line_start = 0;
	p->raw = false;
	p->keep = false;
	p->tail_len = 0;
	p->tail_open = false;
	/* Not a memset: the marks are read only up to nmarks. */
	p->sec.fen = p->sec.setup = p->sec.chess960 = p->sec.variant = false;
	p->sec.fen_good = p->sec.late = false;
	p->sec.variants = 0;
	p->sec.all = false;
	p->sec.nmarks = 0;
}

static size_t
scan_tags(struct fb_pgn *p, const char *d, size_t n, size_t i)
{
	while (i < n) {
		if (p->sub == T_START) {
			char c = d[i];
			if (blank(c)) {
				append(p, d + i++, 1);
			} else if (c == '\n') {
				/* A blank line ends the tag section. */
				append(p, d + i++, 1);
				end_tags(p, p->line_start);
				p->line++;
				return i;
			} else if (c == '[') {
				struct tag t;
				size_t k =
					p->len == p->line_start
						? usual_line(d + i, n - i, &t)
						: 0;
				if (k == 0) {
					p->sub = T_LINE;
					continue;
				}
				append(p, d + i, k);
				i += k;
				if (!p->raw)
					note_tag(p, p->line_start, &t, 1,
						 p->line - p->game_line);
				p->line++;
				p->line_start = p->len;
			} else {
				/* Movetext (or a comment) starts: the blanks
				 * before it go out after the section. */
				end_tags(p, p->line_start);
				return i;
			}
		} else {
			const char *q = memchr(d + i, '\n', n - i);
			size_t end = q != NULL ? (size_t)(q - d) + 1 : n;
			append(p, d + i, end - i);
			i = end;
			if (q != NULL) {
				if (!p->raw)
					survey_line(p, p->line_start, p->len,
						    p->line - p->game_line);
				p->line++;
				p->sub = T_START;
				p->line_start = p->len;
			}
		}
	}
	return i;
}

/* ---- PGN movetext ---- */

/*
 * A game must end with its result, so the scanner keeps the last token of
 * the movetext outside comments (p->tail: its first 8 bytes and its
 * length). Looking at every run of text for it would cost as much as the
 * rest of the scan; scan_moves only remembers where the last run with a
 * token in it is, and note_tail reads the token out of that run when the
 * piece of input or the game ends. Here d[b..e) is that run, e just past
 * its last non-blank byte (e == 0: no such run), in the piece d[from..end)
 * of the input. A token cut by the end of the previous piece
 * (p->tail_open) goes on if this run starts the piece with no blank.
 */
static void
note_tail(struct fb_pgn *p, const char *d, size_t from, size_t end, size_t b,
	  size_t e)
{
	size_t t = e;

	if (e == 0) {
		p->tail_open = false;
		return;
	}
	while (t > b && !blank(d[t - 1]))
		t--;
	if (t > from || !p->tail_open)
		p->tail_len = 0;
	for (size_t k = t; k < e; k++) {
		if (p->tail_len < sizeof p->tail)
			p->tail[p->tail_len] = d[k];
		p->tail_len++;
	}
	p->tail_open = e == end;
}

/* The bytes that matter in movetext outside a ';' comment: a line's end,
 * a brace comment's start and end, a rest-of-line comment's start. (A '}'
 * outside a comment ends a token, as a blank does.) */
static const bool special[256] = {
	['\n'] = true, ['{'] = true, ['}'] = true, [';'] = true};

static size_t
scan_moves(struct fb_pgn *p, const char *d, size_t n, size_t i)
{
	/* d[tb..te): the last run of text with a token (see note_tail). */
	size_t from = i, tb = 0, te = 0;

	while (i < n) {
		if (p->sub == M_START) {
			char c = d[i];
			/* A byte-order mark at a line's start is a blank:
			 * files joined by cat keep theirs. */
			if (blank(c) || (unsigned char)c == bom[0] ||
			    (unsigned char)c == bom[1] ||
			    (unsigned char)c == bom[2]) {
				i++;
			} else if (c == '\n') {
				i++;
				p->line++;
			} else if (c == '[') {
				emit_kept(p, d + from, i - from);
				note_tail(p, d, from, i, tb, te);
				end_game(p);
				start_game(p);
				return i;
			} else if (c == '%') {
				p->sub = M_EOL;
				i++;
			} else {
				p->sub = M_TEXT;
			}
		} else if (p->sub == M_EOL) {
			const char *q = memchr(d + i, '\n', n - i);
			if (q == NULL) {
				i = n;
				break;
			}
			i = (size_t)(q - d) + 1;
			p->line++;
			p->sub = M_START;
		} else {
			size_t s = i;
			char c;
			i = find_stop((const unsigned char *)d, n, i, special,
				      '\n', '{', '}', ';');
			if (p->sub == M_TEXT) {
				size_t e = i;
				while (e > s && blank(d[e - 1]))
					e--;
				if (e > s)
					tb = s, te = e;
			}
			if (i == n)
				break;
			c = d[i++];
			if (c == '\n')
				p->line++;
			if (p->sub == M_BRACE) {
				if (c == '}')
					p->sub = M_TEXT;
			} else if (c == '\n') {
				p->sub = M_START;
			} else if (c == '{') {
				p->comment_line = p->line;
				p->sub = M_BRACE;
			} else if (c == ';') {
				p->sub = M_EOL;
			}
		}
	}
	emit_kept(p, d + from, i - from);
	note_tail(p, d, from, n, tb, te);
	return i;
}

/* ---- detection and the driver ---- */

static bool
number(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

enum fb_pgn_format
fb_pgn_detect(const char *s, size_t n)
{
	size_t i = 0, e, fields = 0, f5 = 0, f5len = 0, f6 = 0, f6len = 0;
	bool slash = false;

	if (n >= 3 && memcmp(s, bom, 3) == 0)
		i = 3;
	while (i < n && (blank(s[i]) || s[i] == '\n'))
		i++;
	if (i == n)
		return FB_PGN_FEN;
	if (strchr("[{;%", s[i]) != NULL)
		return FB_PGN_PGN;
	e = line_end(s, n, i);
	e = i + content_len(s + i, e - i);
	for (size_t k = i; k < e;) {
		size_t b;
		while (k < e && blank(s[k]))
			k++;
		if (k == e)
			break;
		b = k;
		for (; k < e && !blank(s[k]); k++)
			slash |= fields == 0 && s[k] == '/';
		fields++;
		if (fields == 5)
			f5 = b, f5len = k - b;
		if (fields == 6)
			f6 = b, f6len = k - b;
	}
	if (!slash)
		return FB_PGN_PGN;
	if (fields > 6 || (fields >= 5 && !number(s + f5, f5len)) ||
	    (fields == 6 && !number(s + f6, f6len)))
		return FB_PGN_EPD;
	return FB_PGN_FEN;
}

static void
decide(struct fb_pgn *p)
{
	char det[FB_PGN_DETECT_MAX];
	size_t n = p->ndet;

	p->format = fb_pgn_detect(p->det, n);
	p->state = p->format == FB_PGN_PGN ? S_MOVE : S_LINE;
	say(p, FB_PGN_NOTE, 0, 1, 0, "read as %s (--format=auto)",
	    p->format == FB_PGN_PGN   ? "PGN"
	    : p->format == FB_PGN_EPD ? "EPD"
				      : "FEN lines");
	memcpy(det, p->det, n);
	p->ndet = 0;
	fb_pgn_push(p, det, n);
}

/* Whether det holds content (not only a byte-order mark and blanks) and
 * the line of that content is complete. */
static bool
first_line_done(const struct fb_pgn *p)
{
	size_t j = p->ndet >= 3 && memcmp(p->det, bom, 3) == 0 ? 3 : 0;

	while (j < p->ndet && (blank(p->det[j]) || p->det[j] == '\n'))
		j++;
	return j < p->ndet && memchr(p->det + j, '\n', p->ndet - j) != NULL;
}

void
fb_pgn_push(struct fb_pgn *p, const char *d, size_t n)
{
	size_t i = 0;

	while (i < n) {
		if (p->format == FB_PGN_AUTO) {
			/* Gather the start of the input until its first line
			 * with content is complete, then decide. */
			char c = d[i++];
			p->det[p->ndet++] = c;
			if (p->ndet == sizeof p->det ||
			    (c == '\n' && first_line_done(p)))
				decide(p);
			continue;
		}
		if (!p->started) {
			/* A UTF-8 byte-order mark goes out as it is and is
			 * not content. */
			if (p->bom < 3 && (unsigned char)d[i] == bom[p->bom]) {
				emit(p, d + i++, 1);
				p->bom++;
				continue;
			}
			p->started = true;
		}
		if (p->state == S_MOVE)
			i = scan_moves(p, d, n, i);
		else if (p->state == S_TAGS)
			i = scan_tags(p, d, n, i);
		else
			i = scan_line(p, d, n, i);
	}
	/* After the loop: decide() pushes the gathered start again. */
	if (n > 0)
		p->last_nl = d[n - 1] == '\n';
}

void
fb_pgn_finish(struct fb_pgn *p)
{
	if (p->format == FB_PGN_AUTO)
		decide(p);
	/* Diagnostics name the last line, not the empty one after it. */
	if (p->last_nl && p->line > 1)
		p->line--;
	if (p->state == S_LINE) {
		if (p->len > 0 && !p->raw)
			line_done(p, p->buf, p->len);
	} else if (p->state == S_TAGS) {
		if (p->sub == T_LINE && !p->raw) /* a last line without '\n' */
			survey_line(p, p->line_start, p->len,
				    p->line - p->game_line);
		end_tags(p, p->len);
		if (p->keep)
			say(p, FB_PGN_TRUNCATED, 0, p->line, 0,
			    "the input ends in the tag section of the game "
			    "(from line %lu): no moves, no result",
			    p->game_line);
	} else {
		if (p->sub == M_BRACE && p->keep)
			say(p, FB_PGN_TRUNCATED, 0, p->line, 0,
			    "the comment opened on line %lu is not closed at "
			    "the end of the input",
			    p->comment_line);
		end_game(p);
	}
	p->len = 0;
}
