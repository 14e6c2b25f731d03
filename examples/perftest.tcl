#!/usr/bin/env tclsh
# perftest.tcl write|read ?option ...? ?server? --
#
#	perftest's ib_write_bw and ib_read_bw on the wire, so that either
#	side may be this script or the C program: the same exchange over
#	TCP (the versions, the page and cache line sizes, the MTU, the
#	queue pairs' keys, the synchronisations and the client's report),
#	then the client RDMA WRITEs into the server's buffer, or RDMA READs
#	out of it, COUNT messages of SIZE bytes at the rate of send_burst,
#	and both print perftest's report line.  The server is passive, as
#	perftest's is.  Without a server name it is the server.
#
#	It speaks the exchange of perftest 4.5 and later (this script says
#	it is version 6.06, the one it follows, of Debian 12's perftest
#	4.5-0.17), with GIDs (RoCE), one queue pair, over TCP (not -R).
#	A newer perftest speaks the older exchange with it: from version
#	6.28 on perftest sends more (its parameters and device attributes)
#	to a peer that says it is 6.28 or later, so VERSION must not be
#	raised without that part of the exchange.
#
#	Options (those of ib_write_bw with the same meaning):
#	    -d DEVICE     the device (the first one)
#	    -i PORT       its port (1)
#	    -x INDEX      the GID index (the package's choice of a RoCE v2
#	                  GID with an IPv4 address, verbs::gid_index)
#	    -n COUNT      messages (write 5000, read 1000; at least 5)
#	    -s SIZE       their size (65536)
#	    -p PORT       the TCP port (18515)
#	    -t DEPTH      messages in flight (128)
#	    -c RC|UC      the transport (RC; READ needs RC)
#	    -F            accepted and ignored (perftest's CPU frequency
#	                  warning)
#	    --timeout MS  how long the burst may go without a completion,
#	                  and the TCP exchange without an answer (15000;
#	                  not perftest's, whose -T is the type of service)
#
#	Numbers are decimal.
#
#	Exit status 0 on success; 1 with a message on stderr otherwise.
#
#	The script is executable: "#!/usr/bin/env tclsh" runs the tclsh on
#	PATH, which finds verbs where it is installed, or in a build tree
#	with TCLLIBPATH=BUILDDIR (as "make shell" sets it).
#
# Copyright (c) 2026 The verbs authors.
# See the file "LICENSE" for terms of use and redistribution.

package require Tcl 8.6-
package require verbs

namespace eval ::pt {
    # The perftest version this script speaks, and what it says of this
    # machine: the page and the cache line sizes perftest exchanges.
    variable VERSION 6.06
    variable CYCLE_BUFFER 4096
    variable CACHE_LINE 64

    variable opt [dict create verb {} dev {} ibport 1 gidx {} count {} \
	    size 65536 port 18515 depth 128 type rc timeout 15000 server {}]
    variable sock {}
}

proc ::pt::usage {{chan stderr}} {
    set me [file tail $::argv0]
    puts $chan "usage: $me write|read \[options\] \[server\]
	-d device	the device (default the first)
	-i port		its port (default 1)
	-x index	GID index (default a RoCE v2 GID with an IPv4 address)
	-n count	messages (default write 5000, read 1000)
	-s size		message size (default 65536)
	-p port		TCP port (default 18515)
	-t depth	messages in flight (default 128)
	-c RC|UC	transport (default RC)
	-F		ignored
	--timeout ms	limit of each wait (default 15000)"
}

proc ::pt::badUsage {msg} {
    puts stderr "[file tail $::argv0]: $msg"
    usage
    exit 1
}

# pt::parseArgs ARGV --
#	Fills pt::opt from the verb and getopt-style options.

