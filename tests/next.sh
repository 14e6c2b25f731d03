#!/bin/bash
# next.sh ?build? --
#
# The "next" lane (make test-next): the suite on the newest stack Debian's
# archive offers, as a regression suite for the kernel and rdma-core.
#
#   kernel     the newest linux-image of Debian's newest suite (forky:
#              7.2), booted by tests/vm with VERBS_VM_KERNEL=next, cached
#              in build/vm-next
#   rdma-core  65.0, the upstream tarball Debian's archive holds
#              (rdma-core_65.0.orig.tar.gz from forky's pool, its SHA-256
#              checked against forky's signed Sources index), built with
#              cmake (and ninja when present) once into build/rdma-core-65
#   Tcl        9.1.0, forky's own build (tcl9.1, tcl9.1-dev), with
#              forky's Expect and Thread and the C library they need,
#              unpacked by tests/tclpkgs.sh into build/tclpkgs (forky's
#              source archive here has no tcl9.1 source package); tclsh9.1
#              runs through its wrapper
#
# The extension is configured out of tree in build/next-ext against that
# Tcl and that rdma-core (pkg-config), and the suite runs there: on the
# host (the no-device tests), then in the VM with PATH and
# LD_LIBRARY_PATH leading to rdma-core 65's tools, libraries and
# providers (its libibverbs reads the driver files of its own prefix, not
# /etc/libibverbs.d).  tests/device.test's device-next-* tests check, in
# the VM, which libibverbs and provider the process really mapped.
#
# Then a second, separately reported pass runs the tests marked with
# tcltest's knownBug constraint (named FILE-bug-N.M): bugs of the stack
# that the suite catches and that are not fixed yet.  Their failures are
# expected and listed by name with their reason; they do not fail the
# lane (a known-bug test that passes is reported as such: the bug may be
# fixed).  Last, each known bug that crashes this kernel (the tests named
# FILE-crash-N.M, with the kernelCrash constraint; tests/vm/known-oops
# knows their traces) runs in a boot of its own (VERBS_KERNEL_CRASH=1).
#
# The last line is "N passed, N failed, N skipped", summed over the host
# and VM runs, after a line per run labelled "next: ...".  With the
# argument "build" it only fetches and builds the stack and prints the
# rdma-core prefix; with "fuzz" it runs the fuzzer on the stack (make
# fuzz-next), with "upstream" rdma-core's own suite and its twins
# (tests/upstream.sh, make test-upstream).
#
# Environment: VERBS_RDMA_CORE_CACHE (default build/rdma-core-65 of the
# source tree), VERBS_NEXT_SUITE (default forky), VERBS_VM_MIRROR (the
# Debian mirror, default http://deb.debian.org/debian), VERBS_NEXT_JOBS
# (build jobs, 2), VERBS_VM_NEXT_CACHE (the kernel's cache, default
# build/vm-next), VERBS_TCLPKGS_CACHE, and as for make test: TESTFLAGS.
set -u

