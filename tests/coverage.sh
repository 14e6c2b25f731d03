#!/bin/bash
# coverage.sh --
#
# make coverage: how much of generic/ the default lane runs.  Builds the
# extension for gcov (configure --enable-coverage, -O0) in
# build/coverage, runs the suite on the host (the tests without a
# device), then in one boot of the Soft-RoCE VM the suite and a short
# fixed-seed fuzz run (COVERAGE_FUZZ_CALLS, default 4000), and brings
# the VM's counts back: the VM sees build/coverage through its read-only
# root with a tmpfs overlay, so its processes merge their counts into
# copies of the host's .gcda files there, and the command ends by
# printing those as a base64 tarball between two marker lines.
# tests/coverage.tcl then runs gcov over them and prints a table per
# file (lines and branches run), the functions tests/coverage.hw calls
# hardware-only with what they need, and the line
#
#     coverage: lines L% branches B% (of the lines not hardware-only: H%)
#
# then "N passed, N failed, N skipped" of the suite runs.  The report is
# also kept in build/coverage/report.txt.  Exits non-zero when the VM run
# gave no counts or the suite failed.
set -u

src=$(cd "$(dirname "$0")/.." && pwd)
TCLSH=${TCLSH:-tclsh}
bdir=$src/build/coverage
calls=${COVERAGE_FUZZ_CALLS:-4000}

die() { echo "coverage.sh: $*" >&2; exit 1; }
command -v gcov >/dev/null 2>&1 || die "gcov not found (it comes with gcc)"

mkdir -p "$bdir" && cd "$bdir" || die "cannot use $bdir"
if [ ! -f Makefile ]; then
    "$src/configure" --enable-coverage \
	--with-tclsh="$(command -v "$TCLSH")" -q || die "configure failed"
fi
make -s || die "make failed"
rm -f "$bdir"/*.gcda "$bdir/vm.log" "$bdir/host.log"

# VERBS_COVERAGE: the suite knows the build is a gcov one (package-1.4e
# leaves the counters' globals alone).
export TCLLIBPATH=$bdir VERBS_COVERAGE=1
status=0

# The host: the tests that need no device.
echo "==== coverage: host"
"$TCLSH" "$src/tests/all.tcl" >"$bdir/host.log" 2>&1 || status=1
grep -a '^all.tcl:' "$bdir/host.log"

# The VM: the suite, then the fuzzer, then the counts out.
sh "$src/tests/deps.sh" vm || die "cannot install the packages the VM needs"
inside=$bdir/inside.sh
cat >"$inside" <<EOF
'$TCLSH' '$src/tests/all.tcl'
suite=\$?
env FUZZ_CALLS=$calls FUZZ_SEED=1 '$TCLSH' '$src/tests/fuzz/fuzz.tcl' \\
    >/tmp/fuzz.log 2>&1
grep '^fuzz: seed .* calls ' /tmp/fuzz.log
echo "coverage: counts follow"
cd '$bdir' && tar -czf - *.gcda | base64
echo "coverage: counts end"
exit \$suite
EOF
echo "==== coverage: vm (suite and $calls fuzz calls)"
export VERBS_VM_CACHE=${VERBS_VM_CACHE:-$src/build/vm}
"$src/tests/vm/run.sh" -- sh "$inside" >"$bdir/vm.log" 2>&1 || status=1
grep -a -e '^all.tcl:' -e '^fuzz: seed' "$bdir/vm.log"
tr -d '\r' <"$bdir/vm.log" |
    sed -n '/^coverage: counts follow$/,/^coverage: counts end$/p' |
    sed '1d;$d' | base64 -d 2>/dev/null | tar -xzf - -C "$bdir" ||
    die "the VM run gave no counts (log: $bdir/vm.log)"

"$TCLSH" "$src/tests/coverage.tcl" "$src" "$bdir" | tee "$bdir/report.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1

# The suite runs' figures, as make test's last line.
passed=0 failed=0 skipped=0
for log in "$bdir/host.log" "$bdir/vm.log"; do
    line=$(grep -a '^all.tcl:' "$log" | tail -n 1 | tr -d '\r')
    if [ -z "$line" ]; then
	failed=$((failed + 1)) status=1
	continue
    fi
    set -- $line
    passed=$((passed + $5)) skipped=$((skipped + $7)) failed=$((failed + $9))
done
[ "$failed" -eq 0 ] || status=1
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
