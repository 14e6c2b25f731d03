#!/bin/bash
# asan.sh --
#
# Builds the extension with AddressSanitizer and UBSan in build/asan and
# runs the whole suite against it, in the Soft-RoCE VM when the host has
# no device (like make test).  tclsh itself is not instrumented, so the
# ASan runtime is preloaded.  Fails on any test failure or any sanitizer
# report in the output.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
TCLSH=${TCLSH:-tclsh}
bdir=$src/build/asan
mkdir -p "$bdir"
cd "$bdir" || exit 1
if [ ! -f Makefile ]; then
    "$src/configure" --enable-asan --with-tclsh="$(command -v "$TCLSH")" -q || exit 1
fi
make -s || exit 1

libasan=$(${CC:-gcc} -print-file-name=libasan.so)
[ -f "$libasan" ] || { echo "asan.sh: libasan not found" >&2; exit 1; }

# tclsh is started through a wrapper that preloads the runtime into it
# alone: tests/all.tcl starts its child tclsh processes through
# $VERBS_TCLSH, and the suite drops LD_PRELOAD from its environment so that
# the programs it runs (ip, make) are not instrumented.  Leak checking is
# on, with suppressions for what Tcl and the loader keep until exit.  A
# test's own preload (tests/mlx5rec.test's recorder) comes after it.
cat > "$bdir/tclsh-asan" <<WRAP
#!/bin/sh
LD_PRELOAD="$libasan\${LD_PRELOAD:+ \$LD_PRELOAD}" exec $(command -v "$TCLSH") "\$@"
WRAP
chmod +x "$bdir/tclsh-asan"
export VERBS_TCLSH=$bdir/tclsh-asan
export ASAN_OPTIONS=detect_leaks=1:exitcode=86
export LSAN_OPTIONS=suppressions=$src/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export VERBS_VM_CACHE=${VERBS_VM_CACHE:-$src/build/vm}
log=$bdir/asan.log
TCLSH=$bdir/tclsh-asan "$src/tests/run-tests.sh" all 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if grep -aqE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log"; then
    echo "asan.sh: sanitizer reports in $log" >&2
    status=1
fi
tail -n 1 "$log" | grep -q ' passed, ' || status=1
exit $status
