#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Instructions per line of the whole fenbridge process under callgrind
# (start-up included), for one bench_bridge measurement: a repeatable figure
# where wall-clock and CPU time vary with the machine's other load.
#
# Usage: bench/callgrind_lines.sh FENBRIDGE BENCH_BRIDGE [MODE [LINES]]
#   MODE   flood (default: the engine's info flood, castling notations
#          agree), flood960, pos or fens (bulk X-FEN -> Shredder-FEN)
#   LINES  the lines of that measurement in a --quick run (flood: 400000;
#          pos: 60000; fens: 200000): instructions are divided by it
# e.g. bench/callgrind_lines.sh build-bench/fenbridge \
#          build-bench/bench/bench_bridge flood
set -eu
fb=$(realpath "$1")
bench=$2
mode=${3:-flood}
case $mode in
flood | flood960) lines=${4:-400001} ;; # the info lines and bestmove
pos) lines=${4:-60000} ;;
fens) lines=${4:-200000} ;;
*) echo "callgrind_lines.sh: unknown mode $mode" >&2; exit 2 ;;
esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/wrap" <<WRAP
#!/bin/sh
exec valgrind --tool=callgrind --callgrind-out-file=$dir/cg.%p "$fb" "\$@"
WRAP
chmod +x "$dir/wrap"
"$bench" --quick --reps=1 --only="$mode" "$dir/wrap" >"$dir/out" 2>&1 ||
	{ cat "$dir/out" >&2; exit 1; }
total=$(cat "$dir"/cg.* | sed -n 's/^totals: //p' | awk '{ s += $1 } END { print s }')
awk -v t="$total" -v n="$lines" -v m="$mode" 'BEGIN {
	printf "%s: %d instructions for %d lines: %.1f instructions per line\n",
	       m, t, n, t / n }'
