/* SPDX-License-Identifier: MIT */
/*
 * The table of protocols: adding one is one file plus one entry here.
 */
#include <string.h>

#include "fenbridge/filter.h"

static const struct fb_protocol *const protocols[] = {
	&fb_protocol_uci,
	&fb_protocol_xboard,
};

const struct fb_protocol *
fb_protocol_find(const char *name)
{
	for (size_t i = 0; i < sizeof protocols / sizeof protocols[0]; i++)
		if (strcmp(protocols[i]->name, name) == 0)
			return protocols[i];
	if (strcmp(name, "cecp") == 0 || strcmp(name, "winboard") == 0)
		return &fb_protocol_xboard;
	return NULL;
}
