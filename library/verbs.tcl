# verbs.tcl --
#
#	Tcl-level helpers of the verbs package: picking a GID, describing a
#	QP for its peer, and connecting QPs through to_init/to_rtr/to_rts.
#
# Copyright (c) 2026 The verbs authors.
# See the file "LICENSE" for terms of use and redistribution.

# The C part exports the ensembles (verbs::pd, ...) and verbs::devices and
# verbs::objects; these are the helpers.  Objects live in ::verbs::obj,
# which exports nothing: [namespace import ::verbs::*] brings only the API,
# and the ensemble [verbs] (made by the C part) follows this export list.
namespace eval ::verbs {
    namespace export gid_index endpoint connect_qp connect cm_expect pingpong
}

# verbs::Options --
#
#	Merge ARGS (option value ...) over the DEFAULTS dict of a helper,
#	refusing options the helper does not know.
#
# Results:
#	The merged dict; an error like the C commands' for unknown options.

proc ::verbs::Options {defaults arglist} {
    if {[llength $arglist] % 2} {
	return -code error -errorcode [list VERBS ARG [lindex $arglist end] {}] \
	    "missing value for option \"[lindex $arglist end]\""
    }
    set names [lsort [dict keys $defaults]]
    foreach {opt value} $arglist {
	# Unique prefixes work, as for the C commands.
	dict set defaults [tcl::prefix match -message option $names $opt] \
	    $value
    }
    return $defaults
}

# verbs::Object --
#
#	The object of TYPE that VALUE names (resolved where the helper was
#	called from), before a helper calls it: an argument is data, never a
#	command to run ("exit" or "open" is not a context).
#
# Results:
#	The object's fully qualified name; otherwise the C commands' lookup
#	error.

proc ::verbs::Object {type value} {
    set cmd [uplevel 2 [list namespace which -command $value]]
    if {$cmd eq "" || $cmd ni [objects $type]} {
	return -code error -errorcode [list VERBS LOOKUP $type $value] \
	    "\"$value\" is not a verbs $type object"
    }
    return $cmd
}

# verbs::gid_index --
#
#	The GID index a connection on CTX's PORT should use.  On an
#	Ethernet (RoCE) port: the first RoCE v2 entry holding an IPv4-mapped
#	address, else the first RoCE v2 entry, else 0; on InfiniBand: 0.
#
# Results:
#	An index into the port's GID table.

proc ::verbs::gid_index {ctx {port 1}} {
    set ctx [Object context $ctx]
    set pattr [$ctx query port $port]
    if {[dict get $pattr link_layer] ne "ethernet"} {
	return 0
    }
    set v2 {}
    for {set i 0} {$i < [dict get $pattr gid_tbl_len]} {incr i} {
	if {[catch {$ctx query gid_entry $port $i} e]} {
	    continue
	}
	if {[dict get $e gid_type] ne "roce_v2"} {
	    continue
	}
	if {[string match 0000:0000:0000:0000:0000:ffff:* [dict get $e gid]]} {
	    return $i
	}
	if {$v2 eq ""} {
	    set v2 $i
	}
    }
    if {$v2 ne ""} {
	return $v2
    }
    return 0
}

# verbs::endpoint --
#
#	What a peer needs to know to connect to QP: a dict with qp_num,
#	lid, gid, port, gid_index, psn and link_layer.  Options: -port N
#	(default 1), -gid_index N (default [verbs::gid_index]), -psn N.
#
# Results:
#	The endpoint dict.

proc ::verbs::endpoint {qp args} {
    set opts [Options {-port 1 -gid_index {} -psn 0} $args]
    set qp [Object qp $qp]
    set ctx [$qp cget -context]
    set port [dict get $opts -port]
    set gidx [dict get $opts -gid_index]
    if {$gidx eq ""} {
	set gidx [gid_index $ctx $port]
    }
    set pattr [$ctx query port $port]
    dict create qp_num [$qp cget -qp_num] lid [dict get $pattr lid] \
	gid [$ctx query gid $port $gidx] port $port gid_index $gidx \
	psn [dict get $opts -psn] link_layer [dict get $pattr link_layer]
}

