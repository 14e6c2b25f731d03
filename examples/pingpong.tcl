# pingpong.tcl --
#
#	The wire format and helpers shared by the two pingpong examples,
#	rc_pingpong.tcl and ud_pingpong.tcl, which source this file into
#	their namespace ::pp.  Both swap their endpoints over TCP as
#	rdma-core's ibv_rc_pingpong does: the client connects and writes a
#	52-byte message, "LLLL:QQQQQQ:PPPPPP:" (LID, QP number and starting
#	PSN in hex) and the GID as 32 hex digits, padded with NULs; the
#	server reads it, gets ready and answers with its own; the client
#	ends with "done" and its NUL (5 bytes).  Once its TCP socket
#	listens, the server prints one line on stdout,
#
#	    listening on ADDRESS port PORT
#
#	(ADDRESS as the socket is bound, 0.0.0.0 for every address; PORT
#	the one it got, which -p 0 leaves to the system), so that whoever
#	drives it (an Expect script, the tests) starts the client then.
#
#	This file is sourced, not run: it is not executable.
#
#	What differs stays in the scripts, which define in ::pp: usage
#	?CHAN?; the option variables opt (the defaults), short and long (the
#	option names to keys), flags (the keys that take no value) and
#	noValue (the format of the complaint about a flag given a value, or
#	empty); setOption KEY OPTION VALUE, which checks and stores a
#	value; connectQp REMOTE; postRecv N and postSend.
#
# Copyright (c) 2026 The verbs authors.
# See the file "LICENSE" for terms of use and redistribution.

namespace eval ::pp {
    # The two work request ids; a bit each in the "pending" mask.
    variable RECV 1
    variable SEND 2

    # The exchange message: "LLLL:QQQQQQ:PPPPPP:" and a GID of 32 hex
    # digits, then a NUL; always sent and read as 52 bytes.
    variable MSGLEN 52
}

proc ::pp::die {msg} {
    puts stderr $msg
    exit 1
}

# pp::badUsage MSG --
#	MSG (if any) and the usage on stderr, and exit status 1.

proc ::pp::badUsage {msg} {
    if {$msg ne ""} {
	puts stderr "[file tail $::argv0]: $msg"
    }
    usage
    exit 1
}

# pp::number OPTION VALUE MIN MAX --
#	An integer option value (decimal, 0x hex or 0 octal, as strtoul
#	with base 0 reads it) within MIN..MAX, or a usage error.

proc ::pp::number {option value min max} {
    if {![string is wideinteger -strict $value]
	    || $value < $min || $value > $max} {
	badUsage "bad value \"$value\" for $option"
    }
    return [expr {$value}]
}

# pp::parseArgs ARGV --
#	Fills pp::opt from the command line: short options with their value
#	attached or as the next word, long options as --name=value or
#	--name value, and at most one server name anywhere among them.

