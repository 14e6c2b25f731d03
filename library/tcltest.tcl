# tcltest.tcl --
#
#	The verbs::tcltest package: what a tcltest suite of one's own NICs
#	and stacks needs around the verbs package.  The device under test
#	and the capability constraints it earns, set by one call; fixtures
#	for a connected RC pair, a UD pair and an rdma_cm pair; traffic as
#	rdma-core's own tests run it; a leak check after each test; known
#	bugs marked by kernel version.  doc/verbs_tcltest.n is its manual.
#	The verbs project's own suite uses it (tests/common.tcl).
#
# Copyright (c) 2026 The verbs authors.
# See the file "LICENSE" for terms of use and redistribution.

package require tcltest 2.5
package require verbs

namespace eval ::verbs::tcltest {
    namespace export init capable constraint knownOn errorOf gidIndex \
	address closeAll leaks checkLeaks test pair cmPair traffic pollOne \
	far remote

    # The device under test, the second one (or ""), the port, and their
    # IPv4 addresses for rdma_cm (or ""): set by init.
    variable device {}
    variable device2 {}
    variable port 1
    variable addr {}
    variable addr2 {}
    # What the leak check looks at: none, objects, or resources (objects
    # and the kernel's resources of this process, as rdma(8) shows them).
    variable leakcheck none
    variable resourceBase {}
    # The far sides of two-host fixtures: host -> verbs::lab handle of
    # its process; host -> string map from this side's proxy commands to
    # the far side's objects.
    variable far
    array set far {}
    variable proxies
    array set proxies {}

    # The capability constraints init sets from the device's
    # ibv_query_device_ex: name and expression over $x (the dict).
    variable caps {
	odp {"support" in [dict get $x odp_caps general_caps]}
	cqmod {[dict get $x cq_mod_caps max_cq_count] > 0}
	pacing {[dict get $x packet_pacing_caps qp_rate_limit_max] > 0}
	rtclock {[dict get $x hca_core_clock] > 0}
	dm {[dict get $x max_dm_size] > 0}
	implicitOdp {"support_implicit" in [dict get $x odp_caps general_caps]}
	odpRc {"support" in [dict get $x odp_caps general_caps]
	    && [Has $x rc_odp_caps send recv write read]}
	odpUd {"support" in [dict get $x odp_caps general_caps]
	    && [Has $x ud_odp_caps send recv]}
	odpAtomicWrite {"support" in [dict get $x odp_caps general_caps]
	    && [Has $x rc_odp_caps atomic_write]}
	odpFlush {"support" in [dict get $x odp_caps general_caps]
	    && [Has $x rc_odp_caps flush]}
	atomicWrite {"atomic_write" in [dict get $x device_cap_flags_ex]}
	flushGlobal {"flush_global" in [dict get $x device_cap_flags_ex]}
	flushPersistent {"flush_persistent" in [dict get $x device_cap_flags_ex]}
    }
}

# verbs::tcltest::init ?-device NAME? ?-device2 NAME? ?-port N?
#		?-address IP? ?-address2 IP? ?-leakcheck none|objects|resources?
#
#	Choose the devices under test and set the suite's constraints.
#	The device is -device, else $env(VERBS_DEVICE), else the first of
#	[verbs::devices]; the second device -device2 or $env(VERBS_DEVICE2)
#	(none by default); the port -port or $env(VERBS_PORT), else 1.  The
#	rdma_cm addresses are -address/-address2, else $env(VERBS_IP0) and
#	$env(VERBS_IP1), else the first IPv4 address of each device's
#	network interface.
#
#	Constraints: device, twodevices, nodevice (no RDMA device at all),
#	rxe, mlx5, efa, rdmacm (two devices with addresses), and the
#	capabilities of the device (see caps above), false without one.
#
# Results:
#	A dict of device device2 port address address2.

