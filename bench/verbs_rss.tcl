#!/usr/bin/env tclsh
# verbs_rss.tcl DEV ?N?
#
#	The resident memory a QP and a 4 KiB MR cost in this Tcl process:
#	VmRSS before and after making N (default 64) of each, divided by N.
#	Prints "rss_per_qp KIB kib count N" and "rss_per_mr KIB kib count N".

package require verbs

proc rss {} {
    set f [open /proc/self/status]
    set s [read $f]
    close $f
    regexp {VmRSS:\s+(\d+)} $s -> kib
    return $kib
}

lassign $argv dev n
if {$n eq ""} {
    set n 64
}
set ctx [verbs::context open $dev]
set pd [verbs::pd create $ctx]
set cq [verbs::cq create $ctx -cqe 256]
# One of each first, so that the lines count what one more costs.
verbs::qp create $pd -send_cq $cq -recv_cq $cq
verbs::mr create $pd -length 4096 -access local_write
set r0 [rss]
for {set i 0} {$i < $n} {incr i} {
    verbs::qp create $pd -send_cq $cq -recv_cq $cq \
	-cap {max_send_wr 64 max_recv_wr 64}
}
set r1 [rss]
for {set i 0} {$i < $n} {incr i} {
    verbs::mr create $pd -length 4096 -access local_write
}
set r2 [rss]
puts [format "rss_per_qp %.1f kib count %d (max_send_wr 64 max_recv_wr 64)" \
	[expr {($r1 - $r0) / double($n)}] $n]
puts [format "rss_per_mr %.1f kib count %d (4096 bytes)" \
	[expr {($r2 - $r1) / double($n)}] $n]
