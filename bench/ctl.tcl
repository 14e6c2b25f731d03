#!/usr/bin/env tclsh
# ctl.tcl -n N -d DEV -x GIDIDX -D PEERDEV -X PEERGIDIDX ?-o OPS? ?-mem?
#
#	The control path with the documented API, the twin of bench/ctl.c:
#	times N creations (or modifications, destructions) of each kind of
#	object, all N alive at once, each loop in a proc of its own as a
#	script's hot loop would be, and prints one line an operation:
#	  verbs ctl_OP n N usec_per_op X
#	With -mem, the resident memory one more object costs instead (the
#	growth of Rss over N objects divided by N), for OBJ qp, mr, cq and
#	cmid:
#	  verbs mem_OBJ n N bytes_per_obj B
#	OPS (-o) is a list of operation names (commas or blanks), default
#	all, or with -mem of kinds of objects; bench/README.md defines each.  A failed operation's line is
#	left out, its error goes to stderr and the exit status is 1.

package require verbs

set opts [dict create -n 0 -d "" -x -1 -D "" -X -1 -o "" -mem 0]
while {[llength $argv]} {
    set argv [lassign $argv opt]
    if {$opt eq "-mem"} {
	dict set opts -mem 1
    } elseif {[dict exists $opts $opt] && [llength $argv]} {
	set argv [lassign $argv val]
	dict set opts $opt $val
    } else {
	puts stderr "usage: ctl.tcl -n N -d DEV -x GIDIDX -D PEERDEV\
		-X PEERGIDIDX ?-o OP,OP...? ?-mem?"
	exit 2
    }
}
dict with opts {}
set ops [split [string map {, " "} ${-o}]]
set failed 0

proc wanted {op} {
    expr {$::ops eq "" || $op in $::ops}
}

# report OP USEC: the line of one timed loop of N operations.
proc report {op usec} {
    if {[wanted $op]} {
	puts [format "verbs ctl_%s n %d usec_per_op %.2f" $op ${::-n} \
		[expr {$usec / double(${::-n})}]]
	flush stdout
    }
}

# fail OP MSG: a loop that stopped.
proc fail {op msg} {
    puts stderr "verbs ctl_$op n ${::-n}: $msg"
    set ::failed 1
}

# The timed loops: each appends the objects it makes to the variable
# named, so that they can be closed after a loop that failed half way.

proc openContexts {dev n var} {
    upvar 1 $var ctxs
    for {set i 0} {$i < $n} {incr i} {
	lappend ctxs [verbs::context open $dev]
    }
}

proc createPds {ctx n var} {
    upvar 1 $var pds
    for {set i 0} {$i < $n} {incr i} {
	lappend pds [verbs::pd create $ctx]
    }
}

proc createCqs {ctx n var} {
    upvar 1 $var cqs
    for {set i 0} {$i < $n} {incr i} {
	lappend cqs [verbs::cq create $ctx -cqe 256]
    }
}

proc createQps {pd cq n var} {
    upvar 1 $var qps
    for {set i 0} {$i < $n} {incr i} {
	lappend qps [verbs::qp create $pd -send_cq $cq -recv_cq $cq \
		-cap {max_send_wr 16 max_recv_wr 16 max_send_sge 1
		    max_recv_sge 1}]
    }
}

# Each QP connected to itself, with rc_pingpong's attributes: to_init's
# defaults but no remote access (rc_pingpong gives 0), to_rtr's with
# dest_qp_num and the path, to_rts's but retry_cnt 7.
proc connectQps {qps gid gidIndex} {
    set ah [list is_global 1 port_num 1 \
	    grh [list dgid $gid sgid_index $gidIndex hop_limit 1]]
    foreach qp $qps {
	$qp to_init {qp_access_flags {}}
	$qp to_rtr [list dest_qp_num [$qp cget -qp_num] ah_attr $ah]
	$qp to_rts {retry_cnt 7}
    }
}

# closeEach LIST: each object of LIST closed; the timed loop of
# qp_destroy and mr_dereg, and the clean-up of the others.
proc closeEach {objs} {
    foreach obj $objs {
	$obj close
    }
}

proc registerMrs {pd size n var} {
    upvar 1 $var mrs
    for {set i 0} {$i < $n} {incr i} {
	lappend mrs [verbs::mr create $pd -length $size \
		-access {local_write remote_read remote_write}]
    }
}

proc createAhs {pd attr n var} {
    upvar 1 $var ahs
    for {set i 0} {$i < $n} {incr i} {
	lappend ahs [verbs::ah create $pd $attr]
    }
}

proc createIds {channel n var} {
    upvar 1 $var ids
    for {set i 0} {$i < $n} {incr i} {
	lappend ids [verbs::cm id $channel]
    }
}

