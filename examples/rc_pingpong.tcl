#!/usr/bin/env tclsh
# rc_pingpong.tcl ?option ...? ?server? --
#
#	A ping-pong over one RC queue pair that speaks the same protocol as
#	rdma-core's ibv_rc_pingpong, so either side may be this script or the
#	C program.  Without a server name it waits for a client on a TCP
#	port; with one it connects to that server.  The two sides swap their
#	LID, QP number, starting PSN and GID over TCP, move their QPs to RTS,
#	and then the client sends first: each side posts its next SEND only
#	when its previous SEND has completed and the peer's message has
#	arrived, ITERS times.  At the end both print the throughput and the
#	time per iteration in the C program's words.
#
#	Options (the names and defaults of ibv_rc_pingpong):
#	    -p, --port=PORT        TCP port (18515)
#	    -d, --ib-dev=DEV       RDMA device (the first one)
#	    -i, --ib-port=PORT     port of the device (1)
#	    -s, --size=BYTES       message size (4096)
#	    -m, --mtu=MTU          path MTU: 256 512 1024 2048 4096 (1024)
#	    -r, --rx-depth=N       receives kept posted (500)
#	    -n, --iters=N          number of exchanges (1000)
#	    -l, --sl=SL            service level (0)
#	    -e, --events           sleep on completion events instead of polling
#	    -g, --gid-idx=N        local GID index; needed on RoCE (none)
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
    variable opt [dict create port 18515 dev {} ibport 1 size 4096 \
	    mtu 1024 rx_depth 500 iters 1000 sl 0 events 0 gidx -1 server {}]

    # The option names to keys for pp::parseArgs, the keys that take no
    # value, and what is said when one is given (only the usage).
    variable short {p port d dev i ibport s size m mtu r rx_depth n iters
	l sl g gidx e events}
    variable long {port port ib-dev dev ib-port ibport size size mtu mtu
	rx-depth rx_depth iters iters sl sl gid-idx gidx events events}
    variable flags {events}
    variable noValue {}
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
  -s, --size=<size>      size of message to exchange (default 4096)
  -m, --mtu=<size>       path MTU (default 1024)
  -r, --rx-depth=<dep>   number of receives to post at a time (default 500)
  -n, --iters=<iters>    number of exchanges (default 1000)
  -l, --sl=<sl>          service level value
  -e, --events           sleep on CQ events (default poll)
  -g, --gid-idx=<gid index> local port gid index"
}

# pp::setOption KEY OPTION VALUE --
#	Checks the VALUE given with OPTION and stores it in pp::opt.

proc ::pp::setOption {key option value} {
    variable opt
    switch -- $key {
	dev {dict set opt dev $value}
	port {dict set opt port [number $option $value 0 65535]}
	ibport {dict set opt ibport [number $option $value 1 255]}
	size {dict set opt size [number $option $value 1 0x7fffffff]}
	mtu {
	    set value [number $option $value 0 4096]
	    if {$value ni {256 512 1024 2048 4096}} {
		badUsage "bad MTU \"$value\""
	    }
	    dict set opt mtu $value
	}
	rx_depth {dict set opt rx_depth [number $option $value 1 0xffffff]}
	iters {dict set opt iters [number $option $value 1 0x7fffffff]}
	sl {dict set opt sl [number $option $value 0 15]}
	gidx {dict set opt gidx [number $option $value -1 255]}
    }
}

# pp::connectQp REMOTE --
#	The QP to RTR and RTS towards the REMOTE endpoint, with the
#	attributes ibv_rc_pingpong uses, or death.  A GRH (hop limit 1,
#	the local GID index) goes in only when the peer sent a GID whose
#	interface id (low 64 bits) is not zero, as the C program decides.

proc ::pp::connectQp {remote} {
    if {[catch {connectRc $remote} err]} {
	die "Couldn't connect to remote QP: $err"
    }
}

proc ::pp::connectRc {remote} {
    variable opt
    variable qp
    variable my
    set ah [dict create dlid [dict get $remote lid] sl [dict get $opt sl] \
	    src_path_bits 0 port_num [dict get $opt ibport] is_global 0]
    set iid [string range [wireGid [dict get $remote gid]] 16 end]
    if {$iid ne "0000000000000000"} {
	# The C program passes its -g value even when it is -1 (no GID
	# of its own); index 0 is the nearest meaningful choice.
	set sgid [expr {max([dict get $opt gidx], 0)}]
	dict set ah is_global 1
	dict set ah grh [dict create dgid [dict get $remote gid] \
		sgid_index $sgid hop_limit 1]
    }
    $qp to_rtr [dict create path_mtu [dict get $opt mtu] \
	    dest_qp_num [dict get $remote qpn] rq_psn [dict get $remote psn] \
	    max_dest_rd_atomic 1 min_rnr_timer 12 ah_attr $ah]
    $qp to_rts [dict create timeout 14 retry_cnt 7 rnr_retry 7 \
	    sq_psn [dict get $my psn] max_rd_atomic 1]
}

