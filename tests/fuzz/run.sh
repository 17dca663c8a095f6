#!/usr/bin/env bash
# Runs every libFuzzer target of fenbridge for a while.
#
#   tests/fuzz/run.sh [SECONDS]     SECONDS per target (default 60; 0 only
#                                   replays the seed corpus and regressions)
#
# Installs what is missing (clang, libFuzzer's runtime, the build's own
# packages) with apt-get, sets up build-fuzz with clang, ASan and UBSan if it
# is not there, builds the targets, then for each target:
#   1. replays tests/fuzz/corpus/<target> and tests/fuzz/regressions/<target>
#      (every input once: a fixed bug stays fixed);
#   2. fuzzes for SECONDS from a copy of the corpus in a temporary folder (the
#      repository stays clean), with -rss_limit_mb=2048 and a per-target
#      -max_len and dictionary.
# Any crash, leak, UBSan report, property violation, timeout or OOM fails the
# target; its report is printed and the input is kept under
# build-fuzz/fuzz-findings/<target>/. Prints the executions per target and in
# total, and last `fuzz: N passed, M failed`; exits 1 when any target failed.
#
# Environment: FUZZ_BUILD (build folder, default build-fuzz), FUZZ_TARGETS
# (a subset, e.g. "fen line"), FUZZ_KEEP_CORPUS=DIR (copy the grown corpora
# there to merge them by hand).
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tests/fuzz
secs=${1:-60}
build=${FUZZ_BUILD:-$root/build-fuzz}
targets=(${FUZZ_TARGETS:-fen line filter game config pgn translate movegen uci_xboard})

case $secs in
'' | *[!0-9]*)
	echo "usage: tests/fuzz/run.sh [SECONDS]" >&2
	exit 2
	;;
esac

# ---- tools ----
packages=(clang libclang-rt-14-dev meson ninja-build pkg-config libc6-dev
	libuv1-dev libinih-dev)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "fuzz: installing ${missing[*]}" >&2
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -q >&2 &&
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
			--no-install-recommends "${missing[@]}" >&2 || {
		echo "fuzz: cannot install ${missing[*]}" >&2
		echo "fuzz: 0 passed, ${#targets[@]} failed"
		exit 1
	}
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fenbridge-fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# libFuzzer must link (libclang-rt-14-dev ships it).
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' >"$tmp/probe.c"
if ! clang -fsanitize=fuzzer,address,undefined "$tmp/probe.c" -o "$tmp/probe" 2>"$tmp/probe.log"; then
	cat "$tmp/probe.log" >&2
	echo "fuzz: clang -fsanitize=fuzzer does not link here" >&2
	echo "fuzz: 0 passed, ${#targets[@]} failed"
	exit 1
fi

# ---- build ----
if [ ! -f "$build/build.ninja" ]; then
	echo "fuzz: setting up $build" >&2
	if ! CC=clang meson setup "$build" "$root" -Dfuzz=true \
		-Db_sanitize=address,undefined -Db_lundef=false \
		>"$tmp/setup.log" 2>&1; then
		cat "$tmp/setup.log" >&2
		echo "fuzz: meson setup failed" >&2
		echo "fuzz: 0 passed, ${#targets[@]} failed"
		exit 1
	fi
fi
ninja_targets=()
for t in "${targets[@]}"; do
	ninja_targets+=("tests/fuzz/fuzz_$t")
done
if ! ninja -C "$build" "${ninja_targets[@]}" >"$tmp/build.log" 2>&1; then
	tail -n 40 "$tmp/build.log" >&2
	echo "fuzz: building the targets failed (is $build a clang build with -Dfuzz=true?" \
		"delete it to set it up again)" >&2
	echo "fuzz: 0 passed, ${#targets[@]} failed"
	exit 1
fi

# ---- run ----
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}

max_len() {
	case $1 in
	fen) echo 256 ;;
	line) echo 2048 ;;
	filter | translate | uci_xboard) echo 4096 ;;
	game | movegen) echo 512 ;;
	config) echo 2048 ;;
	*) echo 1024 ;;
	esac
}
dict() {
	case $1 in
	fen | game | movegen) echo "$here/fen.dict" ;;
	filter | translate | uci_xboard) echo "$here/filter.dict" ;;
	esac
}

passed=0 failed=0 total=0
for t in "${targets[@]}"; do
	exe=$build/tests/fuzz/fuzz_$t
	work=$tmp/$t
	findings=$build/fuzz-findings/$t
	mkdir -p "$work/corpus" "$work/artifacts"
	cp -r "$here/corpus/fuzz_$t/." "$work/corpus/" 2>/dev/null
	ok=1 execs=0

	# 1. every seed and regression input once
	seeds=("$here/corpus/fuzz_$t")
	[ -d "$here/regressions/fuzz_$t" ] && seeds+=("$here/regressions/fuzz_$t")
	if ! "$exe" -runs=0 -rss_limit_mb=2048 -timeout=10 \
		-artifact_prefix="$work/artifacts/" "${seeds[@]}" \
		>"$work/replay.log" 2>&1; then
		ok=0
		echo "== fuzz_$t: a seed or regression input fails:" >&2
		grep -E 'property violated|ERROR|SUMMARY|^    #[0-9] ' "$work/replay.log" |
			head -n 30 >&2
	fi

	# 2. fuzz
	if [ "$ok" -eq 1 ] && [ "$secs" -gt 0 ]; then
		d=$(dict "$t")
		"$exe" -max_total_time="$secs" -rss_limit_mb=2048 \
			-max_len="$(max_len "$t")" -timeout=10 \
			-print_final_stats=1 -artifact_prefix="$work/artifacts/" \
			${d:+-dict="$d"} "$work/corpus" >"$work/fuzz.log" 2>&1
		rc=$?
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
			"$work/fuzz.log" | tail -n 1)
		execs=${execs:-0}
		if [ "$rc" -ne 0 ] || ls "$work/artifacts/" | grep -q .; then
			ok=0
			echo "== fuzz_$t: finding (exit $rc):" >&2
			grep -E -A 40 'property violated|ERROR: |==ERROR|deadly signal|out-of-memory|timeout' \
				"$work/fuzz.log" | head -n 60 >&2
		fi
		if [ -n "${FUZZ_KEEP_CORPUS:-}" ]; then
			mkdir -p "$FUZZ_KEEP_CORPUS/fuzz_$t"
			cp -r "$work/corpus/." "$FUZZ_KEEP_CORPUS/fuzz_$t/"
		fi
	fi

	total=$((total + execs))
	if [ "$ok" -eq 1 ]; then
		passed=$((passed + 1))
		echo "fuzz_$t: ok, $execs executions in ${secs}s"
	else
		failed=$((failed + 1))
		mkdir -p "$findings"
		cp "$work"/*.log "$findings/" 2>/dev/null
		cp -r "$work/artifacts/." "$findings/" 2>/dev/null
		echo "fuzz_$t: FAILED after $execs executions; inputs and logs in $findings" \
			"(replay: $exe FILE; minimise: $exe -minimize_crash=1 -runs=100000 FILE)"
	fi
done
echo "fuzz: $total executions in total"
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
