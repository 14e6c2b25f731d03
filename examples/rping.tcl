#!/usr/bin/env tclsh
# rping.tcl -s|-c ?option ...? --
#
#	librdmacm's rping on the wire, so that either side may be this
#	script or the C program: an RC connection through the RDMA
#	connection manager, then for each ping
#
#	    the client fills its source buffer with "rdma-ping-N: " and a
#	    run of letters, and SENDs the buffer's address, rkey and size
#	    (16 bytes: a 64-bit and two 32-bit fields, big-endian);
#	    the server RDMA READs the buffer, and SENDs a "go ahead";
#	    the client SENDs the same of its sink buffer;
#	    the server RDMA WRITEs what it read into the sink (up to and
#	    with the first zero byte), and SENDs a "go ahead";
#
#	and last the client disconnects.  The queue pair, the client's
#	connection parameters (one READ in flight each way, retry and RNR
#	retry 7; the server accepts with the same), the buffers and their
#	access flags are the C program's.
#
#	Options: rping's, except -P and -q, and -t:
#	    -s            the server
#	    -c            the client
#	    -a ADDRESS    the server's address: the one to listen on, or to
#	                  connect to (the server's default 0.0.0.0)
#	    -I ADDRESS    the client's source address (the routing table's
#	                  choice)
#	    -p PORT       the port (7174)
#	    -C COUNT      pings before the client disconnects (0, the
#	                  default: without end)
#	    -S SIZE       the size of the buffers (64; 26 to 65535, as
#	                  rping takes); client and server must agree
#	    -v            print each ping's data: the client "ping data:
#	                  TEXT", the server "server ping data: TEXT"
#	    -V            the client checks that the data came back whole
#	    -d            print each step
#	    -t MS         how long each step of a ping may take (15000); a
#	                  server waits for a connection, and for the next
#	                  ping, without limit, as rping does
#
#	Numbers are decimal, as rping reads them.
#
#	Exit status 0 when the client has made its pings and disconnected
#	(the server: when the client disconnected between two pings); 1
#	with a message on stderr otherwise.  That is stricter than rping,
#	whose sides also end with 0 when the other goes away in the middle
#	of a ping, and which prints its usage on stdout with status 22.
#
#	The script is executable: "#!/usr/bin/env tclsh" runs the tclsh on
#	PATH, which finds verbs where it is installed, or in a build tree
#	with TCLLIBPATH=BUILDDIR (as "make shell" sets it).
#
# Copyright (c) 2026 The verbs authors.
# See the file "LICENSE" for terms of use and redistribution.

package require Tcl 8.6-
package require verbs

namespace eval ::rping {
    # The address message's size, and rping's limits of -S: the longest
    # "rdma-ping-N: " with room for its zero byte, and 64 KiB less one
    # (rping refuses its own RPING_BUFSIZE).
    variable INFOLEN 16
    variable MINSIZE 26
    variable MAXSIZE 65535
    # rping's queue sizes.
    variable SQDEPTH 16

    variable opt [dict create role {} addr {} src {} port 7174 count 0 \
	    size 64 verbose 0 validate 0 debug 0 timeout 15000]
    # The objects of the connection, once made.
    variable o [dict create]
}

proc ::rping::usage {{chan stderr}} {
    set me [file tail $::argv0]
    puts $chan "usage: $me -s \[-vVd\] \[-S size\] \[-C count\] \[-a addr\] \[-p port\] \[-t ms\]
       $me -c \[-vVd\] \[-S size\] \[-C count\] \[-I addr\] -a addr \[-p port\] \[-t ms\]
	-c		client side
	-I		source address to bind to for client
	-s		server side
	-v		display ping data to stdout
	-V		validate ping data
	-d		debug printfs
	-S size		ping data size (default 64)
	-C count	ping count times
	-a addr		address
	-p port		port (default 7174)
	-t ms		limit of each step of a ping (default 15000)"
}

proc ::rping::badUsage {msg} {
    puts stderr "[file tail $::argv0]: $msg"
    usage
    exit 1
}

# rping::decimal VALUE --
#	VALUE as a decimal number (atoi's reading, not Tcl's: no octal or
#	hexadecimal), or "" when it is not one.

proc ::rping::decimal {value} {
    if {![regexp {^-?[0-9]+$} $value]} {
	return ""
    }
    scan $value %d
}

# rping::parseArgs ARGV --
#	Fills rping::opt from getopt-style options (-C 5, -C5, -vV).

