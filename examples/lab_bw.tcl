#!/usr/bin/env tclsh
# lab_bw.tcl ?HOST_A HOST_B? --
#
#	A lab script (verbs::lab, run on the lab's controller): perftest's
#	ib_write_bw from HOST_A to HOST_B (its server on B), then
#	rc_pingpong.tcl back from HOST_B to HOST_A (its server on A), and
#	each host's stack, its bandwidth line and its usec/iter line.  The
#	hosts are the first two of verbs::lab hosts ($env(VERBS_LAB_HOSTS))
#	unless named; the port numbers are 18700 and 18701.
#
#	Each host needs: ssh login by key (BatchMode) as ssh_config or
#	$env(VERBS_LAB_SSH_CONFIG) says, tclsh, perftest, iproute2's ss,
#	the tcl-verbs package installed (or its examples in
#	$VERBS_LAB_SRC/examples), and an RDMA device whose port 1 has a
#	RoCE v2 GID of an IPv4 address the other host reaches.

package require verbs::lab
lassign [expr {[llength $argv] ? $argv : [verbs::lab hosts]}] a b
foreach h [list $a $b] {
    set i [verbs::lab info $h]
    lassign [dict get $i devices] d v
    if {$d eq ""} {
	error "$h has no RDMA device [dict get $i error]"
    }
    set dev($h) "-d $d"
    set gid($h) [dict get $v gid_index]
    set ip($h) [dict get $v address]
    puts "$h: kernel [dict get $i kernel], rdma-core [dict get $i rdma_core],\
	Tcl [dict get $i tcl], verbs [dict get $i verbs], $d $ip($h)"
}
set bw "ib_write_bw -F -n 1000 -p 18700"
set pp {d=/usr/share/doc/tcl-verbs/examples; [ -f $d/rc_pingpong.tcl ] ||
    d=$VERBS_LAB_SRC/examples; tclsh $d/rc_pingpong.tcl -n 500 -p 18701}
verbs::lab session {
    set s [verbs::lab start $b "$bw $dev($b) -x $gid($b) & until ss -Hltn\
	'sport = :18700' | grep -q . || ! kill -0 \$!; do sleep 0.1; done;\
	echo ready; wait \$!" -wait ^ready -step ib_write_bw]
    set out [verbs::lab run $a "$bw $dev($a) -x $gid($a) $ip($b)"]
    verbs::lab wait $s
    regexp -line {^\s*\d+\s+1000\s+.*$} $out line
    puts "ib_write_bw $a -> $b: [regsub -all {\s+} [string trim $line] { }]"
    set s [verbs::lab start $a "$pp $dev($a) -g $gid($a)" -wait {listening on} \
	-step rc_pingpong.tcl]
    set out [verbs::lab run $b "$pp $dev($b) -g $gid($b) $ip($a)" -step rc_pingpong.tcl]
    verbs::lab wait $s
    regexp -line {^.*usec/iter$} $out line
    puts "rc_pingpong.tcl $b -> $a: $line"
}
