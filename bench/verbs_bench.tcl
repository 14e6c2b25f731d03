#!/usr/bin/env tclsh
# verbs_bench.tcl ?-size S? ?-count N?
#		?-mode burst|loop|loop-dict|window|list|list-dict|list-dict-check?
#		?-opcode write|send? ?-qps Q? ?-depth D? DEV1 GIDX1 DEV2 GIDX2
#
#	Streams COUNT messages of SIZE bytes from an RC QP on DEV1 to one on
#	DEV2, in this one process, and prints one line:
#	  verbs-MODE OPCODE size S count N seconds T msg_rate R mib_per_sec M
#	burst: one [$qp send_burst] (the loop runs in C); with -qps Q,
#	       [verbs::send_burst] over Q QP pairs at once, COUNT / Q
#	       messages each, the senders sharing one send CQ and the
#	       receivers one receive CQ (the line then ends in "qps Q");
#	       -depth D: send_burst's -depth (default 64);
#	loop:  a Tcl loop posting one signalled work request at a time and
#	       waiting for its completion, as a script would without bursts,
#	       with the fast forms ($cq wait 1 -check 1 -fields {});
#	loop-dict: the same loop reading each completion as a dict;
#	window: a Tcl loop posting one work request per post_send with up to
#	       64 outstanding, every 16th signalled (perftest's way; for
#	       SEND the receiver posts one receive per message);
#	list:  the same loop posting 16 work requests per post_send (and
#	       16 receives per post_recv), the bursts' shape;
#	list-dict: the same reading each completion as a dict and checking
#	       its status;
#	list-dict-check: the same dicts, their status checked by the wait
#	       (-check 1) as in list, not by the script.

package require verbs

set opts [dict create -size 64 -count 10000 -mode burst -opcode write -qps 1 \
	-depth 64]