proc ::verbs::tcltest::init {args} {
    variable device
    variable device2
    variable port
    variable addr
    variable addr2
    variable caps
    variable leakcheck
    variable resourceBase

    set env [dict create -device VERBS_DEVICE -device2 VERBS_DEVICE2 \
	-port VERBS_PORT -address VERBS_IP0 -address2 VERBS_IP1]
    set o [dict create -device "" -device2 "" -port 1 -address "" \
	-address2 "" -leakcheck none]
    dict for {opt var} $env {
	if {[info exists ::env($var)] && $::env($var) ne ""} {
	    dict set o $opt $::env($var)
	}
    }
    set o [verbs::Options $o $args]
    if {[dict get $o -leakcheck] ni {none objects resources}} {
	return -code error -errorcode [list VERBS ARG -leakcheck \
	    [dict get $o -leakcheck]] "bad -leakcheck\
	    \"[dict get $o -leakcheck]\": must be none, objects or resources"
    }
    set device [dict get $o -device]
    if {$device eq "" && [llength [verbs::devices]]} {
	set device [lindex [verbs::devices] 0]
    }
    set device2 [dict get $o -device2]
    set port [dict get $o -port]
    set leakcheck [dict get $o -leakcheck]
    set addr [dict get $o -address]
    set addr2 [dict get $o -address2]
    if {$addr eq "" && $device ne ""} {
	set addr [address $device]
    }
    if {$addr2 eq "" && $device2 ne ""} {
	set addr2 [address $device2]
    }

    ::tcltest::testConstraint device [expr {$device ne ""}]
    ::tcltest::testConstraint nodevice [expr {[llength [verbs::devices]] == 0}]
    ::tcltest::testConstraint twodevices [expr {$device2 ne ""}]
    ::tcltest::testConstraint rxe [string match rxe* $device]
    ::tcltest::testConstraint mlx5 [string match mlx5_* $device]
    ::tcltest::testConstraint efa [string match efa_* $device]
    ::tcltest::testConstraint rdmacm [expr {$device2 ne "" && $addr ne ""
	&& $addr2 ne ""}]
    set x {}
    if {$device ne ""} {
	set ctx [verbs::context open $device]
	set x [$ctx query device_ex]
	$ctx close
    }
    foreach {c expr} $caps {
	::tcltest::testConstraint $c [expr {$x ne "" && [expr $expr]}]
    }
    set resourceBase [Resources]
    dict create device $device device2 $device2 port $port \
	address $addr address2 $addr2
}

# Whether the per-transport ODP caps KEY of device_ex dict X have all of
# the operations given.
proc ::verbs::tcltest::Has {x key args} {
    set have [dict get $x odp_caps per_transport_caps $key]
    foreach op $args {
	if {$op ni $have} {
	    return 0
	}
    }
    return 1
}

# verbs::tcltest::address DEVICE --
#	The first IPv4 address of the network interface under DEVICE's port
#	(its RoCE GIDs' netdev, from sysfs), or "" (InfiniBand, no address).

proc ::verbs::tcltest::address {dev} {
    variable port
    set dir /sys/class/infiniband/$dev/ports/$port/gid_attrs/ndevs
    foreach f [lsort -dictionary [glob -nocomplain -directory $dir *]] {
	if {[catch {open $f} chan]} {
	    continue
	}
	set netdev [string trim [read $chan]]
	close $chan
	if {$netdev eq "" || [catch {
	    exec ip -4 -o addr show dev $netdev
	} out]} {
	    continue
	}
	if {[regexp {inet (\d+\.\d+\.\d+\.\d+)} $out - a]} {
	    return $a
	}
    }
    return ""
}

# verbs::tcltest::capable SCRIPT --
#	Whether the device can do what SCRIPT does: SCRIPT runs with ctx (a
#	context of the device) and pd (a pd on it) and the answer is 1 when
#	it succeeds.  Everything is closed again.

proc ::verbs::tcltest::capable {script} {
    variable device
    if {$device eq ""} {
	return 0
    }
    set ctx [verbs::context open $device]
    set pd [verbs::pd create $ctx]
    set ok [expr {![catch $script]}]
    $ctx close
    return $ok
}

# verbs::tcltest::constraint NAME SCRIPT --
#	Sets the constraint NAME to [capable SCRIPT].

proc ::verbs::tcltest::constraint {name script} {
    ::tcltest::testConstraint $name [capable $script]
}

# verbs::tcltest::knownOn KERNELS BUG --
#	The constraints of a test of a bug seen on rxe of the kernels
#	KERNELS (x.y versions): BUG (knownBug, or knownBug kernelCrash) added
#	to "device" where the device is rxe on one of them, so that a newer
#	kernel, or another device, runs the test like any other.

