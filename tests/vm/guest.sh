#!/bin/sh
# Second stage of the Soft-RoCE test VM, started by tests/vm/init through
# switch_root as PID 1.  The root file system is the host's root (read-only
# 9p) under a tmpfs overlay, so the host's own tools and libraries are used:
# modprobe, ip, rdma, libibverbs with its rxe provider, the test binaries.
#
#   guest.sh RUNDIR
#
# RUNDIR was written by run.sh before the boot and contains
#   env.sh    exports of the whitelisted host environment
#   cmd.sh    "cd CWD && exec ARGV..." with the original quoting
#   nonce     random token that makes the exit sentinel unique to this run
#   modules   path of the unpacked kernel's modules directory on the host
#   tty       (run.sh -i on a terminal) "ROWS COLS IUTF8" of the host
#             terminal: the command runs with ttyS1, which run.sh connects
#             to that terminal, as its controlling terminal
#   stdin     (run.sh -i otherwise) the command's stdin
#   boot      "N F": the boot's number (1, then 2, ... when run.sh boots
#             again) and F: 1 to play a kernel that crashed while
#             booting, hang a boot that hangs, 0 neither (tests/vm.test)
#
# It prints "VERBS-VM-START;NONCE" just before the command and
# "VERBS-VM-EXIT=STATUS;NONCE" after it, then powers the VM off.  Being
# PID 1 we must never exit: that panics the kernel (which, with panic=-1
# and qemu's -no-reboot, still ends the VM, but without a status).
#
# Kernel crashes.  A kernel that oopsed while booting prints
# "VERBS-VM-RETRY;NONCE" instead of starting the command (run.sh boots
# again).  While the command runs, the kernel's taint flags are read once
# a second; a crash (an Oops or a BUG(): taint D) stops it (its process
# group is killed: nothing after an Oops in the same boot can be
# trusted), unless the run expects one (VERBS_VM_EXPECT_OOPS=1: then it
# has two minutes to end by itself).  After the command, when the kernel
# crashed, its report from the kernel log is printed as
# "verbs-vm: kernel crash (KIND) during TEST: FIRST LINE" and the trace,
# then "VERBS-VM-OOPS=KIND;NONCE" before the exit line.  KIND is "known"
# when a pattern of tests/vm/known-oops matches the report, else
# "unknown".  TEST is the last test that tests/common.tcl marked as
# started in the kernel log ("verbs-test: NAME (FILE)") before the report.
#
# No "set -e": whatever happens, the script has to get to the sentinel.
set -u

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# Starting a dynamically linked program costs tens of milliseconds here
# (its libraries come over 9p, and TCG translates the dynamic loader each
# time), so the simple steps use the static busybox and shell builtins.
bb=/bin/busybox
run=${1:-}
nonce=none
[ -n "$run" ] && [ -r "$run/nonce" ] && read -r nonce <"$run/nonce"
boot=1 fakecrash=0
[ -n "$run" ] && [ -r "$run/boot" ] && read -r boot fakecrash <"$run/boot"

# With verbs.debug=1 on the kernel command line (VERBS_VM_VERBOSE=1 on the
# host), report how long each setup step took.
debug=''
read -r cmdline </proc/cmdline
case " $cmdline " in *" verbs.debug=1 "*) debug=1 ;; esac
step() { [ -z "$debug" ] || echo "verbs-vm: guest.sh: $(cut -d' ' -f1 /proc/uptime) s: $*"; }
step start

# Wait until the console has sent everything (GNU stty applies settings with
# TCSADRAIN), then cut the power.  busybox's poweroff -f is a direct
# reboot(2); the sysrq path and finally exiting PID 1 are fallbacks.
finish() {
    printf '\nVERBS-VM-EXIT=%s;%s\n' "$1" "$nonce"
    stty -F /dev/console onlcr 2>/dev/null
    sleep 0.2
    sync
    $bb poweroff -f 2>/dev/null
    echo o >/proc/sysrq-trigger 2>/dev/null
    sleep 30
    exit "$1"
}

