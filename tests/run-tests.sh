#!/bin/bash
# run-tests.sh ?all|host|vm|demo|shell? --
#
# Runs the tcltest suite (or the demo, or a shell) from a build directory,
# where the host has an RDMA device or, without one, in the Soft-RoCE VM of
# tests/vm.  Called by make test / test-host / test-vm / demo / shell.
#
#   all   the suite on the host (without a device: the no-device tests),
#         then, without a host device (or with VERBS_VM=1), in the VM
#   host  on the host only
#   vm    in the VM only
#   demo  examples/demo.tcl on the host device or in the VM
#   shell tclsh with the package loaded (tests/vm/shell.tcl) on the host
#         device or in the VM: an interactive prompt on a terminal, else
#         the script read from stdin
#
# Environment: TCLSH, DEVICE (run on the host against this device, no VM),
# VERBS_VM=1 (use the VM even with a host device), TESTFLAGS (tcltest
# options, e.g. "-file qp.test -verbose bpse"), VERBS_LANE (a name put
# before each run's label, e.g. "next": tests/next.sh), VERBS_KNOWNBUG
# (1 by default: after the VM run, a pass of the tests marked knownBug,
# see below; 0 skips it), VERBS_KERNEL_CRASH=1 (the known kernel
# crashes, each in a boot of its own, see below).
#
# Unless VERBS_KNOWNBUG=0, the tests marked with tcltest's knownBug
# constraint (named FILE-bug-N.M) run in the VM in a pass of their own:
# bugs of the stack the suite catches that are not fixed yet.  Their
# failures are expected: they are listed by name (the test's description
# says why) on lines of their own and are not counted, and a known-bug
# test that passes is reported too (the bug may have been fixed).
#
# Kernel crashes (tests/vm): a run in which the kernel crashed in a way
# tests/vm/known-oops does not know fails, and its summary line names the
# test that was running and the crash's first line.  A VM that died
# before the command started, or a known crash outside its own test, is
# booted again (tests/vm/run.sh); the run's summary line counts the new
# boots, and only the last boot's output counts.
#
# With VERBS_KERNEL_CRASH=1 (make test-next), each test marked with the
# kernelCrash constraint (named FILE-crash-N.M: known kernel bugs that
# crash the kernel) runs in a boot of its own, with VERBS_VM_EXPECT_OOPS=1:
# the crash is listed as the known bug seen (not counted), and so is a
# plain failure; a pass is reported too (the bug may have been fixed), an
# unknown crash fails.
#
# At the end, one line per run with its own counts and what its skipped
# tests need ("host (no RDMA device): N passed, N failed, N skipped
# (...)"), then, as the very last line, "N passed, N failed, N skipped"
# summed over the runs.  The exit status is non-zero when a test failed, a
# test file did not run to its end, or the VM did not report back.
set -u

mode=${1:-all}
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(pwd)
TCLSH=${TCLSH:-tclsh}
DEVICE=${DEVICE:-}
TESTFLAGS=${TESTFLAGS:-}
logdir=$build/build/test-logs
mkdir -p "$logdir"
export TCLLIBPATH="$build"

# Does the host have a device of its own?
host_devlist=$(echo 'package require verbs; puts [verbs::devices]' |
    "$TCLSH" 2>/dev/null)
set -- $host_devlist
host_devices=$#

use_vm=0
if [ -n "$DEVICE" ]; then
    export VERBS_DEVICE=$DEVICE
elif [ "${VERBS_VM:-0}" = 1 ] || [ "$host_devices" = 0 ]; then
    use_vm=1
fi

status=0
passed=0 failed=0 skipped=0
summary=()
lane=${VERBS_LANE:+$VERBS_LANE: }
[ -n "${VERBS_LANE_INFO:-}" ] && summary+=("$lane$VERBS_LANE_INFO")

# skips LOG: "device 162, twodevices 31" from tcltest's "Number of tests
# skipped for each constraint" (all.tcl sums it over the test files).
skips() {
    awk '/^Number of tests skipped for each constraint:/ { on = 1; next }
         on && /^\t[0-9]+\t/ { n[$2] += $1; next }
         { on = 0 }
         END { for (c in n) printf "%d %s\n", n[c], c }' "$1" |
        sort -k1,1nr -k2 | awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 }'
}

