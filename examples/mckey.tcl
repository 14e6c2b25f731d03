#!/usr/bin/env tclsh
# mckey.tcl -m multicast_address ?-s? ?option ...? --
#
#	librdmacm's mckey in Tcl: RDMA multicast set up by the connection
#	manager, so that either side may be this script or the C program.
#	Without -s it receives, with -s it sends.
#
#	Each of the CONNECTIONS ids (of the udp port space) resolves the
#	group's IP address (from the -b address, which picks the device),
#	gets a UD queue pair (a receiver posts COUNT receives), and joins
#	the group (as a send-only member with -o); the multicast_join event
#	gives the group's GID, QP number (0xffffff), Q_Key and address
#	handle attributes, and librdmacm attaches the QP of a full member
#	to the group.  After a pause of 3 seconds (mckey leaves the subnet
#	manager time to program the switches) a sender sends COUNT
#	datagrams (SEND with immediate data: its QP number) to the group on
#	each id, and a receiver waits for COUNT datagrams on each id.  Then
#	all leave the group.
#
#	A datagram of this script holds the text "mckey.tcl datagram I/COUNT
#	from qp 0xN; " repeated to its size.  A receiver checks every
#	datagram it gets: its length, its immediate data (the sender's QP
#	number), and, when it holds that text, that it is whole and from the
#	QP that sent it.  (C mckey sends whatever its buffer holds.)
#
#	Options (those of mckey):
#	    -m ADDRESS     the IP multicast address to join (required)
#	    -M ADDRESS     an unmapped (AF_IB) address: refused, RoCE has none
#	    -s             send (else receive)
#	    -b ADDRESS     the local address to bind to
#	    -c N           ids that join (1)
#	    -C N           datagrams on each id (10)
#	    -S BYTES       datagram size, at most the port's MTU (100)
#	    -p SPACE       port space: 0x111 udp (default) or 0x2 ipoib
#	    -o             join as a send-only full member
#	    -l             no multicast loopback: refused (it needs a QP
#	                   create flag this package does not offer)
#
#	Prints mckey's lines, among them "mckey: joined dgid: GID mlid 0xL
#	sl N" for every join (a receiver is ready to receive once it has
#	printed them all), and a receiver a summary of what it checked;
#	exit status 0 on success, 1 with a message otherwise ("return
#	status 1").
#
#	The script is executable: "#!/usr/bin/env tclsh" runs the tclsh on
#	PATH, which finds verbs where it is installed, or in a build tree
#	with TCLLIBPATH=BUILDDIR (as "make shell" sets it).
#
# Copyright (c) 2026 The verbs authors.
# See the file "LICENSE" for terms of use and redistribution.

package require Tcl 8.6-
package require verbs

namespace eval ::mck {
    variable GRH 40
    # How long any one step may take, in ms.
    variable LIMIT 30000

    variable opt [dict create group {} sender 0 bind {} connections 1 \
	    count 10 size 100 ps udp sendonly 0]
}

proc ::mck::usage {{chan stderr}} {
    set me [file tail $::argv0]
    puts $chan "usage: $me
	-m multicast_address
	\[-M unmapped_multicast_address\]
	 replaces -m and requires -b
	\[-s(ender)\]
	\[-b bind_address\]
	\[-c connections\]
	\[-C message_count\]
	\[-S message_size\]
	\[-p port_space - 0x111 for UDP (default), 0x2 for IPOIB\]
	\[-o join as a send-only full-member\]
	\[-l join without multicast loopback\]"
}

proc ::mck::badUsage {msg} {
    puts stderr "[file tail $::argv0]: $msg"
    usage
    exit 1
}

# mck::parseArgs ARGV --
#	Fills mck::opt from getopt-style options: -m ADDR or -mADDR; the
#	flags -s, -o and -l take no value.

