/* SPDX-License-Identifier: MIT */
/* NOT WRITTEN YET: issue 12. */
#include "proto.h"

static void *
stub_new(const struct fb_filter_options *opt)
{
	(void)opt;
	return NULL;
}

static void
stub_free(void *state)
{
	(void)state;
}

const struct fb_pair fb_pair_xboard_uci = {
	.gui = &fb_protocol_xboard,
	.engine = &fb_protocol_uci,
	.state_new = stub_new,
	.state_free = stub_free,
};
