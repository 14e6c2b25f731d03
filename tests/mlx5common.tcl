# mlx5common.tcl --
#
#	What the ConnectX hardware twins of rdma-core's tests/test_mlx5_*.py
#	share (tests/upstream.map names them): the DevX QP of test_mlx5_devx.py,
#	the DC pair of mlx5_base.py, the raw packet QPs and rules of
#	test_mlx5_dr.py.  Sourced by mlx5.test and the mlx5*.test files of
#	the twins, after common.tcl; nothing here runs until a test calls it.
#

# The DevX pieces of a QP, as rdma-core's tests/test_mlx5_devx.py makes
# them (written from the PRM, never run here): a UAR, the EQ of vector 0,
# a PD (ALLOC_PD), a CQ and an RC QP whose buffers and doorbell records
# are UMEMs, all built with mlx5::prm pack.

proc prmSize {type} {
    string length [mlx5::prm pack $type {}]
}

proc devxSetup {} {
    mlx5::context open $::vt::dev -devx -as ::ctx
    mlx5::devx uar alloc ctx -flags nc -as ::uar
    set ::eqn [mlx5::devx query_eqn ctx 0]
    mlx5::devx obj create ctx [mlx5::prm pack alloc_pd_in {opcode alloc_pd}] \
	-outlen [prmSize alloc_pd_out] -as ::dpd
    # CQ: 128 entries of 64 bytes, and its doorbell record.
    mlx5::devx umem reg ctx -length 8192 -as ::cqbuf
    mlx5::devx umem reg ctx -length 64 -as ::cqdbr
    # Every CQE owned by software at first (op_own 0xf1 at byte 63).
    for {set i 0} {$i < 128} {incr i} {
	cqbuf write [expr {$i * 64 + 63}] \xf1
    }
    mlx5::devx obj create ctx [mlx5::prm pack create_cq_in [dict create \
	opcode create_cq cq_umem_valid 1 cq_umem_id [cqbuf cget -umem_id] \
	cq_context [dict create log_cq_size 7 uar_page [uar cget -page_id] \
	    c_eqn_or_apu_element $::eqn dbr_umem_valid 1 \
	    dbr_umem_id [cqdbr cget -umem_id]]]] \
	-outlen [prmSize create_cq_out] -as ::dcq
    # RC QP: 64 receive WQEs of 16 bytes, 64 send WQEs of 64 bytes.
    mlx5::devx umem reg ctx -length 8192 -as ::qpbuf
    mlx5::devx umem reg ctx -length 64 -as ::qpdbr
    mlx5::devx obj create ctx [mlx5::prm pack create_qp_in [dict create \
	opcode create_qp wq_umem_valid 1 wq_umem_id [qpbuf cget -umem_id] \
	qpc [dict create st 0 pm_state 3 pd [dpd cget -id] \
	    uar_page [uar cget -page_id] log_sq_size 6 log_rq_size 6 \
	    log_rq_stride 0 cqn_snd [dcq cget -id] cqn_rcv [dcq cget -id] \
	    dbr_umem_valid 1 dbr_umem_id [qpdbr cget -umem_id] \
	    log_msg_max 30]]] \
	-outlen [prmSize create_qp_out] -as ::dqp
}

proc qpState {qp} {
    set out [$qp query [mlx5::prm pack query_qp_in [dict create \
	opcode query_qp qpn [$qp cget -id]]] \
	-outlen [prmSize query_qp_out]]
    dict get [mlx5::prm unpack query_qp_out $out] qpc state
}

# The MAC address of the netdev under a RoCE GID (its ndev_ifindex).

