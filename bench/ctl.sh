#!/bin/sh
# ctl.sh -- the control-path benchmark, run inside the Soft-RoCE VM by
# bench/run.sh (make bench, after inside.sh; make bench-ctl alone): for
# each N, verbs (bench/ctl.tcl), C (bench/ctl.c) and pyverbs
# (bench/ctl_pyverbs.py) each time N of every operation, one process an
# implementation and N; then the memory an object costs at one N; then,
# when examples/cmtime.tcl exists, rdma_cm connections timed by it and by
# librdmacm's cmtime.  Lines:
#   IMPL ctl_OP n N usec_per_op X
#   IMPL mem_OBJ n N bytes_per_obj B
# (bench/README.md, "Control path", defines each.)  Environment:
#   BENCH_CTL_NS     the values of N ("10 100 1000 10000")
#   BENCH_CTL_CAPS   OP:MAX words: OP runs only up to N = MAX
#                    ("mr_reg_1m:1000": a MiB each, the VM has 2 GiB;
#                    cm_connect may be capped too)
#   BENCH_CTL_MEM_N  N of the memory lines (1000)
#   BENCH_CTL_PROG   the C program (bench/ctl, made by make bench)
#   BENCH_CTL_TIMEOUT  seconds one process may take (3600)
#   BENCH_CTL_CMTIME the Tcl cmtime (examples/cmtime.tcl)
#   BENCH_CTL_ROUNDS the rounds (3): each round runs everything, each
#                    starting with another implementation; with more
#                    than one the lines of each round go to stderr
#                    marked "ctl.sh: round R:", and stdout gets one line
#                    each with the median of the rounds
set -u
here=$(cd "$(dirname "$0")" && pwd)
tclsh=${TCLSH:-tclsh}
ns=${BENCH_CTL_NS:-"10 100 1000 10000"}
caps=${BENCH_CTL_CAPS:-"mr_reg_1m:1000"}
mem_n=${BENCH_CTL_MEM_N:-1000}
prog=${BENCH_CTL_PROG:-$here/ctl}
limit=${BENCH_CTL_TIMEOUT:-3600}
rounds=${BENCH_CTL_ROUNDS:-3}
g1=$VERBS_GID_INDEX g2=$VERBS_GID_INDEX2
ops="ctx_open pd cq qp_create qp_to_rts qp_destroy mr_reg_4k mr_dereg
    mr_reg_1m ah tree_close"

# ctx_open keeps N contexts open, two descriptors each: as many as the
# kernel allows (fs.nr_open).
ulimit -n "$(cat /proc/sys/fs/nr_open)" 2>/dev/null || ulimit -n 65536

impls=verbs
if [ -x "$prog" ]; then
    impls="$impls c"
else
    echo "ctl.sh: no $prog (make bench builds it): no c lines" >&2
fi
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import pyverbs' 2>/dev/null; then
    impls="$impls pyverbs"
else
    echo "ctl.sh: no pyverbs for /usr/bin/python3: no pyverbs lines" >&2
fi

# capped OP N: whether BENCH_CTL_CAPS stops OP below N.
capped() {
    for cap in $caps; do
	[ "${cap%%:*}" = "$1" ] && [ "$2" -gt "${cap#*:}" ] && return 0
    done
    return 1
}

# ops_for N: the operations that run at N, separated by commas.
ops_for() {
    for op in $ops; do
	capped $op "$1" || printf '%s,' "$op"
    done
}

# run IMPL ARGS...: one process of the implementation.
run() {
    impl=$1
    shift
    set -- -d rxe0 -x "$g1" -D rxe1 -X "$g2" "$@"
    case $impl in
    verbs) timeout "$limit" "$tclsh" "$here/ctl.tcl" "$@" ;;
    c) timeout "$limit" "$prog" "$@" ;;
    pyverbs) timeout "$limit" /usr/bin/python3 "$here/ctl_pyverbs.py" "$@" ;;
    esac
    rc=$?
    [ $rc -eq 124 ] && echo "ctl.sh: $impl $* timed out after $limit s" >&2
    [ $rc -ne 0 ] && echo "ctl.sh: $impl $* exited $rc" >&2
    return 0
}

# rdma_cm connections: cmtime's client prints a table of its steps
# ("step  total ms  max ms  min us  us / conn", then one row a step, as
# "create id    :  0.39  0.22  5.00  38.50"); a connection costs the sum
# of the "total ms" of the steps from "create id" to "connect" (each step
# is taken for all connections at once), divided by N.
cm_usec() {	# cm_usec N <client's output
    awk -F: -v n="$1" '
	/^create id *:/ { on = 1 }
	on && NF >= 2 { split($2, f, " "); sum += f[1] }
	on && /^connect *:/ { on = 0; done = 1 }
	END { if (done) printf "%.2f\n", sum * 1000 / n; else exit 1 }'
}

