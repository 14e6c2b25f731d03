#!/bin/sh
# run.sh ?cpu|ctl? -- make bench: boots the Soft-RoCE VM once and runs
# bench/inside.sh there (verbs bursts, a plain Tcl loop, pyverbs and
# perftest side by side), then bench/ctl.sh (the control path: verbs, C
# and pyverbs); with ctl (make bench-ctl) only ctl.sh, with cpu (make
# bench-cpu) only cpu.sh.  Installs perftest and python3-pyverbs when they
# are missing.
# Environment: BENCH_SIZES ("64 4096"), BENCH_COUNT (20000 messages for
# bursts and perftest), BENCH_LOOP_COUNT (2000 for the per-message loops);
# ctl.sh's BENCH_CTL_* (see there; make passes BENCH_CTL_PROG, the C
# program it built); VERBS_VM_TIMEOUT, the VM's limit in seconds (default
# 1800 for cpu, 14400 with ctl.sh).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
missing=
for p in perftest python3-pyverbs; do
    dpkg-query -W -f='${Status}\n' $p 2>/dev/null | grep -q 'ok installed' ||
	missing="$missing $p"
done
if [ -n "$missing" ]; then
    sudo=
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get install -y -q --no-install-recommends $missing >&2
fi
scripts="inside.sh ctl.sh" sizes="64 4096" limit=14400
case ${1:-} in
cpu) scripts=cpu.sh sizes=64 limit=1800 ;;
ctl) scripts=ctl.sh ;;
esac
export BENCH_SIZES="${BENCH_SIZES:-$sizes}"
# The header, and a line while the VM boots (a minute or more).
what="sizes $BENCH_SIZES"
case $scripts in
ctl.sh) what="control path N ${BENCH_CTL_NS:-10 100 1000 10000}" ;;
*ctl.sh) what="$what; control path N ${BENCH_CTL_NS:-10 100 1000 10000}" ;;
esac
echo "verbs bench ($scripts): $what; $(date -u '+%Y-%m-%d %H:%M UTC');" \
    "rxe0 -> rxe1 in the Soft-RoCE VM, one boot"
echo "booting the VM ..."
set --
for s in $scripts; do
    set -- "$@" "$src/bench/$s"
done
# The scripts one after the other; the status is the last failure's.
exec "$src/tests/vm/run.sh" -t "${VERBS_VM_TIMEOUT:-$limit}" -- \
    env TCLLIBPATH="$(pwd)" TCLSH="${TCLSH:-tclsh}" \
    BENCH_SIZES="$BENCH_SIZES" BENCH_COUNT="${BENCH_COUNT:-20000}" \
    BENCH_LOOP_COUNT="${BENCH_LOOP_COUNT:-2000}" \
    BENCH_CPU_COUNT="${BENCH_CPU_COUNT:-208}" \
    BENCH_LAT_ITERS="${BENCH_LAT_ITERS:-2000}" \
    BENCH_CTL_NS="${BENCH_CTL_NS:-}" BENCH_CTL_CAPS="${BENCH_CTL_CAPS:-}" \
    BENCH_CTL_MEM_N="${BENCH_CTL_MEM_N:-}" \
    BENCH_CTL_PROG="${BENCH_CTL_PROG:-}" \
    BENCH_CTL_TIMEOUT="${BENCH_CTL_TIMEOUT:-}" \
    BENCH_CTL_CMTIME="${BENCH_CTL_CMTIME:-}" \
    BENCH_CTL_ROUNDS="${BENCH_CTL_ROUNDS:-}" \
    sh -c 'rc=0; for s; do sh "$s" || rc=$?; done; exit $rc' sh "$@"
