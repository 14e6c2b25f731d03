#!/bin/sh
# inside.sh -- the benchmark matrix, run inside the Soft-RoCE VM by
# bench/run.sh: verbs bursts, plain Tcl loops, pyverbs and perftest, each
# streaming RDMA WRITEs and SENDs from rxe0 to rxe1; then ping-pong
# latency; then the memory a QP and an MR cost.  Rate lines:
#   IMPL OPCODE size S count N seconds T msg_rate R mib_per_sec M
#       depth D signal G post_list P
# (D: send WRs outstanding at most, G: one signalled completion every G
# WRs, P: WRs per post call; perftest is run with the bursts' D, G, P).
# Latency lines (half round trips, microseconds):
#   IMPL lat_OPCODE size S iters N usec_typ T usec_avg A usec_min m
#       usec_max M usec_p99 P
# Memory lines: rss_per_qp, rss_per_mr (KiB of the Tcl process each).
set -u
here=$(cd "$(dirname "$0")" && pwd)
tclsh=${TCLSH:-tclsh}
sizes=${BENCH_SIZES:-"64 4096"}
burst_count=${BENCH_COUNT:-20000}
loop_count=${BENCH_LOOP_COUNT:-2000}
lat_iters=${BENCH_LAT_ITERS:-2000}
g1=$VERBS_GID_INDEX g2=$VERBS_GID_INDEX2
# The bursts' shape (send_burst defaults on a 64-entry send queue).
depth=64 signal=16 plist=16

# perftest reports BW in MB/sec and the message rate in Mpps; convert its
# result line into ours.
perftest() {	# perftest TOOL OPCODE SIZE COUNT
    set -- "$1" "$2" "$3" "$4" -t $depth --cq-mod=$signal -l $plist
    "$1" -d rxe1 -x "$g2" -s "$3" -n "$4" -F $5 $6 $7 $8 $9 >/dev/null 2>&1 &
    server=$!
    sleep 1
    out=$("$1" -d rxe0 -x "$g1" -s "$3" -n "$4" -F $5 $6 $7 $8 $9 \
	"$VERBS_IP1" 2>&1)
    wait $server
    echo "$out" | awk -v op="$2" -v n="$4" -v d=$depth -v g=$signal \
	-v p=$plist '
	$1 ~ /^[0-9]+$/ && NF >= 5 {
	    rate = $5 * 1e6
	    printf "perftest %s size %d count %d seconds %.6g msg_rate %.6g mib_per_sec %.6g depth %d signal %d post_list %d\n",
		op, $1, n, (rate > 0 ? n / rate : 0), rate, rate * $1 / 1048576, d, g, p
	}'
}

perftest_lat() {	# perftest_lat OPCODE SIZE ITERS
    ib_$1_lat -d rxe1 -x "$g2" -s "$2" -n "$3" -F >/dev/null 2>&1 &
    server=$!
    sleep 1
    out=$(ib_$1_lat -d rxe0 -x "$g1" -s "$2" -n "$3" -F "$VERBS_IP1" 2>&1)
    wait $server
    # bytes iters t_min t_max t_typical t_avg t_stdev p99 p99.9
    echo "$out" | awk -v op="$1" '
	$1 ~ /^[0-9]+$/ && NF >= 8 {
	    printf "perftest lat_%s size %d iters %d usec_typ %.2f usec_avg %.2f usec_min %.2f usec_max %.2f usec_p99 %.2f\n",
		op, $1, $2, $5, $6, $3, $4, $8
	}'
}

pyverbs=
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import pyverbs' 2>/dev/null; then
    pyverbs=1
fi

for size in $sizes; do
    for op in write send; do
	"$tclsh" "$here/verbs_bench.tcl" -mode burst -opcode $op -size $size \
	    -count "$burst_count" rxe0 "$g1" rxe1 "$g2" |
	    sed "s/\$/ depth $depth signal $signal post_list $plist/"
	for mode in loop loop-dict; do
	    "$tclsh" "$here/verbs_bench.tcl" -mode $mode -opcode $op \
		-size $size -count "$loop_count" rxe0 "$g1" rxe1 "$g2" |
		sed 's/$/ depth 1 signal 1 post_list 1/'
	done
	if [ -n "$pyverbs" ]; then
	    /usr/bin/python3 "$here/pyverbs_write.py" --opcode $op --size $size \
		--count "$loop_count" rxe0 "$g1" rxe1 "$g2" |
		sed 's/$/ depth 1 signal 1 post_list 1/'
	fi
	if command -v ib_write_bw >/dev/null; then
	    perftest ib_${op}_bw $op $size "$burst_count"
	fi
    done
done

# Latency: perftest's two processes; verbs-lat and verbs-lat-loop with both
# QPs in one process (one call, or a Tcl loop driving both sides in turn),
# and verbs-lat-2p with two Tcl processes; pyverbs-lat like verbs-lat-loop.
port=18600
for size in $sizes; do
    for op in send write; do
	if command -v ib_${op}_lat >/dev/null; then
	    perftest_lat $op $size "$lat_iters"
	fi
	for mode in lat loop; do
	    "$tclsh" "$here/verbs_lat.tcl" -mode $mode -opcode $op \
		-size $size -iters "$lat_iters" rxe0 "$g1" rxe1 "$g2"
	done
	port=$((port + 1))
	"$tclsh" "$here/verbs_lat.tcl" -opcode $op -size $size \
	    -iters "$lat_iters" -server $port rxe1 "$g2" >/dev/null &
	server=$!
	sleep 1
	"$tclsh" "$here/verbs_lat.tcl" -opcode $op -size $size \
	    -iters "$lat_iters" -connect "$VERBS_IP1:$port" rxe0 "$g1" |
	    sed 's/^verbs-lat /verbs-lat-2p /'
	wait $server
	if [ -n "$pyverbs" ]; then
	    /usr/bin/python3 "$here/pyverbs_write.py" --lat --opcode $op \
		--size $size --count "$lat_iters" rxe0 "$g1" rxe1 "$g2"
	fi
    done
done

"$tclsh" "$here/verbs_rss.tcl" rxe0