proc ::mck::parseArgs {argv} {
    variable opt
    for {set k 0} {$k < [llength $argv]} {incr k} {
	set a [lindex $argv $k]
	if {$a in {-h --help}} {
	    usage stdout
	    exit 0
	}
	switch -- $a {
	    -s {dict set opt sender 1; continue}
	    -o {dict set opt sendonly 1; continue}
	    -l {
		badUsage "-l: joining without multicast loopback needs the\
			QP create flag block_self_mcast_lb, which verbs does\
			not offer"
	    }
	}
	if {![regexp {^-([mMbcCSp])(.*)$} $a -> letter value]} {
	    badUsage "unknown option or argument \"$a\""
	}
	if {$value eq ""} {
	    if {[incr k] >= [llength $argv]} {
		badUsage "option \"$a\" needs a value"
	    }
	    set value [lindex $argv $k]
	}
	switch -- $letter {
	    m {dict set opt group $value}
	    M {
		badUsage "-M: unmapped (AF_IB) multicast addresses are not\
			supported: RoCE devices have no AF_IB addresses"
	    }
	    b {dict set opt bind $value}
	    c - C - S {
		set key [dict get {c connections C count S size} $letter]
		if {![string is integer -strict $value] || $value < 1
			|| $value > 65536} {
		    badUsage "bad -$letter \"$value\""
		}
		dict set opt $key [expr {$value}]
	    }
	    p {
		if {![string is integer -strict $value]
			|| $value ni {0x111 0x0111 273 0x2 0x02 2}} {
		    badUsage "bad port space \"$value\": 0x111 or 0x2"
		}
		dict set opt ps [expr {$value == 2 ? "ipoib" : "udp"}]
	    }
	}
    }
    if {[dict get $opt group] eq ""} {
	badUsage "a multicast address (-m) is required"
    }
}

# mck::gidText GID --
#	A GID (eight groups of four hex digits) as inet_ntop writes an IPv6
#	address: ::ffff:a.b.c.d for an IPv4-mapped one, else with the
#	longest run of zero groups shortened.

proc ::mck::gidText {gid} {
    set g [lmap x [split $gid :] {scan $x %x}]
    if {[lrange $g 0 5] eq {0 0 0 0 0 65535}} {
	lassign [lrange $g 6 7] hi lo
	return [format ::ffff:%d.%d.%d.%d [expr {$hi >> 8}] \
		[expr {$hi & 255}] [expr {$lo >> 8}] [expr {$lo & 255}]]
    }
    set best {-1 0}
    for {set i 0} {$i < 8} {incr i} {
	for {set j $i} {$j < 8 && [lindex $g $j] == 0} {incr j} {}
	if {$j - $i > 1 && $j - $i > [lindex $best 1]} {
	    set best [list $i [expr {$j - $i}]]
	}
    }
    set hex [lmap x $g {format %x $x}]
    lassign $best at n
    if {$at < 0} {
	return [join $hex :]
    }
    return "[join [lrange $hex 0 $at-1] :]::[join [lrange $hex $at+$n end] :]"
}

# mck::message I QPN --
#	The bytes of datagram I from the QP numbered QPN.

proc ::mck::message {i qpn} {
    variable opt
    set text [format "mckey.tcl datagram %d/%d from qp 0x%x; " $i \
	    [dict get $opt count] $qpn]
    set size [dict get $opt size]
    set s [string repeat $text [expr {$size / [string length $text] + 1}]]
    encoding convertto ascii [string range $s 0 $size-1]
}

# mck::node ID --
#	The resources of ID: a PD, a CQ, a buffer per datagram (SIZE + 40
#	bytes) and the UD QP, in the array N(ID,*); a receiver's QP has a
#	receive posted into every buffer.

proc ::mck::node {id} {
    variable opt
    variable GRH
    variable N
    dict with opt {}
    set ctx [$id cget -context]
    set mtu [dict get [$ctx query port [$id cget -port_num]] active_mtu]
    if {$size > $mtu} {
	return -code error "message_size $size is larger than active mtu $mtu"
    }
    set slot [expr {$size + $GRH}]
    set N($id,pd) [verbs::pd create $ctx]
    set N($id,cq) [verbs::cq create $ctx -cqe [expr {2 * $count}]]
    set N($id,mr) [verbs::mr create $N($id,pd) -length [expr {$count * $slot}]]
    set N($id,qp) [$id create_qp $N($id,pd) -send_cq $N($id,cq) -type ud \
	    -cap [list max_send_wr $count max_recv_wr $count]]
    if {!$sender} {
	set wrs {}
	for {set i 0} {$i < $count} {incr i} {
	    lappend wrs [list wr_id $i sg_list \
		    [list [list $N($id,mr) [expr {$i * $slot}] $slot]]]
	}
	$N($id,qp) post_recv {*}$wrs
    }
}

# mck::receive ID --
#	Waits for COUNT datagrams on ID and checks them; returns a summary.