# run_suite NAME LABEL NOTE CMD... : runs the suite, tees its output to a
# log, adds its counts and keeps a line "LABEL: counts (NOTE)" for the
# summary, or without a NOTE, "(by constraint: device 3, ...)" for the
# skipped tests.  A run without the tcltest summary line counts as failed.
run_suite() {
    # Write to a log of this run's own, so that runs side by side in one
    # tree do not read each other's counts; keep it as NAME.log after.
    local name=$1 label=$lane$2 note=$3 log=$logdir/$1.log.$$ rc line why
    shift 3
    echo "==== verbs tests: $name"
    "$@" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    # Only the last boot's output counts.
    local boots crash
    boots=$(grep -ac '^run.sh: boot again' "$log")
    lastBoot "$log" >"$log.last"
    crash=$(grep -a '^verbs-vm: kernel crash (unknown' "$log.last" | head -n 1)
    line=$(grep -a '^all.tcl:' "$log.last" | tail -n 1 | tr -d '\r')
    if [ -n "$crash" ] || [ -z "$line" ]; then
	why="no test summary (exit $rc)"
	[ -n "$crash" ] && why="the kernel crashed: ${crash#verbs-vm: kernel crash (unknown) during }"
	echo "run-tests.sh: the $name run failed: $why" >&2
	status=1
	failed=$((failed + 1))
	summary+=("$label: $why$(bootsNote "$boots"), counted as 1 failed")
	rm -f "$log.last"
	mv -f "$log" "$logdir/$name.log"
	return
    fi
    # all.tcl:  Total N  Passed N  Skipped N  Failed N
    set -- $line
    local p=$5 s=$7 f=$9
    [ "$rc" -eq 0 ] || status=1
    # A test file that dies part way (a Tcl error outside any test) is
    # reported by tcltest but not counted: count it as a failure.
    errors=$(grep -ac '^Test file error' "$log.last")
    if [ "$errors" -gt 0 ]; then
	echo "run-tests.sh: $errors test file(s) of the $name run ended in an error" >&2
	f=$((f + errors))
	status=1
    fi
    passed=$((passed + p)) skipped=$((skipped + s)) failed=$((failed + f))
    [ -n "$note" ] || { why=$(skips "$log.last"); note=${why:+by constraint: $why}; }
    line="$label: $p passed, $f failed, $s skipped"
    [ "$s" -gt 0 ] && [ -n "$note" ] && line="$line ($note)"
    line="$line$(bootsNote "$boots")"
    summary+=("$line")
    # Each failed test by name, so that a summary alone (a CI log's tail)
    # says which; and each test file that ended in an error.
    while IFS= read -r line; do
	summary+=("$lane  failed: $line")
    done < <(grep -a -e '^==== [^ ]* .* FAILED$' "$log.last" |
	     sed 's/^==== //; s/ FAILED$//')
    while IFS= read -r line; do
	summary+=("$lane  test file error: $line")
    done < <(grep -a '^Test file error' "$log.last")
    rm -f "$log.last"
    mv -f "$log" "$logdir/$name.log"
}

# lastBoot LOG: LOG from the last "run.sh: boot again" line on (all of it
# when there is none).
lastBoot() {
    awk '/^run.sh: boot again/ { n = NR } { l[NR] = $0 }
	 END { for (i = n + 1; i <= NR; i++) print l[i] }' "$1"
}

# bootsNote N: "; N new boots (why, ...)" for a summary line, or nothing.
bootsNote() {
    [ "$1" -gt 0 ] || return 0
    printf '; %d new boot%s (%s)' "$1" "$([ "$1" -gt 1 ] && echo s)" \
	"$(grep -a '^run.sh: boot again' "$log" | sed 's/^[^:]*: [^:]*: //' |
	   sort | uniq -c | awk '{ $1 = $1 "x"; print }' | paste -sd, - |
	   sed 's/,/, /g')"
}

vm_run() {
    sh "$src/tests/deps.sh" vm || return 125
    "$src/tests/vm/run.sh" -- env TCLLIBPATH="$build" "$@"
}

case $mode in
shell)
    if [ $use_vm = 1 ]; then
	sh "$src/tests/deps.sh" vm || exit 125
	[ -t 0 ] && echo "verbs shell: starting the Soft-RoCE VM..." >&2
	exec "$src/tests/vm/run.sh" -i -- env TCLLIBPATH="$build" \
	    "$TCLSH" "$src/tests/vm/shell.tcl"
    fi
    exec "$TCLSH" "$src/tests/vm/shell.tcl"
    ;;
demo)
    if [ $use_vm = 1 ]; then
	vm_run "$TCLSH" "$src/examples/demo.tcl"
    else
	"$TCLSH" "$src/examples/demo.tcl" ${DEVICE:+"$DEVICE"}
    fi
    exit $?
    ;;
all|host|vm) ;;
*) echo "usage: run-tests.sh ?all|host|vm|demo|shell?" >&2; exit 2 ;;
esac

vm_too=0
if [ "$mode" = vm ] || { [ "$mode" = all ] && [ $use_vm = 1 ]; }; then
    vm_too=1
    # Before the host run, whose shell.test boots the VM too (vm_run
    # reports a failure).
    sh "$src/tests/deps.sh" vm || true
fi
if [ "$mode" != vm ]; then
    if [ -n "$DEVICE" ]; then
	label="host ($DEVICE)" note=
    elif [ "$host_devices" -gt 0 ]; then
	label="host (${host_devlist// /, })" note=
    elif [ $vm_too = 1 ]; then
	label="host (no RDMA device)"
	note="tests that need a device; they run in the VM"
    else
	label="host (no RDMA device)"
	note="tests that need a device; make test-vm runs them in the VM"
    fi
    run_suite host "$label" "$note" "$TCLSH" "$src/tests/all.tcl" $TESTFLAGS
