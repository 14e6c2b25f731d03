# lab.tcl --
#
#	The verbs::lab package: a lab controller's library.  It drives the
#	hosts of an RDMA lab over ssh with Expect, as a person at a terminal
#	would: run a command on a host, start a server and wait for the
#	line that says it listens, pass endpoint values from one process's
#	output to another's input, wait for several at once, copy files and
#	install packages, and learn each host's stack.  Every step has a
#	timeout, and its errors name the host and the step.  Every remote
#	process runs on a terminal of its own (ssh -tt), so stopping it, or
#	the controller's end, hangs it up.  The controller needs no RDMA
#	device: the verbs package itself is not loaded here.
#	doc/verbs_lab.n is its manual.
#
# Copyright (c) 2026 The verbs authors.
# See the file "LICENSE" for terms of use and redistribution.

package require Tcl 8.6-
package require Expect

namespace eval ::verbs::lab {
    namespace export configure hosts run tcl start expect send wait stop \
	cleanup session barrier put install info
    namespace ensemble create -subcommands {configure hosts run tcl start
	expect send wait stop cleanup session barrier put install info}

    # Settings (configure): ssh_config file, default timeout in seconds,
    # more ssh arguments.
    variable config [dict create -ssh_config {} -timeout 60 -ssh {}]
    if {[::info exists ::env(VERBS_LAB_SSH_CONFIG)]} {
	dict set config -ssh_config $::env(VERBS_LAB_SSH_CONFIG)
    }
    # The lab's hosts.
    variable hosts {}
    if {[::info exists ::env(VERBS_LAB_HOSTS)]} {
	set hosts $::env(VERBS_LAB_HOSTS)
    }
    # Started processes: handle -> dict host step id pid out (all output)
    # pending (what waits have not consumed yet) status (once ended).
    variable procs
    array set procs {}
    variable counter 0
}

# verbs::lab::Fail CODE HOST STEP MESSAGE ?DETAIL...? --
#
#	Raises the package's error: "lab: HOST: STEP: MESSAGE" with the
#	errorCode {VERBS LAB CODE HOST STEP DETAIL...}.

proc ::verbs::lab::Fail {code host step msg args} {
    return -code error -level 2 -errorcode [list VERBS LAB $code $host $step {*}$args] \
	"lab: $host: $step: $msg"
}

# verbs::lab::Options SPEC ARGS --
#
#	Parses ARGS as "-option value" pairs, each option one of the keys of
#	the dict SPEC (its defaults); a -timeout must be a positive integer.
#	Results: the dict of values; an error naming the allowed options for
#	any other.

proc ::verbs::lab::Options {spec argList} {
    for {set i 0} {$i < [llength $argList]} {incr i 2} {
	set k [lindex $argList $i]
	set v [lindex $argList $i+1]
	if {![dict exists $spec $k]} {
	    set names [dict keys $spec]
	    if {[llength $names] > 1} {
		lset names end "or [lindex $names end]"
	    }
	    return -code error -level 2 -errorcode [list VERBS LAB OPTION $k] \
		"bad option \"$k\": must be [join $names {, }]"
	}
	if {$i + 1 == [llength $argList]} {
	    return -code error -level 2 -errorcode {VERBS LAB USAGE} \
		"missing value for option \"$k\""
	}
	if {$k eq "-timeout" && (![string is entier -strict $v] || $v <= 0)} {
	    return -code error -level 2 -errorcode {VERBS LAB VALUE -timeout} \
		"bad -timeout \"$v\": must be a positive integer (seconds)"
	}
	dict set spec $k $v
    }
    return $spec
}

# verbs::lab::configure ?-ssh_config FILE? ?-timeout SECONDS? ?-ssh ARGS? --
#
#	Queries or sets the settings: the ssh_config file that names the
#	hosts (default $env(VERBS_LAB_SSH_CONFIG), else ssh's own), the
#	default timeout of a step, and more ssh arguments.  Results: the
#	settings when no option is given, an option's value when only it
#	is named; empty otherwise.

proc ::verbs::lab::configure {args} {
    variable config
    if {![llength $args]} {
	return $config
    }
    if {[llength $args] == 1 && [dict exists $config [lindex $args 0]]} {
	return [dict get $config [lindex $args 0]]
    }
    set config [Options $config $args]
    return
}

# verbs::lab::hosts ?NAME ...? --
#
#	Queries or sets the lab's hosts (default $env(VERBS_LAB_HOSTS)):
#	names that ssh knows (from the ssh_config, ~/.ssh/config, DNS), or
#	user@host.  Results: the list of hosts.

