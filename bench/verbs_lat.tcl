#!/usr/bin/env tclsh
# verbs_lat.tcl ?-mode lat|loop? ?-opcode send|write? ?-size S? ?-iters N?
#		?-server PORT | -connect HOST:PORT? DEV GIDX ?DEV2 GIDX2?
#
#	Ping-pong latency, printing one line:
#	  IMPL lat_OPCODE size S iters N usec_typ T usec_avg A usec_min m
#	      usec_max M usec_p99 P
#	lat:  [$qp latency], the loop in C (IMPL verbs-lat);
#	loop: a Tcl loop with the documented API (IMPL verbs-lat-loop):
#	      SEND posts a receive, sends, and waits for both completions
#	      with $cq wait -fields {}; WRITE writes and polls the last byte
#	      of its buffer with $mr read.
#	With DEV2 both QPs are in this process (connected with
#	verbs::connect; lat drives both sides in one call, loop both sides
#	in turn).  Otherwise this process is one side: -server PORT waits on
#	that TCP port for the other side's -connect HOST:PORT, the two swap
#	verbs::endpoint dicts and buffer keys, and the client initiates.

package require verbs

set opts [dict create -mode lat -opcode send -size 64 -iters 1000 \
	-server {} -connect {}]
while {[string match -* [lindex $argv 0]]} {
    set argv [lassign $argv opt val]
    if {![dict exists $opts $opt]} {
	puts stderr "verbs_lat.tcl: unknown option $opt"
	exit 2
    }
    dict set opts $opt $val
}
if {[llength $argv] ni {2 4}} {
    puts stderr "usage: verbs_lat.tcl ?-mode lat|loop? ?-opcode send|write?\
	    ?-size S? ?-iters N? ?-server PORT | -connect HOST:PORT?\
	    DEV GIDX ?DEV2 GIDX2?"
    exit 2
}
dict with opts {}
set size ${-size}
set iters ${-iters}
set write [expr {${-opcode} eq "write"}]

proc side {dev size} {
    set ctx [verbs::context open $dev]
    set pd [verbs::pd create $ctx]
    set cq [verbs::cq create $ctx -cqe 256]
    set qp [verbs::qp create $pd -send_cq $cq -recv_cq $cq \
	    -cap {max_send_wr 64 max_recv_wr 64}]
    set mr [verbs::mr create $pd -length [expr {max($size, 4096)}] \
	    -access {local_write remote_write}]
    list $qp $mr $cq
}

# Summary of half round trips (microseconds) into a result dict.
proc summary {samples} {
    set s [lsort -real $samples]
    set n [llength $s]
    set sum 0.0
    foreach x $s {set sum [expr {$sum + $x}]}
    dict create typical [lindex $s [expr {$n / 2}]] \
	average [expr {$sum / $n}] minimum [lindex $s 0] \
	maximum [lindex $s end] \
	p99 [lindex $s [expr {int(0.99 * ($n - 1) + 0.5)}]]
}

