#!/bin/sh
# deps.sh ?build|vm|tcl9|next|upstream|deb|lab|all? --
#
# Installs the Debian packages the build and the host's test run (build),
# the Soft-RoCE VM harness and the tests in it (vm), the Tcl 9 build of
# make test-tcl9 (tcl9), the stack of make test-next (next), make
# test-upstream (upstream) and the package build of make deb (deb) need,
# when they are missing.  tcl-expect
# drives the examples and the C tools they talk to (tests/expect.tcl);
# rdmacm-utils has rdma_server and rdma_client; tcl-thread is the Thread
# package of thread.test.  Does nothing when all are present; needs root
# (or sudo) otherwise.
set -eu

build="gcc make pkg-config tcl8.6 tcl8.6-dev libibverbs-dev librdmacm-dev
      rdma-core ibverbs-providers tcl-expect tcl-thread"
# The kernel's linux/mlx5/mlx5_ifc.h that tests/mlx5prm.test compiles
# rdma-core's DEVX_SET over: the newest linux-headers-6.1.0-*-common (a
# header-only package) apt knows of, unless one is installed already.
ifc=
if ! ls -d /usr/src/linux-headers-6.1.0-*-common >/dev/null 2>&1; then
    ifc=$(apt-cache pkgnames linux-headers-6.1.0- 2>/dev/null |
	  grep -E '^linux-headers-6\.1\.0-[0-9]+-common$' | sort -V | tail -n 1)
    build="$build $ifc"
fi
# (mlx5prm.test runs in the VM too: the header is in both lists.)
vm="qemu-system-x86 busybox-static iproute2 kmod cpio xz-utils gzip
    rdma-core ibverbs-providers ibverbs-utils rdmacm-utils tcl-expect
    tcl-thread ${ifc:-}"
# Tcl 9 from source (tests/tcl9.sh): the system zlib and zip for its
# zipfs, rather than the copies bundled with it.
tcl9="gcc make zlib1g-dev zip"
# The next lane (tests/next.sh): rdma-core from source (cmake, ninja,
# libnl), the orig tarball (curl), the zstd-packed kernel.
next="gcc make cmake ninja-build pkg-config libnl-3-dev libnl-route-3-dev
      python3 curl zstd"
# make test-upstream (tests/upstream.sh): rdma-core's own suite over the
# default lane's pyverbs, and what builds the next lane's pyverbs.
upstream="python3-pyverbs python3-dev cython3 cmake ninja-build"
# make deb (tests/deb.sh): dpkg-buildpackage, debhelper, lintian, and
# tcl-dev, a Build-Depends (tcltk-depends, which gives tcl:Depends); the
# rest of debian/control's Build-Depends are in build.  (No fakeroot:
# the package's Rules-Requires-Root is no.)
deb="dpkg-dev debhelper lintian tcl-dev"
# The lab (tests/lab/lab.sh): ssh for the controller, ss for free ports;
# the hosts' sshd is Debian's package, unpacked by lab.sh, not installed.
lab="openssh-client iproute2 tcl-expect"

case ${1:-all} in
build) want=$build ;;
vm) want=$vm ;;
tcl9) want=$tcl9 ;;
next) want=$next ;;
upstream) want=$upstream ;;
deb) want=$deb ;;
lab) want=$lab ;;
*) want="$build $vm $tcl9 $next $upstream $deb $lab" ;;
esac

missing=
for p in $want; do
    if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
	missing="$missing $p"
    fi
done
[ -n "$missing" ] || exit 0

echo "deps.sh: installing:$missing" >&2
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -q >&2
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing >&2
