# peer.tcl ROLE TYPE OP DEVICE GID_INDEX --
#
#	One side of a Tcl-to-Tcl case of the lab's matrix (interop.test),
#	run on a lab host by the controller.  ROLE is server or client,
#	TYPE rc, uc or srq (an RC queue pair whose receives come from a
#	shared receive queue, on the server), OP what the client does:
#	send, inline (a SEND of inline data), imm (RDMA WRITE with
#	immediate data), write, read, atomic (fetch and add, then compare
#	and swap), mw (an RDMA WRITE through a type 2 memory window that
#	the server binds), odp (an RDMA WRITE into the server's on-demand
#	paging region and a READ back, one packet each at offset 0), or
#	atomic_write or flush (wr_post; what only newer stacks have).
#	The two sides meet through the controller:
#
#	    each prints  "endpoint DICT" (qpn psn gid addr rkey)
#	    each reads   the peer's endpoint line, connects, prints
#	                 "connected"
#	    the server   with OP mw, binds its window and prints "window
#	                 RKEY"
#	    the client   reads "go" (with OP mw "go RKEY"), does OP, prints
#	                 "result ok ..." or
#	                 "result error ..." (a refusal or a failed
#	                 completion, with its words)
#	    the server   checks what arrived (for the ops it sees), prints
#	                 "result ok ..." or "result error ...", and ends;
#	                 for the one-sided ops it waits for the client's
#	                 SEND "done" first, for atomic_write and flush for
#	                 "end" on its input instead; with OP odp, a server
#	                 whose device has no ODP (odp_caps) and refuses the
#	                 region uses an ordinary one and ends "result
#	                 unsupported MESSAGE"
#
#	Every wait has a timeout of 10 s: nothing here waits for ever.
#	Exit status 0 when the side printed its result.
#
# Copyright (c) 2026 The verbs authors.
# See the file "LICENSE" for terms of use and redistribution.

package require verbs

lassign $argv role type op dev gidx
set port 1
fconfigure stdout -buffering line

proc result {words} {
    puts "result $words"
    exit 0
}

# A completion, or an error result after 10 s.
proc completion {cq what} {
    set w [$cq wait 1 -timeout 10000]
    if {![llength $w]} {
	result "error no completion of $what in 10 s"
    }
    lindex $w 0
}

proc check {wc what {opcode {}}} {
    if {[dict get $wc status] ne "success"} {
	result "error $what: [dict get $wc status]"
    }
    if {$opcode ne "" && [dict get $wc opcode] ne $opcode} {
	result "error $what: opcode [dict get $wc opcode], not $opcode"
    }
}

set pattern [string range [string repeat "verbs-lab-$op-$type " 8] 0 63]
set ctx [verbs::context open $dev]
set pd [verbs::pd create $ctx]
set cq [verbs::cq create $ctx -cqe 64]
set access {local_write remote_write remote_read remote_atomic}
if {$op eq "mw"} {
    lappend access mw_bind
}
# An ODP server's region: the receives go to a region of their own (a
# SEND into ODP memory is a known bug of kernel 7.2, tests/odp.test).
set unsupported {}
if {$role eq "server" && $op eq "odp"} {
    set caps [dict get [$ctx query device_ex] odp_caps]
    set claimed [expr {"support" in [dict get $caps general_caps] && [llength \
	[dict get $caps per_transport_caps rc_odp_caps]]}]
    if {[catch {verbs::mr create $pd -length 4096 \
	    -access [list {*}$access on_demand]} mr]} {
	if {$claimed} {
	    result "error the ODP region, which odp_caps claim: $mr"
	}
	set unsupported "$mr (odp_caps: [dict get $caps general_caps])"
	set mr [verbs::mr create $pd -length 4096 -access $access]
    }
    set rmr [verbs::mr create $pd -length 64 -access local_write]
} else {
    set mr [verbs::mr create $pd -length 4096 -access $access]
    set rmr $mr
}
set qtype [expr {$type eq "srq" ? "rc" : $type}]
set opts {}
if {$role eq "server" && $type eq "srq"} {
    set srq [verbs::srq create $pd -max_wr 16 -max_sge 1]
    lappend opts -srq $srq
}
if {$role eq "client" && $op in {atomic_write flush}} {
    set ops [expr {$op eq "flush" ? {rdma_write flush} : {atomic_write}}]
    if {[catch {verbs::qp create $pd -send_cq $cq -type $qtype \
	    -send_ops $ops} qp]} {
	result "error refused: $qp"
    }
} else {
    if {$op eq "inline"} {
	lappend opts -cap {max_inline_data 64}
    }
    set qp [verbs::qp create $pd -send_cq $cq -type $qtype {*}$opts]
}
$qp to_init
if {$role eq "server"} {
    set recv [list sg_list [list [list $rmr 0 64]]]
    if {$type eq "srq"} {
	$srq post_recv $recv
    } else {
	$qp post_recv $recv
    }
    # What the client's READ and atomics find.
    $mr write 2048 $pattern
    $mr write 3072 [binary format w 5]
}
set psn [expr {int(rand() * 0xffffff)}]
puts "endpoint [list qpn [$qp cget -qp_num] psn $psn \
    gid [$ctx query gid $port $gidx] addr [$mr cget -addr] rkey [$mr cget -rkey]]"
