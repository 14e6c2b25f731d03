#!/usr/bin/env tclsh
# udaddy.tcl ?-s server_address? ?option ...? --
#
#	librdmacm's udaddy in Tcl: unreliable datagram "connections" set up
#	by the RDMA connection manager, and a ping-pong of datagrams over
#	them, so that either side may be this script or the C program.
#	Without -s it is the server; with -s it is a client.
#
#	The client resolves the server's address and a route to it on an id
#	of the udp port space, makes its UD queue pair (librdmacm takes it
#	to rts with its own Q_Key), posts its receives and connects: the
#	established event carries the server's QP number, Q_Key and address
#	handle attributes.  It then sends COUNT datagrams (SEND with
#	immediate data: its own QP number) and waits for COUNT replies.
#	The server takes one connect request per connection, gives each a
#	QP with COUNT receives posted and accepts it; once COUNT datagrams
#	have arrived on a connection it answers whoever sent the first one
#	(an address handle made from that completion and its Global Routing
#	Header, the QP number from its immediate data) with COUNT replies.
#
#	Like udaddy, each connection has one buffer of SIZE + 40 bytes: the
#	receives land in it (the device writes the 40-byte Global Routing
#	Header first), and the server's replies are sent from its start, so
#	a reply holds the header of the last datagram received and then the
#	start of that datagram.  The client's datagrams all hold the same
#	text, and the client checks that every reply echoes it that way (C
#	udaddy's replies do too).  The server checks every datagram (its
#	length, and that its immediate data is the sender's QP number).
#
#	Options (those of udaddy):
#	    -s ADDRESS     the server to connect to (makes this a client)
#	    -b ADDRESS     the local address to bind to
#	    -c N           connections (1)
#	    -C N           datagrams each way on each connection (10)
#	    -S BYTES       datagram size, at most the port's MTU (100)
#	    -t TOS         type of service of the client's ids
#	    -p SPACE       port space: 0x111 udp (default) or 0x2 ipoib
#	    -P udp|ipoib   the same by name
#	    -f FORMAT      address format: name, ip or ipv6 (gid: refused)
#	The port is udaddy's, 7174.
#
#	A server prints "listening on ADDRESS port 7174" once its id
#	listens: start the clients after that line.  Both print udaddy's
#	progress lines and a summary of what they checked; exit status 0 on
#	success, 1 with a message otherwise ("return status 1").
#
#	The script is executable: "#!/usr/bin/env tclsh" runs the tclsh on
#	PATH, which finds verbs where it is installed, or in a build tree
#	with TCLLIBPATH=BUILDDIR (as "make shell" sets it).
#
# Copyright (c) 2026 The verbs authors.
# See the file "LICENSE" for terms of use and redistribution.

package require Tcl 8.6-
package require verbs

namespace eval ::uda {
    variable PORT 7174
    variable GRH 40
    # How long any one step may take, in ms.
    variable LIMIT 30000

    variable opt [dict create server {} bind {} connections 1 count 10 \
	    size 100 tos {} ps udp format name]
}

proc ::uda::usage {{chan stderr}} {
    set me [file tail $::argv0]
    puts $chan "usage: $me
	\[-s server_address\]
	\[-b bind_address\]
	\[-f address_format\]
	    name, ip, ipv6, or gid
	\[-P port_space\]
	    udp or ipoib
	\[-c connections\]
	\[-C message_count\]
	\[-S message_size\]
	\[-t type_of_service\]
	\[-p port_space - 0x111 for UDP (default), 0x2 for IPOIB\]"
}

proc ::uda::badUsage {msg} {
    puts stderr "[file tail $::argv0]: $msg"
    usage
    exit 1
}

# uda::parseArgs ARGV --
#	Fills uda::opt from getopt-style options: -s ADDR or -sADDR.

