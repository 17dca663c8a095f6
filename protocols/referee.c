/* SPDX-License-Identifier: MIT */
/*
 * The referee's common part: the two wires, a line's way to its protocol
 * (referee_uci.c, referee_cecp.c), the text of a finding (what, the
 * position, the moves so far, the last command) and the counts. See
 * referee.h.
 *
 * Pure code: no I/O, no allocation.
 */
#include "referee_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fenbridge/movegen.h"

static const char *const kind_name[FB_REF_NKINDS] = {
	[FB_REF_ILLEGAL] = "illegal",   [FB_REF_CASTLING] = "castling",
	[FB_REF_PROTOCOL] = "protocol", [FB_REF_FORMAT] = "format",
	[FB_REF_GUIKIND] = "gui",
};

const char *
fb_referee_kind_name(enum fb_referee_kind k)
{
	return (unsigned)k < FB_REF_NKINDS ? kind_name[k]
	       : k == FB_REF_NOTE          ? "note"
					   : "?";
}

static void
wire_reset(struct fb_ref_wire *w, enum fb_referee_proto proto)
{
	memset(w, 0, sizeof *w);
	w->proto = proto;
	fb_ref_start(w, &w->pos);
	w->prev = w->pos;
	/* Both protocols start a session in the standard start position
	 * (CECP: as if after `new`, UCI: until the first `position`). */
	w->known = proto == FB_REF_CECP;
	w->engine_side = FB_BLACK; /* CECP: the engine plays Black after new */
}

void
fb_referee_init(struct fb_referee *r, enum fb_referee_mode mode,
		fb_referee_fn report, void *ctx)
{
	memset(r, 0, sizeof *r);
	r->mode = mode;
	r->report = report;
	r->ctx = ctx;
	wire_reset(&r->wire[FB_REF_ENGINE], FB_REF_UNKNOWN);
	wire_reset(&r->wire[FB_REF_GUI], FB_REF_UNKNOWN);
}

void
fb_ref_start(const struct fb_ref_wire *w, struct fb_game *g)
{
	fb_variant_start(w->variant != NULL ? w->variant : fb_variant_normal,
			 g);
}

const struct fb_variant *
fb_ref_set_variant(struct fb_referee *r, enum fb_referee_side side,
		   const char *name, size_t n)
{
	struct fb_ref_wire *w = &r->wire[side];
	const struct fb_variant *v = fb_variant_find(name, n);

	if (v == NULL || !v->follow) {
		w->unsupported = true;
		w->known = false;
		if (r->unjudged[0] == '\0') {
			/* The table's name, or the peer's as printable text. */
			size_t k = 0;
			if (v != NULL)
				n = strlen(name = v->name);
			for (size_t i = 0; i < n && k < sizeof r->unjudged - 1;
			     i++)
				if (name[i] > ' ' && name[i] < 0x7f)
					r->unjudged[k++] = name[i];
			r->unjudged[k] = '\0';
			if (k == 0)
				snprintf(r->unjudged, sizeof r->unjudged, "?");
		}
		fb_ref_note(r, side, FB_REF_NOTE_VARIANT, NULL,
			    "the variant %s is not judged: the referee does "
			    "not follow its rules, and its moves and pvs go "
			    "unchecked until a variant it follows",
			    r->unjudged);
		return NULL;
	}
	w->unsupported = false;
	w->variant = v == fb_variant_normal ? NULL : v;
	return v;
}

/* One line on wire side, in the wire's protocol. */
static void
judge(struct fb_referee *r, enum fb_referee_side side, bool from_peer,
      const char *text, size_t len, uint64_t now)
{
	/* The GUI-to-engine way: fenbridge's lines on the engine wire, the
	 * GUI's own on the GUI wire. */
	bool command = from_peer == (side == FB_REF_GUI);

	if (r->wire[side].proto == FB_REF_UCI)
		fb_ref_uci_line(r, side, command, text, len, now);
	else if (r->wire[side].proto == FB_REF_CECP)
		fb_ref_cecp_line(r, side, command, text, len, now);
}

/* A line of a protocol not known yet: kept for fb_referee_protocol, or
 * counted as lost past the bounds (the first lines are the handshake). */