if {[gets stdin line] < 0 || ![regexp {^endpoint (.*)$} [string trim $line] -> peer]} {
    result "error no endpoint from the peer"
}
if {$peer eq "none"} {
    result "error the peer gave up"
}
set rtr [list dest_qp_num [dict get $peer qpn] rq_psn [dict get $peer psn] \
    path_mtu 1024 ah_attr [list is_global 1 dlid 0 port_num $port \
    grh [list dgid [dict get $peer gid] sgid_index $gidx hop_limit 1]]]
$qp to_rtr $rtr
$qp to_rts [list sq_psn $psn]
puts connected

set raddr [dict get $peer addr]
set rkey [dict get $peer rkey]

if {$role eq "server"} {
    switch -- $op {
	send - inline {
	    set wc [completion $cq recv]
	    check $wc recv recv
	    if {[dict get $wc byte_len] != 64 || [$mr read 0 64] ne $pattern} {
		result "error the SEND's bytes differ"
	    }
	    result "ok received 64 bytes"
	}
	imm {
	    set wc [completion $cq recv]
	    check $wc recv recv_rdma_with_imm
	    if {[dict get $wc imm_data] != 0x1234} {
		result "error imm_data [dict get $wc imm_data]"
	    }
	    if {[$mr read 512 64] ne $pattern} {
		result "error the written bytes differ"
	    }
	    result "ok imm_data 0x1234 and 64 bytes"
	}
	mw - write - read - atomic - odp {
	    if {$op eq "mw"} {
		set w [verbs::mw create $pd -type 2]
		$qp post_send [list opcode bind_mw send_flags signaled mw $w \
		    bind_info [list mr $mr offset 1024 length 64 \
		    mw_access_flags remote_write]]
		check [completion $cq "bind of the window"] "bind of the window" bind_mw
		puts "window [$w cget -rkey]"
	    }
	    set wc [completion $cq "the client's done"]
	    check $wc recv recv
	    if {$op in {write mw} && [$mr read 1024 64] ne $pattern} {
		result "error the written bytes differ"
	    }
	    if {$op eq "atomic"} {
		binary scan [$mr read 3072 8] w v
		if {$v != 42} {
		    result "error the atomics left $v, not 42"
		}
	    }
	    if {$op eq "odp"} {
		if {[$mr read 0 64] ne $pattern} {
		    result "error the written bytes differ"
		}
		if {$unsupported ne ""} {
		    result "unsupported $unsupported"
		}
	    }
	    result "ok"
	}
	default {
	    # atomic_write, flush: whatever the client saw is its result.
	    gets stdin
	    result "ok"
	}
    }
}

