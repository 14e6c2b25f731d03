#!/usr/bin/env tclsh
# cm_server.tcl ?-s address? ?-p port? --
#
#	The passive side of librdmacm's rdma_server/rdma_client pair, so
#	that either side may be this script or the C program.  It listens
#	on an IP address and port through the RDMA connection manager,
#	takes one connect request, gives the new connection an RC queue
#	pair, and then:
#
#	    posts one 16-byte receive,
#	    accepts the connection and waits until it is established,
#	    waits for the client's 16-byte message,
#	    answers with 16 bytes of its own (inline when the QP allows),
#	    waits for that send to complete, and disconnects.
#
#	Like rdma_server, the queue pair has one send and one receive work
#	request of one SGE, asks for 16 bytes of inline data and signals
#	every send (sq_sig_all); the messages are all zero bytes.
#
#	Options (those of rdma_server):
#	    -s ADDRESS    the local IPv4 or IPv6 address to listen on
#	                  (0.0.0.0: every address); -b is a synonym
#	    -p PORT       the port to listen on (7471)
#	    -t MS         how long each step after the connect request may
#	                  take (15000; the connect request itself is awaited
#	                  without limit, as rdma_server does)
#
#	Prints "cm_server: start" and "cm_server: end 0" on success, as
#	rdma_server prints its own, and in between, once rdma_listen has
#	returned, "listening on ADDRESS port PORT" (the address and port
#	the listening id is bound to; -p 0 lets the system choose): start
#	the client after that line.  Exit status 0 on success, 1 with a
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

namespace eval ::cms {
    # The size of both messages.
    variable MSGLEN 16

    variable opt [dict create addr 0.0.0.0 port 7471 timeout 15000]
}

proc ::cms::usage {{chan stderr}} {
    set me [file tail $::argv0]
    puts $chan "usage: $me
	\[-s server_address\]   address to listen on (default 0.0.0.0)
	\[-b bind_address\]     the same as -s
	\[-p port_number\]      port to listen on (default 7471)
	\[-t timeout_ms\]       limit of each step after the request (15000)"
}

proc ::cms::badUsage {msg} {
    puts stderr "[file tail $::argv0]: $msg"
    usage
    exit 1
}

# cms::parseArgs ARGV --
#	Fills cms::opt from getopt-style options: -s ADDR or -sADDR.

proc ::cms::parseArgs {argv} {
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
	    s - b {
		dict set opt addr $value
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

# cms::expect CHANNEL EVENT WHAT ?MS? --
#	The next rdma_cm event, which must be EVENT; anything else (or
#	nothing within MS milliseconds) is an error saying WHAT failed.

proc ::cms::expect {channel event what {ms {}}} {
    variable opt
    if {$ms eq ""} {
	set ms [dict get $opt timeout]
    }
    if {[catch {verbs::cm_expect $channel $event -timeout $ms} ev]} {
	return -code error "$what: $ev"
    }
    return $ev
}

# cms::completion CQ WHAT --
#	Waits for the one completion of a work request on CQ; a failed one
#	(wait -check) or none in time is an error saying WHAT failed.

proc ::cms::completion {cq what} {
    variable opt
    if {[catch {$cq wait 1 -timeout [dict get $opt timeout] -check 1} wcs]} {
	return -code error "$what: $wcs"
    }
    lindex $wcs 0
}

proc ::cms::run {} {
    variable opt
    variable MSGLEN
    dict with opt {}

    # The listening id.  rdma_server gets it from rdma_getaddrinfo and
    # rdma_create_ep on the passive address; here the id is bound to it.
    set ch [verbs::cm channel]
    set listenId [verbs::cm id $ch -ps tcp]
    if {[catch {$listenId bind $addr $port} err]} {
	return -code error "rdma_bind_addr: $err"
    }
    if {[catch {$listenId listen} err]} {
	return -code error "rdma_listen: $err"
    }
    lassign [$listenId cget -local_addr] addr port
    puts "listening on $addr port $port"
    flush stdout

    # One connect request.  The new id comes with the device it arrived
    # on, and the queue pair, CQs and buffer go on that device.
    set req [expect $ch connect_request rdma_get_request -1]
    set id [dict get $req id]
    set ctx [$id cget -context]
    set pd [verbs::pd create $ctx]
    set scq [verbs::cq create $ctx -cqe 1]
    set rcq [verbs::cq create $ctx -cqe 1]
    if {[catch {$id create_qp $pd -send_cq $scq -recv_cq $rcq -type rc \
	    -cap [list max_send_wr 1 max_recv_wr 1 max_send_sge 1 \
	    max_recv_sge 1 max_inline_data $MSGLEN] -sq_sig_all 1} qp]} {
	$id reject
	return -code error "rdma_create_qp: $qp"
    }
    set sendFlags {}
    if {[dict get [$qp query] cap max_inline_data] >= $MSGLEN} {
	lappend sendFlags inline
    } else {
	puts "cm_server: device doesn't support IBV_SEND_INLINE,\
		using sge sends"
    }

    # Receive into the first 16 bytes, send from the next 16 (all zero).
    set mr [verbs::mr create $pd -length [expr {2 * $MSGLEN}] \
	    -access local_write]
    if {[catch {$qp post_recv [list wr_id 0 \
	    sg_list [list [list $mr 0 $MSGLEN]]]} err]} {
	return -code error "rdma_post_recv: $err"
    }

    if {[catch {$id accept} err]} {
	return -code error "rdma_accept: $err"
    }
    expect $ch established rdma_accept

    completion $rcq rdma_get_recv_comp
    if {[catch {$qp post_send [list wr_id 0 opcode send \
	    send_flags $sendFlags \
	    sg_list [list [list $mr $MSGLEN $MSGLEN]]]} err]} {
	return -code error "rdma_post_send: $err"
    }
    completion $scq rdma_get_send_comp

    # Disconnect and go, as the C program does, which also ignores a
    # failure here (the client may have torn the connection down first).
    catch {$id disconnect}
    $ctx close
    $ch close
}

proc ::cms::main {argv} {
    parseArgs $argv
    puts "cm_server: start"
    flush stdout
    if {[catch {run} msg]} {
	puts stderr "[file tail $::argv0]: $msg"
	puts "cm_server: end 1"
	exit 1
    }
    puts "cm_server: end 0"
}

if {[catch {::cms::main $argv} msg]} {
    puts stderr "[file tail $argv0]: $msg"
    exit 1
}
exit 0