src=$(cd "$(dirname "$0")/.." && pwd)
cache=${VERBS_RDMA_CORE_CACHE:-$src/build/rdma-core-65}
suite=${VERBS_NEXT_SUITE:-forky}
mirror=${VERBS_VM_MIRROR:-http://deb.debian.org/debian}
jobs=${VERBS_NEXT_JOBS:-2}
rcver=65.0

die() { echo "next.sh: $*" >&2; exit 1; }
. "$src/tests/debapt.sh"
now() { date +%s; }
t0=$(now)

mkdir -p "$cache" || die "cannot create $cache"
cache=$(cd "$cache" && pwd)
prefix=$cache/install

# fetch_rdma_core --
#	Downloads rdma-core_$rcver.orig.tar.gz into $cache/src and checks
#	it against the SHA-256 that $suite's Sources index (read with an
#	apt configuration of our own, signature checked by apt) gives for
#	it.  (The source package's .dsc is not always reachable; the
#	upstream tarball in the pool is.)
fetch_rdma_core() {
    local tar=rdma-core_$rcver.orig.tar.gz sum dir
    mkdir -p "$cache/src" || return 1
    echo "next.sh: reading Debian $suite's source index" >&2
    debapt "$cache/apt" "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" ||
	return 1
    # "Checksums-Sha256:" lines: " HASH SIZE NAME"; the Directory field
    # gives the pool path.
    sum=$(apt-cache "${debapt_opts[@]}" showsrc rdma-core 2>/dev/null |
	awk -v f="$tar" '$3 == f && length($1) == 64 { print $1; exit }')
    dir=$(apt-cache "${debapt_opts[@]}" showsrc rdma-core 2>/dev/null |
	sed -n 's/^Directory: //p' | head -n 1)
    [ -n "$sum" ] && [ -n "$dir" ] ||
	{ echo "next.sh: $suite has no $tar" >&2; return 1; }
    echo "next.sh: downloading $dir/$tar" >&2
    curl -fsSL -o "$cache/src/$tar.part" "$mirror/$dir/$tar" || return 1
    echo "$sum  $cache/src/$tar.part" | sha256sum -c --quiet - >&2 ||
	{ echo "next.sh: $tar: SHA-256 mismatch" >&2; return 1; }
    mv "$cache/src/$tar.part" "$cache/src/$tar"
}

# build_rdma_core --
#	Unpacks, configures (cmake), builds and installs rdma-core into
#	$prefix, once.  No python bindings, no manual pages.
build_rdma_core() {
    local tar=$cache/src/rdma-core_$rcver.orig.tar.gz gen=() t
    t=$(now)
    if [ ! -f "$tar" ]; then
	fetch_rdma_core || die "could not fetch rdma-core $rcver"
    fi
    command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
    rm -rf "$cache/build" "$prefix"
    mkdir -p "$cache/build/obj" || return 1
    tar -xzf "$tar" -C "$cache/build" --strip-components=1 || return 1
    echo "next.sh: building rdma-core $rcver into $prefix" \
	"(log: $cache/build.log)" >&2
    if ! (cd "$cache/build/obj" &&
	cmake "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	    -DCMAKE_INSTALL_PREFIX="$prefix" -DNO_PYVERBS=1 \
	    -DNO_MAN_PAGES=1 .. &&
	cmake --build . -j "$jobs" &&
	cmake --install .) >"$cache/build.log" 2>&1; then
	tail -n 30 "$cache/build.log" >&2
	return 1
    fi
    [ -f "$prefix/lib/libibverbs.so.1" ] || return 1
    rm -rf "$cache/build"
    echo "$rcver" >"$cache/stamp"
    echo "next.sh: rdma-core $rcver built in $(( $(now) - t )) s" >&2
}

sh "$src/tests/deps.sh" next || die "cannot install the packages the lane needs"
exec 9>"$cache/.lock"
flock 9
if [ ! -s "$cache/stamp" ] || [ ! -f "$prefix/lib/libibverbs.so.1" ]; then
    rm -f "$cache/stamp"
    build_rdma_core || die "building rdma-core $rcver failed"
fi
exec 9>&-
# Tcl 9.1: its tclConfig.sh, and its tclsh9.1 through the wrapper.
tcllib=$("$src/tests/tclpkgs.sh" tcl9.1) || die "cannot have Tcl 9.1"
tclsh=$("$src/tests/tclpkgs.sh" wrap "$tcllib/../../../bin/tclsh9.1") ||
    die "cannot have Tcl 9.1"
if [ "${1:-}" = build ]; then
    echo "$prefix"
    exit 0
fi

# The kernel, now rather than at the first boot (the lane's label names
# it); run.sh does the same under the same lock.
vmcache=${VERBS_VM_NEXT_CACHE:-$src/build/vm-next}
mkdir -p "$vmcache" && vmcache=$(cd "$vmcache" && pwd) || die "cannot use $vmcache"
(
    flock 9
    "$src/tests/vm/fetch-kernel.sh" "$vmcache" "$suite" &&
	"$src/tests/vm/mkinitramfs.sh" "$vmcache"
) 9>"$vmcache/.lock" || die "cannot fetch the $suite kernel"
kver=
for k in "$vmcache"/boot/vmlinuz-*; do
    [ -e "$k" ] && kver=${k##*/vmlinuz-}
done

# The extension, out of tree, against that Tcl and that rdma-core.
ext=$src/build/next-ext
mkdir -p "$ext" && cd "$ext" || die "cannot use $ext"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
if [ ! -f Makefile ] || ! grep -qx "TCL_BIN_DIR	= $tcllib" Makefile ||
   ! grep -q -- "-I$prefix/include" Makefile; then
    "$src/configure" -q --with-tcl="$tcllib" || die "configure failed"
    make -s clean
fi
make -s || die "make failed"
tclver=$("$tclsh" <<<'puts "[info patchlevel] ([join [lmap pkg {Expect Thread} {
    if {[catch {package require $pkg} v]} {set v missing}; list $pkg $v}] {, }])"')
echo "next.sh: stack ready in $(( $(now) - t0 )) s: kernel $kver, rdma-core $rcver, Tcl $tclver" >&2

# rdma-core 65 for everything in the VM run: the package, the C tools the
# examples drive, the rdma_cm utilities.  VERBS_NEXT_RDMA_CORE tells the
# tests which version they must find mapped.
export PATH=$prefix/bin:$PATH
export LD_LIBRARY_PATH=$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export VERBS_VM_KERNEL=next VERBS_VM_NEXT_SUITE=$suite VERBS_VM_NEXT_CACHE=$vmcache
export VERBS_NEXT_RDMA_CORE=$rcver
export VERBS_LANE=next VERBS_KNOWNBUG=1 VERBS_KERNEL_CRASH=1
export VERBS_LANE_INFO="kernel $kver, rdma-core $rcver, Tcl $tclver"

# make fuzz-next: the fuzzer on this stack (tests/fuzz/run.sh next).
if [ "${1:-}" = fuzz ]; then
    cd "$src" && TCLSH=$tclsh DEVICE= exec "$src/tests/fuzz/run.sh" next
fi
# make test-upstream: rdma-core's own suite and its twins on this stack.
if [ "${1:-}" = upstream ]; then
    TCLSH=$tclsh exec "$src/tests/upstream.sh" next
fi
TCLSH=$tclsh DEVICE= TESTFLAGS=${TESTFLAGS:-} exec "$src/tests/run-tests.sh" all