proc ::verbs::lab::hosts {args} {
    variable hosts
    if {[llength $args]} {
	set hosts $args
    }
    return $hosts
}

# verbs::lab::Ssh HOST --
#
#	Results: the ssh command (a list) that reaches HOST.

proc ::verbs::lab::Ssh {host} {
    variable config
    set cmd [list ssh]
    if {[dict get $config -ssh_config] ne ""} {
	lappend cmd -F [dict get $config -ssh_config]
    }
    # LogLevel ERROR: no "Connection to HOST closed." in the output of
    # a terminal session.  (The first value of an option wins: the
    # user's -ssh come first.)
    lappend cmd {*}[dict get $config -ssh] -o BatchMode=yes \
	-o LogLevel=ERROR $host
    return $cmd
}

# verbs::lab::Spawn HOST STEP COMMAND --
#
#	Starts COMMAND on HOST through ssh -tt (a terminal there, so that a
#	hang-up here ends it there).  Results: a new handle.

proc ::verbs::lab::Spawn {host step command} {
    variable procs
    variable counter
    set h $host.[incr counter]
    if {[catch {
	::log_user 0
	set pid [::spawn -noecho {*}[Ssh $host] -tt -- $command]
	set id $spawn_id
    } msg]} {
	Fail SPAWN $host $step "cannot start ssh: $msg"
    }
    set procs($h) [dict create host $host step $step id $id pid $pid \
	out {} pending {} status {}]
    return $h
}

# verbs::lab::Handle H --
#
#	Results: the record of the started process H; an error if none.

proc ::verbs::lab::Handle {h} {
    variable procs
    if {![::info exists procs($h)]} {
	return -code error -level 2 -errorcode [list VERBS LAB HANDLE $h] \
	    "no lab process \"$h\""
    }
    return $procs($h)
}

# verbs::lab::Read H PATTERN SECONDS --
#
#	Reads the output of process H until the regular expression PATTERN
#	matches a whole line of what arrived (or, with PATTERN empty, until
#	it ends), at most SECONDS.  Carriage returns of the remote terminal
#	are dropped.  Results: "match" with the match's groups in ::verbs::lab::groups,
#	"eof" or "timeout".  The output is kept in the record (out), and
#	what a match consumed is removed from the part still to be matched.

proc ::verbs::lab::Read {h pattern seconds} {
    variable procs
    variable groups
    set id [dict get $procs($h) id]
    set deadline [expr {[clock milliseconds] + $seconds * 1000}]
    while 1 {
	# Only whole lines are matched (a line still arriving could match
	# a pattern that ends in $), but for the last one after the end.
	set pending [dict get $procs($h) pending]
	if {[dict get $procs($h) status] eq ""} {
	    set pending [string range $pending 0 [string last \n $pending]]
	}
	if {$pending ne "" && $pattern ne ""} {
	    set m [regexp -inline -indices -line -- $pattern $pending]
	    if {[llength $m]} {
		set groups {}
		foreach r $m {
		    lappend groups [string range $pending {*}$r]
		}
		dict set procs($h) pending [string range \
		    [dict get $procs($h) pending] [expr {[lindex $m 0 1] + 1}] end]
		return match
	    }
	}
	if {[dict get $procs($h) status] ne ""} {
	    return eof
	}
	set left [expr {($deadline - [clock milliseconds] + 999) / 1000}]
	if {$left <= 0} {
	    return timeout
	}
	set got {}
	set what timeout
	::expect -i $id -timeout $left -re {.+} {
	    set got $expect_out(buffer)
	    set what data
	} eof {
	    set what eof
	} timeout {
	    set what timeout
	}
	set got [string map {\r {}} $got]
	dict append procs($h) out $got
	dict append procs($h) pending $got
	if {$what eq "eof"} {
	    Reap $h
	} elseif {$what eq "timeout"} {
	    return timeout
	}
    }
}

# verbs::lab::Reap H --
#
#	Collects the exit status of process H after its end of file.

proc ::verbs::lab::Reap {h} {
    variable procs
    set id [dict get $procs($h) id]
    catch {::close -i $id}
    set st -1
    catch {
	set w [::wait -i $id]
	# {pid id 0 STATUS}, {pid id -1 ERRNO}, or a signal's end:
	# {pid id 0 STATUS CHILDKILLED SIGNAME MESSAGE} (reported as 255).
	set st [expr {[lindex $w 2] == 0 && [llength $w] == 4
	    ? [lindex $w 3] : 255}]
    }
    dict set procs($h) status $st
}

