#!/usr/bin/env bash
# deb-src entries for the source packages scripts/windows.sh and
# tests/fuzz/run.sh build from (apt-get source), taken from the machine's own
# apt configuration: no archive address is written in the tree, so the
# scripts work behind any mirror or proxy the machine is set up with.
#
#   scripts/deb-src.sh SUITE...     e.g. scripts/deb-src.sh bookworm trixie
#   scripts/deb-src.sh --print SUITE...   print the entry, change nothing
#
# The mirror is that of the machine's Debian archive entry: the first `deb`
# entry, in /etc/apt/sources.list, /etc/apt/sources.list.d/*.list (one-line
# format) or /etc/apt/sources.list.d/*.sources (deb822), whose suite is the
# release's codename (/etc/os-release; bookworm on Debian 12) or, failing
# that, any `deb` entry with the component main that is not a -security,
# -updates or -backports suite. Its Signed-By (or [signed-by=...]) is kept.
# The entry written is source-only (Types: deb-src), so the binary packages
# installed stay the release's; it goes to
# /etc/apt/sources.list.d/fenbridge-src.sources, and apt-get update runs
# when that file was written or changed. Exits 1 when no entry is found.
set -euo pipefail

print=0
if [ "${1:-}" = --print ]; then
	print=1
	shift
fi
[ $# -gt 0 ] || {
	echo "usage: scripts/deb-src.sh [--print] SUITE..." >&2
	exit 2
}
root=${FB_APT_ROOT:-} # tests point this at a fake /etc tree
list=$root/etc/apt/sources.list.d/fenbridge-src.sources
codename=$(. "$root/etc/os-release" 2>/dev/null && echo "${VERSION_CODENAME:-}") || codename=""

# Every `deb` entry as "FILE<TAB>URI<TAB>SUITE<TAB>COMPONENTS<TAB>SIGNED-BY",
# one per suite and URI.
entries() {
	local f
	for f in "$root/etc/apt/sources.list" "$root"/etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk -v file="$f" '
		{ sub(/#.*/, "") }
		$1 == "deb" {
			signed = ""; i = 2
			if ($2 ~ /^\[/) { # options up to the closing bracket
				opts = ""
				for (; i <= NF; i++) { opts = opts " " $i; if ($i ~ /\]$/) { i++; break } }
				gsub(/[\[\]]/, "", opts)
				n = split(opts, o, " ")
				for (k = 1; k <= n; k++)
					if (o[k] ~ /^signed-by=/) signed = substr(o[k], 11)
			}
			uri = $i; suite = $(i + 1); comps = ""
			for (k = i + 2; k <= NF; k++) comps = comps (comps == "" ? "" : " ") $k
			printf "%s\t%s\t%s\t%s\t%s\n", file, uri, suite, comps, signed
		}' "$f"
	done
	for f in "$root"/etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && [ "$f" != "$list" ] || continue
		awk -v file="$f" '
		function flush(   n, m, u, s, a, b) {
			if (types ~ /(^| )deb( |$)/ && enabled != "no") {
				n = split(uris, u, " "); m = split(suites, s, " ")
				for (a = 1; a <= n; a++)
					for (b = 1; b <= m; b++)
						printf "%s\t%s\t%s\t%s\t%s\n", file, u[a], s[b], comps, signed
			}
			types = uris = suites = comps = signed = enabled = ""
		}
		/^[ \t]*#/ { next }
		/^[ \t]*$/ { flush(); next }
		/^[ \t]/ { next } # a continued field (a Signed-By key block)
		{
			key = tolower($1); sub(/:$/, "", key)
			val = $0; sub(/^[^:]*:[ \t]*/, "", val); sub(/[ \t]+$/, "", val)
			if (key == "types") types = val
			else if (key == "uris") uris = val
			else if (key == "suites") suites = val
			else if (key == "components") comps = val
			else if (key == "signed-by") signed = val
			else if (key == "enabled") enabled = tolower(val)
		}
		END { flush() }' "$f"
	done
}

all=$(entries)
pick=$(printf '%s\n' "$all" | awk -F'\t' -v c="$codename" 'c != "" && $3 == c { print; exit }')
[ -n "$pick" ] || pick=$(printf '%s\n' "$all" | awk -F'\t' '
	$3 !~ /-(security|updates|backports)$/ && $3 !~ /\// && (" " $4 " ") ~ / main / { print; exit }')
if [ -z "$pick" ]; then
	echo "deb-src.sh: no Debian archive entry (deb ... ${codename:-<release>} main) in" \
		"$root/etc/apt/sources.list or $root/etc/apt/sources.list.d/" >&2
	exit 1
fi
IFS=$'\t' read -r from uri _ _ signed <<<"$pick"

entry="# fenbridge (scripts/deb-src.sh): source packages for scripts/windows.sh
# and tests/fuzz/run.sh, from the mirror of ${from#"$root"}
Types: deb-src
URIs: $uri
Suites: $*
Components: main"
[ -z "$signed" ] || entry="$entry
Signed-By: $signed"

if [ "$print" -eq 1 ]; then
	printf '%s\n' "$entry"
	exit 0
fi
if [ -f "$list" ] && [ "$(cat "$list")" = "$entry" ]; then
	exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "deb-src.sh: writing deb-src entries ($uri: $*) in $list" >&2
printf '%s\n' "$entry" | $sudo tee "$list" >/dev/null
$sudo apt-get update -q >&2