static void
hold(struct fb_ref_held *h, bool from_peer, const char *text, size_t len,
     uint64_t now)
{
	if (h->n == FB_REF_HOLD_LINES || len > FB_REF_HOLD_BYTES - h->used) {
		h->lost++;
		return;
	}
	memcpy(h->text + h->used, text, len);
	h->line[h->n].off = (uint32_t)h->used;
	h->line[h->n].len = (uint32_t)len;
	h->line[h->n].at = now;
	h->line[h->n].from_peer = from_peer;
	h->n++;
	h->used += len;
}

void
fb_referee_protocol(struct fb_referee *r, enum fb_referee_side side,
		    enum fb_referee_proto proto)
{
	struct fb_ref_held *h = &r->held[side];
	unsigned n = h->n, lost = h->lost;

	if (proto == FB_REF_UNKNOWN)
		return;
	/* Another protocol (the engine started again to speak the other
	 * one): the wire starts afresh. */
	if (proto != r->wire[side].proto)
		wire_reset(&r->wire[side], proto);
	if (n == 0 && lost == 0)
		return;
	h->n = h->lost = 0;
	h->used = 0;
	/* h->text stays as it is meanwhile: nothing is held while the
	 * protocol is known. */
	for (unsigned i = 0; i < n; i++)
		judge(r, side, h->line[i].from_peer, h->text + h->line[i].off,
		      h->line[i].len, h->line[i].at);
	if (lost > 0)
		fb_ref_note(r, side, FB_REF_NOTE_HELD, NULL,
			    "%u lines on the %s wire before its protocol was "
			    "known went unjudged (more than %d lines or %d "
			    "bytes)",
			    lost, side == FB_REF_ENGINE ? "engine" : "GUI",
			    FB_REF_HOLD_LINES, FB_REF_HOLD_BYTES);
}

void
fb_referee_line(struct fb_referee *r, enum fb_referee_side side, bool from_peer,
		enum fb_referee_proto proto, const char *text, size_t len,
		uint64_t now)
{
	if (proto == FB_REF_UNKNOWN) {
		hold(&r->held[side], from_peer, text, len, now);
		return;
	}
	fb_referee_protocol(r, side, proto);
	judge(r, side, from_peer, text, len, now);
}

static const char *
wait_name(const struct fb_ref_wire *w, const struct fb_ref_wait *t)
{
	return t->id != 0 || w->proto == FB_REF_CECP ? "ping" : "isready";
}

/* An answer owed on the engine wire that is judged by the clock: the
 * engine was free to answer at once, has not quit, was not told yet. */
static bool
timed(const struct fb_ref_wire *w, const struct fb_ref_wait *t)
{
	return t->judged && !t->said && !w->quit;
}

void
fb_referee_finish(struct fb_referee *r, uint64_t now)
{
	struct fb_ref_wire *w = &r->wire[FB_REF_ENGINE];

	for (unsigned i = 0; i < w->nwait; i++)
		if (timed(w, &w->wait[i]) &&
		    now - w->wait[i].at > FB_REF_LATE_MS) {
			fb_ref_find(r, FB_REF_ENGINE, FB_REF_PROTOCOL, NULL,
				    "%s never answered (asked %llu ms before "
				    "the end)",
				    wait_name(w, &w->wait[i]),
				    (unsigned long long)(now - w->wait[i].at));
			break;
		}
	w->nwait = 0;
	r->wire[FB_REF_GUI].nwait = 0;
}

uint64_t
fb_referee_next_deadline(const struct fb_referee *r)
{
	const struct fb_ref_wire *w = &r->wire[FB_REF_ENGINE];

	/* Answers come in order: the oldest timed one is the first due. */
	for (unsigned i = 0; i < w->nwait; i++)
		if (timed(w, &w->wait[i]))
			return w->wait[i].at + FB_REF_LATE_MS + 1;
	return 0;
}

void
fb_referee_tick(struct fb_referee *r, uint64_t now)
{
	struct fb_ref_wire *w = &r->wire[FB_REF_ENGINE];

	for (unsigned i = 0; i < w->nwait; i++) {
		struct fb_ref_wait *t = &w->wait[i];
		if (!timed(w, t) || now - t->at <= FB_REF_LATE_MS)
			continue;
		/* One finding for the wait and those queued behind it: an
		 * engine that hangs owes them all. */
		for (unsigned j = i; j < w->nwait; j++)
			w->wait[j].said = true;
		fb_ref_find(r, FB_REF_ENGINE, FB_REF_PROTOCOL, NULL,
			    "%s not answered after %llu ms (more than %d s; "
			    "still waiting)",
			    wait_name(w, t), (unsigned long long)(now - t->at),
			    FB_REF_LATE_MS / 1000);
		return;
	}
}

