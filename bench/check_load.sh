#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench/check_load.sh [FENBRIDGE]: is `fenbridge check` the same on a busy
# machine (issue 26.2)? Runs it for each Debian engine in /usr/games
# (stockfish, toga2, glaurung, fairy-stockfish and GNU Chess and Sjaak II
# in both protocols, fairymax) on the machine as it is, then again at
# `nice -n 19` beside HOGS (default 4) CPU-bound processes, and prints per
# engine the findings count and the [fenbridge] INI lines of both runs side
# by side, with SAME or DIFF, and each run's seconds. Exit 0 when every
# row is SAME, 1 otherwise. Each run's report is kept in OUT (default a
# temporary directory, named at the end) as NAME.idle / NAME.loaded.
#
# A benchmark, not a test: it takes minutes (about 2 idle), and what it
# measures is the machine as well as fenbridge.
set -u

FB=${1:-build/fenbridge}
HOGS=${HOGS:-4}
OUT=${OUT:-$(mktemp -d /tmp/check_load.XXXXXX)}
G=/usr/games
hogs=""

stop_hogs() {
	for p in $hogs; do
		kill "$p" 2>/dev/null
	done
	for p in $hogs; do
		wait "$p" 2>/dev/null
	done
	hogs=""
}
trap stop_hogs EXIT
trap 'stop_hogs; exit 130' INT TERM

# NAME|ARGS (the engine's executable last; Sjaak II without MALLOC_PERTURB_,
# under most values of which it never answers uci).
engines() {
	cat <<EOF
stockfish|-- $G/stockfish
toga2|-- $G/toga2
glaurung|-- $G/glaurung
fairy-stockfish uci|--protocol=uci -- $G/fairy-stockfish
fairy-stockfish xboard|--protocol=xboard -- $G/fairy-stockfish
gnuchess auto|-- $G/gnuchess
gnuchess xboard|--protocol=xboard -- $G/gnuchess
sjaakii uci|--protocol=uci -- env -u MALLOC_PERTURB_ $G/sjaakii
sjaakii xboard|--protocol=xboard -- env -u MALLOC_PERTURB_ $G/sjaakii
fairymax|-- $G/fairymax
EOF
}

# The summary of a report: "N findings: INI line; INI line; ...".
summary() {
	n=$(sed -n 's/^findings: //p' "$1")
	ini=$(sed -n '/^\[fenbridge\]$/,$p' "$1" | sed 1d | paste -sd ';' -)
	printf '%s findings: %s' "${n:-?}" "$ini"
}

# Runs every engine; $1: idle or loaded.
run_all() {
	engines | while IFS='|' read -r name args; do
		exe=${args##* }
		[ -x "$exe" ] || continue
		f=$OUT/$(printf '%s' "$name" | tr ' ' _).$1
		t0=$(date +%s.%N)
		if [ "$1" = loaded ]; then
			# shellcheck disable=SC2086
			nice -n 19 "$FB" check $args >"$f" 2>/dev/null
		else
			# shellcheck disable=SC2086
			"$FB" check $args >"$f" 2>/dev/null
		fi
		t1=$(date +%s.%N)
		echo "$t0 $t1" | awk '{printf "%.1f\n", $2 - $1}' >"$f.s"
	done
}

[ -x "$FB" ] || {
	echo "check_load.sh: no fenbridge at $FB" >&2
	exit 2
}
echo "idle run..." >&2
run_all idle
echo "loaded run: nice -n 19 beside $HOGS CPU-bound processes..." >&2
i=0
while [ "$i" -lt "$HOGS" ]; do
	sh -c 'while :; do :; done' &
	hogs="$hogs $!"
	i=$((i + 1))
done
run_all loaded
stop_hogs

diffs=0
printf '%-23s %-5s %7s %7s  %s\n' engine same idle_s load_s \
	"idle | loaded (findings: INI lines)"
for f in "$OUT"/*.idle; do
	name=$(basename "$f" .idle)
	a=$(summary "$f")
	b=$(summary "$OUT/$name.loaded")
	if [ "$a" = "$b" ]; then
		same=SAME
	else
		same=DIFF
		diffs=$((diffs + 1))
	fi
	printf '%-23s %-5s %7s %7s  %s | %s\n' "$name" "$same" \
		"$(cat "$f.s")" "$(cat "$OUT/$name.loaded.s")" "$a" "$b"
done
echo "reports: $OUT"
[ "$diffs" -eq 0 ]
