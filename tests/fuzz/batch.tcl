# batch.tcl --
#
#	One batch of the fuzzer (see fuzz.tcl), run in a child tclsh of its
#	own so that a crash ends only the batch:
#
#	    tclsh batch.tcl SEED CALLS LOGFILE
#
#	builds a live tree of objects in every state it can (contexts of
#	both devices, PDs, CQs, completion channels, MRs, MWs, SRQs, AHs,
#	QPs in reset/init/rtr/rts/err, a connected RC pair, UD QPs, QPs of
#	the ibv_wr_* API, pools, rdma_cm channels and ids idle, bound,
#	resolving, resolved, listening, requested, connected, datagram and
#	synchronous, one with a QP of librdmacm's CQs), finds the commands, subcommands, methods, options and
#	dict keys by introspection (the ensembles' subcommand lists, the
#	"must be" lists of error messages, the usage of "wrong # args"), and
#	makes CALLS random calls from SEED.  Each call is appended to LOGFILE
#	(and flushed) before it runs, so that after a crash LOGFILE replays
#	the batch: "tclsh LOGFILE".  The last line of stdout is
#	"FUZZ-STATS calls errors nocode"; each error without an errorCode is
#	a line "FUZZ-NOCODE {command} {message}" before it, and with
#	FUZZ_PROFILE set in the environment, "FUZZ-PROFILE count key" lines
#	count the results by message and by command (to see how deep the
#	calls get).

namespace eval fuzz {
    variable dir [file dirname [file normalize [info script]]]
    variable log {}
    variable calls 0 errors 0 nocode 0
    variable usage		;# sig -> {positionals options}
    array set usage {}
    variable words		;# sig -> words learned from its errors
    array set words {}
    variable allWords {}	;# every word learned
    variable methods		;# type -> methods
    array set methods {}
    variable subs		;# command -> subcommands ({} for a proc)
    array set subs {}
    variable ever {}		;# every object name seen (stale ones too)
    variable nocodeSeen		;# sig -> 1, reported once
    array set nocodeSeen {}
    variable slow {}		;# {ms sig cmd} of calls over 200 ms
    variable prof {}		;# FUZZ_PROFILE: counts by message, sig
    variable typeCache		;# object -> type
    array set typeCache {}
    variable ip0 [expr {[info exists ::env(VERBS_IP0)] ? $::env(VERBS_IP0)
	: "127.0.0.1"}]
    variable ip1 [expr {[info exists ::env(VERBS_IP1)] ? $::env(VERBS_IP1)
	: "127.0.0.1"}]
    # Type names as usage placeholders name them.
    variable typeOf
    array set typeOf {
	ctx context context context pd pd cq cq qp qp mr mr mw mw srq srq
	ah ah channel channel cmchannel cmchannel id cmid cmid cmid
	pool pool dm dm wq wq xrcd xrcd td td flow flow counters counters
	flowaction flowaction rwqindtable rwqindtable qp1 qp qp2 qp
	ind_table rwqindtable
    }
}

# The events of notify scripts and their errors go nowhere.
proc bgerror {args} {}

# fuzz::rnd N -- an integer in [0, N).
proc fuzz::rnd {n} {
    expr {int(rand() * $n)}
}

proc fuzz::pick {list} {
    lindex $list [rnd [llength $list]]
}

proc fuzz::chance {p} {
    expr {rand() < $p}
}

# fuzz::Log SCRIPT -- append a line to the reproducer.
proc fuzz::Log {line} {
    variable log
    if {$log ne ""} {
	puts $log $line
	flush $log
    }
}

# fuzz::Avoid CMD -- whether CMD would crash the kernel under test by a
# bug the suite already knows (tests/vm/known-oops): such a call finds
# nothing new, and the crash would end the run.  rxe's advise_mr of an MR
# that is not ODP (odp-crash-1.1; the method's name may be abbreviated).
proc fuzz::Avoid {cmd} {
    if {[catch {lassign $cmd obj method advice sges}] || $method eq ""
	    || [string first $method advise_mr] != 0
	    || [catch {llength $sges}]
	    || ![string match rxe* [lindex [verbs::devices] 0]]} {
	return 0
    }
    foreach sge $sges {
	if {![catch {lindex $sge 0} mr]
		&& [lsearch -exact [verbs::objects mr] $mr] >= 0
		&& "on_demand" ni [$mr cget -access]} {
	    return 1
	}
    }
    return 0
}

