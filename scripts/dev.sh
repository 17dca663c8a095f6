#!/usr/bin/env bash
# fenbridge developer entry point (Debian 12, as root or with sudo):
#   scripts/dev.sh demo   install what is missing, build, run fenbridge -- stockfish
#   scripts/dev.sh quick  build with -Werror in ./build, run the unit and the
#                         fast end-to-end tests (under 3 minutes): the edit loop
#   scripts/dev.sh test   install what is missing, build with -Werror, run every
#                         suite once in stages (what only a sanitizer finds under
#                         ASan+UBSan, unit and e2e under valgrind, the fuzzers
#                         under ASan+UBSan and MSan, the Windows build's tests
#                         under Wine, the .deb); ends with each stage's seconds
#   scripts/dev.sh deps   only install what is missing
#   scripts/dev.sh windows  build fenbridge.exe and its zip with MinGW-w64 and
#                         run its unit tests and the Wine suite (scripts/windows.sh)
#   scripts/dev.sh deb    build the .deb in a copy of the tree, lintian, install
#                         it, run /usr/games/fenbridge against stockfish, remove
#                         it (scripts/deb.sh)
#   scripts/dev.sh fmt [--check] [FILE...]
#                         clang-format (.clang-format) the C files given, or
#                         those changed since main; --check changes nothing,
#                         lists the files that would change and exits 1 if any
set -euo pipefail
cd "$(dirname "$0")/.."

# Everything the build and every test suite needs, by Debian package name;
# pgn-extract is what bench/bench_pgn compares `fenbridge convert` with.
packages=(
	meson ninja-build pkg-config gcc libc6-dev libuv1-dev libcmocka-dev libinih-dev python3 valgrind
	stockfish fairy-stockfish toga2 glaurung gnuchess sjaakii polyglot fairymax pgn-extract
	xboard xvfb xfonts-base # tests/engines/xboard_gui.py: the real GUI under Xvfb (its "fixed" font)
	pychess # tests/engines/gui_recipes.py: PyChess's engine layer runs the doc's engines.json entry
	# tests/fuzz/run.sh: libFuzzer and the ASan, UBSan and MSan runtimes
	# (libclang-rt-14-dev), llvm-symbolizer (llvm), dpkg-source for the
	# MSan build's inih from source (dpkg-dev)
	clang libclang-rt-14-dev llvm dpkg-dev
	# scripts/deb.sh: dpkg-buildpackage (debhelper, build-essential,
	# fakeroot), lintian, man (man-db) for man -w
	debhelper build-essential fakeroot lintian man-db
	clang-format # scripts/dev.sh fmt
	# scripts/windows.sh (it installs them too; here so that one install
	# does it all): MinGW-w64, cmake for cmocka, Wine, zip
	gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 cmake wine wine64 zip
)

deps() {
	local missing=()
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	# tests/engines/pgn_files.py runs chessops (npm) with node; a node
	# from elsewhere (nodesource) is fine, Debian's only when none is there.
	command -v node >/dev/null && command -v npm >/dev/null ||
		missing+=(nodejs npm)
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
quick)
	# The edit-build-test loop (under 3 minutes): the -Werror build in
	# ./build, the unit tests and the end-to-end tests but for e2e-slow.
	t0=$SECONDS
	if [ -f build/build.ninja ]; then
		meson configure build -Dwerror=true >/dev/null
	fi
	build build -Dwerror=true
	meson test -C build --print-errorlogs --num-processes 2 \
		--suite unit --suite e2e --no-suite e2e-slow
	echo "quick: $((SECONDS - t0)) s"
	;;
