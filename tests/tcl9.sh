#!/bin/bash
# tcl9.sh ?build? --
#
# The Tcl 9.0 lane (make test-tcl9).  Debian 12 has no Tcl 9, and the
# binary packages of Debian's newer releases need a newer libc, so this
# takes the tcl9.0 source package from Debian forky (apt-get source
# --download-only, with an apt configuration of its own: the system's
# package lists are not touched), builds it once into a cache directory
# and installs it there (nothing goes into the system).  Then it
# configures the extension out of tree in build/tcl9-ext with --with-tcl
# pointing at that Tcl, and runs the suite there with its tclsh9.0 (on the
# host, then in the Soft-RoCE VM, which sees the host root, like make
# test).  Expect and Thread, which Debian 12 builds only for Tcl 8.6, are
# forky's builds for Tcl 9: tests/tclpkgs.sh unpacks them, with forky's C
# library that they need, into build/tclpkgs, and the suite runs tclsh9.0
# through its wrapper (under that C library, with them on TCLLIBPATH).
# The last line is "N passed, N failed, N skipped".
#
# With the argument "build" it only fetches and builds Tcl 9 and prints
# the directory holding its tclConfig.sh.
#
# Environment: VERBS_TCL9_CACHE (default build/tcl9 of the source tree),
# VERBS_TCLPKGS_CACHE (tests/tclpkgs.sh's, default build/tclpkgs),
# VERBS_TCL9_SUITE (the Debian suite, default forky), VERBS_TCL9_MIRROR
# (default http://deb.debian.org/debian), VERBS_TCL9_JOBS (make -j, 2),
# and as for make test: TESTFLAGS, DEVICE, VERBS_VM_CACHE.
set -u

src=$(cd "$(dirname "$0")/.." && pwd)
cache=${VERBS_TCL9_CACHE:-$src/build/tcl9}
suite=${VERBS_TCL9_SUITE:-forky}
mirror=${VERBS_TCL9_MIRROR:-http://deb.debian.org/debian}

die() { echo "tcl9.sh: $*" >&2; exit 1; }
. "$src/tests/debapt.sh"

# The cache: src/ the source package, apt/ apt's state for it, install/
# the installed Tcl (its paths are compiled in, so the cache stays where
# it was built), build.log, and stamp (Tcl's patchlevel) once complete.
mkdir -p "$cache" || die "cannot create $cache"
cache=$(cd "$cache" && pwd)
prefix=$cache/install
tclsh=$prefix/bin/tclsh9.0

# fetch_source --
#	Downloads the tcl9.0 source package of $suite into $cache/src with
#	apt-get source: apt checks the signed index and the file hashes.
fetch_source() {
    mkdir -p "$cache/src" || return 1
    echo "tcl9.sh: fetching the tcl9.0 source package from Debian $suite" >&2
    debapt "$cache/apt" "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" ||
	return 1
    (cd "$cache/src" && apt-get -q "${debapt_opts[@]}" source --download-only tcl9.0) >&2
}

# build_tcl --
#	Unpacks, configures, builds and installs Tcl 9 into $prefix, once.
build_tcl() {
    local orig t0
    t0=$(date +%s)
    orig=$(ls "$cache"/src/tcl9.0_*.orig.tar.* 2>/dev/null | tail -n 1)
    if [ -z "$orig" ]; then
	fetch_source || die "could not fetch the tcl9.0 source package"
	orig=$(ls "$cache"/src/tcl9.0_*.orig.tar.* 2>/dev/null | tail -n 1)
	[ -n "$orig" ] || die "no tcl9.0 source tarball in $cache/src"
    fi
    sh "$src/tests/deps.sh" tcl9 || return 1
    rm -rf "$cache/build" "$prefix"
    mkdir -p "$cache/build" || return 1
    tar -xf "$orig" -C "$cache/build" --strip-components=1 || return 1
    echo "tcl9.sh: building Tcl 9 from ${orig##*/} into $prefix" \
	"(log: $cache/build.log)" >&2
    # Everything but the manual pages is installed.
    if ! (cd "$cache/build/unix" &&
	./configure --prefix="$prefix" &&
	make -j"${VERBS_TCL9_JOBS:-2}" &&
	make install INSTALL_DOC_TARGETS=) >"$cache/build.log" 2>&1; then
	tail -n 30 "$cache/build.log" >&2
	return 1
    fi
    [ -x "$tclsh" ] || return 1
    rm -rf "$cache/build"
    "$tclsh" <<<'puts [info patchlevel]' >"$cache/stamp" || return 1
    echo "tcl9.sh: Tcl $(cat "$cache/stamp") built in $(( $(date +%s) - t0 )) s" >&2
}

# One build at a time; a finished build (the stamp) is used as it is.
exec 9>"$cache/.lock"
flock 9
if [ ! -s "$cache/stamp" ] || [ ! -x "$tclsh" ]; then
    rm -f "$cache/stamp"
    build_tcl || die "building Tcl 9 failed"
fi
exec 9>&-

tcllib=$prefix/lib
[ -f "$tcllib/tclConfig.sh" ] || die "no tclConfig.sh in $tcllib"
if [ "${1:-}" = build ]; then
    echo "$tcllib"
    exit 0
fi

# The extension, configured out of tree against that Tcl.
ext=$src/build/tcl9-ext
mkdir -p "$ext" && cd "$ext" || die "cannot use $ext"
if [ ! -f Makefile ] || ! grep -qx "TCL_BIN_DIR	= $tcllib" Makefile; then
    "$src/configure" -q --with-tcl="$tcllib" || die "configure failed"
fi
make -s || die "make failed"

# tclsh9.0 under forky's C library, with Expect and Thread.
tclsh=$("$src/tests/tclpkgs.sh" wrap "$tclsh") ||
    die "cannot have Expect and Thread for Tcl 9"
echo "tcl9.sh: Tcl $("$tclsh" <<<'puts [info patchlevel]'), $(
    echo 'puts "Expect [package require Expect], Thread [package require Thread]"' |
    "$tclsh")" >&2
TCLSH=$tclsh DEVICE=${DEVICE:-} TESTFLAGS=${TESTFLAGS:-} \
    exec "$src/tests/run-tests.sh" all
