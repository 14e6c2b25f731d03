# shell.tcl --
#
#	The tclsh behind "make shell" (tests/run-tests.sh shell): loads the
#	verbs package and then behaves like an interactive tclsh.
#
#	stdin a terminal  prints a banner naming the devices (in the
#	                  Soft-RoCE VM: rxe0 and rxe1 with their addresses),
#	                  then reads commands at a "% " prompt, a command
#	                  spanning lines (an open brace or quote) being read
#	                  until it is complete, as tclsh does; "exit" or
#	                  Ctrl-D at the prompt ends it.
#	otherwise         reads the whole of stdin as a script and runs it,
#	                  like "tclsh FILE": an error prints the stack trace
#	                  and exits with status 1.
#
#	Usage: tclsh shell.tcl   (TCLLIBPATH naming the build directory)

package require verbs

apply {{} {
    # The user's commands run at global level with only the usual
    # variables there; everything of this script is local to this lambda.
    set ::argv {}
    set ::argc 0
    info script {}
    set tty [expr {![catch {fconfigure stdin -mode}]}]

    if {!$tty} {
	set script [read stdin]
	if {[catch {uplevel #0 $script}]} {
	    # The trace as tclsh FILE would show it, without this script.
	    set trace [regsub {\n    invoked from within\n"uplevel #0 \$script"$} \
		    $::errorInfo {}]
	    puts stderr [regsub {\("uplevel" body (line \d+)\)$} $trace \
		    {(standard input \1)}]
	    exit 1
	}
	exit 0
    }

    set ::tcl_interactive 1
    set devices [verbs::devices]
    if {[info exists ::env(VERBS_VM)]} {
	set where "in the Soft-RoCE VM"
	set addrs {}
	foreach {dv ip} {VERBS_DEVICE VERBS_IP0 VERBS_DEVICE2 VERBS_IP1} {
	    if {[info exists ::env($dv)] && [info exists ::env($ip)]} {
		lappend addrs "$::env($dv) on $::env($ip)"
	    }
	}
    } else {
	set where "on this host"
	set addrs {}
    }
    if {[llength $devices]} {
	set line "verbs shell $where: devices [join $devices]"
	if {[llength $addrs]} {
	    append line " ([join $addrs {, }])"
	}
    } else {
	set line "verbs shell $where: no RDMA device"
    }
    puts $line
    puts "package verbs [package present verbs] loaded;\
	    leave with \"exit\" or Ctrl-D"

    # As tclsh: the user's ~/.tclshrc, then the prompts of tcl_prompt1 and
    # tcl_prompt2 when it sets them.
    set rc [file join [file normalize ~] .tclshrc]
    if {[file readable $rc] && [catch {uplevel #0 [list source $rc]} msg]} {
	puts stderr $msg
    }

    set cmd {}
    while 1 {
	set var [expr {$cmd eq {} ? "tcl_prompt1" : "tcl_prompt2"}]
	if {[info exists ::$var]} {
	    if {[catch {uplevel #0 [set ::$var]} msg]} {
		puts stderr $msg
	    }
	} elseif {$cmd eq {}} {
	    puts -nonewline "% "
	}
	flush stdout
	if {[gets stdin line] < 0} {
	    if {[eof stdin]} {
		# Ctrl-D: end the prompt's line, then leave.
		puts ""
		exit 0
	    }
	    continue
	}
	append cmd $line \n
	if {![info complete $cmd]} {
	    continue
	}
	history add $cmd
	set code [catch {uplevel #0 $cmd} result]
	set cmd {}
	switch -- $code {
	    0 - 2 {
		if {$result ne {}} {
		    puts $result
		}
	    }
	    1 {
		flush stdout
		puts stderr $result
	    }
	    3 {
		puts stderr {invoked "break" outside of a loop}
	    }
	    4 {
		puts stderr {invoked "continue" outside of a loop}
	    }
	    default {
		puts stderr "command returned bad code: $code"
	    }
	}
    }
}}
