#!/bin/bash
# run.sh [-t TIMEOUT_SECONDS] [--] CMD ARGS...
#
# Run CMD ARGS... as root inside a throwaway qemu VM that boots Debian's
# stock kernel with two Soft-RoCE devices (rxe0 on veth0, rxe1 on veth1),
# in the current directory, and exit with its status.  The VM sees the
# host's whole file system read-only (9p) with a tmpfs overlay on top, so
# anything built on the host can be run as is and nothing is written back.
#
# Exit status: the command's, or 125 if the VM never reported one (boot
# failure, kernel panic, qemu error, timeout).  See tests/vm/README.
set -eu

prog=run.sh
here=$(cd "$(dirname "$0")" && pwd)

die() { echo "$prog: $*" >&2; exit 125; }
usage() {
    echo "usage: $prog [-t TIMEOUT_SECONDS] [--] CMD ARGS..." >&2
    exit 125
}

timeout_s=${VERBS_VM_TIMEOUT:-1800}
while [ $# -gt 0 ]; do
    case $1 in
    -t) [ $# -ge 2 ] || usage; timeout_s=$2; shift 2 ;;
    -t*) timeout_s=${1#-t}; shift ;;
    -h|--help) usage ;;
    --) shift; break ;;
    -*) usage ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || usage
case $timeout_s in
''|*[!0-9]*) die "bad timeout '$timeout_s'" ;;
esac

verbose=${VERBS_VM_VERBOSE:-}
timing=${VERBS_VM_TIMING:-}
t_start=$EPOCHREALTIME

cache=${VERBS_VM_CACHE:-$PWD/build/vm}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
# The paths end up on the kernel command line, which is split at blanks.
case $cache$here in
*[[:space:]]*) die "the cache directory and $here must not contain blanks" ;;
esac

# Fetching and building are idempotent, but two runs starting at the same
# time must not both unpack into the cache.
exec 9>"$cache/.lock"
flock 9
"$here/fetch-kernel.sh" "$cache" || die "fetch-kernel.sh failed"
"$here/mkinitramfs.sh" "$cache" || die "mkinitramfs.sh failed"
exec 9>&-

