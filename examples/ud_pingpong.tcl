#!/usr/bin/env tclsh
# ud_pingpong.tcl ?option ...? ?server? --
#
#	A ping-pong over one UD (unreliable datagram) queue pair that speaks
#	the same protocol as rdma-core's ibv_ud_pingpong, so either side may
#	be this script or the C program.  Without a server name it waits
#	for a client on a TCP port; with one it connects to that server.
#	The two sides swap their LID, QP number, PSN and GID over TCP in the
#	message format of ibv_rc_pingpong, each builds an address handle
#	for the other, and then the client sends first: each side posts its
#	next SEND only when its previous SEND has completed and the peer's
#	datagram has arrived, ITERS times.  At the end both print the
#	throughput and the time per iteration in the C program's words.
#
#	Datagrams carry no connection, so a receive buffer must leave room
#	for the 40-byte Global Routing Header the device writes in front of
#	the payload: the buffer is SIZE + 40 bytes, receives take all of it,
#	sends go out from offset 40.  A message must fit in one packet (the
#	port's active MTU).  Both sides use the Q_Key 0x11111111.
#
#	Options (the names and defaults of ibv_ud_pingpong):
#	    -p, --port=PORT        TCP port (18515)
#	    -d, --ib-dev=DEV       RDMA device (the first one)
#	    -i, --ib-port=PORT     port of the device (1)
#	    -s, --size=BYTES       message size, at most the MTU (1024)
#	    -r, --rx-depth=N       receives kept posted (500)
#	    -n, --iters=N          number of exchanges (1000)
#	    -l, --sl=SL            service level (0)
#	    -e, --events           sleep on completion events instead of polling
#	    -g, --gid-idx=N        local GID index; needed on RoCE (none)
#	    -c, --chk              the server checks the received payload
#
#	Exit status 0 on success; 1 with a message on stderr otherwise.
#
# Copyright (c) 2026 The verbs authors.
# See the file "LICENSE" for terms of use and redistribution.

package require Tcl 8.6
package require verbs

namespace eval ::ud {
    # The two work request ids; a bit each in the "pending" mask.
    variable RECV 1
    variable SEND 2

    # The exchange message: "LLLL:QQQQQQ:PPPPPP:" and a GID of 32 hex
    # digits, then a NUL; always sent and read as 52 bytes.
    variable MSGLEN 52

    # Room for the Global Routing Header in front of every datagram.
    variable GRH 40

    # The Q_Key both sides put in their QP and in every send.
    variable QKEY 0x11111111

    variable opt [dict create port 18515 dev {} ibport 1 size 1024 \
	    rx_depth 500 iters 1000 sl 0 events 0 gidx -1 chk 0 server {}]
}

proc ::ud::usage {{chan stderr}} {
    set me [file tail $::argv0]
    puts $chan "Usage:
  $me            start a server and wait for connection
  $me <host>     connect to server at <host>

Options:
  -p, --port=<port>      listen on/connect to port <port> (default 18515)
  -d, --ib-dev=<dev>     use IB device <dev> (default first device found)
  -i, --ib-port=<port>   use port <port> of IB device (default 1)
  -s, --size=<size>      size of message to exchange (default 1024)
  -r, --rx-depth=<dep>   number of receives to post at a time (default 500)
  -n, --iters=<iters>    number of exchanges (default 1000)
  -l, --sl=<SL>          send messages with service level <SL> (default 0)
  -e, --events           sleep on CQ events (default poll)
  -g, --gid-idx=<gid index> local port gid index
  -c, --chk              validate received buffer"
}

proc ::ud::die {msg} {
    puts stderr $msg
    exit 1
}

proc ::ud::badUsage {msg} {
    if {$msg ne ""} {
	puts stderr "[file tail $::argv0]: $msg"
    }
    usage
    exit 1
}

# ud::number OPTION VALUE MIN MAX --
#	An integer option value (decimal, 0x hex or 0 octal, as strtoul
#	with base 0 reads it) within MIN..MAX, or a usage error.

proc ::ud::number {option value min max} {
    if {![string is wideinteger -strict $value]
	    || $value < $min || $value > $max} {
	badUsage "bad value \"$value\" for $option"
    }
    return [expr {$value}]
}

# ud::parseArgs ARGV --
#	Fills ud::opt from the command line: short options with their value
#	attached or as the next word, long options as --name=value or
#	--name value, and at most one server name anywhere among them.

