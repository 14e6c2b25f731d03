#!/bin/bash
# run.sh [-i] [-t TIMEOUT_SECONDS] [--] CMD ARGS...
#
# Run CMD ARGS... as root inside a throwaway qemu VM that boots Debian's
# stock kernel with two Soft-RoCE devices (rxe0 on veth0, rxe1 on veth1),
# in the current directory, and exit with its status.  The VM sees the
# host's whole file system read-only (9p) with a tmpfs overlay on top, so
# anything built on the host can be run as is and nothing is written back.
#
# CMD's stdin is /dev/null, or with -i run.sh's own stdin: a terminal
# becomes CMD's controlling terminal (the VM's second serial port, no
# timeout unless -t is given), anything else is read to its end before the
# boot and fed to CMD.
#
# Exit status: the command's, or 125 if the VM never reported one (boot
# failure, kernel panic, qemu error, timeout) or the kernel crashed while
# the command ran (an Oops, BUG or soft lockup that tests/vm/known-oops
# does not know; guest.sh reports it and names the test).
#
# Boots again, up to VERBS_VM_BOOT_RETRIES times (default 2), when the VM
# died before the command started (the emulated machine's failure, not a
# result), when the kernel crashed while booting, and when a known kernel
# bug crashed it during the command (unless VERBS_VM_EXPECT_OOPS=1: a run
# of a known crash's own test), and when the console stays silent for
# VERBS_VM_BOOT_TIMEOUT seconds (default 300) before the command starts
# (a boot that hangs).  Each new boot is announced on stderr by a
# line starting "run.sh: boot again"; a terminal session is never booted
# again.  The command sees the boot's number as VERBS_VM_BOOT.  See
# tests/vm/README.
set -eu

prog=run.sh
here=$(cd "$(dirname "$0")" && pwd)

die() { echo "$prog: $*" >&2; exit 125; }
usage() {
    echo "usage: $prog [-i] [-t TIMEOUT_SECONDS] [--] CMD ARGS..." >&2
    exit 125
}

timeout_s=${VERBS_VM_TIMEOUT:-1800}
timeout_set='' input=''
while [ $# -gt 0 ]; do
    case $1 in
    -i) input=stdin; shift ;;
    -t) [ $# -ge 2 ] || usage; timeout_s=$2 timeout_set=1; shift 2 ;;
    -t*) timeout_s=${1#-t} timeout_set=1; shift ;;
    -h|--help) usage ;;
    --) shift; break ;;
    -*) usage ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || usage
# -i on a terminal: an interactive session, which no timeout cuts short.
if [ "$input" = stdin ] && [ -t 0 ]; then
    input=tty
    [ -n "$timeout_set" ] || timeout_s=0
fi
case $timeout_s in
''|*[!0-9]*) die "bad timeout '$timeout_s'" ;;
esac

run='' qpid='' inpid='' outpid='' saved_tty=''
cleanup() {
    [ -n "$inpid" ] && kill "$inpid" 2>/dev/null
    [ -n "$outpid" ] && kill "$outpid" 2>/dev/null
    [ -n "$qpid" ] && kill "$qpid" 2>/dev/null && wait "$qpid" 2>/dev/null
    [ -n "$saved_tty" ] && stty "$saved_tty" <&7 2>/dev/null
    [ -n "$run" ] && rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# An interactive run: the terminal's size and iutf8 go to the guest's side
# of it.  Until the command starts, the host shows nothing of what is typed
# and keeps it (the guest echoes it then); Ctrl-C still ends run.sh.  The
# terminal stays on fd 7 (the relay loop below reads the console on stdin).
if [ "$input" = tty ]; then
    exec 7<&0
    saved_tty=$(stty -g <&7)
    size=$(stty size <&7 2>/dev/null) || size=
    utf8=-iutf8
    case " $(stty -a <&7 2>/dev/null) " in *" iutf8 "*) utf8=iutf8 ;; esac
    stty -echo <&7
fi

verbose=${VERBS_VM_VERBOSE:-}
timing=${VERBS_VM_TIMING:-}
t_start=$EPOCHREALTIME

# Which kernel: Debian 12's own (the default), or with VERBS_VM_KERNEL=next
# the newest one of Debian's newest suite (VERBS_VM_NEXT_SUITE, default
# forky), kept in a cache of its own.
case ${VERBS_VM_KERNEL:-stable} in
stable)
    suite=''
    cache=${VERBS_VM_CACHE:-$PWD/build/vm} ;;
next)
    suite=${VERBS_VM_NEXT_SUITE:-forky}
    cache=${VERBS_VM_NEXT_CACHE:-$(cd "$here/../.." && pwd)/build/vm-next} ;;
*)
    die "VERBS_VM_KERNEL must be stable or next, not '$VERBS_VM_KERNEL'" ;;
esac
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

# VERBS_VM_LOCK=FILE: wait for FILE's lock first, so that several builds
# sharing this machine boot one VM at a time (each VM uses every core).
if [ -n "${VERBS_VM_LOCK:-}" ]; then
    exec 8>>"$VERBS_VM_LOCK"
    flock 8