# verbs::connect_qp --
#
#	Take QP (described by LOCAL, an endpoint dict of its own) to RTS
#	talking to the peer REMOTE.  RC and UC QPs get a path to the peer
#	(with a GRH on Ethernet ports, where RoCE needs one); UD QPs just go
#	to RTS.  Attributes in the -init, -rtr and -rts dicts override the
#	defaults of to_init, to_rtr and to_rts.
#
# Results:
#	None.

proc ::verbs::connect_qp {qp local remote args} {
    set opts [Options {-init {} -rtr {} -rts {}} $args]
    set qp [Object qp $qp]
    dict set init port_num [dict get $local port]
    $qp to_init [dict merge $init [dict get $opts -init]]
    if {[$qp cget -qp_type] eq "ud"} {
	$qp to_rtr [dict get $opts -rtr]
	$qp to_rts [dict merge [list sq_psn [dict get $local psn]] \
		[dict get $opts -rts]]
	return
    }
    set ah [dict create dlid [dict get $remote lid] \
	    port_num [dict get $local port]]
    if {[dict get $local link_layer] eq "ethernet"} {
	dict set ah grh [dict create dgid [dict get $remote gid] \
		sgid_index [dict get $local gid_index] hop_limit 64]
    }
    # An ah_attr in -rtr is merged into the computed one key by key, its
    # grh too: {ah_attr {grh {hop_limit 1}}} changes just that.
    set rtr [dict get $opts -rtr]
    if {[dict exists $rtr ah_attr]} {
	set given [dict get $rtr ah_attr]
	if {[dict exists $given grh] && [dict exists $ah grh]} {
	    dict set given grh [dict merge [dict get $ah grh] \
		    [dict get $given grh]]
	}
	set ah [dict merge $ah $given]
	dict unset rtr ah_attr
    }
    $qp to_rtr [dict merge [dict create dest_qp_num \
	    [dict get $remote qp_num] rq_psn [dict get $remote psn] \
	    ah_attr $ah] $rtr]
    $qp to_rts [dict merge [list sq_psn [dict get $local psn]] \
	    [dict get $opts -rts]]
    return
}

# verbs::connect --
#
#	Connect two QPs of this process to each other (loopback on one
#	device, or across two devices).  Options: -port1, -port2,
#	-gid_index1, -gid_index2, -psn, and -init/-rtr/-rts dicts for both.
#
# Results:
#	None.

proc ::verbs::connect {qp1 qp2 args} {
    set opts [Options {-port1 1 -port2 1 -gid_index1 {} -gid_index2 {}
	-psn 0 -init {} -rtr {} -rts {}} $args]
    set qp1 [Object qp $qp1]
    set qp2 [Object qp $qp2]
    set e1 [endpoint $qp1 -port [dict get $opts -port1] \
	    -gid_index [dict get $opts -gid_index1] -psn [dict get $opts -psn]]
    set e2 [endpoint $qp2 -port [dict get $opts -port2] \
	    -gid_index [dict get $opts -gid_index2] -psn [dict get $opts -psn]]
    set extra [dict filter $opts key -init -rtr -rts]
    connect_qp $qp1 $e1 $e2 {*}$extra
    connect_qp $qp2 $e2 $e1 {*}$extra
    return
}

# verbs::cm_expect --
#
#	Wait (blocking, ?-timeout ms? as [$channel wait]) for the next
#	rdma_cm event on CHANNEL and check that it is EVENT.
#
# Results:
#	The event dict; another event is an error naming both, with the
#	errorCode {VERBS CM event status}.

proc ::verbs::cm_expect {channel event args} {
    set channel [Object cmchannel $channel]
    set ev [$channel wait {*}$args]
    if {[dict get $ev event] ne $event} {
	return -code error -errorcode [list VERBS CM [dict get $ev event] \
		[dict get $ev status]] \
	    "expected $event on $channel, got [dict get $ev event]\
	    (status [dict get $ev status])"
    }
    return $ev
}

