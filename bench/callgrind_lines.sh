#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Instructions of the whole fenbridge process under callgrind, and of the
# relays beside it in the same run, per unit of a bench_bridge measurement:
# a figure that repeats from run to run (to about 0.1%: how the pipes split
# the bytes into reads varies a little), where wall-clock and CPU time vary
# with the machine's other load.
#
# Start-up subtracted: each measurement runs twice (bench_bridge --count: a
# small size U0 and a large one U1, in its own unit), and the figure is
# (I(U1) - I(U0)) / (U1 - U0): start-up, handshake and the end are the same
# in both runs and cancel out.
#
# Usage: bench/callgrind_lines.sh BENCH_BRIDGE FENBRIDGE [MODE...]
#   MODE (default: flood rtt fens game gamego xboard20 xboard300):
#     flood      per engine `info` line (castling notations agree)
#     flood960   per `info` line, GUI in Chess960, engine not (pv parsed)
#     rtt        per isready -> readyok round trip
#     pos        per `position fen ... moves` line (games resent, ...)
#     fens       per bulk `position fen` line (different Chess960 FENs,
#                X-FEN -> Shredder-FEN)
#     game       per ply of a whole game as match runners send it: a
#                growing `position fen START moves ...` and `isready`
#     gamego     the same with `go` (the engine's bestmove) each ply
#     xboard20   per move (2 plies: the GUI's and the engine's) of an
#                XBoard GUI with a UCI engine (--engine-protocol=uci),
#                plies 10 to 30 of each game; xboard300: plies 290 to 310
# BENCH_GAMES=FILE: the games of game, gamego and xboard (bench_bridge
# --games; e.g. the default file cut to 50 plies a game).
# e.g. bench/callgrind_lines.sh build-bench/bench/bench_bridge \
#          build-bench/fenbridge flood game
# Each line: MODE, the unit, instructions per unit for fenbridge and each
# relay of that measurement, and fenbridge's ratio to each.
set -eu
[ $# -ge 2 ] || { sed -n '3,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
bench=$(realpath "$1")
fb=$(realpath "$2")
shift 2
[ $# -gt 0 ] || set -- flood rtt fens game gamego xboard20 xboard300
command -v valgrind >/dev/null || { echo "callgrind_lines.sh: no valgrind" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/wrap" <<'WRAP'
#!/bin/sh
exec valgrind --tool=callgrind \
	--callgrind-out-file="$CG_DIR/cg.%q{BENCH_BRIDGE_RUNNER}.%p" "$@"
WRAP
chmod +x "$dir/wrap"

# One run: only COUNT -> "UNITS fenbridge=I relay=I ..." on stdout.
run() {
	CG_DIR=$dir/run.$1.$2
	export CG_DIR
	mkdir "$CG_DIR"
	"$bench" --quick --reps=1 --only="$1" --count="$2" --wrap="$dir/wrap" \
		${BENCH_GAMES:+--games="$BENCH_GAMES"} "$fb" >"$CG_DIR/out" 2>&1 || {
		cat "$CG_DIR/out" >&2
		echo "callgrind_lines.sh: bench_bridge --only=$1 --count=$2 failed" >&2
		exit 1
	}
	printf '%s' "$(sed -n "s/^units: $1 //p" "$CG_DIR/out")"
	for t in fenbridge linerelay relay uvrelay; do
		ls "$CG_DIR"/cg."$t".* >/dev/null 2>&1 || continue
		printf ' %s=%s' "$t" "$(cat "$CG_DIR"/cg."$t".* |
			sed -n 's/^totals: //p' | awk '{ s += $1 } END { print s }')"
	done
	echo
}

# MODE ONLY U0 U1 PER UNIT-NAME: the figure line.
figure() {
	a=$(run "$2" "$3")
	b=$(run "$2" "$4")
	echo "$a" "|" "$b" | awk -v mode="$1" -v per="$5" -v unit="$6" '
	function val(s,  kv) { split(s, kv, "="); return kv[2] }
	{
		half = 1
		for (i = 1; i <= NF; i++) {
			if ($i == "|") { half = 2; continue }
			if (i == 1 || (half == 2 && $(i - 1) == "|")) {
				u[half] = $i; continue
			}
			split($i, kv, "=")
			v[half, kv[1]] = kv[2]; names[kv[1]] = 1
		}
		du = u[2] - u[1]
		if (du <= 0) { print mode ": no units counted"; exit 1 }
		fbv = (v[2, "fenbridge"] - v[1, "fenbridge"]) * per / du
		printf "%s: instructions per %s: fenbridge %.1f", mode, unit, fbv
		split("linerelay relay uvrelay", order, " ")
		label["linerelay"] = "line relay"; label["relay"] = "relay"
		label["uvrelay"] = "uv relay"
		for (k = 1; k <= 3; k++) {
			t = order[k]
			if (!(t in names)) continue
			x = (v[2, t] - v[1, t]) * per / du
			printf "; %s %.1f (fenbridge %.2fx)", label[t], x,
			       (x > 0 ? fbv / x : 0)
		}
		printf " [units %d-%d]\n", u[1], u[2]
	}'
}

for m in "$@"; do
	case $m in
	flood) figure flood flood 40000 400000 1 "info line" ;;
	flood960) figure flood960 flood960 20000 100000 1 "info line" ;;
	rtt) figure rtt rtt 200 2000 1 "round trip" ;;
	pos) figure pos pos 6000 30000 1 "position line" ;;
	fens) figure fens fens 10000 60000 1 "bulk FEN line" ;;
	game) figure game game 0 8 1 "ply" ;;
	gamego) figure gamego gamego 0 8 1 "ply" ;;
	xboard20) figure xboard20 xboard 10 30 2 "move at ply 20" ;;
	xboard300) figure xboard300 xboard 290 310 2 "move at ply 300" ;;
	*) echo "callgrind_lines.sh: unknown mode $m" >&2; exit 2 ;;
	esac
done