# Error messages of the setup commands go to /run/setup.log (once /run is
# mounted) and are shown, marked for run.sh to display, only on failure.
setup_failed() {
    echo "verbs-vm: guest.sh: setup failed: $*"
    [ -s /run/setup.log ] && sed 's/^/verbs-vm: | /' /run/setup.log
    dmesg 2>/dev/null | tail -n 10 | sed 's/^/verbs-vm: dmesg: /'
    finish 125
}

[ -n "$run" ] && [ -r "$run/cmd.sh" ] || setup_failed "run directory '$run' not readable"

# /dev, /proc and /sys were moved here by init.
$bb mkdir -p /dev/pts /dev/shm
$bb mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts 2>/dev/null
$bb mount -t tmpfs -o mode=1777 tmpfs /dev/shm
# The host's /run may hold stale state (pid files, sockets); start empty.
# /tmp is deliberately left alone: it is writable through the overlay, and
# the command's working directory might be below it.
$bb mount -t tmpfs -o mode=0755 tmpfs /run
exec 3>&2 2>/run/setup.log
[ -e /dev/fd ] || $bb ln -s /proc/self/fd /dev/fd

# Make the unpacked Debian kernel's modules visible where modprobe looks.
# The directory is created in the tmpfs overlay (/lib may be a symlink to
# usr/lib on the host; mkdir -p follows it inside the new root).
read -r kver </proc/sys/kernel/osrelease
read -r modsrc <"$run/modules"
$bb mkdir -p "/lib/modules/$kver" &&
    $bb mount -o bind "$modsrc" "/lib/modules/$kver" ||
    setup_failed "cannot bind $modsrc to /lib/modules/$kver"

step "modules visible"

# Index of the RoCE v2 GID that carries the IPv4 address.  rxe fills the GID
# table asynchronously after the address appears, so poll for a while.
# sysfs shows the gid as eight 16-bit groups, ::ffff:a.b.c.d being
# 0000:0000:0000:0000:0000:ffff:AABB:CCDD.
gid_index() {
    dev=$1
    old_ifs=$IFS IFS=.
    # shellcheck disable=SC2086
    set -- $2
    IFS=$old_ifs
    want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$1" "$2" "$3" "$4")
    port=/sys/class/infiniband/$dev/ports/1
    n=0
    while [ $n -lt 100 ]; do
        for g in "$port"/gids/*; do
            i=${g##*/}
            gid='' type=''
            read -r gid <"$g" 2>/dev/null
            [ "$gid" = "$want" ] || continue
            read -r type <"$port/gid_attrs/types/$i" 2>/dev/null
            [ "$type" = "RoCE v2" ] || continue
            echo "$i"
            return 0
        done
        n=$((n + 1))
        sleep 0.1
    done
    return 1
}
# port_active DEV... --
#	Waits until port 1 of each DEV is ACTIVE (or fails the setup).
port_active() {
    for dev in "$@"; do
        n=0
        state=
        until read -r state <"/sys/class/infiniband/$dev/ports/1/state" 2>/dev/null &&
              [ "${state#*ACTIVE}" != "$state" ]; do
            n=$((n + 1))
            [ $n -lt 100 ] || setup_failed "$dev port 1 never became ACTIVE"
            sleep 0.1
        done
    done
}