fi
# The paths end up on the kernel command line, which is split at blanks.
case $cache$here in
*[[:space:]]*) die "the cache directory and $here must not contain blanks" ;;
esac

# Fetching and building are idempotent, but two runs starting at the same
# time must not both unpack into the cache.
exec 9>"$cache/.lock"
flock 9
"$here/fetch-kernel.sh" "$cache" $suite || die "fetch-kernel.sh failed"
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

# What CMD reads: nothing, the terminal (its size goes along), or the
# whole of stdin, read now.
case $input in
tty)
    echo "${size:-0 0} $utf8" >"$run/tty" ;;
stdin)
    cat >"$run/stdin" || die "cannot read stdin" ;;
esac

{
    printf 'cd %s || exit 125\n' "$(q "$PWD")"
    printf 'exec'
    for a in "$@"; do printf ' %s' "$(q "$a")"; done
    printf '\n'
} >"$run/cmd.sh"

# A host of the lab (tests/lab/lab.sh): VERBS_VM_LAB="ADDRESS/PREFIX
# NAME" makes guest.sh put rxe0 on the VM's lab NIC (its second, eth1)
# with that address, instead of the veth pair; VERBS_VM_NET holds the
# qemu options of the VM's NICs (words without blanks), VERBS_VM_SMP and
# VERBS_VM_MEM its CPUs (default 2) and memory in MiB (default 2048).
[ -z "${VERBS_VM_LAB:-}" ] || echo "$VERBS_VM_LAB" >"$run/lab"
nics=(-nic none)
# shellcheck disable=SC2206
[ -z "${VERBS_VM_NET:-}" ] || nics=($VERBS_VM_NET)

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
# at boot); -nographic then only means "no display".  The console (ttyS0)
# gets no input from us: qemu's stdin is /dev/null, which also keeps qemu
# away from the terminal settings.
qemu=(qemu-system-x86_64 -accel "$accel" "${cpu[@]}"
    -m "${VERBS_VM_MEM:-2048}" -smp "${VERBS_VM_SMP:-2}"
    -nodefaults -nographic -serial stdio -no-reboot "${nics[@]}"
    -kernel "$kernel" -initrd "$cache/initramfs.cpio.gz" -append "$append"
    -fsdev local,id=r,path=/,security_model=none,readonly=on,multidevs=remap
    -device virtio-9p-pci,fsdev=r,mount_tag=hostroot)
if [ "$input" = tty ]; then
    # The terminal is a second serial port (ttyS1), which guest.sh makes
    # CMD's controlling terminal, on the fifos term.in and term.out.  One
    # cat copies term.out to our stdout from now on; another copies the
    # terminal to term.in once the command has started (see the relay
    # below), so that nothing arrives while the guest is still setting
    # the port up.
    mkfifo "$run/term.in" "$run/term.out"
    qemu+=(-chardev "pipe,id=term,path=$run/term" -serial chardev:term)
fi
elapsed() { echo "$EPOCHREALTIME $t_start" | awk '{ printf "%.1f", $1 - $2 }'; }

# boot --
#	One boot: starts qemu and relays the console until it stops.  Sets
#	status (the command's, or empty), started (the command started),
#	diag (the guest explained a failure), oops (known or unknown, from
#	guest.sh's crash report), again (guest.sh asks for a new boot) and
#	qrc (qemu's exit status).
boot() {
    local line rc state=boot
    status='' diag='' started='' oops='' again='' stuck=''
    timeout -k 10 "$timeout_s" "${qemu[@]}" \
	</dev/null >"$run/console" 2>&1 7<&- &
    qpid=$!
    if [ "$input" = tty ]; then
	cat "$run/term.out" 7<&- &
	outpid=$!
    fi

    # Relay the console.  Until the command starts, only show what matters
    # (messages from init/guest.sh, qemu errors, kernel panics/oopses with
    # everything after them); from then on show everything except the
    # sentinels.  The raw console is kept in console.log for the failure
    # report.
    exec 6>"$log"			# (fd 8 holds VERBS_VM_LOCK)
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
	elif [ -z "$started" ] && [ "$boot_timeout" -gt 0 ]; then
	    # A boot that hangs (the emulator's) is not waited for until the
	    # run's timeout: it is stopped, and run.sh boots again.
	    IFS= read -r -t "$boot_timeout" line || rc=$?
	    if [ $rc -gt 128 ]; then
		stuck=1
		kill "$qpid" 2>/dev/null || true
		continue
	    fi
	else
	    IFS= read -r line || rc=$?
	fi
	# EOF; a last line without a newline is still processed.
	[ $rc -eq 0 ] || [ -n "$line" ] || break
	line=${line//$'\r'/}
	printf '%s\n' "$line" >&6
	case $line in
	*"VERBS-VM-START;$nonce"*)
	    state=run started=1
	    [ -n "$timing" ] && echo "$prog: command started after $(elapsed) s" >&2
	    if [ "$input" = tty ]; then
		# From here every key goes to the guest as it is typed: its
		# line discipline echoes and edits lines and turns Ctrl-C
		# into SIGINT for the command (the terminal's own ISIG is
		# off).  The cat reads fd 7: a background job of bash would
		# otherwise get /dev/null as its stdin.
		stty raw -echo opost <&7
		cat <&7 >"$run/term.in" &
		inpid=$!
	    fi
	    continue ;;
	*";$nonce")
	    if [[ $line =~ ^(.*)VERBS-VM-EXIT=([0-9]+)\;$nonce$ ]]; then
		[ -n "${BASH_REMATCH[1]}" ] && printf '%s\n' "${BASH_REMATCH[1]}"
		status=${BASH_REMATCH[2]}
		state=finished
		continue
	    elif [[ $line =~ ^(.*)VERBS-VM-OOPS=([a-z]+)\;$nonce$ ]]; then
		[ -n "${BASH_REMATCH[1]}" ] && printf '%s\n' "${BASH_REMATCH[1]}"
		oops=${BASH_REMATCH[2]}
		continue
	    elif [[ $line =~ VERBS-VM-RETRY\;$nonce$ ]]; then
		again=1
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
    exec 6>&-

    qrc=0
    wait "$qpid" || qrc=$?
    qpid=
    # (guest.sh's status after a crash while booting is its own, not the
    # command's.)
    [ -z "$again" ] || status=''
}

