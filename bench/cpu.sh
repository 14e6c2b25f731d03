#!/bin/sh
# cpu.sh -- make bench-cpu: instructions per message under callgrind, run
# inside the Soft-RoCE VM by bench/run.sh.  Each implementation sends N and
# then 2N messages under valgrind --tool=callgrind; the difference of the
# two instruction counts divided by N is the cost of one message in the
# sending process's user space (set-up, start-up and teardown cancel out).
# Every line of the output has the same shape:
#   IMPL OPCODE size S instr_per_msg I count N depth D signal G post_list P
# and the lines of verbs end in "tcl VERSION", the patchlevel of TCLSH
# (make bench-cpu passes the build's: in build/tcl9-ext, say, Tcl 9.0's;
# a tclsh that is a wrapper script is followed into the program it runs).
# and each shape (the bursts', the one-at-a-time loops', the windowed
# loops') has a perftest line beside it run with the same D, G and P.
# BENCH_CPU_COUNT (N, default 208, a multiple of 16) and BENCH_SIZES set the runs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tclsh=${TCLSH:-tclsh}
sizes=${BENCH_SIZES:-64}
n=${BENCH_CPU_COUNT:-208}
if [ $((n % 16)) -ne 0 ]; then
    echo "cpu.sh: BENCH_CPU_COUNT must be a multiple of 16 (the windowed loops signal every 16th)" >&2
    exit 2
fi
g1=$VERBS_GID_INDEX g2=$VERBS_GID_INDEX2
tmp=$(mktemp -d)

# instr CMD...: the instructions callgrind counted in CMD (its own process).
instr() {
    # Every process's count, summed: a wrapper's shell before its exec
    # counts the same in both runs, and cancels out.
    valgrind --tool=callgrind --trace-children=yes \
	--callgrind-out-file="$tmp/cg.%p.out" "$@" \
	>"$tmp/out" 2>"$tmp/err" || { cat "$tmp/out" "$tmp/err" >&2; echo 0; return; }
    sed -n 's/^==[0-9]*== Collected : \([0-9]*\).*/\1/p' "$tmp/err" |
	awk '{sum += $1} END {print sum + 0}'
}

# per IMPL OPCODE SIZE "D G P" CMD-with-@N@: run CMD with N and 2N, print
# the line.
per() {
    impl=$1 op=$2 size=$3 shape=$4
    shift 4
    c1=$(instr $(echo "$@" | sed "s/@N@/$n/g"))
    c2=$(instr $(echo "$@" | sed "s/@N@/$((2 * n))/g"))
    set -- $shape
    echo "$impl $op size $size instr_per_msg $(( (c2 - c1) / n )) count $n" \
	"depth $1 signal $2 post_list $3"
}

# A perftest client of shape D G P under callgrind against a plain server
# on rxe1.
perftest_client() {	# perftest_client TOOL SIZE COUNT D G P
    shape="-t $4 --cq-mod=$5 -l $6"
    "$1" -d rxe1 -x "$g2" -s "$2" -n "$3" -F $shape >/dev/null 2>&1 &
    server=$!
    sleep 1
    instr "$1" -d rxe0 -x "$g1" -s "$2" -n "$3" -F $shape "$VERBS_IP1"
    wait $server
}

# perftest's start-up busy-waits (its TCP handshake, the server), so its
# count varies by up to a few hundred thousand instructions from run to
# run: it sends pn = 16 N and 32 N messages, to make that noise small
# per message.
pn=$((16 * n))
perftest_per() {	# perftest_per OPCODE SIZE "D G P"
    if command -v ib_$1_bw >/dev/null; then
	c1=$(perftest_client ib_$1_bw $2 $pn $3)
	c2=$(perftest_client ib_$1_bw $2 $((2 * pn)) $3)
	set -- "$1" "$2" $3
	echo "perftest $1 size $2 instr_per_msg $(( (c2 - c1) / pn )) count $pn" \
	    "depth $3 signal $4 post_list $5"
    fi
}

# tcl MODE OPCODE SIZE "D G P", py FLAG ...: the lines of verbs_bench.tcl
# and pyverbs_write.py.
tclver=$(echo 'puts [info patchlevel]' | "$tclsh")
tcl() {
    per verbs-$1 $2 $3 "$4" "$tclsh" "$here/verbs_bench.tcl" -mode $1 \
	-opcode $2 -size $3 -count @N@ rxe0 $g1 rxe1 $g2 | sed "s/\$/ tcl $tclver/"
}
py() {
    per pyverbs${1:+-${1#--}} $2 $3 "$4" /usr/bin/python3 \
	"$here/pyverbs_write.py" $1 --opcode $2 --size $3 --count @N@ \
	rxe0 $g1 rxe1 $g2
}

burst_shape="64 16 16" loop_shape="1 1 1" window_shape="64 16 1"
for size in $sizes; do
    for op in send write; do
	perftest_per $op $size "$burst_shape"
	tcl burst $op $size "$burst_shape"
	tcl list $op $size "$burst_shape"
	tcl list-dict $op $size "$burst_shape"
	tcl list-dict-check $op $size "$burst_shape"
	py --list $op $size "$burst_shape"
	perftest_per $op $size "$loop_shape"
	tcl loop $op $size "$loop_shape"
	tcl loop-dict $op $size "$loop_shape"
	py "" $op $size "$loop_shape"
	perftest_per $op $size "$window_shape"
	tcl window $op $size "$window_shape"
	py --window $op $size "$window_shape"
    done
done
rm -rf "$tmp"