proc ::pt::parseArgs {argv} {
    variable opt
    set verb [lindex $argv 0]
    if {$verb in {-h --help}} {
	usage stdout
	exit 0
    }
    if {$verb ni {write read}} {
	badUsage "the first argument must be write or read, not \"$verb\""
    }
    dict set opt verb $verb
    set argv [lrange $argv 1 end]
    for {set k 0} {$k < [llength $argv]} {incr k} {
	set a [lindex $argv $k]
	if {$a in {-h --help}} {
	    usage stdout
	    exit 0
	}
	if {$a eq "-F"} {
	    continue
	}
	if {![string match -* $a]} {
	    if {[dict get $opt server] ne ""} {
		badUsage "two server names: \"[dict get $opt server]\" and \"$a\""
	    }
	    dict set opt server $a
	    continue
	}
	if {$a eq "--timeout"} {
	    set letter T
	    set value ""
	} elseif {![regexp {^-([dixnsptc])(.*)$} $a -> letter value]} {
	    badUsage "unknown option \"$a\""
	}
	if {$value eq ""} {
	    if {[incr k] >= [llength $argv]} {
		badUsage "option \"$a\" needs a value"
	    }
	    set value [lindex $argv $k]
	}
	set key [dict get {d dev i ibport x gidx n count s size p port
	    t depth c type T timeout} $letter]
	if {$letter eq "d"} {
	    dict set opt dev $value
	} elseif {$letter eq "c"} {
	    set type [string tolower $value]
	    if {$type ni {rc uc}} {
		badUsage "bad transport \"$value\": RC or UC"
	    }
	    dict set opt type $type
	} elseif {![regexp {^[0-9]+$} $value] || [set n [scan $value %d]] < 0
		|| ($letter in {s t i T} && $n < 1) || ($letter eq "n" && $n < 5)
		|| ($letter eq "p" && $n > 65535)} {
	    badUsage "bad value \"$value\" of [expr {$letter eq "T"
		? "--timeout" : "-$letter"}]"
	} else {
	    dict set opt $key $n
	}
    }
    if {[dict get $opt count] eq ""} {
	dict set opt count [expr {$verb eq "read" ? 1000 : 5000}]
    }
    if {$verb eq "read" && [dict get $opt type] ne "rc"} {
	badUsage "RDMA READ needs RC"
    }
}

# ---- The exchange over TCP --------------------------------------------

# pt::xchg BYTES WHAT --
#	perftest's ctx_xchg_data: the client writes BYTES and reads as many
#	from the server; the server reads, then writes.  Returns the peer's
#	bytes; an error saying WHAT was exchanged when the connection ends
#	first or stays silent for the timeout.

proc ::pt::xchg {bytes what} {
    variable opt
    variable sock
    if {[dict get $opt server] ne ""} {
	Write $bytes $what
	return [Read [string length $bytes] $what]
    }
    set got [Read [string length $bytes] $what]
    Write $bytes $what
    return $got
}

proc ::pt::Write {bytes what} {
    variable sock
    if {[catch {puts -nonewline $sock $bytes; flush $sock} err]} {
	return -code error "$what: writing to the peer: $err"
    }
}

# (The socket is non-blocking: Read waits in the event loop, so that a
# peer that says nothing is a timeout, not a hang.)
proc ::pt::Read {n what} {
    variable sock
    variable opt
    set buf {}
    set limit [expr {[clock milliseconds] + [dict get $opt timeout]}]
    while {[string length $buf] < $n} {
	append buf [read $sock [expr {$n - [string length $buf]}]]
	if {[string length $buf] == $n} {
	    break
	}
	if {[eof $sock]} {
	    return -code error "$what: the peer closed the connection\
		    ([string length $buf] of $n bytes)"
	}
	if {[clock milliseconds] > $limit} {
	    return -code error "$what: no answer from the peer in\
		    [dict get $opt timeout] ms"
	}
	set ::pt::readable 0
	set id [after 100 {set ::pt::readable 1}]
	fileevent $sock readable {set ::pt::readable 1}
	vwait ::pt::readable
	after cancel $id
	fileevent $sock readable {}
    }
    return $buf
}

# pt::keys DEST --
#	perftest's key message of the dict DEST (lid out_reads qpn psn rkey
#	vaddr gid srqn; gid 16 bytes): hex fields separated by colons, the
#	GID byte by byte, 108 bytes with the final zero.

proc ::pt::keys {d} {
    set s [format %04x:%04x:%06x:%06x:%08x:%016llx: [dict get $d lid] \
	    [dict get $d out_reads] [dict get $d qpn] [dict get $d psn] \
	    [dict get $d rkey] [dict get $d vaddr]]
    binary scan [dict get $d gid] cu16 bytes
    foreach b $bytes {
	append s [format %02x: $b]
    }
    append s [format %08x: [dict get $d srqn]] \0
}

