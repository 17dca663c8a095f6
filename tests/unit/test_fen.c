#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "fenbridge/fen.h"
static void t(void **s) { (void)s; struct fb_fen_style st = {0}; char out[128]; const char *in="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"; int n = fb_fen_translate(in, strlen(in), &st, out, sizeof out, NULL); assert_int_equal(n, (int)strlen(in)); }
int main(void) { const struct CMUnitTest tests[] = { cmocka_unit_test(t) }; return cmocka_run_group_tests(tests, NULL, NULL); }
