#!/usr/bin/env tclsh
# dr.tcl ?-d device? ?-p port? ?-n count? --
#
#	Software steering on a ConnectX (mlx5) device: frames of one
#	source MAC are steered by a DR rule to a raw packet QP, tagged on
#	the way.  It
#
#	    opens a NIC RX domain, a root table and a table of level 1, and
#	    forwards everything from the root to the other,
#	    matches the source MAC there (mlx5::prm pack fte_match_param)
#	    and sends the matching frames to the receiving QP with a tag,
#	    sends COUNT multicast frames from another raw packet QP on the
#	    same port (the NIC loops them back to its own steering), and
#	    prints the tag and length of each frame received, then closes
#	    the domain and the context.
#
#	Options:
#	    -d DEVICE     the device (the first mlx5_* one)
#	    -p PORT       its port (1)
#	    -n COUNT      the frames (4)
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
		puts stderr "usage: dr.tcl ?-d device? ?-p port? ?-n count?"
		exit 1
	    }
	}
    }
    if {$dev eq ""} {
	set dev [lindex [lsearch -all -inline [verbs::devices] mlx5_*] 0]
    }
    set ctx [mlx5::context open $dev]
    set domain [mlx5::dr domain create $ctx -type nic_rx]
    set pd [verbs::pd create $ctx]
    set cq [verbs::cq create $ctx -cqe [expr {2 * $count + 2}] \
	-wc_flags {byte_len flow_tag}]
    foreach q {send recv} {
	set $q [verbs::qp create $pd -type raw_packet -send_cq $cq \
	    -cap {max_send_wr 16 max_recv_wr 16 max_send_sge 1 max_recv_sge 1}]
	[set $q] to_init [list port_num $port]
	[set $q] to_rtr
	[set $q] to_rts
    }
    set mr [verbs::mr create $pd -length 8192]

    # Root table: everything on to the table of level 1.
    set root [mlx5::dr table create $domain]
    set table [mlx5::dr table create $domain -level 1]
    set any [mlx5::prm pack fte_match_param {}]
    set all [mlx5::dr matcher create $root -mask $any \
	-match_criteria_enable 0]
    mlx5::dr rule create $all $any \
	-actions [mlx5::dr action dest_table $domain $table]

    # Level 1: the source MAC 02:11:22:33:44:55, tagged, to the QP.
    set matcher [mlx5::dr matcher create $table -mask [mlx5::prm pack \
	fte_match_param {outer_headers {smac_47_16 0xffffffff
	    smac_15_0 0xffff}}]]
    mlx5::dr rule create $matcher [mlx5::prm pack fte_match_param \
	{outer_headers {smac_47_16 0x02112233 smac_15_0 0x4455}}] \
	-actions [list [mlx5::dr action tag $domain 0xabc] \
	    [mlx5::dr action dest_qp $domain $recv]]
    $domain sync

    set frame [binary format H12H12Sa50 01005e7f000b 021122334455 0x88b5 \
	[string repeat x 50]]
    $mr write 0 $frame
    for {set i 0} {$i < $count} {incr i} {
	$recv post_recv [list wr_id $i \
	    sg_list [list [list $mr [expr {1024 + 128 * $i}] 128]]]
	$send post_send [list wr_id 100 sg_list [list [list $mr 0 64]] \
	    send_flags signaled]
    }
    foreach w [$cq wait [expr {2 * $count}] -timeout 5000 -check 1] {
	if {[dict get $w opcode] eq "recv"} {
	    puts "frame [dict get $w wr_id]: [dict get $w byte_len] bytes,\
		tag [format 0x%x [dict get $w flow_tag]]"
	}
    }
    $domain close
    $ctx close
}

if {[catch {main $argv} msg]} {
    puts stderr "dr.tcl: $msg"
    exit 1
}
