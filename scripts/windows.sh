#!/usr/bin/env bash
# The Windows build (run through `scripts/dev.sh windows`; Debian 12, root or
# sudo): fenbridge.exe cross-built with MinGW-w64, statically linked (libuv,
# inih, libgcc), its unit tests and the Wine suite run under Wine, and the
# zip for users.
#
#   scripts/windows.sh deps    only install and build the third-party parts
#   scripts/windows.sh build   build-win/fenbridge.exe and the zip
#   scripts/windows.sh test    build, then the unit tests and tests/wine
#                              under Wine; ends with "wine: N passed, M failed"
#
# Third-party source (libuv 1.44 and cmocka from bookworm, inih r59 from
# trixie: bookworm's is not downloadable, toga2 for the tests) comes from
# Debian's source packages through apt-get source, never from the repository.
# It is kept in build-win/deps, so a second build needs no network.
set -euo pipefail
cd "$(dirname "$0")/.."

top=$PWD
out=$top/build-win
deps=$out/deps
prefix=$deps/prefix
triplet=x86_64-w64-mingw32

packages=(
	gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 cmake wine wine64 zip dpkg-dev
	meson ninja-build pkg-config python3
)

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo

install_packages() {
	local missing=()
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "windows.sh: installing ${missing[*]}" >&2
	$sudo apt-get update -q
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
		--no-install-recommends "${missing[@]}"
}

# deb-src entries: bookworm for libuv1, cmocka and toga2, trixie for libinih,
# from the machine's own Debian mirror (scripts/deb-src.sh). Source entries
# only: the binary packages installed stay bookworm's.
add_sources() {
	"$top/scripts/deb-src.sh" bookworm trixie
}