fi
if [ $vm_too = 1 ]; then
    run_suite vm "vm (rxe0, rxe1)" "" vm_run "$TCLSH" "$src/tests/all.tcl" $TESTFLAGS
fi
if [ $vm_too = 1 ] && [ "${VERBS_KNOWNBUG:-1}" = 1 ]; then
    # Only the knownBug tests: the constraint switched on, the names
    # matched (TESTFLAGS' own -file/-match still narrow it down).
    name=${VERBS_LANE:+$VERBS_LANE-}knownbug log=$logdir/$name.log.$$
    echo "==== verbs tests: $name (tests of known bugs; failures expected)"
    vm_run "$TCLSH" "$src/tests/all.tcl" -constraints knownBug \
	-match '*-bug-*' -verbose bpe $TESTFLAGS 2>&1 | tee "$log"
    # Only the last boot's output counts (tests/vm/run.sh boots again).
    lastBoot "$log" >"$log.last" && mv -f "$log.last" "$log.pass"
    line=$(grep -a '^all.tcl:' "$log.pass" | tail -n 1 | tr -d '\r')
    crash=$(grep -a '^verbs-vm: kernel crash (unknown' "$log.pass" | head -n 1)
    if [ -n "$crash" ]; then
	echo "run-tests.sh: the known-bug pass failed: the kernel crashed" >&2
	status=1 failed=$((failed + 1))
	summary+=("${lane}known bugs: the kernel crashed: ${crash#verbs-vm: kernel crash (unknown) during }, counted as 1 failed")
    elif [ -z "$line" ]; then
	echo "run-tests.sh: the known-bug pass ended without a test summary" >&2
	status=1 failed=$((failed + 1))
	summary+=("${lane}known bugs: no test summary, counted as 1 failed")
    else
	set -- $line
	summary+=("${lane}known bugs (not counted): $9 failed as expected, $5 passed (fixed?), $7 skipped")
	while IFS= read -r line; do
	    summary+=("${lane}  known bug: $line")
	done < <(grep -a '^==== [^ ]* .* FAILED$' "$log.pass" | sed 's/^==== //; s/ FAILED$//')
	while IFS= read -r line; do
	    summary+=("${lane}  known bug not seen (passed): $line")
	done < <(grep -a '^++++ .* PASSED$' "$log.pass" | sed 's/^++++ //; s/ PASSED$//')
    fi
    rm -f "$log.pass"
    mv -f "$log" "$logdir/$name.log"
fi
if [ $vm_too = 1 ] && [ "${VERBS_KERNEL_CRASH:-}" = 1 ]; then
    # Each known kernel crash in a boot of its own.  "test NAME" lines
    # of the test files whose names have "-crash-" (the constraints then
    # decide whether it runs on this stack).
    grep -o '^test [A-Za-z0-9_]*-crash-[0-9.]*' "$src"/tests/*.test |
    while IFS=: read -r file t; do
	echo "${file##*/} ${t#test }"
    done >"$logdir/crash-tests.$$"
    while read -r file t; do
	name=${VERBS_LANE:+$VERBS_LANE-}crash-$t log=$logdir/$name.log.$$
	echo "==== verbs tests: $name (a known kernel crash, in a boot of its own)"
	VERBS_VM_EXPECT_OOPS=1 vm_run "$TCLSH" "$src/tests/all.tcl" \
	    -constraints "knownBug kernelCrash" -file "$file" -match "$t" \
	    -verbose bpe </dev/null 2>&1 | tee "$log"
	crash=$(grep -a '^verbs-vm: kernel crash (' "$log" | head -n 1)
	line=$(grep -a '^all.tcl:' "$log" | tail -n 1 | tr -d '\r')
	set -- $line
	case $crash in
	*"(unknown"*)
	    failed=$((failed + 1)) status=1
	    summary+=("${lane}known kernel crash $t: another crash: ${crash#verbs-vm: kernel crash (unknown) during }, counted as 1 failed") ;;
	?*)
	    summary+=("${lane}known kernel crash (not counted): $t crashed the kernel as expected: ${crash#*) during }") ;;
	*)
	    if [ -z "$line" ]; then
		failed=$((failed + 1)) status=1
		summary+=("${lane}known kernel crash $t: no test summary, counted as 1 failed")
	    elif [ "$9" -gt 0 ]; then
		summary+=("${lane}known kernel crash (not counted): $t failed as expected without crashing the kernel this time")
	    elif [ "$5" -gt 0 ]; then
		summary+=("${lane}known kernel crash not seen (passed): $t")
	    else
		summary+=("${lane}known kernel crash $t: skipped on this stack")
	    fi ;;
	esac
	mv -f "$log" "$logdir/$name.log"
    done <"$logdir/crash-tests.$$"
    rm -f "$logdir/crash-tests.$$"
fi
[ "$failed" -eq 0 ] || status=1
[ ${#summary[@]} -eq 0 ] || printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