# backlog N: the kernel's cap on a listener's pending connect requests
# (net.rdma_ucm.max_backlog, 1024 by default; cmtime and cmtime.tcl
# listen with backlog 0, which is the cap) raised to N when N is more
# and this may write it, as a server expecting N connections at once
# would be set up; it is put back at the end.  Above the cap a request
# that comes while the server is that many behind is dropped, and the
# client's CM sends it again only after its response timeout, seconds:
# the time would be the server's lag, not the connections' cost.
# (Called in this shell, not in a pipeline's subshell, so that
# backlog_was is seen at exit.)
backlog_file=/proc/sys/net/rdma_ucm/max_backlog
backlog_was=
backlog() {
    [ -r $backlog_file ] || return 0
    cur=$(cat $backlog_file)
    [ "$1" -le "$cur" ] && return 0
    if [ -w $backlog_file ] && echo "$1" >$backlog_file 2>/dev/null; then
	[ -n "$backlog_was" ] || backlog_was=$cur
    else
	echo "ctl.sh: cm_connect n $1: more than $backlog_file ($cur)," \
	    "which this cannot raise: requests beyond it wait for the" \
	    "client's CM to send them again" >&2
    fi
}

# cm IMPL N PORT CMD...: a server of CMD bound to rxe1's address, a
# client from rxe0's; the line.  (cmtime's server does not end by itself.)
cm() {
    impl=$1 n=$2 port=$3
    shift 3
    "$@" -b "$VERBS_IP1" -c "$n" -p "$port" >/dev/null 2>&1 &
    server=$!
    sleep 2
    out=$(timeout "$limit" "$@" -s "$VERBS_IP1" -b "$VERBS_IP0" -c "$n" \
	-p "$port" 2>&1)
    kill $server 2>/dev/null
    wait $server 2>/dev/null
    if usec=$(echo "$out" | cm_usec "$n"); then
	echo "$impl ctl_cm_connect n $n usec_per_op $usec"
    else
	echo "ctl.sh: $impl cm_connect n $n failed:" >&2
	echo "$out" | tail -n 5 >&2
    fi
}

# emit ROUND <lines: with one round the lines as they are; with more,
# each on stderr marked with its round, and kept for the medians.
emit() {
    if [ "$rounds" -eq 1 ]; then
	cat
    else
	while IFS= read -r line; do
	    echo "$line" >>"$tmp/lines"
	    echo "ctl.sh: round $1: $line" >&2
	done
    fi
}

# medians <lines: one line per implementation, operation and N (in the
# order they first came) with the median of the rounds' values.
medians() {
    awk '
	{
	    key = $1 " " $2 " " $3 " " $4 " " $5
	    if (!(key in cnt)) order[++k] = key
	    v[key, ++cnt[key]] = $6 + 0
	}
	END {
	    for (i = 1; i <= k; i++) {
		key = order[i]; m = cnt[key]
		for (a = 1; a <= m; a++) x[a] = v[key, a]
		for (a = 2; a <= m; a++) {
		    t = x[a]
		    for (b = a - 1; b >= 1 && x[b] > t; b--) x[b + 1] = x[b]
		    x[b + 1] = t
		}
		med = m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
		split(key, f, " ")
		printf(f[5] == "bytes_per_obj" ? "%s %.0f\n" : "%s %.2f\n", key, med)
	    }
	}'
}

# rotate K WORDS...: the words, the first K moved to the end.
rotate() {
    k=$1
    shift
    while [ "$k" -gt 0 ]; do
	first=$1
	shift
	set -- "$@" "$first"
	k=$((k - 1))
    done
    echo "$@"
}

cmtime_tcl=${BENCH_CTL_CMTIME:-$here/../examples/cmtime.tcl}
[ -f "$cmtime_tcl" ] || cmtime_tcl=
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; [ -z "$backlog_was" ] || echo "$backlog_was" >$backlog_file' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
nimpls=$(echo $impls | wc -w)
port=18700
r=1
while [ $r -le "$rounds" ]; do
    # Each round starts with another implementation, so that none is
    # always the first to run (the first of a boot, the first after the
    # others' memory is freed).
    order=$(rotate $(((r - 1) % nimpls)) $impls)
    for n in $ns; do
	list=$(ops_for "$n")
	for impl in $order; do
	    run $impl -n "$n" -o "${list%,}" | emit $r
	done
    done
    for obj in qp mr cq cmid; do
	for impl in $order; do
	    run $impl -n "$mem_n" -mem -o $obj | emit $r
	done
    done
    for n in $ns; do
	[ -n "$cmtime_tcl" ] || break
	capped cm_connect "$n" && continue
	backlog "$n"
	for impl in $order; do
	    port=$((port + 1))
	    case $impl in
	    verbs) cm verbs "$n" $port "$tclsh" "$cmtime_tcl" | emit $r ;;
	    c) command -v cmtime >/dev/null &&
		cm c "$n" $port cmtime | emit $r ;;
	    esac
	done
    done
    r=$((r + 1))
done
if [ "$rounds" -gt 1 ] && [ -s "$tmp/lines" ]; then
    echo "ctl.sh: the medians of $rounds rounds:" >&2
    medians <"$tmp/lines"
fi