# verbs::lab::Tail TEXT --
#
#	Results: the last lines of TEXT after ": ", for the end of an
#	error message; empty when TEXT is.

proc ::verbs::lab::Tail {text} {
    set lines [split [string trimright $text \n] \n]
    if {![llength $lines]} {
	return
    }
    return ": [join [lrange $lines end-4 end] \n]"
}

# verbs::lab::start HOST COMMAND ?-wait PATTERN? ?-timeout SECONDS?
#		?-step NAME? --
#
#	Starts COMMAND (a shell command line) on HOST.  With -wait, waits
#	until its output has a line matching the regular expression
#	PATTERN ("listening on"), and fails if it ends or the timeout passes
#	first (the process is then stopped).  Results: the process's handle.

proc ::verbs::lab::start {host command args} {
    variable config
    set o [Options [dict create -wait {} -timeout [dict get $config -timeout] \
	-step [lindex [split [string trim $command]] 0]] $args]
    set step [dict get $o -step]
    set h [Spawn $host $step $command]
    set pattern [dict get $o -wait]
    if {$pattern ne ""} {
	switch -- [Read $h $pattern [dict get $o -timeout]] {
	    eof {
		set r $::verbs::lab::procs($h)
		unset ::verbs::lab::procs($h)
		Fail EOF $host $step "ended (exit status [dict get $r status])\
		    before a line matching \"$pattern\"[Tail [dict get $r out]]"
	    }
	    timeout {
		stop $h
		Fail TIMEOUT $host $step "no line matching \"$pattern\" after\
		    [dict get $o -timeout] s"
	    }
	}
    }
    return $h
}

# verbs::lab::expect H PATTERN ?-timeout SECONDS? --
#
#	Waits until process H prints a line matching the regular expression
#	PATTERN (after what earlier waits consumed).  Results: the match's
#	first group, or the whole match when PATTERN has none.

proc ::verbs::lab::expect {h pattern args} {
    variable config
    set r [Handle $h]
    set o [Options [dict create -timeout [dict get $config -timeout]] $args]
    switch -- [Read $h $pattern [dict get $o -timeout]] {
	eof {
	    Fail EOF [dict get $r host] [dict get $r step] "ended (exit status\
		[dict get $::verbs::lab::procs($h) status]) before a line matching\
		\"$pattern\"[Tail [dict get $::verbs::lab::procs($h) out]]"
	}
	timeout {
	    Fail TIMEOUT [dict get $r host] [dict get $r step] "no line\
		matching \"$pattern\" after [dict get $o -timeout] s"
	}
    }
    variable groups
    return [lindex $groups [expr {[llength $groups] > 1}]]
}

# verbs::lab::barrier ?-timeout SECONDS? H PATTERN ?H PATTERN ...? --
#
#	Waits until each process H has printed a line matching its PATTERN,
#	all within one timeout.  Results: the list of matches (as expect).

proc ::verbs::lab::barrier {args} {
    variable config
    set t [dict get $config -timeout]
    if {[lindex $args 0] eq "-timeout"} {
	set t [dict get [Options [dict create -timeout $t] \
	    [lrange $args 0 1]] -timeout]
	set args [lrange $args 2 end]
    }
    if {![llength $args] || [llength $args] % 2} {
	return -code error -errorcode {TCL WRONGARGS} \
	    "wrong # args: should be \"verbs::lab barrier ?-timeout seconds? handle pattern ?handle pattern ...?\""
    }
    foreach {h pattern} $args {
	Handle $h
    }
    set deadline [expr {[clock seconds] + $t}]
    set out {}
    foreach {h pattern} $args {
	set left [expr {max(1, $deadline - [clock seconds])}]
	lappend out [expect $h $pattern -timeout $left]
    }
    return $out
}

# verbs::lab::send H STRING --
#
#	Writes STRING to the input of process H (its terminal: end a line
#	with \n).

proc ::verbs::lab::send {h string} {
    set r [Handle $h]
    if {[catch {::exp_send -i [dict get $r id] -- $string} msg]} {
	Fail SEND [dict get $r host] [dict get $r step] "cannot send: $msg"
    }
    return
}

# verbs::lab::wait H ?-timeout SECONDS? ?-status VARNAME? --
#
#	Waits until process H ends.  Without -status a non-zero exit status
#	is an error; with it the status goes into VARNAME.  A timeout stops
#	the process and is an error.  Results: all of its output.

