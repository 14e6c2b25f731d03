# common.tcl --
#
#	Sourced by every test file: loads tcltest and verbs, and sets the
#	constraints that describe the environment.
#
#	device     an RDMA device to test against: $env(VERBS_DEVICE), or
#	           the first device of [verbs::devices]
#	twodevices a second device, $env(VERBS_DEVICE2), on the same
#	           network as the first (the VM's rxe1)
#	rxe        the device is Soft-RoCE
#	nodevice   no RDMA device at all (no-device behaviour)
#	vm         running in the Soft-RoCE VM of tests/vm
#	(and capability constraints, below)
#
#	Test files add constraints for what the device can do (XRC, tag
#	matching, RSS) with vt::capable.
#
#	knownBug   (tcltest's own, off unless asked for) a test of a bug
#	           of the stack that is not fixed yet, named FILE-bug-N.M:
#	           make test and make test-next run them in a pass of their
#	           own, where their failure is expected and listed
#	kernelCrash  (off unless asked for) a known bug that crashes the
#	           kernel, named FILE-crash-N.M: make test-next runs each in
#	           a boot of its own (tests/run-tests.sh)
#
#	In the VM, each test's start is marked in the kernel log
#	("verbs-test: NAME (FILE)"), so that tests/vm/guest.sh can name
#	the test that was running when the kernel crashed.
#
#	tests/expect.tcl, which the examples' tests source, adds:
#	expect     Expect (tcl-expect) loads
#	tcl9       running under Tcl 9 (make test-tcl9)

package require tcltest 2.5
unset -nocomplain ::env(LD_PRELOAD)	;# see all.tcl
if {[info exists ::env(VERBS_TCLSH)]} {
    ::tcltest::interpreter $::env(VERBS_TCLSH)
}
namespace import -force ::tcltest::*
eval configure $argv
package require verbs

namespace eval ::vt {
    variable dev {}
    variable dev2 {}
    variable port 1
    if {[info exists ::env(VERBS_DEVICE)] && $::env(VERBS_DEVICE) ne ""} {
	set dev $::env(VERBS_DEVICE)
    } elseif {[llength [verbs::devices]]} {
	set dev [lindex [verbs::devices] 0]
    }
    if {[info exists ::env(VERBS_DEVICE2)]} {
	set dev2 $::env(VERBS_DEVICE2)
    }
    if {[info exists ::env(VERBS_PORT)]} {
	set port $::env(VERBS_PORT)
    }
}
testConstraint device [expr {$::vt::dev ne ""}]
testConstraint nodevice [expr {[llength [verbs::devices]] == 0}]
testConstraint twodevices [expr {$::vt::dev2 ne ""}]
testConstraint rxe [string match rxe* $::vt::dev]
testConstraint vm [info exists ::env(VERBS_VM)]
testConstraint tcl9 [package vsatisfies [package provide Tcl] 9-]

# The marks in the VM's kernel log (guest.sh reads them after a crash).
# One write of one line makes one record; tcltest runs each file in a
# process of its own, so the channel stays open for the file's tests.
if {[testConstraint vm] && ![catch {open /dev/kmsg {WRONLY}} ::vt::kmsg]} {
    fconfigure $::vt::kmsg -buffering full
    trace add execution ::tcltest::test enter [list apply {{file cmd op} {
	catch {
	    puts -nonewline $::vt::kmsg \
		"<6>verbs-test: [lindex $cmd 1] ($file)\n"
	    flush $::vt::kmsg
	}
    }} [file tail $::argv0]]
}

