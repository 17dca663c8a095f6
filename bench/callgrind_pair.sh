#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Instructions the XBoard-GUI / UCI-engine pair spends per move (a GUI move
# and the engine's answer) at ply 20 and at ply 300 of a scripted game, and
# per engine `info` line, under callgrind (bench/bench_xboard_uci.c: the
# filter driven through its API, only the measured calls counted). Also per
# move: the same without legal-move generation (whose cost depends on the
# position, not on the game's length), and the generations made. A flat
# cost per move shows the engine is kept in sync incrementally, not
# replayed from the start.
#
# Usage: bench/callgrind_pair.sh BENCH_XBOARD_UCI
#   e.g. bench/callgrind_pair.sh build-rel/bench/bench_xboard_uci
set -eu
bench=$1
window=5
plies=320
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# run FUNC ARGS...: callgrind counting only inside FUNC, into $dir/cg.
run() {
	f=$1
	shift
	valgrind --tool=callgrind --callgrind-out-file="$dir/cg" \
		--toggle-collect="$f" "$bench" "$@" >/dev/null 2>"$dir/err" ||
		{ cat "$dir/err" >&2; exit 1; }
}

total() {
	sed -n 's/^totals: //p' "$dir/cg" | awk '{ print $1 }'
}

# The inclusive cost of fb_moves_legal in the measured calls, and the
# generations of the whole game: calls of fb_moves_legal, fb_moves_end and
# fb_moves_is_legal (one each) from outside them on the arcs callgrind
# dumps, those of the measured calls (it counts their calls over the whole
# run; the driver's own calls are never measured, so not dumped).
movegen() {
	callgrind_annotate --inclusive=yes "$dir/cg" 2>/dev/null |
		awk '/:fb_moves_legal / { gsub(",", "", $1); print $1; exit }
		     END { }' | sed 's/^$/0/'
}
calls() {
	awk 'function idof(s) { sub(/^c?fn=/, "", s); sub(/\).*/, ")", s)
				return s }
	     /^c?fn=\(/ { id = idof($1); if (NF > 1) name[id] = $2 }
	     /^fn=/ { caller = id }
	     /^cfn=/ { callee = id; next }
	     /^calls=/ { if (gen(name[callee]) && !gen(name[caller])) {
			       split($1, c, "="); n += c[2] } }
	     { callee = "" }
	     function gen(f) { return f == "fb_moves_legal" ||
			       f == "fb_moves_end" || f == "fb_moves_is_legal" }
	     END { print n + 0 }' "$dir/cg"
}
for mode in "" "--ponder" "--frc" "--frc --toga"; do
	name=${mode:-normal}
	for ply in 20 300; do
		# shellcheck disable=SC2086 # mode is words
		run measured_cycle $mode --plies $plies --at "$ply" \
			--window $window
		t=$(total)
		g=$(movegen)
		c=$(calls)
		awk -v t="$t" -v g="${g:-0}" -v c="$c" -v w=$window \
			-v n=$plies -v m="$name" -v p="$ply" 'BEGIN {
			printf "%-12s ply %3d: %7.0f per move, %6.0f without " \
			       "move generation (%.1f generations per move)\n",
			       m, p, t / w, (t - g) / w, c / (n / 2) }'
	done
done
n=20000
run measured_info --info $n
awk -v t="$(total)" -v n=$n 'BEGIN {
	printf "info line: %.0f instructions per line\n", t / n }'
