#!/usr/bin/env bash
# Runs every libFuzzer target of fenbridge for a while, in two builds.
#
#   tests/fuzz/run.sh [SECONDS [MSAN_SECONDS]]
#       SECONDS per target under ASan+UBSan (default 60), MSAN_SECONDS per
#       target under MemorySanitizer (default SECONDS / 2); 0 only replays
#       the seed corpus and regressions
#
# Installs what is missing (clang, compiler-rt with libFuzzer and the
# sanitizer runtimes, llvm-symbolizer, the build's own packages) with
# apt-get, and sets up each build that is not there:
#   asan  build-fuzz: clang, AddressSanitizer + UndefinedBehaviorSanitizer
#         (and LeakSanitizer);
#   msan  build-fuzz-msan: clang, MemorySanitizer with origins. Every library
#         linked must be instrumented, so inih is built from Debian's source
#         package (apt-get source through a deb-src entry, as
#         scripts/windows.sh does) into build-fuzz-msan/inih; snprintf and
#         vsnprintf are msan_printf.c's, which check their arguments.
# Then for each build and target:
#   1. replays tests/fuzz/corpus/<target> and tests/fuzz/regressions/<target>
#      (every input once: a fixed bug stays fixed);
#   2. fuzzes from a copy of the corpus in a temporary folder (the
#      repository stays clean), with -rss_limit_mb=2048 and a per-target
#      -max_len and dictionary. SECONDS (MSAN_SECONDS) is the budget per
#      target on average: each target first gets a third of it, then the
#      rest of the build's budget (targets x SECONDS) goes to the targets
#      in proportion to the new inputs each still found in the second half
#      of its first run (evenly when none did), so the seconds go where
#      coverage still grows and the total stays bounded. FUZZ_EVEN=1: each
#      target exactly SECONDS.
# Any crash, leak, UBSan or MSan report, property violation, timeout or OOM
# fails the target; its report is printed and the input is kept under
# <build>/fuzz-findings/<target>/. Prints a line per target and build
# (`fuzz_fen (msan): ok, N executions in 15s`), one per build (`fuzz (msan):
# P passed, F failed, N executions, T s`), and last `fuzz: N passed, M failed`
# over both builds (what scripts/dev.sh counts); exits 1 when any failed.
#
# Environment: FUZZ_BUILD (the ASan build folder, default build-fuzz),
# FUZZ_MSAN_BUILD (default build-fuzz-msan), FUZZ_SANITIZERS (default
# "asan msan"; one of them alone), FUZZ_TARGETS (a subset, e.g. "fen line"),
# FUZZ_KEEP_CORPUS=DIR (copy the grown corpora there to merge them by hand),
# FUZZ_EVEN=1 (the same seconds for each target), FUZZ_JOBS (targets fuzzed
# at once, default the number of cores).
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tests/fuzz
secs=${1:-60}
msan_secs=${2-}
# Every target there is (tests/fuzz/fuzz_NAME.c), unless FUZZ_TARGETS names some.
if [ -n "${FUZZ_TARGETS:-}" ]; then
	targets=($FUZZ_TARGETS)
else
	targets=()
	for f in "$here"/fuzz_*.c; do
		t=${f##*/fuzz_}
		targets+=("${t%.c}")
	done
fi
sanitizers=(${FUZZ_SANITIZERS:-asan msan})
# Targets fuzzed at once (libFuzzer uses one core each).
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}

for n in "$secs" "${msan_secs:-0}"; do
	case $n in
	'' | *[!0-9]*)
		echo "usage: tests/fuzz/run.sh [SECONDS [MSAN_SECONDS]]" >&2
		exit 2
		;;
	esac
done
msan_secs=${msan_secs:-$((secs / 2))}

