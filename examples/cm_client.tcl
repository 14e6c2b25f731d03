#!/usr/bin/env tclsh
# cm_client.tcl ?-s address? ?-p port? ?-b address? --
#
#	The active side of librdmacm's rdma_server/rdma_client pair, so
#	that either side may be this script or the C program.  It resolves
#	the server's IP address and a route to it through the RDMA
#	connection manager, gives its id an RC queue pair, and then:
#
#	    posts one 16-byte receive,
#	    connects and waits until the connection is established,
#	    sends 16 bytes (inline when the QP allows),
#	    waits for that send to complete,
#	    waits for the server's 16-byte answer,
#	    lets the server disconnect first (for at most 2 s), and
#	    disconnects.
#
#	Like rdma_client, the queue pair has one send and one receive work
#	request of one SGE, asks for 16 bytes of inline data and signals
#	every send (sq_sig_all); the messages are all zero bytes.
#
#	Options (those of rdma_client, and -b):
#	    -s ADDRESS    the server's IPv4 or IPv6 address (127.0.0.1)
#	    -p PORT       the server's port (7471)
#	    -b ADDRESS    the local address to connect from (the routing
#	                  table's choice)
#	    -t MS         how long each step may take (15000)
#
#	Prints "cm_client: start" and "cm_client: end 0" on success, as
#	rdma_client prints its own; exit status 0 on success, 1 with a
#	message on stderr otherwise.
#
#	The script is executable: "#!/usr/bin/env tclsh" runs the tclsh on
#	PATH, which finds verbs where it is installed, or in a build tree
#	with TCLLIBPATH=BUILDDIR (as "make shell" sets it).
#
# Copyright (c) 2026 The verbs authors.
# See the file "LICENSE" for terms of use and redistribution.

package require Tcl 8.6-
package require verbs

namespace eval ::cmc {
    # The size of both messages.
    variable MSGLEN 16

    variable opt [dict create server 127.0.0.1 port 7471 src {} \
	    timeout 15000]
}

proc ::cmc::usage {{chan stderr}} {
    set me [file tail $::argv0]
    puts $chan "usage: $me
	\[-s server_address\]   server to connect to (default 127.0.0.1)
	\[-p port_number\]      its port (default 7471)
	\[-b bind_address\]     local address to connect from
	\[-t timeout_ms\]       limit of each step (default 15000)"
}

proc ::cmc::badUsage {msg} {
    puts stderr "[file tail $::argv0]: $msg"
    usage
    exit 1
}

# cmc::parseArgs ARGV --
#	Fills cmc::opt from getopt-style options: -s ADDR or -sADDR.

proc ::cmc::parseArgs {argv} {
    variable opt
    for {set k 0} {$k < [llength $argv]} {incr k} {
	set a [lindex $argv $k]
	if {$a in {-h --help}} {
	    usage stdout
	    exit 0
	}
	if {![regexp {^-([sbpt])(.*)$} $a -> letter value]} {
	    badUsage "unknown option or argument \"$a\""
	}
	if {$value eq ""} {
	    if {[incr k] >= [llength $argv]} {
		badUsage "option \"$a\" needs a value"
	    }
	    set value [lindex $argv $k]
	}
	switch -- $letter {
	    s {
		dict set opt server $value
	    }
	    b {
		dict set opt src $value
	    }
	    p {
		if {![string is integer -strict $value]
			|| $value < 0 || $value > 65535} {
		    badUsage "bad port \"$value\""
		}
		dict set opt port [expr {$value}]
	    }
	    t {
		if {![string is integer -strict $value] || $value < 1} {
		    badUsage "bad timeout \"$value\""
		}
		dict set opt timeout [expr {$value}]
	    }
	}
    }
}

# cmc::expect CHANNEL EVENT WHAT --
#	The next rdma_cm event, which must be EVENT; anything else (or
#	nothing in time) is an error saying WHAT failed.

proc ::cmc::expect {channel event what} {
    variable opt
    if {[catch {verbs::cm_expect $channel $event \
	    -timeout [dict get $opt timeout]} ev]} {
	return -code error "$what: $ev"
    }
    return $ev
}

