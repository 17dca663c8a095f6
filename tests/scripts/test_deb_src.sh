#!/usr/bin/env bash
# scripts/deb-src.sh --print on fake /etc trees (FB_APT_ROOT): the deb-src
# entry takes the mirror (and its key) of the machine's own Debian archive
# entry, in the one-line and the deb822 format; no entry found: exit 1.
set -uo pipefail
script=$(cd "$(dirname "$0")/../.." && pwd)/scripts/deb-src.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() { # check NAME COND-STATUS
	if [ "$2" -eq 0 ]; then
		passed=$((passed + 1)) && echo "ok   $1"
	else
		failed=$((failed + 1)) && echo "FAIL $1"
	fi
}
tree() { # tree NAME: an empty /etc/apt of bookworm
	rm -rf "${tmp:?}/$1"
	mkdir -p "$tmp/$1/etc/apt/sources.list.d"
	echo VERSION_CODENAME=bookworm >"$tmp/$1/etc/os-release"
	echo "$tmp/$1"
}
has() { grep -qx -- "$2" <<<"$1"; }

# deb822: security and a disabled mirror first, then the archive.
r=$(tree deb822)
cat >"$r/etc/apt/sources.list.d/debian.sources" <<'X'
Types: deb
URIs: http://mirror.example/debian-security
Suites: bookworm-security
Components: main
Signed-By: /k/security.gpg

Types: deb
URIs: http://disabled.example/debian
Suites: bookworm
Components: main
Enabled: no

# a comment
Types: deb deb-src
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main contrib
Signed-By: /k/archive.gpg
X
out=$(FB_APT_ROOT=$r "$script" --print bookworm trixie)
check "deb822: the archive's mirror" $(has "$out" "URIs: http://mirror.example/debian"; echo $?)
check "deb822: its key" $(has "$out" "Signed-By: /k/archive.gpg"; echo $?)
check "deb822: source entries of the suites asked" $(has "$out" "Suites: bookworm trixie" &&
	has "$out" "Types: deb-src"; echo $?)

# One-line format with options and a comment; a proxy-style mirror.
r=$(tree oneline)
cat >"$r/etc/apt/sources.list" <<'X'
deb [arch=amd64 signed-by=/k/sec.gpg] http://proxy.local:3142/security bookworm-security main
# deb http://commented.example/debian bookworm main
deb [signed-by=/k/a.gpg] http://proxy.local:3142/debian bookworm main # trailing
X
out=$(FB_APT_ROOT=$r "$script" --print bookworm)
check "one-line: the archive's mirror" $(has "$out" "URIs: http://proxy.local:3142/debian"; echo $?)
check "one-line: its signed-by" $(has "$out" "Signed-By: /k/a.gpg"; echo $?)

# Another codename's archive only: still a Debian archive entry.
r=$(tree other)
echo 'deb http://m.example/debian trixie main' >"$r/etc/apt/sources.list.d/x.list"
out=$(FB_APT_ROOT=$r "$script" --print trixie)
check "no bookworm entry: an archive of main" $(has "$out" "URIs: http://m.example/debian"; echo $?)

# Nothing configured: exit 1, nothing printed.
r=$(tree none)
out=$(FB_APT_ROOT=$r "$script" --print bookworm 2>/dev/null)
rc=$?
check "no entry: exit 1" $([ "$rc" -eq 1 ] && [ -z "$out" ]; echo $?)

# Usage.
FB_APT_ROOT=$r "$script" >/dev/null 2>&1
check "no suite: exit 2" $([ $? -eq 2 ]; echo $?)

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
