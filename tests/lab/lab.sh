#!/bin/bash
# lab.sh [-n N] [-s STACK,...] [-b] [-d DIR] [-t SECONDS] [--] ?CMD ARGS...?
#
# A lab of N hosts (default 2, at most 4) on this one machine: each a qemu
# VM of tests/vm (run.sh) with its own kernel, rdma-core and Tcl, one
# Soft-RoCE device on its second NIC, and a real sshd.  The NICs share one
# Ethernet segment, qemu's multicast socket netdev on 127.0.0.1 (a UDP
# group that only this machine's loopback carries: nothing of the lab's
# traffic leaves the machine, and no root is needed).  Then CMD runs here,
# as the lab's controller, and drives the hosts over ssh exactly as it
# would drive real machines; last, the hosts are stopped.  The exit status
# is CMD's (125 when the lab could not be set up).  Without CMD, the lab
# runs its interop matrix: tclsh tests/lab/run.tcl.
#
#   -n N        hosts, named lab1 .. labN, at 198.18.0.11 .. 198.18.0.1N/24
#   -s STACKS   each host's stack, in turn, comma separated (default
#               stock,next): stock is Debian 12's (kernel 6.1,
#               rdma-core 44, Tcl 8.6), next the next lane's (forky's
#               kernel 7.2, rdma-core 65, Tcl 9.1; tests/next.sh build),
#               and KERNEL:RDMA one of the user's own (tests/lab/stack.sh:
#               KERNEL a directory with boot/vmlinuz-VERSION and
#               lib/modules/VERSION, RDMA an rdma-core install prefix or
#               source tree, either empty for Debian 12's; Tcl 8.6).
#               Such a host runs the extension's build against that
#               rdma-core (TCLLIBPATH), never a package; its
#               VERBS_LAB_STACK is "custom"
#   -b          the hosts use the build tree of their stack (TCLLIBPATH),
#               not the package.  Without -b, the hosts get the package
#               of their stack: VERBS_LAB_PACKAGES ("STACK=FILE.deb
#               ...", default: tests/deb.sh builds them, the next
#               flavour for next hosts), which the controller's
#               tests/lab/run.tcl installs on each host with dpkg -i
#   -d DIR      the lab's directory (default build/lab/run): ssh_config,
#               ssh_config.wire (the same hosts as one host reaches
#               another over the lab's wire),
#               known_hosts, hosts (name, stack, address, ssh port a
#               line), each host's console log NAME.log
#   -t SECONDS  how long the whole lab may live (default 1800)
#
# CMD gets VERBS_LAB_SSH_CONFIG (the ssh_config that names the hosts:
# `ssh -F $VERBS_LAB_SSH_CONFIG lab1 uname -r` works), VERBS_LAB_HOSTS
# (their names) and VERBS_LAB_DIR.  ssh shares one connection per host
# among its sessions (ControlMaster: a key exchange costs seconds on the
# hosts' emulated CPUs).  Each host has one 1 GiB, one-CPU VM;
# the key the controller logs in with is made once, in build/lab/key.
# OpenSSH's server comes from Debian 12's package, unpacked (not
# installed) into build/lab/sshd.
set -u

src=$(cd "$(dirname "$0")/../.." && pwd)
prog=lab.sh
die() { echo "$prog: $*" >&2; exit 125; }
usage() { die "usage: $prog [-n N] [-s STACK,...] [-b] [-d DIR] [-t SECONDS] [--] ?CMD ARGS...?"; }

n=2 stacks=stock,next dir=$src/build/lab/run life=1800
while [ $# -gt 0 ]; do
    case $1 in
    -n) [ $# -ge 2 ] || usage; n=$2; shift 2 ;;
    -s) [ $# -ge 2 ] || usage; stacks=$2; shift 2 ;;
    -b) export VERBS_LAB_BUILD=1; shift ;;
    -d) [ $# -ge 2 ] || usage; dir=$2; shift 2 ;;
    -t) [ $# -ge 2 ] || usage; life=$2; shift 2 ;;
    --) shift; break ;;
    -*) usage ;;
    *) break ;;
    esac
done
case $n in [1-4]) ;; *) die "-n: between 1 and 4 hosts, not '$n'" ;; esac
case $life in ''|*[!0-9]*) die "-t: a number of seconds, not '$life'" ;; esac
IFS=, read -r -a stack_list <<<"$stacks"
[ ${#stack_list[@]} -gt 0 ] || usage
for s in "${stack_list[@]}"; do
    case $s in stock|next|*:*) ;; *) die "-s: a stack is stock, next or KERNEL:RDMA, not '$s'" ;; esac