proc ::verbs::tcltest::knownOn {kernels bug} {
    set kver [join [lrange [split $::tcl_platform(osVersion) .-+] 0 1] .]
    if {[::tcltest::testConstraint rxe] && $kver in $kernels} {
	return [list device {*}$bug]
    }
    return device
}

# verbs::tcltest::errorOf SCRIPT --
#	Runs SCRIPT, which must fail; returns {message errorCode}.

proc ::verbs::tcltest::errorOf {script} {
    if {![catch {uplevel 1 $script} msg opts]} {
	return -code error "expected an error, got \"$msg\""
    }
    list $msg [dict get $opts -errorcode]
}

# verbs::tcltest::gidIndex CTX --
#	The GID index to use on a context's device: $env(VERBS_GID_INDEX)
#	(VERBS_GID_INDEX2 for the second device) where set, else the
#	package's own choice (verbs::gid_index).

proc ::verbs::tcltest::gidIndex {ctx} {
    variable device
    variable device2
    variable port
    set name [$ctx cget -name]
    if {$name eq $device && [info exists ::env(VERBS_GID_INDEX)]} {
	return $::env(VERBS_GID_INDEX)
    }
    if {$name eq $device2 && [info exists ::env(VERBS_GID_INDEX2)]} {
	return $::env(VERBS_GID_INDEX2)
    }
    return [verbs::gid_index $ctx $port]
}

# verbs::tcltest::closeAll --
#	Closes every live object (contexts first take their trees along).

proc ::verbs::tcltest::closeAll {} {
    variable far
    foreach o [verbs::objects context] {
	$o close
    }
    foreach o [verbs::objects] {
	catch {$o close}
    }
    # The far sides' objects too (their processes stay, for the next
    # test), and this side's proxies of them.
    foreach host [array names far] {
	catch {remote $host [namespace current]::closeAll}
	ForgetProxies $host
    }
}

# verbs::tcltest::leaks --
#	What a test left behind: the verbs objects still alive, and with
#	-leakcheck resources the kernel's RDMA resources of this process
#	(rdma resource show: QPs, CQs, PDs, MRs, cm ids, contexts) beyond
#	those init found.  A list of words naming them; empty when clean.

proc ::verbs::tcltest::leaks {} {
    variable leakcheck
    variable resourceBase
    variable far
    set left [verbs::objects]
    foreach host [lsort [array names far]] {
	if {[catch {remote $host {verbs::objects}} objs]} {
	    lappend left "$host: $objs"
	    continue
	}
	foreach o $objs {
	    lappend left $host:$o
	}
    }
    if {$leakcheck eq "resources"} {
	set now [Resources]
	foreach {kind n} $now {
	    set before [expr {[dict exists $resourceBase $kind]
		? [dict get $resourceBase $kind] : 0}]
	    if {$n > $before} {
		lappend left "[expr {$n - $before}] $kind"
	    }
	}
    }
    return $left
}

# The kernel's RDMA resources of this process by kind, from rdma(8): a
# dict of kind (qp cq pd mr cm_id ctx) and count; empty without the tool.

proc ::verbs::tcltest::Resources {} {
    variable leakcheck
    if {$leakcheck ne "resources" || [auto_execok rdma] eq ""} {
	return {}
    }
    set pid [pid]
    set counts {}
    foreach kind {qp cq pd mr cm_id ctx} {
	# Without the process's preloads (a sanitizer's runtime would
	# make rdma fail).
	if {[catch {exec env -u LD_PRELOAD rdma -j resource show $kind} out]} {
	    continue
	}
	set n [regexp -all "\"pid\":$pid\[,\}\]" $out]
	if {$n} {
	    dict set counts $kind $n
	}
    }
    return $counts
}

# verbs::tcltest::checkLeaks --
#	The leak check: an error naming what is left, after closing it, so
#	that the next test starts clean.  The kit's test command runs it
#	after each test's cleanup when the leak check is on.

proc ::verbs::tcltest::checkLeaks {} {
    set left [leaks]
    if {[llength $left]} {
	closeAll
	return -code error -errorcode [list VERBS LEAK $left] \
	    "left behind: [join $left {, }]"
    }
}

