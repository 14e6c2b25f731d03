# expect.tcl --
#
#	Sourced by examples.test, examples2.test and examples3.test (after
#	common.tcl).  Drives the scripts of examples/ and the C programs they
#	talk to (ibv_rc_pingpong, ibv_ud_pingpong, rdma_server, rdma_client,
#	udaddy, mckey) with Expect, the way a lab automates them: spawn the server, wait for
#	the line it prints when it listens, spawn the client, and collect
#	both outputs and exit statuses.  Every wait has a time limit, so
#	that a hang fails a test instead of blocking the suite.
#
#	Constraint:
#	    expect     Expect (Debian's tcl-expect) loads
#
#	Running programs (each one under a NAME the test chooses, such as
#	server or client; stdout and stderr both go to its pty):
#	    ex::spawn NAME CMD           starts the command line CMD
#	    ex::expectListening NAME ?S? waits for its line "listening on
#	                                 ADDRESS port PORT"; returns PORT
#	    ex::expectLine NAME RE ?S?   waits for a line matching the regular
#	                                 expression RE (a C program's ready
#	                                 line); returns the line
#	    ex::waitTcpPort NAME PORT ?S?  the same for a C server that
#	    ex::waitCmPort NAME PORT ?S?   prints nothing when it listens:
#	                                 polls the TCP or rdma_cm port
#	    ex::finish NAMES ?S?         waits for their ends; returns a dict
#	                                 NAME -> {STATUS OUTPUT}
#	    ex::run CMD ?S?              spawn and finish one: {STATUS OUTPUT}
#	    ex::cleanup                  kills and reaps what is left (for a
#	                                 test's -cleanup, after an error)
#	STATUS is the exit code, "signal NAME", or "timeout" when the
#	process was still running at the limit (S seconds) and was killed.
#	OUTPUT has "\n" line ends (a pty sends "\r\n").
#
#	The examples and the C programs:
#	    ex::script NAME ?ARG ...?            an example's command line
#	    ex::pingpong KIND PROG ROLE PORT ?ARG ...?  one side of an rc or
#	                                         ud ping-pong, tcl or c
#	    ex::cm PROG ROLE PORT ?ARG ...?      one side of cm_*.tcl or
#	                                         rdma_server/rdma_client
#	    ex::pingpongVerdict RESULT, ex::cmVerdict RESULT
#	                                         what a pair's tests compare,
#	                                         to $ex::pingpongOk, $ex::cmOk

testConstraint expect [expr {![catch {package require Expect}]}]
if {[testConstraint expect]} {
    log_user 0			;# the output goes to the tests, not stdout
    match_max -d 100000
}

namespace eval ::ex {
    variable id			;# NAME -> spawn id, until reaped
    variable out		;# NAME -> what it printed so far
    variable ended		;# NAME -> 1 once its output ended
    # The examples, and the VM's addresses: rxe1 (the servers), rxe0.
    variable dir [file normalize \
	    [file join [file dirname [info script]] .. examples]]
    variable ip1 198.18.0.2
    variable ip0 198.18.0.1
    if {[info exists ::env(VERBS_IP1)]} {
	set ip1 $::env(VERBS_IP1)
    }
    if {[info exists ::env(VERBS_IP0)]} {
	set ip0 $::env(VERBS_IP0)
    }
}

# ---- Running programs --------------------------------------------------
# (What each public command does is in the list at the top.)

proc ::ex::spawn {name cmd} {
    variable id
    variable out
    variable ended
    if {[info exists id($name)]} {
	return -code error "ex::spawn: \"$name\" is still there"
    }
    set out($name) {}
    set ended($name) 0
    exp_spawn -noecho {*}$cmd
    set id($name) $spawn_id
    return
}

# ex::Take SPAWNID TEXT ?END? --
#	Adds TEXT to the output of the program on SPAWNID, and marks its
#	output ended when END is true.

proc ::ex::Take {sid text {end 0}} {
    variable id
    variable out
    variable ended
    foreach {name s} [array get id] {
	if {$s eq $sid} {
	    append out($name) $text
	    if {$end} {
		set ended($name) 1
	    }
	    return
	}
    }
}

# ex::Output NAME --
#	NAME's output so far, with "\n" line ends: the pty turns "\n" into
#	"\r\n", and Tcl writes "\r\n" to a terminal, which becomes "\r\r\n".

proc ::ex::Output {name} {
    regsub -all {\r+\n} $::ex::out($name) \n
}

proc ::ex::expectListening {name {seconds 20}} {
    variable id
    set why "did not print it within $seconds s"
    expect -i $id($name) -timeout $seconds \
	-re {(?:^|\n)listening on (\S+) port (\d+)\r*\n} {
	    Take $id($name) $expect_out(buffer)
	    return $expect_out(2,string)
	} eof {
	    Take $id($name) $expect_out(buffer) 1
	    set why "ended without it"
	} timeout {
	    # What it did print, for the message.
	    expect -i $id($name) -timeout 0 -re .+ {
		Take $id($name) $expect_out(buffer)
	    }
	}
    return -code error "$name: no listen line ($why); its output:\n[Output $name]"
}