passed=0 failed=0
# give_up WHY [BUILDS]: every target of BUILDS builds (default 1) counts as
# failed.
give_up() {
	echo "fuzz: $1" >&2
	failed=$((failed + ${#targets[@]} * ${2:-1}))
}
summary() {
	echo "fuzz: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

# ---- tools ----
# llvm: llvm-symbolizer, for reports with file and line; dpkg-dev:
# dpkg-source, which unpacks inih's source package.
packages=(clang libclang-rt-14-dev llvm meson ninja-build pkg-config libc6-dev
	libuv1-dev libinih-dev dpkg-dev)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
if [ ${#missing[@]} -gt 0 ]; then
	echo "fuzz: installing ${missing[*]}" >&2
	$sudo apt-get update -q >&2 &&
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
			--no-install-recommends "${missing[@]}" >&2 || {
		give_up "cannot install ${missing[*]}" ${#sanitizers[@]}
		summary
	}
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fenbridge-fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# ---- inih for MemorySanitizer ----
# Debian's source package: trixie's r59 (bookworm's r55 is no longer
# downloadable), built with inih's defaults like the Windows build. The
# deb-src entry is scripts/windows.sh's (scripts/deb-src.sh: from the
# machine's own Debian mirror): source entries only, the binary packages
# installed stay bookworm's.
msan_inih() { # msan_inih DIR: DIR/lib/libinih.a and DIR/lib/pkgconfig/inih.pc
	local dir=$1
	[ -f "$dir/lib/pkgconfig/inih.pc" ] && return 0
	"$root/scripts/deb-src.sh" bookworm trixie >&2 || return 1
	rm -rf "$dir"
	mkdir -p "$dir/dl" "$dir/lib/pkgconfig" "$dir/include"
	if ! { (cd "$dir/dl" && apt-get source --download-only libinih/trixie) &&
		dpkg-source -x "$dir"/dl/*.dsc "$dir/src" &&
		clang -O1 -g -fsanitize=memory -fsanitize-memory-track-origins \
			-fno-omit-frame-pointer -c "$dir/src/ini.c" -o "$dir/ini.o" &&
		ar rcs "$dir/lib/libinih.a" "$dir/ini.o" &&
		cp "$dir/src/ini.h" "$dir/include/"; } >"$tmp/inih.log" 2>&1; then
		cat "$tmp/inih.log" >&2
		return 1
	fi
	cat >"$dir/lib/pkgconfig/inih.pc" <<EOF
prefix=$dir
Name: inih
Description: inih built with MemorySanitizer for tests/fuzz
Version: 59
Libs: -L\${prefix}/lib -linih
Cflags: -I\${prefix}/include
EOF
}

# ---- one build ----
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
export MSAN_OPTIONS=${MSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:symbolize=1}

max_len() {
	case $1 in
	fen) echo 256 ;;
	line) echo 2048 ;;
	filter | translate | uci_xboard | referee) echo 4096 ;;
	game | movegen) echo 512 ;;
	config) echo 2048 ;;
	*) echo 1024 ;;
	esac
}
dict() {
	case $1 in
	fen | game | movegen) echo "$here/fen.dict" ;;
	filter | translate | uci_xboard | referee) echo "$here/filter.dict" ;;
	esac
}

# fuzz_build SAN: sets up, builds and runs every target in SAN's build.
fuzz_build() {
	local san=$1 build s sanitize env=() started=$SECONDS built
	not_built() {
		give_up "$san: $*"
		echo "fuzz ($san): 0 passed, ${#targets[@]} failed (not built)"
	}
	case $san in
	asan)
		build=${FUZZ_BUILD:-$root/build-fuzz} s=$secs
		sanitize=address,undefined
		;;
	msan)
		build=${FUZZ_MSAN_BUILD:-$root/build-fuzz-msan} s=$msan_secs
		sanitize=memory
		env=(PKG_CONFIG_PATH="$build/inih/lib/pkgconfig")
		;;
	*)
		not_built "unknown in FUZZ_SANITIZERS (asan, msan)"
		return
		;;
	esac

	# libFuzzer must link with the sanitizer (libclang-rt-14-dev ships both).
	printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' >"$tmp/probe.c"
	if ! clang -fsanitize=fuzzer,$sanitize "$tmp/probe.c" -o "$tmp/probe" \
		2>"$tmp/probe.log"; then
		cat "$tmp/probe.log" >&2
		not_built "clang -fsanitize=fuzzer,$sanitize does not link here"
		return
	fi

	if [ ! -f "$build/build.ninja" ]; then
		echo "fuzz: setting up $build" >&2
		if [ "$san" = msan ] && ! msan_inih "$build/inih"; then
			not_built "cannot build inih from Debian's source package"
			return
		fi
		if ! env "${env[@]}" CC=clang meson setup "$build" "$root" -Dfuzz=true \
			-Db_sanitize=$sanitize -Db_lundef=false \
			>"$tmp/setup.log" 2>&1; then
			cat "$tmp/setup.log" >&2
			not_built "meson setup failed"
			return
		fi
	fi
	local ninja_targets=()
	for t in "${targets[@]}"; do
		ninja_targets+=("tests/fuzz/fuzz_$t")
	done
	if ! ninja -C "$build" "${ninja_targets[@]}" >"$tmp/build.log" 2>&1; then
		tail -n 40 "$tmp/build.log" >&2
		not_built "building the targets failed (is $build a clang build" \
			"with -Dfuzz=true? delete it to set it up again)"
		return
	fi
	built=$((SECONDS - started))

	local total=0 p=0 f=0 t n=${#targets[@]} first budget left weight_sum=0
	local -A ok=() execs=() grew=() spent=()
	# fuzz_start T SECONDS: fuzzes target T for SECONDS from its working
	# corpus (which keeps what earlier runs found), in the background, at
	# most $jobs at once (libFuzzer uses one core); fuzz_collect T reads
	# what its last run left: adds to its executions and seconds, sets
	# grew[T] (the new inputs found in the second half of its executions:
	# its coverage still grows), and ok[T]=0 on a finding.
	local -A run_secs=()
	fuzz_start() {
		local t=$1 secs=$2
		local exe=$build/tests/fuzz/fuzz_$t work=$tmp/$san/$t d log
		log=$work/fuzz-${spent[$t]}.log
		run_secs[$t]=$secs
		d=$(dict "$t")
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
		(
			"$exe" -max_total_time="$secs" -rss_limit_mb=2048 \
				-max_len="$(max_len "$t")" -timeout=10 \
				-print_final_stats=1 -artifact_prefix="$work/artifacts/" \
				${d:+-dict="$d"} "$work/corpus" >"$log" 2>&1
			echo $? >"$log.rc"
		) &
	}
	fuzz_collect() {
		local t=$1 work=$tmp/$san/$1 rc e log
		[ -n "${run_secs[$t]:-}" ] || return 0
		log=$work/fuzz-${spent[$t]}.log
		rc=$(cat "$log.rc" 2>/dev/null || echo 1)
		e=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
		e=${e:-0}
		execs[$t]=$((${execs[$t]} + e)) spent[$t]=$((${spent[$t]} + ${run_secs[$t]}))
		unset "run_secs[$t]"
		grew[$t]=$(awk -v half=$((e / 2)) '
			/^#[0-9]+[ \t]+NEW / { n = substr($1, 2) + 0; if (n > half) c++ }
			END { print c + 0 }' "$log")
		if [ "$rc" -ne 0 ] || ls "$work/artifacts/" | grep -q .; then
			ok[$t]=0
			echo "== fuzz_$t ($san): finding (exit $rc):" >&2
			grep -E -A 40 'property violated|ERROR: |==ERROR|WARNING: MemorySanitizer|deadly signal|out-of-memory|timeout' \
				"$log" | head -n 60 >&2
		fi
	}

	# The budget is s seconds a target on average. Unless FUZZ_EVEN=1,
	# each target first gets a third of s, and the rest of the budget goes
	# to the targets in proportion to how many new inputs each still found
	# in the second half of that first run (evenly when none did): seconds
	# go where coverage still grows, and the total stays n * s.
	first=$s
	[ "${FUZZ_EVEN:-0}" = 1 ] || [ "$s" -lt 3 ] || first=$((s / 3))
	budget=$((n * s))
	for t in "${targets[@]}"; do
		local exe=$build/tests/fuzz/fuzz_$t work=$tmp/$san/$t
		mkdir -p "$work/corpus" "$work/artifacts"
		cp -r "$here/corpus/fuzz_$t/." "$work/corpus/" 2>/dev/null
		ok[$t]=1 execs[$t]=0 grew[$t]=0 spent[$t]=0

		# 1. every seed and regression input once
		seeds=("$here/corpus/fuzz_$t")
		[ -d "$here/regressions/fuzz_$t" ] && seeds+=("$here/regressions/fuzz_$t")
		if ! "$exe" -runs=0 -rss_limit_mb=2048 -timeout=10 \
			-artifact_prefix="$work/artifacts/" "${seeds[@]}" \
			>"$work/replay.log" 2>&1; then
			ok[$t]=0
			echo "== fuzz_$t ($san): a seed or regression input fails:" >&2
			grep -E 'property violated|ERROR|WARNING: MemorySanitizer|SUMMARY|^Running:|^    #[0-9] |was created by' \
				"$work/replay.log" | head -n 40 >&2
		fi

		# 2. fuzz (the first part of the budget)
		if [ "${ok[$t]}" -eq 1 ] && [ "$first" -gt 0 ]; then
			fuzz_start "$t" "$first"
		fi
	done
	wait
	for t in "${targets[@]}"; do
		fuzz_collect "$t"
		[ "${ok[$t]}" -eq 0 ] || weight_sum=$((weight_sum + ${grew[$t]}))
	done
	# 3. the rest of the budget, where coverage still grows
	left=$((budget - n * first))
	if [ "$left" -gt 0 ]; then
		local alive=0 extra
		for t in "${targets[@]}"; do
			[ "${ok[$t]}" -eq 1 ] && alive=$((alive + 1))
		done
		for t in "${targets[@]}"; do
			[ "${ok[$t]}" -eq 1 ] || continue
			if [ "$weight_sum" -gt 0 ]; then
				extra=$((left * ${grew[$t]} / weight_sum))
			else
				extra=$((left / alive))
			fi
			[ "$extra" -gt 0 ] && fuzz_start "$t" "$extra"
		done
		wait
		for t in "${targets[@]}"; do
			fuzz_collect "$t"
		done
	fi

	local findings exe
	for t in "${targets[@]}"; do
		exe=$build/tests/fuzz/fuzz_$t
		findings=$build/fuzz-findings/$t
		if [ -n "${FUZZ_KEEP_CORPUS:-}" ]; then
			mkdir -p "$FUZZ_KEEP_CORPUS/fuzz_$t"
			cp -r "$tmp/$san/$t/corpus/." "$FUZZ_KEEP_CORPUS/fuzz_$t/"
		fi
		total=$((total + ${execs[$t]}))
		if [ "${ok[$t]}" -eq 1 ]; then
			p=$((p + 1))
			echo "fuzz_$t ($san): ok, ${execs[$t]} executions in ${spent[$t]}s" \
				"(${grew[$t]} new inputs late in its last run)"
		else
			f=$((f + 1))
			mkdir -p "$findings"
			cp "$tmp/$san/$t"/*.log "$findings/" 2>/dev/null
			cp -r "$tmp/$san/$t/artifacts/." "$findings/" 2>/dev/null
			echo "fuzz_$t ($san): FAILED after ${execs[$t]} executions; inputs and logs in $findings" \
				"(replay: $exe FILE; minimise: $exe -minimize_crash=1 -runs=100000 FILE)"
		fi
	done
	echo "fuzz ($san): $p passed, $f failed, $total executions," \
		"$((SECONDS - started)) s (setup and build $built s)"
	passed=$((passed + p)) failed=$((failed + f))
}

for san in "${sanitizers[@]}"; do
	fuzz_build "$san"
done
summary