unsigned
fb_referee_total(const struct fb_referee *r)
{
	unsigned n = 0;

	for (int k = 0; k < FB_REF_NKINDS; k++)
		n += r->count[k];
	return n;
}

void
fb_referee_summary(const struct fb_referee *r, char *out, size_t cap)
{
	size_t n = 0;

	/* "0 findings" after a variant not judged would read as judged and
	 * clean. */
	if (fb_referee_total(r) == 0 && r->unjudged[0] != '\0') {
		snprintf(out, cap, "not judged: the variant %s", r->unjudged);
		return;
	}
	n = (size_t)snprintf(out, cap, "%u finding%s (", fb_referee_total(r),
			     fb_referee_total(r) == 1 ? "" : "s");
	for (int k = 0; k < FB_REF_NKINDS && n < cap; k++)
		n += (size_t)snprintf(out + n, cap - n, "%s%s %u",
				      k > 0 ? ", " : "", kind_name[k],
				      r->count[k]);
	if (n < cap)
		n += (size_t)snprintf(out + n, cap - n, ")");
	if (n < cap && r->unjudged[0] != '\0')
		snprintf(out + n, cap - n, "; not judged: the variant %s",
			 r->unjudged);
}

/* A finding or a note of kind: "kind: " what, then with g the position g,
 * the moves so far and the last command; to the callback, counted when a
 * finding. */
__attribute__((format(printf, 5, 0))) static void
say(struct fb_referee *r, enum fb_referee_side side, enum fb_referee_kind kind,
    const struct fb_game *g, const char *fmt, va_list ap)
{
	const struct fb_ref_wire *w = &r->wire[side];
	struct fb_fen_style style = {.notation = w->chess960 ? FB_SHREDDER
							     : FB_XFEN};
	char text[FB_REF_MOVES_MAX + 1024], fen[FB_GAME_FEN_MAX];
	const char *moves = w->moves;
	size_t n;
	int k = 0;

	n = (size_t)snprintf(text, sizeof text,
			     "%s: ", fb_referee_kind_name(kind));
	n += (size_t)vsnprintf(text + n, sizeof text - n, fmt, ap);
	if (g != NULL)
		k = fb_game_print_fen(g, &style, fen, sizeof fen);
	if (g != NULL && n < sizeof text)
		snprintf(text + n, sizeof text - n,
			 ", position %.*s, moves %s%s, last sent %s%s%s",
			 k > 0 ? k : 1, k > 0 ? fen : "?",
			 w->nmoves > 0 ? "" : "(none)", moves,
			 w->last[0] != '\0' ? "'" : "(none)", w->last,
			 w->last[0] != '\0' ? "'" : "");
	/* One line whatever the peer wrote: its control bytes (a line holds
	 * no CR or LF from the framer, but a caller may split otherwise)
	 * become blanks. */
	for (char *c = text; *c != '\0'; c++)
		if ((unsigned char)*c < ' ' || *c == 0x7f)
			*c = ' ';
	if (kind < FB_REF_NKINDS)
		r->count[kind]++;
	if (r->report != NULL)
		r->report(r->ctx, kind, text,
			  kind >= FB_REF_NKINDS || r->count[kind] == 1);
}

void
fb_ref_find(struct fb_referee *r, enum fb_referee_side side,
	    enum fb_referee_kind kind, const struct fb_game *g, const char *fmt,
	    ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(r, side, kind, g != NULL ? g : &r->wire[side].pos, fmt, ap);
	va_end(ap);
}

void
fb_ref_note(struct fb_referee *r, enum fb_referee_side side, unsigned note,
	    const struct fb_game *g, const char *fmt, ...)
{
	va_list ap;

	if (r->noted & note)
		return;
	r->noted |= note;
	va_start(ap, fmt);
	say(r, side, FB_REF_NOTE, g, fmt, ap);
	va_end(ap);
}

/* One step of the key: word w mixed into h (a multiply and a rotation,
 * 8 bytes at a time: a key is taken for every move the referee plays). */
static uint64_t
mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

