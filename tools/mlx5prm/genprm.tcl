# genprm.tcl --
#
#	Generates generic/mlx5PrmTable.c, the mlx5 PRM table of the verbs
#	package, from the Linux kernel's include/linux/mlx5/mlx5_ifc.h.
#
#	Usage: tclsh genprm.tcl INCLUDE_DIR VERSION OUTPUT.c
#
#	INCLUDE_DIR holds linux/mlx5/{mlx5_ifc.h,mlx5_ifc_fpga.h,device.h}
#	(a kernel tree's include/ or /usr/src/linux-headers-*-common/include);
#	VERSION names where they come from (it goes into the output's header).
#
#	How: every member of a mlx5_ifc_*_bits struct is an array of u8, one
#	u8 per bit, so the C compiler's offsetof and sizeof give each field's
#	bit offset and width.  This script reads the struct and union names
#	and their members from the header (a light parse: the header is
#	regular), writes a C program that prints offsetof/sizeof of each,
#	compiles and runs it, adds the DevX-only fields of overlay.txt
#	(checked to lie inside reserved ranges), and writes the table: the
#	types sorted by name, their named fields (reserved_* ones dropped),
#	one string pool of names, the command opcodes (MLX5_CMD_OP_*), the
#	general object types (MLX5_OBJ_TYPE_*) and the command statuses
#	(MLX5_CMD_STAT_* of device.h).
#
# Copyright (c) 2026 The verbs authors.
# See the file "LICENSE" for terms of use and redistribution.

if {[llength $argv] != 3} {
    puts stderr "usage: tclsh genprm.tcl INCLUDE_DIR VERSION OUTPUT.c"
    exit 2
}
lassign $argv incdir version output
set here [file dirname [file normalize [info script]]]
set mlx5dir [file join $incdir linux mlx5]

proc slurp {path} {
    set f [open $path]
    set text [read $f]
    close $f
    return $text
}

# Strip the comments: a struct member may carry one.
proc uncomment {text} {
    regsub -all {/\*.*?\*/} $text {} text
    regsub -all {//[^\n]*} $text {} text
    return $text
}

#
# Parse: types(NAME) = {kind members}, a member {name decl} where decl is
# "u8 DIMS" (DIMS like [0x20], [4][0x20], [][0x40]) or "struct|union
# TYPE DIMS".  A named inline union/struct becomes its own type
# PARENT__NAME; an unnamed one is flattened into its parent.
#
set order {}
proc parseHeader {text} {
    global types order cnames
    set stack {}
    set pending ""
    foreach line [split [uncomment $text] \n] {
	set line [string trim "$pending $line"]
	set pending ""
	if {$line eq ""} continue
	if {[llength $stack] && ![regexp {[;{}]$} $line]} {
	    # A member declared over several lines.
	    set pending $line
	    continue
	}
	if {[regexp {^(struct|union)\s+mlx5_ifc_(\w+)\s*\{$} $line -> kind cname]} {
	    regsub {_bits$} $cname {} name
	    set cnames($name) $cname
	    set stack [list [list $name $kind {} {}]]
	    continue
	}
	if {![llength $stack]} continue
	if {[regexp {^(struct|union)\s*\{$} $line -> kind]} {
	    lappend stack [list {} $kind {} {}]
	    continue
	}
	if {[regexp {^\}\s*(\w*)\s*;$} $line -> mname]} {
	    set top [lindex $stack end]
	    set stack [lrange $stack 0 end-1]
	    lassign $top name kind members
	    if {![llength $stack]} {
		set types($name) [list $kind $members]
		lappend order $name
		continue
	    }
	    set parent [lindex $stack end]
	    if {$mname eq ""} {
		# Anonymous: its members are the parent's.
		lset parent 2 [concat [lindex $parent 2] $members]
	    } else {
		set pname [lindex $stack 0 0]
		set tname ${pname}__$mname
		set types($tname) [list $kind $members]
		lappend order $tname
		lset parent 2 [concat [lindex $parent 2] \
			[list [list $mname inline $tname {}]]]
	    }
	    lset stack end $parent
	    continue
	}
	if {[regexp {^u8\s+(\w+)\s*((?:\[[^\]]*\])+)\s*;$} $line -> m dims]} {
	    set decl [list $m u8 {} $dims]
	} elseif {[regexp {^(?:struct|union)\s+mlx5_ifc_(\w+)\s+(\w+)\s*((?:\[[^\]]*\])*)\s*;$} \
		$line -> t m dims]} {
	    regsub {_bits$} $t {} t
	    set decl [list $m sub $t $dims]
	} elseif {[regexp {^DECLARE_FLEX_ARRAY\(\s*(?:struct|union)\s+mlx5_ifc_(\w+)\s*,\s*(\w+)\s*\)\s*;$} \
		$line -> t m]} {
	    # Newer kernels' flexible arrays (linux/stddef.h).
	    regsub {_bits$} $t {} t
	    set decl [list $m sub $t {[]}]
	} else {
	    error "genprm: cannot parse member line \"$line\""
	}
	set top [lindex $stack end]
	lset top 2 [concat [lindex $top 2] [list $decl]]
	lset stack end $top
    }
}

