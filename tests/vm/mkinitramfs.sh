#!/bin/sh
# mkinitramfs.sh CACHEDIR
#
# Build CACHEDIR/initramfs.cpio.gz for the Soft-RoCE test VM: the static
# busybox, tests/vm/init as /init, and the few kernel modules that /init
# needs to reach the host's root file system over virtio-9p (the rest of
# the modules are loaded later with the real modprobe from the host root).
# Expects fetch-kernel.sh to have unpacked a kernel into CACHEDIR.
# Does nothing when the archive is newer than all of its inputs.
set -eu

die() { echo "mkinitramfs.sh: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: mkinitramfs.sh CACHEDIR"
cache=$(cd "$1" && pwd) || die "no such directory: $1"
here=$(cd "$(dirname "$0")" && pwd)
busybox=${VERBS_VM_BUSYBOX:-/bin/busybox}
out=$cache/initramfs.cpio.gz

# Modules /init loads; their dependencies are added from modules.dep.
wanted="virtio_pci 9pnet_virtio 9p overlay"

ver=
for k in "$cache"/boot/vmlinuz-*; do
    [ -f "$k" ] && ver=${k##*/vmlinuz-}
done
[ -n "$ver" ] || die "no kernel in $cache/boot (run fetch-kernel.sh first)"
moddir=$cache/lib/modules/$ver
[ -f "$moddir/modules.dep" ] || die "$moddir/modules.dep missing"
[ -x "$busybox" ] || die "$busybox not found (install busybox-static)"
# A dynamically linked busybox would need its libraries in the archive too.
if command -v file >/dev/null 2>&1 && file -L "$busybox" | grep -q dynamic; then
    die "$busybox is dynamically linked; install busybox-static"
fi

if [ -f "$out" ]; then
    stale=
    for f in "$here/init" "$here/mkinitramfs.sh" "$busybox" "$moddir/modules.dep"; do
        [ -n "$(find "$f" -newer "$out")" ] && stale=1
    done
    [ -z "$stale" ] && exit 0
fi

builtin=
[ -f "$moddir/modules.builtin" ] && builtin=$moddir/modules.builtin

# Resolve the module list in dependency order (dependencies first, each
# module once); modules built into the kernel (modules.builtin, e.g.
# virtio_pci in Debian 14's kernel) are left out.  modules.dep lines look like
#   kernel/fs/9p/9p.ko: kernel/net/9p/9pnet.ko kernel/fs/netfs/netfs.ko ...
# and paths may end in .ko.xz/.ko.zst/.ko.gz depending on the distribution.
order=$(awk -v wanted="$wanted" '
    function base(p) { sub(/.*\//, "", p); sub(/\.ko(\.[a-z]+)?$/, "", p); gsub(/-/, "_", p); return p }
    function visit(m,   i, n, d) {
        if (m in done || m in builtin) return
        if (!(m in path)) { print "mkinitramfs.sh: module " m " not found" > "/dev/stderr"; bad = 1; return }
        done[m] = 1
        n = split(deps[m], d, " ")
        # modules.dep lists the deepest dependency last
        for (i = n; i >= 1; i--) visit(base(d[i]))
        print m "\t" path[m]
    }
    FILENAME != depfile { builtin[base($1)] = 1; next }
    {
        p = $1; sub(/:$/, "", p)
        m = base(p); path[m] = p
        $1 = ""; deps[m] = $0
    }
    END {
        n = split(wanted, w, " ")
        for (i = 1; i <= n; i++) visit(w[i])
        exit bad
    }' depfile="$moddir/modules.dep" $builtin "$moddir/modules.dep") ||
    die "cannot resolve module dependencies"

tmp=$(mktemp -d "$cache/initramfs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/modules"
cp "$busybox" "$tmp/bin/busybox"
cp "$here/init" "$tmp/init"
chmod 755 "$tmp/init" "$tmp/bin/busybox"

# busybox insmod cannot read compressed modules, so store them plain.
echo "$order" | while IFS='	' read -r name rel; do
    src=$moddir/$rel
    dst=$tmp/modules/$name.ko
    case $rel in
    *.ko)     cp "$src" "$dst" ;;
    *.ko.xz)  xz -dc "$src" >"$dst" ;;
    *.ko.zst) zstd -qdc "$src" >"$dst" ;;
    *.ko.gz)  gzip -dc "$src" >"$dst" ;;
    *) die "unknown module format: $rel" ;;
    esac
    echo "$name" >>"$tmp/modules/load-order"
done

(cd "$tmp" && find . -print | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
    gzip -9n >"$out.tmp"
mv "$out.tmp" "$out"
echo "mkinitramfs.sh: built $out for $ver ($(tr '\n' ' ' <"$tmp/modules/load-order"))" >&2