proc ::uda::parseArgs {argv} {
    variable opt
    for {set k 0} {$k < [llength $argv]} {incr k} {
	set a [lindex $argv $k]
	if {$a in {-h --help}} {
	    usage stdout
	    exit 0
	}
	if {![regexp {^-([sbfPcCStp])(.*)$} $a -> letter value]} {
	    badUsage "unknown option or argument \"$a\""
	}
	if {$value eq ""} {
	    if {[incr k] >= [llength $argv]} {
		badUsage "option \"$a\" needs a value"
	    }
	    set value [lindex $argv $k]
	}
	switch -- $letter {
	    s {dict set opt server $value}
	    b {dict set opt bind $value}
	    c - C - S {
		set key [dict get {c connections C count S size} $letter]
		if {![string is integer -strict $value] || $value < 1
			|| $value > 65536} {
		    badUsage "bad -$letter \"$value\""
		}
		dict set opt $key [expr {$value}]
	    }
	    t {
		if {![string is integer -strict $value]
			|| $value < 0 || $value > 255} {
		    badUsage "bad type of service \"$value\""
		}
		dict set opt tos [expr {$value}]
	    }
	    p {
		if {![string is integer -strict $value]
			|| $value ni {0x111 0x0111 273 0x2 0x02 2}} {
		    badUsage "bad port space \"$value\": 0x111 or 0x2"
		}
		dict set opt ps [expr {$value == 2 ? "ipoib" : "udp"}]
	    }
	    P {
		if {$value ni {udp ipoib}} {
		    badUsage "bad port space \"$value\": udp or ipoib"
		}
		dict set opt ps $value
	    }
	    f {
		if {$value eq "gid"} {
		    badUsage "address format gid (AF_IB) is not supported"
		}
		if {$value ni {name ip ipv6}} {
		    badUsage "bad address format \"$value\""
		}
		dict set opt format $value
	    }
	}
    }
}

# uda::address NODE ?PASSIVE? --
#	NODE's address for udaddy's port, through rdma_getaddrinfo (numeric
#	only with -f ip or ipv6): {ADDRESS PORT}.

proc ::uda::address {node {passive 0}} {
    variable opt
    variable PORT
    set flags {}
    if {[dict get $opt format] ne "name"} {
	lappend flags numerichost
    }
    if {$passive} {
	lappend flags passive
    }
    set hints [list -service $PORT -flags $flags \
	    -port_space [dict get $opt ps] -qp_type ud]
    if {$node ne ""} {
	lappend hints -node $node
    }
    set ai [lindex [verbs::cm getaddrinfo {*}$hints] 0]
    dict get $ai [expr {$passive ? "src_addr" : "dst_addr"}]
}

# uda::expect CHANNEL EVENT WHAT ?MS? --
#	The next rdma_cm event, which must be EVENT; anything else (or
#	nothing in time) is an error saying WHAT failed.

proc ::uda::expect {channel event what {ms {}}} {
    variable LIMIT
    if {$ms eq ""} {
	set ms $LIMIT
    }
    if {[catch {verbs::cm_expect $channel $event -timeout $ms} ev]} {
	return -code error "$what: $ev"
    }
    return $ev
}

# uda::message QPN --
#	The bytes of every datagram of the client whose QP is QPN.

proc ::uda::message {qpn} {
    variable opt
    set text [format "udaddy.tcl datagram from qp 0x%x; " $qpn]
    set size [dict get $opt size]
    set s [string repeat $text [expr {$size / [string length $text] + 1}]]
    encoding convertto ascii [string range $s 0 $size-1]
}

# uda::node ID --
#	The resources of connection ID: a PD, one CQ for both queues, the
#	buffer (SIZE + 40 bytes) and the QP, kept in the array N(ID,*); the
#	QP has COUNT receives posted into the buffer.

