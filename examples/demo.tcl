#!/usr/bin/env tclsh
# demo.tcl ?DEVICE? ?DEVICE2? --
#
#	A first look at verbs: a device summary like ibv_devinfo, then two RC
#	queue pairs connected to each other, a SEND/RECV and an RDMA WRITE
#	moving real bytes.  DEVICE defaults to $env(VERBS_DEVICE) or the
#	first device; the second QP lives on DEVICE2 ($env(VERBS_DEVICE2))
#	when there is one, else on the same device.
#
#	The script is executable: "#!/usr/bin/env tclsh" runs the tclsh on
#	PATH, which finds verbs where it is installed, or in a build tree
#	with TCLLIBPATH=BUILDDIR (as "make shell" sets it).

package require verbs

proc pick {argIndex envName default} {
    if {[llength $::argv] > $argIndex} {
	return [lindex $::argv $argIndex]
    }
    if {[info exists ::env($envName)] && $::env($envName) ne ""} {
	return $::env($envName)
    }
    return $default
}

set dev [pick 0 VERBS_DEVICE [lindex [verbs::devices] 0]]
if {$dev eq ""} {
    puts stderr "demo.tcl: no RDMA device (try: make demo, which boots the Soft-RoCE VM)"
    exit 1
}
set dev2 [pick 1 VERBS_DEVICE2 $dev]

# --- Device summary ------------------------------------------------------

set ctx [verbs::context open $dev]
set d [$ctx query device]
puts "hca_id: $dev"
puts [format "\t%-16s %s" transport: [$ctx cget -transport_type]]
foreach key {fw_ver node_guid sys_image_guid vendor_id vendor_part_id hw_ver
	     phys_port_cnt max_qp max_cq max_mr max_pd atomic_cap} {
    puts [format "\t%-16s %s" $key: [dict get $d $key]]
}
for {set port 1} {$port <= [dict get $d phys_port_cnt]} {incr port} {
    set p [$ctx query port $port]
    puts "\t\tport:\t$port"
    foreach key {state max_mtu active_mtu lid link_layer} {
	puts [format "\t\t\t%-12s %s" $key: [dict get $p $key]]
    }
    set gidx [verbs::gid_index $ctx $port]
    puts [format "\t\t\t%-12s %s" "GID\[$gidx\]:" [$ctx query gid $port $gidx]]
}

# --- Two connected RC queue pairs ---------------------------------------

proc side {ctx} {
    set pd [verbs::pd create $ctx]
    set cq [verbs::cq create $ctx -cqe 16]
    set qp [verbs::qp create $pd -send_cq $cq -type rc]
    set mr [verbs::mr create $pd -length 4096 \
	    -access {local_write remote_write remote_read}]
    list $qp $cq $mr
}

set ctx2 [expr {$dev2 eq $dev ? $ctx : [verbs::context open $dev2]}]
lassign [side $ctx] qpA cqA mrA
lassign [side $ctx2] qpB cqB mrB
verbs::connect $qpA $qpB
puts "\nRC QP [$qpA cget -qp_num] on $dev <-> RC QP [$qpB cget -qp_num] on $dev2:\
	[$qpA cget -state]/[$qpB cget -state]"

# SEND/RECV
set msg "Hello from QP [$qpA cget -qp_num] over [$ctx cget -name]"
$mrA write 0 $msg
$qpB post_recv [list wr_id 1 sg_list [list [list $mrB 0 1024]]]
$qpA post_send [list wr_id 2 opcode send send_flags signaled \
	sg_list [list [list $mrA 0 [string length $msg]]]]
set send [lindex [$cqA wait 1] 0]
set recv [lindex [$cqB wait 1] 0]
puts "SEND: [dict get $send status], RECV: [dict get $recv status],\
	[dict get $recv byte_len] bytes: \"[$mrB read 0 [dict get $recv byte_len]]\""

# RDMA WRITE straight into the peer's memory, no receive posted.
set data "RDMA WRITE at [clock format [clock seconds] -format %T]"
$mrA write 100 $data
$qpA post_send [list wr_id 3 opcode rdma_write send_flags signaled \
	sg_list [list [list $mrA 100 [string length $data]]] \
	remote_addr [expr {[$mrB cget -addr] + 2048}] rkey [$mrB cget -rkey]]
set wc [lindex [$cqA wait 1] 0]
puts "RDMA WRITE: [dict get $wc status], remote bytes at +2048:\
	\"[$mrB read 2048 [string length $data]]\""

set ok [expr {[$mrB read 2048 [string length $data]] eq $data
	&& [$mrB read 0 [string length $msg]] eq $msg}]
$ctx close
if {$ctx2 ne $ctx} {
    $ctx2 close
}
puts "objects left: [llength [verbs::objects]]"
exit [expr {!$ok}]
