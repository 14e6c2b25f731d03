#!/bin/bash
# stack.sh KERNEL RDMA --
#
# A lab host's stack of the user's own (lab.sh -s KERNEL:RDMA), made ready
# and cached under build/lab/custom (VERBS_LAB_CUSTOM_CACHE); prints three
# lines: the kernel's cache for tests/vm/run.sh (VERBS_VM_KERNEL=next with
# VERBS_VM_NEXT_CACHE set to it; empty for Debian 12's kernel), the
# rdma-core prefix (empty for the system's), and the build tree of the
# extension against that rdma-core and the system's Tcl 8.6 (the host's
# TCLLIBPATH).
#
#   KERNEL  empty (Debian 12's kernel), or a directory holding one kernel
#           and its modules as "make install" and "make modules_install"
#           write them with INSTALL_PATH=DIR/boot INSTALL_MOD_PATH=DIR:
#           DIR/boot/vmlinuz-VERSION (config-VERSION beside it if there
#           is one) and DIR/lib/modules/VERSION.  Debian's kernel packages
#           unpacked into DIR with dpkg-deb -x have that layout up to
#           Debian 13; Debian 14's DIR/usr/lib/modules/VERSION, with
#           vmlinuz and config in it, is taken too.  The kernel needs what
#           the test VM loads: virtio_pci, 9pnet_virtio, 9p and overlay as
#           modules, and virtio_net and rdma_rxe.
#   RDMA    empty (the system's rdma-core), an rdma-core install prefix
#           (PREFIX/lib/libibverbs.so.1, and the lib/pkgconfig files the
#           extension is built from), or an rdma-core source tree
#           (CMakeLists.txt), built with cmake into the cache, without
#           pyverbs or manual pages.
#
# The cache is keyed by the directories' paths: after changing a tree in
# place, remove build/lab/custom (or the entry stack.sh names) to build it
# again.  Paths with blanks are refused.
set -u

src=$(cd "$(dirname "$0")/../.." && pwd)
prog=stack.sh
die() { echo "$prog: $*" >&2; exit 1; }
[ $# -eq 2 ] || die "usage: $prog KERNEL RDMA"
kernel=$1 rdma=$2
# The paths go into sshd's SetEnv and TCLLIBPATH, which blanks split.
case $kernel$rdma in
*[[:space:]]*) die "the kernel's and rdma-core's paths must not contain blanks" ;;
esac
cache=${VERBS_LAB_CUSTOM_CACHE:-$src/build/lab/custom}
mkdir -p "$cache" || die "cannot create $cache"
cache=$(cd "$cache" && pwd)
exec 9>"$cache/.lock"
flock 9

# key PATH: a short name for PATH in the cache.
key() { printf '%s' "$1" | sha256sum | cut -c1-12; }

