#!/bin/sh
# by_function.sh TCLSH ?ARG ...? -- run inside the Soft-RoCE VM:
#	a loop of bench/verbs_bench.tcl under callgrind with N and 2N
#	messages, and the difference per message, by function (self cost):
#	where a message's instructions go, start-up cancelled out.  TCLSH
#	(with any arguments before the script: a dynamic loader and its
#	options, say) runs the script; TCLLIBPATH must find the package.
#	Environment: BENCH_MODE (window), BENCH_OPCODE (write), BENCH_CPU_COUNT
#	(N, 208).  For example, from the source tree:
#	  tests/vm/run.sh -- env TCLLIBPATH=$PWD sh bench/by_function.sh tclsh
set -u
here=$(cd "$(dirname "$0")" && pwd)
n=${BENCH_CPU_COUNT:-208}
mode=${BENCH_MODE:-window} op=${BENCH_OPCODE:-write}
tmp=$(mktemp -d)
for count in $n $((2 * n)); do
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$count" "$@" \
	"$here/verbs_bench.tcl" -mode "$mode" -opcode "$op" -size 64 \
	-count $count rxe0 "$VERBS_GID_INDEX" rxe1 "$VERBS_GID_INDEX2" \
	>/dev/null 2>"$tmp/err.$count" || { cat "$tmp/err.$count" >&2; exit 1; }
    sed -n 's/^==[0-9]*== Collected : \([0-9]*\).*/\1/p' "$tmp/err.$count" \
	>"$tmp/total.$count"
    # "COST FILE:FUNCTION [OBJECT]" lines, the cost without its commas.
    callgrind_annotate --threshold=100 "$tmp/cg.$count" 2>/dev/null |
	sed -n '/file:function/,$p' |
	sed -n 's/^ *\([0-9,][0-9,]*\) ([^)]*) *\(.*\)$/\1 \2/p' |
	sed 's/,//g' >"$tmp/fn.$count"
done
echo "verbs-$mode $op: $(( ($(cat "$tmp/total.$((2 * n))") - $(cat "$tmp/total.$n")) / n )) instructions a message (N $n); by function:"
awk -v n=$n 'FNR == NR {c = $1; $1 = ""; a[$0] = c; next}
    {c = $1; $1 = ""; d = (c - a[$0]) / n; if (d >= 5 || d <= -5) printf "%8.0f%s\n", d, $0}' \
    "$tmp/fn.$n" "$tmp/fn.$((2 * n))" | sort -rn
rm -rf "$tmp"
