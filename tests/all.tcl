# all.tcl --
#
#	Runs every *.test file of the verbs suite (each in its own tclsh)
#	and exits non-zero when a test failed or a test file did not run
#	to its end.  Usage: tclsh tests/all.tcl ?tcltest options?

package require tcltest 2.5
namespace import ::tcltest::*

configure -testdir [file dirname [file normalize [info script]]]

# A sanitizer run (tests/asan.sh) starts each test file through a wrapper
# that preloads the runtime into tclsh alone.
if {[info exists env(VERBS_TCLSH)]} {
    interpreter $env(VERBS_TCLSH)
}
unset -nocomplain env(LD_PRELOAD)
configure {*}$argv -singleproc 0

set ::verbsExit 0
proc ::tcltest::cleanupTestsHook {} {
    variable numTests
    variable failFiles
    if {$numTests(Failed) > 0 || [llength $failFiles] > 0} {
	set ::verbsExit 1
    }
}
runAllTests
exit $::verbsExit
