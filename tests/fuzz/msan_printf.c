/* SPDX-License-Identifier: MIT */
/*
 * msan_printf: snprintf and vsnprintf for the MemorySanitizer fuzz build,
 * where tests/fuzz/meson.build renames the core's and the harnesses' calls
 * to these two. MSan's own vsnprintf checks none of its arguments and marks
 * everything it wrote as initialised, so uninitialised bytes given to a
 * "%.*s" came out clean: combo_values' read of bytes it never wrote (issue
 * 17 item 6, seen by valgrind) was invisible to MSan as well as to ASan.
 * Here each argument is read first in instrumented code - every byte a %s
 * conversion would read is tested (a branch on an uninitialised byte is a
 * report that names the bytes' origin), every number and pointer is
 * checked - and then libc formats.
 */
#include <sanitizer/msan_interface.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <wchar.h>

int
fz_msan_vsnprintf(char *out, size_t cap, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int
fz_msan_snprintf(char *out, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define CHECK_ARG(ap, type)                                                    \
	do {                                                                   \
		type v_ = va_arg(ap, type);                                    \
		__msan_check_mem_is_initialized(&v_, sizeof v_);               \
	} while (0)

/* The bytes printf reads of a string: up to its NUL or prec bytes (the
 * NUL too when it is reached). The loop's test of each byte is the check
 * itself (a branch on an uninitialised byte, a zero one too, is a report);
 * the range check after it covers the same bytes should the compiler turn
 * the loop into a call of libc. */
static void
check_string(const char *s, long prec)
{
	size_t n = 0;

	__msan_check_mem_is_initialized(&s, sizeof s);
	if (s == NULL)
		return;
	while ((prec < 0 || n < (size_t)prec) && s[n] != '\0')
		n++;
	__msan_check_mem_is_initialized(s, prec < 0 || n < (size_t)prec ? n + 1
									: n);
}

/* Every argument fmt takes, in order; stops at a conversion it does not
 * know (then libc still formats, the rest unchecked). */
static void
check_args(const char *fmt, va_list ap)
{
	for (const char *p = fmt; *p != '\0'; p++) {
		long prec = -1;
		int len = 0; /* 'H' hh, 'h', 'l', 'q' ll, 'j', 'z', 't', 'L' */

		if (*p != '%')
			continue;
		if (*++p == '%')
			continue;
		while (*p == '-' || *p == '+' || *p == ' ' || *p == '#' ||
		       *p == '0' || *p == '\'' || *p == 'I')
			p++;
		if (*p == '*') {
			CHECK_ARG(ap, int);
			p++;
		}
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '.') {
			p++;
			prec = 0;
			if (*p == '*') {
				int v = va_arg(ap, int);
				__msan_check_mem_is_initialized(&v, sizeof v);
				prec = v;
				p++;
			}
			while (*p >= '0' && *p <= '9')
				prec = prec * 10 + (*p++ - '0');
		}
		if ((p[0] == 'h' || p[0] == 'l') && p[1] == p[0]) {
			len = p[0] == 'h' ? 'H' : 'q';
			p += 2;
		} else if (*p == 'h' || *p == 'l' || *p == 'q' || *p == 'j' ||
			   *p == 'z' || *p == 'Z' || *p == 't' || *p == 'L') {
			len = *p == 'Z' ? 'z' : *p;
			p++;
		}
		switch (*p) {
		case 'd':
		case 'i':
		case 'o':
		case 'u':
		case 'x':
		case 'X':
			if (len == 'l')
				CHECK_ARG(ap, long);
			else if (len == 'q')
				CHECK_ARG(ap, long long);
			else if (len == 'j')
				CHECK_ARG(ap, intmax_t);
			else if (len == 'z')
				CHECK_ARG(ap, size_t);
			else if (len == 't')
				CHECK_ARG(ap, ptrdiff_t);
			else
				CHECK_ARG(ap, int);
			break;
		case 'c':
			if (len == 'l')
				CHECK_ARG(ap, wint_t);
			else
				CHECK_ARG(ap, int);
			break;
		case 'e':
		case 'E':
		case 'f':
		case 'F':
		case 'g':
		case 'G':
		case 'a':
		case 'A':
			if (len == 'L')
				CHECK_ARG(ap, long double);
			else
				CHECK_ARG(ap, double);
			break;
		case 's':
			if (len == 'l')
				return; /* wide strings: not used */
			check_string(va_arg(ap, const char *), prec);
			break;
		case 'p':
		case 'n':
			CHECK_ARG(ap, void *);
			break;
		case 'm':
			break;
		default:
			return;
		}
	}
}

int
fz_msan_vsnprintf(char *out, size_t cap, const char *fmt, va_list ap)
{
	va_list aq;

	va_copy(aq, ap);
	check_args(fmt, aq);
	va_end(aq);
	return vsnprintf(out, cap, fmt, ap);
}

int
fz_msan_snprintf(char *out, size_t cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fz_msan_vsnprintf(out, cap, fmt, ap);
	va_end(ap);
	return n;
}
