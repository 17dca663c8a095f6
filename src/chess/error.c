/* SPDX-License-Identifier: MIT */
/*
 * fb_strerror(): the one table of result-code texts. No I/O in this file.
 */
#include "fenbridge/error.h"

const char *
fb_strerror(int code)
{
	switch (code) {
	case FB_OK:
		return "success";
	case FB_EFIELDS:
		return "wrong number of FEN fields";
	case FB_EBYTE:
		return "byte that is not printable ASCII";
	case FB_ERANKS:
		return "wrong number of ranks";
	case FB_EWIDTH:
		return "bad rank width";
	case FB_EPIECE:
		return "unknown piece";
	case FB_EDIGITS:
		return "bad run of empty squares";
	case FB_EKINGS:
		return "not one king per colour";
	case FB_ESIDE:
		return "bad side to move";
	case FB_ECASTLING:
		return "bad castling field";
	case FB_ECONFLICT:
		return "conflicting castling rights";
	case FB_EEP:
		return "bad en-passant square";
	case FB_ECOUNTER:
		return "bad move counter";
	case FB_ENOSPC:
		return "output buffer too small";
	case FB_EINVAL:
		return "invalid argument";
	case FB_WKING:
		return "castling right dropped: king off its back rank";
	case FB_WROOK:
		return "castling right dropped: no such rook";
	default:
		return "unknown error";
	}
}
