#!/bin/sh
# run.sh -- make bench: boots the Soft-RoCE VM once and runs bench/inside.sh
# there (verbs bursts, a plain Tcl loop, pyverbs and perftest side by
# side).  Installs perftest and python3-pyverbs when they are missing.
# Environment: BENCH_SIZES ("64 4096"), BENCH_COUNT (20000 messages for
# bursts and perftest), BENCH_LOOP_COUNT (2000 for the per-message loops).
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
script=inside.sh sizes="64 4096"
if [ "${1:-}" = cpu ]; then
    script=cpu.sh sizes=64
fi
export BENCH_SIZES="${BENCH_SIZES:-$sizes}"
# The header, and a line while the VM boots (a minute or more).
echo "verbs bench ($script): sizes $BENCH_SIZES; $(date -u '+%Y-%m-%d %H:%M UTC');" \
    "rxe0 -> rxe1 in the Soft-RoCE VM, one boot"
echo "booting the VM ..."
exec "$src/tests/vm/run.sh" -- env TCLLIBPATH="$(pwd)" \
    BENCH_SIZES="$BENCH_SIZES" BENCH_COUNT="${BENCH_COUNT:-20000}" \
    BENCH_LOOP_COUNT="${BENCH_LOOP_COUNT:-2000}" \
    BENCH_CPU_COUNT="${BENCH_CPU_COUNT:-208}" \
    BENCH_LAT_ITERS="${BENCH_LAT_ITERS:-2000}" sh "$src/bench/$script"