proc ::verbs::lab::wait {h args} {
    variable config
    variable procs
    set r [Handle $h]
    set o [Options [dict create -timeout [dict get $config -timeout] \
	-status {}] $args]
    set host [dict get $r host]
    set step [dict get $r step]
    if {[Read $h {} [dict get $o -timeout]] eq "timeout"} {
	stop $h
	Fail TIMEOUT $host $step "did not end after [dict get $o -timeout] s"
    }
    set r $procs($h)
    unset procs($h)
    set out [dict get $r out]
    set st [dict get $r status]
    if {[dict get $o -status] ne ""} {
	upvar 1 [dict get $o -status] status
	set status $st
    } elseif {$st != 0} {
	Fail EXIT $host $step "exit status $st[Tail $out]" $st
    }
    return $out
}

# verbs::lab::stop H --
#
#	Stops process H: closes its connection, which hangs up its
#	terminal on the host (SIGHUP to what it runs).  Results: its output
#	so far.

proc ::verbs::lab::stop {h} {
    variable procs
    set r [Handle $h]
    if {[dict get $r status] eq ""} {
	set id [dict get $r id]
	catch {exec kill -HUP [dict get $r pid]}
	catch {::close -i $id}
	catch {::wait -i $id}
    }
    unset procs($h)
    return [dict get $r out]
}

# verbs::lab::cleanup --
#
#	Stops every process started and not yet waited for.

proc ::verbs::lab::cleanup {} {
    variable procs
    foreach h [array names procs] {
	catch {stop $h}
    }
    return
}

# verbs::lab::session SCRIPT --
#
#	Runs SCRIPT in the caller's frame, then stops every process it
#	started and left running, whether it succeeded or failed.
#	Results: SCRIPT's (its error passes through).

proc ::verbs::lab::session {script} {
    catch {uplevel 1 $script} result opts
    cleanup
    dict incr opts -level
    return -options $opts $result
}

# verbs::lab::run HOST COMMAND ?-timeout SECONDS? ?-step NAME?
#		?-status VARNAME? --
#
#	Runs COMMAND (a shell command line) on HOST to its end.  Results:
#	its output (stdout and stderr, as a terminal shows them).  As wait
#	for -status and errors.

proc ::verbs::lab::run {host command args} {
    variable config
    set o [Options [dict create -timeout [dict get $config -timeout] \
	-step [lindex [split [string trim $command]] 0] -status {}] $args]
    set h [Spawn $host [dict get $o -step] $command]
    # (wait, in the caller's place: its -status names a variable there.)
    tailcall wait $h -timeout [dict get $o -timeout] \
	-status [dict get $o -status]
}

# verbs::lab::Quote WORD --
#
#	Results: WORD as one word of the host's shell, single-quoted.

proc ::verbs::lab::Quote {word} {
    return '[string map {' '\\''} $word]'
}

# verbs::lab::TclCommand SCRIPT ARGS --
#
#	Results: a shell command line that runs SCRIPT with the host's
#	tclsh, ARGS being its arguments.  The script travels in a
#	here-document into a temporary file (removed at the end), so that
#	it never passes the terminal and the script's standard input is
#	the terminal, for send.  tclsh runs in the background of a shell
#	that waits for it: a shell waiting for a command in the foreground
#	would run its trap of the hang-up only once tclsh ended, and
#	tclsh, not the session's leader, gets no SIGHUP of its own; the
#	shell's exit on the hang-up gives tclsh its SIGHUP.

proc ::verbs::lab::TclCommand {script arglist} {
    set words [lmap a $arglist {Quote $a}]
    set end VERBS_LAB_[clock microseconds]
    return [join [list \
	{f=$(mktemp /tmp/verbs-lab.XXXXXX) || exit 125} \
	{trap 'rm -f "$f"' EXIT; trap 'exit 129' HUP; trap 'exit 143' TERM} \
	"cat >\"\$f\" <<'$end'" $script $end \
	"tclsh \"\$f\" [join $words] <&0 & wait \$!"] \n]
}

# verbs::lab::tcl HOST SCRIPT ?-args LIST? ?-timeout SECONDS? ?-step NAME?
#		?-status VARNAME? ?-start PATTERN? --
#
#	Runs the Tcl SCRIPT with HOST's tclsh (argv is LIST).  Results: its
#	output, as run; with -start, the script is started instead (as
#	start with -wait PATTERN; an empty PATTERN waits for nothing) and
#	the result is its handle.