# Capabilities of the device, from ibv_query_device_ex, for the tests of
# features that Debian 12's rxe lacks: they run where the device has them
# (make test DEVICE=mlx5_0) and are skipped, by these names, elsewhere.
#	mlx5       a ConnectX device (mlx5_*)
#	odp        on-demand paging
#	cqmod      completion moderation (ibv_modify_cq)
#	pacing     packet pacing (ibv_modify_qp_rate_limit)
#	rtclock    the device's raw clock (ibv_query_rt_values_ex)
#	dm         device memory (ibv_alloc_dm)
#	implicitOdp  implicit on-demand paging (support_implicit)
#	odpRc      ODP for RC send, recv, write and read (rc_odp_caps)
#	odpUd      ODP for UD send and recv (ud_odp_caps)
#	odpAtomicWrite, odpFlush  ODP for RC atomic write, flush
#	atomicWrite  the device does atomic write (device_cap_flags_ex)
#	flushGlobal  the device does flush to global visibility
#	flushPersistent  the device does flush to persistence
testConstraint mlx5 [string match mlx5_* $::vt::dev]
foreach c {odp cqmod pacing rtclock dm implicitOdp odpRc odpUd odpAtomicWrite
	odpFlush atomicWrite flushGlobal flushPersistent} {
    testConstraint $c 0
}
if {$::vt::dev ne ""} {
    apply {{} {
	set ctx [verbs::context open $::vt::dev]
	set x [$ctx query device_ex]
	$ctx close
	testConstraint odp [expr {"support" in [dict get $x odp_caps general_caps]}]
	testConstraint cqmod [expr {[dict get $x cq_mod_caps max_cq_count] > 0}]
	testConstraint pacing \
	    [expr {[dict get $x packet_pacing_caps qp_rate_limit_max] > 0}]
	testConstraint rtclock [expr {[dict get $x hca_core_clock] > 0}]
	testConstraint dm [expr {[dict get $x max_dm_size] > 0}]
	set odp [dict get $x odp_caps]
	set rc [dict get $odp per_transport_caps rc_odp_caps]
	set ud [dict get $odp per_transport_caps ud_odp_caps]
	testConstraint implicitOdp \
	    [expr {"support_implicit" in [dict get $odp general_caps]}]
	testConstraint odpRc [expr {[testConstraint odp] && "send" in $rc
	    && "recv" in $rc && "write" in $rc && "read" in $rc}]
	testConstraint odpUd [expr {[testConstraint odp] && "send" in $ud
	    && "recv" in $ud}]
	testConstraint odpAtomicWrite \
	    [expr {[testConstraint odp] && "atomic_write" in $rc}]
	testConstraint odpFlush [expr {[testConstraint odp] && "flush" in $rc}]
	set caps [dict get $x device_cap_flags_ex]
	foreach {c flag} {atomicWrite atomic_write flushGlobal flush_global
	    flushPersistent flush_persistent} {
	    testConstraint $c [expr {$flag in $caps}]
	}
    }}
}

# vt::gidIndex DEV --
#	The GID index to use on a device: from the environment the VM
#	harness sets, else the package's own choice.

proc ::vt::gidIndex {ctx} {
    set name [$ctx cget -name]
    if {$name eq $::vt::dev && [info exists ::env(VERBS_GID_INDEX)]} {
	return $::env(VERBS_GID_INDEX)
    }
    if {$name eq $::vt::dev2 && [info exists ::env(VERBS_GID_INDEX2)]} {
	return $::env(VERBS_GID_INDEX2)
    }
    return [verbs::gid_index $ctx $::vt::port]
}

# vt::errorOf SCRIPT --
#	Runs SCRIPT, which must fail; returns {message errorCode}.

proc ::vt::errorOf {script} {
    if {![catch {uplevel 1 $script} msg opts]} {
	return -code error "expected an error, got \"$msg\""
    }
    list $msg [dict get $opts -errorcode]
}

# vt::closeAll --
#	Closes every live object (contexts first take their trees along).

proc ::vt::closeAll {} {
    foreach o [verbs::objects context] {
	$o close
    }
    foreach o [verbs::objects] {
	catch {$o close}
    }
}

# vt::capable SCRIPT --
#	Whether the device can do what SCRIPT does: SCRIPT runs in this
#	proc with ctx (a context of the device) and pd (a pd on it), and
#	the answer is 1 when it succeeds.  Everything is closed again.  For
#	the constraints of tests that need a capability rxe lacks.

# vt::tainted --
#	The kernel's taint flags (0 where they cannot be read); 128 (D) is
#	set once the kernel has oopsed.

proc ::vt::tainted {} {
    if {[catch {open /proc/sys/kernel/tainted} f]} {
	return 0
    }
    set t [string trim [read $f]]
    close $f
    return $t
}

# vt::knownOn LIST BUG --
#	The constraints of a test of a bug of the stack seen on rxe of the
#	kernels LIST (x.y versions): BUG (knownBug, or knownBug kernelCrash)
#	added to "device" where the device is rxe of one of them, so that a
#	newer kernel, or another device, runs the test like any other.

