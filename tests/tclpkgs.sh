#!/bin/bash
# tclpkgs.sh wrap TCLSH | tclpkgs.sh tcl9.1 --
#
# Expect and Thread for the Tcl 9 lanes, and the next lane's Tcl 9.1.
# Debian forky builds them for Tcl 9: tcl9.1 (9.1.0), expect 5.45.4-10
# (tcl-expect, its patches make it build against Tcl 9) and tclthread3
# (tcl-thread, Thread 3.0.7).  The source archive this machine reaches
# holds none of their source packages (only expect's upstream tarball,
# without Debian's patches), and forky's binary packages need forky's C
# library (2.43; Debian 12 has 2.36).  So this takes forky's binary
# packages, Debian's own builds: libc6 and libgcc-s1 (the C library and
# its loader), libtommath1, libtcl9.1, tcl9.1, tcl9.1-dev, tcl-expect and
# tcl-thread.  It downloads them with apt-get download (an apt
# configuration of its own, tests/debapt.sh, as tests/tcl9.sh: apt checks
# the signed index and the file hashes; the system's package lists are
# not touched),
# unpacks them with dpkg-deb -x into a root in a cache directory, once
# (nothing is installed into the system), and runs a lane's tclsh under
# that root's loader and C library through a wrapper script, with
# Expect's and Thread's directory on TCLLIBPATH.  The wrapper passes its
# own path as the program's argv[0], so that [info nameofexecutable] is
# the wrapper and the tclsh children the tests spawn run the same way;
# the programs they run (ibv_rc_pingpong, ip) keep the system's C
# library.  The root is on the host's file system, which the Soft-RoCE VM
# sees, so the VM runs use it too.
#
#   wrap TCLSH  makes (once) and prints a wrapper that runs TCLSH, a Tcl 9
#               tclsh built against Debian 12's C library (tests/tcl9.sh's
#               tclsh9.0), that way: make test-tcl9
#   tcl9.1      prints the directory of forky's Tcl 9.1 tclConfig.sh (its
#               paths moved into the root), for configure --with-tcl; the
#               wrapper of its tclsh9.1 is "wrap ROOT/usr/bin/tclsh9.1",
#               ROOT being that directory's ../../../..: make test-next
#
# Environment: VERBS_TCLPKGS_CACHE (default build/tclpkgs of the source
# tree), VERBS_TCL9_SUITE (the Debian suite, default forky) and
# VERBS_TCL9_MIRROR (default http://deb.debian.org/debian), as for
# tests/tcl9.sh.
set -u