proc gidMac {ctx port gidx} {
    set ifindex [dict get [$ctx query gid_entry $port $gidx] ndev_ifindex]
    foreach f [glob -nocomplain /sys/class/net/*/ifindex] {
	set chan [open $f]
	set i [string trim [read $chan]]
	close $chan
	if {$i == $ifindex} {
	    set chan [open [file join [file dirname $f] address]]
	    set mac [string trim [read $chan]]
	    close $chan
	    return $mac
	}
    }
    error "no netdev of index $ifindex"
}

# DC as rdma-core's tests/mlx5_base.py (Mlx5DcResources) sets it up, on
# one device: a DCI and a DCT sharing a CQ and an SRQ, with the attribute
# masks pyverbs gives DC QPs (a DCI's RTR takes the path MTU alone).
# Returns the dc dict of a send to the DCT.
proc dcSetup {sendOps args} {
    mlx5::context open $::vt::dev -as ::ctx
    verbs::pd create ctx -as ::pd
    verbs::cq create ctx -cqe 256 -as ::cq
    verbs::srq create pd -as ::srq
    set acc {local_write remote_write remote_read remote_atomic}
    verbs::mr create pd -length 1024 -access $acc -as ::smr
    verbs::mr create pd -length 1024 -access $acc -as ::rmr
    set cap {max_send_wr 100 max_send_sge 1}
    mlx5::qp create pd -send_cq cq -recv_cq cq -srq srq -cap $cap \
	-sq_sig_all 1 -send_ops $sendOps -dc_type dci {*}$args -as ::dci
    mlx5::qp create pd -send_cq cq -recv_cq cq -srq srq -cap $cap \
	-dc_type dct -dc_access_key 0x1234 -as ::dct
    set gidx [vt::gidIndex ctx]
    set av [list port_num $::vt::port is_global 1 grh [list \
	dgid [ctx query gid $::vt::port $gidx] sgid_index $gidx \
	hop_limit 64]]
    dci modify [list qp_state init pkey_index 0 port_num $::vt::port]
    dci modify {qp_state rtr path_mtu 1024}
    dci modify {qp_state rts timeout 14 retry_cnt 7 rnr_retry 7 sq_psn 0
	max_rd_atomic 1}
    dct modify [list qp_state init pkey_index 0 port_num $::vt::port \
	qp_access_flags $acc]
    dct modify [list qp_state rtr path_mtu 1024 min_rnr_timer 12 \
	ah_attr $av]
    verbs::ah create pd $av -as ::ah
    list ah ::ah remote_dctn [dct cget -qp_num] remote_dc_key 0x1234
}

# root: the effective user is root, upstream's requires_root (software
# steering on tables of level 1 and up, and other privileged cases).
testConstraint root [expr {![catch {exec id -u} uid] && $uid == 0}]

# Software steering as rdma-core's tests/test_mlx5_dr.py runs it: raw
# packet QPs on one port (the NIC loops a multicast frame back to its own
# receive steering), a NIC RX domain, and frames of a source MAC steered
# to the receiving QP.
set drSmac 02:11:22:33:44:55

proc drSetup {{wcFlags {}}} {
    mlx5::context open $::vt::dev -as ::ctx
    verbs::pd create ctx -as ::pd
    if {$wcFlags eq ""} {
	verbs::cq create ctx -cqe 64 -as ::cq
    } else {
	verbs::cq create ctx -cqe 64 -wc_flags $wcFlags -as ::cq
    }
    foreach q {send recv} {
	verbs::qp create pd -send_cq cq -type raw_packet -as ::$q \
	    -cap {max_send_wr 16 max_recv_wr 16 max_send_sge 1 max_recv_sge 1}
	$q to_init [list port_num $::vt::port]
	$q to_rtr
	$q to_rts
    }
    verbs::mr create pd -length 8192 -as ::mr
    mlx5::dr domain create ctx -type nic_rx -as ::rx
}

# The rule of test_mlx5_dr.py's create_rx_recv_rules: on the root table
# (root_only) or on a table of level 1 that an empty root rule forwards
# to, a matcher on the source MAC and a rule with ACTIONS.
proc drRules {actions rootOnly {layout {}}} {
    mlx5::dr table create rx -as ::root
    set mac [binary format H12 [string map {: {}} $::drSmac]]
    if {$rootOnly} {
	set table root
	set mask [binary format H12 ffffffffffff]
    } else {
	mlx5::dr table create rx -level 1 -as ::t1
	set zero [mlx5::prm pack fte_match_param {}]
	mlx5::dr matcher create root -mask $zero -match_criteria_enable 0 \
	    -as ::rootm
	mlx5::dr action dest_table rx t1 -as ::go
	mlx5::dr rule create rootm $zero -actions ::go -as ::gor
	set table t1
	set mask [binary format H12x2 ffffffffffff]
	append mac \0\0
    }
    mlx5::dr matcher create $table -mask $mask -as ::m
    if {$layout ne ""} {
	m set_layout $layout
    }
    mlx5::dr rule create m $mac -actions $actions -as ::r
}

# N frames from ::send, from drSmac; the receive completions.
proc drTraffic {n} {
    set frame [binary format H12H12Sa50 01005e7f000b \
	[string map {: {}} $::drSmac] 0x88b5 [string repeat x 50]]
    mr write 0 $frame
    for {set i 0} {$i < $n} {incr i} {
	recv post_recv [list wr_id [expr {100 + $i}] \
	    sg_list [list [list mr [expr {1024 + 128 * $i}] 128]]]
	send post_send {wr_id 1 sg_list {{mr 0 64}} send_flags signaled}
    }
    lmap w [cq wait [expr {2 * $n}] -timeout 5000] {
	if {[dict get $w opcode] ne "recv"} continue
	set w
    }
}
