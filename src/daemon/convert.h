/* SPDX-License-Identifier: MIT */
#ifndef FB_CONVERT_H
#define FB_CONVERT_H

/*
 * `fenbridge convert`: argv[0] is "convert". Converts FENs from the arguments
 * or standard input and returns the exit status: 0 all clean, 1 any line had
 * a diagnostic, 2 usage error.
 */
int
fb_convert_main(int argc, char **argv);

#endif