test)
	# In stages, each suite once where once finds all it can: a -Werror
	# build runs every suite (unit, e2e, engines, and the soak); an
	# AddressSanitizer + UndefinedBehaviorSanitizer build runs what only a
	# sanitizer can find (unit, e2e, and bridge_engines: the daemon's paths
	# with real engines); valgrind memcheck runs the unit and end-to-end
	# tests; each fuzz target under ASan+UBSan and MemorySanitizer for a
	# bounded time; then the Windows build and the Debian package. A table
	# of each stage's seconds ends the run (doc/testing.md).
	t_all=$SECONDS
	passed=0 failed=0 skipped=0 status=0
	stage_rows=()
	stage_t0=0 stage_name=""
	begin() { # begin NAME: a stage starts
		stage_name=$1 stage_t0=$SECONDS
		echo "== $1" >&2
	}
	end() { # end PASSED FAILED: the stage's counts, into the totals and the table
		local ok=${1:-0} bad=${2:-0}
		passed=$((passed + ok)) failed=$((failed + bad))
		[ "$bad" -eq 0 ] || status=1
		stage_rows+=("$(printf '%-22s %6d s  %4d passed, %d failed' \
			"$stage_name" $((SECONDS - stage_t0)) "$ok" "$bad")")
	}
	mtest() { # mtest NAME DIR [meson test args...] (2 tests at once unless
		# the args say --num-processes)
		local name=$1 dir=$2 log ok fail to skip
		shift 2
		log="$dir/summary-$name.txt"
		begin "$name"
		meson test -C "$dir" --print-errorlogs --num-processes 2 "$@" | tee "$log" ||
			status=1
		ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$log")
		fail=$(sed -n 's/^Fail: *\([0-9]*\).*/\1/p' "$log")
		to=$(sed -n 's/^Timeout: *\([0-9]*\).*/\1/p' "$log")
		skip=$(sed -n 's/^Skipped: *\([0-9]*\).*/\1/p' "$log")
		skipped=$((skipped + ${skip:-0}))
		[ -n "$ok" ] || fail=$((${fail:-0} + 1)) # meson test itself failed
		end "${ok:-0}" $((${fail:-0} + ${to:-0}))
	}
	bstage() { # bstage NAME DIR [meson options...]: a build as a stage
		local name=$1
		shift
		begin "$name"
		if build "$@"; then end 0 0; else end 0 1; fi
	}
	begin deps
	deps
	end 0 0
	# Every C file as .clang-format has it (scripts/dev.sh fmt formats).
	begin fmt
	mapfile -t cfiles < <(git ls-files '*.c' '*.h' 2>/dev/null ||
		find include src protocols tests bench -name '*.[ch]')
	if "$0" fmt --check "${cfiles[@]}"; then end 1 0; else end 0 1; fi
	bstage build build-ci -Dwerror=true
	# The end-to-end tests mostly wait (for the deadlines they are about,
	# for the fake engine): 4 at once (3 under a sanitizer) fill 2 cores.
	mtest unit+e2e build-ci --suite unit --suite e2e --num-processes 4
	# Each real-engine suite runs here, once (tests/engines/meson.build).
	mtest engines build-ci --suite engines
	mtest soak build-ci --setup=soak --suite soak
	bstage build-asan build-asan -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false
	export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1
	export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
	mtest asan build-asan --suite unit --suite e2e --num-processes 3
	mtest asan-engines build-asan bridge_engines
	unset ASAN_OPTIONS UBSAN_OPTIONS
	mtest valgrind build-ci --setup=valgrind --suite unit
	mtest valgrind-e2e build-ci --setup=valgrinde2e --suite e2e --no-suite e2e-slow --num-processes 3
	if [ -x tests/fuzz/run.sh ]; then
		# Each target under ASan+UBSan, then under MemorySanitizer; every
		# target of each build counts once. The seconds are a budget per
		# target on average: run.sh gives more to the targets whose
		# coverage still grows (FUZZ_EVEN=1: the same to each).
		begin fuzz
		tests/fuzz/run.sh "${FUZZ_SECONDS:-15}" "${FUZZ_MSAN_SECONDS:-5}" |
			tee build-ci/summary-fuzz.txt || status=1
		ok=$(sed -n 's/^fuzz: \([0-9]*\) passed, [0-9]* failed$/\1/p' build-ci/summary-fuzz.txt)
		fail=$(sed -n 's/^fuzz: [0-9]* passed, \([0-9]*\) failed$/\1/p' build-ci/summary-fuzz.txt)
		[ -n "$ok" ] || fail=$((${fail:-0} + 1)) # run.sh itself failed
		end "${ok:-0}" "${fail:-0}"
	fi
	# The Windows build: its unit tests and the Wine suite (scripts/windows.sh;
	# about 10 s once its third-party sources are built, 2 min before).
	mkdir -p build-ci
	begin windows
	scripts/windows.sh test 2>&1 | tee build-ci/summary-windows.txt || status=1
	ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' build-ci/summary-windows.txt)
	fail=$(sed -n 's/^Fail: *\([0-9]*\).*/\1/p' build-ci/summary-windows.txt)
	to=$(sed -n 's/^Timeout: *\([0-9]*\).*/\1/p' build-ci/summary-windows.txt)
	[ -n "$ok" ] || fail=$((${fail:-0} + 1)) # the build itself failed
	end "${ok:-0}" $((${fail:-0} + ${to:-0}))
	# The Debian package: built in a copy of the tree, linted, installed,
	# run against stockfish, removed (scripts/deb.sh). Its build skips the
	# unit and e2e suites (nocheck): they ran above, in three builds.
	begin deb
	DEB_BUILD_OPTIONS=nocheck scripts/deb.sh 2>&1 | tee build-ci/summary-deb.txt || status=1
	ok=$(sed -n 's/^deb: \([0-9]*\) passed, [0-9]* failed$/\1/p' build-ci/summary-deb.txt)
	fail=$(sed -n 's/^deb: [0-9]* passed, \([0-9]*\) failed$/\1/p' build-ci/summary-deb.txt)
	[ -n "$ok" ] || fail=$((${fail:-0} + 1)) # deb.sh itself failed
	end "${ok:-0}" "${fail:-0}"
	echo "stages (seconds):"
	printf '  %s\n' "${stage_rows[@]}"
	printf '  %-22s %6d s  (%d min %d s)\n' total $((SECONDS - t_all)) \
		$(((SECONDS - t_all) / 60)) $(((SECONDS - t_all) % 60))
	echo "tests: $passed passed, $failed failed, $skipped skipped"
	exit "$status"
	;;