# fetch DIR PACKAGE/SUITE: the unpacked source in $deps/src/DIR, fetched
# only if not already there.
fetch() {
	local dir=$1 spec=$2
	[ -d "$deps/src/$dir" ] && return 0
	add_sources
	mkdir -p "$deps/dl/$dir" "$deps/src"
	(cd "$deps/dl/$dir" && apt-get source --download-only "$spec" >/dev/null 2>&1 ||
		apt-get source --download-only "$spec")
	(cd "$deps/dl/$dir" && dpkg-source -x ./*.dsc "$deps/src/$dir" >/dev/null)
}

build_libuv() {
	[ -f "$prefix/lib/libuv.a" ] && return 0
	fetch libuv libuv1/bookworm
	cmake -S "$deps/src/libuv" -B "$deps/build/libuv" -G Ninja \
		-DCMAKE_SYSTEM_NAME=Windows -DCMAKE_C_COMPILER=$triplet-gcc \
		-DCMAKE_BUILD_TYPE=Release -DLIBUV_BUILD_TESTS=OFF \
		-DLIBUV_BUILD_BENCH=OFF >/dev/null
	ninja -C "$deps/build/libuv" uv_a >/dev/null
	mkdir -p "$prefix/lib/pkgconfig" "$prefix/include"
	cp "$deps/build/libuv/libuv_a.a" "$prefix/lib/libuv.a"
	cp -r "$deps/src/libuv/include/." "$prefix/include/"
	local v
	v=$(sed -n 's/^#define UV_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)/\2/p' \
		"$deps/src/libuv/include/uv/version.h" | paste -sd.)
	cat >"$prefix/lib/pkgconfig/libuv.pc" <<EOF
prefix=$prefix
Name: libuv
Description: libuv, static, for Windows
Version: $v
Libs: -L\${prefix}/lib -luv -lpsapi -luser32 -ladvapi32 -liphlpapi -luserenv -lws2_32
Cflags: -I\${prefix}/include
EOF
}

build_inih() {
	[ -f "$prefix/lib/libinih.a" ] && return 0
	fetch inih libinih/trixie
	mkdir -p "$deps/build/inih" "$prefix/lib/pkgconfig" "$prefix/include"
	$triplet-gcc -O2 -c "$deps/src/inih/ini.c" -o "$deps/build/inih/ini.o"
	$triplet-ar rcs "$prefix/lib/libinih.a" "$deps/build/inih/ini.o"
	cp "$deps/src/inih/ini.h" "$prefix/include/"
	cat >"$prefix/lib/pkgconfig/inih.pc" <<EOF
prefix=$prefix
Name: inih
Description: inih, static, for Windows
Version: 59
Libs: -L\${prefix}/lib -linih
Cflags: -I\${prefix}/include
EOF
}

build_cmocka() {
	[ -f "$prefix/lib/libcmocka.a" ] && return 0
	fetch cmocka cmocka/bookworm
	cmake -S "$deps/src/cmocka" -B "$deps/build/cmocka" -G Ninja \
		-DCMAKE_SYSTEM_NAME=Windows -DCMAKE_C_COMPILER=$triplet-gcc \
		-DCMAKE_BUILD_TYPE=Release -DWITH_STATIC_LIB=ON \
		-DCMAKE_C_FLAGS=-D__USE_MINGW_ANSI_STDIO=1 \
		-DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF >/dev/null
	ninja -C "$deps/build/cmocka" cmocka-static >/dev/null
	mkdir -p "$prefix/lib/pkgconfig" "$prefix/include"
	cp "$(find "$deps/build/cmocka" -name 'libcmocka*.a' | head -1)" \
		"$prefix/lib/libcmocka.a"
	cp "$deps/src/cmocka/include/cmocka.h" "$prefix/include/"
	cat >"$prefix/lib/pkgconfig/cmocka.pc" <<EOF
prefix=$prefix
Name: cmocka
Description: cmocka, static, for Windows
Version: 1.1.5
Libs: -L\${prefix}/lib -lcmocka
Cflags: -I\${prefix}/include -DCMOCKA_STATIC
EOF
}

# toga2.exe for the Wine suite: a real engine without Chess960.
build_toga2() {
	[ -f "$deps/toga2/toga2.exe" ] && return 0
	fetch toga2 toga2/bookworm
	mkdir -p "$deps/toga2" "$deps/build/toga2"
	# Its egbb loader uses the Windows calls only under _MSC_VER; the
	# edited copy stays in the build folder.
	sed 's/^#ifdef _MSC_VER\r\?$/#if defined(_MSC_VER) || defined(_WIN32)/' \
		"$deps/src/toga2/src/probe.cpp" >"$deps/build/toga2/probe.cpp"
	# Each file on its own core (one g++ for all took 25 s), then linked.
	{
		echo "$deps/build/toga2/probe.cpp"
		ls "$deps/src/toga2/src/"*.cpp | grep -v '/probe\.cpp$'
	} | xargs -P "$(nproc)" -I{} sh -c \
		'$0 -O2 -w -I"$1" -c "$2" -o "$3/$(basename "$2" .cpp).o"' \
		"$triplet-g++" "$deps/src/toga2/src" {} "$deps/build/toga2"
	$triplet-g++ -static -s -o "$deps/toga2/toga2.exe" "$deps/build/toga2/"*.o
}

build() {
	install_packages
	build_libuv
	build_inih
	build_cmocka
	# The cross file names the tools; the pkg-config path is ours only.
	export PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig
	if [ ! -f "$out/build.ninja" ]; then
		# Quiet, but for why it failed (meson writes that to stdout).
		meson setup "$out" --cross-file scripts/mingw64.txt \
			-Dwerror=true -Dbuildtype=release -Dstrip=true >"$deps/meson-setup.log" 2>&1 || {
			tail -20 "$deps/meson-setup.log" >&2
			echo "windows.sh: meson setup failed" >&2
			exit 1
		}
	fi
	# Quiet when it builds; the compiler's words when it does not.
	if ! ninja -C "$out" >"$out/ninja.log" 2>&1; then
		cat "$out/ninja.log" >&2
		echo "windows.sh: the Windows build failed" >&2
		exit 1
	fi
	package
	echo "windows.sh: $out/fenbridge.exe ($(stat -c %s "$out/fenbridge.exe") bytes)," \
		"DLLs: $($triplet-objdump -p "$out/fenbridge.exe" |
			sed -n 's/.*DLL Name: //p' | sort | paste -sd' ')" >&2
}

# The zip for users: the exe, the README for Windows users and the Windows
# example INIs (doc/examples: those whose engine is a Windows path), the
# text files with CRLF. tests/wine/test_wine.py checks its contents and
# starts each INI as it is in the zip.
windows_examples=(doc/examples/fritz-chess960.ini doc/examples/winboard-uci.ini)
package() {
	local v stage f
	v=$(sed -n "s/^  version : '\(.*\)',/\1/p" meson.build)
	stage=$out/pkg/fenbridge-$v-win64
	rm -rf "$out/pkg"
	mkdir -p "$stage/examples"
	cp "$out/fenbridge.exe" "$stage/"
	sed 's/$/\r/' doc/windows/README.txt >"$stage/README.txt"
	for f in "${windows_examples[@]}"; do
		sed 's/$/\r/' "$f" >"$stage/examples/${f##*/}"
	done
	rm -f "$out/fenbridge-$v-win64.zip"
	(cd "$out/pkg" && zip -q -r "$out/fenbridge-$v-win64.zip" "fenbridge-$v-win64")
}

wine_tests() {
	build_toga2
	export WINEDEBUG=-all WINEPREFIX=${WINEPREFIX:-$out/wineprefix}
	# One wineserver for the whole run: each process then starts in a
	# fraction of a second instead of seconds.
	mkdir -p "$WINEPREFIX"
	wineserver -p 600 || true # 2: one is running already
	# The first start creates the prefix (some seconds).
	wineboot -i >/dev/null 2>&1 || true
	local status=0
	meson test -C "$out" --print-errorlogs --num-processes 2 || status=$?
	wineserver -k || true
	return "$status"
}

case "${1:-build}" in
deps)
	install_packages
	build_libuv
	build_inih
	build_cmocka
	build_toga2
	;;
build)
	build
	;;
test)
	build
	wine_tests
	;;
*)
	echo "usage: scripts/windows.sh build|test" >&2
	exit 2
	;;
esac