# The kernel: its image and config copied, its modules linked (or copied
# when the cache is on another file system), depmod run when the tree
# has no modules.dep.  The image is booted as it is (fetch-kernel.sh's
# marker says there is no vmlinux to prefer).  The stamp is written
# last: an interrupted preparation is done again.
kcache=
if [ -n "$kernel" ]; then
    [ -d "$kernel" ] || die "kernel: no directory $kernel"
    kernel=$(cd "$kernel" && pwd)
    # boot/vmlinuz-VERSION and lib/modules/VERSION, or Debian 14's
    # usr/lib/modules/VERSION holding vmlinuz and config.
    found=()
    for k in "$kernel"/boot/vmlinuz-* "$kernel"/usr/lib/modules/*/vmlinuz; do
	[ -f "$k" ] && found+=("$k")
    done
    [ ${#found[@]} -gt 0 ] ||
	die "kernel: no boot/vmlinuz-VERSION or usr/lib/modules/VERSION/vmlinuz in $kernel"
    [ ${#found[@]} -eq 1 ] ||
	die "kernel: more than one kernel in $kernel: ${found[*]#"$kernel"/}"
    image=${found[0]}
    case $image in
    */usr/lib/modules/*/vmlinuz)
	moddir=${image%/vmlinuz} ver=${moddir##*/} config=$moddir/config ;;
    *)
	ver=${image##*/vmlinuz-} moddir=$kernel/lib/modules/$ver
	config=$kernel/boot/config-$ver ;;
    esac
    [ -d "$moddir" ] || die "kernel: no lib/modules/$ver in $kernel"
    kcache=$cache/kernel-$(key "$kernel")
    if [ ! -f "$kcache/stamp" ]; then
	echo "$prog: preparing kernel $ver of $kernel in $kcache" >&2
	rm -rf "$kcache"
	mkdir -p "$kcache/boot" "$kcache/lib/modules" || die "cannot create $kcache"
	cp "$image" "$kcache/boot/vmlinuz-$ver" || die "cannot copy the kernel"
	[ -f "$config" ] && cp "$config" "$kcache/boot/config-$ver"
	cp -al "$moddir" "$kcache/lib/modules/$ver" 2>/dev/null ||
	    cp -a "$moddir" "$kcache/lib/modules/$ver" ||
	    die "cannot copy the modules of $ver"
	if [ ! -f "$kcache/lib/modules/$ver/modules.dep" ]; then
	    /sbin/depmod -b "$kcache" "$ver" || die "depmod failed for $ver"
	fi
	: >"$kcache/boot/.no-vmlinux-$ver"
	echo "$kernel" >"$kcache/stamp"
    fi
fi

# rdma-core: a prefix as it is, a source tree built once.
prefix=
if [ -n "$rdma" ]; then
    [ -d "$rdma" ] || die "rdma-core: no directory $rdma"
    rdma=$(cd "$rdma" && pwd)
    if [ -f "$rdma/lib/libibverbs.so.1" ]; then
	# The extension is built from the prefix's own pkg-config files
	# (without them, the system's rdma-core would be found instead).
	for pc in libibverbs librdmacm; do
	    [ -f "$rdma/lib/pkgconfig/$pc.pc" ] ||
		die "rdma-core: $rdma has no lib/pkgconfig/$pc.pc (an install prefix has; a build directory has not)"
	done
	prefix=$rdma
    elif [ -f "$rdma/CMakeLists.txt" ]; then
	rcache=$cache/rdma-core-$(key "$rdma")
	prefix=$rcache/install
	if [ ! -f "$rcache/stamp" ]; then
	    echo "$prog: building rdma-core of $rdma into $prefix (log: $rcache/build.log)" >&2
	    rm -rf "$rcache"
	    mkdir -p "$rcache/obj" || die "cannot create $rcache"
	    gen=()
	    command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
	    if ! (cd "$rcache/obj" &&
		cmake "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		    -DCMAKE_INSTALL_PREFIX="$prefix" -DNO_PYVERBS=1 \
		    -DNO_MAN_PAGES=1 "$rdma" &&
		cmake --build . -j "${VERBS_NEXT_JOBS:-2}" &&
		cmake --install .) >"$rcache/build.log" 2>&1; then
		tail -n 30 "$rcache/build.log" >&2
		die "building rdma-core of $rdma failed"
	    fi
	    [ -f "$prefix/lib/libibverbs.so.1" ] || die "$prefix/lib has no libibverbs.so.1"
	    rm -rf "$rcache/obj"
	    echo "$rdma" >"$rcache/stamp"
	fi
    else
	die "rdma-core: $rdma is neither a prefix (lib/libibverbs.so.1) nor a source tree (CMakeLists.txt)"
    fi
fi

# The extension: the source tree's own build for the system's rdma-core
# (make), else one of its own against the prefix.
if [ -z "$prefix" ]; then
    ext=$src
    make -s -C "$src" >&2 || die "make failed"
else
    ext=$cache/ext-$(key "$prefix")
    mkdir -p "$ext" || die "cannot create $ext"
    if [ ! -f "$ext/Makefile" ]; then
	(cd "$ext" && PKG_CONFIG_PATH=$prefix/lib/pkgconfig \
	    "$src/configure" -q --with-tcl=/usr/lib/tcl8.6) >&2 ||
	    die "configure against $prefix failed"
    fi
    make -s -C "$ext" >&2 || die "make against $prefix failed"
fi
printf '%s\n%s\n%s\n' "$kcache" "$prefix" "$ext"
