# upstream.tcl --
#
#	The two halves of make test-upstream (tests/upstream.sh) put side by
#	side: rdma-core's own suite, as tests/upstream.py reports it, and the
#	twins tests/upstream.map names, as tcltest reports them.
#
#	tclsh upstream.tcl twins MAP
#	    prints the names of all the twins MAP names, as one list
#	tclsh upstream.tcl table MAP WHY LANE LOG OUT
#	    reads the VM's output LOG, prints the table (also written to OUT),
#	    a line "upstream (LANE): ..." and "N passed, N failed, N
#	    skipped"; exits 1 when a row fails (see rowOf)
#
#	WHY (tests/upstream.why) holds the reasons for the disagreements
#	that are not bugs here: "LANE CASE REASON", LANE being default, next
#	or both.

namespace eval upstream {}

# upstream::readMap --
#	The cases of MAP and their twins (a test name, or "-" when the line
#	gives a reason instead).

proc upstream::readMap {file} {
    set f [open $file]
    set text [read $f]
    close $f
    set map {}
    foreach line [split $text \n] {
	if {[regexp {^(test_\w+\.py::test_\w+)\s+(\S+)} $line - case twin]} {
	    dict set map $case $twin
	}
    }
    return $map
}

# upstream::readWhy --
#	The reasons of WHY that apply to LANE: a dict of case to reason.

