#!/bin/bash
# run.sh ?normal|asan|tcl9|next? --
#
# make fuzz / make fuzz-asan: runs the fuzzer (tests/fuzz/fuzz.tcl) from a
# build directory, on the host's device (DEVICE=...) or, without one, in
# the Soft-RoCE VM of tests/vm, and saves the reproducers it prints under
# build/fuzz/ (a script per crashed, hung or sanitizer-reporting batch,
# with its stderr).  asan builds the ASan/UBSan build in build/asan first
# (as tests/asan.sh does) and runs each batch under it; tcl9 runs it under
# Tcl 9 (build/tcl9-ext, as make test-tcl9 builds it); next on the next
# lane's stack (make fuzz-next, through tests/next.sh fuzz).
#
# Settings (environment or make variables): FUZZ_CALLS, FUZZ_SEED,
# FUZZ_BATCH, FUZZ_TIMEOUT (see fuzz.tcl).  Exit status: the driver's (0
# when no crash, hang, sanitizer report or error without an errorCode).
set -u
mode=${1:-normal}
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(pwd)
TCLSH=${TCLSH:-tclsh}
out=$build/build/fuzz
mkdir -p "$out"

vars=(FUZZ_CALLS="${FUZZ_CALLS:-}" FUZZ_SEED="${FUZZ_SEED:-}"
      FUZZ_BATCH="${FUZZ_BATCH:-}" FUZZ_TIMEOUT="${FUZZ_TIMEOUT:-}" FUZZ_VERBOSE="${FUZZ_VERBOSE:-}")
lib=$build
if [ "$mode" = tcl9 ]; then
    # Tcl 9 and the extension built against it, as tests/tcl9.sh makes
    # them (Tcl 9 is built once into its cache).
    tcllib=$("$src/tests/tcl9.sh" build) || exit 1
    TCLSH=$(dirname "$tcllib")/bin/tclsh9.0
    lib=$build/build/tcl9-ext
    mkdir -p "$lib"
    (cd "$lib" && { grep -qx "TCL_BIN_DIR	= $tcllib" Makefile 2>/dev/null ||
        "$src/configure" -q --with-tcl="$tcllib"; } && make -s) || exit 1
elif [ "$mode" = next ]; then
    # The next lane (tests/next.sh fuzz has built the extension in
    # build/next-ext and set TCLSH, PATH, LD_LIBRARY_PATH and the VM's
    # kernel to that stack).
    lib=$build/build/next-ext
elif [ "$mode" = asan ]; then
    bdir=$build/build/asan
    mkdir -p "$bdir"
    (cd "$bdir" && { [ -f Makefile ] || "$src/configure" --enable-asan \
        --with-tclsh="$(command -v "$TCLSH")" -q; } && make -s) || exit 1
    libasan=$(${CC:-gcc} -print-file-name=libasan.so)
    [ -f "$libasan" ] || { echo "run.sh: libasan not found" >&2; exit 1; }
    cat > "$bdir/tclsh-asan" <<WRAP
#!/bin/sh
LD_PRELOAD=$libasan exec $(command -v "$TCLSH") "\$@"
WRAP
    chmod +x "$bdir/tclsh-asan"
    lib=$bdir
    vars+=(FUZZ_TCLSH="$bdir/tclsh-asan"
           ASAN_OPTIONS=detect_leaks=1:exitcode=86
           LSAN_OPTIONS=suppressions=$src/tests/lsan.supp:print_suppressions=0
           UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)
fi

host_devs=$(echo 'package require verbs; puts [verbs::devices]' |
    TCLLIBPATH=$lib "$TCLSH" 2>/dev/null)
cmd=(env TCLLIBPATH="$lib" "${vars[@]}" "$TCLSH" "$src/tests/fuzz/fuzz.tcl")
if [ -n "${DEVICE:-}" ] || { [ -n "$host_devs" ] && [ "${VERBS_VM:-0}" != 1 ]; }; then
    runner=("${cmd[@]}")
else
    export VERBS_VM_CACHE=${VERBS_VM_CACHE:-$src/build/vm}
    runner=("$src/tests/vm/run.sh" -t "${FUZZ_VM_TIMEOUT:-86400}" -- "${cmd[@]}")
fi

# The driver's output, with the reproducers taken out into files.
"${runner[@]}" 2>&1 | {
    file=''
    while IFS= read -r line; do
        line=${line%$'\r'}
        case $line in
        "FUZZ-REPRO-BEGIN "*)
            file=$out/${line#FUZZ-REPRO-BEGIN }; : > "$file.b64" ;;
        FUZZ-REPRO-END)
            base64 -d < "$file.b64" > "$file" && rm -f "$file.b64"
            echo "fuzz: saved $file"; file='' ;;
        *)
            if [ -n "$file" ]; then echo "$line" >> "$file.b64"
            else echo "$line"; fi ;;
        esac
    done
}
exit "${PIPESTATUS[0]}"