retries=${VERBS_VM_BOOT_RETRIES:-2}
boot_timeout=${VERBS_VM_BOOT_TIMEOUT:-300}
case $retries$boot_timeout in
''|*[!0-9]*) die "bad VERBS_VM_BOOT_RETRIES '$retries' or VERBS_VM_BOOT_TIMEOUT '$boot_timeout'" ;;
esac
attempt=0
while :; do
    attempt=$((attempt + 1))
    # The boot's number (guest.sh exports it as VERBS_VM_BOOT) and, for
    # the harness's own tests (tests/vm.test), whether this boot plays a
    # kernel that crashed while booting (VERBS_VM_FAKE_BOOT_CRASH=N: the
    # first N boots) or a boot that hangs (VERBS_VM_FAKE_BOOT_HANG=N).
    fake=0
    [ "$attempt" -le "${VERBS_VM_FAKE_BOOT_HANG:-0}" ] && fake=hang
    [ "$attempt" -le "${VERBS_VM_FAKE_BOOT_CRASH:-0}" ] && fake=1
    echo "$attempt $fake" >"$run/boot"
    boot
    # Why this boot's result is not the command's.
    why=''
    if [ -n "$again" ]; then
	why="the kernel crashed while booting"
    elif [ -n "$stuck" ]; then
	why="the command had not started after $boot_timeout s"
    elif [ -z "$status" ] && [ -z "$started" ] && [ "$qrc" -ne 124 ] &&
	 [ "$qrc" -ne 137 ]; then
	why="the VM stopped before the command started (qemu exit status $qrc)"
    elif [ "$oops" = known ] && [ "${VERBS_VM_EXPECT_OOPS:-}" != 1 ]; then
	why="a known kernel bug crashed the kernel during the command"
    fi
    [ -n "$why" ] && [ "$input" != tty ] && [ "$attempt" -le "$retries" ] ||
	break
    if [ -z "$started" ] && [ -z "$verbose" ] && [ -z "$again" ]; then
	echo "$prog: last console lines:" >&2
	tail -n 12 "$log" | sed 's/^/  | /' >&2
    fi
    echo "$prog: boot again ($attempt of $retries): $why" >&2
done

if [ "$input" = tty ]; then
    # The output cat ends with qemu (if qemu never opened term.out, opening
    # it here lets the cat's own open return); the input cat would wait for
    # the next key.
    [ -z "$inpid" ] || { kill "$inpid" 2>/dev/null; wait "$inpid" 2>/dev/null; } || true
    inpid=
    : 1<>"$run/term.out"
    wait "$outpid" || true
    outpid=
    stty "$saved_tty" <&7
    saved_tty=
    exec 7<&-
fi
[ -n "$timing" ] && echo "$prog: total $(elapsed) s" >&2

if [ "$oops" = unknown ]; then
    echo "$prog: the kernel crashed while the command ran, and tests/vm/known-oops does not know the crash (the report is above)" >&2
    exit 125
fi
if [ -z "$status" ]; then
    if [ -n "$stuck" ]; then
	why="the command had not started after $boot_timeout s, $attempt times"
    elif [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	why="timeout after $timeout_s s"
    elif grep -q "Kernel panic" "$log"; then
	why="kernel panic"
    elif [ -n "$again" ]; then
	why="the kernel crashed while booting, $attempt times"
    elif [ -z "$started" ]; then
	why="the VM stopped before the command started; qemu exit status $qrc"
    else
	why="qemu exit status $qrc"
    fi
    if [ -z "$started" ] && [ -z "$verbose" ] && [ -z "$diag" ]; then
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
