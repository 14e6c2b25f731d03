#!/usr/bin/env tclsh
# dc.tcl ?-d device? ?-p port? ?-n count? --
#
#	Dynamically connected transport on a ConnectX (mlx5) device: one
#	DCI sends to a DCT with no connection set up between them, each
#	send naming its destination (its address handle, DCT number and
#	access key).  It
#
#	    makes a DCT on an SRQ and a DCI (mlx5::qp create -dc_type),
#	    moves them to RTR and RTS with the attributes DC QPs take,
#	    posts COUNT sends through the DCI (mlx5::qp wr_post with a dc
#	    key), each received into the SRQ, and
#	    prints what arrived, then closes the context.
#
#	Options:
#	    -d DEVICE     the device (the first mlx5_* one)
#	    -p PORT       its port (1)
#	    -n COUNT      the sends (4)
#
#	Exit status 0 on success, 1 with a message on stderr otherwise (on
#	a device that is not an mlx5 one: "... is not an mlx5 device").

package require verbs

proc main {argv} {
    set dev ""
    set port 1
    set count 4
    foreach {opt value} $argv {
	switch -- $opt {
	    -d {set dev $value}
	    -p {set port $value}
	    -n {set count $value}
	    default {
		puts stderr "usage: dc.tcl ?-d device? ?-p port? ?-n count?"
		exit 1
	    }
	}
    }
    if {$dev eq ""} {
	set dev [lindex [lsearch -all -inline [verbs::devices] mlx5_*] 0]
    }
    set ctx [mlx5::context open $dev]
    set pd [verbs::pd create $ctx]
    set cq [verbs::cq create $ctx -cqe [expr {2 * $count + 2}]]
    set srq [verbs::srq create $pd]
    set mr [verbs::mr create $pd -length 4096]

    # The DCT receives into the SRQ for whoever knows its key; the DCI
    # sends to any DCT.
    set key 0xfeedface
    set dct [mlx5::qp create $pd -send_cq $cq -recv_cq $cq -srq $srq \
	-dc_type dct -dc_access_key $key]
    set dci [mlx5::qp create $pd -send_cq $cq -recv_cq $cq -srq $srq \
	-dc_type dci -send_ops send -sq_sig_all 1]

    set gidx [verbs::gid_index $ctx $port]
    set av [list port_num $port is_global 1 grh [list \
	dgid [$ctx query gid $port $gidx] sgid_index $gidx hop_limit 64]]
    $dct modify [list qp_state init pkey_index 0 port_num $port \
	qp_access_flags {local_write remote_write}]
    $dct modify [list qp_state rtr path_mtu 1024 min_rnr_timer 12 \
	ah_attr $av]
    $dci modify [list qp_state init pkey_index 0 port_num $port]
    $dci modify {qp_state rtr path_mtu 1024}
    $dci modify {qp_state rts timeout 14 retry_cnt 7 rnr_retry 7 sq_psn 0
	max_rd_atomic 1}
    set ah [verbs::ah create $pd $av]

    # Each send names its destination.
    set dc [list ah $ah remote_dctn [$dct cget -qp_num] remote_dc_key $key]
    for {set i 0} {$i < $count} {incr i} {
	$srq post_recv [list wr_id $i sg_list [list [list $mr [expr {2048 + 64 * $i}] 64]]]
	$mr write [expr {64 * $i}] [format "message %d through DC" $i]
	mlx5::qp wr_post $dci [list wr_id $i \
	    sg_list [list [list $mr [expr {64 * $i}] 64]] dc $dc]
    }
    set recvs 0
    foreach w [$cq wait [expr {2 * $count}] -timeout 5000 -check 1] {
	if {[dict get $w opcode] eq "recv"} {
	    set off [expr {2048 + 64 * [dict get $w wr_id]}]
	    puts [string trimright [$mr read $off 64] \0]
	    incr recvs
	}
    }
    puts "$recvs sends from [$dci cget -qp_num] to DCT [$dct cget -qp_num]"
    $ctx close
}

if {[catch {main $argv} msg]} {
    puts stderr "dc.tcl: $msg"
    exit 1
}