# cmc::completion CQ WHAT --
#	Waits for the one completion of a work request on CQ; a failed one
#	(wait -check) or none in time is an error saying WHAT failed.

proc ::cmc::completion {cq what} {
    variable opt
    if {[catch {$cq wait 1 -timeout [dict get $opt timeout] -check 1} wcs]} {
	return -code error "$what: $wcs"
    }
    lindex $wcs 0
}

proc ::cmc::run {} {
    variable opt
    variable MSGLEN
    dict with opt {}

    # Address and route resolution, which rdma_client leaves to
    # rdma_getaddrinfo and rdma_create_ep (2 s each there too).
    set ch [verbs::cm channel]
    set id [verbs::cm id $ch -ps tcp]
    set srcopt {}
    if {$src ne ""} {
	lappend srcopt -src $src
    }
    if {[catch {$id resolve_addr $server $port {*}$srcopt \
	    -timeout 2000} err]} {
	return -code error "rdma_resolve_addr: $err"
    }
    expect $ch addr_resolved rdma_resolve_addr
    if {[catch {$id resolve_route -timeout 2000} err]} {
	return -code error "rdma_resolve_route: $err"
    }
    expect $ch route_resolved rdma_resolve_route

    # The queue pair, CQs and buffer on the device the route leads to.
    set ctx [$id cget -context]
    set pd [verbs::pd create $ctx]
    set scq [verbs::cq create $ctx -cqe 1]
    set rcq [verbs::cq create $ctx -cqe 1]
    if {[catch {$id create_qp $pd -send_cq $scq -recv_cq $rcq -type rc \
	    -cap [list max_send_wr 1 max_recv_wr 1 max_send_sge 1 \
	    max_recv_sge 1 max_inline_data $MSGLEN] -sq_sig_all 1} qp]} {
	return -code error "rdma_create_qp: $qp"
    }
    set sendFlags {}
    if {[dict get [$qp query] cap max_inline_data] >= $MSGLEN} {
	lappend sendFlags inline
    } else {
	puts "cm_client: device doesn't support IBV_SEND_INLINE,\
		using sge sends"
    }

    # Receive into the first 16 bytes, send from the next 16 (all zero).
    set mr [verbs::mr create $pd -length [expr {2 * $MSGLEN}] \
	    -access local_write]
    if {[catch {$qp post_recv [list wr_id 0 \
	    sg_list [list [list $mr 0 $MSGLEN]]]} err]} {
	return -code error "rdma_post_recv: $err"
    }

    # The connection is established (and the RTU sent) only while this
    # side reads its channel: cm_expect does.
    if {[catch {$id connect} err]} {
	return -code error "rdma_connect: $err"
    }
    expect $ch established rdma_connect

    if {[catch {$qp post_send [list wr_id 0 opcode send \
	    send_flags $sendFlags \
	    sg_list [list [list $mr $MSGLEN $MSGLEN]]]} err]} {
	return -code error "rdma_post_send: $err"
    }
    completion $scq rdma_get_send_comp
    completion $rcq rdma_get_recv_comp

    # The server disconnects once its send has completed, that is once
    # the acknowledgement of our receive reached it.  The receive
    # completion can come before the device has sent that ACK (Soft-RoCE
    # posts the CQE first), and a disconnect at once would move the QP
    # to the error state with the ACK still unsent: the server would
    # wait for its send completion until its retries ran out.  So give
    # the server a moment to disconnect first (rdma_client disconnects
    # at once, but wakes up from a completion event, not busy polling).
    # Then disconnect; like the C program, ignore a failure there.
    catch {verbs::cm_expect $ch disconnected -timeout 2000}
    catch {$id disconnect}
    $ctx close
    $ch close
}

proc ::cmc::main {argv} {
    parseArgs $argv
    puts "cm_client: start"
    flush stdout
    if {[catch {run} msg]} {
	puts stderr "[file tail $::argv0]: $msg"
	puts "cm_client: end 1"
	exit 1
    }
    puts "cm_client: end 0"
}

if {[catch {::cmc::main $argv} msg]} {
    puts stderr "[file tail $argv0]: $msg"
    exit 1
}
exit 0
