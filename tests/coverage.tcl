# coverage.tcl --
#
#	The report of make coverage (tests/coverage.sh): gcov over the counts
#	of build/coverage, one row per file of generic/, the hardware-only
#	functions (tests/coverage.hw) apart.
#
#	tclsh coverage.tcl SRCDIR BUILDDIR
#
#	Prints the table, the hardware-only list with what each needs, the
#	functions outside it that nothing called, and the line
#	"coverage: lines L% branches B% (of the lines not hardware-only: H%)".
#	Exits 1 when gcov fails or a line of coverage.hw names no function.

namespace eval cov {}

# cov::readHw --
#	coverage.hw: "FILE REASON" (the whole file) or "FILE:FUNCTION
#	REASON", FILE relative to generic/.  A dict of FILE or FILE:FUNCTION
#	to the reason.

proc cov::readHw {file} {
    set hw {}
    set f [open $file]
    foreach line [split [read $f] \n] {
	if {[string match #* $line] || [string trim $line] eq ""} continue
	if {![regexp {^(\S+)\s+(\S.*)$} $line - what why]} {
	    puts stderr "coverage.tcl: $file: malformed line: $line"
	    exit 1
	}
	dict set hw $what $why
    }
    close $f
    return $hw
}

# cov::gcovFile --
#	Runs gcov over one source file in the build directory and reads its
#	.gcov: a dict of functions, each {calls LINES RUN BRANCHES TAKEN}
#	(executable lines, lines run, branches, branches taken).

proc cov::gcovFile {src bdir} {
    set name [file tail $src]
    if {[catch {exec gcov -b -c -o $bdir $src 2>@1} out]} {
	error "gcov $name: $out"
    }
    set fns {}
    set gcov [file join $bdir $name.gcov]
    if {![file exists $gcov]} {
	return $fns
    }
    set f [open $gcov]
    set fn ""
    foreach line [split [read $f] \n] {
	if {[regexp {^function (\S+) called (\d+)} $line - fn calls]} {
	    dict set fns $fn [list $calls 0 0 0 0]
	    continue
	}
	if {$fn eq ""} continue
	if {[regexp {^\s*(#####|=====|\d+\*?):\s*\d+:} $line - count]} {
	    set v [dict get $fns $fn]
	    lset v 1 [expr {[lindex $v 1] + 1}]
	    if {[string is digit [string trimright $count *]]} {
		lset v 2 [expr {[lindex $v 2] + 1}]
	    }
	    dict set fns $fn $v
	} elseif {[regexp {^branch\s+\d+ (taken (\d+)|never executed)} $line - - n]} {
	    set v [dict get $fns $fn]
	    lset v 3 [expr {[lindex $v 3] + 1}]
	    if {$n ne "" && $n > 0} {
		lset v 4 [expr {[lindex $v 4] + 1}]
	    }
	    dict set fns $fn $v
	}
    }
    close $f
    return $fns
}

proc cov::pct {a b} {
    if {$b == 0} {
	return "  -  "
    }
    format %5.1f [expr {100.0 * $a / $b}]
}

proc cov::main {srcdir bdir} {
    set hw [readHw [file join $srcdir tests coverage.hw]]
    # gcov finds the sources by the paths the build gave them, relative
    # to the build directory: it runs there, its .gcov files land there.
    set here [pwd]
    cd $bdir
    set rows {}
    set tot [dict create lines 0 run 0 br 0 taken 0 hwLines 0 hwRun 0]
    set used {}
    set uncalled {}
    set hwList {}
    foreach src [lsort [glob -directory [file join $srcdir generic] *.c]] {
	set file [file tail $src]
	set fns [gcovFile $src $bdir]
	set r [dict create lines 0 run 0 br 0 taken 0 hwLines 0 hwRun 0]
	dict for {fn v} $fns {
	    lassign $v calls lines run br taken
	    set why ""
	    foreach key [list $file $file:$fn] {
		if {[dict exists $hw $key]} {
		    set why [dict get $hw $key]
		    dict set used $key 1
		}
	    }
	    dict incr r lines $lines
	    dict incr r run $run
	    dict incr r br $br
	    dict incr r taken $taken
	    if {$why ne ""} {
		dict incr r hwLines $lines
		dict incr r hwRun $run
		if {[dict exists $hw $file:$fn]} {
		    lappend hwList [format "  %-40s %4d lines %4d run  %s" \
			$file:$fn $lines $run $why]
		}
	    } elseif {$calls == 0 && $lines > 0} {
		lappend uncalled [format "  %-40s %4d lines" $file:$fn $lines]
	    }
	}
	if {[dict exists $hw $file]} {
	    lappend hwList [format "  %-40s %4d lines %4d run  %s" $file \
		[dict get $r lines] [dict get $r run] [dict get $hw $file]]
	}
	foreach k {lines run br taken hwLines hwRun} {
	    dict incr tot $k [dict get $r $k]
	}
	lappend rows [format "%-20s %5d %5d %s%%   %5d %5d %s%%   %5d" $file \
	    [dict get $r lines] [dict get $r run] \
	    [pct [dict get $r run] [dict get $r lines]] \
	    [dict get $r br] [dict get $r taken] \
	    [pct [dict get $r taken] [dict get $r br]] [dict get $r hwLines]]
    }
    cd $here
    puts [format "%-20s %5s %5s %6s   %5s %5s %6s   %5s" file lines run "" \
	branches taken "" hw-only]
    puts [join $rows \n]
    puts [format "%-20s %5d %5d %s%%   %5d %5d %s%%   %5d" total \
	[dict get $tot lines] [dict get $tot run] \
	[pct [dict get $tot run] [dict get $tot lines]] \
	[dict get $tot br] [dict get $tot taken] \
	[pct [dict get $tot taken] [dict get $tot br]] [dict get $tot hwLines]]
    puts "\nhardware-only (tests/coverage.hw), [dict get $tot hwLines] lines,\
	    [dict get $tot hwRun] of them run on rxe:"
    puts [join $hwList \n]
    puts "\nfunctions nothing called, outside the hardware-only list\
	    ([llength $uncalled]):"
    puts [join $uncalled \n]
    set status 0
    dict for {key why} $hw {
	if {![dict exists $used $key]} {
	    puts "coverage.tcl: tests/coverage.hw names $key, which has no\
		    counted lines"
	    set status 1
	}
    }
    set soft [expr {[dict get $tot lines] - [dict get $tot hwLines]}]
    set softRun [expr {[dict get $tot run] - [dict get $tot hwRun]}]
    puts "coverage: lines [string trim [pct [dict get $tot run] \
	[dict get $tot lines]]]% branches [string trim [pct \
	[dict get $tot taken] [dict get $tot br]]]% (of the lines not\
	hardware-only: [string trim [pct $softRun $soft]]%)"
    return $status
}

if {[llength $argv] != 2} {
    puts stderr "usage: coverage.tcl SRCDIR BUILDDIR"
    exit 2
}
exit [cov::main {*}$argv]
