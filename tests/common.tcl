# common.tcl --
#
#	Sourced by every test file: loads tcltest, verbs and the kit
#	verbs::tcltest (library/tcltest.tcl, doc/verbs_tcltest.n), whose
#	init chooses the device and sets the constraints that describe it:
#
#	device     an RDMA device to test against: $env(VERBS_DEVICE), or
#	           the first device of [verbs::devices]
#	twodevices a second device, $env(VERBS_DEVICE2), on the same
#	           network as the first (the VM's rxe1)
#	rxe, mlx5, efa  the device's kind
#	nodevice   no RDMA device at all (no-device behaviour)
#	rdmacm     two devices with IPv4 addresses ($env(VERBS_IP0/1))
#	(and the capability constraints of the kit's manual)
#
#	What is this project's own is here: the lanes' constraints, the
#	VM's kernel log marks, and the helpers of its own checks.  The vt::
#	names are the suite's shorthand for the kit's commands.
#
#	vm         running in the Soft-RoCE VM of tests/vm
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
#	tcl9       running under Tcl 9 (make test-tcl9, make test-next)

package require tcltest 2.5
unset -nocomplain ::env(LD_PRELOAD)	;# see all.tcl
if {[info exists ::env(VERBS_TCLSH)]} {
    ::tcltest::interpreter $::env(VERBS_TCLSH)
}
namespace import -force ::tcltest::*
eval configure $argv
package require verbs

package require verbs::tcltest
verbs::tcltest::init

# The kit's device, second device and port, under the suite's names.
namespace eval ::vt {
    namespace upvar ::verbs::tcltest device dev device2 dev2 port port
}
foreach cmd {gidIndex errorOf closeAll capable knownOn traffic pollOne} {
    interp alias {} ::vt::$cmd {} ::verbs::tcltest::$cmd
}
unset cmd

# vt::players TYPE CQCMD --
#	The kit's pair with the CQ that CQCMD makes (a command prefix given
#	the context, returning a dict with cq).

proc ::vt::players {type cqcmd} {
    verbs::tcltest::pair $type -cq $cqcmd
}

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

# vt::tcpListening PORT --
#	Whether some socket listens on TCP PORT, as /proc/net/tcp{,6} say:
#	for a server that prints nothing when it listens.  Probing with a
#	connection would use up the server's only accept.

proc ::vt::tcpListening {port} {
    set hex [format :%04X $port]
    foreach file {/proc/net/tcp /proc/net/tcp6} {
	if {[catch {open $file} f]} {
	    continue
	}
	set lines [split [read $f] \n]
	close $f
	foreach line [lrange $lines 1 end] {
	    if {[string match *$hex [lindex $line 1]]
		    && [lindex $line 3] eq "0A"} {
		return 1
	    }
	}
    }
    return 0
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