parseHeader [slurp [file join $mlx5dir mlx5_ifc_fpga.h]]
parseHeader [slurp [file join $mlx5dir mlx5_ifc.h]]

#
# The C program: for each type, "T name kind bits"; for each member
# "M name offset total element", all in bits (flexible arrays: total 0).
# A member of an inline type is reached through its parent.
#
proc ctype {name} {
    global types cnames
    if {[regexp {^(\w+?)__(\w+)$} $name -> parent mname]} {
	return [list [lindex [ctype $parent] 0] $mname]
    }
    return [list "[lindex $types($name) 0] mlx5_ifc_$cnames($name)" {}]
}

set c {#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
#define BIT(n) (1UL << (n))
#define BIT_ULL(n) (1ULL << (n))
#define DECLARE_FLEX_ARRAY(TYPE, NAME) struct { struct { } __empty_ ## NAME; TYPE NAME[]; }
#include "mlx5_ifc.h"
}
append c "int main(void) \{\n"
foreach name $order {
    lassign [ctype $name] root path
    set pre [expr {$path eq "" ? "" : "$path."}]
    if {$path eq ""} {
	set sz "sizeof($root)"
	set base 0
    } else {
	set sz "sizeof((($root *)0)->$path)"
	set base "offsetof($root, $path)"
    }
    append c "  printf(\"T $name [lindex $types($name) 0] %zu\\n\", $sz);\n"
    foreach m [lindex $types($name) 1] {
	lassign $m mname how sub dims
	set ref "(($root *)0)->$pre$mname"
	if {[string match {\[\]*} $dims]} {
	    set total 0
	} else {
	    set total "sizeof($ref)"
	}
	if {[regexp {^\[[^\]]*\]\[} $dims] || ($how eq "sub" && $dims ne "")} {
	    set elem "sizeof($ref\[0\])"
	} else {
	    set elem "(size_t)0"
	}
	set mtype [expr {$how eq "u8" ? "-" : $sub}]
	append c "  printf(\"M $mname %zu %zu %zu $mtype\\n\",\
		offsetof($root, $pre$mname) - $base, (size_t)$total, $elem);\n"
    }
}
append c "  return 0;\n\}\n"

set tmp [file join [expr {[info exists env(TMPDIR)] ? $env(TMPDIR) : "/tmp"}] \
	genprm-[pid]]
file mkdir $tmp
foreach h {mlx5_ifc.h mlx5_ifc_fpga.h} {
    file copy -force [file join $mlx5dir $h] $tmp
}
set f [open $tmp/offsets.c w]
puts -nonewline $f $c
close $f
set cc [expr {[info exists env(CC)] ? $env(CC) : "cc"}]
exec $cc -w -o $tmp/offsets $tmp/offsets.c
set out [exec $tmp/offsets]
file delete -force $tmp