proc ::uda::node {id} {
    variable opt
    variable GRH
    variable N
    dict with opt {}
    set ctx [$id cget -context]
    set mtu [dict get [$ctx query port [$id cget -port_num]] active_mtu]
    if {$size > $mtu} {
	return -code error "message_size $size is larger than active mtu $mtu"
    }
    set N($id,pd) [verbs::pd create $ctx]
    set N($id,cq) [verbs::cq create $ctx -cqe [expr {2 * $count}]]
    set N($id,mr) [verbs::mr create $N($id,pd) -length [expr {$size + $GRH}]]
    set N($id,qp) [$id create_qp $N($id,pd) -send_cq $N($id,cq) -type ud \
	    -cap [list max_send_wr $count max_recv_wr $count]]
    set wr [list wr_id 0 sg_list [list [list $N($id,mr) 0 [expr {$size + $GRH}]]]]
    $N($id,qp) post_recv {*}[lrepeat $count $wr]
}

# uda::receive ID --
#	Waits for COUNT receive completions on connection ID and checks
#	each; returns them.

proc ::uda::receive {id} {
    variable opt
    variable GRH
    variable LIMIT
    variable N
    set count [dict get $opt count]
    set size [dict get $opt size]
    set wcs {}
    while {[llength $wcs] < $count} {
	if {[catch {$N($id,cq) wait 1 -timeout $LIMIT -check 1} got]} {
	    return -code error "receiving data transfers: $got"
	}
	set wc [lindex $got 0]
	if {[dict get $wc opcode] ne "recv"} {
	    continue	;# a send's completion (the server's replies)
	}
	if {[dict get $wc byte_len] != $size + $GRH} {
	    return -code error "datagram of [expr {[dict get $wc byte_len]
		    - $GRH}] bytes, not $size"
	}
	if {"with_imm" ni [dict get $wc wc_flags]
		|| [dict get $wc imm_data] != [dict get $wc src_qp]} {
	    return -code error "datagram from qp [dict get $wc src_qp]\
		    without its QP number as immediate data"
	}
	lappend wcs $wc
    }
    return $wcs
}

# uda::send ID AH QPN ?SIGNALED? --
#	Posts COUNT datagrams from the start of connection ID's buffer
#	(SEND with immediate data: this QP's number) to QPN through AH,
#	with the QP's Q_Key (librdmacm's, which the peer's QP has too).

proc ::uda::send {id ah qpn} {
    variable opt
    variable N
    set wr [list opcode send_with_imm imm_data [$N($id,qp) cget -qp_num] \
	    ah $ah remote_qpn $qpn send_flags signaled \
	    sg_list [list [list $N($id,mr) 0 [dict get $opt size]]]]
    $N($id,qp) post_send {*}[lrepeat [dict get $opt count] $wr]
}

proc ::uda::runServer {} {
    variable opt
    variable N
    variable PORT
    variable GRH
    variable LIMIT
    dict with opt {}
    puts "udaddy: starting server"
    set ch [verbs::cm channel]
    set listenId [verbs::cm id $ch -ps $ps]
    if {[catch {address $bind 1} local]} {
	return -code error "getrdmaaddr error: $local"
    }
    if {[catch {$listenId bind {*}$local} err]} {
	return -code error "bind address failed: $err"
    }
    if {[catch {$listenId listen 0} err]} {
	return -code error "failure trying to listen: $err"
    }
    puts "listening on [join [$listenId cget -local_addr] { port }]"
    flush stdout

    set ids {}
    while {[llength $ids] < $connections} {
	set ev [expect $ch connect_request "connect request" -1]
	set id [dict get $ev id]
	if {[catch {node $id} err]} {
	    catch {$id reject}
	    return -code error "failing connection request: $err"
	}
	if {[catch {$id accept} err]} {
	    return -code error "failure accepting: $err"
	}
	lappend ids $id
    }
    puts "receiving data transfers"
    foreach id $ids {
	set wcs [receive $id]
	set first [lindex $wcs 0]
	set N($id,peer) [dict get $first src_qp]
	# The reply goes to whoever sent: an address handle from the
	# completion and the header in front of the last datagram (all
	# datagrams of a connection come from one QP, on one path).
	set N($id,ah) [verbs::ah from_wc $N($id,pd) $first \
		-grh [$N($id,mr) read 0 $GRH]]
	puts [format "udaddy: received %d datagrams of %d bytes from qp 0x%x" \
		[llength $wcs] $size $N($id,peer)]
    }
    puts "sending replies"
    foreach id $ids {
	send $id $N($id,ah) $N($id,peer)
    }
    foreach id $ids {
	if {[catch {$N($id,cq) wait $count -timeout $LIMIT -check 1} err]} {
	    return -code error "sending replies: $err"
	}
    }
    puts "data transfers complete"
    $ch close
}

