#!/bin/sh
# distcheck.sh TARBALL ?TCL_BIN_DIR? -- make distcheck
#
# Proves that a release tarball (make dist) stands on its own: unpacks it
# in a temporary directory, runs ./configure (--with-tcl=TCL_BIN_DIR, the
# Tcl of the calling build), make, the host test suite, make install into
# a DESTDIR, make uninstall, and checks that no file is left behind.
set -eu
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tcldir=${2:-}
name=$(basename "$tarball" .tar.gz)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/verbs-distcheck.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

say() { echo "distcheck: $*"; }

tar -xzf "$tarball" -C "$tmp"
cd "$tmp/$name"
say "configure"
./configure -q ${tcldir:+--with-tcl="$tcldir"}
say "make"
make -s >/dev/null
say "make test-host"
make -s test-host >"$tmp/test.log" 2>&1 || { tail -n 30 "$tmp/test.log"; exit 1; }
tail -n 1 "$tmp/test.log"
dest=$tmp/dest
say "make install DESTDIR=$dest"
make -s install DESTDIR="$dest" >/dev/null
installed=$(find "$dest" -type f | sed "s|^$dest||" | sort)
echo "$installed" | sed 's/^/  /'
[ -n "$installed" ] || { say "make install installed nothing"; exit 1; }
say "make uninstall DESTDIR=$dest"
make -s uninstall DESTDIR="$dest" >/dev/null
left=$(find "$dest" -type f)
if [ -n "$left" ]; then
    say "make uninstall left files behind:"
    echo "$left"
    exit 1
fi
say "$(basename "$tarball") builds, tests, installs and uninstalls cleanly"
