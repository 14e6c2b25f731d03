#!/usr/bin/env tclsh
# churn.tcl ?-cycles N? ?-every K? ?-rss_kib T? ?DEV ?GIDX??
#
#	Resource churn: N cycles (default 10000) of a whole tree made and
#	closed again (context, pd, mr, cq, two connected RC qps, one message
#	sent and received), with the process's open fds (/proc/self/fd), its
#	RSS (VmRSS) and its mappings (/proc/self/maps) measured every K
#	cycles (default 1000).  Prints one line per measure, then a verdict:
#	flat when, from the first measure on, fds and mappings do not change
#	at all and RSS grows by at most T KiB (default 1024: allocator and
#	Tcl caches settling).  Exit status 0 when flat, 1 when not.
#	DEV defaults to the first device, GIDX to [verbs::gid_index].
#
#	In the Soft-RoCE VM (see README):
#	  tests/vm/run.sh -- env TCLLIBPATH=$PWD tclsh bench/churn.tcl

package require verbs

set opts [dict create -cycles 10000 -every 1000 -rss_kib 1024]
while {[string match -* [lindex $argv 0]]} {
    set argv [lassign $argv opt val]
    if {![dict exists $opts $opt]} {
	puts stderr "churn.tcl: unknown option $opt"
	exit 2
    }
    dict set opts $opt $val
}
foreach {k v} $opts {
    set [string range $k 1 end] $v
}
lassign $argv dev gidx
if {$dev eq ""} {
    set dev [lindex [verbs::devices] 0]
}
if {$dev eq ""} {
    puts stderr "churn.tcl: no RDMA device"
    exit 2
}

# fds, RSS in KiB and mappings of this process.

proc measure {} {
    set f [open /proc/self/status]
    regexp -line {^VmRSS:\s+(\d+)} [read $f] -> rss
    close $f
    set f [open /proc/self/maps]
    set maps [llength [split [string trim [read $f]] \n]]
    close $f
    # glob's own directory handle is closed by the time it returns.
    set fds [llength [glob -directory /proc/self/fd *]]
    list $fds $rss $maps
}

# One cycle: a whole tree, one message, everything closed.

proc cycle {dev gidx i} {
    set ctx [verbs::context open $dev]
    set pd [verbs::pd create $ctx]
    set mr [verbs::mr create $pd -length 4096 -access local_write]
    set cq [verbs::cq create $ctx -cqe 16]
    set q1 [verbs::qp create $pd -send_cq $cq]
    set q2 [verbs::qp create $pd -send_cq $cq]
    if {$gidx eq ""} {
	set gidx [verbs::gid_index $ctx]
    }
    verbs::connect $q1 $q2 -gid_index1 $gidx -gid_index2 $gidx
    $mr write 0 [binary format I $i]
    $q2 post_recv [list wr_id 2 sg_list [list [list $mr 64 64]]]
    $q1 post_send [list wr_id 1 opcode send send_flags signaled \
	    sg_list [list [list $mr 0 4]]]
    foreach w [$cq wait 2 -timeout 5000 -check 1] {}
    binary scan [$mr read 64 4] I got
    $ctx close
    if {$got != $i} {
	error "cycle $i: received $got"
    }
}

puts [format "%8s %6s %10s %6s %8s" cycle fds rss_kib maps seconds]
set t0 [clock milliseconds]
set first {}
set rows {}
for {set i 1} {$i <= $cycles} {incr i} {
    cycle $dev $gidx $i
    if {$i % $every == 0} {
	set m [measure]
	lappend rows $m
	puts [format "%8d %6d %10d %6d %8.1f" $i {*}$m \
		[expr {([clock milliseconds] - $t0) / 1000.0}]]
	flush stdout
    }
}
if {[llength [verbs::objects]]} {
    puts "left over: [verbs::objects]"
    exit 1
}
lassign [lindex $rows 0] fds0 rss0 maps0
set flat 1
set worst 0
foreach r $rows {
    lassign $r fds rss maps
    if {$fds != $fds0 || $maps != $maps0} {
	set flat 0
    }
    if {$rss - $rss0 > $worst} {
	set worst [expr {$rss - $rss0}]
    }
}
if {$worst > $rss_kib} {
    set flat 0
}
puts [format "%s: fds %s, maps %s, RSS grew at most %d KiB after cycle\
	%d (tolerance: fds and maps unchanged, RSS +%d KiB)" \
	[expr {$flat ? "flat" : "NOT FLAT"}] \
	[lsort -unique -integer [lmap r $rows {lindex $r 0}]] \
	[lsort -unique -integer [lmap r $rows {lindex $r 2}]] \
	$worst $every $rss_kib]
exit [expr {!$flat}]