proc ::rping::parseArgs {argv} {
    variable opt
    variable MINSIZE
    variable MAXSIZE
    for {set k 0} {$k < [llength $argv]} {incr k} {
	set a [lindex $argv $k]
	if {$a in {-h --help}} {
	    usage stdout
	    exit 0
	}
	if {![regexp {^-([scvVdaIpCSt])(.*)$} $a -> letter rest]} {
	    badUsage "unknown option or argument \"$a\""
	}
	# Flags may be grouped (-vV); the others take a value.
	while {$letter in {s c v V d}} {
	    switch -- $letter {
		s {dict set opt role server}
		c {dict set opt role client}
		v {dict set opt verbose 1}
		V {dict set opt validate 1}
		d {dict set opt debug 1}
	    }
	    if {$rest eq ""} {
		set letter {}
		break
	    }
	    if {![regexp {^([scvVdaIpCSt])(.*)$} $rest -> letter rest]} {
		badUsage "unknown option or argument \"$a\""
	    }
	}
	if {$letter eq ""} {
	    continue
	}
	set value $rest
	if {$value eq ""} {
	    if {[incr k] >= [llength $argv]} {
		badUsage "option \"-$letter\" needs a value"
	    }
	    set value [lindex $argv $k]
	}
	set n [decimal $value]
	switch -- $letter {
	    a {dict set opt addr $value}
	    I {dict set opt src $value}
	    p {
		if {$n eq "" || $n < 0 || $n > 65535} {
		    badUsage "bad port \"$value\""
		}
		dict set opt port $n
	    }
	    C {
		if {$n eq "" || $n < 0} {
		    badUsage "Invalid count $value"
		}
		dict set opt count $n
	    }
	    S {
		if {$n eq "" || $n < $MINSIZE || $n > $MAXSIZE} {
		    badUsage "Invalid size $value (valid range is $MINSIZE\
			    to $MAXSIZE)"
		}
		dict set opt size $n
	    }
	    t {
		if {$n eq "" || $n < 1} {
		    badUsage "bad timeout \"$value\""
		}
		dict set opt timeout $n
	    }
	}
    }
    switch -- [dict get $opt role] {
	"" {badUsage "one of -s and -c is required"}
	client {
	    if {[dict get $opt addr] eq ""} {
		badUsage "the client needs the server's address (-a)"
	    }
	}
	server {
	    if {[dict get $opt addr] eq ""} {
		dict set opt addr 0.0.0.0
	    }
	}
    }
}

proc ::rping::debug {msg} {
    variable opt
    if {[dict get $opt debug]} {
	puts $msg
	flush stdout
    }
}

# rping::expect EVENT WHAT ?TIMEOUT? --
#	The next rdma_cm event, which must be EVENT; anything else (or
#	nothing in time) is an error saying WHAT failed.

proc ::rping::expect {event what {timeout {}}} {
    variable opt
    variable o
    if {$timeout eq ""} {
	set timeout [dict get $opt timeout]
    }
    if {[catch {verbs::cm_expect [dict get $o ch] $event \
	    -timeout $timeout} ev]} {
	return -code error "$what: $ev"
    }
    debug "cma event [dict get $ev event]"
    return $ev
}

# rping::setup ID --
#	The resources of a connection on ID's device, as rping's
#	rping_setup_qp and rping_setup_buffers make them: a PD, a CQ for
#	both queues, an RC queue pair of 16 sends and 2 receives, and the
#	buffers: the 16-byte receive and send buffers, the RDMA buffer
#	(the server's READ target and WRITE source, the client's sink) and
#	on the client the source buffer.  The one receive is posted.

proc ::rping::setup {id} {
    variable o
    variable opt
    variable INFOLEN
    variable SQDEPTH
    set size [dict get $opt size]
    set ctx [$id cget -context]
    set pd [verbs::pd create $ctx]
    set cq [verbs::cq create $ctx -cqe [expr {2 * $SQDEPTH}]]
    if {[catch {$id create_qp $pd -send_cq $cq -recv_cq $cq -type rc \
	    -cap [list max_send_wr $SQDEPTH max_recv_wr 2 max_send_sge 1 \
	    max_recv_sge 1]} qp]} {
	return -code error "rdma_create_qp: $qp"
    }
    set remote {local_write remote_read remote_write}
    dict set o id $id
    dict set o ctx $ctx
    dict set o cq $cq
    dict set o qp $qp
    dict set o recv [verbs::mr create $pd -length $INFOLEN -access local_write]
    dict set o send [verbs::mr create $pd -length $INFOLEN -access {}]
    dict set o rdma [verbs::mr create $pd -length $size -access $remote]
    if {[dict get $opt role] eq "client"} {
	dict set o start [verbs::mr create $pd -length $size -access $remote]
    }
    debug "allocated & registered buffers..."
    postRecv
}

