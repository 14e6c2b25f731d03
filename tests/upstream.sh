#!/bin/bash
# upstream.sh ?all|default|next? --
#
# make test-upstream: rdma-core's own test suite (its tests/, the Python
# unittest suite over pyverbs) and this suite's twins of its cases
# (tests/upstream.map), in one boot of the Soft-RoCE VM per lane, against
# the same rxe devices; then one table per lane (tests/upstream.tcl):
# each upstream case, its result, its twin, the twin's result.
#
#   default  Debian 12's stack: the suite python3-pyverbs ships
#            (/usr/share/doc/rdma-core/tests, unpacked into
#            build/upstream/default) with that pyverbs (rdma-core 44)
#   next     the next lane's stack (tests/next.sh upstream, which sets up
#            its kernel, rdma-core 65 and Tcl 9 and calls this script
#            with VERBS_LANE=next): rdma-core 65's pyverbs, built once
#            with Debian's cython3 from the lane's own rdma-core tarball
#            into build/upstream/next, and that tarball's tests/
#   all      (the default) default, then next; the last line sums both
#
# A lane fails when a twin fails, or when the two disagree without a
# reason in tests/upstream.why: a case upstream passes whose twin does
# not pass (no twin, or it skips), a case upstream fails where the twin
# passes (an upstream test problem or a kernel bug upstream misses),
# any case upstream fails or errors.  A reason that explains nothing
# any more is an error too.  Each lane prints its table, a line
# "upstream (LANE): ..." with its figures, and "N passed, N failed, N
# skipped" (rows where both agree and something ran, rows that fail,
# rows where neither ran); the table is also kept in
# build/upstream/LANE/table.txt and the VM's output in
# build/test-logs/upstream-LANE.log.
set -u

src=$(cd "$(dirname "$0")/.." && pwd)
build=$(pwd)
TCLSH=${TCLSH:-tclsh}
logdir=$build/build/test-logs
mkdir -p "$logdir"
python=/usr/bin/python3

die() { echo "upstream.sh: $*" >&2; exit 1; }

# all: each lane in turn (next through next.sh, which prepares its
# stack), then the sum of their last lines.
if [ "${1:-all}" = all ]; then
    status=0 passed=0 failed=0 skipped=0
    for lane in default next; do
	log=$logdir/upstream-$lane.out.$$
	if [ $lane = default ]; then
	    "$0" default 2>&1 | tee "$log"
	else
	    "$src/tests/next.sh" upstream 2>&1 | tee "$log"
	fi
	[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
	line=$(grep -aE '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -n 1)
	if [ -z "$line" ]; then
	    echo "upstream.sh: the $lane lane ended without a summary" >&2
	    failed=$((failed + 1)) status=1
	else
	    set -- $line
	    passed=$((passed + $1)) failed=$((failed + $3)) skipped=$((skipped + $5))
	fi
	grep -a '^upstream (' "$log" >>"$logdir/upstream-sum.$$"
	rm -f "$log"
    done
    cat "$logdir/upstream-sum.$$"
    rm -f "$logdir/upstream-sum.$$"
    echo "$passed passed, $failed failed, $skipped skipped"
    exit $status
fi

lane=$1
case $lane in
default) [ "${VERBS_LANE:-}" = "" ] || die "VERBS_LANE is set: run the default lane from a plain environment" ;;
next) [ "${VERBS_LANE:-}" = next ] || die "the next lane runs through tests/next.sh upstream" ;;
*) echo "usage: upstream.sh ?all|default|next?" >&2; exit 2 ;;
esac
sh "$src/tests/deps.sh" upstream || die "cannot install the packages the run needs"
sh "$src/tests/deps.sh" vm || die "cannot install the packages the VM needs"

dir=$src/build/upstream/$lane
mkdir -p "$dir" || die "cannot create $dir"
exec 9>"$dir/.lock"
flock 9

