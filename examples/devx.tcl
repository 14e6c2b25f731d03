#!/usr/bin/env tclsh
# devx.tcl ?-d device? --
#
#	DevX on a ConnectX (mlx5) device, from a script: every firmware
#	command is built by field name with mlx5::prm pack.  It
#
#	    opens the device for DevX,
#	    asks the firmware for its general capabilities (QUERY_HCA_CAP)
#	    and prints a few of them,
#	    makes a PD (ALLOC_PD), a CQ and an RC QP whose buffers and
#	    doorbell records are UMEMs, on a UAR and the EQ of vector 0,
#	    moves the QP to INIT and reads its state back (QUERY_QP),
#	    prints what the QP holds (its references), and
#	    closes the context, which destroys the DevX objects in
#	    dependency order.
#
#	Options:
#	    -d DEVICE     the device (the first mlx5_* one)
#	    -p PORT       its port (1)
#
#	Exit status 0 on success, 1 with a message on stderr otherwise (on
#	a device that is not an mlx5 one: "... is not an mlx5 device").

package require verbs

proc usage {} {
    puts stderr "usage: devx.tcl ?-d device? ?-p port?"
    exit 1
}

# The size of a PRM struct: what an output of that type needs.
proc outlen {type} {
    string length [mlx5::prm pack $type {}]
}

proc main {argv} {
    set dev ""
    set port 1
    foreach {opt value} $argv {
	switch -- $opt {
	    -d {set dev $value}
	    -p {set port $value}
	    default usage
	}
    }
    if {[llength $argv] % 2} usage
    if {$dev eq ""} {
	set dev [lsearch -inline [verbs::devices] mlx5_*]
	if {$dev eq ""} {
	    error "no mlx5 device (give one with -d)"
	}
    }

    set ctx [mlx5::context open $dev -devx]
    try {
	# QUERY_HCA_CAP, op_mod 1: the current general capabilities.
	set out [mlx5::devx general $ctx [mlx5::prm pack query_hca_cap_in \
	    {opcode query_hca_cap op_mod 1}] -outlen [outlen query_hca_cap_out]]
	set cap [dict get [mlx5::prm unpack query_hca_cap_out $out] \
	    capability cmd_hca_cap]
	foreach f {log_max_qp log_max_cq log_max_cq_sz log_max_pd} {
	    puts [format "%-16s %d" $f [dict get $cap $f]]
	}

	set uar [mlx5::devx uar create $ctx]
	set eqn [mlx5::devx query_eqn $ctx 0]
	set pd [mlx5::devx obj create $ctx \
	    [mlx5::prm pack alloc_pd_in {opcode alloc_pd}] \
	    -outlen [outlen alloc_pd_out]]

	# A CQ of 128 64-byte entries, all owned by software at first.
	set cqbuf [mlx5::devx umem create $ctx -length 8192]
	set cqdbr [mlx5::devx umem create $ctx -length 64]
	for {set i 0} {$i < 128} {incr i} {
	    $cqbuf write [expr {$i * 64 + 63}] \xf1
	}
	set cq [mlx5::devx obj create $ctx [mlx5::prm pack create_cq_in [list \
	    opcode create_cq cq_umem_valid 1 cq_umem_id [$cqbuf cget -umem_id] \
	    cq_context [list log_cq_size 7 uar_page [$uar cget -page_id] \
		c_eqn_or_apu_element $eqn \
		dbr_umem_valid 1 dbr_umem_id [$cqdbr cget -umem_id]]]] \
	    -outlen [outlen create_cq_out]]

	# An RC QP: 64 receive and 64 send WQEs.
	set qpbuf [mlx5::devx umem create $ctx -length 8192]
	set qpdbr [mlx5::devx umem create $ctx -length 64]
	set qp [mlx5::devx obj create $ctx [mlx5::prm pack create_qp_in [list \
	    opcode create_qp wq_umem_valid 1 wq_umem_id [$qpbuf cget -umem_id] \
	    qpc [list st 0 pm_state 3 pd [$pd cget -id] \
		uar_page [$uar cget -page_id] log_sq_size 6 log_rq_size 6 \
		cqn_snd [$cq cget -id] cqn_rcv [$cq cget -id] \
		dbr_umem_valid 1 dbr_umem_id [$qpdbr cget -umem_id]]]] \
	    -outlen [outlen create_qp_out]]
	puts "pd [$pd cget -id] cq [$cq cget -id] qp [$qp cget -id]"

	$qp modify [mlx5::prm pack rst2init_qp_in [list opcode rst2init_qp \
	    qpn [$qp cget -id] qpc [list pm_state 3 rwe 1 rre 1 \
	    primary_address_path [list vhca_port_num $port]]]] \
	    -outlen [outlen rst2init_qp_out]
	set out [$qp query [mlx5::prm pack query_qp_in [list opcode query_qp \
	    qpn [$qp cget -id]]] -outlen [outlen query_qp_out]]
	puts "qp state [dict get [mlx5::prm unpack query_qp_out $out] qpc state]"
	foreach r [$qp refs] {
	    lassign $r path kind value obj
	    puts [format "  %-22s %-5s %-8s %s" $path $kind $value \
		[expr {$obj eq "" ? "(external)" : $obj}]]
	}
    } finally {
	$ctx close
    }
}

if {[catch {main $argv} msg]} {
    puts stderr "devx.tcl: $msg"
    exit 1
}
