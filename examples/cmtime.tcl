#!/usr/bin/env tclsh
# cmtime.tcl ?-s server_address? ?option ...? --
#
#	librdmacm's cmtime in Tcl: how long each step of setting up and
#	tearing down many RC connections through the RDMA connection
#	manager takes, so that either side may be this script or the C
#	program (rdma-core 44's).  Without -s it is the server; with -s a
#	client.
#
#	The client makes CONNECTIONS ids on one event channel and takes all
#	of them through each step together, in cmtime's order: create id,
#	bind addr (with -b), resolve addr, resolve route, create qp, connect,
#	disconnect (rdma_disconnect and the QP destroyed), destroy.  The
#	steps that end with an event (resolutions, connect, disconnect) are
#	started for every id and then wait in the event loop until each id
#	has its event; the others end when their call returns.  An id whose
#	step fails sits out the steps after it (but is destroyed).  A failed
#	address or route resolution is tried again, up to RETRIES times.
#	Then it prints cmtime's table: for each step its total (from the
#	start of the first id's step to the end of the last one's), the
#	longest and the shortest step of one id, and the total divided by
#	CONNECTIONS; a step that no id finished shows cmtime's starting
#	values, 0 and 1000000000 (999999999 in a C float).
#
#	The server listens (backlog 0) and, for every connect request, makes
#	a QP and accepts; when a connection is disconnected it disconnects
#	it too and destroys its QP and id.  It serves any number of clients,
#	one after the other or at once, until it is killed; it times
#	nothing.  (cmtime 44's server runs until killed too, but once the
#	CQs that all its QPs share are destroyed with the QP they were made
#	for, the connect requests of the next client fail: "failure
#	creating qp", and a reject.)
#
#	Its QPs and CM messages are cmtime's: RC QPs of one send and one
#	receive of one SGE each (all on one CQ of the device, as cmtime's
#	all share the CQs librdmacm made for its first); the client connects
#	with one RDMA READ in flight each way, retry count RETRIES, RNR retry
#	count 0, and the connect data of rdma_getaddrinfo, if it gives any
#	(none without ibacm); the server accepts as librdmacm does without
#	parameters (the client's READ depths, as far as the device allows;
#	retry and RNR retry count 7).
#
#	Options (those of cmtime):
#	    -s ADDRESS   the server to connect to (makes this a client)
#	    -b ADDRESS   the local address to bind to (a client binds each
#	                 id to it, and the table gets the bind addr row)
#	    -c N         connections (100)
#	    -p PORT      the server's port (7471)
#	    -r N         retries of a resolution, and the connect's retry
#	                 count (2; 0 to 255, a byte as in cmtime)
#	    -t MS        the time limit of a resolution (2000)
#	Numbers are decimal, as cmtime reads them.
#
#	Output: the client prints a line as it starts each step ("creating
#	id", ..., "destroying id"), a line for each failed id ("event:
#	RDMA_CM_EVENT_REJECTED, error: 8", ...) and the table, on stdout,
#	as cmtime does, so that one script reads the output of both:
#
#	    step              total ms     max ms     min us  us / conn
#	    create id    :        0.39       0.13      11.00      38.80
#	    ...
#
#	The server prints "listening on ADDRESS port PORT" once it listens
#	(cmtime's prints nothing).  Exit status: the client 0 when every
#	connection was made and ended; 1 with "cmtime.tcl: N of M
#	connections failed" on stderr after the table (cmtime ends with 0
#	then), or with a message on stderr when it cannot start.  A bad
#	command line gives the usage on stderr and status 1.
#
#	The script is executable: "#!/usr/bin/env tclsh" runs the tclsh on
#	PATH, which finds verbs where it is installed, or in a build tree
#	with TCLLIBPATH=BUILDDIR (as "make shell" sets it).
#
# Copyright (c) 2026 The verbs authors.
# See the file "LICENSE" for terms of use and redistribution.

package require Tcl 8.6-
package require verbs