# rss: the resident set in KiB, Rss of /proc/self/smaps_rollup, counted
# from the page tables (VmRSS lags before Linux 6.2: see Rss in ctl.c).
proc rss {} {
    foreach {file re} {
	/proc/self/smaps_rollup {\nRss:\s+(\d+)}
	/proc/self/status {VmRSS:\s+(\d+)}
    } {
	if {![catch {open $file} f]} {
	    set s [read $f]
	    close $f
	    if {[regexp $re $s -> kib]} {
		return $kib
	    }
	}
    }
    return -1
}

proc memReport {obj rss0} {
    puts [format "verbs mem_%s n %d bytes_per_obj %.0f" $obj ${::-n} \
	    [expr {([rss] - $rss0) * 1024.0 / ${::-n}}]]
    flush stdout
}

# timed OP SCRIPT: runs SCRIPT (a call of one of the loops above) in the
# caller, reports its time, and returns 1; or reports the error and
# returns 0.
proc timed {op script} {
    set t0 [clock microseconds]
    if {[catch {uplevel 1 $script} msg]} {
	fail $op $msg
	return 0
    }
    report $op [expr {[clock microseconds] - $t0}]
    return 1
}

set ctx [verbs::context open ${-d}]
set gid [$ctx query gid 1 ${-x}]
set peer [verbs::context open ${-D}]
set peerGid [$peer query gid 1 ${-X}]
$peer close

if {${-mem}} {
    # One of each first, so that what is measured is what one more costs;
    # everything stays alive until the end.
    # (-o names the kinds; bench/ctl.sh asks for one a process.)
    set pd [verbs::pd create $ctx]
    set cq [verbs::cq create $ctx -cqe 256]
    set channel [verbs::cm channel]
    foreach {obj script} {
	qp {createQps $pd $cq $n objs}
	mr {registerMrs $pd 4096 $n objs}
	cq {createCqs $ctx $n objs}
	cmid {createIds $channel $n objs}
    } {
	if {![wanted $obj]} {
	    continue
	}
	set n 1
	eval $script
	set n ${-n}
	set rss0 [rss]
	if {[catch $script msg]} {
	    fail mem_$obj $msg
	    break
	}
	memReport $obj $rss0
    }
    $channel close
    $ctx close
    exit $failed
}

if {[wanted ctx_open]} {
    set ctxs {}
    timed ctx_open {openContexts ${-d} ${-n} ctxs}
    closeEach $ctxs
}
if {[wanted pd]} {
    set pds {}
    timed pd {createPds $ctx ${-n} pds}
    closeEach $pds
}
if {[wanted cq]} {
    set cqs {}
    timed cq {createCqs $ctx ${-n} cqs}
    closeEach $cqs
}
if {[wanted qp_create] || [wanted qp_to_rts] || [wanted qp_destroy]} {
    set pd [verbs::pd create $ctx]
    set cq [verbs::cq create $ctx -cqe 256]
    set qps {}
    if {[timed qp_create {createQps $pd $cq ${-n} qps}]} {
	timed qp_to_rts {connectQps $qps $gid ${-x}}
	if {[timed qp_destroy {closeEach $qps}]} {
	    set qps {}
	}
    }
    closeEach $qps
    $cq close
    $pd close
}
if {[wanted mr_reg_4k] || [wanted mr_dereg] || [wanted mr_reg_1m]} {
    set pd [verbs::pd create $ctx]
    if {[wanted mr_reg_4k] || [wanted mr_dereg]} {
	set mrs {}
	if {[timed mr_reg_4k {registerMrs $pd 4096 ${-n} mrs}]} {
	    if {[timed mr_dereg {closeEach $mrs}]} {
		set mrs {}
	    }
	}
	closeEach $mrs
    }
    if {[wanted mr_reg_1m]} {
	set mrs {}
	timed mr_reg_1m {registerMrs $pd 1048576 ${-n} mrs}
	closeEach $mrs
    }
    $pd close
}
if {[wanted ah]} {
    # One first, untimed: the first AH to an address waits for the
    # kernel's neighbour resolution.
    set pd [verbs::pd create $ctx]
    set attr [list is_global 1 port_num 1 \
	    grh [list dgid $peerGid sgid_index ${-x} hop_limit 1]]
    set ahs {}
    catch {createAhs $pd $attr 1 ahs}
    closeEach $ahs
    set ahs {}
    timed ah {createAhs $pd $attr ${-n} ahs}
    closeEach $ahs
    $pd close
}
if {[wanted tree_close]} {
    set tree [verbs::context open ${-d}]
    set mrs {}
    if {[catch {registerMrs [verbs::pd create $tree] 4096 ${-n} mrs} msg]} {
	fail tree_close $msg
	$tree close
    } else {
	timed tree_close {$tree close}
    }
}
$ctx close
exit $failed
