/* SPDX-License-Identifier: MIT */
/*
 * What the config's files share (config.c, config_options.c, config_ini.c,
 * config_help.c); private to them.
 */
#ifndef FENBRIDGE_CONFIG_INT_H
#define FENBRIDGE_CONFIG_INT_H

#include <stddef.h>

#include "config.h"

/* Writes the message to err and returns FB_EINVAL. */
__attribute__((format(printf, 3, 4))) int
fb_config_bad(char *err, size_t errlen, const char *fmt, ...);

/* p, now owned by c (freed by fb_config_free), or NULL when p is NULL or
 * memory ran out (p is then freed). */
void *
fb_config_keep(struct fb_config *c, void *p);

/* A copy of s that c owns, or NULL. */
char *
fb_config_copy(struct fb_config *c, const char *s);

/* --help, --version: the setter that stops the parse (config_options.c). */
int
fb_config_set_action(void *cfg, const struct fb_option *o, const char *val,
		     const char *dir, char *err, size_t errlen);

#endif