# verbs::tcltest::test NAME DESCRIPTION ?option value ...?
# verbs::tcltest::test NAME DESCRIPTION ?CONSTRAINTS? BODY RESULT
#
#	tcltest's test, and with the leak check on (init -leakcheck), the
#	check after the test's own cleanup: a test that leaves objects (or
#	kernel resources) behind fails with "Test cleanup failed".  Import
#	it over tcltest's (namespace import -force verbs::tcltest::test).

proc ::verbs::tcltest::test {name description args} {
    variable leakcheck
    if {$leakcheck ne "none"} {
	if {[llength $args] && [string match -* [lindex $args 0]]} {
	    set opts $args
	} elseif {[llength $args] == 2} {
	    set opts [list -body [lindex $args 0] -result [lindex $args 1]]
	} elseif {[llength $args] == 3} {
	    set opts [list -constraints [lindex $args 0] \
		-body [lindex $args 1] -result [lindex $args 2]]
	} else {
	    set opts $args
	}
	set cleanup [expr {[dict exists $opts -cleanup]
	    ? [dict get $opts -cleanup] : ""}]
	dict set opts -cleanup "$cleanup\n[namespace current]::checkLeaks"
	set args $opts
    }
    uplevel 1 [list ::tcltest::test $name $description {*}$args]
}

# verbs::tcltest::pair TYPE ?-cq CMD? ?-cap DICT? ?-length N?
#		?-access FLAGS? ?-device2 bool? ?-host HOST? ?-host_device DEV?
#
#	The two sides of rdma-core's traffic tests (tests/base.py's
#	create_players): a client and a server, each with a context of its
#	own (on the device, or with -device2 1 the server on the second
#	device), a PD, a CQ, an MR of -length bytes (1024; 40 more on UD
#	for the GRH) with -access (local_write) and a QP of TYPE (rc or
#	ud) with -cap (max_send_wr 1, max_recv_wr 1000), both queues on
#	the CQ: RC ones connected to each
#	other, UD ones in RTS.  -cq, a command prefix given the context,
#	returns a dict with cq (and whatever else it made); by default a CQ
#	of 1024 entries.  Returns {CLIENT SERVER}, dicts of ctx pd cq mr qp
#	grh (the GRH's size, 0 or 40) and -cq's keys.
#
#	With -host, the server is on another host of a lab (verbs::lab's
#	host HOST, on its device -host_device, by default its first): made
#	there by the far side's process (see far), and its dict's objects
#	are this side's proxy commands of them (see remote), so that a test
#	and traffic use the pair as they use one of two devices; the dict
#	also has host.  -cq then names a command of both sides (define it
#	on the far side with remote); -device2 does not go with -host.

proc ::verbs::tcltest::pair {type args} {
    variable device
    variable device2
    set o [verbs::Options [dict create -cq [namespace current]::DefaultCq \
	-cap {max_send_wr 1 max_recv_wr 1000} -length 1024 \
	-access local_write -device2 0 -host {} -host_device {}] $args]
    if {$type ni {rc ud}} {
	return -code error -errorcode [list VERBS ARG type $type] \
	    "bad type \"$type\": must be rc or ud"
    }
    set host [dict get $o -host]
    if {$host ne "" && [dict get $o -device2]} {
	return -code error -errorcode [list VERBS ARG -device2 1] \
	    "-device2 and -host exclude each other: with -host the server\
	    is on that host"
    }
    if {$host eq ""} {
	set c [Side $type $device $o]
	set s [Side $type [expr {[dict get $o -device2] ? $device2
	    : $device}] $o]
    } else {
	# The far side first: a host that cannot be reached leaves
	# nothing made here.
	set dev [dict get $o -host_device]
	if {$dev eq ""} {
	    set dev [remote $host {lindex [verbs::devices] 0}]
	}
	set s [Proxies $host [remote $host [list \
	    [namespace current]::Side $type $dev $o]]]
	dict set s host $host
	set c [Side $type $device $o]
    }
    set sides [list $c $s]
    if {$type eq "rc"} {
	set ends [lmap side $sides {
	    Eval $side [list verbs::endpoint [Far $side qp] \
		-gid_index [Eval $side [list [namespace current]::gidIndex \
		[Far $side ctx]]]]
	}]
	Eval $c [list verbs::connect_qp [Far $c qp] {*}$ends]
	Eval $s [list verbs::connect_qp [Far $s qp] {*}[lreverse $ends]]
    } else {
	foreach side $sides {
	    [dict get $side qp] to_init
	    [dict get $side qp] to_rtr
	    [dict get $side qp] to_rts
	}
    }
    return $sides
}