proc ::verbs::lab::tcl {host script args} {
    variable config
    set o [Options [dict create -args {} -timeout [dict get $config -timeout] \
	-step tclsh -status {} -start \0] $args]
    set cmd [TclCommand $script [dict get $o -args]]
    if {[dict get $o -start] ne "\0"} {
	return [start $host $cmd -wait [dict get $o -start] \
	    -timeout [dict get $o -timeout] -step [dict get $o -step]]
    }
    tailcall run $host $cmd -timeout [dict get $o -timeout] \
	-step [dict get $o -step] -status [dict get $o -status]
}

# verbs::lab::put HOST LOCAL REMOTE ?-timeout SECONDS? --
#
#	Copies the local file LOCAL to the path REMOTE on HOST, byte for
#	byte (over ssh's standard input, so the host needs no sftp).

proc ::verbs::lab::put {host local remote args} {
    variable config
    set o [Options [dict create -timeout [dict get $config -timeout]] $args]
    if {[catch {exec timeout [dict get $o -timeout] {*}[Ssh $host] \
	    "cat >[Quote $remote]" <$local 2>@1} msg opts]} {
	set code [dict get $opts -errorcode]
	if {[lindex $code 0] eq "CHILDSTATUS" && [lindex $code 2] == 124} {
	    Fail TIMEOUT $host put "cannot copy $local to $remote in\
		[dict get $o -timeout] s"
	}
	regsub {\n?child process exited abnormally$} $msg {} msg
	Fail PUT $host put "cannot copy $local to $remote: $msg"
    }
    return
}

# verbs::lab::install HOST PACKAGE ?-timeout SECONDS? --
#
#	Installs the Debian package file PACKAGE on HOST: copies it there
#	and runs dpkg -i (as the ssh user, who must be root).  Results:
#	dpkg's output.

proc ::verbs::lab::install {host package args} {
    variable config
    set o [Options [dict create -timeout [dict get $config -timeout]] $args]
    set remote /tmp/[file tail $package]
    put $host $package $remote -timeout [dict get $o -timeout]
    set q [Quote $remote]
    return [run $host "dpkg -i $q && rm -f $q" -step "dpkg -i" \
	-timeout [dict get $o -timeout]]
}

# verbs::lab::info HOST ?-timeout SECONDS? --
#
#	Asks HOST what it runs.  Results: a dict of host (its name there),
#	kernel (uname -r), tcl (patchlevel of its tclsh), verbs (the
#	package's version, or "" when it does not load, error then saying
#	why), library (the file of the verbs library it loaded), rdma_core (the
#	version in the file name of the libibverbs it loaded, or "") and
#	devices: for each RDMA device, a dict of port (1), gid_index (port
#	1's, as verbs::gid_index chooses it) and address (the IPv4 address
#	in that GID, or "").

proc ::verbs::lab::info {host args} {
    variable config
    set o [Options [dict create -timeout [dict get $config -timeout]] $args]
    set out [tcl $host {
	set r [dict create host [info hostname] tcl [info patchlevel] \
	    kernel [exec uname -r] verbs {} library {} rdma_core {} devices {} \
	    error {}]
	if {[catch {package require verbs} v]} {
	    dict set r error $v
	} else {
	    dict set r verbs $v
	    dict set r library [lindex [lsearch -inline -index 1 [info loaded] Verbs] 0]
	    set f [open /proc/self/maps]
	    if {[regexp {libibverbs\.so\.1\.[0-9]+\.([0-9.]+)} [read $f] -> rc]} {
		dict set r rdma_core $rc
	    }
	    close $f
	    foreach dev [verbs::devices] {
		set ctx [verbs::context open $dev]
		set g [verbs::gid_index $ctx 1]
		set a {}
		if {[regexp {^0000:0000:0000:0000:0000:ffff:(..)(..):(..)(..)$} \
			[$ctx query gid 1 $g] -> a1 a2 a3 a4]} {
		    set a [join [lmap x [list $a1 $a2 $a3 $a4] {scan $x %x}] .]
		}
		$ctx close
		dict set r devices $dev [dict create port 1 gid_index $g address $a]
	    }
	}
	puts "lab-info: $r"
    } -timeout [dict get $o -timeout] -step info]
    if {![regexp -line {^lab-info: (.*)$} $out -> r]} {
	Fail INFO $host info "no answer[Tail $out]"
    }
    return $r
}
