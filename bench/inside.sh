#!/bin/sh
# inside.sh -- the benchmark matrix, run inside the Soft-RoCE VM by
# bench/run.sh: verbs bursts, a plain Tcl loop, pyverbs and perftest, each
# streaming RDMA WRITEs and SENDs from rxe0 to rxe1.  Every line of the
# output has the same shape:
#   IMPL OPCODE size S count N seconds T msg_rate R mib_per_sec M
set -u
here=$(cd "$(dirname "$0")" && pwd)
tclsh=${TCLSH:-tclsh}
sizes=${BENCH_SIZES:-"64 4096"}
burst_count=${BENCH_COUNT:-20000}
loop_count=${BENCH_LOOP_COUNT:-2000}
g1=$VERBS_GID_INDEX g2=$VERBS_GID_INDEX2

# perftest reports BW in MB/sec and the message rate in Mpps; convert its
# result line into ours.
perftest() {	# perftest TOOL OPCODE SIZE COUNT
    "$1" -d rxe1 -x "$g2" -s "$3" -n "$4" -F >/dev/null 2>&1 &
    server=$!
    sleep 1
    out=$("$1" -d rxe0 -x "$g1" -s "$3" -n "$4" -F "$VERBS_IP1" 2>&1)
    wait $server
    echo "$out" | awk -v op="$2" -v n="$4" '
	$1 ~ /^[0-9]+$/ && NF >= 5 {
	    rate = $5 * 1e6
	    printf "perftest %s size %d count %d seconds %.6g msg_rate %.6g mib_per_sec %.6g\n",
		op, $1, n, (rate > 0 ? n / rate : 0), rate, rate * $1 / 1048576
	}'
}

for size in $sizes; do
    for op in write send; do
	"$tclsh" "$here/verbs_bench.tcl" -mode burst -opcode $op -size $size \
	    -count "$burst_count" rxe0 "$g1" rxe1 "$g2"
	"$tclsh" "$here/verbs_bench.tcl" -mode loop -opcode $op -size $size \
	    -count "$loop_count" rxe0 "$g1" rxe1 "$g2"
	if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import pyverbs' 2>/dev/null; then
	    /usr/bin/python3 "$here/pyverbs_write.py" --opcode $op --size $size \
		--count "$loop_count" rxe0 "$g1" rxe1 "$g2"
	fi
	if command -v ib_write_bw >/dev/null; then
	    perftest ib_${op}_bw $op $size "$burst_count"
	fi
    done
done