proc ::pt::parseKeys {msg} {
    set f [split [string trimright $msg \0] :]
    if {[llength $f] < 24} {
	return -code error "the peer's keys are not perftest's GID form:\
		\"[string trimright $msg \0]\""
    }
    lassign $f lid reads qpn psn rkey vaddr
    set gid [binary format cu16 [lmap b [lrange $f 6 21] {expr {"0x$b"}}]]
    dict create lid [expr {"0x$lid"}] out_reads [expr {"0x$reads"}] \
	qpn [expr {"0x$qpn"}] psn [expr {"0x$psn"}] rkey [expr {"0x$rkey"}] \
	vaddr [expr {"0x$vaddr"}] gid $gid srqn [expr {"0x[lindex $f 22]"}]
}

proc ::pt::handshake {my what} {
    parseKeys [xchg [keys $my] $what]
}

# pt::cstring BYTES --
#	BYTES up to the first zero byte.

proc ::pt::cstring {bytes} {
    lindex [split $bytes \0] 0
}

# ---- The test --------------------------------------------------------

proc ::pt::run {} {
    variable opt
    variable sock
    variable VERSION
    variable CYCLE_BUFFER
    variable CACHE_LINE
    dict with opt {}

    # The device first: a bad one is refused before the peer is reached.
    if {$dev eq ""} {
	set dev [lindex [verbs::devices] 0]
	if {$dev eq ""} {
	    return -code error "No IB devices found"
	}
    }
    if {$dev ni [verbs::devices]} {
	return -code error "IB device $dev not found"
    }
    set ctx [verbs::context open $dev]
    if {$gidx eq ""} {
	set gidx [verbs::gid_index $ctx $ibport]
    }

    # The TCP connection: a server accepts one.
    if {$server eq ""} {
	set listen [socket -server {apply {{s addr port} {
	    set ::pt::accepted $s
	}}} $port]
	puts "\n************************************"
	puts "* Waiting for client to connect... *"
	puts "************************************"
	flush stdout
	vwait ::pt::accepted
	close $listen
	set sock $::pt::accepted
    } elseif {[catch {socket $server $port} sock]} {
	return -code error "Couldn't connect to $server:$port: $sock"
    }
    fconfigure $sock -translation binary -blocking 0

    # Versions (16 bytes), then page and cache line sizes, then the MTU.
    # (perftest reads the number at the start, as atof does.)
    set rem [cstring [xchg [binary format a16 $VERSION] "the versions"]]
    if {![regexp {^[0-9]+(?:\.[0-9]+)?} $rem remNum] || $remNum < 5.70} {
	return -code error "the peer's perftest version \"$rem\" is older\
		than 5.70 (this script speaks $VERSION)"
    }
    binary scan [xchg [binary format I $CYCLE_BUFFER] "the page sizes"] \
	I remCycle
    binary scan [xchg [binary format I $CACHE_LINE] "the cache line sizes"] \
	I remCache
    set cycle [expr {max($CYCLE_BUFFER, $remCycle)}]
    set cacheLine [expr {max($CACHE_LINE, $remCache)}]
    set port_attr [$ctx query port $ibport]
    set mtus {256 1 512 2 1024 3 2048 4 4096 5}
    set mtuNum [dict get $mtus [dict get $port_attr active_mtu]]
    set remMtu [cstring [xchg [binary format a2 $mtuNum] "the MTUs"]]
    if {[string is integer -strict $remMtu] && $remMtu >= 1 && $remMtu <= 5
	    && $remMtu < $mtuNum} {
	set mtuNum $remMtu
    }
    set mtu [lindex [dict keys $mtus] [expr {$mtuNum - 1}]]

    # The resources: perftest's buffer of two halves of
    # max(SIZE, page) bytes, whose second half the peer addresses.
    set half [expr {max($size, $cycle)}]
    set pd [verbs::pd create $ctx]
    set access [expr {$type eq "rc" ? {local_write remote_write remote_read}
	: {local_write remote_write}}]
    set mr [verbs::mr create $pd -length [expr {2 * $half}] -access $access]
    set cq [verbs::cq create $ctx -cqe [expr {$depth + 1}]]
    set qp [verbs::qp create $pd -send_cq $cq -recv_cq $cq -type $type \
	    -cap [list max_send_wr $depth max_recv_wr 1 max_send_sge 1 \
	    max_recv_sge 1]]
    $qp to_init [list port_num $ibport]
    set devAttr [$ctx query device]
    # perftest offers READs in flight for a READ test only (1 else),
    # and its client takes the offer as its max_rd_atomic.
    set my [dict create lid [dict get $port_attr lid] \
	    out_reads [expr {$verb eq "read"
		? [dict get $devAttr max_qp_rd_atom] : 1}] \
	    qpn [$qp cget -qp_num] psn [expr {int(rand() * 0x1000000)}] \
	    rkey [$mr cget -rkey] vaddr [expr {[$mr cget -addr] + $half}] \
	    gid [GidBytes [$ctx query gid $ibport $gidx]] srqn 0]

    # The keys, the connection, the keys again (perftest prints them
    # then) and a last synchronisation.
    set peer [handshake $my "the queue pairs' keys"]
    set ah [dict create is_global 1 port_num $ibport sl 0 \
	    grh [dict create dgid [GidText [dict get $peer gid]] \
	    sgid_index $gidx hop_limit 255]]
    set rtr [dict create path_mtu $mtu dest_qp_num [dict get $peer qpn] \
	    rq_psn [dict get $peer psn] ah_attr $ah]
    set rts [dict create sq_psn [dict get $my psn]]
    if {$type eq "rc"} {
	dict set rtr max_dest_rd_atomic [dict get $my out_reads]
	dict set rtr min_rnr_timer 12
	set rts [dict merge $rts [dict create timeout 14 retry_cnt 7 \
	    rnr_retry 7 max_rd_atomic [expr {min([dict get $peer out_reads],
		[dict get $devAttr max_qp_init_rd_atom])}]]]
    }
    $qp to_rtr $rtr
    $qp to_rts $rts
    handshake $my "the keys after the connection"
    handshake $my "the synchronisation before the test"

    puts [string repeat - 87]
    puts " #bytes     #iterations    BW peak\[MB/sec\]    BW average\[MB/sec\]   MsgRate\[Mpps\]"
    flush stdout
    if {$server ne ""} {
	# The client: the burst.
	set r [$qp send_burst -count $count -sge [list $mr 0 $size] \
		-opcode rdma_$verb -remote_addr [dict get $peer vaddr] \
		-rkey [dict get $peer rkey] -depth $depth \
		-timeout $timeout]
	set bw [dict get $r mib_per_sec]
	set rate [expr {[dict get $r msg_rate] / 1e6}]
	Report $size $count $bw $bw $rate
	handshake $my "the synchronisation after the test"
	set report [binary format WWQQQ $size $count $bw $bw $rate]
    } else {
	# The server: waits for the client's end, then prints its report.
	dict set opt timeout [expr {max($timeout, 600000)}]
	handshake $my "the client's end"
	set report [binary format WWQQQ 0 0 0.0 0.0 0.0]
    }
    # Each field on its own, as perftest exchanges them.
    set rep {}
    foreach {fmt len name} {W 8 size W 8 iters Q 8 bw_peak Q 8 bw_avg
	    Q 8 msg_rate} {
	append rep [xchg [string range $report 0 [expr {$len - 1}]] \
		"the report's $name"]
	set report [string range $report $len end]
    }
    if {$server eq ""} {
	binary scan $rep WWQQQ rsize riters rpeak ravg rrate
	Report $rsize $riters $rpeak $ravg $rrate
    }
    puts [string repeat - 87]
    flush stdout
    # ctx_close_connection: a last synchronisation, and "done".
    handshake $my "the end"
    catch {Write done\0 "the end"}
    close $sock
    $ctx close
}

proc ::pt::Report {size iters peak avg rate} {
    puts [format " %-7lu    %-10lu       %-7.2f            %-7.2f\t\t   %-7.6f" \
	    $size $iters $peak $avg $rate]
    flush stdout
}

# pt::GidBytes TEXT, pt::GidText BYTES --
#	A GID's 16 bytes from its text form (as query gid returns it), and
#	back.

proc ::pt::GidBytes {text} {
    set hex [string map {: {}} $text]
    binary format H32 $hex
}

proc ::pt::GidText {bytes} {
    binary scan $bytes H32 hex
    join [regexp -all -inline {.{4}} $hex] :
}

proc ::pt::main {argv} {
    parseArgs $argv
    if {[catch run msg]} {
	puts stderr "[file tail $::argv0]: $msg"
	exit 1
    }
}

if {[catch {::pt::main $argv} msg]} {
    puts stderr "[file tail $argv0]: $msg"
    exit 1
}
exit 0