proc ::mck::receive {id} {
    variable opt
    variable GRH
    variable LIMIT
    variable N
    dict with opt {}
    set slot [expr {$size + $GRH}]
    set senders {}
    set ours 0
    for {set n 0} {$n < $count} {incr n} {
	if {[catch {$N($id,cq) wait 1 -timeout $LIMIT -check 1} got]} {
	    return -code error "receiving data transfers: $got"
	}
	set wc [lindex $got 0]
	set from [dict get $wc src_qp]
	if {[dict get $wc byte_len] != $slot} {
	    return -code error "datagram of [expr {[dict get $wc byte_len]
		    - $GRH}] bytes, not $size"
	}
	if {"with_imm" ni [dict get $wc wc_flags]
		|| [dict get $wc imm_data] != $from} {
	    return -code error [format "datagram from qp 0x%x without its\
		    QP number as immediate data" $from]
	}
	if {$from ni $senders} {
	    lappend senders $from
	}
	set data [$N($id,mr) read [expr {[dict get $wc wr_id] * $slot + $GRH}] \
		$size]
	if {[regexp {^mckey\.tcl datagram (\d+)/} $data -> i]} {
	    if {$data ne [message $i $from]} {
		return -code error "datagram $i from qp $from is damaged:\
			\"$data\""
	    }
	    incr ours
	}
    }
    format "mckey: received %d datagrams of %d bytes from qp %s,\
	    %d of mckey.tcl, intact" $count $size \
	    [join [lmap q $senders {format 0x%x $q}] ,] $ours
}

proc ::mck::run {} {
    variable opt
    variable N
    variable LIMIT
    dict with opt {}
    puts "mckey: starting [expr {$sender ? "client" : "server"}]"
    puts "mckey: joining"
    set ch [verbs::cm channel]
    set ids {}
    set src {}
    if {$bind ne ""} {
	set src [list -src $bind]
    }
    for {set i 0} {$i < $connections} {incr i} {
	set id [verbs::cm id $ch -ps $ps]
	if {[catch {$id resolve_addr $group 0 {*}$src -timeout 2000} err]} {
	    return -code error "resolve addr failure: $err"
	}
	lappend ids $id
    }
    set flags [expr {$sendonly ? "sendonly_full" : "full"}]
    set left $connections
    while {$left > 0} {
	set ev [$ch wait -timeout $LIMIT]
	set id [dict get $ev id]
	switch -- [dict get $ev event] {
	    addr_resolved {
		node $id
		if {[catch {$id join_multicast $group -join_flags $flags} err]} {
		    return -code error "failure joining: $err"
		}
	    }
	    multicast_join {
		set ah [dict get $ev ah_attr]
		puts [format "mckey: joined dgid: %s mlid 0x%x sl %d" \
			[gidText [dict get $ah grh dgid]] [dict get $ah dlid] \
			[dict get $ah sl]]
		flush stdout
		set N($id,peer) [dict get $ev qp_num]
		set N($id,ah) [verbs::ah create $N($id,pd) $ah]
		incr left -1
	    }
	    default {
		return -code error "event: [dict get $ev event],\
			error: [dict get $ev status]"
	    }
	}
    }

    # Give a subnet manager time to program the switches, as mckey does.
    after 3000
    if {$sender} {
	puts "initiating data transfers"
	set slot [expr {$size + 40}]
	foreach id $ids {
	    set qpn [$N($id,qp) cget -qp_num]
	    set wrs {}
	    for {set i 0} {$i < $count} {incr i} {
		$N($id,mr) write [expr {$i * $slot}] [message $i $qpn]
		lappend wrs [list opcode send_with_imm imm_data $qpn \
			ah $N($id,ah) remote_qpn $N($id,peer) \
			send_flags signaled sg_list \
			[list [list $N($id,mr) [expr {$i * $slot}] $size]]]
	    }
	    $N($id,qp) post_send {*}$wrs
	    if {[catch {$N($id,cq) wait $count -timeout $LIMIT -check 1} err]} {
		return -code error "sending: $err"
	    }
	}
    } else {
	puts "receiving data transfers"
	foreach id $ids {
	    puts [receive $id]
	}
    }
    puts "data transfers complete"
    foreach id $ids {
	if {[catch {$id leave_multicast $group} err]} {
	    puts "mckey: failure leaving: $err"
	}
    }
    $ch close
}

proc ::mck::main {argv} {
    parseArgs $argv
    set status [catch {run} msg]
    if {$status} {
	puts "mckey: $msg"
    }
    puts "test complete"
    foreach ctx [verbs::objects context] {
	$ctx close
    }
    puts "return status $status"
    exit $status
}

::mck::main $argv