# verbs::tcltest::Side TYPE DEVICE OPTIONS --
#	One side of a pair on DEVICE (pair's options): its dict.

proc ::verbs::tcltest::Side {type dev o} {
    set ctx [verbs::context open $dev]
    set s [dict merge [dict create ctx $ctx] [{*}[dict get $o -cq] $ctx]]
    set pd [verbs::pd create $ctx]
    set grh [expr {$type eq "ud" ? 40 : 0}]
    dict set s pd $pd
    dict set s grh $grh
    dict set s mr [verbs::mr create $pd -access [dict get $o -access] \
	-length [expr {[dict get $o -length] + $grh}]]
    dict set s qp [verbs::qp create $pd -send_cq [dict get $s cq] \
	-type $type -cap [dict get $o -cap]]
    return $s
}

# ---- Two hosts -------------------------------------------------------
#
# The far side of a two-host fixture is a tclsh on a lab host, started
# through verbs::lab (whose hosts, ssh configuration and timeouts it
# uses) with the far script below: it loads verbs and this package and
# evaluates the scripts it is sent, one at a time, each sent as base64
# lines of at most 512 characters (a terminal's input line is short)
# and "eval N", and answered by "reply N ok|error RESULT ERRORCODE"
# (base64): the number keeps a late answer of a call that timed out
# from being taken for the next one's.  A far side that failed (a
# timeout, an ssh that dropped) is stopped and forgotten, and the next
# call starts another.  This side reaches the far side's objects
# through proxy commands: a proxy's arguments have any proxy's name
# replaced by the far object's, and it evaluates the call there.

namespace eval ::verbs::tcltest {
    variable farScript {
	package require verbs
	package require verbs::tcltest
	fconfigure stdout -buffering line
	# The terminal need not echo what this side sends.
	catch {exec stty -echo <@stdin}
	set part {}
	puts "far ready"
	while {[gets stdin line] >= 0} {
	    set line [string trim $line]
	    if {[regexp {^part (\S+)$} $line -> b]} {
		append part $b
		continue
	    }
	    if {![regexp {^eval (\d+)$} $line -> n]} {
		continue
	    }
	    set code [catch {
		set script [encoding convertfrom utf-8 \
		    [binary decode base64 $part]]
		uplevel #0 $script
	    } r opts]
	    set part {}
	    set ec [expr {$code == 1 ? [dict get $opts -errorcode] : {}}]
	    puts "reply $n [expr {$code == 1 ? "error" : "ok"}]\
		[binary encode base64 -maxlen 0 [encoding convertto utf-8 $r]]\
		[binary encode base64 -maxlen 0 [encoding convertto utf-8 $ec]]"
	}
    }
    variable farSeq 0
    variable proxyN 0
}

# verbs::tcltest::far HOST --
#	The far side's process on HOST (a verbs::lab handle): started at
#	the first use, kept for the next tests (closeAll closes its
#	objects, not it).

proc ::verbs::tcltest::far {host} {
    variable far
    variable farScript
    if {[info exists far($host)]} {
	return $far($host)
    }
    package require verbs::lab
    # (start's wait stops the process when the line does not come.)
    set far($host) [verbs::lab tcl $host $farScript \
	-start {^far ready$} -step "verbs::tcltest far side"]
}

# verbs::tcltest::remote HOST SCRIPT --
#	Evaluates SCRIPT in the far side's interpreter on HOST (at global
#	level) and returns its result; its error is an error here, with
#	the far side's message and errorCode.

proc ::verbs::tcltest::remote {host script} {
    variable farSeq
    set h [far $host]
    set n [incr farSeq]
    set b64 [binary encode base64 -maxlen 0 [encoding convertto utf-8 $script]]
    if {[catch {
	for {set i 0} {$i < [string length $b64]} {incr i 512} {
	    verbs::lab send $h "part [string range $b64 $i [expr {$i + 511}]]\n"
	}
	verbs::lab send $h "eval $n\n"
	verbs::lab expect $h "^reply $n ((?:ok|error) \\S* \\S*)\$"
    } line opts]} {
	Drop $host
	return -options $opts $line
    }
    regexp {^(ok|error) (\S*) (\S*)$} $line -> code r ec
    set r [encoding convertfrom utf-8 [binary decode base64 $r]]
    if {$code eq "error"} {
	return -code error -errorcode \
	    [encoding convertfrom utf-8 [binary decode base64 $ec]] $r
    }
    return $r
}