uint64_t
fb_ref_key(const struct fb_game *g)
{
	const unsigned char *b = (const unsigned char *)g->board;
	uint64_t h = 14695981039346656037ull, w;
	size_t i;

	for (i = 0; i + 8 <= sizeof g->board; i += 8) {
		memcpy(&w, b + i, 8);
		h = mix(h, w);
	}
	for (w = 0; i < sizeof g->board; i++)
		w = w << 8 | b[i];
	h = mix(h, w);
	h = mix(h, (uint64_t)(unsigned)g->side << 32 |
			   (unsigned)(g->castle[0][0] + 1) << 24 |
			   (unsigned)(g->castle[0][1] + 1) << 16 |
			   (unsigned)(g->castle[1][0] + 1) << 8 |
			   (unsigned)(g->castle[1][1] + 1));
	return h;
}

static void
hist_push(struct fb_ref_hist *h, const struct fb_game *g)
{
	if (g->halfmove == 0) {
		h->n = 0;
		h->complete = true;
	}
	if (h->n == FB_REF_HIST) {
		memmove(h->key, h->key + 1,
			(FB_REF_HIST - 1) * sizeof h->key[0]);
		h->n--;
		h->complete = false;
	}
	h->key[h->n++] = fb_ref_key(g);
}

void
fb_ref_hist_pop(struct fb_ref_wire *w)
{
	char *sp;

	if (w->hist.n > 1)
		w->hist.n--;
	else
		w->hist.complete = false;
	sp = w->nmoves > 0 ? strrchr(w->moves, ' ') : NULL;
	w->nmoves = sp != NULL ? (size_t)(sp - w->moves) : 0;
	w->moves[w->nmoves] = '\0';
}

unsigned
fb_ref_repetitions(const struct fb_ref_wire *w)
{
	uint64_t k = fb_ref_key(&w->pos);
	unsigned n = 0;

	if (!w->hist.complete)
		return 0;
	for (unsigned i = 0; i < w->hist.n; i++)
		n += w->hist.key[i] == k;
	return n;
}

int
fb_ref_material(const struct fb_game *g)
{
	unsigned minors = 0, knights = 0, bishop_colours = 0;

	for (int r = 0; r < FB_FEN_RANKS; r++)
		for (unsigned f = 0; f < g->width; f++) {
			char c = g->board[r][f];
			switch (c) {
			case 0:
			case 'K':
			case 'k':
				break;
			case 'N':
			case 'n':
				minors++, knights++;
				break;
			case 'B':
			case 'b':
				minors++;
				bishop_colours |= 1u << ((r + (int)f) % 2);
				break;
			default:
				return -1;
			}
		}
	return minors <= 1 || (knights == 0 && bishop_colours != 3) ? 1 : 0;
}

void
fb_ref_pvline_start(struct fb_ref_pvline *l, const struct fb_ref_hist *hist)
{
	l->hist = hist;
	l->n = 0;
	l->full = false;
}

void
fb_ref_pvline_add(struct fb_ref_pvline *l, const struct fb_game *g, uint64_t k)
{
	if (g->halfmove == 0) { /* nothing before it can come again */
		l->hist = NULL;
		l->n = 0;
	}
	if (l->full || l->n == FB_REF_PV_KEYS) {
		l->full = true;
		return;
	}
	l->key[l->n++] = k;
}

/* How often the pv's last position stands in the game and the pv, itself
 * included; 0 when not counted. */
static unsigned
pvline_reps(const struct fb_ref_pvline *l)
{
	unsigned reps = 1;
	uint64_t k;

	if (l == NULL || l->full || l->n == 0)
		return 0;
	k = l->key[l->n - 1];
	for (unsigned i = 0; i + 1 < l->n; i++)
		reps += l->key[i] == k;
	for (unsigned i = 0; l->hist != NULL && i < l->hist->n; i++)
		reps += l->hist->key[i] == k;
	return reps;
}

const char *
fb_ref_drawn(const struct fb_game *root, const struct fb_game *g, unsigned ply,
	     const struct fb_ref_pvline *l)
{
	if (ply == 0)
		return NULL;
	if (g->halfmove >= 100 && root->halfmove < 100)
		return "the 50-move rule";
	if (g->halfmove == 0 && fb_ref_material(g) == 1)
		return "dead material";
	if (pvline_reps(l) >= 3)
		return "threefold repetition";
	return NULL;
}

void
fb_ref_set_pos(struct fb_ref_wire *w, const struct fb_game *base)
{
	struct fb_game pos = *base;
	const struct fb_game *g = &pos;

	/* The variant's castling and promotion rules (Janus, Embassy). */
	fb_variant_apply(w->variant, &pos);
	w->hist.n = 0;
	w->hist.complete = false;
	hist_push(&w->hist, g);
	/* A base with its clock at 0 may follow moves not seen, but none
	 * that repeats it or what comes after (the move before it was
	 * irreversible); the peer was told no more either. */
	w->hist.complete = g->halfmove == 0;
	w->pos = *g;
	w->prev = *g;
	w->nrecent = 0;
	w->known = true;
	w->nmoves = 0;
	w->moves[0] = '\0';
}

