# all.tcl --
#
#	The lab's suite, run by tests/lab/lab.sh (make lab) as the lab's
#	controller: installs the package on each host when it is given
#	(VERBS_LAB_PACKAGES: "STACK=FILE.deb ...", each host getting the
#	one of its stack, which verbs::lab::info tells by the host's
#	VERBS_LAB_STACK), then runs the *.test files here in this process
#	and ends with "N passed, N failed, N skipped"; the exit status is
#	1 when a test failed.  Arguments are tcltest's options (-match,
#	-file, -verbose).
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
    foreach h [verbs::lab hosts] {
	set stack [string trim [verbs::lab run $h {echo $VERBS_LAB_STACK} -step stack]]
	if {![dict exists $packages $stack]} {
	    puts stderr "all.tcl: no package for $h's stack \"$stack\""
	    exit 1
	}
	set t [clock milliseconds]
	verbs::lab install $h [dict get $packages $stack] -timeout 300
	puts "all.tcl: $h: installed [file tail [dict get $packages $stack]]\
	    ([expr {([clock milliseconds] - $t) / 1000.0}] s)"
    }
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