proc ::vt::knownOn {kernels bug} {
    set kver [join [lrange [split $::tcl_platform(osVersion) .-+] 0 1] .]
    if {[testConstraint rxe] && $kver in $kernels} {
	return [list device {*}$bug]
    }
    return device
}

# vt::pyverbsCalls SET --
#	tools/pyverbscalls: of the functions the newest pyverbs declares
#	(SET mlx5: libmlx5; verbs: libibverbs and librdmacm), those the
#	loaded library references, counted against rdma-core 65's sources
#	(the tarball the next lane caches) and the lane's own headers: the
#	lines "referenced N of M" and the missing names.  The constraint
#	pxd says whether it can run.

namespace eval ::vt {
    variable root [file dirname [file dirname [file normalize [info script]]]]
    variable pxdTarball [lindex [glob -nocomplain [file join $root build \
	rdma-core-65 src rdma-core_65.0.orig.tar.gz]] 0]
}
testConstraint pxd [expr {$::vt::pxdTarball ne "" && [auto_execok nm] ne ""
    && [auto_execok tar] ne ""}]

proc ::vt::pyverbsCalls {set} {
    variable root
    variable pxdTarball
    set lib [lindex [lsearch -inline -index 1 [info loaded] Verbs] 0]
    set include /usr/include
    if {[info exists ::env(VERBS_NEXT_RDMA_CORE)]} {
	set include [file join [file dirname [file dirname $pxdTarball]] \
	    install include]
    }
    split [exec [info nameofexecutable] [file join $root tools \
	pyverbscalls pyverbscalls.tcl] $set $lib $pxdTarball $include] \n
}

# vt::players TYPE CQCMD --
#	The two sides of rdma-core's traffic tests (tests/base.py's
#	create_players with RCResources or UDResources): a client and a
#	server, each with a context of its own on the test device, a PD, a
#	CQ, an MR of 1024 bytes (40 more on UD, for the GRH) and a QP of TYPE
#	(rc or ud; max_send_wr 1, max_recv_wr 1000, both queues on the CQ):
#	RC ones connected to each other, UD ones in RTS.  CQCMD, a command
#	prefix, makes the CQ: given the context, it returns a dict with cq
#	(and whatever else it made).  Returns {CLIENT SERVER}, dicts of ctx pd
#	cq mr qp grh (the GRH's size, 0 or 40) and CQCMD's keys.

proc ::vt::players {type cqcmd} {
    set sides {}
    foreach name {client server} {
	set ctx [verbs::context open $::vt::dev]
	set s [dict merge [dict create ctx $ctx] [{*}$cqcmd $ctx]]
	set pd [verbs::pd create $ctx]
	set grh [expr {$type eq "ud" ? 40 : 0}]
	dict set s pd $pd
	dict set s grh $grh
	dict set s mr [verbs::mr create $pd -length [expr {1024 + $grh}]]
	dict set s qp [verbs::qp create $pd -send_cq [dict get $s cq] \
	    -type $type -cap {max_send_wr 1 max_recv_wr 1000}]
	lappend sides $s
    }
    lassign $sides c s
    if {$type eq "rc"} {
	set gidx [vt::gidIndex [dict get $c ctx]]
	verbs::connect [dict get $c qp] [dict get $s qp] \
	    -gid_index1 $gidx -gid_index2 $gidx
    } else {
	foreach side $sides {
	    [dict get $side qp] to_init
	    [dict get $side qp] to_rtr
	    [dict get $side qp] to_rts
	}
    }
    return $sides
}

# vt::traffic CLIENT SERVER ITERS ?POLL? --
#	rdma-core's tests/utils.py traffic() between two vt::players sides:
#	ITERS rounds of a signaled 1024-byte SEND from the client to the
#	server and one back, each side's one receive re-posted after each
#	message; 'c' from the client, 's' from the server (on UD from behind
#	the GRH, through an AH to the port's own GID).  Each completion is
#	checked (status, opcode, and a receive's byte_len) and each message
#	byte for byte.  POLL, a command prefix given a side's dict, returns
#	its next completion (default: the CQ's wait 1).  Returns what was
#	wrong: an empty list when all went well.