#
# Read the layout back: layout(T) = {kind bits {field ...}}, a field
# {name offset width count subtype}: width of one element in bits, count
# 1 for a scalar, N for an array, 0 for a flexible array; subtype "-"
# for a number.  A byte array (u8 x[N][0x8]) is one N-byte number.
#
foreach line [split $out \n] {
    switch -- [lindex $line 0] {
	T {
	    lassign $line - cur kind bits
	    set layout($cur) [list $kind $bits {}]
	}
	M {
	    lassign $line - name off total elem sub
	    if {$elem == 0} {
		set width $total
		set count 1
	    } else {
		set width $elem
		set count [expr {$total / $elem}]
	    }
	    if {$sub eq "-" && $count > 1 && $width == 8} {
		set width $total
		set count 1
	    }
	    lset layout($cur) 2 end+1 [list $name $off $width $count $sub]
	}
    }
}

#
# The overlay: each row must fall inside one reserved_* member.
#
foreach line [split [slurp $here/overlay.txt] \n] {
    if {[regexp {^\s*(#|$)} $line]} continue
    lassign $line type name off width
    set off [expr {$off}]
    set width [expr {$width}]
    if {![info exists layout($type)]} {
	error "overlay: no type $type"
    }
    set inside 0
    set known 0
    foreach fl [lindex $layout($type) 2] {
	lassign $fl fname foff fwidth fcount
	if {$fname eq $name} {
	    # A newer header has it: it must agree.
	    if {$foff != $off || $fwidth != $width} {
		error "overlay: $type.$name is $foff+$fwidth in the header"
	    }
	    set known 1
	}
	if {[string match reserved* $fname] && $off >= $foff
		&& $off + $width <= $foff + $fwidth * max($fcount, 1)} {
	    set inside 1
	}
    }
    if {$known} {
	continue
    }
    if {!$inside} {
	error "overlay: $type.$name ($off+$width) is not inside a reserved range"
    }
    set fields [lindex $layout($type) 2]
    lappend fields [list $name $off $width 1 -]
    lset layout($type) 2 [lsort -integer -index 1 $fields]
}

#
# Names: one pool, each name once.
#
set pool ""
proc intern {name} {
    global pool poolIdx
    if {![info exists poolIdx($name)]} {
	set poolIdx($name) [string length $pool]
	append pool $name \0
    }
    return $poolIdx($name)
}

set typeNames [lsort [array names layout]]
set i 0
foreach t $typeNames {
    set typeIdx($t) $i
    incr i
}

set typeRows {}
set fieldRows {}
set nfields 0
foreach t $typeNames {
    lassign $layout($t) kind bits fields
    set first $nfields
    foreach fl $fields {
	lassign $fl name off width count sub
	if {[string match reserved* $name]} continue
	set st [expr {$sub eq "-" ? -1 : $typeIdx($sub)}]
	lappend fieldRows "    {[intern $name], $off, $width, $count, $st},\
		/* $t.$name */"
	incr nfields
    }
    lappend typeRows "    {[intern $t], $bits, $first, [expr {$nfields - $first}],\
	    [expr {$kind eq "union"}]},\t/* $typeIdx($t): $t */"
}

proc enumRows {text prefix} {
    set rows {}
    foreach {- name value} [regexp -all -inline \
	    "\\m${prefix}(\\w+)\\s*=\\s*(0x\[0-9a-fA-F\]+|\\d+)" $text] {
	lappend rows [list [string tolower $name] [expr {$value}]]
    }
    return $rows
}
set ifc [uncomment [slurp [file join $mlx5dir mlx5_ifc.h]]]
# GENERAL_START and GENERAL_END mark a range (0xb00 is SYNC_STEERING too).
set opcodes {}
foreach row [enumRows $ifc MLX5_CMD_OP_] {
    if {[lindex $row 0] ni {general_start general_end}} {
	lappend opcodes $row
    }
}
set opcodes [lsort -integer -index 1 -unique $opcodes]
set objTypes [lsort -integer -index 1 -unique [concat \
	[enumRows $ifc MLX5_OBJ_TYPE_] [enumRows $ifc MLX5_GENERAL_OBJECT_TYPES_]]]
set stats {}
foreach row [enumRows [uncomment [slurp [file join $mlx5dir device.h]]] \
	MLX5_CMD_STAT_] {
    lassign $row name value
    regsub {_err$} $name {} name
    lappend stats [list $name $value]
}
set stats [lsort -integer -index 1 -unique $stats]

proc nameRows {rows} {
    set out {}
    foreach row $rows {
	lassign $row name value
	lappend out "    {[intern $name], [format 0x%x $value]},\t/* $name */"
    }
    return [join $out \n]
}
set opcodeRows [nameRows $opcodes]
set objRows [nameRows $objTypes]
set statRows [nameRows $stats]

#
# The pool as C string literals, 72 columns.
#
proc poolLiteral {pool} {
    set lines {}
    set cur ""
    foreach name [split [string range $pool 0 end-1] \0] {
	set piece "$name\\0"
	if {[string length $cur] + [string length $piece] > 68} {
	    lappend lines "    \"$cur\""
	    set cur ""
	} elseif {$cur ne "" && [string is digit [string index $name 0]]} {
	    # "\\0" and a digit would read as one octal escape.
	    append cur "\" \""
	}
	append cur $piece
    }
    lappend lines "    \"$cur\""
    return [join $lines \n]
}

set f [open $output w]
puts $f "/*
 * mlx5PrmTable.c --
 *
 *	GENERATED by tools/mlx5prm/genprm.tcl: do not edit; regenerate with
 *	`make prm-table`.  Each row's comment names its type (with its
 *	index), its TYPE.FIELD or its name, so that a diff after a header
 *	refresh reads as what changed.  The mlx5 PRM layouts (mlx5_ifc_*_bits), command
 *	opcodes, general object types and command statuses of
 *	include/linux/mlx5/{mlx5_ifc.h,mlx5_ifc_fpga.h,device.h} of
 *	$version,
 *	plus the DevX fields of tools/mlx5prm/overlay.txt.
 *
 *	Derived from those headers, Copyright (c) 2013-2015 Mellanox
 *	Technologies, Ltd., which are available under a choice of the GNU
 *	General Public License version 2 or the OpenIB.org BSD license; this
 *	file is used and distributed under the OpenIB.org BSD license:
 *
 *	Redistribution and use in source and binary forms, with or without
 *	modification, are permitted provided that the following conditions
 *	are met:
 *	 - Redistributions of source code must retain the above copyright
 *	   notice, this list of conditions and the following disclaimer.
 *	 - Redistributions in binary form must reproduce the above copyright
 *	   notice, this list of conditions and the following disclaimer in
 *	   the documentation and/or other materials provided with the
 *	   distribution.
 *	THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND,
 *	EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
 *	MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
 *	NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS
 *	BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN
 *	ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
 *	CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 *	SOFTWARE.
 *
 *	[llength $typeNames] types, $nfields named fields, [llength $opcodes] opcodes,\
	[llength $objTypes] object types, [llength $stats] statuses.
 */

#include \"mlx5PrmInt.h\"

const char mlx5PrmNames\[\] =
[poolLiteral $pool];

const Mlx5PrmType mlx5PrmTypes\[\] = {
[join $typeRows \n]
};
const int mlx5PrmNumTypes = [llength $typeNames];

const Mlx5PrmField mlx5PrmFields\[\] = {
[join $fieldRows \n]
};

const Mlx5PrmName mlx5PrmOpcodes\[\] = {
$opcodeRows
};
const int mlx5PrmNumOpcodes = [llength $opcodes];

const Mlx5PrmName mlx5PrmObjTypes\[\] = {
$objRows
};
const int mlx5PrmNumObjTypes = [llength $objTypes];

const Mlx5PrmName mlx5PrmStatuses\[\] = {
$statRows
};
const int mlx5PrmNumStatuses = [llength $stats];"
close $f