proc ::ud::parseArgs {argv} {
    variable opt
    set short {p port d dev i ibport s size r rx_depth n iters l sl
	g gidx e events c chk}
    set long {port port ib-dev dev ib-port ibport size size
	rx-depth rx_depth iters iters sl sl gid-idx gidx events events
	chk chk}
    set positional {}
    for {set k 0} {$k < [llength $argv]} {incr k} {
	set a [lindex $argv $k]
	set value {}
	set hasValue 0
	if {$a in {-h --help}} {
	    usage stdout
	    exit 0
	} elseif {$a eq "--"} {
	    lappend positional {*}[lrange $argv [expr {$k + 1}] end]
	    break
	} elseif {[string match --?* $a]} {
	    set name [string range $a 2 end]
	    if {[set eq [string first = $name]] >= 0} {
		set value [string range $name [expr {$eq + 1}] end]
		set name [string range $name 0 [expr {$eq - 1}]]
		set hasValue 1
	    }
	    if {![dict exists $long $name]} {
		badUsage "unknown option \"$a\""
	    }
	    set key [dict get $long $name]
	} elseif {[string match -?* $a]} {
	    set letter [string index $a 1]
	    if {![dict exists $short $letter]} {
		badUsage "unknown option \"$a\""
	    }
	    set key [dict get $short $letter]
	    if {[string length $a] > 2} {
		set value [string range $a 2 end]
		set hasValue 1
	    }
	} else {
	    lappend positional $a
	    continue
	}
	if {$key in {events chk}} {
	    if {$hasValue} {
		badUsage "option \"$a\" takes no value"
	    }
	    dict set opt $key 1
	    continue
	}
	if {!$hasValue} {
	    if {[incr k] >= [llength $argv]} {
		badUsage "option \"$a\" needs a value"
	    }
	    set value [lindex $argv $k]
	}
	switch -- $key {
	    dev {dict set opt dev $value}
	    port {dict set opt port [number $a $value 0 65535]}
	    ibport {dict set opt ibport [number $a $value 1 255]}
	    size {dict set opt size [number $a $value 1 0x7fffffd7]}
	    rx_depth {dict set opt rx_depth [number $a $value 1 0xffffff]}
	    iters {dict set opt iters [number $a $value 1 0x7fffffff]}
	    sl {dict set opt sl [number $a $value 0 15]}
	    gidx {dict set opt gidx [number $a $value -1 255]}
	}
    }
    if {[llength $positional] > 1} {
	badUsage ""
    }
    dict set opt server [lindex $positional 0]
}

# ud::wireGid GID / ud::fromWireGid HEX --
#	A GID as it travels in the exchange message (its 16 bytes in order
#	as 32 hex digits) and back.

proc ::ud::wireGid {gid} {
    string tolower [string map {: {}} $gid]
}

proc ::ud::fromWireGid {hex} {
    join [regexp -all -inline {....} [string tolower $hex]] :
}

# ud::ntop GID --
#	The GID as inet_ntop(AF_INET6) prints it: the first longest run of
#	two or more zero groups becomes "::", and an IPv4-mapped or
#	IPv4-compatible address ends in dotted decimal (::ffff:198.18.0.1).

proc ::ud::ntop {gid} {
    set words [lmap g [split $gid :] {scan $g %x}]
    set base -1; set len 0
    set cur -1; set curlen 0
    for {set i 0} {$i < 8} {incr i} {
	if {[lindex $words $i] == 0} {
	    if {$cur < 0} {
		set cur $i; set curlen 1
	    } else {
		incr curlen
	    }
	    if {$curlen > $len} {
		set base $cur; set len $curlen
	    }
	} else {
	    set cur -1; set curlen 0
	}
    }
    if {$len < 2} {
	set base -1
    }
    set s {}
    for {set i 0} {$i < 8} {incr i} {
	if {$base >= 0 && $i >= $base && $i < $base + $len} {
	    if {$i == $base} {
		append s :
	    }
	    continue
	}
	if {$i != 0} {
	    append s :
	}
	if {$i == 6 && $base == 0 && ($len == 6
		|| ($len == 5 && [lindex $words 5] == 0xffff))} {
	    lassign [lrange $words 6 7] hi lo
	    append s [expr {$hi >> 8}].[expr {$hi & 255}].[expr {$lo >> 8}].[expr {$lo & 255}]
	    return $s
	}
	append s [format %x [lindex $words $i]]
    }
    if {$base >= 0 && $base + $len == 8} {
	append s :
    }
    return $s
}