done
[ $# -gt 0 ] || set -- tclsh "$src/tests/lab/run.tcl"

cache=$src/build/lab
export VERBS_LAB_SRC=$src
mkdir -p "$cache" "$dir" || die "cannot create $dir"
dir=$(cd "$dir" && pwd)
case $dir in *[[:space:]]*) die "the lab's directory must not contain blanks" ;; esac

# The user's own stacks (KERNEL:RDMA), first: a bad one is refused
# before anything is fetched or booted.  custom[SPEC] is stack.sh's three
# lines: the kernel's cache, the rdma-core prefix, the extension's build.
declare -A custom
for s in "${stack_list[@]}"; do
    case $s in *:*) ;; *) continue ;; esac
    [ -n "${custom[$s]:-}" ] && continue
    out=$("$src/tests/lab/stack.sh" "${s%%:*}" "${s#*:}") ||
	die "cannot make the stack '$s' ready"
    custom[$s]=$(tail -n 3 <<<"$out")
done

# OpenSSH's server and libwrap from Debian 12's packages, unpacked once.
sshd_root=$cache/sshd/root
if [ ! -x "$sshd_root/usr/sbin/sshd" ]; then
    sh "$src/tests/deps.sh" lab || die "cannot install the packages the lab needs"
    rm -rf "$cache/sshd" && mkdir -p "$cache/sshd/debs" || die "cannot create $cache/sshd"
    (cd "$cache/sshd/debs" &&
	apt-get -q -o APT::Sandbox::User=root download openssh-server libwrap0 >&2) ||
	die "cannot download openssh-server"
    for d in "$cache"/sshd/debs/*.deb; do
	dpkg-deb -x "$d" "$cache/sshd/root.part" || die "cannot unpack $d"
    done
    mv "$cache/sshd/root.part" "$sshd_root"
fi
# The controller's key, once.
if [ ! -s "$cache/key" ]; then
    ssh-keygen -q -t ed25519 -N '' -C verbs-lab -f "$cache/key" ||
	die "cannot make the lab's key"
fi
cp "$cache/key.pub" "$dir/authorized_keys"
ln -sfn "$sshd_root/.." "$dir/sshd"

# The next stack, when a host runs it.
for s in "${stack_list[@]}"; do
    [ "$s" = next ] || continue
    next_prefix=$("$src/tests/next.sh" build | tail -n 1) ||
	die "cannot build the next stack"
    tcllib=$("$src/tests/tclpkgs.sh" tcl9.1) || die "cannot have Tcl 9.1"
    next_tclsh=$("$src/tests/tclpkgs.sh" wrap "$tcllib/../../../bin/tclsh9.1") ||
	die "cannot have Tcl 9.1"
    export VERBS_LAB_NEXT_PREFIX=$next_prefix VERBS_LAB_NEXT_TCLSH=$next_tclsh
    break
done

# The packages the hosts get (make deb: the default flavour for stock
# hosts, the next one for next hosts), unless the hosts use the build
# tree (-b) or VERBS_LAB_PACKAGES names them already.
if [ -z "${VERBS_LAB_BUILD:-}" ] && [ -z "${VERBS_LAB_PACKAGES:-}" ]; then
    packages=
    for s in $(printf '%s\n' "${stack_list[@]}" | sort -u); do
	case $s in *:*) continue ;; esac
	flavour=default
	[ "$s" = next ] && flavour=next
	f=$("$src/tests/deb.sh" "$flavour" | tail -n 1) && [ -f "$f" ] ||
	    die "make deb STACK=$flavour failed"
	packages="$packages $s=$f"
    done
    export VERBS_LAB_PACKAGES=${packages# }
fi

# free_port KIND --
#	A port of 127.0.0.1 that nothing uses now (KIND tcp or udp).
free_port() {
    local p used
    used=$(ss -Hln"${1:0:1}" 2>/dev/null | awk '{ n = split($4, a, ":"); print a[n] }')
    while :; do
	p=$((20000 + RANDOM % 30000))
	grep -qx "$p" <<<"$used" || { echo "$p"; return; }
    done
}
wire=$(free_port udp)
group=239.255.$((RANDOM % 250 + 1)).$((RANDOM % 250 + 1))

# ssh_host NAME ADDRESS PORT CONTROLPATH --
#	The ssh_config entry of the host NAME reached at ADDRESS:PORT.
ssh_host() {
    cat <<EOF
Host $1
    HostName $2
    Port $3
    User root
    IdentityFile $cache/key
    IdentitiesOnly yes
    UserKnownHostsFile $dir/known_hosts
    StrictHostKeyChecking yes
    HostKeyAlias $1
    BatchMode yes
    ControlMaster auto
    ControlPath $4
    ControlPersist 300
    ConnectTimeout 30
    ServerAliveInterval 15
    LogLevel ERROR

EOF
}

pids=() names=()
cleanup() {
    local i
    # Stop each sshd (the VM then powers off by itself), then whatever is
    # still running.
    for i in "${!names[@]}"; do
	(timeout 20 ssh -F "$dir/ssh_config" "${names[$i]}" \
	    'kill $(cat /run/lab/sshd.pid)'
	 timeout 5 ssh -F "$dir/ssh_config" -O exit "${names[$i]}") >/dev/null 2>&1 &
    done
    wait_all 60
    for i in "${!pids[@]}"; do
	kill "${pids[$i]}" 2>/dev/null
    done
}
# wait_all SECONDS --
#	Waits, at most SECONDS, for every VM to end.
wait_all() {
    local end=$((SECONDS + $1)) p alive
    while [ $SECONDS -lt $end ]; do
	alive=
	for p in "${pids[@]}"; do
	    kill -0 "$p" 2>/dev/null && alive=1
	done
	[ -n "$alive" ] || return 0
	sleep 0.5
    done
    return 1
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

: >"$dir/ssh_config"
: >"$dir/ssh_config.wire"
: >"$dir/known_hosts"
: >"$dir/hosts"
t0=$SECONDS
for i in $(seq 1 "$n"); do
    name=lab$i
    stack=${stack_list[$(((i - 1) % ${#stack_list[@]}))]}
    addr=198.18.0.$((10 + i))
    port=$(free_port tcp)
    net="-netdev user,id=u,restrict=off,hostfwd=tcp:127.0.0.1:$port-:22"
    net="$net -device virtio-net-pci,netdev=u"
    net="$net -netdev socket,id=w,mcast=$group:$wire,localaddr=127.0.0.1"
    net="$net -device virtio-net-pci,netdev=w,mac=52:54:00:00:18:$((10 + i))"
    kernel=stable kcache=${VERBS_VM_NEXT_CACHE:-$src/build/vm-next}
    [ "$stack" = next ] && kernel=next
    label=$stack custom_prefix= custom_ext=
    case $stack in
    *:*)
	{ read -r kc; read -r custom_prefix; read -r custom_ext; } <<<"${custom[$stack]}"
	[ -n "$kc" ] && kernel=next kcache=$kc
	label=custom ;;
    esac
    (VERBS_VM_CACHE=${VERBS_VM_CACHE:-$src/build/vm} VERBS_VM_KERNEL=$kernel \
	VERBS_VM_NEXT_CACHE=$kcache VERBS_VM_SMP=1 VERBS_VM_MEM=1024 \
	VERBS_VM_LAB="$addr/24 $name" VERBS_VM_NET=$net \
	VERBS_LAB_CUSTOM_PREFIX=$custom_prefix VERBS_LAB_CUSTOM_EXT=$custom_ext \
	exec "$src/tests/vm/run.sh" -t "$life" -- \
	sh "$src/tests/lab/host.sh" "$dir" "$label") >"$dir/$name.log" 2>&1 &
    pids+=($!) names+=("$name")
    echo "$name $label $addr $port" >>"$dir/hosts"
    ssh_host "$name" 127.0.0.1 "$port" "$dir/ssh-%n" >>"$dir/ssh_config"
    # The same host from another host of the lab, over the wire (a
    # suite on one host driving another: verbs::tcltest's two-host
    # fixtures).  The hosts see this directory read-only.
    ssh_host "$name" "$addr" 22 /run/lab/ssh-%n >>"$dir/ssh_config.wire"
done

# Wait until every host's sshd listens, and learn its host key.
for i in "${!names[@]}"; do
    name=${names[$i]}
    until grep -q "^lab-ready: $name" "$dir/$name.log" 2>/dev/null; do
	if ! kill -0 "${pids[$i]}" 2>/dev/null; then
	    tail -n 20 "$dir/$name.log" >&2
	    die "$name did not boot (its console: $dir/$name.log)"
	fi
	[ $((SECONDS - t0)) -lt 300 ] || die "$name did not boot in 300 s"
	sleep 0.5
    done
    key=$(sed -n 's/^lab-hostkey: //p' "$dir/$name.log" | tail -n 1)
    echo "$name $key" >>"$dir/known_hosts"
done
echo "$prog: $n hosts up in $((SECONDS - t0)) s ($(cut -d' ' -f1,2 "$dir/hosts" | paste -sd, - | sed 's/,/, /g')), ssh -F $dir/ssh_config HOST" >&2

export VERBS_LAB_SSH_CONFIG=$dir/ssh_config VERBS_LAB_DIR=$dir
export VERBS_LAB_HOSTS="${names[*]}"
"$@"
status=$?
exit "$status"
