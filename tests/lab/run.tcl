# run.tcl --
#
#	The lab's suite, run by tests/lab/lab.sh (make lab) as the lab's
#	controller: installs the package on each host when it is given
#	(VERBS_LAB_PACKAGES: "STACK=FILE.deb ...", each host getting the
#	one of its stack, which the host's VERBS_LAB_STACK names; all hosts
#	install at once), then runs the *.test files here in this process
#	and ends with "N passed, N failed, N skipped"; the exit status is
#	1 when a test failed.  Arguments are tcltest's options (-match,
#	-file, -verbose).  (Not named all.tcl: tcltest's runAllTests runs
#	the all.tcl of each subdirectory, and the host suite's would run
#	this one without a lab.)
#
# Copyright (c) 2026 The verbs authors.
# See the file "LICENSE" for terms of use and redistribution.

package require tcltest 2.5
namespace import ::tcltest::*
package require verbs::lab

configure -testdir [file dirname [file normalize [info script]]] \
    -singleproc 1 -notfile {} {*}$argv

if {[info exists env(VERBS_LAB_PACKAGES)] && $env(VERBS_LAB_PACKAGES) ne ""} {
    set packages {}
    foreach p $env(VERBS_LAB_PACKAGES) {
	lassign [split $p =] stack file
	dict set packages $stack $file
    }
    set t [clock milliseconds]
    set running {}
    foreach h [verbs::lab hosts] {
	set stack [string trim [verbs::lab run $h {echo $VERBS_LAB_STACK} \
	    -step stack]]
	if {$stack eq "custom"} {
	    # A stack of the user's runs the extension's build against it.
	    continue
	}
	if {![dict exists $packages $stack]} {
	    puts stderr "run.tcl: no package for $h's stack \"$stack\""
	    exit 1
	}
	set file [dict get $packages $stack]
	set remote /tmp/[file tail $file]
	verbs::lab put $h $file $remote -timeout 120
	lappend running $h [file tail $file] \
	    [verbs::lab start $h "dpkg -i '$remote'" -step "dpkg -i"]
    }
    foreach {h file p} $running {
	verbs::lab wait $p -timeout 300
	puts "run.tcl: $h: installed $file"
    }
    puts "run.tcl: packages installed in\
	[expr {([clock milliseconds] - $t) / 1000.0}] s"
}

# The last call of the hook (at the end of runAllTests) sees the totals.
proc ::tcltest::cleanupTestsHook {} {
    set ::labTotals [array get ::tcltest::numTests]
}
runAllTests
set n $::labTotals
puts "[dict get $n Passed] passed, [dict get $n Failed] failed,\
    [dict get $n Skipped] skipped"
exit [expr {[dict get $n Failed] > 0}]