# verbs::tcltest::Drop HOST --
#	Stops and forgets HOST's far side (after it failed) and its proxies.

proc ::verbs::tcltest::Drop {host} {
    variable far
    if {[info exists far($host)]} {
	catch {verbs::lab stop $far($host)}
	unset far($host)
    }
    ForgetProxies $host
}

# verbs::tcltest::Proxies HOST SIDE --
#	SIDE, a far side's dict, with each value that names a command there
#	replaced by a proxy of it here.

proc ::verbs::tcltest::Proxies {host side} {
    variable proxies
    set cmds [remote $host [list lmap v [dict values $side] {
	expr {[llength [info commands $v]] == 1 ? $v : [continue]}
    }]]
    variable proxyN
    dict for {k v} $side {
	if {$v ni $cmds} {
	    continue
	}
	# A name of its own (tails may repeat across namespaces), and the
	# map longest first (no proxy's name is taken for a prefix of
	# another's).
	set proxy [namespace current]::proxy::${host}::[namespace tail \
	    $v]#[incr proxyN]
	namespace eval [namespace qualifiers $proxy] {}
	proc $proxy args [list [namespace current]::Relay $host $v]
	lappend proxies($host) $proxy $v
	dict set side $k $proxy
    }
    set proxies($host) [lsort -stride 2 -command [namespace current]::Longer \
	$proxies($host)]
    return $side
}

proc ::verbs::tcltest::Longer {a b} {
    expr {[string length $b] - [string length $a]}
}

# Relay HOST OBJECT: a proxy's body, which calls OBJECT on HOST with the
# proxy's arguments (uplevel: they are the proxy's args).
proc ::verbs::tcltest::Relay {host obj} {
    variable proxies
    upvar 1 args args
    remote $host [list $obj {*}[string map $proxies($host) $args]]
}

proc ::verbs::tcltest::ForgetProxies {host} {
    variable proxies
    catch {namespace delete [namespace current]::proxy::$host}
    set proxies($host) {}
}

# Far SIDE KEY: the name of SIDE's object KEY where it lives; Eval SIDE
# SCRIPT: SCRIPT evaluated where SIDE lives.
proc ::verbs::tcltest::Far {side key} {
    variable proxies
    set v [dict get $side $key]
    if {[dict exists $side host]} {
	set v [string map $proxies([dict get $side host]) $v]
    }
    return $v
}

proc ::verbs::tcltest::Eval {side script} {
    if {[dict exists $side host]} {
	return [remote [dict get $side host] $script]
    }
    uplevel #0 $script
}

proc ::verbs::tcltest::DefaultCq {ctx} {
    dict create cq [verbs::cq create $ctx -cqe 1024]
}

# verbs::tcltest::cmPair ?-port N? ?-private_data BYTES? ?-host HOST?
#		?-host_device DEV?
#
#	An rdma_cm RC connection from the device's address to the second
#	device's (init's addresses; the rdmacm constraint): a listening id
#	on the second, a client id that resolves, both with a PD, a CQ, an
#	MR of 1024 bytes and an RC QP (max_send_wr 16, max_recv_wr 16) made
#	on the id, connected and established.  Returns {CLIENT SERVER},
#	dicts of channel id ctx pd cq mr qp (and the server's listen, its
#	listening id).  With -host the server is on that lab host, at the
#	address of its device -host_device (by default its first), as for
#	pair: its dict's objects are proxies, and it has host.