kver=
for k in "$cache"/boot/vmlinuz-*; do
    [ -f "$k" ] && kver=${k##*/vmlinuz-}
done
[ -n "$kver" ] || die "no kernel in $cache/boot"
# Prefer the uncompressed image (PVH boot, saves the in-guest xz unpacking).
kernel=$cache/boot/vmlinux-$kver
[ -f "$kernel" ] || kernel=$cache/boot/vmlinuz-$kver

# Everything the guest needs to know about this run goes into a directory
# on the host root (the guest sees it through 9p, read-only).
run=$(mktemp -d "$cache/run.XXXXXX")
chmod 755 "$run"
qpid=
cleanup() {
    [ -n "$qpid" ] && kill "$qpid" 2>/dev/null && wait "$qpid" 2>/dev/null
    rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# The sentinel lines carry a random token, so output of the command that
# happens to look like them cannot be mistaken for the real thing.
nonce=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
echo "$nonce" >"$run/nonce"
echo "$cache/lib/modules/$kver" >"$run/modules"

# Single-quote a word for sh: ' becomes '\''.
q() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

# The host environment passed into the VM (guest.sh overrides the VERBS_*
# values it computes itself).
for name in $(compgen -e); do
    case $name in
    PATH|HOME|TERM|TCLLIBPATH|TCL_LIBRARY|LD_LIBRARY_PATH|LD_PRELOAD|\
    ASAN_OPTIONS|LSAN_OPTIONS|UBSAN_OPTIONS|VERBS_*|TESTFLAGS*)
        printf 'export %s=%s\n' "$name" "$(q "${!name}")" ;;
    esac
done >"$run/env.sh"

{
    printf 'cd %s || exit 125\n' "$(q "$PWD")"
    printf 'exec'
    for a in "$@"; do printf ' %s' "$(q "$a")"; done
    printf '\n'
} >"$run/cmd.sh"

accel=${VERBS_VM_ACCEL:-tcg}
cpu=()
[ "$accel" = kvm ] && cpu=(-cpu host)
append="console=ttyS0 panic=-1 mitigations=off"
if [ -n "$verbose" ]; then
    append="$append verbs.debug=1"
else
    append="$append quiet"
fi
append="$append verbs.guest=$here/guest.sh verbs.run=$run"

mkfifo "$run/console"
log=$run/console.log
# -nodefaults drops the emulated VGA, IDE, floppy and NIC (nothing to probe
# at boot); -nographic then only means "serial console on stdio".  The
# console gets no input from us: stdin is /dev/null, which also keeps qemu
# away from the terminal settings.
timeout -k 10 "$timeout_s" \
    qemu-system-x86_64 -accel "$accel" "${cpu[@]}" -m 2048 -smp 2 \
    -nodefaults -nographic -serial stdio -no-reboot -nic none \
    -kernel "$kernel" -initrd "$cache/initramfs.cpio.gz" -append "$append" \
    -fsdev local,id=r,path=/,security_model=none,readonly=on,multidevs=remap \
    -device virtio-9p-pci,fsdev=r,mount_tag=hostroot \
    </dev/null >"$run/console" 2>&1 &
qpid=$!

elapsed() { echo "$EPOCHREALTIME $t_start" | awk '{ printf "%.1f", $1 - $2 }'; }

# Relay the console.  Until the command starts, only show what matters
# (messages from init/guest.sh, qemu errors, kernel panics/oopses with
# everything after them); from then on show everything except the sentinel.
# The raw console is kept in console.log for the failure report.
state=boot status='' diag='' started=''
exec 8>"$log"
while :; do
    rc=0
    if [ "$state" = finished ]; then
        # The guest powers off right after the sentinel; if it hangs
        # instead, stop it rather than waiting for the timeout.
        IFS= read -r -t 30 line || rc=$?
        if [ $rc -gt 128 ]; then
            kill "$qpid" 2>/dev/null || true
            continue
        fi
    else
        IFS= read -r line || rc=$?
    fi
    # EOF; a last line without a newline is still processed.
    [ $rc -eq 0 ] || [ -n "$line" ] || break
    line=${line//$'\r'/}
    printf '%s\n' "$line" >&8
    case $line in
    *"VERBS-VM-START;$nonce"*)
        state=run started=1
        [ -n "$timing" ] && echo "$prog: command started after $(elapsed) s" >&2
        continue ;;
    *";$nonce")
        if [[ $line =~ ^(.*)VERBS-VM-EXIT=([0-9]+)\;$nonce$ ]]; then
            [ -n "${BASH_REMATCH[1]}" ] && printf '%s\n' "${BASH_REMATCH[1]}"
            status=${BASH_REMATCH[2]}
            state=finished
            continue
        fi ;;
    esac
    case $state in
    run|verbose) printf '%s\n' "$line" ;;
    boot)
        if [ -n "$verbose" ]; then
            printf '%s\n' "$line"
        else
            case $line in
            *"Kernel panic"*|*"Oops"*|*"BUG:"*|*"cut here"*|*"Call Trace"*)
                state=verbose
                printf '%s\n' "$line" ;;
            *verbs-vm:*)
                # (the firmware leaves "Booting from ROM.." unterminated)
                diag=1
                printf '%s\n' "verbs-vm:${line#*verbs-vm:}" ;;
            *qemu-system*|*timeout:*)
                diag=1
                printf '%s\n' "$line" ;;
            esac
        fi ;;
    finished)
        # Only a kernel panic while powering off would be worth seeing.
        case $line in
        *"Kernel panic"*|*"Oops"*|*"BUG:"*) printf '%s\n' "$line" ;;
        esac ;;
    esac
done <"$run/console"
exec 8>&-

qrc=0
wait "$qpid" || qrc=$?
qpid=
[ -n "$timing" ] && echo "$prog: total $(elapsed) s" >&2

if [ -z "$status" ]; then
    if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
        why="timeout after $timeout_s s"
    elif grep -q "Kernel panic" "$log"; then
        why="kernel panic"
    elif [ "$state" = boot ]; then
        why="the VM stopped before the command started; qemu exit status $qrc"
    else
        why="qemu exit status $qrc"
    fi
    if [ "$state" = boot ] && [ -z "$verbose" ] && [ -z "$diag" ]; then
        echo "$prog: last console lines:" >&2
        tail -n 25 "$log" | sed 's/^/  | /' >&2
    fi
    echo "$prog: the VM did not report an exit status ($why)" >&2
    exit 125
fi
if [ -z "$started" ]; then
    echo "$prog: the VM could not run the command (setup failed)" >&2
fi
exit "$status"