# The Tcl ping-pong: A (qa ma ca) initiates; B (qb mb cb) answers; either
# may be absent (a remote peer).  remoteA/remoteB: {addr rkey} of the
# other side's buffer, for WRITE.
proc tclLoop {iters size write a b remoteA remoteB} {
    lassign $a qa ma ca
    lassign $b qb mb cb
    set last [expr {$size - 1}]
    foreach side {a b} q [list $qa $qb] m [list $ma $mb] \
	    r [list $remoteA $remoteB] {
	if {$q eq ""} continue
	set wr($side) [list sg_list [list [list $m 0 $size]] \
		send_flags signaled]
	if {$write} {
	    lappend wr($side) opcode rdma_write remote_addr [lindex $r 0] \
		rkey [lindex $r 1]
	}
	set rwr($side) [list sg_list [list [list $m 0 $size]]]
	if {!$write} {
	    $q post_recv $rwr($side)
	}
    }
    set samples {}
    for {set i 0} {$i < $iters} {incr i} {
	set ping [binary format c [expr {($i % 127) * 2 + 2}]]
	set pong [binary format c [expr {($i % 127) * 2 + 3}]]
	if {$qa ne ""} {
	    set t0 [clock microseconds]
	    $ma write $last $ping
	    $qa post_send $wr(a)
	}
	if {$qb ne ""} {
	    if {$write} {
		while {[$mb read $last 1] ne $ping} {}
	    } else {
		$cb wait 1 -check 1 -fields {}
		$qb post_recv $rwr(b)
	    }
	    if {$qa eq "" && $i > 0} {
		lappend samples [expr {([clock microseconds] - $t0) / 2.0}]
	    }
	    set t0 [clock microseconds]
	    $mb write $last $pong
	    $qb post_send $wr(b)
	    $cb wait 1 -check 1 -fields {}
	}
	if {$qa ne ""} {
	    if {$write} {
		while {[$ma read $last 1] ne $pong} {}
		$ca wait 1 -check 1 -fields {}
	    } else {
		$ca wait 2 -check 1 -fields {}
		$qa post_recv $rwr(a)
	    }
	    lappend samples [expr {([clock microseconds] - $t0) / 2.0}]
	}
    }
    summary $samples
}

if {[llength $argv] == 4} {
    lassign $argv dev1 gidx1 dev2 gidx2
    lassign [side $dev1 $size] qa ma ca
    lassign [side $dev2 $size] qb mb cb
    verbs::connect $qa $qb -gid_index1 $gidx1 -gid_index2 $gidx2
    if {${-mode} eq "lat"} {
	set r [$qa latency -iters $iters -sge [list $ma 0 $size] \
		-peer $qb -peer_sge [list $mb 0 $size] \
		-opcode [expr {$write ? "rdma_write" : "send"}]]
    } else {
	set r [tclLoop $iters $size $write [list $qa $ma $ca] \
		[list $qb $mb $cb] [list [$mb cget -addr] [$mb cget -rkey]] \
		[list [$ma cget -addr] [$ma cget -rkey]]]
    }
} else {
    lassign $argv dev gidx
    lassign [side $dev $size] qp mr cq
    set mine [dict create endpoint [verbs::endpoint $qp -gid_index $gidx] \
	    addr [$mr cget -addr] rkey [$mr cget -rkey]]
    if {${-server} ne ""} {
	proc accept {chan args} {set ::chan $chan}
	set listener [socket -server accept ${-server}]
	vwait ::chan
	close $listener
    } else {
	lassign [split ${-connect} :] host port
	set chan [socket $host $port]
    }
    fconfigure $chan -buffering line
    puts $chan $mine
    set theirs [gets $chan]
    verbs::connect_qp $qp [dict get $mine endpoint] \
	[dict get $theirs endpoint]
    set remote [list [dict get $theirs addr] [dict get $theirs rkey]]
    # Both at RTS: the server says so, then starts (its receives posted or
    # its byte left for the first message); the client starts on that.
    if {${-server} ne ""} {
	puts $chan ready
    } else {
	gets $chan
    }
    if {${-mode} eq "lat"} {
	set args [list -iters $iters -sge [list $mr 0 $size] \
		-opcode [expr {$write ? "rdma_write" : "send"}] \
		-server [expr {${-server} ne ""}]]
	if {$write} {
	    lappend args -remote_addr [lindex $remote 0] \
		-rkey [lindex $remote 1]
	}
	set r [$qp latency {*}$args]
    } elseif {${-server} ne ""} {
	set r [tclLoop $iters $size $write {} [list $qp $mr $cq] {} $remote]
    } else {
	set r [tclLoop $iters $size $write [list $qp $mr $cq] {} $remote {}]
    }
    close $chan
}
puts [format "verbs-%s lat_%s size %d iters %d usec_typ %.2f usec_avg %.2f\
	usec_min %.2f usec_max %.2f usec_p99 %.2f" \
	[expr {${-mode} eq "lat" ? "lat" : "lat-loop"}] ${-opcode} $size \
	$iters [dict get $r typical] [dict get $r average] \
	[dict get $r minimum] [dict get $r maximum] [dict get $r p99]]
