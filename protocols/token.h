/* SPDX-License-Identifier: MIT */
/*
 * Tokens of a protocol line, shared by the codecs (uci_codec.c,
 * cecp_codec.c) and the pairs: both protocols separate words by runs of
 * spaces and tabs. A span names bytes of the caller's line by offset, so
 * an event read from a line can be spliced back into it byte for byte.
 *
 * Inline: these run for every token of every line. No I/O.
 */
#ifndef FB_TOKEN_H
#define FB_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes text[off..off+len) of the line an event was read from; len 0 when
 * the field is absent. */
struct fb_span {
	size_t off, len;
};

static inline bool
fb_token_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Finds the next token at or after *pos in text[0..len): returns its length
 * (0 at the end) and sets *start; *pos moves past it.
 */
static inline size_t
fb_proto_token(const char *text, size_t len, size_t *pos, size_t *start)
{
	size_t i = *pos;

	while (i < len && fb_token_blank(text[i]))
		i++;
	*start = i;
	while (i < len && !fb_token_blank(text[i]))
		i++;
	*pos = i;
	return i - *start;
}

/*
 * fb_proto_token for what is read by the thousand (an engine's info lines,
 * a match runner's position lines and their moves): the token's end is
 * looked for eight bytes at a time where the line has eight more (a blank
 * is a zero byte of the word XOR "        " or "\t\t\t\t\t\t\t\t"; the
 * lowest such byte is the first blank). Same contract.
 */
static inline size_t
fb_token_next(const char *text, size_t len, size_t *pos, size_t *start)
{
	size_t i = *pos;

	while (i < len && fb_token_blank(text[i]))
		i++;
	*start = i;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (len - i >= 8) {
		const uint64_t ones = 0x0101010101010101u, high = ones * 0x80;
		uint64_t w, sp, tab, hit;
		__builtin_memcpy(&w, text + i, 8);
		sp = w ^ (ones * ' ');
		tab = w ^ (ones * '\t');
		hit = ((sp - ones) & ~sp & high) | ((tab - ones) & ~tab & high);
		if (hit != 0) {
			i += (size_t)__builtin_ctzll(hit) >> 3;
			*pos = i;
			return i - *start;
		}
		i += 8;
	}
#endif
	while (i < len && !fb_token_blank(text[i]))
		i++;
	*pos = i;
	return i - *start;
}

/* True when the token text[start..start+n) equals word. Inline, so that
 * the length of a literal word is a constant. */
static inline bool
fb_proto_is(const char *text, size_t start, size_t n, const char *word)
{
	size_t k = __builtin_strlen(word);
	return k == n && __builtin_memcmp(text + start, word, k) == 0;
}

/* True when the span s of text equals word. */
static inline bool
fb_span_is(const char *text, struct fb_span s, const char *word)
{
	return fb_proto_is(text, s.off, s.len, word);
}

/* The span from start to the last non-blank byte of text[0..len). */
static inline struct fb_span
fb_span_rest(const char *text, size_t len, size_t start)
{
	while (start < len && fb_token_blank(text[start]))
		start++;
	while (len > start && fb_token_blank(text[len - 1]))
		len--;
	return (struct fb_span){start, len - start};
}

/* The first token of the span s of text (a command's argument). */
static inline struct fb_span
fb_span_first(const char *text, struct fb_span s)
{
	size_t pos = s.off, start;
	size_t n = fb_proto_token(text, s.off + s.len, &pos, &start);

	return (struct fb_span){start, n};
}

#endif