proc ::uda::runClient {} {
    variable opt
    variable N
    variable GRH
    variable LIMIT
    dict with opt {}
    puts "udaddy: starting client"
    if {[catch {address $server} dst]} {
	return -code error "getaddrinfo error: $dst"
    }
    set src {}
    if {$bind ne ""} {
	if {[catch {address $bind 1} src]} {
	    return -code error "getaddrinfo error: $src"
	}
	set src [list -src [lindex $src 0]]
    }
    puts "udaddy: connecting"
    set ch [verbs::cm channel]
    set ids {}
    for {set i 0} {$i < $connections} {incr i} {
	set id [verbs::cm id $ch -ps $ps]
	if {[catch {$id resolve_addr {*}$dst {*}$src -timeout 2000} err]} {
	    return -code error "failure getting addr: $err"
	}
	lappend ids $id
    }

    # The events of all connections, as they come.
    set left $connections
    while {$left > 0} {
	set ev [$ch wait -timeout $LIMIT]
	set id [dict get $ev id]
	switch -- [dict get $ev event] {
	    addr_resolved {
		if {$tos ne ""} {
		    $id set_option tos $tos
		}
		$id resolve_route -timeout 2000
	    }
	    route_resolved {
		node $id
		$id connect
	    }
	    established {
		set N($id,peer) [dict get $ev qp_num]
		set N($id,ah) [verbs::ah create $N($id,pd) \
			[dict get $ev ah_attr]]
		incr left -1
	    }
	    default {
		return -code error "event: [dict get $ev event],\
			error: [dict get $ev status]"
	    }
	}
    }

    puts "initiating data transfers"
    foreach id $ids {
	set msg [message [$N($id,qp) cget -qp_num]]
	$N($id,mr) write 0 $msg
	send $id $N($id,ah) $N($id,peer)
    }
    puts "receiving data transfers"
    foreach id $ids {
	set msg [message [$N($id,qp) cget -qp_num]]
	set wcs [receive $id]
	# Each reply echoes the header and the start of our datagram.
	set echo [expr {$size - $GRH}]
	set want [string range $msg 0 $echo-1]
	if {$echo > 0 && [$N($id,mr) read [expr {2 * $GRH}] $echo] ne $want} {
	    return -code error "the reply does not echo the datagram:\
		    \"[$N($id,mr) read [expr {2 * $GRH}] $echo]\""
	}
	foreach wc $wcs {
	    if {[dict get $wc src_qp] != $N($id,peer)} {
		return -code error "a reply from qp [dict get $wc src_qp]"
	    }
	}
	puts [format "udaddy: %d replies of %d bytes from qp 0x%x echo the\
		datagram" [llength $wcs] $size $N($id,peer)]
    }
    puts "data transfers complete"
    $ch close
}

proc ::uda::main {argv} {
    variable opt
    parseArgs $argv
    if {[dict get $opt server] ne ""} {
	set status [catch {runClient} msg]
    } else {
	set status [catch {runServer} msg]
    }
    if {$status} {
	puts "udaddy: $msg"
    }
    puts "test complete"
    foreach ctx [verbs::objects context] {
	$ctx close
    }
    puts "return status $status"
    exit $status
}

::uda::main $argv