# A host of the lab (tests/lab/lab.sh; RUNDIR/lab is "ADDRESS/PREFIX
# NAME"): one rxe device on the lab's wire instead of the veth pair.  The
# VM's first NIC (eth0) is qemu's user network, through which the host
# reaches the VM's sshd; the second (eth1) is the wire the lab's hosts
# share.
lab=
if [ -r "$run/lab" ]; then
    read -r labnet labname <"$run/lab"
    labaddr=${labnet%/*}
    lab=1
fi

if [ -n "$lab" ]; then
    modprobe -a virtio_net rdma_rxe ib_uverbs rdma_ucm ||
        setup_failed "modprobe virtio_net rdma_rxe ib_uverbs rdma_ucm"
    step "modules loaded"
    $bb hostname "$labname"
    ip -batch - <<EOT || setup_failed "cannot configure lo/eth0/eth1"
link set lo up
link set eth0 up
addr add 10.0.2.15/24 dev eth0
route add default via 10.0.2.2
link set eth1 up
addr add $labnet dev eth1
EOT
    step "network configured"
    rdma link add rxe0 type rxe netdev eth1 || setup_failed "rdma link add rxe0"
    gid0=$(gid_index rxe0 "$labaddr") || setup_failed "no RoCE v2 GID for $labaddr on rxe0"
    port_active rxe0
    step "GID and port ready"
else
    # Every program started here is read over 9p and run under TCG, so the
    # setup below keeps the number of processes small (one modprobe, one ip).
    modprobe -a veth rdma_rxe ib_uverbs rdma_ucm ||
        setup_failed "modprobe veth rdma_rxe ib_uverbs rdma_ucm"
    step "modules loaded"

    # Network: a veth pair in the initial namespace, one rxe device on each end.
    ip link add veth0 type veth peer name veth1 || setup_failed "cannot create veth pair"
    # rxe needs the traffic between its two devices to stay on the veths (see
    # below); reverse path filtering and the ban on packets from a local source
    # address arriving from outside would drop it there.
    for i in all default veth0 veth1; do
        echo 0 >"/proc/sys/net/ipv4/conf/$i/rp_filter"
        echo 1 >"/proc/sys/net/ipv4/conf/$i/accept_local"
    done

    # Both addresses are local, so the kernel would route rxe's UDP packets from
    # one device to the other through lo, where rxe drops them (they do not
    # arrive on its netdev).  Policy routes send locally generated traffic *from*
    # one address out of the veth that leads to the other; they are consulted
    # before the "local" table, which therefore moves from priority 0 to 200.
    ip -batch - <<EOT || setup_failed "cannot configure lo/veth0/veth1 and routing"
link set lo up
addr add 198.18.0.1/24 dev veth0
addr add 198.18.0.2/24 dev veth1
link set veth0 up
link set veth1 up
rule add pref 100 from 198.18.0.2 iif lo lookup 100
route add 198.18.0.1 dev veth1 table 100
rule add pref 101 from 198.18.0.1 iif lo lookup 101
route add 198.18.0.2 dev veth0 table 101
rule add pref 200 lookup local
rule del pref 0 lookup local
EOT
    step "network configured"

    rdma link add rxe0 type rxe netdev veth0 || setup_failed "rdma link add rxe0"
    rdma link add rxe1 type rxe netdev veth1 || setup_failed "rdma link add rxe1"
    step "rxe devices added"

    gid0=$(gid_index rxe0 198.18.0.1) || setup_failed "no RoCE v2 GID for 198.18.0.1 on rxe0"
    gid1=$(gid_index rxe1 198.18.0.2) || setup_failed "no RoCE v2 GID for 198.18.0.2 on rxe1"

    # Both ports must be ACTIVE before the tests start.
    port_active rxe0 rxe1
    step "GIDs and ports ready"
fi

# The host's whitelisted environment first, then what the guest knows
# better (device names and GID indexes always come from here).
. "$run/env.sh"
export VERBS_VM=1 VERBS_VM_BOOT="$boot"
export VERBS_DEVICE=rxe0 VERBS_PORT=1 VERBS_GID_INDEX="$gid0"
if [ -n "$lab" ]; then
    export VERBS_IP0="$labaddr" VERBS_LAB_HOST="$labname"
    unset VERBS_DEVICE2 VERBS_GID_INDEX2 VERBS_IP1
else
    export VERBS_DEVICE2=rxe1 VERBS_GID_INDEX2="$gid1"
    export VERBS_IP0=198.18.0.1 VERBS_IP1=198.18.0.2
fi

# The lines that start the report of a kernel crash (an Oops or BUG()),
# in the kernel log without its "[   12.345678] " stamps; and the report:
# from the first such line to the end of its trace, on stdout.  A crash
# is what sets the taint flag D (fatal_taint); other "BUG:" lines (a
# sleeping function called from an invalid context, a soft lockup, which
# the emulator's stalls can cause) are warnings, listed after the command.
CRASH_START='^(BUG: unable to handle|BUG: kernel NULL pointer|kernel BUG at |Oops: |general protection fault)'
crash_report() {
    dmesg 2>/dev/null | $bb awk -v start="$CRASH_START" '
        { line = $0; sub(/^\[[ 0-9.]*\] /, "", line) }
        !on && line ~ start { on = 1 }
        on { print line; n++ }
        on && (line ~ /---\[ end trace/ || n >= 60) { exit }'
}
# (Not with the shell's read: it reads a byte at a time, and a sysctl
# file answers a read at an offset past 0 with end of file.)
fatal_taint() {
    t=$($bb cat /proc/sys/kernel/tainted 2>/dev/null)
    [ $(( ${t:-0} & 128 )) -ne 0 ]
}

# A kernel that oopsed while booting (it happens under TCG) runs nothing:
# run.sh boots again.  (With a 1 after the boot's number in RUNDIR/boot,
# the harness's own tests make this boot play such a kernel: a report
# line in the log and the taint flag D.)
if [ "$fakecrash" = 1 ]; then
    echo "<1>BUG: unable to handle page fault (a crash while booting, played by tests/vm.test)" >/dev/kmsg
    echo 128 >/proc/sys/kernel/tainted
elif [ "$fakecrash" = hang ]; then
    # A boot that hangs, silently, played by tests/vm.test.
    while :; do $bb sleep 60; done
fi
if fatal_taint; then
    # (A moment for the kernel's own lines to leave the console, so that
    # none lands inside the sentinel.)
    $bb sleep 1
    echo "verbs-vm: the kernel crashed while booting; run.sh boots again:"
    crash_report | $bb head -n 12 | $bb sed 's/^/verbs-vm: | /'
    printf '\nVERBS-VM-RETRY;%s\n' "$nonce"
    finish 125
fi

# Keep the kernel quiet on the console while the command runs (panics and
# oopses still get through: the kernel raises the level for those itself),
# and report new warnings from the log afterwards instead.  The test files
# mark each test's start in the log (tests/common.tcl), as many as they
# like: writes to /dev/kmsg are not rate limited here.
dmesg -n 1 2>/dev/null
dmesg -C 2>/dev/null
echo on >/proc/sys/kernel/printk_devkmsg 2>/dev/null

# An interactive run (run.sh -i on a terminal): the command's terminal is
# ttyS1, which run.sh connects to the host terminal once it sees the start
# sentinel, so nothing arrives before the port is set up.  fd 4 holds it
# open (the window size only lives while it is open); the line discipline
# echoes, edits lines and turns Ctrl-C into SIGINT; the window size and
# iutf8 (erasing a multibyte character) are those of the host terminal.
# ("command": a failing redirection of exec itself would end PID 1.)
tty=
if [ -r "$run/tty" ] && command exec 4<>/dev/ttyS1; then
    tty=/dev/ttyS1
    read -r rows cols utf8 <"$run/tty"
    $bb stty "${utf8:--iutf8}" <&4
    [ "${rows:-0}" -gt 0 ] && [ "${cols:-0}" -gt 0 ] &&
        $bb stty rows "$rows" cols "$cols" <&4
    export TERM="${TERM:-vt100}"
elif [ -r "$run/tty" ]; then
    setup_failed "cannot open /dev/ttyS1"
fi

exec 2>&3 3>&-
printf 'VERBS-VM-START;%s\n' "$nonce"
if [ -n "$tty" ]; then
    # A session of its own with ttyS1 as the controlling terminal.  Its
    # leader is a shell that outlives the command: when the leader exits,
    # the kernel hangs the terminal up and drops output not yet sent.  So
    # it waits for the command (Ctrl-C reaches the command; the leader
    # only ends the "^C" line), lets the output drain (stty sets the
    # terminal with TCSADRAIN), and then exits with the command's status.
    # shellcheck disable=SC2016
    $bb setsid -c $bb sh -c '
        trap : INT
        sh "$2"
        status=$?
        [ "$status" -eq 130 ] && echo
        "$1" stty echo
        exit "$status"' sh "$bb" "$run/cmd.sh" <&4 >&4 2>&4 4>&-
    status=$?
    exec 4>&-
else
    # In a session of its own (busybox setsid: a background child of this
    # shell is no group leader, so it calls setsid(2) without forking and
    # $! is the session's leader), so that one kill reaches every process
    # the command started.  A zombie is not alive.
    input=/dev/null
    [ -r "$run/stdin" ] && input=$run/stdin
    $bb setsid sh "$run/cmd.sh" <"$input" &
    cmd=$!
    alive() {
        st=''
        [ -e "/proc/$1/stat" ] && read -r st 2>/dev/null <"/proc/$1/stat" ||
            return 1
        st=${st##*) }
        [ "${st%% *}" != Z ]
    }
    # After a crash the command is stopped at once, or with
    # VERBS_VM_EXPECT_OOPS=1 (a known crash's own test) given two minutes
    # to end by itself; then at most ten seconds to go (a process the
    # crash left in uninterruptible sleep never does).
    grace=-1 status=''
    while alive "$cmd"; do
        if [ "$grace" -lt 0 ] && fatal_taint; then
            grace=0
            [ "${VERBS_VM_EXPECT_OOPS:-}" = 1 ] && grace=120
        fi
        if [ "$grace" -eq 0 ]; then
            # The trace takes a moment to reach the log.
            $bb sleep 2
            echo "verbs-vm: the kernel crashed: the command is stopped"
            $bb kill -9 -- "-$cmd" 2>/dev/null || $bb kill -9 "$cmd"
            n=0
            while alive "$cmd" && [ $n -lt 10 ]; do
                $bb sleep 1
                n=$((n + 1))
            done
            alive "$cmd" && status=137
            break
        fi
        [ "$grace" -gt 0 ] && grace=$((grace - 1))
        $bb sleep 1
    done
    if [ -z "$status" ]; then
        wait "$cmd"
        status=$?
    fi
fi

# After a crash the kernel writes everything to the console: quiet it
# again, and let the trace settle, before the report and the sentinels.
if fatal_taint; then
    dmesg -n 1 2>/dev/null
    $bb sleep 2
fi

# A crash: where, and whether it is a known one.
report=''
fatal_taint && report=$(crash_report)
if fatal_taint; then
    [ -n "$report" ] || report="(no report in the kernel log)"
    first=$(printf '%s\n' "$report" | $bb head -n 1)
    # The last test marked as started before the report.
    test=$(dmesg 2>/dev/null | $bb awk -v start="$CRASH_START" '
        { line = $0; sub(/^\[[ 0-9.]*\] /, "", line) }
        line ~ /^verbs-test: / { t = substr(line, 13) }
        line ~ start { exit }
        END { print (t == "" ? "no test (none had started)" : t) }')
    kind=unknown note=''
    joined=$(printf '%s\n' "$report" | $bb tr '\n' ' ')
    known=$($bb dirname "$0")/known-oops
    if [ -r "$known" ]; then
        while IFS='|' read -r pat why; do
            case $pat in ''|'#'*) continue ;; esac
            # shellcheck disable=SC2254
            case $joined in *$pat*) kind=known note=$why; break ;; esac
        done <"$known"
    fi
    echo "verbs-vm: kernel crash ($kind${note:+: $note}) during $test: $first"
    printf '%s\n' "$report" | $bb sed 's/^/verbs-vm: | /'
    printf '\nVERBS-VM-OOPS=%s;%s\n' "$kind" "$nonce"
fi

# Warnings in expected-warnings (next to this script) are marked as such.
warn=$(dmesg --level=emerg,alert,crit,err,warn 2>/dev/null)
if [ -n "$warn" ]; then
    echo "verbs-vm: kernel warnings during the command:"
    expected=$($bb dirname "$0")/expected-warnings
    echo "$warn" | while IFS= read -r line; do
        note=
        if [ -r "$expected" ]; then
            while IFS='|' read -r pat why; do
                case $pat in ''|'#'*) continue ;; esac
                # shellcheck disable=SC2254
                case $line in *$pat*) note=" (expected: $why)"; break ;; esac
            done <"$expected"
        fi
        echo "verbs-vm: dmesg: $line$note"
    done
fi
finish "$status"