while {[string match -* [lindex $argv 0]]} {
    set argv [lassign $argv opt val]
    if {![dict exists $opts $opt]} {
	puts stderr "verbs_bench.tcl: unknown option $opt"
	exit 2
    }
    dict set opts $opt $val
}
if {[llength $argv] != 4} {
    puts stderr "usage: verbs_bench.tcl ?-size S? ?-count N?\
	    ?-mode burst|loop|loop-dict|window|list|list-dict|list-dict-check?\
	    ?-opcode write|send? ?-qps Q? ?-depth D? DEV1 GIDX1 DEV2 GIDX2"
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
set qas [list $qa]
set qbs [list $qb]
if {${-qps} > 1} {
    # Q pairs of their own on the same PDs and MRs: every sender completes
    # on one send CQ, every receiver on one receive CQ.
    set scq [verbs::cq create [$qa cget -context] -cqe [expr {4 * ${-qps} + 64}]]
    set rcq [verbs::cq create [$qb cget -context] -cqe [expr {64 * ${-qps}}]]
    set qas {}
    set qbs {}
    for {set i 0} {$i < ${-qps}} {incr i} {
	set x [verbs::qp create [$qa cget -pd] -send_cq $scq -recv_cq $scq \
		-cap {max_send_wr 64 max_recv_wr 1}]
	set y [verbs::qp create [$qb cget -pd] -send_cq $rcq -recv_cq $rcq \
		-cap {max_send_wr 1 max_recv_wr 64}]
	verbs::connect $x $y -gid_index1 $gidx1 -gid_index2 $gidx2
	lappend qas $x
	lappend qbs $y
    }
}

set size ${-size}
set count ${-count}
set remote [list remote_addr [$mb cget -addr] rkey [$mb cget -rkey]]

if {${-mode} eq "burst"} {
    set each [expr {$count / ${-qps}}]
    set count [expr {$each * ${-qps}}]
    if {${-opcode} eq "write"} {
	set r [verbs::send_burst $qas -count $each -sge [list $ma 0 $size] \
		-depth ${-depth} -opcode rdma_write \
		-remote_addr [$mb cget -addr] -rkey [$mb cget -rkey]]
    } else {
	set r [verbs::send_burst $qas -count $each -sge [list $ma 0 $size] \
		-depth ${-depth} -peer $qbs -peer_sge [list $mb 0 $size]]
    }
    set secs [dict get $r seconds]
} elseif {${-mode} in {window list list-dict list-dict-check}} {
    # window: one work request per post_send, list: 16 per post_send; at
    # most 64 outstanding, every 16th signalled.  For SEND the receiver
    # posts its receives 16 at a time and takes their completions when
    # their group's send completion comes.
    set sge [list [list $ma 0 $size]]
    set plain [list sg_list $sge]
    if {${-opcode} eq "write"} {
	lappend plain opcode rdma_write {*}$remote
    }
    set last [linsert $plain 0 send_flags signaled]
    set rwr [list sg_list [list [list $mb 0 $size]]]
    proc groupLoop {groups perPost send dicts qa qb scq rcq plain last rwr} {
	# Groups of 16 messages, the last one signalled, at most 4 groups
	# (64 messages) outstanding.  perPost 1: one post_send per message
	# (and for SEND one post_recv); perPost 16: one post_send of 16 per
	# group (and one post_recv of 16).  dicts 1: completions read as
	# dicts and their status checked; 2: read as dicts, checked by
	# -check; 0: no dicts (-fields {}), checked by -check.
	set sends [lrepeat 15 $plain]
	lappend sends $last
	set recvs [lrepeat 16 $rwr]
	set inflight 0
	for {set g 0} {$g <= $groups} {incr g} {
	    if {$inflight == 4 || ($g == $groups && $inflight)} {
		set n [expr {$g == $groups ? $inflight : 1}]
		if {$dicts == 2} {
		    set wcs [$scq wait $n -check 1]
		    if {$send} {
			set wcs [$rcq wait [expr {16 * $n}] -check 1]
		    }
		} elseif {$dicts} {
		    foreach wc [$scq wait $n] {
			if {[dict get $wc status] ne "success"} {
			    error "completion: [dict get $wc status]"
			}
		    }
		    if {$send} {
			foreach wc [$rcq wait [expr {16 * $n}]] {
			    if {[dict get $wc status] ne "success"} {
				error "receive: [dict get $wc status]"
			    }
			}
		    }
		} else {
		    $scq wait $n -check 1 -fields {}
		    if {$send} {
			$rcq wait [expr {16 * $n}] -check 1 -fields {}
		    }
		}
		incr inflight -$n
	    }
	    if {$g == $groups} {
		break
	    }
	    if {$perPost == 16} {
		if {$send} {
		    $qb post_recv {*}$recvs
		}
		$qa post_send {*}$sends
	    } else {
		if {$send} {
		    for {set i 0} {$i < 16} {incr i} {
			$qb post_recv $rwr
		    }
		}
		for {set i 1} {$i < 16} {incr i} {
		    $qa post_send $plain
		}
		$qa post_send $last
	    }
	    incr inflight
	}
    }
    if {$count % 16} {
	puts stderr "verbs_bench.tcl: -mode ${-mode} needs a -count that is\
		a multiple of 16"
	exit 2
    }
    set t0 [clock microseconds]
    groupLoop [expr {$count / 16}] [expr {${-mode} eq "window" ? 1 : 16}] \
	[expr {${-opcode} eq "send"}] \
	[dict get {window 0 list 0 list-dict 1 list-dict-check 2} ${-mode}] \
	$qa $qb $scqA $rcqB $plain $last $rwr
    set secs [expr {([clock microseconds] - $t0) / 1e6}]
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
    # loop-dict: the idiomatic loop, each completion read as a dict and
    # its status checked; in a procedure too.
    set swr [list send_flags signaled sg_list [list [list $ma 0 $size]]]
    if {${-opcode} eq "write"} {
	lappend swr opcode rdma_write {*}$remote
    }
    set rwr [list sg_list [list [list $mb 0 $size]]]
    proc dictLoop {count send qa qb scq rcq swr rwr} {
	for {set i 0} {$i < $count} {incr i} {
	    if {$send} {
		$qb post_recv $rwr
	    }
	    $qa post_send $swr
	    set wc [lindex [$scq wait 1] 0]
	    if {[dict get $wc status] ne "success"} {
		error "completion $i: [dict get $wc status]"
	    }
	    if {$send} {
		set wc [lindex [$rcq wait 1] 0]
		if {[dict get $wc status] ne "success"} {
		    error "receive $i: [dict get $wc status]"
		}
	    }
	}
    }
    set t0 [clock microseconds]
    dictLoop $count [expr {${-opcode} eq "send"}] $qa $qb $scqA $rcqB \
	$swr $rwr
    set secs [expr {([clock microseconds] - $t0) / 1e6}]
}
puts [format "verbs-%s %s size %d count %d seconds %.6g msg_rate %.6g mib_per_sec %.6g%s" \
	${-mode} ${-opcode} $size $count $secs [expr {$count / $secs}] \
	[expr {$count * double($size) / $secs / 1048576}] \
	[expr {${-qps} > 1 ? " qps ${-qps}" : ""}]]