# ud::message DEST / ud::parseMessage BYTES --
#	The 52-byte exchange message for an endpoint dict (lid qpn psn gid),
#	and the endpoint dict a peer's message describes (or an error).

proc ::ud::message {dest} {
    dict with dest {}
    set msg [format %04x:%06x:%06x:%s $lid $qpn $psn [wireGid $gid]]
    return [binary format a$::ud::MSGLEN $msg]
}

proc ::ud::parseMessage {bytes} {
    set text [lindex [split $bytes \0] 0]
    if {[scan $text {%x:%x:%x:%32[0-9a-fA-F]} lid qpn psn hex] != 4
	    || [string length $hex] != 32} {
	return -code error "bad address message \"$text\" from the peer"
    }
    dict create lid $lid qpn $qpn psn $psn gid [fromWireGid $hex]
}

# ud::printDest WHAT SEP DEST --
#	One address line.  The C program ends its local line's PSN with a
#	colon and its remote line's with a comma; SEP keeps that.

proc ::ud::printDest {what sep dest} {
    dict with dest {}
    puts [format "  %s LID 0x%04x, QPN 0x%06x, PSN 0x%06x%s GID %s" \
	    $what $lid $qpn $psn $sep [ntop $gid]]
    flush stdout
}

# ud::readExactly SOCK N --
#	N bytes from the blocking socket, or fewer at end of file.

proc ::ud::readExactly {sock n} {
    set data {}
    while {[string length $data] < $n} {
	set chunk [read $sock [expr {$n - [string length $data]}]]
	if {$chunk eq ""} {
	    break
	}
	append data $chunk
    }
    return $data
}

# ud::connectQp REMOTE --
#	A UD QP needs no peer to reach RTR and RTS (only its own starting
#	PSN); what points at the peer is the address handle every send
#	names.  The AH has the peer's LID and, when the peer sent a GID
#	whose interface id (low 64 bits) is not zero, a GRH towards that
#	GID from the local GID index, as the C program decides.

proc ::ud::connectQp {remote} {
    variable opt
    variable qp
    variable pd
    variable ah
    variable my
    if {[catch {$qp to_rtr} err]} {
	die "Failed to modify QP to RTR: $err"
    }
    if {[catch {$qp to_rts [list sq_psn [dict get $my psn]]} err]} {
	die "Failed to modify QP to RTS: $err"
    }
    set attr [dict create dlid [dict get $remote lid] sl [dict get $opt sl] \
	    src_path_bits 0 port_num [dict get $opt ibport] is_global 0]
    set iid [string range [wireGid [dict get $remote gid]] 16 end]
    if {$iid ne "0000000000000000"} {
	# The C program passes its -g value even when it is -1 (no GID
	# of its own); index 0 is the nearest meaningful choice.
	dict set attr is_global 1
	dict set attr grh [dict create dgid [dict get $remote gid] \
		sgid_index [expr {max([dict get $opt gidx], 0)}] \
		hop_limit 64]
    }
    if {[catch {verbs::ah create $pd $attr} ah]} {
	die "Failed to create AH: $ah"
    }
}

# ud::clientExchange / ud::serverExchange --
#	The TCP exchange, byte for byte that of ibv_rc_pingpong.  The client
#	connects, writes its 52 bytes, reads the server's 52 and answers
#	"done" with its NUL (5 bytes).  The server accepts one connection,
#	reads the client's message, makes its QP ready and its AH, then
#	writes its own message and reads the "done".  Each returns the
#	peer's endpoint dict.

proc ::ud::clientExchange {} {
    variable opt
    variable my
    variable MSGLEN
    set host [dict get $opt server]
    set port [dict get $opt port]
    if {[catch {socket $host $port} sock]} {
	die "Couldn't connect to $host:$port"
    }
    fconfigure $sock -translation binary -blocking 1 -buffering full
    try {
	puts -nonewline $sock [message $my]
	flush $sock
	set reply [readExactly $sock $MSGLEN]
	if {[string length $reply] != $MSGLEN} {
	    die "Couldn't read/write remote address"
	}
	puts -nonewline $sock done\0
	flush $sock
    } on error msg {
	die "Couldn't read/write remote address: $msg"
    } finally {
	catch {close $sock}
    }
    if {[catch {parseMessage $reply} remote]} {
	die $remote
    }
    return $remote
}