namespace eval ::cmtime {
    # The steps in the order of cmtime's table: the name in the table and
    # the line printed as the step starts.
    variable STEPS {
	create_id     {"create id"     "creating id"}
	bind          {"bind addr"     "binding source address"}
	resolve_addr  {"resolve addr"  "resolving address"}
	resolve_route {"resolve route" "resolving route"}
	create_qp     {"create qp"     "creating qp"}
	connect       {"connect"       "connecting"}
	disconnect    {"disconnect"    "disconnecting"}
	destroy       {"destroy"       "destroying id"}
    }
    # The steps that end with an event, and what a failed call says.
    variable ASYNC {resolve_addr resolve_route connect disconnect}
    variable FAILURE {
	bind "failure bind addr" resolve_addr "failure getting addr"
	resolve_route "failure resolving route" create_qp "failure creating qp"
	connect "failure connecting" disconnect "failure disconnecting"
	destroy "failure destroying id"
    }
    # The least value of each option, and the greatest ("" none).
    variable LIMITS {
	c {connections 1 {}} p {port 0 65535} r {retries 0 255}
	t {timeout 1 2147483647}
    }

    variable opt [dict create server {} bind {} connections 100 port 7471 \
	    retries 2 timeout 2000]
    variable ids {}		;# The client's ids, in order.
    variable failed		;# ID -> 1 once a step of ID failed.
    variable t			;# STEP,ID,0 and STEP,ID,1: when ID's step
				;# started and ended (microseconds).
    variable total		;# STEP,0 and STEP,1: the step's.
    variable left 0		;# Ids whose event of this step is to come.
    variable retries		;# ID -> resolutions it may still retry.
    variable dev		;# CONTEXT -> {PD CQ}: the QPs' on it.
    variable dst		;# The server's {ADDRESS PORT}.
    variable src {}		;# The -b address, or none.
    variable conn		;# The client's options of connect.
}

proc ::cmtime::usage {{chan stderr}} {
    puts $chan "usage: [file tail $::argv0]
	\[-s server_address\]
	\[-b bind_address\]
	\[-c connections\]
	\[-p port_number\]
	\[-r retries\]
	\[-t timeout_ms\]"
}

proc ::cmtime::badUsage {msg} {
    puts stderr "[file tail $::argv0]: $msg"
    usage
    exit 1
}

# cmtime::decimal VALUE --
#	VALUE as a decimal number (atoi's reading, not Tcl's: no octal or
#	hexadecimal), or "" when it is not one.

proc ::cmtime::decimal {value} {
    if {![regexp {^-?[0-9]+$} $value]} {
	return ""
    }
    scan $value %d
}

# cmtime::parseArgs ARGV --
#	Fills cmtime::opt from getopt-style options: -c 10 or -c10.

proc ::cmtime::parseArgs {argv} {
    variable opt
    variable LIMITS
    for {set k 0} {$k < [llength $argv]} {incr k} {
	set a [lindex $argv $k]
	if {$a in {-h --help}} {
	    usage stdout
	    exit 0
	}
	if {![regexp {^-([sbcprt])(.*)$} $a -> letter value]} {
	    badUsage "unknown option or argument \"$a\""
	}
	if {$value eq ""} {
	    if {[incr k] >= [llength $argv]} {
		badUsage "option \"-$letter\" needs a value"
	    }
	    set value [lindex $argv $k]
	}
	switch -- $letter {
	    s {dict set opt server $value}
	    b {dict set opt bind $value}
	    default {
		lassign [dict get $LIMITS $letter] key min max
		set n [decimal $value]
		if {$n eq "" || $n < $min || ($max ne "" && $n > $max)} {
		    badUsage "bad -$letter \"$value\": [expr {$max eq ""
			    ? "at least $min" : "$min to $max"}]"
		}
		dict set opt $key $n
	    }
	}
    }
}

# cmtime::addrinfo NODE PASSIVE --
#	rdma_getaddrinfo's answer for NODE (none: any address) and the
#	port, as cmtime asks (RC, the tcp port space): an addrinfo dict
#	whose src_addr is the address to bind to (PASSIVE) or whose
#	dst_addr is the server's.

proc ::cmtime::addrinfo {node passive} {
    variable opt
    set hints [list -service [dict get $opt port] -port_space tcp \
	    -qp_type rc]
    if {$passive} {
	lappend hints -flags passive
    }
    if {$node ne ""} {
	lappend hints -node $node
    }
    lindex [verbs::cm getaddrinfo {*}$hints] 0
}

# cmtime::act STEP ID --
#	The call of STEP on ID (not create id: ID is made by it).