proc ::ex::expectLine {name re {seconds 20}} {
    variable id
    set why "did not print it within $seconds s"
    expect -i $id($name) -timeout $seconds \
	-re "(?:^|\n)($re)\r*\n" {
	    Take $id($name) $expect_out(buffer)
	    return $expect_out(1,string)
	} eof {
	    Take $id($name) $expect_out(buffer) 1
	    set why "ended without it"
	} timeout {
	    expect -i $id($name) -timeout 0 -re .+ {
		Take $id($name) $expect_out(buffer)
	    }
	}
    return -code error \
	"$name: no line like \"$re\" ($why); its output:\n[Output $name]"
}

# ex::waitTcpPort NAME PORT ?SECONDS? --
#	For ibv_rc_pingpong and ibv_ud_pingpong, which print nothing when
#	they listen: waits until some socket listens on TCP PORT
#	(vt::tcpListening).

proc ::ex::waitTcpPort {name port {seconds 20}} {
    Poll $name [list ::vt::tcpListening $port] "TCP port $port" $seconds
}

# ex::waitCmPort NAME PORT ?SECONDS? --
#	For rdma_server, which prints its start line before it listens:
#	waits until an rdma_cm id listens on PORT, as iproute2's "rdma
#	resource show cm_id" says (a connect attempt would be the server's
#	only request).

proc ::ex::waitCmPort {name port {seconds 20}} {
    Poll $name [list ::ex::CmListening $port] "rdma_cm port $port" $seconds
}

proc ::ex::CmListening {port} {
    foreach line [split [exec rdma resource show cm_id] \n] {
	if {[string match "* state LISTEN *" $line]
		&& [string match "*src-addr *:$port *" "$line "]} {
	    return 1
	}
    }
    return 0
}

# ex::Poll NAME READY WHAT SECONDS --
#	Waits until the command prefix READY is true, every 50 ms, taking
#	in NAME's output meanwhile; an error when NAME ends first or
#	SECONDS pass.

proc ::ex::Poll {name ready what seconds} {
    variable id
    variable ended
    set limit [expr {[clock milliseconds] + 1000 * $seconds}]
    while {![{*}$ready]} {
	expect -i $id($name) -timeout 0 -re .+ {
	    Take $id($name) $expect_out(buffer)
	} eof {
	    Take $id($name) $expect_out(buffer) 1
	}
	if {$ended($name)} {
	    set why "ended first"
	} elseif {[clock milliseconds] > $limit} {
	    set why "not within $seconds s"
	} else {
	    after 50
	    continue
	}
	return -code error \
	    "$name: does not listen on $what ($why); its output:\n[Output $name]"
    }
}

proc ::ex::finish {names {seconds 60}} {
    variable id
    variable ended
    set limit [expr {[clock milliseconds] + 1000 * $seconds}]
    while 1 {
	set live {}
	foreach name $names {
	    if {!$ended($name)} {
		lappend live $id($name)
	    }
	}
	set left [expr {($limit - [clock milliseconds] + 999) / 1000}]
	if {![llength $live] || $left <= 0} {
	    break
	}
	expect -i $live -timeout $left -re .+ {
	    Take $expect_out(spawn_id) $expect_out(buffer)
	} eof {
	    Take $expect_out(spawn_id) $expect_out(buffer) 1
	} timeout {
	    break
	}
    }
    set r {}
    foreach name $names {
	dict set r $name [Reap $name]
    }
    return $r
}

# ex::Reap NAME --
#	Kills NAME unless its output ended, waits for it and forgets it;
#	returns {STATUS OUTPUT}.

proc ::ex::Reap {name} {
    variable id
    variable ended
    set sid $id($name)
    unset id($name)
    set status {}
    if {!$ended($name)} {
	catch {exec kill -KILL [exp_pid -i $sid]}
	set status timeout
    }
    catch {exp_close -i $sid}
    # {pid spawn_id 0 code} or {... 0 0 CHILDKILLED SIGNAME message},
    # {... -1 errno} when the wait failed.
    set w [exp_wait -i $sid]
    if {$status ne ""} {
    } elseif {[lindex $w 2] == -1} {
	set status "error [lindex $w 3]"
    } elseif {[lindex $w 4] eq "CHILDKILLED"} {
	set status "signal [lindex $w 5]"
    } else {
	set status [lindex $w 3]
    }
    list $status [Output $name]
}

proc ::ex::run {cmd {seconds 60}} {
    spawn one $cmd
    dict get [finish one $seconds] one
}

proc ::ex::cleanup {} {
    variable id
    foreach name [array names id] {
	Reap $name
    }
}

# ---- The examples and the C programs -----------------------------------

# ex::script NAME ?ARG ...? --
#	The command line of examples/NAME: the script itself, run by its
#	"#!/usr/bin/env tclsh" line, when that tclsh is the one running the
#	tests; else through the tests' tclsh (a sanitizer run's wrapper, a
#	TCLSH that is not on PATH).