# pp::postRecv N --
#	Posts N receives of the whole buffer in one call; returns N.

proc ::pp::postRecv {n} {
    variable qp
    variable mr
    variable opt
    variable RECV
    if {$n <= 0} {
	return 0
    }
    set wr [list wr_id $RECV sg_list [list [list $mr 0 [dict get $opt size]]]]
    if {[catch {$qp post_recv {*}[lrepeat $n $wr]} err]} {
	die "Couldn't post receive: $err"
    }
    return $n
}

proc ::pp::postSend {} {
    variable qp
    variable mr
    variable opt
    variable SEND
    variable sendFlags
    if {[catch {$qp post_send [list wr_id $SEND opcode send \
	    send_flags $sendFlags \
	    sg_list [list [list $mr 0 [dict get $opt size]]]]} err]} {
	die "Couldn't post send: $err"
    }
}

proc ::pp::main {argv} {
    variable opt
    variable qp
    variable mr
    variable my
    variable sendFlags
    variable scnt 0
    variable rcnt 0
    variable routs
    variable pending
    variable RECV
    variable SEND

    parseArgs $argv
    dict with opt {}
    expr {srand(([pid] * [clock seconds]) & 0x7fffffff)}
    set dev [device $dev]

    # The resources of ibv_rc_pingpong: a buffer of SIZE bytes of 0x7b
    # registered for local write, a CQ of rx_depth + 1 entries (on a
    # completion channel with -e), an RC QP with one send and rx_depth
    # receive work requests of one SGE, inline sends when the QP grants
    # enough inline data.
    set ctx [verbs::context open $dev]
    set pd [verbs::pd create $ctx]
    set mr [verbs::mr create $pd -length $size -access local_write]
    $mr fill 0x7b
    set ch {}
    set cqopts {}
    if {$events} {
	set ch [verbs::channel create $ctx]
	lappend cqopts -channel $ch
    }
    set cq [verbs::cq create $ctx -cqe [expr {$rx_depth + 1}] {*}$cqopts]
    if {[catch {verbs::qp create $pd -send_cq $cq -recv_cq $cq -type rc \
	    -cap [list max_send_wr 1 max_recv_wr $rx_depth \
	    max_send_sge 1 max_recv_sge 1]} qp]} {
	die "Couldn't create QP: $qp"
    }
    set sendFlags signaled
    if {[dict get [$qp query] cap max_inline_data] >= $size} {
	lappend sendFlags inline
    }
    if {[catch {$qp to_init [list pkey_index 0 port_num $ibport \
	    qp_access_flags {}]} err]} {
	die "Failed to modify QP to INIT: $err"
    }

    set routs [postRecv $rx_depth]
    if {$events} {
	$cq req_notify
    }

    if {[catch {$ctx query port $ibport} pattr]} {
	die "Couldn't get port info: $pattr"
    }
    set lid [dict get $pattr lid]
    if {[dict get $pattr link_layer] ne "ethernet" && $lid == 0} {
	die "Couldn't get local LID"
    }
    if {$gidx >= 0} {
	if {[catch {$ctx query gid $ibport $gidx} gid]} {
	    die "can't read sgid of index $gidx"
	}
    } else {
	set gid 0000:0000:0000:0000:0000:0000:0000:0000
    }
    set my [dict create lid $lid qpn [$qp cget -qp_num] \
	    psn [expr {int(rand() * 0x1000000) & 0xffffff}] gid $gid]
    printDest "local address: " $my

    if {$server ne ""} {
	set remote [clientExchange]
    } else {
	set remote [serverExchange]
    }
    printDest "remote address:" $remote

    if {$server ne ""} {
	connectQp $remote
    }

    # The client sends first; the server starts by waiting for it.
    set pending $RECV
    if {$server ne ""} {
	postSend
	set pending [expr {$pending | $SEND}]
    }

    set usec [run $cq $ch]
    report $usec
    flush stdout

    $ctx close
}

if {[catch {::pp::main $argv} msg]} {
    puts stderr "[file tail $argv0]: $msg"
    exit 1
}
exit 0