proc ::cmtime::act {step id} {
    variable opt
    variable dev
    variable dst
    variable src
    variable conn
    set ms [dict get $opt timeout]
    switch -- $step {
	bind {$id bind $src}
	resolve_addr {
	    set from [expr {$src eq "" ? {} : [list -src $src]}]
	    $id resolve_addr {*}$dst {*}$from -timeout $ms
	}
	resolve_route {$id resolve_route -timeout $ms}
	create_qp {
	    lassign $dev([$id cget -context]) pd cq
	    $id create_qp $pd -send_cq $cq -recv_cq $cq -type rc -cap {
		max_send_wr 1 max_recv_wr 1 max_send_sge 1 max_recv_sge 1
	    }
	}
	connect {$id connect {*}$conn}
	disconnect {
	    $id disconnect
	    [$id cget -qp] close
	}
	destroy {$id close}
    }
}

# cmtime::device CONTEXT --
#	The PD and CQ of the QPs on CONTEXT's device, made once.  cmtime's
#	QPs are on librdmacm's PD of the device, and all on the CQs
#	librdmacm made with the first one (rdma_create_qp writes them into
#	the attributes that cmtime passes again for the next QP), so that
#	the create qp step makes no CQs but the first.

proc ::cmtime::device {ctx} {
    variable dev
    if {![info exists dev($ctx)]} {
	set dev($ctx) [list [verbs::pd create $ctx] \
		[verbs::cq create $ctx -cqe 1]]
    }
}

# cmtime::run STEP --
#	STEP for every id (but those that failed before, except to destroy
#	them), timed: an id's part ends when its call returns, or for an
#	ASYNC step with its event (cmtime::ended).  A call that fails is
#	reported on stderr, as cmtime's perror does, and the id sits out.

proc ::cmtime::run {step} {
    variable STEPS
    variable ASYNC
    variable FAILURE
    variable opt
    variable ids
    variable failed
    variable t
    variable total
    variable left
    variable retries
    puts [lindex [dict get $STEPS $step] 1]
    set async [expr {$step in $ASYNC}]
    set total($step,0) [clock microseconds]
    set left 0
    foreach id $ids {
	if {[info exists failed($id)] && $step ne "destroy"} {
	    continue
	}
	set retries($id) [dict get $opt retries]
	set t($step,$id,0) [clock microseconds]
	if {[catch {act $step $id} err]} {
	    puts stderr "[dict get $FAILURE $step]: $err"
	    set failed($id) 1
	} elseif {$async} {
	    incr left
	} else {
	    set t($step,$id,1) [clock microseconds]
	}
    }
    while {$left > 0} {
	vwait ::cmtime::left
    }
    set total($step,1) [clock microseconds]
}

# cmtime::ended STEP ID ?ERROR? --
#	ID's part of STEP ended with an event (an error when ERROR is 1).

proc ::cmtime::ended {step id {error 0}} {
    variable t
    variable left
    variable failed
    if {![info exists t($step,$id,0)] || [info exists t($step,$id,1)]} {
	return		;# Not this step's event.
    }
    set t($step,$id,1) [clock microseconds]
    if {$error} {
	set failed($id) 1
    }
    incr left -1
}

# cmtime::clientEvent EVENT --
#	The channel's notify script on the client.

proc ::cmtime::clientEvent {ev} {
    variable retries
    set id [dict get $ev id]
    set event [dict get $ev event]
    switch -- $event {
	addr_resolved {ended resolve_addr $id}
	route_resolved {ended resolve_route $id}
	established {ended connect $id}
	disconnected {ended disconnect $id}
	addr_error - route_error {
	    set step [expr {$event eq "addr_error" ? "resolve_addr"
		    : "resolve_route"}]
	    if {[incr retries($id) -1] >= 0 && ![catch {act $step $id}]} {
		return
	    }
	    puts "[verbs::cm event_str $event], error: [dict get $ev status]"
	    ended $step $id 1
	}
	connect_error - unreachable - rejected {
	    puts "event: [verbs::cm event_str $event], error:\
		    [dict get $ev status]"
	    ended connect $id 1
	}
    }
}

# cmtime::report --
#	cmtime's table.

proc ::cmtime::report {} {
    variable STEPS
    variable opt
    variable ids
    variable t
    variable total
    puts "step              total ms     max ms     min us  us / conn"
    foreach {step names} $STEPS {
	if {$step eq "bind" && [dict get $opt bind] eq ""} {
	    continue
	}
	# cmtime's starting values (its 999999999 is 1e9 as a C float).
	set max 0.0
	set min 1e9
	foreach id $ids {
	    if {[info exists t($step,$id,1)]} {
		set us [expr {$t($step,$id,1) - $t($step,$id,0)}]
		set max [expr {max($max, $us)}]
		set min [expr {min($min, $us)}]
	    }
	}
	set us [expr {$total($step,1) - $total($step,0)}]
	puts [format "%-13s: %11.2f%11.2f%11.2f%11.2f" [lindex $names 0] \
		[expr {$us / 1000.}] [expr {$max / 1000.}] $min \
		[expr {double($us) / [dict get $opt connections]}]]
    }
}

