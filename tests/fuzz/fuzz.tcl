# fuzz.tcl --
#
#	The fuzzer's driver (make fuzz runs it where the device is, in the
#	VM without one): runs batches of random calls (batch.tcl), each in
#	a child tclsh of its own, until FUZZ_CALLS calls were made, and
#	counts what happened.  A batch that dies (a signal, or an exit
#	status other than 0) is a crash; one that outlives FUZZ_TIMEOUT
#	seconds is a hang (killed); a sanitizer report on its stderr is
#	counted too.  The reproducer of each such batch (its calls up to
#	the end) is printed between "FUZZ-REPRO-BEGIN name" and
#	"FUZZ-REPRO-END" lines, base64-encoded, for tests/fuzz/run.sh to
#	save under build/fuzz/.
#
#	Environment: FUZZ_CALLS (default 20000), FUZZ_SEED (default from
#	the clock; batch i uses seed SEED+i), FUZZ_BATCH (calls per batch,
#	default 2000), FUZZ_TIMEOUT (seconds per batch, default 120),
#	FUZZ_TCLSH (the child tclsh, default this one; the ASan run gives
#	its wrapper), FUZZ_VERBOSE=1 (each batch's tree size and slowest
#	calls).
#
#	Output: the seed first; at the end "fuzz: calls N errors N nocode N
#	crashes N hangs N sanitizer N seconds S rate R/s".  The exit status
#	is 1 when anything but plain errors happened.

set here [file dirname [file normalize [info script]]]
proc setting {name default} {
    global env
    if {[info exists env($name)] && $env($name) ne ""} {
	return $env($name)
    }
    return $default
}
set total [setting FUZZ_CALLS 20000]
set seed [setting FUZZ_SEED [expr {[clock milliseconds] % 1000000000}]]
set batch [setting FUZZ_BATCH 2000]
set limit [setting FUZZ_TIMEOUT 120]
set tclsh [setting FUZZ_TCLSH [info nameofexecutable]]
set tmp [setting TMPDIR /tmp]

puts "fuzz: seed $seed, $total calls in batches of $batch, timeout ${limit}s"
flush stdout

array set sum {calls 0 errors 0 nocode 0 crashes 0 hangs 0 sanitizer 0}
set nocodeSeen {}
set start [clock milliseconds]

# runBatch I -- run batch I; returns {status stdout stderr}.
proc runBatch {i n} {
    global tclsh here seed limit tmp
    set log [file join $tmp fuzz-batch-$i.tcl]
    set err [file join $tmp fuzz-batch-$i.err]
    set chan [open |[list $tclsh [file join $here batch.tcl] \
	[expr {$seed + $i}] $n $log 2> $err] r]
    fconfigure $chan -encoding utf-8
    # A batch echoes fuzzed strings, not always valid UTF-8: Tcl 9 would
    # fail the read below (its strict profile), its handler would never
    # see the end, and the batch would count as a hang.
    catch {fconfigure $chan -profile replace}
    set pids [pid $chan]
    set ::batchOut($i) {}
    set ::done($i) 0
    fileevent $chan readable [list apply {{chan i} {
	append ::batchOut($i) [read $chan]
	if {[eof $chan]} {
	    fileevent $chan readable {}
	    set ::done($i) 1
	}
    }} $chan $i]
    set timer [after [expr {$limit * 1000}] [list set ::done($i) hang]]
    vwait ::done($i)
    after cancel $timer
    set status ok
    if {$::done($i) eq "hang"} {
	foreach p $pids {
	    catch {exec kill -9 $p}
	}
	set status hang
    }
    fconfigure $chan -blocking 1
    if {[catch {close $chan} msg opts]} {
	set code [dict get $opts -errorcode]
	if {$status ne "hang"} {
	    switch -- [lindex $code 0] {
		CHILDKILLED {set status "crash [lindex $code 2]"}
		CHILDSTATUS {set status "crash exit [lindex $code 2]"}
		default {
		    # Only stderr output: the child ended normally.
		}
	    }
	}
    }
    set f [open $err]
    fconfigure $f -encoding utf-8
    set errText [read $f]
    close $f
    list $status $::batchOut($i) $errText $log $err
}

set i 0
while {$sum(calls) < $total} {
    set n [expr {min($batch, $total - $sum(calls))}]
    lassign [runBatch $i $n] status out errText log errFile
    set stats {}
    foreach line [split $out \n] {
	switch -glob -- $line {
	    "FUZZ-STATS *" {set stats [lrange $line 1 end]}
	    "FUZZ-SLOW *" - "FUZZ-TREE *" {
		if {[setting FUZZ_VERBOSE 0]} {
		    puts "fuzz: $line"
		}
	    }
	    "FUZZ-NOCODE *" {
		set sig [lindex $line 1]
		if {$sig ni $nocodeSeen} {
		    lappend nocodeSeen $sig
		    puts "fuzz: error without an errorCode: $line"
		}
	    }
	}
    }
    set san [regexp {ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:} \
	$errText]
    if {$stats ne ""} {
	lassign $stats c e nc
    } else {
	# Died before its end: count the calls its reproducer holds.
	set c 0
	if {[file exists $log]} {
	    set f [open $log]
	    foreach line [split [read $f] \n] {
		if {[string match "catch *" $line]} {
		    incr c
		}
	    }
	    close $f
	}
	set e 0
	set nc 0
    }
    incr sum(calls) [expr {max($c, 1)}]
    incr sum(errors) $e
    incr sum(nocode) $nc
    if {$status eq "hang"} {
	incr sum(hangs)
    } elseif {$status ne "ok"} {
	incr sum(crashes)
    }
    if {$san} {
	incr sum(sanitizer)
    }
    if {$status ne "ok" || $san} {
	set name "fuzz-[expr {$seed + $i}]-[lindex $status 0][expr {$san ? "-san" : ""}]"
	puts "fuzz: batch $i (seed [expr {$seed + $i}]): $status[expr {$san ? ", sanitizer report" : ""}]; reproducer $name.tcl"
	foreach line [lrange [split [string trimright $errText] \n] 0 40] {
	    puts "fuzz:   $line"
	}
	puts "FUZZ-REPRO-BEGIN $name.tcl"
	set f [open $log rb]
	puts [binary encode base64 -maxlen 76 [read $f]]
	close $f
	puts "FUZZ-REPRO-END"
	puts "FUZZ-REPRO-BEGIN $name.err"
	puts [binary encode base64 -maxlen 76 [encoding convertto utf-8 $errText]]
	puts "FUZZ-REPRO-END"
    }
    file delete $log $errFile
    incr i
    set secs [expr {([clock milliseconds] - $start) / 1000.0}]
    puts [format "fuzz: batch %d done, %d calls, %.0f s" $i $sum(calls) $secs]
    flush stdout
}

set secs [expr {max(([clock milliseconds] - $start) / 1000.0, 0.001)}]
puts [format "fuzz: seed %s calls %d errors %d nocode %d crashes %d hangs %d sanitizer %d seconds %.0f rate %.0f/s" \
    $seed $sum(calls) $sum(errors) $sum(nocode) $sum(crashes) $sum(hangs) \
    $sum(sanitizer) $secs [expr {$sum(calls) / $secs}]]
exit [expr {$sum(crashes) + $sum(hangs) + $sum(sanitizer) + $sum(nocode) > 0}]