proc ::pp::parseArgs {argv} {
    variable opt
    variable short
    variable long
    variable flags
    variable noValue
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
	if {$key in $flags} {
	    if {$hasValue} {
		badUsage [format $noValue $a]
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
	setOption $key $a $value
    }
    if {[llength $positional] > 1} {
	badUsage ""
    }
    dict set opt server [lindex $positional 0]
}

# pp::wireGid GID --
#	A GID as it travels in the exchange message: its 16 bytes in order
#	as 32 hex digits.

proc ::pp::wireGid {gid} {
    string tolower [string map {: {}} $gid]
}

# pp::ntop GID --
#	The GID as inet_ntop(AF_INET6) prints it, so that the address lines
#	read like the C programs': the first longest run of two or more
#	zero groups becomes "::", and an IPv4-mapped or IPv4-compatible
#	address ends in dotted decimal (::ffff:198.18.0.1).

proc ::pp::ntop {gid} {
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

# pp::message DEST / pp::parseMessage BYTES --
#	The 52-byte exchange message for an endpoint dict (lid qpn psn gid),
#	and the endpoint dict a peer's message describes (or an error): the
#	package's verbs::pingpong encode and decode, with the key qpn.

proc ::pp::message {dest} {
    dict with dest {}
    verbs::pingpong encode [dict create lid $lid qp_num $qpn psn $psn \
	    gid $gid]
}

proc ::pp::parseMessage {bytes} {
    set e [verbs::pingpong decode $bytes]
    dict create lid [dict get $e lid] qpn [dict get $e qp_num] \
	psn [dict get $e psn] gid [dict get $e gid]
}

# pp::printDest WHAT DEST ?SEP? --
#	One address line.  SEP follows the PSN: ibv_rc_pingpong has a
#	comma there, ibv_ud_pingpong a colon on its local line.

proc ::pp::printDest {what dest {sep ,}} {
    dict with dest {}
    puts [format "  %s LID 0x%04x, QPN 0x%06x, PSN 0x%06x%s GID %s" \
	    $what $lid $qpn $psn $sep [ntop $gid]]
    flush stdout
}

# pp::readExactly SOCK N --
#	N bytes from the blocking socket, or fewer at end of file.

proc ::pp::readExactly {sock n} {
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

# pp::clientExchange / pp::serverExchange --
#	The TCP exchange.  The client connects, writes its 52 bytes, reads
#	the server's 52 and answers "done" with its NUL (5 bytes).  The
#	server accepts one connection, reads the client's message, makes
#	its QP ready with connectQp (so that it is ready before the client
#	can send), then writes its own message and reads the "done"; it
#	prints the listen line as soon as its socket listens.  Each
#	returns the peer's endpoint dict.

proc ::pp::clientExchange {} {
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

proc ::pp::serverExchange {} {
    variable opt
    variable my
    variable MSGLEN
    variable conn {}
    set port [dict get $opt port]
    if {[catch {socket -server {apply {{sock addr port} {
	if {$::pp::conn eq ""} {
	    set ::pp::conn $sock
	} else {
	    close $sock
	}
    }}} $port} listener]} {
	die "Couldn't listen to port $port"
    }
    lassign [fconfigure $listener -sockname] addr - port
    puts "listening on $addr port $port"
    flush stdout
    vwait ::pp::conn
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

# pp::device NAME --
#	NAME if there is such an RDMA device, or the first device when
#	NAME is empty; dies when there is none.

proc ::pp::device {name} {
    set devices [verbs::devices]
    if {$name eq ""} {
	if {![llength $devices]} {
	    die "No IB devices found"
	}
	set name [lindex $devices 0]
    } elseif {$name ni $devices} {
	die "IB device $name not found"
    }
    return $name
}

# pp::completion WC --
#	Accounts for one work completion and, once both the last SEND and
#	the peer's message are in, posts the next SEND.  The receive queue
#	is topped up to rx_depth when no more than one receive is left.

proc ::pp::completion {wc} {
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

# pp::run CQ CHANNEL ?MAX? --
#	Handles completions until ITERS sends and ITERS receives are done;
#	returns the microseconds that took.  Without -e it busy polls CQ
#	for up to two completions at a time; with -e it sleeps on CHANNEL
#	and then takes up to MAX completions (all that are ready when MAX
#	is empty).

proc ::pp::run {cq ch {max {}}} {
    variable opt
    variable scnt
    variable rcnt
    set iters [dict get $opt iters]
    set start [clock microseconds]
    while {$rcnt < $iters || $scnt < $iters} {
	if {[dict get $opt events]} {
	    set ev [$ch wait -timeout -1]
	    if {$ev ne $cq} {
		die "CQ event for unknown CQ $ev"
	    }
	    $cq req_notify
	    set wcs [$cq poll {*}$max]
	} else {
	    set wcs [$cq poll 2]
	}
	foreach wc $wcs {
	    completion $wc
	}
    }
    expr {double([clock microseconds] - $start)}
}

# pp::report USEC --
#	The throughput and time per iteration, in the C programs' words.

proc ::pp::report {usec} {
    variable opt
    set iters [dict get $opt iters]
    set bytes [expr {wide([dict get $opt size]) * $iters * 2}]
    puts [format "%s bytes in %.2f seconds = %.2f Mbit/sec" \
	    $bytes [expr {$usec / 1000000.}] [expr {$bytes * 8. / $usec}]]
    puts [format "%d iters in %.2f seconds = %.2f usec/iter" \
	    $iters [expr {$usec / 1000000.}] [expr {$usec / $iters}]]
}