windows)
	exec scripts/windows.sh test
	;;
deb)
	deps
	exec scripts/deb.sh
	;;
fmt)
	shift
	check=0
	if [ "${1:-}" = --check ]; then
		check=1
		shift
	fi
	cf=$(command -v clang-format-14 || command -v clang-format) || {
		echo "dev.sh: no clang-format (apt-get install clang-format)" >&2
		exit 2
	}
	if [ $# -gt 0 ]; then
		files=("$@")
	else
		# Committed since main, staged, unstaged or new: what a branch changed.
		base=$(git merge-base main HEAD 2>/dev/null || echo HEAD)
		mapfile -t files < <({
			git diff --name-only --diff-filter=d "$base" -- '*.c' '*.h'
			git ls-files --others --exclude-standard -- '*.c' '*.h'
		} | sort -u)
	fi
	[ ${#files[@]} -gt 0 ] || exit 0
	if [ "$check" -eq 0 ]; then
		exec "$cf" -i --style="file:$PWD/.clang-format" "${files[@]}"
	fi
	# One clang-format for all files (one per file took 18 s of CI): the
	# files it would change are those its --dry-run warns about.
	bad=$("$cf" --style="file:$PWD/.clang-format" --dry-run "${files[@]}" 2>&1 |
		sed -n 's/^\(.*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' |
		sort -u)
	[ -z "$bad" ] || {
		echo "$bad"
		echo "dev.sh fmt: $(wc -l <<<"$bad") file(s) would change; scripts/dev.sh fmt formats them" >&2
		exit 1
	}
	;;
*)
	echo "usage: scripts/dev.sh demo|quick|test|deps|windows|deb|fmt [--check] [FILE...]" >&2
	exit 2
	;;
esac