proc upstream::readWhy {file lane} {
    set why {}
    if {![file exists $file]} {
	return $why
    }
    set f [open $file]
    set text [read $f]
    close $f
    set n 0
    foreach line [split $text \n] {
	incr n
	if {[string match #* $line] || [string trim $line] eq ""} continue
	if {![regexp {^(default|next|both)\s+(test_\w+\.py::\w+)\s+(\S.*)$} \
		$line - l case reason]} {
	    puts stderr "upstream.tcl: $file:$n: malformed line: $line"
	    exit 1
	}
	if {$l eq $lane || $l eq "both"} {
	    dict set why $case $reason
	}
    }
    return $why
}

# upstream::readLog --
#	The results in the VM's output: a dict with "upstream" (case ->
#	{result why}, in the suite's order) and "twins" (test -> result).

proc upstream::readLog {file} {
    set f [open $file]
    set text [string map {\r {}} [read $f]]
    close $f
    set up {}
    set twins {}
    set done 0
    foreach line [split $text \n] {
	if {[regexp {^upstream: (passed|failed|error|skipped|xfail|xpass) (\S+) ?(.*)$} \
		$line - result case why]} {
	    dict set up $case [list $result $why]
	} elseif {[regexp {^upstream: done } $line]} {
	    set done 1
	} elseif {[regexp {^\+\+\+\+ (\S+) PASSED$} $line - t]} {
	    dict set twins $t passed
	} elseif {[regexp {^\+\+\+\+ (\S+) SKIPPED: (.*)$} $line - t c]} {
	    dict set twins $t [list skipped $c]
	} elseif {[regexp {^==== (\S+) .*FAILED$} $line - t]} {
	    dict set twins $t failed
	}
    }
    dict create upstream $up twins $twins done $done
}

# upstream::rowOf --
#	The verdict on one case: a list {KIND NOTE}, KIND being agree (both
#	ran and agree, or only the twin ran), skipped (neither ran), or fail
#	(a twin failed, or a disagreement WHY does not explain); an
#	explained disagreement is agree with the reason as its note, and
#	marks the reason used.

proc upstream::rowOf {u t reason} {
    set tr [lindex $t 0]
    if {$tr eq "failed"} {
	return [list fail "the twin fails"]
    }
    if {$tr eq "missing"} {
	return [list fail "the twin did not run"]
    }
    switch -- $u {
	passed {
	    if {$tr eq "passed"} {
		return [list agree ""]
	    }
	    set what [expr {$tr eq "none" ? "no twin" : "the twin skips"}]
	}
	skipped {
	    if {$tr eq "passed"} {
		return [list agree "twin only"]
	    }
	    return [list skipped ""]
	}
	default {
	    set what "upstream $u"
	    if {$tr eq "passed"} {
		append what ", the twin passes"
	    }
	}
    }
    if {$reason ne ""} {
	return [list agree "$what: $reason" explained]
    }
    return [list fail "$what, and upstream.why gives no reason"]
}

proc upstream::table {mapFile whyFile lane logFile outFile} {
    set map [readMap $mapFile]
    set why [readWhy $whyFile $lane]
    set log [readLog $logFile]
    set up [dict get $log upstream]
    set twins [dict get $log twins]
    set out {}
    set count [dict create agree 0 fail 0 skipped 0]
    set ucount {}
    set tcount {}
    set explained 0
    set used {}
    lappend out [format "%-66s %-8s %-15s %-8s %s" "upstream case ($lane lane)" \
	    result twin result note]
    dict for {case r} $up {
	lassign $r u uwhy
	dict incr ucount $u
	set twin -
	if {[dict exists $map $case]} {
	    set twin [dict get $map $case]
	}
	if {$twin eq "-"} {
	    set t none
	} elseif {[dict exists $twins $twin]} {
	    set t [dict get $twins $twin]
	} else {
	    set t missing
	}
	dict incr tcount [lindex $t 0]
	set reason [expr {[dict exists $why $case] ? [dict get $why $case] : ""}]
	lassign [rowOf $u $t $reason] kind note isExplained
	if {$isExplained ne ""} {
	    incr explained
	    dict set used $case 1
	}
	dict incr count $kind
	if {$note eq "" && $u ni {passed skipped}} {
	    set note $uwhy
	}
	if {$kind eq "fail"} {
	    set note "FAIL: $note"
	    if {$uwhy ne "" && $u ne "skipped"} {
		append note " (upstream: $uwhy)"
	    }
	}
	lappend out [format "%-66s %-8s %-15s %-8s %s" $case $u $twin \
		[lindex $t 0] $note]
    }
    dict for {case reason} $why {
	if {![dict exists $used $case]} {
	    dict incr count fail
	    lappend out "FAIL: upstream.why explains $case, which agrees\
		    (or is not in this lane's suite): drop or correct the line"
	}
    }
    if {![dict get $log done]} {
	dict incr count fail
	lappend out "FAIL: the upstream suite did not run to its end"
    }
    if {[dict size $twins] == 0} {
	dict incr count fail
	lappend out "FAIL: no twin ran"
    }
    set f [open $outFile w]
    puts $f [join $out \n]
    close $f
    puts [join $out \n]
    set fmt {}
    foreach {k label} {passed passed failed failed error errors
	    skipped skipped xfail "expected failures" xpass "unexpected successes"} {
	if {[dict exists $ucount $k]} {
	    lappend fmt "[dict get $ucount $k] $label"
	}
    }
    set tfmt {}
    foreach {k label} {passed passed failed failed skipped skipped
	    none "without a twin" missing "did not run"} {
	if {[dict exists $tcount $k]} {
	    lappend tfmt "[dict get $tcount $k] $label"
	}
    }
    puts "upstream ($lane): [dict size $up] cases, upstream [join $fmt {, }];\
	    twins [join $tfmt {, }]; $explained disagreements explained,\
	    [dict get $count fail] failing rows"
    puts "[dict get $count agree] passed, [dict get $count fail] failed,\
	    [dict get $count skipped] skipped"
    expr {[dict get $count fail] > 0}
}

switch -- [lindex $argv 0] {
    twins {
	set names {}
	dict for {case twin} [upstream::readMap [lindex $argv 1]] {
	    if {$twin ne "-" && $twin ni $names} {
		lappend names $twin
	    }
	}
	puts [join $names]
    }
    table {
	if {[llength $argv] != 6} {
	    puts stderr "usage: upstream.tcl table MAP WHY LANE LOG OUT"
	    exit 2
	}
	exit [upstream::table {*}[lrange $argv 1 end]]
    }
    default {
	puts stderr "usage: upstream.tcl twins MAP | table MAP WHY LANE LOG OUT"
	exit 2
    }
}
