#!/bin/sh
# cpu.sh -- make bench-cpu: instructions per message under callgrind, run
# inside the Soft-RoCE VM by bench/run.sh.  Each implementation sends N and
# then 2N messages under valgrind --tool=callgrind; the difference of the
# two instruction counts divided by N is the cost of one message in the
# sending process's user space (set-up, start-up and teardown cancel out).
# Every line of the output has the same shape:
#   IMPL OPCODE size S instr_per_msg I
# BENCH_CPU_COUNT (N, default 200) and BENCH_SIZES set the runs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tclsh=${TCLSH:-tclsh}
sizes=${BENCH_SIZES:-64}
n=${BENCH_CPU_COUNT:-200}
g1=$VERBS_GID_INDEX g2=$VERBS_GID_INDEX2
tmp=$(mktemp -d)

# instr CMD...: the instructions callgrind counted in CMD (its own process).
instr() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" \
	>"$tmp/out" 2>"$tmp/err" || { cat "$tmp/out" "$tmp/err" >&2; echo 0; return; }
    sed -n 's/^==[0-9]*== Collected : \([0-9]*\).*/\1/p' "$tmp/err"
}

# per IMPL OPCODE SIZE CMD-with-@N@: run CMD with N and 2N, print the line.
per() {
    impl=$1 op=$2 size=$3
    shift 3
    c1=$(instr $(echo "$@" | sed "s/@N@/$n/g"))
    c2=$(instr $(echo "$@" | sed "s/@N@/$((2 * n))/g"))
    echo "$impl $op size $size instr_per_msg $(( (c2 - c1) / n )) count $n"
}

# A perftest client under callgrind against a plain server on rxe1.
perftest_client() {	# perftest_client TOOL SIZE COUNT
    "$1" -d rxe1 -x "$g2" -s "$2" -n "$3" -F >/dev/null 2>&1 &
    server=$!
    sleep 1
    instr "$1" -d rxe0 -x "$g1" -s "$2" -n "$3" -F "$VERBS_IP1"
    wait $server
}

for size in $sizes; do
    for op in send write; do
	if command -v ib_${op}_bw >/dev/null; then
	    c1=$(perftest_client ib_${op}_bw $size $n)
	    c2=$(perftest_client ib_${op}_bw $size $((2 * n)))
	    echo "perftest $op size $size instr_per_msg $(( (c2 - c1) / n )) count $n"
	fi
	per verbs-burst $op $size "$tclsh" "$here/verbs_bench.tcl" -mode burst \
	    -opcode $op -size $size -count @N@ rxe0 $g1 rxe1 $g2
	per verbs-loop $op $size "$tclsh" "$here/verbs_bench.tcl" -mode loop \
	    -opcode $op -size $size -count @N@ rxe0 $g1 rxe1 $g2
	per verbs-loop-dict $op $size "$tclsh" "$here/verbs_bench.tcl" \
	    -mode loop-dict -opcode $op -size $size -count @N@ rxe0 $g1 rxe1 $g2
	per pyverbs $op $size /usr/bin/python3 "$here/pyverbs_write.py" \
	    --opcode $op --size $size --count @N@ rxe0 $g1 rxe1 $g2
    done
done
rm -rf "$tmp"