proc ::rping::postRecv {} {
    variable o
    variable INFOLEN
    if {[catch {[dict get $o qp] post_recv [list wr_id 0 \
	    sg_list [list [list [dict get $o recv] 0 $INFOLEN]]]} err]} {
	return -code error "ibv_post_recv: $err"
    }
}

# rping::post WR WHAT --
#	Posts the signaled send work request WR (a dict, opcode and the
#	rest).

proc ::rping::post {wr what} {
    variable o
    dict set wr send_flags signaled
    if {[catch {[dict get $o qp] post_send $wr} err]} {
	return -code error "$what: $err"
    }
}

# rping::advertise MR --
#	Sends the address, rkey and size of MR (the C program's
#	rping_format_send and its post).

proc ::rping::advertise {mr} {
    variable o
    variable opt
    variable INFOLEN
    set send [dict get $o send]
    $send write 0 [binary format WI2 [$mr cget -addr] \
	    [list [$mr cget -rkey] [dict get $opt size]]]
    debug "RDMA addr [format %llx [$mr cget -addr]] rkey\
	    [format %x [$mr cget -rkey]] len [dict get $opt size]"
    post [list opcode send sg_list [list [list $send 0 $INFOLEN]]] \
	"post send of the buffer's address"
}

# rping::await OPCODE WHAT ?TIMEOUT? --
#	Reads completions until the one of OPCODE (recv, rdma_read or
#	rdma_write) arrives, skipping those of the sends, and returns it; a
#	receive's 16 bytes are taken (as the completion's "data") before
#	the receive is posted again.  "flushed" when a work request
#	was flushed: the peer disconnected ($cq wait reads the rdma_cm
#	channel while it waits).  Any other failed completion, or none in
#	time, is an error saying WHAT was waited for.

proc ::rping::await {opcode what {timeout {}}} {
    variable o
    variable opt
    variable INFOLEN
    if {$timeout eq ""} {
	set timeout [dict get $opt timeout]
    }
    while 1 {
	if {[catch {[dict get $o cq] wait 1 -timeout $timeout} wcs]} {
	    return -code error "$what: $wcs"
	}
	set wc [lindex $wcs 0]
	switch -- [dict get $wc status] {
	    success {}
	    wr_flush_err {return flushed}
	    default {
		return -code error "$what: cq completion failed status\
			[dict get $wc status]"
	    }
	}
	set got [dict get $wc opcode]
	debug "$got completion"
	if {$got eq "send"} {
	    continue
	}
	if {$got eq "recv"} {
	    if {[dict get $wc byte_len] != $INFOLEN} {
		return -code error "$what: Received bogus data, size\
			[dict get $wc byte_len]"
	    }
	    dict set wc data [[dict get $o recv] read 0 $INFOLEN]
	    postRecv
	}
	if {$got ne $opcode} {
	    return -code error "$what: a $got completion came instead"
	}
	return $wc
    }
}

# rping::cstring BYTES --
#	BYTES up to the first zero byte, as text.

proc ::rping::cstring {bytes} {
    set n [string first \0 $bytes]
    if {$n >= 0} {
	set bytes [string range $bytes 0 [expr {$n - 1}]]
    }
    encoding convertfrom iso8859-1 $bytes
}

# rping::connection --
#	The options of connect and accept: rping's rdma_conn_param.

proc ::rping::connection {} {
    list -responder_resources 1 -initiator_depth 1 -retry_count 7 \
	-rnr_retry_count 7
}