proc ::ud::serverExchange {} {
    variable opt
    variable my
    variable MSGLEN
    variable conn {}
    set port [dict get $opt port]
    if {[catch {socket -server {apply {{sock addr port} {
	if {$::ud::conn eq ""} {
	    set ::ud::conn $sock
	} else {
	    close $sock
	}
    }}} $port} listener]} {
	die "Couldn't listen to port $port"
    }
    vwait ::ud::conn
    close $listener
    set sock $conn
    fconfigure $sock -translation binary -blocking 1 -buffering full
    try {
	set msg [readExactly $sock $MSGLEN]
	if {[string length $msg] != $MSGLEN} {
	    die "[string length $msg]/$MSGLEN: Couldn't read remote address"
	}
	if {[catch {parseMessage $msg} remote]} {
	    die $remote
	}
	connectQp $remote
	puts -nonewline $sock [message $my]
	flush $sock
	if {[read $sock 5] ne "done\0"} {
	    die "Couldn't send/recv local address"
	}
    } on error msg {
	die "Couldn't send/recv local address: $msg"
    } finally {
	catch {close $sock}
    }
    return $remote
}

# ud::postRecv N --
#	Posts N receives of the whole buffer (GRH and payload) in one call;
#	returns N.

proc ::ud::postRecv {n} {
    variable qp
    variable mr
    variable opt
    variable RECV
    variable GRH
    if {$n <= 0} {
	return 0
    }
    set wr [list wr_id $RECV \
	    sg_list [list [list $mr 0 [expr {[dict get $opt size] + $GRH}]]]]
    if {[catch {$qp post_recv {*}[lrepeat $n $wr]} err]} {
	die "Couldn't post receive: $err"
    }
    return $n
}

# ud::postSend --
#	One SEND of SIZE bytes from behind the GRH room, to the peer's QP
#	through the address handle.

proc ::ud::postSend {} {
    variable qp
    variable mr
    variable ah
    variable opt
    variable remote
    variable SEND
    variable GRH
    variable QKEY
    variable sendFlags
    if {[catch {$qp post_send [list wr_id $SEND opcode send \
	    send_flags $sendFlags \
	    sg_list [list [list $mr $GRH [dict get $opt size]]] \
	    ah $ah remote_qpn [dict get $remote qpn] \
	    remote_qkey $QKEY]} err]} {
	die "Couldn't post send: $err"
    }
}

# ud::completion WC --
#	Accounts for one work completion and, once both the last SEND and
#	the peer's datagram are in, posts the next SEND.  The receive queue
#	is topped up to rx_depth when no more than one receive is left.

proc ::ud::completion {wc} {
    variable RECV
    variable SEND
    variable opt
    variable scnt
    variable rcnt
    variable routs
    variable pending
    set id [dict get $wc wr_id]
    if {[dict get $wc status] ne "success"} {
	die "Failed status [dict get $wc status] (vendor_err\
		[dict get $wc vendor_err]) for wr_id $id"
    }
    if {$id == $SEND} {
	incr scnt
    } elseif {$id == $RECV} {
	if {[incr routs -1] <= 1} {
	    incr routs [postRecv [expr {[dict get $opt rx_depth] - $routs}]]
	}
	incr rcnt
    } else {
	die "Completion for unknown wr_id $id"
    }
    set pending [expr {$pending & ~$id}]
    if {$scnt < [dict get $opt iters] && !$pending} {
	postSend
	set pending [expr {$RECV | $SEND}]
    }
}

# ud::pageOffsets --
#	The payload offsets -c marks and checks: the start of each page of
#	the payload (the C program's i += page_size, with 4 KiB pages).

proc ::ud::pageOffsets {} {
    variable opt
    set r {}
    for {set i 0} {$i < [dict get $opt size]} {incr i 4096} {
	lappend r $i
    }
    return $r
}

