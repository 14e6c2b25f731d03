#!/bin/sh
# inside.sh -- the benchmark matrix, run inside the Soft-RoCE VM by
# bench/run.sh: verbs bursts, plain Tcl loops, pyverbs and perftest, each
# streaming RDMA WRITEs and SENDs from rxe0 to rxe1; then ping-pong
# latency; then the memory a QP and an MR cost.  Rate lines:
#   IMPL OPCODE size S count N seconds T msg_rate R mib_per_sec M
#       depth D signal G post_list P
# (D: send WRs outstanding at most, G: one signalled completion every G
# WRs, P: WRs per post call; each shape has a perftest line run with the
# same D, G and P beside it: the bursts' (and the list loops'), the
# one-at-a-time loops' and the windowed loops').  Multi-QP lines end in "qps Q": send_burst over
# Q QP pairs at once (COUNT messages in all) and perftest -q Q.
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
# The bursts' shape (send_burst defaults on a 64-entry send queue), the
# one-at-a-time loops' and the windowed loops'.
burst_shape="64 16 16" loop_shape="1 1 1" window_shape="64 16 1"

# perftest reports BW in MB/sec and the message rate in Mpps; convert its
# result line into ours.
perftest() {	# perftest TOOL OPCODE SIZE COUNT DEPTH SIGNAL POST_LIST ?QPS?
    tool=$1 op=$2 size=$3 n=$4 d=$5 g=$6 p=$7 q=${8:-1} label=${8:+ qps $8}
    shape="-t $d --cq-mod=$g -l $p -q $q"
    # perftest now and then reports a rate of 0 under the emulated CPU: up
    # to three tries.
    for try in 1 2 3; do
	"$tool" -d rxe1 -x "$g2" -s "$size" -n "$n" -F $shape >/dev/null 2>&1 &
	server=$!
	sleep 1
	out=$("$tool" -d rxe0 -x "$g1" -s "$size" -n "$n" -F $shape \
	    "$VERBS_IP1" 2>&1)
	wait $server
	echo "$out" | awk '$1 ~ /^[0-9]+$/ && NF >= 5 && $5 > 0 {ok = 1}
	    END {exit !ok}' && break
    done
    echo "$out" | awk -v op="$op" -v n="$n" -v d=$d -v g=$g -v p=$p \
	-v q=$q -v label="$label" '
	$1 ~ /^[0-9]+$/ && NF >= 5 {
	    rate = $5 * 1e6
	    n *= q	# -n is per QP
	    printf "perftest %s size %d count %d seconds %.6g msg_rate %.6g mib_per_sec %.6g depth %d signal %d post_list %d%s\n",
		op, $1, n, (rate > 0 ? n / rate : 0), rate, rate * $1 / 1048576, d, g, p, label
	}'
}

shape() {	# shape D G P: the words that end a rate line
    echo "depth $1 signal $2 post_list $3"
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

have_perftest=
command -v ib_write_bw >/dev/null && have_perftest=1

# A verbs_bench.tcl or pyverbs_write.py line of shape D G P.
tcl_line() {	# tcl_line MODE OPCODE SIZE COUNT "D G P"
    "$tclsh" "$here/verbs_bench.tcl" -mode $1 -opcode $2 -size $3 \
	-count "$4" rxe0 "$g1" rxe1 "$g2" | sed "s/\$/ $(shape $5)/"
}
py_line() {	# py_line FLAG OPCODE SIZE COUNT "D G P" (FLAG may be "")
    [ -n "$pyverbs" ] || return 0
    /usr/bin/python3 "$here/pyverbs_write.py" $1 --opcode $2 --size $3 \
	--count "$4" rxe0 "$g1" rxe1 "$g2" | sed "s/\$/ $(shape $5)/"
}
perftest_line() {	# perftest_line OPCODE SIZE COUNT "D G P"
    [ -n "$have_perftest" ] || return 0
    perftest ib_$1_bw $1 $2 "$3" $4
}

for size in $sizes; do
    for op in write send; do
	# The bursts, and perftest at their shape.
	tcl_line burst $op $size "$burst_count" "$burst_shape"
	perftest_line $op $size "$burst_count" "$burst_shape"
	# One message at a time, waiting for each.
	tcl_line loop $op $size "$loop_count" "$loop_shape"
	tcl_line loop-dict $op $size "$loop_count" "$loop_shape"
	py_line "" $op $size "$loop_count" "$loop_shape"
	perftest_line $op $size "$burst_count" "$loop_shape"
	# One message per post, 64 outstanding, every 16th signalled.
	tcl_line window $op $size "$loop_count" "$window_shape"
	py_line --window $op $size "$loop_count" "$window_shape"
	perftest_line $op $size "$burst_count" "$window_shape"
	# The same loop posting 16 per call: the bursts' shape.
	tcl_line list $op $size "$loop_count" "$burst_shape"
	tcl_line list-dict $op $size "$loop_count" "$burst_shape"
	py_line --list $op $size "$loop_count" "$burst_shape"
    done
done

# send_burst over 1, 8 and 64 QP pairs at once (about the same number of
# messages in all: a multiple of 16 per QP, as perftest needs), and
# perftest -q beside each.  At most 1024 work requests are outstanding in
# all (depth 16 a QP for 64 QPs): more overflow the veth's receive
# backlog (1000 packets), rxe drops ACKs ("Failed sending ACK") and both
# stall.
for op in write send; do
    for q in 1 8 64; do
	each=$((burst_count / q / 16 * 16))
	d=$((1024 / q < 64 ? 1024 / q : 64))
	"$tclsh" "$here/verbs_bench.tcl" -mode burst -opcode $op \
	    -size 64 -count $((each * q)) -qps $q -depth $d \
	    rxe0 "$g1" rxe1 "$g2" |
	    sed "s/ qps $q\$//; s/\$/ $(shape $d 16 16) qps $q/"
	[ -n "$have_perftest" ] && perftest ib_${op}_bw $op 64 $each $d 16 16 $q
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