proc ::ex::script {name args} {
    variable dir
    set path [file join $dir $name]
    set tclsh [auto_execok tclsh]
    if {[llength $tclsh] == 1 && ![catch {
	file stat [lindex $tclsh 0] a
	file stat [::tcltest::interpreter] b
    }] && $a(dev) == $b(dev) && $a(ino) == $b(ino)} {
	return [list $path {*}$args]
    }
    list [::tcltest::interpreter] $path {*}$args
}

# ex::gidx DEV --
#	The GID index to use on DEV (the VM's choice, else the package's).

proc ::ex::gidx {dev} {
    set ctx [verbs::context open $dev]
    try {
	return [vt::gidIndex $ctx]
    } finally {
	$ctx close
    }
}

# ex::pingpong KIND PROG ROLE PORT ?ARG ...? --
#	One side of a ping-pong: KIND rc or ud, PROG tcl (KIND_pingpong.tcl)
#	or c (ibv_KIND_pingpong), ROLE server (on the second device) or
#	client (on the first, connecting to the server's address).

proc ::ex::pingpong {kind prog role port args} {
    variable ip1
    set dev [expr {$role eq "server" ? $::vt::dev2 : $::vt::dev}]
    set args [list -d $dev -g [gidx $dev] -p $port {*}$args]
    if {$role eq "client"} {
	lappend args $ip1
    }
    if {$prog eq "tcl"} {
	return [script ${kind}_pingpong.tcl {*}$args]
    }
    list /usr/bin/ibv_${kind}_pingpong {*}$args
}

# ex::cm PROG ROLE PORT ?ARG ...? --
#	One side of the rdma_cm pair: PROG tcl (cm_ROLE.tcl) or c
#	(rdma_ROLE).  Servers listen on every address, as rdma_server does
#	by default; clients connect to the second device's address.

proc ::ex::cm {prog role port args} {
    variable ip1
    set args [list -p $port {*}$args]
    if {$role eq "client"} {
	lappend args -s $ip1
    }
    if {$prog eq "tcl"} {
	return [script cm_$role.tcl {*}$args]
    }
    list /usr/bin/rdma_$role {*}$args
}

# ex::addresses OUTPUT --
#	The local and remote address lines of a ping-pong's output, as
#	{local {LID QPN PSN GID} remote {...}}.  ibv_ud_pingpong ends its
#	local line's PSN with a colon, every other one with a comma.

proc ::ex::addresses {output} {
    set r {}
    foreach what {local remote} {
	if {[regexp "$what address: +LID (0x\[0-9a-f\]+), QPN (0x\[0-9a-f\]+),\
		PSN (0x\[0-9a-f\]+)\[:,\] GID (\\S+)" $output \
		-> lid qpn psn gid]} {
	    dict set r $what [list $lid $qpn $psn $gid]
	}
    }
    return $r
}

# ex::pingpongVerdict RESULT --
#	What the ping-pong tests compare, from ex::finish's result for
#	server and client: both exit statuses, whether each side printed
#	the "bytes in" and "iters in" lines, and whether each side's remote
#	address is the other's local address (LID, QPN, PSN and GID made it
#	across intact).  Prints the outputs when something is off.

set ::ex::pingpongOk {server 0 client 0 bytes {1 1} iters {1 1} crossed 1}

proc ::ex::pingpongVerdict {r} {
    lassign [dict get $r server] sstat sout
    lassign [dict get $r client] cstat cout
    set pat {*[0-9] bytes in *[0-9] seconds = *[0-9] Mbit/sec*}
    set ipat {*[0-9] iters in *[0-9] seconds = *[0-9] usec/iter*}
    set sa [addresses $sout]
    set ca [addresses $cout]
    set crossed [expr {[dict size $sa] == 2 && [dict size $ca] == 2
	&& [dict get $sa remote] eq [dict get $ca local]
	&& [dict get $ca remote] eq [dict get $sa local]}]
    set v [list server $sstat client $cstat \
	bytes [list [string match $pat $sout] [string match $pat $cout]] \
	iters [list [string match $ipat $sout] [string match $ipat $cout]] \
	crossed $crossed]
    if {$v ne $::ex::pingpongOk} {
	puts "---- server output:\n$sout---- client output:\n$cout----"
    }
    return $v
}

# ex::cmVerdict RESULT --
#	Both exit statuses and whether each side printed its start line and
#	"end 0" line.  Prints the outputs when something is off.

set ::ex::cmOk {server 0 {1 1} client 0 {1 1}}

proc ::ex::cmVerdict {r} {
    set v {}
    foreach side {server client} {
	lassign [dict get $r $side] status out
	lappend v $side $status [list \
	    [regexp -line "^(cm|rdma)_$side: start\$" $out] \
	    [regexp -line "^(cm|rdma)_$side: end 0\$" $out]]
    }
    if {$v ne $::ex::cmOk} {
	puts "---- server output:\n[lindex [dict get $r server] 1]----\
		client output:\n[lindex [dict get $r client] 1]----"
    }
    return $v
}