if {[gets stdin line] < 0 || ![regexp {^go ?(\d*)$} [string trim $line] -> wkey]} {
    result "error no go"
}
$mr write 0 $pattern
set sge [list [list $mr 0 64]]
switch -- $op {
    send {
	$qp post_send [list opcode send send_flags signaled sg_list $sge]
	check [completion $cq send] send
	result "ok sent 64 bytes"
    }
    inline {
	$qp post_send [list opcode send send_flags {signaled inline} sg_list $sge]
	check [completion $cq send] send
	result "ok sent 64 inline bytes"
    }
    imm {
	$qp post_send [list opcode rdma_write_with_imm send_flags signaled \
	    sg_list $sge remote_addr [expr {$raddr + 512}] rkey $rkey \
	    imm_data 0x1234]
	check [completion $cq write] "write with imm"
	result "ok"
    }
    mw - write - read - atomic - odp {
	if {$op eq "odp"} {
	    # Into the server's region at offset 0, and back.
	    $qp post_send [list opcode rdma_write send_flags signaled \
		sg_list $sge remote_addr $raddr rkey $rkey]
	    check [completion $cq write] write rdma_write
	    $qp post_send [list opcode rdma_read send_flags signaled \
		sg_list [list [list $mr 2048 64]] remote_addr $raddr rkey $rkey]
	    check [completion $cq read] read rdma_read
	    if {[$mr read 2048 64] ne $pattern} {
		result "error the bytes read back differ"
	    }
	} elseif {$op in {write mw}} {
	    # Through the window: its rkey, and the buffer's address.
	    set key [expr {$op eq "mw" ? $wkey : $rkey}]
	    $qp post_send [list opcode rdma_write send_flags signaled \
		sg_list $sge remote_addr [expr {$raddr + 1024}] rkey $key]
	    check [completion $cq write] write rdma_write
	} elseif {$op eq "read"} {
	    $qp post_send [list opcode rdma_read send_flags signaled \
		sg_list [list [list $mr 2048 64]] \
		remote_addr [expr {$raddr + 2048}] rkey $rkey]
	    check [completion $cq read] read rdma_read
	    if {[$mr read 2048 64] ne $pattern} {
		result "error the read bytes differ"
	    }
	} else {
	    set a [expr {$raddr + 3072}]
	    $qp post_send [list opcode atomic_fetch_and_add send_flags signaled \
		sg_list [list [list $mr 3072 8]] remote_addr $a rkey $rkey \
		compare_add 3]
	    check [completion $cq "fetch and add"] "fetch and add" fetch_add
	    binary scan [$mr read 3072 8] w old
	    $qp post_send [list opcode atomic_cmp_and_swp send_flags signaled \
		sg_list [list [list $mr 3072 8]] remote_addr $a rkey $rkey \
		compare_add 8 swap 42]
	    check [completion $cq "compare and swap"] "compare and swap" comp_swap
	    binary scan [$mr read 3072 8] w old2
	    if {$old != 5 || $old2 != 8} {
		result "error the atomics returned $old and $old2, not 5 and 8"
	    }
	}
	$mr write 0 done
	$qp post_send [list opcode send send_flags signaled sg_list $sge]
	check [completion $cq done] "send of done"
	result "ok"
    }
    atomic_write {
	$mr write 0 [binary format w 0x1122334455667788]
	if {[catch {$qp wr_post [list opcode atomic_write send_flags signaled \
		sg_list [list [list $mr 0 8]] remote_addr [expr {$raddr + 8}] \
		rkey $rkey]} msg]} {
	    result "error refused: $msg"
	}
	set wc [completion $cq "atomic write"]
	if {[dict get $wc status] ne "success"} {
	    result "error completion [dict get $wc status]"
	}
	result "ok"
    }
    flush {
	if {[catch {$qp wr_post [list opcode flush send_flags signaled \
		remote_addr $raddr rkey $rkey length 64]} msg]} {
	    result "error refused: $msg"
	}
	set wc [completion $cq flush]
	if {[dict get $wc status] ne "success"} {
	    result "error completion [dict get $wc status]"
	}
	result "ok"
    }
}
