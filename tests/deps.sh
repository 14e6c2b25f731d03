#!/bin/sh
# deps.sh ?build|vm|all? --
#
# Installs the Debian packages the build (build) and the Soft-RoCE VM
# harness (vm; tcl-expect for the interactive test of make shell) need,
# when they are missing.  Does nothing when all are
# present; needs root (or sudo) otherwise.
set -eu

build="gcc make pkg-config tcl8.6 tcl8.6-dev libibverbs-dev librdmacm-dev
       rdma-core ibverbs-providers"
vm="qemu-system-x86 busybox-static iproute2 kmod cpio xz-utils gzip
    rdma-core ibverbs-providers ibverbs-utils tcl-expect"

case ${1:-all} in
build) want=$build ;;
vm) want=$vm ;;
*) want="$build $vm" ;;
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