proc ::ud::main {argv} {
    variable opt
    variable qp
    variable pd
    variable mr
    variable my
    variable remote
    variable sendFlags
    variable scnt 0
    variable rcnt 0
    variable routs
    variable pending
    variable RECV
    variable SEND
    variable GRH
    variable QKEY

    parseArgs $argv
    dict with opt {}
    expr {srand(([pid] * [clock seconds]) & 0x7fffffff)}

    set devices [verbs::devices]
    if {$dev eq ""} {
	if {![llength $devices]} {
	    die "No IB devices found"
	}
	set dev [lindex $devices 0]
    } elseif {$dev ni $devices} {
	die "IB device $dev not found"
    }

    # The resources of ibv_ud_pingpong: a buffer of SIZE + 40 bytes of
    # 0x7b registered for local write, a CQ of rx_depth + 1 entries (on a
    # completion channel with -e), a UD QP with one send and rx_depth
    # receive work requests of one SGE, inline sends when the QP grants
    # enough inline data.  A datagram cannot exceed the port's MTU.
    if {[catch {verbs::context open $dev} ctx]} {
	die "Couldn't get context for $dev"
    }
    if {[catch {$ctx query port $ibport} pattr]} {
	die "Unable to query port info for port $ibport"
    }
    set mtu [dict get $pattr active_mtu]
    if {$size > $mtu} {
	die "Requested size larger than port MTU ($mtu)"
    }
    set pd [verbs::pd create $ctx]
    set mr [verbs::mr create $pd -length [expr {$size + $GRH}] \
	    -access local_write]
    $mr fill 0x7b
    set cqopts {}
    if {$events} {
	set ch [verbs::channel create $ctx]
	lappend cqopts -channel $ch
    }
    set cq [verbs::cq create $ctx -cqe [expr {$rx_depth + 1}] {*}$cqopts]
    if {[catch {verbs::qp create $pd -send_cq $cq -recv_cq $cq -type ud \
	    -cap [list max_send_wr 1 max_recv_wr $rx_depth \
	    max_send_sge 1 max_recv_sge 1]} qp]} {
	die "Couldn't create QP: $qp"
    }
    set sendFlags signaled
    if {[dict get [$qp query] cap max_inline_data] >= $size} {
	lappend sendFlags inline
    }
    if {[catch {$qp to_init [list pkey_index 0 port_num $ibport \
	    qkey $QKEY]} err]} {
	die "Failed to modify QP to INIT: $err"
    }

    set routs [postRecv $rx_depth]
    if {$events} {
	$cq req_notify
    }

    if {$gidx >= 0} {
	if {[catch {$ctx query gid $ibport $gidx} gid]} {
	    die "Could not get local gid for gid index $gidx"
	}
    } else {
	set gid 0000:0000:0000:0000:0000:0000:0000:0000
    }
    set my [dict create lid [dict get $pattr lid] qpn [$qp cget -qp_num] \
	    psn [expr {int(rand() * 0x1000000) & 0xffffff}] gid $gid]
    printDest "local address: " : $my

    if {$server ne ""} {
	set remote [clientExchange]
    } else {
	set remote [serverExchange]
    }
    printDest "remote address:" , $remote

    if {$server ne ""} {
	connectQp $remote
    }

    # The client sends first; the server starts by waiting for it.
    set pending $RECV
    if {$server ne ""} {
	if {$chk} {
	    foreach i [pageOffsets] {
		$mr write [expr {$GRH + $i}] \0
	    }
	}
	postSend
	set pending [expr {$pending | $SEND}]
    }

    set start [clock microseconds]
    while {$rcnt < $iters || $scnt < $iters} {
	if {$events} {
	    set ev [$ch wait -timeout -1]
	    if {$ev ne $cq} {
		die "CQ event for unknown CQ $ev"
	    }
	    $cq req_notify
	    set wcs [$cq poll 2]
	} else {
	    set wcs [$cq poll 2]
	}
	foreach wc $wcs {
	    completion $wc
	}
    }
    set end [clock microseconds]

    set usec [expr {double($end - $start)}]
    set bytes [expr {wide($size) * $iters * 2}]
    puts [format "%s bytes in %.2f seconds = %.2f Mbit/sec" \
	    $bytes [expr {$usec / 1000000.}] [expr {$bytes * 8. / $usec}]]
    puts [format "%d iters in %.2f seconds = %.2f usec/iter" \
	    $iters [expr {$usec / 1000000.}] [expr {$usec / $iters}]]
    if {$server eq "" && $chk} {
	foreach i [pageOffsets] {
	    if {[$mr read [expr {$GRH + $i}] 1] ne "\0"} {
		puts "invalid data in page [expr {$i / 4096}]"
	    }
	}
    }
    flush stdout

    $ctx close
}

if {[catch {::ud::main $argv} msg]} {
    puts stderr "[file tail $argv0]: $msg"
    exit 1
}
exit 0