src=$(cd "$(dirname "$0")/.." && pwd)
cache=${VERBS_TCLPKGS_CACHE:-$src/build/tclpkgs}
suite=${VERBS_TCL9_SUITE:-forky}
mirror=${VERBS_TCL9_MIRROR:-http://deb.debian.org/debian}
pkgs="libc6 libgcc-s1 libtommath1 libtcl9.1 tcl9.1 tcl9.1-dev tcl-expect tcl-thread"

die() { echo "tclpkgs.sh: $*" >&2; exit 1; }
. "$src/tests/debapt.sh"

# The cache: apt/ apt's state, debs/ the packages, root/ what they hold,
# bin/ the wrappers, and stamp (the packages and their versions) once
# complete.
mkdir -p "$cache" || die "cannot create $cache"
# Its real path: trees that share it through a symlink (a git worktree's
# build/tclpkgs) then write the same wrappers, not each its own over the
# other's.
cache=$(cd "$cache" && pwd -P)
root=$cache/root
lib=$root/usr/lib/x86_64-linux-gnu
tcltk=$root/usr/lib/tcltk/x86_64-linux-gnu
tclconfig=$lib/tcl9.1

# fetch --
#	Downloads $pkgs, as $suite has them for amd64, into $cache/debs.
fetch() {
    local p
    rm -rf "$cache/debs"
    mkdir -p "$cache/debs" || return 1
    echo "tclpkgs.sh: fetching $pkgs from Debian $suite" >&2
    debapt "$cache/apt" "deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" ||
	return 1
    (cd "$cache/debs" &&
	apt-get -q "${debapt_opts[@]}" download $(for p in $pkgs; do echo "$p/$suite"; done)) >&2
}

# unpack --
#	Fetches and unpacks the packages into $root, once; moves the paths
#	of Tcl 9.1's tclConfig.sh into the root.
unpack() {
    local t0 deb
    t0=$(date +%s)
    fetch || die "could not fetch $pkgs from $suite"
    rm -rf "$root" "$cache/bin"
    mkdir -p "$root" || return 1
    for deb in "$cache"/debs/*.deb; do
	dpkg-deb -x "$deb" "$root" || return 1
    done
    [ -x "$lib/ld-linux-x86-64.so.2" ] && [ -f "$tclconfig/tclConfig.sh" ] &&
	[ -d "$tcltk" ] || return 1
    # Its headers, stub library and libraries are in the root; the
    # package path stays Debian's.  Its modules (tcltest) too.
    sed -i -e "/^TCL_PACKAGE_PATH=/!s#/usr/#$root/usr/#g" \
	"$tclconfig/tclConfig.sh" "$tclconfig/tclooConfig.sh" || return 1
    sed -i -e "s#^\( *variable paths {\)/usr/lib/tcl9.1/tcl9}#\1$root/usr/lib/tcl9.1/tcl9}#" \
	"$root/usr/lib/tcl9.1/tm.tcl" || return 1
    grep -qF "{$root/usr/lib/tcl9.1/tcl9}" "$root/usr/lib/tcl9.1/tm.tcl" || return 1
    for deb in "$cache"/debs/*.deb; do
	echo "$(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)"
    done >"$cache/stamp"
    echo "tclpkgs.sh: $(paste -sd, "$cache/stamp" | sed 's/,/, /g') unpacked in $(( $(date +%s) - t0 )) s" >&2
}

# wrapper TCLSH --
#	Writes $cache/bin/NAME, a wrapper that runs TCLSH under the root's
#	loader and C library (the directories of LD_LIBRARY_PATH after the
#	root's), with Expect and Thread on TCLLIBPATH.  forky's tclsh9.1
#	looks for its scripts and encodings in /usr/lib/tcl9.1 (compiled
#	in): TCL_LIBRARY names the root's.
wrapper() {
    local real name w lib91=
    real=$(readlink -f "$1") || return 1
    name=${real##*/}
    w=$cache/bin/$name
    [ -x "$w" ] && grep -qF -- "--argv0 \"$w\" \"$real\"" "$w" && { echo "$w"; return 0; }
    mkdir -p "$cache/bin" || return 1
    [ "$real" = "$root/usr/bin/tclsh9.1" ] &&
	lib91="TCL_LIBRARY=$root/usr/lib/tcl9.1; export TCL_LIBRARY"
    cat >"$w.tmp" <<WRAP || return 1
#!/bin/sh
# $name under Debian $suite's C library, with Expect and Thread (tests/tclpkgs.sh)
$lib91
case " \${TCLLIBPATH:-} " in
*" $tcltk "*) ;;
*) TCLLIBPATH="\${TCLLIBPATH:+\$TCLLIBPATH }$tcltk"; export TCLLIBPATH ;;
esac
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" \\
    --argv0 "$w" "$real" "\$@"
WRAP
    chmod +x "$w.tmp" && mv -f "$w.tmp" "$w" && echo "$w"
}

case ${1:-} in
wrap) [ $# -eq 2 ] && [ -x "$2" ] || die "usage: tclpkgs.sh wrap TCLSH" ;;
tcl9.1) ;;
*) die "usage: tclpkgs.sh wrap TCLSH | tclpkgs.sh tcl9.1" ;;
esac

# One unpacking at a time; a finished one (the stamp) is used as it is.
exec 9>"$cache/.lock"
flock 9
if [ ! -s "$cache/stamp" ] || [ ! -x "$lib/ld-linux-x86-64.so.2" ]; then
    rm -f "$cache/stamp"
    unpack || die "unpacking $pkgs failed"
fi
if [ "$1" = wrap ]; then
    wrapper "$2" || die "cannot write the wrapper of $2"
else
    echo "$tclconfig"
fi