void
fb_ref_add_move(struct fb_ref_wire *w, const char *text, size_t n)
{
	size_t need = n + (w->nmoves > 0);

	hist_push(&w->hist, &w->pos);
	if (need >= sizeof w->moves)
		return;
	if (w->nmoves + need >= sizeof w->moves) {
		/* Keep the newest half: the last moves say most. */
		size_t drop = w->nmoves / 2;
		const char *sp = memchr(w->moves + drop, ' ', w->nmoves - drop);
		drop = sp != NULL ? (size_t)(sp - w->moves) : w->nmoves;
		memcpy(w->moves, "...", 3);
		memmove(w->moves + 3, w->moves + drop, w->nmoves - drop);
		w->nmoves = w->nmoves - drop + 3;
	}
	if (w->nmoves > 0)
		w->moves[w->nmoves++] = ' ';
	memcpy(w->moves + w->nmoves, text, n);
	w->nmoves += n;
	w->moves[w->nmoves] = '\0';
}

void
fb_ref_set_last(struct fb_ref_wire *w, const char *text, size_t len)
{
	size_t n = len < sizeof w->last - 1 ? len : sizeof w->last - 1;

	/* As it came: a finding makes its control bytes blanks (say). */
	memcpy(w->last, text, n);
	w->last[n] = '\0';
}

bool
fb_ref_legal(const struct fb_game *g, const char *text, size_t n, bool san,
	     struct fb_move *m)
{
	if (san)
		return fb_moves_parse(g, text, n, m) == 0;
	return fb_game_parse_move(g, text, n, m) == 0 && !m->null &&
	       fb_moves_is_legal(g, m);
}

bool
fb_ref_wrong_castle(const struct fb_game *g, const struct fb_move *m,
		    const char *text, size_t n, enum fb_castle_notation want)
{
	char kxr[16], king[16];
	int a, b;
	int wing;

	if (m->castle < 0 || fb_game_parse_oo(text, n, &wing))
		return false;
	a = fb_game_print_castle(g, m, FB_CASTLE_KXR, kxr, sizeof kxr);
	b = fb_game_print_castle(g, m, FB_CASTLE_KING, king, sizeof king);
	if (a <= 0 || b <= 0 || (a == b && memcmp(kxr, king, (size_t)a) == 0))
		return false; /* one notation only: nothing to choose */
	if (want == FB_CASTLE_KXR)
		return (size_t)b == n && memcmp(text, king, n) == 0;
	return (size_t)a == n && memcmp(text, kxr, n) == 0;
}

void
fb_ref_wait_push(struct fb_ref_wire *w, long long id, uint64_t now, bool judged)
{
	if (w->nwait == FB_REF_PINGS) {
		memmove(w->wait, w->wait + 1,
			(FB_REF_PINGS - 1) * sizeof w->wait[0]);
		w->nwait--;
	}
	w->wait[w->nwait++] = (struct fb_ref_wait){id, now, judged, false};
}

bool
fb_ref_wait_answer(struct fb_referee *r, enum fb_referee_side side,
		   long long id, uint64_t now, const char *what)
{
	struct fb_ref_wire *w = &r->wire[side];
	unsigned i;

	for (i = 0; i < w->nwait && w->wait[i].id != id; i++)
		;
	if (i == w->nwait)
		return false;
	if (i == w->nwait - 1)
		w->busy = false; /* whatever was asked before is done */
	/* Judged on the engine wire only: the GUI wire sees the same
	 * answer, later by a relay's hop. */
	if (side == FB_REF_ENGINE && w->wait[i].judged && !w->wait[i].said &&
	    now - w->wait[i].at > FB_REF_LATE_MS)
		fb_ref_find(r, side, FB_REF_PROTOCOL, NULL,
			    "%s came %llu ms after it was asked (more than "
			    "%d s)",
			    what, (unsigned long long)(now - w->wait[i].at),
			    FB_REF_LATE_MS / 1000);
	/* Answers come in order: older ones are not coming any more. */
	memmove(w->wait, w->wait + i + 1,
		(w->nwait - i - 1) * sizeof w->wait[0]);
	w->nwait -= i + 1;
	return true;
}
