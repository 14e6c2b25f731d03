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
#	A server prints "listening on ADDRESS port PORT" on stdout once its
#	TCP socket listens (0.0.0.0: every address; the port it got, so
#	that -p 0 works too): start the client after that line.
#
#	The script is executable: "#!/usr/bin/env tclsh" runs the tclsh on
#	PATH, which finds verbs where it is installed, or in a build tree
#	with TCLLIBPATH=BUILDDIR (as "make shell" sets it).
#
#	Exit status 0 on success; 1 with a message on stderr otherwise.
#
# Copyright (c) 2026 The verbs authors.
# See the file "LICENSE" for terms of use and redistribution.

package require Tcl 8.6-
package require verbs
source [file join [file dirname [info script]] pingpong.tcl]

namespace eval ::pp {
    # Room for the Global Routing Header in front of every datagram.
    variable GRH 40

    # The Q_Key both sides put in their QP and in every send.
    variable QKEY 0x11111111

    variable opt [dict create port 18515 dev {} ibport 1 size 1024 \
	    rx_depth 500 iters 1000 sl 0 events 0 gidx -1 chk 0 server {}]

    # The option names to keys for pp::parseArgs, the keys that take no
    # value, and what is said when one is given.
    variable short {p port d dev i ibport s size r rx_depth n iters l sl
	g gidx e events c chk}
    variable long {port port ib-dev dev ib-port ibport size size
	rx-depth rx_depth iters iters sl sl gid-idx gidx events events
	chk chk}
    variable flags {events chk}
    variable noValue {option "%s" takes no value}
}

proc ::pp::usage {{chan stderr}} {
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

# pp::setOption KEY OPTION VALUE --
#	Checks the VALUE given with OPTION and stores it in pp::opt.

proc ::pp::setOption {key option value} {
    variable opt
    switch -- $key {
	dev {dict set opt dev $value}
	port {dict set opt port [number $option $value 0 65535]}
	ibport {dict set opt ibport [number $option $value 1 255]}
	size {dict set opt size [number $option $value 1 0x7fffffd7]}
	rx_depth {dict set opt rx_depth [number $option $value 1 0xffffff]}
	iters {dict set opt iters [number $option $value 1 0x7fffffff]}
	sl {dict set opt sl [number $option $value 0 15]}
	gidx {dict set opt gidx [number $option $value -1 255]}
    }
}

# pp::connectQp REMOTE --
#	A UD QP needs no peer to reach RTR and RTS (only its own starting
#	PSN); what points at the peer is the address handle every send
#	names.  The AH has the peer's LID and, when the peer sent a GID
#	whose interface id (low 64 bits) is not zero, a GRH towards that
#	GID from the local GID index, as the C program decides.

proc ::pp::connectQp {remote} {
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
# pp::postRecv N --
#	Posts N receives of the whole buffer (GRH and payload) in one call;
#	returns N.

proc ::pp::postRecv {n} {
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

# pp::postSend --
#	One SEND of SIZE bytes from behind the GRH room, to the peer's QP
#	through the address handle.

proc ::pp::postSend {} {
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

# pp::pageOffsets --
#	The payload offsets -c marks and checks: the start of each page of
#	the payload (the C program's i += page_size, with 4 KiB pages).

proc ::pp::pageOffsets {} {
    variable opt
    set r {}
    for {set i 0} {$i < [dict get $opt size]} {incr i 4096} {
	lappend r $i
    }
    return $r
}

proc ::pp::main {argv} {
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
    set dev [device $dev]

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
    set ch {}
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
    printDest "local address: " $my :

    if {$server ne ""} {
	set remote [clientExchange]
    } else {
	set remote [serverExchange]
    }
    printDest "remote address:" $remote ,

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

    set usec [run $cq $ch 2]
    report $usec
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

if {[catch {::pp::main $argv} msg]} {
    puts stderr "[file tail $argv0]: $msg"
    exit 1
}
exit 0