proc ::rping::server {} {
    variable o
    variable opt
    variable INFOLEN
    dict with opt {}

    set ch [verbs::cm channel]
    dict set o ch $ch
    set listenId [verbs::cm id $ch -ps tcp]
    if {[catch {$listenId bind $addr $port} err]} {
	return -code error "rdma_bind_addr: $err"
    }
    if {[catch {$listenId listen 3} err]} {
	return -code error "rdma_listen: $err"
    }
    debug "rdma_listen on [join [$listenId cget -local_addr] { port }]"

    set req [expect connect_request "waiting for a connect request" -1]
    set id [dict get $req id]
    if {[catch {setup $id} err]} {
	catch {$id reject}
	return -code error $err
    }
    if {[catch {$id accept {*}[connection]} err]} {
	return -code error "rdma_accept: $err"
    }
    expect established rdma_accept
    debug "accepting client connection request"

    set qp [dict get $o qp]
    set rdma [dict get $o rdma]
    set send [dict get $o send]
    for {set ping 0} 1 {incr ping} {
	# The client's source buffer, or its disconnect.
	set wc [await recv "waiting for ping $ping" -1]
	if {$wc eq "flushed"} {
	    expect disconnected "the client's disconnect"
	    debug "server DISCONNECT EVENT..."
	    break
	}
	binary scan [dict get $wc data] WuIuIu raddr rkey rlen
	debug "Received rkey [format %x $rkey] addr [format %llx $raddr]\
		len $rlen from peer"
	if {$rlen > $size} {
	    return -code error "ping $ping: the client's buffer of $rlen\
		    bytes is larger than this server's (-S $size)"
	}
	post [list opcode rdma_read sg_list [list [list $rdma 0 $rlen]] \
		remote_addr $raddr rkey $rkey] "post of the RDMA READ"
	if {[await rdma_read "the RDMA READ of ping $ping"] eq "flushed"} {
	    return -code error "ping $ping: the client disconnected"
	}
	set text [cstring [$rdma read 0 $rlen]]
	if {$verbose} {
	    puts "server ping data: $text"
	    flush stdout
	}
	# Go ahead (the send buffer's 16 bytes, zero: only their number
	# counts).
	post [list opcode send sg_list [list [list $send 0 $INFOLEN]]] \
	    "post send of go ahead"
	debug "server posted go ahead"

	# The client's sink buffer.
	set wc [await recv "the sink of ping $ping"]
	if {$wc eq "flushed"} {
	    return -code error "ping $ping: the client disconnected"
	}
	binary scan [dict get $wc data] WuIuIu raddr rkey rlen
	set len [expr {min([string length $text] + 1, $rlen)}]
	post [list opcode rdma_write sg_list [list [list $rdma 0 $len]] \
		remote_addr $raddr rkey $rkey] "post of the RDMA WRITE"
	if {[await rdma_write "the RDMA WRITE of ping $ping"] eq "flushed"} {
	    return -code error "ping $ping: the client disconnected"
	}
	post [list opcode send sg_list [list [list $send 0 $INFOLEN]]] \
	    "post send of go ahead"
	debug "server posted go ahead"
    }
    catch {$id disconnect}
    [dict get $o ctx] close
    $ch close
}

proc ::rping::client {} {
    variable o
    variable opt
    dict with opt {}

    set ch [verbs::cm channel]
    dict set o ch $ch
    set id [verbs::cm id $ch -ps tcp]
    set srcopt {}
    if {$src ne ""} {
	lappend srcopt -src $src
    }
    if {[catch {$id resolve_addr $addr $port {*}$srcopt -timeout 2000} err]} {
	return -code error "rdma_resolve_addr: $err"
    }
    expect addr_resolved rdma_resolve_addr
    if {[catch {$id resolve_route -timeout 2000} err]} {
	return -code error "rdma_resolve_route: $err"
    }
    expect route_resolved rdma_resolve_route
    setup $id
    if {[catch {$id connect {*}[connection]} err]} {
	return -code error "rdma_connect: $err"
    }
    expect established rdma_connect
    debug "rdma_connect successful"

    set start [dict get $o start]
    set rdma [dict get $o rdma]
    # The letters of the buffer run from A to z and round again, one
    # further on at each ping.
    set letters {}
    for {set c 65} {$c <= 122} {incr c} {
	append letters [format %c $c]
    }
    set run [string repeat $letters [expr {$size / 58 + 2}]]
    for {set ping 0} {$count == 0 || $ping < $count} {incr ping} {
	set first [expr {$ping % 58}]
	set text "rdma-ping-$ping: [string range $run $first end]"
	set text [string range $text 0 [expr {$size - 2}]]
	set data [encoding convertto iso8859-1 $text]\0
	$start write 0 $data

	advertise $start
	if {[await recv "the go ahead after the READ of ping $ping"] eq "flushed"} {
	    return -code error "ping $ping: the server disconnected"
	}
	advertise $rdma
	if {[await recv "the go ahead after the WRITE of ping $ping"] eq "flushed"} {
	    return -code error "ping $ping: the server disconnected"
	}
	if {$validate && [$rdma read 0 $size] ne $data} {
	    return -code error "data mismatch!"
	}
	if {$verbose} {
	    puts "ping data: [cstring [$rdma read 0 $size]]"
	    flush stdout
	}
    }
    debug "rping_test_client done"
    catch {$id disconnect}
    [dict get $o ctx] close
    $ch close
}

proc ::rping::main {argv} {
    variable opt
    parseArgs $argv
    if {[catch {[dict get $opt role]} msg]} {
	puts stderr "[file tail $::argv0]: $msg"
	exit 1
    }
}

if {[catch {::rping::main $argv} msg]} {
    puts stderr "[file tail $argv0]: $msg"
    exit 1
}
exit 0
