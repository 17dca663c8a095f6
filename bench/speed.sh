#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Issue 18's speed figures for one or more fenbridge binaries in one run
# (e.g. the code before a change and after it), each figure beside the
# relays measured in the same run:
#   1-5  instructions (callgrind_lines.sh: exact, start-up subtracted) per
#        engine `info` line, isready round trip, bulk `position fen` line,
#        ply of a whole Chess960 game as match runners send it (position +
#        isready; and with go), move of an XBoard GUI with a UCI engine at
#        ply 20 and at ply 300;
#   3, 6 wall clock against the poll relay: bulk FENs (400,000 lines), the
#        `info` flood (2,000,000 lines), and the CPU time per line of each
#        (the binaries taking turns REPS times, 3 by default: the medians
#        of the ratios);
#   7    peak RSS of a short run and of one 10 times as long.
#
# Usage: bench/speed.sh [--reps=N] BENCH_BRIDGE FENBRIDGE [FENBRIDGE...]
# e.g.   bench/speed.sh build-bench/bench/bench_bridge \
#            /tmp/before-build/fenbridge build-bench/fenbridge
# About a minute per binary on a 2-core machine. The full output of each
# part goes to stderr; the table at the end to stdout.
set -eu
reps=3
case ${1:-} in --reps=*) reps=${1#--reps=}; shift ;; esac
[ $# -ge 2 ] || { sed -n '3,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
here=$(dirname "$(realpath "$0")")
bench=$(realpath "$1")
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

i=0
for fb in "$@"; do
	i=$((i + 1))
	echo "== $i: $fb" >&2
	"$here/callgrind_lines.sh" "$bench" "$fb" flood rtt fens game gamego \
		xboard20 xboard300 | tee "$dir/cg.$i" >&2
	"$bench" --quick --only=mem "$fb" 2>/dev/null | grep '^memory' |
		tee "$dir/mem.$i" >&2
done
r=0
while [ "$r" -lt "$reps" ]; do
	r=$((r + 1))
	i=0
	for fb in "$@"; do
		i=$((i + 1))
		# long enough to time: 2,000,000 info lines, 400,000 FEN lines
		"$bench" --quick --reps=1 --only=flood --count=2000000 "$fb" \
			2>/dev/null | tee -a "$dir/wall.$i" | grep '^flood [(]' >&2 ||
			true
		"$bench" --quick --reps=1 --only=fens --count=400000 "$fb" \
			2>/dev/null | tee -a "$dir/wall.$i" | grep '^bulk FENs X' >&2 ||
			true
	done
done

# The table: a row per figure, a column per binary.
i=0
for fb in "$@"; do
	i=$((i + 1))
	{
		echo "binary $fb"
		cat "$dir/cg.$i"
		sed 's/^/mem /' "$dir/mem.$i"
		sed -n 's/^flood ([0-9]* info lines).* ratio \([0-9.]*\) .*/wallflood \1/p;
			s/^bulk FENs X-FEN.* ratio \([0-9.]*\) .*/wallfens \1/p' "$dir/wall.$i"
		# CPU time per line, fenbridge / relay: "relay 43 ns (1.6x)"
		sed -n 's/^flood ([0-9]* info lines).* relay [0-9]* ns (\([0-9.]*\)x).*/cpuflood \1/p;
			s/^bulk FENs X-FEN.* relay [0-9]* ns (\([0-9.]*\)x).*/cpufens \1/p' "$dir/wall.$i"
	} >"$dir/all.$i"
done
awk -v n="$#" '
function med(s,  a, k, i, j, t) {
	k = split(s, a, " ")
	for (i = 1; i <= k; i++)
		for (j = i + 1; j <= k; j++)
			if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	if (k == 0) return "-"
	return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
function num(line, pat,  m) {
	if (match(line, pat)) {
		m = substr(line, RSTART, RLENGTH)
		sub(/^[^0-9]*/, "", m)
		return m + 0
	}
	return ""
}
FNR == 1 { col++ }
$1 == "binary" { name[col] = $2; next }
$1 == "wallflood" { wf[col] = wf[col] " " $2; next }
$1 == "wallfens" { wn[col] = wn[col] " " $2; next }
$1 == "cpuflood" { cf[col] = cf[col] " " $2; next }
$1 == "cpufens" { cn[col] = cn[col] " " $2; next }
$1 == "mem" {
	g = num($0, "growth [+-]?[0-9]+"); if ($0 ~ /growth -/) g = -g
	what = $0; sub(/^mem memory, /, "", what); sub(/:.*/, "", what)
	gsub(/[0-9]+ /, "", what)
	mem[col] = mem[col] (mem[col] == "" ? "" : ", ") sprintf("%+d", g)
	next
}
{
	mode = $1; sub(/:$/, "", mode)
	f[mode, col] = num($0, "fenbridge [0-9.]+")
	lr[mode, col] = num($0, "line relay [0-9.]+")
	rl[mode, col] = num($0, "; relay [0-9.]+")
}
END {
	for (c = 1; c <= n; c++) printf "%d: %s\n", c, name[c]
	row("binary")
	for (c = 1; c <= n; c++) cell[c] = c; put()
	line("info line, instructions (target <= 200)", "flood", "f")
	line("isready round trip, instructions", "rtt", "f")
	line("bulk position fen line, instructions", "fens", "f")
	for (c = 1; c <= n; c++) cell[c] = sprintf("%.2fx", med(wn[c]))
	row("bulk FENs, wall clock / relay (target >= 0.5x)"); put()
	for (c = 1; c <= n; c++) cell[c] = sprintf("%.1fx", med(cn[c]))
	row("  CPU time per line, fenbridge / relay"); put()
	line("game ply (position+isready), instructions", "game", "f")
	line("  the same, line relay", "game", "lr")
	ratio("  fenbridge / line relay (target <= 1.5x)", "game", "game", 1)
	line("game ply (+ go, bestmove), instructions", "gamego", "f")
	ratio("  fenbridge / line relay", "gamego", "gamego", 1)
	line("XBoard+UCI move at ply 20, instructions", "xboard20", "f")
	line("XBoard+UCI move at ply 300, instructions", "xboard300", "f")
	ratio("  ply 300 / ply 20 (target: flat, 1.0x)", "xboard300",
	      "xboard20", 0)
	for (c = 1; c <= n; c++) cell[c] = sprintf("%.2fx", med(wf[c]))
	row("info flood, wall clock / relay (target >= 1.0x)"); put()
	for (c = 1; c <= n; c++) cell[c] = sprintf("%.1fx", med(cf[c]))
	row("  CPU time per line, fenbridge / relay"); put()
	for (c = 1; c <= n; c++) cell[c] = mem[c]
	row("peak RSS growth 10x, KiB: flood, fens, games, XBoard"); put()
}
function line(label, mode, which,  c) {
	for (c = 1; c <= n; c++)
		cell[c] = sprintf("%.0f", which == "f" ? f[mode, c] : lr[mode, c])
	row(label); put()
}
# fenbridge in mode a over the line relay (lrel) or fenbridge in mode b
function ratio(label, a, b, lrel,  c) {
	for (c = 1; c <= n; c++)
		cell[c] = sprintf("%.2fx", f[a, c] / (lrel ? lr[b, c] : f[b, c]))
	row(label); put()
}
function row(label) { printf "%-52s", label }
function put(  c) {
	for (c = 1; c <= n; c++) printf " | %-14s", cell[c]
	printf "\n"
}
' "$dir"/all.*
