#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Debian package, built and tried (run through `scripts/dev.sh deb` and
# the deb stage of `scripts/dev.sh test`; Debian 12, root or sudo):
#   1. dpkg-buildpackage -us -uc -b in a temporary copy of the tree (the
#      tree gets no build droppings), with its unit and e2e suites unless
#      DEB_BUILD_OPTIONS has nocheck (scripts/dev.sh test sets it: those
#      suites ran in its own builds), on every core (parallel=N);
#   2. lintian on the .deb: any error fails;
#   3. apt-get install ./fenbridge_VERSION_amd64.deb into this system;
#   4. the installed /usr/games/fenbridge against /usr/games/stockfish: a
#      Chess960 position in Shredder-FEN, go depth 5, a legal bestmove; the
#      man page and the examples where the package puts them;
#   5. apt-get remove fenbridge (also when a check failed).
# Prints one line per check, "deb: N passed, M failed" last; the .deb is
# left in build-deb/.
set -euo pipefail
cd "$(dirname "$0")/.."

top=$PWD
out=$top/build-deb
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
passed=0 failed=0
check() { # check WHAT COMMAND...: one line, counted
	local what=$1
	shift
	if "$@"; then
		passed=$((passed + 1))
		echo "ok   $what"
	else
		failed=$((failed + 1))
		echo "FAIL $what"
	fi
}
finish() {
	echo "deb: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

version=$(sed -n "s/^  version : '\(.*\)',/\1/p" meson.build)
deb=fenbridge_${version}_$(dpkg --print-architecture).deb
t0=$SECONDS
case " ${DEB_BUILD_OPTIONS:-} " in
*" parallel="*) ;;
*) export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }parallel=$(nproc)" ;;
esac

# 1. The build, in a copy of what git tracks or would track (not build*/).
rm -rf "$out"
mkdir -p "$out/src"
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z -c -o --exclude-standard | xargs -0 cp --parents -t "$out/src"
else
	tar -c --exclude='./build*' . | tar -x -C "$out/src"
fi
if (cd "$out/src" && dpkg-buildpackage -us -uc -b >"$out/build.log" 2>&1); then
	check "dpkg-buildpackage -us -uc -b: $deb ($((SECONDS - t0)) s)" test -f "$out/$deb"
else
	tail -40 "$out/build.log"
	check "dpkg-buildpackage -us -uc -b (log: $out/build.log)" false
	finish
fi
check "debian/changelog's version is meson.build's ($version)" \
	test "$(cd "$out/src" && dpkg-parsechangelog -S Version)" = "$version"

# 2. lintian: errors fail, warnings are listed (doc/packaging.md says why
# each stays).
lintian --tag-display-limit 0 "$out/$deb" >"$out/lintian.txt" 2>&1 || true
cat "$out/lintian.txt"
check "lintian: no errors" bash -c "! grep -q '^E: ' '$out/lintian.txt'"

# 3.-5. Installed, run, removed.
if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q -o DPkg::Lock::Timeout=600 \
	--no-install-recommends "$out/$deb" >"$out/install.log" 2>&1; then
	cat "$out/install.log"
	check "apt-get install ./$deb" false
	finish
fi
check "apt-get install ./$deb" dpkg-query -W fenbridge
check "dpkg -L: /usr/games/fenbridge, the man page in section 6, the examples" \
	bash -c "dpkg -L fenbridge | grep -qx /usr/games/fenbridge &&
		dpkg -L fenbridge | grep -qx /usr/share/man/man6/fenbridge.6.gz &&
		dpkg -L fenbridge | grep -qx /usr/share/doc/fenbridge/examples/toga2.ini &&
		! dpkg -L fenbridge | grep -q '/include/\|\.a$\|\.pc$'"
if command -v man >/dev/null; then
	check "man -w fenbridge: $(man -w fenbridge 2>&1)" \
		test "$(man -w fenbridge 2>/dev/null)" = /usr/share/man/man6/fenbridge.6.gz
fi
if [ -x /usr/games/stockfish ]; then
	check "/usr/games/fenbridge -- /usr/games/stockfish: Chess960 (Shredder-FEN), a legal bestmove" \
		python3 - <<'PY'
import subprocess, sys, time
fen = "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gga - 4 11"
p = subprocess.Popen(["/usr/games/fenbridge", "--", "/usr/games/stockfish"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def until(word, secs=60):
    end = time.monotonic() + secs
    while time.monotonic() < end:
        line = p.stdout.readline()
        if not line:
            break
        if line.startswith(word):
            return line.split()
    sys.exit("no %r from fenbridge" % word)
p.stdin.write(b"uci\n"); p.stdin.flush(); until(b"uciok")
p.stdin.write(b"setoption name UCI_Chess960 value true\nisready\n")
p.stdin.flush(); until(b"readyok")
p.stdin.write(b"position fen %s\ngo depth 5\n" % fen.encode()); p.stdin.flush()
best = until(b"bestmove")[1].decode()
p.stdin.write(b"quit\n"); p.stdin.close()
rc = p.wait(timeout=30)
ref = subprocess.run(["/usr/games/stockfish"], capture_output=True, input=(
    "setoption name UCI_Chess960 value true\nposition fen %s\ngo perft 1\n"
    "quit\n" % fen).encode(), timeout=30).stdout
legal = {l.split(b":")[0].decode() for l in ref.splitlines() if l.endswith(b": 1")}
print("    bestmove %s, exit %d, %d legal moves" % (best, rc, len(legal)))
sys.exit(0 if best in legal and rc == 0 else 1)
PY
else
	echo "deb: no /usr/games/stockfish, the installed binary not run" >&2
	check "/usr/games/stockfish installed (the engine the check runs)" false
fi
DEBIAN_FRONTEND=noninteractive $sudo apt-get remove -y -q -o DPkg::Lock::Timeout=600 fenbridge >"$out/remove.log" 2>&1 || true
check "apt-get remove fenbridge: /usr/games/fenbridge gone" test ! -e /usr/games/fenbridge
echo "deb: $((SECONDS - t0)) s"
finish