# fuzz::call CMD -- run one call (a list), count it, learn from its error.
proc fuzz::call {sig cmd} {
    variable calls
    variable errors
    variable nocode
    variable nocodeSeen
    variable slow
    if {[Avoid $cmd]} {
	return
    }
    Log [list catch $cmd]
    incr calls
    set t0 [clock milliseconds]
    set rc [catch {uplevel #0 $cmd} msg opts]
    set dt [expr {[clock milliseconds] - $t0}]
    if {$dt > 200} {
	lappend slow [list $dt $sig [string range $cmd 0 150]]
    }
    if {[info exists ::env(FUZZ_PROFILE)]} {
	variable prof
	set k [expr {$rc ? [regsub -all {"[^"]*"} [string range $msg 0 50] Q]
	    : "OK"}]
	dict incr prof $k
	dict incr prof "SIG $sig [expr {$rc ? "err" : "ok"}]"
    }
    if {$rc} {
	incr errors
	set code [dict get $opts -errorcode]
	if {$code eq "NONE" || $code eq ""} {
	    incr nocode
	    if {![info exists nocodeSeen($sig)]} {
		set nocodeSeen($sig) 1
		puts [list FUZZ-NOCODE $sig [string range $msg 0 300] \
		    [string range $cmd 0 300]]
	    }
	}
	Learn $sig $msg
	return -code error $msg
    }
    Remember $msg
    return $msg
}

# fuzz::Learn SIG MESSAGE -- the words of a "must be" list and the usage of
# a "wrong # args" message.
proc fuzz::Learn {sig msg} {
    variable words
    variable allWords
    variable usage
    if {[regexp {must be (.*)$} $msg -> list]} {
	regsub {,? or the number of one of them.*$} $list {} list
	regsub -all {,? or } $list {, } list
	foreach w [split $list ,] {
	    set w [string trim $w]
	    if {$w eq "" || [string length $w] > 40 || [string match "* *" $w]} {
		continue
	    }
	    if {![info exists words($sig)] || $w ni $words($sig)} {
		lappend words($sig) $w
		if {$w ni $allWords} {
		    lappend allWords $w
		}
	    }
	}
    }
    if {![info exists usage($sig)]
	    && [regexp {^wrong # args: should be "(.*)"$} $msg -> u]} {
	set usage($sig) [ParseUsage $sig $u]
    }
}

# fuzz::ParseUsage SIG USAGE -- {positionals options} from a usage string:
# the placeholders of the fixed arguments, and {name placeholder} pairs.
proc fuzz::ParseUsage {sig u} {
    # Drop the command words (one for a plain command, two otherwise).
    set skip [expr {[llength $sig] > 1 ? 2 : 1}]
    set toks [lrange [regexp -all -inline {\?[^?]*\?|\S+} $u] $skip end]
    set pos {}
    set opts {}
    foreach t $toks {
	set opt [string trim $t ?]
	if {[string match -* $opt]} {
	    lappend opts [lindex $opt 0] [lindex $opt 1]
	} elseif {![string match ?* $t] && ![string match *... $t]} {
	    lappend pos $t
	} elseif {[string match ?* $t] && $opt ni {... "arg ..."}} {
	    lappend pos "?[lindex $opt 0]"
	}
    }
    list $pos $opts
}

# fuzz::Remember RESULT -- object names in a result join the pool.
proc fuzz::Remember {result} {
    variable ever
    if {[string length $result] < 200 && [string match ::* $result]
	    && [catch {llength $result} n] == 0 && $n < 10} {
	foreach r $result {
	    if {[string match ::* $r] && $r ni $ever} {
		lappend ever $r
	    }
	}
    }
}

# ---- The live tree -------------------------------------------------------

# fuzz::step SCRIPT -- run a setup step; a failing one is left out.
proc fuzz::step {script} {
    Log [list catch $script]
    catch {uplevel #0 $script} r
    return $r
}

proc fuzz::tree {} {
    variable ip0
    variable ip1
    set devs [verbs::devices]
    set i 0
    foreach d $devs {
	step [list verbs::context open $d -as ::f$i.ctx]
	incr i
    }
    set port [expr {7900 + [pid] % 20000}]
    foreach c {0 1} {
	set p ::f$c
	step "verbs::pd create $p.ctx -as $p.pd"
	step "verbs::channel create $p.ctx -as $p.ch"
	step "verbs::cq create $p.ctx -cqe 64 -channel $p.ch -as $p.cq"
	step "verbs::cq create $p.ctx -cqe 4 -as $p.cq2"
	step "verbs::mr create $p.pd -length 4096 -access {local_write remote_write remote_read remote_atomic mw_bind} -as $p.mr"
	step "verbs::mr create $p.pd -length 64 -as $p.mr2"
	# An MR the device knows by an iova: its SGEs are not host memory.
	step "verbs::mr create $p.pd -length 4096 -iova 0x10000 -as $p.imr"
	# An eventfd (any device) for the event loop and subscribe_fd.
	step "mlx5::devx eventfd create $p.ctx -as $p.efd"
	step "verbs::mw create $p.pd -type 1 -as $p.mw1"
	step "verbs::mw create $p.pd -type 2 -as $p.mw2"
	step "verbs::srq create $p.pd -max_wr 16 -as $p.srq"
	step "verbs::pool create $p.pd -count 4 -size 256 -as $p.pool"
	# A DMA handle, where the stack has them (rdma-core 59, not rxe).
	step "verbs::dmah create $p.ctx -cpu_id 0 -as $p.dmah"
	# A provider's buffer and an MR on part of it (rdma-core 64), an MR
	# of ibv_reg_mr_ex (59).
	step "verbs::buf create $p.pd -size 8192 -as $p.buf"
	step "verbs::mr create $p.pd -buf $p.buf -buf_offset 4096 -length 4096 -as $p.bmr"
	step "verbs::mr create $p.pd -length 4096 -ex 1 -as $p.xmr"
	foreach s {reset init rtr rts err} {
	    step "verbs::qp create $p.pd -send_cq $p.cq -as $p.rc$s"
	}
	step "$p.rcinit to_init {port_num 1}"
	step "verbs::qp create $p.pd -send_cq $p.cq -type ud -as $p.ud"
	step "verbs::connect $p.ud $p.ud"
	step "verbs::qp create $p.pd -send_cq $p.cq -type uc -as $p.uc"
	step "verbs::qp create $p.pd -send_cq $p.cq -srq $p.srq -as $p.srqqp"
	step "verbs::qp create $p.pd -send_cq $p.cq -send_ops {send rdma_write} -as $p.qpx"
	step "verbs::ah create $p.pd {dlid 0 port_num 1 is_global 1 grh {dgid ::ffff:$ip0 sgid_index 1}} -as $p.ah"
    }
    # rtr/rts/err: each pair's QPs connected across the devices.
    step {verbs::connect ::f0.rcrts ::f1.rcrts}
    step {verbs::connect ::f0.qpx ::f1.qpx}
    step {verbs::connect ::f0.rcerr ::f1.rcerr}
    step {::f0.rcerr modify {qp_state err}}
    step {::f0.rcrtr to_init {port_num 1}}
    step {::f1.rcrtr to_init {port_num 1}}
    step {::f0.rcrtr to_rtr [dict create dest_qp_num [::f1.rcrtr cget -qp_num] rq_psn 0 ah_attr [dict create dlid 0 port_num 1 is_global 1 grh [dict create dgid [::f1.ctx query gid 1 [verbs::gid_index ::f1.ctx]] sgid_index [verbs::gid_index ::f0.ctx] hop_limit 64]]]}
    step {::f1.rcrts post_recv {wr_id 1 sg_list {{::f1.mr 0 64}}}}
    step {::f0.rcrts post_send {wr_id 2 send_flags signaled sg_list {{::f0.mr 0 64}}}}

    # rdma_cm: ids in every state.
    step {verbs::cm channel -as ::f.cch}
    step {verbs::cm channel -as ::f.sch}
    step {verbs::cm id ::f.cch -as ::f.idle}
    step {verbs::cm id ::f.cch -ps udp -as ::f.udp}
    step {verbs::cm id ::f.cch -as ::f.bound}
    step "::f.bound bind $ip0"
    step {verbs::cm id ::f.cch -as ::f.wild}
    step "::f.wild bind 0.0.0.0 [incr port]"
    step {verbs::cm id ::f.sch -as ::f.listen}
    set lport [incr port]
    step "::f.listen bind $ip1 $lport"
    step {::f.listen listen}
    step {verbs::cm id ::f.cch -as ::f.addr}
    step "::f.addr resolve_addr $ip1 $lport -src $ip0"
    step {verbs::cm_expect ::f.cch addr_resolved -timeout 2000}
    step {verbs::cm id ::f.cch -as ::f.route}
    step "::f.route resolve_addr $ip1 $lport -src $ip0"
    step {verbs::cm_expect ::f.cch addr_resolved -timeout 2000}
    step {::f.route resolve_route}
    step {verbs::cm_expect ::f.cch route_resolved -timeout 2000}
    step {verbs::cm id ::f.cch -as ::f.conn}
    step "::f.conn resolve_addr $ip1 $lport -src $ip0"
    step {verbs::cm_expect ::f.cch addr_resolved -timeout 2000}
    step {::f.conn resolve_route}
    step {verbs::cm_expect ::f.cch route_resolved -timeout 2000}
    step {::f.conn create_qp [verbs::pd create [::f.conn cget -context]] -send_cq [verbs::cq create [::f.conn cget -context]] -as ::f.connqp}
    step {::f.conn connect}
    step {rename [dict get [verbs::cm_expect ::f.sch connect_request -timeout 2000] id] ::f.req}
    step {::f.req create_qp [verbs::pd create [::f.req cget -context]] -send_cq [verbs::cq create [::f.req cget -context]] -as ::f.reqqp}
    step {::f.req accept}
    step {verbs::cm_expect ::f.cch established -timeout 2000}
    step {verbs::cm_expect ::f.sch established -timeout 2000}
    # An id whose QP has librdmacm's CQs, for the rdma_verbs.h helpers.
    step {verbs::cm id ::f.cch -as ::f.helper}
    step "::f.helper resolve_addr $ip1 $lport -src $ip0"
    step {verbs::cm_expect ::f.cch addr_resolved -timeout 2000}
    step {::f.helper create_qp [verbs::pd create [::f.helper cget -context]] -as ::f.helperqp}
    step {::f.helper reg_msgs 4096 -as ::f.helpermr}
    step {::f.helper post_recv {::f.helpermr 0 64} -wr_id 3}
    # A request left unanswered.
    step {verbs::cm id ::f.cch -as ::f.conn2}
    step "::f.conn2 resolve_addr $ip1 $lport -src $ip0"
    step {verbs::cm_expect ::f.cch addr_resolved -timeout 2000}
    step {::f.conn2 resolve_route}
    step {verbs::cm_expect ::f.cch route_resolved -timeout 2000}
    step {::f.conn2 connect -qp_num 1234}
    step {rename [dict get [verbs::cm_expect ::f.sch connect_request -timeout 2000] id] ::f.pending}
    # Synchronous endpoints.
    step "verbs::cm create_ep \[lindex \[verbs::cm getaddrinfo -node $ip1 -service [incr port] -flags passive\] 0\] -as ::f.pep"
    step {::f.pep listen}
    step "verbs::cm create_ep \[lindex \[verbs::cm getaddrinfo -node $ip1 -service $lport\] 0\] -as ::f.aep"
    variable ever
    foreach o [verbs::objects] {
	lappend ever $o
    }
    lappend ever ::verbs::qp99999 ::verbs::pd0 ::nosuch ::f0.gone
}

# ---- Values --------------------------------------------------------------

proc fuzz::Num {} {
    pick {0 1 -1 2 3 7 8 16 63 64 255 256 4095 4096 65535 65536 -65536
	2147483647 2147483648 -2147483648 -2147483649 4294967295 4294967296
	9223372036854775807 9223372036854775808 -9223372036854775808
	18446744073709551615 18446744073709551616 -18446744073709551616
	340282366920938463463374607431768211456 0x10 0xffffffff
	0xffffffffffffffff 0o777 0b101 1e3 1.5 -0.0 NaN Inf -Inf 1_000
	" 12 " 12abc 0x 08}
}

proc fuzz::Str {} {
    switch [rnd 12] {
	0 {return ""}
	1 {return [string repeat x [pick {255 256 1024 65536 100000}]]}
	2 {return "\u20ac\u00e9\u4e2d\U0001F600"}
	3 {return "a\x00b"}
	4 {return [binary format c* {0 1 127 128 255}]}
	5 {return "\{"}
	6 {return "\[exit\]"}
	7 {return "-"}
	8 {return [pick {local_write remote_write send recv rts err rc ud
	    success signaled inline mtu_1024 udp tcp}]}
	9 {return " "}
	10 {return "a b c"}
	default {return [pick {foo bar -foo {$x} ::}]}
    }
}

proc fuzz::Obj {{type {}}} {
    variable ever
    if {$type ne "" && [chance 0.85]} {
	set live [verbs::objects $type]
	if {[llength $live]} {
	    return [pick $live]
	}
    }
    if {[chance 0.3]} {
	set live [verbs::objects]
	if {[llength $live]} {
	    return [pick $live]
	}
    }
    if {[llength $ever]} {
	return [pick $ever]
    }
    return ::nosuch
}

proc fuzz::Word {sig} {
    variable words
    variable allWords
    if {[info exists words($sig)] && [chance 0.7]} {
	return [pick $words($sig)]
    }
    if {[llength $allWords]} {
	return [pick $allWords]
    }
    return foo
}

proc fuzz::Dict {sig {depth 0}} {
    set d {}
    set n [rnd 6]
    for {set i 0} {$i < $n} {incr i} {
	set k [expr {[chance 0.85] ? [string trimleft [Word $sig] -] : [Str]}]
	if {$depth < 2 && [chance 0.15]} {
	    lappend d $k [Dict $sig [expr {$depth + 1}]]
	} else {
	    lappend d $k [Value $sig {}]
	}
    }
    if {[chance 0.05]} {
	lappend d odd
    }
    return $d
}

proc fuzz::Sge {} {
    list [Obj mr] [pick {0 1 63 64 4095 4096 -1 18446744073709551615}] \
	[pick {0 1 64 4096 4097 -1 4294967296}]
}

# fuzz::Value SIG PLACEHOLDER -- a value for an argument or option.
proc fuzz::Value {sig ph} {
    variable typeOf
    global env
    set ph [string trimleft $ph ?]
    if {[chance 0.1]} {
	set ph {}
    }
    if {[info exists typeOf($ph)]} {
	return [Obj $typeOf($ph)]
    }
    switch -glob -- $ph {
	ms {
	    return [pick {0 1 5 10 0 abc -2 "" 1.5}]
	}
	dict - *attr* - wr - ece - addrinfo - spec - info - cap - comp_mask
	- attr {
	    if {$ph eq "wr" && [chance 0.5]} {
		set d [Dict $sig]
		if {[chance 0.7]} {
		    lappend d sg_list [list [Sge]]
		}
		if {[chance 0.5]} {
		    lappend d opcode [pick {send send_with_imm rdma_write
			rdma_read atomic_cmp_and_swp atomic_fetch_and_add
			bind_mw local_inv send_with_inv tso driver 0 1 2 3 4 5
			6 7 8 9 10 11 12 13 14 15 255}]
		}
		if {[chance 0.2]} {
		    # The keys of tso (refused on rxe before the provider).
		    lappend d hdr [pick [list {} abc [string repeat h 54] \
			[string repeat h 65536] \u0100]] \
			mss [pick {0 1448 65535 65536 -1}]
		}
		return $d
	    }
	    return [Dict $sig]
	}
	script - command {
	    return [pick {{set ::fuzz::x 1} {error boom} {} {return -code break}
		{incr ::fuzz::y}}]
	}
	address - addr {
	    variable ip0
	    variable ip1
	    return [pick [list $ip0 $ip1 0.0.0.0 ::1 \
		239.1.2.3 255.255.255.255 fe80::1 nowhere "" 1.2.3.4]]
	}
	port - n - count - length - offset - max* - bool - index - cqe
	- backlog - num* - size - value - lid - qpn - psn - byte - bytes
	- *_id {
	    if {$ph in {bytes byte} && [chance 0.5]} {
		return [Str]
	    }
	    return [Num]
	}
	sg_list - sge {
	    return [list [Sge]]
	}
    }
    switch [rnd 10] {
	0 - 1 {return [Num]}
	2 - 3 {return [Str]}
	4 {return [Obj]}
	5 - 6 {return [Word $sig]}
	7 {return [Dict $sig]}
	8 {return [list [Num] [Num]]}
	default {return [Obj [pick {qp cq pd mr cmid srq}]]}
    }
}

# ---- Calls ---------------------------------------------------------------

# fuzz::Discover -- commands, their subcommands, the methods of each type.
proc fuzz::Discover {} {
    variable subs
    variable methods
    # Every command the package exports, in ::verbs and ::mlx5 (an
    # export pattern such as ::mlx5's "*" stands for the commands it
    # matches), and the ensembles nested in those (mlx5::dr action).
    set todo {::verbs ::mlx5}
    set cmds {}
    while {[llength $todo]} {
	set todo [lassign $todo ns]
	foreach pat [namespace eval $ns {namespace export}] {
	    foreach c [info commands ${ns}::$pat] {
		if {$c ni $cmds} {
		    lappend cmds $c
		}
	    }
	}
	foreach child [namespace children $ns] {
	    if {[namespace ensemble exists $child]} {
		lappend todo $child
	    }
	}
    }
    foreach cmd $cmds {
	set c $cmd
	if {[namespace ensemble exists $cmd]} {
	    catch {call $c [list $cmd \x01]} msg
	    set subs($c) {}
	    if {[regexp {must be (.*)$} $msg -> list]} {
		regsub -all {,? or } $list {, } list
		foreach w [split $list ,] {
		    lappend subs($c) [string trim $w]
		}
	    }
	} else {
	    set subs($c) {}
	}
    }
    foreach o [verbs::objects] {
	set type [lindex [split [namespace tail $o] .] 0]
	foreach t [TypesOf $o] {
	    if {![info exists methods($t)]} {
		catch {call [list $t] [list $o \x01]} msg
		set methods($t) {}
		if {[regexp {must be (.*)$} $msg -> list]} {
		    regsub -all {,? or } $list {, } list
		    foreach w [split $list ,] {
			lappend methods($t) [string trim $w]
		    }
		}
	    }
	}
    }
    # The usage of every subcommand and method: too many arguments.
    foreach c [array names subs] {
	if {$subs($c) eq ""} {
	    catch {call $c [concat $c [lrepeat 30 \x01]]}
	} else {
	    foreach s $subs($c) {
		catch {call [list $c $s] [concat $c $s [lrepeat 30 \x01]]}
	    }
	}
    }
    foreach t [array names methods] {
	set o [pick [verbs::objects $t]]
	foreach m $methods($t) {
	    if {$m ni {close}} {
		catch {call [list $t $m] [concat $o $m [lrepeat 30 \x01]]}
	    }
	}
    }
}

proc fuzz::TypesOf {o} {
    variable typeCache
    if {![info exists typeCache($o)]} {
	# The type names, from verbs::objects' own refusal of a bad one.
	catch {verbs::objects \x01} msg
	regexp {must be (.*)$} $msg -> list
	regsub -all {,? or } $list {, } list
	foreach t [split [string map {" " ""} $list] ,] {
	    foreach x [verbs::objects $t] {
		set typeCache($x) $t
	    }
	}
    }
    if {[info exists typeCache($o)]} {
	return $typeCache($o)
    }
    return {}
}

# fuzz::Args SIG -- arguments for a call of SIG.
proc fuzz::Args {sig} {
    variable usage
    set args {}
    if {[info exists usage($sig)] && [chance 0.8]} {
	lassign $usage($sig) pos opts
	foreach p $pos {
	    if {[string match ?* $p] && [chance 0.5]} {
		continue
	    }
	    if {[chance 0.03]} {
		continue
	    }
	    lappend args [Value $sig $p]
	}
	set n [llength $opts]
	if {$n} {
	    foreach i [lrepeat [rnd 4] x] {
		set k [expr {2 * [rnd [expr {$n / 2}]]}]
		set name [lindex $opts $k]
		lappend args $name
		if {[chance 0.97]} {
		    lappend args [Value $sig [lindex $opts [expr {$k + 1}]]]
		}
	    }
	}
	if {[chance 0.05]} {
	    lappend args [Value $sig {}]
	}
    } else {
	foreach i [lrepeat [rnd 7] x] {
	    if {[chance 0.3]} {
		lappend args [Word $sig]
	    }
	    lappend args [Value $sig {}]
	}
    }
    # Waits (5 s by default): a short limit, mostly.
    if {[Waits $sig] && [chance 0.95]} {
	lappend args -timeout [pick {0 1 10}]
    }
    return $args
}

# fuzz::Waits SIG -- whether SIG takes a -timeout (or passes one on).
proc fuzz::Waits {sig} {
    variable usage
    if {[lindex $sig 0] eq "cm_expect"} {
	return 1
    }
    expr {[info exists usage($sig)]
	&& [lsearch -exact [lindex $usage($sig) 1] -timeout] >= 0}
}

proc fuzz::OneCall {} {
    variable subs
    variable methods
    if {[chance 0.6]} {
	set live [verbs::objects]
	if {[chance 0.03] || [llength $live] == 0} {
	    variable ever
	    set o [pick $ever]
	    set t [pick [array names methods]]
	} else {
	    set o [pick $live]
	    set t [TypesOf $o]
	}
	if {![info exists methods($t)] || $methods($t) eq ""} {
	    return
	}
	set m [pick $methods($t)]
	# Closing ends parts of the tree: seldom, a context more seldom.
	if {$m eq "close" && ([chance 0.9]
		|| ($t eq "context" && [chance 0.9]))} {
	    set m [pick $methods($t)]
	    if {$m eq "close"} {
		set m children
	    }
	}
	# A synchronous id's connect, accept and disconnect wait inside
	# librdmacm for the peer, which nobody answers here, until the
	# connection manager gives up (a minute): by design, not a hang.
	if {$t eq "cmid" && $m in {connect accept disconnect}
		&& ![catch {$o cget -channel} ch] && $ch eq ""} {
	    set m cget
	}
	set sig [list $t $m]
	set cmd [concat [list $o $m] [Args $sig]]
    } else {
	set c [pick [array names subs]]
	if {$subs($c) eq ""} {
	    set sig [list $c]
	    set cmd [concat [list $c] [Args $sig]]
	} else {
	    set s [pick $subs($c)]
	    set sig [list $c $s]
	    set cmd [concat [list $c $s] [Args $sig]]
	}
    }
    catch {call $sig $cmd}
}

proc fuzz::main {seed ncalls logfile} {
    variable log
    variable calls
    variable errors
    variable nocode
    variable dir
    set log [open $logfile w]
    fconfigure $log -encoding utf-8 -translation lf
    Log "# fuzz batch: seed $seed, $ncalls calls; replay with tclsh THISFILE"
    Log [list package require verbs]
    Log [list source [file join $dir batch.tcl]]
    Log "proc bgerror args {}"
    package require verbs
    expr {srand($seed)}
    tree
    variable treeSize [llength [verbs::objects]]
    Discover
    while {$calls < $ncalls} {
	OneCall
    }
    Log "# end"
    close $log
    set log {}
    # Tear the tree down before exit (leak checks see what is left).
    foreach o [verbs::objects context] {
	catch {$o close}
    }
    foreach o [verbs::objects] {
	catch {$o close}
    }
    variable slow
    variable treeSize
    foreach x [lrange [lsort -integer -decreasing -index 0 $slow] 0 9] {
	puts [list FUZZ-SLOW {*}$x]
    }
    puts "FUZZ-TREE $treeSize"
    if {[info exists ::env(FUZZ_PROFILE)]} {
	variable prof
	foreach {k n} [lsort -stride 2 -index 1 -integer -decreasing $prof] {
	    puts [list FUZZ-PROFILE $n $k]
	}
    }
    puts "FUZZ-STATS $calls $errors $nocode"
}

if {[info exists argv0] && [file tail $argv0] eq "batch.tcl"} {
    fuzz::main {*}$argv
    exit 0
}