# prepare_default --
#	The suite of Debian's python3-pyverbs, as it ships it (some files
#	gzipped, as Debian does with documentation), unpacked once per
#	version of the package.
prepare_default() {
    local ver
    ver=$(dpkg-query -W -f='${Version}' python3-pyverbs) || return 1
    [ -f "$dir/stamp" ] && [ "$(cat "$dir/stamp")" = "$ver" ] && return 0
    rm -rf "$dir/tests" "$dir/stamp"
    cp -r /usr/share/doc/rdma-core/tests "$dir/tests" &&
	gunzip -f "$dir"/tests/*.gz || return 1
    echo "$ver" >"$dir/stamp"
}

# prepare_next --
#	rdma-core 65's pyverbs, built once from the next lane's tarball with
#	the system's python3 and cython3 (the lane's own build leaves it
#	out); kept are its python/pyverbs and the tarball's tests/.  Its
#	modules find libibverbs through LD_LIBRARY_PATH, the lane's.
prepare_next() {
    local tar ver=${VERBS_NEXT_RDMA_CORE:?} b=$dir/build t=$SECONDS
    [ -f "$dir/stamp" ] && [ "$(cat "$dir/stamp")" = "$ver" ] && return 0
    tar=${VERBS_RDMA_CORE_CACHE:-$src/build/rdma-core-65}/src/rdma-core_$ver.orig.tar.gz
    [ -f "$tar" ] || { echo "upstream.sh: no $tar" >&2; return 1; }
    rm -rf "$b" "$dir/python" "$dir/tests" "$dir/stamp"
    mkdir -p "$b/obj" && tar -xzf "$tar" -C "$b" --strip-components=1 || return 1
    echo "upstream.sh: building rdma-core $ver's pyverbs (log: $dir/build.log)" >&2
    local gen=()
    command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
    if ! (cd "$b/obj" &&
	cmake "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNO_MAN_PAGES=1 \
	    -DPYTHON_EXECUTABLE="$python" .. &&
	cmake --build . -j "${VERBS_NEXT_JOBS:-2}") >"$dir/build.log" 2>&1; then
	tail -n 30 "$dir/build.log" >&2
	return 1
    fi
    [ -f "$b/obj/python/pyverbs/__init__.py" ] || return 1
    mkdir -p "$dir/python" && cp -rL "$b/obj/python/pyverbs" "$dir/python/" &&
	cp -r "$b/tests" "$dir/tests" || return 1
    rm -rf "$b"
    echo "$ver" >"$dir/stamp"
    echo "upstream.sh: pyverbs built in $((SECONDS - t)) s" >&2
}

"prepare_$lane" || die "preparing the $lane lane's upstream suite failed"
exec 9>&-

pypath=
[ "$lane" = next ] && pypath=$dir/python

# The twins: every test tests/upstream.map names (those of mlx5 cases
# skip here by their constraint).
twins=$("$TCLSH" "$src/tests/upstream.tcl" twins "$src/tests/upstream.map") ||
    die "cannot read tests/upstream.map"

# What runs in the VM: the upstream suite (one line per case), then the
# twins, each reported passed or skipped (tcltest -verbose ps; a
# failure is reported by its "==== NAME FAILED" block).
inside=$dir/inside.sh
cat >"$inside" <<EOF
echo "upstream: suite \$VERBS_DEVICE port \$VERBS_PORT gid \$VERBS_GID_INDEX"
PYTHONPATH='$pypath' $python '$src/tests/upstream.py' '$dir/tests' \\
    "\$VERBS_DEVICE" "\$VERBS_PORT" "\$VERBS_GID_INDEX"
echo "upstream: twins"
'$TCLSH' '$src/tests/all.tcl' -verbose ps -match '$twins'
EOF

log=$logdir/upstream-$lane.log
echo "==== verbs tests: upstream ($lane lane)"
"$src/tests/vm/run.sh" -- env TCLLIBPATH="$build" sh "$inside" >"$log" 2>&1
rc=$?
grep -a -e '^upstream: suite' -e '^upstream: done' -e '^all.tcl:' "$log"
[ "$rc" -eq 0 ] || echo "upstream.sh: the VM run ended with status $rc (log: $log)" >&2
"$TCLSH" "$src/tests/upstream.tcl" table "$src/tests/upstream.map" \
    "$src/tests/upstream.why" "$lane" "$log" "$dir/table.txt"
status=$?
[ "$rc" -eq 0 ] || status=1
exit $status