proc ::vt::traffic {client server iters {poll ::vt::pollOne}} {
    foreach v {client server} {
	set ctx [dict get [set $v] ctx]
	set grh [dict get [set $v] grh]
	if {$grh} {
	    set gidx [vt::gidIndex $ctx]
	    dict set $v ah [verbs::ah create [dict get [set $v] pd] [list \
		port_num $::vt::port is_global 1 \
		dlid [dict get [$ctx query port $::vt::port] lid] \
		grh [list dgid [$ctx query gid $::vt::port $gidx] \
		sgid_index $gidx hop_limit 1]]]
	}
	set recv($v) [list sg_list [list [list [dict get [set $v] mr] 0 \
	    [expr {1024 + $grh}]]]]
	[dict get [set $v] qp] post_recv $recv($v)
    }
    set bad {}
    for {set i 0} {$i < $iters} {incr i} {
	foreach {from to c} {client server c server client s} {
	    set f [set $from]
	    set t [set $to]
	    set grh [dict get $f grh]
	    [dict get $f mr] write 0 [string repeat $c [expr {1024 + $grh}]]
	    set wr [list opcode send send_flags signaled \
		sg_list [list [list [dict get $f mr] $grh 1024]]]
	    if {$grh} {
		lappend wr ah [dict get $f ah] \
		    remote_qpn [[dict get $t qp] cget -qp_num] \
		    remote_qkey 0x11111111
	    }
	    [dict get $f qp] post_send $wr
	    set s [{*}$poll $f]
	    set r [{*}$poll $t]
	    [dict get $t qp] post_recv $recv($to)
	    if {[dict get $s status] ne "success"
		    || [dict get $s opcode] ne "send"} {
		lappend bad "$i $from send: $s"
	    }
	    if {[dict get $r status] ne "success"
		    || [dict get $r opcode] ne "recv"
		    || [dict get $r byte_len] != 1024 + $grh} {
		lappend bad "$i $to recv: $r"
	    }
	    if {[[dict get $t mr] read $grh 1024] ne [string repeat $c 1024]} {
		lappend bad "$i $to data"
	    }
	}
    }
    return $bad
}

proc ::vt::pollOne {side} {
    lindex [[dict get $side cq] wait 1] 0
}

# vt::upstreamMap --
#	tests/upstream.map read and checked: a dict of its cases (each
#	upstream test case, test_FILE.py::test_NAME) and their twins (a Tcl
#	test's name, or "- reason"), and a list of what is wrong with it: a
#	malformed line, a case twice, a twin that names no test of
#	tests/*.test.

proc ::vt::upstreamMap {} {
    variable root
    set dir [file join $root tests]
    set tests {}
    foreach f [glob -directory $dir *.test] {
	foreach {- name} [regexp -all -inline -line {^\s*test\s+(\S+)\s} \
		[viewFile $f]] {
	    dict set tests $name 1
	}
    }
    set cases {}
    set bad {}
    foreach line [split [viewFile [file join $dir upstream.map]] \n] {
	if {[string match #* $line] || [string trim $line] eq ""} continue
	if {![regexp {^(test_\w+\.py::test_\w+)\s+(-\s+\S.*|[\w.-]+)$} $line \
		- case twin]} {
	    lappend bad "malformed: $line"
	    continue
	}
	if {[dict exists $cases $case]} {
	    lappend bad "twice: $case"
	}
	dict set cases $case $twin
	if {![string match -* $twin] && ![dict exists $tests $twin]} {
	    lappend bad "no test $twin for $case"
	}
    }
    list $cases $bad
}

proc ::vt::capable {script} {
    if {$::vt::dev eq ""} {
	return 0
    }
    set ctx [verbs::context open $::vt::dev]
    set pd [verbs::pd create $ctx]
    set ok [expr {![catch $script]}]
    $ctx close
    return $ok
}

# dmah: the device gives DMA handles (rdma-core 59; rxe has none).
testConstraint dmah [vt::capable {verbs::dmah create $ctx}]

# mrEx: libibverbs has ibv_reg_mr_ex (rdma-core 59 and later) and the
# device registers through it.
testConstraint mrEx [vt::capable {verbs::mr create $pd -length 4096 -ex 1}]

# advise: the provider has ibv_advise_mr for ODP MRs (rdma-core's rxe
# provider in newer versions; Debian 12's rdma-core 44 has none).
testConstraint advise [expr {[testConstraint odp] && [vt::capable {
    set m [verbs::mr create $pd -length 4096 -access {local_write on_demand}]
    $pd advise_mr prefetch [list [list $m 0 4096]]
}]}]
