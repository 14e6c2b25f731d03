#!/bin/sh
# prm-table.sh TCLSH SRCDIR ?KERNEL_INCLUDE? --
#
# Regenerates SRCDIR/generic/mlx5PrmTable.c (make prm-table).  With
# KERNEL_INCLUDE (a directory holding linux/mlx5/mlx5_ifc.h, e.g. a kernel
# tree's include/), from that; otherwise from Debian's newest
# linux-headers-6.1.0-*-common, fetched with apt-get download and unpacked
# with dpkg-deb into a temporary directory (nothing is installed).
set -eu
tclsh=$1 srcdir=$2 inc=${3:-}
out=$srcdir/generic/mlx5PrmTable.c
if [ -n "$inc" ]; then
    version="kernel headers in $inc"
    "$tclsh" "$srcdir/tools/mlx5prm/genprm.tcl" "$inc" "$version" "$out"
    exit 0
fi
pkg=$(apt-cache pkgnames linux-headers-6.1.0- |
      grep -E '^linux-headers-6\.1\.0-[0-9]+-common$' | sort -V | tail -1)
[ -n "$pkg" ] || { echo "prm-table.sh: no linux-headers-6.1.0-*-common in apt's lists" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download "$pkg" >/dev/null)
deb=$(ls "$tmp"/*.deb)
dpkg-deb -x "$deb" "$tmp/x"
ver=$(dpkg-deb -f "$deb" Version)
"$tclsh" "$srcdir/tools/mlx5prm/genprm.tcl" \
    "$tmp/x/usr/src/$pkg/include" "Debian $pkg $ver" "$out"
echo "prm-table.sh: $out from $pkg $ver"
