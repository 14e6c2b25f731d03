#!/usr/bin/env tclsh
# verbs_bench.tcl ?-size S? ?-count N? ?-mode burst|loop|loop-dict?
#		?-opcode write|send?
#		DEV1 GIDX1 DEV2 GIDX2 --
#
#	Streams COUNT messages of SIZE bytes from an RC QP on DEV1 to one on
#	DEV2, in this one process, and prints one line:
#	  verbs-MODE OPCODE size S count N seconds T msg_rate R mib_per_sec M
#	burst: one [$qp send_burst] (the loop runs in C);
#	loop:  a Tcl loop posting one signalled work request at a time and
#	       waiting for its completion, as a script would without bursts,
#	       with the fast forms ($cq wait 1 -check 1 -fields {});
#	loop-dict: the same loop reading each completion as a dict.

package require verbs

set opts [dict create -size 64 -count 10000 -mode burst -opcode write]
while {[string match -* [lindex $argv 0]]} {
    set argv [lassign $argv opt val]
    if {![dict exists $opts $opt]} {
	puts stderr "verbs_bench.tcl: unknown option $opt"
	exit 2
    }
    dict set opts $opt $val
}
if {[llength $argv] != 4} {
    puts stderr "usage: verbs_bench.tcl ?-size S? ?-count N? ?-mode burst|loop?\
	    ?-opcode write|send? DEV1 GIDX1 DEV2 GIDX2"
    exit 2
}
lassign $argv dev1 gidx1 dev2 gidx2
dict with opts {}

proc side {dev size} {
    set ctx [verbs::context open $dev]
    set pd [verbs::pd create $ctx]
    set scq [verbs::cq create $ctx -cqe 256]
    set rcq [verbs::cq create $ctx -cqe 256]
    set qp [verbs::qp create $pd -send_cq $scq -recv_cq $rcq \
	    -cap {max_send_wr 64 max_recv_wr 64}]
    set mr [verbs::mr create $pd -length [expr {max($size, 4096)}] \
	    -access {local_write remote_write remote_read}]
    list $qp $mr $scq $rcq
}

lassign [side $dev1 ${-size}] qa ma scqA
lassign [side $dev2 ${-size}] qb mb - rcqB
verbs::connect $qa $qb -gid_index1 $gidx1 -gid_index2 $gidx2

set size ${-size}
set count ${-count}
set remote [list remote_addr [$mb cget -addr] rkey [$mb cget -rkey]]

if {${-mode} eq "burst"} {
    if {${-opcode} eq "write"} {
	set r [$qa send_burst -count $count -sge [list $ma 0 $size] \
		-opcode rdma_write -remote_addr [$mb cget -addr] \
		-rkey [$mb cget -rkey]]
    } else {
	set r [$qa send_burst -count $count -sge [list $ma 0 $size] \
		-peer $qb -peer_sge [list $mb 0 $size]]
    }
    set secs [dict get $r seconds]
} elseif {${-mode} eq "loop"} {
    # The per-message loop with the fast forms: the same WR values posted
    # again (their parsed form is cached), completions waited for with
    # -check and no dict built (-fields {}); in a procedure, as a script's
    # hot loop would be (local variables, compiled once).
    set swr [list send_flags signaled sg_list [list [list $ma 0 $size]]]
    if {${-opcode} eq "write"} {
	lappend swr opcode rdma_write {*}$remote
    }
    set rwr [list sg_list [list [list $mb 0 $size]]]
    proc sendLoop {count qa qb scq rcq swr rwr} {
	for {set i 0} {$i < $count} {incr i} {
	    $qb post_recv $rwr
	    $qa post_send $swr
	    $scq wait 1 -check 1 -fields {}
	    $rcq wait 1 -check 1 -fields {}
	}
    }
    proc writeLoop {count qa scq swr} {
	for {set i 0} {$i < $count} {incr i} {
	    $qa post_send $swr
	    $scq wait 1 -check 1 -fields {}
	}
    }
    set t0 [clock microseconds]
    if {${-opcode} eq "send"} {
	sendLoop $count $qa $qb $scqA $rcqB $swr $rwr
    } else {
	writeLoop $count $qa $scqA $swr
    }
    set secs [expr {([clock microseconds] - $t0) / 1e6}]
} else {
    # loop-dict: each completion read as a dict and its status checked.
    set swr [list send_flags signaled sg_list [list [list $ma 0 $size]]]
    if {${-opcode} eq "write"} {
	lappend swr opcode rdma_write {*}$remote
    }
    set rwr [list sg_list [list [list $mb 0 $size]]]
    set t0 [clock microseconds]
    for {set i 0} {$i < $count} {incr i} {
	if {${-opcode} eq "send"} {
	    $qb post_recv $rwr
	}
	$qa post_send $swr
	set wc [lindex [$scqA wait 1] 0]
	if {[dict get $wc status] ne "success"} {
	    error "completion $i: [dict get $wc status]"
	}
	if {${-opcode} eq "send"} {
	    $rcqB wait 1
	}
    }
    set secs [expr {([clock microseconds] - $t0) / 1e6}]
}
puts [format "verbs-%s %s size %d count %d seconds %.6g msg_rate %.6g mib_per_sec %.6g" \
	${-mode} ${-opcode} $size $count $secs [expr {$count / $secs}] \
	[expr {$count * double($size) / $secs / 1048576}]]
