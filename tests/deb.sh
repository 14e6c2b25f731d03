#!/bin/bash
# deb.sh ?default|next? -- make deb
#
# Builds the Debian package tcl-verbs (debian/) with Debian's own tools
# and checks it with lintian.  The source is a clean export of the tree
# into a scratch directory, so the tree itself is not touched: in a git
# checkout, its tracked files as they are in the working tree (git stash
# create, or HEAD when nothing changed; untracked files are left out, as
# from a clean clone); elsewhere (an unpacked release), the make dist
# tarball, made in the current (build) directory.  dpkg-buildpackage -b
# builds it there; the .deb files, .buildinfo and .changes go to
# build/deb of the source tree (VERBS_DEB_DIR), the build's log beside
# them.  Then lintian (-I --pedantic: every tag) checks the .changes and
# what it lists; its output is printed, and any error or warning (E: or
# W:) fails the default flavour.  The last line of stdout is the path of
# the package.
#
# Flavours:
#   default  Debian 12's Tcl 8.6 and rdma-core (the Build-Depends).
#   next     the next lane's stack (tests/next.sh): forky's Tcl 9.1
#            (tests/tclpkgs.sh tcl9.1) and rdma-core 65 built into
#            build/rdma-core-65/install (VERBS_RDMA_CORE_CACHE; built
#            by tests/next.sh build when missing).  The version gets "+next" (a
#            changelog entry of its own, in the scratch copy), the
#            library is the Tcl 9 one (libtcl9verbs0.1.so), and Depends
#            names no Debian Tcl or rdma-core: the libraries it was
#            linked with are that private rdma-core's, which no package
#            owns, so dh_shlibdeps is told to leave them out rather than
#            claim Debian 12's libibverbs1 (debian/rules).  A host needs
#            that Tcl and that rdma-core (LD_LIBRARY_PATH) to load it.
#            lintian's tags are reported but do not fail it.
#
# Installs what it needs with tests/deps.sh (build and deb).
# Environment: VERBS_DEB_DIR (default build/deb of the source tree),
# VERBS_DEB_JOBS (build jobs, 2).
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
flavour=${1:-default}
out=${VERBS_DEB_DIR:-$src/build/deb}
jobs=${VERBS_DEB_JOBS:-2}

die() { echo "deb.sh: $*" >&2; exit 1; }
say() { echo "deb.sh: $*" >&2; }

case $flavour in
default|next) ;;
*) die "unknown flavour \"$flavour\" (default or next)" ;;
esac

sh "$src/tests/deps.sh" build
sh "$src/tests/deps.sh" deb

# The package's version is configure.ac's (AC_INIT), which
# debian/changelog must carry.
version=$(sed -n 's/^AC_INIT(\[verbs\],[[]\([^]]*\)\]).*/\1/p' "$src/configure.ac")
[ -n "$version" ] || die "no AC_INIT version in configure.ac"
logver=$(cd "$src" && dpkg-parsechangelog -S Version)
[ "$logver" = "$version" ] ||
    die "debian/changelog is at $logver, configure.ac at $version: add a changelog entry for $version"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/verbs-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tree=$tmp/tcl-verbs-$version
mkdir "$tree"

if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$src" ]; then
    rev=$(git -C "$src" stash create)
    say "exporting ${rev:-HEAD} of $src"
    git -C "$src" archive "${rev:-HEAD}" | tar -xf - -C "$tree"
else
    [ -f Makefile ] || die "not a git checkout and no Makefile here for make dist"
    tarball=$(make -s dist | tail -n 1)
    say "exporting $tarball"
    tar -xzf "$tarball" -C "$tree" --strip-components=1
fi

if [ "$flavour" = next ]; then
    tcl=$("$src/tests/tclpkgs.sh" tcl9.1) || die "no Tcl 9.1 (tests/tclpkgs.sh tcl9.1)"
    # rdma-core 65 as tests/next.sh builds it (once, into its cache).
    rdma=${VERBS_RDMA_CORE_CACHE:-$src/build/rdma-core-65}/install
    if [ ! -s "$rdma/../stamp" ] || [ ! -f "$rdma/lib/libibverbs.so.1" ]; then
	rdma=$("$src/tests/next.sh" build | tail -n 1) || die "no rdma-core 65 (tests/next.sh build)"
    fi
    [ -f "$rdma/lib/pkgconfig/libibverbs.pc" ] || die "no libibverbs.pc under $rdma/lib"
    version=$version+next
    log=$tree/debian/changelog
    { printf 'tcl-verbs (%s) unstable; urgency=medium\n\n' "$version"
      printf '  * Built against the next lane'"'"'s stack: Tcl 9.1 (forky'"'"'s build)\n'
      printf '    and rdma-core 65, neither of them Debian 12'"'"'s packages.\n\n'
      printf ' -- %s  %s\n\n' "$(cd "$src" && dpkg-parsechangelog -S Maintainer)" "$(date -R)"
      cat "$log"; } >"$log.new"
    mv "$log.new" "$log"
    export VERBS_DEB_TCL=$tcl VERBS_DEB_PRIVATE_LIBS=$rdma/lib
    export PKG_CONFIG_PATH=$rdma/lib/pkgconfig
    say "next: Tcl in $tcl, rdma-core in $rdma"
fi

arch=$(dpkg-architecture -q DEB_HOST_ARCH)
base=tcl-verbs_${version}_$arch
mkdir -p "$out"
buildlog=$out/$base.build.log
say "dpkg-buildpackage -b in $tree (log: $buildlog)"
if ! (cd "$tree" && dpkg-buildpackage -us -uc -b -J"$jobs") >"$buildlog" 2>&1; then
    tail -n 30 "$buildlog" >&2
    die "dpkg-buildpackage failed (log: $buildlog)"
fi
changes=$tmp/$base.changes
# The .changes lists the files the build made (the .debs, the .buildinfo).
files=$(sed -n '/^Files:/,/^[^ ]/s/^ [0-9a-f]\{32\} [0-9]* [^ ]* [^ ]* //p' "$changes")
for f in $files; do
    mv -f "$tmp/$f" "$out/"
done
mv -f "$changes" "$out/"
changes=$out/$base.changes
deb=$out/$base.deb
[ -f "$deb" ] || die "no $deb"

# lintian warns about running as root: then it runs as nobody, when
# nobody can read the files.
lint="lintian -I --pedantic"
if [ "$(id -u)" -eq 0 ] && runuser -u nobody -- test -r "$changes" 2>/dev/null; then
    lint="runuser -u nobody -- $lint"
fi
say "$lint $changes"
report=$($lint "$changes" 2>&1) || true
[ -z "$report" ] || echo "$report"
bad=$(echo "$report" | grep -c '^[EW]: ' || true)
if [ "$bad" -gt 0 ]; then
    if [ "$flavour" = default ]; then
	die "lintian: $bad errors or warnings"
    fi
    say "lintian: $bad errors or warnings (not required of the $flavour flavour)"
else
    say "lintian: no errors or warnings"
fi
echo "$deb"