# verbs::pingpong encode|decode|client|server --
#
#	The address exchange of rdma-core's ibv_rc_pingpong, ibv_uc_pingpong,
#	ibv_ud_pingpong and ibv_srq_pingpong, so that a script talks to those
#	tools (or to another script) in a few lines.  On the wire an endpoint
#	is "LLLL:QQQQQQ:PPPPPP:GID" in hex (LID, QPN, PSN, and the GID's 16
#	bytes as 32 hex digits), NUL-padded to 52 bytes; the client sends
#	first, the server answers with its own, the client closes with
#	"done\0".  Endpoints are the dicts of verbs::endpoint (qp_num lid psn
#	gid ...), so a decoded peer goes straight to verbs::connect_qp.

namespace eval ::verbs::pingpong {
    namespace export encode decode client server
    namespace ensemble create
    variable MSGLEN 52
}

# verbs::pingpong encode ENDPOINT: the 52-byte message.
proc ::verbs::pingpong::encode {endpoint} {
    variable MSGLEN
    foreach key {lid qp_num psn gid} {
	if {![dict exists $endpoint $key]} {
	    return -code error -errorcode [list VERBS ARG $key {}] \
		"endpoint has no $key: use the dict of verbs::endpoint"
	}
    }
    dict with endpoint {}
    set hex [string tolower [string map {: {}} $gid]]
    if {![regexp {^[0-9a-f]{32}$} $hex]} {
	return -code error -errorcode [list VERBS ARG gid $gid] \
	    "bad gid \"$gid\": must be 8 groups of 4 hex digits"
    }
    binary format a$MSGLEN [format %04x:%06x:%06x:%s $lid $qp_num $psn $hex]
}

# verbs::pingpong decode BYTES: the endpoint dict {lid qp_num psn gid}.
proc ::verbs::pingpong::decode {bytes} {
    set text [lindex [split $bytes \0] 0]
    if {[scan $text {%x:%x:%x:%32[0-9a-fA-F]%n} lid qpn psn hex end] != 5
	    || [string length $hex] != 32 || $end != [string length $text]} {
	return -code error -errorcode [list VERBS ARG message $text] \
	    "bad pingpong message \"$text\": must be LID:QPN:PSN:GID in hex"
    }
    dict create lid $lid qp_num $qpn psn $psn \
	gid [join [regexp -all -inline {....} [string tolower $hex]] :]
}

# verbs::pingpong client SOCK ENDPOINT: the client's half on a connected
# socket; returns the server's endpoint.
proc ::verbs::pingpong::client {sock endpoint} {
    variable MSGLEN
    fconfigure $sock -translation binary -blocking 1
    puts -nonewline $sock [encode $endpoint]
    flush $sock
    set reply [Read $sock $MSGLEN]
    set remote [decode $reply]
    puts -nonewline $sock done\0
    flush $sock
    return $remote
}

# verbs::pingpong server SOCK ENDPOINT ?READY?: the server's half on an
# accepted socket.  READY, when given, is a command prefix called with the
# client's endpoint before the answer goes out (to make the QP ready
# first, as the C server does).  Returns the client's endpoint.
proc ::verbs::pingpong::server {sock endpoint {ready {}}} {
    variable MSGLEN
    fconfigure $sock -translation binary -blocking 1
    set remote [decode [Read $sock $MSGLEN]]
    if {[llength $ready]} {
	uplevel #0 [linsert $ready end $remote]
    }
    puts -nonewline $sock [encode $endpoint]
    flush $sock
    set done [Read $sock 5]
    if {$done ne "done\0"} {
	return -code error -errorcode [list VERBS ARG done $done] \
	    "the client did not close the exchange with \"done\""
    }
    return $remote
}

# Read SOCK N: exactly N bytes, or an error at end of file.
proc ::verbs::pingpong::Read {sock n} {
    set data {}
    while {[string length $data] < $n} {
	set chunk [read $sock [expr {$n - [string length $data]}]]
	if {$chunk eq ""} {
	    return -code error -errorcode {VERBS ARG message {}} \
		"the peer closed the exchange after [string length $data]\
		of $n bytes"
	}
	append data $chunk
    }
    return $data
}