proc ::cmtime::client {} {
    variable opt
    variable ids
    variable failed
    variable t
    variable total
    variable dev
    variable dst
    variable src
    variable conn
    dict with opt {}
    if {[catch {
	if {$bind ne ""} {
	    set src [lindex [dict get [addrinfo $bind 1] src_addr] 0]
	}
	set ai [addrinfo $server 0]
    } err]} {
	return -code error "getaddrinfo error: $err"
    }
    set dst [dict get $ai dst_addr]
    set conn [list -responder_resources 1 -initiator_depth 1 \
	    -retry_count $retries -rnr_retry_count 0]
    if {[dict get $ai connect] ne ""} {
	lappend conn -private_data [dict get $ai connect]
    }

    set ch [verbs::cm channel]
    $ch notify ::cmtime::clientEvent
    puts [lindex [dict get $::cmtime::STEPS create_id] 1]
    set total(create_id,0) [clock microseconds]
    for {set i 0} {$i < $connections} {incr i} {
	set start [clock microseconds]
	set id [verbs::cm id $ch -ps tcp]
	set t(create_id,$id,0) $start
	set t(create_id,$id,1) [clock microseconds]
	lappend ids $id
    }
    set total(create_id,1) [clock microseconds]
    if {$bind ne ""} {
	run bind
    }
    run resolve_addr
    run resolve_route
    # The PD and CQ first, untimed (cmtime's librdmacm made its PD with
    # the device).
    foreach id $ids {
	if {![info exists failed($id)]} {
	    device [$id cget -context]
	}
    }
    run create_qp
    run connect
    run disconnect
    run destroy
    $ch close
    foreach ctx [array names dev] {
	$ctx close	;# What was made on it: the PD, CQ and QPs left.
    }
    report
    if {[array size failed] > 0} {
	return -code error "[array size failed] of $connections connections\
		failed"
    }
}

# cmtime::serverEvent EVENT --
#	The channel's notify script on the server.

proc ::cmtime::serverEvent {ev} {
    set id [dict get $ev id]
    set event [dict get $ev event]
    switch -- $event {
	connect_request {
	    if {[catch {
		device [$id cget -context]
		act create_qp $id
	    } err]} {
		puts stderr "failure creating qp: $err"
	    } elseif {[catch {$id accept -responder_resources 255 \
		    -initiator_depth 255 -retry_count 7 -rnr_retry_count 7} \
		    err]} {
		puts stderr "failure accepting: $err"
	    } else {
		return
	    }
	    puts "failing connection request"
	    catch {$id reject}
	    drop $id
	}
	disconnected {
	    catch {$id disconnect}
	    drop $id
	}
	connect_error - unreachable - rejected {
	    puts "event: [verbs::cm event_str $event], error:\
		    [dict get $ev status]"
	    drop $id
	}
    }
}

# cmtime::drop ID --
#	Destroys ID and its QP.

proc ::cmtime::drop {id} {
    set qp [$id cget -qp]
    if {$qp ne ""} {
	$qp close
    }
    $id close
}

proc ::cmtime::server {} {
    variable opt
    set ch [verbs::cm channel]
    set listener [verbs::cm id $ch -ps tcp]
    if {[catch {addrinfo [dict get $opt bind] 1} ai]} {
	return -code error "getrdmaaddr error: $ai"
    }
    if {[catch {$listener bind {*}[dict get $ai src_addr]} err]} {
	return -code error "bind address failed: $err"
    }
    if {[catch {$listener listen 0} err]} {
	return -code error "failure trying to listen: $err"
    }
    $ch notify ::cmtime::serverEvent
    puts "listening on [join [$listener cget -local_addr] { port }]"
    vwait forever
}

proc ::cmtime::main {argv} {
    variable opt
    parseArgs $argv
    fconfigure stdout -buffering line
    # An error in a notify script ends the program (else it would wait
    # for ever for the event that script was to count).
    interp bgerror {} [list apply {{msg options} {
	puts stderr "[file tail $::argv0]: $msg"
	exit 1
    }}]
    if {[dict get $opt server] ne ""} {
	client
    } else {
	server
    }
}

if {[catch {::cmtime::main $argv} msg]} {
    puts stderr "[file tail $argv0]: $msg"
    exit 1
}
exit 0
