#!/usr/bin/env bash
# fenbridge developer entry point (Debian 12, as root or with sudo):
#   scripts/dev.sh demo   install what is missing, build, run fenbridge -- stockfish
#   scripts/dev.sh test   install what is missing, build with -Werror, run every suite
#   scripts/dev.sh deps   only install what is missing
set -euo pipefail
cd "$(dirname "$0")/.."

# Everything the build and every test suite needs, by Debian package name.
packages=(
	meson ninja-build pkg-config gcc libc6-dev libuv1-dev libcmocka-dev libinih-dev python3
	stockfish fairy-stockfish toga2 glaurung gnuchess sjaakii polyglot
)

deps() {
	local missing=()
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "dev.sh: installing ${missing[*]}" >&2
	local sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -q
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

build() { # build DIR [meson options...]
	local dir=$1
	shift
	[ -f "$dir/build.ninja" ] || meson setup "$dir" "$@" >/dev/null
	ninja -C "$dir" >/dev/null
}

case "${1:-}" in
deps)
	deps
	;;
demo)
	deps
	build build
	echo "dev.sh: starting fenbridge -- /usr/games/stockfish. Try:" >&2
	echo "  uci" >&2
	echo "  setoption name UCI_Chess960 value true" >&2
	echo "  position fen rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - 4 11" >&2
	echo "  d        (Stockfish's Fen: line shows what it read)" >&2
	echo "  quit" >&2
	exec ./build/fenbridge --log=fenbridge.log -- /usr/games/stockfish
	;;
test)
	deps
	build build-ci -Dwerror=true
	set +e
	meson test -C build-ci --print-errorlogs --num-processes 2 | tee build-ci/test-summary.txt
	rc=${PIPESTATUS[0]}
	set -e
	ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' build-ci/test-summary.txt)
	fail=$(sed -n 's/^Fail: *\([0-9]*\).*/\1/p' build-ci/test-summary.txt)
	to=$(sed -n 's/^Timeout: *\([0-9]*\).*/\1/p' build-ci/test-summary.txt)
	skip=$(sed -n 's/^Skipped: *\([0-9]*\).*/\1/p' build-ci/test-summary.txt)
	echo "tests: ${ok:-0} passed, $((${fail:-0} + ${to:-0})) failed, ${skip:-0} skipped"
	exit "$rc"
	;;
*)
	echo "usage: scripts/dev.sh demo|test|deps" >&2
	exit 2
	;;
esac