proc ::verbs::tcltest::cmPair {args} {
    variable addr
    variable addr2
    set o [verbs::Options [dict create -port 7900 -private_data {} \
	-host {} -host_device {}] $args]
    set p [dict get $o -port]
    set host [dict get $o -host]
    if {$host eq ""} {
	set l [CmListen $addr2 $p]
    } else {
	# The far side's device and its address.
	set dev [dict get $o -host_device]
	set l [remote $host [string map [list @NS@ [namespace current] \
	    @DEV@ [list $dev] @PORT@ $p] {
		set dev @DEV@
		if {$dev eq ""} {
		    set dev [lindex [verbs::devices] 0]
		}
		@NS@::CmListen [@NS@::address $dev] @PORT@
	    }]]
    }
    set cch [verbs::cm channel]
    set cid [verbs::cm id $cch]
    $cid resolve_addr [dict get $l addr] $p -src $addr
    verbs::cm_expect $cch addr_resolved
    $cid resolve_route
    verbs::cm_expect $cch route_resolved
    set c [CmSide $cch $cid]
    $cid connect -private_data [dict get $o -private_data]
    # The server's accept, then each side reads its established event
    # (the client's reading it sends the RTU the server waits for).
    set accept [list [namespace current]::CmAccept [dict get $l channel] \
	[dict get $l listen]]
    set s [expr {$host eq "" ? [{*}$accept] : [remote $host $accept]}]
    verbs::cm_expect $cch established
    set established [list verbs::cm_expect [dict get $s channel] established]
    if {$host eq ""} {
	{*}$established
    } else {
	remote $host $established
	set s [Proxies $host $s]
	dict set s host $host
    }
    list $c $s
}

# CmListen ADDRESS PORT: a channel and an id listening on ADDRESS; a
# dict of channel listen addr.
proc ::verbs::tcltest::CmListen {a p} {
    set ch [verbs::cm channel]
    set lid [verbs::cm id $ch]
    $lid bind $a $p
    $lid listen
    dict create channel $ch listen $lid addr $a
}

# CmAccept CHANNEL LISTEN: the connect request's server side, accepted.
proc ::verbs::tcltest::CmAccept {ch lid} {
    set sid [dict get [verbs::cm_expect $ch connect_request] id]
    set s [CmSide $ch $sid]
    dict set s listen $lid
    $sid accept
    return $s
}

proc ::verbs::tcltest::CmSide {channel id} {
    set ctx [$id cget -context]
    set pd [verbs::pd create $ctx]
    set cq [verbs::cq create $ctx -cqe 64]
    set mr [verbs::mr create $pd -length 1024]
    set qp [$id create_qp $pd -send_cq $cq \
	-cap {max_send_wr 16 max_recv_wr 16 max_send_sge 1 max_recv_sge 1}]
    dict create channel $channel id $id ctx $ctx pd $pd cq $cq mr $mr qp $qp
}

# verbs::tcltest::traffic CLIENT SERVER ITERS ?POLL? --
#	rdma-core's tests/utils.py traffic() between two pair sides: ITERS
#	rounds of a signaled 1024-byte SEND from the client to the server
#	and one back, each side's one receive re-posted after each message;
#	'c' from the client, 's' from the server (on UD from behind the GRH,
#	through an AH to the peer's GID).  Each completion is checked
#	(status, opcode, and a receive's byte_len) and each message byte for
#	byte.  POLL, a command prefix given a side's dict, returns its next
#	completion (default: pollOne, the CQ's wait 1).  Returns what was
#	wrong: an empty list when all went well.

proc ::verbs::tcltest::traffic {client server iters {poll {}}} {
    variable port
    if {$poll eq ""} {
	set poll [namespace current]::pollOne
    }
    foreach v {client server} peer {server client} {
	set ctx [dict get [set $v] ctx]
	set grh [dict get [set $v] grh]
	if {$grh} {
	    # The AH where the side lives.
	    set pctx [dict get [set $peer] ctx]
	    set gidx [Eval [set $peer] [list [namespace current]::gidIndex \
		[Far [set $peer] ctx]]]
	    dict set $v ah [Eval [set $v] [list verbs::ah create \
		[Far [set $v] pd] [list port_num $port is_global 1 \
		dlid [dict get [$pctx query port $port] lid] \
		grh [list dgid [$pctx query gid $port $gidx] \
		sgid_index [Eval [set $v] [list [namespace current]::gidIndex \
		[Far [set $v] ctx]]] hop_limit 1]]]]
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

# verbs::tcltest::pollOne SIDE --
#	The next completion of a side's CQ (its wait 1, 5 s at most).

proc ::verbs::tcltest::pollOne {side} {
    lindex [[dict get $side cq] wait 1 -timeout 5000] 0
}

package provide verbs::tcltest [package present verbs]
